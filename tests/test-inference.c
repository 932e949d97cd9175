/* test-inference.c: KV cache, roofline throughput and GPU count against the
 * scaling book and the industry rule of thumb.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-inference.h"

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

/* Scaling book (inference.md): LLaMA-2-13B at 8192 tokens is
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
  for (guint i = 0; i < 2000; i++)
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

/* Decode is bandwidth-bound at small batch: step >= weight bytes / BW. */
static void
test_decode_roofline (void)
{
  QmModelShape s = shape (32, 4096, 32, 32);
  QmGpuSpec g = h100 ();
  QmInferenceInput in = llama_7b_input (&s, &g);
  QmInference r;
  double weights_step = 6.74e9 * 2 / 3.35e12;

  in.gpus_per_replica = 1;
  in.concurrency = 1;
  in.input_tokens = 1;
  in.output_tokens = 1;
  qm_inference_compute (&in, &r);
  g_assert_false (r.decode_compute_bound);
  g_assert_cmpfloat (r.step_s, >=, weights_step);
  g_assert_cmpfloat_with_epsilon (r.tpot_ms, weights_step * 1000, 0.01);

  /* The MLP turns compute-bound above B ~ peak FLOPs / HBM BW = 989/3.35
   * = 295 for bf16 on H100 (estimation-anchors.md §3). */
  in.concurrency = 290;
  qm_inference_compute (&in, &r);
  g_assert_false (r.decode_compute_bound);
  in.concurrency = 300;
  qm_inference_compute (&in, &r);
  g_assert_true (r.decode_compute_bound);

  /* Two GPUs halve the step. */
  in.concurrency = 1;
  in.gpus_per_replica = 2;
  qm_inference_compute (&in, &r);
  g_assert_cmpfloat_with_epsilon (r.tpot_ms, weights_step * 1000 / 2, 0.01);
}

static void
test_fit_and_targets (void)
{
  QmModelShape s70 = shape (80, 8192, 64, 8);
  QmModelShape s405 = shape (126, 16384, 128, 8);
  QmGpuSpec g = h100 ();
  QmInferenceInput in = llama_7b_input (&s70, &g);
  QmInference r;

  /* 70B in bf16 = 141 GB: two H100s. */
  in.params = 70.6e9;
  qm_inference_compute (&in, &r);
  g_assert_true (r.fits);
  g_assert_cmpuint (r.gpus_per_replica, ==, 2);
  g_assert_cmpfloat (r.memory_per_gpu_bytes, <=, 80e9);

  /* A 100 ms TTFT for 2,000 prompt tokens: prefill on 2 GPUs takes
   * 2 x 70.6e9 x 2000 / (2 x 989e12) = 143 ms; on 4 GPUs 71 ms. */
  in.input_tokens = 2000;
  in.ttft_ms = 100;
  qm_inference_compute (&in, &r);
  g_assert_cmpuint (r.gpus_per_replica, ==, 4);
  g_assert_true (r.meets_ttft);
  g_assert_cmpfloat (r.ttft_ms, <=, 100);

  /* A TPOT target caps the derived concurrency. */
  in.ttft_ms = 0;
  in.tpot_ms = 30;
  qm_inference_compute (&in, &r);
  g_assert_true (r.meets_tpot);
  g_assert_cmpfloat (r.tpot_ms, <=, 30);
  g_assert_cmpuint (r.concurrency, >, 1);
  {
    QmInference r2;
    in.concurrency = r.concurrency + 1;
    in.gpus_per_replica = r.gpus_per_replica;
    qm_inference_compute (&in, &r2);
    g_assert_true (r2.tpot_ms > 30 || !r2.fits);
    in.concurrency = 0;
    in.gpus_per_replica = 0;
  }

  /* 405B in bf16 = 810 GB: more than one 8 x 80 GB node, so 16 GPUs. */
  in = llama_7b_input (&s405, &g);
  in.params = 405e9;
  in.gpus_per_node = 8;
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

  for (guint i = 0; i < 3000; i++)
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
          g_assert_cmpfloat (r.memory_per_gpu_bytes, <=, 80e9 * (1 + 1e-9));
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/inference/kv-cache", test_kv_cache);
  g_test_add_func ("/inference/seed-rule", test_seed_rule);
  g_test_add_func ("/inference/decode-roofline", test_decode_roofline);
  g_test_add_func ("/inference/fit-and-targets", test_fit_and_targets);
  g_test_add_func ("/inference/bad-input", test_bad_input);
  g_test_add_func ("/inference/random", test_random);
  return g_test_run ();
}
