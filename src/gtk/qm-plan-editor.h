/* qm-plan-editor.h: the plan being edited in the UI: its inputs, the
 * estimate recomputed on every edit, and undo/redo of input edits. The
 * wizard and the plan view both edit through one of these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "qm-estimate.h"
#include "qm-workload.h"

G_BEGIN_DECLS

#define QM_TYPE_PLAN_EDITOR (qm_plan_editor_get_type ())
G_DECLARE_FINAL_TYPE (QmPlanEditor, qm_plan_editor, QM, PLAN_EDITOR, GObject)

/* @plan NULL starts from qm_plan_init()'s defaults. */
QmPlanEditor     *qm_plan_editor_new           (const QmPlan *plan);

const QmPlan     *qm_plan_editor_get_plan      (QmPlanEditor *self);
const QmEstimate *qm_plan_editor_get_estimate  (QmPlanEditor *self);

/* Replaces the inputs with @plan, re-estimates and emits ::changed. The
 * previous inputs go on the undo stack, unless @plan equals them. Edits
 * with the same non-NULL @merge_key in a row (keystrokes in one field)
 * make a single undo step. */
void              qm_plan_editor_set_plan      (QmPlanEditor *self,
                                                const QmPlan *plan,
                                                const char   *merge_key);

gboolean          qm_plan_editor_can_undo      (QmPlanEditor *self);
gboolean          qm_plan_editor_can_redo      (QmPlanEditor *self);
gboolean          qm_plan_editor_undo          (QmPlanEditor *self);
gboolean          qm_plan_editor_redo          (QmPlanEditor *self);

/* The saved plan this edits (0 = not saved yet), and whether the inputs
 * changed since the last qm_plan_editor_mark_saved(). */
gint64            qm_plan_editor_get_saved_id  (QmPlanEditor *self);
void              qm_plan_editor_mark_saved    (QmPlanEditor *self,
                                                gint64        id);
gboolean          qm_plan_editor_get_dirty     (QmPlanEditor *self);

G_END_DECLS
