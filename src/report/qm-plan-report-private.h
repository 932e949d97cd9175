/* qm-plan-report-private.h: what the plan report's files share, and its
 * test hooks. An estimate
 * holds at most QM_BOM_MAX lines; these take the bill of materials from
 * the caller, so tests can try a 300-line quote and another locale's CSV.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-plan-report.h"
#include "qm-chart-style.h"
#include "qm-text.h"

G_BEGIN_DECLS

QmDocument *qm_plan_report_new_with_bom (const QmPlan           *plan,
                                         const QmEstimate       *estimate,
                                         const QmBomLine        *bom,
                                         guint                   n_bom,
                                         const QmPlanReportInfo *info);

/* @separator ',' or ';'; @decimal_point "." or ",". */
char       *qm_bom_to_csv_full          (const QmEstimate       *estimate,
                                         const QmPlan           *plan,
                                         const QmBomLine        *bom,
                                         guint                   n_bom,
                                         gboolean                excel_bom,
                                         char                    separator,
                                         const char             *decimal_point);

/* ---------------------------------------------------------------------- */
/* Shared by the report's files (qm-plan-report*.c)                        */

/* Charts on paper: the renderers' sizes are points here, so a slightly
 * smaller label size matches the 9.5 pt body text. */
#define CHART_FONT_PT     7.5
#define CHART_HEIGHT      272.0
#define COMPARE_HEIGHT    300.0
#define VRAM_CELL_HEIGHT  220.0
#define POWER_HEIGHT      230.0
#define POWER_PAGE        660.0
/* Key-figure cells are one line each (qm-document measures one line). */
#define KEY_LABEL_CHARS   34
#define FOOTER_NAME_CHARS 70

/* Number and label helpers (qm-plan-report.c). The const char * results
 * live in a ring of buffers: use them before some 32 more calls. */
char *qm_report_ring (void);
const char *qm_report_bom_item_label (const char *item);
const char *qm_report_num (double v, int decimals);
const char *qm_report_days (double v);
const char *qm_report_money (double v, const char *currency);
const char *qm_report_bytes (double v, QmBytesUnit unit);
gboolean qm_report_is_dollars (const char *currency);
const char *qm_report_money_exact (double v, const char *currency);
const char *qm_report_qty (double v);
const char *qm_report_short_count (double v);
gulong qm_report_plural_n (double v);
const char *qm_report_currency_of (const QmPlan *plan, const QmPlanReportInfo *info);
const char *qm_report_plan_name (const QmPlan *plan);
char *qm_report_model_name (const QmPlan *plan, const QmEstimate *e);
const char *qm_report_gpu_name (const QmPlan *plan);
const char *qm_report_server_name (const QmPlan *plan);
const char *qm_report_pricing_label (QmPricingMode mode);
const char *qm_report_mode_label (QmMode mode);
const char *qm_report_mfu_basis (QmMfuSource source);
const char *qm_report_mfu_source_word (QmMfuSource source);
const char *qm_report_recompute_word (QmRecompute recompute);
gboolean qm_report_is_buy (const QmPlan *plan);
void qm_report_paper_style (QmChartStyle *style);
/* Fills the gaps of a caller's info (or all of it when NULL); *date_out
 * owns the date that out->date points to. */
void qm_report_resolve_info (const QmPlanReportInfo *in, QmPlanReportInfo *out, char **date_out);
char *qm_report_footer_text (const char *name, const char *date);
/* "Catalog prices: version 2026.11 · amounts in USD" (qm-plan-report-summary.c). */
void qm_report_append_catalog_line (GString *s, const char *version, const char *currency);

/* What every section of the plan report draws from: the plan, its
 * estimate, the bill of materials (the estimate's, or a test's) and the
 * caller's info with its gaps filled (qm_report_resolve_info). */
typedef struct
{
  const QmPlan     *plan;
  const QmEstimate *e;
  const QmBomLine  *bom;
  guint             n_bom;
  QmPlanReportInfo  info;
} QmPlanReportSubject;

/* The plan report's sections, in the order of the document. */
void qm_plan_report_add_cover       (QmDocument *doc, const QmPlanReportSubject *subject);
void qm_plan_report_add_inputs      (QmDocument *doc, const QmPlanReportSubject *subject);
void qm_plan_report_add_bom         (QmDocument *doc, const QmPlanReportSubject *subject);
void qm_plan_report_add_charts      (QmDocument *doc, const QmPlanReportSubject *subject);
void qm_plan_report_add_advice      (QmDocument *doc, const QmPlanReportSubject *subject);
void qm_plan_report_add_assumptions (QmDocument *doc, const QmPlanReportSubject *subject);

G_END_DECLS
