/* qm-quote-report.h: the quote as a PDF a customer can sign (issue #22):
 * a cover with the number, revision, customer and validity; the lines with
 * list and negotiated prices and the totals; delivery, payments and the
 * cash-flow chart; the terms; a signature block; and the technical summary
 * the prices rest on.
 *
 * The document is built from the quote as computed (or as a stored
 * revision froze it) and from the dates given, never from the clock, so a
 * revision printed again next year reads the same. Its header block names
 * the project, the preparer and the revision ("Revision A"; a draft only
 * when @header has none). It is paginated as a document (issue #35 item
 * 3): the totals stay with the last lines, each later section goes where
 * there is room for all of it, and the columns fit their numbers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-document.h"
#include "qm-estimate.h"
#include "qm-quote-json.h"

G_BEGIN_DECLS

/* @today decides only whether the quote is marked as expired. */
QmDocument *qm_quote_report_new (const QmPlan        *plan,
                                 const QmEstimate    *estimate,
                                 const QmQuoteHeader *header,
                                 const QmQuote       *quote,
                                 const GDate         *today,
                                 QmPaper              paper);


G_END_DECLS
