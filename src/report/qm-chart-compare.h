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
  QmRect scatter_plot;
  QmAxis scatter_x;       /* days */
  QmAxis scatter_y;       /* cost */
} QmCompareLayout;

const char *qm_chart_compare_metric_name  (guint metric);
double      qm_chart_compare_metric_value (const QmCompareItem *item,
                                           guint                metric);

/* Grouped bars on the left two thirds, the cost/time scatter on the right. */
void qm_chart_render_compare (const QmChartFrame  *frame,
                              const QmCompareItem *items,
                              guint                n,
                              const char          *currency,
                              QmCompareLayout     *layout_out);

G_END_DECLS
