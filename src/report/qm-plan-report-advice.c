/* qm-plan-report-advice.c: the plan report's "how to improve this plan"
 * section, from the advisor (issue #12).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan-report.h"
#include "qm-plan-report-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-advisor.h"
#include "qm-catalog.h"
#include "qm-chart-compare.h"
#include "qm-chart-power.h"
#include "qm-chart-style.h"
#include "qm-csv.h"
#include "qm-chart-vram.h"
#include "qm-formulas.h"
#include "qm-plan-charts.h"
#include "qm-reliability.h"


/* ---------------------------------------------------------------------- */
/* How to improve this plan: the advisor (issue #12)                       */

/* "−22%", "+7%", or "—" below the advisor's own threshold of half a
 * percent. */
static const char *
change (double d)
{
  char *buf = qm_report_ring ();

  if (fabs (d) < 0.005)
    return "—";
  g_snprintf (buf, QM_FORMAT_BUF * 2, "%s%.0f%%", d < 0 ? "−" : "+", MAX (1.0, round (fabs (d) * 100)));
  return buf;
}

static QmAdvisorGoal
report_goal (const QmPlanReportInfo *info)
{
  QmAdvisorGoal goal = QM_ADVISOR_GOAL_COST;

  if (info->advisor_goal != NULL && !qm_advisor_goal_from_string (info->advisor_goal, &goal))
    goal = QM_ADVISOR_GOAL_COST;
  return goal;
}

void
qm_plan_report_add_advice (QmDocument                *doc,
                           const QmPlanReportSubject *subject)
{
  /* What the suggestions are ranked by. */
  static const char *goal_words[] = {
    /* Translators: what the suggestions are ranked by, in "Changes that
     * would improve this plan, best first by %s." */
    [QM_ADVISOR_GOAL_TIME] = N_("time to train"),
    /* Translators: what the suggestions are ranked by, in "… best first by %s." */
    [QM_ADVISOR_GOAL_COST] = N_("cost"),
    /* Translators: what the suggestions are ranked by, in "… best first by %s." */
    [QM_ADVISOR_GOAL_ENERGY] = N_("energy"),
    /* Translators: what the suggestions are ranked by, in "… best first by %s." */
    [QM_ADVISOR_GOAL_GPUS] = N_("number of GPUs"),
  };
  const char *headers[] = {
    /* Translators: a column header of the table of suggestions: the change
     * to the plan. */
    _("Suggestion"),
    /* Translators: a column header of the table of suggestions: how a change
     * alters the time to train, in percent. */
    _("Time"),
    _("Cost"),
    _("Energy"),
    _("GPUs"),
  };
  static const double widths[] = { 0.46, 0.12, 0.12, 0.12, 0.18 };
  static const QmAlign aligns[] = { QM_ALIGN_START, QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END };
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  const char *currency = qm_report_currency_of (subject->plan, &subject->info);
  QmAdvisorGoal goal = report_goal (&subject->info);

  if (!subject->e->valid || subject->e->n_errors > 0)
    return;
  qm_advise (subject->plan, goal, r);

  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, _("How to improve this plan"), 1);
  if (r->n == 0)
    qm_document_add_paragraph (doc, _("Nothing to improve: no change the model can quantify makes this plan "
                                      "faster, cheaper, more frugal with energy or smaller while keeping it "
                                      "feasible."));
  else
    {
      g_autofree char *intro =
        /* Translators: %s is what the suggestions are ranked by: "time to
         * train", "cost", "energy" or "number of GPUs". "−" is the minus
         * sign of the table's changes, such as "−22%". */
        g_strdup_printf (_("Changes that would improve this plan, best first by %s. Each is this plan with one "
                           "input changed, estimated by the same model, and kept only when the changed plan "
                           "is still feasible. The changes are against this plan: − is less. This quote is "
                           "not changed by them."), _(goal_words[goal]));

      qm_document_add_paragraph (doc, intro);
      qm_document_begin_table (doc, G_N_ELEMENTS (headers), headers, widths, aligns);
      for (guint i = 0; i < r->n; i++)
        {
          const QmAdvice *a = &r->items[i];
          g_autofree char *title = g_strdup_printf ("%u. %s", i + 1, a->title);
          g_autofree char *gpus = fabs (a->d_gpus) < 0.005
                                  ? g_strdup (qm_report_num (a->gpus, 0))
                                  : g_strdup_printf ("%s (%s)", qm_report_num (a->gpus, 0), change (a->d_gpus));
          const char *cells[] = {
            title, r->days > 0 ? change (a->d_days) : "—", change (a->d_cost), change (a->d_energy), gpus,
          };

          qm_document_add_row (doc, cells, FALSE);
        }
      qm_document_end_table (doc);

      qm_document_add_heading (doc, _("Trade-offs and assumptions"), 2);
      for (guint i = 0; i < r->n; i++)
        {
          const QmAdvice *a = &r->items[i];
          g_autofree char *upfront = NULL;
          g_autofree char *t = NULL;

          /* Buyers budget the hardware apart from the run. */
          if (r->upfront > 0 && fabs (a->d_upfront) >= 0.005)
            /* Translators: follows a suggestion's trade-off (hence the leading
             * space): the hardware's upfront cost now, with the change, and
             * the change in percent. */
            upfront = g_strdup_printf (_(" Hardware upfront: %s → %s (%s)."), qm_report_money (r->upfront, currency),
                                       qm_report_money (a->upfront, currency), change (a->d_upfront));
          /* Translators: a suggestion: its number and title; its trade-off
           * (sentences); the hardware's upfront cost when it changes (or
           * nothing); what the estimate assumes (a sentence). */
          t = g_strdup_printf (_("%u. %s. %s%s Assumes: %s"), i + 1, a->title, a->tradeoff,
                               upfront != NULL ? upfront : "", a->assumption);
          qm_document_add_paragraph (doc, t);
        }
    }

  if (r->n_guidance > 0)
    {
      qm_document_add_heading (doc, _("Also worth considering (not quantified)"), 2);
      qm_document_add_paragraph (doc, _("The model cannot put numbers on these, so none are given."));
      for (guint i = 0; i < r->n_guidance; i++)
        {
          /* Translators: a bulleted suggestion: its title, its trade-off (a
           * sentence) and its source. */
          g_autofree char *t = g_strdup_printf (_("• %s: %s Source: %s"), r->guidance[i].title,
                                                r->guidance[i].tradeoff, r->guidance[i].assumption);
          qm_document_add_paragraph (doc, t);
        }
    }
}
