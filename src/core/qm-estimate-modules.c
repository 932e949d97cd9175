/* qm-estimate-modules.c: the cluster, reliability, power and cost stages,
 * the catalog parts they pick (racks, PDUs, a cloud offer) and their notes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-estimate-private.h"

/* ------------------------------------------------------------------ */
/* Catalog parts the plan does not name: racks, PDUs, a cloud offer.   */

/* The catalog's racks, liquid-cooled racks and PDUs, sorted out once so
 * that an estimate compares numbers, not kind strings. */
#define KIND_MAX 32

typedef struct
{
  const QmFacilityItem *rack[KIND_MAX];
  const QmFacilityItem *liquid[KIND_MAX];
  const QmFacilityItem *pdu[KIND_MAX];
  guint n_rack, n_liquid, n_pdu;
} FacilityKinds;

static const FacilityKinds *
facility_kinds (void)
{
  static FacilityKinds kinds;
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      guint n;
      const QmFacilityItem *items = qm_catalog_facility_items (&n);

      for (guint i = 0; i < n; i++)
        {
          if (g_strcmp0 (items[i].kind, "rack") == 0 && kinds.n_rack < KIND_MAX)
            kinds.rack[kinds.n_rack++] = &items[i];
          else if (g_strcmp0 (items[i].kind, "liquid-rack") == 0 && kinds.n_liquid < KIND_MAX)
            kinds.liquid[kinds.n_liquid++] = &items[i];
          else if (g_strcmp0 (items[i].kind, "pdu") == 0 && kinds.n_pdu < KIND_MAX)
            kinds.pdu[kinds.n_pdu++] = &items[i];
        }
      g_once_init_leave (&once, 1);
    }
  return &kinds;
}

/* Whether a part of size @it fits @need better than one of size @best:
 * the smallest that is big enough, else the biggest. */
static gboolean
closer_fit (double it,
            double best,
            double need)
{
  return (it >= need && (best < need || it < best)) || (best < need && it > best);
}

/* Of @n racks, the one that fits @need best (closer_fit ()): by its rack
 * units (the facility's, else the smallest that holds them, else the
 * tallest) or, with @by_kw, by its kW limit (the least that carries @need,
 * else the most). */
static const QmFacilityItem *
pick_rack (const QmFacilityItem *const *racks,
           guint                        n,
           gboolean                     by_kw,
           double                       need)
{
  const QmFacilityItem *best = NULL;

  for (guint i = 0; i < n; i++)
    {
      const QmFacilityItem *it = racks[i];

      if (best == NULL || (by_kw ? closer_fit (it->kw_limit, best->kw_limit, need)
                                 : closer_fit (it->rack_units, best->rack_units, need)))
        best = it;
    }
  return best;
}

/* The liquid rack for @need kW: for a server cooled by liquid by design
 * (cold plates: MI355X platform, NVL72) one with a cold-plate loop
 * (direct_liquid), as a rear-door heat exchanger cools the air that
 * leaves a rack, not a cold plate; any liquid rack when the catalog has
 * no such one. */
static const QmFacilityItem *
pick_liquid_rack (const FacilityKinds *k,
                  gboolean             direct,
                  double               need)
{
  const QmFacilityItem *loop[KIND_MAX];
  guint n = 0;

  for (guint i = 0; direct && i < k->n_liquid; i++)
    if (k->liquid[i]->direct_liquid)
      loop[n++] = k->liquid[i];
  if (n > 0)
    return pick_rack (loop, n, TRUE, need);
  return pick_rack (k->liquid, k->n_liquid, TRUE, need);
}

/* The PDU that feeds the fullest rack for the least money: each of the A/B
 * sets needs ceil (rack kW / PDU kW) of them (qm-cost.c). */
static const QmFacilityItem *
pick_pdu (double rack_kw)
{
  const FacilityKinds *k = facility_kinds ();
  const QmFacilityItem *best = NULL;
  double best_usd = G_MAXDOUBLE;

  for (guint i = 0; i < k->n_pdu; i++)
    {
      const QmFacilityItem *it = k->pdu[i];
      double usd = it->info.price_usd * (it->kw_limit > 0 && rack_kw > 0
                                         ? MAX (ceil (rack_kw / it->kw_limit), 1.0) : 1.0);

      if (usd < best_usd)
        {
          best = it;
          best_usd = usd;
        }
    }
  return best;
}

static double
offer_price (const QmCloudOffer *offer,
             gboolean            reserved)
{
  return reserved ? offer->usd_per_gpu_hour_reserved : offer->usd_per_gpu_hour_on_demand;
}

/* The plan's pricing.offer, else the cheapest catalog offer of the plan's
 * GPU that has a price of the wanted kind. */
static const QmCloudOffer *
pick_offer (const QmPlan *plan,
            gboolean      reserved)
{
  const QmCloudOffer *offers, *best = NULL;
  guint n;

  if (plan->offer_id[0] != '\0')
    return qm_catalog_cloud_offer (plan->offer_id);
  offers = qm_catalog_cloud_offers (&n);
  for (guint i = 0; i < n; i++)
    {
      double price = offer_price (&offers[i], reserved);

      if (price > 0 && g_strcmp0 (offers[i].gpu_id, plan->gpu_id) == 0
          && (best == NULL || price < offer_price (best, reserved)))
        best = &offers[i];
    }
  return best;
}

/* Tokenised data on disk: Megatron-LM's indexed dataset stores token ids as
 * uint16 when the vocabulary has fewer than 65,500 entries, else as int32
 * (megatron/core/datasets/indexed_dataset.py, DType.optimal_dtype). */
static double
bytes_per_token (const QmModelShape *shape)
{
  return shape->vocab > 0 && shape->vocab < 65500 ? 2.0 : 4.0;
}

/* ------------------------------------------------------------------ */
/* Cluster -> reliability -> power -> cost.                            */

const QmStorageSpec *
qm_estimate_plan_storage (const QmPlan *plan)
{
  return plan->storage_id[0] || plan->storage_embedded ? &plan->hardware.storage : NULL;
}

static const QmNetworkSpec *
plan_network (const QmPlan *plan)
{
  return plan->network_id[0] || plan->network_embedded ? &plan->hardware.network : NULL;
}

gboolean
qm_estimate_storage_in_servers (const QmStorageSpec *st)
{
  return st != NULL && g_strcmp0 (st->kind, "local-nvme") == 0;
}

/* LoRA checkpoints only the adapters and their optimizer states; the
 * frozen base is not rewritten. */
double
qm_estimate_checkpoint_bytes (const QmPlan       *plan,
                              const QmModelShape *shape,
                              double              params)
{
  const QmWorkload *w = &plan->workload;
  double trainable = params;

  if (w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA)
    trainable = qm_memory_lora_params_for (shape, MAX (w->lora_rank, 1u), w->lora_targets);
  return qm_checkpoint_bytes (trainable, w->precision, w->optimizer);
}

/* The cluster stage: nodes, racks, network and storage for e->gpus. What
 * storage holds: the tokenised dataset and the kept checkpoints while
 * training; the served weights otherwise. */
gboolean
qm_estimate_stage_cluster (const QmPlan      *plan,
                           QmEstimateContext *ctx,
                           QmEstimate        *e)
{
  const QmHardware *hw = &plan->hardware;
  const QmStorageSpec *st = qm_estimate_plan_storage (plan);
  QmClusterInput ci = { 0, };
  double checkpoint_bytes;

  if (e->has_training)
    {
      checkpoint_bytes = qm_estimate_checkpoint_bytes (plan, &ctx->shape, e->params);
      e->dataset_bytes = plan->workload.tokens * bytes_per_token (&ctx->shape);
    }
  else
    {
      checkpoint_bytes = e->inference.weights_bytes;
      e->dataset_bytes = 0;
      ci.checkpoints_kept = 1;
    }

  ci.gpus = e->gpus;
  ci.server = &hw->server;
  ci.gpu = &hw->gpu;
  ci.network = plan_network (plan);
  ci.storage = st;
  ci.facility = &plan->facility;
  ci.dataset_bytes = e->dataset_bytes;
  ci.checkpoint_bytes = checkpoint_bytes;
  /* Local NVMe writes at the speed of the drives already in the servers. */
  if (qm_estimate_storage_in_servers (st))
    {
      double drives = e->nodes * hw->server.nvme_tb * st->write_gbs_per_tb * 1e9;

      ci.checkpoint_target_s = drives > 0 ? checkpoint_bytes / drives : 0;
    }
  else
    ci.checkpoint_target_s = QM_ESTIMATE_CHECKPOINT_TARGET_S;
  qm_cluster_compute (&ci, &e->cluster);
  e->has_cluster = TRUE;
  qm_estimate_add_issues (e, &e->cluster.issues);
  return TRUE;
}

/* The reliability stage (training): failures, checkpoints and goodput on
 * the cluster's storage; train_days becomes the wall clock. */
gboolean
qm_estimate_stage_reliability (const QmPlan      *plan,
                               QmEstimateContext *ctx,
                               QmEstimate        *e)
{
  QmReliabilityInput ri = { 0, };
  QmFailurePreset preset = QM_FAILURE_LLAMA3_PRODUCTION;

  if (!e->has_training)
    return TRUE;
  if (!qm_failure_preset_from_string (plan->reliability_preset, &preset))
    {
      static const QmIssue unknown = {
        QM_ISSUE_ERROR, "reliability.preset",
        "unknown preset; using llama3-production", 0
      };
      qm_estimate_add_issue (e, &unknown);
    }
  ri.preset = preset;
  ri.gpus = e->gpus;
  ri.ideal_s = e->ideal_days * 86400.0;
  ri.checkpoint_bytes = qm_estimate_checkpoint_bytes (plan, &ctx->shape, e->params);
  ri.write_bytes_per_s = e->cluster.storage_write_bytes_per_s;
  ri.restart_s = plan->restart_minutes * 60.0;
  ri.rule = QM_CHECKPOINT_INTERVAL_DALY;
  qm_reliability_compute (&ri, &e->reliability);
  e->has_reliability = TRUE;
  qm_estimate_add_issues (e, &e->reliability.issues);

  /* The time the user waits includes failures; ideal_days stays beside. */
  e->train_days = e->reliability.wall_s / 86400.0;
  e->gpu_hours = e->gpus * e->train_days * 24.0;
  e->run_s = e->reliability.wall_s;
  return TRUE;
}

/* The power stage: the cluster's power over e->run_s. */
gboolean
qm_estimate_stage_power (const QmPlan      *plan,
                         QmEstimateContext *ctx,
                         QmEstimate        *e)
{
  QmPowerInput pi = { 0, };

  pi.cluster = &e->cluster;
  pi.server = &plan->hardware.server;
  pi.gpu = &plan->hardware.gpu;
  pi.network = plan_network (plan);
  pi.storage = qm_estimate_plan_storage (plan);
  pi.facility = &plan->facility;
  pi.run_s = e->run_s;
  qm_power_compute (&pi, &e->power);
  e->has_power = TRUE;
  qm_estimate_add_issues (e, &e->power.issues);
  return TRUE;
}

/* The cost stage: the catalog parts the plan does not name, then the bill
 * of materials, rent or buy, over e->run_s. Rent takes the offer's price
 * when the plan gives none; buy compares against renting for the
 * break-even. */
gboolean
qm_estimate_stage_cost (const QmPlan      *plan,
                        QmEstimateContext *ctx,
                        QmEstimate        *e)
{
  const QmHardware *hw = &plan->hardware;
  const QmStorageSpec *st = qm_estimate_plan_storage (plan);
  gboolean rent = plan->pricing.mode != QM_PRICING_BUY;
  gboolean reserved = plan->pricing.mode == QM_PRICING_RENT_RESERVED;
  QmCostInput ki = { 0, };
  const FacilityKinds *kinds = facility_kinds ();

  if (plan->pricing.usd_per_gpu_hour == 0 || plan->offer_id[0])
    e->offer = pick_offer (plan, reserved);
  if (!(isfinite (plan->pricing.usd_per_gpu_hour) && plan->pricing.usd_per_gpu_hour >= 0))
    {
      static const QmIssue bad_price = {
        QM_ISSUE_ERROR, "pricing.usd_per_gpu_hour", "price must be >= 0", 0
      };
      QmIssue issue = bad_price;

      issue.value = qm_estimate_finite_or_zero (plan->pricing.usd_per_gpu_hour);
      qm_estimate_add_issue (e, &issue);
    }
  e->rack = pick_rack (kinds->rack, kinds->n_rack, FALSE, plan->facility.rack_units);
  e->liquid_rack = e->cluster.liquid_cooling
                   ? pick_liquid_rack (kinds, hw->server.liquid_cooled, e->cluster.rack_kw_peak)
                   : NULL;
  e->pdu = pick_pdu (e->cluster.rack_kw_peak);

  ki.cluster = &e->cluster;
  ki.power = &e->power;
  ki.server = &hw->server;
  ki.gpu = &hw->gpu;
  ki.network = plan_network (plan);
  ki.storage = st;
  ki.rack = e->rack;
  ki.liquid_rack = e->liquid_rack;
  ki.pdu = e->pdu;
  ki.facility = &plan->facility;
  ki.pricing = &plan->pricing;
  ki.offer = e->offer;
  ki.run_s = e->run_s;
  if (!rent && e->offer != NULL && !(plan->pricing.usd_per_gpu_hour > 0))
    ki.rent_usd_per_gpu_hour = offer_price (e->offer, FALSE);
  qm_cost_compute (&ki, &e->cost);
  e->has_cost = TRUE;
  for (guint i = 0; i < e->cost.issues.n; i++)
    {
      const QmIssue *issue = &e->cost.issues.items[i];

      /* The servers' own drives: their bandwidth is in the server price. */
      if (qm_estimate_storage_in_servers (st) && issue->level == QM_ISSUE_WARNING &&
          g_strcmp0 (issue->field, "hardware.storage.usd_per_gbs") == 0)
        continue;
      qm_estimate_add_issue (e, issue);
    }
  return TRUE;
}

/* The notes stage: the module assumptions, in reading order. */
gboolean
qm_estimate_stage_notes (const QmPlan      *plan,
                         QmEstimateContext *ctx,
                         QmEstimate        *e)
{
  const QmModelShape *shape = &ctx->shape;
  const QmCluster *cl = &e->cluster;
  const QmPower *pw = &e->power;
  const QmCost *co = &e->cost;
  const QmPricing *pr = &plan->pricing;

  if (e->has_training)
    {
      const QmReliability *r = &e->reliability;
      const QmWorkload *w = &plan->workload;
      /* r->preset is the id that qm-reliability used: find its source. */
      QmFailurePreset preset = QM_FAILURE_LLAMA3_PRODUCTION;

      for (guint i = 0; i < QM_N_FAILURE_PRESETS; i++)
        if (qm_failure_preset_info ((QmFailurePreset) i)->id == r->preset)
          preset = (QmFailurePreset) i;
      qm_estimate_assume (e, QM_NOTE_DATASET_STORAGE, bytes_per_token (shape),
                          e->dataset_bytes / 1e12, QM_CLUSTER_CHECKPOINTS_KEPT_DEFAULT,
                          cl->storage_tb);
      qm_estimate_assume (e, QM_NOTE_CHECKPOINT, r->checkpoint_bytes / 1e9,
                          qm_checkpoint_bytes_per_param (w->precision, w->optimizer),
                          r->checkpoint_write_s, cl->storage_write_bytes_per_s / 1e9);
      qm_estimate_assume_s (e, QM_NOTE_FAILURE_PRESET, r->preset,
                            qm_failure_preset_info (preset)->source,
                            r->gpu_hours_per_failure, r->interruptions, 0);
      qm_estimate_assume (e, QM_NOTE_CHECKPOINT_INTERVAL, r->checkpoint_interval_s / 60.0,
                          r->mtbf_s / 3600.0, r->restart_s / 60.0, 0);
      qm_estimate_assume (e, QM_NOTE_GOODPUT, 100.0 * r->goodput,
                          100.0 * r->checkpoint_overhead, 100.0 * r->failure_overhead,
                          e->train_days);
    }
  else
    qm_estimate_assume (e, QM_NOTE_INFERENCE_PERIOD, e->run_s / 3600.0, 0, 0, 0);

  if (plan->hardware.server.rack_scale)
    {
      const double v[] = { plan->hardware.server.rack_units, cl->node_power_w / 1000.0,
                           plan->facility.rack_units };
      QmNote *note = qm_estimate_assume_v (e, QM_NOTE_RACKS_OWN, v, G_N_ELEMENTS (v));

      if (note)
        note->s[0] = plan->hardware.server.info.id;
    }
  else
    {
      const double v[] = { cl->nodes_per_rack, cl->nodes_per_rack_by_units,
                           cl->nodes_per_rack_by_kw, 0 };
      QmNote *note = qm_estimate_assume_v (e, QM_NOTE_RACKS, v, G_N_ELEMENTS (v));

      if (note)
        note->s[0] = cl->rack_limited_by_kw ? N_("the kW limit per rack") : N_("rack space");
    }
  if (cl->liquid_cooling)
    {
      const double v[] = {
        cl->rack_kw_peak,
        plan->facility.air_cooling_kw > 0 ? plan->facility.air_cooling_kw
                                          : QM_CLUSTER_AIR_COOLING_KW_DEFAULT,
      };
      QmNote *note = qm_estimate_assume_v (e, plan->hardware.server.liquid_cooled
                                              ? QM_NOTE_LIQUID_BY_DESIGN : QM_NOTE_LIQUID_COOLING,
                                           v, G_N_ELEMENTS (v));

      if (note)
        note->s[0] = plan->hardware.server.rack_scale ? plan->hardware.server.info.id
                     : e->liquid_rack ? e->liquid_rack->info.id : N_("no liquid rack in the catalog");
    }
  if (pw->avg_basis == QM_POWER_AVG_TYPICAL)
    qm_estimate_assume (e, QM_NOTE_POWER_AVG_TYPICAL, plan->hardware.server.power_typical_w,
                        pw->node.total, 100.0 * pw->avg_fraction, 0);
  else
    qm_estimate_assume (e, QM_NOTE_POWER_AVG_DEFAULT, 100.0 * pw->avg_fraction, 0, 0, 0);
  qm_estimate_assume (e, QM_NOTE_FACILITY, pw->pue, plan->facility.gco2_per_kwh,
                      plan->facility.usd_per_kwh, 0);
  if (cl->mgmt_switches > 0)
    qm_estimate_assume (e, QM_NOTE_MGMT_UNPRICED, cl->mgmt_switches, 0, 0, 0);

  if (pr->mode == QM_PRICING_BUY)
    {
      double pdus = 0;

      for (guint i = 0; i < co->n_bom; i++)
        if (e->pdu && co->bom[i].catalog_id == e->pdu->info.id && cl->racks > 0)
          pdus = co->bom[i].qty / cl->racks;
      qm_estimate_assume_s (e, QM_NOTE_RACK_PARTS,
                            e->rack ? e->rack->info.id : N_("(none)"),
                            e->pdu ? e->pdu->info.id : N_("(none)"), pdus, 0, 0);
      qm_estimate_assume (e, QM_NOTE_COST_BUY, co->horizon_months / 12.0,
                          100.0 * pr->support_fraction, plan->facility.colo_usd_per_kw_month,
                          100.0 * QM_COST_INSTALL_FRACTION_DEFAULT);
    }
  else if (pr->usd_per_gpu_hour > 0 || e->offer == NULL)
    qm_estimate_assume (e, QM_NOTE_COST_RENT, pr->usd_per_gpu_hour, 0, 0, 0);
  else
    qm_estimate_assume_s (e, QM_NOTE_COST_RENT_OFFER, e->offer->info.id, e->offer->info.source,
                          offer_price (e->offer, pr->mode == QM_PRICING_RENT_RESERVED), 0, 0);
  /* A buy plan's break-even is its quote's: the cash flow of its terms
   * (deposit, deliveries, tax, operations from arrival; the defaults when
   * the plan has none), which the quote, its chart and the plan view's
   * cash flow show. One definition, one figure (issue #34). */
  if (pr->mode == QM_PRICING_BUY && co->break_even_valid)
    {
      g_autofree QmQuote *quote = g_new0 (QmQuote, 1);

      qm_estimate_quote (plan, e, quote);
      e->cost.break_even_valid = quote->break_even_valid;
      e->cost.break_even_month = quote->break_even_month;
    }
  if (co->break_even_valid)
    qm_estimate_assume (e, QM_NOTE_BREAK_EVEN, co->rent_usd_per_gpu_hour, co->break_even_month, 0, 0);
  return TRUE;
}
