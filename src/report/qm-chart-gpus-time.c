/* qm-chart-gpus-time.c: time to train against GPU count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-gpus-time.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "qm-format.h"

/* The curve's extent: the GPU counts, the days (ideal and with failures,
 * the plan's and the deadline) and the highest cost, with stand-ins for an
 * empty curve. */
typedef struct
{
  double   min_g, max_g, min_d, max_d, max_cost;
  gboolean has_days;
} Domain;

/* How many of the curve's points to draw: at most its arrays' length. */
static guint
n_points (const QmGpusTimeCurve *c)
{
  return MIN (c->n, QM_CURVE_MAX_POINTS);
}

static void
curve_domain (const QmGpusTimeCurve *c,
              Domain                *d)
{
  guint n = n_points (c);

  *d = (Domain) { G_MAXDOUBLE, 0, G_MAXDOUBLE, 0, 0, FALSE };
  for (guint i = 0; i < n; i++)
    {
      if (c->gpus[i] > 0)
        {
          d->min_g = MIN (d->min_g, c->gpus[i]);
          d->max_g = MAX (d->max_g, c->gpus[i]);
        }
      for (guint k = 0; k < 2; k++)
        {
          double v = k == 0 ? c->ideal_days[i] : c->days[i];
          if (v > 0 && isfinite (v))
            {
              d->min_d = MIN (d->min_d, v);
              d->max_d = MAX (d->max_d, v);
            }
        }
      if (c->has_band)
        for (guint k = 0; k < 2; k++)
          {
            double v = k == 0 ? c->band_low[i] : c->band_high[i];

            if (v > 0 && isfinite (v))
              {
                d->min_d = MIN (d->min_d, v);
                d->max_d = MAX (d->max_d, v);
              }
          }
      if (c->days[i] > 0)
        d->has_days = TRUE;
      if (c->cost[i] > 0 && isfinite (c->cost[i]))
        d->max_cost = MAX (d->max_cost, c->cost[i]);
    }
  if (c->plan_gpus > 0)
    {
      d->min_g = MIN (d->min_g, c->plan_gpus);
      d->max_g = MAX (d->max_g, c->plan_gpus);
      d->min_d = MIN (d->min_d, c->plan_days);
      d->max_d = MAX (d->max_d, c->plan_days);
    }
  if (c->deadline_days > 0)
    {
      d->min_d = MIN (d->min_d, c->deadline_days);
      d->max_d = MAX (d->max_d, c->deadline_days);
    }
  if (d->max_g <= 0)
    d->min_g = 1, d->max_g = 1024;
  if (d->max_d <= 0)
    d->min_d = 1, d->max_d = 100;
}

/* Places the plot and its axes below the axis titles and above the x
 * axis' labels and the legend, and draws the axes. */
static void
layout_axes (cairo_t               *cr,
             const QmGpusTimeCurve *c,
             const QmChartStyle    *style,
             const Domain          *d,
             double                 width,
             double                 height,
             double                 bottom_h,
             QmGpusTimeLayout      *layout)
{
  const double pad = 12.0;
  double text_h, y_label_w, cost_label_w = 0, x_title_h;

  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  x_title_h = text_h * 2 + 10.0;
  /* Room above the plot for the axis titles, clear of the top tick labels. */
  layout->plot.y = pad + text_h * 1.5 + 8.0;
  layout->plot.height = MAX (10.0, height - layout->plot.y - pad - bottom_h - 6.0 - x_title_h);
  qm_axis_init (&layout->y_axis, QM_SCALE_LOG10, d->min_d * 0.9, d->max_d * 1.1, 5,
                layout->plot.y + layout->plot.height, layout->plot.y);
  y_label_w = qm_chart_axis_label_width (cr, style, &layout->y_axis, qm_chart_tick_number, NULL);
  if (layout->has_cost)
    {
      qm_axis_init (&layout->cost_axis, QM_SCALE_LINEAR, 0.0, d->max_cost * 1.05, 5,
                    layout->plot.y + layout->plot.height, layout->plot.y);
      cost_label_w = qm_chart_axis_label_width (cr, style, &layout->cost_axis, qm_chart_tick_money,
                                                (gpointer) c->currency) + 6.0;
    }
  layout->plot.x = pad + y_label_w + 6.0;
  layout->plot.width = MAX (10.0, width - layout->plot.x - pad - cost_label_w);
  /* No fraction of a GPU: the axis starts at one at the least. */
  qm_axis_init (&layout->x_axis, QM_SCALE_LOG10, MAX (1.0, d->min_g / 1.5), d->max_g * 1.5, 6,
                layout->plot.x, layout->plot.x + layout->plot.width);

  qm_chart_draw_axis (cr, style, &layout->y_axis, &layout->plot, QM_AXIS_LEFT,
                      _("Days to train"), qm_chart_tick_number, NULL);
  qm_chart_draw_axis (cr, style, &layout->x_axis, &layout->plot, QM_AXIS_BOTTOM,
                      _("GPUs"), qm_chart_tick_number, NULL);

  /* Secondary axis: cost, labelled on the right. */
  if (layout->has_cost)
    {
      qm_chart_set_color (cr, &style->series[1]);
      for (guint i = 0; i < layout->cost_axis.n_ticks; i++)
        {
          char label[64];
          double y = qm_axis_to_pixel (&layout->cost_axis, layout->cost_axis.ticks[i]);

          qm_chart_tick_money (layout->cost_axis.ticks[i], label, sizeof label, (gpointer) c->currency);
          qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL,
                                                      layout->plot.x + layout->plot.width + 4.0, y, 0.0, 0.5 },
                         label);
        }
      qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, layout->plot.x + layout->plot.width + 4.0,
                                                  layout->plot.y - text_h * 0.5 - 2.0, 0.0, 1.0 }, _("Cost"));
    }
}

/* Behind the curves: the deadline, the knee and the band where the model
 * does not fit. */
static void
draw_marks (cairo_t               *cr,
            const QmGpusTimeCurve *c,
            const QmChartStyle    *style,
            QmGpusTimeLayout      *layout)
{
  guint n = n_points (c);

  /* Deadline. */
  layout->deadline_y = -1;
  if (c->deadline_days > 0)
    {
      static const double dash[] = { 6.0, 4.0 };

      layout->deadline_y = round (qm_axis_to_pixel (&layout->y_axis, c->deadline_days)) + 0.5;
      qm_chart_dashed_line (cr, &(QmChartDash) { &style->warning, 1.5, dash }, &layout->plot, QM_AXIS_LEFT,
                            layout->deadline_y);
    }

  /* Knee: where doubling the GPUs stops paying. */
  layout->knee_x = -1;
  if (c->knee >= 0 && (guint) c->knee < n)
    {
      static const double dash[] = { 2.0, 3.0 };

      layout->knee_x = round (qm_axis_to_pixel (&layout->x_axis, c->gpus[c->knee])) + 0.5;
      qm_chart_dashed_line (cr, &(QmChartDash) { &style->foreground, 1.0, dash }, &layout->plot, QM_AXIS_BOTTOM,
                            layout->knee_x);
    }

  /* Where the model does not fit in memory: a tinted band behind the
   * curves, from halfway to the neighbouring fitting counts. */
  layout->no_fit_x0 = layout->no_fit_x1 = -1;
  for (guint i = 0; i < n; i++)
    if (c->no_fit[i] && c->gpus[i] > 0)
      {
        double lo = i > 0 ? sqrt (c->gpus[i - 1] * c->gpus[i]) : c->gpus[i] / 1.5;
        double hi = i + 1 < n ? sqrt (c->gpus[i] * c->gpus[i + 1]) : c->gpus[i] * 1.5;
        double x0 = MAX (layout->plot.x, qm_axis_to_pixel (&layout->x_axis, lo));
        double x1 = MIN (layout->plot.x + layout->plot.width, qm_axis_to_pixel (&layout->x_axis, hi));

        if (i == 0)
          x0 = layout->plot.x;
        if (i + 1 == n)
          x1 = layout->plot.x + layout->plot.width;
        qm_chart_set_color_alpha (cr, &style->error, 0.12);
        cairo_rectangle (cr, x0, layout->plot.y, x1 - x0, layout->plot.height);
        cairo_fill (cr);
        layout->no_fit_x0 = layout->no_fit_x0 < 0 ? x0 : MIN (layout->no_fit_x0, x0);
        layout->no_fit_x1 = MAX (layout->no_fit_x1, x1);
      }
}

static void
draw_curves (cairo_t                *cr,
             const QmGpusTimeCurve  *c,
             const QmChartStyle     *style,
             gboolean                has_days,
             const QmGpusTimeLayout *layout)
{
  guint n = n_points (c);

  /* The likely range below everything, then cost, then ideal (dashed),
   * then with failures (solid) on top. */
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  if (c->has_band)
    {
      qm_chart_set_color_alpha (cr, &style->series[0], QM_CHART_BAND_ALPHA);
      qm_chart_band_path (cr, &layout->x_axis, &layout->y_axis, c->gpus, c->band_low, c->band_high, n);
      cairo_fill (cr);
    }
  if (layout->has_cost)
    {
      gboolean started = FALSE;

      qm_chart_set_color_alpha (cr, &style->series[1], 0.9);
      cairo_set_line_width (cr, 1.5);
      for (guint i = 0; i < n; i++)
        if (c->cost[i] > 0 && c->gpus[i] > 0)
          {
            double px = qm_axis_to_pixel (&layout->x_axis, c->gpus[i]);
            double py = qm_axis_to_pixel (&layout->cost_axis, c->cost[i]);

            if (started)
              cairo_line_to (cr, px, py);
            else
              cairo_move_to (cr, px, py);
            started = TRUE;
          }
      cairo_stroke (cr);
      /* Series 1's marker (a square) on each point: the cost curve is
       * told from the days curves by more than its colour (issue #37
       * item 9), as its legend sample shows. */
      for (guint i = 0; i < n; i++)
        if (c->cost[i] > 0 && c->gpus[i] > 0)
          {
            qm_chart_marker_path (cr, qm_chart_series_marker (1),
                                  round (qm_axis_to_pixel (&layout->x_axis, c->gpus[i])),
                                  round (qm_axis_to_pixel (&layout->cost_axis, c->cost[i])), 6.0);
            cairo_fill (cr);
          }
    }
  {
    static const double dash[] = { 5.0, 3.0 };

    cairo_save (cr);
    qm_chart_set_color (cr, &style->series[0]);
    cairo_set_line_width (cr, 1.5);
    cairo_set_dash (cr, dash, 2, 0);
    qm_chart_polyline (cr, &layout->x_axis, &layout->y_axis, c->gpus, c->ideal_days, n);
    cairo_stroke (cr);
    cairo_restore (cr);
  }
  if (has_days)
    {
      qm_chart_set_color (cr, &style->series[0]);
      cairo_set_line_width (cr, 2.5);
      qm_chart_polyline (cr, &layout->x_axis, &layout->y_axis, c->gpus, c->days, n);
      cairo_stroke (cr);
    }
}

static void
draw_labels (cairo_t               *cr,
             const QmGpusTimeCurve *c,
             const QmChartStyle    *style,
             double                 width,
             QmGpusTimeLayout      *layout)
{
  const double pad = 12.0;

  if (layout->deadline_y >= 0)
    {
      char days[QM_FORMAT_BUF], text[96];

      /* Translators: %s is a duration such as "110 days". */
      g_snprintf (text, sizeof text, _("Deadline %s"), qm_format_days (days, sizeof days, c->deadline_days));
      qm_chart_set_color (cr, &style->warning);
      layout->deadline_label = qm_chart_text (cr, style,
                                              &(QmChartLabel) { QM_TEXT_SMALL, layout->plot.x + layout->plot.width - 4.0,
                                                                layout->deadline_y - 2.0, 1.0, 1.0 }, text);
    }
  if (layout->knee_x >= 0)
    {
      char gpus[QM_FORMAT_BUF], text[96];
      double tw;
      gboolean right;

      /* Translators: the point of the curve after which more GPUs gain little; %s is a GPU count. */
      g_snprintf (text, sizeof text, _("Knee: %s GPUs"), qm_format_number (gpus, sizeof gpus, c->gpus[c->knee], 0));
      qm_chart_text_size (cr, style, QM_TEXT_SMALL, text, &tw, NULL);
      /* Right of the line, or left of it when the knee is near the plot's
       * right edge, so the label never runs into the cost axis. */
      right = layout->knee_x + 4.0 + tw <= layout->plot.x + layout->plot.width;
      qm_chart_set_color (cr, &style->foreground);
      layout->knee_label = qm_chart_text (cr, style,
                                          &(QmChartLabel) { QM_TEXT_SMALL, layout->knee_x + (right ? 4.0 : -4.0),
                                                            layout->plot.y + 2.0, right ? 0.0 : 1.0, 0.0 }, text);
    }
  if (c->plan_gpus > 0 && c->plan_days > 0)
    {
      char gpus[QM_FORMAT_BUF], days[QM_FORMAT_BUF], text[128];
      QmChartLabel at;
      double tw, th, lx = 0.0, ly = 0.0;
      gboolean placed = FALSE;

      layout->plan_x = qm_axis_to_pixel (&layout->x_axis, c->plan_gpus);
      layout->plan_y = qm_axis_to_pixel (&layout->y_axis, c->plan_days);
      qm_chart_plan_marker (cr, style, layout->plan_x, layout->plan_y);
      /* Translators: %s is a GPU count, then a duration such as "110 days". */
      g_snprintf (text, sizeof text, _("This plan: %s GPUs, %s"),
                  qm_format_number (gpus, sizeof gpus, c->plan_gpus, 0),
                  qm_format_days (days, sizeof days, c->plan_days));
      qm_chart_text_size (cr, style, QM_TEXT_BOLD, text, &tw, &th);
      /* On a background patch so the curves do not run through it: to the
       * right of the point, to its left, above it or below it, the first
       * place inside the plot that covers neither the deadline's label nor
       * the knee's ("This plan" covered "Deadline 30.0 days", issue #35
       * item 8). Where none is clear, the first inside the plot. */
      {
        const double cx = MAX (layout->plot.x + 4.0,
                               MIN (layout->plan_x - tw / 2.0, layout->plot.x + layout->plot.width - 4.0 - tw));
        const double spots[4][2] = {
          { layout->plan_x + 10.0, layout->plan_y },
          { layout->plan_x - 10.0 - tw, layout->plan_y },
          { cx, layout->plan_y - 10.0 },
          { cx, layout->plan_y + 10.0 + th },
        };

        for (guint pass = 0; pass < 2 && !placed; pass++)
          for (guint i = 0; i < G_N_ELEMENTS (spots) && !placed; i++)
            {
              /* The box as qm_chart_text_on_patch() paints it, with a
               * little air. */
              QmRect box = { spots[i][0] - 4.0, spots[i][1] - th - 3.0, tw + 8.0, th + 6.0 };

              if (box.x + 2.0 < layout->plot.x || box.x + box.width - 2.0 > layout->plot.x + layout->plot.width ||
                  box.y + 2.0 < layout->plot.y || box.y + box.height - 2.0 > layout->plot.y + layout->plot.height)
                continue;
              if (pass == 0 && (qm_chart_rects_overlap (&box, &layout->deadline_label) ||
                                qm_chart_rects_overlap (&box, &layout->knee_label)))
                continue;
              lx = spots[i][0];
              ly = spots[i][1];
              placed = TRUE;
            }
        if (!placed)
          {
            lx = cx;
            ly = layout->plan_y - 10.0 - th >= layout->plot.y ? layout->plan_y - 10.0 : layout->plan_y + 10.0 + th;
          }
      }
      /* In a narrow chart even the plot is too small: keep it in the chart. */
      lx = MAX (pad, MIN (lx, width - pad - tw));
      at = (QmChartLabel) { QM_TEXT_BOLD, lx, ly, 0.0, 1.0, 0.0, &style->foreground };
      layout->plan_label = qm_chart_text_on_patch (cr, style, &at, text);
    }
}

/* The band says in words what it means, inside the plot on a patch,
 * clear of the plan's label: at the bottom of the plot, or at its top
 * when the plan's label is down there. */
static void
draw_no_fit_label (cairo_t               *cr,
                   const QmGpusTimeCurve *c,
                   const QmChartStyle    *style,
                   QmGpusTimeLayout      *layout)
{
  g_autofree char *text = NULL;
  double band_w = layout->no_fit_x1 - layout->no_fit_x0;
  double wrap = MAX (MIN (layout->plot.width - 8.0, 420.0), MIN (band_w - 8.0, layout->plot.width - 8.0));
  QmChartLabel label = { QM_TEXT_SMALL, 0.0, 0.0, 0.5, 0.0, wrap, &style->error };
  QmRect size;
  double tw, th, lx, ly;

  if (layout->no_fit_x0 < 0)
    return;
  if (c->no_fit_reason[0] != '\0')
    /* Translators: over the range of a chart where the model does not
     * fit in GPU memory; %s is the estimate's explanation. */
    text = g_strdup_printf (_("Shaded: the model does not fit in memory at these GPU counts with the plan's layout (%s)"),
                            c->no_fit_reason);
  else
    text = g_strdup (_("Shaded: the model does not fit in memory at these GPU counts with the plan's layout"));
  size = qm_chart_text_box (cr, style, &label, text);
  tw = size.width;
  th = size.height;
  /* Within the band when it is wide enough, else within the plot. */
  lx = band_w >= tw + 8.0 ? layout->no_fit_x0 + 4.0 : layout->plot.x + 4.0;
  lx = MIN (lx, layout->plot.x + layout->plot.width - tw - 4.0);
  ly = layout->plot.y + layout->plot.height - th - 4.0;
  if (layout->plan_label.width > 0 && layout->plan_label.y + layout->plan_label.height > ly - 2.0 &&
      layout->plan_label.x < lx + tw && lx < layout->plan_label.x + layout->plan_label.width)
    ly = layout->plot.y + 4.0;
  if (layout->knee_x >= 0 && ly < layout->plot.y + 2.0 * th && lx <= layout->knee_x + 4.0)
    ly = MAX (ly, layout->plot.y + 4.0 + th + 4.0);
  label.x = lx + tw / 2.0;
  label.y = ly;
  layout->no_fit_label = qm_chart_text_on_patch (cr, style, &label, text);
}

void
qm_chart_render_gpus_time (const QmChartFrame    *frame,
                           const QmGpusTimeCurve *c,
                           QmGpusTimeLayout      *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  QmGpusTimeLayout layout = { 0 };
  Domain d;
  double legend_h;
  QmLegendEntry legend[6];
  guint n_legend = 0;

  curve_domain (c, &d);
  layout.has_cost = d.max_cost > 0;

  qm_chart_begin (frame);
  legend[n_legend++] = (QmLegendEntry) { _("With failures and restarts"), style->series[0], FALSE };
  legend[n_legend++] = (QmLegendEntry) { _("Ideal (no failures)"), style->series[0], TRUE };
  if (c->has_band)
    legend[n_legend++] = (QmLegendEntry) { _("Likely range (p10–p90)"), style->series[0], FALSE,
                                           QM_CHART_BAND_ALPHA };
  if (layout.has_cost)
    legend[n_legend++] = qm_chart_series_line_legend (style, 1, _("Cost of the run"));
  if (c->deadline_days > 0)
    legend[n_legend++] = (QmLegendEntry) { _("Deadline"), style->warning, TRUE };
  legend_h = qm_chart_legend_height (cr, style, legend, n_legend, width - 2 * pad);
  layout_axes (cr, c, style, &d, width, height, legend_h, &layout);

  cairo_save (cr);
  cairo_rectangle (cr, layout.plot.x, layout.plot.y, layout.plot.width, layout.plot.height);
  cairo_clip (cr);
  draw_marks (cr, c, style, &layout);
  draw_curves (cr, c, style, d.has_days, &layout);
  layout.band_drawn = c->has_band;
  cairo_restore (cr);

  /* Labels outside the clip so they are never cut. */
  draw_labels (cr, c, style, width, &layout);
  draw_no_fit_label (cr, c, style, &layout);

  qm_chart_legend (cr, style, legend, n_legend,
                   &(QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h });
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}

int
qm_chart_gpus_time_hit (const QmGpusTimeLayout *layout,
                        const QmGpusTimeCurve  *c,
                        double                  x,
                        double                  y)
{
  const double *ys = c->days;
  gboolean has_days = FALSE;

  for (guint i = 0; i < c->n; i++)
    has_days |= c->days[i] > 0;
  if (!has_days)
    ys = c->ideal_days;
  return qm_axis_hit_test (&layout->x_axis, &layout->y_axis, c->gpus, ys, n_points (c), x, y, 10.0);
}
