/* qm-test-ui.h: helpers for the tests that run real widgets under Xvfb.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* g_test_init plus GTK and libadwaita. Returns FALSE (after printing a TAP
 * skip line) only when there is no display and QM_REQUIRE_DISPLAY is unset;
 * with it set, a missing display aborts the test. */
gboolean qm_test_ui_init         (int        *argc,
                                  char     ***argv);

/* Renders @widget as it is on screen, in the given colour scheme, into
 * $QM_BUILD_DIR/screenshots/@name for a person to look at. */
void     qm_test_screenshot      (GtkWidget     *widget,
                                  const char    *name,
                                  AdwColorScheme scheme);

/* Iterates the main loop until *@pointer is NULL or ten seconds pass. */
void     qm_test_wait_until_null (GObject **pointer);

G_END_DECLS
