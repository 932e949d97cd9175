/* qm-chart-serving.c: latency against load, and throughput against
 * concurrency, for a serving plan.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-serving.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "qm-format.h"

static const double dash_p99[] = { 5.0, 3.0 };
static const double dash_mark[] = { 6.0, 4.0 };

/* Half the width of the label of the axis' last tick: the room the x axis
 * needs right of the plot so that label is not cut at the chart's edge. */
static double
x_label_overhang (cairo_t            *cr,
                  const QmChartStyle *style,
                  double              last_tick)
{
  char buf[QM_FORMAT_BUF];
  double w;

  qm_chart_tick_number (last_tick, buf, sizeof buf, NULL);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, buf, &w, NULL);
  return w / 2.0;
}

/* A dashed horizontal mark across @plot at @value of @axis, in @color;
 * returns its pixel row, or -1 when @value is not set. */
static double
hline (cairo_t       *cr,
       const QmAxis  *axis,
       const QmRect  *plot,
       double         value,
       const QmColor *color)
{
  double y;

  if (!(value > 0))
    return -1;
  y = round (qm_axis_to_pixel (axis, value)) + 0.5;
  qm_chart_dashed_line (cr, &(QmChartDash) { color, 1.5, dash_mark }, plot, QM_AXIS_LEFT, y);
  return y;
}

/* One of the two latency panels: its curves, target and look, and where
 * in the layout its plot and axes go (the x axis is both panels'). */
typedef struct
{
  const double  *p50;
  const double  *p99;
  double         target;
  const QmColor *color;
  const char    *title;
  const QmRect  *plot;
  const QmAxis  *x_axis;
  const QmAxis  *y_axis;
} Panel;

/* The latency domain of one panel: from the lowest median to the highest
 * p99 the fleet reaches before it saturates (past that the queue grows
 * without bound and the curve leaves the top of the panel), and the target. */
static void
latency_domain (const QmServingCurve *c,
                const Panel          *panel,
                double               *lo,
                double               *hi)
{
  const double *p50 = panel->p50, *p99 = panel->p99;
  double target = panel->target;

  *lo = G_MAXDOUBLE;
  *hi = 0;
  for (guint i = 0; i < MIN (c->n, QM_SERVING_CURVE_MAX); i++)
    {
      gboolean stable = !(c->saturated_rpm > 0) || c->rpm[i] < c->saturated_rpm;

      if (p50[i] > 0 && isfinite (p50[i]))
        *lo = MIN (*lo, p50[i]);
      if (stable && p99[i] > 0 && isfinite (p99[i]))
        *hi = MAX (*hi, p99[i]);
    }
  if (target > 0)
    {
      *lo = MIN (*lo, target);
      *hi = MAX (*hi, target);
    }
  if (*hi <= 0 || *lo == G_MAXDOUBLE)
    *lo = 1, *hi = 1000;
  *lo *= 0.8;
  *hi *= 1.5;
}

/* Draws @panel; returns the pixel row of its target, or -1. */
static double
draw_panel (cairo_t              *cr,
            const QmChartStyle   *style,
            const QmServingCurve *c,
            const Panel          *panel)
{
  guint n = MIN (c->n, QM_SERVING_CURVE_MAX);
  const QmRect *plot = panel->plot;
  const QmAxis *x_axis = panel->x_axis, *y_axis = panel->y_axis;
  const QmColor *color = panel->color;
  double target_y;

  qm_chart_draw_axis (cr, style, y_axis, plot, QM_AXIS_LEFT, panel->title, qm_chart_tick_number, NULL);

  cairo_save (cr);
  cairo_rectangle (cr, plot->x, plot->y, plot->width, plot->height);
  cairo_clip (cr);

  /* Past saturation: shaded, since no latency there is steady. */
  if (c->saturated_rpm > 0 && c->saturated_rpm < x_axis->max)
    {
      double x0 = qm_axis_to_pixel (x_axis, c->saturated_rpm);

      qm_chart_set_color_alpha (cr, &style->error, 0.10);
      cairo_rectangle (cr, x0, plot->y, plot->x + plot->width - x0, plot->height);
      cairo_fill (cr);
    }

  target_y = hline (cr, y_axis, plot, panel->target, &style->warning);

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_save (cr);
  qm_chart_set_color (cr, color);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, dash_p99, 2, 0);
  qm_chart_polyline (cr, x_axis, y_axis, c->rpm, panel->p99, n);
  cairo_stroke (cr);
  cairo_restore (cr);

  qm_chart_set_color (cr, color);
  cairo_set_line_width (cr, 2.5);
  qm_chart_polyline (cr, x_axis, y_axis, c->rpm, panel->p50, n);
  cairo_stroke (cr);
  cairo_restore (cr);
  return target_y;
}

/* The plan's load: a vertical line through both panels and its label,
 * placed where it fits. */
/* A bold label beside the vertical line at column @x inside @plot: right
 * of it at the top, left of it at the top, then the same at the bottom,
 * the first that stays in the plot and covers none of @avoid (the
 * capacity's label covered "Target 50 ms", issue #35 item 8). Returns
 * the box drawn. */
static QmRect
line_label (cairo_t            *cr,
            const QmChartStyle *style,
            const char         *text,
            double              x,
            const QmRect       *plot,
            const QmRect       *avoid,
            guint               n_avoid)
{
  double tw, th;
  double spots[4][2];

  qm_chart_text_size (cr, style, QM_TEXT_BOLD, text, &tw, &th);
  for (guint i = 0; i < 4; i++)
    {
      spots[i][0] = i % 2 == 0 ? x + 6.0 : x - 6.0 - tw;
      spots[i][0] = MAX (spots[i][0], plot->x + 2.0);
      spots[i][1] = i < 2 ? plot->y + 2.0 : plot->y + plot->height - th - 2.0;
    }
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < 4; i++)
      {
        QmRect box = { spots[i][0] - 2.0, spots[i][1] - 1.0, tw + 4.0, th + 2.0 };
        gboolean clear = TRUE;

        if (pass == 0 && box.x + box.width > plot->x + plot->width)
          continue;
        for (guint k = 0; k < n_avoid && clear; k++)
          clear = !qm_chart_rects_overlap (&box, &avoid[k]);
        if (!clear && pass == 0)
          continue;
        return qm_chart_text_on_patch (cr, style, &(QmChartLabel) { QM_TEXT_BOLD, spots[i][0], spots[i][1], 0.0, 0.0,
                                                                    0.0, &style->foreground }, text);
      }
  return (QmRect) { 0 };
}

static double
draw_plan_load (cairo_t              *cr,
                const QmChartStyle   *style,
                const QmServingCurve *c,
                QmServingLayout      *layout)
{
  char rate[QM_FORMAT_BUF], text[160];
  double x;

  if (!(c->plan_rpm > 0))
    return -1;
  x = round (qm_axis_to_pixel (&layout->x_axis, c->plan_rpm)) + 0.5;
  cairo_save (cr);
  qm_chart_set_color (cr, &style->accent);
  cairo_set_line_width (cr, 2.0);
  cairo_move_to (cr, x, layout->ttft_plot.y);
  cairo_line_to (cr, x, layout->tpot_plot.y + layout->tpot_plot.height);
  cairo_stroke (cr);
  cairo_restore (cr);

  /* Translators: the plan's request rate (%s, requests per minute) and the
   * number of replicas (%u) that serve it. */
  g_snprintf (text, sizeof text,
              g_dngettext (GETTEXT_PACKAGE, "This plan: %s requests/min on %u replica",
                           "This plan: %s requests/min on %u replicas", c->replicas),
              qm_format_number (rate, sizeof rate, c->plan_rpm, c->plan_rpm < 10 ? 1 : 0),
              c->replicas);
  layout->plan_label = line_label (cr, style, text, x, &layout->ttft_plot, &layout->ttft_target_label, 1);
  return x;
}

/* A fixed fleet's capacity (the highest rate it holds within the
 * targets): a dashed vertical line through both panels, labelled at the
 * top of the lower panel (the plan's load is labelled in the upper one). */
static double
draw_capacity (cairo_t              *cr,
               const QmChartStyle   *style,
               const QmServingCurve *c,
               QmServingLayout      *layout)
{
  char rate[QM_FORMAT_BUF], text[160];
  double x;

  if (!(c->capacity_rpm > 0) || c->capacity_rpm > layout->x_axis.max)
    return -1;
  x = round (qm_axis_to_pixel (&layout->x_axis, c->capacity_rpm)) + 0.5;
  cairo_save (cr);
  /* Its likely range (issue #36), shaded behind the line in both panels. */
  if (c->capacity_low_rpm > 0 && c->capacity_high_rpm > c->capacity_low_rpm)
    {
      double x0 = qm_axis_to_pixel (&layout->x_axis, c->capacity_low_rpm);
      double x1 = MIN (qm_axis_to_pixel (&layout->x_axis, c->capacity_high_rpm),
                       layout->tpot_plot.x + layout->tpot_plot.width);

      qm_chart_set_color_alpha (cr, &style->foreground, QM_CHART_NEUTRAL_BAND_ALPHA);
      cairo_rectangle (cr, x0, layout->ttft_plot.y, x1 - x0, layout->ttft_plot.height);
      cairo_rectangle (cr, x0, layout->tpot_plot.y, x1 - x0, layout->tpot_plot.height);
      cairo_fill (cr);
    }
  qm_chart_set_color (cr, &style->foreground);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, dash_mark, 2, 0);
  cairo_move_to (cr, x, layout->ttft_plot.y);
  cairo_line_to (cr, x, layout->tpot_plot.y + layout->tpot_plot.height);
  cairo_stroke (cr);
  cairo_restore (cr);

  /* Translators: the highest request rate (%s, requests per minute) the
   * plan's GPUs hold within the latency targets. */
  g_snprintf (text, sizeof text, _("Capacity: %s requests/min"),
              qm_format_number (rate, sizeof rate, c->capacity_rpm, c->capacity_rpm < 10 ? 1 : 0));
  layout->capacity_label = line_label (cr, style, text, x, &layout->tpot_plot, &layout->tpot_target_label, 1);
  return x;
}

/* The label of @panel's target, whose line draw_panel() put at row @y. */
static QmRect
target_label (cairo_t            *cr,
              const QmChartStyle *style,
              const Panel        *panel,
              double              y)
{
  char ms[QM_FORMAT_BUF], text[96];

  if (y < 0)
    return (QmRect) { 0 };
  /* Translators: a latency target; %s is a number of milliseconds. */
  g_snprintf (text, sizeof text, _("Target %s ms"), qm_format_number (ms, sizeof ms, panel->target, 0));
  return qm_chart_text_on_patch (cr, style, &(QmChartLabel) { QM_TEXT_SMALL,
                                                              panel->plot->x + panel->plot->width - 4.0, y - 2.0,
                                                              1.0, 1.0, 0.0, &style->warning }, text);
}

void
qm_chart_render_serving (const QmChartFrame   *frame,
                         const QmServingCurve *c,
                         QmServingLayout      *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0, gap = 14.0;
  QmServingLayout layout = { 0 };
  QmLegendEntry legend[6];
  guint n_legend = 0, n = MIN (c->n, QM_SERVING_CURVE_MAX);
  double text_h, legend_h, x_title_h, label_w, panels_h;
  double x_lo = G_MAXDOUBLE, x_hi = 0, t_lo, t_hi, p_lo, p_hi;
  const Panel ttft = {
    c->ttft_p50_ms, c->ttft_p99_ms, c->ttft_target_ms, &style->series[0], _("Time to first token (ms)"),
    &layout.ttft_plot, &layout.x_axis, &layout.ttft_axis,
  };
  const Panel tpot = {
    c->tpot_p50_ms, c->tpot_p99_ms, c->tpot_target_ms, &style->series[2], _("Time per output token (ms)"),
    &layout.tpot_plot, &layout.x_axis, &layout.tpot_axis,
  };

  for (guint i = 0; i < n; i++)
    if (c->rpm[i] > 0 && isfinite (c->rpm[i]))
      {
        x_lo = MIN (x_lo, c->rpm[i]);
        x_hi = MAX (x_hi, c->rpm[i]);
      }
  if (c->plan_rpm > 0)
    x_hi = MAX (x_hi, c->plan_rpm);
  if (c->capacity_rpm > 0)
    x_hi = MAX (x_hi, c->capacity_rpm);
  if (c->capacity_rpm > 0 && c->capacity_high_rpm > 0)
    x_hi = MAX (x_hi, c->capacity_high_rpm);
  if (x_hi <= 0)
    x_lo = 0, x_hi = 60;
  latency_domain (c, &ttft, &t_lo, &t_hi);
  latency_domain (c, &tpot, &p_lo, &p_hi);

  qm_chart_begin (frame);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);

  legend[n_legend++] = (QmLegendEntry) { _("Median (p50)"), style->foreground, FALSE };
  legend[n_legend++] = (QmLegendEntry) { _("99th percentile (p99)"), style->foreground, TRUE };
  if (c->ttft_target_ms > 0 || c->tpot_target_ms > 0)
    legend[n_legend++] = (QmLegendEntry) { _("Latency target"), style->warning, TRUE };
  if (c->capacity_rpm > 0)
    legend[n_legend++] = (QmLegendEntry) { _("Capacity: the most the GPUs hold within the targets"),
                                           style->foreground, TRUE };
  if (c->capacity_rpm > 0 && c->capacity_low_rpm > 0)
    legend[n_legend++] = (QmLegendEntry) { _("Likely range of the capacity (p10–p90)"), style->foreground, FALSE,
                                           QM_CHART_NEUTRAL_BAND_ALPHA };
  if (c->saturated_rpm > 0 && c->saturated_rpm < x_hi)
    legend[n_legend++] = (QmLegendEntry) { _("Overloaded: the queue keeps growing"), style->error, FALSE };
  legend_h = qm_chart_legend_height (cr, style, legend, n_legend, width - 2 * pad);
  x_title_h = text_h * 2 + 10.0;

  /* Two panels over one x axis; each panel's title sits above it. */
  /* The pad above the first panel's title and the one below the legend
   * (with one pad only, the x-axis title sat on the legend, issue #35
   * item 8). */
  panels_h = MAX (20.0, height - 2 * pad - legend_h - 6.0 - x_title_h - 2 * (text_h * 1.5 + 8.0) - gap);
  layout.ttft_plot.y = pad + text_h * 1.5 + 8.0;
  layout.ttft_plot.height = panels_h / 2;
  layout.tpot_plot.y = layout.ttft_plot.y + layout.ttft_plot.height + gap + text_h * 1.5 + 8.0;
  layout.tpot_plot.height = panels_h / 2;
  qm_axis_init (&layout.ttft_axis, QM_SCALE_LOG10, t_lo, t_hi, 4,
                layout.ttft_plot.y + layout.ttft_plot.height, layout.ttft_plot.y);
  qm_axis_init (&layout.tpot_axis, QM_SCALE_LOG10, p_lo, p_hi, 4,
                layout.tpot_plot.y + layout.tpot_plot.height, layout.tpot_plot.y);
  label_w = MAX (qm_chart_axis_label_width (cr, style, &layout.ttft_axis, qm_chart_tick_number, NULL),
                 qm_chart_axis_label_width (cr, style, &layout.tpot_axis, qm_chart_tick_number, NULL));
  layout.ttft_plot.x = layout.tpot_plot.x = pad + label_w + 6.0;
  qm_axis_init (&layout.x_axis, QM_SCALE_LINEAR, 0.0, x_hi * 1.05, 6, 0, 1);
  layout.ttft_plot.width = layout.tpot_plot.width =
    MAX (10.0, width - layout.ttft_plot.x - MAX (pad, x_label_overhang (cr, style, layout.x_axis.max) + 2.0));
  qm_axis_init (&layout.x_axis, QM_SCALE_LINEAR, 0.0, x_hi * 1.05, 6,
                layout.tpot_plot.x, layout.tpot_plot.x + layout.tpot_plot.width);

  /* The top panel's x grid without labels: the bottom panel carries them. */
  for (guint i = 0; i < layout.x_axis.n_ticks; i++)
    {
      double x = round (qm_axis_to_pixel (&layout.x_axis, layout.x_axis.ticks[i])) + 0.5;

      qm_chart_set_color (cr, &style->grid);
      cairo_set_line_width (cr, 1.0);
      cairo_move_to (cr, x, layout.ttft_plot.y);
      cairo_line_to (cr, x, layout.ttft_plot.y + layout.ttft_plot.height);
      cairo_stroke (cr);
    }
  layout.ttft_target_y = draw_panel (cr, style, c, &ttft);
  layout.x_title = qm_chart_draw_axis (cr, style, &layout.x_axis, &layout.tpot_plot, QM_AXIS_BOTTOM,
                                      _("Requests per minute"), qm_chart_tick_number, NULL);
  layout.tpot_target_y = draw_panel (cr, style, c, &tpot);

  /* Labels outside the clip so they are never cut. */
  layout.ttft_target_label = target_label (cr, style, &ttft, layout.ttft_target_y);
  layout.tpot_target_label = target_label (cr, style, &tpot, layout.tpot_target_y);
  layout.saturated_x = c->saturated_rpm > 0 && c->saturated_rpm < layout.x_axis.max
                       ? qm_axis_to_pixel (&layout.x_axis, c->saturated_rpm) : -1;
  layout.capacity_x0 = layout.capacity_x1 = -1;
  if (c->capacity_rpm > 0 && c->capacity_low_rpm > 0 && c->capacity_high_rpm > c->capacity_low_rpm)
    {
      layout.capacity_x0 = qm_axis_to_pixel (&layout.x_axis, c->capacity_low_rpm);
      layout.capacity_x1 = qm_axis_to_pixel (&layout.x_axis, c->capacity_high_rpm);
    }
  layout.capacity_x = draw_capacity (cr, style, c, &layout);
  layout.plan_x = draw_plan_load (cr, style, c, &layout);

  layout.legend = (QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h };
  qm_chart_legend (cr, style, legend, n_legend, &layout.legend);
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}

void
qm_chart_render_throughput (const QmChartFrame      *frame,
                            const QmThroughputCurve *c,
                            QmThroughputLayout      *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  QmThroughputLayout layout = { .plan_x = -1, .plan_y = -1, .limit_x = -1 };
  QmLegendEntry legend[3];
  guint n_legend = 0, n = MIN (c->n, QM_SERVING_CURVE_MAX);
  double text_h, legend_h, x_title_h, label_w;
  double x_lo = G_MAXDOUBLE, x_hi = 0, y_hi = 0;

  for (guint i = 0; i < n; i++)
    if (c->concurrency[i] > 0 && isfinite (c->tokens_per_s_per_gpu[i]))
      {
        x_lo = MIN (x_lo, c->concurrency[i]);
        x_hi = MAX (x_hi, c->concurrency[i]);
        y_hi = MAX (y_hi, c->tokens_per_s_per_gpu[i]);
        if (c->has_band && isfinite (c->band_high[i]))
          y_hi = MAX (y_hi, c->band_high[i]);
      }
  if (c->plan_concurrency > 0)
    {
      x_lo = MIN (x_lo, c->plan_concurrency);
      x_hi = MAX (x_hi, c->plan_concurrency);
      y_hi = MAX (y_hi, c->plan_tokens_per_s_per_gpu);
    }
  if (c->memory_limit > 0)
    x_hi = MAX (x_hi, c->memory_limit);
  if (x_hi <= 0)
    x_lo = 1, x_hi = 256;
  if (y_hi <= 0)
    y_hi = 1000;

  qm_chart_begin (frame);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  legend[n_legend++] = (QmLegendEntry) { _("Output tokens/s per GPU"), style->series[0], FALSE };
  if (c->has_band)
    legend[n_legend++] = (QmLegendEntry) { _("Likely range (p10–p90)"), style->series[0], FALSE,
                                           QM_CHART_BAND_ALPHA };
  if (c->memory_limit > 0)
    legend[n_legend++] = (QmLegendEntry) { _("Most sequences a replica holds"), style->error, TRUE };
  legend_h = qm_chart_legend_height (cr, style, legend, n_legend, width - 2 * pad);
  x_title_h = text_h * 2 + 10.0;

  layout.plot.y = pad + text_h * 1.5 + 8.0;
  layout.plot.height = MAX (10.0, height - layout.plot.y - pad - legend_h - 6.0 - x_title_h);
  qm_axis_init (&layout.y_axis, QM_SCALE_LINEAR, 0.0, y_hi * 1.15, 5,
                layout.plot.y + layout.plot.height, layout.plot.y);
  label_w = qm_chart_axis_label_width (cr, style, &layout.y_axis, qm_chart_tick_number, NULL);
  layout.plot.x = pad + label_w + 6.0;
  qm_axis_init (&layout.x_axis, QM_SCALE_LOG10, MAX (1.0, x_lo / 1.5), x_hi * 1.5, 6, 0, 1);
  layout.plot.width = MAX (10.0, width - layout.plot.x
                                 - MAX (pad, x_label_overhang (cr, style, layout.x_axis.max) + 2.0));
  qm_axis_init (&layout.x_axis, QM_SCALE_LOG10, MAX (1.0, x_lo / 1.5), x_hi * 1.5, 6,
                layout.plot.x, layout.plot.x + layout.plot.width);
  qm_chart_draw_axis (cr, style, &layout.y_axis, &layout.plot, QM_AXIS_LEFT,
                      _("Output tokens/s per GPU"), qm_chart_tick_number, NULL);
  qm_chart_draw_axis (cr, style, &layout.x_axis, &layout.plot, QM_AXIS_BOTTOM,
                      _("Sequences per replica"), qm_chart_tick_number, NULL);

  cairo_save (cr);
  cairo_rectangle (cr, layout.plot.x, layout.plot.y, layout.plot.width, layout.plot.height);
  cairo_clip (cr);
  if (c->memory_limit > 0)
    {
      layout.limit_x = round (qm_axis_to_pixel (&layout.x_axis, c->memory_limit)) + 0.5;
      qm_chart_set_color_alpha (cr, &style->error, 0.10);
      cairo_rectangle (cr, layout.limit_x, layout.plot.y,
                       layout.plot.x + layout.plot.width - layout.limit_x, layout.plot.height);
      cairo_fill (cr);
      qm_chart_dashed_line (cr, &(QmChartDash) { &style->error, 1.5, dash_mark }, &layout.plot, QM_AXIS_BOTTOM,
                            layout.limit_x);
    }
  if (c->has_band)
    {
      qm_chart_set_color_alpha (cr, &style->series[0], QM_CHART_BAND_ALPHA);
      qm_chart_band_path (cr, &layout.x_axis, &layout.y_axis, c->concurrency, c->band_low, c->band_high, n);
      cairo_fill (cr);
      layout.band_drawn = TRUE;
    }
  qm_chart_set_color (cr, &style->series[0]);
  cairo_set_line_width (cr, 2.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  qm_chart_polyline (cr, &layout.x_axis, &layout.y_axis, c->concurrency, c->tokens_per_s_per_gpu, n);
  cairo_stroke (cr);
  cairo_restore (cr);

  if (c->plan_concurrency > 0 && c->plan_tokens_per_s_per_gpu > 0)
    {
      char seqs[QM_FORMAT_BUF], tps[QM_FORMAT_BUF], text[160];
      double tw, lx;

      layout.plan_x = qm_axis_to_pixel (&layout.x_axis, c->plan_concurrency);
      layout.plan_y = qm_axis_to_pixel (&layout.y_axis, c->plan_tokens_per_s_per_gpu);
      qm_chart_plan_marker (cr, style, layout.plan_x, layout.plan_y);
      /* Translators: %s sequences in flight, then %s output tokens per second per GPU. */
      g_snprintf (text, sizeof text, _("This plan: %s sequences, %s tokens/s per GPU"),
                  qm_format_number (seqs, sizeof seqs, c->plan_concurrency, 0),
                  qm_format_number (tps, sizeof tps, c->plan_tokens_per_s_per_gpu, 0));
      qm_chart_text_size (cr, style, QM_TEXT_BOLD, text, &tw, NULL);
      lx = layout.plan_x - 10.0 - tw > layout.plot.x ? layout.plan_x - 10.0 - tw : layout.plan_x + 10.0;
      lx = MIN (lx, layout.plot.x + layout.plot.width - tw - 2.0);
      lx = MAX (lx, layout.plot.x + 2.0);
      qm_chart_text_on_patch (cr, style, &(QmChartLabel) { QM_TEXT_BOLD, lx, layout.plan_y + 8.0, 0.0, 0.0,
                                                           0.0, &style->foreground }, text);
    }

  qm_chart_legend (cr, style, legend, n_legend,
                   &(QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h });
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}
