/* qm-quote-json.c: see qm-quote-json.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-quote-json.h"

#define FIELD(member, label) { #member, label, G_STRUCT_OFFSET (QmSupplier, member) }

const QmSupplierField qm_supplier_fields[] = {
  /* Translators: the supplier's company name on a quote's letterhead. */
  FIELD (name, N_("Company name")),
  FIELD (address, N_("Address")),
  FIELD (vat_id, N_("VAT ID")),
  FIELD (registration, N_("Company registration")),
  FIELD (email, N_("E-mail")),
  FIELD (phone, N_("Phone")),
  FIELD (bank, N_("Bank")),
  FIELD (iban, N_("IBAN")),
  /* Translators: the bank's BIC (SWIFT code). */
  FIELD (bic, N_("BIC / SWIFT")),
};

#undef FIELD

const guint qm_supplier_n_fields = G_N_ELEMENTS (qm_supplier_fields);

QmSupplier *
qm_supplier_new (void)
{
  QmSupplier *s = g_new0 (QmSupplier, 1);

  for (guint i = 0; i < qm_supplier_n_fields; i++)
    QM_SUPPLIER_FIELD (s, &qm_supplier_fields[i]) = g_strdup ("");
  return s;
}

QmSupplier *
qm_supplier_copy (const QmSupplier *supplier)
{
  QmSupplier *s = g_new0 (QmSupplier, 1);

  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      const char *v = supplier != NULL ? QM_SUPPLIER_FIELD (supplier, &qm_supplier_fields[i]) : NULL;

      QM_SUPPLIER_FIELD (s, &qm_supplier_fields[i]) = g_strdup (v != NULL ? v : "");
    }
  return s;
}

void
qm_supplier_free (QmSupplier *supplier)
{
  if (supplier == NULL)
    return;
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    g_free (QM_SUPPLIER_FIELD (supplier, &qm_supplier_fields[i]));
  g_free (supplier);
}

gboolean
qm_supplier_is_empty (const QmSupplier *supplier)
{
  if (supplier == NULL)
    return TRUE;
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      const char *v = QM_SUPPLIER_FIELD (supplier, &qm_supplier_fields[i]);

      if (v != NULL && v[0] != '\0')
        return FALSE;
    }
  return TRUE;
}

gboolean
qm_supplier_equal (const QmSupplier *a,
                   const QmSupplier *b)
{
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      const char *x = a != NULL ? QM_SUPPLIER_FIELD (a, &qm_supplier_fields[i]) : NULL;
      const char *y = b != NULL ? QM_SUPPLIER_FIELD (b, &qm_supplier_fields[i]) : NULL;

      if (g_strcmp0 (x != NULL ? x : "", y != NULL ? y : "") != 0)
        return FALSE;
    }
  return TRUE;
}

GDate
qm_quote_valid_until (const QmQuoteHeader *header)
{
  GDate d = header->issued;

  if (g_date_valid (&d))
    g_date_add_days (&d, header->valid_days);
  return d;
}

gboolean
qm_quote_expired (const QmQuoteHeader *header,
                  const GDate         *today)
{
  GDate until = qm_quote_valid_until (header);

  return g_date_valid (&until) && g_date_valid (today) && g_date_compare (today, &until) > 0;
}

static void
add_date (JsonBuilder *b,
          const char  *name,
          const GDate *d)
{
  char text[16];

  json_builder_set_member_name (b, name);
  if (!g_date_valid (d))
    {
      json_builder_add_null_value (b);
      return;
    }
  g_date_strftime (text, sizeof text, "%Y-%m-%d", d);
  json_builder_add_string_value (b, text);
}

static void
add_string_or_null (JsonBuilder *b,
                    const char  *name,
                    const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL && *value != '\0')
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_amount (JsonBuilder   *b,
            const char    *name,
            const QmQuote *q,
            QmMinor        minor)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, qm_money_major (minor, q->exponent));
}

const char *
qm_quote_line_kind_to_string (QmQuoteLineKind kind)
{
  static const char *const names[] = {
    [QM_QUOTE_LINE_HARDWARE] = "hardware", [QM_QUOTE_LINE_INSTALL] = "installation",
    [QM_QUOTE_LINE_SPARES] = "spares", [QM_QUOTE_LINE_SUPPORT] = "support",
    [QM_QUOTE_LINE_SHIPPING] = "shipping",
  };

  return kind < G_N_ELEMENTS (names) ? names[kind] : "hardware";
}

static void
add_lines (JsonBuilder   *b,
           const QmQuote *q)
{
  json_builder_set_member_name (b, "lines");
  json_builder_begin_array (b);
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *l = &q->lines[i];

      json_builder_begin_object (b);
      add_string_or_null (b, "id", l->catalog_id);
      /* The line's own key (issue #35): "id" is shared by the lines of
       * one catalog item, such as a fabric's switches and cables. */
      add_string_or_null (b, "key", l->key);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, qm_quote_line_kind_to_string (l->kind));
      json_builder_set_member_name (b, "item");
      json_builder_add_string_value (b, l->item);
      add_string_or_null (b, "vendor", l->vendor);
      json_builder_set_member_name (b, "qty");
      json_builder_add_double_value (b, l->qty);
      add_amount (b, "list_unit_price", q, l->list_unit);
      add_amount (b, "net_unit_price", q, l->net_unit);
      json_builder_set_member_name (b, "discount");
      json_builder_add_double_value (b, l->discount);
      add_amount (b, "total", q, l->total);
      json_builder_set_member_name (b, "optional");
      json_builder_add_boolean_value (b, l->optional);
      json_builder_set_member_name (b, "accepted");
      json_builder_add_boolean_value (b, l->accepted);
      json_builder_set_member_name (b, "lead_weeks");
      json_builder_add_double_value (b, l->lead_weeks);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_cash_flow (JsonBuilder   *b,
               const QmQuote *q)
{
  json_builder_set_member_name (b, "cash_flow");
  json_builder_begin_array (b);
  for (guint m = 0; m < q->n_months; m++)
    {
      const QmCashFlowMonth *c = &q->months[m];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "month");
      json_builder_add_int_value (b, c->month);
      add_amount (b, "amount", q, c->spend);
      add_amount (b, "payments", q, c->payments);
      add_amount (b, "operations", q, c->operations);
      add_amount (b, "rent", q, c->rent);
      add_amount (b, "cumulative", q, c->spend_cumulative);
      add_amount (b, "rent_cumulative", q, c->rent_cumulative);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_delivery (JsonBuilder   *b,
              const QmQuote *q)
{
  json_builder_set_member_name (b, "delivery");
  json_builder_begin_array (b);
  for (guint k = 0; k < q->n_phases; k++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "month");
      json_builder_add_int_value (b, q->delivery_month[k]);
      json_builder_set_member_name (b, "delivered_fraction");
      json_builder_add_double_value (b, q->delivered_fraction[k]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "training_start_month");
  json_builder_add_int_value (b, q->training_start_month);
}

JsonNode *
qm_quote_to_json_node (const QmQuoteHeader *header,
                       const QmQuote       *q,
                       const GDate         *today)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  GDate until = qm_quote_valid_until (header);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "quote");
  json_builder_begin_object (b);
  add_string_or_null (b, "number", header->number);
  add_string_or_null (b, "revision", header->revision);
  add_string_or_null (b, "customer", header->customer);
  /* Only when there is one: a revision's stored JSON stays as it was. */
  if (header->customer_vat != NULL && header->customer_vat[0] != '\0')
    {
      json_builder_set_member_name (b, "customer_vat_id");
      json_builder_add_string_value (b, header->customer_vat);
    }
  if (!qm_supplier_is_empty (header->supplier))
    {
      json_builder_set_member_name (b, "supplier");
      json_builder_begin_object (b);
      for (guint i = 0; i < qm_supplier_n_fields; i++)
        {
          const char *v = QM_SUPPLIER_FIELD (header->supplier, &qm_supplier_fields[i]);

          if (v != NULL && v[0] != '\0')
            {
              json_builder_set_member_name (b, qm_supplier_fields[i].key);
              json_builder_add_string_value (b, v);
            }
        }
      json_builder_end_object (b);
    }
  add_date (b, "issued", &header->issued);
  add_date (b, "valid_until", &until);
  json_builder_set_member_name (b, "expired");
  json_builder_add_boolean_value (b, qm_quote_expired (header, today));
  json_builder_end_object (b);

  json_builder_set_member_name (b, "currency");
  json_builder_add_string_value (b, q->currency);
  json_builder_set_member_name (b, "minor_unit_digits");
  json_builder_add_int_value (b, q->exponent);
  add_lines (b, q);

  json_builder_set_member_name (b, "totals");
  json_builder_begin_object (b);
  add_amount (b, "list", q, q->list_total);
  add_amount (b, "net", q, q->net);
  add_amount (b, "tax", q, q->tax);
  add_amount (b, "gross", q, q->gross);
  json_builder_end_object (b);

  add_delivery (b, q);
  add_cash_flow (b, q);
  add_amount (b, "cash_flow_total", q, q->spend_total);
  add_amount (b, "rent_total", q, q->rent_total);
  json_builder_set_member_name (b, "break_even_month");
  if (q->break_even_valid)
    json_builder_add_int_value (b, q->break_even_month);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "issues");
  json_builder_add_int_value (b, q->issues.n);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
