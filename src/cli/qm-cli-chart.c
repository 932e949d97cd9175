/* qm-cli-chart.c: quartermaster-cli chart PLAN.json
 *                 --kind gpus-time|latency|throughput|vram|power|racks|cashflow
 *                 [--width W --height H] -o OUT.png|.svg|.pdf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "qm-chart-style.h"
#include "qm-cli.h"
#include "qm-cli-report.h"
#include "qm-estimate.h"
#include "qm-plan-charts.h"

#define USAGE "chart PLAN.json --kind gpus-time|latency|throughput|vram|power|racks|cashflow [--width W --height H] -o OUT.png|.svg|.pdf"

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
  const char *path = NULL, *out = NULL, *kind = NULL;
  ChartJob job = { .width = 1200, .height = 800 };

  for (int i = 1; i < argc; i++)
    {
      const char *opt = argv[i];

      if (strcmp (opt, "-o") == 0 || strcmp (opt, "--output") == 0 || strcmp (opt, "--kind") == 0 ||
          strcmp (opt, "--width") == 0 || strcmp (opt, "--height") == 0)
        {
          const char *value;

          if (i + 1 >= argc)
            {
              qm_cli_error (_("%s: %s needs a value; usage: %s"), "chart", opt, USAGE);
              return QM_CLI_USAGE;
            }
          value = argv[++i];
          if (strcmp (opt, "--kind") == 0)
            kind = value;
          else if (strcmp (opt, "--width") == 0)
            {
              if (!parse_size (opt, value, &job.width))
                return QM_CLI_USAGE;
            }
          else if (strcmp (opt, "--height") == 0)
            {
              if (!parse_size (opt, value, &job.height))
                return QM_CLI_USAGE;
            }
          else
            out = value;
        }
      else if (!qm_cli_take_argument ("chart", opt, QM_CLI_ARG_PLAN, &path))
        return QM_CLI_USAGE;
    }
  if (path == NULL || kind == NULL || out == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "chart",
                    path == NULL ? "PLAN.json" : kind == NULL ? "--kind" : "-o OUT", USAGE);
      return QM_CLI_USAGE;
    }
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
