/* qm-accuracy.c: the error model of issue #36, read from
 * data/catalog/accuracy.json (see qm-accuracy.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "qm-accuracy.h"
#include "qm-catalog-resources.h"
#include "qm-engine.h"
#include "qm-format.h"

#define ACCURACY_RESOURCE "/io/github/quartermaster/Quartermaster/catalog/accuracy.json"

static const char * const domain_names[QM_N_ACCURACY_DOMAINS] = { "training", "serving" };

const char *
qm_accuracy_training_kind (QmMode mode,
                           guint  cp,
                           guint  zero_stage)
{
  if (mode == QM_MODE_LORA || mode == QM_MODE_QLORA)
    return "LoRA";
  if (cp > 1)
    return "CP";
  if (zero_stage == 3)
    return "FSDP";
  return "3D";
}

static void
family_free (gpointer p)
{
  QmAccuracyFamily *f = p;

  g_free ((char *) f->family);
  g_free ((char *) f->kind);
  g_free (f);
}

static gboolean
fail (GError    **error,
      const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "accuracy.json: %s", what);
  return FALSE;
}

static const char *
opt_string (JsonObject *o,
            const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || JSON_NODE_HOLDS_NULL (n) || !JSON_NODE_HOLDS_VALUE (n) ||
      json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static gboolean
number (JsonObject *o,
        const char *key,
        double     *out)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_INT64:
      *out = (double) json_node_get_int (n);
      return TRUE;
    case G_TYPE_DOUBLE:
      *out = json_node_get_double (n);
      return isfinite (*out);
    default:
      return FALSE;
    }
}

static GPtrArray *
parse_domain (JsonObject  *root,
              const char  *name,
              GError     **error)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (family_free);
  JsonNode *dn = json_object_get_member (root, name);
  JsonNode *fn;
  JsonArray *a;
  gboolean pooled = FALSE;

  if (dn == NULL || !JSON_NODE_HOLDS_OBJECT (dn))
    {
      fail (error, name);
      return NULL;
    }
  fn = json_object_get_member (json_node_get_object (dn), "families");
  if (fn == NULL || !JSON_NODE_HOLDS_ARRAY (fn))
    {
      fail (error, "families must be an array");
      return NULL;
    }
  a = json_node_get_array (fn);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *en = json_array_get_element (a, i);
      g_autofree QmAccuracyFamily *f = g_new0 (QmAccuracyFamily, 1);
      JsonObject *o;
      double runs, lo, hi;

      if (!JSON_NODE_HOLDS_OBJECT (en))
        {
          fail (error, "a family must be an object");
          return NULL;
        }
      o = json_node_get_object (en);
      if (!number (o, "runs", &runs) || !number (o, "gpus_min", &lo) || !number (o, "gpus_max", &hi) ||
          !number (o, "bias", &f->bias) || !number (o, "p10", &f->p10) || !number (o, "p90", &f->p90) ||
          runs < 1 || f->p10 > f->p90)
        {
          fail (error, "a family needs runs >= 1, gpus_min, gpus_max, bias, p10 <= p90");
          return NULL;
        }
      f->runs = (guint) runs;
      f->gpus_min = (guint) lo;
      f->gpus_max = (guint) hi;
      f->family = g_strdup (opt_string (o, "family"));
      f->kind = g_strdup (opt_string (o, "kind"));
      pooled |= f->family == NULL && f->kind == NULL;
      /* The pooled family first: lookup falls back to element 0. */
      if (f->family == NULL && f->kind == NULL)
        g_ptr_array_insert (out, 0, g_steal_pointer (&f));
      else
        g_ptr_array_add (out, g_steal_pointer (&f));
    }
  if (!pooled)
    {
      fail (error, "every domain needs its pooled family (family and kind null)");
      return NULL;
    }
  return g_steal_pointer (&out);
}

gboolean
qm_accuracy_parse (const char  *json,
                   gssize       len,
                   GPtrArray  **training,
                   GPtrArray  **serving,
                   GError     **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonObject *o;

  if (!json_parser_load_from_data (parser, json, len, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return fail (error, "expected an object");
  o = json_node_get_object (root);
  if ((*training = parse_domain (o, domain_names[QM_ACCURACY_TRAINING], error)) == NULL)
    return FALSE;
  if ((*serving = parse_domain (o, domain_names[QM_ACCURACY_SERVING], error)) == NULL)
    {
      g_clear_pointer (training, g_ptr_array_unref);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  GPtrArray *d[QM_N_ACCURACY_DOMAINS];
} Model;

static gpointer
load (gpointer data)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  Model *m = g_new0 (Model, 1);
  gsize len;
  const char *json;

  (void) data;
  bytes = g_resource_lookup_data (qm_catalog_data_get_resource (), ACCURACY_RESOURCE,
                                  G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    g_error ("Built-in error model is missing: %s", error->message);
  json = g_bytes_get_data (bytes, &len);
  if (!qm_accuracy_parse (json, (gssize) len, &m->d[QM_ACCURACY_TRAINING], &m->d[QM_ACCURACY_SERVING],
                          &error))
    g_error ("Built-in error model is invalid: %s", error->message);
  return m;
}

static GPtrArray *
domain (QmAccuracyDomain d)
{
  static GOnce once = G_ONCE_INIT;
  Model *m = g_once (&once, load, NULL);

  return m->d[d];
}

const QmAccuracyFamily * const *
qm_accuracy_families (QmAccuracyDomain d,
                      guint           *n)
{
  GPtrArray *a = domain (d);

  if (n)
    *n = a->len;
  return (const QmAccuracyFamily * const *) a->pdata;
}

static const QmAccuracyFamily *
find (GPtrArray  *a,
      const char *family,
      const char *kind)
{
  for (guint i = 0; i < a->len; i++)
    {
      const QmAccuracyFamily *f = a->pdata[i];

      if (g_strcmp0 (f->family, family) == 0 && g_strcmp0 (f->kind, kind) == 0)
        return f;
    }
  return NULL;
}

void
qm_accuracy_lookup (QmAccuracyDomain  d,
                    const char       *gpu_family,
                    const char       *kind,
                    QmAccuracyFit    *out)
{
  GPtrArray *a = domain (d);
  const QmAccuracyFamily *f = NULL, *whole = NULL;

  memset (out, 0, sizeof *out);
  out->domain = d;
  if (gpu_family != NULL)
    {
      whole = find (a, gpu_family, NULL);
      if (kind != NULL)
        f = find (a, gpu_family, kind);
    }
  out->family_runs = whole ? whole->runs : 0;
  if (f != NULL && f->runs >= QM_ACCURACY_MIN_RUNS)
    out->family = f;
  else if (whole != NULL && whole->runs >= QM_ACCURACY_MIN_RUNS)
    out->family = whole;
  else
    out->family = a->pdata[0];
  out->covered = out->family->family != NULL;
  out->p10 = MIN (out->family->p10, -QM_ACCURACY_MIN_HALF_WIDTH);
  out->p90 = MAX (out->family->p90, QM_ACCURACY_MIN_HALF_WIDTH);
}

double
qm_accuracy_error_at (const QmAccuracyFit *fit,
                      double               confidence)
{
  double c = CLAMP (confidence, QM_ACCURACY_CONFIDENCE_DEFAULT, QM_ACCURACY_CONFIDENCE_MAX);

  return fit->p90 * (c - QM_ACCURACY_CONFIDENCE_DEFAULT) /
         (QM_ACCURACY_CONFIDENCE_MAX - QM_ACCURACY_CONFIDENCE_DEFAULT);
}

void
qm_accuracy_rate_band (const QmAccuracyFit *fit,
                       double               v,
                       double              *low,
                       double              *high)
{
  *low = v / (1.0 + fit->p90);
  *high = v / (1.0 + fit->p10);
}

void
qm_accuracy_cost_band (const QmAccuracyFit *fit,
                       double               v,
                       double              *low,
                       double              *high)
{
  *low = v * (1.0 + fit->p10);
  *high = v * (1.0 + fit->p90);
}

char *
qm_accuracy_family_label (const char *family)
{
  gboolean digits = FALSE;

  if (family == NULL)
    return g_strdup ("");
  for (const char *p = family; *p; p++)
    digits |= g_ascii_isdigit (*p);
  if (digits || strlen (family) <= 3)
    return g_ascii_strup (family, -1);
  return g_strdup_printf ("%c%s", g_ascii_toupper (family[0]), family + 1);
}

static const char *
kind_label (QmAccuracyDomain d,
            const char      *kind)
{
  if (d == QM_ACCURACY_SERVING)
    {
      const QmEngineSpec *e = qm_engine_lookup (kind);

      return e ? e->info.name : kind;
    }
  if (g_strcmp0 (kind, "3D") == 0)
    return _("3D parallel");
  if (g_strcmp0 (kind, "CP") == 0)
    return _("context parallel");
  if (g_strcmp0 (kind, "FSDP") == 0)
    return _("FSDP");
  if (g_strcmp0 (kind, "LoRA") == 0)
    return _("LoRA");
  return kind;
}

char *
qm_accuracy_basis (const QmAccuracyFit *fit,
                   const char          *gpu_name)
{
  const QmAccuracyFamily *f = fit->family;
  char lo[32], hi[32];
  g_autofree char *fam = NULL;

  qm_format_number (lo, sizeof lo, f->gpus_min, 0);
  qm_format_number (hi, sizeof hi, f->gpus_max, 0);
  if (!fit->covered)
    {
      if (fit->family_runs == 0)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "No published runs on this GPU (%s): the spread of the %u run "
                                          "on every GPU",
                                          "No published runs on this GPU (%s): the spread of all %u runs "
                                          "on every GPU", f->runs),
                                gpu_name ? gpu_name : "", f->runs);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Only %u published run on this GPU's family (%s): the spread of "
                                        "all %u runs on every GPU",
                                        "Only %u published runs on this GPU's family (%s): the spread of "
                                        "all %u runs on every GPU", fit->family_runs),
                              fit->family_runs, gpu_name ? gpu_name : "", f->runs);
    }
  fam = qm_accuracy_family_label (f->family);
  if (f->kind == NULL)
    /* Translators: runs, a GPU family ("H100"), then the range of GPU
     * counts the runs used ("8–16,384"). */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u published run on %s-class GPUs, %s–%s GPUs",
                                      "%u published runs on %s-class GPUs, %s–%s GPUs", f->runs),
                            f->runs, fam, lo, hi);
  /* Translators: runs, a GPU family ("H100"), a kind of run ("3D
   * parallel", "vLLM"), then the range of GPU counts ("8–16,384"). */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u published run on %s-class GPUs, %s, %s–%s GPUs",
                                    "%u published runs on %s-class GPUs, %s, %s–%s GPUs", f->runs),
                          f->runs, fam, kind_label (fit->domain, f->kind), lo, hi);
}
