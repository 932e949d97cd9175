/* qm-chart-serving.h: serving charts. Latency against load: time to first
 * token and time per output token (p50 and p99) against the fleet's
 * request rate, with the latency targets and the plan's load marked.
 * Throughput against concurrency: output tokens/s per GPU as a replica
 * runs more sequences at once, up to where its KV cache is full.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"

G_BEGIN_DECLS

#define QM_SERVING_CURVE_MAX 32

/* Latency percentiles of the sized fleet at a sweep of request rates. */
typedef struct
{
  guint  n;
  double rpm[QM_SERVING_CURVE_MAX];           /* fleet requests per minute, rising */
  double ttft_p50_ms[QM_SERVING_CURVE_MAX];
  double ttft_p99_ms[QM_SERVING_CURVE_MAX];
  double tpot_p50_ms[QM_SERVING_CURVE_MAX];
  double tpot_p99_ms[QM_SERVING_CURVE_MAX];
  double ttft_target_ms;                      /* 0 = none */
  double tpot_target_ms;                      /* 0 = none */
  double plan_rpm;                            /* the plan's load; 0 = none */
  guint  replicas;                            /* of the sized fleet */
  double saturated_rpm;                       /* where the queue grows without
                                               * bound; 0 = not within the sweep */
  double capacity_rpm;                        /* a fixed fleet's capacity within the
                                               * targets (issue 31); 0 = none */
  double capacity_low_rpm;                    /* its likely range (issue #36): the */
  double capacity_high_rpm;                   /* throughput band's; 0 = none */
} QmServingCurve;

typedef struct
{
  QmRect ttft_plot;
  QmRect tpot_plot;
  QmAxis x_axis;          /* shared by both panels (pixel x) */
  QmAxis ttft_axis;
  QmAxis tpot_axis;
  double plan_x;          /* pixel column of the plan's load, or -1 */
  double saturated_x;     /* pixel column where saturation starts, or -1 */
  double capacity_x;      /* pixel column of the fleet's capacity, or -1 */
  double capacity_x0;     /* the columns of its likely range, or -1 */
  double capacity_x1;
  double ttft_target_y;   /* pixel rows of the targets, or -1 */
  double tpot_target_y;
  QmRect x_title;         /* "Requests per minute" */
  QmRect ttft_target_label;  /* "Target … ms", 0 × 0 if none */
  QmRect tpot_target_label;
  QmRect plan_label;      /* "This plan: …", 0 × 0 if none */
  QmRect capacity_label;  /* "Capacity: …", 0 × 0 if none */
  QmRect legend;
} QmServingLayout;

void qm_chart_render_serving (const QmChartFrame   *frame,
                              const QmServingCurve *curve,
                              QmServingLayout      *layout_out);

/* Output tokens/s per GPU of one replica against the sequences it runs. */
typedef struct
{
  guint  n;
  double concurrency[QM_SERVING_CURVE_MAX];   /* rising */
  double tokens_per_s_per_gpu[QM_SERVING_CURVE_MAX];
  double memory_limit;                        /* most sequences a replica holds (KV cache or
                                               * engine cap); 0 = unknown */
  double plan_concurrency;                    /* the plan's batch; 0 = none */
  double plan_tokens_per_s_per_gpu;
  /* The likely range of each point (issue #36): the error model's band of
   * the throughput, drawn shaded around the curve. */
  gboolean has_band;
  double band_low[QM_SERVING_CURVE_MAX];
  double band_high[QM_SERVING_CURVE_MAX];
} QmThroughputCurve;

typedef struct
{
  QmRect plot;
  QmAxis x_axis;
  QmAxis y_axis;
  double plan_x, plan_y;  /* pixel of the plan's point, or -1 */
  double limit_x;         /* pixel column of the memory limit, or -1 */
  gboolean band_drawn;    /* the likely range is shaded */
} QmThroughputLayout;

void qm_chart_render_throughput (const QmChartFrame      *frame,
                                 const QmThroughputCurve *curve,
                                 QmThroughputLayout      *layout_out);

G_END_DECLS
