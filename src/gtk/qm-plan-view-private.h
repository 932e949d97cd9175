/* qm-plan-view-private.h: the struct shared by the files of QmPlanView
 * (qm-plan-view.c: refresh, saving, export and actions; -figures.c: the
 * key figures; -charts.c: the charts; -bom.c: the bill of materials;
 * -inputs.c, -rows.c and -lists.c: the side panel, see
 * qm-plan-view-rows.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-advisor-panel.h"
#include "qm-format.h"
#include "qm-plan-charts.h"
#include "qm-plan-store.h"
#include "qm-store-roles.h"
#include "qm-plan-view.h"

G_BEGIN_DECLS

typedef struct _QmPlanViewInput QmPlanViewInput;

/* The key figures, from an estimate or a saved snapshot. */
typedef struct
{
  gboolean    training;
  double      gpus, nodes, racks, nodes_per_rack;
  gboolean    liquid;
  double      ideal_days, train_days;
  double      mfu;
  const char *mfu_source;            /* "given", "predicted", "default" or NULL */
  double      mem_total, mem_capacity, mem_margin;
  int         fits;                  /* -1 unknown */
  double      it_peak_kw, it_avg_kw, facility_peak_kw, facility_avg_kw;
  double      energy_mwh, electricity_usd;
  gboolean    buy;
  double      upfront, monthly, run, total, horizon_months;
  double      co2_tonnes;
  double      goodput, interruptions;
  double      replicas, ttft_ms, tpot_ms;
  double      gpus_per_replica, idle_gpus;
  /* A fixed fleet (issue 31): what it holds; NaN when sized for the rate. */
  double      max_requests_per_s, headroom, gpus_for_rate;
  double      tokens_per_s_per_gpu;
  /* The likely ranges (issue #36) as qm_estimate_band_format() writes
   * them, "" where none, and their basis in words ("" when none). */
  char        band_mfu[QM_FORMAT_BUF], band_days[QM_FORMAT_BUF];
  char        band_gpus[QM_FORMAT_BUF], band_tokens[QM_FORMAT_BUF];
  char        bands_basis[256];
  /* A deadline plan sized above the estimate: the confidence and the
   * error it was sized at (issue #36); NaN when none. */
  double      deadline_confidence, deadline_error;
} QmPlanViewFigures;

/* A flow box puts N children on a line only when N natural widths fit: the
 * chart widget asks for 560 px and a wrapping label for its whole text, so
 * cap what a card asks for (it still grows to fill its column). */
#define CHART_CARD_NATURAL  400
#define FIGURE_CARD_NATURAL 170

/* Formats into a stack buffer: FMT (buf, qm_format_days, days). */
#define FMT(buf, fn, ...) (fn (buf, sizeof buf, __VA_ARGS__))

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

/* What an export action's save dialog calls with the chosen path (the
 * table exports[] in qm-plan-view.c). */
typedef gboolean (*QmPlanViewExportFunc) (QmPlanView  *self,
                                          const char  *path,
                                          GError     **error);

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
  /* The open "someone else saved this plan" question (weak), and whether
   * the view is going away (its last save cannot ask). */
  GtkWidget         *conflict_dialog;
  gboolean           disposing;

  /* A saved quote whose prices changed: its estimate JSON, shown until
   * the user recomputes. NULL when showing today's estimate. */
  JsonNode          *snapshot;

  /* The export whose file chooser is open, or was last. */
  QmPlanViewExportFunc pending_export;

  /* Charts: the curve is computed once per plan change, never per draw.
   * The serving sweeps run in a worker (issue 31 item 4): the one for the
   * plan as it is now is number sweep_generation; older ones are
   * cancelled and their points dropped. */
  QmPlanCurves      *curves;
  GCancellable      *sweep_cancellable;
  guint              sweep_generation;
  gboolean           sweeping;
  QmPlanChartLayout *layouts[QM_N_PLAN_CHARTS];
  GtkWidget         *charts[QM_N_PLAN_CHARTS];

  /* Key figures: value, detail and card widgets by id. */
  GHashTable        *figure_values;
  GHashTable        *figure_details;
  GHashTable        *figure_bands;
  GHashTable        *figure_cards;

  GListStore        *bom_store;
  /* How old the prices are, under the bill of materials
   * (qm-plan-view-bom.c, issue #35 item 6); settings give the limit. */
  GSettings         *settings;
  GtkLabel          *prices_as_of;
  GtkWidget         *price_age_box;
  GtkLabel          *price_age_label;

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
  GtkRevealer       *read_only_revealer;
  GtkLabel          *read_only_label;
  AdwFlap           *flap;
  GtkBox            *inputs_box;
  GtkLabel          *plan_title;
  GtkLabel          *plan_subtitle;
  GtkFlowBox        *figures_box;
  GtkLabel          *bands_basis;
  GtkLabel          *charts_note;
  GtkFlowBox        *charts_box;
  GtkColumnView     *bom_view;
  GtkGrid           *bom_totals;
  AdwPreferencesGroup *notes_group;
  GtkListBox        *notes_list;
  QmAdvisorPanel    *advisor_panel;

  /* The Quote section (qm-plan-view-quote.c). */
  QmQuote           *quote;            /* of the plan's terms, once per change */
  char              *quote_shape;      /* the lines shown, to rebuild only when they change */
  GtkWidget         *quote_box;
  /* Go To (qm-plan-view-sections.c): the section being brought to the
   * top while the page's layout settles, and the tick that does it. */
  GtkWidget         *jump_section;
  guint              jump_tick;
  guint              jump_still;
  GtkLabel          *quote_state;
  GtkWidget         *quote_add_group;
  AdwPreferencesGroup *quote_terms_group;
  GtkWidget         *quote_lines_group;
  GtkGrid           *quote_lines;
  GtkGrid           *quote_totals;
  GtkBox            *quote_chart_box;
  GtkWidget         *quote_actions;
};

/* qm-plan-view-inputs.c and -lists.c */
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

/* qm-plan-view-charts.c */
void       qm_plan_view_cancel_sweeps  (QmPlanView *self);
void qm_plan_view_build_charts (QmPlanView *self);
void qm_plan_view_update_charts (QmPlanView *self);

/* qm-plan-view-figures.c */
void qm_plan_view_figures_from_estimate (const QmPlan *p, const QmEstimate *e, QmPlanViewFigures *f);
double qm_plan_view_json_num (JsonObject *o, const char *member);
JsonObject *qm_plan_view_json_obj (JsonObject *o, const char *member);
const char *qm_plan_view_json_str (JsonObject *o, const char *member);
void qm_plan_view_figures_from_snapshot (const QmPlan *p, JsonObject *o, QmPlanViewFigures *f);
void qm_plan_view_add_figure_cards (QmPlanView *self);
/* @child, asking for at most @natural_width (see CHART_CARD_NATURAL). */
GtkWidget *qm_plan_view_capped_new (GtkWidget *child, int natural_width);
void qm_plan_view_update_figures (QmPlanView *self, const QmPlanViewFigures *f);

/* qm-plan-view-quote.c */
void  qm_plan_view_quote_class_init (GtkWidgetClass *widget_class);

/* qm-plan-view-sections.c: Go To a section (plan.jump-to, Ctrl+1 … 6). */
void       qm_plan_view_sections_class_init (GtkWidgetClass *widget_class);
void       qm_plan_view_sections_add_menu   (QmPlanView     *self);
void  qm_plan_view_quote_update     (QmPlanView     *self);
char *qm_plan_view_quote_tooltip    (QmPlanView     *self,
                                     double          x,
                                     double          y);

/* qm-plan-view.c */
void  qm_plan_view_toast            (QmPlanView     *self,
                                     const char     *text);

/* qm-plan-view-bom.c */
void qm_plan_view_build_bom (QmPlanView *self);
void qm_plan_view_update_bom (QmPlanView *self);
/* The user's price age limit in months (Preferences; qm-price-age.h). */
guint qm_plan_view_price_max_age (QmPlanView *self);

/* qm-plan-view.c: the header's title and subtitle (the last failed save). */
void qm_plan_view_update_title (QmPlanView *self);
gboolean qm_plan_view_may (QmPlanView    *self,
                           QmStoreRights  rights);

/* qm-plan-view-conflict.c: saving @mine failed with @error,
 * QM_STORE_ERROR_CONFLICT: asks whether to keep it as a copy, take the
 * saved version or compare the two. */
void qm_plan_view_conflict_show (QmPlanView        *self,
                                 const QmSavedPlan *mine,
                                 const GError      *error);

G_END_DECLS
