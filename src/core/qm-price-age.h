/* qm-price-age.h: how old a plan's prices are (issue #35 item 6).
 *
 * One definition for every view: the plan view, the plan summary PDF,
 * the quote PDF and workbook, and the CLI's estimate and quote. The
 * estimate stays free of the clock: "today" is always passed in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-estimate.h"
#include "qm-quote-json.h"

G_BEGIN_DECLS

/* The limit past which prices are called old, when the user set none. */
#define QM_PRICE_MAX_AGE_MONTHS_DEFAULT 6
#define QM_PRICE_MAX_AGE_MONTHS_MIN     1
#define QM_PRICE_MAX_AGE_MONTHS_MAX     60

/* The date the plan's prices are as of: the OLDEST as_of among the
 * catalog entries the plan actually prices, i.e. its bill of materials'
 * lines (a buy plan's hardware; a rent plan's GPU-hours, whose line
 * carries the cloud offer when the plan takes the offer's rate, and its
 * storage). A price the plan itself gives (a GPU-hour rate, egress) has
 * no date and does not count. FALSE (and @out cleared) when the estimate
 * has no cost or none of its lines is dated. */
gboolean  qm_prices_as_of             (const QmEstimate *estimate,
                                       GDate            *out);

/* The same as "YYYY-MM-DD" (for JSON), or NULL. Free with g_free(). */
char     *qm_prices_as_of_iso         (const QmEstimate *estimate);

/* TRUE when @as_of is more than @max_months before @today: exactly
 * @max_months (same day of the month, or the month's last day when it
 * has no such day) is not yet old, one day more is. FALSE when either
 * date is invalid. @max_months 0 means QM_PRICE_MAX_AGE_MONTHS_DEFAULT. */
gboolean  qm_price_age_is_old         (const GDate *as_of,
                                       const GDate *today,
                                       guint        max_months);

/* A date as the views print a price date: "1 June 2025" (translated
 * pattern). Free with g_free(); NULL for an invalid date. */
char     *qm_price_date_format        (const GDate *date);

/* "Prices as of 1 June 2025", translated; NULL for an invalid date. */
char     *qm_prices_as_of_text        (const GDate *as_of);

/* The warning when qm_price_age_is_old(): "Prices are from 1 June 2025,
 * more than 6 months ago: check them with your vendors before quoting",
 * translated; NULL when the prices are not old. Free with g_free(). */
char     *qm_price_age_warning        (const GDate *as_of,
                                       const GDate *today,
                                       guint        max_months);

/* A quote's documents (PDF, workbook, CLI): @header's prices_as_of from
 * @estimate and its age limit @max_months (0: the default). */
void      qm_quote_header_set_prices  (QmQuoteHeader    *header,
                                       const QmEstimate *estimate,
                                       guint             max_months);

/* The warning for a quote: its prices' age on its issue date (or on
 * @today when it has none); NULL when not old or the date is unknown. */
char     *qm_quote_price_age_warning  (const QmQuoteHeader *header,
                                       const GDate         *today);

/* @max_months clamped to the allowed range; 0 gives the default. */
guint     qm_price_max_age_months_clamp (guint max_months);

G_END_DECLS
