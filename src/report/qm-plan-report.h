/* qm-plan-report.h: the PDF plan summary, the comparison of 2-4 plans, and
 * the bill of materials as CSV (issue #10). The GUI's Export PDF and Print
 * and `quartermaster-cli report|compare` all build the same QmDocument.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-chart-compare.h"
#include "qm-csv.h"
#include "qm-document.h"
#include "qm-estimate.h"
#include "qm-format.h"
#include "qm-metrics.h"
#include "qm-workload.h"

G_BEGIN_DECLS

typedef struct
{
  const char  *date;             /* as printed, e.g. "2026-11-22"; NULL = today */
  QmPaper      paper;
  const char  *catalog_version;  /* NULL = qm_catalog_version () */
  const char  *currency;         /* label; NULL = the plan's pricing.currency */
  QmBytesUnit  memory_unit;
  /* What the "How to improve this plan" page ranks by: "time", "cost",
   * "energy" or "gpus" (qm_advisor_goal_to_string); NULL = cost. */
  const char  *advisor_goal;
  /* Past this many months the bill of materials warns that its prices
   * are old (qm-price-age.h), judged on @date; 0 = the default (6). */
  guint        price_max_age_months;
} QmPlanReportInfo;

/* Today, the locale's paper, the built-in catalog's version, the plan's
 * currency, decimal GB and advice ranked by cost. */
void        qm_plan_report_info_init (QmPlanReportInfo *info);

/* Cover and summary, bill of materials, the four charts, how to improve
 * the plan (the advisor's suggestions and guidance), then assumptions,
 * warnings and sources. @info may be NULL (the defaults above). The
 * document copies what it needs: @plan and @estimate may go away after. */
QmDocument *qm_plan_report_new       (const QmPlan           *plan,
                                      const QmEstimate       *estimate,
                                      const QmPlanReportInfo *info);

/* Key figures and inputs side by side (the better value marked with a
 * check mark), the comparison chart, and each plan's memory and power
 * charts on one shared scale. @n is 2 to 4. */
QmDocument *qm_compare_report_new    (const QmPlan           *plans,
                                      const QmEstimate       *estimates,
                                      guint                   n,
                                      const QmPlanReportInfo *info);

/* The side-by-side table of the comparison, shared by the PDF, the CLI's
 * text table and JSON, and the Compare page: one row per metric of the
 * core's table (qm-metrics.h), then a section row and the inputs. best[]
 * marks the better value(s) of a row, as qm_metric_rank() decides (none
 * when all are equal, fewer than two apply, the metric's rule keeps the
 * plans apart, or the best is within another plan's likely range: verdict
 * says which; tied[] then marks the plans within each other's ranges).
 * Every view prints a best value with "✓ " before it, a tied one with
 * "≈ " (qm_compare_mark), and the band line under the value. */
typedef struct
{
  const char      *id;       /* the metric's id, or the input's ("gpu") */
  char            *label;
  char            *cells[QM_COMPARE_MAX_PLANS];
  double           values[QM_COMPARE_MAX_PLANS];  /* NaN: does not apply */
  gboolean         best[QM_COMPARE_MAX_PLANS];
  gboolean         tied[QM_COMPARE_MAX_PLANS];
  /* The value's likely range in the metric's unit (NaN: none), and as
   * printed under the value: "likely 23.8–31.5" (NULL: none). */
  double           band_low[QM_COMPARE_MAX_PLANS];
  double           band_high[QM_COMPARE_MAX_PLANS];
  char            *bands[QM_COMPARE_MAX_PLANS];
  QmBetter         better;
  QmMetricVerdict  verdict;
  gboolean         section;  /* a heading row: label only */
  /* What the figure is made of (qm-metrics.h QmMetricPart): a
   * QmCompareRow per part that applies to at least one plan, not ranked
   * (QM_BETTER_NONE, cells "–" where a part does not apply), in the
   * table's order; NULL where the metric has no parts. The Compare page
   * shows them under an expanded row, `compare --json` as "parts". */
  GPtrArray       *parts;
} QmCompareRow;

/* The mark before plan @i's value in @row: "✓ ", "≈ " or "". */
const char *qm_compare_mark          (const QmCompareRow     *row,
                                      guint                   i);

/* A GPtrArray of QmCompareRow that frees them. */
GPtrArray  *qm_compare_rows          (const QmPlan           *plans,
                                      const QmEstimate       *estimates,
                                      guint                   n,
                                      const QmPlanReportInfo *info);

/* Which rows were not ranked and why, as the PDF, the page and the CLI
 * print it under the table; NULL when every row could be. */
char       *qm_compare_explain       (const QmPlan           *plans,
                                      const QmEstimate       *estimates,
                                      guint                   n,
                                      const QmPlanReportInfo *info);

/* The comparison chart's bars for @n plans, as the PDF and the Compare
 * page draw them (one definition): a serving plan has no time to train,
 * so no bar. @labels[i] is kept by pointer. */
void        qm_compare_chart_items   (const QmEstimate       *estimates,
                                      const char * const     *labels,
                                      guint                   n,
                                      QmCompareItem          *items);

/* The plans' short labels in charts and tables: "A", "B" ... */
char        qm_compare_letter        (guint                   i);

/* How far to trust the estimate (issue #36), in the sentences the plan
 * summary and the quote's technical page print: the likely ranges of the
 * time, MFU and GPUs (training) or the throughput per GPU and GPUs
 * (serving), their basis, a deadline's confidence; or that a plan giving
 * its own MFU has none. NULL when no band applies and none is missing (an
 * invalid estimate). Free with g_free(). */
char       *qm_report_bands_text     (const QmPlan           *plan,
                                      const QmEstimate       *estimate);

/* Translated words for the CLI's text output, the same as the PDF's: a
 * bill-of-materials line's label, the mode ("Pretraining"), where the MFU
 * comes from ("given") and the activation recompute ("selective"). */
const char *qm_bom_item_label        (const char             *item);
const char *qm_mode_label            (QmMode                  mode);
const char *qm_mfu_source_word       (QmMfuSource             source);
const char *qm_recompute_word        (QmRecompute             recompute);

/* The bill of materials with a totals section, RFC 4180 quoted, UTF-8.
 * The separator follows the locale: ";" where the decimal point is ","
 * (numbers then use ","), else ",". @excel_bom starts the text with a
 * UTF-8 byte order mark so that spreadsheets detect UTF-8. */
char       *qm_bom_to_csv            (const QmEstimate       *estimate,
                                      const QmPlan           *plan,
                                      gboolean                excel_bom);
/* The same in @dialect's separator and decimal mark (qm-csv.h), stated in
 * a first "sep=" line when @dialect asks for one and there is no
 * @excel_bom (the line must come first for Excel to honour it). */
char       *qm_bom_to_csv_dialect    (const QmEstimate       *estimate,
                                      const QmPlan           *plan,
                                      gboolean                excel_bom,
                                      const QmCsvDialect     *dialect);

G_END_DECLS
