/* qm-cli-search.c: quartermaster-cli search PLAN.json [--top N] [--json]
 *
 * The fastest parallel layouts that fit (issue #5). Besides what the plan
 * leaves on auto (tp/pp/cp/ep), the search also varies the ZeRO stage,
 * activation recompute and the micro-batch, so that the list shows what
 * each knob is worth; a tp/pp/cp/ep that the plan fixes stays fixed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-estimate.h"
#include "qm-json-members.h"
#include "qm-model.h"
#include "qm-parallel.h"
#include "qm-plan-report.h"

/* The members of a layout's JSON object (docs/cli.md), each read from the
 * QmParallelResult. */
#define NUM(key, member)  QM_JSON_MEMBER (key, QM_JSON_NUMBER, QmParallelResult, member, double)
#define UINT(key, member) QM_JSON_MEMBER (key, QM_JSON_UINT, QmParallelResult, member, guint)
#define BOOL(key, member) QM_JSON_MEMBER (key, QM_JSON_BOOL, QmParallelResult, member, gboolean)
#define RECOMPUTE_TO_S    (const char *(*) (int)) (void (*) (void)) qm_recompute_to_string

static const QmJsonMember result_members[] = {
  { "parallelism", QM_JSON_OBJECT, 0, NULL },
  UINT ("tp", layout.tp),
  UINT ("pp", layout.pp),
  UINT ("dp", layout.dp),
  UINT ("cp", layout.cp),
  UINT ("ep", layout.ep),
  UINT ("micro_batch", layout.micro_batch),
  UINT ("micro_batches", layout.n_micro),
  UINT ("virtual_stages", layout.virtual_stages),
  UINT ("zero_stage", layout.zero_stage),
  { "recompute", QM_JSON_ENUM, G_STRUCT_OFFSET (QmParallelResult, layout.recompute), RECOMPUTE_TO_S },
  BOOL ("sequence_parallel", layout.sequence_parallel),
  { NULL, QM_JSON_END, 0, NULL },
  NUM ("mfu", time.mfu),
  NUM ("hfu", time.hfu),
  NUM ("tokens_per_s", time.tokens_per_s),
  { "step_time_s", QM_JSON_OBJECT, 0, NULL },
  NUM ("step", time.step),
  NUM ("compute", time.compute),
  NUM ("recompute", time.recompute),
  NUM ("tp_comm", time.tp_comm),
  NUM ("pp_comm", time.pp_comm),
  NUM ("dp_comm", time.dp_comm),
  NUM ("zero_comm", time.zero_comm),
  NUM ("cp_comm", time.cp_comm),
  NUM ("ep_comm", time.ep_comm),
  NUM ("bubble", time.bubble),
  NUM ("optimizer", time.optimizer),
  { NULL, QM_JSON_END, 0, NULL },
  { "memory_bytes", QM_JSON_OBJECT, 0, NULL },
  NUM ("weights", memory.weights),
  NUM ("gradients", memory.gradients),
  NUM ("optimizer", memory.optimizer),
  NUM ("activations", memory.activations),
  NUM ("overhead", memory.overhead),
  NUM ("total", memory.total),
  NUM ("capacity", memory.capacity),
  NUM ("margin", memory.margin),
  { NULL, QM_JSON_END, 0, NULL },
  NUM ("cost_usd_per_step", cost_usd_per_step),
};

static void
print_json (const QmParallelSearch *res)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

  qm_cli_json_begin_list (b, "layouts");
  for (guint i = 0; i < res->n; i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "rank");
      json_builder_add_int_value (b, i + 1);
      qm_json_add_members (b, &res->top[i], result_members, G_N_ELEMENTS (result_members));
      /* The same for every element: the array is the contract. */
      json_builder_set_member_name (b, "layouts_evaluated");
      json_builder_add_int_value (b, (gint64) res->evaluated);
      json_builder_end_object (b);
    }
  qm_cli_json_end_list (b);
  qm_cli_print_json (b);
}

static void
print_text (const QmPlan            *plan,
            const QmParallelProblem *pb,
            const QmParallelSearch  *res,
            double                   ms)
{
  qm_cli_print ("%s\n", plan->name[0] ? plan->name : _("(untitled plan)"));
  /* Translators: "2,048 × h100-sxm-80gb, global batch 2048 × 8192
   * tokens"; the second %s is a catalog id. */
  qm_cli_print ("  ");
  qm_cli_print (_("%s × %s, global batch %u × %u tokens\n"), qm_cli_num (pb->gpus, 0), plan->gpu_id,
                pb->global_batch, pb->seq_len);
  if (pb->tp || pb->pp || pb->cp || pb->ep)
    {
      g_autofree char *keys = g_strjoin ("", pb->tp ? " tp" : "", pb->pp ? " pp" : "", pb->cp ? " cp" : "",
                                         pb->ep ? " ep" : "", NULL);

      /* Translators: %s lists the plan file's keys (tp, pp, cp, ep) that
       * the plan sets; keep "auto", the value the plan file takes. */
      qm_cli_print ("  ");
      qm_cli_print (_("fixed by the plan:%s (set them to \"auto\" to search them)\n"), keys);
    }
  else
    qm_cli_print ("  %s\n", _("fixed by the plan: nothing"));
  qm_cli_print ("  ");
  qm_cli_print (_("%s layouts evaluated, %s memory checks, %s skipped by a bound, in %.1f ms\n\n"),
                qm_cli_num (res->evaluated, 0), qm_cli_num (res->memory_checks, 0),
                qm_cli_num (res->pruned, 0), ms);
  /* The column heads tp … ZeRO are the plan file's names; the rest are words. */
  qm_cli_print ("  %-3s %4s %4s %6s %3s %3s %4s %3s %4s %s %s %6s %6s %s\n", "#", "tp", "pp",
                "dp", "cp", "ep", "mb", "v", "ZeRO", qm_cli_cell (_("recompute"), -9),
                qm_cli_cell (_("step (s)"), 10), "MFU", "HFU", qm_cli_cell (_("memory per GPU"), 17));
  for (guint i = 0; i < res->n; i++)
    {
      const QmParallelResult *r = &res->top[i];
      const QmParallelLayout *l = &r->layout;
      g_autofree char *mem = g_strdup_printf ("%.1f / %.0f GB", r->memory.total / 1e9,
                                              r->memory.capacity / 1e9);

      qm_cli_print ("  %-3u %4u %4u %6u %3u %3u %4u %3u %4u %s %10.3f %5.1f%% %5.1f%% %17s\n",
              i + 1, l->tp, l->pp, l->dp, l->cp, l->ep, l->micro_batch, l->virtual_stages,
              l->zero_stage, qm_cli_cell (qm_recompute_word (l->recompute), -9), r->time.step,
              100 * r->time.mfu, 100 * r->time.hfu, mem);
    }
  qm_cli_print ("\n%s\n", _("Step time breakdown (seconds; communication is the exposed part)"));
  qm_cli_print ("  %-3s %s %s %7s %7s %7s %7s %7s %7s %s %s %s\n", "#", qm_cli_cell (_("compute"), 8),
                qm_cli_cell (_("recompute"), 9), "TP", "PP", "DP", "ZeRO", "CP", "EP",
                qm_cli_cell (_("bubble"), 7), qm_cli_cell (_("optimizer"), 9), qm_cli_cell (_("tokens/s"), 14));
  for (guint i = 0; i < res->n; i++)
    {
      const QmParallelTime *t = &res->top[i].time;

      qm_cli_print ("  %-3u %8.3f %9.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %9.3f %14s\n",
              i + 1, t->compute, t->recompute, t->tp_comm, t->pp_comm, t->dp_comm,
              t->zero_comm, t->cp_comm, t->ep_comm, t->bubble, t->optimizer,
              qm_cli_num (t->tokens_per_s, 0));
    }
}

int
qm_cli_search (int    argc,
               char **argv)
{
  const char *path = NULL, *v = NULL;
  gboolean json = FALSE;
  guint top = 5;
  g_autofree QmPlan *plan = g_new (QmPlan, 1);
  g_autofree QmEstimate *e = g_new (QmEstimate, 1);
  g_autofree QmParallelSearch *res = g_new0 (QmParallelSearch, 1);
  QmParallelProblem pb;
  gint64 t0;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (qm_cli_option_value (argc, argv, &i, "--top", &v))
        {
          guint64 n = 0;

          if (v == NULL || !g_ascii_string_to_unsigned (v, 10, 1, QM_PARALLEL_MAX_TOP, &n, NULL))
            {
              qm_cli_error (_("%s: --top needs a number from 1 to %d (got '%s')"), "search",
                            QM_PARALLEL_MAX_TOP, v ? v : "");
              return QM_CLI_USAGE;
            }
          top = (guint) n;
        }
      else if (!qm_cli_take_argument ("search", argv[i], QM_CLI_ARG_PLAN, &path))
        return QM_CLI_USAGE;
    }
  if (path == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "search", "PLAN.qmplan", qm_cli_synopsis ("search"));
      return QM_CLI_USAGE;
    }
  if (!qm_cli_load_plan (path, plan))
    return QM_CLI_INPUT;
  if (plan->workload.mode == QM_MODE_INFERENCE)
    {
      qm_cli_error (_("%s: workload.mode: the layout search is for training plans (got inference)"),
                    path);
      return QM_CLI_INPUT;
    }

  /* The estimate gives the GPU count (a deadline sizes it) and says what
   * is wrong with the plan, if anything. */
  qm_estimate (plan, e);
  if (!e->valid || e->gpus == 0)
    {
      char buf[1024];

      qm_cli_error ("%s: %s", path, e->n_warnings > 0
                    ? qm_note_format (&e->warnings[0], buf, sizeof buf)
                    : _("the plan cannot be estimated"));
      return QM_CLI_INPUT;
    }
  qm_parallel_problem_from_plan (plan, e->gpus, &pb);
  if (!qm_model_has_shape (&pb.shape))
    qm_model_shape_infer (plan->workload.model.params_hint, &pb.shape);
  /* The estimate priced a nearby batch when no layout divides the plan's
   * on these GPUs (a deadline sizes whole nodes): search that one too. */
  if (e->priced_global_batch > 0)
    {
      if (!json)
        qm_cli_print (_("note: no layout of %u GPUs divides global_batch %u; searching with %u, the "
                        "nearest batch one does\n\n"), e->gpus, pb.global_batch, e->priced_global_batch);
      pb.global_batch = e->priced_global_batch;
    }
  pb.search_zero = TRUE;
  pb.search_recompute = TRUE;
  pb.search_micro_batch = TRUE;

  t0 = g_get_monotonic_time ();
  qm_parallel_search (&pb, top, res);
  if (res->n == 0)
    {
      char buf[1024];

      if (json)
        puts ("[]");
      qm_cli_error ("%s: %s", path, qm_parallel_no_fit_format (&res->no_fit, buf, sizeof buf));
      return QM_CLI_INPUT;
    }
  if (json)
    print_json (res);
  else
    print_text (plan, &pb, res, (g_get_monotonic_time () - t0) / 1000.0);
  return QM_CLI_OK;
}
