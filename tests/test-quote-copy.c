/* test-quote-copy.c: quartermaster-cli db copy carries quotes, their
 * revisions byte for byte, the numbering and the exchange rates between
 * SQLite and a private PostgreSQL cluster (issue #23): SQLite ->
 * PostgreSQL -> SQLite, a second run copies nothing twice, quotes keep
 * the link to their plan only where the plan was copied, and a quote of
 * the other database's own under the same number is never overwritten.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-quote-store.h"
#include "qm-supplier-store.h"
#include "qm-test-cli.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* A saved plan quoted in euros, with no exchange rate of its own. */
static gint64
save_plan (QmStore    *store,
           const char *name,
           const char *customer)
{
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, customer, 1.0e8);
  g_autoptr(GError) error = NULL;
  g_autofree char *inputs = plan->inputs;

  inputs[strlen (inputs) - 1] = '\0';
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
          const char *date,
          const char *source)
{
  g_autoptr(GError) error = NULL;
  QmExchangeRate rate = { .rate_per_usd = rate_per_usd, .source = (char *) source };

  g_strlcpy (rate.currency, currency, sizeof rate.currency);
  g_assert_true (qm_quote_date_parse (date, &rate.date));
  g_assert_true (qm_quote_store_set_rate (store, &rate, &error));
  g_assert_no_error (error);
}

/* The customer's VAT id the next quote() gives its quote, or NULL. */
static const char *next_customer_vat;

static char *
quote (QmStore    *store,
       gint64      plan_id,
       const char *date,
       const char *note)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmQuoteRevision) rev = NULL;
  QmQuoteRequest req = { .plan_id = plan_id, .note = note, .customer_vat = next_customer_vat };

  g_assert_true (qm_quote_date_parse (date, &req.issued));
  rev = qm_quote_store_save_revision (store, &req, &error);
  g_assert_no_error (error);
  return g_strdup (rev->number);
}

/* The name of the plan @id in @store, or NULL. */
static char *
plan_name (QmStore *store,
           gint64   id)
{
  g_autoptr(QmSavedPlan) plan = id != 0 ? qm_plan_store_load (store, id, NULL) : NULL;

  return plan != NULL ? g_strdup (plan->name) : NULL;
}

/* Every quote of @a is in @b with the same fields, the same plan (by
 * name) and every revision of @a byte-equal; the numbering and the rates
 * are the same. Returns the number of revisions compared. */
static guint
assert_same_quotes (const char *a,
                    const char *b)
{
  g_autoptr(QmStore) sa = qm_test_open_store_at (a);
  g_autoptr(QmStore) sb = qm_test_open_store_at (b);
  g_autoptr(GPtrArray) qa = qm_quote_store_list (sa, NULL, NULL, NULL);
  g_autoptr(GPtrArray) ra = qm_quote_store_list_rates (sa, NULL, NULL);
  g_autoptr(GPtrArray) rb = qm_quote_store_list_rates (sb, NULL, NULL);
  g_autofree char *pa = qm_quote_store_get_pattern (sa), *pb = qm_quote_store_get_pattern (sb);
  guint revisions = 0;

  g_assert_cmpstr (pa, ==, pb);
  g_assert_cmpuint (qm_quote_store_get_sequence (sa), ==, qm_quote_store_get_sequence (sb));
  g_assert_cmpuint (ra->len, ==, rb->len);
  for (guint i = 0; i < ra->len; i++)
    {
      QmExchangeRate *x = ra->pdata[i], *y = rb->pdata[i];

      g_assert_cmpstr (x->currency, ==, y->currency);
      g_assert_cmpfloat (x->rate_per_usd, ==, y->rate_per_usd);
      g_assert_cmpint (g_date_compare (&x->date, &y->date), ==, 0);
      g_assert_cmpstr (x->source, ==, y->source);
    }

  for (guint i = 0; i < qa->len; i++)
    {
      QmQuoteSummary *s = qa->pdata[i];
      g_autoptr(GPtrArray) la = qm_quote_store_list_revisions (sa, s->number, NULL);
      g_autoptr(GPtrArray) lb = qm_quote_store_list_revisions (sb, s->number, NULL);
      g_autofree char *plan_a = plan_name (sa, s->plan_id);
      g_autofree char *plan_b = NULL;
      g_autofree char *linked = qm_quote_store_find_for_plan (sb, s->plan_id, NULL);

      g_assert_nonnull (lb);
      g_assert_cmpuint (lb->len, >=, la->len);
      for (guint k = 0; k < la->len; k++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(QmQuoteRevision) x = qm_quote_store_load_revision (sa, s->number, la->pdata[k], &error);
          g_autoptr(QmQuoteRevision) y = qm_quote_store_load_revision (sb, s->number, la->pdata[k], &error);

          g_assert_no_error (error);
          g_assert_cmpstr (x->quote_json, ==, y->quote_json);
          g_assert_cmpstr (x->plan_json, ==, y->plan_json);
          g_assert_cmpstr (x->terms_json, ==, y->terms_json);
          g_assert_cmpstr (x->note, ==, y->note);
          g_assert_cmpstr (x->rate_source, ==, y->rate_source);
          g_assert_cmpfloat (x->exchange_rate, ==, y->exchange_rate);
          g_assert_cmpint (x->state, ==, y->state);
          g_assert_cmpstr (x->customer, ==, y->customer);
          g_assert_cmpstr (x->customer_vat, ==, y->customer_vat);
          g_assert_true (qm_supplier_equal (x->supplier, y->supplier));
          revisions++;
        }
      /* The quote refers to the same plan, or to none in either. */
      if (plan_a != NULL)
        {
          plan_b = plan_name (sb, s->plan_id);
          g_assert_cmpstr (plan_a, ==, plan_b);
          g_assert_cmpstr (linked, ==, s->number);
        }
    }
  return revisions;
}

/* SQLite -> PostgreSQL -> SQLite: the same quotes, byte for byte. */
static void
test_round_trip (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "copy", NULL);
  g_autofree char *first = g_build_filename (dir, "first.db", NULL);
  g_autofree char *back = g_build_filename (dir, "back.db", NULL);
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autofree char *q1 = NULL, *q2 = NULL, *q3 = NULL;
  g_auto(Run) r = { 0 };
  gint64 orphan_plan;

  g_mkdir_with_parents (dir, 0700);
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (first);
    g_autoptr(GError) error = NULL;
    g_autofree char *b = NULL;
    gint64 p1 = save_plan (store, "Acme 70B «ü»", "Acme Grüße");
    gint64 p2 = save_plan (store, "Initech 70B", "Initech");

    orphan_plan = save_plan (store, "Gone 70B", "Umbrella");
    g_assert_true (qm_quote_store_set_pattern (store, "ACME/{YY}/{NNN}", &error));
    set_rate (store, "EUR", 0.92, "2026-01-01", "ECB reference rate");
    /* A third has no short decimal: SQLite prints it in 15 digits. */
    set_rate (store, "EUR", 1.0 / 3.0, "2026-06-01", "Test, a third");
    set_rate (store, "CHF", 0.88, "2026-01-02", "SNB Zürich");
    /* The supplier details and a customer's VAT id go along (issue #35
     * item 2). */
    {
      g_autoptr(QmSupplier) supplier = qm_supplier_new ();

      g_free (supplier->name);
      supplier->name = g_strdup ("Grüne Rechenwerke GmbH");
      g_free (supplier->iban);
      supplier->iban = g_strdup ("DE89 3704 0044 0532 0130 00");
      g_assert_true (qm_supplier_store_set (store, supplier, &error));
    }
    next_customer_vat = "DE811907980";
    q1 = quote (store, p1, "2026-11-25", NULL);
    next_customer_vat = NULL;
    b = quote (store, p1, "2026-11-30", "Servers 5 % cheaper «»");
    g_assert_cmpstr (b, ==, q1);
    q2 = quote (store, p2, "2026-11-25", NULL);
    q3 = quote (store, orphan_plan, "2026-11-26", NULL);
    g_assert_true (qm_quote_store_set_state (store, q2, QM_QUOTE_STATE_SENT, &error));
    /* A quote outlives its plan. */
    g_assert_true (qm_plan_store_delete (store, orphan_plan, &error));
    g_assert_true (qm_quote_store_set_sequence (store, 40, &error));
    g_assert_no_error (error);
  }

  run_cli (&r, "db", "copy", first, uri, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "3 quotes with 4 revisions: 3 copied, 0 replaced, 0 already there; "
                                   "4 new revisions."));
  g_assert_nonnull (strstr (r.out, "3 exchange rates: 3 copied, 0 replaced."));
  g_assert_nonnull (strstr (r.out, "All 3 quotes, their revisions and the rates match"));
  run_clear (&r);
  g_assert_cmpuint (assert_same_quotes (first, uri), ==, 4);
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (uri);
    g_autoptr(QmSupplier) supplier = qm_supplier_store_get (store, NULL);
    g_autoptr(QmQuoteRevision) a = qm_quote_store_load_revision (store, q1, "A", NULL);

    g_assert_cmpstr (supplier->name, ==, "Grüne Rechenwerke GmbH");
    g_assert_cmpstr (a->customer_vat, ==, "DE811907980");
  }

  /* Again: nothing copied twice. */
  run_cli (&r, "db", "copy", first, uri, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "3 quotes with 4 revisions: 0 copied, 0 replaced, 3 already there; "
                                   "0 new revisions."));
  g_assert_nonnull (strstr (r.out, "3 exchange rates: 0 copied, 0 replaced."));
  run_clear (&r);

  /* And back into a new file: the same revisions, byte for byte. */
  run_cli (&r, "db", "copy", uri, back, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  g_assert_cmpuint (assert_same_quotes (first, back), ==, 4);
  g_assert_cmpuint (assert_same_quotes (back, first), ==, 4);

  /* On the server: a new revision and a new quote, numbered after the
   * copied sequence; the next copy brings just those. */
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (uri);
    gint64 p1 = qm_plan_store_find (store, "Acme 70B «ü»", NULL);
    gint64 p4 = save_plan (store, "Made on the server", "Beta");
    g_autofree char *again = quote (store, p1, "2026-12-01", "Revision C");
    g_autofree char *fresh = quote (store, p4, "2026-12-01", NULL);

    g_assert_cmpstr (again, ==, q1);
    g_assert_cmpstr (fresh, ==, "ACME/26/040");
  }
  run_cli (&r, "db", "copy", uri, back, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "4 quotes with 6 revisions: 1 copied, 1 replaced, 2 already there; "
                                   "2 new revisions."));
  run_clear (&r);
  g_assert_cmpuint (assert_same_quotes (uri, back), ==, 6);
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (back);
    g_autoptr(GPtrArray) list = qm_quote_store_list (store, NULL, NULL, NULL);

    /* The quote of the deleted plan has its plan's name and no link. */
    for (guint i = 0; i < list->len; i++)
      if (g_str_equal (((QmQuoteSummary *) list->pdata[i])->number, q3))
        {
          g_assert_cmpint (((QmQuoteSummary *) list->pdata[i])->plan_id, ==, 0);
          g_assert_cmpstr (((QmQuoteSummary *) list->pdata[i])->plan_name, ==, "Gone 70B");
        }
  }
}

/* A file with a plan and a quote of its own under the ids and numbers the
 * server uses: neither is overwritten, the others are copied, and the
 * copied quotes of the plan that could not come are not linked to the
 * file's own plan. */
static void
test_conflicts (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "conflict", NULL);
  g_autofree char *other = g_build_filename (dir, "other.db", NULL);
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autofree char *mine_json = NULL, *q1 = NULL, *q2 = NULL;
  g_auto(Run) r = { 0 };

  g_mkdir_with_parents (dir, 0700);
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (uri);
    gint64 p1 = save_plan (store, "Server plan 1", "Acme");
    gint64 p2 = save_plan (store, "Server plan 2", "Initech");

    set_rate (store, "EUR", 0.92, "2026-01-01", "ECB");
    q1 = quote (store, p1, "2026-11-25", NULL);
    q2 = quote (store, p2, "2026-11-25", NULL);
    g_assert_cmpstr (q1, ==, "Q-2026-0001");
  }
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (other);
    gint64 mine = save_plan (store, "Mine alone", "Gamma");
    g_autoptr(QmQuoteRevision) rev = NULL;
    g_autofree char *number = NULL;

    g_assert_cmpint (mine, ==, 1);
    set_rate (store, "EUR", 0.95, "2026-01-01", "My bank");
    number = quote (store, mine, "2026-11-20", NULL);
    g_assert_cmpstr (number, ==, "Q-2026-0001");
    rev = qm_quote_store_load_revision (store, "Q-2026-0001", "A", NULL);
    mine_json = g_strdup (rev->quote_json);
  }

  run_cli (&r, "db", "copy", uri, other, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "different plan under that id"));
  g_assert_nonnull (strstr (r.err, "quote Q-2026-0001 was not copied: the other database has a "
                                   "different quote under that number"));
  g_assert_nonnull (strstr (r.out, "2 quotes with 2 revisions: 1 copied"));
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (other);
    g_autoptr(QmQuoteRevision) still = qm_quote_store_load_revision (store, "Q-2026-0001", "A", NULL);
    g_autoptr(QmQuoteRevision) copied = qm_quote_store_load_revision (store, q2, "A", NULL);
    g_autoptr(GPtrArray) list = qm_quote_store_list (store, NULL, NULL, NULL);
    g_autofree char *of_mine = qm_quote_store_find_for_plan (store, 1, NULL);

    g_assert_cmpstr (still->quote_json, ==, mine_json);
    g_assert_nonnull (copied);
    g_assert_cmpuint (list->len, ==, 2);
    /* Plan 2 came along under its id; the file's plan 1 keeps its own quote only. */
    g_assert_cmpstr (of_mine, ==, "Q-2026-0001");
    for (guint i = 0; i < list->len; i++)
      {
        QmQuoteSummary *s = list->pdata[i];

        if (g_str_equal (s->number, q2))
          {
            g_assert_cmpint (s->plan_id, ==, 2);
            g_assert_cmpstr (s->plan_name, ==, "Server plan 2");
          }
      }
    /* The server's rate of that day replaced the file's. */
    {
      GDate d;
      g_autoptr(QmExchangeRate) rate = NULL;

      qm_quote_date_parse ("2026-01-01", &d);
      rate = qm_quote_store_find_rate (store, "EUR", &d, NULL);
      g_assert_cmpfloat (rate->rate_per_usd, ==, 0.92);
    }
  }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* build-aux/dev installs postgresql-15; only a machine without it skips. */
  if (!qm_test_pg_available ())
    {
      g_test_message ("PostgreSQL is not installed in %s: its tests are skipped", QM_TEST_PG_BINDIR);
      return g_test_run ();
    }
  cluster = qm_test_pg_start ();
  g_test_add_func ("/quote-copy/round-trip", test_round_trip);
  g_test_add_func ("/quote-copy/conflicts", test_conflicts);

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
