/* qm-estimate-json.h: the estimate as the contract JSON (docs/plan-file.md,
 * "Estimate output"). Keys that do not apply to the mode, or that an invalid
 * estimate cannot fill, are null: never missing, never NaN. Extra keys
 * beyond the contract: training_flops_6nd, cluster {...}, the network
 * totals (storage/management/total switches, total cables and
 * transceivers), power_kw.cooling and .pue, electricity_usd, cost_usd
 * extras (hardware, installation, break_even_month ...), bom[].as_of and
 * bom_as_of (the newest line date), prices_as_of (the oldest: the date
 * the plan's prices are as of, qm-price-age.h), reliability and inference details, errors (a count), and
 * from the throughput model (null when it did not run): hfu, step_time_s
 * {step, compute, recompute, tp/pp/dp/zero/cp/ep_comm, bubble, optimizer,
 * tokens_per_s}, layouts_evaluated, priced_global_batch and
 * parallelism.virtual_stages.
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
