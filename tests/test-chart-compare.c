/* test-chart-compare.c: grouped bars are proportional within each metric,
 * the scatter places each plan at its (days, cost), and nothing is drawn
 * outside the chart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-compare.h"
#include "qm-test-chart.h"

static const QmCompareItem items[] = {
  { "512 H100, bought", 512, 62.0, 31.5e6, 890, 410 },
  { "1,024 A100, rented", 1024, 95.0, 19.0e6, 910, 630 },
  { "Cloud reservation", 768, 70.0, 24.0e6, 0, 0 },
};

static void
check (const QmChartStyle *style,
       const char         *png)
{
  QmCompareLayout layout;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (900, 400, &cr);

  qm_chart_render_compare (&(QmChartFrame) { cr, style, 900, 400 }, items, G_N_ELEMENTS (items),
                           "USD", &layout);
  qm_test_save_png (s, png);
  qm_test_assert_border_untouched (s);
  g_assert_cmpuint (layout.n_plans, ==, 3);

  for (guint m = 0; m < QM_COMPARE_N_METRICS; m++)
    {
      double max = 0;
      guint tallest = 0;

      for (guint p = 0; p < 3; p++)
        if (qm_chart_compare_metric_value (&items[p], m) > max)
          max = qm_chart_compare_metric_value (&items[p], m), tallest = p;
      for (guint p = 0; p < 3; p++)
        {
          double expected = layout.bars[m][tallest].height * qm_chart_compare_metric_value (&items[p], m) / max;

          g_assert_cmpfloat (fabs (layout.bars[m][p].height - expected), <=, 1.5);
          if (layout.bars[m][p].height > 3)
            g_assert_true (qm_test_pixel_is (qm_test_pixel (s, (int) layout.bars[m][p].x + 1,
                                                            (int) (layout.bars[m][p].y + layout.bars[m][p].height - 2)),
                                             &style->series[p]));
        }
    }

  /* A plan with no power figure has an empty bar, not a NaN one. */
  g_assert_cmpfloat (layout.bars[3][2].height, ==, 0.0);

  /* The scatter marker of plan 1 sits at (95 days, $19 M). */
  {
    int x = (int) round (qm_axis_to_pixel (&layout.scatter_x, 95.0));
    int y = (int) round (qm_axis_to_pixel (&layout.scatter_y, 19.0e6));

    g_assert_true (qm_test_pixel_is (qm_test_pixel (s, x, y), &style->series[1]));
  }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_light (void)
{
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  check (&style, "chart-compare-light.png");
}

static void
test_dark (void)
{
  QmChartStyle style;

  qm_chart_style_init_dark (&style);
  check (&style, "chart-compare-dark.png");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-compare/light", test_light);
  g_test_add_func ("/chart-compare/dark", test_dark);
  return g_test_run ();
}
