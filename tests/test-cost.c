/* test-cost.c: hand-checked bills of materials for a 2-node and a
 * 1,024-node DGX H100 cluster, buy vs rent, bad prices, and properties of
 * the whole cluster -> power -> cost chain over random inputs.
 *
 * Prices here are round test figures, not quotes: the point is the
 * arithmetic. Counts follow the DGX SuperPOD RA (see test-cluster.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-cost.h"

typedef struct
{
  QmServerSpec   server;
  QmGpuSpec      gpu;
  QmNetworkSpec  network;
  QmNetworkSpec  mgmt;
  QmStorageSpec  storage;
  QmFacilityItem rack;
  QmFacilityItem pdu;
  QmFacility     facility;
  QmPricing      pricing;
} Fixture;

static void
fixture_init (Fixture *f)
{
  memset (f, 0, sizeof *f);

  /* DGX H100: 8 GPUs, 8 x 400G NICs, 8U, 10.2 kW max (datasheet). */
  f->server.info.id = "dgx-h100";
  f->server.info.source = "test price";
  f->server.info.price_usd = 300000;
  f->server.gpu_id = "h100-sxm-80gb";
  f->server.gpus = 8;
  f->server.nics = 8;
  f->server.nic_gbps = 400;
  f->server.rack_units = 8;
  f->server.power_max_w = 10200;

  f->gpu.info.id = "h100-sxm-80gb";
  f->gpu.info.price_usd = 25000;
  f->gpu.tdp_w = 700;

  /* QM9700: 64 x 400G, 1U. */
  f->network.info.id = "ib-ndr-400";
  f->network.info.source = "test price";
  f->network.info.as_of = "2024-01-01";
  f->network.info.price_usd = 30000;
  f->network.ports = 64;
  f->network.port_gbps = 400;
  f->network.power_w = 1720;
  f->network.rack_units = 1;
  f->network.nic_usd = 1500;
  f->network.transceiver_usd = 700;
  f->network.transceiver_w = 15;
  f->network.cable_usd = 100;

  f->mgmt.info.id = "eth-1g-48";
  f->mgmt.info.price_usd = 5000;
  f->mgmt.ports = 48;
  f->mgmt.power_w = 100;

  f->storage.info.id = "parallel-fs";
  f->storage.usd_per_tb = 300;
  f->storage.usd_per_gbs = 2000;
  f->storage.write_gbs_per_tb = 0.1;
  f->storage.watts_per_tb = 10;
  f->storage.rack_units_per_pb = 20;
  f->storage.usd_per_tb_month = 20;

  f->rack.info.id = "rack-42u";
  f->rack.info.price_usd = 2000;
  f->rack.rack_units = 42;
  f->pdu.info.id = "pdu-17kw";
  f->pdu.info.price_usd = 1500;
  f->pdu.kw_limit = 17.3;

  f->facility.pue = 1.25;
  f->facility.usd_per_kwh = 0.08;
  f->facility.rack_kw = 40;
  f->facility.rack_units = 42;
  f->facility.gco2_per_kwh = 380;
  f->facility.air_cooling_kw = 40;
  f->facility.colo_usd_per_kw_month = 150;

  f->pricing.mode = QM_PRICING_BUY;
  f->pricing.usd_per_gpu_hour = 2.5;
  f->pricing.amortization_years = 4;
  f->pricing.support_fraction = 0.10;
}

typedef struct
{
  QmCluster cluster;
  QmPower   power;
  QmCost    cost;
} Result;

static void
run_chain (const Fixture *f,
           guint          gpus,
           double         dataset_bytes,
           double         checkpoint_bytes,
           double         checkpoint_target_s,
           double         run_s,
           Result        *r)
{
  QmClusterInput ci = { 0, };
  QmPowerInput pi = { 0, };
  QmCostInput ki = { 0, };

  ci.gpus = gpus;
  ci.server = &f->server;
  ci.gpu = &f->gpu;
  ci.network = &f->network;
  ci.storage = &f->storage;
  ci.facility = &f->facility;
  ci.dataset_bytes = dataset_bytes;
  ci.checkpoint_bytes = checkpoint_bytes;
  ci.checkpoints_kept = 2;
  ci.checkpoint_target_s = checkpoint_target_s;
  qm_cluster_compute (&ci, &r->cluster);

  pi.cluster = &r->cluster;
  pi.server = &f->server;
  pi.gpu = &f->gpu;
  pi.network = &f->network;
  pi.mgmt_network = &f->mgmt;
  pi.storage = &f->storage;
  pi.facility = &f->facility;
  pi.run_s = run_s;
  qm_power_compute (&pi, &r->power);

  ki.cluster = &r->cluster;
  ki.power = &r->power;
  ki.server = &f->server;
  ki.gpu = &f->gpu;
  ki.network = &f->network;
  ki.mgmt_network = &f->mgmt;
  ki.storage = &f->storage;
  ki.rack = &f->rack;
  ki.pdu = &f->pdu;
  ki.facility = &f->facility;
  ki.pricing = &f->pricing;
  ki.run_s = run_s;
  qm_cost_compute (&ki, &r->cost);
}

static const QmBomLine *
find_line (const QmCost *c,
           const char   *item)
{
  for (guint i = 0; i < c->n_bom; i++)
    if (g_strcmp0 (c->bom[i].item, item) == 0)
      return &c->bom[i];
  return NULL;
}

static void
assert_line (const QmCost *c,
             const char   *item,
             double        qty,
             double        unit,
             double        total)
{
  const QmBomLine *l = find_line (c, item);

  if (l == NULL)
    g_error ("no BOM line '%s'", item);
  g_assert_cmpfloat_with_epsilon (l->qty, qty, 1e-9 * (1 + qty));
  g_assert_cmpfloat_with_epsilon (l->unit_usd, unit, 1e-9 * (1 + unit));
  g_assert_cmpfloat_with_epsilon (l->total_usd, total, 1e-6 * (1 + total));
}

/* Two DGX H100 (16 GPUs), 2 TB dataset, 100 GB checkpoints (two kept),
 * no bandwidth target.
 *   compute fabric: 2 x 8 = 16 ports <= 64, one QM9700, 16 copper cables;
 *   storage: 2 + 2 x 0.1 = 2.2 TB, bringing 0.22 GB/s;
 *   storage fabric: 2 x 2 + ceil (0.22 x 8 / 400) = 5 ports, one switch;
 *   management: 2 nodes + 2 switches = 4 ports, one 48-port switch;
 *   racks: 3 DGX per 40 kW rack (5 by units); 2 DGX = 16U, 20.4 kW; the
 *   3U of switches and 1U of storage fit the 26U / 19.6 kW left: 1 rack;
 *   PDUs: ceil (20.4 / 17.3) = 2 per feed, 2 feeds: 4.
 *
 *   Servers          2 x 300,000 = 600,000
 *   Compute switches 1 x  30,000 =  30,000
 *   Storage switches 1 x  30,000 =  30,000
 *   Fabric cables   21 x     100 =   2,100
 *   Mgmt switches    1 x   5,000 =   5,000
 *   Racks            1 x   2,000 =   2,000
 *   Rack PDUs        4 x   1,500 =   6,000
 *   Storage        2.2 x     300 =     660
 *   hardware                       675,760
 *   installation 5%                 33,788
 *   upfront                        709,548
 *
 * Monthly (730.485 h): amortisation 709,548 / 48 = 14,782.25;
 *   IT peak = 11.2 + 9.2 + (2 x 1.72 + 0.1) + 0.022 = 23.962 kW;
 *   IT avg  = 20.4 x 0.754 + 3.562 = 18.9436 kW, x 1.25 = 23.6795 kW;
 *   power   = 23.6795 x 730.485 x 0.08 = 1,383.8016;
 *   colo    = 23.962 x 150 = 3,594.30;
 *   support = 675,760 x 0.10 / 12 = 5,631.3333;
 *   monthly = 25,391.6849.
 * Rent: 16 x 730.485 x 2.50 + 2.2 TB x 20 = 29,263.40 per month;
 *   break-even: buying's cumulative cash out (709,548 at the order, then
 *   10,609.4349 a month) falls to renting's (29,263.40 a month) after
 *   709,548 / (29,263.40 - 10,609.4349) = 38.04 months, so at the end of
 *   month 38 counted from the order (month 0; 39 months of rent). */
static void
test_bom_2_nodes (void)
{
  Fixture f;
  Result r;

  fixture_init (&f);
  run_chain (&f, 16, 2e12, 1e11, 0, 30 * 86400.0, &r);

  g_assert_cmpuint (r.cluster.nodes, ==, 2);
  g_assert_cmpuint (r.cluster.racks, ==, 1);
  g_assert_cmpuint (r.cluster.transceivers, ==, 0);

  assert_line (&r.cost, "Servers", 2, 300000, 600000);
  assert_line (&r.cost, "Compute fabric switches", 1, 30000, 30000);
  assert_line (&r.cost, "Storage fabric switches", 1, 30000, 30000);
  assert_line (&r.cost, "Fabric cables", 21, 100, 2100);
  assert_line (&r.cost, "Management switches", 1, 5000, 5000);
  assert_line (&r.cost, "Racks", 1, 2000, 2000);
  assert_line (&r.cost, "Rack PDUs", 4, 1500, 6000);
  assert_line (&r.cost, "Storage capacity (TB)", 2.2, 300, 660);
  assert_line (&r.cost, "Installation", 0.05, 675760, 33788);
  g_assert_null (find_line (&r.cost, "GPUs"));             /* in the DGX price */
  g_assert_null (find_line (&r.cost, "Optical transceivers"));
  g_assert_cmpuint (r.cost.n_bom, ==, 9);

  /* Provenance travels with the line. */
  g_assert_cmpstr (find_line (&r.cost, "Servers")->catalog_id, ==, "dgx-h100");
  g_assert_cmpstr (find_line (&r.cost, "Compute fabric switches")->source, ==, "test price");
  g_assert_cmpstr (find_line (&r.cost, "Compute fabric switches")->as_of, ==, "2024-01-01");

  g_assert_cmpfloat_with_epsilon (r.cost.hardware_usd, 675760, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.upfront, 709548, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.amortization_monthly, 14782.25, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.power.it_peak_kw, 23.962, 1e-9);
  g_assert_cmpfloat_with_epsilon (r.cost.power_monthly, 1383.8015646, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.colo_monthly, 3594.3, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.support_monthly, 5631.3333333, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.monthly, 25391.6848979, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.total, 25391.6848979 * 48, 1e-4);
  g_assert_cmpfloat_with_epsilon (r.cost.run, 25391.6848979 * 720 / 730.485, 1e-6);
  g_assert_true (r.cost.break_even_valid);
  g_assert_cmpuint (r.cost.break_even_month, ==, 38);
  g_assert_cmpuint (r.cost.issues.n, ==, 0);

  /* Rent the same 16 GPUs for 30 days on demand at 2.50 $/GPU-h:
   * 16 x 720 x 2.50 = 28,800 + storage 2.2 TB x 20 x 720/730.485. */
  f.pricing.mode = QM_PRICING_RENT_ON_DEMAND;
  run_chain (&f, 16, 2e12, 1e11, 0, 30 * 86400.0, &r);
  g_assert_cmpfloat (r.cost.upfront, ==, 0);
  g_assert_cmpfloat_with_epsilon (r.cost.gpu_hours, 11520, 1e-9);
  assert_line (&r.cost, "GPU-hours", 11520, 2.5, 28800);
  g_assert_cmpfloat_with_epsilon (r.cost.run, 28800 + 44 * 720 / 730.485, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.monthly, 29263.4, 1e-6);
  g_assert_cmpfloat_with_epsilon (r.cost.total, 29263.4 * 48, 1e-4);
  g_assert_true (r.cost.break_even_valid);
  g_assert_cmpuint (r.cost.break_even_month, ==, 38);

  /* Reserved price from a cloud offer, with its provenance. */
  {
    QmCloudOffer offer = { 0, };
    QmCostInput ki = { 0, };
    QmCost c;

    offer.info.id = "test-cloud-8xh100";
    offer.info.source = "test offer";
    offer.usd_per_gpu_hour_on_demand = 4.0;
    offer.usd_per_gpu_hour_reserved = 2.0;
    f.pricing.mode = QM_PRICING_RENT_RESERVED;
    f.pricing.usd_per_gpu_hour = 0;
    ki.cluster = &r.cluster;
    ki.power = &r.power;
    ki.server = &f.server;
    ki.facility = &f.facility;
    ki.pricing = &f.pricing;
    ki.offer = &offer;
    ki.run_s = 30 * 86400.0;
    qm_cost_compute (&ki, &c);
    assert_line (&c, "GPU-hours", 11520, 2.0, 23040);
    g_assert_cmpstr (find_line (&c, "GPU-hours")->catalog_id, ==, "test-cloud-8xh100");
    g_assert_cmpuint (c.issues.n, ==, 0);
  }
}

/* 1,024 DGX H100 (32 SUs, 8,192 GPUs), 100 TB dataset, 5 TB checkpoints
 * (two kept) to be written in 50 s.
 *   compute fabric (SuperPOD table, 32 SU): 256 leaf + 256 spine + 128 core
 *     = 640 switches; cables 3 x 8,192 = 24,576; optics 2 x 24,576 = 49,152;
 *   storage: 100 + 2 x 5 = 110 TB, bringing 11 GB/s; 50 s needs 100 GB/s,
 *     so 89 GB/s extra; fabric ports 1,024 x 2 + ceil (100 x 8 / 400) = 2,050
 *     -> ceil (2,050 / 32) = 65 leaves > 64, three tiers: 65 spine,
 *     ceil (65 x 32 / 64) = 33 core; cables 2,050 + 2,080 + 2,080 = 6,210;
 *     optics 12,420;
 *   management: 1,024 + 803 switches = 1,827 ports -> 39 switches;
 *   racks: ceil (1,024 / 3) = 342 compute; switches 803 + 39 = 842U -> 21
 *     racks by units but 803 x 1.72 kW / 40 kW = 34.5 -> 35 by power;
 *     storage 0.11 PB x 20 U/PB = 3U -> 1; total 378;
 *   PDUs: 378 x 2 x ceil (30.6 / 17.3) = 1,512.
 *
 *   Servers           1,024 x 300,000 = 307,200,000
 *   Compute switches    640 x  30,000 =  19,200,000
 *   Storage switches    163 x  30,000 =   4,890,000
 *   Fabric cables    30,786 x     100 =   3,078,600
 *   Transceivers     61,572 x     700 =  43,100,400
 *   Mgmt switches        39 x   5,000 =     195,000
 *   Racks               378 x   2,000 =     756,000
 *   Rack PDUs         1,512 x   1,500 =   2,268,000
 *   Storage TB          110 x     300 =      33,000
 *   Storage GB/s         89 x   2,000 =     178,000
 *   hardware                            380,899,000
 *   installation 5%                      19,044,950
 *   upfront                             399,943,950 */
static void
test_bom_1024_nodes (void)
{
  Fixture f;
  Result r;

  fixture_init (&f);
  run_chain (&f, 8192, 100e12, 5e12, 50, 30 * 86400.0, &r);

  g_assert_cmpuint (r.cluster.nodes, ==, 1024);
  g_assert_cmpuint (r.cluster.network.leaf_switches, ==, 256);
  g_assert_cmpuint (r.cluster.network.spine_switches, ==, 256);
  g_assert_cmpuint (r.cluster.network.core_switches, ==, 128);
  g_assert_cmpuint (r.cluster.storage_network.endpoints, ==, 2050);
  g_assert_cmpuint (r.cluster.storage_network.leaf_switches, ==, 65);
  g_assert_cmpuint (r.cluster.storage_network.spine_switches, ==, 65);
  g_assert_cmpuint (r.cluster.storage_network.core_switches, ==, 33);
  g_assert_cmpuint (r.cluster.mgmt_switches, ==, 39);
  g_assert_cmpuint (r.cluster.compute_racks, ==, 342);
  g_assert_cmpuint (r.cluster.network_racks, ==, 35);
  g_assert_cmpuint (r.cluster.storage_racks, ==, 1);
  g_assert_cmpuint (r.cluster.racks, ==, 378);

  assert_line (&r.cost, "Servers", 1024, 300000, 307200000);
  assert_line (&r.cost, "Compute fabric switches", 640, 30000, 19200000);
  assert_line (&r.cost, "Storage fabric switches", 163, 30000, 4890000);
  assert_line (&r.cost, "Fabric cables", 30786, 100, 3078600);
  assert_line (&r.cost, "Optical transceivers", 61572, 700, 43100400);
  assert_line (&r.cost, "Management switches", 39, 5000, 195000);
  assert_line (&r.cost, "Racks", 378, 2000, 756000);
  assert_line (&r.cost, "Rack PDUs", 1512, 1500, 2268000);
  assert_line (&r.cost, "Storage capacity (TB)", 110, 300, 33000);
  assert_line (&r.cost, "Storage write bandwidth (GB/s)", 89, 2000, 178000);
  g_assert_cmpfloat_with_epsilon (r.cost.hardware_usd, 380899000, 1e-3);
  g_assert_cmpfloat_with_epsilon (r.cost.install_usd, 19044950, 1e-3);
  g_assert_cmpfloat_with_epsilon (r.cost.upfront, 399943950, 1e-3);
}

/* A generic chassis (gpu_id NULL) buys GPUs and NICs apart. */
static void
test_parts_apart (void)
{
  Fixture f;
  Result r;

  fixture_init (&f);
  f.server.gpu_id = NULL;
  f.server.info.price_usd = 40000;
  run_chain (&f, 16, 0, 0, 0, 86400, &r);
  assert_line (&r.cost, "Servers", 2, 40000, 80000);
  assert_line (&r.cost, "GPUs", 16, 25000, 400000);
  assert_line (&r.cost, "Compute NICs", 16, 1500, 24000);
}

static void
assert_finite_cost (const QmCost *c)
{
  const double v[] = { c->hardware_usd, c->install_usd, c->upfront, c->monthly, c->run, c->total,
                       c->amortization_monthly, c->power_monthly, c->colo_monthly,
                       c->support_monthly, c->rent_monthly, c->gpu_hours,
                       c->rent_usd_per_gpu_hour };

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      g_assert_true (isfinite (v[i]));
      g_assert_cmpfloat (v[i], >=, 0.0);
    }
  for (guint i = 0; i < c->n_bom; i++)
    {
      g_assert_true (isfinite (c->bom[i].total_usd));
      g_assert_cmpfloat (c->bom[i].total_usd, >=, 0.0);
    }
}

static void
test_bad_prices (void)
{
  Fixture f;
  Result r;
  const QmIssue *issue;

  /* Negative server price: error, costed at 0. */
  fixture_init (&f);
  f.server.info.price_usd = -300000;
  run_chain (&f, 64, 1e12, 1e11, 0, 86400, &r);
  issue = qm_issues_find (&r.cost.issues, "hardware.server.price_usd");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_ERROR);
  g_assert_cmpfloat (find_line (&r.cost, "Servers")->total_usd, ==, 0);
  assert_finite_cost (&r.cost);

  /* Zero switch price: a warning, the line costs 0. */
  fixture_init (&f);
  f.network.info.price_usd = 0;
  f.network.transceiver_usd = NAN;
  run_chain (&f, 1024, 1e12, 1e11, 0, 86400, &r);
  issue = qm_issues_find (&r.cost.issues, "hardware.network.price_usd");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_WARNING);
  g_assert_nonnull (qm_issues_find (&r.cost.issues, "hardware.network.transceiver_usd"));
  assert_finite_cost (&r.cost);

  /* Renting at a zero or negative price. */
  fixture_init (&f);
  f.pricing.mode = QM_PRICING_RENT_RESERVED;
  f.pricing.usd_per_gpu_hour = 0;
  run_chain (&f, 64, 1e12, 1e11, 0, 86400, &r);
  issue = qm_issues_find (&r.cost.issues, "pricing.usd_per_gpu_hour");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_WARNING);
  g_assert_false (r.cost.break_even_valid);
  assert_finite_cost (&r.cost);
  f.pricing.usd_per_gpu_hour = -2;
  run_chain (&f, 64, 1e12, 1e11, 0, 86400, &r);
  issue = qm_issues_find (&r.cost.issues, "pricing.usd_per_gpu_hour");
  g_assert_cmpint (issue->level, ==, QM_ISSUE_ERROR);
  assert_finite_cost (&r.cost);

  /* No amortisation period; negative colocation and support. */
  fixture_init (&f);
  f.pricing.amortization_years = 0;
  f.pricing.support_fraction = -1;
  f.facility.colo_usd_per_kw_month = -5;
  run_chain (&f, 64, 1e12, 1e11, 0, 86400, &r);
  g_assert_nonnull (qm_issues_find (&r.cost.issues, "pricing.amortization_years"));
  g_assert_nonnull (qm_issues_find (&r.cost.issues, "pricing.support_fraction"));
  g_assert_nonnull (qm_issues_find (&r.cost.issues, "facility.colo_usd_per_kw_month"));
  assert_finite_cost (&r.cost);

  /* PUE < 1 reaches cost through power without NaN. */
  fixture_init (&f);
  f.facility.pue = 0.5;
  run_chain (&f, 64, 1e12, 1e11, 0, 86400, &r);
  g_assert_nonnull (qm_issues_find (&r.power.issues, "facility.pue"));
  assert_finite_cost (&r.cost);
}

/* Thousands of random valid plans through cluster -> power -> cost: no
 * NaN/inf, racks >= nodes / nodes-per-rack, cost monotone in GPU count,
 * energy = power x time. */
static void
test_random (void)
{
  for (guint i = 0; i < 3000; i++)
    {
      Fixture f;
      Result a, b;
      guint gpus, more;
      double data, ckpt, target, run_s;

      fixture_init (&f);
      /* Above the 8 x 700 W of its GPUs, like every DGX nameplate. */
      f.server.power_max_w = g_test_rand_double_range (5700, 15000);
      f.server.rack_units = g_test_rand_int_range (2, 11);
      f.facility.rack_units = g_test_rand_int_range (f.server.rack_units, 53);
      f.facility.rack_kw = g_test_rand_double_range (f.server.power_max_w / 1000 * 1.001, 140);
      f.facility.pue = g_test_rand_double_range (1.0, 2.0);
      f.facility.usd_per_kwh = g_test_rand_double_range (0.02, 0.4);
      f.network.ports = g_test_rand_int_range (0, 2) ? 64 : 40;
      f.pricing.mode = g_test_rand_int_range (0, 3);
      f.pricing.usd_per_gpu_hour = g_test_rand_double_range (0.5, 10);
      if (g_test_rand_int_range (0, 2))
        f.server.gpu_id = NULL;
      gpus = g_test_rand_int_range (1, 20000);
      more = g_test_rand_int_range (1, 2000);
      data = g_test_rand_double_range (0, 1e15);
      ckpt = g_test_rand_double_range (0, 1e13);
      target = g_test_rand_int_range (0, 2) ? g_test_rand_double_range (10, 600) : 0;
      run_s = g_test_rand_double_range (3600, 180 * 86400.0);

      run_chain (&f, gpus, data, ckpt, target, run_s, &a);
      run_chain (&f, gpus + more, data, ckpt, target, run_s, &b);

      assert_finite_cost (&a.cost);
      assert_finite_cost (&b.cost);
      if (qm_issues_has_error (&a.cluster.issues))
        g_error ("%s", qm_issue_to_string (&a.cluster.issues.items[0]));
      g_assert_false (qm_issues_has_error (&a.power.issues));
      g_assert_false (qm_issues_has_error (&a.cost.issues));

      g_assert_cmpuint (a.cluster.racks * a.cluster.nodes_per_rack, >=, a.cluster.nodes);
      g_assert_cmpfloat_with_epsilon (a.power.energy_mwh,
                                      a.power.facility_avg_kw * run_s / 3600 / 1000,
                                      1e-9 * (1 + a.power.energy_mwh));
      g_assert_true (isfinite (a.power.co2_tonnes));

      /* More GPUs never cost less. */
      g_assert_cmpfloat (b.cost.upfront, >=, a.cost.upfront * (1 - 1e-12));
      g_assert_cmpfloat (b.cost.monthly, >=, a.cost.monthly * (1 - 1e-12));
      g_assert_cmpfloat (b.cost.run, >=, a.cost.run * (1 - 1e-12));
      g_assert_cmpfloat (b.cost.total, >=, a.cost.total * (1 - 1e-12));
      g_assert_cmpfloat (b.power.it_peak_kw, >=, a.power.it_peak_kw);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cost/bom-2-nodes", test_bom_2_nodes);
  g_test_add_func ("/cost/bom-1024-nodes", test_bom_1024_nodes);
  g_test_add_func ("/cost/parts-apart", test_parts_apart);
  g_test_add_func ("/cost/bad-prices", test_bad_prices);
  g_test_add_func ("/cost/random", test_random);
  return g_test_run ();
}
