/* test-launch.c: the quartermaster binary started as a person would,
 * without build-aux/dev (issue #20 item 9). From the build tree it finds
 * the build's compiled schema and translations by itself; a copy outside
 * the build tree, as an installed binary without its schema, says so in a
 * dialog instead of aborting. The dialog is screenshotted in both styles.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "qm-application.h"
#include "qm-test-ui.h"

/* Runs @binary with no schema or locale dir in its environment until its
 * first window has painted (QM_EXIT_AFTER_FIRST_FRAME); returns what it
 * printed, and its wait status in @status. */
static char *
run (const char *binary,
     const char *dir,
     int        *status,
     char      **err)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  g_subprocess_launcher_unsetenv (launcher, "GSETTINGS_SCHEMA_DIR");
  g_subprocess_launcher_unsetenv (launcher, "QM_LOCALEDIR");
  /* Its own output is checked here; a warning must not abort it. */
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  g_subprocess_launcher_setenv (launcher, "QM_DB", db, TRUE);
  g_subprocess_launcher_setenv (launcher, "QM_EXIT_AFTER_FIRST_FRAME", "1", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, binary, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, err, &error);
  g_assert_no_error (error);
  *status = g_subprocess_get_status (process);
  return out;
}

static gboolean
schema_on_system (void)
{
  const char * const *dirs = g_get_system_data_dirs ();

  /* Where an installed app's schema would be (not GSETTINGS_SCHEMA_DIR,
   * which the tests point at the build). */
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], "glib-2.0", "schemas", NULL);
      g_autoptr(GSettingsSchemaSource) source = g_settings_schema_source_new_from_directory (path, NULL, FALSE, NULL);
      g_autoptr(GSettingsSchema) schema = NULL;

      if (source != NULL)
        schema = g_settings_schema_source_lookup (source, APPLICATION_ID, FALSE);
      if (schema != NULL)
        return TRUE;
    }
  return FALSE;
}

/* From the build tree, with nothing set: it starts. Before the fix it
 * aborted with "Settings schema ... is not installed". */
static void
test_build_tree (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-launch-XXXXXX", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  out = run (g_getenv ("QM_APP"), dir, &status, &err);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("quartermaster failed (status %d): %s", status, err);
  g_assert_cmpstr (out, ==, "first-frame QmWindow\n");
  g_assert_null (strstr (err, "is not installed"));
}

/* And its translations: --help in German, from <builddir>/po. */
static void
test_build_tree_translations (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;

  g_subprocess_launcher_unsetenv (launcher, "QM_LOCALEDIR");
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "de", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("QM_APP"), "--help", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  if (strstr (out, "Version ausgeben und beenden") == NULL)
    g_error ("--help is not in German:\n%s", out);
}

/* A copy outside the build tree stands for an installed binary whose
 * schema is missing: a dialog, not an abort. */
static void
test_installed_without_schema (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-launch-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "quartermaster", NULL);
  g_autoptr(GFile) from = g_file_new_for_path (g_getenv ("QM_APP"));
  g_autoptr(GFile) to = g_file_new_for_path (copy);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (schema_on_system ())
    {
      g_test_skip ("the schema is installed on this system");
      return;
    }
  g_assert_true (g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (copy, 0755), ==, 0);

  out = run (copy, dir, &status, &err);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("quartermaster failed (status %d): %s", status, err);
  g_assert_cmpstr (out, ==, "first-frame AdwMessageDialog\n");
  g_assert_null (strstr (err, "is not installed"));
  g_remove (copy);
}

/* The dialog itself: the cause and the fix, light and dark. */
static void
test_dialog (void)
{
  AdwMessageDialog *dialog = qm_missing_schema_dialog_new ();
  const char *body = adw_message_dialog_get_body (dialog);

  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Quartermaster Is Not Installed Completely");
  g_assert_nonnull (strstr (body, APPLICATION_ID));
  g_assert_nonnull (strstr (body, "glib-compile-schemas"));
  g_assert_nonnull (strstr (body, "build-aux/dev run"));
  g_assert_true (adw_message_dialog_has_response (dialog, "quit"));
  gtk_window_present (GTK_WINDOW (dialog));
  qm_test_screenshot (GTK_WIDGET (dialog), "missing-schema-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (dialog), "missing-schema-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;
  g_test_add_func ("/launch/build-tree", test_build_tree);
  g_test_add_func ("/launch/build-tree-translations", test_build_tree_translations);
  g_test_add_func ("/launch/installed-without-schema", test_installed_without_schema);
  g_test_add_func ("/launch/missing-schema-dialog", test_dialog);
  return g_test_run ();
}
