/* qm-plan-equal.c: whether two plans are the same plan, member by member
 * (issue #24 item 6). A byte compare of the struct let padding bytes, -0.0
 * and NaN decide; here every value is compared as a person reads it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-plan.h"
#include "qm-plan-schema.h"

static gboolean
number_equal (double a,
              double b)
{
  /* == already takes -0.0 for 0.0; NaN is the one value it calls unequal
   * to itself. */
  return a == b || (isnan (a) && isnan (b));
}

/* A catalog entry, as the catalog file writes it: that is every field the
 * catalog tables know, compared by value rather than by bytes. */
static gboolean
spec_equal (QmCatalogKind kind,
            gconstpointer a,
            gconstpointer b)
{
  g_autoptr(JsonObject) oa = qm_catalog_spec_to_json (kind, a);
  g_autoptr(JsonObject) ob = qm_catalog_spec_to_json (kind, b);
  g_autoptr(JsonNode) na = json_node_init_object (json_node_alloc (), oa);
  g_autoptr(JsonNode) nb = json_node_init_object (json_node_alloc (), ob);
  g_autofree char *ja = json_to_string (na, FALSE);
  g_autofree char *jb = json_to_string (nb, FALSE);

  return strcmp (ja, jb) == 0;
}

/* The resolved model shape: the schema's shape rows cover most of it, but
 * a preset fills members no row names (learned_positions, biases). */
static gboolean
shape_equal (const QmModelShape *a,
             const QmModelShape *b)
{
  return a->layers == b->layers && a->hidden == b->hidden && a->heads == b->heads &&
         a->kv_heads == b->kv_heads && a->head_dim == b->head_dim &&
         a->ffn_hidden == b->ffn_hidden && a->vocab == b->vocab &&
         !a->gated_mlp == !b->gated_mlp && !a->tied_embeddings == !b->tied_embeddings &&
         a->experts == b->experts && a->experts_per_token == b->experts_per_token &&
         a->shared_experts == b->shared_experts && a->moe_ffn_hidden == b->moe_ffn_hidden &&
         a->dense_layers == b->dense_layers && a->q_lora_rank == b->q_lora_rank &&
         a->kv_lora_rank == b->kv_lora_rank && a->rope_head_dim == b->rope_head_dim &&
         number_equal (a->params_hint, b->params_hint) &&
         a->learned_positions == b->learned_positions &&
         !a->linear_bias == !b->linear_bias && !a->qkv_bias == !b->qkv_bias;
}

/* The quote's rows without an offset: each line's terms, phases, and
 * the line choices the store keeps. */
static gboolean
quote_rest_equal (const QmQuoteTerms *a,
                  const QmQuoteTerms *b)
{
  if (a->n_items != b->n_items || a->n_phases != b->n_phases ||
      a->optional_lines != b->optional_lines || a->declined_lines != b->declined_lines ||
      !number_equal (a->horizon_months, b->horizon_months))
    return FALSE;
  for (guint i = 0; i < MIN (a->n_items, QM_QUOTE_MAX_ITEMS); i++)
    {
      const QmQuoteItemTerms *x = &a->items[i], *y = &b->items[i];

      if (strcmp (x->key, y->key) != 0 ||
          strcmp (x->catalog_id, y->catalog_id) != 0 || x->discount_kind != y->discount_kind ||
          !number_equal (x->discount, y->discount) || strcmp (x->vendor, y->vendor) != 0 ||
          !number_equal (x->lead_weeks, y->lead_weeks) ||
          !number_equal (x->support_rate, y->support_rate))
        return FALSE;
    }
  for (guint i = 0; i < MIN (a->n_phases, QM_QUOTE_MAX_PHASES); i++)
    if (!number_equal (a->phases[i], b->phases[i]))
      return FALSE;
  return TRUE;
}

static gboolean
key_equal (const QmPlanKey *key,
           const QmPlan    *a,
           const QmPlan    *b)
{
  switch (key->type)
    {
    case QM_PLAN_KEY_NUMBER:
    case QM_PLAN_KEY_INTEGER:
    case QM_PLAN_KEY_ENUM:
    case QM_PLAN_KEY_BOOL:
      return number_equal (qm_plan_key_get_value (key, a), qm_plan_key_get_value (key, b));

    case QM_PLAN_KEY_STRING:
    case QM_PLAN_KEY_ID:
      {
        gboolean *ea, *eb;
        gpointer sa, sb;

        /* Up to the NUL: what follows it in the buffer is not the plan's. */
        if (strncmp (G_STRUCT_MEMBER_P (a, key->offset), G_STRUCT_MEMBER_P (b, key->offset),
                     key->size) != 0)
          return FALSE;
        /* hardware.*: the resolved entry and whether the file embeds it. The
         * lookup takes a plan it could write through; it only reads here. */
        sa = qm_plan_key_spec (key, (QmPlan *) a, &ea);
        sb = qm_plan_key_spec (key, (QmPlan *) b, &eb);
        if (sa == NULL)
          return TRUE;
        return !*ea == !*eb && spec_equal (key->kind, sa, sb);
      }

    case QM_PLAN_KEY_SPEC:
    case QM_PLAN_KEY_OBJECT:
    default:
      return TRUE;
    }
}

gboolean
qm_plan_equal (const QmPlan *a,
               const QmPlan *b)
{
  const QmPlanKey *keys;
  guint n_keys;

  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  if (a == b)
    return TRUE;

  keys = qm_plan_schema_keys (&n_keys);
  for (guint i = 0; i < n_keys; i++)
    if (keys[i].offset >= 0 && !key_equal (&keys[i], a, b))
      return FALSE;

  return shape_equal (&a->workload.model, &b->workload.model) &&
         !a->has_quote == !b->has_quote &&
         quote_rest_equal (&a->quote, &b->quote);
}
