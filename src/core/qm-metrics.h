/* qm-metrics.h: the key figures of a plan as the comparison shows them,
 * defined once: label, unit, which way is better, and when two plans may
 * be ranked on it (issue #34 item 1). The Compare page, the comparison PDF
 * and `quartermaster-cli compare` (text and --json) all read this table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "qm-estimate.h"
#include "qm-format.h"
#include "qm-plan.h"

G_BEGIN_DECLS

typedef enum
{
  QM_BETTER_NONE,
  QM_BETTER_LOWER,
  QM_BETTER_HIGHER,
} QmBetter;

/* When the plans of a comparison may be ranked on a metric at all. */
typedef enum
{
  QM_METRIC_ANY           = 0,
  /* Money: ranked only when every plan is priced in one currency (the
   * estimate converts nothing). */
  QM_METRIC_SAME_CURRENCY = 1 << 0,
  /* A run's figure for training, a month's for serving: ranked only when
   * the plans are all training or all serving. */
  QM_METRIC_SAME_MODE     = 1 << 1,
  /* A total over the plan's horizon: ranked only over equal horizons. */
  QM_METRIC_SAME_HORIZON  = 1 << 2,
} QmMetricRule;

/* What came of ranking the plans on one metric. */
typedef enum
{
  QM_METRIC_RANKED,             /* best[] marks the better value(s) */
  QM_METRIC_NOT_RANKED,         /* no direction (QM_BETTER_NONE) */
  QM_METRIC_FEWER_THAN_TWO,     /* it applies to fewer than two plans */
  QM_METRIC_ALL_EQUAL,
  QM_METRIC_CURRENCIES_DIFFER,
  QM_METRIC_MODES_DIFFER,
  QM_METRIC_HORIZONS_DIFFER,
  /* The best value's likely range (its estimate's band, qm-estimate.h)
   * overlaps another plan's: the order may as well be the other way round,
   * so best[] marks none and tied[] marks the plans within reach of the
   * best (issue #36). */
  QM_METRIC_WITHIN_BANDS,
} QmMetricVerdict;

/* Which plans a metric has a value for. */
typedef enum
{
  QM_METRIC_TRAINING = 1 << 0,   /* pretraining and fine-tuning */
  QM_METRIC_SERVING  = 1 << 1,
  QM_METRIC_BOTH     = QM_METRIC_TRAINING | QM_METRIC_SERVING,
} QmMetricModes;

/* What a figure is made of (issue #35 item 4): memory per GPU of its
 * weights, gradients ...; the cost of its lines; the power of its
 * equipment. The parts of a plan add up to its value (those that do not
 * apply to it are NaN); they are not ranked. */
typedef struct
{
  const char   *id;       /* "memory.weights": the CLI's JSON key, tests' handle */
  const char   *label;    /* N_(): translate with _() */
  double      (*value)  (const QmPlan     *plan,
                         const QmEstimate *e);
  char       *(*format) (const QmPlan     *plan,
                         const QmEstimate *e,
                         const char       *currency,
                         QmBytesUnit       bytes);
} QmMetricPart;

typedef struct
{
  const char   *id;       /* stable: the CLI's JSON key, tests' handle */
  const char   *label;    /* N_(): translate with _() */
  const char   *unit;     /* of value(): "count", "days", "GPU-hours",
                           * "fraction", "tokens/s", "bytes", "kW", "MWh",
                           * "t", "currency" */
  QmBetter      better;
  QmMetricRule  rule;
  /* The value ranked, in @unit; NaN where the metric does not apply. */
  double      (*value)  (const QmPlan     *plan,
                         const QmEstimate *e);
  /* The cell as every view prints it ("–" where it does not apply), in
   * @currency (the plan's, or the one the report prints in) and @bytes. */
  char       *(*format) (const QmPlan     *plan,
                         const QmEstimate *e,
                         const char       *currency,
                         QmBytesUnit       bytes);
  /* The value's likely range in @unit, the p10–p90 band the estimate
   * carries (qm-estimate.h): FALSE where this estimate has none (a plan
   * that gives its own MFU). NULL for a metric no band applies to. */
  gboolean    (*band)   (const QmPlan     *plan,
                         const QmEstimate *e,
                         double           *low,
                         double           *high);
  QmBandId      band_id;  /* which band, for qm_estimate_band_format() */
  /* A figure that rests on the same prediction as a banded row (the ideal
   * days and GPU-hours on the days, the total tokens/s on those per GPU):
   * that row's id. It has no band of its own, but where that row's plans
   * are within each other's likely ranges, so are its (the same plans
   * tied), so that no view marks a winner one row below a tie. */
  const char   *band_of;
  /* The plans it has a value for; with QM_METRIC_SAME_MODE in @rule, a
   * metric of both that means a run's figure in one and a month's in the
   * other, so not ranked across them. */
  QmMetricModes modes;
  /* What it is made of, in the order every view lists them; NULL, 0 for
   * a figure that has no parts here. */
  const QmMetricPart *parts;
  guint         n_parts;
  /* What the parts add up to: value() but for memory, ranked by the
   * margin (capacity - need) and made of the need. */
  double      (*whole)  (const QmPlan     *plan,
                         const QmEstimate *e);
} QmMetric;

/* The figures in the order every view shows them. */
const QmMetric  *qm_metrics             (guint            *n_metrics);
const QmMetric  *qm_metric_find         (const char       *id);

/* Ranks @n plans on @metric under its rule. Fills values[] (NaN where it
 * does not apply), best[] (the better value(s), only when RANKED) and
 * tied[] (may be NULL: the plans within each other's likely ranges of the
 * best value, only when WITHIN_BANDS). @currencies[i] is the currency
 * plan i is shown in. */
QmMetricVerdict  qm_metric_rank         (const QmMetric   *metric,
                                         const QmPlan     *plans,
                                         const QmEstimate *estimates,
                                         const char * const *currencies,
                                         guint             n,
                                         double           *values,
                                         gboolean         *best,
                                         gboolean         *tied);

/* Where the plan's value on @metric likely lies: its band, or the value
 * alone where it has none (low == high). FALSE where the metric does not
 * apply to the plan. */
gboolean         qm_metric_range        (const QmMetric   *metric,
                                         const QmPlan     *plan,
                                         const QmEstimate *e,
                                         double           *low,
                                         double           *high);

/* Whether two plans are within each other's likely ranges on @metric (the
 * ranges of qm_metric_range() overlap), so that ranking them is not a
 * real difference. FALSE where the metric does not apply to either, or
 * neither has a band (two bare values are equal or ranked). */
gboolean         qm_metric_within_bands (const QmMetric   *metric,
                                         const QmPlan     *plan_a,
                                         const QmEstimate *a,
                                         const QmPlan     *plan_b,
                                         const QmEstimate *b);

/* The plan's band on @metric as every view prints it ("40.7–54.0%",
 * qm_estimate_band_format; days with their unit, "23.8–31.5 days", as the
 * value may read "5.3 hours"), or NULL where it has none. Free with
 * g_free(). */
char            *qm_metric_band_format  (const QmMetric   *metric,
                                         const QmPlan     *plan,
                                         const QmEstimate *e);

/* The part of @metric (of any metric, for a NULL @metric) with @id
 * ("memory.weights"), or NULL. */
const QmMetricPart *qm_metric_find_part (const QmMetric *metric,
                                         const char     *id);

/* "training", "serving", "both", for --json. */
const char      *qm_metric_modes_to_string (QmMetricModes modes);

/* "lower", "higher", "none"; and the verdict's stable id ("ranked",
 * "currencies-differ" ...) for --json. */
const char      *qm_better_to_string    (QmBetter          better);
const char      *qm_metric_verdict_to_string (QmMetricVerdict verdict);

/* The sentences every view prints under the table to say which rows were
 * not ranked and why (translated), or NULL when all could be. Free with
 * g_free(). */
char            *qm_metrics_explain     (const QmPlan     *plans,
                                         const QmEstimate *estimates,
                                         const char * const *currencies,
                                         guint             n);

G_END_DECLS
