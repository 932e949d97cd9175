/* qm-gtk.h: set-up shared by the app and the UI tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Registers the app's GResource once. The resource is linked from a static
 * library, so it is registered by hand rather than by a constructor that the
 * linker could drop. */
void qm_gtk_ensure_resources   (void);

/* From a widget's class_init: its template, the app's resource @name
 * (ui/@name in the source tree). */
void qm_gtk_class_set_template (GtkWidgetClass *widget_class,
                                const char     *name);

/* A builder of the app's resource @name: a piece of a widget made more
 * than once, where a template makes it once. */
GtkBuilder *qm_gtk_builder_new (const char *name);

/* @inner scrolls sideways only (a wide table in a scrolling page): the
 * wheel's vertical turns go on to the scrolled window around it, so that
 * the page scrolls over the table rather than stopping there. Returns the
 * controller (owned by @inner). */
GtkEventController *qm_gtk_pass_vertical_scroll (GtkScrolledWindow *inner);

/* A toast for a file just written: @title, and an Open button that opens
 * @file in the user's application for it (a PDF viewer, a spreadsheet),
 * as GNOME apps offer after an export. The file's URI is the toast's
 * "qm-uri" data. */
AdwToast *qm_gtk_export_toast_new (const char *title,
                                   GFile      *file);

G_END_DECLS
