/* qm-catalog-page-columns.c: the Catalog page's table columns: their
 * cells, widths and sorters.
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

/* ------------------------------------------------------------------ */
/* Columns                                                             */

static double
sort_value (QmCatalogItem *item,
            gpointer       user_data)
{
  return qm_catalog_item_sort_value (item, GPOINTER_TO_UINT (user_data));
}

static double
price_value (QmCatalogItem *item,
             gpointer       user_data)
{
  return qm_catalog_item_get_entry (item)->price_usd;
}

static char *
text_value (QmCatalogItem *item,
            gpointer       user_data)
{
  const ColumnDef *def = user_data;
  const QmCatalogEntry *e = qm_catalog_item_get_entry (item);

  switch (def->type)
    {
    case COLUMN_NAME:   return g_strdup (e->name);
    case COLUMN_VENDOR: return g_strdup (e->vendor);
    case COLUMN_AS_OF:  return g_strdup (e->as_of);
    case COLUMN_ORIGIN: return g_strdup (e->builtin ? "0" : "1");
    case COLUMN_FIELD:  return qm_catalog_item_format (item, def->field);
    case COLUMN_PRICE:
    default:            return NULL;
    }
}

/* Sizes from character counts, so that neither a cell nor a column is
 * measured: wide enough for "1,979 TFLOPS", a GPU's name or a date. */
static void
size_column (ColumnDef *def)
{
  static const struct { int chars, width; } fixed[] = {
    [COLUMN_NAME]   = { 26, 220 },
    [COLUMN_VENDOR] = { 12, 110 },
    [COLUMN_PRICE]  = { 10, 96 },
    [COLUMN_ORIGIN] = { 15, 130 },
    [COLUMN_AS_OF]  = { 11, 110 },
  };
  const QmCatalogField *f = def->def;

  if (def->type != COLUMN_FIELD)
    {
      def->nat_chars = fixed[def->type].chars;
      def->width = fixed[def->type].width;
    }
  else if (f->type == QM_CATALOG_FIELD_TEXT && g_str_equal (f->key, "gpu_id"))
    {
      def->nat_chars = 18;
      def->width = 160;
    }
  else if (f->type == QM_CATALOG_FIELD_TEXT)
    {
      def->nat_chars = 13;
      def->width = 116;
    }
  else
    {
      int unit = f->unit ? strlen (f->unit) : 0;

      def->nat_chars = f->unit ? 6 + unit : 9;
      def->width = f->unit ? 76 + 8 * unit : 84;
    }
}

/* Cells are GtkInscriptions: made for list cells, they size by a
 * character count rather than by measuring their text, so binding the
 * ~200 rows GTK 4.8 keeps around the view stays cheap. */
static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            const ColumnDef          *def)
{
  GtkWidget *cell = qm_list_page_cell_new (def->numeric, def->type == COLUMN_NAME ? 8 : def->nat_chars,
                                           def->nat_chars);

  /* One line, centred in rows that a two-line price makes taller. */
  gtk_widget_set_valign (cell, GTK_ALIGN_CENTER);
  gtk_inscription_set_nat_lines (GTK_INSCRIPTION (cell), 1);
  gtk_list_item_set_child (list_item, cell);
}

static void
fill_cell (GtkInscription  *cell,
           const ColumnDef *def,
           QmCatalogItem   *item)
{
  const QmCatalogEntry *e;
  g_autofree char *text = NULL;

  if (item == NULL)
    {
      gtk_inscription_set_text (cell, NULL);
      return;
    }
  e = qm_catalog_item_get_entry (item);

  switch (def->type)
    {
    case COLUMN_NAME:
      gtk_inscription_set_text (cell, e->name);
      return;

    case COLUMN_VENDOR:
      gtk_inscription_set_text (cell, e->vendor ? e->vendor : "—");
      return;

    case COLUMN_AS_OF:
      text = qm_catalog_format_date (e->as_of);
      gtk_inscription_set_text (cell, text ? text : "—");
      return;

    case COLUMN_ORIGIN:
      if (e->hidden)
        gtk_inscription_set_text (cell, _("Built-in, hidden"));
      else
        gtk_inscription_set_text (cell, e->builtin ? _("Built-in") : _("Yours"));
      return;

    case COLUMN_PRICE:
      {
        g_autofree char *price = qm_catalog_format_price (e->price_usd);

        /* An overridden price shows the user's price over the list price. */
        if (e->has_override)
          {
            g_autofree char *list = qm_catalog_format_price (e->list_price_usd);
            /* TRANSLATORS: under an overridden price: "list $25,000" */
            g_autofree char *line = g_strdup_printf (_("list %s"), list);
            g_autofree char *markup = g_markup_printf_escaped ("%s\n<span size=\"small\" alpha=\"60%%\">%s</span>",
                                                               price, line);

            gtk_inscription_set_min_lines (cell, 2);
            gtk_inscription_set_markup (cell, markup);
          }
        else
          {
            gtk_inscription_set_min_lines (cell, 1);
            gtk_inscription_set_text (cell, price);
          }
        return;
      }

    case COLUMN_FIELD:
    default:
      /* A missing figure is a dash; a missing name stays blank. */
      text = qm_catalog_item_format (item, def->field);
      gtk_inscription_set_text (cell, text != NULL ? text : def->numeric ? "—" : NULL);
      return;
    }
}

static void
fill_cell_cb (GtkListItem *list_item,
              gpointer     item,
              gpointer     def)
{
  fill_cell (GTK_INSCRIPTION (gtk_list_item_get_child (list_item)), def, item);
}

GtkColumnViewColumn *
qm_catalog_page_add_column (GtkColumnView *view,
                            QmRowSlots    *slots,
                            QmCatalogKind  kind,
                            ColumnType     type,
                            guint          field,
                            const char    *title,
                            const char    *id)
{
  ColumnDef *def = g_new0 (ColumnDef, 1);
  GtkListItemFactory *factory;
  g_autoptr(GtkColumnViewColumn) column = NULL;
  GtkSorter *sorter;

  def->type = type;
  def->kind = kind;
  def->field = field;
  def->def = type == COLUMN_FIELD ? &qm_catalog_fields (kind, NULL)[field] : NULL;
  def->numeric = type == COLUMN_PRICE || (def->def != NULL && def->def->type != QM_CATALOG_FIELD_TEXT);
  def->slots = slots;
  size_column (def);

  /* The factory frees @def; rows are bound to the view's slots. */
  factory = qm_list_page_cell_factory_new (&def->slots, G_CALLBACK (setup_cell), fill_cell_cb, def, g_free);

  column = gtk_column_view_column_new (title, factory);
  g_object_set_data_full (G_OBJECT (column), "qm-column-id", g_strdup (id), g_free);
  gtk_column_view_column_set_resizable (column, TRUE);

  if (type == COLUMN_PRICE)
    sorter = GTK_SORTER (gtk_numeric_sorter_new (gtk_cclosure_expression_new (G_TYPE_DOUBLE, NULL, 0, NULL,
                                                                              G_CALLBACK (price_value),
                                                                              NULL, NULL)));
  else if (def->numeric)
    sorter = GTK_SORTER (gtk_numeric_sorter_new (gtk_cclosure_expression_new (G_TYPE_DOUBLE, NULL, 0, NULL,
                                                                              G_CALLBACK (sort_value),
                                                                              GUINT_TO_POINTER (field), NULL)));
  else
    sorter = GTK_SORTER (gtk_string_sorter_new (gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                                             G_CALLBACK (text_value),
                                                                             def, NULL)));
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);

  /* Fixed widths: GTK 4.8 then lays out a column without measuring its
   * ~200 cells. */
  gtk_column_view_column_set_fixed_width (column, def->width);
  if (type == COLUMN_NAME)
    gtk_column_view_column_set_expand (column, TRUE);
  gtk_column_view_append_column (view, column);
  return column;
}
