/* qm-quote-xlsx.c: see qm-quote-xlsx.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <xlsxwriter.h>

#include "qm-price-age.h"
#include "qm-quote-report.h"
#include "qm-quote-xlsx.h"

/* Columns of the line table on the Quote sheet. */
enum
{
  COL_ITEM, COL_ID, COL_VENDOR, COL_QTY, COL_LIST, COL_DISCOUNT, COL_NET, COL_TOTAL, COL_ACCEPTED,
  COL_RATE,
};

#define FIRST_LINE_ROW 8   /* 0-based; the header row is the one above */

typedef struct
{
  lxw_workbook  *book;
  lxw_format    *bold;
  lxw_format    *money;
  lxw_format    *money_bold;
  lxw_format    *percent;
  lxw_format    *header;
  lxw_format    *date;
  lxw_format    *rate;
  const QmQuote *quote;
  /* The gross on the Quote sheet, as other sheets' formulas name it. */
  char          *gross_ref;
  lxw_error      error;
} Writer;

static void
check (Writer    *w,
       lxw_error  e)
{
  if (w->error == LXW_NO_ERROR)
    w->error = e;
}

/* "#,##0.00 "EUR"": the amount as the currency's minor unit wants it. */
static lxw_format *
money_format (Writer  *w,
              gboolean bold)
{
  lxw_format *f = workbook_add_format (w->book);
  g_autoptr(GString) code = g_string_new ("#,##0");

  if (w->quote->exponent > 0)
    {
      g_string_append_c (code, '.');
      for (int i = 0; i < w->quote->exponent; i++)
        g_string_append_c (code, '0');
    }
  g_string_append_printf (code, " \"%s\"", w->quote->currency);
  format_set_num_format (f, code->str);
  if (bold)
    format_set_bold (f);
  return f;
}

static double
major (const Writer *w,
       QmMinor       minor)
{
  return qm_money_major (minor, w->quote->exponent);
}

static void
write_label_value (Writer        *w,
                   lxw_worksheet *s,
                   lxw_row_t      row,
                   const char    *label,
                   const char    *value)
{
  check (w, worksheet_write_string (s, row, 0, label, w->bold));
  if (value != NULL && *value != '\0')
    check (w, worksheet_write_string (s, row, 1, value, NULL));
}

/* "Prices as of" and the date (qm-price-age.h), and past the user's age
 * limit on the issue date, the warning beside it. */
static void
write_prices_as_of (Writer              *w,
                    lxw_worksheet       *s,
                    lxw_row_t            row,
                    const QmQuoteHeader *h)
{
  g_autofree char *date = qm_price_date_format (&h->prices_as_of);
  g_autofree char *warning = qm_quote_price_age_warning (h, NULL);

  if (date == NULL)
    return;
  /* Translators: a label of a quote workbook's header block. */
  write_label_value (w, s, row, _("Prices as of"), date);
  if (warning != NULL)
    check (w, worksheet_write_string (s, row, 2, warning, w->bold));
}

static lxw_datetime
to_datetime (const GDate *date)
{
  lxw_datetime dt = {
    .year = g_date_get_year (date), .month = g_date_get_month (date), .day = g_date_get_day (date),
  };

  return dt;
}

/* The quote date and the last valid day as date cells (issue #35 item 2),
 * not text: the last valid day is the quote date + the days the offer
 * stands (qm_quote_valid_until ()), as a formula of the quote date's cell. */
static void
write_dates (Writer              *w,
             lxw_worksheet       *s,
             lxw_row_t            issued_row,
             lxw_row_t            until_row,
             const QmQuoteHeader *h)
{
  GDate until = qm_quote_valid_until (h);

  check (w, worksheet_write_string (s, issued_row, 0, _("Issued"), w->bold));
  check (w, worksheet_write_string (s, until_row, 0, _("Valid until"), w->bold));
  if (!g_date_valid (&h->issued))
    return;
  {
    lxw_datetime issued = to_datetime (&h->issued);

    check (w, worksheet_write_datetime (s, issued_row, 1, &issued, w->date));
  }
  if (g_date_valid (&until))
    {
      /* The cached result: the last valid day's serial in the 1900 date system. */
      lxw_datetime last = to_datetime (&until);
      g_autofree char *formula = g_strdup_printf ("=B%u+%u", issued_row + 1, h->valid_days);

      check (w, worksheet_write_formula_num (s, until_row, 1, formula, w->date,
                                             lxw_datetime_to_excel_datetime (&last)));
    }
}

/* The supplier's letterhead beside the quote's header (issue #35 item 2):
 * label and value in columns E and F, bank details in H and I, from row
 * 1 down, a row per filled field (an empty one writes nothing), so the
 * line table below keeps its place. The address is one cell, its lines
 * joined. */
static void
write_supplier (Writer           *w,
                lxw_worksheet    *s,
                const QmSupplier *supplier)
{
  static const char *const bank_keys[] = { "bank", "iban", "bic", NULL };
  lxw_row_t row[2] = { 0, 0 };

  if (qm_supplier_is_empty (supplier))
    return;
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    {
      const QmSupplierField *f = &qm_supplier_fields[i];
      const char *value = QM_SUPPLIER_FIELD (supplier, f);
      gboolean bank = g_strv_contains (bank_keys, f->key);
      guint col = bank ? COL_TOTAL : COL_LIST;
      g_autofree char *text = NULL;

      if (value == NULL || value[0] == '\0')
        continue;
      if (g_str_equal (f->key, "address"))
        {
          g_autofree char *stripped = g_strstrip (g_strdup (value));
          g_auto(GStrv) lines = g_strsplit (stripped, "\n", -1);

          text = g_strjoinv (", ", lines);
        }
      else
        text = g_strdup (value);
      /* The name's label says whose the block is. */
      check (w, worksheet_write_string (s, row[bank], col,
                                        g_str_equal (f->key, "name") ? _("Supplier") : _(f->label), w->bold));
      check (w, worksheet_write_string (s, row[bank], col + 1, text, NULL));
      row[bank]++;
    }
}

static void
write_header (Writer              *w,
              lxw_worksheet       *s,
              const QmQuoteHeader *h)
{
  g_autofree char *rate = g_strdup_printf ("%s %.6g / USD", w->quote->currency, w->quote->exchange_rate);
  check (w, worksheet_write_string (s, 0, 0, _("Quote"), w->bold));
  check (w, worksheet_write_string (s, 0, 1, h->number && *h->number ? h->number : _("draft"), w->bold));
  write_label_value (w, s, 1, _("Revision"), h->revision);
  write_label_value (w, s, 2, _("Customer"), h->customer);
  write_dates (w, s, 3, 4, h);
  /* Beside the customer (row 6 holds the prices' date). */
  if (h->customer_vat != NULL && h->customer_vat[0] != '\0')
    {
      check (w, worksheet_write_string (s, 2, 2, _("Customer VAT ID"), w->bold));
      check (w, worksheet_write_string (s, 2, 3, h->customer_vat, NULL));
    }
  write_supplier (w, s, h->supplier);
  write_label_value (w, s, 5, _("Exchange rate"), rate);
  write_prices_as_of (w, s, 6, h);
}

/* The Excel row (1-based) of the quote's line @i. */
static guint
line_row (guint i)
{
  return FIRST_LINE_ROW + i + 1;
}

/* The index of the line a spares or support line is made from: the one
 * whose key follows @l's prefix ("spares/", "support/"); -1 for none. */
static int
source_line (const QmQuote     *q,
             const QmQuoteLine *l)
{
  const char *slash = strchr (l->key, '/');
  const QmQuoteLine *src = slash != NULL ? qm_quote_find_line (q, slash + 1) : NULL;

  return src != NULL ? (int) (src - q->lines) : -1;
}

/* "SUMPRODUCT(Da:Db,Ea:Eb)+...": the sum over the lines of the kinds in
 * @kinds (QM_QUOTE_LINE_BIT) of column @a × column @b, one SUMPRODUCT a
 * run of consecutive rows; "0" when there are none. */
static char *
sum_of_kinds (const QmQuote *q,
              guint          kinds,
              char           a,
              char           b)
{
  GString *f = g_string_new (NULL);

  for (guint i = 0; i < q->n_lines; i++)
    {
      guint j = i;

      if (!(kinds & QM_QUOTE_LINE_BIT (q->lines[i].kind)))
        continue;
      while (j + 1 < q->n_lines && (kinds & QM_QUOTE_LINE_BIT (q->lines[j + 1].kind)))
        j++;
      g_string_append_printf (f, "%sSUMPRODUCT(%c%u:%c%u,%c%u:%c%u)", f->len ? "+" : "",
                              a, line_row (i), a, line_row (j), b, line_row (i), b, line_row (j));
      i = j;
    }
  if (f->len == 0)
    g_string_append_c (f, '0');
  return g_string_free (f, FALSE);
}

/* The hardware lines at list as quoted (quantity × list unit price), in
 * minor units: what installation is a share of. */
static QmMinor
hardware_at_list (const QmQuote *q)
{
  QmMinor sum = 0;

  for (guint i = 0; i < q->n_lines; i++)
    if (q->lines[i].kind == QM_QUOTE_LINE_HARDWARE)
      sum += (QmMinor) q->lines[i].qty * q->lines[i].list_unit;
  return sum;
}

/* The quantity, list unit price, discount and rate of line @i as the
 * quote makes them (qm-quote.c, docs/quotes.md), a formula of the cells
 * they come from where the line is made from others, so that a changed
 * quantity, discount or accepted flag moves them:
 *
 * - spares: ROUNDUP(the line's quantity × the spares fraction), at its
 *   list price and discount;
 * - support: the line's quantity, at ROUND(its list price × years × the
 *   yearly rate);
 * - shipping: ROUND(the fraction × the accepted hardware and spares'
 *   totals);
 * - installation: its share of the hardware at list, the share as
 *   quoted. The core prices it as the plan's fraction of the bill of
 *   materials in US dollars at the plan's unrounded quantities
 *   (qm-cost.c), which a sheet in the quote's currency does not hold;
 *   the share as quoted gives the app's figure to the cent and moves in
 *   proportion to the hardware when a quantity changes (a discount does
 *   not move it: it is priced on list).
 *
 * Lines made from no others keep plain values. */
static void
write_line_terms (Writer        *w,
                  lxw_worksheet *s,
                  guint          i)
{
  const QmQuote *q = w->quote;
  const QmQuoteLine *l = &q->lines[i];
  lxw_row_t row = FIRST_LINE_ROW + i;
  guint x = line_row (i);
  int src = source_line (q, l), exp = q->exponent;
  g_autofree char *qty = NULL, *list = NULL, *discount = NULL, *sum = NULL;
  double rate = l->rate, discount_value = l->discount;
  gboolean has_rate = FALSE;

  switch (l->kind)
    {
    case QM_QUOTE_LINE_SPARES:
      if (src < 0)
        break;
      /* ceil (qty × fraction - 1e-9), as add_spares () rounds up. */
      qty = g_strdup_printf ("=MAX(0,ROUNDUP(D%u*J%u-1E-9,0))", line_row (src), x);
      list = g_strdup_printf ("=E%u", line_row (src));
      discount = g_strdup_printf ("=F%u", line_row (src));
      discount_value = q->lines[src].discount;
      has_rate = TRUE;
      break;
    case QM_QUOTE_LINE_SUPPORT:
      if (src < 0)
        break;
      qty = g_strdup_printf ("=D%u", line_row (src));
      list = g_strdup_printf ("=ROUND(E%u*J%u,%d)", line_row (src), x, exp);
      has_rate = TRUE;
      break;
    case QM_QUOTE_LINE_SHIPPING:
      sum = sum_of_kinds (q, QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_HARDWARE) | QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_SPARES),
                          'H', 'I');
      list = g_strdup_printf ("=ROUND(J%u*(%s),%d)", x, sum, exp);
      has_rate = TRUE;
      break;
    case QM_QUOTE_LINE_INSTALL:
      {
        QmMinor base = hardware_at_list (q);

        if (base <= 0)
          break;
        rate = (double) l->list_unit / (double) base;
        sum = sum_of_kinds (q, QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_HARDWARE), 'D', 'E');
        list = g_strdup_printf ("=ROUND(J%u*(%s),%d)", x, sum, exp);
        has_rate = TRUE;
      }
      break;
    case QM_QUOTE_LINE_HARDWARE:
    default:
      break;
    }

  if (qty != NULL)
    check (w, worksheet_write_formula_num (s, row, COL_QTY, qty, NULL, l->qty));
  else
    check (w, worksheet_write_number (s, row, COL_QTY, l->qty, NULL));
  if (list != NULL)
    check (w, worksheet_write_formula_num (s, row, COL_LIST, list, w->money, major (w, l->list_unit)));
  else
    check (w, worksheet_write_number (s, row, COL_LIST, major (w, l->list_unit), w->money));
  if (discount != NULL)
    check (w, worksheet_write_formula_num (s, row, COL_DISCOUNT, discount, w->percent, discount_value));
  else
    check (w, worksheet_write_number (s, row, COL_DISCOUNT, l->discount, w->percent));
  if (has_rate)
    check (w, worksheet_write_number (s, row, COL_RATE, rate, w->rate));
}

static void
write_line (Writer        *w,
            lxw_worksheet *s,
            guint          i)
{
  const QmQuoteLine *l = &w->quote->lines[i];
  lxw_row_t row = FIRST_LINE_ROW + i;
  g_autofree char *label = qm_quote_line_label (l);
  g_autofree char *net = NULL, *total = NULL;
  int exp = w->quote->exponent;

  check (w, worksheet_write_string (s, row, COL_ITEM, label, NULL));
  if (l->catalog_id)
    check (w, worksheet_write_string (s, row, COL_ID, l->catalog_id, NULL));
  if (l->vendor[0])
    check (w, worksheet_write_string (s, row, COL_VENDOR, l->vendor, NULL));
  write_line_terms (w, s, i);
  /* Rounded as the quote rounds (docs/quotes.md): the net unit price, then
   * the line. Excel rows are 1-based. */
  net = g_strdup_printf ("=ROUND(E%u*(1-F%u),%d)", row + 1, row + 1, exp);
  total = g_strdup_printf ("=ROUND(D%u*G%u,%d)", row + 1, row + 1, exp);
  check (w, worksheet_write_formula_num (s, row, COL_NET, net, w->money, major (w, l->net_unit)));
  check (w, worksheet_write_formula_num (s, row, COL_TOTAL, total, w->money, major (w, l->total)));
  /* 1 counts the line, 0 leaves it out: the customer may flip it. */
  check (w, worksheet_write_number (s, row, COL_ACCEPTED, l->accepted ? 1 : 0, NULL));
}

static void
write_totals (Writer        *w,
              lxw_worksheet *s,
              lxw_row_t      row)
{
  const QmQuote *q = w->quote;
  lxw_row_t last = FIRST_LINE_ROW + MAX (q->n_lines, 1u);
  g_autofree char *net = g_strdup_printf ("=SUMPRODUCT(H%u:H%u,I%u:I%u)", FIRST_LINE_ROW + 1, last,
                                          FIRST_LINE_ROW + 1, last);
  g_autofree char *tax = g_strdup_printf ("=ROUND(H%u*H%u,%d)", row + 1, row + 2, q->exponent);
  g_autofree char *gross = g_strdup_printf ("=H%u+H%u", row + 1, row + 3);

  check (w, worksheet_write_string (s, row, COL_NET, _("Net"), w->bold));
  check (w, worksheet_write_formula_num (s, row, COL_TOTAL, net, w->money_bold, major (w, q->net)));
  check (w, worksheet_write_string (s, row + 1, COL_NET, _("Tax rate"), NULL));
  check (w, worksheet_write_number (s, row + 1, COL_TOTAL, q->tax_rate, w->percent));
  check (w, worksheet_write_string (s, row + 2, COL_NET, _("Tax"), NULL));
  check (w, worksheet_write_formula_num (s, row + 2, COL_TOTAL, tax, w->money, major (w, q->tax)));
  check (w, worksheet_write_string (s, row + 3, COL_NET, _("Gross"), w->bold));
  check (w, worksheet_write_formula_num (s, row + 3, COL_TOTAL, gross, w->money_bold, major (w, q->gross)));
}

/* 'Sheet name'!$H$20: a sheet's name quoted as formulas want it (a
 * translated name may hold spaces or apostrophes). */
static char *
sheet_ref (const char *sheet,
           guint       column,
           lxw_row_t   row)
{
  g_auto(GStrv) parts = g_strsplit (sheet, "'", -1);
  g_autofree char *quoted = g_strjoinv ("''", parts);

  return g_strdup_printf ("'%s'!$%c$%u", quoted, 'A' + column, row + 1);
}

static void
write_quote_sheet (Writer              *w,
                   const QmQuoteHeader *h)
{
  lxw_worksheet *s = workbook_add_worksheet (w->book, _("Quote"));
  const char *titles[] = {
    _("Item"), _("Catalog id"), _("Vendor"), _("Qty"), _("List unit price"), _("Discount"),
    _("Net unit price"), _("Total"), _("Accepted (1/0)"),
    /* Translators: the rate a derived quote line is made with (spares
     * fraction, support years × yearly rate, shipping fraction,
     * installation share of the hardware). */
    _("Rate"),
  };

  write_header (w, s, h);
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    check (w, worksheet_write_string (s, FIRST_LINE_ROW - 1, c, titles[c], w->header));
  for (guint i = 0; i < w->quote->n_lines; i++)
    write_line (w, s, i);
  write_totals (w, s, FIRST_LINE_ROW + MAX (w->quote->n_lines, 1u) + 1);
  w->gross_ref = sheet_ref (_("Quote"), COL_TOTAL, FIRST_LINE_ROW + MAX (w->quote->n_lines, 1u) + 4);

  check (w, worksheet_set_column (s, COL_ITEM, COL_ITEM, 36, NULL));
  check (w, worksheet_set_column (s, COL_ID, COL_VENDOR, 18, NULL));
  check (w, worksheet_set_column (s, COL_LIST, COL_TOTAL, 18, NULL));
  check (w, worksheet_set_column (s, COL_ACCEPTED, COL_ACCEPTED, 14, NULL));
  check (w, worksheet_set_column (s, COL_RATE, COL_RATE, 10, NULL));
  worksheet_freeze_panes (s, FIRST_LINE_ROW, 0);
}

/* Columns of the payment terms beside the months. */
enum
{
  COL_PAY_WHAT = 8, COL_PAY_MONTH, COL_PAY_SHARE, COL_PAY_AMOUNT,
};

/* A buy quote's payments as the quote makes them (docs/quotes.md): the
 * deposit a fraction of the gross, the rest split over the deliveries by
 * what each brings, the last taking the rounding remainder. Each is a
 * formula of the Quote sheet's gross, so a changed discount flows through.
 * Returns, per month, the cells that fall due in it. */
static void
write_payment_terms (Writer        *w,
                     lxw_worksheet *s,
                     GString      **due)
{
  const QmQuote *q = w->quote;
  int exp = q->exponent;
  double before = 0.0;
  const char *titles[] = { _("Payment"), _("Month"), _("Share"), _("Amount") };
  g_autofree char *deposit = g_strdup_printf ("=ROUND(%s*%c2,%d)", w->gross_ref, 'A' + COL_PAY_SHARE, exp);

  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    check (w, worksheet_write_string (s, 0, COL_PAY_WHAT + c, titles[c], w->header));
  check (w, worksheet_write_string (s, 1, COL_PAY_WHAT, _("Deposit"), NULL));
  check (w, worksheet_write_number (s, 1, COL_PAY_MONTH, 0, NULL));
  check (w, worksheet_write_number (s, 1, COL_PAY_SHARE, q->deposit_fraction, w->percent));
  check (w, worksheet_write_formula_num (s, 1, COL_PAY_AMOUNT, deposit, w->money, major (w, q->deposit)));
  g_string_append_printf (due[0], "+%c2", 'A' + COL_PAY_AMOUNT);

  for (guint k = 0; k < q->n_phases; k++)
    {
      lxw_row_t row = 2 + k;
      g_autofree char *what = g_strdup_printf (_("Delivery %u"), k + 1);
      g_autofree char *amount = NULL;

      if (k + 1 < q->n_phases)
        amount = g_strdup_printf ("=ROUND((%s-%c2)*%c%u,%d)", w->gross_ref, 'A' + COL_PAY_AMOUNT,
                                  'A' + COL_PAY_SHARE, row + 1, exp);
      else
        amount = g_strdup_printf ("=%s-SUM(%c2:%c%u)", w->gross_ref, 'A' + COL_PAY_AMOUNT,
                                  'A' + COL_PAY_AMOUNT, row);
      check (w, worksheet_write_string (s, row, COL_PAY_WHAT, what, NULL));
      check (w, worksheet_write_number (s, row, COL_PAY_MONTH, q->payment_month[k], NULL));
      check (w, worksheet_write_number (s, row, COL_PAY_SHARE, q->delivered_fraction[k] - before, w->percent));
      check (w, worksheet_write_formula_num (s, row, COL_PAY_AMOUNT, amount, w->money,
                                             major (w, q->phase_payment[k])));
      before = q->delivered_fraction[k];
      if (q->payment_month[k] < q->n_months)
        g_string_append_printf (due[q->payment_month[k]], "+%c%u", 'A' + COL_PAY_AMOUNT, row + 1);
    }
  check (w, worksheet_set_column (s, COL_PAY_WHAT, COL_PAY_WHAT, 16, NULL));
  check (w, worksheet_set_column (s, COL_PAY_MONTH, COL_PAY_SHARE, 10, NULL));
  check (w, worksheet_set_column (s, COL_PAY_AMOUNT, COL_PAY_AMOUNT, 20, NULL));
}

/* A month's payments: of a buy quote, the terms' cells due in it; of a
 * rent quote, an equal part of the gross, the last month taking the
 * rounding remainder. */
static char *
payments_formula (Writer        *w,
                  guint          m,
                  const GString *due)
{
  const QmQuote *q = w->quote;

  if (q->mode == QM_PRICING_BUY)
    return due->len > 0 ? g_strdup_printf ("=%s", due->str + 1) : NULL;
  if (m + 1 < q->n_months)
    return g_strdup_printf ("=ROUND(%s/%u,%d)", w->gross_ref, q->n_months, q->exponent);
  return m == 0 ? g_strdup_printf ("=%s", w->gross_ref)
                : g_strdup_printf ("=%s-SUM(B2:B%u)", w->gross_ref, m + 1);
}

static void
write_cash_flow_sheet (Writer *w)
{
  lxw_worksheet *s = workbook_add_worksheet (w->book, _("Cash flow"));
  const QmQuote *q = w->quote;
  const char *titles[] = {
    _("Month"), _("Payments"), _("Power and colocation"), _("Total"), _("Renting instead"),
    _("Cumulative"), _("Renting, cumulative"),
  };
  GString *due[QM_QUOTE_MAX_MONTHS];

  for (guint m = 0; m < q->n_months; m++)
    due[m] = g_string_new (NULL);
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    check (w, worksheet_write_string (s, 0, c, titles[c], w->header));
  if (q->mode == QM_PRICING_BUY)
    write_payment_terms (w, s, due);
  for (guint m = 0; m < q->n_months; m++)
    {
      const QmCashFlowMonth *c = &q->months[m];
      lxw_row_t row = m + 1, x = row + 1;   /* x: the Excel row */
      g_autofree char *payments = payments_formula (w, m, due[m]);
      g_autofree char *total = g_strdup_printf ("=B%u+C%u", x, x);
      g_autofree char *cum = m == 0 ? g_strdup_printf ("=D%u", x) : g_strdup_printf ("=F%u+D%u", x - 1, x);
      g_autofree char *rent = m == 0 ? g_strdup_printf ("=E%u", x) : g_strdup_printf ("=G%u+E%u", x - 1, x);

      check (w, worksheet_write_number (s, row, 0, c->month, NULL));
      if (payments != NULL)
        check (w, worksheet_write_formula_num (s, row, 1, payments, w->money, major (w, c->payments)));
      else
        check (w, worksheet_write_number (s, row, 1, major (w, c->payments), w->money));
      check (w, worksheet_write_number (s, row, 2, major (w, c->operations), w->money));
      check (w, worksheet_write_formula_num (s, row, 3, total, w->money, major (w, c->spend)));
      check (w, worksheet_write_number (s, row, 4, major (w, c->rent), w->money));
      check (w, worksheet_write_formula_num (s, row, 5, cum, w->money, major (w, c->spend_cumulative)));
      check (w, worksheet_write_formula_num (s, row, 6, rent, w->money, major (w, c->rent_cumulative)));
    }
  for (guint m = 0; m < q->n_months; m++)
    g_string_free (due[m], TRUE);
  check (w, worksheet_set_column (s, 0, 0, 8, NULL));
  check (w, worksheet_set_column (s, 1, 6, 20, NULL));
  worksheet_freeze_panes (s, 1, 0);
}

gboolean
qm_quote_write_xlsx (const QmQuoteHeader *header,
                     const QmQuote       *quote,
                     const char          *path,
                     GError             **error)
{
  lxw_workbook_options options = { .constant_memory = LXW_FALSE, .tmpdir = NULL };
  lxw_doc_properties props = { 0 };
  Writer w = { .quote = quote, .error = LXW_NO_ERROR };
  lxw_error closed;

  w.book = workbook_new_opt (path, &options);
  if (w.book == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: could not start the workbook"), path);
      return FALSE;
    }
  w.bold = workbook_add_format (w.book);
  format_set_bold (w.bold);
  w.header = workbook_add_format (w.book);
  format_set_bold (w.header);
  format_set_bottom (w.header, LXW_BORDER_THIN);
  w.percent = workbook_add_format (w.book);
  format_set_num_format (w.percent, "0.00%");
  /* A rate such as a 2.5 % shipping fraction or 3 years × 8 % support:
   * shown as the quote's terms state them. */
  w.rate = workbook_add_format (w.book);
  format_set_num_format (w.rate, "0.00##%");
  w.date = workbook_add_format (w.book);
  format_set_num_format (w.date, "yyyy-mm-dd");
  w.money = money_format (&w, FALSE);
  w.money_bold = money_format (&w, TRUE);

  /* The same quote gives the same file: the creation time is its date. */
  if (g_date_valid (&header->issued))
    {
      g_autoptr(GDateTime) t = g_date_time_new_utc (g_date_get_year (&header->issued),
                                                    g_date_get_month (&header->issued),
                                                    g_date_get_day (&header->issued), 0, 0, 0);
      props.created = (time_t) g_date_time_to_unix (t);
    }
  props.title = (char *) _("Quote");
  props.company = (char *) (header->customer ? header->customer : "");
  check (&w, workbook_set_properties (w.book, &props));

  write_quote_sheet (&w, header);
  write_cash_flow_sheet (&w);

  g_clear_pointer (&w.gross_ref, g_free);
  closed = workbook_close (w.book);
  check (&w, closed);
  if (w.error != LXW_NO_ERROR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, lxw_strerror (w.error));
      return FALSE;
    }
  return TRUE;
}
