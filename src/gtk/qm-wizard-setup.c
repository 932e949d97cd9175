/* qm-wizard-setup.c: the wizard's data and setup steps.
 *
 * Training asks for data and a deadline (or a fixed cluster), then the
 * number format, optimizer and parallelism; serving asks for traffic and
 * latency targets, then the formats of the weights and the cache. Each
 * row names its plan key; the schema says the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-wizard-private.h"

#define OPTIONAL QM_WIZARD_ROW_OPTIONAL
#define PREFILL  QM_WIZARD_ROW_PREFILL

/* ------------------------------------------------------------------ */
/* Data and schedule                                                   */

static const QmWizardRow data_rows[] = {
  { "tokens", "workload.tokens_b", QM_PARSE_TOKENS, .max = 1e16,
    .help = N_("Text to learn from in one pass, for example 15T or 300B") },
  { "epochs", "workload.epochs", QM_PARSE_NUMBER, PREFILL },
  { "seq-len", "workload.seq_len", QM_PARSE_SEQ_LEN, PREFILL,
    .help = N_("Tokens the model reads at once, for example 8k") },
  { "global-batch", "workload.global_batch", QM_PARSE_COUNT, PREFILL },
};

static const QmWizardRow schedule_rows[] = {
  { "deadline", "target.deadline_days", QM_PARSE_DAYS, .max = 36500,
    .help = N_("Time until the model must be trained, for example 60 days or 8 weeks") },
  { "gpus", "target.gpus", QM_PARSE_COUNT, .max = 1e7 },
};

/* Issue #36: how sure a deadline is to be met, in words; written as
 * target.confidence (0: absent, the estimate itself; 0.9: the band's
 * pessimistic edge). */
static const QmWizardChoice confidences[] = {
  { "0", N_("Likely (50%)") },
  { "0.9", N_("Almost certainly (90%)") },
};

static const QmWizardRow traffic_rows[] = {
  { "requests", "workload.inference.requests_per_minute", QM_PARSE_NUMBER },
  { "input-tokens", "workload.inference.input_tokens", QM_PARSE_COUNT, PREFILL, .max = 1e8 },
  { "output-tokens", "workload.inference.output_tokens", QM_PARSE_COUNT, PREFILL, .max = 1e8 },
};

/* Empty: no target. */
static const QmWizardRow latency_rows[] = {
  { "ttft", "workload.inference.ttft_ms", QM_PARSE_MILLISECONDS, OPTIONAL, .max = 1e7 },
  { "tpot", "workload.inference.tpot_ms", QM_PARSE_MILLISECONDS, OPTIONAL, .max = 1e7 },
};

static void
switch_changed (QmWizard *self)
{
  qm_wizard_update_mode (self);
  qm_wizard_refresh (self, NULL);
}

void
qm_wizard_build_data (QmWizard *self)
{
  GtkWidget *schedule = GTK_WIDGET (self->schedule_group);

  qm_wizard_add_fields (self, GTK_WIDGET (self->data_group), QM_WIZARD_STEP_DATA,
                        data_rows, G_N_ELEMENTS (data_rows));
  self->fixed_gpus_switch = qm_wizard_add_switch_row (schedule, "fixed-gpus-switch",
                                                      _("Use a Fixed Number of GPUs"), "", FALSE,
                                                      &self->fixed_gpus_row);
  qm_wizard_add_fields (self, schedule, QM_WIZARD_STEP_DATA,
                        schedule_rows, G_N_ELEMENTS (schedule_rows));
  self->confidence_row = qm_wizard_add_combo (self, schedule, "confidence", "target.confidence",
                                              confidences, G_N_ELEMENTS (confidences));
  qm_wizard_add_fields (self, GTK_WIDGET (self->traffic_group), QM_WIZARD_STEP_DATA,
                        traffic_rows, G_N_ELEMENTS (traffic_rows));
  qm_wizard_add_fields (self, GTK_WIDGET (self->latency_group), QM_WIZARD_STEP_DATA,
                        latency_rows, G_N_ELEMENTS (latency_rows));
  g_signal_connect_swapped (self->fixed_gpus_switch, "notify::active",
                            G_CALLBACK (switch_changed), self);
}

/* ------------------------------------------------------------------ */
/* Training and serving setup                                          */

/* The choices name themselves and say what they mean: each combo row
 * shows the chosen one as its subtitle, which wraps in a narrow window. */
static const QmWizardChoice train_precisions[] = {
  { "bf16", N_("BF16, the usual choice") },
  { "fp16", N_("FP16, for GPUs without BF16") },
  { "fp8", N_("FP8, faster on H100 and newer") },
  { "fp32", N_("FP32, full precision and slow") },
};
static const QmWizardChoice optimizers[] = {
  { "adamw", N_("AdamW, the usual choice") },
  { "adamw-8bit", N_("8-bit AdamW, less memory") },
  { "sgd", N_("SGD with momentum, least memory") },
  { "adafactor", N_("Adafactor, little memory") },
};
static const QmWizardChoice zero_stages[] = {
  { "0", N_("Off: a full copy on every GPU") },
  { "1", N_("Stage 1: shards optimizer states across data-parallel GPUs") },
  { "2", N_("Stage 2: also shards the gradients") },
  { "3", N_("Stage 3: also shards the weights, as FSDP does") },
};
static const QmWizardChoice recomputes[] = {
  { "none", N_("None: keeps everything, needs the most memory") },
  { "selective", N_("Selective: recomputes attention internals, the usual choice") },
  { "full", N_("Full: recomputes each layer, needs the least memory") },
  { "selective-op", N_("Per operator: recomputes every other matrix product, as torchtitan does") },
};
/* The cache is kept in the first two only. */
static const QmWizardChoice serve_precisions[] = {
  { "bf16", N_("BF16, full quality") },
  { "fp8", N_("FP8, half the memory") },
  { "int8", N_("INT8, half the memory") },
  { "int4", N_("INT4, a quarter of the memory") },
};

/* Issue 31: the serving engine (data/catalog/engines.json). */
static const QmWizardChoice serve_engines[] = {
  { "auto", N_("Usual for the GPU (TensorRT-LLM on NVIDIA, vLLM on others)") },
  { "tensorrt-llm", N_("TensorRT-LLM") },
  { "vllm", N_("vLLM") },
  { "sglang", N_("SGLang") },
};

static const QmWizardRow lora_rows[] = {
  /* As the plan reader's default for LoRA (HF PEFT examples). */
  { "lora-rank", "workload.lora_rank", QM_PARSE_COUNT, .suggest = 16 },
};

/* Empty: chosen by the core. */
static const QmWizardRow parallel_rows[] = {
  { "tp", "workload.tp", QM_PARSE_COUNT, OPTIONAL, .max = 1024 },
  { "pp", "workload.pp", QM_PARSE_COUNT, OPTIONAL, .max = 1000 },
  { "cp", "workload.cp", QM_PARSE_COUNT, OPTIONAL },
  { "ep", "workload.ep", QM_PARSE_COUNT, OPTIONAL, .max = 65536 },
  { "micro-batch", "workload.micro_batch", QM_PARSE_COUNT, OPTIONAL, .max = 1e8 },
};

static const QmWizardRow mfu_rows[] = {
  { "mfu", "workload.mfu", QM_PARSE_PERCENT, OPTIONAL,
    .help = N_("Share of the GPUs’ peak speed the job reaches; empty to predict it") },
};

static const QmWizardRow concurrency_rows[] = {
  { "concurrency", "workload.inference.concurrency", QM_PARSE_COUNT, OPTIONAL,
    .help = N_("Answered at once by each copy of the model; empty to size it") },
};

static GtkWidget *
add_expander (AdwPreferencesGroup *group,
              const char          *name,
              const char          *title,
              const char          *subtitle)
{
  GtkWidget *row = adw_expander_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
  if (name != NULL)
    gtk_widget_set_name (row, name);
  adw_preferences_group_add (group, row);
  return row;
}

#define ADD_COMBO(parent, name, path, choices, n) \
  qm_wizard_add_combo (self, GTK_WIDGET (parent), name, path, choices, n)

void
qm_wizard_build_setup (QmWizard *self)
{
  const QmPlanKey *flash = qm_plan_schema_lookup ("workload.flash_attention");
  GtkWidget *parallel, *efficiency;

  ADD_COMBO (self->setup_group, "precision", "workload.precision",
             train_precisions, G_N_ELEMENTS (train_precisions));
  ADD_COMBO (self->setup_group, "optimizer", "workload.optimizer",
             optimizers, G_N_ELEMENTS (optimizers));
  ADD_COMBO (self->setup_group, "zero", "workload.zero_stage",
             zero_stages, G_N_ELEMENTS (zero_stages));
  ADD_COMBO (self->setup_group, "recompute", "workload.recompute",
             recomputes, G_N_ELEMENTS (recomputes));
  self->flash_switch = qm_wizard_add_switch_row (GTK_WIDGET (self->setup_group), "flash-attention",
                                                 _(flash->label), _(flash->help),
                                                 self->base.workload.flash_attention, NULL);
  qm_wizard_add_fields (self, GTK_WIDGET (self->setup_group), QM_WIZARD_STEP_SETUP,
                        lora_rows, G_N_ELEMENTS (lora_rows));

  parallel = add_expander (self->advanced_group, "parallelism", _("Parallelism"),
                           _("How the model is split across GPUs"));
  self->auto_parallel_switch =
    qm_wizard_add_switch_row (parallel, "auto-parallel-switch", _("Choose Automatically"),
                              _("Search for the fastest split that fits in memory"), TRUE, NULL);
  qm_wizard_add_fields (self, parallel, QM_WIZARD_STEP_SETUP,
                        parallel_rows, G_N_ELEMENTS (parallel_rows));
  g_signal_connect_swapped (self->auto_parallel_switch, "notify::active",
                            G_CALLBACK (switch_changed), self);

  efficiency = add_expander (self->advanced_group, NULL, _("Efficiency"),
                             _("How fast the GPUs work in practice"));
  qm_wizard_add_fields (self, efficiency, QM_WIZARD_STEP_SETUP, mfu_rows, G_N_ELEMENTS (mfu_rows));

  ADD_COMBO (self->serve_setup_group, "weight-precision", "workload.inference.weight_precision",
             serve_precisions, G_N_ELEMENTS (serve_precisions));
  ADD_COMBO (self->serve_setup_group, "kv-precision", "workload.inference.kv_precision",
             serve_precisions, 2);
  ADD_COMBO (self->serve_setup_group, "engine", "workload.inference.engine", serve_engines,
             G_N_ELEMENTS (serve_engines));
  qm_wizard_add_fields (self, GTK_WIDGET (self->serve_setup_group), QM_WIZARD_STEP_SETUP,
                        concurrency_rows, G_N_ELEMENTS (concurrency_rows));
}

/* The parallel degrees are the core's choice while the switch is on. */
void
qm_wizard_show_parallel (QmWizard *self,
                         gboolean  shown)
{
  for (guint i = 0; i < G_N_ELEMENTS (parallel_rows); i++)
    gtk_widget_set_visible (GTK_WIDGET (qm_wizard_find_field (self, parallel_rows[i].key)->row),
                            shown);
}
