/* qm-test-ui.c: helpers for the tests that run real widgets under Xvfb.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "qm-gtk.h"
#include "qm-plan-view.h"
#include "qm-test-ui.h"

gboolean
qm_test_ui_init (int    *argc,
                 char ***argv)
{
  /* Not G_TEST_OPTION_ISOLATE_DIRS: it hides the system GSettings schemas
   * from GTK (docs/toolchain.md, "Isolated test dirs"); meson points HOME and the XDG dirs
   * at a temporary folder instead. */
  g_test_init (argc, argv, NULL);

  if (!gtk_init_check ())
    {
      if (g_getenv ("QM_REQUIRE_DISPLAY") != NULL)
        g_error ("No display: run the UI tests under xvfb-run -a");
      g_print ("1..0 # SKIP no display (run under xvfb-run -a)\n");
      return FALSE;
    }
  adw_init ();
  qm_gtk_ensure_resources ();
  /* Widgets jump to their end state: screenshots show settled layouts, and
   * no allocation happens mid-animation (libadwaita 1.2's AdwFlap can
   * allocate its flap a negative width in the middle of a reveal). */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  return TRUE;
}

/* Whether a plan view under @widget still sweeps its serving charts in
 * its worker (issue 31 item 4): screenshots wait for the whole curves. */
static gboolean
sweeping_in (GtkWidget *widget)
{
  if (QM_IS_PLAN_VIEW (widget) && qm_plan_view_get_sweeping (QM_PLAN_VIEW (widget)))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (sweeping_in (c))
      return TRUE;
  return FALSE;
}

static void
wait_frames (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 400 * G_TIME_SPAN_MILLISECOND;

  /* Let style changes, allocation and libadwaita's cross-fades (about
   * 250 ms) settle, then wait for a paint. */
  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  end = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;
  while (sweeping_in (widget) && g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
}

/* Waking the main loop is all these do: the caller checks the state. */
static void
mapped_cb (GtkWidget *widget,
           gpointer   data)
{
}

static gboolean
deadline_cb (gpointer data)
{
  return G_SOURCE_REMOVE;
}

void
qm_test_screenshot (GtkWidget     *widget,
                    const char    *name,
                    AdwColorScheme scheme)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  const char *build_dir = g_getenv ("QM_BUILD_DIR");
  g_autofree char *dir = g_build_filename (build_dir ? build_dir : ".", "screenshots", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  gint64 end;
  int w, h;

  adw_style_manager_set_color_scheme (manager, scheme);
  /* A dialog presented a moment ago may not be mapped yet on a loaded
   * machine (CI under AddressSanitizer): wait for the event, then for a
   * frame that draws it (issue #34 item 6: "'node' should not be NULL"). */
  if (!gtk_widget_get_mapped (widget))
    {
      g_autoptr(GSource) deadline = g_timeout_source_new_seconds (20);
      gulong id = g_signal_connect (widget, "map", G_CALLBACK (mapped_cb), NULL);

      /* The deadline wakes the loop too. */
      g_source_set_callback (deadline, deadline_cb, NULL, NULL);
      g_source_attach (deadline, NULL);
      end = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;
      while (!gtk_widget_get_mapped (widget) && g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      g_source_destroy (deadline);
      g_signal_handler_disconnect (widget, id);
    }
  g_assert_true (gtk_widget_get_mapped (widget));
  wait_frames (widget);

  w = gtk_widget_get_width (widget);
  h = gtk_widget_get_height (widget);
  g_assert_cmpint (w, >, 0);
  g_assert_cmpint (h, >, 0);

  paintable = gtk_widget_paintable_new (widget);
  for (guint tries = 0; node == NULL && tries < 50; tries++)
    {
      if (tries > 0)
        {
          gtk_widget_queue_draw (widget);
          gtk_test_widget_wait_for_draw (widget);
        }
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, w, h);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (gdk_texture_save_to_png (texture, path));

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

GtkWidget *
qm_test_find (GtkWidget         *root,
              QmTestWidgetMatch  match,
              gconstpointer      data)
{
  if (match (root, data))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = qm_test_find (c, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
match_type (GtkWidget     *widget,
            gconstpointer  data)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (data));
}

GtkWidget *
qm_test_find_type (GtkWidget *root,
                   GType      type)
{
  return qm_test_find (root, match_type, GSIZE_TO_POINTER (type));
}

static gboolean
match_name (GtkWidget     *widget,
            gconstpointer  data)
{
  return g_strcmp0 (gtk_widget_get_name (widget), data) == 0;
}

GtkWidget *
qm_test_find_named (GtkWidget  *root,
                    const char *name)
{
  return qm_test_find (root, match_name, name);
}

static gboolean
match_button (GtkWidget     *widget,
              gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), data) == 0;
}

GtkWidget *
qm_test_find_button (GtkWidget  *root,
                     const char *label)
{
  return qm_test_find (root, match_button, label);
}

static gboolean
match_label (GtkWidget     *widget,
             gconstpointer  data)
{
  if (!gtk_widget_get_mapped (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget))
    return g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), data) == 0;
  if (GTK_IS_INSCRIPTION (widget))
    return g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), data) == 0;
  return FALSE;
}

GtkWidget *
qm_test_find_label (GtkWidget  *root,
                    const char *text)
{
  return qm_test_find (root, match_label, text);
}

GtkWidget *
qm_test_wait_for_label (GtkWidget  *root,
                        const char *text)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GtkWidget *found;

  while ((found = qm_test_find_label (root, text)) == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  return found;
}

void
qm_test_wait_until_null (GObject **pointer)
{
  /* Generous: under AddressSanitizer a window's teardown takes seconds. */
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (*pointer != NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

typedef struct
{
  gint64 start, layout_end, end;
} FrameTimes;

static void
frame_before_paint_cb (GdkFrameClock *clock,
                       FrameTimes    *t)
{
  if (t->start == 0)
    t->start = g_get_monotonic_time ();
}

static void
frame_layout_cb (GdkFrameClock *clock,
                 FrameTimes    *t)
{
  if (t->start != 0 && t->layout_end == 0)
    t->layout_end = g_get_monotonic_time ();
}

static void
frame_after_paint_cb (GdkFrameClock *clock,
                      FrameTimes    *t)
{
  if (t->start != 0 && t->end == 0)
    t->end = g_get_monotonic_time ();
}

double
qm_test_time_next_frame (GtkWidget *widget,
                         double    *layout_ms,
                         double    *paint_ms)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  FrameTimes t = { 0 };
  gint64 deadline = g_get_monotonic_time () + G_USEC_PER_SEC;

  g_assert_nonnull (clock);
  g_signal_connect (clock, "before-paint", G_CALLBACK (frame_before_paint_cb), &t);
  /* After the window's own handler: its layout is done. */
  g_signal_connect_after (clock, "layout", G_CALLBACK (frame_layout_cb), &t);
  g_signal_connect (clock, "after-paint", G_CALLBACK (frame_after_paint_cb), &t);
  gtk_widget_queue_draw (widget);
  while (t.end == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handlers_disconnect_by_data (clock, &t);
  g_assert_cmpint (t.end, !=, 0);
  /* A frame with nothing to lay out runs no layout phase. */
  if (t.layout_end == 0)
    t.layout_end = t.start;

  if (layout_ms != NULL)
    *layout_ms = (t.layout_end - t.start) / 1000.0;
  if (paint_ms != NULL)
    *paint_ms = (t.end - t.layout_end) / 1000.0;
  return (t.end - t.start) / 1000.0;
}
