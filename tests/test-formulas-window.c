/* test-formulas-window.c: the Assumptions and Formulas window lists every
 * entry of the formulas table (the one the PDF prints), and the main
 * window's help action and F1 open it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "qm-formulas.h"
#include "qm-formulas-window.h"
#include "qm-test-ui.h"
#include "qm-window.h"

static void
collect_labels (GtkWidget *widget,
                GString   *text)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, text);
}

static void
test_lists_every_formula (void)
{
  QmFormulasWindow *window = qm_formulas_window_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  const QmFormula *formulas;
  GObject *weak = G_OBJECT (window);
  guint n;

  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_window_present (GTK_WINDOW (window));
  collect_labels (GTK_WIDGET (window), text);

  formulas = qm_formulas (&n);
  g_assert_cmpuint (n, >=, 20);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *source = g_strdup_printf ("Source: %s", formulas[i].source);

      g_assert_nonnull (qm_formula_find (formulas[i].id));
      g_assert_true (qm_formula_find (formulas[i].id) == &formulas[i]);
      g_assert_nonnull (strstr (text->str, formulas[i].title));
      g_assert_nonnull (strstr (text->str, formulas[i].formula));
      g_assert_nonnull (strstr (text->str, source));
    }
  g_assert_null (qm_formula_find ("no-such-formula"));

  gtk_window_set_default_size (GTK_WINDOW (window), 720, 720);
  qm_test_screenshot (GTK_WIDGET (window), "formulas-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (window), "formulas-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 600);
  qm_test_screenshot (GTK_WIDGET (window), "formulas-narrow-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  gtk_window_destroy (GTK_WINDOW (window));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
}

static gboolean
formulas_window_shown (void)
{
  gboolean shown = FALSE;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (QM_IS_FORMULAS_WINDOW (l->data))
      {
        shown = TRUE;
        gtk_window_destroy (GTK_WINDOW (l->data));
      }
  return shown;
}

static void
test_help_action (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  QmWindow *window;

  g_settings_set_boolean (settings, "first-run-done", TRUE);
  window = qm_window_new_with_store (NULL, NULL);
  gtk_window_present (GTK_WINDOW (window));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-formulas", NULL));
  g_assert_true (formulas_window_shown ());

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The shortcuts window builds and lists the help key. */
static void
test_help_overlay (void)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/quartermaster/Quartermaster/help-overlay.ui");
  GObject *overlay = gtk_builder_get_object (builder, "help_overlay");
  gboolean f1 = FALSE;
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);

  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accel = NULL;

        g_object_get (l->data, "accelerator", &accel, NULL);
        f1 |= g_strcmp0 (accel, "F1") == 0;
      }
  g_assert_true (f1);
  gtk_window_destroy (GTK_WINDOW (overlay));
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/formulas-window/lists-every-formula", test_lists_every_formula);
  g_test_add_func ("/formulas-window/help-action", test_help_action);
  g_test_add_func ("/formulas-window/help-overlay", test_help_overlay);

  return g_test_run ();
}
