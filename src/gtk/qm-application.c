/* qm-application.c: a single-instance AdwApplication with the app.* actions
 * (quit, about, preferences).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-application.h"
#include "qm-gtk.h"
#include "qm-preferences-window.h"
#include "qm-window.h"

struct _QmApplication
{
  AdwApplication parent_instance;
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
qm_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (qm_window_new (ADW_APPLICATION (app)));

  gtk_window_present (window);
}

static void
qm_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  /* Opening .qmplan files arrives with the plan store (issue #7); until
   * then the window opens on the plan list. */
  qm_application_activate (app);
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

  adw_show_about_window (window,
                         "application-name", _("Quartermaster"),
                         "application-icon", APPLICATION_ID,
                         "developer-name", _("The Quartermaster developers"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Size, cost and quote GPU clusters for training large language models. Every figure comes from a formula with a cited source."),
                         "website", "https://github.com/quartermaster/quartermaster",
                         "issue-url", "https://github.com/quartermaster/quartermaster/issues",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         "copyright", "© 2026 The Quartermaster developers",
                         NULL);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (qm_preferences_window_new (window)));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "about", .activate = about_action },
  { .name = "preferences", .activate = preferences_action },
};

static void
qm_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *prefs_accels[] = { "<Control>comma", NULL };
  static const char *help_accels[] = { "<Control>question", NULL };
  static const char *new_plan_accels[] = { "<Control>n", NULL };
  static const char *close_accels[] = { "<Control>w", NULL };

  G_APPLICATION_CLASS (qm_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay", help_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.new-plan", new_plan_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "window.close", close_accels);
}

static void
qm_application_class_init (QmApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->handle_local_options = qm_application_handle_local_options;
  app_class->startup = qm_application_startup;
  app_class->activate = qm_application_activate;
  app_class->open = qm_application_open;
}

static void
qm_application_init (QmApplication *self)
{
  static const GOptionEntry options[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { NULL }
  };

  qm_gtk_ensure_resources ();
  g_application_add_main_option_entries (G_APPLICATION (self), options);
}

QmApplication *
qm_application_new (void)
{
  GApplicationFlags flags = G_APPLICATION_HANDLES_OPEN;
  g_autoptr(GDBusConnection) bus = NULL;

  /* Single instance needs a session bus. Without one (a bare Xvfb, a
   * container) run as a plain process rather than fail to start. */
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (bus == NULL)
    flags |= G_APPLICATION_NON_UNIQUE;

  return g_object_new (QM_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", flags,
                       "resource-base-path", "/io/github/quartermaster/Quartermaster",
                       NULL);
}
