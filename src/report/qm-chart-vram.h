/* qm-chart-vram.h: per-GPU memory as stacked bars against the capacity.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"
#include "qm-format.h"
#include "qm-memory.h"

G_BEGIN_DECLS

#define QM_VRAM_MAX_BARS  8
#define QM_VRAM_N_PARTS   6   /* weights, gradients, optimizer, activations, kv cache, overhead */

/* Where things were drawn, for tests and hover. */
typedef struct
{
  QmRect  plot;
  QmAxis  y_axis;
  double  capacity_y;                       /* pixel row of the capacity line */
  guint   n_bars;
  QmRect  bars[QM_VRAM_MAX_BARS];           /* whole stacked bar */
  QmRect  parts[QM_VRAM_MAX_BARS][QM_VRAM_N_PARTS];
  QmRect  notes[QM_VRAM_MAX_BARS];          /* "Does not fit: …" / "Fits: …" text, 0 × 0 if none */
  QmRect  capacity_label;                   /* "Capacity 80 GB" text, 0 × 0 if none */
  QmRect  title;                            /* the y axis's title */
  /* Bars on GPUs of different memory (a comparison): each bar's own
   * capacity line across its slot and its label, and capacity_y and
   * capacity_label are unused (0); 0 × 0 where a bar has none or all
   * bars share the one line. */
  double  bar_capacity_y[QM_VRAM_MAX_BARS];
  QmRect  bar_capacity_labels[QM_VRAM_MAX_BARS];
} QmVramLayout;

/* The name of stacked part @i ("Weights", ...). */
const char *qm_chart_vram_part_name (guint i);
/* The bytes of stacked part @i of @b (0 where not finite or negative):
 * the one order of the parts, for the bars, their summaries and tooltips. */
double      qm_chart_vram_part_bytes (const QmMemoryBreakdown *b,
                                      guint                    i);
/* Appends the parts @b has, "Weights 16.1 GB, Gradients 16.1 GB, …", to
 * @out (no closing period); FALSE when it has none. */
gboolean    qm_chart_vram_append_parts (GString                 *out,
                                        const QmMemoryBreakdown *b);

/* One bar per breakdown, labelled below, against the capacity: one line
 * across the plot where every bar's GPU holds the same, else each bar's
 * own line across its slot (a comparison of an 85.5 GB and a 192 GB GPU,
 * issue #35 item 4). */
void qm_chart_render_vram (const QmChartFrame      *frame,
                           const QmMemoryBreakdown *breakdowns,
                           const char *const       *labels,
                           guint                    n,
                           QmBytesUnit              unit,
                           QmVramLayout            *layout_out);

/* The same, with the y axis reaching at least @axis_max bytes (0 = fit
 * the bars), so charts drawn side by side share one scale and compare
 * honestly. qm_chart_vram_top() gives each chart's own need. */
void qm_chart_render_vram_scaled (const QmChartFrame      *frame,
                                  const QmMemoryBreakdown *breakdowns,
                                  const char *const       *labels,
                                  guint                    n,
                                  QmBytesUnit              unit,
                                  double                   axis_max,
                                  QmVramLayout            *layout_out);

/* The bytes the y axis must show for these bars: the tallest stack or the
 * largest capacity, whichever is more. */
double qm_chart_vram_top (const QmMemoryBreakdown *breakdowns,
                          guint                    n);

/* Which part of which bar is under the pixel, for tooltips; FALSE if none. */
gboolean qm_chart_vram_hit (const QmVramLayout *layout,
                            double              x,
                            double              y,
                            guint              *bar,
                            guint              *part);

G_END_DECLS
