/* qm-plan-view-inputs.c: the side panel of the plan view, where every input
 * of the plan can be edited.
 *
 * Each row is described by a table entry: how to read its value from the
 * plan and how to write one back. An edit builds a candidate plan, checks
 * it with qm_plan_validate() (the same rules as the plan-file reader), and
 * only then hands it to the editor, with the row's key as the merge key so
 * that one field's edit is one undo step. A refused value marks the row
 * with the error style and says what is allowed; the plan is untouched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-catalog-json.h"
#include "qm-catalog-store.h"
#include "qm-catalog.h"
#include "qm-plan.h"
#include "qm-plan-view-private.h"

typedef enum
{
  GROUP_MODEL,
  GROUP_SHAPE,       /* the expander row inside GROUP_MODEL */
  GROUP_SCHEDULE,
  GROUP_SERVING,
  GROUP_TRAINING,
  GROUP_HARDWARE,
  GROUP_FACILITY,
  GROUP_PRICING,
  GROUP_RELIABILITY,
  N_GROUPS
} Group;

typedef enum
{
  KIND_NUMBER,
  KIND_CHOICE,
  KIND_SWITCH,
  KIND_TEXT,
} Kind;

typedef struct _Info Info;

/* Reads the value shown; the estimate supplies what "auto" resolved to. */
typedef double      (*GetFunc)       (const QmPlan *p, const QmEstimate *e);
/* Writes @v into @p; returns NULL, or why @v is refused (static string). */
typedef const char *(*SetFunc)       (QmPlan *p, double v, const QmEstimate *e);
typedef const char *(*GetIdFunc)     (const QmPlan *p, const QmEstimate *e);
typedef const char *(*SetIdFunc)     (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e);
/* Fills @choices (QmPlanViewChoice, not owned) for @p. */
typedef void        (*ChoicesFunc)   (QmPlanView *self, const QmPlan *p, GPtrArray *choices);
typedef gboolean    (*PlanPredicate) (const QmPlan *p);

struct _Info
{
  const char    *key;       /* merge key and lookup name */
  const char    *path;      /* the plan-format key qm_plan_validate() names */
  const char    *title;     /* with a mnemonic */
  const char    *hint;      /* what is allowed, in the subtitle */
  Group          group;
  Kind           kind;
  double         lower, upper, step;   /* what the spin button accepts as typed */
  guint          digits;
  GetFunc        get;
  SetFunc        set;
  GetIdFunc      get_id;
  SetIdFunc      set_id;
  ChoicesFunc    choices;
  PlanPredicate  visible;
  PlanPredicate  sensitive;
};

struct _QmPlanViewInput
{
  const Info  *info;
  QmPlanView  *view;
  GtkWidget   *row;
  GtkWidget   *control;     /* GtkSpinButton, AdwComboRow, GtkSwitch, AdwEntryRow */
  GtkWidget   *error_icon;
  GPtrArray   *shown;       /* choice ids in the combo, in order */
  gboolean     in_error;
};

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
/* Numbers                                                             */

/* A plain field: @lv is an lvalue of the plan, shown times @scale. */
#define NUMBER(name, lv, scale)                                             \
  static double                                                            \
  get_##name (const QmPlan *p, const QmEstimate *e)                        \
  {                                                                        \
    (void) e;                                                              \
    return (double) (lv) / (scale);                                        \
  }                                                                        \
  static const char *                                                      \
  set_##name (QmPlan *p, double v, const QmEstimate *e)                    \
  {                                                                        \
    (void) e;                                                              \
    (lv) = v * (scale);                                                    \
    return NULL;                                                           \
  }

/* A whole-number field: refuses fractions rather than rounding silently. */
#define COUNT(name, lv)                                                     \
  static double                                                            \
  get_##name (const QmPlan *p, const QmEstimate *e)                        \
  {                                                                        \
    (void) e;                                                              \
    return (double) (lv);                                                  \
  }                                                                        \
  static const char *                                                      \
  set_##name (QmPlan *p, double v, const QmEstimate *e)                    \
  {                                                                        \
    (void) e;                                                              \
    if (v != floor (v) || v < 0)                                           \
      return N_("Must be a whole number");                                 \
    (lv) = (guint) v;                                                      \
    return NULL;                                                           \
  }

/* A shape field: editing the shape leaves the preset (a custom shape). */
#define SHAPE(name, field)                                                  \
  static double                                                            \
  get_##name (const QmPlan *p, const QmEstimate *e)                        \
  {                                                                        \
    (void) e;                                                              \
    return p->workload.model.field;                                        \
  }                                                                        \
  static const char *                                                      \
  set_##name (QmPlan *p, double v, const QmEstimate *e)                    \
  {                                                                        \
    (void) e;                                                              \
    if (v != floor (v) || v < 0)                                           \
      return N_("Must be a whole number");                                 \
    p->workload.model.field = (guint) v;                                   \
    p->workload.preset[0] = '\0';                                          \
    return NULL;                                                           \
  }

NUMBER (tokens, p->workload.tokens, 1e9)
NUMBER (epochs, p->workload.epochs, 1.0)
COUNT (seq_len, p->workload.seq_len)
COUNT (global_batch, p->workload.global_batch)
COUNT (micro_batch, p->workload.micro_batch)
COUNT (lora_rank, p->workload.lora_rank)
NUMBER (deadline, p->workload.deadline_days, 1.0)
NUMBER (rpm, p->workload.inference.requests_per_minute, 1.0)
COUNT (input_tokens, p->workload.inference.input_tokens)
COUNT (output_tokens, p->workload.inference.output_tokens)
COUNT (concurrency, p->workload.inference.concurrency)
NUMBER (ttft, p->workload.inference.ttft_ms, 1.0)
NUMBER (tpot, p->workload.inference.tpot_ms, 1.0)
NUMBER (pue, p->facility.pue, 1.0)
NUMBER (usd_per_kwh, p->facility.usd_per_kwh, 1.0)
NUMBER (rack_kw, p->facility.rack_kw, 1.0)
COUNT (rack_units, p->facility.rack_units)
NUMBER (gco2, p->facility.gco2_per_kwh, 1.0)
NUMBER (gpu_hour, p->pricing.usd_per_gpu_hour, 1.0)
NUMBER (amortization, p->pricing.amortization_years, 1.0)
NUMBER (restart, p->restart_minutes, 1.0)
SHAPE (layers, layers)
SHAPE (hidden, hidden)
SHAPE (heads, heads)
SHAPE (kv_heads, kv_heads)
SHAPE (ffn_hidden, ffn_hidden)
SHAPE (vocab, vocab)
SHAPE (experts, experts)
SHAPE (experts_per_token, experts_per_token)

static double
get_gpus (const QmPlan *p, const QmEstimate *e)
{
  return p->workload.target_gpus > 0 ? p->workload.target_gpus : e->gpus;
}

static const char *
set_gpus (QmPlan *p, double v, const QmEstimate *e)
{
  (void) e;
  if (v != floor (v) || v < 1)
    return N_("Must be a whole number of GPUs, at least 1");
  p->workload.target_gpus = (guint) v;
  p->workload.deadline_days = 0;
  return NULL;
}

static double
get_mfu (const QmPlan *p, const QmEstimate *e)
{
  return (p->workload.mfu > 0 ? p->workload.mfu : e->mfu) * 100.0;
}

static const char *
set_mfu (QmPlan *p, double v, const QmEstimate *e)
{
  (void) e;
  if (!(v > 0 && v <= 100))
    return N_("Must be more than 0% and at most 100%");
  p->workload.mfu = v / 100.0;
  return NULL;
}

static double
get_mfu_auto (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->workload.mfu <= 0;
}

static const char *
set_mfu_auto (QmPlan *p, double v, const QmEstimate *e)
{
  /* Turning prediction off starts from the predicted value. */
  p->workload.mfu = v != 0 ? 0.0 : (e->mfu > 0 ? round (e->mfu * 1000.0) / 1000.0 : 0.4);
  return NULL;
}

static guint
resolved_degree (guint plan, guint est)
{
  return plan > 0 ? plan : MAX (est, 1u);
}

static double
get_parallel_auto (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return !parallel_manual (p);
}

static const char *
set_parallel_auto (QmPlan *p, double v, const QmEstimate *e)
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

#define DEGREE(name, field)                                                 \
  static double                                                            \
  get_##name (const QmPlan *p, const QmEstimate *e)                        \
  {                                                                        \
    return p->workload.field > 0 ? p->workload.field : e->parallelism.field; \
  }                                                                        \
  static const char *                                                      \
  set_##name (QmPlan *p, double v, const QmEstimate *e)                    \
  {                                                                        \
    (void) e;                                                              \
    if (v != floor (v) || v < 1)                                           \
      return N_("Must be a whole number, at least 1");                     \
    p->workload.field = (guint) v;                                         \
    return NULL;                                                           \
  }

DEGREE (tp, tp)
DEGREE (pp, pp)
DEGREE (cp, cp)
DEGREE (ep, ep)

static double
get_flash (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->workload.flash_attention;
}

static const char *
set_flash (QmPlan *p, double v, const QmEstimate *e)
{
  (void) e;
  p->workload.flash_attention = v != 0;
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Choices                                                             */

static void
add_choice (GPtrArray  *choices,
            const char *id,
            const char *label)
{
  QmPlanViewChoice *c = g_new0 (QmPlanViewChoice, 1);

  c->id = g_strdup (id);
  c->label = g_strdup (label);
  g_ptr_array_add (choices, c);
}

static void
choice_free (gpointer data)
{
  QmPlanViewChoice *c = data;

  g_free (c->id);
  g_free (c->label);
  g_free (c->gpu_id);
  g_free (c);
}

static const char *
get_mode (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return qm_mode_to_string (p->workload.mode);
}

static const char *
set_mode (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  QmMode mode;

  (void) self; (void) e;
  if (!qm_mode_from_string (id, &mode))
    return N_("Unknown goal");
  p->workload.mode = mode;
  if ((mode == QM_MODE_LORA || mode == QM_MODE_QLORA) && p->workload.lora_rank == 0)
    p->workload.lora_rank = 16;
  if (mode == QM_MODE_INFERENCE && p->workload.tokens <= 0)
    p->workload.tokens = 1e9;
  return NULL;
}

static void
choices_mode (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, "pretrain", _("Pretrain"));
  add_choice (out, "finetune", _("Fine-tune"));
  add_choice (out, "lora", _("LoRA"));
  add_choice (out, "qlora", _("QLoRA"));
  add_choice (out, "inference", _("Serve (inference)"));
}

static const char *
get_preset (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->workload.preset[0] ? p->workload.preset : "custom";
}

static const char *
set_preset (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  const QmModelPreset *preset;

  (void) self; (void) e;
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
choices_from_list (QmPlanView     *self,
                   QmPlanViewList  list,
                   const char     *gpu_id,
                   const char     *current,
                   GPtrArray      *out)
{
  GPtrArray *all = self->lists[list];
  gboolean have_current = FALSE;

  for (guint i = 0; i < all->len; i++)
    {
      QmPlanViewChoice *c = g_ptr_array_index (all, i);

      if (gpu_id != NULL && c->gpu_id != NULL && g_strcmp0 (c->gpu_id, gpu_id) != 0 &&
          g_strcmp0 (c->id, current) != 0)
        continue;
      add_choice (out, c->id, c->label);
      have_current |= g_strcmp0 (c->id, current) == 0;
    }
  /* A plan's own (embedded or hidden) entry stays selectable. */
  if (!have_current && current != NULL && current[0] != '\0')
    add_choice (out, current, current);
}

static void
choices_preset (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  choices_from_list (self, QM_PLAN_VIEW_LIST_MODELS, NULL, p->workload.preset, out);
  add_choice (out, "custom", _("Custom shape"));
}

static const char *
get_target (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->workload.target_gpus > 0 ? "gpus" : "deadline";
}

static const char *
set_target (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self;
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

static void
choices_target (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, "gpus", _("A fixed GPU count"));
  add_choice (out, "deadline", _("A deadline"));
}

static const char *
get_precision (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return qm_precision_to_string (p->workload.precision);
}

static const char *
set_precision (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  return qm_precision_from_string (id, &p->workload.precision) ? NULL : N_("Unknown precision");
}

static void
choices_precision (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, "bf16", _("BF16 mixed precision"));
  add_choice (out, "fp16", _("FP16 mixed precision"));
  add_choice (out, "fp8", _("FP8"));
  add_choice (out, "fp32", _("FP32"));
}

static void
choices_serving_precision (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, "bf16", _("BF16"));
  add_choice (out, "fp16", _("FP16"));
  add_choice (out, "fp8", _("FP8"));
  add_choice (out, "int8", _("INT8"));
  add_choice (out, "fp4", _("FP4"));
  add_choice (out, "int4", _("INT4"));
}

static const char *
get_weight_precision (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return qm_precision_to_string (p->workload.inference.weight_precision);
}

static const char *
set_weight_precision (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  return qm_precision_from_string (id, &p->workload.inference.weight_precision)
         ? NULL : N_("Unknown precision");
}

static const char *
get_kv_precision (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return qm_precision_to_string (p->workload.inference.kv_precision);
}

static const char *
set_kv_precision (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  return qm_precision_from_string (id, &p->workload.inference.kv_precision)
         ? NULL : N_("Unknown precision");
}

static const char *
get_optimizer (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return qm_optimizer_to_string (p->workload.optimizer);
}

static const char *
set_optimizer (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  return qm_optimizer_from_string (id, &p->workload.optimizer) ? NULL : N_("Unknown optimizer");
}

static void
choices_optimizer (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  for (QmOptimizer o = QM_OPTIMIZER_ADAMW; o <= QM_OPTIMIZER_ADAFACTOR; o++)
    {
      static const char *labels[] = {
        N_("AdamW"), N_("8-bit AdamW"), N_("SGD with momentum"), N_("Adafactor"),
      };
      add_choice (out, qm_optimizer_to_string (o), _(labels[o]));
    }
}

static const char *
get_zero (const QmPlan *p, const QmEstimate *e)
{
  static const char *ids[] = { "0", "1", "2", "3" };

  (void) e;
  return ids[MIN (p->workload.zero_stage, 3u)];
}

static const char *
set_zero (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  p->workload.zero_stage = (guint) g_ascii_strtoull (id, NULL, 10);
  return NULL;
}

static void
choices_zero (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, "0", _("ZeRO-0: nothing sharded"));
  add_choice (out, "1", _("ZeRO-1: optimizer states"));
  add_choice (out, "2", _("ZeRO-2: + gradients"));
  add_choice (out, "3", _("ZeRO-3 / FSDP: + weights"));
}

static const char *
get_recompute (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return qm_recompute_to_string (p->workload.recompute);
}

static const char *
set_recompute (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  return qm_recompute_from_string (id, &p->workload.recompute) ? NULL : N_("Unknown choice");
}

static void
choices_recompute (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, qm_recompute_to_string (QM_RECOMPUTE_NONE), _("None"));
  add_choice (out, qm_recompute_to_string (QM_RECOMPUTE_SELECTIVE), _("Selective (attention)"));
  add_choice (out, qm_recompute_to_string (QM_RECOMPUTE_FULL), _("Full"));
}

/* Hardware: the catalog entry is resolved when picked, so the plan carries
 * the spec (and the store's price override) the estimate uses. */
static const char *
get_gpu (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->gpu_id;
}

static const char *
pick_first_server (QmPlanView *self, QmPlan *p)
{
  GPtrArray *servers = self->lists[QM_PLAN_VIEW_LIST_SERVERS];

  for (guint i = 0; i < servers->len; i++)
    {
      QmPlanViewChoice *c = g_ptr_array_index (servers, i);

      if (g_strcmp0 (c->gpu_id, p->gpu_id) == 0 &&
          qm_plan_view_resolve (self, QM_CATALOG_KIND_SERVER, c->id, &p->hardware.server))
        {
          g_strlcpy (p->server_id, c->id, sizeof p->server_id);
          p->server_embedded = FALSE;
          return NULL;
        }
    }
  return N_("No server in the catalog holds this GPU");
}

static const char *
set_gpu (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) e;
  if (!qm_plan_view_resolve (self, QM_CATALOG_KIND_GPU, id, &p->hardware.gpu))
    return N_("Not in the catalog");
  g_strlcpy (p->gpu_id, id, sizeof p->gpu_id);
  p->gpu_embedded = FALSE;

  /* Keep the server and offer compatible with the new GPU. */
  if (p->hardware.server.gpu_id != NULL && g_strcmp0 (p->hardware.server.gpu_id, id) != 0)
    {
      const char *why = pick_first_server (self, p);

      if (why != NULL)
        return why;
    }
  if (p->offer_id[0] != '\0')
    {
      const QmCloudOffer *offer = qm_catalog_cloud_offer (p->offer_id);

      if (offer != NULL && g_strcmp0 (offer->gpu_id, id) != 0)
        p->offer_id[0] = '\0';
    }
  return NULL;
}

static void
choices_gpu (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  choices_from_list (self, QM_PLAN_VIEW_LIST_GPUS, NULL, p->gpu_id, out);
}

static const char *
get_server (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->server_id;
}

static const char *
set_server (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) e;
  if (!qm_plan_view_resolve (self, QM_CATALOG_KIND_SERVER, id, &p->hardware.server))
    return N_("Not in the catalog");
  g_strlcpy (p->server_id, id, sizeof p->server_id);
  p->server_embedded = FALSE;
  return NULL;
}

static void
choices_server (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  /* Only servers that hold the plan's GPU (or any GPU). */
  choices_from_list (self, QM_PLAN_VIEW_LIST_SERVERS, p->gpu_id, p->server_id, out);
}

static const char *
get_network (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->network_id;
}

static const char *
set_network (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) e;
  if (!qm_plan_view_resolve (self, QM_CATALOG_KIND_NETWORK, id, &p->hardware.network))
    return N_("Not in the catalog");
  g_strlcpy (p->network_id, id, sizeof p->network_id);
  p->network_embedded = FALSE;
  return NULL;
}

static void
choices_network (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  choices_from_list (self, QM_PLAN_VIEW_LIST_NETWORKS, NULL, p->network_id, out);
}

static const char *
get_storage (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->storage_id;
}

static const char *
set_storage (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) e;
  if (!qm_plan_view_resolve (self, QM_CATALOG_KIND_STORAGE, id, &p->hardware.storage))
    return N_("Not in the catalog");
  g_strlcpy (p->storage_id, id, sizeof p->storage_id);
  p->storage_embedded = FALSE;
  return NULL;
}

static void
choices_storage (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  choices_from_list (self, QM_PLAN_VIEW_LIST_STORAGE, NULL, p->storage_id, out);
}

static const char *
get_pricing (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return qm_pricing_mode_to_string (p->pricing.mode);
}

static const char *
set_pricing (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  return qm_pricing_mode_from_string (id, &p->pricing.mode) ? NULL : N_("Unknown choice");
}

static void
choices_pricing (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, qm_pricing_mode_to_string (QM_PRICING_BUY), _("Buy"));
  add_choice (out, qm_pricing_mode_to_string (QM_PRICING_RENT_ON_DEMAND), _("Rent on demand"));
  add_choice (out, qm_pricing_mode_to_string (QM_PRICING_RENT_RESERVED), _("Rent reserved"));
}

static const char *
get_offer (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->offer_id[0] ? p->offer_id : "none";
}

static const char *
set_offer (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  if (g_strcmp0 (id, "none") == 0)
    p->offer_id[0] = '\0';
  else
    g_strlcpy (p->offer_id, id, sizeof p->offer_id);
  return NULL;
}

static void
choices_offer (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  add_choice (out, "none", _("None: the price per GPU-hour below"));
  choices_from_list (self, QM_PLAN_VIEW_LIST_OFFERS, p->gpu_id, p->offer_id, out);
}

static const char *
get_reliability (const QmPlan *p, const QmEstimate *e)
{
  (void) e;
  return p->reliability_preset;
}

static const char *
set_reliability (QmPlanView *self, QmPlan *p, const char *id, const QmEstimate *e)
{
  (void) self; (void) e;
  g_strlcpy (p->reliability_preset, id, sizeof p->reliability_preset);
  return NULL;
}

static void
choices_reliability (QmPlanView *self, const QmPlan *p, GPtrArray *out)
{
  (void) self; (void) p;
  add_choice (out, qm_failure_preset_info (QM_FAILURE_LLAMA3_PRODUCTION)->id,
              _("Production cluster (Llama 3 run)"));
  add_choice (out, qm_failure_preset_info (QM_FAILURE_RESEARCH_CLUSTER)->id,
              _("Research cluster"));
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

#define NUM(k, path, t, h, g, lo, hi, st, dg, fn, vis, sens) \
  { k, path, t, h, g, KIND_NUMBER, lo, hi, st, dg, get_##fn, set_##fn, NULL, NULL, NULL, vis, sens }
#define SWITCH(k, path, t, h, g, fn, vis) \
  { k, path, t, h, g, KIND_SWITCH, 0, 1, 1, 0, get_##fn, set_##fn, NULL, NULL, NULL, vis, NULL }
#define CHOICE(k, path, t, h, g, fn, ch, vis) \
  { k, path, t, h, g, KIND_CHOICE, 0, 0, 0, 0, NULL, NULL, get_##fn, set_##fn, choices_##ch, vis, NULL }

static const Info infos[] = {
  CHOICE ("mode", "workload.mode", N_("_Goal"), NULL, GROUP_MODEL, mode, mode, NULL),
  CHOICE ("model", "workload.model", N_("_Model"), NULL, GROUP_MODEL, preset, preset, NULL),
  NUM ("model.layers", "workload.model.layers", N_("_Layers"), NULL, GROUP_SHAPE,
       0, 1e6, 1, 0, layers, NULL, NULL),
  NUM ("model.hidden", "workload.model.hidden", N_("_Hidden size"), NULL, GROUP_SHAPE,
       0, 1e8, 128, 0, hidden, NULL, NULL),
  NUM ("model.heads", "workload.model.heads", N_("Attention _heads"), NULL, GROUP_SHAPE,
       0, 1e6, 1, 0, heads, NULL, NULL),
  NUM ("model.kv_heads", "workload.model.kv_heads", N_("_Key/value heads"), N_("0 = as many as the heads"),
       GROUP_SHAPE, 0, 1e6, 1, 0, kv_heads, NULL, NULL),
  NUM ("model.ffn_hidden", "workload.model.ffn_hidden", N_("_MLP width"), NULL, GROUP_SHAPE,
       0, 1e8, 128, 0, ffn_hidden, NULL, NULL),
  NUM ("model.vocab", "workload.model.vocab", N_("_Vocabulary"), NULL, GROUP_SHAPE,
       0, 1e8, 1000, 0, vocab, NULL, NULL),
  NUM ("model.experts", "workload.model.experts", N_("_Experts"), N_("0 or 1 = a dense model"),
       GROUP_SHAPE, 0, 1e6, 1, 0, experts, NULL, NULL),
  NUM ("model.experts_per_token", "workload.model.experts_per_token", N_("Experts per _token"), NULL,
       GROUP_SHAPE, 0, 1e6, 1, 0, experts_per_token, NULL, NULL),
  NUM ("lora_rank", "workload.lora_rank", N_("LoRA _rank"), N_("Adapters on every linear layer"),
       GROUP_MODEL, 0, 1e6, 8, 0, lora_rank, is_lora, NULL),

  NUM ("tokens", "workload.tokens_b", N_("_Tokens (billions)"), N_("Per epoch, more than 0"),
       GROUP_SCHEDULE, 0, 1e9, 100, 1, tokens, is_training, NULL),
  NUM ("epochs", "workload.epochs", N_("_Epochs"), N_("More than 0, at most 10,000"),
       GROUP_SCHEDULE, 0, 1e6, 1, 2, epochs, is_training, NULL),
  NUM ("seq_len", "workload.seq_len", N_("_Sequence length"), N_("Tokens per sequence"),
       GROUP_SCHEDULE, 0, 1e9, 1024, 0, seq_len, NULL, NULL),
  NUM ("global_batch", "workload.global_batch", N_("Global _batch"), N_("Sequences per step"),
       GROUP_SCHEDULE, 0, 1e9, 64, 0, global_batch, is_training, NULL),
  NUM ("micro_batch", "workload.micro_batch", N_("_Micro-batch"), N_("Sequences per GPU per pass"),
       GROUP_SCHEDULE, 0, 1e9, 1, 0, micro_batch, is_training, NULL),
  CHOICE ("target", "target", N_("_Plan for"), NULL, GROUP_SCHEDULE, target, target, NULL),
  NUM ("gpus", "target.gpus", N_("_GPUs"), N_("A multiple of tp × pp × cp"), GROUP_SCHEDULE,
       0, 1e8, 8, 0, gpus, by_gpus, NULL),
  NUM ("deadline", "target.deadline_days", N_("_Deadline (days)"), N_("Finish within this many days"),
       GROUP_SCHEDULE, 0, 1e6, 1, 1, deadline, by_deadline, NULL),

  NUM ("inference.requests_per_minute", "workload.inference.requests_per_minute",
       N_("_Requests per minute"), NULL, GROUP_SERVING, 0, 1e10, 10, 0, rpm, NULL, NULL),
  NUM ("inference.input_tokens", "workload.inference.input_tokens", N_("_Input tokens"),
       N_("Prompt tokens per request"), GROUP_SERVING, 0, 1e9, 100, 0, input_tokens, NULL, NULL),
  NUM ("inference.output_tokens", "workload.inference.output_tokens", N_("_Output tokens"),
       N_("Answer tokens per request"), GROUP_SERVING, 0, 1e9, 100, 0, output_tokens, NULL, NULL),
  NUM ("inference.concurrency", "workload.inference.concurrency", N_("_Concurrency"),
       N_("Sequences in flight per replica; 0 = derive"), GROUP_SERVING, 0, 1e7, 8, 0,
       concurrency, NULL, NULL),
  NUM ("inference.ttft_ms", "workload.inference.ttft_ms", N_("Time to _first token (ms)"),
       N_("Target; 0 = none"), GROUP_SERVING, 0, 1e9, 50, 0, ttft, NULL, NULL),
  NUM ("inference.tpot_ms", "workload.inference.tpot_ms", N_("Time per output _token (ms)"),
       N_("Target; 0 = none"), GROUP_SERVING, 0, 1e9, 5, 0, tpot, NULL, NULL),
  CHOICE ("inference.weight_precision", "workload.inference.weight_precision", N_("_Weights"), NULL,
          GROUP_SERVING, weight_precision, serving_precision, NULL),
  CHOICE ("inference.kv_precision", "workload.inference.kv_precision", N_("_KV cache"), NULL,
          GROUP_SERVING, kv_precision, serving_precision, NULL),

  CHOICE ("precision", "workload.precision", N_("_Precision"), NULL, GROUP_TRAINING,
          precision, precision, NULL),
  CHOICE ("optimizer", "workload.optimizer", N_("_Optimizer"), NULL, GROUP_TRAINING,
          optimizer, optimizer, NULL),
  CHOICE ("zero_stage", "workload.zero_stage", N_("_ZeRO / FSDP"), NULL, GROUP_TRAINING,
          zero, zero, NULL),
  CHOICE ("recompute", "workload.recompute", N_("Activation _recompute"), NULL, GROUP_TRAINING,
          recompute, recompute, NULL),
  SWITCH ("flash_attention", "workload.flash_attention", N_("_FlashAttention"),
          N_("Attention without storing the score matrix"), GROUP_TRAINING, flash, NULL),
  SWITCH ("mfu.auto", "workload.mfu", N_("Predict _MFU"),
          N_("From the throughput model; off to give your own"), GROUP_TRAINING, mfu_auto, NULL),
  NUM ("mfu", "workload.mfu", N_("MF_U (%)"), N_("More than 0%, at most 100%"), GROUP_TRAINING,
       0, 1000, 1, 1, mfu, NULL, mfu_given),
  SWITCH ("parallel.auto", "workload.tp", N_("Choose the _layout"),
          N_("Search the fastest tp/pp/cp/ep that fits"), GROUP_TRAINING, parallel_auto, NULL),
  NUM ("tp", "workload.tp", N_("_Tensor parallel"), N_("Divides the GPUs of a node and the heads"),
       GROUP_TRAINING, 0, 1e6, 1, 0, tp, NULL, parallel_manual),
  NUM ("pp", "workload.pp", N_("Pipeline p_arallel"), N_("At most the layers"),
       GROUP_TRAINING, 0, 1e6, 1, 0, pp, NULL, parallel_manual),
  NUM ("cp", "workload.cp", N_("_Context parallel"), N_("At least 1"),
       GROUP_TRAINING, 0, 1e6, 1, 0, cp, NULL, parallel_manual),
  NUM ("ep", "workload.ep", N_("E_xpert parallel"), N_("Divides the experts"),
       GROUP_TRAINING, 0, 1e6, 1, 0, ep, NULL, parallel_manual),

  CHOICE ("gpu", "hardware.gpu", N_("_GPU"), NULL, GROUP_HARDWARE, gpu, gpu, NULL),
  CHOICE ("server", "hardware.server", N_("_Server"), N_("Only servers that hold this GPU"),
          GROUP_HARDWARE, server, server, NULL),
  CHOICE ("network", "hardware.network", N_("_Network"), NULL, GROUP_HARDWARE, network, network, NULL),
  CHOICE ("storage", "hardware.storage", N_("S_torage"), NULL, GROUP_HARDWARE, storage, storage, NULL),

  NUM ("facility.pue", "facility.pue", N_("_PUE"), N_("Facility power over IT power, 1 to 3"),
       GROUP_FACILITY, 0, 100, 0.05, 2, pue, NULL, NULL),
  NUM ("facility.usd_per_kwh", "facility.usd_per_kwh", N_("_Electricity ($/kWh)"), N_("0 to 10"),
       GROUP_FACILITY, 0, 1000, 0.01, 3, usd_per_kwh, NULL, NULL),
  NUM ("facility.rack_kw", "facility.rack_kw", N_("Power per _rack (kW)"), N_("More than 0, at most 2,000"),
       GROUP_FACILITY, 0, 1e6, 5, 1, rack_kw, NULL, NULL),
  NUM ("facility.rack_units", "facility.rack_units", N_("Rack _units"), N_("Usable U per rack, 1 to 100"),
       GROUP_FACILITY, 0, 1e4, 1, 0, rack_units, NULL, NULL),
  NUM ("facility.gco2_per_kwh", "facility.gco2_per_kwh", N_("_Grid carbon (gCO₂/kWh)"), N_("0 to 2,000"),
       GROUP_FACILITY, 0, 1e6, 10, 0, gco2, NULL, NULL),

  CHOICE ("pricing.mode", "pricing.mode", N_("_Buy or rent"), NULL, GROUP_PRICING, pricing, pricing, NULL),
  CHOICE ("pricing.offer", "pricing.offer", N_("Cloud _offer"), NULL, GROUP_PRICING, offer, offer, is_rent),
  NUM ("pricing.usd_per_gpu_hour", "pricing.usd_per_gpu_hour", N_("_Price per GPU-hour"),
       N_("Renting; when buying, for the break-even. 0 to 1,000"), GROUP_PRICING,
       0, 1e6, 0.1, 2, gpu_hour, NULL, NULL),
  NUM ("pricing.amortization_years", "pricing.amortization_years", N_("_Amortisation (years)"),
       N_("More than 0, at most 30"), GROUP_PRICING, 0, 1000, 1, 1, amortization, is_buy, NULL),
  { "pricing.currency", "pricing.currency", N_("_Currency label"), NULL, GROUP_PRICING, KIND_TEXT },

  CHOICE ("reliability.preset", "reliability.preset", N_("_Failure rates"), NULL, GROUP_RELIABILITY,
          reliability, reliability, NULL),
  NUM ("reliability.restart_minutes", "reliability.restart_minutes", N_("_Restart (minutes)"),
       N_("Detect, reschedule and reload after a failure"), GROUP_RELIABILITY,
       0, 1e7, 5, 0, restart, NULL, NULL),
};

static const char *input_keys[G_N_ELEMENTS (infos) + 1];

const char *const *
qm_plan_view_list_inputs (void)
{
  if (input_keys[0] == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (infos); i++)
      input_keys[i] = infos[i].key;
  return input_keys;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

static void
input_set_error (QmPlanViewInput *in,
                 const char      *message)
{
  in->in_error = TRUE;
  gtk_widget_add_css_class (in->row, "error");
  if (GTK_IS_EDITABLE (in->control) && in->control != in->row)
    gtk_widget_add_css_class (in->control, "error");
  if (ADW_IS_ACTION_ROW (in->row))
    adw_action_row_set_subtitle (ADW_ACTION_ROW (in->row), message);
  if (in->error_icon != NULL)
    {
      gtk_widget_set_visible (in->error_icon, TRUE);
      gtk_widget_set_tooltip_text (in->error_icon, message);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (in->control),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (in->control),
                               GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
}

static void
input_clear_error (QmPlanViewInput *in)
{
  const char *hint = in->info->hint ? _(in->info->hint) : NULL;

  if (!in->in_error)
    return;
  in->in_error = FALSE;
  gtk_widget_remove_css_class (in->row, "error");
  gtk_widget_remove_css_class (in->control, "error");
  if (ADW_IS_ACTION_ROW (in->row))
    adw_action_row_set_subtitle (ADW_ACTION_ROW (in->row), hint ? hint : "");
  if (in->error_icon != NULL)
    gtk_widget_set_visible (in->error_icon, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (in->control),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, hint ? hint : "", -1);
  gtk_accessible_reset_state (GTK_ACCESSIBLE (in->control), GTK_ACCESSIBLE_STATE_INVALID);
}

/* "workload.tp: must divide the 8 GPUs of a node (got 3)" → "Must divide
 * the 8 GPUs of a node (got 3)" on the tp row itself; another field's
 * complaint names that field by its row title. */
static char *
explain_error (QmPlanView      *self,
               QmPlanViewInput *in,
               const char      *message)
{
  const char *colon = strstr (message, ": ");
  g_autofree char *path = NULL;
  g_autofree char *rest = NULL;

  if (colon == NULL)
    return g_strdup (message);
  path = g_strndup (message, colon - message);
  rest = g_strdup (colon + 2);
  if (rest[0] != '\0')
    rest[0] = g_ascii_toupper (rest[0]);
  if (g_strcmp0 (path, in->info->path) == 0)
    return g_steal_pointer (&rest);

  for (guint i = 0; i < self->inputs->len; i++)
    {
      QmPlanViewInput *other = g_ptr_array_index (self->inputs, i);

      if (g_strcmp0 (other->info->path, path) == 0)
        {
          g_autofree char *title = g_strdup (_(other->info->title));
          char *u = strchr (title, '_');

          if (u != NULL)
            memmove (u, u + 1, strlen (u));
          /* TRANSLATORS: "Tensor parallel: Must divide the 4 GPUs of a node" */
          return g_strdup_printf (_("%s: %s"), title, rest);
        }
    }
  return g_strdup (message);
}

static void
input_commit (QmPlanViewInput *in,
              QmPlan          *candidate,
              const char      *why)
{
  QmPlanView *self = in->view;
  g_autoptr(GError) error = NULL;

  if (why != NULL)
    {
      input_set_error (in, _(why));
      return;
    }
  if (!qm_plan_validate (candidate, &error))
    {
      g_autofree char *message = explain_error (self, in, error->message);

      input_set_error (in, message);
      return;
    }
  input_clear_error (in);
  self->editing = TRUE;
  qm_plan_editor_set_plan (self->editor, candidate, in->info->key);
  self->editing = FALSE;
}

/* ------------------------------------------------------------------ */
/* Row callbacks                                                       */

static void
on_number_changed (GtkSpinButton   *spin,
                   QmPlanViewInput *in)
{
  QmPlanView *self = in->view;
  QmPlan candidate;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  input_commit (in, &candidate,
                in->info->set (&candidate, gtk_spin_button_get_value (spin),
                               qm_plan_editor_get_estimate (self->editor)));
}

static void
on_switch_changed (GtkSwitch       *sw,
                   GParamSpec      *pspec,
                   QmPlanViewInput *in)
{
  QmPlanView *self = in->view;
  QmPlan candidate;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  input_commit (in, &candidate,
                in->info->set (&candidate, gtk_switch_get_active (sw),
                               qm_plan_editor_get_estimate (self->editor)));
}

static void
on_choice_changed (AdwComboRow     *row,
                   GParamSpec      *pspec,
                   QmPlanViewInput *in)
{
  QmPlanView *self = in->view;
  guint selected = adw_combo_row_get_selected (row);
  QmPlan candidate;

  if (self->syncing || in->shown == NULL || selected >= in->shown->len)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  input_commit (in, &candidate,
                in->info->set_id (self, &candidate, g_ptr_array_index (in->shown, selected),
                                  qm_plan_editor_get_estimate (self->editor)));
}

static void
on_text_changed (GtkEditable     *editable,
                 QmPlanViewInput *in)
{
  QmPlanView *self = in->view;
  const char *text = gtk_editable_get_text (editable);
  QmPlan candidate;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  if (strlen (text) >= sizeof candidate.pricing.currency || strchr (text, ' ') != NULL)
    {
      input_set_error (in, _("Up to 7 letters without spaces, such as USD or EUR"));
      return;
    }
  g_strlcpy (candidate.pricing.currency, text, sizeof candidate.pricing.currency);
  input_commit (in, &candidate, NULL);
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

static char *
plain_title (const char *title)
{
  GString *s = g_string_new (NULL);

  for (const char *c = title; *c; c++)
    if (*c != '_')
      g_string_append_c (s, *c);
  return g_string_free (s, FALSE);
}

static void
input_free (gpointer data)
{
  QmPlanViewInput *in = data;

  g_clear_pointer (&in->shown, g_ptr_array_unref);
  g_free (in);
}

static QmPlanViewInput *
build_input (QmPlanView *self,
             const Info *info)
{
  QmPlanViewInput *in = g_new0 (QmPlanViewInput, 1);
  g_autofree char *label = plain_title (_(info->title));

  in->info = info;
  in->view = self;

  switch (info->kind)
    {
    case KIND_NUMBER:
      {
        GtkAdjustment *adj = gtk_adjustment_new (0, info->lower, info->upper, info->step,
                                                 info->step * 10, 0);
        in->row = adw_action_row_new ();
        in->control = gtk_spin_button_new (adj, info->step, info->digits);
        gtk_widget_set_valign (in->control, GTK_ALIGN_CENTER);
        gtk_editable_set_width_chars (GTK_EDITABLE (in->control), 8);
        gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (in->control), GTK_UPDATE_ALWAYS);
        g_signal_connect (in->control, "value-changed", G_CALLBACK (on_number_changed), in);
      }
      break;
    case KIND_SWITCH:
      in->row = adw_action_row_new ();
      in->control = gtk_switch_new ();
      gtk_widget_set_valign (in->control, GTK_ALIGN_CENTER);
      g_signal_connect (in->control, "notify::active", G_CALLBACK (on_switch_changed), in);
      break;
    case KIND_CHOICE:
      in->row = adw_combo_row_new ();
      in->control = in->row;
      adw_combo_row_set_model (ADW_COMBO_ROW (in->row), G_LIST_MODEL (gtk_string_list_new (NULL)));
      g_signal_connect (in->row, "notify::selected", G_CALLBACK (on_choice_changed), in);
      break;
    case KIND_TEXT:
    default:
      in->row = adw_entry_row_new ();
      in->control = in->row;
      g_signal_connect (in->row, "changed", G_CALLBACK (on_text_changed), in);
      break;
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (in->row), _(info->title));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (in->row), TRUE);
  gtk_widget_set_name (in->row, info->key);
  if (ADW_IS_ACTION_ROW (in->row) && info->hint != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (in->row), _(info->hint));

  if (in->control != in->row)
    {
      /* The error icon says "refused" without relying on colour. */
      in->error_icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      gtk_widget_set_visible (in->error_icon, FALSE);
      gtk_widget_add_css_class (in->error_icon, "error");
      adw_action_row_add_suffix (ADW_ACTION_ROW (in->row), in->error_icon);
      adw_action_row_add_suffix (ADW_ACTION_ROW (in->row), in->control);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (in->row), in->control);
      gtk_accessible_update_property (GTK_ACCESSIBLE (in->control),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
      if (info->hint != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (in->control),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _(info->hint), -1);
    }
  return in;
}

static GtkWidget *
new_group (QmPlanView *self,
           const char *title,
           const char *description)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  if (description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);
  gtk_box_append (self->inputs_box, group);
  return group;
}

static void
add_list_entry (GPtrArray  *list,
                const char *id,
                const char *vendor,
                const char *name,
                const char *gpu_id)
{
  QmPlanViewChoice *c = g_new0 (QmPlanViewChoice, 1);

  c->id = g_strdup (id);
  if (vendor != NULL && vendor[0] != '\0' && name != NULL && !g_str_has_prefix (name, vendor))
    c->label = g_strdup_printf ("%s %s", vendor, name);
  else
    c->label = g_strdup (name != NULL && name[0] != '\0' ? name : id);
  c->gpu_id = g_strdup (gpu_id);
  g_ptr_array_add (list, c);
}

/* The catalog entries offered in the hardware rows: the store's (with the
 * user's own entries, hidden ones left out) or the built-in catalog. */
static void
load_lists (QmPlanView *self)
{
  static const QmCatalogKind kinds[QM_PLAN_VIEW_N_LISTS] = {
    QM_CATALOG_KIND_GPU, QM_CATALOG_KIND_SERVER, QM_CATALOG_KIND_NETWORK,
    QM_CATALOG_KIND_STORAGE, QM_CATALOG_KIND_CLOUD, QM_CATALOG_KIND_MODEL,
  };

  for (guint l = 0; l < QM_PLAN_VIEW_N_LISTS; l++)
    {
      g_autoptr(GPtrArray) entries = NULL;
      GPtrArray *list = g_ptr_array_new_with_free_func (choice_free);

      self->lists[l] = list;
      if (self->store != NULL)
        entries = qm_catalog_store_list (self->store, kinds[l], NULL, QM_CATALOG_LIST_NONE, NULL);

      if (entries != NULL)
        {
          for (guint i = 0; i < entries->len; i++)
            {
              QmCatalogEntry *entry = g_ptr_array_index (entries, i);
              const char *gpu_id = NULL;
              QmServerSpec server;
              QmCloudOffer offer;

              if (l == QM_PLAN_VIEW_LIST_SERVERS &&
                  qm_catalog_store_resolve (self->store, kinds[l], entry->id, &server, NULL))
                gpu_id = server.gpu_id;
              else if (l == QM_PLAN_VIEW_LIST_OFFERS &&
                       qm_catalog_store_resolve (self->store, kinds[l], entry->id, &offer, NULL))
                gpu_id = offer.gpu_id;
              add_list_entry (list, entry->id, l == QM_PLAN_VIEW_LIST_MODELS ? NULL : entry->vendor,
                              entry->name, gpu_id);
            }
          continue;
        }

      switch (l)
        {
        case QM_PLAN_VIEW_LIST_GPUS:
          {
            guint n;
            const QmGpuSpec *v = qm_catalog_gpus (&n);
            for (guint i = 0; i < n; i++)
              add_list_entry (list, v[i].info.id, v[i].info.vendor, v[i].info.name, NULL);
          }
          break;
        case QM_PLAN_VIEW_LIST_SERVERS:
          {
            guint n;
            const QmServerSpec *v = qm_catalog_servers (&n);
            for (guint i = 0; i < n; i++)
              add_list_entry (list, v[i].info.id, v[i].info.vendor, v[i].info.name, v[i].gpu_id);
          }
          break;
        case QM_PLAN_VIEW_LIST_NETWORKS:
          {
            guint n;
            const QmNetworkSpec *v = qm_catalog_networks (&n);
            for (guint i = 0; i < n; i++)
              add_list_entry (list, v[i].info.id, v[i].info.vendor, v[i].info.name, NULL);
          }
          break;
        case QM_PLAN_VIEW_LIST_STORAGE:
          {
            guint n;
            const QmStorageSpec *v = qm_catalog_storages (&n);
            for (guint i = 0; i < n; i++)
              add_list_entry (list, v[i].info.id, v[i].info.vendor, v[i].info.name, NULL);
          }
          break;
        case QM_PLAN_VIEW_LIST_OFFERS:
          {
            guint n;
            const QmCloudOffer *v = qm_catalog_cloud_offers (&n);
            for (guint i = 0; i < n; i++)
              add_list_entry (list, v[i].info.id, v[i].provider, v[i].instance_type, v[i].gpu_id);
          }
          break;
        case QM_PLAN_VIEW_LIST_MODELS:
        default:
          {
            guint n;
            const QmModelPreset *v = qm_catalog_models (&n);
            for (guint i = 0; i < n; i++)
              add_list_entry (list, v[i].info.id, NULL, v[i].info.name, NULL);
          }
          break;
        }
    }
}

gboolean
qm_plan_view_resolve (QmPlanView *self,
                      int         kind,
                      const char *id,
                      gpointer    out)
{
  if (self->store != NULL)
    return qm_catalog_store_resolve (self->store, (QmCatalogKind) kind, id, out, NULL);

  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:
      {
        const QmGpuSpec *s = qm_catalog_gpu (id);
        if (s != NULL)
          *(QmGpuSpec *) out = *s;
        return s != NULL;
      }
    case QM_CATALOG_KIND_SERVER:
      {
        const QmServerSpec *s = qm_catalog_server (id);
        if (s != NULL)
          *(QmServerSpec *) out = *s;
        return s != NULL;
      }
    case QM_CATALOG_KIND_NETWORK:
      {
        const QmNetworkSpec *s = qm_catalog_network (id);
        if (s != NULL)
          *(QmNetworkSpec *) out = *s;
        return s != NULL;
      }
    case QM_CATALOG_KIND_STORAGE:
      {
        const QmStorageSpec *s = qm_catalog_storage (id);
        if (s != NULL)
          *(QmStorageSpec *) out = *s;
        return s != NULL;
      }
    default:
      return FALSE;
    }
}

void
qm_plan_view_inputs_build (QmPlanView *self)
{
  GtkWidget *groups[N_GROUPS] = { NULL };
  GtkWidget *shape;

  load_lists (self);
  self->inputs = g_ptr_array_new_with_free_func (input_free);
  self->inputs_by_key = g_hash_table_new (g_str_hash, g_str_equal);

  groups[GROUP_MODEL] = new_group (self, _("Model"), NULL);
  shape = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (shape), _("Model _shape"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (shape), TRUE);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (shape), _("Editing the shape makes a custom model"));
  groups[GROUP_SHAPE] = shape;
  groups[GROUP_SCHEDULE] = new_group (self, _("Data and Schedule"), NULL);
  groups[GROUP_SERVING] = new_group (self, _("Serving"), NULL);
  groups[GROUP_TRAINING] = new_group (self, _("Training Setup"), NULL);
  groups[GROUP_HARDWARE] = new_group (self, _("Hardware"), NULL);
  groups[GROUP_FACILITY] = new_group (self, _("Facility"), NULL);
  groups[GROUP_PRICING] = new_group (self, _("Pricing"), NULL);
  groups[GROUP_RELIABILITY] = new_group (self, _("Reliability"), NULL);
  self->serving_group = groups[GROUP_SERVING];
  self->training_group = groups[GROUP_TRAINING];
  self->reliability_group = groups[GROUP_RELIABILITY];

  for (guint i = 0; i < G_N_ELEMENTS (infos); i++)
    {
      QmPlanViewInput *in = build_input (self, &infos[i]);

      if (infos[i].group == GROUP_SHAPE)
        adw_expander_row_add_row (ADW_EXPANDER_ROW (shape), in->row);
      else
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (groups[infos[i].group]), in->row);
      /* The shape expander sits right after the preset row. */
      if (g_strcmp0 (infos[i].key, "model") == 0)
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (groups[GROUP_MODEL]), shape);
      g_ptr_array_add (self->inputs, in);
      g_hash_table_insert (self->inputs_by_key, (gpointer) infos[i].key, in);
    }
}

void
qm_plan_view_inputs_clear (QmPlanView *self)
{
  g_clear_pointer (&self->inputs_by_key, g_hash_table_unref);
  g_clear_pointer (&self->inputs, g_ptr_array_unref);
  for (guint l = 0; l < QM_PLAN_VIEW_N_LISTS; l++)
    g_clear_pointer (&self->lists[l], g_ptr_array_unref);
}

GtkWidget *
qm_plan_view_inputs_widget (QmPlanView *self,
                            const char *key,
                            gboolean    row)
{
  QmPlanViewInput *in;

  if (self->inputs_by_key == NULL)
    return NULL;
  in = g_hash_table_lookup (self->inputs_by_key, key);
  if (in == NULL)
    return NULL;
  return row ? in->row : in->control;
}

static gboolean
same_ids (GPtrArray *shown,
          GPtrArray *choices)
{
  if (shown == NULL || shown->len != choices->len)
    return FALSE;
  for (guint i = 0; i < choices->len; i++)
    if (g_strcmp0 (g_ptr_array_index (shown, i),
                   ((QmPlanViewChoice *) g_ptr_array_index (choices, i))->id) != 0)
      return FALSE;
  return TRUE;
}

static void
sync_choice (QmPlanView      *self,
             QmPlanViewInput *in,
             const QmPlan    *p,
             const QmEstimate *e)
{
  g_autoptr(GPtrArray) choices = g_ptr_array_new_with_free_func (choice_free);
  const char *current = in->info->get_id (p, e);
  guint selected = GTK_INVALID_LIST_POSITION;

  in->info->choices (self, p, choices);
  if (!same_ids (in->shown, choices))
    {
      g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);

      g_clear_pointer (&in->shown, g_ptr_array_unref);
      in->shown = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < choices->len; i++)
        {
          QmPlanViewChoice *c = g_ptr_array_index (choices, i);

          gtk_string_list_append (model, c->label);
          g_ptr_array_add (in->shown, g_strdup (c->id));
        }
      adw_combo_row_set_model (ADW_COMBO_ROW (in->row), G_LIST_MODEL (model));
    }
  for (guint i = 0; i < in->shown->len; i++)
    if (g_strcmp0 (g_ptr_array_index (in->shown, i), current) == 0)
      selected = i;
  if (adw_combo_row_get_selected (ADW_COMBO_ROW (in->row)) != selected)
    adw_combo_row_set_selected (ADW_COMBO_ROW (in->row), selected);
}

void
qm_plan_view_inputs_sync (QmPlanView *self,
                          gboolean    force)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);

  if (self->inputs == NULL)
    return;

  self->syncing = TRUE;
  for (guint i = 0; i < self->inputs->len; i++)
    {
      QmPlanViewInput *in = g_ptr_array_index (self->inputs, i);
      const Info *info = in->info;

      gtk_widget_set_visible (in->row, info->visible == NULL || info->visible (p));
      gtk_widget_set_sensitive (in->control, info->sensitive == NULL || info->sensitive (p));
      if (in->in_error && !force)
        continue;
      input_clear_error (in);

      switch (info->kind)
        {
        case KIND_NUMBER:
          {
            double v = info->get (p, e);

            if (gtk_spin_button_get_value (GTK_SPIN_BUTTON (in->control)) != v)
              gtk_spin_button_set_value (GTK_SPIN_BUTTON (in->control), v);
            else
              gtk_spin_button_update (GTK_SPIN_BUTTON (in->control));
          }
          break;
        case KIND_SWITCH:
          gtk_switch_set_active (GTK_SWITCH (in->control), info->get (p, e) != 0);
          break;
        case KIND_CHOICE:
          sync_choice (self, in, p, e);
          break;
        case KIND_TEXT:
        default:
          if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (in->row)), p->pricing.currency) != 0)
            gtk_editable_set_text (GTK_EDITABLE (in->row), p->pricing.currency);
          break;
        }
    }
  gtk_widget_set_visible (self->serving_group, !is_training (p));
  gtk_widget_set_visible (self->training_group, is_training (p));
  gtk_widget_set_visible (self->reliability_group, is_training (p));
  self->syncing = FALSE;
}
