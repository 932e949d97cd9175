/* qm-cli-estimate.c: quartermaster-cli estimate PLAN.json [--json]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-estimate-json.h"
#include "qm-plan.h"

static void
row (const char *label,
     const char *format,
     ...) G_GNUC_PRINTF (2, 3);

static void
row (const char *label,
     const char *format,
     ...)
{
  g_autofree char *value = NULL;
  va_list args;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  printf ("  %-22s %s\n", label, value);
}

static void
print_text (const QmPlan     *p,
            const QmEstimate *e)
{
  const QmMemoryBreakdown *m = &e->memory;
  char buf[512];

  printf ("%s\n", p->name[0] ? p->name : "(untitled plan)");
  row ("mode", "%s", qm_mode_to_string (e->mode));
  row ("parameters", "%.2f B (active %.2f B)", e->params / 1e9, e->active_params / 1e9);
  if (e->has_training && e->valid)
    {
      row ("training FLOPs", "%.3e (6ND + attention; 6ND alone %.3e)", e->training_flops,
           e->training_flops_6nd);
      row ("hardware FLOPs", "%.3e (with recompute)", e->hardware_flops);
    }
  row ("GPUs", "%u %s on %u nodes", e->gpus, p->gpu_id, e->nodes);
  row ("parallelism", "tp %u, pp %u, dp %u, cp %u, ep %u, micro-batch %u, ZeRO-%u, recompute %s",
       e->parallelism.tp, e->parallelism.pp, e->parallelism.dp, e->parallelism.cp,
       e->parallelism.ep, e->parallelism.micro_batch, e->parallelism.zero_stage,
       qm_recompute_to_string (e->parallelism.recompute));
  if (e->has_training && e->valid)
    {
      row ("MFU", "%.1f%% (%s)", 100 * e->mfu, qm_mfu_source_to_string (e->mfu_source));
      row ("time", "%.1f days ideal, %.1f days with failures", e->ideal_days, e->train_days);
      row ("GPU-hours", "%.0f", e->gpu_hours);
    }
  row ("memory per GPU", "%.1f GB of %.1f GB: %s (margin %.1f GB)", m->total / 1e9,
       m->capacity / 1e9, e->fits ? "fits" : "DOES NOT FIT", m->margin / 1e9);
  row ("  weights", "%.2f GB", m->weights / 1e9);
  row ("  gradients", "%.2f GB", m->gradients / 1e9);
  row ("  optimizer", "%.2f GB", m->optimizer / 1e9);
  row ("  activations", "%.2f GB", m->activations / 1e9);
  row ("  KV cache", "%.2f GB", m->kv_cache / 1e9);
  row ("  overhead", "%.2f GB", m->overhead / 1e9);

  if (e->n_warnings > 0)
    {
      printf ("\nWarnings:\n");
      for (guint i = 0; i < e->n_warnings; i++)
        printf ("  - %s\n", qm_note_format (&e->warnings[i], buf, sizeof buf));
    }
  printf ("\nAssumptions:\n");
  for (guint i = 0; i < e->n_assumptions; i++)
    printf ("  - %s\n", qm_note_format (&e->assumptions[i], buf, sizeof buf));
}

int
qm_cli_estimate (int    argc,
                 char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  const char *path = NULL;
  gboolean json = FALSE;
  QmPlan *plan;
  QmEstimate *estimate;
  int status = QM_CLI_OK;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        {
          qm_cli_error ("estimate: unknown option '%s'", argv[i]);
          return QM_CLI_USAGE;
        }
      else if (path == NULL)
        path = argv[i];
      else
        {
          qm_cli_error ("estimate: one plan at a time (got '%s' too)", argv[i]);
          return QM_CLI_USAGE;
        }
    }
  if (path == NULL)
    {
      qm_cli_error ("estimate: missing PLAN.json; usage: estimate PLAN.json [--json]");
      return QM_CLI_USAGE;
    }

  plan = g_new (QmPlan, 1);
  estimate = g_new (QmEstimate, 1);
  if (!qm_plan_load_from_file (plan, path, &warnings, &error))
    {
      qm_cli_error ("%s: %s", path, error->message);
      status = QM_CLI_INPUT;
      goto out;
    }
  for (guint i = 0; i < warnings->len; i++)
    qm_cli_error ("%s: warning: %s", path, (const char *) g_ptr_array_index (warnings, i));

  qm_estimate (plan, estimate);
  if (json)
    {
      gsize len = 0;
      g_autofree char *text = qm_estimate_to_json (plan, estimate, &len);

      /* Raw UTF-8: g_print would transliterate to the locale's charset. */
      fwrite (text, 1, len, stdout);
      fputc ('\n', stdout);
    }
  else
    print_text (plan, estimate);
  if (!estimate->valid)
    status = QM_CLI_INPUT;

out:
  g_free (plan);
  g_free (estimate);
  return status;
}
