/* qm-cli-quote.c: quartermaster-cli quote PLAN [--date YYYY-MM-DD] [-o Q.pdf|Q.xlsx] [--json]
 *
 * A quote from a plan file's quote section (or a saved plan's) without a
 * store's numbering: a draft, dated today unless --date says otherwise.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-estimate.h"
#include "qm-quote-json.h"
#include "qm-quote-report.h"
#include "qm-quote-xlsx.h"

#define USAGE "quote PLAN [--date YYYY-MM-DD] [-o Q.pdf|Q.xlsx] [--json]"

static void
print_lines (const QmQuote *q)
{
  char list[64], net[64], total[64];

  qm_cli_print ("%s %s %s %s %s\n", qm_cli_cell (_("Item"), -34), qm_cli_cell (_("Qty"), 8),
                qm_cli_cell (_("List unit"), 20), qm_cli_cell (_("Net unit"), 20),
                qm_cli_cell (_("Total"), 22));
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *l = &q->lines[i];
      g_autofree char *item = qm_quote_line_label (l);
      g_autofree char *label = g_strdup_printf ("%s%s", item,
                                                /* Translators: after a quote line the customer dropped. */
                                                l->accepted ? "" : _(" (declined)"));

      qm_money_format (list, sizeof list, l->list_unit, q->exponent, NULL);
      qm_money_format (net, sizeof net, l->net_unit, q->exponent, NULL);
      qm_money_format (total, sizeof total, l->total, q->exponent, NULL);
      qm_cli_print ("%s %s %s %s %s\n", qm_cli_cell (label, -34),
                    qm_cli_cell (qm_cli_num (l->qty, l->qty == (guint64) l->qty ? 0 : 2), 8),
                    qm_cli_cell (list, 20), qm_cli_cell (net, 20), qm_cli_cell (total, 22));
    }
}

static void
print_totals (const QmQuote *q,
              double         tax_rate)
{
  char buf[64];
  g_autofree char *tax_label = g_strdup_printf (_("Tax (%s %%)"), qm_cli_num (tax_rate * 100.0, 1));

  qm_cli_print ("%s %s\n", qm_cli_cell (_("Net"), -86),
                qm_cli_cell (qm_money_format (buf, sizeof buf, q->net, q->exponent, q->currency), 22));
  qm_cli_print ("%s %s\n", qm_cli_cell (tax_label, -86),
                qm_cli_cell (qm_money_format (buf, sizeof buf, q->tax, q->exponent, q->currency), 22));
  qm_cli_print ("%s %s\n", qm_cli_cell (_("Gross"), -86),
                qm_cli_cell (qm_money_format (buf, sizeof buf, q->gross, q->exponent, q->currency), 22));
}

static void
print_schedule (const QmQuote *q)
{
  char buf[64], rent[64];

  for (guint k = 0; k < q->n_phases; k++)
    /* Translators: a delivery of a quote; month 0 is the month of the order. */
    qm_cli_print (_("Delivery in month %u: %s %% of the nodes in place\n"), q->delivery_month[k],
                  qm_cli_num (q->delivered_fraction[k] * 100.0, 0));
  qm_cli_print (_("Training can start in month %u.\n"), q->training_start_month);
  qm_cli_print (_("Cash out over %u months: %s; renting the same GPUs: %s.\n"), q->n_months,
                qm_money_format (buf, sizeof buf, q->spend_total, q->exponent, q->currency),
                qm_money_format (rent, sizeof rent, q->rent_total, q->exponent, q->currency));
  if (q->break_even_valid)
    qm_cli_print (_("Buying costs less than renting from month %u on.\n"), q->break_even_month);
}

static gboolean
parse_date (const char *text,
            GDate      *out)
{
  int y, m, d;
  char end;

  if (sscanf (text, "%4d-%2d-%2d%c", &y, &m, &d, &end) != 3 || !g_date_valid_dmy (d, m, y))
    return FALSE;
  g_date_set_dmy (out, d, m, y);
  return TRUE;
}

int
qm_cli_quote (int    argc,
              char **argv)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *estimate = g_new0 (QmEstimate, 1);
  g_autofree QmQuote *quote = g_new0 (QmQuote, 1);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  QmQuoteHeader header = { 0 };
  GDate today;
  const char *path = NULL, *out = NULL;
  gboolean json = FALSE;

  g_date_clear (&header.issued, 1);
  g_date_set_dmy (&header.issued, g_date_time_get_day_of_month (now), g_date_time_get_month (now),
                  g_date_time_get_year (now));
  today = header.issued;
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (strcmp (argv[i], "-o") == 0 || strcmp (argv[i], "--output") == 0)
        {
          if (i + 1 >= argc)
            {
              qm_cli_error (_("%s: %s needs a value; usage: %s"), "quote", argv[i], USAGE);
              return QM_CLI_USAGE;
            }
          out = argv[++i];
          if (!g_str_has_suffix (out, ".xlsx") && !g_str_has_suffix (out, ".pdf"))
            {
              qm_cli_error (_("%s: -o: the output must end in .pdf or .xlsx (got '%s')"), "quote", out);
              return QM_CLI_USAGE;
            }
        }
      else if (strcmp (argv[i], "--date") == 0)
        {
          if (i + 1 >= argc || !parse_date (argv[i + 1], &header.issued))
            {
              qm_cli_error (_("%s: --date: must be a date as YYYY-MM-DD (got '%s')"), "quote",
                            i + 1 < argc ? argv[i + 1] : "");
              return QM_CLI_USAGE;
            }
          i++;
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        {
          qm_cli_error (_("%s: unknown option '%s'"), "quote", argv[i]);
          return QM_CLI_USAGE;
        }
      else if (path == NULL)
        path = argv[i];
      else
        {
          qm_cli_error (_("%s: one plan at a time (got '%s' too)"), "quote", argv[i]);
          return QM_CLI_USAGE;
        }
    }
  if (path == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "quote", "PLAN", USAGE);
      return QM_CLI_USAGE;
    }
  if (!qm_cli_load_plan (path, plan))
    return QM_CLI_INPUT;

  qm_estimate (plan, estimate);
  qm_estimate_quote (plan, estimate, quote);
  for (guint i = 0; i < quote->issues.n; i++)
    {
      g_autofree char *text = qm_issue_to_string (&quote->issues.items[i]);

      qm_cli_error ("%s: %s", path, text);
    }
  if (qm_issues_has_error (&quote->issues))
    return QM_CLI_INPUT;

  header.number = plan->quote_ref;
  header.customer = plan->customer;
  header.valid_days = plan->quote.valid_days;
  if (out != NULL)
    {
      g_autoptr(GError) error = NULL;

      gboolean written;

      if (g_str_has_suffix (out, ".pdf"))
        {
          g_autoptr(QmDocument) doc = qm_quote_report_new (plan, estimate, &header, quote, &today,
                                                           qm_paper_for_locale ());

          written = qm_document_write_pdf (doc, out, &error);
        }
      else
        written = qm_quote_write_xlsx (&header, quote, out, &error);
      if (!written)
        {
          qm_cli_error ("%s", error->message);
          return QM_CLI_INPUT;
        }
      if (!json)
        return QM_CLI_OK;
    }
  if (json)
    {
      g_autoptr(JsonNode) node = qm_quote_to_json_node (&header, quote, &today);
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autofree char *text = NULL;

      json_generator_set_root (gen, node);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
      fputs (text, stdout);
      fputc ('\n', stdout);
      return QM_CLI_OK;
    }

  {
    GDate until = qm_quote_valid_until (&header);
    char date[16];

    g_date_strftime (date, sizeof date, "%Y-%m-%d", &until);
    /* Translators: the first line of a quote; %s are its reference
     * (or "draft"), the customer and the last day it is valid. */
    qm_cli_print (_("Quote %s for %s, valid until %s\n"),
                  plan->quote_ref[0] ? plan->quote_ref : _("draft"),
                  plan->customer[0] ? plan->customer : _("no customer"), date);
    if (qm_quote_expired (&header, &today))
      qm_cli_print ("%s\n", _("This quote has expired: its prices no longer hold."));
    qm_cli_print ("\n");
  }
  print_lines (quote);
  qm_cli_print ("\n");
  print_totals (quote, plan->quote.tax_rate);
  qm_cli_print ("\n");
  print_schedule (quote);
  return QM_CLI_OK;
}
