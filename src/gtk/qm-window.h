/* qm-window.h: the main window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define QM_TYPE_WINDOW (qm_window_get_type ())
G_DECLARE_FINAL_TYPE (QmWindow, qm_window, QM, WINDOW, AdwApplicationWindow)

QmWindow   *qm_window_new              (AdwApplication *application);
void        qm_window_set_page         (QmWindow       *self,
                                        const char     *name);
const char *qm_window_get_page         (QmWindow       *self);

G_END_DECLS
