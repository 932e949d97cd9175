/* qm-chart-bars.c: a labelled vertical bar chart drawn with cairo and pango.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-bars.h"
#include "qm-chart-draw.h"

#include <math.h>
#include <pango/pangocairo.h>

static void
show_text (cairo_t            *cr,
           const QmChartStyle *style,
           const char         *text,
           double              x,
           double              y,
           double              align,   /* 0 left, 0.5 centre, 1 right */
           gboolean            bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (style->font_family);
  int w, h;

  pango_font_description_set_absolute_size (font, style->font_size * PANGO_SCALE * 4.0 / 3.0);
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - align * w, y);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_free (font);
  g_object_unref (layout);
}

void
qm_chart_render_bars (const QmChartFrame *frame,
                      const QmBar        *bars,
                      guint               n_bars,
                      const char         *title,
                      QmBarLayout        *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  const double title_h = title != NULL ? 24.0 : 0.0;
  const double label_h = 20.0;
  QmBarLayout layout;
  double max_value = 0.0;

  for (guint i = 0; i < n_bars; i++)
    if (isfinite (bars[i].value) && bars[i].value > max_value)
      max_value = bars[i].value;
  if (max_value <= 0.0)
    max_value = 1.0;

  layout.x = pad;
  layout.y = pad + title_h;
  layout.width = MAX (0.0, width - 2 * pad);
  layout.height = MAX (0.0, height - 2 * pad - title_h - label_h);
  layout.max_value = max_value;

  qm_chart_begin (frame);

  if (title != NULL)
    {
      qm_chart_set_color (cr, &style->foreground);
      show_text (cr, style, title, width / 2.0, pad, 0.5, TRUE);
    }

  /* Baseline. */
  qm_chart_set_color (cr, &style->grid);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, layout.x, layout.y + layout.height + 0.5);
  cairo_line_to (cr, layout.x + layout.width, layout.y + layout.height + 0.5);
  cairo_stroke (cr);

  for (guint i = 0; i < n_bars && layout.width > 0; i++)
    {
      double slot = layout.width / n_bars;
      double bar_w = slot * 0.6;
      double x = layout.x + i * slot + (slot - bar_w) / 2.0;
      double v = isfinite (bars[i].value) && bars[i].value > 0 ? bars[i].value : 0.0;
      double h = layout.height * v / max_value;

      qm_chart_set_color (cr, &style->series[i % QM_CHART_N_SERIES]);
      cairo_rectangle (cr, round (x), round (layout.y + layout.height - h),
                       round (bar_w), round (h));
      cairo_fill (cr);

      if (bars[i].label != NULL)
        {
          qm_chart_set_color (cr, &style->foreground);
          show_text (cr, style, bars[i].label, x + bar_w / 2.0,
                     layout.y + layout.height + 4.0, 0.5, FALSE);
        }
    }
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}
