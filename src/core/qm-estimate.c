/* qm-estimate.c: a plan in, an estimate out; pure and allocation-free.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-compute.h"
#include "qm-estimate.h"

/* Each note: a stable id and a printf template taking up to four doubles. */
static const struct
{
  const char *id;
  const char *text;
} notes[QM_N_NOTES] = {
  [QM_NOTE_NONE] = { "none", "" },
  [QM_NOTE_FLOPS_BASIS] = { "flops-basis",
    "training_flops = 6·N·D + attention 12·L·H·Q·T·D (PaLM App. B) with N = %.4g active "
    "parameters and D = %.4g tokens; on the 6·N·D basis alone (Kaplan 2020, GPT-3 "
    "Table D.1) it is %.4g FLOPs (attention adds %.1f%%)" },
  [QM_NOTE_HARDWARE_FLOPS_NONE] = { "hardware-flops-none",
    "hardware_flops = training_flops: no activation recompute" },
  [QM_NOTE_HARDWARE_FLOPS_SELECTIVE] = { "hardware-flops-selective",
    "hardware_flops add selective recompute of attention (Korthikanti 2022 eq. 8): +%.1f%%" },
  [QM_NOTE_HARDWARE_FLOPS_FULL] = { "hardware-flops-full",
    "hardware_flops add a full forward recompute (Narayanan 2021 eq. 3): +%.1f%%" },
  [QM_NOTE_MFU_GIVEN] = { "mfu-given",
    "MFU %.0f%% as given in the plan (model FLOPs basis)" },
  [QM_NOTE_MFU_DEFAULT] = { "mfu-default",
    "MFU %.0f%% is the default for this GPU family (published runs; see qm-compute.c); "
    "a throughput model will predict it later" },
  [QM_NOTE_SHAPE_INFERRED] = { "shape-inferred",
    "model shape inferred from params_b = %.3g B: a typical Llama-style shape with %.0f "
    "layers, hidden %.0f, SwiGLU, GQA (%.4g B parameters)" },
  [QM_NOTE_FAILURES_NOT_MODELLED] = { "failures-not-modelled",
    "train_days = ideal_days: failures, restarts and checkpoints are not modelled yet" },
  [QM_NOTE_SEED_RULE] = { "seed-rule",
    "rule of thumb (A100 at 312 TFLOPS dense and 40%% MFU, 6·N·D): GPUs ≈ tokens_B × "
    "epochs × params_B × 13.3 / hours = %.0f A100 for %.0f hours; it is the special case "
    "of this estimate for that GPU and MFU without the attention term" },
  [QM_NOTE_GPUS_FOR_DEADLINE] = { "gpus-for-deadline",
    "a %.3g-day deadline needs %.1f GPUs; rounded up to %.0f (whole nodes of %.0f GPUs "
    "and the model-parallel size)" },
  [QM_NOTE_PARALLEL_AUTO] = { "parallel-auto",
    "tp = %.0f, pp = %.0f picked as the smallest model-parallel layout that fits in memory; "
    "a throughput search will optimise it later" },
  [QM_NOTE_EP_AUTO] = { "ep-auto",
    "ep = %.0f: experts spread over as many data-parallel ranks as divide %.0f experts" },
  [QM_NOTE_MODEL_STATES] = { "model-states",
    "model states: ZeRO paper accounting (Rajbhandari 2020 Fig. 1), %.0f bytes per "
    "trainable parameter before ZeRO-%.0f sharding over dp = %.0f" },
  [QM_NOTE_FP32_GRAD_BUFFER] = { "fp32-grad-buffer",
    "an fp32 gradient buffer adds 4 bytes per parameter (HF model memory anatomy; DeepSpeed)" },
  [QM_NOTE_FP8_MEMORY] = { "fp8-memory",
    "fp8 keeps bf16 weights and fp32 masters (Transformer Engine; DeepSeek-V3 §3.3.3): "
    "no model-state saving over bf16" },
  [QM_NOTE_ACTIVATIONS] = { "activations",
    "activations: Korthikanti 2022 Table 2 per layer, re-derived for this block, on the "
    "first pipeline stage under 1F1B (%.0f layers' worth)" },
  [QM_NOTE_LORA] = { "lora",
    "LoRA rank %.0f on every linear layer: %.4g M trainable parameters; the 16-bit base is frozen" },
  [QM_NOTE_QLORA] = { "qlora",
    "QLoRA rank %.0f: NF4 base with double quantisation (4.127 bits/param, Dettmers 2023), "
    "%.4g M trainable parameters" },
  [QM_NOTE_OVERHEAD] = { "overhead",
    "overhead: CUDA context 1.34 GiB (measured, HF docs), DeepSpeed reduce bucket, ZeRO-3 "
    "gather buffer and 2%% allocator fragmentation" },
  [QM_NOTE_PEAK_FALLBACK] = { "peak-fallback",
    "this GPU has no dense peak listed for the plan's precision; used %.0f TFLOPS" },
  [QM_NOTE_INFERENCE_MEMORY] = { "inference-memory",
    "serving memory: weights at the serving precision plus the KV cache of %.0f sequences "
    "of %.0f tokens (scaling-book inference.md)" },
  [QM_NOTE_DOES_NOT_FIT] = { "does-not-fit",
    "does not fit: %.1f GB needed per GPU, %.1f GB available" },
  [QM_NOTE_NO_LAYOUT_FITS] = { "no-layout-fits",
    "no tp/pp layout of %.0f GPUs fits in memory; showing tp = %.0f, pp = %.0f" },
  [QM_NOTE_BATCH_NOT_DIVISIBLE] = { "batch-not-divisible",
    "global_batch %.0f is not a multiple of micro_batch × dp = %.0f" },
  [QM_NOTE_PARAMS_HINT_MISMATCH] = { "params-hint-mismatch",
    "params_b = %.4g B differs from the shape's %.4g B parameters" },
  [QM_NOTE_MFU_ABOVE_CEILING] = { "mfu-above-ceiling",
    "MFU %.0f%% is above this GPU's best-shape matmul ceiling of %.0f%% (MAMF)" },
  [QM_NOTE_NO_PEAK] = { "no-peak",
    "cannot estimate time: the GPU has no dense peak for this precision" },
  [QM_NOTE_NO_GPUS] = { "no-gpus",
    "cannot estimate: no GPU count and no deadline" },
  [QM_NOTE_NO_MODEL] = { "no-model",
    "cannot estimate: no model shape and no params_b" },
  [QM_NOTE_NOT_ENOUGH_GPUS] = { "not-enough-gpus",
    "%.0f GPUs cannot hold tp·pp·cp = %.0f; using %.0f" },
  [QM_NOTE_LIST_FULL] = { "list-full",
    "more notes were dropped" },
};

const char *
qm_note_id_to_string (QmNoteId id)
{
  return id < QM_N_NOTES && notes[id].id ? notes[id].id : "unknown";
}

const char *
qm_note_format (const QmNote *note,
                char         *buf,
                gsize         size)
{
  if (note->id >= QM_N_NOTES || notes[note->id].text == NULL)
    g_strlcpy (buf, "", size);
  else
    g_snprintf (buf, size, notes[note->id].text,
                note->v[0], note->v[1], note->v[2], note->v[3]);
  return buf;
}

const char *
qm_mfu_source_to_string (QmMfuSource source)
{
  switch (source)
    {
    case QM_MFU_SOURCE_GIVEN: return "given";
    case QM_MFU_SOURCE_PREDICTED: return "predicted";
    case QM_MFU_SOURCE_DEFAULT:
    default: return "default";
    }
}

static void
add_note (QmNote   *list,
          guint    *n,
          QmNoteId  id,
          double    v0,
          double    v1,
          double    v2,
          double    v3)
{
  QmNote *note;

  if (*n >= QM_ESTIMATE_MAX_NOTES)
    return;
  note = &list[*n];
  if (*n == QM_ESTIMATE_MAX_NOTES - 1)
    id = QM_NOTE_LIST_FULL;
  note->id = id;
  note->v[0] = v0;
  note->v[1] = v1;
  note->v[2] = v2;
  note->v[3] = v3;
  (*n)++;
}

void
qm_estimate_assume (QmEstimate *e,
                    QmNoteId    id,
                    double      v0,
                    double      v1,
                    double      v2,
                    double      v3)
{
  add_note (e->assumptions, &e->n_assumptions, id, v0, v1, v2, v3);
}

void
qm_estimate_warn (QmEstimate *e,
                  QmNoteId    id,
                  double      v0,
                  double      v1,
                  double      v2,
                  double      v3)
{
  add_note (e->warnings, &e->n_warnings, id, v0, v1, v2, v3);
}

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
  mc->recompute = w->recompute;
  mc->flash_attention = w->flash_attention;
  mc->lora_rank = w->lora_rank;
  mc->fp32_grad_buffer = w->fp32_grad_buffer;
  mc->weight_precision = w->inference.weight_precision;
  mc->kv_precision = w->inference.kv_precision;
  mc->batch = w->inference.concurrency > 0 ? w->inference.concurrency : 1;
  mc->context = w->inference.input_tokens + w->inference.output_tokens;
  mc->capacity_bytes = plan->hardware.gpu.memory_gb * 1e9;
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

/* Largest power of two that divides both a and b (at least 1). */
static guint
pow2_common (guint a,
             guint b)
{
  guint r = 1;

  while (r * 2 <= a && r * 2 <= b && a % (r * 2) == 0 && b % (r * 2) == 0)
    r *= 2;
  return r;
}

/* Pick tp/pp (and ep for MoE) when the plan leaves them to "auto". Until
 * qm-parallel's throughput search lands: the smallest tp·pp that fits,
 * tp first (NVLink inside a node) up to the node size, then pp. */
static void
choose_layout (const QmPlan       *plan,
               const QmModelShape *shape,
               QmEstimate         *e,
               guint               gpn)
{
  const QmWorkload *w = &plan->workload;
  guint cp = MAX (w->cp, 1u);
  guint ep_auto = 1;
  guint layers = MAX (shape->layers, 1u);
  guint heads = MAX (shape->heads, 1u);
  guint best_tp = 1, best_pp = 1;

  if (qm_model_is_moe (shape) && w->ep == 0)
    {
      ep_auto = pow2_common (shape->experts, MAX (1u, e->gpus / cp));
      qm_estimate_assume (e, QM_NOTE_EP_AUTO, ep_auto, shape->experts, 0, 0);
    }

  if (w->tp > 0 && w->pp > 0)
    {
      try_layout (plan, shape, e, w->tp, w->pp, cp, w->ep > 0 ? w->ep : ep_auto);
      return;
    }

  for (guint mp = 1; mp <= e->gpus / cp && mp <= gpn * layers; mp *= 2)
    for (guint tp = MIN (mp, gpn); tp >= 1; tp /= 2)
      {
        guint pp = mp / tp;
        guint ep = w->ep > 0 ? w->ep : ep_auto;

        if (w->tp > 0 && tp != w->tp)
          continue;
        if (w->pp > 0 && pp != w->pp)
          continue;
        if (tp * pp != mp || pp > layers || gpn % tp != 0 || heads % tp != 0 ||
            e->gpus % (mp * cp) != 0)
          continue;
        if (w->ep == 0 && qm_model_is_moe (shape))
          ep = pow2_common (ep_auto, e->gpus / (mp * cp));
        best_tp = tp;
        best_pp = pp;
        if (try_layout (plan, shape, e, tp, pp, cp, ep))
          {
            qm_estimate_assume (e, QM_NOTE_PARALLEL_AUTO, tp, pp, 0, 0);
            return;
          }
      }

  /* Nothing fits: report the largest layout we tried. */
  try_layout (plan, shape, e, w->tp > 0 ? w->tp : best_tp, w->pp > 0 ? w->pp : best_pp, cp,
              w->ep > 0 ? w->ep : ep_auto);
  qm_estimate_warn (e, QM_NOTE_NO_LAYOUT_FITS, e->gpus, e->parallelism.tp,
                    e->parallelism.pp, 0);
}

void
qm_estimate (const QmPlan *plan,
             QmEstimate   *out)
{
  const QmWorkload *w = &plan->workload;
  const QmGpuSpec *gpu = &plan->hardware.gpu;
  QmModelShape shape = w->model;
  QmParamCount pc;
  QmTrainingFlops tf = { 0 };
  guint gpn = plan->hardware.server.gpus > 0 ? plan->hardware.server.gpus : 8;
  guint mp_fixed;
  double seconds;

  memset (out, 0, sizeof *out);
  out->mode = w->mode;
  out->has_training = w->mode != QM_MODE_INFERENCE;
  out->valid = TRUE;

  /* The model: a shape, or params_b alone. */
  if (!qm_model_has_shape (&shape))
    {
      if (!(shape.params_hint > 0))
        {
          qm_estimate_warn (out, QM_NOTE_NO_MODEL, 0, 0, 0, 0);
          out->valid = FALSE;
          return;
        }
      qm_model_shape_infer (shape.params_hint, &shape);
      qm_estimate_assume (out, QM_NOTE_SHAPE_INFERRED, shape.params_hint / 1e9,
                          shape.layers, shape.hidden, qm_model_params (&shape) / 1e9);
    }
  else if (shape.params_hint > 0 &&
           fabs (qm_model_params (&shape) / shape.params_hint - 1.0) > 0.05)
    {
      qm_estimate_warn (out, QM_NOTE_PARAMS_HINT_MISMATCH, shape.params_hint / 1e9,
                        qm_model_params (&shape) / 1e9, 0, 0);
    }
  qm_model_count_params (&shape, &pc);
  out->params = pc.total;
  out->active_params = pc.active;

  /* Compute and the MFU. */
  out->peak_flops = qm_compute_peak_flops (gpu, w->precision);
  if (out->peak_flops > 0 && !(gpu->tflops[w->precision] > 0))
    qm_estimate_assume (out, QM_NOTE_PEAK_FALLBACK, out->peak_flops / 1e12, 0, 0, 0);
  if (w->mfu > 0)
    {
      out->mfu = w->mfu;
      out->mfu_source = QM_MFU_SOURCE_GIVEN;
    }
  else
    {
      out->mfu = qm_compute_default_mfu (gpu->family);
      out->mfu_source = QM_MFU_SOURCE_DEFAULT;
    }

  if (out->has_training)
    {
      out->tokens = w->tokens * w->epochs;
      qm_compute_training_flops (&shape, out->tokens, w->seq_len, w->recompute, &tf);
      out->training_flops = tf.model_flops;
      out->training_flops_6nd = tf.flops_6nd;
      out->hardware_flops = tf.hardware_flops;
    }

  /* GPUs: fixed, or enough for the deadline in whole nodes. */
  mp_fixed = (w->tp > 0 ? w->tp : 1) * (w->pp > 0 ? w->pp : 1) * MAX (w->cp, 1u);
  if (w->target_gpus > 0)
    out->gpus = w->target_gpus;
  else if (w->deadline_days > 0 && out->has_training && out->peak_flops > 0)
    {
      double raw = qm_compute_gpus_for_time (out->training_flops, w->deadline_days * 86400.0,
                                             out->peak_flops, out->mfu);

      out->gpus = qm_compute_round_gpus (raw, gpn, mp_fixed);
      qm_estimate_assume (out, QM_NOTE_GPUS_FOR_DEADLINE, w->deadline_days, raw,
                          out->gpus, gpn);
    }
  else if (w->deadline_days > 0 && !out->has_training)
    out->gpus = gpn;
  if (out->gpus == 0)
    {
      qm_estimate_warn (out, out->peak_flops > 0 ? QM_NOTE_NO_GPUS : QM_NOTE_NO_PEAK,
                        0, 0, 0, 0);
      out->valid = FALSE;
      return;
    }
  if (out->gpus < mp_fixed)
    {
      qm_estimate_warn (out, QM_NOTE_NOT_ENOUGH_GPUS, out->gpus, mp_fixed, mp_fixed, 0);
      out->gpus = mp_fixed;
    }
  out->nodes = (out->gpus + gpn - 1) / gpn;

  /* Layout and memory. */
  choose_layout (plan, &shape, out, gpn);
  out->parallelism.micro_batch = w->micro_batch;
  out->parallelism.zero_stage = w->zero_stage;
  out->parallelism.recompute = w->recompute;
  out->fits = out->memory.fits;
  if (!out->fits)
    qm_estimate_warn (out, QM_NOTE_DOES_NOT_FIT, out->memory.total / 1e9,
                      out->memory.capacity / 1e9, 0, 0);

  if (!out->has_training)
    {
      qm_estimate_assume (out, QM_NOTE_INFERENCE_MEMORY,
                          MAX (w->inference.concurrency, 1u),
                          w->inference.input_tokens + w->inference.output_tokens, 0, 0);
      qm_estimate_assume (out, QM_NOTE_OVERHEAD, 0, 0, 0, 0);
      return;
    }

  /* Time. */
  seconds = qm_compute_seconds (out->training_flops, out->gpus, out->peak_flops, out->mfu);
  if (!(seconds > 0))
    {
      qm_estimate_warn (out, QM_NOTE_NO_PEAK, 0, 0, 0, 0);
      out->valid = FALSE;
    }
  out->ideal_days = seconds / 86400.0;
  /* Hook: qm-reliability will turn ideal_days into train_days with
   * interruptions and checkpoints. */
  out->train_days = out->ideal_days;
  out->gpu_hours = out->gpus * out->train_days * 24.0;

  /* Assumptions, in reading order. */
  qm_estimate_assume (out, QM_NOTE_FLOPS_BASIS, out->active_params, out->tokens,
                      out->training_flops_6nd,
                      out->training_flops_6nd > 0
                      ? 100.0 * (out->training_flops / out->training_flops_6nd - 1.0) : 0);
  switch (w->recompute)
    {
    case QM_RECOMPUTE_SELECTIVE:
      qm_estimate_assume (out, QM_NOTE_HARDWARE_FLOPS_SELECTIVE,
                          100.0 * (out->hardware_flops / out->training_flops - 1.0), 0, 0, 0);
      break;
    case QM_RECOMPUTE_FULL:
      qm_estimate_assume (out, QM_NOTE_HARDWARE_FLOPS_FULL,
                          100.0 * (out->hardware_flops / out->training_flops - 1.0), 0, 0, 0);
      break;
    case QM_RECOMPUTE_NONE:
    default:
      qm_estimate_assume (out, QM_NOTE_HARDWARE_FLOPS_NONE, 0, 0, 0, 0);
      break;
    }
  qm_estimate_assume (out, out->mfu_source == QM_MFU_SOURCE_GIVEN
                      ? QM_NOTE_MFU_GIVEN : QM_NOTE_MFU_DEFAULT, 100.0 * out->mfu, 0, 0, 0);
  if (gpu->mamf_fraction > 0 && out->mfu > gpu->mamf_fraction)
    qm_estimate_warn (out, QM_NOTE_MFU_ABOVE_CEILING, 100.0 * out->mfu,
                      100.0 * gpu->mamf_fraction, 0, 0);
  qm_estimate_assume (out, QM_NOTE_SEED_RULE,
                      qm_compute_seed_rule_gpus (out->tokens / 1e9, 1.0, out->active_params / 1e9,
                                                 out->ideal_days * 24.0),
                      out->ideal_days * 24.0, 0, 0);
  qm_estimate_assume (out, QM_NOTE_FAILURES_NOT_MODELLED, 0, 0, 0, 0);

  if (w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA)
    qm_estimate_assume (out, w->mode == QM_MODE_QLORA ? QM_NOTE_QLORA : QM_NOTE_LORA,
                        MAX (w->lora_rank, 1u),
                        qm_memory_lora_params (&shape, MAX (w->lora_rank, 1u)) / 1e6, 0, 0);
  {
    gboolean fp32 = w->precision == QM_PRECISION_FP32 || w->precision == QM_PRECISION_TF32;
    double per_param = fp32 ? 8.0 : 8.0 + (w->fp32_grad_buffer ? 4.0 : 0.0);
    static const double opt[] = { 8.0, 2.0, 4.0, 0.0 };

    per_param += opt[MIN ((guint) w->optimizer, 3u)];
    qm_estimate_assume (out, QM_NOTE_MODEL_STATES, per_param, w->zero_stage,
                        out->parallelism.dp, 0);
  }
  if (w->fp32_grad_buffer)
    qm_estimate_assume (out, QM_NOTE_FP32_GRAD_BUFFER, 0, 0, 0, 0);
  if (w->precision == QM_PRECISION_FP8)
    qm_estimate_assume (out, QM_NOTE_FP8_MEMORY, 0, 0, 0, 0);
  qm_estimate_assume (out, QM_NOTE_ACTIVATIONS, shape.layers, 0, 0, 0);
  qm_estimate_assume (out, QM_NOTE_OVERHEAD, 0, 0, 0, 0);

  if (w->global_batch % MAX (1u, w->micro_batch * out->parallelism.dp) != 0)
    qm_estimate_warn (out, QM_NOTE_BATCH_NOT_DIVISIBLE, w->global_batch,
                      (double) w->micro_batch * out->parallelism.dp, 0, 0);
}
