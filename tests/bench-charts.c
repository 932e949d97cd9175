/* bench-charts.c: each chart rendered at 1200×800 (issue #9: under 8 ms)
 * and a 500-rack layout (under 16 ms). Prints figures; asserts nothing
 * about time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-catalog.h"
#include "qm-chart-compare.h"
#include "qm-chart-racks.h"
#include "qm-plan.h"
#include "qm-plan-charts.h"

#define RUNS 30

static double
time_ms (void (*draw) (cairo_t *cr, gpointer data),
         gpointer data)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 800);
  double best = G_MAXDOUBLE, sum = 0;

  for (guint i = 0; i < RUNS; i++)
    {
      cairo_t *cr = cairo_create (s);
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      draw (cr, data);
      cairo_surface_flush (s);
      ms = (g_get_monotonic_time () - t0) / 1000.0;
      best = MIN (best, ms);
      sum += ms;
      cairo_destroy (cr);
    }
  cairo_surface_destroy (s);
  g_print ("    best %.2f ms, mean %.2f ms over %u runs\n", best, sum / RUNS, RUNS);
  return best;
}

typedef struct
{
  QmPlanChartKind  kind;
  QmPlan          *plan;
  QmEstimate      *estimate;
  QmPlanCurves *curves;
  QmChartStyle     style;
} PlanChart;

static void
draw_plan_chart (cairo_t *cr, gpointer data)
{
  PlanChart *pc = data;

  qm_plan_chart_draw_with_layout (pc->kind, &(QmChartFrame) { cr, &pc->style, 1200, 800 }, pc->plan,
                                  pc->estimate, pc->curves, QM_BYTES_GB, NULL);
}

typedef struct
{
  QmCluster    cluster;
  QmFacility   facility;
  QmChartStyle style;
} Racks;

static void
draw_racks (cairo_t *cr, gpointer data)
{
  Racks *r = data;

  qm_chart_render_racks (&(QmChartFrame) { cr, &r->style, 1200, 800 }, &r->cluster,
                         qm_catalog_server ("dgx-h100"), qm_catalog_network ("ib-ndr-400"),
                         &r->facility, NULL);
}

static void
draw_compare (cairo_t *cr, gpointer data)
{
  static const QmCompareItem items[] = {
    { "512 H100, bought", 512, 62.0, 31.5e6, 890, 410 },
    { "1,024 A100, rented", 1024, 95.0, 19.0e6, 910, 630 },
    { "Cloud reservation", 768, 70.0, 24.0e6, 700, 500 },
  };

  qm_chart_render_compare (&(QmChartFrame) { cr, data, 1200, 800 }, items, G_N_ELEMENTS (items),
                           "USD", NULL);
}

int
main (int argc, char **argv)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR") ? g_getenv ("QM_SOURCE_DIR") : ".",
                                            "data", "examples", "llama-3.1-70b-pretrain-h100.qmplan", NULL);
  g_autoptr(GError) error = NULL;
  QmPlan plan;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree QmPlanCurves *curves = g_new0 (QmPlanCurves, 1);
  PlanChart pc;
  Racks racks = { 0 };

  if (!qm_plan_load_from_file (&plan, path, NULL, &error))
    g_error ("%s", error->message);
  qm_estimate (&plan, e);
  qm_plan_curves (&plan, e, curves);

  pc.plan = &plan;
  pc.estimate = e;
  pc.curves = curves;
  qm_chart_style_init_light (&pc.style);
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    {
      pc.kind = k;
      g_print ("%s at 1200x800 (target < 8 ms):\n", qm_plan_chart_kind_to_string (k));
      time_ms (draw_plan_chart, &pc);
    }
  g_print ("compare at 1200x800 (target < 8 ms):\n");
  time_ms (draw_compare, &pc.style);

  /* 500 racks: 1,500 DGX H100 at 3 per rack (40 kW), plus network racks. */
  {
    QmClusterInput in = {
      .gpus = 12000, .server = qm_catalog_server ("dgx-h100"), .gpu = qm_catalog_gpu ("h100-sxm-80gb"),
      .network = qm_catalog_network ("ib-ndr-400"), .storage = qm_catalog_storage ("parallel-fs"),
      .dataset_bytes = 50e12, .checkpoint_bytes = 1e12,
    };

    racks.facility = (QmFacility) { .pue = 1.25, .usd_per_kwh = 0.08, .rack_kw = 40, .rack_units = 42,
                                    .gco2_per_kwh = 380, .air_cooling_kw = 40 };
    in.facility = &racks.facility;
    qm_cluster_compute (&in, &racks.cluster);
    qm_chart_style_init_light (&racks.style);
    g_print ("rack layout of %u racks at 1200x800 (target < 16 ms):\n", racks.cluster.racks);
    time_ms (draw_racks, &racks);
  }
  return 0;
}
