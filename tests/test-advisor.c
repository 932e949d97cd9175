/* test-advisor.c: every suggestion, applied through the core, gives the
 * numbers the advisor printed; none makes the plan infeasible; the ranking
 * follows the goal; guidance carries a source and no numbers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-advisor.h"
#include "qm-plan.h"

static const char *examples[] = {
  "llama-3.1-70b-pretrain-h100.qmplan",
  "mistral-7b-lora-a100.qmplan",
  "7b-pretrain-30-day-deadline.qmplan",
  "llama-3.1-70b-serving-h100.qmplan",
};

static void
load (const char *name,
      QmPlan     *plan)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_load_from_file (plan, path, NULL, &error));
  g_assert_no_error (error);
}

static void
assert_close (double a,
              double b)
{
  g_assert_cmpfloat (fabs (a - b), <=, fabs (b) * 1e-9 + 1e-9);
}

static void
test_suggestions_reproduce (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    for (QmAdvisorGoal goal = QM_ADVISOR_GOAL_TIME; goal <= QM_ADVISOR_GOAL_GPUS; goal++)
      {
        QmPlan plan;
        g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
        g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

        load (examples[i], &plan);
        qm_advise (&plan, goal, r);
        g_test_message ("%s, goal %s: %u suggestions of %u evaluated", examples[i],
                        qm_advisor_goal_to_string (goal), r->n, r->evaluated);

        for (guint k = 0; k < r->n; k++)
          {
            const QmAdvice *a = &r->items[k];

            /* "Try it" gives exactly the printed numbers. */
            qm_estimate (&a->plan, e);
            g_assert_true (e->valid);
            g_assert_true (e->fits);
            g_assert_cmpuint (e->n_errors, ==, 0);
            assert_close (e->gpus, a->gpus);
            if (e->has_training)
              assert_close (e->train_days, a->days);
            assert_close (e->power.energy_mwh, a->energy_mwh);

            g_assert_true (a->quantified);
            g_assert_cmpuint (strlen (a->title), >, 0);
            g_assert_cmpuint (strlen (a->assumption), >, 0);
            g_assert_nonnull (strstr (a->effect, "Effect:"));
            g_assert_null (strstr (a->tradeoff, "Effect:"));

            /* Ranked by the goal: the score never decreases down the list. */
            if (k > 0)
              g_assert_cmpfloat (r->items[k - 1].score, <=, a->score);
          }

        for (guint k = 0; k < r->n_guidance; k++)
          {
            g_assert_false (r->guidance[k].quantified);
            g_assert_cmpfloat (r->guidance[k].d_days, ==, 0.0);
            g_assert_cmpuint (strlen (r->guidance[k].assumption), >, 10);
          }
      }
}

static void
test_fp8_on_h100 (void)
{
  QmPlan plan;
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  const QmAdvice *fp8 = NULL;

  load (examples[0], &plan);
  qm_advise (&plan, QM_ADVISOR_GOAL_TIME, r);
  for (guint k = 0; k < r->n; k++)
    if (g_str_equal (r->items[k].id, "precision-fp8"))
      fp8 = &r->items[k];
  g_assert_nonnull (fp8);
  /* The measured 1.28× speed-up: the ideal run is 1/1.28 as long, about
   * 22% less (issue #12's own example). Failures shift it a little. */
  g_assert_cmpfloat (fp8->d_days, <, -0.18);
  g_assert_cmpfloat (fp8->d_days, >, -0.26);
  g_assert_true (fp8->d_cost < 0);
  g_assert_nonnull (strstr (fp8->assumption, "MosaicML"));
}

static void
test_lora_plan_gets_qlora (void)
{
  QmPlan plan;
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  gboolean found = FALSE;

  load (examples[1], &plan);
  qm_advise (&plan, QM_ADVISOR_GOAL_COST, r);
  /* Guidance is there for training plans. */
  g_assert_cmpuint (r->n_guidance, >=, 2);
  for (guint k = 0; k < r->n; k++)
    found |= g_str_equal (r->items[k].id, "qlora") || g_str_equal (r->items[k].id, "rent-on-demand") ||
             g_str_equal (r->items[k].id, "rent-reserved") || g_str_has_prefix (r->items[k].id, "gpu-");
  g_assert_true (found);
}

static const QmAdvice *
find_advice (const QmAdvisorResult *r,
             const char            *id)
{
  for (guint k = 0; k < r->n; k++)
    if (g_str_equal (r->items[k].id, id))
      return &r->items[k];
  return NULL;
}

/* Issue #35 item 10: the layout search is offered only when it changes the
 * layout, and its title names what it changes; a plan that already has the
 * searched layout is not told to use it. */
static void
test_layout_offer (void)
{
  QmPlan plan, searched;
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  const QmAdvice *a;
  g_autofree char *want = NULL;

  load (examples[0], &plan);
  /* The example fixes tp 8, pp 4 and its MFU: let the model predict it. */
  plan.workload.mfu = 0;
  searched = plan;
  searched.workload.tp = searched.workload.pp = searched.workload.cp = searched.workload.ep = 0;
  qm_estimate (&searched, e);
  g_assert_true (e->valid);

  qm_advise (&plan, QM_ADVISOR_GOAL_TIME, r);
  a = find_advice (r, "layout-auto");
  g_assert_nonnull (a);
  want = g_strdup_printf ("tp %u, pp %u, cp %u, ep %u", e->parallelism.tp, e->parallelism.pp,
                          e->parallelism.cp, e->parallelism.ep);
  g_test_message ("offered: %s", a->title);
  if (e->parallelism.tp != 8 || e->parallelism.pp != 4)
    g_assert_nonnull (strstr (a->title, want));
  else
    g_assert_nonnull (strstr (a->title, "Interleave"));

  /* The plan takes the searched layout, schedule and micro-batch as its own. */
  plan.workload.tp = e->parallelism.tp;
  plan.workload.pp = e->parallelism.pp;
  plan.workload.cp = e->parallelism.cp;
  plan.workload.ep = e->parallelism.ep;
  plan.workload.virtual_stages = e->parallelism.virtual_stages;
  plan.workload.micro_batch = e->parallelism.micro_batch;
  plan.workload.recompute = e->parallelism.recompute;
  plan.workload.zero_stage = e->parallelism.zero_stage;
  qm_advise (&plan, QM_ADVISOR_GOAL_TIME, r);
  g_assert_null (find_advice (r, "layout-auto"));

  /* No advice sends a user to the issue tracker. */
  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    {
      load (examples[i], &plan);
      qm_advise (&plan, QM_ADVISOR_GOAL_TIME, r);
      for (guint k = 0; k < r->n; k++)
        {
          g_assert_null (strstr (r->items[k].assumption, "issue #"));
          g_assert_null (strstr (r->items[k].tradeoff, "issue #"));
          g_assert_null (strstr (r->items[k].title, "issue #"));
        }
    }
}

static void
test_goal_strings (void)
{
  QmAdvisorGoal goal;

  g_assert_true (qm_advisor_goal_from_string ("energy", &goal));
  g_assert_cmpint (goal, ==, QM_ADVISOR_GOAL_ENERGY);
  g_assert_false (qm_advisor_goal_from_string ("speed", &goal));
  g_assert_cmpstr (qm_advisor_goal_to_string (QM_ADVISOR_GOAL_GPUS), ==, "gpus");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/advisor/suggestions-reproduce", test_suggestions_reproduce);
  g_test_add_func ("/advisor/fp8-on-h100", test_fp8_on_h100);
  g_test_add_func ("/advisor/lora-plan", test_lora_plan_gets_qlora);
  g_test_add_func ("/advisor/goal-strings", test_goal_strings);
  g_test_add_func ("/advisor/layout-offer", test_layout_offer);
  return g_test_run ();
}
