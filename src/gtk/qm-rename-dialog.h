/* qm-rename-dialog.h: the "Rename Plan" dialog of the plan view and the
 * plans page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

AdwMessageDialog *qm_rename_dialog_new      (GtkWidget        *widget,
                                             const char       *name);
GtkEditable      *qm_rename_dialog_get_entry (AdwMessageDialog *dialog);

G_END_DECLS
