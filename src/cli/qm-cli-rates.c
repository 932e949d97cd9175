/* qm-cli-rates.c: quartermaster-cli rates list [--currency C] [--json] |
 *                 import FILE.csv | add CURRENCY RATE YYYY-MM-DD [SOURCE]
 *
 * The store's exchange-rate table: units of a currency per US dollar from
 * a date on, each with its source. A saved quote whose plan file gives no
 * exchange rate takes the latest one on or before its date (qm-quote-store.h).
 * Nothing here goes to the network.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-quote-store.h"

static int
rates_list (QmStore    *store,
            const char *currency,
            gboolean    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rates = qm_quote_store_list_rates (store, currency, &error);
  g_autoptr(JsonBuilder) b = json_builder_new ();

  if (rates == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  if (!json)
    qm_cli_print ("%s %s %s %s\n", qm_cli_cell (_("Currency"), -8), qm_cli_cell (_("Date"), -10),
                  qm_cli_cell (_("Per US dollar"), 16), _("Source"));
  qm_cli_json_begin_list (b, "rates");
  for (guint i = 0; i < rates->len; i++)
    {
      const QmExchangeRate *r = rates->pdata[i];
      char date[11];

      qm_quote_date_format (&r->date, date);
      if (!json)
        {
          qm_cli_print ("%s %s %s %s\n", qm_cli_cell (r->currency, -8), qm_cli_cell (date, -10),
                        qm_cli_cell (qm_cli_num (r->rate_per_usd, 6), 16), r->source);
          continue;
        }
      json_builder_begin_object (b);
      qm_cli_json_string (b, "currency", r->currency);
      json_builder_set_member_name (b, "rate_per_usd");
      json_builder_add_double_value (b, r->rate_per_usd);
      qm_cli_json_string (b, "date", date);
      qm_cli_json_string (b, "source", r->source);
      json_builder_end_object (b);
    }
  qm_cli_json_end_list (b);
  if (json)
    qm_cli_print_json (b);
  return QM_CLI_OK;
}

static int
rates_import (QmStore    *store,
              const char *path)
{
  g_autoptr(GError) error = NULL;
  int n = qm_quote_store_import_rates_file (store, path, &error);

  if (n < 0)
    {
      g_auto(GStrv) lines = g_strsplit (error->message, "\n", -1);

      /* One bad row a line, as "FILE:LINE: column: problem". */
      for (guint i = 0; lines[i] != NULL; i++)
        qm_cli_error ("%s", lines[i]);
      return QM_CLI_INPUT;
    }
  /* Translators: after rates import; %d is a count, %s the database. */
  qm_cli_print (_("Exchange rates imported into %s: %d\n"), qm_store_path (store), n);
  return QM_CLI_OK;
}

/* rates add CURRENCY RATE DATE [SOURCE]: one rate typed in, checked as an
 * imported row would be. */
static int
rates_add (QmStore     *store,
           const char **args,
           guint        n_args)
{
  g_autoptr(GError) error = NULL;
  QmExchangeRate rate = { 0 };
  char *end = NULL;

  g_strlcpy (rate.currency, args[0], sizeof rate.currency);
  rate.rate_per_usd = g_ascii_strtod (args[1], &end);
  if (end == args[1] || *end != '\0')
    {
      qm_cli_error (_("rates add: RATE must be a number > 0 (got '%s')"), args[1]);
      return QM_CLI_USAGE;
    }
  if (!qm_quote_date_parse (args[2], &rate.date))
    {
      qm_cli_error (_("rates add: the date must be YYYY-MM-DD (got '%s')"), args[2]);
      return QM_CLI_USAGE;
    }
  rate.source = (char *) (n_args > 3 ? args[3] : "");
  if (strlen (args[0]) != 3 || !qm_quote_store_set_rate (store, &rate, &error))
    {
      qm_cli_error ("%s", error != NULL ? error->message : _("rates add: CURRENCY must be an ISO 4217 code"));
      return QM_CLI_INPUT;
    }
  return QM_CLI_OK;
}

int
qm_cli_rates (int    argc,
              char **argv)
{
  g_autoptr(QmStore) store = NULL;
  const char *sub = argc > 1 ? argv[1] : NULL;
  const char *currency = NULL;
  const char *args[4] = { NULL, };
  guint n_args = 0, min_args, max_args;
  gboolean json = FALSE;

  if (g_strcmp0 (sub, "list") == 0)
    min_args = max_args = 0;
  else if (g_strcmp0 (sub, "import") == 0)
    min_args = max_args = 1;
  else if (g_strcmp0 (sub, "add") == 0)
    min_args = 3, max_args = 4;
  else
    {
      qm_cli_error (_("rates: missing or unknown subcommand; usage: %s"), qm_cli_synopsis ("rates"));
      return QM_CLI_USAGE;
    }
  for (int i = 2; i < argc; i++)
    {
      const char *value = NULL;

      if (strcmp (argv[i], "--json") == 0 && g_str_equal (sub, "list"))
        json = TRUE;
      else if (g_str_equal (sub, "list") && qm_cli_option_value (argc, argv, &i, "--currency", &value))
        {
          if (value == NULL)
            {
              qm_cli_error ("%s", _("rates list: --currency needs a code such as EUR"));
              return QM_CLI_USAGE;
            }
          currency = value;
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        {
          qm_cli_error (_("rates %s: unknown option '%s'; usage: %s"), sub, argv[i], qm_cli_synopsis ("rates"));
          return QM_CLI_USAGE;
        }
      else if (n_args < max_args)
        args[n_args++] = argv[i];
      else
        {
          qm_cli_error (_("rates %s: unexpected '%s'; usage: %s"), sub, argv[i], qm_cli_synopsis ("rates"));
          return QM_CLI_USAGE;
        }
    }
  if (n_args < min_args)
    {
      qm_cli_error (_("rates %s: missing arguments; usage: %s"), sub, qm_cli_synopsis ("rates"));
      return QM_CLI_USAGE;
    }

  store = qm_cli_open_store (g_str_equal (sub, "list") ? QM_CLI_STORE_READ : QM_CLI_STORE_WRITE);
  if (store == NULL)
    return QM_CLI_INPUT;
  if (g_str_equal (sub, "list"))
    return rates_list (store, currency, json);
  if (g_str_equal (sub, "import"))
    return rates_import (store, args[0]);
  return rates_add (store, args, n_args);
}
