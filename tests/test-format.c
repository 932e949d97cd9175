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

/* Axis ticks show exactly the nice value; one axis's money ticks agree
 * on cents. */
static void
test_ticks (void)
{
  char buf[QM_FORMAT_BUF];

  g_assert_cmpstr (qm_format_tick (buf, sizeof buf, 0.01), ==, "0.01");
  g_assert_cmpstr (qm_format_tick (buf, sizeof buf, 0.05), ==, "0.05");
  g_assert_cmpstr (qm_format_tick (buf, sizeof buf, 0.2), ==, "0.2");
  g_assert_cmpstr (qm_format_tick (buf, sizeof buf, 2.5), ==, "2.5");
  g_assert_cmpstr (qm_format_tick (buf, sizeof buf, 1500.0), ==, "1,500");
  g_assert_cmpstr (qm_format_tick (buf, sizeof buf, 1.0 / 3.0), ==, "0.333");
  g_assert_cmpstr (qm_format_money_tick (buf, sizeof buf, 0.0, "USD"), ==, "$0");
  g_assert_cmpstr (qm_format_money_tick (buf, sizeof buf, 50.0, "USD"), ==, "$50");
  g_assert_cmpstr (qm_format_money_tick (buf, sizeof buf, 2.5, "USD"), ==, "$2.50");
  g_assert_cmpstr (qm_format_money_tick (buf, sizeof buf, 150.0, "EUR"), ==, "EUR 150");
  g_assert_cmpstr (qm_format_money_tick (buf, sizeof buf, 1.5e6, "USD"), ==, "$1.5 M");
  g_assert_cmpstr (qm_format_money_tick (buf, sizeof buf, 50e6, "USD"), ==, "$50 M");
}

/* A small run's energy and emissions stay readable: kWh and kg below one
 * MWh and one tonne, not "0 MWh" and "0.0 t". */
static void
test_energy_tonnes (void)
{
  char buf[QM_FORMAT_BUF];

  g_assert_cmpstr (qm_format_energy (buf, sizeof buf, 7361.2), ==, "7,361 MWh");
  g_assert_cmpstr (qm_format_energy (buf, sizeof buf, 76.31), ==, "76.3 MWh");
  g_assert_cmpstr (qm_format_energy (buf, sizeof buf, 1.0), ==, "1.00 MWh");
  g_assert_cmpstr (qm_format_energy (buf, sizeof buf, 0.0342), ==, "34.2 kWh");
  g_assert_cmpstr (qm_format_energy (buf, sizeof buf, 0.0), ==, "0 MWh");
  g_assert_cmpstr (qm_format_energy (buf, sizeof buf, NAN), ==, "– MWh");
  g_assert_cmpstr (qm_format_tonnes (buf, sizeof buf, 2797.4), ==, "2,797 t");
  g_assert_cmpstr (qm_format_tonnes (buf, sizeof buf, 6.08), ==, "6.08 t");
  g_assert_cmpstr (qm_format_tonnes (buf, sizeof buf, 0.013), ==, "13.0 kg");
}

/* One plural rule for every view (the metric table, the PDF, the CLI): a
 * count as printed picks its form; a fraction reads as a plural. */
static void
test_plural_n (void)
{
  g_assert_cmpuint (qm_format_plural_n (1.0), ==, 1);
  g_assert_cmpuint (qm_format_plural_n (1.004), ==, 1);
  g_assert_cmpuint (qm_format_plural_n (1.5), ==, 2);
  g_assert_cmpuint (qm_format_plural_n (48.0), ==, 48);
  g_assert_cmpuint (qm_format_plural_n (0.0), ==, 0);
  g_assert_cmpuint (qm_format_plural_n (-3.0), ==, 0);
  g_assert_cmpuint (qm_format_plural_n (NAN), ==, 0);
  g_assert_cmpuint (qm_format_plural_n (2e12 + 1.0), ==, 1000000000ul + 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/format/number", test_number);
  g_test_add_func ("/format/si", test_si);
  g_test_add_func ("/format/bytes-money-days", test_bytes_money_days);
  g_test_add_func ("/format/ticks", test_ticks);
  g_test_add_func ("/format/energy-tonnes", test_energy_tonnes);
  g_test_add_func ("/format/plural-n", test_plural_n);
  return g_test_run ();
}
