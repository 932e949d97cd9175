/* qm-wizard-model.c: the wizard's first two steps, the goal and the model.
 *
 * The model comes from the catalog's list, from its size alone, or from
 * its shape; the counts it adds up to show as it is typed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-wizard-private.h"

static const struct
{
  QmMode      mode;
  const char *id;
  const char *title;
  const char *subtitle;
} goals[QM_WIZARD_N_GOALS] = {
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

static const QmWizardRow params_row[] = {
  { "params", "workload.model.params_b", QM_PARSE_PARAMS, .max = 1e14,
    .help = N_("The model’s size, for example 70B or 8 billion") },
};

/* Where the schema's key takes 0 for "as the other key says", an empty
 * entry says so here. */
static const QmWizardRow shape_rows[] = {
  { "layers", "workload.model.layers", QM_PARSE_COUNT },
  { "hidden", "workload.model.hidden", QM_PARSE_COUNT },
  { "heads", "workload.model.heads", QM_PARSE_COUNT, .max = 1e6 },
  { "kv-heads", "workload.model.kv_heads", QM_PARSE_COUNT, QM_WIZARD_ROW_OPTIONAL, .max = 1e6,
    .help = N_("Fewer than the attention heads saves memory (GQA); empty for the same number") },
  { "ffn", "workload.model.ffn_hidden", QM_PARSE_COUNT },
  { "vocab", "workload.model.vocab", QM_PARSE_COUNT },
  { "experts", "workload.model.experts", QM_PARSE_COUNT, QM_WIZARD_ROW_OPTIONAL,
    .help = N_("For a mixture-of-experts model; empty for a dense model") },
  { "experts-per-token", "workload.model.experts_per_token", QM_PARSE_COUNT,
    QM_WIZARD_ROW_OPTIONAL, .max = 65536 },
  { "expert-ffn", "workload.model.moe_ffn_hidden", QM_PARSE_COUNT, QM_WIZARD_ROW_OPTIONAL,
    .help = N_("Width of one expert’s MLP; empty for the feed-forward size") },
};

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
  qm_wizard_update_mode (self);
  qm_wizard_refresh (self, NULL);
}

void
qm_wizard_build_goal (QmWizard *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (goals); i++)
    {
      g_autofree char *name = g_strconcat ("goal-", goals[i].id, NULL);

      self->goal_check[i] = qm_wizard_add_choice_row (GTK_WIDGET (self->goal_group), name,
                                                      _(goals[i].title), _(goals[i].subtitle),
                                                      i ? self->goal_check[0] : NULL);
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
  qm_wizard_refresh (self, NULL);
}

static gboolean
preset_matches (QmWizard  *self,
                GtkWidget *row)
{
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

/* Rows that do not match are hidden, not filtered: a list box's filter
 * leaves them visible to Tab, which then stopped on a model no one could
 * see (issue #35 item 7). */
static void
preset_search_changed (GtkSearchEntry *entry,
                       QmWizard       *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->preset_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (GTK_IS_LIST_BOX_ROW (row))
      gtk_widget_set_visible (row, preset_matches (self, row));
  /* The model that has the focus may have moved. */
  qm_wizard_queue_scroll (self);
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
  qm_wizard_update_model (self);
  qm_wizard_refresh (self, NULL);
}

void
qm_wizard_build_model (QmWizard *self)
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
      qm_a11y_fix_mnemonics (button);
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
  qm_a11y_label (GTK_WIDGET (self->preset_search), _("Search models"));
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->preset_search), 12);
  adw_preferences_group_add (self->model_preset_group, GTK_WIDGET (self->preset_search));

  self->preset_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->preset_list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->preset_list), "boxed-list");
  /* Room for the list's outline, which the scrolled window would clip. */
  gtk_widget_set_margin_start (GTK_WIDGET (self->preset_list), 1);
  gtk_widget_set_margin_end (GTK_WIDGET (self->preset_list), 1);
  gtk_widget_set_margin_top (GTK_WIDGET (self->preset_list), 1);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->preset_list), 3);
  qm_a11y_label (GTK_WIDGET (self->preset_list), _("Models"));
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
      g_autofree char *size = qm_wizard_format_big (p->published_params > 0 ? p->published_params
                                                                  : qm_model_params (&p->shape));
      g_autofree char *subtitle = NULL;
      GtkCheckButton *check;

      if (p->published_active_params > 0 && p->published_active_params < p->published_params)
        {
          g_autofree char *act = qm_wizard_format_big (p->published_active_params);
          /* Translators: "Mistral AI · 46.7 billion parameters, 12.9 billion active". */
          subtitle = g_strdup_printf (_("%s · %s parameters, %s active"),
                                      p->info.vendor ? p->info.vendor : "", size, act);
        }
      else
        subtitle = g_strdup_printf (_("%s · %s parameters"), p->info.vendor ? p->info.vendor : "", size);
      check = qm_wizard_add_choice_row (GTK_WIDGET (self->preset_list), name, p->info.name, subtitle, leader);
      if (leader == NULL)
        leader = check;
      g_object_set_data (G_OBJECT (check), "qm-preset", (gpointer) p);
      g_object_set_data (G_OBJECT (gtk_widget_get_ancestor (GTK_WIDGET (check), GTK_TYPE_LIST_BOX_ROW)),
                         "qm-preset", (gpointer) p);
      g_signal_connect (check, "toggled", G_CALLBACK (preset_toggled), self);
    }

  qm_wizard_add_fields (self, GTK_WIDGET (self->model_size_group), QM_WIZARD_STEP_MODEL,
                        params_row, G_N_ELEMENTS (params_row));
  qm_wizard_add_fields (self, GTK_WIDGET (self->model_shape_group), QM_WIZARD_STEP_MODEL,
                        shape_rows, G_N_ELEMENTS (shape_rows));

  self->total_params_label =
    qm_wizard_add_value_row (self->model_summary_group, _("Parameters"),
                             _("Weights the model stores"), NULL);
  self->active_params_label =
    qm_wizard_add_value_row (self->model_summary_group, _("Active per Token"),
                             _("A mixture-of-experts model uses only some of them for each token"),
                             &self->active_params_row);
  self->chinchilla_label =
    qm_wizard_add_value_row (self->model_summary_group, _("Compute-Optimal Data"),
                             _("About 20 training tokens per parameter (Hoffmann et al. 2022)"), NULL);
  qm_wizard_update_model (self);
}

void
qm_wizard_update_model (QmWizard *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->model_preset_group), self->model_source == MODEL_PRESET);
  gtk_widget_set_visible (GTK_WIDGET (self->model_size_group), self->model_source == MODEL_SIZE);
  gtk_widget_set_visible (GTK_WIDGET (self->model_shape_group), self->model_source == MODEL_SHAPE);
}

