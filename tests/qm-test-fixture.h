/* qm-test-fixture.h: a temporary store for UI tests, the example plans,
 * and showing a widget in a window and closing it without leaks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "qm-plan.h"
#include "qm-store.h"
#include "qm-test-ui.h"

G_BEGIN_DECLS

typedef struct
{
  char    *dir;
  QmStore *store;
} Fixture;

static inline void
load_example (const char *name,
              QmPlan     *plan)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_load_from_file (plan, path, NULL, &error));
  g_assert_no_error (error);
}

static inline void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *db = NULL;

  f->dir = g_dir_make_tmp ("qm-test-XXXXXX", &error);
  g_assert_no_error (error);
  db = g_build_filename (f->dir, "test.db", NULL);
  f->store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
}

static inline void
remove_tree (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_remove (child);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}

static inline void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_pointer (&f->store, qm_store_free);
  remove_tree (f->dir);
  g_free (f->dir);
}

static inline GtkWindow *
show_view (GtkWidget *view,
           int        width,
           int        height)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, width, height);
  gtk_window_set_child (window, view);
  gtk_window_present (window);
  return window;
}

static inline void
close_window (GtkWindow *window)
{
  GObject *weak = G_OBJECT (window);

  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_window_destroy (window);
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
}

G_END_DECLS
