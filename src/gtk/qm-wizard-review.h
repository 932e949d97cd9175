/* qm-wizard-review.h: the wizard's last page, the plan's name and what
 * the estimate says about it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-estimate.h"
#include "qm-plan.h"

G_BEGIN_DECLS

#define QM_TYPE_WIZARD_REVIEW (qm_wizard_review_get_type ())
G_DECLARE_FINAL_TYPE (QmWizardReview, qm_wizard_review, QM, WIZARD_REVIEW, AdwPreferencesPage)

/* ::name-edited: the person changed the name (not set_name).
 * ::name-activated: Enter in the name. */
void                 qm_wizard_review_show           (QmWizardReview   *self,
                                                      const QmPlan     *plan,
                                                      const QmEstimate *estimate);
const char          *qm_wizard_review_get_name       (QmWizardReview   *self);
void                 qm_wizard_review_set_name       (QmWizardReview   *self,
                                                      const char       *name);
/* The group under the name, where the wizard says what stops the plan. */
AdwPreferencesGroup *qm_wizard_review_get_name_group (QmWizardReview   *self);

G_END_DECLS
