/* test-cluster.c: nodes, racks and the fat tree against NVIDIA's DGX
 * SuperPOD reference architecture tables.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-cluster.h"
#include "qm-power.h"

/* DGX H100 datasheet: 8 x H100, 8U, 10.2 kW max, 8 x 400 Gb/s ConnectX-7
 * compute NICs (one per GPU, rail-optimised). */
static QmServerSpec
dgx_h100 (void)
{
  QmServerSpec s = { 0, };

  s.info.id = "dgx-h100";
  s.info.price_usd = 300000;
  s.gpu_id = "h100-sxm-80gb";
  s.gpus = 8;
  s.cpus = 2;
  s.nics = 8;
  s.nic_gbps = 400;
  s.rack_units = 8;
  s.power_max_w = 10200;
  return s;
}

/* NVIDIA Quantum-2 QM9700: 64 NDR 400 Gb/s ports, 1U. */
static QmNetworkSpec
qm9700 (void)
{
  QmNetworkSpec n = { 0, };

  n.info.id = "ib-ndr-400";
  n.ports = 64;
  n.port_gbps = 400;
  n.power_w = 1720;
  n.rack_units = 1;
  return n;
}

static QmFacility
facility (void)
{
  QmFacility f = { 0, };

  f.pue = 1.25;
  f.rack_kw = 40;
  f.rack_units = 42;
  f.air_cooling_kw = 40;
  return f;
}

/* "Larger DGX SuperPOD component counts", DGX SuperPOD RA (DGX B200, NDR
 * QM9700, SU = 32 nodes, 8 rails):
 * docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200
 * The DGX H100 RA uses the same SU and switch; its text gives 2,048 nodes
 * as the 64-SU size. */
static const struct
{
  guint nodes, leaf, spine, core, node_leaf, leaf_spine, spine_core;
} superpod[] = {
  {   64,  16,   8,   0,   512,   512,     0 },
  {  128,  32,  16,   0,  1024,  1024,     0 },
  {  256,  64,  32,   0,  2048,  2048,     0 },
  {  512, 128, 128,  64,  4096,  4096,  4096 },
  { 1024, 256, 256, 128,  8192,  8192,  8192 },
  { 2048, 512, 512, 256, 16384, 16384, 16384 },
};

static void
test_superpod_table (void)
{
  QmServerSpec srv = dgx_h100 ();
  QmNetworkSpec net = qm9700 ();
  QmFacility fac = facility ();

  for (guint i = 0; i < G_N_ELEMENTS (superpod); i++)
    {
      QmClusterInput in = { 0, };
      QmCluster c;

      in.gpus = superpod[i].nodes * 8;
      in.server = &srv;
      in.network = &net;
      in.facility = &fac;
      qm_cluster_compute (&in, &c);

      g_assert_cmpuint (c.nodes, ==, superpod[i].nodes);
      g_assert_cmpuint (c.network.leaf_switches, ==, superpod[i].leaf);
      g_assert_cmpuint (c.network.spine_switches, ==, superpod[i].spine);
      g_assert_cmpuint (c.network.core_switches, ==, superpod[i].core);
      g_assert_cmpuint (c.network.node_leaf_cables, ==, superpod[i].node_leaf);
      g_assert_cmpuint (c.network.leaf_spine_cables, ==, superpod[i].leaf_spine);
      g_assert_cmpuint (c.network.spine_core_cables, ==, superpod[i].spine_core);
      g_assert_cmpuint (c.network.tiers, ==, superpod[i].core ? 3 : 2);
      g_assert_cmpuint (c.network.cables, ==,
                        superpod[i].node_leaf + superpod[i].leaf_spine + superpod[i].spine_core);
      g_assert_cmpuint (c.network.transceivers, ==, 2 * c.network.cables);
      g_assert_cmpuint (c.issues.n, ==, 0);
    }
}

/* DGX SuperPOD RA for DGX B300 on XDR (144-port switches, SU = 72 nodes),
 * "Example Compute Fabric Components": 1 SU 8/4, 2 SU 16/8, 4 SU 32/18,
 * 8 SU 64/36, 18 SU 144/72. 18 and 36 spines come from spreading each
 * leaf's 72 uplinks evenly (smallest divisor of 72 that carries them). */
static void
test_superpod_xdr_table (void)
{
  static const guint rows[][3] = {
    {   72,   8,  4 }, {  144,  16,  8 }, {  288,  32, 18 },
    {  576,  64, 36 }, { 1296, 144, 72 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      QmFabric f;

      g_assert_true (qm_cluster_fat_tree (rows[i][0], 8, 144, &f));
      g_assert_cmpuint (f.leaf_switches, ==, rows[i][1]);
      g_assert_cmpuint (f.spine_switches, ==, rows[i][2]);
      g_assert_cmpuint (f.core_switches, ==, 0);
      g_assert_cmpuint (f.node_leaf_cables, ==, rows[i][0] * 8);
      g_assert_cmpuint (f.leaf_spine_cables, ==, rows[i][0] * 8);
    }
}

/* DGX H100 RA, one SU of 31 DGX plus UFM on 32 ports per rail: 8 leaf and
 * 4 spine; three SUs need 12 spines' worth of uplinks, and 16 divide every
 * leaf's 32 uplinks evenly. */
static void
test_small_fabrics (void)
{
  QmFabric f;

  qm_cluster_fat_tree (32, 8, 64, &f);
  g_assert_cmpuint (f.leaf_switches, ==, 8);
  g_assert_cmpuint (f.spine_switches, ==, 4);
  qm_cluster_fat_tree (96, 8, 64, &f);
  g_assert_cmpuint (f.leaf_switches, ==, 24);
  g_assert_cmpuint (f.spine_switches, ==, 16);

  /* 8 nodes of 72 NICs (GB200 NVL72 racks): 4 rails share each 32-port
   * leaf, 18 leaves; 576 uplinks need 9 spines, 16 divide 32 evenly. */
  qm_cluster_fat_tree (8, 72, 64, &f);
  g_assert_cmpuint (f.leaf_switches, ==, 18);
  g_assert_cmpuint (f.spine_switches, ==, 16);
  /* 9 DGX (72 ports): 3 rails per leaf, 3 leaves. */
  qm_cluster_fat_tree (9, 8, 64, &f);
  g_assert_cmpuint (f.leaf_switches, ==, 3);

  /* 2 nodes x 8 rails = 16 ports: one switch, copper, no optics. */
  qm_cluster_fat_tree (2, 8, 64, &f);
  g_assert_cmpuint (f.tiers, ==, 1);
  g_assert_cmpuint (f.leaf_switches, ==, 1);
  g_assert_cmpuint (f.spine_switches, ==, 0);
  g_assert_cmpuint (f.cables, ==, 16);
  g_assert_cmpuint (f.transceivers, ==, 0);

  /* Radix below 2 is rejected. */
  g_assert_false (qm_cluster_fat_tree (2, 8, 1, &f));
  g_assert_cmpuint (f.leaf_switches, ==, 0);
}

static void
test_single_node (void)
{
  QmServerSpec srv = dgx_h100 ();
  QmNetworkSpec net = qm9700 ();
  QmFacility fac = facility ();
  QmClusterInput in = { .gpus = 8, .server = &srv, .network = &net, .facility = &fac };
  QmCluster c;

  qm_cluster_compute (&in, &c);
  g_assert_cmpuint (c.nodes, ==, 1);
  /* One node talks over NVLink: no compute fabric. */
  g_assert_cmpuint (c.network.tiers, ==, 0);
  g_assert_cmpuint (c.network.leaf_switches, ==, 0);
  g_assert_cmpuint (c.mgmt_switches, ==, 1);
  g_assert_cmpuint (c.racks, ==, 1);

  /* 12 GPUs on 8-GPU nodes: 2 nodes, with a warning on target.gpus. */
  in.gpus = 12;
  qm_cluster_compute (&in, &c);
  g_assert_cmpuint (c.nodes, ==, 2);
  g_assert_nonnull (qm_issues_find (&c.issues, "target.gpus"));
  g_assert_false (qm_issues_has_error (&c.issues));
}

/* Racks by units and by kW, whichever binds first. */
static void
test_racks (void)
{
  QmServerSpec srv = dgx_h100 ();
  QmNetworkSpec net = qm9700 ();
  QmFacility fac = facility ();
  QmClusterInput in = { .gpus = 64 * 8, .server = &srv, .network = &net, .facility = &fac };
  QmCluster c;

  /* 42U / 8U = 5 by units; 40 kW / 10.2 kW = 3 by power: kW binds. */
  qm_cluster_compute (&in, &c);
  g_assert_cmpuint (c.nodes_per_rack_by_units, ==, 5);
  g_assert_cmpuint (c.nodes_per_rack_by_kw, ==, 3);
  g_assert_cmpuint (c.nodes_per_rack, ==, 3);
  g_assert_true (c.rack_limited_by_kw);
  g_assert_cmpuint (c.compute_racks, ==, 22);         /* ceil (64 / 3) */
  g_assert_cmpfloat_with_epsilon (c.rack_kw_peak, 30.6, 1e-9);
  g_assert_false (c.liquid_cooling);
  /* 24 fabric switches + ceil ((64 + 24) / 48) = 2 management switches =
   * 26U: the last rack (1 node, 34U free) has room but not the power
   * (40 - 10.2 = 29.8 kW < 24 x 1.72 = 41.3 kW), so 2 switch racks by kW. */
  g_assert_cmpuint (c.switches, ==, 24);
  g_assert_cmpuint (c.mgmt_switches, ==, 2);
  g_assert_cmpuint (c.network_racks, ==, 2);
  g_assert_cmpuint (c.racks, ==, 24);

  /* A 130 kW rack: units bind (5 per rack), 51 kW > 40 kW air limit. */
  fac.rack_kw = 130;
  qm_cluster_compute (&in, &c);
  g_assert_cmpuint (c.nodes_per_rack, ==, 5);
  g_assert_false (c.rack_limited_by_kw);
  g_assert_cmpuint (c.compute_racks, ==, 13);
  g_assert_cmpfloat_with_epsilon (c.rack_kw_peak, 51.0, 1e-9);
  g_assert_true (c.liquid_cooling);
}

/* NVIDIA GB200 NVL72 datasheet: 72 Blackwell GPUs and 36 Grace CPUs in one
 * liquid-cooled rack (18 compute trays, 9 NVLink switch trays), one
 * 72-GPU NVLink domain, one ConnectX-7 400 Gb/s NIC per GPU; about 120 kW
 * typical, 132 kW in HPE's build (used as the maximum), 48U. */
static QmServerSpec
gb200_nvl72 (void)
{
  QmServerSpec s = { 0, };

  s.info.id = "gb200-nvl72";
  s.gpu_id = "gb200";
  s.gpus = 72;
  s.cpus = 36;
  s.nics = 72;
  s.nic_gbps = 400;
  s.rack_units = 48;
  s.power_max_w = 132000;
  s.rack_scale = TRUE;
  s.liquid_cooled = TRUE;
  return s;
}

/* A rack-scale system is its own rack: under a 42U / 40 kW facility
 * (qm_plan_init's defaults) eight NVL72 are eight compute racks of 132 kW,
 * liquid-cooled, with no "rack is smaller than one server" error; the
 * facility's kW per rack is a warning about the positions. The switches,
 * which the NVL72 rack has no units for, get racks of their own. Power
 * counts the same 8 x 132 kW. */
static void
test_rack_scale (void)
{
  QmServerSpec srv = gb200_nvl72 ();
  QmNetworkSpec net = qm9700 ();
  QmFacility fac = facility ();
  QmClusterInput in = { .gpus = 8 * 72, .server = &srv, .network = &net, .facility = &fac };
  QmPowerInput pi = { 0, };
  QmPower pw;
  QmCluster c;
  const QmIssue *issue;

  qm_cluster_compute (&in, &c);
  g_assert_false (qm_issues_has_error (&c.issues));
  g_assert_cmpuint (c.nodes, ==, 8);
  g_assert_cmpuint (c.nodes_per_rack, ==, 1);
  g_assert_cmpuint (c.compute_racks, ==, 8);
  g_assert_false (c.rack_limited_by_kw);
  g_assert_cmpfloat_with_epsilon (c.rack_kw_peak, 132.0, 1e-9);
  g_assert_true (c.liquid_cooling);
  issue = qm_issues_find (&c.issues, "facility.rack_kw");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_WARNING);
  g_assert_cmpuint (c.network_racks, >=, 1);
  g_assert_cmpuint (c.racks, ==, c.compute_racks + c.network_racks + c.storage_racks);

  pi.cluster = &c;
  pi.server = &srv;
  pi.facility = &fac;
  pi.network = &net;
  qm_power_compute (&pi, &pw);
  g_assert_cmpfloat_with_epsilon (pw.gpus_kw + pw.servers_kw, 8 * 132.0, 1e-6);

  /* A facility whose positions feed 132 kW: no warning. */
  fac.rack_kw = 132;
  qm_cluster_compute (&in, &c);
  g_assert_null (qm_issues_find (&c.issues, "facility.rack_kw"));
  g_assert_cmpuint (c.compute_racks, ==, 8);

  /* The same system not marked rack-scale does not fit a 42U rack: the
   * old refusal, which the flag exists to lift. */
  srv.rack_scale = FALSE;
  fac.rack_kw = 40;
  qm_cluster_compute (&in, &c);
  g_assert_true (qm_issues_has_error (&c.issues));

  /* A liquid-cooled 8-GPU server (MI355X platform, 14 kW) asks for liquid
   * cooling even in a rack below the air limit. */
  srv = dgx_h100 ();
  srv.power_max_w = 14000;
  srv.rack_units = 4;
  srv.liquid_cooled = TRUE;
  in.gpus = 64;
  qm_cluster_compute (&in, &c);
  g_assert_cmpfloat (c.rack_kw_peak, <, fac.air_cooling_kw);
  g_assert_true (c.liquid_cooling);
}

static void
test_storage (void)
{
  QmServerSpec srv = dgx_h100 ();
  QmNetworkSpec net = qm9700 ();
  QmFacility fac = facility ();
  QmStorageSpec st = { 0, };
  QmClusterInput in = { .gpus = 16, .server = &srv, .network = &net, .facility = &fac,
                        .storage = &st };
  QmCluster c;

  st.write_gbs_per_tb = 0.5;
  st.rack_units_per_pb = 20;
  st.watts_per_tb = 4.8;
  in.dataset_bytes = 10e12;
  in.checkpoint_bytes = 1e12;
  in.checkpoints_kept = 2;
  in.checkpoint_target_s = 60;
  qm_cluster_compute (&in, &c);

  /* 10 TB + 2 x 1 TB = 12 TB; it brings 6 GB/s, the 60 s target needs
   * 1e12 / 60 = 16.67 GB/s, so 10.67 GB/s more. */
  g_assert_cmpfloat_with_epsilon (c.storage_tb, 12.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (c.storage_write_bytes_per_s, 1e12 / 60, 1.0);
  g_assert_cmpfloat_with_epsilon (c.storage_extra_gbs, 1e3 / 60 - 6.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (c.checkpoint_write_s, 60.0, 1e-9);
  /* Issue #35 item 8 (a storage rack drawn at 0.0 kW): the 16.67 GB/s are
   * 33.3 TB worth of the catalog's blocks, which bring capacity, GB/s,
   * watts and rack units together: 33.3 TB x 4.8 W = 160 W, and
   * ceil (0.0333 PB x 20 U) = 1 U, where 12 TB alone gave 57.6 W. */
  g_assert_cmpfloat_with_epsilon (c.storage_installed_tb, 1e3 / 60 / 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (c.storage_w, 1e3 / 60 / 0.5 * 4.8, 1e-9);
  g_assert_cmpuint (c.storage_units, ==, 1);
  /* Storage fabric: 2 nodes x 2 ports + ceil (16.67 GB/s x 8 / 400 Gb/s) = 1. */
  g_assert_cmpuint (c.storage_network.endpoints, ==, 5);
  g_assert_cmpuint (c.storage_network.leaf_switches, ==, 1);

  /* Default: two checkpoints kept; no target, only what capacity brings. */
  in.checkpoints_kept = 0;
  in.checkpoint_target_s = 0;
  qm_cluster_compute (&in, &c);
  g_assert_cmpfloat_with_epsilon (c.storage_tb, 10.0 + QM_CLUSTER_CHECKPOINTS_KEPT_DEFAULT, 1e-9);
  g_assert_cmpfloat (c.storage_extra_gbs, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (c.storage_write_bytes_per_s, 6e9, 1.0);
  /* Capacity-bound: the blocks are the capacity. */
  g_assert_cmpfloat_with_epsilon (c.storage_installed_tb, c.storage_tb, 1e-9);
  g_assert_cmpfloat_with_epsilon (c.storage_w, c.storage_tb * 4.8, 1e-9);
}

static void
assert_finite_cluster (const QmCluster *c)
{
  g_assert_true (isfinite (c->node_power_w));
  g_assert_true (isfinite (c->rack_kw_peak));
  g_assert_true (isfinite (c->storage_tb));
  g_assert_true (isfinite (c->storage_write_bytes_per_s));
  g_assert_true (isfinite (c->checkpoint_write_s));
  g_assert_cmpuint (c->nodes_per_rack, >=, 1);
}

static void
test_bad_input (void)
{
  QmServerSpec srv = dgx_h100 ();
  QmNetworkSpec net = qm9700 ();
  QmFacility fac = facility ();
  QmClusterInput in = { .gpus = 64, .server = &srv, .network = &net, .facility = &fac };
  QmCluster c;
  const QmIssue *issue;
  g_autofree char *text = NULL;

  /* A 6U rack cannot hold an 8U server. */
  fac.rack_units = 6;
  qm_cluster_compute (&in, &c);
  issue = qm_issues_find (&c.issues, "facility.rack_units");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_ERROR);
  text = qm_issue_to_string (issue);
  g_assert_cmpstr (text, ==, "facility.rack_units: rack is smaller than one server (got 6)");
  assert_finite_cluster (&c);

  /* 5 kW per rack is below one DGX H100 (10.2 kW). */
  fac = facility ();
  fac.rack_kw = 5;
  qm_cluster_compute (&in, &c);
  issue = qm_issues_find (&c.issues, "facility.rack_kw");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_ERROR);
  g_assert_cmpuint (c.nodes_per_rack, ==, 1);
  g_assert_cmpuint (c.compute_racks, ==, c.nodes);
  assert_finite_cluster (&c);

  /* Non-finite and negative inputs. */
  fac = facility ();
  fac.rack_kw = NAN;
  in.dataset_bytes = -1;
  in.checkpoint_bytes = INFINITY;
  qm_cluster_compute (&in, &c);
  g_assert_nonnull (qm_issues_find (&c.issues, "facility.rack_kw"));
  g_assert_nonnull (qm_issues_find (&c.issues, "workload.dataset_bytes"));
  g_assert_nonnull (qm_issues_find (&c.issues, "reliability.checkpoint_bytes"));
  assert_finite_cluster (&c);

  /* A server of 0 GPUs or 0 U. */
  fac = facility ();
  in.dataset_bytes = 0;
  in.checkpoint_bytes = 0;
  srv.gpus = 0;
  srv.rack_units = 0;
  qm_cluster_compute (&in, &c);
  g_assert_nonnull (qm_issues_find (&c.issues, "hardware.server.gpus"));
  g_assert_nonnull (qm_issues_find (&c.issues, "hardware.server.rack_units"));
  assert_finite_cluster (&c);
}

/* Properties over random valid inputs. */
static void
test_random (void)
{
  QmNetworkSpec net = qm9700 ();

  for (guint i = 0; i < 5000; i++)
    {
      QmServerSpec srv = dgx_h100 ();
      QmFacility fac = facility ();
      QmClusterInput in = { 0, };
      QmCluster c, c2;
      guint radix_choices[] = { 40, 64, 128, 144 };

      srv.gpus = g_test_rand_int_range (1, 9);
      srv.nics = g_test_rand_int_range (0, 9);
      srv.rack_units = g_test_rand_int_range (1, 11);
      srv.power_max_w = g_test_rand_double_range (500, 15000);
      fac.rack_units = g_test_rand_int_range (srv.rack_units, 53);
      fac.rack_kw = g_test_rand_double_range (srv.power_max_w / 1000.0 * 1.001, 150);
      net.ports = radix_choices[g_test_rand_int_range (0, 4)];
      in.gpus = g_test_rand_int_range (1, 20000);
      in.server = &srv;
      in.network = &net;
      in.facility = &fac;
      qm_cluster_compute (&in, &c);

      assert_finite_cluster (&c);
      g_assert_false (qm_issues_has_error (&c.issues));
      g_assert_cmpuint (c.compute_racks * c.nodes_per_rack, >=, c.nodes);
      g_assert_cmpuint (c.racks, >=, (c.nodes + c.nodes_per_rack - 1) / c.nodes_per_rack);
      g_assert_cmpfloat (c.rack_kw_peak, <=, fac.rack_kw + 1e-9);
      g_assert_cmpuint (c.nodes_per_rack * srv.rack_units, <=, fac.rack_units);
      if (c.network.tiers >= 2)
        {
          /* Non-blocking: as many uplinks as downlinks per leaf. */
          g_assert_cmpuint (c.network.leaf_spine_cables, ==, c.network.leaf_switches * (net.ports / 2));
          g_assert_cmpuint (c.network.spine_switches * net.ports, >=, c.network.leaf_spine_cables);
        }

      /* More GPUs never need fewer racks or switches. */
      in.gpus += g_test_rand_int_range (1, 1000);
      qm_cluster_compute (&in, &c2);
      g_assert_cmpuint (c2.racks, >=, c.racks);
      g_assert_cmpuint (c2.switches, >=, c.switches);
      g_assert_cmpuint (c2.cables, >=, c.cables);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cluster/superpod-table", test_superpod_table);
  g_test_add_func ("/cluster/superpod-xdr-table", test_superpod_xdr_table);
  g_test_add_func ("/cluster/small-fabrics", test_small_fabrics);
  g_test_add_func ("/cluster/single-node", test_single_node);
  g_test_add_func ("/cluster/racks", test_racks);
  g_test_add_func ("/cluster/rack-scale", test_rack_scale);
  g_test_add_func ("/cluster/storage", test_storage);
  g_test_add_func ("/cluster/bad-input", test_bad_input);
  g_test_add_func ("/cluster/random", test_random);
  return g_test_run ();
}
