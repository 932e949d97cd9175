/* qm-plan-view.h: one plan on screen: a full page with its own header bar,
 * the key figures, the four charts, the bill of materials, the assumptions
 * and warnings, and a side panel where every input can be edited.
 *
 * The view edits through a QmPlanEditor (shared with whoever opened it):
 * each input edit is one qm_plan_editor_set_plan() with a merge key per
 * field, so it re-estimates at once and undoes as one step. With a store,
 * edits are saved about half a second after the last one.
 *
 * Actions (on the widget class, so they resolve inside the page):
 *   plan.back              Escape, Alt+Left  close the side panel overlay, else ::back
 *   plan.undo              Ctrl+Z
 *   plan.redo              Ctrl+Shift+Z, Ctrl+Y
 *   plan.toggle-inputs     F9                show or hide the side panel
 *   plan.rename            F2
 *   plan.duplicate         Ctrl+Shift+S      save a copy in the store (::duplicated)
 *   plan.export-pdf        Ctrl+E
 *   plan.print             Ctrl+P
 *   plan.export-csv                          the bill of materials as CSV
 *   plan.export-plan                         a .qmplan file
 *   plan.add-to-compare                      ::add-to-compare
 *   plan.recompute                           leave a saved quote's snapshot
 *
 * Signals:
 *   ::back: the back button or Escape.
 *   ::add-to-compare (gint64 id): the saved id (after saving pending
 *     edits; 0 without a store).
 *   ::duplicated (gint64 id): a copy was saved under this id.
 *   ::saved (gint64 id): an autosave or explicit save succeeded.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-plan-charts.h"
#include "qm-plan-editor.h"
#include "qm-store.h"

G_BEGIN_DECLS

#define QM_TYPE_PLAN_VIEW (qm_plan_view_get_type ())
G_DECLARE_FINAL_TYPE (QmPlanView, qm_plan_view, QM, PLAN_VIEW, GtkWidget)

/* How long after the last edit the plan is saved. */
#define QM_PLAN_VIEW_AUTOSAVE_MS 500

/* @store may be NULL (nothing is saved); the view holds a reference to
 * it. When @editor's plan is saved (saved id > 0) and today's catalog
 * would change its numbers, the view shows the saved snapshot until the
 * user chooses Recompute. */
GtkWidget    *qm_plan_view_new              (QmStore      *store,
                                             QmPlanEditor *editor);
QmPlanEditor *qm_plan_view_get_editor       (QmPlanView   *self);
QmStore      *qm_plan_view_get_store        (QmPlanView   *self);

/* Writes pending edits now (autosave without the wait). FALSE with
 * @error when the store refused; TRUE when there was nothing to do. */
gboolean      qm_plan_view_save             (QmPlanView   *self,
                                             GError      **error);
/* TRUE while the figures shown are a saved quote's snapshot rather than
 * today's estimate (the catalog changed since). */
gboolean      qm_plan_view_get_showing_snapshot (QmPlanView *self);

/* What Export PDF, Export Bill of Materials and Export Plan File write
 * once the user picked @path (the plan file embeds the user's own catalog
 * entries). Print runs the print dialog, or with @export_path writes the
 * printed pages to that PDF without a dialog. */
gboolean      qm_plan_view_export_pdf       (QmPlanView   *self,
                                             const char   *path,
                                             GError      **error);
gboolean      qm_plan_view_export_csv       (QmPlanView   *self,
                                             const char   *path,
                                             GError      **error);
gboolean      qm_plan_view_export_plan_file (QmPlanView   *self,
                                             const char   *path,
                                             GError      **error);
gboolean      qm_plan_view_print            (QmPlanView   *self,
                                             const char   *export_path,
                                             GError      **error);

/* The Quote section's exports (issue #22): the quote PDF a customer
 * signs, its XLSX workbook, and printing the PDF's pages (with
 * @export_path, to that PDF without a dialog). */
gboolean      qm_plan_view_export_quote_pdf  (QmPlanView   *self,
                                              const char   *path,
                                              GError      **error);
gboolean      qm_plan_view_export_quote_xlsx (QmPlanView   *self,
                                              const char   *path,
                                              GError      **error);
gboolean      qm_plan_view_print_quote       (QmPlanView   *self,
                                              const char   *export_path,
                                              GError      **error);

/* The side panel. */
gboolean      qm_plan_view_get_inputs_visible (QmPlanView *self);
void          qm_plan_view_set_inputs_visible (QmPlanView *self,
                                               gboolean    visible);

/* The control that edits the input @key ("gpus", "facility.pue", ...:
 * the merge keys, listed by qm_plan_view_list_inputs()) and the row that
 * holds it (which carries the "error" style while its text is refused).
 * For tests and for focusing a field. */
GtkWidget    *qm_plan_view_get_input        (QmPlanView   *self,
                                             const char   *key);
GtkWidget    *qm_plan_view_get_input_row    (QmPlanView   *self,
                                             const char   *key);
const char *const *qm_plan_view_list_inputs (void);

/* The text of key-figure card @id ("gpus", "nodes", "racks", "time",
 * "capacity", "throughput", "mfu", "memory", "power", "energy", "cost", "co2",
 * "goodput"), as
 * shown. For tests. */
const char   *qm_plan_view_get_figure       (QmPlanView   *self,
                                             const char   *id);
/* TRUE while the serving charts' sweeps still run in their worker (the
 * charts show the points so far). */
gboolean      qm_plan_view_get_sweeping     (QmPlanView   *self);
/* The curves the charts draw now (points so far, while sweeping). For
 * tests. */
const QmPlanCurves *qm_plan_view_get_curves (QmPlanView   *self);
/* The line under key figure @id's value (its detail), or NULL. */
const char   *qm_plan_view_get_figure_detail (QmPlanView   *self,
                                              const char   *id);
/* Key figure @id's likely range as shown ("Likely 23.8–31.5 days"), or
 * NULL when it shows none (issue #36). For tests. */
const char   *qm_plan_view_get_figure_band  (QmPlanView   *self,
                                             const char   *id);
/* The line under the key figures that says what the likely ranges rest
 * on, or NULL when hidden. For tests. */
const char   *qm_plan_view_get_bands_basis  (QmPlanView   *self);

/* The section of the page named @name (summary, charts, bom, quote,
 * advisor, notes: the targets of plan.jump-to), heading included. */
GtkWidget *qm_plan_view_section (QmPlanView *self,
                                 const char *name);
/* Whether a Go To still holds its section's heading in place while the
 * page's layout settles (tests wait for it). */
gboolean   qm_plan_view_get_jumping (QmPlanView *self);

G_END_DECLS
