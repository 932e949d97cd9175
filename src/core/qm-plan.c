/* qm-plan.c: read and write plan files (docs/plan-file.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "qm-compute.h"
#include "qm-model.h"
#include "qm-plan-private.h"
#include "qm-text.h"
#include "qm-json-parse.h"

/* ------------------------------------------------------------------ */
/* Errors: each a problem (qm-problem.h), rendered into the GError     */

/* The problem @p, a string and two numbers filling its template, as the
 * GError @code. */
static gboolean
fail_with (GError      **error,
           QmPlanError   code,
           QmProblem    *p,
           const char   *s0,
           double        n0,
           double        n1)
{
  qm_problem_set_string (p, 0, s0);
  qm_problem_set_number (p, 0, n0);
  qm_problem_set_number (p, 1, n1);
  return qm_problem_set_error (error, code, p);
}

gboolean
qm_plan_fail_problem (GError       **error,
                      QmPlanError    code,
                      QmProblemCode  problem,
                      const char    *path,
                      gboolean       has_got,
                      JsonNode      *got,
                      const char    *s0,
                      double         n0,
                      double         n1)
{
  QmProblem p;

  qm_problem_init (&p, problem, path);
  if (has_got)
    qm_problem_set_got_node (&p, got);
  return fail_with (error, code, &p, s0, n0, n1);
}

gboolean
qm_plan_fail_missing (GError       **error,
                      const char    *path,
                      QmProblemCode  problem,
                      const char    *s0)
{
  return qm_plan_fail_problem (error, QM_PLAN_ERROR_MISSING, problem, path, FALSE, NULL, s0, 0, 0);
}

/* A value qm_plan_validate() refuses: @got as the plan holds it. */
static gboolean
fail_value (GError       **error,
            QmProblemCode  problem,
            const char    *path,
            double         got,
            const char    *s0,
            double         n0,
            double         n1)
{
  QmProblem p;

  qm_problem_init (&p, problem, path);
  qm_problem_set_got_number (&p, got);
  return fail_with (error, QM_PLAN_ERROR_INVALID, &p, s0, n0, n1);
}

/* ------------------------------------------------------------------ */
/* Typed getters. Each reads the value @n a key has (absent keys are the  */
/* caller's) and names the key by @path when it refuses the value.      */

const char *
qm_plan_reader_path (QmPlanReader *r,
                     const char   *prefix,
                     const char   *key)
{
  if (prefix == NULL || *prefix == '\0')
    g_strlcpy (r->path, key, sizeof r->path);
  else
    g_snprintf (r->path, sizeof r->path, "%s.%s", prefix, key);
  return r->path;
}

/* An absent key: fine, unless @required. */
static gboolean
absent (const char  *path,
        gboolean     required,
        GError     **error)
{
  return required ? qm_plan_fail_missing (error, path, QM_PROBLEM_MISSING, NULL) : TRUE;
}

/* An INVALID error naming @path and showing the value @n found. */
static gboolean
invalid (JsonNode      *n,
         const char    *path,
         GError       **error,
         QmProblemCode  problem,
         const char    *s0,
         double         n0,
         double         n1)
{
  return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, problem, path, TRUE, n, s0, n0, n1);
}

/* The value of @key, which the file must have; else NULL and a MISSING
 * error. */
static JsonNode *
required_member (JsonObject  *o,
                 const char  *key,
                 GError     **error)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL)
    absent (key, TRUE, error);
  return n;
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
holds (JsonNode *n,
       GType     type)
{
  return JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == type;
}

/* A number, or with @whole a whole number from 0 to 1e9. */
static gboolean
get_number (JsonNode    *n,
            const char  *path,
            gboolean     whole,
            double      *out,
            GError     **error)
{
  double v;

  if (!is_number (n))
    return invalid (n, path, error, whole ? QM_PROBLEM_NOT_WHOLE : QM_PROBLEM_NOT_NUMBER, NULL, 0, 0);
  v = json_node_get_double (n);
  if (whole && (!isfinite (v) || v != floor (v) || v < 0 || v > 1e9))
    return invalid (n, path, error, QM_PROBLEM_NOT_WHOLE_IN_RANGE, NULL, 0, 1e9);
  if (!isfinite (v))
    return invalid (n, path, error, QM_PROBLEM_NOT_FINITE, NULL, 0, 0);
  *out = v;
  return TRUE;
}

static gboolean
check_text (const char  *s,
            const char  *path,
            gboolean     multiline,
            GError     **error)
{
  glong at = 0;
  const char *bad = qm_text_find_unsafe (s, multiline, &at);

  if (bad == NULL)
    return TRUE;
  {
    char character[16];

    g_snprintf (character, sizeof character, "U+%04X", g_utf8_get_char (bad));
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_UNSAFE_TEXT, path, FALSE,
                                 NULL, character, (double) at, 0);
  }
}

static gboolean
get_string (JsonNode    *n,
            const char  *path,
            gboolean     multiline,
            char        *out,
            gsize        size,
            GError     **error)
{
  const char *s;

  if (!holds (n, G_TYPE_STRING))
    return invalid (n, path, error, QM_PROBLEM_NOT_STRING, NULL, 0, 0);
  s = json_node_get_string (n);
  if (strlen (s) >= size)
    return invalid (n, path, error, QM_PROBLEM_TOO_LONG, NULL, (double) size, 0);
  /* A stranger's file: no terminal escapes or bidi overrides, which would
   * reach a terminal, a PDF or a spreadsheet; notes may break lines. */
  if (!check_text (s, path, multiline, error))
    return FALSE;
  g_strlcpy (out, s, size);
  return TRUE;
}

static gboolean
get_object (JsonNode    *n,
            const char  *path,
            JsonObject **out,
            GError     **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (n))
    return invalid (n, path, error, QM_PROBLEM_NOT_SECTION, NULL, 0, 0);
  *out = json_node_get_object (n);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The reader, driven by the plan schema                              */

gboolean
qm_plan_reader_string (QmPlanReader *r,
                       JsonObject   *o,
                       const char   *prefix,
                       const char   *key,
                       char         *out,
                       gsize         size,
                       GError      **error)
{
  JsonNode *n = json_object_get_member (o, key);

  return n == NULL || get_string (n, qm_plan_reader_path (r, prefix, key), FALSE, out, size, error);
}

gboolean
qm_plan_reader_object (QmPlanReader *r,
                       JsonObject   *o,
                       const char   *prefix,
                       const char   *key,
                       JsonObject  **out,
                       GError      **error)
{
  JsonNode *n = json_object_get_member (o, key);

  *out = NULL;
  return n == NULL || get_object (n, qm_plan_reader_path (r, prefix, key), out, error);
}

gboolean
qm_plan_reader_present (QmPlanReader *r,
                        const char   *path)
{
  const QmPlanKey *key = qm_plan_schema_lookup (path);
  guint n;

  g_return_val_if_fail (key != NULL, FALSE);
  return r->present[key - qm_plan_schema_keys (&n)];
}

void
qm_plan_reader_warn (QmPlanReader *r,
                     const char   *format,
                     ...)
{
  va_list args;

  if (r->warnings == NULL)
    return;
  va_start (args, format);
  g_ptr_array_add (r->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

void
qm_plan_reader_warn_problem (QmPlanReader  *r,
                             QmProblemCode  code,
                             const char    *path,
                             const char    *s0,
                             const char    *s1,
                             const char    *s2)
{
  QmProblem problem;

  if (r->warnings == NULL)
    return;
  qm_problem_init (&problem, code, path);
  qm_problem_set_string (&problem, 0, s0);
  qm_problem_set_string (&problem, 1, s1);
  qm_problem_set_string (&problem, 2, s2);
  g_ptr_array_add (r->warnings, qm_problem_to_string (&problem));
}

/* Rows directly below the section at row @section (-1 for the top). */
static gboolean
is_child (const QmPlanKey *key,
          int              section)
{
  guint n_keys;

  return qm_plan_schema_parent (key - qm_plan_schema_keys (&n_keys)) == section;
}

static gboolean
in_range (const QmPlanKey *key,
          double           v)
{
  if (v == key->min && key->flags & QM_PLAN_KEY_MIN_EXCLUSIVE)
    return FALSE;
  return v >= key->min && v <= key->max;
}

static gboolean
applies (const QmPlanKey *key,
         const QmPlan    *p)
{
  return key->modes == 0 || (key->modes & QM_PLAN_MODE (p->workload.mode)) != 0;
}

static void
check_unknown (QmPlanReader *r,
               JsonObject   *o,
               int           section,
               const char   *path)
{
  guint n_keys, n_known = 0;
  const QmPlanKey *keys = qm_plan_schema_keys (&n_keys);
  g_autoptr(GList) members = NULL;

  for (guint i = 0; i < n_keys; i++)
    n_known += is_child (&keys[i], section) && json_object_has_member (o, qm_plan_key_name (&keys[i]));
  if (n_known == json_object_get_size (o))
    return;
  members = json_object_get_members (o);
  for (GList *l = members; l; l = l->next)
    {
      gboolean known = FALSE;

      for (guint i = 0; i < n_keys && !known; i++)
        known = is_child (&keys[i], section) && strcmp (qm_plan_key_name (&keys[i]), l->data) == 0;
      if (!known)
        qm_plan_reader_warn_problem (r, QM_PROBLEM_UNKNOWN_KEY, qm_plan_reader_path (r, path, l->data),
                                     NULL, NULL, NULL);
    }
}

static gboolean read_section (QmPlanReader *r,
                              int           section,
                              JsonObject   *o,
                              QmPlan       *p,
                              GError      **error);

/* An absent row: an error when the plan needs it, else the plan's value
 * stays. A bool, an "auto" count or an embedded spec is never missing. */
static gboolean
read_absent (const QmPlanKey *key,
             const QmPlan    *p,
             GError         **error)
{
  gboolean required = (key->flags & QM_PLAN_KEY_REQUIRED) && applies (key, p);

  if (!required)
    return TRUE;
  /* A value needed only in some modes says which, when it is missing. */
  if (key->modes != 0 && key->type != QM_PLAN_KEY_OBJECT)
    return qm_plan_fail_missing (error, key->path, QM_PROBLEM_MISSING_FOR_MODE,
                                 qm_mode_to_string (p->workload.mode));
  switch (key->type)
    {
    case QM_PLAN_KEY_ENUM:
      return qm_plan_fail_missing (error, key->path, QM_PROBLEM_MISSING_ENUM, key->choices);
    case QM_PLAN_KEY_BOOL:
    case QM_PLAN_KEY_SPEC:
      return TRUE;
    case QM_PLAN_KEY_INTEGER:
      return (key->flags & QM_PLAN_KEY_AUTO) || absent (key->path, TRUE, error);
    case QM_PLAN_KEY_NUMBER:
    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
    case QM_PLAN_KEY_OBJECT:
    default:
      return absent (key->path, TRUE, error);
    }
}

/* One row by its type: absent keys leave the plan's value alone. */
static gboolean
read_key (QmPlanReader    *r,
          const QmPlanKey *key,
          JsonObject      *o,
          QmPlan          *p,
          gboolean        *present,
          GError         **error)
{
  JsonNode *n = json_object_get_member (o, qm_plan_key_name (key));
  gpointer out = (char *) p + key->offset;
  double scale = key->scale != 0 ? key->scale : 1;
  double v = 0;
  JsonObject *sub = NULL;
  guint n_keys;

  *present = n != NULL;
  if (n == NULL)
    return read_absent (key, p, error);
  if (key->flags & QM_PLAN_KEY_AUTO && JSON_NODE_HOLDS_VALUE (n) &&
      g_strcmp0 (json_node_get_string (n), "auto") == 0)
    {
      if (key->type == QM_PLAN_KEY_NUMBER)
        *(double *) out = 0;
      else
        *(guint *) out = 0;
      return TRUE;
    }

  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:
      if (!get_number (n, key->path, FALSE, &v, error))
        return FALSE;
      /* "auto" stands for 0, so an auto number is checked as it is read. */
      if (key->flags & QM_PLAN_KEY_AUTO && !in_range (key, v))
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_OUT_OF_RANGE_OR_AUTO,
                                     key->path, TRUE, n, key->range, key->min, key->max);
      *(double *) out = v * scale;
      return TRUE;
    case QM_PLAN_KEY_INTEGER:
      /* tp/pp/cp/ep: a whole number >= 1 ("auto" is read above). */
      if (key->flags & QM_PLAN_KEY_AUTO)
        {
          v = is_number (n) ? json_node_get_double (n) : 0;
          if (v != floor (v) || v < 1 || v > 1e6)
            return invalid (n, key->path, error, QM_PROBLEM_NOT_COUNT_OR_AUTO, NULL, 0, 0);
        }
      else if (!get_number (n, key->path, TRUE, &v, error))
        return FALSE;
      *(guint *) out = (guint) v;
      return TRUE;
    case QM_PLAN_KEY_ENUM:
      /* A string, which the row's from_string maps. */
      if (!holds (n, G_TYPE_STRING) || !key->from_string (json_node_get_string (n), out))
        return invalid (n, key->path, error, QM_PROBLEM_BAD_ENUM, key->choices, 0, 0);
      return TRUE;
    case QM_PLAN_KEY_BOOL:
      if (!holds (n, G_TYPE_BOOLEAN))
        return invalid (n, key->path, error, QM_PROBLEM_NOT_BOOL, NULL, 0, 0);
      *(gboolean *) out = json_node_get_boolean (n);
      return TRUE;
    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
      return get_string (n, key->path, (key->flags & QM_PLAN_KEY_MULTILINE) != 0, out, key->size,
                         error);
    case QM_PLAN_KEY_OBJECT:
      return get_object (n, key->path, &sub, error) &&
             read_section (r, key - qm_plan_schema_keys (&n_keys), sub, p, error);
    case QM_PLAN_KEY_SPEC:
    default:
      return TRUE;
    }
}

static gboolean
read_section (QmPlanReader *r,
              int           section,
              JsonObject   *o,
              QmPlan       *p,
              GError      **error)
{
  guint n_keys;
  const QmPlanKey *keys = qm_plan_schema_keys (&n_keys);
  g_autofree char *path = section < 0 ? g_strdup ("") : g_strdup (keys[section].path);

  check_unknown (r, o, section, path);
  for (guint i = 0; i < n_keys; i++)
    {
      const QmPlanKey *key = &keys[i];
      JsonObject *here = o;

      if (!is_child (key, section))
        continue;
      if (key->read != NULL)
        {
          r->present[i] = json_object_has_member (o, qm_plan_key_name (key));
          if (!key->read (r, key, o, p, error))
            return FALSE;
        }
      else if (!read_key (r, key, o, p, &r->present[i], error))
        return FALSE;
      /* A section's own rule runs on the section, and also when it is absent. */
      if (key->type == QM_PLAN_KEY_OBJECT)
        here = r->present[i] ? json_object_get_object_member (o, qm_plan_key_name (key)) : NULL;
      if (key->after_read != NULL && !key->after_read (r, key, here, p, error))
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Validation of values (shared by the reader and by code-built plans) */

/* @cond, or the problem @code at @path, the plan holding @got; a string
 * and two numbers fill the problem's template. */
#define CHECK(cond, path, got, code, s0, n0, n1)                        \
  G_STMT_START {                                                        \
    if (!(cond))                                                        \
      return fail_value (error, code, path, (double) (got), s0, (double) (n0), (double) (n1)); \
  } G_STMT_END

static double
key_value (const QmPlanKey *key,
           const QmPlan    *p)
{
  gconstpointer at = (const char *) p + key->offset;

  if (key->offset < 0)
    return 0;
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:
      return *(const double *) at;
    case QM_PLAN_KEY_INTEGER:
      return *(const guint *) at;
    case QM_PLAN_KEY_ENUM:
      return *(const int *) at;
    case QM_PLAN_KEY_BOOL:
      return *(const gboolean *) at;
    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
      return *(const char *) at != '\0';
    default:
      return 0;
    }
}

/* The ranges the schema declares, each against its own row. */
static gboolean
validate_ranges (const QmPlan *p,
                 GError      **error)
{
  gboolean shape = qm_model_has_shape (&p->workload.model);
  guint n_keys;
  const QmPlanKey *keys = qm_plan_schema_keys (&n_keys);

  for (guint i = 0; i < n_keys; i++)
    {
      const QmPlanKey *key = &keys[i];
      double v;

      if (key->range == NULL || !applies (key, p) || (key->flags & QM_PLAN_KEY_SHAPE && !shape))
        continue;
      v = key_value (key, p) / (key->scale != 0 ? key->scale : 1);
      if (key->flags & QM_PLAN_KEY_AUTO && v == 0)
        continue;
      /* An optional key whose range leaves out 0 reads 0 when absent
       * (target.confidence): the writer leaves it out again. */
      if (key->flags & QM_PLAN_KEY_OPTIONAL && v == 0 && key->min > 0)
        continue;
      CHECK (in_range (key, v), key->path, v, QM_PROBLEM_OUT_OF_RANGE, key->range, key->min, key->max);
    }
  return TRUE;
}

/* The precision has no dense peak on the plan's GPU: two strings. */
static gboolean
fail_no_peak (const QmPlan *p,
              GError      **error)
{
  QmProblem problem;

  qm_problem_init (&problem, QM_PROBLEM_NO_PEAK, "workload.precision");
  qm_problem_set_string (&problem, 0, p->gpu_id);
  qm_problem_set_string (&problem, 1, qm_precision_to_string (p->workload.precision));
  qm_problem_set_got_number (&problem, (double) p->workload.precision);
  return qm_problem_set_error (error, QM_PLAN_ERROR_INVALID, &problem);
}

gboolean
qm_plan_validate (const QmPlan *p,
                  GError      **error)
{
  const QmWorkload *w = &p->workload;
  const QmModelShape *s = &w->model;
  gboolean training = w->mode != QM_MODE_INFERENCE;
  guint gpn = p->hardware.server.gpus;

  if (!validate_ranges (p, error))
    return FALSE;

  /* The rules that relate two keys. */
  if (qm_model_has_shape (s))
    {
      CHECK (s->heads >= 1 && s->heads <= s->hidden, "workload.model.heads", s->heads,
             QM_PROBLEM_HEADS_RANGE, NULL, s->hidden, 0);
      CHECK (s->head_dim > 0 || s->hidden % s->heads == 0, "workload.model.heads", s->heads,
             QM_PROBLEM_HEADS_DIVIDE, NULL, s->hidden, 0);
      CHECK (s->kv_heads <= s->heads && (s->kv_heads == 0 || s->heads % s->kv_heads == 0),
             "workload.model.kv_heads", s->kv_heads, QM_PROBLEM_KV_HEADS_DIVIDE, NULL, s->heads, 0);
      CHECK (s->ffn_hidden >= 1 || (s->experts > 1 && s->moe_ffn_hidden >= 1),
             "workload.model.ffn_hidden", s->ffn_hidden, QM_PROBLEM_POSITIVE, NULL, 0, 0);
      CHECK (s->experts_per_token <= MAX (s->experts, 1u), "workload.model.experts_per_token",
             s->experts_per_token, QM_PROBLEM_EXPERTS_PER_TOKEN, NULL, s->experts, 0);
      CHECK (s->dense_layers <= s->layers, "workload.model.dense_layers", s->dense_layers,
             QM_PROBLEM_DENSE_LAYERS, NULL, s->layers, 0);
      CHECK (s->q_lora_rank <= 1000000 && s->kv_lora_rank <= 1000000 && s->rope_head_dim <= 65536,
             "workload.model.kv_lora_rank", s->kv_lora_rank, QM_PROBLEM_MLA_ABSURD, NULL, 0, 0);
    }
  else
    CHECK (s->params_hint > 0 && s->params_hint <= 1e14, "workload.model.params_b",
           s->params_hint / 1e9, QM_PROBLEM_PARAMS_RANGE, NULL, 0, 1e5);

  if (training)
    {
      CHECK (w->tokens > 0, "workload.tokens_b", w->tokens / 1e9, QM_PROBLEM_POSITIVE, NULL, 0, 0);
      CHECK (w->tokens <= 1e16, "workload.tokens_b", w->tokens / 1e9,
             QM_PROBLEM_TOKENS_MAX, NULL, 0, 1e7);
    }
  CHECK (w->micro_batch >= 1 && w->micro_batch <= w->global_batch, "workload.micro_batch",
         w->micro_batch, QM_PROBLEM_MICRO_BATCH, NULL, w->global_batch, 0);
  CHECK (!(w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA) || w->lora_rank >= 1,
         "workload.lora_rank", w->lora_rank, QM_PROBLEM_LORA_RANK, NULL, 0, 0);
  CHECK (!w->fp8_weights || w->precision == QM_PRECISION_FP8,
         "workload.fp8_weights", 1, QM_PROBLEM_FP8_WEIGHTS, NULL, 0, 0);

  /* Parallelism against the hardware and the model. */
  CHECK (gpn >= 1 && gpn <= 1024, "hardware.server", gpn, QM_PROBLEM_SERVER_GPUS, NULL, 1, 1024);
  if (w->tp > 0)
    {
      CHECK (w->tp <= gpn && gpn % w->tp == 0, "workload.tp", w->tp,
             QM_PROBLEM_TP_NODE, NULL, gpn, 0);
      CHECK (!qm_model_has_shape (s) || s->heads % w->tp == 0, "workload.tp", w->tp,
             QM_PROBLEM_TP_HEADS, NULL, s->heads, 0);
    }
  if (w->pp > 0)
    CHECK (!qm_model_has_shape (s) || w->pp <= s->layers, "workload.pp", w->pp,
           QM_PROBLEM_PP_LAYERS, NULL, s->layers, 0);
  if (w->ep > 0)
    CHECK (w->ep == 1 || (s->experts > 1 && s->experts % w->ep == 0), "workload.ep", w->ep,
           QM_PROBLEM_EP_EXPERTS, NULL, s->experts, 0);
  if (w->target_gpus > 0)
    {
      guint mp = MAX (w->tp, 1u) * MAX (w->pp, 1u) * MAX (w->cp, 1u);

      CHECK (w->target_gpus <= 10000000, "target.gpus", w->target_gpus,
             QM_PROBLEM_AT_MOST, NULL, 10000000, 0);
      CHECK (w->target_gpus % mp == 0, "target.gpus", w->target_gpus,
             QM_PROBLEM_NOT_A_MULTIPLE, NULL, mp, 0);
    }
  else
    CHECK (w->deadline_days > 0 && w->deadline_days <= 36500, "target.deadline_days",
           w->deadline_days, QM_PROBLEM_DEADLINE_RANGE, NULL, 0, 36500);
  if (training && !(qm_compute_peak_flops (&p->hardware.gpu, w->precision) > 0))
    return fail_no_peak (p, error);
  if (!training)
    CHECK (w->inference.input_tokens + (double) w->inference.output_tokens >= 1 &&
           w->inference.input_tokens + (double) w->inference.output_tokens <= 100000000,
           "workload.inference.input_tokens", w->inference.input_tokens,
           QM_PROBLEM_SERVING_TOKENS, NULL, 1, 100000000);
  CHECK (p->hardware.gpu.memory_gb > 0, "hardware.gpu", p->hardware.gpu.memory_gb,
         QM_PROBLEM_GPU_MEMORY, NULL, 0, 0);
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
  QmPlanReader r = { .warnings = warns };
  QmJsonScan scan;
  JsonNode *root, *n;
  JsonObject *o;
  char format[64] = "";
  double version = 0;
  gboolean ok;

  g_return_val_if_fail (plan != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if ((length < 0 ? strlen (data) : (gsize) length) > QM_PLAN_MAX_BYTES)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_PARSE, QM_PROBLEM_TOO_LARGE, "", FALSE, NULL,
                                 NULL, 0, 0);
  /* A NUL escape is refused at its key, as other control characters are
   * (json-glib would cut the string there), and so is a whole number
   * beyond 64 bits (json-glib reads it as -1); nesting beyond any plan's
   * is refused before the parser recurses into it (qm-json-parse.h). */
  qm_json_scan (data, length, QM_JSON_MAX_DEPTH, &scan);
  if (scan.nul_path != NULL && scan.deep_line == 0)
    {
      g_autofree char *path = g_strdup (scan.nul_path);

      qm_json_scan_clear (&scan);
      return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_UNSAFE_TEXT, path, FALSE,
                                   NULL, "U+0000", (double) scan.nul_at, 0);
    }
  if (scan.big_path != NULL && scan.deep_line == 0)
    {
      g_autofree char *path = g_strdup (scan.big_path);
      g_autofree char *text = g_strdup (scan.big_text);

      qm_json_scan_clear (&scan);
      return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_HUGE_NUMBER, path, FALSE,
                                   NULL, text, 0, 0);
    }
  qm_json_scan_clear (&scan);
  if (!qm_json_parser_load (parser, data, length, &local))
    {
      return qm_plan_fail_problem (error, QM_PLAN_ERROR_PARSE, QM_PROBLEM_NOT_JSON, "", FALSE, NULL,
                                   local->message, 0, 0);
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_PARSE, QM_PROBLEM_NOT_OBJECT, "", TRUE, root,
                                 NULL, 0, 0);
  o = json_node_get_object (root);

  /* Format and version come first: a newer file is refused, not guessed at. */
  n = required_member (o, "format", error);
  if (n == NULL || !get_string (n, "format", FALSE, format, sizeof format, error))
    {
      if (error && *error)
        (*error)->code = QM_PLAN_ERROR_FORMAT;
      return FALSE;
    }
  if (strcmp (format, QM_PLAN_FORMAT) != 0)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_FORMAT, QM_PROBLEM_NOT_A_PLAN, "format", TRUE,
                                 json_object_get_member (o, "format"), QM_PLAN_FORMAT, 0, 0);
  n = required_member (o, "version", error);
  if (n == NULL || !get_number (n, "version", FALSE, &version, error))
    return FALSE;
  if (version != floor (version) || version < 1)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_FORMAT, QM_PROBLEM_BAD_VERSION, "version", TRUE,
                                 json_object_get_member (o, "version"), NULL, 0, 0);
  if (version > QM_PLAN_VERSION)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_FORMAT, QM_PROBLEM_NEWER_VERSION, "version", TRUE,
                                 json_object_get_member (o, "version"), NULL, QM_PLAN_VERSION, 0);

  /* Parse into a temporary; copy out only on success. */
  tmp = g_new (QmPlan, 1);
  qm_plan_init (tmp);
  ok = read_section (&r, -1, o, tmp, error) && qm_plan_validate (tmp, error);
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
  if (length > QM_PLAN_MAX_BYTES)
    {
      return qm_plan_fail_problem (error, QM_PLAN_ERROR_PARSE, QM_PROBLEM_TOO_LARGE, "", FALSE, NULL,
                                   NULL, 0, 0);
    }
  return qm_plan_load_from_data (plan, data, (gssize) length, warnings, error);
}

/* ------------------------------------------------------------------ */
/* Writing, driven by the plan schema                                 */

static gboolean
is_written (const QmPlanKey *key,
            const QmPlan    *p)
{
  if (key->flags & QM_PLAN_KEY_SHAPE && !qm_model_has_shape (&p->workload.model))
    return FALSE;
  if (key->written != NULL && !key->written (p))
    return FALSE;
  return !(key->flags & QM_PLAN_KEY_OPTIONAL) || key_value (key, p) != 0;
}

static void write_section (JsonBuilder  *b,
                           int           section,
                           const QmPlan *p);

/* One value by its row's type, as the member @key names. */
static void
write_value (JsonBuilder     *b,
             const QmPlanKey *key,
             const QmPlan    *p)
{
  gconstpointer at = (const char *) p + key->offset;
  double scale = key->scale != 0 ? key->scale : 1;
  guint n_keys;

  if (key->write != NULL)
    {
      key->write (b, key, p);
      return;
    }
  json_builder_set_member_name (b, qm_plan_key_name (key));
  if (key->flags & QM_PLAN_KEY_AUTO && key_value (key, p) == 0)
    {
      json_builder_add_string_value (b, "auto");
      return;
    }
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:
      json_builder_add_double_value (b, *(const double *) at / scale);
      break;
    case QM_PLAN_KEY_INTEGER:
      json_builder_add_int_value (b, key->flags & QM_PLAN_KEY_AT_LEAST_ONE
                                     ? MAX (*(const guint *) at, 1u) : *(const guint *) at);
      break;
    case QM_PLAN_KEY_ENUM:
      json_builder_add_string_value (b, key->to_string (*(const int *) at));
      break;
    case QM_PLAN_KEY_BOOL:
      json_builder_add_boolean_value (b, *(const gboolean *) at);
      break;
    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
      json_builder_add_string_value (b, at);
      break;
    case QM_PLAN_KEY_OBJECT:
    case QM_PLAN_KEY_SPEC:
    default:
      json_builder_begin_object (b);
      write_section (b, key - qm_plan_schema_keys (&n_keys), p);
      json_builder_end_object (b);
      break;
    }
}

static void
write_section (JsonBuilder  *b,
               int           section,
               const QmPlan *p)
{
  guint n_keys;
  const QmPlanKey *keys = qm_plan_schema_keys (&n_keys);

  for (guint i = 0; i < n_keys; i++)
    if (is_child (&keys[i], section) && is_written (&keys[i], p))
      write_value (b, &keys[i], p);
}

static char *
generate (JsonNode *root,
          gboolean  pretty,
          gsize    *length)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, pretty);
  json_generator_set_indent (gen, 2);
  return json_generator_to_data (gen, length);
}

char *
qm_plan_to_data (const QmPlan *p,
                 gsize        *length)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  write_section (b, -1, p);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return generate (root, TRUE, length);
}

char *
qm_plan_key_format (const QmPlanKey *key,
                    const QmPlan    *p)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;
  JsonNode *value;

  if (key->type == QM_PLAN_KEY_OBJECT || key->type == QM_PLAN_KEY_SPEC)
    return NULL;
  json_builder_begin_object (b);
  write_value (b, key, p);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  value = json_object_get_member (json_node_get_object (root), qm_plan_key_name (key));
  return value ? generate (value, FALSE, NULL) : NULL;
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
