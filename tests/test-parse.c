/* test-parse.c: numbers as people type them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-parse.h"

static double
ok (QmParseKind kind,
    const char *text)
{
  g_autoptr(GError) error = NULL;
  double v = -1;

  if (!qm_parse (kind, text, &v, &error))
    g_error ("\"%s\" should parse: %s", text, error->message);
  return v;
}

static char *
bad (QmParseKind  kind,
     const char  *text,
     QmParseError code)
{
  g_autoptr(GError) error = NULL;
  double v = 12345;

  g_assert_false (qm_parse (kind, text, &v, &error));
  g_assert_error (error, QM_PARSE_ERROR, (int) code);
  g_assert_cmpfloat (v, ==, 12345);
  return g_strdup (error->message);
}

#define ASSERT_NEAR(a, b) g_assert_cmpfloat_with_epsilon ((a), (b), fabs ((double) (b)) * 1e-12 + 1e-12)

static void
test_tokens (void)
{
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "15T"), 15e12);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "15 trillion"), 15e12);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "15 Trillion tokens"), 15e12);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "15,000B"), 15e12);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, " 300B "), 300e9);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "1.4t"), 1.4e12);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "1.5e13"), 1.5e13);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "2,000,000,000"), 2e9);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "15 000 B"), 15e12);
  ASSERT_NEAR (ok (QM_PARSE_TOKENS, "500 million tokens"), 500e6);
}

static void
test_params (void)
{
  ASSERT_NEAR (ok (QM_PARSE_PARAMS, "70B"), 70e9);
  ASSERT_NEAR (ok (QM_PARSE_PARAMS, "70 billion"), 70e9);
  ASSERT_NEAR (ok (QM_PARSE_PARAMS, "70 billion parameters"), 70e9);
  ASSERT_NEAR (ok (QM_PARSE_PARAMS, "125M"), 125e6);
  ASSERT_NEAR (ok (QM_PARSE_PARAMS, "1.8T params"), 1.8e12);
}

static void
test_seq_len_and_counts (void)
{
  g_assert_cmpfloat (ok (QM_PARSE_SEQ_LEN, "8k"), ==, 8192);
  g_assert_cmpfloat (ok (QM_PARSE_SEQ_LEN, "128K"), ==, 131072);
  g_assert_cmpfloat (ok (QM_PARSE_SEQ_LEN, "8192"), ==, 8192);
  g_assert_cmpfloat (ok (QM_PARSE_SEQ_LEN, "8,192 tokens"), ==, 8192);
  g_assert_cmpfloat (ok (QM_PARSE_COUNT, "2,048"), ==, 2048);
  g_assert_cmpfloat (ok (QM_PARSE_COUNT, "2k"), ==, 2000);
  g_assert_cmpfloat (ok (QM_PARSE_COUNT, "16 GPUs"), ==, 16);
  g_free (bad (QM_PARSE_COUNT, "2.5", QM_PARSE_ERROR_NOT_WHOLE));
  g_free (bad (QM_PARSE_SEQ_LEN, "100.5", QM_PARSE_ERROR_NOT_WHOLE));
}

static void
test_durations (void)
{
  g_assert_cmpfloat (ok (QM_PARSE_DAYS, "60"), ==, 60);
  g_assert_cmpfloat (ok (QM_PARSE_DAYS, "60 days"), ==, 60);
  g_assert_cmpfloat (ok (QM_PARSE_DAYS, "60d"), ==, 60);
  g_assert_cmpfloat (ok (QM_PARSE_DAYS, "8 weeks"), ==, 56);
  ASSERT_NEAR (ok (QM_PARSE_DAYS, "1440 h"), 60);
  ASSERT_NEAR (ok (QM_PARSE_DAYS, "1,440 hours"), 60);
  ASSERT_NEAR (ok (QM_PARSE_DAYS, "1 year"), 365.2425);
  g_assert_cmpfloat (ok (QM_PARSE_MILLISECONDS, "200 ms"), ==, 200);
  g_assert_cmpfloat (ok (QM_PARSE_MILLISECONDS, "1.5 s"), ==, 1500);
  g_assert_cmpfloat (ok (QM_PARSE_MILLISECONDS, "50"), ==, 50);
}

static void
test_money_and_percent (void)
{
  g_assert_cmpfloat (ok (QM_PARSE_MONEY, "$2.50"), ==, 2.5);
  g_assert_cmpfloat (ok (QM_PARSE_MONEY, "2.5"), ==, 2.5);
  g_assert_cmpfloat (ok (QM_PARSE_MONEY, "$30,000"), ==, 30000);
  g_assert_cmpfloat (ok (QM_PARSE_MONEY, "$30k"), ==, 30000);
  g_assert_cmpfloat (ok (QM_PARSE_MONEY, "0.08 USD"), ==, 0.08);
  ASSERT_NEAR (ok (QM_PARSE_PERCENT, "40%"), 0.40);
  ASSERT_NEAR (ok (QM_PARSE_PERCENT, "40 %"), 0.40);
  ASSERT_NEAR (ok (QM_PARSE_PERCENT, "40"), 0.40);
  ASSERT_NEAR (ok (QM_PARSE_PERCENT, "0.4"), 0.40);
  ASSERT_NEAR (ok (QM_PARSE_NUMBER, "1.25"), 1.25);
}

static void
test_errors (void)
{
  g_autofree char *neg = bad (QM_PARSE_TOKENS, "-5", QM_PARSE_ERROR_NEGATIVE);
  g_autofree char *abc = bad (QM_PARSE_TOKENS, "abc", QM_PARSE_ERROR_SYNTAX);
  g_autofree char *empty = bad (QM_PARSE_TOKENS, "  ", QM_PARSE_ERROR_EMPTY);
  g_autofree char *unit = bad (QM_PARSE_DAYS, "60 parsecs", QM_PARSE_ERROR_SYNTAX);

  /* Every message says what is allowed. */
  g_assert_cmpstr (abc, ==, "Enter a number of tokens, like 15T or 300B");
  g_assert_nonnull (strstr (neg, "like 15T or 300B"));
  g_assert_nonnull (strstr (empty, "like 15T"));
  g_assert_nonnull (strstr (unit, "60 days, 8 weeks or 1440 h"));
  g_free (bad (QM_PARSE_NUMBER, "1.2.3", QM_PARSE_ERROR_SYNTAX));
  g_free (bad (QM_PARSE_TOKENS, "15X", QM_PARSE_ERROR_SYNTAX));
  g_free (bad (QM_PARSE_TOKENS, "15 T T", QM_PARSE_ERROR_SYNTAX));
  g_free (bad (QM_PARSE_MONEY, "-$5", QM_PARSE_ERROR_NEGATIVE));
  g_free (bad (QM_PARSE_PARAMS, "1e999", QM_PARSE_ERROR_SYNTAX));
  g_free (bad (QM_PARSE_TOKENS, "\xff", QM_PARSE_ERROR_SYNTAX));
  /* In the C locale a comma groups digits in threes, so "1,5" is a typo,
   * not a guess at 1.5 or 15. */
  g_free (bad (QM_PARSE_NUMBER, "1,5", QM_PARSE_ERROR_SYNTAX));
  g_free (bad (QM_PARSE_NUMBER, "1,0000", QM_PARSE_ERROR_SYNTAX));
}

static void
test_decimal_comma (void)
{
  g_autoptr(GError) error = NULL;
  double v = 0;

  /* de_DE: "," is the decimal point, "." groups. */
  g_assert_true (qm_parse_with_separators (QM_PARSE_TOKENS, "1,5T", ",", ".", &v, &error));
  g_assert_no_error (error);
  ASSERT_NEAR (v, 1.5e12);
  g_assert_true (qm_parse_with_separators (QM_PARSE_TOKENS, "15.000B", ",", ".", &v, NULL));
  ASSERT_NEAR (v, 15e12);
  g_assert_true (qm_parse_with_separators (QM_PARSE_MONEY, "2,50 $", ",", ".", &v, NULL));
  g_assert_cmpfloat (v, ==, 2.5);
  g_assert_true (qm_parse_with_separators (QM_PARSE_NUMBER, "1.234,5", ",", ".", &v, NULL));
  g_assert_cmpfloat (v, ==, 1234.5);
  g_assert_false (qm_parse_with_separators (QM_PARSE_NUMBER, "2.5", ",", ".", &v, NULL));
  /* fr_FR groups with a narrow no-break space. */
  g_assert_true (qm_parse_with_separators (QM_PARSE_COUNT, "16\u202F384", ",", "\u202F", &v, NULL));
  g_assert_cmpfloat (v, ==, 16384);
  /* de_CH groups with an apostrophe. */
  g_assert_true (qm_parse_with_separators (QM_PARSE_COUNT, "16'384", ".", "'", &v, NULL));
  g_assert_cmpfloat (v, ==, 16384);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/parse/tokens", test_tokens);
  g_test_add_func ("/parse/params", test_params);
  g_test_add_func ("/parse/seq-len-and-counts", test_seq_len_and_counts);
  g_test_add_func ("/parse/durations", test_durations);
  g_test_add_func ("/parse/money-and-percent", test_money_and_percent);
  g_test_add_func ("/parse/errors", test_errors);
  g_test_add_func ("/parse/decimal-comma", test_decimal_comma);
  return g_test_run ();
}
