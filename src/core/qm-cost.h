/* qm-cost.h: bill of materials, buy vs rent, cost per run, break-even.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-catalog.h"
#include "qm-cluster.h"
#include "qm-power.h"

G_BEGIN_DECLS

/* Hours in a mean month: 365.2425 x 24 / 12. */
#define QM_HOURS_PER_MONTH 730.485
/* Installation, cabling labour and commissioning as a fraction of the
 * hardware, when the plan does not say. An assumption, not sourced: the
 * line is named so the user sees and can change it. */
#define QM_COST_INSTALL_FRACTION_DEFAULT 0.05
/* Rack PDUs: two per rack, on separate A/B feeds, each able to carry the
 * rack alone (DGX SuperPOD RA rack layouts). */
#define QM_COST_PDUS_PER_RACK 2

#define QM_BOM_MAX 16

typedef struct
{
  const char *item;        /* static English label, e.g. "Servers"; marked
                            * for translation, so a display shows it with
                            * g_dgettext (GETTEXT_PACKAGE, item) */
  const char *catalog_id;  /* interned catalog id, or NULL */
  double      qty;
  double      unit_usd;
  double      total_usd;   /* qty x unit_usd */
  const char *source;      /* interned catalog source, or a static note */
  const char *as_of;       /* interned catalog date, or NULL */
  double      lead_weeks;  /* the catalog entry's, for the quote; 0 = unknown */
  double      support_rate;
} QmBomLine;

typedef struct
{
  const QmCluster     *cluster;       /* required */
  const QmPower       *power;         /* required */
  const QmServerSpec  *server;        /* required */
  const QmGpuSpec     *gpu;           /* optional; priced when sold separately */
  const QmNetworkSpec *network;       /* optional */
  const QmNetworkSpec *mgmt_network;  /* optional */
  const QmStorageSpec *storage;       /* optional */
  const QmFacilityItem *rack;         /* optional: air-cooled rack */
  const QmFacilityItem *liquid_rack;  /* optional: used when liquid cooling is needed */
  const QmFacilityItem *pdu;          /* optional */
  const QmFacility    *facility;      /* required */
  const QmPricing     *pricing;       /* required */
  /* Optional cloud offer: its on-demand or reserved price is used when
   * pricing->usd_per_gpu_hour is 0, and its source goes on the rent line. */
  const QmCloudOffer  *offer;
  double run_s;                       /* wall-clock run length */
  /* Cloud price for the break-even in buy mode; 0 = pricing->usd_per_gpu_hour. */
  double rent_usd_per_gpu_hour;
  double install_fraction;            /* 0 = default; < 0 = none */
  double egress_bytes;                /* rent only */
  double usd_per_gb_egress;
} QmCostInput;

typedef struct
{
  QmBomLine bom[QM_BOM_MAX];
  guint     n_bom;

  double hardware_usd;                /* BOM before installation */
  double install_usd;

  /* docs/plan-file.md cost_usd. Buy: upfront = the BOM; monthly = amortisation
   * + power + colocation + support; run = monthly x run months; total =
   * monthly x amortisation months (TCO). Rent: upfront = 0; monthly = GPUs
   * around the clock + storage; run = GPU-hours x price + storage + egress;
   * total = monthly x the same horizon, so buy and rent compare. */
  double upfront;
  double monthly;
  double run;
  double total;

  double amortization_monthly;
  double power_monthly;
  double colo_monthly;
  double support_monthly;
  double storage_monthly;             /* rent */
  double rent_monthly;                /* renting the same GPUs */
  /* The one GPU-hour price of the plan (issue #34): what the run is rented
   * at, or, when buying, what renting the same GPUs would cost; the
   * plan's pricing.usd_per_gpu_hour, else the cloud offer's rate; 0 when
   * there is none. rent_monthly is GPUs around the clock at this price.
   * Views show this, not the plan key, whose 0 means "the offer's". */
  double rent_usd_per_gpu_hour;
  gboolean rent_price_from_offer;     /* the cloud offer's rate, not the plan's */
  double gpu_hours;                   /* of the run */
  double horizon_months;

  /* The one break-even (issue #34, qm_break_even_month()): the month,
   * counted from the order (month 0), from which buying has cost less
   * than renting the same GPUs, cumulatively. qm_cost_compute() sets it
   * for buying everything at the order; the estimate of a buy plan then
   * takes it from the plan's quote cash flow (deposit, deliveries, tax,
   * operations from arrival), the one the quote and its chart show. */
  gboolean break_even_valid;
  guint    break_even_month;

  QmIssues issues;
} QmCost;

void qm_cost_compute (const QmCostInput *in,
                      QmCost            *out);

/* The break-even of two cash flows, each month's cash out (month 0 = the
 * order): the first month at whose end buying (@buy) has cost no more
 * than renting (@rent), cumulatively, after having cost more. FALSE when
 * that does not happen within @n months. The plan's assumptions, its
 * quote and the quote's cash-flow chart all use this one definition. */
gboolean qm_break_even_month (const double *buy,
                              const double *rent,
                              guint         n,
                              guint        *month);

G_END_DECLS
