/* test-chart-widget.c: the chart widget draws its renderer in theme
 * colours, follows the dark style, and answers tooltips and accessibility.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-bars.h"
#include "qm-chart-widget.h"
#include "qm-test-ui.h"

static int draws;

static void
draw_bars (const QmChartFrame *frame,
           gpointer            user_data)
{
  static const QmBar bars[] = { { "H100", 989 }, { "A100", 312 }, { "MI300X", 1307 } };

  draws++;
  qm_chart_render_bars (frame, bars, G_N_ELEMENTS (bars), "Dense BF16 TFLOPS", NULL);
}

static char *
tooltip (double x, double y, gpointer user_data)
{
  return g_strdup_printf ("at %.0f", x);
}

static void
test_theme_and_draw (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *chart = qm_chart_widget_new ();
  AdwStyleManager *manager = adw_style_manager_get_default ();
  const QmChartStyle *style;

  qm_chart_widget_set_draw_func (QM_CHART_WIDGET (chart), draw_bars, tooltip, NULL, NULL);
  qm_chart_widget_set_description (QM_CHART_WIDGET (chart),
                                   "Bar chart: MI300X 1,307, H100 989, A100 312 dense BF16 TFLOPS");
  gtk_window_set_child (GTK_WINDOW (window), chart);
  gtk_window_set_default_size (GTK_WINDOW (window), 480, 320);
  gtk_window_present (GTK_WINDOW (window));

  qm_test_screenshot (window, "chart-widget-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_cmpint (draws, >, 0);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  qm_test_screenshot (window, "chart-widget-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_test_widget_wait_for_draw (chart);
  style = qm_chart_widget_get_style (QM_CHART_WIDGET (chart));
  /* Dark style: light text on a dark background. */
  g_assert_cmpfloat (style->foreground.red + style->foreground.green + style->foreground.blue, >,
                     style->background.red + style->background.green + style->background.blue);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_test_widget_wait_for_draw (chart);
  style = qm_chart_widget_get_style (QM_CHART_WIDGET (chart));
  g_assert_cmpfloat (style->foreground.red + style->foreground.green + style->foreground.blue, <,
                     style->background.red + style->background.green + style->background.blue);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (chart)), ==,
                   GTK_ACCESSIBLE_ROLE_IMG);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/chart-widget/theme-and-draw", test_theme_and_draw);
  return g_test_run ();
}
