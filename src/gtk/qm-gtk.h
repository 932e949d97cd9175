/* qm-gtk.h: set-up shared by the app and the UI tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Registers the app's GResource once. The resource is linked from a static
 * library, so it is registered by hand rather than by a constructor that the
 * linker could drop. */
void qm_gtk_ensure_resources (void);

G_END_DECLS
