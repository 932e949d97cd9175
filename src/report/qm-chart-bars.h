/* qm-chart-bars.h: a labelled bar chart, the building block of the
 * comparison charts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"

G_BEGIN_DECLS

typedef struct
{
  const char *label;
  double      value;   /* >= 0; non-finite values are drawn as empty */
} QmBar;

/* Where the plot area ended up, so tests can check pixels against it. */
typedef struct
{
  double x, y, width, height;
  double max_value;    /* the value at the top of the plot area */
} QmBarLayout;

void qm_chart_render_bars (const QmChartFrame *frame,
                           const QmBar        *bars,
                           guint               n_bars,
                           const char         *title,
                           QmBarLayout        *layout_out);

G_END_DECLS
