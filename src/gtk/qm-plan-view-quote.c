/* qm-plan-view-quote.c: the plan view's Quote section (issue #22).
 *
 * The terms are rows of the plan schema (quote.*), built and synced by the
 * side panel's machinery into this section's group (qm-plan-view-rows.c,
 * group QUOTE). This file adds what is not a plain key: the "Add a Quote"
 * action, the lines with a discount per catalog item, the totals, the
 * cash-flow chart's tooltip, and the quote's PDF, workbook and printing.
 * Every edit goes through the plan editor, so undo works.
 *
 * The quotes list across plans, numbering and revisions belong to the
 * quote store; until then the section shows a draft with the plan's
 * quote_ref.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-format.h"
#include "qm-plan.h"
#include "qm-plan-view-private.h"
#include "qm-print.h"
#include "qm-quote-report.h"
#include "qm-quote-xlsx.h"

#define MONEY_BUF 64

enum { COL_ITEM, COL_QTY, COL_LIST, COL_DISCOUNT, COL_NET, COL_TOTAL, N_COLS };

static const char *const column_titles[N_COLS] = {
  N_("Item"), N_("Qty"), N_("List Unit"), N_("Discount (%)"), N_("Net Unit"), N_("Total"),
};

/* ------------------------------------------------------------------ */
/* Exports                                                             */

/* A draft dated today: the store will give the number and revision. */
static void
draft_header (QmPlanView    *self,
              QmQuoteHeader *header,
              GDate         *today)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  memset (header, 0, sizeof *header);
  g_date_clear (&header->issued, 1);
  g_date_set_dmy (&header->issued, g_date_time_get_day_of_month (now),
                  g_date_time_get_month (now), g_date_time_get_year (now));
  *today = header->issued;
  header->number = p->quote_ref[0] ? p->quote_ref : NULL;
  header->customer = p->customer;
  header->valid_days = p->quote.valid_days;
}

static QmDocument *
quote_document (QmPlanView *self)
{
  QmQuoteHeader header;
  GDate today;

  draft_header (self, &header, &today);
  return qm_quote_report_new (qm_plan_editor_get_plan (self->editor),
                              qm_plan_editor_get_estimate (self->editor),
                              &header, self->quote, &today, qm_paper_for_locale ());
}

gboolean
qm_plan_view_export_quote_pdf (QmPlanView  *self,
                               const char  *path,
                               GError     **error)
{
  g_autoptr(QmDocument) doc = NULL;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  doc = quote_document (self);
  return qm_document_write_pdf (doc, path, error);
}

gboolean
qm_plan_view_export_quote_xlsx (QmPlanView  *self,
                                const char  *path,
                                GError     **error)
{
  QmQuoteHeader header;
  GDate today;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  draft_header (self, &header, &today);
  return qm_quote_write_xlsx (&header, self->quote, path, error);
}

gboolean
qm_plan_view_print_quote (QmPlanView  *self,
                          const char  *export_path,
                          GError     **error)
{
  const QmPlan *p;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  p = qm_plan_editor_get_plan (self->editor);
  return qm_print_document (GTK_WIDGET (self), quote_document (self), qm_paper_for_locale (),
                            p->name[0] ? p->name : _("Quote"), export_path, error);
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
action_add_quote (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  QmPlan candidate = *qm_plan_editor_get_plan (self->editor);

  qm_quote_terms_init (&candidate.quote, &candidate.pricing);
  candidate.has_quote = TRUE;
  qm_plan_editor_set_plan (self->editor, &candidate, NULL);
}

static void
action_export_quote_pdf (GtkWidget  *widget,
                         const char *name,
                         GVariant   *param)
{
  qm_plan_view_export_with_chooser (QM_PLAN_VIEW (widget), _("Export Quote PDF"), "pdf",
                                    _("PDF documents"), "application/pdf",
                                    qm_plan_view_export_quote_pdf);
}

static void
action_export_quote_xlsx (GtkWidget  *widget,
                          const char *name,
                          GVariant   *param)
{
  qm_plan_view_export_with_chooser (QM_PLAN_VIEW (widget), _("Export Quote Workbook"), "xlsx",
                                    _("Excel workbooks"),
                                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                                    qm_plan_view_export_quote_xlsx);
}

static void
action_print_quote (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  g_autoptr(GError) error = NULL;

  if (!qm_plan_view_print_quote (self, NULL, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not print: %s"), error->message);

      qm_plan_view_toast (self, text);
    }
}

void
qm_plan_view_quote_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "plan.add-quote", NULL, action_add_quote);
  gtk_widget_class_install_action (widget_class, "plan.export-quote-pdf", NULL, action_export_quote_pdf);
  gtk_widget_class_install_action (widget_class, "plan.export-quote-xlsx", NULL, action_export_quote_xlsx);
  gtk_widget_class_install_action (widget_class, "plan.print-quote", NULL, action_print_quote);
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */

/* A discount typed for a catalog item: a fraction off its list price in
 * plan->quote.items[], one undo step per item. */
static void
on_discount_changed (GtkSpinButton *spin,
                     QmPlanView    *self)
{
  const char *id = g_object_get_data (G_OBJECT (spin), "catalog-id");
  QmPlan candidate;
  QmQuoteItemTerms *it = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *merge_key = NULL;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  for (guint i = 0; i < candidate.quote.n_items; i++)
    if (strcmp (candidate.quote.items[i].catalog_id, id) == 0)
      it = &candidate.quote.items[i];
  if (it == NULL && candidate.quote.n_items < QM_QUOTE_MAX_ITEMS)
    {
      it = &candidate.quote.items[candidate.quote.n_items++];
      memset (it, 0, sizeof *it);
      g_strlcpy (it->catalog_id, id, sizeof it->catalog_id);
    }
  if (it == NULL)
    {
      /* Translators: %d is the most catalog items a quote can discount. */
      g_autofree char *text = g_strdup_printf (_("A quote discounts at most %d items"), QM_QUOTE_MAX_ITEMS);

      qm_plan_view_toast (self, text);
      return;
    }
  it->discount_kind = QM_DISCOUNT_FRACTION;
  it->discount = gtk_spin_button_get_value (spin) / 100.0;
  if (!qm_plan_validate (&candidate, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (spin), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (spin), error->message);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (spin), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin), NULL);
  merge_key = g_strconcat ("quote.discount.", id, NULL);
  self->editing = TRUE;
  qm_plan_editor_set_plan (self->editor, &candidate, merge_key);
  self->editing = FALSE;
}

static GtkWidget *
cell_new (GtkGrid    *grid,
          int         column,
          int         row,
          float       xalign,
          const char *style)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  if (column == COL_ITEM)
    {
      gtk_widget_set_hexpand (label, TRUE);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_width_chars (GTK_LABEL (label), 10);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
    }
  gtk_grid_attach (grid, label, column, row, 1, 1);
  return label;
}

static GtkWidget *
discount_new (QmPlanView        *self,
              const QmQuoteLine *line)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (0, 100, 1);
  g_autofree char *name = g_strconcat ("quote-discount-", line->catalog_id, NULL);
  g_autofree char *label = qm_quote_line_label (line);
  /* Translators: the accessible name of a discount field; %s is a catalog item. */
  g_autofree char *a11y = g_strdup_printf (_("Discount on %s, in percent"), label);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 1);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (spin), GTK_UPDATE_ALWAYS);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 4);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_widget_set_name (spin, name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  g_object_set_data_full (G_OBJECT (spin), "catalog-id", g_strdup (line->catalog_id), g_free);
  g_signal_connect (spin, "value-changed", G_CALLBACK (on_discount_changed), self);
  gtk_widget_set_halign (spin, GTK_ALIGN_END);
  return spin;
}

/* What decides the grid's rows: rebuilt only when it changes, so that a
 * discount field keeps its focus while its totals follow. */
static char *
lines_shape (const QmQuote *q)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < q->n_lines; i++)
    g_string_append_printf (s, "%d/%s/%s;", q->lines[i].kind, q->lines[i].item,
                            q->lines[i].catalog_id ? q->lines[i].catalog_id : "");
  return g_string_free (s, FALSE);
}

static void
rebuild_lines (QmPlanView *self)
{
  const QmQuote *q = self->quote;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->quote_lines))) != NULL)
    gtk_grid_remove (self->quote_lines, child);
  for (int c = 0; c < N_COLS; c++)
    gtk_label_set_label (GTK_LABEL (cell_new (self->quote_lines, c, 0, c == COL_ITEM ? 0 : 1,
                                              "caption-heading")),
                         _(column_titles[c]));
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *line = &q->lines[i];

      for (int c = 0; c < N_COLS; c++)
        {
          if (c == COL_DISCOUNT && line->kind == QM_QUOTE_LINE_HARDWARE && line->catalog_id != NULL)
            gtk_grid_attach (self->quote_lines, discount_new (self, line), c, (int) i + 1, 1, 1);
          else
            cell_new (self->quote_lines, c, (int) i + 1, c == COL_ITEM ? 0 : 1,
                      c == COL_ITEM ? NULL : "numeric");
        }
    }
}

static void
set_cell (QmPlanView *self,
          int         column,
          guint       row,
          const char *text)
{
  gtk_label_set_label (GTK_LABEL (gtk_grid_get_child_at (self->quote_lines, column, (int) row)), text);
}

static void
update_lines (QmPlanView *self)
{
  const QmQuote *q = self->quote;
  g_autofree char *shape = lines_shape (q);
  char a[MONEY_BUF];

  if (g_strcmp0 (shape, self->quote_shape) != 0)
    {
      rebuild_lines (self);
      g_free (self->quote_shape);
      self->quote_shape = g_steal_pointer (&shape);
    }
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *line = &q->lines[i];
      g_autofree char *label = qm_quote_line_label (line);
      char qty[QM_FORMAT_BUF];
      GtkWidget *discount = gtk_grid_get_child_at (self->quote_lines, COL_DISCOUNT, (int) i + 1);

      set_cell (self, COL_ITEM, i + 1, label);
      set_cell (self, COL_QTY, i + 1, qm_format_number (qty, sizeof qty, line->qty, line->qty == floor (line->qty) ? 0 : 2));
      set_cell (self, COL_LIST, i + 1, qm_money_format (a, sizeof a, line->list_unit, q->exponent, q->currency));
      set_cell (self, COL_NET, i + 1, qm_money_format (a, sizeof a, line->net_unit, q->exponent, q->currency));
      set_cell (self, COL_TOTAL, i + 1, qm_money_format (a, sizeof a, line->total, q->exponent, q->currency));
      if (GTK_IS_LABEL (discount))
        {
          g_autofree char *pct = line->discount > 0 ? g_strdup_printf ("%.1f", line->discount * 100) : g_strdup ("–");

          gtk_label_set_label (GTK_LABEL (discount), pct);
        }
      /* Never while its own edit commits: the text stays as typed. */
      else if (!self->editing)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (discount), line->discount * 100.0);
    }
}

/* ------------------------------------------------------------------ */
/* Totals                                                              */

static void
add_total (QmPlanView *self,
           int         row,
           const char *name,
           const char *title,
           QmMinor     amount,
           gboolean    strong)
{
  const QmQuote *q = self->quote;
  char a[MONEY_BUF];
  GtkWidget *t = gtk_label_new (title);
  GtkWidget *v = gtk_label_new (qm_money_format (a, sizeof a, amount, q->exponent, q->currency));

  gtk_label_set_xalign (GTK_LABEL (t), 1);
  gtk_label_set_xalign (GTK_LABEL (v), 1);
  gtk_widget_add_css_class (t, "dim-label");
  gtk_widget_add_css_class (v, "numeric");
  if (strong)
    {
      gtk_widget_add_css_class (t, "heading");
      gtk_widget_add_css_class (v, "heading");
    }
  gtk_widget_set_name (v, name);
  gtk_grid_attach (self->quote_totals, t, 0, row, 1, 1);
  gtk_grid_attach (self->quote_totals, v, 1, row, 1, 1);
}

static void
update_totals (QmPlanView *self)
{
  const QmQuote *q = self->quote;
  GtkWidget *child;
  g_autofree char *tax = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->quote_totals))) != NULL)
    gtk_grid_remove (self->quote_totals, child);
  /* Translators: %g is the tax rate in percent, such as 19. */
  tax = g_strdup_printf (_("Tax (%g %%)"), q->tax_rate * 100);
  add_total (self, 0, "quote-net", _("Net"), q->net, FALSE);
  add_total (self, 1, "quote-tax", tax, q->tax, FALSE);
  add_total (self, 2, "quote-gross", _("Gross"), q->gross, TRUE);
  add_total (self, 3, "quote-deposit", _("Deposit at order"), q->deposit, FALSE);
}

/* ------------------------------------------------------------------ */
/* The section                                                         */

static void
update_state (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmQuote *q = self->quote;
  g_autofree char *state = NULL;
  g_autofree char *problem = NULL;

  /* The quote store will say sent, accepted or expired; a plan's quote is
   * a draft until then. */
  if (!p->has_quote)
    state = g_strdup ("");
  else if (p->quote_ref[0] != '\0')
    /* Translators: the state of a quote, then its reference. */
    state = g_strdup_printf (_("Draft · %s"), p->quote_ref);
  else
    state = g_strdup (_("Draft"));
  gtk_label_set_label (self->quote_state, state);

  for (guint i = 0; i < q->issues.n && problem == NULL; i++)
    if (qm_issues_has_error (&q->issues))
      problem = qm_issue_to_string (&q->issues.items[i]);
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self->quote_lines_group),
                                         problem != NULL ? problem
                                         : _("Type a discount for a catalog item; prices are in the quote’s currency"));
}

void
qm_plan_view_quote_update (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  gboolean has = p->has_quote;
  gboolean live = self->snapshot == NULL;
  gboolean ok;

  /* The same quote the chart draws: the plan's terms or the defaults. */
  qm_plan_chart_quote (p, e, self->quote);
  ok = has && live && e->valid && !qm_issues_has_error (&self->quote->issues);

  gtk_widget_set_visible (self->quote_add_group, !has);
  gtk_widget_set_visible (GTK_WIDGET (self->quote_terms_group), has);
  gtk_widget_set_visible (self->quote_lines_group, has);
  gtk_widget_set_visible (GTK_WIDGET (self->quote_totals), has);
  gtk_widget_set_visible (GTK_WIDGET (self->quote_chart_box), has);
  gtk_widget_set_visible (self->quote_actions, has);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.add-quote", !has && live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.export-quote-pdf", ok);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.export-quote-xlsx", ok);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.print-quote", ok);
  update_state (self);
  if (!has)
    return;
  self->syncing = TRUE;
  update_lines (self);
  self->syncing = FALSE;
  update_totals (self);
}

char *
qm_plan_view_quote_tooltip (QmPlanView *self,
                            double      x,
                            double      y)
{
  const QmCashFlowLayout *l = &self->layouts[QM_PLAN_CHART_CASHFLOW]->cashflow;
  const QmQuote *q = self->quote;
  const QmCashFlowMonth *m;
  char a[MONEY_BUF], b[MONEY_BUF];
  double month;

  if (!(x >= l->plot.x && x < l->plot.x + l->plot.width && y >= l->plot.y && y < l->plot.y + l->plot.height))
    return NULL;
  month = round (qm_axis_from_pixel (&l->x_axis, x));
  if (!(month >= 0 && month < q->n_months))
    return NULL;
  m = &q->months[(guint) month];
  qm_money_format (a, sizeof a, m->spend_cumulative, q->exponent, q->currency);
  if (q->rent_total <= 0)
    /* Translators: a month number, then an amount of money. */
    return g_strdup_printf (_("Month %u: %s paid so far"), m->month, a);
  qm_money_format (b, sizeof b, m->rent_cumulative, q->exponent, q->currency);
  /* Translators: a month number, then two amounts of money. */
  return g_strdup_printf (_("Month %u: %s paid so far buying, %s renting"), m->month, a, b);
}
