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
            g_assert_true (qm_test_pixel_is_series (qm_test_pixel (s, (int) layout.bars[m][p].x + 1,
                                                                   (int) (layout.bars[m][p].y +
                                                                          layout.bars[m][p].height - 2)),
                                                    style, p));
        }
    }

  /* Each bar carries its plan's pattern as well as its colour, as its
   * legend swatch does (qm_chart_fill_series()): plan A's solid, the
   * others' with a visible share of their shade (issue #37 item 9). */
  for (guint m = 0; m < QM_COMPARE_N_METRICS; m++)
    for (guint p = 0; p < 3; p++)
      if (layout.bars[m][p].height > 20)
        {
          double share = qm_test_part_shade_share (s, &layout.bars[m][p], style, p);

          if (qm_chart_series_pattern (p) == QM_FILL_SOLID)
            g_assert_cmpfloat (share, ==, 0.0);
          else
            g_assert_cmpfloat (share, >, 0.05);
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

/* Every bar carries its value, as the comparison PDF's caption says
 * ("the values are printed on the bars", issue #35 item 4): the three
 * plans of the examples (a 2,048-GPU pretraining, a 16-GPU serving plan
 * without a time to train, an 8-GPU LoRA run), whose $132 M, $525,278 and
 * $504,911 were too wide for their bars and went unprinted, as did the
 * third plan's every figure, at the PDF's width and the app's from 720 px:
 * each value's box inside the chart and clear of every other. */
static void
test_values_printed (void)
{
  const QmCompareItem examples[] = {
    { "A: Llama 3.1 70B pretraining on 2,048 H100", 2048, 110.0, 132.0e6, 3495, 2798 },
    { "B: Llama 3.1 70B chat serving on 16 MI300X", 16, 0.0, 525278, 26, 5.84 },
    { "C: Mistral 7B LoRA fine-tune on one DGX A100", 8, 0.22, 504911, 8.5, 0.0133 },
  };
  const int sizes[][2] = { { 480, 300 }, { 640, 360 }, { 700, 360 }, { 1040, 360 } };

  for (guint st = 0; st < 2; st++)
    for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
      {
        QmChartStyle style;
        QmCompareLayout layout;
        cairo_t *cr;
        cairo_surface_t *s = qm_test_chart_surface (sizes[z][0], sizes[z][1], &cr);

        if (st == 0)
          qm_chart_style_init_light (&style);
        else
          qm_chart_style_init_dark (&style);
        qm_chart_render_compare (&(QmChartFrame) { cr, &style, sizes[z][0], sizes[z][1] }, examples, 3, "USD",
                                 &layout);
        qm_test_assert_border_untouched (s);
        for (guint m = 0; m < QM_COMPARE_N_METRICS; m++)
          for (guint p = 0; p < 3; p++)
            {
              const QmRect *r = &layout.values[m][p];

              if (r->width <= 0 || r->height <= 0)
                g_error ("%d px: no value on bar %u of %s", sizes[z][0], p, qm_chart_compare_metric_name (m));
              if (r->x < 0 || r->y < 0 || r->x + r->width > sizes[z][0] || r->y + r->height > sizes[z][1])
                g_error ("%d px: value %u of %s leaves the chart", sizes[z][0], p, qm_chart_compare_metric_name (m));
              /* Over its own bar's column. */
              g_assert_cmpfloat (fabs (r->x + r->width / 2 - (layout.bars[m][p].x + layout.bars[m][p].width / 2)),
                                 <=, 2.0);
              /* Apart by more than a touch: "5.8" and "0.01" side by
               * side read "5.80.01". */
              for (guint m2 = 0; m2 < QM_COMPARE_N_METRICS; m2++)
                for (guint p2 = 0; p2 < 3; p2++)
                  if ((m2 > m || (m2 == m && p2 > p)) &&
                      qm_test_rects_overlap (&(QmRect) { r->x - 1.5, r->y, r->width + 3.0, r->height },
                                             &layout.values[m2][p2]))
                    g_error ("%d px: values %u of %s and %u of %s overlap", sizes[z][0], p,
                             qm_chart_compare_metric_name (m), p2, qm_chart_compare_metric_name (m2));
              /* Text pixels in the box. */
              {
                int ink = 0;

                for (int y = (int) r->y; y < (int) (r->y + r->height); y++)
                  for (int x = (int) r->x; x < (int) (r->x + r->width); x++)
                    if (!qm_test_pixel_is (qm_test_pixel (s, x, y), &style.background))
                      ink++;
                /* A dash where the figure does not apply is a few pixels. */
                if (ink < 3)
                  g_error ("%d px: no ink in value %u of %s", sizes[z][0], p, qm_chart_compare_metric_name (m));
              }
            }
        /* Nothing stray in the cost-against-time chart (issue #35 item 4
         * saw a line in the PDF's; 4d9ac50 gave each marker a fresh path,
         * though on an image surface the old code left no mark here
         * either): inside the plot, away from the markers and their
         * letters, only the background and the grid (crisp, on whole
         * pixels). */
        for (int y = (int) layout.scatter_plot.y + 1; y < (int) (layout.scatter_plot.y + layout.scatter_plot.height) - 1; y++)
          for (int x = (int) layout.scatter_plot.x + 1; x < (int) (layout.scatter_plot.x + layout.scatter_plot.width) - 1; x++)
            {
              guint32 px = qm_test_pixel (s, x, y);
              gboolean near_marker = FALSE;

              for (guint p = 0; p < 3; p++)
                near_marker |= layout.markers[p].width > 0 && x >= layout.markers[p].x - 8 &&
                               x <= layout.markers[p].x + 24 && fabs (y - layout.markers[p].y) <= 9;
              if (!near_marker && !qm_test_pixel_is (px, &style.background) && !qm_test_pixel_is (px, &style.grid))
                g_error ("%d px: a stray mark at (%d, %d) in the cost-against-time chart (%08x)", sizes[z][0], x, y, px);
            }
        if (sizes[z][0] == 640 || sizes[z][0] == 1040)
          {
            g_autofree char *name = g_strdup_printf ("chart-compare-values-%d-%s.png", sizes[z][0],
                                                     st == 0 ? "light" : "dark");

            qm_test_save_png (s, name);
          }
        cairo_destroy (cr);
        cairo_surface_destroy (s);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-compare/light", test_light);
  g_test_add_func ("/chart-compare/dark", test_dark);
  g_test_add_func ("/chart-compare/describe", test_describe);
  g_test_add_func ("/chart-compare/values-printed", test_values_printed);
  return g_test_run ();
}
