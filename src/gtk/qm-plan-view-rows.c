/* qm-plan-view-rows.c: what each row of the plan view's side panel shows.
 *
 * A row names its plan-schema key; the generic functions below read and
 * write any number, integer, enum, bool, string or catalog id through the
 * key's offset, type, scale and enum names. The callbacks further down are
 * for the rows whose behaviour really differs: values resolved from the
 * estimate, switches that stand for "auto", and picks that pull other keys
 * along (a new GPU picks a server that holds it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-plan-view-rows.h"
#include "qm-reliability.h"

/* ------------------------------------------------------------------ */
/* The generic row                                                     */

double
qm_plan_view_row_get (QmPlanViewInput  *in,
                      const QmPlan     *p,
                      const QmEstimate *e)
{
  double v = qm_plan_key_get_number (in->key, p);

  /* "auto" shows what the estimate resolved it to. */
  if (v == 0 && in->info->resolved > 0)
    v = *(const guint *) ((const char *) e + in->info->resolved);
  return v;
}

const char *
qm_plan_view_row_set (QmPlanViewInput  *in,
                      QmPlan           *p,
                      double            v,
                      const QmEstimate *e)
{
  /* A row that shows the resolved value cannot be set back to "auto". */
  if (in->info->resolved > 0 && v < 1)
    return N_("Must be a whole number, at least 1");
  if (!qm_plan_key_set_number (in->key, p, v))
    return in->info->resolved > 0 ? N_("Must be a whole number, at least 1")
                                  : N_("Must be a whole number");
  /* Editing the shape leaves the preset: a custom model. */
  if (in->key->flags & QM_PLAN_KEY_SHAPE)
    p->workload.preset[0] = '\0';
  return NULL;
}

const char *
qm_plan_view_row_get_id (QmPlanViewInput  *in,
                         const QmPlan     *p,
                         const QmEstimate *e)
{
  return qm_plan_key_get_string (in->key, p);
}

/* A catalog id is resolved when picked, so the plan carries the spec (and
 * the store's price override) the estimate uses. */
const char *
qm_plan_view_row_set_id (QmPlanViewInput  *in,
                         QmPlan           *p,
                         const char       *id,
                         const QmEstimate *e)
{
  gboolean *embedded = NULL;
  gpointer spec = qm_plan_key_spec (in->key, p, &embedded);

  if (spec != NULL)
    {
      if (!qm_plan_view_resolve (in->view, in->key->kind, id, spec))
        return N_("Not in the catalog");
      *embedded = FALSE;
    }
  return qm_plan_key_set_string (in->key, p, id) ? NULL : N_("Unknown choice");
}

void
qm_plan_view_row_choices (QmPlanViewInput *in,
                          const QmPlan    *p,
                          GPtrArray       *out)
{
  const QmPlanKey *key = in->key;

  if (in->info->labels != NULL)
    {
      for (const char *const *l = in->info->labels; l[0] != NULL; l += 2)
        qm_plan_view_add_choice (out, l[0], _(l[1]));
    }
  else if (key->type == QM_PLAN_KEY_ID)
    {
      /* Servers and offers: only those that hold the plan's GPU. */
      gboolean by_gpu = key->kind == QM_CATALOG_KIND_SERVER || key->kind == QM_CATALOG_KIND_CLOUD;

      qm_plan_view_choices_from_list (in->view, key->kind, by_gpu ? p->gpu_id : NULL,
                                      qm_plan_key_get_string (key, p), out);
    }
}

gboolean
qm_plan_view_row_visible (QmPlanViewInput *in,
                          const QmPlan    *p)
{
  if (in->info->visible != NULL)
    return in->info->visible (p);
  return in->key->modes == 0 || (in->key->modes & QM_PLAN_MODE (p->workload.mode)) != 0;
}

/* ------------------------------------------------------------------ */
/* Predicates                                                          */

static gboolean
is_training (const QmPlan *p)
{
  return p->workload.mode != QM_MODE_INFERENCE;
}

static gboolean
is_lora (const QmPlan *p)
{
  return p->workload.mode == QM_MODE_LORA || p->workload.mode == QM_MODE_QLORA;
}

static gboolean
is_full_recompute (const QmPlan *p)
{
  return is_training (p) && p->workload.recompute == QM_RECOMPUTE_FULL;
}

static gboolean
by_gpus (const QmPlan *p)
{
  return p->workload.target_gpus > 0;
}

static gboolean
by_deadline (const QmPlan *p)
{
  return p->workload.target_gpus == 0;
}

static gboolean
mfu_given (const QmPlan *p)
{
  return p->workload.mfu > 0;
}

static gboolean
parallel_manual (const QmPlan *p)
{
  return p->workload.tp > 0 || p->workload.pp > 0 || p->workload.ep > 0;
}

static gboolean
is_buy (const QmPlan *p)
{
  return p->pricing.mode == QM_PRICING_BUY;
}

static gboolean
is_rent (const QmPlan *p)
{
  return p->pricing.mode != QM_PRICING_BUY;
}

/* ------------------------------------------------------------------ */
/* Rows that differ from their key                                     */

/* The GPU-hour price the estimate uses (QmCost.rent_usd_per_gpu_hour, the
 * one price fact): the plan's, or with 0 in the plan the cloud offer's,
 * which the row shows rather than "0.00" beside a rent at 12.29. Typing 0
 * goes back to the offer's rate. */
static double
get_gpu_hour_price (QmPlanViewInput  *in,
                    const QmPlan     *p,
                    const QmEstimate *e)
{
  if (p->pricing.usd_per_gpu_hour > 0 || e == NULL || !e->has_cost)
    return p->pricing.usd_per_gpu_hour;
  return e->cost.rent_usd_per_gpu_hour;
}

/* The defaults the plan reader gives a file in the new mode. */
static const char *
after_mode (QmPlanViewInput *in,
            QmPlan          *p)
{
  if (is_lora (p) && p->workload.lora_rank == 0)
    p->workload.lora_rank = 16;
  if (p->workload.mode == QM_MODE_INFERENCE && p->workload.tokens <= 0)
    p->workload.tokens = 1e9;
  return NULL;
}

static const char *
get_preset (QmPlanViewInput  *in,
            const QmPlan     *p,
            const QmEstimate *e)
{
  return p->workload.preset[0] ? p->workload.preset : "custom";
}

static const char *
set_preset (QmPlanViewInput  *in,
            QmPlan           *p,
            const char       *id,
            const QmEstimate *e)
{
  const QmModelPreset *preset;

  if (g_strcmp0 (id, "custom") == 0)
    {
      p->workload.preset[0] = '\0';
      return NULL;
    }
  preset = qm_catalog_model (id);
  if (preset == NULL)
    return N_("Unknown model");
  p->workload.model = preset->shape;
  g_strlcpy (p->workload.preset, id, sizeof p->workload.preset);
  return NULL;
}

static void
choices_preset (QmPlanViewInput *in,
                const QmPlan    *p,
                GPtrArray       *out)
{
  qm_plan_view_row_choices (in, p, out);
  qm_plan_view_add_choice (out, "custom", _("Custom shape"));
}

/* "target" is a section: exactly one of its gpus and deadline_days. */
static const char *
get_target (QmPlanViewInput  *in,
            const QmPlan     *p,
            const QmEstimate *e)
{
  return by_gpus (p) ? "gpus" : "deadline";
}

static const char *
set_target (QmPlanViewInput  *in,
            QmPlan           *p,
            const char       *id,
            const QmEstimate *e)
{
  /* Either way starts from what the estimate has now. */
  if (g_strcmp0 (id, "gpus") == 0)
    {
      p->workload.target_gpus = e->gpus > 0 ? e->gpus : MAX (p->hardware.server.gpus, 1u);
      p->workload.deadline_days = 0;
    }
  else
    {
      p->workload.deadline_days = e->train_days > 0 ? ceil (e->train_days) : 30;
      p->workload.target_gpus = 0;
    }
  return NULL;
}

static double
get_gpus (QmPlanViewInput  *in,
          const QmPlan     *p,
          const QmEstimate *e)
{
  return by_gpus (p) ? p->workload.target_gpus : e->gpus;
}

static const char *
set_gpus (QmPlanViewInput  *in,
          QmPlan           *p,
          double            v,
          const QmEstimate *e)
{
  if (v != floor (v) || v < 1)
    return N_("Must be a whole number of GPUs, at least 1");
  p->workload.target_gpus = (guint) v;
  p->workload.deadline_days = 0;
  return NULL;
}

/* MFU is shown in percent, and "auto" as the predicted value. */
static double
get_mfu (QmPlanViewInput  *in,
         const QmPlan     *p,
         const QmEstimate *e)
{
  return (mfu_given (p) ? p->workload.mfu : e->mfu) * 100.0;
}

static const char *
set_mfu (QmPlanViewInput  *in,
         QmPlan           *p,
         double            v,
         const QmEstimate *e)
{
  if (!(v > 0 && v <= 100))
    return N_("Must be more than 0% and at most 100%");
  p->workload.mfu = v / 100.0;
  return NULL;
}

static double
get_mfu_auto (QmPlanViewInput  *in,
              const QmPlan     *p,
              const QmEstimate *e)
{
  return !mfu_given (p);
}

static const char *
set_mfu_auto (QmPlanViewInput  *in,
              QmPlan           *p,
              double            v,
              const QmEstimate *e)
{
  /* Turning prediction off starts from the predicted value. */
  p->workload.mfu = v != 0 ? 0.0 : (e->mfu > 0 ? round (e->mfu * 1000.0) / 1000.0 : 0.4);
  return NULL;
}

static double
get_parallel_auto (QmPlanViewInput  *in,
                   const QmPlan     *p,
                   const QmEstimate *e)
{
  return !parallel_manual (p);
}

static guint
resolved_degree (guint plan,
                 guint est)
{
  return plan > 0 ? plan : MAX (est, 1u);
}

static const char *
set_parallel_auto (QmPlanViewInput  *in,
                   QmPlan           *p,
                   double            v,
                   const QmEstimate *e)
{
  if (v != 0)
    {
      p->workload.tp = p->workload.pp = p->workload.ep = 0;
    }
  else
    {
      /* Manual starts from the layout the search picked. */
      p->workload.tp = resolved_degree (0, e->parallelism.tp);
      p->workload.pp = resolved_degree (0, e->parallelism.pp);
      p->workload.cp = resolved_degree (p->workload.cp, e->parallelism.cp);
      p->workload.ep = resolved_degree (0, e->parallelism.ep);
    }
  return NULL;
}

/* Keep the server and offer compatible with the new GPU. */
static const char *
after_gpu (QmPlanViewInput *in,
           QmPlan          *p)
{
  if (p->hardware.server.gpu_id != NULL && g_strcmp0 (p->hardware.server.gpu_id, p->gpu_id) != 0 &&
      !qm_plan_view_pick_server (in->view, p))
    return N_("No server in the catalog holds this GPU");
  if (p->offer_id[0] != '\0')
    {
      const QmCloudOffer *offer = qm_catalog_cloud_offer (p->offer_id);

      if (offer != NULL && g_strcmp0 (offer->gpu_id, p->gpu_id) != 0)
        p->offer_id[0] = '\0';
    }
  return NULL;
}

static const char *
get_offer (QmPlanViewInput  *in,
           const QmPlan     *p,
           const QmEstimate *e)
{
  return p->offer_id[0] ? p->offer_id : "none";
}

static const char *
set_offer (QmPlanViewInput  *in,
           QmPlan           *p,
           const char       *id,
           const QmEstimate *e)
{
  return qm_plan_view_row_set_id (in, p, g_strcmp0 (id, "none") == 0 ? "" : id, e);
}

static void
choices_offer (QmPlanViewInput *in,
               const QmPlan    *p,
               GPtrArray       *out)
{
  qm_plan_view_add_choice (out, "none", _("None: the price per GPU-hour below"));
  qm_plan_view_row_choices (in, p, out);
}

static void
choices_reliability (QmPlanViewInput *in,
                     const QmPlan    *p,
                     GPtrArray       *out)
{
  qm_plan_view_add_choice (out, qm_failure_preset_info (QM_FAILURE_LLAMA3_PRODUCTION)->id,
                           _("Production cluster (Llama 3 run)"));
  qm_plan_view_add_choice (out, qm_failure_preset_info (QM_FAILURE_RESEARCH_CLUSTER)->id,
                           _("Research cluster"));
}

static const char *
set_currency (QmPlanViewInput  *in,
              QmPlan           *p,
              const char       *text,
              const QmEstimate *e)
{
  if (strlen (text) >= sizeof p->pricing.currency || strchr (text, ' ') != NULL)
    return N_("Up to 7 letters without spaces, such as USD or EUR");
  return qm_plan_view_row_set_id (in, p, text, e);
}

/* The quote's fractions (tax, spares, deposit ...) are typed in percent;
 * the key's own range (0 to 1) is the rule. */
static double
get_percent (QmPlanViewInput  *in,
             const QmPlan     *p,
             const QmEstimate *e)
{
  return qm_plan_key_get_number (in->key, p) * 100.0;
}

static const char *
set_percent (QmPlanViewInput  *in,
             QmPlan           *p,
             double            v,
             const QmEstimate *e)
{
  if (!(v >= 0 && v <= 100))
    return N_("Must be from 0% to 100%");
  qm_plan_key_set_number (in->key, p, v / 100.0);
  return NULL;
}

static const char *
set_quote_currency (QmPlanViewInput  *in,
                    QmPlan           *p,
                    const char       *text,
                    const QmEstimate *e)
{
  if (!qm_currency_code_valid (text))
    return N_("Must be an ISO 4217 code such as EUR");
  return qm_plan_view_row_set_id (in, p, text, e);
}

/* The UI offers equal phases, one every phase_interval_months; the plan
 * file takes any fractions (quote.phases), shown here by their count. */
static double
get_phases (QmPlanViewInput  *in,
            const QmPlan     *p,
            const QmEstimate *e)
{
  return MAX (p->quote.n_phases, 1u);
}

static const char *
set_phases (QmPlanViewInput  *in,
            QmPlan           *p,
            double            v,
            const QmEstimate *e)
{
  guint n;

  if (v != floor (v) || v < 1 || v > QM_QUOTE_MAX_PHASES)
    return N_("Must be a whole number from 1 to 12");
  n = (guint) v;
  /* One delivery is the file's "no phases". */
  p->quote.n_phases = n > 1 ? n : 0;
  for (guint i = 0; i < p->quote.n_phases; i++)
    p->quote.phases[i] = 1.0 / n;
  return NULL;
}

static gboolean
has_quote (const QmPlan *p)
{
  return p->has_quote;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

/* What an enum's or a small integer's values are called in the combo. */
static const char *const mode_labels[] = {
  "pretrain", N_("Pretrain"), "finetune", N_("Fine-tune"), "lora", N_("LoRA"),
  "qlora", N_("QLoRA"), "inference", N_("Serve (inference)"), NULL,
};
static const char *const target_labels[] = {
  "gpus", N_("A fixed GPU count"), "deadline", N_("A deadline"), NULL,
};
static const char *const precision_labels[] = {
  "bf16", N_("BF16 mixed precision"), "fp16", N_("FP16 mixed precision"), "fp8", N_("FP8"),
  "fp32", N_("FP32"), NULL,
};
static const char *const serving_precision_labels[] = {
  "bf16", N_("BF16"), "fp16", N_("FP16"), "fp8", N_("FP8"), "int8", N_("INT8"),
  "fp4", N_("FP4"), "int4", N_("INT4"), NULL,
};
/* Issue 31: the engines of data/catalog/engines.json (their names are
 * product names, not translated). */
static const char *const engine_labels[] = {
  "auto", N_("Usual for the GPU"), "tensorrt-llm", "TensorRT-LLM", "vllm", "vLLM", "sglang", "SGLang",
  NULL,
};
static const char *const optimizer_labels[] = {
  "adamw", N_("AdamW"), "adamw-8bit", N_("8-bit AdamW"), "sgd", N_("SGD with momentum"),
  "adafactor", N_("Adafactor"), NULL,
};
static const char *const zero_labels[] = {
  "0", N_("ZeRO-0: nothing sharded"), "1", N_("ZeRO-1: optimizer states"),
  "2", N_("ZeRO-2: + gradients"), "3", N_("ZeRO-3 / FSDP: + weights"), NULL,
};
static const char *const recompute_labels[] = {
  "none", N_("None"), "selective", N_("Selective (attention)"), "full", N_("Full"),
  "selective-op", N_("Selective per operator (PyTorch)"), NULL,
};
static const char *const lora_target_labels[] = {
  "all", N_("Every layer"), "attention", N_("Attention layers only"), NULL,
};
static const char *const pricing_labels[] = {
  "buy", N_("Buy"), "rent", N_("Rent on demand"), "rent-reserved", N_("Rent reserved"), NULL,
};

#define G(name)       .group = QM_PLAN_VIEW_GROUP_##name
#define SPIN(st, dg)  .step = (st), .digits = (dg)
#define DEGREE(name)  .resolved = G_STRUCT_OFFSET (QmEstimate, parallelism.name), \
                      .sensitive = parallel_manual
#define QUOTE(name, ...) { "quote." #name, "quote." #name, G (QUOTE), .visible = has_quote, __VA_ARGS__ }
#define PERCENT(name, t) QUOTE (name, SPIN (1, 1), .title = (t), .get = get_percent, .set = set_percent)
#define SHAPE(name, st) { "model." #name, "workload.model." #name, G (SHAPE), SPIN (st, 0) }

static const QmPlanViewRow rows[] = {
  { "mode", "workload.mode", G (MODEL), .labels = mode_labels, .after_set = after_mode },
  { "model", "workload.model.preset", G (MODEL), .get_id = get_preset, .set_id = set_preset,
    .choices = choices_preset },
  SHAPE (layers, 1),
  SHAPE (hidden, 128),
  SHAPE (heads, 1),
  SHAPE (kv_heads, 1),
  SHAPE (ffn_hidden, 128),
  SHAPE (vocab, 1000),
  SHAPE (experts, 1),
  SHAPE (experts_per_token, 1),
  { "lora_rank", "workload.lora_rank", G (MODEL), SPIN (8, 0), .visible = is_lora },
  { "lora_targets", "workload.lora_targets", G (MODEL), .labels = lora_target_labels,
    .visible = is_lora },

  { "tokens", "workload.tokens_b", G (SCHEDULE), SPIN (100, 1) },
  { "epochs", "workload.epochs", G (SCHEDULE), SPIN (1, 2) },
  { "seq_len", "workload.seq_len", G (SCHEDULE), SPIN (1024, 0) },
  { "global_batch", "workload.global_batch", G (SCHEDULE), SPIN (64, 0), .visible = is_training },
  { "micro_batch", "workload.micro_batch", G (SCHEDULE), .visible = is_training },
  { "target", "target", G (SCHEDULE), QM_PLAN_VIEW_ROW_CHOICE, .title = N_("_Plan for"),
    .labels = target_labels, .get_id = get_target, .set_id = set_target },
  { "gpus", "target.gpus", G (SCHEDULE), SPIN (8, 0), .get = get_gpus, .set = set_gpus,
    .visible = by_gpus },
  { "deadline", "target.deadline_days", G (SCHEDULE), SPIN (1, 1), .visible = by_deadline },

  { "inference.requests_per_minute", "workload.inference.requests_per_minute", G (SERVING),
    SPIN (10, 0) },
  { "inference.input_tokens", "workload.inference.input_tokens", G (SERVING), SPIN (100, 0) },
  { "inference.output_tokens", "workload.inference.output_tokens", G (SERVING), SPIN (100, 0) },
  { "inference.concurrency", "workload.inference.concurrency", G (SERVING), SPIN (8, 0) },
  { "inference.ttft_ms", "workload.inference.ttft_ms", G (SERVING), SPIN (50, 0) },
  { "inference.tpot_ms", "workload.inference.tpot_ms", G (SERVING), SPIN (5, 0) },
  { "inference.weight_precision", "workload.inference.weight_precision", G (SERVING),
    .labels = serving_precision_labels },
  { "inference.kv_precision", "workload.inference.kv_precision", G (SERVING),
    .labels = serving_precision_labels },
  { "inference.engine", "workload.inference.engine", G (SERVING), .labels = engine_labels },
  { "inference.max_batch_tokens", "workload.inference.max_batch_tokens", G (SERVING), SPIN (1024, 0) },

  { "precision", "workload.precision", G (TRAINING), .labels = precision_labels },
  { "optimizer", "workload.optimizer", G (TRAINING), .labels = optimizer_labels },
  { "zero_stage", "workload.zero_stage", G (TRAINING), QM_PLAN_VIEW_ROW_CHOICE,
    .labels = zero_labels },
  { "recompute", "workload.recompute", G (TRAINING), .labels = recompute_labels },
  { "recompute_layers", "workload.recompute_layers", G (TRAINING), SPIN (1, 0),
    .visible = is_full_recompute },
  { "shard_group", "workload.shard_group", G (TRAINING), SPIN (8, 0) },
  { "fp8_weights", "workload.fp8_weights", G (TRAINING) },
  { "flash_attention", "workload.flash_attention", G (TRAINING) },
  { "mfu.auto", "workload.mfu", G (TRAINING), QM_PLAN_VIEW_ROW_SWITCH, .title = N_("Predict _MFU"),
    .hint = N_("From the throughput model; off to give your own"), .get = get_mfu_auto,
    .set = set_mfu_auto },
  { "mfu", "workload.mfu", G (TRAINING), SPIN (1, 1), .title = N_("MF_U (%)"), .get = get_mfu,
    .set = set_mfu, .sensitive = mfu_given },
  { "parallel.auto", "workload.tp", G (TRAINING), QM_PLAN_VIEW_ROW_SWITCH,
    .title = N_("Choose the _layout"), .hint = N_("Search the fastest tp/pp/cp/ep that fits"),
    .get = get_parallel_auto, .set = set_parallel_auto },
  { "tp", "workload.tp", G (TRAINING), DEGREE (tp) },
  { "pp", "workload.pp", G (TRAINING), DEGREE (pp) },
  { "cp", "workload.cp", G (TRAINING), DEGREE (cp) },
  { "ep", "workload.ep", G (TRAINING), DEGREE (ep) },

  { "gpu", "hardware.gpu", G (HARDWARE), .after_set = after_gpu },
  { "server", "hardware.server", G (HARDWARE) },
  { "network", "hardware.network", G (HARDWARE) },
  { "storage", "hardware.storage", G (HARDWARE) },

  { "facility.pue", "facility.pue", G (FACILITY), SPIN (0.05, 2) },
  { "facility.usd_per_kwh", "facility.usd_per_kwh", G (FACILITY), SPIN (0.01, 3) },
  { "facility.rack_kw", "facility.rack_kw", G (FACILITY), SPIN (5, 1) },
  { "facility.rack_units", "facility.rack_units", G (FACILITY) },
  { "facility.gco2_per_kwh", "facility.gco2_per_kwh", G (FACILITY), SPIN (10, 0) },

  { "pricing.mode", "pricing.mode", G (PRICING), .labels = pricing_labels },
  { "pricing.offer", "pricing.offer", G (PRICING), .get_id = get_offer, .set_id = set_offer,
    .choices = choices_offer, .visible = is_rent },
  { "pricing.usd_per_gpu_hour", "pricing.usd_per_gpu_hour", G (PRICING), SPIN (0.1, 2),
    .hint = N_("0 uses the cloud offer’s rate, which is then shown"), .get = get_gpu_hour_price },
  { "pricing.amortization_years", "pricing.amortization_years", G (PRICING), SPIN (1, 1),
    .visible = is_buy },
  { "pricing.currency", "pricing.currency", G (PRICING), QM_PLAN_VIEW_ROW_TEXT,
    .set_id = set_currency },

  { "reliability.preset", "reliability.preset", G (RELIABILITY), QM_PLAN_VIEW_ROW_CHOICE,
    .choices = choices_reliability },
  { "reliability.restart_minutes", "reliability.restart_minutes", G (RELIABILITY), SPIN (5, 0) },

  { "customer", "customer", G (QUOTE), QM_PLAN_VIEW_ROW_TEXT, .title = N_("_Customer"),
    .visible = has_quote },
  QUOTE (currency, .kind = QM_PLAN_VIEW_ROW_TEXT, .set_id = set_quote_currency),
  QUOTE (exchange_rate, SPIN (0.01, 4)),
  PERCENT (tax_rate, N_("_Tax Rate (%)")),
  PERCENT (spares_fraction, N_("_Spares (%)")),
  QUOTE (support_years, SPIN (1, 1)),
  PERCENT (support_rate, N_("Yearly Support _Rate (%)")),
  PERCENT (shipping_fraction, N_("S_hipping (%)")),
  PERCENT (deposit_fraction, N_("_Deposit (%)")),
  QUOTE (payment_days, SPIN (15, 0)),
  QUOTE (lead_weeks, SPIN (1, 0)),
  QUOTE (phases, SPIN (1, 0), .title = N_("Deli_veries"),
         .hint = N_("Equal phases of the servers"), .get = get_phases, .set = set_phases),
  QUOTE (phase_interval_months),
  QUOTE (valid_days, SPIN (15, 0)),
};

const QmPlanViewRow *
qm_plan_view_rows (guint *n_rows)
{
  *n_rows = G_N_ELEMENTS (rows);
  return rows;
}

const char *const *
qm_plan_view_list_inputs (void)
{
  static const char *keys[G_N_ELEMENTS (rows) + 1];

  if (keys[0] == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      keys[i] = rows[i].key;
  return keys;
}
