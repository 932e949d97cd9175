/* qm-plan-report-private.h: test hooks of the plan report. An estimate
 * holds at most QM_BOM_MAX lines; these take the bill of materials from
 * the caller, so tests can try a 300-line quote and another locale's CSV.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-plan-report.h"

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

G_END_DECLS
