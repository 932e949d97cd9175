/* qm-cluster.c: nodes, racks, the rail-optimised fat tree, storage sizing.
 *
 * The fabric reproduces NVIDIA's "Larger DGX SuperPOD component counts"
 * table (DGX SuperPOD reference architecture with DGX B200 / DGX H100,
 * NDR QM9700 64-port switches, 8 rails, scalable unit = 32 nodes;
 * docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200,
 * "DGX SuperPOD Architecture"):
 *
 *   SUs  nodes  GPUs    leaf  spine  core   node-leaf  leaf-spine  spine-core
 *    2     64    512     16     8     -       512         512          -
 *    4    128   1024     32    16     -      1024        1024          -
 *    8    256   2048     64    32     -      2048        2048          -
 *   16    512   4096    128   128    64      4096        4096        4096
 *   32   1024   8192    256   256   128      8192        8192        8192
 *   64   2048  16384    512   512   256     16384       16384       16384
 *
 * The B300/XDR table of the same RA family (144-port switches, SU = 72
 * nodes) gives 18 spines for 32 leaves and 36 for 64: the spine count is the
 * smallest divisor of a leaf's uplinks that carries them all, so that every
 * leaf has the same number of links to every spine.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-cluster.h"
#include "qm-power.h"

/* ---------------------------------------------------------------------- */
/* Fat tree                                                                */

static guint
ceil_div (guint64 a,
          guint64 b)
{
  guint64 r;

  if (b == 0)
    return 0;
  r = (a + b - 1) / b;
  return r > G_MAXUINT ? G_MAXUINT : (guint) r;
}

/* Smallest divisor of @n that is >= @need (n itself at most). */
static guint
smallest_divisor_at_least (guint n,
                           guint need)
{
  for (guint d = MAX (need, 1); d < n; d++)
    if (n % d == 0)
      return d;
  return MAX (n, need);
}

gboolean
qm_cluster_fat_tree (guint     nodes,
                     guint     rails,
                     guint     radix,
                     QmFabric *out)
{
  guint64 endpoints = (guint64) nodes * rails;
  guint half = radix / 2;
  guint64 uplinks;

  memset (out, 0, sizeof *out);
  if (radix < 2)
    return FALSE;
  if (endpoints == 0)
    return TRUE;

  out->rails = rails;
  out->endpoints = (guint) MIN (endpoints, G_MAXUINT);
  out->node_leaf_cables = out->endpoints;

  if (endpoints <= radix)
    {
      /* Everything on one switch: no spine, copper inside the rack. */
      out->tiers = 1;
      out->leaf_switches = 1;
      out->cables = out->node_leaf_cables;
      out->transceivers = 0;
      return TRUE;
    }

  /* One leaf per rail per scalable unit of radix/2 nodes; the other half of
   * each leaf's ports go up (non-blocking). SuperPOD RA: 8 leaves per SU.
   * With fewer nodes than a leaf has downlinks, several rails share a leaf
   * (e.g. 8 GB200 NVL72 racks x 72 NICs = 576 ports on 18 leaves). */
  if (nodes < half)
    out->leaf_switches = ceil_div (rails, half / nodes);
  else
    out->leaf_switches = ceil_div (nodes, half) * rails;
  uplinks = (guint64) out->leaf_switches * half;
  out->leaf_spine_cables = (guint) MIN (uplinks, G_MAXUINT);

  if (out->leaf_switches <= radix)
    {
      /* Two tiers hold up to radix leaves (radix^2/2 endpoints). */
      out->tiers = 2;
      out->spine_switches = smallest_divisor_at_least (half, ceil_div (uplinks, radix));
    }
  else
    {
      /* Three tiers: each spine has radix/2 ports down and radix/2 up, so
       * there are as many spines as leaves, and the core takes all spine
       * uplinks on all its ports (SuperPOD table: 512 / 512 / 256). */
      out->tiers = 3;
      out->spine_switches = out->leaf_switches;
      out->spine_core_cables = (guint) MIN ((guint64) out->spine_switches * half, G_MAXUINT);
      out->core_switches = ceil_div (out->spine_core_cables, radix);
    }

  out->cables = out->node_leaf_cables + out->leaf_spine_cables + out->spine_core_cables;
  /* Leaves sit in network racks away from the nodes, so every link is
   * optical: one module at each end. */
  out->transceivers = (guint) MIN ((guint64) out->cables * 2, G_MAXUINT);
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Cluster                                                                 */

static double
finite_nonneg (double v)
{
  return (isfinite (v) && v > 0.0) ? v : 0.0;
}

static void
size_storage (const QmClusterInput *in,
              QmCluster            *out)
{
  const QmStorageSpec *st = in->storage;
  guint kept = in->checkpoints_kept ? in->checkpoints_kept : QM_CLUSTER_CHECKPOINTS_KEPT_DEFAULT;
  double dataset = finite_nonneg (in->dataset_bytes);
  double ckpt = finite_nonneg (in->checkpoint_bytes);
  double target = finite_nonneg (in->checkpoint_target_s);
  double have_bps, need_bps;

  if (!isfinite (in->dataset_bytes) || in->dataset_bytes < 0)
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "workload.dataset_bytes",
                   N_("must be >= 0"), in->dataset_bytes);
  if (!isfinite (in->checkpoint_bytes) || in->checkpoint_bytes < 0)
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "reliability.checkpoint_bytes",
                   N_("must be >= 0"), in->checkpoint_bytes);

  /* Capacity: the dataset plus the kept checkpoints. */
  out->storage_bytes = dataset + ckpt * kept;
  out->storage_tb = out->storage_bytes / 1e12;

  if (st == NULL)
    return;

  /* Bandwidth: what the capacity brings, topped up to write one checkpoint
   * in the target time. */
  have_bps = out->storage_tb * finite_nonneg (st->write_gbs_per_tb) * 1e9;
  need_bps = target > 0.0 ? ckpt / target : 0.0;
  out->storage_write_bytes_per_s = MAX (have_bps, need_bps);
  out->storage_extra_gbs = MAX (0.0, need_bps - have_bps) / 1e9;
  out->checkpoint_write_s = out->storage_write_bytes_per_s > 0.0
                          ? ckpt / out->storage_write_bytes_per_s : 0.0;

  /* The blocks installed for the larger of capacity and bandwidth: the
   * catalog's per-TB figures describe one building block (capacity, write
   * GB/s, watts and rack units together), so the bandwidth bought beyond
   * what the capacity brings is more of the same blocks. */
  out->storage_installed_tb = out->storage_tb;
  if (finite_nonneg (st->write_gbs_per_tb) > 0.0)
    out->storage_installed_tb = MAX (out->storage_tb,
                                     out->storage_write_bytes_per_s / 1e9 / st->write_gbs_per_tb);
  out->storage_w = out->storage_installed_tb * finite_nonneg (st->watts_per_tb);

  /* Rack units of the storage system, for the rack count. */
  if (st->rack_units_per_pb > 0)
    out->storage_units = (guint) MIN (ceil (out->storage_installed_tb / 1000.0 * st->rack_units_per_pb),
                                      (double) G_MAXUINT);
}

static void
size_networks (const QmClusterInput *in,
               QmCluster            *out)
{
  const QmNetworkSpec *net = in->network;
  const QmServerSpec *srv = in->server;
  guint rails, ports_per_nic = 1;
  guint storage_ports = 0;
  guint mgmt_ports;

  if (net != NULL && net->ports < 2)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "hardware.network.ports",
                     N_("a switch needs at least 2 ports"), net->ports);
      net = NULL;
    }

  if (net != NULL)
    {
      /* A NIC faster than a switch port takes several ports (e.g. 800G NIC
       * on 400G ports). */
      if (srv->nic_gbps > 0 && net->port_gbps > 0 && srv->nic_gbps > net->port_gbps)
        ports_per_nic = (guint) ceil (srv->nic_gbps / net->port_gbps - 1e-9);
      rails = srv->nics * ports_per_nic;

      if (out->nodes > 1 && rails == 0)
        qm_issues_add (&out->issues, QM_ISSUE_WARNING, "hardware.server.nics",
                       N_("no compute NICs: nodes cannot train together"), 0);

      /* A single node talks over NVLink; it needs no compute fabric. */
      if (out->nodes > 1)
        qm_cluster_fat_tree (out->nodes, rails, net->ports, &out->network);

      /* Storage fabric: two ports per node plus the storage system's own
       * ports at its write bandwidth. Not rail-optimised. */
      if (in->storage != NULL && out->storage_write_bytes_per_s > 0 && net->port_gbps > 0)
        {
          storage_ports = out->nodes * QM_CLUSTER_STORAGE_PORTS_PER_NODE;
          storage_ports += (guint) ceil (out->storage_write_bytes_per_s * 8.0 / (net->port_gbps * 1e9));
          qm_cluster_fat_tree (storage_ports, 1, net->ports, &out->storage_network);
        }
    }

  out->switches = out->network.leaf_switches + out->network.spine_switches
                + out->network.core_switches
                + out->storage_network.leaf_switches + out->storage_network.spine_switches
                + out->storage_network.core_switches;

  /* Out-of-band management: one port per node and per managed switch. */
  mgmt_ports = out->nodes + out->switches;
  out->mgmt_switches = ceil_div (mgmt_ports, QM_CLUSTER_MGMT_SWITCH_PORTS);
  out->mgmt_cables = mgmt_ports;

  out->switch_units = out->switches * (net ? MAX (net->rack_units, 1) : 1)
                    + out->mgmt_switches * QM_CLUSTER_MGMT_SWITCH_UNITS;
  out->cables = out->network.cables + out->storage_network.cables + out->mgmt_cables;
  out->transceivers = out->network.transceivers + out->storage_network.transceivers;
}

/* Switch and storage racks: in @free_u units and @free_w watts of the last
 * compute rack when they fit there, else racks of their own, by rack units
 * and by kW. */
static void
pack_other_racks (const QmClusterInput *in,
                  QmCluster            *out,
                  guint                 rack_u,
                  double                rack_w,
                  guint                 free_u,
                  double                free_w)
{
  double switch_w = 0.0, storage_w = 0.0;

  if (in->network != NULL)
    switch_w = out->switches * finite_nonneg (in->network->power_w);
  if (in->storage != NULL)
    storage_w = out->storage_w;

  if (out->compute_racks > 0
      && out->switch_units + out->storage_units <= free_u
      && switch_w + storage_w <= free_w)
    {
      out->network_racks = 0;
      out->storage_racks = 0;
    }
  else
    {
      out->network_racks = ceil_div (out->switch_units, rack_u);
      out->storage_racks = ceil_div (out->storage_units, rack_u);
      if (rack_w > 0.0)
        {
          out->network_racks = MAX (out->network_racks, (guint) ceil (switch_w / rack_w));
          out->storage_racks = MAX (out->storage_racks, (guint) ceil (storage_w / rack_w));
        }
    }

  out->racks = out->compute_racks + out->network_racks + out->storage_racks;
}

/* A rack-scale system (GB200 NVL72: 18 compute trays, 9 NVLink switch
 * trays and the power shelves in one liquid-cooled 48U rack; NVIDIA GB200
 * NVL72 datasheet) is delivered as its own rack: one node per rack, its
 * height and kW its own, not the facility's rack that servers are packed
 * into. The facility's kW per rack still says what a position can feed:
 * below the system's power it is a warning (the site must provide those
 * positions), not a refusal. Switches and storage get racks of their own,
 * as the system's rack has no free units. */
static void
pack_rack_scale (const QmClusterInput *in,
                 QmCluster            *out,
                 guint                 rack_u,
                 double                rack_w,
                 double                air_kw)
{
  out->nodes_per_rack_by_units = 1;
  out->nodes_per_rack_by_kw = 1;
  out->nodes_per_rack = 1;
  out->rack_limited_by_kw = FALSE;
  out->compute_racks = out->nodes;
  out->rack_kw_peak = out->nodes > 0 ? out->node_power_w / 1000.0 : 0.0;
  out->liquid_cooling = in->server->liquid_cooled || out->rack_kw_peak > air_kw;

  if (rack_w > 0.0 && out->node_power_w > rack_w)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "facility.rack_kw",
                   N_("below the rack-scale system's own rack power: its positions need a feed of that size"),
                   in->facility->rack_kw);
  pack_other_racks (in, out, rack_u, rack_w, 0, 0.0);
}

static void
pack_racks (const QmClusterInput *in,
            QmCluster            *out)
{
  const QmFacility *fac = in->facility;
  const QmServerSpec *srv = in->server;
  guint rack_u = fac->rack_units;
  guint server_u = srv->rack_units;
  double rack_w = isfinite (fac->rack_kw) ? fac->rack_kw * 1000.0 : 0.0;
  double air_kw = (isfinite (fac->air_cooling_kw) && fac->air_cooling_kw > 0)
                ? fac->air_cooling_kw : QM_CLUSTER_AIR_COOLING_KW_DEFAULT;
  guint last_nodes, free_u;
  double free_w;

  if (server_u == 0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "hardware.server.rack_units",
                     N_("must be > 0"), 0);
      server_u = 1;
    }
  if (rack_u == 0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "facility.rack_units",
                     N_("must be > 0"), 0);
      rack_u = server_u;
    }

  if (srv->rack_scale)
    {
      pack_rack_scale (in, out, rack_u, rack_w, air_kw);
      return;
    }

  /* By rack units. */
  out->nodes_per_rack_by_units = rack_u / server_u;
  if (out->nodes_per_rack_by_units == 0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "facility.rack_units",
                     N_("rack is smaller than one server"), rack_u);
      out->nodes_per_rack_by_units = 1;
    }

  /* By kW: the provisioned (nameplate) power, since PDUs and breakers are
   * sized for the maximum. */
  if (rack_w > 0.0 && out->node_power_w > 0.0)
    {
      double by_kw = floor (rack_w / out->node_power_w);
      out->nodes_per_rack_by_kw = by_kw > G_MAXUINT ? G_MAXUINT : (guint) by_kw;
      if (out->nodes_per_rack_by_kw == 0)
        {
          qm_issues_add (&out->issues, QM_ISSUE_ERROR, "facility.rack_kw",
                         N_("below the power of one node"), fac->rack_kw);
          out->nodes_per_rack_by_kw = 1;
        }
    }
  else
    {
      if (!(isfinite (fac->rack_kw) && fac->rack_kw >= 0.0))
        qm_issues_add (&out->issues, QM_ISSUE_ERROR, "facility.rack_kw",
                       N_("must be >= 0 (0 = no limit)"), fac->rack_kw);
      out->nodes_per_rack_by_kw = out->nodes_per_rack_by_units;
    }

  out->nodes_per_rack = MIN (out->nodes_per_rack_by_units, out->nodes_per_rack_by_kw);
  out->rack_limited_by_kw = out->nodes_per_rack_by_kw < out->nodes_per_rack_by_units;
  out->compute_racks = ceil_div (out->nodes, out->nodes_per_rack);
  out->rack_kw_peak = MIN (out->nodes_per_rack, out->nodes) * out->node_power_w / 1000.0;
  out->liquid_cooling = out->rack_kw_peak > air_kw || srv->liquid_cooled;

  /* Small clusters put their switches and storage in the free space of
   * the last compute rack. */
  last_nodes = out->nodes - (out->compute_racks ? out->compute_racks - 1 : 0) * out->nodes_per_rack;
  free_u = rack_u > last_nodes * server_u ? rack_u - last_nodes * server_u : 0;
  free_w = rack_w > 0.0 ? rack_w - last_nodes * out->node_power_w : G_MAXDOUBLE;
  pack_other_racks (in, out, rack_u, rack_w, free_u, free_w);
}

void
qm_cluster_compute (const QmClusterInput *in,
                    QmCluster            *out)
{
  QmNodeWatts watts;
  guint per_node;

  memset (out, 0, sizeof *out);
  g_return_if_fail (in != NULL && in->server != NULL && in->facility != NULL);

  /* Nodes: GPUs over GPUs per node, rounded up. */
  per_node = in->server->gpus;
  if (per_node == 0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "hardware.server.gpus",
                     N_("must be > 0"), 0);
      per_node = 1;
    }
  out->gpus = in->gpus;
  out->nodes = ceil_div (in->gpus, per_node);
  if (in->gpus % per_node != 0)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "target.gpus",
                   N_("not a multiple of the GPUs per node; the last node is partly used"),
                   in->gpus);

  out->node_power_w = qm_power_node_watts (in->server, in->gpu, &watts);

  size_storage (in, out);
  size_networks (in, out);
  pack_racks (in, out);
}
