/* qm-accuracy.h: how far to trust an estimate (issue #36).
 *
 * The error model is data: data/catalog/accuracy.json, written by the
 * leave-one-source-out validations of training (tests/test-parallel.c,
 * tests/data/training-runs.tsv) and serving (tests/test-inference.c,
 * tests/data/serving-reference.tsv), which fail when it is not current.
 * For each family (a GPU family such as "h100", and a kind: the
 * parallelism for training, the engine for serving) it holds the number
 * of published runs, the range of GPU counts they ran on, and the bias
 * (median), p10 and p90 of the held-out signed error, predicted /
 * published - 1 (positive: the model was optimistic).
 *
 * A band turns those into the range of the true value: a throughput
 * (MFU, tokens/s) the model overestimates by e is really v / (1 + e), a
 * time or a GPU count is really v · (1 + e). The band is [p10, p90] of
 * the most specific family with at least QM_ACCURACY_MIN_RUNS runs; where
 * the GPU's family has fewer, the pooled spread of every run and the
 * basis says so. A band always holds the estimate itself: its edges are
 * at least QM_ACCURACY_MIN_HALF_WIDTH either side.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "qm-types.h"

G_BEGIN_DECLS

typedef enum
{
  QM_ACCURACY_TRAINING,
  QM_ACCURACY_SERVING,
  QM_N_ACCURACY_DOMAINS
} QmAccuracyDomain;

/* Fewer held-out runs than this do not make a family's band. */
#define QM_ACCURACY_MIN_RUNS 5
/* The least distance of a band's edge from the estimate (signed error). */
#define QM_ACCURACY_MIN_HALF_WIDTH 0.01
/* Deadline confidence: the default (the estimate itself) and the most a
 * plan may ask (the band's pessimistic edge, p90). */
#define QM_ACCURACY_CONFIDENCE_DEFAULT 0.5
#define QM_ACCURACY_CONFIDENCE_MAX     0.9

typedef struct
{
  const char *family;    /* GPU family ("h100"); NULL: every GPU (pooled) */
  const char *kind;      /* training "3D", "FSDP", "CP", "LoRA"; serving an
                          * engine id; NULL: every kind */
  guint       runs;
  guint       gpus_min, gpus_max;
  double      bias, p10, p90;
} QmAccuracyFamily;

/* What an estimate's band rests on. */
typedef struct
{
  QmAccuracyDomain        domain;
  const QmAccuracyFamily *family;   /* the family used (never NULL after lookup) */
  gboolean                covered;  /* FALSE: the GPU's family has fewer than
                                     * QM_ACCURACY_MIN_RUNS runs: pooled spread */
  guint                   family_runs; /* runs on the GPU's family (maybe < MIN_RUNS) */
  double                  p10, p90; /* the family's, widened to hold 0 */
} QmAccuracyFit;

/* The training kind of a layout, as the validation groups runs: "LoRA"
 * (LoRA and QLoRA), then "CP" (context parallel), then "FSDP" (ZeRO-3),
 * else "3D". */
const char *qm_accuracy_training_kind (QmMode  mode,
                                       guint   cp,
                                       guint   zero_stage);

/* The band for a GPU family and kind; @gpu_family may be NULL. */
void        qm_accuracy_lookup        (QmAccuracyDomain  domain,
                                       const char       *gpu_family,
                                       const char       *kind,
                                       QmAccuracyFit    *out);

/* The families of @domain, pooled one first; for the docs and tests. */
const QmAccuracyFamily * const *qm_accuracy_families (QmAccuracyDomain domain,
                                                      guint           *n);

/* The signed error at @confidence (0.5 to 0.9): 0 at 0.5 (the estimate
 * is read as the median), p90 at 0.9, linear between. A time or a GPU
 * count met at that confidence is v · (1 + result). */
double      qm_accuracy_error_at      (const QmAccuracyFit *fit,
                                       double               confidence);

/* A throughput's band: [v / (1 + p90), v / (1 + p10)]; a time's or a GPU
 * count's: [v · (1 + p10), v · (1 + p90)]. */
void        qm_accuracy_rate_band     (const QmAccuracyFit *fit,
                                       double               v,
                                       double              *low,
                                       double              *high);
void        qm_accuracy_cost_band     (const QmAccuracyFit *fit,
                                       double               v,
                                       double              *low,
                                       double              *high);

/* The basis in words, translated: "23 published runs on H100-class GPUs,
 * 3D parallel, 8–16,384 GPUs", or "No published runs on this GPU (MI355X):
 * the spread of all 125 runs". @gpu_name names the plan's GPU. Free with
 * g_free(). */
char       *qm_accuracy_basis         (const QmAccuracyFit *fit,
                                       const char          *gpu_name);

/* The family's display name: "h100" → "H100", "gaudi" → "Gaudi". */
char       *qm_accuracy_family_label  (const char *family);

/* Parses accuracy.json (for tests; the built-in one loads once). */
gboolean    qm_accuracy_parse         (const char  *json,
                                       gssize       len,
                                       GPtrArray  **training,
                                       GPtrArray  **serving,
                                       GError     **error);

G_END_DECLS
