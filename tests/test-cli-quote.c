/* test-cli-quote.c: quartermaster-cli quote, as a script uses it: the JSON
 * of issue #22 (quote.number, revision, currency, valid_until, lines[],
 * totals, cash_flow[]) from a plan file's quote section, its totals adding
 * up to the cent, expiry, and the text table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "qm-test-cli.h"
#include "qm-test-pdf.h"
#include "qm-test-util.h"

static char *
quote_plan (void)
{
  return qm_test_source_path ("data/examples/llama-3.1-70b-quote-eur.qmplan");
}

static JsonObject *
parse (const char *text,
       JsonParser *parser)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Cents as integers, so the sums are exact. */
static gint64
cents (JsonObject *o,
       const char *member)
{
  return (gint64) llround (json_object_get_double_member (o, member) * 100.0);
}

static void
test_json (void)
{
  g_autofree char *plan = quote_plan ();
  g_auto(Run) r = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *quote, *totals;
  JsonArray *lines, *months;
  gint64 net = 0, payments = 0, operations = 0, amount = 0;

  run_cli (&r, "quote", plan, "--date", "2026-11-25", "--json", NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  root = parse (r.out, parser);

  quote = json_object_get_object_member (root, "quote");
  g_assert_cmpstr (json_object_get_string_member (quote, "number"), ==, "Q-2026-0042");
  g_assert_true (json_object_get_null_member (quote, "revision"));
  g_assert_cmpstr (json_object_get_string_member (quote, "customer"), ==, "Beispiel Forschung GmbH");
  /* 45 days after 25 November 2026. */
  g_assert_cmpstr (json_object_get_string_member (quote, "valid_until"), ==, "2027-01-09");
  g_assert_cmpstr (json_object_get_string_member (root, "currency"), ==, "EUR");

  lines = json_object_get_array_member (root, "lines");
  g_assert_cmpuint (json_array_get_length (lines), >, 5);
  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonObject *l = json_array_get_object_element (lines, i);
      double qty = json_object_get_double_member (l, "qty");

      /* Whole units, and quantity × net unit price is the total. */
      g_assert_cmpfloat (qty, ==, floor (qty));
      g_assert_cmpint (llround (qty * cents (l, "net_unit_price")), ==, cents (l, "total"));
      if (json_object_get_boolean_member (l, "accepted"))
        net += cents (l, "total");
      if (g_strcmp0 (json_object_get_string_member (l, "kind"), "hardware") == 0 &&
          g_strcmp0 (json_object_get_string_member (l, "item"), "Servers") == 0)
        {
          /* $400,000 a DGX H100 (the built-in catalog) × 0.92, less 12 %. */
          g_assert_cmpstr (json_object_get_string_member (l, "id"), ==, "dgx-h100");
          g_assert_cmpint (cents (l, "list_unit_price"), ==,
                           llround (json_object_get_double_member (l, "list_unit_price") * 100));
          g_assert_cmpint (cents (l, "net_unit_price"), ==, llround (cents (l, "list_unit_price") * 0.88));
        }
    }

  totals = json_object_get_object_member (root, "totals");
  g_assert_cmpint (cents (totals, "net"), ==, net);
  /* German VAT, 19 % of the net, rounded once. */
  g_assert_cmpint (cents (totals, "tax"), ==, llround (net * 0.19));
  g_assert_cmpint (cents (totals, "gross"), ==, cents (totals, "net") + cents (totals, "tax"));

  months = json_object_get_array_member (root, "cash_flow");
  /* The plan writes its hardware off over 4 years. */
  g_assert_cmpuint (json_array_get_length (months), ==, 48);
  for (guint m = 0; m < json_array_get_length (months); m++)
    {
      JsonObject *c = json_array_get_object_element (months, m);

      g_assert_cmpint (json_object_get_int_member (c, "month"), ==, m);
      payments += cents (c, "payments");
      operations += cents (c, "operations");
      amount += cents (c, "amount");
    }
  g_assert_cmpint (payments, ==, cents (totals, "gross"));
  g_assert_cmpint (amount, ==, payments + operations);
  g_assert_cmpint (amount, ==, cents (root, "cash_flow_total"));
  /* Four monthly quarters after 12 weeks: training starts in month 6. */
  g_assert_cmpint (json_object_get_int_member (root, "training_start_month"), ==, 6);
}

/* Issued today, the quote stands; issued on 1 January 2025 for 45 days,
 * it ran out on 15 February 2025. */
static void
test_expired (void)
{
  g_autofree char *plan = quote_plan ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *today = g_date_time_format (now, "%Y-%m-%d");
  g_auto(Run) fresh = { 0 }, old = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *quote;

  run_cli (&fresh, "quote", plan, "--date", today, "--json", NULL);
  g_assert_cmpint (fresh.status, ==, 0);
  quote = json_object_get_object_member (parse (fresh.out, parser), "quote");
  g_assert_false (json_object_get_boolean_member (quote, "expired"));

  run_cli (&old, "quote", plan, "--date", "2025-01-01", "--json", NULL);
  g_assert_cmpint (old.status, ==, 0);
  quote = json_object_get_object_member (parse (old.out, parser), "quote");
  g_assert_cmpstr (json_object_get_string_member (quote, "valid_until"), ==, "2025-02-15");
  g_assert_true (json_object_get_boolean_member (quote, "expired"));
}

/* One member of the workbook's zip, as text. */
static char *
xlsx_member (const char *xlsx,
             const char *member)
{
  const char *argv[] = { "unzip", "-p", xlsx, member, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* The workbook keeps its formulas, and each carries the figure the quote
 * computed, so the totals follow a changed discount and a viewer that does
 * not recalculate still shows the quote's gross. */
static void
test_xlsx (void)
{
  g_autofree char *plan = quote_plan ();
  g_autofree char *dir = g_dir_make_tmp ("qm-quote-XXXXXX", NULL);
  g_autofree char *xlsx = g_build_filename (dir, "Q.xlsx", NULL);
  g_autofree char *sheet = NULL, *book = NULL, *gross = NULL;
  g_auto(Run) r = { 0 }, j = { 0 }, bad = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *totals;

  run_cli (&r, "quote", plan, "--date", "2026-11-25", "-o", xlsx, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  run_cli (&j, "quote", plan, "--date", "2026-11-25", "--json", NULL);
  totals = json_object_get_object_member (parse (j.out, parser), "totals");

  book = xlsx_member (xlsx, "xl/workbook.xml");
  g_assert_nonnull (strstr (book, "name=\"Quote\""));
  g_assert_nonnull (strstr (book, "name=\"Cash flow\""));

  sheet = xlsx_member (xlsx, "xl/worksheets/sheet1.xml");
  /* The servers' row: 12 % off 368,000.00 is 323,840.00, × 256. */
  g_assert_nonnull (strstr (sheet, "<f>ROUND(E9*(1-F9),2)</f><v>323840</v>"));
  g_assert_nonnull (strstr (sheet, "<c r=\"F9\" s=\"4\"><v>0.12</v>"));
  g_assert_nonnull (strstr (sheet, "<f>ROUND(D9*G9,2)</f><v>82903040</v>"));
  g_assert_nonnull (strstr (sheet, "<f>SUMPRODUCT(H9:H"));
  {
    g_autoptr(GRegex) re = g_regex_new ("<f>H[0-9]+\\+H[0-9]+</f><v>([0-9.]+)</v>", 0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;

    g_assert_true (g_regex_match (re, sheet, 0, &m));
    gross = g_match_info_fetch (m, 1);
    g_assert_cmpint (llround (g_ascii_strtod (gross, NULL) * 100), ==, cents (totals, "gross"));
  }

  run_cli (&bad, "quote", plan, "-o", "Q.ods", NULL);
  g_assert_cmpint (bad.status, ==, 2);

  g_unlink (xlsx);
  g_rmdir (dir);
}

static char *
pdf_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = g_filename_to_uri (path, NULL, &error);
  g_autoptr(PopplerDocument) pdf = poppler_document_new_from_file (uri, NULL, &error);
  GString *s = g_string_new (NULL);

  g_assert_no_error (error);
  for (int i = 0; i < poppler_document_get_n_pages (pdf); i++)
    {
      g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, i);
      g_autofree char *t = poppler_page_get_text (page);

      g_string_append (s, t);
    }
  return g_string_free (s, FALSE);
}

/* The PDF a customer signs: number, customer, validity, the lines, the
 * gross as the JSON gives it, the payments and a signature block; printed
 * again with the same date it reads the same, word for word. */
static void
test_pdf (void)
{
  g_autofree char *plan = quote_plan ();
  g_autofree char *dir = g_dir_make_tmp ("qm-quote-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "A.pdf", NULL);
  g_autofree char *b = g_build_filename (dir, "B.pdf", NULL);
  g_autofree char *text = NULL, *again = NULL, *gross = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, j = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *totals;

  run_cli (&r1, "quote", plan, "--date", "2026-11-25", "-o", a, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  run_cli (&r2, "quote", plan, "--date", "2026-11-25", "-o", b, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  run_cli (&j, "quote", plan, "--date", "2026-11-25", "--json", NULL);
  totals = json_object_get_object_member (parse (j.out, parser), "totals");

  text = pdf_text (a);
  again = pdf_text (b);
  g_assert_cmpstr (text, ==, again);
  g_assert_nonnull (strstr (text, "Quote Q-2026-0042"));
  g_assert_nonnull (strstr (text, "Beispiel Forschung GmbH"));
  g_assert_nonnull (strstr (text, "Valid until: 2027-01-09"));
  g_assert_nonnull (strstr (text, "Support: Servers"));
  g_assert_nonnull (strstr (text, "Deposit with the order"));
  g_assert_nonnull (strstr (text, "Signature"));
  g_assert_null (strstr (text, "expired"));
  /* The gross as the JSON gives it, grouped as the C locale of the tests
   * prints it: 39736729.77 → "39,736,729.77". */
  {
    gint64 c = cents (totals, "gross");
    GString *g = g_string_new (NULL);
    g_autofree char *whole = g_strdup_printf ("%" G_GINT64_FORMAT, c / 100);
    size_t n = strlen (whole);

    for (size_t i = 0; i < n; i++)
      {
        if (i > 0 && (n - i) % 3 == 0)
          g_string_append_c (g, ',');
        g_string_append_c (g, whole[i]);
      }
    g_string_append_printf (g, ".%02d", (int) (c % 100));
    gross = g_string_free (g, FALSE);
  }
  g_assert_nonnull (strstr (text, gross));

  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

static void
test_text_and_usage (void)
{
  g_autofree char *plan = quote_plan ();
  g_auto(Run) r = { 0 }, bad = { 0 };

  run_cli (&r, "quote", plan, "--date", "2026-11-25", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Quote Q-2026-0042 for Beispiel Forschung GmbH, valid until 2027-01-09"));
  g_assert_nonnull (strstr (r.out, "Support: Servers"));
  g_assert_nonnull (strstr (r.out, "Gross"));
  g_assert_nonnull (strstr (r.out, "Training can start in month 6."));

  run_cli (&bad, "quote", plan, "--date", "2026-13-01", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "--date"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/quote/json", test_json);
  g_test_add_func ("/cli/quote/expired", test_expired);
  g_test_add_func ("/cli/quote/xlsx", test_xlsx);
  g_test_add_func ("/cli/quote/pdf", test_pdf);
  g_test_add_func ("/cli/quote/text-and-usage", test_text_and_usage);
  return g_test_run ();
}
