/* test-chart-serving.c: the latency-vs-load chart puts the plan's load,
 * the targets and the saturation where the axes say and draws every
 * percentile, with a fixed fleet's capacity and its likely range shaded;
 * the throughput chart marks the plan and the memory limit, and shades
 * the likely range of the throughput when it has one (issue #36).
 * Both stay inside their bounds at any size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-serving.h"
#include "qm-test-chart.h"

/* A synthetic M/M/1-like fleet: latency = service / (1 - load), with the
 * queue saturating at 600 requests/min. The renderer only draws what it
 * gets. */
static void
make_curve (QmServingCurve *c)
{
  memset (c, 0, sizeof *c);
  for (guint i = 0; i < 16; i++)
    {
      double rpm = 40.0 * (i + 1);
      double rho = rpm / 600.0;
      double stretch = rho < 1.0 ? 1.0 / (1.0 - rho) : 1e4;

      c->rpm[i] = rpm;
      c->ttft_p50_ms[i] = 120.0 * stretch;
      c->ttft_p99_ms[i] = 400.0 * stretch;
      c->tpot_p50_ms[i] = 20.0 + 10.0 * rho;
      c->tpot_p99_ms[i] = 30.0 + 25.0 * rho;
      c->n++;
    }
  c->ttft_target_ms = 2000;
  c->tpot_target_ms = 50;
  c->plan_rpm = 300;
  c->replicas = 3;
  c->saturated_rpm = 600;
  c->capacity_rpm = 480;
  c->capacity_low_rpm = 400;
  c->capacity_high_rpm = 560;
}

static gboolean
near_color (cairo_surface_t *s,
            int              x,
            int              y,
            const QmColor   *color)
{
  for (int dy = -3; dy <= 3; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if (qm_test_pixel_is (qm_test_pixel (s, x + dx, y + dy), color))
        return TRUE;
  return FALSE;
}

static void
check_serving (const QmChartStyle *style,
               double              width,
               double              height,
               const char         *png)
{
  QmServingCurve c;
  QmServingLayout layout;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface ((int) width, (int) height, &cr);
  QmColor shade = qm_test_over (&style->foreground, QM_CHART_NEUTRAL_BAND_ALPHA, &style->background);

  make_curve (&c);
  qm_chart_render_serving (&(QmChartFrame) { cr, style, width, height }, &c, &layout);
  qm_test_save_png (s, png);
  qm_test_assert_border_untouched (s);

  /* Two panels, one above the other, over the same x axis. */
  g_assert_cmpfloat (layout.ttft_plot.y + layout.ttft_plot.height, <, layout.tpot_plot.y);
  g_assert_cmpfloat (layout.ttft_plot.x, ==, layout.tpot_plot.x);
  g_assert_cmpfloat (layout.ttft_plot.width, ==, layout.tpot_plot.width);
  g_assert_cmpint (layout.ttft_axis.scale, ==, QM_SCALE_LOG10);
  /* The x axis' title stands clear of the legend under it (it sat on
   * the legend's first row, issue #35 item 8). */
  g_assert_cmpfloat (layout.x_title.width, >, 0);
  g_assert_cmpfloat (layout.x_title.y + layout.x_title.height, <=, layout.legend.y - 2.0);

  /* The plan's load, the saturation and the targets where the axes put them. */
  g_assert_cmpfloat (fabs (layout.plan_x - 0.5 - round (qm_axis_to_pixel (&layout.x_axis, 300))), <, 0.01);
  g_assert_cmpfloat (fabs (layout.saturated_x - qm_axis_to_pixel (&layout.x_axis, 600)), <, 0.01);
  g_assert_cmpfloat (fabs (layout.ttft_target_y - 0.5 - round (qm_axis_to_pixel (&layout.ttft_axis, 2000))), <, 0.01);
  g_assert_cmpfloat (fabs (layout.tpot_target_y - 0.5 - round (qm_axis_to_pixel (&layout.tpot_axis, 50))), <, 0.01);
  /* The targets and the stable p99s are inside their panels. */
  g_assert_cmpfloat (layout.ttft_target_y, >, layout.ttft_plot.y);
  g_assert_cmpfloat (layout.ttft_target_y, <, layout.ttft_plot.y + layout.ttft_plot.height);
  g_assert_cmpfloat (qm_axis_to_pixel (&layout.ttft_axis, c.ttft_p99_ms[13]), >, layout.ttft_plot.y);

  /* Each median curve passes through its points (the fourth point, away
   * from the plan's line and the labels). */
  g_assert_true (near_color (s, (int) round (qm_axis_to_pixel (&layout.x_axis, c.rpm[3])),
                             (int) round (qm_axis_to_pixel (&layout.ttft_axis, c.ttft_p50_ms[3])),
                             &style->series[0]));
  g_assert_true (near_color (s, (int) round (qm_axis_to_pixel (&layout.x_axis, c.rpm[3])),
                             (int) round (qm_axis_to_pixel (&layout.tpot_axis, c.tpot_p50_ms[3])),
                             &style->series[2]));

  /* The capacity's likely range, shaded in the lower panel either side
   * of the capacity's line. */
  g_assert_cmpfloat (fabs (layout.capacity_x0 - qm_axis_to_pixel (&layout.x_axis, 400)), <, 0.01);
  g_assert_cmpfloat (fabs (layout.capacity_x1 - qm_axis_to_pixel (&layout.x_axis, 560)), <, 0.01);
  g_assert_true (qm_test_pixel_near (s, (int) round (qm_axis_to_pixel (&layout.x_axis, 530)),
                                     (int) round (layout.tpot_plot.y + layout.tpot_plot.height * 0.9), 3, &shade));
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* The plan's and the capacity's labels cover neither target's label,
 * wherever the lines fall (the capacity's label covered "Target 50 ms"
 * in the serving example, issue #35 item 8). */
static void
test_labels_apart (void)
{
  static const int sizes[][2] = { { 800, 520 }, { 640, 360 }, { 480, 360 } };
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
    for (double at = 80; at <= 640; at += 40)
      {
        QmServingCurve c;
        QmServingLayout layout;
        cairo_t *cr;
        cairo_surface_t *s = qm_test_chart_surface (sizes[z][0], sizes[z][1], &cr);

        make_curve (&c);
        c.capacity_rpm = at;
        c.capacity_low_rpm = at * 0.9;
        c.capacity_high_rpm = at * 1.1;
        c.plan_rpm = at;
        c.saturated_rpm = 700;
        qm_chart_render_serving (&(QmChartFrame) { cr, &style, sizes[z][0], sizes[z][1] }, &c, &layout);
        g_assert_cmpfloat (layout.capacity_label.width, >, 0);
        g_assert_cmpfloat (layout.plan_label.width, >, 0);
        g_assert_cmpfloat (layout.tpot_target_label.width, >, 0);
        if (qm_test_rects_overlap (&layout.capacity_label, &layout.tpot_target_label) ||
            qm_test_rects_overlap (&layout.plan_label, &layout.ttft_target_label))
          g_error ("%d×%d, lines at %.0f requests/min: a line's label covers a target's", sizes[z][0], sizes[z][1],
                   at);
        /* Inside their panels. */
        g_assert_cmpfloat (layout.capacity_label.y, >=, layout.tpot_plot.y);
        g_assert_cmpfloat (layout.capacity_label.y + layout.capacity_label.height, <=,
                           layout.tpot_plot.y + layout.tpot_plot.height);
        cairo_destroy (cr);
        cairo_surface_destroy (s);
      }
}

static void
test_serving (void)
{
  QmChartStyle light, dark;

  qm_chart_style_init_light (&light);
  qm_chart_style_init_dark (&dark);
  check_serving (&light, 800, 520, "chart-serving-light.png");
  check_serving (&dark, 800, 520, "chart-serving-dark.png");
  check_serving (&light, 360, 420, "chart-serving-narrow.png");
  check_serving (&light, 640, 360, "chart-serving-small.png");
}

static void
check_throughput (const QmChartStyle *style,
                  gboolean            band,
                  const char         *png)
{
  QmThroughputCurve c = { 0 };
  QmThroughputLayout layout;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (800, 420, &cr);
  QmColor shade = qm_test_over (&style->series[0], QM_CHART_BAND_ALPHA, &style->background);

  /* Throughput that saturates with the batch, as decode turns compute-bound. */
  for (guint i = 0; i < 10; i++)
    {
      double b = (double) (1u << i);

      c.concurrency[i] = b;
      c.tokens_per_s_per_gpu[i] = 3000.0 * b / (b + 64.0);
      c.band_low[i] = c.tokens_per_s_per_gpu[i] * 0.75;
      c.band_high[i] = c.tokens_per_s_per_gpu[i] * 1.3;
      c.n++;
    }
  c.has_band = band;
  c.memory_limit = 384;
  c.plan_concurrency = 256;
  c.plan_tokens_per_s_per_gpu = 3000.0 * 256 / (256 + 64.0);
  qm_chart_render_throughput (&(QmChartFrame) { cr, style, 800, 420 }, &c, &layout);
  qm_test_save_png (s, png);
  qm_test_assert_border_untouched (s);

  g_assert_cmpint (layout.x_axis.scale, ==, QM_SCALE_LOG10);
  g_assert_cmpfloat (fabs (layout.plan_x - qm_axis_to_pixel (&layout.x_axis, 256)), <, 0.5);
  g_assert_cmpfloat (fabs (layout.plan_y - qm_axis_to_pixel (&layout.y_axis, c.plan_tokens_per_s_per_gpu)), <, 0.5);
  g_assert_true (qm_test_pixel_is (qm_test_pixel (s, (int) layout.plan_x, (int) layout.plan_y), &style->accent));
  g_assert_cmpfloat (fabs (layout.limit_x - 0.5 - round (qm_axis_to_pixel (&layout.x_axis, 384))), <, 0.01);
  g_assert_true (near_color (s, (int) round (qm_axis_to_pixel (&layout.x_axis, 8)),
                             (int) round (qm_axis_to_pixel (&layout.y_axis, c.tokens_per_s_per_gpu[3])),
                             &style->series[0]));
  /* The likely range: below the curve at 32 sequences, only with a band. */
  {
    int x = (int) round (qm_axis_to_pixel (&layout.x_axis, 32));
    int y = (int) round (qm_axis_to_pixel (&layout.y_axis, c.tokens_per_s_per_gpu[5] * 0.85));

    g_assert_cmpint (layout.band_drawn, ==, band);
    g_assert_cmpint (qm_test_pixel_near (s, x, y, 3, &shade), ==, band);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_throughput (void)
{
  QmChartStyle light, dark;

  qm_chart_style_init_light (&light);
  qm_chart_style_init_dark (&dark);
  check_throughput (&light, TRUE, "chart-throughput-light.png");
  check_throughput (&dark, TRUE, "chart-throughput-dark.png");
  check_throughput (&light, FALSE, "chart-throughput-no-band-light.png");
}

static void
test_empty (void)
{
  QmChartStyle style;
  QmServingCurve c = { 0 };
  QmThroughputCurve t = { 0 };
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (200, 100, &cr);

  qm_chart_style_init_light (&style);
  qm_chart_render_serving (&(QmChartFrame) { cr, &style, 200, 100 }, &c, NULL);
  qm_chart_render_throughput (&(QmChartFrame) { cr, &style, 200, 100 }, &t, NULL);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  qm_test_assert_border_untouched (s);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-serving/latency", test_serving);
  g_test_add_func ("/chart-serving/throughput", test_throughput);
  g_test_add_func ("/chart-serving/empty", test_empty);
  g_test_add_func ("/chart-serving/labels-apart", test_labels_apart);
  return g_test_run ();
}
