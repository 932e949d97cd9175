/* qm-preferences-window.h: the Preferences window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-store.h"

G_BEGIN_DECLS

#define QM_TYPE_PREFERENCES_WINDOW (qm_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (QmPreferencesWindow, qm_preferences_window, QM, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

QmPreferencesWindow *qm_preferences_window_new (GtkWindow *parent);
/* The store whose supplier details the Supplier page edits (the
 * application's by default; NULL hides the page). */
void                 qm_preferences_window_set_store (QmPreferencesWindow *self,
                                                      QmStore             *store);

G_END_DECLS
