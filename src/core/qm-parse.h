/* qm-parse.h: numbers as people type them: "15T", "15,000B", "8k",
 * "60 days", "8 weeks", "$2.50", "40%". The locale's digit-group separator
 * and decimal point are accepted (a decimal comma where the locale uses
 * one); spaces and apostrophes group digits in any locale.
 *
 * Pure GLib: the wizard validates every keystroke with these, and the
 * tests check them without a display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  QM_PARSE_NUMBER,        /* a plain number: "1.25" */
  QM_PARSE_COUNT,         /* a whole number: "2,048", "2k" (k = 1,000) */
  QM_PARSE_TOKENS,        /* "15T", "15 trillion", "15,000B", "300B" -> tokens */
  QM_PARSE_PARAMS,        /* "70B", "70 billion", "125M" -> parameters */
  QM_PARSE_SEQ_LEN,       /* "8k" (k = 1,024), "8192" -> tokens */
  QM_PARSE_DAYS,          /* "60", "60 days", "8 weeks", "1440 h" -> days */
  QM_PARSE_MONEY,         /* "$2.50", "30,000", "$30k" -> dollars */
  QM_PARSE_PERCENT,       /* "40%" or "40" -> 0.40; "0.4" -> 0.4 */
  QM_PARSE_MILLISECONDS,  /* "200 ms", "1.5 s", "200" -> milliseconds */
  QM_N_PARSE_KINDS
} QmParseKind;

#define QM_PARSE_ERROR (qm_parse_error_quark ())

typedef enum
{
  QM_PARSE_ERROR_EMPTY,
  QM_PARSE_ERROR_SYNTAX,     /* not a number, or an unknown unit */
  QM_PARSE_ERROR_NEGATIVE,
  QM_PARSE_ERROR_NOT_WHOLE,  /* a count with a fraction */
  QM_PARSE_ERROR_RANGE,      /* too large to be meant */
} QmParseError;

GQuark      qm_parse_error_quark     (void);

/* Parses @text as @kind with the current locale's separators. On error
 * the message says what is allowed ("Enter a number of tokens, like 15T
 * or 300B") and *@value is left alone. Values are never negative. */
gboolean    qm_parse                 (QmParseKind   kind,
                                      const char   *text,
                                      double       *value,
                                      GError      **error);

/* The same with explicit separators (for tests, and for any caller that
 * knows better than LC_NUMERIC). NULL takes the locale's. */
gboolean    qm_parse_with_separators (QmParseKind   kind,
                                      const char   *text,
                                      const char   *decimal_point,
                                      const char   *group_separator,
                                      double       *value,
                                      GError      **error);

/* What @kind accepts, in one sentence, with the locale's decimal point:
 * "Enter a number of tokens, like 15T or 300B". Newly allocated. */
char       *qm_parse_hint            (QmParseKind   kind);

G_END_DECLS
