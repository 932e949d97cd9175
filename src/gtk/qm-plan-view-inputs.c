/* qm-plan-view-inputs.c: the side panel of the plan view, where every input
 * of the plan can be edited.
 *
 * Each row is an entry of qm-plan-view-rows.c naming a plan-schema key,
 * which gives its title, help, unit and value. An edit builds a candidate
 * plan, checks it with qm_plan_validate() (the same rules as the plan-file
 * reader), and only then hands it to the editor, with the row's key as the
 * merge key so that one field's edit is one undo step. A refused value
 * marks the row with the error style and says what is allowed; the plan is
 * untouched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-plan.h"
#include "qm-plan-view-rows.h"
#include "qm-problem.h"

/* What a spin button accepts as typed: wide, so that qm_plan_validate()
 * refuses an out-of-range value with its rule rather than the spin
 * clamping it silently. */
#define SPIN_UPPER 1e12

static const char *
input_hint (QmPlanViewInput *in)
{
  if (in->info->hint != NULL)
    return _(in->info->hint);
  return in->key->help != NULL ? _(in->key->help) : NULL;
}

/* The row's title with a mnemonic: the row's own, or the key's label. */
static char *
input_title (QmPlanViewInput *in)
{
  if (in->info->title != NULL)
    return g_strdup (_(in->info->title));
  return g_strconcat ("_", _(in->key->label), NULL);
}

static char *
plain_title (QmPlanViewInput *in)
{
  g_autofree char *title = input_title (in);
  GString *s = g_string_new (NULL);

  for (const char *c = title; *c; c++)
    if (*c != '_')
      g_string_append_c (s, *c);
  return g_string_free (s, FALSE);
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
  const char *hint = input_hint (in);

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

/* A refused value's problem (qm-problem.h), in the user's language: on
 * the row of its key, "Must divide the 8 GPUs of a node (got 3)"; another
 * key's complaint names that key by its row title. */
static char *
explain_error (QmPlanView      *self,
               QmPlanViewInput *in,
               const GError    *error)
{
  const QmProblem *problem = qm_plan_error_get_problem (error);
  const QmPlanKey *key = problem != NULL ? qm_plan_schema_lookup (problem->path) : NULL;
  g_autofree char *message = NULL;
  g_autofree char *rest = NULL;

  if (key == NULL)
    return g_strdup (error->message);
  message = qm_problem_message (problem);
  /* Sentence case for a row's subtitle: "must …" → "Must …". */
  if (message[0] != '\0')
    {
      char first[8];

      first[g_unichar_to_utf8 (g_unichar_totitle (g_utf8_get_char (message)), first)] = '\0';
      rest = g_strconcat (first, g_utf8_next_char (message), NULL);
    }
  else
    rest = g_strdup (message);
  if (key == in->key)
    return g_steal_pointer (&rest);

  for (guint i = 0; i < self->inputs->len; i++)
    {
      QmPlanViewInput *other = g_ptr_array_index (self->inputs, i);

      if (other->key == key)
        {
          g_autofree char *title = plain_title (other);

          /* TRANSLATORS: "Tensor parallel: Must divide the 4 GPUs of a node" */
          return g_strdup_printf (_("%s: %s"), title, rest);
        }
    }
  return g_strdup (error->message);
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
      g_autofree char *message = explain_error (self, in, error);

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
input_set_number (QmPlanViewInput *in,
                  double           v)
{
  QmPlanView *self = in->view;
  QmPlanViewSetFunc set = in->info->set ? in->info->set : qm_plan_view_row_set;
  QmPlan candidate;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  input_commit (in, &candidate, set (in, &candidate, v, qm_plan_editor_get_estimate (self->editor)));
}

static void
input_set_id (QmPlanViewInput *in,
              const char      *id)
{
  QmPlanView *self = in->view;
  QmPlanViewSetIdFunc set_id = in->info->set_id ? in->info->set_id : qm_plan_view_row_set_id;
  QmPlan candidate;
  const char *why;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  why = set_id (in, &candidate, id, qm_plan_editor_get_estimate (self->editor));
  if (why == NULL && in->info->after_set != NULL)
    why = in->info->after_set (in, &candidate);
  input_commit (in, &candidate, why);
}

static void
on_number_changed (GtkSpinButton   *spin,
                   QmPlanViewInput *in)
{
  input_set_number (in, gtk_spin_button_get_value (spin));
}

static void
on_switch_changed (GtkSwitch       *sw,
                   GParamSpec      *pspec,
                   QmPlanViewInput *in)
{
  input_set_number (in, gtk_switch_get_active (sw));
}

static void
on_choice_changed (AdwComboRow     *row,
                   GParamSpec      *pspec,
                   QmPlanViewInput *in)
{
  guint selected = adw_combo_row_get_selected (row);

  if (in->shown != NULL && selected < in->shown->len)
    input_set_id (in, g_ptr_array_index (in->shown, selected));
}

static void
on_text_changed (GtkEditable     *editable,
                 QmPlanViewInput *in)
{
  input_set_id (in, gtk_editable_get_text (editable));
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

static void
input_free (gpointer data)
{
  QmPlanViewInput *in = data;

  g_clear_pointer (&in->shown, g_ptr_array_unref);
  g_free (in);
}

static QmPlanViewRowKind
kind_of_key (const QmPlanKey *key)
{
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:
    case QM_PLAN_KEY_INTEGER:
      return QM_PLAN_VIEW_ROW_NUMBER;
    case QM_PLAN_KEY_BOOL:
      return QM_PLAN_VIEW_ROW_SWITCH;
    case QM_PLAN_KEY_STRING:
      return QM_PLAN_VIEW_ROW_TEXT;
    default:
      return QM_PLAN_VIEW_ROW_CHOICE;
    }
}

/* A spin button, with the key's unit after it. */
static void
build_spin (QmPlanViewInput *in)
{
  double step = in->info->step > 0 ? in->info->step : 1;
  GtkAdjustment *adj = gtk_adjustment_new (0, 0, SPIN_UPPER, step, step * 10, 0);

  in->row = adw_action_row_new ();
  in->control = gtk_spin_button_new (adj, step, in->info->digits);
  gtk_widget_set_valign (in->control, GTK_ALIGN_CENTER);
  gtk_editable_set_width_chars (GTK_EDITABLE (in->control), 8);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (in->control), GTK_UPDATE_ALWAYS);
  g_signal_connect (in->control, "value-changed", G_CALLBACK (on_number_changed), in);
  /* The text is the plan's (its currency): written when syncing. */
  if (in->key->unit != NULL && in->info->title == NULL)
    {
      in->unit = gtk_label_new (NULL);
      gtk_widget_add_css_class (in->unit, "dim-label");
      adw_action_row_add_suffix (ADW_ACTION_ROW (in->row), in->unit);
    }
}

static void
build_control (QmPlanViewInput *in)
{
  switch (in->kind)
    {
    case QM_PLAN_VIEW_ROW_NUMBER:
      build_spin (in);
      break;
    case QM_PLAN_VIEW_ROW_SWITCH:
      in->row = adw_action_row_new ();
      in->control = gtk_switch_new ();
      gtk_widget_set_valign (in->control, GTK_ALIGN_CENTER);
      g_signal_connect (in->control, "notify::active", G_CALLBACK (on_switch_changed), in);
      break;
    case QM_PLAN_VIEW_ROW_CHOICE:
      in->row = adw_combo_row_new ();
      in->control = in->row;
      adw_combo_row_set_model (ADW_COMBO_ROW (in->row), G_LIST_MODEL (gtk_string_list_new (NULL)));
      g_signal_connect (in->row, "notify::selected", G_CALLBACK (on_choice_changed), in);
      break;
    case QM_PLAN_VIEW_ROW_TEXT:
    case QM_PLAN_VIEW_ROW_FROM_KEY:
    default:
      /* A GtkEntry in an action row, not an AdwEntryRow: libadwaita 1.2's
       * entry row focuses a GtkText that GTK 4.8 gives no role, and AT-SPI
       * reports no focus on it (issue #37 item 6). */
      in->row = adw_action_row_new ();
      in->control = gtk_entry_new ();
      gtk_widget_set_valign (in->control, GTK_ALIGN_CENTER);
      gtk_editable_set_width_chars (GTK_EDITABLE (in->control), 12);
      g_signal_connect (in->control, "changed", G_CALLBACK (on_text_changed), in);
      break;
    }
}

static QmPlanViewInput *
build_input (QmPlanView          *self,
             const QmPlanViewRow *info)
{
  QmPlanViewInput *in = g_new0 (QmPlanViewInput, 1);
  g_autofree char *title = NULL;
  g_autofree char *label = NULL;
  const char *hint;

  in->info = info;
  in->key = qm_plan_schema_lookup (info->path);
  g_assert (in->key != NULL && (info->title != NULL || in->key->label != NULL));
  in->kind = info->kind != QM_PLAN_VIEW_ROW_FROM_KEY ? info->kind : kind_of_key (in->key);
  in->view = self;
  build_control (in);

  title = input_title (in);
  label = plain_title (in);
  hint = input_hint (in);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (in->row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (in->row), TRUE);
  gtk_widget_set_name (in->row, info->key);
  if (ADW_IS_ACTION_ROW (in->row) && hint != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (in->row), hint);

  if (in->control != in->row)
    {
      /* The error icon says "refused" without relying on colour. */
      in->error_icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      gtk_widget_set_visible (in->error_icon, FALSE);
      gtk_widget_add_css_class (in->error_icon, "error");
      adw_action_row_add_suffix (ADW_ACTION_ROW (in->row), in->error_icon);
      adw_action_row_add_suffix (ADW_ACTION_ROW (in->row), in->control);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (in->row), in->control);
      /* Not also labelled by the row's title: GTK 4.8 would read both. */
      qm_a11y_label (in->control, label);
      if (hint != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (in->control),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, hint, -1);
    }
  return in;
}

static GtkWidget *
new_group (QmPlanView *self,
           const char *title)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  gtk_box_append (self->inputs_box, group);
  return group;
}

void
qm_plan_view_inputs_build (QmPlanView *self)
{
  GtkWidget *groups[QM_PLAN_VIEW_N_GROUPS] = { NULL };
  GtkWidget *shape;
  guint n_rows;
  const QmPlanViewRow *rows = qm_plan_view_rows (&n_rows);

  qm_plan_view_lists_load (self);
  self->inputs = g_ptr_array_new_with_free_func (input_free);
  self->inputs_by_key = g_hash_table_new (g_str_hash, g_str_equal);

  groups[QM_PLAN_VIEW_GROUP_MODEL] = new_group (self, _("Model"));
  shape = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (shape), _("Model _shape"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (shape), TRUE);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (shape), _("Editing the shape makes a custom model"));
  groups[QM_PLAN_VIEW_GROUP_SHAPE] = shape;
  groups[QM_PLAN_VIEW_GROUP_SCHEDULE] = new_group (self, _("Data and Schedule"));
  groups[QM_PLAN_VIEW_GROUP_SERVING] = new_group (self, _("Serving"));
  groups[QM_PLAN_VIEW_GROUP_TRAINING] = new_group (self, _("Training Setup"));
  groups[QM_PLAN_VIEW_GROUP_HARDWARE] = new_group (self, _("Hardware"));
  groups[QM_PLAN_VIEW_GROUP_FACILITY] = new_group (self, _("Facility"));
  groups[QM_PLAN_VIEW_GROUP_PRICING] = new_group (self, _("Pricing"));
  groups[QM_PLAN_VIEW_GROUP_RELIABILITY] = new_group (self, _("Reliability"));
  /* The quote's terms live on the Quote section, beside its lines. */
  groups[QM_PLAN_VIEW_GROUP_QUOTE] = GTK_WIDGET (self->quote_terms_group);
  self->serving_group = groups[QM_PLAN_VIEW_GROUP_SERVING];
  self->training_group = groups[QM_PLAN_VIEW_GROUP_TRAINING];
  self->reliability_group = groups[QM_PLAN_VIEW_GROUP_RELIABILITY];

  for (guint i = 0; i < n_rows; i++)
    {
      QmPlanViewInput *in = build_input (self, &rows[i]);

      if (rows[i].group == QM_PLAN_VIEW_GROUP_SHAPE)
        adw_expander_row_add_row (ADW_EXPANDER_ROW (shape), in->row);
      else
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (groups[rows[i].group]), in->row);
      /* The shape expander sits right after the preset row. */
      if (g_strcmp0 (rows[i].key, "model") == 0)
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (groups[QM_PLAN_VIEW_GROUP_MODEL]), shape);
      g_ptr_array_add (self->inputs, in);
      g_hash_table_insert (self->inputs_by_key, (gpointer) rows[i].key, in);
    }
}

void
qm_plan_view_inputs_clear (QmPlanView *self)
{
  g_clear_pointer (&self->inputs_by_key, g_hash_table_unref);
  g_clear_pointer (&self->inputs, g_ptr_array_unref);
  qm_plan_view_lists_clear (self);
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

/* ------------------------------------------------------------------ */
/* Syncing                                                             */

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
sync_choice (QmPlanViewInput  *in,
             const QmPlan     *p,
             const QmEstimate *e)
{
  g_autoptr(GPtrArray) choices = qm_plan_view_choices_new ();
  QmPlanViewGetIdFunc get_id = in->info->get_id ? in->info->get_id : qm_plan_view_row_get_id;
  const char *current = get_id (in, p, e);
  guint selected = GTK_INVALID_LIST_POSITION;

  (in->info->choices ? in->info->choices : qm_plan_view_row_choices) (in, p, choices);
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

static void
sync_input (QmPlanViewInput  *in,
            const QmPlan     *p,
            const QmEstimate *e)
{
  QmPlanViewGetFunc get = in->info->get ? in->info->get : qm_plan_view_row_get;
  QmPlanViewGetIdFunc get_id = in->info->get_id ? in->info->get_id : qm_plan_view_row_get_id;

  switch (in->kind)
    {
    case QM_PLAN_VIEW_ROW_NUMBER:
      {
        double v = get (in, p, e);

        if (in->unit != NULL)
          {
            g_autofree char *unit = qm_plan_key_unit_label (in->key, p);
            g_autofree char *title = plain_title (in);
            g_autofree char *name = NULL;

            gtk_label_set_label (GTK_LABEL (in->unit), unit);
            /* The unit is a separate label a screen reader does not tie
             * to the value: put it in the name ("Training Tokens
             * (billions)"). */
            /* Translators: an input's accessible name: its title and its
             * unit, e.g. "Training Tokens (billions)". */
            name = g_strdup_printf (C_("accessible name", "%s (%s)"), title, unit);
            qm_a11y_label (in->control, name);
          }

        if (gtk_spin_button_get_value (GTK_SPIN_BUTTON (in->control)) != v)
          gtk_spin_button_set_value (GTK_SPIN_BUTTON (in->control), v);
        else
          gtk_spin_button_update (GTK_SPIN_BUTTON (in->control));
      }
      break;
    case QM_PLAN_VIEW_ROW_SWITCH:
      gtk_switch_set_active (GTK_SWITCH (in->control), get (in, p, e) != 0);
      break;
    case QM_PLAN_VIEW_ROW_CHOICE:
      sync_choice (in, p, e);
      break;
    case QM_PLAN_VIEW_ROW_TEXT:
    case QM_PLAN_VIEW_ROW_FROM_KEY:
    default:
      if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (in->control)), get_id (in, p, e)) != 0)
        gtk_editable_set_text (GTK_EDITABLE (in->control), get_id (in, p, e));
      break;
    }
}

void
qm_plan_view_inputs_sync (QmPlanView *self,
                          gboolean    force)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  gboolean training = p->workload.mode != QM_MODE_INFERENCE;

  if (self->inputs == NULL)
    return;

  self->syncing = TRUE;
  for (guint i = 0; i < self->inputs->len; i++)
    {
      QmPlanViewInput *in = g_ptr_array_index (self->inputs, i);

      gtk_widget_set_visible (in->row, qm_plan_view_row_visible (in, p));
      gtk_widget_set_sensitive (in->control, in->info->sensitive == NULL || in->info->sensitive (p));
      if (in->in_error && !force)
        continue;
      input_clear_error (in);
      sync_input (in, p, e);
    }
  gtk_widget_set_visible (self->serving_group, !training);
  gtk_widget_set_visible (self->training_group, training);
  gtk_widget_set_visible (self->reliability_group, training);
  self->syncing = FALSE;
}
