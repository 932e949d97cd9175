/* qm-inference.c: serving memory, throughput, latency and GPU count.
 *
 * All formulas from jax-ml/scaling-book `inference.md` unless noted:
 * - weights = N x bytes/param;
 * - KV per sequence = 2 x bytes x kv_heads x head_dim x layers x context;
 * - decode step = B.KV/BW (attention always reads its cache)
 *                 + max (2.B.N/FLOPs, weight bytes/BW) (the MLP turns
 *                 compute-bound at large batch), over n chips;
 * - prefill is compute-bound: 2.N.tokens/FLOPs (at least one weight read).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-inference.h"

double
qm_inference_kv_bytes_per_token (const QmModelShape *shape,
                                 QmPrecision         kv_precision)
{
  double bytes = qm_precision_bytes (kv_precision);
  guint kv_heads, head_dim;

  if (shape == NULL || shape->layers == 0)
    return 0.0;

  /* Multi-head latent attention caches one compressed latent plus the
   * decoupled RoPE key per layer (DeepSeek-V2, arXiv 2405.04434 §2.1.2:
   * (d_c + d_h^R) x l elements per token). */
  if (shape->kv_lora_rank > 0)
    return bytes * (double) (shape->kv_lora_rank + shape->rope_head_dim) * shape->layers;

  kv_heads = shape->kv_heads ? shape->kv_heads : shape->heads;
  head_dim = shape->head_dim ? shape->head_dim
           : (shape->heads ? shape->hidden / shape->heads : 0);
  return 2.0 * bytes * kv_heads * (double) head_dim * shape->layers;
}

typedef struct
{
  double weights;      /* bytes */
  double active;       /* parameters per token */
  double kv_seq;       /* bytes at full context */
  double kv_avg;       /* bytes at the mean decode context */
  double mem;          /* bytes per GPU */
  double bw;           /* bytes/s per GPU */
  double flops;        /* FLOP/s per GPU */
  double input;
  double output;
} Model;

static double
step_s (const Model *m,
        guint        n,
        double       b,
        gboolean    *compute_bound)
{
  double attn = b * m->kv_avg / (n * m->bw);
  double mlp_compute = 2.0 * b * m->active / (n * m->flops);
  double mlp_memory = m->weights / (n * m->bw);

  if (compute_bound)
    *compute_bound = mlp_compute > mlp_memory;
  return attn + MAX (mlp_compute, mlp_memory);
}

static double
prefill_s (const Model *m,
           guint        n)
{
  return MAX (2.0 * m->active * m->input / (n * m->flops), m->weights / (n * m->bw));
}

/* Sequences that fit beside the weights on @n GPUs (may be <= 0). */
static double
max_batch_memory (const Model *m,
                  guint        n)
{
  double room = n * (m->mem - QM_INFERENCE_CONTEXT_BYTES) - m->weights;

  if (m->kv_seq <= 0.0)
    return room >= 0.0 ? 1e6 : 0.0;
  return floor (room / m->kv_seq);
}

/* Output tokens/s of one replica running @b sequences: per cycle, b
 * prefills and `output` decode steps make b x output tokens. */
static double
replica_tokens_per_s (const Model *m,
                      guint        n,
                      double       b)
{
  double t = b * prefill_s (m, n) + m->output * step_s (m, n, b, NULL);

  return t > 0.0 ? b * m->output / t : 0.0;
}

/* Largest batch within memory and the TPOT target (step time is monotone
 * in the batch, so bisect). */
static double
best_batch (const Model *m,
            guint        n,
            double       tpot_s)
{
  double hi = max_batch_memory (m, n), lo = 1.0;

  if (hi < 1.0)
    return 1.0;
  if (tpot_s <= 0.0 || step_s (m, n, hi, NULL) <= tpot_s)
    return hi;
  if (step_s (m, n, 1.0, NULL) > tpot_s)
    return 1.0;
  while (hi - lo > 1.0)
    {
      double mid = floor ((lo + hi) / 2.0);
      if (step_s (m, n, mid, NULL) <= tpot_s)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static double
pos (double v)
{
  return (isfinite (v) && v > 0.0) ? v : 0.0;
}

void
qm_inference_compute (const QmInferenceInput *in,
                      QmInference            *out)
{
  Model m = { 0, };
  const QmGpuSpec *gpu;
  guint per_node, n, candidates[12], n_candidates = 0;
  double ttft_s, tpot_s, b, thr_replica, thr_gpu;
  gboolean found = FALSE;

  memset (out, 0, sizeof *out);
  g_return_if_fail (in != NULL && in->shape != NULL && in->gpu != NULL);
  gpu = in->gpu;

  if (!(isfinite (in->params) && in->params > 0.0))
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "workload.model.params_b", "must be > 0",
                   in->params / 1e9);
  if (!(isfinite (in->output_tokens) && in->output_tokens > 0.0))
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "workload.inference.output_tokens",
                   "must be > 0", in->output_tokens);
  if (!(isfinite (in->input_tokens) && in->input_tokens >= 0.0))
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "workload.inference.input_tokens",
                   "must be >= 0", in->input_tokens);
  if (!(isfinite (in->requests_per_minute) && in->requests_per_minute >= 0.0))
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "workload.inference.requests_per_minute",
                   "must be >= 0", in->requests_per_minute);
  if (!(pos (gpu->memory_gb) > 0.0 && pos (gpu->bandwidth_tbs) > 0.0))
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "hardware.gpu",
                   "needs memory_gb and bandwidth_tbs > 0", gpu->memory_gb);

  m.weights = pos (in->params) * qm_precision_bytes (in->weight_precision);
  m.active = pos (in->active_params) > 0.0 ? in->active_params : pos (in->params);
  m.input = pos (in->input_tokens);
  m.output = pos (in->output_tokens);
  m.mem = pos (gpu->memory_gb) * 1e9;
  m.bw = pos (gpu->bandwidth_tbs) * 1e12;
  /* Matmuls run at the weight precision where the GPU has it (fp8 on
   * H100); weight-only int4/int8 dequantise to bf16. */
  m.flops = pos (gpu->tflops[in->weight_precision]);
  if (m.flops == 0.0)
    m.flops = pos (gpu->tflops[QM_PRECISION_BF16]);
  if (m.flops == 0.0)
    m.flops = pos (gpu->tflops[QM_PRECISION_FP16]);
  m.flops *= 1e12;

  out->weights_bytes = m.weights;
  out->kv_bytes_per_token = qm_inference_kv_bytes_per_token (in->shape, in->kv_precision);
  out->kv_bytes_per_seq = out->kv_bytes_per_token * (m.input + m.output);
  m.kv_seq = out->kv_bytes_per_seq;
  /* Mean context over the decode: the prompt plus half the answer. */
  m.kv_avg = out->kv_bytes_per_token * (m.input + m.output / 2.0);
  out->capacity_per_gpu_bytes = m.mem;
  out->tokens_per_s_needed = pos (in->requests_per_minute) / 60.0 * m.output;

  if (qm_issues_has_error (&out->issues) || m.flops == 0.0 || m.output == 0.0)
    {
      if (m.flops == 0.0)
        qm_issues_add (&out->issues, QM_ISSUE_ERROR, "hardware.gpu.tflops",
                       "no dense throughput at this precision", 0);
      return;
    }

  ttft_s = pos (in->ttft_ms) / 1000.0;
  tpot_s = pos (in->tpot_ms) / 1000.0;

  /* Replica size: the given one, or the smallest that fits and meets the
   * latency targets: powers of two within a node, then whole nodes. */
  per_node = in->gpus_per_node ? in->gpus_per_node : 8;
  if (in->gpus_per_replica > 0)
    candidates[n_candidates++] = in->gpus_per_replica;
  else
    {
      for (n = 1; n < per_node && n_candidates < G_N_ELEMENTS (candidates); n *= 2)
        candidates[n_candidates++] = n;
      for (n = per_node; n <= MAX (per_node, QM_INFERENCE_MAX_GPUS_PER_REPLICA)
           && n_candidates < G_N_ELEMENTS (candidates); n += per_node)
        candidates[n_candidates++] = n;
    }

  n = candidates[n_candidates - 1];
  for (guint pass = 0; pass < 2 && !found; pass++)
    for (guint i = 0; i < n_candidates; i++)
      {
        guint c = candidates[i];
        gboolean fits = max_batch_memory (&m, c) >= 1.0;
        gboolean fast = (ttft_s == 0.0 || prefill_s (&m, c) <= ttft_s)
                     && (tpot_s == 0.0 || step_s (&m, c, 1.0, NULL) <= tpot_s);
        /* Pass 0 wants both; pass 1 settles for fitting. */
        if (fits && (fast || pass == 1))
          {
            n = c;
            found = TRUE;
            break;
          }
      }

  out->gpus_per_replica = n;
  out->fits = max_batch_memory (&m, n) >= 1.0;
  if (!out->fits)
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "workload.inference",
                   "weights and one sequence's KV cache do not fit on the largest replica (GB needed)",
                   (m.weights + m.kv_seq) / 1e9);

  /* Concurrency: given, or the largest batch within memory and TPOT. */
  if (in->concurrency > 0)
    {
      b = in->concurrency;
      if (b > max_batch_memory (&m, n))
        {
          qm_issues_add (&out->issues, QM_ISSUE_WARNING, "workload.inference.concurrency",
                         "KV cache for this many sequences does not fit", b);
          out->fits = FALSE;
        }
    }
  else
    b = best_batch (&m, n, tpot_s);
  out->concurrency = (guint) MIN (b, (double) G_MAXUINT);

  out->step_s = step_s (&m, n, b, &out->decode_compute_bound);
  out->prefill_s = prefill_s (&m, n);
  out->ttft_ms = out->prefill_s * 1000.0;
  out->tpot_ms = out->step_s * 1000.0;
  out->meets_ttft = ttft_s == 0.0 || out->prefill_s <= ttft_s * (1.0 + 1e-9);
  out->meets_tpot = tpot_s == 0.0 || out->step_s <= tpot_s * (1.0 + 1e-9);
  if (!out->meets_ttft)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "workload.inference.ttft_ms",
                   "target not met by the largest replica", in->ttft_ms);
  if (!out->meets_tpot)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "workload.inference.tpot_ms",
                   "target not met even at batch 1", in->tpot_ms);
  out->memory_per_gpu_bytes = QM_INFERENCE_CONTEXT_BYTES + (m.weights + b * m.kv_seq) / n;

  /* Throughput per GPU: measured (the rule of thumb) or the roofline. */
  if (isfinite (in->tokens_per_s_per_gpu) && in->tokens_per_s_per_gpu > 0.0)
    thr_gpu = in->tokens_per_s_per_gpu;
  else
    {
      thr_replica = replica_tokens_per_s (&m, n, b);
      thr_gpu = thr_replica / n;
    }
  out->tokens_per_s_per_gpu = thr_gpu;

  /* GPUs for the request rate. With a fixed per-GPU throughput this is the
   * industry rule GPUs = output_tokens / throughput x rpm / 60 (seed 001). */
  out->gpus_exact = thr_gpu > 0.0 ? out->tokens_per_s_needed / thr_gpu : 0.0;
  out->replicas = (guint) MAX (1.0, ceil (out->gpus_exact / n - 1e-9));
  out->gpus = out->replicas * n;
  out->tokens_per_s_total = thr_gpu * out->gpus;

  /* Little's law: sequences in flight per replica = arrival rate x time in
   * the system. */
  out->in_flight = pos (in->requests_per_minute) / 60.0 / out->replicas
                 * (out->prefill_s + m.output * out->step_s);
}
