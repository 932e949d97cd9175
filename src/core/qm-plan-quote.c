/* qm-plan-quote.c: the plan file's quote section where it is not a row of
 * plain values: discounts by catalog id and the delivery phases (issue #22:
 * "a plan file may carry its quote inputs under quote ... so that a quote
 * can be made from a file without a store"). The rows are in
 * qm-plan-schema.c; docs/plan-format.md and docs/quotes.md describe them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-plan-private.h"

gboolean
qm_plan_quote_has (const QmPlan *p)
{
  return p->has_quote;
}

/* The section's rule: present in the file means the plan has a quote, and
 * the currency is an ISO 4217 code. */
gboolean
qm_plan_quote_check (QmPlanReader    *r,
                     const QmPlanKey *key,
                     JsonObject      *o,
                     QmPlan          *p,
                     GError         **error)
{
  p->has_quote = o != NULL;
  if (o != NULL && !qm_currency_code_valid (p->quote.currency))
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_BAD_CURRENCY, "quote.currency", TRUE,
                                 json_object_get_member (o, "currency"), NULL, 0, 0);
  return TRUE;
}

/* "discounts": { "catalog-id": 0.12, ... }: fractions off the list price. */
gboolean
qm_plan_quote_read_discounts (QmPlanReader    *r,
                              const QmPlanKey *key,
                              JsonObject      *o,
                              QmPlan          *p,
                              GError         **error)
{
  JsonObject *d;
  g_autoptr(GList) ids = NULL;

  if (!qm_plan_reader_object (r, o, "quote", "discounts", &d, error))
    return FALSE;
  if (d == NULL)
    return TRUE;
  ids = json_object_get_members (d);
  for (GList *l = ids; l != NULL; l = l->next)
    {
      const char *id = l->data;
      JsonNode *n = json_object_get_member (d, id);
      QmQuoteItemTerms *it;
      g_autofree char *path = g_strdup_printf ("quote.discounts.%s", id);
      double v;

      if (JSON_NODE_TYPE (n) != JSON_NODE_VALUE
          || json_node_get_value_type (n) == G_TYPE_STRING
          || json_node_get_value_type (n) == G_TYPE_BOOLEAN)
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_NOT_NUMBER, path, TRUE, n, NULL, 0, 0);
      v = json_node_get_double (n);
      if (!(isfinite (v) && v >= 0.0 && v <= 1.0))
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_FRACTION, path, TRUE, n, NULL, 0, 1);
      if (*id == '\0' || strlen (id) >= sizeof it->catalog_id)
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_CATALOG_ID, path, TRUE, n, NULL, 1,
                                     sizeof it->catalog_id - 1);
      if (p->quote.n_items >= QM_QUOTE_MAX_ITEMS)
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_TOO_MANY_ITEMS, "quote.discounts", TRUE, n,
                                     NULL, QM_QUOTE_MAX_ITEMS, 0);
      it = &p->quote.items[p->quote.n_items++];
      g_strlcpy (it->catalog_id, id, sizeof it->catalog_id);
      it->discount_kind = QM_DISCOUNT_FRACTION;
      it->discount = v;
    }
  return TRUE;
}

void
qm_plan_quote_write_discounts (JsonBuilder     *b,
                               const QmPlanKey *key,
                               const QmPlan    *p)
{
  gboolean any = FALSE;

  for (guint i = 0; i < p->quote.n_items; i++)
    any |= p->quote.items[i].discount_kind == QM_DISCOUNT_FRACTION;
  if (!any)
    return;
  json_builder_set_member_name (b, "discounts");
  json_builder_begin_object (b);
  for (guint i = 0; i < p->quote.n_items; i++)
    if (p->quote.items[i].discount_kind == QM_DISCOUNT_FRACTION)
      {
        json_builder_set_member_name (b, p->quote.items[i].catalog_id);
        json_builder_add_double_value (b, p->quote.items[i].discount);
      }
  json_builder_end_object (b);
}

/* "phases": [0.25, 0.25, 0.25, 0.25]: the fraction of the nodes each
 * delivery brings, one every phase_interval_months. */
gboolean
qm_plan_quote_read_phases (QmPlanReader    *r,
                           const QmPlanKey *key,
                           JsonObject      *o,
                           QmPlan          *p,
                           GError         **error)
{
  JsonNode *n = json_object_get_member (o, "phases");
  JsonArray *a;
  double sum = 0.0;

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (n))
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_NOT_FRACTION_LIST, key->path, TRUE, n,
                                 NULL, 0, 0);
  a = json_node_get_array (n);
  if (json_array_get_length (a) > QM_QUOTE_MAX_PHASES)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_TOO_MANY_PHASES, key->path, TRUE, n,
                                 NULL, QM_QUOTE_MAX_PHASES, 0);
  p->quote.n_phases = 0;
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      g_autofree char *path = g_strdup_printf ("%s[%u]", key->path, i);
      double v;

      if (JSON_NODE_TYPE (e) != JSON_NODE_VALUE
          || json_node_get_value_type (e) == G_TYPE_STRING
          || json_node_get_value_type (e) == G_TYPE_BOOLEAN)
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_NOT_NUMBER, path, TRUE, e, NULL, 0, 0);
      v = json_node_get_double (e);
      if (!(isfinite (v) && v > 0.0 && v <= 1.0))
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_PHASE_FRACTION, path, TRUE, e, NULL, 0, 1);
      p->quote.phases[p->quote.n_phases++] = v;
      sum += v;
    }
  /* A few thousandths of slack for fractions such as thirds typed as 0.33. */
  if (p->quote.n_phases > 0 && fabs (sum - 1.0) > 0.005)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_PHASES_SUM, key->path, TRUE, n, NULL, sum, 0);
  return TRUE;
}

void
qm_plan_quote_write_phases (JsonBuilder     *b,
                            const QmPlanKey *key,
                            const QmPlan    *p)
{
  if (p->quote.n_phases == 0)
    return;
  json_builder_set_member_name (b, "phases");
  json_builder_begin_array (b);
  for (guint i = 0; i < p->quote.n_phases; i++)
    json_builder_add_double_value (b, p->quote.phases[i]);
  json_builder_end_array (b);
}
