/* test-welcome-window.c: the first-run welcome shows once; Skip sets the
 * GSettings key; Open an Example Plan opens a plan in the plan view.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-test-ui.h"
#include "qm-welcome-window.h"
#include "qm-window.h"

typedef struct
{
  char      *dir;
  QmStore   *store;
  QmWindow  *window;
  GSettings *settings;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *db = NULL;

  f->dir = g_dir_make_tmp ("qm-welcome-XXXXXX", &error);
  g_assert_no_error (error);
  db = g_build_filename (f->dir, "plans.db", NULL);
  f->store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  f->settings = g_settings_new (APPLICATION_ID);
  g_settings_reset (f->settings, "first-run-done");
  f->window = qm_window_new_with_store (NULL, f->store);
  gtk_window_present (GTK_WINDOW (f->window));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_pointer (&f->store, qm_store_free);
  g_clear_object (&f->settings);
  g_free (f->dir);
}

static void
test_shown_once (Fixture       *f,
                 gconstpointer  data)
{
  QmWelcomeWindow *welcome;
  GObject *weak;

  g_assert_false (g_settings_get_boolean (f->settings, "first-run-done"));
  welcome = qm_welcome_maybe_show (f->window);
  g_assert_nonnull (welcome);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (welcome)));
  weak = G_OBJECT (welcome);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);

  qm_test_screenshot (GTK_WIDGET (welcome), "welcome-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (welcome), "welcome-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* Skip closes it and marks the first run as done. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (welcome), "welcome.skip", NULL));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  g_assert_true (g_settings_get_boolean (f->settings, "first-run-done"));

  /* Not shown again. */
  g_assert_null (qm_welcome_maybe_show (f->window));
}

static void
test_pages (Fixture       *f,
            gconstpointer  data)
{
  QmWelcomeWindow *welcome = qm_welcome_maybe_show (f->window);
  AdwCarousel *carousel = NULL;
  gint64 end;

  g_assert_nonnull (welcome);
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (welcome)); w != NULL && carousel == NULL;)
    {
      if (ADW_IS_CAROUSEL (w))
        carousel = ADW_CAROUSEL (w);
      else if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != NULL && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          if (w != NULL)
            w = gtk_widget_get_next_sibling (w);
        }
    }
  g_assert_nonnull (carousel);
  g_assert_cmpuint (adw_carousel_get_n_pages (carousel), ==, 3);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (welcome));

  /* Next walks through the pages; the last offers the example. */
  for (guint i = 1; i < 3; i++)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (welcome), "welcome.next", NULL));
      end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
      while (adw_carousel_get_position (carousel) < i - 0.01 && g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, FALSE);
      g_assert_cmpfloat_with_epsilon (adw_carousel_get_position (carousel), i, 0.01);
    }
  qm_test_screenshot (GTK_WIDGET (welcome), "welcome-last-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (welcome), "welcome-last-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* Closing is skipping. */
  gtk_window_close (GTK_WINDOW (welcome));
  g_assert_true (g_settings_get_boolean (f->settings, "first-run-done"));
}

static void
test_open_example (Fixture       *f,
                   gconstpointer  data)
{
  QmWelcomeWindow *welcome = qm_welcome_maybe_show (f->window);
  GObject *weak = G_OBJECT (welcome);

  g_assert_nonnull (welcome);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (welcome), "welcome.open-example", NULL));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  g_assert_true (g_settings_get_boolean (f->settings, "first-run-done"));
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 1);
  g_assert_true (QM_IS_PLAN_VIEW (qm_window_get_detail (f->window)));
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add ("/welcome/shown-once", Fixture, NULL, fixture_set_up, test_shown_once, fixture_tear_down);
  g_test_add ("/welcome/pages", Fixture, NULL, fixture_set_up, test_pages, fixture_tear_down);
  g_test_add ("/welcome/open-example", Fixture, NULL, fixture_set_up, test_open_example, fixture_tear_down);

  return g_test_run ();
}
