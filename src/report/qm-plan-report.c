/* qm-plan-report.c: the PDF plan summary, the comparison of plans, and the
 * bill of materials as CSV.
 *
 * All of the report's wording lives in this file: the labels, the
 * plain-language summary and the CSV headers, translated with gettext (the
 * English msgids are what the tests read back). Catalog ids and units
 * after numbers stay as they are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan-report.h"
#include "qm-plan-report-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-advisor.h"
#include "qm-catalog.h"
#include "qm-chart-compare.h"
#include "qm-chart-power.h"
#include "qm-chart-style.h"
#include "qm-csv.h"
#include "qm-chart-vram.h"
#include "qm-formulas.h"
#include "qm-plan-charts.h"
#include "qm-reliability.h"


/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */

/* The report formats many numbers per sentence: a ring of buffers. */
#define RING 32

char *
qm_report_ring (void)
{
  static char bufs[RING][QM_FORMAT_BUF * 2];
  static guint next;

  return bufs[next++ % RING];
}

/* A bill-of-materials line's label: the core's English label, marked for
 * translation (qm-cost.h). */
const char *
qm_report_bom_item_label (const char *item)
{
  return item != NULL && *item != '\0' ? g_dgettext (GETTEXT_PACKAGE, item) : "";
}

const char *
qm_report_num (double v,
               int    decimals)
{
  return qm_format_number (qm_report_ring (), QM_FORMAT_BUF * 2, v, decimals);
}

const char *
qm_report_days (double v)
{
  return qm_format_days (qm_report_ring (), QM_FORMAT_BUF * 2, v);
}

const char *
qm_report_money (double      v,
                 const char *currency)
{
  return qm_format_money (qm_report_ring (), QM_FORMAT_BUF * 2, v, currency);
}

const char *
qm_report_bytes (double      v,
                 QmBytesUnit unit)
{
  return qm_format_bytes (qm_report_ring (), QM_FORMAT_BUF * 2, v, unit);
}

gboolean
qm_report_is_dollars (const char *currency)
{
  return currency == NULL || currency[0] == '\0' || g_str_equal (currency, "USD");
}

/* A quote shows every digit: "$102,400,000", "$12.29". */
const char *
qm_report_money_exact (double      v,
                       const char *currency)
{
  char number[QM_FORMAT_BUF];
  char *buf = qm_report_ring ();
  int decimals = fabs (v) < 1000 && v != floor (v) ? 2 : 0;

  qm_format_number (number, sizeof number, v, decimals);
  if (qm_report_is_dollars (currency))
    g_snprintf (buf, QM_FORMAT_BUF * 2, "%s%s", v < 0 ? "−$" : "$", number + (v < 0 ? 1 : 0));
  else
    g_snprintf (buf, QM_FORMAT_BUF * 2, "%s %s", currency, number);
  return buf;
}

const char *
qm_report_qty (double v)
{
  return qm_report_num (v, v == floor (v) ? 0 : 2);
}

/* 15e12 → "15T", 2e9 → "2B", 3e8 → "300M": counts of tokens in prose. */
const char *
qm_report_short_count (double v)
{
  static const struct { double scale; const char *suffix; } steps[] = {
    { 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" }, { 1e3, "K" },
  };
  char *buf = qm_report_ring ();

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (fabs (v) >= steps[i].scale)
      {
        double s = v / steps[i].scale;

        g_snprintf (buf, QM_FORMAT_BUF * 2, "%s%s", qm_report_num (s, s >= 100 || s == floor (s) ? 0 : 1),
                    steps[i].suffix);
        return buf;
      }
  return qm_report_num (v, 0);
}

/* The n that picks a plural form for a count printed with num(): one
 * rule, the core's. */
gulong
qm_report_plural_n (double v)
{
  return qm_format_plural_n (v);
}

const char *
qm_report_currency_of (const QmPlan           *plan,
                       const QmPlanReportInfo *info)
{
  if (info->currency != NULL && info->currency[0])
    return info->currency;
  if (plan->pricing.currency[0])
    return plan->pricing.currency;
  return "USD";
}

const char *
qm_report_plan_name (const QmPlan *plan)
{
  return plan->name[0] ? plan->name : _("Untitled plan");
}

char *
qm_report_model_name (const QmPlan     *plan,
                      const QmEstimate *e)
{
  const QmModelPreset *preset = plan->workload.preset[0] ? qm_catalog_model (plan->workload.preset) : NULL;

  if (preset != NULL && preset->info.name != NULL)
    return g_strdup (preset->info.name);
  /* Translators: a model without a catalog name, in a sentence and a table
   * cell; %s is a parameter count such as "70B". */
  return g_strdup_printf (_("a %s-parameter model"), qm_report_short_count (e->params));
}

const char *
qm_report_gpu_name (const QmPlan *plan)
{
  const char *n = plan->hardware.gpu.info.name;

  return n != NULL && n[0] ? n : plan->gpu_id;
}

const char *
qm_report_server_name (const QmPlan *plan)
{
  const char *n = plan->hardware.server.info.name;

  return n != NULL && n[0] ? n : plan->server_id;
}

const char *
qm_report_pricing_label (QmPricingMode mode)
{
  switch (mode)
    {
    case QM_PRICING_BUY:            return _("Buy");
    case QM_PRICING_RENT_ON_DEMAND: return _("Rent, on demand");
    case QM_PRICING_RENT_RESERVED:  return _("Rent, reserved");
    default:                        return "";
    }
}

const char *
qm_report_mode_label (QmMode mode)
{
  switch (mode)
    {
    case QM_MODE_PRETRAIN:  return _("Pretraining");
    case QM_MODE_FINETUNE:  return _("Full fine-tuning");
    case QM_MODE_LORA:      return _("LoRA fine-tuning");
    case QM_MODE_QLORA:     return _("QLoRA fine-tuning");
    case QM_MODE_INFERENCE: return _("Serving (inference)");
    default:                return "";
    }
}

const char *
qm_report_mfu_basis (QmMfuSource source)
{
  switch (source)
    {
    /* Translators: where the MFU comes from, after "MFU 40.0% (…)" and
     * "Model FLOPs utilisation 40.0%: …". */
    case QM_MFU_SOURCE_GIVEN:     return _("given in the plan");
    case QM_MFU_SOURCE_PREDICTED: return _("predicted by the throughput model");
    case QM_MFU_SOURCE_DEFAULT:   return _("the default for this GPU family");
    default:                      return "";
    }
}

/* One word for where the MFU comes from, in the comparison's MFU row; in
 * English the same words as qm_mfu_source_to_string(). */
const char *
qm_report_mfu_source_word (QmMfuSource source)
{
  switch (source)
    {
    /* Translators: in the comparison's MFU row, "40.0% (given)": the MFU
     * is given in the plan. */
    case QM_MFU_SOURCE_GIVEN:     return C_("MFU source", "given");
    /* Translators: in the comparison's MFU row: predicted by the
     * throughput model. */
    case QM_MFU_SOURCE_PREDICTED: return C_("MFU source", "predicted");
    case QM_MFU_SOURCE_DEFAULT:
    /* Translators: in the comparison's MFU row: the default for the GPU
     * family. */
    default:                      return C_("MFU source", "default");
    }
}

/* Activation recompute after "recompute"; in English the plan file's words
 * (qm_recompute_to_string()). */
const char *
qm_report_recompute_word (QmRecompute recompute)
{
  switch (recompute)
    {
    /* Translators: after "recompute" in the parallel layout: no activation
     * recompute. */
    case QM_RECOMPUTE_NONE:      return C_("activation recompute", "none");
    /* Translators: after "recompute": selective (attention) recompute. */
    case QM_RECOMPUTE_SELECTIVE: return C_("activation recompute", "selective");
    /* Translators: after "recompute": full activation recompute. */
    case QM_RECOMPUTE_FULL:      return C_("activation recompute", "full");
    /* Translators: after "recompute": PyTorch's per-operator selective
     * checkpointing (every other matrix product recomputed). */
    case QM_RECOMPUTE_SELECTIVE_OP: return C_("activation recompute", "per operator");
    default:                     return qm_recompute_to_string (recompute);
    }
}

gboolean
qm_report_is_buy (const QmPlan *plan)
{
  return plan->pricing.mode == QM_PRICING_BUY;
}

static char *
today (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  return g_date_time_format (now, "%Y-%m-%d");
}

void
qm_plan_report_info_init (QmPlanReportInfo *info)
{
  /* The date stays NULL (today, as printed when the report is made:
   * qm_report_resolve_info): no pointer into a static buffer (issue #34
   * item 3). */
  memset (info, 0, sizeof *info);
  info->date = NULL;
  info->paper = qm_paper_for_locale ();
  info->catalog_version = qm_catalog_version ();
  info->currency = NULL;
  info->memory_unit = QM_BYTES_GB;
}

/* Fill the gaps of a caller's info (or all of it when NULL). */
void
qm_report_resolve_info (const QmPlanReportInfo *in,
                        QmPlanReportInfo       *out,
                        char                  **date_out)
{
  qm_plan_report_info_init (out);
  if (in != NULL)
    {
      out->paper = in->paper;
      out->memory_unit = in->memory_unit;
      out->currency = in->currency;
      if (in->date != NULL)
        out->date = in->date;
      if (in->catalog_version != NULL)
        out->catalog_version = in->catalog_version;
      out->advisor_goal = in->advisor_goal;
      out->price_max_age_months = in->price_max_age_months;
    }
  *date_out = out->date != NULL ? g_strdup (out->date) : today ();
  out->date = *date_out;
}

void
qm_report_paper_style (QmChartStyle *style)
{
  qm_chart_style_init_light (style);
  style->font_size = CHART_FONT_PT;
}


char *
qm_report_footer_text (const char *name,
                       const char *date)
{
  g_autofree char *cut = qm_text_ellipsize (name, FOOTER_NAME_CHARS);

  return g_strdup_printf ("%s — %s", cut, date);
}

QmDocument *
qm_plan_report_new_with_bom (const QmPlan           *plan,
                             const QmEstimate       *e,
                             const QmBomLine        *bom,
                             guint                   n_bom,
                             const QmPlanReportInfo *in)
{
  QmPlanReportSubject subject = { plan, e, bom, n_bom };
  g_autofree char *date = NULL;
  g_autofree char *footer = NULL;
  QmDocument *doc;

  g_return_val_if_fail (plan != NULL && e != NULL, NULL);
  qm_report_resolve_info (in, &subject.info, &date);
  footer = qm_report_footer_text (qm_report_plan_name (plan), subject.info.date);
  doc = qm_document_new (subject.info.paper, qm_report_plan_name (plan), footer);

  qm_plan_report_add_cover (doc, &subject);
  if (e->has_cost)
    qm_plan_report_add_bom (doc, &subject);
  qm_plan_report_add_charts (doc, &subject);
  qm_plan_report_add_advice (doc, &subject);
  qm_plan_report_add_assumptions (doc, &subject);
  return doc;
}

QmDocument *
qm_plan_report_new (const QmPlan           *plan,
                    const QmEstimate       *estimate,
                    const QmPlanReportInfo *info)
{
  g_return_val_if_fail (plan != NULL && estimate != NULL, NULL);
  return qm_plan_report_new_with_bom (plan, estimate, estimate->cost.bom,
                                      MIN (estimate->cost.n_bom, QM_BOM_MAX), info);
}


/* ---------------------------------------------------------------------- */
/* Labels the CLI's text output shares with the PDF                        */

const char *
qm_bom_item_label (const char *item)
{
  return qm_report_bom_item_label (item);
}

const char *
qm_mode_label (QmMode mode)
{
  return qm_report_mode_label (mode);
}

const char *
qm_mfu_source_word (QmMfuSource source)
{
  return qm_report_mfu_source_word (source);
}

const char *
qm_recompute_word (QmRecompute recompute)
{
  return qm_report_recompute_word (recompute);
}
