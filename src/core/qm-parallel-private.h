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
  double hw_flops_step[QM_N_RECOMPUTE];   /* per QmRecompute */
  double peak, peak16, rate, hbm;
  double attn_rate;          /* FlashAttention kernel FLOP/s, on executed FLOPs */
  double gpn, nvlink_bw, nic_bw;
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
