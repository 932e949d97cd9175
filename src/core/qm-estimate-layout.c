/* qm-estimate-layout.c: the gpus and layout stages: how many GPUs (given,
 * for a deadline with failures counted, or for a serving fleet) and how
 * they split the model (the plan's layout, or the throughput search).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-compute.h"
#include "qm-estimate-private.h"
#include "qm-parallel-private.h"


static void
fill_memory_config (const QmPlan   *plan,
                    const QmEstimate *e,
                    QmMemoryConfig *mc)
{
  const QmWorkload *w = &plan->workload;

  memset (mc, 0, sizeof *mc);
  mc->mode = w->mode;
  mc->precision = w->precision;
  mc->optimizer = w->optimizer;
  mc->zero_stage = w->zero_stage;
  mc->tp = e->parallelism.tp;
  mc->pp = e->parallelism.pp;
  mc->dp = e->parallelism.dp;
  mc->cp = e->parallelism.cp;
  mc->ep = e->parallelism.ep;
  mc->sequence_parallel = e->parallelism.sequence_parallel;
  mc->micro_batch = w->micro_batch;
  mc->seq_len = w->seq_len;
  mc->n_microbatches = w->global_batch / MAX (1u, w->micro_batch * e->parallelism.dp);
  mc->virtual_stages = e->parallelism.virtual_stages;
  mc->recompute = w->recompute;
  mc->recompute_layers = w->recompute_layers;
  mc->flash_attention = w->flash_attention;
  mc->lora_rank = w->lora_rank;
  mc->lora_targets = w->lora_targets;
  mc->fp32_grad_buffer = w->fp32_grad_buffer;
  mc->fp8_weights = w->fp8_weights;
  mc->shard_group = w->shard_group;
  mc->weight_precision = w->inference.weight_precision;
  mc->kv_precision = w->inference.kv_precision;
  /* Serving: the sequences in flight that qm-inference sized the replica for. */
  if (e->has_inference && e->inference.concurrency > 0)
    mc->batch = e->inference.concurrency;
  else
    mc->batch = w->inference.concurrency > 0 ? w->inference.concurrency : 1;
  mc->context = w->inference.input_tokens + w->inference.output_tokens;
  /* Training: the capacity the device reports (an "80 GB" H100 holds
   * 81,559 MiB); serving keeps its own basis (qm-inference). */
  mc->capacity_bytes = w->mode == QM_MODE_INFERENCE ? plan->hardware.gpu.memory_gb * 1e9
                       : qm_gpu_memory_bytes (&plan->hardware.gpu);
}

static gboolean
try_layout (const QmPlan       *plan,
            const QmModelShape *shape,
            QmEstimate         *e,
            guint               tp,
            guint               pp,
            guint               cp,
            guint               ep)
{
  QmMemoryConfig mc;

  e->parallelism.tp = tp;
  e->parallelism.pp = pp;
  e->parallelism.cp = cp;
  e->parallelism.dp = MAX (1u, e->gpus / (tp * pp * cp));
  e->parallelism.ep = ep;
  e->parallelism.sequence_parallel = plan->workload.sequence_parallel && tp > 1;
  fill_memory_config (plan, e, &mc);
  qm_memory_estimate (shape, &mc, &e->memory);
  return e->memory.fits;
}

/* ------------------------------------------------------------------ */
/* Training layout and MFU from the throughput model (qm-parallel).     */

/* Interleaved schedules the estimate tries for a layout the plan fixes
 * when workload.virtual_stages is "auto", like the search's (which goes to
 * the same bound, QM_PARALLEL_MAX_VIRTUAL in qm-parallel.c). */
#define QM_ESTIMATE_MAX_VIRTUAL 20

/* Deadline sizing: whole-node counts tried above the rounded need before
 * the coarser grid of 1, 1.25, 1.5 and 1.75 × 2^k nodes (the counts that
 * layouts with a power-of-two batch can use), up to this many times it. */
#define QM_ESTIMATE_DEADLINE_STEPS    16
#define QM_ESTIMATE_DEADLINE_MAX_GROW 8
#define QM_ESTIMATE_DEADLINE_ITERS    4

static void
set_parallelism (QmEstimate             *e,
                 const QmParallelLayout *l)
{
  e->parallelism.tp = l->tp;
  e->parallelism.pp = l->pp;
  e->parallelism.dp = l->dp;
  e->parallelism.cp = l->cp;
  e->parallelism.ep = l->ep;
  e->parallelism.micro_batch = l->micro_batch;
  e->parallelism.zero_stage = l->zero_stage;
  e->parallelism.recompute = l->recompute;
  e->parallelism.sequence_parallel = l->sequence_parallel;
  e->parallelism.virtual_stages = l->virtual_stages;
}

/* The layout the plan fixes, on @gpus GPUs (ep 1 when the plan leaves a
 * dense model's ep on auto). */
static void
plan_layout (const QmWorkload *w,
             guint             gpus,
             QmParallelLayout *l)
{
  memset (l, 0, sizeof *l);
  l->tp = MAX (w->tp, 1u);
  l->pp = MAX (w->pp, 1u);
  l->cp = MAX (w->cp, 1u);
  l->ep = MAX (w->ep, 1u);
  l->dp = MAX (1u, gpus / (l->tp * l->pp * l->cp));
  l->micro_batch = MAX (w->micro_batch, 1u);
  l->n_micro = MAX (1u, w->global_batch / (l->micro_batch * l->dp));
  l->virtual_stages = MAX (qm_workload_virtual_stages (w), 1u);
  l->zero_stage = w->zero_stage;
  l->recompute = w->recompute;
  l->sequence_parallel = w->sequence_parallel && l->tp > 1;
  l->shard_group = w->shard_group;
}

/* The batch nearest @batch that a layout of @gpus can divide: a multiple of
 * the odd part of the GPU count (tp and a power-of-two pp take the rest)
 * and the micro-batch. 0 when that is more than a quarter away. */
static guint
nearby_batch (guint batch,
              guint gpus,
              guint micro_batch)
{
  guint64 q = MAX (gpus, 1u);
  double k;

  while (q % 2 == 0)
    q /= 2;
  q *= MAX (micro_batch, 1u);
  k = MAX (1.0, round ((double) batch / q));
  if (fabs (k * q - batch) > 0.25 * batch || k * q > G_MAXUINT)
    return 0;
  return (guint) (k * q);
}

/* Price a fixed layout at its fastest interleaving that fits in memory
 * (interleaving keeps more activations, Korthikanti §4.2.3), or at its
 * fastest when none fits. FALSE when the model cannot price it (it does
 * not divide the batch, the heads, ...). */
static gboolean
price_layout (const QmParallelProblem *pb,
              QmParallelLayout        *l,
              QmParallelTime          *out)
{
  QmParallelLayout try = *l;
  QmParallelTime t;
  gboolean found = FALSE, found_fits = FALSE;
  guint v_lo = pb->virtual_stages > 0 ? pb->virtual_stages : 1;
  guint v_hi = pb->virtual_stages > 0 ? pb->virtual_stages
               : (l->pp > 1 ? QM_ESTIMATE_MAX_VIRTUAL : 1u);

  memset (out, 0, sizeof *out);
  for (guint v = v_lo; v <= v_hi; v++)
    {
      QmMemoryBreakdown mem;
      gboolean fits;

      try.virtual_stages = v;
      if (!qm_parallel_step_time (pb, &try, &t))
        continue;
      qm_parallel_memory (pb, &try, &mem);
      fits = mem.fits;
      if (!found || (fits && !found_fits) || (fits == found_fits && t.step < out->step))
        {
          *out = t;
          l->virtual_stages = v;
          found = TRUE;
          found_fits = fits;
        }
    }
  return found;
}

/* A fixed layout whose dp·micro_batch does not divide the batch: price
 * it at the nearest batch that it divides (p->global_batch is set). */
static gboolean
relax_and_price (QmParallelProblem *p,
                 QmParallelLayout  *l,
                 QmParallelTime    *t)
{
  guint q = l->dp * l->micro_batch;
  guint b = MAX (1u, (guint) round ((double) p->global_batch / q)) * q;

  if (b == p->global_batch || fabs ((double) b - p->global_batch) > 0.25 * p->global_batch)
    return FALSE;
  p->global_batch = b;
  l->n_micro = b / q;
  return price_layout (p, l, t);
}

/* Can @gpus run the plan: a layout keeps the plan's global batch (dp ×
 * micro-batch × accumulation steps = batch, no nearby batch) and,
 * searched, fits? The predicted MFU there in *mfu. The deadline sizing
 * calls this for many counts, so it uses the search without the no-fit
 * what-ifs (the curve). */
static gboolean
count_feasible (const QmParallelProblem *pb,
                const QmWorkload        *w,
                gboolean                 searched,
                guint                    gpus,
                double                  *mfu)
{
  QmParallelProblem p = *pb;

  p.gpus = gpus;
  if (searched)
    {
      QmParallelCurvePoint pt;
      QmParallelCurve curve;

      qm_parallel_curve (&p, 0, &gpus, 1, &pt, &curve);
      *mfu = pt.mfu;
      return pt.fits && pt.mfu > 0;
    }
  else
    {
      QmParallelLayout l;
      QmParallelTime t;

      plan_layout (w, gpus, &l);
      if (!price_layout (&p, &l, &t))
        return FALSE;
      *mfu = t.mfu;
      return t.mfu > 0;
    }
}

/* The first count from @from (a multiple of @step) on which the plan runs:
 * whole steps first, then the 1/1.25/1.5/1.75 × 2^k grid. 0 = none. */
static guint
first_feasible (const QmParallelProblem *pb,
                const QmWorkload        *w,
                gboolean                 searched,
                guint                    from,
                guint                    step,
                double                  *mfu)
{
  guint64 last = 0;
  guint64 limit = (guint64) from * QM_ESTIMATE_DEADLINE_MAX_GROW;

  for (guint k = 0; k < QM_ESTIMATE_DEADLINE_STEPS; k++)
    {
      guint64 g = from + (guint64) k * step;

      if (g > G_MAXUINT / 2)
        return 0;
      if (count_feasible (pb, w, searched, (guint) g, mfu))
        return (guint) g;
      last = g;
    }
  for (guint64 p2 = 1; p2 <= limit; p2 *= 2)
    for (guint m = 4; m <= 7; m++)
      {
        guint64 g = p2 * m / 4;

        if ((p2 * m) % 4 != 0 || g <= last || g % step != 0 || g > limit || g > G_MAXUINT / 2)
          continue;
        last = g;
        if (count_feasible (pb, w, searched, (guint) g, mfu))
          return (guint) g;
      }
  return 0;
}

/* The first count from @from (in steps of @step, whole nodes of the fixed
 * tp·pp·cp) whose data-parallel degree divides the plan's batch with its
 * micro-batch: dp × micro-batch × accumulation steps = batch. @from when
 * none does within QM_ESTIMATE_DEADLINE_MAX_GROW times it (the batch
 * warning then says so). */
static guint
batch_keeping_gpus (const QmWorkload *w,
                    guint             from,
                    guint             step)
{
  guint64 mp = (guint64) MAX (w->tp, 1u) * MAX (w->pp, 1u) * MAX (w->cp, 1u);
  guint64 mb = MAX (w->micro_batch, 1u);

  step = MAX (step, 1u);
  for (guint64 g = from; g <= (guint64) from * QM_ESTIMATE_DEADLINE_MAX_GROW && g <= G_MAXUINT / 2;
       g += step)
    if (g % mp == 0 && w->global_batch % ((g / mp) * mb) == 0)
      return (guint) g;
  return from;
}

/* The goodput a training run on @gpus would get (qm-reliability, Daly's
 * complete model), for the deadline sizing before the cluster exists:
 * checkpoints written in QM_ESTIMATE_CHECKPOINT_TARGET_S (the storage is
 * sized for that; more capacity only writes faster) or at the speed of the
 * servers' own drives. */
static double
deadline_goodput (const QmPlan       *plan,
                  const QmModelShape *shape,
                  const QmEstimate   *e,
                  guint               gpus,
                  double              ideal_s)
{
  const QmStorageSpec *st = qm_estimate_plan_storage (plan);
  QmReliabilityInput ri = { 0, };
  QmReliability r;
  guint gpn = MAX (plan->hardware.server.gpus, 1u);

  if (!qm_failure_preset_from_string (plan->reliability_preset, &ri.preset))
    ri.preset = QM_FAILURE_LLAMA3_PRODUCTION;
  ri.gpus = gpus;
  ri.ideal_s = ideal_s;
  ri.checkpoint_bytes = qm_estimate_checkpoint_bytes (plan, shape, e->params);
  if (qm_estimate_storage_in_servers (st))
    ri.write_bytes_per_s = (double) ((gpus + gpn - 1) / gpn) * plan->hardware.server.nvme_tb
                           * st->write_gbs_per_tb * 1e9;
  else
    ri.write_bytes_per_s = ri.checkpoint_bytes / QM_ESTIMATE_CHECKPOINT_TARGET_S;
  ri.restart_s = plan->restart_minutes * 60.0;
  ri.rule = QM_CHECKPOINT_INTERVAL_DALY;
  qm_reliability_compute (&ri, &r);
  return r.goodput > 0 ? r.goodput : 1.0;
}

/* GPUs for a deadline when the throughput model runs: the fewest whole
 * nodes on which a layout keeps the plan's batch, fits and finishes in
 * time with failures counted (checkpoints, lost work and restarts, Daly's
 * complete model: qm-reliability). Both the MFU and the goodput fall as
 * GPUs are added, so the need is iterated: size at the current MFU and
 * goodput, predict both there, size again. */
static guint
gpus_for_deadline (const QmPlan            *plan,
                   const QmParallelProblem *pb,
                   const QmWorkload        *w,
                   QmEstimate              *e,
                   gboolean                 searched,
                   gboolean                 predict,
                   guint                    gpn,
                   guint                    mp_fixed,
                   double                  *raw_out,
                   double                  *mfu_out,
                   double                  *goodput_out)
{
  double deadline_s = w->deadline_days * 86400.0;
  double mfu = e->mfu, m = 0, raw = 0, good = 1.0;

  /* Met at the plan's confidence (issue #36): the time the error model
   * says the run takes at that quantile, v · (1 + error), must fit. At
   * 0.5 the error is 0: the estimate itself. */
  if (predict && w->deadline_confidence > QM_ACCURACY_CONFIDENCE_DEFAULT)
    {
      QmAccuracyFit fit;

      qm_estimate_training_fit (plan, &fit);
      deadline_s /= 1.0 + qm_accuracy_error_at (&fit, w->deadline_confidence);
    }
  guint step = qm_compute_round_gpus (0, gpn, mp_fixed);
  guint g = 0;

  for (guint it = 0; it < QM_ESTIMATE_DEADLINE_ITERS + 2; it++)
    {
      guint c;
      double ideal;

      raw = qm_compute_gpus_for_time (e->training_flops, deadline_s * good, e->peak_flops, mfu);
      c = first_feasible (pb, w, searched, qm_compute_round_gpus (raw, gpn, mp_fixed), step, &m);
      if (c == 0)
        break;
      if (!predict)
        m = e->mfu;
      ideal = qm_compute_seconds (e->training_flops, c, e->peak_flops, m);
      if (c == g)
        break;
      g = c;
      *mfu_out = m;
      mfu = m;
      good = deadline_goodput (plan, &pb->shape, e, g, ideal);
    }
  if (g == 0)
    {
      /* No count runs the plan: the layout step below says why. */
      *raw_out = raw;
      *mfu_out = e->mfu;
      *goodput_out = good;
      return qm_compute_round_gpus (raw, gpn, mp_fixed);
    }
  /* The last iterate may still miss the deadline, failures included. */
  for (guint k = 0; k < QM_ESTIMATE_DEADLINE_STEPS; k++)
    {
      double ideal = qm_compute_seconds (e->training_flops, g, e->peak_flops, *mfu_out);
      guint c;

      good = deadline_goodput (plan, &pb->shape, e, g, ideal);
      if (ideal / good <= deadline_s)
        break;
      c = first_feasible (pb, w, searched, g + step, step, &m);
      if (c == 0)
        break;
      g = c;
      *mfu_out = predict ? m : e->mfu;
    }
  good = deadline_goodput (plan, &pb->shape, e, g, qm_compute_seconds (e->training_flops, g, e->peak_flops,
                                                          *mfu_out));
  *goodput_out = good;
  *raw_out = qm_compute_gpus_for_time (e->training_flops, deadline_s * good, e->peak_flops,
                                       *mfu_out);
  return g;
}

/* A not-fitting layout the plan fixed: what would make it fit. Only on
 * this (rare) path, as the what-ifs search several times. */
static void
explain_no_fit (const QmParallelProblem *pb,
                QmEstimate              *e)
{
  QmParallelSearch res;

  qm_parallel_search (pb, 1, &res);
  if (res.n == 0)
    e->no_fit = res.no_fit;
}

static void
warn_no_fit (QmEstimate *e,
             QmNoteId    id,
             double      v0,
             double      v1,
             double      v2)
{
  const QmParallelNoFit *nf = &e->no_fit;
  const double v[] = {
    v0, v1, v2, nf->valid ? nf->fixes : 0, nf->fix_gpus, ceil (nf->fix_capacity_bytes / 1e9),
  };

  qm_estimate_warn_v (e, id, v, G_N_ELEMENTS (v));
}

/* The old stand-in when no layout divides the batch: tp inside the node,
 * as far as the heads and GPUs allow, so that memory can still be shown. */
static void
fallback_layout (const QmWorkload   *w,
                 const QmModelShape *shape,
                 guint               gpus,
                 guint               gpn,
                 QmParallelLayout   *l)
{
  plan_layout (w, gpus, l);
  if (w->tp == 0)
    {
      guint heads = MAX (shape->heads, 1u);

      l->tp = 1;
      while (l->tp * 2 <= gpn && heads % (l->tp * 2) == 0 &&
             gpus % (l->tp * 2 * l->pp * l->cp) == 0)
        l->tp *= 2;
    }
  l->dp = MAX (1u, gpus / (l->tp * l->pp * l->cp));
  l->n_micro = MAX (1u, w->global_batch / (l->micro_batch * l->dp));
  l->sequence_parallel = w->sequence_parallel && l->tp > 1;
}

/* Layout, memory and (when @predict) the MFU of a training plan from the
 * throughput model: the search when @searched, else the plan's layout. */
static void
model_layout (const QmPlan            *plan,
              const QmModelShape      *shape,
              const QmParallelProblem *pb,
              QmEstimate              *e,
              gboolean                 searched,
              guint                    gpn)
{
  const QmWorkload *w = &plan->workload;
  QmParallelLayout l;

  if (searched)
    {
      QmParallelSearch res;
      QmParallelProblem relaxed;

      qm_parallel_search (pb, 1, &res);
      if (res.n == 0 && (res.no_fit.fixes & QM_PARALLEL_FIX_GLOBAL_BATCH))
        {
          relaxed = *pb;
          relaxed.global_batch = nearby_batch (pb->global_batch, pb->gpus, w->micro_batch);
          if (relaxed.global_batch > 0)
            {
              pb = &relaxed;
              e->priced_global_batch = relaxed.global_batch;
              qm_parallel_search (pb, 1, &res);
            }
        }
      e->layouts_evaluated = res.evaluated;
      if (res.n > 0)
        {
          const QmParallelResult *best = &res.top[0];
          const double v[] = {
            best->layout.tp, best->layout.pp, best->layout.cp, best->layout.ep,
            best->layout.virtual_stages, res.evaluated,
          };

          set_parallelism (e, &best->layout);
          e->memory = best->memory;
          e->step_time = best->time;
          e->has_step_time = TRUE;
          qm_estimate_assume_v (e, QM_NOTE_PARALLEL_AUTO, v, G_N_ELEMENTS (v));
          return;
        }
      e->no_fit = res.no_fit;
      if (res.no_fit.layouts_tried > 0)
        {
          /* The closest layout, priced as it is: its time is what the
           * plan would take on GPUs that held it. */
          l = res.no_fit.best_layout;
          e->memory = res.no_fit.best_memory;
          e->has_step_time = price_layout (pb, &l, &e->step_time);
          warn_no_fit (e, QM_NOTE_NO_LAYOUT_FITS, e->gpus, e->memory.total / 1e9,
                       res.no_fit.shortfall_bytes / 1e9);
        }
      else
        {
          fallback_layout (w, shape, e->gpus, gpn, &l);
          qm_parallel_memory (pb, &l, &e->memory);
          warn_no_fit (e, QM_NOTE_NO_LAYOUT_FITS, e->gpus, w->global_batch, 0);
        }
      set_parallelism (e, &l);
      return;
    }

  /* The plan fixes the layout and omits the MFU: price that layout. */
  plan_layout (w, e->gpus, &l);
  e->has_step_time = price_layout (pb, &l, &e->step_time);
  if (!e->has_step_time)
    {
      QmParallelProblem relaxed = *pb;

      e->has_step_time = relax_and_price (&relaxed, &l, &e->step_time);
      if (e->has_step_time)
        e->priced_global_batch = relaxed.global_batch;
      l.n_micro = MAX (1u, w->global_batch / (l.micro_batch * l.dp));
    }
  set_parallelism (e, &l);
  qm_parallel_memory (pb, &l, &e->memory);
  if (!e->memory.fits)
    explain_no_fit (pb, e);
}

/* The plan fixes the layout and gives the MFU: no throughput model, the
 * hot path (issue #3: a million estimates a second). */
static void
fixed_layout (const QmPlan       *plan,
              const QmModelShape *shape,
              QmEstimate         *e)
{
  const QmWorkload *w = &plan->workload;

  /* The plan's interleaving, or 1F1B without it: with the MFU given no
   * search runs, so "auto" is priced as the engines' default too. */
  e->parallelism.virtual_stages = MAX (qm_workload_virtual_stages (w), 1u);
  try_layout (plan, shape, e, MAX (w->tp, 1u), MAX (w->pp, 1u), MAX (w->cp, 1u),
              MAX (w->ep, 1u));
}

/* A deadline with the MFU and the layout given: size on the
 * failure-adjusted time too; the goodput falls with the count, so iterate
 * to a fixed point. */
static guint
gpus_for_deadline_fixed (const QmPlan      *plan,
                         QmEstimateContext *ctx,
                         QmEstimate        *e,
                         double            *raw_out,
                         double            *goodput_out)
{
  const QmWorkload *w = &plan->workload;
  double deadline_s = w->deadline_days * 86400.0;
  double raw = 0, good = 1.0;
  guint gpus = 0;

  for (guint it = 0; it < QM_ESTIMATE_DEADLINE_ITERS + 4; it++)
    {
      guint g;

      raw = qm_compute_gpus_for_time (e->training_flops, deadline_s * good,
                                      e->peak_flops, e->mfu);
      g = batch_keeping_gpus (w, qm_compute_round_gpus (raw, ctx->gpn, ctx->mp_fixed),
                              qm_compute_round_gpus (0, ctx->gpn, ctx->mp_fixed));
      good = deadline_goodput (plan, &ctx->shape, e, g, qm_compute_seconds (e->training_flops, g,
                                                                           e->peak_flops, e->mfu));
      if (g <= gpus)
        break;
      gpus = g;
    }
  *raw_out = raw;
  *goodput_out = good;
  return gpus;
}

/* The gpus stage: which path lays the plan out (the throughput model runs
 * when the plan leaves a layout knob or the MFU to us; a dense model's ep
 * on auto is simply 1), then the GPUs: fixed, or enough for the deadline
 * in whole nodes, or (serving) enough for the request rate in whole
 * nodes; and the nodes that hold them. */
gboolean
qm_estimate_stage_gpus (const QmPlan      *plan,
                        QmEstimateContext *ctx,
                        QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;
  guint gpn = ctx->gpn;

  ctx->searched = w->tp == 0 || w->pp == 0 || w->cp == 0 ||
                  (w->ep == 0 && qm_model_is_moe (&ctx->shape));
  ctx->predict = e->mfu_source != QM_MFU_SOURCE_GIVEN;
  ctx->use_model = e->has_training && e->peak_flops > 0 && (ctx->searched || ctx->predict);
  if (ctx->use_model)
    {
      qm_parallel_problem_from_plan (plan, 0, &ctx->pb);
      ctx->pb.shape = ctx->shape;   /* inferred from params_b when the plan has none */
    }

  if (w->target_gpus > 0)
    {
      e->gpus = w->target_gpus;
      if (e->has_inference && e->inference.gpus > e->gpus)
        qm_estimate_warn (e, QM_NOTE_INFERENCE_MORE_GPUS, e->gpus, e->inference.gpus, 0, 0);
    }
  else if (w->deadline_days > 0 && e->has_training && e->peak_flops > 0)
    {
      double raw, mfu = e->mfu, good = 1.0;
      const double *v;

      if (ctx->use_model)
        e->gpus = gpus_for_deadline (plan, &ctx->pb, w, e, ctx->searched, ctx->predict, gpn,
                                     ctx->mp_fixed, &raw, &mfu, &good);
      else
        e->gpus = gpus_for_deadline_fixed (plan, ctx, e, &raw, &good);
      v = (const double[]) { w->deadline_days, raw, 100.0 * mfu, 100.0 * good, e->gpus, gpn };
      qm_estimate_assume_v (e, QM_NOTE_GPUS_FOR_DEADLINE, v, 6);
    }
  else if (!e->has_training)
    e->gpus = (MAX (e->inference.gpus, 1u) + gpn - 1) / gpn * gpn;
  /* Serving: GPUs rented that no replica uses (the last node's rest, or a
   * fixed fleet that is not whole replicas) are said, not hidden. */
  if (e->has_inference && e->gpus > e->inference.gpus)
    {
      e->inference.idle_gpus = e->gpus - e->inference.gpus;
      qm_estimate_assume (e, QM_NOTE_INFERENCE_SPARE_GPUS, e->inference.idle_gpus, e->gpus,
                          e->inference.gpus_per_replica, 0);
    }
  if (e->gpus == 0)
    {
      qm_estimate_warn (e, e->peak_flops > 0 ? QM_NOTE_NO_GPUS : QM_NOTE_NO_PEAK, 0, 0, 0, 0);
      e->valid = FALSE;
      return FALSE;
    }
  if (e->gpus < ctx->mp_fixed)
    {
      qm_estimate_warn (e, QM_NOTE_NOT_ENOUGH_GPUS, e->gpus, ctx->mp_fixed, ctx->mp_fixed, 0);
      e->gpus = ctx->mp_fixed;
    }
  e->nodes = (e->gpus + gpn - 1) / gpn;
  return TRUE;
}

/* Serving: the replica that qm-inference sized, unless the plan fixes
 * tp/pp. */
static void
serving_layout (const QmPlan      *plan,
                QmEstimateContext *ctx,
                QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;
  guint gpr = e->inference.gpus_per_replica;
  guint tp = w->tp > 0 ? w->tp : MIN (gpr, ctx->gpn);

  try_layout (plan, &ctx->shape, e, tp, w->pp > 0 ? w->pp : MAX (gpr / tp, 1u), 1,
              w->ep > 0 ? w->ep : 1);
  /* One "fits" for the memory page and serving (issue 18): the serving
   * engine's own budget on the device's real bytes (qm_serving_fits). */
  if (e->inference.fits || e->inference.weights_per_gpu_bytes > 0)
    {
      QmMemoryBreakdown *m = &e->memory;
      const QmInference *inf = &e->inference;

      memset (m, 0, sizeof *m);
      m->weights = inf->weights_per_gpu_bytes;
      m->activations = inf->workspace_per_gpu_bytes;
      m->kv_cache = inf->kv_per_gpu_bytes;
      m->overhead = inf->reserve_per_gpu_bytes;
      m->total = inf->memory_per_gpu_bytes;
      m->capacity = inf->capacity_per_gpu_bytes;
      m->margin = m->capacity - m->total;
      m->fits = inf->fits;
    }
}

/* The assumptions a training layout rests on: the pipeline schedule
 * (interleaving, as the plan gives it or the search chose it) and, when
 * the throughput model priced it, where the GPU's GEMM efficiency comes
 * from if it was not measured on that GPU. */
static void
note_layout_assumptions (const QmPlan            *plan,
                         const QmEstimateContext *ctx,
                         QmEstimate              *e)
{
  const QmGpuSpec *gpu = &plan->hardware.gpu;
  const QmParallelism *par = &e->parallelism;
  double m = MAX (1u, plan->workload.global_batch / MAX (1u, par->micro_batch * MAX (par->dp, 1u)));

  if (par->pp > 1)
    {
      if (ctx->use_model && ctx->pb.virtual_stages == 0)
        qm_estimate_assume (e, QM_NOTE_SCHEDULE_SEARCH, MAX (par->virtual_stages, 1u), par->pp, 0, 0);
      else if (par->virtual_stages > 1)
        qm_estimate_assume (e, QM_NOTE_SCHEDULE_INTERLEAVED, par->virtual_stages, par->pp, m, 0);
      else
        qm_estimate_assume (e, QM_NOTE_SCHEDULE_1F1B, par->pp, m, 0, 0);
    }
  if (!ctx->use_model)
    return;
  if (!(gpu->mamf_fraction > 0))
    qm_estimate_assume_s (e, QM_NOTE_MAMF_DEFAULT, gpu->info.id, NULL, QM_PARALLEL_MAMF_DEFAULT, 0, 0);
  else if (gpu->mamf_same_as != NULL && gpu->mamf_same_as[0] != '\0')
    qm_estimate_assume_s (e, QM_NOTE_MAMF_SAME_AS, gpu->info.id, gpu->mamf_same_as,
                          gpu->mamf_fraction, 0, 0);
}

/* The layout stage: the parallel layout and the per-GPU memory (the
 * search finds both at once), the MFU the throughput model predicts for
 * it, and whether it fits. */
gboolean
qm_estimate_stage_layout (const QmPlan      *plan,
                          QmEstimateContext *ctx,
                          QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;

  if (e->has_inference && e->inference.gpus_per_replica > 0)
    serving_layout (plan, ctx, e);
  else if (ctx->use_model)
    {
      ctx->pb.gpus = e->gpus;
      model_layout (plan, &ctx->shape, &ctx->pb, e, ctx->searched, ctx->gpn);
      if (ctx->predict && e->has_step_time && e->step_time.mfu > 0)
        {
          e->mfu = e->step_time.mfu;
          e->mfu_source = QM_MFU_SOURCE_PREDICTED;
        }
    }
  else
    {
      fixed_layout (plan, &ctx->shape, e);
      /* A fixed layout that does not fit: what would (the rare path). */
      if (e->has_training && !e->memory.fits && e->peak_flops > 0)
        {
          qm_parallel_problem_from_plan (plan, e->gpus, &ctx->pb);
          ctx->pb.shape = ctx->shape;
          explain_no_fit (&ctx->pb, e);
        }
    }
  if (e->has_inference)
    {
      e->parallelism.micro_batch = w->micro_batch;
      e->parallelism.zero_stage = w->zero_stage;
      e->parallelism.recompute = w->recompute;
      e->parallelism.virtual_stages = 1;
    }
  else if (!ctx->use_model)
    {
      e->parallelism.micro_batch = w->micro_batch;
      e->parallelism.zero_stage = w->zero_stage;
      e->parallelism.recompute = w->recompute;
    }
  if (e->has_training && !e->has_inference)
    note_layout_assumptions (plan, ctx, e);
  e->fits = e->memory.fits;
  /* No layout of the search fits: QM_NOTE_NO_LAYOUT_FITS says it all. */
  if (!e->fits && !(ctx->use_model && ctx->searched))
    warn_no_fit (e, QM_NOTE_DOES_NOT_FIT, e->memory.total / 1e9, e->memory.capacity / 1e9, 0);
  return TRUE;
}
