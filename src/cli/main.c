/* main.c: quartermaster-cli command dispatch (docs/cli.md). The
 * commands' synopses, options and help are one table, qm-cli-commands.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-cli-report.h"

/* To add a command: write qm-cli-<name>.c with qm_cli_<name>(), declare it
 * in qm-cli.h, give it its rows in qm-cli-commands.c and its slot here. */
static const struct
{
  const char   *name;
  QmCliCommand  run;
} runs[] = {
  { "estimate", qm_cli_estimate },
  { "search",   qm_cli_search },
  { "report",   qm_cli_report },
  { "chart",    qm_cli_chart },
  { "compare",  qm_cli_compare },
  { "catalog",  qm_cli_catalog },
  { "plans",    qm_cli_plans },
  { "advise",   qm_cli_advise },
  { "quote",    qm_cli_quote },
  { "rates",    qm_cli_rates },
  { "db",       qm_cli_db },
};

/* --db PATH (or --db=PATH) is common to every command and may come before
 * or after it: take it out of argv here. FALSE on a usage error. */
static gboolean
take_db_option (int   *argc,
                char **argv)
{
  int j = 1;

  for (int i = 1; i < *argc; i++)
    {
      if (strcmp (argv[i], "--db") == 0)
        {
          if (i + 1 >= *argc || argv[i + 1][0] == '\0')
            {
              qm_cli_error ("%s", _("--db needs a PATH"));
              return FALSE;
            }
          qm_cli_db_path = argv[++i];
        }
      else if (g_str_has_prefix (argv[i], "--db="))
        {
          if (argv[i][5] == '\0')
            {
              qm_cli_error ("%s", _("--db needs a PATH"));
              return FALSE;
            }
          qm_cli_db_path = argv[i] + 5;
        }
      else
        argv[j++] = argv[i];
    }
  *argc = j;
  argv[j] = NULL;
  /* SQLite's in-memory database keeps nothing past the command: a save
   * there would report success and be lost (issue #33 item 2). */
  if (qm_cli_db_path != NULL)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (qm_cli_db_path));

      if (trimmed[0] == '\0' || g_str_equal (trimmed, ":memory:"))
        {
          qm_cli_error (_("--db %s: not a database file; a database in memory keeps nothing "
                          "once the command ends"), qm_cli_db_path);
          return FALSE;
        }
    }
  return TRUE;
}

/* With --json anywhere, errors are JSON too: decided before anything can
 * fail. */
static void
detect_json (int    argc,
             char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--json") == 0)
      qm_cli_json_output = TRUE;
}

/* help [COMMAND] */
static int
help (const char *command)
{
  if (command == NULL)
    qm_cli_print_help (stdout);
  else if (qm_cli_command_exists (command))
    qm_cli_print_command_help (stdout, command);
  else
    {
      qm_cli_error (_("unknown command '%s'; see --help"), command);
      return QM_CLI_USAGE;
    }
  return QM_CLI_OK;
}

static int
run (int    argc,
     char **argv)
{
  const char *cmd;

  if (!take_db_option (&argc, argv))
    return QM_CLI_USAGE;
  if (argc < 2)
    {
      qm_cli_print_help (stderr);
      return QM_CLI_USAGE;
    }
  cmd = argv[1];
  if (strcmp (cmd, "--version") == 0)
    {
      printf ("quartermaster-cli %s\n", PACKAGE_VERSION);
      return QM_CLI_OK;
    }
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0)
    return help (argc > 2 ? argv[2] : NULL);

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    if (strcmp (cmd, runs[i].name) == 0)
      {
        if (qm_cli_wants_help (argc - 1, argv + 1))
          return help (cmd);
        if (!qm_cli_check_options (argc - 1, argv + 1))
          return QM_CLI_USAGE;
        return runs[i].run (argc - 1, argv + 1);
      }

  qm_cli_error (_("unknown command '%s'; see --help"), cmd);
  return QM_CLI_USAGE;
}

int
main (int    argc,
      char **argv)
{
  const char *localedir = g_getenv ("QM_LOCALEDIR");
  int status;

  /* Text for people (tables, PDFs) in the user's language, as in the app;
   * JSON keys and catalog ids never change. QM_LOCALEDIR: as in the app,
   * for uninstalled runs. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  detect_json (argc, argv);
  status = run (argc, argv);
  qm_cli_flush_errors (status);
  return status;
}
