/* qm-chart-cashflow.c: see qm-chart-cashflow.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "qm-chart-cashflow.h"
#include "qm-format.h"

static const double dash_mark[] = { 6.0, 4.0 };

/* The cumulative line of one column of the cash flow, drawn as its legend
 * entry @key shows it. Not qm_chart_polyline (): a running sum may be 0 in
 * its first months, and that helper leaves out points that are not
 * positive (for log axes). */
static void
draw_line (cairo_t                *cr,
           const QmCashFlowLayout *l,
           const QmQuote          *q,
           gboolean                rent,
           const QmLegendEntry    *key)
{
  cairo_save (cr);
  qm_chart_set_color (cr, &key->color);
  cairo_set_line_width (cr, 2.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  if (key->dashed)
    cairo_set_dash (cr, dash_mark, 2, 0);
  for (guint m = 0; m < q->n_months; m++)
    {
      QmMinor v = rent ? q->months[m].rent_cumulative : q->months[m].spend_cumulative;
      double x = qm_axis_to_pixel (&l->x_axis, m);
      double y = qm_axis_to_pixel (&l->y_axis, qm_money_major (v, q->exponent));

      if (m == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A mark on the months: a dashed vertical line in @color at @month, with
 * @text as its label; @avoid, when not NULL, is a label it must not cover
 * (it moves a row down instead). */
typedef struct
{
  double         month;
  const QmColor *color;
  const char    *text;
  const QmRect  *avoid;
} Mark;

/* Draws @mark with its label at the top of the plot, on the side of the
 * line that has room; @box gets the label's pixels. Returns the pixel
 * column. */
static double
draw_mark (cairo_t                *cr,
           const QmChartStyle     *style,
           const QmCashFlowLayout *l,
           const Mark             *mark,
           QmRect                 *box)
{
  const QmColor *color = mark->color;
  const char *text = mark->text;
  const QmRect *avoid = mark->avoid;
  double x = round (qm_axis_to_pixel (&l->x_axis, mark->month)) + 0.5;
  double tw, th, lx, ly = l->plot.y + 4.0;
  double right = l->plot.x + l->plot.width;

  qm_chart_dashed_line (cr, &(QmChartDash) { color, 1.5, dash_mark }, &l->plot, QM_AXIS_BOTTOM, x);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, text, &tw, &th);
  lx = x + 4.0 + tw <= right ? x + 4.0 : x - 4.0 - tw;
  lx = MAX (lx, l->plot.x + 2.0);
  if (avoid != NULL && avoid->width > 0 &&
      lx < avoid->x + avoid->width && lx + tw > avoid->x)
    ly = avoid->y + avoid->height + 4.0;
  *box = qm_chart_text_on_patch (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, lx, ly, 0.0, 0.0, 0, color },
                                 text);
  return x;
}

void
qm_chart_render_cashflow (const QmChartFrame *frame,
                          const QmQuote      *q,
                          QmCashFlowLayout   *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  QmCashFlowLayout l = { .break_even_x = -1, .start_x = -1 };
  QmLegendEntry legend[2];
  guint n_legend = 0;
  gboolean has_rent = q->n_months > 0 && q->rent_total > 0;
  double text_h, legend_h, x_title_h, label_w, y_hi = 0.0, x_hi;
  char currency[8];

  g_strlcpy (currency, q->currency, sizeof currency);
  for (guint m = 0; m < q->n_months; m++)
    y_hi = MAX (y_hi, qm_money_major (MAX (q->months[m].spend_cumulative, q->months[m].rent_cumulative),
                                      q->exponent));
  if (!(y_hi > 0.0))
    y_hi = 1.0;
  x_hi = MAX (q->n_months, 2u) - 1.0;

  qm_chart_begin (frame);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  legend[n_legend++] = (QmLegendEntry) { _("Buying, cumulative"), style->series[0], FALSE };
  if (has_rent)
    legend[n_legend++] = (QmLegendEntry) { _("Renting the same GPUs, cumulative"), style->series[1], TRUE };
  legend_h = qm_chart_legend_height (cr, style, legend, n_legend, width - 2 * pad);
  x_title_h = text_h * 2 + 10.0;

  l.plot.y = pad + text_h * 1.5 + 8.0;
  l.plot.height = MAX (10.0, height - l.plot.y - pad - legend_h - 6.0 - x_title_h);
  qm_axis_init (&l.y_axis, QM_SCALE_LINEAR, 0.0, y_hi * 1.08, 5, l.plot.y + l.plot.height, l.plot.y);
  label_w = qm_chart_axis_label_width (cr, style, &l.y_axis, qm_chart_tick_money, currency);
  l.plot.x = pad + label_w + 6.0;
  l.plot.width = MAX (10.0, width - l.plot.x - pad - 8.0);
  qm_axis_init (&l.x_axis, QM_SCALE_LINEAR, 0.0, x_hi, 8, l.plot.x, l.plot.x + l.plot.width);
  qm_chart_draw_axis (cr, style, &l.y_axis, &l.plot, QM_AXIS_LEFT, currency, qm_chart_tick_money, currency);
  qm_chart_draw_axis (cr, style, &l.x_axis, &l.plot, QM_AXIS_BOTTOM,
                      _("Months after the order"), qm_chart_tick_number, NULL);

  cairo_save (cr);
  cairo_rectangle (cr, l.plot.x, l.plot.y, l.plot.width, l.plot.height);
  cairo_clip (cr);
  if (has_rent)
    draw_line (cr, &l, q, TRUE, &legend[1]);
  draw_line (cr, &l, q, FALSE, &legend[0]);
  cairo_restore (cr);

  if (q->n_months > 1 && q->training_start_month < q->n_months)
    {
      char text[96];

      /* Translators: a mark on the cash-flow chart; %u is a month number. */
      g_snprintf (text, sizeof text, _("Cluster in place: month %u"), q->training_start_month);
      l.start_x = draw_mark (cr, style, &l, &(Mark) { q->training_start_month, &style->foreground, text },
                             &l.start_label);
    }
  if (q->break_even_valid)
    {
      char text[96];

      /* Translators: a mark on the cash-flow chart; %u is a month number. */
      g_snprintf (text, sizeof text, _("Buying is cheaper from month %u"), q->break_even_month);
      l.break_even_x = draw_mark (cr, style, &l,
                                  &(Mark) { q->break_even_month, &style->accent, text, &l.start_label },
                                  &l.break_even_label);
    }

  qm_chart_legend (cr, style, legend, n_legend,
                   &(QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h });
  cairo_restore (cr);
  if (layout_out)
    *layout_out = l;
}
