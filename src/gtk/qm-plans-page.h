/* qm-plans-page.h: the Plans page: the saved plans in a sortable,
 * searchable list, with compare, duplicate, rename, export and delete (with
 * undo), the empty state with the examples, and .qmplan import.
 *
 * Actions (installed on the widget class, so they resolve from inside the
 * page; the window can forward to them with gtk_widget_activate_action):
 *   plans.import     Ctrl+O   import a .qmplan file (file chooser)
 *   plans.search     Ctrl+F   focus the search entry
 *   plans.delete     Delete   move the selected plans to the trash (list focused)
 *   plans.compare             compare the 2–4 selected plans
 *   plans.duplicate           duplicate the selected plan
 *   plans.rename     F2       rename the selected plan
 *   plans.export     Ctrl+E   export the selected plan to a .qmplan file
 *   plans.open-example "s"    import an embedded example (its resource name)
 *
 * Signals:
 *   ::open-plan (gint64 id): a row was activated, or a file or example was
 *     imported and should be shown.
 *   ::compare-plans (GVariant "ax"): the ids of the 2–4 selected plans.
 *   ::new-plan: the empty state's "New Plan…" button.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-store.h"

G_BEGIN_DECLS

#define QM_TYPE_PLANS_PAGE (qm_plans_page_get_type ())
G_DECLARE_FINAL_TYPE (QmPlansPage, qm_plans_page, QM, PLANS_PAGE, GtkWidget)

/* The resource folder holding the example plans (data/examples). */
#define QM_EXAMPLES_RESOURCE_PATH "/io/github/quartermaster/Quartermaster/examples/"

/* @store may be NULL (an empty page); the page holds a reference to it. */
GtkWidget  *qm_plans_page_new             (QmStore     *store);
QmStore    *qm_plans_page_get_store       (QmPlansPage *self);
void        qm_plans_page_set_store       (QmPlansPage *self,
                                           QmStore     *store);

/* Re-reads the plans from the store, keeping the search, sort and the
 * selection (by id). Call it after another part of the app saved a plan. */
void        qm_plans_page_reload          (QmPlansPage *self);

/* Imports @file into the store as a new plan, with its estimate as the
 * snapshot and list columns. Returns the new id, or 0 with @error set:
 * a bad file writes nothing, and the message names the file, the problem
 * and the key path. Shows nothing; the list is reloaded on success. */
gint64      qm_plans_page_import_file     (QmPlansPage *self,
                                           GFile       *file,
                                           GError     **error);
/* What the app's `open` handler and the Import action call: imports
 * @file, then emits ::open-plan, or shows a dialog naming the problem.
 * Returns the new id or 0. */
gint64      qm_plans_page_open_file       (QmPlansPage *self,
                                           GFile       *file);
/* Imports the embedded example @name (e.g.
 * "llama-3.1-70b-pretrain-h100.qmplan") and emits ::open-plan. */
gint64      qm_plans_page_open_example    (QmPlansPage *self,
                                           const char  *name);

/* Writes plan @id to @file with the custom catalog entries it uses
 * embedded, and says so in a toast; on failure (read-only folder, full
 * disk) a dialog says why. What the Export action runs after its dialog. */
gboolean    qm_plans_page_export_plan     (QmPlansPage *self,
                                           gint64       id,
                                           GFile       *file);

/* The search text; setting it filters at once (no typing delay). */
const char *qm_plans_page_get_search      (QmPlansPage *self);
void        qm_plans_page_set_search      (QmPlansPage *self,
                                           const char  *text);

/* The rows as shown (sorted and filtered): a GListModel of QmPlanItem.
 * Owned by the page. */
GListModel *qm_plans_page_get_rows        (QmPlansPage *self);
/* The selection over those rows: position i is row i (its items are the
 * view's row slots, and past the last row come hidden padding rows, see
 * qm-row-slots.h). Owned by the page. */
GtkSelectionModel *qm_plans_page_get_model (QmPlansPage *self);
/* The ids of the selected rows, in list order (a GArray of gint64). */
GArray     *qm_plans_page_get_selected_ids (QmPlansPage *self);
guint       qm_plans_page_get_n_plans     (QmPlansPage *self);

G_END_DECLS
