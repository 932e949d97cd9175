/* qm-quote-diff.c: what changed between two revisions (qm-quote-diff.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qm-quote-diff.h"
#include "qm-quote-json.h"

/* The same line: the same key (qm_quote_line_key ()), else, for a quote
 * made without keys, the same kind, label and catalog id. */
static gboolean
same_line (const QmQuoteLine *a,
           const QmQuoteLine *b)
{
  if (a->key[0] != '\0' && b->key[0] != '\0')
    return strcmp (a->key, b->key) == 0;
  return a->kind == b->kind && g_strcmp0 (a->item, b->item) == 0
         && g_strcmp0 (a->catalog_id, b->catalog_id) == 0;
}

static const QmQuoteLine *
find_line (const QmQuote     *q,
           const QmQuoteLine *like)
{
  for (guint i = 0; i < q->n_lines; i++)
    if (same_line (&q->lines[i], like))
      return &q->lines[i];
  return NULL;
}

/* The next change, or NULL once @max are filled. */
static QmQuoteChange *
add (QmQuoteChange       *changes,
     guint                max,
     guint               *n,
     QmQuoteChangeKind    kind,
     const QmQuoteLine   *line)
{
  QmQuoteChange *c;

  if (*n >= max)
    return NULL;
  c = &changes[(*n)++];
  memset (c, 0, sizeof *c);
  c->kind = kind;
  c->line = line;
  return c;
}

guint
qm_quote_diff (const QmQuote *older,
               const QmQuote *newer,
               QmQuoteChange *changes,
               guint          max)
{
  /* Unit prices in two currencies are not comparable; quantities are. */
  gboolean same_currency = strcmp (older->currency, newer->currency) == 0;
  QmQuoteChange *c;
  guint n = 0;

  if (!same_currency)
    add (changes, max, &n, QM_QUOTE_CHANGE_CURRENCY, NULL);
  for (guint i = 0; i < newer->n_lines; i++)
    {
      const QmQuoteLine *b = &newer->lines[i];
      const QmQuoteLine *a = find_line (older, b);

      if (a == NULL)
        {
          if ((c = add (changes, max, &n, QM_QUOTE_CHANGE_ADDED, b)) != NULL)
            {
              c->new_qty = b->qty;
              c->new_minor = b->net_unit;
            }
          continue;
        }
      if (a->qty != b->qty)
        {
          if ((c = add (changes, max, &n, QM_QUOTE_CHANGE_QTY, b)) != NULL)
            {
              c->old_qty = a->qty;
              c->new_qty = b->qty;
            }
        }
      if (same_currency && a->net_unit != b->net_unit)
        {
          if ((c = add (changes, max, &n, QM_QUOTE_CHANGE_PRICE, b)) != NULL)
            {
              c->old_minor = a->net_unit;
              c->new_minor = b->net_unit;
            }
        }
      if (a->accepted != b->accepted)
        {
          if ((c = add (changes, max, &n, QM_QUOTE_CHANGE_ACCEPTED, b)) != NULL)
            c->accepted = b->accepted;
        }
    }
  for (guint i = 0; i < older->n_lines; i++)
    if (find_line (newer, &older->lines[i]) == NULL)
      {
        if ((c = add (changes, max, &n, QM_QUOTE_CHANGE_REMOVED, &older->lines[i])) != NULL)
          c->old_qty = older->lines[i].qty;
      }
  if (!same_currency || older->gross != newer->gross)
    {
      if ((c = add (changes, max, &n, QM_QUOTE_CHANGE_GROSS, NULL)) != NULL)
        {
          c->old_minor = older->gross;
          c->new_minor = newer->gross;
        }
    }
  return n;
}

/* "Support: Servers (hgx-h100-8)", or the label alone for lines of no
 * catalog entry. */
static char *
line_name (const QmQuoteLine *l)
{
  g_autofree char *label = qm_quote_line_label (l);

  if (l->catalog_id != NULL && *l->catalog_id != '\0')
    /* Translators: a quote line's label, then its catalog id. */
    return g_strdup_printf (_("%s (%s)"), label, l->catalog_id);
  return g_steal_pointer (&label);
}

char *
qm_quote_change_describe (const QmQuoteChange *c,
                          const QmQuote       *older,
                          const QmQuote       *newer)
{
  g_autofree char *name = c->line != NULL ? line_name (c->line) : NULL;
  char was[64], now[64];

  switch (c->kind)
    {
    case QM_QUOTE_CHANGE_CURRENCY:
      /* Translators: two ISO 4217 codes, the old and the new. */
      return g_strdup_printf (_("Currency %s → %s"), older->currency, newer->currency);
    case QM_QUOTE_CHANGE_ADDED:
      qm_money_format (now, sizeof now, c->new_minor, newer->exponent, newer->currency);
      /* Translators: a line, its quantity and its unit price. */
      return g_strdup_printf (_("Added %s: %g at %s"), name, c->new_qty, now);
    case QM_QUOTE_CHANGE_REMOVED:
      return g_strdup_printf (_("Removed %s"), name);
    case QM_QUOTE_CHANGE_QTY:
      /* Translators: a line, then its old and new quantity. */
      return g_strdup_printf (_("%s: quantity %g → %g"), name, c->old_qty, c->new_qty);
    case QM_QUOTE_CHANGE_PRICE:
      qm_money_format (was, sizeof was, c->old_minor, older->exponent, older->currency);
      qm_money_format (now, sizeof now, c->new_minor, newer->exponent, newer->currency);
      /* Translators: a line, then its old and new negotiated unit price. */
      return g_strdup_printf (_("%s: unit price %s → %s"), name, was, now);
    case QM_QUOTE_CHANGE_ACCEPTED:
      return g_strdup_printf (c->accepted ? _("%s accepted") : _("%s declined"), name);
    case QM_QUOTE_CHANGE_GROSS:
    default:
      qm_money_format (was, sizeof was, c->old_minor, older->exponent, older->currency);
      qm_money_format (now, sizeof now, c->new_minor, newer->exponent, newer->currency);
      return g_strdup_printf (_("Gross %s → %s"), was, now);
    }
}

char *
qm_quote_diff_describe (const QmQuote *older,
                        const QmQuote *newer)
{
  QmQuoteChange changes[2 * QM_QUOTE_MAX_LINES + 2];
  guint n = qm_quote_diff (older, newer, changes, G_N_ELEMENTS (changes));
  GString *s = g_string_new (NULL);

  if (n == 0)
    return g_strdup (_("No change in the lines or the total"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = qm_quote_change_describe (&changes[i], older, newer);

      g_string_append_printf (s, "%s%s", i > 0 ? "\n" : "", line);
    }
  return g_string_free (s, FALSE);
}

static const char *const kind_ids[] = {
  [QM_QUOTE_CHANGE_CURRENCY] = "currency",
  [QM_QUOTE_CHANGE_ADDED] = "added",
  [QM_QUOTE_CHANGE_REMOVED] = "removed",
  [QM_QUOTE_CHANGE_QTY] = "quantity",
  [QM_QUOTE_CHANGE_PRICE] = "unit_price",
  [QM_QUOTE_CHANGE_ACCEPTED] = "accepted",
  [QM_QUOTE_CHANGE_GROSS] = "gross",
};

JsonNode *
qm_quote_diff_to_json (const QmQuote *older,
                       const QmQuote *newer)
{
  QmQuoteChange changes[2 * QM_QUOTE_MAX_LINES + 2];
  guint n = qm_quote_diff (older, newer, changes, G_N_ELEMENTS (changes));
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const QmQuoteChange *c = &changes[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "change");
      json_builder_add_string_value (b, kind_ids[c->kind]);
      json_builder_set_member_name (b, "line");
      json_builder_add_string_value (b, c->line != NULL ? qm_quote_line_kind_to_string (c->line->kind) : NULL);
      json_builder_set_member_name (b, "item");
      json_builder_add_string_value (b, c->line != NULL ? c->line->item : NULL);
      json_builder_set_member_name (b, "catalog_id");
      json_builder_add_string_value (b, c->line != NULL ? c->line->catalog_id : NULL);
      switch (c->kind)
        {
        case QM_QUOTE_CHANGE_CURRENCY:
          json_builder_set_member_name (b, "old");
          json_builder_add_string_value (b, older->currency);
          json_builder_set_member_name (b, "new");
          json_builder_add_string_value (b, newer->currency);
          break;
        case QM_QUOTE_CHANGE_ADDED:
          json_builder_set_member_name (b, "new");
          json_builder_add_double_value (b, c->new_qty);
          break;
        case QM_QUOTE_CHANGE_REMOVED:
          json_builder_set_member_name (b, "old");
          json_builder_add_double_value (b, c->old_qty);
          break;
        case QM_QUOTE_CHANGE_QTY:
          json_builder_set_member_name (b, "old");
          json_builder_add_double_value (b, c->old_qty);
          json_builder_set_member_name (b, "new");
          json_builder_add_double_value (b, c->new_qty);
          break;
        case QM_QUOTE_CHANGE_ACCEPTED:
          json_builder_set_member_name (b, "new");
          json_builder_add_boolean_value (b, c->accepted);
          break;
        case QM_QUOTE_CHANGE_PRICE:
        case QM_QUOTE_CHANGE_GROSS:
        default:
          json_builder_set_member_name (b, "old");
          json_builder_add_double_value (b, qm_money_major (c->old_minor, older->exponent));
          json_builder_set_member_name (b, "new");
          json_builder_add_double_value (b, qm_money_major (c->new_minor, newer->exponent));
          break;
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  return json_builder_get_root (b);
}
