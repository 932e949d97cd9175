/* qm-application.c: a single-instance AdwApplication with the app.* actions
 * (quit, about, preferences, help), and the store its windows share: the
 * file on this computer or the team server the settings name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-application.h"
#include "qm-gtk.h"
#include "qm-preferences-window.h"
#include "qm-team-connection.h"
#include "qm-welcome-window.h"
#include "qm-window.h"

struct _QmApplication
{
  AdwApplication  parent_instance;

  QmStore        *store;
  /* Why the user's database could not be used, to tell them once the
   * window is up. */
  GError         *store_error;
  gboolean        store_reported;
  /* "Team server: host/db", or NULL on this computer's file. */
  char           *store_state;
  /* Why the team server could not be used at start (the local file was
   * opened instead): the windows' banner says it. */
  GError         *server_error;
  /* The team server the settings name is being opened in a worker
   * (issue #34 item 2): the windows show this computer's file meanwhile
   * and their banner says it is connecting. */
  gboolean        connecting;
  /* Counts the moves between stores: a connect that ends after another
   * move (Preferences, On This Computer) is dropped. */
  guint           store_serial;
  /* QM_EXIT_AFTER_FIRST_FRAME: the first frame was painted. */
  gboolean        first_frame_done;
  /* This computer's file, left when the first connect moved the app to
   * the server: a dialog opened on it meanwhile (the wizard, a quote)
   * borrows it without a reference (issue #34 item 3), so it is closed
   * only at shutdown. */
  QmStore        *retired_store;
};

G_DEFINE_FINAL_TYPE (QmApplication, qm_application, ADW_TYPE_APPLICATION)

static int
qm_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  /* Answered here, before GTK starts, so it needs no display. */
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("quartermaster %s\n", PACKAGE_VERSION);
      return 0;
    }

  return -1;
}

static void
salvage_response (AdwMessageDialog *dialog,
                  const char       *response,
                  QmApplication    *self)
{
  g_autoptr(GError) error = NULL;
  GtkWindow *window = gtk_window_get_transient_for (GTK_WINDOW (dialog));
  g_autofree char *message = NULL;
  int n;

  if (g_strcmp0 (response, "import") != 0)
    return;

  n = qm_store_salvage (self->store, qm_store_recovered_from (self->store), &error);
  if (n < 0)
    message = g_strdup_printf (_("Nothing could be read from the damaged file: %s"), error->message);
  else
    message = g_strdup_printf (ngettext ("Recovered %d plan from the damaged file",
                                         "Recovered %d plans from the damaged file", n), n);
  if (QM_IS_WINDOW (window))
    qm_window_show_toast (QM_WINDOW (window), message);
}

static void
report_store_problems (QmApplication *self,
                       GtkWindow     *window)
{
  AdwMessageDialog *dialog;
  g_autofree char *recovery = NULL;

  if (self->store_reported)
    return;
  self->store_reported = TRUE;

  if (self->store_error != NULL)
    {
      g_autofree char *body = g_strdup_printf (_("%s\n\nQuartermaster is using a temporary database "
                                                 "until this is fixed: plans you create now are not saved "
                                                 "when you quit. Export them as plan files to keep them."),
                                               self->store_error->message);

      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (window, _("Your Plans Could Not Be Opened"), body));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }

  recovery = qm_store_recovery_message (self->store);
  if (recovery != NULL)
    {
      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (window, _("The Database Was Damaged"), recovery));
      adw_message_dialog_add_responses (dialog,
                                        "close", _("_Not Now"),
                                        "import", _("_Import What Can Be Read"),
                                        NULL);
      adw_message_dialog_set_response_appearance (dialog, "import", ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, "import");
      g_signal_connect (dialog, "response", G_CALLBACK (salvage_response), self);
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

/* QM_EXIT_AFTER_FIRST_FRAME=1: print when the first window has painted,
 * then quit. For the start-up benchmark (tests/bench-startup.c), which
 * times the launch from outside, and for tests that start the real
 * binary. */
static gboolean
exiting_after_first_frame (void)
{
  return g_strcmp0 (g_getenv ("QM_EXIT_AFTER_FIRST_FRAME"), "1") == 0;
}

/* The quit waits for the team server's first connect as well, so that
 * the output says what start-up led to (tests/test-team-ui.c); the
 * "first-frame" line is printed when the frame is. */
static void
first_frame_painted (GdkFrameClock *clock,
                     GtkWindow     *window)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (window));

  g_signal_handlers_disconnect_by_func (clock, first_frame_painted, window);
  g_print ("first-frame %s\n", G_OBJECT_TYPE_NAME (window));
  if (QM_IS_APPLICATION (app))
    {
      QM_APPLICATION (app)->first_frame_done = TRUE;
      if (QM_APPLICATION (app)->connecting)
        return;
    }
  if (app != NULL)
    g_application_quit (app);
}

static void
exit_after_first_frame (GtkWindow *window)
{
  GdkFrameClock *clock;

  if (!exiting_after_first_frame ())
    return;
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  if (clock != NULL)
    g_signal_connect_object (clock, "after-paint", G_CALLBACK (first_frame_painted), window, 0);
}

static gboolean
schema_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  return schema != NULL;
}

static void
open_local_store (QmApplication *self)
{
  g_autofree char *path = qm_store_default_path ();
  g_autoptr(GError) error = NULL;

  g_clear_error (&self->store_error);
  self->store = qm_store_open (path, &error);
  if (self->store != NULL)
    return;

  /* Never touch a file we cannot safely use (newer, locked, unreadable):
   * keep working in memory and say so. */
  g_warning ("Could not open %s: %s", path, error->message);
  self->store_error = g_steal_pointer (&error);
  self->store = qm_store_open_with_flags (":memory:", QM_STORE_OPEN_NO_BACKUP, NULL);
}

static void
set_store_state (QmApplication *self)
{
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *label = NULL;

  g_clear_pointer (&self->store_state, g_free);
  /* Only a server has no SQLite handle, and only settings name one. */
  if (self->store == NULL || qm_store_db (self->store) != NULL)
    return;
  settings = g_settings_new (APPLICATION_ID);
  uri = g_settings_get_string (settings, "server-uri");
  label = qm_team_server_label (uri);
  /* Translators: a server and database, "db.example.com/quartermaster". */
  self->store_state = g_strdup_printf (_("Team server: %s"), label);
}

/* The file on this computer, at once. When the settings name a team
 * server, the first window starts opening it in a worker
 * (start_team_connect()) and shows this file meanwhile: a server that
 * takes the connection and never answers would otherwise hold the first
 * window for libpq's whole connect timeout (10.3 s measured, issue #34
 * item 2). */
static void
open_store (QmApplication *self)
{
  g_autoptr(GSettings) settings = NULL;

  /* Without the schema the app only says so (report_missing_schema). */
  if (schema_installed ())
    {
      settings = g_settings_new (APPLICATION_ID);
      g_clear_error (&self->server_error);
      self->connecting = qm_team_is_configured (settings);
    }
  open_local_store (self);
  set_store_state (self);
}


static void
missing_schema_response (AdwMessageDialog *dialog,
                         const char       *response,
                         GApplication     *app)
{
  g_application_quit (app);
}

AdwMessageDialog *
qm_missing_schema_dialog_new (void)
{
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  body = g_strdup_printf (_("Its settings schema, %s, is not installed, so it cannot start. "
                            "Reinstall Quartermaster, or compile the schemas where it was "
                            "installed (glib-compile-schemas %s).\n\n"
                            "To run it from a build folder, use build-aux/dev run or meson devenv."),
                          APPLICATION_ID, SCHEMADIR);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (NULL, _("Quartermaster Is Not Installed Completely"),
                                                       body));
  adw_message_dialog_add_response (dialog, "quit", _("_Quit"));
  return dialog;
}

/* Without its settings schema every window would abort in g_settings_new:
 * say what is wrong, in a window that needs no settings, and quit. */
static void
report_missing_schema (QmApplication *self)
{
  AdwMessageDialog *dialog = qm_missing_schema_dialog_new ();

  g_signal_connect (dialog, "response", G_CALLBACK (missing_schema_response), self);
  gtk_window_set_application (GTK_WINDOW (dialog), GTK_APPLICATION (self));
  gtk_window_present (GTK_WINDOW (dialog));
  exit_after_first_frame (GTK_WINDOW (dialog));
}

static void
show_store_state (QmApplication *self,
                  GtkWindow     *window)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *uri = g_settings_get_string (settings, "server-uri");
  g_autofree char *place = qm_team_server_label (uri);

  if (QM_IS_WINDOW (window))
    qm_window_show_team_opening (QM_WINDOW (window), self->connecting,
                                 self->server_error != NULL ? self->server_error->message : NULL);
  if (self->store_state != NULL)
    qm_team_show_state (window, self->store_state, place, FALSE);
  else if (self->connecting)
    qm_team_show_state (window, _("Connecting to the team server…"), place, TRUE);
  else if (self->server_error != NULL)
    qm_team_show_state (window, _("This computer: the team server could not be reached"),
                        _("This Computer"), TRUE);
  else
    qm_team_show_state (window, NULL, NULL, FALSE);
}

static GtkWindow *swap_store (QmApplication *self,
                              QmStore       *store,
                              gboolean       retire_old);

static void
show_store_state_all (QmApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (QM_IS_WINDOW (l->data))
      show_store_state (self, l->data);
}

typedef struct
{
  QmApplication *app;
  guint          serial;
} ConnectStart;

/* Back on the main thread: the server's store replaces this computer's
 * file in new windows, or the banner says why it could not (the plans
 * on this computer stay open). */
static void
team_connect_ready (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  ConnectStart *start = user_data;
  g_autoptr(QmApplication) self = start->app;
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_team_open_configured_finish (result, &error);
  gboolean current = start->serial == self->store_serial;

  g_free (start);
  /* The window went (the app is quitting), or the app moved to another
   * store meanwhile: this connect is no longer wanted. */
  if (!current || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_pointer (&store, qm_store_free);
      if (current)
        self->connecting = FALSE;
      return;
    }
  self->connecting = FALSE;
  if (store != NULL)
    {
      GtkWindow *window;

      g_debug ("Plans are kept on the team database %s", qm_store_path (store));
      window = swap_store (self, store, TRUE);
      /* The first window went before its first frame: this one prints it. */
      if (exiting_after_first_frame () && !self->first_frame_done)
        exit_after_first_frame (window);
    }
  else
    {
      /* NULL without an error: the settings changed to "local" meanwhile. */
      if (error != NULL)
        {
          g_message ("Team database: %s", error->message);
          g_clear_error (&self->server_error);
          self->server_error = g_steal_pointer (&error);
        }
      show_store_state_all (self);
    }
  if (exiting_after_first_frame () && self->first_frame_done)
    g_application_quit (G_APPLICATION (self));
}

/* Opens the team server the settings name in a worker (GTask, cancelled
 * with @window), the windows saying meanwhile that it is connecting. */
static void
start_team_connect (QmApplication *self,
                    QmWindow      *window)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  ConnectStart *start = g_new0 (ConnectStart, 1);

  start->app = g_object_ref (self);
  start->serial = ++self->store_serial;
  self->connecting = TRUE;
  g_clear_error (&self->server_error);
  show_store_state_all (self);
  qm_team_open_configured_async (settings, qm_window_get_cancellable (window), team_connect_ready, start);
}

/* Retry on the banner after the first connect failed. */
static void
connect_team_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  QmApplication *self = QM_APPLICATION (user_data);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (self->connecting || !QM_IS_WINDOW (window) || qm_store_db (self->store) == NULL)
    return;
  start_team_connect (self, QM_WINDOW (window));
}

static void
qm_application_activate (GApplication *app)
{
  QmApplication *self = QM_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  gboolean first_window = window == NULL;

  if (first_window && !schema_installed ())
    {
      report_missing_schema (self);
      return;
    }

  if (first_window)
    {
      window = GTK_WINDOW (qm_window_new (ADW_APPLICATION (app)));
      show_store_state (self, window);
    }

  gtk_window_present (window);
  if (first_window && self->connecting)
    start_team_connect (self, QM_WINDOW (window));
  if (first_window)
    exit_after_first_frame (window);
  report_store_problems (self, window);
  /* The first-run welcome (once; the GSettings key first-run-done). */
  if (first_window && self->store_error == NULL)
    qm_welcome_maybe_show (QM_WINDOW (window));
}

static void
qm_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  GtkWindow *window;

  qm_application_activate (app);
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  for (int i = 0; i < n_files && QM_IS_WINDOW (window); i++)
    qm_window_open_file (QM_WINDOW (window), files[i]);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GApplication *app = G_APPLICATION (user_data);
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  /* Close windows properly so they save their state. */
  for (GList *l = windows; l != NULL;)
    {
      GtkWindow *window = l->data;

      l = l->next;
      gtk_window_close (window);
    }
  g_application_quit (app);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  static const char *developers[] = { "The Quartermaster developers", NULL };
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  /* Translators: your names, one per line ("Name <email>" or "Name
   * https://…"), as GNOME apps list them; they appear under Credits. */
  const char *translators = _("translator-credits");
  AdwAboutWindow *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", window,
                        "application-name", _("Quartermaster"),
                        "application-icon", APP_ICON_NAME,
                        "developer-name", _("The Quartermaster developers"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Size, cost and quote GPU clusters for training large language models. Every figure comes from a formula with a cited source."),
                        "website", "https://github.com/quartermaster/quartermaster",
                        "issue-url", "https://github.com/quartermaster/quartermaster/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "developers", developers,
                        "copyright", "© 2026 The Quartermaster developers",
                        NULL);
  /* An untranslated (English) build has no translators to credit: the
   * msgid comes back as is. */
  if (g_strcmp0 (translators, "translator-credits") != 0)
    adw_about_window_set_translator_credits (about, translators);
  gtk_window_present (GTK_WINDOW (about));
}

static void
help_page_shown (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkWindow) window = user_data;

  if (gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    {
      if (QM_IS_WINDOW (window))
        qm_window_show_toast (QM_WINDOW (window),
                              _("No help viewer is installed: the user guide opened in your web browser"));
      return;
    }
  g_debug ("Could not open the HTML user guide: %s", error->message);
  if (QM_IS_WINDOW (window))
    qm_window_show_toast (QM_WINDOW (window),
                          _("The user guide could not be opened: no help viewer (Yelp) is installed"));
}

/* The guide as HTML pages (help/meson.build, build-aux/help-html.sh) in
 * the user's language, or English: QM_HELP_HTML_DIR (the build tree, for
 * tests), else PKGDATADIR/help-html. NULL when none is installed. */
static char *
help_html_uri (void)
{
  const char *dir = g_getenv ("QM_HELP_HTML_DIR");
  g_autofree char *installed = g_build_filename (PKGDATADIR, "help-html", NULL);
  const char * const *langs = g_get_language_names ();

  if (dir == NULL || *dir == '\0')
    dir = installed;
  for (guint i = 0; langs[i] != NULL; i++)
    {
      g_autofree char *index = g_build_filename (dir, langs[i], "index.html", NULL);

      if (g_file_test (index, G_FILE_TEST_IS_REGULAR))
        return g_filename_to_uri (index, NULL, NULL);
    }
  return NULL;
}

static void
help_shown (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkWindow) window = user_data;
  g_autofree char *html = NULL;

  if (gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    return;

  /* Almost always because no help viewer (Yelp) is installed: the same
   * guide as HTML in the web browser, and if that fails too, say so in
   * words rather than fail silently. */
  g_debug ("Could not open help:%s: %s", APPLICATION_ID, error->message);
  html = help_html_uri ();
  if (html != NULL && window != NULL)
    {
      gtk_show_uri_full (window, html, GDK_CURRENT_TIME, NULL, help_page_shown, g_object_ref (window));
      return;
    }
  if (QM_IS_WINDOW (window))
    qm_window_show_toast (QM_WINDOW (window),
                          _("The user guide could not be opened: no help viewer (Yelp) is installed"));
}

/* F1: the Mallard user guide (help/C/index.page), installed under the app
 * id by gnome.yelp() and opened by whichever app handles help: URIs, as
 * GNOME apps do. The id follows the build profile, so a Devel build
 * opens its own copy of the guide. */
static void
help_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_show_uri_full (window, "help:" APPLICATION_ID, GDK_CURRENT_TIME, NULL,
                     help_shown, window != NULL ? g_object_ref (window) : NULL);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  /* Ctrl+comma over the missing-schema message. */
  if (!QM_IS_WINDOW (window))
    return;
  gtk_window_present (GTK_WINDOW (qm_preferences_window_new (window)));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "about", .activate = about_action },
  { .name = "preferences", .activate = preferences_action },
  { .name = "help", .activate = help_action },
  { .name = "connect-team", .activate = connect_team_action },
};

static void
qm_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *prefs_accels[] = { "<Control>comma", NULL };
  static const char *help_accels[] = { "F1", NULL };
  static const char *overlay_accels[] = { "<Control>question", NULL };
  static const char *close_accels[] = { "<Control>w", NULL };
  static const char *import_accels[] = { "<Control>o", NULL };
  static const char *search_accels[] = { "<Control>f", NULL };

  G_APPLICATION_CLASS (qm_application_parent_class)->startup (app);

  open_store (QM_APPLICATION (app));

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay", overlay_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.help", help_accels);
  /* Ctrl+N (win.new-plan) is a binding of the window, not an accelerator
   * here: accelerators run before the focused page sees the key, and in
   * the catalog Ctrl+N adds an entry (qm-window.c). */
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "window.close", close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.import", import_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.search", search_accels);
}

static void
qm_application_shutdown (GApplication *app)
{
  QmApplication *self = QM_APPLICATION (app);

  G_APPLICATION_CLASS (qm_application_parent_class)->shutdown (app);

  /* Closing the store empties this session's trash. */
  g_clear_pointer (&self->store, qm_store_free);
  g_clear_pointer (&self->retired_store, qm_store_free);
  g_clear_error (&self->store_error);
  g_clear_error (&self->server_error);
  g_clear_pointer (&self->store_state, g_free);
}

static void
qm_application_class_init (QmApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->handle_local_options = qm_application_handle_local_options;
  app_class->startup = qm_application_startup;
  app_class->shutdown = qm_application_shutdown;
  app_class->activate = qm_application_activate;
  app_class->open = qm_application_open;
}

/* Also printed into the man page, quartermaster.1 (build-aux/qm-cli-doc.c). */
static const GOptionEntry options[] = {
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
  { NULL }
};

const GOptionEntry *
qm_application_option_entries (void)
{
  return options;
}

static void
qm_application_init (QmApplication *self)
{
  qm_gtk_ensure_resources ();
  g_application_add_main_option_entries (G_APPLICATION (self), options);
}

QmApplication *
qm_application_new (void)
{
  /* Single instance needs a session bus; without one (a bare Xvfb, a
   * container) GApplication runs as a plain process by itself. Asking for
   * the bus here as well would cost a second failed D-Bus autolaunch at
   * every start (issue #20 item 10). */
  return g_object_new (QM_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/quartermaster/Quartermaster",
                       NULL);
}

QmStore *
qm_application_get_store (QmApplication *self)
{
  g_return_val_if_fail (QM_IS_APPLICATION (self), NULL);

  return self->store;
}

const char *
qm_application_get_store_state (QmApplication *self)
{
  g_return_val_if_fail (QM_IS_APPLICATION (self), NULL);

  return self->store_state;
}

gboolean
qm_application_is_connecting (QmApplication *self)
{
  g_return_val_if_fail (QM_IS_APPLICATION (self), FALSE);

  return self->connecting;
}

GtkWindow *
qm_application_use_store (QmApplication *self,
                          QmStore       *store)
{
  g_return_val_if_fail (QM_IS_APPLICATION (self), NULL);

  return swap_store (self, store, FALSE);
}

/* qm_application_use_store(), keeping the old store open until shutdown
 * when @retire_old. */
static GtkWindow *
swap_store (QmApplication *self,
            QmStore       *store,
            gboolean       retire_old)
{
  GList *old;
  QmStore *old_store;
  GtkWindow *window;

  old = g_list_copy_deep (gtk_application_get_windows (GTK_APPLICATION (self)),
                          (GCopyFunc) (void (*) (void)) g_object_ref, NULL);
  old_store = g_steal_pointer (&self->store);
  g_clear_error (&self->server_error);
  /* A first connect still under way is for the store this replaces. */
  self->store_serial++;
  self->connecting = FALSE;
  self->store = store;
  if (self->store == NULL)
    open_local_store (self);
  set_store_state (self);

  window = GTK_WINDOW (qm_window_new (ADW_APPLICATION (self)));
  show_store_state (self, window);
  gtk_window_present (window);
  /* Each old window saves its state and its plan's pending edit into
   * the old store as it goes; only then is that store closed. Other
   * windows (the Preferences) stay and are moved by their owner. */
  for (GList *l = old; l != NULL; l = l->next)
    if (QM_IS_WINDOW (l->data))
      gtk_window_destroy (l->data);
  g_list_free_full (old, g_object_unref);
  if (retire_old && self->retired_store == NULL)
    self->retired_store = g_steal_pointer (&old_store);
  g_clear_pointer (&old_store, qm_store_free);
  return window;
}
