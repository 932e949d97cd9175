/* test-chart-vram.c: the VRAM chart puts the capacity line at the right
 * row, stacks parts in proportion to their bytes, marks what does not fit,
 * and draws nothing outside its bounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-chart-vram.h"
#include "qm-test-chart.h"

#define W 600
#define H 400
#define MARGIN 20   /* untouched border around the chart in the test surface */

static guint32
pixel (cairo_surface_t *s,
       int              x,
       int              y)
{
  return *(guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + x * 4);
}

static gboolean
near_color (guint32 argb, const QmColor *c)
{
  return ABS ((int) ((argb >> 16) & 0xff) - (int) round (c->red * 255)) <= 2 &&
         ABS ((int) ((argb >> 8) & 0xff) - (int) round (c->green * 255)) <= 2 &&
         ABS ((int) (argb & 0xff) - (int) round (c->blue * 255)) <= 2;
}

static void
save_png (cairo_surface_t *s,
          const char      *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_BUILD_DIR") ? g_getenv ("QM_BUILD_DIR") : ".",
                                            name, NULL);
  g_assert_cmpint (cairo_surface_write_to_png (s, path), ==, CAIRO_STATUS_SUCCESS);
}

/* Two layouts of one 80 GB GPU: ZeRO-1 that fits, and plain DP that does not. */
static void
make_breakdowns (QmMemoryBreakdown b[2])
{
  memset (b, 0, 2 * sizeof b[0]);
  b[0] = (QmMemoryBreakdown) { .weights = 14e9, .gradients = 14e9, .optimizer = 10.5e9,
                               .activations = 20e9, .kv_cache = 0, .overhead = 3e9,
                               .capacity = 80e9 };
  b[1] = (QmMemoryBreakdown) { .weights = 14e9, .gradients = 14e9, .optimizer = 84e9,
                               .activations = 20e9, .kv_cache = 0, .overhead = 3e9,
                               .capacity = 80e9 };
  for (guint i = 0; i < 2; i++)
    {
      b[i].total = b[i].weights + b[i].gradients + b[i].optimizer + b[i].activations + b[i].overhead;
      b[i].margin = b[i].capacity - b[i].total;
      b[i].fits = b[i].margin >= 0;
    }
}

static void
check_render (const QmChartStyle *style,
              const char         *png)
{
  QmMemoryBreakdown b[2];
  const char *labels[] = { "ZeRO-1", "No ZeRO" };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W + 2 * MARGIN, H + 2 * MARGIN);
  cairo_t *cr = cairo_create (s);
  QmVramLayout layout;

  make_breakdowns (b);
  /* Paint the border a colour no chart uses, then draw the chart inside. */
  cairo_set_source_rgb (cr, 1.0, 0.0, 1.0);
  cairo_paint (cr);
  cairo_translate (cr, MARGIN, MARGIN);
  qm_chart_render_vram (&(QmChartFrame) { cr, style, W, H }, b, labels, 2, QM_BYTES_GB, &layout);
  cairo_surface_flush (s);
  save_png (s, png);

  /* Nothing outside the bounds. */
  for (int x = 0; x < W + 2 * MARGIN; x++)
    {
      g_assert_cmphex (pixel (s, x, 0), ==, 0xffff00ff);
      g_assert_cmphex (pixel (s, x, H + 2 * MARGIN - 1), ==, 0xffff00ff);
    }
  for (int y = 0; y < H + 2 * MARGIN; y++)
    {
      g_assert_cmphex (pixel (s, MARGIN - 1, y), ==, 0xffff00ff);
      g_assert_cmphex (pixel (s, W + MARGIN, y), ==, 0xffff00ff);
    }

  /* The capacity line sits at the row the axis gives for 80 GB. */
  g_assert_cmpfloat (fabs (layout.capacity_y - qm_axis_to_pixel (&layout.y_axis, 80.0)), <=, 1.0);
  {
    /* Between the bars, the dashed line is drawn in the text colour. */
    int y = (int) floor (layout.capacity_y) + MARGIN;
    int hits = 0;

    for (int x = (int) layout.plot.x; x < (int) (layout.plot.x + layout.plot.width); x++)
      if (near_color (pixel (s, x + MARGIN, y), &style->foreground))
        hits++;
    g_assert_cmpint (hits, >, (int) layout.plot.width / 3);
  }

  /* Bars are stacked in proportion to bytes: each part's height over the
   * whole bar's height equals its share of the total, within 2 px. */
  for (guint i = 0; i < 2; i++)
    {
      double px_per_gb = (qm_axis_to_pixel (&layout.y_axis, 0) - qm_axis_to_pixel (&layout.y_axis, 1));
      const double parts[6] = { b[i].weights, b[i].gradients, b[i].optimizer,
                                b[i].activations, b[i].kv_cache, b[i].overhead };

      g_assert_cmpfloat (fabs (layout.bars[i].height - b[i].total / 1e9 * px_per_gb), <=, 2.0);
      for (guint p = 0; p < 6; p++)
        {
          const QmRect *r = &layout.parts[i][p];

          g_assert_cmpfloat (fabs (r->height - parts[p] / 1e9 * px_per_gb), <=, 1.5);
          if (r->height > 4 && r->y + r->height - 2 > layout.capacity_y)
            /* The part is filled with its series colour and pattern
             * (sampled low in the part, below the hatching of what does
             * not fit). */
            g_assert_true (qm_test_pixel_is_series (pixel (s, (int) (r->x + 2) + MARGIN,
                                                           (int) (r->y + r->height - 2) + MARGIN),
                                                    style, p));
        }
    }

  /* Parts tall enough carry their name, so they are told apart by more
   * than colour (issue #37 item 9): inside the first bar's weights and the
   * second's optimizer (below the hatching), text pixels. */
  {
    const QmRect *named[] = { &layout.parts[0][0], &layout.parts[1][2] };
    const guint named_part[] = { 0, 2 };

    for (guint k = 0; k < G_N_ELEMENTS (named); k++)
      {
        const QmRect *r = named[k];
        int text = 0;
        double top = MAX (r->y, layout.capacity_y + 1);

        g_assert_cmpfloat (r->y + r->height - top, >, 14);
        for (int y = (int) top + 1; y < (int) (r->y + r->height) - 1; y++)
          for (int x = (int) r->x + 1; x < (int) (r->x + r->width) - 1; x++)
            /* Anything but the fill (its colour and its pattern) inside
             * the part is its label. */
            if (!qm_test_pixel_is_series (pixel (s, x + MARGIN, y + MARGIN), style, named_part[k]))
              text++;
        g_assert_cmpint (text, >, 20);
      }
  }

  /* The bar that does not fit rises above the capacity line; the other not. */
  g_assert_cmpfloat (layout.bars[0].y, >, layout.capacity_y);
  g_assert_cmpfloat (layout.bars[1].y, <, layout.capacity_y);

  /* Hover finds the optimizer part of the second bar. */
  {
    guint bar, part;
    const QmRect *r = &layout.parts[1][2];

    g_assert_true (qm_chart_vram_hit (&layout, r->x + r->width / 2, r->y + r->height / 2, &bar, &part));
    g_assert_cmpuint (bar, ==, 1);
    g_assert_cmpuint (part, ==, 2);
    g_assert_false (qm_chart_vram_hit (&layout, 1, 1, &bar, &part));
  }

  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_light (void)
{
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  check_render (&style, "chart-vram-light.png");
}

static void
test_dark (void)
{
  QmChartStyle style;

  qm_chart_style_init_dark (&style);
  check_render (&style, "chart-vram-dark.png");
}

static void
test_degenerate (void)
{
  QmChartStyle style;
  QmMemoryBreakdown b = { .weights = NAN, .activations = -5, .capacity = 0 };
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 50, 40);
  cairo_t *cr = cairo_create (s);
  QmVramLayout layout;

  /* Tiny, empty or nonsense input draws without crashing or NaN. */
  qm_chart_style_init_light (&style);
  qm_chart_render_vram (&(QmChartFrame) { cr, &style, 50, 40 }, &b, NULL, 1, QM_BYTES_GIB, &layout);
  qm_chart_render_vram (&(QmChartFrame) { cr, &style, 50, 40 }, NULL, NULL, 0, QM_BYTES_GB, &layout);
  g_assert_true (isfinite (layout.plot.height));
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* Four layouts that do not fit, four "Does not fit: N GB over" labels
 * (issue 20: they overlapped and the last was cut at the right edge): at
 * any size from 360 px wide, in both styles, no two text boxes overlap
 * and none leaves the chart. PNGs at 360 and 720 px for a person. */
static void
test_labels_fit (void)
{
  const double overs[4] = { 21.7e9, 63.4e9, 104.9e9, 8.2e9 };
  const char *labels[4] = { "A", "B", "C", "D" };
  const int sizes[][2] = { { 360, 260 }, { 360, 420 }, { 480, 300 }, { 720, 400 }, { 1200, 500 } };
  QmMemoryBreakdown b[4];

  memset (b, 0, sizeof b);
  for (guint i = 0; i < 4; i++)
    {
      b[i] = (QmMemoryBreakdown) { .weights = 35e9, .gradients = 17.5e9, .optimizer = 20e9,
                                   .activations = 7.5e9 + overs[i], .overhead = 0, .capacity = 80e9 };
      b[i].total = 80e9 + overs[i];
      b[i].margin = -overs[i];
    }

  for (guint st = 0; st < 2; st++)
    for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
      {
        QmChartStyle style;
        QmVramLayout layout;
        cairo_t *cr;
        cairo_surface_t *s = qm_test_chart_surface (sizes[z][0], sizes[z][1], &cr);
        const QmRect *boxes[6];
        guint n_boxes = 0;

        if (st == 0)
          qm_chart_style_init_light (&style);
        else
          qm_chart_style_init_dark (&style);
        qm_chart_render_vram (&(QmChartFrame) { cr, &style, sizes[z][0], sizes[z][1] }, b, labels,
                              4, QM_BYTES_GB, &layout);
        qm_test_assert_border_untouched (s);

        for (guint i = 0; i < 4; i++)
          {
            g_assert_cmpfloat (layout.notes[i].width, >, 0);
            boxes[n_boxes++] = &layout.notes[i];
          }
        g_assert_cmpfloat (layout.capacity_label.width, >, 0);
        boxes[n_boxes++] = &layout.capacity_label;
        boxes[n_boxes++] = &layout.title;
        for (guint i = 0; i < n_boxes; i++)
          {
            const QmRect *r = boxes[i];

            if (r->x < 0 || r->y < 0 || r->x + r->width > sizes[z][0] || r->y + r->height > sizes[z][1])
              g_error ("%d×%d: text box %u (%.0f,%.0f %.0f×%.0f) leaves the chart", sizes[z][0], sizes[z][1],
                       i, r->x, r->y, r->width, r->height);
            for (guint j = i + 1; j < n_boxes; j++)
              if (qm_test_rects_overlap (r, boxes[j]))
                g_error ("%d×%d: text boxes %u and %u overlap", sizes[z][0], sizes[z][1], i, j);
          }
        /* Each note stays over its own bar's column. */
        for (guint i = 0; i < 4; i++)
          {
            double centre = layout.notes[i].x + layout.notes[i].width / 2.0;

            g_assert_cmpfloat (fabs (centre - (layout.bars[i].x + layout.bars[i].width / 2.0)), <=, 1.5);
          }

        if (sizes[z][0] == 360 || sizes[z][0] == 720)
          {
            g_autofree char *name = g_strdup_printf ("chart-vram-over-%d-%s.png", sizes[z][0],
                                                     st == 0 ? "light" : "dark");

            qm_test_save_png (s, name);
          }
        cairo_destroy (cr);
        cairo_surface_destroy (s);
      }
}

/* A comparison of GPUs that hold different amounts (an H100 at 85.5 GB,
 * an MI300X at 192 GB, an A100 at 85.9 GB, as the examples' catalog
 * gives them): each bar is drawn against its own capacity, not one
 * "Capacity 192 GB" line over all (issue #35 item 4); the labels stay in
 * their bar's slot and clear of each other, the notes and the title, at
 * any width from 360 px. */
static void
test_own_capacity (void)
{
  const double caps[3] = { 85.5e9, 192e9, 85.9e9 };
  const double need[3] = { 38.5e9, 91.9e9, 27.0e9 };
  const char *labels[3] = { "A", "B", "C" };
  const int sizes[][2] = { { 360, 260 }, { 480, 300 }, { 720, 400 }, { 1200, 500 } };
  QmMemoryBreakdown b[3];

  memset (b, 0, sizeof b);
  for (guint i = 0; i < 3; i++)
    {
      b[i] = (QmMemoryBreakdown) { .weights = need[i] * 0.6, .activations = need[i] * 0.4, .total = need[i],
                                   .capacity = caps[i], .margin = caps[i] - need[i], .fits = TRUE };
    }
  for (guint st = 0; st < 2; st++)
    for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
      {
        QmChartStyle style;
        QmVramLayout layout;
        cairo_t *cr;
        cairo_surface_t *s = qm_test_chart_surface (sizes[z][0], sizes[z][1], &cr);
        const QmRect *boxes[8];
        guint n_boxes = 0;

        if (st == 0)
          qm_chart_style_init_light (&style);
        else
          qm_chart_style_init_dark (&style);
        qm_chart_render_vram (&(QmChartFrame) { cr, &style, sizes[z][0], sizes[z][1] }, b, labels,
                              3, QM_BYTES_GB, &layout);
        qm_test_assert_border_untouched (s);

        /* No line for all. */
        g_assert_cmpfloat (layout.capacity_label.width, ==, 0);
        for (guint i = 0; i < 3; i++)
          {
            double slot = layout.plot.width / 3;
            const QmRect *r = &layout.bar_capacity_labels[i];

            /* Its own capacity's row, within a pixel. */
            g_assert_cmpfloat (fabs (layout.bar_capacity_y[i] - qm_axis_to_pixel (&layout.y_axis, caps[i] / 1e9)),
                               <=, 1.0);
            g_assert_cmpfloat (r->width, >, 0);
            /* Within its bar's slot. */
            g_assert_cmpfloat (r->x, >=, layout.plot.x + i * slot - 0.5);
            g_assert_cmpfloat (r->x + r->width, <=, layout.plot.x + (i + 1) * slot + 0.5);
            boxes[n_boxes++] = r;
            if (layout.notes[i].width > 0)
              boxes[n_boxes++] = &layout.notes[i];
          }
        /* The 192 GB line is above the others, the two near 85 GB level. */
        g_assert_cmpfloat (layout.bar_capacity_y[1], <, layout.bar_capacity_y[0] - 10);
        boxes[n_boxes++] = &layout.title;
        for (guint i = 0; i < n_boxes; i++)
          {
            const QmRect *r = boxes[i];

            if (r->x < 0 || r->y < 0 || r->x + r->width > sizes[z][0] || r->y + r->height > sizes[z][1])
              g_error ("%d×%d: text box %u leaves the chart", sizes[z][0], sizes[z][1], i);
            for (guint j = i + 1; j < n_boxes; j++)
              if (qm_test_rects_overlap (r, boxes[j]))
                g_error ("%d×%d: text boxes %u and %u overlap", sizes[z][0], sizes[z][1], i, j);
          }
        if (sizes[z][0] == 360 || sizes[z][0] == 720)
          {
            g_autofree char *name = g_strdup_printf ("chart-vram-own-capacity-%d-%s.png", sizes[z][0],
                                                     st == 0 ? "light" : "dark");

            qm_test_save_png (s, name);
          }
        cairo_destroy (cr);
        cairo_surface_destroy (s);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-vram/light", test_light);
  g_test_add_func ("/chart-vram/dark", test_dark);
  g_test_add_func ("/chart-vram/degenerate", test_degenerate);
  g_test_add_func ("/chart-vram/labels-fit", test_labels_fit);
  g_test_add_func ("/chart-vram/own-capacity", test_own_capacity);
  return g_test_run ();
}
