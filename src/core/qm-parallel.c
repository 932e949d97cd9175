/* qm-parallel.c: throughput model of one training step, and the layout search.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-compute.h"
#include "qm-parallel.h"

/* ---- Calibration constants (the only ones; each with its source) -------- */

/* Fraction of the best-shape matmul rate (gpu->mamf_fraction) that GEMMs
 * lose to their shape: a GEMM whose narrow dimension is d columns per GPU
 * runs at d / (d + QM_PARALLEL_GEMM_EDGE_COLUMNS) of the best-shape rate.
 * The edge is the tile/wave quantisation and prologue/epilogue cost, about
 * one 128-wide thread-block tile (NVIDIA "Matrix Multiplication Background
 * User's Guide", tile and wave quantisation; CUTLASS default 128×128 tiles). */
#define QM_PARALLEL_GEMM_EDGE_COLUMNS 128.0

/* Training kernels in situ reach this fraction of the isolated best-shape
 * matmul rate (MAMF is a short, cool, single-kernel benchmark): sustained
 * power-capped clocks, launch gaps between the hundreds of kernels of a
 * layer, and the kernels the FLOP count leaves out (norms, bias, RoPE,
 * loss). One constant for every row, calibrated on the published
 * Megatron and MosaicML A100 runs as a class (test-parallel.c prints the
 * table); it puts the best measured runs (Korthikanti 530B/1T, HFU 0.57)
 * at about 0.66 of peak after communication and bubble. test-parallel.c
 * refits it on each half of the published runs and reports the other
 * half (0.86-0.90 either way). */
#define QM_PARALLEL_KERNEL_EFFICIENCY 0.88

/* FlashAttention kernels (the fused QK^T, softmax and attention-over-V of
 * the attention core; not the QKV/output projections, which are GEMMs)
 * reach this fraction of dense peak, counted on the FLOPs the kernel
 * executes. Dao 2023, "FlashAttention-2" (arXiv 2307.08691), abstract and
 * §4.1 (A100 80GB, head dim 64/128, seq 512-16k): FlashAttention reaches
 * "only 25-40% of the theoretical maximum FLOPs/s", where GEMMs reach their
 * mamf_fraction (A100 0.869). FlashAttention in Triton (the kernel
 * llm-foundry's MPT used in 2023) is 1.3-1.5x slower than FA2 forward and
 * ~2x backward (§4.1); over the 1 : 2.5 forward/backward FLOPs that is
 * 1.8x FA2's time, i.e. 27-40% from FA2's 50-73%: the same class. We take the middle of the FA1 range, 0.33 (FA2 on H100, up to
 * 335 TFLOPs/s of 989 in §4.1, is in the same class). Applied with
 * QM_PARALLEL_KERNEL_EFFICIENCY, as the isolated GEMM rate is: the
 * benchmark is an isolated kernel too. FA2 on A100 (50-73%) and FA3 on H100
 * (~75%) are faster than this. */
#define QM_PARALLEL_FLASH_ATTENTION_EFFICIENCY 0.33

/* FP8 GEMMs reach a smaller fraction of their (doubled) peak than 16-bit
 * ones: best-shape matmul FP8/BF16 fractions H100 0.709/0.803 = 0.883,
 * B200 0.763/0.776 = 0.983 (stas00/ml-engineering MAMF table, the same
 * table as the catalog's mamf_fraction); the mean. */
#define QM_PARALLEL_FP8_MAMF_RATIO 0.933

/* Used when the catalog has no measured best-shape matmul fraction: the
 * mean of the measured NVIDIA parts (A100 0.869, H100 0.803, B200 0.776;
 * stas00/ml-engineering MAMF table). */
#define QM_PARALLEL_MAMF_DEFAULT 0.816

/* Achieved NCCL bus bandwidth over the link's one-direction peak. nccl-tests
 * (doc/PERFORMANCE.md defines busbw) reach about 80% of NVLink and of an IB
 * port on large messages (e.g. ~230-240 GB/s all-reduce busbw on 300 GB/s
 * A100 NVLink; ~20 of 25 GB/s per HDR port). [M: typical published runs] */
#define QM_PARALLEL_NCCL_BUSBW_FRACTION 0.80

/* NCCL's own α model (src/graph/tuning.cc): ring/Simple base latency
 * 8.4 µs per collective, plus a per-step hardware latency of 3.4 µs on
 * NVLink and 6.6 µs over the network (hwLat, Ring, Simple). The network's
 * switch latency (catalog latency_us) adds to the latter. */
#define QM_PARALLEL_NCCL_BASE_LATENCY_S 8.4e-6
#define QM_PARALLEL_NCCL_NVLINK_HOP_S   3.4e-6
#define QM_PARALLEL_NCCL_NET_HOP_S      6.6e-6

/* Fraction of overlappable communication (DP gradient reduce, ZeRO-3/FSDP
 * gathers, CP ring, TP when the framework overlaps it) that is actually
 * hidden behind compute, when the compute window is long enough. Less than
 * one because NCCL kernels take SMs and HBM bandwidth from the GEMMs they
 * overlap, and the first gather / last reduce of a step have nothing to
 * hide behind (Zhao et al. 2023, "PyTorch FSDP", VLDB §5: overlap is
 * partial). Calibrated on the MosaicML FSDP rows as a class, not per row;
 * test-parallel.c refits it with the kernel efficiency on each half of the
 * published runs and reports the other half. A mechanistic replacement
 * (NCCL's channels taking ~20% of the SMs under the overlapped compute,
 * all the rest hidden) made the FSDP rows 10-40% too fast: real FSDP
 * hides less than the window allows. */
#define QM_PARALLEL_COMM_OVERLAP 0.50

/* ---- Search bounds ------------------------------------------------------- */
#define QM_PARALLEL_MAX_PP_DEFAULT  128
#define QM_PARALLEL_MAX_MB_DEFAULT  64
/* Interleaving: any chunk count the layers allow (a chunk of one layer at
 * most), up to NeMo's deepest published setting (VP 20 on 80 layers and
 * PP 4, Llama 2 70B, NeMo 24.07 performance summary). */
#define QM_PARALLEL_MAX_VIRTUAL     20
#define QM_PARALLEL_MAX_CP          16
#define QM_PARALLEL_MAX_LIST        160

/* Precomputed per problem: everything that does not depend on the layout. */
typedef struct
{
  const QmParallelProblem *pb;
  QmParamCount pc;
  double L, h, s, V, a, f_tok;
  double layer_gemm_tok;     /* forward GEMM FLOPs per token per layer, attention matmuls excluded */
  double attn_tok;           /* forward attention matmul FLOPs per token per layer */
  double logit_tok;          /* forward output-head FLOPs per token */
  double elem_split_tok;     /* element-wise HBM bytes per token per layer that TP splits */
  double elem_unsplit_tok;   /* ... that only SP splits */
  double elem_score_tok;     /* ... of the s×s scores (no FlashAttention), split by TP */
  double fp8_fwd_split_tok;  /* FP8 casts: forward HBM bytes per token per layer, split by TP */
  double fp8_bwd_split_tok;  /* ... backward, split by TP */
  double fp8_bwd_unsplit_tok;/* ... backward, that only SP splits */
  double model_flops_step;
  double hw_flops_step[3];   /* per QmRecompute */
  double peak, peak16, rate, hbm;
  double attn_rate;          /* FlashAttention kernel FLOP/s, on executed FLOPs */
  double gpn, nvlink_bw, nic_bw;
  double net_hop;
  double adam_bytes;
  double overlap;            /* hidden fraction of overlapped communication */
  gboolean lora;
} Ctx;

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

static void
ctx_init (Ctx                     *c,
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
   *   without FlashAttention, per score: softmax read+write 4 bytes,
   *   dropout read 2 + write 2 + mask 1: 9 bytes × a·s per token (TP splits).
   * The backward pass moves about twice that (it reads the saved input and
   * the output gradient and writes the input gradient). */
  c->elem_unsplit_tok = 22.0 * c->h;
  c->elem_split_tok = (sh->gated_mlp ? 6.0 : 4.0) * f;
  c->elem_score_tok = pb->flash_attention ? 0.0 : 9.0 * c->a * c->s;
  /* FP8 (Transformer Engine, Micikevicius et al. 2022 "FP8 Formats for
   * Deep Learning" §4: per-tensor scaled casts with amax history): the
   * GEMM inputs must be cast. The LayerNorm before QKV and FC1 and the
   * activation before FC2 write FP8 directly (fused), so the forward adds
   * one unfused cast, of the attention output (read 2 + write 1 bytes);
   * the backward casts the output gradient of each of the four GEMMs and
   * its transpose for the weight gradient (read 2, write 1 + 1). amax is
   * taken in the same pass. Attention itself stays in 16 bits. */
  if (pb->precision == QM_PRECISION_FP8)
    {
      c->fp8_fwd_split_tok = 3.0 * q;
      c->fp8_bwd_split_tok = 4.0 * (q + 2.0 * kvd) + 4.0 * (sh->gated_mlp ? 2.0 : 1.0) * f;
      c->fp8_bwd_unsplit_tok = 8.0 * c->h;
    }

  tokens_step = (double) pb->global_batch * c->s;
  for (guint r = 0; r < 3; r++)
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
  c->hbm = pb->gpu.bandwidth_tbs * 1e12;
  c->gpn = MAX (pb->server.gpus, 1u);
  c->nvlink_bw = pb->gpu.link_gbs * 1e9 * QM_PARALLEL_NCCL_BUSBW_FRACTION;
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

/* A communicator of n ranks whose neighbours are `stride` ranks apart
 * (Megatron orders ranks tp, cp, dp, pp from the fastest). Inside one node
 * it rides NVLink; across nodes a ring crosses each node boundary once per
 * channel, so its bus bandwidth is the NIC bandwidth of the k members it
 * has in each node (NCCL rings are one channel per NIC rail). */
typedef struct
{
  double bw;    /* bytes/s, bus bandwidth */
  double hop;   /* α per ring step */
} Tier;

static Tier
tier_for (const Ctx *c,
          double     n,
          double     stride)
{
  Tier t;

  if (n * stride <= c->gpn)
    {
      t.bw = c->nvlink_bw;
      t.hop = QM_PARALLEL_NCCL_NVLINK_HOP_S;
    }
  else
    {
      double k = stride >= c->gpn ? 1.0 : MIN (n, c->gpn / stride);

      t.bw = MIN (c->nvlink_bw > 0 ? c->nvlink_bw : G_MAXDOUBLE, k * c->nic_bw);
      t.hop = c->net_hop;
    }
  if (!(t.bw > 0))
    t.bw = 1e9;
  return t;
}

/* NCCL ring algorithms (nccl-tests doc/PERFORMANCE.md): all-reduce moves
 * 2(n−1)/n of the buffer per rank in 2(n−1) steps; all-gather and
 * reduce-scatter (n−1)/n in n−1 steps. α–β: steps·α + bytes/busbw. */
static double
ring_allreduce (const Tier *t,
                double      n,
                double      bytes)
{
  if (n <= 1)
    return 0;
  return QM_PARALLEL_NCCL_BASE_LATENCY_S + 2.0 * (n - 1) * t->hop
         + 2.0 * (n - 1) / n * bytes / t->bw;
}

static double
ring_gather (const Tier *t,
             double      n,
             double      bytes)
{
  if (n <= 1)
    return 0;
  return QM_PARALLEL_NCCL_BASE_LATENCY_S + (n - 1) * t->hop + (n - 1) / n * bytes / t->bw;
}

/* All-to-all (MoE dispatch/combine): each rank keeps 1/n and sends the
 * rest, (n−1)/n of its buffer, pairwise (NCCL send/recv groups). */
static double
all_to_all (const Tier *t,
            double      n,
            double      bytes)
{
  if (n <= 1)
    return 0;
  return QM_PARALLEL_NCCL_BASE_LATENCY_S + t->hop + (n - 1) / n * bytes / t->bw;
}

static double
exposed (const Ctx *c,
         double     comm,
         double     window,
         gboolean   overlap)
{
  if (!overlap)
    return comm;
  return comm - MIN (c->overlap * comm, MAX (window, 0.0));
}

/* Per-micro-batch compute of one pipeline stage, and the pieces the search
 * bound needs. */
typedef struct
{
  double fwd, bwd, rec;   /* seconds for one micro-batch on the slowest stage */
  double layers;          /* transformer layers on that stage */
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
attention_seconds (const Ctx *c,
                   double     tok,
                   double     t,
                   double     gemm_rate,
                   double    *fwd,
                   double    *bwd)
{
  if (c->pb->flash_attention)
    {
      *fwd = tok * c->attn_tok * 0.5 / t / c->attn_rate;
      *bwd = 2.5 * *fwd;
    }
  else
    {
      /* Batched 16-bit GEMMs, also under an FP8 recipe. */
      *fwd = tok * c->attn_tok / t / (gemm_rate * c->peak16 / c->peak);
      *bwd = 2.0 * *fwd;
    }
}

static void
stage_compute (const Ctx              *c,
               const QmParallelLayout *l,
               StageCompute           *out)
{
  const QmParallelProblem *pb = c->pb;
  double t = l->tp, cp = l->cp;
  double tok = (double) l->micro_batch * c->s / cp;
  double d = c->h / t, eta, rate;
  double gemm_layer, attn_layer, attn_bwd, elem_layer, score_layer, logits;
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
  attention_seconds (c, tok, t, rate, &attn_layer, &attn_bwd);
  score_layer = tok * c->elem_score_tok / t / c->hbm;
  elem_layer = tok * (c->elem_split_tok / t + c->elem_unsplit_tok / (sp ? t : 1.0)) / c->hbm
               + score_layer;
  fp8_fwd = tok * c->fp8_fwd_split_tok / t / c->hbm;
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
  lf = gemm_layer + attn_layer + elem_layer + fp8_fwd;
  lb = (c->lora ? 1.0 : 2.0) * gemm_layer + attn_bwd + 2.0 * elem_layer + fp8_bwd;
  switch (l->recompute)
    {
    case QM_RECOMPUTE_FULL:
      /* One more forward of every layer, not of the head (Narayanan eq. 3). */
      lr = lf;
      break;
    case QM_RECOMPUTE_SELECTIVE:
      /* Only QKᵀ, softmax, dropout and attention over V (Korthikanti §5). */
      lr = attn_layer + score_layer;
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
}

static double
optimizer_time (const Ctx              *c,
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

static void
model_step (const Ctx              *c,
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
  double psi_dense, psi_expert, gbytes;
  double n_moe;

  memset (o, 0, sizeof *o);
  stage_compute (c, l, &sc);
  ls = sc.layers;

  /* Tensor parallel (Shoeybi 2019 §3; Korthikanti §4.2.2): per layer two
   * all-reduces forward and two backward, or with SP the same bytes as
   * all-gather + reduce-scatter pairs; full recompute repeats the forward
   * ones. The group is the tp ranks next to each other. */
  if (l->tp > 1)
    {
      Tier tt = tier_for (c, t, 1);
      double n_ar = 4.0 + (l->recompute == QM_RECOMPUTE_FULL ? 2.0 : 0.0);
      double one = l->sequence_parallel
                   ? 2.0 * ring_gather (&tt, t, act)
                   : ring_allreduce (&tt, t, act);

      tp_mb = ls * n_ar * one;
      if (pb->overlap_tp)
        tp_mb = exposed (c, tp_mb, sc.fwd + sc.bwd, TRUE);
    }

  /* Context parallel, ring attention (Liu et al. 2023; Megatron CP): each
   * layer passes K and V (2·kv_dim per token, 16-bit) round the cp ring
   * forward, and K, V and their gradients backward, overlapped with the
   * attention blocks. */
  if (l->cp > 1)
    {
      Tier tc = tier_for (c, cp, t);
      double kvd = (double) qm_model_kv_heads (&pb->shape) * qm_model_head_dim (&pb->shape);
      double kv = tok * 2.0 * kvd * 2.0 / t;
      double per_layer = (cp - 1) * (QM_PARALLEL_NCCL_BASE_LATENCY_S + tc.hop + kv / tc.bw);
      double comm = ls * per_layer * (1.0 + 2.0 + (l->recompute == QM_RECOMPUTE_FULL ? 1.0 : 0.0));
      double attn_fwd, attn_bwd;

      /* Hidden behind the attention blocks, forward and backward. */
      attention_seconds (c, tok, t, c->rate, &attn_fwd, &attn_bwd);
      if (!pb->flash_attention)
        attn_bwd = 2.0 * attn_fwd;
      cp_mb = exposed (c, comm, ls * (attn_fwd + attn_bwd), TRUE);
    }

  /* Expert parallel (Lepikhin 2020 GShard §2; DeepSeek-V3 §3.2): each MoE
   * layer dispatches and combines every token's top-k copies by all-to-all,
   * forward and backward. */
  n_moe = qm_model_is_moe (&pb->shape)
          ? (double) (pb->shape.layers - MIN (pb->shape.dense_layers, pb->shape.layers)) / c->L
          : 0.0;
  if (l->ep > 1 && n_moe > 0)
    {
      Tier te = tier_for (c, ep, t * cp);
      double k = MAX (pb->shape.experts_per_token, 1u);
      double bytes = tok * k * c->h * 2.0 / (l->sequence_parallel ? t : 1.0);
      double n_a2a = 4.0 + (l->recompute == QM_RECOMPUTE_FULL ? 2.0 : 0.0);

      ep_mb = ls * n_moe * n_a2a * all_to_all (&te, ep, bytes);
    }

  /* Pipeline p2p (Narayanan 2021 §4.1 scatter/gather: each of the t ranks
   * sends 1/t of the activation): one send forward and one backward per
   * micro-batch per model chunk. */
  if (l->pp > 1)
    {
      Tier tpp = tier_for (c, 2, t * cp * dp);
      double bytes = act / t;

      pp_mb = 2.0 * v * (QM_PARALLEL_NCCL_BASE_LATENCY_S + tpp.hop + bytes / tpp.bw);
    }

  /* Data parallel: gradients reduce over the dp·cp ranks that hold the
   * same weights (Megatron-Core's data-parallel group with CP), stride tp;
   * experts over the expert-data-parallel group dp·cp/ep (ZeRO §5: Ψ
   * becomes Ψ/(t·p)). */
  psi_dense = (c->pc.total - c->pc.expert) / (t * pp);
  psi_expert = c->pc.expert / (t * pp * ep);
  if (c->lora)
    {
      psi_dense = qm_memory_lora_params (&pb->shape, MAX (pb->lora_rank, 1u)) / (t * pp);
      psi_expert = 0;
    }
  gbytes = pb->fp32_grad_buffer ? 4.0 : 2.0;
  dp *= cp;
  if (dp > 1)
    {
      Tier td = tier_for (c, dp, t);
      Tier tde = tier_for (c, MAX (1.0, dp / ep), t * ep);
      double ede = MAX (1.0, dp / ep);

      if (l->zero_stage >= 3 && !c->lora)
        {
          /* ZeRO-3 / FSDP FULL_SHARD (Rajbhandari 2020 §7.2.2: 1.5× DP
           * volume): every micro-batch gathers the 16-bit weights for the
           * forward and again for the backward, and reduce-scatters the
           * gradients. */
          double wb = 2.0;

          zero_mb = 2.0 * (ring_gather (&td, dp, psi_dense * wb) + ring_gather (&tde, ede, psi_expert * wb))
                    + ring_gather (&td, dp, psi_dense * gbytes)
                    + ring_gather (&tde, ede, psi_expert * gbytes);
          zero_mb = exposed (c, zero_mb, sc.fwd + sc.bwd + sc.rec, pb->overlap_dp);
        }
      else if (l->zero_stage == 2)
        {
          /* ZeRO-2: gradients reduce-scattered as each backward produces
           * them, the updated weights all-gathered once per step. */
          zero_mb = ring_gather (&td, dp, psi_dense * gbytes) + ring_gather (&tde, ede, psi_expert * gbytes);
          zero_mb = exposed (c, zero_mb, sc.bwd, pb->overlap_dp);
          dp_step = ring_gather (&td, dp, psi_dense * 2.0) + ring_gather (&tde, ede, psi_expert * 2.0);
        }
      else
        {
          /* DP / ZeRO-1: one all-reduce (or reduce-scatter + all-gather, the
           * same bytes) of the gradients per step, after the last micro-batch
           * (Li et al. 2020, PyTorch DDP, §3.2.3 bucketing overlaps it with
           * that backward). */
          dp_step = ring_allreduce (&td, dp, psi_dense * gbytes)
                    + ring_allreduce (&tde, ede, psi_expert * gbytes);
        }
    }
  else if (l->ep > 1 && psi_expert > 0)
    dp_step = 0;

  mb_time = sc.fwd + sc.bwd + sc.rec + tp_mb + cp_mb + ep_mb + zero_mb;
  dp_window = sc.bwd;
  o->dp_comm = exposed (c, dp_step, dp_window, pb->overlap_dp);

  o->compute = m * (sc.fwd + sc.bwd);
  o->recompute = m * sc.rec;
  o->tp_comm = m * tp_mb;
  o->cp_comm = m * cp_mb;
  o->ep_comm = m * ep_mb;
  o->zero_comm = m * zero_mb;
  o->pp_comm = m * pp_mb;
  /* Pipeline bubble (Narayanan 2021 §2.2.1–2.2.2): (p−1)/(m·v) of the ideal
   * time, i.e. (p−1)/v micro-batch times. */
  o->bubble = (pp - 1.0) / v * (mb_time + pp_mb);
  o->optimizer = optimizer_time (c, l);
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

/* A lower bound on model_step()'s step: the compute and recompute alone. */
static double
step_lower_bound (const Ctx              *c,
                  const QmParallelLayout *l)
{
  StageCompute sc;

  stage_compute (c, l, &sc);
  return l->n_micro * (sc.fwd + sc.bwd + sc.rec) + optimizer_time (c, l);
}

static gboolean
layout_valid (const QmParallelProblem *pb,
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
  Ctx c;

  memset (out, 0, sizeof *out);
  if (!layout_valid (problem, layout))
    return FALSE;
  ctx_init (&c, problem);
  if (!(c.peak > 0))
    return FALSE;
  model_step (&c, layout, out);
  return TRUE;
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
  mc.flash_attention = pb->flash_attention;
  mc.lora_rank = pb->lora_rank;
  mc.fp32_grad_buffer = pb->fp32_grad_buffer;
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
  out->virtual_stages = w->virtual_stages;
  out->micro_batch = w->micro_batch;
  out->zero_stage = w->zero_stage;
  out->recompute = w->recompute;
  out->overlap_dp = TRUE;
  out->rank = QM_PARALLEL_RANK_TIME;
  out->usd_per_gpu_hour = plan->pricing.usd_per_gpu_hour;
}

/* ---- Search -------------------------------------------------------------- */

static guint
push_unique (guint *list,
             guint  n,
             guint  v)
{
  for (guint i = 0; i < n; i++)
    if (list[i] == v)
      return n;
  if (n < QM_PARALLEL_MAX_LIST)
    list[n++] = v;
  return n;
}

static void
sort_uints (guint *list,
            guint  n)
{
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && list[j - 1] > list[j]; j--)
      {
        guint t = list[j];
        list[j] = list[j - 1];
        list[j - 1] = t;
      }
}

static double
rank_value (const QmParallelProblem *pb,
            const QmParallelTime    *t)
{
  if (pb->rank == QM_PARALLEL_RANK_COST)
    return t->step * pb->gpus * (pb->usd_per_gpu_hour > 0 ? pb->usd_per_gpu_hour : 1.0) / 3600.0;
  return t->step;
}

/* A total order on layouts for ties, so that the pruned and exhaustive
 * searches return the same list whatever order they visit layouts in. */
static int
layout_cmp (const QmParallelLayout *a,
            const QmParallelLayout *b)
{
  guint ka[] = { a->tp, a->pp, a->cp, a->ep, a->micro_batch, a->virtual_stages,
                 a->zero_stage, a->recompute };
  guint kb[] = { b->tp, b->pp, b->cp, b->ep, b->micro_batch, b->virtual_stages,
                 b->zero_stage, b->recompute };

  for (guint i = 0; i < G_N_ELEMENTS (ka); i++)
    if (ka[i] != kb[i])
      return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

static gboolean
better (const QmParallelProblem *pb,
        const QmParallelResult  *a,
        const QmParallelResult  *b)
{
  double va = rank_value (pb, &a->time), vb = rank_value (pb, &b->time);

  if (va != vb)
    return va < vb;
  return layout_cmp (&a->layout, &b->layout) < 0;
}

static void
insert_top (const QmParallelProblem *pb,
            QmParallelSearch        *out,
            guint                    top_n,
            const QmParallelResult  *r)
{
  guint i;

  if (out->n == top_n && !better (pb, r, &out->top[top_n - 1]))
    return;
  i = out->n < top_n ? out->n++ : top_n - 1;
  while (i > 0 && better (pb, r, &out->top[i - 1]))
    {
      out->top[i] = out->top[i - 1];
      i--;
    }
  out->top[i] = *r;
}

/* Every interleaving of one layout (@l with v unset): check memory, bound,
 * price, keep the best. TRUE when the plain 1F1B schedule (v = 1) does not
 * fit, so that larger micro-batches need not be tried. */
static gboolean
try_virtual_stages (const Ctx               *c,
                    const QmParallelProblem *pb,
                    guint                    top_n,
                    QmParallelLayout        *l,
                    QmParallelSearch        *out)
{
  guint L = MAX (pb->shape.layers, 1u);
  guint v_lo = pb->virtual_stages > 0 ? pb->virtual_stages : 1;
  guint v_hi = pb->virtual_stages > 0 ? pb->virtual_stages
               : (l->pp > 1 ? MIN (QM_PARALLEL_MAX_VIRTUAL, (L + l->pp - 1) / l->pp) : 1);
  gboolean v1_nofit = FALSE;

  for (guint v = v_lo; v <= v_hi; v++)
    {
      QmParallelResult res;
      QmMemoryBreakdown mem;

      l->virtual_stages = v;
      if (!layout_valid (pb, l))
        continue;
      out->no_fit.layouts_tried++;
      qm_parallel_memory (pb, l, &mem);
      out->memory_checks++;
      if (!mem.fits)
        {
          if (-mem.margin < out->no_fit.shortfall_bytes)
            {
              out->no_fit.shortfall_bytes = -mem.margin;
              out->no_fit.best_layout = *l;
              out->no_fit.best_memory = mem;
            }
          /* Interleaving keeps 1 + (p−1)/(p·v) times the activations of
           * 1F1B, never fewer. */
          if (v == 1)
            v1_nofit = TRUE;
          continue;
        }
      /* Bound: compute alone cannot beat the N-th best. */
      if (!pb->no_prune && out->n == top_n)
        {
          QmParallelTime lb = { 0 };

          lb.step = step_lower_bound (c, l);
          if (rank_value (pb, &lb) > rank_value (pb, &out->top[top_n - 1].time))
            {
              out->pruned++;
              continue;
            }
        }
      res.layout = *l;
      res.memory = mem;
      model_step (c, l, &res.time);
      res.cost_usd_per_step = res.time.step * pb->gpus * pb->usd_per_gpu_hour / 3600.0;
      out->evaluated++;
      insert_top (pb, out, top_n, &res);
    }
  return v1_nofit;
}

static void
search_core (const QmParallelProblem *pb,
             guint                    top_n,
             QmParallelSearch        *out)
{
  Ctx c;
  guint tps[QM_PARALLEL_MAX_LIST], pps[QM_PARALLEL_MAX_LIST], cps[QM_PARALLEL_MAX_LIST];
  guint eps[QM_PARALLEL_MAX_LIST], mbs[QM_PARALLEL_MAX_LIST];
  guint ntp = 0, npp = 0, ncp = 0;
  guint L = MAX (pb->shape.layers, 1u);
  guint gpn = MAX (pb->server.gpus, 1u);
  guint max_pp = pb->max_pp > 0 ? pb->max_pp : QM_PARALLEL_MAX_PP_DEFAULT;
  guint max_mb = pb->max_micro_batch > 0 ? pb->max_micro_batch : QM_PARALLEL_MAX_MB_DEFAULT;
  guint z_lo = pb->search_zero ? 0 : MIN (pb->zero_stage, 3u);
  guint z_hi = pb->search_zero ? 3 : MIN (pb->zero_stage, 3u);
  guint r_lo = pb->search_recompute ? 0 : pb->recompute;
  guint r_hi = pb->search_recompute ? 2 : pb->recompute;
  gboolean moe = qm_model_is_moe (&pb->shape);

  memset (out, 0, sizeof *out);
  out->no_fit.shortfall_bytes = G_MAXDOUBLE;
  top_n = CLAMP (top_n, 1u, (guint) QM_PARALLEL_MAX_TOP);
  if (pb->gpus == 0 || pb->global_batch == 0 || pb->seq_len == 0)
    return;
  ctx_init (&c, pb);
  if (!(c.peak > 0))
    return;

  /* TP: powers of two inside the node first, then up to two nodes. */
  if (pb->tp > 0)
    tps[ntp++] = pb->tp;
  else
    for (guint t = 1; t <= 2 * gpn && t <= MAX (pb->shape.heads, 1u); t *= 2)
      tps[ntp++] = t;
  /* PP: divisors of the layers, powers of two, and the divisors of the
   * GPU count: stages may be uneven (qm_memory_pipeline_stages), so a
   * count with an odd factor can put it into pp, as Llama 3 put 126
   * layers on 16 stages. */
  if (pb->pp > 0)
    pps[npp++] = pb->pp;
  else
    {
      for (guint p = 1; p <= MIN (L, max_pp); p++)
        if (L % p == 0 || pb->gpus % p == 0)
          npp = push_unique (pps, npp, p);
      for (guint p = 1; p <= MIN (L, max_pp); p *= 2)
        npp = push_unique (pps, npp, p);
      sort_uints (pps, npp);
    }
  /* CP: powers of two that split the sequence into chunks of ≥ 1024
   * (ring attention pairs chunks; below that the exchange dominates). */
  if (pb->cp > 0)
    cps[ncp++] = pb->cp;
  else
    for (guint k = 1; k <= QM_PARALLEL_MAX_CP && (k == 1 || pb->seq_len / k >= 1024); k *= 2)
      if (pb->seq_len % k == 0)
        cps[ncp++] = k;

  for (guint it = 0; it < ntp; it++)
    for (guint ic = 0; ic < ncp; ic++)
      for (guint ip = 0; ip < npp; ip++)
        {
          guint tp = tps[it], cp = cps[ic], pp = pps[ip];
          guint64 mp = (guint64) tp * cp * pp;
          guint dp, per_dp, nep = 0, nmb = 0;

          if (mp > pb->gpus || pb->gpus % mp != 0)
            continue;
          dp = pb->gpus / mp;
          if (pb->global_batch % dp != 0)
            continue;
          per_dp = pb->global_batch / dp;

          if (pb->ep > 0)
            eps[nep++] = pb->ep;
          else if (!moe)
            eps[nep++] = 1;
          else
            for (guint e = 1; e <= MAX (pb->shape.experts, 1u); e *= 2)
              if (pb->shape.experts % e == 0 && dp % e == 0)
                eps[nep++] = e;

          if (pb->search_micro_batch)
            {
              for (guint b = 1; b <= MIN (per_dp, max_mb); b++)
                if (per_dp % b == 0)
                  mbs[nmb++] = b;
            }
          else
            {
              guint b = MAX (pb->micro_batch, 1u);
              if (per_dp % b == 0)
                mbs[nmb++] = b;
            }

          for (guint ie = 0; ie < nep; ie++)
            for (guint z = z_lo; z <= z_hi; z++)
              for (guint r = r_lo; r <= r_hi; r++)
                for (guint ib = 0; ib < nmb; ib++)
                  {
                    QmParallelLayout l;
                    gboolean v1_nofit;

                    memset (&l, 0, sizeof l);
                    l.tp = tp;
                    l.pp = pp;
                    l.dp = dp;
                    l.cp = cp;
                    l.ep = eps[ie];
                    l.micro_batch = mbs[ib];
                    l.n_micro = per_dp / mbs[ib];
                    l.virtual_stages = 1;
                    l.zero_stage = z;
                    l.recompute = (QmRecompute) r;
                    l.sequence_parallel = pb->sequence_parallel && tp > 1;
                    v1_nofit = try_virtual_stages (&c, pb, top_n, &l, out);
                    /* Memory grows with the micro-batch: when no
                     * interleaving fits, larger ones cannot fit either. */
                    if (v1_nofit && !pb->no_prune)
                      {
                        out->pruned += nmb - ib - 1;
                        break;
                      }
                  }
        }
}

void
qm_parallel_search (const QmParallelProblem *pb,
                    guint                    top_n,
                    QmParallelSearch        *out)
{
  QmParallelNoFit *nf = &out->no_fit;
  QmParallelProblem alt;
  QmParallelSearch *tmp;

  search_core (pb, top_n, out);
  if (out->n > 0)
    {
      memset (nf, 0, sizeof *nf);
      return;
    }

  /* Nothing fits: say why, and what would. The what-ifs run the search
   * again with one restriction lifted (this path is not the hot one). */
  nf->valid = TRUE;
  if (nf->layouts_tried == 0)
    {
      nf->fixes |= QM_PARALLEL_FIX_GLOBAL_BATCH;
      nf->shortfall_bytes = 0;
      return;
    }
  nf->fixes |= QM_PARALLEL_FIX_BIGGER_GPU;
  nf->fix_capacity_bytes = nf->best_memory.total;

  tmp = g_alloca (sizeof *tmp);
  if (!pb->search_zero && pb->zero_stage < 3)
    {
      alt = *pb;
      alt.zero_stage = 3;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_ZERO3;
    }
  if (!pb->search_recompute && pb->recompute != QM_RECOMPUTE_FULL)
    {
      alt = *pb;
      alt.recompute = QM_RECOMPUTE_FULL;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_RECOMPUTE;
    }
  if (!pb->search_micro_batch && pb->micro_batch > 1)
    {
      alt = *pb;
      alt.micro_batch = 1;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_MICRO_BATCH;
    }
  if (pb->tp > 0 || pb->pp > 0 || pb->cp > 0 || pb->ep > 0)
    {
      alt = *pb;
      alt.tp = alt.pp = alt.cp = alt.ep = 0;
      alt.virtual_stages = 0;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_MODEL_PARALLEL;
    }
  /* More GPUs of the same kind, everything else on auto: doublings up to
   * 1024× (the global batch bounds the data-parallel degree). */
  alt = *pb;
  alt.tp = alt.pp = alt.cp = alt.ep = 0;
  alt.virtual_stages = 0;
  alt.search_zero = alt.search_recompute = alt.search_micro_batch = TRUE;
  for (guint k = 1; k <= 10; k++)
    {
      guint64 g = (guint64) pb->gpus << k;

      if (g > G_MAXUINT / 2)
        break;
      alt.gpus = (guint) g;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        {
          nf->fixes |= QM_PARALLEL_FIX_MORE_GPUS;
          nf->fix_gpus = alt.gpus;
          break;
        }
    }
}

const char *
qm_parallel_no_fit_format (const QmParallelNoFit *nf,
                           char                  *buf,
                           gsize                  size)
{
  GString *s;

  if (size == 0)
    return buf;
  if (!nf->valid)
    {
      g_strlcpy (buf, "", size);
      return buf;
    }
  s = g_string_new (NULL);
  if (nf->fixes & QM_PARALLEL_FIX_GLOBAL_BATCH)
    g_string_append (s, "no layout divides the global batch (global_batch = micro_batch × n_micro × dp)");
  else
    {
      const QmParallelLayout *l = &nf->best_layout;

      g_string_append_printf (s, "no layout fits in memory; the closest (tp %u, pp %u, dp %u, cp %u, "
                              "micro-batch %u, ZeRO-%u, recompute %s) needs %.1f GB, %.1f GB more than "
                              "the GPU has. Would fit:",
                              l->tp, l->pp, l->dp, l->cp, l->micro_batch, l->zero_stage,
                              qm_recompute_to_string (l->recompute),
                              nf->best_memory.total / 1e9, nf->shortfall_bytes / 1e9);
      if (nf->fixes & QM_PARALLEL_FIX_MORE_GPUS)
        g_string_append_printf (s, " %u GPUs;", nf->fix_gpus);
      if (nf->fixes & QM_PARALLEL_FIX_ZERO3)
        g_string_append (s, " ZeRO-3;");
      if (nf->fixes & QM_PARALLEL_FIX_RECOMPUTE)
        g_string_append (s, " full recompute;");
      if (nf->fixes & QM_PARALLEL_FIX_MICRO_BATCH)
        g_string_append (s, " micro-batch 1;");
      if (nf->fixes & QM_PARALLEL_FIX_MODEL_PARALLEL)
        g_string_append (s, " tp/pp/cp/ep on auto;");
      if (nf->fixes & QM_PARALLEL_FIX_BIGGER_GPU)
        g_string_append_printf (s, " a GPU with at least %.0f GB.", ceil (nf->fix_capacity_bytes / 1e9));
    }
  g_strlcpy (buf, s->str, size);
  g_string_free (s, TRUE);
  return buf;
}

/* ---- GPUs-vs-time curve -------------------------------------------------- */

guint
qm_parallel_curve_counts (guint  min_gpus,
                          guint  max_gpus,
                          guint  gpn,
                          guint  n,
                          guint *counts)
{
  guint k = 0;
  double lo, hi;

  gpn = MAX (gpn, 1u);
  min_gpus = MAX (min_gpus, 1u);
  max_gpus = MAX (max_gpus, min_gpus);
  if (n == 0)
    return 0;
  lo = log ((double) min_gpus);
  hi = log ((double) max_gpus);
  for (guint i = 0; i < n; i++)
    {
      double g = exp (n > 1 ? lo + (hi - lo) * i / (n - 1) : lo);
      double best = 0, best_d = G_MAXDOUBLE;
      guint c;

      /* Cluster sizes people buy and layouts can use: 2^k, and 1, 1.25,
       * 1.5 or 1.75 × 2^k whole nodes (the data-parallel degree must divide
       * a power-of-two batch, so odd factors have to go to tp·pp·cp). */
      for (double p2 = 1; p2 <= 2.0 * max_gpus; p2 *= 2)
        for (guint m = 4; m <= 7; m++)
          {
            double cand = p2 < gpn ? (m == 4 ? p2 : 0) : p2 * m / 4.0;
            double d;

            if (cand < 1 || fmod (cand, p2 < gpn ? 1.0 : (double) gpn) != 0)
              continue;
            d = fabs (log (cand / g));
            if (d < best_d)
              {
                best_d = d;
                best = cand;
              }
          }
      c = (guint) CLAMP (best, (double) min_gpus, (double) max_gpus);
      if (k == 0 || counts[k - 1] < c)
        counts[k++] = c;
    }
  return k;
}

void
qm_parallel_curve (const QmParallelProblem *pb,
                   double                   tokens,
                   const guint             *counts,
                   guint                    n,
                   QmParallelCurvePoint    *points,
                   QmParallelCurve         *out)
{
  QmParallelProblem p = *pb;
  QmParallelSearch *res = g_alloca (sizeof *res);
  double steps = tokens / ((double) MAX (pb->global_batch, 1u) * MAX (pb->seq_len, 1u));
  double last_t = 0;
  guint last_g = 0;

  memset (out, 0, sizeof *out);
  out->knee = n;
  out->monotone = TRUE;
  for (guint i = 0; i < n; i++)
    {
      QmParallelCurvePoint *pt = &points[i];

      memset (pt, 0, sizeof *pt);
      pt->gpus = counts[i];
      p.gpus = counts[i];
      search_core (&p, 1, res);
      out->evaluated += res->evaluated;
      if (res->n == 0)
        continue;
      pt->fits = TRUE;
      pt->step_s = res->top[0].time.step;
      pt->train_s = steps * pt->step_s;
      pt->mfu = res->top[0].time.mfu;
      pt->layout = res->top[0].layout;
      if (last_g > 0)
        {
          double doublings = log2 ((double) pt->gpus / last_g);

          /* Speed-up per doubling, so uneven grid steps compare. */
          pt->speedup = doublings > 0 ? pow (last_t / pt->train_s, 1.0 / doublings) : 1.0;
          if (pt->train_s > last_t * (1.0 + 1e-9))
            out->monotone = FALSE;
          if (out->knee == n && pt->speedup < QM_PARALLEL_KNEE_SPEEDUP)
            out->knee = i;
        }
      last_t = pt->train_s;
      last_g = pt->gpus;
    }
  out->n = n;
}
