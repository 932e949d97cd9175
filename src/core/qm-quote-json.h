/* qm-quote-json.h: a quote as JSON, for quartermaster-cli quote --json
 * (issue #22: quote.number, revision, currency, valid_until, lines[],
 * totals {net, tax, gross}, cash_flow[]). Amounts are numbers in the
 * quote's currency, exact to its minor unit (docs/quotes.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-quote.h"

G_BEGIN_DECLS

/* The supplier: who issues the quote, printed as its letterhead and
 * payment details (issue #35 item 2). One set per store (the supplier
 * table, qm-supplier-store.c); every field may be empty, and an empty one
 * prints nothing. */
typedef struct
{
  char *name;
  char *address;        /* several lines */
  char *vat_id;
  char *registration;   /* company registration, e.g. "HRB 12345, Amtsgericht Berlin" */
  char *email;
  char *phone;
  char *bank;
  char *iban;
  char *bic;            /* BIC / SWIFT */
} QmSupplier;

/* The fields of QmSupplier, each once: the store's column, the label a
 * document and Preferences print (N_(), translate with _()). */
typedef struct
{
  const char *key;
  const char *label;
  gsize       offset;
} QmSupplierField;

extern const QmSupplierField qm_supplier_fields[];
extern const guint           qm_supplier_n_fields;

#define QM_SUPPLIER_FIELD(s, f) (*(char **) G_STRUCT_MEMBER_P ((s), (f)->offset))

QmSupplier *qm_supplier_new       (void);   /* every field "" */
QmSupplier *qm_supplier_copy      (const QmSupplier *supplier);
void        qm_supplier_free      (QmSupplier       *supplier);
/* TRUE when every field is empty (or @supplier is NULL). */
gboolean    qm_supplier_is_empty  (const QmSupplier *supplier);
gboolean    qm_supplier_equal     (const QmSupplier *a,
                                   const QmSupplier *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmSupplier, qm_supplier_free)

/* Who and when: what the store (or the plan file) says of the quote. */
typedef struct
{
  const char *number;      /* "Q-2026-0042"; NULL for a draft from a file */
  const char *revision;    /* "A", "B" ...; NULL for a draft */
  const char *customer;    /* NULL or "" for none */
  GDate       issued;      /* the quote date */
  guint       valid_days;
  /* Printed on the PDF (a stored quote's; NULL or "" for none). */
  const char *project;
  const char *prepared_by;
  const char *payment_terms;
  const char *terms;       /* free text */
  /* How old its prices are (qm-price-age.h, issue #35): the date they
   * are as of (invalid: unknown) and the user's age limit in months (0:
   * the default); the documents judge the age on the issue date. Set by
   * qm_quote_header_set_prices(); not part of the quote's JSON, which a
   * stored revision freezes. */
  GDate       prices_as_of;
  guint       price_max_age_months;
  /* The customer's VAT id (a stored quote's), and the supplier printed
   * as the letterhead; NULL or empty for none. */
  const char       *customer_vat;
  const QmSupplier *supplier;
} QmQuoteHeader;

/* The last day the offer stands: @issued + @valid_days. */
GDate     qm_quote_valid_until   (const QmQuoteHeader *header);
/* TRUE once @today is past the last valid day. */
gboolean  qm_quote_expired       (const QmQuoteHeader *header,
                                  const GDate         *today);

JsonNode *qm_quote_to_json_node  (const QmQuoteHeader *header,
                                  const QmQuote       *quote,
                                  const GDate         *today);

/* "hardware", "installation", "spares", "support", "shipping": as the
 * JSON's lines[].kind says it. */
const char *qm_quote_line_kind_to_string (QmQuoteLineKind kind);

G_END_DECLS
