/* test-window.c: the main window under a real display: it builds from its
 * template, shows each page, restores its size from GSettings, and is
 * finalized when closed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "qm-catalog-page.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-window.h"
#include "qm-preferences-window.h"
#include "qm-test-ui.h"

static void
test_pages (void)
{
  QmWindow *window = qm_window_new (NULL);
  GObject *weak = G_OBJECT (window);
  static const char *pages[] = { "plans", "catalog", "compare" };

  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_window_present (GTK_WINDOW (window));

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *light = g_strdup_printf ("window-%s-light.png", pages[i]);
      g_autofree char *dark = g_strdup_printf ("window-%s-dark.png", pages[i]);

      qm_window_set_page (window, pages[i]);
      g_assert_cmpstr (qm_window_get_page (window), ==, pages[i]);
      qm_test_screenshot (GTK_WIDGET (window), light, ADW_COLOR_SCHEME_FORCE_LIGHT);
      qm_test_screenshot (GTK_WIDGET (window), dark, ADW_COLOR_SCHEME_FORCE_DARK);
    }

  /* An unknown page name keeps the current page. */
  qm_window_set_page (window, "no-such-page");
  g_assert_cmpstr (qm_window_get_page (window), ==, "compare");

  /* Alt+1 goes back to the plans. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "plans"));
  g_assert_cmpstr (qm_window_get_page (window), ==, "plans");

  /* A detail page slides over the main one and is dropped on the way back. */
  {
    GtkWidget *detail = adw_status_page_new ();
    GObject *weak_detail = G_OBJECT (detail);

    g_object_add_weak_pointer (weak_detail, (gpointer *) &weak_detail);
    qm_window_open_detail (window, detail);
    g_assert_true (qm_window_get_detail (window) == detail);
    qm_window_close_detail (window);
    {
      gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
      while (weak_detail != NULL && g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, FALSE);
    }
    g_assert_null (weak_detail);
    g_assert_null (qm_window_get_detail (window));
  }

  gtk_window_destroy (GTK_WINDOW (window));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
}

static void
test_state_persists (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  QmWindow *window;
  int w, h;

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 640);
  g_settings_set_string (settings, "last-page", "catalog");

  window = qm_window_new (NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &w, &h);
  g_assert_cmpint (w, ==, 900);
  g_assert_cmpint (h, ==, 640);
  g_assert_cmpstr (qm_window_get_page (window), ==, "catalog");

  /* Closing writes the state back. */
  gtk_window_present (GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  qm_window_set_page (window, "compare");
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 700);
  {
    g_autofree char *page = g_settings_get_string (settings, "last-page");
    g_assert_cmpstr (page, ==, "compare");
  }
  g_settings_reset (settings, "last-page");
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

static void
test_preferences (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  QmPreferencesWindow *prefs = qm_preferences_window_new (NULL);
  GObject *weak = G_OBJECT (prefs);

  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_window_present (GTK_WINDOW (prefs));
  qm_test_screenshot (GTK_WIDGET (prefs), "preferences-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (prefs), "preferences-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_destroy (GTK_WINDOW (prefs));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  g_assert_cmpfloat (g_settings_get_double (settings, "default-pue"), ==, 1.25);
}

/* The action Ctrl+N runs with the focus in @widget: the first widget
 * shortcut for it from @widget up to the window, in the order the bubble
 * phase tries them. (Application accelerators would run before all of
 * these; the window keeps Ctrl+N out of them for that reason.) */
static const char *
ctrl_n_action (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (w);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
              gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_BUBBLE)
            continue;
          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
              GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
              GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

              if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
                  gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == GDK_KEY_n &&
                  gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == GDK_CONTROL_MASK &&
                  GTK_IS_NAMED_ACTION (action))
                return gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
            }
        }
    }
  return NULL;
}

/* A saved plan opens in the plan view over the main pages; New Plan
 * opens the wizard. */
static void
test_open_plan (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-window-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autofree char *example = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                               "llama-3.1-70b-pretrain-h100.qmplan", NULL);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  QmWindow *window;
  GtkWidget *catalog;
  gint64 id;
  gboolean wizard_shown = FALSE;

  g_assert_no_error (error);
  id = qm_plan_store_import_file (store, example, NULL, NULL, &error);
  g_assert_no_error (error);

  window = qm_window_new_with_store (NULL, store);
  gtk_window_present (GTK_WINDOW (window));
  /* Each page with a database behind it, light and dark. */
  qm_window_set_page (window, "plans");
  qm_test_screenshot (GTK_WIDGET (window), "window-store-plans-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (window), "window-store-plans-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  /* Ctrl+N: a new plan, except in the catalog, where it adds an entry (as
   * the shortcuts window says). */
  g_assert_cmpstr (ctrl_n_action (qm_test_find_type (GTK_WIDGET (window), g_type_from_name ("QmPlansPage"))),
                   ==, "win.new-plan");
  g_assert_cmpstr (ctrl_n_action (qm_test_find_type (GTK_WIDGET (window), GTK_TYPE_SEARCH_ENTRY)),
                   ==, "win.new-plan");
  qm_window_set_page (window, "catalog");
  catalog = qm_test_find_type (GTK_WIDGET (window), g_type_from_name ("QmCatalogPage"));
  g_assert_cmpstr (ctrl_n_action (qm_test_find_type (catalog, GTK_TYPE_COLUMN_VIEW)), ==, "catalog.add");
  qm_test_screenshot (GTK_WIDGET (window), "window-store-catalog-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (window), "window-store-catalog-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (qm_window_open_plan (window, id));
  g_assert_true (QM_IS_PLAN_VIEW (qm_window_get_detail (window)));
  qm_test_screenshot (GTK_WIDGET (window), "window-plan-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* An id that does not exist is a message, not a crash. */
  g_assert_false (qm_window_open_plan (window, id + 1000));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-plan", NULL));
  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, g_type_from_name ("QmWizard")))
      {
        wizard_shown = TRUE;
        gtk_window_destroy (GTK_WINDOW (l->data));
      }
  g_assert_true (wizard_shown);

  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
}

/* Issue #20 item 10: a page is built when it is first shown, not with the
 * window; the catalog's column view was most of a cold start. */
static guint
count_type (GtkWidget *root,
            GType      type)
{
  guint n = G_TYPE_CHECK_INSTANCE_TYPE (root, type) ? 1 : 0;

  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += count_type (c, type);
  return n;
}

static void
test_pages_built_when_shown (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *dir = g_dir_make_tmp ("qm-window-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  GType plans = g_type_from_name ("QmPlansPage");
  GType catalog, compare;
  QmWindow *window;

  g_assert_no_error (error);
  g_settings_set_string (settings, "last-page", "plans");
  window = qm_window_new_with_store (NULL, store);
  gtk_window_present (GTK_WINDOW (window));
  catalog = g_type_from_name ("QmCatalogPage");
  compare = g_type_from_name ("QmComparePage");

  /* Only the page shown. */
  g_assert_nonnull (qm_test_find_type (GTK_WIDGET (window), plans));
  g_assert_true (catalog == 0 || qm_test_find_type (GTK_WIDGET (window), catalog) == NULL);
  g_assert_true (compare == 0 || qm_test_find_type (GTK_WIDGET (window), compare) == NULL);

  /* Each of the others on its first showing, and once. */
  qm_window_set_page (window, "catalog");
  catalog = g_type_from_name ("QmCatalogPage");
  g_assert_true (catalog != 0);
  {
    GtkWidget *page = qm_test_find_type (GTK_WIDGET (window), catalog);

    g_assert_nonnull (page);
    g_assert_true (gtk_widget_get_mapped (page));
    qm_window_set_page (window, "plans");
    qm_window_set_page (window, "catalog");
    g_assert_true (qm_test_find_type (GTK_WIDGET (window), catalog) == page);
    /* Inside it, the table of the kind shown (GPUs), not one per kind. */
    g_assert_cmpuint (count_type (page, GTK_TYPE_COLUMN_VIEW), ==, 1);
    qm_catalog_page_set_kind (QM_CATALOG_PAGE (page), QM_CATALOG_KIND_SERVER);
    g_assert_cmpuint (count_type (page, GTK_TYPE_COLUMN_VIEW), ==, 2);
    qm_test_screenshot (GTK_WIDGET (window), "window-lazy-catalog-servers-light.png",
                        ADW_COLOR_SCHEME_FORCE_LIGHT);
    g_assert_nonnull (qm_test_find_label (page, "DGX H100"));
    qm_catalog_page_set_kind (QM_CATALOG_PAGE (page), QM_CATALOG_KIND_GPU);
    g_assert_cmpuint (count_type (page, GTK_TYPE_COLUMN_VIEW), ==, 2);
  }
  g_assert_true (compare == 0 || qm_test_find_type (GTK_WIDGET (window), compare) == NULL);
  /* Reached through an action rather than the switcher: Compare. */
  qm_window_compare (window, NULL, 0);
  compare = g_type_from_name ("QmComparePage");
  g_assert_cmpstr (qm_window_get_page (window), ==, "compare");
  g_assert_nonnull (qm_test_find_type (GTK_WIDGET (window), compare));
  qm_test_screenshot (GTK_WIDGET (window), "window-lazy-compare-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* A window that opens on the catalog builds the catalog, not the plans. */
  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_set_string (settings, "last-page", "catalog");
  window = qm_window_new_with_store (NULL, store);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_nonnull (qm_test_find_type (GTK_WIDGET (window), catalog));
  g_assert_null (qm_test_find_type (GTK_WIDGET (window), plans));
  g_assert_null (qm_test_find_type (GTK_WIDGET (window), compare));
  qm_test_screenshot (GTK_WIDGET (window), "window-lazy-catalog-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  qm_window_set_page (window, "plans");
  g_assert_nonnull (qm_test_find_type (GTK_WIDGET (window), plans));

  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "last-page");
  qm_store_free (store);
}

/* The main menu's popover and the shortcuts window are built when first
 * opened, not with the window (issue #20 item 10); the menu still opens
 * with its items. (Showing the shortcuts window is left out: GTK 4.8
 * warns about one of its own labels.) */
static void
test_menu_and_shortcuts_on_demand (void)
{
  QmWindow *window = qm_window_new_with_store (NULL, NULL);
  GtkMenuButton *menu_button;

  gtk_window_present (GTK_WINDOW (window));
  /* The header bar's comes first. */
  menu_button = GTK_MENU_BUTTON (qm_test_find_type (GTK_WIDGET (window), GTK_TYPE_MENU_BUTTON));
  g_assert_nonnull (menu_button);
  g_assert_true (gtk_menu_button_get_primary (menu_button));
  g_assert_null (gtk_menu_button_get_popover (menu_button));
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));

  gtk_menu_button_popup (menu_button);
  g_assert_nonnull (gtk_menu_button_get_popover (menu_button));
  g_assert_cmpint (g_menu_model_get_n_items (gtk_menu_button_get_menu_model (menu_button)), ==, 2);
  gtk_menu_button_popdown (menu_button);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/window/pages", test_pages);
  g_test_add_func ("/window/state-persists", test_state_persists);
  g_test_add_func ("/window/preferences", test_preferences);
  g_test_add_func ("/window/open-plan", test_open_plan);
  g_test_add_func ("/window/pages-built-when-shown", test_pages_built_when_shown);
  g_test_add_func ("/window/menu-and-shortcuts-on-demand", test_menu_and_shortcuts_on_demand);
  return g_test_run ();
}
