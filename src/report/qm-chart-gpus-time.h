/* qm-chart-gpus-time.h: time to train against GPU count, on log-log axes,
 * with the plan's point, the deadline, the knee where adding GPUs stops
 * paying, and the cost on a secondary axis.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"

G_BEGIN_DECLS

#define QM_CURVE_MAX_POINTS 64

/* One curve: for each GPU count, the best layout's days (from the
 * throughput model), ideal and with failures, and the run's cost. */
typedef struct
{
  guint  n;
  double gpus[QM_CURVE_MAX_POINTS];
  double ideal_days[QM_CURVE_MAX_POINTS];
  double days[QM_CURVE_MAX_POINTS];        /* with failures; 0 = unknown */
  gboolean no_fit[QM_CURVE_MAX_POINTS];    /* the model does not fit in memory there:
                                            * the time is the plan's layout's, priced anyway */
  double cost[QM_CURVE_MAX_POINTS];        /* 0 = not shown */
  int    knee;                             /* index of the knee: past it no count pays, or -1 */
  double plan_gpus;                        /* the plan's point; 0 = none */
  double plan_days;
  double deadline_days;                    /* 0 = none */
  /* The likely range of the time (issue #36): each point's days at the
   * error model's p10 and p90, drawn shaded around the curve. */
  gboolean has_band;
  double band_low[QM_CURVE_MAX_POINTS];
  double band_high[QM_CURVE_MAX_POINTS];
  const char *currency;
  char   no_fit_reason[384];               /* why, in words; "" = none given */
} QmGpusTimeCurve;

typedef struct
{
  QmRect plot;
  QmAxis x_axis;
  QmAxis y_axis;
  QmAxis cost_axis;
  gboolean has_cost;
  double plan_x, plan_y;                   /* pixel of the plan's point */
  double deadline_y;                       /* pixel row, or -1 */
  double knee_x;                           /* pixel column, or -1 */
  double no_fit_x0, no_fit_x1;             /* the columns where the model does not fit, or -1 */
  QmRect no_fit_label;                     /* the words that say why, 0 × 0 if none */
  QmRect plan_label;                       /* "This plan: …" */
  QmRect deadline_label;                   /* "Deadline …", 0 × 0 if none */
  QmRect knee_label;                       /* "Knee: …", 0 × 0 if none */
  gboolean band_drawn;                     /* the likely range is shaded */
} QmGpusTimeLayout;

void qm_chart_render_gpus_time (const QmChartFrame    *frame,
                                const QmGpusTimeCurve *curve,
                                QmGpusTimeLayout      *layout_out);

/* The curve point nearest the pixel, or -1. */
int  qm_chart_gpus_time_hit    (const QmGpusTimeLayout *layout,
                                const QmGpusTimeCurve  *curve,
                                double                  x,
                                double                  y);

G_END_DECLS
