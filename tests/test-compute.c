/* test-compute.c: training FLOPs and time against published figures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-compute.h"
#include "qm-test-util.h"

/* GPT-3 175B: Brown et al. 2020 Table 2.1 shape (tied, learned positions). */
static const QmModelShape gpt3 = {
  .layers = 96, .hidden = 12288, .heads = 96, .head_dim = 128, .ffn_hidden = 49152,
  .vocab = 50257, .tied_embeddings = TRUE, .learned_positions = 2048, .linear_bias = TRUE,
};

/* GPT-3 Table D.1: 3.14e23 training FLOPs for 175B on 300B tokens, on the
 * 6·N·D basis. The attention term adds about 3% on top (PaLM App. B). */
static void
test_gpt3_flops (void)
{
  QmTrainingFlops f;

  qm_compute_training_flops (&gpt3, 300e9, 2048, QM_RECOMPUTE_NONE, &f);
  qm_assert_rel (f.flops_6nd, 3.14e23, 0.02);
  g_assert_cmpfloat (f.model_flops / f.flops_6nd, >, 1.02);
  g_assert_cmpfloat (f.model_flops / f.flops_6nd, <, 1.04);
  g_assert_cmpfloat (f.hardware_flops, ==, f.model_flops);
}

/* Korthikanti 2022 eq. 7 (model) and eq. 8 (selective recompute), and
 * Narayanan 2021 eq. 3 (full recompute), for a GPT block without biases,
 * norms or positions, per iteration of B sequences of s tokens. */
static void
test_korthikanti_narayanan_equations (void)
{
  QmModelShape g = { .layers = 48, .hidden = 6144, .heads = 64, .ffn_hidden = 4 * 6144,
                     .vocab = 51200, .tied_embeddings = TRUE };
  double B = 4, s = 2048, L = 48, h = 6144, V = 51200;
  double eq7 = 72 * B * L * s * h * h * (1 + s / (6 * h) + V / (12 * h * L));
  double eq8 = 72 * B * L * s * h * h * (1 + s / (3 * h) + V / (12 * h * L));
  double eq3 = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
  QmTrainingFlops f;
  /* Our count has RMSNorm scales (2h per layer + h) that the equations
   * leave out; they are 3e-5 of the total. */
  double tol = 1e-4;

  qm_compute_training_flops (&g, B * s, 2048, QM_RECOMPUTE_NONE, &f);
  qm_assert_rel (f.model_flops, eq7, tol);
  qm_compute_training_flops (&g, B * s, 2048, QM_RECOMPUTE_SELECTIVE, &f);
  qm_assert_rel (f.hardware_flops, eq8, tol);
  qm_assert_rel (f.model_flops, eq7, tol);
  qm_compute_training_flops (&g, B * s, 2048, QM_RECOMPUTE_FULL, &f);
  qm_assert_rel (f.hardware_flops, eq3, tol);
}

/* LLaMA §2.4: 380 tokens/s/GPU on 2048 A100-80GB; 1.4T tokens; Table 15:
 * 1,022,362 GPU-hours for 65B. */
static void
test_llama65b_gpu_hours (void)
{
  QmModelShape l65 = { .layers = 80, .hidden = 8192, .heads = 64, .ffn_hidden = 22016,
                       .vocab = 32000, .gated_mlp = TRUE };
  double peak = 312e12, tokens = 1.4e12;
  QmTrainingFlops f;
  double mfu, seconds;

  qm_compute_training_flops (&l65, tokens, 2048, QM_RECOMPUTE_NONE, &f);
  /* MFU from the reported throughput, on our model-FLOPs basis. */
  mfu = 380.0 * (f.model_flops / tokens) / peak;
  seconds = qm_compute_seconds (f.model_flops, 2048, peak, mfu);
  qm_assert_rel (2048 * seconds / 3600, 1022362, 0.05);

  /* published-runs.tsv derives mfu* = 0.477 on the 6ND basis; applied to
   * the 6ND FLOPs that also lands within 5%. */
  seconds = qm_compute_seconds (f.flops_6nd, 2048, peak, 0.477);
  qm_assert_rel (2048 * seconds / 3600, 1022362, 0.05);
}

/* Pythia (Biderman 2023 App. D Table 5): GPU-hours on A100-40GB given the
 * MFU published-runs.tsv derives on the 6ND basis (total params,
 * 299.89B tokens). Shapes from the Pythia configs. */
static void
test_pythia_gpu_hours (void)
{
  static const struct { guint L, h, a, V, gpus; double mfu, gpu_hours; } rows[] = {
    { 6, 512, 8, 50304, 32, 0.221, 510 },
    { 12, 768, 12, 50304, 32, 0.252, 1030 },
    { 24, 1024, 16, 50304, 32, 0.256, 2540 },
    { 16, 2048, 8, 50304, 64, 0.336, 4830 },
    { 24, 2048, 16, 50304, 64, 0.318, 7120 },
    { 32, 2560, 32, 50304, 64, 0.312, 14240 },
    { 32, 4096, 32, 50432, 128, 0.328, 33500 },
    { 36, 5120, 40, 50688, 256, 0.262, 72300 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      QmModelShape s = { .layers = rows[i].L, .hidden = rows[i].h, .heads = rows[i].a,
                         .ffn_hidden = 4 * rows[i].h, .vocab = rows[i].V, .linear_bias = TRUE };
      QmTrainingFlops f;
      double seconds;

      qm_compute_training_flops (&s, 299.89e9, 2048, QM_RECOMPUTE_NONE, &f);
      seconds = qm_compute_seconds (f.flops_6nd, rows[i].gpus, 312e12, rows[i].mfu);
      qm_assert_rel (rows[i].gpus * seconds / 3600, rows[i].gpu_hours, 0.02);
    }
}

/* The seed rule: A100 312 TF at 40% MFU, GPUs ≈ T_B × epochs × P_B × 13.3 / H. */
static void
test_seed_rule (void)
{
  static const struct { double tokens_b, epochs, params_b, hours; } cases[] = {
    { 1000, 1, 7, 720 }, { 15000, 1, 70, 24 * 54 }, { 300, 2, 175, 24 * 30 },
    { 2, 3, 1.3, 10 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double flops = 6.0 * cases[i].params_b * 1e9 * cases[i].tokens_b * 1e9 * cases[i].epochs;
      double gpus = qm_compute_gpus_for_time (flops, cases[i].hours * 3600, 312e12, 0.40);
      double rule = qm_compute_seed_rule_gpus (cases[i].tokens_b, cases[i].epochs,
                                               cases[i].params_b, cases[i].hours);

      /* 13.3 rounds 13.35. */
      qm_assert_rel (rule, gpus, 0.005);
      qm_assert_rel (qm_compute_seconds (flops, gpus, 312e12, 0.40), cases[i].hours * 3600, 1e-12);
    }
}

static void
test_round_gpus (void)
{
  g_assert_cmpuint (qm_compute_round_gpus (129.8, 8, 1), ==, 136);
  g_assert_cmpuint (qm_compute_round_gpus (129.8, 8, 32), ==, 160);
  g_assert_cmpuint (qm_compute_round_gpus (0.3, 8, 1), ==, 8);
  g_assert_cmpuint (qm_compute_round_gpus (16, 8, 1), ==, 16);
  g_assert_cmpuint (qm_compute_round_gpus (17, 8, 12), ==, 24);
}

static void
test_default_mfu (void)
{
  /* The seed rule's A100 figure, and GPT-3 on V100 (PaLM Table 3). */
  g_assert_cmpfloat (qm_compute_default_mfu ("a100"), ==, 0.40);
  g_assert_cmpfloat (qm_compute_default_mfu ("v100"), ==, 0.21);
  g_assert_cmpfloat (qm_compute_default_mfu (NULL), >, 0);
  g_assert_cmpfloat (qm_compute_seconds (1e20, 0, 312e12, 0.4), ==, 0);
}

/* LoRA: a frozen base needs no weight gradients, so 4·N·D plus the
 * attention forward and its backward, which needs the gradients of both
 * activation operands as in full training (Hu et al. 2021): LoRA saves
 * exactly the weight-gradient GEMMs, 2·N·D. */
static void
test_lora_basis (void)
{
  QmModelShape g = { .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 32, .ffn_hidden = 11008,
                     .vocab = 32000, .gated_mlp = TRUE };
  QmTrainingFlops full, lora;
  QmParamCount c;
  double tokens = 1e9, attn;

  qm_model_count_params (&g, &c);
  attn = qm_model_attention_forward_flops_per_token (&g, 4096);
  qm_compute_training_flops_for_mode (&g, QM_MODE_PRETRAIN, tokens, 4096, QM_RECOMPUTE_NONE, &full);
  qm_compute_training_flops_for_mode (&g, QM_MODE_LORA, tokens, 4096, QM_RECOMPUTE_NONE, &lora);
  g_assert_cmpfloat_with_epsilon (lora.model_flops, (4.0 * c.active + 3.0 * attn) * tokens, lora.model_flops * 1e-12);
  g_assert_cmpfloat_with_epsilon (full.model_flops - lora.model_flops, 2.0 * c.active * tokens,
                                  full.model_flops * 1e-12);
  g_assert_cmpfloat (lora.flops_6nd, ==, full.flops_6nd);
  /* Two thirds of full training for the GEMMs, more as the attention
   * share (which LoRA does not shrink) grows: (4N + 3A)/(6N + 3A). */
  g_assert_cmpfloat (lora.model_flops / full.model_flops, >, 2.0 / 3.0);
  g_assert_cmpfloat (lora.model_flops / full.model_flops, <, 0.75);
  qm_compute_training_flops_for_mode (&g, QM_MODE_QLORA, tokens, 4096, QM_RECOMPUTE_FULL, &lora);
  g_assert_cmpfloat (lora.hardware_flops, >, lora.model_flops);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/compute/gpt3-flops", test_gpt3_flops);
  g_test_add_func ("/compute/korthikanti-narayanan", test_korthikanti_narayanan_equations);
  g_test_add_func ("/compute/llama65b-gpu-hours", test_llama65b_gpu_hours);
  g_test_add_func ("/compute/pythia-gpu-hours", test_pythia_gpu_hours);
  g_test_add_func ("/compute/seed-rule", test_seed_rule);
  g_test_add_func ("/compute/round-gpus", test_round_gpus);
  g_test_add_func ("/compute/default-mfu", test_default_mfu);
  g_test_add_func ("/compute/lora-basis", test_lora_basis);
  return g_test_run ();
}
