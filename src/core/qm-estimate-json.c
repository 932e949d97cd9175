/* qm-estimate-json.c: the estimate as the contract JSON.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-estimate-json.h"
#include "qm-json-members.h"
#include "qm-price-age.h"
#include "qm-text.h"

static void
member_null (JsonBuilder *b,
             const char  *key)
{
  json_builder_set_member_name (b, key);
  json_builder_add_null_value (b);
}

/* A number, or null when it does not apply or is not finite. */
static void
member_num (JsonBuilder *b,
            const char  *key,
            gboolean     applies,
            double       v)
{
  json_builder_set_member_name (b, key);
  if (applies && isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
member_int (JsonBuilder *b,
            const char  *key,
            gboolean     applies,
            gint64       v)
{
  json_builder_set_member_name (b, key);
  if (applies)
    json_builder_add_int_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
member_str (JsonBuilder *b,
            const char  *key,
            const char  *v)
{
  json_builder_set_member_name (b, key);
  if (v != NULL)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
member_bool (JsonBuilder *b,
             const char  *key,
             gboolean     v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, v);
}

/* Rows of member tables (qm-json-members.h). */
#define NUM(Type, key, member)  QM_JSON_MEMBER (key, QM_JSON_NUMBER, Type, member, double)
#define UINT(Type, key, member) QM_JSON_MEMBER (key, QM_JSON_UINT, Type, member, guint)
#define BOOL(Type, key, member) QM_JSON_MEMBER (key, QM_JSON_BOOL, Type, member, gboolean)
#define OPTNUM(Type, key, member) QM_JSON_MEMBER (key, QM_JSON_OPTIONAL, Type, member, double)

/* An object member @key holding the table's members. */
static void
table_object (JsonBuilder        *b,
              const char         *key,
              gconstpointer       base,
              const QmJsonMember *members,
              guint               n)
{
  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  qm_json_add_members (b, base, members, n);
  json_builder_end_object (b);
}

static const QmJsonMember fabric_members[] = {
  UINT (QmFabric, "leaf_switches", leaf_switches),
  UINT (QmFabric, "spine_switches", spine_switches),
  UINT (QmFabric, "core_switches", core_switches),
  UINT (QmFabric, "cables", cables),
  UINT (QmFabric, "transceivers", transceivers),
  UINT (QmFabric, "tiers", tiers),
  UINT (QmFabric, "rails", rails),
};

static void
cluster_members (JsonBuilder     *b,
                 const QmCluster *c)
{
  /* docs/plan-file.md `network` is the compute fabric; the totals over the
   * compute, storage and management networks are extra keys. */
  json_builder_set_member_name (b, "network");
  json_builder_begin_object (b);
  qm_json_add_members (b, &c->network, fabric_members, G_N_ELEMENTS (fabric_members));
  member_int (b, "storage_switches", TRUE,
              c->storage_network.leaf_switches + c->storage_network.spine_switches
              + c->storage_network.core_switches);
  member_int (b, "management_switches", TRUE, c->mgmt_switches);
  member_int (b, "total_switches", TRUE, c->switches + c->mgmt_switches);
  member_int (b, "total_cables", TRUE, c->cables);
  member_int (b, "total_transceivers", TRUE, c->transceivers);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "cluster");
  json_builder_begin_object (b);
  member_int (b, "nodes_per_rack", TRUE, c->nodes_per_rack);
  member_int (b, "nodes_per_rack_by_units", TRUE, c->nodes_per_rack_by_units);
  member_int (b, "nodes_per_rack_by_kw", TRUE, c->nodes_per_rack_by_kw);
  member_str (b, "rack_limit", c->rack_limited_by_kw ? "kw" : "units");
  member_int (b, "compute_racks", TRUE, c->compute_racks);
  member_int (b, "network_racks", TRUE, c->network_racks);
  member_int (b, "storage_racks", TRUE, c->storage_racks);
  member_num (b, "node_power_w", TRUE, c->node_power_w);
  member_num (b, "rack_kw_peak", TRUE, c->rack_kw_peak);
  member_bool (b, "liquid_cooling", c->liquid_cooling);
  member_num (b, "storage_bytes", TRUE, c->storage_bytes);
  member_num (b, "storage_write_bytes_per_s", TRUE, c->storage_write_bytes_per_s);
  json_builder_end_object (b);
}

static const QmJsonMember power_kw_members[] = {
  NUM (QmPower, "gpus", gpus_kw),
  NUM (QmPower, "servers", servers_kw),
  NUM (QmPower, "network", network_kw),
  NUM (QmPower, "storage", storage_kw),
  NUM (QmPower, "it_peak", it_peak_kw),
  NUM (QmPower, "it_avg", it_avg_kw),
  NUM (QmPower, "facility_peak", facility_peak_kw),
  NUM (QmPower, "facility_avg", facility_avg_kw),
  NUM (QmPower, "cooling", cooling_kw),
  NUM (QmPower, "pue", pue),
};

static const QmJsonMember power_members[] = {
  NUM (QmPower, "energy_mwh", energy_mwh),
  NUM (QmPower, "co2_tonnes", co2_tonnes),
  NUM (QmPower, "cooling_btu_h", cooling_btu_h),
  NUM (QmPower, "electricity_usd", electricity_usd),
};

static const QmJsonMember cost_members_usd[] = {
  NUM (QmCost, "upfront", upfront),
  NUM (QmCost, "monthly", monthly),
  NUM (QmCost, "run", run),
  NUM (QmCost, "total", total),
  NUM (QmCost, "hardware", hardware_usd),
  NUM (QmCost, "installation", install_usd),
  NUM (QmCost, "rent_monthly", rent_monthly),
  NUM (QmCost, "horizon_months", horizon_months),
};

static void
cost_members (JsonBuilder  *b,
              const QmPlan *plan,
              const QmCost *c)
{
  const char *as_of = NULL;

  json_builder_set_member_name (b, "cost_usd");
  json_builder_begin_object (b);
  qm_json_add_members (b, c, cost_members_usd, G_N_ELEMENTS (cost_members_usd));
  member_int (b, "break_even_month", c->break_even_valid, c->break_even_month);
  member_str (b, "pricing", qm_pricing_mode_to_string (plan->pricing.mode));
  member_str (b, "currency", plan->pricing.currency);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "bom");
  json_builder_begin_array (b);
  for (guint i = 0; i < c->n_bom; i++)
    {
      const QmBomLine *l = &c->bom[i];

      json_builder_begin_object (b);
      member_str (b, "item", l->item);
      member_str (b, "catalog_id", l->catalog_id);
      member_num (b, "qty", TRUE, l->qty);
      member_num (b, "unit_usd", TRUE, l->unit_usd);
      member_num (b, "total_usd", TRUE, l->total_usd);
      member_str (b, "source", l->source);
      member_str (b, "as_of", l->as_of);
      json_builder_end_object (b);
      /* The BOM's date: the newest price date among its lines. */
      if (l->as_of && (as_of == NULL || g_strcmp0 (l->as_of, as_of) > 0))
        as_of = l->as_of;
    }
  json_builder_end_array (b);
  member_str (b, "bom_as_of", as_of);
}

/* The date the plan's prices are as of (qm-price-age.h): the OLDEST
 * catalog date among the priced lines, where bom_as_of is the newest. */
static void
prices_as_of_member (JsonBuilder      *b,
                     const QmEstimate *e)
{
  g_autofree char *iso = e != NULL ? qm_prices_as_of_iso (e) : NULL;

  if (iso != NULL)
    member_str (b, "prices_as_of", iso);
  else
    member_null (b, "prices_as_of");
}

static const QmJsonMember reliability_members[] = {
  NUM (QmReliability, "interruptions", interruptions),
  NUM (QmReliability, "checkpoint_bytes", checkpoint_bytes),
  NUM (QmReliability, "checkpoint_write_s", checkpoint_write_s),
  NUM (QmReliability, "checkpoint_interval_s", checkpoint_interval_s),
  NUM (QmReliability, "goodput", goodput),
  NUM (QmReliability, "gpu_hours_per_failure", gpu_hours_per_failure),
  NUM (QmReliability, "mtbf_s", mtbf_s),
  NUM (QmReliability, "restart_s", restart_s),
  NUM (QmReliability, "ideal_s", ideal_s),
  NUM (QmReliability, "wall_s", wall_s),
};

static void
reliability_member (JsonBuilder         *b,
                    const QmReliability *r)
{
  json_builder_set_member_name (b, "reliability");
  json_builder_begin_object (b);
  member_str (b, "preset", r->preset);
  qm_json_add_members (b, r, reliability_members, G_N_ELEMENTS (reliability_members));
  json_builder_end_object (b);
}

static const QmJsonMember inference_members[] = {
  UINT (QmInference, "gpus", gpus),
  UINT (QmInference, "replicas", replicas),
  NUM (QmInference, "tokens_per_s_per_gpu", tokens_per_s_per_gpu),
  NUM (QmInference, "tokens_per_s_total", tokens_per_s_total),
  NUM (QmInference, "ttft_ms", ttft_ms),
  NUM (QmInference, "tpot_ms", tpot_ms),
  /* Issue 18: percentiles of the request simulation at the plan's rate. */
  NUM (QmInference, "ttft_p50_ms", ttft_p50_ms),
  NUM (QmInference, "ttft_p90_ms", ttft_p90_ms),
  NUM (QmInference, "ttft_p99_ms", ttft_p99_ms),
  NUM (QmInference, "tpot_p50_ms", tpot_p50_ms),
  NUM (QmInference, "tpot_p90_ms", tpot_p90_ms),
  NUM (QmInference, "tpot_p99_ms", tpot_p99_ms),
  NUM (QmInference, "queue_p50_ms", queue_p50_ms),
  NUM (QmInference, "queue_p99_ms", queue_p99_ms),
  NUM (QmInference, "requests_per_s", requests_per_s),
  NUM (QmInference, "replica_tokens_per_s", replica_tokens_per_s),
  UINT (QmInference, "max_batch", max_batch),
  UINT (QmInference, "gpus_per_replica", gpus_per_replica),
  UINT (QmInference, "concurrency", concurrency),
  NUM (QmInference, "tokens_per_s_needed", tokens_per_s_needed),
  NUM (QmInference, "gpus_exact", gpus_exact),
  NUM (QmInference, "weights_bytes", weights_bytes),
  NUM (QmInference, "kv_bytes_per_seq", kv_bytes_per_seq),
  NUM (QmInference, "memory_per_gpu_bytes", memory_per_gpu_bytes),
  BOOL (QmInference, "fits", fits),
  BOOL (QmInference, "meets_ttft", meets_ttft),
  BOOL (QmInference, "meets_tpot", meets_tpot),
  /* Issue 31: a plan with target.gpus keeps them; what they hold. Null
   * when the fleet was sized for the rate (max_requests_per_s) or the
   * plan has no rate (headroom). */
  BOOL (QmInference, "fixed_fleet", fixed_fleet),
  OPTNUM (QmInference, "max_requests_per_s", max_requests_per_s),
  NUM (QmInference, "headroom", headroom),
  UINT (QmInference, "gpus_for_rate", gpus_for_rate),
  UINT (QmInference, "idle_gpus", idle_gpus),
};

/* The throughput model's step (qm-parallel), seconds, exposed parts. */
static const QmJsonMember step_time_members[] = {
  NUM (QmParallelTime, "step", step),
  NUM (QmParallelTime, "compute", compute),
  NUM (QmParallelTime, "recompute", recompute),
  NUM (QmParallelTime, "tp_comm", tp_comm),
  NUM (QmParallelTime, "pp_comm", pp_comm),
  NUM (QmParallelTime, "dp_comm", dp_comm),
  NUM (QmParallelTime, "zero_comm", zero_comm),
  NUM (QmParallelTime, "cp_comm", cp_comm),
  NUM (QmParallelTime, "ep_comm", ep_comm),
  NUM (QmParallelTime, "bubble", bubble),
  NUM (QmParallelTime, "optimizer", optimizer),
  NUM (QmParallelTime, "tokens_per_s", tokens_per_s),
};

static const QmJsonMember memory_members[] = {
  NUM (QmMemoryBreakdown, "weights", weights),
  NUM (QmMemoryBreakdown, "gradients", gradients),
  NUM (QmMemoryBreakdown, "optimizer", optimizer),
  NUM (QmMemoryBreakdown, "activations", activations),
  NUM (QmMemoryBreakdown, "kv_cache", kv_cache),
  NUM (QmMemoryBreakdown, "overhead", overhead),
  NUM (QmMemoryBreakdown, "total", total),
  NUM (QmMemoryBreakdown, "capacity", capacity),
  NUM (QmMemoryBreakdown, "margin", margin),
};

static const QmJsonMember parallelism_members[] = {
  UINT (QmParallelism, "tp", tp),
  UINT (QmParallelism, "pp", pp),
  UINT (QmParallelism, "dp", dp),
  UINT (QmParallelism, "cp", cp),
  UINT (QmParallelism, "ep", ep),
  UINT (QmParallelism, "micro_batch", micro_batch),
  UINT (QmParallelism, "zero_stage", zero_stage),
};

static void
parallelism_member (JsonBuilder         *b,
                    const QmParallelism *p)
{
  json_builder_set_member_name (b, "parallelism");
  json_builder_begin_object (b);
  qm_json_add_members (b, p, parallelism_members, G_N_ELEMENTS (parallelism_members));
  member_str (b, "recompute", qm_recompute_to_string (p->recompute));
  member_bool (b, "sequence_parallel", p->sequence_parallel);
  member_int (b, "virtual_stages", TRUE, MAX (p->virtual_stages, 1u));
  json_builder_end_object (b);
}

/* The modules: null when they did not run or do not apply to the mode. */
static void
module_members (JsonBuilder      *b,
                const QmPlan     *plan,
                const QmEstimate *e)
{
  gboolean ok = e->valid;
  gboolean tr = e->valid && e->has_training;

  if (ok && e->has_power)
    {
      table_object (b, "power_kw", &e->power, power_kw_members, G_N_ELEMENTS (power_kw_members));
      qm_json_add_members (b, &e->power, power_members, G_N_ELEMENTS (power_members));
    }
  else
    {
      member_null (b, "power_kw");
      for (guint i = 0; i < G_N_ELEMENTS (power_members); i++)
        member_null (b, power_members[i].key);
    }
  if (ok && e->has_cluster)
    cluster_members (b, &e->cluster);
  else
    {
      member_null (b, "network");
      member_null (b, "cluster");
    }
  if (ok && e->has_cost)
    cost_members (b, plan, &e->cost);
  else
    {
      member_null (b, "cost_usd");
      member_null (b, "bom");
      member_null (b, "bom_as_of");
    }
  prices_as_of_member (b, ok ? e : NULL);
  if (tr && e->has_reliability)
    reliability_member (b, &e->reliability);
  else
    member_null (b, "reliability");
  if (ok && e->has_inference)
    {
      json_builder_set_member_name (b, "inference");
      json_builder_begin_object (b);
      qm_json_add_members (b, &e->inference, inference_members, G_N_ELEMENTS (inference_members));
      /* Issue 31: the serving engine the estimate ran, and its version. */
      if (e->inference.engine != NULL)
        {
          json_builder_set_member_name (b, "engine");
          json_builder_add_string_value (b, e->inference.engine->info.id);
          json_builder_set_member_name (b, "engine_version");
          json_builder_add_string_value (b, e->inference.engine->version);
        }
      json_builder_end_object (b);
    }
  else
    member_null (b, "inference");
}

/* Issue #36: {low, high, basis} for each band, or null where none. */
static void
band_member (JsonBuilder  *b,
             const char   *key,
             const QmBand *band,
             const char   *basis)
{
  json_builder_set_member_name (b, key);
  if (!band->set)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  member_num (b, "low", TRUE, band->low);
  member_num (b, "high", TRUE, band->high);
  member_str (b, "basis", basis);
  json_builder_end_object (b);
}

static void
bands_member (JsonBuilder      *b,
              const QmPlan     *plan,
              const QmEstimate *e)
{
  const QmBands *bd = &e->bands;
  g_autofree char *basis = NULL;
  locale_t old;

  if (!e->valid || !bd->has)
    {
      member_null (b, "bands");
      return;
    }
  /* In the C locale's words, as the notes (docs/plan-file.md). */
  old = qm_text_begin_c_locale ();
  basis = qm_estimate_bands_basis (plan, e);
  qm_text_end_c_locale (old);
  json_builder_set_member_name (b, "bands");
  json_builder_begin_object (b);
  member_str (b, "basis", basis);
  member_str (b, "gpu_family", bd->fit.family->family);
  member_str (b, "kind", bd->fit.family->kind);
  member_int (b, "runs", TRUE, bd->fit.family->runs);
  member_bool (b, "covered", bd->fit.covered);
  member_num (b, "error_p10", TRUE, bd->fit.p10);
  member_num (b, "error_p90", TRUE, bd->fit.p90);
  member_num (b, "confidence", TRUE, bd->confidence);
  member_num (b, "deadline_error", TRUE, bd->deadline_error);
  band_member (b, "mfu", &bd->mfu, basis);
  band_member (b, "train_days", &bd->train_days, basis);
  band_member (b, "gpus", &bd->gpus, basis);
  band_member (b, "tokens_per_s_per_gpu", &bd->tokens_per_s_per_gpu, basis);
  json_builder_end_object (b);
}

static void
notes_array (JsonBuilder  *b,
             const char   *key,
             const QmNote *notes,
             guint         n)
{
  char buf[512];
  /* The JSON is the same in every language (docs/plan-file.md): the notes
   * in the C locale's words and numbers, whatever the user's locale. */
  locale_t old = qm_text_begin_c_locale ();

  json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_string_value (b, qm_note_format (&notes[i], buf, sizeof buf));
  json_builder_end_array (b);
  qm_text_end_c_locale (old);
}

JsonNode *
qm_estimate_to_json_node (const QmPlan     *plan,
                          const QmEstimate *e)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();
  gboolean ok = e->valid;
  gboolean tr = e->valid && e->has_training;

  json_builder_begin_object (b);
  /* A nameless plan is "", as ever, not null. */
  json_builder_set_member_name (b, "plan");
  json_builder_add_string_value (b, plan->name);
  member_str (b, "mode", qm_mode_to_string (e->mode));
  member_num (b, "params", e->params > 0, e->params);
  member_num (b, "active_params", e->active_params > 0, e->active_params);
  member_num (b, "training_flops", tr, e->training_flops);
  member_num (b, "training_flops_6nd", tr, e->training_flops_6nd);
  member_num (b, "hardware_flops", tr, e->hardware_flops);
  member_int (b, "gpus", ok, e->gpus);
  member_int (b, "nodes", ok, e->nodes);
  member_int (b, "racks", ok && e->has_cluster, e->cluster.racks);
  if (ok)
    parallelism_member (b, &e->parallelism);
  else
    member_null (b, "parallelism");

  member_num (b, "mfu", tr, e->mfu);
  member_str (b, "mfu_source", tr ? qm_mfu_source_to_string (e->mfu_source) : NULL);
  member_num (b, "hfu", tr && e->has_step_time, e->step_time.hfu);
  if (tr && e->has_step_time)
    table_object (b, "step_time_s", &e->step_time, step_time_members,
                G_N_ELEMENTS (step_time_members));
  else
    member_null (b, "step_time_s");
  member_int (b, "layouts_evaluated", tr && e->layouts_evaluated > 0,
              (gint64) e->layouts_evaluated);
  member_int (b, "priced_global_batch", tr && e->priced_global_batch > 0,
              e->priced_global_batch);
  member_num (b, "ideal_days", tr, e->ideal_days);
  member_num (b, "train_days", tr, e->train_days);
  member_num (b, "gpu_hours", tr, e->gpu_hours);

  if (ok)
    {
      table_object (b, "memory_bytes", &e->memory, memory_members, G_N_ELEMENTS (memory_members));
      member_bool (b, "fits", e->fits);
    }
  else
    {
      member_null (b, "memory_bytes");
      member_null (b, "fits");
    }

  module_members (b, plan, e);
  bands_member (b, plan, e);

  member_int (b, "errors", TRUE, e->n_errors);
  notes_array (b, "assumptions", e->assumptions, e->n_assumptions);
  notes_array (b, "warnings", e->warnings, e->n_warnings);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
qm_estimate_to_json (const QmPlan     *plan,
                     const QmEstimate *e,
                     gsize            *length)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = qm_estimate_to_json_node (plan, e);

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  return json_generator_to_data (gen, length);
}
