/* qm-price-age.c: how old a plan's prices are (qm-price-age.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

#include "qm-price-age.h"

static gboolean
parse_iso (const char *s,
           GDate      *out)
{
  int y, m, d;

  if (s == NULL || strlen (s) != 10 || sscanf (s, "%4d-%2d-%2d", &y, &m, &d) != 3)
    return FALSE;
  if (!g_date_valid_dmy ((GDateDay) d, (GDateMonth) m, (GDateYear) y))
    return FALSE;
  g_date_set_dmy (out, (GDateDay) d, (GDateMonth) m, (GDateYear) y);
  return TRUE;
}

gboolean
qm_prices_as_of (const QmEstimate *estimate,
                 GDate            *out)
{
  gboolean found = FALSE;

  g_return_val_if_fail (out != NULL, FALSE);
  g_date_clear (out, 1);
  g_return_val_if_fail (estimate != NULL, FALSE);
  if (!estimate->has_cost)
    return FALSE;
  /* The lines the plan prices: qm_cost_compute() puts a line only where
   * the quantity is > 0, and a rent plan's GPU-hours line carries the
   * cloud offer's info when the offer's rate is the one applied. */
  for (guint i = 0; i < estimate->cost.n_bom; i++)
    {
      const QmBomLine *l = &estimate->cost.bom[i];
      GDate d;

      g_date_clear (&d, 1);
      if (!parse_iso (l->as_of, &d))
        continue;
      if (!found || g_date_compare (&d, out) < 0)
        *out = d;
      found = TRUE;
    }
  return found;
}

char *
qm_prices_as_of_iso (const QmEstimate *estimate)
{
  GDate d;
  char text[16];

  if (!qm_prices_as_of (estimate, &d))
    return NULL;
  g_date_strftime (text, sizeof text, "%Y-%m-%d", &d);
  return g_strdup (text);
}

guint
qm_price_max_age_months_clamp (guint max_months)
{
  if (max_months == 0)
    return QM_PRICE_MAX_AGE_MONTHS_DEFAULT;
  return CLAMP (max_months, QM_PRICE_MAX_AGE_MONTHS_MIN, QM_PRICE_MAX_AGE_MONTHS_MAX);
}

gboolean
qm_price_age_is_old (const GDate *as_of,
                     const GDate *today,
                     guint        max_months)
{
  GDate limit;

  if (as_of == NULL || today == NULL || !g_date_valid (as_of) || !g_date_valid (today))
    return FALSE;
  limit = *as_of;
  /* g_date_add_months() keeps the day, or takes the month's last day
   * when it has fewer days (31 August + 6 months = 28/29 February). */
  g_date_add_months (&limit, qm_price_max_age_months_clamp (max_months));
  return g_date_compare (today, &limit) > 0;
}

char *
qm_price_date_format (const GDate *date)
{
  /* The month's name in the language of the user interface (gettext),
   * not of LC_TIME, which may differ (LANGUAGE=de under LC_TIME=C). */
  static const char *const months[12] = {
    NC_("month in a date", "January"), NC_("month in a date", "February"),
    NC_("month in a date", "March"), NC_("month in a date", "April"),
    NC_("month in a date", "May"), NC_("month in a date", "June"),
    NC_("month in a date", "July"), NC_("month in a date", "August"),
    NC_("month in a date", "September"), NC_("month in a date", "October"),
    NC_("month in a date", "November"), NC_("month in a date", "December"),
  };

  if (date == NULL || !g_date_valid (date))
    return NULL;
  /* Translators: the date prices are as of: the day, the month's name
   * (translated apart, "month in a date") and the year: "1 June 2025". */
  return g_strdup_printf (C_("price date", "%1$u %2$s %3$u"), (guint) g_date_get_day (date),
                          g_dpgettext2 (GETTEXT_PACKAGE, "month in a date",
                                        months[g_date_get_month (date) - 1]),
                          (guint) g_date_get_year (date));
}

char *
qm_prices_as_of_text (const GDate *as_of)
{
  g_autofree char *date = qm_price_date_format (as_of);

  if (date == NULL)
    return NULL;
  /* Translators: the date of the oldest catalog price a plan uses. */
  return g_strdup_printf (_("Prices as of %s"), date);
}

char *
qm_price_age_warning (const GDate *as_of,
                      const GDate *today,
                      guint        max_months)
{
  g_autofree char *date = NULL;
  guint months = qm_price_max_age_months_clamp (max_months);

  if (!qm_price_age_is_old (as_of, today, months))
    return NULL;
  date = qm_price_date_format (as_of);
  /* Translators: a warning on plans, quotes and their PDFs; %s is a date
   * ("1 June 2025"), %u the age limit the user set in months. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Prices are from %s, more than %u month ago: check them with "
                                       "your vendors before quoting",
                                       "Prices are from %s, more than %u months ago: check them with "
                                       "your vendors before quoting",
                                       months),
                          date, months);
}

void
qm_quote_header_set_prices (QmQuoteHeader    *header,
                            const QmEstimate *estimate,
                            guint             max_months)
{
  g_return_if_fail (header != NULL);
  if (estimate == NULL || !qm_prices_as_of (estimate, &header->prices_as_of))
    g_date_clear (&header->prices_as_of, 1);
  header->price_max_age_months = qm_price_max_age_months_clamp (max_months);
}

char *
qm_quote_price_age_warning (const QmQuoteHeader *header,
                            const GDate         *today)
{
  const GDate *on;

  g_return_val_if_fail (header != NULL, NULL);
  on = g_date_valid (&header->issued) ? &header->issued : today;
  return qm_price_age_warning (&header->prices_as_of, on, header->price_max_age_months);
}
