/* qm-wizard.c: the New Plan wizard (issue #8).
 *
 * The widgets are the single source of truth: every keystroke parses its
 * field, composes a whole QmPlan from all the fields (compose_plan) and
 * hands it to a QmPlanEditor, which re-estimates it. qm_estimate() takes
 * microseconds, so there is no caching and no partial update. Nothing is
 * saved here: the plan leaves only through ::plan-created.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-catalog.h"
#include "qm-catalog-store.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-parse.h"
#include "qm-plan.h"
#include "qm-plan-editor.h"
#include "qm-wizard.h"
#include "qm-text.h"

/* Compute-optimal training uses about 20 tokens per parameter (Hoffmann et
 * al. 2022, "Training Compute-Optimal Large Language Models", Table 3). */
#define CHINCHILLA_TOKENS_PER_PARAM 20.0

/* A serving plan sized for its request rate has no deadline, but the plan
 * format wants a target; the estimate ignores deadline_days when serving
 * (power and cost run over one month, QM_HOURS_PER_MONTH). */
#define SERVING_PLACEHOLDER_DAYS 30.0

typedef enum
{
  VALUE_DOUBLE,
  VALUE_UINT,
} ValueType;

typedef struct
{
  const char  *key;         /* merge key; widget names "field-KEY", "row-KEY" */
  const char  *title;
  const char  *subtitle;
  QmParseKind  kind;
  gsize        offset;      /* into QmPlan */
  ValueType    type;
  double       min;
  double       max;
  gboolean     min_open;    /* must be > min, not >= min */
  gboolean     optional;    /* empty means automatic, or no limit */
} FieldSpec;

typedef struct
{
  QmWizard        *self;
  const FieldSpec *spec;
  QmWizardStep     step;
  AdwActionRow    *row;
  GtkEntry        *entry;
  gboolean         touched;
  gboolean         valid;
  gboolean         has_value;
  double           value;
  char            *message;   /* why it is invalid */
} Field;

typedef enum
{
  HW_GPU,
  HW_SERVER,
  HW_NETWORK,
  HW_STORAGE,
  N_HW
} HwKind;

typedef struct
{
  HwKind   kind;
  char     id[QM_ID_LEN];
  gboolean embedded;        /* a user entry or price override: the plan carries the spec */
  union
  {
    QmCatalogInfo info;
    QmGpuSpec     gpu;
    QmServerSpec  server;
    QmNetworkSpec network;
    QmStorageSpec storage;
  } spec;
  AdwActionRow   *row;
  GtkCheckButton *check;
} HwItem;

typedef enum
{
  MODEL_PRESET,
  MODEL_SIZE,
  MODEL_SHAPE,
  N_MODEL_SOURCES
} ModelSource;

struct _QmWizard
{
  AdwWindow             parent_instance;

  QmStore              *store;       /* not owned; may be NULL */
  QmPlanEditor         *editor;
  GSettings            *settings;
  QmPlan                base;        /* qm_plan_init + Preferences */
  QmWizardStep          step;
  gboolean              building;    /* setting up: no re-estimates, nothing touched */
  gboolean              created;

  QmMode                mode;
  ModelSource           model_source;
  const QmModelPreset  *preset;
  GPtrArray            *fields;      /* Field */
  GPtrArray            *hw[N_HW];    /* HwItem */
  HwItem               *selected[N_HW];
  GPtrArray            *offers;      /* const QmCloudOffer *, as in offer_row */
  GPtrArray            *note_rows;   /* rows of warnings_group and assumptions_group */
  int                   invalid_step;   /* step of qm_plan_validate's error, or N_STEPS */
  char                 *invalid_message;   /* that error, in words for people */
  const char           *invalid_fields;    /* key_steps[].fields of that error */
  /* Next was pressed on the step while something was missing: from then
   * on it shows every complaint, not only those of fields edited. */
  gboolean              attempted[QM_WIZARD_N_STEPS];
  Field                *complaint_field;   /* the row showing invalid_message, or NULL */
  gboolean              name_edited;

  /* Template */
  AdwWindowTitle       *window_title;
  GtkButton            *next_button;
  GtkButton            *back_button;
  GtkButton            *cancel_button;
  GtkBox               *dots;
  GtkStack             *stack;
  AdwPreferencesPage   *goal_page;
  AdwPreferencesPage   *model_page;
  AdwPreferencesPage   *data_page;
  AdwPreferencesPage   *setup_page;
  AdwPreferencesPage   *hardware_page;
  AdwPreferencesPage   *facility_page;
  AdwPreferencesPage   *review_page;
  AdwPreferencesGroup  *goal_group;
  AdwPreferencesGroup  *model_source_group;
  AdwPreferencesGroup  *model_preset_group;
  AdwPreferencesGroup  *model_size_group;
  AdwPreferencesGroup  *model_shape_group;
  AdwPreferencesGroup  *model_summary_group;
  AdwPreferencesGroup  *data_group;
  AdwPreferencesGroup  *schedule_group;
  AdwPreferencesGroup  *traffic_group;
  AdwPreferencesGroup  *latency_group;
  AdwPreferencesGroup  *setup_group;
  AdwPreferencesGroup  *advanced_group;
  AdwPreferencesGroup  *serve_setup_group;
  AdwPreferencesGroup  *hardware_group;
  AdwPreferencesGroup  *pricing_group;
  AdwPreferencesGroup  *facility_group;
  AdwPreferencesGroup  *name_group;
  AdwPreferencesGroup  *figures_group;
  AdwPreferencesGroup  *warnings_group;
  AdwPreferencesGroup  *assumptions_group;

  /* Built in code */
  GtkWidget            *dot[QM_WIZARD_N_STEPS];
  GtkLabel             *step_message[QM_WIZARD_N_STEPS];
  AdwActionRow         *so_far_row[QM_WIZARD_N_STEPS];
  GtkCheckButton       *goal_check[5];
  GtkToggleButton      *source_button[N_MODEL_SOURCES];
  GtkSearchEntry       *preset_search;
  GtkListBox           *preset_list;
  GtkLabel             *total_params_label;
  GtkLabel             *active_params_label;
  GtkLabel             *chinchilla_label;
  AdwActionRow         *active_params_row;
  GtkSwitch            *fixed_gpus_switch;
  AdwActionRow         *fixed_gpus_row;
  AdwComboRow          *precision_row;
  AdwComboRow          *optimizer_row;
  AdwComboRow          *zero_row;
  AdwComboRow          *recompute_row;
  GtkSwitch            *flash_switch;
  GtkSwitch            *auto_parallel_switch;
  AdwComboRow          *weight_precision_row;
  AdwComboRow          *kv_precision_row;
  AdwExpanderRow       *hw_expander[N_HW];
  AdwComboRow          *pricing_row;
  AdwComboRow          *offer_row;
  AdwEntryRow          *name_row;
  GHashTable           *review;       /* key -> GtkLabel (value), row via "qm-row" data */
};

G_DEFINE_FINAL_TYPE (QmWizard, qm_wizard, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_STORE,
  PROP_STEP,
  N_PROPS
};

enum {
  PLAN_CREATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Tables                                                              */

static const char *step_names[QM_WIZARD_N_STEPS] = {
  "goal", "model", "data", "setup", "hardware", "facility", "review",
};
static const char *step_titles[QM_WIZARD_N_STEPS] = {
  N_("Goal"), N_("Model"), N_("Data and Schedule"), N_("Training Setup"),
  N_("Hardware"), N_("Facility and Pricing"), N_("Review"),
};

static const struct
{
  QmMode      mode;
  const char *id;
  const char *title;
  const char *subtitle;
} goals[] = {
  { QM_MODE_PRETRAIN, "pretrain", N_("Pretrain a Model"),
    N_("Train a new model from scratch on a large body of text") },
  { QM_MODE_FINETUNE, "finetune", N_("Fine-Tune All Weights"),
    N_("Continue training an existing model on your own data") },
  { QM_MODE_LORA, "lora", N_("Fine-Tune with LoRA"),
    N_("Train small add-on weights while the model stays frozen; needs far fewer GPUs") },
  { QM_MODE_QLORA, "qlora", N_("Fine-Tune with QLoRA"),
    N_("LoRA on a copy of the model compressed to 4 bits; fits the smallest clusters") },
  { QM_MODE_INFERENCE, "inference", N_("Serve a Model"),
    N_("Answer people’s requests with a trained model, also called inference") },
};

static const QmPrecision train_precisions[] = {
  QM_PRECISION_BF16, QM_PRECISION_FP16, QM_PRECISION_FP8, QM_PRECISION_FP32,
};
/* The choices name themselves and say what they mean: each combo row
 * shows the chosen one as its subtitle, which wraps in a narrow window. */
static const char *train_precision_names[] = {
  N_("BF16, the usual choice"), N_("FP16, for GPUs without BF16"),
  N_("FP8, faster on H100 and newer"), N_("FP32, full precision and slow"),
};
static const QmOptimizer optimizers[] = {
  QM_OPTIMIZER_ADAMW, QM_OPTIMIZER_ADAMW_8BIT, QM_OPTIMIZER_SGD, QM_OPTIMIZER_ADAFACTOR,
};
static const char *optimizer_names[] = {
  N_("AdamW, the usual choice"), N_("8-bit AdamW, less memory"),
  N_("SGD with momentum, least memory"), N_("Adafactor, little memory"),
};
static const char *zero_names[] = {
  N_("Off: a full copy on every GPU"),
  N_("Stage 1: shards optimizer states across data-parallel GPUs"),
  N_("Stage 2: also shards the gradients"),
  N_("Stage 3: also shards the weights, as FSDP does"),
};
static const QmRecompute recomputes[] = {
  QM_RECOMPUTE_NONE, QM_RECOMPUTE_SELECTIVE, QM_RECOMPUTE_FULL,
};
static const char *recompute_names[] = {
  N_("None: keeps everything, needs the most memory"),
  N_("Selective: recomputes attention internals, the usual choice"),
  N_("Full: recomputes each layer, needs the least memory"),
};
static const QmPrecision serve_precisions[] = {
  QM_PRECISION_BF16, QM_PRECISION_FP8, QM_PRECISION_INT8, QM_PRECISION_INT4,
};
static const char *serve_precision_names[] = {
  N_("BF16, full quality"), N_("FP8, half the memory"), N_("INT8, half the memory"),
  N_("INT4, a quarter of the memory"),
};
static const QmPricingMode pricing_modes[] = {
  QM_PRICING_BUY, QM_PRICING_RENT_ON_DEMAND, QM_PRICING_RENT_RESERVED,
};
static const char *pricing_names[] = {
  N_("Buy the Hardware"), N_("Rent On Demand"), N_("Rent Reserved"),
};

#define PLAN_OFF(member) G_STRUCT_OFFSET (QmPlan, member)

static const FieldSpec params_field = {
  "params", N_("Parameters"), N_("The model’s size, for example 70B or 8 billion"),
  QM_PARSE_PARAMS, PLAN_OFF (workload.model.params_hint), VALUE_DOUBLE, 0, 1e14, TRUE, FALSE,
};

static const FieldSpec shape_fields[] = {
  { "layers", N_("Layers"), N_("Transformer blocks stacked on top of each other"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.layers), VALUE_UINT, 1, 1000, FALSE, FALSE },
  { "hidden", N_("Hidden Size"), N_("Width of each layer"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.hidden), VALUE_UINT, 1, 1e6, FALSE, FALSE },
  { "heads", N_("Attention Heads"), N_("Must divide the hidden size"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.heads), VALUE_UINT, 1, 1e6, FALSE, FALSE },
  { "kv-heads", N_("Key-Value Heads"), N_("Fewer than the attention heads saves memory (GQA); empty for the same number"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.kv_heads), VALUE_UINT, 1, 1e6, FALSE, TRUE },
  { "ffn", N_("Feed-Forward Size"), N_("Width of the MLP inside each layer"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.ffn_hidden), VALUE_UINT, 1, 1e7, FALSE, FALSE },
  { "vocab", N_("Vocabulary"), N_("Distinct tokens the model knows"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.vocab), VALUE_UINT, 2, 1e7, FALSE, FALSE },
  { "experts", N_("Experts"), N_("For a mixture-of-experts model; empty for a dense model"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.experts), VALUE_UINT, 1, 65536, FALSE, TRUE },
  { "experts-per-token", N_("Experts per Token"), N_("Experts each token is routed to"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.experts_per_token), VALUE_UINT, 1, 65536, FALSE, TRUE },
  { "expert-ffn", N_("Expert Feed-Forward Size"), N_("Width of one expert’s MLP; empty for the feed-forward size"),
    QM_PARSE_COUNT, PLAN_OFF (workload.model.moe_ffn_hidden), VALUE_UINT, 1, 1e7, FALSE, TRUE },
};

static const FieldSpec data_fields[] = {
  { "tokens", N_("Training Tokens"), N_("Text to learn from in one pass, for example 15T or 300B"),
    QM_PARSE_TOKENS, PLAN_OFF (workload.tokens), VALUE_DOUBLE, 0, 1e16, TRUE, FALSE },
  { "epochs", N_("Passes over the Data"), N_("Epochs; 1 for pretraining, a few for fine-tuning"),
    QM_PARSE_NUMBER, PLAN_OFF (workload.epochs), VALUE_DOUBLE, 0, 10000, TRUE, FALSE },
  { "seq-len", N_("Sequence Length"), N_("Tokens the model reads at once, for example 8k"),
    QM_PARSE_SEQ_LEN, PLAN_OFF (workload.seq_len), VALUE_UINT, 1, 1e8, FALSE, FALSE },
  { "global-batch", N_("Global Batch"), N_("Sequences per training step, over all GPUs"),
    QM_PARSE_COUNT, PLAN_OFF (workload.global_batch), VALUE_UINT, 1, 1e8, FALSE, FALSE },
};

static const FieldSpec deadline_field = {
  "deadline", N_("Finish Within"), N_("Time until the model must be trained, for example 60 days or 8 weeks"),
  QM_PARSE_DAYS, PLAN_OFF (workload.deadline_days), VALUE_DOUBLE, 0, 36500, TRUE, FALSE,
};
static const FieldSpec gpus_field = {
  "gpus", N_("Number of GPUs"), N_("The cluster you have, or want to rent"),
  QM_PARSE_COUNT, PLAN_OFF (workload.target_gpus), VALUE_UINT, 1, 1e7, FALSE, FALSE,
};

static const FieldSpec traffic_fields[] = {
  { "requests", N_("Requests per Minute"), N_("At the busiest time of day"),
    QM_PARSE_NUMBER, PLAN_OFF (workload.inference.requests_per_minute), VALUE_DOUBLE, 0, 1e9, TRUE, FALSE },
  { "input-tokens", N_("Prompt Length"), N_("Tokens sent with each request"),
    QM_PARSE_COUNT, PLAN_OFF (workload.inference.input_tokens), VALUE_UINT, 1, 1e8, FALSE, FALSE },
  { "output-tokens", N_("Answer Length"), N_("Tokens generated for each request"),
    QM_PARSE_COUNT, PLAN_OFF (workload.inference.output_tokens), VALUE_UINT, 1, 1e8, FALSE, FALSE },
};
static const FieldSpec latency_fields[] = {
  { "ttft", N_("Time to First Token"), N_("How soon an answer starts to appear"),
    QM_PARSE_MILLISECONDS, PLAN_OFF (workload.inference.ttft_ms), VALUE_DOUBLE, 0, 1e7, TRUE, TRUE },
  { "tpot", N_("Time per Token"), N_("How fast the answer is written after that"),
    QM_PARSE_MILLISECONDS, PLAN_OFF (workload.inference.tpot_ms), VALUE_DOUBLE, 0, 1e7, TRUE, TRUE },
};

static const FieldSpec lora_field = {
  "lora-rank", N_("LoRA Rank"), N_("Size of the add-on weights; 8 to 64 is typical"),
  QM_PARSE_COUNT, PLAN_OFF (workload.lora_rank), VALUE_UINT, 1, 65536, FALSE, FALSE,
};
static const FieldSpec parallel_fields[] = {
  { "tp", N_("Tensor Parallel"), N_("GPUs that share each layer; must divide the GPUs of a server"),
    QM_PARSE_COUNT, PLAN_OFF (workload.tp), VALUE_UINT, 1, 1024, FALSE, TRUE },
  { "pp", N_("Pipeline Parallel"), N_("Groups of layers placed on successive GPUs"),
    QM_PARSE_COUNT, PLAN_OFF (workload.pp), VALUE_UINT, 1, 1000, FALSE, TRUE },
  { "cp", N_("Context Parallel"), N_("GPUs that share one long sequence"),
    QM_PARSE_COUNT, PLAN_OFF (workload.cp), VALUE_UINT, 1, 1e6, FALSE, TRUE },
  { "ep", N_("Expert Parallel"), N_("GPUs the experts of a mixture-of-experts model are spread over"),
    QM_PARSE_COUNT, PLAN_OFF (workload.ep), VALUE_UINT, 1, 65536, FALSE, TRUE },
  { "micro-batch", N_("Micro-Batch"), N_("Sequences each GPU works on at once"),
    QM_PARSE_COUNT, PLAN_OFF (workload.micro_batch), VALUE_UINT, 1, 1e8, FALSE, TRUE },
};
static const FieldSpec mfu_field = {
  "mfu", N_("Model FLOPs Utilisation"), N_("Share of the GPUs’ peak speed the job reaches; empty to predict it"),
  QM_PARSE_PERCENT, PLAN_OFF (workload.mfu), VALUE_DOUBLE, 0, 1, TRUE, TRUE,
};
static const FieldSpec concurrency_field = {
  "concurrency", N_("Requests in Flight"), N_("Answered at once by each copy of the model; empty to size it"),
  QM_PARSE_COUNT, PLAN_OFF (workload.inference.concurrency), VALUE_UINT, 1, 1e6, FALSE, TRUE,
};

static const FieldSpec price_field = {
  "gpu-hour", N_("Price per GPU-Hour"), N_("Empty to use the offer’s price"),
  QM_PARSE_MONEY, PLAN_OFF (pricing.usd_per_gpu_hour), VALUE_DOUBLE, 0, 1000, TRUE, TRUE,
};
static const FieldSpec amortization_field = {
  "amortization", N_("Write Off Over"), N_("Years over which bought hardware is paid off"),
  QM_PARSE_NUMBER, PLAN_OFF (pricing.amortization_years), VALUE_DOUBLE, 0, 30, TRUE, FALSE,
};
static const FieldSpec facility_fields[] = {
  { "pue", N_("Power Usage Effectiveness"), N_("Facility power divided by IT power; 1.1 to 1.5 is typical"),
    QM_PARSE_NUMBER, PLAN_OFF (facility.pue), VALUE_DOUBLE, 1, 3, FALSE, FALSE },
  { "kwh", N_("Electricity Price"), N_("Per kilowatt-hour"),
    QM_PARSE_MONEY, PLAN_OFF (facility.usd_per_kwh), VALUE_DOUBLE, 0, 10, FALSE, FALSE },
  { "rack-kw", N_("Power per Rack"), N_("Kilowatts each rack can be supplied and cooled with"),
    QM_PARSE_NUMBER, PLAN_OFF (facility.rack_kw), VALUE_DOUBLE, 0, 2000, TRUE, FALSE },
  { "rack-units", N_("Rack Height"), N_("Usable rack units (U) in each rack"),
    QM_PARSE_COUNT, PLAN_OFF (facility.rack_units), VALUE_UINT, 1, 100, FALSE, FALSE },
  { "carbon", N_("Grid Carbon Intensity"), N_("Grams of CO₂e per kilowatt-hour of the local grid"),
    QM_PARSE_NUMBER, PLAN_OFF (facility.gco2_per_kwh), VALUE_DOUBLE, 0, 2000, FALSE, FALSE },
};

/* Plan keys (qm_plan_validate) to the step that edits them, and the fields
 * whose editing may show its complaint before Next is pressed; the first
 * of them that is shown carries the complaint on its row. */
static const struct
{
  const char  *prefix;
  QmWizardStep step;
  const char  *fields;      /* space-separated field keys */
} key_steps[] = {
  { "workload.model.heads", QM_WIZARD_STEP_MODEL, "heads hidden" },
  { "workload.model.kv_heads", QM_WIZARD_STEP_MODEL, "kv-heads heads" },
  { "workload.model.experts_per_token", QM_WIZARD_STEP_MODEL, "experts-per-token experts" },
  { "workload.model.", QM_WIZARD_STEP_MODEL,
    "params layers hidden heads kv-heads ffn vocab experts experts-per-token expert-ffn" },
  { "workload.tokens_b", QM_WIZARD_STEP_DATA, "tokens" },
  { "workload.epochs", QM_WIZARD_STEP_DATA, "epochs" },
  { "workload.seq_len", QM_WIZARD_STEP_DATA, "seq-len" },
  { "workload.global_batch", QM_WIZARD_STEP_DATA, "global-batch" },
  { "target.", QM_WIZARD_STEP_DATA, "deadline gpus" },
  { "workload.inference.concurrency", QM_WIZARD_STEP_SETUP, "concurrency" },
  { "workload.inference.", QM_WIZARD_STEP_DATA, "requests input-tokens output-tokens ttft tpot" },
  { "workload.micro_batch", QM_WIZARD_STEP_SETUP, "micro-batch" },
  { "workload.tp", QM_WIZARD_STEP_SETUP, "tp" },
  { "workload.pp", QM_WIZARD_STEP_SETUP, "pp" },
  { "workload.cp", QM_WIZARD_STEP_SETUP, "cp" },
  { "workload.ep", QM_WIZARD_STEP_SETUP, "ep" },
  { "workload.precision", QM_WIZARD_STEP_SETUP, "" },
  { "workload.", QM_WIZARD_STEP_SETUP, "lora-rank mfu" },
  { "hardware.", QM_WIZARD_STEP_HARDWARE, "" },
  { "facility.", QM_WIZARD_STEP_FACILITY, "pue kwh rack-kw rack-units carbon" },
  { "pricing.", QM_WIZARD_STEP_FACILITY, "gpu-hour amortization" },
  { "reliability.", QM_WIZARD_STEP_FACILITY, "" },
};

/* ------------------------------------------------------------------ */
/* Formatting                                                          */

/* 70.55e9 -> "70.6 billion": words, since procurement reads them aloud. */
static char *
format_big (double v)
{
  static const struct { double scale; const char *fmt; } units[] = {
    { 1e12, N_("%s trillion") }, { 1e9, N_("%s billion") }, { 1e6, N_("%s million") },
  };
  char num[QM_FORMAT_BUF];

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (v >= units[i].scale * 0.9995)
      {
        double x = v / units[i].scale;

        qm_format_number (num, sizeof num, x, x < 100 && fabs (x - round (x)) > 0.05 ? 1 : 0);
        return g_strdup_printf (_(units[i].fmt), num);
      }
  qm_format_number (num, sizeof num, v, 0);
  return g_strdup (num);
}

static char *
format_plain (double v)
{
  char buf[QM_FORMAT_BUF];
  int decimals = 0;

  while (decimals < 3 && fabs (v * pow (10, decimals) - round (v * pow (10, decimals))) > 1e-9)
    decimals++;
  return g_strdup (qm_format_number (buf, sizeof buf, v, decimals));
}

static char *
format_days (double days)
{
  char buf[QM_FORMAT_BUF];

  if (days < 1)
    return g_strdup (qm_format_days (buf, sizeof buf, days));
  {
    g_autofree char *n = format_plain (round (days * 10) / 10);

    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s day", "%s days",
                                         days == 1 ? 1 : 2), n);
  }
}

static const char *
currency (QmWizard *self)
{
  return self->base.pricing.currency;
}

static char *
format_money (QmWizard *self,
              double    usd)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (qm_format_money (buf, sizeof buf, usd, currency (self)));
}

/* What a parsed value was understood as, when that is not obvious. */
static char *
describe_value (QmWizard    *self,
                QmParseKind  kind,
                double       v)
{
  switch (kind)
    {
    case QM_PARSE_TOKENS:
      {
        g_autofree char *big = format_big (v);
        return g_strdup_printf (_("%s tokens"), big);
      }
    case QM_PARSE_PARAMS:
      {
        g_autofree char *big = format_big (v);
        return g_strdup_printf (_("%s parameters"), big);
      }
    case QM_PARSE_SEQ_LEN:
      {
        g_autofree char *n = format_plain (v);
        return g_strdup_printf (_("%s tokens"), n);
      }
    case QM_PARSE_DAYS:
      return format_days (v);
    case QM_PARSE_PERCENT:
      {
        g_autofree char *n = format_plain (round (v * 1000) / 10);
        return g_strdup_printf ("%s %%", n);
      }
    case QM_PARSE_MILLISECONDS:
      {
        g_autofree char *n = format_plain (v);
        return g_strdup_printf (_("%s ms"), n);
      }
    case QM_PARSE_MONEY:
      {
        char buf[QM_FORMAT_BUF];
        g_autofree char *n = g_strdup (qm_format_number (buf, sizeof buf, v, v < 100 ? 2 : 0));
        return g_strdup_printf ("%s%s", g_str_equal (currency (self), "USD") ? "$" : "", n);
      }
    case QM_PARSE_NUMBER:
    case QM_PARSE_COUNT:
    case QM_N_PARSE_KINDS:
    default:
      return format_plain (v);
    }
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */

static void
field_free (gpointer data)
{
  Field *field = data;

  g_free (field->message);
  g_free (field);
}

/* Hidden rows (another goal, a collapsed choice) do not count; collapsed
 * expander rows still do, as they stay visible. */
static gboolean
widget_active (QmWizard  *self,
               GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL && w != GTK_WIDGET (self->stack); w = gtk_widget_get_parent (w))
    if (!gtk_widget_get_visible (w))
      return FALSE;
  return TRUE;
}

static gboolean
field_active (Field *field)
{
  return widget_active (field->self, GTK_WIDGET (field->row));
}

static gboolean
field_ok (Field *field)
{
  return field->valid && (field->has_value || field->spec->optional);
}

/* "15T", "8 weeks": a unit the reader may want spelt out. */
static gboolean
has_unit (const char *text)
{
  for (const char *p = text; *p; p++)
    if (g_ascii_isalpha (*p))
      return TRUE;
  return FALSE;
}

static void
field_show (Field *field)
{
  gboolean complaint = field->self->complaint_field == field;
  gboolean show_error = (!field->valid && field->touched) || complaint;
  g_autofree char *subtitle = NULL;

  if (!field->valid && field->touched)
    subtitle = g_strdup (field->message);
  else if (complaint)
    subtitle = g_strdup (field->self->invalid_message);
  else if (field->has_value && has_unit (gtk_editable_get_text (GTK_EDITABLE (field->entry))))
    {
      g_autofree char *what = describe_value (field->self, field->spec->kind, field->value);
      g_autofree char *typed = g_strstrip (g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (field->entry)), -1));
      g_autofree char *shown = g_utf8_casefold (what, -1);

      if (g_str_equal (typed, shown))
        subtitle = g_strdup (_(field->spec->subtitle));
      else
        /* Translators: a field's explanation, then what was typed as understood ("= 15 trillion tokens"). */
        subtitle = g_strdup_printf (_("%s · = %s"), _(field->spec->subtitle), what);
    }
  else
    subtitle = g_strdup (_(field->spec->subtitle));

  adw_action_row_set_subtitle (field->row, subtitle);
  if (show_error)
    {
      gtk_widget_add_css_class (GTK_WIDGET (field->row), "error");
      gtk_widget_add_css_class (GTK_WIDGET (field->entry), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (field->row), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (field->entry), "error");
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (field->entry),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (field->entry),
                               GTK_ACCESSIBLE_STATE_INVALID,
                               show_error ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE,
                               -1);
}

static void
field_parse (Field *field)
{
  const FieldSpec *spec = field->spec;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (field->entry));
  g_autoptr(GError) error = NULL;
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  double v = 0;

  g_clear_pointer (&field->message, g_free);
  field->has_value = FALSE;
  field->valid = TRUE;

  if (trimmed[0] == '\0')
    {
      if (!spec->optional)
        {
          field->valid = FALSE;
          field->message = qm_parse_hint (spec->kind);
        }
      return;
    }
  if (!qm_parse (spec->kind, trimmed, &v, &error))
    {
      field->valid = FALSE;
      field->message = g_strdup (error->message);
      return;
    }
  if ((spec->min_open ? !(v > spec->min) : !(v >= spec->min)) || v > spec->max)
    {
      g_autofree char *lo = describe_value (field->self, spec->kind, spec->min);
      g_autofree char *hi = describe_value (field->self, spec->kind, spec->max);

      field->valid = FALSE;
      if (spec->min_open)
        field->message = g_strdup_printf (_("Must be more than %s and at most %s"), lo, hi);
      else
        field->message = g_strdup_printf (_("Must be from %s to %s"), lo, hi);
      return;
    }
  field->has_value = TRUE;
  field->value = v;
}

static void refresh (QmWizard *self, const char *merge_key);

static void
field_changed (GtkEditable *editable,
               Field       *field)
{
  if (!field->self->building)
    field->touched = TRUE;
  field_parse (field);
  field_show (field);
  refresh (field->self, field->spec->key);
}

static void
field_activated (GtkEntry *entry,
                 Field    *field)
{
  gtk_widget_activate_action (GTK_WIDGET (field->self), "wizard.next", NULL);
}

static void
set_accessible_label (GtkWidget  *widget,
                      const char *label)
{
  qm_a11y_label (widget, label);
}

/* An AdwActionRow with the explanation as subtitle (or the error, in the
 * error style) and the entry at the end: AdwEntryRow has no subtitle. */
static Field *
add_field (QmWizard        *self,
           GtkWidget       *parent,
           QmWizardStep     step,
           const FieldSpec *spec,
           const char      *initial)
{
  Field *field = g_new0 (Field, 1);
  g_autofree char *entry_name = g_strconcat ("field-", spec->key, NULL);
  g_autofree char *row_name = g_strconcat ("row-", spec->key, NULL);

  field->self = self;
  field->spec = spec;
  field->step = step;
  field->row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (field->row), _(spec->title));
  adw_action_row_set_subtitle (field->row, _(spec->subtitle));
  gtk_widget_set_name (GTK_WIDGET (field->row), row_name);

  field->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (field->entry), entry_name);
  gtk_widget_set_valign (GTK_WIDGET (field->entry), GTK_ALIGN_CENTER);
  gtk_editable_set_width_chars (GTK_EDITABLE (field->entry), 9);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (field->entry), 9);
  gtk_entry_set_activates_default (field->entry, FALSE);
  if (spec->optional)
    gtk_entry_set_placeholder_text (field->entry, spec->kind == QM_PARSE_MILLISECONDS
                                                  ? _("No limit") : _("Auto"));
  set_accessible_label (GTK_WIDGET (field->entry), _(spec->title));
  adw_action_row_add_suffix (field->row, GTK_WIDGET (field->entry));
  adw_action_row_set_activatable_widget (field->row, GTK_WIDGET (field->entry));

  if (ADW_IS_EXPANDER_ROW (parent))
    adw_expander_row_add_row (ADW_EXPANDER_ROW (parent), GTK_WIDGET (field->row));
  else
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (parent), GTK_WIDGET (field->row));

  g_ptr_array_add (self->fields, field);
  if (initial != NULL)
    gtk_editable_set_text (GTK_EDITABLE (field->entry), initial);
  field_parse (field);
  field_show (field);
  g_signal_connect (field->entry, "changed", G_CALLBACK (field_changed), field);
  g_signal_connect (field->entry, "activate", G_CALLBACK (field_activated), field);
  return field;
}

static Field *
find_field (QmWizard   *self,
            const char *key)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (g_str_equal (field->spec->key, key))
        return field;
    }
  return NULL;
}

static void
write_value (QmPlan      *plan,
             const Field *field)
{
  gpointer where = G_STRUCT_MEMBER_P (plan, field->spec->offset);

  if (field->spec->type == VALUE_UINT)
    *(guint *) where = (guint) field->value;
  else
    *(double *) where = field->value;
}

/* ------------------------------------------------------------------ */
/* Hardware                                                            */

static QmCatalogKind
hw_catalog_kind (HwKind kind)
{
  static const QmCatalogKind kinds[N_HW] = {
    QM_CATALOG_KIND_GPU, QM_CATALOG_KIND_SERVER, QM_CATALOG_KIND_NETWORK, QM_CATALOG_KIND_STORAGE,
  };
  return kinds[kind];
}

static void
hw_load (QmWizard *self,
         HwKind    kind)
{
  GPtrArray *items = self->hw[kind];

  if (self->store != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) entries = qm_catalog_store_list (self->store, hw_catalog_kind (kind),
                                                            NULL, QM_CATALOG_LIST_NONE, &error);

      if (entries != NULL)
        {
          for (guint i = 0; i < entries->len; i++)
            {
              const QmCatalogEntry *entry = g_ptr_array_index (entries, i);
              HwItem *item = g_new0 (HwItem, 1);

              item->kind = kind;
              if (!qm_catalog_entry_parse (entry, &item->spec, NULL))
                {
                  g_free (item);
                  continue;
                }
              g_strlcpy (item->id, entry->id, sizeof item->id);
              item->embedded = !entry->builtin || entry->has_override;
              g_ptr_array_add (items, item);
            }
          return;
        }
      g_debug ("Catalog store unavailable, using the built-in catalog: %s", error->message);
    }

  {
    guint n = 0;
    gconstpointer array = NULL;
    gsize size = 0;

    switch (kind)
      {
      case HW_GPU: array = qm_catalog_gpus (&n); size = sizeof (QmGpuSpec); break;
      case HW_SERVER: array = qm_catalog_servers (&n); size = sizeof (QmServerSpec); break;
      case HW_NETWORK: array = qm_catalog_networks (&n); size = sizeof (QmNetworkSpec); break;
      case HW_STORAGE: array = qm_catalog_storages (&n); size = sizeof (QmStorageSpec); break;
      case N_HW:
      default: g_assert_not_reached ();
      }
    for (guint i = 0; i < n; i++)
      {
        HwItem *item = g_new0 (HwItem, 1);

        item->kind = kind;
        memcpy (&item->spec, (const char *) array + i * size, size);
        g_strlcpy (item->id, item->spec.info.id, sizeof item->id);
        g_ptr_array_add (items, item);
      }
  }
}

static char *
hw_spec_line (QmWizard     *self,
              const HwItem *item)
{
  const QmCatalogInfo *info = &item->spec.info;
  g_autofree char *price = info->price_usd > 0 ? format_money (self, info->price_usd)
                                               : g_strdup (_("no list price"));
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];

  switch (item->kind)
    {
    case HW_GPU:
      {
        const QmGpuSpec *g = &item->spec.gpu;
        gboolean bf16 = g->tflops[QM_PRECISION_BF16] > 0;
        double tflops = bf16 ? g->tflops[QM_PRECISION_BF16] : g->tflops[QM_PRECISION_FP16];

        qm_format_number (a, sizeof a, tflops, 0);
        qm_format_number (b, sizeof b, g->memory_gb, 0);
        qm_format_number (c, sizeof c, g->tdp_w, 0);
        /* Translators: "989 TFLOPS BF16 · 80 GB · 700 W · $30,000". */
        return g_strdup_printf (_("%s TFLOPS %s · %s GB · %s W · %s"), a,
                                bf16 ? "BF16" : "FP16", b, c, price);
      }
    case HW_SERVER:
      {
        const QmServerSpec *s = &item->spec.server;

        qm_format_number (a, sizeof a, s->power_max_w / 1000.0, 1);
        /* Translators: "8 GPUs · 10.2 kW · 8 U · $300,000". */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u GPU · %s kW · %u U · %s",
                                             "%u GPUs · %s kW · %u U · %s", s->gpus),
                                s->gpus, a, s->rack_units, price);
      }
    case HW_NETWORK:
      {
        const QmNetworkSpec *n = &item->spec.network;
        const char *tech = g_strcmp0 (n->technology, "infiniband") == 0 ? "InfiniBand" : _("Ethernet");

        qm_format_number (a, sizeof a, n->port_gbps, 0);
        /* Translators: "InfiniBand · 64 ports of 400 Gb/s · $30,000 per switch". */
        return g_strdup_printf (_("%s · %u ports of %s Gb/s · %s per switch"),
                                tech, n->ports, a, price);
      }
    case HW_STORAGE:
      {
        const QmStorageSpec *s = &item->spec.storage;
        g_autofree char *per_tb = format_money (self, s->usd_per_tb);

        return g_strdup_printf (_("%s · %s per TB"),
                                g_strcmp0 (s->kind, "local-nvme") == 0 ? _("Local NVMe drives")
                                                                       : _("Shared parallel file system"),
                                per_tb);
      }
    case N_HW:
    default:
      g_return_val_if_reached (g_strdup (""));
    }
}

static void
hw_update_subtitle (QmWizard *self,
                    HwKind    kind)
{
  HwItem *item = self->selected[kind];

  if (item != NULL)
    adw_expander_row_set_subtitle (self->hw_expander[kind], item->spec.info.name);
  else if (kind == HW_SERVER)
    adw_expander_row_set_subtitle (self->hw_expander[kind],
                                   _("No server in the catalog holds this GPU"));
  else
    adw_expander_row_set_subtitle (self->hw_expander[kind], _("None chosen"));
}

static gboolean
server_fits_gpu (const HwItem *server,
                 const HwItem *gpu)
{
  return gpu != NULL && (server->spec.server.gpu_id == NULL ||
                         g_strcmp0 (server->spec.server.gpu_id, gpu->id) == 0);
}

static void update_offers (QmWizard *self);

/* Only servers that hold the chosen GPU are offered. */
static void
filter_servers (QmWizard *self)
{
  GPtrArray *servers = self->hw[HW_SERVER];
  HwItem *first = NULL;

  for (guint i = 0; i < servers->len; i++)
    {
      HwItem *item = g_ptr_array_index (servers, i);
      gboolean fits = server_fits_gpu (item, self->selected[HW_GPU]);

      gtk_widget_set_visible (GTK_WIDGET (item->row), fits);
      if (fits && first == NULL)
        first = item;
    }
  if (self->selected[HW_SERVER] == NULL ||
      !server_fits_gpu (self->selected[HW_SERVER], self->selected[HW_GPU]))
    {
      if (first != NULL)
        gtk_check_button_set_active (first->check, TRUE);
      else
        {
          if (self->selected[HW_SERVER] != NULL)
            gtk_check_button_set_active (self->selected[HW_SERVER]->check, FALSE);
          self->selected[HW_SERVER] = NULL;
        }
    }
  hw_update_subtitle (self, HW_SERVER);
}

static void
hw_toggled (GtkCheckButton *check,
            HwItem         *item)
{
  QmWizard *self = g_object_get_data (G_OBJECT (check), "qm-wizard");

  if (!gtk_check_button_get_active (check))
    return;
  self->selected[item->kind] = item;
  if (self->building)
    return;
  hw_update_subtitle (self, item->kind);
  if (item->kind == HW_GPU)
    {
      filter_servers (self);
      update_offers (self);
    }
  refresh (self, NULL);
}

static void
build_hardware (QmWizard *self)
{
  static const char *titles[N_HW] = { N_("GPU"), N_("Server"), N_("Network"), N_("Storage") };
  static const char *prefixes[N_HW] = { "gpu-", "server-", "network-", "storage-" };
  static const char *defaults[N_HW] = { "h100-sxm-80gb", "dgx-h100", "ib-ndr-400", "parallel-fs" };

  for (guint k = 0; k < N_HW; k++)
    {
      GtkCheckButton *leader = NULL;

      self->hw[k] = g_ptr_array_new_with_free_func (g_free);
      hw_load (self, k);

      self->hw_expander[k] = ADW_EXPANDER_ROW (adw_expander_row_new ());
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->hw_expander[k]), _(titles[k]));
      gtk_widget_set_name (GTK_WIDGET (self->hw_expander[k]), prefixes[k]);
      adw_preferences_group_add (self->hardware_group, GTK_WIDGET (self->hw_expander[k]));

      for (guint i = 0; i < self->hw[k]->len; i++)
        {
          HwItem *item = g_ptr_array_index (self->hw[k], i);
          g_autofree char *line = hw_spec_line (self, item);
          g_autofree char *name = g_strconcat (prefixes[k], item->id, NULL);

          item->row = ADW_ACTION_ROW (adw_action_row_new ());
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (item->row), item->spec.info.name);
          adw_action_row_set_subtitle (item->row, line);
          item->check = GTK_CHECK_BUTTON (gtk_check_button_new ());
          gtk_widget_set_valign (GTK_WIDGET (item->check), GTK_ALIGN_CENTER);
          gtk_widget_set_name (GTK_WIDGET (item->check), name);
          set_accessible_label (GTK_WIDGET (item->check), item->spec.info.name);
          gtk_accessible_update_property (GTK_ACCESSIBLE (item->check),
                                          GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, line, -1);
          if (leader != NULL)
            gtk_check_button_set_group (item->check, leader);
          else
            leader = item->check;
          adw_action_row_add_prefix (item->row, GTK_WIDGET (item->check));
          adw_action_row_set_activatable_widget (item->row, GTK_WIDGET (item->check));
          adw_expander_row_add_row (self->hw_expander[k], GTK_WIDGET (item->row));
          g_object_set_data (G_OBJECT (item->check), "qm-wizard", self);
          if (g_str_equal (item->id, defaults[k]) || (i == 0 && self->selected[k] == NULL))
            {
              gtk_check_button_set_active (item->check, TRUE);
              self->selected[k] = item;
            }
          g_signal_connect (item->check, "toggled", G_CALLBACK (hw_toggled), item);
        }
      hw_update_subtitle (self, k);
    }
  filter_servers (self);
}

/* ------------------------------------------------------------------ */
/* Pricing                                                             */

static void
update_offers (QmWizard *self)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  const QmCloudOffer *offers;
  const char *gpu = self->selected[HW_GPU] ? self->selected[HW_GPU]->id : NULL;
  guint n = 0;

  g_ptr_array_set_size (self->offers, 0);
  offers = qm_catalog_cloud_offers (&n);
  gtk_string_list_append (list, _("Cheapest Offer for This GPU"));
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (offers[i].gpu_id, gpu) == 0)
      {
        g_autofree char *price = format_money (self, offers[i].usd_per_gpu_hour_on_demand);
        /* Translators: "AWS p5.48xlarge, $6.88 per GPU-hour". */
        g_autofree char *label = g_strdup_printf (_("%s, %s per GPU-hour"), offers[i].info.name, price);

        gtk_string_list_append (list, label);
        g_ptr_array_add (self->offers, (gpointer) &offers[i]);
      }
  adw_combo_row_set_model (self->offer_row, G_LIST_MODEL (list));
  adw_combo_row_set_selected (self->offer_row, 0);
}

/* ------------------------------------------------------------------ */
/* Composing the plan                                                  */

static const char *
model_name (QmWizard *self)
{
  if (self->model_source == MODEL_PRESET && self->preset != NULL)
    return self->preset->info.name;
  return _("Custom model");
}

static char *
auto_name (QmWizard     *self,
           const QmPlan *plan)
{
  const char *model = model_name (self);

  switch (plan->workload.mode)
    {
    case QM_MODE_PRETRAIN:
      return g_strdup_printf (_("%s pretraining"), model);
    case QM_MODE_FINETUNE:
      return g_strdup_printf (_("%s fine-tuning"), model);
    case QM_MODE_LORA:
      return g_strdup_printf (_("%s LoRA fine-tuning"), model);
    case QM_MODE_QLORA:
      return g_strdup_printf (_("%s QLoRA fine-tuning"), model);
    case QM_MODE_INFERENCE:
    default:
      return g_strdup_printf (_("%s serving"), model);
    }
}

static void
compose_plan (QmWizard *self,
              QmPlan   *p)
{
  QmWorkload *w = &p->workload;
  gboolean training = self->mode != QM_MODE_INFERENCE;
  gboolean fixed = gtk_switch_get_active (self->fixed_gpus_switch);
  guint sel;

  *p = self->base;
  w->mode = self->mode;

  memset (&w->model, 0, sizeof w->model);
  w->preset[0] = '\0';
  if (self->model_source == MODEL_PRESET && self->preset != NULL)
    {
      g_strlcpy (w->preset, self->preset->info.id, sizeof w->preset);
      w->model = self->preset->shape;
    }
  else if (self->model_source == MODEL_SHAPE)
    w->model.gated_mlp = TRUE;

  w->target_gpus = 0;
  w->deadline_days = training || fixed ? 0 : SERVING_PLACEHOLDER_DAYS;
  p->pricing.usd_per_gpu_hour = 0;

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (field->valid && field->has_value && field_active (field))
        write_value (p, field);
    }

  if (training)
    {
      sel = adw_combo_row_get_selected (self->precision_row);
      w->precision = train_precisions[MIN (sel, G_N_ELEMENTS (train_precisions) - 1)];
      sel = adw_combo_row_get_selected (self->optimizer_row);
      w->optimizer = optimizers[MIN (sel, G_N_ELEMENTS (optimizers) - 1)];
      w->zero_stage = MIN (adw_combo_row_get_selected (self->zero_row), 3u);
      sel = adw_combo_row_get_selected (self->recompute_row);
      w->recompute = recomputes[MIN (sel, G_N_ELEMENTS (recomputes) - 1)];
      w->flash_attention = gtk_switch_get_active (self->flash_switch);
    }
  else
    {
      sel = adw_combo_row_get_selected (self->weight_precision_row);
      w->inference.weight_precision = serve_precisions[MIN (sel, G_N_ELEMENTS (serve_precisions) - 1)];
      sel = adw_combo_row_get_selected (self->kv_precision_row);
      w->inference.kv_precision = serve_precisions[MIN (sel, G_N_ELEMENTS (serve_precisions) - 1)];
    }

  for (guint k = 0; k < N_HW; k++)
    {
      HwItem *item = self->selected[k];
      char *id;
      gboolean *embedded;

      switch (k)
        {
        case HW_GPU: id = p->gpu_id; embedded = &p->gpu_embedded; break;
        case HW_SERVER: id = p->server_id; embedded = &p->server_embedded; break;
        case HW_NETWORK: id = p->network_id; embedded = &p->network_embedded; break;
        case HW_STORAGE:
        default: id = p->storage_id; embedded = &p->storage_embedded; break;
        }
      if (item == NULL)
        continue;
      g_strlcpy (id, item->id, QM_ID_LEN);
      *embedded = item->embedded;
      switch (k)
        {
        case HW_GPU: p->hardware.gpu = item->spec.gpu; break;
        case HW_SERVER: p->hardware.server = item->spec.server; break;
        case HW_NETWORK: p->hardware.network = item->spec.network; break;
        case HW_STORAGE:
        default: p->hardware.storage = item->spec.storage; break;
        }
    }

  sel = adw_combo_row_get_selected (self->pricing_row);
  p->pricing.mode = pricing_modes[MIN (sel, G_N_ELEMENTS (pricing_modes) - 1)];
  p->offer_id[0] = '\0';
  sel = adw_combo_row_get_selected (self->offer_row);
  if (p->pricing.mode != QM_PRICING_BUY && sel != GTK_INVALID_LIST_POSITION &&
      sel >= 1 && sel - 1 < self->offers->len)
    {
      const QmCloudOffer *offer = g_ptr_array_index (self->offers, sel - 1);

      g_strlcpy (p->offer_id, offer->info.id, sizeof p->offer_id);
    }

  {
    const char *text = self->name_row ? gtk_editable_get_text (GTK_EDITABLE (self->name_row)) : "";
    /* A pasted tab or control character would make the saved plan unreadable. */
    g_autofree char *name = g_strstrip (qm_text_sanitize (text, FALSE));

    if (name[0] == '\0')
      {
        g_free (name);
        name = auto_name (self, p);
      }
    g_strlcpy (p->name, name, sizeof p->name);
  }
}

/* ------------------------------------------------------------------ */
/* Validity                                                            */

/* qm_plan_validate() speaks plan-file keys ("workload.tp: must divide the
 * 8 GPUs of a node (got 3)"), which the CLI keeps. The wizard says the
 * same in a sentence about what the person typed or picked. Complaints a
 * field shows itself (an empty or out-of-range entry) never get here. */
static char *
explain_plan_error (QmWizard     *self,
                    const QmPlan *p,
                    const char   *message)
{
  const QmWorkload *w = &p->workload;
  const QmModelShape *s = &w->model;
  guint gpn = p->hardware.server.gpus;

  if (g_str_has_prefix (message, "workload.model."))
    {
      if (self->model_source == MODEL_PRESET)
        return g_strdup (_("Pick a model from the list to continue."));
      if (self->model_source == MODEL_SIZE)
        return g_strdup (_("Enter the model’s size, for example 70B."));
      if (g_str_has_prefix (message, "workload.model.heads:") && s->heads > s->hidden)
        return g_strdup_printf (_("A model cannot have more attention heads (%u) than its hidden size (%u)."),
                                s->heads, s->hidden);
      if (g_str_has_prefix (message, "workload.model.heads:"))
        return g_strdup_printf (_("The attention heads (%u) must divide the hidden size (%u) evenly."),
                                s->heads, s->hidden);
      if (g_str_has_prefix (message, "workload.model.kv_heads:"))
        return g_strdup_printf (_("The key-value heads (%u) must divide the attention heads (%u) evenly."),
                                s->kv_heads, s->heads);
      if (g_str_has_prefix (message, "workload.model.experts_per_token:"))
        return g_strdup_printf (_("Each token cannot go to more experts (%u) than the model has (%u)."),
                                s->experts_per_token, s->experts);
      return g_strdup (_("Enter the model’s layers, hidden size, attention heads, feed-forward size and vocabulary."));
    }
  if (g_str_has_prefix (message, "workload.micro_batch:"))
    return g_strdup_printf (_("The micro-batch (%u) cannot be larger than the global batch (%u)."),
                            w->micro_batch, w->global_batch);
  if (g_str_has_prefix (message, "workload.tp:") && (w->tp > gpn || gpn % MAX (w->tp, 1u) != 0))
    return g_strdup_printf (_("Tensor parallel (%u) must divide the %u GPUs of a server."), w->tp, gpn);
  if (g_str_has_prefix (message, "workload.tp:"))
    return g_strdup_printf (_("Tensor parallel (%u) must divide the model’s %u attention heads."),
                            w->tp, s->heads);
  if (g_str_has_prefix (message, "workload.pp:"))
    return g_strdup_printf (_("Pipeline parallel (%u) cannot be more than the model’s %u layers."),
                            w->pp, s->layers);
  if (g_str_has_prefix (message, "workload.ep:") && s->experts <= 1)
    return g_strdup (_("A dense model has no experts to spread: leave Expert Parallel empty."));
  if (g_str_has_prefix (message, "workload.ep:"))
    return g_strdup_printf (_("Expert parallel (%u) must divide the model’s %u experts."),
                            w->ep, s->experts);
  if (g_str_has_prefix (message, "target.gpus:"))
    {
      guint mp = MAX (w->tp, 1u) * MAX (w->pp, 1u) * MAX (w->cp, 1u);

      return g_strdup_printf (_("The number of GPUs (%u) must be a multiple of tensor × pipeline × context parallel (%u)."),
                              w->target_gpus, mp);
    }
  if (g_str_has_prefix (message, "workload.precision:"))
    {
      g_autofree char *format = g_ascii_strup (qm_precision_to_string (w->precision), -1);

      /* Translators: "The A100 SXM 80 GB has no published speed for FP8: ..." */
      return g_strdup_printf (_("The %s has no published speed for %s: pick another number format or GPU."),
                              p->hardware.gpu.info.name, format);
    }
  if (g_str_has_prefix (message, "hardware."))
    return g_strdup (_("Pick a GPU and a server."));
  /* Translators: %s is the plan file's own wording, for keys the wizard does not edit. */
  return g_strdup_printf (_("This plan cannot be estimated yet: %s"), message);
}

static void
check_plan (QmWizard     *self,
            const QmPlan *plan)
{
  g_autoptr(GError) error = NULL;

  self->invalid_step = QM_WIZARD_N_STEPS;
  self->invalid_fields = "";
  g_clear_pointer (&self->invalid_message, g_free);
  if (qm_plan_validate (plan, &error))
    return;

  self->invalid_step = QM_WIZARD_STEP_REVIEW;
  for (guint i = 0; i < G_N_ELEMENTS (key_steps); i++)
    if (g_str_has_prefix (error->message, key_steps[i].prefix))
      {
        self->invalid_step = key_steps[i].step;
        self->invalid_fields = key_steps[i].fields;
        break;
      }
  self->invalid_message = explain_plan_error (self, plan, error->message);
}

static gboolean
step_ok (QmWizard    *self,
         QmWizardStep step)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (field->step == step && field_active (field) && !field_ok (field))
        return FALSE;
    }

  switch (step)
    {
    case QM_WIZARD_STEP_MODEL:
      if (self->model_source == MODEL_PRESET && self->preset == NULL)
        return FALSE;
      break;
    case QM_WIZARD_STEP_HARDWARE:
      if (self->selected[HW_GPU] == NULL || self->selected[HW_SERVER] == NULL)
        return FALSE;
      break;
    case QM_WIZARD_STEP_REVIEW:
      if (!qm_plan_editor_get_estimate (self->editor)->valid)
        return FALSE;
      break;
    case QM_WIZARD_STEP_GOAL:
    case QM_WIZARD_STEP_DATA:
    case QM_WIZARD_STEP_SETUP:
    case QM_WIZARD_STEP_FACILITY:
    case QM_WIZARD_N_STEPS:
    default:
      break;
    }
  /* The plan as a whole, for errors that belong to this or an earlier
   * step (a later change, such as the server, can break an earlier one). */
  return self->invalid_step > (int) step;
}

/* ------------------------------------------------------------------ */
/* Live figures                                                        */

static void
set_review (QmWizard   *self,
            const char *key,
            gboolean    visible,
            const char *value,
            const char *subtitle)
{
  GtkLabel *label = g_hash_table_lookup (self->review, key);
  AdwActionRow *row;

  g_return_if_fail (label != NULL);
  row = g_object_get_data (G_OBJECT (label), "qm-row");
  gtk_widget_set_visible (GTK_WIDGET (row), visible);
  gtk_label_set_label (label, value ? value : "");
  /* Short values stay on one line; long ones wrap at word breaks. */
  gtk_label_set_width_chars (label, MIN ((int) g_utf8_strlen (value ? value : "", -1), 14));
  adw_action_row_set_subtitle (row, subtitle);
  {
    g_autofree char *a11y = g_strdup_printf ("%s: %s",
                                             adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                                             value ? value : "");
    set_accessible_label (GTK_WIDGET (label), a11y);
  }
}

static void
clear_note_rows (QmWizard *self)
{
  for (guint i = 0; i < self->note_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->note_rows, i);
      GtkWidget *group = g_object_get_data (G_OBJECT (row), "qm-group");

      adw_preferences_group_remove (ADW_PREFERENCES_GROUP (group), row);
    }
  g_ptr_array_set_size (self->note_rows, 0);
}

static void
add_note_row (QmWizard            *self,
              AdwPreferencesGroup *group,
              const QmNote        *note,
              gboolean             warning)
{
  char buf[512];
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *text = g_markup_escape_text (qm_note_format (note, buf, sizeof buf), -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  if (warning)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Warning"), -1);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  g_object_set_data (G_OBJECT (row), "qm-group", group);
  adw_preferences_group_add (group, row);
  g_ptr_array_add (self->note_rows, row);
}

static void
update_review (QmWizard *self)
{
  const QmPlan *plan = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  gboolean training = e->has_training;
  gboolean buy = plan->pricing.mode == QM_PRICING_BUY;
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF];

  if (!self->name_edited)
    {
      g_autofree char *name = auto_name (self, plan);

      self->building = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
      self->building = FALSE;
    }

  {
    set_review (self, "gpus", TRUE, qm_format_number (a, sizeof a, e->gpus, 0),
                plan->hardware.gpu.info.name);
  }
  {
    set_review (self, "nodes", TRUE, qm_format_number (a, sizeof a, e->nodes, 0),
                plan->hardware.server.info.name);
  }
  set_review (self, "racks", e->has_cluster, qm_format_number (a, sizeof a, e->cluster.racks, 0),
              e->has_cluster && e->cluster.liquid_cooling ? _("Needs liquid cooling") : NULL);
  set_review (self, "ideal-days", training, qm_format_days (a, sizeof a, e->ideal_days),
              _("If nothing ever fails"));
  {
    g_autofree char *sub = NULL;

    if (e->has_reliability)
      {
        g_autofree char *pct = format_plain (round (e->reliability.goodput * 1000) / 10);
        /* Translators: %s is a percentage such as 94.5. */
        sub = g_strdup_printf (_("With restarts after failures and checkpoints; %s %% of the time is useful"), pct);
      }
    set_review (self, "train-days", training && e->has_reliability,
                qm_format_days (a, sizeof a, e->train_days), sub);
  }
  {
    const QmMemoryBreakdown *m = &e->memory;
    g_autofree char *sub = NULL;
    GtkLabel *label = g_hash_table_lookup (self->review, "memory");

    qm_format_bytes (b, sizeof b, m->capacity, QM_BYTES_GB);
    if (m->fits)
      sub = g_strdup_printf (_("Of %s: fits, with %s to spare"), b,
                             qm_format_bytes (a, sizeof a, m->margin, QM_BYTES_GB));
    else
      sub = g_strdup_printf (_("Of %s: does not fit, %s short"), b,
                             qm_format_bytes (a, sizeof a, -m->margin, QM_BYTES_GB));
    set_review (self, "memory", m->capacity > 0,
                qm_format_bytes (a, sizeof a, m->total, QM_BYTES_GB), sub);
    if (m->fits)
      {
        gtk_widget_remove_css_class (GTK_WIDGET (label), "error");
        gtk_widget_add_css_class (GTK_WIDGET (label), "success");
      }
    else
      {
        gtk_widget_remove_css_class (GTK_WIDGET (label), "success");
        gtk_widget_add_css_class (GTK_WIDGET (label), "error");
      }
  }
  {
    g_autofree char *it = g_strdup_printf (_("%s kW"), qm_format_number (a, sizeof a, e->power.it_peak_kw, 0));
    g_autofree char *fac = g_strdup_printf (_("%s kW"), qm_format_number (a, sizeof a, e->power.facility_peak_kw, 0));
    g_autofree char *pue = g_strdup_printf (_("With cooling and losses, PUE %s"),
                                            qm_format_number (b, sizeof b, e->power.pue, 2));

    set_review (self, "it-power", e->has_power, it, _("Servers, network and storage at full load"));
    set_review (self, "facility-power", e->has_power, fac, pue);
  }
  {
    g_autofree char *upfront = format_money (self, e->cost.upfront);
    g_autofree char *run = format_money (self, e->cost.run);
    g_autofree char *monthly = format_money (self, e->cost.monthly);

    set_review (self, "upfront", e->has_cost && buy, upfront, _("Hardware, installation and racks"));
    set_review (self, "run-cost", e->has_cost, run,
                training ? (buy ? _("Share of the hardware over the run, plus power")
                                : _("GPU rental and storage over the run"))
                         : _("One month of serving"));
    set_review (self, "monthly", e->has_cost, monthly,
                buy ? _("Write-off, power, colocation and support") : _("Renting the GPUs around the clock"));
  }
  {
    g_autofree char *v = g_strdup_printf (_("%s t CO₂e"), qm_format_number (a, sizeof a, e->power.co2_tonnes, 1));
    set_review (self, "co2", e->has_power, v,
                training ? _("Emissions of the electricity over the run")
                         : _("Emissions of the electricity per month"));
  }

  clear_note_rows (self);
  for (guint i = 0; i < e->n_warnings; i++)
    add_note_row (self, self->warnings_group, &e->warnings[i], TRUE);
  for (guint i = 0; i < e->n_assumptions; i++)
    add_note_row (self, self->assumptions_group, &e->assumptions[i], FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->warnings_group), e->n_warnings > 0);
}

static void
update_live (QmWizard *self)
{
  const QmPlan *plan = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  const QmModelShape *shape = &plan->workload.model;
  double total = 0, active = 0;

  /* Model step: the counts straight from the shape, so they show before
   * the rest of the plan is complete. */
  if (qm_model_has_shape (shape))
    {
      QmParamCount count;

      qm_model_count_params (shape, &count);
      total = count.total;
      active = count.active;
    }
  else
    total = active = shape->params_hint;

  if (total > 0)
    {
      g_autofree char *t = format_big (total);
      g_autofree char *act = format_big (active);
      g_autofree char *chin = format_big (total * CHINCHILLA_TOKENS_PER_PARAM);
      g_autofree char *chin_text = g_strdup_printf (_("About %s tokens"), chin);

      gtk_label_set_label (self->total_params_label, t);
      gtk_label_set_label (self->active_params_label, act);
      gtk_label_set_label (self->chinchilla_label, chin_text);
    }
  else
    {
      gtk_label_set_label (self->total_params_label, "–");
      gtk_label_set_label (self->active_params_label, "–");
      gtk_label_set_label (self->chinchilla_label, "–");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->active_params_row),
                          total > 0 && fabs (total - active) > 0.5);

  /* Steps 3 to 6: the estimate so far, in one line. */
  {
    g_autofree char *line = NULL;
    char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF];

    if (e->valid && e->gpus > 0)
      {
        g_autofree char *cost = format_money (self, e->cost.run);

        if (e->has_training)
          {
            char c[QM_FORMAT_BUF];

            /* Translators: "2,048 GPUs · 40.0 days, 43.1 with failures · $12.3 M". */
            line = g_strdup_printf (_("%s GPUs · %s, %s with failures · %s"),
                                    qm_format_number (a, sizeof a, e->gpus, 0),
                                    qm_format_days (b, sizeof b, e->ideal_days),
                                    qm_format_days (c, sizeof c, e->train_days), cost);
          }
        else
          line = g_strdup_printf (_("%s GPUs · %s per month"), qm_format_number (a, sizeof a, e->gpus, 0), cost);
      }
    else
      line = g_strdup (_("Not enough information yet"));

    for (guint s = 0; s < QM_WIZARD_N_STEPS; s++)
      if (self->so_far_row[s] != NULL)
        adw_action_row_set_subtitle (self->so_far_row[s], line);
  }

  if (self->step == QM_WIZARD_STEP_REVIEW)
    update_review (self);
}

/* ------------------------------------------------------------------ */
/* Steps                                                               */

/* A field of @step that is empty or wrong; with @shown, only one that
 * shows its own complaint. */
static Field *
step_field_in_error (QmWizard     *self,
                     QmWizardStep  step,
                     gboolean      shown)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (field->step == step && field_active (field) && (field->touched || !shown) &&
          !field_ok (field))
        return field;
    }
  return NULL;
}

/* Whether the person edited a field that the plan's complaint is about. */
static gboolean
invalid_fields_touched (QmWizard *self)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);
      g_autofree char *padded = g_strconcat (" ", self->invalid_fields, " ", NULL);
      g_autofree char *key = g_strconcat (" ", field->spec->key, " ", NULL);

      if (field->touched && strstr (padded, key) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The plan's complaint is shown on a step only once the person can have
 * caused it: an earlier step that a later choice broke, a field of this
 * step they edited, or Next pressed here. Never while a field of the step
 * is empty or wrong: its own words come first, and the plan's complaint
 * is often only about that gap. */
static const char *
step_message_text (QmWizard *self)
{
  QmWizardStep step = self->step;

  if (self->invalid_message == NULL || self->invalid_step > (int) step)
    return NULL;
  if (self->invalid_step < (int) step)
    return self->invalid_message;
  if (step_field_in_error (self, step, FALSE) != NULL)
    return NULL;
  if (self->attempted[step] || invalid_fields_touched (self))
    return self->invalid_message;
  return NULL;
}

/* The first shown field that invalid_fields names. */
static Field *
complaint_holder (QmWizard *self)
{
  g_auto(GStrv) keys = g_strsplit (self->invalid_fields, " ", -1);

  for (guint k = 0; keys[k] != NULL; k++)
    {
      Field *field = keys[k][0] != '\0' ? find_field (self, keys[k]) : NULL;

      if (field != NULL && field->step == self->step && field_active (field))
        return field;
    }
  return NULL;
}

static void
update_state (QmWizard *self)
{
  gboolean last = self->step == QM_WIZARD_STEP_REVIEW;
  /* During construction the step is QM_WIZARD_N_STEPS (no step yet). */
  GtkLabel *message = self->step < QM_WIZARD_N_STEPS ? self->step_message[self->step] : NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "wizard.back", self->step > 0);
  /* Next stays enabled: pressed too early it says what is missing, which
   * a greyed-out button cannot. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "wizard.next", TRUE);

  if (message != NULL)
    {
      const char *text = step_message_text (self);
      Field *holder = NULL;
      Field *old_holder = self->complaint_field;

      /* On the row of the field it is about, where the eye is, rather
       * than under the last group. */
      if (text != NULL && self->invalid_step == (int) self->step)
        holder = complaint_holder (self);
      if (text == NULL && self->attempted[self->step] && !step_ok (self, self->step) &&
          step_field_in_error (self, self->step, FALSE) == NULL)
        text = _("Quartermaster cannot estimate this plan yet. Go back and check the earlier steps.");
      self->complaint_field = holder;
      if (old_holder != NULL)
        field_show (old_holder);
      if (holder != NULL)
        field_show (holder);
      gtk_label_set_label (message, text != NULL && holder == NULL ? text : "");
      gtk_widget_set_visible (GTK_WIDGET (message), text != NULL && holder == NULL);
    }
  gtk_button_set_label (self->next_button, last ? _("C_reate Plan") : _("_Next"));
}

/* Next on an incomplete step: every field of it says what it needs, and
 * the focus goes to the first one. */
static void
reveal_step (QmWizard *self)
{
  QmWizardStep step = self->step;
  Field *first;

  self->attempted[step] = TRUE;
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (field->step == step && field_active (field) && !field->touched)
        {
          field->touched = TRUE;
          field_show (field);
        }
    }
  update_state (self);

  first = step_field_in_error (self, step, TRUE);
  if (first == NULL)
    first = self->complaint_field;
  if (first != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (first->entry));
  else if (step == QM_WIZARD_STEP_MODEL && self->model_source == MODEL_PRESET && self->preset == NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->preset_search));
}

static void
refresh (QmWizard   *self,
         const char *merge_key)
{
  QmPlan plan;

  if (self->building || self->editor == NULL)
    return;
  compose_plan (self, &plan);
  qm_plan_editor_set_plan (self->editor, &plan, merge_key);
  check_plan (self, qm_plan_editor_get_plan (self->editor));
  update_live (self);
  update_state (self);
}

static void
update_mode (QmWizard *self)
{
  gboolean training = self->mode != QM_MODE_INFERENCE;
  gboolean lora = self->mode == QM_MODE_LORA || self->mode == QM_MODE_QLORA;
  gboolean fixed = gtk_switch_get_active (self->fixed_gpus_switch);
  Field *deadline = find_field (self, "deadline");
  Field *gpus = find_field (self, "gpus");
  Field *lora_rank = find_field (self, "lora-rank");
  gboolean auto_parallel = gtk_switch_get_active (self->auto_parallel_switch);

  gtk_widget_set_visible (GTK_WIDGET (self->data_group), training);
  gtk_widget_set_visible (GTK_WIDGET (self->traffic_group), !training);
  gtk_widget_set_visible (GTK_WIDGET (self->latency_group), !training);
  gtk_widget_set_visible (GTK_WIDGET (self->setup_group), training);
  gtk_widget_set_visible (GTK_WIDGET (self->advanced_group), training);
  gtk_widget_set_visible (GTK_WIDGET (self->serve_setup_group), !training);
  gtk_widget_set_visible (GTK_WIDGET (lora_rank->row), lora);

  adw_preferences_group_set_title (self->schedule_group,
                                   training ? _("How long may training take?") : _("How many GPUs?"));
  adw_action_row_set_subtitle (self->fixed_gpus_row,
                               training ? _("Otherwise the cluster is sized to finish in time")
                                        : _("Otherwise the cluster is sized for the traffic"));
  gtk_widget_set_visible (GTK_WIDGET (deadline->row), training && !fixed);
  gtk_widget_set_visible (GTK_WIDGET (gpus->row), fixed);

  for (guint i = 0; i < G_N_ELEMENTS (parallel_fields); i++)
    gtk_widget_set_visible (GTK_WIDGET (find_field (self, parallel_fields[i].key)->row), !auto_parallel);

  gtk_stack_page_set_title (gtk_stack_get_page (self->stack, GTK_WIDGET (self->setup_page)),
                            training ? _("Training Setup") : _("Serving Setup"));
}

static void
update_model_source (QmWizard *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->model_preset_group), self->model_source == MODEL_PRESET);
  gtk_widget_set_visible (GTK_WIDGET (self->model_size_group), self->model_source == MODEL_SIZE);
  gtk_widget_set_visible (GTK_WIDGET (self->model_shape_group), self->model_source == MODEL_SHAPE);
}

static void
show_step (QmWizard     *self,
           QmWizardStep  step)
{
  g_autofree char *subtitle = NULL;

  if (step == self->step && gtk_stack_get_visible_child_name (self->stack) != NULL &&
      g_str_equal (gtk_stack_get_visible_child_name (self->stack), step_names[step]))
    return;

  self->step = step;
  gtk_stack_set_visible_child_name (self->stack, step_names[step]);
  /* Translators: "Step 3 of 7: Data and Schedule". */
  subtitle = g_strdup_printf (_("Step %u of %u: %s"), step + 1, QM_WIZARD_N_STEPS,
                              step == QM_WIZARD_STEP_SETUP && self->mode == QM_MODE_INFERENCE
                              ? _("Serving Setup") : _(step_titles[step]));
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->dots),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle, -1);

  for (guint i = 0; i < QM_WIZARD_N_STEPS; i++)
    {
      gtk_widget_remove_css_class (self->dot[i], "accent");
      gtk_widget_remove_css_class (self->dot[i], "dim-label");
      gtk_widget_add_css_class (self->dot[i], i == step ? "accent" : "dim-label");
      gtk_widget_set_opacity (self->dot[i], i < step || i == step ? 1.0 : 0.5);
    }

  if (step == QM_WIZARD_STEP_REVIEW)
    update_review (self);
  update_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  QmWizard *self = QM_WIZARD (widget);

  if (self->step > 0)
    show_step (self, self->step - 1);
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  QmWizard *self = QM_WIZARD (widget);

  refresh (self, NULL);
  if (!step_ok (self, self->step))
    {
      reveal_step (self);
      return;
    }
  if (self->step + 1 < QM_WIZARD_N_STEPS)
    {
      show_step (self, self->step + 1);
      return;
    }

  /* Create Plan: hand the plan over, then close. Saving is the caller's. */
  if (!self->created)
    {
      QmPlan plan = *qm_plan_editor_get_plan (self->editor);

      self->created = TRUE;
      g_signal_emit (self, signals[PLAN_CREATED], 0, &plan);
      gtk_window_destroy (GTK_WINDOW (self));
    }
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  gtk_window_destroy (GTK_WINDOW (widget));
}

/* ------------------------------------------------------------------ */
/* Building the pages                                                  */

static GtkCheckButton *
add_choice_row (GtkWidget      *parent,
                const char     *name,
                const char     *title,
                const char     *subtitle,
                GtkCheckButton *leader)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *check = gtk_check_button_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_name (check, name);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  set_accessible_label (check, title);
  if (subtitle != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    subtitle, -1);
  if (leader != NULL)
    gtk_check_button_set_group (GTK_CHECK_BUTTON (check), leader);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  if (GTK_IS_LIST_BOX (parent))
    gtk_list_box_append (GTK_LIST_BOX (parent), row);
  else
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (parent), row);
  return GTK_CHECK_BUTTON (check);
}

static void
goal_toggled (GtkCheckButton *check,
              QmWizard       *self)
{
  if (!gtk_check_button_get_active (check))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (goals); i++)
    if (self->goal_check[i] == check)
      self->mode = goals[i].mode;
  if (self->building)
    return;
  update_mode (self);
  refresh (self, NULL);
}

static void
build_goal (QmWizard *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (goals); i++)
    {
      g_autofree char *name = g_strconcat ("goal-", goals[i].id, NULL);

      self->goal_check[i] = add_choice_row (GTK_WIDGET (self->goal_group), name, _(goals[i].title),
                                            _(goals[i].subtitle), i ? self->goal_check[0] : NULL);
      g_signal_connect (self->goal_check[i], "toggled", G_CALLBACK (goal_toggled), self);
    }
  gtk_check_button_set_active (self->goal_check[0], TRUE);
}

static void
preset_toggled (GtkCheckButton *check,
                QmWizard       *self)
{
  if (!gtk_check_button_get_active (check))
    return;
  self->preset = g_object_get_data (G_OBJECT (check), "qm-preset");
  refresh (self, NULL);
}

static gboolean
preset_filter (GtkListBoxRow *row,
               gpointer       user_data)
{
  QmWizard *self = user_data;
  const QmModelPreset *preset = g_object_get_data (G_OBJECT (row), "qm-preset");
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->preset_search));
  g_autofree char *needle = g_utf8_casefold (text, -1);
  g_autofree char *hay = NULL;
  g_autofree char *folded = NULL;
  g_auto(GStrv) words = NULL;

  if (needle[0] == '\0')
    return TRUE;
  hay = g_strjoin (" ", preset->info.id, preset->info.name,
                   preset->info.vendor ? preset->info.vendor : "", NULL);
  folded = g_utf8_casefold (hay, -1);
  /* Every word must match somewhere: "llama 70" finds Llama 3.1 70B. */
  words = g_strsplit (g_strstrip (needle), " ", -1);
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && strstr (folded, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

static void
preset_search_changed (GtkSearchEntry *entry,
                       QmWizard       *self)
{
  gtk_list_box_invalidate_filter (self->preset_list);
}

static void
source_toggled (GtkToggleButton *button,
                QmWizard        *self)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  for (guint i = 0; i < N_MODEL_SOURCES; i++)
    if (self->source_button[i] == button)
      self->model_source = i;
  update_model_source (self);
  refresh (self, NULL);
}

static GtkLabel *
add_value_row (AdwPreferencesGroup *group,
               const char          *title,
               const char          *subtitle,
               AdwActionRow       **row_out)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new ("–");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 16);
  gtk_label_set_selectable (GTK_LABEL (label), FALSE);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
  if (row_out != NULL)
    *row_out = ADW_ACTION_ROW (row);
  g_object_set_data (G_OBJECT (label), "qm-row", row);
  return GTK_LABEL (label);
}

static void
build_model (QmWizard *self)
{
  static const char *source_labels[N_MODEL_SOURCES] = {
    N_("From _List"), N_("By _Size"), N_("C_ustom"),
  };
  static const char *source_names[N_MODEL_SOURCES] = { "source-preset", "source-size", "source-shape" };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *scrolled;
  const QmModelPreset *presets;
  GtkCheckButton *leader = NULL;
  guint n = 0;

  gtk_widget_add_css_class (box, "linked");
  gtk_widget_set_halign (box, GTK_ALIGN_FILL);
  for (guint i = 0; i < N_MODEL_SOURCES; i++)
    {
      GtkWidget *button = gtk_toggle_button_new_with_mnemonic (_(source_labels[i]));

      gtk_widget_set_name (button, source_names[i]);
      gtk_widget_set_hexpand (button, TRUE);
      if (i > 0)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), self->source_button[0]);
      self->source_button[i] = GTK_TOGGLE_BUTTON (button);
      gtk_box_append (GTK_BOX (box), button);
    }
  gtk_toggle_button_set_active (self->source_button[0], TRUE);
  for (guint i = 0; i < N_MODEL_SOURCES; i++)
    g_signal_connect (self->source_button[i], "toggled", G_CALLBACK (source_toggled), self);
  adw_preferences_group_add (self->model_source_group, box);

  /* Presets: a search entry over a filtered list (AdwComboRow cannot
   * search on libadwaita 1.2). */
  self->preset_search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->preset_search), "preset-search");
  g_object_set (self->preset_search, "placeholder-text", _("Search models"), NULL);
  set_accessible_label (GTK_WIDGET (self->preset_search), _("Search models"));
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->preset_search), 12);
  adw_preferences_group_add (self->model_preset_group, GTK_WIDGET (self->preset_search));

  self->preset_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->preset_list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->preset_list), "boxed-list");
  gtk_list_box_set_filter_func (self->preset_list, preset_filter, self, NULL);
  /* Room for the list's outline, which the scrolled window would clip. */
  gtk_widget_set_margin_start (GTK_WIDGET (self->preset_list), 1);
  gtk_widget_set_margin_end (GTK_WIDGET (self->preset_list), 1);
  gtk_widget_set_margin_top (GTK_WIDGET (self->preset_list), 1);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->preset_list), 3);
  set_accessible_label (GTK_WIDGET (self->preset_list), _("Models"));
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 300);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->preset_list));
  adw_preferences_group_add (self->model_preset_group, scrolled);
  g_signal_connect (self->preset_search, "search-changed", G_CALLBACK (preset_search_changed), self);

  presets = qm_catalog_models (&n);
  for (guint i = 0; i < n; i++)
    {
      const QmModelPreset *p = &presets[i];
      g_autofree char *name = g_strconcat ("preset-", p->info.id, NULL);
      g_autofree char *size = format_big (p->published_params > 0 ? p->published_params
                                                                  : qm_model_params (&p->shape));
      g_autofree char *subtitle = NULL;
      GtkCheckButton *check;

      if (p->published_active_params > 0 && p->published_active_params < p->published_params)
        {
          g_autofree char *act = format_big (p->published_active_params);
          /* Translators: "Mistral AI · 46.7 billion parameters, 12.9 billion active". */
          subtitle = g_strdup_printf (_("%s · %s parameters, %s active"),
                                      p->info.vendor ? p->info.vendor : "", size, act);
        }
      else
        subtitle = g_strdup_printf (_("%s · %s parameters"), p->info.vendor ? p->info.vendor : "", size);
      check = add_choice_row (GTK_WIDGET (self->preset_list), name, p->info.name, subtitle, leader);
      if (leader == NULL)
        leader = check;
      g_object_set_data (G_OBJECT (check), "qm-preset", (gpointer) p);
      g_object_set_data (G_OBJECT (gtk_widget_get_ancestor (GTK_WIDGET (check), GTK_TYPE_LIST_BOX_ROW)),
                         "qm-preset", (gpointer) p);
      g_signal_connect (check, "toggled", G_CALLBACK (preset_toggled), self);
    }

  add_field (self, GTK_WIDGET (self->model_size_group), QM_WIZARD_STEP_MODEL, &params_field, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (shape_fields); i++)
    add_field (self, GTK_WIDGET (self->model_shape_group), QM_WIZARD_STEP_MODEL, &shape_fields[i], NULL);

  self->total_params_label = add_value_row (self->model_summary_group, _("Parameters"),
                                            _("Weights the model stores"), NULL);
  self->active_params_label = add_value_row (self->model_summary_group, _("Active per Token"),
                                             _("A mixture-of-experts model uses only some of them for each token"),
                                             &self->active_params_row);
  self->chinchilla_label = add_value_row (self->model_summary_group, _("Compute-Optimal Data"),
                                          _("About 20 training tokens per parameter (Hoffmann et al. 2022)"),
                                          NULL);
  update_model_source (self);
}

static void
switch_changed (GObject    *object,
                GParamSpec *pspec,
                QmWizard   *self)
{
  update_mode (self);
  refresh (self, NULL);
}

static GtkSwitch *
add_switch_row (GtkWidget   *parent,
                const char  *name,
                const char  *title,
                const char  *subtitle,
                gboolean     active,
                AdwActionRow **row_out)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *sw = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
  gtk_widget_set_name (sw, name);
  gtk_switch_set_active (GTK_SWITCH (sw), active);
  set_accessible_label (sw, title);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), sw);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), sw);
  if (ADW_IS_EXPANDER_ROW (parent))
    adw_expander_row_add_row (ADW_EXPANDER_ROW (parent), row);
  else
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (parent), row);
  if (row_out != NULL)
    *row_out = ADW_ACTION_ROW (row);
  return GTK_SWITCH (sw);
}

static void
combo_changed (GObject    *object,
               GParamSpec *pspec,
               QmWizard   *self)
{
  Field *price = find_field (self, "gpu-hour");
  Field *years = find_field (self, "amortization");

  /* Called while the page is still being built, too. */
  if (self->pricing_row != NULL && self->offer_row != NULL && price != NULL && years != NULL)
    {
      gboolean rent = adw_combo_row_get_selected (self->pricing_row) > 0;

      gtk_widget_set_visible (GTK_WIDGET (self->offer_row), rent);
      gtk_widget_set_visible (GTK_WIDGET (price->row), rent);
      gtk_widget_set_visible (GTK_WIDGET (years->row), !rent);
    }
  refresh (self, NULL);
}

static AdwComboRow *
add_combo_row (QmWizard            *self,
               GtkWidget           *parent,
               const char          *name,
               const char          *title,
               const char          *subtitle,
               const char * const  *items,
               guint                n_items,
               guint                selected)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

  for (guint i = 0; i < n_items; i++)
    gtk_string_list_append (list, _(items[i]));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  else
    adw_combo_row_set_use_subtitle (ADW_COMBO_ROW (row), TRUE);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (list));
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), selected);
  gtk_widget_set_name (row, name);
  if (ADW_IS_EXPANDER_ROW (parent))
    adw_expander_row_add_row (ADW_EXPANDER_ROW (parent), row);
  else
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (parent), row);
  g_signal_connect (row, "notify::selected", G_CALLBACK (combo_changed), self);
  return ADW_COMBO_ROW (row);
}

static char *
initial_text (QmWizard    *self,
              QmParseKind  kind,
              double       v)
{
  if (kind == QM_PARSE_MONEY)
    return describe_value (self, kind, v);
  return format_plain (v);
}

static void
build_data (QmWizard *self)
{
  const QmWorkload *w = &self->base.workload;
  g_autofree char *epochs = format_plain (w->epochs);
  g_autofree char *seq = format_plain (w->seq_len);
  g_autofree char *batch = format_plain (w->global_batch);
  g_autofree char *input = format_plain (w->inference.input_tokens);
  g_autofree char *output = format_plain (w->inference.output_tokens);
  const char *initial[] = { NULL, epochs, seq, batch };

  for (guint i = 0; i < G_N_ELEMENTS (data_fields); i++)
    add_field (self, GTK_WIDGET (self->data_group), QM_WIZARD_STEP_DATA, &data_fields[i], initial[i]);

  self->fixed_gpus_switch = add_switch_row (GTK_WIDGET (self->schedule_group), "fixed-gpus-switch",
                                            _("Use a Fixed Number of GPUs"), "", FALSE,
                                            &self->fixed_gpus_row);
  add_field (self, GTK_WIDGET (self->schedule_group), QM_WIZARD_STEP_DATA, &deadline_field, NULL);
  add_field (self, GTK_WIDGET (self->schedule_group), QM_WIZARD_STEP_DATA, &gpus_field, NULL);

  add_field (self, GTK_WIDGET (self->traffic_group), QM_WIZARD_STEP_DATA, &traffic_fields[0], NULL);
  add_field (self, GTK_WIDGET (self->traffic_group), QM_WIZARD_STEP_DATA, &traffic_fields[1], input);
  add_field (self, GTK_WIDGET (self->traffic_group), QM_WIZARD_STEP_DATA, &traffic_fields[2], output);
  for (guint i = 0; i < G_N_ELEMENTS (latency_fields); i++)
    add_field (self, GTK_WIDGET (self->latency_group), QM_WIZARD_STEP_DATA, &latency_fields[i], NULL);
  g_signal_connect (self->fixed_gpus_switch, "notify::active", G_CALLBACK (switch_changed), self);
}

static void
build_setup (QmWizard *self)
{
  GtkWidget *parallel, *efficiency;
  AdwActionRow *row = NULL;

  self->precision_row = add_combo_row (self, GTK_WIDGET (self->setup_group), "precision",
                                       _("Number Format"), NULL,
                                       train_precision_names, G_N_ELEMENTS (train_precision_names), 0);
  self->optimizer_row = add_combo_row (self, GTK_WIDGET (self->setup_group), "optimizer",
                                       _("Optimizer"), NULL,
                                       optimizer_names, G_N_ELEMENTS (optimizer_names), 0);
  self->zero_row = add_combo_row (self, GTK_WIDGET (self->setup_group), "zero",
                                  _("Memory Sharding (ZeRO/FSDP)"), NULL,
                                  zero_names, G_N_ELEMENTS (zero_names), self->base.workload.zero_stage);
  self->recompute_row = add_combo_row (self, GTK_WIDGET (self->setup_group), "recompute",
                                       _("Activation Recomputation"), NULL,
                                       recompute_names, G_N_ELEMENTS (recompute_names), 1);
  self->flash_switch = add_switch_row (GTK_WIDGET (self->setup_group), "flash-attention",
                                       _("FlashAttention"),
                                       _("A faster attention kernel that also saves memory"), TRUE, NULL);
  {
    g_autofree char *rank = g_strdup ("16");
    add_field (self, GTK_WIDGET (self->setup_group), QM_WIZARD_STEP_SETUP, &lora_field, rank);
  }

  parallel = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (parallel), _("Parallelism"));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (parallel), _("How the model is split across GPUs"));
  gtk_widget_set_name (parallel, "parallelism");
  adw_preferences_group_add (self->advanced_group, parallel);
  self->auto_parallel_switch = add_switch_row (parallel, "auto-parallel-switch", _("Choose Automatically"),
                                               _("Search for the fastest split that fits in memory"),
                                               TRUE, &row);
  for (guint i = 0; i < G_N_ELEMENTS (parallel_fields); i++)
    add_field (self, parallel, QM_WIZARD_STEP_SETUP, &parallel_fields[i], NULL);
  g_signal_connect (self->auto_parallel_switch, "notify::active", G_CALLBACK (switch_changed), self);

  efficiency = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (efficiency), _("Efficiency"));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (efficiency), _("How fast the GPUs work in practice"));
  adw_preferences_group_add (self->advanced_group, efficiency);
  add_field (self, efficiency, QM_WIZARD_STEP_SETUP, &mfu_field, NULL);

  self->weight_precision_row = add_combo_row (self, GTK_WIDGET (self->serve_setup_group), "weight-precision",
                                              _("Weight Format"), NULL,
                                              serve_precision_names, G_N_ELEMENTS (serve_precision_names), 0);
  self->kv_precision_row = add_combo_row (self, GTK_WIDGET (self->serve_setup_group), "kv-precision",
                                          _("Attention Cache Format"), NULL,
                                          serve_precision_names, 2, 0);
  add_field (self, GTK_WIDGET (self->serve_setup_group), QM_WIZARD_STEP_SETUP, &concurrency_field, NULL);
}

static void
build_facility (QmWizard *self)
{
  const QmFacility *f = &self->base.facility;
  g_autofree char *years = format_plain (self->base.pricing.amortization_years);
  g_autofree char *pue = initial_text (self, QM_PARSE_NUMBER, f->pue);
  g_autofree char *kwh = initial_text (self, QM_PARSE_MONEY, f->usd_per_kwh);
  g_autofree char *rack_kw = initial_text (self, QM_PARSE_NUMBER, f->rack_kw);
  g_autofree char *units = initial_text (self, QM_PARSE_COUNT, f->rack_units);
  g_autofree char *carbon = initial_text (self, QM_PARSE_NUMBER, f->gco2_per_kwh);
  const char *initial[] = { pue, kwh, rack_kw, units, carbon };
  g_autofree char *mode = g_settings_get_string (self->settings, "default-pricing-mode");
  guint pricing = g_str_equal (mode, "rent") ? 1 : 0;

  /* The choice itself as the subtitle: it stays readable in a narrow window. */
  self->pricing_row = add_combo_row (self, GTK_WIDGET (self->pricing_group), "pricing",
                                     _("Buy or Rent"), NULL,
                                     pricing_names, G_N_ELEMENTS (pricing_names), pricing);
  adw_combo_row_set_use_subtitle (self->pricing_row, TRUE);
  self->offer_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->offer_row), _("Cloud Offer"));
  adw_combo_row_set_use_subtitle (self->offer_row, TRUE);
  gtk_widget_set_name (GTK_WIDGET (self->offer_row), "offer");
  adw_preferences_group_add (self->pricing_group, GTK_WIDGET (self->offer_row));
  update_offers (self);
  g_signal_connect (self->offer_row, "notify::selected", G_CALLBACK (combo_changed), self);
  add_field (self, GTK_WIDGET (self->pricing_group), QM_WIZARD_STEP_FACILITY, &price_field, NULL);
  add_field (self, GTK_WIDGET (self->pricing_group), QM_WIZARD_STEP_FACILITY, &amortization_field, years);
  combo_changed (G_OBJECT (self->pricing_row), NULL, self);

  for (guint i = 0; i < G_N_ELEMENTS (facility_fields); i++)
    add_field (self, GTK_WIDGET (self->facility_group), QM_WIZARD_STEP_FACILITY, &facility_fields[i],
               initial[i]);
}

static void
name_changed (GtkEditable *editable,
              QmWizard    *self)
{
  if (self->building)
    return;
  self->name_edited = TRUE;
  refresh (self, "name");
}

static void
name_activated (AdwEntryRow *row,
                QmWizard    *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "wizard.next", NULL);
}

static void
build_review (QmWizard *self)
{
  static const struct { const char *key; const char *title; } figures[] = {
    { "gpus", N_("GPUs") },
    { "nodes", N_("Servers") },
    { "racks", N_("Racks") },
    { "ideal-days", N_("Training Time") },
    { "train-days", N_("With Failures") },
    { "memory", N_("Memory per GPU") },
    { "it-power", N_("IT Power") },
    { "facility-power", N_("Facility Power") },
    { "upfront", N_("Up-Front Cost") },
    { "run-cost", N_("Cost of the Run") },
    { "monthly", N_("Monthly Cost") },
    { "co2", N_("Carbon") },
  };

  self->name_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->name_row), _("Plan Name"));
  gtk_widget_set_name (GTK_WIDGET (self->name_row), "name");
  adw_preferences_group_add (self->name_group, GTK_WIDGET (self->name_row));
  g_signal_connect (self->name_row, "changed", G_CALLBACK (name_changed), self);
  g_signal_connect (self->name_row, "entry-activated", G_CALLBACK (name_activated), self);

  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      g_autofree char *name = g_strconcat ("review-", figures[i].key, NULL);
      GtkLabel *label = add_value_row (self->figures_group, _(figures[i].title), NULL, NULL);

      gtk_widget_set_name (GTK_WIDGET (label), name);
      g_hash_table_insert (self->review, (gpointer) figures[i].key, label);
    }
}

/* One message label per step, for errors of the plan as a whole, and the
 * estimate so far on the steps that change it. */
static void
build_status (QmWizard *self)
{
  AdwPreferencesPage *pages[QM_WIZARD_N_STEPS] = {
    self->goal_page, self->model_page, self->data_page, self->setup_page,
    self->hardware_page, self->facility_page, self->review_page,
  };

  for (guint s = QM_WIZARD_STEP_MODEL; s < QM_WIZARD_N_STEPS; s++)
    {
      AdwPreferencesGroup *group;
      GtkWidget *label = gtk_label_new (NULL);

      if (s == QM_WIZARD_STEP_REVIEW)
        group = self->name_group;
      else
        {
          group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
          adw_preferences_page_add (pages[s], group);
        }
      if (s >= QM_WIZARD_STEP_DATA && s <= QM_WIZARD_STEP_FACILITY)
        {
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Estimate So Far"));
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), "");
          adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
          adw_preferences_group_add (group, row);
          self->so_far_row[s] = ADW_ACTION_ROW (row);
        }
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_margin_top (label, 12);
      gtk_widget_add_css_class (label, "error");
      gtk_widget_set_visible (label, FALSE);
      gtk_widget_set_name (label, "step-message");
      adw_preferences_group_add (group, label);
      self->step_message[s] = GTK_LABEL (label);
    }
}

static void
build_dots (QmWizard *self)
{
  for (guint i = 0; i < QM_WIZARD_N_STEPS; i++)
    {
      GtkWidget *dot = gtk_label_new ("●");

      gtk_accessible_update_property (GTK_ACCESSIBLE (dot), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _(step_titles[i]), -1);
      gtk_widget_add_css_class (dot, "caption");
      gtk_box_append (self->dots, dot);
      self->dot[i] = dot;
    }
}

static void
load_defaults (QmWizard *self)
{
  QmPlan *p = &self->base;
  g_autofree char *failure = g_settings_get_string (self->settings, "default-failure-preset");
  g_autofree char *cur = g_settings_get_string (self->settings, "currency");

  qm_plan_init (p);
  p->facility.pue = g_settings_get_double (self->settings, "default-pue");
  p->facility.usd_per_kwh = g_settings_get_double (self->settings, "default-usd-per-kwh");
  p->facility.rack_kw = g_settings_get_double (self->settings, "default-rack-kw");
  p->facility.rack_units = g_settings_get_int (self->settings, "default-rack-units");
  p->facility.gco2_per_kwh = g_settings_get_double (self->settings, "default-gco2-per-kwh");
  p->pricing.amortization_years = g_settings_get_double (self->settings, "default-amortization-years");
  g_strlcpy (p->reliability_preset, failure, sizeof p->reliability_preset);
  if (cur[0] != '\0')
    g_strlcpy (p->pricing.currency, cur, sizeof p->pricing.currency);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
qm_wizard_constructed (GObject *object)
{
  QmWizard *self = QM_WIZARD (object);

  G_OBJECT_CLASS (qm_wizard_parent_class)->constructed (object);

  self->building = TRUE;
  load_defaults (self);
  build_dots (self);
  build_goal (self);
  build_model (self);
  build_data (self);
  build_setup (self);
  build_hardware (self);
  build_facility (self);
  build_review (self);
  build_status (self);
  update_mode (self);
  self->building = FALSE;

  self->editor = qm_plan_editor_new (&self->base);
  self->step = QM_WIZARD_N_STEPS;
  refresh (self, NULL);
  show_step (self, QM_WIZARD_STEP_GOAL);
}

static void
qm_wizard_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  QmWizard *self = QM_WIZARD (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_pointer (value, self->store);
      break;
    case PROP_STEP:
      g_value_set_uint (value, self->step);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_wizard_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  QmWizard *self = QM_WIZARD (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_get_pointer (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_wizard_dispose (GObject *object)
{
  QmWizard *self = QM_WIZARD (object);

  /* The fields' signal handlers point into self->fields: stop them first. */
  self->building = TRUE;
  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_WIZARD);
  g_clear_object (&self->editor);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (qm_wizard_parent_class)->dispose (object);
}

static void
qm_wizard_finalize (GObject *object)
{
  QmWizard *self = QM_WIZARD (object);

  g_ptr_array_unref (self->fields);
  for (guint k = 0; k < N_HW; k++)
    g_clear_pointer (&self->hw[k], g_ptr_array_unref);
  g_ptr_array_unref (self->offers);
  g_ptr_array_unref (self->note_rows);
  g_hash_table_unref (self->review);
  g_free (self->invalid_message);

  G_OBJECT_CLASS (qm_wizard_parent_class)->finalize (object);
}

static void
qm_wizard_class_init (QmWizardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = qm_wizard_constructed;
  object_class->get_property = qm_wizard_get_property;
  object_class->set_property = qm_wizard_set_property;
  object_class->dispose = qm_wizard_dispose;
  object_class->finalize = qm_wizard_finalize;

  properties[PROP_STORE] =
    g_param_spec_pointer ("store", NULL, NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STEP] =
    g_param_spec_uint ("step", NULL, NULL, 0, QM_WIZARD_N_STEPS - 1, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* ::plan-created (const QmPlan *plan): valid during the emission only. */
  signals[PLAN_CREATED] =
    g_signal_new ("plan-created", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  qm_gtk_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/quartermaster/Quartermaster/qm-wizard.ui");
  gtk_widget_class_bind_template_child (widget_class, QmWizard, window_title);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, next_button);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, back_button);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, dots);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, stack);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, goal_page);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, model_page);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, data_page);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, setup_page);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, hardware_page);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, facility_page);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, review_page);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, goal_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, model_source_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, model_preset_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, model_size_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, model_shape_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, model_summary_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, data_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, schedule_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, traffic_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, latency_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, setup_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, advanced_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, serve_setup_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, hardware_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, pricing_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, facility_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, name_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, figures_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, warnings_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, assumptions_group);

  gtk_widget_class_install_action (widget_class, "wizard.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "wizard.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "wizard.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "wizard.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, GDK_CONTROL_MASK, "wizard.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, GDK_CONTROL_MASK, "wizard.back", NULL);
}

static void
qm_wizard_init (QmWizard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  self->fields = g_ptr_array_new_with_free_func (field_free);
  self->offers = g_ptr_array_new ();
  self->note_rows = g_ptr_array_new ();
  self->review = g_hash_table_new (g_str_hash, g_str_equal);
  self->invalid_step = QM_WIZARD_N_STEPS;
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->next_button));
}

QmWizard *
qm_wizard_new (GtkWindow *parent,
               QmStore   *store)
{
  return g_object_new (QM_TYPE_WIZARD,
                       "transient-for", parent,
                       "modal", TRUE,
                       "store", store,
                       NULL);
}

QmWizardStep
qm_wizard_get_step (QmWizard *self)
{
  g_return_val_if_fail (QM_IS_WIZARD (self), 0);

  return self->step;
}

const QmPlan *
qm_wizard_get_plan (QmWizard *self)
{
  g_return_val_if_fail (QM_IS_WIZARD (self), NULL);

  return qm_plan_editor_get_plan (self->editor);
}

const QmEstimate *
qm_wizard_get_estimate (QmWizard *self)
{
  g_return_val_if_fail (QM_IS_WIZARD (self), NULL);

  return qm_plan_editor_get_estimate (self->editor);
}
