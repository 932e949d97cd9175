/* qm-catalog-import-dialog.c: preview, then commit, a CSV import.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-catalog-import-dialog.h"
#include "qm-catalog-item.h"
#include "qm-gtk.h"

/* A list of boxed rows gets slow to build past a few thousand; the file
 * can be fixed and imported again to see the rest. */
#define MAX_LISTED 2000

struct _QmCatalogImportDialog
{
  AdwWindow           parent_instance;

  AdwWindowTitle     *window_title;
  AdwPreferencesPage *page;
  GtkWidget          *import_button;

  QmStore            *store;  /* a reference */
  QmCatalogImport    *import; /* NULL when the file cannot be read as chosen */
  GError             *file_error;

  /* The file, so the preview can be read again in another convention. */
  GBytes             *data;
  char               *source;
  int                 default_kind;
  AdwComboRow        *separator_row;
  AdwComboRow        *decimal_row;
  GPtrArray          *groups;   /* the rebuilt groups, below the format */
};

G_DEFINE_FINAL_TYPE (QmCatalogImportDialog, qm_catalog_import_dialog, ADW_TYPE_WINDOW)

enum {
  IMPORTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
action_label (QmCsvRowAction action)
{
  switch (action)
    {
    case QM_CSV_ROW_ADD:    return _("New entry");
    case QM_CSV_ROW_UPDATE: return _("Updates your entry");
    case QM_CSV_ROW_PRICE:  return _("Sets your price for a built-in entry");
    default:                g_return_val_if_reached ("");
    }
}

static GtkWidget *
selectable_row (const char *title,
                const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 2);
  return row;
}

static AdwPreferencesGroup *
add_group (QmCatalogImportDialog *self,
           const char            *title)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());

  adw_preferences_group_set_title (group, title);
  adw_preferences_page_add (self->page, group);
  g_ptr_array_add (self->groups, group);
  return group;
}

/* What will be written and what skipped, and the reader's warnings. */
static void
add_summary (QmCatalogImportDialog *self,
             guint                  n_valid,
             guint                  n_bad)
{
  QmCatalogImport *import = self->import;
  AdwPreferencesGroup *group = add_group (self, NULL);
  g_autofree char *summary = NULL;

  if (n_bad == 0)
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u row is ready to import. Nothing has been written yet.",
                                            "All %u rows are ready to import. Nothing has been written yet.",
                                            n_valid), n_valid);
  else
    {
      g_autofree char *bad = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "%u row has problems and will be skipped.",
                                                           "%u rows have problems and will be skipped.",
                                                           n_bad), n_bad);
      g_autofree char *good = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%u row can be imported.",
                                                            "%u rows can be imported.",
                                                            n_valid), n_valid);

      /* TRANSLATORS: "3 rows can be imported. 2 rows have problems ... Nothing has been written yet." */
      summary = g_strdup_printf (_("%s %s Nothing has been written yet."), good, bad);
    }
  adw_preferences_group_set_description (group, summary);

  for (guint i = 0; i < import->warnings->len; i++)
    {
      GtkWidget *label = gtk_label_new (import->warnings->pdata[i]);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_widget_add_css_class (label, "dim-label");
      adw_preferences_group_add (group, label);
    }
}

static GtkWidget *
problem_row (const QmCsvRowError *e)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  GtkWidget *row;
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

  if (e->column != NULL)
    title = g_strdup_printf (_("Row %u, column %s"), e->row, e->column);
  else
    title = g_strdup_printf (_("Row %u"), e->row);
  if (e->value != NULL)
    subtitle = g_strdup_printf (_("%s (the file has “%s”)"), e->problem, e->value);
  else
    subtitle = g_strdup (e->problem);
  row = selectable_row (title, subtitle);
  gtk_widget_add_css_class (icon, "warning");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Problem"), -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  return row;
}

static GtkWidget *
preview_row (const QmCsvRowPreview *r)
{
  g_autofree char *title = g_strdup_printf (_("Row %u: %s"), r->row, r->name ? r->name : r->id);
  g_autofree char *price = qm_catalog_format_price (r->price_usd);
  /* TRANSLATORS: "GPU · h100-x · New entry · $25,000" */
  g_autofree char *subtitle = g_strdup_printf (_("%s · %s · %s · %s"), qm_catalog_kind_singular (r->kind),
                                               r->id, action_label (r->action), price);

  return selectable_row (title, subtitle);
}

/* The whole file was refused (no id column, a broken quote): why, in a
 * row the user can select and copy. */
static void
add_file_error (QmCatalogImportDialog *self)
{
  AdwPreferencesGroup *group = add_group (self, _("This File Cannot Be Imported"));
  GtkWidget *label = gtk_label_new (self->file_error->message);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  adw_preferences_group_add (group, label);
  gtk_button_set_label (GTK_BUTTON (self->import_button), _("_Import"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.commit", FALSE);
}

static void
build (QmCatalogImportDialog *self)
{
  QmCatalogImport *import = self->import;
  AdwPreferencesGroup *group;
  g_autoptr(GHashTable) bad_rows = g_hash_table_new (NULL, NULL);
  g_autofree char *button = NULL;
  g_autofree char *basename = g_path_get_basename (self->source ? self->source :
                                                   import && import->source ? import->source : "");
  guint n_valid;

  for (guint i = 0; i < self->groups->len; i++)
    adw_preferences_page_remove (self->page, self->groups->pdata[i]);
  g_ptr_array_set_size (self->groups, 0);
  adw_window_title_set_subtitle (self->window_title, basename);
  if (import == NULL)
    {
      add_file_error (self);
      return;
    }
  n_valid = import->rows->len;

  for (guint i = 0; i < import->errors->len; i++)
    {
      QmCsvRowError *e = import->errors->pdata[i];

      g_hash_table_add (bad_rows, GUINT_TO_POINTER (e->row));
    }

  button = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Import %u Valid Row",
                                         "_Import %u Valid Rows", n_valid), n_valid);
  gtk_button_set_label (GTK_BUTTON (self->import_button), button);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.commit", n_valid > 0);

  add_summary (self, n_valid, g_hash_table_size (bad_rows));

  if (import->errors->len > 0)
    {
      group = add_group (self, _("Problems"));
      for (guint i = 0; i < import->errors->len && i < MAX_LISTED; i++)
        adw_preferences_group_add (group, problem_row (import->errors->pdata[i]));
      if (import->errors->len > MAX_LISTED)
        {
          g_autofree char *more = g_strdup_printf (_("%u more problems are not listed"),
                                                   import->errors->len - MAX_LISTED);
          adw_preferences_group_add (group, selectable_row (more, NULL));
        }
    }

  if (n_valid > 0)
    {
      group = add_group (self, _("Rows to Import"));
      for (guint i = 0; i < n_valid && i < MAX_LISTED; i++)
        adw_preferences_group_add (group, preview_row (import->rows->pdata[i]));
      if (n_valid > MAX_LISTED)
        {
          g_autofree char *more = g_strdup_printf (_("and %u more rows"), n_valid - MAX_LISTED);
          adw_preferences_group_add (group, selectable_row (more, NULL));
        }
    }
}

gboolean
qm_catalog_import_dialog_commit (QmCatalogImportDialog  *self,
                                 GError                **error)
{
  g_autoptr(GError) local_error = NULL;
  guint written = 0;

  g_return_val_if_fail (QM_IS_CATALOG_IMPORT_DIALOG (self), FALSE);
  g_return_val_if_fail (self->import != NULL, FALSE);

  if (!qm_catalog_store_import_csv_commit (self->store, self->import, TRUE, &written, &local_error))
    {
      AdwMessageDialog *dialog;

      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Could Not Import"),
                                                           local_error->message));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  g_signal_emit (self, signals[IMPORTED], 0, written);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

static void
commit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  qm_catalog_import_dialog_commit (QM_CATALOG_IMPORT_DIALOG (widget), NULL);
}

static void
qm_catalog_import_dialog_dispose (GObject *object)
{
  QmCatalogImportDialog *self = QM_CATALOG_IMPORT_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_CATALOG_IMPORT_DIALOG);
  g_clear_pointer (&self->import, qm_catalog_import_free);
  g_clear_error (&self->file_error);
  g_clear_pointer (&self->data, g_bytes_unref);
  g_clear_pointer (&self->source, g_free);
  g_clear_pointer (&self->groups, g_ptr_array_unref);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_catalog_import_dialog_parent_class)->dispose (object);
}

static void
qm_catalog_import_dialog_class_init (QmCatalogImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_catalog_import_dialog_dispose;

  /* The number of rows written. */
  signals[IMPORTED] = g_signal_new ("imported", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  qm_gtk_class_set_template (widget_class, "qm-catalog-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, QmCatalogImportDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogImportDialog, page);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogImportDialog, import_button);

  gtk_widget_class_install_action (widget_class, "import.commit", NULL, commit_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
qm_catalog_import_dialog_init (QmCatalogImportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->groups = g_ptr_array_new ();
}

/* The separators and decimal marks offered, in the combo rows' order. */
static const char separators[] = { ',', ';', '\t' };
static const char decimal_marks[] = { '.', ',' };

static guint
index_of (const char *chars,
          guint       n,
          char        c)
{
  for (guint i = 0; i < n; i++)
    if (chars[i] == c)
      return i;
  return 0;
}

/* Reads the file again as the combo rows say. */
static void
reread (QmCatalogImportDialog *self)
{
  QmCsvDialect dialect = { 0 };
  guint sep = adw_combo_row_get_selected (self->separator_row);
  guint dm = adw_combo_row_get_selected (self->decimal_row);
  gsize length = 0;
  const char *data = g_bytes_get_data (self->data, &length);

  dialect.separator = separators[MIN (sep, G_N_ELEMENTS (separators) - 1)];
  dialect.decimal_mark = decimal_marks[MIN (dm, G_N_ELEMENTS (decimal_marks) - 1)];
  g_clear_pointer (&self->import, qm_catalog_import_free);
  g_clear_error (&self->file_error);
  self->import = qm_catalog_store_import_csv_preview_dialect (self->store, data ? data : "", length,
                                                              self->source, self->default_kind,
                                                              &dialect, &self->file_error);
  build (self);
}

static void
on_format_changed (QmCatalogImportDialog *self)
{
  if (self->import != NULL || self->file_error != NULL)
    reread (self);
}

static AdwComboRow *
format_row (AdwPreferencesGroup *group,
            const char          *title,
            const char * const  *choices,
            guint                selected)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (choices);
  AdwComboRow *row = ADW_COMBO_ROW (adw_combo_row_new ());

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_combo_row_set_model (row, G_LIST_MODEL (model));
  adw_combo_row_set_selected (row, selected);
  adw_preferences_group_add (group, GTK_WIDGET (row));
  return row;
}

/* How the file was read: separator and decimal mark as detected, for the
 * user to correct; and the encoding when it was not UTF-8. */
static void
add_format_group (QmCatalogImportDialog *self,
                  const QmCsvDialect    *dialect)
{
  const char *separator_names[] = { _("Comma"), _("Semicolon"), _("Tab"), NULL };
  const char *mark_names[] = { _("Point (12.5)"), _("Comma (12,5)"), NULL };
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  g_autofree char *description = NULL;

  adw_preferences_group_set_title (group, _("File Format"));
  if (dialect->encoding != NULL && !g_str_equal (dialect->encoding, "UTF-8"))
    /* Translators: %s is a text encoding such as "WINDOWS-1252". */
    description = g_strdup_printf (_("Detected from the file; change them if columns or numbers look "
                                     "wrong. The text was converted from %s."), dialect->encoding);
  else
    description = g_strdup (_("Detected from the file; change them if columns or numbers look wrong."));
  adw_preferences_group_set_description (group, description);
  self->separator_row = format_row (group, _("_Separator"), separator_names,
                                    index_of (separators, G_N_ELEMENTS (separators), dialect->separator));
  self->decimal_row = format_row (group, _("_Decimal Mark"), mark_names,
                                  index_of (decimal_marks, G_N_ELEMENTS (decimal_marks), dialect->decimal_mark));
  adw_preferences_page_add (self->page, group);
  g_signal_connect_swapped (self->separator_row, "notify::selected", G_CALLBACK (on_format_changed), self);
  g_signal_connect_swapped (self->decimal_row, "notify::selected", G_CALLBACK (on_format_changed), self);
}

void
qm_catalog_import_dialog_set_format (QmCatalogImportDialog *self,
                                     char                   separator,
                                     char                   decimal_mark)
{
  g_return_if_fail (QM_IS_CATALOG_IMPORT_DIALOG (self));
  g_return_if_fail (self->separator_row != NULL);

  /* Each change reads the file again (on_format_changed). */
  if (separator != 0)
    adw_combo_row_set_selected (self->separator_row, index_of (separators, G_N_ELEMENTS (separators), separator));
  if (decimal_mark != 0)
    adw_combo_row_set_selected (self->decimal_row,
                                index_of (decimal_marks, G_N_ELEMENTS (decimal_marks), decimal_mark));
}

QmCatalogImportDialog *
qm_catalog_import_dialog_new_for_data (QmStore    *store,
                                       GBytes     *data,
                                       const char *source,
                                       int         default_kind)
{
  QmCatalogImportDialog *self;
  gsize length = 0;
  const char *text;

  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  self = g_object_new (QM_TYPE_CATALOG_IMPORT_DIALOG, NULL);
  self->store = qm_store_ref (store);
  self->data = g_bytes_ref (data);
  self->source = g_strdup (source);
  self->default_kind = default_kind;
  text = g_bytes_get_data (data, &length);
  self->import = qm_catalog_store_import_csv_preview_dialect (store, text ? text : "", length, source,
                                                              default_kind, NULL, &self->file_error);
  if (self->import != NULL)
    add_format_group (self, &self->import->dialect);
  else
    {
      /* Refused as detected: offer what was detected, to change. */
      QmCsvDialect detected = { 0 };
      g_autoptr(GPtrArray) records = qm_csv_read (text ? text : "", length, &detected, NULL);

      if (detected.separator == 0)
        detected = QM_CSV_DIALECT_C;
      add_format_group (self, &detected);
    }
  build (self);
  return self;
}

QmCatalogImportDialog *
qm_catalog_import_dialog_new (QmStore         *store,
                              QmCatalogImport *import)
{
  QmCatalogImportDialog *self;

  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (import != NULL, NULL);

  self = g_object_new (QM_TYPE_CATALOG_IMPORT_DIALOG, NULL);
  self->store = qm_store_ref (store);
  self->import = import;
  build (self);
  return self;
}

const QmCatalogImport *
qm_catalog_import_dialog_get_import (QmCatalogImportDialog *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_IMPORT_DIALOG (self), NULL);

  return self->import;
}
