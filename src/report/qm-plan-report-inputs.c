/* qm-plan-report-inputs.c: the plan report's table of a plan's inputs,
 * for the reader who checks them.
 *
 * The rows come from the plan schema: one row per section of the plan
 * file, listing the keys the file states in it (the writer's rule: the
 * key's modes, its `written` test, optional keys only when set) with
 * their labels, values and units, in the schema's order. After them, the
 * layout and MFU the estimate resolved "auto" to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan-report.h"
#include "qm-plan-report-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-plan-schema.h"

/* The sections shown, with their row titles. */
static const struct
{
  const char *path;
  const char *title;
} sections[] = {
  /* Translators: rows of the inputs table, one per section of the plan. */
  { "workload", N_("Workload") },
  { "workload.model", N_("Model") },
  { "workload.inference", N_("Serving") },
  { "target", N_("Target") },
  { "hardware", N_("Hardware") },
  { "facility", N_("Facility") },
  { "pricing", N_("Pricing") },
  { "reliability", N_("Reliability") },
};

#define IS(key, member) ((key)->offset == G_STRUCT_OFFSET (QmPlan, member))

/* Whether the plan file states @key for @plan (what the writer writes) and
 * the plan's mode uses it. */
static gboolean
key_shown (const QmPlanKey *key,
           const char      *section,
           const QmPlan    *plan)
{
  const QmWorkload *w = &plan->workload;

  if (key->label == NULL || key->offset < 0)
    return FALSE;
  if (key->modes != 0 && (key->modes & QM_PLAN_MODE (w->mode)) == 0)
    return FALSE;
  /* As the writer: a key it writes for this plan, and an optional number
   * only when set (target.confidence absent reads 0; 0.5 applies). */
  if (key->written != NULL)
    return key->written (plan) &&
           !(key->flags & QM_PLAN_KEY_OPTIONAL && key->type == QM_PLAN_KEY_NUMBER &&
             qm_plan_key_get_number (key, plan) == 0);
  /* A preset's shape is the preset's; only a custom shape is listed. */
  if (key->flags & QM_PLAN_KEY_SHAPE && w->preset[0] != '\0')
    return FALSE;
  /* Serving reads the mode and a fixed layout of the training keys. */
  if (w->mode == QM_MODE_INFERENCE && g_str_equal (section, "workload") && key->modes == 0 &&
      !IS (key, workload.mode))
    return key->flags & QM_PLAN_KEY_AUTO && qm_plan_key_get_number (key, plan) != 0;
  if (IS (key, workload.lora_rank))
    return w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA;
  if (IS (key, pricing.amortization_years))
    return qm_report_is_buy (plan);
  if (key->flags & QM_PLAN_KEY_OPTIONAL)
    return key->type == QM_PLAN_KEY_ID || key->type == QM_PLAN_KEY_STRING
           ? qm_plan_key_get_string (key, plan)[0] != '\0'
           : qm_plan_key_get_number (key, plan) != 0;
  return TRUE;
}

/* Names the report already gives an enum value or a catalog id. */
static const char *
display_name (const QmPlanKey  *key,
              const QmPlan     *plan,
              const QmEstimate *e,
              char            **owned)
{
  if (IS (key, workload.mode))
    return qm_report_mode_label (plan->workload.mode);
  if (IS (key, pricing.mode))
    return qm_report_pricing_label (plan->pricing.mode);
  if (IS (key, workload.preset))
    return *owned = qm_report_model_name (plan, e);
  if (IS (key, gpu_id))
    return qm_report_gpu_name (plan);
  if (IS (key, server_id))
    return qm_report_server_name (plan);
  return NULL;
}

static void
append_value (GString          *s,
              const QmPlanKey  *key,
              const QmPlan     *plan,
              const QmEstimate *e)
{
  g_autofree char *owned = NULL;
  g_autofree char *unit = NULL;
  const char *name = display_name (key, plan, e, &owned);
  double v;

  if (name != NULL)
    {
      g_string_append (s, name);
      return;
    }
  switch (key->type)
    {
    case QM_PLAN_KEY_ENUM:
    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
      g_string_append (s, qm_plan_key_get_string (key, plan));
      return;
    case QM_PLAN_KEY_BOOL:
      g_string_append (s, qm_plan_key_get_number (key, plan) != 0 ? _("Yes") : _("No"));
      return;
    default:
      break;
    }
  v = qm_plan_key_get_number (key, plan);
  /* The GPU-hour price the estimate used (the one price fact, QmCost): a
   * 0 in the plan means the cloud offer's rate, which is printed. */
  if (IS (key, pricing.usd_per_gpu_hour) && e->has_cost && e->cost.rent_price_from_offer)
    {
      char number[QM_FORMAT_BUF];

      unit = qm_plan_key_unit_label (key, plan);
      qm_format_number (number, sizeof number, e->cost.rent_usd_per_gpu_hour, 2);
      /* Translators: the plan's price per GPU-hour when it is the cloud
       * offer's: a number, then a currency such as "USD". */
      g_string_append_printf (s, _("%s %s (the cloud offer’s rate)"), number, unit != NULL ? unit : "");
      return;
    }
  if (v == 0 && key->flags & QM_PLAN_KEY_AUTO)
    {
      g_string_append (s, _("Auto"));
      return;
    }
  g_string_append (s, qm_report_num (v, v == floor (v) ? 0 : fabs (v) < 1 ? 3 : 2));
  unit = qm_plan_key_unit_label (key, plan);
  if (unit != NULL)
    g_string_append_printf (s, " %s", unit);
}

/* "Label: value unit; …" for the keys of @section. */
static char *
section_text (const char       *section,
              const char       *title,
              const QmPlan     *plan,
              const QmEstimate *e)
{
  guint n_keys;
  const QmPlanKey *keys = qm_plan_schema_keys (&n_keys);
  int parent = qm_plan_schema_lookup (section) - keys;
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n_keys; i++)
    {
      if (qm_plan_schema_parent (i) != parent || !key_shown (&keys[i], section, plan))
        continue;
      if (s->len > 0)
        g_string_append (s, "; ");
      /* A key named like its row (the model) needs no label. */
      if (g_strcmp0 (keys[i].label, title) != 0)
        g_string_append_printf (s, "%s: ", g_dgettext (GETTEXT_PACKAGE, keys[i].label));
      append_value (s, &keys[i], plan, e);
    }
  return g_string_free (s, s->len == 0);
}

static void
add_row (QmDocument *doc,
         const char *label,
         const char *value)
{
  const char *cells[] = { label, value };

  qm_document_add_row (doc, cells, FALSE);
}

/* What the estimate resolved the "auto" keys to. */
static void
add_resolved (QmDocument       *doc,
              const QmEstimate *e)
{
  g_autofree char *parallel = NULL;
  g_autofree char *mfu = NULL;

  /* Translators: the parallel layout: tensor, pipeline, data, context
   * and expert parallel degrees (TP … EP, not translated), the
   * micro-batch, the ZeRO stage and the activation recompute. */
  parallel = g_strdup_printf (_("TP %u, PP %u, DP %u, CP %u, EP %u; micro-batch %u; ZeRO-%u; recompute %s"),
                              e->parallelism.tp, e->parallelism.pp, e->parallelism.dp,
                              e->parallelism.cp, e->parallelism.ep, e->parallelism.micro_batch,
                              e->parallelism.zero_stage,
                              qm_report_recompute_word (e->parallelism.recompute));
  add_row (doc, _("Parallelism"), parallel);
  mfu = g_strdup_printf ("%s%% (%s)", qm_report_num (100 * e->mfu, 1), qm_report_mfu_basis (e->mfu_source));
  add_row (doc, _("MFU"), mfu);
}

void
qm_plan_report_add_inputs (QmDocument                *doc,
                           const QmPlanReportSubject *subject)
{
  const char *headers[] = {
    /* Translators: the headers of the table of a plan's inputs: what the
     * input is, and its value. */
    _("Input"),
    /* Translators: the header of the column of values in the table of a
     * plan's inputs. */
    _("Value"),
  };
  static const double widths[] = { 0.22, 0.78 };

  qm_document_add_heading (doc, _("Inputs"), 2);
  qm_document_begin_table (doc, 2, headers, widths, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      g_autofree char *text = section_text (sections[i].path, sections[i].title, subject->plan, subject->e);

      if (text != NULL)
        add_row (doc, _(sections[i].title), text);
    }
  if (subject->e->has_training)
    add_resolved (doc, subject->e);
  qm_document_end_table (doc);
}
