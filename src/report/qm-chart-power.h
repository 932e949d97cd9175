/* qm-chart-power.h: where the watts go, for one node and for the whole
 * cluster, provisioned beside average.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"
#include "qm-power.h"

G_BEGIN_DECLS

#define QM_POWER_NODE_PARTS     6  /* GPUs, CPUs, memory, NICs, storage, other */
#define QM_POWER_CLUSTER_PARTS  5  /* GPUs, rest of servers, network, storage, cooling (PUE) */

typedef struct
{
  QmRect node_plot;
  QmRect cluster_plot;
  QmAxis node_axis;        /* W */
  QmAxis cluster_axis;     /* kW */
  QmRect node_parts[QM_POWER_NODE_PARTS];
  QmRect cluster_parts[2][QM_POWER_CLUSTER_PARTS];  /* [0] provisioned, [1] average */
  double node_total_w;     /* the figure under the node's bar: its parts' sum */
  /* Each node part's label beside the bar (0 × 0 where none was drawn),
   * and whether it carries the part's name or only its figure. */
  QmRect node_labels[QM_POWER_NODE_PARTS];
  gboolean node_label_named[QM_POWER_NODE_PARTS];
  QmRect node_title;       /* the panels' titles above them */
  QmRect cluster_title;
  QmRect bar_captions[2];  /* "Provisioned (peak)", "Average (for energy)" */
} QmPowerLayout;

const char *qm_chart_power_node_part_name    (guint i);
const char *qm_chart_power_cluster_part_name (guint i);

/* The kW of cluster part @i, provisioned (@average FALSE) or average. */
double      qm_chart_power_cluster_part_kw   (const QmPower *power,
                                              guint          i,
                                              gboolean       average);

void qm_chart_render_power (const QmChartFrame *frame,
                            const QmPower      *power,
                            QmPowerLayout      *layout_out);

/* The same, with the axes reaching at least @node_max_w (one node, W) and
 * @cluster_max_kw (the cluster, kW); 0 = fit the bars. Charts of several
 * plans drawn with the largest of each then share one scale. */
void qm_chart_render_power_scaled (const QmChartFrame *frame,
                                   const QmPower      *power,
                                   double              node_max_w,
                                   double              cluster_max_kw,
                                   QmPowerLayout      *layout_out);

/* What the axes must show for @power: the node's stacked watts and the
 * larger of the cluster's provisioned and average kW. */
void qm_chart_power_top (const QmPower *power,
                         double        *node_w,
                         double        *cluster_kw);

G_END_DECLS
