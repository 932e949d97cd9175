/* test-reliability.c: interruptions and goodput against the Llama 3 and
 * Kokolis et al. failure data, and Young's worked example.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-reliability.h"

#define DAY 86400.0

static void
test_presets (void)
{
  QmFailurePreset p;

  g_assert_true (qm_failure_preset_from_string ("llama3-production", &p));
  g_assert_cmpint (p, ==, QM_FAILURE_LLAMA3_PRODUCTION);
  g_assert_true (qm_failure_preset_from_string ("research-cluster", &p));
  g_assert_cmpint (p, ==, QM_FAILURE_RESEARCH_CLUSTER);
  g_assert_false (qm_failure_preset_from_string ("nope", &p));
  g_assert_cmpstr (qm_failure_preset_info (QM_FAILURE_RESEARCH_CLUSTER)->id, ==, "research-cluster");
  g_assert_nonnull (strstr (qm_failure_preset_info (QM_FAILURE_LLAMA3_PRODUCTION)->source,
                            "2407.21783"));
  /* ~5.1e4 GPU-hours per interruption (docs/estimation-anchors.md §4). */
  g_assert_cmpfloat_with_epsilon (qm_failure_preset_info (QM_FAILURE_LLAMA3_PRODUCTION)->gpu_hours_per_failure,
                                  5.07e4, 0.01e4);
}

/* Llama 3 (arXiv 2407.21783 §3.3.4): 419 unexpected interruptions in a
 * 54-day snapshot on 16,384 H100. */
static void
test_llama3_interruptions (void)
{
  QmReliabilityInput in = { 0, };
  QmReliability r;
  double n = qm_reliability_interruptions (QM_FAILURE_LLAMA3_PRODUCTION, 16384, 54 * DAY);

  g_assert_cmpfloat (fabs (n - 419) / 419, <, 0.10);
  /* One every ~3.1 h. */
  g_assert_cmpfloat_with_epsilon (54 * 24 / n, 3.09, 0.01);

  /* The full model: 405B params, bf16 + AdamW (14 B/param), 2 TB/s
   * sustained storage (Llama 3 §3.3.1, Tectonic), 10 min restart
   * (assumption). Choose the ideal time so that the wall clock is the
   * 54-day snapshot; failures are counted over the wall clock. */
  in.preset = QM_FAILURE_LLAMA3_PRODUCTION;
  in.gpus = 16384;
  in.checkpoint_bytes = qm_checkpoint_bytes (405e9, QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW);
  in.write_bytes_per_s = 2e12;
  in.restart_s = 600;
  in.ideal_s = 54 * DAY;
  qm_reliability_compute (&in, &r);
  in.ideal_s = 54 * DAY * r.goodput;
  qm_reliability_compute (&in, &r);

  g_assert_cmpuint (r.issues.n, ==, 0);
  g_assert_cmpfloat_with_epsilon (r.wall_s, 54 * DAY, 1e-6);
  g_assert_cmpfloat (fabs (r.interruptions - 419) / 419, <, 0.10);
  g_assert_cmpfloat_with_epsilon (r.checkpoint_bytes, 5.67e12, 1e9);
  g_assert_cmpfloat_with_epsilon (r.checkpoint_write_s, 2.835, 1e-9);
  /* Llama 3 reports >90% effective training time. */
  g_assert_cmpfloat (r.goodput, >, 0.90);
  g_assert_cmpfloat (r.goodput, <, 1.0);
  g_assert_cmpstr (r.preset, ==, "llama3-production");

  /* Counting over the ideal time instead would undercount. */
  g_assert_cmpfloat (qm_reliability_interruptions (QM_FAILURE_LLAMA3_PRODUCTION, 16384, in.ideal_s),
                     <, r.interruptions);
}

/* Kokolis et al. 2024 (arXiv 2410.21680): MTTF 7.9 h at 1,024 GPUs; 47.7
 * days measured at 8 GPUs (the linear per-GPU model gives 42.1 days). */
static void
test_research_cluster (void)
{
  QmReliabilityInput in = { .preset = QM_FAILURE_RESEARCH_CLUSTER, .gpus = 1024,
                            .ideal_s = DAY };
  QmReliability r;

  qm_reliability_compute (&in, &r);
  g_assert_cmpfloat_with_epsilon (r.mtbf_s / 3600, 7.9, 1e-9);

  in.gpus = 8;
  qm_reliability_compute (&in, &r);
  g_assert_cmpfloat (fabs (r.mtbf_s / DAY - 47.7) / 47.7, <, 0.15);

  /* About 6x worse per GPU than Llama 3 (docs/estimation-anchors.md §4). */
  g_assert_cmpfloat_with_epsilon (qm_failure_preset_info (QM_FAILURE_LLAMA3_PRODUCTION)->gpu_hours_per_failure
                                  / qm_failure_preset_info (QM_FAILURE_RESEARCH_CLUSTER)->gpu_hours_per_failure,
                                  6.3, 0.1);
}

/* Young 1974: C = 120 s, M = 3 h gives T ~ 27 min and ~15% waste
 * (docs/estimation-anchors.md §4). */
static void
test_young_daly (void)
{
  double c = 120, m = 3 * 3600;
  double young = qm_checkpoint_interval_young (c, m);
  double daly = qm_checkpoint_interval_daly (c, m);
  double x = c / (2 * m);
  QmReliabilityInput in = { .preset = QM_FAILURE_LLAMA3_PRODUCTION, .ideal_s = DAY,
                            .checkpoint_bytes = 120e9, .write_bytes_per_s = 1e9,
                            .rule = QM_CHECKPOINT_INTERVAL_YOUNG };
  QmReliability r;

  g_assert_cmpfloat_with_epsilon (young, sqrt (2 * 120 * 10800.0), 1e-9);
  g_assert_cmpfloat_with_epsilon (young / 60, 26.8, 0.1);
  /* Daly: sqrt(2CM) [1 + sqrt(x)/3 + x/9] - C. */
  g_assert_cmpfloat_with_epsilon (daly, young * (1 + sqrt (x) / 3 + x / 9) - c, 1e-9);
  /* Daly for C >= 2M is M. */
  g_assert_cmpfloat (qm_checkpoint_interval_daly (100, 40), ==, 40);
  g_assert_cmpfloat (qm_checkpoint_interval_young (0, 100), ==, 0);

  /* Pick the GPU count that makes the job MTBF 3 h. */
  in.gpus = (guint) round (qm_failure_preset_info (QM_FAILURE_LLAMA3_PRODUCTION)->gpu_hours_per_failure / 3);
  qm_reliability_compute (&in, &r);
  g_assert_cmpfloat_with_epsilon (r.mtbf_s, m, 1.0);
  g_assert_cmpfloat_with_epsilon (r.checkpoint_write_s, 120, 1e-9);
  g_assert_cmpfloat_with_epsilon (1 - r.goodput, 0.149, 0.002);
  /* At Young's optimum the two waste terms are equal. */
  g_assert_cmpfloat_with_epsilon (r.checkpoint_overhead, r.failure_overhead, 1e-3);
  g_assert_cmpfloat_with_epsilon (r.wall_s, DAY / r.goodput, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.interruptions, r.wall_s / r.mtbf_s, 1e-9);

  /* Young's T is the exact optimum of this first-order waste model. The
   * default is Daly's complete model (eq. 13) at its own optimum: that T
   * beats Young's and Daly's higher-order estimate on the complete model,
   * and with δ ≪ M the two models agree within a point of goodput. */
  in.rule = QM_CHECKPOINT_INTERVAL_DALY;
  {
    QmReliability rd;
    double te;

    qm_reliability_compute (&in, &rd);
    te = rd.checkpoint_interval_s;
    g_assert_cmpfloat (fabs (te - daly) / daly, <, 0.05);
    g_assert_cmpfloat (rd.goodput, >=, qm_reliability_daly_goodput (young, c, 0, m));
    g_assert_cmpfloat (rd.goodput, >=, qm_reliability_daly_goodput (daly, c, 0, m));
    g_assert_cmpfloat (rd.goodput, >, qm_reliability_daly_goodput (te * 1.2, c, 0, m));
    g_assert_cmpfloat (rd.goodput, >, qm_reliability_daly_goodput (te / 1.2, c, 0, m));
    g_assert_cmpfloat (fabs (rd.goodput - r.goodput), <, 0.01);
    g_assert_cmpfloat_with_epsilon (rd.checkpoint_overhead + rd.failure_overhead, 1 - rd.goodput, 1e-12);
  }

  /* A given interval is used as is. */
  in.rule = QM_CHECKPOINT_INTERVAL_GIVEN;
  in.interval_s = 3600;
  qm_reliability_compute (&in, &r);
  g_assert_cmpfloat (r.checkpoint_interval_s, ==, 3600);
}

static void
test_checkpoint_bytes (void)
{
  /* 14 B/param: bf16 weights 2 + fp32 master 4 + Adam m 4 + v 4. */
  g_assert_cmpfloat (qm_checkpoint_bytes_per_param (QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW), ==, 14);
  g_assert_cmpfloat (qm_checkpoint_bytes_per_param (QM_PRECISION_FP8, QM_OPTIMIZER_ADAMW), ==, 14);
  g_assert_cmpfloat (qm_checkpoint_bytes_per_param (QM_PRECISION_FP32, QM_OPTIMIZER_ADAMW), ==, 12);
  g_assert_cmpfloat (qm_checkpoint_bytes_per_param (QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW_8BIT), ==, 8);
  g_assert_cmpfloat (qm_checkpoint_bytes_per_param (QM_PRECISION_BF16, QM_OPTIMIZER_SGD), ==, 10);
  g_assert_cmpfloat (qm_checkpoint_bytes (70e9, QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW), ==, 980e9);
  g_assert_cmpfloat (qm_checkpoint_bytes (-1, QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW), ==, 0);
  g_assert_cmpfloat (qm_checkpoint_bytes (NAN, QM_PRECISION_BF16, QM_OPTIMIZER_ADAMW), ==, 0);
}

static void
assert_finite_reliability (const QmReliability *r)
{
  const double v[] = { r->mtbf_s, r->checkpoint_bytes, r->checkpoint_write_s,
                       r->checkpoint_interval_s, r->restart_s, r->goodput, r->wall_s,
                       r->interruptions, r->checkpoints };

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      g_assert_true (isfinite (v[i]));
      g_assert_cmpfloat (v[i], >=, 0.0);
    }
  g_assert_cmpfloat (r->goodput, >=, QM_RELIABILITY_MIN_GOODPUT);
  g_assert_cmpfloat (r->goodput, <=, 1.0);
}

static void
test_bad_input (void)
{
  QmReliabilityInput in = { .preset = QM_FAILURE_RESEARCH_CLUSTER, .ideal_s = DAY };
  QmReliability r;

  /* No GPUs. */
  qm_reliability_compute (&in, &r);
  g_assert_nonnull (qm_issues_find (&r.issues, "target.gpus"));
  assert_finite_reliability (&r);

  /* 131,072 GPUs on the research-cluster rate with a 20-minute restart:
   * the job fails every ~3.7 min, faster than it restarts. */
  in.gpus = 131072;
  in.restart_s = 1200;
  in.checkpoint_bytes = 1e12;
  in.write_bytes_per_s = 1e10;
  qm_reliability_compute (&in, &r);
  g_assert_nonnull (qm_issues_find (&r.issues, "reliability.preset"));
  g_assert_cmpfloat (r.goodput, ==, QM_RELIABILITY_MIN_GOODPUT);
  assert_finite_reliability (&r);

  /* Checkpoints but no bandwidth; negative restart; NaN ideal. */
  in.gpus = 1024;
  in.write_bytes_per_s = 0;
  in.restart_s = -5;
  in.ideal_s = NAN;
  qm_reliability_compute (&in, &r);
  g_assert_nonnull (qm_issues_find (&r.issues, "hardware.storage"));
  g_assert_nonnull (qm_issues_find (&r.issues, "reliability.restart_minutes"));
  g_assert_nonnull (qm_issues_find (&r.issues, "ideal_days"));
  assert_finite_reliability (&r);

  /* A given interval of 0. */
  in = (QmReliabilityInput) { .gpus = 8, .ideal_s = DAY, .rule = QM_CHECKPOINT_INTERVAL_GIVEN };
  qm_reliability_compute (&in, &r);
  g_assert_nonnull (qm_issues_find (&r.issues, "reliability.checkpoint_interval_s"));
  assert_finite_reliability (&r);
}

static void
test_random (void)
{
  for (guint i = 0; i < 5000; i++)
    {
      QmReliabilityInput in = { 0, };
      QmReliability r;

      in.preset = g_test_rand_int_range (0, QM_N_FAILURE_PRESETS);
      in.gpus = g_test_rand_int_range (1, 200000);
      in.ideal_s = g_test_rand_double_range (0, 365 * DAY);
      in.checkpoint_bytes = g_test_rand_double_range (0, 1e13);
      in.write_bytes_per_s = g_test_rand_double_range (1e8, 1e13);
      in.restart_s = g_test_rand_double_range (0, 3600);
      in.rule = g_test_rand_int_range (0, 2);
      qm_reliability_compute (&in, &r);

      assert_finite_reliability (&r);
      g_assert_false (qm_issues_has_error (&r.issues));
      g_assert_cmpfloat (r.wall_s, >=, in.ideal_s);
      g_assert_cmpfloat_with_epsilon (r.wall_s * r.goodput, in.ideal_s, 1e-6 * (1 + in.ideal_s));
      g_assert_cmpfloat_with_epsilon (r.interruptions, r.wall_s / r.mtbf_s,
                                      1e-9 * (1 + r.interruptions));
    }
}

/* Past 65k GPUs the first-order model breaks: 131,072 H100 at the Llama 3
 * rate fail every 23 min; with a 10-minute restart and 60-second
 * checkpoints 1 − C/T − (T/2 + R)/M is below 30%, while Daly's complete
 * model (exponential failures, failures during restarts) still gives the
 * positive goodput of its closed form, and more GPUs never make it rise. */
static void
test_daly_large_scale (void)
{
  QmReliabilityInput in = { .preset = QM_FAILURE_LLAMA3_PRODUCTION, .ideal_s = DAY,
                            .checkpoint_bytes = 60e9, .write_bytes_per_s = 1e9,
                            .restart_s = 600, .rule = QM_CHECKPOINT_INTERVAL_DALY };
  QmReliability r, y;
  double last = 1.0;

  in.gpus = 131072;
  qm_reliability_compute (&in, &r);
  in.rule = QM_CHECKPOINT_INTERVAL_YOUNG;
  qm_reliability_compute (&in, &y);
  g_test_message ("131,072 GPUs: M %.1f min, T %.1f min, goodput %.3f (Daly) vs %.3f (first order)",
                  r.mtbf_s / 60, r.checkpoint_interval_s / 60, r.goodput, y.goodput);
  g_assert_cmpfloat (r.goodput, >, 0.3);
  g_assert_cmpfloat (r.goodput, <, 1.0);
  g_assert_cmpfloat_with_epsilon (r.goodput,
                                  qm_reliability_daly_goodput (r.checkpoint_interval_s, 60, 600, r.mtbf_s),
                                  1e-12);
  g_assert_cmpfloat_with_epsilon (r.wall_s, DAY / r.goodput, 1e-6);
  in.rule = QM_CHECKPOINT_INTERVAL_DALY;
  for (guint g = 1024; g <= 262144; g *= 2)
    {
      in.gpus = g;
      qm_reliability_compute (&in, &r);
      g_assert_cmpfloat (r.goodput, <=, last);
      last = r.goodput;
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/reliability/presets", test_presets);
  g_test_add_func ("/reliability/llama3", test_llama3_interruptions);
  g_test_add_func ("/reliability/research-cluster", test_research_cluster);
  g_test_add_func ("/reliability/young-daly", test_young_daly);
  g_test_add_func ("/reliability/checkpoint-bytes", test_checkpoint_bytes);
  g_test_add_func ("/reliability/bad-input", test_bad_input);
  g_test_add_func ("/reliability/random", test_random);
  g_test_add_func ("/reliability/daly-large-scale", test_daly_large_scale);
  return g_test_run ();
}
