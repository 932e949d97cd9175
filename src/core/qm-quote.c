/* qm-quote.c: lines, totals, delivery and cash flow of a quote (see
 * qm-quote.h; the rules are written out for users in docs/quotes.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-quote.h"

/* Typical terms of hardware purchase orders for GPU servers: a deposit
 * at order, net 30 on delivery, 8-16 weeks lead time (common purchase
 * terms; vendors state their own in each quote). Assumptions
 * the user sees and changes in the quote, not sourced figures. */
#define DEFAULT_DEPOSIT_FRACTION 0.3
#define DEFAULT_PAYMENT_DAYS     30.0
#define DEFAULT_LEAD_WEEKS       12.0

void
qm_quote_terms_init (QmQuoteTerms    *terms,
                     const QmPricing *pricing)
{
  memset (terms, 0, sizeof *terms);
  g_strlcpy (terms->currency, "USD", sizeof terms->currency);
  terms->exchange_rate = 1.0;
  terms->deposit_fraction = DEFAULT_DEPOSIT_FRACTION;
  terms->payment_days = DEFAULT_PAYMENT_DAYS;
  terms->lead_weeks = DEFAULT_LEAD_WEEKS;
  terms->phase_interval_months = 1;
  terms->valid_days = 30;
  if (pricing != NULL)
    {
      if (isfinite (pricing->support_fraction) && pricing->support_fraction > 0.0)
        terms->support_rate = pricing->support_fraction;
      if (isfinite (pricing->amortization_years) && pricing->amortization_years > 0.0)
        terms->support_years = pricing->amortization_years;
    }
}

/* The role of each BOM line, by its untranslated label (qm-cost.c): the
 * first part of a line key. A label not listed (a BOM line added later)
 * takes its label folded to lower case, with '-' for anything else. */
static const struct { const char *item, *role; } roles[] = {
  { "Servers", "servers" },
  { "GPUs", "gpus" },
  { "Compute NICs", "compute-nics" },
  { "Compute fabric switches", "compute-switches" },
  { "Storage fabric switches", "storage-switches" },
  { "Fabric cables", "cables" },
  { "Optical transceivers", "transceivers" },
  { "Management switches", "mgmt-switches" },
  { "Racks", "racks" },
  { "Liquid-cooled racks", "liquid-racks" },
  { "Rack PDUs", "pdus" },
  { "Storage capacity (TB)", "storage-capacity" },
  { "Storage write bandwidth (GB/s)", "storage-bandwidth" },
  { "Installation", "installation" },
  { "GPU-hours", "gpu-hours" },
  { "Storage (TB-months)", "storage-months" },
  { "Egress (GB)", "egress" },
};

void
qm_quote_line_key (const QmBomLine *line,
                   char            *buf,
                   gsize            size)
{
  const char *role = NULL;
  char folded[48];
  gsize n = 0;

  g_return_if_fail (buf != NULL && size > 0);

  for (guint i = 0; i < G_N_ELEMENTS (roles) && line->item != NULL; i++)
    if (strcmp (line->item, roles[i].item) == 0)
      role = roles[i].role;
  if (role == NULL)
    {
      for (const char *c = line->item != NULL ? line->item : "line"; *c != '\0' && n + 1 < sizeof folded; c++)
        {
          char ch = g_ascii_isalnum (*c) ? g_ascii_tolower (*c) : '-';

          if (ch == '-' && (n == 0 || folded[n - 1] == '-'))
            continue;
          folded[n++] = ch;
        }
      while (n > 0 && folded[n - 1] == '-')
        n--;
      folded[n] = '\0';
      role = n > 0 ? folded : "line";
    }
  if (line->catalog_id != NULL && *line->catalog_id != '\0')
    g_snprintf (buf, size, "%s:%s", role, line->catalog_id);
  else
    g_strlcpy (buf, role, size);
}

const QmQuoteItemTerms *
qm_quote_terms_find (const QmQuoteTerms *terms,
                     const char         *key,
                     const char         *catalog_id)
{
  guint n = MIN (terms->n_items, QM_QUOTE_MAX_ITEMS);

  if (key != NULL && *key != '\0')
    for (guint i = 0; i < n; i++)
      if (strcmp (terms->items[i].key, key) == 0)
        return &terms->items[i];
  if (catalog_id != NULL && *catalog_id != '\0')
    for (guint i = 0; i < n; i++)
      if (terms->items[i].key[0] == '\0' && strcmp (terms->items[i].catalog_id, catalog_id) == 0)
        return &terms->items[i];
  return NULL;
}

const QmQuoteLine *
qm_quote_find_line (const QmQuote *quote,
                    const char    *key)
{
  for (guint i = 0; key != NULL && i < quote->n_lines; i++)
    if (strcmp (quote->lines[i].key, key) == 0)
      return &quote->lines[i];
  return NULL;
}

/* Lines whose terms the quote's items give: the BOM's (spares, support
 * and shipping follow from them). */
static gboolean
has_terms (const QmQuoteLine *line)
{
  return line->kind == QM_QUOTE_LINE_HARDWARE || line->kind == QM_QUOTE_LINE_INSTALL;
}

void
qm_quote_terms_split (QmQuoteTerms  *terms,
                      const QmQuote *quote)
{
  QmQuoteItemTerms kept[QM_QUOTE_MAX_LINES + QM_QUOTE_MAX_ITEMS];
  guint n_kept = 0, n = MIN (terms->n_items, QM_QUOTE_MAX_ITEMS);
  gboolean used[QM_QUOTE_MAX_ITEMS] = { FALSE };

  /* Each line that an old entry applies to gets a copy under its key
   * (at most one per line: QM_QUOTE_MAX_LINES of them). */
  for (guint l = 0; l < MIN (quote->n_lines, QM_QUOTE_MAX_LINES); l++)
    {
      const QmQuoteLine *line = &quote->lines[l];
      const QmQuoteItemTerms *it;

      if (!has_terms (line) || line->key[0] == '\0')
        continue;
      it = qm_quote_terms_find (terms, line->key, line->catalog_id);
      if (it == NULL || it->key[0] != '\0')
        continue;
      used[it - terms->items] = TRUE;
      kept[n_kept] = *it;
      g_strlcpy (kept[n_kept].key, line->key, sizeof kept[n_kept].key);
      n_kept++;
    }
  /* The line's own entries, and old ones no line takes, stay. */
  for (guint i = 0; i < n; i++)
    if (!used[i])
      kept[n_kept++] = terms->items[i];
  /* No room for them all: the terms stay as they are (the old entries
   * still price their lines the same). */
  if (n_kept > QM_QUOTE_MAX_ITEMS)
    return;
  memcpy (terms->items, kept, n_kept * sizeof kept[0]);
  terms->n_items = n_kept;
}

QmQuoteItemTerms *
qm_quote_terms_edit (QmQuoteTerms  *terms,
                     const QmQuote *quote,
                     const char    *key)
{
  const QmQuoteLine *line = qm_quote_find_line (quote, key);
  QmQuoteItemTerms *it;

  if (line == NULL || !has_terms (line))
    return NULL;
  qm_quote_terms_split (terms, quote);
  for (guint i = 0; i < MIN (terms->n_items, QM_QUOTE_MAX_ITEMS); i++)
    if (strcmp (terms->items[i].key, key) == 0)
      return &terms->items[i];
  if (terms->n_items >= QM_QUOTE_MAX_ITEMS)
    return NULL;
  it = &terms->items[terms->n_items++];
  memset (it, 0, sizeof *it);
  g_strlcpy (it->key, key, sizeof it->key);
  if (line->catalog_id != NULL)
    g_strlcpy (it->catalog_id, line->catalog_id, sizeof it->catalog_id);
  return it;
}

static gboolean
fraction_ok (QmQuote    *out,
             double      v,
             const char *field,
             double      max)
{
  if (isfinite (v) && v >= 0.0 && v <= max)
    return TRUE;
  qm_issues_add (&out->issues, QM_ISSUE_ERROR, field, N_("out of range; taken as 0"), v);
  return FALSE;
}

static double
checked (QmQuote    *out,
         double      v,
         const char *field,
         double      max)
{
  return fraction_ok (out, v, field, max) ? v : 0.0;
}

static QmQuoteLine *
add_line (QmQuote         *out,
          QmQuoteLineKind  kind,
          const char      *key,
          const char      *item,
          const char      *catalog_id,
          double           qty,
          QmMinor          list_unit,
          QmMinor          net_unit)
{
  QmQuoteLine *line;

  if (!(qty > 0.0) || out->n_lines >= QM_QUOTE_MAX_LINES)
    return NULL;
  line = &out->lines[out->n_lines++];
  line->kind = kind;
  g_strlcpy (line->key, key, sizeof line->key);
  line->item = item;
  line->catalog_id = catalog_id;
  line->qty = qty;
  line->list_unit = list_unit;
  line->net_unit = net_unit;
  line->total = qm_money_scale (net_unit, qty);
  line->discount = list_unit > 0 ? 1.0 - (double) net_unit / (double) list_unit : 0.0;
  line->accepted = TRUE;
  return line;
}

/* The negotiated unit price of a BOM line. */
static QmMinor
net_unit_price (QmQuote                *out,
                const QmQuoteItemTerms *it,
                QmMinor                 list_unit)
{
  if (it == NULL)
    return list_unit;
  switch (it->discount_kind)
    {
    case QM_DISCOUNT_FRACTION:
      if (!fraction_ok (out, it->discount, "quote.discounts", 1.0))
        return list_unit;
      return qm_money_scale (list_unit, 1.0 - it->discount);
    case QM_DISCOUNT_UNIT_PRICE:
      if (!(isfinite (it->discount) && it->discount >= 0.0))
        {
          qm_issues_add (&out->issues, QM_ISSUE_ERROR, "quote.discounts",
                         N_("unit price must be >= 0"), it->discount);
          return list_unit;
        }
      return qm_money_round (it->discount, out->exponent);
    case QM_DISCOUNT_NONE:
    default:
      return list_unit;
    }
}

/* BOM lines are named by their untranslated labels (qm-cost.c). */
static gboolean
is_item (const char *label,
         const char *item)
{
  return label != NULL && strcmp (label, item) == 0;
}

/* Servers and what comes with each of them; the rest of the hardware
 * (fabric, storage, racks) is the cluster's and comes with the first
 * delivery. */
static gboolean
is_per_node (const char *item)
{
  return is_item (item, "Servers") || is_item (item, "GPUs") || is_item (item, "Compute NICs");
}

/* An item's lead time: as negotiated, else its catalog entry's, else the
 * quote's. */
static double
line_lead_weeks (const QmQuoteTerms     *terms,
                 const QmQuoteItemTerms *it,
                 const QmBomLine        *b)
{
  if (it != NULL && isfinite (it->lead_weeks) && it->lead_weeks > 0.0)
    return it->lead_weeks;
  if (isfinite (b->lead_weeks) && b->lead_weeks > 0.0)
    return b->lead_weeks;
  return terms->lead_weeks;
}

/* The longest lead times in weeks: of all the hardware, and of the lines
 * that come with the nodes. */
typedef struct
{
  double all;
  double nodes;
} LeadTimes;

/* The BOM's lines, at list and negotiated prices. */
static LeadTimes
add_bom_lines (QmQuote            *out,
               const QmCost       *cost,
               const QmQuoteTerms *terms,
               double              fx)
{
  LeadTimes lead = { 0.0, 0.0 };
  gboolean any = FALSE, any_node = FALSE;

  for (guint i = 0; i < cost->n_bom; i++)
    {
      const QmBomLine *b = &cost->bom[i];
      const QmQuoteItemTerms *it;
      char key[QM_QUOTE_KEY_MAX];
      gboolean install = is_item (b->item, "Installation");
      /* The installation line is a fraction of the hardware: one lot. A
       * sized quantity (storage TB) is bought in whole units, rounded up,
       * so that quantity × unit price is the total a buyer checks. */
      double qty = install ? 1.0 : ceil (b->qty - 1e-9);
      double unit_usd = install ? b->total_usd : b->unit_usd;
      QmMinor list_unit = qm_money_round (unit_usd * fx, out->exponent);
      QmQuoteLine *line;

      qm_quote_line_key (b, key, sizeof key);
      it = qm_quote_terms_find (terms, key, b->catalog_id);
      line = add_line (out, install ? QM_QUOTE_LINE_INSTALL : QM_QUOTE_LINE_HARDWARE, key,
                       b->item, b->catalog_id, qty, list_unit,
                       net_unit_price (out, it, list_unit));
      if (line == NULL)
        continue;
      line->lead_weeks = line_lead_weeks (terms, it, b);
      line->catalog_support_rate = b->support_rate;
      if (it != NULL)
        {
          /* The fraction as negotiated, not as the rounded prices give it
           * back: a spreadsheet that recomputes the line gets the same. */
          if (it->discount_kind == QM_DISCOUNT_FRACTION && line->list_unit > 0)
            line->discount = it->discount;
          g_strlcpy (line->vendor, it->vendor, sizeof line->vendor);
          line->terms_support_rate = it->support_rate;
        }
      /* Installation is work done on delivery, not shipped. */
      if (install)
        continue;
      lead.all = any ? MAX (lead.all, line->lead_weeks) : line->lead_weeks;
      any = TRUE;
      if (is_per_node (b->item))
        {
          lead.nodes = any_node ? MAX (lead.nodes, line->lead_weeks) : line->lead_weeks;
          any_node = TRUE;
        }
    }
  if (!any)
    lead.all = terms->lead_weeks;
  if (!any_node)
    lead.nodes = lead.all;
  return lead;
}

static void
mark_optional (QmQuote            *out,
               QmQuoteLine        *line,
               const QmQuoteTerms *terms)
{
  if (line == NULL || !(terms->optional_lines & QM_QUOTE_LINE_BIT (line->kind)))
    return;
  line->optional = TRUE;
  line->accepted = !(terms->declined_lines & QM_QUOTE_LINE_BIT (line->kind));
}

/* Spare servers and GPUs, whole units, at the negotiated price. */
static void
add_spares (QmQuote            *out,
            const QmQuoteTerms *terms,
            guint               n_bom_lines)
{
  double fraction = checked (out, terms->spares_fraction, "quote.spares_fraction", 1.0);

  if (fraction <= 0.0)
    return;
  for (guint i = 0; i < n_bom_lines; i++)
    {
      QmQuoteLine *hw = &out->lines[i];
      QmQuoteLine *spare;
      const char *label;
      char key[QM_QUOTE_KEY_MAX];

      if (is_item (hw->item, "Servers"))
        label = N_("Spare servers");
      else if (is_item (hw->item, "GPUs"))
        label = N_("Spare GPUs");
      else
        continue;
      g_snprintf (key, sizeof key, "spares/%s", hw->key);
      spare = add_line (out, QM_QUOTE_LINE_SPARES, key, label, hw->catalog_id,
                        ceil (hw->qty * fraction - 1e-9), hw->list_unit, hw->net_unit);
      /* Support at the item's rate. Its lead time stays unset (0), as
       * revisions stored before per-item lead times print it. */
      if (spare != NULL)
        {
          spare->rate = fraction;
          spare->catalog_support_rate = hw->catalog_support_rate;
          spare->terms_support_rate = hw->terms_support_rate;
        }
      mark_optional (out, spare, terms);
    }
}

/* Cables, optics, racks and PDUs carry no support contract of their own
 * (they are replaced under the system's warranty, or as spares). */
static gboolean
is_passive (const char *item)
{
  static const char *const passive[] = {
    "Fabric cables", "Optical transceivers", "Racks", "Liquid-cooled racks", "Rack PDUs",
  };

  for (guint i = 0; i < G_N_ELEMENTS (passive); i++)
    if (is_item (item, passive[i]))
      return TRUE;
  return FALSE;
}

/* Support and warranty for each active hardware line (and its spares):
 * years × the item's yearly rate × its list price (the rate as
 * negotiated, else the catalog entry's, else the quote's); the line keeps the
 * item's label, its kind says it is support. Not discounted: vendors
 * price support contracts on list. */
static void
add_support (QmQuote            *out,
             const QmQuoteTerms *terms,
             guint               n_lines_before)
{
  double years = checked (out, terms->support_years, "quote.support_years", 20.0);

  if (years <= 0.0)
    return;
  for (guint i = 0; i < n_lines_before; i++)
    {
      QmQuoteLine *hw = &out->lines[i];
      double rate = terms->support_rate;
      char key[QM_QUOTE_KEY_MAX];
      QmQuoteLine *support;
      QmMinor unit;

      if ((hw->kind != QM_QUOTE_LINE_HARDWARE && hw->kind != QM_QUOTE_LINE_SPARES) || is_passive (hw->item))
        continue;
      /* As negotiated for the line (a spare as for its line), else the
       * catalog entry's, else the quote's. */
      if (hw->terms_support_rate != 0.0)
        rate = hw->terms_support_rate;
      else if (hw->catalog_support_rate > 0.0)
        rate = hw->catalog_support_rate;
      if (!fraction_ok (out, rate, "quote.support_rate", 1.0) || rate == 0.0)
        continue;
      unit = qm_money_scale (hw->list_unit, rate * years);
      g_snprintf (key, sizeof key, "support/%s", hw->key);
      support = add_line (out, QM_QUOTE_LINE_SUPPORT, key, hw->item, hw->catalog_id, hw->qty, unit, unit);
      if (support != NULL)
        support->rate = rate * years;
      mark_optional (out, support, terms);
    }
}

static void
add_shipping (QmQuote            *out,
              const QmQuoteTerms *terms)
{
  double fraction = checked (out, terms->shipping_fraction, "quote.shipping_fraction", 1.0);
  QmMinor hardware = 0;
  QmQuoteLine *shipping;
  QmMinor unit;

  if (fraction <= 0.0)
    return;
  for (guint i = 0; i < out->n_lines; i++)
    if ((out->lines[i].kind == QM_QUOTE_LINE_HARDWARE || out->lines[i].kind == QM_QUOTE_LINE_SPARES)
        && out->lines[i].accepted)
      hardware += out->lines[i].total;
  unit = qm_money_scale (hardware, fraction);
  shipping = add_line (out, QM_QUOTE_LINE_SHIPPING, "shipping", N_("Shipping"), NULL, 1.0, unit, unit);
  if (shipping != NULL)
    shipping->rate = fraction;
  mark_optional (out, shipping, terms);
}

static void
sum_totals (QmQuote *out,
            double   tax_rate)
{
  for (guint i = 0; i < out->n_lines; i++)
    {
      const QmQuoteLine *l = &out->lines[i];

      if (!l->accepted)
        continue;
      out->list_total += qm_money_scale (l->list_unit, l->qty);
      out->net += l->total;
    }
  /* Tax on the net total, rounded once (EU VAT Directive art. 73: the
   * taxable amount is the consideration; rounding per invoice total). */
  out->tax = qm_money_scale (out->net, tax_rate);
  out->gross = out->net + out->tax;
}

static guint
months_after (double days)
{
  if (!(isfinite (days) && days > 0.0))
    return 0;
  return (guint) ceil (days / QM_DAYS_PER_MONTH - 1e-9);
}

/* Deliveries in phases. Each phase ships when the longest lead time of
 * its lines has passed: the first brings the cluster's fabric, storage
 * and racks with its nodes; the later ones bring nodes, one every
 * interval after the nodes' lead time, never before the phase ahead. */
static void
schedule (QmQuote            *out,
          const QmQuoteTerms *terms,
          const LeadTimes    *lead_weeks)
{
  guint lead = months_after (lead_weeks->all * 7.0);
  guint node_lead = months_after (lead_weeks->nodes * 7.0);
  guint interval = MAX (terms->phase_interval_months, 1u);
  double sum = 0.0, delivered = 0.0;
  guint n = MIN (terms->n_phases, QM_QUOTE_MAX_PHASES);

  for (guint k = 0; k < n; k++)
    sum += checked (out, terms->phases[k], "quote.phases", 1.0);
  if (n == 0 || sum <= 0.0)
    {
      out->n_phases = 1;
      out->delivery_month[0] = lead;
      out->delivered_fraction[0] = 1.0;
    }
  else
    {
      out->n_phases = 0;
      for (guint k = 0; k < n; k++)
        {
          double f = isfinite (terms->phases[k]) && terms->phases[k] > 0.0 ? terms->phases[k] : 0.0;
          guint month = (out->n_phases == 0 ? lead : node_lead) + k * interval;

          if (f <= 0.0)
            continue;
          if (out->n_phases > 0)
            month = MAX (month, out->delivery_month[out->n_phases - 1]);
          delivered += f / sum;
          out->delivery_month[out->n_phases] = month;
          out->delivered_fraction[out->n_phases] = MIN (delivered, 1.0);
          out->n_phases++;
        }
    }
  out->training_start_month = out->delivery_month[out->n_phases - 1];
}

static void
buy_cash_flow (QmQuote            *out,
               const QmCost       *cost,
               const QmQuoteTerms *terms,
               double              fx,
               guint               n_months)
{
  double deposit_fraction = checked (out, terms->deposit_fraction, "quote.deposit_fraction", 1.0);
  QmMinor deposit = qm_money_scale (out->gross, deposit_fraction);
  double weights[QM_QUOTE_MAX_PHASES];
  QmMinor parts[QM_QUOTE_MAX_PHASES];
  guint due = months_after (terms->payment_days);
  double before = 0.0;

  out->deposit_fraction = deposit_fraction;
  out->deposit = deposit;
  out->months[0].payments += deposit;
  for (guint k = 0; k < out->n_phases; k++)
    {
      weights[k] = out->delivered_fraction[k] - before;
      before = out->delivered_fraction[k];
    }
  qm_money_split (out->gross - deposit, weights, out->n_phases, parts);
  for (guint k = 0; k < out->n_phases; k++)
    {
      out->payment_month[k] = MIN (out->delivery_month[k] + due, n_months - 1);
      out->phase_payment[k] = parts[k];
      out->months[out->payment_month[k]].payments += parts[k];
    }

  /* Power and colocation run for what has arrived (QmCost gives them for
   * the whole cluster around the clock). */
  for (guint m = 0; m < n_months; m++)
    {
      double arrived = 0.0;

      for (guint k = 0; k < out->n_phases; k++)
        if (out->delivery_month[k] <= m)
          arrived = out->delivered_fraction[k];
      out->months[m].operations =
        qm_money_round ((cost->power_monthly + cost->colo_monthly) * arrived * fx, out->exponent);
      out->months[m].rent = qm_money_round (cost->rent_monthly * fx, out->exponent);
    }
}

static void
rent_cash_flow (QmQuote *out,
                guint    n_months)
{
  double weights[QM_QUOTE_MAX_MONTHS];
  QmMinor parts[QM_QUOTE_MAX_MONTHS];

  for (guint m = 0; m < n_months; m++)
    weights[m] = 1.0;
  qm_money_split (out->gross, weights, n_months, parts);
  for (guint m = 0; m < n_months; m++)
    out->months[m].payments = parts[m];
}

static void
accumulate (QmQuote *out)
{
  QmMinor spend = 0, rent = 0;
  double buy_cash[QM_QUOTE_MAX_MONTHS], rent_cash[QM_QUOTE_MAX_MONTHS];

  for (guint m = 0; m < out->n_months; m++)
    {
      QmCashFlowMonth *c = &out->months[m];

      c->month = m;
      c->spend = c->payments + c->operations;
      spend += c->spend;
      rent += c->rent;
      c->spend_cumulative = spend;
      c->rent_cumulative = rent;
      /* Minor units: exact as doubles below 2^53. */
      buy_cash[m] = (double) c->spend;
      rent_cash[m] = (double) c->rent;
    }
  /* The one break-even definition (qm-cost.h). */
  out->break_even_valid = qm_break_even_month (buy_cash, rent_cash, out->n_months, &out->break_even_month);
  out->spend_total = spend;
  out->rent_total = rent;
}

void
qm_quote_compute (const QmCost       *cost,
                  QmPricingMode       mode,
                  double              run_months,
                  const QmQuoteTerms *terms,
                  QmQuote            *out)
{
  double fx, horizon, tax_rate;
  LeadTimes lead;
  guint n_bom_lines, n_months;

  memset (out, 0, sizeof *out);
  if (!qm_currency_code_valid (terms->currency))
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "quote.currency",
                     N_("must be an ISO 4217 code such as EUR; using USD"), 0);
      g_strlcpy (out->currency, "USD", sizeof out->currency);
    }
  else
    g_strlcpy (out->currency, terms->currency, sizeof out->currency);
  out->exponent = qm_currency_exponent (out->currency);

  fx = terms->exchange_rate;
  if (fx == 0.0 && strcmp (out->currency, "USD") == 0)
    fx = 1.0;
  if (!(isfinite (fx) && fx > 0.0))
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "quote.exchange_rate", N_("must be > 0"), fx);
      fx = strcmp (out->currency, "USD") == 0 ? 1.0 : 0.0;
    }
  tax_rate = checked (out, terms->tax_rate, "quote.tax_rate", 1.0);
  out->exchange_rate = fx;
  out->tax_rate = tax_rate;
  out->mode = mode;

  lead = add_bom_lines (out, cost, terms, fx);
  if (mode != QM_PRICING_BUY)
    lead.all = lead.nodes = 0.0;
  n_bom_lines = out->n_lines;
  if (mode == QM_PRICING_BUY)
    {
      add_spares (out, terms, n_bom_lines);
      add_support (out, terms, out->n_lines);
      add_shipping (out, terms);
    }
  sum_totals (out, tax_rate);
  schedule (out, terms, &lead);

  horizon = terms->horizon_months > 0.0 ? terms->horizon_months : cost->horizon_months;
  if (mode != QM_PRICING_BUY)
    horizon = run_months;
  if (!(isfinite (horizon) && horizon > 0.0))
    horizon = 1.0;
  n_months = (guint) ceil (horizon - 1e-9);
  if (mode == QM_PRICING_BUY)
    n_months = MAX (n_months, out->delivery_month[out->n_phases - 1]
                              + months_after (terms->payment_days) + 1);
  if (n_months > QM_QUOTE_MAX_MONTHS)
    {
      qm_issues_add (&out->issues, QM_ISSUE_WARNING, "quote.horizon_months",
                     N_("cash flow cut at 180 months"), n_months);
      n_months = QM_QUOTE_MAX_MONTHS;
    }
  out->n_months = MAX (n_months, 1u);

  if (mode == QM_PRICING_BUY)
    buy_cash_flow (out, cost, terms, fx, out->n_months);
  else
    rent_cash_flow (out, out->n_months);
  accumulate (out);
}

char *
qm_quote_line_label (const QmQuoteLine *l)
{
  const char *item = g_dgettext (GETTEXT_PACKAGE, l->item);

  if (l->kind == QM_QUOTE_LINE_SUPPORT)
    /* Translators: a quote's support line; %s is the item, e.g. "Servers". */
    return g_strdup_printf (_("Support: %s"), item);
  return g_strdup (item);
}
