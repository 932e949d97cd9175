/* qm-estimate-json.h: the estimate as the contract JSON (plan-format.md,
 * "Estimate output"). Keys that do not apply, or that modules not yet wired
 * in would fill, are null: never missing, never NaN.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-estimate.h"

G_BEGIN_DECLS

JsonNode *qm_estimate_to_json_node (const QmPlan     *plan,
                                    const QmEstimate *estimate);
char     *qm_estimate_to_json      (const QmPlan     *plan,
                                    const QmEstimate *estimate,
                                    gsize            *length);

G_END_DECLS
