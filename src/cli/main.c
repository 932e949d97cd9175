/* main.c: quartermaster-cli command dispatch (shared/design/cli.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-cli-report.h"

/* To add a command: write qm-cli-<name>.c with qm_cli_<name>(), declare it
 * in qm-cli.h, and fill its slot here. NULL = not implemented yet. */
static const struct
{
  const char   *name;
  QmCliCommand  run;
  const char   *usage;     /* the syntax: never translated */
  const char   *summary;   /* what it does, for people: translated */
} commands[] = {
  { "estimate", qm_cli_estimate, "estimate PLAN.json [--json]", N_("estimate one plan (text table, or JSON)") },
  { "search",   qm_cli_search,   "search PLAN.json [--top N] [--json]", N_("fastest parallel layouts that fit") },
  { "report",   qm_cli_report,   "report PLAN.json -o OUT.pdf|OUT.csv [--paper a4|letter]",
    N_("PDF plan summary, or the bill of materials as CSV") },
  { "chart",    qm_cli_chart,    "chart PLAN.json --kind gpus-time|latency|throughput|vram|power|racks [--width W --height H] -o OUT.png|.svg|.pdf",
    N_("one chart of the plan") },
  { "compare",  qm_cli_compare,  "compare A.json B.json [...] [-o OUT.pdf] [--json]", N_("plans side by side") },
  { "catalog",  qm_cli_catalog,  "catalog list [--kind gpu|server|network|storage|rack|cloud|model] [--json]",
    N_("the hardware catalog") },
  { NULL,       NULL,            "catalog import FILE.csv [--skip-invalid] [--csv-locale c|user]",
    N_("vendor price list / custom hardware") },
  { NULL,       NULL,            "catalog export [FILE.csv] [--kind K] [--csv-locale c|user]",
    N_("the catalog as CSV, in your spreadsheet's convention by default") },
  { "plans",    qm_cli_plans,    "plans list [--json]|show NAME [--json]|export NAME -o F.qmplan|import F.qmplan|delete NAME",
    N_("saved plans") },
  { "advise",   qm_cli_advise,   "advise PLAN.json [--optimise cost|time|energy|gpus] [--json]",
    N_("what would improve the plan (default goal: cost)") },
  { "quote",    qm_cli_quote,    "quote PLAN [--date YYYY-MM-DD] [-o Q.pdf|Q.xlsx|Q.csv] [--json]",
    N_("a draft quote from the plan's quote terms (text table, JSON, a PDF to sign, or a workbook)") },
  { NULL,       NULL,            "quote PLAN --save [--date YYYY-MM-DD] [--note TEXT] [--customer C] [--project P] [--prepared-by NAME] [--payment-terms T] [--terms T]",
    N_("number the quote of a saved plan in the database, or add its next revision") },
  { NULL,       NULL,            "quote show NUMBER [--revision B] [-o Q.pdf|Q.xlsx|Q.csv] [--json]",
    N_("a stored revision, printed from what it froze") },
  { NULL,       NULL,            "quote list [--customer C] [--state draft|sent|accepted|declined] [--json]|state NUMBER STATE",
    N_("the stored quotes") },
  { "rates",    qm_cli_rates,    "rates list [--currency C] [--json]|import FILE.csv|add CURRENCY RATE YYYY-MM-DD [SOURCE]",
    N_("exchange rates per US dollar, by date, for quotes") },
};

static void
print_help (FILE *out)
{
  /* Translators: the first line of quartermaster-cli --help; COMMAND and
   * ARGS are placeholders and may be translated, quartermaster-cli not. */
  fprintf (out, "%s\n\n%s\n", _("Usage: quartermaster-cli COMMAND [ARGS...]"), _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %s\n      %s\n", commands[i].usage, _(commands[i].summary));
  fprintf (out, "\n%s\n\n%s\n", _("A PLAN that names a file is read from it (a file wins over the database);\n"
                                  "otherwise it is the name or id of a saved plan. With --db, a plan file is\n"
                                  "read through that database, so your own catalog entries and prices apply."),
           _("Common options:"));
  /* Translators: keep the options themselves (--db PATH, --version,
   * --help) as they are. */
  fprintf (out, "  --db PATH     %s\n  --version     %s\n  --help        %s\n",
           _("the plans and catalog database (default: the GUI's)"),
           _("print the version and exit"), _("print this help and exit"));
  fprintf (out, "\n%s\n", _("Exit status: 0 success, 1 bad input or failed operation, 2 usage error."));
}

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
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  const char *cmd;
  const char *localedir = g_getenv ("QM_LOCALEDIR");

  /* Text for people (tables, PDFs) in the user's language, as in the app;
   * JSON keys and catalog ids never change. QM_LOCALEDIR: as in the app,
   * for uninstalled runs. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  if (!take_db_option (&argc, argv))
    return QM_CLI_USAGE;
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
    if (commands[i].name != NULL && strcmp (cmd, commands[i].name) == 0)
      {
        if (commands[i].run == NULL)
          {
            qm_cli_error (_("'%s' is not implemented yet"), cmd);
            return QM_CLI_USAGE;
          }
        return commands[i].run (argc - 1, argv + 1);
      }

  qm_cli_error (_("unknown command '%s'; see --help"), cmd);
  return QM_CLI_USAGE;
}
