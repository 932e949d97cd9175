/* qm-quote-report.c: see qm-quote-report.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "qm-chart-cashflow.h"
#include "qm-format.h"
#include "qm-plan-report.h"
#include "qm-price-age.h"
#include "qm-quote-report.h"

#define CHART_HEIGHT 260.0     /* points */
#define SIGNATURE_HEIGHT 132.0   /* the labels under the last line end at 116 */

static char *
date_text (const GDate *d)
{
  char text[16];

  if (!g_date_valid (d))
    return g_strdup ("–");
  g_date_strftime (text, sizeof text, "%Y-%m-%d", d);
  return g_strdup (text);
}

/* An amount in a table whose header names the currency: digits only. */
static char *
amount (const QmQuote *q,
        QmMinor        minor)
{
  char buf[64];

  return g_strdup (qm_money_format (buf, sizeof buf, minor, q->exponent, NULL));
}

/* A cover figure, short enough for its box: "EUR 39.7 M". */
static char *
figure (const QmQuote *q,
        QmMinor        minor)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (qm_format_money (buf, sizeof buf, qm_money_major (minor, q->exponent), q->currency));
}

/* The header block's line "Prices as of 1 June 2025" (qm-price-age.h). */
static void
add_prices_as_of (GString             *meta,
                  const QmQuoteHeader *h)
{
  g_autofree char *text = qm_prices_as_of_text (&h->prices_as_of);

  if (text == NULL)
    return;
  g_string_append_c (meta, '\n');
  g_string_append (meta, text);
}

/* Past the user's age limit on the issue date: said as the expiry is. */
static void
add_price_age_warning (QmDocument          *doc,
                       const QmQuoteHeader *h,
                       const GDate         *today)
{
  g_autofree char *warning = qm_quote_price_age_warning (h, today);

  if (warning != NULL)
    qm_document_add_heading (doc, warning, 2);
}

/* ------------------------------------------------------------------ */
/* The supplier's letterhead and payment details (issue #35 item 2).   */

static gboolean
filled (const char *text)
{
  return text != NULL && text[0] != '\0';
}

/* Appends "Label: value" on a line of its own, when @value is filled. */
static void
append_field (GString    *out,
              const char *key,
              const char *value)
{
  if (!filled (value))
    return;
  for (guint i = 0; i < qm_supplier_n_fields; i++)
    if (g_str_equal (qm_supplier_fields[i].key, key))
      {
        if (out->len > 0)
          g_string_append_c (out, '\n');
        /* Translators: a labelled line of a quote's letterhead or payment
         * details: "VAT ID: DE123456789". */
        g_string_append_printf (out, _("%s: %s"), _(qm_supplier_fields[i].label), value);
        return;
      }
  g_assert_not_reached ();
}

/* Who the quote is from, above its title: the supplier's name, address,
 * VAT id, registration and contact. Nothing at all when the store has no
 * supplier details; an empty field prints no line. */
static void
add_letterhead (QmDocument          *doc,
                const QmQuoteHeader *h)
{
  const QmSupplier *s = h->supplier;
  g_autoptr(GString) text = g_string_new (NULL);

  if (qm_supplier_is_empty (s))
    return;
  if (filled (s->address))
    {
      g_autofree char *address = g_strstrip (g_strdup (s->address));

      g_string_append (text, address);
    }
  append_field (text, "vat_id", s->vat_id);
  append_field (text, "registration", s->registration);
  append_field (text, "email", s->email);
  append_field (text, "phone", s->phone);
  qm_document_begin_keep (doc);
  if (filled (s->name))
    qm_document_add_heading (doc, s->name, 2);
  if (text->len > 0)
    qm_document_add_paragraph (doc, text->str);
  qm_document_end_keep (doc);
}

/* Where to pay: the supplier's bank, IBAN and BIC, with the payment
 * terms. */
static void
add_bank_details (QmDocument          *doc,
                  const QmQuoteHeader *h)
{
  const QmSupplier *s = h->supplier;
  g_autoptr(GString) text = g_string_new (NULL);

  if (s == NULL)
    return;
  append_field (text, "bank", s->bank);
  append_field (text, "iban", s->iban);
  append_field (text, "bic", s->bic);
  if (text->len > 0)
    qm_document_add_paragraph (doc, text->str);
}

/* The customer's VAT id, on the line after the customer's. */
static void
append_customer_vat (GString             *meta,
                     const QmQuoteHeader *h)
{
  if (!filled (h->customer_vat))
    return;
  g_string_append_c (meta, '\n');
  /* Translators: a line of a quote's header block; %s is the customer's
   * VAT identification number. */
  g_string_append_printf (meta, _("Customer VAT ID: %s"), h->customer_vat);
}

static void
add_cover (QmDocument          *doc,
           const QmPlan        *plan,
           const QmQuoteHeader *h,
           const QmQuote       *q,
           const GDate         *today)
{
  GDate until = qm_quote_valid_until (h);
  g_autofree char *issued = date_text (&h->issued), *valid = date_text (&until);
  g_autofree char *gross = figure (q, q->gross), *net = figure (q, q->net), *tax = figure (q, q->tax);
  g_autofree char *start = NULL;
  g_autoptr(GString) meta = g_string_new (NULL);
  char rate[64];

  /* The header block: who it is for and from, when, and which revision
   * (a stored quote's letter; "draft" only for a quote never saved). */
  /* Translators: a line of a quote's header block; %s is the customer. */
  g_string_append_printf (meta, _("Customer: %s"), h->customer && *h->customer ? h->customer : _("none named"));
  append_customer_vat (meta, h);
  if (h->project && *h->project)
    {
      g_string_append_c (meta, '\n');
      /* Translators: a line of a quote's header block; %s is the project
       * typed when the quote was saved. */
      g_string_append_printf (meta, _("Project: %s"), h->project);
    }
  if (h->prepared_by && *h->prepared_by)
    {
      g_string_append_c (meta, '\n');
      /* Translators: a line of a quote's header block; %s is who prepared it. */
      g_string_append_printf (meta, _("Prepared by: %s"), h->prepared_by);
    }
  g_string_append_c (meta, '\n');
  /* Translators: a line of a quote's header block; %s is a date. */
  g_string_append_printf (meta, _("Issued: %s"), issued);
  g_string_append_c (meta, '\n');
  /* Translators: a line of a quote's header block; %s is a date. */
  g_string_append_printf (meta, _("Valid until: %s"), valid);
  g_string_append_c (meta, '\n');
  if (h->revision && *h->revision)
    /* Translators: a line of a quote's header block; %s is the letter of
     * a saved revision: "Revision A". */
    g_string_append_printf (meta, _("Revision %s"), h->revision);
  else
    g_string_append (meta, _("Draft: not saved as a revision"));
  add_prices_as_of (meta, h);
  qm_document_add_paragraph (doc, meta->str);
  if (qm_quote_expired (h, today))
    {
      /* Translators: %s is the last day a quote was valid. */
      g_autofree char *expired = g_strdup_printf (_("This quote expired after %s: its prices no longer hold."),
                                                  valid);
      qm_document_add_heading (doc, expired, 2);
    }
  add_price_age_warning (doc, h, today);
  qm_document_add_key_figure (doc, _("Total, including tax"), gross);
  qm_document_add_key_figure (doc, _("Net"), net);
  qm_document_add_key_figure (doc, _("Tax"), tax);
  /* Translators: when a bought cluster can start training; %u is a month. */
  start = g_strdup_printf (_("month %u"), q->training_start_month);
  qm_document_add_key_figure (doc, _("Cluster in place"), start);

  g_snprintf (rate, sizeof rate, "%.6g", q->exchange_rate);
  {
    /* Translators: %s are the plan's name, the currency, the exchange rate
     * and the catalog version the list prices come from. */
    g_autofree char *basis = g_strdup_printf (_("For the plan “%s”. Prices in %s, converted from US dollar list prices at %s per dollar; amounts rounded as stated in the terms."),
                                              plan->name, q->currency, rate);
    qm_document_add_paragraph (doc, basis);
  }
}

static void
add_lines (QmDocument    *doc,
           const QmQuote *q)
{
  /* Translators: column headers of a quote; %s is the currency code. */
  g_autofree char *list_h = g_strdup_printf (_("List unit price (%s)"), q->currency);
  g_autofree char *net_h = g_strdup_printf (_("Net unit price (%s)"), q->currency);
  g_autofree char *total_h = g_strdup_printf (_("Total (%s)"), q->currency);
  /* Translators: the header of a quote's line-number column (1, 2, 3 ...);
   * short, as "Pos." in German. */
  const char *headers[] = { C_("quote line", "No."), _("Item"), _("Qty"), list_h, _("Discount"), net_h,
                            total_h };
  /* The line number's room comes from the discount and the total, which
   * are wider than their figures. */
  static const double widths[] = { 0.05, 0.27, 0.07, 0.15, 0.10, 0.15, 0.21 };
  static const QmAlign aligns[] = { QM_ALIGN_END, QM_ALIGN_START, QM_ALIGN_END, QM_ALIGN_END,
                                    QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END };

  qm_document_add_heading (doc, _("Items"), 1);
  qm_document_begin_table (doc, G_N_ELEMENTS (headers), headers, widths, aligns);
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *l = &q->lines[i];
      g_autofree char *label = qm_quote_line_label (l);
      g_autofree char *item = l->optional
        ? g_strdup_printf (l->accepted ? _("%s (optional)") : _("%s (optional, declined)"), label)
        : g_strdup (label);
      g_autofree char *list = amount (q, l->list_unit), *net = amount (q, l->net_unit);
      g_autofree char *total = l->accepted ? amount (q, l->total) : g_strdup ("–");
      char qty[32], discount[32], percent[32], number[16];
      const char *cells[7];

      qm_format_number (qty, sizeof qty, l->qty, 0);
      if (l->discount > 0.00005)
        g_snprintf (discount, sizeof discount, "%s %%",
                    qm_format_number (percent, sizeof percent, l->discount * 100.0, 1));
      else
        g_strlcpy (discount, "–", sizeof discount);
      g_snprintf (number, sizeof number, "%u", i + 1);
      cells[0] = number, cells[1] = item, cells[2] = qty, cells[3] = list, cells[4] = discount;
      cells[5] = net, cells[6] = total;
      qm_document_add_row (doc, cells, FALSE);
    }
  {
    g_autofree char *net = amount (q, q->net), *tax = amount (q, q->tax), *gross = amount (q, q->gross);
    char rate[32];
    g_autofree char *tax_label = NULL;

    qm_format_number (rate, sizeof rate, q->tax_rate * 100.0, 1);
    /* Translators: a quote's tax row; %s is the rate, e.g. "19.0". */
    tax_label = g_strdup_printf (_("Tax (%s %%)"), rate);
    /* The totals stay with the last line (issue #35 item 3). */
    qm_document_add_total_row (doc, (const char *[]) { "", _("Net"), "", "", "", "", net }, TRUE);
    qm_document_add_total_row (doc, (const char *[]) { "", tax_label, "", "", "", "", tax }, FALSE);
    qm_document_add_total_row (doc, (const char *[]) { "", _("Total, including tax"), "", "", "", "", gross },
                               TRUE);
  }
  qm_document_end_table (doc);
}

static void
draw_cashflow (cairo_t  *cr,
               double    width,
               double    height,
               gpointer  user_data)
{
  QmChartStyle style;

  qm_chart_style_init_light (&style);
  qm_chart_render_cashflow (&(QmChartFrame) { cr, &style, width, height }, user_data, NULL);
}

static void
add_schedule (QmDocument    *doc,
              const QmPlan  *plan,
              const QmQuote *q)
{
  g_autofree char *paid_h = g_strdup_printf (_("Payment (%s)"), q->currency);
  const char *headers[] = { _("Month"), _("For"), paid_h };
  static const double widths[] = { 0.15, 0.55, 0.30 };
  static const QmAlign aligns[] = { QM_ALIGN_END, QM_ALIGN_START, QM_ALIGN_END };
  g_autofree char *terms = NULL, *deposit_paid = NULL;
  char deposit[32], days[32];
  double before = 0.0;

  /* Each section goes where there is room for all of it (issue #35 item
   * 3: no page left near-empty by a forced break). */
  qm_document_begin_keep (doc);
  qm_document_add_heading (doc, _("Delivery and payment"), 1);
  qm_format_number (deposit, sizeof deposit, plan->quote.deposit_fraction * 100.0, 0);
  qm_format_number (days, sizeof days, plan->quote.payment_days, 0);
  /* Translators: %s are the deposit in percent and the days after each
   * delivery the rest falls due; month 0 is the month of the order. */
  terms = g_strdup_printf (_("A deposit of %s %% of the total is due with the order (month 0). The rest is due in parts, each %s days after the delivery it pays for, in proportion to the nodes delivered."),
                           deposit, days);
  qm_document_add_paragraph (doc, terms);
  qm_document_begin_table (doc, G_N_ELEMENTS (headers), headers, widths, aligns);
  deposit_paid = amount (q, q->deposit);
  qm_document_add_row (doc, (const char *[]) { "0", _("Deposit with the order"), deposit_paid }, FALSE);
  for (guint k = 0; k < q->n_phases; k++)
    {
      g_autofree char *paid = amount (q, q->phase_payment[k]);
      g_autofree char *what = NULL;
      char month[16], percent[32];

      g_snprintf (month, sizeof month, "%u", q->payment_month[k]);
      qm_format_number (percent, sizeof percent, (q->delivered_fraction[k] - before) * 100.0, 0);
      before = q->delivered_fraction[k];
      /* Translators: what a payment of a quote is for; %u is the month of
       * the delivery, %s the share of the nodes it brings. */
      what = g_strdup_printf (_("Delivery in month %u (%s %% of the nodes)"), q->delivery_month[k], percent);
      qm_document_add_row (doc, (const char *[]) { month, what, paid }, FALSE);
    }
  qm_document_end_table (doc);
  qm_document_end_keep (doc);

  qm_document_begin_keep (doc);
  qm_document_add_heading (doc, _("Cash flow: buying against renting"), 2);
  qm_document_add_figure (doc, CHART_HEIGHT, draw_cashflow, g_memdup2 (q, sizeof *q), g_free);
  if (q->break_even_valid)
    {
      /* Translators: %u is a month number after the order. */
      g_autofree char *text = g_strdup_printf (_("Counting power and colocation, buying costs less than renting the same GPUs from month %u on."),
                                               q->break_even_month);
      qm_document_add_paragraph (doc, text);
    }
  else
    qm_document_add_paragraph (doc, _("Over this horizon, renting the same GPUs costs no more than buying them."));
  qm_document_end_keep (doc);
}

static void
draw_signatures (cairo_t  *cr,
                 double    width,
                 double    height,
                 gpointer  user_data)
{
  QmChartStyle style;
  const char *parties[] = { _("For the supplier"), _("For the customer") };
  double col = (width - 24.0) / 2.0;

  qm_chart_style_init_light (&style);
  cairo_save (cr);
  qm_chart_set_color (cr, &style.foreground);
  cairo_set_line_width (cr, 0.6);
  for (guint i = 0; i < 2; i++)
    {
      double x = i * (col + 24.0);

      qm_chart_text (cr, &style, &(QmChartLabel) { QM_TEXT_BOLD, x, 0, 0, 0 }, parties[i]);
      for (guint k = 0; k < 3; k++)
        {
          const char *what[] = { _("Name"), _("Date"), _("Signature") };
          double y = 40.0 + k * 32.0;

          cairo_move_to (cr, x, y);
          cairo_line_to (cr, x + col, y);
          cairo_stroke (cr);
          qm_chart_text (cr, &style, &(QmChartLabel) { QM_TEXT_SMALL, x, y + 2.0, 0, 0 }, what[k]);
        }
    }
  cairo_restore (cr);
}

static void
add_terms (QmDocument          *doc,
           const QmQuoteHeader *h,
           const QmQuote       *q)
{
  /* The terms and the signatures on one page, which the customer signs
   * and returns: after the cash flow when they fit there, else on a page
   * of their own. */
  qm_document_begin_keep (doc);
  qm_document_add_heading (doc, _("Terms"), 1);
  qm_document_add_paragraph (doc, _("Unit prices are converted once into the quote’s currency and rounded to its smallest unit, half away from zero; each line total is its quantity times its net unit price; tax is charged on the net total and rounded once; the total is net plus tax. Quantities are whole units. Support and warranty are priced on list prices. Optional lines the customer declines are not part of the total."));
  if (h->payment_terms && *h->payment_terms)
    {
      /* Translators: %s is the payment terms a quote states, e.g. "Net 30". */
      g_autofree char *pay = g_strdup_printf (_("Payment terms: %s"), h->payment_terms);
      qm_document_add_paragraph (doc, pay);
    }
  add_bank_details (doc, h);
  if (h->terms && *h->terms)
    qm_document_add_paragraph (doc, h->terms);
  qm_document_add_heading (doc, _("Acceptance"), 2);
  qm_document_add_figure (doc, SIGNATURE_HEIGHT, draw_signatures, NULL, NULL);
  qm_document_end_keep (doc);
}

static void
add_technical_summary (QmDocument       *doc,
                       const QmPlan     *plan,
                       const QmEstimate *e)
{
  g_autofree char *text = NULL;
  char gpus[32], days[QM_FORMAT_BUF], kw[32];

  qm_document_begin_keep (doc);
  qm_document_add_heading (doc, _("The plan behind this quote"), 1);
  qm_format_number (gpus, sizeof gpus, e->gpus, 0);
  qm_format_days (days, sizeof days, e->train_days);
  qm_format_number (kw, sizeof kw, e->power.facility_peak_kw, 0);
  /* A customer reads the GPU's name, never a catalog id or a command
   * (issue #35 item 3). */
  if (e->has_inference)
    {
      char rate[32];

      qm_format_number (rate, sizeof rate, e->inference.tokens_per_s_total, 0);
      /* Translators: %s are the plan's name, its GPU count and GPU name,
       * then the output tokens per second and the facility power in kW. */
      text = g_strdup_printf (_("“%s”: %s × %s in %u servers, serving %s output tokens per second within its latency targets; the cluster draws %s kW at the wall. The plan summary gives the full estimate, its assumptions and its sources."),
                              plan->name, gpus, plan->hardware.gpu.info.name, e->cluster.nodes, rate, kw);
    }
  else
    /* Translators: %s are the plan's name, its GPU count and GPU name,
     * the training time and the facility power in kW. */
    text = g_strdup_printf (_("“%s”: %s × %s in %u servers; training takes %s; the cluster draws %s kW at the wall. The plan summary gives the full estimate, its assumptions and its sources."),
                            plan->name, gpus, plan->hardware.gpu.info.name, e->cluster.nodes, days, kw);
  qm_document_add_paragraph (doc, text);
  {
    /* How far to trust those figures, as the plan summary says it. */
    g_autofree char *bands = qm_report_bands_text (plan, e);

    if (bands != NULL)
      qm_document_add_paragraph (doc, bands);
  }
  qm_document_end_keep (doc);
}

QmDocument *
qm_quote_report_new (const QmPlan        *plan,
                     const QmEstimate    *estimate,
                     const QmQuoteHeader *header,
                     const QmQuote       *quote,
                     const GDate         *today,
                     QmPaper              paper)
{
  g_autofree char *title = NULL, *footer = NULL;
  QmQuoteHeader h = *header;
  QmDocument *doc;

  /* A header whose caller did not date its prices: from the estimate,
   * at the default age limit. */
  if (!g_date_valid (&h.prices_as_of))
    qm_quote_header_set_prices (&h, estimate, h.price_max_age_months);
  header = &h;
  /* Translators: a quote's title; %s is its number, e.g. "Q-2026-0042". */
  title = g_strdup_printf (_("Quote %s"), header->number && *header->number ? header->number : _("(draft)"));
  /* Translators: the footer of every page of a quote; %s is its title. */
  footer = g_strdup_printf (_("%s · made with Quartermaster"), title);
  doc = qm_document_new (paper, title, footer);
  add_letterhead (doc, header);
  qm_document_add_heading (doc, title, 0);
  add_cover (doc, plan, header, quote, today);
  add_lines (doc, quote);
  add_schedule (doc, plan, quote);
  add_terms (doc, header, quote);
  add_technical_summary (doc, plan, estimate);
  return doc;
}
