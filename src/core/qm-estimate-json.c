/* qm-estimate-json.c: the estimate as the contract JSON.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-estimate-json.h"
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

static void
cluster_members (JsonBuilder     *b,
                 const QmCluster *c)
{
  /* plan-format.md `network` is the compute fabric; the totals over the
   * compute, storage and management networks are extra keys. */
  json_builder_set_member_name (b, "network");
  json_builder_begin_object (b);
  member_int (b, "leaf_switches", TRUE, c->network.leaf_switches);
  member_int (b, "spine_switches", TRUE, c->network.spine_switches);
  member_int (b, "core_switches", TRUE, c->network.core_switches);
  member_int (b, "cables", TRUE, c->network.cables);
  member_int (b, "transceivers", TRUE, c->network.transceivers);
  member_int (b, "tiers", TRUE, c->network.tiers);
  member_int (b, "rails", TRUE, c->network.rails);
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

static void
power_members (JsonBuilder   *b,
               const QmPower *p)
{
  json_builder_set_member_name (b, "power_kw");
  json_builder_begin_object (b);
  member_num (b, "gpus", TRUE, p->gpus_kw);
  member_num (b, "servers", TRUE, p->servers_kw);
  member_num (b, "network", TRUE, p->network_kw);
  member_num (b, "storage", TRUE, p->storage_kw);
  member_num (b, "it_peak", TRUE, p->it_peak_kw);
  member_num (b, "it_avg", TRUE, p->it_avg_kw);
  member_num (b, "facility_peak", TRUE, p->facility_peak_kw);
  member_num (b, "facility_avg", TRUE, p->facility_avg_kw);
  member_num (b, "cooling", TRUE, p->cooling_kw);
  member_num (b, "pue", TRUE, p->pue);
  json_builder_end_object (b);
  member_num (b, "energy_mwh", TRUE, p->energy_mwh);
  member_num (b, "co2_tonnes", TRUE, p->co2_tonnes);
  member_num (b, "cooling_btu_h", TRUE, p->cooling_btu_h);
  member_num (b, "electricity_usd", TRUE, p->electricity_usd);
}

static void
cost_members (JsonBuilder  *b,
              const QmPlan *plan,
              const QmCost *c)
{
  const char *as_of = NULL;

  json_builder_set_member_name (b, "cost_usd");
  json_builder_begin_object (b);
  member_num (b, "upfront", TRUE, c->upfront);
  member_num (b, "monthly", TRUE, c->monthly);
  member_num (b, "run", TRUE, c->run);
  member_num (b, "total", TRUE, c->total);
  member_num (b, "hardware", TRUE, c->hardware_usd);
  member_num (b, "installation", TRUE, c->install_usd);
  member_num (b, "rent_monthly", TRUE, c->rent_monthly);
  member_num (b, "horizon_months", TRUE, c->horizon_months);
  member_num (b, "break_even_months", c->break_even_valid, c->break_even_months);
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

static void
reliability_member (JsonBuilder         *b,
                    const QmReliability *r)
{
  json_builder_set_member_name (b, "reliability");
  json_builder_begin_object (b);
  member_str (b, "preset", r->preset);
  member_num (b, "interruptions", TRUE, r->interruptions);
  member_num (b, "checkpoint_bytes", TRUE, r->checkpoint_bytes);
  member_num (b, "checkpoint_write_s", TRUE, r->checkpoint_write_s);
  member_num (b, "checkpoint_interval_s", TRUE, r->checkpoint_interval_s);
  member_num (b, "goodput", TRUE, r->goodput);
  member_num (b, "gpu_hours_per_failure", TRUE, r->gpu_hours_per_failure);
  member_num (b, "mtbf_s", TRUE, r->mtbf_s);
  member_num (b, "restart_s", TRUE, r->restart_s);
  member_num (b, "ideal_s", TRUE, r->ideal_s);
  member_num (b, "wall_s", TRUE, r->wall_s);
  json_builder_end_object (b);
}

static void
inference_member (JsonBuilder       *b,
                  const QmInference *inf)
{
  json_builder_set_member_name (b, "inference");
  json_builder_begin_object (b);
  member_int (b, "gpus", TRUE, inf->gpus);
  member_int (b, "replicas", TRUE, inf->replicas);
  member_num (b, "tokens_per_s_per_gpu", TRUE, inf->tokens_per_s_per_gpu);
  member_num (b, "tokens_per_s_total", TRUE, inf->tokens_per_s_total);
  member_num (b, "ttft_ms", TRUE, inf->ttft_ms);
  member_num (b, "tpot_ms", TRUE, inf->tpot_ms);
  /* Issue 18: percentiles of the request simulation at the plan's rate. */
  member_num (b, "ttft_p50_ms", TRUE, inf->ttft_p50_ms);
  member_num (b, "ttft_p90_ms", TRUE, inf->ttft_p90_ms);
  member_num (b, "ttft_p99_ms", TRUE, inf->ttft_p99_ms);
  member_num (b, "tpot_p50_ms", TRUE, inf->tpot_p50_ms);
  member_num (b, "tpot_p90_ms", TRUE, inf->tpot_p90_ms);
  member_num (b, "tpot_p99_ms", TRUE, inf->tpot_p99_ms);
  member_num (b, "queue_p50_ms", TRUE, inf->queue_p50_ms);
  member_num (b, "queue_p99_ms", TRUE, inf->queue_p99_ms);
  member_num (b, "requests_per_s", TRUE, inf->requests_per_s);
  member_num (b, "replica_tokens_per_s", TRUE, inf->replica_tokens_per_s);
  member_int (b, "max_batch", TRUE, inf->max_batch);
  member_int (b, "gpus_per_replica", TRUE, inf->gpus_per_replica);
  member_int (b, "concurrency", TRUE, inf->concurrency);
  member_num (b, "tokens_per_s_needed", TRUE, inf->tokens_per_s_needed);
  member_num (b, "gpus_exact", TRUE, inf->gpus_exact);
  member_num (b, "weights_bytes", TRUE, inf->weights_bytes);
  member_num (b, "kv_bytes_per_seq", TRUE, inf->kv_bytes_per_seq);
  member_num (b, "memory_per_gpu_bytes", TRUE, inf->memory_per_gpu_bytes);
  member_bool (b, "fits", inf->fits);
  member_bool (b, "meets_ttft", inf->meets_ttft);
  member_bool (b, "meets_tpot", inf->meets_tpot);
  json_builder_end_object (b);
}

/* The throughput model's step (qm-parallel), seconds, exposed parts. */
static void
step_time_member (JsonBuilder          *b,
                  gboolean              applies,
                  const QmParallelTime *t)
{
  json_builder_set_member_name (b, "step_time_s");
  if (!applies)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  member_num (b, "step", TRUE, t->step);
  member_num (b, "compute", TRUE, t->compute);
  member_num (b, "recompute", TRUE, t->recompute);
  member_num (b, "tp_comm", TRUE, t->tp_comm);
  member_num (b, "pp_comm", TRUE, t->pp_comm);
  member_num (b, "dp_comm", TRUE, t->dp_comm);
  member_num (b, "zero_comm", TRUE, t->zero_comm);
  member_num (b, "cp_comm", TRUE, t->cp_comm);
  member_num (b, "ep_comm", TRUE, t->ep_comm);
  member_num (b, "bubble", TRUE, t->bubble);
  member_num (b, "optimizer", TRUE, t->optimizer);
  member_num (b, "tokens_per_s", TRUE, t->tokens_per_s);
  json_builder_end_object (b);
}

static void
notes_array (JsonBuilder  *b,
             const char   *key,
             const QmNote *notes,
             guint         n)
{
  char buf[512];
  /* The JSON is the same in every language (plan-format.md): the notes
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
  const QmMemoryBreakdown *m = &e->memory;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "plan");
  json_builder_add_string_value (b, plan->name);
  json_builder_set_member_name (b, "mode");
  json_builder_add_string_value (b, qm_mode_to_string (e->mode));
  member_num (b, "params", e->params > 0, e->params);
  member_num (b, "active_params", e->active_params > 0, e->active_params);
  member_num (b, "training_flops", tr, e->training_flops);
  member_num (b, "training_flops_6nd", tr, e->training_flops_6nd);
  member_num (b, "hardware_flops", tr, e->hardware_flops);
  member_int (b, "gpus", ok, e->gpus);
  member_int (b, "nodes", ok, e->nodes);
  member_int (b, "racks", ok && e->has_cluster, e->cluster.racks);

  json_builder_set_member_name (b, "parallelism");
  if (ok)
    {
      json_builder_begin_object (b);
      member_int (b, "tp", TRUE, e->parallelism.tp);
      member_int (b, "pp", TRUE, e->parallelism.pp);
      member_int (b, "dp", TRUE, e->parallelism.dp);
      member_int (b, "cp", TRUE, e->parallelism.cp);
      member_int (b, "ep", TRUE, e->parallelism.ep);
      member_int (b, "micro_batch", TRUE, e->parallelism.micro_batch);
      member_int (b, "zero_stage", TRUE, e->parallelism.zero_stage);
      json_builder_set_member_name (b, "recompute");
      json_builder_add_string_value (b, qm_recompute_to_string (e->parallelism.recompute));
      json_builder_set_member_name (b, "sequence_parallel");
      json_builder_add_boolean_value (b, e->parallelism.sequence_parallel);
      member_int (b, "virtual_stages", TRUE, MAX (e->parallelism.virtual_stages, 1u));
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  member_num (b, "mfu", tr, e->mfu);
  json_builder_set_member_name (b, "mfu_source");
  if (tr)
    json_builder_add_string_value (b, qm_mfu_source_to_string (e->mfu_source));
  else
    json_builder_add_null_value (b);
  member_num (b, "hfu", tr && e->has_step_time, e->step_time.hfu);
  step_time_member (b, tr && e->has_step_time, &e->step_time);
  member_int (b, "layouts_evaluated", tr && e->layouts_evaluated > 0,
              (gint64) e->layouts_evaluated);
  member_int (b, "priced_global_batch", tr && e->priced_global_batch > 0,
              e->priced_global_batch);
  member_num (b, "ideal_days", tr, e->ideal_days);
  member_num (b, "train_days", tr, e->train_days);
  member_num (b, "gpu_hours", tr, e->gpu_hours);

  json_builder_set_member_name (b, "memory_bytes");
  if (ok)
    {
      json_builder_begin_object (b);
      member_num (b, "weights", TRUE, m->weights);
      member_num (b, "gradients", TRUE, m->gradients);
      member_num (b, "optimizer", TRUE, m->optimizer);
      member_num (b, "activations", TRUE, m->activations);
      member_num (b, "kv_cache", TRUE, m->kv_cache);
      member_num (b, "overhead", TRUE, m->overhead);
      member_num (b, "total", TRUE, m->total);
      member_num (b, "capacity", TRUE, m->capacity);
      member_num (b, "margin", TRUE, m->margin);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "fits");
  if (ok)
    json_builder_add_boolean_value (b, e->fits);
  else
    json_builder_add_null_value (b);

  /* The modules: null when they did not run or do not apply to the mode. */
  if (ok && e->has_power)
    power_members (b, &e->power);
  else
    {
      member_null (b, "power_kw");
      member_null (b, "energy_mwh");
      member_null (b, "co2_tonnes");
      member_null (b, "cooling_btu_h");
      member_null (b, "electricity_usd");
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
  if (tr && e->has_reliability)
    reliability_member (b, &e->reliability);
  else
    member_null (b, "reliability");
  if (ok && e->has_inference)
    inference_member (b, &e->inference);
  else
    member_null (b, "inference");

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
