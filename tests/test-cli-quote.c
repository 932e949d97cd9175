/* test-cli-quote.c: quartermaster-cli quote, as a script uses it: the JSON
 * of issue #22 (quote.number, revision, currency, valid_until, lines[],
 * totals, cash_flow[]) from a plan file's quote section, its totals adding
 * up to the cent, expiry, and the text table. The stored quotes' cases
 * run on a database file and on a private PostgreSQL cluster (issue #23).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cairo.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qm-test-cli.h"
#include "qm-test-pdf.h"
#include "qm-test-pg.h"
#include "qm-test-util.h"
#include "qm-supplier-store.h"

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

  book = qm_test_zip_member (xlsx, "xl/workbook.xml");
  g_assert_nonnull (strstr (book, "name=\"Quote\""));
  g_assert_nonnull (strstr (book, "name=\"Cash flow\""));

  sheet = qm_test_zip_member (xlsx, "xl/worksheets/sheet1.xml");
  /* The servers' row: 12 % off 368,000.00 is 323,840.00, × 256. */
  g_assert_nonnull (strstr (sheet, "<f>ROUND(E9*(1-F9),2)</f><v>323840</v>"));
  /* The discount a value (whatever the index of its percent format). */
  g_assert_true (g_regex_match_simple ("<c r=\"F9\" s=\"[0-9]+\"><v>0.12</v>", sheet, 0, 0));
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

  text = qm_test_pdf_text (a, NULL);
  again = qm_test_pdf_text (b, NULL);
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
  /* The technical page says how far to trust the plan (issue #36): this
   * one gives its own MFU, so no band applies. */
  {
    g_autofree char *flat = g_strdelimit (g_strdup (text), "\n", ' ');

    g_assert_nonnull (strstr (flat, "No likely range: the plan gives its own MFU, which no validation measures."));
  }

  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

/* A plan whose MFU the model predicts: the quote's technical page gives
 * the likely ranges and their basis as estimate --json has it. */
static void
test_pdf_bands (void)
{
  g_autofree char *plan = qm_test_source_path ("data/examples/7b-pretrain-30-day-deadline.qmplan");
  g_autofree char *dir = g_dir_make_tmp ("qm-quote-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "Q.pdf", NULL);
  g_autofree char *text = NULL, *squeezed = NULL, *basis = NULL;
  g_auto(Run) r = { 0 }, j = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *bands;

  run_cli (&r, "quote", plan, "--date", "2026-11-25", "-o", pdf, NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_cli (&j, "estimate", plan, "--json", NULL);
  g_assert_cmpint (j.status, ==, 0);
  bands = json_object_get_object_member (parse (j.out, parser), "bands");
  g_assert_nonnull (bands);

  text = qm_test_pdf_text (pdf, NULL);
  squeezed = qm_test_squeeze (text);
  g_assert_nonnull (strstr (squeezed, "Likely,as8in10publishedrunsofthekind:"));
  g_assert_nonnull (strstr (squeezed, "GPUsforthesamework."));
  basis = qm_test_squeeze (json_object_get_string_member (bands, "basis"));
  if (strstr (squeezed, basis) == NULL)
    g_error ("the basis “%s” not on the quote's technical page", json_object_get_string_member (bands, "basis"));
  /* At 50% the deadline is met by the estimate itself: no sentence. */
  g_assert_null (strstr (squeezed, "Thedeadlineismetwith"));
  g_assert_null (strstr (squeezed, "Nolikelyrange"));
  /* A customer reads the GPU's name, never a catalog id or a command
   * (issue #35 item 3). */
  g_assert_nonnull (strstr (squeezed, "88×H100SXM5"));
  g_assert_null (strstr (text, "h100-sxm-80gb"));
  g_assert_null (strstr (text, "quartermaster-cli"));

  g_unlink (pdf);
  g_rmdir (dir);
}

/* Per-line terms (issue #35 item 1): the compute switches, storage
 * switches, cables and transceivers all carry ib-ndr-400; the plan gives
 * the compute switches 5 % and the cables 2 %. The text table, the PDF,
 * the workbook and the CSV each print 5 % and 2 % on those two lines and
 * list on the other two, as the JSON has it. */
static const char *const fabric_items[] = {
  "Compute fabric switches", "Storage fabric switches", "Fabric cables", "Optical transceivers", "Racks",
};
static const char *const fabric_discounts[] = { "5.0 %", NULL, "2.0 %", NULL };
static const char *const fabric_keys[] = {
  "compute-switches:ib-ndr-400", "storage-switches:ib-ndr-400", "cables:ib-ndr-400", "transceivers:ib-ndr-400",
};

/* The text from @from up to @to in @text. */
static char *
between (const char *text,
         const char *from,
         const char *to)
{
  const char *a = strstr (text, from), *b;

  g_assert_nonnull (a);
  b = strstr (a + strlen (from), to);
  g_assert_nonnull (b);
  return g_strndup (a, b - a);
}

/* The <si> strings of a workbook, in order. */
static GPtrArray *
shared_strings (const char *xlsx)
{
  g_autofree char *xml = qm_test_zip_member (xlsx, "xl/sharedStrings.xml");
  g_autoptr(GRegex) re = g_regex_new ("<si><t[^>]*>([^<]*)</t></si>", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_regex_match (re, xml, 0, &m);
  while (g_match_info_matches (m))
    {
      g_ptr_array_add (out, g_match_info_fetch (m, 1));
      g_match_info_next (m, NULL);
    }
  return out;
}

static void
test_per_line (void)
{
  g_autofree char *plan = qm_test_source_path ("tests/plans/good/quote-per-line.qmplan");
  g_autofree char *dir = g_dir_make_tmp ("qm-quote-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "Q.pdf", NULL);
  g_autofree char *xlsx = g_build_filename (dir, "Q.xlsx", NULL);
  g_autofree char *csv = g_build_filename (dir, "Q.csv", NULL);
  g_autofree char *text = NULL, *sheet = NULL, *csv_text = NULL;
  g_autoptr(GPtrArray) strings = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0 }, j = { 0 }, p = { 0 }, x = { 0 }, c = { 0 };
  JsonArray *lines;

  run_cli (&j, "quote", plan, "--date", "2026-11-25", "--json", NULL);
  g_assert_cmpint (j.status, ==, 0);
  lines = json_object_get_array_member (parse (j.out, parser), "lines");
  /* The JSON: lines 1-4 are the fabric's, in the BOM's order. */
  for (guint i = 0; i < 4; i++)
    {
      JsonObject *l = json_array_get_object_element (lines, i + 1);

      g_assert_cmpstr (json_object_get_string_member (l, "item"), ==, fabric_items[i]);
      g_assert_cmpstr (json_object_get_string_member (l, "id"), ==, "ib-ndr-400");
      g_assert_cmpstr (json_object_get_string_member (l, "key"), ==, fabric_keys[i]);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (l, "discount"),
                                      i == 0 ? 0.05 : i == 2 ? 0.02 : 0.0, 1e-12);
    }

  /* The text table: each line its own discount. */
  run_cli (&r, "quote", plan, "--date", "2026-11-25", NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *row = between (r.out, fabric_items[i], "\n");

      g_test_message ("%s", row);
      if (fabric_discounts[i] != NULL)
        g_assert_nonnull (strstr (row, fabric_discounts[i]));
      else
        g_assert_null (strstr (row, "%"));
    }

  /* The PDF, read back: each row's cells between its item and the next.
   * Since the lines are numbered (issue #35 item 2) the item column is
   * narrower and "Compute fabric switches" wraps after "fabric": a row is
   * found by its label's first line. */
  run_cli (&p, "quote", plan, "--date", "2026-11-25", "-o", pdf, NULL);
  g_assert_cmpint (p.status, ==, 0);
  text = qm_test_pdf_text (pdf, NULL);
  for (guint i = 0; i < 4; i++)
    {
      static const char *const first_lines[] = {
        "Compute fabric", "Storage fabric", "Fabric cables", "Optical transceivers", "Racks",
      };
      g_autofree char *row = between (text, first_lines[i], first_lines[i + 1]);

      g_test_message ("PDF: %s", row);
      if (fabric_discounts[i] != NULL)
        g_assert_nonnull (strstr (row, fabric_discounts[i]));
      else
        g_assert_null (strstr (row, "%"));
    }

  /* The workbook: rows 10-13, the item in A, the discount in F. */
  run_cli (&x, "quote", plan, "--date", "2026-11-25", "-o", xlsx, NULL);
  g_assert_cmpint (x.status, ==, 0);
  sheet = qm_test_zip_member (xlsx, "xl/worksheets/sheet1.xml");
  strings = shared_strings (xlsx);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *item_re = g_strdup_printf ("<c r=\"A%u\"[^>]*t=\"s\"[^>]*><v>([0-9]+)</v>", i + 10);
      /* The discount a value, whatever the index of its percent format. */
      g_autofree char *value = g_regex_escape_string (i == 0 ? "0.05" : i == 2 ? "0.02" : "0", -1);
      g_autofree char *discount = g_strdup_printf ("<c r=\"F%u\" s=\"[0-9]+\"><v>%s</v>", i + 10, value);
      g_autoptr(GRegex) re = g_regex_new (item_re, 0, 0, NULL);
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *index = NULL;

      g_assert_true (g_regex_match (re, sheet, 0, &m));
      index = g_match_info_fetch (m, 1);
      g_assert_cmpuint (atoi (index), <, strings->len);
      g_assert_cmpstr (g_ptr_array_index (strings, atoi (index)), ==, fabric_items[i]);
      if (!g_regex_match_simple (discount, sheet, 0, 0))
        g_error ("no %s in the workbook", discount);
    }

  /* The CSV. */
  run_cli (&c, "quote", plan, "--date", "2026-11-25", "-o", csv, NULL);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, NULL));
  g_assert_nonnull (strstr (csv_text, "ib-ndr-400,Compute fabric switches,,96,27600.00,0.05,26220.00,"));
  g_assert_nonnull (strstr (csv_text, "ib-ndr-400,Storage fabric switches,,33,27600.00,0,27600.00,"));
  g_assert_nonnull (strstr (csv_text, "ib-ndr-400,Fabric cables,,5153,276.00,0.02,270.48,"));
  g_assert_nonnull (strstr (csv_text, "ib-ndr-400,Optical transceivers,,10306,828.00,0,828.00,"));

  g_unlink (pdf);
  g_unlink (xlsx);
  g_unlink (csv);
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


/* Drops the plan's own exchange rate and renames it "No rate". */
static gboolean
replace_norate (const GMatchInfo *info,
                GString          *res,
                gpointer          data)
{
  g_autofree char *m = g_match_info_fetch (info, 0);

  if (g_str_has_prefix (m, "Llama"))
    g_string_append (res, "No rate");
  return FALSE;
}

/* The engine a stored-quote case runs on (its test data). */
enum { ON_SQLITE, ON_POSTGRESQL };

static QmTestPg *cluster;

/* A database of its own, a file in a temporary folder or a fresh one on
 * the cluster, with the example plan saved in it (quoted in euros at 0.92
 * per dollar). */
typedef struct
{
  char *dir;
  char *db;
} Store;

static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        remove_tree (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

static void
store_clear (Store *t)
{
  if (t->dir != NULL)
    remove_tree (t->dir);
  g_clear_pointer (&t->dir, g_free);
  g_clear_pointer (&t->db, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Store, store_clear)

#define PLAN_NAME "Llama 3.1 70B, quoted in euros"

static void
store_init (Store         *t,
            gconstpointer  engine)
{
  g_autofree char *plan = quote_plan ();
  g_auto(Run) r = { 0 };

  t->dir = g_dir_make_tmp ("qm-quote-store-XXXXXX", NULL);
  if (GPOINTER_TO_INT (engine) == ON_POSTGRESQL)
    t->db = qm_test_pg_new_database (cluster);
  else
    t->db = g_build_filename (t->dir, "q.db", NULL);
  run_cli (&r, "--db", t->db, "plans", "import", plan, NULL);
  g_assert_cmpint (r.status, ==, 0);
}

static char *
store_file (Store      *t,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (t->dir, name, NULL);

  if (contents != NULL)
    g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

/* quote --save numbers the saved plan's quote from the store; list shows
 * it; show gives the same figures as the draft of the same plan and day. */
static void
test_save_list_show (gconstpointer engine)
{
  g_autofree char *plan = quote_plan ();
  g_auto(Store) t = { 0 };
  g_auto(Run) save = { 0 }, again = { 0 }, list = { 0 }, lj = { 0 }, show = { 0 }, draft = { 0 }, missing = { 0 };
  g_autoptr(JsonParser) p1 = json_parser_new (), p2 = json_parser_new (), p3 = json_parser_new ();
  JsonObject *quote, *row;
  JsonArray *rows;

  store_init (&t, engine);
  run_cli (&save, "--db", t.db, "quote", PLAN_NAME, "--save", "--date", "2026-11-25", NULL);
  g_assert_cmpstr (save.err, ==, "");
  g_assert_cmpint (save.status, ==, 0);
  g_assert_nonnull (strstr (save.out, "Saved quote Q-2026-0001 revision A"));
  g_assert_nonnull (strstr (save.out, "Quote Q-2026-0001 revision A for Beispiel Forschung GmbH, "
                                      "valid until 2027-01-09"));
  run_cli (&again, "--db", t.db, "quote", PLAN_NAME, "--save", "--date", "2026-11-30",
           "--note", "Customer asked for net 45", NULL);
  g_assert_nonnull (strstr (again.out, "Saved quote Q-2026-0001 revision B"));

  run_cli (&list, "--db", t.db, "quote", "list", NULL);
  g_assert_cmpint (list.status, ==, 0);
  g_assert_nonnull (strstr (list.out, "Q-2026-0001"));
  g_assert_nonnull (strstr (list.out, "Beispiel Forschung GmbH"));
  g_assert_nonnull (strstr (list.out, "2027-01-14"));
  g_assert_nonnull (strstr (list.out, "EUR "));
  g_assert_null (strstr (list.out, "expired"));

  run_cli (&lj, "--db", t.db, "quote", "list", "--customer", "beispiel", "--state", "draft", "--json", NULL);
  g_assert_cmpint (lj.status, ==, 0);
  g_assert_true (json_parser_load_from_data (p1, lj.out, -1, NULL));
  rows = json_object_get_array_member (json_node_get_object (json_parser_get_root (p1)), "quotes");
  g_assert_cmpuint (json_array_get_length (rows), ==, 1);
  row = json_array_get_object_element (rows, 0);
  g_assert_cmpstr (json_object_get_string_member (row, "number"), ==, "Q-2026-0001");
  g_assert_cmpstr (json_object_get_string_member (row, "revision"), ==, "B");
  g_assert_cmpstr (json_object_get_string_member (row, "plan"), ==, PLAN_NAME);
  g_assert_cmpstr (json_object_get_string_member (row, "issued"), ==, "2026-11-30");
  g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "draft");
  g_assert_false (json_object_get_boolean_member (row, "expired"));

  /* B says what changed since A: the same plan and terms, so nothing but
   * the note, in words and as data. */
  {
    g_auto(Run) b = { 0 }, bj = { 0 };
    g_autoptr(JsonParser) pb = json_parser_new ();
    JsonObject *o;

    run_cli (&b, "--db", t.db, "quote", "show", "Q-2026-0001", NULL);
    g_assert_cmpint (b.status, ==, 0);
    g_assert_nonnull (strstr (b.out, "Changes since revision A:\nNo change in the lines or the total\n"));
    run_cli (&bj, "--db", t.db, "quote", "show", "Q-2026-0001", "--json", NULL);
    g_assert_cmpint (bj.status, ==, 0);
    g_assert_true (json_parser_load_from_data (pb, bj.out, -1, NULL));
    o = json_node_get_object (json_parser_get_root (pb));
    g_assert_cmpstr (json_object_get_string_member (o, "changes_since"), ==, "A");
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "changes")), ==, 0);
  }

  run_cli (&show, "--db", t.db, "quote", "show", "Q-2026-0001", "--revision", "A", "--json", NULL);
  g_assert_cmpint (show.status, ==, 0);
  /* The first revision has nothing to compare with. */
  g_assert_null (strstr (show.out, "\"changes\""));
  run_cli (&draft, "quote", plan, "--date", "2026-11-25", "--json", NULL);
  quote = json_object_get_object_member (parse (show.out, p2), "quote");
  g_assert_cmpstr (json_object_get_string_member (quote, "number"), ==, "Q-2026-0001");
  g_assert_cmpstr (json_object_get_string_member (quote, "revision"), ==, "A");
  g_assert_cmpint (cents (json_object_get_object_member (parse (show.out, p2), "totals"), "gross"), ==,
                   cents (json_object_get_object_member (parse (draft.out, p3), "totals"), "gross"));

  run_cli (&missing, "--db", t.db, "quote", "show", "Q-2026-0099", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "Q-2026-0099"));
}

/* Revision A after the catalog's price of the servers changed: the same
 * totals and the same PDF text; a new revision takes the new price. */
static void
test_reprint (void)
{
  g_auto(Store) t = { 0 };
  g_autofree char *a1 = NULL, *a2 = NULL, *csv = NULL, *text1 = NULL, *text2 = NULL;
  g_auto(Run) save = { 0 }, pdf1 = { 0 }, j1 = { 0 }, price = { 0 }, rev_b = { 0 }, pdf2 = { 0 }, j2 = { 0 };
  g_autoptr(JsonParser) p1 = json_parser_new (), p2 = json_parser_new (), p3 = json_parser_new ();
  gint64 gross_a;

  store_init (&t, GINT_TO_POINTER (ON_SQLITE));  /* catalog import: SQLite only yet */
  a1 = store_file (&t, "A1.pdf", NULL);
  a2 = store_file (&t, "A2.pdf", NULL);
  csv = store_file (&t, "prices.csv", "kind,id,name,price_usd\nserver,dgx-h100,DGX H100,500000\n");
  run_cli (&save, "--db", t.db, "quote", PLAN_NAME, "--save", "--date", "2026-11-25", NULL);
  g_assert_cmpint (save.status, ==, 0);
  run_cli (&pdf1, "--db", t.db, "quote", "show", "Q-2026-0001", "-o", a1, NULL);
  g_assert_cmpint (pdf1.status, ==, 0);
  run_cli (&j1, "--db", t.db, "quote", "show", "Q-2026-0001", "--json", NULL);
  gross_a = cents (json_object_get_object_member (parse (j1.out, p1), "totals"), "gross");

  run_cli (&price, "--db", t.db, "catalog", "import", csv, NULL);
  g_assert_cmpint (price.status, ==, 0);
  run_cli (&rev_b, "--db", t.db, "quote", PLAN_NAME, "--save", "--date", "2026-12-01", "--json", NULL);
  g_assert_cmpint (rev_b.status, ==, 0);
  g_assert_cmpint (cents (json_object_get_object_member (parse (rev_b.out, p2), "totals"), "gross"), >, gross_a);

  run_cli (&pdf2, "--db", t.db, "quote", "show", "Q-2026-0001", "--revision", "A", "-o", a2, NULL);
  g_assert_cmpint (pdf2.status, ==, 0);
  run_cli (&j2, "--db", t.db, "quote", "show", "Q-2026-0001", "--revision", "A", "--json", NULL);
  g_assert_cmpint (cents (json_object_get_object_member (parse (j2.out, p3), "totals"), "gross"), ==, gross_a);
  text1 = qm_test_pdf_text (a1, NULL);
  text2 = qm_test_pdf_text (a2, NULL);
  g_assert_cmpstr (text1, ==, text2);
  g_assert_nonnull (strstr (text1, "Q-2026-0001"));

  /* The same revision as CSV names its number and revision. */
  {
    g_autofree char *csv_out = store_file (&t, "A.csv", NULL);
    g_autofree char *rows = NULL;
    g_auto(Run) c = { 0 };

    run_cli (&c, "--db", t.db, "quote", "show", "Q-2026-0001", "--revision", "A", "-o", csv_out, NULL);
    g_assert_cmpint (c.status, ==, 0);
    g_assert_true (g_file_get_contents (csv_out, &rows, NULL, NULL));
    g_assert_nonnull (strstr (rows, "Q-2026-0001"));
  }
}

/* A quote issued on 1 January 2025 for 45 days ran out on 15 February
 * 2025: the list, its JSON and show all say so. */
static void
test_expired_stored (gconstpointer engine)
{
  g_auto(Store) t = { 0 };
  g_auto(Run) save = { 0 }, list = { 0 }, lj = { 0 }, show = { 0 }, sj = { 0 };
  g_autoptr(JsonParser) p1 = json_parser_new (), p2 = json_parser_new ();
  JsonObject *row;

  store_init (&t, engine);
  run_cli (&save, "--db", t.db, "quote", PLAN_NAME, "--save", "--date", "2025-01-01", NULL);
  g_assert_cmpint (save.status, ==, 0);
  g_assert_nonnull (strstr (save.out, "Q-2025-0001"));
  run_cli (&list, "--db", t.db, "quote", "list", NULL);
  g_assert_nonnull (strstr (list.out, "2025-02-15 expired"));
  run_cli (&lj, "--db", t.db, "quote", "list", "--json", NULL);
  g_assert_true (json_parser_load_from_data (p1, lj.out, -1, NULL));
  row = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (p1)), "quotes"),
                                    0);
  g_assert_cmpstr (json_object_get_string_member (row, "valid_until"), ==, "2025-02-15");
  g_assert_true (json_object_get_boolean_member (row, "expired"));
  run_cli (&show, "--db", t.db, "quote", "show", "Q-2025-0001", NULL);
  g_assert_nonnull (strstr (show.out, "This quote has expired"));
  run_cli (&sj, "--db", t.db, "quote", "show", "Q-2025-0001", "--json", NULL);
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (parse (sj.out, p2), "quote"),
                                                 "expired"));
}

/* A plan without its own exchange rate takes the store's on or before
 * the quote date; rates import names the file's line and column. */
static void
test_rates (gconstpointer engine)
{
  g_autofree char *plan = quote_plan ();
  g_autofree char *data = NULL, *norate = NULL, *bad = NULL, *good = NULL;
  g_auto(Store) t = { 0 };
  g_auto(Run) imp = { 0 }, none = { 0 }, badr = { 0 }, goodr = { 0 }, list = { 0 }, save = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GRegex) re = g_regex_new ("\"exchange_rate\": 0\\.92, |Llama 3\\.1 70B, quoted in euros", 0, 0, NULL);
  g_autofree char *changed = NULL;

  store_init (&t, engine);
  g_assert_true (g_file_get_contents (plan, &data, NULL, NULL));
  changed = g_regex_replace_eval (re, data, -1, 0, 0, replace_norate, NULL, NULL);
  norate = store_file (&t, "norate.qmplan", changed);
  bad = store_file (&t, "bad.csv", "currency,rate_per_usd,date,source\nEUR,0.93,2026-01-05,ECB\n"
                                   "EUR,-1,2026-02-01,ECB\n");
  good = store_file (&t, "good.csv", "currency,rate_per_usd,date,source\nEUR,0.93,2026-01-05,ECB\n"
                                     "EUR,0.95,2026-12-01,ECB\n");
  run_cli (&imp, "--db", t.db, "plans", "import", norate, NULL);
  g_assert_cmpint (imp.status, ==, 0);

  run_cli (&none, "--db", t.db, "quote", "No rate", "--save", "--date", "2026-11-25", NULL);
  g_assert_cmpint (none.status, ==, 1);
  g_assert_nonnull (strstr (none.err, "EUR"));
  g_assert_nonnull (strstr (none.err, "2026-11-25"));

  run_cli (&badr, "--db", t.db, "rates", "import", bad, NULL);
  g_assert_cmpint (badr.status, ==, 1);
  g_assert_nonnull (strstr (badr.err, "bad.csv:3: rate_per_usd: must be a number > 0"));
  run_cli (&goodr, "--db", t.db, "rates", "import", good, NULL);
  g_assert_cmpint (goodr.status, ==, 0);
  run_cli (&list, "--db", t.db, "rates", "list", NULL);
  g_assert_nonnull (strstr (list.out, "2026-12-01"));
  g_assert_nonnull (strstr (list.out, "ECB"));

  run_cli (&save, "--db", t.db, "quote", "No rate", "--save", "--date", "2026-11-25", "--json", NULL);
  g_assert_cmpstr (save.err, ==, "");
  g_assert_cmpint (save.status, ==, 0);
  {
    JsonObject *rate = json_object_get_object_member (parse (save.out, parser), "exchange_rate");

    g_assert_cmpfloat (json_object_get_double_member (rate, "per_usd"), ==, 0.93);
    g_assert_cmpstr (json_object_get_string_member (rate, "date"), ==, "2026-01-05");
    g_assert_cmpstr (json_object_get_string_member (rate, "source"), ==, "ECB");
  }
}

/* What a stored quote says of itself (project, who prepared it, the
 * payment terms and the free-text terms) is printed on its PDF. */
static void
test_stored_terms_printed (gconstpointer engine)
{
  g_auto(Store) t = { 0 };
  g_auto(Run) save = { 0 }, show = { 0 };
  g_autofree char *pdf = NULL, *text = NULL, *flat = NULL;

  store_init (&t, engine);
  run_cli (&save, "--db", t.db, "quote", PLAN_NAME, "--save", "--date", "2026-11-25",
           "--project", "Pretraining 2027", "--prepared-by", "Ada Lovelace",
           "--payment-terms", "Net 45 days", "--terms", "Delivery ex works Leipzig.", NULL);
  g_assert_cmpstr (save.err, ==, "");
  g_assert_cmpint (save.status, ==, 0);
  pdf = store_file (&t, "Q.pdf", NULL);
  run_cli (&show, "--db", t.db, "quote", "show", "Q-2026-0001", "-o", pdf, NULL);
  g_assert_cmpstr (show.err, ==, "");
  g_assert_cmpint (show.status, ==, 0);
  text = qm_test_pdf_text (pdf, NULL);
  flat = g_strdelimit (g_strdup (text), "\n", ' ');
  g_assert_nonnull (strstr (flat, "Revision A"));
  g_assert_null (strstr (flat, "Draft"));
  g_assert_nonnull (strstr (flat, "Project: Pretraining 2027"));
  g_assert_nonnull (strstr (flat, "Prepared by: Ada Lovelace"));
  g_assert_nonnull (strstr (flat, "Payment terms: Net 45 days"));
  g_assert_nonnull (strstr (flat, "Delivery ex works Leipzig."));
}

/* ------------------------------------------------------------------ */
/* The PDF as a document (issue #35 item 3)                            */

/* The page margin qm-document.c sets (MARGIN): text stays inside it. */
#define PAGE_MARGIN 50.0

/* @minor (cents) as the PDF's tables print it in the C locale, which the
 * tests run in: "156,836,169.92". */
static char *
grouped (gint64 minor)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, minor / 100);
  GString *s = g_string_new (NULL);
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  g_string_append_printf (s, ".%02d", (int) (minor % 100));
  return g_string_free (s, FALSE);
}

/* The words on @page as they are placed: poppler's text runs table cells
 * together, so a word ends at a space, a new line, or a gap wider than a
 * letter's spacing between two glyphs. One string, each word between
 * newlines, so "\nWORD\n" finds a whole word. */
static char *
page_words (PopplerPage *page)
{
  g_autofree char *text = poppler_page_get_text (page);
  PopplerRectangle *rects = NULL, *prev = NULL;
  GString *s = g_string_new ("\n");
  guint n = 0, k = 0;

  g_assert_true (poppler_page_get_text_layout (page, &rects, &n));
  for (const char *c = text; *c != '\0' && k < n; c = g_utf8_next_char (c), k++)
    {
      PopplerRectangle *r = &rects[k];

      if (g_unichar_isspace (g_utf8_get_char (c)))
        {
          if (s->str[s->len - 1] != '\n')
            g_string_append_c (s, '\n');
          prev = NULL;
          continue;
        }
      if (prev != NULL && (r->x1 - prev->x2 > 1.5 || r->x2 < prev->x1 || fabs (r->y1 - prev->y1) > 2.0) &&
          s->str[s->len - 1] != '\n')
        g_string_append_c (s, '\n');
      g_string_append_len (s, c, g_utf8_next_char (c) - c);
      prev = r;
    }
  if (s->str[s->len - 1] != '\n')
    g_string_append_c (s, '\n');
  g_free (rects);
  return g_string_free (s, FALSE);
}

static gboolean
has_word (const char *words,
          const char *word)
{
  g_autofree char *needle = g_strdup_printf ("\n%s\n", word);

  return strstr (words, needle) != NULL;
}

/* The index of the first page with the word @word, or -1. */
static int
page_of (char      **pages,
         const char *word)
{
  for (int i = 0; pages[i] != NULL; i++)
    if (has_word (pages[i], word))
      return i;
  return -1;
}

/* Rendered at 2× into build/quote-pdf-LANG-N.png for a person to look at;
 * nothing is drawn in the left and right margins (a column or a chart
 * that ran off its box would be). */
static void
check_rendered (PopplerPage *page,
                const char  *language,
                int          index)
{
  const double scale = 2.0;
  double w, h;
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autofree char *name = g_strdup_printf ("quote-pdf-%s-%d.png", language, index + 1);
  g_autofree char *path = g_build_filename (g_getenv ("QM_BUILD_DIR"), name, NULL);
  int pw, ph, stride;
  guchar *data;

  poppler_page_get_size (page, &w, &h);
  pw = (int) ceil (w * scale), ph = (int) ceil (h * scale);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, pw, ph);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_scale (cr, scale, scale);
  poppler_page_render (page, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);

  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < ph; y++)
    for (int x = 0; x < pw; x++)
      {
        guint32 px = *(guint32 *) (data + y * stride + x * 4) & 0xffffff;

        if (x >= (PAGE_MARGIN - 2) * scale && x < pw - (PAGE_MARGIN - 2) * scale)
          continue;
        if (px != 0xffffff)
          g_error ("%s: ink at (%d, %d) in the margin", name, x, y);
      }
  cairo_surface_destroy (surface);
}

/* No two glyphs on the page overlap (each box shrunk by a quarter, as
 * kerning brings neighbours' boxes together), and every glyph is inside
 * the page's margins. Returns the lowest glyph's bottom above the footer. */
static double
check_glyphs (PopplerPage *page,
              const char  *text)
{
  PopplerRectangle *rects = NULL;
  guint n = 0, k = 0;
  g_autoptr(GArray) ink = g_array_new (FALSE, FALSE, sizeof (PopplerRectangle));
  double w, h, lowest = 0.0;

  poppler_page_get_size (page, &w, &h);
  g_assert_true (poppler_page_get_text_layout (page, &rects, &n));
  for (const char *c = text; *c != '\0' && k < n; c = g_utf8_next_char (c), k++)
    {
      gunichar u = g_utf8_get_char (c);
      PopplerRectangle r = rects[k];
      double dx = (r.x2 - r.x1) / 4, dy = (r.y2 - r.y1) / 4;

      if (g_unichar_isspace (u) || r.x2 - r.x1 <= 0.01)
        continue;
      g_assert_cmpfloat (r.x1, >=, PAGE_MARGIN - 1.0);
      g_assert_cmpfloat (r.x2, <=, w - PAGE_MARGIN + 1.0);
      g_assert_cmpfloat (r.y1, >=, PAGE_MARGIN - 1.0);
      g_assert_cmpfloat (r.y2, <=, h - PAGE_MARGIN + 16.0);
      /* The footer sits below the content's bottom (MARGIN + FOOTER_GAP). */
      if (r.y2 < h - PAGE_MARGIN - 10.0)
        lowest = MAX (lowest, r.y2);
      r.x1 += dx, r.x2 -= dx, r.y1 += dy, r.y2 -= dy;
      for (guint j = 0; j < ink->len; j++)
        {
          const PopplerRectangle *o = &g_array_index (ink, PopplerRectangle, j);

          if (r.x1 < o->x2 && o->x1 < r.x2 && r.y1 < o->y2 && o->y1 < r.y2)
            g_error ("glyph '%.*s' at (%.1f, %.1f) overlaps another at (%.1f, %.1f)",
                     (int) (g_utf8_next_char (c) - c), c, r.x1, r.y1, o->x1, o->y1);
        }
      g_array_append_val (ink, r);
    }
  g_free (rects);
  return lowest;
}

/* Every page of @pdf in @language: its footer, no glyph on another,
 * nothing in the margins, and at least half full but the last (rendered
 * as build/quote-pdf-NAME-N.png). Adds each page's words to @pages, then
 * NULL. */
static void
check_pages (PopplerDocument *pdf,
             const char      *language,
             const char      *name,
             GPtrArray       *pages)
{
  int n_pages = poppler_document_get_n_pages (pdf);

  for (int i = 0; i < n_pages; i++)
    {
      g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, i);
      /* "Page n of m", as po/de.po and po/zh_CN.po translate it. */
      const char *format = g_str_equal (language, "de") ? "Seite %d von %d"
                           : g_str_equal (language, "zh_CN") ? "第 %d 页，共 %d 页" : "Page %d of %d";
      g_autofree char *footer = g_strdup_printf (format, i + 1, n_pages);
      g_autofree char *text = poppler_page_get_text (page);
      double lowest, w, h;

      g_ptr_array_add (pages, page_words (page));
      poppler_page_get_size (page, &w, &h);
      lowest = check_glyphs (page, text);
      check_rendered (page, name, i);
      g_assert_nonnull (strstr (text, footer));
      /* At least half of the text area used, but on the last page. */
      if (i < n_pages - 1)
        g_assert_cmpfloat (lowest, >=, PAGE_MARGIN + (h - 2 * PAGE_MARGIN - 18.0) / 2);
    }
  g_ptr_array_add (pages, NULL);
}

/* The quote's PDF paginated as a document, in English, German and
 * Chinese: every quantity extracted whole (never wrapped inside its
 * column), every word of the lines table's header whole ("Menge",
 * "Summe"), the net, tax and gross on the page of the last line, no page
 * but the last less than half full (a section that fits goes where there
 * is room), "Page n of m" on each, no glyph on another, nothing in the
 * margins. */
static void
test_pdf_layout (gconstpointer data)
{
  const char *language = data;
  g_autofree char *plan = quote_plan ();
  g_autofree char *dir = g_dir_make_tmp ("qm-quote-XXXXXX", NULL);
  g_autofree char *pdf_path = g_build_filename (dir, "Q.pdf", NULL);
  g_autofree char *uri = g_filename_to_uri (pdf_path, NULL, NULL);
  g_auto(Run) r = { 0 }, j = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *net = NULL, *tax = NULL, *gross = NULL, *last_total = NULL;
  JsonObject *root, *totals;
  JsonArray *lines;
  int n_pages, last_page;
  static const char *const header_words[][2] = {
    { "C", "No. Item Qty List unit price (EUR) Discount Net unit price (EUR) Total (EUR)" },
    { "de", "Pos. Posten Menge Listenpreis je Einheit (EUR) Rabatt Nettopreis je Einheit (EUR) Summe (EUR)" },
  };

  g_setenv ("LANGUAGE", language, TRUE);
  run_cli (&r, "quote", plan, "--date", "2026-11-25", "-o", pdf_path, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  run_cli (&j, "quote", plan, "--date", "2026-11-25", "--json", NULL);
  g_assert_cmpint (j.status, ==, 0);
  g_unsetenv ("LANGUAGE");
  root = parse (j.out, parser);

  pdf = poppler_document_new_from_file (uri, NULL, &error);
  g_assert_no_error (error);
  n_pages = poppler_document_get_n_pages (pdf);
  check_pages (pdf, language, language, pages);

  /* Each quantity whole, as a word. */
  lines = json_object_get_array_member (root, "lines");
  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonObject *l = json_array_get_object_element (lines, i);
      g_autofree char *qty = grouped (llround (json_object_get_double_member (l, "qty")) * 100);

      qty[strlen (qty) - 3] = '\0';  /* whole units: no ".00" */
      if (!(has_word (g_ptr_array_index (pages, 0), qty) ||
            (n_pages > 1 && has_word (g_ptr_array_index (pages, 1), qty))))
        g_error ("%s: the quantity %s is not a whole word on page 1 or 2", language, qty);
      if (json_object_get_boolean_member (l, "accepted"))
        {
          g_free (last_total);
          last_total = grouped (cents (l, "total"));
        }
    }

  /* The totals on the page of the last line. */
  totals = json_object_get_object_member (root, "totals");
  net = grouped (cents (totals, "net"));
  tax = grouped (cents (totals, "tax"));
  gross = grouped (cents (totals, "gross"));
  last_page = page_of ((char **) pages->pdata, last_total);
  g_assert_cmpint (last_page, >=, 0);
  g_assert_cmpint (page_of ((char **) pages->pdata, net), ==, last_page);
  g_assert_cmpint (page_of ((char **) pages->pdata, tax), ==, last_page);
  g_assert_cmpint (page_of ((char **) pages->pdata, gross), ==, last_page);

  /* The gross's label on one line, over the empty cells of its row
   * (it wrapped in German before). */
  if (g_str_equal (language, "de"))
    {
      g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, last_page);
      GList *found = poppler_page_find_text (page, "Gesamt, einschließlich Steuer");

      g_assert_nonnull (found);
      g_list_free_full (found, (GDestroyNotify) poppler_rectangle_free);
    }

  /* The header's words whole, on the first page. */
  for (guint i = 0; i < G_N_ELEMENTS (header_words); i++)
    if (g_str_equal (header_words[i][0], language))
      {
        g_auto(GStrv) words = g_strsplit (header_words[i][1], " ", -1);

        for (guint k = 0; words[k] != NULL; k++)
          if (!has_word (g_ptr_array_index (pages, 0), words[k]))
            g_error ("the header word '%s' is not whole on page 1", words[k]);
      }

  g_unlink (pdf_path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ */
/* The supplier on the quote (issue #35 item 2)                        */

#define SUPPLIER_ADDRESS "Musterstraße 1\n10115 Berlin\nGermany"

static void
set_supplier (const char *db,
              const char *bic)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = qm_store_open (db, &error);
  g_autoptr(QmSupplier) s = qm_supplier_new ();

  g_assert_no_error (error);
#define SET(f, v) (g_free (s->f), s->f = g_strdup (v))
  SET (name, "Grüne Rechenwerke GmbH");
  SET (address, SUPPLIER_ADDRESS);
  SET (vat_id, "DE811907980");
  SET (registration, "HRB 123456 B, Amtsgericht Charlottenburg");
  SET (email, "angebote@gruene-rechenwerke.example");
  SET (phone, "+49 30 1234567");
  SET (bank, "Berliner Sparkasse");
  SET (iban, "DE89 3704 0044 0532 0130 00");
  SET (bic, bic);
#undef SET
  g_assert_true (qm_supplier_store_set (store, s, &error));
  g_assert_no_error (error);
}

/* A stored quote shows the store's supplier: its name, address, VAT id,
 * registration and contact as a letterhead above the title, the bank
 * details with the payment terms, the customer's VAT id beside the
 * customer, and the lines numbered 1, 2, 3 ... in the first column; an
 * empty field prints no label. Laid out as the drafts are (no glyph on
 * another, pages half full, quantities whole), in English and German;
 * the workbook and the CSV carry the same fields. */
static void
test_supplier (gconstpointer engine)
{
  g_auto(Store) t = { 0 };
  g_auto(Run) save = { 0 }, json = { 0 }, nobic = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *csv = NULL, *xlsx = NULL, *csv_text = NULL, *strings = NULL, *sheet = NULL;
  JsonObject *root;
  JsonArray *lines;
  static const char *const languages[] = { "C", "de" };
  static const char *const shown[][2] = {
    /* English, German */
    { "Grüne Rechenwerke GmbH", "Grüne Rechenwerke GmbH" },
    { "Musterstraße 1", "Musterstraße 1" },
    { "10115 Berlin", "10115 Berlin" },
    { "VAT ID: DE811907980", "USt-IdNr.: DE811907980" },
    { "Company registration: HRB 123456 B, Amtsgericht Charlottenburg",
      "Handelsregister: HRB 123456 B, Amtsgericht Charlottenburg" },
    { "E-mail: angebote@gruene-rechenwerke.example", "E-Mail: angebote@gruene-rechenwerke.example" },
    { "Phone: +49 30 1234567", "Telefon: +49 30 1234567" },
    { "Bank: Berliner Sparkasse", "Bank: Berliner Sparkasse" },
    { "IBAN: DE89 3704 0044 0532 0130 00", "IBAN: DE89 3704 0044 0532 0130 00" },
    { "BIC / SWIFT: BELADEBEXXX", "BIC / SWIFT: BELADEBEXXX" },
    { "Customer VAT ID: FR40303265045", "USt-IdNr. des Kunden: FR40303265045" },
  };

  store_init (&t, engine);
  set_supplier (t.db, "BELADEBEXXX");
  run_cli (&save, "--db", t.db, "quote", PLAN_NAME, "--save", "--date", "2026-11-25",
           "--customer-vat", "FR40303265045", NULL);
  g_assert_cmpstr (save.err, ==, "");
  g_assert_cmpint (save.status, ==, 0);
  run_cli (&json, "--db", t.db, "quote", "show", "Q-2026-0001", "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  root = parse (json.out, parser);
  lines = json_object_get_array_member (root, "lines");
  g_assert_cmpuint (json_array_get_length (lines), >=, 3);
  {
    JsonObject *q = json_object_get_object_member (root, "quote");
    JsonObject *s = json_object_get_object_member (q, "supplier");

    g_assert_cmpstr (json_object_get_string_member (q, "customer_vat_id"), ==, "FR40303265045");
    g_assert_cmpstr (json_object_get_string_member (s, "iban"), ==, "DE89 3704 0044 0532 0130 00");
  }

  for (guint k = 0; k < G_N_ELEMENTS (languages); k++)
    {
      const char *language = languages[k];
      g_autofree char *pdf_path = store_file (&t, "Q.pdf", NULL);
      g_autofree char *uri = g_filename_to_uri (pdf_path, NULL, NULL);
      g_autofree char *name = g_strdup_printf ("supplier-%s", language);
      g_autofree char *text = NULL, *flat = NULL;
      g_autoptr(PopplerDocument) pdf = NULL;
      g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      g_auto(Run) show = { 0 };

      g_setenv ("LANGUAGE", language, TRUE);
      run_cli (&show, "--db", t.db, "quote", "show", "Q-2026-0001", "-o", pdf_path, NULL);
      g_unsetenv ("LANGUAGE");
      g_assert_cmpstr (show.err, ==, "");
      g_assert_cmpint (show.status, ==, 0);
      text = qm_test_pdf_text (pdf_path, NULL);
      flat = g_strdelimit (g_strdup (text), "\n", ' ');
      for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
        if (strstr (flat, shown[i][k]) == NULL)
          g_error ("%s: '%s' is not on the quote", language, shown[i][k]);

      pdf = poppler_document_new_from_file (uri, NULL, &error);
      g_assert_no_error (error);
      check_pages (pdf, language, name, pages);
      /* The letterhead above the title, on page 1. */
      {
        g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, 0);
        g_autofree char *first = poppler_page_get_text (page);
        const char *title = strstr (first, k == 0 ? "Quote Q-2026-0001" : "Angebot Q-2026-0001");
        const char *head = strstr (first, "Grüne Rechenwerke GmbH");

        g_assert_nonnull (title);
        g_assert_nonnull (head);
        g_assert_true (head < title);
      }
      /* Each line's number is a word of its own at the start of its row,
       * followed by the line's label; each quantity whole. */
      for (guint i = 0; i < json_array_get_length (lines); i++)
        {
          JsonObject *l = json_array_get_object_element (lines, i);
          g_autofree char *qty = grouped (llround (json_object_get_double_member (l, "qty")) * 100);
          g_autofree char *row = NULL;
          gboolean found = FALSE;

          qty[strlen (qty) - 3] = '\0';
          row = g_strdup_printf ("\n%u\n", i + 1);
          for (guint p = 0; pages->pdata[p] != NULL; p++)
            found = found || (strstr (pages->pdata[p], row) != NULL && has_word (pages->pdata[p], qty));
          if (!found)
            g_error ("%s: line %u (qty %s) is not numbered as a word of its own", language, i + 1, qty);
        }
    }

  /* A draft from the plan file takes them with --db, and only then. */
  {
    g_autofree char *plan = quote_plan ();
    g_autofree char *with = store_file (&t, "D1.csv", NULL), *without = store_file (&t, "D2.csv", NULL);
    g_autofree char *with_text = NULL, *without_text = NULL;
    g_auto(Run) d1 = { 0 }, d2 = { 0 };

    run_cli (&d1, "--db", t.db, "quote", plan, "--date", "2026-11-25", "-o", with, NULL);
    run_cli (&d2, "quote", plan, "--date", "2026-11-25", "-o", without, NULL);
    g_assert_cmpstr (d1.err, ==, "");
    g_assert_cmpint (d1.status, ==, 0);
    g_assert_cmpint (d2.status, ==, 0);
    g_assert_true (g_file_get_contents (with, &with_text, NULL, NULL));
    g_assert_true (g_file_get_contents (without, &without_text, NULL, NULL));
    g_assert_nonnull (strstr (with_text, "Supplier,Grüne Rechenwerke GmbH\r\n"));
    g_assert_null (strstr (without_text, "Supplier,"));
  }

  /* An emptied field prints no label. */
  set_supplier (t.db, "");
  {
    g_autofree char *pdf_path = store_file (&t, "Q2.pdf", NULL);
    g_autofree char *text = NULL;

    run_cli (&nobic, "--db", t.db, "quote", "show", "Q-2026-0001", "-o", pdf_path, NULL);
    g_assert_cmpint (nobic.status, ==, 0);
    text = qm_test_pdf_text (pdf_path, NULL);
    g_assert_null (strstr (text, "BIC"));
    g_assert_nonnull (strstr (text, "IBAN: DE89"));
  }

  /* The workbook and the CSV carry the same fields. */
  csv = store_file (&t, "Q.csv", NULL);
  xlsx = store_file (&t, "Q.xlsx", NULL);
  {
    g_auto(Run) c = { 0 }, x = { 0 };

    run_cli (&c, "--db", t.db, "quote", "show", "Q-2026-0001", "-o", csv, NULL);
    run_cli (&x, "--db", t.db, "quote", "show", "Q-2026-0001", "-o", xlsx, NULL);
    g_assert_cmpint (c.status, ==, 0);
    g_assert_cmpint (x.status, ==, 0);
  }
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, NULL));
  g_assert_nonnull (strstr (csv_text, "Customer VAT ID,FR40303265045\r\n"));
  g_assert_nonnull (strstr (csv_text, "Supplier,Grüne Rechenwerke GmbH\r\n"));
  g_assert_nonnull (strstr (csv_text, "Address,\"" SUPPLIER_ADDRESS "\"\r\n"));
  g_assert_nonnull (strstr (csv_text, "VAT ID,DE811907980\r\n"));
  g_assert_nonnull (strstr (csv_text, "IBAN,DE89 3704 0044 0532 0130 00\r\n"));
  g_assert_null (strstr (csv_text, "BIC"));
  strings = qm_test_zip_member (xlsx, "xl/sharedStrings.xml");
  for (guint i = 0; i < 2; i++)
    {
      const char *want[] = { "Musterstraße 1, 10115 Berlin, Germany",
                             "FR40303265045" };

      g_assert_nonnull (strstr (strings, want[i]));
    }
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    if (!g_str_equal (qm_supplier_fields[i].key, "bic") && !g_str_equal (qm_supplier_fields[i].key, "name"))
      {
        g_autofree char *label = g_strdup_printf (">%s<", qm_supplier_fields[i].label);

        g_assert_nonnull (strstr (strings, label));
      }
  g_assert_null (strstr (strings, "BIC"));
  /* The line table keeps its place: the servers' row is still row 9. */
  sheet = qm_test_zip_member (xlsx, "xl/worksheets/sheet1.xml");
  g_assert_nonnull (strstr (sheet, "<f>ROUND(E9*(1-F9),2)</f>"));
}

/* The SQLite case keeps its old name. */
static void
add_both (const char    *name,
          GTestDataFunc  func)
{
  g_autofree char *lite = g_strdup_printf ("/cli/quote/%s", name);
  g_autofree char *pg = g_strdup_printf ("/cli/quote/postgresql/%s", name);

  g_test_add_data_func (lite, GINT_TO_POINTER (ON_SQLITE), func);
  if (cluster != NULL)
    g_test_add_data_func (pg, GINT_TO_POINTER (ON_POSTGRESQL), func);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* build-aux/dev installs postgresql-15; only a machine without it skips. */
  if (qm_test_pg_available ())
    cluster = qm_test_pg_start ();
  else
    g_test_message ("PostgreSQL is not installed in %s: its cases are skipped", QM_TEST_PG_BINDIR);
  g_test_add_func ("/cli/quote/json", test_json);
  g_test_add_func ("/cli/quote/expired", test_expired);
  g_test_add_func ("/cli/quote/xlsx", test_xlsx);
  g_test_add_func ("/cli/quote/pdf", test_pdf);
  g_test_add_func ("/cli/quote/pdf-bands", test_pdf_bands);
  g_test_add_data_func ("/cli/quote/pdf-layout", "C", test_pdf_layout);
  g_test_add_data_func ("/cli/quote/pdf-layout-de", "de", test_pdf_layout);
  g_test_add_data_func ("/cli/quote/pdf-layout-zh_CN", "zh_CN", test_pdf_layout);
  g_test_add_func ("/cli/quote/text-and-usage", test_text_and_usage);
  g_test_add_func ("/cli/quote/per-line", test_per_line);
  add_both ("save-list-show", test_save_list_show);
  g_test_add_func ("/cli/quote/reprint", test_reprint);
  add_both ("supplier", test_supplier);
  add_both ("expired-stored", test_expired_stored);
  add_both ("rates", test_rates);
  add_both ("stored-terms-printed", test_stored_terms_printed);

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
