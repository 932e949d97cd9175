/* fuzz-plan.c: libFuzzer target for the plan reader (built with clang).
 * Every input must either load or fail with a QM_PLAN_ERROR; a loaded plan
 * must estimate and serialise without crashing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>

#include "qm-estimate-json.h"
#include "qm-plan.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);
  QmPlan plan;

  if (qm_plan_load_from_data (&plan, text, -1, &warnings, &error))
    {
      QmEstimate e;
      g_autofree char *json = NULL;
      g_autofree char *back = NULL;

      qm_estimate (&plan, &e);
      json = qm_estimate_to_json (&plan, &e, NULL);
      back = qm_plan_to_data (&plan, NULL);
    }
  else
    g_assert (error != NULL && error->domain == QM_PLAN_ERROR);
  return 0;
}
