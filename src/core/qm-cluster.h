/* qm-cluster.h: nodes, racks, the rail-optimised fat tree, storage sizing.
 *
 * Pure functions of their inputs: no allocation, no I/O, no catalog look-ups.
 * The caller passes the specs it resolved. Counts follow NVIDIA's DGX
 * SuperPOD reference architectures (see qm-cluster.c for the tables).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"
#include "qm-issue.h"

G_BEGIN_DECLS

/* ---------------------------------------------------------------------- */
/* Cluster                                                                 */

/* Ports per node on the storage fabric: DGX H100/B200 connect two
 * ConnectX-7 ports to the storage (and in-band) fabric (DGX SuperPOD RA,
 * "Storage fabric"). */
#define QM_CLUSTER_STORAGE_PORTS_PER_NODE 2
/* Out-of-band management: SN2201-class 48-port 1 GbE switches, one port per
 * node and per managed switch (DGX SuperPOD RA, "Out-of-band management"). */
#define QM_CLUSTER_MGMT_SWITCH_PORTS      48
#define QM_CLUSTER_MGMT_SWITCH_UNITS      1
/* Checkpoints kept on storage when the plan does not say: the latest plus
 * one fallback in case the latest is corrupt (assumption, not sourced). */
#define QM_CLUSTER_CHECKPOINTS_KEPT_DEFAULT 2
/* Air-cooling limit per rack when the facility does not give one. AI racks
 * need liquid cooling above about 40-50 kW (docs/estimation-anchors.md §5, [M]). */
#define QM_CLUSTER_AIR_COOLING_KW_DEFAULT 40.0

typedef struct
{
  guint    gpus;
  const QmServerSpec  *server;   /* required */
  const QmGpuSpec     *gpu;      /* optional: bottom-up node power when the
                                  * server has no power_max_w */
  const QmNetworkSpec *network;  /* compute fabric, also used for storage
                                  * fabric; NULL = no fabric */
  const QmStorageSpec *storage;  /* NULL = no shared storage */
  const QmFacility    *facility; /* required */
  double   dataset_bytes;
  double   checkpoint_bytes;     /* one full checkpoint */
  guint    checkpoints_kept;     /* 0 = QM_CLUSTER_CHECKPOINTS_KEPT_DEFAULT */
  double   checkpoint_target_s;  /* write one checkpoint within this; 0 = no
                                  * bandwidth target beyond what capacity brings */
} QmClusterInput;

/* One fat-tree fabric. Field names match the docs/plan-file.md `network` keys. */
typedef struct
{
  guint tiers;             /* 0 = no fabric, 1 = one switch, 2 = leaf/spine,
                            * 3 = leaf/spine/core */
  guint rails;             /* leaf groups (one per NIC on rail-optimised nodes) */
  guint endpoints;         /* ports facing nodes or storage */
  guint leaf_switches;
  guint spine_switches;
  guint core_switches;
  guint node_leaf_cables;
  guint leaf_spine_cables;
  guint spine_core_cables;
  guint cables;            /* all tiers */
  guint transceivers;      /* one per end of every optical cable */
} QmFabric;

typedef struct
{
  guint    gpus;
  guint    nodes;

  /* Racks */
  double   node_power_w;             /* provisioned W of one node */
  guint    nodes_per_rack;
  guint    nodes_per_rack_by_units;
  guint    nodes_per_rack_by_kw;
  gboolean rack_limited_by_kw;       /* kW bound before rack units */
  guint    compute_racks;
  guint    network_racks;            /* 0 when the switches fit beside the nodes */
  guint    storage_racks;
  guint    racks;                    /* all of the above */
  double   rack_kw_peak;             /* provisioned kW of the fullest compute rack */
  gboolean liquid_cooling;           /* rack_kw_peak > the air-cooling limit */

  /* Networks. `network` is the compute fabric (docs/plan-file.md `network`). */
  QmFabric network;
  QmFabric storage_network;
  guint    mgmt_switches;
  guint    mgmt_cables;
  guint    switches;                 /* compute + storage fabric switches */
  guint    switch_units;             /* rack units of all switches */
  guint    cables;                   /* every cable, all three networks */
  guint    transceivers;             /* every optical module */

  /* Storage */
  double   storage_bytes;            /* dataset + kept checkpoints */
  double   storage_tb;
  double   storage_write_bytes_per_s;  /* provisioned write bandwidth */
  double   storage_extra_gbs;        /* bought beyond what capacity brings */
  /* The capacity installed: the building blocks that give both the
   * capacity and the write bandwidth (storage.json's source: a block
   * brings its TB, its GB/s and its watts together), so bandwidth bought
   * beyond what the capacity brings adds blocks, their units and watts. */
  double   storage_installed_tb;
  double   storage_w;                /* what those blocks draw */
  guint    storage_units;            /* rack units of the storage system */
  double   checkpoint_write_s;       /* one checkpoint at that bandwidth */

  QmIssues issues;
} QmCluster;

void     qm_cluster_compute   (const QmClusterInput *in,
                               QmCluster            *out);

/* The fat tree alone: @nodes each with @rails ports, switches of @radix
 * ports. Rail-optimised when @rails > 1 (one leaf per rail per scalable
 * unit of radix/2 nodes). Returns FALSE when @radix < 2. */
gboolean qm_cluster_fat_tree  (guint     nodes,
                               guint     rails,
                               guint     radix,
                               QmFabric *out);

G_END_DECLS
