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

/* Every row of the window is bound to one GSettings key, declared once
 * in bindings[]: the template child, its key and how it is bound. */
typedef enum
{
  BIND_TEXT,    /* an AdwEntryRow holding a short label */
  BIND_CHOICE,  /* an AdwComboRow listing the key's choices */
  BIND_VALUE,   /* a GtkSpinButton, named after its row */
} BindKind;

/* The schema's choices, in the order of each combo row's items. */
static const char *memory_units[] = { "gb", "gib", NULL };
static const char *failure_presets[] = { "llama3-production", "research-cluster", NULL };
static const char *pricing_modes[] = { "buy", "rent", NULL };
static const char *paper_sizes[] = { "auto", "a4", "letter", NULL };

static const struct
{
  const char        *id;       /* in ui/qm-preferences-window.ui */
  const char        *key;
  BindKind           kind;
  const char *const *choices;  /* BIND_CHOICE */
} bindings[] = {
  { "currency_row", "currency", BIND_TEXT },
  { "currency_symbol_row", "currency-symbol", BIND_TEXT },
  { "memory_units_row", "memory-units", BIND_CHOICE, memory_units },
  { "pue_spin", "default-pue", BIND_VALUE },
  { "kwh_spin", "default-usd-per-kwh", BIND_VALUE },
  { "rack_kw_spin", "default-rack-kw", BIND_VALUE },
  { "rack_units_spin", "default-rack-units", BIND_VALUE },
  { "carbon_spin", "default-gco2-per-kwh", BIND_VALUE },
  { "failure_preset_row", "default-failure-preset", BIND_CHOICE, failure_presets },
  { "pricing_mode_row", "default-pricing-mode", BIND_CHOICE, pricing_modes },
  { "amortization_spin", "default-amortization-years", BIND_VALUE },
  { "paper_size_row", "paper-size", BIND_CHOICE, paper_sizes },
};

struct _QmPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  GtkWidget            *bound[G_N_ELEMENTS (bindings)];
};

G_DEFINE_FINAL_TYPE (QmPreferencesWindow, qm_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

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

/* A label only: any short non-empty text is fine; an invalid one is
 * marked and the last good one kept. */
static void
short_text_changed (GtkEditable         *row,
                    QmPreferencesWindow *self)
{
  const char *key = g_object_get_data (G_OBJECT (row), "qm-settings-key");
  g_autofree char *trimmed = g_strstrip (g_strdup (gtk_editable_get_text (row)));
  gboolean valid = trimmed[0] != '\0' && g_utf8_strlen (trimmed, -1) <= 6;

  if (valid)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
      g_settings_set_string (self->settings, key, trimmed);
    }
  else
    gtk_widget_add_css_class (GTK_WIDGET (row), "error");
}

static void
bind (QmPreferencesWindow *self,
      guint                i)
{
  GtkWidget *widget = self->bound[i];
  const char *key = bindings[i].key;

  switch (bindings[i].kind)
    {
    case BIND_TEXT:
      {
        g_autofree char *text = g_settings_get_string (self->settings, key);

        gtk_editable_set_text (GTK_EDITABLE (widget), text);
        g_object_set_data (G_OBJECT (widget), "qm-settings-key", (gpointer) key);
        g_signal_connect (widget, "changed", G_CALLBACK (short_text_changed), self);
      }
      break;
    case BIND_CHOICE:
      g_settings_bind_with_mapping (self->settings, key, widget, "selected", G_SETTINGS_BIND_DEFAULT,
                                    choice_get, choice_set, (gpointer) bindings[i].choices, NULL);
      break;
    case BIND_VALUE:
    default:
      g_settings_bind (self->settings, key, widget, "value", G_SETTINGS_BIND_DEFAULT);
      /* A spin button says nothing by itself: name it after its row. */
      qm_a11y_label_from_row (widget);
      break;
    }
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
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    gtk_widget_class_bind_template_child_full (widget_class, bindings[i].id, FALSE,
                                               G_STRUCT_OFFSET (QmPreferencesWindow, bound) +
                                               i * sizeof (GtkWidget *));
}

static void
qm_preferences_window_init (QmPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    bind (self, i);
}

QmPreferencesWindow *
qm_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (QM_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
}
