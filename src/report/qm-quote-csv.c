/* qm-quote-csv.c: see qm-quote-csv.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "qm-csv.h"
#include "qm-quote-csv.h"
#include "qm-quote-report.h"

/* "1234.50": exact, from the minor units. */
static char *
plain_amount (const QmQuote *q,
              QmMinor        minor)
{
  g_autofree char *digits = g_strdup_printf ("%0*" G_GINT64_FORMAT, q->exponent + 1,
                                             minor < 0 ? -minor : minor);
  size_t whole = strlen (digits) - q->exponent;

  if (q->exponent == 0)
    return g_strdup_printf ("%s%s", minor < 0 ? "-" : "", digits);
  return g_strdup_printf ("%s%.*s.%s", minor < 0 ? "-" : "", (int) whole, digits, digits + whole);
}

static void
total_row (GString       *out,
           const char    *label,
           const QmQuote *q,
           QmMinor        minor)
{
  g_autofree char *value = plain_amount (q, minor);
  const char *f[] = { "", label, "", "", "", "", "", value, q->currency, "" };

  qm_csv_append_row (out, f, G_N_ELEMENTS (f), ',');
}

/* After the title, a row per filled field (issue #35 item 2): the
 * customer's VAT id, then the supplier's details, the name labelled
 * "Supplier". None when all are empty, so such a file is as before. */
static void
append_parties (GString             *out,
                const QmQuoteHeader *h)
{
  if (h->customer_vat != NULL && h->customer_vat[0] != '\0')
    qm_csv_append_row (out, (const char *[]) { _("Customer VAT ID"), h->customer_vat }, 2, ',');
  if (qm_supplier_is_empty (h->supplier))
    return;
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      const QmSupplierField *f = &qm_supplier_fields[i];
      const char *value = QM_SUPPLIER_FIELD (h->supplier, f);

      if (value != NULL && value[0] != '\0')
        qm_csv_append_row (out, (const char *[]) { g_str_equal (f->key, "name") ? _("Supplier") : _(f->label),
                                                   value }, 2, ',');
    }
}

char *
qm_quote_to_csv (const QmQuoteHeader *header,
                 const QmQuote       *q)
{
  GString *out = g_string_new (NULL);
  const char *head[] = {
    "id", "item", "vendor", "qty", "list_unit_price", "discount", "net_unit_price", "total",
    "currency", "accepted",
  };

  {
    const char *title[] = { _("Quote"), header->number && *header->number ? header->number : _("draft"),
                            header->revision ? header->revision : "" };

    qm_csv_append_row (out, title, G_N_ELEMENTS (title), ',');
  }
  append_parties (out, header);
  qm_csv_append_row (out, head, G_N_ELEMENTS (head), ',');
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *l = &q->lines[i];
      g_autofree char *label = qm_quote_line_label (l);
      g_autofree char *list = plain_amount (q, l->list_unit), *net = plain_amount (q, l->net_unit);
      g_autofree char *total = plain_amount (q, l->total);
      char qty[32], discount[G_ASCII_DTOSTR_BUF_SIZE];
      const char *f[10];

      g_snprintf (qty, sizeof qty, "%.0f", l->qty);
      g_ascii_formatd (discount, sizeof discount, "%.6g", l->discount);
      f[0] = l->catalog_id ? l->catalog_id : "", f[1] = label, f[2] = l->vendor;
      f[3] = qty, f[4] = list, f[5] = discount, f[6] = net, f[7] = total;
      f[8] = q->currency, f[9] = l->accepted ? "1" : "0";
      qm_csv_append_row (out, f, G_N_ELEMENTS (f), ',');
    }
  total_row (out, _("Net"), q, q->net);
  total_row (out, _("Tax"), q, q->tax);
  total_row (out, _("Total, including tax"), q, q->gross);
  return g_string_free (out, FALSE);
}
