/* qm-plan-view.c: one plan on screen: key figures, charts, bill of
 * materials, assumptions and warnings, saving and export. The side panel
 * lives in qm-plan-view-inputs.c.
 *
 * A saved quote that today's catalog would price differently (a price
 * that a line of its bill of materials uses, or the figures of hardware
 * it names: qm_plan_store_catalog_changed(); a price of anything else
 * changes nothing) is shown as it was quoted: the key figures and the
 * bill of materials come from the saved estimate JSON (the snapshot), and
 * a banner names each change (the line, the entry, the price then and
 * now) and offers Recompute. The charts, the assumptions and the advice
 * stay, from today's estimate, and a note under the charts says so; the
 * Quote section and the exports, which price today, wait for Recompute
 * (or for the first edit, which is a recompute by choice). Recompute
 * saves today's estimate and has the store record today's prices even
 * when the figures come out the same, so the banner does not come back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-catalog.h"
#include "qm-chart-widget.h"
#include "qm-estimate-json.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-list-page.h"
#include "qm-plan-report.h"
#include "qm-plan.h"
#include "qm-plan-view-private.h"
#include "qm-print.h"
#include "qm-rename-dialog.h"
#include "qm-text.h"
#include "qm-json-parse.h"

enum {
  PROP_0,
  PROP_STORE,
  PROP_EDITOR,
  PROP_SHOWING_SNAPSHOT,
  N_PROPS
};

enum {
  BACK,
  ADD_TO_COMPARE,
  DUPLICATED,
  SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QmPlanView, qm_plan_view, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ */
/* Assumptions and warnings                                            */

static void
add_note_row (QmPlanView   *self,
              const QmNote *note,
              gboolean      warning)
{
  char text[1024];
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (warning ? "dialog-warning-symbolic"
                                                          : "dialog-information-symbolic");

  qm_note_format (note, text, sizeof text);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), warning ? _("Warning") : _("Assumption"));
  gtk_widget_add_css_class (icon, warning ? "warning" : "dim-label");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  warning ? _("Warning") : _("Assumption"), -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_focusable (row, TRUE);
  gtk_list_box_append (self->notes_list, row);
}

static void
update_notes (QmPlanView *self)
{
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->notes_list))) != NULL)
    gtk_list_box_remove (self->notes_list, child);
  for (guint i = 0; i < e->n_warnings; i++)
    add_note_row (self, &e->warnings[i], TRUE);
  for (guint i = 0; i < e->n_assumptions; i++)
    add_note_row (self, &e->assumptions[i], FALSE);

  adw_preferences_group_set_description (self->notes_group,
                                         e->n_warnings == 0
                                         ? _("Each figure’s basis, with its source")
                                         : g_dngettext (GETTEXT_PACKAGE, "One warning first, then each figure’s basis",
                                                        "Warnings first, then each figure’s basis", e->n_warnings));
}

/* ------------------------------------------------------------------ */
/* Refresh                                                             */

static const char *
mode_label (QmMode mode)
{
  switch (mode)
    {
    case QM_MODE_PRETRAIN: return _("Pretraining");
    case QM_MODE_FINETUNE: return _("Fine-tuning");
    case QM_MODE_LORA: return _("LoRA fine-tuning");
    case QM_MODE_QLORA: return _("QLoRA fine-tuning");
    case QM_MODE_INFERENCE: return _("Serving");
    default: return "";
    }
}

/* Whether the store lets the connected role do what @rights name (all of
 * them): on a team database a viewer may read plans but not save them,
 * and the view keeps its edits local, as a what-if (issue #23). A file
 * opened read-only (its permissions) may not either, and the banner says
 * so before the user types anything into a save dialog. */
gboolean
qm_plan_view_may (QmPlanView    *self,
                  QmStoreRights  rights)
{
  if (self->store == NULL)
    return FALSE;
  return (qm_store_rights (self->store) & rights) == rights;
}

void
qm_plan_view_update_title (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  const QmModelPreset *preset = p->workload.preset[0] ? qm_catalog_model (p->workload.preset) : NULL;
  const char *name = p->name[0] ? p->name : _("Untitled Plan");
  const char *state = "";
  char params[QM_FORMAT_BUF];
  double billions = e->params / 1e9;
  g_autofree char *subtitle = NULL;

  if (self->save_error != NULL)
    state = _("Not saved");
  else if (self->snapshot != NULL)
    state = _("Saved quote");
  else if (self->store != NULL && qm_plan_editor_get_dirty (self->editor))
    state = _("Unsaved changes");
  else if (self->store != NULL && qm_plan_editor_get_saved_id (self->editor) > 0)
    state = _("Saved");

  adw_window_title_set_title (self->window_title, name);
  adw_window_title_set_subtitle (self->window_title, state);
  gtk_label_set_label (self->plan_title, name);

  qm_format_number (params, sizeof params, billions, billions < 10 ? 2 : 1);
  subtitle = g_strdup_printf (_("%s · %s · %s billion parameters"), mode_label (p->workload.mode),
                              preset ? preset->info.name : _("Custom model"), params);
  gtk_label_set_label (self->plan_subtitle, subtitle);
}

static void
update_actions (QmPlanView *self)
{
  gboolean live = self->snapshot == NULL;
  gboolean writable = qm_plan_view_may (self, QM_STORE_RIGHT_EDIT_PLANS);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.undo", qm_plan_editor_can_undo (self->editor));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.redo", qm_plan_editor_can_redo (self->editor));
  /* What writes to the store follows the role; edits stay local. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.duplicate", writable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.rename", self->store == NULL || writable);
  /* Compare reads the saved plan: a role that may not save compares it
   * as it was saved. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.add-to-compare",
                                 self->store == NULL || writable || qm_plan_editor_get_saved_id (self->editor) > 0);
  /* Exports follow today's estimate: not while a saved quote is shown. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.export-pdf", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.print", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.export-csv", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.recompute", !live);
}

static void
refresh (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  QmPlanViewFigures f;

  if (self->snapshot != NULL)
    qm_plan_view_figures_from_snapshot (p, json_node_get_object (self->snapshot), &f);
  else
    qm_plan_view_figures_from_estimate (p, qm_plan_editor_get_estimate (self->editor), &f);
  qm_plan_view_update_figures (self, &f);
  qm_plan_view_update_charts (self);
  qm_plan_view_update_bom (self);
  qm_plan_view_quote_update (self);
  update_notes (self);
  qm_plan_view_update_title (self);
  update_actions (self);

  /* The charts and assumptions stay with a saved quote: the note under
   * the charts says they follow today's catalog. */
  gtk_widget_set_visible (self->quote_box, self->snapshot == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->charts_note), self->snapshot != NULL);
  gtk_revealer_set_reveal_child (self->catalog_revealer, self->snapshot != NULL);
}

/* ------------------------------------------------------------------ */
/* Saving                                                              */

static gboolean
save_now (QmPlanView *self,
          gboolean    force,
          GError    **error)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  g_autoptr(QmSavedPlan) sp = NULL;
  g_autoptr(GError) local_error = NULL;
  gint64 id = qm_plan_editor_get_saved_id (self->editor);

  g_clear_handle_id (&self->autosave_source, g_source_remove);
  if (self->store == NULL)
    return TRUE;
  if (!force && id > 0 && !qm_plan_editor_get_dirty (self->editor))
    return TRUE;
  if (!qm_plan_view_may (self, QM_STORE_RIGHT_EDIT_PLANS))
    {
      g_autofree char *why = qm_store_rights_reason (self->store, QM_STORE_RIGHT_EDIT_PLANS);

      g_set_error_literal (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY, why);
      return FALSE;
    }
  /* Never overwrite a shown snapshot: recompute is the user's choice. */
  if (self->snapshot != NULL)
    return TRUE;

  sp = self->saved != NULL ? qm_saved_plan_copy (self->saved) : qm_saved_plan_new ();
  sp->id = id;
  g_free (sp->name);
  sp->name = g_strdup (p->name);
  g_clear_pointer (&sp->notes, g_free);
  /* The row's customer and quote reference are the plan's: the Quote
   * section edits the one, Save Quote sets the other, and the store writes
   * the row's values into the file. */
  g_free (sp->customer);
  sp->customer = g_strdup (p->customer);
  g_free (sp->quote_ref);
  sp->quote_ref = g_strdup (p->quote_ref);
  g_free (sp->inputs);
  sp->inputs = qm_plan_to_data (p, NULL);
  g_free (sp->snapshot);
  sp->snapshot = qm_estimate_to_json (p, e, NULL);
  g_free (sp->model);
  sp->model = g_strdup (p->workload.preset[0] ? p->workload.preset : "custom");
  sp->gpus = e->gpus;
  sp->days = e->train_days > 0 ? e->train_days : e->ideal_days;
  sp->total_cost = e->has_cost ? e->cost.total : 0;

  if (!qm_plan_store_save (self->store, sp, &local_error))
    {
      g_free (self->save_error);
      self->save_error = g_strdup (local_error->message);
      qm_plan_view_update_title (self);
      /* Someone else saved it since: never overwrite, ask. */
      if (g_error_matches (local_error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT))
        qm_plan_view_conflict_show (self, sp, local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_clear_pointer (&self->save_error, g_free);
  g_clear_pointer (&self->saved, qm_saved_plan_free);
  self->saved = g_steal_pointer (&sp);
  qm_plan_editor_mark_saved (self->editor, self->saved->id);
  qm_plan_view_update_title (self);
  g_signal_emit (self, signals[SAVED], 0, self->saved->id);
  return TRUE;
}

void
qm_plan_view_toast (QmPlanView *self,
                    const char *text)
{
  AdwToast *t = adw_toast_new (text);

  adw_toast_set_timeout (t, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

static gboolean
autosave_cb (gpointer user_data)
{
  QmPlanView *self = user_data;
  g_autoptr(GError) error = NULL;

  self->autosave_source = 0;
  /* A conflict asks in its own dialog. */
  if (!save_now (self, FALSE, &error) && !g_error_matches (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save: %s. The edit is kept here and saving is tried again on the next edit."),
                                               error->message);
      qm_plan_view_toast (self, text);
    }
  return G_SOURCE_REMOVE;
}

static void
on_editor_changed (QmPlanEditor *editor,
                   QmPlanView   *self)
{
  /* An edit is a recompute by choice: leave a shown snapshot. */
  if (self->snapshot != NULL && qm_plan_editor_get_dirty (editor))
    {
      g_clear_pointer (&self->snapshot, json_node_unref);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWING_SNAPSHOT]);
    }
  refresh (self);
  qm_plan_view_inputs_sync (self, !self->editing);

  if (qm_plan_view_may (self, QM_STORE_RIGHT_EDIT_PLANS) && qm_plan_editor_get_dirty (editor))
    {
      g_clear_handle_id (&self->autosave_source, g_source_remove);
      self->autosave_source = g_timeout_add (QM_PLAN_VIEW_AUTOSAVE_MS, autosave_cb, self);
    }
}

static void
on_editor_state (QmPlanEditor *editor,
                 GParamSpec   *pspec,
                 QmPlanView   *self)
{
  update_actions (self);
  qm_plan_view_update_title (self);
}

/* ------------------------------------------------------------------ */
/* Export and print                                                    */

/* The plan's report, for the PDF and for printing, with @info (filled
 * here) as it was made. */
static QmDocument *
new_report (QmPlanView       *self,
            QmPlanReportInfo *info)
{
  qm_plan_report_info_init (info);
  /* The report ranks its advice by the goal chosen on screen. */
  info->advisor_goal = qm_advisor_goal_to_string (qm_advisor_panel_get_goal (self->advisor_panel));
  info->price_max_age_months = qm_plan_view_price_max_age (self);
  return qm_plan_report_new (qm_plan_editor_get_plan (self->editor),
                             qm_plan_editor_get_estimate (self->editor), info);
}

gboolean
qm_plan_view_export_pdf (QmPlanView  *self,
                         const char  *path,
                         GError     **error)
{
  g_autoptr(QmDocument) doc = NULL;
  QmPlanReportInfo info;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  doc = new_report (self, &info);
  return qm_document_write_pdf (doc, path, error);
}

gboolean
qm_plan_view_export_csv (QmPlanView  *self,
                         const char  *path,
                         GError     **error)
{
  g_autofree char *csv = NULL;
  QmCsvDialect dialect;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  /* The user's spreadsheet convention, as the catalog's export writes by
   * default, stated in a "sep=" line so that any locale reads it back. */
  qm_csv_dialect_for_locale (&dialect);
  csv = qm_bom_to_csv_dialect (qm_plan_editor_get_estimate (self->editor),
                               qm_plan_editor_get_plan (self->editor), FALSE, &dialect);
  return g_file_set_contents (path, csv, -1, error);
}

gboolean
qm_plan_view_export_plan_file (QmPlanView  *self,
                               const char  *path,
                               GError     **error)
{
  g_autofree char *data = NULL;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  data = qm_plan_to_data (qm_plan_editor_get_plan (self->editor), NULL);
  /* The user's own catalog entries go inside, so it opens elsewhere; a
   * file without them would not, so their failure is the export's. */
  if (self->store != NULL)
    {
      char *embedded = qm_plan_store_embed_custom (self->store, data, error);

      if (embedded == NULL)
        return FALSE;
      g_free (data);
      data = embedded;
    }
  return g_file_set_contents (path, data, -1, error);
}

/* The chosen file of the export that asked for it (self->pending_export). */
static void
export_to_file (GtkWidget *widget,
                GFile     *file)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *base = g_file_get_basename (file);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (path != NULL && self->pending_export (self, path, &error))
    {
      text = g_strdup_printf (_("Exported “%s”"), base);
      adw_toast_overlay_add_toast (self->toast_overlay, qm_gtk_export_toast_new (text, file));
      return;
    }
  text = g_strdup_printf (_("Could not export “%s”: %s"), base,
                          error ? error->message : _("not a local file"));
  qm_plan_view_toast (self, text);
}

/* What each export action writes: the chooser's title, the file's
 * extension and type, and the function that writes it. */
typedef struct
{
  const char           *action;
  const char           *title;
  const char           *extension;
  const char           *filter_name;
  const char           *mime_type;
  QmPlanViewExportFunc  func;
} Export;

static const Export exports[] = {
  { "plan.export-pdf", N_("Export PDF"), "pdf", N_("PDF documents"), "application/pdf",
    qm_plan_view_export_pdf },
  { "plan.export-csv", N_("Export Bill of Materials"), "csv", N_("CSV spreadsheets"), "text/csv",
    qm_plan_view_export_csv },
  { "plan.export-plan", N_("Export Plan File"), "qmplan", N_("Quartermaster plans"),
    "application/x-quartermaster-plan", qm_plan_view_export_plan_file },
  { "plan.export-quote-pdf", N_("Export Quote PDF"), "pdf", N_("PDF documents"), "application/pdf",
    qm_plan_view_export_quote_pdf },
  { "plan.export-quote-xlsx", N_("Export Quote Workbook"), "xlsx", N_("Excel workbooks"),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", qm_plan_view_export_quote_xlsx },
};

static void
export_with_chooser (QmPlanView   *self,
                     const Export *export)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*.", export->extension, NULL);
  g_autofree char *base = g_strdup (p->name[0] ? p->name : _("Plan"));
  g_autofree char *name = NULL;

  /* A file name without path separators. */
  g_strdelimit (base, "/\\:", '-');
  name = g_strconcat (base, ".", export->extension, NULL);
  gtk_file_filter_set_name (filter, _(export->filter_name));
  gtk_file_filter_add_mime_type (filter, export->mime_type);
  gtk_file_filter_add_pattern (filter, pattern);
  self->pending_export = export->func;
  qm_list_page_choose_file (GTK_WIDGET (self), _(export->title), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                            filter, name, export_to_file);
}

gboolean
qm_plan_view_print (QmPlanView  *self,
                    const char  *export_path,
                    GError     **error)
{
  const QmPlan *p;
  QmPlanReportInfo info;
  QmDocument *doc;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  p = qm_plan_editor_get_plan (self->editor);
  doc = new_report (self, &info);
  return qm_print_document (GTK_WIDGET (self), doc, info.paper, p->name[0] ? p->name : _("Plan"),
                            export_path, error);
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
go_back (QmPlanView *self)
{
  /* Escape first closes the side panel drawn over the content. */
  if (adw_flap_get_folded (self->flap) && adw_flap_get_reveal_flap (self->flap))
    {
      adw_flap_set_reveal_flap (self->flap, FALSE);
      return;
    }
  g_signal_emit (self, signals[BACK], 0);
}

static void
undo (QmPlanView *self)
{
  qm_plan_editor_undo (self->editor);
}

static void
redo (QmPlanView *self)
{
  qm_plan_editor_redo (self->editor);
}

static void
toggle_inputs (QmPlanView *self)
{
  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

static void
on_rename_entry_changed (GtkEditable      *entry,
                         AdwMessageDialog *dialog)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "rename", text[0] != '\0' && strlen (text) < QM_NAME_LEN);
}

static void
on_rename_response (AdwMessageDialog *dialog,
                    const char       *response,
                    QmPlanView       *self)
{
  GtkEditable *entry = qm_rename_dialog_get_entry (dialog);
  /* A pasted tab or control character would make the saved plan unreadable. */
  g_autofree char *text = g_strstrip (qm_text_sanitize (gtk_editable_get_text (entry), FALSE));
  QmPlan candidate;

  if (g_strcmp0 (response, "rename") != 0 || text[0] == '\0')
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  g_strlcpy (candidate.name, text, sizeof candidate.name);
  qm_plan_editor_set_plan (self->editor, &candidate, "name");
}

static void
rename_plan (QmPlanView *self)
{
  AdwMessageDialog *dialog = qm_rename_dialog_new (GTK_WIDGET (self), qm_plan_editor_get_plan (self->editor)->name);

  g_signal_connect (qm_rename_dialog_get_entry (dialog), "changed", G_CALLBACK (on_rename_entry_changed), dialog);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_rename_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
duplicate_plan (QmPlanView *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gint64 id;

  if (self->store == NULL)
    return;
  if (!save_now (self, qm_plan_editor_get_saved_id (self->editor) == 0, &error) ||
      (id = qm_plan_store_duplicate (self->store, qm_plan_editor_get_saved_id (self->editor),
                                     NULL, &error)) == 0)
    {
      text = g_strdup_printf (_("Could not save a copy: %s"), error ? error->message : "");
      qm_plan_view_toast (self, text);
      return;
    }
  text = g_strdup_printf (_("Saved a copy of “%s”"), qm_plan_editor_get_plan (self->editor)->name);
  qm_plan_view_toast (self, text);
  g_signal_emit (self, signals[DUPLICATED], 0, id);
}

static void
print_plan (QmPlanView *self)
{
  g_autoptr(GError) error = NULL;

  if (!qm_plan_view_print (self, NULL, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not print: %s"), error->message);
      qm_plan_view_toast (self, text);
    }
}

static void
add_to_compare (QmPlanView *self)
{
  g_autoptr(GError) error = NULL;

  /* Compare reads saved plans: save pending edits first, where the
   * role may. */
  if (qm_plan_view_may (self, QM_STORE_RIGHT_EDIT_PLANS) &&
      !save_now (self, qm_plan_editor_get_saved_id (self->editor) == 0, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save: %s"), error->message);
      qm_plan_view_toast (self, text);
      return;
    }
  g_signal_emit (self, signals[ADD_TO_COMPARE], 0, qm_plan_editor_get_saved_id (self->editor));
}

static void
recompute (QmPlanView *self)
{
  g_autoptr(GError) error = NULL;

  if (self->snapshot == NULL)
    return;
  g_clear_pointer (&self->snapshot, json_node_unref);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWING_SNAPSHOT]);
  refresh (self);
  /* The new figures replace the quote in the store, by the user's
   * choice, where the role may save; else they are shown here only.
   * The store records today's prices even if the figures came out the
   * same (a price the estimate does not feel), so the quote is not
   * marked again on the next opening. */
  if (self->saved != NULL)
    self->saved->reprice = TRUE;
  if (qm_plan_view_may (self, QM_STORE_RIGHT_EDIT_PLANS) && !save_now (self, TRUE, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save: %s"), error->message);
      qm_plan_view_toast (self, text);
    }
  else
    qm_plan_view_toast (self, _("Recomputed with today’s catalog"));
}

/* The actions above, called by activate() from this table. */
static const struct
{
  const char *name;
  void      (*run) (QmPlanView *self);
} actions[] = {
  { "plan.back", go_back },
  { "plan.undo", undo },
  { "plan.redo", redo },
  { "plan.toggle-inputs", toggle_inputs },
  { "plan.rename", rename_plan },
  { "plan.duplicate", duplicate_plan },
  { "plan.print", print_plan },
  { "plan.add-to-compare", add_to_compare },
  { "plan.recompute", recompute },
};

/* Every action of the view's own: an export of exports[] or one of
 * actions[]. */
static void
activate (GtkWidget  *widget,
          const char *action_name,
          GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);

  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    if (g_str_equal (exports[i].action, action_name))
      export_with_chooser (self, &exports[i]);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    if (g_str_equal (actions[i].name, action_name))
      actions[i].run (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

/* The banner over a saved quote that today's catalog would price
 * differently: each change (at most a few; the rest counted), and what
 * the page shows meanwhile. */
#define QM_PLAN_VIEW_BANNER_CHANGES 4

static char *
catalog_banner_text (GPtrArray *changes)
{
  GString *text = g_string_new (g_dngettext (GETTEXT_PACKAGE,
                                             "The catalog changed since this quote:",
                                             "The catalog changed since this quote in these ways:",
                                             changes->len));
  guint shown = MIN (changes->len, QM_PLAN_VIEW_BANNER_CHANGES);

  for (guint i = 0; i < shown; i++)
    g_string_append_printf (text, "\n• %s", (const char *) g_ptr_array_index (changes, i));
  if (changes->len > shown)
    {
      guint more = changes->len - shown;

      g_string_append_c (text, '\n');
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "• and %u more change",
                                                 "• and %u more changes", more), more);
    }
  g_string_append_c (text, '\n');
  g_string_append (text, _("The key figures and the bill of materials are as quoted. "
                           "Recompute prices the plan with today’s catalog and saves it as the quote."));
  return g_string_free (text, FALSE);
}

static void
load_saved (QmPlanView *self)
{
  gint64 id = qm_plan_editor_get_saved_id (self->editor);
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(JsonParser) parser = NULL;

  if (self->store == NULL || id <= 0)
    return;
  self->saved = qm_plan_store_load (self->store, id, NULL);
  if (self->saved == NULL || self->saved->snapshot == NULL)
    return;
  if (!qm_plan_store_catalog_changed (self->store, id, &changes, NULL))
    return;

  parser = json_parser_new_immutable ();
  if (!qm_json_parser_load (parser, self->saved->snapshot, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;
  self->snapshot = json_node_ref (json_parser_get_root (parser));

  if (changes != NULL && changes->len > 0)
    {
      g_autofree char *text = catalog_banner_text (changes);

      gtk_label_set_label (self->catalog_label, text);
      /* The banner counts what it leaves out; the tooltip lists it all. */
      if (changes->len > QM_PLAN_VIEW_BANNER_CHANGES)
        {
          g_autoptr(GString) tip = g_string_new (NULL);

          for (guint i = 0; i < changes->len; i++)
            g_string_append_printf (tip, "%s%s", i ? "\n" : "", (const char *) g_ptr_array_index (changes, i));
          gtk_widget_set_tooltip_text (GTK_WIDGET (self->catalog_label), tip->str);
        }
    }
}

/* A role that may not save plans, or a file opened read-only: the view
 * says why, once, above its figures, and its edits stay here as a
 * what-if. */
static void
show_read_only (QmPlanView *self)
{
  g_autofree char *why = NULL;

  if (self->store != NULL && !qm_plan_view_may (self, QM_STORE_RIGHT_EDIT_PLANS))
    why = qm_store_rights_reason (self->store, QM_STORE_RIGHT_EDIT_PLANS);
  if (why != NULL)
    gtk_label_set_label (self->read_only_label, why);
  gtk_revealer_set_reveal_child (self->read_only_revealer, why != NULL);
}

/* Try It saved a changed copy: the window opens it like a duplicate. */
static void
on_advisor_plan_saved (QmAdvisorPanel *panel,
                       gint64          id,
                       QmPlanView     *self)
{
  g_signal_emit (self, signals[DUPLICATED], 0, id);
}

static void
qm_plan_view_constructed (GObject *object)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  G_OBJECT_CLASS (qm_plan_view_parent_class)->constructed (object);

  if (self->editor == NULL)
    self->editor = qm_plan_editor_new (NULL);
  load_saved (self);
  show_read_only (self);
  qm_plan_view_sections_add_menu (self);
  qm_plan_view_inputs_build (self);
  qm_advisor_panel_set_store (self->advisor_panel, self->store);
  qm_advisor_panel_set_editor (self->advisor_panel, self->editor);
  g_signal_connect_object (self->advisor_panel, "plan-saved", G_CALLBACK (on_advisor_plan_saved), self, 0);

  self->changed_handler = g_signal_connect (self->editor, "changed", G_CALLBACK (on_editor_changed), self);
  self->undo_handler = g_signal_connect (self->editor, "notify::can-undo", G_CALLBACK (on_editor_state), self);
  self->redo_handler = g_signal_connect (self->editor, "notify::can-redo", G_CALLBACK (on_editor_state), self);
  self->dirty_handler = g_signal_connect (self->editor, "notify::dirty", G_CALLBACK (on_editor_state), self);

  refresh (self);
  qm_plan_view_inputs_sync (self, TRUE);
}

static void
qm_plan_view_dispose (GObject *object)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  /* Leaving the view must not lose an edit waiting for its autosave
   * (nor one that conflicts: it is kept as a copy). */
  self->disposing = TRUE;
  if (self->conflict_dialog != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->conflict_dialog), (gpointer *) &self->conflict_dialog);
      self->conflict_dialog = NULL;
    }
  if (self->autosave_source != 0 && self->editor != NULL)
    save_now (self, FALSE, NULL);
  g_clear_handle_id (&self->autosave_source, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_PLAN_VIEW);

  if (self->editor != NULL)
    {
      g_clear_signal_handler (&self->changed_handler, self->editor);
      g_clear_signal_handler (&self->undo_handler, self->editor);
      g_clear_signal_handler (&self->redo_handler, self->editor);
      g_clear_signal_handler (&self->dirty_handler, self->editor);
    }
  g_clear_object (&self->editor);
  g_clear_object (&self->bom_store);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->snapshot, json_node_unref);
  g_clear_pointer (&self->saved, qm_saved_plan_free);
  qm_plan_view_inputs_clear (self);
  qm_plan_view_cancel_sweeps (self);

  G_OBJECT_CLASS (qm_plan_view_parent_class)->dispose (object);
}

static void
qm_plan_view_finalize (GObject *object)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  g_free (self->curves);
  g_free (self->quote);
  g_free (self->quote_shape);
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    g_free (self->layouts[k]);
  g_clear_pointer (&self->figure_values, g_hash_table_unref);
  g_clear_pointer (&self->figure_details, g_hash_table_unref);
  g_clear_pointer (&self->figure_bands, g_hash_table_unref);
  g_clear_pointer (&self->figure_cards, g_hash_table_unref);
  g_free (self->save_error);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_plan_view_parent_class)->finalize (object);
}

static void
qm_plan_view_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_pointer (value, self->store);
      break;
    case PROP_EDITOR:
      g_value_set_object (value, self->editor);
      break;
    case PROP_SHOWING_SNAPSHOT:
      g_value_set_boolean (value, self->snapshot != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_plan_view_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      /* Construct-only; the view holds a reference (issue #34 item 3). */
      self->store = g_value_get_pointer (value) ? qm_store_ref (g_value_get_pointer (value)) : NULL;
      break;
    case PROP_EDITOR:
      self->editor = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_plan_view_class_init (QmPlanViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = qm_plan_view_constructed;
  object_class->dispose = qm_plan_view_dispose;
  object_class->finalize = qm_plan_view_finalize;
  object_class->get_property = qm_plan_view_get_property;
  object_class->set_property = qm_plan_view_set_property;

  properties[PROP_STORE] =
    g_param_spec_pointer ("store", NULL, NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EDITOR] =
    g_param_spec_object ("editor", NULL, NULL, QM_TYPE_PLAN_EDITOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOWING_SNAPSHOT] =
    g_param_spec_boolean ("showing-snapshot", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[BACK] = g_signal_new ("back", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ADD_TO_COMPARE] = g_signal_new ("add-to-compare", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  signals[DUPLICATED] = g_signal_new ("duplicated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  signals[SAVED] = g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  g_type_ensure (QM_TYPE_ADVISOR_PANEL);
  qm_gtk_class_set_template (widget_class, "qm-plan-view.ui");
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, header_bar);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, window_title);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, inputs_button);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, catalog_revealer);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, catalog_label);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, read_only_revealer);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, read_only_label);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, flap);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, inputs_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, plan_title);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, plan_subtitle);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, figures_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, bands_basis);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, charts_note);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, charts_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, bom_view);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, bom_totals);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, notes_group);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, notes_list);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, advisor_panel);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_state);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_add_group);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_terms_group);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_lines_group);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_lines);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_totals);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_chart_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, quote_actions);
  qm_plan_view_quote_class_init (widget_class);
  qm_plan_view_sections_class_init (widget_class);

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i].name, NULL, activate);
  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    gtk_widget_class_install_action (widget_class, exports[i].action, NULL, activate);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "plan.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "plan.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "plan.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "plan.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "plan.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "plan.toggle-inputs", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "plan.rename", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "plan.duplicate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "plan.export-pdf", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, GDK_CONTROL_MASK, "plan.print", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "planview");
}

static void
qm_plan_view_init (QmPlanView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->curves = g_new0 (QmPlanCurves, 1);
  self->quote = g_new0 (QmQuote, 1);
  self->figure_values = g_hash_table_new (g_str_hash, g_str_equal);
  self->figure_details = g_hash_table_new (g_str_hash, g_str_equal);
  self->figure_bands = g_hash_table_new (g_str_hash, g_str_equal);
  self->figure_cards = g_hash_table_new (g_str_hash, g_str_equal);

  qm_plan_view_add_figure_cards (self);
  qm_plan_view_build_charts (self);
  qm_plan_view_build_bom (self);
  /* The wide tables scroll sideways; the wheel scrolls the page. */
  qm_gtk_pass_vertical_scroll (GTK_SCROLLED_WINDOW (gtk_widget_get_parent (GTK_WIDGET (self->bom_view))));
  qm_gtk_pass_vertical_scroll (GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (self->quote_lines),
                                                                             GTK_TYPE_SCROLLED_WINDOW)));
  /* Buttons with a mnemonic are read without it (issue #37 item 10). */
  qm_a11y_fix_mnemonics (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GtkWidget *
qm_plan_view_new (QmStore      *store,
                  QmPlanEditor *editor)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (editor), NULL);

  return g_object_new (QM_TYPE_PLAN_VIEW, "store", store, "editor", editor, NULL);
}

QmPlanEditor *
qm_plan_view_get_editor (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return self->editor;
}

QmStore *
qm_plan_view_get_store (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return self->store;
}

gboolean
qm_plan_view_save (QmPlanView  *self,
                   GError     **error)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return save_now (self, FALSE, error);
}

gboolean
qm_plan_view_get_showing_snapshot (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return self->snapshot != NULL;
}

gboolean
qm_plan_view_get_inputs_visible (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return adw_flap_get_reveal_flap (self->flap);
}

void
qm_plan_view_set_inputs_visible (QmPlanView *self,
                                 gboolean    visible)
{
  g_return_if_fail (QM_IS_PLAN_VIEW (self));
  adw_flap_set_reveal_flap (self->flap, visible);
}

GtkWidget *
qm_plan_view_get_input (QmPlanView *self,
                        const char *key)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return qm_plan_view_inputs_widget (self, key, FALSE);
}

GtkWidget *
qm_plan_view_get_input_row (QmPlanView *self,
                            const char *key)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return qm_plan_view_inputs_widget (self, key, TRUE);
}

const char *
qm_plan_view_get_figure (QmPlanView *self,
                         const char *id)
{
  GtkWidget *label;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  label = g_hash_table_lookup (self->figure_values, id);
  return label != NULL ? gtk_label_get_label (GTK_LABEL (label)) : NULL;
}

const char *
qm_plan_view_get_figure_detail (QmPlanView *self,
                                const char *id)
{
  GtkWidget *label;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  label = g_hash_table_lookup (self->figure_details, id);
  return label != NULL ? gtk_label_get_label (GTK_LABEL (label)) : NULL;
}

const char *
qm_plan_view_get_figure_band (QmPlanView *self,
                              const char *id)
{
  GtkWidget *label;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  label = g_hash_table_lookup (self->figure_bands, id);
  return label != NULL && gtk_widget_get_visible (label) ? gtk_label_get_label (GTK_LABEL (label)) : NULL;
}

const char *
qm_plan_view_get_bands_basis (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->bands_basis)) ? gtk_label_get_label (self->bands_basis) : NULL;
}
