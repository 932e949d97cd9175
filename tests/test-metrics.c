/* test-metrics.c: the comparison's metric table (qm-metrics.h) on bands
 * (issue #36): two plans are within each other's bands when their likely
 * ranges overlap, a bare value counting as a range of one point; a best
 * value within another plan's range is no winner (within-bands, the plans
 * within reach tied); a figure resting on the same prediction follows its
 * banded row; and the band prints as the estimate prints it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-metrics.h"

#define N 3

/* Training estimates with a time to train and, when @low < @high, its
 * band; the MFU likewise. */
static void
training (QmEstimate *e,
          double      days,
          double      low,
          double      high)
{
  *e = (QmEstimate) { 0 };
  e->valid = TRUE;
  e->has_training = TRUE;
  e->train_days = days;
  e->ideal_days = 0.9 * days;
  e->gpus = 64;
  e->gpu_hours = e->gpus * days * 24.0;
  e->bands.has = low < high;
  e->bands.train_days = (QmBand) { low < high, low, high };
}

static void
test_within_bands (void)
{
  g_autofree QmPlan *plans = g_new0 (QmPlan, N);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, N);
  const char *currencies[N] = { "USD", "USD", "USD" };
  const QmMetric *days = qm_metric_find ("days");
  const QmMetric *ideal = qm_metric_find ("ideal");
  const QmMetric *nodes = qm_metric_find ("nodes");
  double values[N], low, high;
  gboolean best[N], tied[N];
  g_autofree char *printed = NULL;

  g_assert_nonnull (days);
  g_assert_nonnull (days->band);
  g_assert_null (nodes->band);
  g_assert_cmpstr (ideal->band_of, ==, "days");

  training (&e[0], 10.0, 8.0, 12.0);
  training (&e[1], 11.0, 9.0, 13.0);
  training (&e[2], 20.0, 17.0, 24.0);

  g_assert_true (qm_metric_within_bands (days, &plans[0], &e[0], &plans[1], &e[1]));
  g_assert_true (qm_metric_within_bands (days, &plans[1], &e[1], &plans[0], &e[0]));
  g_assert_false (qm_metric_within_bands (days, &plans[0], &e[0], &plans[2], &e[2]));
  /* No band on the row: never within bands. */
  g_assert_false (qm_metric_within_bands (nodes, &plans[0], &e[0], &plans[1], &e[1]));

  /* A (10, likely 8–12) beats B (11, likely 9–13) only on the point: no
   * ✓, A and B tied, C (20) out of reach. */
  g_assert_cmpint (qm_metric_rank (days, plans, e, currencies, N, values, best, tied), ==,
                   QM_METRIC_WITHIN_BANDS);
  g_assert_false (best[0] || best[1] || best[2]);
  g_assert_true (tied[0] && tied[1]);
  g_assert_false (tied[2]);
  g_assert_cmpstr (qm_metric_verdict_to_string (QM_METRIC_WITHIN_BANDS), ==, "within-bands");
  /* The ideal days rest on the same prediction: the same tie. */
  g_assert_cmpint (qm_metric_rank (ideal, plans, e, currencies, N, values, best, tied), ==,
                   QM_METRIC_WITHIN_BANDS);
  g_assert_true (tied[0] && tied[1] && !tied[2]);
  g_assert_false (best[0] || best[1] || best[2]);

  /* A against C: a real difference, A marked. */
  g_assert_cmpint (qm_metric_rank (days, (QmPlan[]) { plans[0], plans[2] }, (QmEstimate[]) { e[0], e[2] },
                                   currencies, 2, values, best, tied), ==, QM_METRIC_RANKED);
  g_assert_true (best[0] && !best[1]);
  g_assert_false (tied[0] || tied[1]);
  g_assert_cmpint (qm_metric_rank (ideal, (QmPlan[]) { plans[0], plans[2] }, (QmEstimate[]) { e[0], e[2] },
                                   currencies, 2, values, best, NULL), ==, QM_METRIC_RANKED);
  g_assert_true (best[0] && !best[1]);

  /* A bare value (no band) inside the other's range: within. Two bare
   * values: ranked on the points. */
  training (&e[1], 11.0, 0.0, 0.0);
  g_assert_true (qm_metric_within_bands (days, &plans[0], &e[0], &plans[1], &e[1]));
  g_assert_false (qm_metric_range (days, &plans[0], &(QmEstimate) { 0 }, &low, &high));
  g_assert_true (qm_metric_range (days, &plans[1], &e[1], &low, &high));
  g_assert_cmpfloat (low, ==, 11.0);
  g_assert_cmpfloat (high, ==, 11.0);
  training (&e[0], 10.0, 0.0, 0.0);
  g_assert_false (qm_metric_within_bands (days, &plans[0], &e[0], &plans[1], &e[1]));
  g_assert_cmpint (qm_metric_rank (days, plans, e, currencies, 2, values, best, tied), ==, QM_METRIC_RANKED);
  g_assert_true (best[0] && !best[1]);

  /* The band as the estimate prints it, with the unit of days (the value
   * may read in hours); none without a band. */
  printed = qm_metric_band_format (days, &plans[2], &e[2]);
  g_assert_cmpstr (printed, ==, "17.0–24.0 days");
  g_assert_null (qm_metric_band_format (days, &plans[0], &e[0]));
  g_assert_null (qm_metric_band_format (nodes, &plans[2], &e[2]));
}

/* Every banded row's band is in its unit around its value, for the
 * estimates that carry one; only rows with a band or a banded row to
 * follow say so. */
static void
test_table (void)
{
  guint n;
  const QmMetric *metrics = qm_metrics (&n);
  guint banded = 0;

  for (guint m = 0; m < n; m++)
    {
      if (metrics[m].band != NULL)
        banded++;
      if (metrics[m].band_of != NULL)
        {
          const QmMetric *of = qm_metric_find (metrics[m].band_of);

          g_assert_nonnull (of);
          g_assert_nonnull (of->band);
          g_assert_null (metrics[m].band);
        }
    }
  /* GPUs, days, MFU, tokens/s per GPU: the estimate's four bands. */
  g_assert_cmpuint (banded, ==, 4);
  g_assert_nonnull (qm_metric_find ("tokens-per-s-per-gpu"));
  g_assert_nonnull (qm_metric_find ("tokens-per-s-per-gpu")->band);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/metrics/within-bands", test_within_bands);
  g_test_add_func ("/metrics/table", test_table);
  return g_test_run ();
}
