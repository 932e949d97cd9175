/* qm-money.h: amounts in a currency's minor unit, and the rounding rules
 * a quote's totals follow (issue #22: "totals add up in every currency to
 * the cent after rounding rules stated in the docs"; docs/quotes.md).
 *
 * The estimate works in US dollars as doubles. A quote converts each unit
 * price once into the quote's currency and rounds it to that currency's
 * minor unit (ISO 4217's exponent: 2 for EUR, 0 for JPY, 3 for KWD); from
 * then on every sum is exact integer arithmetic, so a total is always the
 * sum of the figures printed above it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An amount in minor units (cents, yen, fils). */
typedef gint64 QmMinor;

/* TRUE for three ASCII capital letters, the shape of an ISO 4217 code.
 * Any such code is accepted, so a new currency needs no release. */
gboolean qm_currency_code_valid (const char *code);

/* Digits after the decimal point in @code's minor unit: ISO 4217's list
 * for the currencies that differ from 2 (JPY, KRW 0; KWD, BHD 3; ...);
 * 2 for every other valid code; -1 for an invalid code. */
int      qm_currency_exponent   (const char *code);

/* @amount (in major units) to minor units, rounded half away from zero,
 * the commercial rule (and C's round()). Non-finite gives 0. */
QmMinor  qm_money_round         (double      amount,
                                 int         exponent);

/* @minor back to major units, for charts and for formatting. */
double   qm_money_major         (QmMinor     minor,
                                 int         exponent);

/* @minor × @fraction, rounded half away from zero, for tax and deposits. */
QmMinor  qm_money_scale         (QmMinor     minor,
                                 double      fraction);

/* Splits @total into @n parts in proportion to @weights (which need not
 * sum to 1), each rounded, the last taking the remainder so the parts sum
 * to @total exactly. FALSE (and zeros) when the weights sum to 0. */
gboolean qm_money_split         (QmMinor        total,
                                 const double  *weights,
                                 guint          n,
                                 QmMinor       *parts);

/* "EUR 1,081,479.98", "¥" is never used: the code is always the prefix,
 * so an amount reads the same in every locale's digits; grouping and the
 * decimal mark follow LC_NUMERIC (qm-format.h). Exact: integer digits. */
char    *qm_money_format        (char        *buf,
                                 gsize        size,
                                 QmMinor      minor,
                                 int          exponent,
                                 const char  *currency);

G_END_DECLS
