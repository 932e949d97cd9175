/* qm-chart-vram.c: per-GPU memory as stacked bars against the capacity.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-vram.h"

#include <math.h>
#include <glib/gi18n-lib.h>

static const char *part_names[QM_VRAM_N_PARTS] = {
  N_("Weights"), N_("Gradients"), N_("Optimizer"), N_("Activations"), N_("KV cache"), N_("Overhead"),
};

const char *
qm_chart_vram_part_name (guint i)
{
  g_return_val_if_fail (i < QM_VRAM_N_PARTS, "");
  return _(part_names[i]);
}

double
qm_chart_vram_part_bytes (const QmMemoryBreakdown *b,
                          guint                    i)
{
  const double v[QM_VRAM_N_PARTS] = {
    b->weights, b->gradients, b->optimizer, b->activations, b->kv_cache, b->overhead,
  };

  g_return_val_if_fail (i < QM_VRAM_N_PARTS, 0.0);
  return isfinite (v[i]) && v[i] > 0.0 ? v[i] : 0.0;
}

gboolean
qm_chart_vram_append_parts (GString                 *out,
                            const QmMemoryBreakdown *b)
{
  gboolean first = TRUE;

  for (guint i = 0; i < QM_VRAM_N_PARTS; i++)
    {
      char a[QM_FORMAT_BUF];
      double bytes = qm_chart_vram_part_bytes (b, i);

      if (bytes <= 0)
        continue;
      /* Translators: a part of the memory per GPU and its size, e.g.
       * "Weights 16.1 GB"; the parts are joined with ", ". */
      g_string_append_printf (out, first ? C_("memory part", "%s %s") : C_("memory part", ", %s %s"),
                              qm_chart_vram_part_name (i),
                              qm_format_bytes (a, sizeof a, bytes, QM_BYTES_GB));
      first = FALSE;
    }
  return !first;
}

static double
unit_scale (QmBytesUnit unit)
{
  return unit == QM_BYTES_GIB ? 1073741824.0 : 1e9;
}

static void
draw_hatch (cairo_t      *cr,
            const QmRect *r,
            const QmColor *color)
{
  /* Diagonal hatching marks what does not fit, so the state reads without
   * relying on colour alone. */
  cairo_save (cr);
  cairo_rectangle (cr, r->x, r->y, r->width, r->height);
  cairo_clip (cr);
  qm_chart_set_color (cr, color);
  cairo_set_line_width (cr, 1.5);
  for (double d = -r->height; d < r->width; d += 6.0)
    {
      cairo_move_to (cr, r->x + d, r->y + r->height);
      cairo_line_to (cr, r->x + d + r->height, r->y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

double
qm_chart_vram_top (const QmMemoryBreakdown *breakdowns,
                   guint                    n)
{
  double top = 0.0;

  n = MIN (n, QM_VRAM_MAX_BARS);
  for (guint i = 0; i < n; i++)
    {
      double total = 0.0;

      for (guint p = 0; p < QM_VRAM_N_PARTS; p++)
        total += qm_chart_vram_part_bytes (&breakdowns[i], p);
      top = MAX (top, total);
      if (isfinite (breakdowns[i].capacity))
        top = MAX (top, breakdowns[i].capacity);
    }
  return top;
}

void
qm_chart_render_vram (const QmChartFrame      *frame,
                      const QmMemoryBreakdown *breakdowns,
                      const char *const       *labels,
                      guint                    n,
                      QmBytesUnit              unit,
                      QmVramLayout            *layout_out)
{
  qm_chart_render_vram_scaled (frame, breakdowns, labels, n, unit, 0.0, layout_out);
}

/* Whether the bar fits, in words: "Fits: 12 GB spare". Empty without a
 * capacity. */
static void
fit_note (const QmMemoryBreakdown *b,
          double                   capacity,
          QmBytesUnit              unit,
          char                    *note,
          gsize                    size)
{
  double total = 0.0;
  char amount[QM_FORMAT_BUF];

  for (guint p = 0; p < QM_VRAM_N_PARTS; p++)
    total += qm_chart_vram_part_bytes (b, p);
  note[0] = '\0';
  if (capacity > 0 && total > b->capacity && b->capacity > 0)
    {
      qm_format_bytes (amount, sizeof amount, total - b->capacity, unit);
      g_snprintf (note, size, _("Does not fit: %s over"), amount);
    }
  else if (b->capacity > 0)
    {
      qm_format_bytes (amount, sizeof amount, b->capacity - total, unit);
      g_snprintf (note, size, _("Fits: %s spare"), amount);
    }
}

/* What the bars of one chart share. */
typedef struct
{
  cairo_t            *cr;
  const QmChartStyle *style;
  QmBytesUnit         unit;
  double              text_h;        /* a line of small text */
  double              note_w;        /* the width the notes wrap to */
  gboolean            has_capacity;
  QmVramLayout       *layout;
} Bars;

/* Bar @i: its parts stacked, what does not fit hatched, its note above
 * the plot and its label and total under it. */
static void
draw_bar (const Bars              *bars,
          const QmMemoryBreakdown *b,
          guint                    i,
          const char              *label,
          const char              *note)
{
  cairo_t *cr = bars->cr;
  const QmChartStyle *style = bars->style;
  QmVramLayout *layout = bars->layout;
  const double scale = unit_scale (bars->unit);
  double slot = layout->plot.width / MAX (layout->n_bars, 1);
  double bar_w = MIN (slot * 0.55, 120.0);
  double x = round (layout->plot.x + i * slot + (slot - bar_w) / 2.0);
  double base = qm_axis_to_pixel (&layout->y_axis, 0.0);
  double acc = 0.0, bar_top;
  double total = 0.0;
  char amount[QM_FORMAT_BUF];
  QmChartLabel note_at = { QM_TEXT_SMALL, x + bar_w / 2.0, layout->plot.y - 4.0, 0.5, 1.0, bars->note_w,
                           &style->foreground };
  QmChartLabel under = { QM_TEXT_SMALL, x + bar_w / 2.0, layout->plot.y + layout->plot.height + 4.0, 0.5, 0.0 };

  /* Part names go below the hatching of what does not fit. */
  double sum = 0.0, clear_top = -INFINITY;

  for (guint p = 0; p < QM_VRAM_N_PARTS; p++)
    sum += qm_chart_vram_part_bytes (b, p);
  if (bars->has_capacity && sum > b->capacity && b->capacity > 0)
    clear_top = round (qm_axis_to_pixel (&layout->y_axis, b->capacity / scale));

  for (guint p = 0; p < QM_VRAM_N_PARTS; p++)
    {
      double bytes = qm_chart_vram_part_bytes (b, p);
      double y0 = qm_axis_to_pixel (&layout->y_axis, acc / scale);
      double y1 = qm_axis_to_pixel (&layout->y_axis, (acc + bytes) / scale);
      QmRect *r = &layout->parts[i][p];

      *r = (QmRect) { x, round (y1), round (bar_w), round (y0) - round (y1) };
      if (r->height > 0)
        {
          /* Its colour and pattern, as its legend swatch. */
          qm_chart_fill_series (cr, style, p, r);
          /* A one-pixel gap in the background colour tops each part: two
           * parts of equal lightness stay apart (WCAG 2.1 SC 1.4.11; see
           * qm-chart-style.c). */
          if (r->height > 2)
            {
              qm_chart_set_color (cr, &style->background);
              cairo_rectangle (cr, r->x, r->y, r->width, 1.0);
              cairo_fill (cr);
            }
          /* The part's name on it, where it fits: not told by colour
           * alone (issue #37 item 9). */
          {
            double top = MAX (r->y + 1.0, clear_top);

            if (r->y + r->height - top > 0)
              qm_chart_label_part (cr, style, &(QmRect) { r->x, top, r->width, r->y + r->height - top },
                                   &style->series[p], qm_chart_vram_part_name (p));
          }
        }
      acc += bytes;
    }
  total = acc;
  bar_top = qm_axis_to_pixel (&layout->y_axis, total / scale);
  layout->bars[i] = (QmRect) { x, round (bar_top), round (bar_w), round (base) - round (bar_top) };

  /* What does not fit: hatched, with the shortfall in words in the
   * notes' band above the bar's column; any other note in plain text. */
  if (bars->has_capacity && total > b->capacity && b->capacity > 0)
    {
      double cap_y = round (qm_axis_to_pixel (&layout->y_axis, b->capacity / scale));
      QmRect over = { x, round (bar_top), round (bar_w), cap_y - round (bar_top) };

      draw_hatch (cr, &over, &style->background);
      note_at.kind = QM_TEXT_BOLD;
      note_at.color = &style->error;
      layout->notes[i] = qm_chart_text (cr, style, &note_at, note);
    }
  else if (note[0] != '\0')
    layout->notes[i] = qm_chart_text (cr, style, &note_at, note);

  /* Label and total under the bar. */
  qm_format_bytes (amount, sizeof amount, total, bars->unit);
  qm_chart_set_color (cr, &style->foreground);
  if (label != NULL)
    {
      qm_chart_text (cr, style, &under, label);
      under.y += bars->text_h;
    }
  qm_chart_text (cr, style, &under, amount);
}

/* A capacity line across @span (the plot, or one bar's slot) and its
 * label at the span's right end; the line's pixel row in @y, the label's
 * box returned. In a slot too narrow for "Capacity 192 GB" the amount
 * alone. */
static QmRect
draw_capacity (cairo_t            *cr,
               const QmChartStyle *style,
               double              capacity,
               QmBytesUnit         unit,
               const QmVramLayout *layout,
               const QmRect       *span,
               double             *y)
{
  const double scale = unit_scale (unit);
  static const double dash[] = { 6.0, 3.0 };
  char amount[QM_FORMAT_BUF], text[96];
  double tw, th, ty;
  QmChartLabel at;

  *y = round (qm_axis_to_pixel (&layout->y_axis, capacity / scale)) + 0.5;
  qm_chart_dashed_line (cr, &(QmChartDash) { &style->foreground, 1.5, dash }, span, QM_AXIS_LEFT, *y);
  qm_format_bytes (amount, sizeof amount, capacity, unit);
  /* Translators: %s is an amount of memory such as "80 GB". */
  g_snprintf (text, sizeof text, _("Capacity %s"), amount);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, text, &tw, &th);
  if (tw > span->width - 4.0)
    {
      g_strlcpy (text, amount, sizeof text);
      qm_chart_text_size (cr, style, QM_TEXT_SMALL, text, &tw, &th);
    }
  /* On a background patch, so the label reads where it crosses a bar;
   * below the line when there is no room above it in the plot. */
  ty = *y - th - 2.0;
  if (ty - 1.0 < layout->plot.y)
    ty = *y + 2.0;
  at = (QmChartLabel) { QM_TEXT_SMALL, span->x + span->width - 2, ty, 1.0, 0.0, 0.0, &style->foreground };
  return qm_chart_text_on_patch (cr, style, &at, text);
}

void
qm_chart_render_vram_scaled (const QmChartFrame      *frame,
                             const QmMemoryBreakdown *breakdowns,
                             const char *const       *labels,
                             guint                    n,
                             QmBytesUnit              unit,
                             double                   axis_max,
                             QmVramLayout            *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  const double scale = unit_scale (unit);
  const char *unit_name = unit == QM_BYTES_GIB ? "GiB" : "GB";
  QmVramLayout layout = { 0 };
  QmLegendEntry legend[QM_VRAM_N_PARTS + 1];
  g_autofree char *y_title = g_strdup_printf (_("Memory per GPU (%s)"), unit_name);
  double capacity = 0.0, top = 0.0;
  gboolean shared_capacity = TRUE;
  double label_w, legend_h, text_h, x_label_h = 0.0;
  char notes[QM_VRAM_MAX_BARS][128];
  double note_h = 0.0, note_w = 0.0, title_w = 0.0;

  n = MIN (n, QM_VRAM_MAX_BARS);
  top = qm_chart_vram_top (breakdowns, n);
  for (guint i = 0; i < n; i++)
    if (isfinite (breakdowns[i].capacity))
      {
        if (capacity > 0 && breakdowns[i].capacity != capacity)
          shared_capacity = FALSE;
        capacity = MAX (capacity, breakdowns[i].capacity);
      }
  if (isfinite (axis_max) && axis_max > top)
    top = axis_max;
  top = top * 1.08 / scale;

  qm_chart_begin (frame);

  for (guint p = 0; p < QM_VRAM_N_PARTS; p++)
    legend[p] = qm_chart_series_legend (style, p, _(part_names[p]));
  legend[QM_VRAM_N_PARTS] = (QmLegendEntry) { _("Capacity"), style->foreground, TRUE };
  legend_h = qm_chart_legend_height (cr, style, legend, G_N_ELEMENTS (legend), width - 2 * pad);

  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, y_title, &title_w, NULL);
  for (guint i = 0; i < n; i++)
    x_label_h = MAX (x_label_h, text_h * (labels != NULL && labels[i] != NULL ? 2.0 : 1.0));

  for (guint i = 0; i < n; i++)
    fit_note (&breakdowns[i], capacity, unit, notes[i], sizeof notes[i]);

  /* The notes sit in a band of their own between the axis title and the
   * plot, one per bar's column and wrapped to it, so that they neither
   * overlap each other, the title or the capacity label, nor leave the
   * chart at any width (issue 20). The column width depends on the y
   * labels' width, which depends on the plot's height, which depends on
   * the notes' height: twice round settles it. */
  layout.plot.x = pad;
  layout.plot.width = MAX (10.0, width - 2 * pad);
  for (guint pass = 0; pass < 2; pass++)
    {
      note_w = MAX (10.0, layout.plot.width / MAX (n, 1) - 6.0);
      note_h = 0.0;
      for (guint i = 0; i < n; i++)
        if (notes[i][0] != '\0')
          {
            QmChartLabel label = { QM_TEXT_BOLD, .max_width = note_w };

            note_h = MAX (note_h, qm_chart_text_box (cr, style, &label, notes[i]).height);
          }
      layout.plot.y = pad + text_h + 6.0 + (note_h > 0 ? note_h + 4.0 : 0.0);
      layout.plot.height = MAX (10.0, height - layout.plot.y - pad - legend_h - 8.0 - x_label_h - 6.0);
      qm_axis_init (&layout.y_axis, QM_SCALE_LINEAR, 0.0, top, 6,
                    layout.plot.y + layout.plot.height, layout.plot.y);
      label_w = qm_chart_axis_label_width (cr, style, &layout.y_axis, qm_chart_tick_number, NULL);
      layout.plot.x = pad + label_w + 6.0;
      layout.plot.width = MAX (10.0, width - layout.plot.x - pad);
    }
  note_w = MIN (note_w, MAX (10.0, layout.plot.width / MAX (n, 1) - 6.0));

  qm_chart_draw_axis (cr, style, &layout.y_axis, &layout.plot, QM_AXIS_LEFT, NULL, qm_chart_tick_number, NULL);
  /* The title at the top, above the notes' band. */
  qm_chart_set_color (cr, &style->foreground);
  qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, layout.plot.x, pad, 0.0, 0.0 }, y_title);
  layout.title = (QmRect) { layout.plot.x, pad, title_w, text_h };

  layout.n_bars = n;
  {
    const Bars bars = { cr, style, unit, text_h, note_w, capacity > 0, &layout };

    for (guint i = 0; i < n; i++)
      draw_bar (&bars, &breakdowns[i], i, labels != NULL ? labels[i] : NULL, notes[i]);
  }

  if (capacity > 0 && shared_capacity)
    layout.capacity_label = draw_capacity (cr, style, capacity, unit, &layout, &layout.plot, &layout.capacity_y);
  else
    /* GPUs that hold different amounts: each bar against its own (the
     * largest drawn across all of them read "Capacity 192 GB" over plans
     * whose GPUs hold 85.5 GB). */
    for (guint i = 0; i < n; i++)
      {
        double slot = layout.plot.width / MAX (n, 1);
        QmRect span = { layout.plot.x + i * slot + 2.0, layout.plot.y, slot - 4.0, layout.plot.height };

        if (isfinite (breakdowns[i].capacity) && breakdowns[i].capacity > 0)
          layout.bar_capacity_labels[i] = draw_capacity (cr, style, breakdowns[i].capacity, unit, &layout, &span,
                                                         &layout.bar_capacity_y[i]);
      }

  qm_chart_legend (cr, style, legend, G_N_ELEMENTS (legend),
                   &(QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h });
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}

gboolean
qm_chart_vram_hit (const QmVramLayout *layout,
                   double              x,
                   double              y,
                   guint              *bar,
                   guint              *part)
{
  for (guint i = 0; i < layout->n_bars; i++)
    for (guint p = 0; p < QM_VRAM_N_PARTS; p++)
      {
        const QmRect *r = &layout->parts[i][p];

        if (r->height > 0 && x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height)
          {
            *bar = i;
            *part = p;
            return TRUE;
          }
      }
  return FALSE;
}
