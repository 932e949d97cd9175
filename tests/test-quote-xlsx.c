/* test-quote-xlsx.c: the quote workbook read back (unzip): the cash-flow
 * sheet's payments are formulas of the Quote sheet's gross, as the quote
 * computes them (docs/quotes.md), each carrying the quote's own figure,
 * so a buyer who changes a discount sees the deposit, the deliveries'
 * payments and the cumulative cash flow follow (issue #22).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "qm-plan.h"
#include "qm-price-age.h"
#include "qm-quote-xlsx.h"
#include "qm-test-quote.h"
#include "qm-test-util.h"

/* The formula and cached value of cell @ref, or NULL when it holds none. */
static char *
cell (const char *sheet,
      const char *ref,
      double     *value)
{
  g_autofree char *pattern = g_strdup_printf ("<c r=\"%s\"[^>]*><f>([^<]*)</f><v>([^<]*)</v>", ref);
  g_autoptr(GRegex) re = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *v = NULL;

  if (!g_regex_match (re, sheet, 0, &m))
    return NULL;
  v = g_match_info_fetch (m, 2);
  *value = g_ascii_strtod (v, NULL);
  return g_match_info_fetch (m, 1);
}

/* Whether cell @ref holds the plain number @expected, no formula. */
static gboolean
has_value (const char *sheet,
           const char *ref,
           double      expected)
{
  g_autofree char *pattern = g_strdup_printf ("<c r=\"%s\"[^>]*><v>([^<]*)</v>", ref);
  g_autoptr(GRegex) re = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *v = NULL;

  if (!g_regex_match (re, sheet, 0, &m))
    return FALSE;
  v = g_match_info_fetch (m, 1);
  return fabs (g_ascii_strtod (v, NULL) - expected) < 1e-9;
}

static char *
write_book (const QmQuote *q)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_user_data_dir (), "Q.xlsx", NULL);
  QmQuoteHeader h = { .number = "Q-2026-0001", .revision = "A", .customer = "Acme" };

  g_mkdir_with_parents (g_get_user_data_dir (), 0700);
  g_date_clear (&h.issued, 1);
  g_date_set_dmy (&h.issued, 25, 11, 2026);
  h.valid_days = 30;
  g_assert_true (qm_quote_write_xlsx (&h, q, path, &error));
  g_assert_no_error (error);
  return path;
}

/* Buy: 30 % deposit in month 0, four deliveries in months 3-6 paid a
 * month later; 12 weeks' lead time, net 30, EUR at 0.92. */
static void
test_buy_payments (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  g_autofree char *path = NULL, *quote = NULL, *flow = NULL;
  g_autofree char *gross_f = NULL, *deposit = NULL, *m0 = NULL, *m4 = NULL, *m7 = NULL, *m5 = NULL;
  g_autofree char *d1 = NULL, *d4 = NULL, *cum = NULL;
  double gross, v;

  qm_test_quote_cost (&cost);
  cost.horizon_months = 12;
  qm_quote_terms_init (&t, NULL);
  g_strlcpy (t.currency, "EUR", sizeof t.currency);
  t.exchange_rate = 0.92;
  t.tax_rate = 0.19;
  t.support_years = 0;
  t.n_phases = 4;
  for (guint k = 0; k < 4; k++)
    t.phases[k] = 0.25;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);
  g_assert_cmpuint (q.payment_month[0], ==, 4);
  g_assert_cmpuint (q.payment_month[3], ==, 7);

  path = write_book (&q);
  quote = qm_test_zip_member (path, "xl/worksheets/sheet1.xml");
  flow = qm_test_zip_member (path, "xl/worksheets/sheet2.xml");

  /* Three lines: rows 9-11, totals from row 13, the gross in H16. */
  gross_f = cell (quote, "H16", &gross);
  g_assert_cmpstr (gross_f, ==, "H13+H15");
  g_assert_cmpint (llround (gross * 100), ==, q.gross);

  /* The deposit: 30 % of the gross, rounded to the cent. */
  deposit = cell (flow, "L2", &v);
  g_assert_cmpstr (deposit, ==, "ROUND('Quote'!$H$16*K2,2)");
  g_assert_cmpint (llround (v * 100), ==, q.deposit);
  g_assert_true (has_value (flow, "K2", 0.3));

  /* The deliveries share what is left; the last takes the remainder. */
  d1 = cell (flow, "L3", &v);
  g_assert_cmpstr (d1, ==, "ROUND(('Quote'!$H$16-L2)*K3,2)");
  g_assert_cmpint (llround (v * 100), ==, q.phase_payment[0]);
  d4 = cell (flow, "L6", &v);
  g_assert_cmpstr (d4, ==, "'Quote'!$H$16-SUM(L2:L5)");
  g_assert_cmpint (llround (v * 100), ==, q.phase_payment[3]);
  g_assert_true (has_value (flow, "J6", 7));
  g_assert_true (has_value (flow, "K6", 0.25));

  /* Each month's payments name the cells due in it. */
  m0 = cell (flow, "B2", &v);
  g_assert_cmpstr (m0, ==, "L2");
  g_assert_cmpint (llround (v * 100), ==, q.months[0].payments);
  m4 = cell (flow, "B6", &v);
  g_assert_cmpstr (m4, ==, "L3");
  m7 = cell (flow, "B9", &v);
  g_assert_cmpstr (m7, ==, "L6");
  g_assert_cmpint (llround (v * 100), ==, q.months[7].payments);
  /* A month without payments keeps its plain 0. */
  g_assert_null (cell (flow, "B3", &v));
  g_assert_true (has_value (flow, "B3", 0));

  /* And the cumulative cash flow follows them. */
  m5 = cell (flow, "D7", &v);
  g_assert_cmpstr (m5, ==, "B7+C7");
  cum = cell (flow, "F13", &v);
  g_assert_cmpstr (cum, ==, "F12+D13");
  g_assert_cmpint (llround (v * 100), ==, q.spend_total);

  g_unlink (path);
}

/* Rent: the gross in equal monthly parts, the last month the remainder. */
static void
test_rent_payments (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  g_autofree char *path = NULL, *flow = NULL, *first = NULL, *last = NULL;
  double v;

  memset (&cost, 0, sizeof cost);
  cost.bom[0] = (QmBomLine) { .item = "GPU-hours", .qty = 100000, .unit_usd = 2.5, .total_usd = 250000 };
  cost.n_bom = 1;
  qm_quote_terms_init (&t, NULL);
  qm_quote_compute (&cost, QM_PRICING_RENT_ON_DEMAND, 3, &t, &q);
  g_assert_cmpuint (q.n_months, ==, 3);

  path = write_book (&q);
  flow = qm_test_zip_member (path, "xl/worksheets/sheet2.xml");
  first = cell (flow, "B2", &v);
  g_assert_cmpstr (first, ==, "ROUND('Quote'!$H$14/3,2)");
  g_assert_cmpint (llround (v * 100), ==, q.months[0].payments);
  last = cell (flow, "B4", &v);
  g_assert_cmpstr (last, ==, "'Quote'!$H$14-SUM(B2:B3)");
  g_assert_cmpint (llround (v * 100), ==, q.months[2].payments);
  /* No deposit or deliveries. */
  g_assert_null (strstr (flow, "<c r=\"L2\""));
  g_unlink (path);
}

/* The workbook's header says the date the prices are as of, the one the
 * core gives for the plan (qm_prices_as_of), and past the age limit on
 * the issue date the core's warning; not before it (issue #35 item 6). */
static void
test_prices_as_of (void)
{
  g_autofree char *plan_path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                                 "llama-3.1-70b-quote-eur.qmplan", NULL);
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  g_autoptr(GError) error = NULL;
  GDate as_of;
  const struct { guint d, m, y; gboolean old; } issues[] = {
    { 28, 11, 2026, TRUE }, { 15, 6, 2025, FALSE },
  };

  g_assert_true (qm_plan_load_from_file (plan, plan_path, NULL, &error));
  g_assert_no_error (error);
  qm_estimate (plan, e);
  qm_estimate_quote (plan, e, q);
  g_assert_true (qm_prices_as_of (e, &as_of));

  for (guint k = 0; k < G_N_ELEMENTS (issues); k++)
    {
      g_autofree char *path = g_build_filename (g_get_user_data_dir (), "P.xlsx", NULL);
      g_autofree char *strings = NULL, *sheet = NULL, *date = NULL, *warning = NULL;
      QmQuoteHeader h = { .number = "Q-2026-0002", .customer = "Acme", .valid_days = 30 };

      g_mkdir_with_parents (g_get_user_data_dir (), 0700);
      g_date_clear (&h.issued, 1);
      g_date_set_dmy (&h.issued, issues[k].d, issues[k].m, issues[k].y);
      qm_quote_header_set_prices (&h, e, 6);
      g_assert_cmpint (g_date_compare (&h.prices_as_of, &as_of), ==, 0);
      g_assert_true (qm_quote_write_xlsx (&h, q, path, &error));
      g_assert_no_error (error);
      strings = qm_test_zip_member (path, "xl/sharedStrings.xml");
      sheet = qm_test_zip_member (path, "xl/worksheets/sheet1.xml");
      date = qm_price_date_format (&as_of);
      warning = qm_price_age_warning (&as_of, &h.issued, 6);
      g_assert_nonnull (strstr (strings, ">Prices as of<"));
      g_assert_nonnull (strstr (strings, date));
      /* Row 7: the label and the date; C7 the warning when old. */
      g_assert_nonnull (strstr (sheet, "<c r=\"A7\""));
      g_assert_nonnull (strstr (sheet, "<c r=\"B7\""));
      if (issues[k].old)
        {
          g_assert_nonnull (warning);
          g_assert_nonnull (strstr (strings, warning));
          g_assert_nonnull (strstr (sheet, "<c r=\"C7\""));
        }
      else
        {
          g_assert_null (warning);
          g_assert_null (strstr (strings, "check them with your vendors"));
          g_assert_null (strstr (sheet, "<c r=\"C7\""));
        }
      g_unlink (path);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/quote-xlsx/buy-payments", test_buy_payments);
  g_test_add_func ("/quote-xlsx/rent-payments", test_rent_payments);
  g_test_add_func ("/quote-xlsx/prices-as-of", test_prices_as_of);
  return g_test_run ();
}
