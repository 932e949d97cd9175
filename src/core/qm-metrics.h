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
} QmMetricVerdict;

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
} QmMetric;

/* The figures in the order every view shows them. */
const QmMetric  *qm_metrics             (guint            *n_metrics);
const QmMetric  *qm_metric_find         (const char       *id);

/* Ranks @n plans on @metric under its rule. Fills values[] (NaN where it
 * does not apply) and best[] (the better value(s), only when RANKED).
 * @currencies[i] is the currency plan i is shown in. */
QmMetricVerdict  qm_metric_rank         (const QmMetric   *metric,
                                         const QmPlan     *plans,
                                         const QmEstimate *estimates,
                                         const char * const *currencies,
                                         guint             n,
                                         double           *values,
                                         gboolean         *best);

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
