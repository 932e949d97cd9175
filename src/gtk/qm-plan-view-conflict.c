/* qm-plan-view-conflict.c: someone else saved the plan since this view
 * read it (QM_STORE_ERROR_CONFLICT, issue #23). Nothing is overwritten:
 * the user keeps their version as a copy, takes the saved one, or
 * compares the two (which keeps theirs as a copy first, so that both are
 * saved plans the Compare page can read).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-plan-view-private.h"
#include "qm-window.h"

/* Saves @mine as a new plan named "NAME (my version)": @copy gets its
 * id and revision, @plan its name. FALSE with @error. */
static gboolean
save_copy (QmPlanView   *self,
           QmSavedPlan  *copy,
           QmPlan       *plan,
           GError      **error)
{
  g_autofree char *name = NULL;

  *plan = *qm_plan_editor_get_plan (self->editor);
  /* Translators: the name a conflicting edit is kept under: the plan's name, then this. */
  name = g_strdup_printf (_("%s (my version)"), plan->name);
  g_strlcpy (plan->name, name, sizeof plan->name);
  copy->id = 0;
  copy->revision = 0;
  g_free (copy->name);
  copy->name = g_strdup (plan->name);
  g_free (copy->inputs);
  copy->inputs = qm_plan_to_data (plan, NULL);
  return qm_plan_store_save (self->store, copy, error);
}

static void
resolved (QmPlanView *self)
{
  g_clear_pointer (&self->save_error, g_free);
  /* The title drops "not saved"; lists follow the saved plan. */
  qm_plan_view_update_title (self);
  g_signal_emit_by_name (self, "saved", self->saved->id);
}

/* Keeps @mine as a copy and makes the view edit it. The copy's id, or 0
 * with a toast saying why. */
static gint64
keep_mine (QmPlanView        *self,
           const QmSavedPlan *mine)
{
  g_autoptr(QmSavedPlan) copy = qm_saved_plan_copy (mine);
  g_autoptr(GError) error = NULL;
  QmPlan plan;

  if (!save_copy (self, copy, &plan, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save your version: %s. It is still here."),
                                               error->message);
      qm_plan_view_toast (self, text);
      return 0;
    }

  /* The view now edits the copy. */
  qm_plan_editor_set_plan (self->editor, &plan, NULL);
  g_clear_pointer (&self->saved, qm_saved_plan_free);
  self->saved = g_steal_pointer (&copy);
  qm_plan_editor_mark_saved (self->editor, self->saved->id);
  resolved (self);
  return self->saved->id;
}

/* Replaces the edit with the plan as it is stored now. */
static void
take_theirs (QmPlanView *self,
             gint64      id)
{
  g_autoptr(QmSavedPlan) theirs = NULL;
  g_autoptr(GError) error = NULL;
  QmPlan plan;

  theirs = qm_plan_store_load (self->store, id, &error);
  if (theirs == NULL || !qm_plan_store_read_plan (self->store, theirs->inputs, &plan, NULL, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not read the saved plan: %s. Your version is still here."),
                                               error->message);
      qm_plan_view_toast (self, text);
      return;
    }
  /* Undo brings the user's version back, should they want it after all. */
  qm_plan_editor_set_plan (self->editor, &plan, NULL);
  g_clear_pointer (&self->saved, qm_saved_plan_free);
  self->saved = g_steal_pointer (&theirs);
  qm_plan_editor_mark_saved (self->editor, id);
  resolved (self);
}

static void
conflict_response (AdwMessageDialog *dialog,
                   const char       *response,
                   QmPlanView       *self)
{
  const QmSavedPlan *mine = g_object_get_data (G_OBJECT (dialog), "qm-mine");
  gint64 theirs = mine->id;
  gint64 copy;

  if (g_str_equal (response, "theirs"))
    take_theirs (self, theirs);
  else if (g_str_equal (response, "keep") || g_str_equal (response, "compare"))
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

      copy = keep_mine (self, mine);
      if (copy > 0 && g_str_equal (response, "compare") && QM_IS_WINDOW (root))
        qm_window_compare (QM_WINDOW (root), (gint64[]) { theirs, copy }, 2);
      else if (copy > 0)
        qm_plan_view_toast (self, _("Your version was saved as a copy; the other one is kept too"));
    }
  /* Closed without a choice: the edit stays here, unsaved, and the next
   * save asks again. */
}

void
qm_plan_view_conflict_show (QmPlanView        *self,
                            const QmSavedPlan *mine,
                            const GError      *error)
{
  g_autofree char *body = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  AdwMessageDialog *dialog;

  /* Leaving the view (its last save) cannot ask: keep the edit as a copy. */
  if (self->disposing)
    {
      g_autoptr(QmSavedPlan) copy = qm_saved_plan_copy (mine);
      QmPlan plan;

      if (!save_copy (self, copy, &plan, NULL))
        g_warning ("A plan's edit that conflicted with another save could not be kept as a copy");
      return;
    }
  /* One question at a time: autosave fails the same way on every edit. */
  if (self->conflict_dialog != NULL)
    return;
  body = g_strdup_printf (_("%s\n\nYour changes are still here. Keep them as a copy, take the saved "
                            "version, or compare the two."), error->message);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("Someone Else Saved This Plan"), body));
  adw_message_dialog_add_responses (dialog,
                                    "theirs", _("_Take Theirs"),
                                    "compare", _("C_ompare"),
                                    "keep", _("_Keep Mine as a Copy"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "keep", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "keep");
  g_object_set_data_full (G_OBJECT (dialog), "qm-mine", qm_saved_plan_copy (mine),
                          (GDestroyNotify) qm_saved_plan_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (conflict_response), self, 0);
  self->conflict_dialog = GTK_WIDGET (dialog);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->conflict_dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}
