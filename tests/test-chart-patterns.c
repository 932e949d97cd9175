/* test-chart-patterns.c: the chart series are told apart by more than
 * colour (WCAG 2.1 SC 1.4.1, issue #37 item 9): any two series' legend
 * swatches (drawn as their parts are, qm_chart_fill_series()) differ in
 * greyscale, and differ in their pattern alone, not only in lightness;
 * any two series' markers differ in shape; in the light and dark styles.
 *
 * A chart gives each of its series (a memory part, a power part, a plan)
 * its own series index, so distinct swatches for every index are distinct
 * swatches within every chart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-test-chart.h"

#define SIDE 24   /* the small surface a swatch or a marker is drawn on */

/* The surface's pixels as greyscale (WCAG 2.1's relative luminance,
 * 0-255), which is all a reader who cannot tell the hues apart has. */
static void
greyscale (cairo_surface_t *s,
           guint8          *grey)
{
  cairo_surface_flush (s);
  for (int y = 0; y < SIDE; y++)
    for (int x = 0; x < SIDE; x++)
      {
        guint32 px;
        double c[3], l;

        px = *(guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + x * 4);
        c[0] = ((px >> 16) & 0xff) / 255.0;
        c[1] = ((px >> 8) & 0xff) / 255.0;
        c[2] = (px & 0xff) / 255.0;
        for (guint i = 0; i < 3; i++)
          c[i] = c[i] <= 0.04045 ? c[i] / 12.92 : pow ((c[i] + 0.055) / 1.055, 2.4);
        l = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
        grey[y * SIDE + x] = (guint8) round (l * 255);
      }
}

/* Series @series's legend swatch, drawn by the legend itself, on the
 * style's background, as greyscale; and its pattern's mask: the pixels
 * darker than the swatch's own plain colour. */
static void
swatch (const QmChartStyle *style,
        guint               series,
        guint8             *grey,
        gboolean           *mask)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SIDE, SIDE);
  cairo_t *cr = cairo_create (s);
  QmLegendEntry entry = qm_chart_series_legend (style, series, "");
  QmColor plain = style->series[series];
  guint8 plain_grey[SIDE * SIDE];

  qm_chart_set_color (cr, &style->background);
  cairo_paint (cr);
  qm_chart_legend (cr, style, &entry, 1, &(QmRect) { 4, 4, SIDE - 8, SIDE - 8 });
  cairo_destroy (cr);
  greyscale (s, grey);
  cairo_surface_destroy (s);

  /* The plain colour's grey, drawn the same way. */
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SIDE, SIDE);
  cr = cairo_create (s);
  qm_chart_set_color (cr, &plain);
  cairo_paint (cr);
  cairo_destroy (cr);
  greyscale (s, plain_grey);
  cairo_surface_destroy (s);
  for (guint i = 0; i < SIDE * SIDE; i++)
    mask[i] = grey[i] + 8 < plain_grey[0];
}

static guint
differ (const guint8 *a,
        const guint8 *b,
        int           by)
{
  guint n = 0;

  for (guint i = 0; i < SIDE * SIDE; i++)
    n += ABS ((int) a[i] - (int) b[i]) >= by;
  return n;
}

static guint
mask_differ (const gboolean *a,
             const gboolean *b)
{
  guint n = 0;

  for (guint i = 0; i < SIDE * SIDE; i++)
    n += a[i] != b[i];
  return n;
}

static void
check_swatches (const QmChartStyle *style,
                const char         *name)
{
  guint8 grey[QM_CHART_N_SERIES][SIDE * SIDE];
  gboolean mask[QM_CHART_N_SERIES][SIDE * SIDE];

  for (guint i = 0; i < QM_CHART_N_SERIES; i++)
    swatch (style, i, grey[i], mask[i]);
  for (guint i = 0; i < QM_CHART_N_SERIES; i++)
    for (guint j = i + 1; j < QM_CHART_N_SERIES; j++)
      {
        guint d = differ (grey[i], grey[j], 20), m = mask_differ (mask[i], mask[j]);

        g_test_message ("%s: series %u and %u: %u px differ in grey by 20+ levels, %u in the pattern",
                        name, i, j, d, m);
        /* Not identical in greyscale: a good part of the 10 × 10 swatch
         * differs clearly ... */
        g_assert_cmpuint (d, >=, 8);
        /* ... and by where the pattern lies, not only by how light the
         * colour is (blue 3 and the teal are 1.00:1 to each other). */
        g_assert_cmpuint (m, >=, 4);
      }
}

static void
test_swatches_distinct (void)
{
  QmChartStyle light, dark;

  qm_chart_style_init_light (&light);
  qm_chart_style_init_dark (&dark);
  check_swatches (&light, "light");
  check_swatches (&dark, "dark");
}

/* Every marker shape, filled, as a mask of the pixels it covers: no two
 * alike. */
static void
test_markers_distinct (void)
{
  gboolean mask[QM_CHART_N_SERIES][SIDE * SIDE];

  for (guint i = 0; i < QM_CHART_N_SERIES; i++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SIDE, SIDE);
      cairo_t *cr = cairo_create (s);
      guint8 grey[SIDE * SIDE];

      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      cairo_set_source_rgb (cr, 0, 0, 0);
      qm_chart_marker_path (cr, qm_chart_series_marker (i), SIDE / 2.0, SIDE / 2.0, 12.0);
      cairo_fill (cr);
      cairo_destroy (cr);
      greyscale (s, grey);
      cairo_surface_destroy (s);
      for (guint k = 0; k < SIDE * SIDE; k++)
        mask[i][k] = grey[k] < 128;
    }
  for (guint i = 0; i < QM_CHART_N_SERIES; i++)
    for (guint j = i + 1; j < QM_CHART_N_SERIES; j++)
      {
        g_test_message ("markers %u and %u: %u px apart", i, j, mask_differ (mask[i], mask[j]));
        g_assert_cmpuint (qm_chart_series_marker (i), !=, qm_chart_series_marker (j));
        /* The closest pair, circle and square, differ at the square's
         * four corners: 8 px at this size. */
        g_assert_cmpuint (mask_differ (mask[i], mask[j]), >=, 6);
      }
}

/* The definition itself: the first series solid, every index its own
 * pattern and marker, repeating as the colours do. */
static void
test_table (void)
{
  g_assert_cmpint (qm_chart_series_pattern (0), ==, QM_FILL_SOLID);
  for (guint i = 0; i < QM_CHART_N_SERIES; i++)
    {
      g_assert_cmpint (qm_chart_series_pattern (i), ==, qm_chart_series_pattern (i + QM_CHART_N_SERIES));
      for (guint j = i + 1; j < QM_CHART_N_SERIES; j++)
        g_assert_cmpint (qm_chart_series_pattern (i), !=, qm_chart_series_pattern (j));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart/patterns/table", test_table);
  g_test_add_func ("/chart/patterns/swatches-distinct", test_swatches_distinct);
  g_test_add_func ("/chart/patterns/markers-distinct", test_markers_distinct);

  return g_test_run ();
}
