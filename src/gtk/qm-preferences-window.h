/* qm-preferences-window.h: the Preferences window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define QM_TYPE_PREFERENCES_WINDOW (qm_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (QmPreferencesWindow, qm_preferences_window, QM, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

QmPreferencesWindow *qm_preferences_window_new (GtkWindow *parent);

G_END_DECLS
