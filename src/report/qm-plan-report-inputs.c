/* qm-plan-report-inputs.c: the plan report's table of a plan's inputs,
 * for the reader who checks them.
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

void
qm_plan_report_add_inputs (QmDocument             *doc,
                           const QmPlan           *plan,
                           const QmEstimate       *e,
                           const QmPlanReportInfo *info)
{
  const char *cur = qm_report_currency_of (plan, info);
  g_autofree char *model = qm_report_model_name (plan, e);
  const char *headers[] = {
    /* Translators: the headers of the table of a plan's inputs: what the
     * input is, and its value. */
    _("Input"),
    /* Translators: the header of the column of values in the table of a
     * plan's inputs. */
    _("Value"),
  };
  static const double widths[] = { 0.30, 0.70 };
  const QmWorkload *w = &plan->workload;
  g_autofree char *parallel = NULL;
  g_autofree char *hardware = NULL;
  g_autofree char *facility = NULL;
  g_autofree char *pricing = NULL;
  g_autofree char *target = NULL;

  qm_document_add_heading (doc, _("Inputs"), 2);
  qm_document_begin_table (doc, 2, headers, widths, NULL);
#define ROW(label, value) G_STMT_START { const char *cells_[] = { (label), (value) }; \
                                       qm_document_add_row (doc, cells_, FALSE); } G_STMT_END
  /* Translators: a row of the inputs table: training, fine-tuning or serving. */
  ROW (_("Workload"), qm_report_mode_label (w->mode));
  ROW (_("Model"), model);
  if (e->has_training)
    {
      /* Translators: the training inputs: the tokens in all (the tokens of
       * one epoch × the epochs), the sequence length, the global batch in
       * sequences, the precision ("bf16") and the optimizer ("adamw"). */
      g_autofree char *t = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s tokens (%s × %s epoch), sequence "
                                                         "%s, global batch %s, %s, %s",
                                                         "%s tokens (%s × %s epochs), sequence %s, global batch %s, %s, %s",
                                                         qm_report_plural_n (w->epochs)),
                                            qm_report_short_count (e->tokens), qm_report_short_count (w->tokens),
                                            qm_report_num (w->epochs, w->epochs == floor (w->epochs) ? 0 : 2),
                                            qm_report_num (w->seq_len, 0), qm_report_num (w->global_batch, 0),
                                            qm_precision_to_string (w->precision),
                                            qm_optimizer_to_string (w->optimizer));

      /* Translators: a row of the inputs table. */
      ROW (_("Training"), t);
      /* Translators: the parallel layout: tensor, pipeline, data, context
       * and expert parallel degrees (TP … EP, not translated), the
       * micro-batch, the ZeRO stage and the activation recompute. */
      parallel = g_strdup_printf (_("TP %u, PP %u, DP %u, CP %u, EP %u; micro-batch %u; ZeRO-%u; recompute %s"),
                                  e->parallelism.tp, e->parallelism.pp, e->parallelism.dp,
                                  e->parallelism.cp, e->parallelism.ep, e->parallelism.micro_batch,
                                  e->parallelism.zero_stage,
                                  qm_report_recompute_word (e->parallelism.recompute));
      ROW (_("Parallelism"), parallel);
      {
        g_autofree char *m = g_strdup_printf ("%s%% (%s)", qm_report_num (100 * e->mfu, 1), qm_report_mfu_basis (e->mfu_source));
        ROW (_("MFU"), m);
      }
    }
  else
    {
      /* Translators: the serving inputs: requests a minute, input and
       * output tokens per request, and the precisions ("bf16", "fp8") of
       * the weights and of the KV cache. */
      g_autofree char *t = g_strdup_printf (_("%s requests/min, %s input + %s output tokens, weights %s, KV cache %s"),
                                            qm_report_num (w->inference.requests_per_minute, 0),
                                            qm_report_num (w->inference.input_tokens, 0),
                                            qm_report_num (w->inference.output_tokens, 0),
                                            qm_precision_to_string (w->inference.weight_precision),
                                            qm_precision_to_string (w->inference.kv_precision));
      ROW (_("Serving"), t);
    }
  if (w->deadline_days > 0)
    /* Translators: the plan's target; %s is a duration such as "30 days". */
    target = g_strdup_printf (_("finish within %s"), qm_report_days (w->deadline_days));
  else
    /* Translators: the plan's target; %s is a GPU count. */
    target = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s GPU", "%s GPUs", qm_report_plural_n (w->target_gpus)),
                              qm_report_num (w->target_gpus, 0));
  /* Translators: a row of the inputs table: a GPU count or a deadline. */
  ROW (_("Target"), target);
  /* Translators: the GPU model in the server model; the network's and the
   * storage's catalog ids (or "none"). */
  hardware = g_strdup_printf (_("%s in %s; network %s; storage %s"), qm_report_gpu_name (plan), qm_report_server_name (plan),
                              plan->network_id[0] ? plan->network_id : C_("no network", "none"),
                              plan->storage_id[0] ? plan->storage_id : C_("no storage", "none"));
  ROW (_("Hardware"), hardware);
  /* Translators: the PUE; the electricity price; the power limit and the
   * rack units (U) per rack; the grid's carbon intensity. */
  facility = g_strdup_printf (_("PUE %s, %s per kWh, %s kW and %u U per rack, %s g CO₂e/kWh"),
                              qm_report_num (plan->facility.pue, 2), qm_report_money_exact (plan->facility.usd_per_kwh, cur),
                              qm_report_num (plan->facility.rack_kw, 0), plan->facility.rack_units,
                              qm_report_num (plan->facility.gco2_per_kwh, 0));
  ROW (_("Facility"), facility);
  if (qm_report_is_buy (plan))
    /* Translators: the pricing of a bought cluster; %s is the years the
     * hardware is written off over. */
    pricing = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Buy, amortised over %s year",
                                            "Buy, amortised over %s years",
                                            qm_report_plural_n (plan->pricing.amortization_years)),
                               qm_report_num (plan->pricing.amortization_years, 0));
  else if (plan->offer_id[0])
    /* Translators: "Rent, on demand" or "Rent, reserved", then a cloud
     * offer's catalog id. */
    pricing = g_strdup_printf (_("%s, offer %s"), qm_report_pricing_label (plan->pricing.mode), plan->offer_id);
  else
    pricing = g_strdup (qm_report_pricing_label (plan->pricing.mode));
  ROW (_("Pricing"), pricing);
#undef ROW
  qm_document_end_table (doc);
}
