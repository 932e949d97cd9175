/* qm-a11y.c: accessible names and descriptions that can be read back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-a11y.h"

#define LABEL_KEY       "qm-a11y-label"
#define LABELLED_BY_KEY "qm-a11y-labelled-by"
#define DESCRIPTION_KEY "qm-a11y-description"

/* Sets @widget's accessible @property to @text, and keeps a copy under
 * @key for the getters below (GTK 4.8 cannot read it back). */
static void
set_text (GtkWidget             *widget,
          const char            *key,
          GtkAccessibleProperty  property,
          const char            *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (text != NULL);

  g_object_set_data_full (G_OBJECT (widget), key, g_strdup (text), g_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), property, text, -1);
}

/* A drop-down's focus lands on the toggle button inside it, which AT-SPI
 * reads on its own: GTK 4.8 does not pass the drop-down's label on. */
static GtkWidget *
drop_down_button (GtkWidget *drop_down)
{
  for (GtkWidget *c = gtk_widget_get_first_child (drop_down); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_TOGGLE_BUTTON (c))
      return c;
  return NULL;
}

void
qm_a11y_label (GtkWidget  *widget,
               const char *label)
{
  set_text (widget, LABEL_KEY, GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  /* GTK 4.8 reads the label and then every labelled-by widget: the title
   * that an AdwActionRow (set_activatable_widget) or a mnemonic label
   * points at would be read a second time ("Layers Layers"). */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  g_object_set_data (G_OBJECT (widget), LABELLED_BY_KEY, NULL);
  if (GTK_IS_DROP_DOWN (widget))
    {
      GtkWidget *button = drop_down_button (widget);

      if (button != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    }
}

void
qm_a11y_labelled_by (GtkWidget *widget,
                     GtkWidget *label)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (GTK_IS_WIDGET (label));

  /* Not a reference: the label is the widget's ancestor or sibling and
   * lives as long as it does. */
  g_object_set_data (G_OBJECT (widget), LABELLED_BY_KEY, label);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                  -1);
}

void
qm_a11y_label_from_row (GtkWidget *widget)
{
  GtkWidget *row;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  row = gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_ROW);
  if (row == NULL)
    return;
  qm_a11y_label (widget, adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  /* The subtitle says what the number counts ("Per kilowatt-hour"). */
  if (ADW_IS_ACTION_ROW (row))
    {
      const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));

      if (subtitle != NULL && subtitle[0] != '\0')
        qm_a11y_describe (widget, subtitle);
    }
}

void
qm_a11y_describe (GtkWidget  *widget,
                  const char *description)
{
  set_text (widget, DESCRIPTION_KEY, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description);
}

const char *
qm_a11y_get_label (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return g_object_get_data (G_OBJECT (widget), LABEL_KEY);
}

GtkWidget *
qm_a11y_get_labelled_by (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return g_object_get_data (G_OBJECT (widget), LABELLED_BY_KEY);
}

const char *
qm_a11y_get_description (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return g_object_get_data (G_OBJECT (widget), DESCRIPTION_KEY);
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */

#define TABLE_HOOKED_KEY "qm-a11y-table-hooked"

/* The text a cell shows: its labels, in order (an icon-only cell counts
 * by its accessible label, kept by qm_a11y_label()). */
static void
append_shown_text (GString   *out,
                   GtkWidget *widget)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget) || GTK_IS_INSCRIPTION (widget))
    {
      const char *text = GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget))
                                               : gtk_inscription_get_text (GTK_INSCRIPTION (widget));

      if (text != NULL && text[0] != '\0')
        g_string_append_printf (out, "%s%s", out->len > 0 ? " " : "", text);
      return;
    }
  if (qm_a11y_get_label (widget) != NULL)
    {
      g_string_append_printf (out, "%s%s", out->len > 0 ? " " : "", qm_a11y_get_label (widget));
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    append_shown_text (out, c);
}

/* GTK 4.8's column view gives assistive technology rows named after
 * their type ("GtkListItemWidget") and cells tied to no header: name each
 * cell "Header: value" and each row by its cells. The cell is the
 * child's parent and the row the cell's parent (GTK 4.8's
 * GtkColumnViewCell in a GtkListItemWidget), both GtkWidgets. */
static void
name_cell (GtkWidget           *child,
           GtkColumnViewColumn *column)
{
  GtkWidget *cell, *row;
  g_autoptr(GString) value = g_string_new (NULL);
  g_autoptr(GString) row_name = g_string_new (NULL);
  g_autofree char *name = NULL;
  const char *title = gtk_column_view_column_get_title (column);

  if (child == NULL || (cell = gtk_widget_get_parent (child)) == NULL ||
      (row = gtk_widget_get_parent (cell)) == NULL)
    return;
  append_shown_text (value, child);
  /* Translators: an accessible name of a table cell: the column's header
   * and the cell's value, e.g. "GPUs: 2,048". */
  name = g_strdup_printf (C_("table cell", "%s: %s"), title != NULL ? title : "", value->str);
  set_text (cell, LABEL_KEY, GTK_ACCESSIBLE_PROPERTY_LABEL, name);

  /* The row reads its cells, in column order, as they stand. */
  for (GtkWidget *c = gtk_widget_get_first_child (row); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      const char *cell_name = qm_a11y_get_label (c);

      if (cell_name != NULL && gtk_widget_get_visible (c))
        g_string_append_printf (row_name, "%s%s", row_name->len > 0 ? ", " : "", cell_name);
    }
  set_text (row, LABEL_KEY, GTK_ACCESSIBLE_PROPERTY_LABEL, row_name->str);
}

static void
cell_bound (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            GtkColumnViewColumn      *column)
{
  if (gtk_list_item_get_child (item) != NULL)
    name_cell (gtk_list_item_get_child (item), column);
}

/* Row slots (qm-row-slots.h) refill a bound cell when its row changes. */
static void
cell_text_changed (GtkWidget           *child,
                   GParamSpec          *pspec,
                   GtkColumnViewColumn *column)
{
  if (gtk_widget_get_parent (child) != NULL)
    name_cell (child, column);
}

static void
cell_set_up (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             GtkColumnViewColumn      *column)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (GTK_IS_INSCRIPTION (child))
    g_signal_connect_object (child, "notify::text", G_CALLBACK (cell_text_changed), column, 0);
  else if (GTK_IS_LABEL (child))
    g_signal_connect_object (child, "notify::label", G_CALLBACK (cell_text_changed), column, 0);
}

static void
hook_column (GtkColumnViewColumn *column)
{
  GtkListItemFactory *factory = gtk_column_view_column_get_factory (column);

  if (!GTK_IS_SIGNAL_LIST_ITEM_FACTORY (factory) || g_object_get_data (G_OBJECT (factory), TABLE_HOOKED_KEY))
    return;
  g_object_set_data (G_OBJECT (factory), TABLE_HOOKED_KEY, GINT_TO_POINTER (TRUE));
  g_signal_connect_object (factory, "setup", G_CALLBACK (cell_set_up), column, G_CONNECT_AFTER);
  g_signal_connect_object (factory, "bind", G_CALLBACK (cell_bound), column, G_CONNECT_AFTER);
}

static void
columns_changed (GListModel *columns,
                 guint       position,
                 guint       removed,
                 guint       added,
                 gpointer    data)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      hook_column (column);
    }
}

void
qm_a11y_table (GtkColumnView *view,
               const char    *name)
{
  GListModel *columns;

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  if (name != NULL)
    qm_a11y_label (GTK_WIDGET (view), name);
  if (g_object_get_data (G_OBJECT (view), TABLE_HOOKED_KEY))
    return;
  g_object_set_data (G_OBJECT (view), TABLE_HOOKED_KEY, GINT_TO_POINTER (TRUE));
  columns = gtk_column_view_get_columns (view);
  columns_changed (columns, 0, 0, g_list_model_get_n_items (columns), NULL);
  /* Columns a page adds or puts back later (the catalog's per kind, the
   * plans page's choice of columns). */
  g_signal_connect_object (columns, "items-changed", G_CALLBACK (columns_changed), view, 0);
}

/* ------------------------------------------------------------------ */
/* Mnemonics                                                           */

#define MNEMONIC_KEY "qm-a11y-mnemonic"

/* "D_uplicate" → "Duplicate", "a__b" → "a_b". */
static char *
strip_mnemonic (const char *label)
{
  GString *out = g_string_new (NULL);

  for (const char *c = label; *c != '\0'; c++)
    {
      if (*c == '_' && c[1] == '_')
        {
          g_string_append_c (out, '_');
          c++;
        }
      else if (*c != '_')
        g_string_append_c (out, *c);
    }
  return g_string_free (out, FALSE);
}

/* GTK 4.8 names a button with its raw label, underscore and all, and
 * then with its mnemonic label: "_New Plan… New Plan…". */
static void
fix_mnemonic_name (GtkButton *button)
{
  const char *label = gtk_button_get_label (button);
  g_autofree char *plain = NULL;

  if (!gtk_button_get_use_underline (button) || label == NULL || label[0] == '\0')
    return;
  plain = strip_mnemonic (label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, plain, -1);
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
}

static void
button_label_changed (GtkButton  *button,
                      GParamSpec *pspec,
                      gpointer    data)
{
  fix_mnemonic_name (button);
}

void
qm_a11y_fix_mnemonics (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_BUTTON (root) && !GTK_IS_CHECK_BUTTON (root) &&
      g_object_get_data (G_OBJECT (root), MNEMONIC_KEY) == NULL)
    {
      g_object_set_data (G_OBJECT (root), MNEMONIC_KEY, GINT_TO_POINTER (TRUE));
      fix_mnemonic_name (GTK_BUTTON (root));
      /* After GTK's own handler, which sets the raw label again. */
      g_signal_connect_after (root, "notify::label", G_CALLBACK (button_label_changed), NULL);
      g_signal_connect_after (root, "notify::use-underline", G_CALLBACK (button_label_changed), NULL);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    qm_a11y_fix_mnemonics (c);
}
