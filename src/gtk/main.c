/* main.c: the quartermaster GUI.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdlib.h>

#include "qm-application.h"

/* Started straight from the build tree (build/src/gtk/quartermaster),
 * without build-aux/dev or meson devenv: use the schema and translations
 * compiled in the build, as those do. Anything already set wins, and an
 * installed binary, which lives elsewhere, never looks here. */
static void
use_build_tree (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
  g_autofree char *gtk_dir = g_build_filename (QM_BUILD_ROOT, "src", "gtk", NULL);
  g_autofree char *real_gtk_dir = realpath (gtk_dir, NULL);

  if (exe_dir == NULL || real_gtk_dir == NULL || g_strcmp0 (exe_dir, real_gtk_dir) != 0)
    return;
  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    g_setenv ("GSETTINGS_SCHEMA_DIR", QM_BUILD_ROOT "/data", TRUE);
  if (g_getenv ("QM_LOCALEDIR") == NULL)
    g_setenv ("QM_LOCALEDIR", QM_BUILD_ROOT "/po", TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(QmApplication) app = NULL;
  const char *localedir;

  use_build_tree ();
  localedir = g_getenv ("QM_LOCALEDIR");

  setlocale (LC_ALL, "");
  /* Uninstalled runs (build-aux/dev run, meson devenv, or the fallback
   * above) set QM_LOCALEDIR to the build dir's po/, where meson compiles
   * <lang>/LC_MESSAGES/quartermaster.mo. */
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = qm_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
