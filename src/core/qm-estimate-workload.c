/* qm-estimate-workload.c: the training stages around the layout: the
 * workload (model, FLOPs, MFU), the time it takes, and the memory
 * assumptions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-compute.h"
#include "qm-estimate-private.h"

static void
add_error (QmEstimate *e,
           const char *field,
           const char *message,
           double      value)
{
  QmIssue issue = { QM_ISSUE_ERROR, field, message, qm_estimate_finite_or_zero (value) };

  qm_estimate_add_issue (e, &issue);
}

/* The workload stage: the model (a shape, or params_b alone, into
 * ctx->shape), its parameters, the GPU's peak and the MFU (given or the
 * family's default; the layout stage may predict it), and for training the
 * tokens and FLOPs. */
gboolean
qm_estimate_stage_workload (const QmPlan      *plan,
                            QmEstimateContext *ctx,
                            QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;
  const QmGpuSpec *gpu = &plan->hardware.gpu;
  QmModelShape *shape = &ctx->shape;
  QmParamCount pc;
  QmTrainingFlops tf = { 0 };

  if (!qm_model_has_shape (shape))
    {
      if (!(shape->params_hint > 0 && isfinite (shape->params_hint)))
        {
          qm_estimate_warn (e, QM_NOTE_NO_MODEL, 0, 0, 0, 0);
          e->valid = FALSE;
          return FALSE;
        }
      qm_model_shape_infer (shape->params_hint, shape);
      qm_estimate_assume (e, QM_NOTE_SHAPE_INFERRED, shape->params_hint / 1e9,
                          shape->layers, shape->hidden, qm_model_params (shape) / 1e9);
    }
  else if (shape->params_hint > 0 &&
           fabs (qm_model_params (shape) / shape->params_hint - 1.0) > 0.05)
    {
      qm_estimate_warn (e, QM_NOTE_PARAMS_HINT_MISMATCH, shape->params_hint / 1e9,
                        qm_model_params (shape) / 1e9, 0, 0);
    }
  qm_model_count_params (shape, &pc);
  e->params = pc.total;
  e->active_params = pc.active;

  /* Compute and the MFU. */
  e->peak_flops = qm_compute_peak_flops (gpu, w->precision);
  if (e->peak_flops > 0 && !(gpu->tflops[w->precision] > 0))
    qm_estimate_assume (e, QM_NOTE_PEAK_FALLBACK, e->peak_flops / 1e12, 0, 0, 0);
  if (w->mfu > 0 && w->mfu <= 1)
    {
      e->mfu = w->mfu;
      e->mfu_source = QM_MFU_SOURCE_GIVEN;
    }
  else
    {
      e->mfu = qm_compute_default_mfu (gpu->family);
      e->mfu_source = QM_MFU_SOURCE_DEFAULT;
    }

  if (!e->has_training)
    return TRUE;
  e->tokens = w->tokens * w->epochs;
  if (!(isfinite (e->tokens) && e->tokens > 0))
    {
      add_error (e, isfinite (w->tokens) && w->tokens > 0 ? "workload.epochs"
                                                          : "workload.tokens_b",
                 "must be > 0",
                 isfinite (w->tokens) && w->tokens > 0 ? w->epochs : w->tokens / 1e9);
      e->tokens = 0;
      e->valid = FALSE;
      return FALSE;
    }
  qm_compute_training_flops_for_mode (shape, w->mode, e->tokens, w->seq_len, w->recompute, &tf);
  e->training_flops = tf.model_flops;
  e->training_flops_6nd = tf.flops_6nd;
  e->hardware_flops = tf.hardware_flops;
  return TRUE;
}

/* The MFU note: given, the family default, or predicted with the step's
 * breakdown. */
static void
assume_mfu (QmEstimate *e)
{
  if (e->mfu_source == QM_MFU_SOURCE_PREDICTED)
    {
      const QmParallelTime *t = &e->step_time;
      double step = t->step > 0 ? t->step : 1.0;
      double comm = t->tp_comm + t->pp_comm + t->dp_comm + t->zero_comm + t->cp_comm
                    + t->ep_comm;
      const double v[] = {
        100.0 * e->mfu, t->step, 100.0 * t->compute / step, 100.0 * comm / step,
        100.0 * t->bubble / step, 100.0 * (t->recompute + t->optimizer) / step,
      };

      qm_estimate_assume_v (e, QM_NOTE_MFU_PREDICTED, v, G_N_ELEMENTS (v));
    }
  else
    qm_estimate_assume (e, e->mfu_source == QM_MFU_SOURCE_GIVEN
                        ? QM_NOTE_MFU_GIVEN : QM_NOTE_MFU_DEFAULT, 100.0 * e->mfu, 0, 0, 0);
}

/* The time stage: the failure-free training time on e->gpus at e->mfu
 * (reliability adds the failures), and its assumptions; for serving, the
 * period that power and cost run over. */
gboolean
qm_estimate_stage_time (const QmPlan      *plan,
                        QmEstimateContext *ctx,
                        QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;
  const QmGpuSpec *gpu = &plan->hardware.gpu;
  double seconds;

  if (!e->has_training)
    {
      e->run_s = QM_HOURS_PER_MONTH * 3600.0;
      return TRUE;
    }
  seconds = qm_compute_seconds (e->training_flops, e->gpus, e->peak_flops, e->mfu);
  if (!(seconds > 0 && isfinite (seconds)))
    {
      qm_estimate_warn (e, QM_NOTE_NO_PEAK, 0, 0, 0, 0);
      e->valid = FALSE;
      return FALSE;
    }
  e->ideal_days = seconds / 86400.0;
  /* Until the reliability stage runs, the failure-free figures. */
  e->train_days = e->ideal_days;
  e->gpu_hours = e->gpus * e->train_days * 24.0;

  qm_estimate_assume (e, QM_NOTE_FLOPS_BASIS, e->active_params, e->tokens,
                      e->training_flops_6nd,
                      e->training_flops_6nd > 0
                      ? 100.0 * (e->training_flops / e->training_flops_6nd - 1.0) : 0);
  switch (w->recompute)
    {
    case QM_RECOMPUTE_SELECTIVE:
      qm_estimate_assume (e, QM_NOTE_HARDWARE_FLOPS_SELECTIVE,
                          100.0 * (e->hardware_flops / e->training_flops - 1.0), 0, 0, 0);
      break;
    case QM_RECOMPUTE_FULL:
      qm_estimate_assume (e, QM_NOTE_HARDWARE_FLOPS_FULL,
                          100.0 * (e->hardware_flops / e->training_flops - 1.0), 0, 0, 0);
      break;
    case QM_RECOMPUTE_SELECTIVE_OP:
      qm_estimate_assume (e, QM_NOTE_HARDWARE_FLOPS_SELECTIVE_OP,
                          100.0 * (e->hardware_flops / e->training_flops - 1.0), 0, 0, 0);
      break;
    case QM_RECOMPUTE_NONE:
    default:
      qm_estimate_assume (e, QM_NOTE_HARDWARE_FLOPS_NONE, 0, 0, 0, 0);
      break;
    }
  assume_mfu (e);
  if (e->mfu_source == QM_MFU_SOURCE_GIVEN && gpu->mamf_fraction > 0 &&
      e->mfu > gpu->mamf_fraction)
    qm_estimate_warn (e, QM_NOTE_MFU_ABOVE_CEILING, 100.0 * e->mfu,
                      100.0 * gpu->mamf_fraction, 0, 0);
  qm_estimate_assume (e, QM_NOTE_SEED_RULE,
                      qm_compute_seed_rule_gpus (e->tokens / 1e9, 1.0, e->active_params / 1e9,
                                                 e->ideal_days * 24.0),
                      e->ideal_days * 24.0, 0, 0);
  return TRUE;
}

/* The memory stage (training): how the layout stage's per-GPU memory was
 * counted, and whether the layout divides the batch. It runs after the
 * time stage so that the notes keep their reading order. */
gboolean
qm_estimate_stage_memory (const QmPlan      *plan,
                          QmEstimateContext *ctx,
                          QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;
  const QmParallelism *par = &e->parallelism;
  gboolean fp8_weights = w->fp8_weights && w->precision == QM_PRECISION_FP8;

  if (!e->has_training)
    return TRUE;
  if (w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA)
    qm_estimate_assume (e, w->mode == QM_MODE_QLORA ? QM_NOTE_QLORA
                        : w->lora_targets == QM_LORA_TARGETS_ATTENTION ? QM_NOTE_LORA_ATTENTION
                        : fp8_weights ? QM_NOTE_LORA_FROZEN : QM_NOTE_LORA,
                        MAX (w->lora_rank, 1u),
                        qm_memory_lora_params_for (&ctx->shape, MAX (w->lora_rank, 1u),
                                                   w->lora_targets) / 1e6, 0, 0);
  {
    gboolean fp32 = w->precision == QM_PRECISION_FP32 || w->precision == QM_PRECISION_TF32;
    double per_param = fp32 ? 8.0 : 8.0 + (w->fp32_grad_buffer ? 2.0 : 0.0)
                                    - (fp8_weights ? 1.0 : 0.0);
    static const double opt[] = { 8.0, 2.0, 4.0, 0.0 };

    per_param += opt[MIN ((guint) w->optimizer, 3u)];
    qm_estimate_assume (e, QM_NOTE_MODEL_STATES, per_param, w->zero_stage, par->dp, 0);
  }
  if (w->fp32_grad_buffer)
    qm_estimate_assume (e, QM_NOTE_FP32_GRAD_BUFFER, 0, 0, 0, 0);
  if (fp8_weights)
    qm_estimate_assume (e, QM_NOTE_FP8_WEIGHTS, 0, 0, 0, 0);
  else if (w->precision == QM_PRECISION_FP8)
    qm_estimate_assume (e, QM_NOTE_FP8_MEMORY, 0, 0, 0, 0);
  {
    QmPipelineStages st;
    guint pp = MAX (par->pp, 1u), v = MAX (par->virtual_stages, 1u);
    guint dp = MAX (par->dp, 1u), mb = MAX (par->micro_batch, 1u);

    if (!qm_memory_pipeline_stages (ctx->shape.layers, pp, v, &st))
      {
        v = 1;
        qm_memory_pipeline_stages (ctx->shape.layers, pp, 1, &st);
      }
    qm_estimate_assume (e, QM_NOTE_ACTIVATIONS,
                        qm_memory_pipeline_layers_held (&st, pp, v, w->global_batch / (dp * mb)),
                        v, 0, 0);
  }
  qm_estimate_assume (e, QM_NOTE_OVERHEAD, 0, 0, 0, 0);

  if (w->global_batch % MAX (1u, par->micro_batch * par->dp) != 0)
    qm_estimate_warn (e, QM_NOTE_BATCH_NOT_DIVISIBLE, w->global_batch,
                      (double) par->micro_batch * par->dp, e->priced_global_batch, 0);
  return TRUE;
}
