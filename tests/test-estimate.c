/* test-estimate.c: whole estimates of plans against published runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-catalog.h"
#include "qm-compute.h"
#include "qm-estimate-json.h"
#include "qm-plan.h"
#include "qm-test-util.h"

static void
plan_for (QmPlan     *p,
          const char *preset,
          const char *gpu,
          const char *server)
{
  qm_plan_init (p);
  g_strlcpy (p->name, preset, sizeof p->name);
  g_strlcpy (p->workload.preset, preset, sizeof p->workload.preset);
  g_assert_nonnull (qm_catalog_model (preset));
  p->workload.model = qm_catalog_model (preset)->shape;
  g_strlcpy (p->gpu_id, gpu, sizeof p->gpu_id);
  g_strlcpy (p->server_id, server, sizeof p->server_id);
  g_assert_nonnull (qm_catalog_gpu (gpu));
  g_assert_nonnull (qm_catalog_server (server));
  p->hardware.gpu = *qm_catalog_gpu (gpu);
  p->hardware.server = *qm_catalog_server (server);
}

static gboolean
has_note (const QmNote *notes,
          guint         n,
          QmNoteId      id)
{
  for (guint i = 0; i < n; i++)
    if (notes[i].id == id)
      return TRUE;
  return FALSE;
}

/* LLaMA-65B: 380 tokens/s/GPU on 2048 A100-80GB (LLaMA §2.4), 1.4T tokens:
 * Table 15 gives 1,022,362 GPU-hours. */
static void
test_llama65b (void)
{
  QmPlan p;
  QmEstimate e;
  double flops_per_token;

  plan_for (&p, "llama-65b", "a100-sxm-80gb", "dgx-a100");
  p.workload.tokens = 1.4e12;
  p.workload.seq_len = 2048;
  p.workload.global_batch = 2048;   /* 4M tokens per batch */
  p.workload.target_gpus = 2048;
  p.workload.tp = 8;
  p.workload.pp = 1;
  qm_estimate (&p, &e);
  /* MFU from the measured throughput, on the estimate's own FLOPs basis. */
  flops_per_token = e.training_flops / e.tokens;
  p.workload.mfu = 380.0 * flops_per_token / e.peak_flops;
  qm_estimate (&p, &e);

  g_assert_true (e.valid);
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_GIVEN);
  qm_assert_rel (e.gpu_hours, 1022362, 0.05);
  /* ~21 days (LLaMA §2.4). */
  qm_assert_rel (e.ideal_days, 21, 0.05);
  g_assert_cmpfloat (e.gpu_hours, ==, e.gpus * e.train_days * 24);
}

/* GPT-3: 3.14e23 FLOPs on the 6ND basis (Table D.1); the model FLOPs add
 * the attention term, about 3%. */
static void
test_gpt3 (void)
{
  QmPlan p;
  QmEstimate e;

  plan_for (&p, "gpt-3-175b", "v100-sxm-32gb", "pcie-8gpu");
  p.workload.tokens = 300e9;
  p.workload.seq_len = 2048;
  p.workload.precision = QM_PRECISION_FP16;
  p.workload.target_gpus = 10000 / 8 * 8;
  p.workload.tp = 8;
  p.workload.pp = 8;
  p.workload.target_gpus = 9984;   /* a multiple of 64 near Patterson's 10,000 */
  qm_estimate (&p, &e);
  qm_assert_rel (e.training_flops_6nd, 3.14e23, 0.02);
  qm_assert_rel (e.training_flops, 1.03 * e.training_flops_6nd, 0.01);
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_FLOPS_BASIS));
  /* V100 default MFU is GPT-3's 21.3% (PaLM Table 3); Patterson: 14.8 days
   * on 10,000 V100. */
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_DEFAULT);
  qm_assert_rel (e.ideal_days, 14.8, 0.10);
}

/* Seed rule as the special case: A100 at 40% MFU; GPUs ≈ T·P·13.3/H. */
static void
test_seed_rule_in_estimate (void)
{
  QmPlan p;
  QmEstimate e;
  double hours = 30 * 24, rule;

  plan_for (&p, "llama-2-7b", "a100-sxm-80gb", "dgx-a100");
  p.workload.tokens = 2e12;
  p.workload.mfu = 0.40;
  p.workload.deadline_days = 30;
  p.workload.seq_len = 4096;
  qm_estimate (&p, &e);
  g_assert_true (e.valid);
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_SEED_RULE));
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_GPUS_FOR_DEADLINE));
  g_assert_cmpuint (e.gpus % 8, ==, 0);
  g_assert_cmpfloat (e.ideal_days, <=, 30);
  rule = qm_compute_seed_rule_gpus (2000, 1, e.active_params / 1e9, hours);
  /* The estimate adds the attention term (s/(6h)-ish) and whole nodes. */
  g_assert_cmpfloat (e.gpus, >=, rule);
  g_assert_cmpfloat (e.gpus, <=, rule * (e.training_flops / e.training_flops_6nd) * 1.005 + 8);
}

static void
test_params_only (void)
{
  QmPlan p;
  QmEstimate e;

  plan_for (&p, "llama-2-7b", "h100-sxm-80gb", "dgx-h100");
  memset (&p.workload.model, 0, sizeof p.workload.model);
  p.workload.preset[0] = '\0';
  p.workload.model.params_hint = 7e9;
  p.workload.tokens = 1e12;
  p.workload.target_gpus = 64;
  qm_estimate (&p, &e);
  g_assert_true (e.valid);
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_SHAPE_INFERRED));
  qm_assert_rel (e.params, 7e9, 0.10);
}

static void
test_examples_estimate (void)
{
  g_autofree char *dir = qm_test_source_path ("data/examples");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *json = NULL;
      static const char *keys[] = {
        "plan", "mode", "params", "active_params", "training_flops", "hardware_flops", "gpus",
        "nodes", "racks", "parallelism", "mfu", "mfu_source", "ideal_days", "train_days",
        "gpu_hours", "memory_bytes", "fits", "power_kw", "energy_mwh", "co2_tonnes",
        "cooling_btu_h", "network", "cost_usd", "bom", "reliability", "inference",
        "assumptions", "warnings",
      };
      JsonObject *o;
      QmPlan p;
      QmEstimate e;

      if (!g_str_has_suffix (name, ".qmplan"))
        continue;
      g_assert_true (qm_plan_load_from_file (&p, path, NULL, &error));
      qm_estimate (&p, &e);
      g_test_message ("%s: %u GPUs, %.1f days, %.1f GB/GPU of %.0f", name, e.gpus,
                      e.train_days, e.memory.total / 1e9, e.memory.capacity / 1e9);
      g_assert_true (e.valid);
      g_assert_true (e.fits);
      /* Only the batch-divisibility warning may appear (a deadline picks
       * whole nodes, not a dp that divides the batch). */
      for (guint i = 0; i < e.n_warnings; i++)
        g_assert_cmpint (e.warnings[i].id, ==, QM_NOTE_BATCH_NOT_DIVISIBLE);
      g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_FAILURES_NOT_MODELLED));

      json = qm_estimate_to_json (&p, &e, NULL);
      /* No bare NaN or infinity as a value (words like "Narayanan" are fine). */
      g_assert_false (g_regex_match_simple ("[:\\[,]\\s*-?(nan|inf)", json, G_REGEX_CASELESS, 0));
      g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
      o = json_node_get_object (json_parser_get_root (parser));
      for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        g_assert_true (json_object_has_member (o, keys[i]));
      g_assert_cmpfloat (json_object_get_double_member (o, "gpu_hours"), ==, e.gpu_hours);
      g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (o, "inference")));
    }
}

/* A broken plan built in code still gives a struct without NaN. */
static void
test_invalid_inputs_no_nan (void)
{
  QmPlan p;
  QmEstimate e;

  qm_plan_init (&p);
  qm_estimate (&p, &e);
  g_assert_false (e.valid);
  g_assert_cmpuint (e.n_warnings, >=, 1);

  plan_for (&p, "llama-2-7b", "h100-sxm-80gb", "dgx-h100");
  p.workload.tokens = 1e12;
  qm_estimate (&p, &e);   /* no GPUs, no deadline */
  g_assert_false (e.valid);
  g_assert_true (isfinite (e.gpu_hours) && isfinite (e.memory.total));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/estimate/llama65b", test_llama65b);
  g_test_add_func ("/estimate/gpt3", test_gpt3);
  g_test_add_func ("/estimate/seed-rule", test_seed_rule_in_estimate);
  g_test_add_func ("/estimate/params-only", test_params_only);
  g_test_add_func ("/estimate/examples", test_examples_estimate);
  g_test_add_func ("/estimate/invalid-inputs", test_invalid_inputs_no_nan);
  return g_test_run ();
}
