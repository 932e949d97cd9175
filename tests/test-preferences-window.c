/* test-preferences-window.c: every preference is stored in GSettings, and
 * each spin button is named after its row; the supplier details are
 * stored in the database (issue #35 item 2).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "qm-a11y.h"
#include "qm-preferences-window.h"
#include "qm-price-age.h"
#include "qm-supplier-store.h"
#include "qm-test-ui.h"

static GtkWidget *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_PREFERENCES_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_row (c, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_settings (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  QmPreferencesWindow *prefs = qm_preferences_window_new (NULL);
  GObject *weak = G_OBJECT (prefs);
  GtkWidget *row, *spin;

  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  /* Tall enough to show every group. */
  gtk_window_set_default_size (GTK_WINDOW (prefs), 560, 1180);
  gtk_window_present (GTK_WINDOW (prefs));
  qm_test_screenshot (GTK_WIDGET (prefs), "preferences-window-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (prefs), "preferences-window-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_set_default_size (GTK_WINDOW (prefs), 360, 640);
  qm_test_screenshot (GTK_WIDGET (prefs), "preferences-window-narrow-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  row = find_row (GTK_WIDGET (prefs), "Failure Rate");
  g_assert_true (ADW_IS_COMBO_ROW (row));
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  {
    g_autofree char *value = g_settings_get_string (settings, "default-failure-preset");
    g_assert_cmpstr (value, ==, "research-cluster");
  }

  row = find_row (GTK_WIDGET (prefs), "Buy or Rent");
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  {
    g_autofree char *value = g_settings_get_string (settings, "default-pricing-mode");
    g_assert_cmpstr (value, ==, "rent");
  }

  row = find_row (GTK_WIDGET (prefs), "Paper Size");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, 0);
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 2);
  {
    g_autofree char *value = g_settings_get_string (settings, "paper-size");
    g_assert_cmpstr (value, ==, "letter");
  }

  row = find_row (GTK_WIDGET (prefs), "Memory Units");
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  {
    g_autofree char *value = g_settings_get_string (settings, "memory-units");
    g_assert_cmpstr (value, ==, "gib");
  }

  row = find_row (GTK_WIDGET (prefs), "Amortisation Period");
  spin = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, 4.0);
  g_assert_cmpstr (qm_a11y_get_label (spin), ==, "Amortisation Period");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 5.5);
  g_assert_cmpfloat (g_settings_get_double (settings, "default-amortization-years"), ==, 5.5);

  /* An entry in an action row (issue #37 item 6). */
  row = find_row (GTK_WIDGET (prefs), "Currency Symbol");
  g_assert_true (ADW_IS_ACTION_ROW (row));
  row = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
  g_assert_true (GTK_IS_ENTRY (row));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "$");
  gtk_editable_set_text (GTK_EDITABLE (row), "€");
  {
    g_autofree char *value = g_settings_get_string (settings, "currency-symbol");
    g_assert_cmpstr (value, ==, "€");
  }
  /* Too long: marked, and the last good one kept. */
  gtk_editable_set_text (GTK_EDITABLE (row), "euros and cents");
  g_assert_true (gtk_widget_has_css_class (row, "error"));
  {
    g_autofree char *value = g_settings_get_string (settings, "currency-symbol");
    g_assert_cmpstr (value, ==, "€");
  }

  row = find_row (GTK_WIDGET (prefs), "Power Usage Effectiveness");
  spin = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
  g_assert_cmpstr (qm_a11y_get_label (spin), ==, "Power Usage Effectiveness");

  /* The age past which prices are called old (issue #35 item 6): the
   * schema's default and range are the core's, and the spin button in
   * its row sets it. */
  {
    g_autoptr(GSettingsSchema) schema = NULL;
    g_autoptr(GSettingsSchemaKey) key = NULL;
    g_autoptr(GVariant) low = g_variant_ref_sink (g_variant_new_int32 (QM_PRICE_MAX_AGE_MONTHS_MIN));
    g_autoptr(GVariant) high = g_variant_ref_sink (g_variant_new_int32 (QM_PRICE_MAX_AGE_MONTHS_MAX));
    g_autoptr(GVariant) below = g_variant_ref_sink (g_variant_new_int32 (QM_PRICE_MAX_AGE_MONTHS_MIN - 1));
    g_autoptr(GVariant) above = g_variant_ref_sink (g_variant_new_int32 (QM_PRICE_MAX_AGE_MONTHS_MAX + 1));

    g_object_get (settings, "settings-schema", &schema, NULL);
    key = g_settings_schema_get_key (schema, "price-max-age-months");
    g_assert_true (g_settings_schema_key_range_check (key, low));
    g_assert_true (g_settings_schema_key_range_check (key, high));
    g_assert_false (g_settings_schema_key_range_check (key, below));
    g_assert_false (g_settings_schema_key_range_check (key, above));
  }
  g_assert_cmpint (g_settings_get_int (settings, "price-max-age-months"), ==, QM_PRICE_MAX_AGE_MONTHS_DEFAULT);
  row = find_row (GTK_WIDGET (prefs), "Price Age Limit");
  g_assert_true (ADW_IS_ACTION_ROW (row));
  spin = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  g_assert_cmpstr (qm_a11y_get_label (spin), ==, "Price Age Limit");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, 6.0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 12);
  g_assert_cmpint (g_settings_get_int (settings, "price-max-age-months"), ==, 12);
  /* Below the range: the spin button keeps it at the schema's minimum. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0);
  g_assert_cmpint (g_settings_get_int (settings, "price-max-age-months"), ==, QM_PRICE_MAX_AGE_MONTHS_MIN);
  g_settings_set_int (settings, "price-max-age-months", 24);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, 24.0);
  g_settings_reset (settings, "price-max-age-months");


  gtk_window_destroy (GTK_WINDOW (prefs));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
}

/* The first GtkTextView under @widget. */
static GtkWidget *
find_text_view (GtkWidget *widget)
{
  if (GTK_IS_TEXT_VIEW (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_text_view (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The entry of the Supplier page's row @title, named after its row. */
static GtkWidget *
supplier_entry (GtkWidget  *prefs,
                const char *title)
{
  GtkWidget *row = find_row (prefs, title), *entry;

  if (row == NULL)
    g_error ("no row '%s' on the Supplier page", title);
  g_assert_true (ADW_IS_ACTION_ROW (row));
  entry = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
  g_assert_true (GTK_IS_ENTRY (entry));
  g_assert_cmpstr (qm_a11y_get_label (entry), ==, title);
  return entry;
}

static void
type_into (GtkWidget  *prefs,
           const char *title,
           const char *text)
{
  GtkWidget *entry = supplier_entry (prefs, title);

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

/* The Supplier page: empty on a new database; each field typed is saved
 * to the store by Save (and by closing the window), the address with its
 * lines; a new window shows them again; a field emptied is emptied in the
 * store. */
static void
test_supplier (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-prefs-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "q.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = qm_store_open (path, &error);
  g_autoptr(QmSupplier) saved = NULL, closed = NULL;
  QmPreferencesWindow *prefs;
  GObject *weak;
  GtkWidget *address, *save, *row;
  GtkTextIter start, end;
  g_autofree char *shown = NULL;

  g_assert_no_error (error);
  prefs = qm_preferences_window_new (NULL);
  weak = G_OBJECT (prefs);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  qm_preferences_window_set_store (prefs, store);
  gtk_window_set_default_size (GTK_WINDOW (prefs), 560, 1000);
  gtk_window_present (GTK_WINDOW (prefs));

  row = supplier_entry (GTK_WIDGET (prefs), "Company name");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "");
  type_into (GTK_WIDGET (prefs), "Company name", "Grüne Rechenwerke GmbH");
  type_into (GTK_WIDGET (prefs), "VAT ID", "DE811907980");
  type_into (GTK_WIDGET (prefs), "Company registration", "HRB 123456 B, Amtsgericht Charlottenburg");
  type_into (GTK_WIDGET (prefs), "E-mail", "angebote@gruene-rechenwerke.example");
  type_into (GTK_WIDGET (prefs), "Phone", "+49 30 1234567");
  type_into (GTK_WIDGET (prefs), "Bank", "Berliner Sparkasse");
  type_into (GTK_WIDGET (prefs), "IBAN", "DE89 3704 0044 0532 0130 00");
  type_into (GTK_WIDGET (prefs), "BIC / SWIFT", "BELADEBEXXX");
  address = find_text_view (GTK_WIDGET (prefs));
  g_assert_nonnull (address);
  g_assert_cmpstr (qm_a11y_get_label (address), ==, "Address");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (address)),
                            "Musterstraße 1\n10115 Berlin\nGermany\n", -1);

  /* Nothing is written until Save. */
  saved = qm_supplier_store_get (store, &error);
  g_assert_true (qm_supplier_is_empty (saved));
  g_clear_pointer (&saved, qm_supplier_free);

  {
    GtkWidget *page = gtk_widget_get_ancestor (address, ADW_TYPE_PREFERENCES_PAGE);

    adw_preferences_window_set_visible_page (ADW_PREFERENCES_WINDOW (prefs), ADW_PREFERENCES_PAGE (page));
  }
  qm_test_screenshot (GTK_WIDGET (prefs), "preferences-supplier-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_set_default_size (GTK_WINDOW (prefs), 360, 640);
  qm_test_screenshot (GTK_WIDGET (prefs), "preferences-supplier-narrow-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  save = gtk_widget_get_ancestor (address, ADW_TYPE_PREFERENCES_GROUP);
  g_assert_nonnull (save);
  /* The Save button is the group's header suffix. */
  {
    g_autoptr(GtkWidget) suffix = NULL;

    g_object_get (save, "header-suffix", &suffix, NULL);
    g_assert_true (GTK_IS_BUTTON (suffix));
    g_assert_true (gtk_widget_get_sensitive (suffix));
    g_signal_emit_by_name (suffix, "clicked");
    g_assert_false (gtk_widget_get_sensitive (suffix));
  }
  saved = qm_supplier_store_get (store, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved->name, ==, "Grüne Rechenwerke GmbH");
  g_assert_cmpstr (saved->address, ==, "Musterstraße 1\n10115 Berlin\nGermany");
  g_assert_cmpstr (saved->vat_id, ==, "DE811907980");
  g_assert_cmpstr (saved->registration, ==, "HRB 123456 B, Amtsgericht Charlottenburg");
  g_assert_cmpstr (saved->email, ==, "angebote@gruene-rechenwerke.example");
  g_assert_cmpstr (saved->phone, ==, "+49 30 1234567");
  g_assert_cmpstr (saved->bank, ==, "Berliner Sparkasse");
  g_assert_cmpstr (saved->iban, ==, "DE89 3704 0044 0532 0130 00");
  g_assert_cmpstr (saved->bic, ==, "BELADEBEXXX");

  /* An emptied field, saved by closing the window. */
  type_into (GTK_WIDGET (prefs), "BIC / SWIFT", "");
  gtk_window_close (GTK_WINDOW (prefs));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  closed = qm_supplier_store_get (store, &error);
  g_assert_cmpstr (closed->bic, ==, "");
  g_assert_cmpstr (closed->iban, ==, "DE89 3704 0044 0532 0130 00");

  /* A new window shows what the store has. */
  prefs = qm_preferences_window_new (NULL);
  weak = G_OBJECT (prefs);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  qm_preferences_window_set_store (prefs, store);
  row = supplier_entry (GTK_WIDGET (prefs), "VAT ID");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "DE811907980");
  address = find_text_view (GTK_WIDGET (prefs));
  gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (GTK_TEXT_VIEW (address)), &start, &end);
  shown = gtk_text_buffer_get_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (address)), &start, &end, FALSE);
  g_assert_cmpstr (shown, ==, "Musterstraße 1\n10115 Berlin\nGermany");
  gtk_window_destroy (GTK_WINDOW (prefs));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);

  g_clear_pointer (&store, qm_store_free);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/preferences-window/settings", test_settings);
  g_test_add_func ("/preferences-window/supplier", test_supplier);

  return g_test_run ();
}
