/* qm-welcome-window.h: the first-run welcome.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-window.h"

G_BEGIN_DECLS

#define QM_TYPE_WELCOME_WINDOW (qm_welcome_window_get_type ())
G_DECLARE_FINAL_TYPE (QmWelcomeWindow, qm_welcome_window, QM, WELCOME_WINDOW, AdwWindow)

QmWelcomeWindow *qm_welcome_window_new (QmWindow *parent);

/* Presents the welcome over @window unless the GSettings key
 * first-run-done is set; returns it (owned by GTK), or NULL when not
 * shown. Skipping, closing or opening the example sets the key. */
QmWelcomeWindow *qm_welcome_maybe_show (QmWindow *window);

G_END_DECLS
