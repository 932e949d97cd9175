/* test-chart-power.c: the wattage chart stacks components in proportion,
 * its provisioned and average cluster bars add up to the facility figures,
 * and it stays inside its bounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-catalog.h"
#include "qm-chart-power.h"
#include "qm-test-chart.h"

static void
make_power (QmCluster *cluster,
            QmPower   *power)
{
  /* 32 DGX H100 on NDR InfiniBand, PUE 1.25, for 30 days. */
  QmFacility facility = { .pue = 1.25, .usd_per_kwh = 0.08, .rack_kw = 40, .rack_units = 42,
                          .gco2_per_kwh = 380, .air_cooling_kw = 40 };
  QmClusterInput cin = {
    .gpus = 256,
    .server = qm_catalog_server ("dgx-h100"),
    .gpu = qm_catalog_gpu ("h100-sxm-80gb"),
    .network = qm_catalog_network ("ib-ndr-400"),
    .storage = qm_catalog_storage ("parallel-fs"),
    .facility = &facility,
    .dataset_bytes = 50e12,
    .checkpoint_bytes = 1e12,
  };
  QmPowerInput pin = { 0 };

  g_assert_nonnull (cin.server);
  qm_cluster_compute (&cin, cluster);
  pin.cluster = cluster;
  pin.server = cin.server;
  pin.gpu = cin.gpu;
  pin.network = cin.network;
  pin.storage = cin.storage;
  pin.facility = &facility;
  pin.run_s = 30 * 86400.0;
  qm_power_compute (&pin, power);
}

static void
check (const QmChartStyle *style,
       const char         *png)
{
  QmCluster cluster;
  QmPower power;
  QmPowerLayout layout;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (800, 420, &cr);

  make_power (&cluster, &power);
  qm_chart_render_power (&(QmChartFrame) { cr, style, 800, 420 }, &power, &layout);
  qm_test_save_png (s, png);
  qm_test_assert_border_untouched (s);

  /* One DGX H100 is provisioned at its 10.2 kW nameplate: the node stack
   * reaches 10,200 W on its axis. */
  {
    const QmRect *top = &layout.node_parts[QM_POWER_NODE_PARTS - 1];
    double watts = qm_axis_from_pixel (&layout.node_axis, top->y);
    g_assert_cmpfloat (fabs (watts - 10200.0), <=, 10200.0 * 0.01);
  }

  /* The cluster bars add up to facility peak and facility average. */
  for (guint k = 0; k < 2; k++)
    {
      const QmRect *top = &layout.cluster_parts[k][QM_POWER_CLUSTER_PARTS - 1];
      double kw = qm_axis_from_pixel (&layout.cluster_axis, top->y);
      double expected = k == 0 ? power.facility_peak_kw : power.facility_avg_kw;

      g_assert_cmpfloat (fabs (kw - expected), <=, expected * 0.01 + 1.0);
    }

  /* Each part's height is its share: GPUs of the provisioned bar. */
  {
    const QmRect *gpus = &layout.cluster_parts[0][0];
    double px_per_kw = qm_axis_to_pixel (&layout.cluster_axis, 0) - qm_axis_to_pixel (&layout.cluster_axis, 1);

    g_assert_cmpfloat (fabs (gpus->height - power.gpus_kw * px_per_kw), <=, 1.5);
    g_assert_true (qm_test_pixel_is_series (qm_test_pixel (s, (int) gpus->x + 2, (int) (gpus->y + gpus->height / 2)),
                                            style, 0));
  }

  /* The cooling part is PUE − 1 of the IT power. */
  g_assert_cmpfloat_with_epsilon (qm_chart_power_cluster_part_kw (&power, 4, FALSE),
                                  power.it_peak_kw * 0.25, power.it_peak_kw * 1e-9 + 1e-9);

  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

static void
test_light (void)
{
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  check (&style, "chart-power-light.png");
}

static void
test_dark (void)
{
  QmChartStyle style;

  qm_chart_style_init_dark (&style);
  check (&style, "chart-power-dark.png");
}

/* Every part of the node that is labelled is named, not only figured
 * ("3.26 kW" beside the fans, board and PSU, issue #35 item 8), at the
 * sizes the plan view and the PDF draw, and no two labels overlap. */
static void
test_node_names (void)
{
  static const int sizes[][2] = { { 800, 420 }, { 640, 360 }, { 560, 340 }, { 440, 340 } };
  QmChartStyle style;
  QmCluster cluster;
  QmPower power;

  qm_chart_style_init_light (&style);
  make_power (&cluster, &power);
  for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
    {
      QmPowerLayout layout;
      cairo_t *cr;
      cairo_surface_t *s = qm_test_chart_surface (sizes[z][0], sizes[z][1], &cr);
      guint named = 0;

      qm_chart_render_power (&(QmChartFrame) { cr, &style, sizes[z][0], sizes[z][1] }, &power, &layout);
      if (z == 1)
        qm_test_save_png (s, "chart-power-names.png");
      qm_test_assert_border_untouched (s);
      for (guint i = 0; i < QM_POWER_NODE_PARTS; i++)
        {
          if (layout.node_labels[i].width <= 0)
            continue;
          named++;
          /* Below 480 px even half the chart cannot hold every name. */
          if (!layout.node_label_named[i] && sizes[z][0] >= 480)
            g_error ("%d×%d: the node's part %s has only its figure", sizes[z][0], sizes[z][1],
                     qm_chart_power_node_part_name (i));
          /* Inside the node panel, left of the cluster's axis labels. */
          g_assert_cmpfloat (layout.node_labels[i].x + layout.node_labels[i].width, <, layout.cluster_plot.x - 20.0);
          for (guint j = 0; j < i; j++)
            g_assert_false (qm_test_rects_overlap (&layout.node_labels[i], &layout.node_labels[j]));
        }
      /* The titles stay inside the chart and the bars' captions apart
       * (in German the cluster's title ran off the edge and the captions
       * into each other, issue #35 item 8). */
      g_assert_cmpfloat (layout.cluster_title.x + layout.cluster_title.width, <=, sizes[z][0] - 11.0);
      g_assert_cmpfloat (layout.node_title.x + layout.node_title.width, <=, layout.cluster_title.x);
      g_assert_false (qm_test_rects_overlap (&layout.bar_captions[0], &layout.bar_captions[1]));
      g_assert_cmpfloat (layout.bar_captions[1].x + layout.bar_captions[1].width, <=, sizes[z][0] - 11.0);
      /* The DGX H100's six parts: GPUs, CPUs, memory, NICs, local storage
       * and the rest are all large enough to label. */
      g_assert_cmpuint (named, ==, QM_POWER_NODE_PARTS);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

static void
test_empty (void)
{
  QmChartStyle style;
  QmPower power = { 0 };
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface (120, 80, &cr);

  power.energy_mwh = NAN;
  qm_chart_style_init_light (&style);
  qm_chart_render_power (&(QmChartFrame) { cr, &style, 120, 80 }, &power, NULL);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  qm_test_assert_border_untouched (s);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/chart-power/light", test_light);
  g_test_add_func ("/chart-power/dark", test_dark);
  g_test_add_func ("/chart-power/empty", test_empty);
  g_test_add_func ("/chart-power/node-names", test_node_names);
  return g_test_run ();
}
