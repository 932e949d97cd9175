/* qm-cli-chart.c: quartermaster-cli chart PLAN.qmplan
 *                 --kind gpus-time|latency|throughput|vram|power|racks|cashflow
 *                 [--width W --height H] -o OUT.png|.svg|.pdf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "qm-chart-style.h"
#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-cli-report.h"
#include "qm-estimate.h"
#include "qm-plan-charts.h"

typedef struct
{
  QmPlanChartKind   kind;
  const QmPlan     *plan;
  const QmEstimate *estimate;
  double            width;
  double            height;
} ChartJob;

static gboolean
write_chart (const char  *path,
             gpointer     user_data,
             GError     **error)
{
  ChartJob *job = user_data;
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  return qm_plan_chart_export (job->kind, job->plan, job->estimate, &style, job->width, job->height,
                               path, error);
}

static gboolean
parse_size (const char *option,
            const char *value,
            double     *out)
{
  char *end = NULL;
  gint64 v = g_ascii_strtoll (value, &end, 10);

  if (end == value || *end != '\0' || v < 50 || v > 10000)
    {
      qm_cli_error (_("%s: %s: must be a whole number of pixels from 50 to 10000 (got '%s')"),
                    "chart", option, value);
      return FALSE;
    }
  *out = (double) v;
  return TRUE;
}

int
qm_cli_chart (int    argc,
              char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree QmPlan *plan = NULL;
  g_autofree QmEstimate *estimate = NULL;
  static const char * const formats[] = { "png", "svg", "pdf", NULL };
  const char *path = NULL, *out_arg = NULL, *kind = NULL, *format = NULL, *width = NULL, *height = NULL;
  g_autofree char *out = NULL;
  ChartJob job = { .width = 1200, .height = 800 };
  const QmCliValueOption options[] = {
    { "-o", &out_arg }, { "--output", &out_arg }, { "--kind", &kind }, { "--width", &width },
    { "--height", &height }, { "--format", &format }, { NULL },
  };

  for (int i = 1; i < argc; i++)
    {
      int taken = qm_cli_value_option (argc, argv, &i, "chart", options);

      if (taken < 0)
        return QM_CLI_USAGE;
      if (taken == 0 && !qm_cli_take_argument ("chart", argv[i], QM_CLI_ARG_PLAN, &path))
        return QM_CLI_USAGE;
    }
  if (path == NULL || kind == NULL || out_arg == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "chart",
                    path == NULL ? "PLAN.qmplan" : kind == NULL ? "--kind" : "-o OUT", qm_cli_synopsis ("chart"));
      return QM_CLI_USAGE;
    }
  if ((width != NULL && !parse_size ("--width", width, &job.width)) ||
      (height != NULL && !parse_size ("--height", height, &job.height)))
    return QM_CLI_USAGE;
  if (!qm_cli_output_resolve ("chart", out_arg, format, formats, &out))
    return QM_CLI_USAGE;
  if (!qm_plan_chart_kind_from_string (kind, &job.kind))
    {
      qm_cli_error (_("%s: --kind: must be gpus-time, latency, throughput, vram, power, racks or cashflow (got '%s')"), "chart", kind);
      return QM_CLI_USAGE;
    }
  if (!g_str_has_suffix (out, ".png") && !g_str_has_suffix (out, ".svg") && !g_str_has_suffix (out, ".pdf"))
    {
      qm_cli_error (_("%s: -o: the output must end in .png, .svg or .pdf (got '%s')"), "chart", out);
      return QM_CLI_USAGE;
    }

  plan = g_new0 (QmPlan, 1);
  estimate = g_new0 (QmEstimate, 1);
  if (!qm_cli_load_estimate (path, plan, estimate))
    return QM_CLI_INPUT;

  if (!qm_plan_chart_applies (job.kind, estimate))
    {
      qm_cli_error (estimate->has_training
                    ? _("%s: --kind %s is for serving plans; this plan trains")
                    : _("%s: --kind %s is for training plans; this plan serves"),
                    path, kind);
      return QM_CLI_INPUT;
    }
  job.plan = plan;
  job.estimate = estimate;
  if (!qm_cli_write_atomic (out, write_chart, &job, &error))
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  return QM_CLI_OK;
}
