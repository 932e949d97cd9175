/* qm-list-page.c: what the catalog and plans pages share as list pages
 * (qm-list-page.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>
#include <glib/gi18n.h>

#include "qm-list-page.h"

GtkFilterChange
qm_list_page_search_change (const char   *old,
                            const char   *now,
                            QmListSearch  search)
{
  old = old != NULL ? old : "";
  now = now != NULL ? now : "";

  if (search == QM_LIST_SEARCH_SUBSTRING)
    {
      if (strstr (now, old) != NULL)
        return GTK_FILTER_CHANGE_MORE_STRICT;
      if (strstr (old, now) != NULL)
        return GTK_FILTER_CHANGE_LESS_STRICT;
      return GTK_FILTER_CHANGE_DIFFERENT;
    }

  /* Typing more narrows: only the rows that match now need a look. */
  if (*old != '\0' && g_str_has_prefix (now, old))
    return GTK_FILTER_CHANGE_MORE_STRICT;
  if (*now == '\0' || g_str_has_prefix (old, now))
    return GTK_FILTER_CHANGE_LESS_STRICT;
  return GTK_FILTER_CHANGE_DIFFERENT;
}

gboolean
qm_list_page_take_search (char            **search,
                          const char       *now,
                          QmListSearch      kind,
                          GtkFilterChange  *change)
{
  const char *old = *search != NULL ? *search : "";

  now = now != NULL ? now : "";
  if (g_str_equal (old, now))
    return FALSE;
  *change = qm_list_page_search_change (old, now, kind);
  g_free (*search);
  *search = *now != '\0' ? g_strdup (now) : NULL;
  return TRUE;
}

void
qm_list_page_state_init (QmListPageState     *state,
                         GListModel          *model,
                         GtkCustomFilterFunc  match,
                         gpointer             page,
                         GCallback            rows_changing)
{
  state->filter = gtk_custom_filter_new (match, page, NULL);
  state->filtered = gtk_filter_list_model_new (g_object_ref (model), g_object_ref (GTK_FILTER (state->filter)));
  /* Before the slots see the change (handlers run in order). */
  if (rows_changing != NULL)
    g_signal_connect_object (state->filtered, "items-changed", rows_changing, page, G_CONNECT_SWAPPED);
  state->slots = qm_row_slots_new (G_LIST_MODEL (state->filtered));
}

gboolean
qm_list_page_state_search (QmListPageState *state,
                           const char      *now,
                           QmListSearch     kind,
                           gboolean         force)
{
  GtkFilterChange change = GTK_FILTER_CHANGE_DIFFERENT;

  if (!qm_list_page_take_search (&state->search, now, kind, &change) && !force)
    return FALSE;
  gtk_filter_changed (GTK_FILTER (state->filter), force ? GTK_FILTER_CHANGE_DIFFERENT : change);
  return TRUE;
}

guint
qm_list_page_state_n_shown (QmListPageState *state)
{
  return g_list_model_get_n_items (G_LIST_MODEL (state->filtered));
}

gpointer
qm_list_page_state_get_item (QmListPageState *state,
                             guint            position)
{
  return g_list_model_get_item (G_LIST_MODEL (state->filtered), position);
}

void
qm_list_page_state_clear (QmListPageState *state)
{
  g_clear_object (&state->slots);
  g_clear_object (&state->filtered);
  g_clear_object (&state->filter);
  g_clear_pointer (&state->search, g_free);
}

void
qm_list_page_set_search_text (GtkEditable *entry,
                              const char  *text,
                              gpointer     changed,
                              gpointer     data)
{
  g_return_if_fail (GTK_IS_EDITABLE (entry));
  g_return_if_fail (text != NULL);

  /* Setting the text deletes the old first, and the entry reports the
   * empty text at once: that would show every row for a moment. Its
   * delayed report of the new text finds the search applied already. */
  if (!g_str_equal (gtk_editable_get_text (entry), text))
    {
      g_signal_handlers_block_by_func (entry, changed, data);
      gtk_editable_set_text (entry, text);
      g_signal_handlers_unblock_by_func (entry, changed, data);
    }
}

typedef struct
{
  QmRowSlots   **slots;
  QmRowCellFill  fill;
  gpointer       data;
  GDestroyNotify destroy;
} CellBinding;

static void
cell_binding_free (gpointer data)
{
  CellBinding *binding = data;

  if (binding->destroy != NULL)
    binding->destroy (binding->data);
  g_free (binding);
}

/* Rows are bound to slots (qm-row-slots.h), which refill the cells. */
static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           CellBinding              *binding)
{
  qm_row_slots_bind_cell (*binding->slots, list_item, binding->fill, binding->data);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             CellBinding              *binding)
{
  if (*binding->slots != NULL)
    qm_row_slots_unbind_cell (*binding->slots, list_item);
}

GtkListItemFactory *
qm_list_page_cell_factory_new (QmRowSlots   **slots,
                               GCallback      setup,
                               QmRowCellFill  fill,
                               gpointer       data,
                               GDestroyNotify destroy)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  CellBinding *binding = g_new0 (CellBinding, 1);

  binding->slots = slots;
  binding->fill = fill;
  binding->data = data;
  binding->destroy = destroy;
  g_signal_connect (factory, "setup", setup, data);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), binding);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), binding);
  g_object_set_data_full (G_OBJECT (factory), "qm-cell-binding", binding, cell_binding_free);
  return factory;
}

void
qm_list_page_show_state (GtkStack   *stack,
                         guint       n_shown,
                         const char *shown_child,
                         const char *empty_child)
{
  gtk_stack_set_visible_child_name (stack, n_shown > 0 ? shown_child : empty_child);
}

GtkWidget *
qm_list_page_cell_new (gboolean numeric,
                       int      min_chars,
                       int      nat_chars)
{
  GtkWidget *cell = gtk_inscription_new (NULL);
  GtkInscription *inscription = GTK_INSCRIPTION (cell);

  gtk_inscription_set_text_overflow (inscription, GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_xalign (inscription, numeric ? 1.0 : 0.0);
  gtk_inscription_set_min_chars (inscription, min_chars);
  gtk_inscription_set_nat_chars (inscription, nat_chars);
  if (numeric)
    gtk_widget_add_css_class (cell, "numeric");
  return cell;
}

void
qm_list_page_show_error (GtkWidget  *page,
                         const char *heading,
                         const char *body)
{
  GtkRoot *root = gtk_widget_get_root (page);
  AdwMessageDialog *dialog;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       heading, body));
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  adw_message_dialog_set_default_response (dialog, "close");
  adw_message_dialog_set_close_response (dialog, "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

GtkFileFilter *
qm_list_page_file_filter_new (const char *name,
                              const char *mime_type,
                              const char *suffix)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  if (mime_type != NULL)
    gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_filter_add_suffix (filter, suffix);
  return filter;
}

GtkFileChooserNative *
qm_list_page_file_chooser_new (GtkWidget            *page,
                               const char           *title,
                               GtkFileChooserAction  action,
                               const char           *accept,
                               const char           *cancel,
                               GtkFileFilter        *filter)
{
  GtkRoot *root = gtk_widget_get_root (page);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         action, accept, cancel);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  return chooser;
}

static void
on_file_chosen (GtkNativeDialog *chooser,
                int              response,
                GtkWidget       *page)
{
  QmListPageFileFunc chosen = g_object_get_data (G_OBJECT (chooser), "qm-file-chosen");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        chosen (page, file);
    }
  g_object_unref (chooser);
  g_object_unref (page);
}

void
qm_list_page_choose_file (GtkWidget            *page,
                          const char           *title,
                          GtkFileChooserAction  action,
                          const char           *accept,
                          GtkFileFilter        *filter,
                          const char           *suggested_name,
                          QmListPageFileFunc    chosen)
{
  GtkFileChooserNative *chooser;

  g_return_if_fail (GTK_IS_WIDGET (page));
  g_return_if_fail (chosen != NULL);

  chooser = qm_list_page_file_chooser_new (page, title, action, accept, _("_Cancel"), filter);
  if (suggested_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested_name);
  g_object_set_data (G_OBJECT (chooser), "qm-file-chosen", chosen);
  g_signal_connect (chooser, "response", G_CALLBACK (on_file_chosen), g_object_ref (page));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
