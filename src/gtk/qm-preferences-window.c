/* qm-preferences-window.c: defaults for new plans and display units, kept
 * in GSettings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-gtk.h"
#include "qm-preferences-window.h"

struct _QmPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;

  AdwEntryRow          *currency_row;
  AdwComboRow          *memory_units_row;
  GtkSpinButton        *pue_spin;
  GtkSpinButton        *kwh_spin;
  GtkSpinButton        *rack_kw_spin;
  GtkSpinButton        *rack_units_spin;
  GtkSpinButton        *carbon_spin;
};

G_DEFINE_FINAL_TYPE (QmPreferencesWindow, qm_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char *memory_units[] = { "gb", "gib" };

static gboolean
memory_units_get (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (memory_units); i++)
    if (g_str_equal (s, memory_units[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
memory_units_set (const GValue       *value,
                  const GVariantType *type,
                  gpointer            user_data)
{
  guint i = g_value_get_uint (value);

  return g_variant_new_string (memory_units[MIN (i, G_N_ELEMENTS (memory_units) - 1)]);
}

static void
currency_changed (QmPreferencesWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->currency_row));
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  gboolean valid = trimmed[0] != '\0' && g_utf8_strlen (trimmed, -1) <= 6;

  /* A label only: any short non-empty text is fine; keep the last good one. */
  if (valid)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->currency_row), "error");
      g_settings_set_string (self->settings, "currency", trimmed);
    }
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->currency_row), "error");
}

static void
qm_preferences_window_dispose (GObject *object)
{
  QmPreferencesWindow *self = QM_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (qm_preferences_window_parent_class)->dispose (object);
}

static void
qm_preferences_window_class_init (QmPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_preferences_window_dispose;

  qm_gtk_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/quartermaster/Quartermaster/qm-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, currency_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, memory_units_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, pue_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, kwh_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, rack_kw_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, rack_units_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, carbon_spin);
}

static void
qm_preferences_window_init (QmPreferencesWindow *self)
{
  g_autofree char *currency = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);

  currency = g_settings_get_string (self->settings, "currency");
  gtk_editable_set_text (GTK_EDITABLE (self->currency_row), currency);
  g_signal_connect_swapped (self->currency_row, "changed", G_CALLBACK (currency_changed), self);

  g_settings_bind_with_mapping (self->settings, "memory-units",
                                self->memory_units_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                memory_units_get, memory_units_set, NULL, NULL);
  g_settings_bind (self->settings, "default-pue", self->pue_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-usd-per-kwh", self->kwh_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-rack-kw", self->rack_kw_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-rack-units", self->rack_units_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-gco2-per-kwh", self->carbon_spin, "value", G_SETTINGS_BIND_DEFAULT);
}

QmPreferencesWindow *
qm_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (QM_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
}
