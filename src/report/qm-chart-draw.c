/* qm-chart-draw.c: drawing helpers shared by the chart renderers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-draw.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "qm-format.h"

#define TICK_LENGTH 4.0
#define LABEL_GAP   4.0
#define SWATCH      10.0

void
qm_chart_set_color (cairo_t       *cr,
                    const QmColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

void
qm_chart_set_color_alpha (cairo_t       *cr,
                          const QmColor *c,
                          double         alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

static PangoLayout *
make_layout (cairo_t            *cr,
             const QmChartStyle *style,
             QmTextKind          kind,
             const char         *text)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (style->font_family);
  double points = style->font_size;

  switch (kind)
    {
    case QM_TEXT_SMALL:
      points *= 0.85;
      break;
    case QM_TEXT_TITLE:
      points *= 1.25;
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      break;
    case QM_TEXT_BOLD:
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      break;
    case QM_TEXT_NORMAL:
    default:
      break;
    }

  /* Sizes are in points; the charts work in CSS pixels (96 dpi). */
  pango_font_description_set_absolute_size (font, points * 96.0 / 72.0 * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_font_description_free (font);
  return layout;
}

/* The layout for @text as @label says, and its logical extents. */
static PangoLayout *
make_label_layout (cairo_t            *cr,
                   const QmChartStyle *style,
                   const QmChartLabel *label,
                   const char         *text,
                   PangoRectangle     *logical)
{
  PangoLayout *layout = make_layout (cr, style, label->kind, text);

  if (label->max_width > 0)
    {
      pango_layout_set_width (layout, (int) floor (label->max_width) * PANGO_SCALE);
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
    }
  pango_layout_get_pixel_extents (layout, NULL, logical);
  return layout;
}

/* Where @label puts a box of @logical's size: on whole pixels, so that
 * the text is crisp. */
static QmRect
label_box (const QmChartLabel   *label,
           const PangoRectangle *logical)
{
  return (QmRect) { round (label->x - label->ax * logical->width),
                    round (label->y - label->ay * logical->height),
                    logical->width, logical->height };
}

QmRect
qm_chart_text_box (cairo_t            *cr,
                   const QmChartStyle *style,
                   const QmChartLabel *label,
                   const char         *text)
{
  PangoRectangle logical;
  PangoLayout *layout = make_label_layout (cr, style, label, text, &logical);

  g_object_unref (layout);
  return label_box (label, &logical);
}

QmRect
qm_chart_text (cairo_t            *cr,
               const QmChartStyle *style,
               const QmChartLabel *label,
               const char         *text)
{
  PangoRectangle logical;
  PangoLayout *layout = make_label_layout (cr, style, label, text, &logical);
  QmRect box = label_box (label, &logical);

  if (label->color != NULL)
    qm_chart_set_color (cr, label->color);
  cairo_move_to (cr, box.x - logical.x, box.y - logical.y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
  return box;
}

void
qm_chart_text_size (cairo_t            *cr,
                    const QmChartStyle *style,
                    QmTextKind          kind,
                    const char         *text,
                    double             *width,
                    double             *height)
{
  QmRect box = qm_chart_text_box (cr, style, &(QmChartLabel) { kind }, text);

  if (width != NULL)
    *width = box.width;
  if (height != NULL)
    *height = box.height;
}

void
qm_chart_tick_number (double   value,
                      char    *buf,
                      gsize    size,
                      gpointer user_data)
{
  qm_format_tick (buf, size, value);
}

void
qm_chart_tick_money (double   value,
                     char    *buf,
                     gsize    size,
                     gpointer currency)
{
  qm_format_money_tick (buf, size, value, currency);
}

double
qm_chart_axis_label_width (cairo_t            *cr,
                           const QmChartStyle *style,
                           const QmAxis       *axis,
                           QmTickFormat        format,
                           gpointer            user_data)
{
  double widest = 0.0;

  for (guint i = 0; i < axis->n_ticks; i++)
    {
      char label[64];
      double w;

      if (!axis->major[i])
        continue;
      format (axis->ticks[i], label, sizeof label, user_data);
      qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, &w, NULL);
      widest = MAX (widest, w);
    }
  return widest;
}

QmRect
qm_chart_draw_axis (cairo_t            *cr,
                    const QmChartStyle *style,
                    const QmAxis       *axis,
                    const QmRect       *plot,
                    QmAxisSide          side,
                    const char         *title,
                    QmTickFormat        format,
                    gpointer            user_data)
{
  gboolean left = side == QM_AXIS_LEFT;
  double start = left ? plot->y : plot->x;
  double extent = left ? plot->height : plot->width;
  double bottom = plot->y + plot->height;
  double label_h = 0.0, h;
  QmRect title_box = { 0 };

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);

  for (guint i = 0; i < axis->n_ticks; i++)
    {
      double at = round (qm_axis_to_pixel (axis, axis->ticks[i])) + 0.5;
      char label[64];

      if (at < start - 0.5 || at > start + extent + 1.0)
        continue;

      /* The grid line across the plot; an x axis' runs on as a tick. */
      qm_chart_set_color_alpha (cr, &style->grid, axis->major[i] ? 1.0 : 0.5);
      if (left)
        {
          cairo_move_to (cr, plot->x, at);
          cairo_line_to (cr, plot->x + plot->width, at);
        }
      else
        {
          cairo_move_to (cr, at, plot->y);
          cairo_line_to (cr, at, bottom + TICK_LENGTH);
        }
      cairo_stroke (cr);

      if (!axis->major[i])
        continue;
      format (axis->ticks[i], label, sizeof label, user_data);
      qm_chart_set_color (cr, &style->foreground);
      if (left)
        qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, plot->x - LABEL_GAP, at, 1.0, 0.5 }, label);
      else
        {
          qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, NULL, &h);
          label_h = MAX (label_h, h);
          qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, at, bottom + TICK_LENGTH + 1.0, 0.5,
                                                      0.0 }, label);
        }
    }

  if (title != NULL)
    {
      qm_chart_set_color (cr, &style->foreground);
      if (left)
        {
          qm_chart_text_size (cr, style, QM_TEXT_SMALL, title, NULL, &h);
          /* Above the top tick label, which is centred on the plot's top edge. */
          title_box = qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, plot->x, plot->y - h * 0.5 - 2.0,
                                                                  0.0, 1.0 }, title);
        }
      else
        title_box = qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, plot->x + plot->width / 2.0,
                                                                bottom + TICK_LENGTH + label_h + 4.0, 0.5, 0.0 },
                                   title);
    }
  cairo_restore (cr);
  return title_box;
}

/* The pattern's repeat, in pixels: wide enough that a part's label (on a
 * patch of the plain colour, qm_chart_label_part()) and the colour both
 * still read, narrow enough that a 10 px legend swatch shows it. */
#define PATTERN_STEP 6.0

QmLegendEntry
qm_chart_series_legend (const QmChartStyle *style,
                        guint               series,
                        const char         *label)
{
  return (QmLegendEntry) { label, style->series[series % QM_CHART_N_SERIES], FALSE, 0.0,
                           qm_chart_series_pattern (series) };
}

QmLegendEntry
qm_chart_series_line_legend (const QmChartStyle *style,
                             guint               series,
                             const char         *label)
{
  return (QmLegendEntry) { label, style->series[series % QM_CHART_N_SERIES], FALSE, 0.0, QM_FILL_SOLID,
                           TRUE, qm_chart_series_marker (series) };
}

/* Lines x·@dx + y·@dy = k·@step across @box, for k over every line that
 * crosses it (@dx and @dy are 0 or ±1). */
static void
pattern_lines (cairo_t      *cr,
               const QmRect *box,
               double        dx,
               double        dy,
               double        step)
{
  double x0 = box->x, y0 = box->y, x1 = box->x + box->width, y1 = box->y + box->height;

  if (dy == 0)
    for (double x = floor (x0 / step) * step; x <= x1; x += step)
      {
        cairo_move_to (cr, x + 0.5, y0);
        cairo_line_to (cr, x + 0.5, y1);
      }
  else if (dx == 0)
    for (double y = floor (y0 / step) * step; y <= y1; y += step)
      {
        cairo_move_to (cr, x0, y + 0.5);
        cairo_line_to (cr, x1, y + 0.5);
      }
  else
    {
      /* x + dy·y = c, with dx = 1; c runs over the box's corners. */
      double c_lo = MIN (x0 + dy * y0, x0 + dy * y1), c_hi = MAX (x1 + dy * y0, x1 + dy * y1);

      for (double c = floor (c_lo / step) * step; c <= c_hi; c += step)
        {
          cairo_move_to (cr, c - dy * y0, y0);
          cairo_line_to (cr, c - dy * y1, y1);
        }
    }
}

void
qm_chart_fill_pattern (cairo_t       *cr,
                       const QmColor *color,
                       QmFillPattern  pattern,
                       const QmRect  *rect)
{
  QmColor shade;
  QmRect in = *rect;

  if (rect->width <= 0 || rect->height <= 0)
    return;
  qm_chart_set_color (cr, color);
  cairo_rectangle (cr, rect->x, rect->y, rect->width, rect->height);
  cairo_fill (cr);
  if (pattern == QM_FILL_SOLID)
    return;

  /* 1 px of the plain colour round a part that has room for it; a thin
   * part carries its pattern edge to edge, or it would carry none. */
  if (in.width >= 5.0)
    {
      in.x += 1.0;
      in.width -= 2.0;
    }
  if (in.height >= 5.0)
    {
      in.y += 1.0;
      in.height -= 2.0;
    }
  shade = qm_chart_pattern_shade (color);
  cairo_save (cr);
  cairo_new_path (cr);
  cairo_rectangle (cr, in.x, in.y, in.width, in.height);
  cairo_clip (cr);
  qm_chart_set_color (cr, &shade);
  cairo_set_line_width (cr, 1.0);
  cairo_set_dash (cr, NULL, 0, 0);
  switch (pattern)
    {
    case QM_FILL_DIAGONAL:
      pattern_lines (cr, &in, 1, 1, PATTERN_STEP);
      break;
    case QM_FILL_REVERSE_DIAGONAL:
      pattern_lines (cr, &in, 1, -1, PATTERN_STEP);
      break;
    case QM_FILL_CROSS:
      pattern_lines (cr, &in, 1, 1, PATTERN_STEP * 1.5);
      pattern_lines (cr, &in, 1, -1, PATTERN_STEP * 1.5);
      break;
    case QM_FILL_HORIZONTAL:
      pattern_lines (cr, &in, 0, 1, PATTERN_STEP * 0.75);
      break;
    case QM_FILL_VERTICAL:
      pattern_lines (cr, &in, 1, 0, PATTERN_STEP * 0.75);
      break;
    case QM_FILL_GRID:
      pattern_lines (cr, &in, 0, 1, PATTERN_STEP);
      pattern_lines (cr, &in, 1, 0, PATTERN_STEP);
      break;
    case QM_FILL_DOTS:
      /* 2 × 2 px squares, every other row shifted by half a step. */
      for (double y = floor (in.y / PATTERN_STEP) * PATTERN_STEP; y <= in.y + in.height; y += PATTERN_STEP / 2.0)
        {
          double shift = fmod (y / (PATTERN_STEP / 2.0), 2.0) >= 1.0 ? PATTERN_STEP / 2.0 : 0.0;

          for (double x = floor (in.x / PATTERN_STEP) * PATTERN_STEP - shift; x <= in.x + in.width; x += PATTERN_STEP)
            cairo_rectangle (cr, x + 1.0, y, 2.0, 2.0);
        }
      cairo_fill (cr);
      break;
    case QM_FILL_SOLID:
    case QM_FILL_N_PATTERNS:
    default:
      break;
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
qm_chart_fill_series (cairo_t            *cr,
                      const QmChartStyle *style,
                      guint               series,
                      const QmRect       *rect)
{
  qm_chart_fill_pattern (cr, &style->series[series % QM_CHART_N_SERIES], qm_chart_series_pattern (series), rect);
}

void
qm_chart_marker_path (cairo_t       *cr,
                      QmMarkerShape  shape,
                      double         x,
                      double         y,
                      double         size)
{
  cairo_matrix_t m;

  /* Arms of the cross and the plus: 4 px thick, 12 px long. */
  static const double plus[][2] = {
    { -2, -6 }, { 2, -6 }, { 2, -2 }, { 6, -2 }, { 6, 2 }, { 2, 2 },
    { 2, 6 }, { -2, 6 }, { -2, 2 }, { -6, 2 }, { -6, -2 }, { -2, -2 },
  };

  /* Drawn 12 px across about (0, 0), then scaled and moved into place. */
  cairo_get_matrix (cr, &m);
  cairo_translate (cr, x, y);
  cairo_scale (cr, size / 12.0, size / 12.0);
  x = y = 0.0;
  cairo_new_path (cr);
  switch (shape)
    {
    case QM_MARKER_SQUARE:
      cairo_rectangle (cr, x - 4.5, y - 4.5, 9.0, 9.0);
      break;
    case QM_MARKER_TRIANGLE:
      cairo_move_to (cr, x, y - 6);
      cairo_line_to (cr, x + 6, y + 4);
      cairo_line_to (cr, x - 6, y + 4);
      cairo_close_path (cr);
      break;
    case QM_MARKER_TRIANGLE_DOWN:
      cairo_move_to (cr, x, y + 6);
      cairo_line_to (cr, x + 6, y - 4);
      cairo_line_to (cr, x - 6, y - 4);
      cairo_close_path (cr);
      break;
    case QM_MARKER_DIAMOND:
      cairo_move_to (cr, x, y - 6);
      cairo_line_to (cr, x + 6, y);
      cairo_line_to (cr, x, y + 6);
      cairo_line_to (cr, x - 6, y);
      cairo_close_path (cr);
      break;
    case QM_MARKER_PLUS:
    case QM_MARKER_CROSS:
      {
        /* The cross is the plus turned by 45°. */
        double a = shape == QM_MARKER_CROSS ? G_PI / 4.0 : 0.0, c = cos (a), s = sin (a);

        for (guint i = 0; i < G_N_ELEMENTS (plus); i++)
          {
            double px = x + plus[i][0] * c - plus[i][1] * s, py = y + plus[i][0] * s + plus[i][1] * c;

            if (i == 0)
              cairo_move_to (cr, px, py);
            else
              cairo_line_to (cr, px, py);
          }
        cairo_close_path (cr);
      }
      break;
    case QM_MARKER_STAR:
      for (guint i = 0; i < 10; i++)
        {
          double r = i % 2 == 0 ? 7.0 : 3.0, a = -G_PI / 2.0 + i * G_PI / 5.0;

          if (i == 0)
            cairo_move_to (cr, x + r * cos (a), y + r * sin (a));
          else
            cairo_line_to (cr, x + r * cos (a), y + r * sin (a));
        }
      cairo_close_path (cr);
      break;
    case QM_MARKER_CIRCLE:
    case QM_MARKER_N_SHAPES:
    default:
      cairo_arc (cr, x, y, 5.0, 0, 2 * G_PI);
      break;
    }
  cairo_set_matrix (cr, &m);
}

/* Lays the entries out in rows within @area's width from its top left
 * corner; returns the height used. With @draw FALSE it only measures. */
static double
legend_rows (cairo_t             *cr,
             const QmChartStyle  *style,
             const QmLegendEntry *entries,
             guint                n,
             const QmRect        *area,
             gboolean             draw)
{
  double x = area->x, y = area->y, max_width = area->width;
  double cx = x, cy = y, row_h = 0.0;

  for (guint i = 0; i < n; i++)
    {
      double w, h, item_w;

      qm_chart_text_size (cr, style, QM_TEXT_SMALL, entries[i].label, &w, &h);
      item_w = SWATCH + 4.0 + w + 14.0;
      row_h = MAX (row_h, MAX (h, SWATCH));
      if (cx > x && cx + item_w > x + max_width)
        {
          cx = x;
          cy += row_h + 4.0;
        }
      if (draw)
        {
          qm_chart_set_color (cr, &entries[i].color);
          if (entries[i].marked)
            {
              cairo_save (cr);
              cairo_set_line_width (cr, 1.5);
              cairo_move_to (cr, cx, cy + h / 2.0);
              cairo_line_to (cr, cx + SWATCH, cy + h / 2.0);
              cairo_stroke (cr);
              qm_chart_marker_path (cr, entries[i].marker, cx + SWATCH / 2.0, cy + h / 2.0, 7.0);
              cairo_fill (cr);
              cairo_restore (cr);
            }
          else if (entries[i].dashed)
            {
              static const double dash[] = { 4.0, 2.0 };

              cairo_save (cr);
              cairo_set_line_width (cr, 2.0);
              cairo_set_dash (cr, dash, 2, 0);
              cairo_move_to (cr, cx, cy + h / 2.0);
              cairo_line_to (cr, cx + SWATCH, cy + h / 2.0);
              cairo_stroke (cr);
              cairo_restore (cr);
            }
          else
            {
              if (entries[i].band_alpha > 0)
                {
                  qm_chart_set_color_alpha (cr, &entries[i].color, entries[i].band_alpha);
                  cairo_rectangle (cr, cx, round (cy + (h - SWATCH) / 2.0), SWATCH, SWATCH);
                  cairo_fill (cr);
                }
              else
                qm_chart_fill_pattern (cr, &entries[i].color, entries[i].pattern,
                                       &(QmRect) { cx, round (cy + (h - SWATCH) / 2.0), SWATCH, SWATCH });
              /* A faint shade alone is hard to see at a swatch's size. */
              if (entries[i].band_alpha > 0)
                {
                  qm_chart_set_color_alpha (cr, &entries[i].color, 0.6);
                  cairo_set_line_width (cr, 1.0);
                  cairo_rectangle (cr, cx + 0.5, round (cy + (h - SWATCH) / 2.0) + 0.5, SWATCH - 1.0, SWATCH - 1.0);
                  cairo_stroke (cr);
                }
            }
          qm_chart_set_color (cr, &style->foreground);
          qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, cx + SWATCH + 4.0, cy, 0.0, 0.0 },
                         entries[i].label);
        }
      cx += item_w;
    }
  return n > 0 ? cy + row_h - y : 0.0;
}

double
qm_chart_legend_height (cairo_t             *cr,
                        const QmChartStyle  *style,
                        const QmLegendEntry *entries,
                        guint                n,
                        double               max_width)
{
  return legend_rows (cr, style, entries, n, &(QmRect) { 0.0, 0.0, max_width, 0.0 }, FALSE);
}

void
qm_chart_legend (cairo_t             *cr,
                 const QmChartStyle  *style,
                 const QmLegendEntry *entries,
                 guint                n,
                 const QmRect        *area)
{
  legend_rows (cr, style, entries, n, area, TRUE);
}

void
qm_chart_polyline (cairo_t      *cr,
                   const QmAxis *x_axis,
                   const QmAxis *y_axis,
                   const double *xs,
                   const double *ys,
                   guint         n)
{
  gboolean started = FALSE;

  for (guint i = 0; i < n; i++)
    {
      double px, py;

      if (!(xs[i] > 0) || !(ys[i] > 0) || !isfinite (xs[i]) || !isfinite (ys[i]))
        continue;
      px = qm_axis_to_pixel (x_axis, xs[i]);
      py = qm_axis_to_pixel (y_axis, MIN (ys[i], y_axis->max * 10.0));
      if (!started)
        cairo_move_to (cr, px, py);
      else
        cairo_line_to (cr, px, py);
      started = TRUE;
    }
}

static gboolean
placeable (double x,
           double lo,
           double hi)
{
  return x > 0 && lo > 0 && hi > 0 && isfinite (x) && isfinite (lo) && isfinite (hi);
}

void
qm_chart_band_path (cairo_t      *cr,
                    const QmAxis *x_axis,
                    const QmAxis *y_axis,
                    const double *xs,
                    const double *lows,
                    const double *highs,
                    guint         n)
{
  gboolean started = FALSE;

  /* Along the high edge, then back along the low one. */
  for (guint i = 0; i < n; i++)
    if (placeable (xs[i], lows[i], highs[i]))
      {
        double px = qm_axis_to_pixel (x_axis, xs[i]);
        double py = qm_axis_to_pixel (y_axis, MIN (highs[i], y_axis->max * 10.0));

        if (started)
          cairo_line_to (cr, px, py);
        else
          cairo_move_to (cr, px, py);
        started = TRUE;
      }
  if (!started)
    return;
  for (guint i = n; i-- > 0;)
    if (placeable (xs[i], lows[i], highs[i]))
      cairo_line_to (cr, qm_axis_to_pixel (x_axis, xs[i]),
                     qm_axis_to_pixel (y_axis, MIN (lows[i], y_axis->max * 10.0)));
  cairo_close_path (cr);
}

void
qm_chart_begin (const QmChartFrame *frame)
{
  cairo_t *cr = frame->cr;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, frame->width, frame->height);
  cairo_clip (cr);
  qm_chart_set_color (cr, &frame->style->background);
  cairo_paint (cr);
}

void
qm_chart_dashed_line (cairo_t           *cr,
                      const QmChartDash *line,
                      const QmRect      *plot,
                      QmAxisSide         side,
                      double             at)
{
  cairo_save (cr);
  qm_chart_set_color (cr, line->color);
  cairo_set_line_width (cr, line->width);
  cairo_set_dash (cr, line->dash, 2, 0);
  if (side == QM_AXIS_LEFT)
    {
      cairo_move_to (cr, plot->x, at);
      cairo_line_to (cr, plot->x + plot->width, at);
    }
  else
    {
      cairo_move_to (cr, at, plot->y);
      cairo_line_to (cr, at, plot->y + plot->height);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
qm_chart_plan_marker (cairo_t            *cr,
                      const QmChartStyle *style,
                      double              x,
                      double              y)
{
  qm_chart_set_color (cr, &style->background);
  cairo_arc (cr, x, y, 7.0, 0, 2 * G_PI);
  cairo_fill (cr);
  qm_chart_set_color (cr, &style->accent);
  cairo_arc (cr, x, y, 5.0, 0, 2 * G_PI);
  cairo_fill (cr);
}

QmRect
qm_chart_text_on_patch (cairo_t            *cr,
                        const QmChartStyle *style,
                        const QmChartLabel *label,
                        const char         *text)
{
  QmRect box = qm_chart_text_box (cr, style, label, text);

  qm_chart_set_color_alpha (cr, &style->background, 0.85);
  cairo_rectangle (cr, box.x - 2.0, box.y - 1.0, box.width + 4.0, box.height + 2.0);
  cairo_fill (cr);
  return qm_chart_text (cr, style, label, text);
}

/* WCAG 2.1's relative luminance of an sRGB colour. */
static double
relative_luminance (const QmColor *c)
{
  const double v[3] = { c->red, c->green, c->blue };
  double l[3];

  for (guint i = 0; i < 3; i++)
    l[i] = v[i] <= 0.04045 ? v[i] / 12.92 : pow ((v[i] + 0.055) / 1.055, 2.4);
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

gboolean
qm_chart_label_part (cairo_t            *cr,
                     const QmChartStyle *style,
                     const QmRect       *part,
                     const QmColor      *fill,
                     const char         *text)
{
  static const QmColor black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 };
  double w, h, l = relative_luminance (fill);

  qm_chart_text_size (cr, style, QM_TEXT_SMALL, text, &w, &h);
  if (w + 4.0 > part->width || h + 2.0 > part->height)
    return FALSE;
  /* On a patch of the plain colour, clear of the part's pattern, so that
   * the text keeps the contrast below. */
  {
    QmRect box = qm_chart_text_box (cr, style,
                                    &(QmChartLabel) { QM_TEXT_SMALL, part->x + part->width / 2.0,
                                                      part->y + part->height / 2.0, 0.5, 0.5 }, text);
    double x0 = MAX (part->x, box.x - 2.0), y0 = MAX (part->y, box.y - 1.0);
    double x1 = MIN (part->x + part->width, box.x + box.width + 2.0);
    double y1 = MIN (part->y + part->height, box.y + box.height + 1.0);

    qm_chart_set_color (cr, fill);
    cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
    cairo_fill (cr);
  }
  /* Black or white, whichever contrasts more with the part: WCAG's
   * (L1 + 0.05) / (L2 + 0.05), at least 4.58:1 for any fill. */
  qm_chart_text (cr, style,
                 &(QmChartLabel) { QM_TEXT_SMALL, part->x + part->width / 2.0, part->y + part->height / 2.0,
                                   0.5, 0.5, 0.0,
                                   (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? &black : &white },
                 text);
  return TRUE;
}
