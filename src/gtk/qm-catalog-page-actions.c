/* qm-catalog-page-actions.c: the Catalog page's actions: add, edit,
 * duplicate, delete with undo, hide, reset a price, clear the filters, and
 * CSV import and export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "qm-a11y.h"
#include "qm-catalog-editor.h"
#include "qm-catalog-import-dialog.h"
#include "qm-catalog-page.h"
#include "qm-catalog-page-private.h"
#include "qm-row-slots.h"
#include "qm-csv.h"
#include "qm-gtk.h"
#include "qm-list-page.h"
#include "qm-json-parse.h"

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
show_error (QmCatalogPage *self,
            const char    *heading,
            const char    *body)
{
  qm_list_page_show_error (GTK_WIDGET (self), heading, body);
}

/* "Could Not Read “%s”" and such, with the file's name. */
static void
show_file_error (QmCatalogPage *self,
                 const char    *heading_format,
                 const char    *name,
                 const GError  *error)
{
  g_autofree char *heading = g_strdup_printf (heading_format, name);

  show_error (self, heading, error->message);
}

/* A dialog of the page's, over its window. */
static void
present_over (QmCatalogPage *self,
              GtkWindow     *window)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (window, GTK_WINDOW (root));
  gtk_window_present (window);
}

void
qm_catalog_page_toast (QmCatalogPage *self,
                       const char    *message)
{
  AdwToast *t = adw_toast_new (message);

  adw_toast_set_timeout (t, 3);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

/* The entry the page has selected, or NULL. */
static const QmCatalogEntry *
selected_entry (QmCatalogPage *self)
{
  QmCatalogItem *item = qm_catalog_page_get_selected (self);

  return item != NULL ? qm_catalog_item_get_entry (item) : NULL;
}

/* After the store changed entry @id of the kind shown, or failed to (@ok
 * FALSE, *@error set; a pointer, as the store call that sets it is an
 * argument too): the entry read again, or the error under @heading.
 * Returns @ok. */
static gboolean
after_change (QmCatalogPage *self,
              gboolean       ok,
              GError       **error,
              const char    *heading,
              const char    *id)
{
  if (!ok)
    show_error (self, heading, (*error)->message);
  else
    qm_catalog_page_reload_entry (self, self->kind, id);
  return ok;
}

static void
on_editor_saved (QmCatalogPage   *self,
                 const char      *id,
                 QmCatalogEditor *editor)
{
  qm_catalog_page_reload_entry (self, self->kind, id);
  qm_catalog_page_select (self, id);
  qm_catalog_page_toast (self, qm_catalog_editor_get_mode (editor) == QM_CATALOG_EDITOR_PRICE ? _("Price saved") : _("Entry saved"));
}

static void
open_editor (QmCatalogPage       *self,
             QmCatalogEditorMode  mode,
             const QmCatalogEntry *entry)
{
  QmCatalogEditor *editor = qm_catalog_editor_new (self->store, mode, self->kind, entry);

  g_signal_connect_object (editor, "saved", G_CALLBACK (on_editor_saved), self, G_CONNECT_SWAPPED);
  present_over (self, GTK_WINDOW (editor));
}

/* The actions: those on the selected entry take it (never NULL; without
 * one they do nothing), the others the page alone; activate() below calls
 * them from the table actions[]. */

static void
add_entry (QmCatalogPage *self)
{
  open_editor (self, QM_CATALOG_EDITOR_ADD, NULL);
}

static void
duplicate_entry (QmCatalogPage        *self,
                 const QmCatalogEntry *e)
{
  open_editor (self, QM_CATALOG_EDITOR_ADD, e);
}

static void
edit_entry (QmCatalogPage        *self,
            const QmCatalogEntry *e)
{
  open_editor (self, e->builtin ? QM_CATALOG_EDITOR_PRICE : QM_CATALOG_EDITOR_EDIT, e);
}

typedef struct
{
  GWeakRef       page;
  QmCatalogKind  kind;
  char          *json;
  gboolean       has_override;
  double         override_usd;
} Undo;

static void
undo_free (gpointer data)
{
  Undo *undo = data;

  g_weak_ref_clear (&undo->page);
  g_free (undo->json);
  g_free (undo);
}

static void
undo_closure_free (gpointer  data,
                   GClosure *closure)
{
  undo_free (data);
}

static void
on_undo_delete (AdwToast *t,
                Undo     *undo)
{
  g_autoptr(QmCatalogPage) self = g_weak_ref_get (&undo->page);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *id = NULL;

  if (self == NULL)
    return;
  if (qm_json_parser_load (parser, undo->json, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    id = json_object_get_string_member_with_default (json_node_get_object (json_parser_get_root (parser)),
                                                     "id", NULL);
  if (!qm_catalog_store_add (self->store, undo->kind, undo->json, &error) ||
      (undo->has_override && id != NULL &&
       !qm_catalog_store_set_price_override (self->store, undo->kind, id, undo->override_usd, &error)))
    {
      show_error (self, _("Could Not Restore the Entry"), error->message);
      return;
    }
  if (id != NULL)
    {
      qm_catalog_page_reload_entry (self, undo->kind, id);
      if (undo->kind == self->kind)
        qm_catalog_page_select (self, id);
    }
}

static void
delete_entry (QmCatalogPage        *self,
              const QmCatalogEntry *e)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *message = NULL;
  AdwToast *t;
  Undo *undo;

  if (e->builtin)
    return;
  undo = g_new0 (Undo, 1);
  g_weak_ref_init (&undo->page, self);
  undo->kind = e->kind;
  undo->json = g_strdup (e->json);
  undo->has_override = e->has_override;
  undo->override_usd = e->override_usd;
  id = g_strdup (e->id);
  /* TRANSLATORS: a toast, "“My GPU” deleted" */
  message = g_strdup_printf (_("“%s” deleted"), e->name);

  if (!after_change (self, qm_catalog_store_delete (self->store, e->kind, id, &error), &error,
                     _("Could Not Delete the Entry"), id))
    {
      undo_free (undo);
      return;
    }

  t = adw_toast_new (message);
  adw_toast_set_button_label (t, _("_Undo"));
  adw_toast_set_priority (t, ADW_TOAST_PRIORITY_HIGH);
  g_signal_connect_data (t, "button-clicked", G_CALLBACK (on_undo_delete), undo,
                         undo_closure_free, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

static void
toggle_hidden_entry (QmCatalogPage        *self,
                     const QmCatalogEntry *e)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *id = g_strdup (e->id);
  g_autofree char *message = NULL;
  gboolean hide = !e->hidden;

  message = g_strdup_printf (hide ? _("“%s” hidden") : _("“%s” shown again"), e->name);
  if (after_change (self, qm_catalog_store_set_hidden (self->store, e->kind, id, hide, &error), &error,
                    hide ? _("Could Not Hide the Entry") : _("Could Not Show the Entry"), id))
    qm_catalog_page_toast (self, message);
}

static void
reset_price_entry (QmCatalogPage        *self,
                   const QmCatalogEntry *e)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *id = g_strdup (e->id);

  if (after_change (self, qm_catalog_store_clear_price_override (self->store, e->kind, id, &error), &error,
                    _("Could Not Reset the Price"), id))
    qm_catalog_page_toast (self, _("Back to the list price"));
}

static void
clear_filters (QmCatalogPage *self)
{
  self->vendor = NULL;
  self->type_value = NULL;
  qm_catalog_page_fill_filters (self);
  qm_catalog_page_set_search_text (self, "");
  qm_catalog_page_refilter (self, GTK_FILTER_CHANGE_LESS_STRICT);
}

static void
show_list (QmCatalogPage *self)
{
  adw_leaflet_set_visible_child (self->leaflet, self->list_pane);
}

gboolean
qm_catalog_page_ctrl_f_cb (GtkWidget *widget,
                           GVariant  *args,
                           gpointer   user_data)
{
  /* Global to the window, so Ctrl+F works wherever the focus is; but only
   * while the page is on screen. */
  if (!gtk_widget_get_mapped (widget))
    return FALSE;
  qm_catalog_page_focus_search (QM_CATALOG_PAGE (widget));
  return TRUE;
}

/* Import */

static void
on_imported (QmCatalogPage *self,
             guint          written)
{
  g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row imported",
                                                           "%u rows imported", written), written);

  qm_catalog_page_load_all (self);
  qm_catalog_page_toast (self, message);
}

static void
import_file (GtkWidget *page,
             GFile     *file)
{
  QmCatalogPage *self = QM_CATALOG_PAGE (page);
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(GBytes) bytes = NULL;
  gsize length = 0;
  QmCatalogImportDialog *dialog;

  if (!g_file_load_contents (file, NULL, &data, &length, NULL, &error))
    {
      show_file_error (self, _("Could Not Read “%s”"), name, error);
      return;
    }
  /* The preview shows how the file was read (separator, decimal mark)
   * for the user to correct, and why a file is refused, naming it once. */
  bytes = g_bytes_new_take (g_steal_pointer (&data), length);
  dialog = qm_catalog_import_dialog_new_for_data (self->store, bytes, name, self->kind);
  g_signal_connect_object (dialog, "imported", G_CALLBACK (on_imported), self, G_CONNECT_SWAPPED);
  present_over (self, GTK_WINDOW (dialog));
}

static GtkFileFilter *
csv_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_mime_type (filter, "text/csv");
  gtk_file_filter_add_pattern (filter, "*.csv");
  return filter;
}

static void
import_csv (QmCatalogPage *self)
{
  g_autoptr(GtkFileFilter) filter = csv_filter ();

  qm_list_page_choose_file (GTK_WIDGET (self), _("Import CSV"), GTK_FILE_CHOOSER_ACTION_OPEN,
                            _("_Preview"), filter, NULL, import_file);
}

/* Export */

/* The file chooser's choice of convention: "user" writes what the user's
 * spreadsheet reads (';' and decimal commas in a German locale), "c" the
 * comma-separated file programs expect. */
#define CSV_LOCALE_CHOICE "csv-locale"

static void
export_to (QmCatalogPage      *self,
           GFile              *file,
           const QmCsvDialect *dialect)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *message = NULL;
  gsize length = 0;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (qm_catalog_page_current (self)->filtered));

  csv = qm_catalog_page_export_csv_dialect (self, dialect, &length, &error);
  if (csv == NULL ||
      !g_file_replace_contents (file, csv, length, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                NULL, NULL, &error))
    {
      show_file_error (self, _("Could Not Export to “%s”"), name, error);
      return;
    }
  message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u entry exported to “%s”",
                                          "%u entries exported to “%s”", n), n, name);
  qm_catalog_page_toast (self, message);
}

static void
on_export_chosen (GtkNativeDialog *chooser,
                  int              response,
                  QmCatalogPage   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      const char *choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), CSV_LOCALE_CHOICE);
      QmCsvDialect dialect;

      if (!qm_csv_dialect_from_string (choice, &dialect))
        qm_csv_dialect_for_locale (&dialect);
      if (file != NULL)
        export_to (self, file, &dialect);
    }
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
export_csv (QmCatalogPage *self)
{
  g_autoptr(GtkFileFilter) filter = csv_filter ();
  g_autofree char *suggested = g_strdup_printf ("catalog-%s.csv", qm_catalog_kind_to_string (self->kind));
  const char *options[] = { "user", "c", NULL };
  const char *labels[] = { _("For spreadsheets in your language"),
                           _("Standard CSV (comma, decimal point)"), NULL };
  GtkFileChooserNative *chooser;

  chooser = qm_list_page_file_chooser_new (GTK_WIDGET (self), _("Export View as CSV"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                           _("_Export"), _("_Cancel"), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), CSV_LOCALE_CHOICE, _("Format"), options, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), CSV_LOCALE_CHOICE, "user");
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static const struct
{
  const char *name;
  void      (*on_page)  (QmCatalogPage        *self);
  void      (*on_entry) (QmCatalogPage        *self,
                         const QmCatalogEntry *e);
} actions[] = {
  { "catalog.add", add_entry, NULL },
  { "catalog.duplicate", NULL, duplicate_entry },
  { "catalog.edit", NULL, edit_entry },
  { "catalog.delete", NULL, delete_entry },
  { "catalog.toggle-hidden", NULL, toggle_hidden_entry },
  { "catalog.reset-price", NULL, reset_price_entry },
  { "catalog.import", import_csv, NULL },
  { "catalog.export", export_csv, NULL },
  { "catalog.clear-filters", clear_filters, NULL },
  { "catalog.show-list", show_list, NULL },
  { "catalog.focus-search", qm_catalog_page_focus_search, NULL },
};

static void
activate (GtkWidget  *widget,
          const char *action_name,
          GVariant   *param)
{
  QmCatalogPage *self = QM_CATALOG_PAGE (widget);

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      const QmCatalogEntry *e;

      if (!g_str_equal (actions[i].name, action_name))
        continue;
      if (actions[i].on_page != NULL)
        actions[i].on_page (self);
      else if ((e = selected_entry (self)) != NULL)
        actions[i].on_entry (self, e);
      return;
    }
}

/* Installs the actions above on the page's class (from class_init). */
void
qm_catalog_page_class_actions_init (GtkWidgetClass *widget_class)
{
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i].name, NULL, activate);
}
