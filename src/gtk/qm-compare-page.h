/* qm-compare-page.h: 2-4 saved plans side by side (issue #10).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-store.h"

G_BEGIN_DECLS

#define QM_COMPARE_PAGE_MAX_PLANS 4

#define QM_TYPE_COMPARE_PAGE (qm_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (QmComparePage, qm_compare_page, QM, COMPARE_PAGE, AdwBin)

GtkWidget *qm_compare_page_new        (QmStore       *store);
/* Replaces the plans compared (at most QM_COMPARE_PAGE_MAX_PLANS are
 * kept). Plans that cannot be read are skipped with a message. */
void       qm_compare_page_set_plans  (QmComparePage *self,
                                       const gint64  *ids,
                                       guint          n);
gboolean   qm_compare_page_add_plan   (QmComparePage *self,
                                       gint64         id);
guint      qm_compare_page_get_n_plans (QmComparePage *self);
/* For tests: the text of the cell of row @metric (a QmCompareRow id:
 * "total", "gpu") for plan @plan, and whether it is marked as the best
 * value; NULL when the row is hidden. */
const char *qm_compare_page_get_cell  (QmComparePage *self,
                                       const char    *metric,
                                       guint          plan,
                                       gboolean      *best);
/* For tests: the likely range shown under that cell ("likely 23.8–31.5"),
 * or NULL where it has none or the row is hidden. */
const char *qm_compare_page_get_band  (QmComparePage *self,
                                       const char    *metric,
                                       guint          plan);
/* The comparison as a PDF (the same pages as printing). */
gboolean    qm_compare_page_export_pdf  (QmComparePage  *self,
                                         const char     *path,
                                         GError        **error);
/* Print dialog with preview; with @export_path, prints to that PDF. */
gboolean    qm_compare_page_print       (QmComparePage  *self,
                                         const char     *export_path,
                                         GError        **error);
/* For tests: how many value cells the table shows (rows × plans). */
guint       qm_compare_page_get_n_cells (QmComparePage  *self);
/* For tests: the line under the table (the check mark's meaning and which
 * rows were not ranked and why), or NULL with fewer than two plans. */
const char *qm_compare_page_get_legend  (QmComparePage  *self);

/* A row with parts (qm-metrics.h: memory, power, upfront, monthly, total)
 * expands to show them under it, as its chevron and the help say; its
 * label is a button that toggles that, never which way is better (issue
 * #35 item 4). The button of row @metric, NULL where it has no parts. */
GtkWidget  *qm_compare_page_get_expander (QmComparePage *self,
                                          const char    *metric);
gboolean    qm_compare_page_get_expanded (QmComparePage *self,
                                          const char    *metric);
void        qm_compare_page_set_expanded (QmComparePage *self,
                                          const char    *metric,
                                          gboolean       expanded);

G_END_DECLS
