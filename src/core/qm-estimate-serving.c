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
  in->max_batch_tokens = is->max_batch_tokens;
  in->engine = is->engine > 0 ? qm_engines (NULL)[is->engine - 1].info.id : NULL;
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
  if (inf->engine != NULL)
    {
      QmServingEngine se;
      QmServingConfig c = { 0, };

      /* The engine's scheduler limits as the sized replica runs them. */
      c.shape = &plan->workload.model;
      c.gpu = &plan->hardware.gpu;
      c.tp = MAX (inf->gpus_per_replica, 1u);
      c.pp = 1;
      c.weight_precision = is->weight_precision;
      c.kv_precision = is->kv_precision;
      c.engine = inf->engine;
      c.server = is->arrival != QM_ARRIVAL_OFFLINE;
      c.max_sequences = is->max_sequences;
      c.token_budget = is->max_batch_tokens;
      qm_serving_engine_init (&se, &c);
      {
        double v[5] = { se.token_budget, se.max_sequences, se.block_tokens, inf->engine->step_overhead_us,
                        inf->engine->seq_overhead_us };
        QmNote *note = qm_estimate_assume_v (e, QM_NOTE_INFERENCE_ENGINE, v, G_N_ELEMENTS (v));

        if (note != NULL)
          {
            note->s[0] = inf->engine->info.name;
            note->s[1] = inf->engine->version;
          }
      }
    }
  if (inf->derived != 0)
    {
      g_autoptr (GString) what = g_string_new (NULL);

      if (inf->derived & QM_SERVING_DERIVED_HBM)
        g_string_append (what, "HBM bandwidth");
      if (inf->derived & QM_SERVING_DERIVED_GEMM)
        g_string_append_printf (what, "%sGEMM efficiency", what->len ? ", " : "");
      if (inf->derived & QM_SERVING_DERIVED_ALLREDUCE)
        g_string_append_printf (what, "%sall-reduce", what->len ? ", " : "");
      qm_estimate_assume_s (e, QM_NOTE_INFERENCE_DERIVED, plan->hardware.gpu.info.name,
                            g_intern_string (what->str), 0, 0, 0);
    }
  if (inf->gpus_exact > 0)
    qm_estimate_assume (e, QM_NOTE_INFERENCE_RULE_OF_THUMB, inf->gpus_exact, inf->tokens_per_s_per_gpu,
                        inf->gpus, inf->gpus / inf->gpus_exact);
  return TRUE;
}
