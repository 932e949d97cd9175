/* qm-advisor.h: quantified what-ifs for a plan (issue #12). Each candidate
 * is a real change to the plan's inputs, estimated by qm_estimate() like
 * any plan, kept only when the changed plan is still feasible, and ranked
 * by what the user wants to optimise. Options the model cannot quantify
 * come back as guidance with their source, never with numbers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-estimate.h"
#include "qm-workload.h"

G_BEGIN_DECLS

typedef enum
{
  QM_ADVISOR_GOAL_TIME,
  QM_ADVISOR_GOAL_COST,
  QM_ADVISOR_GOAL_ENERGY,
  QM_ADVISOR_GOAL_GPUS,
} QmAdvisorGoal;

#define QM_ADVISOR_MAX      24
#define QM_ADVISOR_GUIDANCE 6
#define QM_ADVISOR_TEXT     512

/* The measured end-to-end speed-up of FP8 over BF16 training on H100:
 * MosaicML llm-foundry benchmarks, 3B at seq 2048 on 8×H100, 548 model
 * TFLOP/s in FP8 against 403-458 in BF16, i.e. 1.2-1.36× (the middle is
 * used), not the 2× the datasheet peaks suggest (estimation-anchors §2.6). */
#define QM_ADVISOR_FP8_SPEEDUP 1.28

typedef struct
{
  char     id[32];                     /* "precision-fp8", ... */
  char     title[128];                 /* "Train in FP8" */
  char     tradeoff[QM_ADVISOR_TEXT];  /* plain words: cost, risk */
  /* Quantified advice: the effect in words, "Effect: time -22%, cost +3%."
   * (translated; the numbers are the d_* fields below). */
  char     effect[QM_ADVISOR_TEXT];
  char     assumption[QM_ADVISOR_TEXT];/* what the numbers rest on, with sources */
  gboolean quantified;                 /* FALSE: guidance only, no numbers */
  /* The changed plan's figures, and their change against the plan. */
  double   days, gpus, cost, energy_mwh, memory_margin;
  gboolean fits;
  double   d_days, d_gpus, d_cost, d_energy;   /* relative: -0.22 = 22% less */
  double   upfront, d_upfront;                 /* hardware bought (buy plans) */
  double   score;                      /* the goal's relative change; lower is better */
  QmPlan   plan;                       /* apply this to a copy to "Try it" */
} QmAdvice;

typedef struct
{
  QmAdvisorGoal goal;
  double        days, gpus, cost, energy_mwh;   /* the plan as it is */
  double        upfront;
  guint         n;
  QmAdvice      items[QM_ADVISOR_MAX];          /* best first */
  guint         n_guidance;
  QmAdvice      guidance[QM_ADVISOR_GUIDANCE];
  guint         evaluated;                      /* candidates estimated */
} QmAdvisorResult;

const char *qm_advisor_goal_to_string   (QmAdvisorGoal  goal);
gboolean    qm_advisor_goal_from_string (const char    *s,
                                         QmAdvisorGoal *out);

/* Fills @out (large: allocate it) with the feasible improvements for
 * @plan, ranked by @goal. */
void        qm_advise                   (const QmPlan    *plan,
                                         QmAdvisorGoal    goal,
                                         QmAdvisorResult *out);

G_END_DECLS
