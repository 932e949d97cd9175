/* qm-advisor.c: quantified what-ifs for a plan.
 *
 * Every candidate is the plan with one input changed, estimated by the same
 * qm_estimate() as any plan, so what the advisor prints is exactly what
 * "Try it" gives. Candidates come from the core's real options; the
 * strategies of the seed article 002 that the model cannot quantify
 * (deduplication, distillation, transfer learning) are guidance only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-advisor.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-plan-schema.h"

/* A change shows when it improves some figure by at least this much. */
#define MIN_GAIN 0.005

/* A modern liquid-cooled hall: Google's fleet average PUE 1.10 (Patterson
 * et al. 2021, arXiv 2104.10350, Table 4; LaMDA 1.10). */
#define EFFICIENT_PUE 1.10

/* Liquid-cooled racks: AI racks run 40-130+ kW and need liquid above about
 * 40-50 kW (estimation-anchors §5, industry figure); 80 kW is a common
 * rear-door / direct-to-chip rating. */
#define DENSE_RACK_KW 80.0

/* Restart after a failure with hot spares and in-memory checkpoints:
 * GEMINI (Wang et al., SOSP 2023) recovers from host memory in well under
 * a minute; 5 minutes leaves room for detection and rescheduling. */
#define FAST_RESTART_MINUTES 5.0

static const struct { const char *id; const char *name; } goals[] = {
  [QM_ADVISOR_GOAL_TIME] = { "time", "time" },
  [QM_ADVISOR_GOAL_COST] = { "cost", "cost" },
  [QM_ADVISOR_GOAL_ENERGY] = { "energy", "energy" },
  [QM_ADVISOR_GOAL_GPUS] = { "gpus", "GPUs" },
};

const char *
qm_advisor_goal_to_string (QmAdvisorGoal goal)
{
  g_return_val_if_fail (goal <= QM_ADVISOR_GOAL_GPUS, "time");
  return goals[goal].id;
}

gboolean
qm_advisor_goal_from_string (const char    *s,
                             QmAdvisorGoal *out)
{
  return qm_name_table_find (s, QM_NAME_TABLE (goals, id), (guint *) out);
}

typedef struct
{
  const QmPlan    *plan;
  QmAdvisorResult *out;
  QmEstimate      *scratch;
  gboolean         plan_fits;
} Advisor;

static double
metric_days (const QmEstimate *e)
{
  return e->has_training ? e->train_days : 0.0;
}

static double
metric_cost (const QmEstimate *e)
{
  /* A training run is judged by what the run costs; a service by the month. */
  if (!e->has_cost)
    return 0.0;
  return e->has_training ? e->cost.run : e->cost.monthly;
}

static double
rel (double now, double before)
{
  if (!(before > 0) || !isfinite (now) || !isfinite (before))
    return 0.0;
  return now / before - 1.0;
}

static double
score_for (QmAdvisorGoal goal,
           const QmAdvice *a)
{
  switch (goal)
    {
    case QM_ADVISOR_GOAL_COST: return a->d_cost;
    case QM_ADVISOR_GOAL_ENERGY: return a->d_energy;
    case QM_ADVISOR_GOAL_GPUS: return a->d_gpus;
    case QM_ADVISOR_GOAL_TIME:
    default: return a->d_days;
    }
}

static void
describe_effects (QmAdvice *a,
                  gboolean  made_fit)
{
  char buf[QM_ADVISOR_TEXT];
  /* "cost" is the run's (or a service's month); the money spent upfront
   * on hardware is said separately, since buyers budget it apart. */
  struct { const char *name; double d; } parts[] = {
    { C_("advice effect", "time"), a->d_days }, { C_("advice effect", "GPUs"), a->d_gpus },
    { C_("advice effect", "cost"), a->d_cost }, { C_("advice effect", "energy"), a->d_energy },
    { C_("advice effect", "upfront"), a->d_upfront },
  };
  const char *comma = C_("list separator", ", ");
  int n = 0;

  buf[0] = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (fabs (parts[i].d) >= MIN_GAIN)
      {
        n += g_snprintf (buf + n, sizeof buf - n, "%s", n > 0 ? comma : "");
        /* Translators: one change in an advice's effect, "time -22%" */
        n += g_snprintf (buf + n, sizeof buf - n, _("%s %+.0f%%"), parts[i].name, parts[i].d * 100.0);
      }
  if (made_fit)
    {
      n += g_snprintf (buf + n, sizeof buf - n, "%s", n > 0 ? comma : "");
      /* Translators: part of an advice's effect, after "time -22%, " */
      n += g_snprintf (buf + n, sizeof buf - n, _("the plan now fits in GPU memory (%.1f GB spare)"),
                       a->memory_margin / 1e9);
    }
  if (n == 0)
    g_strlcpy (buf, _("no change in time, GPUs, cost or energy"), sizeof buf);
  /* Translators: %s is the list of changes, "time -22%, cost +3%" */
  g_snprintf (a->effect, sizeof a->effect, _("Effect: %s."), buf);
}

/* Estimates @candidate and keeps it when feasible and better somewhere. */
/* A cleared item with its words; the caller fills in the figures. */
static void
advice_init (QmAdvice   *a,
             const char *id,
             const char *title,
             const char *tradeoff,
             const char *assumption)
{
  memset (a, 0, sizeof *a);
  g_strlcpy (a->id, id, sizeof a->id);
  g_strlcpy (a->title, title, sizeof a->title);
  g_strlcpy (a->tradeoff, tradeoff, sizeof a->tradeoff);
  g_strlcpy (a->assumption, assumption, sizeof a->assumption);
}

static void
consider (Advisor      *ad,
          const QmPlan *candidate,
          const char   *id,
          const char   *title,
          const char   *tradeoff,
          const char   *assumption)
{
  QmAdvisorResult *out = ad->out;
  QmEstimate *e = ad->scratch;
  QmAdvice *a;
  gboolean now_fits, better;

  if (out->n >= QM_ADVISOR_MAX)
    return;
  out->evaluated++;
  qm_estimate (candidate, e);

  /* Feasible: a valid estimate with no input errors that fits in memory. */
  now_fits = e->valid && e->fits;
  if (!now_fits || e->n_errors > 0)
    return;

  a = &out->items[out->n];
  advice_init (a, id, title, tradeoff, assumption);
  a->quantified = TRUE;
  a->days = metric_days (e);
  a->gpus = e->gpus;
  a->cost = metric_cost (e);
  a->energy_mwh = e->has_power ? e->power.energy_mwh : 0.0;
  a->memory_margin = e->memory.margin;
  a->fits = e->fits;
  a->d_days = rel (a->days, out->days);
  a->d_gpus = rel (a->gpus, out->gpus);
  a->d_cost = rel (a->cost, out->cost);
  a->d_energy = rel (a->energy_mwh, out->energy_mwh);
  a->upfront = e->has_cost ? e->cost.upfront : 0.0;
  a->d_upfront = out->upfront > 0 ? rel (a->upfront, out->upfront) : 0.0;
  a->score = score_for (out->goal, a);
  a->plan = *candidate;

  /* Better somewhere, or it makes a plan that did not fit fit. */
  better = a->d_days <= -MIN_GAIN || a->d_gpus <= -MIN_GAIN || a->d_cost <= -MIN_GAIN ||
           a->d_energy <= -MIN_GAIN || !ad->plan_fits;
  if (!better)
    return;

  describe_effects (a, !ad->plan_fits);
  out->n++;
}

static gboolean
set_hardware (QmPlan     *p,
              const char *gpu_id,
              const char *server_id)
{
  const QmGpuSpec *gpu = qm_catalog_gpu (gpu_id);
  const QmServerSpec *server = qm_catalog_server (server_id);

  if (gpu == NULL || server == NULL)
    return FALSE;
  g_strlcpy (p->gpu_id, gpu_id, sizeof p->gpu_id);
  g_strlcpy (p->server_id, server_id, sizeof p->server_id);
  p->hardware.gpu = *gpu;
  p->hardware.server = *server;
  p->gpu_embedded = p->server_embedded = FALSE;
  return TRUE;
}

/* The cheapest catalog offer for a GPU with a price in the given mode. */
static const QmCloudOffer *
cheapest_offer (const char *gpu_id,
                gboolean    reserved)
{
  const QmCloudOffer *offers, *best = NULL;
  guint n;

  offers = qm_catalog_cloud_offers (&n);
  for (guint i = 0; i < n; i++)
    {
      double price = reserved ? offers[i].usd_per_gpu_hour_reserved : offers[i].usd_per_gpu_hour_on_demand;
      double best_price;

      if (g_strcmp0 (offers[i].gpu_id, gpu_id) != 0 || !(price > 0))
        continue;
      best_price = best == NULL ? G_MAXDOUBLE
                   : reserved ? best->usd_per_gpu_hour_reserved : best->usd_per_gpu_hour_on_demand;
      if (price < best_price)
        best = &offers[i];
    }
  return best;
}

static void
use_offer (QmPlan             *p,
           const QmCloudOffer *offer,
           gboolean            reserved)
{
  p->pricing.mode = reserved ? QM_PRICING_RENT_RESERVED : QM_PRICING_RENT_ON_DEMAND;
  g_strlcpy (p->offer_id, offer->info.id, sizeof p->offer_id);
  p->pricing.usd_per_gpu_hour = reserved ? offer->usd_per_gpu_hour_reserved
                                         : offer->usd_per_gpu_hour_on_demand;
}

static void
try_precision (Advisor *ad, const QmEstimate *e)
{
  const QmPlan *plan = ad->plan;
  const QmGpuSpec *gpu = &plan->hardware.gpu;
  QmPrecision from = plan->workload.precision;
  QmPlan p = *plan;
  char tradeoff[QM_ADVISOR_TEXT], assumption[QM_ADVISOR_TEXT];

  if (plan->workload.mode == QM_MODE_INFERENCE || !e->has_training)
    return;
  if ((from != QM_PRECISION_BF16 && from != QM_PRECISION_FP16) ||
      !(gpu->tflops[QM_PRECISION_FP8] > 0) || !(gpu->tflops[from] > 0) || !(e->mfu > 0))
    return;

  /* The model's MFU is on the peak of the precision used; keep the
   * measured speed-up rather than the ratio of the peaks. */
  p.workload.precision = QM_PRECISION_FP8;
  p.workload.mfu = e->mfu * QM_ADVISOR_FP8_SPEEDUP * gpu->tflops[from] / gpu->tflops[QM_PRECISION_FP8];
  g_snprintf (tradeoff, sizeof tradeoff,
              /* Translators: %s is a GPU model. */
              _("FP8 on %s needs a framework with FP8 training recipes (Transformer Engine or "
                "equivalent); numerical risk is low for pretraining with per-tensor scaling "
                "(DeepSeek-V3 trained in FP8), but watch the loss curve."), gpu->info.name);
  g_snprintf (assumption, sizeof assumption,
              /* Translators: the first number is the measured speed-up, the second the ratio of the datasheet peaks. */
              _("Measured FP8 speed-up %.2f× over BF16 (MosaicML llm-foundry, H100), not the %.0f× of "
                "the datasheet peaks; memory as BF16 (no saving with Transformer Engine, HF Accelerate)."),
              QM_ADVISOR_FP8_SPEEDUP, gpu->tflops[QM_PRECISION_FP8] / gpu->tflops[from]);
  consider (ad, &p, "precision-fp8", _("Train in FP8"), tradeoff, assumption);
}

static void
try_memory_knobs (Advisor *ad)
{
  const QmPlan *plan = ad->plan;
  QmPlan p;

  if (plan->workload.mode == QM_MODE_INFERENCE)
    return;

  for (guint z = plan->workload.zero_stage + 1; z <= 3; z++)
    {
      char id[32], title[128];

      p = *plan;
      p.workload.zero_stage = z;
      g_snprintf (id, sizeof id, "zero-%u", z);
      /* Translators: %u is a ZeRO stage (1-3). */
      g_snprintf (title, sizeof title, _("Shard more with ZeRO-%u"), z);
      consider (ad, &p, id, title,
                z == 3 ? _("ZeRO-3 (FSDP full shard) also shards the weights: the least memory, "
                           "at the price of gathering parameters every step (about 1.5× the "
                           "data-parallel traffic).")
                       : _("Sharding optimizer states (and gradients at ZeRO-2) over the data-parallel "
                           "GPUs frees memory with the same communication volume."),
              _("ZeRO memory model (Rajbhandari et al. 2020, §5) and the throughput model's "
                "communication cost."));
    }

  if (plan->workload.recompute != QM_RECOMPUTE_NONE)
    {
      p = *plan;
      p.workload.recompute = plan->workload.recompute == QM_RECOMPUTE_FULL ? QM_RECOMPUTE_SELECTIVE
                                                                            : QM_RECOMPUTE_NONE;
      consider (ad, &p, p.workload.recompute == QM_RECOMPUTE_SELECTIVE ? "recompute-selective" : "recompute-none",
                p.workload.recompute == QM_RECOMPUTE_SELECTIVE ? _("Recompute only attention")
                                                               : _("Stop recomputing activations"),
                _("Less recomputation saves compute (full recompute adds a forward pass) but keeps "
                  "more activations in memory."),
                /* xgettext:no-c-format */
                _("Korthikanti et al. 2022: selective recompute costs about 2-4% against 30-40% "
                  "for full recompute."));
    }

  if (plan->workload.micro_batch > 0 && plan->workload.global_batch % (plan->workload.micro_batch * 2) == 0)
    {
      p = *plan;
      p.workload.micro_batch *= 2;
      consider (ad, &p, "micro-batch", _("Double the micro-batch"),
                _("Larger micro-batches use the GPU's matrix units better and shrink the pipeline "
                  "bubble, and need more activation memory."),
                _("Throughput model (matmul shape efficiency, pipeline bubble (p−1)/m)."));
    }

  if (plan->workload.global_batch > 0 && plan->workload.global_batch <= 8192)
    {
      p = *plan;
      p.workload.global_batch *= 2;
      consider (ad, &p, "global-batch", _("Double the global batch"),
                _("A larger batch scales to more GPUs with less communication per token; beyond "
                  "the critical batch size it needs more tokens to reach the same loss, so check "
                  "it against your training recipe."),
                _("McCandlish et al. 2018 (critical batch size); gradient accumulation keeps memory the same."));
    }
}

/* The layout search's choice, offered only when it changes the plan's
 * layout: the same tp/pp/cp/ep with another schedule is named as such, and
 * the plan's own layout is never offered back to it. */
static void
try_layout (Advisor          *ad,
            const QmEstimate *base)
{
  const QmPlan *plan = ad->plan;
  const QmWorkload *w = &plan->workload;
  const QmParallelism *now = &base->parallelism, *found;
  QmPlan p = *plan;
  QmAdvice *a;
  guint before = ad->out->n;

  if (w->mode == QM_MODE_INFERENCE)
    return;
  if (w->tp == 0 && w->pp == 0 && w->cp == 0 && w->ep == 0)
    return;

  p.workload.tp = p.workload.pp = p.workload.cp = p.workload.ep = 0;
  consider (ad, &p, "layout-auto", _("Use the fastest parallel layout"),
            _("Let the layout search pick tensor, pipeline, context and expert parallelism for "
              "this cluster instead of the fixed layout."),
            _("Throughput model and layout search (Narayanan et al. 2021, Korthikanti et al. "
              "2022); the MFU stays as the plan gives it unless the plan leaves it to the model."));
  if (ad->out->n == before)
    return;
  /* consider() left the candidate's estimate in the scratch. */
  a = &ad->out->items[before];
  found = &ad->scratch->parallelism;
  if (found->tp != now->tp || found->pp != now->pp || found->cp != now->cp || found->ep != now->ep)
    {
      /* Translators: an advice's title; the layout the search found */
      g_snprintf (a->title, sizeof a->title, _("Use the fastest parallel layout: tp %u, pp %u, cp %u, ep %u"),
                  found->tp, found->pp, found->cp, found->ep);
    }
  else if (found->virtual_stages != now->virtual_stages && found->virtual_stages > 1)
    {
      /* Translators: an advice's title; v is the number of model chunks per pipeline stage */
      g_snprintf (a->title, sizeof a->title, _("Interleave the pipeline schedule (v = %u)"),
                  found->virtual_stages);
      g_strlcpy (a->tradeoff,
                 _("Keep the plan's tensor, pipeline, context and expert parallelism and split each "
                   "pipeline stage into interleaved model chunks: a smaller pipeline bubble for more "
                   "point-to-point traffic and activation memory."),
                 sizeof a->tradeoff);
    }
  else
    /* The plan already has the searched layout: nothing to offer. */
    ad->out->n = before;
}

static void
try_gpu_generation (Advisor *ad)
{
  static const struct { const char *from_family; const char *gpu; const char *server; } upgrades[] = {
    { "v100", "a100-sxm-80gb", "dgx-a100" },
    { "a100", "h100-sxm-80gb", "dgx-h100" },
    { "h100", "h200-sxm-141gb", "dgx-h200" },
    { "h100", "b200-sxm-180gb", "dgx-b200" },
  };
  const QmPlan *plan = ad->plan;

  for (guint i = 0; i < G_N_ELEMENTS (upgrades); i++)
    {
      QmPlan p = *plan;
      const QmGpuSpec *gpu;
      char id[32], title[128], tradeoff[QM_ADVISOR_TEXT];

      if (g_strcmp0 (plan->hardware.gpu.family, upgrades[i].from_family) != 0 ||
          g_strcmp0 (plan->gpu_id, upgrades[i].gpu) == 0)
        continue;
      if (!set_hardware (&p, upgrades[i].gpu, upgrades[i].server))
        continue;
      gpu = &p.hardware.gpu;

      /* Renting: the cheapest catalog offer for the new GPU. */
      if (p.pricing.mode != QM_PRICING_BUY)
        {
          const QmCloudOffer *offer = cheapest_offer (upgrades[i].gpu, p.pricing.mode == QM_PRICING_RENT_RESERVED);

          if (offer == NULL)
            offer = cheapest_offer (upgrades[i].gpu, FALSE);
          if (offer == NULL)
            continue;
          use_offer (&p, offer, p.pricing.mode == QM_PRICING_RENT_RESERVED && offer->usd_per_gpu_hour_reserved > 0);
        }

      g_snprintf (id, sizeof id, "gpu-%s", upgrades[i].gpu);
      /* Translators: %s is a GPU model, such as "H100 SXM 80 GB". */
      g_snprintf (title, sizeof title, _("Use %s"), gpu->info.name);
      g_snprintf (tradeoff, sizeof tradeoff,
                  /* Translators: a GPU model, its dense BF16 TFLOPS, its memory in GB and its memory bandwidth in TB/s. */
                  _("%s: %.0f dense BF16 TFLOPS, %.0f GB at %.1f TB/s; check availability and lead times."),
                  gpu->info.name, gpu->tflops[QM_PRECISION_BF16], gpu->memory_gb, gpu->bandwidth_tbs);
      consider (ad, &p, id, title, tradeoff,
                _("Catalog datasheet figures and reference prices; the plan's MFU carried over "
                  "to the newer part when the plan gives one."));
    }
}

/* The plan rented from @offer (none: nothing to consider). */
static void
consider_offer (Advisor            *ad,
                const QmCloudOffer *offer,
                gboolean            reserved,
                const char         *id,
                const char         *title,
                const char         *tradeoff)
{
  QmPlan p;

  if (offer == NULL)
    return;
  p = *ad->plan;
  use_offer (&p, offer, reserved);
  consider (ad, &p, id, title, tradeoff, offer->info.source);
}

static void
try_pricing (Advisor *ad)
{
  const QmPlan *plan = ad->plan;
  const QmCloudOffer *on_demand = cheapest_offer (plan->gpu_id, FALSE);
  const QmCloudOffer *reserved = cheapest_offer (plan->gpu_id, TRUE);
  QmPlan p;

  if (plan->pricing.mode == QM_PRICING_BUY)
    {
      consider_offer (ad, on_demand, FALSE, "rent-on-demand", _("Rent instead of buying"),
                      _("Renting needs no upfront spend and no facility, and costs more per GPU-hour "
                        "over a long horizon."));
      consider_offer (ad, reserved, TRUE, "rent-reserved", _("Rent reserved capacity"),
                      _("Reserved or committed capacity costs less per GPU-hour than on-demand, "
                        "for a term commitment."));
    }
  else
    {
      if (plan->pricing.mode == QM_PRICING_RENT_ON_DEMAND)
        consider_offer (ad, reserved, TRUE, "rent-reserved", _("Reserve instead of on-demand"),
                        _("Reserved capacity costs less per GPU-hour, for a term commitment."));
      if (plan->hardware.server.info.price_usd > 0)
        {
          p = *plan;
          p.pricing.mode = QM_PRICING_BUY;
          p.offer_id[0] = '\0';
          consider (ad, &p, "buy", _("Buy the cluster"),
                    _("Buying costs the hardware upfront and pays off against renting over the "
                      "amortisation period; it needs a facility."),
                    _("Catalog reference prices; amortisation, power and colocation as in the plan."));
        }
    }
}

static void
try_facility (Advisor *ad)
{
  const QmPlan *plan = ad->plan;
  QmPlan p;
  char assumption[QM_ADVISOR_TEXT];

  if (plan->workload.mode != QM_MODE_INFERENCE && plan->restart_minutes > FAST_RESTART_MINUTES)
    {
      p = *plan;
      p.restart_minutes = FAST_RESTART_MINUTES;
      g_snprintf (assumption, sizeof assumption,
                  /* Translators: the new and the current restart time in minutes. */
                  _("Restart in %.0f minutes instead of %.0f: hot spares and in-memory checkpoints "
                    "(GEMINI, Wang et al. SOSP 2023); Young/Daly checkpoint interval re-optimised."),
                  FAST_RESTART_MINUTES, plan->restart_minutes);
      consider (ad, &p, "fast-restart", _("Recover from failures faster"),
                _("Keeping spare nodes ready and checkpoints in host memory cuts the time each "
                  "interruption costs."), assumption);
    }

  if (plan->pricing.mode == QM_PRICING_BUY && plan->facility.rack_kw < DENSE_RACK_KW)
    {
      p = *plan;
      p.facility.rack_kw = DENSE_RACK_KW;
      consider (ad, &p, "dense-racks", _("Use liquid-cooled 80 kW racks"),
                _("Denser racks need fewer racks, PDUs and floor space, and need liquid cooling "
                  "in the facility."),
                _("Air cooling tops out around 40-50 kW per rack (estimation-anchors §5)."));
    }

  if (plan->facility.pue > EFFICIENT_PUE + 0.02)
    {
      p = *plan;
      p.facility.pue = EFFICIENT_PUE;
      g_snprintf (assumption, sizeof assumption,
                  /* Translators: the proposed and the current PUE. */
                  _("PUE %.2f instead of %.2f: Google's fleet and LaMDA's data centre run at 1.10 "
                    "(Patterson et al. 2021)."), EFFICIENT_PUE, plan->facility.pue);
      consider (ad, &p, "efficient-facility", _("Run in a more efficient facility"),
                _("A lower PUE spends less energy on cooling and power conversion; it depends on "
                  "the site."), assumption);
    }
}

/* The plan fine-tuned in @mode instead (rank 16 unless it has one). */
static void
consider_mode (Advisor    *ad,
               QmMode      mode,
               const char *id,
               const char *title,
               const char *tradeoff,
               const char *assumption)
{
  QmPlan p = *ad->plan;

  p.workload.mode = mode;
  if (p.workload.lora_rank == 0)
    p.workload.lora_rank = 16;
  consider (ad, &p, id, title, tradeoff, assumption);
}

static void
try_fine_tuning (Advisor *ad)
{
  QmMode mode = ad->plan->workload.mode;

  if (mode == QM_MODE_FINETUNE)
    consider_mode (ad, QM_MODE_LORA, "lora", _("Fine-tune with LoRA"),
                   _("LoRA trains small adapters on frozen weights: far less memory for gradients and "
                     "optimizer states; it matches full fine-tuning on many tasks but not all."),
                   _("Hu et al. 2021 (LoRA); memory model with frozen base weights."));
  if (mode == QM_MODE_LORA || mode == QM_MODE_FINETUNE)
    consider_mode (ad, QM_MODE_QLORA, "qlora", _("Fine-tune with QLoRA"),
                   _("QLoRA keeps the frozen weights in 4 bits: the least memory per GPU, with a "
                     "small quality cost and slower steps from dequantisation."),
                   _("Dettmers et al. 2023 (QLoRA, NF4 weights)."));
}

/* What the advisor cannot put a number on, and the modes it applies in. */
static const struct
{
  const char *id;
  const char *title;
  const char *text;
  const char *source;
  guint       modes;
} guidance[] = {
  { "deduplicate", N_("Deduplicate the training data"),
    N_("Removing near-duplicate documents can reach the same quality with fewer training "
       "steps. The gain depends on your corpus, so Quartermaster does not put a number on it."),
    N_("Lee et al. 2022, \"Deduplicating Training Data Makes Language Models Better\" (ACL)."),
    QM_PLAN_MODES_TRAINING },
  { "fine-tune-instead", N_("Fine-tune an existing model instead"),
    N_("Starting from an open pretrained model and fine-tuning it often meets the need "
       "for a small fraction of the compute of pretraining."),
    N_("Seed article 002 (transfer learning); Howard and Ruder 2018 (ULMFiT)."),
    QM_PLAN_MODE (QM_MODE_PRETRAIN) },
  { "distill", N_("Distil a smaller model for serving"),
    N_("A smaller student trained on a large model's outputs serves at a fraction of the "
       "cost; it needs the large model first."),
    /* xgettext:no-c-format */
    N_("Hinton et al. 2015; Sanh et al. 2019 (DistilBERT: 40% smaller, 97% of the quality)."),
    QM_PLAN_MODES_TRAINING },
};

static void
add_guidance (QmAdvisorResult *out,
              const QmPlan    *plan)
{
  for (guint i = 0; i < G_N_ELEMENTS (guidance) && out->n_guidance < QM_ADVISOR_GUIDANCE; i++)
    if (guidance[i].modes & QM_PLAN_MODE (plan->workload.mode))
      advice_init (&out->guidance[out->n_guidance++], guidance[i].id, _(guidance[i].title),
                   _(guidance[i].text), _(guidance[i].source));
}

static int
compare_score (gconstpointer a,
               gconstpointer b)
{
  const QmAdvice *x = a, *y = b;

  return x->score < y->score ? -1 : x->score > y->score ? 1 : g_strcmp0 (x->id, y->id);
}

void
qm_advise (const QmPlan    *plan,
           QmAdvisorGoal    goal,
           QmAdvisorResult *out)
{
  g_autofree QmEstimate *base = g_new0 (QmEstimate, 1);
  Advisor ad = { plan, out, NULL, FALSE };

  memset (out, 0, sizeof *out);
  out->goal = goal;

  qm_estimate (plan, base);
  if (!base->valid)
    return;
  out->days = metric_days (base);
  out->gpus = base->gpus;
  out->cost = metric_cost (base);
  out->energy_mwh = base->has_power ? base->power.energy_mwh : 0.0;
  out->upfront = base->has_cost ? base->cost.upfront : 0.0;
  ad.plan_fits = base->fits;

  ad.scratch = g_new0 (QmEstimate, 1);
  try_precision (&ad, base);
  try_memory_knobs (&ad);
  try_layout (&ad, base);
  try_gpu_generation (&ad);
  try_pricing (&ad);
  try_facility (&ad);
  try_fine_tuning (&ad);
  g_free (ad.scratch);

  qsort (out->items, out->n, sizeof out->items[0], compare_score);
  add_guidance (out, plan);
}
