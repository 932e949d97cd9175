/* test-chart-bars.c: the bar renderer draws bars proportional to their
 * values, in the series colours, inside its bounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-chart-bars.h"

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(guint32 *) (data + y * stride + x * 4);
}

static gboolean
pixel_is (guint32        argb,
          const QmColor *c)
{
  int r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;

  /* cairo rounds channel values, so allow ±2 (docs/toolchain.md, "cairo rounding"). */
  return ABS (r - (int) round (c->red * 255)) <= 2 &&
         ABS (g - (int) round (c->green * 255)) <= 2 &&
         ABS (b - (int) round (c->blue * 255)) <= 2;
}

/* The top row of the bar in column @x, scanning down the plot area. */
static int
bar_top (cairo_surface_t   *surface,
         const QmBarLayout *layout,
         int                x,
         const QmColor     *color)
{
  for (int y = (int) layout->y; y < (int) (layout->y + layout->height); y++)
    if (pixel_is (pixel_at (surface, x, y), color))
      return y;
  return -1;
}

static void
render (const QmChartStyle *style,
        const char         *png_name)
{
  const QmBar bars[] = { { "A", 100.0 }, { "B", 50.0 }, { "C", 25.0 } };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 300, 200);
  cairo_t *cr = cairo_create (surface);
  QmBarLayout layout;
  g_autofree char *png = NULL;
  int bottom;
  int tops[3];

  qm_chart_render_bars (&(QmChartFrame) { cr, style, 300, 200 }, bars, G_N_ELEMENTS (bars),
                        "Throughput", &layout);
  cairo_surface_flush (surface);

  g_assert_cmpfloat (layout.max_value, ==, 100.0);
  g_assert_cmpfloat (layout.x, >=, 0);
  g_assert_cmpfloat (layout.x + layout.width, <=, 300);
  g_assert_cmpfloat (layout.y + layout.height, <=, 200);

  /* Each bar is drawn in its series colour at the centre of its slot. */
  bottom = (int) (layout.y + layout.height) - 1;
  for (guint i = 0; i < 3; i++)
    {
      int x = (int) (layout.x + layout.width / 3.0 * (i + 0.5));

      g_assert_true (pixel_is (pixel_at (surface, x, bottom), &style->series[i]));
      tops[i] = bar_top (surface, &layout, x, &style->series[i]);
      g_assert_cmpint (tops[i], >=, 0);
    }

  /* Heights proportional to the values: 100 : 50 : 25, within a pixel. */
  {
    double h0 = layout.y + layout.height - tops[0];
    double h1 = layout.y + layout.height - tops[1];
    double h2 = layout.y + layout.height - tops[2];

    g_assert_cmpfloat (fabs (h0 - layout.height), <=, 1.0);
    g_assert_cmpfloat (fabs (h1 - h0 / 2.0), <=, 1.0);
    g_assert_cmpfloat (fabs (h2 - h0 / 4.0), <=, 1.0);
  }

  /* The background shows in a corner. */
  g_assert_true (pixel_is (pixel_at (surface, 1, 199), &style->background));

  /* Saved for a person to look at. */
  png = g_build_filename (g_getenv ("QM_BUILD_DIR") ? g_getenv ("QM_BUILD_DIR") : ".",
                          png_name, NULL);
  g_assert_cmpint (cairo_surface_write_to_png (surface, png), ==, CAIRO_STATUS_SUCCESS);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_bars_light (void)
{
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  render (&style, "test-chart-bars-light.png");
}

static void
test_bars_dark (void)
{
  QmChartStyle style;

  qm_chart_style_init_dark (&style);
  render (&style, "test-chart-bars-dark.png");
}

static void
test_color_parse (void)
{
  QmColor c;

  g_assert_true (qm_color_parse ("#3584e4", &c));
  g_assert_cmpfloat_with_epsilon (c.red, 0x35 / 255.0, 1e-9);
  g_assert_false (qm_color_parse ("3584e4", &c));
  g_assert_false (qm_color_parse ("#35g4e4", &c));
  g_assert_false (qm_color_parse (NULL, &c));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-bars/light", test_bars_light);
  g_test_add_func ("/chart-bars/dark", test_bars_dark);
  g_test_add_func ("/chart-bars/color-parse", test_color_parse);
  return g_test_run ();
}
