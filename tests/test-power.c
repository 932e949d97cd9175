/* test-power.c: per-component watts and facility power against NVIDIA DGX
 * datasheet figures (docs/estimation-anchors.md §5).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-catalog.h"
#include "qm-power.h"

static QmGpuSpec
gpu (double tdp_w)
{
  QmGpuSpec g = { 0, };

  g.tdp_w = tdp_w;
  return g;
}

/* An 8-GPU DGX with only its datasheet maximum known. */
static QmServerSpec
dgx (double power_max_w,
     guint  rack_units)
{
  QmServerSpec s = { 0, };

  s.gpus = 8;
  s.nics = 8;
  s.rack_units = rack_units;
  s.power_max_w = power_max_w;
  return s;
}

static QmFacility
facility (void)
{
  QmFacility f = { 0, };

  f.pue = 1.25;
  f.usd_per_kwh = 0.08;
  f.rack_kw = 40;
  f.rack_units = 42;
  f.gco2_per_kwh = 380;
  return f;
}

/* DGX A100 6.5 kW max, 6U, 8 x 400 W; DGX H100 10.2 kW, 8U, 8 x 700 W;
 * DGX B200 ~14.3 kW, 10U, 8 x 1000 W (NVIDIA user guides / datasheets).
 * System max / GPU TDP = 2.03, 1.82, 1.79 (docs/estimation-anchors.md §5). */
static void
test_dgx_nameplates (void)
{
  static const struct { double max_w, tdp_w, per_gpu_w, ratio; guint u; } rows[] = {
    {  6500,  400,  812.5, 2.03,  6 },
    { 10200,  700, 1275.0, 1.82,  8 },
    { 14300, 1000, 1787.5, 1.79, 10 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      QmServerSpec s = dgx (rows[i].max_w, rows[i].u);
      QmGpuSpec g = gpu (rows[i].tdp_w);
      QmNodeWatts w;
      double total = qm_power_node_watts (&s, &g, &w);

      g_assert_cmpfloat (total, ==, rows[i].max_w);
      g_assert_cmpfloat (w.total, ==, rows[i].max_w);
      g_assert_cmpfloat (w.gpus, ==, 8 * rows[i].tdp_w);
      g_assert_cmpfloat_with_epsilon (w.total / 8, rows[i].per_gpu_w, 1e-9);
      g_assert_cmpfloat_with_epsilon (w.total / w.gpus, rows[i].ratio, 0.005);
      /* The components add up to the nameplate. */
      g_assert_cmpfloat_with_epsilon (w.gpus + w.cpus + w.memory + w.nics + w.storage + w.other,
                                      w.total, 1e-9);
    }
}

/* The shipped catalog carries the same datasheet maxima. */
static void
test_catalog_dgx (void)
{
  static const struct { const char *id; double max_w; } rows[] = {
    { "dgx-a100", 6500 }, { "dgx-h100", 10200 }, { "dgx-b200", 14300 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const QmServerSpec *s = qm_catalog_server (rows[i].id);
      const QmGpuSpec *g = s ? qm_catalog_gpu (s->gpu_id) : NULL;
      QmNodeWatts w;

      g_assert_nonnull (s);
      g_assert_nonnull (g);
      g_assert_cmpfloat (qm_power_node_watts (s, g, &w), ==, rows[i].max_w);
      g_assert_cmpfloat (w.components, <=, rows[i].max_w);
      g_assert_cmpfloat (w.gpus, ==, 8 * g->tdp_w);
    }
}

/* Bottom-up with the per-component figures of issue #4's seeds: CPU 280 W,
 * A100 400 W, 512 GB RAM 150 W, 200 Gb/s NIC 50 W; no nameplate given.
 * 8 x 400 + 2 x 280 + 150 + 4 x 50 + 60 (NVMe) + 500 (fans/board) = 4,670 W. */
static void
test_bottom_up (void)
{
  QmServerSpec s = { 0, };
  QmGpuSpec g = gpu (400);
  QmNodeWatts w;

  s.gpus = 8;
  s.cpus = 2;
  s.cpu_w = 280;
  s.ram_w = 150;
  s.nics = 4;
  s.nic_w = 50;
  s.nvme_w = 60;
  s.other_w = 500;
  g_assert_cmpfloat (qm_power_node_watts (&s, &g, &w), ==, 4670);
  g_assert_cmpfloat (w.gpus, ==, 3200);
  g_assert_cmpfloat (w.cpus, ==, 560);
  g_assert_cmpfloat (w.memory, ==, 150);
  g_assert_cmpfloat (w.nics, ==, 200);
  g_assert_cmpfloat (w.other, ==, 500);

  /* A nameplate above the parts tops up `other`. */
  s.power_max_w = 6500;
  g_assert_cmpfloat (qm_power_node_watts (&s, &g, &w), ==, 6500);
  g_assert_cmpfloat (w.other, ==, 500 + 6500 - 4670);
}

static QmCluster
cluster_of (guint nodes)
{
  QmCluster c = { 0, };

  c.nodes = nodes;
  c.gpus = nodes * 8;
  return c;
}

/* 2 x DGX H100 + 2 switches (1,720 W each) + 8 optics (15 W), 10 TB of
 * storage at 12 W/TB, PUE 1.25, 30 days, 0.08 $/kWh, 380 gCO2/kWh:
 *   gpus    = 2 x 5.6 kW            = 11.2 kW
 *   servers = 2 x (10.2 - 5.6) kW   =  9.2 kW
 *   network = 2 x 1.72 + 8 x 0.015  =  3.56 kW
 *   storage = 10 x 12 W             =  0.12 kW
 *   it_peak = 24.08 kW, facility_peak = 30.1 kW
 *   it_avg  = 20.4 x 0.754 + 3.68   = 19.0616 kW
 *   energy  = 19.0616 x 1.25 x 720 h = 17.15544 MWh
 *   cost    = 17,155.44 kWh x 0.08   = 1,372.4352 $
 *   CO2     = 17,155.44 x 380 / 1e6  = 6.5190672 t
 *   cooling = 24.08 kW x 3,412       = 82,160.96 BTU/h */
static void
test_cluster_power (void)
{
  QmServerSpec s = dgx (10200, 8);
  QmGpuSpec g = gpu (700);
  QmNetworkSpec net = { 0, };
  QmStorageSpec st = { 0, };
  QmFacility fac = facility ();
  QmCluster c = cluster_of (2);
  QmPowerInput in = { 0, };
  QmPower p;

  net.power_w = 1720;
  net.transceiver_w = 15;
  st.watts_per_tb = 12;
  c.switches = 2;
  c.transceivers = 8;
  c.storage_tb = 10;
  /* qm-cluster.c's blocks for 10 TB (capacity-bound) at 12 W per TB. */
  c.storage_installed_tb = 10;
  c.storage_w = 10 * st.watts_per_tb;

  in.cluster = &c;
  in.server = &s;
  in.gpu = &g;
  in.network = &net;
  in.storage = &st;
  in.facility = &fac;
  in.run_s = 30 * 86400.0;
  qm_power_compute (&in, &p);

  g_assert_cmpuint (p.issues.n, ==, 0);
  g_assert_cmpint (p.avg_basis, ==, QM_POWER_AVG_DEFAULT);
  g_assert_cmpfloat_with_epsilon (p.gpus_kw, 11.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.servers_kw, 9.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.network_kw, 3.56, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.storage_kw, 0.12, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.it_peak_kw, 24.08, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.facility_peak_kw, 30.1, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.it_avg_kw, 19.0616, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.facility_avg_kw, 19.0616 * 1.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.energy_mwh, 17.15544, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.electricity_usd, 1372.4352, 1e-6);
  g_assert_cmpfloat_with_epsilon (p.co2_tonnes, 6.5190672, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.cooling_kw, 24.08, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.cooling_btu_h, 82160.96, 1e-6);

  /* A typical figure in the spec replaces the default fraction. */
  s.power_typical_w = 8160;   /* 0.8 x 10.2 kW */
  qm_power_compute (&in, &p);
  g_assert_cmpint (p.avg_basis, ==, QM_POWER_AVG_TYPICAL);
  g_assert_cmpfloat_with_epsilon (p.avg_fraction, 0.8, 1e-12);
  g_assert_cmpfloat_with_epsilon (p.it_avg_kw, 2 * 8.16 + 3.68, 1e-9);

  /* And a given fraction replaces both. */
  in.avg_fraction = 1.0;
  qm_power_compute (&in, &p);
  g_assert_cmpint (p.avg_basis, ==, QM_POWER_AVG_GIVEN);
  g_assert_cmpfloat_with_epsilon (p.it_avg_kw, p.it_peak_kw, 1e-9);
}

static void
assert_finite_power (const QmPower *p)
{
  const double v[] = { p->gpus_kw, p->servers_kw, p->network_kw, p->storage_kw, p->it_peak_kw,
                       p->it_avg_kw, p->facility_peak_kw, p->facility_avg_kw, p->cooling_kw,
                       p->cooling_btu_h, p->energy_mwh, p->electricity_usd, p->co2_tonnes };

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      g_assert_true (isfinite (v[i]));
      g_assert_cmpfloat (v[i], >=, 0.0);
    }
}

static void
test_bad_input (void)
{
  QmServerSpec s = dgx (10200, 8);
  QmGpuSpec g = gpu (700);
  QmFacility fac = facility ();
  QmCluster c = cluster_of (4);
  QmPowerInput in = { .cluster = &c, .server = &s, .gpu = &g, .facility = &fac,
                      .run_s = 86400 };
  QmPower p;
  const QmIssue *issue;

  /* PUE below 1 is impossible: error, and 1 is applied. */
  fac.pue = 0.9;
  qm_power_compute (&in, &p);
  issue = qm_issues_find (&p.issues, "facility.pue");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_ERROR);
  g_assert_cmpfloat (issue->value, ==, 0.9);
  g_assert_cmpfloat (p.facility_peak_kw, ==, p.it_peak_kw);
  assert_finite_power (&p);

  /* NaN PUE, negative price and carbon, infinite run. */
  fac.pue = NAN;
  fac.usd_per_kwh = -0.1;
  fac.gco2_per_kwh = -1;
  in.run_s = INFINITY;
  qm_power_compute (&in, &p);
  g_assert_nonnull (qm_issues_find (&p.issues, "facility.pue"));
  g_assert_nonnull (qm_issues_find (&p.issues, "facility.usd_per_kwh"));
  g_assert_nonnull (qm_issues_find (&p.issues, "facility.gco2_per_kwh"));
  g_assert_nonnull (qm_issues_find (&p.issues, "train_days"));
  assert_finite_power (&p);

  /* Zero electricity price is allowed but flagged. */
  fac = facility ();
  fac.usd_per_kwh = 0;
  in.run_s = 86400;
  qm_power_compute (&in, &p);
  issue = qm_issues_find (&p.issues, "facility.usd_per_kwh");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, QM_ISSUE_WARNING);
  g_assert_cmpfloat (p.electricity_usd, ==, 0.0);

  /* A nameplate below its own parts: warn, provision for the parts. */
  s.power_max_w = 4000;   /* < 8 x 700 W */
  fac = facility ();
  qm_power_compute (&in, &p);
  g_assert_nonnull (qm_issues_find (&p.issues, "hardware.server.power_max_w"));
  g_assert_cmpfloat (p.node.total, ==, 5600);
}

/* Properties: energy = power x time, facility = IT x PUE, all finite. */
static void
test_random (void)
{
  for (guint i = 0; i < 5000; i++)
    {
      QmServerSpec s = dgx (g_test_rand_double_range (0, 20000), 8);
      QmGpuSpec g = gpu (g_test_rand_double_range (0, 1200));
      QmNetworkSpec net = { .power_w = g_test_rand_double_range (0, 2000),
                            .transceiver_w = g_test_rand_double_range (0, 30) };
      QmFacility fac = facility ();
      QmCluster c = cluster_of (g_test_rand_int_range (0, 5000));
      QmPowerInput in = { .cluster = &c, .server = &s, .gpu = &g, .network = &net,
                          .facility = &fac };
      QmPower p;

      s.cpus = 2;
      s.cpu_w = g_test_rand_double_range (0, 400);
      c.switches = g_test_rand_int_range (0, 1000);
      c.transceivers = g_test_rand_int_range (0, 50000);
      fac.pue = g_test_rand_double_range (1.0, 2.0);
      fac.usd_per_kwh = g_test_rand_double_range (0.01, 0.5);
      fac.gco2_per_kwh = g_test_rand_double_range (0, 900);
      in.run_s = g_test_rand_double_range (0, 365 * 86400.0);
      qm_power_compute (&in, &p);

      assert_finite_power (&p);
      g_assert_false (qm_issues_has_error (&p.issues));
      g_assert_cmpfloat_with_epsilon (p.energy_mwh, p.facility_avg_kw * in.run_s / 3600 / 1000,
                                      1e-9 * (1 + p.energy_mwh));
      g_assert_cmpfloat_with_epsilon (p.facility_peak_kw, p.it_peak_kw * fac.pue,
                                      1e-9 * (1 + p.facility_peak_kw));
      g_assert_cmpfloat (p.it_avg_kw, <=, p.it_peak_kw * (1 + 1e-12));
      g_assert_cmpfloat_with_epsilon (p.it_peak_kw,
                                      p.gpus_kw + p.servers_kw + p.network_kw + p.storage_kw,
                                      1e-9 * (1 + p.it_peak_kw));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/power/dgx-nameplates", test_dgx_nameplates);
  g_test_add_func ("/power/catalog-dgx", test_catalog_dgx);
  g_test_add_func ("/power/bottom-up", test_bottom_up);
  g_test_add_func ("/power/cluster", test_cluster_power);
  g_test_add_func ("/power/bad-input", test_bad_input);
  g_test_add_func ("/power/random", test_random);
  return g_test_run ();
}
