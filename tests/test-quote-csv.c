/* test-quote-csv.c: a quote as CSV reads back through the store's own CSV
 * parser with every line, the exact amounts of the minor units (whole yen,
 * cents), and a vendor name that a spreadsheet would run as a formula
 * neutralised.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-csv.h"
#include "qm-quote-csv.h"

static void
make_quote (QmQuote    *q,
            const char *currency,
            double      rate)
{
  QmCost cost;
  QmQuoteTerms t;

  memset (&cost, 0, sizeof cost);
  cost.bom[0] = (QmBomLine) { .item = "Servers", .catalog_id = "dgx-h100", .qty = 4,
                              .unit_usd = 300000, .total_usd = 1200000 };
  cost.bom[1] = (QmBomLine) { .item = "Fabric cables", .catalog_id = "ib-ndr-400", .qty = 3,
                              .unit_usd = 0.5, .total_usd = 1.5 };
  cost.n_bom = 2;
  cost.horizon_months = 12;
  qm_quote_terms_init (&t, NULL);
  t.support_years = 0;
  g_strlcpy (t.currency, currency, sizeof t.currency);
  t.exchange_rate = rate;
  t.tax_rate = 0.2;
  t.n_items = 1;
  g_strlcpy (t.items[0].catalog_id, "dgx-h100", sizeof t.items[0].catalog_id);
  t.items[0].discount_kind = QM_DISCOUNT_FRACTION;
  t.items[0].discount = 0.1;
  g_strlcpy (t.items[0].vendor, "=HYPERLINK(\"x\")", sizeof t.items[0].vendor);
  qm_quote_compute (&cost, QM_PRICING_BUY, 1, &t, q);
  g_assert_cmpuint (q->issues.n, ==, 0);
}

static GPtrArray *
parse (const char *csv)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *rows = qm_csv_parse (csv, strlen (csv), &error);

  g_assert_no_error (error);
  return rows;
}

static const char *
field (GPtrArray *rows,
       guint      row,
       guint      col)
{
  QmCsvRecord *r = g_ptr_array_index (rows, row);

  g_assert_cmpuint (col, <, r->fields->len);
  return g_ptr_array_index (r->fields, col);
}

static void
test_gbp (void)
{
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  QmQuoteHeader h = { .number = "Q-2026-0007", .revision = "B", .valid_days = 30 };
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  make_quote (q, "GBP", 0.79);
  csv = qm_quote_to_csv (&h, q);
  g_assert_true (g_str_has_suffix (csv, "\r\n"));
  rows = parse (csv);
  /* Title, header, two lines, net, tax, gross. */
  g_assert_cmpuint (rows->len, ==, 7);
  g_assert_cmpstr (field (rows, 0, 1), ==, "Q-2026-0007");
  g_assert_cmpstr (field (rows, 1, 7), ==, "total");
  /* 300,000 × 0.79 = 237,000.00; 10 % off = 213,300.00; × 4. */
  g_assert_cmpstr (field (rows, 2, 4), ==, "237000.00");
  g_assert_cmpstr (field (rows, 2, 6), ==, "213300.00");
  g_assert_cmpstr (field (rows, 2, 7), ==, "853200.00");
  g_assert_cmpstr (field (rows, 2, 8), ==, "GBP");
  /* The parser gives back the vendor as typed; the file does not start
   * it with "=" (checked on the raw text). */
  g_assert_cmpstr (field (rows, 2, 2), ==, "=HYPERLINK(\"x\")");
  g_assert_null (strstr (csv, ",=HYPERLINK"));
  /* 0.50 × 0.79 = 0.395 → 0.40 (half away from zero); × 3 = 1.20. */
  g_assert_cmpstr (field (rows, 3, 4), ==, "0.40");
  g_assert_cmpstr (field (rows, 3, 7), ==, "1.20");
  /* Net 853,201.20; tax 20 % = 170,640.24; gross 1,023,841.44. */
  g_assert_cmpstr (field (rows, 4, 7), ==, "853201.20");
  g_assert_cmpstr (field (rows, 5, 7), ==, "170640.24");
  g_assert_cmpstr (field (rows, 6, 7), ==, "1023841.44");
}

static void
test_yen (void)
{
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  QmQuoteHeader h = { 0 };
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  make_quote (q, "JPY", 151.37);
  csv = qm_quote_to_csv (&h, q);
  rows = parse (csv);
  g_assert_cmpstr (field (rows, 0, 1), ==, "draft");
  /* 300,000 × 151.37 = 45,411,000 yen, no decimals. */
  g_assert_cmpstr (field (rows, 2, 4), ==, "45411000");
  /* 0.5 × 151.37 = 75.685 → 76 yen. */
  g_assert_cmpstr (field (rows, 3, 4), ==, "76");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/quote-csv/gbp", test_gbp);
  g_test_add_func ("/quote-csv/yen", test_yen);
  return g_test_run ();
}
