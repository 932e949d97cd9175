/* qm-quote.h: a quote from a plan's bill of materials (issue #22).
 *
 * Takes the estimate's BOM (list prices in US dollars, from the catalog)
 * and the quote's terms, and gives what a purchasing department signs:
 * lines with list and negotiated prices in the quote's currency, support,
 * spares and shipping lines, optional lines the customer may drop, net,
 * tax and gross totals, the delivery schedule and when training can start,
 * and a monthly cash flow of buying against renting the same GPUs.
 *
 * Money is in minor units of the quote's currency (qm-money.h): each
 * unit price is converted and rounded once, and every total after that
 * is an exact sum, so the totals add up to the cent (docs/quotes.md).
 * Like the rest of the core it is a pure function of plain structs and
 * allocates nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-cost.h"
#include "qm-money.h"

G_BEGIN_DECLS

/* Terms for each BOM line, and room for as many entries read from files
 * written before per-line keys (one per catalog id). */
#define QM_QUOTE_MAX_ITEMS  (QM_BOM_MAX * 2)
/* A line key: "role:catalog-id", with "spares/" or "support/" before it
 * for the lines made from another (qm_quote_line_key ()). */
#define QM_QUOTE_KEY_MAX    112
#define QM_QUOTE_MAX_PHASES 12
#define QM_QUOTE_MAX_LINES  (QM_BOM_MAX * 2 + 4)
#define QM_QUOTE_MAX_MONTHS 180
/* Days in a mean Gregorian month (365.2425 / 12), to turn lead times in
 * weeks and payment terms in days into months. */
#define QM_DAYS_PER_MONTH 30.436875

typedef enum
{
  QM_QUOTE_LINE_HARDWARE,  /* a BOM line */
  QM_QUOTE_LINE_INSTALL,   /* the BOM's installation line */
  QM_QUOTE_LINE_SPARES,
  QM_QUOTE_LINE_SUPPORT,
  QM_QUOTE_LINE_SHIPPING,
} QmQuoteLineKind;

#define QM_QUOTE_LINE_BIT(k) (1u << (k))

typedef enum
{
  QM_DISCOUNT_NONE,
  QM_DISCOUNT_FRACTION,    /* off the list price: 0.12 is 12 % off */
  QM_DISCOUNT_UNIT_PRICE,  /* a negotiated unit price in the quote's currency */
} QmDiscountKind;

/* What was negotiated for one line of the quote (issue #35). @key is the
 * line's key (qm_quote_line_key ()), so that the switches, cables and
 * transceivers of one fabric, which share a catalog id, each have their
 * own terms. An entry with an empty @key was read from a file written
 * before per-line keys: it applies to every line with @catalog_id that
 * has no entry of its own, as then (docs/quotes.md). */
typedef struct
{
  char           key[QM_QUOTE_KEY_MAX];
  char           catalog_id[64];
  QmDiscountKind discount_kind;
  double         discount;
  char           vendor[64];
  double         lead_weeks;     /* 0: the catalog entry's, else the quote's */
  double         support_rate;   /* yearly, of the list price; 0: as lead_weeks */
} QmQuoteItemTerms;

typedef struct
{
  char   currency[4];        /* ISO 4217 */
  /* Units of the quote's currency per US dollar at the quote date; the
   * store's rate table or the plan file gives it, and the revision keeps it. */
  double exchange_rate;
  double tax_rate;           /* VAT or sales tax, a fraction of the net */

  double support_years;      /* 0: no support line */
  double support_rate;       /* yearly support as a fraction of list price, for
                              * items whose catalog entry gives none */
  double spares_fraction;    /* spare servers (and GPUs sold apart), rounded up */
  double shipping_fraction;  /* shipping as a fraction of the hardware's net */
  guint  optional_lines;     /* QM_QUOTE_LINE_BIT of kinds the customer may drop */
  guint  declined_lines;     /* ... and of those, the ones dropped */

  QmQuoteItemTerms items[QM_QUOTE_MAX_ITEMS];
  guint            n_items;

  /* Delivery: each line after its own lead time. The servers (and with
   * them GPUs and NICs) come in phases, one every phase_interval months,
   * each bringing its fraction of the nodes; the first also brings the
   * fabric, storage and racks, so it waits for the longest of all. */
  double lead_weeks;                          /* for items whose catalog entry gives none */
  double phases[QM_QUOTE_MAX_PHASES];         /* fractions; none = one delivery */
  guint  n_phases;
  guint  phase_interval_months;

  /* Payment: a deposit at order, the rest on each delivery in proportion to
   * what it brings, due payment_days later. */
  double deposit_fraction;
  double payment_days;

  double horizon_months;     /* 0: the cost's horizon (the amortisation) */
  guint  valid_days;         /* how long the offer stands from its issue date */
} QmQuoteTerms;

typedef struct
{
  QmQuoteLineKind kind;
  /* The line's own stable key (qm_quote_line_key ()): what its terms,
   * its field in the app and its row in every export are found by. */
  char            key[QM_QUOTE_KEY_MAX];
  const char     *item;        /* static English label, marked N_() (as QmBomLine) */
  const char     *catalog_id;  /* from the BOM line, or NULL */
  char            vendor[64];  /* from the item's terms; "" for none */
  double          qty;
  QmMinor         list_unit;
  QmMinor         net_unit;
  QmMinor         total;       /* net_unit × qty, rounded */
  double          discount;    /* the effective fraction off list */
  gboolean        optional;
  gboolean        accepted;    /* counted in the totals */
  /* Order to delivery: the item's negotiated lead time, else its catalog
   * entry's, else the quote's (docs/quotes.md). */
  double          lead_weeks;
  double          catalog_support_rate;  /* the entry's yearly rate; 0 = unknown */
  double          terms_support_rate;    /* the line's negotiated rate; 0 = none */
  /* A line made from other lines, the rate it was made with: spares, the
   * spares fraction of its line's quantity; support, years × the yearly
   * rate of its line's list price; shipping, the fraction of the accepted
   * hardware and spares' net. 0 for the rest. So that a spreadsheet can
   * write the line as a formula of the lines it comes from (the workbook,
   * issue #35 item 2). */
  double          rate;
} QmQuoteLine;

typedef struct
{
  guint   month;               /* 0 = the month of the order */
  QmMinor payments;            /* deposit and delivery payments */
  QmMinor operations;          /* power and colocation of what has arrived */
  QmMinor spend;               /* payments + operations: this quote's cash out */
  QmMinor rent;                /* renting the same GPUs instead (buy quotes) */
  QmMinor spend_cumulative;
  QmMinor rent_cumulative;
} QmCashFlowMonth;

typedef struct
{
  char        currency[4];
  int         exponent;        /* of the currency's minor unit */
  double      exchange_rate;   /* the rate used, per US dollar */
  double      tax_rate;        /* the rate used */

  QmQuoteLine lines[QM_QUOTE_MAX_LINES];
  guint       n_lines;

  QmMinor list_total;          /* accepted lines at list price */
  QmMinor net;                 /* accepted lines at negotiated price */
  QmMinor tax;
  QmMinor gross;

  guint   n_phases;
  guint   delivery_month[QM_QUOTE_MAX_PHASES];
  double  delivered_fraction[QM_QUOTE_MAX_PHASES];
  guint   training_start_month;  /* when the last phase has arrived */
  QmPricingMode mode;            /* buy: deposit and deliveries; rent: monthly */
  double  deposit_fraction;      /* the fraction of the gross used */
  QmMinor deposit;               /* due in month 0 */
  guint   payment_month[QM_QUOTE_MAX_PHASES];  /* when each delivery is paid for */
  QmMinor phase_payment[QM_QUOTE_MAX_PHASES];

  QmCashFlowMonth months[QM_QUOTE_MAX_MONTHS];
  guint           n_months;
  QmMinor         spend_total;   /* sum of the months' spend: gross + operations */
  QmMinor         rent_total;
  gboolean        break_even_valid;
  guint           break_even_month; /* first month buying has cost less, cumulatively */

  QmIssues issues;
} QmQuote;

/* Terms a quote starts from: USD at 1.0, no tax, a 30 % deposit, net 30,
 * one delivery after 12 weeks, valid 30 days; support as the pricing's
 * support fraction over the amortisation years. */
void qm_quote_terms_init (QmQuoteTerms    *terms,
                          const QmPricing *pricing);

/* A BOM line's key, in @buf: its role, from the line's untranslated
 * label ("servers", "compute-switches", "cables", ...), then ":" and its
 * catalog id when it has one: "compute-switches:ib-ndr-400". Two lines of
 * one BOM never share a key; the key stays as long as the line's role and
 * catalog item do. The one definition every layer reads (docs/quotes.md). */
void qm_quote_line_key (const QmBomLine *line,
                        char            *buf,
                        gsize            size);

/* The terms that apply to the line with @key and @catalog_id: its own
 * entry, else a catalog-wide entry for @catalog_id from an older file;
 * NULL when neither. */
const QmQuoteItemTerms *qm_quote_terms_find (const QmQuoteTerms *terms,
                                             const char         *key,
                                             const char         *catalog_id);

/* The entry of @quote's line @key, made when there is none (NULL when
 * @terms is full or @quote has no such line). Catalog-wide entries from
 * older files are first split into one entry per line they apply to, so
 * that editing one line leaves the others' terms as they were. */
QmQuoteItemTerms *qm_quote_terms_edit (QmQuoteTerms  *terms,
                                       const QmQuote *quote,
                                       const char    *key);

/* Splits every catalog-wide entry into an entry per line of @quote it
 * applies to; entries that apply to no line are kept. The quote computed
 * from the result is the same. */
void qm_quote_terms_split (QmQuoteTerms  *terms,
                           const QmQuote *quote);

/* The line of @quote with @key, or NULL. */
const QmQuoteLine *qm_quote_find_line (const QmQuote *quote,
                                       const char    *key);

/* @cost is the estimate's cost in @mode. A buy quote has the hardware,
 * its spares, support and shipping, paid by deposit and deliveries, and is
 * set against renting the same GPUs. A rent quote has the rented lines
 * (GPU-hours, storage, egress), paid monthly over @run_months. */
void qm_quote_compute (const QmCost       *cost,
                       QmPricingMode       mode,
                       double              run_months,
                       const QmQuoteTerms *terms,
                       QmQuote            *out);

/* "Support: Servers", "Spare servers": a line's label for people. */
char       *qm_quote_line_label (const QmQuoteLine   *line);

G_END_DECLS
