/* qm-cli-estimate.c: quartermaster-cli estimate PLAN.qmplan [--json]
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
#include "qm-cli-commands.h"
#include "qm-estimate-json.h"
#include "qm-format.h"
#include "qm-plan.h"
#include "qm-plan-report.h"
#include "qm-price-age.h"
#include "qm-text.h"
#include "qm-quote-store.h"

static void
row (const char *label,
     const char *format,
     ...) G_GNUC_PRINTF (2, 3);

/* One "label   value" line; the label is translated, so it is padded by
 * terminal columns, not bytes. */
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
  qm_cli_print ("  %s %s\n", qm_cli_cell (label, -22), value);
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

/* A row under the one before it: its label indented. */
static const char *
sub (const char *label)
{
  char *b;

  ring_next (&b);
  g_snprintf (b, QM_FORMAT_BUF * 2, "  %s", label);
  return b;
}

static void
section (const char *title)
{
  qm_cli_print ("\n%s\n", title);
}

static void
print_cluster (const QmPlan     *p,
               const QmEstimate *e)
{
  const QmCluster *c = &e->cluster;

  section (_("Cluster"));
  /* Translators: the estimate's line of nodes: "256 × dgx-h100 (8 GPUs
   * each, 10,200 W nameplate)"; the second %s is a catalog id. */
  row (_("Nodes"), _("%s × %s (%u GPUs each, %s W nameplate)"), num (c->nodes, 0), p->server_id,
       p->hardware.server.gpus, num (c->node_power_w, 0));
  row (_("Racks"), _("%s: %s compute, %s network, %s storage"), num (c->racks, 0),
       num (c->compute_racks, 0), num (c->network_racks, 0), num (c->storage_racks, 0));
  if (p->hardware.server.rack_scale)
    /* Translators: a rack-scale system (GB200 NVL72) is a rack of its own:
     * its height in U and its kW. */
    row (sub (_("Per rack")), _("1 rack-scale system, its own rack (%u U, %s kW)"),
         p->hardware.server.rack_units, num (c->node_power_w / 1000.0, 1));
  else
    row (sub (_("Per rack")), c->rack_limited_by_kw ? _("%u nodes, bound by kW (%u by rack units, %u by %s kW)")
                                                : _("%u nodes, bound by rack units (%u by rack units, %u by %s kW)"),
         c->nodes_per_rack, c->nodes_per_rack_by_units, c->nodes_per_rack_by_kw, num (p->facility.rack_kw, 1));
  row (sub (_("Cooling")), c->liquid_cooling ? _("%s kW in the fullest rack: LIQUID COOLING needed")
                                         : _("%s kW in the fullest rack: air"),
       num (c->rack_kw_peak, 1));
  if (c->network.tiers > 0)
    /* Translators: a catalog id, then the network's switch tiers and
     * rails: "ib-ndr-400, switch tiers: 2, rails: 8". */
    row (_("Compute fabric"), _("%s, switch tiers: %u, rails: %u"), p->network_id, c->network.tiers,
         c->network.rails);
  else
    row (_("Compute fabric"), "%s", c->nodes <= 1 ? _("none (one node: NVLink only)") : _("none (no network)"));
  row (sub (_("Switches")), _("%s leaf, %s spine, %s core"), num (c->network.leaf_switches, 0),
       num (c->network.spine_switches, 0), num (c->network.core_switches, 0));
  row (sub (_("Cables")), _("%s (%s optical transceivers)"), num (c->network.cables, 0),
       num (c->network.transceivers, 0));
  row (_("All networks"), _("%s fabric + %s management switches, %s cables, %s transceivers"),
       num (c->switches, 0), num (c->mgmt_switches, 0), num (c->cables, 0),
       num (c->transceivers, 0));
  if (p->storage_id[0])
    /* Translators: "62.0 TB on parallel-fs, writing 16.5 GB/s (1 rack
     * units)"; the second %s is a catalog id. */
    row (_("Storage"), _("%s on %s, writing %s/s (%s rack units)"), si (c->storage_bytes, "B"),
         p->storage_id, si (c->storage_write_bytes_per_s, "B"), num (c->storage_units, 0));
}

static void
print_power (const QmPlan     *p,
             const QmEstimate *e)
{
  const QmPower *w = &e->power;

  section (_("Power"));
  row (_("Provisioned IT"), _("%s kW (GPUs %s, rest of servers %s, network %s, storage %s)"),
       num (w->it_peak_kw, 1), num (w->gpus_kw, 1), num (w->servers_kw, 1),
       num (w->network_kw, 1), num (w->storage_kw, 1));
  row (_("Average IT"), _("%s kW (%s%% of the nameplate on the servers)"), num (w->it_avg_kw, 1),
       num (100 * w->avg_fraction, 0));
  row (_("Facility"), _("%s kW provisioned, %s kW average (PUE %.2f)"), num (w->facility_peak_kw, 1),
       num (w->facility_avg_kw, 1), w->pue);
  row (_("Cooling"), _("%s kW, %s BTU/h"), num (w->cooling_kw, 1), num (w->cooling_btu_h, 0));
  row (e->has_training ? _("Energy (run)") : _("Energy (month)"), _("%s, %s t CO2e, %s of electricity"),
       si (w->energy_mwh * 1e6, "Wh"), num (w->co2_tonnes, w->co2_tonnes < 10 ? 3 : 1),
       money (p, w->electricity_usd));
}

static void
print_cost (const QmPlan     *p,
            const QmEstimate *e)
{
  const QmCost *c = &e->cost;

  section (p->pricing.mode == QM_PRICING_BUY ? _("Cost (buy)") : _("Cost (rent)"));
  qm_cli_print ("  %s %s %s %s  %s\n", qm_cli_cell (_("Item"), -30), qm_cli_cell (_("Quantity"), 12),
                qm_cli_cell (_("Unit"), 12), qm_cli_cell (_("Total"), 12), _("Source"));
  for (guint i = 0; i < c->n_bom; i++)
    {
      const QmBomLine *l = &c->bom[i];
      const char *source = l->source ? l->source : _("the plan's price");
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
      qm_cli_print ("  %s %12s %12s %12s  %s\n", qm_cli_cell (qm_bom_item_label (l->item), -30),
                    num (l->qty, l->qty == floor (l->qty) ? 0 : 2), money (p, l->unit_usd),
                    money (p, l->total_usd), src);
    }
  row (_("Upfront"), "%s", money (p, c->upfront));
  row (_("Monthly"), p->pricing.mode == QM_PRICING_BUY ? _("%s (amortisation, power, colocation, support)") : "%s",
       money (p, c->monthly));
  row (e->has_training ? _("This run") : _("One month of serving"), "%s", money (p, c->run));
  row (_("Total"), _("%s over %s months"), money (p, c->total), num (c->horizon_months, 0));
  if (c->break_even_valid)
    row (_("Rent vs buy"), _("buying costs less from month %u after the order (renting: %s a month)"),
         c->break_even_month, money (p, c->rent_monthly));
  else
    row (_("Rent vs buy"), "%s", _("no break-even (renting is not dearer than owning, or no price)"));
}

/* Under the cost: how old its prices are on @today (qm-price-age.h). */
static void
print_prices_as_of (const QmEstimate *e,
                    const GDate      *today,
                    guint             max_months)
{
  GDate as_of;

  if (!qm_prices_as_of (e, &as_of))
    return;
  qm_cli_print_prices_as_of ("  ", &as_of, today, max_months);
}

static void
print_reliability (const QmEstimate *e)
{
  const QmReliability *r = &e->reliability;

  section (_("Reliability"));
  row (_("Failure preset"), _("%s: one interruption per %s GPU-hours"), r->preset,
       num (r->gpu_hours_per_failure, 0));
  row (_("Interruptions"), _("%s expected (job MTBF %s)"), num (r->interruptions, 1),
       days (r->mtbf_s / 86400.0));
  row (_("Checkpoint"), _("%s, written in %s s, every %s min (Daly)"), bytes (r->checkpoint_bytes),
       num (r->checkpoint_write_s, 1), num (r->checkpoint_interval_s / 60.0, 0));
  row (_("Goodput"), "%s%%", num (100 * r->goodput, 1));
  row (_("Time"), _("%s ideal, %s with failures"), days (e->ideal_days), days (e->train_days));
}

static void
print_inference (const QmPlan     *p,
                 const QmEstimate *e)
{
  const QmInference *i = &e->inference;
  const char *missed = _(" (p99 target missed)");

  section (_("Inference"));
  if (i->engine != NULL)
    row (_("Engine"), "%s %s", i->engine->info.name, i->engine->version);
  row (_("Replicas"), _("%s × %u GPUs = %s GPUs (%s exact)"), num (i->replicas, 0),
       i->gpus_per_replica, num (i->gpus, 0), num (i->gpus_exact, 2));
  row (_("Concurrency"), _("%u sequences per replica"), i->concurrency);
  row (_("Throughput"), _("%s tokens/s per GPU, %s tokens/s in all (%s needed)"),
       num (i->tokens_per_s_per_gpu, 0), num (i->tokens_per_s_total, 0),
       num (i->tokens_per_s_needed, 0));
  if (e->bands.tokens_per_s_per_gpu.set)
    {
      char band[64], band2[64];

      /* Translators: the 80% range of the throughput ("1,018–1,288"). */
      g_autofree char *basis = qm_estimate_bands_basis (p, e);

      row (sub (_("Likely range")), _("%s tokens/s per GPU (p10–p90); %s GPUs for the same load"),
           qm_estimate_band_format (e, QM_BAND_TOKENS_PER_S_PER_GPU, band, sizeof band),
           qm_estimate_band_format (e, QM_BAND_GPUS, band2, sizeof band2));
      row (sub (_("Basis")), "%s", basis);
    }
  /* The seed's rule (GPUs = output tokens / throughput x requests a minute
   * / 60) at the model's own throughput, beside the fleet the latency
   * targets need. */
  if (i->gpus_exact > 0 && !i->fixed_fleet)
    row (_("Rule of thumb"), _("%s GPUs at %s tokens/s per GPU; the fleet sized for the latency targets has %s (%s×)"),
         num (i->gpus_exact, 1), num (i->tokens_per_s_per_gpu, 0), num (i->gpus, 0),
         num (i->gpus / i->gpus_exact, 2));
  else if (i->gpus_exact > 0 && i->gpus_for_rate > 0)
    row (_("Rule of thumb"), _("%s GPUs at %s tokens/s per GPU; the latency targets need %s"),
         num (i->gpus_exact, 1), num (i->tokens_per_s_per_gpu, 0), num (i->gpus_for_rate, 0));
  /* Issue 31: a plan's own GPUs are kept; what they hold against its rate. */
  if (i->fixed_fleet && isfinite (i->headroom) && i->headroom >= 0)
    row (_("Capacity"), _("%s requests/s within the p99 targets; the plan's %s requests/s leave %s%% headroom"),
         num (i->max_requests_per_s, 2), num (i->max_requests_per_s / (1.0 + i->headroom), 2),
         num (100.0 * i->headroom, 0));
  else if (i->fixed_fleet && isfinite (i->headroom) && i->max_requests_per_s > 0)
    row (_("Capacity"), _("%s requests/s within the p99 targets; the plan's %s requests/s are %s%% more (headroom %s%%): %s GPUs would hold them"),
         num (i->max_requests_per_s, 2), num (i->max_requests_per_s / (1.0 + i->headroom), 2),
         num (100.0 * (-i->headroom / (1.0 + i->headroom)), 0), num (100.0 * i->headroom, 0),
         num (i->gpus_for_rate, 0));
  else if (i->fixed_fleet)
    row (_("Capacity"), _("%s requests/s within the p99 targets"), num (i->max_requests_per_s, 2));
  if (i->idle_gpus > 0)
    row (_("Unused GPUs"), _("%s of the %s GPUs serve no replica"), num (i->idle_gpus, 0),
         num (e->gpus, 0));
  row (_("Requests"), _("%s requests/s served; one replica peaks at %s tokens/s"),
       num (i->requests_per_s, 2), num (i->replica_tokens_per_s, 0));
  row (_("TTFT"), _("p50 %s ms, p90 %s ms, p99 %s ms%s"), num (i->ttft_p50_ms, 1),
       num (i->ttft_p90_ms, 1), num (i->ttft_p99_ms, 1), i->meets_ttft ? "" : missed);
  row (_("TPOT"), _("p50 %s ms, p90 %s ms, p99 %s ms%s"), num (i->tpot_p50_ms, 1),
       num (i->tpot_p90_ms, 1), num (i->tpot_p99_ms, 1), i->meets_tpot ? "" : missed);
  row (_("Queue"), _("p50 %s ms, p99 %s ms"), num (i->queue_p50_ms, 1), num (i->queue_p99_ms, 1));
  row (_("Memory per GPU"), i->fits ? _("%s of %s: fits") : _("%s of %s: DOES NOT FIT"),
       bytes (i->memory_per_gpu_bytes), bytes (i->capacity_per_gpu_bytes));
}

/* Issue #36: how far to trust the estimate, from the error model. */
static void
print_bands (const QmPlan     *p,
             const QmEstimate *e)
{
  g_autofree char *basis = qm_estimate_bands_basis (p, e);
  char band[64];

  if (basis == NULL)
    {
      if (e->has_training && e->mfu_source == QM_MFU_SOURCE_GIVEN)
        row (_("Likely range"), "%s", _("none: the plan gives its own MFU, which no validation measures"));
      return;
    }
  if (e->bands.mfu.set)
    row (_("Likely range"), _("MFU %s (p10–p90)"), qm_estimate_band_format (e, QM_BAND_MFU, band, sizeof band));
  if (e->bands.train_days.set)
    row (sub (_("Time")), _("%s days"), qm_estimate_band_format (e, QM_BAND_TRAIN_DAYS, band, sizeof band));
  if (e->bands.gpus.set)
    row (sub (_("GPUs")), _("%s for the same work"), qm_estimate_band_format (e, QM_BAND_GPUS, band, sizeof band));
  row (sub (_("Basis")), "%s", basis);
  if (p->workload.deadline_days > 0 && e->bands.deadline_error > 0)
    /* Translators: the deadline's confidence ("90"), then the error the
     * GPUs were sized at ("13.0"). */
    row (sub (_("Deadline")), _("met with %s%% confidence (sized for a run %s%% slower than estimated)"),
         num (100.0 * e->bands.confidence, 0), num (100.0 * e->bands.deadline_error, 1));
  else if (p->workload.deadline_days > 0)
    row (sub (_("Deadline")), _("met with %s%% confidence (the estimate itself)"),
         num (100.0 * e->bands.confidence, 0));
}

static void
print_text (const QmPlan     *p,
            const QmEstimate *e,
            const GDate      *today,
            guint             max_months)
{
  const QmMemoryBreakdown *m = &e->memory;
  char buf[1024];

  qm_cli_print ("%s\n", p->name[0] ? p->name : _("(untitled plan)"));
  row (_("Mode"), "%s", qm_mode_label (e->mode));
  row (_("Parameters"), _("%s B (active %s B)"), num (e->params / 1e9, 2), num (e->active_params / 1e9, 2));
  if (e->has_training && e->valid)
    {
      row (_("Training FLOPs"), _("%.3e (6ND + attention; 6ND alone %.3e)"), e->training_flops,
           e->training_flops_6nd);
      row (_("Hardware FLOPs"), _("%.3e (with recompute)"), e->hardware_flops);
    }
  if (e->valid)
    {
      /* Translators: "2,048 h100-sxm-80gb on 256 nodes"; the second %s is
       * a catalog id. */
      row (_("GPUs"), _("%s %s on %s nodes"), num (e->gpus, 0), p->gpu_id, num (e->nodes, 0));
      /* Translators: tp, pp, dp, cp and ep are the parallelism degrees as
       * the plan file names them; the last %s is the recompute mode's
       * name and then ", interleaved" or nothing. */
      row (_("Parallelism"), _("tp %u, pp %u, dp %u, cp %u, ep %u, micro-batch %u, ZeRO-%u, recompute %s%s"),
           e->parallelism.tp, e->parallelism.pp, e->parallelism.dp, e->parallelism.cp,
           e->parallelism.ep, e->parallelism.micro_batch, e->parallelism.zero_stage,
           qm_recompute_word (e->parallelism.recompute),
           e->parallelism.virtual_stages > 1 ? _(", interleaved") : "");
    }
  if (e->has_training && e->valid)
    {
      row (_("MFU"), "%.1f%% (%s)", 100 * e->mfu, qm_mfu_source_word (e->mfu_source));
      if (e->has_step_time)
        {
          const QmParallelTime *t = &e->step_time;

          row (_("Step (model)"), _("%.3g s, HFU %.1f%%, %s tokens/s"), t->step, 100 * t->hfu,
               num (t->tokens_per_s, 0));
          row (sub (_("Breakdown")), _("compute %.3g, recompute %.3g, TP %.3g, PP %.3g, DP %.3g, "
                                   "ZeRO %.3g, CP %.3g, EP %.3g, bubble %.3g, optimizer %.3g s"), t->compute,
               t->recompute, t->tp_comm, t->pp_comm, t->dp_comm, t->zero_comm, t->cp_comm,
               t->ep_comm, t->bubble, t->optimizer);
        }
      row (_("Time"), _("%s with failures (%s ideal)"), days (e->train_days), days (e->ideal_days));
      row (_("GPU-hours"), "%s", num (e->gpu_hours, 0));
    }
  if (e->valid && e->has_training)
    print_bands (p, e);
  if (e->valid)
    {
      row (_("Memory per GPU"), e->fits ? _("%.1f GB of %.1f GB: fits (margin %.1f GB)")
                                        : _("%.1f GB of %.1f GB: DOES NOT FIT (margin %.1f GB)"),
           m->total / 1e9, m->capacity / 1e9, m->margin / 1e9);
      row (sub (_("Weights")), "%.2f GB", m->weights / 1e9);
      row (sub (_("Gradients")), "%.2f GB", m->gradients / 1e9);
      row (sub (_("Optimizer")), "%.2f GB", m->optimizer / 1e9);
      row (sub (_("Activations")), "%.2f GB", m->activations / 1e9);
      row (sub (_("KV cache")), "%.2f GB", m->kv_cache / 1e9);
      row (sub (_("Overhead")), "%.2f GB", m->overhead / 1e9);
    }
  if (e->valid && e->has_inference)
    print_inference (p, e);
  if (e->valid && e->has_cluster)
    print_cluster (p, e);
  if (e->valid && e->has_power)
    print_power (p, e);
  if (e->valid && e->has_cost)
    {
      print_cost (p, e);
      print_prices_as_of (e, today, max_months);
    }
  if (e->valid && e->has_reliability)
    print_reliability (e);

  if (e->n_warnings > 0)
    {
      qm_cli_print ("\n%s\n", _("Warnings:"));
      for (guint i = 0; i < e->n_warnings; i++)
        qm_cli_print ("  - %s\n", qm_note_format (&e->warnings[i], buf, sizeof buf));
    }
  qm_cli_print ("\n%s\n", _("Assumptions:"));
  for (guint i = 0; i < e->n_assumptions; i++)
    qm_cli_print ("  - %s\n", qm_note_format (&e->assumptions[i], buf, sizeof buf));
}

/* The estimate's JSON holds prices_as_of (no clock in the core); the
 * CLI adds the warning on @today (docs/plan-file.md). */
static void
add_price_age_json (JsonNode         *root,
                    const QmEstimate *e,
                    const GDate      *today,
                    guint             max_months)
{
  JsonObject *o = json_node_get_object (root);
  g_autofree char *warning = NULL;
  GDate as_of;
  locale_t old;

  /* The JSON is the same in every language (docs/plan-file.md). */
  old = qm_text_begin_c_locale ();
  if (e->valid && qm_prices_as_of (e, &as_of))
    warning = qm_price_age_warning (&as_of, today, max_months);
  qm_text_end_c_locale (old);
  if (warning != NULL)
    json_object_set_string_member (o, "price_age_warning", warning);
  else
    json_object_set_null_member (o, "price_age_warning");
}

int
qm_cli_estimate (int    argc,
                 char **argv)
{
  const char *path = NULL, *date = NULL, *max_age = NULL;
  gboolean json = FALSE;
  guint max_months = QM_PRICE_MAX_AGE_MONTHS_DEFAULT;
  GDate today;
  QmPlan *plan;
  QmEstimate *estimate;
  int status = QM_CLI_OK;

  for (int i = 1; i < argc; i++)
    {
      const QmCliValueOption options[] = {
        { "--date", &date }, { "--max-price-age", &max_age }, { NULL, NULL },
      };
      int taken;

      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if ((taken = qm_cli_value_option (argc, argv, &i, "estimate", options)) < 0)
        return QM_CLI_USAGE;
      else if (taken == 0 && !qm_cli_take_argument ("estimate", argv[i], QM_CLI_ARG_PLAN, &path))
        return QM_CLI_USAGE;
    }
  if (max_age != NULL && !qm_cli_parse_max_price_age ("estimate", max_age, &max_months))
    return QM_CLI_USAGE;
  /* The day the prices' age is judged on: --date, else today. */
  if (date != NULL)
    {
      if (!qm_quote_date_parse (date, &today))
        {
          qm_cli_error (_("%s: --date: must be a date as YYYY-MM-DD (got '%s')"), "estimate", date);
          return QM_CLI_USAGE;
        }
    }
  else
    qm_cli_today (&today);
  if (path == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "estimate", "PLAN.qmplan", qm_cli_synopsis ("estimate"));
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
      g_autoptr(JsonNode) root = qm_estimate_to_json_node (plan, estimate);

      add_price_age_json (root, estimate, &today, max_months);
      qm_cli_print_json_node (root);
    }
  else
    print_text (plan, estimate, &today, max_months);
  /* Invalid input that the reader lets through (a rack smaller than a
   * server, a kW limit below one node, ...): one line per error on stderr,
   * exit 1; the figures above are finite stand-ins. */
  if (qm_cli_print_errors (path, estimate))
    status = QM_CLI_INPUT;

out:
  g_free (plan);
  g_free (estimate);
  return status;
}
