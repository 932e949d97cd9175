/* qm-plan-charts.c: the plan charts from a plan and its estimate.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan-charts.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-accuracy.h"
#include "qm-chart-power.h"
#include "qm-chart-racks.h"
#include "qm-chart-vram.h"
#include "qm-parallel.h"
#include "qm-reliability.h"
#include "qm-types.h"

/* How far around the plan's GPU count the curve reaches. */
#define CURVE_SPAN 16.0

static const struct { const char *id; const char *title; } kinds[QM_N_PLAN_CHARTS] = {
  [QM_PLAN_CHART_GPUS_TIME] = { "gpus-time", N_("GPUs vs. time to train") },
  [QM_PLAN_CHART_VRAM]      = { "vram",      N_("Memory per GPU") },
  [QM_PLAN_CHART_POWER]     = { "power",     N_("Power") },
  [QM_PLAN_CHART_RACKS]     = { "racks",     N_("Rack layout") },
  [QM_PLAN_CHART_LATENCY]   = { "latency",   N_("Latency vs. load") },
  [QM_PLAN_CHART_THROUGHPUT] = { "throughput", N_("Throughput vs. concurrency") },
  [QM_PLAN_CHART_CASHFLOW]  = { "cashflow",  N_("Cumulative cash flow") },
};

gboolean
qm_plan_chart_applies (QmPlanChartKind   kind,
                       const QmEstimate *e)
{
  switch (kind)
    {
    case QM_PLAN_CHART_GPUS_TIME:
      return e->has_training;
    case QM_PLAN_CHART_LATENCY:
    case QM_PLAN_CHART_THROUGHPUT:
      return e->has_inference;
    case QM_PLAN_CHART_VRAM:
    case QM_PLAN_CHART_POWER:
    case QM_PLAN_CHART_RACKS:
      return TRUE;
    case QM_PLAN_CHART_CASHFLOW:
      return e->valid && e->has_cost;
    case QM_N_PLAN_CHARTS:
    default:
      return FALSE;
    }
}

const char *
qm_plan_chart_kind_to_string (QmPlanChartKind kind)
{
  g_return_val_if_fail (kind < QM_N_PLAN_CHARTS, "");
  return kinds[kind].id;
}

const char *
qm_plan_chart_title (QmPlanChartKind kind)
{
  g_return_val_if_fail (kind < QM_N_PLAN_CHARTS, "");
  return kinds[kind].title;
}

gboolean
qm_plan_chart_kind_from_string (const char      *s,
                                QmPlanChartKind *out)
{
  return qm_name_table_find (s, QM_NAME_TABLE (kinds, id), (guint *) out);
}

/* Adds the plan's own count to the sorted @counts, so that the curve
 * passes through its point. */
static void
insert_count (guint *counts,
              guint *n,
              guint  gpus)
{
  guint i = *n;

  if (*n >= QM_CURVE_MAX_POINTS)
    return;
  while (i > 0 && counts[i - 1] > gpus)
    {
      counts[i] = counts[i - 1];
      i--;
    }
  if (i == 0 || counts[i - 1] != gpus)
    {
      counts[i] = gpus;
      (*n)++;
    }
  else
    {
      /* Already there: undo the shift. */
      memmove (&counts[i], &counts[i + 1], (*n - i) * sizeof counts[0]);
    }
}

/* Where nothing fits in memory, the curve still shows what the plan's
 * own layout would take (the estimate prices a plan that does not fit
 * the same way), so the plan's point lies on it; those points are
 * marked, and the chart says why (issue 20: a 405B plan on 16,384 H100
 * showed a curve starting at 65k GPUs, far from its point). */
static void
price_unfit_points (const QmParallelProblem *pb,
                    const QmEstimate        *e,
                    QmParallelCurvePoint    *points,
                    guint                    n)
{
  for (guint i = 0; i < n; i++)
    if (!points[i].fits)
      {
        QmParallelProblem at = *pb;
        QmParallelTime t;
        QmParallelLayout l = {
          .tp = MAX (e->parallelism.tp, 1), .pp = MAX (e->parallelism.pp, 1),
          .cp = MAX (e->parallelism.cp, 1), .ep = MAX (e->parallelism.ep, 1),
          .micro_batch = MAX (e->parallelism.micro_batch, 1), .virtual_stages = 1,
          .zero_stage = e->parallelism.zero_stage, .recompute = e->parallelism.recompute,
          .sequence_parallel = e->parallelism.sequence_parallel,
        };
        guint mp = l.tp * l.pp * l.cp;

        points[i].train_s = 0;
        if (mp == 0 || points[i].gpus % mp != 0)
          continue;
        l.dp = points[i].gpus / mp;
        if (at.global_batch % (l.micro_batch * l.dp) != 0)
          continue;
        l.n_micro = at.global_batch / (l.micro_batch * l.dp);
        at.gpus = points[i].gpus;
        if (!qm_parallel_step_time (&at, &l, &t) || !(t.step > 0))
          continue;
        points[i].step_s = t.step;
        points[i].mfu = t.mfu;
        points[i].train_s = e->tokens / ((double) at.global_batch * at.seq_len) * t.step;
      }
}

/* When the plan's MFU is given (or a family default), keep the model's
 * shape but anchor its level: time scales as 1/MFU, so scale by the
 * model's MFU at the nearest count over the plan's. */
static double
mfu_anchor (const QmEstimate           *e,
            const QmParallelCurvePoint *points,
            guint                       n)
{
  double anchor = 1.0, best = G_MAXDOUBLE;

  if (e->mfu_source == QM_MFU_SOURCE_PREDICTED || !(e->mfu > 0))
    return 1.0;
  for (guint i = 0; i < n; i++)
    if (points[i].train_s > 0 && points[i].mfu > 0)
      {
        double d = fabs (log ((double) points[i].gpus / e->gpus));

        if (d < best)
          {
            best = d;
            anchor = points[i].mfu / e->mfu;
          }
      }
  return anchor;
}

void
qm_plan_curve (const QmPlan     *plan,
               const QmEstimate *e,
               QmGpusTimeCurve  *out)
{
  QmParallelProblem pb;
  QmParallelCurvePoint points[QM_CURVE_MAX_POINTS];
  QmParallelCurve curve;
  guint counts[QM_CURVE_MAX_POINTS];
  guint per_node = MAX (plan->hardware.server.gpus, 1);
  guint lo, hi, n;
  double anchor;
  QmFailurePreset preset;
  gboolean with_failures;
  int last_fit = -1;

  memset (out, 0, sizeof *out);
  out->knee = -1;
  out->currency = plan->pricing.currency;
  if (!e->valid || !e->has_training || e->gpus == 0 || e->ideal_days <= 0)
    return;

  out->plan_gpus = e->gpus;
  out->plan_days = e->train_days > 0 ? e->train_days : e->ideal_days;
  out->deadline_days = plan->workload.deadline_days;

  lo = MAX (1u, (guint) (e->gpus / CURVE_SPAN));
  hi = (guint) MIN (e->gpus * CURVE_SPAN, 1048576.0);
  n = qm_parallel_curve_counts (lo, hi, per_node, 24, counts);

  insert_count (counts, &n, e->gpus);

  qm_parallel_problem_from_plan (plan, 0, &pb);
  qm_parallel_curve (&pb, e->tokens, counts, n, points, &curve);

  price_unfit_points (&pb, e, points, n);

  anchor = mfu_anchor (e, points, n);

  with_failures = qm_failure_preset_from_string (plan->reliability_preset, &preset) && e->has_reliability;
  for (guint i = 0; i < n && out->n < QM_CURVE_MAX_POINTS; i++)
    {
      double ideal_s;

      if (points[i].train_s <= 0)
        continue;

      ideal_s = points[i].train_s * anchor;
      out->no_fit[out->n] = !points[i].fits;
      out->gpus[out->n] = points[i].gpus;
      out->ideal_days[out->n] = ideal_s / 86400.0;

      if (with_failures)
        {
          QmReliabilityInput ri = {
            .preset = preset,
            .gpus = points[i].gpus,
            .ideal_s = ideal_s,
            .checkpoint_bytes = e->reliability.checkpoint_bytes,
            .write_bytes_per_s = e->cluster.storage_write_bytes_per_s,
            .restart_s = e->reliability.restart_s,
            .rule = QM_CHECKPOINT_INTERVAL_DALY,
          };
          QmReliability r;

          qm_reliability_compute (&ri, &r);
          out->days[out->n] = r.wall_s > 0 && isfinite (r.wall_s) ? r.wall_s / 86400.0 : 0.0;
        }

      /* The likely range of the time (issue #36): the band the estimate's
       * own days have, at every count. */
      if (e->bands.train_days.set)
        {
          double days = out->days[out->n] > 0 ? out->days[out->n] : out->ideal_days[out->n];

          qm_accuracy_cost_band (&e->bands.fit, days, &out->band_low[out->n], &out->band_high[out->n]);
          out->has_band = TRUE;
        }

      /* The run's cost scales with GPU-hours, rented or amortised alike
       * (first order: fixed costs such as storage are small beside it). */
      if (e->has_cost && e->cost.run > 0 && e->gpu_hours > 0)
        {
          double days = out->days[out->n] > 0 ? out->days[out->n] : out->ideal_days[out->n];
          out->cost[out->n] = e->cost.run * (points[i].gpus * days * 24.0) / e->gpu_hours;
        }

      /* curve.knee is the first count past the knee: the knee a buyer
       * stops at is the fitting count before it. */
      if ((guint) i == curve.knee)
        out->knee = last_fit;
      if (points[i].fits)
        last_fit = (int) out->n;
      out->n++;
    }

  /* Why, in the estimate's own words when the plan itself does not fit. */
  for (guint i = 0; i < e->n_warnings; i++)
    if (e->warnings[i].id == QM_NOTE_DOES_NOT_FIT || e->warnings[i].id == QM_NOTE_NO_LAYOUT_FITS)
      qm_note_format (&e->warnings[i], out->no_fit_reason, sizeof out->no_fit_reason);
}

/* The bars of the VRAM chart and their labels (pointing into @names or
 * at a translation): the plan's layout, then the same layout under each
 * other ZeRO stage. Returns how many. */
static guint
vram_bars (const QmPlan      *plan,
           const QmEstimate  *e,
           QmMemoryBreakdown  bars[QM_VRAM_MAX_BARS],
           const char        *labels[QM_VRAM_MAX_BARS],
           char               names[QM_VRAM_MAX_BARS][32])
{
  guint n = 0;

  if (e->has_training && e->parallelism.tp > 0)
    {
      QmParallelProblem pb;
      QmParallelLayout layout = {
        .tp = e->parallelism.tp, .pp = e->parallelism.pp, .dp = e->parallelism.dp,
        .cp = MAX (e->parallelism.cp, 1), .ep = MAX (e->parallelism.ep, 1),
        .micro_batch = MAX (e->parallelism.micro_batch, 1),
        /* The plan's schedule: interleaving changes the activations. */
        .virtual_stages = MAX (e->parallelism.virtual_stages, 1),
        .n_micro = plan->workload.global_batch
                   / MAX (1u, MAX (e->parallelism.micro_batch, 1) * MAX (e->parallelism.dp, 1)),
        .recompute = e->parallelism.recompute,
        .sequence_parallel = e->parallelism.sequence_parallel,
      };

      /* The plan's layout first, then the same layout under each ZeRO
       * stage, so the user sees which stage would fit. */
      bars[n] = e->memory;
      /* Translators: a bar label in the memory chart; %u is the ZeRO stage (0-3). */
      g_snprintf (names[n], sizeof names[n], _("This plan (ZeRO-%u)"), e->parallelism.zero_stage);
      labels[n] = names[n];
      n++;

      qm_parallel_problem_from_plan (plan, e->gpus, &pb);
      for (guint z = 0; z <= 3; z++)
        {
          if (z == e->parallelism.zero_stage)
            continue;
          layout.zero_stage = z;
          qm_parallel_memory (&pb, &layout, &bars[n]);
          g_snprintf (names[n], sizeof names[n], "ZeRO-%u", z);
          labels[n] = names[n];
          n++;
        }
    }
  else
    {
      bars[n] = e->memory;
      labels[n] = _("Per GPU");
      n++;
    }
  return n;
}

/* Points of the latency sweep, and how far past the fleet's throughput
 * limit it reaches (so that the saturation shows). */
#define LATENCY_POINTS 14
#define LATENCY_SPAN 1.3

/* What the serving curves show besides their points: the targets, the
 * plan's load and fleet, the capacity, the memory limit and the plan's
 * throughput point. FALSE when the plan has no serving curves. */
static gboolean
serving_frame (const QmPlan      *plan,
               const QmEstimate  *e,
               QmServingCurve    *lat,
               QmThroughputCurve *thr)
{
  const QmInference *inf = &e->inference;

  memset (lat, 0, sizeof *lat);
  memset (thr, 0, sizeof *thr);
  if (!e->valid || !e->has_inference || !inf->fits || inf->gpus_per_replica == 0 ||
      inf->max_batch == 0)
    return FALSE;
  lat->ttft_target_ms = plan->workload.inference.ttft_ms;
  lat->tpot_target_ms = plan->workload.inference.tpot_ms;
  lat->plan_rpm = plan->workload.inference.requests_per_minute;
  lat->replicas = MAX (1u, inf->replicas);
  /* A fixed fleet's capacity (issue 31): the estimate bisected it. */
  lat->capacity_rpm = inf->fixed_fleet ? inf->max_requests_per_s * 60.0 : 0.0;
  thr->memory_limit = inf->max_batch;
  thr->plan_concurrency = inf->concurrency;
  thr->plan_tokens_per_s_per_gpu = inf->tokens_per_s_per_gpu;
  /* The capacity scales with the throughput: its likely range is the
   * throughput band's (issue #36). */
  if (lat->capacity_rpm > 0 && e->bands.tokens_per_s_per_gpu.set && inf->tokens_per_s_per_gpu > 0)
    {
      lat->capacity_low_rpm = lat->capacity_rpm * e->bands.tokens_per_s_per_gpu.low / inf->tokens_per_s_per_gpu;
      lat->capacity_high_rpm = lat->capacity_rpm * e->bands.tokens_per_s_per_gpu.high / inf->tokens_per_s_per_gpu;
    }
  thr->has_band = e->bands.tokens_per_s_per_gpu.set;
  return TRUE;
}

void
qm_plan_serving_curves_first (const QmPlan      *plan,
                              const QmEstimate  *e,
                              QmServingCurve    *lat,
                              QmThroughputCurve *thr)
{
  const QmInference *inf = &e->inference;

  if (!serving_frame (plan, e, lat, thr))
    return;
  /* The estimate simulated the plan's own rate on its fleet, as the sweep
   * would (qm_inference_latency_at_rate): its point, when it is Poisson. */
  if (plan->workload.inference.arrival == QM_ARRIVAL_POISSON && lat->plan_rpm > 0)
    {
      lat->rpm[0] = lat->plan_rpm;
      lat->ttft_p50_ms[0] = inf->ttft_p50_ms;
      lat->ttft_p99_ms[0] = inf->ttft_p99_ms;
      lat->tpot_p50_ms[0] = inf->tpot_p50_ms;
      lat->tpot_p99_ms[0] = inf->tpot_p99_ms;
      lat->n = 1;
    }
}

void
qm_plan_serving_curves_full (const QmPlan          *plan,
                             const QmEstimate      *e,
                             QmServingCurve        *lat,
                             QmThroughputCurve     *thr,
                             QmPlanCurvesProgress   progress,
                             gpointer               user_data)
{
  const QmInference *inf = &e->inference;
  g_autoptr (GArray) lengths = NULL;
  QmInferenceInput in;
  double output, capacity_rpm, top;
  QmLengthsProblem problem;

  if (!serving_frame (plan, e, lat, thr))
    return;
  qm_estimate_inference_input (plan, e, &in, &lengths, &problem);
  output = MAX (1.0, in.output_tokens);

  /* Latency against load is about requests arriving over time, whatever
   * the plan's own arrival: Poisson at each rate. */
  in.arrival = QM_ARRIVAL_POISSON;
  capacity_rpm = MAX (1u, inf->replicas) * inf->replica_tokens_per_s / output * 60.0;
  top = LATENCY_SPAN * MAX (capacity_rpm, in.requests_per_minute);
  for (guint i = 1; i <= LATENCY_POINTS && top > 0; i++)
    {
      QmServingResult r;
      double rpm = top * i / LATENCY_POINTS;

      if (!qm_inference_latency_at_rate (&in, inf, rpm, &r))
        break;
      lat->rpm[lat->n] = rpm;
      lat->ttft_p50_ms[lat->n] = r.ttft_p50_s * 1e3;
      lat->ttft_p99_ms[lat->n] = r.ttft_p99_s * 1e3;
      lat->tpot_p50_ms[lat->n] = r.tpot_p50_s * 1e3;
      lat->tpot_p99_ms[lat->n] = r.tpot_p99_s * 1e3;
      lat->n++;
      if (r.unstable)
        {
          /* Saturated between the last steady rate and this one. */
          lat->saturated_rpm = i > 1 ? top * (i - 0.5) / LATENCY_POINTS : rpm;
          break;
        }
      if (progress != NULL && !progress (lat, thr, FALSE, user_data))
        return;
    }

  /* Throughput against concurrency: powers of two up to the most
   * sequences a replica holds, and that limit itself. */
  for (guint b = 1; thr->n < QM_SERVING_CURVE_MAX; b *= 2)
    {
      guint c = MIN (b, inf->max_batch);

      thr->concurrency[thr->n] = c;
      thr->tokens_per_s_per_gpu[thr->n] = qm_inference_throughput_at_concurrency (&in, inf, c);
      if (thr->has_band)
        qm_accuracy_rate_band (&e->bands.fit, thr->tokens_per_s_per_gpu[thr->n], &thr->band_low[thr->n],
                               &thr->band_high[thr->n]);
      thr->n++;
      if (c == inf->max_batch)
        break;
      if (progress != NULL && !progress (lat, thr, FALSE, user_data))
        return;
    }
  if (progress != NULL)
    progress (lat, thr, TRUE, user_data);
}

void
qm_plan_serving_curves (const QmPlan      *plan,
                        const QmEstimate  *e,
                        QmServingCurve    *lat,
                        QmThroughputCurve *thr)
{
  qm_plan_serving_curves_full (plan, e, lat, thr, NULL, NULL);
}

void
qm_plan_curves_first (const QmPlan     *plan,
                      const QmEstimate *e,
                      QmPlanCurves     *out)
{
  memset (out, 0, sizeof *out);
  if (qm_plan_chart_applies (QM_PLAN_CHART_GPUS_TIME, e))
    qm_plan_curve (plan, e, &out->gpus_time);
  if (qm_plan_chart_applies (QM_PLAN_CHART_LATENCY, e))
    qm_plan_serving_curves_first (plan, e, &out->latency, &out->throughput);
}

void
qm_plan_curves (const QmPlan     *plan,
                const QmEstimate *e,
                QmPlanCurves     *out)
{
  memset (out, 0, sizeof *out);
  if (qm_plan_chart_applies (QM_PLAN_CHART_GPUS_TIME, e))
    qm_plan_curve (plan, e, &out->gpus_time);
  if (qm_plan_chart_applies (QM_PLAN_CHART_LATENCY, e))
    qm_plan_serving_curves (plan, e, &out->latency, &out->throughput);
}

void
qm_plan_chart_quote (const QmPlan     *plan,
                     const QmEstimate *e,
                     QmQuote          *out)
{
  /* A plan without quote terms gets the defaults (qm_estimate_quote). */
  qm_estimate_quote (plan, e, out);
}

void
qm_plan_chart_draw_with_layout (QmPlanChartKind     kind,
                                const QmChartFrame *frame,
                                const QmPlan       *plan,
                                const QmEstimate   *e,
                                const QmPlanCurves *curves,
                                QmBytesUnit         unit,
                                QmPlanChartLayout  *layout_out)
{
  if (layout_out != NULL)
    {
      memset (layout_out, 0, sizeof *layout_out);
      layout_out->kind = kind;
    }

  switch (kind)
    {
    case QM_PLAN_CHART_GPUS_TIME:
      {
        g_autofree QmGpusTimeCurve *own = NULL;
        const QmGpusTimeCurve *curve = curves != NULL ? &curves->gpus_time : NULL;

        if (curve == NULL)
          {
            own = g_new0 (QmGpusTimeCurve, 1);
            qm_plan_curve (plan, e, own);
            curve = own;
          }
        qm_chart_render_gpus_time (frame, curve, layout_out ? &layout_out->gpus_time : NULL);
      }
      break;
    case QM_PLAN_CHART_VRAM:
      {
        QmMemoryBreakdown bars[QM_VRAM_MAX_BARS];
        const char *labels[QM_VRAM_MAX_BARS];
        char names[QM_VRAM_MAX_BARS][32];
        guint n = vram_bars (plan, e, bars, labels, names);

        qm_chart_render_vram (frame, bars, labels, n, unit, layout_out ? &layout_out->vram : NULL);
        if (layout_out != NULL)
          {
            layout_out->n_vram_bars = n;
            for (guint i = 0; i < n; i++)
              {
                layout_out->vram_bars[i] = bars[i];
                g_strlcpy (layout_out->vram_labels[i], labels[i], sizeof layout_out->vram_labels[i]);
              }
          }
      }
      break;
    case QM_PLAN_CHART_POWER:
      qm_chart_render_power (frame, &e->power, layout_out ? &layout_out->power : NULL);
      break;
    case QM_PLAN_CHART_RACKS:
      qm_chart_render_racks (frame, &e->cluster, &plan->hardware.server, &plan->hardware.network,
                             &plan->facility, layout_out ? &layout_out->racks : NULL);
      break;
    case QM_PLAN_CHART_LATENCY:
    case QM_PLAN_CHART_THROUGHPUT:
      {
        g_autofree QmPlanCurves *own = NULL;

        if (curves == NULL)
          {
            own = g_new0 (QmPlanCurves, 1);
            qm_plan_serving_curves (plan, e, &own->latency, &own->throughput);
            curves = own;
          }
        if (kind == QM_PLAN_CHART_LATENCY)
          qm_chart_render_serving (frame, &curves->latency,
                                   layout_out ? &layout_out->latency : NULL);
        else
          qm_chart_render_throughput (frame, &curves->throughput,
                                      layout_out ? &layout_out->throughput : NULL);
      }
      break;
    case QM_PLAN_CHART_CASHFLOW:
      {
        g_autofree QmQuote *quote = g_new0 (QmQuote, 1);

        qm_plan_chart_quote (plan, e, quote);
        qm_chart_render_cashflow (frame, quote, layout_out ? &layout_out->cashflow : NULL);
      }
      break;
    case QM_N_PLAN_CHARTS:
    default:
      g_return_if_reached ();
    }
}

/* What the memory chart stacks, part by part ("Weights 16.1 GB,
 * Gradients 16.1 GB, ..."): the summary says what is drawn (issue #37
 * item 8). */
static void
append_memory_parts (GString                 *out,
                     const QmMemoryBreakdown *m)
{
  if (qm_chart_vram_append_parts (out, m))
    g_string_append_c (out, '.');
}

/* The GPUs-time chart's curves: where adding GPUs stops paying and what
 * the run costs from the fewest GPUs drawn to the most. */
static void
append_gpus_time_curves (GString               *out,
                         const QmGpusTimeCurve *cv)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF], d[QM_FORMAT_BUF];
  int lo = -1, hi = -1;

  if (cv->knee >= 0 && (guint) cv->knee < cv->n)
    /* Translators: %s is a GPU count, where the chart marks its knee. */
    g_string_append_printf (out, _(" Knee at %s GPUs: past it, more GPUs do not pay."),
                            qm_format_number (a, sizeof a, cv->gpus[cv->knee], 0));
  for (guint i = 0; i < cv->n; i++)
    if (cv->cost[i] > 0)
      {
        if (lo < 0)
          lo = (int) i;
        hi = (int) i;
      }
  if (lo >= 0 && hi > lo)
    /* Translators: the cost curve: an amount at a GPU count, then another. */
    g_string_append_printf (out, _(" The run costs %s on %s GPUs and %s on %s GPUs."),
                            qm_format_money (a, sizeof a, cv->cost[lo], cv->currency),
                            qm_format_number (b, sizeof b, cv->gpus[lo], 0),
                            qm_format_money (c, sizeof c, cv->cost[hi], cv->currency),
                            qm_format_number (d, sizeof d, cv->gpus[hi], 0));
}

/* The likely range the chart shades (issue #36), in the words and
 * figures of the plan view's cards. */
static void
append_band (GString            *out,
             QmPlanChartKind     kind,
             const QmEstimate   *e,
             const QmPlanCurves *curves)
{
  char band[QM_FORMAT_BUF];

  if (curves == NULL)
    return;
  if (kind == QM_PLAN_CHART_GPUS_TIME && curves->gpus_time.has_band)
    /* Translators: %s is a range of days such as "23.8–31.5". */
    g_string_append_printf (out, _(" Shaded: the likely range (p10–p90), %s days for this plan."),
                            qm_estimate_band_format (e, QM_BAND_TRAIN_DAYS, band, sizeof band));
  else if (kind == QM_PLAN_CHART_THROUGHPUT && curves->throughput.has_band)
    /* Translators: %s is a range of throughputs such as "822–1,966". */
    g_string_append_printf (out, _(" Shaded: the likely range (p10–p90), %s tokens/s per GPU for this plan."),
                            qm_estimate_band_format (e, QM_BAND_TOKENS_PER_S_PER_GPU, band, sizeof band));
  else if (kind == QM_PLAN_CHART_LATENCY && curves->latency.capacity_low_rpm > 0)
    {
      char lo[QM_FORMAT_BUF], hi[QM_FORMAT_BUF];

      /* Translators: two request rates, the likely range of a capacity. */
      g_string_append_printf (out, _(" Shaded: the capacity's likely range (p10–p90), %s–%s requests/min."),
                              qm_format_number (lo, sizeof lo, curves->latency.capacity_low_rpm, 0),
                              qm_format_number (hi, sizeof hi, curves->latency.capacity_high_rpm, 0));
    }
}

char *
qm_plan_chart_describe_with_curves (QmPlanChartKind     kind,
                                    const QmPlan       *plan,
                                    const QmEstimate   *e,
                                    const QmPlanCurves *curves)
{
  g_autofree char *base = qm_plan_chart_describe (kind, plan, e);
  GString *out = g_string_new (base);

  if (kind == QM_PLAN_CHART_GPUS_TIME && curves != NULL)
    append_gpus_time_curves (out, &curves->gpus_time);
  append_band (out, kind, e, curves);
  return g_string_free (out, FALSE);
}

char *
qm_plan_chart_describe (QmPlanChartKind   kind,
                        const QmPlan     *plan,
                        const QmEstimate *e)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];

  switch (kind)
    {
    case QM_PLAN_CHART_GPUS_TIME:
      /* Translators: %s are a GPU count, then two durations such as "110 days". */
      return g_strdup_printf (_("Days to train against GPU count, log-log. This plan: %s GPUs, %s with failures, %s ideal."),
                              qm_format_number (a, sizeof a, e->gpus, 0),
                              qm_format_days (b, sizeof b, e->train_days),
                              qm_format_days (c, sizeof c, e->ideal_days));
    case QM_PLAN_CHART_VRAM:
      {
        GString *out = g_string_new (NULL);

        /* Translators: %s are two amounts of memory, then "fits" or "does not fit". */
        g_string_printf (out, _("Memory per GPU: %s of %s; %s."),
                         qm_format_bytes (a, sizeof a, e->memory.total, QM_BYTES_GB),
                         qm_format_bytes (b, sizeof b, e->memory.capacity, QM_BYTES_GB),
                         e->memory.fits ? _("fits") : _("does not fit"));
        g_string_append_c (out, ' ');
        append_memory_parts (out, &e->memory);
        return g_string_free (out, FALSE);
      }
    case QM_PLAN_CHART_POWER:
      /* Translators: %s are two powers such as "1.2 MW", then an energy
       * such as "76.3 MWh". */
      return g_strdup_printf (_("Power: %s provisioned and %s average at the facility meter; %s for the run."),
                              qm_format_si (a, sizeof a, e->power.facility_peak_kw * 1e3, "W"),
                              qm_format_si (b, sizeof b, e->power.facility_avg_kw * 1e3, "W"),
                              qm_format_energy (c, sizeof c, e->power.energy_mwh));
    case QM_PLAN_CHART_RACKS:
      {
        guint switches = e->cluster.switches + e->cluster.mgmt_switches;
        g_autofree char *count = NULL;
        /* Translators: the last %s is empty or ", liquid-cooled". */
        g_autofree char *layout = g_strdup_printf (_("Rack layout: %u racks for %u nodes, %u per rack%s."),
                                                   e->cluster.racks, e->cluster.nodes, e->cluster.nodes_per_rack,
                                                   e->cluster.liquid_cooling ? _(", liquid-cooled") : "");

        /* The one switch count the racks hold and the bill of materials
         * lists (its fabric switch lines, and the management switches). */
        if (switches == 0)
          return g_steal_pointer (&layout);
        /* Translators: after the rack layout's caption: all the switches
         * in the racks, then the fabric switches (as the bill of
         * materials lists them) and the management switches. */
        count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u switch in the racks: %u in the fabrics, %u for management.",
                                              "%u switches in the racks: %u in the fabrics, %u for management.",
                                              switches),
                                 switches, e->cluster.switches, e->cluster.mgmt_switches);
        return g_strdup_printf ("%s %s", layout, count);
      }
    case QM_PLAN_CHART_LATENCY:
      if (e->inference.fixed_fleet)
        {
          char d[QM_FORMAT_BUF];

          /* Translators: a request rate, a count of replicas, two latencies in
           * milliseconds, then the highest request rate the GPUs hold. */
          return g_strdup_printf (_("Latency against requests per minute. This plan: %s requests/min on %u replicas, "
                                    "time to first token %s ms and time per output token %s ms at the 99th percentile. "
                                    "Capacity: %s requests/min within the targets."),
                                  qm_format_number (a, sizeof a, plan->workload.inference.requests_per_minute, 0),
                                  e->inference.replicas,
                                  qm_format_number (b, sizeof b, e->inference.ttft_p99_ms, 0),
                                  qm_format_number (c, sizeof c, e->inference.tpot_p99_ms, 1),
                                  qm_format_number (d, sizeof d, e->inference.max_requests_per_s * 60.0, 0));
        }
      /* Translators: a request rate, a count of replicas, then two latencies in milliseconds. */
      return g_strdup_printf (_("Latency against requests per minute. This plan: %s requests/min on %u replicas, "
                                "time to first token %s ms and time per output token %s ms at the 99th percentile."),
                              qm_format_number (a, sizeof a, plan->workload.inference.requests_per_minute, 0),
                              e->inference.replicas,
                              qm_format_number (b, sizeof b, e->inference.ttft_p99_ms, 0),
                              qm_format_number (c, sizeof c, e->inference.tpot_p99_ms, 1));
    case QM_PLAN_CHART_THROUGHPUT:
      /* Translators: a count of sequences, output tokens per second, then a count of sequences. */
      return g_strdup_printf (_("Output tokens per second per GPU against sequences per replica. This plan: "
                                "%s sequences, %s tokens/s per GPU; a replica holds at most %s."),
                              qm_format_number (a, sizeof a, e->inference.concurrency, 0),
                              qm_format_number (b, sizeof b, e->inference.tokens_per_s_per_gpu, 0),
                              qm_format_number (c, sizeof c, e->inference.max_batch, 0));
    case QM_PLAN_CHART_CASHFLOW:
      {
        g_autofree QmQuote *q = g_new0 (QmQuote, 1);

        qm_plan_chart_quote (plan, e, q);
        qm_money_format (a, sizeof a, q->spend_total, q->exponent, q->currency);
        qm_money_format (b, sizeof b, q->rent_total, q->exponent, q->currency);
        if (q->break_even_valid)
          /* Translators: two amounts of money, then the month (a number) buying breaks even. */
          return g_strdup_printf (_("Cumulative cash flow by month: buying costs %s in all, renting the same GPUs %s; "
                                    "buying breaks even in month %u."),
                                  a, b, q->break_even_month);
        if (q->rent_total > 0)
          /* Translators: two amounts of money. */
          return g_strdup_printf (_("Cumulative cash flow by month: buying costs %s in all, renting the same GPUs %s; "
                                    "buying does not break even."), a, b);
        /* Translators: an amount of money, what a rent quote pays in all. */
        return g_strdup_printf (_("Cumulative cash flow by month: %s in all."), a);
      }
    case QM_N_PLAN_CHARTS:
    default:
      return g_strdup ("");
    }
}

gboolean
qm_plan_chart_export (QmPlanChartKind     kind,
                      const QmPlan       *plan,
                      const QmEstimate   *e,
                      const QmChartStyle *style,
                      double              width,
                      double              height,
                      const char         *path,
                      GError            **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  QmChartFrame frame = { NULL, style, width, height };
  gboolean png = g_str_has_suffix (path, ".png");

  if (!(width >= 50 && width <= 10000 && height >= 50 && height <= 10000))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The chart size must be 50 to 10000 pixels a side (got %g × %g)"), width, height);
      return FALSE;
    }

  if (png)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  else if (g_str_has_suffix (path, ".svg"))
    surface = cairo_svg_surface_create (path, width, height);
  else if (g_str_has_suffix (path, ".pdf"))
    surface = cairo_pdf_surface_create (path, width, height);
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is a file path. */
                   _("%s: the output must end in .png, .svg or .pdf"), path);
      return FALSE;
    }

  frame.cr = cairo_create (surface);
  qm_plan_chart_draw_with_layout (kind, &frame, plan, e, NULL, QM_BYTES_GB, NULL);
  cairo_destroy (frame.cr);
  if (png)
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   /* Translators: a file path, then the reason. */
                   _("Could not write %s: %s"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
