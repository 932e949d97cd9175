/* test-inference.c: KV cache, roofline throughput and GPU count against the
 * scaling book and the industry rule of thumb.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "qm-catalog.h"
#include "qm-estimate.h"
#include "qm-plan.h"
#include "qm-inference.h"
#include "qm-serving.h"
#include "qm-test-accuracy.h"

/* H100 SXM: 80 GB, 3.35 TB/s, 989 TF bf16, 1979 TF fp8 dense. */
static QmGpuSpec
h100 (void)
{
  QmGpuSpec g = { 0, };

  g.memory_gb = 80;
  g.bandwidth_tbs = 3.35;
  g.tflops[QM_PRECISION_BF16] = 989;
  g.tflops[QM_PRECISION_FP16] = 989;
  g.tflops[QM_PRECISION_FP8] = 1979;
  g.tdp_w = 700;
  return g;
}

static QmModelShape
shape (guint layers,
       guint hidden,
       guint heads,
       guint kv_heads)
{
  QmModelShape s = { 0, };

  s.layers = layers;
  s.hidden = hidden;
  s.heads = heads;
  s.kv_heads = kv_heads;
  return s;
}

/* Scaling book (jax-ml/scaling-book inference.md): LLaMA-2-13B at 8192 tokens is
 * 8192 x 40 x 128 x 40 x 2 B x 2 = 6.7 GB per sequence. */
static void
test_kv_cache (void)
{
  QmModelShape llama2_13b = shape (40, 5120, 40, 40);
  QmModelShape llama3_70b = shape (80, 8192, 64, 8);
  QmModelShape dsv3 = shape (61, 7168, 128, 128);
  double per_token = qm_inference_kv_bytes_per_token (&llama2_13b, QM_PRECISION_BF16);

  g_assert_cmpfloat (per_token, ==, 2.0 * 2 * 40 * 128 * 40);
  g_assert_cmpfloat_with_epsilon (per_token * 8192 / 1e9, 6.7, 0.05);
  /* GQA: 8 of 64 heads cache K/V, 8x less than multi-head. */
  g_assert_cmpfloat (qm_inference_kv_bytes_per_token (&llama3_70b, QM_PRECISION_BF16), ==,
                     2.0 * 2 * 8 * 128 * 80);
  g_assert_cmpfloat (qm_inference_kv_bytes_per_token (&llama3_70b, QM_PRECISION_FP8), ==,
                     2.0 * 1 * 8 * 128 * 80);
  /* MLA (DeepSeek-V2 §2.1.2): (d_c + d_h^R) x l = (512 + 64) x 61 elements. */
  dsv3.kv_lora_rank = 512;
  dsv3.rope_head_dim = 64;
  g_assert_cmpfloat (qm_inference_kv_bytes_per_token (&dsv3, QM_PRECISION_BF16), ==,
                     2.0 * 576 * 61);
}

static QmInferenceInput
llama_7b_input (const QmModelShape *s,
                const QmGpuSpec    *g)
{
  QmInferenceInput in = { 0, };

  in.shape = s;
  in.params = 6.74e9;
  in.gpu = g;
  in.weight_precision = QM_PRECISION_BF16;
  in.kv_precision = QM_PRECISION_BF16;
  in.requests_per_minute = 600;
  in.input_tokens = 1000;
  in.output_tokens = 500;
  return in;
}

/* The rule of thumb (seed 001): GPUs = output_tokens / throughput x
 * requests_per_minute / 60. */
static void
test_seed_rule (void)
{
  QmModelShape s = shape (32, 4096, 32, 32);
  QmGpuSpec g = h100 ();
  QmInferenceInput in = llama_7b_input (&s, &g);
  QmInference r;

  /* Measured throughput given: 500 / 1000 x 600 / 60 = 5 GPUs. */
  in.tokens_per_s_per_gpu = 1000;
  in.gpus_per_replica = 1;
  qm_inference_compute (&in, &r);
  g_assert_cmpfloat_with_epsilon (r.gpus_exact, 500.0 / 1000 * 600 / 60, 1e-12);
  g_assert_cmpuint (r.gpus, ==, 5);
  g_assert_cmpuint (r.replicas, ==, 5);
  g_assert_cmpfloat (r.tokens_per_s_total, ==, 5000);

  /* With the roofline's own throughput the same rule holds exactly. */
  in.tokens_per_s_per_gpu = 0;
  in.gpus_per_replica = 0;
  qm_inference_compute (&in, &r);
  g_assert_true (r.fits);
  g_assert_cmpfloat (r.tokens_per_s_per_gpu, >, 0);
  g_assert_cmpfloat_with_epsilon (r.gpus_exact,
                                  in.output_tokens / r.tokens_per_s_per_gpu
                                  * in.requests_per_minute / 60, 1e-12);
  g_assert_cmpuint (r.gpus, ==, r.replicas * r.gpus_per_replica);
  g_assert_cmpfloat (r.gpus, >=, r.gpus_exact);
  g_assert_cmpfloat (r.tokens_per_s_total, >=, r.tokens_per_s_needed);

  /* Random rates: always the rule, always enough GPUs. */
  for (guint i = 0; i < 100; i++)
    {
      in.tokens_per_s_per_gpu = g_test_rand_double_range (1, 5000);
      in.output_tokens = g_test_rand_int_range (1, 4000);
      in.requests_per_minute = g_test_rand_double_range (0, 100000);
      in.gpus_per_replica = g_test_rand_int_range (1, 9);
      qm_inference_compute (&in, &r);
      g_assert_cmpfloat_with_epsilon (r.gpus_exact,
                                      in.output_tokens / in.tokens_per_s_per_gpu
                                      * in.requests_per_minute / 60,
                                      1e-9 * (1 + r.gpus_exact));
      g_assert_cmpuint (r.gpus, ==, MAX (1, (guint) ceil (r.gpus_exact / in.gpus_per_replica - 1e-9))
                                    * in.gpus_per_replica);
    }
}

/* A catalog model and GPU (the shapes the estimate passes). */
static QmInferenceInput
preset_input (const char *model,
              const char *gpu)
{
  const QmModelPreset *m = qm_catalog_model (model);
  QmInferenceInput in = { 0, };

  g_assert_nonnull (m);
  g_assert_nonnull (qm_catalog_gpu (gpu));
  in.shape = &m->shape;
  in.params = qm_model_params (&m->shape);
  in.gpu = qm_catalog_gpu (gpu);
  in.weight_precision = QM_PRECISION_BF16;
  in.kv_precision = QM_PRECISION_BF16;
  in.requests_per_minute = 600;
  in.input_tokens = 1000;
  in.output_tokens = 500;
  return in;
}

/* Decode is bandwidth-bound at small batch: a step can never beat reading
 * the weights at the datasheet bandwidth (jax-ml/scaling-book inference.md), and
 * it turns compute-bound at large batch (B >~ FLOP/s / bytes/s per weight
 * byte: 295 for bf16 on H100, docs/estimation-anchors.md §3). */
static void
test_decode_roofline (void)
{
  QmInferenceInput in = preset_input ("llama-2-7b", "h100-sxm-80gb");
  QmServingConfig c = { 0, };
  QmServingEngine e1, e2;
  double weights = qm_model_params (in.shape) * 2.0;
  QmServingStep one = { 1, 1000, 0, 0, 1 };
  QmServingStep big = { 2048, 2048 * 10.0, 0, 0, 2048 };

  c.shape = in.shape;
  c.gpu = in.gpu;
  c.tp = 1;
  c.pp = 1;
  c.weight_precision = QM_PRECISION_BF16;
  c.kv_precision = QM_PRECISION_BF16;
  qm_serving_engine_init (&e1, &c);
  g_assert_cmpfloat (qm_serving_step_s (&e1, &one), >=, weights / 3.35e12);
  /* ... and within the achievable stream fraction plus the step overhead
   * and the small kernels: under 1.6x the datasheet bound. */
  g_assert_cmpfloat (qm_serving_step_s (&e1, &one), <=, 1.6 * weights / 3.35e12);
  /* Batch 1: the weight read dominates; 2,048 short sequences: the GEMMs. */
  g_assert_cmpfloat (1 * e1.gemm_flops_tok / e1.gemm_rate, <, e1.dense_bytes / e1.hbm);
  g_assert_cmpfloat (2048 * e1.gemm_flops_tok / e1.gemm_rate, >, e1.dense_bytes / e1.hbm);
  g_assert_cmpfloat (qm_serving_step_s (&e1, &big), >, 2048 * e1.gemm_flops_tok / e1.gemm_rate);

  /* Two GPUs: half the weights each, plus two all-reduces per layer; a
   * batch-1 step is faster, but not twice as fast. */
  c.tp = 2;
  qm_serving_engine_init (&e2, &c);
  g_assert_cmpfloat (qm_serving_step_s (&e2, &one), <, qm_serving_step_s (&e1, &one));
  g_assert_cmpfloat (qm_serving_step_s (&e2, &one), >, qm_serving_step_s (&e1, &one) / 2);

  /* fp8 weights read half the bytes. */
  c.tp = 1;
  c.weight_precision = QM_PRECISION_FP8;
  qm_serving_engine_init (&e2, &c);
  g_assert_cmpfloat_with_epsilon (e2.dense_bytes, e1.dense_bytes / 2, 1e-6 * e1.dense_bytes);
  g_assert_cmpfloat (qm_serving_step_s (&e2, &one), <, qm_serving_step_s (&e1, &one));
}

/* Memory (issue 18 item 2): real device bytes, weights, workspace,
 * reserve, 0.9 of the rest in 32-token blocks; one "fits". */
static void
test_memory (void)
{
  QmInferenceInput in = preset_input ("llama-3.1-70b", "h100-sxm-80gb");
  QmServingConfig c = { 0, };
  QmServingEngine e;
  double free;

  c.shape = in.shape;
  c.gpu = in.gpu;
  c.tp = 2;
  c.weight_precision = QM_PRECISION_BF16;
  c.kv_precision = QM_PRECISION_BF16;
  qm_serving_engine_init (&e, &c);
  /* An "80 GB" H100 reports 81,559 MiB = 85.5e9 bytes. */
  g_assert_cmpfloat_with_epsilon (e.capacity_bytes, 81559.0 * 1048576.0, 1.0);
  free = e.capacity_bytes - e.weights_bytes - e.workspace_bytes - e.reserve_bytes;
  g_assert_cmpfloat_with_epsilon (e.kv_bytes, 0.9 * free, 1.0);
  /* Llama 3 70B bf16 KV: 2 x 2 B x 8 heads x 128 x 80 layers = 320 KiB per
   * token, 4 heads per GPU at TP2. */
  g_assert_cmpfloat (e.kv_bytes_per_token_gpu, ==, 2.0 * 2 * 4 * 128 * 80);
  g_assert_cmpuint (e.kv_blocks, ==, (guint) floor (e.kv_bytes / (32 * e.kv_bytes_per_token_gpu)));
  /* TensorRT-LLM (auto on NVIDIA): 32 tokens per block. */
  g_assert_cmpuint (e.block_tokens, ==, 32);
  g_assert_cmpuint (qm_serving_blocks (&e, 1), ==, 1);
  g_assert_cmpuint (qm_serving_blocks (&e, 32), ==, 1);
  g_assert_cmpuint (qm_serving_blocks (&e, 33), ==, 2);
  g_assert_true (qm_serving_fits (&e, 8192));
  g_assert_cmpuint (qm_serving_max_batch (&e, 2048), ==, MIN (e.kv_blocks / 64, 2048u));
  /* 141 GB of bf16 weights do not fit on one H100. */
  c.tp = 1;
  qm_serving_engine_init (&e, &c);
  g_assert_false (qm_serving_fits (&e, 1));
}

static void
test_fit_and_targets (void)
{
  QmInferenceInput in = preset_input ("llama-3.1-70b", "h100-sxm-80gb");
  QmInference r, r2;

  /* 70B in bf16 = 141 GB: two H100s. */
  qm_inference_compute (&in, &r);
  g_assert_true (r.fits);
  g_assert_cmpuint (r.gpus_per_replica, ==, 2);
  g_assert_cmpfloat (r.memory_per_gpu_bytes, <=, r.capacity_per_gpu_bytes);

  /* A TTFT target that two GPUs cannot meet for a lone 2,000-token prompt
   * (2 x 70.6e9 x 2000 FLOPs = 282 TFLOP: > 100 ms on 2 x 989 TFLOP/s)
   * picks a larger replica. */
  in.input_tokens = 2000;
  in.ttft_ms = 150;
  in.requests_per_minute = 6;
  qm_inference_compute (&in, &r);
  g_assert_cmpuint (r.gpus_per_replica, >, 2);
  g_assert_true (r.meets_ttft);
  g_assert_cmpfloat (r.ttft_p99_ms, <=, 150);

  /* SLO sizing: a tight p99 TPOT at a high rate needs more replicas than
   * throughput alone, and every smaller fleet misses it. */
  in = preset_input ("llama-3.1-8b", "h100-sxm-80gb");
  in.requests_per_minute = 3000;
  qm_inference_compute (&in, &r);
  in.tpot_ms = 1.3 * r.tpot_p50_ms;
  in.tpot_ms = MAX (in.tpot_ms, 12.0);
  qm_inference_compute (&in, &r2);
  g_assert_true (r2.meets_tpot);
  g_assert_cmpfloat (r2.tpot_p99_ms, <=, in.tpot_ms);
  g_assert_cmpuint (r2.replicas, >=, r.replicas);
  if (r2.replicas > 1)
    {
      QmServingResult fewer;
      QmInference smaller = r2;
      smaller.replicas = r2.replicas - 1;
      g_assert_true (qm_inference_latency_at_rate (&in, &smaller, in.requests_per_minute, &fewer));
      g_assert_true (fewer.tpot_p99_s * 1000 > in.tpot_ms || fewer.ttft_p99_s * 1000 > in.ttft_ms + 1e9 * (in.ttft_ms == 0) || fewer.unstable);
    }

  /* 405B in bf16 = 810 GB: more than one 8 x 80 GB node, so 16 GPUs. */
  in = preset_input ("llama-3.1-405b", "h100-sxm-80gb");
  in.gpus_per_node = 8;
  in.requests_per_minute = 60;
  qm_inference_compute (&in, &r);
  g_assert_true (r.fits);
  g_assert_cmpuint (r.gpus_per_replica, ==, 16);
  /* ... and in fp8 (405 GB) one node. */
  in.weight_precision = QM_PRECISION_FP8;
  qm_inference_compute (&in, &r);
  g_assert_cmpuint (r.gpus_per_replica, ==, 8);

  /* Forced onto one GPU it does not fit: an error naming the field. */
  in.gpus_per_replica = 1;
  qm_inference_compute (&in, &r);
  g_assert_false (r.fits);
  g_assert_nonnull (qm_issues_find (&r.issues, "workload.inference"));
  g_assert_true (isfinite (r.tokens_per_s_per_gpu));
  g_assert_true (isfinite (r.memory_per_gpu_bytes));
}

static void
test_bad_input (void)
{
  QmModelShape s = shape (32, 4096, 32, 32);
  QmGpuSpec g = h100 ();
  QmInferenceInput in = llama_7b_input (&s, &g);
  QmInference r;

  in.output_tokens = 0;
  qm_inference_compute (&in, &r);
  g_assert_nonnull (qm_issues_find (&r.issues, "workload.inference.output_tokens"));
  g_assert_cmpfloat (r.gpus_exact, ==, 0);
  g_assert_true (isfinite (r.tokens_per_s_total));

  in = llama_7b_input (&s, &g);
  in.params = -1;
  in.requests_per_minute = NAN;
  qm_inference_compute (&in, &r);
  g_assert_nonnull (qm_issues_find (&r.issues, "workload.model.params_b"));
  g_assert_nonnull (qm_issues_find (&r.issues, "workload.inference.requests_per_minute"));

  in = llama_7b_input (&s, &g);
  g.memory_gb = 0;
  qm_inference_compute (&in, &r);
  g_assert_nonnull (qm_issues_find (&r.issues, "hardware.gpu"));
  g_assert_true (isfinite (r.ttft_ms));
}

/* Random valid inputs: finite, consistent, enough capacity. */
static void
test_random (void)
{
  QmGpuSpec g = h100 ();

  for (guint i = 0; i < 100; i++)
    {
      QmModelShape s = shape (g_test_rand_int_range (1, 128), 4096,
                              32, 1 << g_test_rand_int_range (0, 6));
      QmInferenceInput in = llama_7b_input (&s, &g);
      QmInference r;

      in.params = g_test_rand_double_range (1e8, 5e11);
      in.input_tokens = g_test_rand_int_range (0, 32000);
      in.output_tokens = g_test_rand_int_range (1, 4000);
      in.requests_per_minute = g_test_rand_double_range (0, 1e5);
      in.ttft_ms = g_test_rand_int_range (0, 2) ? g_test_rand_double_range (10, 5000) : 0;
      in.tpot_ms = g_test_rand_int_range (0, 2) ? g_test_rand_double_range (5, 200) : 0;
      in.weight_precision = g_test_rand_int_range (0, 2) ? QM_PRECISION_FP8 : QM_PRECISION_BF16;
      qm_inference_compute (&in, &r);

      g_assert_true (isfinite (r.gpus_exact));
      g_assert_true (isfinite (r.tokens_per_s_per_gpu));
      g_assert_true (isfinite (r.tokens_per_s_total));
      g_assert_true (isfinite (r.ttft_ms));
      g_assert_true (isfinite (r.tpot_ms));
      g_assert_true (isfinite (r.in_flight));
      g_assert_cmpuint (r.gpus, ==, r.replicas * r.gpus_per_replica);
      g_assert_cmpuint (r.replicas, >=, 1);
      if (r.fits)
        {
          g_assert_cmpfloat (r.tokens_per_s_total, >=, r.tokens_per_s_needed * (1 - 1e-9));
          g_assert_cmpfloat (r.memory_per_gpu_bytes, <=, r.capacity_per_gpu_bytes * (1 + 1e-9));
        }
    }
}

/* Published serving runs (tests/data/serving-reference.tsv). Offline runs
 * queue every request at once, so the schedule (which sequences run in
 * which step) depends on memory and the scheduler, not on the step
 * times: each row's steps are recorded once, and the hardware constants
 * (hbm_stream_fraction, mamf_fraction_fp8, step_overhead_us,
 * allreduce_busbw_gbs) are fitted
 * by re-timing them. */
typedef struct
{
  QmServingStep step;
  double        weight;
} RefStep;

typedef struct
{
  char              *id;
  char              *section;
  const QmModelPreset *model;
  QmGpuSpec          gpu;
  const QmEngineSpec *engine;
  guint              max_sequences; /* the run's cap; 0 = engine default */
  double             fit_hbm, fit_gemm; /* GPU constants of a leave-one-out fold */
  gboolean           server;        /* a rate held within p99 limits (MLPerf Server) */
  double             ttft_limit_s, tpot_limit_s;
  guint              tp;
  QmPrecision        wp, kp;
  double             input, output, requests;
  double             published;     /* output tokens/s of the TP group (all replicas) */
  guint              replicas;      /* data-parallel copies of the TP group */
  char              *group;         /* "trtllm" (fitted) or a held-out source */
  char              *notes;
  double             out_tokens;
  GArray            *steps;         /* RefStep, compressed */
  double             predicted;     /* with the catalog's constants */
} RefRow;

static void
record_step (const QmServingStep *st,
             gpointer             data)
{
  RefStep rs = { *st, 1.0 };

  g_array_append_val ((GArray *) data, rs);
}

/* Keep about 2,000 steps per row: consecutive steps merge into their mean
 * with the run's weight (steps change slowly within a wave). */
static GArray *
compress_steps (GArray *all)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (RefStep));
  guint stride = MAX (1u, all->len / 2000);

  for (guint i = 0; i < all->len; i += stride)
    {
      RefStep m = { { 0, }, 0 };
      guint k, n = MIN (stride, all->len - i);

      for (k = 0; k < n; k++)
        {
          const QmServingStep *s = &g_array_index (all, RefStep, i + k).step;
          m.step.decode += s->decode / n;
          m.step.decode_context += s->decode_context / n;
          m.step.prefill += s->prefill / n;
          m.step.prefill_pairs += s->prefill_pairs / n;
          m.step.sampled += s->sampled / n;
        }
      m.weight = n;
      g_array_append_val (out, m);
    }
  return out;
}

static QmServingConfig
ref_config (const RefRow       *r,
            const QmGpuSpec    *gpu,
            const QmEngineSpec *engine)
{
  QmServingConfig c = { 0, };

  c.engine = engine;
  c.max_sequences = r->max_sequences;

  c.shape = &r->model->shape;
  c.gpu = gpu;
  c.tp = r->tp;
  c.pp = 1;
  c.weight_precision = r->wp;
  c.kv_precision = r->kp;
  return c;
}

/* Output tokens/s of a row with the given constants, from its steps. */
static double
ref_predict (const RefRow *r,
             double        hbm,
             double        gemm,
             double        overhead_us,
             double        seq_us,
             double        busbw_gbs)
{
  QmGpuSpec g = r->gpu;
  QmEngineSpec eng = *r->engine;
  QmServingConfig c = ref_config (r, &g, &eng);
  QmServingEngine e;
  double t = 0.0;

  g.hbm_stream_fraction = hbm;
  g.mamf_fraction_fp8 = gemm;
  eng.step_overhead_us = overhead_us;
  eng.seq_overhead_us = seq_us;
  g.allreduce_busbw_gbs = busbw_gbs;
  qm_serving_engine_init (&e, &c);
  for (guint i = 0; i < r->steps->len; i++)
    {
      const RefStep *s = &g_array_index (r->steps, RefStep, i);
      t += s->weight * qm_serving_step_s (&e, &s->step);
    }
  return t > 0.0 ? r->out_tokens / t : 0.0;
}

/* The rows of one group (@fitted TRUE: the "trtllm" rows the constants are
 * fitted on; FALSE: every other group, never fitted). Only fitted rows
 * record their steps: the others are simulated in full. */
static GPtrArray *
load_reference (gboolean fitted)
{
  const char *src = g_getenv ("QM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : "..", "tests", "data",
                                            "serving-reference.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *rows = g_ptr_array_new ();

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) f = NULL;
      RefRow *r;
      GArray *all;
      QmServingConfig c;
      QmServingEngine e;
      QmServingLoad load = { 0, };
      QmServingResult res;

      if (lines[i][0] == '#' || lines[i][0] == '\0' || g_str_has_prefix (lines[i], "id\t"))
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 17);
      if ((g_strcmp0 (f[13], "trtllm") == 0) != fitted)
        continue;
      r = g_new0 (RefRow, 1);
      r->id = g_strdup (f[0]);
      r->section = g_strdup (f[11]);
      r->replicas = (guint) g_ascii_strtoull (f[12], NULL, 10);
      g_assert_cmpuint (r->replicas, >=, 1);
      r->group = g_strdup (f[13]);
      r->notes = g_strdup (f[14]);
      r->model = qm_catalog_model (f[1]);
      g_assert_nonnull (r->model);
      g_assert_nonnull (qm_catalog_gpu (f[2]));
      r->gpu = *qm_catalog_gpu (f[2]);
      r->engine = qm_engine_lookup (f[15]);
      g_assert_nonnull (r->engine);
      r->max_sequences = (guint) g_ascii_strtoull (f[16], NULL, 10);
      if (g_str_has_prefix (r->notes, "server "))
        {
          double ttft_ms = 0, tpot_ms = 0;

          g_assert_cmpint (sscanf (r->notes, "server %lf %lf", &ttft_ms, &tpot_ms), ==, 2);
          r->server = TRUE;
          r->ttft_limit_s = ttft_ms / 1e3;
          r->tpot_limit_s = tpot_ms / 1e3;
        }
      r->fit_hbm = r->gpu.hbm_stream_fraction;
      r->fit_gemm = r->gpu.mamf_fraction_fp8;
      r->tp = (guint) g_ascii_strtoull (f[3], NULL, 10);
      g_assert_true (qm_precision_from_string (f[4], &r->wp));
      g_assert_true (qm_precision_from_string (f[5], &r->kp));
      r->input = g_ascii_strtod (f[6], NULL);
      r->output = g_ascii_strtod (f[7], NULL);
      r->requests = g_ascii_strtod (f[8], NULL);
      r->published = g_ascii_strtod (f[9], NULL);
      g_assert_cmpfloat (r->published, >, 0);
      g_assert_cmpstr (f[10], !=, "");
      g_assert_cmpstr (f[11], !=, "");

      c = ref_config (r, &r->gpu, r->engine);
      qm_serving_engine_init (&e, &c);
      all = g_array_new (FALSE, TRUE, sizeof (RefStep));
      load.arrival = QM_ARRIVAL_OFFLINE;
      /* Offline, the system's requests split evenly over independent
       * replicas: one replica's run times the replica count. */
      load.requests = (guint) (r->requests / r->replicas);
      load.input_tokens = r->input;
      load.output_tokens = r->output;
      load.seed = 1;
      load.on_step = record_step;
      load.user_data = all;
      g_assert_true (qm_serving_simulate (&e, &load, &res));
      r->predicted = res.tokens_per_s * r->replicas;
      r->out_tokens = r->requests * r->output;
      r->steps = compress_steps (all);
      g_array_unref (all);
      g_ptr_array_add (rows, r);
    }
  return rows;
}

static void
ref_row_free (gpointer p)
{
  RefRow *r = p;

  g_free (r->id);
  g_free (r->section);
  g_free (r->group);
  g_free (r->notes);
  g_array_unref (r->steps);
  g_free (r);
}

typedef struct
{
  double median, worst;
} ErrStats;

static ErrStats
err_stats (const double *err,
           guint         n)
{
  g_autofree double *a = g_new (double, MAX (n, 1u));
  ErrStats s = { 0, 0 };

  for (guint i = 0; i < n; i++)
    {
      a[i] = fabs (err[i]);
      s.worst = MAX (s.worst, a[i]);
    }
  if (n == 0)
    return s;
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && a[j - 1] > a[j]; j--)
      {
        double t = a[j];
        a[j] = a[j - 1];
        a[j - 1] = t;
      }
  s.median = n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2.0;
  return s;
}

/* The constants being fitted, per GPU: hbm_stream_fraction,
 * mamf_fraction_fp8, step_overhead_us (one value shared by every GPU: it
 * is the serving software's, not the chip's) and allreduce_busbw_gbs. */
typedef struct
{
  const char *gpu;
  double      p[4];
} GpuFit;

static const GpuFit *
fit_for (const GpuFit *fits,
         guint         n_fits,
         const char   *gpu)
{
  for (guint i = 0; i < n_fits; i++)
    if (g_strcmp0 (fits[i].gpu, gpu) == 0)
      return &fits[i];
  g_assert_not_reached ();
  return NULL;
}

/* Sum of squared log errors over the fit rows (the even ones), of one GPU
 * or (@only NULL) of all. */
static double
fit_cost (GPtrArray    *rows,
          const GpuFit *fits,
          guint         n_fits,
          const char   *only)
{
  double cost = 0.0;

  for (guint i = 0; i < rows->len; i += 2)
    {
      const RefRow *r = rows->pdata[i];
      const GpuFit *f;
      double l;

      if (only != NULL && g_strcmp0 (r->gpu.info.id, only) != 0)
        continue;
      f = fit_for (fits, n_fits, r->gpu.info.id);
      l = log (ref_predict (r, f->p[0], f->p[1], f->p[2], r->engine->seq_overhead_us, f->p[3])
               / r->published);
      cost += l * l;
    }
  return cost;
}

/* Golden-section search on one constant (written to every pointer in
 * @targets) within [lo, hi]. */
static void
golden (GPtrArray  *rows,
        GpuFit     *fits,
        guint       n_fits,
        const char *only,
        double    **targets,
        guint       n_targets,
        double      lo,
        double      hi)
{
  const double gr = (sqrt (5.0) - 1.0) / 2.0;
  double a = lo, b = hi, c = b - gr * (b - a), d = a + gr * (b - a), fc, fd;

#define SET(v) G_STMT_START { for (guint t_ = 0; t_ < n_targets; t_++) *targets[t_] = (v); } G_STMT_END
  SET (c);
  fc = fit_cost (rows, fits, n_fits, only);
  SET (d);
  fd = fit_cost (rows, fits, n_fits, only);
  for (guint it = 0; it < 28; it++)
    {
      if (fc < fd)
        {
          b = d;
          d = c;
          fd = fc;
          c = b - gr * (b - a);
          SET (c);
          fc = fit_cost (rows, fits, n_fits, only);
        }
      else
        {
          a = c;
          c = d;
          fc = fd;
          d = a + gr * (b - a);
          SET (d);
          fd = fit_cost (rows, fits, n_fits, only);
        }
    }
  SET ((a + b) / 2.0);
#undef SET
}

/* Coordinate descent within physical bounds, from a fixed start (not the
 * catalog's values, so the fit is the same whatever the catalog says). */
static void
fit_all (GPtrArray *rows,
         GpuFit    *fits,
         guint      n_fits)
{
  static const double lo[4] = { 0.50, 0.30, 0.0, 50.0 }, hi[4] = { 0.95, 1.00, 20000.0, 1000.0 };
  g_autofree double **shared = g_new (double *, n_fits);

  for (guint g = 0; g < n_fits; g++)
    {
      const QmGpuSpec *gpu = qm_catalog_gpu (fits[g].gpu);

      fits[g].p[0] = 0.8;
      fits[g].p[1] = 0.7;
      fits[g].p[2] = 0.0;
      fits[g].p[3] = 0.8 * gpu->link_gbs;
      shared[g] = &fits[g].p[2];
    }
  for (guint round = 0; round < 6; round++)
    {
      for (guint g = 0; g < n_fits; g++)
        for (guint k = 0; k < 4; k++)
          {
            double *t = &fits[g].p[k];
            if (k != 2)
              golden (rows, fits, n_fits, fits[g].gpu, &t, 1, lo[k], hi[k]);
          }
      golden (rows, fits, n_fits, NULL, shared, n_fits, lo[2], hi[2]);
    }
}

/* A row re-simulated in full with the given constants. */
static double
ref_simulate (const RefRow *r,
              const double  p[4])
{
  QmGpuSpec g = r->gpu;
  QmEngineSpec eng = *r->engine;
  QmServingConfig c = ref_config (r, &g, &eng);
  QmServingEngine e;
  QmServingLoad load = { 0, };
  QmServingResult res;

  g.hbm_stream_fraction = p[0];
  g.mamf_fraction_fp8 = p[1];
  eng.step_overhead_us = p[2];
  g.allreduce_busbw_gbs = p[3];
  qm_serving_engine_init (&e, &c);
  load.arrival = QM_ARRIVAL_OFFLINE;
  load.requests = (guint) r->requests;
  load.input_tokens = r->input;
  load.output_tokens = r->output;
  load.seed = 1;
  g_assert_true (qm_serving_simulate (&e, &load, &res));
  return res.tokens_per_s;
}

static void
test_published (void)
{
  g_autoptr (GPtrArray) rows = load_reference (TRUE);
  GpuFit fits[8];
  guint n_fits = 0;
  guint n = rows->len;
  g_autofree double *err_cat = g_new (double, n);
  g_autofree double *err_fit = g_new (double, n);
  g_autofree double *err_even = g_new (double, n);
  g_autofree double *err_odd = g_new (double, n);
  guint n_even = 0, n_odd = 0;
  ErrStats cat, all, even, odd;

  g_ptr_array_set_free_func (rows, ref_row_free);
  g_assert_cmpuint (n, >=, 30);

  /* Fit the constants on the even rows. */
  for (guint i = 0; i < n; i++)
    {
      const RefRow *r = rows->pdata[i];
      gboolean seen = FALSE;

      for (guint g = 0; g < n_fits; g++)
        seen |= g_strcmp0 (fits[g].gpu, r->gpu.info.id) == 0;
      if (!seen)
        {
          g_assert_cmpuint (n_fits, <, G_N_ELEMENTS (fits));
          fits[n_fits++].gpu = r->gpu.info.id;
        }
    }
  fit_all (rows, fits, n_fits);
  for (guint g = 0; g < n_fits; g++)
    {
      const QmGpuSpec *gpu = qm_catalog_gpu (fits[g].gpu);

      g_test_message ("fit %s on even rows: hbm_stream_fraction %.3f, mamf_fraction_fp8 %.3f, "
                      "step_overhead_us %.0f, allreduce_busbw_gbs %.0f (catalog %.3f, %.3f, %.0f, %.0f)",
                      fits[g].gpu, fits[g].p[0], fits[g].p[1], fits[g].p[2], fits[g].p[3],
                      gpu->hbm_stream_fraction, gpu->mamf_fraction_fp8,
                      qm_engine_lookup ("tensorrt-llm")->step_overhead_us,
                      gpu->allreduce_busbw_gbs);
    }

  g_test_message ("%-36s %9s %9s %7s %9s %7s  %s", "row", "published", "catalog", "err",
                  "fitted", "err", "source section");
  for (guint i = 0; i < n; i++)
    {
      const RefRow *r = rows->pdata[i];
      const double *p = fit_for (fits, n_fits, r->gpu.info.id)->p;
      double fit = ref_simulate (r, p);

      err_cat[i] = r->predicted / r->published - 1.0;
      err_fit[i] = fit / r->published - 1.0;
      if (i % 2 == 0)
        err_even[n_even++] = err_fit[i];
      else
        err_odd[n_odd++] = err_fit[i];
      g_test_message ("%-36s %9.0f %9.0f %+6.1f%% %9.0f %+6.1f%%%s  %s", r->id, r->published,
                      r->predicted, 100 * err_cat[i], fit, 100 * err_fit[i],
                      i % 2 ? " held-out" : " fit     ", r->section);
    }
  cat = err_stats (err_cat, n);
  all = err_stats (err_fit, n);
  even = err_stats (err_even, n_even);
  odd = err_stats (err_odd, n_odd);
  g_test_message ("catalog constants, all %u rows: median %.1f %%, worst %.1f %%", n,
                  100 * cat.median, 100 * cat.worst);
  g_test_message ("refitted: fit half median %.1f %%, worst %.1f %%; held-out half median %.1f %%, "
                  "worst %.1f %%; all median %.1f %%, worst %.1f %%",
                  100 * even.median, 100 * even.worst, 100 * odd.median, 100 * odd.worst,
                  100 * all.median, 100 * all.worst);

  /* Issue 18: median relative error <= 15 %, no row beyond 40 %, for the
   * constants we ship and for the held-out half of a fresh fit. */
  g_assert_cmpfloat (cat.median, <=, 0.15);
  g_assert_cmpfloat (cat.worst, <=, 0.40);
  g_assert_cmpfloat (odd.median, <=, 0.15);
  g_assert_cmpfloat (odd.worst, <=, 0.40);
}

/* A rate row (MLPerf Server): the highest Poisson rate per replica whose
 * simulated p99 TTFT and TPOT stay within the row's limits and whose
 * queue does not grow, found by bisection, as output tokens/s of the
 * whole system. The engine runs its server defaults. */
static gboolean
server_meets (const QmServingEngine *e,
              const RefRow          *r,
              double                 rate)
{
  QmServingLoad load = { 0, };
  QmServingResult res;

  load.arrival = QM_ARRIVAL_POISSON;
  load.requests_per_s = rate;
  load.requests = (guint) r->requests;
  load.input_tokens = r->input;
  load.output_tokens = r->output;
  load.seed = 1;
  if (!qm_serving_simulate (e, &load, &res) || res.unstable)
    return FALSE;
  return res.ttft_p99_s <= r->ttft_limit_s && res.tpot_p99_s <= r->tpot_limit_s;
}

static double
server_predict (const RefRow *r,
                double        overhead_us,
                double        seq_us)
{
  QmGpuSpec g = r->gpu;
  QmEngineSpec eng = *r->engine;
  QmServingConfig c = ref_config (r, &g, &eng);
  QmServingEngine e;
  double lo = 0.0, hi = 1.0;

  g.hbm_stream_fraction = r->fit_hbm;
  g.mamf_fraction_fp8 = r->fit_gemm;
  eng.step_overhead_us = overhead_us;
  eng.seq_overhead_us = seq_us;
  c.server = TRUE;
  qm_serving_engine_init (&e, &c);
  while (server_meets (&e, r, hi) && hi < 1e6)
    {
      lo = hi;
      hi *= 2.0;
    }
  for (guint it = 0; it < 12; it++)
    {
      double mid = (lo + hi) / 2.0;

      if (server_meets (&e, r, mid))
        lo = mid;
      else
        hi = mid;
    }
  return lo * r->output * r->replicas;
}

/* The whole system's output tokens/s of a held-out row with the catalog's
 * constants, at @input tokens per request. */
static double
other_simulate (const RefRow *r,
                double        input)
{
  QmServingConfig c = ref_config (r, &r->gpu, r->engine);
  QmServingEngine e;
  QmServingLoad load = { 0, };
  QmServingResult res;

  qm_serving_engine_init (&e, &c);
  load.arrival = QM_ARRIVAL_OFFLINE;
  load.requests = (guint) (r->requests / r->replicas);
  load.input_tokens = input;
  load.output_tokens = r->output;
  load.seed = 1;
  g_assert_true (qm_serving_simulate (&e, &load, &res));
  return res.tokens_per_s * r->replicas;
}

/* Published runs from other sources (MLPerf Inference Offline, ...), never
 * used to fit: predicted with the constants the catalog ships, to see
 * whether the fit on TensorRT-LLM's own runs carries over. Each row's
 * notes say what it assumes (the MLPerf datasets' mean input length is not
 * in the sources we could cite, so it is printed at half and twice the
 * assumed input too). */
static void
test_published_other (void)
{
  g_autoptr (GPtrArray) rows = load_reference (FALSE);
  guint n = rows->len;
  g_autofree double *err = g_new (double, MAX (n, 1u));
  g_autofree double *err_mlperf = g_new (double, MAX (n, 1u));
  guint n_mlperf = 0;
  ErrStats st;

  g_ptr_array_set_free_func (rows, ref_row_free);
  g_assert_cmpuint (n, >=, 1);
  g_test_message ("%-26s %-7s %5s %9s %9s %7s %9s %9s  %s", "row", "group", "tp x r", "published",
                  "catalog", "err", "in x0.5", "in x2", "section; notes");
  for (guint i = 0; i < n; i++)
    {
      const RefRow *r = rows->pdata[i];

      if (r->server)
        {
          double pred = server_predict (r, r->engine->step_overhead_us, r->engine->seq_overhead_us);

          err[i] = pred / r->published - 1.0;
          g_test_message ("%-26s %-7s %2u x %u %9.0f %9.0f %+6.1f%% (rate within p99 TTFT %.0f ms, TPOT %.0f ms)",
                          r->id, r->group, r->tp, r->replicas, r->published, pred, 100 * err[i],
                          1e3 * r->ttft_limit_s, 1e3 * r->tpot_limit_s);
          continue;
        }
      err[i] = r->predicted / r->published - 1.0;
      g_test_message ("%-26s %-7s %2u x %u %9.0f %9.0f %+6.1f%% %9.0f %9.0f  %s; %s", r->id, r->group,
                      r->tp, r->replicas, r->published, r->predicted, 100 * err[i],
                      other_simulate (r, 0.5 * r->input), other_simulate (r, 2.0 * r->input),
                      r->section, r->notes);
      g_assert_true (isfinite (r->predicted) && r->predicted > 0);
      if (g_strcmp0 (r->group, "mlperf") == 0)
        err_mlperf[n_mlperf++] = err[i];
    }
  st = err_stats (err_mlperf, n_mlperf);
  g_test_message ("group mlperf: %u rows, median %.1f %%, worst %.1f %%", n_mlperf, 100 * st.median,
                  100 * st.worst);
  st = err_stats (err, n);
  g_test_message ("held-out groups, catalog constants, %u rows: median %.1f %%, worst %.1f %%", n,
                  100 * st.median, 100 * st.worst);

  /* What the rows say (catalog constants, 2026.11): the five dense Llama 2
   * 70B MLPerf Offline runs on H100 (TP2 x 4, TP2 x 1) and H200 (TP1 x 8)
   * land within -9 % .. +7 %, at the assumed input length; at half or twice
   * that input they move by about +35 % / -33 %, so this agreement is only
   * as good as the assumption (see the TSV's notes).
   * Mixtral 8x7B on 8 H100 and 8 H200 is predicted 2.4-2.5x too fast
   * (+62 % / +68 % even at twice the assumed input). The grouped expert
   * GEMMs are priced on their own rows (B k / E of the batch: 8 GEMMs of a
   * quarter of the tokens at top-2 of 8; /inference/engines), but at these
   * batches that is about 600 rows per expert and costs only ~17 %: the
   * model still runs the MoE at twice the GEMM efficiency the published
   * rate implies (about 17 % of the fp8 peak, against 38 % for the dense
   * Llama rows). Routing and token permute/unpermute kernels, the MoE
   * kernels' own efficiency at fp8, and the dataset's input length (an
   * assumption) are candidates; none has a source here. The row's TP is an
   * assumption too, but TP2 x 4 instead of TP1 x 8 still gives +124 %. No
   * per-model factor is added for it.
   * The bound is on the MLPerf median only, which the dense rows carry; no
   * bound on the worst row while the MoE mechanism is missing. The AMD
   * rows (vLLM on MI300X) are bounded in /inference/leave-one-source-out. */
  st = err_stats (err_mlperf, n_mlperf);
  g_assert_cmpfloat (st.median, <=, 0.25);
}


/* Issue 31 item 6: leave one source out. The constants fitted on
 * published end-to-end runs here are the engines' host times:
 * TensorRT-LLM's per step, vLLM's per sequence of a step (the NVIDIA GPU
 * constants are fitted in test_published; the others come from
 * microbenchmarks or rules, gpus.json). For each source (the TSV's group)
 * in turn: refit them on the rows of the OTHER sources that ran the
 * engine (the catalog's value when none is left), predict the left-out
 * source, and report its error. The shipped values are fitted on ONE
 * named source each: tensorrt-llm on "trtllm" (NVIDIA perf-overview),
 * vllm on "amd-vllm" (AMD ROCm results). */
/* What the model meets on the held-out dense rows (2026-11, catalog
 * 2026.11.6): median 6.4 %, worst 53 %; AMD rows median 22 %. The AMD
 * sources disagree with each other: Oracle's vLLM (2024, V0 engine)
 * gives 2,794 output tokens/s for Llama 3.1 405B 128/2048 on 8 MI300X
 * where AMD's rocm/vllm 0.10.2 gives 4,202, so each predicts the other's
 * throughput rows 30-50 % off; Oracle's latency table (batch 1 to 256)
 * comes out 14-31 % fast, the batch-1 end pointing at an all-reduce
 * latency on MI300X above NVLink's (no measured value in the catalog:
 * the estimate notes it as derived); AMD's MLPerf v4.1 runs (TP 1,
 * tuned vLLM) come out 13-19 % slow. */
#define BOUND_MEDIAN     0.08
#define BOUND_WORST      0.60
#define BOUND_AMD_MEDIAN 0.25

static double
engine_cost (GPtrArray          *rows,
             const QmEngineSpec *engine,
             const char         *skip,
             const char         *only,
             gboolean            per_seq,
             double              overhead_us)
{
  double cost = 0.0;

  for (guint i = 0; i < rows->len; i++)
    {
      const RefRow *r = rows->pdata[i];
      double l;

      if (r->engine != engine || g_strcmp0 (r->group, skip) == 0
          || (only != NULL && g_strcmp0 (r->group, only) != 0))
        continue;
      /* The Mixtral rows lack the MoE mechanism (test_published_other):
       * they would pull the overhead, so no fit uses them; rate rows are
       * predicted, not fitted. */
      if (qm_model_is_moe (&r->model->shape) || r->server)
        continue;
      l = log (ref_predict (r, r->fit_hbm, r->fit_gemm, per_seq ? engine->step_overhead_us : overhead_us,
                            per_seq ? overhead_us : engine->seq_overhead_us, r->gpu.allreduce_busbw_gbs)
               / r->published);
      cost += l * l;
    }
  return cost;
}

/* The overhead (us; per step, or @per_seq per sequence of a step)
 * minimising the squared log error; -1 without rows. */
static double
fit_overhead (GPtrArray          *rows,
              const QmEngineSpec *engine,
              const char         *skip,
              const char         *only,
              gboolean            per_seq)
{
  const double gr = (sqrt (5.0) - 1.0) / 2.0;
  double a = 0.0, b = per_seq ? 200.0 : 20000.0, c, d, fc, fd;
  gboolean any = FALSE;

  for (guint i = 0; i < rows->len; i++)
    {
      const RefRow *r = rows->pdata[i];
      any |= r->engine == engine && g_strcmp0 (r->group, skip) != 0
             && (only == NULL || g_strcmp0 (r->group, only) == 0) && !qm_model_is_moe (&r->model->shape)
             && !r->server;
    }
  if (!any)
    return -1.0;
  c = b - gr * (b - a);
  d = a + gr * (b - a);
  fc = engine_cost (rows, engine, skip, only, per_seq, c);
  fd = engine_cost (rows, engine, skip, only, per_seq, d);
  for (guint it = 0; it < 30; it++)
    {
      if (fc < fd)
        {
          b = d; d = c; fd = fc;
          c = b - gr * (b - a);
          fc = engine_cost (rows, engine, skip, only, per_seq, c);
        }
      else
        {
          a = c; c = d; fc = fd;
          d = a + gr * (b - a);
          fd = engine_cost (rows, engine, skip, only, per_seq, d);
        }
    }
  /* At the bound: the rows do not determine it. */
  if ((a + b) / 2.0 > (per_seq ? 190.0 : 19000.0))
    return -1.0;
  return (a + b) / 2.0;
}

typedef struct
{
  const char *key;
  GArray     *err;
} ErrGroup;

static void
err_group_add (GPtrArray  *groups,
               const char *key,
               double      err)
{
  ErrGroup *g = NULL;

  for (guint i = 0; i < groups->len && g == NULL; i++)
    if (g_strcmp0 (((ErrGroup *) groups->pdata[i])->key, key) == 0)
      g = groups->pdata[i];
  if (g == NULL)
    {
      g = g_new0 (ErrGroup, 1);
      g->key = key;
      g->err = g_array_new (FALSE, FALSE, sizeof (double));
      g_ptr_array_add (groups, g);
    }
  g_array_append_val (g->err, err);
}

static void
err_group_free (gpointer p)
{
  ErrGroup *g = p;

  g_array_unref (g->err);
  g_free (g);
}

static void
print_groups (GString    *doc,
              const char *title,
              GPtrArray  *groups)
{
  g_string_append_printf (doc, "\n| %s | rows | median abs err | worst abs err |\n| --- | ---: | ---: | ---: |\n",
                          title);
  for (guint i = 0; i < groups->len; i++)
    {
      const ErrGroup *g = groups->pdata[i];
      ErrStats st = err_stats ((const double *) g->err->data, g->err->len);

      g_test_message ("by %s: %-14s %3u rows, median %5.1f %%, worst %5.1f %%", title, g->key, g->err->len,
                      100 * st.median, 100 * st.worst);
      g_string_append_printf (doc, "| %s | %u | %.1f %% | %.1f %% |\n", g->key, g->err->len,
                              100 * st.median, 100 * st.worst);
    }
}

static void
test_leave_one_source_out (void)
{
  g_autoptr (GPtrArray) rows = load_reference (TRUE);
  g_autoptr (GPtrArray) other = load_reference (FALSE);
  g_autoptr (GPtrArray) sources = g_ptr_array_new ();
  g_autoptr (GPtrArray) by_source = g_ptr_array_new_with_free_func (err_group_free);
  g_autoptr (GPtrArray) by_vendor = g_ptr_array_new_with_free_func (err_group_free);
  g_autoptr (GPtrArray) by_engine = g_ptr_array_new_with_free_func (err_group_free);
  g_autoptr (GString) doc = g_string_new (NULL);
  g_autoptr (GArray) all_err = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) amd_err = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) rate_err = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) acc_runs = g_array_new (FALSE, FALSE, sizeof (QmTestAccuracyRun));
  g_autofree char *acc_model = NULL;
  const QmEngineSpec *trt = qm_engine_lookup ("tensorrt-llm"), *vllm = qm_engine_lookup ("vllm");
  double fit_trt, fit_vllm;
  g_autofree char *path = NULL, *old = NULL, *fresh = NULL;
  const char *begin = "<!-- serving:begin -->", *end = "<!-- serving:end -->";
  ErrStats all, amd, rate;
  guint n_engines;

  g_ptr_array_set_free_func (rows, ref_row_free);
  for (guint i = 0; i < other->len; i++)
    g_ptr_array_add (rows, other->pdata[i]);
  g_ptr_array_set_free_func (other, NULL);

  /* The shipped engine constants, each fitted on its one named source:
   * TensorRT-LLM's per-step overhead on "trtllm" (NVIDIA perf-overview;
   * its shipped 838 us was fitted jointly with the NVIDIA GPU constants
   * on the even rows, test_published: alone on all rows it comes within
   * 15 %), vLLM's per-sequence host time on "amd-vllm" (AMD ROCm results:
   * batches of 1,500-3,200 sequences, beyond the 512 that vLLM captures
   * in CUDA/HIP graphs, where the per-step part is amortised and a part
   * per sequence is what the rows determine). vLLM's per-step part is
   * TensorRT-LLM's: no source separates it. */
  fit_trt = fit_overhead (rows, trt, NULL, "trtllm", FALSE);
  fit_vllm = fit_overhead (rows, vllm, NULL, "amd-vllm", TRUE);
  g_test_message ("fitted on its one source: tensorrt-llm %.0f us per step (catalog %.0f), vllm %.2f us "
                  "per sequence (catalog %.2f)",
                  fit_trt, trt->step_overhead_us, fit_vllm, vllm->seq_overhead_us);
  g_assert_cmpfloat (fabs (trt->step_overhead_us / fit_trt - 1.0), <=, 0.15);
  g_assert_cmpfloat (fabs (vllm->seq_overhead_us - fit_vllm), <=, 0.5);
  g_assert_cmpfloat (vllm->step_overhead_us, ==, trt->step_overhead_us);

  for (guint i = 0; i < rows->len; i++)
    {
      const RefRow *r = rows->pdata[i];
      gboolean seen = FALSE;

      for (guint k = 0; k < sources->len; k++)
        seen |= g_strcmp0 (sources->pdata[k], r->group) == 0;
      if (!seen)
        g_ptr_array_add (sources, r->group);
    }

  g_string_append (doc, "\nServing: leave one source out (tests/test-inference.c "
                        "/inference/leave-one-source-out; rows and provenance in "
                        "tests/data/serving-reference.tsv). For each source, every engine's fitted constant "
                        "(TensorRT-LLM's host time per step, vLLM's per sequence) is refitted on the other "
                        "sources and the left-out source is predicted; GPU constants are gpus.json's (the NVIDIA ones fitted on the trtllm rows, so that source "
                        "is held out for the overheads only; /inference/published checks its odd rows "
                        "against a fit on the even ones). Errors are predicted / published - 1.\n\n"
                        "| source | row | engine | published tok/s | predicted | error |\n"
                        "| --- | --- | --- | ---: | ---: | ---: |\n");
  (void) qm_engines (&n_engines);
  for (guint k = 0; k < sources->len; k++)
    {
      const char *src = sources->pdata[k];
      double ov[2];

      ov[0] = fit_overhead (rows, trt, src, NULL, FALSE);
      ov[1] = fit_overhead (rows, vllm, src, NULL, TRUE);
      /* No rows left for an engine, or rows that do not determine it:
       * the catalog's value of that constant (TensorRT-LLM's per-step
       * overhead; vLLM without a per-sequence part). */
      if (ov[0] < 0)
        ov[0] = trt->step_overhead_us;
      if (ov[1] < 0)
        ov[1] = 0.0;
      g_test_message ("without %s: tensorrt-llm %.0f us per step, vllm %.2f us per sequence", src, ov[0],
                      ov[1]);
      for (guint i = 0; i < rows->len; i++)
        {
          const RefRow *r = rows->pdata[i];
          double pred, err;

          if (g_strcmp0 (r->group, src) != 0)
            continue;
          if (r->server)
            pred = server_predict (r, r->engine == trt ? ov[0] : r->engine->step_overhead_us,
                                   r->engine == trt ? 0.0 : ov[1]);
          else if (r->engine == trt)
            pred = ref_predict (r, r->fit_hbm, r->fit_gemm, ov[0], 0.0, r->gpu.allreduce_busbw_gbs);
          else
            pred = ref_predict (r, r->fit_hbm, r->fit_gemm, r->engine->step_overhead_us, ov[1],
                                r->gpu.allreduce_busbw_gbs);
          err = pred / r->published - 1.0;
          g_test_message ("%-10s %-32s %-12s %9.0f %9.0f %+6.1f%%", src, r->id, r->engine->info.id,
                          r->published, pred, 100 * err);
          g_string_append_printf (doc, "| %s | %s | %s | %.0f | %.0f | %+.1f %% |\n", src, r->id,
                                  r->engine->info.id, r->published, pred, 100 * err);
          err_group_add (by_source, r->group, err);
          {
            QmTestAccuracyRun run = { r->gpu.family, r->engine->info.id, r->tp * MAX (r->replicas, 1u), err };

            g_array_append_val (acc_runs, run);
          }
          err_group_add (by_vendor, r->gpu.info.vendor, err);
          err_group_add (by_engine, r->engine->info.id, err);
          if (qm_model_is_moe (&r->model->shape))
            continue;
          g_array_append_val (all_err, err);
          if (r->server)
            g_array_append_val (rate_err, err);
          if (g_strcmp0 (r->gpu.info.vendor, "AMD") == 0)
            g_array_append_val (amd_err, err);
        }
    }
  /* The error model's serving part (data/catalog/accuracy.json): every
   * row's held-out error, Mixtral's included, by GPU family and engine. */
  acc_model = qm_test_accuracy_check (QM_ACCURACY_SERVING, "output tokens/s of offline runs, or the request rate "
                                      "held within p99 limits, held out by source", acc_runs);
  print_groups (doc, "source", by_source);
  print_groups (doc, "vendor", by_vendor);
  print_groups (doc, "engine", by_engine);
  all = err_stats ((const double *) all_err->data, all_err->len);
  amd = err_stats ((const double *) amd_err->data, amd_err->len);
  rate = err_stats ((const double *) rate_err->data, rate_err->len);
  g_test_message ("held out, dense rows: %u, median %.1f %%, worst %.1f %%; AMD %u, median %.1f %%, worst %.1f %%",
                  all_err->len, 100 * all.median, 100 * all.worst, amd_err->len, 100 * amd.median,
                  100 * amd.worst);
  g_test_message ("held out, rates within p99 limits: %u, median %.1f %%, worst %.1f %%", rate_err->len,
                  100 * rate.median, 100 * rate.worst);
  g_string_append_printf (doc, "\nRates held within p99 TTFT/TPOT limits (MLPerf Server, simulated Poisson "
                          "arrivals, bisected): %u rows, median %.1f %%, worst %.1f %%.\n",
                          rate_err->len, 100 * rate.median, 100 * rate.worst);
  g_string_append_printf (doc, "\nDense rows held out: %u, median %.1f %%, worst %.1f %%; AMD rows: median %.1f %%, "
                          "worst %.1f %%. The Mixtral MLPerf rows are listed but not fitted nor bounded: "
                          "the grouped expert GEMMs are not modelled yet.\n\n",
                          all_err->len, 100 * all.median, 100 * all.worst, 100 * amd.median, 100 * amd.worst);

  /* docs/accuracy.md between the serving markers: regenerated with
   * QM_UPDATE_DOCS=1, else it must match. */
  path = g_build_filename (g_getenv ("QM_SOURCE_DIR") ? g_getenv ("QM_SOURCE_DIR") : "..",
                           "docs/accuracy.md", NULL);
  g_assert_true (g_file_get_contents (path, &old, NULL, NULL));
  {
    const char *b = strstr (old, begin), *e = strstr (old, end);

    g_assert_nonnull (b);
    g_assert_nonnull (e);
    fresh = g_strdup_printf ("%.*s%s%s%s", (int) (b - old), old, begin, doc->str, e);
  }
  if (g_strcmp0 (g_getenv ("QM_UPDATE_DOCS"), "1") == 0)
    g_assert_true (g_file_set_contents (path, fresh, -1, NULL));
  else if (g_strcmp0 (old, fresh) != 0)
    {
      g_test_message ("docs/accuracy.md is out of date: run test-inference with QM_UPDATE_DOCS=1");
      g_test_fail ();
    }

  /* Honest bounds the model meets today (dense rows, held out). */
  g_assert_cmpfloat (all.median, <=, BOUND_MEDIAN);
  g_assert_cmpfloat (all.worst, <=, BOUND_WORST);
  g_assert_cmpfloat (amd.median, <=, BOUND_AMD_MEDIAN);
  /* Rates: median 9.9 %, worst 17 % (AMD's 8x MI300X Server run). */
  g_assert_cmpuint (rate_err->len, >=, 4);
  g_assert_cmpfloat (rate.median, <=, 0.10);
  g_assert_cmpfloat (rate.worst, <=, 0.20);
}


/* Issue 31 items 1, 2, 5: each mechanism changes the answer where its
 * source says it should. */
static void
engine_for_test (QmServingEngine *e,
                 const char      *model,
                 const char      *gpu,
                 guint            tp,
                 const char      *engine,
                 gboolean         server)
{
  QmServingConfig c = { 0, };

  c.shape = &qm_catalog_model (model)->shape;
  c.gpu = qm_catalog_gpu (gpu);
  c.tp = tp;
  c.pp = 1;
  c.weight_precision = QM_PRECISION_FP8;
  c.kv_precision = QM_PRECISION_FP8;
  c.engine = engine ? qm_engine_lookup (engine) : NULL;
  c.server = server;
  qm_serving_engine_init (e, &c);
}

static void
test_engines (void)
{
  QmServingEngine trt, vllm, e;
  QmServingLoad load = { 0, };
  QmServingResult rt, rv;
  double free;
  guint n;

  /* The catalog: three engines, each with version, source and date. */
  (void) qm_engines (&n);
  g_assert_cmpuint (n, >=, 3);
  for (guint i = 0; i < n; i++)
    {
      const QmEngineSpec *s = &qm_engines (NULL)[i];

      g_assert_nonnull (s->version);
      g_assert_nonnull (s->info.source);
      g_assert_nonnull (s->info.as_of);
    }
  /* auto: TensorRT-LLM on NVIDIA, vLLM on AMD and the others. */
  g_assert_cmpstr (qm_engine_resolve ("auto", qm_catalog_gpu ("h100-sxm-80gb"))->info.id, ==, "tensorrt-llm");
  g_assert_cmpstr (qm_engine_resolve (NULL, qm_catalog_gpu ("mi300x"))->info.id, ==, "vllm");
  g_assert_cmpstr (qm_engine_resolve ("auto", qm_catalog_gpu ("gaudi3"))->info.id, ==, "vllm");
  g_assert_cmpstr (qm_engine_resolve ("sglang", qm_catalog_gpu ("h100-sxm-80gb"))->info.id, ==, "sglang");

  /* Scheduler defaults (vllm/engine/arg_utils.py get_batch_defaults):
   * >= 70 GiB and not A100: 16384 tokens offline, 8192 as a server, 1024
   * sequences; A100 80GB and L40S: 8192 / 2048 and 256. TensorRT-LLM:
   * 8192 tokens and 2048 sequences everywhere. */
  engine_for_test (&e, "llama-3.1-8b", "h100-sxm-80gb", 1, "vllm", FALSE);
  g_assert_cmpuint (e.token_budget, ==, 16384);
  g_assert_cmpuint (e.max_sequences, ==, 1024);
  g_assert_cmpuint (e.block_tokens, ==, 16);
  engine_for_test (&e, "llama-3.1-8b", "h100-sxm-80gb", 1, "vllm", TRUE);
  g_assert_cmpuint (e.token_budget, ==, 8192);
  engine_for_test (&e, "llama-3.1-8b", "a100-sxm-80gb", 1, "vllm", TRUE);
  g_assert_cmpuint (e.token_budget, ==, 2048);
  g_assert_cmpuint (e.max_sequences, ==, 256);
  engine_for_test (&e, "llama-3.1-8b", "l40s", 1, "vllm", FALSE);
  g_assert_cmpuint (e.token_budget, ==, 8192);
  engine_for_test (&trt, "llama-3.1-8b", "h100-sxm-80gb", 1, "tensorrt-llm", TRUE);
  g_assert_cmpuint (trt.token_budget, ==, 8192);
  g_assert_cmpuint (trt.max_sequences, ==, 2048);
  g_assert_cmpuint (trt.block_tokens, ==, 32);

  /* KV memory: TensorRT-LLM 0.9 of the memory left free, vLLM 0.9 of
   * the whole device less what the model and activations take. 70B fp8
   * on one H100: TensorRT-LLM has a KV pool, vLLM's defaults leave none
   * (0.9 x 85.5 GB < 70 GB of weights + 16,384 tokens of activations). */
  engine_for_test (&trt, "llama-3.1-70b", "h100-sxm-80gb", 1, "tensorrt-llm", FALSE);
  engine_for_test (&vllm, "llama-3.1-70b", "h100-sxm-80gb", 1, "vllm", FALSE);
  g_assert_cmpuint (trt.kv_blocks, >, 0);
  g_assert_cmpuint (vllm.kv_blocks, ==, 0);
  engine_for_test (&trt, "llama-3.1-70b", "h100-sxm-80gb", 2, "tensorrt-llm", FALSE);
  engine_for_test (&vllm, "llama-3.1-70b", "h100-sxm-80gb", 2, "vllm", FALSE);
  free = trt.capacity_bytes - trt.weights_bytes - trt.workspace_bytes - trt.reserve_bytes;
  g_assert_cmpfloat_with_epsilon (trt.kv_bytes, 0.9 * free, 1.0);
  free = vllm.capacity_bytes - vllm.weights_bytes - vllm.workspace_bytes - vllm.reserve_bytes;
  g_assert_cmpfloat_with_epsilon (vllm.kv_bytes, free - 0.1 * vllm.capacity_bytes, 1.0);

  /* Admission: long answers on a tight pool. TensorRT-LLM reserves each
   * request's whole sequence, so fewer run at once; vLLM admits by the
   * prompt's blocks, runs more, and preempts when decode runs out. */
  engine_for_test (&trt, "llama-3.1-8b", "h100-sxm-80gb", 1, "tensorrt-llm", FALSE);
  engine_for_test (&vllm, "llama-3.1-8b", "h100-sxm-80gb", 1, "vllm", FALSE);
  load.arrival = QM_ARRIVAL_OFFLINE;
  load.requests = 600;
  load.input_tokens = 128;
  load.output_tokens = 4096;
  load.seed = 3;
  g_assert_true (qm_serving_simulate (&trt, &load, &rt));
  g_assert_true (qm_serving_simulate (&vllm, &load, &rv));
  g_test_message ("8B fp8 on one H100, 128/4096: TensorRT-LLM mean batch %.0f, %u preemptions; vLLM "
                  "mean batch %.0f, %u preemptions", rt.mean_batch, rt.preemptions, rv.mean_batch,
                  rv.preemptions);
  g_assert_cmpuint (rt.preemptions, ==, 0);
  g_assert_cmpuint (rv.preemptions, >, 0);
  g_assert_cmpuint (rv.completed, ==, load.requests);
  g_assert_cmpfloat (rv.mean_batch, >, 1.2 * rt.mean_batch);

  /* All-reduce: MI300X's xGMI is a mesh of 48 GB/s links, one to each
   * peer; TP 2 uses one link, TP 8 seven. NVLink goes through NVSwitch
   * at the same bus bandwidth for any group. */
  engine_for_test (&e, "llama-3.1-70b", "mi300x", 2, NULL, FALSE);
  g_assert_cmpfloat_with_epsilon (e.ar_bw, 48e9, 1.0);
  engine_for_test (&trt, "llama-3.1-70b", "h100-sxm-80gb", 2, NULL, FALSE);
  g_assert_cmpfloat (e.ar_bw, <, trt.ar_bw / 5.0);
  engine_for_test (&e, "llama-3.1-405b", "mi300x", 8, NULL, FALSE);
  engine_for_test (&trt, "llama-3.1-405b", "h100-sxm-80gb", 8, NULL, FALSE);
  g_assert_cmpfloat_with_epsilon (e.ar_bw, 7 * 48e9, 1.0);
  g_assert_cmpfloat (e.ar_bw, <, trt.ar_bw);
  {
    /* One prefill chunk of 8192 tokens: the TP 8 all-reduces cost more
     * on MI300X than on H100. */
    QmServingEngine a = e, b = trt;
    QmServingStep st = { 0, };
    double ta, tb;

    st.prefill = 8192;
    st.prefill_pairs = 8192.0 * 8193.0 / 2.0;
    a.overhead = b.overhead = 0.0;
    a.seq_overhead = b.seq_overhead = 0.0;
    ta = qm_serving_step_s (&a, &st);
    a.ar_bw = 1e30;
    a.ar_latency = 0.0;
    tb = qm_serving_step_s (&b, &st);
    b.ar_bw = 1e30;
    b.ar_latency = 0.0;
    g_assert_cmpfloat (ta - qm_serving_step_s (&a, &st), >, tb - qm_serving_step_s (&b, &st));
  }

  /* GB200 is B200's silicon: the same serving constants. */
  g_assert_cmpfloat (qm_catalog_gpu ("gb200")->hbm_stream_fraction, ==,
                     qm_catalog_gpu ("b200-sxm-180gb")->hbm_stream_fraction);
  g_assert_cmpfloat (qm_catalog_gpu ("gb200")->mamf_fraction_fp8, ==,
                     qm_catalog_gpu ("b200-sxm-180gb")->mamf_fraction_fp8);
  /* A GPU without measured constants says so (derived flags). */
  engine_for_test (&e, "llama-3.1-8b", "gaudi3", 1, NULL, FALSE);
  g_assert_cmpuint (e.derived & QM_SERVING_DERIVED_HBM, !=, 0);
  engine_for_test (&e, "llama-3.1-8b", "h100-sxm-80gb", 1, NULL, FALSE);
  g_assert_cmpuint (e.derived, ==, 0);

  /* MoE grouped GEMMs: each expert's GEMM has B k / E rows of the batch
   * (Mixtral: 2 of 8 experts, a quarter of the tokens), and the shape loss
   * d / (d + 128) applies to those rows, not to the batch. With only the
   * expert term left, 256 tokens run each expert on 64 rows: 64 / 192 of
   * the best-shape rate, where 256 rows would give 256 / 384. */
  {
    QmServingConfig c = { 0, };
    QmServingStep st = { 0, };
    QmServingEngine m;
    double t = 256, rows, touched, want;

    c.shape = &qm_catalog_model ("mixtral-8x7b")->shape;
    c.gpu = qm_catalog_gpu ("h100-sxm-80gb");
    c.tp = 1;
    c.pp = 1;
    c.weight_precision = QM_PRECISION_FP8;
    c.kv_precision = QM_PRECISION_FP8;
    qm_serving_engine_init (&m, &c);
    m.gemm_flops_tok = m.dense_bytes = m.elem_bytes_tok = m.kv_bytes_tok = m.attn_flops_pair = 0.0;
    m.lm_flops_tok = m.lm_bytes = m.overhead = m.seq_overhead = 0.0;
    m.expert_bytes = 0.0;
    st.prefill = t;
    touched = 8.0 * (1.0 - pow (1.0 - 2.0 / 8.0, t));
    rows = t * 2.0 / touched;
    g_assert_cmpfloat_with_epsilon (rows, 64.0, 1e-6);
    want = t * m.expert_flops_tok / (m.gemm_rate * rows / (rows + 128.0));
    g_assert_cmpfloat_with_epsilon (qm_serving_step_s (&m, &st), want, want * 1e-9);
    g_assert_cmpfloat (qm_serving_step_s (&m, &st), >,
                       1.9 * t * m.expert_flops_tok / (m.gemm_rate * t / (t + 128.0)));
  }

  /* The per-sequence host time: vLLM's step at a large batch costs more
   * than the same step under TensorRT-LLM. */
  {
    QmServingStep st = { 0, };

    engine_for_test (&trt, "llama-3.1-8b", "h100-sxm-80gb", 1, "tensorrt-llm", FALSE);
    engine_for_test (&vllm, "llama-3.1-8b", "h100-sxm-80gb", 1, "vllm", FALSE);
    st.decode = st.sampled = 1000;
    st.decode_context = 1000 * 1000;
    g_assert_cmpfloat_with_epsilon (qm_serving_step_s (&vllm, &st) - qm_serving_step_s (&trt, &st),
                                    1000 * 29.1e-6, 1e-9);
  }
}

static void
engine_8b (QmServingEngine *e)
{
  QmServingConfig c = { 0, };

  c.shape = &qm_catalog_model ("llama-3.1-8b")->shape;
  c.gpu = qm_catalog_gpu ("h100-sxm-80gb");
  c.tp = 1;
  c.pp = 1;
  c.weight_precision = QM_PRECISION_FP8;
  c.kv_precision = QM_PRECISION_FP8;
  qm_serving_engine_init (e, &c);
}

static void
assert_ordered (const QmServingResult *r)
{
  g_assert_cmpfloat (r->ttft_p50_s, >, 0);
  g_assert_cmpfloat (r->ttft_p90_s, >=, r->ttft_p50_s);
  g_assert_cmpfloat (r->ttft_p99_s, >=, r->ttft_p90_s);
  g_assert_cmpfloat (r->tpot_p90_s, >=, r->tpot_p50_s);
  g_assert_cmpfloat (r->tpot_p99_s, >=, r->tpot_p90_s);
  g_assert_cmpfloat (r->queue_p99_s, >=, r->queue_p50_s);
}

/* Issue 18 properties: throughput rises with concurrency until memory
 * binds; TTFT rises with the request rate; p99 >= p50; seeded runs are
 * repeatable. */
static void
test_properties (void)
{
  QmServingEngine e;
  QmServingLoad load = { 0, };
  QmServingResult r, r2;
  guint mem_batch;
  double prev = 0.0, at_memory = 0.0, capacity_rps;

  engine_8b (&e);
  load.input_tokens = 2048;
  load.output_tokens = 2048;
  load.requests = 2000;
  load.seed = 7;
  load.arrival = QM_ARRIVAL_OFFLINE;
  mem_batch = qm_serving_max_batch (&e, 4096);
  g_assert_cmpuint (mem_batch, >, 16);
  g_assert_cmpuint (mem_batch, <, e.max_sequences);
  for (guint cap = 1; cap <= 4 * mem_batch; cap *= 2)
    {
      load.max_sequences = MIN (cap, mem_batch * 4);
      g_assert_true (qm_serving_simulate (&e, &load, &r));
      assert_ordered (&r);
      g_test_message ("offline, at most %u sequences: %.0f tokens/s, mean batch %.0f",
                      cap, r.tokens_per_s, r.mean_batch);
      if (cap <= mem_batch)
        g_assert_cmpfloat (r.tokens_per_s, >, prev);
      else
        {
          /* Memory binds: more allowed sequences change nothing. */
          g_assert_cmpfloat (r.mean_batch, <=, mem_batch + 1e-9);
          g_assert_cmpfloat (fabs (r.tokens_per_s / at_memory - 1.0), <, 0.02);
        }
      prev = r.tokens_per_s;
      if (cap * 2 > mem_batch && at_memory == 0.0)
        {
          load.max_sequences = mem_batch;
          g_assert_true (qm_serving_simulate (&e, &load, &r));
          at_memory = r.tokens_per_s;
        }
    }

  /* TTFT rises with the request rate (Poisson, shorter requests). */
  load.input_tokens = 1000;
  load.output_tokens = 500;
  load.max_sequences = 0;
  load.requests = 3000;
  g_assert_true (qm_serving_simulate (&e, &load, &r));
  capacity_rps = r.requests_per_s;
  prev = 0.0;
  load.arrival = QM_ARRIVAL_POISSON;
  for (guint i = 0; i < 5; i++)
    {
      const double load_fraction[] = { 0.1, 0.3, 0.6, 0.8, 0.95 };

      load.requests_per_s = load_fraction[i] * capacity_rps;
      g_assert_true (qm_serving_simulate (&e, &load, &r));
      assert_ordered (&r);
      g_test_message ("Poisson at %.0f%% of capacity: TTFT p50 %.0f ms p99 %.0f ms, "
                      "TPOT p50 %.1f ms p99 %.1f ms", 100 * load_fraction[i], 1e3 * r.ttft_p50_s,
                      1e3 * r.ttft_p99_s, 1e3 * r.tpot_p50_s, 1e3 * r.tpot_p99_s);
      g_assert_cmpfloat (r.ttft_p99_s, >, prev);
      g_assert_false (r.unstable);
      prev = r.ttft_p99_s;
    }
  /* Beyond capacity the queue grows without bound. */
  load.requests_per_s = 1.5 * capacity_rps;
  g_assert_true (qm_serving_simulate (&e, &load, &r));
  g_assert_true (r.unstable);

  /* Seeded: the same run twice is the same; another seed is not. */
  load.requests_per_s = 0.8 * capacity_rps;
  load.input_sd = 300;
  load.output_sd = 200;
  g_assert_true (qm_serving_simulate (&e, &load, &r));
  g_assert_true (qm_serving_simulate (&e, &load, &r2));
  g_assert_cmpfloat (r.ttft_p99_s, ==, r2.ttft_p99_s);
  g_assert_cmpfloat (r.tokens_per_s, ==, r2.tokens_per_s);
  load.seed = 8;
  g_assert_true (qm_serving_simulate (&e, &load, &r2));
  g_assert_cmpfloat (r.ttft_p99_s, !=, r2.ttft_p99_s);
  assert_ordered (&r2);
}

static const QmNote *
first_input_error (const QmEstimate *e)
{
  for (guint i = 0; i < e->n_warnings; i++)
    if (e->warnings[i].id == QM_NOTE_INPUT_ERROR)
      return &e->warnings[i];
  g_assert_not_reached ();
}

/* Plan keys (issue 18 item 4) through the estimate: offline with a given
 * concurrency is the replica's max throughput per GPU; a lengths CSV. */
static void
test_plan_keys (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("qm-serving-XXXXXX", &error);
  g_autofree char *csv = g_build_filename (dir, "lengths.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.csv", NULL);
  g_autofree char *text = NULL, *again = NULL;
  QmPlan plan, plan2;
  QmEstimate *est = g_new0 (QmEstimate, 1);
  const char *fmt =
    "{ \"format\": \"quartermaster-plan\", \"version\": 1,"
    "  \"workload\": { \"mode\": \"inference\", \"model\": { \"preset\": \"llama-3.1-8b\" }, \"tp\": 1,"
    "    \"inference\": { \"requests_per_minute\": 600, \"input_tokens\": 1000, \"output_tokens\": 500,"
    "      \"concurrency\": 64, \"weight_precision\": \"fp8\", \"kv_precision\": \"fp8\","
    "      \"arrival\": \"offline\", \"input_tokens_sd\": 100, \"output_tokens_sd\": 50,"
    "      \"max_sequences\": 512, \"lengths_csv\": \"%s\" } },"
    "  \"target\": { \"gpus\": 8 },"
    "  \"hardware\": { \"gpu\": \"h100-sxm-80gb\", \"server\": \"dgx-h100\" } }";
  const QmInference *inf = &est->inference;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (csv, "input_tokens,output_tokens\n900,400\n1100,600\n", -1, &error));
  g_assert_true (g_file_set_contents (bad, "input,output\n900,400\n1100\n", -1, &error));
  text = g_strdup_printf (fmt, csv);
  qm_plan_init (&plan);
  g_assert_true (qm_plan_load_from_data (&plan, text, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (plan.workload.inference.arrival, ==, QM_ARRIVAL_OFFLINE);
  g_assert_cmpfloat (plan.workload.inference.input_tokens_sd, ==, 100);
  g_assert_cmpfloat (plan.workload.inference.output_tokens_sd, ==, 50);
  g_assert_cmpuint (plan.workload.inference.max_sequences, ==, 512);
  g_assert_cmpstr (plan.workload.inference.lengths_csv, ==, csv);
  /* The writer keeps them. */
  again = qm_plan_to_data (&plan, NULL);
  qm_plan_init (&plan2);
  g_assert_true (qm_plan_load_from_data (&plan2, again, -1, NULL, &error));
  g_assert_true (memcmp (&plan.workload.inference, &plan2.workload.inference,
                         sizeof plan.workload.inference) == 0);

  qm_estimate (&plan, est);
  g_assert_true (est->has_inference);
  g_assert_true (inf->fits);
  g_assert_cmpuint (inf->gpus_per_replica, ==, 1);
  g_assert_cmpuint (inf->concurrency, ==, 64);
  g_assert_cmpfloat (inf->tokens_per_s_per_gpu, ==, inf->replica_tokens_per_s / inf->gpus_per_replica);
  g_assert_cmpfloat (inf->ttft_p99_ms, >=, inf->ttft_p50_ms);
  g_assert_cmpfloat (inf->tpot_p99_ms, >=, inf->tpot_p50_ms);
  g_assert_cmpfloat (inf->requests_per_s, >, 0);
  g_assert_null (qm_issues_find (&inf->issues, "workload.inference.lengths_csv"));

  /* The chart data: the curve through the plan's point, rising with
   * concurrency; latency rising with the rate. */
  {
    QmInferenceInput in = { 0, };
    QmServingResult lo, hi;

    in.shape = &plan.workload.model;
    in.params = qm_model_params (in.shape);
    in.gpu = &plan.hardware.gpu;
    in.input_tokens = 1000;
    in.output_tokens = 500;
    in.weight_precision = QM_PRECISION_FP8;
    in.kv_precision = QM_PRECISION_FP8;
    in.arrival = QM_ARRIVAL_OFFLINE;
    g_assert_cmpfloat (qm_inference_throughput_at_concurrency (&in, inf, 16), <,
                       qm_inference_throughput_at_concurrency (&in, inf, 64));
    in.arrival = QM_ARRIVAL_POISSON;
    g_assert_true (qm_inference_latency_at_rate (&in, inf, 60, &lo));
    g_assert_true (qm_inference_latency_at_rate (&in, inf, 6000, &hi));
    g_assert_cmpfloat (hi.ttft_p99_s, >, lo.ttft_p99_s);
    g_assert_cmpfloat (hi.tpot_p50_s, >, lo.tpot_p50_s);
  }

  /* A bad CSV line is an error naming the key and the line. */
  g_strlcpy (plan.workload.inference.lengths_csv, bad, sizeof plan.workload.inference.lengths_csv);
  qm_estimate (&plan, est);
  g_assert_nonnull (qm_issues_find (&inf->issues, "workload.inference.lengths_csv"));
  g_assert_cmpfloat (qm_issues_find (&inf->issues, "workload.inference.lengths_csv")->value, ==, 3);
  {
    g_autofree char *said = qm_issue_to_string (qm_issues_find (&inf->issues, "workload.inference.lengths_csv"));
    char note[512];

    g_assert_cmpstr (said, ==, "workload.inference.lengths_csv: line 3 does not hold two whole token counts, input,output");
    qm_note_format (first_input_error (est), note, sizeof note);
    g_assert_cmpstr (note, ==, "error: workload.inference.lengths_csv: line 3 does not hold two whole token counts, input,output");
  }

  /* A file that cannot be read is an error with no value to show, which
   * says why: no such file, a folder, or (for a user the permissions
   * bind: not root) no permission. */
  g_strlcat (plan.workload.inference.lengths_csv, ".missing", sizeof plan.workload.inference.lengths_csv);
  qm_estimate (&plan, est);
  {
    g_autofree char *said = qm_issue_to_string (qm_issues_find (&inf->issues, "workload.inference.lengths_csv"));
    char note[512];

    g_assert_cmpstr (said, ==, "workload.inference.lengths_csv: there is no such file");
    qm_note_format (first_input_error (est), note, sizeof note);
    g_assert_cmpstr (note, ==, "error: workload.inference.lengths_csv: there is no such file");
  }
  g_strlcpy (plan.workload.inference.lengths_csv, dir, sizeof plan.workload.inference.lengths_csv);
  qm_estimate (&plan, est);
  {
    g_autofree char *said = qm_issue_to_string (qm_issues_find (&inf->issues, "workload.inference.lengths_csv"));

    g_assert_cmpstr (said, ==, "workload.inference.lengths_csv: names a folder, not a file");
  }
  if (geteuid () != 0)
    {
      g_autofree char *said = NULL;

      g_assert_cmpint (g_chmod (csv, 0), ==, 0);
      g_strlcpy (plan.workload.inference.lengths_csv, csv, sizeof plan.workload.inference.lengths_csv);
      qm_estimate (&plan, est);
      said = qm_issue_to_string (qm_issues_find (&inf->issues, "workload.inference.lengths_csv"));
      g_assert_cmpstr (said, ==, "workload.inference.lengths_csv: the file may not be read: check its permissions");
    }

  g_unlink (csv);
  g_unlink (bad);
  g_rmdir (dir);
  g_free (est);
}

/* MoE reads only the experts a step's tokens touch: E (1 - (1 - k/E)^t)
 * of them per layer for uniform top-k routing; Mixtral 8x7B (top-2 of 8)
 * reads 2 experts at batch 1 and nearly all 8 at batch 64. MLA caches
 * the latent (DeepSeek-V3: 576 values per layer, not 2 x 128 x 128). */
static void
test_moe_mla (void)
{
  const QmModelPreset *mixtral = qm_catalog_model ("mixtral-8x7b");
  const QmModelPreset *dsv3 = qm_catalog_model ("deepseek-v3");
  QmServingConfig c = { 0, };
  QmServingEngine e;
  QmServingStep one = { 1, 100, 0, 0, 1 };
  QmServingStep many = { 64, 6400, 0, 0, 64 };
  double all_weights, two_experts;

  g_assert_nonnull (mixtral);
  g_assert_nonnull (dsv3);
  c.shape = &mixtral->shape;
  c.gpu = qm_catalog_gpu ("h100-sxm-80gb");
  c.tp = 2;
  c.pp = 1;
  c.weight_precision = QM_PRECISION_BF16;
  c.kv_precision = QM_PRECISION_BF16;
  qm_serving_engine_init (&e, &c);
  g_assert_cmpfloat (e.experts, ==, 8);
  g_assert_cmpfloat (e.top_k, ==, 2);
  all_weights = e.dense_bytes + 8 * e.expert_bytes * e.moe_layers;
  two_experts = e.dense_bytes + 2 * e.expert_bytes * e.moe_layers;
  /* Batch 1 reads about the 13B active, not the 47B total. */
  g_assert_cmpfloat (qm_serving_step_s (&e, &one), >, two_experts / e.hbm);
  g_assert_cmpfloat (qm_serving_step_s (&e, &one), <, 0.5 * all_weights / e.hbm);
  /* 64 tokens touch 8 (1 - (3/4)^64) = 8.0 experts: all the weights. */
  g_assert_cmpfloat (qm_serving_step_s (&e, &many), >, all_weights / e.hbm);

  c.shape = &dsv3->shape;
  c.tp = 8;
  c.weight_precision = QM_PRECISION_FP8;
  c.kv_precision = QM_PRECISION_BF16;
  qm_serving_engine_init (&e, &c);
  /* The latent is replicated on every TP rank: (512 + 64) x 2 B x 61. */
  g_assert_cmpfloat (e.kv_bytes_per_token_gpu, ==, 576.0 * 2 * 61);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/inference/kv-cache", test_kv_cache);
  g_test_add_func ("/inference/seed-rule", test_seed_rule);
  g_test_add_func ("/inference/decode-roofline", test_decode_roofline);
  g_test_add_func ("/inference/memory", test_memory);
  g_test_add_func ("/inference/moe-mla", test_moe_mla);
  g_test_add_func ("/inference/fit-and-targets", test_fit_and_targets);
  g_test_add_func ("/inference/bad-input", test_bad_input);
  g_test_add_func ("/inference/random", test_random);
  g_test_add_func ("/inference/published", test_published);
  g_test_add_func ("/inference/published-other", test_published_other);
  g_test_add_func ("/inference/leave-one-source-out", test_leave_one_source_out);
  g_test_add_func ("/inference/engines", test_engines);
  g_test_add_func ("/inference/properties", test_properties);
  g_test_add_func ("/inference/plan-keys", test_plan_keys);
  return g_test_run ();
}
