/* qm-reliability.c: interruptions, checkpoints, goodput, wall-clock time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-reliability.h"

/* Per-GPU failure rates. The two count different things (unexpected
 * interruptions of one production job vs all job failures on a multi-tenant
 * research cluster), so they are offered side by side, never mixed
 * (docs/estimation-anchors.md §4). */
static const QmFailurePresetInfo presets[QM_N_FAILURE_PRESETS] = {
  /* Llama 3 405B (Dubey et al. 2024, arXiv 2407.21783 §3.3.4, Table 5):
   * 419 unexpected interruptions in a 54-day snapshot on 16,384 H100.
   * 16,384 x 54 x 24 / 419 = 50,676 GPU-hours per interruption. */
  [QM_FAILURE_LLAMA3_PRODUCTION] = {
    "llama3-production",
    "Llama 3 (arXiv 2407.21783 §3.3.4): 419 unexpected interruptions in 54 days on 16,384 H100",
    16384.0 * 54.0 * 24.0 / 419.0,
  },
  /* Kokolis et al. 2024 (arXiv 2410.21680), Meta RSC-1/RSC-2: measured job
   * MTTF 7.9 h at 1,024 GPUs, so 8,089.6 GPU-hours per failure. */
  [QM_FAILURE_RESEARCH_CLUSTER] = {
    "research-cluster",
    "Kokolis et al. 2024 (arXiv 2410.21680): MTTF 7.9 h at 1,024 A100",
    1024.0 * 7.9,
  },
};

const QmFailurePresetInfo *
qm_failure_preset_info (QmFailurePreset preset)
{
  g_return_val_if_fail (preset < QM_N_FAILURE_PRESETS, &presets[0]);
  return &presets[preset];
}

gboolean
qm_failure_preset_from_string (const char      *s,
                               QmFailurePreset *out)
{
  return qm_name_table_find (s, QM_NAME_TABLE (presets, id), (guint *) out);
}

/* Full checkpoint = model weights in the training precision + fp32 master
 * weights + optimizer states. Mixed precision with AdamW: 2 + 4 + 4 + 4 =
 * 14 B/param (docs/estimation-anchors.md §2.7; ZeRO paper §5 state layout).
 * FP8 training keeps bf16 weights and fp32 masters (DeepSeek-V3 §3.3.3), so
 * it checkpoints like bf16. fp32 training has no separate master copy. */
double
qm_checkpoint_bytes_per_param (QmPrecision precision,
                               QmOptimizer optimizer)
{
  gboolean full_fp32 = precision == QM_PRECISION_FP32 || precision == QM_PRECISION_TF32;
  double weights = full_fp32 ? 4.0 : 2.0;
  double master = full_fp32 ? 0.0 : 4.0;
  double states;

  switch (optimizer)
    {
    case QM_OPTIMIZER_ADAMW:
      states = 8.0;   /* fp32 momentum + variance */
      break;
    case QM_OPTIMIZER_ADAMW_8BIT:
      states = 2.0;   /* 8-bit momentum + variance (Dettmers et al. 2022) */
      break;
    case QM_OPTIMIZER_SGD:
      states = 4.0;   /* fp32 momentum */
      break;
    case QM_OPTIMIZER_ADAFACTOR:
      states = 0.0;   /* factored second moments, O(rows + cols): negligible */
      break;
    default:
      states = 8.0;
      break;
    }
  return weights + master + states;
}

double
qm_checkpoint_bytes (double      params,
                     QmPrecision precision,
                     QmOptimizer optimizer)
{
  if (!isfinite (params) || params <= 0.0)
    return 0.0;
  return params * qm_checkpoint_bytes_per_param (precision, optimizer);
}

/* Young 1974 (CACM 17(9)): wasted fraction C/T + T/(2M) is least at
 * T = sqrt(2CM). */
double
qm_checkpoint_interval_young (double c,
                              double m)
{
  if (!(c > 0.0) || !(m > 0.0) || !isfinite (c) || !isfinite (m))
    return 0.0;
  return sqrt (2.0 * c * m);
}

/* Daly 2006 (FGCS 22(3) 303-312), higher-order estimate: for C < 2M,
 * T = sqrt(2CM) [1 + (1/3) sqrt(C/(2M)) + (1/9) (C/(2M))] - C; else T = M.
 * The coefficients are marked [M] in docs/estimation-anchors.md §4. */
double
qm_checkpoint_interval_daly (double c,
                             double m)
{
  double x;

  if (!(c > 0.0) || !(m > 0.0) || !isfinite (c) || !isfinite (m))
    return 0.0;
  if (c >= 2.0 * m)
    return m;
  x = c / (2.0 * m);
  return sqrt (2.0 * c * m) * (1.0 + sqrt (x) / 3.0 + x / 9.0) - c;
}

/* Daly 2006 ("A higher order estimate of the optimum checkpoint interval
 * for restart dumps", FGCS 22(3)) eq. 13, the complete model under
 * exponential failures, failures striking during rework, checkpoints and
 * restarts too: a solve of T_s split into intervals of τ compute takes
 *   T_w = M · e^{R/M} · (e^{(τ + δ)/M} − 1) · T_s / τ,
 * so goodput = τ / (M · e^{R/M} · (e^{(τ + δ)/M} − 1)). Unlike the first-
 * order 1 − δ/τ − (τ/2 + R)/M it stays positive however short M gets
 * (past ~65k GPUs a job's M is under an hour). */
double
qm_reliability_daly_goodput (double tau,
                             double c,
                             double r,
                             double m)
{
  double denom;

  if (!(m > 0.0) || !isfinite (m))
    return 1.0;
  if (!(tau > 0.0))
    /* τ → 0: checkpoint for free every step; only restarts are lost. */
    return c > 0.0 ? 0.0 : exp (-r / m);
  denom = m * exp (r / m) * expm1 ((tau + c) / m);
  return isfinite (denom) && denom > 0.0 ? tau / denom : 0.0;
}

/* The τ that maximises Daly's complete goodput: d/dτ = 0 gives
 * e^{(τ+δ)/M} (1 − τ/M) = 1, solved by Newton from his higher-order
 * estimate (which it refines; for δ ≪ M both are √(2δM)). */
double
qm_checkpoint_interval_daly_exact (double c,
                                   double m)
{
  double t;

  if (!(c > 0.0) || !(m > 0.0) || !isfinite (c) || !isfinite (m))
    return 0.0;
  t = MIN (qm_checkpoint_interval_daly (c, m), 0.999 * m);
  for (guint i = 0; i < 50; i++)
    {
      double e = exp ((t + c) / m);
      double g = e * (1.0 - t / m) - 1.0;
      double dg = e * (1.0 - t / m) / m - e / m;   /* = −e·t/M² */
      double next;

      if (!(fabs (dg) > 0.0))
        break;
      next = t - g / dg;
      if (!(next > 0.0))
        next = 0.5 * t;
      if (next >= m)
        next = 0.5 * (t + m);
      if (fabs (next - t) < 1e-9 * MAX (t, 1.0))
        {
          t = next;
          break;
        }
      t = next;
    }
  return t;
}

static double
job_mtbf_s (QmFailurePreset preset,
            guint           gpus)
{
  /* Failures are independent per GPU, so the job's rate is N times the
   * per-GPU rate: M = (GPU-hours per failure) / N. */
  return presets[preset].gpu_hours_per_failure * 3600.0 / MAX (gpus, 1);
}

double
qm_reliability_interruptions (QmFailurePreset preset,
                              guint           gpus,
                              double          wall_s)
{
  g_return_val_if_fail (preset < QM_N_FAILURE_PRESETS, 0.0);
  if (gpus == 0 || !isfinite (wall_s) || wall_s <= 0.0)
    return 0.0;
  return wall_s / job_mtbf_s (preset, gpus);
}

void
qm_reliability_compute (const QmReliabilityInput *in,
                        QmReliability            *out)
{
  QmFailurePreset preset;
  double m, c, t, r, g;

  memset (out, 0, sizeof *out);
  g_return_if_fail (in != NULL);

  preset = in->preset < QM_N_FAILURE_PRESETS ? in->preset : QM_FAILURE_LLAMA3_PRODUCTION;
  out->preset = presets[preset].id;
  out->gpu_hours_per_failure = presets[preset].gpu_hours_per_failure;

  if (in->gpus == 0)
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "target.gpus", N_("must be > 0"), 0);
  out->ideal_s = (isfinite (in->ideal_s) && in->ideal_s > 0.0) ? in->ideal_s : 0.0;
  if (!(isfinite (in->ideal_s) && in->ideal_s >= 0.0))
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "ideal_days", N_("must be >= 0"), in->ideal_s);

  m = out->mtbf_s = job_mtbf_s (preset, in->gpus);

  /* C: one checkpoint at the storage write bandwidth. */
  out->checkpoint_bytes = (isfinite (in->checkpoint_bytes) && in->checkpoint_bytes > 0.0)
                        ? in->checkpoint_bytes : 0.0;
  if (out->checkpoint_bytes > 0.0)
    {
      if (isfinite (in->write_bytes_per_s) && in->write_bytes_per_s > 0.0)
        out->checkpoint_write_s = out->checkpoint_bytes / in->write_bytes_per_s;
      else
        qm_issues_add (&out->issues, QM_ISSUE_WARNING, "hardware.storage",
                       N_("no write bandwidth; checkpoint time taken as 0"),
                       in->write_bytes_per_s);
    }
  c = out->checkpoint_write_s;

  r = out->restart_s = (isfinite (in->restart_s) && in->restart_s > 0.0) ? in->restart_s : 0.0;
  if (!(isfinite (in->restart_s) && in->restart_s >= 0.0))
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "reliability.restart_minutes",
                   N_("must be >= 0"), in->restart_s / 60.0);

  /* T: the checkpoint interval. */
  switch (in->rule)
    {
    case QM_CHECKPOINT_INTERVAL_GIVEN:
      t = in->interval_s;
      if (!(isfinite (t) && t > 0.0))
        {
          qm_issues_add (&out->issues, QM_ISSUE_ERROR, "reliability.checkpoint_interval_s",
                         N_("must be > 0"), t);
          t = qm_checkpoint_interval_daly (c, m);
        }
      break;
    case QM_CHECKPOINT_INTERVAL_YOUNG:
      t = qm_checkpoint_interval_young (c, m);
      break;
    case QM_CHECKPOINT_INTERVAL_DALY:
    default:
      t = qm_checkpoint_interval_daly_exact (c, m);
      break;
    }
  /* With free checkpoints the optimum tends to 0; checkpoint every step in
   * effect, and lose only the restart. */
  out->checkpoint_interval_s = t;

  if (in->rule == QM_CHECKPOINT_INTERVAL_YOUNG)
    {
      /* Young's first-order model: goodput (ETTR) = 1 - C/T - (T/2 + R)/M:
       * time writing checkpoints, plus on each failure half an interval
       * of lost work and the restart (Young 1974; docs/estimation-anchors.md
       * §4 ETTR model). */
      out->checkpoint_overhead = t > 0.0 ? c / t : 0.0;
      out->failure_overhead = (t / 2.0 + r) / m;
      g = 1.0 - out->checkpoint_overhead - out->failure_overhead;
    }
  else
    {
      /* Daly's complete model (qm_reliability_daly_goodput); of the wall
       * clock, g·C/T is spent writing checkpoints and the rest of the loss
       * is rework and restarts. */
      g = qm_reliability_daly_goodput (t, c, r, m);
      out->checkpoint_overhead = t > 0.0 ? g * c / t : 0.0;
      out->failure_overhead = 1.0 - g - out->checkpoint_overhead;
    }
  if (!isfinite (g) || g < QM_RELIABILITY_MIN_GOODPUT)
    {
      qm_issues_add (&out->issues, QM_ISSUE_WARNING, "reliability.preset",
                     N_("the job fails about as often as it can restart; goodput floored"),
                     isfinite (g) ? g : 0.0);
      g = QM_RELIABILITY_MIN_GOODPUT;
    }
  out->goodput = g;

  /* Wall clock, and failures counted over the wall clock (not the ideal
   * time): failures strike during rework and restarts too. */
  out->wall_s = out->ideal_s / g;
  out->interruptions = out->wall_s / m;
  out->checkpoints = t > 0.0 ? out->wall_s / (t + c) : 0.0;
}
