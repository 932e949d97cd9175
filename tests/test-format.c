/* test-format.c: numbers for people.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-format.h"

static void
test_number (void)
{
  char buf[QM_FORMAT_BUF];

  g_assert_cmpstr (qm_format_number (buf, sizeof buf, 1234567.891, 2), ==, "1,234,567.89");
  g_assert_cmpstr (qm_format_number (buf, sizeof buf, 999.0, 0), ==, "999");
  g_assert_cmpstr (qm_format_number (buf, sizeof buf, 1000.0, 0), ==, "1,000");
  g_assert_cmpstr (qm_format_number (buf, sizeof buf, -16384.0, 0), ==, "-16,384");
  g_assert_cmpstr (qm_format_number (buf, sizeof buf, 0.999, 2), ==, "1.00");
  g_assert_cmpstr (qm_format_number (buf, sizeof buf, 0.05, 1), ==, "0.1");
  g_assert_cmpstr (qm_format_number (buf, sizeof buf, NAN, 1), ==, "–");
  /* A short buffer truncates rather than overflows. */
  {
    char tiny[5];
    qm_format_number (tiny, sizeof tiny, 1234567.0, 0);
    g_assert_cmpuint (strlen (tiny), <, sizeof tiny);
  }
}

static void
test_si (void)
{
  char buf[QM_FORMAT_BUF];

  g_assert_cmpstr (qm_format_si (buf, sizeof buf, 989e12, "FLOP/s"), ==, "989 TFLOP/s");
  g_assert_cmpstr (qm_format_si (buf, sizeof buf, 3.14e23, "FLOP"), ==, "314 ZFLOP");
  g_assert_cmpstr (qm_format_si (buf, sizeof buf, 10.2e3, "W"), ==, "10.2 kW");
  g_assert_cmpstr (qm_format_si (buf, sizeof buf, 999.96, "W"), ==, "1.00 kW");
  g_assert_cmpstr (qm_format_si (buf, sizeof buf, 12.0, "W"), ==, "12.0 W");
}

static void
test_bytes_money_days (void)
{
  char buf[QM_FORMAT_BUF];

  g_assert_cmpstr (qm_format_bytes (buf, sizeof buf, 80e9, QM_BYTES_GB), ==, "80.0 GB");
  g_assert_cmpstr (qm_format_bytes (buf, sizeof buf, 80e9, QM_BYTES_GIB), ==, "74.5 GiB");
  g_assert_cmpstr (qm_format_bytes (buf, sizeof buf, 141e9, QM_BYTES_GB), ==, "141 GB");
  g_assert_cmpstr (qm_format_money (buf, sizeof buf, 1234.4, "USD"), ==, "$1,234");
  g_assert_cmpstr (qm_format_money (buf, sizeof buf, 2.5, "USD"), ==, "$2.50");
  g_assert_cmpstr (qm_format_money (buf, sizeof buf, 312.4e6, "USD"), ==, "$312 M");
  g_assert_cmpstr (qm_format_money (buf, sizeof buf, 12.34e6, "EUR"), ==, "EUR 12.3 M");
  g_assert_cmpstr (qm_format_days (buf, sizeof buf, 0.5), ==, "12.0 hours");
  g_assert_cmpstr (qm_format_days (buf, sizeof buf, 41.26), ==, "41.3 days");
  g_assert_cmpstr (qm_format_days (buf, sizeof buf, 800.0), ==, "2.2 years");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/format/number", test_number);
  g_test_add_func ("/format/si", test_si);
  g_test_add_func ("/format/bytes-money-days", test_bytes_money_days);
  return g_test_run ();
}
