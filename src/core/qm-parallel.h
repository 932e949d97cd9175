/* qm-parallel.h: a throughput model of one training step, and the search
 * for the fastest parallel layout that fits in memory.
 *
 * The model prices one optimizer step of one pipeline stage on one GPU:
 * GEMMs at an achievable matmul rate, memory-bound element-wise kernels at
 * HBM bandwidth, α–β collectives per tier (NVLink inside a node, the
 * compute fabric across nodes), the pipeline bubble, recompute and the
 * optimizer step. Every constant is named in qm-parallel.c with its source.
 *
 * Nothing here allocates: a search over tens of thousands of layouts runs in
 * milliseconds, so the UI can call it on every edit.
 *
 * How qm_estimate() should use it (the lead wires this in):
 *
 *   QmParallelProblem pb;
 *   QmParallelSearch  res;
 *
 *   qm_parallel_problem_from_plan (plan, gpus, &pb);
 *   // plan->workload.tp/pp/cp/ep == 0 are "auto" and searched; non-zero
 *   // values are kept. zero_stage, recompute and micro_batch are the
 *   // plan's own unless the caller sets pb.search_zero / search_recompute /
 *   // search_micro_batch (the CLI `search` command sets all three).
 *   qm_parallel_search (&pb, 1, &res);
 *   if (res.n > 0)
 *     {
 *       const QmParallelResult *best = &res.top[0];
 *       // parallelism <- best->layout (tp, pp, dp, cp, ep, micro_batch,
 *       //                zero_stage, recompute, sequence_parallel)
 *       // memory      <- best->memory
 *       // if plan->workload.mfu == 0: mfu = best->time.mfu,
 *       //                               mfu_source = QM_MFU_SOURCE_PREDICTED
 *       // add QM_NOTE_PARALLEL_AUTO when any of tp/pp/cp/ep was auto.
 *     }
 *   else
 *     // QM_NOTE_NO_LAYOUT_FITS with res.no_fit (shortfall_bytes,
 *     // best_layout, fixes; qm_parallel_no_fit_format() prints it).
 *
 * To price a given layout without searching (mfu omitted, layout given):
 * fill a QmParallelLayout and call qm_parallel_step_time().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-memory.h"
#include "qm-workload.h"

G_BEGIN_DECLS

/* Largest top-N a search keeps. */
#define QM_PARALLEL_MAX_TOP 16

/* A curve point is "past the knee" when no larger count on the curve
 * speeds the run up, per doubling of the GPUs, by this factor. 1.25× per
 * doubling means each doubling raises the GPU-hours (cost) of the run by
 * 2/1.25 = 1.6×, i.e. parallel efficiency has fallen to 62.5% per
 * doubling; past that a buyer pays more than half again for every step of
 * speed-up. */
#define QM_PARALLEL_KNEE_SPEEDUP 1.25

/* What to rank layouts by. With a fixed GPU count, cost per step is
 * proportional to step time, so both give the same order there; cost
 * differs only across GPU counts (the curve). */
typedef enum
{
  QM_PARALLEL_RANK_TIME,
  QM_PARALLEL_RANK_COST,
} QmParallelRank;

/* Everything the model needs, by value. */
typedef struct
{
  QmModelShape  shape;
  QmMode        mode;            /* pretrain / finetune (lora: frozen base, see .c) */
  QmPrecision   precision;
  QmOptimizer   optimizer;
  guint         seq_len;
  guint         global_batch;    /* sequences per optimizer step */
  gboolean      flash_attention;
  gboolean      sequence_parallel;  /* allowed (used when tp > 1) */
  gboolean      fp32_grad_buffer;   /* fp32 gradients (Megatron main_grad): 4-byte DP reduce */
  guint         lora_rank;
  /* Hardware. */
  QmGpuSpec     gpu;
  QmServerSpec  server;
  QmNetworkSpec network;
  guint         gpus;
  /* Fixed knobs: 0 = search. */
  guint         tp, pp, cp, ep, micro_batch, virtual_stages;
  guint         zero_stage;      /* used when !search_zero */
  guint         shard_group;     /* ZeRO-3/FSDP: ranks a shard spans (HSDP); 0 = all of them
                                  * (the memory model counts dp·cp ranks, the
                                  * collectives dp: qm-memory.c, qm-parallel-model.c) */
  QmRecompute   recompute;       /* used when !search_recompute */
  guint         recompute_layers; /* with recompute full: layers per stage (chunk) recomputed; 0 = all */
  QmLoraTargets lora_targets;
  gboolean      fp8_weights;     /* with fp8: weights stored in 1 byte */
  gboolean      search_zero;
  gboolean      search_recompute;
  gboolean      search_micro_batch;  /* else micro_batch (0 -> 1) */
  /* Framework behaviour. Megatron-LM (2021–22) runs TP collectives and the
   * DP gradient reduce in the open; FSDP/ZeRO-3 prefetches its gathers. */
  QmTpOverlap   tp_overlap;      /* TP collectives and GEMMs (needs SP); AUTO = searched */
  gboolean      overlap_dp;      /* DP/ZeRO comm overlapped with backward (default TRUE) */
  QmParallelRank rank;
  double        usd_per_gpu_hour;  /* for QM_PARALLEL_RANK_COST; 0 = 1 */
  /* Search bounds (0 = defaults in qm-parallel.c). */
  guint         max_pp;
  guint         max_micro_batch;
  /* The fitted constants, QM_PARALLEL_KERNEL_EFFICIENCY and
   * QM_PARALLEL_COMM_OVERLAP, when > 0 (the split validation in
   * test-parallel.c fits them on half the published runs and reports the
   * other half). */
  double        kernel_efficiency;
  /* The other fitted constant, QM_PARALLEL_COMM_OVERLAP, when > 0. */
  double        comm_overlap;
  /* Exhaustive: evaluate every layout, no bound pruning (tests only). */
  gboolean      no_prune;
} QmParallelProblem;

typedef struct
{
  guint       tp, pp, dp, cp, ep;
  guint       micro_batch;
  guint       n_micro;           /* micro-batches per pipeline per step */
  guint       virtual_stages;    /* interleaving v (Narayanan 2021 §2.2) */
  guint       zero_stage;
  QmRecompute recompute;
  gboolean    sequence_parallel;
  QmTpOverlap tp_overlap;        /* never AUTO; used when the problem's is AUTO */
  guint       shard_group;       /* ZeRO/FSDP shards over this many of the dp·cp ranks
                                  * (HSDP: replicated across the groups); 0 = all */
} QmParallelLayout;

/* One step, seconds, on the slowest pipeline stage. The parts add up to
 * `step`. Communication parts are the exposed (not hidden) time. */
typedef struct
{
  double compute;      /* GEMMs + element-wise kernels, forward + backward */
  double recompute;    /* the extra forward work of activation recompute */
  double tp_comm;      /* tensor-parallel all-reduce / all-gather + reduce-scatter */
  double pp_comm;      /* pipeline point-to-point sends */
  double dp_comm;      /* data-parallel gradient reduce (+ ZeRO-1/2 gathers) */
  double zero_comm;    /* ZeRO-3/FSDP parameter gathers and gradient scatters */
  double cp_comm;      /* context-parallel K/V ring exchange */
  double ep_comm;      /* expert-parallel all-to-all */
  double bubble;       /* pipeline fill and drain */
  double optimizer;    /* optimizer step, HBM bound */
  double step;
  double mfu;          /* model FLOPs (6ND + attention, qm-compute) / (step · gpus · peak) */
  double hfu;          /* hardware FLOPs (with recompute) on the same basis */
  double tokens_per_s; /* whole cluster */
} QmParallelTime;

typedef struct
{
  QmParallelLayout  layout;
  QmParallelTime    time;
  QmMemoryBreakdown memory;
  double            cost_usd_per_step;
} QmParallelResult;

/* Why nothing fits, and what would. */
typedef enum
{
  QM_PARALLEL_FIX_MORE_GPUS     = 1 << 0,  /* fix_gpus GPUs of this kind fit */
  QM_PARALLEL_FIX_ZERO3         = 1 << 1,  /* the plan fixed a lower ZeRO stage */
  QM_PARALLEL_FIX_RECOMPUTE     = 1 << 2,  /* the plan fixed a lighter recompute */
  QM_PARALLEL_FIX_BIGGER_GPU    = 1 << 3,  /* fix_capacity_bytes per GPU would fit */
  QM_PARALLEL_FIX_MICRO_BATCH   = 1 << 4,  /* the plan fixed micro_batch > 1; 1 fits */
  QM_PARALLEL_FIX_GLOBAL_BATCH  = 1 << 5,  /* no layout divides the global batch */
  QM_PARALLEL_FIX_MODEL_PARALLEL = 1 << 6, /* the plan fixed tp/pp/cp/ep; auto fits */
} QmParallelFix;

typedef struct
{
  gboolean         valid;              /* TRUE when the search found nothing */
  guint64          layouts_tried;      /* layouts that divide the batch */
  double           shortfall_bytes;    /* smallest (total - capacity) seen */
  QmParallelLayout best_layout;        /* the layout with that shortfall */
  QmMemoryBreakdown best_memory;
  guint            fixes;              /* QmParallelFix flags */
  guint            fix_gpus;           /* with MORE_GPUS: smallest count found that fits */
  double           fix_capacity_bytes; /* with BIGGER_GPU */
} QmParallelNoFit;

typedef struct
{
  guint             n;                 /* results in top[], best first */
  QmParallelResult  top[QM_PARALLEL_MAX_TOP];
  guint64           evaluated;         /* layouts priced by the throughput model */
  guint64           memory_checks;     /* qm_memory_estimate() calls */
  guint64           pruned;            /* layouts skipped by a bound */
  QmParallelNoFit   no_fit;
} QmParallelSearch;

typedef struct
{
  guint    gpus;
  gboolean fits;
  double   step_s;
  double   train_s;          /* tokens / (global_batch · seq_len) steps */
  double   mfu;
  double   speedup;          /* over the previous point, per doubling of GPUs */
  QmParallelLayout layout;
} QmParallelCurvePoint;

typedef struct
{
  guint    n;
  guint    knee;             /* index of the first point past the knee; n = none.
                              * The knee itself is the fitting point before it. */
  gboolean monotone;         /* train time never rises with more GPUs */
  guint64  evaluated;
} QmParallelCurve;

/* Fill a problem from a plan: the plan's model, workload knobs and
 * hardware, and `gpus` (0 = plan target_gpus). tp/pp/cp/ep of 0 are
 * searched; zero stage, recompute and micro-batch are kept. */
void     qm_parallel_problem_from_plan (const QmPlan      *plan,
                                        guint              gpus,
                                        QmParallelProblem *out);

/* Price one layout. Returns FALSE (and zeros) when the layout is not
 * valid for the problem (does not divide the GPUs, the batch, the heads). */
gboolean qm_parallel_step_time      (const QmParallelProblem *problem,
                                     const QmParallelLayout  *layout,
                                     QmParallelTime          *out);

/* The memory of one layout (qm_memory_estimate with the layout's knobs). */
void     qm_parallel_memory         (const QmParallelProblem *problem,
                                     const QmParallelLayout  *layout,
                                     QmMemoryBreakdown       *out);

/* Search every layout; keep the `top_n` (≤ QM_PARALLEL_MAX_TOP) fastest
 * that fit. out->n == 0 means nothing fits: see out->no_fit. */
void     qm_parallel_search         (const QmParallelProblem *problem,
                                     guint                    top_n,
                                     QmParallelSearch        *out);

/* GPU counts for a curve: `n` counts from min to max on a geometric grid,
 * rounded to whole nodes (or powers of two below one node), deduplicated.
 * Returns how many were written. */
guint    qm_parallel_curve_counts   (guint  min_gpus,
                                     guint  max_gpus,
                                     guint  gpus_per_node,
                                     guint  n,
                                     guint *counts);

/* For each GPU count, the best layout's time to train `tokens`. */
void     qm_parallel_curve          (const QmParallelProblem *problem,
                                     double                   tokens,
                                     const guint             *counts,
                                     guint                    n,
                                     QmParallelCurvePoint    *points,
                                     QmParallelCurve         *out);

/* One line of text for a no-fit explanation (edge formatting only). */
const char *qm_parallel_no_fit_format (const QmParallelNoFit *no_fit,
                                       char                  *buf,
                                       gsize                  size);

/* The fraction of a stage's layers that layout @l recomputes in full:
 * 1 under full recompute unless the plan fixes recompute_layers
 * (Megatron's --recompute-method block), 0 otherwise. The step model
 * charges the recompute forward, and anything repeated with it (TP and EP
 * collectives), for this fraction of the layers only. */
double   qm_parallel_recompute_fraction (const QmParallelProblem *pb,
                                         const QmParallelLayout  *l);

G_END_DECLS
