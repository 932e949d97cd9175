/* qm-cost.c: bill of materials, buy vs rent, cost per run, break-even.
 *
 * Every priced line carries the catalog entry's id, source and date, so a
 * quote says where each price came from (issue #4).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-cost.h"

/* How far the break-even is looked for: 100 years, past any horizon. */
#define BREAK_EVEN_MONTHS 1200

static const char *install_source =
  "assumption: installation and commissioning as a fraction of the hardware";

/* A price from the catalog: never negative or non-finite in the output.
 * Zero means "not sold this way" (QmCatalogInfo); warn only if it is used. */
static double
checked_price (QmCost     *out,
               double      v,
               const char *field,
               double      qty)
{
  if (!isfinite (v) || v < 0.0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, field, N_("price must be >= 0"), v);
      return 0.0;
    }
  if (v == 0.0 && qty > 0.0)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, field, N_("no price; the line costs 0"), 0);
  return v;
}

static void
add_line (QmCost              *out,
          const char          *item,
          const QmCatalogInfo *info,
          double               qty,
          double               unit_usd)
{
  QmBomLine *line;

  if (!(qty > 0.0) || out->n_bom >= QM_BOM_MAX)
    return;
  line = &out->bom[out->n_bom++];
  line->item = item;
  line->catalog_id = info ? info->id : NULL;
  line->qty = qty;
  line->unit_usd = unit_usd;
  line->total_usd = qty * unit_usd;
  line->source = info ? info->source : NULL;
  line->as_of = info ? info->as_of : NULL;
  line->lead_weeks = info ? info->lead_weeks : 0.0;
  line->support_rate = info ? info->support_rate : 0.0;
}

/* The hardware bill of materials (buy). Returns the hardware total. */
static double
build_bom (const QmCostInput *in,
           QmCost            *out)
{
  const QmCluster *cl = in->cluster;
  const QmServerSpec *srv = in->server;
  const QmNetworkSpec *net = in->network;
  /* A server that names its GPU (DGX, HGX) is a complete system: GPUs and
   * NICs are in its price. A generic chassis (gpu_id NULL) buys them apart. */
  gboolean parts_apart = srv->gpu_id == NULL;
  double total = 0.0, qty;

  add_line (out, N_("Servers"), &srv->info, cl->nodes,
            checked_price (out, srv->info.price_usd, "hardware.server.price_usd", cl->nodes));

  if (parts_apart && in->gpu != NULL)
    {
      qty = (double) cl->nodes * srv->gpus;
      add_line (out, N_("GPUs"), &in->gpu->info, qty,
                checked_price (out, in->gpu->info.price_usd, "hardware.gpu.price_usd", qty));
    }

  if (net != NULL)
    {
      if (parts_apart)
        {
          qty = (double) cl->nodes * srv->nics;
          add_line (out, N_("Compute NICs"), &net->info, qty,
                    checked_price (out, net->nic_usd, "hardware.network.nic_usd", qty));
        }
      qty = cl->network.leaf_switches + cl->network.spine_switches + cl->network.core_switches;
      add_line (out, N_("Compute fabric switches"), &net->info, qty,
                checked_price (out, net->info.price_usd, "hardware.network.price_usd", qty));
      qty = cl->storage_network.leaf_switches + cl->storage_network.spine_switches
          + cl->storage_network.core_switches;
      add_line (out, N_("Storage fabric switches"), &net->info, qty,
                checked_price (out, net->info.price_usd, "hardware.network.price_usd", qty));
      /* Management cabling is Cat6 and not priced. */
      qty = cl->network.cables + cl->storage_network.cables;
      add_line (out, N_("Fabric cables"), &net->info, qty,
                checked_price (out, net->cable_usd, "hardware.network.cable_usd", qty));
      add_line (out, N_("Optical transceivers"), &net->info, cl->transceivers,
                checked_price (out, net->transceiver_usd, "hardware.network.transceiver_usd",
                               cl->transceivers));
    }

  if (in->mgmt_network != NULL)
    add_line (out, N_("Management switches"), &in->mgmt_network->info, cl->mgmt_switches,
              checked_price (out, in->mgmt_network->info.price_usd,
                             "hardware.mgmt_network.price_usd", cl->mgmt_switches));

  /* Racks: liquid-cooled ones for the compute racks when needed. A
   * rack-scale system's compute racks come with it (enclosure, power
   * shelves, manifolds: in the system's price), so only the network and
   * storage racks are bought. */
  if (srv->rack_scale)
    {
      if (in->rack != NULL)
        add_line (out, N_("Racks"), &in->rack->info, cl->racks - cl->compute_racks,
                  checked_price (out, in->rack->info.price_usd, "facility.rack.price_usd",
                                 cl->racks - cl->compute_racks));
    }
  else if (cl->liquid_cooling && in->liquid_rack != NULL)
    {
      add_line (out, N_("Liquid-cooled racks"), &in->liquid_rack->info, cl->compute_racks,
                checked_price (out, in->liquid_rack->info.price_usd,
                               "facility.liquid_rack.price_usd", cl->compute_racks));
      if (in->rack != NULL)
        add_line (out, N_("Racks"), &in->rack->info, cl->racks - cl->compute_racks,
                  checked_price (out, in->rack->info.price_usd, "facility.rack.price_usd",
                                 cl->racks - cl->compute_racks));
    }
  else if (in->rack != NULL)
    add_line (out, N_("Racks"), &in->rack->info, cl->racks,
              checked_price (out, in->rack->info.price_usd, "facility.rack.price_usd", cl->racks));

  if (in->pdu != NULL)
    {
      /* Each of the A/B PDU sets must carry the fullest rack alone. */
      double per_set = in->pdu->kw_limit > 0.0 && cl->rack_kw_peak > 0.0
                     ? ceil (cl->rack_kw_peak / in->pdu->kw_limit) : 1.0;
      qty = (double) cl->racks * QM_COST_PDUS_PER_RACK * MAX (per_set, 1.0);
      add_line (out, N_("Rack PDUs"), &in->pdu->info, qty,
                checked_price (out, in->pdu->info.price_usd, "facility.pdu.price_usd", qty));
    }

  if (in->storage != NULL)
    {
      add_line (out, N_("Storage capacity (TB)"), &in->storage->info, cl->storage_tb,
                checked_price (out, in->storage->usd_per_tb, "hardware.storage.usd_per_tb",
                               cl->storage_tb));
      add_line (out, N_("Storage write bandwidth (GB/s)"), &in->storage->info, cl->storage_extra_gbs,
                checked_price (out, in->storage->usd_per_gbs, "hardware.storage.usd_per_gbs",
                               cl->storage_extra_gbs));
    }

  for (guint i = 0; i < out->n_bom; i++)
    total += out->bom[i].total_usd;
  return total;
}

/* The installation line: a share of the hardware (the plan's, else the
 * default assumption). */
static void
add_installation (const QmCostInput *in,
                  QmCost            *out)
{
  double install_fraction = in->install_fraction;

  if (!isfinite (install_fraction) || install_fraction == 0.0)
    install_fraction = QM_COST_INSTALL_FRACTION_DEFAULT;
  install_fraction = MAX (install_fraction, 0.0);
  out->install_usd = out->hardware_usd * install_fraction;
  if (out->install_usd > 0.0 && out->n_bom < QM_BOM_MAX)
    {
      QmBomLine *line = &out->bom[out->n_bom++];
      line->item = N_("Installation");
      line->qty = install_fraction;
      line->unit_usd = out->hardware_usd;
      line->total_usd = out->install_usd;
      line->source = install_source;
    }
}

/* @v when it is a number >= 0; else 0, with an error on @path. */
static double
nonnegative (QmCost     *out,
             double      v,
             const char *path)
{
  if (isfinite (v) && v >= 0.0)
    return v;
  qm_issues_add (&out->issues, QM_ISSUE_ERROR, path, N_("must be >= 0"), v);
  return 0.0;
}

/* The price of a GPU-hour: the plan's, else the cloud offer's (reserved
 * or on demand); when buying, the rent to compare with, or 0. */
static double
gpu_hour_price (const QmCostInput *in,
                QmCost            *out,
                gboolean          *offer_used)
{
  const QmPricing *pr = in->pricing;
  double rent_price = pr->usd_per_gpu_hour;

  if (in->offer != NULL && !(isfinite (rent_price) && rent_price > 0.0))
    {
      rent_price = pr->mode == QM_PRICING_RENT_RESERVED
                 ? in->offer->usd_per_gpu_hour_reserved
                 : in->offer->usd_per_gpu_hour_on_demand;
      *offer_used = TRUE;
    }
  if (pr->mode != QM_PRICING_BUY)
    return checked_price (out, rent_price, "pricing.usd_per_gpu_hour", in->cluster->gpus);
  if (isfinite (in->rent_usd_per_gpu_hour) && in->rent_usd_per_gpu_hour > 0.0)
    return in->rent_usd_per_gpu_hour;
  if (!(isfinite (rent_price) && rent_price > 0.0))
    return 0.0;
  return rent_price;
}

void
qm_cost_compute (const QmCostInput *in,
                 QmCost            *out)
{
  const QmPricing *pr;
  const QmFacility *fac;
  const QmPower *pw;
  double run_months, run_hours, years, months;
  double buy_upfront, buy_opex, rent_price, storage_monthly, egress;
  double support_fraction, usd_per_kwh, colo;
  guint n_hw;
  gboolean offer_used = FALSE;

  memset (out, 0, sizeof *out);
  g_return_if_fail (in != NULL && in->cluster != NULL && in->power != NULL &&
                    in->server != NULL && in->facility != NULL && in->pricing != NULL);
  pr = in->pricing;
  fac = in->facility;
  pw = in->power;

  run_hours = (isfinite (in->run_s) && in->run_s > 0.0) ? in->run_s / 3600.0 : 0.0;
  run_months = run_hours / QM_HOURS_PER_MONTH;

  /* ---- Buy: the bill of materials and the cost of owning it. ---- */
  out->hardware_usd = build_bom (in, out);
  add_installation (in, out);
  buy_upfront = out->hardware_usd + out->install_usd;

  years = pr->amortization_years;
  if (!(isfinite (years) && years > 0.0))
    {
      if (pr->mode == QM_PRICING_BUY)
        qm_issues_add (&out->issues, QM_ISSUE_ERROR, "pricing.amortization_years",
                       N_("must be > 0; amortising over the run alone"), years);
      months = MAX (run_months, 1.0);
    }
  else
    months = years * 12.0;
  out->horizon_months = months;

  usd_per_kwh = (isfinite (fac->usd_per_kwh) && fac->usd_per_kwh > 0.0) ? fac->usd_per_kwh : 0.0;
  colo = nonnegative (out, fac->colo_usd_per_kw_month, "facility.colo_usd_per_kw_month");
  support_fraction = nonnegative (out, pr->support_fraction, "pricing.support_fraction");

  out->amortization_monthly = buy_upfront / months;
  /* Energy at average facility power; colocation billed on provisioned IT
   * kW; support as a yearly fraction of the hardware. */
  out->power_monthly = pw->facility_avg_kw * QM_HOURS_PER_MONTH * usd_per_kwh;
  out->colo_monthly = pw->it_peak_kw * colo;
  out->support_monthly = out->hardware_usd * support_fraction / 12.0;
  buy_opex = out->power_monthly + out->colo_monthly + out->support_monthly;

  /* ---- Rent: GPU-hours at the offer's price, plus storage and egress. ---- */
  rent_price = gpu_hour_price (in, out, &offer_used);
  out->rent_usd_per_gpu_hour = rent_price;
  /* Buying compares with the offer's rate when the estimate passed it in
   * (the plan gave no price), as gpu_hour_price() picks it. */
  out->rent_price_from_offer = rent_price > 0.0 &&
                               (offer_used || (pr->mode == QM_PRICING_BUY &&
                                               isfinite (in->rent_usd_per_gpu_hour) &&
                                               in->rent_usd_per_gpu_hour > 0.0));

  out->rent_monthly = in->cluster->gpus * QM_HOURS_PER_MONTH * rent_price;
  storage_monthly = 0.0;
  if (in->storage != NULL && isfinite (in->storage->usd_per_tb_month)
      && in->storage->usd_per_tb_month > 0.0)
    storage_monthly = in->cluster->storage_tb * in->storage->usd_per_tb_month;
  egress = 0.0;
  if (isfinite (in->egress_bytes) && in->egress_bytes > 0.0
      && isfinite (in->usd_per_gb_egress) && in->usd_per_gb_egress > 0.0)
    egress = in->egress_bytes / 1e9 * in->usd_per_gb_egress;
  out->gpu_hours = in->cluster->gpus * run_hours;

  if (pr->mode == QM_PRICING_BUY)
    {
      out->upfront = buy_upfront;
      out->monthly = out->amortization_monthly + buy_opex;
      out->run = out->monthly * run_months;
      out->total = out->monthly * months;
    }
  else
    {
      const QmStorageSpec *st = in->storage;

      /* The rent quote replaces the hardware lines. */
      n_hw = out->n_bom;
      out->n_bom = 0;
      memset (out->bom, 0, sizeof out->bom[0] * n_hw);
      add_line (out, N_("GPU-hours"), offer_used ? &in->offer->info : NULL, out->gpu_hours, rent_price);
      add_line (out, N_("Storage (TB-months)"), st ? &st->info : NULL,
                in->cluster->storage_tb * run_months, st ? st->usd_per_tb_month : 0.0);
      if (egress > 0.0)
        add_line (out, N_("Egress (GB)"), NULL, in->egress_bytes / 1e9, in->usd_per_gb_egress);

      out->storage_monthly = storage_monthly;
      out->upfront = 0.0;
      out->monthly = out->rent_monthly + storage_monthly;
      out->run = out->gpu_hours * rent_price + storage_monthly * run_months + egress;
      out->total = out->monthly * months + egress;
    }

  /* Break-even: buying everything at the order (the upfront in month 0,
   * then the running cost each month) against renting the same GPUs and
   * storage each month. A buy plan's estimate replaces it with its quote
   * cash flow's (qm-estimate-modules.c). */
  if (rent_price > 0.0 && buy_upfront > 0.0)
    {
      g_autofree double *buy = g_new (double, BREAK_EVEN_MONTHS);
      g_autofree double *rent = g_new (double, BREAK_EVEN_MONTHS);

      for (guint m = 0; m < BREAK_EVEN_MONTHS; m++)
        {
          buy[m] = (m == 0 ? buy_upfront : 0.0) + buy_opex;
          rent[m] = out->rent_monthly + storage_monthly;
        }
      out->break_even_valid = qm_break_even_month (buy, rent, BREAK_EVEN_MONTHS, &out->break_even_month);
    }
}

gboolean
qm_break_even_month (const double *buy,
                     const double *rent,
                     guint         n,
                     guint        *month)
{
  double buy_sum = 0.0, rent_sum = 0.0;
  gboolean above = FALSE;

  for (guint m = 0; m < n; m++)
    {
      buy_sum += buy[m];
      rent_sum += rent[m];
      if (rent_sum <= 0.0)
        continue;
      if (buy_sum > rent_sum)
        above = TRUE;
      else if (above)
        {
          *month = m;
          return TRUE;
        }
    }
  *month = 0;
  return FALSE;
}
