/* qm-parse.c: numbers as people type them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-format.h"
#include "qm-parse.h"

G_DEFINE_QUARK (qm-parse-error-quark, qm_parse_error)

/* Days in a mean Gregorian month and year (365.2425 days). */
#define DAYS_PER_YEAR  365.2425
#define DAYS_PER_MONTH (DAYS_PER_YEAR / 12.0)

typedef struct
{
  const char *word;
  double      factor;
} Unit;

/* A unit list ends with { NULL, 0 }. */
static const Unit si_units[] = {
  { "k", 1e3 }, { "thousand", 1e3 },
  { "m", 1e6 }, { "mn", 1e6 }, { "mio", 1e6 }, { "million", 1e6 }, { "millions", 1e6 },
  { "b", 1e9 }, { "bn", 1e9 }, { "g", 1e9 }, { "billion", 1e9 }, { "billions", 1e9 },
  { "t", 1e12 }, { "tn", 1e12 }, { "trillion", 1e12 }, { "trillions", 1e12 },
  { NULL, 0 }
};
static const Unit count_units[] = {
  { "k", 1e3 }, { "thousand", 1e3 }, { "m", 1e6 }, { "million", 1e6 }, { NULL, 0 }
};
/* Context lengths are powers of two: "8k" is 8,192 (Llama 3.1: 128k = 131,072). */
static const Unit seq_units[] = {
  { "k", 1024 }, { NULL, 0 }
};
static const Unit day_units[] = {
  { "d", 1 }, { "day", 1 }, { "days", 1 },
  { "w", 7 }, { "wk", 7 }, { "wks", 7 }, { "week", 7 }, { "weeks", 7 },
  { "h", 1 / 24.0 }, { "hr", 1 / 24.0 }, { "hrs", 1 / 24.0 }, { "hour", 1 / 24.0 },
  { "hours", 1 / 24.0 },
  { "mo", DAYS_PER_MONTH }, { "month", DAYS_PER_MONTH }, { "months", DAYS_PER_MONTH },
  { "y", DAYS_PER_YEAR }, { "yr", DAYS_PER_YEAR }, { "yrs", DAYS_PER_YEAR },
  { "year", DAYS_PER_YEAR }, { "years", DAYS_PER_YEAR },
  { NULL, 0 }
};
static const Unit money_units[] = {
  { "k", 1e3 }, { "m", 1e6 }, { "mn", 1e6 }, { "million", 1e6 }, { NULL, 0 }
};
static const Unit percent_units[] = {
  { "%", 0.01 }, { "percent", 0.01 }, { NULL, 0 }
};
static const Unit ms_units[] = {
  { "ms", 1 }, { "msec", 1 }, { "millisecond", 1 }, { "milliseconds", 1 },
  { "s", 1000 }, { "sec", 1000 }, { "secs", 1000 }, { "second", 1000 }, { "seconds", 1000 },
  { NULL, 0 }
};

/* Trailing nouns that say what was counted; they change nothing. */
static const char *token_nouns[] = { "tokens", "token", "tok", NULL };
static const char *param_nouns[] = { "parameters", "parameter", "params", "param", NULL };
static const char *count_nouns[] = { "gpus", "gpu", "requests", "request", "sequences",
                                     "sequence", "seqs", "tokens", "token", NULL };
static const char *money_nouns[] = { "usd", "$", "dollars", "dollar", NULL };

typedef struct
{
  const Unit  *units;
  const char **nouns;
  gboolean     whole;
} KindInfo;

static const KindInfo kinds[QM_N_PARSE_KINDS] = {
  [QM_PARSE_NUMBER]       = { NULL,          NULL,        FALSE },
  [QM_PARSE_COUNT]        = { count_units,   count_nouns, TRUE },
  [QM_PARSE_TOKENS]       = { si_units,      token_nouns, FALSE },
  [QM_PARSE_PARAMS]       = { si_units,      param_nouns, FALSE },
  [QM_PARSE_SEQ_LEN]      = { seq_units,     token_nouns, TRUE },
  [QM_PARSE_DAYS]         = { day_units,     NULL,        FALSE },
  [QM_PARSE_MONEY]        = { money_units,   money_nouns, FALSE },
  [QM_PARSE_PERCENT]      = { percent_units, NULL,        FALSE },
  [QM_PARSE_MILLISECONDS] = { ms_units,      NULL,        FALSE },
};

char *
qm_parse_hint (QmParseKind kind)
{
  const char *dp = qm_format_decimal_point ();

  switch (kind)
    {
    case QM_PARSE_NUMBER:
      /* Translators: %s is the decimal point, so the example reads 1.25 or 1,25. */
      return g_strdup_printf (_("Enter a number, like 1%s25"), dp);
    case QM_PARSE_COUNT:
      return g_strdup_printf (_("Enter a whole number, like 2%s048"), qm_format_group_separator ());
    case QM_PARSE_TOKENS:
      return g_strdup (_("Enter a number of tokens, like 15T or 300B"));
    case QM_PARSE_PARAMS:
      return g_strdup (_("Enter a number of parameters, like 70B or 125M"));
    case QM_PARSE_SEQ_LEN:
      return g_strdup (_("Enter a number of tokens, like 8k or 8192"));
    case QM_PARSE_DAYS:
      return g_strdup (_("Enter a duration, like 60 days, 8 weeks or 1440 h"));
    case QM_PARSE_MONEY:
      /* Translators: %s is the decimal point: $2.50 or $2,50. */
      return g_strdup_printf (_("Enter an amount, like $2%s50"), dp);
    case QM_PARSE_PERCENT:
      return g_strdup (_("Enter a percentage, like 40%"));
    case QM_PARSE_MILLISECONDS:
      /* Translators: %s is the decimal point: 1.5 s or 1,5 s. */
      return g_strdup_printf (_("Enter a time, like 200 ms or 1%s5 s"), dp);
    case QM_N_PARSE_KINDS:
    default:
      g_return_val_if_reached (g_strdup (""));
    }
}

static gboolean
fail (GError     **error,
      QmParseKind  kind,
      QmParseError code)
{
  g_autofree char *hint = qm_parse_hint (kind);

  switch (code)
    {
    case QM_PARSE_ERROR_NEGATIVE:
      /* Translators: %s is a hint such as "Enter a number of tokens, like 15T or 300B". */
      g_set_error (error, QM_PARSE_ERROR, code, _("Must not be negative. %s"), hint);
      break;
    case QM_PARSE_ERROR_NOT_WHOLE:
      g_set_error (error, QM_PARSE_ERROR, code, _("Must be a whole number. %s"), hint);
      break;
    case QM_PARSE_ERROR_RANGE:
      g_set_error (error, QM_PARSE_ERROR, code, _("Too large. %s"), hint);
      break;
    case QM_PARSE_ERROR_EMPTY:
    case QM_PARSE_ERROR_SYNTAX:
    default:
      g_set_error_literal (error, QM_PARSE_ERROR, code, hint);
      break;
    }
  return FALSE;
}

/* Characters that group digits in some locale: space, no-break space,
 * narrow no-break space (fr_FR), apostrophe and right single quote (de_CH). */
static gboolean
is_group_char (gunichar c)
{
  return c == ' ' || c == 0x00A0 || c == 0x202F || c == '\'' || c == 0x2019 || c == 0x2009;
}

static gboolean
has_prefix_at (const char *p,
               const char *s)
{
  return s != NULL && s[0] != '\0' && g_str_has_prefix (p, s);
}

/* Reads the number at *@pp into @digits as C syntax ("15000.5e3"),
 * advancing *@pp. Groups must be of three digits, as the locale writes
 * them; anything else is a syntax error rather than a guess. */
static gboolean
scan_number (const char **pp,
             const char  *dp,
             const char  *gs,
             GString     *digits)
{
  const char *p = *pp;
  guint group_len = 0, n_groups = 0;
  gboolean seen_point = FALSE, seen_digit = FALSE;

  for (;;)
    {
      gunichar c = g_utf8_get_char (p);

      if (g_ascii_isdigit (c))
        {
          g_string_append_c (digits, (char) c);
          seen_digit = TRUE;
          if (!seen_point)
            group_len++;
          p++;
        }
      else if (!seen_point && has_prefix_at (p, dp))
        {
          if (n_groups > 0 && group_len != 3)
            return FALSE;
          g_string_append_c (digits, '.');
          seen_point = TRUE;
          p += strlen (dp);
        }
      else if (!seen_point && seen_digit &&
               (has_prefix_at (p, gs) || is_group_char (c)))
        {
          const char *next = has_prefix_at (p, gs) ? p + strlen (gs) : g_utf8_next_char (p);

          /* A space before a unit ("60 days") ends the number. */
          if (!g_ascii_isdigit (*next))
            break;
          if ((n_groups == 0 && group_len > 3) || (n_groups > 0 && group_len != 3))
            return FALSE;
          n_groups++;
          group_len = 0;
          p = next;
        }
      else
        break;
    }
  if (!seen_digit)
    return FALSE;
  if (n_groups > 0 && !seen_point && group_len != 3)
    return FALSE;

  /* Scientific notation: "1.5e13". */
  if ((*p == 'e' || *p == 'E') &&
      (g_ascii_isdigit (p[1]) || ((p[1] == '-' || p[1] == '+') && g_ascii_isdigit (p[2]))))
    {
      g_string_append_c (digits, 'e');
      p++;
      if (*p == '-' || *p == '+')
        g_string_append_c (digits, *p++);
      while (g_ascii_isdigit (*p))
        g_string_append_c (digits, *p++);
    }
  *pp = p;
  return TRUE;
}

static gboolean
find_unit (const Unit *units,
           const char *word,
           double     *factor)
{
  for (guint i = 0; units != NULL && units[i].word != NULL; i++)
    if (g_str_equal (units[i].word, word))
      {
        *factor = units[i].factor;
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_noun (const char **nouns,
         const char  *word)
{
  for (guint i = 0; nouns != NULL && nouns[i] != NULL; i++)
    if (g_str_equal (nouns[i], word))
      return TRUE;
  return FALSE;
}

/* The text after the number: "T", "trillion tokens", "weeks", "%". */
static gboolean
parse_suffix (QmParseKind  kind,
              const char  *suffix,
              double      *factor,
              gboolean    *has_unit)
{
  const KindInfo *info = &kinds[kind];
  g_autofree char *lower = g_utf8_strdown (suffix, -1);
  g_auto(GStrv) words = NULL;
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  guint n;

  *factor = 1;
  *has_unit = FALSE;
  g_strstrip (lower);
  if (lower[0] == '\0')
    return TRUE;

  /* "15T" and "15 T" read the same; "40%" splits off its sign. */
  words = g_strsplit_set (lower, " \t", -1);
  for (n = 0; words[n] != NULL; n++)
    if (words[n][0] != '\0')
      g_ptr_array_add (kept, words[n]);

  if (kept->len > 0 && is_noun (info->nouns, g_ptr_array_index (kept, kept->len - 1)))
    g_ptr_array_remove_index (kept, kept->len - 1);
  if (kept->len == 0)
    return TRUE;
  if (kept->len > 1)
    return FALSE;
  if (!find_unit (info->units, g_ptr_array_index (kept, 0), factor))
    return FALSE;
  *has_unit = TRUE;
  return TRUE;
}

gboolean
qm_parse_with_separators (QmParseKind   kind,
                          const char   *text,
                          const char   *decimal_point,
                          const char   *group_separator,
                          double       *value,
                          GError      **error)
{
  g_autoptr(GString) digits = g_string_new (NULL);
  g_autofree char *trimmed = NULL;
  const char *dp = decimal_point ? decimal_point : qm_format_decimal_point ();
  const char *gs = group_separator ? group_separator : qm_format_group_separator ();
  const char *p;
  gboolean negative = FALSE, has_unit;
  double number, factor;
  char *end;

  g_return_val_if_fail (kind < QM_N_PARSE_KINDS, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    return fail (error, kind, QM_PARSE_ERROR_SYNTAX);
  trimmed = g_strstrip (g_strdup (text));
  p = trimmed;
  if (*p == '\0')
    return fail (error, kind, QM_PARSE_ERROR_EMPTY);

  /* A sign, then the currency sign, in either order: "-$5", "$-5". */
  for (guint i = 0; i < 2; i++)
    {
      if (*p == '-' || g_str_has_prefix (p, "−"))
        {
          negative = TRUE;
          p = g_utf8_next_char (p);
        }
      else if (*p == '+')
        p++;
      if (kind == QM_PARSE_MONEY && *p == '$')
        p++;
      while (*p == ' ')
        p++;
    }

  if (!scan_number (&p, dp, gs, digits))
    return fail (error, kind, QM_PARSE_ERROR_SYNTAX);
  number = g_ascii_strtod (digits->str, &end);
  if (*end != '\0' || !isfinite (number))
    return fail (error, kind, QM_PARSE_ERROR_SYNTAX);
  if (!parse_suffix (kind, p, &factor, &has_unit))
    return fail (error, kind, QM_PARSE_ERROR_SYNTAX);
  if (negative && number != 0)
    return fail (error, kind, QM_PARSE_ERROR_NEGATIVE);

  /* "40" is 40 %, but "0.4" is already a fraction. */
  if (kind == QM_PARSE_PERCENT && !has_unit && number > 1)
    factor = 0.01;
  number *= factor;
  if (!isfinite (number) || number > 1e30)
    return fail (error, kind, QM_PARSE_ERROR_RANGE);
  if (kinds[kind].whole)
    {
      /* "8.5k" is 8,704: whole after the unit is applied. */
      if (fabs (number - round (number)) > 1e-9 * MAX (1.0, number))
        return fail (error, kind, QM_PARSE_ERROR_NOT_WHOLE);
      number = round (number);
    }
  *value = number;
  return TRUE;
}

gboolean
qm_parse (QmParseKind   kind,
          const char   *text,
          double       *value,
          GError      **error)
{
  return qm_parse_with_separators (kind, text, NULL, NULL, value, error);
}
