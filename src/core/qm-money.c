/* qm-money.c: minor units and rounding (see qm-money.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-format.h"
#include "qm-money.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ISO 4217 (list one, current currencies, amendment 179 of 2025): the
 * codes whose minor unit is not two digits. The funds codes of the
 * same countries (UYI, CLF, UYW) are listed with them. */
static const struct
{
  const char code[4];
  int        exponent;
} exponents[] = {
  { "BIF", 0 }, { "CLP", 0 }, { "DJF", 0 }, { "GNF", 0 }, { "ISK", 0 },
  { "JPY", 0 }, { "KMF", 0 }, { "KRW", 0 }, { "PYG", 0 }, { "RWF", 0 },
  { "UGX", 0 }, { "UYI", 0 }, { "VND", 0 }, { "VUV", 0 }, { "XAF", 0 },
  { "XOF", 0 }, { "XPF", 0 },
  { "BHD", 3 }, { "IQD", 3 }, { "JOD", 3 }, { "KWD", 3 }, { "LYD", 3 },
  { "OMR", 3 }, { "TND", 3 },
  { "CLF", 4 }, { "UYW", 4 },
};

gboolean
qm_currency_code_valid (const char *code)
{
  if (code == NULL || strlen (code) != 3)
    return FALSE;
  for (guint i = 0; i < 3; i++)
    if (code[i] < 'A' || code[i] > 'Z')
      return FALSE;
  return TRUE;
}

int
qm_currency_exponent (const char *code)
{
  if (!qm_currency_code_valid (code))
    return -1;
  for (guint i = 0; i < G_N_ELEMENTS (exponents); i++)
    if (strcmp (exponents[i].code, code) == 0)
      return exponents[i].exponent;
  return 2;
}

static double
minor_per_major (int exponent)
{
  double f = 1.0;

  for (int i = 0; i < exponent; i++)
    f *= 10.0;
  return f;
}

QmMinor
qm_money_round (double amount,
                int    exponent)
{
  double scaled;

  if (!isfinite (amount) || exponent < 0)
    return 0;
  scaled = amount * minor_per_major (exponent);
  /* 0.145 × 100 is 14.499999...: nudge by a relative epsilon so a value
   * that was typed as exactly half a cent rounds the way people expect. */
  scaled += copysign (fabs (scaled) * 4 * DBL_EPSILON, scaled);
  if (fabs (scaled) > 9.0e18)
    return 0;
  return (QmMinor) round (scaled);
}

double
qm_money_major (QmMinor minor,
                int     exponent)
{
  if (exponent < 0)
    return 0.0;
  return (double) minor / minor_per_major (exponent);
}

QmMinor
qm_money_scale (QmMinor minor,
                double  fraction)
{
  double v;

  if (!isfinite (fraction))
    return 0;
  v = (double) minor * fraction;
  v += copysign (fabs (v) * 4 * DBL_EPSILON, v);
  return (QmMinor) round (v);
}

gboolean
qm_money_split (QmMinor       total,
                const double *weights,
                guint         n,
                QmMinor      *parts)
{
  double sum = 0.0;
  QmMinor given = 0;

  for (guint i = 0; i < n; i++)
    {
      parts[i] = 0;
      if (isfinite (weights[i]) && weights[i] > 0.0)
        sum += weights[i];
    }
  if (n == 0 || sum <= 0.0)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      double w = isfinite (weights[i]) && weights[i] > 0.0 ? weights[i] : 0.0;

      parts[i] = qm_money_scale (total, w / sum);
      given += parts[i];
    }
  /* The remainder (a few minor units at most) goes to the last weighted
   * part, so the parts always sum to the total. */
  for (guint i = n; i-- > 0;)
    if (isfinite (weights[i]) && weights[i] > 0.0)
      {
        parts[i] += total - given;
        break;
      }
  return TRUE;
}

char *
qm_money_format (char       *buf,
                 gsize       size,
                 QmMinor     minor,
                 int         exponent,
                 const char *currency)
{
  g_autoptr(GString) s = g_string_new (currency ? currency : "");
  char digits[32];
  guint64 magnitude = minor < 0 ? -(guint64) minor : (guint64) minor;
  int len, whole;

  exponent = CLAMP (exponent, 0, 6);
  /* At least one digit before the decimal mark: 5 cents is 0.05. */
  len = g_snprintf (digits, sizeof digits, "%0*" G_GUINT64_FORMAT, exponent + 1, magnitude);
  whole = len - exponent;
  if (s->len > 0)
    g_string_append_c (s, ' ');
  if (minor < 0)
    g_string_append (s, "−");
  for (int i = 0; i < whole; i++)
    {
      if (i > 0 && (whole - i) % 3 == 0)
        g_string_append (s, qm_format_group_separator ());
      g_string_append_c (s, digits[i]);
    }
  if (exponent > 0)
    {
      g_string_append (s, qm_format_decimal_point ());
      g_string_append_len (s, digits + whole, exponent);
    }
  g_strlcpy (buf, s->str, size);
  return buf;
}
