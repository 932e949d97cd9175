/* qm-chart-racks.h: a rack elevation: racks side by side with their U
 * slots filled by servers, switches and storage, a kW bar against the
 * rack's limit, and liquid-cooled racks marked. Identical racks are drawn
 * once with "×N", so a 500-rack cluster reads as well as a 1-rack one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-draw.h"
#include "qm-cluster.h"

G_BEGIN_DECLS

/* Full compute racks in two groups (one more switch in the first), the
 * last partial rack, network racks in two groups, storage racks. */
#define QM_RACK_MAX_GROUPS 6

typedef enum
{
  QM_RACK_COMPUTE,
  QM_RACK_COMPUTE_PARTIAL,
  QM_RACK_NETWORK,
  QM_RACK_STORAGE,
} QmRackKind;

typedef struct
{
  QmRackKind kind;
  guint      count;        /* identical racks this drawing stands for */
  guint      servers;      /* per rack */
  guint      server_units;
  guint      switches;     /* per rack */
  guint      switch_units;
  guint      storage_units;
  double     kw;           /* provisioned, per rack */
  gboolean   liquid;
} QmRackGroup;

typedef struct
{
  guint       n_groups;
  QmRackGroup groups[QM_RACK_MAX_GROUPS];
  QmRect      racks[QM_RACK_MAX_GROUPS];     /* the cabinet drawn for each group */
  QmRect      kw_bars[QM_RACK_MAX_GROUPS];   /* the whole bar (the limit) */
  double      kw_fill[QM_RACK_MAX_GROUPS];   /* filled width */
  guint       total_racks;                   /* sum of the groups' counts */
  double      unit_height;                   /* pixels per U */
} QmRackLayout;

/* Splits the cluster into groups of identical racks (pure maths, no cairo). */
void     qm_rack_groups        (const QmCluster     *cluster,
                                const QmServerSpec  *server,
                                const QmNetworkSpec *network,
                                const QmFacility    *facility,
                                QmRackLayout        *layout);

void     qm_chart_render_racks (const QmChartFrame  *frame,
                                const QmCluster     *cluster,
                                const QmServerSpec  *server,
                                const QmNetworkSpec *network,
                                const QmFacility    *facility,
                                QmRackLayout        *layout_out);

/* The group under the pixel, or -1. */
int      qm_chart_racks_hit    (const QmRackLayout  *layout,
                                double               x,
                                double               y);

G_END_DECLS
