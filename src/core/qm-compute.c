/* qm-compute.c: training FLOPs, time for a GPU count, and its inverse.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-compute.h"

/* Default MFU per GPU family (model FLOPs basis). A later issue predicts MFU
 * from a throughput model; until then these stand in, and the estimate says
 * mfu_source = "default". Observed values: docs/published-runs.tsv.
 *   V100: GPT-3 21.3% (PaLM Table 3).
 *   A100: 40%, the seed rule's figure; inside the published 22–56% range,
 *         between MPT-7B 35.7% and LLaMA-65B 47.7% (LLaMA §2.4).
 *   H100: 38–43% BF16 MFU for Llama 3 405B on 8K–16K GPUs (Llama 3 paper
 *         Table 4); we take the low end for large jobs.
 *   newer/other parts: 35%, a placeholder [M] until measured runs exist;
 *         the MAMF ceilings (A100 86.9%, H100 80.3%, B200 77.6%, MI300X
 *         51.4%; stas00/ml-engineering) bound it from above. */
#define QM_MFU_DEFAULT_V100   0.21
#define QM_MFU_DEFAULT_A100   0.40
#define QM_MFU_DEFAULT_H100   0.38
#define QM_MFU_DEFAULT_MI300  0.25
#define QM_MFU_DEFAULT_OTHER  0.35

double
qm_compute_default_mfu (const char *family)
{
  if (family == NULL)
    return QM_MFU_DEFAULT_OTHER;
  if (strcmp (family, "v100") == 0)
    return QM_MFU_DEFAULT_V100;
  if (strcmp (family, "a100") == 0 || strcmp (family, "a800") == 0)
    return QM_MFU_DEFAULT_A100;
  if (strcmp (family, "h100") == 0 || strcmp (family, "h800") == 0 ||
      strcmp (family, "h200") == 0)
    return QM_MFU_DEFAULT_H100;
  /* MI300X reaches 51.4% of peak on the best-shape matmul (MAMF), so half
   * of the A100's 40% relative to its own ceiling is a fair placeholder. */
  if (strcmp (family, "mi300") == 0)
    return QM_MFU_DEFAULT_MI300;
  return QM_MFU_DEFAULT_OTHER;
}

/* torchtitan's per-operator policy (torchtitan/models/llama3/
 * parallelize_llama.py, _custom_policy in the 2024-12 benchmark commit
 * 9dec370: "Saves output of all compute ops, except every second mm"):
 * of a layer's matmuls in order (wq, wk, wv, wo, w1, w3, w2; w1, w2
 * without a gate) the 2nd, 4th and 6th are recomputed: wk, wo and w3
 * (gated) or w2 (GeLU). An MoE layer's tokens pass k experts. */
double
qm_compute_op_recompute_params (const QmModelShape *shape)
{
  double h = shape->hidden;
  double qd = (double) shape->heads * qm_model_head_dim (shape);
  double kvd = (double) qm_model_kv_heads (shape) * qm_model_head_dim (shape);
  double f = shape->ffn_hidden;

  if (qm_model_is_moe (shape))
    f = (shape->moe_ffn_hidden > 0 ? shape->moe_ffn_hidden : shape->ffn_hidden)
        * (MAX (shape->experts_per_token, 1u) + shape->shared_experts);
  return h * kvd + qd * h + h * f;
}

void
qm_compute_training_flops (const QmModelShape *shape,
                           double              tokens,
                           guint               seq_len,
                           QmRecompute         recompute,
                           QmTrainingFlops    *out)
{
  QmParamCount c;
  double attn_fwd = qm_model_attention_forward_flops_per_token (shape, seq_len);

  qm_model_count_params (shape, &c);

  /* Kaplan et al. 2020 §2.1: 2 forward + 4 backward FLOPs per parameter
   * per token; GPT-3 Table D.1 uses it (3.14e23 for 175B x 300B). */
  out->flops_6nd = 6.0 * c.active * tokens;
  /* PaLM App. B: + 12·L·H·Q·T per token, 3x the forward attention matmuls.
   * This equals Korthikanti 2022 eq. 7's s/(6h) term for a GPT block. */
  out->model_flops = out->flops_6nd + 3.0 * attn_fwd * tokens;

  switch (recompute)
    {
    case QM_RECOMPUTE_SELECTIVE:
      /* Korthikanti eq. 8: the attention term goes from s/(6h) to s/(3h),
       * i.e. the attention term counts twice. */
      out->hardware_flops = out->model_flops + 3.0 * attn_fwd * tokens;
      break;
    case QM_RECOMPUTE_FULL:
      /* Narayanan 2021 eq. 3: one more forward pass of every layer; the
       * logits (output head) are not recomputed, and the input embedding is
       * a look-up. Forward = 2N per token plus the attention matmuls. */
      out->hardware_flops = out->model_flops
                            + (2.0 * (c.active - c.embedding) + attn_fwd) * tokens;
      break;
    case QM_RECOMPUTE_SELECTIVE_OP:
      /* The recomputed matmuls' forward, 2 FLOPs per parameter per token
       * (qm_compute_op_recompute_params); the attention kernel's output is
       * kept, the element-wise ops that are redone have no FLOPs to count. */
      out->hardware_flops = out->model_flops
                            + 2.0 * qm_compute_op_recompute_params (shape) * shape->layers * tokens;
      break;
    case QM_RECOMPUTE_NONE:
    default:
      out->hardware_flops = out->model_flops;
      break;
    }
}

void
qm_compute_training_flops_for_mode (const QmModelShape *shape,
                                    QmMode              mode,
                                    double              tokens,
                                    guint               seq_len,
                                    QmRecompute         recompute,
                                    QmTrainingFlops    *out)
{
  QmParamCount c;
  double attn_fwd, full;

  qm_compute_training_flops (shape, tokens, seq_len, recompute, out);
  if (mode != QM_MODE_LORA && mode != QM_MODE_QLORA)
    return;

  /* A frozen base: the weight-gradient GEMMs (2N per token) go, nothing
   * else. The attention core (QKᵀ, attention over V) multiplies
   * activations by activations, so its backward needs the gradients of
   * both operands, 2× its forward, as in full training: the gradient must
   * reach the adapters of every layer below (qm-parallel prices it the
   * same way). */
  qm_model_count_params (shape, &c);
  attn_fwd = qm_model_attention_forward_flops_per_token (shape, seq_len);
  full = out->model_flops;
  out->model_flops = (4.0 * c.active + 3.0 * attn_fwd) * tokens;
  out->hardware_flops -= full - out->model_flops;
}

/* Every source's wall-clock model (Narayanan eq. 4; estimation-anchors §1):
 * t = FLOPs / (n_gpu · peak_dense · MFU). */
double
qm_compute_seconds (double flops,
                    double gpus,
                    double peak_flops,
                    double mfu)
{
  if (!(flops > 0) || !(gpus > 0) || !(peak_flops > 0) || !(mfu > 0))
    return 0;
  return flops / (gpus * peak_flops * mfu);
}

double
qm_compute_gpus_for_time (double flops,
                          double seconds,
                          double peak_flops,
                          double mfu)
{
  if (!(flops > 0) || !(seconds > 0) || !(peak_flops > 0) || !(mfu > 0))
    return 0;
  return flops / (seconds * peak_flops * mfu);
}

static guint
gcd (guint a,
     guint b)
{
  while (b != 0)
    {
      guint t = a % b;
      a = b;
      b = t;
    }
  return a;
}

guint
qm_compute_round_gpus (double gpus,
                       guint  gpus_per_node,
                       guint  multiple_of)
{
  guint step;
  double n;

  gpus_per_node = MAX (gpus_per_node, 1u);
  multiple_of = MAX (multiple_of, 1u);
  step = gpus_per_node / gcd (gpus_per_node, multiple_of) * multiple_of;
  if (!(gpus > 0))
    return step;
  n = ceil (gpus / step - 1e-9);
  if (n * step > (double) G_MAXUINT / 2)
    return G_MAXUINT / 2 / step * step;
  return (guint) MAX (n, 1.0) * step;
}

/* GPUs = 6·(P_B·1e9)·(T_B·epochs·1e9) / (312e12 · 0.40 · 3600·H)
 *      = P_B·T_B·epochs / H × 6e18 / 4.4928e17 = P_B·T_B·epochs / H × 13.35.
 * The users' rule rounds 13.35 to 13.3. */
double
qm_compute_seed_rule_gpus (double tokens_b,
                           double epochs,
                           double params_b,
                           double hours)
{
  if (!(hours > 0))
    return 0;
  return tokens_b * epochs * params_b * QM_SEED_RULE_FACTOR / hours;
}

double
qm_compute_peak_flops (const QmGpuSpec *gpu,
                       QmPrecision      precision)
{
  double tf;

  if (gpu == NULL || precision >= QM_N_PRECISIONS)
    return 0;
  tf = gpu->tflops[precision];
  if (!(tf > 0) && precision == QM_PRECISION_FP8)
    tf = gpu->tflops[QM_PRECISION_BF16];
  if (!(tf > 0) && precision == QM_PRECISION_BF16)
    tf = gpu->tflops[QM_PRECISION_FP16];
  return tf > 0 ? tf * 1e12 : 0;
}
