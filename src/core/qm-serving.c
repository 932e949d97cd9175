/* qm-serving.c: the iteration model and request simulator of one replica.
 *
 * Step time = sum over the operators of max (FLOPs / achievable FLOP/s,
 * bytes / achievable bandwidth) (the roofline per operator, Williams et
 * al. 2009; applied to LLM serving in jax-ml/scaling-book inference.md),
 * plus two all-reduces per layer under tensor parallelism (Megatron-LM,
 * Shoeybi et al. 2019 §3: one after attention, one after the MLP) and a
 * per-step framework overhead. Achievable rates are catalog properties.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-inference.h"
#include "qm-serving.h"

/* CUDA context and kernels per GPU process: 1,343 MB measured on a V100
 * (huggingface/transformers docs/source/en/model_memory_anatomy.md). */
#define QM_SERVING_CONTEXT_BYTES 1.343e9

/* GEMM shape loss: a GEMM whose narrowest dimension is d runs at
 * d / (d + 128) of its best-shape rate (NVIDIA "Matrix Multiplication
 * Background User's Guide", tile and wave quantisation; the same rule as
 * qm-parallel.c's QM_PARALLEL_GEMM_EDGE_COLUMNS). At decode the narrow
 * dimension is the batch. */
#define QM_SERVING_GEMM_EDGE 128.0

/* Used when the catalog has no measured best-shape matmul fraction: the
 * mean of A100 0.869, H100 0.803 and B200 0.776 (stas00/ml-engineering
 * maximum achievable matmul FLOPS table). */
#define QM_SERVING_MAMF_DEFAULT 0.816

/* FlashAttention-3 forward on H100 (Shah et al. 2024, arXiv 2407.08608,
 * §4.1): up to 740 TFLOP/s in bf16 (75 % of 989) and about 1.2 PFLOP/s in
 * fp8 (61 % of 1,979). Serving engines run fp8 attention when the KV
 * cache is fp8 (TensorRT-LLM FP8 context FMHA). */
#define QM_SERVING_ATTENTION_BF16 0.75
#define QM_SERVING_ATTENTION_FP8  0.61

/* Achieved NCCL bus bandwidth over the link's one-direction peak: about
 * 80 % on large messages (NVIDIA/nccl-tests doc/PERFORMANCE.md; qm-parallel.c
 * uses the same figure). */
#define QM_SERVING_BUSBW_FRACTION 0.80
/* One all-reduce call: NCCL's base latency plus one NVLink hop
 * (src/graph/tuning.cc: 8.4 us + 3.4 us); serving engines use one-shot
 * all-reduce kernels for their small messages (TensorRT-LLM
 * customAllReduce, vLLM custom_all_reduce), so one hop, not 2(n-1). */
#define QM_SERVING_ALLREDUCE_LATENCY_S (8.4e-6 + 3.4e-6)

/* Rules for a GPU whose catalog entry lacks a serving constant (the
 * estimate says so in a note, QmServingDerived):
 * - HBM: the mean achieved fraction of the GPUs that have one (H100,
 *   H200, B200 in gpus.json; fitted on the TensorRT-LLM perf-overview).
 * - fp8/fp4 GEMMs: the GPU's measured bf16 MAMF times the ratio of the
 *   serving fp8 fraction to the bf16 MAMF on those GPUs (0.536 / 0.794:
 *   serving GEMMs at serving shapes reach about two thirds of the
 *   best-shape matmul rate relative to the datasheet fp8 peak; 0.794 =
 *   mean bf16 MAMF of H100 0.803, H200 0.803, B200 0.776). */
#define QM_SERVING_HBM_FRACTION_DEFAULT    0.76
#define QM_SERVING_MAMF_FP8_DEFAULT        0.536
#define QM_SERVING_FP8_OVER_MAMF           (0.536 / 0.794)

static double
pos (double v)
{
  return (isfinite (v) && v > 0.0) ? v : 0.0;
}

/* The achievable rates of the GPU: GEMMs at the weight precision (its
 * best-shape matmul fraction), the output head at bf16, attention, HBM
 * streaming and the all-reduce bus; and the engine's per-step overhead. */
static void
engine_rates (QmServingEngine       *e,
              const QmServingConfig *cfg)
{
  const QmGpuSpec *gpu = cfg->gpu;
  double peak, mamf, fp8;
  gboolean low = cfg->weight_precision == QM_PRECISION_FP8 || cfg->weight_precision == QM_PRECISION_FP4;

  peak = pos (gpu->tflops[cfg->weight_precision]);
  if (peak == 0.0 && cfg->weight_precision == QM_PRECISION_FP4)
    peak = pos (gpu->tflops[QM_PRECISION_FP8]);
  if (peak == 0.0)
    peak = pos (gpu->tflops[QM_PRECISION_BF16]);
  if (peak == 0.0)
    peak = pos (gpu->tflops[QM_PRECISION_FP16]);
  mamf = pos (gpu->mamf_fraction) > 0.0 ? gpu->mamf_fraction : QM_SERVING_MAMF_DEFAULT;
  e->gemm_rate = peak * 1e12 * mamf;
  if (low && peak != pos (gpu->tflops[QM_PRECISION_BF16]))
    {
      fp8 = pos (gpu->mamf_fraction_fp8);
      if (fp8 == 0.0)
        {
          fp8 = pos (gpu->mamf_fraction) > 0.0 ? gpu->mamf_fraction * QM_SERVING_FP8_OVER_MAMF
                                               : QM_SERVING_MAMF_FP8_DEFAULT;
          e->derived |= QM_SERVING_DERIVED_GEMM;
        }
      e->gemm_rate = peak * 1e12 * fp8;
    }
  else if (pos (gpu->mamf_fraction) == 0.0)
    e->derived |= QM_SERVING_DERIVED_GEMM;
  e->lm_rate = pos (gpu->tflops[QM_PRECISION_BF16]) * 1e12 * mamf;
  if (e->lm_rate == 0.0)
    e->lm_rate = e->gemm_rate;
  if ((cfg->kv_precision == QM_PRECISION_FP8 || cfg->kv_precision == QM_PRECISION_INT8)
      && pos (gpu->tflops[QM_PRECISION_FP8]) > 0.0)
    e->attn_rate = gpu->tflops[QM_PRECISION_FP8] * 1e12 * QM_SERVING_ATTENTION_FP8;
  else
    e->attn_rate = e->lm_rate / mamf * QM_SERVING_ATTENTION_BF16;
  if (e->attn_rate == 0.0)
    e->attn_rate = e->gemm_rate;

  if (pos (gpu->hbm_stream_fraction) == 0.0)
    e->derived |= QM_SERVING_DERIVED_HBM;
  e->hbm = pos (gpu->bandwidth_tbs) * 1e12
           * (pos (gpu->hbm_stream_fraction) > 0.0 ? gpu->hbm_stream_fraction
                                                    : QM_SERVING_HBM_FRACTION_DEFAULT);
  /* A full mesh without a switch (MI300X: seven xGMI links, one to each
   * peer): reduce-scatter then all-gather straight to each peer moves
   * S/n over each of the n - 1 links twice, so algbw = n x link / 2 and
   * busbw = algbw x 2 (n-1)/n = (n - 1) x link (busbw as defined in
   * NVIDIA/nccl-tests doc/PERFORMANCE.md). TP 2 uses one link only. */
  if (pos (gpu->p2p_link_gbs) > 0.0)
    e->ar_bw = (e->tp > 1 ? e->tp - 1.0 : 1.0) * gpu->p2p_link_gbs * 1e9;
  else if (pos (gpu->allreduce_busbw_gbs) > 0.0)
    e->ar_bw = gpu->allreduce_busbw_gbs * 1e9;
  else
    e->ar_bw = pos (gpu->link_gbs) * 1e9 * QM_SERVING_BUSBW_FRACTION;
  /* PCIe-only parts: PCIe Gen4 x16, 32 GB/s one direction. */
  if (e->ar_bw == 0.0)
    e->ar_bw = 32e9 * QM_SERVING_BUSBW_FRACTION;
  e->ar_latency = pos (gpu->allreduce_latency_us) > 0.0 ? gpu->allreduce_latency_us * 1e-6
                                                         : QM_SERVING_ALLREDUCE_LATENCY_S;
  if (e->tp > 1 && (pos (gpu->allreduce_latency_us) == 0.0
                    || (pos (gpu->allreduce_busbw_gbs) == 0.0 && pos (gpu->p2p_link_gbs) == 0.0)))
    e->derived |= QM_SERVING_DERIVED_ALLREDUCE;
  /* The engine's: scheduler, sampling, launch gaps (qm-engine.h). */
  e->overhead = e->spec->step_overhead_us * 1e-6;
  e->seq_overhead = e->spec->seq_overhead_us * 1e-6;
}

void
qm_serving_engine_init (QmServingEngine       *e,
                        const QmServingConfig *cfg)
{
  const QmModelShape *s = cfg->shape;
  const QmGpuSpec *gpu = cfg->gpu;
  QmParamCount c;
  double tp, pp, L, n_moe, wb, emb_b, per_expert = 0.0, top_k = 0.0;
  double dense_total, dense_active, expert_total = 0.0, ffn_local;
  double kv_tp, heads, head_dim, free, f;
  guint kv_heads;

  memset (e, 0, sizeof *e);
  g_return_if_fail (s != NULL && gpu != NULL);

  e->tp = MAX (cfg->tp, 1u);
  e->pp = MAX (cfg->pp, 1u);
  tp = e->tp;
  pp = e->pp;
  L = s->layers;
  e->layers = L / pp;
  e->hidden = s->hidden;
  e->spec = cfg->engine ? cfg->engine : qm_engine_resolve (NULL, gpu);
  e->block_tokens = MAX (e->spec->block_tokens, 1u);
  e->admission = e->spec->admission;
  {
    guint seqs, tokens;

    qm_engine_limits (e->spec, gpu, !cfg->server, &seqs, &tokens);
    /* 0 sequences: no cap but the KV pool (SGLang's default). */
    e->max_sequences = cfg->max_sequences ? cfg->max_sequences : seqs ? seqs : 65536;
    e->token_budget = cfg->token_budget ? cfg->token_budget : tokens;
  }

  qm_model_count_params (s, &c);
  wb = qm_precision_bytes (cfg->weight_precision);
  /* NVFP4 stores one fp8 scale per 16 values (NVIDIA, "Introducing NVFP4
   * for efficient and accurate low-precision inference", 2025). */
  if (cfg->weight_precision == QM_PRECISION_FP4)
    wb += 1.0 / 16.0;
  /* Quantised checkpoints (NVIDIA ModelOpt FP8/FP4, AWQ, GPTQ) quantise the
   * linear layers only; embedding and output head stay 16-bit. */
  emb_b = MAX (wb, 2.0);

  n_moe = 0.0;
  if (qm_model_is_moe (s) && s->experts > 0)
    {
      n_moe = L - MIN ((double) s->dense_layers, L);
      expert_total = pos (c.expert);
      per_expert = n_moe > 0 ? expert_total / (n_moe * s->experts) : 0.0;
      top_k = MAX (s->experts_per_token, 1u);
      e->experts = s->experts;
      e->top_k = top_k;
    }
  dense_total = pos (c.total - c.embedding - expert_total);
  dense_active = pos (c.active - c.embedding - top_k * per_expert * n_moe);

  /* Every weight is read once per step; FLOPs are 2 per weight per token
   * (Kaplan et al. 2020, Table 1). Routed experts: only those touched. */
  e->gemm_flops_tok = 2.0 * dense_active / (tp * pp);
  e->expert_flops_tok = 2.0 * top_k * per_expert * n_moe / (tp * pp);
  e->dense_bytes = dense_total * wb / (tp * pp);
  e->expert_bytes = per_expert * wb / tp;
  e->moe_layers = n_moe / pp;

  /* KV: K/V heads split across TP ranks, but a rank holds at least one
   * head (GQA with kv_heads < tp replicates); MLA's latent is replicated. */
  kv_heads = qm_model_kv_heads (s);
  head_dim = qm_model_head_dim (s);
  heads = s->heads;
  kv_tp = s->kv_lora_rank > 0 ? 1.0 : MIN (tp, (double) MAX (kv_heads, 1u));
  e->kv_bytes_per_token_gpu = qm_inference_kv_bytes_per_token (s, cfg->kv_precision) / kv_tp / pp;
  e->kv_bytes_tok = e->kv_bytes_per_token_gpu;
  /* Attention: QK^T and attention-over-V, 2 FLOPs per multiply-add each,
   * per (query, key) pair and head: 4 x head_dim (FlashAttention paper's
   * count). MLA absorbed: keys of kv_lora_rank + rope, values kv_lora_rank
   * (DeepSeek-V2 §2.1, weight absorption). */
  if (s->kv_lora_rank > 0)
    e->attn_flops_pair = 2.0 * heads * (2.0 * s->kv_lora_rank + s->rope_head_dim) * L / (tp * pp);
  else
    e->attn_flops_pair = 4.0 * heads * head_dim * L / (tp * pp);

  /* Memory-bound elementwise work per token and layer, 16-bit activations:
   * fused add+RMSNorm twice (read residual and input, write both: 4 x h)
   * and the gated activation (read 2, write 1 of the local MLP width). */
  if (n_moe > 0)
    ffn_local = (double) s->moe_ffn_hidden * (top_k + s->shared_experts) / tp;
  else
    ffn_local = (double) s->ffn_hidden / tp;
  e->elem_bytes_tok = 2.0 * (4.0 * s->hidden + 3.0 * ffn_local) * L / pp;

  /* Output head, vocab-parallel over TP, 16-bit. */
  e->lm_flops_tok = 2.0 * s->vocab * (double) s->hidden / tp;
  e->lm_bytes = (double) s->vocab * s->hidden * 2.0 / tp;

  engine_rates (e, cfg);

  /* Memory per GPU (issue 18 item 2): real device bytes minus weights,
   * the activation workspace of one full step (hidden states, QKV and the
   * local MLP intermediate for token_budget tokens, 16-bit) plus fp32
   * logits for the sampled sequences, and the runtime reserve; the
   * engine gives kv_fraction of the rest to paged KV blocks. */
  e->capacity_bytes = qm_gpu_memory_bytes (gpu);
  e->weights_bytes = (dense_total + expert_total) * wb / (tp * pp) + pos (c.embedding) * emb_b / (tp * pp);
  e->workspace_bytes = e->token_budget * 2.0 * (4.0 * s->hidden + 2.0 * ffn_local
                                                + (heads + 2.0 * kv_heads) * head_dim / tp)
                       + MIN (e->max_sequences, e->token_budget) * 4.0 * s->vocab;
  e->reserve_bytes = QM_SERVING_CONTEXT_BYTES;
  /* The engine's KV fraction: TensorRT-LLM takes it of the memory left
   * free after the model and its activations; vLLM and SGLang of the
   * whole device, out of which weights, activations and the runtime
   * are then paid (qm-engine.h). */
  free = e->capacity_bytes - e->weights_bytes - e->workspace_bytes - e->reserve_bytes;
  f = cfg->kv_fraction > 0.0 ? cfg->kv_fraction : e->spec->kv_fraction;
  if (free <= 0.0)
    e->kv_bytes = 0.0;
  else if (e->spec->kv_base == QM_ENGINE_KV_OF_TOTAL)
    e->kv_bytes = MAX (0.0, free - (1.0 - f) * e->capacity_bytes);
  else
    e->kv_bytes = free * f;
  if (e->kv_bytes_per_token_gpu > 0.0)
    e->kv_blocks = (guint) MIN (floor (e->kv_bytes / (e->block_tokens * e->kv_bytes_per_token_gpu)),
                                (double) G_MAXUINT);
  else
    e->kv_blocks = free > 0.0 ? G_MAXUINT : 0;
}

guint
qm_serving_blocks (const QmServingEngine *e,
                   double                 tokens)
{
  return (guint) MAX (1.0, ceil (MAX (tokens, 1.0) / MAX (e->block_tokens, 1u)));
}

gboolean
qm_serving_fits (const QmServingEngine *e,
                 double                 tokens)
{
  return e->kv_blocks >= qm_serving_blocks (e, tokens);
}

guint
qm_serving_max_batch (const QmServingEngine *e,
                      double                 tokens)
{
  return MIN (e->kv_blocks / qm_serving_blocks (e, tokens), e->max_sequences);
}

static double
eta (double m,
     double n)
{
  double d = MIN (m, n);

  return d > 0.0 ? d / (d + QM_SERVING_GEMM_EDGE) : 0.0;
}

double
qm_serving_step_s (const QmServingEngine *e,
                   const QmServingStep   *st)
{
  /* Pipeline stages run pp micro-batches in turn; the step is pp stage
   * times (GPipe steady state, Huang et al. 2019). */
  double mb = e->pp;
  double t = (st->decode + st->prefill) / mb;
  double dctx = st->decode_context / mb;
  double pairs = st->prefill_pairs / mb;
  double sampled = st->sampled / mb;
  double n_local = e->hidden / e->tp;
  double stage = 0.0, x;

  if (t <= 0.0)
    return 0.0;

  /* Dense GEMMs: weights once per step, FLOPs per token. */
  stage += MAX (t * e->gemm_flops_tok / (e->gemm_rate * eta (t, n_local)), e->dense_bytes / e->hbm);
  /* Routed experts: the distinct experts t tokens of top-k routing touch,
   * E (1 - (1 - k/E)^t) per layer (uniform routing). */
  if (e->experts > 0.0)
    {
      double touched = e->experts * (1.0 - pow (1.0 - e->top_k / e->experts, t));
      double per_expert_tokens = t * e->top_k / MAX (touched, 1.0);

      stage += MAX (t * e->expert_flops_tok / (e->gemm_rate * eta (per_expert_tokens, n_local)),
                    touched * e->expert_bytes * e->moe_layers / e->hbm);
    }
  /* Decode attention reads every sequence's whole KV cache. */
  stage += MAX (dctx * e->kv_bytes_tok / e->hbm, dctx * e->attn_flops_pair / e->attn_rate);
  /* Prefill attention: quadratic in the chunk (causal pairs), and the
   * chunk's KV is written. */
  stage += pairs * e->attn_flops_pair / e->attn_rate + (st->prefill / mb) * e->kv_bytes_tok / e->hbm;
  /* Norms, residuals and activation. */
  stage += t * e->elem_bytes_tok / e->hbm;
  /* Output head for the sequences that sample. */
  if (sampled > 0.0)
    stage += MAX (sampled * e->lm_flops_tok / (e->lm_rate * eta (sampled, n_local)), e->lm_bytes / e->hbm);
  /* Two all-reduces per layer of t x hidden 16-bit activations: the ring
   * moves 2 (n-1)/n of the buffer per GPU (NVIDIA/nccl-tests doc/PERFORMANCE.md). */
  if (e->tp > 1)
    {
      x = t * e->hidden * 2.0 * 2.0 * (e->tp - 1.0) / e->tp;
      stage += 2.0 * e->layers * (e->ar_latency + x / e->ar_bw);
    }
  /* The engine's host loop: a fixed part and a part per sequence that
   * emits a token (qm-engine.h). */
  return mb * stage + e->overhead + e->seq_overhead * st->sampled;
}

/* The simulator. */

typedef struct
{
  guint  finish_step;
  guint  req;
} HeapItem;

static void
heap_push (HeapItem *h,
           guint    *n,
           HeapItem  it)
{
  guint i = (*n)++;

  while (i > 0)
    {
      guint p = (i - 1) / 2;
      if (h[p].finish_step <= it.finish_step)
        break;
      h[i] = h[p];
      i = p;
    }
  h[i] = it;
}

static HeapItem
heap_pop (HeapItem *h,
          guint    *n)
{
  HeapItem top = h[0], last = h[--(*n)];
  guint i = 0;

  for (;;)
    {
      guint c = 2 * i + 1;
      if (c >= *n)
        break;
      if (c + 1 < *n && h[c + 1].finish_step < h[c].finish_step)
        c++;
      if (h[c].finish_step >= last.finish_step)
        break;
      h[i] = h[c];
      i = c;
    }
  if (*n > 0)
    h[i] = last;
  return top;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
percentile (const double *sorted,
            guint         n,
            double        q)
{
  double r;
  guint i;

  if (n == 0)
    return 0.0;
  /* Linear interpolation between closest ranks (numpy's default). */
  r = q * (n - 1);
  i = (guint) floor (r);
  if (i + 1 >= n)
    return sorted[n - 1];
  return sorted[i] + (r - i) * (sorted[i + 1] - sorted[i]);
}

static double
normal (GRand *rand)
{
  /* Box-Muller. */
  double u1 = g_rand_double (rand), u2 = g_rand_double (rand);

  return sqrt (-2.0 * log (1.0 - u1)) * cos (2.0 * G_PI * u2);
}

static double
draw_length (GRand  *rand,
             double  mean,
             double  sd,
             double  min)
{
  double v = mean;

  if (sd > 0.0)
    v = mean + sd * normal (rand);
  return MAX (min, round (v));
}

/* The @load->requests requests: arrival times (all at 0 offline) and
 * prompt and answer lengths (drawn, or from the plan's list), and the KV
 * blocks each needs. FALSE when one cannot fit the pool at all. */
static gboolean
draw_requests (const QmServingEngine *e,
               const QmServingLoad   *load,
               GRand                 *rand,
               double                *arrival,
               double                *in_len,
               double                *out_len,
               guint                 *need)
{
  double t = 0.0;

  for (guint i = 0; i < load->requests; i++)
    {
      if (load->arrival == QM_ARRIVAL_POISSON && load->requests_per_s > 0.0)
        t += -log (1.0 - g_rand_double (rand)) / load->requests_per_s;
      arrival[i] = t;
      if (load->lengths && load->n_lengths > 0)
        {
          guint k = g_rand_int_range (rand, 0, (gint32) MIN (load->n_lengths, (guint) G_MAXINT32));
          in_len[i] = MAX (1.0, round (load->lengths[2 * k]));
          out_len[i] = MAX (1.0, round (load->lengths[2 * k + 1]));
        }
      else
        {
          in_len[i] = draw_length (rand, load->input_tokens, load->input_sd, 1.0);
          out_len[i] = draw_length (rand, load->output_tokens, load->output_sd, 1.0);
        }
      /* TensorRT-LLM's default GUARANTEED_NO_EVICT policy: a request is
       * admitted only with blocks for its whole prompt and answer. */
      /* A drawn length beyond what the KV pool holds is cut to fit, as
       * an engine caps max_tokens at its max sequence length. */
      if (qm_serving_blocks (e, in_len[i] + out_len[i]) > e->kv_blocks)
        {
          double room = (double) e->kv_blocks * e->block_tokens;

          out_len[i] = MAX (1.0, MIN (out_len[i], room - in_len[i]));
          in_len[i] = MAX (1.0, MIN (in_len[i], room - out_len[i]));
        }
      need[i] = qm_serving_blocks (e, in_len[i] + out_len[i]);
      if (need[i] > e->kv_blocks)
        return FALSE;
    }
  return TRUE;
}

/* Sorts the samples and takes their percentiles. */
static void
latency_percentiles (double          *ttft,
                     guint            n_ttft,
                     double          *tpot,
                     guint            n_tpot,
                     double          *queue,
                     guint            n_queue,
                     QmServingResult *out)
{
  qsort (ttft, n_ttft, sizeof (double), cmp_double);
  qsort (queue, n_queue, sizeof (double), cmp_double);
  qsort (tpot, n_tpot, sizeof (double), cmp_double);
  out->ttft_p50_s = percentile (ttft, n_ttft, 0.50);
  out->ttft_p90_s = percentile (ttft, n_ttft, 0.90);
  out->ttft_p99_s = percentile (ttft, n_ttft, 0.99);
  out->tpot_p50_s = percentile (tpot, n_tpot, 0.50);
  out->tpot_p90_s = percentile (tpot, n_tpot, 0.90);
  out->tpot_p99_s = percentile (tpot, n_tpot, 0.99);
  out->queue_p50_s = percentile (queue, n_queue, 0.50);
  out->queue_p99_s = percentile (queue, n_queue, 0.99);
}

/* One event loop over steps, kept whole: its admission, step planning,
 * decode and prefill phases share a dozen counters and queues, and the
 * request simulation must stay fast (bench-serving, issue 18).
 *
 * Admission follows the engine (qm-engine.h):
 * - RESERVE (TensorRT-LLM GUARANTEED_NO_EVICT): a request starts only when
 *   the blocks of its whole prompt and answer are free; nothing is evicted.
 * - BLOCKS (vLLM V1, SGLang): a request starts when the blocks of its
 *   prompt are free; running sequences take a block each time their
 *   context crosses a block boundary, and when the pool runs out the
 *   newest decoding request is preempted (its blocks freed, vLLM's
 *   default recompute: it waits at the front of the queue and prefills
 *   its prompt and the tokens it had generated again;
 *   vllm/v1/core/sched/scheduler.py, _preempt_request). Decode blocks are
 *   counted as contexts / block size plus half a block of slack per
 *   sequence (the mean partly filled last block), not per sequence, to
 *   keep a step O(log n). */
gboolean
qm_serving_simulate (const QmServingEngine *e,
                     const QmServingLoad   *load,
                     QmServingResult       *out)
{
  guint n = load->requests, max_seq, budget, heap_cap, order_cap;
  g_autofree double *arrival = NULL, *in_len = NULL, *out_len = NULL, *eff_in = NULL, *gen = NULL;
  g_autofree double *first = NULL, *ttft = NULL, *tpot = NULL, *queue = NULL;
  g_autofree guint *pre = NULL, *need = NULL, *join = NULL, *order = NULL, *requeue = NULL;
  g_autofree guint8 *state = NULL;
  g_autofree double *pre_done = NULL;
  g_autofree HeapItem *heap = NULL;
  g_autoptr (GRand) rand = NULL;
  gboolean blocks = e->admission == QM_ENGINE_ADMIT_BLOCKS;
  guint pre_head = 0, pre_tail = 0, n_heap = 0, next_arr = 0, next_admit = 0, n_order = 0, n_requeue = 0;
  guint running = 0, completed = 0, n_tpot = 0, n_ttft = 0, n_queue = 0, step = 0, preemptions = 0;
  gboolean preempted = FALSE;
  double free_blocks, prefill_hold = 0.0, bt = MAX (e->block_tokens, 1u);
  double now = 0.0, d = 0.0, ctx = 0.0, out_tokens = 0.0, batch_sum = 0.0, last = 0.0;
  enum { WAITING, PREFILL, DECODE, DONE };

  memset (out, 0, sizeof *out);
  if (n == 0 || e->kv_blocks == 0)
    return FALSE;

  max_seq = load->max_sequences ? MIN (load->max_sequences, e->max_sequences) : e->max_sequences;
  max_seq = MAX (max_seq, 1u);
  budget = MAX (e->token_budget, 1u);
  free_blocks = e->kv_blocks;
  /* The prefill queue is a ring (a request is in it once at a time);
   * the heap and the decode order grow with preemptions (stale entries
   * are skipped when they come up). */
  heap_cap = n;
  order_cap = n;

  arrival = g_new (double, n);
  in_len = g_new (double, n);
  out_len = g_new (double, n);
  eff_in = g_new (double, n);
  gen = g_new0 (double, n);
  first = g_new0 (double, n);
  ttft = g_new (double, n);
  tpot = g_new (double, n);
  queue = g_new (double, n);
  need = g_new (guint, n);
  join = g_new0 (guint, n);
  state = g_new0 (guint8, n);
  order = g_new (guint, order_cap);
  requeue = g_new (guint, n);
  pre = g_new (guint, n);
  pre_done = g_new0 (double, n);
  heap = g_new (HeapItem, heap_cap);
  rand = g_rand_new_with_seed ((guint32) (load->seed ^ (load->seed >> 32)));

  if (!draw_requests (e, load, rand, arrival, in_len, out_len, need))
    return FALSE;
  memcpy (eff_in, in_len, n * sizeof (double));

  while (completed < n && (load->max_steps == 0 || step < load->max_steps))
    {
      QmServingStep st = { 0, };
      double left, dt;
      guint k, done_prefill = 0;

      while (next_arr < n && arrival[next_arr] <= now)
        next_arr++;
      for (;;)
        {
          guint r;
          double want;

          /* vLLM V1 schedules no waiting request in a step that
           * preempted one (scheduler.py: "if not preempted_reqs"). */
          if (running >= max_seq || preempted)
            break;
          if (n_requeue > 0)
            r = requeue[n_requeue - 1];
          else if (next_admit < next_arr)
            r = next_admit;
          else
            break;
          want = blocks ? ceil (eff_in[r] / bt) : need[r];
          if (free_blocks < want)
            break;
          if (n_requeue > 0)
            n_requeue--;
          else
            {
              queue[n_queue++] = now - arrival[r];
              next_admit++;
            }
          free_blocks -= want;
          if (blocks)
            prefill_hold += want;
          state[r] = PREFILL;
          running++;
          pre[pre_tail++ % n] = r;
        }
      preempted = FALSE;
      if (d == 0.0 && pre_head == pre_tail)
        {
          /* Idle: jump to the next arrival. */
          if (next_arr >= n)
            break;
          now = MAX (now, arrival[next_arr]);
          continue;
        }

      /* Sarathi-Serve: every decode token first, then prefill chunks in
       * arrival order within the step's token budget. */
      st.decode = d;
      st.decode_context = ctx;
      left = budget > d ? budget - d : 0.0;
      for (k = pre_head; k < pre_tail && left > 0.0; k++)
        {
          guint r = pre[k % n];
          double rem = eff_in[r] - pre_done[r];
          double c = MIN (rem, left);

          st.prefill += c;
          st.prefill_pairs += c * (pre_done[r] + (c + 1.0) / 2.0);
          left -= c;
          if (c >= rem)
            done_prefill++;
        }
      st.sampled = d + done_prefill;
      if (load->on_step)
        load->on_step (&st, load->user_data);
      dt = qm_serving_step_s (e, &st);
      now += dt;
      step++;
      batch_sum += d;
      out_tokens += d;

      /* Decoders: one more token each; those at their last token leave. */
      ctx += d;
      while (n_heap > 0 && heap[0].finish_step <= step)
        {
          HeapItem it = heap_pop (heap, &n_heap);
          guint r = it.req;

          /* A stale entry of a request preempted since. */
          if (state[r] != DECODE || it.finish_step != join[r] + (guint) (out_len[r] - gen[r]))
            continue;
          d -= 1.0;
          ctx -= in_len[r] + out_len[r];
          tpot[n_tpot++] = (now - first[r]) / (out_len[r] - 1.0);
          if (blocks)
            free_blocks += ceil ((in_len[r] + out_len[r]) / bt);
          else
            free_blocks += need[r];
          state[r] = DONE;
          running--;
          completed++;
          last = now;
        }

      /* Prefills: advance the chunks; finished prompts emit their next
       * token now and join the decode batch from the next step. */
      left = st.prefill;
      while (pre_head < pre_tail && left > 0.0)
        {
          guint r = pre[pre_head % n];
          double rem = eff_in[r] - pre_done[r];
          double c = MIN (rem, left);

          pre_done[r] += c;
          left -= c;
          if (pre_done[r] < eff_in[r])
            break;
          pre_head++;
          if (gen[r] == 0.0)
            {
              first[r] = now;
              ttft[n_ttft++] = now - arrival[r];
            }
          gen[r] += 1.0;
          out_tokens += 1.0;
          if (blocks)
            {
              double held = ceil (eff_in[r] / bt);

              /* The prompt's blocks now count with the decode contexts. */
              prefill_hold -= held;
              free_blocks += held;
            }
          if (gen[r] >= out_len[r])
            {
              if (!blocks)
                free_blocks += need[r];
              state[r] = DONE;
              running--;
              completed++;
              last = now;
            }
          else
            {
              HeapItem it;

              state[r] = DECODE;
              join[r] = step;
              it.finish_step = step + (guint) (out_len[r] - gen[r]);
              it.req = r;
              /* gen[] stays as at joining: the finish test above
               * compares with join + out_len - gen. */
              if (n_heap >= heap_cap)
                {
                  heap_cap *= 2;
                  heap = g_renew (HeapItem, heap, heap_cap);
                }
              heap_push (heap, &n_heap, it);
              d += 1.0;
              ctx += in_len[r] + gen[r];
              if (blocks)
                {
                  if (n_order >= order_cap)
                    {
                      order_cap *= 2;
                      order = g_renew (guint, order, order_cap);
                    }
                  order[n_order++] = r;
                }
            }
        }

      /* BLOCKS: the decode contexts' blocks; when the pool is short,
       * preempt the newest decoding requests (recompute). */
      if (blocks)
        {
          double used = (ctx + d * (bt - 1.0) / 2.0) / bt;

          free_blocks = e->kv_blocks - prefill_hold - used;
          while (free_blocks < 0.0 && n_order > 0)
            {
              guint r = order[--n_order];
              double g;

              if (state[r] != DECODE)
                continue;
              /* Tokens generated by now: gen at joining plus one a step. */
              g = gen[r] + (step - join[r]);
              d -= 1.0;
              ctx -= in_len[r] + g;
              free_blocks += (in_len[r] + g + (bt - 1.0) / 2.0) / bt;
              gen[r] = g;
              eff_in[r] = in_len[r] + g;
              pre_done[r] = 0.0;
              state[r] = WAITING;
              running--;
              requeue[n_requeue++] = r;
              preemptions++;
              preempted = TRUE;
            }
        }
      if (!(dt > 0.0))
        return FALSE;
    }

  out->completed = completed;
  out->preemptions = preemptions;
  out->truncated = completed < n;
  out->steps = step;
  out->makespan_s = last - arrival[0];
  if (out->makespan_s > 0.0)
    {
      out->tokens_per_s = out_tokens / out->makespan_s;
      out->requests_per_s = completed / out->makespan_s;
    }
  out->mean_batch = step > 0 ? batch_sum / step : 0.0;
  latency_percentiles (ttft, n_ttft, tpot, n_tpot, queue, n_queue, out);
  /* Unstable: requests arrived faster than the replica served them. */
  if (load->arrival == QM_ARRIVAL_POISSON && load->requests_per_s > 0.0)
    {
      /* Compared with the rate the served requests actually arrived at
       * (a short Poisson sample strays from the nominal rate). */
      guint k = MAX (completed, 1u);
      double arrived = k / MAX (arrival[k - 1] - arrival[0], 1e-9);

      out->unstable = out->requests_per_s < 0.95 * MIN (load->requests_per_s, arrived);
    }
  /* Cut short by max_steps: the figures describe the requests served. */
  return completed > 0 && (completed == n || load->max_steps > 0);
}
