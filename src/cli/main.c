/* main.c: quartermaster-cli command dispatch (shared/design/cli.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"

/* To add a command: write qm-cli-<name>.c with qm_cli_<name>(), declare it
 * in qm-cli.h, and fill its slot here. NULL = not implemented yet. */
static const struct
{
  const char   *name;
  QmCliCommand  run;
  const char   *usage;
} commands[] = {
  { "estimate", qm_cli_estimate, "estimate PLAN.json [--json]          estimate one plan (text table, or JSON)" },
  { "search",   NULL,            "search PLAN.json [--top N] [--json]  fastest parallel layouts that fit" },
  { "report",   NULL,            "report PLAN.json -o OUT.pdf          PDF plan summary" },
  { "chart",    NULL,            "chart PLAN.json --kind gpus-time|vram|power|racks [--width W --height H] -o OUT.png|.svg|.pdf" },
  { "compare",  NULL,            "compare A.json B.json [...] [-o OUT.pdf] [--json]" },
  { "catalog",  NULL,            "catalog list [--kind gpu|server|network|storage|rack|model] [--json]\n"
                                 "  catalog import FILE.csv              vendor price list / custom hardware" },
  { "plans",    NULL,            "plans list [--json]|show NAME|export NAME -o F.json|import F.json|delete NAME" },
  { "advise",   NULL,            "advise PLAN.json [--optimise time|cost|energy|gpus] [--json]" },
};

void
qm_cli_error (const char *format,
              ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  fprintf (stderr, "quartermaster-cli: %s\n", msg);
}

static void
print_help (FILE *out)
{
  fputs ("Usage: quartermaster-cli COMMAND [ARGS...]\n\nCommands:\n", out);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %s\n", commands[i].usage);
  fputs ("\nCommon options:\n"
         "  --db PATH     the plans and catalog database (default: the GUI's)\n"
         "  --version     print the version and exit\n"
         "  --help        print this help and exit\n"
         "\nExit status: 0 success, 1 bad input or failed operation, 2 usage error.\n", out);
}

int
main (int    argc,
      char **argv)
{
  const char *cmd;

  setlocale (LC_ALL, "");

  if (argc < 2)
    {
      print_help (stderr);
      return QM_CLI_USAGE;
    }
  cmd = argv[1];
  if (strcmp (cmd, "--version") == 0)
    {
      printf ("quartermaster-cli %s\n", PACKAGE_VERSION);
      return QM_CLI_OK;
    }
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0)
    {
      print_help (stdout);
      return QM_CLI_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (cmd, commands[i].name) == 0)
      {
        if (commands[i].run == NULL)
          {
            qm_cli_error ("'%s' is not implemented yet", cmd);
            return QM_CLI_USAGE;
          }
        return commands[i].run (argc - 1, argv + 1);
      }

  qm_cli_error ("unknown command '%s'; see --help", cmd);
  return QM_CLI_USAGE;
}
