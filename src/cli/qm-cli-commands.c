/* qm-cli-commands.c: the table of quartermaster-cli's commands (see
 * qm-cli-commands.h) and the help and option check printed from it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "qm-cli-commands.h"

#define OPT_JSON { "--json", NULL, NULL, N_("print JSON for scripts; errors are JSON on standard error too") }
/* c: comma and decimal point, as programs read it; user: the convention of
 * the user's spreadsheet (semicolon and decimal comma where the locale
 * writes 1,5). */
#define OPT_CSV_LOCALE { "--csv-locale", NULL, "c|user", N_("the CSV convention: c (comma, decimal point) or user (your locale's spreadsheet convention)") }
#define OPT_END  { NULL, NULL, NULL, NULL }

#define OPT_MAX_PRICE_AGE { "--max-price-age", NULL, "MONTHS", N_("warn when the prices are older than this, 1 to 60 (default 6)") }

static const QmCliOption estimate_options[] = {
  { "--date", NULL, "YYYY-MM-DD", N_("the day the prices' age is judged on (default today)") },
  OPT_MAX_PRICE_AGE,
  OPT_JSON,
  OPT_END
};

static const QmCliOption search_options[] = {
  { "--top", NULL, "N", N_("how many layouts to print, best first (default 5)") },
  OPT_JSON,
  OPT_END
};

static const QmCliOption report_options[] = {
  { "-o", "--output", "FILE", N_("where to write: a .pdf summary or a .csv bill of materials; - for standard output") },
  { "--format", NULL, "pdf|csv", N_("the format when FILE is - (default pdf)") },
  { "--paper", NULL, "a4|letter", N_("the paper size of the PDF") },
  OPT_CSV_LOCALE,
  OPT_MAX_PRICE_AGE,
  OPT_END
};

static const QmCliOption chart_options[] = {
  { "--kind", NULL, "KIND", N_("gpus-time, latency, throughput, vram, power, racks or cashflow") },
  { "--width", NULL, "W", N_("the width in pixels (50 to 10000, default 1200)") },
  { "--height", NULL, "H", N_("the height in pixels (50 to 10000, default 800)") },
  { "-o", "--output", "FILE", N_("where to write: .png, .svg or .pdf; - for standard output") },
  { "--format", NULL, "png|svg|pdf", N_("the format when FILE is - (default png)") },
  OPT_END
};

static const QmCliOption compare_options[] = {
  { "-o", "--output", "FILE", N_("also write the comparison as a PDF; - for standard output") },
  OPT_JSON,
  OPT_END
};

static const QmCliOption catalog_list_options[] = {
  { "--kind", NULL, "KIND", N_("only this kind: gpu, server, network, storage, rack, cloud or model") },
  OPT_JSON,
  OPT_END
};

static const QmCliOption catalog_import_options[] = {
  { "--kind", NULL, "KIND", N_("the kind of the rows that have no kind column or id the catalog knows") },
  { "--skip-invalid", NULL, NULL, N_("import the valid rows and report the others, instead of importing nothing") },
  OPT_CSV_LOCALE,
  OPT_END
};

static const QmCliOption catalog_export_options[] = {
  { "--kind", NULL, "KIND", N_("only this kind: gpu, server, network, storage, rack, cloud or model") },
  OPT_CSV_LOCALE,
  OPT_END
};

static const QmCliOption json_options[] = {
  OPT_JSON,
  OPT_END
};

static const QmCliOption plans_export_options[] = {
  { "-o", "--output", "FILE", N_("the plan file to write; - for standard output") },
  OPT_END
};

static const QmCliOption no_options[] = {
  OPT_END
};

static const QmCliOption advise_options[] = {
  { "--optimise", "--optimize", "GOAL", N_("what to improve: cost (the default), time, energy or gpus") },
  OPT_JSON,
  OPT_END
};

#define OPT_QUOTE_OUTPUT \
  { "-o", "--output", "FILE", N_("write the quote as .pdf, .xlsx or .csv; - for standard output") }, \
  { "--format", NULL, "pdf|xlsx|csv", N_("the format when FILE is - (default pdf)") }, \
  OPT_MAX_PRICE_AGE

static const QmCliOption quote_options[] = {
  { "--date", NULL, "YYYY-MM-DD", N_("the date the quote is issued (default today)") },
  OPT_QUOTE_OUTPUT,
  OPT_JSON,
  OPT_END
};

static const QmCliOption quote_save_options[] = {
  { "--save", NULL, NULL, N_("number the quote in the database (the plan must be saved there)") },
  { "--date", NULL, "YYYY-MM-DD", N_("the date the quote is issued (default today)") },
  { "--note", NULL, "TEXT", N_("a note kept with this revision") },
  { "--customer", NULL, "C", N_("the customer the quote is for") },
  { "--customer-vat", NULL, "ID", N_("the customer's VAT id, printed beside the customer") },
  { "--project", NULL, "P", N_("the customer's project") },
  { "--prepared-by", NULL, "NAME", N_("who prepared the quote") },
  { "--payment-terms", NULL, "T", N_("the payment terms printed on the quote") },
  { "--terms", NULL, "T", N_("free-text terms printed on the quote") },
  OPT_QUOTE_OUTPUT,
  OPT_JSON,
  OPT_END
};

static const QmCliOption quote_show_options[] = {
  { "--revision", NULL, "B", N_("this revision letter (default the newest)") },
  OPT_QUOTE_OUTPUT,
  OPT_JSON,
  OPT_END
};

static const QmCliOption quote_list_options[] = {
  { "--customer", NULL, "C", N_("only this customer's quotes") },
  { "--state", NULL, "STATE", N_("only quotes in this state: draft, sent, accepted or declined") },
  OPT_JSON,
  OPT_END
};

static const QmCliOption rates_list_options[] = {
  { "--currency", NULL, "C", N_("only this currency, such as EUR") },
  OPT_JSON,
  OPT_END
};

static const QmCliOption common_options[] = {
  { "--db", NULL, "PATH", N_("the plans and catalog database (default: the GUI's)") },
  { "--version", NULL, NULL, N_("print the version and exit") },
  { "--help", "-h", NULL, N_("print this help and exit") },
  OPT_END
};

/* Files are named as users have them: a plan is a .qmplan, a catalog or
 * rate list a .csv. */
static const QmCliCommandInfo commands[] = {
  { "estimate", NULL, "estimate PLAN.qmplan [--date YYYY-MM-DD] [--max-price-age MONTHS] [--json]",
    N_("estimate one plan (text table, or JSON)"), estimate_options },
  { "search", NULL, "search PLAN.qmplan [--top N] [--json]",
    N_("fastest parallel layouts that fit"), search_options },
  { "report", NULL, "report PLAN.qmplan -o SUMMARY.pdf|BOM.csv [--format pdf|csv] [--paper a4|letter] "
    "[--csv-locale c|user] [--max-price-age MONTHS]",
    N_("PDF plan summary, or the bill of materials as CSV"), report_options },
  { "chart", NULL, "chart PLAN.qmplan --kind gpus-time|latency|throughput|vram|power|racks|cashflow "
    "[--width W] [--height H] -o CHART.png|CHART.svg|CHART.pdf [--format png|svg|pdf]",
    N_("one chart of the plan"), chart_options },
  { "compare", NULL, "compare A.qmplan B.qmplan [C.qmplan D.qmplan] [-o COMPARISON.pdf] [--json]",
    N_("plans side by side"), compare_options },
  { "catalog", "list", "catalog list [--kind gpu|server|network|storage|rack|cloud|model] [--json]",
    N_("the hardware catalog"), catalog_list_options },
  { "catalog", "import", "catalog import CATALOG.csv [--kind KIND] [--skip-invalid] [--csv-locale c|user]",
    N_("vendor price list / custom hardware"), catalog_import_options },
  { "catalog", "export", "catalog export [CATALOG.csv] [--kind KIND] [--csv-locale c|user]",
    N_("the catalog as CSV, in your spreadsheet's convention by default"), catalog_export_options },
  { "catalog", "history", "catalog history KIND ID [--json]",
    N_("every change of an entry's price: when, who, old and new"), json_options },
  { "plans", "list", "plans list [--json]", N_("saved plans"), json_options },
  { "plans", "show", "plans show NAME [--json]", N_("one saved plan and its last estimate"), json_options },
  { "plans", "export", "plans export NAME -o PLAN.qmplan", N_("write a saved plan to a file"),
    plans_export_options },
  { "plans", "import", "plans import PLAN.qmplan", N_("save a plan file in the database"), no_options },
  { "plans", "delete", "plans delete NAME", N_("delete a saved plan"), no_options },
  { "advise", NULL, "advise PLAN.qmplan [--optimise cost|time|energy|gpus] [--json]",
    N_("what would improve the plan (default goal: cost)"), advise_options },
  { "quote", NULL, "quote PLAN [--date YYYY-MM-DD] [-o QUOTE.pdf|QUOTE.xlsx|QUOTE.csv] [--format pdf|xlsx|csv] "
    "[--max-price-age MONTHS] [--json]",
    N_("a draft quote from the plan's quote terms (text table, JSON, a PDF to sign, or a workbook)"),
    quote_options },
  { "quote", NULL, "quote PLAN --save [--date YYYY-MM-DD] [--note TEXT] [--customer C] [--customer-vat ID] "
    "[--project P] [--prepared-by NAME] [--payment-terms T] [--terms T] [-o QUOTE.pdf|QUOTE.xlsx|QUOTE.csv] "
    "[--max-price-age MONTHS] [--json]",
    N_("number the quote of a saved plan in the database, or add its next revision"), quote_save_options },
  { "quote", "show", "quote show NUMBER [--revision B] [-o QUOTE.pdf|QUOTE.xlsx|QUOTE.csv] [--format pdf|xlsx|csv] "
    "[--max-price-age MONTHS] [--json]",
    N_("a stored revision, printed from what it froze"), quote_show_options },
  { "quote", "list", "quote list [--customer C] [--state draft|sent|accepted|declined] [--json]",
    N_("the stored quotes"), quote_list_options },
  { "quote", "state", "quote state NUMBER draft|sent|accepted|declined",
    N_("mark a stored quote sent, accepted or declined"), no_options },
  { "rates", "list", "rates list [--currency C] [--json]",
    N_("exchange rates per US dollar, by date, for quotes"), rates_list_options },
  { "rates", "import", "rates import RATES.csv", N_("add the exchange rates of a CSV file"), no_options },
  { "rates", "add", "rates add CURRENCY RATE YYYY-MM-DD [SOURCE]", N_("add one exchange rate"), no_options },
  { "db", "copy", "db copy FROM TO",
    N_("copy the saved plans, quotes, exchange rates and your catalog between databases (files or postgresql:// servers) and check them"), no_options },
  { "db", "setup-roles", "db setup-roles",
    N_("create the team roles (viewer, editor and catalog manager) and their grants on the --db server"),
    no_options },
};

const QmCliCommandInfo *
qm_cli_commands (guint *n)
{
  *n = G_N_ELEMENTS (commands);
  return commands;
}

const QmCliOption *
qm_cli_common_options (void)
{
  return common_options;
}

gboolean
qm_cli_command_exists (const char *command)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (commands[i].command, command))
      return TRUE;
  return FALSE;
}

/* Whether row @c is the form "COMMAND [SUB]" names. */
static gboolean
row_matches (const QmCliCommandInfo *c,
             const char             *command,
             const char             *sub)
{
  if (!g_str_equal (c->command, command))
    return FALSE;
  return sub == NULL || c->sub == NULL || g_str_equal (c->sub, sub);
}

const char *
qm_cli_synopsis (const char *command)
{
  static char *text;
  g_autofree char *name = g_strdup (command);
  char *sub = strchr (name, ' ');
  GString *s = g_string_new (NULL);

  if (sub != NULL)
    *sub++ = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (row_matches (&commands[i], name, sub))
      g_string_append_printf (s, "%s%s", s->len ? " | " : "", commands[i].synopsis);
  g_free (text);
  text = g_string_free (s, FALSE);
  return text;
}

char *
qm_cli_option_label (const QmCliOption *o)
{
  return g_strdup_printf ("%s%s%s%s%s", o->name, o->alias ? ", " : "", o->alias ? o->alias : "",
                          o->arg ? " " : "", o->arg ? o->arg : "");
}

static void
print_options (FILE              *out,
               const QmCliOption *options)
{
  for (const QmCliOption *o = options; o->name != NULL; o++)
    {
      g_autofree char *label = qm_cli_option_label (o);

      fprintf (out, "      %-22s %s\n", label, _(o->help));
    }
}

static const char *const notes[] = {
  N_("A PLAN that names a file is read from it (a file wins over the database);\n"
     "otherwise it is the name or id of a saved plan. With --db, a plan file is\n"
     "read through that database, so your own catalog entries and prices apply."),
  N_("A PLAN or FILE of - is standard input or standard output."),
  NULL
};

static const char *const exit_status = N_("Exit status: 0 success, 1 bad input or failed operation, 2 usage error.");

const char *const *
qm_cli_notes (void)
{
  return notes;
}

const char *
qm_cli_exit_status (void)
{
  return exit_status;
}

static void
print_plan_note (FILE *out)
{
  for (guint i = 0; notes[i] != NULL; i++)
    fprintf (out, "%s\n", _(notes[i]));
}

static void
print_common (FILE *out)
{
  fprintf (out, "\n%s\n", _("Common options:"));
  for (const QmCliOption *o = common_options; o->name != NULL; o++)
    {
      g_autofree char *label = qm_cli_option_label (o);

      fprintf (out, "  %-14s%s\n", label, _(o->help));
    }
  fprintf (out, "\n%s\n", _(exit_status));
}

void
qm_cli_print_help (FILE *out)
{
  /* Translators: the first line of quartermaster-cli --help; COMMAND and
   * ARGS are placeholders and may be translated, quartermaster-cli not. */
  fprintf (out, "%s\n\n%s\n", _("Usage: quartermaster-cli COMMAND [ARGS...]"), _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %s\n      %s\n", commands[i].synopsis, _(commands[i].summary));
  fputc ('\n', out);
  print_plan_note (out);
  print_common (out);
}

void
qm_cli_print_command_help (FILE       *out,
                           const char *command)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const QmCliCommandInfo *c = &commands[i];

      if (!g_str_equal (c->command, command))
        continue;
      fprintf (out, "%s: quartermaster-cli %s\n  %s\n", C_("synopsis", "Usage"), c->synopsis, _(c->summary));
      print_options (out, c->options);
      fputc ('\n', out);
    }
  print_plan_note (out);
  print_common (out);
}
