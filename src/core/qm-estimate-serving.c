/* qm-estimate-serving.c: the serving stage: the replica, concurrency and
 * fleet for the request rate (qm-inference), and the serving model's input
 * for a plan.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qm-estimate-private.h"

void
qm_estimate_inference_input (const QmPlan     *plan,
                             const QmEstimate *e,
                             QmInferenceInput *in,
                             GArray          **lengths,
                             QmLengthsProblem *problem)
{
  const QmWorkload *w = &plan->workload;
  const QmInferenceSpec *is = &w->inference;

  memset (in, 0, sizeof *in);
  *lengths = NULL;
  problem->line = 0;
  problem->file_error = G_FILE_ERROR_FAILED;
  in->shape = &w->model;
  in->params = e->params;
  in->active_params = e->active_params;
  in->gpu = &plan->hardware.gpu;
  in->gpus_per_node = plan->hardware.server.gpus > 0 ? plan->hardware.server.gpus : 8;
  in->gpus_per_replica = w->tp > 0 ? w->tp * MAX (w->pp, 1u) : 0;
  in->requests_per_minute = is->requests_per_minute;
  in->input_tokens = is->input_tokens;
  in->output_tokens = is->output_tokens;
  in->concurrency = is->concurrency;
  in->weight_precision = is->weight_precision;
  in->kv_precision = is->kv_precision;
  in->ttft_ms = is->ttft_ms;
  in->tpot_ms = is->tpot_ms;
  in->pp = w->pp;
  in->arrival = is->arrival;
  in->input_tokens_sd = is->input_tokens_sd;
  in->output_tokens_sd = is->output_tokens_sd;
  in->max_sequences = is->max_sequences;
  /* target.gpus: the fleet the plan has, kept (issue 31); a deadline
   * instead sizes the fleet for the rate. */
  in->fleet_gpus = w->target_gpus;
  if (is->lengths_csv[0])
    {
      *lengths = qm_inference_read_lengths (is->lengths_csv, problem);
      if (*lengths != NULL)
        {
          in->lengths = (const double *) (*lengths)->data;
          in->n_lengths = (*lengths)->len / 2;
        }
    }
}

/* Why a lengths CSV could not be read, in words a user can act on: the
 * path itself is shown with the plan's inputs. */
static const char *
unreadable_message (GFileError code)
{
  switch (code)
    {
    case G_FILE_ERROR_NOENT:
    case G_FILE_ERROR_NOTDIR:
      return N_("there is no such file");
    case G_FILE_ERROR_ACCES:
    case G_FILE_ERROR_PERM:
      return N_("the file may not be read: check its permissions");
    case G_FILE_ERROR_ISDIR:
      return N_("names a folder, not a file");
    default:
      return N_("cannot read the file");
    }
}

/* Serving: replica size, concurrency and replica count for the request
 * rate (qm-inference). */
static void
size_inference (const QmPlan *plan,
                QmEstimate   *e)
{
  const QmInferenceSpec *is = &plan->workload.inference;
  QmInferenceInput in;
  g_autoptr (GArray) lengths = NULL;
  QmLengthsProblem problem;

  qm_estimate_inference_input (plan, e, &in, &lengths, &problem);
  qm_inference_compute (&in, &e->inference);
  if (is->lengths_csv[0] && lengths == NULL && problem.line == 0)
    qm_issues_add_bare (&e->inference.issues, QM_ISSUE_ERROR, "workload.inference.lengths_csv",
                        unreadable_message (problem.file_error));
  else if (is->lengths_csv[0] && lengths == NULL)
    qm_issues_add (&e->inference.issues, QM_ISSUE_ERROR, "workload.inference.lengths_csv",
                   /* Translators: %.0f is a line number of the user's CSV file. */
                   N_("line %.0f does not hold two whole token counts, input,output"), problem.line);
  e->has_inference = TRUE;
  qm_estimate_add_issues (e, &e->inference.issues);
}

/* The serving stage (mode inference): size the fleet, and state how the
 * serving memory and fleet were sized. Training plans pass through. */
gboolean
qm_estimate_stage_serving (const QmPlan      *plan,
                           QmEstimateContext *ctx,
                           QmEstimate        *e)
{
  const QmInferenceSpec *is = &plan->workload.inference;
  const QmInference *inf = &e->inference;

  if (e->has_training)
    return TRUE;
  size_inference (plan, e);
  qm_estimate_assume (e, QM_NOTE_INFERENCE_MEMORY, MAX (inf->concurrency, 1u),
                      is->input_tokens + is->output_tokens, 0, 0);
  qm_estimate_assume (e, QM_NOTE_OVERHEAD, 0, 0, 0, 0);
  if (inf->fixed_fleet)
    {
      double rate = is->requests_per_minute / 60.0;

      qm_estimate_assume (e, QM_NOTE_INFERENCE_CAPACITY, plan->workload.target_gpus, inf->replicas,
                          inf->gpus_per_replica, inf->max_requests_per_s);
      /* (A fleet smaller than one replica is the gpus stage's warning.) */
      if (inf->fits && rate > 0.0 && inf->gpus_for_rate == 0)
        qm_estimate_warn (e, QM_NOTE_INFERENCE_NO_CAPACITY, inf->gpus_per_replica, 0, 0, 0);
      else if (inf->fits && rate > inf->max_requests_per_s && inf->max_requests_per_s > 0.0)
        qm_estimate_warn_v (e, QM_NOTE_INFERENCE_OVER_CAPACITY,
                            (const double[]) { rate, 100.0 * (rate / inf->max_requests_per_s - 1.0),
                                               plan->workload.target_gpus, inf->max_requests_per_s,
                                               inf->gpus_for_rate },
                            5);
      return TRUE;
    }
  qm_estimate_assume (e, QM_NOTE_INFERENCE_SIZING, inf->replicas, inf->gpus_per_replica,
                      inf->concurrency, inf->tokens_per_s_needed);
  if (inf->gpus_exact > 0)
    qm_estimate_assume (e, QM_NOTE_INFERENCE_RULE_OF_THUMB, inf->gpus_exact, inf->tokens_per_s_per_gpu,
                        inf->gpus, inf->gpus / inf->gpus_exact);
  return TRUE;
}
