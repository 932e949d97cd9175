/* qm-quote-csv.h: a quote's lines and totals as CSV (RFC 4180, CRLF, the
 * spreadsheet-formula guard of qm_csv_append_field ()), for buyers who
 * want the figures without the workbook's formulas.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-quote-json.h"

G_BEGIN_DECLS

/* Amounts in major units with a "." decimal point and no grouping, so any
 * locale's spreadsheet reads them as numbers; the currency is its own
 * column. */
char *qm_quote_to_csv (const QmQuoteHeader *header,
                       const QmQuote       *quote);

G_END_DECLS
