/* qm-chart-widget.h: a thin widget that draws one chart with a report
 * renderer, in theme colours, with hover tooltips and an accessible
 * description (docs/style.md, Charts, layer 3).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "qm-chart-draw.h"

G_BEGIN_DECLS

/* Draws the chart into the frame: the widget's size, in theme colours. */
typedef void   (*QmChartDrawFunc)    (const QmChartFrame *frame,
                                      gpointer            user_data);
/* Text for the point under (x, y) after the last draw, or NULL. */
typedef char * (*QmChartTooltipFunc) (double    x,
                                      double    y,
                                      gpointer  user_data);

#define QM_TYPE_CHART_WIDGET (qm_chart_widget_get_type ())
G_DECLARE_FINAL_TYPE (QmChartWidget, qm_chart_widget, QM, CHART_WIDGET, GtkWidget)

GtkWidget *qm_chart_widget_new             (void);
void       qm_chart_widget_set_draw_func   (QmChartWidget      *self,
                                            QmChartDrawFunc     draw,
                                            QmChartTooltipFunc  tooltip,
                                            gpointer            user_data,
                                            GDestroyNotify      destroy);
/* What a screen reader says: the chart's key numbers in words. */
void       qm_chart_widget_set_description (QmChartWidget      *self,
                                            const char         *description);
/* The colours last derived from the theme. */
const QmChartStyle *qm_chart_widget_get_style (QmChartWidget *self);
/* Moves the keyboard probe to the next point that reads differently in
 * @direction (-1 left, 1 right; 0 the first from the left), names the
 * chart "NAME: POINT" and returns the point's text (free it), or NULL
 * when there is none. The arrow keys and Home call it. */
char      *qm_chart_widget_move_probe      (QmChartWidget      *self,
                                            int                 direction);

G_END_DECLS
