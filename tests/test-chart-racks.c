/* test-chart-racks.c: the rack elevation draws as many racks as the
 * cluster has (grouped as ×N), packs the right servers per rack, marks
 * liquid cooling, keeps to its bounds, and scales to hundreds of racks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-catalog.h"
#include "qm-chart-racks.h"
#include "qm-test-chart.h"

static void
make_cluster (guint       gpus,
              double      rack_kw,
              QmFacility *facility,
              QmCluster  *cluster)
{
  QmClusterInput in = {
    .gpus = gpus,
    .server = qm_catalog_server ("dgx-h100"),
    .gpu = qm_catalog_gpu ("h100-sxm-80gb"),
    .network = qm_catalog_network ("ib-ndr-400"),
    .storage = qm_catalog_storage ("parallel-fs"),
    .facility = facility,
    .dataset_bytes = 20e12,
    .checkpoint_bytes = 1e12,
  };

  *facility = (QmFacility) { .pue = 1.25, .usd_per_kwh = 0.08, .rack_kw = rack_kw,
                             .rack_units = 42, .gco2_per_kwh = 380, .air_cooling_kw = 40 };
  qm_cluster_compute (&in, cluster);
}

static void
render (guint               gpus,
        double              rack_kw,
        const QmChartStyle *style,
        const char         *png,
        QmCluster          *cluster,
        QmRackLayout       *layout)
{
  QmFacility facility;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (900, 480, &cr);

  make_cluster (gpus, rack_kw, &facility, cluster);
  qm_chart_render_racks (&(QmChartFrame) { cr, style, 900, 480 }, cluster,
                         qm_catalog_server ("dgx-h100"), qm_catalog_network ("ib-ndr-400"),
                         &facility, layout);
  qm_test_save_png (s, png);
  qm_test_assert_border_untouched (s);

  /* A server slot is filled with the server colour: bottom unit of the
   * first rack. */
  if (layout->n_groups > 0 && layout->groups[0].servers > 0)
    {
      const QmRect *r = &layout->racks[0];
      int y = (int) (r->y + r->height - 4.0 - layout->unit_height * 0.5);

      g_assert_true (qm_test_pixel_is (qm_test_pixel (s, (int) (r->x + 8), y), &style->series[0]));
    }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_small_air_cooled (void)
{
  QmChartStyle style;
  QmCluster cluster;
  QmRackLayout layout;

  qm_chart_style_init_light (&style);
  /* 32 DGX H100 (256 GPUs) at 40 kW per rack: 10.2 kW each, so 3 per rack
   * (kW binds before the 42 U). */
  render (256, 40.0, &style, "chart-racks-light.png", &cluster, &layout);
  g_assert_cmpuint (layout.total_racks, ==, cluster.racks);
  g_assert_cmpuint (layout.groups[0].servers, ==, 3);
  g_assert_false (layout.groups[0].liquid);
  /* The kW bar fills 30.6 of 40 kW. */
  g_assert_cmpfloat (fabs (layout.kw_fill[0] - layout.kw_bars[0].width * 30.6 / 40.0), <=, 1.0);
}

static void
test_large_liquid (void)
{
  QmChartStyle style;
  QmCluster cluster;
  QmRackLayout layout;
  guint servers = 0;

  qm_chart_style_init_dark (&style);
  /* 16,384 GPUs = 2,048 nodes at 130 kW per rack: liquid-cooled, hundreds
   * of racks drawn as a few groups. */
  render (16384, 130.0, &style, "chart-racks-dark.png", &cluster, &layout);
  g_assert_cmpuint (layout.total_racks, ==, cluster.racks);
  g_assert_cmpuint (cluster.racks, >, 300);
  g_assert_cmpuint (layout.n_groups, <=, QM_RACK_MAX_GROUPS);
  g_assert_true (layout.groups[0].liquid);
  for (guint i = 0; i < layout.n_groups; i++)
    servers += layout.groups[i].count * layout.groups[i].servers;
  g_assert_cmpuint (servers, ==, cluster.nodes);
  g_assert_cmpint (qm_chart_racks_hit (&layout, layout.racks[0].x + 5, layout.racks[0].y + 5), ==, 0);
  g_assert_cmpint (qm_chart_racks_hit (&layout, 1, 1), ==, -1);
}

static void
test_partial_rack (void)
{
  QmChartStyle style;
  QmCluster cluster;
  QmRackLayout layout;

  qm_chart_style_init_light (&style);
  /* 4 nodes, 3 per rack: one full rack and one with a single server. */
  render (32, 40.0, &style, "chart-racks-partial.png", &cluster, &layout);
  g_assert_cmpuint (layout.total_racks, ==, cluster.racks);
  g_assert_cmpuint (layout.groups[0].kind, ==, QM_RACK_COMPUTE);
  g_assert_cmpuint (layout.groups[1].kind, ==, QM_RACK_COMPUTE_PARTIAL);
  g_assert_cmpuint (layout.groups[1].servers, ==, 1);
}

/* A rack-scale system (GB200 NVL72, 48U, 132 kW, liquid-cooled) under a
 * 42U / 40 kW facility: one system per rack, drawn at its own height and
 * kW, liquid-cooled; the network racks carry the fabric switches' kW that
 * qm-cluster sized them by, within the facility's limit. The same counts
 * as the cluster. */
static void
test_rack_scale (void)
{
  const QmServerSpec *srv = qm_catalog_server ("gb200-nvl72");
  QmFacility facility = { .pue = 1.25, .usd_per_kwh = 0.08, .rack_kw = 40, .rack_units = 42,
                          .gco2_per_kwh = 380, .air_cooling_kw = 40 };
  QmClusterInput in = {
    .gpus = 576,
    .server = srv,
    .gpu = qm_catalog_gpu ("gb200"),
    .network = qm_catalog_network ("ib-xdr-800"),
    .storage = qm_catalog_storage ("parallel-fs"),
    .facility = &facility,
    .dataset_bytes = 20e12,
    .checkpoint_bytes = 1e12,
  };
  QmChartStyle style;
  QmCluster c;
  QmRackLayout layout;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (900, 480, &cr);
  guint total = 0, storage_racks = 0;

  qm_chart_style_init_light (&style);
  qm_cluster_compute (&in, &c);
  g_assert_false (qm_issues_has_error (&c.issues));
  qm_chart_render_racks (&(QmChartFrame) { cr, &style, 900, 480 }, &c, srv,
                         in.network, &facility, &layout);
  qm_test_save_png (s, "chart-racks-rack-scale.png");
  qm_test_assert_border_untouched (s);
  g_assert_cmpint (layout.groups[0].kind, ==, QM_RACK_COMPUTE);
  g_assert_cmpuint (layout.groups[0].count, ==, 8);
  g_assert_cmpuint (layout.groups[0].servers, ==, 1);
  g_assert_cmpuint (layout.groups[0].server_units, ==, 48);
  g_assert_true (layout.groups[0].liquid);
  g_assert_cmpfloat (fabs (layout.groups[0].kw - 132.0), <, 1e-6);
  /* The whole 48U system fills its drawn rack: 48 units of unit_height. */
  g_assert_cmpfloat (fabs (layout.unit_height * 48 - (layout.racks[0].height - 8.0)), <, 1e-6);
  for (guint i = 0; i < layout.n_groups; i++)
    {
      total += layout.groups[i].count;
      if (layout.groups[i].kind == QM_RACK_NETWORK)
        g_assert_cmpfloat (layout.groups[i].kw, <=, facility.rack_kw);
      /* A storage rack draws its blocks' watts, the power breakdown's
       * figure (issue #35 item 8: it said 0.0 kW). */
      if (layout.groups[i].kind == QM_RACK_STORAGE)
        {
          g_assert_cmpfloat (layout.groups[i].kw, >, 0.0);
          g_assert_cmpfloat (fabs (layout.groups[i].kw * layout.groups[i].count - c.storage_w / 1000.0), <, 1e-9);
          storage_racks += layout.groups[i].count;
        }
    }
  g_assert_cmpuint (c.storage_racks, >, 0);
  g_assert_cmpuint (storage_racks, ==, c.storage_racks);
  g_assert_cmpuint (total, ==, c.racks);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-racks/small-air-cooled", test_small_air_cooled);
  g_test_add_func ("/chart-racks/large-liquid", test_large_liquid);
  g_test_add_func ("/chart-racks/partial-rack", test_partial_rack);
  g_test_add_func ("/chart-racks/rack-scale", test_rack_scale);
  return g_test_run ();
}
