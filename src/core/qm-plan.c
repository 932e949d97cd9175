/* qm-plan.c: read and write plan files (shared/design/plan-format.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "qm-catalog.h"
#include "qm-catalog-json.h"
#include "qm-compute.h"
#include "qm-plan.h"
#include "qm-reliability.h"
#include "qm-text.h"

G_DEFINE_QUARK (qm-plan-error-quark, qm_plan_error)

/* ------------------------------------------------------------------ */
/* Errors                                                             */

static char *
describe_node (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  if (JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup ("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return g_strdup ("an array");
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
    case G_TYPE_DOUBLE:
      return g_strdup_printf ("%g", json_node_get_double (node));
    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (node) ? "true" : "false");
    case G_TYPE_STRING:
      {
        const char *s = json_node_get_string (node);
        g_autofree char *cut = g_utf8_make_valid (s, MIN (strlen (s), 60));
        g_autofree char *safe = qm_text_escape (cut);

        return g_strdup_printf ("\"%s%s\"", safe, strlen (s) > 60 ? "…" : "");
      }
    default:
      return g_strdup ("?");
    }
}

G_GNUC_PRINTF (5, 6)
static gboolean
fail_node (GError    **error,
           QmPlanError code,
           const char *path,
           JsonNode   *node,
           const char *format,
           ...)
{
  g_autofree char *what = NULL;
  g_autofree char *got = describe_node (node);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, QM_PLAN_ERROR, code, "%s: %s (got %s)", path, what, got);
  return FALSE;
}

G_GNUC_PRINTF (3, 4)
static gboolean
fail_missing (GError    **error,
              const char *path,
              const char *format,
              ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_MISSING, "%s: %s", path, what);
  return FALSE;
}

G_GNUC_PRINTF (4, 5)
static gboolean
fail_value (GError    **error,
            const char *path,
            double      got,
            const char *format,
            ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID, "%s: %s (got %g)", path, what, got);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Typed getters. Each takes the object, the path of the object and the  */
/* key; absent keys leave *out alone and set *present = FALSE.          */

typedef struct
{
  GPtrArray *warnings;
  char       path[256];
} Reader;

static const char *
path_of (Reader     *r,
         const char *prefix,
         const char *key)
{
  if (prefix == NULL || *prefix == '\0')
    g_strlcpy (r->path, key, sizeof r->path);
  else
    g_snprintf (r->path, sizeof r->path, "%s.%s", prefix, key);
  return r->path;
}

static void
check_unknown (Reader            *r,
               JsonObject        *o,
               const char        *prefix,
               const char * const *known)
{
  g_autoptr(GList) members = json_object_get_members (o);

  for (GList *l = members; l; l = l->next)
    {
      const char *k = l->data;
      gboolean ok = FALSE;

      for (guint i = 0; known[i] && !ok; i++)
        ok = strcmp (known[i], k) == 0;
      if (!ok && r->warnings)
        g_ptr_array_add (r->warnings,
                         g_strdup_printf ("%s: unknown key, ignored", path_of (r, prefix, k)));
    }
}

static gboolean
is_number (JsonNode *n)
{
  GType t;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  t = json_node_get_value_type (n);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static gboolean
get_double (Reader      *r,
            JsonObject  *o,
            const char  *prefix,
            const char  *key,
            gboolean     required,
            double      *out,
            gboolean    *present,
            GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);
  double v;

  if (present)
    *present = FALSE;
  if (n == NULL)
    return required ? fail_missing (error, path_of (r, prefix, key), "required") : TRUE;
  if (!is_number (n))
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be a number");
  v = json_node_get_double (n);
  if (!isfinite (v))
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be a finite number");
  *out = v;
  if (present)
    *present = TRUE;
  return TRUE;
}

static gboolean
get_uint (Reader      *r,
          JsonObject  *o,
          const char  *prefix,
          const char  *key,
          gboolean     required,
          guint       *out,
          gboolean    *present,
          GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);
  double v;

  if (present)
    *present = FALSE;
  if (n == NULL)
    return required ? fail_missing (error, path_of (r, prefix, key), "required") : TRUE;
  if (!is_number (n))
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be a whole number");
  v = json_node_get_double (n);
  if (!isfinite (v) || v != floor (v) || v < 0 || v > 1e9)
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be a whole number from 0 to 1e9");
  *out = (guint) v;
  if (present)
    *present = TRUE;
  return TRUE;
}

/* tp/pp/cp/ep: a whole number >= 1, or "auto" (or absent) for 0. */
static gboolean
get_auto_uint (Reader      *r,
               JsonObject  *o,
               const char  *prefix,
               const char  *key,
               guint       *out,
               GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING &&
      strcmp (json_node_get_string (n), "auto") == 0)
    {
      *out = 0;
      return TRUE;
    }
  if (!is_number (n) || json_node_get_double (n) != floor (json_node_get_double (n)) ||
      json_node_get_double (n) < 1 || json_node_get_double (n) > 1e6)
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be a whole number >= 1 or \"auto\"");
  *out = (guint) json_node_get_double (n);
  return TRUE;
}

static gboolean
get_bool (Reader      *r,
          JsonObject  *o,
          const char  *prefix,
          const char  *key,
          gboolean    *out,
          GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be true or false");
  *out = json_node_get_boolean (n);
  return TRUE;
}

static gboolean
check_text (Reader      *r,
            const char  *prefix,
            const char  *key,
            const char  *s,
            gboolean     multiline,
            GError     **error)
{
  glong at = 0;
  const char *bad = qm_text_find_unsafe (s, multiline, &at);

  if (bad == NULL)
    return TRUE;
  g_set_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID,
               "%s: must not contain control characters or bidirectional overrides"
               " (got U+%04X at character %ld)",
               path_of (r, prefix, key), g_utf8_get_char (bad), at);
  return FALSE;
}

static gboolean
get_string (Reader      *r,
            JsonObject  *o,
            const char  *prefix,
            const char  *key,
            gboolean     required,
            char        *out,
            gsize        size,
            GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);
  const char *s;

  if (n == NULL)
    return required ? fail_missing (error, path_of (r, prefix, key), "required") : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be a string");
  s = json_node_get_string (n);
  if (strlen (s) >= size)
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be shorter than %" G_GSIZE_FORMAT " bytes", size);
  /* A stranger's file: no terminal escapes or bidi overrides, which would
   * reach a terminal, a PDF or a spreadsheet; notes may break lines. */
  if (!check_text (r, prefix, key, s, g_str_equal (key, "notes"), error))
    return FALSE;
  g_strlcpy (out, s, size);
  return TRUE;
}

/* An enum given as a string; parse_fn maps it. */
typedef gboolean (*EnumFromString) (const char *s, gpointer out);

static gboolean
get_enum (Reader         *r,
          JsonObject     *o,
          const char     *prefix,
          const char     *key,
          gboolean        required,
          EnumFromString  from_string,
          gpointer        out,
          const char     *choices,
          GError        **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    return required ? fail_missing (error, path_of (r, prefix, key), "required, one of %s", choices)
                    : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING ||
      !from_string (json_node_get_string (n), out))
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be one of %s", choices);
  return TRUE;
}

static gboolean
get_object (Reader      *r,
            JsonObject  *o,
            const char  *prefix,
            const char  *key,
            gboolean     required,
            JsonObject **out,
            GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  *out = NULL;
  if (n == NULL)
    return required ? fail_missing (error, path_of (r, prefix, key), "required") : TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (n))
    return fail_node (error, QM_PLAN_ERROR_INVALID, path_of (r, prefix, key), n,
                      "must be an object");
  *out = json_node_get_object (n);
  return TRUE;
}

static gboolean
precision_from_string (const char *s,
                       gpointer    out)
{
  return qm_precision_from_string (s, out);
}

static gboolean
arrival_from_string (const char *s,
                     gpointer    out)
{
  if (g_strcmp0 (s, "poisson") == 0)
    *(QmArrival *) out = QM_ARRIVAL_POISSON;
  else if (g_strcmp0 (s, "offline") == 0)
    *(QmArrival *) out = QM_ARRIVAL_OFFLINE;
  else
    return FALSE;
  return TRUE;
}

static gboolean
training_precision_from_string (const char *s,
                                gpointer    out)
{
  QmPrecision p;

  if (!qm_precision_from_string (s, &p))
    return FALSE;
  if (p != QM_PRECISION_FP32 && p != QM_PRECISION_FP16 && p != QM_PRECISION_BF16 &&
      p != QM_PRECISION_FP8)
    return FALSE;
  *(QmPrecision *) out = p;
  return TRUE;
}

#define ENUM_FN(fn) ((EnumFromString) (void (*) (void)) (fn))

/* ------------------------------------------------------------------ */
/* Sections                                                           */

static const char * const top_keys[] = {
  "format", "version", "name", "notes", "customer", "quote_ref", "workload", "target",
  "hardware", "facility", "pricing", "reliability", NULL
};
static const char * const workload_keys[] = {
  "mode", "model", "tokens_b", "epochs", "seq_len", "global_batch", "micro_batch",
  "precision", "optimizer", "zero_stage", "recompute", "flash_attention",
  "sequence_parallel", "fp32_grad_buffer", "tp", "pp", "cp", "ep", "virtual_stages", "mfu",
  "lora_rank", "inference", NULL
};
static const char * const model_keys[] = {
  "preset", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn_hidden", "vocab",
  "gated_mlp", "tied_embeddings", "experts", "experts_per_token", "shared_experts",
  "moe_ffn_hidden", "dense_layers", "q_lora_rank", "kv_lora_rank", "rope_head_dim",
  "params_b", NULL
};
static const char * const inference_keys[] = {
  "requests_per_minute", "input_tokens", "output_tokens", "concurrency",
  "weight_precision", "kv_precision", "ttft_ms", "tpot_ms", "arrival", "input_tokens_sd",
  "output_tokens_sd", "lengths_csv", "max_sequences", NULL
};
static const char * const target_keys[] = { "gpus", "deadline_days", NULL };
static const char * const hardware_keys[] = {
  "gpu", "server", "network", "storage", "gpu_spec", "server_spec", "network_spec",
  "storage_spec", NULL
};
static const char * const facility_keys[] = {
  "pue", "usd_per_kwh", "rack_kw", "rack_units", "gco2_per_kwh", "air_cooling_kw",
  "colo_usd_per_kw_month", NULL
};
static const char * const pricing_keys[] = {
  "mode", "usd_per_gpu_hour", "amortization_years", "support_fraction", "currency", "offer",
  NULL
};
static const char * const reliability_keys[] = { "preset", "restart_minutes", NULL };

static gboolean
read_model (Reader      *r,
            JsonObject  *o,
            QmWorkload  *w,
            GError     **error)
{
  const char *P = "workload.model";
  QmModelShape *s = &w->model;
  gboolean given[8] = { 0 };
  gboolean any = FALSE, have_params = FALSE;
  double params_b = 0;
  static const char *core[] = { "layers", "hidden", "heads", "vocab", "ffn_hidden" };

  check_unknown (r, o, P, model_keys);
  if (!get_string (r, o, P, "preset", FALSE, w->preset, sizeof w->preset, error))
    return FALSE;
  if (w->preset[0] != '\0')
    {
      const QmModelPreset *preset = qm_catalog_model (w->preset);

      if (preset == NULL)
        return fail_node (error, QM_PLAN_ERROR_UNKNOWN_ID, "workload.model.preset",
                          json_object_get_member (o, "preset"),
                          "unknown model preset; give the shape fields instead");
      *s = preset->shape;
    }

  if (!get_uint (r, o, P, "layers", FALSE, &s->layers, &given[0], error) ||
      !get_uint (r, o, P, "hidden", FALSE, &s->hidden, &given[1], error) ||
      !get_uint (r, o, P, "heads", FALSE, &s->heads, &given[2], error) ||
      !get_uint (r, o, P, "vocab", FALSE, &s->vocab, &given[3], error) ||
      !get_uint (r, o, P, "ffn_hidden", FALSE, &s->ffn_hidden, &given[4], error) ||
      !get_uint (r, o, P, "kv_heads", FALSE, &s->kv_heads, &given[5], error) ||
      !get_uint (r, o, P, "head_dim", FALSE, &s->head_dim, &given[6], error) ||
      !get_bool (r, o, P, "gated_mlp", &s->gated_mlp, error) ||
      !get_bool (r, o, P, "tied_embeddings", &s->tied_embeddings, error) ||
      !get_uint (r, o, P, "experts", FALSE, &s->experts, &given[7], error) ||
      !get_uint (r, o, P, "experts_per_token", FALSE, &s->experts_per_token, NULL, error) ||
      !get_uint (r, o, P, "shared_experts", FALSE, &s->shared_experts, NULL, error) ||
      !get_uint (r, o, P, "moe_ffn_hidden", FALSE, &s->moe_ffn_hidden, NULL, error) ||
      !get_uint (r, o, P, "dense_layers", FALSE, &s->dense_layers, NULL, error) ||
      !get_uint (r, o, P, "q_lora_rank", FALSE, &s->q_lora_rank, NULL, error) ||
      !get_uint (r, o, P, "kv_lora_rank", FALSE, &s->kv_lora_rank, NULL, error) ||
      !get_uint (r, o, P, "rope_head_dim", FALSE, &s->rope_head_dim, NULL, error) ||
      !get_double (r, o, P, "params_b", FALSE, &params_b, &have_params, error))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (given); i++)
    any |= given[i];

  if (have_params)
    {
      if (!(params_b > 0) || params_b > 1e5)
        return fail_node (error, QM_PLAN_ERROR_INVALID, "workload.model.params_b",
                          json_object_get_member (o, "params_b"),
                          "must be > 0 and at most 100000 (billions)");
      s->params_hint = params_b * 1e9;
    }

  if (w->preset[0] == '\0')
    {
      if (any)
        {
          for (guint i = 0; i < G_N_ELEMENTS (core); i++)
            if (!given[i])
              return fail_missing (error, path_of (r, P, core[i]),
                                   "required with the other shape fields when no preset is given");
        }
      else if (!have_params)
        return fail_missing (error, P, "needs a preset, the shape fields or params_b");
    }
  return TRUE;
}

static gboolean
read_workload (Reader      *r,
               JsonObject  *o,
               QmWorkload  *w,
               GError     **error)
{
  const char *P = "workload";
  JsonObject *model, *inf;
  double tokens_b = 0;
  gboolean have_tokens = FALSE, have_rank = FALSE;

  check_unknown (r, o, P, workload_keys);
  if (!get_enum (r, o, P, "mode", TRUE, ENUM_FN (qm_mode_from_string), &w->mode,
                 "pretrain, finetune, lora, qlora, inference", error) ||
      !get_object (r, o, P, "model", TRUE, &model, error) ||
      !read_model (r, model, w, error) ||
      !get_double (r, o, P, "tokens_b", FALSE, &tokens_b, &have_tokens, error) ||
      !get_double (r, o, P, "epochs", FALSE, &w->epochs, NULL, error) ||
      !get_uint (r, o, P, "seq_len", FALSE, &w->seq_len, NULL, error) ||
      !get_uint (r, o, P, "global_batch", FALSE, &w->global_batch, NULL, error) ||
      !get_uint (r, o, P, "micro_batch", FALSE, &w->micro_batch, NULL, error) ||
      !get_enum (r, o, P, "precision", FALSE, training_precision_from_string, &w->precision,
                 "fp32, fp16, bf16, fp8", error) ||
      !get_enum (r, o, P, "optimizer", FALSE, ENUM_FN (qm_optimizer_from_string), &w->optimizer,
                 "adamw, adamw-8bit, sgd, adafactor", error) ||
      !get_uint (r, o, P, "zero_stage", FALSE, &w->zero_stage, NULL, error) ||
      !get_enum (r, o, P, "recompute", FALSE, ENUM_FN (qm_recompute_from_string), &w->recompute,
                 "none, selective, full", error) ||
      !get_bool (r, o, P, "flash_attention", &w->flash_attention, error) ||
      !get_bool (r, o, P, "sequence_parallel", &w->sequence_parallel, error) ||
      !get_bool (r, o, P, "fp32_grad_buffer", &w->fp32_grad_buffer, error) ||
      !get_auto_uint (r, o, P, "tp", &w->tp, error) ||
      !get_auto_uint (r, o, P, "pp", &w->pp, error) ||
      !get_auto_uint (r, o, P, "cp", &w->cp, error) ||
      !get_auto_uint (r, o, P, "ep", &w->ep, error) ||
      !get_auto_uint (r, o, P, "virtual_stages", &w->virtual_stages, error) ||
      !get_uint (r, o, P, "lora_rank", FALSE, &w->lora_rank, &have_rank, error))
    return FALSE;

  {
    JsonNode *n = json_object_get_member (o, "mfu");

    if (n != NULL && !(JSON_NODE_HOLDS_VALUE (n) &&
                       json_node_get_value_type (n) == G_TYPE_STRING &&
                       strcmp (json_node_get_string (n), "auto") == 0))
      {
        if (!get_double (r, o, P, "mfu", FALSE, &w->mfu, NULL, error))
          return FALSE;
        if (!(w->mfu > 0) || w->mfu > 1)
          return fail_node (error, QM_PLAN_ERROR_INVALID, "workload.mfu", n,
                            "must be > 0 and <= 1, or \"auto\"");
      }
  }

  if (have_tokens)
    w->tokens = tokens_b * 1e9;
  else if (w->mode != QM_MODE_INFERENCE)
    return fail_missing (error, "workload.tokens_b", "required for mode %s",
                         qm_mode_to_string (w->mode));
  if ((w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA) && !have_rank)
    w->lora_rank = 16;   /* HF PEFT examples; QLoRA §4 found r barely matters */

  if (!get_object (r, o, P, "inference", w->mode == QM_MODE_INFERENCE, &inf, error))
    return FALSE;
  if (inf != NULL)
    {
      const char *I = "workload.inference";
      QmInferenceSpec *is = &w->inference;

      check_unknown (r, inf, I, inference_keys);
      if (!get_double (r, inf, I, "requests_per_minute", FALSE, &is->requests_per_minute, NULL, error) ||
          !get_uint (r, inf, I, "input_tokens", FALSE, &is->input_tokens, NULL, error) ||
          !get_uint (r, inf, I, "output_tokens", FALSE, &is->output_tokens, NULL, error) ||
          !get_uint (r, inf, I, "concurrency", FALSE, &is->concurrency, NULL, error) ||
          !get_enum (r, inf, I, "weight_precision", FALSE, precision_from_string,
                     &is->weight_precision, "fp32, fp16, bf16, fp8, int8, fp4, int4", error) ||
          !get_enum (r, inf, I, "kv_precision", FALSE, precision_from_string,
                     &is->kv_precision, "fp32, fp16, bf16, fp8, int8, fp4, int4", error) ||
          !get_double (r, inf, I, "ttft_ms", FALSE, &is->ttft_ms, NULL, error) ||
          !get_double (r, inf, I, "tpot_ms", FALSE, &is->tpot_ms, NULL, error) ||
          !get_enum (r, inf, I, "arrival", FALSE, arrival_from_string, &is->arrival,
                     "poisson, offline", error) ||
          !get_double (r, inf, I, "input_tokens_sd", FALSE, &is->input_tokens_sd, NULL, error) ||
          !get_double (r, inf, I, "output_tokens_sd", FALSE, &is->output_tokens_sd, NULL, error) ||
          !get_string (r, inf, I, "lengths_csv", FALSE, is->lengths_csv,
                       sizeof is->lengths_csv, error) ||
          !get_uint (r, inf, I, "max_sequences", FALSE, &is->max_sequences, NULL, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_target (Reader      *r,
             JsonObject  *o,
             QmWorkload  *w,
             GError     **error)
{
  gboolean have_gpus = FALSE, have_deadline = FALSE;

  check_unknown (r, o, "target", target_keys);
  if (!get_uint (r, o, "target", "gpus", FALSE, &w->target_gpus, &have_gpus, error) ||
      !get_double (r, o, "target", "deadline_days", FALSE, &w->deadline_days, &have_deadline, error))
    return FALSE;
  if (have_gpus == have_deadline)
    return fail_missing (error, "target", "give exactly one of gpus or deadline_days");
  if (have_gpus && w->target_gpus < 1)
    return fail_node (error, QM_PLAN_ERROR_INVALID, "target.gpus",
                      json_object_get_member (o, "gpus"), "must be >= 1");
  if (have_deadline && !(w->deadline_days > 0))
    return fail_node (error, QM_PLAN_ERROR_INVALID, "target.deadline_days",
                      json_object_get_member (o, "deadline_days"), "must be > 0");
  return TRUE;
}

typedef gboolean (*SpecParser) (JsonObject *o, gpointer out, GError **error);
typedef gconstpointer (*SpecLookup) (const char *id);

/* hardware.<kind> (an id) and/or hardware.<kind>_spec (an embedded entry). */
static gboolean
read_hardware_item (Reader      *r,
                    JsonObject  *o,
                    const char  *kind,
                    gboolean     required,
                    SpecParser   parse,
                    SpecLookup   lookup,
                    gsize        spec_size,
                    gpointer     spec_out,
                    char        *id_out,
                    gboolean    *embedded,
                    GError     **error)
{
  g_autofree char *spec_key = g_strconcat (kind, "_spec", NULL);
  g_autofree char *id_path = g_strconcat ("hardware.", kind, NULL);
  JsonObject *spec;

  if (!get_string (r, o, "hardware", kind, FALSE, id_out, QM_ID_LEN, error) ||
      !get_object (r, o, "hardware", spec_key, FALSE, &spec, error))
    return FALSE;

  if (spec != NULL)
    {
      g_autoptr(GError) local = NULL;

      if (!parse (spec, spec_out, &local))
        {
          g_set_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID, "hardware.%s.%s",
                       spec_key, local->message);
          return FALSE;
        }
      *embedded = TRUE;
      if (id_out[0] == '\0')
        g_strlcpy (id_out, ((const QmCatalogInfo *) spec_out)->id
                           ? ((const QmCatalogInfo *) spec_out)->id : "", QM_ID_LEN);
      return TRUE;
    }

  if (id_out[0] == '\0')
    return required ? fail_missing (error, id_path, "required (a catalog id, or %s)", spec_key)
                    : TRUE;
  {
    gconstpointer found = lookup (id_out);

    if (found == NULL)
      return fail_node (error, QM_PLAN_ERROR_UNKNOWN_ID, id_path,
                        json_object_get_member (o, kind),
                        "unknown catalog id; embed the entry as hardware.%s", spec_key);
    memcpy (spec_out, found, spec_size);
  }
  return TRUE;
}

static gboolean
read_hardware (Reader      *r,
               JsonObject  *o,
               QmPlan      *p,
               GError     **error)
{
  check_unknown (r, o, "hardware", hardware_keys);
  if (!read_hardware_item (r, o, "gpu", TRUE, (SpecParser) qm_catalog_parse_gpu,
                           (SpecLookup) qm_catalog_gpu, sizeof (QmGpuSpec),
                           &p->hardware.gpu, p->gpu_id, &p->gpu_embedded, error) ||
      !read_hardware_item (r, o, "server", TRUE, (SpecParser) qm_catalog_parse_server,
                           (SpecLookup) qm_catalog_server, sizeof (QmServerSpec),
                           &p->hardware.server, p->server_id, &p->server_embedded, error) ||
      !read_hardware_item (r, o, "network", FALSE, (SpecParser) qm_catalog_parse_network,
                           (SpecLookup) qm_catalog_network, sizeof (QmNetworkSpec),
                           &p->hardware.network, p->network_id, &p->network_embedded, error) ||
      !read_hardware_item (r, o, "storage", FALSE, (SpecParser) qm_catalog_parse_storage,
                           (SpecLookup) qm_catalog_storage, sizeof (QmStorageSpec),
                           &p->hardware.storage, p->storage_id, &p->storage_embedded, error))
    return FALSE;

  if (p->hardware.server.gpu_id && p->gpu_id[0] &&
      strcmp (p->hardware.server.gpu_id, p->gpu_id) != 0 && r->warnings)
    g_ptr_array_add (r->warnings,
                     g_strdup_printf ("hardware.server: %s holds %s, not %s; using %s",
                                      p->server_id, p->hardware.server.gpu_id, p->gpu_id,
                                      p->gpu_id));
  return TRUE;
}

static gboolean
read_rest (Reader      *r,
           JsonObject  *root,
           QmPlan      *p,
           GError     **error)
{
  JsonObject *o;

  if (!get_object (r, root, "", "facility", FALSE, &o, error))
    return FALSE;
  if (o != NULL)
    {
      check_unknown (r, o, "facility", facility_keys);
      if (!get_double (r, o, "facility", "pue", FALSE, &p->facility.pue, NULL, error) ||
          !get_double (r, o, "facility", "usd_per_kwh", FALSE, &p->facility.usd_per_kwh, NULL, error) ||
          !get_double (r, o, "facility", "rack_kw", FALSE, &p->facility.rack_kw, NULL, error) ||
          !get_uint (r, o, "facility", "rack_units", FALSE, &p->facility.rack_units, NULL, error) ||
          !get_double (r, o, "facility", "gco2_per_kwh", FALSE, &p->facility.gco2_per_kwh, NULL, error) ||
          !get_double (r, o, "facility", "air_cooling_kw", FALSE, &p->facility.air_cooling_kw, NULL, error) ||
          !get_double (r, o, "facility", "colo_usd_per_kw_month", FALSE,
                       &p->facility.colo_usd_per_kw_month, NULL, error))
        return FALSE;
    }

  if (!get_object (r, root, "", "pricing", FALSE, &o, error))
    return FALSE;
  if (o != NULL)
    {
      gboolean have_price = FALSE;

      check_unknown (r, o, "pricing", pricing_keys);
      if (!get_enum (r, o, "pricing", "mode", FALSE, ENUM_FN (qm_pricing_mode_from_string),
                     &p->pricing.mode, "buy, rent, rent-reserved", error) ||
          !get_double (r, o, "pricing", "usd_per_gpu_hour", FALSE, &p->pricing.usd_per_gpu_hour,
                       &have_price, error) ||
          !get_double (r, o, "pricing", "amortization_years", FALSE, &p->pricing.amortization_years, NULL, error) ||
          !get_double (r, o, "pricing", "support_fraction", FALSE, &p->pricing.support_fraction, NULL, error) ||
          !get_string (r, o, "pricing", "currency", FALSE, p->pricing.currency,
                       sizeof p->pricing.currency, error) ||
          !get_string (r, o, "pricing", "offer", FALSE, p->offer_id, sizeof p->offer_id, error))
        return FALSE;

      /* pricing.offer (extension): a catalog cloud offer. Its price stands
       * in for usd_per_gpu_hour unless the plan gives one. */
      if (p->offer_id[0] != '\0')
        {
          const QmCloudOffer *offer = qm_catalog_cloud_offer (p->offer_id);

          if (offer == NULL)
            return fail_node (error, QM_PLAN_ERROR_UNKNOWN_ID, "pricing.offer",
                              json_object_get_member (o, "offer"),
                              "unknown cloud offer; see the catalog's cloud offers");
          if (!have_price)
            p->pricing.usd_per_gpu_hour = 0;
          if (offer->gpu_id && p->gpu_id[0] && strcmp (offer->gpu_id, p->gpu_id) != 0 &&
              r->warnings)
            g_ptr_array_add (r->warnings,
                             g_strdup_printf ("pricing.offer: %s rents %s, not %s",
                                              p->offer_id, offer->gpu_id, p->gpu_id));
        }
    }

  if (!get_object (r, root, "", "reliability", FALSE, &o, error))
    return FALSE;
  if (o != NULL)
    {
      check_unknown (r, o, "reliability", reliability_keys);
      if (!get_string (r, o, "reliability", "preset", FALSE, p->reliability_preset,
                       sizeof p->reliability_preset, error) ||
          !get_double (r, o, "reliability", "restart_minutes", FALSE, &p->restart_minutes, NULL, error))
        return FALSE;
      if (!qm_failure_preset_from_string (p->reliability_preset, &(QmFailurePreset) { 0 }))
        {
          g_autoptr(GString) ids = g_string_new (NULL);

          for (guint i = 0; i < QM_N_FAILURE_PRESETS; i++)
            g_string_append_printf (ids, "%s%s", i ? " or " : "",
                                    qm_failure_preset_info ((QmFailurePreset) i)->id);
          return fail_node (error, QM_PLAN_ERROR_UNKNOWN_ID, "reliability.preset",
                            json_object_get_member (o, "preset"), "must be %s", ids->str);
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Validation of values (shared by the reader and by code-built plans) */

#define CHECK(cond, path, got, ...)                                     \
  G_STMT_START {                                                        \
    if (!(cond))                                                        \
      return fail_value (error, path, (double) (got), __VA_ARGS__);     \
  } G_STMT_END

gboolean
qm_plan_validate (const QmPlan *p,
                  GError      **error)
{
  const QmWorkload *w = &p->workload;
  const QmModelShape *s = &w->model;
  gboolean training = w->mode != QM_MODE_INFERENCE;
  guint gpn = p->hardware.server.gpus;

  /* The model. */
  if (qm_model_has_shape (s))
    {
      CHECK (s->layers >= 1 && s->layers <= 1000, "workload.model.layers", s->layers,
             "must be from 1 to 1000");
      CHECK (s->hidden >= 1 && s->hidden <= 1000000, "workload.model.hidden", s->hidden,
             "must be from 1 to 1000000");
      CHECK (s->heads >= 1 && s->heads <= s->hidden, "workload.model.heads", s->heads,
             "must be from 1 to hidden (%u)", s->hidden);
      CHECK (s->head_dim > 0 || s->hidden % s->heads == 0, "workload.model.heads", s->heads,
             "must divide hidden (%u) unless head_dim is given", s->hidden);
      CHECK (s->head_dim <= 65536, "workload.model.head_dim", s->head_dim, "must be at most 65536");
      CHECK (s->kv_heads <= s->heads && (s->kv_heads == 0 || s->heads % s->kv_heads == 0),
             "workload.model.kv_heads", s->kv_heads, "must divide heads (%u)", s->heads);
      CHECK (s->vocab >= 2 && s->vocab <= 10000000, "workload.model.vocab", s->vocab,
             "must be from 2 to 10000000");
      CHECK (s->ffn_hidden >= 1 || (s->experts > 1 && s->moe_ffn_hidden >= 1),
             "workload.model.ffn_hidden", s->ffn_hidden, "must be > 0");
      CHECK (s->ffn_hidden <= 10000000, "workload.model.ffn_hidden", s->ffn_hidden,
             "must be at most 10000000");
      CHECK (s->experts <= 65536, "workload.model.experts", s->experts, "must be at most 65536");
      CHECK (s->experts_per_token <= MAX (s->experts, 1u), "workload.model.experts_per_token",
             s->experts_per_token, "must not exceed experts (%u)", s->experts);
      CHECK (s->shared_experts <= 1024, "workload.model.shared_experts", s->shared_experts,
             "must be at most 1024");
      CHECK (s->moe_ffn_hidden <= 10000000, "workload.model.moe_ffn_hidden", s->moe_ffn_hidden,
             "must be at most 10000000");
      CHECK (s->dense_layers <= s->layers, "workload.model.dense_layers", s->dense_layers,
             "must not exceed layers (%u)", s->layers);
      CHECK (s->q_lora_rank <= 1000000 && s->kv_lora_rank <= 1000000 && s->rope_head_dim <= 65536,
             "workload.model.kv_lora_rank", s->kv_lora_rank, "is absurd");
    }
  else
    CHECK (s->params_hint > 0 && s->params_hint <= 1e14, "workload.model.params_b",
           s->params_hint / 1e9, "must be > 0 and at most 100000 (billions)");

  /* Training settings. */
  if (training)
    {
      CHECK (w->tokens > 0, "workload.tokens_b", w->tokens / 1e9, "must be > 0");
      CHECK (w->tokens <= 1e16, "workload.tokens_b", w->tokens / 1e9,
             "must be at most 10000000 (billions)");
      CHECK (w->epochs > 0 && w->epochs <= 10000, "workload.epochs", w->epochs,
             "must be > 0 and at most 10000");
    }
  CHECK (w->seq_len >= 1 && w->seq_len <= 100000000, "workload.seq_len", w->seq_len,
         "must be from 1 to 100000000");
  CHECK (w->global_batch >= 1 && w->global_batch <= 100000000, "workload.global_batch",
         w->global_batch, "must be from 1 to 100000000");
  CHECK (w->micro_batch >= 1 && w->micro_batch <= w->global_batch, "workload.micro_batch",
         w->micro_batch, "must be from 1 to global_batch (%u)", w->global_batch);
  CHECK (w->zero_stage <= 3, "workload.zero_stage", w->zero_stage, "must be 0, 1, 2 or 3");
  CHECK (w->lora_rank <= 65536, "workload.lora_rank", w->lora_rank, "must be at most 65536");
  CHECK (!(w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA) || w->lora_rank >= 1,
         "workload.lora_rank", w->lora_rank, "must be > 0 for LoRA and QLoRA");
  CHECK (w->mfu >= 0 && w->mfu <= 1, "workload.mfu", w->mfu, "must be > 0 and <= 1");
  CHECK (w->cp <= 1000000, "workload.cp", w->cp, "must be \"auto\" or 1 to 1000000");

  /* Parallelism against the hardware and the model. */
  CHECK (gpn >= 1 && gpn <= 1024, "hardware.server", gpn, "the server must hold 1 to 1024 GPUs");
  if (w->tp > 0)
    {
      CHECK (w->tp <= gpn && gpn % w->tp == 0, "workload.tp", w->tp,
             "must divide the %u GPUs of a node", gpn);
      CHECK (!qm_model_has_shape (s) || s->heads % w->tp == 0, "workload.tp", w->tp,
             "must divide the attention heads (%u)", s->heads);
    }
  if (w->pp > 0)
    CHECK (!qm_model_has_shape (s) || w->pp <= s->layers, "workload.pp", w->pp,
           "must not exceed the layers (%u)", s->layers);
  if (w->ep > 0)
    CHECK (w->ep == 1 || (s->experts > 1 && s->experts % w->ep == 0), "workload.ep", w->ep,
           "must divide the experts (%u)", s->experts);
  if (w->target_gpus > 0)
    {
      guint mp = MAX (w->tp, 1u) * MAX (w->pp, 1u) * MAX (w->cp, 1u);

      CHECK (w->target_gpus <= 10000000, "target.gpus", w->target_gpus, "must be at most 10000000");
      CHECK (w->target_gpus % mp == 0, "target.gpus", w->target_gpus,
             "must be a multiple of tp·pp·cp = %u", mp);
    }
  else
    CHECK (w->deadline_days > 0 && w->deadline_days <= 36500, "target.deadline_days",
           w->deadline_days, "must be > 0 and at most 36500");
  if (training)
    CHECK (qm_compute_peak_flops (&p->hardware.gpu, w->precision) > 0, "workload.precision",
           (double) w->precision, "the GPU %s has no dense peak for %s",
           p->gpu_id, qm_precision_to_string (w->precision));
  else
    {
      const QmInferenceSpec *is = &w->inference;

      CHECK (is->input_tokens + (double) is->output_tokens >= 1 &&
             is->input_tokens + (double) is->output_tokens <= 100000000,
             "workload.inference.input_tokens", is->input_tokens,
             "input + output tokens must be from 1 to 100000000");
      CHECK (is->requests_per_minute >= 0 && is->requests_per_minute <= 1e9,
             "workload.inference.requests_per_minute", is->requests_per_minute,
             "must be >= 0 and at most 1e9");
      CHECK (is->concurrency <= 1000000, "workload.inference.concurrency", is->concurrency,
             "must be at most 1000000");
      CHECK (is->ttft_ms >= 0, "workload.inference.ttft_ms", is->ttft_ms, "must be >= 0");
      CHECK (is->tpot_ms >= 0, "workload.inference.tpot_ms", is->tpot_ms, "must be >= 0");
      CHECK (is->input_tokens_sd >= 0 && is->input_tokens_sd <= 1e8,
             "workload.inference.input_tokens_sd", is->input_tokens_sd,
             "must be from 0 to 1e8");
      CHECK (is->output_tokens_sd >= 0 && is->output_tokens_sd <= 1e8,
             "workload.inference.output_tokens_sd", is->output_tokens_sd,
             "must be from 0 to 1e8");
      CHECK (is->max_sequences <= 1000000, "workload.inference.max_sequences",
             is->max_sequences, "must be at most 1000000");
    }
  CHECK (p->hardware.gpu.memory_gb > 0, "hardware.gpu", p->hardware.gpu.memory_gb,
         "the GPU's memory_gb must be > 0");

  /* Facility, pricing, reliability. */
  CHECK (p->facility.pue >= 1 && p->facility.pue <= 3, "facility.pue", p->facility.pue,
         "must be from 1 to 3");
  CHECK (p->facility.usd_per_kwh >= 0 && p->facility.usd_per_kwh <= 10, "facility.usd_per_kwh",
         p->facility.usd_per_kwh, "must be from 0 to 10");
  CHECK (p->facility.rack_kw > 0 && p->facility.rack_kw <= 2000, "facility.rack_kw",
         p->facility.rack_kw, "must be > 0 and at most 2000");
  CHECK (p->facility.rack_units >= 1 && p->facility.rack_units <= 100, "facility.rack_units",
         p->facility.rack_units, "must be from 1 to 100");
  CHECK (p->facility.gco2_per_kwh >= 0 && p->facility.gco2_per_kwh <= 2000,
         "facility.gco2_per_kwh", p->facility.gco2_per_kwh, "must be from 0 to 2000");
  CHECK (p->facility.air_cooling_kw >= 0, "facility.air_cooling_kw", p->facility.air_cooling_kw,
         "must be >= 0");
  CHECK (p->facility.colo_usd_per_kw_month >= 0, "facility.colo_usd_per_kw_month",
         p->facility.colo_usd_per_kw_month, "must be >= 0");
  CHECK (p->pricing.usd_per_gpu_hour >= 0 && p->pricing.usd_per_gpu_hour <= 1000,
         "pricing.usd_per_gpu_hour", p->pricing.usd_per_gpu_hour, "must be from 0 to 1000");
  CHECK (p->pricing.amortization_years > 0 && p->pricing.amortization_years <= 30,
         "pricing.amortization_years", p->pricing.amortization_years, "must be > 0 and at most 30");
  CHECK (p->pricing.support_fraction >= 0 && p->pricing.support_fraction <= 1,
         "pricing.support_fraction", p->pricing.support_fraction, "must be from 0 to 1");
  CHECK (p->restart_minutes >= 0 && p->restart_minutes <= 100000, "reliability.restart_minutes",
         p->restart_minutes, "must be from 0 to 100000");
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Loading                                                            */

gboolean
qm_plan_load_from_data (QmPlan      *plan,
                        const char  *data,
                        gssize       length,
                        GPtrArray  **warnings,
                        GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GPtrArray) warns = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) local = NULL;
  QmPlan *tmp;
  Reader r = { .warnings = warns };
  JsonNode *root;
  JsonObject *o, *sub;
  char format[64] = "";
  double version = 0;
  gboolean ok;

  g_return_val_if_fail (plan != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      g_set_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_PARSE, "not valid JSON: %s",
                   local->message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return fail_node (error, QM_PLAN_ERROR_PARSE, "(top level)", root, "must be a JSON object");
  o = json_node_get_object (root);

  /* Format and version come first: a newer file is refused, not guessed at. */
  if (!get_string (&r, o, "", "format", TRUE, format, sizeof format, error))
    {
      if (error && *error)
        (*error)->code = QM_PLAN_ERROR_FORMAT;
      return FALSE;
    }
  if (strcmp (format, QM_PLAN_FORMAT) != 0)
    return fail_node (error, QM_PLAN_ERROR_FORMAT, "format", json_object_get_member (o, "format"),
                      "not a Quartermaster plan (expected \"" QM_PLAN_FORMAT "\")");
  if (!get_double (&r, o, "", "version", TRUE, &version, NULL, error))
    return FALSE;
  if (version != floor (version) || version < 1)
    return fail_node (error, QM_PLAN_ERROR_FORMAT, "version", json_object_get_member (o, "version"),
                      "must be a whole number >= 1");
  if (version > QM_PLAN_VERSION)
    return fail_node (error, QM_PLAN_ERROR_FORMAT, "version", json_object_get_member (o, "version"),
                      "written by a newer Quartermaster; this one reads version %d", QM_PLAN_VERSION);

  /* Parse into a temporary; copy out only on success. */
  tmp = g_new (QmPlan, 1);
  qm_plan_init (tmp);
  check_unknown (&r, o, "", top_keys);
  ok = get_string (&r, o, "", "name", FALSE, tmp->name, sizeof tmp->name, error) &&
       get_string (&r, o, "", "notes", FALSE, tmp->notes, sizeof tmp->notes, error) &&
       get_string (&r, o, "", "customer", FALSE, tmp->customer, sizeof tmp->customer, error) &&
       get_string (&r, o, "", "quote_ref", FALSE, tmp->quote_ref, sizeof tmp->quote_ref, error) &&
       get_object (&r, o, "", "workload", TRUE, &sub, error) &&
       read_workload (&r, sub, &tmp->workload, error) &&
       get_object (&r, o, "", "target", TRUE, &sub, error) &&
       read_target (&r, sub, &tmp->workload, error) &&
       get_object (&r, o, "", "hardware", TRUE, &sub, error) &&
       read_hardware (&r, sub, tmp, error) &&
       read_rest (&r, o, tmp, error) &&
       qm_plan_validate (tmp, error);
  if (ok)
    {
      *plan = *tmp;
      if (warnings)
        *warnings = g_steal_pointer (&warns);
    }
  g_free (tmp);
  return ok;
}

gboolean
qm_plan_load_from_file (QmPlan      *plan,
                        const char  *path,
                        GPtrArray  **warnings,
                        GError     **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &data, &length, error))
    return FALSE;
  if (length > 16 * 1024 * 1024)
    {
      g_set_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_PARSE,
                   "larger than 16 MB; not a plan file");
      return FALSE;
    }
  return qm_plan_load_from_data (plan, data, (gssize) length, warnings, error);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */

static void
add_string (JsonBuilder *b,
            const char  *key,
            const char  *value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, value ? value : "");
}

static void
add_double (JsonBuilder *b,
            const char  *key,
            double       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_double_value (b, value);
}

static void
add_int (JsonBuilder *b,
         const char  *key,
         gint64       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, value);
}

static void
add_bool (JsonBuilder *b,
          const char  *key,
          gboolean     value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, value);
}

static void
add_auto (JsonBuilder *b,
          const char  *key,
          guint        value)
{
  if (value == 0)
    add_string (b, key, "auto");
  else
    add_int (b, key, value);
}

/* An embedded catalog entry, written as the catalog parser reads it. */
static void
add_spec (JsonBuilder   *b,
          const char    *key,
          QmCatalogKind  kind,
          gconstpointer  spec)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, qm_catalog_spec_to_json (kind, spec));
  json_builder_set_member_name (b, key);
  json_builder_add_value (b, node);
}

char *
qm_plan_to_data (const QmPlan *p,
                 gsize        *length)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  const QmWorkload *w = &p->workload;
  const QmModelShape *s = &w->model;

  json_builder_begin_object (b);
  add_string (b, "format", QM_PLAN_FORMAT);
  add_int (b, "version", QM_PLAN_VERSION);
  add_string (b, "name", p->name);
  add_string (b, "notes", p->notes);
  if (p->customer[0])
    add_string (b, "customer", p->customer);
  if (p->quote_ref[0])
    add_string (b, "quote_ref", p->quote_ref);

  json_builder_set_member_name (b, "workload");
  json_builder_begin_object (b);
  add_string (b, "mode", qm_mode_to_string (w->mode));
  json_builder_set_member_name (b, "model");
  json_builder_begin_object (b);
  if (w->preset[0])
    add_string (b, "preset", w->preset);
  if (qm_model_has_shape (s))
    {
      /* The full shape, so that the file stands alone and overrides of the
       * preset survive a round trip. */
      add_int (b, "layers", s->layers);
      add_int (b, "hidden", s->hidden);
      add_int (b, "heads", s->heads);
      add_int (b, "kv_heads", qm_model_kv_heads (s));
      if (s->head_dim)
        add_int (b, "head_dim", s->head_dim);
      add_int (b, "ffn_hidden", s->ffn_hidden);
      add_int (b, "vocab", s->vocab);
      add_bool (b, "gated_mlp", s->gated_mlp);
      add_bool (b, "tied_embeddings", s->tied_embeddings);
      add_int (b, "experts", MAX (s->experts, 1u));
      add_int (b, "experts_per_token", MAX (s->experts_per_token, 1u));
      add_int (b, "shared_experts", s->shared_experts);
      add_int (b, "moe_ffn_hidden", s->moe_ffn_hidden);
      if (s->dense_layers)
        add_int (b, "dense_layers", s->dense_layers);
      if (s->kv_lora_rank)
        {
          add_int (b, "q_lora_rank", s->q_lora_rank);
          add_int (b, "kv_lora_rank", s->kv_lora_rank);
          add_int (b, "rope_head_dim", s->rope_head_dim);
        }
    }
  if (s->params_hint > 0)
    add_double (b, "params_b", s->params_hint / 1e9);
  json_builder_end_object (b);
  if (w->mode != QM_MODE_INFERENCE)
    add_double (b, "tokens_b", w->tokens / 1e9);
  add_double (b, "epochs", w->epochs);
  add_int (b, "seq_len", w->seq_len);
  add_int (b, "global_batch", w->global_batch);
  add_int (b, "micro_batch", w->micro_batch);
  add_string (b, "precision", qm_precision_to_string (w->precision));
  add_string (b, "optimizer", qm_optimizer_to_string (w->optimizer));
  add_int (b, "zero_stage", w->zero_stage);
  add_string (b, "recompute", qm_recompute_to_string (w->recompute));
  add_bool (b, "flash_attention", w->flash_attention);
  add_bool (b, "sequence_parallel", w->sequence_parallel);
  if (w->fp32_grad_buffer)
    add_bool (b, "fp32_grad_buffer", TRUE);
  add_auto (b, "tp", w->tp);
  add_auto (b, "pp", w->pp);
  add_auto (b, "cp", w->cp);
  add_auto (b, "ep", w->ep);
  /* Optional: written only when the plan fixes it, so that plans without
   * interleaving stay as they were. */
  if (w->virtual_stages > 0)
    add_int (b, "virtual_stages", w->virtual_stages);
  if (w->mfu > 0)
    add_double (b, "mfu", w->mfu);
  else
    add_string (b, "mfu", "auto");
  add_int (b, "lora_rank", w->lora_rank);
  json_builder_set_member_name (b, "inference");
  json_builder_begin_object (b);
  add_double (b, "requests_per_minute", w->inference.requests_per_minute);
  add_int (b, "input_tokens", w->inference.input_tokens);
  add_int (b, "output_tokens", w->inference.output_tokens);
  if (w->inference.concurrency)
    add_int (b, "concurrency", w->inference.concurrency);
  add_string (b, "weight_precision", qm_precision_to_string (w->inference.weight_precision));
  add_string (b, "kv_precision", qm_precision_to_string (w->inference.kv_precision));
  add_double (b, "ttft_ms", w->inference.ttft_ms);
  add_double (b, "tpot_ms", w->inference.tpot_ms);
  /* The optional serving keys only when set, so older files round-trip. */
  if (w->inference.arrival == QM_ARRIVAL_OFFLINE)
    add_string (b, "arrival", "offline");
  if (w->inference.input_tokens_sd > 0)
    add_double (b, "input_tokens_sd", w->inference.input_tokens_sd);
  if (w->inference.output_tokens_sd > 0)
    add_double (b, "output_tokens_sd", w->inference.output_tokens_sd);
  if (w->inference.lengths_csv[0])
    add_string (b, "lengths_csv", w->inference.lengths_csv);
  if (w->inference.max_sequences)
    add_int (b, "max_sequences", w->inference.max_sequences);
  json_builder_end_object (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "target");
  json_builder_begin_object (b);
  if (w->target_gpus > 0)
    add_int (b, "gpus", w->target_gpus);
  else
    add_double (b, "deadline_days", w->deadline_days);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "hardware");
  json_builder_begin_object (b);
  add_string (b, "gpu", p->gpu_id);
  add_string (b, "server", p->server_id);
  if (p->network_id[0])
    add_string (b, "network", p->network_id);
  if (p->storage_id[0])
    add_string (b, "storage", p->storage_id);
  if (p->gpu_embedded)
    add_spec (b, "gpu_spec", QM_CATALOG_KIND_GPU, &p->hardware.gpu);
  if (p->server_embedded)
    add_spec (b, "server_spec", QM_CATALOG_KIND_SERVER, &p->hardware.server);
  if (p->network_embedded)
    add_spec (b, "network_spec", QM_CATALOG_KIND_NETWORK, &p->hardware.network);
  if (p->storage_embedded)
    add_spec (b, "storage_spec", QM_CATALOG_KIND_STORAGE, &p->hardware.storage);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "facility");
  json_builder_begin_object (b);
  add_double (b, "pue", p->facility.pue);
  add_double (b, "usd_per_kwh", p->facility.usd_per_kwh);
  add_double (b, "rack_kw", p->facility.rack_kw);
  add_int (b, "rack_units", p->facility.rack_units);
  add_double (b, "gco2_per_kwh", p->facility.gco2_per_kwh);
  if (p->facility.air_cooling_kw > 0)
    add_double (b, "air_cooling_kw", p->facility.air_cooling_kw);
  if (p->facility.colo_usd_per_kw_month > 0)
    add_double (b, "colo_usd_per_kw_month", p->facility.colo_usd_per_kw_month);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "pricing");
  json_builder_begin_object (b);
  add_string (b, "mode", qm_pricing_mode_to_string (p->pricing.mode));
  add_double (b, "usd_per_gpu_hour", p->pricing.usd_per_gpu_hour);
  add_double (b, "amortization_years", p->pricing.amortization_years);
  if (p->pricing.support_fraction > 0)
    add_double (b, "support_fraction", p->pricing.support_fraction);
  add_string (b, "currency", p->pricing.currency);
  if (p->offer_id[0])
    add_string (b, "offer", p->offer_id);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "reliability");
  json_builder_begin_object (b);
  add_string (b, "preset", p->reliability_preset);
  add_double (b, "restart_minutes", p->restart_minutes);
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  return json_generator_to_data (gen, length);
}

gboolean
qm_plan_save_to_file (const QmPlan *plan,
                      const char   *path,
                      GError      **error)
{
  gsize length = 0;
  g_autofree char *data = qm_plan_to_data (plan, &length);

  /* g_file_set_contents writes a temporary and renames it: never half a file. */
  return g_file_set_contents (path, data, (gssize) length, error);
}
