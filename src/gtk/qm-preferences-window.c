/* qm-preferences-window.c: defaults for new plans and display units, kept
 * in GSettings, and where plans are kept: this computer or a team server
 * (its password in the keyring, qm-team-connection.h). The Supplier page
 * edits the letterhead and bank details every quote prints, kept in the
 * store, so a team shares them (qm-supplier-store.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-a11y.h"
#include "qm-application.h"
#include "qm-gtk.h"
#include "qm-preferences-window.h"
#include "qm-supplier-store.h"
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

  /* Supplier (issue #35 item 2): a row per qm_supplier_fields[] entry,
   * a GtkEntry, or for the address a GtkTextView. */
  QmStore              *store;
  GtkWidget            *supplier_page;
  GtkWidget            *supplier_field[16];
  GtkWidget            *supplier_save;
  gboolean              supplier_loading;
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
  /* The supplier details are the new store's. */
  qm_preferences_window_set_store (self, qm_application_get_store (QM_APPLICATION (app)));
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

/* ------------------------------------------------------------------ */
/* Supplier (issue #35 item 2)                                         */

static gboolean
is_address (guint i)
{
  return g_str_equal (qm_supplier_fields[i].key, "address");
}

static gboolean
is_bank (guint i)
{
  static const char *const bank[] = { "bank", "iban", "bic", NULL };

  return g_strv_contains (bank, qm_supplier_fields[i].key);
}

static char *
supplier_field_text (QmPreferencesWindow *self,
                     guint                i)
{
  GtkWidget *w = self->supplier_field[i];

  if (GTK_IS_TEXT_VIEW (w))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (w));
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      return g_strstrip (gtk_text_buffer_get_text (buffer, &start, &end, FALSE));
    }
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (w))));
}

static void
supplier_set_field_text (QmPreferencesWindow *self,
                         guint                i,
                         const char          *text)
{
  GtkWidget *w = self->supplier_field[i];

  if (GTK_IS_TEXT_VIEW (w))
    gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (w)), text, -1);
  else
    gtk_editable_set_text (GTK_EDITABLE (w), text);
}

static void
supplier_changed (QmPreferencesWindow *self)
{
  if (!self->supplier_loading)
    gtk_widget_set_sensitive (self->supplier_save, TRUE);
}

/* The store's supplier into the rows; the page shows only with a store. */
static void
supplier_load (QmPreferencesWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSupplier) supplier = NULL;

  gtk_widget_set_visible (self->supplier_page, self->store != NULL);
  if (self->store == NULL)
    return;
  supplier = qm_supplier_store_get (self->store, &error);
  if (supplier == NULL)
    {
      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (error->message));
      return;
    }
  self->supplier_loading = TRUE;
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    supplier_set_field_text (self, i, QM_SUPPLIER_FIELD (supplier, &qm_supplier_fields[i]));
  self->supplier_loading = FALSE;
  gtk_widget_set_sensitive (self->supplier_save, FALSE);
}

/* Writes the rows to the store. On the main thread, as every store write
 * of the app is (a QmStore's connection is used by one thread): one small
 * row. FALSE, with a toast saying why, when it could not be written (a
 * viewer's role, a server gone). */
static gboolean
supplier_save (QmPreferencesWindow *self)
{
  g_autoptr(QmSupplier) supplier = qm_supplier_new ();
  g_autoptr(GError) error = NULL;

  if (self->store == NULL)
    return TRUE;
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      char **field = &QM_SUPPLIER_FIELD (supplier, &qm_supplier_fields[i]);

      g_free (*field);
      *field = supplier_field_text (self, i);
    }
  if (!qm_supplier_store_set (self->store, supplier, &error))
    {
      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (error->message));
      return FALSE;
    }
  gtk_widget_set_sensitive (self->supplier_save, FALSE);
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self),
                                    adw_toast_new (_("Supplier details saved")));
  return TRUE;
}

/* Unsaved supplier details are saved when the window closes; it stays
 * open when they cannot be. */
static gboolean
supplier_close_request (QmPreferencesWindow *self)
{
  if (self->store != NULL && gtk_widget_get_sensitive (self->supplier_save))
    return !supplier_save (self);
  return FALSE;
}

static GtkWidget *
supplier_address_row (QmPreferencesWindow *self,
                      guint                i)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new (_(qm_supplier_fields[i].label));
  GtkWidget *view = gtk_text_view_new ();
  GtkWidget *row;

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0);
  gtk_widget_add_css_class (title, "caption");
  gtk_widget_add_css_class (title, "dim-label");
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (view), FALSE);
  gtk_widget_set_size_request (view, -1, 80);
  gtk_widget_add_css_class (view, "inline");
  qm_a11y_label (view, _(qm_supplier_fields[i].label));
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), view);
  self->supplier_field[i] = view;
  g_signal_connect_swapped (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), "changed",
                            G_CALLBACK (supplier_changed), self);
  /* A preferences row, so it sits in the group's list in its order (and
   * the window's search finds it by its title). */
  row = adw_preferences_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(qm_supplier_fields[i].label));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

/* A page of its own, built here rather than in the template: name,
 * address, VAT id, registration and contact as the letterhead, then the
 * bank details, one row per field, and Save. */
static void
supplier_init (QmPreferencesWindow *self)
{
  AdwPreferencesPage *page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  AdwPreferencesGroup *groups[2];

  g_assert (qm_supplier_n_fields <= G_N_ELEMENTS (self->supplier_field));
  adw_preferences_page_set_title (page, _("Supplier"));
  adw_preferences_page_set_icon_name (page, "x-office-address-book-symbolic");
  groups[0] = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (groups[0], _("Letterhead"));
  adw_preferences_group_set_description (groups[0],
                                         _("Printed at the top of every quote, its workbook and its CSV. "
                                           "On a team database every member's quotes use these."));
  groups[1] = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (groups[1], _("Bank Details"));
  adw_preferences_group_set_description (groups[1], _("Printed with the payment terms."));

  self->supplier_save = gtk_button_new_with_label (_("Save"));
  gtk_widget_add_css_class (self->supplier_save, "suggested-action");
  gtk_widget_set_valign (self->supplier_save, GTK_ALIGN_CENTER);
  gtk_widget_set_sensitive (self->supplier_save, FALSE);
  gtk_widget_set_tooltip_text (self->supplier_save, _("Save the supplier details to the database"));
  g_signal_connect_swapped (self->supplier_save, "clicked", G_CALLBACK (supplier_save), self);
  adw_preferences_group_set_header_suffix (groups[0], self->supplier_save);

  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      GtkWidget *row;

      if (is_address (i))
        row = supplier_address_row (self, i);
      else
        {
          /* An entry in an action row, not an AdwEntryRow: its GtkText has
           * no role in GTK 4.8 and its focus is silent (issue #37 item 6,
           * as the Currency Symbol row). */
          GtkWidget *entry = gtk_entry_new ();

          row = adw_action_row_new ();
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(qm_supplier_fields[i].label));
          gtk_widget_set_valign (entry, GTK_ALIGN_CENTER);
          gtk_widget_set_hexpand (entry, TRUE);
          gtk_editable_set_width_chars (GTK_EDITABLE (entry), 12);
          adw_action_row_add_suffix (ADW_ACTION_ROW (row), entry);
          adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), entry);
          self->supplier_field[i] = entry;
          g_signal_connect_swapped (entry, "changed", G_CALLBACK (supplier_changed), self);
          qm_a11y_label_from_row (entry);
        }
      adw_preferences_group_add (groups[is_bank (i)], row);
    }
  adw_preferences_page_add (page, groups[0]);
  adw_preferences_page_add (page, groups[1]);
  self->supplier_page = GTK_WIDGET (page);
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), page);
  g_signal_connect_swapped (self, "close-request", G_CALLBACK (supplier_close_request), self);
}

void
qm_preferences_window_set_store (QmPreferencesWindow *self,
                                 QmStore             *store)
{
  g_return_if_fail (QM_IS_PREFERENCES_WINDOW (self));

  if (store == self->store)
    return;
  g_clear_pointer (&self->store, qm_store_unref);
  if (store != NULL)
    self->store = qm_store_ref (store);
  supplier_load (self);
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
  g_clear_pointer (&self->store, qm_store_unref);
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
  supplier_init (self);
  {
    GApplication *app = g_application_get_default ();

    qm_preferences_window_set_store (self, QM_IS_APPLICATION (app)
                                           ? qm_application_get_store (QM_APPLICATION (app)) : NULL);
  }
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
