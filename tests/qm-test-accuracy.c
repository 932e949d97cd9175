/* qm-test-accuracy.c: see qm-test-accuracy.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qm-test-accuracy.h"

static const char * const domain_names[QM_N_ACCURACY_DOMAINS] = { "training", "serving" };

typedef struct
{
  char   *family, *kind;
  guint   gpus_min, gpus_max;
  GArray *errors;
} Group;

static void
group_free (gpointer p)
{
  Group *g = p;

  g_free (g->family);
  g_free (g->kind);
  g_array_unref (g->errors);
  g_free (g);
}

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Nearest rank, as the validations' own tables (test-parallel.c). */
static double
quantile (const double *sorted,
          guint         n,
          double        q)
{
  guint r = (guint) ceil (q * n);

  return sorted[CLAMP (r, 1u, n) - 1];
}

static double
median (const double *sorted,
        guint         n)
{
  return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

static Group *
group_get (GPtrArray  *groups,
           const char *family,
           const char *kind)
{
  Group *g;

  for (guint i = 0; i < groups->len; i++)
    {
      g = groups->pdata[i];
      if (g_strcmp0 (g->family, family) == 0 && g_strcmp0 (g->kind, kind) == 0)
        return g;
    }
  g = g_new0 (Group, 1);
  g->family = g_strdup (family);
  g->kind = g_strdup (kind);
  g->gpus_min = G_MAXUINT;
  g->errors = g_array_new (FALSE, FALSE, sizeof (double));
  g_ptr_array_add (groups, g);
  return g;
}

static void
group_add (Group                   *g,
           const QmTestAccuracyRun *r)
{
  g_array_append_val (g->errors, r->error);
  g->gpus_min = MIN (g->gpus_min, r->gpus);
  g->gpus_max = MAX (g->gpus_max, r->gpus);
}

/* Pooled first, then by family, each family's whole before its kinds. */
static int
cmp_group (gconstpointer a,
           gconstpointer b)
{
  const Group *x = *(Group * const *) a, *y = *(Group * const *) b;
  int c;

  if ((x->family == NULL) != (y->family == NULL))
    return x->family == NULL ? -1 : 1;
  if ((c = g_strcmp0 (x->family, y->family)) != 0)
    return c;
  if ((x->kind == NULL) != (y->kind == NULL))
    return x->kind == NULL ? -1 : 1;
  return g_strcmp0 (x->kind, y->kind);
}

static void
append_string_or_null (GString    *s,
                       const char *v)
{
  if (v == NULL)
    g_string_append (s, "null");
  else
    g_string_append_printf (s, "\"%s\"", v);
}

static void
append_family (GString    *s,
               const char *family,
               const char *kind,
               guint       runs,
               guint       gpus_min,
               guint       gpus_max,
               double      bias,
               double      p10,
               double      p90)
{
  char b[3][G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (s, "      { \"family\": ");
  append_string_or_null (s, family);
  g_string_append (s, ", \"kind\": ");
  append_string_or_null (s, kind);
  g_string_append_printf (s, ", \"runs\": %u, \"gpus_min\": %u, \"gpus_max\": %u, "
                          "\"bias\": %s, \"p10\": %s, \"p90\": %s }",
                          runs, gpus_min, gpus_max,
                          g_ascii_formatd (b[0], sizeof b[0], "%.4f", bias),
                          g_ascii_formatd (b[1], sizeof b[1], "%.4f", p10),
                          g_ascii_formatd (b[2], sizeof b[2], "%.4f", p90));
}

/* The domain's part of the file from the validation's runs. */
static char *
domain_from_runs (QmAccuracyDomain  domain,
                  const char       *error_basis,
                  GArray           *runs)
{
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func (group_free);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < runs->len; i++)
    {
      const QmTestAccuracyRun *r = &g_array_index (runs, QmTestAccuracyRun, i);

      group_add (group_get (groups, NULL, NULL), r);
      group_add (group_get (groups, r->family, NULL), r);
      group_add (group_get (groups, r->family, r->kind), r);
    }
  g_ptr_array_sort (groups, cmp_group);
  g_string_append_printf (s, "  \"%s\": {\n    \"error\": \"%s\",\n    \"families\": [\n",
                          domain_names[domain], error_basis);
  for (guint i = 0; i < groups->len; i++)
    {
      Group *g = groups->pdata[i];
      double *e = (double *) g->errors->data;
      guint n = g->errors->len;

      qsort (e, n, sizeof (double), cmp_double);
      append_family (s, g->family, g->kind, n, g->gpus_min, g->gpus_max, median (e, n), quantile (e, n, 0.10),
                     quantile (e, n, 0.90));
      g_string_append (s, i + 1 < groups->len ? ",\n" : "\n");
    }
  g_string_append (s, "    ]\n  }");
  return g_string_free (s, FALSE);
}

static double
member_double (JsonObject *o,
               const char *key)
{
  return json_object_has_member (o, key) ? json_object_get_double_member (o, key) : 0.0;
}

static const char *
member_string (JsonObject *o,
               const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  return n && JSON_NODE_HOLDS_VALUE (n) ? json_node_get_string (n) : NULL;
}

/* The other domain's part as the file has it, written the same way. */
static char *
domain_from_file (JsonObject       *root,
                  QmAccuracyDomain  domain)
{
  GString *s = g_string_new (NULL);
  JsonObject *d = root && json_object_has_member (root, domain_names[domain])
                  ? json_object_get_object_member (root, domain_names[domain]) : NULL;
  JsonArray *a = d && json_object_has_member (d, "families") ? json_object_get_array_member (d, "families") : NULL;
  guint n = a ? json_array_get_length (a) : 0;

  g_string_append_printf (s, "  \"%s\": {\n    \"error\": \"%s\",\n    \"families\": [\n", domain_names[domain],
                          d && member_string (d, "error") ? member_string (d, "error") : "");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);

      append_family (s, member_string (o, "family"), member_string (o, "kind"),
                     (guint) json_object_get_int_member (o, "runs"),
                     (guint) json_object_get_int_member (o, "gpus_min"),
                     (guint) json_object_get_int_member (o, "gpus_max"),
                     member_double (o, "bias"), member_double (o, "p10"), member_double (o, "p90"));
      g_string_append (s, i + 1 < n ? ",\n" : "\n");
    }
  g_string_append (s, "    ]\n  }");
  return g_string_free (s, FALSE);
}

char *
qm_test_accuracy_check (QmAccuracyDomain  domain,
                        const char       *error_basis,
                        GArray           *runs)
{
  const char *src = g_getenv ("QM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : "..", "data", "catalog", "accuracy.json", NULL);
  g_autofree char *old = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root = NULL;
  /* Not g_autofree: on an array it frees only the first element. */
  char *parts[QM_N_ACCURACY_DOMAINS] = { NULL };
  char *fresh;

  if (g_file_get_contents (path, &old, NULL, NULL) && json_parser_load_from_data (parser, old, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    root = json_node_get_object (json_parser_get_root (parser));
  for (guint d = 0; d < QM_N_ACCURACY_DOMAINS; d++)
    parts[d] = d == domain ? domain_from_runs (domain, error_basis, runs) : domain_from_file (root, d);
  fresh = g_strdup_printf (
    "{\n"
    "  \"format_version\": 1,\n"
    "  \"about\": \"The error model of issue #36: held-out errors of the leave-one-source-out validations, "
    "predicted / published - 1 (positive: the model was optimistic), by GPU family and kind (training: "
    "parallelism; serving: engine). Written by tests/test-parallel.c and tests/test-inference.c from "
    "tests/data with QM_UPDATE_DOCS=1; those tests fail when it is stale. Do not edit by hand.\",\n"
    "%s,\n%s\n}\n", parts[0], parts[1]);
  for (guint d = 0; d < QM_N_ACCURACY_DOMAINS; d++)
    g_free (parts[d]);
  if (g_strcmp0 (g_getenv ("QM_UPDATE_DOCS"), "1") == 0)
    {
      g_autoptr (GError) error = NULL;

      g_file_set_contents (path, fresh, -1, &error);
      g_assert_no_error (error);
      g_test_message ("wrote %s", path);
    }
  else if (g_strcmp0 (old, fresh) != 0)
    {
      g_test_message ("%s: the %s error model is stale; regenerate it with QM_UPDATE_DOCS=1", path,
                      domain_names[domain]);
      g_test_fail ();
    }
  return fresh;
}
