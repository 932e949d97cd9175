/* qm-chart-draw.h: drawing helpers shared by the chart renderers: colours,
 * text through pango, axes with grid lines, and legends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-axis.h"
#include "qm-chart-style.h"

G_BEGIN_DECLS

typedef struct
{
  double x, y, width, height;
} QmRect;

/* Whether two boxes share any area; an empty box overlaps nothing. */
static inline gboolean
qm_chart_rects_overlap (const QmRect *a,
                        const QmRect *b)
{
  if (a->width <= 0 || a->height <= 0 || b->width <= 0 || b->height <= 0)
    return FALSE;
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

/* What a renderer draws into: the context, the style it draws with and the
 * chart's size; the chart covers (0, 0, width, height). */
typedef struct
{
  cairo_t            *cr;
  const QmChartStyle *style;
  double              width;
  double              height;
} QmChartFrame;

typedef enum
{
  QM_TEXT_NORMAL,
  QM_TEXT_BOLD,
  QM_TEXT_SMALL,
  QM_TEXT_TITLE,
} QmTextKind;

/* Turns a tick value into a label. */
typedef void (*QmTickFormat) (double value, char *buf, gsize size, gpointer user_data);

/* The two tick labels the charts use: a number with the decimals that
 * show it (qm_format_tick), and an amount in the currency @user_data
 * names (qm_format_money_tick). */
void   qm_chart_tick_number (double   value,
                             char    *buf,
                             gsize    size,
                             gpointer user_data);
void   qm_chart_tick_money  (double   value,
                             char    *buf,
                             gsize    size,
                             gpointer currency);

void   qm_chart_set_color  (cairo_t       *cr,
                            const QmColor *color);
void   qm_chart_set_color_alpha (cairo_t       *cr,
                                 const QmColor *color,
                                 double         alpha);

/* How and where a label is drawn: in @kind's font, its box anchored at
 * (@x, @y), where @ax and @ay are 0 for the left/top edge, 0.5 for the
 * centre and 1 for the right/bottom edge; broken into centred lines no
 * wider than @max_width (at words, or inside a word longer than a line)
 * when that is positive; in @color, or in the current source when NULL.
 * These travel together from the chart that places a label to the pango
 * layout that draws it. */
typedef struct
{
  QmTextKind     kind;
  double         x, y;
  double         ax, ay;
  double         max_width;
  const QmColor *color;
} QmChartLabel;

/* Size of @text in pixels, on one line. */
void   qm_chart_text_size  (cairo_t            *cr,
                            const QmChartStyle *style,
                            QmTextKind          kind,
                            const char         *text,
                            double             *width,
                            double             *height);

/* The pixels @text would cover drawn as @label says. */
QmRect qm_chart_text_box   (cairo_t            *cr,
                            const QmChartStyle *style,
                            const QmChartLabel *label,
                            const char         *text);

/* Draws @text as @label says; returns the pixels it covers, for tests
 * that check labels neither overlap nor leave the chart. */
QmRect qm_chart_text       (cairo_t            *cr,
                            const QmChartStyle *style,
                            const QmChartLabel *label,
                            const char         *text);

/* The widest tick label an axis will draw, to reserve room for it. */
double qm_chart_axis_label_width (cairo_t            *cr,
                                  const QmChartStyle *style,
                                  const QmAxis       *axis,
                                  QmTickFormat        format,
                                  gpointer            user_data);

typedef enum
{
  QM_AXIS_LEFT,     /* a y axis, with grid lines across the plot */
  QM_AXIS_BOTTOM,   /* an x axis, with grid lines up the plot */
} QmAxisSide;

/* @axis along @plot's @side, its major ticks labelled by @format and its
 * @title (or NULL) above it (left) or below the labels (bottom). Returns
 * the title's box (0 × 0 without one). */
QmRect qm_chart_draw_axis   (cairo_t            *cr,
                             const QmChartStyle *style,
                             const QmAxis       *axis,
                             const QmRect       *plot,
                             QmAxisSide          side,
                             const char         *title,
                             QmTickFormat        format,
                             gpointer            user_data);

typedef struct
{
  const char   *label;
  QmColor       color;
  gboolean      dashed;   /* drawn as a line sample rather than a swatch */
  double        band_alpha; /* > 0: a swatch at this alpha, for a shaded range */
  QmFillPattern pattern;  /* a swatch's pattern (solid when 0) */
  gboolean      marked;   /* drawn as a line sample with this marker */
  QmMarkerShape marker;
} QmLegendEntry;

/* The legend entry of @series's parts: its colour and pattern, so that
 * the swatch and the parts (qm_chart_fill_series()) always match. */
QmLegendEntry qm_chart_series_legend (const QmChartStyle *style,
                                      guint               series,
                                      const char         *label);

/* The legend entry of @series's line with markers on its points (in
 * qm_chart_series_marker()'s shape): a line sample with the marker. */
QmLegendEntry qm_chart_series_line_legend (const QmChartStyle *style,
                                           guint               series,
                                           const char         *label);

/* Fills @rect with @color and, over it, @pattern in the colour's shade
 * (qm_chart_pattern_shade()). The pattern keeps 1 px inside the edges of
 * a part at least 5 px across (so the edge keeps the colour's contrast
 * with the background) and sits on the chart's pixel grid, so that the
 * parts of a stack line up. */
void   qm_chart_fill_pattern (cairo_t            *cr,
                              const QmColor      *color,
                              QmFillPattern       pattern,
                              const QmRect       *rect);

/* Fills @rect as series @series's parts are filled: its colour and its
 * pattern. Bars and legend swatches both go through here. */
void   qm_chart_fill_series  (cairo_t            *cr,
                              const QmChartStyle *style,
                              guint               series,
                              const QmRect       *rect);

/* Adds @shape, @size px across (12 for a scatter's point) and centred
 * on (@x, @y), to @cr as a closed path (a fresh one); the caller fills. */
void   qm_chart_marker_path  (cairo_t            *cr,
                              QmMarkerShape       shape,
                              double              x,
                              double              y,
                              double              size);

/* The legend lays its entries out in rows within a width: the height
 * those rows take within @max_width, to reserve room for them, and the
 * rows drawn within @area (its x, y and width). */
double qm_chart_legend_height (cairo_t             *cr,
                               const QmChartStyle  *style,
                               const QmLegendEntry *entries,
                               guint                n,
                               double               max_width);
void   qm_chart_legend      (cairo_t             *cr,
                             const QmChartStyle  *style,
                             const QmLegendEntry *entries,
                             guint                n,
                             const QmRect        *area);

/* Adds the path through the points (@xs, @ys) to @cr, skipping points
 * that are not positive and finite (a log axis cannot place them). Values
 * far past the y axis' top are pulled in to ten times it, so that a
 * latency that explodes stays a steep line cairo can draw. The caller
 * strokes. */
void   qm_chart_polyline    (cairo_t            *cr,
                             const QmAxis       *x_axis,
                             const QmAxis       *y_axis,
                             const double       *xs,
                             const double       *ys,
                             guint               n);

/* Adds the closed region between @lows and @highs over @xs (an error
 * band, issue #36) to @cr, skipping points either edge cannot place, as
 * qm_chart_polyline() does. The caller fills (QM_CHART_BAND_ALPHA). */
void   qm_chart_band_path   (cairo_t            *cr,
                             const QmAxis       *x_axis,
                             const QmAxis       *y_axis,
                             const double       *xs,
                             const double       *lows,
                             const double       *highs,
                             guint               n);

/* How a dashed line is stroked: in @color, @width wide, @dash the on and
 * off lengths as cairo_set_dash() takes them. */
typedef struct
{
  const QmColor *color;
  double         width;
  const double  *dash;
} QmChartDash;

/* A dashed line right across @plot at the pixel @at along @side's axis:
 * a y for QM_AXIS_LEFT (a level, drawn left to right), an x for
 * QM_AXIS_BOTTOM (a moment or a limit, drawn top to bottom). */
void   qm_chart_dashed_line (cairo_t            *cr,
                             const QmChartDash  *line,
                             const QmRect       *plot,
                             QmAxisSide          side,
                             double              at);

/* The plan's point on a curve: an accent dot ringed in the background
 * colour, so that it stands out from the lines it sits on. */
void   qm_chart_plan_marker (cairo_t            *cr,
                             const QmChartStyle *style,
                             double              x,
                             double              y);

/* qm_chart_text() on a patch of the background colour, 2 px wider than
 * the text each side and 1 px taller, so that a curve or a bar behind the
 * label does not hide it. */
/* Names a part of a stacked bar inside its rectangle, in black or white,
 * whichever contrasts more with @fill, when the text fits: the parts are
 * told apart by more than their colour (WCAG 2.1 SC 1.4.1). FALSE when it
 * does not fit (the legend still names it). */
gboolean qm_chart_label_part (cairo_t            *cr,
                              const QmChartStyle *style,
                              const QmRect       *part,
                              const QmColor      *fill,
                              const char         *text);

QmRect qm_chart_text_on_patch (cairo_t            *cr,
                               const QmChartStyle *style,
                               const QmChartLabel *label,
                               const char         *text);

/* Fills the background and clips to the chart's bounds. Pair with
 * cairo_restore(). */
void   qm_chart_begin       (const QmChartFrame *frame);

G_END_DECLS
