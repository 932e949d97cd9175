/* qm-parallel-private.h: what the files of the step-time model and the
 * layout search share (qm-parallel.c, -model.c, -comm.c): the calibration
 * constants, the per-problem context and the per-layout model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-parallel.h"

G_BEGIN_DECLS

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

/* How the fused attention kernel's rate depends on the block it is given
 * (what a ring-attention step hands it is a block of the sequence, not
 * the sequence). Shah et al. 2024, "FlashAttention-3" (arXiv 2407.08608)
 * Fig. 5, FlashAttention-2 on H100 SXM5, head dim 128, forward TFLOPs/s at
 * sequence length 512, 1k, 2k, 4k, 8k, 16k: causal 191 260 298 319 333
 * 335, non-causal 309 350 362 368 370 370. Both follow r∞·L/(L + L0)
 * within 4%: causal L0 = 385 (r∞ 348), non-causal L0 = 102 (r∞ 377). The
 * causal kernel's longer ramp is its diagonal tiles, computed whole and
 * half used; off the diagonal the full (non-causal) kernel runs
 * 377/348 = 1.08x faster per useful FLOP. The backward (Fig. 6, 214 to
 * 322, L0 = 272) ramps alike; we apply the forward curves to both.
 * QM_PARALLEL_FLASH_ATTENTION_EFFICIENCY is the causal plateau (r∞);
 * 348 of 989 dense TFLOPs/s is 0.35, the same class. */
#define QM_PARALLEL_FA_CAUSAL_L0        385.0
#define QM_PARALLEL_FA_FULL_L0          102.0
#define QM_PARALLEL_FA_FULL_OVER_CAUSAL 1.08
/* Head dimension: the rate grows as d/(d + d0) (more matmul per softmax
 * element); d0 = 15 from FlashAttention-2's backward at 16k, head dim 64
 * against 128 on H100 (291 and 322 TFLOPs/s, FA3 paper Fig. 6). */
#define QM_PARALLEL_FA_HEAD_DIM_D0      15.0

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
 * (NVIDIA/nccl-tests doc/PERFORMANCE.md defines busbw) reach about 80% of NVLink and of an IB
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

/* Fraction of overlappable NCCL communication (the DP gradient reduce,
 * and each ZeRO-3/FSDP layer's gathers and reduce-scatters under that
 * layer's compute) that is actually hidden behind compute, when the
 * compute window is long enough. Less than one because NCCL kernels take
 * SMs and HBM bandwidth from the GEMMs they overlap (Zhao et al. 2023,
 * "PyTorch FSDP", VLDB §5: overlap is partial); the first gather and the
 * last reduce-scatter, which have nothing to hide behind, are priced in
 * the open by the per-layer model. The CP ring and TP overlap do not use
 * it: they are priced as mechanisms (qm_parallel_ring_attention,
 * tp_layer). The split validation refits it at 0.4-0.7 per half (2026-11,
 * after those mechanisms); the shipped 0.5 stays. Calibrated on the MosaicML FSDP rows as a class, not per row;
 * test-parallel.c refits it with the kernel efficiency on each half of the
 * published runs and reports the other half. A mechanistic replacement
 * (NCCL's channels taking ~20% of the SMs under the overlapped compute,
 * all the rest hidden) made the FSDP rows 10-40% too fast: real FSDP
 * hides less than the window allows. */
#define QM_PARALLEL_COMM_OVERLAP 0.50

/* Transformer Engine userbuffers (transformer_engine/pytorch/module/
 * base.py, initialize_ub() defaults): the pipelined reduce-scatter and the
 * bulk overlaps run their communication kernels on 16 SMs and start the
 * GEMM with that SM margin (set_sm_margin); the ring-exchange all-gathers
 * use the copy engines (1 SM, no margin) and split the GEMM into tp
 * chunks, the pipelined reduce-scatter into 4. 16 of the H100's 132 SMs
 * (NVIDIA H100 datasheet), the GPU userbuffers were written for. */
#define QM_PARALLEL_UB_SM_MARGIN   (16.0 / 132.0)
#define QM_PARALLEL_UB_RS_SPLITS   4.0

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
  double elem_score_bwd_tok; /* ... their backward */
  double fp8_fwd_split_tok;  /* FP8 casts: forward HBM bytes per token per layer, split by TP */
  double fp8_fwd_unsplit_tok;/* ... forward, that only SP splits */
  double fp8_bwd_split_tok;  /* ... backward, split by TP */
  double fp8_bwd_unsplit_tok;/* ... backward, that only SP splits */
  double model_flops_step;
  double hw_flops_step[QM_N_RECOMPUTE];   /* per QmRecompute */
  double peak, peak16, rate, hbm;
  double attn_rate;          /* FlashAttention kernel FLOP/s on useful FLOPs: causal, long
                              * sequence (plateau), at the model's head dimension */
  double q_dim, kv_dim;      /* query and key/value widths (heads · head dim) */
  double gpn, nvlink_bw, nic_bw;
  double mesh_link_bw;       /* a full mesh's one link to each peer (MI300X xGMI); 0 = switched */
  double net_hop;
  double adam_bytes;
  double overlap;            /* hidden fraction of overlapped communication */
  gboolean lora;
} QmParallelCtx;

void     qm_parallel_ctx_init         (QmParallelCtx           *c,
                                       const QmParallelProblem *pb);
/* The step time of layout @l, in parts. */
void     qm_parallel_model_step       (const QmParallelCtx     *c,
                                       const QmParallelLayout  *l,
                                       QmParallelTime          *o);
/* A lower bound on qm_parallel_model_step()'s step: the compute and
 * recompute alone. */
double   qm_parallel_step_lower_bound (const QmParallelCtx     *c,
                                       const QmParallelLayout  *l);
gboolean qm_parallel_layout_valid     (const QmParallelProblem *pb,
                                       const QmParallelLayout  *l);

/* A communicator of n ranks whose neighbours are `stride` ranks apart
 * (Megatron orders ranks tp, cp, dp, pp from the fastest). Inside one node
 * it rides NVLink; across nodes a ring crosses each node boundary once per
 * channel, so its bus bandwidth is the NIC bandwidth of the k members it
 * has in each node (NCCL rings are one channel per NIC rail). */
typedef struct
{
  double bw;    /* bytes/s, bus bandwidth */
  double hop;   /* α per ring step */
} QmParallelTier;

QmParallelTier qm_parallel_tier_for       (const QmParallelCtx *c,
                                           double               n,
                                           double               stride);

typedef enum
{
  QM_PARALLEL_ALL_REDUCE,
  QM_PARALLEL_ALL_GATHER,   /* and reduce-scatter: the same cost */
  QM_PARALLEL_ALL_TO_ALL,
} QmParallelCollective;

/* A point-to-point exchange (each rank sends to its ring neighbour and
 * receives from the other) between ranks @stride apart in a ring of @n:
 * NVLink inside a node; across nodes the hop that leaves the node goes
 * through the sending GPU's own NIC, and the ring waits for it. */
QmParallelTier qm_parallel_p2p_tier       (const QmParallelCtx *c,
                                           double               n,
                                           double               stride);

/* FlashAttention kernel FLOP/s on useful FLOPs for a block whose keys are
 * @len tokens long, causal (the diagonal of the mask) or full. */
double         qm_parallel_attention_rate (const QmParallelCtx *c,
                                           double               len,
                                           gboolean             causal);

/* The attention core of one layer, one micro-batch, on one rank (cp 1):
 * the fused kernel, or without FlashAttention the batched matmuls and
 * the s×s score passes on HBM; forward and backward seconds. */
void           qm_parallel_attention_core (const QmParallelCtx    *c,
                                           const QmParallelLayout *l,
                                           double                 *fwd,
                                           double                 *bwd);

/* Ring attention (context parallel) of one layer, one micro-batch, on one
 * rank: compute seconds (attention blocks and the partial-output merges)
 * and the part of the K/V exchange that those blocks do not hide. */
typedef struct
{
  double fwd, bwd;                  /* compute */
  double fwd_exposed, bwd_exposed;  /* K/V (and dK/dV) exchange left in the open */
  double fwd_block, xfer;           /* one off-diagonal forward block, one K/V transfer */
} QmParallelRing;

void           qm_parallel_ring_attention (const QmParallelCtx    *c,
                                           const QmParallelLayout *l,
                                           QmParallelRing         *out);

/* Seconds for one collective of @bytes per rank over @n ranks on @t. */
double         qm_parallel_collective     (const QmParallelTier  *t,
                                           QmParallelCollective   kind,
                                           double                 n,
                                           double                 bytes);
/* The part of @comm that @window does not hide (none when !@overlap). */
double         qm_parallel_exposed        (const QmParallelCtx *c,
                                           double               comm,
                                           double               window,
                                           gboolean             overlap);

G_END_DECLS
