/* qm-plan-report-summary.c: the plan report's cover: the key figures, the
 * plain-language summary and the inputs table.
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
/* Plan summary                                                            */

/* "64 H100 SXM GPUs", "8 DGX H100 nodes", "2 racks": the counts in the
 * summary's sentences, each with its plural. */
static char *
gpus_phrase (const QmPlan     *plan,
             const QmEstimate *e)
{
  /* Translators: in the summary's sentences; a GPU count, then the GPU
   * model: "64 H100 SXM GPUs". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s %s GPU", "%s %s GPUs", qm_report_plural_n (e->gpus)),
                          qm_report_num (e->gpus, 0), qm_report_gpu_name (plan));
}

static char *
nodes_phrase (const QmPlan     *plan,
              const QmEstimate *e)
{
  /* Translators: in the summary's sentences; a node count, then the
   * server model: "8 DGX H100 nodes". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s %s node", "%s %s nodes", qm_report_plural_n (e->nodes)),
                          qm_report_num (e->nodes, 0), qm_report_server_name (plan));
}

static char *
racks_phrase (const QmEstimate *e)
{
  /* Translators: in the summary's sentences; %s is a rack count. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s rack", "%s racks", qm_report_plural_n (e->cluster.racks)),
                          qm_report_num (e->cluster.racks, 0));
}

/* "Catalog prices: version 2026.11 · amounts in USD"; without a currency,
 * the version alone. */
void
qm_report_append_catalog_line (GString    *s,
                               const char *version,
                               const char *currency)
{
  /* Translators: on a report's cover; %s is the version of the catalog's
   * prices. */
  g_string_append_printf (s, _("Catalog prices: version %s"), version);
  if (currency != NULL)
    {
      g_string_append (s, " · ");
      /* Translators: on a report's cover, after "Catalog prices: version …";
       * %s is a currency code such as "USD". */
      g_string_append_printf (s, _("amounts in %s"), currency);
    }
}

/* The key figures of the cluster: its size, the time or throughput, and
 * the memory per GPU. */
static void
add_cluster_figures (QmDocument       *doc,
                     const QmPlan     *plan,
                     const QmEstimate *e,
                     QmBytesUnit       unit)
{
  g_autofree char *gpu_label = NULL;
  g_autofree char *node_label = NULL;

  /* The key figures, large: each label is one line of about 34 characters. */
  gpu_label = qm_text_ellipsize (qm_report_gpu_name (plan), KEY_LABEL_CHARS - 5);
  node_label = qm_text_ellipsize (qm_report_server_name (plan), KEY_LABEL_CHARS - 6);
  {
    /* Translators: a key figure's label, under the GPU count; %s is the GPU
     * model. The labels of the key figures must fit one short line (about
     * 34 characters). */
    g_autofree char *l1 = g_strdup_printf (_("%s GPUs"), gpu_label);
    /* Translators: a key figure's label, under the node count; %s is the
     * server model. */
    g_autofree char *l2 = g_strdup_printf (_("%s nodes"), node_label);

    qm_document_add_key_figure (doc, l1, qm_report_num (e->gpus, 0));
    qm_document_add_key_figure (doc, l2, qm_report_num (e->nodes, 0));
  }
  qm_document_add_key_figure (doc,
                              /* Translators: key figures' labels, under the rack count. */
                              e->cluster.liquid_cooling ? _("racks, liquid-cooled")
                              /* Translators: a key figure's label, under the rack count. */
                              : _("racks"),
                              qm_report_num (e->cluster.racks, 0));

  if (e->has_training && e->bands.train_days.set)
    {
      char band[QM_FORMAT_BUF];
      /* Translators: a key figure's label, under the days to train with
       * failures; %s is its likely range (p10–p90), such as "23.8–31.5".
       * The summary's sentences give the time without failures. Keep it
       * within about 36 characters. */
      g_autofree char *l = g_strdup_printf (_("with failures, likely %s days"),
                                            qm_estimate_band_format (e, QM_BAND_TRAIN_DAYS, band, sizeof band));

      qm_document_add_key_figure (doc, l, qm_report_days (e->train_days));
    }
  else if (e->has_training)
    {
      /* Translators: a key figure's label, under the days to train with
       * failures; %s is the time without failures, such as "46 days". */
      g_autofree char *l = g_strdup_printf (_("with failures; %s ideal"), qm_report_days (e->ideal_days));

      qm_document_add_key_figure (doc, l, qm_report_days (e->train_days));
    }
  else if (e->has_inference)
    {
      /* Translators: a key figure's label, under the output tokens per
       * second the cluster delivers; %s is the rate needed. */
      g_autofree char *l = g_strdup_printf (_("output tokens/s (%s needed)"),
                                            qm_report_num (e->inference.tokens_per_s_needed, 0));

      qm_document_add_key_figure (doc, l, qm_report_num (e->inference.tokens_per_s_total, 0));
    }
  {
    g_autofree char *l = NULL;

    if (e->fits)
      /* Translators: key figures' labels, under the memory each GPU needs;
       * %s is the GPU's memory, such as "80 GB". */
      l = g_strdup_printf (_("per GPU of %s: fits"), qm_report_bytes (e->memory.capacity, unit));
    else
      l = g_strdup_printf (_("per GPU of %s: DOES NOT FIT"), qm_report_bytes (e->memory.capacity, unit));
    qm_document_add_key_figure (doc, l, qm_report_bytes (e->memory.total, unit));
  }
}

/* The key figures of what the cluster draws and costs. */
static void
add_running_figures (QmDocument       *doc,
                     const QmPlan     *plan,
                     const QmEstimate *e,
                     const char       *cur)
{
  {
    g_autofree char *v = g_strdup_printf ("%s kW", qm_report_num (e->power.facility_peak_kw, 0));
    /* Translators: a key figure's label, under the facility's provisioned
     * (peak) power in kW; %s is the PUE, such as "1.30". */
    g_autofree char *l = g_strdup_printf (_("facility, provisioned (PUE %s)"), qm_report_num (e->power.pue, 2));

    qm_document_add_key_figure (doc, l, v);
  }
  {
    char v[QM_FORMAT_BUF];

    qm_format_energy (v, sizeof v, e->power.energy_mwh);

    qm_document_add_key_figure (doc,
                                /* Translators: key figures' labels, under an energy in MWh. */
                                e->has_training ? _("energy for the run")
                                /* Translators: a key figure's label, under an energy in MWh. */
                                : _("energy per month"), v);
  }
  {
    char v[QM_FORMAT_BUF];

    qm_format_tonnes (v, sizeof v, e->power.co2_tonnes);

    qm_document_add_key_figure (doc,
                                /* Translators: a key figure's label, under tonnes of CO₂e. */
                                e->has_training ? _("CO₂e for the run")
                                /* Translators: a key figure's label, under tonnes of CO₂e. */
                                : _("CO₂e per month"), v);
  }
  if (e->has_reliability)
    {
      g_autofree char *v = g_strdup_printf ("%s%%", qm_report_num (100 * e->reliability.goodput, 1));
      /* Translators: a key figure's label, under the goodput in percent;
       * %s is the number of interruptions expected over the run. */
      g_autofree char *l = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "goodput (%s interruption)",
                                                         "goodput (%s interruptions)",
                                                         qm_report_plural_n (e->reliability.interruptions)),
                                            qm_report_num (e->reliability.interruptions, 0));

      qm_document_add_key_figure (doc, l, v);
    }
  else if (e->has_inference)
    {
      g_autofree char *v = g_strdup_printf ("%s ms", qm_report_num (e->inference.ttft_ms, 0));
      /* Translators: a key figure's label, under the time to the first
       * token in ms; %s is the time per further token. */
      g_autofree char *l = g_strdup_printf (_("first token; %s ms per token"), qm_report_num (e->inference.tpot_ms, 1));

      qm_document_add_key_figure (doc, l, v);
    }
  {
    /* Translators: a key figure's label, under an amount of money. */
    g_autofree char *l = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "total cost over %s month",
                                                       "total cost over %s months",
                                                       qm_report_plural_n (e->cost.horizon_months)),
                                          qm_report_num (e->cost.horizon_months, 0));

    qm_document_add_key_figure (doc, l, qm_report_money (e->cost.total, cur));
  }
  if (qm_report_is_buy (plan))
    /* Translators: key figures' labels, under amounts of money. */
    qm_document_add_key_figure (doc, _("upfront (hardware, installation)"), qm_report_money (e->cost.upfront, cur));
  else
    /* Translators: key figures' labels, under amounts of money. */
    qm_document_add_key_figure (doc, e->has_training ? _("rental for this run") : _("rental per month"),
                                qm_report_money (e->cost.run, cur));
  /* Translators: key figures' labels, under amounts of money. */
  qm_document_add_key_figure (doc, qm_report_is_buy (plan) ? _("monthly (amortisation, running)") : _("monthly, around the clock"),
                              qm_report_money (e->cost.monthly, cur));
}

/* The first sentence on a serving plan: the load, the cluster, and
 * whether it meets the latency targets. */
static void
append_serving_sentence (GString          *para,
                         const QmPlan     *plan,
                         const QmEstimate *e)
{
  const QmInference *in = &e->inference;
  g_autofree char *model = qm_report_model_name (plan, e);
  g_autofree char *gpus = gpus_phrase (plan, e);
  g_autofree char *nodes = nodes_phrase (plan, e);
  g_autofree char *racks = racks_phrase (e);
  /* Translators: in the summary's sentence on serving; %s is a count of
   * model replicas, %u the GPUs in each. */
  g_autofree char *replicas = in->gpus_per_replica == 1
    /* Translators: in the summary's sentence on serving; %s is a count of
     * model replicas of one GPU each. */
    ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s replica of one GPU", "%s replicas of one GPU each",
                                    qm_report_plural_n (in->replicas)),
                       qm_report_num (in->replicas, 0))
    : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s replica of %u GPUs", "%s replicas of %u GPUs",
                                    qm_report_plural_n (in->replicas)),
                       qm_report_num (in->replicas, 0), in->gpus_per_replica);

  g_string_append_printf (para,
                          /* Translators: the model; requests a minute; input and
                           * output tokens per request; "64 H100 SXM GPUs"; "8
                           * replicas of 8 GPUs"; "8 DGX H100 nodes"; "2 racks";
                           * the output tokens/s delivered and needed; the
                           * time to the first token and per further token. One
                           * of ", within the latency targets. " or "; the TTFT
                           * target is missed. " follows. */
                          _("Serving %s at %s requests a minute (%s input and %s output tokens each) "
                            "needs %s: %s, in %s across %s. "
                            "They deliver %s output tokens/s (%s needed), with the first token in %s ms "
                            "and %s ms per output token"),
                          model, qm_report_num (plan->workload.inference.requests_per_minute, 0),
                          qm_report_num (plan->workload.inference.input_tokens, 0),
                          qm_report_num (plan->workload.inference.output_tokens, 0),
                          gpus, replicas, nodes, racks,
                          qm_report_num (in->tokens_per_s_total, 0), qm_report_num (in->tokens_per_s_needed, 0),
                          qm_report_num (in->ttft_ms, 0), qm_report_num (in->tpot_ms, 1));
  /* These end the sentence "Serving … per output token". */
  if (in->meets_ttft && in->meets_tpot)
    /* Translators: ends the sentence "Serving … ms per output token". */
    g_string_append (para, _(", within the latency targets. "));
  else if (!in->meets_ttft && !in->meets_tpot)
    /* Translators: ends the sentence "Serving … ms per output token"
     * (TTFT: time to first token; TPOT: time per output token). */
    g_string_append (para, _("; the TTFT and TPOT target is missed. "));
  else if (!in->meets_ttft)
    /* Translators: ends the sentence "Serving … ms per output token"
     * (TTFT: time to first token). */
    g_string_append (para, _("; the TTFT target is missed. "));
  else
    /* Translators: ends the sentence "Serving … ms per output token"
     * (TPOT: time per output token). */
    g_string_append (para, _("; the TPOT target is missed. "));

  /* Issue 31: the plan's own GPUs are kept; what they hold, against the
   * plan's rate, in requests a minute as the plan gives it. */
  if (in->fixed_fleet && isfinite (in->headroom) && in->headroom >= 0)
    g_string_append_printf (para,
                            /* Translators: requests a minute, then a percentage. */
                            _("These GPUs hold up to %s requests a minute within the p99 latency targets, "
                              "%s%% more than the plan's rate. "),
                            qm_report_num (in->max_requests_per_s * 60.0, 0),
                            qm_report_num (100.0 * in->headroom, 0));
  else if (in->fixed_fleet && isfinite (in->headroom) && in->headroom > -1 && in->gpus_for_rate > 0)
    g_string_append_printf (para,
                            /* Translators: requests a minute, a percentage, then a GPU count. */
                            _("These GPUs hold only %s requests a minute within the p99 latency targets: "
                              "the plan's rate is %s%% more, and %s GPUs would hold it. "),
                            qm_report_num (in->max_requests_per_s * 60.0, 0),
                            qm_report_num (100.0 * (-in->headroom / (1.0 + in->headroom)), 0),
                            qm_report_num (in->gpus_for_rate, 0));
  else if (in->fixed_fleet)
    g_string_append_printf (para,
                            /* Translators: requests a minute. */
                            _("These GPUs hold up to %s requests a minute within the p99 latency targets. "),
                            qm_report_num (in->max_requests_per_s * 60.0, 0));
  if (in->idle_gpus > 0)
    g_string_append_printf (para,
                            /* Translators: a count of GPUs rented that serve no
                             * replica (whole nodes are rented). */
                            g_dngettext (GETTEXT_PACKAGE, "%s GPU serves no replica. ",
                                         "%s GPUs serve no replica. ", qm_report_plural_n (in->idle_gpus)),
                            qm_report_num (in->idle_gpus, 0));
}

/* The first sentence on a training plan: the work, the cluster and the
 * time it takes. */
static void
append_training_sentence (GString          *para,
                          const QmPlan     *plan,
                          const QmEstimate *e)
{
  g_autofree char *model = qm_report_model_name (plan, e);
  g_autofree char *gpus = gpus_phrase (plan, e);
  g_autofree char *nodes = nodes_phrase (plan, e);
  g_autofree char *racks = racks_phrase (e);
  const char *tokens = qm_report_short_count (e->tokens);
  const char *train = qm_report_days (e->train_days);
  const char *ideal = qm_report_days (e->ideal_days);
  const char *mfu = qm_report_num (100 * e->mfu, 1);

  switch (plan->workload.mode)
    {
    case QM_MODE_FINETUNE:
      g_string_append_printf (para,
                              /* Translators: the model; the tokens, such as "2B";
                               * "64 H100 SXM GPUs"; "8 DGX H100 nodes"; "2 racks";
                               * the time with failures, then without, such as
                               * "54 days"; the MFU in percent. */
                              _("Fine-tuning %s on %s tokens needs %s in %s across %s for %s "
                                "(%s without failures, at %s%% MFU). "),
                              model, tokens, gpus, nodes, racks, train, ideal, mfu);
      break;
    case QM_MODE_LORA:
    case QM_MODE_QLORA:
      g_string_append_printf (para,
                              /* Translators: "LoRA" or "QLoRA" and the adapters'
                               * rank; the model; the tokens, such as "2B"; "64
                               * H100 SXM GPUs"; "8 DGX H100 nodes"; "2 racks"; the
                               * time with failures, then without; the MFU in
                               * percent. */
                              _("%s fine-tuning (rank %u) of %s on %s tokens needs %s in %s across %s for %s "
                                "(%s without failures, at %s%% MFU). "),
                              plan->workload.mode == QM_MODE_LORA ? "LoRA" : "QLoRA", plan->workload.lora_rank,
                              model, tokens, gpus, nodes, racks, train, ideal, mfu);
      break;
    default:
      g_string_append_printf (para,
                              /* Translators: the model; the tokens, such as "15T";
                               * "1,024 H100 SXM GPUs"; "128 DGX H100 nodes"; "32
                               * racks"; the time with failures, then without, such
                               * as "54 days"; the MFU in percent. */
                              _("Training %s on %s tokens needs %s in %s across %s for %s "
                                "(%s without failures, at %s%% MFU). "),
                              model, tokens, gpus, nodes, racks, train, ideal, mfu);
      break;
    }
}

/* The sentences on the memory per GPU, the cost and the power. */
static void
append_memory_sentence (GString          *para,
                        const QmEstimate *e,
                        QmBytesUnit       unit)
{
  if (e->fits)
    /* Translators: the memory each GPU needs, the GPU's memory, and what
     * is left. */
    g_string_append_printf (para, _("Each GPU holds %s of its %s, leaving %s spare. "),
                            qm_report_bytes (e->memory.total, unit),
                            qm_report_bytes (e->memory.capacity, unit),
                            qm_report_bytes (e->memory.margin, unit));
  else
    /* Translators: the memory each GPU needs, then the GPU's memory. */
    g_string_append_printf (para, _("The plan does NOT fit in GPU memory: each GPU needs %s of its %s. "),
                            qm_report_bytes (e->memory.total, unit),
                            qm_report_bytes (e->memory.capacity, unit));
}

static void
append_cost_sentence (GString          *para,
                      const QmPlan     *plan,
                      const QmEstimate *e,
                      const char       *cur)
{
  gulong months = qm_report_plural_n (e->cost.horizon_months);

  /* A training run and a month of serving take the same figures; only the
   * last words differ. */
  if (qm_report_is_buy (plan))
    g_string_append_printf (para,
                            e->has_training
                            /* Translators: amounts upfront, a month and in all;
                             * the months of the plan's horizon; this run's share. */
                            ? g_dngettext (GETTEXT_PACKAGE, "Buying the cluster costs %s upfront and %s a "
                                           "month, %s over %s month; this run's share is %s. ",
                                           "Buying the cluster costs %s upfront and %s a month, %s over "
                                           "%s months; this run's share is %s. ", months)
                            /* Translators: amounts upfront, a month and in all;
                             * the months of the plan's horizon; the cost of one
                             * month of serving. */
                            : g_dngettext (GETTEXT_PACKAGE, "Buying the cluster costs %s upfront and %s a "
                                           "month, %s over %s month; one month of serving is %s. ",
                                           "Buying the cluster costs %s upfront and %s a month, %s over "
                                           "%s months; one month of serving is %s. ", months),
                            qm_report_money (e->cost.upfront, cur), qm_report_money (e->cost.monthly, cur),
                            qm_report_money (e->cost.total, cur), qm_report_num (e->cost.horizon_months, 0),
                            qm_report_money (e->cost.run, cur));
  else
    g_string_append_printf (para,
                            e->has_training
                            /* Translators: the rent for this run; the rent over the
                             * plan's horizon, and its months. */
                            ? g_dngettext (GETTEXT_PACKAGE, "Renting costs %s for this run, or %s over %s "
                                           "month around the clock. ",
                                           "Renting costs %s for this run, or %s over %s months around the clock. ",
                                           months)
                            /* Translators: the rent a month; the rent over the plan's
                             * horizon, and its months. */
                            : g_dngettext (GETTEXT_PACKAGE, "Renting costs %s a month, or %s over %s month "
                                           "around the clock. ",
                                           "Renting costs %s a month, or %s over %s months around the clock. ",
                                           months),
                            qm_report_money (e->cost.run, cur), qm_report_money (e->cost.total, cur),
                            qm_report_num (e->cost.horizon_months, 0));
}

static void
append_power_sentence (GString          *para,
                       const QmEstimate *e)
{
  char energy[QM_FORMAT_BUF], co2[QM_FORMAT_BUF];

  g_string_append_printf (para,
                          e->has_training
                          /* Translators: the facility's peak power in kW, the energy
                           * for the run (such as "76.3 MWh") and the mass of CO₂e
                           * (such as "29.0 t"). */
                          ? _("The cluster draws up to %s kW at the facility and uses %s for the run "
                              "(%s CO₂e).")
                          /* Translators: the facility's peak power in kW, the energy
                           * a month (such as "16.0 MWh") and the mass of CO₂e (such
                           * as "6.08 t"). */
                          : _("The cluster draws up to %s kW at the facility and uses %s a month "
                              "(%s CO₂e)."),
                          qm_report_num (e->power.facility_peak_kw, 0),
                          qm_format_energy (energy, sizeof energy, e->power.energy_mwh),
                          qm_format_tonnes (co2, sizeof co2, e->power.co2_tonnes));
}

char *
qm_report_bands_text (const QmPlan     *plan,
                      const QmEstimate *e)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *basis = qm_estimate_bands_basis (plan, e);
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];

  if (!e->valid)
    return NULL;
  if (basis == NULL)
    {
      if (e->has_training && e->mfu_source == QM_MFU_SOURCE_GIVEN)
        return g_strdup (_("No likely range: the plan gives its own MFU, which no validation measures."));
      return NULL;
    }
  if (e->bands.tokens_per_s_per_gpu.set)
    /* Translators: the likely ranges (p10–p90) of the output tokens/s per
     * GPU ("1,018–1,288") and of the GPUs the same load needs ("14–19"). */
    g_string_append_printf (text, _("Likely, as 8 in 10 published runs of the kind: %s output tokens/s per GPU, "
                                    "or %s GPUs for the same load."),
                            qm_estimate_band_format (e, QM_BAND_TOKENS_PER_S_PER_GPU, a, sizeof a),
                            qm_estimate_band_format (e, QM_BAND_GPUS, b, sizeof b));
  else
    /* Translators: the likely ranges (p10–p90) of the days to train
     * ("23.8–31.5"), of the MFU ("40.7–54.0%") and of the GPUs the same
     * work needs in the same time ("75–100"). */
    g_string_append_printf (text, _("Likely, as 8 in 10 published runs of the kind: %s days at %s MFU, "
                                    "or %s GPUs for the same work."),
                            qm_estimate_band_format (e, QM_BAND_TRAIN_DAYS, a, sizeof a),
                            qm_estimate_band_format (e, QM_BAND_MFU, b, sizeof b),
                            qm_estimate_band_format (e, QM_BAND_GPUS, c, sizeof c));
  g_string_append_c (text, ' ');
  /* Translators: what the likely ranges rest on, such as "17 published
   * runs on H100-class GPUs, 3D parallel, 4–16,384 GPUs". */
  g_string_append_printf (text, _("Basis: %s."), basis);
  /* At 50% the deadline is met by the estimate itself: nothing to add. */
  if (e->has_training && plan->workload.deadline_days > 0 && e->bands.deadline_error > 0)
    {
      g_string_append_c (text, ' ');
      /* Translators: the deadline's confidence ("90"), then the error the
       * GPUs were sized at ("13.0"). */
      g_string_append_printf (text, _("The deadline is met with %s%% confidence: the GPUs are sized for a "
                                      "run %s%% slower than estimated."),
                              qm_report_num (100.0 * e->bands.confidence, 0),
                              qm_report_num (100.0 * e->bands.deadline_error, 1));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The key figures again in a few plain sentences, and the count of
 * warnings. Each sentence ends in a space when another may follow. */
static void
add_summary_sentences (QmDocument             *doc,
                       const QmPlan           *plan,
                       const QmEstimate       *e,
                       const QmPlanReportInfo *info)
{
  g_autoptr(GString) para = g_string_new (NULL);

  if (!e->valid)
    /* Translators: the summary's sentences end in a space when another
     * follows (drop it where sentences are not separated by spaces). */
    g_string_append (para, _("This plan has errors, so its figures are stand-ins; see the warnings at the end. "));
  else if (e->has_inference)
    append_serving_sentence (para, plan, e);
  else
    append_training_sentence (para, plan, e);

  if (e->valid)
    {
      g_autofree char *bands = qm_report_bands_text (plan, e);

      append_memory_sentence (para, e, info->memory_unit);
      append_cost_sentence (para, plan, e, qm_report_currency_of (plan, info));
      append_power_sentence (para, e);
      /* How far to trust those figures (issue #36); in the same paragraph,
       * so that the cover still fits its page. */
      if (bands != NULL)
        {
          g_string_append_c (para, ' ');
          g_string_append (para, bands);
        }
    }
  qm_document_add_paragraph (doc, para->str);
  if (e->n_warnings > 0)
    {
      /* Translators: the quoted words are the heading of the report's last
       * section, “Assumptions, warnings and sources”. */
      g_autofree char *w = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u warning: see “Assumptions, "
                                                         "warnings and sources”.",
                                                         "%u warnings: see “Assumptions, warnings and sources”.",
                                                         e->n_warnings),
                                            e->n_warnings);
      qm_document_add_paragraph (doc, w);
    }
}

void
qm_plan_report_add_cover (QmDocument                *doc,
                          const QmPlanReportSubject *subject)
{
  const QmPlan *plan = subject->plan;
  const QmEstimate *e = subject->e;
  const QmPlanReportInfo *info = &subject->info;
  const char *cur = qm_report_currency_of (plan, info);
  g_autoptr(GString) meta = g_string_new (NULL);

  qm_document_add_heading (doc, qm_report_plan_name (plan), 0);

  if (plan->customer[0])
    {
      /* Translators: on the cover of a plan summary; %s is the customer. */
      g_string_append_printf (meta, _("Prepared for: %s"), plan->customer);
      g_string_append_c (meta, '\n');
    }
  if (plan->quote_ref[0])
    {
      /* Translators: %s is the reference of the quote, as the plan gives it. */
      g_string_append_printf (meta, _("Quote reference: %s"), plan->quote_ref);
      g_string_append_c (meta, '\n');
    }
  /* Translators: on a report's cover; %s is a date, YYYY-MM-DD. */
  g_string_append_printf (meta, _("Date: %s"), info->date);
  g_string_append_c (meta, '\n');
  qm_report_append_catalog_line (meta, info->catalog_version, cur);
  qm_document_add_paragraph (doc, meta->str);

  qm_document_add_heading (doc, _("Summary"), 1);

  /* The key figures, large, then the same in sentences. */
  add_cluster_figures (doc, plan, e, info->memory_unit);
  add_running_figures (doc, plan, e, cur);
  add_summary_sentences (doc, plan, e, info);
  qm_plan_report_add_inputs (doc, subject);

  if (plan->notes[0])
    {
      g_auto(GStrv) lines = g_strsplit (plan->notes, "\n", -1);

      qm_document_add_heading (doc, _("Notes"), 2);
      /* One paragraph per line: a paragraph never breaks across pages. */
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_strstrip (lines[i])[0])
          qm_document_add_paragraph (doc, lines[i]);
    }
}
