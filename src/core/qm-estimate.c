/* qm-estimate.c: a plan in, an estimate out; pure and allocation-free. A
 * short pipeline of named stages (qm-estimate-private.h), each in the file
 * of its concern: qm-estimate-workload.c, -serving.c, -layout.c,
 * -modules.c; the notes in qm-estimate-notes.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-estimate-private.h"

void
qm_estimate_begin (const QmPlan      *plan,
                   QmEstimateContext *ctx,
                   QmEstimate        *e)
{
  const QmWorkload *w = &plan->workload;

  /* ctx->pb is large and filled only when the throughput model runs. */
  ctx->shape = w->model;
  ctx->gpn = plan->hardware.server.gpus > 0 ? plan->hardware.server.gpus : 8;
  ctx->mp_fixed = (w->tp > 0 ? w->tp : 1) * (w->pp > 0 ? w->pp : 1) * MAX (w->cp, 1u);
  ctx->searched = FALSE;
  ctx->predict = FALSE;
  ctx->use_model = FALSE;

  /* Member by member rather than a memset over an offset range, which
   * silently took in or left out whatever a change to the struct moved
   * (issue #24). The note arrays are filled by count and each module
   * clears its own result; qm_estimate () clears those that did not run. */
  e->params = 0;
  e->active_params = 0;
  e->tokens = 0;
  e->training_flops = 0;
  e->training_flops_6nd = 0;
  e->hardware_flops = 0;
  e->peak_flops = 0;
  e->gpus = 0;
  e->nodes = 0;
  e->parallelism = (QmParallelism) { 0 };
  e->mfu = 0;
  e->mfu_source = QM_MFU_SOURCE_GIVEN;
  e->ideal_days = 0;
  e->train_days = 0;
  e->gpu_hours = 0;
  e->memory = (QmMemoryBreakdown) { 0 };
  e->fits = FALSE;
  e->has_step_time = FALSE;
  e->step_time = (QmParallelTime) { 0 };
  e->layouts_evaluated = 0;
  e->priced_global_batch = 0;
  e->no_fit = (QmParallelNoFit) { 0 };
  e->has_cluster = FALSE;
  e->has_power = FALSE;
  e->has_cost = FALSE;
  e->has_reliability = FALSE;
  e->has_inference = FALSE;
  e->run_s = 0;
  e->dataset_bytes = 0;
  e->bands = (QmBands) { 0 };
  e->offer = NULL;
  e->rack = NULL;
  e->liquid_rack = NULL;
  e->pdu = NULL;
  e->n_errors = 0;
  e->n_assumptions = 0;
  e->n_warnings = 0;
  e->mode = w->mode;
  e->has_training = w->mode != QM_MODE_INFERENCE;
  e->valid = TRUE;
}

void
qm_estimate (const QmPlan *plan,
             QmEstimate   *out)
{
  /* In order; a stage that returns FALSE ends the estimate (invalid). */
  static const QmEstimateStage stages[] = {
    qm_estimate_stage_workload,
    qm_estimate_stage_serving,
    qm_estimate_stage_gpus,
    qm_estimate_stage_layout,
    qm_estimate_stage_time,
    qm_estimate_stage_memory,
    qm_estimate_stage_cluster,
    qm_estimate_stage_reliability,
    qm_estimate_stage_power,
    qm_estimate_stage_cost,
    qm_estimate_stage_bands,
    qm_estimate_stage_notes,
  };
  QmEstimateContext ctx;

  qm_estimate_begin (plan, &ctx, out);
  for (guint i = 0; i < G_N_ELEMENTS (stages); i++)
    if (!stages[i] (plan, &ctx, out))
      break;
  /* A module that did not run (invalid input, or not for this mode) reads
   * as zeros, never as the previous estimate. */
  if (!out->has_cluster)
    memset (&out->cluster, 0, sizeof out->cluster);
  if (!out->has_reliability)
    memset (&out->reliability, 0, sizeof out->reliability);
  if (!out->has_power)
    memset (&out->power, 0, sizeof out->power);
  if (!out->has_cost)
    memset (&out->cost, 0, sizeof out->cost);
  if (!out->has_inference)
    memset (&out->inference, 0, sizeof out->inference);
}
