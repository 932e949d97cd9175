/* test-chart-cashflow.c: the cumulative cash-flow chart of a quote puts
 * the cluster's arrival and the break-even month where the month axis says,
 * draws both lines, keeps its labels apart and inside the chart at any
 * size from 360 px wide, in the light and the dark style.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-cashflow.h"
#include "qm-test-chart.h"

/* Four servers at $300,000 bought against renting their 32 GPUs at
 * $80,000 a month: round test figures, as in test-quote.c. */
static void
make_quote (QmQuote *q)
{
  QmCost cost;
  QmQuoteTerms t;

  memset (&cost, 0, sizeof cost);
  cost.bom[0] = (QmBomLine) { .item = "Servers", .catalog_id = "dgx-h100", .qty = 4,
                              .unit_usd = 300000, .total_usd = 1200000 };
  cost.n_bom = 1;
  cost.horizon_months = 36;
  cost.power_monthly = 10000;
  cost.colo_monthly = 2000;
  cost.rent_monthly = 80000;
  qm_quote_terms_init (&t, NULL);
  t.support_years = 0;
  t.n_phases = 2;
  t.phases[0] = t.phases[1] = 0.5;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, q);
  g_assert_true (q->break_even_valid);
}

static void
check_chart (const QmChartStyle *style,
             double              width,
             double              height,
             const char         *png)
{
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  QmCashFlowLayout l;
  cairo_t *cr;
  cairo_surface_t *s = qm_test_chart_surface ((int) width, (int) height, &cr);

  make_quote (q);
  qm_chart_render_cashflow (&(QmChartFrame) { cr, style, width, height }, q, &l);
  cairo_destroy (cr);
  if (png)
    qm_test_save_png (s, png);
  qm_test_assert_border_untouched (s);

  /* The marks stand where the axis puts their months. */
  g_assert_cmpfloat (fabs (l.start_x - qm_axis_to_pixel (&l.x_axis, q->training_start_month)), <=, 1.0);
  g_assert_cmpfloat (fabs (l.break_even_x - qm_axis_to_pixel (&l.x_axis, q->break_even_month)), <=, 1.0);
  g_assert_cmpfloat (l.start_x, <, l.break_even_x);
  /* The break-even line is the accent colour, dashed, low in the plot. */
  {
    gboolean found = FALSE;

    for (int dy = 0; dy < 12 && !found; dy++)
      found = qm_test_pixel_is (qm_test_pixel (s, (int) l.break_even_x,
                                               (int) (l.plot.y + l.plot.height * 0.9) - dy), &style->accent);
    g_assert_true (found);
  }
  /* The buying line passes through its last month's cumulative spend. */
  {
    int x = (int) round (qm_axis_to_pixel (&l.x_axis, q->n_months - 1)) - 1;
    int y = (int) round (qm_axis_to_pixel (&l.y_axis, qm_money_major (q->spend_total, q->exponent)));
    gboolean found = FALSE;

    /* A little inside the end, where the antialiased line is solid. */
    for (int dy = -3; dy <= 3 && !found; dy++)
      for (int dx = -6; dx <= -2 && !found; dx++)
        found = qm_test_pixel_is (qm_test_pixel (s, x + dx, y + dy), &style->series[0]);
    g_assert_true (found);
  }

  /* Labels neither overlap nor leave the chart. */
  g_assert_false (qm_test_rects_overlap (&l.start_label, &l.break_even_label));
  g_assert_cmpfloat (l.start_label.width, >, 0);
  g_assert_cmpfloat (l.break_even_label.width, >, 0);
  g_assert_cmpfloat (l.start_label.x, >=, 0);
  g_assert_cmpfloat (l.break_even_label.x, >=, 0);
  g_assert_cmpfloat (l.start_label.x + l.start_label.width, <=, width);
  g_assert_cmpfloat (l.break_even_label.x + l.break_even_label.width, <=, width);
  g_assert_cmpfloat (l.break_even_label.y + l.break_even_label.height, <=, height);

  cairo_surface_destroy (s);
}

static void
test_light_and_dark (void)
{
  QmChartStyle light, dark;

  qm_chart_style_init_light (&light);
  qm_chart_style_init_dark (&dark);
  check_chart (&light, 1200, 700, "chart-cashflow-light.png");
  check_chart (&dark, 1200, 700, "chart-cashflow-dark.png");
}

static void
test_small (void)
{
  QmChartStyle light;

  qm_chart_style_init_light (&light);
  for (double w = 360; w <= 720; w += 120)
    check_chart (&light, w, 300, w == 360 ? "chart-cashflow-360.png" : NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chart-cashflow/light-and-dark", test_light_and_dark);
  g_test_add_func ("/chart-cashflow/small", test_small);
  return g_test_run ();
}
