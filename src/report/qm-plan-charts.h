/* qm-plan-charts.h: the plan charts drawn straight from a plan and its
 * estimate, the same way in the app, the PDF and `quartermaster-cli
 * chart`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-cashflow.h"
#include "qm-chart-gpus-time.h"
#include "qm-chart-power.h"
#include "qm-chart-racks.h"
#include "qm-chart-serving.h"
#include "qm-chart-style.h"
#include "qm-chart-vram.h"
#include "qm-estimate.h"
#include "qm-format.h"
#include "qm-workload.h"

G_BEGIN_DECLS

typedef enum
{
  QM_PLAN_CHART_GPUS_TIME,    /* training only */
  QM_PLAN_CHART_LATENCY,      /* serving only */
  QM_PLAN_CHART_THROUGHPUT,   /* serving only */
  QM_PLAN_CHART_VRAM,
  QM_PLAN_CHART_POWER,
  QM_PLAN_CHART_RACKS,
  QM_PLAN_CHART_CASHFLOW,     /* the plan's quote, or default terms */
  QM_N_PLAN_CHARTS
} QmPlanChartKind;

/* Whether @kind has something to show for @estimate: the GPUs-vs-time
 * curve is for training, the latency and throughput curves for serving,
 * the cash flow for an estimate with a cost. */
gboolean    qm_plan_chart_applies          (QmPlanChartKind   kind,
                                            const QmEstimate *estimate);

const char *qm_plan_chart_kind_to_string   (QmPlanChartKind kind);   /* "gpus-time" ... */
gboolean    qm_plan_chart_kind_from_string (const char      *s,
                                            QmPlanChartKind *out);
/* "GPUs vs. time to train" ... */
const char *qm_plan_chart_title            (QmPlanChartKind kind);

/* GPUs-vs-time from the throughput model (qm_parallel_curve), with the
 * failure-adjusted days from the plan's reliability preset at each count
 * and the run's cost. When the plan gives its own MFU, the curve keeps the
 * model's shape but passes through the plan's point. A few milliseconds:
 * compute it when the plan changes, not on every redraw. */
void        qm_plan_curve                  (const QmPlan      *plan,
                                            const QmEstimate  *estimate,
                                            QmGpusTimeCurve   *out);

/* The curves behind the charts that need a model run per point: compute
 * them once when the plan changes, then draw as often as needed. */
typedef struct
{
  QmGpusTimeCurve   gpus_time;
  QmServingCurve    latency;
  QmThroughputCurve throughput;
} QmPlanCurves;

/* Latency against load for a serving plan's sized fleet (Poisson arrivals
 * at rates up to past where its queue grows without bound), and its
 * replica's throughput against concurrency: the serving model run at
 * about 25 more points, tens of milliseconds. */
void        qm_plan_serving_curves         (const QmPlan      *plan,
                                            const QmEstimate  *estimate,
                                            QmServingCurve    *latency,
                                            QmThroughputCurve *throughput);

void        qm_plan_curves                 (const QmPlan      *plan,
                                            const QmEstimate  *estimate,
                                            QmPlanCurves      *out);

/* Issue 31 item 4: a keystroke draws at once what the estimate already
 * knows, and the sweeps follow (in the app, in a worker thread).
 * _first: the serving curves' frame (targets, the plan's load, capacity,
 * memory limit, the plan's throughput point) and the plan's own latency
 * point, taken from the estimate (no simulation); the GPUs-vs-time curve
 * in full (a few milliseconds). */
void        qm_plan_serving_curves_first   (const QmPlan      *plan,
                                            const QmEstimate  *estimate,
                                            QmServingCurve    *latency,
                                            QmThroughputCurve *throughput);
void        qm_plan_curves_first           (const QmPlan      *plan,
                                            const QmEstimate  *estimate,
                                            QmPlanCurves      *out);

/* Called after each point of the serving sweeps with the points so far
 * (@done on the last call); return FALSE to stop (the sweep is cancelled).
 * Called on the thread that runs the sweep. */
typedef gboolean (*QmPlanCurvesProgress) (const QmServingCurve    *latency,
                                          const QmThroughputCurve *throughput,
                                          gboolean                 done,
                                          gpointer                 user_data);

/* qm_plan_serving_curves() point by point, telling @progress. It reads
 * only @plan and @estimate (copies, when run in a worker thread). */
void        qm_plan_serving_curves_full    (const QmPlan          *plan,
                                            const QmEstimate      *estimate,
                                            QmServingCurve        *latency,
                                            QmThroughputCurve     *throughput,
                                            QmPlanCurvesProgress   progress,
                                            gpointer               user_data);

/* Where qm_plan_chart_draw_with_layout() drew things, for hover tooltips:
 * the renderer's layout for @kind, and for the VRAM chart the bars it drew
 * (the plan's layout, then the other ZeRO stages) with their labels. */
typedef struct
{
  QmPlanChartKind   kind;
  QmGpusTimeLayout  gpus_time;
  QmVramLayout      vram;
  guint             n_vram_bars;
  QmMemoryBreakdown vram_bars[QM_VRAM_MAX_BARS];
  char              vram_labels[QM_VRAM_MAX_BARS][32];
  QmPowerLayout     power;
  QmRackLayout      racks;
  QmServingLayout    latency;
  QmThroughputLayout throughput;
  QmCashFlowLayout   cashflow;
} QmPlanChartLayout;

/* Draws @kind into (0, 0, width, height). @curves NULL computes what
 * @kind needs. Fills @layout_out when it is not NULL. */
void        qm_plan_chart_draw_with_layout (QmPlanChartKind     kind,
                                            const QmChartFrame *frame,
                                            const QmPlan       *plan,
                                            const QmEstimate   *estimate,
                                            const QmPlanCurves *curves,
                                            QmBytesUnit         unit,
                                            QmPlanChartLayout  *layout_out);

/* The quote the cash-flow chart draws: qm_estimate_quote(), the plan's
 * terms or the defaults for a plan without a quote section, so that
 * `chart --kind cashflow` works on any plan. */
void        qm_plan_chart_quote            (const QmPlan     *plan,
                                            const QmEstimate *estimate,
                                            QmQuote          *out);

/* The chart's key numbers in a sentence, for screen readers and captions. */
char       *qm_plan_chart_describe         (QmPlanChartKind   kind,
                                            const QmPlan     *plan,
                                            const QmEstimate *estimate);
/* qm_plan_chart_describe() and what only the curves know: the GPUs-time
 * chart's knee and cost curve (@curves may be NULL). */
char       *qm_plan_chart_describe_with_curves (QmPlanChartKind     kind,
                                                const QmPlan       *plan,
                                                const QmEstimate   *e,
                                                const QmPlanCurves *curves);

/* Writes the chart as PNG, SVG or PDF, chosen by @path's extension. */
gboolean    qm_plan_chart_export           (QmPlanChartKind    kind,
                                            const QmPlan      *plan,
                                            const QmEstimate  *estimate,
                                            const QmChartStyle *style,
                                            double             width,
                                            double             height,
                                            const char        *path,
                                            GError           **error);

G_END_DECLS
