/* qm-power.c: per-component watts, IT and facility kW, cooling, energy,
 * electricity cost and carbon.
 *
 * Sources (docs/estimation-anchors.md §5):
 * - System nameplate maxima: DGX A100 6.5 kW, DGX H100 10.2 kW, DGX B200
 *   ~14.3 kW (NVIDIA user guides / datasheets). Provisioning uses these.
 * - Average power: QM_POWER_AVG_FRACTION, derived from Patterson et al. 2021
 *   measured system averages (see qm-power.h).
 * - Facility power = IT power x PUE (The Green Grid PUE definition);
 *   energy E = P x t; CO2 = E x grid intensity (LLaMA Table 15 uses the
 *   same chain: W x PUE x kgCO2e/kWh).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-power.h"

static double
nonneg (double v)
{
  return (isfinite (v) && v > 0.0) ? v : 0.0;
}

double
qm_power_node_watts (const QmServerSpec *server,
                     const QmGpuSpec    *gpu,
                     QmNodeWatts        *out)
{
  double nameplate;

  memset (out, 0, sizeof *out);
  if (server == NULL)
    return 0.0;

  /* Bottom-up: the datasheet figure of each part at its maximum. */
  out->gpus = gpu ? server->gpus * nonneg (gpu->tdp_w) : 0.0;
  out->cpus = server->cpus * nonneg (server->cpu_w);
  out->memory = nonneg (server->ram_w);
  out->nics = server->nics * nonneg (server->nic_w);
  out->storage = nonneg (server->nvme_w);
  out->other = nonneg (server->other_w);
  out->components = out->gpus + out->cpus + out->memory + out->nics + out->storage + out->other;

  /* The nameplate maximum (e.g. DGX H100 10.2 kW) also covers fan boost,
   * PSU losses and headroom; book the difference under `other`, so that the
   * components add up to what the PDU must supply. */
  nameplate = nonneg (server->power_max_w);
  if (nameplate > out->components)
    out->other += nameplate - out->components;
  out->total = MAX (nameplate, out->components);
  return out->total;
}

void
qm_power_compute (const QmPowerInput *in,
                  QmPower            *out)
{
  const QmCluster *cl;
  const QmFacility *fac;
  double nodes, switch_w = 0.0, mgmt_w = 0.0, optics_w = 0.0, storage_w = 0.0;
  double pue, run_s, hours, kwh;

  memset (out, 0, sizeof *out);
  g_return_if_fail (in != NULL && in->cluster != NULL && in->server != NULL && in->facility != NULL);
  cl = in->cluster;
  fac = in->facility;
  nodes = cl->nodes;

  qm_power_node_watts (in->server, in->gpu, &out->node);
  if (out->node.total <= 0.0)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "hardware.server.power_max_w",
                   N_("no power figure for the server"), in->server->power_max_w);
  else if (in->server->power_max_w > 0.0 && out->node.components > in->server->power_max_w * 1.0001)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "hardware.server.power_max_w",
                   N_("below the sum of the component maxima; using the sum"),
                   in->server->power_max_w);

  /* Average fraction: given, or the spec's typical/max, or the default. */
  if (isfinite (in->avg_fraction) && in->avg_fraction > 0.0)
    {
      out->avg_fraction = MIN (in->avg_fraction, 1.0);
      out->avg_basis = QM_POWER_AVG_GIVEN;
      if (in->avg_fraction > 1.0)
        qm_issues_add (&out->issues, QM_ISSUE_WARNING, "facility.avg_fraction",
                       N_("above 1; clamped to the nameplate"), in->avg_fraction);
    }
  else if (nonneg (in->server->power_typical_w) > 0.0 && out->node.total > 0.0)
    {
      out->avg_fraction = MIN (in->server->power_typical_w / out->node.total, 1.0);
      out->avg_basis = QM_POWER_AVG_TYPICAL;
    }
  else
    {
      out->avg_fraction = QM_POWER_AVG_FRACTION;
      out->avg_basis = QM_POWER_AVG_DEFAULT;
    }
  out->node_avg_w = out->node.total * out->avg_fraction;

  /* Network: fabric switches, management switches and optical modules run
   * near their rating whatever the load, so peak = average. */
  if (in->network != NULL)
    {
      switch_w = cl->switches * nonneg (in->network->power_w);
      optics_w = cl->transceivers * nonneg (in->network->transceiver_w);
    }
  if (in->mgmt_network != NULL)
    mgmt_w = cl->mgmt_switches * nonneg (in->mgmt_network->power_w);
  /* The storage blocks installed (qm-cluster.c sizes them once). */
  if (in->storage != NULL)
    storage_w = nonneg (cl->storage_w);

  out->gpus_kw = nodes * out->node.gpus / 1000.0;
  out->servers_kw = nodes * (out->node.total - out->node.gpus) / 1000.0;
  out->network_kw = (switch_w + mgmt_w + optics_w) / 1000.0;
  out->storage_kw = storage_w / 1000.0;
  out->it_peak_kw = out->gpus_kw + out->servers_kw + out->network_kw + out->storage_kw;
  out->it_avg_kw = nodes * out->node_avg_w / 1000.0 + out->network_kw + out->storage_kw;

  /* PUE = facility power / IT power, so >= 1 by definition. */
  pue = fac->pue;
  if (!isfinite (pue) || pue < 1.0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "facility.pue", N_("must be >= 1"), fac->pue);
      pue = 1.0;
    }
  else if (pue > 3.0)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "facility.pue",
                   N_("unusually high (industry average 1.58, Uptime 2023)"), pue);
  out->pue = pue;
  out->facility_peak_kw = out->it_peak_kw * pue;
  out->facility_avg_kw = out->it_avg_kw * pue;

  /* Cooling: every IT watt ends up as heat; size for the peak. */
  out->cooling_kw = out->it_peak_kw;
  out->cooling_btu_h = out->cooling_kw * 1000.0 * QM_BTU_H_PER_W;

  /* Energy over the run at average power. */
  run_s = in->run_s;
  if (!isfinite (run_s) || run_s < 0.0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "train_days", N_("must be >= 0"), run_s);
      run_s = 0.0;
    }
  hours = run_s / 3600.0;
  kwh = out->facility_avg_kw * hours;
  out->energy_mwh = kwh / 1000.0;

  if (!isfinite (fac->usd_per_kwh) || fac->usd_per_kwh < 0.0)
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "facility.usd_per_kwh", N_("must be >= 0"),
                   fac->usd_per_kwh);
  else if (fac->usd_per_kwh == 0.0)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "facility.usd_per_kwh",
                   N_("zero: electricity is not costed"), 0);
  out->electricity_usd = kwh * nonneg (fac->usd_per_kwh);

  if (!isfinite (fac->gco2_per_kwh) || fac->gco2_per_kwh < 0.0)
    qm_issues_add (&out->issues, QM_ISSUE_ERROR, "facility.gco2_per_kwh", N_("must be >= 0"),
                   fac->gco2_per_kwh);
  /* g/kWh x kWh = g; 1e6 g per tonne. */
  out->co2_tonnes = kwh * nonneg (fac->gco2_per_kwh) / 1e6;
}
