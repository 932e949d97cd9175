/* qm-serving.h: one serving replica, step by step.
 *
 * An engine step (one forward pass of a continuous-batching server: vLLM,
 * SGLang, TensorRT-LLM) runs d decode tokens and p prefill tokens. Its
 * time is the sum over the operators of max (FLOPs / achievable FLOP/s,
 * bytes / achievable bandwidth), plus the tensor-parallel all-reduces and a
 * per-step framework overhead. The request simulator runs these steps over
 * a seeded request stream (Sarathi-Serve's chunked-prefill scheduler,
 * arXiv 2403.02310 §4) and gives throughput and latency percentiles.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-engine.h"
#include "qm-hardware.h"
#include "qm-model.h"
#include "qm-workload.h"

G_BEGIN_DECLS

typedef struct
{
  const QmModelShape *shape;     /* required */
  const QmGpuSpec    *gpu;       /* required */
  guint        tp;               /* tensor-parallel GPUs (>= 1) */
  guint        pp;               /* pipeline stages (>= 1) */
  QmPrecision  weight_precision;
  QmPrecision  kv_precision;
  /* The serving engine (qm-engine.h); NULL = the usual one for the
   * GPU's vendor (qm_engine_resolve). Its scheduler defaults apply
   * unless max_sequences / token_budget are given. */
  const QmEngineSpec *engine;
  gboolean     server;           /* the engine's server defaults, not its offline ones */
  guint        max_sequences;    /* 0 = the engine's default */
  guint        token_budget;     /* 0 = the engine's default (max batched tokens) */
  double       kv_fraction;      /* 0 = the engine's */
} QmServingConfig;

/* Serving constants the GPU's catalog entry lacks, derived by the rules
 * in qm-serving.c (the estimate notes them). */
typedef enum
{
  QM_SERVING_DERIVED_HBM       = 1 << 0,
  QM_SERVING_DERIVED_GEMM      = 1 << 1,
  QM_SERVING_DERIVED_ALLREDUCE = 1 << 2,
} QmServingDerived;

/* Per-stage, per-GPU coefficients of the step model; see qm-serving.c. */
typedef struct
{
  guint  tp, pp;
  double layers;            /* per stage */
  double hidden;
  double gemm_flops_tok;    /* dense GEMM FLOPs per token */
  double expert_flops_tok;  /* routed-expert GEMM FLOPs per token */
  double dense_bytes;       /* weights every step reads (not routed experts) */
  double experts, top_k;    /* routed experts per MoE layer; 0 = dense */
  double moe_layers;        /* per stage */
  double expert_bytes;      /* one routed expert of one layer */
  double kv_bytes_tok;      /* KV bytes per cached token, all stage layers */
  double attn_flops_pair;   /* per (query, key) pair, all stage layers */
  double elem_bytes_tok;    /* norms, residuals, activation: bytes per token */
  double lm_flops_tok;      /* output head per sampled token */
  double lm_bytes;
  double gemm_rate;         /* achievable FLOP/s at the weight precision */
  double lm_rate;
  double attn_rate;
  double hbm;               /* achievable bytes/s */
  double ar_bw;             /* all-reduce bus bandwidth, bytes/s */
  double ar_latency;        /* seconds per all-reduce call */
  double overhead;          /* seconds per step */
  double seq_overhead;      /* seconds per sequence of a step */

  /* Memory, per GPU. */
  double capacity_bytes;    /* real device bytes (qm_gpu_memory_bytes) */
  double weights_bytes;
  double workspace_bytes;   /* activations of one full step + logits */
  double reserve_bytes;     /* CUDA context, libraries */
  double kv_bytes;          /* paged KV pool */
  guint  kv_blocks;
  double kv_bytes_per_token_gpu; /* all layers of one GPU */
  guint  max_sequences;
  guint  token_budget;

  const QmEngineSpec *spec;  /* the engine */
  guint  block_tokens;       /* tokens per KV block */
  QmEngineAdmission admission;
  QmServingDerived derived;  /* GPU constants derived by rule */
} QmServingEngine;

/* One step: d decode tokens whose contexts sum to decode_context tokens;
 * p prefill tokens whose causal (query, key) pairs sum to prefill_pairs;
 * sampled = sequences that emit a token this step. */
typedef struct
{
  double decode;
  double decode_context;
  double prefill;
  double prefill_pairs;
  double sampled;
} QmServingStep;

void     qm_serving_engine_init (QmServingEngine       *e,
                                 const QmServingConfig *config);
double   qm_serving_step_s      (const QmServingEngine *e,
                                 const QmServingStep   *step);
/* KV blocks one sequence of @tokens holds. */
guint    qm_serving_blocks      (const QmServingEngine *e,
                                 double                 tokens);
/* The one test of "fits" for serving and for the memory page: weights,
 * workspace and reserve leave room for at least one sequence of @tokens. */
gboolean qm_serving_fits        (const QmServingEngine *e,
                                 double                 tokens);
/* Sequences of @tokens the KV pool holds at once (capped by max_sequences). */
guint    qm_serving_max_batch   (const QmServingEngine *e,
                                 double                 tokens);

typedef struct
{
  QmArrival    arrival;
  double       requests_per_s;   /* Poisson rate at this replica */
  guint        requests;         /* to simulate */
  double       input_tokens, input_sd;
  double       output_tokens, output_sd;
  /* Optional: pairs of (input, output) lengths sampled in turn. */
  const double *lengths;
  guint        n_lengths;
  guint        max_sequences;    /* 0 = engine's */
  guint64      seed;
  guint        max_steps;        /* stop after this many steps; 0 = none */
  /* Optional: called with every step the scheduler runs (calibration: in
   * offline mode the schedule does not depend on the step times). */
  void       (*on_step) (const QmServingStep *step,
                         gpointer             user_data);
  gpointer     user_data;
} QmServingLoad;

typedef struct
{
  double tokens_per_s;           /* output tokens/s of the replica */
  double requests_per_s;
  double ttft_p50_s, ttft_p90_s, ttft_p99_s;
  double tpot_p50_s, tpot_p90_s, tpot_p99_s;
  double queue_p50_s, queue_p99_s;
  double mean_batch;             /* decode sequences per step */
  double makespan_s;
  guint  steps;
  guint  completed;
  guint  preemptions;            /* BLOCKS admission: requests evicted and recomputed */
  gboolean unstable;             /* the queue kept growing */
  gboolean truncated;            /* stopped at max_steps */
} QmServingResult;

gboolean qm_serving_simulate    (const QmServingEngine *e,
                                 const QmServingLoad   *load,
                                 QmServingResult       *out);

G_END_DECLS
