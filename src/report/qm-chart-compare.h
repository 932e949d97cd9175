/* qm-chart-compare.h: comparison charts for 2-4 plans: grouped bars for
 * GPUs, days, cost, power and CO2 (each metric on its own scale, values
 * printed), and cost against time as a scatter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"

G_BEGIN_DECLS

#define QM_COMPARE_MAX_PLANS   4
#define QM_COMPARE_N_METRICS   5

typedef struct
{
  const char *label;      /* plan name */
  double      gpus;
  double      days;       /* with failures */
  double      cost;       /* total, in the plan's currency */
  double      power_kw;   /* facility, provisioned */
  double      co2_tonnes;
} QmCompareItem;

typedef struct
{
  guint  n_plans;
  QmRect groups[QM_COMPARE_N_METRICS];                        /* one group of bars per metric */
  QmRect bars[QM_COMPARE_N_METRICS][QM_COMPARE_MAX_PLANS];
  /* A bar's column, from the top of the bars to their baseline, so that a
   * bar too short to point at can still be hovered and read; 0 × 0 where
   * the figure does not apply (no bar). */
  QmRect columns[QM_COMPARE_N_METRICS][QM_COMPARE_MAX_PLANS];
  QmRect scatter_plot;
  QmRect markers[QM_COMPARE_MAX_PLANS];  /* x, y: a marker's centre; 0 × 0 where none is drawn */
  QmAxis scatter_x;       /* days */
  QmAxis scatter_y;       /* cost */
  /* Each bar's printed value (a dash where the figure does not apply):
   * above the bar across, or where the figure is wider than the bar,
   * turned upright above it or on it; never left out (the PDF says the
   * values are printed on the bars, issue #35 item 4). */
  QmRect values[QM_COMPARE_N_METRICS][QM_COMPARE_MAX_PLANS];
} QmCompareLayout;

const char *qm_chart_compare_metric_name  (guint metric);
double      qm_chart_compare_metric_value (const QmCompareItem *item,
                                           guint                metric);

/* Grouped bars on the left two thirds, the cost/time scatter on the right.
 * Each bar and each marker carries its plan's letter ("A", "B" ...,
 * qm_compare_letter()), and the legend names the plans with the same
 * letters (each item's label starts with it, "A: Llama ...", as the
 * comparison PDF and the Compare page pass them): the plans are told apart
 * by more than colour (WCAG 2.1 SC 1.4.1). */
void qm_chart_render_compare (const QmChartFrame  *frame,
                              const QmCompareItem *items,
                              guint                n,
                              const char          *currency,
                              QmCompareLayout     *layout_out);

/* The value of @metric as the chart prints it on its bar, or "–" where
 * the figure does not apply (a serving plan has no time to train). */
char *qm_chart_compare_format_value (char                *buf,
                                     gsize                size,
                                     const QmCompareItem *item,
                                     guint                metric,
                                     const char          *currency);

/* Which plan's bar (@metric < QM_COMPARE_N_METRICS) or scatter marker
 * (@metric = QM_COMPARE_N_METRICS) is under the pixel, after a render
 * into @layout; FALSE if none. */
gboolean qm_chart_compare_hit (const QmCompareLayout *layout,
                               double                 x,
                               double                 y,
                               guint                 *metric,
                               guint                 *plan);

/* What the chart draws, in words, for a screen reader: each plan's
 * figures, with each plan's cost in @currencies[i] (its own). A plan
 * without a time to train (serving) says so instead of a number. */
char *qm_chart_compare_describe (const QmCompareItem *items,
                                 const char * const  *currencies,
                                 guint                n);

G_END_DECLS
