/* test-memory.c: per-GPU memory against the ZeRO paper, DeepSpeed's
 * estimators, Korthikanti's activation table and the scaling-book KV cache.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-memory.h"
#include "qm-test-util.h"

static QmMemoryConfig
training_config (void)
{
  QmMemoryConfig c = {
    .mode = QM_MODE_PRETRAIN, .precision = QM_PRECISION_BF16, .optimizer = QM_OPTIMIZER_ADAMW,
    .tp = 1, .pp = 1, .dp = 1, .cp = 1, .ep = 1, .micro_batch = 1, .seq_len = 2048,
    .recompute = QM_RECOMPUTE_NONE, .capacity_bytes = 80e9,
  };
  return c;
}

/* ZeRO paper Fig. 1: 7.5B params, Nd = 64, mixed-precision Adam (K = 12):
 * 120 GB, 31.4 GB, 16.6 GB and 1.9 GB for DP, P_os, P_os+g, P_os+g+p. */
static void
test_zero_paper_table (void)
{
  static const double gb[] = { 120, 31.4, 16.6, 1.9 };
  QmModelShape psi_only = { .params_hint = 7.5e9 };

  for (guint stage = 0; stage <= 3; stage++)
    {
      QmMemoryConfig c = training_config ();
      QmMemoryBreakdown m;

      qm_assert_rel (qm_memory_zero_model_states (7.5e9, 12, stage, 64) / 1e9, gb[stage], 0.02);

      /* The same through the full estimate: model states only. */
      c.dp = 64;
      c.zero_stage = stage;
      qm_memory_estimate (&psi_only, &c, &m);
      qm_assert_rel ((m.weights + m.gradients + m.optimizer) / 1e9, gb[stage], 0.02);
    }
}

/* DeepSpeed stage_1_and_2.py: gpu = 2P + 18P/N without offload, where 18
 * = 2 grads16 + 4 grads32 + 4 params32 + 8 optim. Our fp32 gradient buffer
 * is Megatron's main_grad, into which the backward accumulates directly
 * (no 16-bit gradient beside it): DeepSpeed's accounting less its 2P/N of
 * 16-bit gradient partitions. */
static void
test_deepspeed_zero2 (void)
{
  QmModelShape psi_only = { .params_hint = 7e9 };
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown m;

  g_assert_cmpfloat (qm_memory_deepspeed_zero2 (7e9, 16, FALSE), ==, 2 * 7e9 + 18 * 7e9 / 16);
  g_assert_cmpfloat (qm_memory_deepspeed_zero2 (7e9, 16, TRUE), ==, 2 * 7e9);

  c.dp = 16;
  c.zero_stage = 2;
  c.fp32_grad_buffer = TRUE;
  qm_memory_estimate (&psi_only, &c, &m);
  qm_assert_rel (m.weights + m.gradients + m.optimizer, 2 * 7e9 + (18 - 2) * 7e9 / 16, 1e-12);
}

/* DeepSpeed stage3.py worked output (t5-small: 60,506,624 params, largest
 * layer the 32128 x 512 shared embedding, 1 GPU, no offload): 1.08 GB
 * (GiB) per GPU; with optimizer offload 0.17, with both 0.06. */
static void
test_deepspeed_zero3_t5_small (void)
{
  double P = 60506624, LL = 32128.0 * 512;
  double gib = 1024.0 * 1024 * 1024;

  g_assert_cmpfloat (fabs (qm_memory_deepspeed_zero3 (P, LL, 1, FALSE, FALSE) / gib - 1.08), <, 0.005);
  g_assert_cmpfloat (fabs (qm_memory_deepspeed_zero3 (P, LL, 1, TRUE, FALSE) / gib - 0.17), <, 0.005);
  g_assert_cmpfloat (fabs (qm_memory_deepspeed_zero3 (P, LL, 1, TRUE, TRUE) / gib - 0.06), <, 0.005);
}

/* Korthikanti 2022 Table 2, exactly, on the paper's GPT-3 example
 * (s = 2048, b = 1, h = 12288, a = 96, t = 8). */
static void
test_korthikanti_table (void)
{
  double s = 2048, b = 1, h = 12288, a = 96, t = 8, sbh = s * b * h;
  QmModelShape gpt = { .layers = 96, .hidden = 12288, .heads = 96, .ffn_hidden = 4 * 12288,
                       .vocab = 51200 };
  struct { gboolean sp; QmRecompute rc; double t; double expected; } rows[] = {
    { FALSE, QM_RECOMPUTE_NONE, 1, sbh * (34 + 5 * a * s / h) },
    { FALSE, QM_RECOMPUTE_NONE, t, sbh * (10 + 24 / t + 5 * a * s / (h * t)) },
    { TRUE, QM_RECOMPUTE_NONE, t, sbh * (34 / t + 5 * a * s / (h * t)) },
    { FALSE, QM_RECOMPUTE_SELECTIVE, t, sbh * (10 + 24 / t) },
    { TRUE, QM_RECOMPUTE_SELECTIVE, t, sbh * 34 / t },
    { FALSE, QM_RECOMPUTE_FULL, t, 2 * sbh },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_assert_cmpfloat (qm_memory_korthikanti_layer (s, b, h, a, rows[i].t, rows[i].sp, rows[i].rc),
                         ==, rows[i].expected);
      /* The re-derived general form equals the table for a GPT block. */
      qm_assert_rel (qm_memory_layer_activations (&gpt, s, b, rows[i].t, rows[i].sp, rows[i].rc, FALSE),
                     rows[i].expected, 1e-12);
    }

  /* Full recompute with SP keeps each layer's input as its sequence shard,
   * 2sbh/t (the table's 2sbh is without SP). */
  qm_assert_rel (qm_memory_layer_activations (&gpt, s, b, t, TRUE, QM_RECOMPUTE_FULL, FALSE),
                 2 * sbh / t, 1e-12);

  /* The paper's worked figures: TP-only 23·sbh (0.58 GB/layer) and
   * TP+SP+selective 4.25·sbh (0.107 GB/layer). */
  g_assert_cmpfloat (qm_memory_korthikanti_layer (s, b, h, a, t, FALSE, QM_RECOMPUTE_NONE), ==, 23 * sbh);
  g_assert_cmpfloat (qm_memory_korthikanti_layer (s, b, h, a, t, TRUE, QM_RECOMPUTE_SELECTIVE), ==, 4.25 * sbh);
}

/* Korthikanti §4.2.3: with 1F1B the first stage holds L layers' worth of
 * activations whatever pp is. */
static void
test_first_stage_rule (void)
{
  QmModelShape gpt = { .layers = 96, .hidden = 12288, .heads = 96, .ffn_hidden = 4 * 12288,
                       .vocab = 51200 };
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown m1, m8;
  double s = 2048, h = 12288, per_layer;

  c.tp = 8;
  c.sequence_parallel = TRUE;
  c.recompute = QM_RECOMPUTE_SELECTIVE;
  per_layer = qm_memory_korthikanti_layer (s, 1, h, 96, 8, TRUE, QM_RECOMPUTE_SELECTIVE);

  c.pp = 8;
  qm_memory_estimate (&gpt, &c, &m8);
  /* L layers' worth, plus (sbhL/t)·(p/L) outside the layers. */
  qm_assert_rel (m8.activations, per_layer * 96 + s * h / 8 * 8, 1e-12);

  c.pp = 1;
  qm_memory_estimate (&gpt, &c, &m1);
  /* pp = 1 adds δ·(4/L)(1 + v/h)·sbhL/t instead (logits in fp32). */
  qm_assert_rel (m1.activations, per_layer * 96 + s * h / 8 * (1 + 4 * (1 + 51200 / h)), 1e-12);
}

/* jax-ml/scaling-book inference.md: LLaMA-2-13B at 8192 tokens needs
 * 8192 × 40 × 128 × 40 × 2 B × 2 = 6.7 GB of KV cache per sequence. */
static void
test_kv_cache (void)
{
  QmModelShape l13 = { .layers = 40, .hidden = 5120, .heads = 40, .ffn_hidden = 13824,
                       .vocab = 32000, .gated_mlp = TRUE };
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown m;

  g_assert_cmpfloat (qm_memory_kv_cache_per_sequence (&l13, 8192, 2), ==, 6710886400.0);

  c.mode = QM_MODE_INFERENCE;
  c.weight_precision = QM_PRECISION_BF16;
  c.kv_precision = QM_PRECISION_BF16;
  c.batch = 4;
  c.context = 8192;
  qm_memory_estimate (&l13, &c, &m);
  g_assert_cmpfloat (m.kv_cache, ==, 4 * 6710886400.0);
  g_assert_cmpfloat (m.weights, ==, 2 * qm_model_params (&l13));
  /* "Four such sequences exceed the weights." */
  g_assert_cmpfloat (m.kv_cache, >, m.weights);
  g_assert_cmpfloat (m.gradients, ==, 0);
  g_assert_true (m.fits);   /* 26 GB weights + 27 GB KV on an 80 GB part */
}

/* LoRA freezes the base: no base gradients or optimizer states (Hu 2021);
 * QLoRA stores it in 4.127 bits per parameter (Dettmers 2023). */
static void
test_lora_qlora (void)
{
  QmModelShape l7 = { .layers = 32, .hidden = 4096, .heads = 32, .ffn_hidden = 11008,
                      .vocab = 32000, .gated_mlp = TRUE };
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown full, lora, qlora;
  double adapters = qm_memory_lora_params (&l7, 16);

  /* r·(in+out) on q,k,v,o and gate,up,down: 40M for Llama 7B at r = 16. */
  g_assert_cmpfloat (adapters, ==, 32 * 16.0 * (4 * (4096 + 4096) + 3 * (4096 + 11008)));

  qm_memory_estimate (&l7, &c, &full);
  c.mode = QM_MODE_LORA;
  c.lora_rank = 16;
  qm_memory_estimate (&l7, &c, &lora);
  c.mode = QM_MODE_QLORA;
  qm_memory_estimate (&l7, &c, &qlora);

  g_assert_cmpfloat (lora.gradients, ==, 2 * adapters);
  g_assert_cmpfloat (lora.optimizer, ==, 12 * adapters);
  g_assert_cmpfloat (lora.weights, ==, 2 * qm_model_params (&l7) + 2 * adapters);
  qm_assert_rel (qlora.weights - 2 * adapters, qm_model_params (&l7) * 4.127 / 8, 1e-12);
  g_assert_cmpfloat (lora.activations, ==, full.activations);
  g_assert_cmpfloat (qlora.total, <, lora.total);
  g_assert_cmpfloat (lora.total, <, full.total);
}

/* Optimizers and precisions, per trainable parameter, before sharding. */
static void
test_optimizers (void)
{
  static const struct { QmPrecision p; QmOptimizer o; double bytes; } cases[] = {
    { QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW, 16 },      /* ZeRO paper */
    { QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW_8BIT, 10 }, /* 2 + 2 + 4 + 1 + 1 */
    { QM_PRECISION_BF16, QM_OPTIMIZER_SGD, 12 },        /* 2 + 2 + 4 + 4 */
    { QM_PRECISION_BF16, QM_OPTIMIZER_ADAFACTOR, 8 },   /* 2 + 2 + 4 */
    { QM_PRECISION_FP32, QM_OPTIMIZER_ADAMW, 16 },      /* 4 + 4 + 8, no master */
    { QM_PRECISION_FP8, QM_OPTIMIZER_ADAMW, 16 },       /* TE keeps bf16 weights */
  };
  QmModelShape psi_only = { .params_hint = 1e9 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      QmMemoryConfig c = training_config ();
      QmMemoryBreakdown m;

      c.precision = cases[i].p;
      c.optimizer = cases[i].o;
      qm_memory_estimate (&psi_only, &c, &m);
      g_assert_cmpfloat ((m.weights + m.gradients + m.optimizer) / 1e9, ==, cases[i].bytes);
    }
}

static void
test_overhead_and_fit (void)
{
  QmModelShape psi_only = { .params_hint = 1e9 };
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown m;

  qm_memory_estimate (&psi_only, &c, &m);
  g_assert_cmpfloat (m.overhead, >=, QM_MEMORY_CUDA_CONTEXT_BYTES);
  g_assert_cmpfloat (m.total, ==, m.weights + m.gradients + m.optimizer + m.activations
                                  + m.kv_cache + m.overhead);
  g_assert_true (m.fits);
  g_assert_cmpfloat (m.margin, ==, 80e9 - m.total);

  c.capacity_bytes = 16e9;
  qm_memory_estimate (&psi_only, &c, &m);
  g_assert_false (m.fits);
  g_assert_cmpfloat (m.margin, <, 0);
}

/* Pipeline stages: Llama 3 put 126 layers on 16 stages with one layer fewer
 * on the first and the last (Dubey et al. 2024 §3.3.2); interleaving with v
 * chunks keeps L·(1 + (p−1)/(p·v)) layers in flight on stage 0
 * (Korthikanti 2022 §4.2.3), 1F1B L layers. */
static void
test_pipeline_stages (void)
{
  QmPipelineStages st;

  g_assert_true (qm_memory_pipeline_stages (126, 16, 1, &st));
  g_assert_cmpuint (st.full, ==, 8);
  g_assert_cmpuint (st.first, ==, 7);
  g_assert_cmpuint (st.last, ==, 7);
  g_assert_cmpuint (st.first + st.last + 14 * st.full, ==, 126);
  /* Any chunk count the layers allow: 126 on 16 × 4 chunks of 2. */
  g_assert_true (qm_memory_pipeline_stages (126, 16, 4, &st));
  g_assert_cmpuint (st.chunk, ==, 2);
  g_assert_cmpuint (st.first + st.last + 14 * st.full, ==, 126);
  /* Too few layers for the stages: refused. */
  g_assert_false (qm_memory_pipeline_stages (10, 8, 1, &st));
  g_assert_false (qm_memory_pipeline_stages (10, 1, 2, &st));

  /* Even stages: 1F1B holds L layers on stage 0, interleaving more. */
  g_assert_true (qm_memory_pipeline_stages (96, 8, 1, &st));
  qm_assert_rel (qm_memory_pipeline_layers_held (&st, 8, 1, 64), 96, 1e-12);
  g_assert_true (qm_memory_pipeline_stages (96, 8, 3, &st));
  qm_assert_rel (qm_memory_pipeline_layers_held (&st, 8, 3, 64), 96 * (1 + 7.0 / 24), 1e-12);
  /* Fewer micro-batches than stages: only those are in flight. */
  g_assert_true (qm_memory_pipeline_stages (96, 8, 1, &st));
  qm_assert_rel (qm_memory_pipeline_layers_held (&st, 8, 1, 2), 2 * 12, 1e-12);
  /* Uneven: the second stage (15 micro-batches of 8 layers) holds more
   * than the first (16 of 7). */
  g_assert_true (qm_memory_pipeline_stages (126, 16, 1, &st));
  qm_assert_rel (qm_memory_pipeline_layers_held (&st, 16, 1, 16), 15 * 8, 1e-12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/memory/zero-paper-table", test_zero_paper_table);
  g_test_add_func ("/memory/deepspeed-zero2", test_deepspeed_zero2);
  g_test_add_func ("/memory/deepspeed-zero3-t5-small", test_deepspeed_zero3_t5_small);
  g_test_add_func ("/memory/korthikanti-table", test_korthikanti_table);
  g_test_add_func ("/memory/first-stage-rule", test_first_stage_rule);
  g_test_add_func ("/memory/kv-cache", test_kv_cache);
  g_test_add_func ("/memory/lora-qlora", test_lora_qlora);
  g_test_add_func ("/memory/optimizers", test_optimizers);
  g_test_add_func ("/memory/overhead-and-fit", test_overhead_and_fit);
  g_test_add_func ("/memory/pipeline-stages", test_pipeline_stages);
  return g_test_run ();
}
