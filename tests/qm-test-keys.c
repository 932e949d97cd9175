/* qm-test-keys.c: real key presses and clicks for the UI tests, through
 * the X server's XTEST extension (see qm-test-keys.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-test-keys.h"

#if defined(QM_TEST_HAVE_X11) && defined(GDK_WINDOWING_X11)
#include <dlfcn.h>
#include <gdk/x11/gdkx.h>
#include <X11/keysym.h>

/* libXtst's three calls we use (X11/extensions/XTest.h, which Debian ships
 * only in libxtst-dev; the library itself comes with every X server). */
typedef int (*FakeKeyFunc)    (Display *dpy, unsigned int keycode, int is_press, unsigned long delay);
typedef int (*FakeButtonFunc) (Display *dpy, unsigned int button, int is_press, unsigned long delay);
typedef int (*FakeMotionFunc) (Display *dpy, int screen, int x, int y, unsigned long delay);

static FakeKeyFunc fake_key;
static FakeButtonFunc fake_button;
static FakeMotionFunc fake_motion;

static Display *
x_display (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  if (!GDK_IS_X11_DISPLAY (display))
    return NULL;
  return gdk_x11_display_get_xdisplay (display);
}

static Window
x_window (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);

  return gdk_x11_surface_get_xid (gtk_native_get_surface (native));
}

/* Counts the releases (key or button) that reach @widget, in the capture
 * phase, before any controller of the app can stop them. */
static gboolean
count_release (GtkEventControllerLegacy *controller,
               GdkEvent                 *event,
               guint                    *count)
{
  GdkEventType type = gdk_event_get_event_type (event);

  if (type == GDK_KEY_RELEASE || type == GDK_BUTTON_RELEASE)
    (*count)++;
  return GDK_EVENT_PROPAGATE;
}

static void
add_counter (GtkWidget *widget,
             guint     *count)
{
  GtkEventController *legacy = gtk_event_controller_legacy_new ();

  gtk_event_controller_set_propagation_phase (legacy, GTK_PHASE_CAPTURE);
  g_signal_connect (legacy, "event", G_CALLBACK (count_release), count);
  gtk_widget_add_controller (widget, legacy);
}

static guint *
release_counter (GtkWidget *widget)
{
  guint *count = g_object_get_data (G_OBJECT (widget), "qm-test-releases");

  if (count == NULL)
    {
      count = g_new0 (guint, 1);
      g_object_set_data_full (G_OBJECT (widget), "qm-test-releases", count, g_free);
      add_counter (widget, count);
    }
  return count;
}

/* A popover shown under @widget (a combo row's list) is a surface of its
 * own, which gets the keys while it is open: it counts into the window's
 * counter too. It goes before the window, which owns the count. */
static void
count_popovers (GtkWidget *widget,
                guint     *count)
{
  if (GTK_IS_POPOVER (widget) && gtk_widget_get_mapped (widget) &&
      g_object_get_data (G_OBJECT (widget), "qm-test-releases-shared") == NULL)
    {
      g_object_set_data (G_OBJECT (widget), "qm-test-releases-shared", count);
      add_counter (widget, count);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    count_popovers (c, count);
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Iterates the main loop until *@count reaches @target; a minute at most,
 * so that a lost event fails the test rather than hanging it. */
static void
wait_count (GtkWidget  *window,
            guint      *count,
            guint       target,
            const char *what)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  /* Only wakes the loop to look at the deadline. */
  guint tick = g_timeout_add (100, wake, NULL);

  while (*count < target)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("%s never arrived", what);
      count_popovers (window, count);
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (tick);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

gboolean
qm_test_keys_init (GtkWindow *window)
{
  Display *dpy = x_display ();
  gint64 deadline;
  guint tick;

  if (dpy == NULL)
    return FALSE;
  if (fake_key == NULL)
    {
      void *lib = dlopen ("libXtst.so.6", RTLD_NOW | RTLD_LOCAL);

      if (lib == NULL)
        return FALSE;
      fake_key = (FakeKeyFunc) dlsym (lib, "XTestFakeKeyEvent");
      fake_button = (FakeButtonFunc) dlsym (lib, "XTestFakeButtonEvent");
      fake_motion = (FakeMotionFunc) dlsym (lib, "XTestFakeMotionEvent");
      if (fake_key == NULL || fake_button == NULL || fake_motion == NULL)
        return FALSE;
    }

  gtk_window_present (window);
  deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  /* The focus-in comes as an event; a timer only wakes the loop to check. */
  tick = g_timeout_add (20, wake, NULL);
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  /* No window manager under Xvfb: give the window the keyboard ourselves. */
  XSetInputFocus (dpy, x_window (GTK_WIDGET (window)), RevertToParent, CurrentTime);
  XSync (dpy, False);
  while (!gtk_window_is_active (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  /* The pointer out of the way: no row shows a hover under it. */
  fake_motion (dpy, -1, DisplayWidth (dpy, DefaultScreen (dpy)) - 1,
               DisplayHeight (dpy, DefaultScreen (dpy)) - 1, 0);
  XSync (dpy, False);
  release_counter (GTK_WIDGET (window));
  /* With XTEST there, a window that never gets the keyboard is a failure,
   * not a reason to skip. */
  if (!gtk_window_is_active (window))
    g_error ("The window never got the keyboard focus");
  return TRUE;
}

static const struct
{
  GdkModifierType mask;
  KeySym          keysym;
} modifiers[] = {
  { GDK_CONTROL_MASK, XK_Control_L },
  { GDK_ALT_MASK, XK_Alt_L },
  { GDK_SHIFT_MASK, XK_Shift_L },
};

static void
press_modifiers (Display         *dpy,
                 GdkModifierType  mods,
                 gboolean         press)
{
  for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (mods & modifiers[i].mask)
      fake_key (dpy, XKeysymToKeycode (dpy, modifiers[i].keysym), press, 0);
}

void
qm_test_key (GtkWindow       *window,
             guint            keyval,
             GdkModifierType  mods)
{
  Display *dpy = x_display ();
  guint *count = release_counter (GTK_WIDGET (window));
  guint target = *count + 1;
  KeyCode code = XKeysymToKeycode (dpy, keyval);

  g_assert_true (code != 0);
  press_modifiers (dpy, mods, TRUE);
  fake_key (dpy, code, TRUE, 0);
  fake_key (dpy, code, FALSE, 0);
  XSync (dpy, False);
  /* The release of the key itself reaches the window before those of the
   * modifiers, which are not waited for: they change no state the tests read. */
  wait_count (GTK_WIDGET (window), count, target, "A key release");
  press_modifiers (dpy, mods, FALSE);
  XSync (dpy, False);
  target = *count + __builtin_popcount (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK));
  wait_count (GTK_WIDGET (window), count, target, "A modifier release");
}

void
qm_test_key_no_wait (GtkWindow       *window,
                     guint            keyval,
                     GdkModifierType  mods)
{
  Display *dpy = x_display ();
  KeyCode code = XKeysymToKeycode (dpy, keyval);

  g_assert_true (code != 0);
  press_modifiers (dpy, mods, TRUE);
  fake_key (dpy, code, TRUE, 0);
  fake_key (dpy, code, FALSE, 0);
  press_modifiers (dpy, mods, FALSE);
  XSync (dpy, False);
}

void
qm_test_type (GtkWindow  *window,
              const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      gunichar c = (guchar) *p;
      gboolean upper = g_unichar_isupper (c);

      g_assert_true (c < 128);
      qm_test_key (window, gdk_unicode_to_keyval (upper ? g_unichar_tolower (c) : c),
                   upper ? GDK_SHIFT_MASK : 0);
    }
}

void
qm_test_click (GtkWidget       *widget,
               GdkModifierType  mods)
{
  Display *dpy = x_display ();
  GtkNative *native = gtk_widget_get_native (widget);
  /* On the window, which sees the release first even when a gesture of
   * the view claims the click. */
  guint *count = release_counter (GTK_WIDGET (native));
  guint target = *count + 1;
  graphene_point_t centre = GRAPHENE_POINT_INIT (gtk_widget_get_width (widget) / 2.0,
                                                 gtk_widget_get_height (widget) / 2.0);
  graphene_point_t in_native;
  double sx, sy;
  int rx, ry;
  Window child;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &centre, &in_native));
  gtk_native_get_surface_transform (native, &sx, &sy);
  XTranslateCoordinates (dpy, x_window (widget), DefaultRootWindow (dpy),
                         (int) (in_native.x + sx), (int) (in_native.y + sy), &rx, &ry, &child);
  fake_motion (dpy, -1, rx, ry, 0);
  press_modifiers (dpy, mods, TRUE);
  fake_button (dpy, 1, TRUE, 0);
  fake_button (dpy, 1, FALSE, 0);
  press_modifiers (dpy, mods, FALSE);
  XSync (dpy, False);
  wait_count (GTK_WIDGET (native), count, target, "A button release");
}

#else /* no Xlib: every test that presses keys skips */

gboolean
qm_test_keys_init (GtkWindow *window)
{
  return FALSE;
}

void
qm_test_key (GtkWindow       *window,
             guint            keyval,
             GdkModifierType  mods)
{
  g_assert_not_reached ();
}

void
qm_test_key_no_wait (GtkWindow       *window,
                     guint            keyval,
                     GdkModifierType  mods)
{
  g_assert_not_reached ();
}

void
qm_test_type (GtkWindow  *window,
              const char *text)
{
  g_assert_not_reached ();
}

void
qm_test_click (GtkWidget       *widget,
               GdkModifierType  mods)
{
  g_assert_not_reached ();
}

#endif
