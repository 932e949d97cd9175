/* qm-inference.h: serving memory, throughput, latency and GPU count.
 *
 * Roofline model from jax-ml/scaling-book `inference.md`
 * (estimation-anchors.md §3): bounds, not benchmarks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"
#include "qm-issue.h"
#include "qm-model.h"

G_BEGIN_DECLS

/* CUDA context and kernels per GPU process: 1,343 MB measured on a V100
 * (HF transformers docs, model_memory_anatomy.md). */
#define QM_INFERENCE_CONTEXT_BYTES 1.343e9
/* Largest replica the search tries: four 8-GPU nodes, DeepSeek-V3's
 * prefill unit (arXiv 2412.19437 §3.4). */
#define QM_INFERENCE_MAX_GPUS_PER_REPLICA 32

typedef struct
{
  const QmModelShape *shape;          /* required: layers, heads, kv_heads ... */
  double       params;                /* total parameters (weights in memory) */
  double       active_params;         /* per token (MoE); 0 = params */
  const QmGpuSpec *gpu;               /* required */
  guint        gpus_per_node;         /* largest single-node replica; 0 = 8 */
  guint        gpus_per_replica;      /* tensor-parallel size; 0 = search */
  double       requests_per_minute;
  double       input_tokens;
  double       output_tokens;
  guint        concurrency;           /* sequences per replica; 0 = derive */
  QmPrecision  weight_precision;
  QmPrecision  kv_precision;
  double       ttft_ms;               /* target; 0 = none */
  double       tpot_ms;               /* target; 0 = none */
  /* A measured decode throughput per GPU (tokens/s). When > 0 it replaces
   * the roofline model: the industry rule of thumb. */
  double       tokens_per_s_per_gpu;
} QmInferenceInput;

typedef struct
{
  gboolean fits;
  double   weights_bytes;
  double   kv_bytes_per_token;
  double   kv_bytes_per_seq;          /* at input + output tokens */
  double   memory_per_gpu_bytes;      /* weights + KV + context, per GPU */
  double   capacity_per_gpu_bytes;

  guint    gpus_per_replica;
  guint    concurrency;               /* sequences per replica used for sizing */
  double   in_flight;                 /* Little's law: rate x latency, per replica */
  guint    replicas;
  guint    gpus;                      /* replicas x gpus_per_replica */
  double   gpus_exact;                /* tokens_needed / tokens_per_s_per_gpu */

  double   step_s;                    /* one decode step at `concurrency` */
  double   prefill_s;                 /* one request's prefill */
  gboolean decode_compute_bound;
  double   tokens_per_s_needed;       /* rpm / 60 x output tokens */
  double   tokens_per_s_per_gpu;      /* output tokens, prefill time included */
  double   tokens_per_s_total;        /* of the deployed GPUs */
  double   ttft_ms;
  double   tpot_ms;
  gboolean meets_ttft;
  gboolean meets_tpot;

  QmIssues issues;
} QmInference;

/* KV cache per token: 2 (K and V) x bytes x kv_heads x head_dim x layers
 * (scaling-book); MLA caches (kv_lora_rank + rope_head_dim) x layers. */
double qm_inference_kv_bytes_per_token (const QmModelShape *shape,
                                        QmPrecision         kv_precision);

void   qm_inference_compute            (const QmInferenceInput *in,
                                        QmInference            *out);

G_END_DECLS
