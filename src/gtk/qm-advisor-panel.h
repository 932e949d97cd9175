/* qm-advisor-panel.h: the plan view's Advisor section (issue #12): a goal
 * selector (Time, Cost, Energy, GPUs), the ranked suggestions of
 * qm_advise() with their effect in numbers and words, the trade-off, the
 * assumption with its source and a "Try It" button, then the options the
 * model cannot quantify, as guidance with their sources.
 *
 * The panel follows a QmPlanEditor: after each change of the plan it
 * recomputes the advice in an idle, so a burst of keystrokes costs one
 * computation and an edit never waits for the advisor's 10-20 estimates.
 *
 * "Try It" never touches the plan on screen: it saves the changed copy as
 * a new saved plan named "<name> — <suggestion>" and emits ::plan-saved
 * with its id. Without a store it saves nothing and says so in a toast.
 *
 * Signals:
 *   ::plan-saved (gint64 id): Try It saved a changed copy under this id.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-advisor.h"
#include "qm-plan-editor.h"
#include "qm-store.h"

G_BEGIN_DECLS

#define QM_TYPE_ADVISOR_PANEL (qm_advisor_panel_get_type ())
G_DECLARE_FINAL_TYPE (QmAdvisorPanel, qm_advisor_panel, QM, ADVISOR_PANEL, GtkWidget)

GtkWidget             *qm_advisor_panel_new        (void);

/* The plan to advise on; the panel keeps a reference. NULL clears. */
QmPlanEditor          *qm_advisor_panel_get_editor (QmAdvisorPanel *self);
void                   qm_advisor_panel_set_editor (QmAdvisorPanel *self,
                                                    QmPlanEditor   *editor);

/* Where Try It saves; not owned, must outlive the panel. NULL: Try It
 * saves nothing and says so. */
QmStore               *qm_advisor_panel_get_store  (QmAdvisorPanel *self);
void                   qm_advisor_panel_set_store  (QmAdvisorPanel *self,
                                                    QmStore        *store);

/* What the suggestions are ranked by (the "goal" property). */
QmAdvisorGoal          qm_advisor_panel_get_goal   (QmAdvisorPanel *self);
void                   qm_advisor_panel_set_goal   (QmAdvisorPanel *self,
                                                    QmAdvisorGoal   goal);

/* Computes now what a pending idle would (tests, and Try It so that it
 * never applies advice for an older version of the plan). */
void                   qm_advisor_panel_flush      (QmAdvisorPanel *self);
/* TRUE while a recomputation waits for its idle. */
gboolean               qm_advisor_panel_get_pending (QmAdvisorPanel *self);

/* The advice on screen (NULL before the first computation), and how long
 * the last computation took, advice and rows, in microseconds. */
const QmAdvisorResult *qm_advisor_panel_get_result (QmAdvisorPanel *self);
gint64                 qm_advisor_panel_get_last_duration (QmAdvisorPanel *self);

/* What Try It on suggestion @id ("precision-fp8", ...) does. Returns the
 * new saved plan's id, or 0 with @error (no store, no such suggestion, or
 * the store refused). */
gint64                 qm_advisor_panel_try        (QmAdvisorPanel *self,
                                                    const char     *id,
                                                    GError        **error);

/* The row and the Try It button of suggestion or guidance @id, for tests
 * and focus. NULL when not shown. */
GtkWidget             *qm_advisor_panel_get_row    (QmAdvisorPanel *self,
                                                    const char     *id);
GtkWidget             *qm_advisor_panel_get_try_button (QmAdvisorPanel *self,
                                                        const char     *id);

G_END_DECLS
