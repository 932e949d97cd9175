/* qm-wizard-hardware.h: the wizard's hardware step, the catalog's GPUs,
 * servers, networks and storage to pick from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-catalog-json.h"
#include "qm-plan.h"
#include "qm-store.h"

G_BEGIN_DECLS

#define QM_TYPE_WIZARD_HARDWARE (qm_wizard_hardware_get_type ())
G_DECLARE_FINAL_TYPE (QmWizardHardware, qm_wizard_hardware, QM, WIZARD_HARDWARE, AdwPreferencesGroup)

/* ::changed (QmCatalogKind kind): the person picked another entry of
 * @kind; a new GPU may also have changed the server, which says so first. */
void        qm_wizard_hardware_load    (QmWizardHardware *self,
                                        QmStore          *store,
                                        const char       *currency);
/* The chosen entry's id, or NULL when there is none. */
const char *qm_wizard_hardware_get_id  (QmWizardHardware *self,
                                        QmCatalogKind     kind);
/* The chosen entries, their ids and whether the plan embeds them, into @plan. */
void        qm_wizard_hardware_compose (QmWizardHardware *self,
                                        QmPlan           *plan);

G_END_DECLS
