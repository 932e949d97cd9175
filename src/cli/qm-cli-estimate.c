/* qm-cli-estimate.c: quartermaster-cli estimate PLAN.json [--json]
 *
 * The plan is a file (or a saved plan's name; see qm_cli_load_plan ()).
 * Without --db a file is read against the built-in catalog only, so the
 * command never touches the GUI's database; with --db the file is read
 * through it and the user's own catalog entries and prices resolve.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-estimate-json.h"
#include "qm-format.h"
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

/* Formatted numbers for one printf: a small ring of buffers, so that a
 * row can hold several. The CLI is single-threaded. */
#define RING 12

static const char *
ring_next (char **slot)
{
  static char bufs[RING][QM_FORMAT_BUF * 2];
  static guint next;

  *slot = bufs[next++ % RING];
  return *slot;
}

static const char *
num (double v,
     int    decimals)
{
  char *b;

  ring_next (&b);
  return qm_format_number (b, QM_FORMAT_BUF * 2, v, decimals);
}

static const char *
si (double      v,
    const char *unit)
{
  char *b;

  ring_next (&b);
  return qm_format_si (b, QM_FORMAT_BUF * 2, v, unit);
}

static const char *
bytes (double v)
{
  char *b;

  ring_next (&b);
  return qm_format_bytes (b, QM_FORMAT_BUF * 2, v, QM_BYTES_GB);
}

static const char *
money (const QmPlan *p,
       double        v)
{
  char *b;

  ring_next (&b);
  return qm_format_money (b, QM_FORMAT_BUF * 2, v, p->pricing.currency);
}

static const char *
days (double v)
{
  char *b;

  ring_next (&b);
  return qm_format_days (b, QM_FORMAT_BUF * 2, v);
}

static void
section (const char *title)
{
  printf ("\n%s\n", title);
}

static void
print_cluster (const QmPlan     *p,
               const QmEstimate *e)
{
  const QmCluster *c = &e->cluster;

  section ("Cluster");
  row ("nodes", "%s × %s (%u GPUs each, %s W nameplate)", num (c->nodes, 0), p->server_id,
       p->hardware.server.gpus, num (c->node_power_w, 0));
  row ("racks", "%s: %s compute, %s network, %s storage", num (c->racks, 0),
       num (c->compute_racks, 0), num (c->network_racks, 0), num (c->storage_racks, 0));
  row ("  per rack", "%u nodes, bound by %s (%u by rack units, %u by %s kW)",
       c->nodes_per_rack, c->rack_limited_by_kw ? "kW" : "rack units",
       c->nodes_per_rack_by_units, c->nodes_per_rack_by_kw, num (p->facility.rack_kw, 1));
  row ("  cooling", "%s kW in the fullest rack: %s", num (c->rack_kw_peak, 1),
       c->liquid_cooling ? "LIQUID COOLING needed" : "air");
  if (c->network.tiers > 0)
    row ("compute fabric", "%s, %u tier%s, %u rail%s", p->network_id, c->network.tiers,
         c->network.tiers == 1 ? "" : "s", c->network.rails, c->network.rails == 1 ? "" : "s");
  else
    row ("compute fabric", "none (%s)", c->nodes <= 1 ? "one node: NVLink only" : "no network");
  row ("  switches", "%s leaf, %s spine, %s core", num (c->network.leaf_switches, 0),
       num (c->network.spine_switches, 0), num (c->network.core_switches, 0));
  row ("  cables", "%s (%s optical transceivers)", num (c->network.cables, 0),
       num (c->network.transceivers, 0));
  row ("all networks", "%s fabric + %s management switches, %s cables, %s transceivers",
       num (c->switches, 0), num (c->mgmt_switches, 0), num (c->cables, 0),
       num (c->transceivers, 0));
  if (p->storage_id[0])
    row ("storage", "%s on %s, writing %s/s (%s rack units)", si (c->storage_bytes, "B"),
         p->storage_id, si (c->storage_write_bytes_per_s, "B"), num (c->storage_units, 0));
}

static void
print_power (const QmPlan     *p,
             const QmEstimate *e)
{
  const QmPower *w = &e->power;

  section ("Power");
  row ("provisioned IT", "%s kW (GPUs %s, rest of servers %s, network %s, storage %s)",
       num (w->it_peak_kw, 1), num (w->gpus_kw, 1), num (w->servers_kw, 1),
       num (w->network_kw, 1), num (w->storage_kw, 1));
  row ("average IT", "%s kW (%s%% of the nameplate on the servers)", num (w->it_avg_kw, 1),
       num (100 * w->avg_fraction, 0));
  row ("facility", "%s kW provisioned, %s kW average (PUE %.2f)", num (w->facility_peak_kw, 1),
       num (w->facility_avg_kw, 1), w->pue);
  row ("cooling", "%s kW, %s BTU/h", num (w->cooling_kw, 1), num (w->cooling_btu_h, 0));
  row (e->has_training ? "energy (run)" : "energy (month)", "%s, %s t CO2e, %s of electricity",
       si (w->energy_mwh * 1e6, "Wh"), num (w->co2_tonnes, w->co2_tonnes < 10 ? 3 : 1),
       money (p, w->electricity_usd));
}

static void
print_cost (const QmPlan     *p,
            const QmEstimate *e)
{
  const QmCost *c = &e->cost;

  section (p->pricing.mode == QM_PRICING_BUY ? "Cost (buy)" : "Cost (rent)");
  printf ("  %-30s %12s %12s %12s  %s\n", "item", "qty", "unit", "total", "source");
  for (guint i = 0; i < c->n_bom; i++)
    {
      const QmBomLine *l = &c->bom[i];
      const char *source = l->source ? l->source : "the plan's price";
      g_autofree char *cut = NULL;
      g_autofree char *src = NULL;

      /* One line per item: the catalog id, its date and the source up to
       * its first sentence; --json has the whole text. */
      {
        const char *stop = strstr (source, ". ");
        gsize len = MIN (strcspn (source, ";("), stop ? (gsize) (stop - source) : strlen (source));

        cut = g_strstrip (g_strndup (source, len));
      }
      if (g_utf8_strlen (cut, -1) > 60)
        {
          char *end = g_utf8_offset_to_pointer (cut, 57);

          strcpy (end, "...");
        }
      if (l->catalog_id && l->as_of)
        src = g_strdup_printf ("%s, %s: %s", l->catalog_id, l->as_of, cut);
      else if (l->catalog_id)
        src = g_strdup_printf ("%s: %s", l->catalog_id, cut);
      else
        src = g_strdup (cut);
      printf ("  %-30s %12s %12s %12s  %s\n", l->item,
              num (l->qty, l->qty == floor (l->qty) ? 0 : 2), money (p, l->unit_usd),
              money (p, l->total_usd), src);
    }
  row ("upfront", "%s", money (p, c->upfront));
  row ("monthly", "%s%s", money (p, c->monthly),
       p->pricing.mode == QM_PRICING_BUY ? " (amortisation, power, colocation, support)" : "");
  row (e->has_training ? "this run" : "one month", "%s", money (p, c->run));
  row ("total", "%s over %s months", money (p, c->total), num (c->horizon_months, 0));
  if (c->break_even_valid)
    row ("rent vs buy", "buying pays off after %s months (renting: %s a month)",
         num (c->break_even_months, 1), money (p, c->rent_monthly));
  else
    row ("rent vs buy", "no break-even (renting is not dearer than owning, or no price)");
}

static void
print_reliability (const QmEstimate *e)
{
  const QmReliability *r = &e->reliability;

  section ("Reliability");
  row ("failure preset", "%s: one interruption per %s GPU-hours", r->preset,
       num (r->gpu_hours_per_failure, 0));
  row ("interruptions", "%s expected (job MTBF %s)", num (r->interruptions, 1),
       days (r->mtbf_s / 86400.0));
  row ("checkpoint", "%s, written in %s s, every %s min (Daly)", bytes (r->checkpoint_bytes),
       num (r->checkpoint_write_s, 1), num (r->checkpoint_interval_s / 60.0, 0));
  row ("goodput", "%s%%", num (100 * r->goodput, 1));
  row ("time", "%s ideal, %s with failures", days (e->ideal_days), days (e->train_days));
}

static void
print_inference (const QmEstimate *e)
{
  const QmInference *i = &e->inference;

  section ("Inference");
  row ("replicas", "%s × %u GPUs = %s GPUs (%s exact)", num (i->replicas, 0),
       i->gpus_per_replica, num (i->gpus, 0), num (i->gpus_exact, 2));
  row ("concurrency", "%u sequences per replica", i->concurrency);
  row ("throughput", "%s tokens/s per GPU, %s tokens/s in all (%s needed)",
       num (i->tokens_per_s_per_gpu, 0), num (i->tokens_per_s_total, 0),
       num (i->tokens_per_s_needed, 0));
  row ("requests", "%s requests/s served; one replica peaks at %s tokens/s",
       num (i->requests_per_s, 2), num (i->replica_tokens_per_s, 0));
  row ("TTFT", "p50 %s ms, p90 %s ms, p99 %s ms%s", num (i->ttft_p50_ms, 1),
       num (i->ttft_p90_ms, 1), num (i->ttft_p99_ms, 1),
       i->meets_ttft ? "" : " (p99 target missed)");
  row ("TPOT", "p50 %s ms, p90 %s ms, p99 %s ms%s", num (i->tpot_p50_ms, 1),
       num (i->tpot_p90_ms, 1), num (i->tpot_p99_ms, 1),
       i->meets_tpot ? "" : " (p99 target missed)");
  row ("queue", "p50 %s ms, p99 %s ms", num (i->queue_p50_ms, 1), num (i->queue_p99_ms, 1));
  row ("memory per GPU", "%s of %s: %s", bytes (i->memory_per_gpu_bytes),
       bytes (i->capacity_per_gpu_bytes), i->fits ? "fits" : "DOES NOT FIT");
}

static void
print_text (const QmPlan     *p,
            const QmEstimate *e)
{
  const QmMemoryBreakdown *m = &e->memory;
  char buf[1024];

  printf ("%s\n", p->name[0] ? p->name : "(untitled plan)");
  row ("mode", "%s", qm_mode_to_string (e->mode));
  row ("parameters", "%s B (active %s B)", num (e->params / 1e9, 2), num (e->active_params / 1e9, 2));
  if (e->has_training && e->valid)
    {
      row ("training FLOPs", "%.3e (6ND + attention; 6ND alone %.3e)", e->training_flops,
           e->training_flops_6nd);
      row ("hardware FLOPs", "%.3e (with recompute)", e->hardware_flops);
    }
  if (e->valid)
    {
      row ("GPUs", "%s %s on %s nodes", num (e->gpus, 0), p->gpu_id, num (e->nodes, 0));
      row ("parallelism", "tp %u, pp %u, dp %u, cp %u, ep %u, micro-batch %u, ZeRO-%u, recompute %s%s",
           e->parallelism.tp, e->parallelism.pp, e->parallelism.dp, e->parallelism.cp,
           e->parallelism.ep, e->parallelism.micro_batch, e->parallelism.zero_stage,
           qm_recompute_to_string (e->parallelism.recompute),
           e->parallelism.virtual_stages > 1 ? ", interleaved" : "");
    }
  if (e->has_training && e->valid)
    {
      row ("MFU", "%.1f%% (%s)", 100 * e->mfu, qm_mfu_source_to_string (e->mfu_source));
      if (e->has_step_time)
        {
          const QmParallelTime *t = &e->step_time;

          row ("step (model)", "%.3g s, HFU %.1f%%, %s tokens/s", t->step, 100 * t->hfu,
               num (t->tokens_per_s, 0));
          row ("  breakdown", "compute %.3g, recompute %.3g, TP %.3g, PP %.3g, DP %.3g, "
               "ZeRO %.3g, CP %.3g, EP %.3g, bubble %.3g, optimizer %.3g s", t->compute,
               t->recompute, t->tp_comm, t->pp_comm, t->dp_comm, t->zero_comm, t->cp_comm,
               t->ep_comm, t->bubble, t->optimizer);
        }
      row ("time", "%s with failures (%s ideal)", days (e->train_days), days (e->ideal_days));
      row ("GPU-hours", "%s", num (e->gpu_hours, 0));
    }
  if (e->valid)
    {
      row ("memory per GPU", "%.1f GB of %.1f GB: %s (margin %.1f GB)", m->total / 1e9,
           m->capacity / 1e9, e->fits ? "fits" : "DOES NOT FIT", m->margin / 1e9);
      row ("  weights", "%.2f GB", m->weights / 1e9);
      row ("  gradients", "%.2f GB", m->gradients / 1e9);
      row ("  optimizer", "%.2f GB", m->optimizer / 1e9);
      row ("  activations", "%.2f GB", m->activations / 1e9);
      row ("  KV cache", "%.2f GB", m->kv_cache / 1e9);
      row ("  overhead", "%.2f GB", m->overhead / 1e9);
    }
  if (e->valid && e->has_inference)
    print_inference (e);
  if (e->valid && e->has_cluster)
    print_cluster (p, e);
  if (e->valid && e->has_power)
    print_power (p, e);
  if (e->valid && e->has_cost)
    print_cost (p, e);
  if (e->valid && e->has_reliability)
    print_reliability (e);

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
  if (!qm_cli_load_plan (path, plan))
    {
      status = QM_CLI_INPUT;
      goto out;
    }

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
  /* Invalid input that the reader lets through (a rack smaller than a
   * server, a kW limit below one node, ...): one line per error on stderr,
   * exit 1; the figures above are finite stand-ins. */
  if (!estimate->valid || estimate->n_errors > 0)
    {
      char buf[1024];

      status = QM_CLI_INPUT;
      for (guint i = 0; i < estimate->n_warnings; i++)
        if (estimate->warnings[i].id == QM_NOTE_INPUT_ERROR || !estimate->valid)
          qm_cli_error ("%s: %s", path,
                        qm_note_format (&estimate->warnings[i], buf, sizeof buf));
    }

out:
  g_free (plan);
  g_free (estimate);
  return status;
}
