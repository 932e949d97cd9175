/* bench-plan-report.c: the PDF plan summary, end to end: build the document
 * from a plan and its estimate, lay it out, and write the vector PDF with
 * its four charts (issue 10: under 300 ms).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "qm-plan.h"
#include "qm-plan-report.h"

#define RUNS   15
#define BUDGET 0.300

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree char *in = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                          "llama-3.1-70b-pretrain-h100.qmplan", NULL);
  g_autofree char *out = g_build_filename (g_getenv ("QM_BUILD_DIR") ? g_getenv ("QM_BUILD_DIR") : ".",
                                           "bench-plan-report.pdf", NULL);
  double times[RUNS];
  guint pages = 0;
  QmPlanReportInfo info;

  if (!qm_plan_load_from_file (plan, in, &warnings, &error))
    {
      fprintf (stderr, "%s: %s\n", in, error->message);
      return 1;
    }
  qm_plan_report_info_init (&info);
  info.paper = QM_PAPER_A4;

  for (guint i = 0; i < RUNS; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(QmDocument) doc = NULL;

      /* The estimate too: Export PDF starts from the plan. */
      qm_estimate (plan, e);
      doc = qm_plan_report_new (plan, e, &info);
      pages = qm_document_n_pages (doc);
      if (!qm_document_write_pdf (doc, out, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      times[i] = (g_get_monotonic_time () - t0) / 1e6;
    }
  qsort (times, RUNS, sizeof times[0], compare_doubles);

  printf ("plan summary: %u pages (%s), median %.1f ms, best %.1f ms, worst %.1f ms (budget %.0f ms; "
          "first run includes font loading)\n",
          pages, plan->name, times[RUNS / 2] * 1e3, times[0] * 1e3, times[RUNS - 1] * 1e3, BUDGET * 1e3);
  return times[RUNS / 2] < BUDGET ? 0 : 1;
}
