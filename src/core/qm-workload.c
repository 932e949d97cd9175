/* qm-workload.c: defaults and enum names of the workload and plan.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-workload.h"

void
qm_workload_init (QmWorkload *w)
{
  memset (w, 0, sizeof *w);
  w->mode = QM_MODE_PRETRAIN;
  w->epochs = 1;
  w->seq_len = 4096;
  w->global_batch = 1024;
  w->micro_batch = 1;
  w->precision = QM_PRECISION_BF16;
  w->optimizer = QM_OPTIMIZER_ADAMW;
  w->zero_stage = 1;
  w->recompute = QM_RECOMPUTE_SELECTIVE;
  w->virtual_stages = QM_VIRTUAL_STAGES_UNSET;
  w->flash_attention = TRUE;
  w->sequence_parallel = TRUE;
  w->cp = 1;
  w->inference.weight_precision = QM_PRECISION_BF16;
  w->inference.kv_precision = QM_PRECISION_BF16;
  w->inference.input_tokens = 1000;
  w->inference.output_tokens = 500;
}

void
qm_plan_init (QmPlan *p)
{
  memset (p, 0, sizeof *p);
  qm_workload_init (&p->workload);
  /* Facility defaults: the docs/plan-file.md example. The industry average PUE
   * is higher (Uptime Institute 2023: 1.58); AI halls quote 1.1-1.3. */
  p->facility.pue = 1.25;
  p->facility.usd_per_kwh = 0.08;
  p->facility.rack_kw = 40;
  p->facility.rack_units = 42;
  p->facility.gco2_per_kwh = 380;
  p->pricing.mode = QM_PRICING_BUY;
  p->pricing.usd_per_gpu_hour = 2.50;
  p->pricing.amortization_years = 4;
  g_strlcpy (p->pricing.currency, "USD", sizeof p->pricing.currency);
  g_strlcpy (p->reliability_preset, "llama3-production", sizeof p->reliability_preset);
  p->restart_minutes = 20;
  qm_quote_terms_init (&p->quote, NULL);
  /* 0: the store's rate table gives the rate (1 for USD). */
  p->quote.exchange_rate = 0;
}

#define NAME_TABLE(func_to, func_from, Type, table)                    \
  const char *                                                         \
  func_to (Type v)                                                     \
  {                                                                    \
    for (guint i = 0; i < G_N_ELEMENTS (table); i++)                   \
      if (table[i].value == v)                                         \
        return table[i].name;                                          \
    return table[0].name;                                              \
  }                                                                    \
  gboolean                                                             \
  func_from (const char *s, Type *out)                                 \
  {                                                                    \
    for (guint i = 0; i < G_N_ELEMENTS (table); i++)                   \
      if (g_strcmp0 (s, table[i].name) == 0)                           \
        {                                                              \
          *out = table[i].value;                                       \
          return TRUE;                                                 \
        }                                                              \
    return FALSE;                                                      \
  }

static const struct { const char *name; QmMode value; } modes[] = {
  { "pretrain", QM_MODE_PRETRAIN }, { "finetune", QM_MODE_FINETUNE },
  { "lora", QM_MODE_LORA }, { "qlora", QM_MODE_QLORA },
  { "inference", QM_MODE_INFERENCE },
};
static const struct { const char *name; QmOptimizer value; } optimizers[] = {
  { "adamw", QM_OPTIMIZER_ADAMW }, { "adamw-8bit", QM_OPTIMIZER_ADAMW_8BIT },
  { "sgd", QM_OPTIMIZER_SGD }, { "adafactor", QM_OPTIMIZER_ADAFACTOR },
};
static const struct { const char *name; QmRecompute value; } recomputes[] = {
  { "none", QM_RECOMPUTE_NONE }, { "selective", QM_RECOMPUTE_SELECTIVE },
  { "full", QM_RECOMPUTE_FULL }, { "selective-op", QM_RECOMPUTE_SELECTIVE_OP },
};
static const struct { const char *name; QmLoraTargets value; } lora_targets[] = {
  { "all", QM_LORA_TARGETS_ALL }, { "attention", QM_LORA_TARGETS_ATTENTION },
};
static const struct { const char *name; QmTpOverlap value; } tp_overlaps[] = {
  { "none", QM_TP_OVERLAP_NONE }, { "bulk", QM_TP_OVERLAP_BULK },
  { "pipelined", QM_TP_OVERLAP_PIPELINED }, { "auto", QM_TP_OVERLAP_AUTO },
};
static const struct { const char *name; QmPricingMode value; } pricing_modes[] = {
  { "buy", QM_PRICING_BUY }, { "rent", QM_PRICING_RENT_ON_DEMAND },
  { "rent-reserved", QM_PRICING_RENT_RESERVED },
};

NAME_TABLE (qm_mode_to_string, qm_mode_from_string, QmMode, modes)
NAME_TABLE (qm_optimizer_to_string, qm_optimizer_from_string, QmOptimizer, optimizers)
NAME_TABLE (qm_recompute_to_string, qm_recompute_from_string, QmRecompute, recomputes)
NAME_TABLE (qm_tp_overlap_to_string, qm_tp_overlap_from_string, QmTpOverlap, tp_overlaps)
NAME_TABLE (qm_lora_targets_to_string, qm_lora_targets_from_string, QmLoraTargets, lora_targets)
NAME_TABLE (qm_pricing_mode_to_string, qm_pricing_mode_from_string, QmPricingMode, pricing_modes)
