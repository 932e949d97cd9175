/* qm-problem.c: refused plan values as data, rendered where they are shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-problem.h"
#include "qm-text.h"

typedef enum
{
  SHOW_PATH,       /* "path: message" */
  SHOW_TOP_LEVEL,  /* the file itself: "(top level): message" */
  SHOW_DOTTED,     /* an embedded entry's own error follows: "path.message" */
  SHOW_NO_PATH,    /* "message" */
} Show;

/* Each code: its id for scripts, the template (its strings first, then its
 * numbers), how many strings it takes, and the names of the strings and
 * numbers in --json ("values"); a NULL name is not a value of its own (the
 * English rule of a schema row). */
static const struct
{
  const char *id;
  const char *text;
  guint       n_str;
  const char *str_names[QM_PROBLEM_N_STRINGS];
  const char *num_names[QM_PROBLEM_N_NUMBERS];
  Show        show;
} codes[QM_N_PROBLEMS] = {
  [QM_PROBLEM_NONE] = { "none", "" },
  [QM_PROBLEM_NOT_JSON] = { "not-json", N_("not valid JSON: %s"), 1, { "detail" }, { NULL }, SHOW_NO_PATH },
  [QM_PROBLEM_TOO_LARGE] = { "too-large", N_("larger than 16 MB; not a plan file"), .show = SHOW_NO_PATH },
  [QM_PROBLEM_NOT_OBJECT] = { "not-an-object", N_("must be a JSON object"), .show = SHOW_TOP_LEVEL },
  [QM_PROBLEM_NOT_A_PLAN] = { "not-a-plan", N_("not a Quartermaster plan (expected \"%s\")"), 1,
    { "expected" }, { NULL } },
  [QM_PROBLEM_BAD_VERSION] = { "bad-version", N_("must be a whole number >= 1") },
  [QM_PROBLEM_NEWER_VERSION] = { "newer-version",
    N_("written by a newer Quartermaster; this one reads version %.0f"), 0, { NULL }, { "supported" } },
  [QM_PROBLEM_MISSING] = { "missing", N_("required") },
  [QM_PROBLEM_MISSING_FOR_MODE] = { "missing-for-mode", N_("required for mode %s"), 1, { "mode" }, { NULL } },
  [QM_PROBLEM_MISSING_ENUM] = { "missing", N_("required, one of %s"), 1, { "choices" }, { NULL } },
  [QM_PROBLEM_MISSING_HARDWARE] = { "missing", N_("required (a catalog id, or %s)"), 1,
    { "spec_key" }, { NULL } },
  [QM_PROBLEM_MISSING_MODEL] = { "missing-model", N_("needs a preset, the shape fields or params_b") },
  [QM_PROBLEM_MISSING_SHAPE] = { "missing-shape-field",
    N_("required with the other shape fields when no preset is given") },
  [QM_PROBLEM_TARGET_ONE_OF] = { "exactly-one-of", N_("give exactly one of gpus or deadline_days") },
  [QM_PROBLEM_NOT_NUMBER] = { "not-a-number", N_("must be a number") },
  [QM_PROBLEM_NOT_WHOLE] = { "not-an-integer", N_("must be a whole number") },
  [QM_PROBLEM_NOT_WHOLE_IN_RANGE] = { "not-an-integer", N_("must be a whole number from 0 to 1e9"),
    0, { NULL }, { "min", "max" } },
  [QM_PROBLEM_NOT_FINITE] = { "not-finite", N_("must be a finite number") },
  [QM_PROBLEM_HUGE_NUMBER] = { "huge-number", N_("is a whole number too large to be meant (got %s)"), 1,
    { "written" }, { NULL } },
  [QM_PROBLEM_NOT_COUNT_OR_AUTO] = { "not-a-count", N_("must be a whole number >= 1 or \"auto\"") },
  [QM_PROBLEM_NOT_BOOL] = { "not-a-boolean", N_("must be true or false") },
  [QM_PROBLEM_NOT_STRING] = { "not-a-string", N_("must be a string") },
  [QM_PROBLEM_NOT_SECTION] = { "not-an-object", N_("must be an object") },
  [QM_PROBLEM_TOO_LONG] = { "too-long", N_("must be shorter than %.0f bytes"), 0,
    { NULL }, { "max_bytes" } },
  [QM_PROBLEM_UNSAFE_TEXT] = { "unsafe-text",
    N_("must not contain control characters or bidirectional overrides (got %s at character %.0f)"),
    1, { "character" }, { "position" } },
  [QM_PROBLEM_BAD_ENUM] = { "bad-enum", N_("must be one of %s"), 1, { "choices" }, { NULL } },
  [QM_PROBLEM_UNKNOWN_PRESET] = { "unknown-id",
    N_("unknown model preset; give the shape fields instead") },
  [QM_PROBLEM_UNKNOWN_HARDWARE] = { "unknown-id",
    N_("unknown catalog id; embed the entry as hardware.%s"), 1, { "spec_key" }, { NULL } },
  [QM_PROBLEM_UNKNOWN_OFFER] = { "unknown-id",
    N_("unknown cloud offer; see the catalog's cloud offers") },
  [QM_PROBLEM_UNKNOWN_FAILURE_PRESET] = { "unknown-id", N_("must be %s"), 1, { "choices" }, { NULL } },
  [QM_PROBLEM_BAD_SPEC] = { "bad-catalog-entry", "%s", 1, { "detail" }, { NULL }, SHOW_DOTTED },
  [QM_PROBLEM_OUT_OF_RANGE] = { "out-of-range", "%s", 1, { NULL }, { "min", "max" } },
  [QM_PROBLEM_OUT_OF_RANGE_OR_AUTO] = { "out-of-range", N_("%s, or \"auto\""), 1,
    { NULL }, { "min", "max" } },
  [QM_PROBLEM_AT_LEAST] = { "out-of-range", N_("must be >= %g"), 0, { NULL }, { "min" } },
  [QM_PROBLEM_POSITIVE] = { "out-of-range", N_("must be > 0") },
  [QM_PROBLEM_AT_MOST] = { "out-of-range", N_("must be at most %.0f"), 0, { NULL }, { "max" } },
  [QM_PROBLEM_PARAMS_RANGE] = { "out-of-range", N_("must be > 0 and at most 100000 (billions)"), 0,
    { NULL }, { NULL, "max" } },
  [QM_PROBLEM_TOKENS_MAX] = { "out-of-range", N_("must be at most 10000000 (billions)"), 0,
    { NULL }, { NULL, "max" } },
  [QM_PROBLEM_DEADLINE_RANGE] = { "out-of-range", N_("must be > 0 and at most 36500"), 0,
    { NULL }, { NULL, "max" } },
  [QM_PROBLEM_HEADS_RANGE] = { "exceeds-key", N_("must be from 1 to hidden (%.0f)"), 0,
    { NULL }, { "hidden" } },
  [QM_PROBLEM_HEADS_DIVIDE] = { "must-divide", N_("must divide hidden (%.0f) unless head_dim is given"),
    0, { NULL }, { "hidden" } },
  [QM_PROBLEM_KV_HEADS_DIVIDE] = { "must-divide", N_("must divide heads (%.0f)"), 0,
    { NULL }, { "heads" } },
  [QM_PROBLEM_EXPERTS_PER_TOKEN] = { "exceeds-key", N_("must not exceed experts (%.0f)"), 0,
    { NULL }, { "experts" } },
  [QM_PROBLEM_DENSE_LAYERS] = { "exceeds-key", N_("must not exceed layers (%.0f)"), 0,
    { NULL }, { "layers" } },
  [QM_PROBLEM_MLA_ABSURD] = { "out-of-range", N_("is absurd") },
  [QM_PROBLEM_MICRO_BATCH] = { "exceeds-key", N_("must be from 1 to global_batch (%.0f)"), 0,
    { NULL }, { "global_batch" } },
  [QM_PROBLEM_LORA_RANK] = { "missing-for-mode", N_("must be > 0 for LoRA and QLoRA") },
  [QM_PROBLEM_FP8_WEIGHTS] = { "needs-key", N_("needs the fp8 number format (workload.precision)") },
  [QM_PROBLEM_SERVER_GPUS] = { "out-of-range", N_("the server must hold 1 to 1024 GPUs"), 0,
    { NULL }, { "min", "max" } },
  [QM_PROBLEM_TP_NODE] = { "must-divide", N_("must divide the %.0f GPUs of a node"), 0,
    { NULL }, { "gpus_per_node" } },
  [QM_PROBLEM_TP_HEADS] = { "must-divide", N_("must divide the attention heads (%.0f)"), 0,
    { NULL }, { "heads" } },
  [QM_PROBLEM_PP_LAYERS] = { "exceeds-key", N_("must not exceed the layers (%.0f)"), 0,
    { NULL }, { "layers" } },
  [QM_PROBLEM_EP_EXPERTS] = { "must-divide", N_("must divide the experts (%.0f)"), 0,
    { NULL }, { "experts" } },
  [QM_PROBLEM_NOT_A_MULTIPLE] = { "not-a-multiple", N_("must be a multiple of tp·pp·cp = %.0f"), 0,
    { NULL }, { "multiple_of" } },
  [QM_PROBLEM_NO_PEAK] = { "no-peak", N_("the GPU %s has no dense peak for %s"), 2,
    { "gpu", "precision" }, { NULL } },
  [QM_PROBLEM_SERVING_TOKENS] = { "out-of-range",
    N_("input + output tokens must be from 1 to 100000000"), 0, { NULL }, { "min", "max" } },
  [QM_PROBLEM_GPU_MEMORY] = { "out-of-range", N_("the GPU's memory_gb must be > 0") },
  [QM_PROBLEM_BAD_CURRENCY] = { "bad-currency", N_("must be an ISO 4217 code such as EUR") },
  [QM_PROBLEM_FRACTION] = { "out-of-range", N_("must be from 0 to 1"), 0, { NULL }, { "min", "max" } },
  [QM_PROBLEM_CATALOG_ID] = { "bad-catalog-id", N_("a catalog id of 1 to 63 characters"), 0,
    { NULL }, { "min_chars", "max_chars" } },
  [QM_PROBLEM_TOO_MANY_ITEMS] = { "too-many", N_("at most %.0f items"), 0, { NULL }, { "max" } },
  [QM_PROBLEM_NOT_FRACTION_LIST] = { "not-a-list", N_("must be a list of fractions, such as [0.5, 0.5]") },
  [QM_PROBLEM_TOO_MANY_PHASES] = { "too-many", N_("at most %.0f phases"), 0, { NULL }, { "max" } },
  [QM_PROBLEM_PHASE_FRACTION] = { "out-of-range", N_("must be > 0 and at most 1"), 0,
    { NULL }, { NULL, "max" } },
  [QM_PROBLEM_PHASES_SUM] = { "bad-sum", N_("the fractions must add up to 1"), 0, { NULL }, { "sum" } },
  [QM_PROBLEM_UNKNOWN_KEY] = { "unknown-key", N_("unknown key, ignored") },
  /* TRANSLATORS: a server from the catalog, the GPU it holds, the plan's GPU (used instead) */
  [QM_PROBLEM_SERVER_HOLDS_OTHER_GPU] = { "gpu-mismatch", N_("%1$s holds %2$s, not %3$s; using %3$s"), 3,
    { "server", "server_gpu", "gpu" }, { NULL } },
  /* TRANSLATORS: a cloud offer from the catalog, the GPU it rents, the plan's GPU */
  [QM_PROBLEM_OFFER_RENTS_OTHER_GPU] = { "gpu-mismatch", N_("%s rents %s, not %s"), 3,
    { "offer", "offer_gpu", "gpu" }, { NULL } },
  [QM_PROBLEM_OTHER] = { "invalid", "%s", 1 },
};

void
qm_problem_init (QmProblem     *problem,
                 QmProblemCode  code,
                 const char    *path)
{
  g_return_if_fail (code < QM_N_PROBLEMS);

  memset (problem, 0, sizeof *problem);
  problem->code = code;
  g_strlcpy (problem->path, path != NULL ? path : "", sizeof problem->path);
}

void
qm_problem_set_string (QmProblem  *problem,
                       guint       i,
                       const char *s)
{
  g_return_if_fail (i < QM_PROBLEM_N_STRINGS);
  g_strlcpy (problem->strings[i], s != NULL ? s : "", sizeof problem->strings[i]);
}

void
qm_problem_set_number (QmProblem *problem,
                       guint      i,
                       double     v)
{
  g_return_if_fail (i < QM_PROBLEM_N_NUMBERS);
  problem->numbers[i] = v;
}

void
qm_problem_set_got_number (QmProblem *problem,
                           double     v)
{
  problem->got = QM_PROBLEM_GOT_NUMBER;
  problem->got_number = v;
}

void
qm_problem_set_got_node (QmProblem *problem,
                         JsonNode  *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    problem->got = QM_PROBLEM_GOT_NULL;
  else if (JSON_NODE_HOLDS_OBJECT (node))
    problem->got = QM_PROBLEM_GOT_OBJECT;
  else if (JSON_NODE_HOLDS_ARRAY (node))
    problem->got = QM_PROBLEM_GOT_ARRAY;
  else if (json_node_get_value_type (node) == G_TYPE_INT64)
    problem->got = QM_PROBLEM_GOT_INTEGER, problem->got_integer = json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    qm_problem_set_got_number (problem, json_node_get_double (node));
  else if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    problem->got = QM_PROBLEM_GOT_BOOL, problem->got_integer = json_node_get_boolean (node);
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      /* A stranger's text: cut, made valid, and its escapes shown. */
      const char *s = json_node_get_string (node);
      g_autofree char *cut = g_utf8_make_valid (s, MIN (strlen (s), 60));
      g_autofree char *safe = qm_text_escape (cut);

      problem->got = QM_PROBLEM_GOT_STRING;
      g_snprintf (problem->got_text, sizeof problem->got_text, "%s%s", safe,
                  strlen (s) > 60 ? "…" : "");
    }
  else
    problem->got = QM_PROBLEM_GOT_NONE;
}

const char *
qm_problem_code_id (QmProblemCode code)
{
  g_return_val_if_fail (code < QM_N_PROBLEMS, "none");
  return codes[code].id;
}

static char *
format_got (const QmProblem *p)
{
  switch (p->got)
    {
    case QM_PROBLEM_GOT_NUMBER:
      return g_strdup_printf ("%g", p->got_number);
    case QM_PROBLEM_GOT_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, p->got_integer);
    case QM_PROBLEM_GOT_BOOL:
      return g_strdup (p->got_integer ? "true" : "false");
    case QM_PROBLEM_GOT_STRING:
      return g_strdup_printf ("\"%s\"", p->got_text);
    case QM_PROBLEM_GOT_NULL:
      return g_strdup ("null");
    case QM_PROBLEM_GOT_OBJECT:
      /* TRANSLATORS: what a plan file held where a value was refused: "(got an object)" */
      return g_strdup (_("an object"));
    case QM_PROBLEM_GOT_ARRAY:
      /* TRANSLATORS: what a plan file held where a value was refused: "(got an array)" */
      return g_strdup (_("an array"));
    case QM_PROBLEM_GOT_NONE:
    default:
      return NULL;
    }
}

char *
qm_problem_message (const QmProblem *p)
{
  const char *s0 = p->strings[0], *s1 = p->strings[1], *s2 = p->strings[2];
  const char *text;
  double n0 = p->numbers[0], n1 = p->numbers[1];
  g_autofree char *what = NULL;
  g_autofree char *got = NULL;

  g_return_val_if_fail (p->code < QM_N_PROBLEMS, NULL);
  text = codes[p->code].text[0] != '\0' ? _(codes[p->code].text) : "";
  /* A schema row's rule ("must be from 1 to 1000") is marked N_() there. */
  if (p->code == QM_PROBLEM_OUT_OF_RANGE || p->code == QM_PROBLEM_OUT_OF_RANGE_OR_AUTO)
    s0 = s0[0] != '\0' ? _(s0) : s0;
  switch (codes[p->code].n_str)
    {
    case 3:
      what = g_strdup_printf (text, s0, s1, s2, n0, n1);
      break;
    case 2:
      what = g_strdup_printf (text, s0, s1, n0, n1);
      break;
    case 1:
      what = g_strdup_printf (text, s0, n0, n1);
      break;
    default:
      what = g_strdup_printf (text, n0, n1);
      break;
    }
  got = format_got (p);
  if (got == NULL)
    return g_steal_pointer (&what);
  /* TRANSLATORS: a refused value: "must be from 1 to 1000 (got 2047)" */
  return g_strdup_printf (_("%s (got %s)"), what, got);
}

char *
qm_problem_to_string (const QmProblem *p)
{
  g_autofree char *message = qm_problem_message (p);

  switch (codes[p->code].show)
    {
    case SHOW_NO_PATH:
      return g_steal_pointer (&message);
    case SHOW_TOP_LEVEL:
      /* TRANSLATORS: where in a plan file: the file as a whole */
      return g_strdup_printf ("%s: %s", _("(top level)"), message);
    case SHOW_DOTTED:
      return g_strdup_printf ("%s.%s", p->path, message);
    case SHOW_PATH:
    default:
      return g_strdup_printf ("%s: %s", p->path, message);
    }
}

static void
add_number (JsonBuilder *b,
            const char  *name,
            double       v)
{
  json_builder_set_member_name (b, name);
  /* Counts as JSON integers: 32, not 32.0. */
  if (v == floor (v) && fabs (v) < 9007199254740992.0)
    json_builder_add_int_value (b, (gint64) v);
  else
    json_builder_add_double_value (b, v);
}

static void
add_got (JsonBuilder     *b,
         const QmProblem *p)
{
  if (p->got == QM_PROBLEM_GOT_NONE)
    return;
  if (p->got == QM_PROBLEM_GOT_NUMBER)
    {
      add_number (b, "got", p->got_number);
      return;
    }
  json_builder_set_member_name (b, "got");
  switch (p->got)
    {
    case QM_PROBLEM_GOT_INTEGER:
      json_builder_add_int_value (b, p->got_integer);
      break;
    case QM_PROBLEM_GOT_BOOL:
      json_builder_add_boolean_value (b, p->got_integer != 0);
      break;
    case QM_PROBLEM_GOT_STRING:
      json_builder_add_string_value (b, p->got_text);
      break;
    case QM_PROBLEM_GOT_OBJECT:
      json_builder_add_string_value (b, "object");
      break;
    case QM_PROBLEM_GOT_ARRAY:
      json_builder_add_string_value (b, "array");
      break;
    case QM_PROBLEM_GOT_NULL:
    default:
      json_builder_add_null_value (b);
      break;
    }
}

JsonNode *
qm_problem_values_json (const QmProblem *p)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

  json_builder_begin_object (b);
  if (p->path[0] != '\0')
    {
      json_builder_set_member_name (b, "key");
      json_builder_add_string_value (b, p->path);
    }
  for (guint i = 0; i < QM_PROBLEM_N_STRINGS; i++)
    if (codes[p->code].str_names[i] != NULL)
      {
        json_builder_set_member_name (b, codes[p->code].str_names[i]);
        json_builder_add_string_value (b, p->strings[i]);
      }
  for (guint i = 0; i < QM_PROBLEM_N_NUMBERS; i++)
    if (codes[p->code].num_names[i] != NULL)
      add_number (b, codes[p->code].num_names[i], p->numbers[i]);
  add_got (b, p);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------ */
/* QM_PLAN_ERROR carries its problem (an extended GError domain)       */

typedef struct
{
  QmProblem problem;
} QmPlanErrorPrivate;

static void
qm_plan_error_private_init (QmPlanErrorPrivate *priv)
{
  priv->problem.code = QM_PROBLEM_NONE;
}

static void
qm_plan_error_private_copy (const QmPlanErrorPrivate *src,
                            QmPlanErrorPrivate       *dest)
{
  dest->problem = src->problem;
}

static void
qm_plan_error_private_clear (QmPlanErrorPrivate *priv)
{
}

G_DEFINE_EXTENDED_ERROR (QmPlanError, qm_plan_error)

gboolean
qm_problem_set_error (GError         **error,
                      QmPlanError      code,
                      const QmProblem *problem)
{
  g_autofree char *message = NULL;

  if (error == NULL)
    return FALSE;
  message = qm_problem_to_string (problem);
  if (*error != NULL)
    {
      /* GLib's own warning about overwriting an error, and no other change. */
      g_set_error_literal (error, QM_PLAN_ERROR, code, message);
      return FALSE;
    }
  g_set_error_literal (error, QM_PLAN_ERROR, code, message);
  qm_plan_error_get_private (*error)->problem = *problem;
  return FALSE;
}

const QmProblem *
qm_plan_error_get_problem (const GError *error)
{
  const QmPlanErrorPrivate *priv;

  if (error == NULL || error->domain != QM_PLAN_ERROR)
    return NULL;
  priv = qm_plan_error_get_private (error);
  return priv->problem.code != QM_PROBLEM_NONE ? &priv->problem : NULL;
}
