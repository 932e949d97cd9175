/* qm-preferences-window.c: defaults for new plans and display units, kept
 * in GSettings, and where plans are kept: this computer or a team server
 * (its password in the keyring, qm-team-connection.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-a11y.h"
#include "qm-application.h"
#include "qm-gtk.h"
#include "qm-preferences-window.h"
#include "qm-team-connection.h"

/* Every row of the window is bound to one GSettings key, declared once
 * in bindings[]: the template child, its key and how it is bound. */
typedef enum
{
  BIND_TEXT,    /* a GtkEntry holding a short label */
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
  { "price_age_spin", "price-max-age-months", BIND_VALUE },
  { "paper_size_row", "paper-size", BIND_CHOICE, paper_sizes },
};

struct _QmPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  GtkWidget            *bound[G_N_ELEMENTS (bindings)];

  /* Team Database */
  AdwComboRow          *database_row;
  AdwEntryRow          *server_uri_row;
  AdwEntryRow          *server_user_row;
  AdwPasswordEntryRow  *server_password_row;
  AdwActionRow         *server_status_row;
  GtkWidget            *connect_button;
  GtkSpinner           *connect_spinner;
  GCancellable         *connecting;
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
        qm_a11y_label_from_row (widget);
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

/* ------------------------------------------------------------------ */
/* Team Database                                                       */

enum { DATABASE_LOCAL, DATABASE_SERVER };

static gboolean
database_is_server (QmPreferencesWindow *self)
{
  g_autofree char *mode = g_settings_get_string (self->settings, "database");

  return g_str_equal (mode, "server");
}

static void
set_status (QmPreferencesWindow *self,
            const char          *text,
            gboolean             failed)
{
  adw_action_row_set_subtitle (self->server_status_row, text);
  if (failed)
    gtk_widget_add_css_class (GTK_WIDGET (self->server_status_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->server_status_row), "error");
}

static void
show_server_rows (QmPreferencesWindow *self)
{
  gboolean server = adw_combo_row_get_selected (self->database_row) == DATABASE_SERVER;

  gtk_widget_set_visible (GTK_WIDGET (self->server_uri_row), server);
  gtk_widget_set_visible (GTK_WIDGET (self->server_user_row), server);
  gtk_widget_set_visible (GTK_WIDGET (self->server_password_row), server);
  gtk_widget_set_visible (self->connect_button, server);
}

/* The app's windows move to @store (NULL: the file on this computer),
 * and this window stays over the new one. Without a QmApplication (the
 * tests) only the settings change. */
static void
use_store (QmPreferencesWindow *self,
           QmStore             *store)
{
  GApplication *app = g_application_get_default ();
  GtkWindow *window;

  if (!QM_IS_APPLICATION (app))
    {
      g_clear_pointer (&store, qm_store_free);
      return;
    }
  /* The window this one is over goes: stay, and move over the new one. */
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), FALSE);
  g_object_ref (self);
  window = qm_application_use_store (QM_APPLICATION (app), store);
  if (window != NULL)
    gtk_window_set_transient_for (GTK_WINDOW (self), window);
  g_object_unref (self);
}

static void
connect_busy (QmPreferencesWindow *self,
              gboolean             busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->connect_spinner), busy);
  gtk_spinner_set_spinning (self->connect_spinner, busy);
  gtk_widget_set_sensitive (self->connect_button, !busy);
}

static void
connected (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_team_connect_finish (result, &error);
  QmPreferencesWindow *self;
  g_autofree char *uri = NULL;
  g_autofree char *user = NULL;
  g_autofree char *label = NULL;
  g_autofree char *text = NULL;
  const char *password;

  /* The window closed while libpq was waiting. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = QM_PREFERENCES_WINDOW (user_data);
  connect_busy (self, FALSE);
  if (store == NULL)
    {
      set_status (self, error->message, TRUE);
      return;
    }

  uri = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->server_uri_row))));
  user = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->server_user_row))));
  password = gtk_editable_get_text (GTK_EDITABLE (self->server_password_row));
  /* An empty field used the password already kept (or none). */
  if (password[0] != '\0' && !qm_team_password_store (uri, user, password, &error))
    {
      qm_store_free (store);
      set_status (self, error->message, TRUE);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->server_password_row), "");
  g_settings_set_string (self->settings, "server-uri", uri);
  g_settings_set_string (self->settings, "server-user", user);
  g_settings_set_string (self->settings, "database", "server");

  label = qm_team_server_label (uri);
  /* Translators: a server and database ("db.example.com/quartermaster"),
   * a user name, and the schema version number. */
  text = g_strdup_printf (_("Connected to %s as %s (schema version %d). Plans are kept there now."),
                          label, user[0] != '\0' ? user : g_get_user_name (),
                          qm_store_schema_version (store));
  set_status (self, text, FALSE);
  use_store (self, store);
}

static void
connect_clicked (QmPreferencesWindow *self)
{
  g_autofree char *uri = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->server_uri_row))));
  g_autofree char *user = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->server_user_row))));
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->server_password_row));
  g_autoptr(GError) error = NULL;
  g_autofree char *label = NULL;
  g_autofree char *text = NULL;
  char *kept = NULL;

  if (!qm_team_check_uri (uri, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->server_uri_row), "error");
      set_status (self, error->message, TRUE);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->server_uri_row), "error");
  if (typed[0] == '\0')
    {
      kept = qm_team_password_lookup (uri, user, &error);
      if (error != NULL)
        {
          set_status (self, error->message, TRUE);
          return;
        }
    }

  label = qm_team_server_label (uri);
  /* Translators: a server and database, "db.example.com/quartermaster". */
  text = g_strdup_printf (_("Connecting to %s…"), label);
  set_status (self, text, FALSE);
  connect_busy (self, TRUE);
  qm_team_connect_async (uri, user, typed[0] != '\0' ? typed : kept, self->connecting, connected, self);
  qm_team_password_free (kept);
}

static void
database_selected (QmPreferencesWindow *self)
{
  show_server_rows (self);
  if (adw_combo_row_get_selected (self->database_row) == DATABASE_SERVER)
    {
      set_status (self, _("Type the server's address, your user name and password, then Connect."), FALSE);
      return;
    }
  if (!database_is_server (self))
    return;
  g_settings_set_string (self->settings, "database", "local");
  set_status (self, _("Plans are kept on this computer."), FALSE);
  use_store (self, NULL);
}

static void
team_init (QmPreferencesWindow *self)
{
  g_autofree char *uri = g_settings_get_string (self->settings, "server-uri");
  g_autofree char *user = g_settings_get_string (self->settings, "server-user");
  GApplication *app = g_application_get_default ();
  const char *state = QM_IS_APPLICATION (app)
                      ? qm_application_get_store_state (QM_APPLICATION (app)) : NULL;

  self->connecting = g_cancellable_new ();
  gtk_editable_set_text (GTK_EDITABLE (self->server_uri_row), uri);
  gtk_editable_set_text (GTK_EDITABLE (self->server_user_row), user);
  adw_combo_row_set_selected (self->database_row, database_is_server (self) ? DATABASE_SERVER : DATABASE_LOCAL);
  show_server_rows (self);
  set_status (self, state != NULL ? state : _("Plans are kept on this computer."), FALSE);
  g_signal_connect_swapped (self->database_row, "notify::selected", G_CALLBACK (database_selected), self);
  g_signal_connect_swapped (self->connect_button, "clicked", G_CALLBACK (connect_clicked), self);
}

/* AdwPreferencesWindow's own search entry has no name of its own: a
 * screen reader said "GtkSearchEntry" (found by test-a11y-atspi). */
static void
name_search_entry (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_SEARCH_ENTRY (c))
        qm_a11y_label (c, _("Search preferences"));
      name_search_entry (c);
    }
}

static void
qm_preferences_window_dispose (GObject *object)
{
  QmPreferencesWindow *self = QM_PREFERENCES_WINDOW (object);

  /* A connection still being tried reports to nobody. */
  if (self->connecting != NULL)
    g_cancellable_cancel (self->connecting);
  g_clear_object (&self->connecting);
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

  qm_gtk_class_set_template (widget_class, "qm-preferences-window.ui");
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    gtk_widget_class_bind_template_child_full (widget_class, bindings[i].id, FALSE,
                                               G_STRUCT_OFFSET (QmPreferencesWindow, bound) +
                                               i * sizeof (GtkWidget *));
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, database_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, server_uri_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, server_user_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, server_password_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, server_status_row);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, connect_button);
  gtk_widget_class_bind_template_child (widget_class, QmPreferencesWindow, connect_spinner);
}

static void
qm_preferences_window_init (QmPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    bind (self, i);
  team_init (self);
  name_search_entry (GTK_WIDGET (self));
}

QmPreferencesWindow *
qm_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (QM_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
}
