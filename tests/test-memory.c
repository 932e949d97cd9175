/* test-memory.c: per-GPU memory against the ZeRO paper, DeepSpeed's
 * estimators, Korthikanti's activation table and the scaling-book KV cache.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-compute.h"
#include "qm-memory.h"
#include "qm-parallel.h"
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

/* Megatron-LM --recompute-method block --recompute-num-layers k
 * (arguments.py): k layers of each stage keep their input only (Korthikanti
 * Table 2, "full recompute" 2sbh), the others everything (the table's
 * TP-only row). On the paper's GPT-3 175B example (s 2048, h 12288, a 96,
 * t 8, 96 layers on 8 stages of 12), 1F1B on stage 0 holds L = 96 layers'
 * worth; with k = 6 of 12 half of them are checkpointed. */
static void
test_partial_recompute (void)
{
  QmModelShape gpt = { .layers = 96, .hidden = 12288, .heads = 96, .ffn_hidden = 4 * 12288,
                       .vocab = 51200 };
  double s = 2048, h = 12288, a = 96, t = 8, sbh = s * h;
  double none = qm_memory_korthikanti_layer (s, 1, h, a, t, FALSE, QM_RECOMPUTE_NONE);
  double ckpt = qm_memory_korthikanti_layer (s, 1, h, a, t, FALSE, QM_RECOMPUTE_FULL);
  double outside = s * h / t * 8;
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown all, half, zero;

  g_assert_cmpfloat (qm_memory_recompute_fraction (6, 12), ==, 0.5);
  g_assert_cmpfloat (qm_memory_recompute_fraction (0, 12), ==, 1.0);
  g_assert_cmpfloat (qm_memory_recompute_fraction (40, 12), ==, 1.0);

  c.tp = 8;
  c.pp = 8;
  c.n_microbatches = 64;
  c.recompute = QM_RECOMPUTE_FULL;
  qm_memory_estimate (&gpt, &c, &all);
  c.recompute_layers = 6;
  qm_memory_estimate (&gpt, &c, &half);
  c.recompute_layers = 12;
  qm_memory_estimate (&gpt, &c, &zero);

  /* Every layer recomputed: 96 · 2sbh, plus the layer being recomputed. */
  qm_assert_rel (all.activations, 96 * 2 * sbh + none + outside, 1e-12);
  qm_assert_rel (zero.activations, all.activations, 1e-12);
  /* Half: 48 layers at 2sbh and 48 at sbh(10 + 24/t + 5as/(ht)). */
  qm_assert_rel (half.activations, 48 * ckpt + 48 * none + none + outside, 1e-12);
  g_test_message ("GPT-3 175B stage 0: full recompute %.1f GB, 6 of 12 layers %.1f GB, none %.1f GB",
                  all.activations / 1e9, half.activations / 1e9, (96 * none + outside) / 1e9);

  /* The step model charges the recompute forward of those layers only. */
  {
    QmParallelProblem pb;
    QmParallelLayout l;
    QmParallelTime t_all, t_half;

    memset (&pb, 0, sizeof pb);
    pb.shape = gpt;
    pb.mode = QM_MODE_PRETRAIN;
    pb.precision = QM_PRECISION_BF16;
    pb.optimizer = QM_OPTIMIZER_ADAMW;
    pb.seq_len = 2048;
    pb.global_batch = 1536;
    pb.gpu = *qm_catalog_gpu ("a100-sxm-80gb");
    pb.server = *qm_catalog_server ("dgx-a100");
    pb.network = *qm_catalog_network ("ib-hdr-200");
    pb.gpus = 1024;
    pb.recompute = QM_RECOMPUTE_FULL;
    memset (&l, 0, sizeof l);
    l.tp = 8;
    l.pp = 8;
    l.dp = 16;
    l.cp = 1;
    l.ep = 1;
    l.micro_batch = 1;
    l.n_micro = 96;
    l.virtual_stages = 1;
    l.recompute = QM_RECOMPUTE_FULL;
    g_assert_true (qm_parallel_step_time (&pb, &l, &t_all));
    pb.recompute_layers = 6;
    g_assert_true (qm_parallel_step_time (&pb, &l, &t_half));
    g_assert_cmpfloat (t_all.recompute, >, 0);
    qm_assert_rel (t_half.recompute, 0.5 * t_all.recompute, 1e-9);
    g_assert_cmpfloat (qm_parallel_recompute_fraction (&pb, &l), ==, 0.5);
  }
}

/* torchtitan's per-operator selective checkpointing (the 2024-12 benchmark
 * commit's _custom_policy: keep every mm output but every second one, and
 * the attention output): on Llama 3.1 8B (h 4096, 8 KV heads of 128, SwiGLU
 * 14336) a layer keeps its input, Q, V, the attention output, w1's and
 * w2's outputs and the log-sum-exp, and the backward redoes wk, wo and
 * w3: 2·(h·kv + h·h + h·f) FLOPs per token per layer more. */
static void
test_selective_op (void)
{
  const QmModelShape *l8 = &qm_catalog_model ("llama-3.1-8b")->shape;
  double s = 8192, h = 4096, kv = 1024, f = 14336;
  double op = qm_memory_layer_activations (l8, s, 1, 1, FALSE, QM_RECOMPUTE_SELECTIVE_OP, TRUE);
  double none = qm_memory_layer_activations (l8, s, 1, 1, FALSE, QM_RECOMPUTE_NONE, TRUE);
  QmTrainingFlops t_none, t_op;

  g_assert_cmpuint (l8->hidden, ==, 4096);
  g_assert_cmpfloat (qm_model_kv_heads (l8) * qm_model_head_dim (l8), ==, kv);
  g_assert_cmpuint (l8->ffn_hidden, ==, 14336);
  qm_assert_rel (op, s * (2 * (h + h + kv + h + f + h) + 4 * 32), 1e-12);
  g_assert_cmpfloat (op, <, 0.45 * none);
  g_test_message ("Llama 3.1 8B at s 8192: %.0f B/token per layer per operator, %.0f without "
                  "recompute", op / s, none / s);

  qm_compute_training_flops (l8, 1e9, 8192, QM_RECOMPUTE_NONE, &t_none);
  qm_compute_training_flops (l8, 1e9, 8192, QM_RECOMPUTE_SELECTIVE_OP, &t_op);
  qm_assert_rel (t_op.hardware_flops - t_none.hardware_flops,
                 2 * (h * kv + h * h + h * f) * 32 * 1e9, 1e-12);
  g_assert_cmpfloat (t_op.model_flops, ==, t_none.model_flops);
}

/* LoRA's frozen base (Hu et al. 2021): the backward keeps the inputs of
 * the adapted linears and what carries the gradient through the frozen
 * ones. On Llama 2 70B at s = 8192 (the MLPerf llama2_70b_lora shape),
 * adapters on the attention projections drop two tensors of Korthikanti's
 * list per layer: the MLP input (2sbh) and the down projection's input
 * (2sbf); on every linear nothing. No optimizer or gradient bytes for the
 * frozen weights; fp8-stored weights are 1 byte. */
static void
test_lora_frozen_base (void)
{
  const QmModelShape *l70 = &qm_catalog_model ("llama-2-70b")->shape;
  double s = 8192, h = l70->hidden, f = l70->ffn_hidden;
  double full = qm_memory_layer_activations (l70, s, 1, 1, FALSE, QM_RECOMPUTE_NONE, TRUE);
  double attn = qm_memory_lora_layer_activations (l70, s, 1, 1, FALSE, QM_RECOMPUTE_NONE, TRUE,
                                                  QM_LORA_TARGETS_ATTENTION);
  double all = qm_memory_lora_layer_activations (l70, s, 1, 1, FALSE, QM_RECOMPUTE_NONE, TRUE,
                                                 QM_LORA_TARGETS_ALL);
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown m;
  double psi = qm_model_params (l70);
  double adapters = qm_memory_lora_params_for (l70, 16, QM_LORA_TARGETS_ATTENTION);

  g_assert_cmpfloat (all, ==, full);
  qm_assert_rel (full - attn, 2 * s * h + 2 * s * f, 1e-12);
  /* SwiGLU: the gate|up output (4sf) stays, the SiLU backward needs it. */
  g_assert_cmpfloat (attn, >, 4 * s * f);
  /* r(in + out) on QKV and output: 80 × 16 × ((h + h) + 2(h + kv) + (h + h)). */
  qm_assert_rel (adapters, 80 * 16.0 * (4 * h + 2 * (h + 8 * 128.0) + 0), 1e-12);
  g_test_message ("Llama 2 70B layer at s 8192: full training %.2f GB, LoRA on attention %.2f GB",
                  full / 1e9, attn / 1e9);

  c.mode = QM_MODE_LORA;
  c.precision = QM_PRECISION_FP8;
  c.lora_rank = 16;
  c.lora_targets = QM_LORA_TARGETS_ATTENTION;
  c.seq_len = 8192;
  c.fp8_weights = TRUE;
  qm_memory_estimate (l70, &c, &m);
  qm_assert_rel (m.weights, psi * 1.0 + adapters * 2.0, 1e-12);
  g_assert_cmpfloat (m.gradients, ==, 2 * adapters);
  g_assert_cmpfloat (m.optimizer, ==, 12 * adapters);
  c.fp8_weights = FALSE;
  qm_memory_estimate (l70, &c, &m);
  qm_assert_rel (m.weights, psi * 2.0 + adapters * 2.0, 1e-12);
}

/* LoRA against a measurement: Megatron-SWIFT's Qwen2.5-7B example on 2 GPUs
 * (modelscope/ms-swift examples/megatron/lora/dense.sh: TP 2 with SP,
 * micro-batch 16, full recompute of every layer, LoRA rank 8 on all
 * linears) reads "full: 2 * 70GiB", "lora: 2 * 14GiB". The same batch runs
 * both ways, and all-linear LoRA keeps the same activations, so the
 * difference is the frozen base's gradients and optimizer states. Swift
 * leaves accumulate_allreduce_grads_in_fp32 off (bf16 gradients, 14 bytes
 * per base parameter more than LoRA's 2), but Megatron's mixed-precision
 * optimizer (Float16OptimizerWithFloat16Params) gives its fp32 masters
 * fp32 copies of those gradients at the step (4 more: 18). The model must
 * bracket the measurement between the two accountings. The totals
 * themselves depend on the padded length of the alpaca batches, which the
 * example does not state. */
static void
test_lora_measured (void)
{
  const QmModelShape *q7 = &qm_catalog_model ("qwen2.5-7b")->shape;
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown full, lora;
  double gib = 1024.0 * 1024 * 1024, diff14, diff18;
  QmParamCount pc;

  c.mode = QM_MODE_FINETUNE;
  c.tp = 2;
  c.sequence_parallel = TRUE;
  c.micro_batch = 16;
  c.seq_len = 1024;
  c.recompute = QM_RECOMPUTE_FULL;
  c.zero_stage = 1;
  c.flash_attention = TRUE;
  qm_memory_estimate (q7, &c, &full);
  c.mode = QM_MODE_LORA;
  c.lora_rank = 8;
  qm_memory_estimate (q7, &c, &lora);
  g_assert_cmpfloat (full.activations, ==, lora.activations);
  diff14 = (full.total - lora.total) / gib;
  /* The step's fp32 gradient copies on top: 4 bytes per parameter of a
   * TP rank (the fragmentation allowance on them too). */
  qm_model_count_params (q7, &pc);
  diff18 = diff14 + 4.0 * pc.total / 2 * (1 + QM_MEMORY_FRAGMENTATION) / gib;
  g_test_message ("Qwen2.5-7B on 2 GPUs: full - LoRA %.1f to %.1f GiB predicted, 70 - 14 = 56 GiB measured",
                  diff14, diff18);
  g_assert_cmpfloat (diff14, <=, 56.0);
  g_assert_cmpfloat (diff18, >=, 56.0);
}

/* FSDP / ZeRO-3 holds one layer's full parameters and the prefetched next
 * one, and the unsharded gradients of two, not the model: DeepSpeed's
 * stage3.py estimator keeps 4·LL (16-bit weights + gradients of the
 * largest layer) for prefetch 0; FSDP's default prefetch of one layer adds
 * a layer of weights and a layer of gradients in flight. HSDP divides the
 * states by the shard group, not by dp. */
static void
test_fsdp_gather_and_hsdp (void)
{
  const QmModelShape *l8 = &qm_catalog_model ("llama-3.1-8b")->shape;
  QmParamCount pc;
  double block, g;
  QmMemoryConfig c = training_config ();
  QmMemoryBreakdown full, hsdp;

  qm_model_count_params (l8, &pc);
  block = (pc.total - pc.embedding) / l8->layers;
  g = qm_memory_zero3_gathered (l8, &pc, 1, 1, 1, 2, 2);
  /* (1 + 1) layers of weights + 2 of gradients, the root unit (embedding
   * and untied head) gathered and the head's gradient held. */
  qm_assert_rel (g, 2 * (2 * block + pc.embedding) + 2 * (2 * block + pc.embedding / 2), 1e-12);
  /* Far less than the model. */
  g_assert_cmpfloat (g, <, 0.5 * 2 * pc.total);

  c.zero_stage = 3;
  c.dp = 128;
  c.seq_len = 8192;
  qm_memory_estimate (l8, &c, &full);
  c.shard_group = 8;
  qm_memory_estimate (l8, &c, &hsdp);
  qm_assert_rel (full.weights + full.gradients + full.optimizer, 16 * pc.total / 128, 1e-9);
  qm_assert_rel (hsdp.weights + hsdp.gradients + hsdp.optimizer, 16 * pc.total / 8, 1e-9);
}

/* The fit verdict as a test: every run of tests/data/training-memory-runs.tsv
 * ran, so each must fit at its published layout on its GPU's real capacity
 * (qm_parallel_memory, the check the estimate and the search use). Where
 * the source publishes its peak the prediction is printed beside it and
 * bounded. torchtitan's Memory(GiB) is the allocator's max reserved: the
 * peak allocated plus the blocks the caching allocator keeps, and at long
 * sequences the unfused PyTorch cross-entropy's fp32 copies of the logits
 * (the upcast, the log-softmax output and its gradient, ~12·s·V bytes at
 * the start of the backward, where Megatron's fused vocab-parallel loss
 * keeps Korthikanti's 4·s·V), which the model does not count. So the
 * prediction may fall well below the reading (down to half of it on the
 * 70B and full-recompute rows), but must never exceed it by more than the
 * spread of the source's own readings for one layout (eager 82.4 vs
 * compiled 77.0 GiB, 7%): 10%. */
static void
test_runs_that_ran_fit (void)
{
  g_autofree char *path = qm_test_source_path ("tests/data/training-memory-runs.tsv");
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) head = NULL;
  guint n = 0, n_measured = 0, n_fail = 0;
  double worst_over = 0, worst_under = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = NULL;
      QmParallelProblem pb;
      QmParallelLayout l;
      QmMemoryBreakdown m;
      const QmModelPreset *model;
      const QmGpuSpec *gpu;
      double measured, predicted_gib;
      guint k = 0;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      if (!head)
        {
          head = g_steal_pointer (&f);
          g_assert_cmpstr (head[0], ==, "id");
          g_assert_cmpuint (g_strv_length (head), ==, 24);
          continue;
        }
      g_assert_cmpuint (g_strv_length (f), ==, 24);
#define NEXT_U() ((guint) strtoul (f[k++], NULL, 10))
      k = 1;
      model = qm_catalog_model (f[k++]);
      gpu = qm_catalog_gpu (f[k++]);
      g_assert_nonnull (model);
      g_assert_nonnull (gpu);
      memset (&pb, 0, sizeof pb);
      memset (&l, 0, sizeof l);
      pb.shape = model->shape;
      pb.gpu = *gpu;
      {
        double cap = g_ascii_strtod (f[k++], NULL);

        /* The run's own part (torchtitan's Grand Teton H100 has 96 GB). */
        if (cap > 0)
          {
            pb.gpu.memory_gb = cap;
            pb.gpu.memory_mib = 0;
          }
      }
      pb.gpus = NEXT_U ();
      l.tp = NEXT_U ();
      l.pp = NEXT_U ();
      l.cp = NEXT_U ();
      l.virtual_stages = NEXT_U ();
      l.micro_batch = NEXT_U ();
      pb.global_batch = NEXT_U ();
      pb.seq_len = NEXT_U ();
      g_assert_true (qm_precision_from_string (f[k++], &pb.precision));
      g_assert_true (qm_recompute_from_string (f[k++], &pb.recompute));
      pb.recompute_layers = NEXT_U ();
      l.zero_stage = NEXT_U ();
      l.shard_group = NEXT_U ();
      pb.sequence_parallel = NEXT_U () != 0;
      g_assert_true (qm_mode_from_string (f[k++], &pb.mode));
      pb.lora_rank = NEXT_U ();
      g_assert_true (qm_lora_targets_from_string (f[k++], &pb.lora_targets));
      pb.fp8_weights = NEXT_U () != 0;
      measured = g_ascii_strtod (f[k++], NULL);
      g_assert_cmpstr (f[k], !=, "");   /* provenance */
#undef NEXT_U
      pb.optimizer = QM_OPTIMIZER_ADAMW;
      pb.flash_attention = TRUE;
      l.ep = 1;
      l.dp = pb.gpus / (l.tp * l.pp * l.cp);
      l.n_micro = pb.global_batch / (l.micro_batch * l.dp);
      l.recompute = pb.recompute;
      l.sequence_parallel = pb.sequence_parallel && l.tp > 1;
      g_assert_cmpuint (l.dp * l.tp * l.pp * l.cp, ==, pb.gpus);
      g_assert_cmpuint (l.n_micro * l.micro_batch * l.dp, ==, pb.global_batch);

      qm_parallel_memory (&pb, &l, &m);
      predicted_gib = m.total / (1024.0 * 1024 * 1024);
      n++;
      if (measured > 0)
        {
          double err = predicted_gib / measured - 1;

          n_measured++;
          worst_over = MAX (worst_over, err);
          worst_under = MIN (worst_under, err);
          g_assert_cmpfloat (err, <=, 0.10);
          g_assert_cmpfloat (err, >=, -0.50);
          g_test_message ("%-26s %s: %.1f GiB predicted (states %.1f, activations %.1f, other %.1f), "
                          "%.1f GiB measured (%+.0f%%), capacity %.1f GiB",
                          f[0], m.fits ? "fits" : "DOES NOT FIT", predicted_gib,
                          (m.weights + m.gradients + m.optimizer) / (1024.0 * 1024 * 1024),
                          m.activations / (1024.0 * 1024 * 1024), m.overhead / (1024.0 * 1024 * 1024),
                          measured, 100 * err, m.capacity / (1024.0 * 1024 * 1024));
        }
      else
        g_test_message ("%-26s %s: %.1f GiB predicted (weights %.1f, activations %.1f), capacity %.1f GiB",
                        f[0], m.fits ? "fits" : "DOES NOT FIT", predicted_gib,
                        m.weights / (1024.0 * 1024 * 1024), m.activations / (1024.0 * 1024 * 1024),
                        m.capacity / (1024.0 * 1024 * 1024));
      if (!m.fits)
        n_fail++;
    }
  g_test_message ("%u runs, %u do not fit; %u with a published peak: worst %+.0f%% / %+.0f%%",
                  n, n_fail, n_measured, 100 * worst_over, 100 * worst_under);
  g_assert_cmpuint (n, >=, 20);
  g_assert_cmpuint (n_fail, ==, 0);
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
  g_test_add_func ("/memory/partial-recompute", test_partial_recompute);
  g_test_add_func ("/memory/selective-op", test_selective_op);
  g_test_add_func ("/memory/lora-frozen-base", test_lora_frozen_base);
  g_test_add_func ("/memory/lora-measured", test_lora_measured);
  g_test_add_func ("/memory/fsdp-gather-hsdp", test_fsdp_gather_and_hsdp);
  g_test_add_func ("/memory/runs-that-ran-fit", test_runs_that_ran_fit);
  return g_test_run ();
}
