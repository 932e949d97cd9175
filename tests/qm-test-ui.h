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

/* Depth-first from @root, @root included: the first widget @match takes,
 * or NULL. The helpers below are the usual matches. */
typedef gboolean (*QmTestWidgetMatch) (GtkWidget     *widget,
                                       gconstpointer  data);
GtkWidget *qm_test_find           (GtkWidget         *root,
                                   QmTestWidgetMatch  match,
                                   gconstpointer      data);
GtkWidget *qm_test_find_type      (GtkWidget  *root,
                                   GType       type);
/* By gtk_widget_get_name() (the ui files' ids set as names). */
GtkWidget *qm_test_find_named     (GtkWidget  *root,
                                   const char *name);
GtkWidget *qm_test_find_button    (GtkWidget  *root,
                                   const char *label);
/* A shown (mapped) GtkLabel or table cell (GtkInscription) with @text. */
GtkWidget *qm_test_find_label     (GtkWidget  *root,
                                   const char *text);
/* qm_test_find_label(), polling the main loop until it finds it or 10 s
 * pass (sanitizer builds draw slowly). */
GtkWidget *qm_test_wait_for_label (GtkWidget  *root,
                                   const char *text);

/* For benchmarks: draws the next frame of @widget's window and returns
 * the milliseconds of work in it, from the frame clock's before-paint to
 * its after-paint (the wait for the clock's tick is not work). @layout_ms
 * and @paint_ms (each may be NULL) split it at the end of the layout. */
double   qm_test_time_next_frame (GtkWidget *widget,
                                  double    *layout_ms,
                                  double    *paint_ms);

G_END_DECLS
