/* qm-test-keys.h: real key presses and clicks for the UI tests.
 *
 * GTK 4.8 has no public way to make a key event (gtk_test_widget_send_key
 * went with GTK 3), and gtk_widget_activate_action() skips exactly what a
 * keyboard test must cover: which controller sees the key first. These
 * helpers ask the X server (Xvfb) to press keys through the XTEST
 * extension, so the events come in as a person's would: through the
 * window's capture phase, shortcut controllers, key bindings and the
 * focused widget. Each call waits until the window has seen the key's
 * release (an event, not a clock).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Gives @window the X keyboard focus and waits until it is active (a
 * minute at most, then the test fails). FALSE (the caller skips) only
 * where there is no X11 display or no XTEST (libXtst.so.6 is loaded at
 * run time: no build dependency). */
gboolean qm_test_keys_init   (GtkWindow       *window);

/* Presses @keyval with @mods (Ctrl, Alt, Shift) held, and releases both. */
void     qm_test_key         (GtkWindow       *window,
                              guint            keyval,
                              GdkModifierType  mods);

/* Presses and releases @keyval with @mods without waiting: for a key
 * that closes @window (wait for that instead, qm_test_wait_until_null) or
 * opens another, which then gets the releases. */
void     qm_test_key_no_wait (GtkWindow       *window,
                              guint            keyval,
                              GdkModifierType  mods);

/* Types @text (ASCII) key by key, with Shift for capitals. */
void     qm_test_type        (GtkWindow       *window,
                              const char      *text);

/* Clicks the primary button at the centre of @widget with @mods held,
 * and waits until its window has seen the release. */
void     qm_test_click       (GtkWidget       *widget,
                              GdkModifierType  mods);

G_END_DECLS
