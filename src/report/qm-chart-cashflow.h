/* qm-chart-cashflow.h: the cumulative cash flow of a quote, buying against
 * renting the same GPUs, month by month (issue #22), with the month the
 * cluster is in place and the break-even month marked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"
#include "qm-quote.h"

G_BEGIN_DECLS

typedef struct
{
  QmRect plot;
  QmAxis x_axis;            /* months */
  QmAxis y_axis;            /* the quote's currency, major units */
  double break_even_x;      /* pixel column of the break-even month, or -1 */
  double start_x;           /* pixel column of the training start, or -1 */
  QmRect break_even_label;  /* where the marks' labels went (empty: not drawn) */
  QmRect start_label;
} QmCashFlowLayout;

void qm_chart_render_cashflow (const QmChartFrame *frame,
                               const QmQuote      *quote,
                               QmCashFlowLayout   *layout_out);

G_END_DECLS
