/* qm-test-chart.h: helpers for the chart renderer tests: a surface with a
 * sentinel border (to prove nothing is drawn outside the chart), pixel
 * reads with the ±2 tolerance cairo's rounding needs, and PNG output into
 * the build dir for a person to look at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <math.h>

#include "qm-chart-draw.h"
#include "qm-chart-style.h"

G_BEGIN_DECLS

#define QM_TEST_BORDER 20
#define QM_TEST_SENTINEL 0xffff00ffu   /* magenta: no chart colour */

/* A surface with a magenta border; draw the chart at (BORDER, BORDER). */
static inline cairo_surface_t *
qm_test_chart_surface (int       width,
                       int       height,
                       cairo_t **cr_out)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                   width + 2 * QM_TEST_BORDER,
                                                   height + 2 * QM_TEST_BORDER);
  cairo_t *cr = cairo_create (s);

  cairo_set_source_rgb (cr, 1.0, 0.0, 1.0);
  cairo_paint (cr);
  cairo_translate (cr, QM_TEST_BORDER, QM_TEST_BORDER);
  *cr_out = cr;
  return s;
}

/* The pixel at chart coordinates (x, y). */
static inline guint32
qm_test_pixel (cairo_surface_t *s,
               int              x,
               int              y)
{
  cairo_surface_flush (s);
  return *(guint32 *) (cairo_image_surface_get_data (s) +
                       (y + QM_TEST_BORDER) * cairo_image_surface_get_stride (s) +
                       (x + QM_TEST_BORDER) * 4);
}

static inline gboolean
qm_test_pixel_is (guint32        argb,
                  const QmColor *c)
{
  return ABS ((int) ((argb >> 16) & 0xff) - (int) round (c->red * 255)) <= 2 &&
         ABS ((int) ((argb >> 8) & 0xff) - (int) round (c->green * 255)) <= 2 &&
         ABS ((int) (argb & 0xff) - (int) round (c->blue * 255)) <= 2;
}

/* Whether @argb is a pixel of a part filled as series @series is
 * (qm_chart_fill_series()): its colour, its pattern's shade or, where
 * cairo smooths a pattern's line, a mix of the two. The shade is the
 * colour times a factor (qm_chart_pattern_shade()), so a mix is the
 * colour times a factor between that and 1, the same in every channel. */
static inline gboolean
qm_test_pixel_is_series (guint32             argb,
                         const QmChartStyle *style,
                         guint               series)
{
  const QmColor *c = &style->series[series % QM_CHART_N_SERIES];
  const double base[3] = { c->red * 255, c->green * 255, c->blue * 255 };
  const int px[3] = { (argb >> 16) & 0xff, (argb >> 8) & 0xff, argb & 0xff };
  guint top = 0;
  double f;

  for (guint i = 1; i < 3; i++)
    if (base[i] > base[top])
      top = i;
  if (base[top] <= 0)
    return qm_test_pixel_is (argb, c);
  f = CLAMP (px[top] / base[top], 1.0 - QM_CHART_PATTERN_SHADE, 1.0);
  for (guint i = 0; i < 3; i++)
    if (ABS (px[i] - base[i] * f) > 2.5)
      return FALSE;
  return TRUE;
}

/* The share of the pixels inside @part (less a pixel all round) in its
 * pattern's shade (darker than 0.8 times the series colour), asserting
 * that every one of them is the series' colour, shade or a mix: 0 for a
 * solid part, more for a patterned one. */
static inline double
qm_test_part_shade_share (cairo_surface_t    *s,
                          const QmRect       *part,
                          const QmChartStyle *style,
                          guint               series)
{
  const QmColor *c = &style->series[series % QM_CHART_N_SERIES];
  double top = MAX (c->red, MAX (c->green, c->blue)) * 255;
  guint n = 0, shaded = 0;

  for (int y = (int) part->y + 1; y < (int) (part->y + part->height) - 1; y++)
    for (int x = (int) part->x + 1; x < (int) (part->x + part->width) - 1; x++)
      {
        guint32 px = qm_test_pixel (s, x, y);
        int v = MAX ((px >> 16) & 0xff, MAX ((px >> 8) & 0xff, px & 0xff));

        g_assert_true (qm_test_pixel_is_series (px, style, series));
        n++;
        if (v < 0.8 * top)
          shaded++;
      }
  return n > 0 ? (double) shaded / n : 0.0;
}

/* @top at @alpha painted over the opaque @bottom, as cairo paints a band. */
static inline QmColor
qm_test_over (const QmColor *top,
              double         alpha,
              const QmColor *bottom)
{
  return (QmColor) { top->red * alpha + bottom->red * (1 - alpha), top->green * alpha + bottom->green * (1 - alpha),
                     top->blue * alpha + bottom->blue * (1 - alpha), 1.0 };
}

/* Whether a pixel within @dx columns of (@x, @y) is @c. */
static inline gboolean
qm_test_pixel_near (cairo_surface_t *s,
                    int              x,
                    int              y,
                    int              dx,
                    const QmColor   *c)
{
  for (int i = -dx; i <= dx; i++)
    if (qm_test_pixel_is (qm_test_pixel (s, x + i, y), c))
      return TRUE;
  return FALSE;
}

/* Asserts that the border is still all sentinel. */
static inline void
qm_test_assert_border_untouched (cairo_surface_t *s)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  unsigned char *data;

  cairo_surface_flush (s);
  data = cairo_image_surface_get_data (s);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (x < QM_TEST_BORDER || y < QM_TEST_BORDER || x >= w - QM_TEST_BORDER || y >= h - QM_TEST_BORDER)
        g_assert_cmphex (*(guint32 *) (data + y * stride + x * 4), ==, QM_TEST_SENTINEL);
}

/* Whether two text boxes a renderer reports overlap; an empty box (a
 * label that was not drawn) overlaps nothing. */
static inline gboolean
qm_test_rects_overlap (const QmRect *a,
                       const QmRect *b)
{
  return qm_chart_rects_overlap (a, b);
}

static inline void
qm_test_save_png (cairo_surface_t *s,
                  const char      *name)
{
  const char *dir = g_getenv ("QM_BUILD_DIR");
  g_autofree char *path = g_build_filename (dir != NULL ? dir : ".", name, NULL);

  g_assert_cmpint (cairo_surface_write_to_png (s, path), ==, CAIRO_STATUS_SUCCESS);
}

G_END_DECLS
