/* qm-plan-report-charts.c: the plan report's charts, drawn from copies of
 * the plan and estimate that the document keeps.
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
/* Figures: the document keeps copies of the plan and estimate             */

typedef struct
{
  QmPlan           plan;
  QmEstimate       estimate;
  QmBytesUnit      unit;
  QmChartStyle     style;
  QmPlanCurves    *curves;     /* computed on first draw */
} PlanCopy;

typedef struct
{
  PlanCopy        *copy;       /* shared, reference counted */
  QmPlanChartKind  kind;
} PlanFigure;

static void
plan_copy_clear (gpointer data)
{
  PlanCopy *c = data;

  g_clear_pointer (&c->curves, g_free);
}

static void
plan_figure_free (gpointer data)
{
  PlanFigure *f = data;

  g_rc_box_release_full (f->copy, plan_copy_clear);
  g_free (f);
}

static void
draw_plan_figure (cairo_t  *cr,
                  double    width,
                  double    height,
                  gpointer  user_data)
{
  PlanFigure *f = user_data;
  PlanCopy *c = f->copy;

  if (c->curves == NULL)
    {
      c->curves = g_new0 (QmPlanCurves, 1);
      qm_plan_curves (&c->plan, &c->estimate, c->curves);
    }
  qm_plan_chart_draw_with_layout (f->kind, &(QmChartFrame) { cr, &c->style, width, height },
                                  &c->plan, &c->estimate, c->curves, c->unit, NULL);
}

void
qm_plan_report_add_charts (QmDocument                *doc,
                           const QmPlanReportSubject *subject)
{
  static const QmPlanChartKind order[] = {
    QM_PLAN_CHART_GPUS_TIME, QM_PLAN_CHART_LATENCY, QM_PLAN_CHART_THROUGHPUT,
    QM_PLAN_CHART_VRAM, QM_PLAN_CHART_POWER, QM_PLAN_CHART_RACKS,
  };
  PlanCopy *copy = g_rc_box_new0 (PlanCopy);
  guint placed = 0;

  copy->plan = *subject->plan;
  copy->estimate = *subject->e;
  copy->unit = subject->info.memory_unit;
  qm_report_paper_style (&copy->style);

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      PlanFigure *f;
      g_autofree char *caption = NULL;

      /* Time to train is for training, latency and throughput for serving. */
      if (!qm_plan_chart_applies (order[i], subject->e))
        continue;
      /* Two charts a page. */
      if (placed % 2 == 0)
        qm_document_add_page_break (doc);
      if (placed == 0)
        qm_document_add_heading (doc, _("Charts"), 1);
      qm_document_add_heading (doc, _(qm_plan_chart_title (order[i])), 2);
      f = g_new0 (PlanFigure, 1);
      f->copy = g_rc_box_acquire (copy);
      f->kind = order[i];
      qm_document_add_figure (doc, CHART_HEIGHT, draw_plan_figure, f, plan_figure_free);
      caption = qm_plan_chart_describe (order[i], subject->plan, subject->e);
      qm_document_add_paragraph (doc, caption);
      placed++;
    }
  g_rc_box_release_full (copy, plan_copy_clear);
}
