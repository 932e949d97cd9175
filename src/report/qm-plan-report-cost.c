/* qm-plan-report-cost.c: the plan report's bill of materials and cost
 * section, and the bill of materials as CSV.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan-report.h"
#include "qm-plan-report-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-advisor.h"
#include "qm-catalog.h"
#include "qm-chart-compare.h"
#include "qm-chart-power.h"
#include "qm-chart-style.h"
#include "qm-csv.h"
#include "qm-chart-vram.h"
#include "qm-formulas.h"
#include "qm-price-age.h"
#include "qm-plan-charts.h"
#include "qm-reliability.h"


/* What the bill of materials lists, and where its prices come from. */
static void
add_bom_intro (QmDocument             *doc,
               const QmPlan           *plan,
               const QmEstimate       *e,
               const QmPlanReportInfo *info)
{
  const char *cur = qm_report_currency_of (plan, info);
  g_autofree char *intro = NULL;

  if (qm_report_is_buy (plan))
    /* Translators: under "Bill of materials"; a currency code such as
     * "USD", then the version of the catalog's prices. */
    intro = g_strdup_printf (_("Buying the cluster. Amounts in %s, from catalog prices version %s: list prices "
                               "before discounts, not a vendor quote."), cur, info->catalog_version);
  else if (e->has_training)
    /* Translators: under "Bill of materials"; a currency code such as
     * "USD", then the version of the catalog's prices. */
    intro = g_strdup_printf (_("Renting GPUs for the run. Amounts in %s, from catalog prices version %s: list "
                               "prices before discounts, not a vendor quote."), cur, info->catalog_version);
  else
    /* Translators: under "Bill of materials"; a currency code such as
     * "USD", then the version of the catalog's prices. */
    intro = g_strdup_printf (_("Renting GPUs for one month of serving. Amounts in %s, from catalog prices "
                               "version %s: list prices before discounts, not a vendor quote."),
                             cur, info->catalog_version);
  qm_document_add_paragraph (doc, intro);
}

/* The date the prices are as of and, past the user's limit on the
 * report's date, the warning (qm-price-age.h: the one definition the plan
 * view, the quote and the CLI print too). */
static void
add_prices_as_of (QmDocument             *doc,
                  const QmEstimate       *e,
                  const QmPlanReportInfo *info)
{
  g_autofree char *text = NULL, *warning = NULL;
  GDate as_of, today;
  int y, m, d;

  if (!qm_prices_as_of (e, &as_of))
    return;
  text = qm_prices_as_of_text (&as_of);
  qm_document_add_paragraph (doc, text);
  g_date_clear (&today, 1);
  if (info->date != NULL && sscanf (info->date, "%4d-%2d-%2d", &y, &m, &d) == 3
      && g_date_valid_dmy ((GDateDay) d, (GDateMonth) m, (GDateYear) y))
    g_date_set_dmy (&today, (GDateDay) d, (GDateMonth) m, (GDateYear) y);
  warning = qm_price_age_warning (&as_of, &today, info->price_max_age_months);
  if (warning != NULL)
    qm_document_add_heading (doc, warning, 2);
}

/* The lines of the bill of materials and their sum, in @cur. */
static void
add_bom_lines (QmDocument      *doc,
               const QmBomLine *bom,
               guint            n_bom,
               const char      *sum_label,
               const char      *cur)
{
  const char *headers[] = {
    _("Item"),
    /* Translators: a column header: an entry's id in the hardware catalog. */
    _("Catalog id"),
    /* Translators: a column header of the bill of materials: the quantity,
     * in a narrow column (a short word or an abbreviation). */
    _("Qty"),
    /* Translators: a column header of the bill of materials. */
    _("Unit price"),
    _("Total"),
  };
  static const double widths[] = { 0.31, 0.20, 0.11, 0.17, 0.21 };
  static const QmAlign aligns[] = { QM_ALIGN_START, QM_ALIGN_START, QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END };
  double sum = 0.0;

  qm_document_begin_table (doc, 5, headers, widths, aligns);
  for (guint i = 0; i < n_bom; i++)
    {
      const QmBomLine *l = &bom[i];
      const char *cells[5];

      cells[0] = qm_report_bom_item_label (l->item);
      cells[1] = l->catalog_id != NULL ? l->catalog_id : "—";
      cells[2] = qm_report_qty (l->qty);
      cells[3] = qm_report_money_exact (l->unit_usd, cur);
      cells[4] = qm_report_money_exact (l->total_usd, cur);
      qm_document_add_row (doc, cells, FALSE);
      if (isfinite (l->total_usd))
        sum += l->total_usd;
    }
  {
    const char *cells[5] = { sum_label, "", "", "", qm_report_money_exact (sum, cur) };

    qm_document_add_row (doc, cells, TRUE);
  }
  qm_document_end_table (doc);
}

/* What it costs over time: the table of totals, in @cur. */
static void
add_totals (QmDocument       *doc,
            const QmPlan     *plan,
            const QmEstimate *e,
            const char       *cur)
{
  const QmCost *c = &e->cost;
  const char *h2[] = {
    _("Cost"),
    /* Translators: a column header of the table of totals: how a cost is
     * worked out. */
    _("Basis"),
    /* Translators: a column header of the table of totals: an amount of
     * money. */
    _("Amount"),
  };
  static const double w2[] = { 0.34, 0.45, 0.21 };
  static const QmAlign a2[] = { QM_ALIGN_START, QM_ALIGN_START, QM_ALIGN_END };
  /* Translators: the plan's horizon, in the table of totals. */
  g_autofree char *horizon = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s month", "%s months",
                                                           qm_report_plural_n (c->horizon_months)),
                                              qm_report_num (c->horizon_months, 0));
#define ROW(a, b, v, em) G_STMT_START { const char *cells_[] = { (a), (b), (v) }; \
                                        qm_document_add_row (doc, cells_, (em)); } G_STMT_END

  qm_document_add_heading (doc, _("Totals"), 2);
  qm_document_begin_table (doc, 3, h2, w2, a2);
  if (qm_report_is_buy (plan))
    {
      /* Translators: how the monthly amortisation is worked out. */
      g_autofree char *amort = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "hardware over %s year",
                                                             "hardware over %s years",
                                                             qm_report_plural_n (plan->pricing.amortization_years)),
                                                qm_report_num (plan->pricing.amortization_years, 0));
      /* Translators: how a run's cost is worked out; %s is the run's
       * duration, such as "54 days". */
      g_autofree char *run = g_strdup_printf (_("%s of the monthly cost"), qm_report_days (e->run_s / 86400.0));

      /* The rows of the totals of a bought cluster: what, and how it is
       * worked out. */
      ROW (_("Upfront"),
           /* Translators: how the upfront cost of a bought cluster is made up. */
           _("hardware and installation"), qm_report_money_exact (c->upfront, cur), TRUE);
      /* Translators: a row of the table of totals: the hardware written off
       * a month. */
      ROW (_("Amortisation"), amort, qm_report_money_exact (c->amortization_monthly, cur), FALSE);
      /* Translators: a row of the table of totals: the electricity a month,
       * worked out from the facility's average power. */
      ROW (_("Electricity"), _("average facility power"), qm_report_money_exact (c->power_monthly, cur), FALSE);
      /* Translators: a row of the table of totals: the data centre's rent
       * a month, worked out per kW of provisioned power. */
      ROW (_("Colocation"), _("per kW of provisioned power"), qm_report_money_exact (c->colo_monthly, cur), FALSE);
      /* Translators: a row of the table of totals: the vendor's hardware
       * support a month, a yearly fraction of the hardware's price. */
      ROW (_("Support"), _("yearly fraction of the hardware"), qm_report_money_exact (c->support_monthly, cur), FALSE);
      /* Translators: a row label: the cost a month. */
      ROW (_("Monthly"), _("subtotal"), qm_report_money_exact (c->monthly, cur), TRUE);
      /* Translators: a row label: the cost of the training run. */
      ROW (e->has_training ? _("This run") : _("One month of serving"), run, qm_report_money_exact (c->run, cur), FALSE);
      ROW (_("Total cost of ownership"), horizon, qm_report_money_exact (c->total, cur), TRUE);
    }
  else
    {
      /* Translators: how a rented run's cost is worked out: GPUs × hours. */
      g_autofree char *hours = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s GPU-hour", "%s GPU-hours",
                                                             qm_report_plural_n (c->gpu_hours)),
                                                qm_report_num (c->gpu_hours, 0));

      /* The rows of the totals of a rented cluster: what, and how it is
       * worked out. */
      ROW (_("Upfront"),
           /* Translators: the upfront cost of a rented cluster: nothing. */
           _("nothing: rented"), qm_report_money_exact (c->upfront, cur), FALSE);
      ROW (e->has_training ? _("This run") : _("One month of serving"), hours, qm_report_money_exact (c->run, cur), TRUE);
      ROW (_("Monthly"),
           /* Translators: what a rented cluster's monthly cost is made up of. */
           _("all GPUs around the clock, storage"), qm_report_money_exact (c->monthly, cur), TRUE);
      ROW (_("Rental total"), horizon, qm_report_money_exact (c->total, cur), TRUE);
    }
#undef ROW
  qm_document_end_table (doc);
}

void
qm_plan_report_add_bom (QmDocument                *doc,
                        const QmPlanReportSubject *subject)
{
  const QmPlan *plan = subject->plan;
  const QmEstimate *e = subject->e;
  const char *cur = qm_report_currency_of (plan, &subject->info);
  const QmCost *c = &e->cost;

  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, _("Bill of materials"), 1);
  add_bom_intro (doc, plan, e, &subject->info);
  add_prices_as_of (doc, e, &subject->info);
  add_bom_lines (doc, subject->bom, subject->n_bom,
                 /* Translators: the last row of the bill of materials, its sum. */
                 qm_report_is_buy (plan) ? _("Upfront total") : e->has_training ? _("Rental for this run")
                                                                                 : _("Rental for one month"),
                 cur);
  add_totals (doc, plan, e, cur);
  if (c->break_even_valid)
    {
      /* Translators: the month (a number, counted from the order) from
       * which buying has cost less; the rent a month. */
      g_autofree char *t = g_strdup_printf (_("Buying costs less than renting the same GPUs from month %u after the "
                                              "order (renting: %s a month)."),
                                            c->break_even_month, qm_report_money (c->rent_monthly, cur));
      qm_document_add_paragraph (doc, t);
    }
}

/* ---------------------------------------------------------------------- */
/* CSV                                                                     */

/* Plain digits for a spreadsheet: no grouping, the chosen decimal point. */
static char *
csv_number (double      v,
            int         decimals,
            const char *decimal_point)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];
  char *dot;

  if (!isfinite (v))
    return g_strdup ("");
  g_snprintf (format, sizeof format, "%%.%df", decimals);
  g_ascii_formatd (buf, sizeof buf, format, v);
  dot = strchr (buf, '.');
  if (dot != NULL && strcmp (decimal_point, ".") != 0)
    {
      *dot = '\0';
      return g_strconcat (buf, decimal_point, dot + 1, NULL);
    }
  return g_strdup (buf);
}

char *
qm_bom_to_csv_full (const QmEstimate *e,
                    const QmPlan     *plan,
                    const QmBomLine  *bom,
                    guint             n_bom,
                    gboolean          excel_bom,
                    char              sep,
                    const char       *dp)
{
  GString *out = g_string_new (NULL);
  const char *cur = plan->pricing.currency[0] ? plan->pricing.currency : "USD";
  /* The CSV is for a spreadsheet: its labels are in the reader's language
   * too (the numbers are plain digits). */
  const char *header[7] = { _("Item"), _("Catalog id"), _("Quantity"), NULL, NULL, _("Source"), _("As of") };
  /* Translators: a column of the bill of materials as CSV; %s is a currency
   * code such as "USD". */
  g_autofree char *unit_h = g_strdup_printf (_("Unit price (%s)"), cur);
  /* Translators: a column of the bill of materials as CSV; %s is a currency
   * code such as "USD". */
  g_autofree char *total_h = g_strdup_printf (_("Total (%s)"), cur);
  const QmCost *c = &e->cost;
  const char *empty[] = { "" };

  if (excel_bom)
    g_string_append (out, "\xEF\xBB\xBF");

#define PAIR(k, val) G_STMT_START { const char *f_[] = { (k), (val) }; qm_csv_append_row (out, f_, 2, sep); } G_STMT_END
  PAIR (_("Plan"), qm_report_plan_name (plan));
  if (plan->customer[0])
    PAIR (_("Customer"), plan->customer);
  if (plan->quote_ref[0])
    /* Translators: a label in the bill of materials as CSV, before the
     * quote's reference. */
    PAIR (_("Quote reference"), plan->quote_ref);
  /* Translators: a label in the bill of materials as CSV, before the
   * version of the catalog's prices. */
  PAIR (_("Catalog prices"), qm_catalog_version ());
  /* Translators: a label in the bill of materials as CSV, before a currency
   * code such as "USD". */
  PAIR (_("Currency"), cur);
  PAIR (_("Pricing"), qm_report_pricing_label (plan->pricing.mode));
#undef PAIR
  qm_csv_append_row (out, empty, 1, sep);

  header[3] = unit_h;
  header[4] = total_h;
  qm_csv_append_row (out, header, 7, sep);
  for (guint i = 0; i < n_bom; i++)
    {
      const QmBomLine *l = &bom[i];
      g_autofree char *q = csv_number (l->qty, l->qty == floor (l->qty) ? 0 : 4, dp);
      g_autofree char *u = csv_number (l->unit_usd, 2, dp);
      g_autofree char *t = csv_number (l->total_usd, 2, dp);
      const char *f[7] = { qm_report_bom_item_label (l->item), l->catalog_id, q, u, t, l->source, l->as_of };

      qm_csv_append_row (out, f, 7, sep);
    }
  qm_csv_append_row (out, empty, 1, sep);

  /* Totals, in the Total column so they line up under the lines. */
  {
    const char *f[5] = { _("Totals"), "", "", "", "" };
    qm_csv_append_row (out, f, 5, sep);
  }
#define TOTAL(label, amount) G_STMT_START {                                   \
    g_autofree char *a_ = csv_number ((amount), 2, dp);                       \
    const char *f_[5] = { (label), "", "", "", a_ };                           \
    qm_csv_append_row (out, f_, 5, sep); \
  } G_STMT_END
  TOTAL (_("Upfront"), c->upfront);
  if (qm_report_is_buy (plan))
    {
      TOTAL (_("Amortisation per month"), c->amortization_monthly);
      TOTAL (_("Electricity per month"), c->power_monthly);
      TOTAL (_("Colocation per month"), c->colo_monthly);
      TOTAL (_("Support per month"), c->support_monthly);
    }
  TOTAL (_("Monthly"), c->monthly);
  TOTAL (e->has_training ? _("This run") : _("One month of serving"), c->run);
  {
    /* Translators: the last total of the bill of materials as CSV; %s is
     * the months of the plan's horizon. */
    g_autofree char *label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Total over %s month",
                                                           "Total over %s months", qm_report_plural_n (c->horizon_months)),
                                              qm_report_num (c->horizon_months, 0));
    TOTAL (label, c->total);
  }
#undef TOTAL

  return g_string_free (out, FALSE);
}

char *
qm_bom_to_csv (const QmEstimate *estimate,
               const QmPlan     *plan,
               gboolean          excel_bom)
{
  const char *dp = qm_format_decimal_point ();
  gboolean comma = g_str_equal (dp, ",");

  g_return_val_if_fail (estimate != NULL && plan != NULL, NULL);
  return qm_bom_to_csv_full (estimate, plan, estimate->cost.bom, MIN (estimate->cost.n_bom, QM_BOM_MAX),
                             excel_bom, comma ? ';' : ',', comma ? "," : ".");
}

char *
qm_bom_to_csv_dialect (const QmEstimate   *estimate,
                       const QmPlan       *plan,
                       gboolean            excel_bom,
                       const QmCsvDialect *dialect)
{
  const char dp[2] = { dialect->decimal_mark, '\0' };
  g_autofree char *body = NULL;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (estimate != NULL && plan != NULL && dialect != NULL, NULL);

  body = qm_bom_to_csv_full (estimate, plan, estimate->cost.bom, MIN (estimate->cost.n_bom, QM_BOM_MAX),
                             excel_bom, dialect->separator, dp);
  if (!excel_bom)
    qm_csv_append_dialect_line (out, dialect);
  g_string_append (out, body);
  return g_string_free (out, FALSE);
}
