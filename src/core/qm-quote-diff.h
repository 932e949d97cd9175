/* qm-quote-diff.h: what changed between two revisions of a quote.
 *
 * A purchasing department reads a revision B against the A it replaces:
 * which lines came or went, which quantities and negotiated unit prices
 * moved, which optional lines were accepted or declined, and the gross.
 * The revision's note says why; this says what, from the frozen figures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-quote.h"

G_BEGIN_DECLS

typedef enum
{
  QM_QUOTE_CHANGE_CURRENCY,  /* then no unit price is compared */
  QM_QUOTE_CHANGE_ADDED,     /* a line the older revision lacks */
  QM_QUOTE_CHANGE_REMOVED,
  QM_QUOTE_CHANGE_QTY,
  QM_QUOTE_CHANGE_PRICE,     /* the negotiated (net) unit price */
  QM_QUOTE_CHANGE_ACCEPTED,  /* an optional line taken or dropped */
  QM_QUOTE_CHANGE_GROSS,
} QmQuoteChangeKind;

/* A plain value; the strings point into the quotes it was made from. */
typedef struct
{
  QmQuoteChangeKind kind;
  const QmQuoteLine *line;      /* in the newer quote (the older for REMOVED); NULL for the quote */
  double            old_qty, new_qty;
  QmMinor           old_minor, new_minor;  /* unit prices or gross */
  gboolean          accepted;    /* ACCEPTED: TRUE taken, FALSE dropped */
} QmQuoteChange;

/* Lines are the same line when kind, item and catalog id match. Fills
 * at most @max changes in line order, the gross last; returns how many. */
guint       qm_quote_diff            (const QmQuote  *older,
                                      const QmQuote  *newer,
                                      QmQuoteChange  *changes,
                                      guint           max);
/* One change in a sentence in the user's language, amounts in each
 * revision's currency: "Spare servers (hgx-h100-8): quantity 1 → 2". */
char       *qm_quote_change_describe (const QmQuoteChange *change,
                                      const QmQuote       *older,
                                      const QmQuote       *newer);
/* Every change, one per line; "No change in the lines or the total"
 * when there is none. */
char       *qm_quote_diff_describe   (const QmQuote  *older,
                                      const QmQuote  *newer);
/* The changes as a JSON array of { "change", "line", "item",
 * "catalog_id", "old", "new" } (amounts in major units of each side's currency). */
JsonNode   *qm_quote_diff_to_json    (const QmQuote  *older,
                                      const QmQuote  *newer);

G_END_DECLS
