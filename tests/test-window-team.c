/* test-window-team.c: the window on a team database (issue #23), on a
 * private PostgreSQL cluster: plans another client saves, renames and
 * deletes appear in the plans list without a click, with the selection
 * kept; a viewer's window says why plans cannot be saved, and shows the
 * catalog and a plan without their editing actions, which an editor's
 * plan view keeps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>

#include "qm-plan-item.h"
#include "qm-plan-store.h"
#include "qm-plans-page.h"
#include "qm-store-roles.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-window.h"

static QmTestPg *cluster;

static gint64
save_plan (QmStore    *store,
           const char *name)
{
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, "Acme", 10.0);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  return plan->id;
}

/* Runs the main loop until the page lists @n plans (5 s at most); the
 * milliseconds it took. */
static double
wait_for_plans (QmPlansPage *page,
                guint        n)
{
  gint64 start = g_get_monotonic_time ();
  gint64 deadline = start + 5 * G_USEC_PER_SEC;

  while (qm_plans_page_get_n_plans (page) != n && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (qm_plans_page_get_n_plans (page), ==, n);
  return (g_get_monotonic_time () - start) / 1000.0;
}

/* Selects the row showing plan @id, as a click would. */
static void
select_plan (QmPlansPage *page,
             gint64       id)
{
  GListModel *rows = qm_plans_page_get_rows (page);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(QmPlanItem) item = g_list_model_get_item (rows, i);

      if (qm_plan_item_get_id (item) == id)
        {
          gtk_selection_model_select_item (qm_plans_page_get_model (page), i, TRUE);
          return;
        }
    }
  g_assert_not_reached ();
}

static gint64
single_selected (QmPlansPage *page)
{
  g_autoptr(GArray) ids = qm_plans_page_get_selected_ids (page);

  g_assert_cmpuint (ids->len, ==, 1);
  return g_array_index (ids, gint64, 0);
}

static void
test_live_refresh (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) mine = qm_test_open_store_at (uri);
  g_autoptr(QmStore) theirs = qm_test_open_store_at (uri);
  g_autoptr(GError) error = NULL;
  gint64 alpha = save_plan (mine, "Alpha");
  gint64 beta = save_plan (mine, "Beta");
  QmWindow *window = qm_window_new_with_store (NULL, mine);
  QmPlansPage *page;
  double ms;

  gtk_window_present (GTK_WINDOW (window));
  qm_window_set_page (window, "plans");
  page = QM_PLANS_PAGE (qm_test_find_type (GTK_WIDGET (window), QM_TYPE_PLANS_PAGE));
  g_assert_cmpuint (qm_plans_page_get_n_plans (page), ==, 2);
  select_plan (page, alpha);

  save_plan (theirs, "Gamma from a colleague");
  ms = wait_for_plans (page, 3);
  g_test_message ("another client's save reached the plans list in %.1f ms", ms);
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (page), "Gamma from a colleague"));
  g_assert_cmpint (single_selected (page), ==, alpha);

  g_assert_true (qm_plan_store_rename (theirs, alpha, "Alpha, renamed elsewhere", &error));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (page), "Alpha, renamed elsewhere"));
  g_assert_cmpint (single_selected (page), ==, alpha);

  g_assert_true (qm_plan_store_delete (theirs, beta, &error));
  g_assert_no_error (error);
  wait_for_plans (page, 2);
  g_assert_cmpint (single_selected (page), ==, alpha);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
has_action (GtkWidget     *widget,
            gconstpointer  data)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

static gboolean
is_plan_menu (GtkWidget     *widget,
              gconstpointer  data)
{
  return GTK_IS_MENU_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), "Plan Menu") == 0;
}

/* The label of @model's item for @action, in its sections too; NULL
 * when it has none. */
static char *
menu_label (GMenuModel *model,
            const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autofree char *name = NULL;
      char *label = NULL;

      if (section != NULL && (label = menu_label (section, action)) != NULL)
        return label;
      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_strcmp0 (name, action) == 0 &&
          g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        return label;
    }
  return NULL;
}

/* The label of a menu's item (a GtkModelButton, not a GtkActionable)
 * showing @data. */
static gboolean
has_text (GtkWidget     *widget,
          gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), data) == 0;
}

/* Whether the plan view's action @name is enabled, as the widget that
 * activates it (a button, or an item of the plan menu) shows it. */
static gboolean
action_sensitive (GtkWidget  *view,
                  const char *name)
{
  GtkWidget *widget = qm_test_find (view, has_action, name);

  if (widget == NULL)
    {
      GtkMenuButton *menu = GTK_MENU_BUTTON (qm_test_find (view, is_plan_menu, NULL));
      g_autofree char *label = menu_label (gtk_menu_button_get_menu_model (menu), name);

      g_assert_nonnull (label);
      widget = qm_test_find (GTK_WIDGET (gtk_menu_button_get_popover (menu)), has_text, label);
      g_assert_nonnull (widget);
      widget = gtk_widget_get_parent (widget);
    }
  g_assert_nonnull (widget);
  return gtk_widget_get_sensitive (widget);
}

/* The plan view of plan @id in @window, with its quote section shown
 * by a local edit, which every role may make. */
static GtkWidget *
open_plan_with_quote (QmWindow *window,
                      gint64    id)
{
  GtkMenuButton *menu;
  GtkWidget *view;

  g_assert_true (qm_window_open_plan (window, id));
  view = qm_window_get_detail (window);
  g_assert_nonnull (view);
  /* The plan menu makes its items when first shown. */
  menu = GTK_MENU_BUTTON (qm_test_find (view, is_plan_menu, NULL));
  g_assert_nonnull (menu);
  gtk_menu_button_popup (menu);
  gtk_menu_button_popdown (menu);
  g_assert_true (action_sensitive (view, "plan.add-quote"));
  g_assert_true (gtk_widget_activate_action (view, "plan.add-quote", NULL));
  return view;
}

/* The plan view's actions that write to the store, enabled as
 * @writable says, and those that only read or edit locally, enabled
 * for every role. */
static void
assert_plan_actions (GtkWidget  *view,
                     gboolean    writable)
{
  static const char *const writes[] = { "plan.rename", "plan.duplicate", "plan.save-quote" };
  static const char *const reads[] = { "plan.export-pdf", "plan.print", "plan.export-csv",
                                       "plan.export-plan", "plan.add-to-compare", "plan.undo" };

  for (guint i = 0; i < G_N_ELEMENTS (writes); i++)
    {
      g_test_message ("%s", writes[i]);
      g_assert_true (action_sensitive (view, writes[i]) == writable);
    }
  for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
    {
      g_test_message ("%s", reads[i]);
      g_assert_true (action_sensitive (view, reads[i]));
    }
}

static void
test_viewer (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autofree char *dbname = g_strndup (uri + strlen ("postgresql:///"),
                                       strcspn (uri + strlen ("postgresql:///"), "?"));
  g_autofree char *viewer_uri = NULL;
  g_autoptr(QmStore) owner = qm_test_open_store_at (uri);
  g_autoptr(QmStore) viewer = NULL;
  g_autoptr(GPtrArray) done = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;
  g_autofree char *editor_uri = NULL;
  g_autoptr(QmStore) editor = NULL;
  GtkWidget *add;
  GtkWidget *view;
  QmWindow *window;
  gint64 id;

  done = qm_store_setup_roles (owner, &error);
  g_assert_no_error (error);
  qm_test_pg_exec (cluster, dbname, "CREATE ROLE qm_window_viewer LOGIN IN ROLE quartermaster_viewer");
  qm_test_pg_exec (cluster, dbname, "CREATE ROLE qm_window_editor LOGIN IN ROLE quartermaster_editor");
  id = save_plan (owner, "Read me");
  viewer_uri = g_strdup_printf ("postgresql:///%s?host=%s&user=qm_window_viewer", dbname,
                                qm_test_pg_socket_dir (cluster));
  viewer = qm_test_open_store_at (viewer_uri);
  why = qm_store_rights_reason (viewer, QM_STORE_RIGHT_EDIT_PLANS);
  g_assert_nonnull (why);

  window = qm_window_new_with_store (NULL, viewer);
  gtk_window_present (GTK_WINDOW (window));
  qm_window_set_page (window, "plans");
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (window), "Read me"));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (window), why));

  /* The catalog is readable, and what the role may not change is shown
   * insensitive rather than refused on save. */
  qm_window_set_page (window, "catalog");
  add = qm_test_find (GTK_WIDGET (window), has_action, "catalog.add");
  g_assert_nonnull (add);
  g_assert_false (gtk_widget_get_sensitive (add));

  /* So is a plan: what would save it is insensitive, the view says why
   * above its figures and on the Save Quote button, and exporting,
   * printing, comparing and what-if edits stay. */
  view = open_plan_with_quote (window, id);
  assert_plan_actions (view, FALSE);
  g_assert_nonnull (qm_test_wait_for_label (view, why));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (qm_test_find_named (view, "quote-save")), !=, NULL);
  g_assert_true (strstr (gtk_widget_get_tooltip_text (qm_test_find_named (view, "quote-save")),
                         QM_STORE_ROLE_VIEWER) != NULL);
  qm_test_screenshot (GTK_WIDGET (window), "plan-view-viewer-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_destroy (GTK_WINDOW (window));

  /* An editor's plan view keeps them, and says nothing of a role. */
  editor_uri = g_strdup_printf ("postgresql:///%s?host=%s&user=qm_window_editor", dbname,
                                qm_test_pg_socket_dir (cluster));
  editor = qm_test_open_store_at (editor_uri);
  g_assert_null (qm_store_rights_reason (editor, QM_STORE_RIGHT_EDIT_PLANS));
  window = qm_window_new_with_store (NULL, editor);
  gtk_window_present (GTK_WINDOW (window));
  view = open_plan_with_quote (window, id);
  assert_plan_actions (view, TRUE);
  g_assert_null (qm_test_find_label (view, why));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (!qm_test_ui_init (&argc, &argv))
    return 0;
  cluster = qm_test_pg_start ();
  g_test_add_func ("/window-team/live-refresh", test_live_refresh);
  g_test_add_func ("/window-team/viewer", test_viewer);
  status = g_test_run ();
  qm_test_pg_stop (cluster);
  return status;
}
