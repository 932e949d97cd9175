/* qm-quote-store-rates.c: the exchange-rate table of qm-quote-store.h:
 * units of a currency per US dollar from a date on, each with its source,
 * entered one by one or imported from CSV (all or nothing). Nothing here
 * goes to the network.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-csv.h"
#include "qm-quote-store-private.h"


void
qm_exchange_rate_free (QmExchangeRate *rate)
{
  if (rate == NULL)
    return;
  g_free (rate->source);
  g_free (rate);
}

/* NULL when @rate is sound; else the problem, and *column the field. */
static const char *
check_rate (const QmExchangeRate  *rate,
            const char           **column)
{
  *column = NULL;
  if (!qm_currency_code_valid (rate->currency))
    *column = "currency";
  else if (!isfinite (rate->rate_per_usd) || rate->rate_per_usd <= 0)
    *column = "rate_per_usd";
  else if (!g_date_valid (&rate->date))
    *column = "date";
  else
    return NULL;
  return g_str_equal (*column, "currency") ? _("must be an ISO 4217 code such as EUR")
         : g_str_equal (*column, "date") ? _("must be a date as YYYY-MM-DD")
         : _("must be a number > 0 (units of the currency per US dollar)");
}

static gboolean
insert_rate (QmStore              *store,
             QmDbStmt             *stmt,
             const QmExchangeRate *rate,
             GError              **error)
{
  char date[11];

  qm_quote_date_format (&rate->date, date);
  qm_db_reset (stmt);
  qm_db_bind_text (stmt, 1, rate->currency);
  qm_db_bind_text (stmt, 2, date);
  qm_db_bind_double (stmt, 3, rate->rate_per_usd);
  qm_db_bind_text (stmt, 4, rate->source != NULL ? rate->source : "");
  /* Translators: a currency code (EUR), then a date (2026-01-31). */
  if (!qm_store_query_done (store, stmt, error, _("Could not save the %s rate of %s"),
                            rate->currency, date))
    return FALSE;
  return TRUE;
}

static QmDbStmt *
prepare_insert_rate (QmStore  *store,
                     GError  **error)
{
  return qm_store_query (store,
                         "INSERT INTO exchange_rate (currency, date, rate_per_usd, source)"
                         " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (currency, date) DO UPDATE"
                         " SET rate_per_usd = excluded.rate_per_usd, source = excluded.source",
                         error);
}

gboolean
qm_quote_store_set_rate (QmStore               *store,
                         const QmExchangeRate  *rate,
                         GError               **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  const char *column = NULL;
  const char *problem = check_rate (rate, &column);

  if (problem != NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: a field's key (currency, rate_per_usd, date), which
                    * stays as it is, then its problem ("must be a date as YYYY-MM-DD"). */
                   _("Could not save the exchange rate: %s %s"), column, problem);
      return FALSE;
    }
  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_CATALOG, _("Could not save the exchange rate"),
                             error))
    return FALSE;
  stmt = prepare_insert_rate (store, error);
  return stmt != NULL && insert_rate (store, stmt, rate, error) &&
         qm_store_notify (store, QM_STORE_CHANGE_QUOTES, error);
}

/* Prepares @sql with ?1 bound to @currency and ?2 to @date, written into
 * @iso as well for the caller's messages. */
static QmDbStmt *
query_currency_date (QmStore      *store,
                     const char   *sql,
                     const char   *currency,
                     const GDate  *date,
                     char          iso[11],
                     GError      **error)
{
  QmDbStmt *stmt;

  qm_quote_date_format (date, iso);
  if ((stmt = qm_store_query (store, sql, error)) == NULL)
    return NULL;
  qm_db_bind_text (stmt, 1, currency);
  qm_db_bind_text (stmt, 2, iso);
  return stmt;
}

gboolean
qm_quote_store_delete_rate (QmStore      *store,
                            const char   *currency,
                            const GDate  *date,
                            GError      **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  char iso[11];

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_CATALOG, _("Could not delete the exchange rate"),
                             error))
    return FALSE;
  stmt = query_currency_date (store, "DELETE FROM exchange_rate WHERE currency = ?1 AND date = ?2",
                              currency, date, iso, error);
  if (stmt == NULL)
    return FALSE;
  /* Translators: a currency code (EUR), then a date (2026-01-31). */
  if (!qm_store_query_done (store, stmt, error, _("Could not delete the %s rate of %s"),
                            currency, iso))
    return FALSE;
  if (qm_db_changes (qm_store_connection (store)) == 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   /* Translators: a currency code (EUR), a date (2026-01-31), and the
                    * database file or server. */
                   _("No %s rate of %s in %s"), currency, iso, qm_store_path (store));
      return FALSE;
    }
  return qm_store_notify (store, QM_STORE_CHANGE_QUOTES, error);
}

static gpointer
rate_from_row (QmDbStmt *stmt,
                gpointer  user_data)
{
  QmExchangeRate *rate = g_new0 (QmExchangeRate, 1);

  g_strlcpy (rate->currency, qm_db_column_text (stmt, 0), sizeof rate->currency);
  rate->rate_per_usd = qm_db_column_double (stmt, 1);
  qm_quote_date_parse (qm_db_column_text (stmt, 2), &rate->date);
  rate->source = qm_db_column_dup (stmt, 3);
  return rate;
}

GPtrArray *
qm_quote_store_list_rates (QmStore     *store,
                           const char  *currency,
                           GError     **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;

  /* The cast gives PostgreSQL the type of a NULL ?1. */
  stmt = qm_store_query (store, "SELECT currency, rate_per_usd, date, source FROM exchange_rate"
                                " WHERE CAST (?1 AS TEXT) IS NULL OR currency = ?1"
                                " ORDER BY currency, date DESC", error);
  if (stmt == NULL)
    return NULL;
  qm_db_bind_text (stmt, 1, currency);
  return qm_quote_store_collect (store, stmt, rate_from_row, (GDestroyNotify) qm_exchange_rate_free, NULL,
                                 _("Could not list the exchange rates"), error);
}

QmExchangeRate *
qm_quote_store_find_rate (QmStore      *store,
                          const char   *currency,
                          const GDate  *date,
                          GError      **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  char iso[11];
  QmDbStep step;

  stmt = query_currency_date (store, "SELECT currency, rate_per_usd, date, source FROM exchange_rate"
                                     " WHERE currency = ?1 AND date <= ?2 ORDER BY date DESC LIMIT 1",
                              currency, date, iso, error);
  if (stmt == NULL)
    return NULL;
  step = qm_db_step (stmt);
  if (step == QM_DB_STEP_ROW)
    return rate_from_row (stmt, NULL);
  if (step == QM_DB_STEP_DONE)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                 /* Translators: a currency code (EUR), a date (2026-01-31), and the
                  * database file or server. */
                 _("No exchange rate for %s on or before %s in %s; add one to the rate table"),
                 currency, iso, qm_store_path (store));
  else
    /* Translators: a currency code (EUR), then a date (2026-01-31). */
    qm_store_db_fail (store, error, _("Could not look up the %s rate of %s"), currency, iso);
  return NULL;
}

enum { COL_CURRENCY, COL_RATE, COL_DATE, COL_SOURCE, N_COLS };
static const char *rate_columns[N_COLS] = { "currency", "rate_per_usd", "date", "source" };

/* Maps each column of the header to its field; FALSE with the problem. */
static gboolean
read_rate_header (const QmCsvRecord  *header,
                  int                 where[N_COLS],
                  GString            *problems,
                  const char         *name)
{
  for (int c = 0; c < N_COLS; c++)
    where[c] = -1;
  for (guint i = 0; i < header->fields->len; i++)
    {
      g_autofree char *field = g_strstrip (g_ascii_strdown (header->fields->pdata[i], -1));
      int c;

      for (c = 0; c < N_COLS && strcmp (field, rate_columns[c]) != 0; c++)
        ;
      if (c == N_COLS)
        /* Translators: the file, the line, the column's number and its
         * header; the expected header names stay as they are. */
        g_string_append_printf (problems, _("%s:%u: column %u: unknown column '%s'; expected "
                                            "currency,rate_per_usd,date,source\n"),
                                name, header->line, i + 1, (const char *) header->fields->pdata[i]);
      else if (where[c] >= 0)
        /* Translators: the file, the line, the column's number and its
         * header; the expected header names stay as they are. */
        g_string_append_printf (problems, _("%s:%u: column %u: repeated column '%s'; expected "
                                            "currency,rate_per_usd,date,source\n"),
                                name, header->line, i + 1, (const char *) header->fields->pdata[i]);
      else
        where[c] = (int) i;
    }
  for (int c = 0; c < COL_SOURCE; c++)
    if (where[c] < 0)
      /* Translators: the file, the line, and a column's name, which stays
       * as it is. */
      g_string_append_printf (problems, _("%s:%u: the column %s is missing\n"), name, header->line,
                              rate_columns[c]);
  return problems->len == 0;
}

/* One row into @rate; appends "FILE:LINE: column: problem" otherwise. */
static gboolean
read_rate_row (const QmCsvRecord *row,
               const int          where[N_COLS],
               char               decimal_mark,
               QmExchangeRate    *rate,
               GString           *problems,
               const char        *name)
{
  const char *value[N_COLS] = { NULL, };
  const char *column = NULL, *problem;

  for (int c = 0; c < N_COLS; c++)
    if (where[c] >= 0 && (guint) where[c] < row->fields->len)
      value[c] = row->fields->pdata[where[c]];
  for (int c = 0; c < COL_SOURCE; c++)
    if (value[c] == NULL || value[c][0] == '\0')
      {
        /* Translators: the file, the line, and a column's name, which stays
         * as it is. */
        g_string_append_printf (problems, _("%s:%u: %s: missing\n"), name, row->line,
                                rate_columns[c]);
        return FALSE;
      }

  g_strlcpy (rate->currency, value[COL_CURRENCY], sizeof rate->currency);
  if (strlen (value[COL_CURRENCY]) != 3)
    rate->currency[0] = '\0';
  if (!qm_csv_parse_number (value[COL_RATE], decimal_mark, &rate->rate_per_usd))
    rate->rate_per_usd = NAN;
  g_date_clear (&rate->date, 1);
  qm_quote_date_parse (value[COL_DATE], &rate->date);
  g_free (rate->source);
  rate->source = g_strdup (value[COL_SOURCE] != NULL ? value[COL_SOURCE] : "");

  problem = check_rate (rate, &column);
  if (problem == NULL)
    return TRUE;
  for (int c = 0; c < N_COLS; c++)
    if (strcmp (column, rate_columns[c]) == 0)
      /* Translators: the file, the line, a column's name, its problem
       * ("must be a date as YYYY-MM-DD") and the cell as the file has it. */
      g_string_append_printf (problems, _("%s:%u: %s: %s (got '%s')\n"), name, row->line, column,
                              problem, value[c]);
  return FALSE;
}

int
qm_quote_store_import_rates_data (QmStore     *store,
                                  const char  *data,
                                  gsize        length,
                                  const char  *name,
                                  GError     **error)
{
  const char *what = _("Could not import the exchange rates");
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) rates = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_exchange_rate_free);
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autoptr(GError) local = NULL;
  QmCsvDialect dialect = { 0 };
  int where[N_COLS];

  /* As spreadsheets write it: ';' and "0,92" from a German Excel. */
  records = qm_csv_read (data, length, &dialect, &local);
  if (records == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("%s: %s"), name, local->message);
      return -1;
    }
  if (read_rate_header (records->pdata[0], where, problems, name))
    for (guint i = 1; i < records->len; i++)
      {
        g_autoptr(QmExchangeRate) rate = g_new0 (QmExchangeRate, 1);

        if (read_rate_row (records->pdata[i], where, dialect.decimal_mark, rate, problems, name))
          g_ptr_array_add (rates, g_steal_pointer (&rate));
      }
  if (problems->len > 0)
    {
      g_string_truncate (problems, problems->len - 1);
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: what failed ("Could not import the exchange rates"),
                    * then the problems, one a line. */
                   _("%s (nothing was imported):\n%s"), what, problems->str);
      return -1;
    }

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_CATALOG, what, error) ||
      !qm_store_begin (store, what, error))
    return -1;
  stmt = prepare_insert_rate (store, error);
  for (guint i = 0; stmt != NULL && i < rates->len; i++)
    if (!insert_rate (store, stmt, rates->pdata[i], error))
      g_clear_pointer (&stmt, qm_db_stmt_free);
  if (stmt != NULL && !qm_store_notify (store, QM_STORE_CHANGE_QUOTES, error))
    g_clear_pointer (&stmt, qm_db_stmt_free);
  if (stmt == NULL)
    {
      qm_store_rollback (store);
      return -1;
    }
  return qm_store_commit (store, what, error) ? (int) rates->len : -1;
}

int
qm_quote_store_import_rates_file (QmStore     *store,
                                  const char  *path,
                                  GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, error))
    return -1;
  return qm_quote_store_import_rates_data (store, data, length, path, error);
}
