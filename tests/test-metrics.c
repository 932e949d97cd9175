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

/* What a figure is made of (issue #35 item 4): for each example plan
 * (bought and rented, training and serving), the parts of every row that
 * has them add up to the row's value, as the estimate computes both
 * (qm-memory.h's breakdown, qm-cost.c's lines, qm-power.c's equipment);
 * and a row has a value exactly for the plans of the modes the table says
 * it applies to. */
static void
test_parts_and_modes (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n;
  const QmMetric *metrics = qm_metrics (&n);
  const char *name;
  guint checked = 0, rented = 0, serving = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      QmPlan p;
      g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
      QmMetricModes mode;

      if (!g_str_has_suffix (name, ".qmplan"))
        continue;
      g_assert_true (qm_plan_load_from_file (&p, path, NULL, &error));
      g_assert_no_error (error);
      qm_estimate (&p, e);
      mode = e->has_training ? QM_METRIC_TRAINING : QM_METRIC_SERVING;
      rented += p.pricing.mode != QM_PRICING_BUY;
      serving += mode == QM_METRIC_SERVING;
      for (guint m = 0; m < n; m++)
        {
          double v = metrics[m].value (&p, e), sum = 0.0;
          guint applies = 0;

          if (isfinite (v) != ((metrics[m].modes & mode) != 0))
            g_error ("%s: %s has %s value, its modes say %s", name, metrics[m].id, isfinite (v) ? "a" : "no",
                     qm_metric_modes_to_string (metrics[m].modes));
          for (guint k = 0; k < metrics[m].n_parts; k++)
            {
              const QmMetricPart *part = &metrics[m].parts[k];
              double pv = part->value (&p, e);
              g_autofree char *cell = part->format (&p, e, "USD", QM_BYTES_GB);

              g_assert_true (g_str_has_prefix (part->id, metrics[m].id));
              g_assert_true (qm_metric_find_part (NULL, part->id) == part);
              g_assert_true (qm_metric_find_part (&metrics[m], part->id) == part);
              /* "–" exactly where the part does not apply to the plan. */
              g_assert_cmpint (g_str_equal (cell, "–"), ==, !isfinite (pv));
              if (!isfinite (pv))
                continue;
              g_assert_cmpfloat (pv, >=, -1e-6 * fabs (v));
              sum += pv;
              applies++;
            }
          if (metrics[m].n_parts == 0)
            continue;
          /* A rented plan pays nothing upfront: no parts, nothing. */
          if (applies == 0)
            g_assert_cmpfloat (metrics[m].whole (&p, e), ==, 0.0);
          /* Memory is ranked by the margin and made of the need. */
          g_assert_nonnull (metrics[m].whole);
          v = metrics[m].whole (&p, e);
          g_test_message ("%s: %s %.6g = parts %.6g", name, metrics[m].id, v, sum);
          g_assert_cmpfloat (fabs (sum - v), <=, 1e-6 * fabs (v) + 1e-9);
          checked++;
        }
    }
  /* Memory, power, upfront, monthly and total of six examples. */
  g_assert_cmpuint (checked, >=, 5 * 5);
  g_assert_cmpuint (rented, >, 0);
  g_assert_cmpuint (serving, >, 0);
  g_assert_null (qm_metric_find_part (qm_metric_find ("gpus"), "memory.weights"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/metrics/within-bands", test_within_bands);
  g_test_add_func ("/metrics/table", test_table);
  g_test_add_func ("/metrics/parts-and-modes", test_parts_and_modes);
  return g_test_run ();
}
