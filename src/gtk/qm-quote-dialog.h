/* qm-quote-dialog.h: one stored quote's revisions (A, B, ... with what
 * changed in each), with its state, the plan it belongs to, and each
 * revision's PDF, workbook, CSV and printing. A revision is rebuilt from
 * its frozen data (qm_quote_store_load_revision), never from today's
 * catalog, so an old revision prints as it was issued.
 *
 * Actions (on the widget class):
 *   quote.open-plan                     ::open-plan
 *   quote.export-pdf       (s letter)   ask for a file and write
 *   quote.export-xlsx      (s letter)
 *   quote.export-csv       (s letter)
 *   quote.print            (s letter)
 *
 * Signals:
 *   ::open-plan (gint64 id): the quote's plan, while it exists.
 *   ::state-changed: the quote's state was changed in the store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-quote-store.h"

G_BEGIN_DECLS

#define QM_TYPE_QUOTE_DIALOG (qm_quote_dialog_get_type ())
G_DECLARE_FINAL_TYPE (QmQuoteDialog, qm_quote_dialog, QM, QUOTE_DIALOG, AdwWindow)

/* Today, as the quote list and the PDFs judge expiry by it. */
void        qm_quote_today               (GDate         *out);

/* Writes @revision as PDF, XLSX or CSV, chosen by @path's extension (as
 * `quartermaster-cli quote show NUMBER --revision R -o PATH`); @today
 * decides only whether the PDF says the quote expired. */
gboolean    qm_quote_revision_write      (const QmQuoteRevision *revision,
                                          const char            *path,
                                          const GDate           *today,
                                          GError               **error);

/* NULL with @error when the quote cannot be read. The dialog holds a
 * reference to @store. */
GtkWidget  *qm_quote_dialog_new          (GtkWindow     *parent,
                                          QmStore       *store,
                                          const char    *number,
                                          GError       **error);
const char *qm_quote_dialog_get_number   (QmQuoteDialog *self);

/* What the export actions write once the user picked @path, and print
 * (with @export_path, to that PDF without a dialog). */
gboolean    qm_quote_dialog_export       (QmQuoteDialog *self,
                                          const char    *revision,
                                          const char    *path,
                                          GError       **error);
gboolean    qm_quote_dialog_print        (QmQuoteDialog *self,
                                          const char    *revision,
                                          const char    *export_path,
                                          GError       **error);
/* Sets the state in the store, as the State row does. */
gboolean    qm_quote_dialog_set_state    (QmQuoteDialog *self,
                                          QmQuoteState   state,
                                          GError       **error);

G_END_DECLS
