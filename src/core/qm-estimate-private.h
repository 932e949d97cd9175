/* qm-estimate-private.h: the stages of qm_estimate () and what they share.
 *
 * qm_estimate () runs these stages in order on one QmEstimate; each fills
 * its part and returns FALSE when the estimate cannot go on (it is then
 * invalid and a warning says why). A stage reads only the plan, the
 * context and what the earlier stages filled, so a test can run one on a
 * prepared estimate: qm_estimate_begin (), set the fields it reads, run it.
 *
 *   workload     model shape, parameters, peak, MFU, tokens and FLOPs
 *   serving      replica, concurrency and fleet for the request rate
 *   gpus         GPU count: given, for the deadline, or for the fleet; nodes
 *   layout       parallel layout and per-GPU memory (one search finds both)
 *   time         ideal days (training), or the serving period
 *   memory       the memory assumptions (training)
 *   cluster      racks, network, storage
 *   reliability  failures, checkpoints, goodput: the wall clock (training)
 *   power        IT and facility power, energy, CO2
 *   cost         bill of materials, rent or buy
 *   notes        the modules' assumptions, in reading order
 *
 * The notes come last, not with their modules, so that the assumptions
 * read in the order they always did (storage, failures, racks, power,
 * cost); the time and memory stages run in that order for the same reason.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "qm-estimate.h"
#include "qm-plan.h"

G_BEGIN_DECLS

/* What the stages share beyond the estimate itself. */
typedef struct
{
  QmModelShape      shape;      /* the plan's, or inferred from params_b (workload) */
  guint             gpn;        /* GPUs per node; 8 when the server gives none */
  guint             mp_fixed;   /* tp·pp·cp the plan fixes, "auto" counting 1 */
  /* Set by the gpus stage: the throughput model runs when the plan leaves
   * a layout knob (searched) or the MFU (predict) to us. */
  gboolean          searched;
  gboolean          predict;
  gboolean          use_model;
  QmParallelProblem pb;         /* filled only when use_model (not on the hot path) */
} QmEstimateContext;

typedef gboolean (*QmEstimateStage) (const QmPlan      *plan,
                                     QmEstimateContext *ctx,
                                     QmEstimate        *e);

/* Set up @ctx for @plan and clear @e for a new estimate. */
void     qm_estimate_begin             (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);

gboolean qm_estimate_stage_workload    (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_serving     (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_gpus        (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_layout      (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_time        (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_memory      (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_cluster     (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_reliability (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_power       (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_cost        (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_bands       (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);
gboolean qm_estimate_stage_notes       (const QmPlan      *plan,
                                        QmEstimateContext *ctx,
                                        QmEstimate        *e);

/* Notes (qm-estimate-notes.c). The _v forms take up to QM_NOTE_N_VALUES
 * numbers; assume_v returns the note so that a caller can set its strings
 * (NULL when the list is full). */
QmNote  *qm_estimate_assume_v          (QmEstimate        *e,
                                        QmNoteId           id,
                                        const double      *v,
                                        guint              n_v);
void     qm_estimate_warn_v            (QmEstimate        *e,
                                        QmNoteId           id,
                                        const double      *v,
                                        guint              n_v);
/* An assumption with two strings first (see the n_str of its template). */
void     qm_estimate_assume_s          (QmEstimate        *e,
                                        QmNoteId           id,
                                        const char        *s0,
                                        const char        *s1,
                                        double             v0,
                                        double             v1,
                                        double             v2);
void     qm_estimate_add_issues        (QmEstimate        *e,
                                        const QmIssues    *issues);

/* Storage is sized to write one full checkpoint within this time, topping
 * up the bandwidth that capacity brings (a small dataset alone would buy
 * almost none). An assumption: Llama 3's Tectonic sustained 2 TB/s, so its
 * 5.7 TB checkpoints took seconds (arXiv 2407.21783 §3.3.1). */
#define QM_ESTIMATE_CHECKPOINT_TARGET_S 60.0

/* The plan's storage, or NULL when it names none. */
const QmStorageSpec *qm_estimate_plan_storage (const QmPlan *plan);
gboolean qm_estimate_storage_in_servers (const QmStorageSpec *st);
/* One training checkpoint: the trainable parameters' weights, master copy
 * and optimizer states (LoRA: the adapters only). */
double   qm_estimate_checkpoint_bytes  (const QmPlan       *plan,
                                        const QmModelShape *shape,
                                        double              params);

/* Notes hold only finite numbers, so no output can print NaN. */
static inline double
qm_estimate_finite_or_zero (double v)
{
  return isfinite (v) ? v : 0.0;
}

G_END_DECLS
