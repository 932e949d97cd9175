/* qm-plan-view-private.h: the struct shared by the files of QmPlanView
 * (qm-plan-view.c: figures, charts, bill of materials, saving and export;
 * qm-plan-view-inputs.c: the side panel).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-advisor-panel.h"
#include "qm-plan-charts.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"

G_BEGIN_DECLS

typedef struct _QmPlanViewInput QmPlanViewInput;

/* One catalog entry offered in a hardware or offer row. */
typedef struct
{
  char *id;
  char *label;
  char *gpu_id;   /* servers and offers: the GPU they hold; NULL = any */
} QmPlanViewChoice;

typedef enum
{
  QM_PLAN_VIEW_LIST_GPUS,
  QM_PLAN_VIEW_LIST_SERVERS,
  QM_PLAN_VIEW_LIST_NETWORKS,
  QM_PLAN_VIEW_LIST_STORAGE,
  QM_PLAN_VIEW_LIST_OFFERS,
  QM_PLAN_VIEW_LIST_MODELS,
  QM_PLAN_VIEW_N_LISTS
} QmPlanViewList;

struct _QmPlanView
{
  GtkWidget          parent_instance;

  QmStore           *store;
  QmPlanEditor      *editor;
  gulong             changed_handler;
  gulong             undo_handler;
  gulong             redo_handler;
  gulong             dirty_handler;

  /* The saved row (customer, tags ... kept on autosave), or NULL. */
  QmSavedPlan       *saved;
  guint              autosave_source;
  char              *save_error;       /* the last failed save, for the subtitle */

  /* A saved quote whose prices changed: its estimate JSON, shown until
   * the user recomputes. NULL when showing today's estimate. */
  JsonNode          *snapshot;

  /* Charts: the curve is computed once per plan change, never per draw. */
  QmPlanCurves      *curves;
  QmPlanChartLayout *layouts[QM_N_PLAN_CHARTS];
  GtkWidget         *charts[QM_N_PLAN_CHARTS];

  /* Key figures: value, detail and card widgets by id. */
  GHashTable        *figure_values;
  GHashTable        *figure_details;
  GHashTable        *figure_cards;

  GListStore        *bom_store;

  /* Side panel. */
  GPtrArray         *inputs;           /* QmPlanViewInput */
  GHashTable        *inputs_by_key;
  GPtrArray         *lists[QM_PLAN_VIEW_N_LISTS];   /* QmPlanViewChoice */
  GtkWidget         *serving_group;
  GtkWidget         *training_group;
  GtkWidget         *reliability_group;
  gboolean           syncing;          /* writing the plan into the rows */
  gboolean           editing;          /* an input is committing its edit */

  /* Template children. */
  AdwToastOverlay   *toast_overlay;
  AdwHeaderBar      *header_bar;
  AdwWindowTitle    *window_title;
  GtkToggleButton   *inputs_button;
  GtkRevealer       *catalog_revealer;
  GtkLabel          *catalog_label;
  AdwFlap           *flap;
  GtkBox            *inputs_box;
  GtkLabel          *plan_title;
  GtkLabel          *plan_subtitle;
  GtkFlowBox        *figures_box;
  GtkLabel          *charts_note;
  GtkFlowBox        *charts_box;
  GtkColumnView     *bom_view;
  GtkGrid           *bom_totals;
  AdwPreferencesGroup *notes_group;
  GtkListBox        *notes_list;
  QmAdvisorPanel    *advisor_panel;
};

/* qm-plan-view-inputs.c */
void       qm_plan_view_inputs_build   (QmPlanView *self);
/* Writes the plan into every row. @force also rewrites the rows that
 * show refused text (after undo, redo or a plan set from outside). */
void       qm_plan_view_inputs_sync    (QmPlanView *self,
                                        gboolean    force);
void       qm_plan_view_inputs_clear   (QmPlanView *self);
GtkWidget *qm_plan_view_inputs_widget  (QmPlanView *self,
                                        const char *key,
                                        gboolean    row);
/* Resolves a catalog id with the store's entries and price overrides when
 * there is a store, else from the built-in catalog. */
gboolean   qm_plan_view_resolve        (QmPlanView *self,
                                        int         kind,
                                        const char *id,
                                        gpointer    out);

G_END_DECLS
