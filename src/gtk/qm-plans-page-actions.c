/* qm-plans-page-actions.c: the Plans page's actions: import and open plan
 * files and examples, compare, delete with undo, duplicate, rename and
 * export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include <string.h>
#include <glib/gi18n.h>
#include "qm-a11y.h"
#include "qm-estimate-json.h"
#include "qm-estimate.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-list-page.h"
#include "qm-plan-item.h"
#include "qm-plan-store.h"
#include "qm-plans-page.h"
#include "qm-plans-page-private.h"
#include "qm-rename-dialog.h"
#include "qm-row-slots.h"

/* ------------------------------------------------------------------ */
/* Import                                                              */

static char *
model_label (const QmPlan *plan)
{
  char buf[QM_FORMAT_BUF];

  if (plan->workload.preset[0] != '\0')
    return g_strdup (plan->workload.preset);
  if (plan->workload.model.params_hint > 0)
    return g_strdup_printf ("%sB", qm_format_number (buf, sizeof buf,
                                                     plan->workload.model.params_hint / 1e9, 1));
  return NULL;
}

/* Imports one plan file's text: estimates it first so that the list shows
 * its GPUs, days and cost, and the quote keeps its snapshot. */
static gint64
import_data (QmPlansPage *self,
             const char  *data,
             gsize        length,
             const char  *source,
             GPtrArray  **warnings,
             GError     **error)
{
  g_autofree char *text = g_strndup (data, length);
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autoptr(QmSavedPlan) extra = NULL;
  gint64 id;

  if (self->store == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY, _("There is no plans database to import into"));
      return 0;
    }

  /* A bad file fails in the import below, with the file name and the key. */
  if (qm_plan_store_read_plan (self->store, text, plan, NULL, NULL))
    {
      g_autofree QmEstimate *estimate = g_new0 (QmEstimate, 1);

      qm_estimate (plan, estimate);
      extra = qm_saved_plan_new ();
      extra->snapshot = qm_estimate_to_json (plan, estimate, NULL);
      extra->model = model_label (plan);
      extra->gpus = estimate->gpus;
      extra->days = estimate->has_training ? estimate->train_days : 0;
      extra->total_cost = estimate->has_cost ? estimate->cost.total : 0;
    }

  id = qm_plan_store_import_data (self->store, text, -1, source, extra, warnings, error);
  if (id > 0)
    {
      qm_plans_page_refresh_plan (self, id);
      qm_plans_page_update_view (self);
      qm_plans_page_update_actions (self);
      qm_plans_page_select_ids (self, &id, 1);
    }
  return id;
}

gint64
qm_plans_page_import_file (QmPlansPage *self,
                           GFile       *file,
                           GError     **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  gsize length = 0;

  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), 0);
  g_return_val_if_fail (G_IS_FILE (file), 0);

  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, error))
    return 0;
  name = g_file_get_basename (file);
  return import_data (self, contents, length, name, NULL, error);
}

static void
toast_import_warnings (QmPlansPage *self,
                       GPtrArray   *warnings)
{
  g_autofree char *title = NULL;

  if (warnings == NULL || warnings->len == 0)
    return;
  /* Unknown keys, e.g. from a newer Quartermaster: not an error. */
  title = g_strdup_printf (ngettext ("Imported; %u unknown setting was ignored",
                                     "Imported; %u unknown settings were ignored",
                                     warnings->len),
                           warnings->len);
  qm_plans_page_show_toast (self, title);
}

/* "FILE: key.path: problem" as a dialog: the file, that nothing was
 * written, then the key and the problem. */
static void
show_import_error (QmPlansPage  *self,
                   const char   *name,
                   const GError *error)
{
  g_autofree char *prefix = g_strconcat (name, ": ", NULL);
  g_autofree char *body = NULL;
  const char *detail = error->message;

  if (g_error_matches (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID) &&
      g_str_has_prefix (detail, prefix))
    {
      detail += strlen (prefix);
      body = g_strdup_printf (_("Nothing was imported from “%s”.\n\n%s"), name, detail);
      qm_list_page_show_error (GTK_WIDGET (self), _("Could Not Import Plan"), body);
    }
  else
    qm_plans_page_show_store_error (self, _("Could Not Import Plan"), error);
}

gint64
qm_plans_page_open_file (QmPlansPage *self,
                         GFile       *file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  gsize length = 0;
  gint64 id = 0;

  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), 0);
  g_return_val_if_fail (G_IS_FILE (file), 0);

  name = g_file_get_basename (file);
  if (g_file_load_contents (file, NULL, &contents, &length, NULL, &error))
    id = import_data (self, contents, length, name, &warnings, &error);

  if (id == 0)
    {
      show_import_error (self, name, error);
      return 0;
    }
  toast_import_warnings (self, warnings);
  qm_plans_page_emit_open_plan (self, id);
  return id;
}

gint64
qm_plans_page_open_example (QmPlansPage *self,
                            const char  *name)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gint64 id;

  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), 0);
  g_return_val_if_fail (name != NULL, 0);

  path = g_strconcat (QM_EXAMPLES_RESOURCE_PATH, name, NULL);
  bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    {
      qm_list_page_show_error (GTK_WIDGET (self), _("Could Not Open Example"), error->message);
      return 0;
    }
  id = import_data (self, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), name, NULL, &error);
  if (id == 0)
    {
      qm_plans_page_show_store_error (self, _("Could Not Open Example"), error);
      return 0;
    }
  qm_plans_page_emit_open_plan (self, id);
  return id;
}

static void
import_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    QmPlansPage     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          /* Several files: import them all, open none. */
          if (g_list_model_get_n_items (files) == 1)
            qm_plans_page_open_file (self, file);
          else
            {
              g_autoptr(GError) error = NULL;

              if (qm_plans_page_import_file (self, file, &error) == 0)
                {
                  g_autofree char *name = g_file_get_basename (file);

                  show_import_error (self, name, error);
                  break;
                }
            }
        }
    }
  if (self->chooser == GTK_FILE_CHOOSER_NATIVE (chooser))
    g_clear_object (&self->chooser);
}

static GtkFileChooserNative *
new_chooser (QmPlansPage          *self,
             const char           *title,
             GtkFileChooserAction  action,
             const char           *accept)
{
  g_autoptr(GtkFileFilter) filter = qm_list_page_file_filter_new (_("Quartermaster Plans"),
                                                                  "application/x-quartermaster-plan", "qmplan");
  GtkFileChooserNative *chooser;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  chooser = qm_list_page_file_chooser_new (GTK_WIDGET (self), title, action, accept, _("_Cancel"), filter);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (chooser), filter);
  self->chooser = chooser;
  return chooser;
}

static void
import_plans (QmPlansPage *self)
{
  GtkFileChooserNative *chooser = new_chooser (self, _("Import Plan"),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"));

  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (import_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_example_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  qm_plans_page_open_example (QM_PLANS_PAGE (widget), g_variant_get_string (param, NULL));
}

/* The examples embedded in the GResource, by their plan names. */
GMenuModel *
qm_plans_page_build_examples_menu (void)
{
  g_auto(GStrv) names = g_resources_enumerate_children (QM_EXAMPLES_RESOURCE_PATH,
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  GMenu *menu = g_menu_new ();

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (QM_EXAMPLES_RESOURCE_PATH, names[i], NULL);
      g_autoptr(GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
      g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
      g_autoptr(GMenuItem) item = NULL;
      const char *label = names[i];

      if (bytes != NULL &&
          qm_plan_load_from_data (plan, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL, NULL) &&
          plan->name[0] != '\0')
        label = plan->name;
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "plans.open-example", "s", names[i]);
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

/* ------------------------------------------------------------------ */
/* Selection actions                                                   */

static void
compare_plans (QmPlansPage *self)
{
  g_autoptr(GArray) ids = qm_plans_page_get_selected_ids (self);
  GVariant *variant;

  if (ids->len < 2 || ids->len > 4)
    return;
  variant = g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, ids->data, ids->len, sizeof (gint64));
  g_variant_ref_sink (variant);
  qm_plans_page_emit_compare_plans (self, variant);
  g_variant_unref (variant);
}

static void
undo_toast_dismissed_cb (AdwToast    *toast,
                         QmPlansPage *self)
{
  /* A newer deletion replaced this toast, or it timed out: its plans stay
   * in the trash until the app quits. */
  if (self->undo_toast == toast)
    {
      g_clear_pointer (&self->undo_ids, g_array_unref);
      g_clear_weak_pointer (&self->undo_toast);
      qm_plans_page_update_actions (self);
    }
}

static void
delete_plans (QmPlansPage *self)
{
  g_autoptr(GArray) ids = qm_plans_page_get_selected_ids (self);
  g_autoptr(GArray) trashed = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_autofree char *first_name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;
  guint first_position = gtk_bitset_get_minimum (selected);
  AdwToast *toast;
  guint n;

  if (ids->len == 0 || self->store == NULL)
    return;

  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      g_autoptr(GError) error = NULL;
      int pos;

      if (!qm_plan_store_trash (self->store, id, &error))
        {
          qm_plans_page_show_store_error (self, _("Could Not Delete Plan"), error);
          break;
        }
      g_array_append_val (trashed, id);
      if ((pos = qm_plans_page_find_position (self, id)) >= 0)
        {
          g_autoptr(QmPlanItem) item = g_list_model_get_item (G_LIST_MODEL (self->plans), pos);

          if (first_name == NULL)
            first_name = g_strdup (qm_plan_item_get_name (item));
          g_list_store_remove (self->plans, pos);
        }
    }
  if (trashed->len == 0)
    return;

  /* Keep the keyboard where it was: select the row that moved up. */
  n = qm_plans_page_n_shown (self);
  if (n > 0)
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), MIN (first_position, n - 1), TRUE);

  if (trashed->len == 1)
    title = g_strdup_printf (_("“%s” deleted"), first_name != NULL ? first_name : "");
  else
    title = g_strdup_printf (ngettext ("%u plan deleted", "%u plans deleted", trashed->len), trashed->len);

  g_clear_pointer (&self->undo_ids, g_array_unref);
  self->undo_ids = g_steal_pointer (&trashed);
  escaped = g_markup_escape_text (title, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "plans.undo-delete");
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (undo_toast_dismissed_cb), self, 0);
  g_set_weak_pointer (&self->undo_toast, toast);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);

  qm_plans_page_update_view (self);
  qm_plans_page_update_actions (self);
}

static void
undo_delete (QmPlansPage *self)
{
  g_autoptr(GArray) ids = g_steal_pointer (&self->undo_ids);
  g_autoptr(GArray) restored = g_array_new (FALSE, FALSE, sizeof (gint64));
  AdwToast *toast = self->undo_toast;

  g_clear_weak_pointer (&self->undo_toast);
  if (toast != NULL)
    adw_toast_dismiss (toast);
  if (ids == NULL || self->store == NULL)
    return;

  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      g_autoptr(GError) error = NULL;

      if (!qm_plan_store_restore (self->store, id, &error))
        {
          qm_plans_page_show_store_error (self, _("Could Not Restore Plan"), error);
          break;
        }
      qm_plans_page_refresh_plan (self, id);
      g_array_append_val (restored, id);
    }
  qm_plans_page_select_ids (self, (const gint64 *) (gpointer) restored->data, restored->len);
  qm_plans_page_update_view (self);
  qm_plans_page_update_actions (self);
}

static void
duplicate_plan (QmPlansPage *self,
                gint64       id,
                QmPlanItem  *item)
{
  g_autoptr(GError) error = NULL;
  gint64 copy;

  if (self->store == NULL)
    return;
  if ((copy = qm_plan_store_duplicate (self->store, id, NULL, &error)) == 0)
    {
      qm_plans_page_show_store_error (self, _("Could Not Duplicate Plan"), error);
      return;
    }
  qm_plans_page_refresh_plan (self, copy);
  qm_plans_page_select_ids (self, &copy, 1);
  qm_plans_page_update_view (self);
  qm_plans_page_update_actions (self);
  qm_plans_page_show_toast (self, _("Plan duplicated"));
}

typedef struct
{
  QmPlansPage *page;
  gint64       id;
  GtkEditable *entry;
} RenameData;

static void
rename_data_free (gpointer data)
{
  RenameData *rd = data;

  g_clear_weak_pointer (&rd->page);
  g_free (rd);
}

static void
rename_entry_changed_cb (GtkEditable      *entry,
                         AdwMessageDialog *dialog)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "rename", *name != '\0');
}

static void
rename_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    RenameData       *rd)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (rd->entry)));
  g_autoptr(GError) error = NULL;
  QmPlansPage *self = rd->page;

  if (self == NULL || !g_str_equal (response, "rename") || *name == '\0' || self->store == NULL)
    return;
  if (!qm_plan_store_rename (self->store, rd->id, name, &error))
    {
      qm_plans_page_show_store_error (self, _("Could Not Rename Plan"), error);
      return;
    }
  qm_plans_page_refresh_plan (self, rd->id);
  qm_plans_page_select_ids (self, &rd->id, 1);
}

static void
rename_plan (QmPlansPage *self,
             gint64       id,
             QmPlanItem  *item)
{
  AdwMessageDialog *dialog = qm_rename_dialog_new (GTK_WIDGET (self), qm_plan_item_get_name (item));
  RenameData *rd;

  rd = g_new0 (RenameData, 1);
  g_set_weak_pointer (&rd->page, self);
  rd->id = id;
  rd->entry = qm_rename_dialog_get_entry (dialog);
  g_signal_connect (rd->entry, "changed", G_CALLBACK (rename_entry_changed_cb), dialog);
  g_signal_connect_data (dialog, "response", G_CALLBACK (rename_response_cb), rd,
                         (GClosureNotify) (void (*) (void)) rename_data_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (GTK_WIDGET (rd->entry));
}

/* ------------------------------------------------------------------ */
/* Export                                                              */

gboolean
qm_plans_page_export_plan (QmPlansPage *self,
                           gint64       id,
                           GFile       *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->store == NULL)
    return FALSE;
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (&error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
                   _("Plans can only be exported to a local folder"));
      qm_plans_page_show_store_error (self, _("Could Not Export Plan"), error);
      return FALSE;
    }
  if (!qm_plan_store_export_file (self->store, id, path, &error))
    {
      qm_plans_page_show_store_error (self, _("Could Not Export Plan"), error);
      return FALSE;
    }
  base = g_file_get_basename (file);
  title = g_strdup_printf (_("Exported to “%s”"), base);
  qm_plans_page_show_toast (self, title);
  return TRUE;
}

static void
export_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    QmPlansPage     *self)
{
  gint64 id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (chooser), "qm-plan-id"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *base = g_file_get_basename (chosen);
      g_autoptr(GFile) file = NULL;

      /* Give the file the plan extension so that it opens here again. */
      if (g_str_has_suffix (base, ".qmplan"))
        file = g_object_ref (chosen);
      else
        {
          g_autofree char *named = g_strconcat (base, ".qmplan", NULL);
          g_autoptr(GFile) parent = g_file_get_parent (chosen);

          file = g_file_get_child (parent, named);
        }
      qm_plans_page_export_plan (self, id, file);
    }
  if (self->chooser == GTK_FILE_CHOOSER_NATIVE (chooser))
    g_clear_object (&self->chooser);
}

static void
export_plan (QmPlansPage *self,
             gint64       id,
             QmPlanItem  *item)
{
  g_autofree char *file_name = NULL;
  GtkFileChooserNative *chooser;

  chooser = new_chooser (self, _("Export Plan"), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"));
  /* File names cannot hold a slash. */
  file_name = g_strdelimit (g_strconcat (qm_plan_item_get_name (item), ".qmplan", NULL), "/\\", '-');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), file_name);
  g_object_set_data (G_OBJECT (chooser), "qm-plan-id", GSIZE_TO_POINTER ((gsize) id));
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The actions above: those on the one selected plan take its id and item
 * (without one they do nothing), the others the page alone. */
static const struct
{
  const char *name;
  void      (*on_page) (QmPlansPage *self);
  void      (*on_plan) (QmPlansPage *self,
                        gint64       id,
                        QmPlanItem  *item);
} actions[] = {
  { "plans.import", import_plans, NULL },
  { "plans.compare", compare_plans, NULL },
  { "plans.delete", delete_plans, NULL },
  { "plans.undo-delete", undo_delete, NULL },
  { "plans.duplicate", NULL, duplicate_plan },
  { "plans.rename", NULL, rename_plan },
  { "plans.export", NULL, export_plan },
};

static void
activate (GtkWidget  *widget,
          const char *action_name,
          GVariant   *param)
{
  QmPlansPage *self = QM_PLANS_PAGE (widget);
  gint64 id = qm_plans_page_get_single_selected_id (self);
  int pos = id != 0 ? qm_plans_page_find_position (self, id) : -1;

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      g_autoptr(QmPlanItem) item = NULL;

      if (!g_str_equal (actions[i].name, action_name))
        continue;
      if (actions[i].on_page != NULL)
        actions[i].on_page (self);
      else if (pos >= 0)
        {
          item = g_list_model_get_item (G_LIST_MODEL (self->plans), pos);
          actions[i].on_plan (self, id, item);
        }
      return;
    }
}

/* Installs the actions above on the page's class (from class_init). */
void
qm_plans_page_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "plans.open-example", "s", open_example_action);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i].name, NULL, activate);
}
