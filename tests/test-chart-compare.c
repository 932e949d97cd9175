/* test-chart-compare.c: grouped bars are proportional within each metric,
 * the scatter places each plan at its (days, cost), nothing is drawn
 * outside the chart, each bar carries its plan's letter (not told by
 * colour alone), the hit test finds short bars and markers, and the
 * summary reads each plan's figures.
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

  /* Under each bar, its plan's letter: text pixels (anything but the
   * background) between the baseline and the group's name (issue #37
   * item 9). */
  for (guint m = 0; m < QM_COMPARE_N_METRICS; m++)
    for (guint p = 0; p < 3; p++)
      {
        const QmRect *r = &layout.bars[m][p];
        int text = 0;

        for (int y = (int) (r->y + r->height) + 2; y < (int) (r->y + r->height) + 12; y++)
          for (int x = (int) r->x; x < (int) (r->x + r->width); x++)
            if (!qm_test_pixel_is (qm_test_pixel (s, x, y), &style->background))
              text++;
        g_assert_cmpint (text, >, 5);
      }

  /* The hit test: above a short bar, in its column, reads that bar; over
   * an empty one (no power figure), nothing; a marker, its plan. */
  {
    guint metric = 99, plan = 99;
    const QmRect *c = &layout.columns[0][0];

    g_assert_true (qm_chart_compare_hit (&layout, c->x + 2, layout.bars[0][0].y - 5, &metric, &plan));
    g_assert_cmpuint (metric, ==, 0);
    g_assert_cmpuint (plan, ==, 0);
    g_assert_false (qm_chart_compare_hit (&layout, layout.bars[3][2].x + 2, layout.bars[3][2].y - 5, &metric, &plan));
    g_assert_true (qm_chart_compare_hit (&layout, qm_axis_to_pixel (&layout.scatter_x, 95.0) + 3,
                                         qm_axis_to_pixel (&layout.scatter_y, 19.0e6) - 3, &metric, &plan));
    g_assert_cmpuint (metric, ==, QM_COMPARE_N_METRICS);
    g_assert_cmpuint (plan, ==, 1);
  }

  /* The scatter marker of plan 1 sits at (95 days, $19 M). */
  {
    int x = (int) round (qm_axis_to_pixel (&layout.scatter_x, 95.0));
    int y = (int) round (qm_axis_to_pixel (&layout.scatter_y, 19.0e6));

    g_assert_true (qm_test_pixel_is (qm_test_pixel (s, x, y), &style->series[1]));
  }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The summary: each plan by letter and name with the figures the bars
 * print; a plan without days (serving) says it has no time to train. */
static void
test_describe (void)
{
  const QmCompareItem serving[] = {
    { "Pretraining", 2048, 110.0, 132e6, 3494, 2797 },
    { "Chat serving", 16, 0.0, 6.9e6, 27, 6.1 },
  };
  const char *currencies[] = { "USD", "EUR" };
  g_autofree char *text = qm_chart_compare_describe (serving, currencies, 2);

  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "A, Pretraining: 2,048 GPUs, "));
  g_assert_nonnull (strstr (text, " to train, $132 M in all, "));
  g_assert_nonnull (strstr (text, "; B, Chat serving: 16 GPUs, no time to train (serving), "));
  /* Each plan's cost in its own currency. */
  g_assert_nonnull (strstr (text, "6.9 M in all"));
  g_assert_null (strstr (text, "$6.9 M"));
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
  g_test_add_func ("/chart-compare/describe", test_describe);
  return g_test_run ();
}
