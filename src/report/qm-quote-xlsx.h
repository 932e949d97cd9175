/* qm-quote-xlsx.h: a quote as an Excel workbook whose totals are live
 * formulas (issue #22: "a buyer who changes a discount in the spreadsheet
 * sees the totals follow"), written with libxlsxwriter.
 *
 * Sheet "Quote": the header (the quote date a date cell, the last valid
 * day a formula of it), one row a line (quantity, list unit price and
 * discount are values; the net unit price, the line total, net, tax and
 * gross are formulas that round as docs/quotes.md says, and so are the
 * quantity and price of the lines made from others: spares, support,
 * shipping and installation, issue #35 item 2). Sheet "Cash flow":
 * the months, with the totals and running sums as formulas. Every formula
 * carries its computed result, so a viewer that does not recalculate shows
 * the same figures as the PDF.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-quote-json.h"

G_BEGIN_DECLS

gboolean qm_quote_write_xlsx (const QmQuoteHeader *header,
                              const QmQuote       *quote,
                              const char          *path,
                              GError             **error);

G_END_DECLS
