/* bench-advisor.c: the advisor for a large plan (405B on 16,384 H100)
 * must run well inside 50 ms so the plan view can show it live (issue #12).
 * Prints figures; asserts nothing about time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-advisor.h"
#include "qm-catalog.h"
#include "qm-plan.h"

int
main (int argc, char **argv)
{
  const char *json =
    "{ \"format\": \"quartermaster-plan\", \"version\": 1, \"name\": \"405B on 16k H100\","
    "  \"workload\": { \"mode\": \"pretrain\", \"model\": { \"preset\": \"llama-3.1-405b\" },"
    "    \"tokens_b\": 15600, \"seq_len\": 8192, \"global_batch\": 2048, \"micro_batch\": 1,"
    "    \"precision\": \"bf16\", \"optimizer\": \"adamw\", \"zero_stage\": 1, \"recompute\": \"none\","
    "    \"flash_attention\": true },"
    "  \"target\": { \"gpus\": 16384 },"
    "  \"hardware\": { \"gpu\": \"h100-sxm-80gb\", \"server\": \"dgx-h100\", \"network\": \"ib-ndr-400\", \"storage\": \"parallel-fs\" },"
    "  \"facility\": { \"pue\": 1.25, \"usd_per_kwh\": 0.08, \"rack_kw\": 40, \"rack_units\": 42, \"gco2_per_kwh\": 380 },"
    "  \"pricing\": { \"mode\": \"buy\", \"amortization_years\": 4, \"currency\": \"USD\" },"
    "  \"reliability\": { \"preset\": \"llama3-production\", \"restart_minutes\": 20 } }";
  QmPlan plan;
  g_autoptr(GError) error = NULL;
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  double best = G_MAXDOUBLE;

  if (!qm_plan_load_from_data (&plan, json, -1, NULL, &error))
    g_error ("%s", error->message);

  for (guint run = 0; run < 5; run++)
    {
      gint64 t0 = g_get_monotonic_time ();

      qm_advise (&plan, QM_ADVISOR_GOAL_TIME, r);
      best = MIN (best, (g_get_monotonic_time () - t0) / 1000.0);
    }
  g_print ("advisor: llama-3.1-405b on 16384 H100: %.2f ms (best of 5), %u candidates estimated, "
           "%u suggestions, %u guidance (target < 50 ms)\n", best, r->evaluated, r->n, r->n_guidance);
  for (guint k = 0; k < r->n; k++)
    g_print ("  %-22s %s\n", r->items[k].id, r->items[k].tradeoff);
  return 0;
}
