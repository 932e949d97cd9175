/* qm-axis.h: chart axis maths: domains, nice ticks, linear and log scales,
 * and mapping between data and pixels. No drawing here (docs/style.md, Charts).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define QM_AXIS_MAX_TICKS 32

typedef enum
{
  QM_SCALE_LINEAR,
  QM_SCALE_LOG10,
} QmScale;

typedef struct
{
  QmScale scale;
  double  min;        /* data domain after nicening; min > 0 on log axes */
  double  max;
  double  pixel_min;  /* where min lands */
  double  pixel_max;  /* where max lands (may be < pixel_min, as on a y axis) */
  guint   n_ticks;
  double  ticks[QM_AXIS_MAX_TICKS];
  gboolean major[QM_AXIS_MAX_TICKS];   /* labelled ticks */
} QmAxis;

/* The "nice number" of Heckbert, Graphics Gems (1990), "Nice numbers for
 * graph labels": 1, 2, 5 or 10 times a power of ten near @x. */
double   qm_axis_nice_number (double x,
                              gboolean round_it);

/* Builds an axis over [lo, hi] with about @target_ticks labelled ticks.
 * Linear axes extend to nice multiples of the step; log axes to whole
 * decades (adding 2 and 5 ticks when the range spans few decades). A
 * degenerate or non-finite range is widened to something drawable. */
void     qm_axis_init        (QmAxis  *axis,
                              QmScale  scale,
                              double   lo,
                              double   hi,
                              guint    target_ticks,
                              double   pixel_min,
                              double   pixel_max);

double   qm_axis_to_pixel    (const QmAxis *axis,
                              double        value);
double   qm_axis_from_pixel  (const QmAxis *axis,
                              double        pixel);

/* Index of the point of (@xs, @ys) nearest to the pixel (@px, @py) within
 * @radius pixels, or -1: hover and tooltips. */
int      qm_axis_hit_test    (const QmAxis *x_axis,
                              const QmAxis *y_axis,
                              const double *xs,
                              const double *ys,
                              guint         n,
                              double        px,
                              double        py,
                              double        radius);

G_END_DECLS
