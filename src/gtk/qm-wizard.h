/* qm-wizard.h: the New Plan wizard: goal, model, data and schedule,
 * training setup, hardware, facility and pricing, then a review of the
 * key figures. Every field is parsed and re-estimated as the user types.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-estimate.h"
#include "qm-store.h"
#include "qm-workload.h"

G_BEGIN_DECLS

#define QM_TYPE_WIZARD (qm_wizard_get_type ())
G_DECLARE_FINAL_TYPE (QmWizard, qm_wizard, QM, WIZARD, AdwWindow)

typedef enum
{
  QM_WIZARD_STEP_GOAL,
  QM_WIZARD_STEP_MODEL,
  QM_WIZARD_STEP_DATA,
  QM_WIZARD_STEP_SETUP,
  QM_WIZARD_STEP_HARDWARE,
  QM_WIZARD_STEP_FACILITY,
  QM_WIZARD_STEP_REVIEW,
  QM_WIZARD_N_STEPS
} QmWizardStep;

/* A modal window, transient for @parent. @store (the wizard holds a reference; may be NULL)
 * adds the user's own catalog entries and price overrides to the lists;
 * without it the built-in catalog is used.
 *
 * ::plan-created (const QmPlan *plan) is emitted once, on Create Plan,
 * just before the wizard closes itself; the plan is only valid during the
 * emission. Cancel (or Escape) closes it with no signal and saves nothing. */
QmWizard         *qm_wizard_new          (GtkWindow    *parent,
                                          QmStore      *store);

QmWizardStep      qm_wizard_get_step     (QmWizard     *self);
/* The plan as the fields describe it so far, and its live estimate. */
const QmPlan     *qm_wizard_get_plan     (QmWizard     *self);
const QmEstimate *qm_wizard_get_estimate (QmWizard     *self);

G_END_DECLS
