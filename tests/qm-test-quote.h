/* qm-test-quote.h: the cost the quote tests price.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "qm-quote.h"

G_BEGIN_DECLS

/* A cost with two priced lines, as qm_cost_compute () leaves it for a
 * 4-node buy: servers at $300,000 and switches at $30,000, plus 5 %
 * installation. */
static inline void
qm_test_quote_cost (QmCost *cost)
{
  memset (cost, 0, sizeof *cost);
  cost->bom[0] = (QmBomLine) { .item = "Servers", .catalog_id = "dgx-h100", .qty = 4,
                               .unit_usd = 300000, .total_usd = 1200000 };
  cost->bom[1] = (QmBomLine) { .item = "Compute fabric switches", .catalog_id = "ib-ndr-400",
                               .qty = 2, .unit_usd = 30000, .total_usd = 60000 };
  cost->bom[2] = (QmBomLine) { .item = "Installation", .qty = 0.05,
                               .unit_usd = 1260000, .total_usd = 63000 };
  cost->n_bom = 3;
  cost->hardware_usd = 1260000;
  cost->install_usd = 63000;
  cost->horizon_months = 36;
  cost->power_monthly = 10000;
  cost->colo_monthly = 2000;
  cost->rent_monthly = 80000;
}

G_END_DECLS
