/* test-chart-gpus-time.c: the GPUs-vs-time chart puts the plan's point,
 * the deadline and the knee where the axes say, draws both curves, shades
 * the likely range when the curve has one (issue #36) and only then, and
 * stays inside its bounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-gpus-time.h"
#include "qm-test-chart.h"

/* A synthetic strong-scaling curve (work / GPUs plus a communication term
 * that grows with the GPU count): the renderer only draws what it gets. */
static void
make_curve (QmGpusTimeCurve *c,
            gboolean         band)
{
  memset (c, 0, sizeof *c);
  c->has_band = band;
  for (guint i = 0; i < 12; i++)
    {
      double g = 64.0 * (1u << i) / 4.0;

      c->gpus[i] = g;
      c->ideal_days[i] = 20000.0 / g * (1.0 + g / 8192.0);
      c->days[i] = c->ideal_days[i] / 0.92;
      c->cost[i] = g * c->days[i] * 24.0 * 2.5;
      c->band_low[i] = c->days[i] * 0.8;
      c->band_high[i] = c->days[i] * 1.3;
      c->n++;
    }
  c->knee = 8;
  c->plan_gpus = 2048;
  c->plan_days = 20000.0 / 2048 * (1.0 + 2048.0 / 8192.0) / 0.92;
  c->deadline_days = 30;
  c->currency = "USD";
}

static void
check (const QmChartStyle *style,
       gboolean            band,
       const char         *png)
{
  QmGpusTimeCurve c;
  QmGpusTimeLayout layout;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (800, 480, &cr);
  QmColor shade = qm_test_over (&style->series[0], QM_CHART_BAND_ALPHA, &style->background);

  make_curve (&c, band);
  qm_chart_render_gpus_time (&(QmChartFrame) { cr, style, 800, 480 }, &c, &layout);
  qm_test_save_png (s, png);
  qm_test_assert_border_untouched (s);

  /* Log x axis: each decade of GPUs spans the same width. */
  g_assert_cmpint (layout.x_axis.scale, ==, QM_SCALE_LOG10);
  g_assert_cmpfloat (fabs ((qm_axis_to_pixel (&layout.x_axis, 1000) - qm_axis_to_pixel (&layout.x_axis, 100)) -
                           (qm_axis_to_pixel (&layout.x_axis, 10000) - qm_axis_to_pixel (&layout.x_axis, 1000))),
                     <, 1e-6);
  g_assert_cmpint (layout.y_axis.scale, ==, QM_SCALE_LOG10);

  /* The plan's point is where the axes put it, and drawn in the accent. */
  g_assert_cmpfloat (fabs (layout.plan_x - qm_axis_to_pixel (&layout.x_axis, 2048)), <, 0.5);
  g_assert_cmpfloat (fabs (layout.plan_y - qm_axis_to_pixel (&layout.y_axis, c.plan_days)), <, 0.5);
  g_assert_true (qm_test_pixel_is (qm_test_pixel (s, (int) layout.plan_x, (int) layout.plan_y), &style->accent));

  /* The deadline line at 30 days. */
  g_assert_cmpfloat (fabs (layout.deadline_y - 0.5 - round (qm_axis_to_pixel (&layout.y_axis, 30))), <, 0.01);
  /* The knee at the 9th point. */
  g_assert_cmpfloat (fabs (layout.knee_x - 0.5 - round (qm_axis_to_pixel (&layout.x_axis, c.gpus[8]))), <, 0.01);

  /* The failure-adjusted curve passes through its points: sample the
   * middle one. */
  {
    int x = (int) round (qm_axis_to_pixel (&layout.x_axis, c.gpus[5]));
    int y = (int) round (qm_axis_to_pixel (&layout.y_axis, c.days[5]));
    gboolean found = FALSE;

    for (int dy = -2; dy <= 2 && !found; dy++)
      found = qm_test_pixel_is (qm_test_pixel (s, x, y + dy), &style->series[0]);
    g_assert_true (found);
  }

  /* The likely range: shaded between the curve and its high edge (the
   * fourth point, away from the labels), and nowhere without a band. */
  {
    int x = (int) round (qm_axis_to_pixel (&layout.x_axis, c.gpus[3]));
    int y = (int) round (qm_axis_to_pixel (&layout.y_axis, c.days[3] * 1.15));

    g_assert_cmpint (layout.band_drawn, ==, band);
    g_assert_cmpint (qm_test_pixel_near (s, x, y, 3, &shade), ==, band);
    if (!band)
      g_assert_true (qm_test_pixel_near (s, x, y, 3, &style->background));
  }

  g_assert_true (layout.has_cost);
  g_assert_cmpint (qm_chart_gpus_time_hit (&layout, &c, qm_axis_to_pixel (&layout.x_axis, c.gpus[3]),
                                           qm_axis_to_pixel (&layout.y_axis, c.days[3]) + 3), ==, 3);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The plan's label covers neither the deadline's nor the knee's: with the
 * plan just under the deadline, at every point of the curve and at the
 * sizes the plan view and the PDF use ("This plan" covered "Deadline 30.0
 * days", leaving "e 30.0 days", issue #35 item 8). */
static void
test_labels_apart (void)
{
  static const int sizes[][2] = { { 800, 480 }, { 640, 360 }, { 480, 320 } };
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
    for (guint i = 1; i + 1 < 12; i++)
      {
        QmGpusTimeCurve c;
        QmGpusTimeLayout layout;
        cairo_t *cr;
        cairo_surface_t *s = qm_test_chart_surface (sizes[z][0], sizes[z][1], &cr);

        make_curve (&c, TRUE);
        c.plan_gpus = c.gpus[i];
        c.plan_days = c.days[i];
        c.deadline_days = c.days[i] * 1.08;
        qm_chart_render_gpus_time (&(QmChartFrame) { cr, &style, sizes[z][0], sizes[z][1] }, &c, &layout);
        if (i == 6 && z == 1)
          qm_test_save_png (s, "chart-gpus-time-labels-apart.png");
        g_assert_cmpfloat (layout.plan_label.width, >, 0);
        g_assert_cmpfloat (layout.deadline_label.width, >, 0);
        if (qm_test_rects_overlap (&layout.plan_label, &layout.deadline_label) ||
            qm_test_rects_overlap (&layout.plan_label, &layout.knee_label))
          g_error ("%d×%d, plan at point %u: the plan's label covers the %s label", sizes[z][0], sizes[z][1], i,
                   qm_test_rects_overlap (&layout.plan_label, &layout.deadline_label) ? "deadline's" : "knee's");
        cairo_destroy (cr);
        cairo_surface_destroy (s);
      }
}

static void
test_light (void)
{
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  check (&style, TRUE, "chart-gpus-time-light.png");
  check (&style, FALSE, "chart-gpus-time-no-band-light.png");
}

static void
test_dark (void)
{
  QmChartStyle style;

  qm_chart_style_init_dark (&style);
  check (&style, TRUE, "chart-gpus-time-dark.png");
  check (&style, FALSE, "chart-gpus-time-no-band-dark.png");
}

static void
test_empty (void)
{
  QmChartStyle style;
  QmGpusTimeCurve c = { 0 };
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (200, 100, &cr);

  c.knee = -1;
  qm_chart_style_init_light (&style);
  qm_chart_render_gpus_time (&(QmChartFrame) { cr, &style, 200, 100 }, &c, NULL);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  qm_test_assert_border_untouched (s);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-gpus-time/light", test_light);
  g_test_add_func ("/chart-gpus-time/dark", test_dark);
  g_test_add_func ("/chart-gpus-time/empty", test_empty);
  g_test_add_func ("/chart-gpus-time/labels-apart", test_labels_apart);
  return g_test_run ();
}
