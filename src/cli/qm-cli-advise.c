/* qm-cli-advise.c: quartermaster-cli advise PLAN.json
 *                  [--optimise time|cost|energy|gpus] [--json]
 *
 * The efficiency advisor (issue #12): changes that improve the plan, each
 * with its effect computed by the core, ranked by the goal; then the
 * options the model cannot quantify, as guidance with their sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "qm-advisor.h"
#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-text.h"

static void
add_advice (JsonBuilder    *b,
            const QmAdvice *a)
{
  /* "effect" only where the advice is quantified. */
  const struct { const char *key; const char *v; } strings[] = {
    { "id", a->id }, { "title", a->title }, { "tradeoff", a->tradeoff },
    { "effect", a->quantified ? a->effect : NULL }, { "assumption", a->assumption },
  };

  json_builder_begin_object (b);
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    if (strings[i].v != NULL)
      {
        json_builder_set_member_name (b, strings[i].key);
        json_builder_add_string_value (b, strings[i].v);
      }
  json_builder_set_member_name (b, "quantified");
  json_builder_add_boolean_value (b, a->quantified);
  if (a->quantified)
    {
      const struct { const char *key; double v; } nums[] = {
        { "train_days", a->days }, { "gpus", a->gpus }, { "cost_usd", a->cost },
        { "energy_mwh", a->energy_mwh }, { "memory_margin_bytes", a->memory_margin },
        { "change_days", a->d_days }, { "change_gpus", a->d_gpus },
        { "change_cost", a->d_cost }, { "change_energy", a->d_energy },
      };

      for (guint i = 0; i < G_N_ELEMENTS (nums); i++)
        {
          json_builder_set_member_name (b, nums[i].key);
          json_builder_add_double_value (b, nums[i].v);
        }
    }
  json_builder_end_object (b);
}

static void
print_json (const QmAdvisorResult *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "goal");
  json_builder_add_string_value (b, qm_advisor_goal_to_string (r->goal));
  json_builder_set_member_name (b, "suggestions");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->n; i++)
    add_advice (b, &r->items[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "guidance");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->n_guidance; i++)
    add_advice (b, &r->guidance[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  /* Raw, as every --json: the JSON is the same in any language. */
  qm_cli_print_json (b);
}

static const char *
goal_label (QmAdvisorGoal goal)
{
  switch (goal)
    {
    /* Translators: what the advice is ranked by, after "best first for". */
    case QM_ADVISOR_GOAL_TIME:   return C_("advisor goal", "time");
    case QM_ADVISOR_GOAL_ENERGY: return C_("advisor goal", "energy");
    case QM_ADVISOR_GOAL_GPUS:   return C_("advisor goal", "GPUs");
    case QM_ADVISOR_GOAL_COST:
    default:                     return C_("advisor goal", "cost");
    }
}

static void
print_text (const QmPlan          *plan,
            const QmAdvisorResult *r)
{
  qm_cli_print (_("%s: what would improve this plan, best first for %s\n\n"),
                plan->name[0] ? plan->name : _("(untitled plan)"), goal_label (r->goal));
  if (r->n == 0)
    qm_cli_print ("  %s\n", _("Nothing the core can quantify improves this plan and keeps it feasible."));
  for (guint i = 0; i < r->n; i++)
    {
      const QmAdvice *a = &r->items[i];

      qm_cli_print ("%2u. %s (%s)\n", i + 1, a->title, a->id);
      qm_cli_print ("    %s%s%s\n", a->tradeoff, *a->tradeoff != '\0' ? " " : "", a->effect);
      qm_cli_print ("    ");
      if (a->days > 0)
        qm_cli_print (_("Result: %s GPUs, %s days, %s, %s MWh\n"), qm_cli_num (a->gpus, 0),
                      qm_cli_num (a->days, 1), qm_cli_money (a->cost, plan->pricing.currency),
                      qm_cli_num (a->energy_mwh, a->energy_mwh < 10 ? 2 : 0));
      else
        qm_cli_print (_("Result: %s GPUs, %s, %s MWh\n"), qm_cli_num (a->gpus, 0),
                      qm_cli_money (a->cost, plan->pricing.currency),
                      qm_cli_num (a->energy_mwh, a->energy_mwh < 10 ? 2 : 0));
      qm_cli_print ("    ");
      qm_cli_print (_("Assumes: %s\n\n"), a->assumption);
    }

  if (r->n_guidance > 0)
    qm_cli_print ("%s\n", _("Also worth considering (not quantified by the model):"));
  for (guint i = 0; i < r->n_guidance; i++)
    {
      qm_cli_print ("  - ");
      qm_cli_print (_("%s: %s Source: %s\n"), r->guidance[i].title, r->guidance[i].tradeoff,
                    r->guidance[i].assumption);
    }
}

int
qm_cli_advise (int    argc,
               char **argv)
{
  /* Cost, as the app's advisor starts: a plan that meets its deadline or
   * GPU count is a quote, and what a buyer weighs first is its price. */
  QmAdvisorGoal goal = QM_ADVISOR_GOAL_COST;
  gboolean json = FALSE;
  const char *path = NULL, *v = NULL;
  QmPlan plan;
  g_autofree QmAdvisorResult *result = NULL;
  g_autofree QmEstimate *estimate = NULL;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (qm_cli_option_value (argc, argv, &i, "--optimise", &v) ||
               qm_cli_option_value (argc, argv, &i, "--optimize", &v))
        {
          if (v == NULL || !qm_advisor_goal_from_string (v, &goal))
            {
              qm_cli_error (_("%s: --optimise must be time, cost, energy or gpus (got '%s')"), "advise",
                            v != NULL ? v : "");
              return QM_CLI_USAGE;
            }
        }
      else if (!qm_cli_take_argument ("advise", argv[i], QM_CLI_ARG_PLAN, &path))
        return QM_CLI_USAGE;
    }
  if (path == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "advise", "PLAN.qmplan",
                    qm_cli_synopsis ("advise"));
      return QM_CLI_USAGE;
    }

  if (!qm_cli_load_plan (path, &plan))
    return QM_CLI_INPUT;

  /* A plan the core cannot estimate has nothing to improve on. */
  estimate = g_new0 (QmEstimate, 1);
  qm_estimate (&plan, estimate);
  if (!estimate->valid || estimate->n_errors > 0)
    {
      qm_cli_error (_("%s: the plan has errors; run 'estimate' to see them"), path);
      return QM_CLI_INPUT;
    }

  result = g_new0 (QmAdvisorResult, 1);
  if (json)
    {
      /* The advice's words in the JSON are the same in every language. */
      locale_t previous = qm_text_begin_c_locale ();

      qm_advise (&plan, goal, result);
      qm_text_end_c_locale (previous);
      print_json (result);
      return QM_CLI_OK;
    }
  qm_advise (&plan, goal, result);
  print_text (&plan, result);
  return QM_CLI_OK;
}
