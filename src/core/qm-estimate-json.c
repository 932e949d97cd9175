/* qm-estimate-json.c: the estimate as the contract JSON.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-estimate-json.h"

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
notes_array (JsonBuilder  *b,
             const char   *key,
             const QmNote *notes,
             guint         n)
{
  char buf[512];

  json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_string_value (b, qm_note_format (&notes[i], buf, sizeof buf));
  json_builder_end_array (b);
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
  member_null (b, "racks");   /* qm-cluster */

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

  /* Filled by modules wired in later; null until then. */
  member_null (b, "power_kw");
  member_null (b, "energy_mwh");
  member_null (b, "co2_tonnes");
  member_null (b, "cooling_btu_h");
  member_null (b, "network");
  member_null (b, "cost_usd");
  member_null (b, "bom");
  member_null (b, "reliability");
  member_null (b, "inference");

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
