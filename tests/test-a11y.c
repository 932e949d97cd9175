/* test-a11y.c: every control in every window has an accessible name.
 *
 * Builds the main window on a temporary store, visits each page, opens a
 * plan in the plan view, the comparison, the preferences, the help window,
 * the welcome and the New Plan wizard, and walks each widget tree:
 *
 * - a GtkButton shows a label, or has a tooltip or an accessible label;
 * - a spin button, entry, search entry, switch, drop-down or check button
 *   is named by a label: its row (AdwActionRow:activatable-widget), a
 *   mnemonic label, a LABELLED_BY relation or an explicit accessible label
 *   (set through qm_a11y_*, since GTK 4.8 cannot read these back);
 * - every chart has a description.
 *
 * A failure names each unlabelled control: its type, its id and its
 * nearest labelled ancestor.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "qm-a11y.h"
#include "qm-chart-widget.h"
#include "qm-formulas-window.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-preferences-window.h"
#include "qm-test-ui.h"
#include "qm-welcome-window.h"
#include "qm-window.h"
#include "qm-wizard.h"

typedef struct
{
  GHashTable *seen;      /* widgets already reported */
  GString    *failures;
  guint       n_checked;
} Walk;

static gboolean
has_text (const char *s)
{
  return s != NULL && s[0] != '\0';
}

/* Widgets inside these are GTK's or libadwaita's own parts, named by
 * their owner (the +/− of a spin button, a drop-down's toggle, the window
 * buttons, which GTK labels itself). */
static gboolean
is_internal_part (GtkWidget *widget)
{
  static GType types[6];

  if (types[0] == 0)
    {
      types[0] = GTK_TYPE_SPIN_BUTTON;
      types[1] = GTK_TYPE_DROP_DOWN;
      types[2] = GTK_TYPE_WINDOW_CONTROLS;
      types[3] = GTK_TYPE_MENU_BUTTON;
      types[4] = ADW_TYPE_SPLIT_BUTTON;
      types[5] = GTK_TYPE_POPOVER_MENU;
    }
  for (GtkWidget *p = gtk_widget_get_parent (widget); p != NULL; p = gtk_widget_get_parent (p))
    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      if (G_TYPE_CHECK_INSTANCE_TYPE (p, types[i]))
        return TRUE;
  /* An AdwPreferencesWindow's search entry stays in its title stack when
   * the window turns search off; nobody can reach it. */
  if (GTK_IS_SEARCH_ENTRY (widget) && ADW_IS_PREFERENCES_WINDOW (gtk_widget_get_root (widget)) &&
      !adw_preferences_window_get_search_enabled (ADW_PREFERENCES_WINDOW (gtk_widget_get_root (widget))))
    return TRUE;
  return FALSE;
}

static gboolean
has_accessible_name (GtkWidget *widget)
{
  g_autoptr(GList) mnemonic = NULL;

  if (has_text (qm_a11y_get_label (widget)) || qm_a11y_get_labelled_by (widget) != NULL)
    return TRUE;
  mnemonic = gtk_widget_list_mnemonic_labels (widget);
  if (mnemonic != NULL)
    return TRUE;
  for (GtkWidget *p = gtk_widget_get_parent (widget); p != NULL; p = gtk_widget_get_parent (p))
    if (ADW_IS_ACTION_ROW (p))
      return adw_action_row_get_activatable_widget (ADW_ACTION_ROW (p)) == widget &&
             has_text (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (p)));
  return FALSE;
}

/* A button is named by the text it shows. */
static gboolean
shows_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    return has_text (gtk_label_get_text (GTK_LABEL (widget)));
  if (ADW_IS_BUTTON_CONTENT (widget))
    return has_text (adw_button_content_get_label (ADW_BUTTON_CONTENT (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (shows_text (c))
      return TRUE;
  return FALSE;
}

static gboolean
button_is_named (GtkWidget *button)
{
  if (has_text (gtk_widget_get_tooltip_text (button)) || has_text (gtk_widget_get_tooltip_markup (button)))
    return TRUE;
  if (has_text (qm_a11y_get_label (button)) || qm_a11y_get_labelled_by (button) != NULL)
    return TRUE;
  if (GTK_IS_BUTTON (button) && has_text (gtk_button_get_label (GTK_BUTTON (button))))
    return TRUE;
  return shows_text (button);
}

/* "AdwActionRow “Power per Rack”", for the failure message. */
static char *
describe_place (GtkWidget *widget)
{
  GtkWidget *with_id = NULL;

  for (GtkWidget *p = gtk_widget_get_parent (widget); p != NULL; p = gtk_widget_get_parent (p))
    {
      const char *name = NULL;
      const char *id = gtk_buildable_get_buildable_id (GTK_BUILDABLE (p));

      if (ADW_IS_PREFERENCES_ROW (p))
        name = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (p));
      else if (ADW_IS_PREFERENCES_GROUP (p))
        name = adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (p));
      else if (ADW_IS_PREFERENCES_PAGE (p))
        name = adw_preferences_page_get_title (ADW_PREFERENCES_PAGE (p));
      else if (ADW_IS_STATUS_PAGE (p))
        name = adw_status_page_get_title (ADW_STATUS_PAGE (p));
      else if (qm_a11y_get_label (p) != NULL)
        name = qm_a11y_get_label (p);
      if (has_text (name))
        return g_strdup_printf ("%s “%s”", G_OBJECT_TYPE_NAME (p), name);
      /* Else the nearest ancestor with a template id, not a generated one. */
      if (with_id == NULL && id != NULL && !g_str_has_prefix (id, "___"))
        with_id = p;
    }
  if (with_id != NULL)
    return g_strdup_printf ("%s “%s”", G_OBJECT_TYPE_NAME (with_id),
                            gtk_buildable_get_buildable_id (GTK_BUILDABLE (with_id)));
  return g_strdup ("(no labelled ancestor)");
}

static void
fail (Walk       *walk,
      GtkWidget  *widget,
      const char *why)
{
  g_autofree char *place = NULL;
  const char *id;

  if (!g_hash_table_add (walk->seen, widget))
    return;
  place = describe_place (widget);
  id = gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget));
  g_string_append_printf (walk->failures, "\n  %s%s%s%s %s, in %s of %s",
                          G_OBJECT_TYPE_NAME (widget),
                          id ? " “" : "", id ? id : "", id ? "”" : "",
                          why, place, G_OBJECT_TYPE_NAME (gtk_widget_get_root (widget)));
}

static void
check_widget (Walk      *walk,
              GtkWidget *widget)
{
  if (QM_IS_CHART_WIDGET (widget))
    {
      walk->n_checked++;
      if (!has_text (qm_a11y_get_description (widget)))
        fail (walk, widget, "has no description");
    }
  else if (GTK_IS_SPIN_BUTTON (widget) || GTK_IS_ENTRY (widget) || GTK_IS_SEARCH_ENTRY (widget) ||
           GTK_IS_SWITCH (widget) || GTK_IS_DROP_DOWN (widget))
    {
      walk->n_checked++;
      if (!is_internal_part (widget) && !has_accessible_name (widget))
        fail (walk, widget, "has no accessible name");
    }
  else if (GTK_IS_CHECK_BUTTON (widget))
    {
      walk->n_checked++;
      if (!has_text (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget))) &&
          !has_accessible_name (widget) && !shows_text (widget))
        fail (walk, widget, "has no accessible name");
    }
  else if (GTK_IS_BUTTON (widget))
    {
      walk->n_checked++;
      if (!is_internal_part (widget) && !button_is_named (widget))
        fail (walk, widget, "has no label, tooltip or accessible label");
    }
}

static void
walk_tree (Walk      *walk,
           GtkWidget *widget)
{
  /* Hidden parts (an expander row's unused enable switch, libadwaita's
   * search when a window turns it off) are not there for anyone. Pages of
   * a stack are only child-invisible, so they are still checked. */
  if (!gtk_widget_get_visible (widget))
    return;
  check_widget (walk, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    walk_tree (walk, c);
}

static void
settle (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
}

static void
walk_window (Walk      *walk,
             GtkWidget *window)
{
  settle (window);
  walk_tree (walk, window);
}

static gint64
import_example (QmStore    *store,
                const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;
  gint64 id = qm_plan_store_import_file (store, path, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  return id;
}

static void
test_every_control_is_named (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-a11y-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GError) error = NULL;
  static const char *pages[] = { "plans", "catalog", "compare" };
  Walk walk = { g_hash_table_new (NULL, NULL), g_string_new (NULL), 0 };
  QmStore *store;
  QmWindow *window;
  GtkWidget *other;
  gint64 ids[2];

  /* The welcome is walked on its own below. */
  g_settings_set_boolean (settings, "first-run-done", TRUE);

  store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  ids[0] = import_example (store, "llama-3.1-70b-pretrain-h100.qmplan");
  ids[1] = import_example (store, "7b-pretrain-30-day-deadline.qmplan");

  window = qm_window_new_with_store (NULL, store);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      qm_window_set_page (window, pages[i]);
      walk_window (&walk, GTK_WIDGET (window));
    }

  /* The comparison with plans in it, then a plan in the plan view. */
  qm_window_compare (window, ids, G_N_ELEMENTS (ids));
  walk_window (&walk, GTK_WIDGET (window));
  g_assert_true (qm_window_open_plan (window, ids[0]));
  g_assert_true (QM_IS_PLAN_VIEW (qm_window_get_detail (window)));
  walk_window (&walk, GTK_WIDGET (window));

  other = GTK_WIDGET (qm_preferences_window_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (&walk, other);
  gtk_window_destroy (GTK_WINDOW (other));

  other = GTK_WIDGET (qm_formulas_window_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (&walk, other);
  gtk_window_destroy (GTK_WINDOW (other));

  other = GTK_WIDGET (qm_welcome_window_new (window));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (&walk, other);
  gtk_window_destroy (GTK_WINDOW (other));

  other = GTK_WIDGET (qm_wizard_new (GTK_WINDOW (window), store));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (&walk, other);
  gtk_window_destroy (GTK_WINDOW (other));

  gtk_window_destroy (GTK_WINDOW (window));
  {
    gint64 end = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;
    while (g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, FALSE);
  }
  qm_store_free (store);

  g_test_message ("%u controls checked", walk.n_checked);
  g_assert_cmpuint (walk.n_checked, >, 50);
  if (walk.failures->len > 0)
    g_error ("Unlabelled controls:%s", walk.failures->str);

  g_hash_table_unref (walk.seen);
  g_string_free (walk.failures, TRUE);
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/a11y/every-control-is-named", test_every_control_is_named);

  return g_test_run ();
}
