/* qm-wizard.c: the New Plan wizard (issue #8): the assistant itself.
 *
 * Steps, navigation, composing the plan, its checks and the live
 * estimate; each step builds its rows in its own file (see
 * qm-wizard-private.h). The widgets are the single source of truth: every
 * keystroke parses its field, composes a whole QmPlan from all the fields
 * (compose_plan) and hands it to a QmPlanEditor, which re-estimates it.
 * qm_estimate() takes microseconds, so there is no caching and no partial
 * update. Nothing is saved here: the plan leaves only through
 * ::plan-created.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-plan.h"
#include "qm-problem.h"
#include "qm-text.h"
#include "qm-wizard-private.h"

/* A serving plan sized for its request rate has no deadline, but the plan
 * format wants a target; the estimate ignores deadline_days when serving
 * (power and cost run over one month, QM_HOURS_PER_MONTH). */
#define SERVING_PLACEHOLDER_DAYS 30.0
G_DEFINE_FINAL_TYPE (QmWizard, qm_wizard, ADW_TYPE_WINDOW)

enum {
  PROP_0,
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
/* The template's ids of the steps' pages. */
static const char *page_ids[QM_WIZARD_N_STEPS] = {
  "goal_page", "model_page", "data_page", "setup_page", "hardware_page", "facility_page",
  "review_page",
};
static const char *step_titles[QM_WIZARD_N_STEPS] = {
  N_("Goal"), N_("Model"), N_("Data and Schedule"), N_("Training Setup"),
  N_("Hardware"), N_("Facility and Pricing"), N_("Review"),
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
  { "workload.inference.engine", QM_WIZARD_STEP_SETUP, "engine" },
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

static QmWizardReview *
review_page (QmWizard *self)
{
  return QM_WIZARD_REVIEW (self->pages[QM_WIZARD_STEP_REVIEW]);
}

static void
compose_plan (QmWizard *self,
              QmPlan   *p)
{
  QmWorkload *w = &p->workload;
  gboolean training = self->mode != QM_MODE_INFERENCE;
  gboolean fixed = gtk_switch_get_active (self->fixed_gpus_switch);

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

  /* Rows hidden for this goal keep the defaults. */
  qm_wizard_write_rows (self, p);
  if (training)
    w->flash_attention = gtk_switch_get_active (self->flash_switch);
  qm_wizard_hardware_compose (self->hardware, p);
  qm_wizard_compose_offer (self, p);

  {
    const char *text = qm_wizard_review_get_name (review_page (self));
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

/* TRUE when the refused @key is @prefix itself or, for a prefix ending
 * in ".", a key inside that section. */
static gboolean
key_in (const char *key,
        const char *prefix)
{
  gsize n = strlen (prefix);

  if (n > 0 && prefix[n - 1] == '.')
    return strncmp (key, prefix, n) == 0;
  return strcmp (key, prefix) == 0;
}

/* qm_plan_validate() speaks plan-file keys ("workload.tp: must divide the
 * 8 GPUs of a node (got 3)"), which the CLI keeps. The wizard says the
 * same in a sentence about what the person typed or picked, chosen by the
 * problem's key path (@key). Complaints a field shows itself (an empty or
 * out-of-range entry) never get here. */
static char *
explain_plan_error (QmWizard     *self,
                    const QmPlan *p,
                    const char   *key,
                    const char   *message)
{
  const QmWorkload *w = &p->workload;
  const QmModelShape *s = &w->model;
  guint gpn = p->hardware.server.gpus;

  if (key_in (key, "workload.model."))
    {
      if (self->model_source == MODEL_PRESET)
        return g_strdup (_("Pick a model from the list to continue."));
      if (self->model_source == MODEL_SIZE)
        return g_strdup (_("Enter the model’s size, for example 70B."));
      if (key_in (key, "workload.model.heads") && s->heads > s->hidden)
        return g_strdup_printf (_("A model cannot have more attention heads (%u) than its hidden size (%u)."),
                                s->heads, s->hidden);
      if (key_in (key, "workload.model.heads"))
        return g_strdup_printf (_("The attention heads (%u) must divide the hidden size (%u) evenly."),
                                s->heads, s->hidden);
      if (key_in (key, "workload.model.kv_heads"))
        return g_strdup_printf (_("The key-value heads (%u) must divide the attention heads (%u) evenly."),
                                s->kv_heads, s->heads);
      if (key_in (key, "workload.model.experts_per_token"))
        return g_strdup_printf (_("Each token cannot go to more experts (%u) than the model has (%u)."),
                                s->experts_per_token, s->experts);
      return g_strdup (_("Enter the model’s layers, hidden size, attention heads, feed-forward size and vocabulary."));
    }
  if (key_in (key, "workload.micro_batch"))
    return g_strdup_printf (_("The micro-batch (%u) cannot be larger than the global batch (%u)."),
                            w->micro_batch, w->global_batch);
  if (key_in (key, "workload.tp") && (w->tp > gpn || gpn % MAX (w->tp, 1u) != 0))
    return g_strdup_printf (_("Tensor parallel (%u) must divide the %u GPUs of a server."), w->tp, gpn);
  if (key_in (key, "workload.tp"))
    return g_strdup_printf (_("Tensor parallel (%u) must divide the model’s %u attention heads."),
                            w->tp, s->heads);
  if (key_in (key, "workload.pp"))
    return g_strdup_printf (_("Pipeline parallel (%u) cannot be more than the model’s %u layers."),
                            w->pp, s->layers);
  if (key_in (key, "workload.ep") && s->experts <= 1)
    return g_strdup (_("A dense model has no experts to spread: leave Expert Parallel empty."));
  if (key_in (key, "workload.ep"))
    return g_strdup_printf (_("Expert parallel (%u) must divide the model’s %u experts."),
                            w->ep, s->experts);
  if (key_in (key, "target.gpus"))
    {
      guint mp = MAX (w->tp, 1u) * MAX (w->pp, 1u) * MAX (w->cp, 1u);

      return g_strdup_printf (_("The number of GPUs (%u) must be a multiple of tensor × pipeline × context parallel (%u)."),
                              w->target_gpus, mp);
    }
  if (key_in (key, "workload.precision"))
    {
      g_autofree char *format = g_ascii_strup (qm_precision_to_string (w->precision), -1);

      /* Translators: "The A100 SXM 80 GB has no published speed for FP8: ..." */
      return g_strdup_printf (_("The %s has no published speed for %s: pick another number format or GPU."),
                              p->hardware.gpu.info.name, format);
    }
  if (key_in (key, "hardware."))
    return g_strdup (_("Pick a GPU and a server."));
  /* Translators: %s is the plan file's own wording, for keys the wizard does not edit. */
  return g_strdup_printf (_("This plan cannot be estimated yet: %s"), message);
}

static void
check_plan (QmWizard     *self,
            const QmPlan *plan)
{
  g_autoptr(GError) error = NULL;
  const QmProblem *problem;
  const char *key;

  self->invalid_step = QM_WIZARD_N_STEPS;
  self->invalid_fields = "";
  g_clear_pointer (&self->invalid_message, g_free);
  if (qm_plan_validate (plan, &error))
    return;

  self->invalid_step = QM_WIZARD_STEP_REVIEW;
  problem = qm_plan_error_get_problem (error);
  key = problem != NULL ? problem->path : "";
  for (guint i = 0; i < G_N_ELEMENTS (key_steps); i++)
    if (key_in (key, key_steps[i].prefix))
      {
        self->invalid_step = key_steps[i].step;
        self->invalid_fields = key_steps[i].fields;
        break;
      }
  self->invalid_message = explain_plan_error (self, plan, key, error->message);
}

static gboolean
step_ok (QmWizard    *self,
         QmWizardStep step)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      QmWizardField *field = g_ptr_array_index (self->fields, i);

      if (field->step == step && qm_wizard_field_active (field) && !qm_wizard_field_ok (field))
        return FALSE;
    }

  switch (step)
    {
    case QM_WIZARD_STEP_MODEL:
      if (self->model_source == MODEL_PRESET && self->preset == NULL)
        return FALSE;
      break;
    case QM_WIZARD_STEP_HARDWARE:
      if (qm_wizard_hardware_get_id (self->hardware, QM_CATALOG_KIND_GPU) == NULL ||
          qm_wizard_hardware_get_id (self->hardware, QM_CATALOG_KIND_SERVER) == NULL)
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

/* The name follows the plan until the person edits it. */
static void
update_review (QmWizard *self)
{
  const QmPlan *plan = qm_plan_editor_get_plan (self->editor);

  if (!self->name_edited)
    {
      g_autofree char *name = auto_name (self, plan);

      qm_wizard_review_set_name (review_page (self), name);
    }
  qm_wizard_review_show (review_page (self), plan, qm_plan_editor_get_estimate (self->editor));
}

static void
name_edited (QmWizard *self)
{
  self->name_edited = TRUE;
  qm_wizard_refresh (self, "name");
}

static void
activate_next (QmWizard *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "wizard.next", NULL);
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
      g_autofree char *t = qm_wizard_format_big (total);
      g_autofree char *act = qm_wizard_format_big (active);
      g_autofree char *chin = qm_wizard_format_big (qm_model_compute_optimal_tokens (total));
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
        g_autofree char *cost = qm_wizard_format_money (self, e->cost.run);

        if (e->has_training && e->bands.train_days.set)
          {
            char c[QM_FORMAT_BUF], band[64];

            /* Issue #36: the likely range, as the plan view's card has it.
             * Translators: "88 GPUs · 27.7 days, 27.9 with failures (likely
             * 23.8–31.5 days) · $110,279". */
            line = g_strdup_printf (_("%s GPUs · %s, %s with failures (likely %s days) · %s"),
                                    qm_format_number (a, sizeof a, e->gpus, 0),
                                    qm_format_days (b, sizeof b, e->ideal_days),
                                    qm_format_days (c, sizeof c, e->train_days),
                                    qm_estimate_band_format (e, QM_BAND_TRAIN_DAYS, band, sizeof band), cost);
          }
        else if (e->has_training)
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
static QmWizardField *
step_field_in_error (QmWizard     *self,
                     QmWizardStep  step,
                     gboolean      shown)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      QmWizardField *field = g_ptr_array_index (self->fields, i);

      if (field->step == step && qm_wizard_field_active (field) && (field->touched || !shown) &&
          !qm_wizard_field_ok (field))
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
      QmWizardField *field = g_ptr_array_index (self->fields, i);
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
static QmWizardField *
complaint_holder (QmWizard *self)
{
  g_auto(GStrv) keys = g_strsplit (self->invalid_fields, " ", -1);

  for (guint k = 0; keys[k] != NULL; k++)
    {
      QmWizardField *field = keys[k][0] != '\0' ? qm_wizard_find_field (self, keys[k]) : NULL;

      if (field != NULL && field->step == self->step && qm_wizard_field_active (field))
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
      QmWizardField *holder = NULL;
      QmWizardField *old_holder = self->complaint_field;

      /* On the row of the field it is about, where the eye is, rather
       * than under the last group. */
      if (text != NULL && self->invalid_step == (int) self->step)
        holder = complaint_holder (self);
      if (text == NULL && self->attempted[self->step] && !step_ok (self, self->step) &&
          step_field_in_error (self, self->step, FALSE) == NULL)
        text = _("Quartermaster cannot estimate this plan yet. Go back and check the earlier steps.");
      self->complaint_field = holder;
      if (old_holder != NULL)
        qm_wizard_field_show (old_holder);
      if (holder != NULL)
        qm_wizard_field_show (holder);
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
  QmWizardField *first;

  self->attempted[step] = TRUE;
  for (guint i = 0; i < self->fields->len; i++)
    {
      QmWizardField *field = g_ptr_array_index (self->fields, i);

      if (field->step == step && qm_wizard_field_active (field) && !field->touched)
        {
          field->touched = TRUE;
          qm_wizard_field_show (field);
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

void
qm_wizard_refresh (QmWizard   *self,
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

/* What the goal and the switches show and hide. */
void
qm_wizard_update_mode (QmWizard *self)
{
  gboolean training = self->mode != QM_MODE_INFERENCE;
  gboolean lora = self->mode == QM_MODE_LORA || self->mode == QM_MODE_QLORA;
  gboolean fixed = gtk_switch_get_active (self->fixed_gpus_switch);
  QmWizardField *deadline = qm_wizard_find_field (self, "deadline");
  QmWizardField *gpus = qm_wizard_find_field (self, "gpus");
  QmWizardField *lora_rank = qm_wizard_find_field (self, "lora-rank");
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
  gtk_widget_set_visible (GTK_WIDGET (self->confidence_row), training && !fixed);
  gtk_widget_set_visible (GTK_WIDGET (gpus->row), fixed);

  qm_wizard_show_parallel (self, !auto_parallel);
  qm_wizard_update_pricing (self);

  gtk_stack_page_set_title (gtk_stack_get_page (self->stack,
                                                GTK_WIDGET (self->pages[QM_WIZARD_STEP_SETUP])),
                            training ? _("Training Setup") : _("Serving Setup"));
}

/* ------------------------------------------------------------------ */
/* The keyboard (issue #35 item 7)                                     */

/* Whether a person can see @widget: it and every parent up to the
 * window shown, and not in a collapsed expander or a stack page that is
 * not the visible one (those stay "visible" with child-visible unset). */
static gboolean
widget_shown (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (!gtk_widget_get_visible (w) || !gtk_widget_get_child_visible (w))
      return FALSE;
  return TRUE;
}

/* A Tab stop: an entry's text, a check, a switch, a button, or a row that
 * takes the focus itself (a combo row, an expander's header). Containers
 * that GTK lets take the focus when nothing inside does are not. */
static gboolean
is_stop (GtkWidget *widget)
{
  return gtk_widget_get_focusable (widget) && !GTK_IS_LIST_BOX (widget) &&
         !ADW_IS_EXPANDER_ROW (widget) && !GTK_IS_SCROLLED_WINDOW (widget) &&
         !GTK_IS_VIEWPORT (widget);
}

/* The Tab stops under @widget that are shown, in the order of the widget
 * tree, which is the order on screen in the wizard's single columns. It
 * needs no allocation, so it works before the window is shown. */
static void
collect_stops (GtkWidget *widget,
               GPtrArray *stops)
{
  if (!gtk_widget_get_visible (widget) || !gtk_widget_get_child_visible (widget) ||
      !gtk_widget_is_sensitive (widget) || !gtk_widget_get_can_focus (widget))
    return;
  if (is_stop (widget))
    {
      g_ptr_array_add (stops, widget);
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_stops (c, stops);
}

static GtkWidget *
first_stop (GtkWidget *widget)
{
  g_autoptr(GPtrArray) stops = g_ptr_array_new ();

  collect_stops (widget, stops);
  return stops->len > 0 ? g_ptr_array_index (stops, 0) : NULL;
}

/* A choice of a list (qm_wizard_add_choice_row): the list box its rows
 * share, which holds one radio group. */
static GtkWidget *
choice_list (GtkWidget *stop)
{
  if (!GTK_IS_CHECK_BUTTON (stop) ||
      gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (stop)) != GTK_ACCESSIBLE_ROLE_RADIO)
    return NULL;
  return gtk_widget_get_ancestor (stop, GTK_TYPE_LIST_BOX);
}

/* The stop to land on in @stops from @from (exclusive) going by @step
 * (+1 or -1). With @one_per_list, a list of choices is one stop, entered
 * at its chosen item (at its first, when none is chosen), as Tab treats a
 * radio group; without, each choice is a stop, for the arrow keys. */
static GtkWidget *
next_stop (GPtrArray *stops,
           int        from,
           int        step,
           gboolean   one_per_list)
{
  GtkWidget *current = from >= 0 ? g_ptr_array_index (stops, from) : NULL;
  GtkWidget *current_list = current != NULL ? choice_list (current) : NULL;

  for (int i = from + step; i >= 0 && i < (int) stops->len; i += step)
    {
      GtkWidget *stop = g_ptr_array_index (stops, i);
      GtkWidget *list = choice_list (stop);
      GtkWidget *entry = stop;

      if (!one_per_list || list == NULL)
        return stop;
      if (list == current_list)
        continue;
      /* The list's chosen item, else its first, from either side. */
      for (guint j = 0; j < stops->len; j++)
        {
          GtkWidget *other = g_ptr_array_index (stops, j);

          if (choice_list (other) != list)
            continue;
          if (entry == stop && step < 0)
            entry = other;   /* the list's first item */
          if (gtk_check_button_get_active (GTK_CHECK_BUTTON (other)))
            return other;
        }
      return entry;
    }
  return NULL;
}

static int
stop_index (GPtrArray *stops,
            GtkWidget *focus)
{
  for (guint i = 0; focus != NULL && i < stops->len; i++)
    {
      GtkWidget *stop = g_ptr_array_index (stops, i);

      if (focus == stop || gtk_widget_is_ancestor (focus, stop))
        return i;
    }
  return -1;
}

/* Scrolls each scrolled window around @widget (the model list's, the
 * page's) so that its row shows: GTK scrolls a list box to its cursor
 * row, which rows that take no focus never become. */
static void
scroll_to_stop (GtkWidget *widget)
{
  GtkWidget *target = gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_BOX_ROW);

  if (target == NULL)
    target = widget;
  for (GtkWidget *sw = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW); sw != NULL;
       sw = gtk_widget_get_ancestor (gtk_widget_get_parent (sw), GTK_TYPE_SCROLLED_WINDOW))
    {
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw));
      double value = gtk_adjustment_get_value (adj);
      int height = gtk_widget_get_height (sw);
      graphene_rect_t b;

      if (gtk_widget_compute_bounds (target, sw, &b))
        {
          if (b.origin.y < 0)
            gtk_adjustment_set_value (adj, value + b.origin.y);
          else if (b.origin.y + b.size.height > height)
            gtk_adjustment_set_value (adj, value + MIN (b.origin.y, b.origin.y + b.size.height - height));
        }
      /* The outer one shows the inner one, whose allocation is current. */
      target = sw;
    }
}

/* The clock of a window that goes away drops its handlers itself. */
static void
stop_scroll (QmWizard *self)
{
  if (self->scroll_handler != 0 && g_signal_handler_is_connected (self->scroll_clock, self->scroll_handler))
    g_signal_handler_disconnect (self->scroll_clock, self->scroll_handler);
  self->scroll_handler = 0;
  g_clear_object (&self->scroll_clock);
}

static void
scroll_after_paint (GdkFrameClock *clock,
                    QmWizard      *self)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

  stop_scroll (self);
  if (focus != NULL && gtk_widget_get_mapped (focus))
    scroll_to_stop (focus);
}

/* Scrolls the focus into view once the next frame is laid out: a key or
 * the model search can hide rows and move it after its position was
 * last measured. */
void
qm_wizard_queue_scroll (QmWizard *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (clock == NULL || self->building || self->scroll_handler != 0)
    return;
  self->scroll_clock = g_object_ref (clock);
  self->scroll_handler = g_signal_connect (clock, "after-paint", G_CALLBACK (scroll_after_paint), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The focus goes to the step's first field after a step change (and at
 * first, rather than to Cancel); on the model step, past the choice of
 * how the model is given, to the list's search or the first entry. */
static void
focus_step (QmWizard *self)
{
  static const size_t model_groups[N_MODEL_SOURCES] = {
    G_STRUCT_OFFSET (QmWizard, model_preset_group),
    G_STRUCT_OFFSET (QmWizard, model_size_group),
    G_STRUCT_OFFSET (QmWizard, model_shape_group),
  };
  g_autoptr(GPtrArray) stops = g_ptr_array_new ();
  GtkWidget *stop = NULL;

  if (self->step >= QM_WIZARD_N_STEPS)
    return;
  if (self->step == QM_WIZARD_STEP_MODEL)
    stop = first_stop (G_STRUCT_MEMBER (GtkWidget *, self, model_groups[self->model_source]));
  collect_stops (GTK_WIDGET (self->pages[self->step]), stops);
  if (stop == NULL)
    stop = next_stop (stops, -1, 1, TRUE);
  if (stop == NULL || !gtk_widget_grab_focus (stop))
    gtk_widget_grab_focus (GTK_WIDGET (self->next_button));
}

static gboolean
refocus_idle (gpointer data)
{
  QmWizard *self = data;
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

  self->refocus_source = 0;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || (focus != NULL && widget_shown (focus)))
    return G_SOURCE_REMOVE;
  /* Back on what holds it (a combo row, after its list closed), else on
   * the step's first field. */
  for (GtkWidget *w = focus != NULL ? gtk_widget_get_parent (focus) : NULL; w != NULL; w = gtk_widget_get_parent (w))
    if (is_stop (w) && widget_shown (w) && gtk_widget_grab_focus (w))
      return G_SOURCE_REMOVE;
  focus_step (self);
  return G_SOURCE_REMOVE;
}

/* The focus never stays on a widget that is not shown (a row of a goal
 * not chosen, a model the search hides, another step's field), where the
 * keys went nowhere until a click: it comes back to the step's first
 * field. Checked after each key, as a key is what moves it. */
static void
check_focus (QmWizard *self)
{
  if (self->refocus_source == 0)
    self->refocus_source = g_idle_add (refocus_idle, self);
}

/* Tab, Shift+Tab, Down and Up, in the capture phase. GTK's own focus
 * chain does not fit rows whose entry or check holds the focus
 * (qm_wizard_row_set_field): a list box enters at its first row and
 * gives up when that row is a radio not chosen (so Tab never reached the
 * GPUs past the first), it moves its cursor only over rows that take the
 * focus, and an entry hands Down to a search by position that ends on
 * the page's scrolled window. Here the stops are the widget tree's, in
 * order: Tab goes round the window with each list of choices one stop;
 * Down and Up go item by item within the step and stop at its ends. */
static gboolean
key_pressed (QmWizard        *self,
             guint            keyval,
             guint            keycode,
             GdkModifierType  state)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();
  g_autoptr(GPtrArray) stops = g_ptr_array_new ();
  gboolean tab;
  GtkWidget *to;
  int step, from;

  /* A combo row's open list keeps its own keys. */
  if (self->step >= QM_WIZARD_N_STEPS || focus == NULL || gtk_widget_get_root (focus) != GTK_ROOT (self) ||
      gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL)
    return GDK_EVENT_PROPAGATE;
  /* Enter on a row that holds the focus itself (an expander's header, a
   * combo row) does what Space does: GTK 4.8's list box ignores it. */
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      mods == 0 && (ADW_IS_COMBO_ROW (focus) ||
                    (ADW_IS_ACTION_ROW (focus) && gtk_widget_get_ancestor (focus, ADW_TYPE_EXPANDER_ROW) != NULL)))
    {
      gtk_widget_activate (focus);
      return GDK_EVENT_STOP;
    }
  if ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) && mods == 0)
    tab = TRUE, step = 1;
  else if ((keyval == GDK_KEY_ISO_Left_Tab || keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) &&
           mods == GDK_SHIFT_MASK)
    tab = TRUE, step = -1;
  else if ((keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down) && mods == 0)
    tab = FALSE, step = 1;
  else if ((keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up) && mods == 0)
    tab = FALSE, step = -1;
  else
    return GDK_EVENT_PROPAGATE;

  if (tab)
    {
      collect_stops (GTK_WIDGET (self), stops);
      from = stop_index (stops, focus);
      to = next_stop (stops, from, step, TRUE);
      /* Round the window, as GTK's Tab goes. */
      if (to == NULL)
        to = next_stop (stops, step > 0 ? -1 : (int) stops->len, step, TRUE);
    }
  else
    {
      collect_stops (GTK_WIDGET (self->pages[self->step]), stops);
      from = stop_index (stops, focus);
      if (from < 0)
        return GDK_EVENT_PROPAGATE;   /* the header bar's buttons */
      to = next_stop (stops, from, step, FALSE);
    }
  if (to != NULL && gtk_widget_grab_focus (to))
    qm_wizard_queue_scroll (self);
  gtk_window_set_focus_visible (GTK_WINDOW (self), TRUE);
  return GDK_EVENT_STOP;
}

/* A combo row's list leaves the focus on its hidden item when it closes
 * (libadwaita 1.2), and its keys never reach the window. */
static void
watch_popovers (QmWizard  *self,
                GtkWidget *widget)
{
  if (GTK_IS_POPOVER (widget))
    g_signal_connect_object (widget, "closed", G_CALLBACK (check_focus), self, G_CONNECT_SWAPPED);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    watch_popovers (self, c);
}

static gboolean
key_released (QmWizard *self)
{
  check_focus (self);
  qm_wizard_queue_scroll (self);
  return GDK_EVENT_PROPAGATE;
}

/* Esc in the model search empties it; in an empty search it is Cancel,
 * as everywhere else in the wizard (GtkSearchEntry takes the key). */
static void
search_stopped (QmWizard *self)
{
  if (gtk_editable_get_text (GTK_EDITABLE (self->preset_search))[0] != '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->preset_search), "");
  else
    gtk_widget_activate_action (GTK_WIDGET (self), "wizard.cancel", NULL);
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
  /* The old step's field is hidden now: the focus moves with the step. */
  focus_step (self);
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

  qm_wizard_refresh (self, NULL);
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

/* Ctrl+Page Down/Up and Alt+Right/Left: the next or previous step from
 * anywhere, as GNOME's assistants and notebooks have them. Only steps:
 * on the last one Ctrl+Page Down does not create the plan. */
static gboolean
step_key (GtkWidget *widget,
          GVariant  *args,
          gpointer   data)
{
  QmWizard *self = QM_WIZARD (widget);
  gboolean forward = GPOINTER_TO_INT (data);

  if (forward && self->step + 1 < QM_WIZARD_N_STEPS)
    gtk_widget_activate_action (widget, "wizard.next", NULL);
  else if (!forward)
    gtk_widget_activate_action (widget, "wizard.back", NULL);
  return TRUE;
}

/* In the capture phase, before the focused widget: a list box moves its
 * cursor on Ctrl+Page Down, a spin button pages its value. The managed
 * scope keeps them with the wizard's window, as GNOME apps declare theirs. */
static void
add_step_keys (QmWizard *self)
{
  static const struct
  {
    guint           keyval;
    GdkModifierType mods;
    gboolean        forward;
  } keys[] = {
    { GDK_KEY_Page_Down, GDK_CONTROL_MASK, TRUE },
    { GDK_KEY_KP_Page_Down, GDK_CONTROL_MASK, TRUE },
    { GDK_KEY_Page_Up, GDK_CONTROL_MASK, FALSE },
    { GDK_KEY_KP_Page_Up, GDK_CONTROL_MASK, FALSE },
    { GDK_KEY_Right, GDK_ALT_MASK, TRUE },
    { GDK_KEY_Left, GDK_ALT_MASK, FALSE },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkEventController *keys_seen = gtk_event_controller_key_new ();

  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_MANAGED);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (controller, "wizard-step-keys");
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].keyval, keys[i].mods),
                                                            gtk_callback_action_new (step_key,
                                                                                     GINT_TO_POINTER (keys[i].forward),
                                                                                     NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gtk_event_controller_set_propagation_phase (keys_seen, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (keys_seen, "key-pressed", G_CALLBACK (key_pressed), self);
  g_signal_connect_swapped (keys_seen, "key-released", G_CALLBACK (key_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys_seen);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  gtk_window_destroy (GTK_WINDOW (widget));
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

/* One message label per step, for errors of the plan as a whole, and the
 * estimate so far on the steps that change it. */
static void
build_status (QmWizard *self)
{
  for (guint s = QM_WIZARD_STEP_MODEL; s < QM_WIZARD_N_STEPS; s++)
    {
      AdwPreferencesGroup *group;
      GtkWidget *label = gtk_label_new (NULL);

      if (s == QM_WIZARD_STEP_REVIEW)
        group = qm_wizard_review_get_name_group (review_page (self));
      else
        {
          group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
          adw_preferences_page_add (self->pages[s], group);
        }
      if (s >= QM_WIZARD_STEP_DATA && s <= QM_WIZARD_STEP_FACILITY)
        {
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Estimate So Far"));
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), "");
          adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
          gtk_widget_set_name (row, "so-far");
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
  g_autofree char *pricing = g_settings_get_string (self->settings, "default-pricing-mode");

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
  if (g_str_equal (pricing, "rent"))
    p->pricing.mode = QM_PRICING_RENT_ON_DEMAND;
}

/* A new GPU has other cloud offers. */
static void
hardware_changed (QmWizard      *self,
                  QmCatalogKind  kind)
{
  if (kind == QM_CATALOG_KIND_GPU)
    qm_wizard_update_offers (self);
  qm_wizard_refresh (self, NULL);
}

/* Once the store is known (qm_wizard_new): the hardware lists come
 * from it, so the steps are built then rather than in constructed. */
static void
build (QmWizard *self)
{
  self->building = TRUE;
  load_defaults (self);
  build_dots (self);
  qm_wizard_build_goal (self);
  qm_wizard_build_model (self);
  qm_wizard_build_data (self);
  qm_wizard_build_setup (self);
  qm_wizard_hardware_load (self->hardware, self->store, self->base.pricing.currency);
  g_signal_connect_swapped (self->hardware, "changed", G_CALLBACK (hardware_changed), self);
  qm_wizard_build_facility (self);
  g_signal_connect_swapped (review_page (self), "name-edited", G_CALLBACK (name_edited), self);
  g_signal_connect_swapped (review_page (self), "name-activated", G_CALLBACK (activate_next), self);
  build_status (self);
  g_signal_connect_swapped (self->preset_search, "stop-search", G_CALLBACK (search_stopped), self);
  add_step_keys (self);
  watch_popovers (self, GTK_WIDGET (self));
  qm_wizard_update_mode (self);
  self->building = FALSE;

  self->editor = qm_plan_editor_new (&self->base);
  self->step = QM_WIZARD_N_STEPS;
  qm_wizard_refresh (self, NULL);
  show_step (self, QM_WIZARD_STEP_GOAL);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
qm_wizard_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  QmWizard *self = QM_WIZARD (object);

  switch (prop_id)
    {
    case PROP_STEP:
      g_value_set_uint (value, self->step);
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
  g_clear_handle_id (&self->refocus_source, g_source_remove);
  stop_scroll (self);
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
  g_array_unref (self->combos);
  g_ptr_array_unref (self->offers);
  g_free (self->invalid_message);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_wizard_parent_class)->finalize (object);
}

static void
qm_wizard_class_init (QmWizardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = qm_wizard_get_property;
  object_class->dispose = qm_wizard_dispose;
  object_class->finalize = qm_wizard_finalize;

  properties[PROP_STEP] =
    g_param_spec_uint ("step", NULL, NULL, 0, QM_WIZARD_N_STEPS - 1, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* ::plan-created (const QmPlan *plan): valid during the emission only. */
  signals[PLAN_CREATED] =
    g_signal_new ("plan-created", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  g_type_ensure (QM_TYPE_WIZARD_HARDWARE);
  g_type_ensure (QM_TYPE_WIZARD_REVIEW);
  qm_gtk_class_set_template (widget_class, "qm-wizard.ui");
  gtk_widget_class_bind_template_child (widget_class, QmWizard, window_title);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, next_button);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, back_button);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, dots);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, stack);
  for (guint s = 0; s < QM_WIZARD_N_STEPS; s++)
    gtk_widget_class_bind_template_child_full (widget_class, page_ids[s], FALSE,
                                               G_STRUCT_OFFSET (QmWizard, pages) +
                                               s * sizeof (AdwPreferencesPage *));
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
  gtk_widget_class_bind_template_child (widget_class, QmWizard, hardware);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, pricing_group);
  gtk_widget_class_bind_template_child (widget_class, QmWizard, facility_group);

  gtk_widget_class_install_action (widget_class, "wizard.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "wizard.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "wizard.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "wizard.cancel", NULL);
}

static void
qm_wizard_init (QmWizard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  self->fields = g_ptr_array_new_with_free_func (qm_wizard_field_free);
  self->combos = g_array_new (FALSE, TRUE, sizeof (QmWizardCombo));
  self->offers = g_ptr_array_new ();
  self->invalid_step = QM_WIZARD_N_STEPS;
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->next_button));
  /* Buttons with a mnemonic are read without it (issue #37 item 10). */
  qm_a11y_fix_mnemonics (GTK_WIDGET (self));
}

QmWizard *
qm_wizard_new (GtkWindow *parent,
               QmStore   *store)
{
  QmWizard *self = g_object_new (QM_TYPE_WIZARD,
                                 "transient-for", parent,
                                 "modal", TRUE,
                                 NULL);

  self->store = store ? qm_store_ref (store) : NULL;
  build (self);
  return self;
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
