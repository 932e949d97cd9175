/* main.c: the quartermaster GUI.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "qm-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(QmApplication) app = NULL;
  const char *localedir = g_getenv ("QM_LOCALEDIR");

  setlocale (LC_ALL, "");
  /* Uninstalled runs (build-aux/dev run, meson devenv) set QM_LOCALEDIR to
   * the build dir's po/, where meson compiles <lang>/LC_MESSAGES/quartermaster.mo. */
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = qm_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
