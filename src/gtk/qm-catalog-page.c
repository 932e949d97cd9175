/* qm-catalog-page.c: the Catalog page.
 *
 * Each kind has its own model chain and column view:
 *   GListStore (QmCatalogItem) → GtkSortListModel (the column view's
 *   sorter) → GtkFilterListModel (search, vendor, type, hidden) →
 *   QmRowSlots → GtkSingleSelection → GtkColumnView.
 * Items carry their figures pre-read and their search text pre-folded, and
 * the sort comes before the filter, so a filter change over 5,000 entries is
 * string compares only, never a re-sort (issue #6).
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

G_DEFINE_FINAL_TYPE (QmCatalogPage, qm_catalog_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_KIND,
  PROP_SHOW_HIDDEN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KindView *
qm_catalog_page_current (QmCatalogPage *self)
{
  return &self->views[self->kind];
}

/* ------------------------------------------------------------------ */
/* Filtering                                                           */

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  QmCatalogPage *self = user_data;
  QmCatalogItem *it = item;

  if (qm_catalog_item_get_entry (it)->hidden && !self->show_hidden)
    return FALSE;
  /* Interned strings: pointer compares. */
  if (self->vendor != NULL && qm_catalog_item_get_vendor (it) != self->vendor)
    return FALSE;
  if (self->type_value != NULL && qm_catalog_item_get_filter_value (it) != self->type_value)
    return FALSE;
  return qm_catalog_item_matches (it, self->needle);
}

static void
update_state (QmCatalogPage *self)
{
  KindView *view = qm_catalog_page_current (self);
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (view->filtered));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (view->items));
  guint hidden = self->show_hidden ? 0 : view->n_hidden;
  guint total = n - hidden;
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u entry", "%u entries", total), total);
  else
    /* TRANSLATORS: "3 of 27 entries shown" */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u entry shown",
                                         "%u of %u entries shown", total), shown, total);
  if (hidden > 0)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u hidden",
                                                            "%u hidden", hidden), hidden);
      char *joined = g_strdup_printf ("%s · %s", text, more);

      g_free (text);
      text = joined;
    }
  gtk_inscription_set_text (self->count_label, text);
  qm_list_page_show_state (self->content_stack, shown, "list", "empty");
}

void
qm_catalog_page_refilter (QmCatalogPage   *self,
                          GtkFilterChange  change)
{
  /* The filtered model's items-changed handler updates the rest. */
  gtk_filter_changed (qm_catalog_page_current (self)->filter, change);
  update_state (self);
}

static void
apply_search (QmCatalogPage *self,
              const char    *text)
{
  g_autofree char *needle = g_utf8_casefold (text ? text : "", -1);
  GtkFilterChange change;

  if (qm_list_page_take_search (&self->needle, g_strstrip (needle), QM_LIST_SEARCH_SUBSTRING, &change))
    qm_catalog_page_refilter (self, change);
}

static void
on_search_changed (QmCatalogPage  *self,
                   GtkSearchEntry *entry)
{
  apply_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_stop_search (QmCatalogPage  *self,
                GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  apply_search (self, "");
}

/* g_ptr_array_sort() passes pointers to the elements. */
static int
compare_pretty (gconstpointer a,
                gconstpointer b)
{
  return g_utf8_collate (qm_catalog_pretty_value (*(const char * const *) a),
                         qm_catalog_pretty_value (*(const char * const *) b));
}

/* Fills @dropdown with "All …" and the values present in the kind. */
static void
fill_dropdown (QmCatalogPage *self,
               GtkDropDown   *dropdown,
               GPtrArray     *values,
               const char    *all_label,
               gboolean       vendor,
               const char    *keep)
{
  KindView *view = qm_catalog_page_current (self);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (view->items));
  guint selected = 0;

  g_ptr_array_set_size (values, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (G_LIST_MODEL (view->items), i);
      const char *v = vendor ? qm_catalog_item_get_vendor (item)
                             : qm_catalog_item_get_filter_value (item);

      if (v != NULL && g_hash_table_add (seen, (gpointer) v))
        g_ptr_array_add (values, (gpointer) v);
    }
  g_ptr_array_sort (values, compare_pretty);
  g_ptr_array_insert (values, 0, NULL);

  gtk_string_list_append (labels, all_label);
  for (guint i = 1; i < values->len; i++)
    {
      gtk_string_list_append (labels, qm_catalog_pretty_value (values->pdata[i]));
      if (keep != NULL && values->pdata[i] == keep)
        selected = i;
    }

  self->updating = TRUE;
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (dropdown, selected);
  self->updating = FALSE;
}

void
qm_catalog_page_fill_filters (QmCatalogPage *self)
{
  int field = qm_catalog_kind_filter_field (self->kind);
  const char *vendor = self->vendor;
  const char *type = self->type_value;

  fill_dropdown (self, self->vendor_dropdown, self->vendor_values, _("All Vendors"), TRUE, vendor);
  self->vendor = self->vendor_values->pdata[gtk_drop_down_get_selected (self->vendor_dropdown)];

  gtk_widget_set_visible (GTK_WIDGET (self->type_dropdown), field >= 0);
  if (field >= 0)
    {
      const QmCatalogField *fields = qm_catalog_fields (self->kind, NULL);
      g_autofree char *tooltip = NULL;
      const char *label = self->kind == QM_CATALOG_KIND_SERVER ? _("Form Factor") : _(fields[field].label);

      /* TRANSLATORS: a tooltip, "Filter by Form Factor" */
      tooltip = g_strdup_printf (_("Filter by %s"), label);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->type_dropdown), tooltip);
      qm_a11y_label (GTK_WIDGET (self->type_dropdown), tooltip);
      fill_dropdown (self, self->type_dropdown, self->type_values,
                     qm_catalog_kind_filter_all (self->kind), FALSE, type);
      self->type_value = self->type_values->pdata[gtk_drop_down_get_selected (self->type_dropdown)];
    }
  else
    self->type_value = NULL;
}

/* The user chose a value in @dropdown, whose values are @values: it
 * becomes *@value, the vendor or type the list is filtered by. */
static void
pick_filter (QmCatalogPage  *self,
             GtkDropDown    *dropdown,
             GPtrArray      *values,
             const char    **value)
{
  guint i = gtk_drop_down_get_selected (dropdown);

  if (self->updating || i >= values->len)
    return;
  *value = values->pdata[i];
  qm_catalog_page_refilter (self, GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_vendor_selected (QmCatalogPage *self)
{
  pick_filter (self, self->vendor_dropdown, self->vendor_values, &self->vendor);
}

static void
on_type_selected (QmCatalogPage *self)
{
  pick_filter (self, self->type_dropdown, self->type_values, &self->type_value);
}

static void
on_activate (QmCatalogPage *self,
             guint          position)
{
  /* Enter or a double click opens the details when they are folded away. */
  if (adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet, self->details_pane);
}

static void
on_selection_changed (QmCatalogPage *self)
{
  /* A change of rows queues its own, later update (on_rows_changed). */
  if (!self->rows_changing)
    qm_catalog_page_update_details (self);
}

static void
cancel_details_update (QmCatalogPage *self)
{
  if (self->details_clock == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->details_clock, self);
  g_clear_object (&self->details_clock);
}

static void
on_details_after_paint (QmCatalogPage *self)
{
  cancel_details_update (self);
  qm_catalog_page_update_details (self);
}

/* A search keystroke can put another entry under the selection. Its
 * details are rebuilt once the frame with the new rows is painted, so
 * that frame only has the rows to redo and each frame stays short. */
static void
queue_update_details (QmCatalogPage *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  qm_catalog_page_update_actions (self);
  if (clock == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      qm_catalog_page_update_details (self);
      return;
    }
  if (self->details_clock != NULL)
    return;
  self->details_clock = g_object_ref (clock);
  g_signal_connect_object (clock, "after-paint", G_CALLBACK (on_details_after_paint), self, G_CONNECT_SWAPPED);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The rows now show other items (filter or sort): keep the selected entry
 * selected where it is still shown. */
static void
on_rows_changed (QmCatalogPage *self,
                 guint          position,
                 guint          removed,
                 guint          added,
                 GListModel    *model)
{
  KindView *view = qm_catalog_page_current (self);
  guint n, selected;

  if (model != G_LIST_MODEL (view->filtered))
    return;
  n = g_list_model_get_n_items (model);
  selected = gtk_single_selection_get_selected (view->selection);
  if (self->shown != NULL)
    {
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(QmCatalogItem) item = g_list_model_get_item (model, i);

          if (item == self->shown)
            {
              selected = i;
              break;
            }
        }
    }
  /* Past the last row is padding (qm-row-slots.h): select the last row, as
   * GTK does when the selected row goes. */
  if (n > 0 && selected >= n)
    selected = n - 1;
  self->rows_changing = TRUE;
  if (selected != gtk_single_selection_get_selected (view->selection) && selected != GTK_INVALID_LIST_POSITION)
    gtk_single_selection_set_selected (view->selection, selected);
  self->rows_changing = FALSE;
  queue_update_details (self);
}

/* Counted here rather than on each search keystroke. */
static void
on_items_changed_count_hidden (GListModel *items,
                               guint       position,
                               guint       removed,
                               guint       added,
                               KindView   *view)
{
  guint n = g_list_model_get_n_items (items);

  view->n_hidden = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (items, i);

      if (qm_catalog_item_get_entry (item)->hidden)
        view->n_hidden++;
    }
}

/* The table of one kind. Built when that kind is first shown, not with
 * the page: GTK 4.8's list views make widgets for up to 200 rows whether
 * they are on screen or not, and a table per kind was most of the window's
 * cold start (issue #20 item 10). */
static GtkColumnView *
ensure_table (QmCatalogPage *self,
              QmCatalogKind  kind)
{
  KindView *view = &self->views[kind];
  const QmCatalogField *fields;
  guint n;

  if (view->view != NULL)
    return view->view;

  view->view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (view->selection))));
  gtk_widget_add_css_class (GTK_WIDGET (view->view), "data-table");
  gtk_column_view_set_show_column_separators (view->view, FALSE);
  /* A table to assistive technology: cells named with their header. */
  qm_a11y_table (view->view, qm_catalog_kind_title (kind));

  qm_catalog_page_add_column (view->view, view->slots, kind, COLUMN_NAME, 0, _("Name"), "name");
  qm_catalog_page_add_column (view->view, view->slots, kind, COLUMN_VENDOR, 0, kind == QM_CATALOG_KIND_MODEL ? _("Developer") : _("Vendor"), "vendor");
  /* The price early: it is what procurement comes for. */
  if (qm_catalog_kind_has_price (kind))
    qm_catalog_page_add_column (view->view, view->slots, kind, COLUMN_PRICE, 0, _("Price"), "price");
  fields = qm_catalog_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    if (fields[i].flags & QM_CATALOG_FIELD_COLUMN)
      qm_catalog_page_add_column (view->view, view->slots, kind, COLUMN_FIELD, i, _(fields[i].label), fields[i].key);
  qm_catalog_page_add_column (view->view, view->slots, kind, COLUMN_ORIGIN, 0, _("Origin"), "origin");
  qm_catalog_page_add_column (view->view, view->slots, kind, COLUMN_AS_OF, 0, _("As Of"), "as_of");

  gtk_sort_list_model_set_sorter (view->sorted, gtk_column_view_get_sorter (view->view));
  g_signal_connect_object (view->view, "activate", G_CALLBACK (on_activate), self, G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (view->scroller), GTK_WIDGET (view->view));
  return view->view;
}

static void
build_view (QmCatalogPage *self,
            QmCatalogKind  kind)
{
  KindView *view = &self->views[kind];

  view->items = g_list_store_new (QM_TYPE_CATALOG_ITEM);
  g_signal_connect (view->items, "items-changed", G_CALLBACK (on_items_changed_count_hidden), view);
  view->filter = GTK_FILTER (gtk_custom_filter_new (filter_func, self, NULL));
  view->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (view->items)), NULL);
  view->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (view->sorted)),
                                              g_object_ref (view->filter));
  view->slots = qm_row_slots_new (G_LIST_MODEL (view->filtered));
  view->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (view->slots)));

  g_signal_connect_object (view->selection, "notify::selected-item",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  /* After the slots have taken the change (they connected first). */
  g_signal_connect_object (view->filtered, "items-changed",
                           G_CALLBACK (on_rows_changed), self, G_CONNECT_SWAPPED);

  view->scroller = gtk_scrolled_window_new ();
  /* A table wider than its pane shows that it scrolls: with overlay
   * scrollbars a column cut at the pane's edge read as clipped (issue 20,
   * the FP8 column at 1200 px). */
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (view->scroller), FALSE);
  gtk_stack_add_named (self->views_stack, view->scroller, qm_catalog_kind_to_string (kind));
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

void
qm_catalog_page_load_all (QmCatalogPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  GPtrArray *per_kind[QM_N_CATALOG_KINDS];
  const char *keep = NULL;
  QmCatalogItem *selected = qm_catalog_page_get_selected (self);

  if (selected != NULL)
    keep = g_intern_string (qm_catalog_item_get_id (selected));

  entries = qm_catalog_store_list (self->store, -1, NULL, QM_CATALOG_LIST_INCLUDE_HIDDEN, &error);
  if (entries == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not read the catalog: %s"), error->message);

      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
      return;
    }
  g_ptr_array_set_free_func (entries, NULL);  /* the items take the entries */
  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    per_kind[k] = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < entries->len; i++)
    {
      QmCatalogEntry *e = entries->pdata[i];

      g_ptr_array_add (per_kind[e->kind], qm_catalog_item_new (e));
    }
  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      g_list_store_splice (self->views[k].items, 0,
                           g_list_model_get_n_items (G_LIST_MODEL (self->views[k].items)),
                           per_kind[k]->pdata, per_kind[k]->len);
      g_ptr_array_unref (per_kind[k]);
    }

  qm_catalog_page_fill_filters (self);
  update_state (self);
  if (keep != NULL)
    qm_catalog_page_select (self, keep);
  qm_catalog_page_update_details (self);
}

static gboolean
find_item (KindView   *view,
           const char *id,
           guint      *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (view->items));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (G_LIST_MODEL (view->items), i);

      if (g_strcmp0 (qm_catalog_item_get_id (item), id) == 0)
        {
          *position = i;
          return TRUE;
        }
    }
  return FALSE;
}

/* Re-reads one entry after an edit, keeping the rest of the list as it is. */
void
qm_catalog_page_reload_entry (QmCatalogPage *self,
                              QmCatalogKind  kind,
                              const char    *id)
{
  KindView *view = &self->views[kind];
  QmCatalogEntry *entry = qm_catalog_store_get (self->store, kind, id, NULL);
  guint position;
  gboolean found = find_item (view, id, &position);

  if (entry == NULL)
    {
      if (found)
        g_list_store_remove (view->items, position);
    }
  else
    {
      g_autoptr(QmCatalogItem) item = qm_catalog_item_new (entry);

      if (found)
        g_list_store_splice (view->items, position, 1, (gpointer *) &item, 1);
      else
        g_list_store_append (view->items, item);
    }
  if (kind == self->kind)
    {
      qm_catalog_page_fill_filters (self);
      update_state (self);
      qm_catalog_page_update_details (self);
    }
}

/* ------------------------------------------------------------------ */
/* Layout                                                              */

static void
place (GtkGrid   *grid,
       GtkWidget *child,
       int        column,
       int        row,
       int        width)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (grid));
  GtkGridLayoutChild *lc = GTK_GRID_LAYOUT_CHILD (gtk_layout_manager_get_layout_child (layout, child));

  gtk_grid_layout_child_set_column (lc, column);
  gtk_grid_layout_child_set_row (lc, row);
  gtk_grid_layout_child_set_column_span (lc, width);
}

static void
on_folded (QmCatalogPage *self)
{
  /* Narrow: the filters go under the search entry. */
  if (adw_leaflet_get_folded (self->leaflet))
    {
      place (self->filter_grid, GTK_WIDGET (self->search_entry), 0, 0, 2);
      place (self->filter_grid, GTK_WIDGET (self->vendor_dropdown), 0, 1, 1);
      place (self->filter_grid, GTK_WIDGET (self->type_dropdown), 1, 1, 1);
      gtk_widget_set_hexpand (GTK_WIDGET (self->vendor_dropdown), TRUE);
      gtk_widget_set_hexpand (GTK_WIDGET (self->type_dropdown), TRUE);
    }
  else
    {
      place (self->filter_grid, GTK_WIDGET (self->search_entry), 0, 0, 1);
      place (self->filter_grid, GTK_WIDGET (self->vendor_dropdown), 1, 0, 1);
      place (self->filter_grid, GTK_WIDGET (self->type_dropdown), 2, 0, 1);
      gtk_widget_set_hexpand (GTK_WIDGET (self->vendor_dropdown), FALSE);
      gtk_widget_set_hexpand (GTK_WIDGET (self->type_dropdown), FALSE);
    }
}

static void
setup_dropdown_label (GtkSignalListItemFactory *factory,
                      GtkListItem              *list_item,
                      gpointer                  ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  if (ellipsize)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_dropdown_label (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     gpointer                  ellipsize)
{
  GtkStringObject *item = gtk_list_item_get_item (list_item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)),
                      gtk_string_object_get_string (item));
}

/* The button's label ellipsizes, so that two filters fit side by side in a
 * narrow window; the popup shows the whole names. */
static void
make_dropdown_narrow (GtkDropDown *dropdown)
{
  g_autoptr(GtkListItemFactory) button = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list = gtk_signal_list_item_factory_new ();

  g_signal_connect (button, "setup", G_CALLBACK (setup_dropdown_label), GINT_TO_POINTER (TRUE));
  g_signal_connect (button, "bind", G_CALLBACK (bind_dropdown_label), NULL);
  g_signal_connect (list, "setup", G_CALLBACK (setup_dropdown_label), NULL);
  g_signal_connect (list, "bind", G_CALLBACK (bind_dropdown_label), NULL);
  gtk_drop_down_set_factory (dropdown, button);
  gtk_drop_down_set_list_factory (dropdown, list);
}

static void
on_kind_dropdown (QmCatalogPage *self)
{
  guint i = gtk_drop_down_get_selected (self->kind_dropdown);

  if (!self->updating && i < QM_N_CATALOG_KINDS)
    qm_catalog_page_set_kind (self, i);
}

/* ------------------------------------------------------------------ */

static void
qm_catalog_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  QmCatalogPage *self = QM_CATALOG_PAGE (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_string (value, qm_catalog_kind_to_string (self->kind));
      break;

    case PROP_SHOW_HIDDEN:
      g_value_set_boolean (value, self->show_hidden);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_catalog_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  QmCatalogPage *self = QM_CATALOG_PAGE (object);

  switch (prop_id)
    {
    case PROP_KIND:
      {
        QmCatalogKind kind;

        if (qm_catalog_kind_from_string (g_value_get_string (value), &kind))
          qm_catalog_page_set_kind (self, kind);
      }
      break;

    case PROP_SHOW_HIDDEN:
      if (self->show_hidden != g_value_get_boolean (value))
        {
          self->show_hidden = g_value_get_boolean (value);
          qm_catalog_page_refilter (self, self->show_hidden ? GTK_FILTER_CHANGE_LESS_STRICT : GTK_FILTER_CHANGE_MORE_STRICT);
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_catalog_page_dispose (GObject *object)
{
  QmCatalogPage *self = QM_CATALOG_PAGE (object);

  /* The toast overlay is AdwBin's child: let AdwBin drop it, so that the
   * template does not unparent it behind AdwBin's back. */
  /* Tearing the column views down changes the models: no updates to the
   * widgets that are going away. */
  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      if (self->views[k].selection != NULL)
        g_signal_handlers_disconnect_by_data (self->views[k].selection, self);
      if (self->views[k].filtered != NULL)
        g_signal_handlers_disconnect_by_data (self->views[k].filtered, self);
    }
  cancel_details_update (self);
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_CATALOG_PAGE);
  cancel_details_update (self);
  g_ptr_array_set_size (self->detail_values, 0);
  g_clear_object (&self->shown);
  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      KindView *view = &self->views[k];

      g_clear_object (&view->selection);
      g_clear_object (&view->slots);
      g_clear_object (&view->sorted);
      g_clear_object (&view->filtered);
      g_clear_object (&view->filter);
      g_clear_object (&view->items);
    }

  G_OBJECT_CLASS (qm_catalog_page_parent_class)->dispose (object);
}

static void
qm_catalog_page_finalize (GObject *object)
{
  QmCatalogPage *self = QM_CATALOG_PAGE (object);

  g_free (self->needle);
  g_ptr_array_unref (self->vendor_values);
  g_ptr_array_unref (self->type_values);
  g_ptr_array_unref (self->detail_values);
  g_free (self->details_layout);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_catalog_page_parent_class)->finalize (object);
}

static void
qm_catalog_page_class_init (QmCatalogPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_catalog_page_dispose;
  object_class->finalize = qm_catalog_page_finalize;
  object_class->get_property = qm_catalog_page_get_property;
  object_class->set_property = qm_catalog_page_set_property;

  /* The kind shown, as its catalog string ("gpu", "server" ...), so that
   * the kind buttons can be radio buttons of a property action. */
  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, "gpu",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_HIDDEN] =
    g_param_spec_boolean ("show-hidden", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  qm_gtk_class_set_template (widget_class, "qm-catalog-page.ui");
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, leaflet);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, list_pane);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, details_pane);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, back_button);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, filter_grid);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, vendor_dropdown);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, views_stack);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, details_stack);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, details_title);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, details_subtitle);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, origin_icon);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, edit_button);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, duplicate_button);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, reset_button);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, hide_button);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, delete_button);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, more_popover);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, details_actions);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogPage, details_groups);

  gtk_widget_class_install_property_action (widget_class, "catalog.kind", "kind");
  gtk_widget_class_install_property_action (widget_class, "catalog.show-hidden", "show-hidden");
  qm_catalog_page_class_actions_init (widget_class);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "catalog.add", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "catalog.delete", NULL);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
qm_catalog_page_init (QmCatalogPage *self)
{
  GtkEventController *shortcuts;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->vendor_values = g_ptr_array_new ();
  self->type_values = g_ptr_array_new ();
  self->detail_values = g_ptr_array_new ();  /* the labels live in details_groups */

  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    build_view (self, k);
  ensure_table (self, self->kind);
  gtk_stack_set_visible_child_name (self->views_stack, qm_catalog_kind_to_string (self->kind));

  /* The menu's buttons act, then the menu closes, as a menu item would. */
  g_signal_connect_object (self->reset_button, "clicked", G_CALLBACK (gtk_popover_popdown),
                           self->more_popover, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->hide_button, "clicked", G_CALLBACK (gtk_popover_popdown),
                           self->more_popover, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->delete_button, "clicked", G_CALLBACK (gtk_popover_popdown),
                           self->more_popover, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->search_entry, "search-changed",
                           G_CALLBACK (on_search_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "stop-search",
                           G_CALLBACK (on_stop_search), self, G_CONNECT_SWAPPED);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));
  g_signal_connect_object (self->vendor_dropdown, "notify::selected",
                           G_CALLBACK (on_vendor_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->type_dropdown, "notify::selected",
                           G_CALLBACK (on_type_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->kind_dropdown, "notify::selected",
                           G_CALLBACK (on_kind_dropdown), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->leaflet, "notify::folded",
                           G_CALLBACK (on_folded), self, G_CONNECT_SWAPPED);
  on_folded (self);
  make_dropdown_narrow (self->vendor_dropdown);
  make_dropdown_narrow (self->type_dropdown);

  qm_a11y_label (GTK_WIDGET (self->search_entry), _("Search the catalog"));
  qm_a11y_label (GTK_WIDGET (self->kind_dropdown), _("Kind of Entry"));
  qm_a11y_label (GTK_WIDGET (self->vendor_dropdown), _("Filter by Vendor"));
  qm_a11y_label (GTK_WIDGET (self->type_dropdown), _("Filter"));

  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_f, GDK_CONTROL_MASK),
                                                          gtk_callback_action_new (qm_catalog_page_ctrl_f_cb, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  /* Buttons with a mnemonic are read without it (issue #37 item 10). */
  qm_a11y_fix_mnemonics (GTK_WIDGET (self));
}

GtkWidget *
qm_catalog_page_new (QmStore *store)
{
  QmCatalogPage *self;

  g_return_val_if_fail (store != NULL, NULL);

  self = g_object_new (QM_TYPE_CATALOG_PAGE, NULL);
  self->store = qm_store_ref (store);
  qm_catalog_page_load_all (self);
  return GTK_WIDGET (self);
}

QmStore *
qm_catalog_page_get_store (QmCatalogPage *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), NULL);

  return self->store;
}

QmCatalogKind
qm_catalog_page_get_kind (QmCatalogPage *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), 0);

  return self->kind;
}

void
qm_catalog_page_set_kind (QmCatalogPage *self,
                          QmCatalogKind  kind)
{
  g_return_if_fail (QM_IS_CATALOG_PAGE (self));
  g_return_if_fail (kind < QM_N_CATALOG_KINDS);

  if (self->kind == kind)
    return;
  self->kind = kind;
  self->vendor = NULL;
  self->type_value = NULL;

  self->updating = TRUE;
  gtk_drop_down_set_selected (self->kind_dropdown, kind);
  self->updating = FALSE;
  ensure_table (self, kind);
  gtk_stack_set_visible_child_name (self->views_stack, qm_catalog_kind_to_string (kind));
  qm_catalog_page_fill_filters (self);
  /* The search text carries over; this kind's filter has not seen it. */
  qm_catalog_page_refilter (self, GTK_FILTER_CHANGE_DIFFERENT);
  qm_catalog_page_update_details (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

void
qm_catalog_page_set_search_text (QmCatalogPage *self,
                                 const char    *text)
{
  g_return_if_fail (QM_IS_CATALOG_PAGE (self));

  if (text == NULL)
    text = "";
  qm_list_page_set_search_text (GTK_EDITABLE (self->search_entry), text, on_search_changed, self);
  apply_search (self, text);
}

const char *
qm_catalog_page_get_search_text (QmCatalogPage *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
}

static void
select_value (QmCatalogPage *self,
              GtkDropDown   *dropdown,
              GPtrArray     *values,
              const char    *value)
{
  const char *interned = value ? g_intern_string (value) : NULL;

  for (guint i = 0; i < values->len; i++)
    if (values->pdata[i] == interned)
      {
        gtk_drop_down_set_selected (dropdown, i);
        return;
      }
  g_warn_if_reached ();
}

void
qm_catalog_page_set_vendor (QmCatalogPage *self,
                            const char    *vendor)
{
  g_return_if_fail (QM_IS_CATALOG_PAGE (self));

  select_value (self, self->vendor_dropdown, self->vendor_values, vendor);
}

void
qm_catalog_page_set_type_filter (QmCatalogPage *self,
                                 const char    *value)
{
  g_return_if_fail (QM_IS_CATALOG_PAGE (self));

  select_value (self, self->type_dropdown, self->type_values, value);
}

GListModel *
qm_catalog_page_get_model (QmCatalogPage *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), NULL);

  return G_LIST_MODEL (qm_catalog_page_current (self)->filtered);
}

GtkColumnView *
qm_catalog_page_get_column_view (QmCatalogPage *self,
                                 QmCatalogKind  kind)
{
  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), NULL);
  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);

  return ensure_table (self, kind);
}

GtkColumnViewColumn *
qm_catalog_page_get_column (QmCatalogPage *self,
                            const char    *key)
{
  GListModel *columns;
  guint n;

  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), NULL);

  columns = gtk_column_view_get_columns (ensure_table (self, self->kind));
  n = g_list_model_get_n_items (columns);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (column), "qm-column-id"), key) == 0)
        return column;
    }
  return NULL;
}

gboolean
qm_catalog_page_select (QmCatalogPage *self,
                        const char    *id)
{
  KindView *view;
  guint n;

  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), FALSE);

  view = qm_catalog_page_current (self);
  n = g_list_model_get_n_items (G_LIST_MODEL (view->filtered));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (G_LIST_MODEL (view->filtered), i);

      if (g_strcmp0 (qm_catalog_item_get_id (item), id) == 0)
        {
          gtk_single_selection_set_selected (view->selection, i);
          qm_catalog_page_update_details (self);
          return TRUE;
        }
    }
  return FALSE;
}

QmCatalogItem *
qm_catalog_page_get_selected (QmCatalogPage *self)
{
  QmRowSlot *slot;

  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), NULL);

  slot = gtk_single_selection_get_selected_item (qm_catalog_page_current (self)->selection);
  return slot ? qm_row_slot_get_item (slot) : NULL;
}

void
qm_catalog_page_reload (QmCatalogPage *self)
{
  g_return_if_fail (QM_IS_CATALOG_PAGE (self));

  qm_catalog_page_load_all (self);
}

void
qm_catalog_page_focus_search (QmCatalogPage *self)
{
  g_return_if_fail (QM_IS_CATALOG_PAGE (self));

  if (adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet, self->list_pane);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

char *
qm_catalog_page_export_csv (QmCatalogPage  *self,
                            gsize          *length,
                            GError        **error)
{
  QmCsvDialect c = QM_CSV_DIALECT_C;

  return qm_catalog_page_export_csv_dialect (self, &c, length, error);
}

char *
qm_catalog_page_export_csv_dialect (QmCatalogPage       *self,
                                    const QmCsvDialect  *dialect,
                                    gsize               *length,
                                    GError             **error)
{
  QmCsvDialect read_back = *dialect;
  g_autofree char *all = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GHashTable) by_id = NULL;
  QmCsvRecord *header;
  GListModel *model;
  GString *out;
  gsize all_length = 0;
  int id_column = -1;
  guint n;

  g_return_val_if_fail (QM_IS_CATALOG_PAGE (self), NULL);

  /* The store writes the columns (the format import reads back); the view
   * decides which rows, and in which order. */
  all = qm_catalog_store_export_csv_dialect (self->store, self->kind, NULL, QM_CATALOG_LIST_INCLUDE_HIDDEN,
                                             dialect, &all_length, error);
  if (all == NULL)
    return NULL;
  records = qm_csv_read (all, all_length, &read_back, error);
  if (records == NULL)
    return NULL;
  header = records->pdata[0];
  for (guint c = 0; c < header->fields->len; c++)
    if (g_str_equal (header->fields->pdata[c], "id"))
      id_column = c;
  g_return_val_if_fail (id_column >= 0, NULL);

  by_id = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint r = 1; r < records->len; r++)
    {
      QmCsvRecord *record = records->pdata[r];

      if ((guint) id_column < record->fields->len)
        g_hash_table_insert (by_id, record->fields->pdata[id_column], record);
    }

  out = g_string_new (NULL);
  qm_csv_append_dialect_line (out, dialect);
  qm_csv_append_row (out, (const char * const *) header->fields->pdata, header->fields->len, dialect->separator);
  model = G_LIST_MODEL (qm_catalog_page_current (self)->filtered);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (model, i);
      QmCsvRecord *record = g_hash_table_lookup (by_id, qm_catalog_item_get_id (item));

      if (record != NULL)
        qm_csv_append_row (out, (const char * const *) record->fields->pdata, record->fields->len,
                           dialect->separator);
    }
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}
