/* qm-estimate-bands.c: the estimate's error bands (issue #36) from the
 * error model of qm-accuracy.h: the MFU, the days and the GPUs of a
 * training plan whose MFU the throughput model predicted, the tokens per
 * second per GPU and the GPUs of a serving plan. A plan that gives its
 * own MFU has no band: the validation measures the model, not the plan's
 * figure.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-estimate-private.h"
#include "qm-format.h"

void
qm_estimate_training_fit (const QmPlan  *plan,
                          QmAccuracyFit *out)
{
  const QmWorkload *w = &plan->workload;

  qm_accuracy_lookup (QM_ACCURACY_TRAINING, plan->hardware.gpu.family,
                      qm_accuracy_training_kind (w->mode, w->cp, w->zero_stage), out);
}

/* A GPU count's band: whole GPUs, strictly either side of @gpus. */
static void
gpus_band (const QmAccuracyFit *fit,
           guint                gpus,
           QmBand              *out)
{
  double lo, hi;

  qm_accuracy_cost_band (fit, gpus, &lo, &hi);
  out->set = gpus > 0;
  out->low = MIN (floor (lo + 1e-9), (double) gpus - 1.0);
  out->high = MAX (ceil (hi - 1e-9), (double) gpus + 1.0);
  out->low = MAX (out->low, 0.0);
}

/* The band's basis among the assumptions, as numbers and catalog ids. */
static void
assume_fit (const QmPlan *plan,
            QmEstimate   *e)
{
  const QmAccuracyFit *fit = &e->bands.fit;
  const QmAccuracyFamily *f = fit->family;

  if (fit->covered)
    {
      double v[5] = { f->runs, f->gpus_min, f->gpus_max, 100.0 * fit->p10, 100.0 * fit->p90 };
      QmNote *note = qm_estimate_assume_v (e, QM_NOTE_ACCURACY_BAND, v, G_N_ELEMENTS (v));

      /* The model's strings live as long as the process (loaded once). */
      if (note != NULL)
        {
          note->s[0] = f->family;
          note->s[1] = f->kind != NULL ? f->kind : "all";
        }
    }
  else
    {
      double v[5] = { fit->family_runs, QM_ACCURACY_MIN_RUNS, f->runs, 100.0 * fit->p10, 100.0 * fit->p90 };
      QmNote *note = qm_estimate_assume_v (e, QM_NOTE_ACCURACY_POOLED, v, G_N_ELEMENTS (v));

      if (note != NULL)
        note->s[0] = plan->hardware.gpu.info.id;
    }
}

gboolean
qm_estimate_stage_bands (const QmPlan      *plan,
                         QmEstimateContext *ctx,
                         QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;
  QmBands *b = &e->bands;

  (void) ctx;
  if (!e->valid)
    return TRUE;
  b->confidence = w->deadline_confidence > 0 ? w->deadline_confidence : QM_ACCURACY_CONFIDENCE_DEFAULT;
  if (e->has_training && e->mfu_source == QM_MFU_SOURCE_PREDICTED && e->mfu > 0)
    {
      b->has = TRUE;
      qm_accuracy_lookup (QM_ACCURACY_TRAINING, plan->hardware.gpu.family,
                          qm_accuracy_training_kind (e->mode, e->parallelism.cp, e->parallelism.zero_stage),
                          &b->fit);
      b->mfu.set = TRUE;
      qm_accuracy_rate_band (&b->fit, e->mfu, &b->mfu.low, &b->mfu.high);
      b->train_days.set = e->train_days > 0;
      qm_accuracy_cost_band (&b->fit, e->train_days, &b->train_days.low, &b->train_days.high);
      gpus_band (&b->fit, e->gpus, &b->gpus);
      if (w->deadline_days > 0)
        {
          QmAccuracyFit sized;

          qm_estimate_training_fit (plan, &sized);
          b->deadline_error = qm_accuracy_error_at (&sized, b->confidence);
          if (b->deadline_error > 0)
            qm_estimate_assume (e, QM_NOTE_DEADLINE_CONFIDENCE, 100.0 * b->confidence,
                                100.0 * b->deadline_error, 100.0 * sized.p90, 0);
        }
    }
  else if (e->has_training && e->mfu_source == QM_MFU_SOURCE_GIVEN)
    qm_estimate_assume (e, QM_NOTE_ACCURACY_NONE, 100.0 * e->mfu, 0, 0, 0);
  else if (e->has_inference && e->inference.engine != NULL && e->inference.tokens_per_s_per_gpu > 0)
    {
      b->has = TRUE;
      qm_accuracy_lookup (QM_ACCURACY_SERVING, plan->hardware.gpu.family, e->inference.engine->info.id,
                          &b->fit);
      b->tokens_per_s_per_gpu.set = TRUE;
      qm_accuracy_rate_band (&b->fit, e->inference.tokens_per_s_per_gpu, &b->tokens_per_s_per_gpu.low,
                             &b->tokens_per_s_per_gpu.high);
      gpus_band (&b->fit, e->gpus, &b->gpus);
    }
  if (b->has)
    assume_fit (plan, e);
  return TRUE;
}

char *
qm_estimate_bands_basis (const QmPlan     *plan,
                         const QmEstimate *e)
{
  if (!e->bands.has)
    return NULL;
  return qm_accuracy_basis (&e->bands.fit, plan->hardware.gpu.info.name);
}

/* Decimals that tell a band's edges apart at its size. */
static int
band_decimals (double low,
               double high,
               int    most)
{
  double span = fabs (high - low), top = MAX (fabs (low), fabs (high));
  int d = 0;

  while (d < most && (span < 10.0 * pow (10.0, -d) || top < pow (10.0, 2 - d)))
    d++;
  return d;
}

const char *
qm_estimate_band_format (const QmEstimate *e,
                         QmBandId          which,
                         char             *buf,
                         gsize             size)
{
  const QmBand *b = NULL;
  char lo[48], hi[48];
  double scale = 1.0;
  int decimals;
  const char *unit = "";

  switch (which)
    {
    case QM_BAND_MFU:
      b = &e->bands.mfu;
      scale = 100.0;
      unit = "%";
      break;
    case QM_BAND_TRAIN_DAYS:
      b = &e->bands.train_days;
      break;
    case QM_BAND_GPUS:
      b = &e->bands.gpus;
      break;
    case QM_BAND_TOKENS_PER_S_PER_GPU:
      b = &e->bands.tokens_per_s_per_gpu;
      break;
    }
  if (b == NULL || !b->set)
    {
      g_strlcpy (buf, "–", size);
      return buf;
    }
  decimals = which == QM_BAND_GPUS || which == QM_BAND_TOKENS_PER_S_PER_GPU ? 0
             : band_decimals (b->low * scale, b->high * scale, which == QM_BAND_MFU ? 1 : 2);
  qm_format_number (lo, sizeof lo, b->low * scale, decimals);
  qm_format_number (hi, sizeof hi, b->high * scale, decimals);
  g_snprintf (buf, size, "%s–%s%s", lo, hi, unit);
  return buf;
}
