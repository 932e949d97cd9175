/* test-help.c: F1 opens the user guide through its help: URI, as GNOME
 * apps do, and without a help viewer the window says so in a toast.
 *
 * The launch is intercepted where the desktop makes it: a stand-in help
 * viewer (a .desktop file for x-scheme-handler/help whose script writes
 * down the URI it was given) in a private XDG data folder, made the
 * default in a private mimeapps.list. With the argument "none" there is
 * no handler at all: the system's applications are left out of
 * XDG_DATA_DIRS, so an installed Yelp does not answer either.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "qm-application.h"
#include "qm-gtk.h"
#include "qm-test-ui.h"
#include "qm-window.h"

static char *tmp_dir;
static gboolean with_viewer;
static gboolean with_browser;

static char *
opened_path (void)
{
  return g_build_filename (tmp_dir, "opened", NULL);
}

static void
write_file (const char *path,
            const char *contents,
            int         mode)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

/* Before GTK and GIO read any of it: GIO caches the desktop files and
 * MIME defaults it has found. */
static void
set_up_desktop (void)
{
  g_autofree char *data_home = g_build_filename (tmp_dir, "data", NULL);
  g_autofree char *config_home = g_build_filename (tmp_dir, "config", NULL);
  g_autofree char *data_dirs = g_build_filename (tmp_dir, "share", NULL);
  g_autofree char *icons = g_build_filename (data_dirs, "icons", NULL);
  g_autofree char *mime = g_build_filename (data_dirs, "mime", NULL);

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
  /* The icon theme and MIME database, but no system applications. */
  g_assert_cmpint (g_mkdir_with_parents (data_dirs, 0700), ==, 0);
  g_assert_cmpint (symlink ("/usr/share/icons", icons), ==, 0);
  g_assert_cmpint (symlink ("/usr/share/mime", mime), ==, 0);
  g_setenv ("XDG_DATA_DIRS", data_dirs, TRUE);
  g_setenv ("QM_DB", ":memory:", TRUE);

  if (with_viewer)
    {
      g_autofree char *script = g_build_filename (tmp_dir, "viewer.sh", NULL);
      g_autofree char *opened = opened_path ();
      g_autofree char *script_text = NULL;
      g_autofree char *desktop_path = g_build_filename (data_home, "applications",
                                                        "qm-test-help-viewer.desktop", NULL);
      g_autofree char *desktop_text = NULL;
      g_autofree char *mimeapps = g_build_filename (config_home, "mimeapps.list", NULL);

      /* Written whole, then renamed: the test never reads half a line. */
      script_text = g_strdup_printf ("#!/bin/sh\nprintf '%%s' \"$1\" > '%s.part' && mv '%s.part' '%s'\n",
                                     opened, opened, opened);
      write_file (script, script_text, 0700);
      desktop_text = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Test Help Viewer\n"
                                      "Exec=%s %%u\nMimeType=x-scheme-handler/help;\nNoDisplay=true\n",
                                      script);
      write_file (desktop_path, desktop_text, 0600);
      write_file (mimeapps, "[Default Applications]\nx-scheme-handler/help=qm-test-help-viewer.desktop\n", 0600);
    }
  else if (with_browser)
    {
      /* No help viewer, but a web browser for HTML files. */
      g_autofree char *script = g_build_filename (tmp_dir, "browser.sh", NULL);
      g_autofree char *opened = opened_path ();
      g_autofree char *script_text = NULL;
      g_autofree char *desktop_path = g_build_filename (data_home, "applications",
                                                        "qm-test-browser.desktop", NULL);
      g_autofree char *desktop_text = NULL;
      g_autofree char *mimeapps = g_build_filename (config_home, "mimeapps.list", NULL);

      script_text = g_strdup_printf ("#!/bin/sh\nprintf '%%s' \"$1\" > '%s.part' && mv '%s.part' '%s'\n",
                                     opened, opened, opened);
      write_file (script, script_text, 0700);
      desktop_text = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Test Browser\n"
                                      "Exec=%s %%u\nMimeType=text/html;\nNoDisplay=true\n",
                                      script);
      write_file (desktop_path, desktop_text, 0600);
      write_file (mimeapps, "[Default Applications]\ntext/html=qm-test-browser.desktop\n", 0600);
    }
}

/* The action @keyval with @mods runs in @window: the first named action of
 * a shortcut controller on the window with that trigger. */
static GtkShortcutAction *
shortcut_action (GtkWidget      *window,
                 guint           keyval,
                 GdkModifierType mods)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (window);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == mods &&
              GTK_IS_NAMED_ACTION (action))
            return action;
        }
    }
  return NULL;
}

static QmWindow *
new_window (QmApplication **app)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GError) error = NULL;
  QmWindow *window;

  g_settings_set_boolean (settings, "first-run-done", TRUE);
  *app = qm_application_new ();
  g_application_register (G_APPLICATION (*app), NULL, &error);
  g_assert_no_error (error);
  window = qm_window_new (ADW_APPLICATION (*app));
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* F1 is the guide, Shift+F1 the formulas window; the Help menu item and
 * F1 run the same action. */
static void
test_keys (void)
{
  g_autoptr(QmApplication) app = NULL;
  QmWindow *window = new_window (&app);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.help");
  GtkShortcutAction *f1 = shortcut_action (GTK_WIDGET (window), GDK_KEY_F1, 0);
  GtkShortcutAction *shift_f1 = shortcut_action (GTK_WIDGET (window), GDK_KEY_F1, GDK_SHIFT_MASK);

  g_assert_cmpuint (g_strv_length (accels), ==, 1);
  g_assert_cmpstr (accels[0], ==, "F1");
  g_assert_nonnull (f1);
  g_assert_cmpstr (gtk_named_action_get_action_name (GTK_NAMED_ACTION (f1)), ==, "app.help");
  g_assert_nonnull (shift_f1);
  g_assert_cmpstr (gtk_named_action_get_action_name (GTK_NAMED_ACTION (shift_f1)), ==, "win.show-formulas");
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "help"));

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_primary_menu_button (GtkWidget     *widget,
                        gconstpointer  data)
{
  return GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (widget));
}

/* The main menu has Help (app.help) beside Assumptions and Formulas; the
 * shortcuts window lists both keys. Screenshots of both. */
static void
test_menu_and_shortcuts (void)
{
  g_autoptr(QmApplication) app = NULL;
  QmWindow *window = new_window (&app);
  GtkWidget *button = qm_test_find (GTK_WIDGET (window), is_primary_menu_button, NULL);
  g_autoptr(GtkBuilder) builder = NULL;
  GtkWidget *overlay;
  GMenuModel *menu;
  g_autoptr(GSList) objects = NULL;
  gboolean help = FALSE, formulas = FALSE;
  gboolean help_key = FALSE, formulas_key = FALSE;

  g_assert_nonnull (button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button));
  g_assert_nonnull (menu);
  for (int s = 0; s < g_menu_model_get_n_items (menu); s++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, s, G_MENU_LINK_SECTION);

      for (int i = 0; section != NULL && i < g_menu_model_get_n_items (section); i++)
        {
          g_autofree char *action = NULL;
          g_autofree char *label = NULL;

          g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_ACTION, "s", &action);
          g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
          help |= g_strcmp0 (action, "app.help") == 0 && g_strcmp0 (label, "_Help") == 0;
          formulas |= g_strcmp0 (action, "win.show-formulas") == 0;
        }
    }
  g_assert_true (help);
  g_assert_true (formulas);
  qm_test_screenshot (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))),
                      "help-menu-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))),
                      "help-menu-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));

  /* The shortcuts window lists Help on F1 and the formulas on Shift+F1.
   * (It is not shown here: GTK 4.8's GtkShortcutsWindow warns that one of
   * its own labels measures -3 px, which fatal-warnings would abort on.) */
  builder = gtk_builder_new_from_resource ("/io/github/quartermaster/Quartermaster/help-overlay.ui");
  objects = gtk_builder_get_objects (builder);
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accel = NULL;
        g_autofree char *title = NULL;

        g_object_get (l->data, "accelerator", &accel, "title", &title, NULL);
        help_key |= g_strcmp0 (accel, "F1") == 0 && g_strcmp0 (title, "Help") == 0;
        formulas_key |= g_strcmp0 (accel, "<Shift>F1") == 0 && g_strcmp0 (title, "Assumptions and formulas") == 0;
      }
  g_assert_true (help_key);
  g_assert_true (formulas_key);
  /* QM_SHORTCUTS_SCREENSHOT=1 (by hand, warnings not fatal): a screenshot. */
  if (g_getenv ("QM_SHORTCUTS_SCREENSHOT") != NULL)
    {
      g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
      overlay = GTK_WIDGET (gtk_builder_get_object (builder, "help_overlay"));
      gtk_window_set_transient_for (GTK_WINDOW (overlay), GTK_WINDOW (window));
      gtk_window_set_default_size (GTK_WINDOW (overlay), 1100, 800);
      gtk_window_present (GTK_WINDOW (overlay));
      qm_test_screenshot (overlay, "help-shortcuts-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
      qm_test_screenshot (overlay, "help-shortcuts-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
    }
  gtk_window_destroy (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay")));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The About window credits the translators in a translated build, and
 * never shows the bare "translator-credits" msgid in an English one. */
static void
test_about_credits (void)
{
  g_autoptr(QmApplication) app = NULL;
  QmWindow *window = new_window (&app);
  AdwAboutWindow *about = NULL;
  const char *credits;

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (ADW_IS_ABOUT_WINDOW (l->data))
      about = l->data;
  g_assert_nonnull (about);
  credits = adw_about_window_get_translator_credits (about);
  g_assert_true (credits == NULL || g_strcmp0 (credits, "translator-credits") != 0);
  if (g_strcmp0 (g_getenv ("LANGUAGE"), "de") == 0)
    g_assert_nonnull (credits);

  gtk_window_destroy (GTK_WINDOW (about));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Pressing F1 (its shortcut's action, as the key press runs it) opens
 * help:APPID in the help viewer; the id follows the build profile. */
static void
test_f1_opens_guide (void)
{
  g_autoptr(QmApplication) app = NULL;
  QmWindow *window = new_window (&app);
  g_autofree char *opened = opened_path ();
  g_autofree char *uri = NULL;
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  g_assert_true (gtk_shortcut_action_activate (shortcut_action (GTK_WIDGET (window), GDK_KEY_F1, 0),
                                               GTK_SHORTCUT_ACTION_EXCLUSIVE, GTK_WIDGET (window), NULL));
  while (!g_file_test (opened, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (g_file_get_contents (opened, &uri, NULL, NULL));
  g_assert_cmpstr (uri, ==, "help:" APPLICATION_ID);
  /* The viewer took it: no error toast. */
  g_assert_null (qm_test_find_label (GTK_WIDGET (window),
                                     "The user guide could not be opened: no help viewer (Yelp) is installed"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* With no help viewer, F1 says so in words, in a toast. */
static void
test_no_viewer (void)
{
  g_autoptr(QmApplication) app = NULL;
  QmWindow *window = new_window (&app);
  g_autofree char *opened = opened_path ();

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  g_assert_true (gtk_shortcut_action_activate (shortcut_action (GTK_WIDGET (window), GDK_KEY_F1, 0),
                                               GTK_SHORTCUT_ACTION_EXCLUSIVE, GTK_WIDGET (window), NULL));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (window),
                                            "The user guide could not be opened: no help viewer (Yelp) is installed"));
  g_assert_false (g_file_test (opened, G_FILE_TEST_EXISTS));
  qm_test_screenshot (GTK_WIDGET (window), "help-no-viewer-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (window), "help-no-viewer-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* No help viewer, but a browser: F1 opens the same guide as HTML pages,
 * in the user's language (issue #35 item 10), and says where it went. */
static void
test_browser_fallback (void)
{
  g_autoptr(QmApplication) app = NULL;
  QmWindow *window = new_window (&app);
  g_autofree char *opened = opened_path ();
  g_autofree char *uri = NULL;
  g_autofree char *path = NULL;
  g_autofree char *want = g_build_filename (g_getenv ("QM_HELP_HTML_DIR"), "C", "index.html", NULL);
  g_autofree char *html = NULL;
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  g_assert_true (gtk_shortcut_action_activate (shortcut_action (GTK_WIDGET (window), GDK_KEY_F1, 0),
                                               GTK_SHORTCUT_ACTION_EXCLUSIVE, GTK_WIDGET (window), NULL));
  while (!g_file_test (opened, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (g_file_get_contents (opened, &uri, NULL, NULL));
  g_test_message ("opened: %s", uri);
  path = g_str_has_prefix (uri, "file:") ? g_filename_from_uri (uri, NULL, NULL) : g_strdup (uri);
  g_assert_cmpstr (path, ==, want);
  /* A real page of the guide, with its title. */
  g_assert_true (g_file_get_contents (path, &html, NULL, NULL));
  g_assert_nonnull (strstr (html, "Quartermaster"));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (window),
                                            "No help viewer is installed: the user guide opened in your web browser"));
  qm_test_screenshot (GTK_WIDGET (window), "help-browser-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* An export's toast opens the file it wrote in the user's application
   * for it (issue #35 item 10: exports offered no Open); the name is shown
   * as text, not markup. */
  {
    g_autofree char *written = g_build_filename (tmp_dir, "Plan A & B.html", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (written);
    g_autofree char *opened_uri = NULL;
    g_autofree char *opened_path_2 = NULL;
    AdwToast *toast;

    g_assert_true (g_file_set_contents (written, "<html><body>export</body></html>", -1, NULL));
    g_assert_cmpint (g_remove (opened), ==, 0);
    toast = g_object_ref_sink (qm_gtk_export_toast_new ("Exported “Plan A & B.html”", file));
    g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "_Open");
    g_assert_cmpstr (adw_toast_get_title (toast), ==, "Exported “Plan A &amp; B.html”");
    g_signal_emit_by_name (toast, "button-clicked");
    end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
    while (!g_file_test (opened, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, FALSE);
    g_assert_true (g_file_get_contents (opened, &opened_uri, NULL, NULL));
    opened_path_2 = g_str_has_prefix (opened_uri, "file:") ? g_filename_from_uri (opened_uri, NULL, NULL)
                                                            : g_strdup (opened_uri);
    g_assert_cmpstr (opened_path_2, ==, written);
    g_object_unref (toast);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  int status;

  for (int i = 1; i < argc; i++)
    if (g_strcmp0 (argv[i], "viewer") == 0)
      with_viewer = TRUE;
    else if (g_strcmp0 (argv[i], "browser") == 0)
      with_browser = TRUE;
    else if (g_str_has_prefix (argv[i], "/"))
      g_setenv ("QM_HELP_HTML_DIR", argv[i], TRUE);
  tmp_dir = g_dir_make_tmp ("qm-help-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  set_up_desktop ();

  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/help/keys", test_keys);
  g_test_add_func ("/help/about-credits", test_about_credits);
  if (!with_viewer)
    g_test_add_func ("/help/menu-and-shortcuts", test_menu_and_shortcuts);
  if (with_viewer)
    g_test_add_func ("/help/f1-opens-guide", test_f1_opens_guide);
  else if (with_browser)
    g_test_add_func ("/help/browser-fallback", test_browser_fallback);
  else
    g_test_add_func ("/help/no-viewer", test_no_viewer);

  status = g_test_run ();
  g_free (tmp_dir);
  return status;
}
