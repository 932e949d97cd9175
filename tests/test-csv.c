/* test-csv.c: the RFC 4180 reader and writer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <locale.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "qm-catalog-json.h"
#include "qm-csv.h"

static const char *
field (GPtrArray *records,
       guint      r,
       guint      f)
{
  QmCsvRecord *rec = records->pdata[r];

  g_assert_cmpuint (f, <, rec->fields->len);
  return rec->fields->pdata[f];
}

static void
test_quoting (void)
{
  /* A comma and a doubled quote inside a quoted name, a line break inside
   * a quoted field, CRLF line ends and a BOM. */
  const char data[] = "\xef\xbb\xbf" "id,name,price_usd\r\n"
                      "hgx-x,\"HGX 8-GPU, 2U \"\"Delta\"\"\",300000\r\n"
                      "multi,\"two\r\nlines\",1\r\n"
                      "\r\n"
                      "last,no newline at end,2";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = qm_csv_parse (data, strlen (data), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (records->len, ==, 4);
  g_assert_cmpstr (field (records, 0, 0), ==, "id");
  g_assert_cmpstr (field (records, 1, 1), ==, "HGX 8-GPU, 2U \"Delta\"");
  g_assert_cmpstr (field (records, 2, 1), ==, "two\r\nlines");
  g_assert_cmpstr (field (records, 3, 1), ==, "no newline at end");
  /* Line numbers are the file's: the quoted line break counts. */
  g_assert_cmpuint (((QmCsvRecord *) records->pdata[3])->line, ==, 6);
}

static void
test_utf8_and_lf (void)
{
  const char data[] = "id,name\nmi300x-fr,Accélérateur «Instinct» 日本\nempty,\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = qm_csv_parse (data, strlen (data), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (records->len, ==, 3);
  g_assert_cmpstr (field (records, 1, 1), ==, "Accélérateur «Instinct» 日本");
  g_assert_cmpstr (field (records, 2, 1), ==, "");
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *records;

  records = qm_csv_parse ("id,name\nx,\"open quote\n", 22, &error);
  g_assert_null (records);
  g_assert_error (error, QM_CSV_ERROR, QM_CSV_ERROR_QUOTE);
  g_assert_nonnull (strstr (error->message, "line 2"));
  g_clear_error (&error);

  records = qm_csv_parse ("id,name\nx,\"a\"b\n", 15, &error);
  g_assert_null (records);
  g_assert_error (error, QM_CSV_ERROR, QM_CSV_ERROR_QUOTE);
  g_assert_nonnull (strstr (error->message, "line 2, column 2"));
  g_clear_error (&error);

  /* Latin-1 from an old spreadsheet. */
  records = qm_csv_parse ("id,name\nx,Acc\xe9l\n", 15, &error);
  g_assert_null (records);
  g_assert_error (error, QM_CSV_ERROR, QM_CSV_ERROR_ENCODING);
  g_assert_nonnull (strstr (error->message, "line 2"));
  g_clear_error (&error);

  records = qm_csv_parse ("\xef\xbb\xbf\r\n", 5, &error);
  g_assert_null (records);
  g_assert_error (error, QM_CSV_ERROR, QM_CSV_ERROR_EMPTY);
}

static void
test_round_trip (void)
{
  const char *row[] = { "plain", "with, comma", "with \"quote\"", "two\nlines", " padded ", "" };
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;

  qm_csv_append_row (out, row, G_N_ELEMENTS (row), ',');
  g_assert_cmpstr (out->str, ==,
                   "plain,\"with, comma\",\"with \"\"quote\"\"\",\"two\nlines\",\" padded \",\r\n");
  records = qm_csv_parse (out->str, out->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (records->len, ==, 1);
  for (guint i = 0; i < G_N_ELEMENTS (row); i++)
    g_assert_cmpstr (field (records, 0, i), ==, row[i]);
}

/* A spreadsheet runs a cell that starts with = + - @, a tab or a CR as a
 * formula: such a text gets a single quote and quotes (OWASP), numbers
 * stay numbers, and the reader gives back what was written. */
static void
test_formula_injection (void)
{
  const char *row[] = { "=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
                        "\tlead tab", "\rlead cr", "'=already quoted", "'90s card", "-12.50", "+3", "1e-3",
                        "-", "=" };
  const char *expected[] = { "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"", "\"'+cmd|' /C calc'!A0\"",
                             "\"'-2+3\"", "\"'@SUM(A1)\"", "\"'\tlead tab\"", "\"'\rlead cr\"",
                             "\"''=already quoted\"", "'90s card", "-12.50", "+3", "1e-3", "\"'-\"", "\"'=\"" };
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (row); i++)
    {
      g_string_truncate (out, 0);
      qm_csv_append_field (out, row[i], ',');
      g_assert_cmpstr (out->str, ==, expected[i]);
    }

  g_string_truncate (out, 0);
  qm_csv_append_row (out, row, G_N_ELEMENTS (row), ',');
  records = qm_csv_parse (out->str, out->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (records->len, ==, 1);
  for (guint i = 0; i < G_N_ELEMENTS (row); i++)
    g_assert_cmpstr (field (records, 0, i), ==, row[i]);

  /* With ';' as the separator (a comma decimal point), "1,5" is a number
   * and stays bare, and a ';' inside a text is quoted. */
  g_string_truncate (out, 0);
  {
    const char *semi[] = { "-1,5", "a;b" };

    qm_csv_append_row (out, semi, 2, ';');
  }
  g_assert_cmpstr (out->str, ==, "-1,5;\"a;b\"\r\n");
}

/* The separator is the header's most frequent of , ; and tab outside
 * quotes. */
static void
test_detect_separator (void)
{
  static const struct { const char *line; char sep; } cases[] = {
    { "id,name,price_usd", ',' },
    { "ID;Name;Preis (USD)\r\nx;y;1,5", ';' },
    { "id\tname\tprice", '\t' },
    { "\"id;x\",name,price", ',' },           /* quoted ';' do not count */
    { "\"Name, kurz\";Preis;Hersteller", ';' },
    { "id", ',' },                            /* one column: comma */
    { "a;b,c", ',' },                         /* a tie: comma */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (qm_csv_detect_separator (cases[i].line, strlen (cases[i].line)), ==, cases[i].sep);
}

static char
decimal_of (const char *data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = NULL;
  QmCsvDialect d = { 0 };

  records = qm_csv_read (data, strlen (data), &d, &error);
  g_assert_no_error (error);
  return d.decimal_mark;
}

/* The decimal mark, from the numbers of the data rows. */
static void
test_detect_decimal (void)
{
  /* A comma between cells: always a point. */
  g_assert_cmpint (decimal_of ("id,price\nx,12.5\n"), ==, '.');
  g_assert_cmpint (decimal_of ("id;price\nx;12,5\n"), ==, ',');
  g_assert_cmpint (decimal_of ("id;price\nx;1.234,56\n"), ==, ',');
  g_assert_cmpint (decimal_of ("id;price\nx;1,234.56\n"), ==, '.');
  g_assert_cmpint (decimal_of ("id;price\nx;12.5\ny;0.75\n"), ==, '.');
  /* "1.234.567" groups with points, so the mark is a comma. */
  g_assert_cmpint (decimal_of ("id;price\nx;1.234.567\n"), ==, ',');
  /* "0,125" cannot be grouped: a decimal comma. */
  g_assert_cmpint (decimal_of ("id;price\nx;0,125\n"), ==, ',');
  /* "1.234" is either; with nothing else, ';' means a comma locale. */
  g_assert_cmpint (decimal_of ("id;price\nx;1.234\n"), ==, ',');
  /* ... but a plain "2.5" elsewhere decides. */
  g_assert_cmpint (decimal_of ("id;price;bw\nx;1.234;2.5\n"), ==, '.');
  /* Dates, versions and ids are not numbers. */
  g_assert_cmpint (decimal_of ("id;as_of;v\nx;2025-06-01;1.2.3\ny;h100;3.35\n"), ==, '.');
  g_assert_cmpint (decimal_of ("id\tprice\nx\t12\n"), ==, '.');
  g_assert_cmpint (decimal_of ("id;price\nx;$ 14.500,00\ny;30.000 \xe2\x82\xac\n"), ==, ',');
  /* Currency signs aside, the numbers decide, not the separator. */
  g_assert_cmpint (decimal_of ("id;price\nx;$ 14,500.00\ny;30.000 \xe2\x82\xac\n"), ==, '.');
}

/* German Excel's plain "CSV": Windows-1252, CRLF, ';', and Excel's
 * "sep=" line, which is honoured and skipped. */
static void
test_read_excel (void)
{
  static const char data[] = "sep=;\r\nID;Name;Preis\r\nm\xfc;\x84Turbo\x93;1.234,5\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = NULL;
  QmCsvDialect d = { 0 };
  double v = 0;

  records = qm_csv_read (data, strlen (data), &d, &error);
  g_assert_no_error (error);
  g_assert_cmpint (d.separator, ==, ';');
  g_assert_cmpint (d.decimal_mark, ==, ',');
  g_assert_true (d.sep_line);
  g_assert_cmpstr (d.encoding, ==, "WINDOWS-1252");
  g_assert_cmpuint (records->len, ==, 2);
  g_assert_cmpstr (field (records, 0, 0), ==, "ID");
  g_assert_cmpstr (field (records, 1, 0), ==, "mü");
  g_assert_cmpstr (field (records, 1, 1), ==, "„Turbo“");
  /* Line numbers stay the file's. */
  g_assert_cmpuint (((QmCsvRecord *) records->pdata[1])->line, ==, 3);
  g_assert_true (qm_csv_parse_number (field (records, 1, 2), d.decimal_mark, &v));
  g_assert_cmpfloat (v, ==, 1234.5);

  /* The caller's separator wins over detection; a BOM is skipped. */
  {
    static const char bom[] = "\xef\xbb\xbf" "a;b,c\n1;2,5\n";
    QmCsvDialect forced = { ';', 0 };
    g_autoptr(GPtrArray) r = qm_csv_read (bom, strlen (bom), &forced, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (forced.encoding, ==, "UTF-8");
    g_assert_cmpstr (field (r, 0, 1), ==, "b,c");
    g_assert_cmpint (forced.decimal_mark, ==, ',');
  }
}

/* Excel's "Unicode Text": UTF-16LE after its byte order mark, tabs. */
static void
test_read_utf16 (void)
{
  const char *text = "ID\tPreis\r\nm\xc3\xbc\t12,5\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *utf16 = NULL;
  g_autofree char *data = NULL;
  QmCsvDialect d = { 0 };
  gsize n = 0;

  utf16 = g_convert (text, -1, "UTF-16LE", "UTF-8", NULL, &n, &error);
  g_assert_no_error (error);
  data = g_malloc (n + 2);
  data[0] = (char) 0xff;
  data[1] = (char) 0xfe;
  memcpy (data + 2, utf16, n);
  records = qm_csv_read (data, n + 2, &d, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (d.encoding, ==, "UTF-16LE");
  g_assert_cmpint (d.separator, ==, '\t');
  g_assert_cmpuint (records->len, ==, 2);
  g_assert_cmpstr (field (records, 1, 0), ==, "mü");
  g_assert_cmpstr (field (records, 1, 1), ==, "12,5");
}

static void
test_numbers (void)
{
  static const struct { const char *cell; char mark; gboolean ok; double v; } cases[] = {
    { "30000", '.', TRUE, 30000 },
    { "$30,000", '.', TRUE, 30000 },
    { "30000.50", '.', TRUE, 30000.5 },
    { "1.2e3", '.', TRUE, 1200 },
    { "-12.5", '.', TRUE, -12.5 },
    { "1,5", '.', FALSE, 0 },           /* a decimal comma where points are the mark */
    { "1,2345", '.', FALSE, 0 },
    { "12,5", ',', TRUE, 12.5 },
    { "1.234,56", ',', TRUE, 1234.56 },
    { "14.500", ',', TRUE, 14500 },
    { "30.000 \xe2\x82\xac", ',', TRUE, 30000 },
    { "$ 14.500,25", ',', TRUE, 14500.25 },
    { "1 234,5", ',', TRUE, 1234.5 },
    { "1\xc2\xa0" "234,5", ',', TRUE, 1234.5 },
    { "-0,5", ',', TRUE, -0.5 },
    { "1.5", ',', FALSE, 0 },           /* a point where commas are the mark */
    { "1,234.5", ',', FALSE, 0 },
    { "12,5,1", ',', FALSE, 0 },
    { "", ',', FALSE, 0 },
    { "lots", '.', FALSE, 0 },
    { "1.234e3", ',', FALSE, 0 },       /* grouped digits with an exponent */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double v = -1;
      gboolean ok = qm_csv_parse_number (cases[i].cell, cases[i].mark, &v);

      if (ok != cases[i].ok)
        g_error ("\"%s\" with '%c': expected %s", cases[i].cell, cases[i].mark,
                 cases[i].ok ? "a number" : "a refusal");
      if (ok)
        g_assert_cmpfloat (v, ==, cases[i].v);
    }
  {
    g_autofree char *a = qm_csv_format_number (12345.75, ',');
    g_autofree char *b = qm_csv_format_number (12345.75, '.');
    g_autofree char *c = qm_csv_format_number (3e-7, ',');

    g_assert_cmpstr (a, ==, "12345,75");
    g_assert_cmpstr (b, ==, "12345.75");
    g_assert_cmpstr (c, ==, "3e-07");
  }
}

/* Column headers: the keys, and the labels the app shows, with units. */
static void
test_header_names (void)
{
  static const struct { const char *header; const char *key; } cases[] = {
    { "price_usd", "price_usd" },
    { "Price (USD)", "price_usd" },
    { "PRICE", "price_usd" },
    { "List Price (US$)", "price_usd" },
    { "Price (US$)", "price_usd" },
    { "ID", "id" },
    { " Vendor ", "vendor" },
    { "Developer", "vendor" },
    { "Memory (GB)", "memory_gb" },
    { "memory", "memory_gb" },
    { "BF16 (TFLOPS)", "tflops.bf16" },
    { "Bandwidth (TB/s)", "bandwidth_tbs" },
    { "Hersteller", NULL },   /* German only where the app speaks German */
    { "", NULL },
  };
  g_autofree char *names = qm_catalog_header_names ("id");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpstr (qm_catalog_key_for_header (QM_CATALOG_KIND_GPU, cases[i].header), ==, cases[i].key);
  g_assert_cmpstr (names, ==, "id, ID");
}

/* In the German app, the headers it shows in German: "Hersteller",
 * "Preis (USD)", "Speicher (GB)"; the English ones and the keys still
 * work. As test-translation.c picks a language: LANGUAGE, on C.UTF-8. */
static void
test_header_names_german (void)
{
  g_autofree char *localedir = g_build_filename (g_getenv ("QM_BUILD_DIR"), "po", NULL);
  g_autofree char *mo = g_build_filename (localedir, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  g_autofree char *lc_all = g_strdup (g_getenv ("LC_ALL"));
  g_autofree char *names = NULL;

  /* meson builds the catalogs for this test (depends: gmo_targets). */
  g_assert_true (g_file_test (mo, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (bindtextdomain (GETTEXT_PACKAGE, localedir));
  g_assert_nonnull (bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8"));
  g_unsetenv ("LC_ALL");
  g_setenv ("LANG", "C.UTF-8", TRUE);
  g_setenv ("LANGUAGE", "de", TRUE);
  g_assert_nonnull (setlocale (LC_ALL, ""));

  g_assert_cmpstr (qm_catalog_key_for_header (QM_CATALOG_KIND_GPU, "Hersteller"), ==, "vendor");
  g_assert_cmpstr (qm_catalog_key_for_header (QM_CATALOG_KIND_GPU, "Preis (USD)"), ==, "price_usd");
  g_assert_cmpstr (qm_catalog_key_for_header (QM_CATALOG_KIND_GPU, "Speicher (GB)"), ==, "memory_gb");
  g_assert_cmpstr (qm_catalog_key_for_header (QM_CATALOG_KIND_GPU, "Bandbreite"), ==, "bandwidth_tbs");
  g_assert_cmpstr (qm_catalog_key_for_header (QM_CATALOG_KIND_GPU, "Memory (GB)"), ==, "memory_gb");
  names = qm_catalog_header_names ("id");
  g_assert_cmpstr (names, ==, "id, ID, Kennung");

  g_setenv ("LC_ALL", lc_all != NULL ? lc_all : "C.UTF-8", TRUE);
  g_unsetenv ("LANGUAGE");
  g_assert_nonnull (setlocale (LC_ALL, ""));
}

/* The user's convention follows LC_NUMERIC; the C one is RFC 4180. */
static void
test_dialects (void)
{
  QmCsvDialect d;
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_true (qm_csv_dialect_from_string ("c", &d));
  g_assert_cmpint (d.separator, ==, ',');
  g_assert_cmpint (d.decimal_mark, ==, '.');
  g_assert_false (d.sep_line);
  qm_csv_append_dialect_line (out, &d);
  g_assert_cmpstr (out->str, ==, "");
  /* The suite runs in C.UTF-8: a decimal point. */
  g_assert_true (qm_csv_dialect_from_string ("user", &d));
  g_assert_cmpint (d.separator, ==, ',');
  g_assert_true (d.sep_line);
  qm_csv_append_dialect_line (out, &d);
  g_assert_cmpstr (out->str, ==, "sep=,\r\n");
  g_assert_false (qm_csv_dialect_from_string ("de", &d));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/csv/quoting", test_quoting);
  g_test_add_func ("/csv/utf8-and-lf", test_utf8_and_lf);
  g_test_add_func ("/csv/errors", test_errors);
  g_test_add_func ("/csv/round-trip", test_round_trip);
  g_test_add_func ("/csv/formula-injection", test_formula_injection);
  g_test_add_func ("/csv/detect-separator", test_detect_separator);
  g_test_add_func ("/csv/detect-decimal", test_detect_decimal);
  g_test_add_func ("/csv/read-excel", test_read_excel);
  g_test_add_func ("/csv/read-utf16", test_read_utf16);
  g_test_add_func ("/csv/numbers", test_numbers);
  g_test_add_func ("/csv/header-names", test_header_names);
  g_test_add_func ("/csv/header-names-german", test_header_names_german);
  g_test_add_func ("/csv/dialects", test_dialects);
  return g_test_run ();
}
