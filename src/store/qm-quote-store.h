/* qm-quote-store.h: numbered quotes on saved plans, their immutable
 * revisions, and the exchange-rate table (issue #22; docs/quotes.md).
 *
 * A quote belongs to a saved plan and gets its number from the store's
 * sequence when its first revision is saved. Each revision (A, B, ...)
 * freezes everything its figures rest on: the plan with every hardware
 * entry embedded as priced that day, the quote terms, the exchange rate
 * with its date and source, and the computed quote. A revision is never
 * changed once written (the API has no update, and a trigger refuses
 * one), so a revision reprinted next year shows the same totals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-estimate.h"
#include "qm-quote-json.h"
#include "qm-store.h"

G_BEGIN_DECLS

typedef enum
{
  QM_QUOTE_STATE_DRAFT,
  QM_QUOTE_STATE_SENT,
  QM_QUOTE_STATE_ACCEPTED,
  QM_QUOTE_STATE_DECLINED,
} QmQuoteState;

/* "draft", "sent", "accepted", "declined": the store's and the CLI's words. */
const char *qm_quote_state_to_string   (QmQuoteState  state);
gboolean    qm_quote_state_from_string (const char   *text,
                                        QmQuoteState *state);

/* Dates as the store keeps them: "YYYY-MM-DD". */
gboolean    qm_quote_date_parse        (const char   *text,
                                        GDate        *out);
void        qm_quote_date_format       (const GDate  *date,
                                        char          buf[11]);

/* The default number pattern. Tokens: {YYYY}, {YY}, {MM} of the issue
 * date, and {N}, {NN}, ... the sequence padded to that many digits. */
#define QM_QUOTE_DEFAULT_PATTERN "Q-{YYYY}-{NNNN}"

/* @pattern with its tokens filled in; NULL with QM_STORE_ERROR_INVALID
 * when it has no {N...} token or an unknown one. */
char       *qm_quote_format_number     (const char    *pattern,
                                        const GDate   *date,
                                        guint64        sequence,
                                        GError       **error);
/* "A" for 1, ... "Z", "AA" for 27: a revision's letter. */
char       *qm_quote_revision_letter   (guint          seq);

/* The store's pattern (meta), and the last number handed out (0 = none). */
char       *qm_quote_store_get_pattern (QmStore      *store);
gboolean    qm_quote_store_set_pattern (QmStore      *store,
                                        const char   *pattern,
                                        GError      **error);
guint64     qm_quote_store_get_sequence (QmStore     *store);
/* The next quote takes @next (e.g. to continue another system's count);
 * never below what was handed out already. */
gboolean    qm_quote_store_set_sequence (QmStore     *store,
                                         guint64      next,
                                         GError     **error);

/* ------------------------------------------------------------------ */
/* Exchange rates: units of a currency per US dollar from a date on.   */

typedef struct
{
  char    currency[4];
  double  rate_per_usd;
  GDate   date;
  char   *source;
} QmExchangeRate;

void        qm_exchange_rate_free      (QmExchangeRate *rate);

/* Adds or replaces the rate of @rate->currency on @rate->date. */
gboolean    qm_quote_store_set_rate    (QmStore              *store,
                                        const QmExchangeRate *rate,
                                        GError              **error);
gboolean    qm_quote_store_delete_rate (QmStore      *store,
                                        const char   *currency,
                                        const GDate  *date,
                                        GError      **error);
/* All rates (@currency NULL) or one currency's, by currency then newest
 * first: a GPtrArray of QmExchangeRate. */
GPtrArray  *qm_quote_store_list_rates  (QmStore      *store,
                                        const char   *currency,
                                        GError      **error);
/* The latest rate on or before @date; NULL with QM_STORE_ERROR_NOT_FOUND
 * naming the currency and date when there is none. */
QmExchangeRate *qm_quote_store_find_rate (QmStore     *store,
                                          const char  *currency,
                                          const GDate *date,
                                          GError     **error);
/* A CSV with the header currency,rate_per_usd,date,source (any order
 * and case; source may be left out). All or nothing: any bad row writes
 * nothing, and the error lists each bad row, one a line, as
 * "NAME:LINE: column: problem (got 'value')". Returns the rows written,
 * or -1. */
int         qm_quote_store_import_rates_data (QmStore     *store,
                                              const char  *data,
                                              gsize        length,
                                              const char  *name,
                                              GError     **error);
int         qm_quote_store_import_rates_file (QmStore     *store,
                                              const char  *path,
                                              GError     **error);

/* ------------------------------------------------------------------ */
/* Quotes and revisions.                                               */

/* What a new revision is made of. NULL strings keep the quote's current
 * value; a new quote takes the saved plan's customer, its name as the
 * project, and the user's real name as prepared_by. */
typedef struct
{
  gint64       plan_id;
  GDate        issued;         /* must be valid */
  const char  *note;           /* what changed since the last revision */
  const char  *customer;
  const char  *customer_vat;   /* the customer's VAT id */
  const char  *project;
  const char  *prepared_by;
  const char  *payment_terms;
  const char  *terms;          /* free text */
} QmQuoteRequest;

/* One row of the quote list: the quote and its latest revision. */
typedef struct
{
  gint64        id;
  char         *number;
  char         *revision;
  gint64        plan_id;       /* 0 once the plan is deleted */
  char         *plan_name;
  char         *customer;
  char         *project;
  QmQuoteState  state;
  GDate         issued;
  guint         valid_days;
  char          currency[4];
  int           exponent;
  QmMinor       gross;
} QmQuoteSummary;

/* A stored revision, rebuilt from its frozen data alone. */
typedef struct
{
  char         *number;
  char         *revision;
  guint         seq;           /* 1 for A */
  char         *customer;      /* as printed on this revision */
  char         *customer_vat;  /* the customer's VAT id, as printed on it */
  char         *project;
  char         *prepared_by;
  char         *payment_terms;
  char         *terms;
  QmQuoteState  state;         /* the quote's, today */
  GDate         issued;
  guint         valid_days;
  char         *note;
  double        exchange_rate;
  GDate         rate_date;
  char         *rate_source;
  char         *catalog_version;
  char         *terms_json;    /* the plan file's "quote" section as frozen */
  char         *plan_json;     /* the plan file, every hardware entry embedded */
  char         *quote_json;    /* qm_quote_to_json_node () on the issue date */
  QmPlan       *plan;
  QmEstimate   *estimate;
  QmQuote      *quote;
  /* The store's supplier details when the revision was loaded, for its
   * letterhead (qm-supplier-store.h): not frozen with the revision, so a
   * reprint shows the supplier's address and bank as they are now. */
  QmSupplier   *supplier;
} QmQuoteRevision;

void        qm_quote_summary_free      (QmQuoteSummary  *summary);
void        qm_quote_revision_free     (QmQuoteRevision *revision);
/* The header the JSON, PDF and workbook print for @revision, with its
 * supplier. */
void        qm_quote_revision_header   (const QmQuoteRevision *revision,
                                        QmQuoteHeader         *header);

/* Saves the next revision of the saved plan's quote (numbering a new
 * quote for a plan that has none): reads the plan through this store's
 * catalog and price overrides, takes the plan file's exchange rate or
 * else the store's on or before @request->issued (NOT_FOUND naming the
 * currency and date when there is none), computes and freezes. Returns
 * the revision as stored. */
QmQuoteRevision *qm_quote_store_save_revision (QmStore              *store,
                                               const QmQuoteRequest *request,
                                               GError              **error);
/* @revision NULL = the latest. */
QmQuoteRevision *qm_quote_store_load_revision (QmStore     *store,
                                               const char  *number,
                                               const char  *revision,
                                               GError     **error);
/* The quote's revisions, A first: a GPtrArray of strings. */
GPtrArray  *qm_quote_store_list_revisions (QmStore     *store,
                                           const char  *number,
                                           GError     **error);
/* Quotes, newest first; @customer (a casefolded substring) and @state
 * (NULL for any) filter. A GPtrArray of QmQuoteSummary. */
GPtrArray  *qm_quote_store_list        (QmStore            *store,
                                        const char         *customer,
                                        const QmQuoteState *state,
                                        GError            **error);
/* The newest quote of a saved plan, or NULL (no error) when it has none. */
char       *qm_quote_store_find_for_plan (QmStore     *store,
                                          gint64       plan_id,
                                          GError     **error);
/* The quote's state; the revisions stay as they are. */
gboolean    qm_quote_store_set_state   (QmStore      *store,
                                        const char   *number,
                                        QmQuoteState  state,
                                        GError      **error);

/* ------------------------------------------------------------------ */
/* Copying between databases (quartermaster-cli db copy, issue #23).   */

typedef struct
{
  guint quotes;             /* in FROM */
  guint added;              /* quotes new in TO */
  guint replaced;           /* quotes TO had, changed or with new revisions */
  guint unchanged;
  guint revisions;          /* in FROM */
  guint revisions_added;
  guint rates;              /* in FROM */
  guint rates_added;
  guint rates_replaced;
  guint failed;             /* quotes not copied: each named in problems */
  guint mismatched;         /* quotes or rates that differ after the copy */
} QmQuoteCopyCounts;

/* Copies every quote of @from with its revisions byte for byte, the
 * numbering pattern and sequence, and the exchange rates into @to, then
 * reads them back and compares content hashes (SHA-256). The plans must
 * have been copied first: @plans holds the ids (gint64) of the plans @to
 * now holds as @from does, and a quote of any other plan keeps its plan's
 * name but no link. Safe to run again: what @to has already is left
 * alone. A quote @to has under the same number but another creation
 * time, or a revision that differs from @from's, is never overwritten
 * (revisions are immutable): each such quote is left out and named in
 * @problems (strings). FALSE only when @from cannot be read or @to not
 * written at all. */
gboolean    qm_quote_store_copy        (QmStore            *from,
                                        QmStore            *to,
                                        GArray             *plans,
                                        QmQuoteCopyCounts  *counts,
                                        GPtrArray          *problems,
                                        GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmExchangeRate, qm_exchange_rate_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmQuoteSummary, qm_quote_summary_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmQuoteRevision, qm_quote_revision_free)

G_END_DECLS
