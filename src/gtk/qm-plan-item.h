/* qm-plan-item.h: one saved plan in the Plans page's list: a GObject
 * around a QmPlanSummary, with the sort keys the columns need.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "qm-plan-store.h"

G_BEGIN_DECLS

#define QM_TYPE_PLAN_ITEM (qm_plan_item_get_type ())
G_DECLARE_FINAL_TYPE (QmPlanItem, qm_plan_item, QM, PLAN_ITEM, GObject)

/* Takes ownership of @summary. */
QmPlanItem          *qm_plan_item_new         (QmPlanSummary *summary);

const QmPlanSummary *qm_plan_item_get_summary (QmPlanItem    *self);
gint64               qm_plan_item_get_id      (QmPlanItem    *self);
const char          *qm_plan_item_get_name    (QmPlanItem    *self);
/* The catalog's name for a model preset id ("Llama 3.1 70B"), else the
 * summary's model text as saved. */
const char          *qm_plan_item_get_model_label (QmPlanItem *self);

typedef enum
{
  QM_PLAN_ITEM_KEY_NAME,
  QM_PLAN_ITEM_KEY_CUSTOMER,
  QM_PLAN_ITEM_KEY_MODEL,
} QmPlanItemKey;

/* A collation key (g_utf8_collate_key of the casefolded text), made on
 * first use so that loading 10,000 plans does not pay for sorting. */
const char          *qm_plan_item_get_sort_key (QmPlanItem    *self,
                                                QmPlanItemKey  key);

G_END_DECLS
