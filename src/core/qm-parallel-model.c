/* qm-parallel-model.c: the time model of one training step for one
 * layout (compute per pipeline stage, exposed communication, bubble,
 * optimizer) and its memory check; the layout search in qm-parallel.c
 * calls it for every candidate.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-compute.h"
#include "qm-parallel-private.h"

static double
optimizer_hbm_bytes (QmOptimizer o)
{
  /* Bytes moved per parameter by the optimizer step, mixed precision:
   * AdamW reads master, m, v (12) and the fp32 gradient (4), writes master,
   * m, v (12) and the 16-bit weight copy (2) = 30 (ZeRO §3.1 state sizes).
   * 8-bit Adam: states 1+1 byte each way: 4 + 4 + 4 + 2 + 2 = 16 (Dettmers
   * 2022 §2). SGD+momentum: master, momentum, grad in; master, momentum,
   * bf16 out = 22. Adafactor (no momentum, factored): master + grad in,
   * master + bf16 out = 14. */
  switch (o)
    {
    case QM_OPTIMIZER_ADAMW_8BIT: return 16.0;
    case QM_OPTIMIZER_SGD:        return 22.0;
    case QM_OPTIMIZER_ADAFACTOR:  return 14.0;
    case QM_OPTIMIZER_ADAMW:
    default:                      return 30.0;
    }
}

void
qm_parallel_ctx_init (QmParallelCtx           *c,
                      const QmParallelProblem *pb)
{
  const QmModelShape *sh = &pb->shape;
  QmTrainingFlops tf;
  double tokens_step, mamf, q, kvd, f, eff;
  double nics, nic_gbps;

  memset (c, 0, sizeof *c);
  c->pb = pb;
  qm_model_count_params (sh, &c->pc);
  c->L = MAX (sh->layers, 1u);
  c->h = sh->hidden;
  c->s = MAX (pb->seq_len, 1u);
  c->V = sh->vocab;
  c->a = sh->heads;
  q = (double) sh->heads * qm_model_head_dim (sh);
  kvd = (double) qm_model_kv_heads (sh) * qm_model_head_dim (sh);
  f = sh->ffn_hidden;
  if (qm_model_is_moe (sh))
    {
      double fe = sh->moe_ffn_hidden > 0 ? sh->moe_ffn_hidden : sh->ffn_hidden;
      f = fe * (MAX (sh->experts_per_token, 1u) + sh->shared_experts);
    }
  c->f_tok = f;
  c->lora = pb->mode == QM_MODE_LORA || pb->mode == QM_MODE_QLORA;

  /* Forward FLOPs: 2 per active parameter per token (Kaplan 2020 §2.1) for
   * the layer body; the output head 2·V·h (Narayanan 2021 eq. 3's V term);
   * attention matmuls from qm-model (PaLM App. B basis, full s). */
  c->layer_gemm_tok = 2.0 * MAX (c->pc.active - c->pc.embedding, 0.0) / c->L;
  c->attn_tok = qm_model_attention_forward_flops_per_token (sh, pb->seq_len) / c->L;
  c->logit_tok = 2.0 * c->V * c->h;
  if (!qm_model_has_shape (sh))
    {
      c->layer_gemm_tok = 2.0 * c->pc.active / c->L;
      c->logit_tok = 0;
    }

  /* Element-wise HBM traffic of one layer's forward pass, counted from the
   * tensor list of Korthikanti 2022 §4.1, each kernel reading its inputs
   * and writing its outputs once (16-bit values, 1-byte dropout masks):
   *   two LayerNorms: read 2h + write 2h each                     8h
   *   two bias-dropout-add: read 2h + residual 2h, write 2h + mask h  14h
   *   -> 22h per token that TP leaves whole (SP splits it);
   *   GeLU: read f, write f, 16-bit: 4f; SwiGLU: read gate and up, write
   *   the product: 6f  (TP splits it);
   *   without FlashAttention, per score, standard attention as Dao et al.
   *   2022 ("FlashAttention", §2.2 Algorithm 0) lays out its HBM traffic:
   *   QK^T writes S (2 bytes), the fused scale-mask-softmax reads S and
   *   writes P (4), dropout reads P and writes P' and its mask (5), PV
   *   reads P' (2): 13 bytes × a·s per token (TP splits). Backward: dP =
   *   dO·V^T written (2), dropout's backward reads it and the mask and
   *   writes (5), the softmax backward reads P and dP, writes dS (6), the
   *   dQ and dK GEMMs read dS (4), dV = P'^T·dO reads P' (2): 19 bytes.
   * The rest of the backward moves about twice the forward (it reads the
   * saved input and the output gradient and writes the input gradient). */
  c->elem_unsplit_tok = 22.0 * c->h;
  c->elem_split_tok = (sh->gated_mlp ? 6.0 : 4.0) * f;
  c->elem_score_tok = pb->flash_attention ? 0.0 : 13.0 * c->a * c->s;
  c->elem_score_bwd_tok = pb->flash_attention ? 0.0 : 19.0 * c->a * c->s;
  /* FP8 (Transformer Engine, Micikevicius et al. 2022 "FP8 Formats for
   * Deep Learning" §4: per-tensor scaled casts with amax history): the
   * GEMM inputs must be cast. The LayerNorm before QKV and FC1 and the
   * activation before FC2 write FP8 directly (fused), so the forward adds
   * one unfused cast, of the attention output (read 2 + write 1 bytes).
   * Each FP8 GEMM input is also written transposed for the weight-gradient
   * GEMM (Hopper's FP8 GEMMs take only the TN layout; TE's fused
   * cast_transpose writes both): +1 byte per element of the four inputs
   * (h, q, h, f);
   * the backward casts the output gradient of each of the four GEMMs and
   * its transpose for the weight gradient (read 2, write 1 + 1). amax is
   * taken in the same pass. Attention itself stays in 16 bits. */
  if (pb->precision == QM_PRECISION_FP8)
    {
      c->fp8_fwd_split_tok = 4.0 * q + f;
      c->fp8_fwd_unsplit_tok = 2.0 * c->h;
      c->fp8_bwd_split_tok = 4.0 * (q + 2.0 * kvd) + 4.0 * (sh->gated_mlp ? 2.0 : 1.0) * f;
      c->fp8_bwd_unsplit_tok = 8.0 * c->h;
    }

  tokens_step = (double) pb->global_batch * c->s;
  for (guint r = 0; r < QM_N_RECOMPUTE; r++)
    {
      qm_compute_training_flops_for_mode (sh, pb->mode, tokens_step, pb->seq_len, (QmRecompute) r, &tf);
      c->hw_flops_step[r] = tf.hardware_flops;
      c->model_flops_step = tf.model_flops;
    }

  /* The MFU basis is the peak of the plan's precision; FP8 speeds up the
   * GEMMs only (at its own MAMF fraction), the attention core and the
   * element-wise kernels run in 16 bits (Transformer Engine's default
   * recipe keeps dot-product attention in BF16). */
  c->peak = qm_compute_peak_flops (&pb->gpu, pb->precision);
  c->peak16 = qm_compute_peak_flops (&pb->gpu, QM_PRECISION_BF16);
  if (pb->precision == QM_PRECISION_FP32 || pb->precision == QM_PRECISION_TF32 || !(c->peak16 > 0))
    c->peak16 = c->peak;
  mamf = pb->gpu.mamf_fraction > 0 ? pb->gpu.mamf_fraction : QM_PARALLEL_MAMF_DEFAULT;
  if (pb->precision == QM_PRECISION_FP8 && c->peak > c->peak16)
    mamf *= QM_PARALLEL_FP8_MAMF_RATIO;
  eff = pb->kernel_efficiency > 0 ? pb->kernel_efficiency : QM_PARALLEL_KERNEL_EFFICIENCY;
  c->rate = c->peak * mamf * eff;
  c->attn_rate = c->peak16 * QM_PARALLEL_FLASH_ATTENTION_EFFICIENCY * eff;
  {
    double hd = qm_model_head_dim (sh) > 0 ? qm_model_head_dim (sh) : 128.0;
    double d0 = QM_PARALLEL_FA_HEAD_DIM_D0;

    c->attn_rate *= (hd / (hd + d0)) / (128.0 / (128.0 + d0));
  }
  c->q_dim = q;
  c->kv_dim = kvd;
  c->hbm = pb->gpu.bandwidth_tbs * 1e12;
  c->gpn = MAX (pb->server.gpus, 1u);
  c->nvlink_bw = pb->gpu.link_gbs * 1e9 * QM_PARALLEL_NCCL_BUSBW_FRACTION;
  /* GPUs wired as a full mesh, one link to each peer and no switch
   * (gpus.json p2p_link_gbs: the usable bandwidth of one link, AMD ROCm
   * blog "Understanding RCCL Bandwidth and xGMI Performance on AMD
   * Instinct MI300X", 2025): a group of n of them has n - 1 links per GPU
   * (qm_parallel_tier_for), a send to one neighbour one link. */
  c->mesh_link_bw = pb->gpu.p2p_link_gbs > 0 ? pb->gpu.p2p_link_gbs * 1e9 : 0.0;
  /* One GPU's share of the node's compute-fabric NICs (rail-optimised
   * servers have one NIC per GPU). */
  nics = pb->server.nics > 0 ? pb->server.nics : c->gpn;
  nic_gbps = pb->server.nic_gbps > 0 ? pb->server.nic_gbps : pb->network.port_gbps;
  if (pb->network.port_gbps > 0)
    nic_gbps = MIN (nic_gbps, pb->network.port_gbps);
  c->nic_bw = nics * nic_gbps / 8.0 * 1e9 / c->gpn * QM_PARALLEL_NCCL_BUSBW_FRACTION;
  c->net_hop = QM_PARALLEL_NCCL_NET_HOP_S + pb->network.latency_us * 1e-6;
  c->adam_bytes = optimizer_hbm_bytes (pb->optimizer);
  c->overlap = pb->comm_overlap > 0 ? pb->comm_overlap : QM_PARALLEL_COMM_OVERLAP;
}


double
qm_parallel_attention_rate (const QmParallelCtx *c,
                            double               len,
                            gboolean             causal)
{
  double l0 = causal ? QM_PARALLEL_FA_CAUSAL_L0 : QM_PARALLEL_FA_FULL_L0;

  len = MAX (len, 1.0);
  return c->attn_rate * len / (len + l0) * (causal ? 1.0 : QM_PARALLEL_FA_FULL_OVER_CAUSAL);
}

/* Ring attention with causal load balancing, as Megatron-Core runs it
 * through Transformer Engine (AttnFuncWithCPAndKVP2P in TE's
 * context_parallel.py; Liu et al. 2023, "Ring Attention"): the sequence is
 * cut into 2·cp chunks and rank r holds chunks r and 2cp − 1 − r, so every
 * rank has the same share of the causal mask. With c2 = s/cp local tokens
 * and ch = c2/2 per chunk, each layer runs cp steps:
 *   step 0, the diagonal: local Q against local K/V, a causal c2 × c2
 *     block (c2²/2 useful pairs) at the causal kernel's rate for c2;
 *   steps 1 .. cp−1: Q against the K/V received from the ring; half the
 *     ranks attend all of Q to the first received chunk, the other half the
 *     second Q chunk to both: c2·ch pairs, full (no mask), keys ch long on
 *     the first half, which sets the ring's pace.
 *   The rank's pairs add up to mb·s²/(2cp), its causal share.
 * After each off-diagonal step the partial output is merged into the fp32
 * accumulator with the log-sum-exp scale (flash_attn_fwd_out_correction:
 * read 2-byte step output, read and write the 4-byte accumulator, 10 bytes
 * per element, on HBM); the backward accumulates dQ and dK/dV alike.
 * While a step computes, the K/V of the next travels (isend/irecv between
 * ring neighbours, qm_parallel_p2p_tier); a step waits for the larger of
 * its block and that transfer, so the exchange is hidden only where the
 * block's compute covers it. The backward sends K/V and their gradients
 * (twice the bytes) against blocks of 2.5x the forward's FLOPs. Without
 * FlashAttention the blocks are unfused batched GEMMs over the whole
 * block (masked, not skipped), at the 16-bit GEMM rate. */
void
qm_parallel_ring_attention (const QmParallelCtx    *c,
                            const QmParallelLayout *l,
                            QmParallelRing         *out)
{
  const QmParallelProblem *pb = c->pb;
  double t = l->tp, cp = l->cp, mb = l->micro_batch;
  double c2 = c->s / cp, ch = c2 / 2.0;
  double pair = c->attn_tok / c->s / t;   /* forward FLOPs per (query, key) pair per rank */
  double kv_heads = qm_model_kv_heads (&pb->shape);
  double kvd = kv_heads >= t ? c->kv_dim / t : c->kv_dim / MAX (kv_heads, 1.0);
  double diag, off, corr_f, corr_b, kv, x, xb;
  QmParallelTier tr;

  memset (out, 0, sizeof *out);
  if (pb->flash_attention)
    {
      diag = mb * c2 * c2 / 2.0 * pair / qm_parallel_attention_rate (c, c2, TRUE);
      off = mb * c2 * ch * pair / qm_parallel_attention_rate (c, ch, FALSE);
    }
  else
    {
      double r16 = c->rate * c->peak16 / c->peak;

      diag = mb * c2 * c2 * pair / r16;
      off = mb * c2 * ch * pair / r16;
    }
  /* Merges: on average 3/4 of the local queries take part in a step. */
  corr_f = 0.75 * mb * c2 * 10.0 * c->q_dim / t / c->hbm;
  corr_b = 0.75 * mb * c2 * 10.0 * (c->q_dim / t + 2.0 * kvd) / c->hbm;
  out->fwd = diag + (cp - 1.0) * (off + corr_f);
  out->bwd = 2.5 * diag + (cp - 1.0) * (2.5 * off + corr_b);
  if (!pb->flash_attention)
    out->bwd = 2.0 * diag + (cp - 1.0) * (2.0 * off + corr_b);
  if (cp <= 1)
    return;

  tr = qm_parallel_p2p_tier (c, cp, t);
  kv = mb * c2 * 2.0 * kvd * 2.0;
  x = QM_PARALLEL_NCCL_BASE_LATENCY_S + tr.hop + kv / tr.bw;
  xb = QM_PARALLEL_NCCL_BASE_LATENCY_S + tr.hop + 2.0 * kv / tr.bw;
  out->fwd_block = off + corr_f;
  out->xfer = x;
  /* Step i waits for its block and for the transfer of step i + 1's K/V;
   * the last step has nothing left to receive. */
  out->fwd_exposed = MAX (x - diag, 0.0) + (cp - 2.0) * MAX (x - (off + corr_f), 0.0);
  {
    double db = (pb->flash_attention ? 2.5 : 2.0) * diag;
    double ob = (pb->flash_attention ? 2.5 : 2.0) * off + corr_b;

    out->bwd_exposed = MAX (xb - db, 0.0) + (cp - 2.0) * MAX (xb - ob, 0.0);
  }
}

/* Per-micro-batch compute of one pipeline stage, and the pieces the search
 * bound needs. */
typedef struct
{
  double fwd, bwd, rec;   /* seconds for one micro-batch on the slowest stage */
  double layers;          /* transformer layers on that stage */
  double others;          /* fwd + bwd + rec of all the other stages, summed */
} StageCompute;

/* Forward and backward seconds of one layer's attention core (QK^T,
 * softmax, attention over V) for tok tokens on one of t TP ranks.
 * Without FlashAttention the two matmuls are batched GEMMs at the GEMM
 * rate (their s×s score traffic is priced apart, elem_score_tok), and the
 * backward is two matmuls per forward one (the gradients of both
 * operands). Both are activations, not weights, so a frozen (LoRA) base
 * still needs both: the gradient must flow through every layer to the
 * adapters below. With
 * FlashAttention the fused kernel runs at attn_rate on the FLOPs it
 * executes, which the FlashAttention-2 paper's §4.1 counts as: causal
 * (decoder LM training) skips the blocks above the diagonal, half of the
 * full-s count that the model FLOPs use (PaLM App. B; the MFU basis is
 * unchanged); the backward runs 5 matmuls to the forward's 2 (it
 * recomputes QK^T instead of storing it), 2.5x the forward. */
static void
attention_seconds (const QmParallelCtx *c,
                   double               tok,
                   double               t,
                   double               gemm_rate,
                   double              *fwd,
                   double              *bwd)
{
  if (c->pb->flash_attention)
    {
      *fwd = tok * c->attn_tok * 0.5 / t / qm_parallel_attention_rate (c, c->s, TRUE);
      *bwd = 2.5 * *fwd;
    }
  else
    {
      /* Batched 16-bit GEMMs, also under an FP8 recipe. */
      *fwd = tok * c->attn_tok / t / (gemm_rate * c->peak16 / c->peak);
      *bwd = 2.0 * *fwd;
    }
}

void
qm_parallel_attention_core (const QmParallelCtx    *c,
                            const QmParallelLayout *l,
                            double                 *fwd,
                            double                 *bwd)
{
  double t = l->tp, tok = (double) l->micro_batch * c->s / l->cp;
  double d = MIN (c->h / t, tok);

  attention_seconds (c, tok, t, c->rate * d / (d + QM_PARALLEL_GEMM_EDGE_COLUMNS), fwd, bwd);
  *fwd += tok * c->elem_score_tok / t / c->hbm;
  *bwd += tok * c->elem_score_bwd_tok / t / c->hbm;
}

static void
stage_compute (const QmParallelCtx    *c,
               const QmParallelLayout *l,
               StageCompute           *out)
{
  const QmParallelProblem *pb = c->pb;
  double t = l->tp, cp = l->cp;
  double tok = (double) l->micro_batch * c->s / cp;
  double d = c->h / t, eta, rate;
  double gemm_layer, attn_layer, attn_bwd, elem_layer, score_layer, score_bwd, logits;
  double lf, lb, lr, stage_layers[3], best = -1, fp8_fwd, fp8_bwd, loss_fwd, loss_bwd;
  gboolean sp = l->sequence_parallel && l->tp > 1;
  QmPipelineStages st;

  /* Shape efficiency on the narrowest per-GPU GEMM dimension: h/t, or the
   * tokens of one micro-batch on this GPU (the GEMMs' M; short with small
   * micro-batches and a deep context split). */
  d = MIN (d, tok);
  eta = d / (d + QM_PARALLEL_GEMM_EDGE_COLUMNS);
  rate = c->rate * eta;

  gemm_layer = tok * c->layer_gemm_tok / t / rate;
  if (l->cp > 1)
    {
      QmParallelRing ring;

      qm_parallel_ring_attention (c, l, &ring);
      attn_layer = ring.fwd;
      attn_bwd = ring.bwd;
    }
  else
    attention_seconds (c, tok, t, rate, &attn_layer, &attn_bwd);
  score_layer = tok * c->elem_score_tok / t / c->hbm;
  score_bwd = tok * c->elem_score_bwd_tok / t / c->hbm;
  elem_layer = tok * (c->elem_split_tok / t + c->elem_unsplit_tok / (sp ? t : 1.0)) / c->hbm;
  fp8_fwd = tok * (c->fp8_fwd_split_tok / t + c->fp8_fwd_unsplit_tok / (sp ? t : 1.0)) / c->hbm;
  fp8_bwd = tok * (c->fp8_bwd_split_tok / t + c->fp8_bwd_unsplit_tok / (sp ? t : 1.0)) / c->hbm;
  /* The output head sits on the last stage (Narayanan 2021 §3.2). Under
   * FP8 it stays in 16 bits: Megatron-Core's fp8_autocast wraps the
   * transformer layers, not the embedding or the output layer. */
  logits = tok * c->logit_tok / t / (rate * c->peak16 / c->peak);
  /* The loss over the vocabulary is memory-bound, V/t entries per token on
   * each TP rank (Megatron's vocab-parallel cross-entropy): the head writes
   * fp32 logits (4 bytes; Korthikanti §4.2.3 keeps 4sbv/t), the loss reads
   * them for the max and for the sum of exponentials (8) and the backward
   * reads them again and writes the 16-bit logit gradient (6). Negligible
   * for large models, a quarter of the step for a 70M one with V = 50k. */
  loss_fwd = tok * 12.0 * c->V / t / c->hbm;
  loss_bwd = tok * 6.0 * c->V / t / c->hbm;
  if (c->logit_tok == 0)
    loss_fwd = loss_bwd = 0;

  /* One layer, one micro-batch. Backward: GEMMs for the input and the
   * weight gradients, 2× forward (Kaplan 2020 §2.1); a frozen (LoRA) base
   * needs the input gradient only. The attention core's backward is
   * attention_seconds()'s. */
  lf = gemm_layer + attn_layer + elem_layer + score_layer + fp8_fwd;
  lb = (c->lora ? 1.0 : 2.0) * gemm_layer + attn_bwd + 2.0 * elem_layer + score_bwd + fp8_bwd;
  switch (l->recompute)
    {
    case QM_RECOMPUTE_FULL:
      /* One more forward of every recomputed layer, not of the head
       * (Narayanan eq. 3); with recompute_layers, of those only. */
      lr = lf * qm_parallel_recompute_fraction (pb, l);
      break;
    case QM_RECOMPUTE_SELECTIVE:
      /* Only QKᵀ, softmax, dropout and attention over V (Korthikanti §5). */
      lr = attn_layer + score_layer;
      break;
    case QM_RECOMPUTE_SELECTIVE_OP:
      /* PyTorch's per-operator policy: every other matmul
       * (qm_compute_op_recompute_params) and the element-wise kernels;
       * the attention kernel's output is kept. */
      lr = gemm_layer * qm_compute_op_recompute_params (&pb->shape) * 2.0
           / MAX (c->layer_gemm_tok, 1.0) + elem_layer - score_layer;
      break;
    case QM_RECOMPUTE_NONE:
    default:
      lr = 0;
      break;
    }

  /* The slowest stage sets the pace: a full middle stage, the first, or
   * the last with the output head (Narayanan 2021 §3.2), uneven stages as
   * qm_memory_pipeline_stages() splits them. */
  if (!qm_memory_pipeline_stages (pb->shape.layers, l->pp, l->virtual_stages, &st))
    qm_memory_pipeline_stages (pb->shape.layers, l->pp, 1, &st);
  stage_layers[0] = st.full;
  stage_layers[1] = st.first;
  stage_layers[2] = st.last;
  {
    /* Per micro-batch: the middle stages' p − 2, the first, the last. */
    double per_layer = lf + lb + lr;
    double head = logits + loss_fwd + (c->lora ? 1.0 : 2.0) * logits + loss_bwd;
    double total = l->pp == 1 ? st.full * per_layer + head
                   : (l->pp - 2.0) * st.full * per_layer + st.first * per_layer
                     + st.last * per_layer + head;

    out->others = total;
  }
  for (guint i = 0; i < 3; i++)
    {
      double head = i == 2 ? 1.0 : 0.0;
      double f = stage_layers[i] * lf + head * (logits + loss_fwd);
      double b = stage_layers[i] * lb + head * ((c->lora ? 1.0 : 2.0) * logits + loss_bwd);
      double r = stage_layers[i] * lr;

      if (l->pp == 1 && i != 2)
        continue;
      if (f + b + r > best)
        {
          best = f + b + r;
          out->fwd = f;
          out->bwd = b;
          out->rec = r;
          out->layers = stage_layers[i];
        }
    }
  out->others = MAX (out->others - best, 0.0);
}

static double
optimizer_time (const QmParallelCtx    *c,
                const QmParallelLayout *l)
{
  double t = l->tp, pp = l->pp, dp = l->dp, ep = l->ep;
  double dense = (c->pc.total - c->pc.expert) / (t * pp);
  double expert = c->pc.expert / (t * pp * ep);
  double n;

  if (c->lora)
    n = qm_memory_lora_params (&c->pb->shape, MAX (c->pb->lora_rank, 1u)) / (t * pp);
  else if (l->zero_stage >= 1)
    n = dense / (dp * l->cp) + expert / MAX (1.0, dp * l->cp / ep);
  else
    n = dense + expert;
  return n * c->adam_bytes / c->hbm;
}

/* One collective of @bpp bytes per parameter over the data-parallel
 * groups: the dense parameters over dp ranks (tier @td), the experts'
 * over their dp / ep ranks (tier @tde). */
static double
dp_collective (const QmParallelTier *td,
               double                dp,
               double                psi_dense,
               const QmParallelTier *tde,
               double                ede,
               double                psi_expert,
               QmParallelCollective  kind,
               double                bpp)
{
  /* A dense model has no expert collective to launch (nor its latency). */
  return qm_parallel_collective (td, kind, dp, psi_dense * bpp)
         + (psi_expert > 0 ? qm_parallel_collective (tde, kind, ede, psi_expert * bpp) : 0.0);
}

/* Data parallel: gradients reduce over the dp·cp ranks that hold the
 * same weights (Megatron-Core's data-parallel group with CP), stride tp;
 * experts over the expert-data-parallel group dp·cp/ep (ZeRO §5: Ψ
 * becomes Ψ/(t·p)). Sets the ZeRO traffic of one micro-batch and the
 * data-parallel traffic of one step, neither hidden yet by the step. */
static void
data_parallel_comm (const QmParallelCtx    *c,
                    const QmParallelLayout *l,
                    const StageCompute     *sc,
                    double                 *zero_mb,
                    double                 *dp_step)
{
  const QmParallelProblem *pb = c->pb;
  double t = l->tp, pp = l->pp, dp = l->dp * (double) l->cp, ep = l->ep;
  double psi_dense = (c->pc.total - c->pc.expert) / (t * pp);
  double psi_expert = c->pc.expert / (t * pp * ep);
  double gbytes = pb->fp32_grad_buffer ? 4.0 : 2.0;
  QmParallelTier td, tde;
  double ede;

  *zero_mb = 0;
  *dp_step = 0;
  if (c->lora)
    {
      psi_dense = qm_memory_lora_params (&pb->shape, MAX (pb->lora_rank, 1u)) / (t * pp);
      psi_expert = 0;
    }
  if (dp <= 1)
    return;
  td = qm_parallel_tier_for (c, dp, t);
  tde = qm_parallel_tier_for (c, MAX (1.0, dp / ep), t * ep);
  ede = MAX (1.0, dp / ep);
#define DP_COLLECTIVE(kind, bpp) dp_collective (&td, dp, psi_dense, &tde, ede, psi_expert, kind, bpp)
  if (l->zero_stage >= 3 && !c->lora)
    {
      /* ZeRO-3 / FSDP FULL_SHARD (Rajbhandari 2020 §7.2.2: 1.5× DP
       * volume), layer by layer as FSDP runs it (Zhao et al. 2023,
       * "PyTorch FSDP", VLDB §3.3-3.4, §4.2; one FSDP unit per transformer
       * layer): every micro-batch gathers each layer's 16-bit weights for
       * the forward and again for the backward, and reduce-scatters its
       * gradients. The shard group is the whole data-parallel group, or
       * with HSDP (shard_group) that many ranks, the shards then
       * all-reduced across the replicas once per step. */
      double g = pb->shard_group > 0 ? MIN ((double) pb->shard_group, dp) : dp;
      double n = MAX (sc->layers, 1.0);
      double lf = sc->fwd / n, lb = (sc->bwd + sc->rec) / n;
      QmParallelTier tg = qm_parallel_tier_for (c, g, t);
      QmParallelTier tge = qm_parallel_tier_for (c, MAX (1.0, g / ep), t * ep);
      double ge = MAX (1.0, g / ep);
      /* One layer's collectives: each pays NCCL's latency (α per ring
       * step over the g ranks), which small layers cannot amortise. */
      double ag = dp_collective (&tg, g, psi_dense / n, &tge, ge, psi_expert / n, QM_PARALLEL_ALL_GATHER, 2.0);
      double rs = dp_collective (&tg, g, psi_dense / n, &tge, ge, psi_expert / n, QM_PARALLEL_ALL_GATHER, gbytes);

      if (!pb->overlap_dp)
        *zero_mb = n * (2.0 * ag + rs);
      else
        {
          /* Forward, prefetch depth 1 (FSDP forward_prefetch): layer i+1's
           * gather runs under layer i's compute; the first layer's has
           * nothing to hide behind. Backward, BACKWARD_PRE (the default):
           * under layer i's backward (and its recompute) run the gather
           * of layer i−1 and the reduce-scatter of layer i+1, which share
           * the links; the first gather and the last reduce-scatter are in
           * the open. Each window hides at most the fraction c->overlap of
           * what runs under it (QM_PARALLEL_COMM_OVERLAP). */
          *zero_mb = ag + (n - 1.0) * qm_parallel_exposed (c, ag, lf, TRUE)
                     + ag + (n - 1.0) * qm_parallel_exposed (c, ag + rs, lb, TRUE) + rs;
        }
      if (g < dp)
        {
          /* HSDP: each shard's gradients all-reduced over the dp/g
           * replicas (ranks t·g apart), once per step. */
          double r = dp / g;
          QmParallelTier tr = qm_parallel_tier_for (c, r, t * g);
          QmParallelTier tre = qm_parallel_tier_for (c, MAX (1.0, r / ep), t * g * ep);

          *dp_step = dp_collective (&tr, r, psi_dense / g, &tre, MAX (1.0, r / ep), psi_expert / ge,
                                    QM_PARALLEL_ALL_REDUCE, gbytes);
        }
    }
  else if (l->zero_stage == 2)
    {
      /* ZeRO-2: gradients reduce-scattered as each backward produces
       * them, the updated weights all-gathered once per step. */
      *zero_mb = DP_COLLECTIVE (QM_PARALLEL_ALL_GATHER, gbytes);
      *zero_mb = qm_parallel_exposed (c, *zero_mb, sc->bwd, pb->overlap_dp);
      *dp_step = DP_COLLECTIVE (QM_PARALLEL_ALL_GATHER, 2.0);
    }
  else
    {
      /* DP / ZeRO-1: one all-reduce (or reduce-scatter + all-gather, the
       * same bytes) of the gradients per step, after the last micro-batch
       * (Li et al. 2020, PyTorch DDP, §3.2.3 bucketing overlaps it with
       * that backward). */
      *dp_step = DP_COLLECTIVE (QM_PARALLEL_ALL_REDUCE, gbytes);
    }
#undef DP_COLLECTIVE
}

static double
shape_eta (double d)
{
  return d / (d + QM_PARALLEL_GEMM_EDGE_COLUMNS);
}

/* A ring-exchange all-gather feeding GEMM @g (Wang et al. 2022,
 * "Overlap Communication with Dependent Computation via Decomposition",
 * ASPLOS; TE userbuffers' ring_exchange, PyTorch AsyncTP): the GEMM is
 * split into t chunks of the gathered rows; chunk k computes while chunk
 * k+1 arrives from the neighbour, so each of the t−1 transfers is exposed
 * only by what its chunk's GEMM does not cover. @chunk_slow: how much
 * slower the chunks run than the whole GEMM, a cost the overlap adds.
 * Returns exposed + added seconds. */
static double
overlap_ring_ag (double t,
                 double x_step,
                 double g,
                 double chunk_slow)
{
  double gc = g * chunk_slow / t;

  return (t - 1.0) * MAX (x_step - gc, 0.0) + g * (chunk_slow - 1.0);
}

/* A reduce-scatter of GEMM @g's output, pipelined in QM_PARALLEL_UB_RS_SPLITS
 * chunks (TE userbuffers "pipeline"): chunk k's reduce-scatter runs under
 * chunk k+1's GEMM; the last one is in the open. The GEMM runs with the
 * communication kernels' SM margin for its whole length. */
static double
overlap_pipeline_rs (double rs,
                     double g,
                     double chunk_slow)
{
  double n = QM_PARALLEL_UB_RS_SPLITS;
  double g2 = g * chunk_slow / (1.0 - QM_PARALLEL_UB_SM_MARGIN);
  double rc = rs / n;

  return rc + (n - 1.0) * MAX (rc - g2 / n, 0.0) + (g2 - g);
}

/* A collective run beside an independent GEMM @g of the backward (TE
 * userbuffers "bulk": the dgrad reduce-scatter under the wgrad GEMM): it
 * is exposed by what @g, slowed by the SM margin, does not cover. */
static double
overlap_bulk (double coll,
              double g)
{
  double g2 = g / (1.0 - QM_PARALLEL_UB_SM_MARGIN);

  return MAX (coll - g2, 0.0) + (g2 - g);
}

/* Seconds of tensor-parallel communication one layer adds to one
 * micro-batch (exposed collectives plus what overlapping them costs),
 * for the layout's tp_overlap.
 *   Without sequence parallelism: two all-reduces forward, two backward.
 *   With it (Korthikanti §4.2.2), the same bytes as all-gathers and
 *   reduce-scatters: forward, the all-gather before QKV and before FC1,
 *   the reduce-scatter after the output projection and after FC2;
 *   backward, the all-gathers of the output gradient before the
 *   projection's and FC2's dgrad, and the reduce-scatters of QKV's and
 *   FC1's input gradient. Full recompute repeats the forward ones.
 * tp_overlap (needs SP; Megatron's --tp-comm-overlap asserts it):
 *   none: every collective in the open;
 *   bulk: the two backward reduce-scatters under the wgrad GEMMs of QKV
 *     and FC1 (overlap_bulk), the rest in the open;
 *   pipelined: bulk, and every forward all-gather (and the backward ones)
 *     as a ring exchange under its GEMM, every forward reduce-scatter
 *     pipelined with its GEMM. */
static double
tp_layer (const QmParallelCtx    *c,
          const QmParallelLayout *l,
          double                  act,
          double                  tok)
{
  const QmParallelProblem *pb = c->pb;
  QmParallelTier tt = qm_parallel_tier_for (c, l->tp, 1);
  double t = l->tp, f = c->f_tok, h = c->h;
  double nfwd = l->recompute == QM_RECOMPUTE_FULL ? 2.0 : 1.0;
  double ag, x_step, eta, slow_t, slow_rs, rate, w, g_qkv, g_proj, g_fc1, g_fc2;
  QmTpOverlap mode = pb->tp_overlap == QM_TP_OVERLAP_AUTO ? l->tp_overlap : pb->tp_overlap;

  if (!l->sequence_parallel)
    return (2.0 + 2.0 * nfwd) * qm_parallel_collective (&tt, QM_PARALLEL_ALL_REDUCE, t, act);
  ag = qm_parallel_collective (&tt, QM_PARALLEL_ALL_GATHER, t, act);
  if (mode == QM_TP_OVERLAP_NONE || mode == QM_TP_OVERLAP_AUTO)
    return (4.0 + 4.0 * nfwd) * ag;

  /* The four GEMMs of the layer, forward, on this rank; their FLOPs per
   * token in proportion to their weights (QKV h·(q + 2kv), projection q·h,
   * FC1 h·f (gated: 2h·f), FC2 f·h), scaled to the layer's GEMM FLOPs. */
  eta = shape_eta (MIN (h / t, tok));
  rate = c->rate * eta;
  w = h * (c->q_dim + 2.0 * c->kv_dim) + c->q_dim * h + (c->pb->shape.gated_mlp ? 3.0 : 2.0) * h * f;
  g_qkv = tok * c->layer_gemm_tok / t / rate * h * (c->q_dim + 2.0 * c->kv_dim) / w;
  g_proj = tok * c->layer_gemm_tok / t / rate * c->q_dim * h / w;
  g_fc1 = tok * c->layer_gemm_tok / t / rate * (c->pb->shape.gated_mlp ? 2.0 : 1.0) * h * f / w;
  g_fc2 = tok * c->layer_gemm_tok / t / rate * f * h / w;

  if (mode == QM_TP_OVERLAP_BULK)
    return (4.0 * nfwd + 2.0) * ag + overlap_bulk (ag, g_qkv) + overlap_bulk (ag, g_fc1);

  /* One ring-exchange step moves 1/t of the gathered activation to the
   * neighbour. The chunks are GEMMs of tok/t rows (tok/4 for the
   * reduce-scatter's pipeline): below one 128-row tile (tok/t < 128)
   * they lose shape efficiency against the whole GEMM; above it their wave tails overlap across
   * userbuffers' compute streams (num_max_streams) and are not priced. */
  x_step = QM_PARALLEL_NCCL_BASE_LATENCY_S + tt.hop + act / t / tt.bw;
  slow_t = tok / t >= QM_PARALLEL_GEMM_EDGE_COLUMNS ? 1.0 : eta / shape_eta (MIN (h / t, tok / t));
  slow_rs = tok / QM_PARALLEL_UB_RS_SPLITS >= QM_PARALLEL_GEMM_EDGE_COLUMNS
            ? 1.0 : eta / shape_eta (MIN (h / t, tok / QM_PARALLEL_UB_RS_SPLITS));
  return nfwd * (overlap_ring_ag (t, x_step, g_qkv, slow_t) + overlap_pipeline_rs (ag, g_proj, slow_rs)
                 + overlap_ring_ag (t, x_step, g_fc1, slow_t) + overlap_pipeline_rs (ag, g_fc2, slow_rs))
         + overlap_ring_ag (t, x_step, g_proj, slow_t) + overlap_ring_ag (t, x_step, g_fc2, slow_t)
         + overlap_bulk (ag, g_qkv) + overlap_bulk (ag, g_fc1);
}

void
qm_parallel_model_step (const QmParallelCtx    *c,
                        const QmParallelLayout *l,
                        QmParallelTime         *o)
{
  const QmParallelProblem *pb = c->pb;
  StageCompute sc;
  double t = l->tp, pp = l->pp, dp = l->dp, cp = l->cp, ep = l->ep, v = l->virtual_stages;
  double m = l->n_micro;
  double tok = (double) l->micro_batch * c->s / cp;
  double ls;
  double act = tok * c->h * 2.0;   /* one 16-bit activation tensor, bytes */
  double tp_mb = 0, cp_mb = 0, ep_mb = 0, pp_mb = 0, zero_mb = 0;
  double dp_step = 0, dp_window;
  double mb_time, gpus;
  double n_moe;

  memset (o, 0, sizeof *o);
  stage_compute (c, l, &sc);
  ls = sc.layers;

  /* Tensor parallel (Shoeybi 2019 §3; Korthikanti §4.2.2). The group is
   * the tp ranks next to each other. */
  if (l->tp > 1)
    tp_mb = ls * tp_layer (c, l, act, tok);

  /* Context parallel: the ring's K/V exchange that its attention blocks
   * do not hide (qm_parallel_ring_attention), forward, backward and the
   * forward again under full recompute. */
  if (l->cp > 1)
    {
      QmParallelRing ring;

      qm_parallel_ring_attention (c, l, &ring);
      cp_mb = ls * (ring.fwd_exposed + ring.bwd_exposed
                    + (l->recompute == QM_RECOMPUTE_FULL ? ring.fwd_exposed : 0.0));
    }

  /* Expert parallel (Lepikhin 2020 GShard §2; DeepSeek-V3 §3.2): each MoE
   * layer dispatches and combines every token's top-k copies by all-to-all,
   * forward and backward. */
  n_moe = qm_model_is_moe (&pb->shape)
          ? (double) (pb->shape.layers - MIN (pb->shape.dense_layers, pb->shape.layers)) / c->L
          : 0.0;
  if (l->ep > 1 && n_moe > 0)
    {
      QmParallelTier te = qm_parallel_tier_for (c, ep, t * cp);
      double k = MAX (pb->shape.experts_per_token, 1u);
      double bytes = tok * k * c->h * 2.0 / (l->sequence_parallel ? t : 1.0);
      double n_a2a = 4.0 + (l->recompute == QM_RECOMPUTE_FULL ? 2.0 : 0.0);

      ep_mb = ls * n_moe * n_a2a * qm_parallel_collective (&te, QM_PARALLEL_ALL_TO_ALL, ep, bytes);
    }

  /* Pipeline p2p (Narayanan 2021 §4.1 scatter/gather: each of the t ranks
   * sends 1/t of the activation): one send forward and one backward per
   * micro-batch per model chunk. */
  if (l->pp > 1)
    {
      QmParallelTier tpp = qm_parallel_tier_for (c, 2, t * cp * dp);
      double bytes = act / t;

      pp_mb = 2.0 * v * (QM_PARALLEL_NCCL_BASE_LATENCY_S + tpp.hop + bytes / tpp.bw);
    }

  data_parallel_comm (c, l, &sc, &zero_mb, &dp_step);

  mb_time = sc.fwd + sc.bwd + sc.rec + tp_mb + cp_mb + ep_mb + zero_mb;
  dp_window = sc.bwd;
  o->dp_comm = qm_parallel_exposed (c, dp_step, dp_window, pb->overlap_dp);

  o->compute = m * (sc.fwd + sc.bwd);
  o->recompute = m * sc.rec;
  o->tp_comm = m * tp_mb;
  o->cp_comm = m * cp_mb;
  o->ep_comm = m * ep_mb;
  o->zero_comm = m * zero_mb;
  o->pp_comm = m * pp_mb;
  /* Pipeline bubble (Narayanan 2021 §2.2.1–2.2.2): (p−1)/(m·v) of the ideal
   * time, i.e. (p−1)/v micro-batch times, on the real stage times: filling
   * and draining pass once through every other stage (their compute, summed,
   * which differs from the slowest's with uneven stages and the head), and
   * each hop's communication. */
  o->bubble = (sc.others + (pp - 1.0) * (mb_time - (sc.fwd + sc.bwd + sc.rec) + pp_mb)) / v;
  o->optimizer = optimizer_time (c, l);
  /* FP8: the layers' weights are cast (with their transpose: read 2, write
   * 1 + 1 bytes) once per step; Megatron-Core passes is_first_microbatch
   * so TE reuses them for the other micro-batches (TE "Using FP8 with
   * Transformer Engine", weight caching under gradient accumulation). */
  if (pb->precision == QM_PRECISION_FP8)
    o->compute += 4.0 * ((c->pc.total - c->pc.embedding - c->pc.expert) / (t * pp)
                         + c->pc.expert / (t * pp * ep)) / c->hbm;
  o->step = o->compute + o->recompute + o->tp_comm + o->cp_comm + o->ep_comm + o->zero_comm
            + o->pp_comm + o->bubble + o->dp_comm + o->optimizer;

  gpus = (double) l->tp * l->pp * l->dp * l->cp;
  if (o->step > 0 && c->peak > 0)
    {
      o->mfu = c->model_flops_step / (o->step * gpus * c->peak);
      o->hfu = c->hw_flops_step[l->recompute] / (o->step * gpus * c->peak);
      o->tokens_per_s = (double) pb->global_batch * c->s / o->step;
    }
}

/* A lower bound on qm_parallel_model_step()'s step: the compute and recompute alone. */
double
qm_parallel_step_lower_bound (const QmParallelCtx    *c,
                              const QmParallelLayout *l)
{
  StageCompute sc;

  stage_compute (c, l, &sc);
  return l->n_micro * (sc.fwd + sc.bwd + sc.rec) + optimizer_time (c, l);
}

gboolean
qm_parallel_layout_valid (const QmParallelProblem *pb,
                          const QmParallelLayout  *l)
{
  const QmModelShape *sh = &pb->shape;
  guint kv = qm_model_kv_heads (sh);

  if (l->tp == 0 || l->pp == 0 || l->dp == 0 || l->cp == 0 || l->ep == 0 ||
      l->micro_batch == 0 || l->virtual_stages == 0 || l->n_micro == 0)
    return FALSE;
  if ((guint64) l->tp * l->pp * l->dp * l->cp != pb->gpus)
    return FALSE;
  if ((guint64) l->micro_batch * l->n_micro * l->dp != pb->global_batch)
    return FALSE;
  if (sh->heads > 0 && sh->heads % l->tp != 0)
    return FALSE;
  if (kv > 0 && kv % l->tp != 0 && l->tp % kv != 0)
    return FALSE;
  if (l->pp > MAX (sh->layers, 1u))
    return FALSE;
  if (l->dp % l->ep != 0)
    return FALSE;
  /* Stages may be uneven (qm_memory_pipeline_stages); interleaving needs
   * at least pp micro-batches to fill the pipeline, not a multiple of pp:
   * Llama 3's schedule runs any number (Dubey et al. 2024 §3.3.2). */
  {
    QmPipelineStages st;

    if (!qm_memory_pipeline_stages (sh->layers, l->pp, l->virtual_stages, &st))
      return FALSE;
  }
  if (l->virtual_stages > 1 && (l->pp == 1 || l->n_micro < l->pp))
    return FALSE;
  return TRUE;
}

gboolean
qm_parallel_step_time (const QmParallelProblem *problem,
                       const QmParallelLayout  *layout,
                       QmParallelTime          *out)
{
  QmParallelCtx c;

  memset (out, 0, sizeof *out);
  if (!qm_parallel_layout_valid (problem, layout))
    return FALSE;
  qm_parallel_ctx_init (&c, problem);
  if (!(c.peak > 0))
    return FALSE;
  qm_parallel_model_step (&c, layout, out);
  return TRUE;
}

double
qm_parallel_recompute_fraction (const QmParallelProblem *pb,
                                const QmParallelLayout  *l)
{
  QmPipelineStages st;

  if (l->recompute != QM_RECOMPUTE_FULL)
    return 0.0;
  if (pb->recompute != QM_RECOMPUTE_FULL || pb->recompute_layers == 0)
    return 1.0;
  if (!qm_memory_pipeline_stages (pb->shape.layers, l->pp, l->virtual_stages, &st))
    qm_memory_pipeline_stages (pb->shape.layers, l->pp, 1, &st);
  return qm_memory_recompute_fraction (pb->recompute_layers, st.chunk);
}

void
qm_parallel_memory (const QmParallelProblem *pb,
                    const QmParallelLayout  *l,
                    QmMemoryBreakdown       *out)
{
  QmMemoryConfig mc;

  memset (&mc, 0, sizeof mc);
  mc.mode = pb->mode;
  mc.precision = pb->precision;
  mc.optimizer = pb->optimizer;
  mc.zero_stage = l->zero_stage;
  mc.tp = l->tp;
  mc.pp = l->pp;
  mc.dp = l->dp;
  mc.cp = l->cp;
  mc.ep = l->ep;
  mc.sequence_parallel = l->sequence_parallel;
  mc.micro_batch = l->micro_batch;
  mc.seq_len = pb->seq_len;
  mc.n_microbatches = l->n_micro;
  mc.virtual_stages = l->virtual_stages;
  mc.recompute = l->recompute;
  /* The plan's recompute_layers go with the plan's full recompute, not
   * with one the search tries. */
  mc.recompute_layers = l->recompute == pb->recompute ? pb->recompute_layers : 0;
  mc.flash_attention = pb->flash_attention;
  mc.lora_rank = pb->lora_rank;
  mc.lora_targets = pb->lora_targets;
  mc.fp32_grad_buffer = pb->fp32_grad_buffer;
  mc.fp8_weights = pb->fp8_weights;
  mc.shard_group = l->shard_group > 0 ? l->shard_group : pb->shard_group;
  mc.capacity_bytes = qm_gpu_memory_bytes (&pb->gpu);
  qm_memory_estimate (&pb->shape, &mc, out);
}

void
qm_parallel_problem_from_plan (const QmPlan      *plan,
                               guint              gpus,
                               QmParallelProblem *out)
{
  const QmWorkload *w = &plan->workload;

  memset (out, 0, sizeof *out);
  out->shape = w->model;
  /* A plan may give params_b alone: price the typical shape that
   * qm_estimate() assumes for it too. */
  if (out->shape.layers == 0 && out->shape.params_hint > 0)
    qm_model_shape_infer (out->shape.params_hint, &out->shape);
  out->mode = w->mode;
  out->precision = w->precision;
  out->optimizer = w->optimizer;
  out->seq_len = w->seq_len;
  out->global_batch = w->global_batch;
  out->flash_attention = w->flash_attention;
  out->sequence_parallel = w->sequence_parallel;
  out->fp32_grad_buffer = w->fp32_grad_buffer;
  out->lora_rank = w->lora_rank;
  out->gpu = plan->hardware.gpu;
  out->server = plan->hardware.server;
  out->network = plan->hardware.network;
  out->gpus = gpus > 0 ? gpus : w->target_gpus;
  out->tp = w->tp;
  out->pp = w->pp;
  out->cp = w->cp;
  out->ep = w->ep;
  out->virtual_stages = qm_workload_virtual_stages (w);
  out->micro_batch = w->micro_batch;
  out->zero_stage = w->zero_stage;
  out->recompute = w->recompute;
  out->recompute_layers = w->recompute_layers;
  out->lora_targets = w->lora_targets;
  out->fp8_weights = w->fp8_weights;
  out->shard_group = w->shard_group;
  out->overlap_dp = TRUE;
  out->tp_overlap = w->tp_overlap;
  out->rank = QM_PARALLEL_RANK_TIME;
  out->usd_per_gpu_hour = plan->pricing.usd_per_gpu_hour;
}

