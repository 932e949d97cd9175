/* test-preferences-window.c: every preference is stored in GSettings, and
 * each spin button is named after its row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "qm-a11y.h"
#include "qm-preferences-window.h"
#include "qm-price-age.h"
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

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/preferences-window/settings", test_settings);

  return g_test_run ();
}
