/* qm-application.h: the GApplication.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-store.h"

G_BEGIN_DECLS

#define QM_TYPE_APPLICATION (qm_application_get_type ())
G_DECLARE_FINAL_TYPE (QmApplication, qm_application, QM, APPLICATION, AdwApplication)

QmApplication *qm_application_new       (void);
/* The database of saved plans and the catalog; never NULL after startup
 * (a temporary in-memory one when the user's file cannot be opened). */
QmStore       *qm_application_get_store (QmApplication *self);
/* Where the plans are, in words for the window's subtitle and the
 * Preferences ("Team server: host/db"), or NULL on this computer's file. */
const char    *qm_application_get_store_state (QmApplication *self);
/* TRUE while the team server the settings name is being opened in a
 * worker at start (the windows show this computer's file meanwhile). */
gboolean       qm_application_is_connecting   (QmApplication *self);
/* Moves the app to @store (taken), or to the file on this computer when
 * NULL: the open windows are closed, saving what they hold into the old
 * store, and a window on the new one opens. Returns that window. */
GtkWindow     *qm_application_use_store (QmApplication *self,
                                         QmStore       *store);
/* The app's own command-line options (the man page prints them too). */
const GOptionEntry *qm_application_option_entries (void);

/* What the app shows instead of its window when its GSettings schema is
 * not installed: the cause and the fix, and Quit. */
AdwMessageDialog *qm_missing_schema_dialog_new (void);

G_END_DECLS
