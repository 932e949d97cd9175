/* qm-axis.c: chart axis maths.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-axis.h"

#include <math.h>

double
qm_axis_nice_number (double   x,
                     gboolean round_it)
{
  double exponent, fraction, nice;

  if (!(x > 0.0) || !isfinite (x))
    return 1.0;

  exponent = floor (log10 (x));
  fraction = x / pow (10.0, exponent);

  /* Heckbert 1990: round to 1, 2, 5, 10 (or take the ceiling among them). */
  if (round_it)
    nice = fraction < 1.5 ? 1.0 : fraction < 3.0 ? 2.0 : fraction < 7.0 ? 5.0 : 10.0;
  else
    nice = fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0;

  return nice * pow (10.0, exponent);
}

static void
init_linear (QmAxis *axis,
             double  lo,
             double  hi,
             guint   target)
{
  double range = qm_axis_nice_number (hi - lo, FALSE);
  double step = qm_axis_nice_number (range / MAX (1, (int) target - 1), TRUE);
  double first = floor (lo / step) * step;
  double last = ceil (hi / step) * step;

  axis->min = first;
  axis->max = last;
  axis->n_ticks = 0;
  for (double t = first; t <= last + step * 0.5 && axis->n_ticks < QM_AXIS_MAX_TICKS; t += step)
    {
      /* Snap -0 and rounding dust to the step grid. */
      double snapped = round (t / step) * step;

      axis->ticks[axis->n_ticks] = fabs (snapped) < step * 1e-9 ? 0.0 : snapped;
      axis->major[axis->n_ticks] = TRUE;
      axis->n_ticks++;
    }
}

static void
init_log (QmAxis *axis,
          double  lo,
          double  hi)
{
  int first = (int) floor (log10 (lo) + 1e-9);
  int last = (int) ceil (log10 (hi) - 1e-9);
  int decades;
  static const double fill[] = { 2.0, 5.0 };

  if (last <= first)
    last = first + 1;
  decades = last - first;

  axis->min = pow (10.0, first);
  axis->max = pow (10.0, last);
  axis->n_ticks = 0;
  for (int d = first; d <= last && axis->n_ticks < QM_AXIS_MAX_TICKS; d++)
    {
      double base = pow (10.0, d);

      axis->ticks[axis->n_ticks] = base;
      axis->major[axis->n_ticks] = TRUE;
      axis->n_ticks++;

      /* Over few decades, label 2× and 5× too so the axis is readable. */
      if (d < last && decades <= 3)
        for (guint i = 0; i < G_N_ELEMENTS (fill) && axis->n_ticks < QM_AXIS_MAX_TICKS; i++)
          {
            axis->ticks[axis->n_ticks] = base * fill[i];
            axis->major[axis->n_ticks] = decades <= 2;
            axis->n_ticks++;
          }
    }
}

void
qm_axis_init (QmAxis  *axis,
              QmScale  scale,
              double   lo,
              double   hi,
              guint    target_ticks,
              double   pixel_min,
              double   pixel_max)
{
  axis->scale = scale;
  axis->pixel_min = pixel_min;
  axis->pixel_max = pixel_max;

  if (!isfinite (lo) || !isfinite (hi))
    lo = hi = scale == QM_SCALE_LOG10 ? 1.0 : 0.0;
  if (lo > hi)
    {
      double t = lo;
      lo = hi;
      hi = t;
    }

  if (scale == QM_SCALE_LOG10)
    {
      if (!(hi > 0.0))
        hi = 10.0;
      if (!(lo > 0.0))
        lo = hi / 10.0;
      init_log (axis, lo, hi);
    }
  else
    {
      if (hi - lo <= 0.0)
        {
          /* A single value: show it with some room around it. */
          double pad = lo != 0.0 ? fabs (lo) * 0.5 : 1.0;

          lo = lo >= 0.0 && lo - pad < 0.0 ? 0.0 : lo - pad;
          hi = hi + pad;
        }
      init_linear (axis, lo, hi, MAX (target_ticks, 2));
    }
}

static double
to_unit (const QmAxis *axis,
         double        value)
{
  if (axis->scale == QM_SCALE_LOG10)
    {
      if (!(value > 0.0))
        return -INFINITY;
      return (log10 (value) - log10 (axis->min)) / (log10 (axis->max) - log10 (axis->min));
    }
  return (value - axis->min) / (axis->max - axis->min);
}

double
qm_axis_to_pixel (const QmAxis *axis,
                  double        value)
{
  return axis->pixel_min + to_unit (axis, value) * (axis->pixel_max - axis->pixel_min);
}

double
qm_axis_from_pixel (const QmAxis *axis,
                    double        pixel)
{
  double u = (pixel - axis->pixel_min) / (axis->pixel_max - axis->pixel_min);

  if (axis->scale == QM_SCALE_LOG10)
    return pow (10.0, log10 (axis->min) + u * (log10 (axis->max) - log10 (axis->min)));
  return axis->min + u * (axis->max - axis->min);
}

int
qm_axis_hit_test (const QmAxis *x_axis,
                  const QmAxis *y_axis,
                  const double *xs,
                  const double *ys,
                  guint         n,
                  double        px,
                  double        py,
                  double        radius)
{
  int best = -1;
  double best_d2 = radius * radius;

  for (guint i = 0; i < n; i++)
    {
      double dx = qm_axis_to_pixel (x_axis, xs[i]) - px;
      double dy = qm_axis_to_pixel (y_axis, ys[i]) - py;
      double d2 = dx * dx + dy * dy;

      if (isfinite (d2) && d2 <= best_d2)
        {
          best = (int) i;
          best_d2 = d2;
        }
    }
  return best;
}
