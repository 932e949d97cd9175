/* qm-cli-doc.c: print the command-line reference from the tables the
 * programs themselves use: docs/cli.md and quartermaster-cli.1 from the CLI's
 * command table (src/cli/qm-cli-commands.c), quartermaster.1 from the app's
 * GApplication options (src/gtk/qm-application.c).
 *
 *   build/build-aux/qm-cli-doc markdown > docs/cli.md
 *   build/build-aux/qm-cli-doc markdown --check docs/cli.md
 *   build/build-aux/qm-cli-doc cli-man|gui-man > FILE.1
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "qm-application.h"
#include "qm-cli-doc.h"

static void
gui_man (GString *out)
{
  qm_cli_doc_man_header (out, "quartermaster", PACKAGE_VERSION,
                         "size, cost and quote GPU clusters for LLM training and serving");
  g_string_append (out, ".SH SYNOPSIS\n.B quartermaster\n[\\fIOPTION\\fR...] [\\fIPLAN.qmplan\\fR...]\n"
                        ".SH DESCRIPTION\n");
  qm_cli_doc_man_escape (out, "Quartermaster sizes, costs and quotes GPU clusters for training and serving "
                              "large language models. The PLAN.qmplan files given are opened in the app, "
                              "in the running instance if there is one.");
  g_string_append (out, "\n.SH OPTIONS\n");
  for (const GOptionEntry *e = qm_application_option_entries (); e->long_name != NULL; e++)
    {
      g_autofree char *label = g_strdup_printf ("--%s", e->long_name);

      qm_cli_doc_man_option (out, label, e->description);
    }
  /* GApplication's own. */
  qm_cli_doc_man_option (out, "-h, --help", "Show help options");
  qm_cli_doc_man_option (out, "--help-all", "Show all help options");
  qm_cli_doc_man_option (out, "--help-gapplication", "Show GApplication options");
  g_string_append (out, ".SH FILES\n");
  qm_cli_doc_man_escape (out, "The saved plans, the catalog and the quotes are one database under "
                              "$XDG_DATA_HOME/quartermaster, shared with quartermaster-cli.");
  g_string_append (out, "\n.SH SEE ALSO\n.BR quartermaster\\-cli (1)\n");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *committed = NULL;
  const char *what = argc > 1 ? argv[1] : "";

  if (strcmp (what, "markdown") == 0)
    qm_cli_doc_markdown (out);
  else if (strcmp (what, "cli-man") == 0)
    qm_cli_doc_man (out, PACKAGE_VERSION);
  else if (strcmp (what, "gui-man") == 0)
    gui_man (out);
  else
    {
      fprintf (stderr, "usage: %s markdown|cli-man|gui-man [--check FILE]\n", argv[0]);
      return 2;
    }

  if (argc == 2)
    {
      fwrite (out->str, 1, out->len, stdout);
      return 0;
    }
  if (argc != 4 || strcmp (argv[2], "--check") != 0)
    {
      fprintf (stderr, "usage: %s markdown|cli-man|gui-man [--check FILE]\n", argv[0]);
      return 2;
    }
  if (!g_file_get_contents (argv[3], &committed, NULL, NULL) || strcmp (committed, out->str) != 0)
    {
      fprintf (stderr, "%s is not what the command table prints; regenerate it:\n"
                       "  build/build-aux/qm-cli-doc %s > %s\n", argv[3], what, argv[3]);
      return 1;
    }
  return 0;
}
