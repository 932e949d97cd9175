/* test-csv.c: the RFC 4180 reader and writer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/csv/quoting", test_quoting);
  g_test_add_func ("/csv/utf8-and-lf", test_utf8_and_lf);
  g_test_add_func ("/csv/errors", test_errors);
  g_test_add_func ("/csv/round-trip", test_round_trip);
  g_test_add_func ("/csv/formula-injection", test_formula_injection);
  return g_test_run ();
}
