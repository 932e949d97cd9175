/* qm-application.h: the GApplication.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define QM_TYPE_APPLICATION (qm_application_get_type ())
G_DECLARE_FINAL_TYPE (QmApplication, qm_application, QM, APPLICATION, AdwApplication)

QmApplication *qm_application_new (void);

G_END_DECLS
