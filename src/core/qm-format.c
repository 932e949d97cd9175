/* qm-format.c: numbers for people.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-format.h"

#include <glib/gi18n-lib.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *
qm_format_group_separator (void)
{
  const struct lconv *lc = localeconv ();

  return lc->thousands_sep != NULL && lc->thousands_sep[0] != '\0' ? lc->thousands_sep : ",";
}

const char *
qm_format_decimal_point (void)
{
  const struct lconv *lc = localeconv ();

  return lc->decimal_point != NULL && lc->decimal_point[0] != '\0' ? lc->decimal_point : ".";
}

char *
qm_format_number (char   *buf,
                  gsize   size,
                  double  value,
                  int     decimals)
{
  char digits[QM_FORMAT_BUF];
  const char *sep = qm_format_group_separator ();
  const char *point = qm_format_decimal_point ();
  double scale, whole_part, frac_part;
  gsize out = 0;
  int len;

  if (size == 0)
    return buf;
  if (!isfinite (value))
    {
      g_strlcpy (buf, "–", size);
      return buf;
    }

  decimals = CLAMP (decimals, 0, 9);
  scale = pow (10.0, decimals);
  value = round (value * scale) / scale;
  if (fabs (value) >= 1e18)
    {
      g_snprintf (buf, size, "%.3g", value);
      return buf;
    }

  whole_part = trunc (fabs (value));
  frac_part = fabs (value) - whole_part;
  len = g_snprintf (digits, sizeof digits, "%.0f", whole_part);

#define PUT(s) G_STMT_START { \
    gsize _n = strlen (s); \
    if (out + _n < size) { memcpy (buf + out, s, _n); out += _n; } \
  } G_STMT_END

  if (value < 0.0)
    PUT ("-");
  for (int i = 0; i < len; i++)
    {
      char c[2] = { digits[i], 0 };

      PUT (c);
      if ((len - i - 1) % 3 == 0 && i != len - 1)
        PUT (sep);
    }
  if (decimals > 0)
    {
      char frac[16];

      /* "%.*f" of the fraction gives "0.xx"; keep the digits after "0.". */
      g_snprintf (frac, sizeof frac, "%.*f", decimals, frac_part);
      PUT (point);
      PUT (frac + 2);
    }
#undef PUT
  buf[out] = '\0';
  return buf;
}

char *
qm_format_si (char       *buf,
              gsize       size,
              double      value,
              const char *unit)
{
  static const struct { double factor; const char *prefix; } prefixes[] = {
    { 1e24, "Y" }, { 1e21, "Z" }, { 1e18, "E" }, { 1e15, "P" }, { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
  };
  const char *prefix = "";
  double scaled = value;
  char number[QM_FORMAT_BUF];

  if (!isfinite (value))
    {
      g_snprintf (buf, size, "– %s", unit != NULL ? unit : "");
      return buf;
    }

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (fabs (value) >= prefixes[i].factor * 0.9995)
      {
        scaled = value / prefixes[i].factor;
        prefix = prefixes[i].prefix;
        break;
      }

  /* Three significant digits: 1.23, 12.3, 123. */
  qm_format_number (number, sizeof number, scaled,
                    fabs (scaled) >= 100 ? 0 : fabs (scaled) >= 10 ? 1 : 2);
  g_snprintf (buf, size, "%s %s%s", number, prefix, unit != NULL ? unit : "");
  return buf;
}

char *
qm_format_bytes (char        *buf,
                 gsize        size,
                 double       bytes,
                 QmBytesUnit  unit)
{
  char number[QM_FORMAT_BUF];
  double gb = unit == QM_BYTES_GIB ? bytes / 1073741824.0 : bytes / 1e9;
  const char *name = unit == QM_BYTES_GIB ? "GiB" : "GB";

  if (isfinite (gb) && fabs (gb) >= 10000.0)
    {
      g_snprintf (buf, size, "%s %s",
                  qm_format_number (number, sizeof number, gb / (unit == QM_BYTES_GIB ? 1024.0 : 1000.0), 1),
                  unit == QM_BYTES_GIB ? "TiB" : "TB");
      return buf;
    }
  g_snprintf (buf, size, "%s %s",
              qm_format_number (number, sizeof number, gb, fabs (gb) >= 100 ? 0 : 1), name);
  return buf;
}

/* The fewest decimals (at most 3) that show @value exactly: 0.05 → 2,
 * 0.2 → 1, 1500 → 0. */
static int
exact_decimals (double value)
{
  int decimals = 0;

  for (double scaled = fabs (value); decimals < 3 && isfinite (scaled); decimals++, scaled *= 10)
    if (fabs (scaled - round (scaled)) <= 1e-6 * MAX (1.0, scaled))
      break;
  return decimals;
}

char *
qm_format_tick (char   *buf,
                gsize   size,
                double  value)
{
  return qm_format_number (buf, size, value, exact_decimals (value));
}

static char *
format_money (char       *buf,
              gsize       size,
              double      amount,
              const char *currency,
              gboolean    tick)
{
  char number[QM_FORMAT_BUF];
  gboolean dollars = currency == NULL || currency[0] == '\0' || g_str_equal (currency, "USD");

  if (isfinite (amount) && fabs (amount) >= 1e6)
    {
      double m = amount / 1e6;

      qm_format_number (number, sizeof number, m, fabs (m) >= 100 || (tick && exact_decimals (m) == 0) ? 0 : 1);
      if (dollars)
        g_snprintf (buf, size, "$%s M", number);
      else
        g_snprintf (buf, size, "%s %s M", currency, number);
      return buf;
    }

  qm_format_number (number, sizeof number, amount,
                    fabs (amount) >= 100 || (tick && exact_decimals (amount) == 0) ? 0 : 2);
  if (dollars)
    g_snprintf (buf, size, "$%s", number);
  else
    g_snprintf (buf, size, "%s %s", currency, number);
  return buf;
}

char *
qm_format_money (char       *buf,
                 gsize       size,
                 double      amount,
                 const char *currency)
{
  return format_money (buf, size, amount, currency, FALSE);
}

char *
qm_format_money_tick (char       *buf,
                      gsize       size,
                      double      amount,
                      const char *currency)
{
  return format_money (buf, size, amount, currency, TRUE);
}

/* Three significant digits at most, whole numbers from 100 up. */
static int
figure_decimals (double value)
{
  return fabs (value) >= 100 || value == 0.0 ? 0 : fabs (value) >= 10 ? 1 : 2;
}

/* @value in @big units, or in @small (a thousandth of @big) below one:
 * @big and @small are formats such as "%s MWh" and "%s kWh". */
static char *
format_scaled (char       *buf,
               gsize       size,
               double      value,
               const char *big,
               const char *small)
{
  char number[QM_FORMAT_BUF];

  if (!isfinite (value))
    g_snprintf (buf, size, big, "–");
  else if (fabs (value) >= 1.0 || value == 0.0)
    g_snprintf (buf, size, big, qm_format_number (number, sizeof number, value, figure_decimals (value)));
  else
    g_snprintf (buf, size, small, qm_format_number (number, sizeof number, value * 1e3, figure_decimals (value * 1e3)));
  return buf;
}

char *
qm_format_energy (char   *buf,
                  gsize   size,
                  double  mwh)
{
  /* Translators: energies; %s is a number such as "7,361" or "34.2". */
  return format_scaled (buf, size, mwh, _("%s MWh"), _("%s kWh"));
}

char *
qm_format_tonnes (char   *buf,
                  gsize   size,
                  double  tonnes)
{
  /* Translators: masses in tonnes and kilograms; %s is a number such as
   * "2,797" or "13.0". */
  return format_scaled (buf, size, tonnes, _("%s t"), _("%s kg"));
}

char *
qm_format_days (char   *buf,
                gsize   size,
                double  days)
{
  char number[QM_FORMAT_BUF];

  if (!isfinite (days))
    g_strlcpy (buf, "–", size);
  else if (days < 1.0)
    /* Translators: a duration; %s is a number such as "2.5". */
    g_snprintf (buf, size, _("%s hours"), qm_format_number (number, sizeof number, days * 24.0, 1));
  else if (days >= 730.0)
    /* Translators: a duration; %s is a number such as "3.1". */
    g_snprintf (buf, size, _("%s years"), qm_format_number (number, sizeof number, days / 365.25, 1));
  else
    /* Translators: a duration; %s is a number such as "110". */
    g_snprintf (buf, size, _("%s days"), qm_format_number (number, sizeof number, days, days >= 100 ? 0 : 1));
  return buf;
}

gulong
qm_format_plural_n (double value)
{
  double r = round (value);

  if (!isfinite (value) || value < 0)
    return 0;
  if (fabs (value - r) >= 0.005)
    return 2;
  return r > 1e9 ? 1000000000ul + (gulong) fmod (r, 1e6) : (gulong) r;
}
