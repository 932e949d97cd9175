/* qm-quotes-page.h: the main window's Quotes page (issue #22 item 6):
 * the store's quotes, newest first, with number and revision, customer,
 * project, state, issue date, validity and gross, an "Expired" flag on a
 * quote past its last valid day, and filters by customer, state and
 * issue date. Activating a quote opens its revisions (qm-quote-dialog.h).
 *
 * Signals:
 *   ::open-plan (gint64 id): open a quote's plan.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-store.h"

G_BEGIN_DECLS

/* The issue-date filter's choices, in the order of its drop-down. */
typedef enum
{
  QM_QUOTES_PERIOD_ALL,
  QM_QUOTES_PERIOD_MONTH,
  QM_QUOTES_PERIOD_QUARTER,
  QM_QUOTES_PERIOD_YEAR,
} QmQuotesPeriod;

/* The state filter's choices: any, then the store's states, then expired. */
typedef enum
{
  QM_QUOTES_STATE_ANY,
  QM_QUOTES_STATE_DRAFT,
  QM_QUOTES_STATE_SENT,
  QM_QUOTES_STATE_ACCEPTED,
  QM_QUOTES_STATE_DECLINED,
  QM_QUOTES_STATE_EXPIRED,
} QmQuotesStateFilter;

#define QM_TYPE_QUOTES_PAGE (qm_quotes_page_get_type ())
G_DECLARE_FINAL_TYPE (QmQuotesPage, qm_quotes_page, QM, QUOTES_PAGE, AdwBin)

/* @store may be NULL (the page says there is no database); the page holds a reference. */
GtkWidget  *qm_quotes_page_new          (QmStore       *store);
/* Reads the quotes again (after a quote was saved elsewhere). */
void        qm_quotes_page_reload       (QmQuotesPage  *self);
/* How many quotes the filters let through, and the number (with its
 * revision, "Q-2026-0001 rev. B") of the one at @position. */
guint       qm_quotes_page_n_shown      (QmQuotesPage  *self);
char       *qm_quotes_page_dup_shown    (QmQuotesPage  *self,
                                         guint          position);
/* Opens the revisions of the quote at @position; returns the dialog. */
GtkWidget  *qm_quotes_page_open_quote   (QmQuotesPage  *self,
                                         guint          position);
void        qm_quotes_page_focus_search (QmQuotesPage  *self);

G_END_DECLS
