/* qm-a11y.c: accessible names and descriptions that can be read back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
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
