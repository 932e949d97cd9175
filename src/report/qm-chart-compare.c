/* qm-chart-compare.c: comparison charts for 2-4 plans.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-compare.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "qm-format.h"
#include "qm-plan-report.h"

static const char *metric_names[QM_COMPARE_N_METRICS] = {
  N_("GPUs"), N_("Days"), N_("Cost"), N_("Power (kW)"), N_("CO₂e (t)"),
};

const char *
qm_chart_compare_metric_name (guint metric)
{
  g_return_val_if_fail (metric < QM_COMPARE_N_METRICS, "");
  return _(metric_names[metric]);
}

double
qm_chart_compare_metric_value (const QmCompareItem *item,
                               guint                metric)
{
  double v;

  switch (metric)
    {
    case 0: v = item->gpus; break;
    case 1: v = item->days; break;
    case 2: v = item->cost; break;
    case 3: v = item->power_kw; break;
    case 4: v = item->co2_tonnes; break;
    default: v = 0.0; break;
    }
  return isfinite (v) && v > 0.0 ? v : 0.0;
}

static void
format_metric (char       *buf,
               gsize       size,
               guint       metric,
               double      v,
               const char *currency)
{
  switch (metric)
    {
    case 2:
      qm_format_money (buf, size, v, currency);
      break;
    case 0:
      /* A count: "8", not "8.0". */
      qm_format_number (buf, size, v, 0);
      break;
    case 1:
      qm_format_number (buf, size, v, v < 100 ? 1 : 0);
      break;
    default:
      /* Two figures below 1 (a LoRA run's 0.04 t CO₂e is not "0.0"). */
      qm_format_number (buf, size, v, v < 1 ? 2 : v < 10 ? 1 : 0);
      break;
    }
}

char *
qm_chart_compare_format_value (char                *buf,
                               gsize                size,
                               const QmCompareItem *item,
                               guint                metric,
                               const char          *currency)
{
  double v = qm_chart_compare_metric_value (item, metric);

  if (v > 0)
    format_metric (buf, size, metric, v, currency);
  else
    g_strlcpy (buf, "–", size);
  return buf;
}

static gboolean
in_rect (const QmRect *r,
         double        x,
         double        y)
{
  return r->width > 0 && r->height > 0 &&
         x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height;
}

/* Half the size of a scatter marker, and a pixel of slack. */
#define MARKER_HIT 7.0

gboolean
qm_chart_compare_hit (const QmCompareLayout *layout,
                      double                 x,
                      double                 y,
                      guint                 *metric,
                      guint                 *plan)
{
  g_return_val_if_fail (layout != NULL, FALSE);

  for (guint m = 0; m < QM_COMPARE_N_METRICS; m++)
    for (guint p = 0; p < layout->n_plans; p++)
      if (in_rect (&layout->columns[m][p], x, y))
        {
          *metric = m;
          *plan = p;
          return TRUE;
        }
  for (guint p = 0; p < layout->n_plans; p++)
    if (layout->markers[p].width > 0 &&
        fabs (x - layout->markers[p].x) <= MARKER_HIT && fabs (y - layout->markers[p].y) <= MARKER_HIT)
      {
        *metric = QM_COMPARE_N_METRICS;
        *plan = p;
        return TRUE;
      }
  return FALSE;
}

char *
qm_chart_compare_describe (const QmCompareItem *items,
                           const char * const  *currencies,
                           guint                n)
{
  GString *out = g_string_new (NULL);

  for (guint p = 0; p < MIN (n, QM_COMPARE_MAX_PLANS); p++)
    {
      const QmCompareItem *it = &items[p];
      char gpus[QM_FORMAT_BUF], days[QM_FORMAT_BUF], cost[QM_FORMAT_BUF], kw[QM_FORMAT_BUF], co2[QM_FORMAT_BUF];
      g_autofree char *time = NULL;

      /* As the bars print them. */
      qm_chart_compare_format_value (gpus, sizeof gpus, it, 0, NULL);
      qm_format_money (cost, sizeof cost, it->cost, currencies[p] != NULL && currencies[p][0] ? currencies[p] : "USD");
      qm_format_si (kw, sizeof kw, it->power_kw * 1e3, "W");
      qm_chart_compare_format_value (co2, sizeof co2, it, 4, NULL);
      if (qm_chart_compare_metric_value (it, 1) > 0)
        /* Translators: the time to train in the compare chart's summary. */
        time = g_strdup_printf (_("%s to train"), qm_format_days (days, sizeof days, it->days));
      else
        /* Translators: the compare chart's summary, for a serving plan,
         * which has no bar for the time to train. */
        time = g_strdup (_("no time to train (serving)"));
      /* Translators: one plan in the compare chart's summary: letter, name,
       * GPUs, time, total cost, facility power, CO₂e in tonnes; the plans
       * are joined with "; ". */
      g_string_append_printf (out, _("%s%c, %s: %s GPUs, %s, %s in all, %s facility power, %s t CO₂e"),
                              p > 0 ? "; " : "", qm_compare_letter (p), it->label != NULL ? it->label : "",
                              gpus, time, cost, kw, co2);
    }
  if (out->len > 0)
    g_string_append_c (out, '.');
  return g_string_free (out, FALSE);
}

/* Cost against days, one marker per plan: lower left is better on both. */
static void
draw_scatter (cairo_t             *cr,
              const QmCompareItem *items,
              guint                n,
              const char          *currency,
              const QmChartStyle  *style,
              const QmRect        *area,
              double               text_h,
              QmCompareLayout     *layout)
{
  const double left = area->x, top = area->y, bottom = area->y + area->height;
  double min_d = G_MAXDOUBLE, max_d = 0, min_c = G_MAXDOUBLE, max_c = 0, label_w;

  for (guint p = 0; p < n; p++)
    {
      double d = qm_chart_compare_metric_value (&items[p], 1);
      double c = qm_chart_compare_metric_value (&items[p], 2);

      if (d > 0) { min_d = MIN (min_d, d); max_d = MAX (max_d, d); }
      if (c > 0) { min_c = MIN (min_c, c); max_c = MAX (max_c, c); }
    }
  if (max_d <= 0) { min_d = 0; max_d = 1; }
  if (max_c <= 0) { min_c = 0; max_c = 1; }

  layout->scatter_plot.y = top + text_h;
  layout->scatter_plot.height = MAX (10.0, bottom - text_h * 2 - 10.0 - layout->scatter_plot.y);
  qm_axis_init (&layout->scatter_y, QM_SCALE_LINEAR, 0.0, max_c * 1.15, 5,
                layout->scatter_plot.y + layout->scatter_plot.height, layout->scatter_plot.y);
  label_w = qm_chart_axis_label_width (cr, style, &layout->scatter_y, qm_chart_tick_money, (gpointer) currency);
  layout->scatter_plot.x = left + label_w + 6.0;
  layout->scatter_plot.width = MAX (10.0, area->x + area->width - layout->scatter_plot.x);
  qm_axis_init (&layout->scatter_x, QM_SCALE_LINEAR, 0.0, max_d * 1.15, 4,
                layout->scatter_plot.x, layout->scatter_plot.x + layout->scatter_plot.width);
  qm_chart_draw_axis (cr, style, &layout->scatter_y, &layout->scatter_plot, QM_AXIS_LEFT,
                      _("Cost against time"), qm_chart_tick_money, (gpointer) currency);
  qm_chart_draw_axis (cr, style, &layout->scatter_x, &layout->scatter_plot, QM_AXIS_BOTTOM,
                      _("Days"), qm_chart_tick_number, NULL);

  for (guint p = 0; p < n; p++)
    {
      double x = qm_axis_to_pixel (&layout->scatter_x, qm_chart_compare_metric_value (&items[p], 1));
      double y = qm_axis_to_pixel (&layout->scatter_y, qm_chart_compare_metric_value (&items[p], 2));

      /* A plan without a time to train (serving) has no point here, as it
       * has no bar under "Days": not a point at zero days. */
      if (qm_chart_compare_metric_value (&items[p], 1) <= 0 || qm_chart_compare_metric_value (&items[p], 2) <= 0)
        continue;
      layout->markers[p] = (QmRect) { x, y, 1.0, 1.0 };
      /* Distinct marker shapes as well as colours (qm_chart_series_marker()). */
      qm_chart_set_color (cr, &style->series[p]);
      qm_chart_marker_path (cr, qm_chart_series_marker (p), x, y, 12.0);
      cairo_fill (cr);
      /* The plan's letter beside its marker, as in the legend. */
      {
        char letter[2] = { qm_compare_letter (p), '\0' };

        qm_chart_set_color (cr, &style->foreground);
        qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, x + 8.0, y, 0.0, 0.5 }, letter);
      }
    }
}

/* A bar's value as printed: in full, or in its short form ("2.05 k",
 * "$132 M") where the full one is wider than the bar (@bar_w) less a
 * pixel, so that neighbours keep three pixels apart ("5.8" and "0.01"
 * read "5.80.01" when they touched); TRUE when even that is, so that it
 * stands upright (reading upwards) above the bar. Its size across and up
 * the page in @tw, @th as drawn. */
static gboolean
value_label (cairo_t            *cr,
             const QmChartStyle *style,
             guint               metric,
             double              v,
             const char         *currency,
             double              bar_w,
             char               *label,
             double             *tw,
             double             *th)
{
  /* A missing figure (a service has no training days) is a dash. */
  if (v > 0)
    format_metric (label, QM_FORMAT_BUF, metric, v, currency);
  else
    g_strlcpy (label, "–", QM_FORMAT_BUF);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, tw, th);
  if (*tw > bar_w - 1 && v >= 1000)
    {
      if (metric == 2)
        qm_chart_tick_money (v, label, QM_FORMAT_BUF, (gpointer) currency);
      else
        qm_format_si (label, QM_FORMAT_BUF, v, "");
      qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, tw, th);
    }
  return *tw > bar_w - 1;
}

/* A bar's value above it: across, or upright where value_label() says
 * so. @bar is the bar (0 high where the figure does not apply). Returns
 * the text's box. */
static QmRect
draw_value (cairo_t            *cr,
            const QmChartStyle *style,
            const char         *label,
            gboolean            upright,
            const QmRect       *bar)
{
  double tw, th, cx = bar->x + bar->width / 2.0;
  QmRect box;

  qm_chart_set_color (cr, &style->foreground);
  if (!upright)
    return qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, cx, bar->y - 2.0, 0.5, 1.0 }, label);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, &tw, &th);
  box = (QmRect) { round (cx - th / 2.0), bar->y - 2.0 - tw, th, tw };
  cairo_save (cr);
  cairo_translate (cr, box.x, box.y + box.height);
  cairo_rotate (cr, -G_PI / 2.0);
  qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, 0.0, 0.0, 0.0, 0.0 }, label);
  cairo_restore (cr);
  return box;
}

void
qm_chart_render_compare (const QmChartFrame  *frame,
                         const QmCompareItem *items,
                         guint                n,
                         const char          *currency,
                         QmCompareLayout     *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  QmCompareLayout layout = { 0 };
  QmLegendEntry legend[QM_COMPARE_MAX_PLANS];
  double text_h, legend_h, bars_w, top, bottom, headroom = 0.0;
  char labels[QM_COMPARE_N_METRICS][QM_COMPARE_MAX_PLANS][QM_FORMAT_BUF];
  gboolean upright[QM_COMPARE_N_METRICS][QM_COMPARE_MAX_PLANS];

  n = MIN (n, QM_COMPARE_MAX_PLANS);
  layout.n_plans = n;

  qm_chart_begin (frame);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  /* The labels carry the letters ("A: ...", as the PDF and the page
   * pass them), which name the bars and markers. */
  for (guint p = 0; p < n; p++)
    legend[p] = qm_chart_series_legend (style, p, items[p].label != NULL ? items[p].label : "");
  legend_h = qm_chart_legend_height (cr, style, legend, n, width - 2 * pad);

  top = pad + text_h + 6.0;
  bottom = height - pad - legend_h - 8.0;
  bars_w = (width - 2 * pad) * 0.62;

  /* Every bar's value, and the room above the bars that the tallest
   * needs for it: a line, or an upright label's length. */
  for (guint m = 0; m < QM_COMPARE_N_METRICS; m++)
    for (guint p = 0; p < n; p++)
      {
        double bw = (bars_w / QM_COMPARE_N_METRICS - 8.0) / n, tw, th;

        upright[m][p] = value_label (cr, style, m, qm_chart_compare_metric_value (&items[p], m), currency,
                                     bw - 2.0, labels[m][p], &tw, &th);
        headroom = MAX (headroom, (upright[m][p] ? tw : th) + 4.0);
      }

  /* Grouped bars: each metric scaled to its own largest value, so every
   * group is readable; every bar carries its value above it. */
  for (guint m = 0; m < QM_COMPARE_N_METRICS; m++)
    {
      double slot = bars_w / QM_COMPARE_N_METRICS;
      double gx = pad + m * slot + 4.0, gw = slot - 8.0;
      /* Under the baseline: each bar's letter, then the group's name. */
      double plot_top = top + headroom, plot_bottom = bottom - 2.0 * text_h - 6.0;
      double max = 0.0;

      layout.groups[m] = (QmRect) { gx, top, gw, bottom - top };
      for (guint p = 0; p < n; p++)
        max = MAX (max, qm_chart_compare_metric_value (&items[p], m));

      qm_chart_set_color (cr, &style->grid);
      cairo_set_line_width (cr, 1.0);
      cairo_move_to (cr, gx, round (plot_bottom) + 0.5);
      cairo_line_to (cr, gx + gw, round (plot_bottom) + 0.5);
      cairo_stroke (cr);

      for (guint p = 0; p < n && n > 0; p++)
        {
          double v = qm_chart_compare_metric_value (&items[p], m);
          double bw = gw / n;
          double h = max > 0 ? (plot_bottom - plot_top) * v / max : 0.0;
          double x = round (gx + p * bw + 1.0);

          layout.bars[m][p] = (QmRect) { x, round (plot_bottom - h), round (bw - 2.0), round (plot_bottom) - round (plot_bottom - h) };
          if (v > 0)
            layout.columns[m][p] = (QmRect) { x, top, round (bw - 2.0), round (plot_bottom) - top };
          /* Its colour and pattern, as its legend swatch. */
          qm_chart_fill_series (cr, style, p, &layout.bars[m][p]);
          /* The plan's letter under its bar, as in the legend: the plans
           * are told apart by more than colour (issue #37 item 9). Under,
           * not on it (qm_chart_label_part): a small plan's bar beside a
           * large one's is a pixel high and would carry none. */
          {
            char letter[2] = { qm_compare_letter (p), '\0' };

            qm_chart_set_color (cr, &style->foreground);
            qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, x + (bw - 2.0) / 2.0,
                                                        round (plot_bottom) + 2.0, 0.5, 0.0 }, letter);
          }

          layout.values[m][p] = draw_value (cr, style, labels[m][p], upright[m][p],
                                            &(QmRect) { x, plot_bottom - h, bw - 2.0, h });
        }
      qm_chart_set_color (cr, &style->foreground);
      /* Small type: five group names must share the width. */
      qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, gx + gw / 2.0, bottom, 0.5, 1.0 },
                     _(metric_names[m]));
    }

  {
    QmRect area = { pad + bars_w + 16.0, top, width - pad - (pad + bars_w + 16.0), bottom - top };

    draw_scatter (cr, items, n, currency, style, &area, text_h, &layout);
  }

  qm_chart_legend (cr, style, legend, n,
                   &(QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h });
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}
