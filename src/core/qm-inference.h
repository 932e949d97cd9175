/* qm-inference.h: serving memory, throughput, latency and GPU count.
 *
 * Sizes a serving fleet with the step model and request simulator of
 * qm-serving.h (issue 18): replica size, sequences per replica,
 * max-throughput tokens/s, TTFT/TPOT percentiles at the plan's request
 * rate, and the fewest replicas whose p99 latencies meet the targets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"
#include "qm-issue.h"
#include "qm-model.h"
#include "qm-serving.h"

G_BEGIN_DECLS

/* Requests the simulator runs for a throughput or a latency figure: enough
 * for stable p99s (1 % of 2,000 is 20 requests beyond the p99). */
#define QM_INFERENCE_SIM_REQUESTS 2000
/* ... but no more than about this many engine steps per run (the wizard
 * re-estimates on every keystroke). */
#define QM_INFERENCE_SIM_STEPS 40000.0
/* Largest replica the search tries: four 8-GPU nodes, DeepSeek-V3's
 * prefill unit (arXiv 2412.19437 §3.4). */
#define QM_INFERENCE_MAX_GPUS_PER_REPLICA 32
/* The capacity of a fixed fleet (max_requests_per_s) is searched until
 * the bracket is this fraction of its top: the rate returned meets the
 * targets, and one this much higher (or more) did not in the last run. A
 * simulation property, not a hardware one: ±1 % is well inside the spread
 * of the p99 of 2,000 requests. */
#define QM_INFERENCE_CAPACITY_TOLERANCE 0.01

typedef struct
{
  const QmModelShape *shape;          /* required: layers, heads, kv_heads ... */
  double       params;                /* total parameters (weights in memory) */
  double       active_params;         /* per token (MoE); 0 = params */
  const QmGpuSpec *gpu;               /* required */
  guint        gpus_per_node;         /* largest single-node replica; 0 = 8 */
  guint        gpus_per_replica;      /* tensor-parallel size; 0 = search */
  guint        pp;                    /* pipeline stages within the replica; 0 = 1 */
  double       requests_per_minute;
  double       input_tokens;
  double       output_tokens;
  guint        concurrency;           /* sequences per replica; 0 = derive */
  QmPrecision  weight_precision;
  QmPrecision  kv_precision;
  double       ttft_ms;               /* target; 0 = none */
  double       tpot_ms;               /* target; 0 = none */
  /* A measured decode throughput per GPU (tokens/s). When > 0 it replaces
   * the model's throughput: the industry rule of thumb. */
  double       tokens_per_s_per_gpu;
  QmArrival    arrival;               /* Poisson (default) or offline */
  double       input_tokens_sd;       /* 0 = fixed lengths */
  double       output_tokens_sd;
  const double *lengths;              /* optional (input, output) pairs */
  guint        n_lengths;
  guint        max_sequences;         /* engine cap per replica; 0 = default */
  guint        max_batch_tokens;      /* tokens per engine step; 0 = engine default */
  const char  *engine;                /* engine id (qm-engine.h); NULL/"auto" = vendor's usual */
  guint64      seed;                  /* 0 = a fixed default */
  /* The GPUs the plan has (target.gpus): the fleet is kept, and its
   * capacity is reported; 0 = size the fleet for the request rate. */
  guint        fleet_gpus;
} QmInferenceInput;

typedef struct
{
  gboolean fits;
  double   weights_bytes;
  double   kv_bytes_per_token;
  double   kv_bytes_per_seq;          /* at input + output tokens */
  double   memory_per_gpu_bytes;      /* the four below, per GPU */
  double   weights_per_gpu_bytes;
  double   workspace_per_gpu_bytes;   /* activations of one full step, logits */
  double   reserve_per_gpu_bytes;     /* CUDA context, libraries */
  double   kv_per_gpu_bytes;          /* KV blocks of the sequences in flight */
  double   capacity_per_gpu_bytes;

  guint    gpus_per_replica;
  guint    concurrency;               /* sequences per replica used for sizing */
  double   in_flight;                 /* Little's law: rate x latency, per replica */
  guint    replicas;
  guint    gpus;                      /* replicas x gpus_per_replica */
  double   gpus_exact;                /* tokens_needed / tokens_per_s_per_gpu */

  double   step_s;                    /* one engine step at the mean decode batch */
  double   prefill_s;                 /* one request's prefill, alone */
  gboolean decode_compute_bound;
  double   tokens_per_s_needed;       /* rpm / 60 x output tokens */
  double   tokens_per_s_per_gpu;      /* output tokens, prefill time included */
  double   tokens_per_s_total;        /* of the deployed GPUs */
  double   ttft_ms;                   /* p50 at the plan's rate */
  double   tpot_ms;                   /* p50 */
  double   ttft_p50_ms, ttft_p90_ms, ttft_p99_ms;
  double   tpot_p50_ms, tpot_p90_ms, tpot_p99_ms;
  double   queue_p50_ms, queue_p99_ms;
  double   requests_per_s;            /* served by the fleet */
  double   replica_tokens_per_s;      /* max-throughput output tokens/s of one replica */
  guint    max_batch;                 /* sequences the KV pool holds (capped) */
  const QmEngineSpec *engine;         /* the engine the replica runs */
  QmServingDerived derived;           /* GPU serving constants derived by rule */
  guint    kv_blocks;                 /* per GPU */
  double   kv_pool_bytes;             /* per GPU */
  gboolean meets_ttft;
  gboolean meets_tpot;

  /* A fixed fleet (QmInferenceInput.fleet_gpus): what it holds. */
  gboolean fixed_fleet;
  double   max_requests_per_s;        /* the highest Poisson rate within the p99 targets */
  double   headroom;                  /* max_requests_per_s / the plan's rate - 1 (+0.35 =
                                       * 35 % to spare, -0.2 = short); NaN without a rate */
  guint    gpus_for_rate;             /* GPUs (whole replicas) that hold the plan's rate;
                                       * 0 when no number of replicas does */
  guint    idle_gpus;                 /* GPUs rented (the plan's, or whole nodes) in no
                                       * replica; set by the estimate */

  QmIssues issues;
} QmInference;

/* KV cache per token: 2 (K and V) x bytes x kv_heads x head_dim x layers
 * (scaling-book); MLA caches (kv_lora_rank + rope_head_dim) x layers. */
double qm_inference_kv_bytes_per_token (const QmModelShape *shape,
                                        QmPrecision         kv_precision);

void   qm_inference_compute            (const QmInferenceInput *in,
                                        QmInference            *out);

/* What is wrong with a lengths CSV. */
typedef struct
{
  guint      line;        /* the first bad line; 0 when the file could not be read */
  GFileError file_error;  /* why it could not be read, when line is 0 */
} QmLengthsProblem;

/* Reads a CSV of request lengths, one "input_tokens,output_tokens" line
 * per request (a header line and blank lines are skipped), as pairs of
 * doubles. NULL when the file cannot be read (problem->line = 0, and
 * problem->file_error says why) or a line is not two whole numbers with
 * output >= 1 (problem->line = its number). */
GArray  *qm_inference_read_lengths     (const char             *path,
                                        QmLengthsProblem       *problem);

/* Latency of a sized fleet (@sized from qm_inference_compute on @in) at
 * another request rate: for the latency-vs-load chart. FALSE if the
 * replica does not fit. */
gboolean qm_inference_latency_at_rate  (const QmInferenceInput *in,
                                        const QmInference      *sized,
                                        double                  requests_per_minute,
                                        QmServingResult        *out);

/* The highest Poisson request rate (requests/s) that @replicas replicas
 * of the sized fleet hold with p99 TTFT and TPOT within @in's targets
 * (without targets: with a queue that stays bounded): the search behind
 * QmInference.max_requests_per_s. 0 when a lone request misses them. */
double   qm_inference_capacity         (const QmInferenceInput *in,
                                        const QmInference      *sized,
                                        guint                   replicas);

/* Max-throughput output tokens/s per GPU of the sized replica with at most
 * @concurrency sequences in flight (offline run): for the
 * throughput-vs-concurrency curve. The curve rises until memory binds
 * (sized->max_batch), then stays flat. 0 if the replica does not fit. */
double   qm_inference_throughput_at_concurrency (const QmInferenceInput *in,
                                                 const QmInference      *sized,
                                                 guint                   concurrency);

G_END_DECLS
