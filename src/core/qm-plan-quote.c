/* qm-plan-quote.c: the plan file's quote section where it is not a row of
 * plain values: each line's terms, the discounts by catalog id of files
 * written before them, and the delivery phases (issue #22:
 * "a plan file may carry its quote inputs under quote ... so that a quote
 * can be made from a file without a store"). The rows are in
 * qm-plan-schema.c; docs/plan-format.md and docs/quotes.md describe them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
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

/* "discounts": { "catalog-id": 0.12, ... }: fractions off the list price
 * of every line with that catalog id. What files written before per-line
 * terms (issue #35) hold; read as catalog-wide entries (an empty key), and
 * written back only for entries that no priced quote has split into its
 * lines yet (qm_quote_terms_split ()). */
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
    any |= p->quote.items[i].key[0] == '\0' && p->quote.items[i].discount_kind == QM_DISCOUNT_FRACTION;
  if (!any)
    return;
  json_builder_set_member_name (b, "discounts");
  json_builder_begin_object (b);
  for (guint i = 0; i < p->quote.n_items; i++)
    if (p->quote.items[i].key[0] == '\0' && p->quote.items[i].discount_kind == QM_DISCOUNT_FRACTION)
      {
        json_builder_set_member_name (b, p->quote.items[i].catalog_id);
        json_builder_add_double_value (b, p->quote.items[i].discount);
      }
  json_builder_end_object (b);
}

/* A number member of a line's terms, from 0 to @max; 0 when absent. */
static gboolean
read_line_number (JsonObject  *o,
                  const char  *prefix,
                  const char  *member,
                  double       max,
                  const char  *range,
                  double      *out,
                  GError     **error)
{
  JsonNode *n = json_object_get_member (o, member);
  g_autofree char *path = g_strdup_printf ("%s.%s", prefix, member);
  double v;

  *out = 0.0;
  if (n == NULL)
    return TRUE;
  if (JSON_NODE_TYPE (n) != JSON_NODE_VALUE
      || json_node_get_value_type (n) == G_TYPE_STRING
      || json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_NOT_NUMBER, path, TRUE, n, NULL, 0, 0);
  v = json_node_get_double (n);
  if (!(isfinite (v) && v >= 0.0 && v <= max))
    return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_OUT_OF_RANGE, path, TRUE, n, range, 0, max);
  *out = v;
  return TRUE;
}

/* "lines": { "compute-switches:ib-ndr-400": { "discount": 0.05,
 * "vendor": "...", "lead_weeks": 16, "support_rate": 0.08 }, ... }: the
 * terms of each line, by its key (qm_quote_line_key ()); every member may
 * be left out. */
gboolean
qm_plan_quote_read_lines (QmPlanReader    *r,
                          const QmPlanKey *key,
                          JsonObject      *o,
                          QmPlan          *p,
                          GError         **error)
{
  static const char *const members[] = { "discount", "vendor", "lead_weeks", "support_rate" };
  JsonObject *d;
  g_autoptr(GList) keys = NULL;

  if (!qm_plan_reader_object (r, o, "quote", "lines", &d, error))
    return FALSE;
  if (d == NULL)
    return TRUE;
  keys = json_object_get_members (d);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      const char *line_key = l->data;
      JsonNode *n = json_object_get_member (d, line_key);
      g_autofree char *path = g_strdup_printf ("quote.lines.%s", line_key);
      g_autoptr(GList) names = NULL;
      QmQuoteItemTerms it = { 0 };
      const char *colon;
      double discount;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_NOT_SECTION, path, TRUE, n, NULL, 0, 0);
      if (*line_key == '\0' || strlen (line_key) >= sizeof it.key)
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_TOO_LONG, path, TRUE, n, NULL,
                                     sizeof it.key, 0);
      g_strlcpy (it.key, line_key, sizeof it.key);
      /* The catalog id after the role, for people and older readers. */
      if ((colon = strchr (line_key, ':')) != NULL)
        g_strlcpy (it.catalog_id, colon + 1, sizeof it.catalog_id);
      if (!read_line_number (json_node_get_object (n), path, "discount", 1, N_("must be from 0 to 1"),
                             &discount, error)
          || !read_line_number (json_node_get_object (n), path, "lead_weeks", 520, N_("must be from 0 to 520"),
                                &it.lead_weeks, error)
          || !read_line_number (json_node_get_object (n), path, "support_rate", 1, N_("must be from 0 to 1"),
                                &it.support_rate, error)
          || !qm_plan_reader_string (r, json_node_get_object (n), path, "vendor", it.vendor, sizeof it.vendor,
                                     error))
        return FALSE;
      if (json_object_has_member (json_node_get_object (n), "discount"))
        {
          it.discount_kind = QM_DISCOUNT_FRACTION;
          it.discount = discount;
        }
      names = json_object_get_members (json_node_get_object (n));
      for (GList *m = names; m != NULL; m = m->next)
        {
          gboolean known = FALSE;

          for (guint k = 0; k < G_N_ELEMENTS (members); k++)
            known |= strcmp (m->data, members[k]) == 0;
          if (!known)
            qm_plan_reader_warn_problem (r, QM_PROBLEM_UNKNOWN_KEY,
                                         qm_plan_reader_path (r, path, m->data), NULL, NULL, NULL);
        }
      if (p->quote.n_items >= QM_QUOTE_MAX_ITEMS)
        return qm_plan_fail_problem (error, QM_PLAN_ERROR_INVALID, QM_PROBLEM_TOO_MANY_ITEMS, "quote.lines", TRUE, n,
                                     NULL, QM_QUOTE_MAX_ITEMS, 0);
      p->quote.items[p->quote.n_items++] = it;
    }
  return TRUE;
}

void
qm_plan_quote_write_lines (JsonBuilder     *b,
                           const QmPlanKey *key,
                           const QmPlan    *p)
{
  gboolean any = FALSE;

  for (guint i = 0; i < p->quote.n_items; i++)
    any |= p->quote.items[i].key[0] != '\0';
  if (!any)
    return;
  json_builder_set_member_name (b, "lines");
  json_builder_begin_object (b);
  for (guint i = 0; i < p->quote.n_items; i++)
    {
      const QmQuoteItemTerms *it = &p->quote.items[i];

      if (it->key[0] == '\0')
        continue;
      json_builder_set_member_name (b, it->key);
      json_builder_begin_object (b);
      /* A negotiated unit price is not a plan-file term (as before). */
      if (it->discount_kind == QM_DISCOUNT_FRACTION)
        {
          json_builder_set_member_name (b, "discount");
          json_builder_add_double_value (b, it->discount);
        }
      if (it->vendor[0] != '\0')
        {
          json_builder_set_member_name (b, "vendor");
          json_builder_add_string_value (b, it->vendor);
        }
      if (it->lead_weeks > 0.0)
        {
          json_builder_set_member_name (b, "lead_weeks");
          json_builder_add_double_value (b, it->lead_weeks);
        }
      if (it->support_rate > 0.0)
        {
          json_builder_set_member_name (b, "support_rate");
          json_builder_add_double_value (b, it->support_rate);
        }
      json_builder_end_object (b);
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
