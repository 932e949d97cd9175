/* qm-power.h: per-component watts, IT and facility kW, cooling, energy,
 * electricity cost and carbon.
 *
 * Two figures throughout (docs/estimation-anchors.md §7.8): *provisioned* power,
 * the nameplate maximum that racks, PDUs and cooling are sized for, and
 * *average* power, what the meter sees over a training run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-cluster.h"

G_BEGIN_DECLS

/* 1 W = 3.412 BTU/h (ASHRAE conversion 3.412 141 BTU/h per watt). */
#define QM_BTU_H_PER_W 3.412

/* Average system power as a fraction of the nameplate maximum, used when the
 * server spec has no typical figure. Derived: Patterson et al. 2021 (arXiv
 * 2104.10350, Table 4) measured GPT-3 at 330 W per V100 system average
 * (host, memory, NIC and fans included); a DGX-1 V100 is rated 3,500 W max
 * for 8 GPUs, 437.5 W per GPU; 330 / 437.5 = 0.754. The same paper's TPU v3
 * runs average 0.64-0.69 x chip TDP. */
#define QM_POWER_AVG_FRACTION 0.754

typedef enum
{
  QM_POWER_AVG_GIVEN,       /* QmPowerInput.avg_fraction */
  QM_POWER_AVG_TYPICAL,     /* server power_typical_w / power_max_w */
  QM_POWER_AVG_DEFAULT,     /* QM_POWER_AVG_FRACTION */
} QmPowerAvgBasis;

/* Watts of one node by component, provisioned (maximum). */
typedef struct
{
  double gpus;
  double cpus;
  double memory;
  double nics;
  double storage;   /* local NVMe */
  double other;     /* fans, board, NVSwitch, PSU losses up to the nameplate */
  double total;     /* provisioned: max (nameplate, sum of the above) */
  double components;/* sum of the listed components before the nameplate top-up */
} QmNodeWatts;

/* Fill @out for one node. @gpu may be NULL (then GPUs count as 0 W unless
 * the nameplate covers them in `other`). Returns the provisioned total. */
double qm_power_node_watts (const QmServerSpec *server,
                            const QmGpuSpec    *gpu,
                            QmNodeWatts        *out);

typedef struct
{
  const QmCluster     *cluster;       /* required: nodes, switches, optics, storage */
  const QmServerSpec  *server;        /* required */
  const QmGpuSpec     *gpu;           /* optional */
  const QmNetworkSpec *network;       /* compute + storage fabric switch; optional */
  const QmNetworkSpec *mgmt_network;  /* management switch; optional */
  const QmStorageSpec *storage;       /* optional */
  const QmFacility    *facility;      /* required */
  double run_s;                       /* wall-clock run length */
  double avg_fraction;                /* 0 = typical from the spec, else default */
} QmPowerInput;

typedef struct
{
  QmNodeWatts     node;               /* one node, provisioned */
  double          node_avg_w;
  double          avg_fraction;       /* applied to the servers */
  QmPowerAvgBasis avg_basis;

  /* docs/plan-file.md power_kw. gpus + servers + network + storage = it_peak;
   * `servers` is the rest of the servers (CPUs, memory, NICs, fans, ...). */
  double gpus_kw;
  double servers_kw;
  double network_kw;                  /* switches and optical modules */
  double storage_kw;
  double it_peak_kw;
  double it_avg_kw;
  double facility_peak_kw;            /* it_peak x PUE */
  double facility_avg_kw;             /* it_avg x PUE */
  double pue;                         /* as applied (>= 1) */

  double cooling_kw;                  /* heat to remove at peak = it_peak */
  double cooling_btu_h;
  double energy_mwh;                  /* facility_avg x run */
  double electricity_usd;
  double co2_tonnes;

  QmIssues issues;
} QmPower;

void   qm_power_compute    (const QmPowerInput *in,
                            QmPower            *out);

G_END_DECLS
