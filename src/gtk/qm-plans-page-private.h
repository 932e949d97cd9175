/* qm-plans-page-private.h: the struct shared by the files of QmPlansPage
 * (qm-plans-page.c: cells, sorting, search, selection and layout;
 * qm-plans-page-actions.c: importing, the selection's actions, export).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-list-page.h"
#include "qm-plan-item.h"
#include "qm-plans-page.h"

G_BEGIN_DECLS

/* The columns, in their order on screen. At narrow widths the least
 * important go first (see columns_for_width). */
typedef enum
{
  COLUMN_NAME,
  COLUMN_CUSTOMER,
  COLUMN_MODEL,
  COLUMN_GPUS,
  COLUMN_DAYS,
  COLUMN_COST,
  COLUMN_MODIFIED,
  N_COLUMNS
} Column;

struct _QmPlansPage
{
  GtkWidget             parent_instance;

  QmStore              *store;          /* a reference, or NULL */

  GListStore           *plans;          /* QmPlanItem, newest first */
  GtkSortListModel     *sorted;
  QmListPageState       list;           /* filters @sorted by the search */
  GtkMultiSelection    *selection;
  GArray               *kept_ids;       /* selected while the rows change */

  GStrv                 words;          /* of the search; NULL = no search */

  GArray               *undo_ids;       /* the last deletion, for Undo */
  AdwToast             *undo_toast;     /* weak */

  guint                 columns_idle;
  guint                 visible_columns; /* bit per Column */
  int                   columns_width;

  GtkFileChooserNative *chooser;

  /* "5 minutes ago" keeps true: the cells are refilled every minute while
   * the page is mapped, and at once when it is shown again. */
  guint                 clock_source;
  GTimeSpan             clock_offset;   /* added to the wall clock (tests) */

  /* Template widgets. */
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  GtkStack             *list_stack;
  GtkMenuButton        *example_button;
  GtkSearchEntry       *search_entry;
  GtkColumnView        *column_view;
  GtkActionBar         *action_bar;
  GtkLabel             *selection_label;
  GtkColumnViewColumn  *columns[N_COLUMNS];
};

/* qm-plans-page.c */
/* Emits QmPlansPage::open-plan. */
void qm_plans_page_emit_open_plan (QmPlansPage *self, gint64 id);
/* Emits QmPlansPage::compare-plans with @ids, a GVariant "ax". */
void qm_plans_page_emit_compare_plans (QmPlansPage *self, GVariant *ids);

/* Moves the page's clock on by @by and refills the cells as the minute
 * tick does: for tests of the relative dates. */
void qm_plans_page_advance_clock (QmPlansPage *self, GTimeSpan by);

/* qm-plans-page-actions.c */
GMenuModel *qm_plans_page_build_examples_menu (void);
guint qm_plans_page_n_shown (QmPlansPage *self);
gint64 qm_plans_page_get_single_selected_id (QmPlansPage *self);
void qm_plans_page_update_actions (QmPlansPage *self);
void qm_plans_page_update_view (QmPlansPage *self);
void qm_plans_page_select_ids (QmPlansPage *self, const gint64 *ids, guint n_ids);
int qm_plans_page_find_position (QmPlansPage *self, gint64 id);
gboolean qm_plans_page_refresh_plan (QmPlansPage *self, gint64 id);
void qm_plans_page_show_toast (QmPlansPage *self, const char *title);
void qm_plans_page_show_store_error (QmPlansPage *self, const char *heading, const GError *error);
void qm_plans_page_class_actions_init (GtkWidgetClass *widget_class);

G_END_DECLS
