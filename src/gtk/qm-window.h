/* qm-window.h: the main window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-store.h"

G_BEGIN_DECLS

#define QM_TYPE_WINDOW (qm_window_get_type ())
G_DECLARE_FINAL_TYPE (QmWindow, qm_window, QM, WINDOW, AdwApplicationWindow)

/* With a QmApplication, the window uses its store. */
QmWindow   *qm_window_new              (AdwApplication *application);
/* For tests and previews: a window on @store (may be NULL). */
QmWindow   *qm_window_new_with_store   (AdwApplication *application,
                                        QmStore        *store);
QmStore    *qm_window_get_store        (QmWindow       *self);
/* Cancelled when the window is disposed: for work started on its behalf. */
GCancellable *qm_window_get_cancellable (QmWindow       *self);
/* The app's first connect to the team server, in the window's banner
 * (qm_connection_banner_set_opening()). */
void        qm_window_show_team_opening (QmWindow       *self,
                                         gboolean        connecting,
                                         const char     *why);
void        qm_window_show_toast       (QmWindow       *self,
                                        const char     *message);
/* A page over the main one (the plan view): slides in; going back (the
 * page's back button, Escape, a swipe) drops it. */
void        qm_window_open_detail      (QmWindow       *self,
                                        GtkWidget      *detail);
void        qm_window_close_detail     (QmWindow       *self);
GtkWidget  *qm_window_get_detail       (QmWindow       *self);
/* Opens a saved plan in the plan view; FALSE (with a toast) when it
 * cannot be read. */
gboolean    qm_window_open_plan        (QmWindow       *self,
                                        gint64          id);
/* Imports a .qmplan file into the plans and opens it; 0 (with a dialog
 * naming the problem) when the file is refused. */
gint64      qm_window_open_file        (QmWindow       *self,
                                        GFile          *file);
/* Shows the Compare page with these saved plans. */
void        qm_window_compare          (QmWindow       *self,
                                        const gint64   *ids,
                                        guint           n);
void        qm_window_set_page         (QmWindow       *self,
                                        const char     *name);
const char *qm_window_get_page         (QmWindow       *self);

G_END_DECLS
