/* qm-hardware.h: catalog specs of the hardware a plan runs on.
 *
 * These are plain value structs. Their strings are interned with
 * g_intern_string(), so a struct can be copied by value and kept for ever.
 * Units are SI inside the core (see docs/architecture.md), except where a field
 * name says otherwise (the catalog's own units: _tflops, _gb, _tbs, _w ...).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-types.h"

G_BEGIN_DECLS

/* Provenance carried by every catalog entry and into every output line. */
typedef struct
{
  const char *id;        /* stable catalog id, lower case with dashes */
  const char *vendor;
  const char *name;
  const char *source;    /* datasheet, product page or paper */
  const char *as_of;     /* ISO date the figures were read */
  double      price_usd; /* reference price; 0 = not sold this way */
  gboolean    builtin;
  /* What a quote needs of a bought item (issue #22); 0 = unknown, the
   * quote's own figure applies (docs/quotes.md). */
  double      lead_weeks;    /* order to delivery, as the vendor states it */
  double      support_rate;  /* yearly support, a fraction of the list price */
} QmCatalogInfo;

struct _QmGpuSpec
{
  QmCatalogInfo info;
  /* Dense peak TFLOPS per precision, never "with sparsity"; 0 = unsupported.
   * Indexed by QmPrecision. */
  double tflops[QM_N_PRECISIONS];
  double memory_gb;        /* HBM capacity, decimal GB */
  double bandwidth_tbs;    /* HBM bandwidth, TB/s */
  double tdp_w;            /* max board power */
  double link_gbs;         /* intra-node GPU link, GB/s one direction */
  const char *form_factor; /* "sxm", "pcie", "oam", "superchip", "cloud" */
  const char *family;      /* "v100", "a100", "h100", "b200", "mi300", "gaudi" ... */
  /* Best-shape matmul throughput as a fraction of the dense bf16 peak
   * (stas00/ml-engineering MAMF table); an upper bound on MFU. 0 = unknown. */
  double mamf_fraction;
  /* Memory as the device reports it to programs (nvidia-smi "Total", MiB):
   * an "80 GB" H100 is 81,559 MiB = 85.5e9 bytes, 7 % more than 80e9.
   * 0 = unknown; qm_gpu_memory_bytes() then falls back to memory_gb. */
  double memory_mib;
  /* Serving (qm-serving.c): achieved fraction of bandwidth_tbs that a
   * streaming kernel reads from HBM, and the framework time per engine
   * step (scheduler, sampling, launch gaps). 0 = the core's default. */
  double hbm_stream_fraction;
  /* Serving: achieved fraction of the fp8/fp4 dense peak in the GEMMs of
   * a quantised model (mamf_fraction is measured on bf16). 0 = use
   * mamf_fraction. */
  double mamf_fraction_fp8;
  /* Serving: achieved all-reduce bus bandwidth over the GPU link at the
   * message sizes of a serving step, GB/s (nccl-tests busbw definition),
   * for a switched link (NVSwitch: the same for any group size).
   * 0 = 80 % of link_gbs. */
  double allreduce_busbw_gbs;
  /* Serving: one all-reduce call's latency, microseconds (a small
   * message; nccl-tests/rccl-tests). 0 = the core's NVLink default. */
  double allreduce_latency_us;
  /* Serving: usable bandwidth of one point-to-point link to each peer,
   * GB/s, for GPUs wired as a full mesh without a switch (MI300X xGMI):
   * a group of n GPUs then has n - 1 links each. 0 = switched. */
  double p2p_link_gbs;
  /* The per-step overhead is the serving engine's (qm-engine.h), not
   * the GPU's. */
  /* Where mamf_fraction comes from: the measurement or the stated rule
   * (interned; "" or NULL = the general source). mamf_same_as names the
   * GPU whose measurement it is when this part was not measured itself
   * (same silicon); the estimate then says so (qm-estimate-notes.c). */
  const char *mamf_source;
  const char *mamf_same_as;
};

/* Bytes of device memory a program can allocate from: the reported
 * capacity where the catalog has it, else the nominal decimal GB. */
static inline double
qm_gpu_memory_bytes (const QmGpuSpec *gpu)
{
  if (gpu->memory_mib > 0.0)
    return gpu->memory_mib * 1048576.0;
  return gpu->memory_gb * 1e9;
}

struct _QmServerSpec
{
  QmCatalogInfo info;
  const char *gpu_id;      /* the GPU it holds; NULL = any */
  guint  gpus;             /* GPUs per node */
  guint  cpus;             /* sockets */
  const char *cpu_model;
  double cpu_w;            /* per socket */
  double ram_gb;
  double ram_w;            /* all DIMMs */
  double nvme_tb;
  double nvme_w;
  guint  nics;             /* compute-fabric NICs (one per GPU on rail-optimised boxes) */
  double nic_gbps;
  double nic_w;            /* per NIC */
  double other_w;          /* fans, board, BMC, NVSwitch */
  guint  rack_units;
  double power_max_w;      /* nameplate, for PDUs and racks */
  double power_typical_w;  /* typical under training load */
  double weight_kg;
  /* A rack-scale system (GB200 NVL72): one node is a whole rack, delivered
   * with its own enclosure, power shelves and cooling manifolds, so it is
   * not packed into the facility's racks; rack_units is the rack's height
   * and power_max_w the rack's kW. */
  gboolean rack_scale;
  gboolean liquid_cooled;  /* direct liquid cooling is part of the design */
};

struct _QmNetworkSpec
{
  QmCatalogInfo info;      /* price_usd = one switch */
  const char *technology;  /* "infiniband" or "ethernet" */
  guint  ports;            /* switch radix at port_gbps */
  double port_gbps;
  double power_w;          /* one switch */
  guint  rack_units;       /* one switch */
  double latency_us;       /* one hop, for the alpha term */
  double nic_usd;
  double transceiver_usd;  /* one optical module */
  double transceiver_w;
  double cable_usd;        /* one copper/AOC cable inside a rack */
};

struct _QmStorageSpec
{
  QmCatalogInfo info;
  const char *kind;            /* "parallel-fs" or "local-nvme" */
  double usd_per_tb;
  double usd_per_gbs;          /* per GB/s of write bandwidth */
  double write_gbs_per_tb;     /* bandwidth that comes with each TB */
  double watts_per_tb;
  guint  rack_units_per_pb;
  /* Rent: cloud price per TB-month of this storage; 0 = not offered. */
  double usd_per_tb_month;
};

struct _QmHardware
{
  QmGpuSpec     gpu;
  QmServerSpec  server;
  QmNetworkSpec network;
  QmStorageSpec storage;
};

/* The site the cluster stands in. */
struct _QmFacility
{
  double pue;                 /* >= 1.0 */
  double usd_per_kwh;
  double rack_kw;             /* power limit per rack */
  guint  rack_units;          /* usable U per rack */
  double gco2_per_kwh;        /* grid carbon intensity */
  double air_cooling_kw;      /* above this per rack, liquid cooling is needed */
  double colo_usd_per_kw_month;
};

struct _QmPricing
{
  QmPricingMode mode;
  double usd_per_gpu_hour;    /* rent */
  double amortization_years;  /* buy */
  double support_fraction;    /* yearly support as a fraction of hardware price */
  char   currency[8];         /* label only; the app converts nothing */
};

G_END_DECLS
