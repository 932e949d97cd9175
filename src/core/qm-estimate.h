/* qm-estimate.h: the estimate of a plan, as a plain struct.
 *
 * qm_estimate() is pure and allocates nothing: the UI calls it on every
 * change. Assumptions and warnings are note ids plus numbers, formatted only
 * at the edge (qm_note_format), so an estimate costs no string formatting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-memory.h"
#include "qm-workload.h"

G_BEGIN_DECLS

typedef struct _QmEstimate QmEstimate;

typedef enum
{
  QM_MFU_SOURCE_GIVEN,
  QM_MFU_SOURCE_PREDICTED,
  QM_MFU_SOURCE_DEFAULT,
} QmMfuSource;

typedef enum
{
  QM_NOTE_NONE,
  /* Assumptions. */
  QM_NOTE_FLOPS_BASIS,
  QM_NOTE_HARDWARE_FLOPS_NONE,
  QM_NOTE_HARDWARE_FLOPS_SELECTIVE,
  QM_NOTE_HARDWARE_FLOPS_FULL,
  QM_NOTE_MFU_GIVEN,
  QM_NOTE_MFU_DEFAULT,
  QM_NOTE_SHAPE_INFERRED,
  QM_NOTE_FAILURES_NOT_MODELLED,
  QM_NOTE_SEED_RULE,
  QM_NOTE_GPUS_FOR_DEADLINE,
  QM_NOTE_PARALLEL_AUTO,
  QM_NOTE_EP_AUTO,
  QM_NOTE_MODEL_STATES,
  QM_NOTE_FP32_GRAD_BUFFER,
  QM_NOTE_FP8_MEMORY,
  QM_NOTE_ACTIVATIONS,
  QM_NOTE_LORA,
  QM_NOTE_QLORA,
  QM_NOTE_OVERHEAD,
  QM_NOTE_PEAK_FALLBACK,
  QM_NOTE_INFERENCE_MEMORY,
  /* Warnings. */
  QM_NOTE_DOES_NOT_FIT,
  QM_NOTE_NO_LAYOUT_FITS,
  QM_NOTE_BATCH_NOT_DIVISIBLE,
  QM_NOTE_PARAMS_HINT_MISMATCH,
  QM_NOTE_MFU_ABOVE_CEILING,
  QM_NOTE_NO_PEAK,
  QM_NOTE_NO_GPUS,
  QM_NOTE_NO_MODEL,
  QM_NOTE_NOT_ENOUGH_GPUS,
  QM_NOTE_LIST_FULL,
  QM_N_NOTES
} QmNoteId;

#define QM_NOTE_N_VALUES 4
typedef struct
{
  QmNoteId id;
  double   v[QM_NOTE_N_VALUES];
} QmNote;

#define QM_ESTIMATE_MAX_NOTES 32

typedef struct
{
  guint       tp, pp, dp, cp, ep;
  guint       micro_batch;
  guint       zero_stage;
  QmRecompute recompute;
  gboolean    sequence_parallel;
} QmParallelism;

struct _QmEstimate
{
  gboolean    valid;             /* FALSE: see warnings; numbers are 0, never NaN */
  QmMode      mode;
  gboolean    has_training;      /* training keys apply (not inference) */

  double      params;
  double      active_params;
  double      tokens;            /* tokens × epochs */
  double      training_flops;    /* model FLOPs: 6ND + attention (PaLM App. B); the MFU basis */
  double      training_flops_6nd;
  double      hardware_flops;    /* + recompute */
  double      peak_flops;        /* one GPU, dense, at the plan's precision */

  guint       gpus;
  guint       nodes;
  QmParallelism parallelism;

  double      mfu;
  QmMfuSource mfu_source;
  double      ideal_days;        /* no failures */
  double      train_days;        /* with failures (= ideal_days until qm-reliability lands) */
  double      gpu_hours;         /* gpus × train_days × 24 */

  QmMemoryBreakdown memory;
  gboolean    fits;

  /* Room for the modules wired in later (qm-cluster, qm-power, qm-cost,
   * qm-reliability, qm-inference). Each sets its has_ flag; until then the
   * JSON writes their keys as null. */
  gboolean    has_cluster;
  gboolean    has_power;
  gboolean    has_cost;
  gboolean    has_reliability;
  gboolean    has_inference;

  guint       n_assumptions;
  guint       n_warnings;
  QmNote      assumptions[QM_ESTIMATE_MAX_NOTES];
  QmNote      warnings[QM_ESTIMATE_MAX_NOTES];
};

void        qm_estimate          (const QmPlan *plan,
                                  QmEstimate   *out);

/* Add a note (no-op once the list is full, which then ends in
 * QM_NOTE_LIST_FULL). For the modules wired in later. */
void        qm_estimate_assume   (QmEstimate *e,
                                  QmNoteId    id,
                                  double      v0,
                                  double      v1,
                                  double      v2,
                                  double      v3);
void        qm_estimate_warn     (QmEstimate *e,
                                  QmNoteId    id,
                                  double      v0,
                                  double      v1,
                                  double      v2,
                                  double      v3);

/* Format a note as one line of text into buf; returns buf. */
const char *qm_note_format       (const QmNote *note,
                                  char         *buf,
                                  gsize         size);
/* A stable id for the note ("mfu-default", ...) for tests and tools. */
const char *qm_note_id_to_string (QmNoteId id);

const char *qm_mfu_source_to_string (QmMfuSource source);

G_END_DECLS
