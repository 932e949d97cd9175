/* qm-metrics.c: the comparison's key figures, one row each (qm-metrics.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-format.h"
#include "qm-metrics.h"

#define NA "–"

static char *
num (double v,
     int    decimals)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (qm_format_number (buf, sizeof buf, v, decimals));
}

/* @figure for a run, or for a month of serving. Takes @figure. */
static char *
per_month (const QmEstimate *e,
           char             *figure)
{
  char *text;

  if (e->has_training)
    return figure;
  /* Translators: a cell of the comparison: an energy, a mass of CO₂e or a
   * cost for a month of serving, such as "16.0 MWh". */
  text = g_strdup_printf (_("%s a month"), figure);
  g_free (figure);
  return text;
}

static const char *
mfu_source_word (QmMfuSource source)
{
  switch (source)
    {
    /* Translators: in the comparison's MFU row, "40.0% (given)": the MFU
     * is given in the plan. */
    case QM_MFU_SOURCE_GIVEN:     return C_("MFU source", "given");
    /* Translators: in the comparison's MFU row: predicted by the
     * throughput model. */
    case QM_MFU_SOURCE_PREDICTED: return C_("MFU source", "predicted");
    case QM_MFU_SOURCE_DEFAULT:
    /* Translators: in the comparison's MFU row: the default for the GPU
     * family. */
    default:                      return C_("MFU source", "default");
    }
}

#define UNUSED_ARGS G_GNUC_UNUSED const char *currency, G_GNUC_UNUSED QmBytesUnit bytes
#define VALUE(name, expr) \
  static double name##_value (G_GNUC_UNUSED const QmPlan *p, const QmEstimate *e) { return (expr); }

VALUE (gpus, e->gpus)
static char *gpus_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS) { return num (e->gpus, 0); }
VALUE (nodes, e->nodes)
static char *nodes_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS) { return num (e->nodes, 0); }
VALUE (racks, e->cluster.racks)
static char *racks_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS) { return num (e->cluster.racks, 0); }

static char *
days_text (gboolean applies,
           double   days)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (applies ? qm_format_days (buf, sizeof buf, days) : NA);
}
VALUE (days, e->has_training ? e->train_days : NAN)
static char *days_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS) { return days_text (e->has_training, e->train_days); }
VALUE (ideal, e->has_training ? e->ideal_days : NAN)
static char *ideal_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS) { return days_text (e->has_training, e->ideal_days); }
VALUE (gpu_hours, e->has_training ? e->gpu_hours : NAN)
static char *gpu_hours_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{ return e->has_training ? num (e->gpu_hours, 0) : g_strdup (NA); }

VALUE (mfu, e->has_training ? e->mfu : NAN)
static char *
mfu_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{
  g_autofree char *pct = NULL;

  if (!e->has_training)
    return g_strdup (NA);
  pct = num (100 * e->mfu, 1);
  return g_strdup_printf ("%s%% (%s)", pct, mfu_source_word (e->mfu_source));
}

VALUE (goodput, e->has_reliability ? e->reliability.goodput : NAN)
static char *
goodput_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{
  g_autofree char *pct = NULL;

  if (!e->has_reliability)
    return g_strdup (NA);
  pct = num (100 * e->reliability.goodput, 1);
  return g_strdup_printf ("%s%%", pct);
}

VALUE (tokens_per_s, e->has_inference ? e->inference.tokens_per_s_total : NAN)
static char *tokens_per_s_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{ return e->has_inference ? num (e->inference.tokens_per_s_total, 0) : g_strdup (NA); }
/* Per GPU: the figure the serving validation measures, so the one with a
 * band (the total is it times the GPUs the plan deploys). */
VALUE (tokens_per_gpu, e->has_inference ? e->inference.tokens_per_s_per_gpu : NAN)
static char *tokens_per_gpu_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{ return e->has_inference ? num (e->inference.tokens_per_s_per_gpu, 0) : g_strdup (NA); }

/* Memory is ranked by what each GPU has to spare (capacity - need), one
 * rule for every view: 36 GB needed of 80 beats 47 of 80, and a plan on a
 * bigger GPU with room to spare beats one that just fits. */
VALUE (memory, e->memory.margin)
/* What the parts add up to: the need. */
VALUE (memory_need, e->memory.total)
static char *
memory_format (G_GNUC_UNUSED const QmPlan *p,
               const QmEstimate *e,
               G_GNUC_UNUSED const char *currency,
               QmBytesUnit bytes)
{
  char need[QM_FORMAT_BUF], cap[QM_FORMAT_BUF];

  /* Translators: a cell of the comparison: the memory each GPU needs,
   * the GPU's memory, and "fits" or "DOES NOT FIT". */
  return g_strdup_printf (_("%s of %s, %s"), qm_format_bytes (need, sizeof need, e->memory.total, bytes),
                          qm_format_bytes (cap, sizeof cap, e->memory.capacity, bytes),
                          /* Translators: in a cell of the comparison, after the memory per GPU. */
                          e->fits ? _("fits") : _("DOES NOT FIT"));
}

VALUE (power, e->power.facility_peak_kw)
static char *
power_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{
  g_autofree char *kw = num (e->power.facility_peak_kw, 0);

  return g_strdup_printf ("%s kW", kw);
}

VALUE (energy, e->power.energy_mwh)
static char *
energy_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{
  char buf[QM_FORMAT_BUF];

  return per_month (e, g_strdup (qm_format_energy (buf, sizeof buf, e->power.energy_mwh)));
}

VALUE (co2, e->power.co2_tonnes)
static char *
co2_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS)
{
  char buf[QM_FORMAT_BUF];

  return per_month (e, g_strdup (qm_format_tonnes (buf, sizeof buf, e->power.co2_tonnes)));
}

static char *
money (double      v,
       const char *currency)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (qm_format_money (buf, sizeof buf, v, currency));
}

#define MONEY_ARGS G_GNUC_UNUSED const QmPlan *p, const QmEstimate *e, const char *currency, \
                   G_GNUC_UNUSED QmBytesUnit bytes
VALUE (upfront, e->cost.upfront)
static char *upfront_format (MONEY_ARGS) { return money (e->cost.upfront, currency); }
VALUE (monthly, e->cost.monthly)
static char *monthly_format (MONEY_ARGS) { return money (e->cost.monthly, currency); }
VALUE (run, e->cost.run)
static char *run_format (MONEY_ARGS) { return per_month (e, money (e->cost.run, currency)); }
VALUE (total, e->cost.total)
static char *
total_format (MONEY_ARGS)
{
  g_autofree char *m = money (e->cost.total, currency);
  g_autofree char *months = num (e->cost.horizon_months, 0);

  /* Translators: a cell of the comparison: the total cost, then the
   * months of the plan's horizon. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s over %s month", "%s over %s months",
                                       qm_format_plural_n (e->cost.horizon_months)),
                          m, months);
}

/* Parts (qm-metrics.h): what memory, upfront, monthly, total and power
 * are made of, each as the estimate computes it (qm-memory.h's breakdown,
 * qm-cost.c's lines, qm-power.c's equipment), so that they add up. */
#define BYTES_PART(name, field) \
  VALUE (name, e->memory.field) \
  static char *name##_format (G_GNUC_UNUSED const QmPlan *p, const QmEstimate *e, \
                              G_GNUC_UNUSED const char *currency, QmBytesUnit bytes) \
  { char buf[QM_FORMAT_BUF]; return g_strdup (qm_format_bytes (buf, sizeof buf, e->memory.field, bytes)); }
BYTES_PART (mem_weights, weights)
BYTES_PART (mem_gradients, gradients)
BYTES_PART (mem_optimizer, optimizer)
BYTES_PART (mem_activations, activations)
BYTES_PART (mem_kv_cache, kv_cache)
BYTES_PART (mem_overhead, overhead)
#undef BYTES_PART

/* A money part: @expr where @applies, else NaN ("–"). */
#define MONEY_PART(name, applies, expr) \
  VALUE (name, (applies) ? (expr) : NAN) \
  static char *name##_format (MONEY_ARGS) \
  { return (applies) ? money ((expr), currency) : g_strdup (NA); }
#define BUY (p->pricing.mode == QM_PRICING_BUY)
/* Upfront: the bill of materials and its installation (qm-cost.c
 * buy_upfront); a rented plan pays nothing upfront. */
MONEY_PART (up_hardware, BUY, e->cost.hardware_usd)
MONEY_PART (up_install, BUY, e->cost.install_usd)
/* A month: buying, the hardware written off over the horizon and the
 * operations (qm-cost.c buy_opex); renting, the GPUs around the clock and
 * the storage. */
MONEY_PART (mo_amortization, BUY, e->cost.amortization_monthly)
MONEY_PART (mo_power, BUY, e->cost.power_monthly)
MONEY_PART (mo_colo, BUY, e->cost.colo_monthly)
MONEY_PART (mo_support, BUY, e->cost.support_monthly)
MONEY_PART (mo_rent, !BUY, e->cost.rent_monthly)
MONEY_PART (mo_storage, !BUY, e->cost.storage_monthly)
/* The total: each month's part over the horizon (total = monthly x
 * months), and a rented plan's egress once. */
MONEY_PART (to_amortization, BUY, e->cost.amortization_monthly * e->cost.horizon_months)
MONEY_PART (to_power, BUY, e->cost.power_monthly * e->cost.horizon_months)
MONEY_PART (to_colo, BUY, e->cost.colo_monthly * e->cost.horizon_months)
MONEY_PART (to_support, BUY, e->cost.support_monthly * e->cost.horizon_months)
MONEY_PART (to_rent, !BUY, e->cost.rent_monthly * e->cost.horizon_months)
MONEY_PART (to_storage, !BUY, e->cost.storage_monthly * e->cost.horizon_months)
MONEY_PART (to_egress, !BUY, e->cost.total - e->cost.monthly * e->cost.horizon_months)
#undef BUY
#undef MONEY_PART

/* Facility power: the IT equipment at peak, and what the facility adds
 * to it (cooling and losses: facility = IT x PUE, qm-power.c). */
#define KW_PART(name, expr) \
  VALUE (name, (expr)) \
  static char *name##_format (const QmPlan *p, const QmEstimate *e, UNUSED_ARGS) \
  { g_autofree char *kw = num ((expr), (expr) < 10 ? 1 : 0); return g_strdup_printf ("%s kW", kw); }
KW_PART (pw_gpus, e->power.gpus_kw)
KW_PART (pw_servers, e->power.servers_kw)
KW_PART (pw_network, e->power.network_kw)
KW_PART (pw_storage, e->power.storage_kw)
KW_PART (pw_facility, e->power.facility_peak_kw - e->power.it_peak_kw)
#undef KW_PART

#undef VALUE

#define PART(id, label, fn) { id, label, fn##_value, fn##_format }
static const QmMetricPart memory_parts[] = {
  /* Translators: parts of the comparison's "Memory per GPU" row, as the
   * memory chart names them. */
  PART ("memory.weights",     N_("Weights"),     mem_weights),
  PART ("memory.gradients",   N_("Gradients"),   mem_gradients),
  PART ("memory.optimizer",   N_("Optimizer"),   mem_optimizer),
  PART ("memory.activations", N_("Activations"), mem_activations),
  PART ("memory.kv-cache",    N_("KV cache"),    mem_kv_cache),
  PART ("memory.overhead",    N_("Overhead"),    mem_overhead),
};
static const QmMetricPart upfront_parts[] = {
  /* Translators: parts of the comparison's "Upfront" row: the bill of
   * materials and its installation. */
  PART ("upfront.hardware",     N_("Hardware"),     up_hardware),
  PART ("upfront.installation", N_("Installation"), up_install),
};
/* Translators: parts of the comparison's "Monthly" and "Total cost" rows:
 * the hardware written off, electricity, colocation, support (a bought
 * plan); renting the GPUs, storage and data egress (a rented one). */
static const QmMetricPart monthly_parts[] = {
  PART ("monthly.amortization", N_("Hardware, written off"), mo_amortization),
  PART ("monthly.electricity",  N_("Electricity"),           mo_power),
  PART ("monthly.colocation",   N_("Colocation"),            mo_colo),
  PART ("monthly.support",      N_("Support"),               mo_support),
  PART ("monthly.gpu-rental",   N_("GPU rental"),            mo_rent),
  PART ("monthly.storage",      N_("Storage"),               mo_storage),
};
static const QmMetricPart total_parts[] = {
  PART ("total.amortization", N_("Hardware, written off"), to_amortization),
  PART ("total.electricity",  N_("Electricity"),           to_power),
  PART ("total.colocation",   N_("Colocation"),            to_colo),
  PART ("total.support",      N_("Support"),               to_support),
  PART ("total.gpu-rental",   N_("GPU rental"),            to_rent),
  PART ("total.storage",      N_("Storage"),               to_storage),
  PART ("total.egress",       N_("Data egress"),           to_egress),
};
static const QmMetricPart power_parts[] = {
  /* Translators: parts of the comparison's "Facility power" row: the
   * GPUs, the rest of the servers, switches and optics, storage, and
   * what cooling and power losses add (the PUE). */
  PART ("power.gpus",     N_("GPUs"),                     pw_gpus),
  PART ("power.servers",  N_("Rest of the servers"),      pw_servers),
  PART ("power.network",  N_("Network"),                  pw_network),
  PART ("power.storage",  N_("Storage"),                  pw_storage),
  PART ("power.facility", N_("Cooling and losses (PUE)"), pw_facility),
};
#undef PART

/* The bands of qm-estimate.h, each in its metric's unit. */
#define BAND(name, field) \
  static gboolean name##_band (G_GNUC_UNUSED const QmPlan *p, const QmEstimate *e, double *low, double *high) \
  { *low = e->bands.field.low; *high = e->bands.field.high; return e->bands.field.set; }
BAND (gpus, gpus)
BAND (days, train_days)
BAND (mfu, mfu)
BAND (tokens_per_gpu, tokens_per_s_per_gpu)
#undef BAND

#define ROW(id, label, unit, better, rule, fn, modes) \
  { id, label, unit, QM_BETTER_##better, rule, fn##_value, fn##_format, NULL, 0, NULL, QM_METRIC_##modes, \
    NULL, 0, NULL }
#define PARTS(id, label, unit, better, rule, fn, modes, parts, whole) \
  { id, label, unit, QM_BETTER_##better, rule, fn##_value, fn##_format, NULL, 0, NULL, QM_METRIC_##modes, \
    parts, G_N_ELEMENTS (parts), whole }
#define BANDED(id, label, unit, better, rule, fn, band_id, modes) \
  { id, label, unit, QM_BETTER_##better, rule, fn##_value, fn##_format, fn##_band, band_id, NULL, \
    QM_METRIC_##modes, NULL, 0, NULL }
#define BAND_OF(id, label, unit, better, rule, fn, of, modes) \
  { id, label, unit, QM_BETTER_##better, rule, fn##_value, fn##_format, NULL, 0, of, QM_METRIC_##modes, \
    NULL, 0, NULL }

static const QmMetric metrics[] = {
  BANDED ("gpus",      N_("GPUs"),                 "count",     LOWER,  QM_METRIC_ANY, gpus, QM_BAND_GPUS, BOTH),
  ROW ("nodes",        N_("Nodes"),                "count",     LOWER,  QM_METRIC_ANY, nodes, BOTH),
  ROW ("racks",        N_("Racks"),                "count",     LOWER,  QM_METRIC_ANY, racks, BOTH),
  /* Translators: rows of the comparison: the time to train with failures
   * and restarts, and without. */
  BANDED ("days",      N_("Time, with failures"),  "days",      LOWER,  QM_METRIC_ANY, days, QM_BAND_TRAIN_DAYS,
          TRAINING),
  BAND_OF ("ideal",     N_("Time, ideal"),          "days",      LOWER,  QM_METRIC_ANY, ideal, "days", TRAINING),
  BAND_OF ("gpu-hours", N_("GPU-hours"),            "GPU-hours", LOWER,  QM_METRIC_ANY, gpu_hours, "days", TRAINING),
  BANDED ("mfu",       N_("MFU"),                  "fraction",  HIGHER, QM_METRIC_ANY, mfu, QM_BAND_MFU, TRAINING),
  ROW ("goodput",      N_("Goodput"),              "fraction",  HIGHER, QM_METRIC_ANY, goodput, TRAINING),
  /* Translators: a row of the comparison: the output tokens per second a
   * serving plan delivers. */
  BAND_OF ("tokens-per-s", N_("Output tokens/s"),   "tokens/s",  HIGHER, QM_METRIC_ANY, tokens_per_s,
           "tokens-per-s-per-gpu", SERVING),
  /* Translators: a row of the comparison: the output tokens per second
   * each GPU of a serving plan delivers. */
  BANDED ("tokens-per-s-per-gpu", N_("Output tokens/s per GPU"), "tokens/s", HIGHER, QM_METRIC_ANY,
          tokens_per_gpu, QM_BAND_TOKENS_PER_S_PER_GPU, SERVING),
  PARTS ("memory",     N_("Memory per GPU"),       "bytes",     HIGHER, QM_METRIC_ANY, memory, BOTH, memory_parts,
         memory_need_value),
  PARTS ("power",      N_("Facility power"),       "kW",        LOWER,  QM_METRIC_ANY, power, BOTH, power_parts, power_value),
  /* A run's in a training plan, a month's in a serving plan. */
  ROW ("energy",       N_("Energy"),               "MWh",       LOWER,  QM_METRIC_SAME_MODE, energy, BOTH),
  ROW ("co2",          N_("CO₂e"),                 "t",         LOWER,  QM_METRIC_SAME_MODE, co2, BOTH),
  PARTS ("upfront",    N_("Upfront"),              "currency",  LOWER,  QM_METRIC_SAME_CURRENCY, upfront, BOTH,
         upfront_parts, upfront_value),
  PARTS ("monthly",    N_("Monthly"),              "currency",  LOWER,  QM_METRIC_SAME_CURRENCY, monthly, BOTH,
         monthly_parts, monthly_value),
  ROW ("run",          N_("This run"),             "currency",  LOWER,
       QM_METRIC_SAME_CURRENCY | QM_METRIC_SAME_MODE, run, BOTH),
  PARTS ("total",      N_("Total cost"),           "currency",  LOWER,
         QM_METRIC_SAME_CURRENCY | QM_METRIC_SAME_HORIZON, total, BOTH, total_parts, total_value),
};

#undef ROW
#undef PARTS
#undef BANDED
#undef BAND_OF

const QmMetric *
qm_metrics (guint *n_metrics)
{
  *n_metrics = G_N_ELEMENTS (metrics);
  return metrics;
}

const QmMetric *
qm_metric_find (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (g_str_equal (metrics[i].id, id))
      return &metrics[i];
  return NULL;
}

/* Whether the plans that a metric applies to agree on what @rule asks. */
static QmMetricVerdict
check_rule (QmMetricRule         rule,
            const QmEstimate    *estimates,
            const char * const  *currencies,
            const double        *values,
            guint                n)
{
  int first = -1;

  for (guint i = 0; i < n; i++)
    {
      if (!isfinite (values[i]))
        continue;
      if (first < 0)
        {
          first = (int) i;
          continue;
        }
      if ((rule & QM_METRIC_SAME_CURRENCY) && g_strcmp0 (currencies[i], currencies[first]) != 0)
        return QM_METRIC_CURRENCIES_DIFFER;
      if ((rule & QM_METRIC_SAME_MODE) && estimates[i].has_training != estimates[first].has_training)
        return QM_METRIC_MODES_DIFFER;
      if ((rule & QM_METRIC_SAME_HORIZON) &&
          estimates[i].cost.horizon_months != estimates[first].cost.horizon_months)
        return QM_METRIC_HORIZONS_DIFFER;
    }
  return QM_METRIC_RANKED;
}

QmMetricVerdict
qm_metric_rank (const QmMetric      *metric,
                const QmPlan        *plans,
                const QmEstimate    *estimates,
                const char * const  *currencies,
                guint                n,
                double              *values,
                gboolean            *best,
                gboolean            *tied)
{
  double top = NAN, bottom = NAN;
  guint applicable = 0, n_best = 0, n_tied = 0;
  QmMetricVerdict verdict;

  g_return_val_if_fail (metric != NULL && n > 0, QM_METRIC_FEWER_THAN_TWO);

  for (guint i = 0; i < n; i++)
    {
      best[i] = FALSE;
      if (tied != NULL)
        tied[i] = FALSE;
      values[i] = metric->value (&plans[i], &estimates[i]);
      if (!isfinite (values[i]))
        {
          values[i] = NAN;
          continue;
        }
      applicable++;
      if (isnan (top) || (metric->better == QM_BETTER_LOWER ? values[i] < top : values[i] > top))
        top = values[i];
      if (isnan (bottom) || (metric->better == QM_BETTER_LOWER ? values[i] > bottom : values[i] < bottom))
        bottom = values[i];
    }
  if (metric->better == QM_BETTER_NONE)
    return QM_METRIC_NOT_RANKED;
  if (applicable < 2)
    return QM_METRIC_FEWER_THAN_TWO;
  verdict = check_rule (metric->rule, estimates, currencies, values, n);
  if (verdict != QM_METRIC_RANKED)
    return verdict;
  if (top == bottom)
    return QM_METRIC_ALL_EQUAL;
  for (guint i = 0; i < n; i++)
    {
      best[i] = isfinite (values[i]) && values[i] == top;
      n_best += best[i];
    }
  if (metric->band_of != NULL)
    {
      const QmMetric *of = qm_metric_find (metric->band_of);
      double of_values[8];
      gboolean of_best[8], of_tied[8];

      g_return_val_if_fail (of != NULL && of->band != NULL && n <= G_N_ELEMENTS (of_values), QM_METRIC_RANKED);
      if (qm_metric_rank (of, plans, estimates, currencies, n, of_values, of_best, of_tied) != QM_METRIC_WITHIN_BANDS)
        return QM_METRIC_RANKED;
      for (guint i = 0; i < n; i++)
        {
          best[i] = FALSE;
          if (tied != NULL)
            tied[i] = of_tied[i] && isfinite (values[i]);
        }
      return QM_METRIC_WITHIN_BANDS;
    }
  if (metric->band == NULL)
    return QM_METRIC_RANKED;

  /* A best value that another plan's likely range reaches (or that reaches
   * it) is no clear winner: the plans within reach of a best one tie. */
  for (guint i = 0; i < n; i++)
    {
      gboolean reach = best[i];

      for (guint j = 0; j < n && !reach; j++)
        reach = best[j] && qm_metric_within_bands (metric, &plans[i], &estimates[i], &plans[j], &estimates[j]);
      n_tied += reach;
      if (tied != NULL)
        tied[i] = reach;
    }
  if (n_tied == n_best)
    {
      if (tied != NULL)
        memset (tied, 0, n * sizeof *tied);
      return QM_METRIC_RANKED;
    }
  memset (best, 0, n * sizeof *best);
  return QM_METRIC_WITHIN_BANDS;
}

gboolean
qm_metric_range (const QmMetric   *metric,
                 const QmPlan     *plan,
                 const QmEstimate *e,
                 double           *low,
                 double           *high)
{
  double v = metric->value (plan, e);

  if (!isfinite (v))
    return FALSE;
  if (metric->band == NULL || !metric->band (plan, e, low, high))
    *low = *high = v;
  return TRUE;
}

gboolean
qm_metric_within_bands (const QmMetric   *metric,
                        const QmPlan     *plan_a,
                        const QmEstimate *a,
                        const QmPlan     *plan_b,
                        const QmEstimate *b)
{
  double a_low, a_high, b_low, b_high, ignore_low, ignore_high;

  if (metric->band == NULL ||
      !qm_metric_range (metric, plan_a, a, &a_low, &a_high) ||
      !qm_metric_range (metric, plan_b, b, &b_low, &b_high))
    return FALSE;
  if (!metric->band (plan_a, a, &ignore_low, &ignore_high) && !metric->band (plan_b, b, &ignore_low, &ignore_high))
    return FALSE;
  return a_low <= b_high && b_low <= a_high;
}

char *
qm_metric_band_format (const QmMetric   *metric,
                       const QmPlan     *plan,
                       const QmEstimate *e)
{
  char buf[QM_FORMAT_BUF];
  double low, high;

  if (metric->band == NULL || !isfinite (metric->value (plan, e)) || !metric->band (plan, e, &low, &high))
    return NULL;
  qm_estimate_band_format (e, metric->band_id, buf, sizeof buf);
  /* The value may read "5.3 hours": the range says its unit. */
  if (metric->band_id == QM_BAND_TRAIN_DAYS)
    return g_strdup_printf (_("%s days"), buf);
  return g_strdup (buf);
}

const QmMetricPart *
qm_metric_find_part (const QmMetric *metric,
                     const char     *id)
{
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    if (metric == NULL || metric == &metrics[m])
      for (guint k = 0; k < metrics[m].n_parts; k++)
        if (g_str_equal (metrics[m].parts[k].id, id))
          return &metrics[m].parts[k];
  return NULL;
}

const char *
qm_metric_modes_to_string (QmMetricModes modes)
{
  switch (modes)
    {
    case QM_METRIC_TRAINING: return "training";
    case QM_METRIC_SERVING:  return "serving";
    case QM_METRIC_BOTH:
    default:                 return "both";
    }
}

const char *
qm_better_to_string (QmBetter better)
{
  switch (better)
    {
    case QM_BETTER_LOWER:  return "lower";
    case QM_BETTER_HIGHER: return "higher";
    case QM_BETTER_NONE:
    default:               return "none";
    }
}

const char *
qm_metric_verdict_to_string (QmMetricVerdict verdict)
{
  switch (verdict)
    {
    case QM_METRIC_RANKED:            return "ranked";
    case QM_METRIC_NOT_RANKED:        return "not-ranked";
    case QM_METRIC_FEWER_THAN_TWO:    return "fewer-than-two";
    case QM_METRIC_ALL_EQUAL:         return "all-equal";
    case QM_METRIC_CURRENCIES_DIFFER: return "currencies-differ";
    case QM_METRIC_MODES_DIFFER:      return "modes-differ";
    case QM_METRIC_HORIZONS_DIFFER:   return "horizons-differ";
    case QM_METRIC_WITHIN_BANDS:      return "within-bands";
    default:                          return "unknown";
    }
}

char *
qm_metrics_explain (const QmPlan        *plans,
                    const QmEstimate    *estimates,
                    const char * const  *currencies,
                    guint                n)
{
  gboolean seen[QM_METRIC_WITHIN_BANDS + 1] = { FALSE, };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) tied_rows = g_string_new (NULL);
  gboolean any_band = FALSE;
  double values[8];
  gboolean best[8];

  g_return_val_if_fail (n <= G_N_ELEMENTS (values), NULL);
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      QmMetricVerdict verdict = qm_metric_rank (&metrics[m], plans, estimates, currencies, n, values, best, NULL);

      seen[verdict] = TRUE;
      if (verdict == QM_METRIC_WITHIN_BANDS)
        {
          if (tied_rows->len > 0)
            /* Translators: between the names of rows of the comparison
             * in a list ("MFU; Output tokens/s per GPU"). */
            g_string_append (tied_rows, _("; "));
          g_string_append (tied_rows, _(metrics[m].label));
        }
      for (guint i = 0; i < n && metrics[m].band != NULL; i++)
        {
          g_autofree char *band = qm_metric_band_format (&metrics[m], &plans[i], &estimates[i]);

          any_band |= band != NULL;
        }
    }

  if (seen[QM_METRIC_CURRENCIES_DIFFER])
    g_string_append (text, _("The plans use different currencies, so costs are not marked."));
  if (seen[QM_METRIC_MODES_DIFFER])
    {
      /* The rows named from the table: those a run's in one mode and a
       * month's in the other, and those of one mode only. */
      g_autoptr(GString) differ = g_string_new (NULL);
      g_autoptr(GString) training = g_string_new (NULL);
      g_autoptr(GString) serving = g_string_new (NULL);

      for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
        {
          GString *list = (metrics[m].rule & QM_METRIC_SAME_MODE) ? differ
                          : metrics[m].modes == QM_METRIC_TRAINING ? training
                          : metrics[m].modes == QM_METRIC_SERVING ? serving : NULL;

          if (list == NULL)
            continue;
          if (list->len > 0)
            g_string_append (list, _("; "));
          g_string_append (list, _(metrics[m].label));
        }
      if (text->len > 0)
        g_string_append_c (text, ' ');
      /* Translators: %s lists rows of the comparison ("Energy; CO₂e;
       * This run"). */
      g_string_append_printf (text, _("Training and serving plans are compared only on what they share: "
                                      "%s are for the whole run in a training plan and for a month in a "
                                      "serving plan, so they are not marked."), differ->str);
      g_string_append_c (text, ' ');
      /* Translators: the first %s lists rows of the comparison that only
       * training plans have ("MFU; Goodput"), the second those that only
       * serving plans have. */
      g_string_append_printf (text, _("%s apply to training plans only and %s to serving plans only: each is "
                                      "ranked among the plans it applies to."), training->str, serving->str);
    }
  if (seen[QM_METRIC_HORIZONS_DIFFER])
    {
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, _("The plans’ horizons differ, so total costs are not marked."));
    }
  if (seen[QM_METRIC_WITHIN_BANDS])
    {
      if (text->len > 0)
        g_string_append_c (text, ' ');
      /* Translators: %s lists rows of the comparison ("MFU; GPUs"). "≈"
       * marks values in the table; keep it. */
      g_string_append_printf (text, _("%s: ≈ marks the plans within each other’s likely ranges at the "
                                      "top: not a real difference, so none is marked better."),
                              tied_rows->str);
    }
  if (any_band)
    {
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, _("“Likely” is the range that 8 in 10 published runs of the kind fell in, "
                               "as the model’s validation found."));
      for (guint i = 0; i < n; i++)
        if (estimates[i].has_training && estimates[i].mfu_source == QM_MFU_SOURCE_GIVEN)
          {
            g_string_append_c (text, ' ');
            g_string_append (text, _("A plan that gives its own MFU has no likely range: no validation "
                                     "measures a given figure."));
            break;
          }
    }
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}
