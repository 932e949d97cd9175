/* qm-formulas-window.h: the "Assumptions and Formulas" help window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define QM_TYPE_FORMULAS_WINDOW (qm_formulas_window_get_type ())
G_DECLARE_FINAL_TYPE (QmFormulasWindow, qm_formulas_window, QM, FORMULAS_WINDOW, AdwWindow)

QmFormulasWindow *qm_formulas_window_new            (GtkWindow      *parent);

/* Installs win.show-formulas (F1), which opens the window over the
 * widget's window; for the main window's class_init. */
void              qm_formulas_window_install_action (GtkWidgetClass *widget_class);

G_END_DECLS
