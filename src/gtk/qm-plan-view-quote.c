/* qm-plan-view-quote.c: the plan view's Quote section (issue #22).
 *
 * The terms are rows of the plan schema (quote.*), built and synced by the
 * side panel's machinery into this section's group (qm-plan-view-rows.c,
 * group QUOTE). This file adds what is not a plain key: the "Add a Quote"
 * action, the lines, each with its own discount, vendor, lead time and
 * support rate (by its line key), the totals, the cash-flow chart's
 * tooltip, and the quote's PDF, workbook and printing.
 * Every edit goes through the plan editor, so undo works.
 *
 * With a store, "Save Quote" freezes the saved plan's quote as the next
 * revision in the quote store (numbered on the first save), and the plan's
 * quote_ref takes the number; the heading then shows the stored quote's
 * number, revision, state and validity, and says when it expired. While
 * the quote on screen is the one the latest revision froze, its PDF and
 * workbook are that revision's ("Revision A", its project and preparer);
 * after a change they are a draft of the next one. A draft
 * in a currency whose rate the plan file leaves out is priced at the
 * store's rate on or before today, as saving it would be.
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
#include "qm-price-age.h"
#include "qm-print.h"
#include "qm-quote-diff.h"
#include "qm-quote-dialog.h"
#include "qm-quote-report.h"
#include "qm-quote-store.h"
#include "qm-supplier-store.h"
#include "qm-quote-xlsx.h"

#define MONEY_BUF 64
/* What Save Quote writes: the plan, then the quote revision. */
#define SAVE_QUOTE_RIGHTS (QM_STORE_RIGHT_EDIT_PLANS | QM_STORE_RIGHT_EDIT_QUOTES)

enum { COL_ITEM, COL_QTY, COL_LIST, COL_DISCOUNT, COL_NET, COL_TOTAL, N_COLS };

static const char *const column_titles[N_COLS] = {
  N_("Item"), N_("Qty"), N_("List Unit"), N_("Discount (%)"), N_("Net Unit"), N_("Total"),
};

/* ------------------------------------------------------------------ */
/* Exports                                                             */

static const QmQuoteSummary *stored_quote (QmPlanView *self);

/* The latest stored revision of the plan's quote, or NULL (no store, no
 * stored quote, or a store that cannot be read: then the draft prints). */
static QmQuoteRevision *
latest_revision (QmPlanView *self)
{
  const QmQuoteSummary *s = stored_quote (self);

  return s != NULL ? qm_quote_store_load_revision (self->store, s->number, NULL, NULL) : NULL;
}

/* TRUE when the quote on screen is still the one @rev froze: the same
 * currency, lines, quantities, negotiated prices, accepted options and
 * gross. Its exports are then that revision's, with its letter, project
 * and preparer, not a draft's (issue #35 item 3). */
static gboolean
revision_is_current (const QmQuoteRevision *rev,
                     const QmQuote         *quote)
{
  QmQuoteChange change;

  return rev != NULL && quote != NULL && qm_quote_diff (rev->quote, quote, &change, 1) == 0;
}

/* A draft dated today: the store will give the number and revision. A
 * draft of a stored quote's next revision keeps its number and starts
 * from what @last printed, as the save dialog does. */
static void
draft_header (QmPlanView            *self,
              const QmQuoteRevision *last,
              QmQuoteHeader         *header,
              GDate                 *today)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);

  memset (header, 0, sizeof *header);
  qm_quote_today (&header->issued);
  *today = header->issued;
  header->number = p->quote_ref[0] ? p->quote_ref : NULL;
  header->customer = p->customer;
  header->valid_days = p->quote.valid_days;
  if (last != NULL)
    {
      header->number = last->number;
      header->customer = last->customer;
      header->project = last->project;
      header->prepared_by = last->prepared_by;
      header->payment_terms = last->payment_terms;
      header->terms = last->terms;
      header->customer_vat = last->customer_vat;
      header->supplier = last->supplier;
    }
}

/* The store's supplier details for a draft's letterhead when it has no
 * stored revision to take them from (issue #35 item 2); NULL for none. */
static QmSupplier *
draft_supplier (QmPlanView          *self,
                const QmQuoteHeader *header)
{
  if (header->supplier != NULL || self->store == NULL)
    return NULL;
  return qm_supplier_store_get (self->store, NULL);
}

static QmDocument *
quote_document (QmPlanView *self)
{
  g_autoptr(QmQuoteRevision) rev = latest_revision (self);
  g_autoptr(QmSupplier) supplier = NULL;
  QmQuoteHeader header;
  GDate today;

  if (revision_is_current (rev, self->quote))
    {
      /* The stored revision as the quote dialog prints it. */
      qm_quote_today (&today);
      qm_quote_revision_header (rev, &header);
      qm_quote_header_set_prices (&header, rev->estimate, qm_plan_view_price_max_age (self));
      return qm_quote_report_new (rev->plan, rev->estimate, &header, rev->quote, &today, qm_paper_for_locale ());
    }
  draft_header (self, rev, &header, &today);
  qm_quote_header_set_prices (&header, qm_plan_editor_get_estimate (self->editor), qm_plan_view_price_max_age (self));
  supplier = draft_supplier (self, &header);
  if (supplier != NULL)
    header.supplier = supplier;
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
  g_autoptr(QmQuoteRevision) rev = NULL;
  g_autoptr(QmSupplier) supplier = NULL;
  QmQuoteHeader header;
  GDate today;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  rev = latest_revision (self);
  if (revision_is_current (rev, self->quote))
    {
      qm_quote_revision_header (rev, &header);
      qm_quote_header_set_prices (&header, rev->estimate, qm_plan_view_price_max_age (self));
      return qm_quote_write_xlsx (&header, rev->quote, path, error);
    }
  draft_header (self, rev, &header, &today);
  qm_quote_header_set_prices (&header, qm_plan_editor_get_estimate (self->editor), qm_plan_view_price_max_age (self));
  supplier = draft_supplier (self, &header);
  if (supplier != NULL)
    header.supplier = supplier;
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
/* The stored quote                                                    */

/* The saved plan's quote in the store, looked up once per save rather
 * than on every edit. */
typedef struct
{
  gint64          plan_id;
  QmQuoteSummary *summary;   /* NULL: the plan has no stored quote */
} StoredQuote;

static void
stored_quote_free (gpointer data)
{
  StoredQuote *sq = data;

  g_clear_pointer (&sq->summary, qm_quote_summary_free);
  g_free (sq);
}

static void
forget_stored_quote (QmPlanView *self)
{
  g_object_set_data (G_OBJECT (self), "qm-stored-quote", NULL);
}

static const QmQuoteSummary *
stored_quote (QmPlanView *self)
{
  gint64 id = qm_plan_editor_get_saved_id (self->editor);
  StoredQuote *sq = g_object_get_data (G_OBJECT (self), "qm-stored-quote");
  g_autofree char *number = NULL;
  g_autoptr(GPtrArray) all = NULL;

  if (self->store == NULL || id <= 0)
    return NULL;
  if (sq != NULL && sq->plan_id == id)
    return sq->summary;
  sq = g_new0 (StoredQuote, 1);
  sq->plan_id = id;
  /* A store that cannot be read shows the plan's draft, as without one. */
  number = qm_quote_store_find_for_plan (self->store, id, NULL);
  if (number != NULL && (all = qm_quote_store_list (self->store, NULL, NULL, NULL)) != NULL)
    for (guint i = 0; i < all->len && sq->summary == NULL; i++)
      if (g_str_equal (((QmQuoteSummary *) g_ptr_array_index (all, i))->number, number))
        sq->summary = g_ptr_array_steal_index (all, i);
  g_object_set_data_full (G_OBJECT (self), "qm-stored-quote", sq, stored_quote_free);
  return sq->summary;
}

/* "Q-2026-0042 rev. B, valid until 2026-12-25". */
static char *
stored_quote_text (const char  *number,
                   const char  *revision,
                   const GDate *issued,
                   guint        valid_days)
{
  QmQuoteHeader header = { .issued = *issued, .valid_days = valid_days };
  GDate until = qm_quote_valid_until (&header);
  char date[11];

  qm_quote_date_format (&until, date);
  /* Translators: a quote number, its revision letter, and its last valid day. */
  return g_strdup_printf (_("%s rev. %s, valid until %s"), number, revision, date);
}

/* A draft in another currency with no rate in the plan file: the store's
 * rate on or before today, as qm_quote_store_save_revision would take.
 * Returns the plan to quote (@plan or @with_rate) and what it said. */
static const QmPlan *
draft_with_store_rate (QmPlanView    *self,
                       const QmPlan  *plan,
                       QmPlan        *with_rate,
                       char         **said)
{
  g_autoptr(QmExchangeRate) rate = NULL;
  g_autoptr(GError) error = NULL;
  GDate today;
  char date[11];

  *said = NULL;
  if (!plan->has_quote || self->store == NULL || plan->quote.exchange_rate > 0 ||
      g_ascii_strcasecmp (plan->quote.currency, "USD") == 0 || plan->quote.currency[0] == '\0')
    return plan;
  qm_quote_today (&today);
  rate = qm_quote_store_find_rate (self->store, plan->quote.currency, &today, &error);
  if (rate == NULL)
    {
      *said = g_strdup (error->message);
      return plan;
    }
  *with_rate = *plan;
  with_rate->quote.exchange_rate = rate->rate_per_usd;
  qm_quote_date_format (&rate->date, date);
  /* Translators: a rate, the currency, the rate's date and its source. */
  *said = g_strdup_printf (_("At the database’s rate of %g %s per US dollar from %s (%s)"),
                           rate->rate_per_usd, rate->currency, date,
                           rate->source != NULL && *rate->source ? rate->source : _("no source"));
  return with_rate;
}

/* ------------------------------------------------------------------ */
/* Saving a quote or a revision                                        */

enum
{
  FIELD_CUSTOMER, FIELD_CUSTOMER_VAT, FIELD_PROJECT, FIELD_PREPARED_BY, FIELD_PAYMENT_TERMS, FIELD_TERMS,
  FIELD_NOTE, N_FIELDS
};

static const struct { const char *title, *name; } fields[N_FIELDS] = {
  { N_("Customer"), "quote-save-customer" },
  /* Beside the customer on the quote (issue #35 item 2). */
  { N_("Customer VAT ID"), "quote-save-customer-vat" },
  { N_("Project"), "quote-save-project" },
  { N_("Prepared By"), "quote-save-prepared-by" },
  { N_("Payment Terms"), "quote-save-payment-terms" },
  { N_("Terms"), "quote-save-terms" },
  { N_("What Changed"), "quote-save-note" },
};

/* What the dialog asks, kept when the store refuses so that the dialog
 * comes back with the user's words and the reason. */
typedef struct
{
  QmPlanView *view;
  char       *values[N_FIELDS];
  char       *number;     /* the stored quote's, or NULL for a new one */
  char       *next;       /* the revision letter it will get */
  char       *problem;
  GtkEntry   *rows[N_FIELDS];
} SaveForm;

static void
save_form_free (SaveForm *form)
{
  for (guint i = 0; i < N_FIELDS; i++)
    g_free (form->values[i]);
  g_free (form->number);
  g_free (form->next);
  g_free (form->problem);
  g_clear_object (&form->view);
  g_free (form);
}

static void
save_form_notify (gpointer  data,
                  GClosure *closure)
{
  save_form_free (data);
}

static SaveForm *
save_form_new (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmQuoteSummary *s = stored_quote (self);
  SaveForm *form = g_new0 (SaveForm, 1);
  g_autoptr(QmQuoteRevision) last = NULL;

  form->view = g_object_ref (self);
  if (s != NULL)
    last = qm_quote_store_load_revision (self->store, s->number, NULL, NULL);
  if (last != NULL)
    {
      /* A revision starts from what the last one printed. */
      form->number = g_strdup (last->number);
      form->next = qm_quote_revision_letter (last->seq + 1);
      form->values[FIELD_CUSTOMER] = g_strdup (last->customer);
      form->values[FIELD_CUSTOMER_VAT] = g_strdup (last->customer_vat);
      form->values[FIELD_PROJECT] = g_strdup (last->project);
      form->values[FIELD_PREPARED_BY] = g_strdup (last->prepared_by);
      form->values[FIELD_PAYMENT_TERMS] = g_strdup (last->payment_terms);
      form->values[FIELD_TERMS] = g_strdup (last->terms);
    }
  else
    {
      const char *real = g_get_real_name ();

      form->values[FIELD_CUSTOMER] = g_strdup (p->customer);
      form->values[FIELD_PROJECT] = g_strdup (p->name);
      form->values[FIELD_PREPARED_BY] = g_strdup (g_strcmp0 (real, "Unknown") != 0 ? real : "");
    }
  return form;
}

static gboolean
save_form_run (SaveForm  *form,
               GError   **error)
{
  QmPlanView *self = form->view;
  QmQuoteRequest req = { 0 };
  g_autoptr(QmQuoteRevision) rev = NULL;
  g_autofree char *text = NULL;
  QmPlan candidate;

  if (form->number != NULL && (form->values[FIELD_NOTE] == NULL || *g_strstrip (form->values[FIELD_NOTE]) == '\0'))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   _("Say what changed since the last revision"));
      return FALSE;
    }
  /* The store quotes the saved plan: write pending edits first. */
  if (!qm_plan_view_save (self, error))
    return FALSE;
  req.plan_id = qm_plan_editor_get_saved_id (self->editor);
  if (req.plan_id <= 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("Save the plan before its quote"));
      return FALSE;
    }
  qm_quote_today (&req.issued);
  req.customer = form->values[FIELD_CUSTOMER];
  req.customer_vat = form->values[FIELD_CUSTOMER_VAT];
  req.project = form->values[FIELD_PROJECT];
  req.prepared_by = form->values[FIELD_PREPARED_BY];
  req.payment_terms = form->values[FIELD_PAYMENT_TERMS];
  req.terms = form->values[FIELD_TERMS];
  req.note = form->number != NULL ? form->values[FIELD_NOTE] : NULL;
  if ((rev = qm_quote_store_save_revision (self->store, &req, error)) == NULL)
    return FALSE;
  forget_stored_quote (self);

  /* The plan names its quote, so that the plans list shows it. */
  candidate = *qm_plan_editor_get_plan (self->editor);
  if (g_strcmp0 (candidate.quote_ref, rev->number) != 0)
    {
      g_autoptr(GError) local = NULL;

      g_strlcpy (candidate.quote_ref, rev->number, sizeof candidate.quote_ref);
      qm_plan_editor_set_plan (self->editor, &candidate, NULL);
      if (!qm_plan_view_save (self, &local))
        {
          /* The quote is saved; autosave tries the plan again. */
          g_autofree char *message = g_strdup_printf (_("The plan is not saved yet: %s"), local->message);

          qm_plan_view_toast (self, message);
        }
    }
  text = stored_quote_text (rev->number, rev->revision, &rev->issued, rev->valid_days);
  {
    /* Translators: %s is a quote number, its revision and its validity. */
    g_autofree char *toast = g_strdup_printf (_("Saved %s"), text);

    qm_plan_view_toast (self, toast);
  }
  qm_plan_view_quote_update (self);
  return TRUE;
}

static void save_dialog_present (SaveForm *form);

/* A copy of @form for the dialog that comes back after a refusal. */
static SaveForm *
save_form_copy (const SaveForm *form)
{
  SaveForm *copy = g_new0 (SaveForm, 1);

  copy->view = g_object_ref (form->view);
  for (guint i = 0; i < N_FIELDS; i++)
    copy->values[i] = g_strdup (form->values[i]);
  copy->number = g_strdup (form->number);
  copy->next = g_strdup (form->next);
  return copy;
}

static void
save_dialog_response (AdwMessageDialog *dialog,
                      const char       *response,
                      SaveForm         *form)
{
  g_autoptr(GError) error = NULL;
  SaveForm *again;

  if (!g_str_equal (response, "save"))
    return;
  for (guint i = 0; i < N_FIELDS; i++)
    if (form->rows[i] != NULL)
      {
        g_free (form->values[i]);
        form->values[i] = g_strdup (gtk_editable_get_text (GTK_EDITABLE (form->rows[i])));
      }
  if (save_form_run (form, &error))
    return;
  /* The dialog closes after any response: it comes back as it was, with
   * the reason in words. */
  again = save_form_copy (form);
  again->problem = g_strdup (error->message);
  save_dialog_present (again);
}

static GtkWidget *
save_dialog_fields (SaveForm *form)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *group = adw_preferences_group_new ();

  if (form->problem != NULL)
    {
      GtkWidget *problem = gtk_label_new (form->problem);

      gtk_label_set_wrap (GTK_LABEL (problem), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (problem), 40);
      gtk_widget_add_css_class (problem, "error");
      gtk_widget_set_name (problem, "quote-save-problem");
      gtk_box_append (GTK_BOX (box), problem);
    }
  for (guint i = 0; i < N_FIELDS; i++)
    {
      GtkWidget *row;

      /* What changed is for a revision; a first issue has nothing before it. */
      if (i == FIELD_NOTE && form->number == NULL)
        continue;
      row = adw_entry_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(fields[i].title));
      gtk_editable_set_text (GTK_EDITABLE (row), form->values[i] != NULL ? form->values[i] : "");
      gtk_widget_set_name (row, fields[i].name);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
      form->rows[i] = (GtkEntry *) row;
    }
  gtk_box_append (GTK_BOX (box), group);
  return box;
}

static void
save_dialog_present (SaveForm *form)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (form->view));
  const QmPlan *p = qm_plan_editor_get_plan (form->view->editor);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (form->number != NULL)
    /* Translators: a quote number, then the letter of its next revision. */
    body = g_strdup_printf (_("%s gets revision %s, dated today, from the plan as it is now."),
                            form->number, form->next);
  else
    /* Translators: %u is the number of days the quote stands. */
    body = g_strdup_printf (_("The quote gets the next number and stands for %u days from today."),
                            p->quote.valid_days);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   form->number != NULL ? _("Save Revision") : _("Save Quote"), body);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), save_dialog_fields (form));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "save", _("_Save"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_widget_set_name (dialog, "quote-save-dialog");
  /* The dialog owns the form: "response" may come more than once. */
  g_signal_connect_data (dialog, "response", G_CALLBACK (save_dialog_response), form,
                         save_form_notify, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
action_save_quote (GtkWidget  *widget,
                   const char *name,
                   GVariant   *param)
{
  save_dialog_present (save_form_new (QM_PLAN_VIEW (widget)));
}

/* The button beside the section's heading, made once. */
static GtkWidget *
save_button (QmPlanView *self)
{
  GtkWidget *button = g_object_get_data (G_OBJECT (self), "qm-quote-save-button");

  if (button == NULL)
    {
      button = gtk_button_new ();
      gtk_button_set_use_underline (GTK_BUTTON (button), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "plan.save-quote");
      gtk_widget_set_name (button, "quote-save");
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->quote_state))), button);
      gtk_widget_set_name (GTK_WIDGET (self->quote_state), "quote-state");
      g_object_set_data (G_OBJECT (self), "qm-quote-save-button", button);
    }
  return button;
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
  gtk_widget_class_install_action (widget_class, "plan.print-quote", NULL, action_print_quote);
  gtk_widget_class_install_action (widget_class, "plan.save-quote", NULL, action_save_quote);
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */

/* A discount typed on a line: a fraction off its list price in the
 * line's own entry of plan->quote.items[] (found by the line's key, so the
 * switches and the cables of one fabric keep theirs apart), one undo step
 * per line. Entries of older files, one per catalog id, are first split
 * into the lines they priced (qm_quote_terms_edit ()). */
static void
on_discount_changed (GtkSpinButton *spin,
                     QmPlanView    *self)
{
  const char *key = g_object_get_data (G_OBJECT (spin), "line-key");
  QmPlan candidate;
  QmQuoteItemTerms *it;
  g_autoptr(GError) error = NULL;
  g_autofree char *merge_key = NULL;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  it = qm_quote_terms_edit (&candidate.quote, self->quote, key);
  if (it == NULL)
    {
      /* Translators: %d is the most quote lines that can have their own terms. */
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
  merge_key = g_strconcat ("quote.discount.", key, NULL);
  self->editing = TRUE;
  qm_plan_editor_set_plan (self->editor, &candidate, merge_key);
  self->editing = FALSE;
}

/* The other terms of a line, in the popover beside its discount: its
 * vendor, lead time and yearly support rate, stored in the line's own
 * entry as the discount is, one undo step per line and term. */
typedef enum { TERM_VENDOR, TERM_LEAD_WEEKS, TERM_SUPPORT_RATE } Term;

/* @text cut to fit @size bytes at a character boundary. */
static void
copy_utf8 (char       *out,
           gsize       size,
           const char *text)
{
  const char *end = text;

  while (*end != '\0')
    {
      const char *next = g_utf8_next_char (end);

      if ((gsize) (next - text) >= size)
        break;
      end = next;
    }
  memcpy (out, text, end - text);
  out[end - text] = '\0';
}

static void
on_term_changed (GtkWidget  *widget,
                 QmPlanView *self)
{
  const char *key = g_object_get_data (G_OBJECT (widget), "line-key");
  Term term = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (widget), "term"));
  static const char *const merge[] = { "quote.vendor.", "quote.lead_weeks.", "quote.support_rate." };
  QmPlan candidate;
  QmQuoteItemTerms *it;
  g_autoptr(GError) error = NULL;
  g_autofree char *merge_key = NULL;

  if (self->syncing)
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  it = qm_quote_terms_edit (&candidate.quote, self->quote, key);
  if (it == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("A quote discounts at most %d items"), QM_QUOTE_MAX_ITEMS);

      qm_plan_view_toast (self, text);
      return;
    }
  switch (term)
    {
    case TERM_VENDOR:
      copy_utf8 (it->vendor, sizeof it->vendor, gtk_editable_get_text (GTK_EDITABLE (widget)));
      break;
    case TERM_LEAD_WEEKS:
      it->lead_weeks = gtk_spin_button_get_value (GTK_SPIN_BUTTON (widget));
      break;
    case TERM_SUPPORT_RATE:
    default:
      it->support_rate = gtk_spin_button_get_value (GTK_SPIN_BUTTON (widget)) / 100.0;
      break;
    }
  if (!qm_plan_validate (&candidate, &error))
    {
      gtk_widget_add_css_class (widget, "error");
      gtk_widget_set_tooltip_text (widget, error->message);
      return;
    }
  gtk_widget_remove_css_class (widget, "error");
  gtk_widget_set_tooltip_text (widget, NULL);
  merge_key = g_strconcat (merge[term], key, NULL);
  self->editing = TRUE;
  qm_plan_editor_set_plan (self->editor, &candidate, merge_key);
  self->editing = FALSE;
}

static void
term_row (GtkGrid    *grid,
          int         row,
          const char *title,
          GtkWidget  *field,
          const char *key,
          Term        term,
          const char *name)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (title);
  g_autofree char *full = g_strconcat (name, key, NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), field);
  gtk_widget_set_name (field, full);
  g_object_set_data_full (G_OBJECT (field), "line-key", g_strdup (key), g_free);
  g_object_set_data (G_OBJECT (field), "term", GINT_TO_POINTER (term));
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_grid_attach (grid, field, 1, row, 1, 1);
}

/* The button beside a line's discount, with its other terms. */
static GtkWidget *
terms_button_new (QmPlanView        *self,
                  const QmQuoteLine *line)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *vendor = gtk_entry_new ();
  GtkWidget *lead = gtk_spin_button_new_with_range (0, 520, 1);
  GtkWidget *support = gtk_spin_button_new_with_range (0, 100, 0.5);
  g_autofree char *label = qm_quote_line_label (line);
  /* Translators: the heading of a quote line's terms; %s is the line, e.g. "Fabric cables". */
  g_autofree char *heading = g_strdup_printf (_("Terms for %s"), label);
  /* Translators: the accessible name of a quote line's terms button; %s is the line. */
  g_autofree char *a11y = g_strdup_printf (_("Vendor, lead time and support for %s"), label);
  g_autofree char *name = g_strconcat ("quote-terms-", line->key, NULL);
  GtkWidget *title = gtk_label_new (heading);
  GtkWidget *hint = gtk_label_new (_("0 takes the catalog’s figure, else the quote’s"));

  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (title), 30);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_add_css_class (hint, "caption");
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 30);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_editable_set_width_chars (GTK_EDITABLE (vendor), 18);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (support), 1);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (lead), GTK_UPDATE_ALWAYS);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (support), GTK_UPDATE_ALWAYS);
  term_row (GTK_GRID (grid), 0, _("_Vendor"), vendor, line->key, TERM_VENDOR, "quote-vendor-");
  term_row (GTK_GRID (grid), 1, _("Lead _Time (Weeks)"), lead, line->key, TERM_LEAD_WEEKS, "quote-lead-");
  term_row (GTK_GRID (grid), 2, _("Yearly Support _Rate (%)"), support, line->key, TERM_SUPPORT_RATE,
            "quote-support-");
  g_signal_connect (vendor, "changed", G_CALLBACK (on_term_changed), self);
  g_signal_connect (lead, "value-changed", G_CALLBACK (on_term_changed), self);
  g_signal_connect (support, "value-changed", G_CALLBACK (on_term_changed), self);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), grid);
  gtk_box_append (GTK_BOX (box), hint);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, a11y);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  gtk_widget_set_name (button, name);
  g_object_set_data (G_OBJECT (button), "vendor", vendor);
  g_object_set_data (G_OBJECT (button), "lead", lead);
  g_object_set_data (G_OBJECT (button), "support", support);
  return button;
}

/* The terms a line's popover shows: its own entry's, else those of an
 * older file's entry for its catalog id. */
static void
sync_terms (QmPlanView        *self,
            GtkWidget         *button,
            const QmQuoteLine *line)
{
  const QmQuoteItemTerms *it = qm_quote_terms_find (&qm_plan_editor_get_plan (self->editor)->quote, line->key,
                                                    line->catalog_id);
  GtkEditable *vendor = g_object_get_data (G_OBJECT (button), "vendor");

  if (g_strcmp0 (gtk_editable_get_text (vendor), it != NULL ? it->vendor : "") != 0)
    gtk_editable_set_text (vendor, it != NULL ? it->vendor : "");
  gtk_spin_button_set_value (g_object_get_data (G_OBJECT (button), "lead"), it != NULL ? it->lead_weeks : 0);
  gtk_spin_button_set_value (g_object_get_data (G_OBJECT (button), "support"),
                             it != NULL ? it->support_rate * 100.0 : 0);
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
  g_autofree char *name = g_strconcat ("quote-discount-", line->key, NULL);
  g_autofree char *label = qm_quote_line_label (line);
  /* Translators: the accessible name of a discount field; %s is a quote line, e.g. "Fabric cables". */
  g_autofree char *a11y = g_strdup_printf (_("Discount on %s, in percent"), label);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 1);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (spin), GTK_UPDATE_ALWAYS);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 4);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_widget_set_name (spin, name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  g_object_set_data_full (G_OBJECT (spin), "line-key", g_strdup (line->key), g_free);
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
    g_string_append_printf (s, "%d/%s;", q->lines[i].kind, q->lines[i].key);
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
            {
              /* The discount, and the line's other terms beside it. */
              GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
              GtkWidget *spin = discount_new (self, line);
              GtkWidget *terms = terms_button_new (self, line);

              gtk_widget_set_halign (box, GTK_ALIGN_END);
              gtk_box_append (GTK_BOX (box), spin);
              gtk_box_append (GTK_BOX (box), terms);
              g_object_set_data (G_OBJECT (box), "spin", spin);
              g_object_set_data (G_OBJECT (box), "terms", terms);
              gtk_grid_attach (self->quote_lines, box, c, (int) i + 1, 1, 1);
            }
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
        {
          gtk_spin_button_set_value (g_object_get_data (G_OBJECT (discount), "spin"), line->discount * 100.0);
          sync_terms (self, g_object_get_data (G_OBJECT (discount), "terms"), line);
        }
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

static const char *const state_words[] = {
  N_("Draft"), N_("Sent"), N_("Accepted"), N_("Declined"),
};

/* The heading's words: the stored quote's number, revision, state and
 * validity (and that it expired), else the plan's draft. */
static char *
state_text (QmPlanView *self,
            gboolean   *expired)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmQuoteSummary *s = stored_quote (self);
  g_autofree char *stored = NULL;
  QmQuoteHeader header;
  GDate today;

  *expired = FALSE;
  if (!p->has_quote)
    return g_strdup ("");
  if (s == NULL && p->quote_ref[0] != '\0')
    /* Translators: the state of a quote, then its reference. */
    return g_strdup_printf (_("Draft · %s"), p->quote_ref);
  if (s == NULL)
    return g_strdup (_("Draft"));
  header = (QmQuoteHeader) { .issued = s->issued, .valid_days = s->valid_days };
  qm_quote_today (&today);
  *expired = qm_quote_expired (&header, &today);
  stored = stored_quote_text (s->number, s->revision, &s->issued, s->valid_days);
  if (*expired)
    /* Translators: a quote's state (Sent ...), then its number, revision and validity. */
    return g_strdup_printf (_("Expired · %s · %s"), _(state_words[s->state]), stored);
  /* Translators: a quote's state (Sent ...), then its number, revision and validity. */
  return g_strdup_printf (_("%s · %s"), _(state_words[s->state]), stored);
}

/* @rate_said: which rate the draft took from the store, or (with
 * @rate_missing) why it found none. */
static void
update_state (QmPlanView *self,
              const char *rate_said,
              gboolean    rate_missing)
{
  const QmQuote *q = self->quote;
  g_autofree char *problem = NULL;
  g_autofree char *description = NULL;
  gboolean expired;
  g_autofree char *state = state_text (self, &expired);
  GtkWidget *save = save_button (self);
  const QmQuoteSummary *s = stored_quote (self);

  gtk_label_set_label (self->quote_state, state);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->quote_state), state);
  /* An expired quote says so where its number is shown. */
  if (expired)
    gtk_widget_add_css_class (GTK_WIDGET (self->quote_state), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->quote_state), "error");
  gtk_button_set_label (GTK_BUTTON (save), s != NULL ? _("_Save Revision…") : _("_Save Quote…"));
  gtk_widget_set_visible (save, self->store != NULL && qm_plan_editor_get_plan (self->editor)->has_quote);
  /* Insensitive for a role that may not save it, and the button says why. */
  if (self->store != NULL && !qm_plan_view_may (self, SAVE_QUOTE_RIGHTS))
    {
      g_autofree char *why = qm_store_rights_reason (self->store, SAVE_QUOTE_RIGHTS);

      gtk_widget_set_tooltip_text (save, why);
    }

  /* Without a rate the draft cannot be priced: the store says for which
   * currency and day, better than "exchange_rate must be > 0". */
  if (rate_missing)
    problem = g_strdup (rate_said);
  for (guint i = 0; i < q->issues.n && problem == NULL; i++)
    if (qm_issues_has_error (&q->issues))
      problem = qm_issue_to_string (&q->issues.items[i]);
  if (problem == NULL && rate_said != NULL)
    /* Translators: the lines' help, then which exchange rate the draft used. */
    description = g_strdup_printf (_("%s. %s."), _("Type a discount for each line; prices are in the quote’s currency"),
                                   rate_said);
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self->quote_lines_group),
                                         problem != NULL ? problem
                                         : description != NULL ? description
                                         : _("Type a discount for each line; prices are in the quote’s currency"));
}

void
qm_plan_view_quote_update (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  gboolean has = p->has_quote;
  gboolean live = self->snapshot == NULL;
  gboolean ok;
  g_autofree QmPlan *with_rate = g_new (QmPlan, 1);
  g_autofree char *rate_said = NULL;
  const QmPlan *priced;

  /* The same quote the chart draws: the plan's terms or the defaults,
   * at the store's rate where the plan file gives none. */
  priced = draft_with_store_rate (self, p, with_rate, &rate_said);
  qm_plan_chart_quote (priced, e, self->quote);
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
  /* Saving a quote saves the plan first: a role needs both rights. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.save-quote",
                                 has && live && qm_plan_view_may (self, SAVE_QUOTE_RIGHTS));
  update_state (self, rate_said, rate_said != NULL && priced == p);
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
