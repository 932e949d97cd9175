/* test-axis.c: nice ticks, log scales, pixel mapping and hit-testing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-axis.h"

static void
test_nice_numbers (void)
{
  /* Heckbert's examples: ranges round to 1, 2, 5 or 10 × 10^k. */
  g_assert_cmpfloat (qm_axis_nice_number (0.73, FALSE), ==, 1.0);
  g_assert_cmpfloat (qm_axis_nice_number (1.7, FALSE), ==, 2.0);
  g_assert_cmpfloat (qm_axis_nice_number (3.1, FALSE), ==, 5.0);
  g_assert_cmpfloat (qm_axis_nice_number (73.0, FALSE), ==, 100.0);
  g_assert_cmpfloat (qm_axis_nice_number (2.4, TRUE), ==, 2.0);
  g_assert_cmpfloat (qm_axis_nice_number (6.9, TRUE), ==, 5.0);
  g_assert_cmpfloat (qm_axis_nice_number (0.0, TRUE), ==, 1.0);
  g_assert_cmpfloat (qm_axis_nice_number (NAN, TRUE), ==, 1.0);
}

static void
test_linear_ticks (void)
{
  QmAxis axis;

  qm_axis_init (&axis, QM_SCALE_LINEAR, 3.0, 87.0, 5, 0.0, 100.0);
  /* The domain grows to nice bounds that contain the data. */
  g_assert_cmpfloat (axis.min, <=, 3.0);
  g_assert_cmpfloat (axis.max, >=, 87.0);
  g_assert_cmpfloat (axis.min, ==, 0.0);
  g_assert_cmpfloat (axis.max, ==, 100.0);
  g_assert_cmpuint (axis.n_ticks, ==, 6);
  for (guint i = 0; i < axis.n_ticks; i++)
    g_assert_cmpfloat_with_epsilon (axis.ticks[i], 20.0 * i, 1e-9);

  /* Decimal steps do not accumulate rounding dust. */
  qm_axis_init (&axis, QM_SCALE_LINEAR, 0.0, 0.7, 8, 0.0, 100.0);
  for (guint i = 0; i < axis.n_ticks; i++)
    g_assert_cmpfloat (fabs (axis.ticks[i] * 10.0 - round (axis.ticks[i] * 10.0)), <, 1e-9);

  /* A single value still gives a drawable axis around it. */
  qm_axis_init (&axis, QM_SCALE_LINEAR, 42.0, 42.0, 5, 0.0, 100.0);
  g_assert_cmpfloat (axis.min, <, 42.0);
  g_assert_cmpfloat (axis.max, >, 42.0);
  g_assert_cmpuint (axis.n_ticks, >=, 2);

  /* Nonsense in, something sane out: no NaN anywhere. */
  qm_axis_init (&axis, QM_SCALE_LINEAR, NAN, INFINITY, 5, 0.0, 100.0);
  g_assert_true (isfinite (axis.min) && isfinite (axis.max) && axis.max > axis.min);
}

static void
test_log_ticks (void)
{
  QmAxis axis;

  /* GPUs from 64 to 16,384: decades 10 .. 100,000. */
  qm_axis_init (&axis, QM_SCALE_LOG10, 64.0, 16384.0, 5, 0.0, 400.0);
  g_assert_cmpfloat (axis.min, ==, 10.0);
  g_assert_cmpfloat (axis.max, ==, 100000.0);
  g_assert_cmpfloat (axis.ticks[0], ==, 10.0);
  g_assert_cmpfloat (axis.ticks[axis.n_ticks - 1], ==, 100000.0);

  /* Each decade gets the same number of pixels. */
  g_assert_cmpfloat_with_epsilon (qm_axis_to_pixel (&axis, 100.0), 100.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (qm_axis_to_pixel (&axis, 1000.0), 200.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (qm_axis_from_pixel (&axis, 300.0), 10000.0, 1e-6);

  /* Over one or two decades, 2× and 5× ticks are labelled too. */
  qm_axis_init (&axis, QM_SCALE_LOG10, 12.0, 80.0, 5, 0.0, 400.0);
  g_assert_cmpfloat (axis.min, ==, 10.0);
  g_assert_cmpfloat (axis.max, ==, 100.0);
  g_assert_cmpuint (axis.n_ticks, ==, 4);   /* 10, 20, 50, 100 */
  g_assert_cmpfloat (axis.ticks[1], ==, 20.0);
  g_assert_true (axis.major[2]);

  /* Zero or negative values on a log axis map off-scale, never NaN. */
  g_assert_true (isinf (qm_axis_to_pixel (&axis, 0.0)));
  qm_axis_init (&axis, QM_SCALE_LOG10, -5.0, 0.0, 5, 0.0, 400.0);
  g_assert_cmpfloat (axis.min, >, 0.0);
}

static void
test_inverted_pixels (void)
{
  QmAxis axis;

  /* A y axis: the minimum at the bottom (high pixel). */
  qm_axis_init (&axis, QM_SCALE_LINEAR, 0.0, 100.0, 5, 300.0, 0.0);
  g_assert_cmpfloat (qm_axis_to_pixel (&axis, 0.0), ==, 300.0);
  g_assert_cmpfloat (qm_axis_to_pixel (&axis, 100.0), ==, 0.0);
  g_assert_cmpfloat (qm_axis_to_pixel (&axis, 25.0), ==, 225.0);
  g_assert_cmpfloat_with_epsilon (qm_axis_from_pixel (&axis, 150.0), 50.0, 1e-9);
}

static void
test_hit_test (void)
{
  QmAxis x, y;
  const double xs[] = { 1.0, 10.0, 100.0 };
  const double ys[] = { 100.0, 10.0, 1.0 };

  qm_axis_init (&x, QM_SCALE_LOG10, 1.0, 100.0, 5, 0.0, 200.0);
  qm_axis_init (&y, QM_SCALE_LOG10, 1.0, 100.0, 5, 200.0, 0.0);

  /* The middle point sits at (100, 100). */
  g_assert_cmpint (qm_axis_hit_test (&x, &y, xs, ys, 3, 103.0, 98.0, 8.0), ==, 1);
  g_assert_cmpint (qm_axis_hit_test (&x, &y, xs, ys, 3, 0.0, 0.0, 8.0), ==, 0);
  g_assert_cmpint (qm_axis_hit_test (&x, &y, xs, ys, 3, 150.0, 150.0, 8.0), ==, -1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/axis/nice-numbers", test_nice_numbers);
  g_test_add_func ("/axis/linear-ticks", test_linear_ticks);
  g_test_add_func ("/axis/log-ticks", test_log_ticks);
  g_test_add_func ("/axis/inverted-pixels", test_inverted_pixels);
  g_test_add_func ("/axis/hit-test", test_hit_test);
  return g_test_run ();
}
