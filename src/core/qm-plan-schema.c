/* qm-plan-schema.c: every plan key, declared once (docs/plan-file.md).
 *
 * The rows are in the order the writer writes them; the reader reads them
 * in the same order. Ranges that relate two keys (heads against hidden, tp
 * against the server) stay in qm_plan_validate(), which runs after these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-engine.h"
#include "qm-model.h"
#include "qm-plan-private.h"
#include "qm-reliability.h"

/* ------------------------------------------------------------------ */
/* Enums the rows name                                                */

static gboolean
training_precision_from_string (const char *s,
                                int        *out)
{
  QmPrecision p;

  /* Training runs in the formats the GPUs have a dense peak for. */
  if (!qm_precision_from_string (s, &p) ||
      (p != QM_PRECISION_FP32 && p != QM_PRECISION_FP16 && p != QM_PRECISION_BF16 &&
       p != QM_PRECISION_FP8))
    return FALSE;
  *out = p;
  return TRUE;
}

static const char *
arrival_to_string (int value)
{
  return value == QM_ARRIVAL_OFFLINE ? "offline" : "poisson";
}

/* workload.inference.engine: "auto" or an engine id of the catalog. */
static const char *
engine_to_string (int value)
{
  guint n;
  const QmEngineSpec *engines = qm_engines (&n);

  return value > 0 && (guint) value <= n ? engines[value - 1].info.id : "auto";
}

static gboolean
engine_from_string (const char *s,
                    int        *out)
{
  guint n;
  const QmEngineSpec *engines = qm_engines (&n);

  if (g_strcmp0 (s, "auto") == 0)
    {
      *out = 0;
      return TRUE;
    }
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (s, engines[i].info.id) == 0)
      {
        *out = (int) i + 1;
        return TRUE;
      }
  return FALSE;
}

static gboolean
arrival_from_string (const char *s,
                     int        *out)
{
  if (g_strcmp0 (s, "poisson") == 0)
    *out = QM_ARRIVAL_POISSON;
  else if (g_strcmp0 (s, "offline") == 0)
    *out = QM_ARRIVAL_OFFLINE;
  else
    return FALSE;
  return TRUE;
}

#define TO_S(fn)   .to_string = (QmEnumToString) (void (*) (void)) (fn)
#define FROM_S(fn) .from_string = (QmEnumFromString) (void (*) (void)) (fn)
#define PRECISION  TO_S (qm_precision_to_string), FROM_S (qm_precision_from_string), \
                   .choices = "fp32, fp16, bf16, fp8, int8, fp4, int4"

/* ------------------------------------------------------------------ */
/* Rows whose reading or writing differs from their type's            */

static gboolean
is_training (const QmPlan *p)
{
  return p->workload.mode != QM_MODE_INFERENCE;
}

static gboolean
has_mla (const QmPlan *p)
{
  return p->workload.model.kv_lora_rank != 0;
}

/* workload.virtual_stages is written when the plan gives it: a number, or
 * "auto" (0); absent stays absent (QM_VIRTUAL_STAGES_UNSET), which means
 * something else (qm_workload_virtual_stages). */
static gboolean
virtual_stages_given (const QmPlan *p)
{
  return p->workload.virtual_stages != QM_VIRTUAL_STAGES_UNSET;
}

/* A number, or "auto" for 0; nothing when absent (not written, and no
 * default to show: absence has its own meaning). */
static void
write_virtual_stages (JsonBuilder     *b,
                      const QmPlanKey *key,
                      const QmPlan    *p)
{
  guint v = p->workload.virtual_stages;

  if (v == QM_VIRTUAL_STAGES_UNSET)
    return;
  json_builder_set_member_name (b, qm_plan_key_name (key));
  if (v == 0)
    json_builder_add_string_value (b, "auto");
  else
    json_builder_add_int_value (b, v);
}

static gboolean
by_deadline (const QmPlan *p)
{
  return p->workload.target_gpus == 0;
}

/* format and version are read first, before anything else (qm-plan.c). */
static gboolean
read_header (QmPlanReader    *r,
             const QmPlanKey *key,
             JsonObject      *o,
             QmPlan          *p,
             GError         **error)
{
  return TRUE;
}

static void
write_header (JsonBuilder     *b,
              const QmPlanKey *key,
              const QmPlan    *p)
{
  json_builder_set_member_name (b, key->path);
  if (key->type == QM_PLAN_KEY_STRING)
    json_builder_add_string_value (b, QM_PLAN_FORMAT);
  else
    json_builder_add_int_value (b, QM_PLAN_VERSION);
}

/* The file stands alone: a GQA model's kv_heads is written even when the
 * preset left it 0 for "as many as the heads". */
static void
write_kv_heads (JsonBuilder     *b,
                const QmPlanKey *key,
                const QmPlan    *p)
{
  json_builder_set_member_name (b, "kv_heads");
  json_builder_add_int_value (b, qm_model_kv_heads (&p->workload.model));
}

static gboolean
resolve_preset (QmPlanReader    *r,
                const QmPlanKey *key,
                JsonObject      *o,
                QmPlan          *p,
                GError         **error)
{
  const QmModelPreset *preset;

  if (p->workload.preset[0] == '\0')
    return TRUE;
  preset = qm_catalog_model (p->workload.preset);
  if (preset == NULL)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_UNKNOWN_ID, QM_PROBLEM_UNKNOWN_PRESET, key->path,
                                 TRUE, json_object_get_member (o, "preset"), NULL, 0, 0);
  /* The shape fields that follow override the preset's. */
  p->workload.model = preset->shape;
  return TRUE;
}

static gboolean
check_params_b (QmPlanReader    *r,
                const QmPlanKey *key,
                JsonObject      *o,
                QmPlan          *p,
                GError         **error)
{
  double params_b = p->workload.model.params_hint / 1e9;

  if (qm_plan_reader_present (r, key->path) && (!(params_b > 0) || params_b > 1e5))
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_PARAMS_RANGE, key->path,
                                 TRUE, json_object_get_member (o, "params_b"), NULL, 0, 1e5);
  return TRUE;
}

/* Without a preset, a shape is all of its core fields or none of them. */
static gboolean
check_model (QmPlanReader    *r,
             const QmPlanKey *key,
             JsonObject      *o,
             QmPlan          *p,
             GError         **error)
{
  static const char *shape[] = {
    "layers", "hidden", "heads", "vocab", "ffn_hidden", "kv_heads", "head_dim", "experts"
  };
  guint n_core = 5;
  gboolean any = FALSE;

  if (p->workload.preset[0] != '\0')
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (shape); i++)
    any |= qm_plan_reader_present (r, qm_plan_reader_path (r, key->path, shape[i]));
  if (!any)
    return qm_plan_reader_present (r, "workload.model.params_b")
           ? TRUE : qm_plan_fail_missing (error, key->path, QM_PROBLEM_MISSING_MODEL, NULL);
  for (guint i = 0; i < n_core; i++)
    if (!qm_plan_reader_present (r, qm_plan_reader_path (r, key->path, shape[i])))
      return qm_plan_fail_missing (error, qm_plan_reader_path (r, key->path, shape[i]),
                                   QM_PROBLEM_MISSING_SHAPE, NULL);
  return TRUE;
}

static gboolean
default_lora_rank (QmPlanReader    *r,
                   const QmPlanKey *key,
                   JsonObject      *o,
                   QmPlan          *p,
                   GError         **error)
{
  QmWorkload *w = &p->workload;

  if ((w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA) &&
      !qm_plan_reader_present (r, key->path))
    w->lora_rank = 16;   /* HF PEFT examples; QLoRA §4 found r barely matters */
  return TRUE;
}

static gboolean
check_target (QmPlanReader    *r,
              const QmPlanKey *key,
              JsonObject      *o,
              QmPlan          *p,
              GError         **error)
{
  gboolean have_gpus = qm_plan_reader_present (r, "target.gpus");
  gboolean have_deadline = qm_plan_reader_present (r, "target.deadline_days");

  if (o == NULL)
    return TRUE;
  if (have_gpus == have_deadline)
    return qm_plan_fail_missing (error, "target", QM_PROBLEM_TARGET_ONE_OF, NULL);
  if (have_gpus && p->workload.target_gpus < 1)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_AT_LEAST, "target.gpus",
                                 TRUE, json_object_get_member (o, "gpus"), NULL, 1, 0);
  if (have_deadline && !(p->workload.deadline_days > 0))
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_POSITIVE,
                                 "target.deadline_days", TRUE,
                                 json_object_get_member (o, "deadline_days"), NULL, 0, 0);
  return TRUE;
}

/* hardware.<kind> (an id) and/or hardware.<kind>_spec (an embedded entry):
 * where each kind keeps its id, its spec and whether it was embedded. */
static void
hardware_slots (const QmPlanKey *key,
                QmPlan          *p,
                gpointer        *spec,
                gsize           *spec_size,
                gboolean       **embedded)
{
  switch (key->kind)
    {
    case QM_CATALOG_KIND_GPU:
      *spec = &p->hardware.gpu, *spec_size = sizeof p->hardware.gpu, *embedded = &p->gpu_embedded;
      break;
    case QM_CATALOG_KIND_SERVER:
      *spec = &p->hardware.server, *spec_size = sizeof p->hardware.server;
      *embedded = &p->server_embedded;
      break;
    case QM_CATALOG_KIND_NETWORK:
      *spec = &p->hardware.network, *spec_size = sizeof p->hardware.network;
      *embedded = &p->network_embedded;
      break;
    default:
      *spec = &p->hardware.storage, *spec_size = sizeof p->hardware.storage;
      *embedded = &p->storage_embedded;
      break;
    }
}

static gconstpointer
hardware_lookup (QmCatalogKind  kind,
                 const char    *id)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:     return qm_catalog_gpu (id);
    case QM_CATALOG_KIND_SERVER:  return qm_catalog_server (id);
    case QM_CATALOG_KIND_NETWORK: return qm_catalog_network (id);
    default:                      return qm_catalog_storage (id);
    }
}

static gboolean
read_hardware_item (QmPlanReader    *r,
                    const QmPlanKey *key,
                    JsonObject      *o,
                    QmPlan          *p,
                    GError         **error)
{
  const char *kind = qm_plan_key_name (key);
  g_autofree char *spec_key = g_strconcat (kind, "_spec", NULL);
  char *id_out = (char *) p + key->offset;
  gpointer spec_out;
  gsize spec_size;
  gboolean *embedded;
  JsonObject *spec;

  hardware_slots (key, p, &spec_out, &spec_size, &embedded);
  if (!qm_plan_reader_string (r, o, "hardware", kind, id_out, QM_ID_LEN, error) ||
      !qm_plan_reader_object (r, o, "hardware", spec_key, &spec, error))
    return FALSE;

  if (spec != NULL)
    {
      g_autoptr(GError) local = NULL;

      if (!qm_catalog_parse_object (key->kind, spec, 0, spec_out, &local))
        {
          g_autofree char *path = g_strconcat ("hardware.", spec_key, NULL);

          /* The catalog reader's own message names the field in the entry. */
          return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_BAD_SPEC, path,
                                       FALSE, NULL, local->message, 0, 0);
        }
      *embedded = TRUE;
      if (id_out[0] == '\0')
        g_strlcpy (id_out, ((const QmCatalogInfo *) spec_out)->id
                           ? ((const QmCatalogInfo *) spec_out)->id : "", QM_ID_LEN);
      return TRUE;
    }

  if (id_out[0] == '\0')
    return (key->flags & QM_PLAN_KEY_REQUIRED)
           ? qm_plan_fail_missing (error, key->path, QM_PROBLEM_MISSING_HARDWARE, spec_key)
           : TRUE;
  {
    gconstpointer found = hardware_lookup (key->kind, id_out);

    if (found == NULL)
      return qm_plan_fail_problem (error, QM_PLAN_ERROR_UNKNOWN_ID, QM_PROBLEM_UNKNOWN_HARDWARE,
                                   key->path, TRUE, json_object_get_member (o, kind), spec_key, 0, 0);
    memcpy (spec_out, found, spec_size);
  }
  return TRUE;
}

/* Read with its id by read_hardware_item(). */
static gboolean
read_nothing (QmPlanReader    *r,
              const QmPlanKey *key,
              JsonObject      *o,
              QmPlan          *p,
              GError         **error)
{
  return TRUE;
}

/* An embedded catalog entry, written as the catalog parser reads it. */
static void
write_spec (JsonBuilder     *b,
            const QmPlanKey *key,
            const QmPlan    *p)
{
  JsonNode *node;
  gpointer spec;
  gsize spec_size;
  gboolean *embedded;

  hardware_slots (key, (QmPlan *) p, &spec, &spec_size, &embedded);
  if (!*embedded)
    return;
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, qm_catalog_spec_to_json (key->kind, spec));
  json_builder_set_member_name (b, qm_plan_key_name (key));
  json_builder_add_value (b, node);
}

static gboolean
check_server_gpu (QmPlanReader    *r,
                  const QmPlanKey *key,
                  JsonObject      *o,
                  QmPlan          *p,
                  GError         **error)
{
  if (p->hardware.server.gpu_id && p->gpu_id[0] &&
      strcmp (p->hardware.server.gpu_id, p->gpu_id) != 0)
    qm_plan_reader_warn_problem (r, QM_PROBLEM_SERVER_HOLDS_OTHER_GPU, "hardware.server",
                                 p->server_id, p->hardware.server.gpu_id, p->gpu_id);
  return TRUE;
}

/* pricing.offer (extension): a catalog cloud offer. Its price stands in
 * for usd_per_gpu_hour unless the plan gives one. */
static gboolean
resolve_offer (QmPlanReader    *r,
               const QmPlanKey *key,
               JsonObject      *o,
               QmPlan          *p,
               GError         **error)
{
  const QmCloudOffer *offer;

  if (p->offer_id[0] == '\0')
    return TRUE;
  offer = qm_catalog_cloud_offer (p->offer_id);
  if (offer == NULL)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_UNKNOWN_ID, QM_PROBLEM_UNKNOWN_OFFER, key->path,
                                 TRUE, json_object_get_member (o, "offer"), NULL, 0, 0);
  if (!qm_plan_reader_present (r, "pricing.usd_per_gpu_hour"))
    p->pricing.usd_per_gpu_hour = 0;
  if (offer->gpu_id && p->gpu_id[0] && strcmp (offer->gpu_id, p->gpu_id) != 0)
    qm_plan_reader_warn_problem (r, QM_PROBLEM_OFFER_RENTS_OTHER_GPU, "pricing.offer",
                                 p->offer_id, offer->gpu_id, p->gpu_id);
  return TRUE;
}

static gboolean
check_failure_preset (QmPlanReader    *r,
                      const QmPlanKey *key,
                      JsonObject      *o,
                      QmPlan          *p,
                      GError         **error)
{
  g_autoptr(GString) ids = NULL;

  if (qm_failure_preset_from_string (p->reliability_preset, &(QmFailurePreset) { 0 }))
    return TRUE;
  ids = g_string_new (NULL);
  for (guint i = 0; i < QM_N_FAILURE_PRESETS; i++)
    g_string_append_printf (ids, "%s%s", i ? " or " : "",
                            qm_failure_preset_info ((QmFailurePreset) i)->id);
  return qm_plan_fail_problem (error, QM_PLAN_ERROR_UNKNOWN_ID, QM_PROBLEM_UNKNOWN_FAILURE_PRESET,
                               key->path, TRUE, json_object_get_member (o, "preset"), ids->str, 0, 0);
}

/* ------------------------------------------------------------------ */
/* The table                                                          */

#define OFF(member)   .offset = G_STRUCT_OFFSET (QmPlan, member)
#define SIZE(member)  .size = sizeof (((QmPlan *) NULL)->member)
#define RANGE(lo, hi, text) .min = (lo), .max = (hi), .range = (text)
#define SECTION(p, ...) { .path = p, .type = QM_PLAN_KEY_OBJECT, .offset = -1, __VA_ARGS__ }
#define NUM(p, m, ...)  { .path = p, .type = QM_PLAN_KEY_NUMBER, OFF (m), __VA_ARGS__ }
#define INT(p, m, ...)  { .path = p, .type = QM_PLAN_KEY_INTEGER, OFF (m), __VA_ARGS__ }
#define BOOL(p, m, ...) { .path = p, .type = QM_PLAN_KEY_BOOL, OFF (m), __VA_ARGS__ }
#define ENUM(p, m, ...) { .path = p, .type = QM_PLAN_KEY_ENUM, OFF (m), __VA_ARGS__ }
#define STR(p, m, ...)  { .path = p, .type = QM_PLAN_KEY_STRING, OFF (m), SIZE (m), __VA_ARGS__ }
#define ID(p, m, k, ...) { .path = p, .type = QM_PLAN_KEY_ID, OFF (m), SIZE (m), \
                           .kind = QM_CATALOG_KIND_##k, __VA_ARGS__ }
#define SPEC(p, k)      { .path = p, .type = QM_PLAN_KEY_SPEC, .offset = -1, \
                          .kind = QM_CATALOG_KIND_##k, .read = read_nothing, .write = write_spec }
#define SHAPE_INT(name, more_flags, ...) INT ("workload.model." #name, workload.model.name, \
                                              .flags = QM_PLAN_KEY_SHAPE | (more_flags), __VA_ARGS__)

#define TRAINING  .modes = QM_PLAN_MODES_TRAINING
#define SERVING   .modes = QM_PLAN_MODES_SERVING
#define BILLION   .scale = 1e9
#define ANY_MORE  G_MAXDOUBLE
#define EXCL      QM_PLAN_KEY_MIN_EXCLUSIVE
#define OPT       QM_PLAN_KEY_OPTIONAL

static const QmPlanKey keys[] = {
  { .path = "format", .type = QM_PLAN_KEY_STRING, .offset = -1, .flags = QM_PLAN_KEY_REQUIRED,
    .read = read_header, .write = write_header },
  { .path = "version", .type = QM_PLAN_KEY_INTEGER, .offset = -1, .flags = QM_PLAN_KEY_REQUIRED,
    .read = read_header, .write = write_header },
  STR ("name", name),
  STR ("notes", notes, .flags = QM_PLAN_KEY_MULTILINE),
  STR ("customer", customer, .flags = OPT),
  STR ("quote_ref", quote_ref, .flags = OPT),

  SECTION ("workload", .flags = QM_PLAN_KEY_REQUIRED),
  ENUM ("workload.mode", workload.mode, .flags = QM_PLAN_KEY_REQUIRED,
        TO_S (qm_mode_to_string), FROM_S (qm_mode_from_string),
        .choices = "pretrain, finetune, lora, qlora, inference", .label = N_("Goal")),
  SECTION ("workload.model", .flags = QM_PLAN_KEY_REQUIRED, .after_read = check_model),
  ID ("workload.model.preset", workload.preset, MODEL, .flags = OPT, .after_read = resolve_preset,
      .label = N_("Model")),
  SHAPE_INT (layers, 0, RANGE (1, 1000, N_("must be from 1 to 1000")), .label = N_("Layers"),
             .help = N_("Transformer blocks stacked on top of each other")),
  SHAPE_INT (hidden, 0, RANGE (1, 1000000, N_("must be from 1 to 1000000")), .label = N_("Hidden Size"),
             .help = N_("Width of each layer")),
  SHAPE_INT (heads, 0, .label = N_("Attention Heads"), .help = N_("Must divide the hidden size")),
  SHAPE_INT (kv_heads, 0, .write = write_kv_heads, .auto_rule = "0: as many as the heads",
             .label = N_("Key-Value Heads"), .help = N_("0 = as many as the heads")),
  SHAPE_INT (head_dim, OPT, RANGE (0, 65536, N_("must be at most 65536")),
             .auto_rule = "0: hidden / heads"),
  SHAPE_INT (ffn_hidden, 0, RANGE (0, 10000000, N_("must be at most 10000000")),
             .label = N_("Feed-Forward Size"), .help = N_("Width of the MLP inside each layer")),
  SHAPE_INT (vocab, 0, RANGE (2, 10000000, N_("must be from 2 to 10000000")), .label = N_("Vocabulary"),
             .help = N_("Distinct tokens the model knows")),
  BOOL ("workload.model.gated_mlp", workload.model.gated_mlp, .flags = QM_PLAN_KEY_SHAPE),
  BOOL ("workload.model.tied_embeddings", workload.model.tied_embeddings,
        .flags = QM_PLAN_KEY_SHAPE),
  SHAPE_INT (experts, QM_PLAN_KEY_AT_LEAST_ONE, RANGE (0, 65536, N_("must be at most 65536")),
             .auto_rule = "0 or 1: a dense model",
             .label = N_("Experts"), .help = N_("0 or 1 = a dense model")),
  SHAPE_INT (experts_per_token, QM_PLAN_KEY_AT_LEAST_ONE, .label = N_("Experts per Token"),
             .help = N_("Experts each token is routed to")),
  SHAPE_INT (shared_experts, 0, RANGE (0, 1024, N_("must be at most 1024"))),
  SHAPE_INT (moe_ffn_hidden, 0, RANGE (0, 10000000, N_("must be at most 10000000")),
             .label = N_("Expert Feed-Forward Size")),
  SHAPE_INT (dense_layers, OPT),
  SHAPE_INT (q_lora_rank, 0, .written = has_mla),
  SHAPE_INT (kv_lora_rank, 0, .written = has_mla),
  SHAPE_INT (rope_head_dim, 0, .written = has_mla),
  NUM ("workload.model.params_b", workload.model.params_hint, .flags = OPT, BILLION,
       .unit = NC_("unit", "billions"), .after_read = check_params_b, .label = N_("Parameters")),
  NUM ("workload.tokens_b", workload.tokens, .flags = QM_PLAN_KEY_REQUIRED, BILLION, TRAINING,
       .unit = NC_("unit", "billions"), .written = is_training, .label = N_("Training Tokens"),
       .help = N_("Per epoch, more than 0")),
  NUM ("workload.epochs", workload.epochs, RANGE (0, 10000, N_("must be > 0 and at most 10000")),
       .flags = EXCL, TRAINING, .label = N_("Passes over the Data"),
       .help = N_("Epochs; 1 for pretraining, a few for fine-tuning")),
  INT ("workload.seq_len", workload.seq_len, RANGE (1, 100000000, N_("must be from 1 to 100000000")),
       .unit = NC_("unit", "tokens"), .label = N_("Sequence Length"), .help = N_("Tokens per sequence")),
  INT ("workload.global_batch", workload.global_batch,
       RANGE (1, 100000000, N_("must be from 1 to 100000000")), .unit = NC_("unit", "sequences"),
       .label = N_("Global Batch"), .help = N_("Sequences per training step, over all GPUs")),
  INT ("workload.micro_batch", workload.micro_batch, .unit = NC_("unit", "sequences"),
       .label = N_("Micro-Batch"), .help = N_("Sequences each GPU works on at once")),
  ENUM ("workload.precision", workload.precision, TO_S (qm_precision_to_string),
        .from_string = training_precision_from_string, .choices = "fp32, fp16, bf16, fp8",
        .label = N_("Number Format")),
  ENUM ("workload.optimizer", workload.optimizer, TO_S (qm_optimizer_to_string),
        FROM_S (qm_optimizer_from_string), .choices = "adamw, adamw-8bit, sgd, adafactor",
        .label = N_("Optimizer")),
  INT ("workload.zero_stage", workload.zero_stage, RANGE (0, 3, N_("must be 0, 1, 2 or 3")),
       .label = N_("Memory Sharding (ZeRO/FSDP)")),
  ENUM ("workload.recompute", workload.recompute, TO_S (qm_recompute_to_string),
        FROM_S (qm_recompute_from_string), .choices = "none, selective, full, selective-op",
        .label = N_("Activation Recomputation")),
  INT ("workload.recompute_layers", workload.recompute_layers, .flags = OPT, TRAINING,
       RANGE (0, 1000000, N_("must be at most 1000000")),
       .auto_rule = "absent: every layer, when recompute is full",
       .label = N_("Recomputed Layers"),
       .help = N_("With full recomputation: layers per pipeline stage recomputed, the rest keep "
                  "their activations; 0 = all")),
  INT ("workload.shard_group", workload.shard_group, .flags = OPT, TRAINING,
       RANGE (0, 100000000, N_("must be at most 100000000")),
       .auto_rule = "absent: shard over all data-parallel GPUs",
       .label = N_("Sharding Group"),
       .help = N_("GPUs that share the sharded model states (hybrid sharding); copies are kept "
                  "across groups; 0 = all data-parallel GPUs")),
  BOOL ("workload.fp8_weights", workload.fp8_weights, .flags = OPT, TRAINING,
        .label = N_("FP8 Weights"),
        .help = N_("With the fp8 number format: keep the weights in fp8, one byte each")),
  BOOL ("workload.flash_attention", workload.flash_attention, .label = N_("FlashAttention"),
        .help = N_("A faster attention kernel that also saves memory")),
  BOOL ("workload.sequence_parallel", workload.sequence_parallel),
  BOOL ("workload.fp32_grad_buffer", workload.fp32_grad_buffer, .flags = OPT),
  ENUM ("workload.tp_overlap", workload.tp_overlap, .flags = OPT, TO_S (qm_tp_overlap_to_string),
        FROM_S (qm_tp_overlap_from_string), .choices = "none, bulk, pipelined, auto",
        .auto_rule = "auto: the layout search picks the fastest"),
  INT ("workload.tp", workload.tp, .flags = QM_PLAN_KEY_AUTO, .label = N_("Tensor Parallel"),
       .help = N_("GPUs that share each layer; must divide the GPUs of a server")),
  INT ("workload.pp", workload.pp, .flags = QM_PLAN_KEY_AUTO, .label = N_("Pipeline Parallel"),
       .help = N_("Groups of layers placed on successive GPUs")),
  INT ("workload.cp", workload.cp, .flags = QM_PLAN_KEY_AUTO,
       RANGE (0, 1000000, N_("must be \"auto\" or 1 to 1000000")), .label = N_("Context Parallel"),
       .help = N_("GPUs that share one long sequence")),
  INT ("workload.ep", workload.ep, .flags = QM_PLAN_KEY_AUTO, .label = N_("Expert Parallel"),
       .help = N_("GPUs the experts of a mixture-of-experts model are spread over")),
  INT ("workload.virtual_stages", workload.virtual_stages, .flags = QM_PLAN_KEY_AUTO,
       .written = virtual_stages_given, .write = write_virtual_stages,
       .auto_rule = "\"auto\": chosen by the layout search; absent: 1 (1F1B without interleaving, the "
                    "engines' default) when pp is given, else chosen by the search"),
  NUM ("workload.mfu", workload.mfu, .flags = QM_PLAN_KEY_AUTO | EXCL,
       RANGE (0, 1, N_("must be > 0 and <= 1")), .auto_rule = "predicted by the throughput model",
       .label = N_("Model FLOPs Utilisation"), .help = N_("More than 0%, at most 100%")),
  INT ("workload.lora_rank", workload.lora_rank, RANGE (0, 65536, N_("must be at most 65536")),
       .after_read = default_lora_rank, .auto_rule = "absent: 16 for LoRA and QLoRA",
       .label = N_("LoRA Rank"), .help = N_("Size of the add-on weights; 8 to 64 is typical")),
  ENUM ("workload.lora_targets", workload.lora_targets, TO_S (qm_lora_targets_to_string),
        FROM_S (qm_lora_targets_from_string), .choices = "all, attention", .flags = OPT,
        .modes = QM_PLAN_MODE (QM_MODE_LORA) | QM_PLAN_MODE (QM_MODE_QLORA),
        .auto_rule = "absent: all", .label = N_("LoRA Layers"),
        .help = N_("Which layers get add-on weights: all, or the attention layers only")),

  SECTION ("workload.inference", .flags = QM_PLAN_KEY_REQUIRED, SERVING),
  NUM ("workload.inference.requests_per_minute", workload.inference.requests_per_minute,
       RANGE (0, 1e9, N_("must be >= 0 and at most 1e9")), SERVING, .label = N_("Requests per Minute"),
       .help = N_("At the busiest time of day")),
  INT ("workload.inference.input_tokens", workload.inference.input_tokens, SERVING,
       .unit = NC_("unit", "tokens"), .label = N_("Prompt Length"), .help = N_("Tokens sent with each request")),
  INT ("workload.inference.output_tokens", workload.inference.output_tokens, SERVING,
       .unit = NC_("unit", "tokens"), .label = N_("Answer Length"),
       .help = N_("Tokens generated for each request")),
  INT ("workload.inference.concurrency", workload.inference.concurrency, .flags = OPT, SERVING,
       RANGE (0, 1000000, N_("must be at most 1000000")),
       .auto_rule = "absent: from the request rate and the latency targets",
       .label = N_("Requests in Flight"), .help = N_("Sequences in flight per replica; 0 = derive")),
  ENUM ("workload.inference.weight_precision", workload.inference.weight_precision, PRECISION,
        SERVING, .label = N_("Weight Format")),
  ENUM ("workload.inference.kv_precision", workload.inference.kv_precision, PRECISION, SERVING,
        .label = N_("Attention Cache Format")),
  NUM ("workload.inference.ttft_ms", workload.inference.ttft_ms, RANGE (0, ANY_MORE, N_("must be >= 0")),
       SERVING, .unit = NC_("unit", "ms"), .label = N_("Time to First Token"),
       .help = N_("How soon an answer starts to appear")),
  NUM ("workload.inference.tpot_ms", workload.inference.tpot_ms, RANGE (0, ANY_MORE, N_("must be >= 0")),
       SERVING, .unit = NC_("unit", "ms"), .label = N_("Time per Token"),
       .help = N_("How fast the answer is written after that")),
  ENUM ("workload.inference.arrival", workload.inference.arrival, .flags = OPT, SERVING,
        .to_string = arrival_to_string, .from_string = arrival_from_string,
        .choices = "poisson, offline"),
  NUM ("workload.inference.input_tokens_sd", workload.inference.input_tokens_sd, .flags = OPT,
       RANGE (0, 1e8, N_("must be from 0 to 1e8")), SERVING, .unit = NC_("unit", "tokens")),
  NUM ("workload.inference.output_tokens_sd", workload.inference.output_tokens_sd, .flags = OPT,
       RANGE (0, 1e8, N_("must be from 0 to 1e8")), SERVING, .unit = NC_("unit", "tokens")),
  STR ("workload.inference.lengths_csv", workload.inference.lengths_csv, .flags = OPT, SERVING),
  INT ("workload.inference.max_sequences", workload.inference.max_sequences, .flags = OPT,
       RANGE (0, 1000000, N_("must be at most 1000000")), SERVING),
  ENUM ("workload.inference.engine", workload.inference.engine, .flags = OPT, SERVING,
        .to_string = engine_to_string, .from_string = engine_from_string,
        .choices = "auto, tensorrt-llm, vllm, sglang",
        .auto_rule = "auto: tensorrt-llm on NVIDIA GPUs, vllm on the others",
        .label = N_("Serving Engine"), .help = N_("The software that runs the model")),
  INT ("workload.inference.max_batch_tokens", workload.inference.max_batch_tokens, .flags = OPT,
       RANGE (0, 10000000, N_("must be at most 10000000")), SERVING,
       .auto_rule = "absent: the engine's default for the GPU",
       .label = N_("Tokens per Step"), .help = N_("Prompt and answer tokens one engine step runs; 0 = the engine's default")),

  SECTION ("target", .flags = QM_PLAN_KEY_REQUIRED, .after_read = check_target),
  INT ("target.gpus", workload.target_gpus, .flags = OPT, .label = N_("Number of GPUs"),
       .help = N_("The cluster you have, or want to rent")),
  NUM ("target.deadline_days", workload.deadline_days, .written = by_deadline, .unit = NC_("unit", "days"),
       .label = N_("Finish Within"), .help = N_("Finish within this many days")),
  NUM ("target.confidence", workload.deadline_confidence, .flags = OPT,
       RANGE (0.5, 0.9, N_("must be from 0.5 to 0.9")), .written = by_deadline,
       .auto_rule = "absent: 0.5, the estimate itself",
       .label = N_("Confidence"),
       .help = N_("How sure the deadline is to be met: 0.5 likely, 0.9 almost certainly")),

  SECTION ("hardware", .flags = QM_PLAN_KEY_REQUIRED, .after_read = check_server_gpu),
  ID ("hardware.gpu", gpu_id, GPU, .flags = QM_PLAN_KEY_REQUIRED, .read = read_hardware_item,
      .label = N_("GPU")),
  ID ("hardware.server", server_id, SERVER, .flags = QM_PLAN_KEY_REQUIRED,
      .read = read_hardware_item, .label = N_("Server"), .help = N_("Only servers that hold this GPU")),
  ID ("hardware.network", network_id, NETWORK, .flags = OPT, .read = read_hardware_item,
      .label = N_("Network")),
  ID ("hardware.storage", storage_id, STORAGE, .flags = OPT, .read = read_hardware_item,
      .label = N_("Storage")),
  SPEC ("hardware.gpu_spec", GPU),
  SPEC ("hardware.server_spec", SERVER),
  SPEC ("hardware.network_spec", NETWORK),
  SPEC ("hardware.storage_spec", STORAGE),

  SECTION ("facility"),
  NUM ("facility.pue", facility.pue, RANGE (1, 3, N_("must be from 1 to 3")),
       .label = N_("Power Usage Effectiveness"),
       .help = N_("Facility power divided by IT power; 1.1 to 1.5 is typical")),
  NUM ("facility.usd_per_kwh", facility.usd_per_kwh, RANGE (0, 10, N_("must be from 0 to 10")),
       .unit = NC_("unit", "USD/kWh"), .label = N_("Electricity Price"), .help = N_("Per kilowatt-hour")),
  NUM ("facility.rack_kw", facility.rack_kw, .flags = EXCL,
       RANGE (0, 2000, N_("must be > 0 and at most 2000")), .unit = NC_("unit", "kW"), .label = N_("Power per Rack"),
       .help = N_("Kilowatts each rack can be supplied and cooled with")),
  INT ("facility.rack_units", facility.rack_units, RANGE (1, 100, N_("must be from 1 to 100")),
       .unit = NC_("unit", "U"), .label = N_("Rack Height"), .help = N_("Usable rack units (U) in each rack")),
  NUM ("facility.gco2_per_kwh", facility.gco2_per_kwh, RANGE (0, 2000, N_("must be from 0 to 2000")),
       .unit = NC_("unit", "gCO2e/kWh"), .label = N_("Grid Carbon Intensity"),
       .help = N_("Grams of CO₂e per kilowatt-hour of the local grid")),
  NUM ("facility.air_cooling_kw", facility.air_cooling_kw, .flags = OPT,
       RANGE (0, ANY_MORE, N_("must be >= 0")), .unit = NC_("unit", "kW")),
  NUM ("facility.colo_usd_per_kw_month", facility.colo_usd_per_kw_month, .flags = OPT,
       RANGE (0, ANY_MORE, N_("must be >= 0")), .unit = NC_("unit", "USD/kW/month")),

  SECTION ("pricing"),
  ENUM ("pricing.mode", pricing.mode, TO_S (qm_pricing_mode_to_string),
        FROM_S (qm_pricing_mode_from_string), .choices = "buy, rent, rent-reserved",
        .label = N_("Buy or Rent")),
  NUM ("pricing.usd_per_gpu_hour", pricing.usd_per_gpu_hour,
       RANGE (0, 1000, N_("must be from 0 to 1000")), .unit = NC_("unit", "USD"), .label = N_("Price per GPU-Hour"),
       .help = N_("Renting; when buying, for the break-even. 0 to 1,000")),
  NUM ("pricing.amortization_years", pricing.amortization_years, .flags = EXCL,
       RANGE (0, 30, N_("must be > 0 and at most 30")), .unit = NC_("unit", "years"), .label = N_("Write Off Over"),
       .help = N_("Years over which bought hardware is paid off")),
  NUM ("pricing.support_fraction", pricing.support_fraction, .flags = OPT,
       RANGE (0, 1, N_("must be from 0 to 1"))),
  STR ("pricing.currency", pricing.currency, .label = N_("Currency")),
  ID ("pricing.offer", offer_id, CLOUD, .flags = OPT, .after_read = resolve_offer,
      .label = N_("Cloud Offer")),

  SECTION ("reliability"),
  STR ("reliability.preset", reliability_preset, .after_read = check_failure_preset,
       .label = N_("Failure Rates")),
  NUM ("reliability.restart_minutes", restart_minutes,
       RANGE (0, 100000, N_("must be from 0 to 100000")), .unit = NC_("unit", "minutes"), .label = N_("Restart Time"),
       .help = N_("Detect, reschedule and reload after a failure")),

  /* The terms a quote is made on (docs/quotes.md); written only when the
   * plan has a quote. */
  SECTION ("quote", .written = qm_plan_quote_has, .after_read = qm_plan_quote_check),
  STR ("quote.currency", quote.currency, .label = N_("Currency"),
       .help = N_("ISO 4217 code of the quote’s currency, such as EUR")),
  NUM ("quote.exchange_rate", quote.exchange_rate, .flags = OPT,
       RANGE (0, 1e6, N_("must be from 0 to 1000000")), .unit = NC_("unit", "per USD"),
       .auto_rule = "absent or 0: the store's rate at the quote date (1 for USD)",
       .label = N_("Exchange Rate"), .help = N_("Units of the quote’s currency per US dollar")),
  NUM ("quote.tax_rate", quote.tax_rate, .flags = OPT, RANGE (0, 1, N_("must be from 0 to 1")),
       .label = N_("Tax Rate"), .help = N_("VAT or sales tax, as a fraction of the net total")),
  { .path = "quote.discounts", .type = QM_PLAN_KEY_OBJECT, .offset = -1,
    .read = qm_plan_quote_read_discounts, .write = qm_plan_quote_write_discounts,
    .auto_rule = "files before per-line terms: catalog id: fraction off the list price of every line "
                 "with that id, from 0 to 1; written only until the quote is priced and edited" },
  { .path = "quote.lines", .type = QM_PLAN_KEY_OBJECT, .offset = -1,
    .read = qm_plan_quote_read_lines, .write = qm_plan_quote_write_lines,
    .auto_rule = "line key (role:catalog-id, docs/quotes.md): { discount (fraction off list, 0 to 1), "
                 "vendor, lead_weeks (0 to 520), support_rate (yearly, 0 to 1) }" },
  NUM ("quote.spares_fraction", quote.spares_fraction, .flags = OPT,
       RANGE (0, 1, N_("must be from 0 to 1")), .label = N_("Spares"),
       .help = N_("Spare servers as a fraction of the servers, rounded up")),
  NUM ("quote.support_years", quote.support_years, .flags = OPT,
       RANGE (0, 20, N_("must be from 0 to 20")), .unit = NC_("unit", "years"), .label = N_("Support Contract")),
  NUM ("quote.support_rate", quote.support_rate, .flags = OPT,
       RANGE (0, 1, N_("must be from 0 to 1")), .auto_rule = "absent: pricing.support_fraction",
       .label = N_("Support Rate"), .help = N_("Yearly support as a fraction of the list price")),
  NUM ("quote.shipping_fraction", quote.shipping_fraction, .flags = OPT,
       RANGE (0, 1, N_("must be from 0 to 1")), .label = N_("Shipping"),
       .help = N_("Shipping as a fraction of the hardware")),
  NUM ("quote.deposit_fraction", quote.deposit_fraction, RANGE (0, 1, N_("must be from 0 to 1")),
       .label = N_("Deposit"), .help = N_("Paid at order, as a fraction of the gross total")),
  NUM ("quote.payment_days", quote.payment_days, RANGE (0, 365, N_("must be from 0 to 365")),
       .unit = NC_("unit", "days"), .label = N_("Payment Terms"), .help = N_("Days after each delivery")),
  NUM ("quote.lead_weeks", quote.lead_weeks, RANGE (0, 520, N_("must be from 0 to 520")),
       .unit = NC_("unit", "weeks"), .label = N_("Lead Time")),
  { .path = "quote.phases", .type = QM_PLAN_KEY_NUMBER, .offset = -1,
    .read = qm_plan_quote_read_phases, .write = qm_plan_quote_write_phases,
    .auto_rule = "a list of fractions of the nodes, adding up to 1; absent: one delivery" },
  INT ("quote.phase_interval_months", quote.phase_interval_months,
       RANGE (1, 24, N_("must be from 1 to 24")), .unit = NC_("unit", "months"), .label = N_("Months between Deliveries")),
  INT ("quote.valid_days", quote.valid_days, RANGE (1, 3650, N_("must be from 1 to 3650")),
       .unit = NC_("unit", "days"), .label = N_("Valid For")),
};

G_STATIC_ASSERT (G_N_ELEMENTS (keys) <= QM_PLAN_MAX_KEYS);

const QmPlanKey *
qm_plan_schema_keys (guint *n_keys)
{
  *n_keys = G_N_ELEMENTS (keys);
  return keys;
}

/* The row of each row's section (-1 at the top), found once: the reader
 * and the writer ask for every row of every plan the store loads. */
int
qm_plan_schema_parent (guint i)
{
  static int parents[G_N_ELEMENTS (keys)];
  static gsize done = 0;

  g_return_val_if_fail (i < G_N_ELEMENTS (keys), -1);
  if (g_once_init_enter (&done))
    {
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          const char *dot = strrchr (keys[k].path, '.');

          parents[k] = -1;
          for (guint j = 0; dot && j < k; j++)
            if (strncmp (keys[j].path, keys[k].path, dot - keys[k].path) == 0 &&
                keys[j].path[dot - keys[k].path] == '\0')
              parents[k] = j;
        }
      g_once_init_leave (&done, 1);
    }
  return parents[i];
}

const QmPlanKey *
qm_plan_schema_lookup (const char *path)
{
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strcmp (keys[i].path, path) == 0)
      return &keys[i];
  return NULL;
}

const char *
qm_plan_key_name (const QmPlanKey *key)
{
  const char *dot = strrchr (key->path, '.');

  return dot ? dot + 1 : key->path;
}

const char *
qm_plan_key_type_name (const QmPlanKey *key)
{
  static const char *names[] = {
    [QM_PLAN_KEY_NUMBER] = "number", [QM_PLAN_KEY_INTEGER] = "integer",
    [QM_PLAN_KEY_ENUM] = "enum", [QM_PLAN_KEY_BOOL] = "bool", [QM_PLAN_KEY_STRING] = "string",
    [QM_PLAN_KEY_ID] = "id", [QM_PLAN_KEY_SPEC] = "catalog entry", [QM_PLAN_KEY_OBJECT] = "object",
  };

  return names[key->type];
}

/* ------------------------------------------------------------------ */
/* Wizard (issue #21): values by key, for form rows                   */

double
qm_plan_key_get_value (const QmPlanKey *key,
                       const QmPlan    *plan)
{
  gconstpointer where;

  g_return_val_if_fail (key->offset >= 0, 0);
  where = G_STRUCT_MEMBER_P (plan, key->offset);
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:  return *(const double *) where;
    case QM_PLAN_KEY_INTEGER: return *(const guint *) where;
    case QM_PLAN_KEY_ENUM:    return *(const int *) where;
    case QM_PLAN_KEY_BOOL:    return *(const gboolean *) where;
    default:                  g_return_val_if_reached (0);
    }
}

void
qm_plan_key_set_value (const QmPlanKey *key,
                       QmPlan          *plan,
                       double           value)
{
  gpointer where;

  g_return_if_fail (key->offset >= 0);
  where = G_STRUCT_MEMBER_P (plan, key->offset);
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:  *(double *) where = value; break;
    case QM_PLAN_KEY_INTEGER: *(guint *) where = (guint) value; break;
    case QM_PLAN_KEY_ENUM:    *(int *) where = (int) value; break;
    case QM_PLAN_KEY_BOOL:    *(gboolean *) where = value != 0; break;
    default:                  g_return_if_reached ();
    }
}

/* ------------------------------------------------------------------ */
/* Value accessors for forms and reports (task planview, issue #21)   */

static double
key_scale (const QmPlanKey *key)
{
  return key->scale != 0 ? key->scale : 1;
}

double
qm_plan_key_get_number (const QmPlanKey *key,
                        const QmPlan    *plan)
{
  gconstpointer at = (const char *) plan + key->offset;

  g_return_val_if_fail (key->offset >= 0, 0);
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:  return *(const double *) at / key_scale (key);
    case QM_PLAN_KEY_INTEGER: return *(const guint *) at;
    case QM_PLAN_KEY_ENUM:    return *(const int *) at;
    case QM_PLAN_KEY_BOOL:    return *(const gboolean *) at;
    default:                  g_return_val_if_reached (0);
    }
}

gboolean
qm_plan_key_set_number (const QmPlanKey *key,
                        QmPlan          *plan,
                        double           v)
{
  gpointer at = (char *) plan + key->offset;

  g_return_val_if_fail (key->offset >= 0, FALSE);
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:
      *(double *) at = v * key_scale (key);
      return TRUE;
    case QM_PLAN_KEY_INTEGER:
      if (v != floor (v) || v < 0 || v > G_MAXUINT)
        return FALSE;
      *(guint *) at = (guint) v;
      return TRUE;
    case QM_PLAN_KEY_BOOL:
      *(gboolean *) at = v != 0;
      return TRUE;
    default:
      g_return_val_if_reached (FALSE);
    }
}

const char *
qm_plan_key_get_string (const QmPlanKey *key,
                        const QmPlan    *plan)
{
  static char digits[G_ASCII_DTOSTR_BUF_SIZE];
  gconstpointer at = (const char *) plan + key->offset;

  g_return_val_if_fail (key->offset >= 0, NULL);
  switch (key->type)
    {
    case QM_PLAN_KEY_ENUM:
      return key->to_string (*(const int *) at);
    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
      return at;
    case QM_PLAN_KEY_INTEGER:
      g_snprintf (digits, sizeof digits, "%u", *(const guint *) at);
      return digits;
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
qm_plan_key_set_string (const QmPlanKey *key,
                        QmPlan          *plan,
                        const char      *s)
{
  gpointer at = (char *) plan + key->offset;
  char *end = NULL;
  guint64 n;

  g_return_val_if_fail (key->offset >= 0 && s != NULL, FALSE);
  switch (key->type)
    {
    case QM_PLAN_KEY_ENUM:
      return key->from_string (s, at);
    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
      if (strlen (s) >= key->size)
        return FALSE;
      g_strlcpy (at, s, key->size);
      return TRUE;
    case QM_PLAN_KEY_INTEGER:
      n = g_ascii_strtoull (s, &end, 10);
      if (end == s || *end != '\0' || n > G_MAXUINT)
        return FALSE;
      *(guint *) at = (guint) n;
      return TRUE;
    default:
      g_return_val_if_reached (FALSE);
    }
}

gpointer
qm_plan_key_spec (const QmPlanKey *key,
                  QmPlan          *plan,
                  gboolean       **embedded)
{
  gpointer spec;
  gsize size;

  if (key->type != QM_PLAN_KEY_ID || !g_str_has_prefix (key->path, "hardware."))
    return NULL;
  hardware_slots (key, plan, &spec, &size, embedded);
  return spec;
}

const QmPlanKey *
qm_plan_schema_error_key (const GError *error,
                          const char  **detail)
{
  const QmProblem *problem = qm_plan_error_get_problem (error);
  const QmPlanKey *best = NULL;
  gsize best_len = 0;

  /* A problem names its key; an error set without one (an old caller) is
   * read as "path: message", the longest path winning: "target.gpus: …"
   * names target.gpus, not target. */
  for (guint i = 0; error != NULL && i < G_N_ELEMENTS (keys); i++)
    {
      gsize len = strlen (keys[i].path);

      if (problem != NULL && strcmp (problem->path, keys[i].path) != 0)
        continue;
      if (len > best_len && strncmp (error->message, keys[i].path, len) == 0 &&
          strncmp (error->message + len, ": ", 2) == 0)
        best = &keys[i], best_len = len;
    }
  if (detail != NULL)
    *detail = best != NULL ? error->message + best_len + 2 : (error ? error->message : NULL);
  return best;
}

char *
qm_plan_key_unit_label (const QmPlanKey *key,
                        const QmPlan    *plan)
{
  if (key->unit == NULL)
    return NULL;
  /* Amounts are in the plan's currency, whatever the key's name says. */
  if (g_str_has_prefix (key->unit, "USD") && plan->pricing.currency[0] != '\0')
    return g_strconcat (plan->pricing.currency, key->unit + strlen ("USD"), NULL);
  return g_strdup (g_dpgettext2 (GETTEXT_PACKAGE, "unit", key->unit));
}
