/* test-quote-store.c: quote numbers from the store's sequence and pattern,
 * revisions that never change, exchange rates by date and their CSV
 * import, and a revision that reads the same after the catalog changed
 * and the database was closed and opened again (issue #22).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-db.h"
#include "qm-quote-store.h"
#include "qm-store-private.h"
#include "qm-supplier-store.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* A fresh database on the test's engine: a URI or a file path. */
static char *
fresh_location (gconstpointer engine)
{
  if (GPOINTER_TO_INT (engine) == QM_DB_POSTGRESQL)
    return qm_test_pg_new_database (cluster);
  return qm_test_db_path ();
}

/* The test's store, fresh, on its engine. */
static QmStore *
open_fresh (gconstpointer engine)
{
  g_autofree char *location = fresh_location (engine);

  return qm_test_open_store_at (location);
}

/* A saved plan quoted in euros, with no exchange rate of its own. */
static gint64
save_plan (QmStore    *store,
           const char *name,
           const char *customer)
{
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, customer, 1.0e8);
  g_autoptr(GError) error = NULL;
  g_autofree char *inputs = plan->inputs;
  gsize n = strlen (inputs);

  g_assert_cmpint (inputs[n - 1], ==, '}');
  inputs[n - 1] = '\0';
  plan->inputs = g_strconcat (inputs, ", \"quote\": {\"currency\": \"EUR\", \"tax_rate\": 0.19,"
                              " \"deposit_fraction\": 0.3, \"payment_days\": 30, \"lead_weeks\": 12,"
                              " \"phase_interval_months\": 1, \"valid_days\": 30}}", NULL);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  return plan->id;
}

static void
set_rate (QmStore    *store,
          const char *currency,
          double      rate_per_usd,
          const char *date)
{
  g_autoptr(GError) error = NULL;
  QmExchangeRate rate = { .rate_per_usd = rate_per_usd, .source = (char *) "ECB reference rate" };

  g_strlcpy (rate.currency, currency, sizeof rate.currency);
  g_assert_true (qm_quote_date_parse (date, &rate.date));
  g_assert_true (qm_quote_store_set_rate (store, &rate, &error));
  g_assert_no_error (error);
}

static QmQuoteRevision *
save_revision (QmStore    *store,
               gint64      plan_id,
               const char *date,
               const char *note)
{
  g_autoptr(GError) error = NULL;
  QmQuoteRequest req = { .plan_id = plan_id, .note = note };
  QmQuoteRevision *rev;

  g_assert_true (qm_quote_date_parse (date, &req.issued));
  rev = qm_quote_store_save_revision (store, &req, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rev);
  return rev;
}

static void
test_number_pattern (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL, *b = NULL, *bad = NULL, *none = NULL;
  g_autofree char *l1 = qm_quote_revision_letter (1), *l2 = qm_quote_revision_letter (2);
  g_autofree char *l26 = qm_quote_revision_letter (26), *l27 = qm_quote_revision_letter (27);
  GDate d;

  g_assert_true (qm_quote_date_parse ("2026-03-05", &d));
  a = qm_quote_format_number (QM_QUOTE_DEFAULT_PATTERN, &d, 42, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (a, ==, "Q-2026-0042");
  b = qm_quote_format_number ("ACME/{YY}{MM}/{N}", &d, 12345, &error);
  g_assert_cmpstr (b, ==, "ACME/2603/12345");

  /* No sequence: every quote would get the same number. */
  none = qm_quote_format_number ("Q-{YYYY}", &d, 1, &error);
  g_assert_null (none);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);
  bad = qm_quote_format_number ("Q-{DD}-{NNN}", &d, 1, &error);
  g_assert_null (bad);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "{DD}"));

  g_assert_cmpstr (l1, ==, "A");
  g_assert_cmpstr (l2, ==, "B");
  g_assert_cmpstr (l26, ==, "Z");
  g_assert_cmpstr (l27, ==, "AA");
  g_assert_false (qm_quote_date_parse ("2026-02-30", &d));
  g_assert_false (qm_quote_date_parse ("2026-2-3", &d));
}

static void
test_sequence (gconstpointer engine)
{
  g_autoptr(QmStore) store = open_fresh (engine);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmQuoteRevision) a = NULL, b = NULL, other = NULL, acme = NULL, jump = NULL;
  g_autoptr(GPtrArray) letters = NULL;
  g_autofree char *pattern = qm_quote_store_get_pattern (store);
  gint64 plan = save_plan (store, "Acme 70B", "Acme Corp");
  gint64 plan2 = save_plan (store, "Initech 70B", "Initech");
  gint64 plan3 = save_plan (store, "Umbrella 70B", "Umbrella");

  g_assert_cmpstr (pattern, ==, "Q-{YYYY}-{NNNN}");
  set_rate (store, "EUR", 0.92, "2026-01-01");

  a = save_revision (store, plan, "2026-11-25", NULL);
  g_assert_cmpstr (a->number, ==, "Q-2026-0001");
  g_assert_cmpstr (a->revision, ==, "A");
  g_assert_cmpstr (a->customer, ==, "Acme Corp");
  g_assert_cmpstr (a->project, ==, "Acme 70B");
  g_assert_cmpuint (a->valid_days, ==, 30);
  g_assert_cmpstr (a->catalog_version, ==, qm_catalog_version ());

  /* The same plan again: its next revision, not a new number. */
  b = save_revision (store, plan, "2026-11-30", "Servers 5 % cheaper");
  g_assert_cmpstr (b->number, ==, "Q-2026-0001");
  g_assert_cmpstr (b->revision, ==, "B");
  g_assert_cmpstr (b->note, ==, "Servers 5 % cheaper");
  letters = qm_quote_store_list_revisions (store, "Q-2026-0001", &error);
  g_assert_cmpuint (letters->len, ==, 2);

  other = save_revision (store, plan2, "2026-11-25", NULL);
  g_assert_cmpstr (other->number, ==, "Q-2026-0002");
  g_assert_cmpuint (qm_quote_store_get_sequence (store), ==, 2);

  g_assert_true (qm_quote_store_set_pattern (store, "ACME/{YY}/{NNN}", &error));
  g_assert_no_error (error);
  g_assert_false (qm_quote_store_set_pattern (store, "ACME", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);
  /* Never back to a number handed out. */
  g_assert_false (qm_quote_store_set_sequence (store, 2, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (qm_quote_store_set_sequence (store, 100, &error));
  g_assert_no_error (error);
  jump = save_revision (store, plan3, "2027-01-04", NULL);
  g_assert_cmpstr (jump->number, ==, "ACME/27/100");
}

/* Revisions are frozen: SQL cannot change or remove one either. */
static void
test_immutable (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(QmQuoteRevision) a = NULL, again = NULL;
  g_autoptr(GError) error = NULL;
  gint64 plan = save_plan (store, "Acme 70B", "Acme Corp");
  sqlite3 *db = qm_store_db (store);
  char *msg = NULL;

  set_rate (store, "EUR", 0.92, "2026-01-01");
  a = save_revision (store, plan, "2026-11-25", NULL);

  g_assert_cmpint (sqlite3_exec (db, "UPDATE quote_revision SET gross = 1", NULL, NULL, &msg), ==,
                   SQLITE_CONSTRAINT);
  g_assert_nonnull (strstr (msg, "never changed"));
  sqlite3_free (msg);
  g_assert_cmpint (sqlite3_exec (db, "DELETE FROM quote_revision", NULL, NULL, &msg), ==, SQLITE_CONSTRAINT);
  g_assert_nonnull (strstr (msg, "never removed"));
  sqlite3_free (msg);

  /* The quote's state may change; its revision stays as it was. */
  g_assert_true (qm_quote_store_set_state (store, a->number, QM_QUOTE_STATE_SENT, &error));
  g_assert_no_error (error);
  again = qm_quote_store_load_revision (store, a->number, "A", &error);
  g_assert_no_error (error);
  g_assert_cmpint (again->state, ==, QM_QUOTE_STATE_SENT);
  g_assert_cmpstr (again->quote_json, ==, a->quote_json);
  g_assert_false (qm_quote_store_set_state (store, "Q-1999-0001", QM_QUOTE_STATE_SENT, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
}

static void
test_rate_lookup (gconstpointer engine)
{
  g_autoptr(QmStore) store = open_fresh (engine);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmExchangeRate) may = NULL, june = NULL, none = NULL;
  g_autoptr(QmQuoteRevision) rev = NULL, failed = NULL;
  g_autoptr(GPtrArray) all = NULL;
  gint64 plan = save_plan (store, "Acme 70B", "Acme Corp");
  QmQuoteRequest req = { .plan_id = plan };
  GDate d;
  char iso[11];

  set_rate (store, "EUR", 0.90, "2026-01-01");
  set_rate (store, "EUR", 0.93, "2026-06-01");
  set_rate (store, "GBP", 0.79, "2026-06-01");
  set_rate (store, "EUR", 0.94, "2026-06-01");   /* replaces that day's */

  qm_quote_date_parse ("2026-05-31", &d);
  may = qm_quote_store_find_rate (store, "EUR", &d, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (may->rate_per_usd, ==, 0.90);
  qm_quote_date_parse ("2026-06-01", &d);
  june = qm_quote_store_find_rate (store, "EUR", &d, &error);
  g_assert_cmpfloat (june->rate_per_usd, ==, 0.94);
  g_assert_cmpstr (june->source, ==, "ECB reference rate");
  qm_quote_date_parse ("2025-12-31", &d);
  none = qm_quote_store_find_rate (store, "EUR", &d, &error);
  g_assert_null (none);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  all = qm_quote_store_list_rates (store, NULL, &error);
  g_assert_cmpuint (all->len, ==, 3);

  /* A quote before the first rate: the error names currency and date. */
  req.issued = d;
  failed = qm_quote_store_save_revision (store, &req, &error);
  g_assert_null (failed);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "EUR"));
  g_assert_nonnull (strstr (error->message, "2025-12-31"));
  g_clear_error (&error);
  g_clear_pointer (&all, g_ptr_array_unref);
  all = qm_quote_store_list (store, NULL, NULL, &error);
  g_assert_cmpuint (all->len, ==, 0);

  rev = save_revision (store, plan, "2026-07-15", NULL);
  g_assert_cmpfloat (rev->exchange_rate, ==, 0.94);
  g_assert_cmpfloat (rev->quote->exchange_rate, ==, 0.94);
  qm_quote_date_format (&rev->rate_date, iso);
  g_assert_cmpstr (iso, ==, "2026-06-01");
  g_assert_cmpstr (rev->rate_source, ==, "ECB reference rate");
  g_assert_cmpstr (rev->quote->currency, ==, "EUR");
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *terms;

    g_assert_true (json_parser_load_from_data (parser, rev->terms_json, -1, NULL));
    terms = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpfloat (json_object_get_double_member (terms, "exchange_rate"), ==, 0.94);
    g_assert_cmpstr (json_object_get_string_member (terms, "currency"), ==, "EUR");
  }

  qm_quote_date_parse ("2026-06-01", &d);
  g_assert_true (qm_quote_store_delete_rate (store, "GBP", &d, &error));
  g_assert_no_error (error);
  g_assert_false (qm_quote_store_delete_rate (store, "GBP", &d, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
}

static const char bad_csv[] =
  "currency,rate_per_usd,date,source\n"
  "EUR,0.92,2026-01-02,ECB\n"
  "GBP,lots,2026-01-02,BoE\n"
  "JPY,151.2,2026-02-30,BoJ\n"
  "eur,0.91,2026-01-03,ECB\n"
  "CHF,0.88\n";

static void
test_import (gconstpointer engine)
{
  g_autoptr(QmStore) store = open_fresh (engine);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rates = NULL;
  static const char good[] = "Currency,Date,Rate_per_USD\nEUR,2026-01-02,0.92\nJPY,2026-01-02,151.2\n";
  int n;

  n = qm_quote_store_import_rates_data (store, bad_csv, sizeof bad_csv - 1, "rates.csv", &error);
  g_assert_cmpint (n, ==, -1);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "rates.csv:3: rate_per_usd: must be a number > 0"));
  g_assert_nonnull (strstr (error->message, "(got 'lots')"));
  g_assert_nonnull (strstr (error->message, "rates.csv:4: date:"));
  g_assert_nonnull (strstr (error->message, "rates.csv:5: currency:"));
  g_assert_nonnull (strstr (error->message, "rates.csv:6: date: missing"));
  g_assert_null (strstr (error->message, "rates.csv:2:"));
  g_clear_error (&error);
  /* All or nothing: the good row was not written either. */
  rates = qm_quote_store_list_rates (store, NULL, &error);
  g_assert_cmpuint (rates->len, ==, 0);
  g_clear_pointer (&rates, g_ptr_array_unref);

  n = qm_quote_store_import_rates_data (store, "currency,rate\nEUR,1\n", 20, "r.csv", &error);
  g_assert_cmpint (n, ==, -1);
  g_assert_nonnull (strstr (error->message, "r.csv:1: column 2: unknown column 'rate'"));
  g_assert_nonnull (strstr (error->message, "the column rate_per_usd is missing"));
  g_clear_error (&error);

  /* Columns in any order, any case; source optional. */
  n = qm_quote_store_import_rates_data (store, good, sizeof good - 1, "good.csv", &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, 2);
  rates = qm_quote_store_list_rates (store, "JPY", &error);
  g_assert_cmpuint (rates->len, ==, 1);
  g_assert_cmpfloat (((QmExchangeRate *) rates->pdata[0])->rate_per_usd, ==, 151.2);
}

/* Rates as German Excel saves them: ';', decimal commas, CRLF and a
 * Windows-1252 "ü". */
static void
test_import_german_excel (gconstpointer engine)
{
  static const char de[] = "currency;rate_per_usd;date;source\r\n"
                           "CHF;0,88;2026-01-02;SNB Z\xfcrich\r\n"
                           "JPY;151,2;2026-01-02;BoJ\r\n";
  g_autoptr(QmStore) store = open_fresh (engine);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rates = NULL;
  QmExchangeRate *chf;

  g_assert_cmpint (qm_quote_store_import_rates_data (store, de, sizeof de - 1, "kurse.csv", &error), ==, 2);
  g_assert_no_error (error);
  rates = qm_quote_store_list_rates (store, "CHF", &error);
  g_assert_cmpuint (rates->len, ==, 1);
  chf = rates->pdata[0];
  g_assert_cmpfloat (chf->rate_per_usd, ==, 0.88);
  g_assert_cmpstr (chf->source, ==, "SNB Zürich");
  g_clear_pointer (&rates, g_ptr_array_unref);
  rates = qm_quote_store_list_rates (store, "JPY", &error);
  g_assert_cmpfloat (((QmExchangeRate *) rates->pdata[0])->rate_per_usd, ==, 151.2);
}

/* Revision A after the catalog's price changed and the file was closed
 * and opened again: the same totals and the same JSON; revision B takes
 * the new price. */
static void
test_reopen (void)
{
  g_autoptr(QmQuoteRevision) a = NULL, again = NULL, b = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  QmQuoteState sent = QM_QUOTE_STATE_SENT;
  gint64 plan;

  {
    g_autoptr(QmStore) store = qm_test_open_store ();

    plan = save_plan (store, "Acme 70B", "Acme Corp");
    save_plan (store, "Initech 70B", "Initech");
    set_rate (store, "EUR", 0.92, "2026-01-01");
    a = save_revision (store, plan, "2026-11-25", NULL);
    g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_SERVER, "dgx-h100",
                                                        500000, &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr(QmStore) store = qm_test_open_store ();

    again = qm_quote_store_load_revision (store, "Q-2026-0001", "A", &error);
    g_assert_no_error (error);
    g_assert_cmpint (again->quote->gross, ==, a->quote->gross);
    g_assert_cmpint (again->quote->net, ==, a->quote->net);
    g_assert_cmpstr (again->quote_json, ==, a->quote_json);
    g_assert_cmpstr (again->plan_json, ==, a->plan_json);

    b = save_revision (store, plan, "2026-12-01", "New server price");
    g_assert_cmpstr (b->revision, ==, "B");
    g_assert_cmpint (b->quote->gross, >, a->quote->gross);

    list = qm_quote_store_list (store, "acme", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (list->len, ==, 1);
    g_assert_cmpstr (((QmQuoteSummary *) list->pdata[0])->revision, ==, "B");
    g_assert_cmpint (((QmQuoteSummary *) list->pdata[0])->gross, ==, b->quote->gross);
    g_clear_pointer (&list, g_ptr_array_unref);
    list = qm_quote_store_list (store, NULL, &sent, &error);
    g_assert_cmpuint (list->len, ==, 0);
  }
}

/* Another program holds the write lock: saving fails as LOCKED, naming
 * the file, and writes nothing. */
static void
test_locked (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmQuoteRevision) rev = NULL;
  g_autoptr(GPtrArray) list = NULL;
  gint64 plan = save_plan (store, "Acme 70B", "Acme Corp");
  QmQuoteRequest req = { .plan_id = plan };
  sqlite3 *other = NULL;
  static const char csv[] = "currency,rate_per_usd,date\nEUR,0.9,2026-01-01\n";

  set_rate (store, "EUR", 0.92, "2026-01-01");
  qm_quote_date_parse ("2026-11-25", &req.issued);
  g_assert_cmpint (sqlite3_open (qm_store_path (store), &other), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (other, "BEGIN IMMEDIATE", NULL, NULL, NULL), ==, SQLITE_OK);
  qm_store_set_busy_timeout (store, 20);

  rev = qm_quote_store_save_revision (store, &req, &error);
  g_assert_null (rev);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_LOCKED);
  g_assert_nonnull (strstr (error->message, qm_store_path (store)));
  g_clear_error (&error);
  g_assert_cmpint (qm_quote_store_import_rates_data (store, csv, sizeof csv - 1, "r.csv", &error), ==, -1);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_LOCKED);
  g_clear_error (&error);

  sqlite3_exec (other, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close (other);
  list = qm_quote_store_list (store, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 0);
  g_assert_cmpuint (qm_quote_store_get_sequence (store), ==, 0);
}

/* On the server the schema's triggers refuse a changed or removed
 * revision too, to any client that bypasses the store; a revision reads
 * the same over a new connection, and a quote's state still changes. */
static void
test_immutable_pg (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmQuoteRevision) a = NULL, again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDb) db = NULL;

  {
    g_autoptr(QmStore) store = qm_test_open_store_at (uri);
    gint64 plan = save_plan (store, "Acme 70B", "Acme Corp");

    set_rate (store, "EUR", 0.92, "2026-01-01");
    a = save_revision (store, plan, "2026-11-25", NULL);
    g_assert_true (qm_quote_store_set_state (store, a->number, QM_QUOTE_STATE_SENT, &error));
    g_assert_no_error (error);
  }

  db = qm_db_open (uri, QM_DB_OPEN_NONE, &error);
  g_assert_no_error (error);
  g_assert_false (qm_db_exec (db, "UPDATE quote_revision SET gross = 1", &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "never changed"));
  g_clear_error (&error);
  g_assert_false (qm_db_exec (db, "UPDATE quote_revision SET quote = '{}', plan = '{}'", &error));
  g_assert_nonnull (strstr (error->message, "never changed"));
  g_clear_error (&error);
  g_assert_false (qm_db_exec (db, "DELETE FROM quote_revision", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "never removed"));
  g_clear_error (&error);
  /* Nor does removing the quote take its revisions with it. */
  g_assert_false (qm_db_exec (db, "DELETE FROM quote", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  {
    g_autoptr(QmStore) store = qm_test_open_store_at (uri);

    again = qm_quote_store_load_revision (store, a->number, "A", &error);
    g_assert_no_error (error);
    g_assert_cmpint (again->state, ==, QM_QUOTE_STATE_SENT);
    g_assert_cmpstr (again->quote_json, ==, a->quote_json);
    g_assert_cmpstr (again->plan_json, ==, a->plan_json);
    g_assert_cmpstr (again->terms_json, ==, a->terms_json);
    g_assert_cmpint (again->quote->gross, ==, a->quote->gross);
  }
}

/* Two clients quote at once on one store, each its own plans and now and
 * then the same shared plan. Every quote gets a number, no two the same,
 * with no gap in the sequence; the shared quote's revisions are lettered
 * A, B, C ... without a letter twice or missing. */
#define N_QUOTES 100

typedef struct
{
  const char *location;
  gint64      plans[N_QUOTES];
  gint64      shared;
  guint       revisions;
} QmQuoter;

static gpointer
quoter_run (gpointer data)
{
  QmQuoter *q = data;
  g_autoptr(QmStore) store = qm_test_open_store_at (q->location);

  for (guint i = 0; i < N_QUOTES; i++)
    {
      g_autoptr(QmQuoteRevision) rev = save_revision (store, q->plans[i], "2026-11-25", NULL);
      g_autoptr(QmQuoteRevision) shared = NULL;

      g_assert_cmpstr (rev->revision, ==, "A");
      if (i % 4 != 0)
        continue;
      shared = save_revision (store, q->shared, "2026-11-26", "again");
      q->revisions++;
    }
  return NULL;
}

static void
test_concurrent_numbers (gconstpointer engine)
{
  g_autofree char *location = fresh_location (engine);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GPtrArray) letters = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shared_number = NULL;
  QmQuoter quoters[2] = { { .location = location }, { .location = location } };
  GThread *threads[2];
  gint64 started;

  set_rate (store, "EUR", 0.92, "2026-01-01");
  quoters[0].shared = quoters[1].shared = save_plan (store, "Shared 70B", "Both");
  for (guint t = 0; t < 2; t++)
    for (guint i = 0; i < N_QUOTES; i++)
      {
        g_autofree char *name = g_strdup_printf ("%c plan %u", 'A' + t, i);

        quoters[t].plans[i] = save_plan (store, name, "Acme");
      }

  started = g_get_monotonic_time ();
  for (guint t = 0; t < 2; t++)
    threads[t] = g_thread_new ("quoter", quoter_run, &quoters[t]);
  for (guint t = 0; t < 2; t++)
    g_thread_join (threads[t]);
  g_test_message ("%s: %u quotes and %u revisions from 2 clients in %.0f ms",
                  GPOINTER_TO_INT (engine) == QM_DB_POSTGRESQL ? "PostgreSQL" : "SQLite",
                  2 * N_QUOTES, quoters[0].revisions + quoters[1].revisions,
                  (g_get_monotonic_time () - started) / 1000.0);

  list = qm_quote_store_list (store, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 2 * N_QUOTES + 1);
  for (guint i = 0; i < list->len; i++)
    {
      QmQuoteSummary *s = list->pdata[i];

      g_assert_false (g_hash_table_contains (seen, s->number));
      g_hash_table_add (seen, s->number);
    }
  /* No number lost: exactly Q-2026-0001 ... in the sequence. */
  for (guint n = 1; n <= list->len; n++)
    {
      g_autofree char *number = g_strdup_printf ("Q-2026-%04u", n);

      g_assert_true (g_hash_table_contains (seen, number));
    }
  g_assert_cmpuint (qm_quote_store_get_sequence (store), ==, list->len);

  shared_number = qm_quote_store_find_for_plan (store, quoters[0].shared, &error);
  g_assert_no_error (error);
  letters = qm_quote_store_list_revisions (store, shared_number, &error);
  g_assert_cmpuint (letters->len, ==, quoters[0].revisions + quoters[1].revisions);
  for (guint i = 0; i < letters->len; i++)
    {
      g_autofree char *letter = qm_quote_revision_letter (i + 1);

      g_assert_cmpstr (letters->pdata[i], ==, letter);
    }
}

/* Per-line terms through a revision (issue #35 item 1). A plan saved with
 * an older file's discount by catalog id (5 % on ib-ndr-400) and a line's
 * own 2 % on the cables: the revision prices the switches, storage
 * switches and transceivers at 5 % and the cables at 2 %, freezes each
 * line under its own key (no catalog-wide entry left in its plan), and
 * reads back from the store with the same lines. */
static const QmQuoteLine *
revision_line (const QmQuoteRevision *rev,
               const char            *key)
{
  const QmQuoteLine *l = qm_quote_find_line (rev->quote, key);

  g_assert_nonnull (l);
  return l;
}

static void
test_per_line_terms (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Fabric", "Acme Corp", 1.0e8);
  g_autoptr(QmQuoteRevision) a = NULL, again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *inputs = plan->inputs;
  gsize n = strlen (inputs);
  static const char *const at_five[] = {
    "compute-switches:ib-ndr-400", "storage-switches:ib-ndr-400", "transceivers:ib-ndr-400",
  };

  inputs[n - 1] = '\0';
  plan->inputs = g_strconcat (inputs, ", \"quote\": {\"currency\": \"USD\", \"exchange_rate\": 1,"
                              " \"discounts\": {\"ib-ndr-400\": 0.05},"
                              " \"lines\": {\"cables:ib-ndr-400\": {\"discount\": 0.02, \"vendor\": \"Cable Co\"}},"
                              " \"deposit_fraction\": 0.3, \"payment_days\": 30, \"lead_weeks\": 12,"
                              " \"phase_interval_months\": 1, \"valid_days\": 30}}", NULL);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  a = save_revision (store, plan->id, "2026-11-28", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (at_five); i++)
    g_assert_cmpfloat_with_epsilon (revision_line (a, at_five[i])->discount, 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (revision_line (a, "cables:ib-ndr-400")->discount, 0.02, 1e-12);
  g_assert_cmpstr (revision_line (a, "cables:ib-ndr-400")->vendor, ==, "Cable Co");
  /* Frozen per line: every entry has its key, none is catalog-wide. */
  g_assert_nonnull (strstr (a->plan_json, "\"compute-switches:ib-ndr-400\""));
  g_assert_null (strstr (a->plan_json, "\"discounts\""));
  g_assert_nonnull (strstr (a->terms_json, "\"lines\""));

  /* From the store again: the same lines, the same JSON. */
  again = qm_quote_store_load_revision (store, a->number, "A", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->quote_json, ==, a->quote_json);
  for (guint i = 0; i < G_N_ELEMENTS (at_five); i++)
    g_assert_cmpfloat_with_epsilon (revision_line (again, at_five[i])->discount, 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (revision_line (again, "cables:ib-ndr-400")->discount, 0.02, 1e-12);
  g_assert_cmpint (revision_line (again, "cables:ib-ndr-400")->net_unit, <,
                   revision_line (again, "cables:ib-ndr-400")->list_unit);
  /* The JSON names each line by its key too. */
  g_assert_nonnull (strstr (a->quote_json, "\"key\":\"cables:ib-ndr-400\""));
}

/* A revision frozen before lines had keys stored its JSON without them:
 * it still loads, and its figures are checked as before. (The test edits
 * the row as such a version wrote it, past the trigger that keeps
 * revisions as they were.) */
static void
test_revision_without_keys (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(QmQuoteRevision) a = NULL, again = NULL;
  g_autoptr(GError) error = NULL;
  gint64 plan = save_plan (store, "Acme 70B", "Acme Corp");
  sqlite3 *db = qm_store_db (store);
  g_autoptr(GRegex) keys = g_regex_new ("\"key\":(\"[^\"]*\"|null),", 0, 0, NULL);
  g_autofree char *old = NULL;
  sqlite3_stmt *stmt = NULL;

  set_rate (store, "EUR", 0.92, "2026-01-01");
  a = save_revision (store, plan, "2026-11-25", NULL);
  g_assert_nonnull (strstr (a->quote_json, "\"key\":"));
  old = g_regex_replace_literal (keys, a->quote_json, -1, 0, "", 0, NULL);
  g_assert_null (strstr (old, "\"key\":"));

  g_assert_cmpint (sqlite3_exec (db, "DROP TRIGGER quote_revision_frozen", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "UPDATE quote_revision SET quote = ?1", -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, old, -1, SQLITE_TRANSIENT);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);

  again = qm_quote_store_load_revision (store, a->number, "A", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->quote_json, ==, old);
  g_assert_cmpint (again->quote->gross, ==, a->quote->gross);

  /* Figures that moved are still caught. */
  g_clear_pointer (&again, qm_quote_revision_free);
  {
    g_autoptr(GRegex) gross = g_regex_new ("\"gross\":[0-9.]+", 0, 0, NULL);
    g_autofree char *moved = g_regex_replace_literal (gross, old, -1, 0, "\"gross\":1", 0, NULL);

    g_assert_cmpint (sqlite3_prepare_v2 (db, "UPDATE quote_revision SET quote = ?1", -1, &stmt, NULL), ==,
                     SQLITE_OK);
    sqlite3_bind_text (stmt, 1, moved, -1, SQLITE_TRANSIENT);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
    sqlite3_finalize (stmt);
  }
  again = qm_quote_store_load_revision (store, a->number, "A", &error);
  g_assert_null (again);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
}

static void
add_both (const char    *name,
          GTestDataFunc  func)
{
  qm_test_add_both_engines ("quote-store", name, cluster != NULL, func);
}

/* The supplier details (issue #35 item 2): none until set, every field
 * back as written (a multi-line address, umlauts), replaced whole by the
 * next set, and kept across a reopen; the customer's VAT id goes with the
 * customer onto each revision. */
static void
test_supplier (gconstpointer engine)
{
  g_autofree char *location = fresh_location (engine);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSupplier) empty = NULL, back = NULL, again = NULL;
  g_autoptr(QmSupplier) mine = qm_supplier_new ();
  g_autoptr(QmQuoteRevision) a = NULL, b = NULL, reread = NULL;
  QmQuoteRequest req = { 0 };
  gint64 plan;

  empty = qm_supplier_store_get (store, &error);
  g_assert_no_error (error);
  g_assert_true (qm_supplier_is_empty (empty));
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    g_assert_cmpstr (QM_SUPPLIER_FIELD (empty, &qm_supplier_fields[i]), ==, "");

  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      char **f = &QM_SUPPLIER_FIELD (mine, &qm_supplier_fields[i]);

      g_free (*f);
      *f = g_strdup_printf ("%s of Grüne Rechenwerke", qm_supplier_fields[i].key);
    }
  g_free (mine->address);
  mine->address = g_strdup ("Grüne Rechenwerke GmbH\nMusterstraße 1\n10115 Berlin\nGermany");
  g_free (mine->iban);
  mine->iban = g_strdup ("DE89 3704 0044 0532 0130 00");
  g_assert_true (qm_supplier_store_set (store, mine, &error));
  g_assert_no_error (error);
  back = qm_supplier_store_get (store, &error);
  g_assert_no_error (error);
  g_assert_true (qm_supplier_equal (back, mine));
  g_assert_cmpstr (back->address, ==, "Grüne Rechenwerke GmbH\nMusterstraße 1\n10115 Berlin\nGermany");

  /* A second set replaces every field, emptied ones too. */
  g_free (mine->bic);
  mine->bic = g_strdup ("");
  g_free (mine->name);
  mine->name = g_strdup ("Grüne Rechenwerke GmbH");
  g_assert_true (qm_supplier_store_set (store, mine, &error));
  g_assert_no_error (error);

  plan = save_plan (store, "Acme 70B", "Acme Corp");
  set_rate (store, "EUR", 0.92, "2026-01-01");
  req.plan_id = plan;
  req.customer_vat = "FR40303265045";
  g_assert_true (qm_quote_date_parse ("2026-11-25", &req.issued));
  a = qm_quote_store_save_revision (store, &req, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (a->customer, ==, "Acme Corp");
  g_assert_cmpstr (a->customer_vat, ==, "FR40303265045");
  /* Kept on the quote for the next revision, unless changed. */
  b = save_revision (store, plan, "2026-11-30", NULL);
  g_assert_cmpstr (b->customer_vat, ==, "FR40303265045");

  g_clear_pointer (&store, qm_store_free);
  store = qm_test_open_store_at (location);
  again = qm_supplier_store_get (store, &error);
  g_assert_no_error (error);
  g_assert_true (qm_supplier_equal (again, mine));
  g_assert_cmpstr (again->bic, ==, "");
  g_assert_cmpstr (again->name, ==, "Grüne Rechenwerke GmbH");
  reread = qm_quote_store_load_revision (store, a->number, "A", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (reread->customer_vat, ==, "FR40303265045");
}

/* The schema version whose step made the supplier table and the VAT id
 * columns (qm-store-schema.c). */
#define SUPPLIER_VERSION 9

/* From the schema before the supplier (version 8), on either engine: a
 * quote written then keeps its customer and has an empty VAT id, the
 * store has no supplier details, and they can be set. */
static void
test_supplier_migration (gconstpointer engine)
{
  g_autofree char *location = fresh_location (engine);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;
  g_autoptr(QmSupplier) supplier = NULL, back = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;

  if (GPOINTER_TO_INT (engine) != QM_DB_POSTGRESQL)
    {
      g_autofree char *dir = g_path_get_dirname (location);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
    }
  g_assert_cmpint (qm_store_latest_version (), >=, SUPPLIER_VERSION);
  g_assert_true (qm_store_create_at_version (location, SUPPLIER_VERSION - 1, &error));
  g_assert_no_error (error);
  {
    g_autoptr(QmDb) db = qm_db_open (location, QM_DB_OPEN_NONE, &error);

    g_assert_no_error (error);
    g_assert_cmpint (qm_db_schema_version (db, NULL), ==, SUPPLIER_VERSION - 1);
    g_assert_true (qm_db_exec (db, "INSERT INTO plan (id, name, customer, created, modified)"
                                   " VALUES (7, 'Old plan', 'Acme', 1, 2);"
                                   "INSERT INTO quote (id, number, plan_id, customer, created, modified)"
                                   " VALUES (3, 'Q-2026-0001', 7, 'Acme', 1, 2);", &error));
    g_assert_no_error (error);
  }

  store = qm_test_open_store_at (location);
  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());
  stmt = qm_db_prepare (qm_store_connection (store), "SELECT customer, customer_vat FROM quote WHERE id = 3",
                        &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
  g_assert_cmpstr (qm_db_column_text (stmt, 0), ==, "Acme");
  g_assert_cmpstr (qm_db_column_text (stmt, 1), ==, "");
  g_clear_pointer (&stmt, qm_db_stmt_free);

  supplier = qm_supplier_store_get (store, &error);
  g_assert_no_error (error);
  g_assert_true (qm_supplier_is_empty (supplier));
  g_free (supplier->name);
  supplier->name = g_strdup ("Grüne Rechenwerke GmbH");
  g_assert_true (qm_supplier_store_set (store, supplier, &error));
  g_assert_no_error (error);
  back = qm_supplier_store_get (store, &error);
  g_assert_cmpstr (back->name, ==, "Grüne Rechenwerke GmbH");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  cluster = qm_test_pg_start_if_available ();

  g_test_add_func ("/quote-store/number-pattern", test_number_pattern);
  add_both ("sequence", test_sequence);
  g_test_add_func ("/quote-store/immutable", test_immutable);
  g_test_add_func ("/quote-store/per-line-terms", test_per_line_terms);
  g_test_add_func ("/quote-store/revision-without-keys", test_revision_without_keys);
  add_both ("rate-lookup", test_rate_lookup);
  add_both ("import", test_import);
  add_both ("import-german-excel", test_import_german_excel);
  g_test_add_func ("/quote-store/reopen", test_reopen);
  g_test_add_func ("/quote-store/locked", test_locked);
  add_both ("concurrent-numbers", test_concurrent_numbers);
  add_both ("supplier", test_supplier);
  add_both ("supplier-migration", test_supplier_migration);
  if (cluster != NULL)
    g_test_add_func ("/quote-store/postgresql/immutable", test_immutable_pg);

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
