/* qm-reliability.h: interruptions, checkpoints, goodput, wall-clock time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"
#include "qm-issue.h"

G_BEGIN_DECLS

/* Failure-rate presets (docs/plan-file.md `reliability.preset`). */
typedef enum
{
  QM_FAILURE_LLAMA3_PRODUCTION,
  QM_FAILURE_RESEARCH_CLUSTER,
  QM_N_FAILURE_PRESETS
} QmFailurePreset;

typedef struct
{
  const char *id;                     /* "llama3-production", ... */
  const char *source;
  double      gpu_hours_per_failure;  /* 1 / (per-GPU failure rate) */
} QmFailurePresetInfo;

const QmFailurePresetInfo *qm_failure_preset_info        (QmFailurePreset  preset);
gboolean                   qm_failure_preset_from_string (const char      *s,
                                                          QmFailurePreset *out);

typedef enum
{
  QM_CHECKPOINT_INTERVAL_DALY,    /* Daly 2006 complete model and its optimum (default) */
  QM_CHECKPOINT_INTERVAL_YOUNG,   /* Young 1974 sqrt(2CM) */
  QM_CHECKPOINT_INTERVAL_GIVEN,   /* QmReliabilityInput.interval_s */
} QmCheckpointRule;

/* Bytes per parameter of a full training checkpoint, and the size for
 * @params trainable parameters. */
double qm_checkpoint_bytes_per_param (QmPrecision  precision,
                                      QmOptimizer  optimizer);
double qm_checkpoint_bytes           (double       params,
                                      QmPrecision  precision,
                                      QmOptimizer  optimizer);

/* Optimal compute time between checkpoints for write time @c and mean time
 * between failures @m (same unit). */
double qm_checkpoint_interval_young  (double c,
                                      double m);
double qm_checkpoint_interval_daly   (double c,
                                      double m);

/* The exact optimum of Daly 2006's complete model (Newton on its
 * stationarity condition), the interval QM_CHECKPOINT_INTERVAL_DALY uses. */
double qm_checkpoint_interval_daly_exact (double c,
                                          double m);

/* Daly 2006 eq. 13: the fraction of wall clock that is useful compute for
 * compute interval @tau, checkpoint write @c, restart @r and job MTBF @m. */
double qm_reliability_daly_goodput   (double tau,
                                      double c,
                                      double r,
                                      double m);

/* Expected interruptions of a job on @gpus over @wall_s of wall-clock time. */
double qm_reliability_interruptions  (QmFailurePreset preset,
                                      guint           gpus,
                                      double          wall_s);

typedef struct
{
  QmFailurePreset  preset;
  guint            gpus;
  double           ideal_s;            /* failure-free training time */
  double           checkpoint_bytes;   /* e.g. qm_checkpoint_bytes () */
  double           write_bytes_per_s;  /* storage write bandwidth */
  double           restart_s;          /* detect, reschedule, reload */
  QmCheckpointRule rule;
  double           interval_s;         /* with QM_CHECKPOINT_INTERVAL_GIVEN */
} QmReliabilityInput;

/* Below this goodput the first-order model is meaningless: the job fails
 * about as fast as it restarts. Outputs stay finite; an issue says why. */
#define QM_RELIABILITY_MIN_GOODPUT 0.05

typedef struct
{
  const char *preset;                 /* preset id */
  double gpu_hours_per_failure;
  double mtbf_s;                      /* of the whole job */
  double checkpoint_bytes;
  double checkpoint_write_s;          /* C */
  double checkpoint_interval_s;       /* T */
  double restart_s;                   /* R */
  double checkpoint_overhead;         /* share of wall clock writing checkpoints */
  double failure_overhead;            /* share lost to rework and restarts */
  double goodput;                     /* Daly 2006 eq. 13 (Young: 1 - C/T - (T/2 + R)/M) */
  double ideal_s;
  double wall_s;                      /* ideal / goodput */
  double interruptions;               /* wall / M */
  double checkpoints;                 /* wall / (T + C) */
  QmIssues issues;
} QmReliability;

void qm_reliability_compute (const QmReliabilityInput *in,
                             QmReliability            *out);

G_END_DECLS
