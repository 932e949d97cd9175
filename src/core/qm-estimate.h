/* qm-estimate.h: the estimate of a plan, as a plain struct.
 *
 * qm_estimate() is pure and, for training, allocates nothing: the UI calls
 * it on every change. A serving plan runs the request simulator, which
 * allocates its request arrays (and reads the plan's lengths CSV, if any);
 * it still takes a few milliseconds (bench-serving). Assumptions and warnings are note ids plus numbers (and at most two
 * static or interned strings), formatted only at the edge (qm_note_format),
 * so an estimate costs no string formatting.
 *
 * One call runs the whole chain: model, compute and memory (or inference
 * sizing), then cluster -> reliability -> power -> cost, each module's
 * result embedded by value.
 *
 * Training layouts and MFU: a plan that fixes tp/pp/cp/ep and gives its
 * MFU takes the fast path (no throughput model: about a microsecond). When
 * any of them is "auto", the layout search of qm-parallel picks the fastest
 * layout that fits; when the MFU is omitted, the throughput model predicts
 * it for that layout (mfu_source PREDICTED). The search runs on the stack,
 * so the estimate still allocates nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-accuracy.h"
#include "qm-cluster.h"
#include "qm-cost.h"
#include "qm-inference.h"
#include "qm-memory.h"
#include "qm-parallel.h"
#include "qm-power.h"
#include "qm-reliability.h"
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
  QM_NOTE_MFU_PREDICTED,
  QM_NOTE_SHAPE_INFERRED,
  QM_NOTE_SEED_RULE,
  QM_NOTE_GPUS_FOR_DEADLINE,
  QM_NOTE_PARALLEL_AUTO,
  QM_NOTE_MODEL_STATES,
  QM_NOTE_FP32_GRAD_BUFFER,
  QM_NOTE_FP8_MEMORY,
  QM_NOTE_ACTIVATIONS,
  QM_NOTE_LORA,
  QM_NOTE_QLORA,
  QM_NOTE_OVERHEAD,
  QM_NOTE_PEAK_FALLBACK,
  QM_NOTE_INFERENCE_MEMORY,
  QM_NOTE_INFERENCE_SIZING,
  QM_NOTE_INFERENCE_RULE_OF_THUMB,
  QM_NOTE_INFERENCE_PERIOD,
  QM_NOTE_INFERENCE_ENGINE,
  QM_NOTE_INFERENCE_DERIVED,
  QM_NOTE_INFERENCE_CAPACITY,
  QM_NOTE_INFERENCE_SPARE_GPUS,
  QM_NOTE_DATASET_STORAGE,
  QM_NOTE_CHECKPOINT,
  QM_NOTE_FAILURE_PRESET,
  QM_NOTE_CHECKPOINT_INTERVAL,
  QM_NOTE_GOODPUT,
  QM_NOTE_RACKS,
  QM_NOTE_LIQUID_COOLING,
  QM_NOTE_POWER_AVG_TYPICAL,
  QM_NOTE_POWER_AVG_DEFAULT,
  QM_NOTE_FACILITY,
  QM_NOTE_MGMT_UNPRICED,
  QM_NOTE_RACK_PARTS,
  QM_NOTE_COST_BUY,
  QM_NOTE_COST_RENT,
  QM_NOTE_COST_RENT_OFFER,
  QM_NOTE_BREAK_EVEN,
  QM_NOTE_SCHEDULE_1F1B,
  QM_NOTE_SCHEDULE_INTERLEAVED,
  QM_NOTE_SCHEDULE_SEARCH,
  QM_NOTE_MAMF_SAME_AS,
  QM_NOTE_MAMF_DEFAULT,
  QM_NOTE_LIQUID_BY_DESIGN,
  QM_NOTE_RACKS_OWN,
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
  QM_NOTE_INFERENCE_MORE_GPUS,
  QM_NOTE_INFERENCE_OVER_CAPACITY,
  QM_NOTE_INFERENCE_NO_CAPACITY,
  QM_NOTE_INPUT_ERROR,       /* a module's QmIssue: field, message, value, and
                              * v[1] = 1 when it has no value to show */
  QM_NOTE_INPUT_WARNING,
  QM_NOTE_LIST_FULL,
  QM_NOTE_HARDWARE_FLOPS_SELECTIVE_OP,
  QM_NOTE_LORA_ATTENTION,
  QM_NOTE_LORA_FROZEN,
  QM_NOTE_FP8_WEIGHTS,
  QM_NOTE_ACCURACY_BAND,
  QM_NOTE_ACCURACY_POOLED,
  QM_NOTE_ACCURACY_NONE,
  QM_NOTE_DEADLINE_CONFIDENCE,
  QM_N_NOTES
} QmNoteId;

#define QM_NOTE_N_VALUES  6
#define QM_NOTE_N_STRINGS 2
typedef struct
{
  QmNoteId    id;
  double      v[QM_NOTE_N_VALUES];
  /* Static or interned strings (a QmIssue's field and message, a preset's
   * source): never owned, so a note is copied by value. */
  const char *s[QM_NOTE_N_STRINGS];
} QmNote;

#define QM_ESTIMATE_MAX_NOTES 32

/* The range the true value falls in with 80% confidence (the p10 and p90
 * of the error model's family, qm-accuracy.h); set FALSE where no band
 * applies. */
typedef struct
{
  gboolean set;
  double   low, high;
} QmBand;

typedef struct
{
  gboolean      has;             /* the model predicted: training with the
                                  * MFU predicted, or serving */
  QmAccuracyFit fit;             /* what the bands rest on */
  double        confidence;      /* a deadline plan's target.confidence */
  double        deadline_error;  /* the error it was sized at (0 at 0.5) */
  QmBand        mfu;
  QmBand        train_days;
  QmBand        gpus;            /* GPUs the same work needs at the band's edges */
  QmBand        tokens_per_s_per_gpu;
} QmBands;

typedef struct
{
  guint       tp, pp, dp, cp, ep;
  guint       micro_batch;
  guint       zero_stage;
  QmRecompute recompute;
  gboolean    sequence_parallel;
  guint       virtual_stages;    /* interleaved 1F1B model chunks per stage (1 = plain) */
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
  double      train_days;        /* wall clock with failures: reliability.wall_s */
  double      gpu_hours;         /* gpus × train_days × 24 */

  QmMemoryBreakdown memory;
  gboolean    fits;

  /* The throughput model's step for the estimate's layout (qm-parallel),
   * when it ran: the layout was searched or the MFU predicted. */
  gboolean    has_step_time;
  QmParallelTime step_time;
  guint64     layouts_evaluated; /* by the search; 0 = no search */
  /* When no layout divides the plan's global batch on these GPUs (a
   * deadline picks whole nodes, not a dp that divides it), the model
   * prices the nearest batch that one does, and says so; else 0. */
  guint       priced_global_batch;
  /* Nothing fitted (valid): why, and what would (QM_NOTE_NO_LAYOUT_FITS,
   * or QM_NOTE_DOES_NOT_FIT for a layout the plan fixed). */
  QmParallelNoFit no_fit;

  /* The modules, run in this order; each sets its has_ flag when its result
   * applies (the JSON writes null otherwise). Cluster, power and cost apply
   * to every mode; reliability to training; inference to mode inference. */
  gboolean    has_cluster;
  gboolean    has_power;
  gboolean    has_cost;
  gboolean    has_reliability;
  gboolean    has_inference;
  QmCluster   cluster;
  QmReliability reliability;
  QmPower     power;
  QmCost      cost;
  QmInference inference;
  double      run_s;             /* what power and cost were run over: the
                                  * training wall clock, or one month of
                                  * serving (QM_HOURS_PER_MONTH) */
  double      dataset_bytes;     /* tokenised training data on storage */
  QmBands     bands;             /* how far to trust it (issue #36) */
  /* Resolved for the BOM (NULL when the catalog has none). */
  const QmCloudOffer   *offer;
  const QmFacilityItem *rack;
  const QmFacilityItem *liquid_rack;
  const QmFacilityItem *pdu;

  /* Module issues of level QM_ISSUE_ERROR: the input is invalid and some
   * numbers are finite stand-ins. The CLI exits 1 when this is > 0. */
  guint       n_errors;

  guint       n_assumptions;
  guint       n_warnings;
  QmNote      assumptions[QM_ESTIMATE_MAX_NOTES];
  QmNote      warnings[QM_ESTIMATE_MAX_NOTES];
};

void        qm_estimate          (const QmPlan *plan,
                                  QmEstimate   *out);

/* The serving model's input for @plan as qm_estimate() built it for
 * @estimate, so that the serving charts run the same model at other rates
 * and batches. in->shape and in->gpu point into @plan; when the plan names
 * a lengths CSV, *lengths holds its pairs (g_array_unref() it) or is NULL
 * with *problem set as qm_inference_read_lengths() does. */
void        qm_estimate_inference_input (const QmPlan     *plan,
                                         const QmEstimate *estimate,
                                         QmInferenceInput *in,
                                         GArray          **lengths,
                                         QmLengthsProblem *problem);

/* The quote for @plan's terms (plan->quote; the defaults for its pricing
 * when the plan has no quote section) on @estimate's cost: support at
 * pricing.support_fraction unless the terms give a rate, and the rate the
 * terms give (qm-estimate-quote.c). Its break-even month is the one the
 * estimate of a buy plan states (QmCost.break_even_month). */
void        qm_estimate_quote    (const QmPlan     *plan,
                                  const QmEstimate *estimate,
                                  QmQuote          *out);

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

/* Add a module's issue as a warning (QM_NOTE_INPUT_ERROR or _WARNING),
 * once per field and message; errors count in n_errors. */
void        qm_estimate_add_issue (QmEstimate    *e,
                                   const QmIssue *issue);

/* Format a note as one line of text into buf; returns buf. */
const char *qm_note_format       (const QmNote *note,
                                  char         *buf,
                                  gsize         size);
/* A stable id for the note ("mfu-default", ...) for tests and tools. */
const char *qm_note_id_to_string (QmNoteId id);

const char *qm_mfu_source_to_string (QmMfuSource source);

/* The basis of @e's bands in words (qm_accuracy_basis for the plan's
 * GPU), or NULL when it has none. Free with g_free(). */
char       *qm_estimate_bands_basis (const QmPlan     *plan,
                                     const QmEstimate *e);

typedef enum
{
  QM_BAND_MFU,
  QM_BAND_TRAIN_DAYS,
  QM_BAND_GPUS,
  QM_BAND_TOKENS_PER_S_PER_GPU,
} QmBandId;

/* A band's range as every view prints it: "40.7–54.0%" (MFU), "23.8–31.5"
 * (days), "75–100" (GPUs), "1,018–1,288" (tokens/s per GPU); "–" where
 * the estimate has no such band. Returns buf. */
const char *qm_estimate_band_format (const QmEstimate *e,
                                     QmBandId          which,
                                     char             *buf,
                                     gsize             size);

/* The error model's fit for a training plan before its layout is known
 * (the plan's own cp and ZeRO stage): what a deadline is sized at. */
void        qm_estimate_training_fit (const QmPlan  *plan,
                                      QmAccuracyFit *out);

G_END_DECLS
