/* test-profile.c: the build profile (meson -Dprofile). A development build
 * has the .Devel app id, settings and database of its own, and the striped
 * header bar; the default build has none of these. The same assertions run
 * in either build, each checking the profile it was configured with.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "qm-application.h"
#include "qm-store.h"
#include "qm-window.h"
#include "qm-test-ui.h"

#define INSTALLED_ID "io.github.quartermaster.Quartermaster"

static void
test_app_id (void)
{
  g_autoptr(QmApplication) app = qm_application_new ();
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autofree char *path = NULL;

  g_assert_cmpstr (g_application_get_application_id (G_APPLICATION (app)), ==, APPLICATION_ID);
  g_assert_true (g_application_id_is_valid (APPLICATION_ID));
  if (DEVELOPMENT_BUILD)
    {
      g_assert_cmpstr (APPLICATION_ID, ==, INSTALLED_ID ".Devel");
      g_assert_cmpstr (PROFILE, ==, "development");
    }
  else
    {
      g_assert_cmpstr (APPLICATION_ID, ==, INSTALLED_ID);
      g_assert_cmpstr (PROFILE, ==, "default");
    }

  /* The settings schema follows the app id, path included, so the two
   * builds never read each other's settings. */
  g_assert_nonnull (source);
  schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  g_assert_nonnull (schema);
  path = g_strdelimit (g_strdup ("/" APPLICATION_ID "/"), ".", '/');
  g_assert_cmpstr (g_settings_schema_get_path (schema), ==, path);
}

static void
test_store_path (void)
{
  g_autofree char *path = NULL;
  g_autofree char *installed = g_build_filename (g_get_user_data_dir (), "quartermaster",
                                                 "quartermaster.db", NULL);

  g_unsetenv ("QM_DB");
  path = qm_store_default_path ();
  if (DEVELOPMENT_BUILD)
    {
      g_autofree char *devel = g_build_filename (g_get_user_data_dir (), APPLICATION_ID,
                                                 "quartermaster.db", NULL);

      g_assert_cmpstr (path, ==, devel);
      g_assert_cmpstr (path, !=, installed);
    }
  else
    {
      /* Where installed builds have always kept their plans. */
      g_assert_cmpstr (path, ==, installed);
    }
}

static void
test_window_style (void)
{
  QmWindow *window = qm_window_new (NULL);

  gtk_window_present (GTK_WINDOW (window));
  /* libadwaita's "devel" class draws the striped header bar. */
  g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (window), "devel"), ==, DEVELOPMENT_BUILD);
  qm_test_screenshot (GTK_WIDGET (window), "profile-window.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/profile/app-id", test_app_id);
  g_test_add_func ("/profile/store-path", test_store_path);
  g_test_add_func ("/profile/window-style", test_window_style);
  return g_test_run ();
}
