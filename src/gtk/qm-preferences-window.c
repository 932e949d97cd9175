/* qm-preferences-window.c: defaults for new plans and display units, kept
 * in GSettings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-a11y.h"
#include "qm-gtk.h"
#include "qm-preferences-window.h"

struct _QmPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;

  AdwEntryRow          *currency_row;
  AdwEntryRow          *currency_symbol_row;
  AdwComboRow          *memory_units_row;
  GtkSpinButton        *pue_spin;
  GtkSpinButton        *kwh_spin;
  GtkSpinButton        *rack_kw_spin;
  GtkSpinButton        *rack_units_spin;
  GtkSpinButton        *carbon_spin;
  AdwComboRow          *failure_preset_row;
  AdwComboRow          *pricing_mode_row;
  GtkSpinButton        *amortization_spin;
  AdwComboRow          *paper_size_row;
};

G_DEFINE_FINAL_TYPE (QmPreferencesWindow, qm_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The schema's choices, in the order of each combo row's items. */
static const char *memory_units[] = { "gb", "gib", NULL };
static const char *failure_presets[] = { "llama3-production", "research-cluster", NULL };
static const char *pricing_modes[] = { "buy", "rent", NULL };
static const char *paper_sizes[] = { "auto", "a4", "letter", NULL };

static gboolean
choice_get (GValue   *value,
            GVariant *variant,
            gpointer  user_data)
{
  const char *const *choices = user_data;
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i] != NULL; i++)
    if (g_str_equal (s, choices[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
choice_set (const GValue       *value,
            const GVariantType *type,
            gpointer            user_data)
{
  const char *const *choices = user_data;
  guint n = g_strv_length ((char **) choices);
  guint i = g_value_get_uint (value);

  return g_variant_new_string (choices[MIN (i, n - 1)]);
}

static void
bind_choice (QmPreferencesWindow *self,
             const char          *key,
             AdwComboRow         *row,
             const char *const   *choices)
{
  g_settings_bind_with_mapping (self->settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT,
                                choice_get, choice_set, (gpointer) choices, NULL);
}

/* A label only: any short non-empty text is fine; an invalid one is
 * marked and the last good one kept. */
static void
short_text_changed (AdwEntryRow *row,
                    const char  *key,
                    GSettings   *settings)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  gboolean valid = trimmed[0] != '\0' && g_utf8_strlen (trimmed, -1) <= 6;

  if (valid)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
      g_settings_set_string (settings, key, trimmed);
    }
  else
    gtk_widget_add_css_class (GTK_WIDGET (row), "error");
}

static void
currency_changed (QmPreferencesWindow *self)
{
  short_text_changed (self->currency_row, "currency", self->settings);
}

static void
currency_symbol_changed (QmPreferencesWindow *self)
{
  short_text_changed (self->currency_symbol_row, "currency-symbol", self->settings);
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
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, currency_symbol_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, memory_units_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, pue_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, kwh_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, rack_kw_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, rack_units_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, carbon_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, failure_preset_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, pricing_mode_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, amortization_spin);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, paper_size_row);
}

static void
qm_preferences_window_init (QmPreferencesWindow *self)
{
  g_autofree char *currency = NULL;
  g_autofree char *symbol = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);

  currency = g_settings_get_string (self->settings, "currency");
  gtk_editable_set_text (GTK_EDITABLE (self->currency_row), currency);
  g_signal_connect_swapped (self->currency_row, "changed", G_CALLBACK (currency_changed), self);
  symbol = g_settings_get_string (self->settings, "currency-symbol");
  gtk_editable_set_text (GTK_EDITABLE (self->currency_symbol_row), symbol);
  g_signal_connect_swapped (self->currency_symbol_row, "changed", G_CALLBACK (currency_symbol_changed), self);

  bind_choice (self, "memory-units", self->memory_units_row, memory_units);
  bind_choice (self, "default-failure-preset", self->failure_preset_row, failure_presets);
  bind_choice (self, "default-pricing-mode", self->pricing_mode_row, pricing_modes);
  bind_choice (self, "paper-size", self->paper_size_row, paper_sizes);

  g_settings_bind (self->settings, "default-pue", self->pue_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-usd-per-kwh", self->kwh_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-rack-kw", self->rack_kw_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-rack-units", self->rack_units_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-gco2-per-kwh", self->carbon_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "default-amortization-years", self->amortization_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);

  /* A spin button says nothing by itself: name it after its row. */
  {
    GtkSpinButton *spins[] = {
      self->pue_spin, self->kwh_spin, self->rack_kw_spin, self->rack_units_spin,
      self->carbon_spin, self->amortization_spin,
    };

    for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
      qm_a11y_label_from_row (GTK_WIDGET (spins[i]));
  }
}

QmPreferencesWindow *
qm_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (QM_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
}
