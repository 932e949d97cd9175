/* test-quote.c: quote arithmetic checked by hand: currency minor units and
 * rounding (ISO 4217 exponents), negotiated prices, spares, support and
 * shipping lines, optional lines, tax, delivery phases, payments and the
 * buy-vs-rent cash flow.
 *
 * Prices are round test figures, as in test-cost.c: the point is that
 * every total is the sum of the figures above it, to the minor unit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-quote.h"
#include "qm-quote-diff.h"
#include "qm-quote-json.h"
#include "qm-test-quote.h"

static void
terms_plain (QmQuoteTerms *t)
{
  qm_quote_terms_init (t, NULL);
  t->support_years = 0;
  t->deposit_fraction = 1.0;
  t->payment_days = 0;
  t->lead_weeks = 0;
}

static void
test_money_rounding (void)
{
  QmMinor parts[3];
  const double thirds[3] = { 1, 1, 1 };

  g_assert_cmpint (qm_currency_exponent ("EUR"), ==, 2);
  g_assert_cmpint (qm_currency_exponent ("JPY"), ==, 0);
  g_assert_cmpint (qm_currency_exponent ("KWD"), ==, 3);
  g_assert_cmpint (qm_currency_exponent ("CHF"), ==, 2);
  g_assert_cmpint (qm_currency_exponent ("eur"), ==, -1);
  g_assert_cmpint (qm_currency_exponent ("EURO"), ==, -1);
  g_assert_false (qm_currency_code_valid (NULL));

  /* Half away from zero, also where binary floating point sits just
   * below the half (1.005 is 1.00499999999999989...). */
  g_assert_cmpint (qm_money_round (1.005, 2), ==, 101);
  g_assert_cmpint (qm_money_round (0.145, 2), ==, 15);
  g_assert_cmpint (qm_money_round (-2.5, 0), ==, -3);
  g_assert_cmpint (qm_money_round (2.4999, 0), ==, 2);
  g_assert_cmpint (qm_money_round (1.2345, 3), ==, 1235);
  g_assert_cmpint (qm_money_round (NAN, 2), ==, 0);

  g_assert_true (qm_money_split (100, thirds, 3, parts));
  g_assert_cmpint (parts[0], ==, 33);
  g_assert_cmpint (parts[1], ==, 33);
  g_assert_cmpint (parts[2], ==, 34);
  g_assert_false (qm_money_split (100, (const double[]) { 0, 0 }, 2, parts));
}

/* The C locale of the tests: "," groups, "." marks the decimals. */
static void
test_money_format (void)
{
  char buf[64];

  g_assert_cmpstr (qm_money_format (buf, sizeof buf, 108147998, 2, "EUR"), ==, "EUR 1,081,479.98");
  g_assert_cmpstr (qm_money_format (buf, sizeof buf, 5, 2, "USD"), ==, "USD 0.05");
  g_assert_cmpstr (qm_money_format (buf, sizeof buf, 181644000, 0, "JPY"), ==, "JPY 181,644,000");
  g_assert_cmpstr (qm_money_format (buf, sizeof buf, 1235, 3, "KWD"), ==, "KWD 1.235");
  g_assert_cmpstr (qm_money_format (buf, sizeof buf, -100000, 2, "GBP"), ==, "GBP −1,000.00");
}

/* EUR at 0.92 per dollar, 12 % off the servers, a negotiated unit price
 * for the switches, German VAT of 19 %. */
static void
test_negotiated_eur (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;

  qm_test_quote_cost (&cost);
  terms_plain (&t);
  g_strlcpy (t.currency, "EUR", sizeof t.currency);
  t.exchange_rate = 0.92;
  t.tax_rate = 0.19;
  t.n_items = 2;
  g_strlcpy (t.items[0].catalog_id, "dgx-h100", sizeof t.items[0].catalog_id);
  t.items[0].discount_kind = QM_DISCOUNT_FRACTION;
  t.items[0].discount = 0.12;
  g_strlcpy (t.items[0].vendor, "Reseller GmbH", sizeof t.items[0].vendor);
  g_strlcpy (t.items[1].catalog_id, "ib-ndr-400", sizeof t.items[1].catalog_id);
  t.items[1].discount_kind = QM_DISCOUNT_UNIT_PRICE;
  t.items[1].discount = 25999.99;

  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);
  g_assert_cmpstr (q.currency, ==, "EUR");
  g_assert_cmpuint (q.n_lines, ==, 3);

  /* 300,000 × 0.92 = 276,000.00; less 12 % = 242,880.00; × 4. */
  g_assert_cmpint (q.lines[0].list_unit, ==, 27600000);
  g_assert_cmpint (q.lines[0].net_unit, ==, 24288000);
  g_assert_cmpint (q.lines[0].total, ==, 97152000);
  g_assert_cmpfloat_with_epsilon (q.lines[0].discount, 0.12, 1e-12);
  g_assert_cmpstr (q.lines[0].vendor, ==, "Reseller GmbH");
  /* 30,000 × 0.92 = 27,600.00 list; 25,999.99 negotiated; × 2. */
  g_assert_cmpint (q.lines[1].list_unit, ==, 2760000);
  g_assert_cmpint (q.lines[1].total, ==, 5199998);
  /* Installation: one lot of 63,000 × 0.92 = 57,960.00, at list. */
  g_assert_cmpint (q.lines[2].kind, ==, QM_QUOTE_LINE_INSTALL);
  g_assert_cmpfloat (q.lines[2].qty, ==, 1.0);
  g_assert_cmpint (q.lines[2].total, ==, 5796000);

  g_assert_cmpint (q.net, ==, 97152000 + 5199998 + 5796000);
  /* 1,081,479.98 × 0.19 = 205,481.1962 → 205,481.20. */
  g_assert_cmpint (q.tax, ==, 20548120);
  g_assert_cmpint (q.gross, ==, q.net + q.tax);
  g_assert_cmpint (q.list_total, ==, 27600000 * 4 + 2760000 * 2 + 5796000);
}

/* Yen have no minor unit: every amount is whole yen. */
static void
test_whole_yen (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;

  qm_test_quote_cost (&cost);
  cost.bom[1].unit_usd = 0.5;
  terms_plain (&t);
  g_strlcpy (t.currency, "JPY", sizeof t.currency);
  t.exchange_rate = 151.37;
  t.tax_rate = 0.10;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpint (q.exponent, ==, 0);
  /* 0.5 × 151.37 = 75.685 → 76 yen; × 2. */
  g_assert_cmpint (q.lines[1].list_unit, ==, 76);
  g_assert_cmpint (q.lines[1].total, ==, 152);
  /* 300,000 × 151.37 = 45,411,000 yen. */
  g_assert_cmpint (q.lines[0].total, ==, 4 * 45411000);
  g_assert_cmpint (q.tax, ==, qm_money_scale (q.net, 0.10));
}

/* 10 % spares round up to whole servers; support is 3 years at 8 % a year
 * of list for each hardware line and the spares; shipping 1 % of the
 * hardware's net; support is optional and this customer drops it. */
static void
test_spares_support_shipping (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  const QmQuoteLine *spares = NULL, *shipping = NULL;
  guint n_support = 0;
  QmMinor sum = 0;

  qm_test_quote_cost (&cost);
  terms_plain (&t);
  t.spares_fraction = 0.1;
  t.support_years = 3;
  t.support_rate = 0.08;
  t.shipping_fraction = 0.01;
  t.optional_lines = QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_SUPPORT);
  t.declined_lines = QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_SUPPORT);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);

  for (guint i = 0; i < q.n_lines; i++)
    {
      const QmQuoteLine *l = &q.lines[i];

      if (l->kind == QM_QUOTE_LINE_SPARES)
        spares = l;
      if (l->kind == QM_QUOTE_LINE_SHIPPING)
        shipping = l;
      if (l->kind == QM_QUOTE_LINE_SUPPORT)
        {
          n_support++;
          g_assert_true (l->optional);
          g_assert_false (l->accepted);
        }
      if (l->accepted)
        sum += l->total;
    }
  g_assert_nonnull (spares);
  /* ceil (4 × 0.1) = 1 spare server at the server's price. */
  g_assert_cmpfloat (spares->qty, ==, 1.0);
  g_assert_cmpint (spares->total, ==, 30000000);
  /* Servers, switches and the spare server; not installation. */
  g_assert_cmpuint (n_support, ==, 3);
  /* 1 % of 1,200,000 + 60,000 + 300,000 = 15,600.00. */
  g_assert_nonnull (shipping);
  g_assert_cmpint (shipping->total, ==, 1560000);
  g_assert_cmpint (q.net, ==, sum);

  /* Accepted, the first support line is 4 × 300,000 × 0.08 × 3. */
  t.declined_lines = 0;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  for (guint i = 0; i < q.n_lines; i++)
    if (q.lines[i].kind == QM_QUOTE_LINE_SUPPORT)
      {
        g_assert_cmpint (q.lines[i].total, ==, 4 * 7200000);
        break;
      }
}

/* Revision B against A: a new discount moves a unit price and the gross,
 * more spares move a quantity, a declined option and a new line are
 * named; the same terms give no change; another currency compares
 * quantities only. */
static void
test_revision_diff (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote a, b;
  QmQuoteChange changes[2 * QM_QUOTE_MAX_LINES + 2];
  g_autofree char *text = NULL, *none = NULL;
  g_autoptr(JsonNode) json = NULL;
  gboolean price = FALSE, qty = FALSE, added = FALSE, declined = FALSE;
  guint n;

  qm_test_quote_cost (&cost);
  terms_plain (&t);
  t.spares_fraction = 0.1;
  t.support_years = 3;
  t.support_rate = 0.08;
  t.optional_lines = QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_SUPPORT);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &a);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &b);
  g_assert_cmpuint (qm_quote_diff (&a, &b, changes, G_N_ELEMENTS (changes)), ==, 0);
  none = qm_quote_diff_describe (&a, &b);
  g_assert_cmpstr (none, ==, "No change in the lines or the total");

  /* B: 10 % off the first line's item, half the servers spare, support
   * declined, shipping added. */
  g_strlcpy (t.items[0].catalog_id, a.lines[0].catalog_id, sizeof t.items[0].catalog_id);
  t.items[0].discount_kind = QM_DISCOUNT_FRACTION;
  t.items[0].discount = 0.1;
  t.n_items = 1;
  t.spares_fraction = 0.5;
  t.declined_lines = QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_SUPPORT);
  t.shipping_fraction = 0.01;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &b);
  n = qm_quote_diff (&a, &b, changes, G_N_ELEMENTS (changes));
  for (guint i = 0; i < n; i++)
    {
      const QmQuoteChange *c = &changes[i];

      if (c->kind == QM_QUOTE_CHANGE_PRICE && c->line->kind == a.lines[0].kind
          && g_strcmp0 (c->line->catalog_id, a.lines[0].catalog_id) == 0)
        {
          price = TRUE;
          g_assert_cmpint (c->old_minor, ==, a.lines[0].net_unit);
          /* 10 % off the list price, rounded once to the cent. */
          g_assert_cmpint (ABS (c->new_minor - qm_money_scale (a.lines[0].list_unit, 0.9)), <=, 1);
        }
      if (c->kind == QM_QUOTE_CHANGE_QTY && c->line->kind == QM_QUOTE_LINE_SPARES)
        qty |= c->old_qty == 1.0 && c->new_qty == 2.0;
      added |= c->kind == QM_QUOTE_CHANGE_ADDED;
      declined |= c->kind == QM_QUOTE_CHANGE_ACCEPTED && !c->accepted && c->line->kind == QM_QUOTE_LINE_SUPPORT;
    }
  g_assert_true (price);
  /* ceil (4 × 0.1) = 1 spare server, then ceil (4 × 0.5) = 2. */
  g_assert_true (qty);
  g_assert_true (added);
  g_assert_true (declined);
  g_assert_cmpint (changes[n - 1].kind, ==, QM_QUOTE_CHANGE_GROSS);
  g_assert_cmpint (changes[n - 1].old_minor, ==, a.gross);
  g_assert_cmpint (changes[n - 1].new_minor, ==, b.gross);
  text = qm_quote_diff_describe (&a, &b);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, ": unit price "));
  g_assert_nonnull (strstr (text, ": quantity 1 → 2"));
  g_assert_nonnull (strstr (text, "Support: Servers (dgx-h100) declined"));
  g_assert_nonnull (strstr (text, "Gross "));
  json = qm_quote_diff_to_json (&a, &b);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json)), ==, n);

  /* In yen, the quantities still compare; the prices do not. */
  g_strlcpy (t.currency, "JPY", sizeof t.currency);
  t.exchange_rate = 150;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &b);
  n = qm_quote_diff (&a, &b, changes, G_N_ELEMENTS (changes));
  g_assert_cmpint (changes[0].kind, ==, QM_QUOTE_CHANGE_CURRENCY);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (changes[i].kind, !=, QM_QUOTE_CHANGE_PRICE);
}

/* A quarter of the nodes a month after 12 weeks' lead time, 30 % deposit,
 * net 30: deliveries in months 3-6, payments in months 4-7. */
static void
test_phased_cash_flow (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  QmMinor payments = 0, operations = 0;

  qm_test_quote_cost (&cost);
  qm_quote_terms_init (&t, NULL);
  t.support_years = 0;
  t.n_phases = 4;
  for (guint k = 0; k < 4; k++)
    t.phases[k] = 0.25;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);

  g_assert_cmpuint (q.n_phases, ==, 4);
  /* 84 days is 2.76 mean months: delivery in month 3. */
  g_assert_cmpuint (q.delivery_month[0], ==, 3);
  g_assert_cmpuint (q.delivery_month[3], ==, 6);
  g_assert_cmpuint (q.training_start_month, ==, 6);
  g_assert_cmpint (q.months[0].payments, ==, qm_money_scale (q.gross, 0.3));
  g_assert_cmpint (q.months[3].payments, ==, 0);
  g_assert_cmpint (q.months[4].payments, >, 0);
  g_assert_cmpint (q.months[8].payments, ==, 0);
  /* Power and colocation for a quarter of the cluster in month 3. */
  g_assert_cmpint (q.months[2].operations, ==, 0);
  g_assert_cmpint (q.months[3].operations, ==, 300000);
  g_assert_cmpint (q.months[6].operations, ==, 1200000);
  g_assert_cmpuint (q.n_months, ==, 36);

  for (guint m = 0; m < q.n_months; m++)
    {
      payments += q.months[m].payments;
      operations += q.months[m].operations;
      g_assert_cmpint (q.months[m].spend, ==, q.months[m].payments + q.months[m].operations);
    }
  g_assert_cmpint (payments, ==, q.gross);
  g_assert_cmpint (q.spend_total, ==, q.gross + operations);
  g_assert_cmpint (q.months[q.n_months - 1].spend_cumulative, ==, q.spend_total);
}

/* Lead times and support rates from the catalog: each line keeps its own
 * lead time; the first delivery waits for the longest of all (here the
 * switches, 20 weeks = 4.6 months: month 5), the later ones follow the
 * servers' 8 weeks (1.84 months: month 2) one a month, never before the
 * one ahead. Items the catalog gives no lead time take the quote's (12
 * weeks), and a negotiated one beats the catalog's. */
static void
test_catalog_lead_and_support (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  const QmQuoteLine *servers = NULL, *switches = NULL, *install = NULL;

  qm_test_quote_cost (&cost);
  cost.bom[0].lead_weeks = 8;
  cost.bom[1].lead_weeks = 20;
  cost.bom[0].support_rate = 0.1;
  qm_quote_terms_init (&t, NULL);
  t.support_years = 2;
  t.support_rate = 0.05;
  t.n_phases = 4;
  for (guint k = 0; k < 4; k++)
    t.phases[k] = 0.25;
  t.phase_interval_months = 2;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);
  for (guint i = 0; i < q.n_lines; i++)
    if (q.lines[i].kind == QM_QUOTE_LINE_HARDWARE && g_str_equal (q.lines[i].item, "Servers"))
      servers = &q.lines[i];
    else if (q.lines[i].kind == QM_QUOTE_LINE_HARDWARE)
      switches = &q.lines[i];
    else if (q.lines[i].kind == QM_QUOTE_LINE_INSTALL)
      install = &q.lines[i];
  g_assert_nonnull (servers);
  g_assert_nonnull (switches);
  g_assert_nonnull (install);
  g_assert_cmpfloat (servers->lead_weeks, ==, 8);
  g_assert_cmpfloat (switches->lead_weeks, ==, 20);
  g_assert_cmpfloat (install->lead_weeks, ==, 12);
  /* The JSON gives each line's lead time. */
  {
    QmQuoteHeader h = { 0 };
    g_autoptr(JsonNode) node = NULL;
    JsonArray *lines;

    g_date_clear (&h.issued, 1);
    g_date_set_dmy (&h.issued, 25, 11, 2026);
    node = qm_quote_to_json_node (&h, &q, &h.issued);
    lines = json_object_get_array_member (json_node_get_object (node), "lines");
    g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (lines, 0), "lead_weeks"), ==, 8);
    g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (lines, 1), "lead_weeks"), ==, 20);
  }

  /* Phases: 5, then max (2 + 2k, the one ahead): 5, 5, 6. */
  g_assert_cmpuint (q.n_phases, ==, 4);
  g_assert_cmpuint (q.delivery_month[0], ==, 5);
  g_assert_cmpuint (q.delivery_month[1], ==, 5);
  g_assert_cmpuint (q.delivery_month[2], ==, 6);
  g_assert_cmpuint (q.delivery_month[3], ==, 8);
  g_assert_cmpuint (q.training_start_month, ==, 8);

  /* Support: the servers at their catalog rate, 2 × 10 % of $300,000 =
   * $60,000 each; the switches at the quote's 5 %: 2 × $1,500 = $3,000. */
  for (guint i = 0; i < q.n_lines; i++)
    if (q.lines[i].kind == QM_QUOTE_LINE_SUPPORT)
      g_assert_cmpint (q.lines[i].net_unit, ==,
                       g_str_equal (q.lines[i].item, "Servers") ? 6000000 : 300000);

  /* Negotiated terms beat the catalog: 30 weeks for the servers (6.9
   * months: month 7), support at 4 %. */
  g_strlcpy (t.items[0].catalog_id, "dgx-h100", sizeof t.items[0].catalog_id);
  t.items[0].lead_weeks = 30;
  t.items[0].support_rate = 0.04;
  t.n_items = 1;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.delivery_month[0], ==, 7);
  g_assert_cmpuint (q.delivery_month[1], ==, 9);
  g_assert_cmpuint (q.training_start_month, ==, 13);
  for (guint i = 0; i < q.n_lines; i++)
    if (q.lines[i].kind == QM_QUOTE_LINE_SUPPORT && g_str_equal (q.lines[i].item, "Servers"))
      g_assert_cmpint (q.lines[i].net_unit, ==, 2400000);
}

/* One fabric, four lines with the same catalog id (issue #35 item 1): the
 * compute switches, storage switches, cables and transceivers of
 * ib-ndr-400. Each line has its own key and its own terms: 5 % on the
 * compute switches and 2 % on the cables give 5 % and 2 % on those two
 * lines and list on the other two (before, the last discount typed went
 * to all four). */
static void
fabric_cost (QmCost *cost)
{
  memset (cost, 0, sizeof *cost);
  cost->bom[0] = (QmBomLine) { .item = "Compute fabric switches", .catalog_id = "ib-ndr-400",
                               .qty = 4, .unit_usd = 30000, .total_usd = 120000 };
  cost->bom[1] = (QmBomLine) { .item = "Storage fabric switches", .catalog_id = "ib-ndr-400",
                               .qty = 2, .unit_usd = 30000, .total_usd = 60000 };
  cost->bom[2] = (QmBomLine) { .item = "Fabric cables", .catalog_id = "ib-ndr-400",
                               .qty = 100, .unit_usd = 500, .total_usd = 50000 };
  cost->bom[3] = (QmBomLine) { .item = "Optical transceivers", .catalog_id = "ib-ndr-400",
                               .qty = 50, .unit_usd = 1000, .total_usd = 50000 };
  cost->n_bom = 4;
  cost->hardware_usd = 280000;
  cost->horizon_months = 36;
}

static const QmQuoteLine *
line_with_key (const QmQuote *q,
               const char    *key)
{
  const QmQuoteLine *l = qm_quote_find_line (q, key);

  g_assert_nonnull (l);
  return l;
}

static void
test_per_line_terms (void)
{
  static const char *const keys[] = {
    "compute-switches:ib-ndr-400", "storage-switches:ib-ndr-400",
    "cables:ib-ndr-400", "transceivers:ib-ndr-400",
  };
  QmCost cost;
  QmQuoteTerms t, split;
  QmQuote q, again;
  QmQuoteItemTerms *it;
  char key[QM_QUOTE_KEY_MAX];

  fabric_cost (&cost);
  terms_plain (&t);

  /* Four lines, four keys: the role, then the catalog id. */
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.n_lines, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      qm_quote_line_key (&cost.bom[i], key, sizeof key);
      g_assert_cmpstr (key, ==, keys[i]);
      g_assert_cmpstr (q.lines[i].key, ==, keys[i]);
    }
  /* A line without a catalog id is keyed by its role alone. */
  qm_quote_line_key (&(QmBomLine) { .item = "Installation" }, key, sizeof key);
  g_assert_cmpstr (key, ==, "installation");

  /* 5 % on the compute switches, then 2 % on the cables, as typed. */
  it = qm_quote_terms_edit (&t, &q, "compute-switches:ib-ndr-400");
  g_assert_nonnull (it);
  it->discount_kind = QM_DISCOUNT_FRACTION;
  it->discount = 0.05;
  g_strlcpy (it->vendor, "Fabric Reseller", sizeof it->vendor);
  it = qm_quote_terms_edit (&t, &q, "cables:ib-ndr-400");
  g_assert_nonnull (it);
  it->discount_kind = QM_DISCOUNT_FRACTION;
  it->discount = 0.02;
  it->lead_weeks = 4;
  g_assert_cmpuint (t.n_items, ==, 2);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);

  /* 30,000.00 less 5 % = 28,500.00, × 4 = 114,000.00. */
  g_assert_cmpfloat_with_epsilon (line_with_key (&q, keys[0])->discount, 0.05, 1e-12);
  g_assert_cmpint (line_with_key (&q, keys[0])->net_unit, ==, 2850000);
  g_assert_cmpint (line_with_key (&q, keys[0])->total, ==, 11400000);
  g_assert_cmpstr (line_with_key (&q, keys[0])->vendor, ==, "Fabric Reseller");
  /* The storage switches, same item, at list. */
  g_assert_cmpfloat (line_with_key (&q, keys[1])->discount, ==, 0.0);
  g_assert_cmpint (line_with_key (&q, keys[1])->net_unit, ==, 3000000);
  g_assert_cmpstr (line_with_key (&q, keys[1])->vendor, ==, "");
  /* 500.00 less 2 % = 490.00, × 100 = 49,000.00; its own lead time. */
  g_assert_cmpfloat_with_epsilon (line_with_key (&q, keys[2])->discount, 0.02, 1e-12);
  g_assert_cmpint (line_with_key (&q, keys[2])->net_unit, ==, 49000);
  g_assert_cmpint (line_with_key (&q, keys[2])->total, ==, 4900000);
  g_assert_cmpfloat (line_with_key (&q, keys[2])->lead_weeks, ==, 4);
  g_assert_cmpfloat (line_with_key (&q, keys[0])->lead_weeks, ==, 0);
  /* The transceivers at list. */
  g_assert_cmpfloat (line_with_key (&q, keys[3])->discount, ==, 0.0);
  g_assert_cmpint (line_with_key (&q, keys[3])->total, ==, 5000000);
  /* 114,000 + 60,000 + 49,000 + 50,000. */
  g_assert_cmpint (q.net, ==, 27300000);

  /* A file written before per-line keys: one discount for the catalog id
   * applies to every line with it that has no terms of its own. */
  terms_plain (&t);
  t.n_items = 2;
  g_strlcpy (t.items[0].catalog_id, "ib-ndr-400", sizeof t.items[0].catalog_id);
  t.items[0].discount_kind = QM_DISCOUNT_FRACTION;
  t.items[0].discount = 0.03;
  g_strlcpy (t.items[1].key, "cables:ib-ndr-400", sizeof t.items[1].key);
  t.items[1].discount_kind = QM_DISCOUNT_FRACTION;
  t.items[1].discount = 0.02;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpfloat_with_epsilon (line_with_key (&q, keys[0])->discount, 0.03, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_with_key (&q, keys[1])->discount, 0.03, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_with_key (&q, keys[2])->discount, 0.02, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_with_key (&q, keys[3])->discount, 0.03, 1e-12);

  /* Split into the lines it priced, the same quote; then one line's
   * discount changes alone. */
  split = t;
  qm_quote_terms_split (&split, &q);
  g_assert_cmpuint (split.n_items, ==, 4);
  for (guint i = 0; i < split.n_items; i++)
    g_assert_cmpstr (split.items[i].key, !=, "");
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &split, &again);
  g_assert_cmpint (again.gross, ==, q.gross);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (again.lines[i].net_unit, ==, q.lines[i].net_unit);
  it = qm_quote_terms_edit (&t, &q, "transceivers:ib-ndr-400");
  g_assert_nonnull (it);
  g_assert_cmpfloat_with_epsilon (it->discount, 0.03, 1e-12);
  it->discount = 0.1;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &again);
  g_assert_cmpfloat_with_epsilon (line_with_key (&again, keys[0])->discount, 0.03, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_with_key (&again, keys[1])->discount, 0.03, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_with_key (&again, keys[2])->discount, 0.02, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_with_key (&again, keys[3])->discount, 0.1, 1e-12);

  /* What changed: the transceivers' price alone, and the gross. */
  {
    QmQuoteChange changes[8];
    guint n = qm_quote_diff (&q, &again, changes, G_N_ELEMENTS (changes));
    guint prices = 0;

    for (guint i = 0; i < n; i++)
      if (changes[i].kind == QM_QUOTE_CHANGE_PRICE)
        {
          prices++;
          g_assert_cmpstr (changes[i].line->key, ==, "transceivers:ib-ndr-400");
          g_assert_cmpint (changes[i].old_minor, ==, 97000);
          g_assert_cmpint (changes[i].new_minor, ==, 90000);
        }
      else
        g_assert_cmpint (changes[i].kind, ==, QM_QUOTE_CHANGE_GROSS);
    g_assert_cmpuint (prices, ==, 1);
  }

  /* No line has that key: nothing to edit. */
  g_assert_null (qm_quote_terms_edit (&t, &q, "servers:ib-ndr-400"));
}

/* A negotiated support rate is the line's, and its spares': the servers'
 * 4 % leaves the switches at the quote's rate. */
static void
test_per_line_support (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  QmQuoteItemTerms *it;

  qm_test_quote_cost (&cost);
  qm_quote_terms_init (&t, NULL);
  t.support_years = 2;
  t.support_rate = 0.05;
  t.spares_fraction = 0.25;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  it = qm_quote_terms_edit (&t, &q, "servers:dgx-h100");
  g_assert_nonnull (it);
  it->support_rate = 0.04;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);
  /* Servers and their spare: 2 × 4 % of 300,000.00 = 24,000.00 each;
   * the switches: 2 × 5 % of 30,000.00 = 3,000.00. */
  g_assert_cmpint (line_with_key (&q, "support/servers:dgx-h100")->net_unit, ==, 2400000);
  g_assert_cmpint (line_with_key (&q, "support/spares/servers:dgx-h100")->net_unit, ==, 2400000);
  g_assert_cmpfloat (line_with_key (&q, "support/spares/servers:dgx-h100")->qty, ==, 1);
  g_assert_cmpint (line_with_key (&q, "support/compute-switches:ib-ndr-400")->net_unit, ==, 300000);
}

/* Everything paid at order, no running costs, rent $100,000 a month: the
 * cumulative rent passes the price in the month it reaches it. */
static void
test_break_even (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;

  qm_test_quote_cost (&cost);
  cost.n_bom = 1;
  cost.bom[0].qty = 1;
  cost.bom[0].unit_usd = 1000000;
  cost.power_monthly = cost.colo_monthly = 0;
  cost.rent_monthly = 100000;
  terms_plain (&t);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_true (q.break_even_valid);
  /* Rent has reached 1,000,000 after 10 months: months 0-9. */
  g_assert_cmpuint (q.break_even_month, ==, 9);
  g_assert_cmpint (q.rent_total, ==, 36 * 10000000LL);

  cost.rent_monthly = 1000;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_false (q.break_even_valid);
}

/* A rent quote is paid evenly over the run, to the cent. */
static void
test_rent_quote (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  QmMinor sum = 0;

  memset (&cost, 0, sizeof cost);
  cost.bom[0] = (QmBomLine) { .item = "GPU-hours", .qty = 100000, .unit_usd = 2.49, .total_usd = 249000 };
  cost.n_bom = 1;
  terms_plain (&t);
  qm_quote_compute (&cost, QM_PRICING_RENT_ON_DEMAND, 2.5, &t, &q);
  g_assert_cmpuint (q.n_lines, ==, 1);
  g_assert_cmpint (q.gross, ==, 24900000);
  g_assert_cmpuint (q.n_months, ==, 3);
  for (guint m = 0; m < q.n_months; m++)
    sum += q.months[m].payments;
  g_assert_cmpint (sum, ==, q.gross);
  g_assert_false (q.break_even_valid);
}

static void
test_bad_terms (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;

  qm_test_quote_cost (&cost);
  terms_plain (&t);
  g_strlcpy (t.currency, "eu", sizeof t.currency);
  t.tax_rate = -0.2;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_nonnull (qm_issues_find (&q.issues, "quote.currency"));
  g_assert_nonnull (qm_issues_find (&q.issues, "quote.tax_rate"));
  g_assert_cmpstr (q.currency, ==, "USD");
  g_assert_cmpint (q.tax, ==, 0);

  terms_plain (&t);
  g_strlcpy (t.currency, "GBP", sizeof t.currency);
  t.exchange_rate = 0;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_nonnull (qm_issues_find (&q.issues, "quote.exchange_rate"));
  g_assert_true (qm_issues_has_error (&q.issues));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/quote/money-rounding", test_money_rounding);
  g_test_add_func ("/quote/money-format", test_money_format);
  g_test_add_func ("/quote/negotiated-eur", test_negotiated_eur);
  g_test_add_func ("/quote/whole-yen", test_whole_yen);
  g_test_add_func ("/quote/spares-support-shipping", test_spares_support_shipping);
  g_test_add_func ("/quote/revision-diff", test_revision_diff);
  g_test_add_func ("/quote/phased-cash-flow", test_phased_cash_flow);
  g_test_add_func ("/quote/catalog-lead-and-support", test_catalog_lead_and_support);
  g_test_add_func ("/quote/per-line-terms", test_per_line_terms);
  g_test_add_func ("/quote/per-line-support", test_per_line_support);
  g_test_add_func ("/quote/break-even", test_break_even);
  g_test_add_func ("/quote/rent", test_rent_quote);
  g_test_add_func ("/quote/bad-terms", test_bad_terms);
  return g_test_run ();
}
