/* test-estimate.c: whole estimates of plans against published runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
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
  /* Table 15 counts the GPU-hours of the measured throughput: the ideal
   * time. The estimate's gpu_hours add failures and checkpoints. */
  qm_assert_rel (e.gpus * e.ideal_days * 24, 1022362, 0.05);
  /* ~21 days (LLaMA §2.4). */
  qm_assert_rel (e.ideal_days, 21, 0.05);
  g_assert_true (e.has_reliability);
  g_assert_cmpfloat (e.train_days, >, e.ideal_days);
  g_assert_cmpfloat (e.train_days, <, e.ideal_days * 1.2);
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
  p.workload.global_batch = 1536;  /* 3.2M tokens (GPT-3 Table 2.1) */
  p.workload.flash_attention = FALSE;  /* 2020 */
  /* A 2020 stack: selective recompute and sequence parallelism came in
   * 2022 (Korthikanti); full activation checkpointing was the norm. */
  p.workload.recompute = QM_RECOMPUTE_FULL;
  p.workload.sequence_parallel = FALSE;
  qm_estimate (&p, &e);
  qm_assert_rel (e.training_flops_6nd, 3.14e23, 0.02);
  qm_assert_rel (e.training_flops, 1.03 * e.training_flops_6nd, 0.01);
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_FLOPS_BASIS));
  /* Patterson: 14.8 days on 10,000 V100, i.e. GPT-3's 21.3% MFU (PaLM
   * Table 3), which is the V100 family default. Until issue #5 this plan
   * (MFU omitted) took that default; now the throughput model predicts it
   * for tp 8, pp 8, so the time check gives the default explicitly. */
  g_test_message ("GPT-3 on %u V100: MFU %.3f (%s), %.1f days", e.gpus, e.mfu,
                  qm_mfu_source_to_string (e.mfu_source), e.ideal_days);
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_PREDICTED);
  g_assert_cmpfloat (e.mfu, >, 0.15);
  g_assert_cmpfloat (e.mfu, <, 0.40);
  p.workload.mfu = qm_compute_default_mfu ("v100");
  qm_estimate (&p, &e);
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_GIVEN);
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
  /* The deadline holds with failures counted, not only failure-free. */
  g_assert_true (e.has_reliability);
  g_assert_cmpfloat (e.train_days, <=, 30);
  rule = qm_compute_seed_rule_gpus (2000, 1, e.active_params / 1e9, hours);
  /* The estimate adds the attention term (s/(6h)-ish), the time lost to
   * failures (1/goodput: the seed rule is failure-free) and whole nodes on
   * which a layout keeps the batch of 1,024: dp must divide it, so the odd
   * part of the count goes to tp·pp·cp and the counts that qualify (1,
   * 1.25, 1.5, 1.75 × 2^k nodes and the like) are up to 25% apart. */
  g_assert_cmpfloat (e.gpus, >=, rule / e.reliability.goodput);
  g_assert_cmpfloat (e.gpus, <=, rule * (e.training_flops / e.training_flops_6nd) / e.reliability.goodput
                                 * 1.25 + 8);
  g_assert_cmpuint (p.workload.global_batch % (e.parallelism.dp * e.parallelism.micro_batch), ==, 0);
  g_assert_false (has_note (e.warnings, e.n_warnings, QM_NOTE_BATCH_NOT_DIVISIBLE));
}

static void assert_estimate_finite (const QmEstimate *e);

/* Issue #5 through the estimate: Korthikanti 2022 Table 3/5, 175B (GPT,
 * 96 layers, hidden 12288) on 64 A100 (8 DGX A100, HDR IB) with tp 8,
 * pp 8, SP + selective recompute, batch 64 of 2048 tokens: 51.4% MFU
 * measured. The plan omits the MFU, so the estimate predicts it. */
static void
test_predicted_mfu_korthikanti (void)
{
  QmPlan p;
  QmEstimate e;
  QmModelShape *s = &p.workload.model;
  char buf[512];

  plan_for (&p, "gpt-3-175b", "a100-sxm-80gb", "dgx-a100");
  memset (s, 0, sizeof *s);
  p.workload.preset[0] = '\0';
  s->layers = 96;
  s->hidden = 12288;
  s->heads = 96;
  s->kv_heads = 96;
  s->ffn_hidden = 4 * 12288;
  s->vocab = 51200;
  s->tied_embeddings = TRUE;
  s->learned_positions = 2048;
  s->linear_bias = TRUE;
  g_strlcpy (p.network_id, "ib-hdr-200", sizeof p.network_id);
  p.hardware.network = *qm_catalog_network ("ib-hdr-200");
  p.workload.tokens = 300e9;
  p.workload.seq_len = 2048;
  p.workload.global_batch = 64;
  p.workload.micro_batch = 1;
  p.workload.recompute = QM_RECOMPUTE_SELECTIVE;
  p.workload.sequence_parallel = TRUE;
  p.workload.flash_attention = FALSE;   /* Megatron-LM 2022: fused softmax */
  p.workload.fp32_grad_buffer = TRUE;
  p.workload.zero_stage = 1;
  p.workload.tp = 8;
  p.workload.pp = 8;
  p.workload.cp = 1;
  p.workload.ep = 1;
  p.workload.mfu = 0;
  p.workload.target_gpus = 64;
  qm_estimate (&p, &e);
  g_assert_true (e.valid);
  g_assert_true (e.fits);
  g_assert_cmpstr (qm_mfu_source_to_string (e.mfu_source), ==, "predicted");
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_MFU_PREDICTED));
  g_assert_true (e.has_step_time);
  g_test_message ("175B on 64 A100, tp 8 pp 8 (v %u): predicted MFU %.3f, HFU %.3f, step %.2f s",
                  e.parallelism.virtual_stages, e.mfu, e.step_time.hfu, e.step_time.step);
  for (guint i = 0; i < e.n_assumptions; i++)
    if (e.assumptions[i].id == QM_NOTE_MFU_PREDICTED)
      g_test_message ("%s", qm_note_format (&e.assumptions[i], buf, sizeof buf));
  qm_assert_rel (e.mfu, 0.514, 0.15);
  /* The layout is the plan's; time follows from the predicted MFU. */
  g_assert_cmpuint (e.parallelism.tp, ==, 8);
  g_assert_cmpuint (e.parallelism.pp, ==, 8);
  g_assert_cmpuint (e.parallelism.dp, ==, 1);
  qm_assert_rel (e.ideal_days * 86400.0,
                 e.training_flops / (64 * e.peak_flops * e.mfu), 1e-9);

  /* The same plan with the layout on auto: the search's best is at least
   * as fast, and says so. */
  p.workload.tp = p.workload.pp = 0;
  {
    double manual = e.mfu;

    qm_estimate (&p, &e);
    g_assert_cmpstr (qm_mfu_source_to_string (e.mfu_source), ==, "predicted");
    g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_PARALLEL_AUTO));
    g_assert_cmpuint (e.layouts_evaluated, >, 0);
    g_assert_cmpfloat (e.mfu, >=, manual * (1 - 1e-9));
    g_test_message ("auto: tp %u pp %u dp %u v %u: MFU %.3f (%" G_GUINT64_FORMAT " layouts)",
                    e.parallelism.tp, e.parallelism.pp, e.parallelism.dp,
                    e.parallelism.virtual_stages, e.mfu, e.layouts_evaluated);
  }

  /* Given MFU: the fast path, no throughput model. */
  p.workload.tp = p.workload.pp = 8;
  p.workload.mfu = 0.45;
  qm_estimate (&p, &e);
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_GIVEN);
  g_assert_false (e.has_step_time);
  g_assert_cmpfloat (e.mfu, ==, 0.45);
}

/* Nothing fits: a warning says by how much and what would fix it. */
static void
test_no_layout_fits (void)
{
  QmPlan p;
  QmEstimate e;
  char buf[1024];
  const QmNote *note = NULL;

  plan_for (&p, "llama-3.1-405b", "a100-sxm-80gb", "dgx-a100");
  p.workload.tokens = 1e12;
  p.workload.target_gpus = 8;
  p.workload.global_batch = 64;
  qm_estimate (&p, &e);
  g_assert_true (e.valid);
  g_assert_false (e.fits);
  g_assert_true (e.no_fit.valid);
  for (guint i = 0; i < e.n_warnings; i++)
    if (e.warnings[i].id == QM_NOTE_NO_LAYOUT_FITS)
      note = &e.warnings[i];
  g_assert_nonnull (note);
  qm_note_format (note, buf, sizeof buf);
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "GB more than the GPU has"));
  g_assert_nonnull (strstr (buf, "it would fit with"));
  g_assert_nonnull (strstr (buf, "GPUs"));
  g_assert_nonnull (strstr (buf, "a GPU with at least"));
  /* The closest layout is shown, with its time: never NaN, never empty. */
  g_assert_cmpuint (e.parallelism.tp * e.parallelism.pp * e.parallelism.dp * e.parallelism.cp,
                    ==, 8);
  g_assert_cmpfloat (e.ideal_days, >, 0);
  assert_estimate_finite (&e);

  /* A fixed layout that does not fit says what would. */
  p.workload.tp = 8;
  p.workload.pp = 1;
  p.workload.mfu = 0.4;
  qm_estimate (&p, &e);
  g_assert_false (e.fits);
  note = NULL;
  for (guint i = 0; i < e.n_warnings; i++)
    if (e.warnings[i].id == QM_NOTE_DOES_NOT_FIT)
      note = &e.warnings[i];
  g_assert_nonnull (note);
  qm_note_format (note, buf, sizeof buf);
  g_test_message ("%s", buf);
  g_assert_nonnull (strstr (buf, "it would fit with"));
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
  /* The throughput model runs on the inferred shape. */
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_PREDICTED);
  g_assert_true (e.fits);
}

/* Every finite double of an estimate and its modules. */
static void
assert_estimate_finite (const QmEstimate *e)
{
  const QmCluster *c = &e->cluster;
  const QmPower *p = &e->power;
  const QmCost *k = &e->cost;
  const QmReliability *r = &e->reliability;
  const QmInference *i = &e->inference;
  const double v[] = {
    e->params, e->active_params, e->tokens, e->training_flops, e->training_flops_6nd,
    e->hardware_flops, e->peak_flops, e->mfu, e->ideal_days, e->train_days, e->gpu_hours,
    e->memory.weights, e->memory.gradients, e->memory.optimizer, e->memory.activations,
    e->memory.kv_cache, e->memory.overhead, e->memory.total, e->memory.capacity,
    e->memory.margin, e->run_s, e->dataset_bytes,
    c->node_power_w, c->rack_kw_peak, c->storage_bytes, c->storage_tb,
    c->storage_write_bytes_per_s, c->storage_extra_gbs, c->checkpoint_write_s,
    p->node.total, p->node_avg_w, p->avg_fraction, p->gpus_kw, p->servers_kw, p->network_kw,
    p->storage_kw, p->it_peak_kw, p->it_avg_kw, p->facility_peak_kw, p->facility_avg_kw,
    p->pue, p->cooling_kw, p->cooling_btu_h, p->energy_mwh, p->electricity_usd, p->co2_tonnes,
    k->hardware_usd, k->install_usd, k->upfront, k->monthly, k->run, k->total,
    k->amortization_monthly, k->power_monthly, k->colo_monthly, k->support_monthly,
    k->storage_monthly, k->rent_monthly, k->gpu_hours, k->horizon_months, k->rent_usd_per_gpu_hour,
    r->gpu_hours_per_failure, r->mtbf_s, r->checkpoint_bytes, r->checkpoint_write_s,
    r->checkpoint_interval_s, r->restart_s, r->checkpoint_overhead, r->failure_overhead,
    r->goodput, r->ideal_s, r->wall_s, r->interruptions, r->checkpoints,
    i->weights_bytes, i->kv_bytes_per_token, i->kv_bytes_per_seq, i->memory_per_gpu_bytes,
    i->capacity_per_gpu_bytes, i->in_flight, i->gpus_exact, i->step_s, i->prefill_s,
    i->tokens_per_s_needed, i->tokens_per_s_per_gpu, i->tokens_per_s_total, i->ttft_ms,
    i->tpot_ms,
  };

  for (guint j = 0; j < G_N_ELEMENTS (v); j++)
    if (!isfinite (v[j]))
      g_error ("estimate value %u is not finite (%g)", j, v[j]);
  for (guint j = 0; j < k->n_bom; j++)
    g_assert_true (isfinite (k->bom[j].qty) && isfinite (k->bom[j].unit_usd) &&
                   isfinite (k->bom[j].total_usd));
  for (guint j = 0; j < e->n_assumptions; j++)
    for (guint m = 0; m < QM_NOTE_N_VALUES; m++)
      g_assert_true (isfinite (e->assumptions[j].v[m]));
  for (guint j = 0; j < e->n_warnings; j++)
    for (guint m = 0; m < QM_NOTE_N_VALUES; m++)
      g_assert_true (isfinite (e->warnings[j].v[m]));
}

/* A warning note that names @field, or NULL. */
static const QmNote *
find_field_note (const QmEstimate *e,
                 const char       *field)
{
  for (guint i = 0; i < e->n_warnings; i++)
    if ((e->warnings[i].id == QM_NOTE_INPUT_ERROR || e->warnings[i].id == QM_NOTE_INPUT_WARNING)
        && g_strcmp0 (e->warnings[i].s[0], field) == 0)
      return &e->warnings[i];
  return NULL;
}

/* No null anywhere below @node, except the keys in @nullable. */
static void
assert_no_null (JsonNode   *node,
                const char *path)
{
  static const char *nullable[] = {
    "catalog_id", "source", "as_of", "break_even_month",
    /* Serving (issue 31): no capacity when the fleet was sized for the
     * rate, no headroom without a rate. */
    "max_requests_per_s", "headroom",
  };

  if (JSON_NODE_HOLDS_NULL (node))
    {
      const char *key = strrchr (path, '.') ? strrchr (path, '.') + 1 : path;

      for (guint i = 0; i < G_N_ELEMENTS (nullable); i++)
        if (g_str_equal (key, nullable[i]))
          return;
      g_error ("%s is null", path);
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (o);

      for (GList *l = members; l; l = l->next)
        {
          g_autofree char *sub = g_strdup_printf ("%s.%s", path, (const char *) l->data);

          assert_no_null (json_object_get_member (o, l->data), sub);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_autofree char *sub = g_strdup_printf ("%s[%u]", path, i);

          assert_no_null (json_array_get_element (a, i), sub);
        }
    }
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    g_assert_true (isfinite (json_node_get_double (node)));
}

/* The contract keys (docs/plan-file.md "Estimate output"). */
static const char *contract_keys[] = {
  "plan", "mode", "params", "active_params", "training_flops", "hardware_flops", "gpus",
  "nodes", "racks", "parallelism", "mfu", "mfu_source", "ideal_days", "train_days",
  "gpu_hours", "memory_bytes", "fits", "power_kw", "energy_mwh", "co2_tonnes",
  "cooling_btu_h", "network", "cost_usd", "bom", "reliability", "inference",
  "assumptions", "warnings",
};
/* The keys that only training fills. */
static const char *training_keys[] = {
  "training_flops", "hardware_flops", "mfu", "mfu_source", "ideal_days", "train_days",
  "gpu_hours", "reliability",
};
static const char *nested_keys[][9] = {
  { "parallelism", "tp", "pp", "dp", "cp", "ep", "micro_batch", "zero_stage", "recompute" },
  { "memory_bytes", "weights", "gradients", "optimizer", "activations", "kv_cache", "overhead",
    "total", "capacity" },
  { "power_kw", "gpus", "servers", "network", "storage", "it_peak", "it_avg", "facility_peak",
    "facility_avg" },
  { "network", "leaf_switches", "spine_switches", "core_switches", "cables", "transceivers" },
  { "cost_usd", "upfront", "monthly", "run", "total" },
  { "reliability", "preset", "interruptions", "checkpoint_bytes", "checkpoint_write_s",
    "checkpoint_interval_s", "goodput" },
  { "inference", "gpus", "replicas", "tokens_per_s_per_gpu", "tokens_per_s_total", "ttft_ms",
    "tpot_ms" },
};

static gboolean
is_training_key (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (training_keys); i++)
    if (g_str_equal (key, training_keys[i]))
      return TRUE;
  return FALSE;
}

/* The JSON of a valid estimate: every contract key, null exactly where the
 * mode says, finite numbers everywhere else. */
static void
assert_json_contract (const QmPlan     *p,
                      const QmEstimate *e)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = qm_estimate_to_json (p, e, NULL);
  gboolean training = e->has_training;
  JsonObject *o;

  /* No bare NaN or infinity as a value (words like "Narayanan" are fine). */
  g_assert_false (g_regex_match_simple ("[:\\[,]\\s*-?(nan|inf)", json, G_REGEX_CASELESS, 0));
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));

  for (guint i = 0; i < G_N_ELEMENTS (contract_keys); i++)
    {
      const char *key = contract_keys[i];
      JsonNode *n = json_object_get_member (o, key);
      gboolean want_null = training ? g_str_equal (key, "inference") : is_training_key (key);

      if (n == NULL)
        g_error ("%s: key %s is missing", p->name, key);
      if (want_null)
        {
          if (!JSON_NODE_HOLDS_NULL (n))
            g_error ("%s: %s should be null for mode %s", p->name, key, qm_mode_to_string (e->mode));
        }
      else
        assert_no_null (n, key);
    }
  for (guint i = 0; i < G_N_ELEMENTS (nested_keys); i++)
    {
      JsonNode *n = json_object_get_member (o, nested_keys[i][0]);

      if (JSON_NODE_HOLDS_NULL (n))
        continue;
      for (guint j = 1; j < G_N_ELEMENTS (nested_keys[i]) && nested_keys[i][j]; j++)
        if (!json_object_has_member (json_node_get_object (n), nested_keys[i][j]))
          g_error ("%s: %s.%s is missing", p->name, nested_keys[i][0], nested_keys[i][j]);
    }
  {
    JsonArray *bom = json_object_get_array_member (o, "bom");
    static const char *line_keys[] = {
      "item", "catalog_id", "qty", "unit_usd", "total_usd", "source", "as_of",
    };

    g_assert_cmpuint (json_array_get_length (bom), ==, e->cost.n_bom);
    g_assert_cmpuint (json_array_get_length (bom), >=, 1);
    for (guint i = 0; i < json_array_get_length (bom); i++)
      for (guint j = 0; j < G_N_ELEMENTS (line_keys); j++)
        g_assert_true (json_object_has_member (json_array_get_object_element (bom, i),
                                               line_keys[j]));
  }
  if (training)
    g_assert_cmpfloat (json_object_get_double_member (o, "gpu_hours"), ==, e->gpu_hours);
  g_assert_cmpint (json_object_get_int_member (o, "racks"), ==, e->cluster.racks);
}

static void
test_examples_estimate (void)
{
  g_autofree char *dir = qm_test_source_path ("data/examples");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_training = 0, n_inference = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) warnings = NULL;
      QmPlan p;
      QmEstimate e;

      if (!g_str_has_suffix (name, ".qmplan"))
        continue;
      g_assert_true (qm_plan_load_from_file (&p, path, &warnings, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (warnings->len, ==, 0);
      qm_estimate (&p, &e);
      g_test_message ("%s: %u GPUs, %.1f days (%.1f ideal), %.1f GB/GPU of %.0f, %u racks, "
                      "%.0f kW, %.0f USD upfront", name, e.gpus, e.train_days, e.ideal_days,
                      e.memory.total / 1e9, e.memory.capacity / 1e9, e.cluster.racks,
                      e.power.facility_peak_kw, e.cost.upfront);
      g_assert_true (e.valid);
      g_assert_true (e.fits);
      g_assert_cmpuint (e.n_errors, ==, 0);
      /* Only the batch-divisibility warning may appear (a deadline picks
       * whole nodes, not a dp that divides the batch). */
      for (guint i = 0; i < e.n_warnings; i++)
        {
          char buf[512];

          if (e.warnings[i].id != QM_NOTE_BATCH_NOT_DIVISIBLE)
            g_error ("%s: unexpected warning: %s", name,
                     qm_note_format (&e.warnings[i], buf, sizeof buf));
        }
      g_assert_true (e.has_cluster && e.has_power && e.has_cost);
      assert_estimate_finite (&e);
      if (e.has_training)
        {
          n_training++;
          g_assert_true (e.has_reliability);
          g_assert_false (e.has_inference);
          g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_FAILURE_PRESET));
          g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_CHECKPOINT_INTERVAL));
          g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_GOODPUT));
          g_assert_cmpfloat (e.train_days, >=, e.ideal_days);
          g_assert_cmpfloat_with_epsilon (e.train_days * 86400, e.reliability.wall_s, 1e-6);
          g_assert_cmpfloat (e.gpu_hours, ==, e.gpus * e.train_days * 24.0);
          g_assert_cmpfloat (e.reliability.goodput, >, 0.5);
        }
      else
        {
          n_inference++;
          g_assert_true (e.has_inference);
          g_assert_false (e.has_reliability);
          g_assert_true (e.inference.fits);
          g_assert_cmpuint (e.gpus, >=, e.inference.gpus);
          /* Sized for the rate, or (target.gpus) the plan's own fleet and
           * what it holds (issue 31). */
          g_assert_true (has_note (e.assumptions, e.n_assumptions,
                                   e.inference.fixed_fleet ? QM_NOTE_INFERENCE_CAPACITY
                                                           : QM_NOTE_INFERENCE_SIZING));
          g_assert_true (!e.inference.fixed_fleet || e.gpus == p.workload.target_gpus);
        }
      g_assert_cmpuint (e.cluster.nodes, ==, e.nodes);
      g_assert_cmpuint (e.cluster.racks, >=, 1);
      g_assert_cmpfloat (e.cost.total, >, 0);
      assert_json_contract (&p, &e);
    }
  g_assert_cmpuint (n_training, >=, 3);
  g_assert_cmpuint (n_inference, >=, 1);
}

/* The plan names a cloud offer: rent takes its price and source. */
static void
test_offer (void)
{
  static const char *data =
    "{ \"format\": \"quartermaster-plan\", \"version\": 1, \"name\": \"offer\","
    "  \"workload\": { \"mode\": \"pretrain\", \"model\": { \"preset\": \"llama-2-7b\" },"
    "                \"tokens_b\": 100 },"
    "  \"target\": { \"gpus\": 64 },"
    "  \"hardware\": { \"gpu\": \"h100-sxm-80gb\", \"server\": \"dgx-h100\" },"
    "  \"pricing\": { \"mode\": \"rent-reserved\", \"offer\": \"aws-p5.48xlarge\" } }";
  const QmCloudOffer *offer = qm_catalog_cloud_offer ("aws-p5.48xlarge");
  g_autoptr(GError) error = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *round = NULL;
  QmPlan p, back;
  QmEstimate e;

  g_assert_nonnull (offer);
  g_assert_true (qm_plan_load_from_data (&p, data, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (p.offer_id, ==, "aws-p5.48xlarge");
  g_assert_cmpfloat (p.pricing.usd_per_gpu_hour, ==, 0);
  qm_estimate (&p, &e);
  g_assert_true (e.valid);
  g_assert_true (e.offer == offer);
  g_assert_cmpstr (e.cost.bom[0].item, ==, "GPU-hours");
  g_assert_cmpstr (e.cost.bom[0].catalog_id, ==, "aws-p5.48xlarge");
  g_assert_cmpfloat (e.cost.bom[0].unit_usd, ==, offer->usd_per_gpu_hour_reserved);
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_COST_RENT_OFFER));
  qm_assert_rel (e.cost.run, e.gpu_hours * offer->usd_per_gpu_hour_reserved, 0.01);

  /* It survives a round trip. */
  round = qm_plan_to_data (&p, NULL);
  g_assert_true (qm_plan_load_from_data (&back, round, -1, NULL, &error));
  g_assert_cmpstr (back.offer_id, ==, "aws-p5.48xlarge");

  /* An unknown offer is an error naming the key. */
  {
    g_auto(GStrv) parts = g_strsplit (data, "aws-p5.48xlarge", -1);
    bad = g_strjoinv ("no-such-offer", parts);
  }
  g_assert_false (qm_plan_load_from_data (&p, bad, -1, NULL, &error));
  g_assert_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_UNKNOWN_ID);
  g_assert_nonnull (strstr (error->message, "pricing.offer"));
}

/* Bad input through the whole chain: a warning or error naming the field,
 * and no NaN or infinity anywhere (issue #4, "Bad input"). */
static void
test_bad_inputs (void)
{
  QmPlan base, p;
  QmEstimate e;

  g_assert_true (qm_plan_init != NULL);
  {
    g_autofree char *path = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
    g_autoptr(GError) error = NULL;

    g_assert_true (qm_plan_load_from_file (&base, path, NULL, &error));
  }

  /* PUE below 1. */
  p = base;
  p.facility.pue = 0.9;
  qm_estimate (&p, &e);
  assert_estimate_finite (&e);
  g_assert_nonnull (find_field_note (&e, "facility.pue"));
  g_assert_cmpint (find_field_note (&e, "facility.pue")->id, ==, QM_NOTE_INPUT_ERROR);
  g_assert_cmpuint (e.n_errors, >=, 1);
  g_assert_cmpfloat (e.power.pue, ==, 1.0);

  /* A rack smaller than one server (8U DGX in a 4U rack). */
  p = base;
  p.facility.rack_units = 4;
  qm_estimate (&p, &e);
  assert_estimate_finite (&e);
  g_assert_nonnull (find_field_note (&e, "facility.rack_units"));
  g_assert_cmpuint (e.cluster.racks, >=, e.nodes);

  /* A kW limit below one node (10.2 kW). */
  p = base;
  p.facility.rack_kw = 5;
  qm_estimate (&p, &e);
  assert_estimate_finite (&e);
  g_assert_nonnull (find_field_note (&e, "facility.rack_kw"));
  {
    char buf[512];

    qm_note_format (find_field_note (&e, "facility.rack_kw"), buf, sizeof buf);
    g_assert_nonnull (strstr (buf, "facility.rack_kw"));
    g_assert_nonnull (strstr (buf, "(got 5)"));
  }

  /* Zero and negative prices. */
  p = base;
  p.hardware.server.info.price_usd = 0;
  qm_estimate (&p, &e);
  assert_estimate_finite (&e);
  g_assert_nonnull (find_field_note (&e, "hardware.server.price_usd"));
  g_assert_cmpint (find_field_note (&e, "hardware.server.price_usd")->id, ==, QM_NOTE_INPUT_WARNING);
  p.hardware.server.info.price_usd = -1;
  qm_estimate (&p, &e);
  assert_estimate_finite (&e);
  g_assert_cmpint (find_field_note (&e, "hardware.server.price_usd")->id, ==, QM_NOTE_INPUT_ERROR);

  p = base;
  p.pricing.mode = QM_PRICING_RENT_ON_DEMAND;
  p.pricing.usd_per_gpu_hour = -2;
  qm_estimate (&p, &e);
  assert_estimate_finite (&e);
  g_assert_nonnull (find_field_note (&e, "pricing.usd_per_gpu_hour"));
  p.pricing.mode = QM_PRICING_BUY;
  qm_estimate (&p, &e);
  g_assert_nonnull (find_field_note (&e, "pricing.usd_per_gpu_hour"));

  /* Non-finite facility figures, an unknown preset, no amortisation. */
  p = base;
  p.facility.pue = NAN;
  p.facility.usd_per_kwh = INFINITY;
  p.facility.rack_kw = NAN;
  p.facility.gco2_per_kwh = -INFINITY;
  p.pricing.amortization_years = 0;
  g_strlcpy (p.reliability_preset, "no-such-preset", sizeof p.reliability_preset);
  qm_estimate (&p, &e);
  assert_estimate_finite (&e);
  g_assert_nonnull (find_field_note (&e, "facility.pue"));
  g_assert_nonnull (find_field_note (&e, "facility.usd_per_kwh"));
  g_assert_nonnull (find_field_note (&e, "facility.rack_kw"));
  g_assert_nonnull (find_field_note (&e, "facility.gco2_per_kwh"));
  g_assert_nonnull (find_field_note (&e, "pricing.amortization_years"));
  g_assert_nonnull (find_field_note (&e, "reliability.preset"));
  {
    g_autofree char *json = qm_estimate_to_json (&p, &e, NULL);

    g_assert_false (g_regex_match_simple ("[:\\[,]\\s*-?(nan|inf)", json, G_REGEX_CASELESS, 0));
  }

  /* Non-finite tokens: invalid, named, still finite. */
  p = base;
  p.workload.tokens = NAN;
  qm_estimate (&p, &e);
  g_assert_false (e.valid);
  g_assert_nonnull (find_field_note (&e, "workload.tokens_b"));
  g_assert_true (isfinite (e.train_days) && isfinite (e.gpu_hours) && isfinite (e.tokens));
}

/* A plan of random catalog parts (seeded by g_test_rand). */
static gboolean
random_plan (QmPlan *p)
{
  guint n_models, n_gpus, n_servers, n_nets, n_stores;
  const QmModelPreset *models = qm_catalog_models (&n_models);
  const QmGpuSpec *gpus = qm_catalog_gpus (&n_gpus);
  const QmServerSpec *servers = qm_catalog_servers (&n_servers);
  const QmNetworkSpec *nets = qm_catalog_networks (&n_nets);
  const QmStorageSpec *stores = qm_catalog_storages (&n_stores);
  const QmModelPreset *model = &models[g_test_rand_int_range (0, n_models)];
  const QmGpuSpec *gpu = &gpus[g_test_rand_int_range (0, n_gpus)];
  const QmServerSpec *server = NULL;
  static const QmMode modes[] = {
    QM_MODE_PRETRAIN, QM_MODE_PRETRAIN, QM_MODE_FINETUNE, QM_MODE_LORA, QM_MODE_QLORA,
    QM_MODE_INFERENCE,
  };
  static const QmPrecision precisions[] = {
    QM_PRECISION_BF16, QM_PRECISION_FP16, QM_PRECISION_FP8, QM_PRECISION_FP32,
  };
  guint gpn;

  qm_plan_init (p);
  g_strlcpy (p->name, "random", sizeof p->name);
  g_strlcpy (p->workload.preset, model->info.id, sizeof p->workload.preset);
  p->workload.model = model->shape;
  p->workload.mode = modes[g_test_rand_int_range (0, G_N_ELEMENTS (modes))];
  if (p->workload.mode == QM_MODE_LORA || p->workload.mode == QM_MODE_QLORA)
    p->workload.lora_rank = 16;
  p->workload.tokens = pow (10, g_test_rand_double_range (8, 13));
  p->workload.precision = precisions[g_test_rand_int_range (0, G_N_ELEMENTS (precisions))];
  p->workload.seq_len = 1024u << g_test_rand_int_range (0, 4);
  if (g_test_rand_bit ())
    p->workload.mfu = g_test_rand_double_range (0.1, 0.6);
  p->workload.inference.requests_per_minute = g_test_rand_double_range (0, 5000);
  p->workload.inference.weight_precision = g_test_rand_bit () ? QM_PRECISION_FP8 : QM_PRECISION_BF16;
  p->workload.inference.kv_precision = p->workload.inference.weight_precision;

  for (guint i = 0; i < n_servers && server == NULL; i++)
    if (g_strcmp0 (servers[i].gpu_id, gpu->info.id) == 0)
      server = &servers[i];
  if (server == NULL || g_test_rand_int_range (0, 4) == 0)
    server = &servers[g_test_rand_int_range (0, n_servers)];
  g_strlcpy (p->gpu_id, gpu->info.id, sizeof p->gpu_id);
  g_strlcpy (p->server_id, server->info.id, sizeof p->server_id);
  p->hardware.gpu = *gpu;
  p->hardware.server = *server;
  if (g_test_rand_int_range (0, 5) > 0)
    {
      const QmNetworkSpec *net = &nets[g_test_rand_int_range (0, n_nets)];

      g_strlcpy (p->network_id, net->info.id, sizeof p->network_id);
      p->hardware.network = *net;
    }
  if (g_test_rand_int_range (0, 5) > 0)
    {
      const QmStorageSpec *st = &stores[g_test_rand_int_range (0, n_stores)];

      g_strlcpy (p->storage_id, st->info.id, sizeof p->storage_id);
      p->hardware.storage = *st;
    }

  gpn = MAX (server->gpus, 1u);
  if (g_test_rand_int_range (0, 3) > 0 || p->workload.mode == QM_MODE_INFERENCE)
    p->workload.target_gpus = gpn * g_test_rand_int_range (1, 513);
  else
    p->workload.deadline_days = g_test_rand_double_range (1, 365);

  p->facility.pue = g_test_rand_double_range (1.0, 2.0);
  p->facility.usd_per_kwh = g_test_rand_double_range (0.0, 0.4);
  p->facility.rack_kw = g_test_rand_double_range (15, 150);
  p->facility.rack_units = g_test_rand_bit () ? 42 : 48;
  p->facility.gco2_per_kwh = g_test_rand_double_range (0, 800);
  p->facility.colo_usd_per_kw_month = g_test_rand_double_range (0, 250);
  p->pricing.mode = (QmPricingMode) g_test_rand_int_range (0, 3);
  p->pricing.usd_per_gpu_hour = g_test_rand_bit () ? g_test_rand_double_range (0.5, 10) : 0;
  p->pricing.amortization_years = g_test_rand_double_range (1, 6);
  p->pricing.support_fraction = g_test_rand_double_range (0, 0.2);
  g_strlcpy (p->reliability_preset, g_test_rand_bit () ? "llama3-production" : "research-cluster",
             sizeof p->reliability_preset);
  p->restart_minutes = g_test_rand_double_range (0, 60);
  return qm_plan_validate (p, NULL);
}

/* Issue #4's properties at the estimate level, over thousands of random
 * valid plans. */
static void
test_random_plans (void)
{
  guint n = g_test_slow () ? 20000 : 4000, valid = 0, monotone = 0;

  for (guint i = 0; i < n; i++)
    {
      QmPlan p, p2;
      QmEstimate e, e2;
      double hours;

      if (!random_plan (&p))
        continue;
      qm_estimate (&p, &e);
      assert_estimate_finite (&e);
      if (!e.valid)
        continue;
      valid++;
      g_assert_true (e.has_cluster && e.has_power && e.has_cost);
      g_assert_cmpint (e.has_inference, ==, !e.has_training);
      g_assert_cmpint (e.has_reliability, ==, e.has_training);

      /* Racks hold the nodes. */
      g_assert_cmpuint (e.cluster.nodes_per_rack, >=, 1);
      g_assert_cmpfloat (e.cluster.racks, >=, (double) e.cluster.nodes / e.cluster.nodes_per_rack);
      /* Energy = facility average power × the wall clock. */
      hours = e.run_s / 3600.0;
      qm_assert_rel (e.power.energy_mwh, e.power.facility_avg_kw * hours / 1000.0, 1e-9);
      if (e.has_training)
        {
          qm_assert_rel (e.run_s, e.train_days * 86400.0, 1e-12);
          g_assert_cmpfloat (e.gpu_hours, ==, e.gpus * e.train_days * 24.0);
          g_assert_cmpfloat (e.train_days, >=, e.ideal_days);
        }
      if (i % 8 == 0)
        assert_json_contract (&p, &e);

      /* Cost is monotone in the GPU count: twice the GPUs (a fixed cluster)
       * never costs less upfront or per month. */
      if (p.workload.target_gpus == 0 || e.n_errors > 0)
        continue;
      p2 = p;
      p2.workload.target_gpus *= 2;
      if (!qm_plan_validate (&p2, NULL))
        continue;
      qm_estimate (&p2, &e2);
      assert_estimate_finite (&e2);
      if (!e2.valid || e2.n_errors > 0)
        continue;
      monotone++;
      g_assert_cmpfloat (e2.cost.upfront, >=, e.cost.upfront * (1 - 1e-12));
      g_assert_cmpfloat (e2.cost.monthly, >=, e.cost.monthly * (1 - 1e-12));
      g_assert_cmpfloat (e2.cost.total, >=, e.cost.total * (1 - 1e-12));
      if (e2.cluster.racks < e.cluster.racks)
        g_test_message ("racks fall from %u (%u+%u+%u) to %u (%u+%u+%u) at %u -> %u nodes of %s, "
                        "%u U / %.0f kW racks, storage %s", e.cluster.racks,
                        e.cluster.compute_racks, e.cluster.network_racks, e.cluster.storage_racks,
                        e2.cluster.racks, e2.cluster.compute_racks, e2.cluster.network_racks,
                        e2.cluster.storage_racks, e.nodes, e2.nodes, p.server_id,
                        p.facility.rack_units, p.facility.rack_kw, p.storage_id);
      g_assert_cmpfloat (e2.power.it_peak_kw, >=, e.power.it_peak_kw);
    }
  g_test_message ("%u random plans, %u valid, %u monotone pairs", n, valid, monotone);
  g_assert_cmpuint (valid, >=, n / 4);
  g_assert_cmpuint (monotone, >=, n / 10);
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

/* Issue #19: a 30-day Llama 3.1 70B plan (15T tokens, 8K sequences, batch
 * 2,048, layout and MFU on auto) got 7,592 GPUs that took 34.1 days with
 * failures and priced 1,898 sequences. The count must finish by the
 * deadline with failures counted, on whole nodes, keeping the batch. */
static void
test_deadline_with_failures (void)
{
  QmPlan p;
  QmEstimate e;

  plan_for (&p, "llama-3.1-70b", "h100-sxm-80gb", "dgx-h100");
  p.hardware.network = *qm_catalog_network ("ib-ndr-400");
  g_strlcpy (p.network_id, "ib-ndr-400", sizeof p.network_id);
  p.workload.tokens = 15e12;
  p.workload.seq_len = 8192;
  p.workload.global_batch = 2048;
  p.workload.micro_batch = 1;
  p.workload.recompute = QM_RECOMPUTE_SELECTIVE;
  p.workload.flash_attention = TRUE;
  p.workload.sequence_parallel = TRUE;
  p.workload.tp = p.workload.pp = p.workload.cp = p.workload.ep = 0;
  p.workload.mfu = 0;
  p.workload.deadline_days = 30;
  qm_estimate (&p, &e);
  g_test_message ("30-day 70B: %u GPUs (tp %u pp %u cp %u dp %u v %u), MFU %.3f, %.1f days ideal, "
                  "%.1f with failures (goodput %.3f)", e.gpus, e.parallelism.tp, e.parallelism.pp,
                  e.parallelism.cp, e.parallelism.dp, e.parallelism.virtual_stages, e.mfu,
                  e.ideal_days, e.train_days, e.reliability.goodput);
  g_assert_true (e.valid);
  g_assert_true (e.has_reliability);
  g_assert_cmpfloat (e.train_days, >, e.ideal_days);
  g_assert_cmpfloat (e.train_days, <=, 30.0);
  g_assert_cmpuint (e.gpus % 8, ==, 0);
  g_assert_cmpuint (2048 % (e.parallelism.dp * e.parallelism.micro_batch), ==, 0);
  g_assert_cmpuint (e.priced_global_batch == 0 || e.priced_global_batch == 2048, ==, TRUE);
  g_assert_false (has_note (e.warnings, e.n_warnings, QM_NOTE_BATCH_NOT_DIVISIBLE));
  g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_GPUS_FOR_DEADLINE));

  /* The hot path (MFU and layout given, no throughput model) keeps the
   * batch and the deadline too. */
  p.workload.mfu = 0.40;
  p.workload.tp = 8;
  p.workload.pp = 4;
  p.workload.cp = 1;
  p.workload.ep = 1;
  qm_estimate (&p, &e);
  g_test_message ("given MFU 0.40, tp 8 pp 4: %u GPUs, %.1f days with failures", e.gpus, e.train_days);
  g_assert_true (e.valid);
  g_assert_cmpfloat (e.train_days, <=, 30.0);
  g_assert_cmpuint (e.gpus % 32, ==, 0);
  g_assert_cmpuint (2048 % (e.gpus / 32), ==, 0);
  g_assert_false (has_note (e.warnings, e.n_warnings, QM_NOTE_BATCH_NOT_DIVISIBLE));
}

/* Issue #19: Llama 3.1 405B at its published layout (Llama 3 Table 4:
 * 16,384 H100, TP 8, PP 16, DP 128, 8K sequences, 2,048-sequence batch, no
 * activation checkpointing, §3.3.2) fits, and the predicted MFU is within
 * 15% of the published 400 TFLOPs/GPU = 40.4% of 989 dense BF16. */
static void
test_llama3_405b_published_layout (void)
{
  QmPlan p;
  QmEstimate e;

  plan_for (&p, "llama-3.1-405b", "h100-sxm-80gb", "dgx-h100");
  p.hardware.network = *qm_catalog_network ("eth-400g");
  g_strlcpy (p.network_id, "eth-400g", sizeof p.network_id);
  p.workload.tokens = 15.6e12;
  p.workload.seq_len = 8192;
  p.workload.global_batch = 2048;
  p.workload.micro_batch = 1;
  p.workload.recompute = QM_RECOMPUTE_NONE;
  p.workload.zero_stage = 2;   /* optimizer states and gradients sharded (§3.3.2) */
  p.workload.flash_attention = TRUE;
  p.workload.sequence_parallel = TRUE;
  p.workload.tp = 8;
  p.workload.pp = 16;
  p.workload.cp = 1;
  p.workload.ep = 1;
  /* Llama 3 ran an interleaved 1F1B schedule (§3.3.2, "Pipeline parallelism
   * improvements", Figure 6) and does not give v: "auto" lets the estimate
   * choose it. Absent, the plan would be priced as the engines' default,
   * 1F1B without interleaving, whose bubble (p − 1)/m = 15/16 the run did
   * not pay. */
  p.workload.virtual_stages = 0;
  p.workload.mfu = 0;
  p.workload.target_gpus = 16384;
  qm_estimate (&p, &e);
  g_test_message ("405B published layout: MFU %.3f (published 0.404), v %u, memory %.1f of %.1f GB",
                  e.mfu, e.parallelism.virtual_stages, e.memory.total / 1e9, e.memory.capacity / 1e9);
  g_assert_true (e.valid);
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_PREDICTED);
  g_assert_true (e.memory.fits);
  g_assert_cmpfloat (fabs (e.mfu - 400.0 / 989.0) / (400.0 / 989.0), <, 0.15);
  /* 126 layers on 16 stages: uneven stages, and interleaving is allowed. */
  g_assert_cmpuint (e.parallelism.virtual_stages, >, 1);
}

typedef struct
{
  const char *id, *preset, *gpu, *server, *network;
  guint gpus, tp, pp, cp, ep, mb, batch, seq, zero;
  QmRecompute recompute;
  QmPrecision precision;
} Flagship;

/* Published layouts that trained, so they must fit, with the recompute
 * setting the paper gives:
 *   Llama 3 (arXiv 2407.21783) Table 4 and §3.3.2: no activation
 *     checkpointing, optimizer states and gradients sharded; the 128K
 *     phase with CP 16 (16M tokens per batch throughout).
 *   DeepSeek-V3 (arXiv 2412.19437) §3.2: 2,048 H800, PP 16, EP 64, ZeRO-1,
 *     FP8 (§3.3), recompute of RMSNorm and MLA up-projections (§3.2.3:
 *     selective for MLA), batch 15,360 of 4K tokens (§4.2).
 *   Narayanan 2021 Table 1: 1T on 3,072 A100, TP 8, PP 64, full recompute
 *     (no SP in 2021), batch 3,072 of 2,048 tokens. */
static void
test_flagships_fit (void)
{
  static const Flagship rows[] = {
    { "llama3-405b-8k", "llama-3.1-405b", "h100-sxm-80gb", "dgx-h100", "eth-400g",
      8192, 8, 16, 1, 1, 1, 2048, 8192, 2, QM_RECOMPUTE_NONE, QM_PRECISION_BF16 },
    { "llama3-405b-16k", "llama-3.1-405b", "h100-sxm-80gb", "dgx-h100", "eth-400g",
      16384, 8, 16, 1, 1, 1, 2048, 8192, 2, QM_RECOMPUTE_NONE, QM_PRECISION_BF16 },
    { "llama3-405b-128k-cp16", "llama-3.1-405b", "h100-sxm-80gb", "dgx-h100", "eth-400g",
      16384, 8, 16, 16, 1, 1, 128, 131072, 2, QM_RECOMPUTE_NONE, QM_PRECISION_BF16 },
    { "deepseek-v3", "deepseek-v3", "h800-sxm-80gb", "dgx-h100", "ib-ndr-400",
      2048, 1, 16, 1, 64, 1, 15360, 4096, 1, QM_RECOMPUTE_SELECTIVE, QM_PRECISION_FP8 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const Flagship *r = &rows[i];
      QmPlan p;
      QmEstimate e;

      plan_for (&p, r->preset, r->gpu, r->server);
      p.hardware.network = *qm_catalog_network (r->network);
      g_strlcpy (p.network_id, r->network, sizeof p.network_id);
      p.workload.tokens = 1e12;
      p.workload.seq_len = r->seq;
      p.workload.global_batch = r->batch;
      p.workload.micro_batch = r->mb;
      p.workload.recompute = r->recompute;
      p.workload.zero_stage = r->zero;
      p.workload.precision = r->precision;
      p.workload.flash_attention = TRUE;
      p.workload.sequence_parallel = r->tp > 1;
      p.workload.tp = r->tp;
      p.workload.pp = r->pp;
      p.workload.cp = r->cp;
      p.workload.ep = r->ep;
      p.workload.mfu = 0;
      p.workload.target_gpus = r->gpus;
      qm_estimate (&p, &e);
      g_test_message ("%s: %.1f of %.1f GB (activations %.1f), v %u, MFU %.3f", r->id, e.memory.total / 1e9,
                      e.memory.capacity / 1e9, e.memory.activations / 1e9, e.parallelism.virtual_stages,
                      e.mfu);
      g_assert_true (e.valid);
      g_assert_true (e.memory.fits);
    }

  /* Megatron 1T (GPT block, Narayanan 2021 Table 1), straight through the
   * memory model at its layout. */
  {
    QmModelShape gpt = { .layers = 128, .hidden = 25600, .heads = 160, .kv_heads = 160,
                         .ffn_hidden = 4 * 25600, .vocab = 51200, .tied_embeddings = TRUE,
                         .learned_positions = 2048, .linear_bias = TRUE };
    QmMemoryConfig c = { 0 };
    QmMemoryBreakdown m;

    c.mode = QM_MODE_PRETRAIN;
    c.precision = QM_PRECISION_BF16;
    c.optimizer = QM_OPTIMIZER_ADAMW;
    c.zero_stage = 1;
    c.tp = 8;
    c.pp = 64;
    c.dp = 6;
    c.cp = c.ep = 1;
    c.micro_batch = 1;
    c.seq_len = 2048;
    c.n_microbatches = 512;
    c.virtual_stages = 2;
    c.recompute = QM_RECOMPUTE_FULL;
    c.fp32_grad_buffer = TRUE;
    c.capacity_bytes = qm_gpu_memory_bytes (qm_catalog_gpu ("a100-sxm-80gb"));
    qm_memory_estimate (&gpt, &c, &m);
    g_test_message ("megatron-1t: %.1f of %.1f GB", m.total / 1e9, m.capacity / 1e9);
    g_assert_true (m.fits);
  }
}

/* A reused QmEstimate holds nothing of the one before (issue #24 item 6):
 * each example estimated into a struct first filled with garbage and then
 * with another example's estimate reads exactly as when estimated fresh. */
static void
test_reused_struct_reset (void)
{
  static const char *names[] = {
    "llama-3.1-70b-pretrain-h100.qmplan",
    "llama-3.1-70b-serving-h100.qmplan",
    "mistral-7b-lora-a100.qmplan",
    "llama-3.1-70b-quote-eur.qmplan",
    "7b-pretrain-30-day-deadline.qmplan",
  };
  g_autofree QmEstimate *reused = g_new (QmEstimate, 1);
  g_autofree QmEstimate *fresh = g_new0 (QmEstimate, 1);

  memset (reused, 0xa5, sizeof *reused);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename ("data/examples", names[i], NULL);
      g_autofree char *full = qm_test_source_path (path);
      g_autoptr(GError) error = NULL;
      g_autofree char *json_reused = NULL, *json_fresh = NULL;
      QmPlan p;

      g_assert_true (qm_plan_load_from_file (&p, full, NULL, &error));
      g_assert_no_error (error);
      g_test_message ("%s after %s", names[i], i > 0 ? names[i - 1] : "garbage");
      qm_estimate (&p, reused);
      memset (fresh, 0, sizeof *fresh);
      qm_estimate (&p, fresh);

      json_reused = qm_estimate_to_json (&p, reused, NULL);
      json_fresh = qm_estimate_to_json (&p, fresh, NULL);
      g_assert_cmpstr (json_reused, ==, json_fresh);
      /* Members the JSON leaves out. */
      g_assert_cmpuint (reused->layouts_evaluated, ==, fresh->layouts_evaluated);
      g_assert_cmpuint (reused->priced_global_batch, ==, fresh->priced_global_batch);
      g_assert_cmpint (reused->has_step_time, ==, fresh->has_step_time);
      g_assert_cmpint (reused->mfu_source, ==, fresh->mfu_source);
      g_assert_cmpfloat (reused->run_s, ==, fresh->run_s);
      g_assert_cmpfloat (reused->dataset_bytes, ==, fresh->dataset_bytes);
      g_assert_true (reused->offer == fresh->offer);
      g_assert_true (reused->rack == fresh->rack);
      g_assert_true (reused->liquid_rack == fresh->liquid_rack);
      g_assert_true (reused->pdu == fresh->pdu);
      g_assert_cmpuint (reused->n_errors, ==, fresh->n_errors);
      g_assert_cmpuint (reused->n_assumptions, ==, fresh->n_assumptions);
      g_assert_cmpuint (reused->n_warnings, ==, fresh->n_warnings);
      g_assert_cmpuint (reused->gpus, ==, fresh->gpus);
      g_assert_cmpuint (reused->nodes, ==, fresh->nodes);
    }
}

/* A plan of Llama 3.1 70B, tp 8 pp 4, batch 1,152 (a multiple of 18 and 16
 * data-parallel groups), on @gpus of @gpu in @server under the default
 * facility of qm_plan_init (42U, 40 kW racks), MFU predicted. */
static void
platform_plan (QmPlan     *p,
               const char *gpu,
               const char *server,
               const char *network,
               guint       gpus)
{
  plan_for (p, "llama-3.1-70b", gpu, server);
  p->hardware.network = *qm_catalog_network (network);
  g_strlcpy (p->network_id, network, sizeof p->network_id);
  p->workload.tokens = 1e12;
  p->workload.seq_len = 8192;
  p->workload.global_batch = 1152;
  p->workload.micro_batch = 1;
  p->workload.tp = 8;
  p->workload.pp = 4;
  p->workload.cp = 1;
  p->workload.ep = 1;
  p->workload.mfu = 0;
  p->workload.target_gpus = gpus;
}

static gboolean
has_input_error (const QmEstimate *e)
{
  for (guint i = 0; i < e->n_warnings; i++)
    if (e->warnings[i].id == QM_NOTE_INPUT_ERROR)
      return TRUE;
  return FALSE;
}

/* Issue #32 items 6-7: the 8-GPU platforms of MI300X, MI325X, MI355X and
 * Gaudi 3 and the rack-scale GB200/GB300 NVL72 plan under the default
 * facility, without an input error, and the model prices them. A GB200
 * NVL72 plan is N racks of 72 GPUs at the system's own kW. */
static void
test_platforms_plan (void)
{
  static const struct { const char *gpu, *server, *network; guint gpus; } cases[] = {
    { "mi300x", "xe9680-mi300x",   "ib-ndr-400", 512 },
    { "mi325x", "oam-mi325x-8",    "ib-ndr-400", 512 },
    { "mi355x", "oam-mi355x-8-lc", "ib-ndr-400", 512 },
    { "gaudi3", "xe9680-gaudi3",   "eth-800g",   512 },
    { "gb200",  "gb200-nvl72",     "ib-xdr-800", 576 },
    { "gb300",  "gb300-nvl72",     "ib-xdr-800", 576 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      QmPlan p;
      QmEstimate e;

      platform_plan (&p, cases[i].gpu, cases[i].server, cases[i].network, cases[i].gpus);
      qm_estimate (&p, &e);
      g_test_message ("%s: MFU %.3f, %u nodes, %u racks (%u compute), %.1f kW per compute rack%s",
                      cases[i].server, e.mfu, e.cluster.nodes, e.cluster.racks, e.cluster.compute_racks,
                      e.cluster.rack_kw_peak, e.cluster.liquid_cooling ? ", liquid" : "");
      g_assert_true (e.valid);
      g_assert_false (has_input_error (&e));
      g_assert_true (e.fits);
      g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_PREDICTED);
      g_assert_cmpfloat (e.mfu, >, 0.1);
      g_assert_cmpfloat (e.mfu, <, 0.6);
      g_assert_true (e.has_cost);
      /* Cooled by liquid by design: said so, and a cold-plate rack, not a
       * rear door, for the 8-GPU MI355X platform. */
      g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_LIQUID_BY_DESIGN)
                     == p.hardware.server.liquid_cooled);
      if (p.hardware.server.liquid_cooled && !p.hardware.server.rack_scale)
        {
          g_assert_nonnull (e.liquid_rack);
          g_assert_true (e.liquid_rack->direct_liquid);
        }
      if (p.hardware.server.rack_scale)
        {
          g_assert_cmpuint (e.cluster.nodes, ==, cases[i].gpus / 72);
          g_assert_cmpuint (e.cluster.compute_racks, ==, e.cluster.nodes);
          g_assert_cmpuint (e.cluster.nodes_per_rack, ==, 1);
          qm_assert_rel (e.cluster.rack_kw_peak, p.hardware.server.power_max_w / 1000.0, 1e-9);
          g_assert_true (e.cluster.liquid_cooling);
          g_assert_true (has_note (e.assumptions, e.n_assumptions, QM_NOTE_RACKS_OWN));
          g_assert_false (has_note (e.assumptions, e.n_assumptions, QM_NOTE_RACKS));
        }
    }
}

/* The NVLink domain of a GB200 NVL72 is its 72 GPUs (server.gpus): the
 * search keeps tensor-parallel groups inside it and dividing it (a group of
 * 16 would straddle two racks). */
static void
test_nvl72_domain (void)
{
  QmPlan p;
  QmParallelProblem pb;
  QmParallelSearch res;

  platform_plan (&p, "gb200", "gb200-nvl72", "ib-xdr-800", 2304);
  p.workload.model = qm_catalog_model ("llama-3.1-405b")->shape;
  p.workload.global_batch = 2304;
  p.workload.tp = 0;
  p.workload.pp = 0;
  p.workload.cp = 0;
  qm_parallel_problem_from_plan (&p, 2304, &pb);
  g_assert_cmpuint (pb.server.gpus, ==, 72);
  qm_parallel_search (&pb, 10, &res);
  g_assert_cmpuint (res.n, >, 0);
  for (guint i = 0; i < res.n; i++)
    g_assert_cmpuint (72 % res.top[i].layout.tp, ==, 0);

  /* Without pipeline stages 405B needs more than 8-way TP to fit: the
   * search may not take 16, 32 or 64 inside the rack (it did: a group
   * across two racks priced at NVLink speed); 128 spans two racks
   * honestly, over the NICs. */
  p.workload.pp = 1;
  p.workload.cp = 1;
  qm_parallel_problem_from_plan (&p, 2304, &pb);
  qm_parallel_search (&pb, 10, &res);
  for (guint i = 0; i < res.n; i++)
    g_assert_true (72 % res.top[i].layout.tp == 0 || res.top[i].layout.tp > 72);
  if (res.n == 0)
    g_assert_true (72 % res.no_fit.best_layout.tp == 0 || res.no_fit.best_layout.tp > 72);
}

/* Same peaks, same GEMM efficiency: MI325X (same CDNA3 dies and clocks as
 * MI300X, more and faster HBM) is not faster than MI300X by more than its
 * peak ratio (1.0) explains; the issue saw 35% from a default efficiency.
 * What is left comes from the memory-bound parts of the step (6.0 vs
 * 5.3 TB/s), a few percent at most. */
static void
test_mi325x_not_faster (void)
{
  QmPlan a, b;
  QmEstimate ea, eb;
  double peak_ratio, speedup;

  platform_plan (&a, "mi300x", "xe9680-mi300x", "ib-ndr-400", 512);
  platform_plan (&b, "mi325x", "oam-mi325x-8", "ib-ndr-400", 512);
  qm_estimate (&a, &ea);
  qm_estimate (&b, &eb);
  peak_ratio = b.hardware.gpu.tflops[QM_PRECISION_BF16] / a.hardware.gpu.tflops[QM_PRECISION_BF16];
  speedup = ea.ideal_days / eb.ideal_days;
  g_test_message ("MI325X over MI300X: %.4f (peak ratio %.3f; MFU %.3f vs %.3f)", speedup, peak_ratio,
                  eb.mfu, ea.mfu);
  g_assert_cmpfloat (speedup, <=, peak_ratio * 1.03);
  g_assert_cmpfloat (speedup, >=, peak_ratio * 0.97);
  /* The estimate says where MI325X's GEMM efficiency comes from. */
  g_assert_true (has_note (eb.assumptions, eb.n_assumptions, QM_NOTE_MAMF_SAME_AS));
  g_assert_false (has_note (ea.assumptions, ea.n_assumptions, QM_NOTE_MAMF_SAME_AS));
  g_assert_false (has_note (ea.assumptions, ea.n_assumptions, QM_NOTE_MAMF_DEFAULT));
  /* No measurement and no sibling (H100 PCIe: other clocks and power):
   * the default, named. */
  platform_plan (&a, "h100-pcie-80gb", "pcie-8gpu", "ib-ndr-400", 512);
  qm_estimate (&a, &ea);
  g_assert_true (has_note (ea.assumptions, ea.n_assumptions, QM_NOTE_MAMF_DEFAULT));
}

static const QmNote *
find_note (const QmEstimate *e,
           QmNoteId          id)
{
  for (guint i = 0; i < e->n_assumptions; i++)
    if (e->assumptions[i].id == id)
      return &e->assumptions[i];
  return NULL;
}

/* Issue #32 item 7: a plan that gives tp and pp without virtual_stages is
 * priced as the engines' default, 1F1B without interleaving (Megatron-LM
 * interleaves only with --num-layers-per-virtual-pipeline-stage;
 * torchtitan's default schedule is "1F1B"), on every path (MFU predicted
 * or given, and the search when only tp is left to it), and the
 * assumptions say which schedule was priced. */
static void
test_schedule_stated (void)
{
  QmPlan p;
  QmEstimate e;
  QmParallelProblem pb;
  QmParallelSearch res;
  const QmNote *note;
  char text[1024];

  platform_plan (&p, "h100-sxm-80gb", "dgx-h100", "ib-ndr-400", 512);
  g_assert_cmpuint (p.workload.virtual_stages, ==, QM_VIRTUAL_STAGES_UNSET);
  qm_estimate (&p, &e);
  g_assert_cmpuint (e.parallelism.virtual_stages, ==, 1);
  note = find_note (&e, QM_NOTE_SCHEDULE_1F1B);
  g_assert_nonnull (note);
  qm_note_format (note, text, sizeof text);
  g_assert_nonnull (strstr (text, "1F1B without interleaving"));
  g_assert_null (find_note (&e, QM_NOTE_SCHEDULE_SEARCH));

  /* The MFU given (the hot path): the same schedule and note. */
  p.workload.mfu = 0.4;
  qm_estimate (&p, &e);
  g_assert_cmpuint (e.parallelism.virtual_stages, ==, 1);
  g_assert_nonnull (find_note (&e, QM_NOTE_SCHEDULE_1F1B));

  /* Given: interleaved with v = 5 (80 layers on 4 stages of 5 chunks). */
  p.workload.virtual_stages = 5;
  qm_estimate (&p, &e);
  g_assert_cmpuint (e.parallelism.virtual_stages, ==, 5);
  g_assert_nonnull (find_note (&e, QM_NOTE_SCHEDULE_INTERLEAVED));
  p.workload.mfu = 0;
  qm_estimate (&p, &e);
  g_assert_cmpuint (e.parallelism.virtual_stages, ==, 5);
  g_assert_nonnull (find_note (&e, QM_NOTE_SCHEDULE_INTERLEAVED));

  /* "auto": the estimate chooses, and says so. */
  p.workload.virtual_stages = 0;
  qm_estimate (&p, &e);
  note = find_note (&e, QM_NOTE_SCHEDULE_SEARCH);
  g_assert_nonnull (note);
  g_assert_cmpfloat (note->v[0], ==, e.parallelism.virtual_stages);

  /* The search with pp fixed and virtual_stages absent stays at v = 1. */
  p.workload.virtual_stages = QM_VIRTUAL_STAGES_UNSET;
  p.workload.tp = 0;
  qm_parallel_problem_from_plan (&p, 512, &pb);
  g_assert_cmpuint (pb.virtual_stages, ==, 1);
  qm_parallel_search (&pb, 3, &res);
  g_assert_cmpuint (res.n, >, 0);
  for (guint i = 0; i < res.n; i++)
    g_assert_cmpuint (res.top[i].layout.virtual_stages, ==, 1);
  /* pp "auto" too: the search chooses the interleaving with the stages. */
  p.workload.pp = 0;
  qm_parallel_problem_from_plan (&p, 512, &pb);
  g_assert_cmpuint (pb.virtual_stages, ==, 0);

  /* A plan file keeps the difference: absent stays absent, "auto" and a
   * number are written and read back. */
  {
    static const guint given[] = { QM_VIRTUAL_STAGES_UNSET, 0, 3 };

    for (guint i = 0; i < G_N_ELEMENTS (given); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autofree char *data = NULL;
        gsize length = 0;
        QmPlan q;

        p.workload.virtual_stages = given[i];
        data = qm_plan_to_data (&p, &length);
        g_assert_true ((strstr (data, "virtual_stages") != NULL) == (given[i] != QM_VIRTUAL_STAGES_UNSET));
        g_assert_true (qm_plan_load_from_data (&q, data, (gssize) length, NULL, &error));
        g_assert_no_error (error);
        g_assert_cmpuint (q.workload.virtual_stages, ==, given[i]);
      }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/estimate/llama65b", test_llama65b);
  g_test_add_func ("/estimate/platforms-plan", test_platforms_plan);
  g_test_add_func ("/estimate/mi325x-not-faster", test_mi325x_not_faster);
  g_test_add_func ("/estimate/nvl72-domain", test_nvl72_domain);
  g_test_add_func ("/estimate/schedule-stated", test_schedule_stated);
  g_test_add_func ("/estimate/gpt3", test_gpt3);
  g_test_add_func ("/estimate/seed-rule", test_seed_rule_in_estimate);
  g_test_add_func ("/estimate/params-only", test_params_only);
  g_test_add_func ("/estimate/predicted-mfu", test_predicted_mfu_korthikanti);
  g_test_add_func ("/estimate/no-layout-fits", test_no_layout_fits);
  g_test_add_func ("/estimate/examples", test_examples_estimate);
  g_test_add_func ("/estimate/offer", test_offer);
  g_test_add_func ("/estimate/bad-inputs", test_bad_inputs);
  g_test_add_func ("/estimate/random-plans", test_random_plans);
  g_test_add_func ("/estimate/invalid-inputs", test_invalid_inputs_no_nan);
  g_test_add_func ("/estimate/deadline-with-failures", test_deadline_with_failures);
  g_test_add_func ("/estimate/llama3-405b-published-layout", test_llama3_405b_published_layout);
  g_test_add_func ("/estimate/flagships-fit", test_flagships_fit);
  g_test_add_func ("/estimate/reused-struct-reset", test_reused_struct_reset);
  return g_test_run ();
}
