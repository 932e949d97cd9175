/* qm-quote-dialog.c: a stored quote's revisions (qm-quote-dialog.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-a11y.h"
#include "qm-list-page.h"
#include "qm-price-age.h"
#include "qm-print.h"
#include "qm-quote-csv.h"
#include "qm-quote-diff.h"
#include "qm-gtk.h"
#include "qm-quote-dialog.h"
#include "qm-quote-report.h"
#include "qm-quote-xlsx.h"

struct _QmQuoteDialog
{
  AdwWindow        parent_instance;

  QmStore         *store;        /* a reference */
  char            *number;
  QmQuoteSummary  *summary;
  GPtrArray       *revisions;    /* QmQuoteRevision, A first */
  AdwComboRow     *state_row;
  AdwToastOverlay *toasts;
  char            *pending;      /* the revision a file chooser is open for */
  const char      *pending_ext;  /* ".pdf", ".xlsx" or ".csv" */
};

G_DEFINE_FINAL_TYPE (QmQuoteDialog, qm_quote_dialog, ADW_TYPE_WINDOW)

enum { OPEN_PLAN, STATE_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The store's states, in the order of the State row. */
static const char *const state_labels[] = {
  N_("Draft"), N_("Sent"), N_("Accepted"), N_("Declined"),
};

void
qm_quote_today (GDate *out)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  g_date_clear (out, 1);
  g_date_set_dmy (out, g_date_time_get_day_of_month (now), g_date_time_get_month (now),
                  g_date_time_get_year (now));
}

/* The price age limit set in Preferences (qm-price-age.h). */
static guint
price_max_age (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  return qm_price_max_age_months_clamp ((guint) MAX (g_settings_get_int (settings, "price-max-age-months"), 0));
}

gboolean
qm_quote_revision_write (const QmQuoteRevision *revision,
                         const char            *path,
                         const GDate           *today,
                         GError               **error)
{
  QmQuoteHeader header;
  g_autofree char *lower = g_ascii_strdown (path, -1);

  g_return_val_if_fail (revision != NULL, FALSE);

  qm_quote_revision_header (revision, &header);
  qm_quote_header_set_prices (&header, revision->estimate, price_max_age ());
  if (g_str_has_suffix (lower, ".pdf"))
    {
      g_autoptr(QmDocument) doc = qm_quote_report_new (revision->plan, revision->estimate, &header,
                                                       revision->quote, today, qm_paper_for_locale ());

      return qm_document_write_pdf (doc, path, error);
    }
  if (g_str_has_suffix (lower, ".csv"))
    {
      g_autofree char *csv = qm_quote_to_csv (&header, revision->quote);

      return g_file_set_contents (path, csv, -1, error);
    }
  if (g_str_has_suffix (lower, ".xlsx"))
    return qm_quote_write_xlsx (&header, revision->quote, path, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("“%s” is not a PDF, XLSX or CSV file name"), path);
  return FALSE;
}

static const QmQuoteRevision *
find_revision (QmQuoteDialog *self,
               const char    *letter,
               GError       **error)
{
  for (guint i = 0; i < self->revisions->len; i++)
    {
      const QmQuoteRevision *r = g_ptr_array_index (self->revisions, i);

      if (g_strcmp0 (r->revision, letter) == 0)
        return r;
    }
  g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
               _("Quote %s has no revision %s"), self->number, letter);
  return NULL;
}

gboolean
qm_quote_dialog_export (QmQuoteDialog *self,
                        const char    *revision,
                        const char    *path,
                        GError       **error)
{
  const QmQuoteRevision *r;
  GDate today;

  g_return_val_if_fail (QM_IS_QUOTE_DIALOG (self), FALSE);

  if ((r = find_revision (self, revision, error)) == NULL)
    return FALSE;
  qm_quote_today (&today);
  return qm_quote_revision_write (r, path, &today, error);
}

gboolean
qm_quote_dialog_print (QmQuoteDialog *self,
                       const char    *revision,
                       const char    *export_path,
                       GError       **error)
{
  const QmQuoteRevision *r;
  QmQuoteHeader header;
  g_autofree char *job = NULL;
  GDate today;

  g_return_val_if_fail (QM_IS_QUOTE_DIALOG (self), FALSE);

  if ((r = find_revision (self, revision, error)) == NULL)
    return FALSE;
  qm_quote_today (&today);
  qm_quote_revision_header (r, &header);
  qm_quote_header_set_prices (&header, r->estimate, price_max_age ());
  /* Translators: a print job's name: a quote number, then its revision letter. */
  job = g_strdup_printf (_("%s rev. %s"), r->number, r->revision);
  return qm_print_document (GTK_WIDGET (self),
                            qm_quote_report_new (r->plan, r->estimate, &header, r->quote, &today,
                                                 qm_paper_for_locale ()),
                            qm_paper_for_locale (), job, export_path, error);
}

gboolean
qm_quote_dialog_set_state (QmQuoteDialog *self,
                           QmQuoteState   state,
                           GError       **error)
{
  g_return_val_if_fail (QM_IS_QUOTE_DIALOG (self), FALSE);

  if (!qm_quote_store_set_state (self->store, self->number, state, error))
    return FALSE;
  self->summary->state = state;
  if (adw_combo_row_get_selected (self->state_row) != (guint) state)
    adw_combo_row_set_selected (self->state_row, state);
  g_signal_emit (self, signals[STATE_CHANGED], 0);
  return TRUE;
}

const char *
qm_quote_dialog_get_number (QmQuoteDialog *self)
{
  g_return_val_if_fail (QM_IS_QUOTE_DIALOG (self), NULL);

  return self->number;
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
show_error (QmQuoteDialog *self,
            const char    *heading,
            const GError  *error)
{
  qm_list_page_show_error (GTK_WIDGET (self), heading, error->message);
}

static void
file_chosen (GtkWidget *widget,
             GFile     *file)
{
  QmQuoteDialog *self = QM_QUOTE_DIALOG (widget);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *with_ext = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    return;
  /* The chooser's name may lack the extension that picks the format. */
  if (!g_str_has_suffix (path, self->pending_ext))
    with_ext = g_strconcat (path, self->pending_ext, NULL);
  if (!qm_quote_dialog_export (self, self->pending, with_ext ? with_ext : path, &error))
    show_error (self, _("Could Not Export Quote"), error);
  else
    {
      g_autofree char *base = g_path_get_basename (with_ext ? with_ext : path);
      /* Translators: %s is a file name. */
      g_autofree char *text = g_strdup_printf (_("Exported “%s”"), base);

      g_autoptr(GFile) written = g_file_new_for_path (with_ext ? with_ext : path);

      adw_toast_overlay_add_toast (self->toasts, qm_gtk_export_toast_new (text, written));
    }
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  static const struct { const char *action, *ext, *mime, *filter, *title; } formats[] = {
    { "quote.export-pdf", ".pdf", "application/pdf", N_("PDF documents"), N_("Export Quote PDF") },
    { "quote.export-xlsx", ".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      N_("Excel workbooks"), N_("Export Quote Workbook") },
    { "quote.export-csv", ".csv", "text/csv", N_("CSV files"), N_("Export Quote CSV") },
  };
  QmQuoteDialog *self = QM_QUOTE_DIALOG (widget);
  const char *letter = g_variant_get_string (param, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_str_equal (action_name, formats[i].action))
      {
        g_autoptr(GtkFileFilter) filter = qm_list_page_file_filter_new (_(formats[i].filter), formats[i].mime,
                                                                        formats[i].ext + 1);
        g_autofree char *name = g_strdup_printf ("%s-%s%s", self->number, letter, formats[i].ext);

        g_free (self->pending);
        self->pending = g_strdup (letter);
        self->pending_ext = formats[i].ext;
        qm_list_page_choose_file (widget, _(formats[i].title), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                  filter, name, file_chosen);
      }
}

static void
print_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  QmQuoteDialog *self = QM_QUOTE_DIALOG (widget);
  g_autoptr(GError) error = NULL;

  if (!qm_quote_dialog_print (self, g_variant_get_string (param, NULL), NULL, &error))
    show_error (self, _("Could Not Print Quote"), error);
}

static void
open_plan_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  QmQuoteDialog *self = QM_QUOTE_DIALOG (widget);

  if (self->summary->plan_id > 0)
    g_signal_emit (self, signals[OPEN_PLAN], 0, self->summary->plan_id);
}

static void
state_selected (QmQuoteDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->state_row);
  g_autoptr(GError) error = NULL;

  if (selected >= G_N_ELEMENTS (state_labels) || selected == (guint) self->summary->state)
    return;
  if (!qm_quote_dialog_set_state (self, (QmQuoteState) selected, &error))
    {
      /* The row goes back to what the store holds. */
      adw_combo_row_set_selected (self->state_row, self->summary->state);
      show_error (self, _("Could Not Change the State"), error);
    }
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

static GtkWidget *
info_row (const char *title,
          const char *value)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), value != NULL && *value ? value : "—");
  gtk_widget_add_css_class (row, "property");
  return row;
}

static GtkWidget *
quote_group (QmQuoteDialog *self)
{
  const QmQuoteSummary *s = self->summary;
  GtkWidget *group = adw_preferences_group_new ();
  g_autoptr(GtkStringList) states = gtk_string_list_new (NULL);
  QmQuoteHeader header = { .issued = s->issued, .valid_days = s->valid_days };
  GDate until = qm_quote_valid_until (&header), today;
  GtkWidget *valid;
  char date[11];

  qm_quote_today (&today);
  qm_quote_date_format (&until, date);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), info_row (_("Customer"), s->customer));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), info_row (_("Project"), s->project));
  valid = info_row (_("Valid Until"), date);
  gtk_widget_set_name (valid, "quote-valid-until");
  if (qm_quote_expired (&header, &today))
    {
      GtkWidget *flag = gtk_label_new (_("Expired"));

      gtk_widget_set_name (flag, "quote-expired");
      gtk_widget_add_css_class (flag, "error");
      gtk_widget_add_css_class (flag, "heading");
      adw_action_row_add_suffix (ADW_ACTION_ROW (valid), flag);
    }
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), valid);

  for (guint i = 0; i < G_N_ELEMENTS (state_labels); i++)
    gtk_string_list_append (states, _(state_labels[i]));
  self->state_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->state_row), _("State"));
  adw_combo_row_set_model (self->state_row, G_LIST_MODEL (states));
  adw_combo_row_set_selected (self->state_row, s->state);
  gtk_widget_set_name (GTK_WIDGET (self->state_row), "quote-state");
  g_signal_connect_swapped (self->state_row, "notify::selected", G_CALLBACK (state_selected), self);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->state_row));
  return group;
}

static GtkWidget *
revision_menu (const QmQuoteRevision *r)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *button = gtk_menu_button_new ();
  /* Translators: the accessible name of a revision's menu; %s is its letter. */
  g_autofree char *a11y = g_strdup_printf (_("Export or print revision %s"), r->revision);
  g_autofree char *name = g_strdup_printf ("quote-revision-menu-%s", r->revision);

  static const struct { const char *label, *action; } items[] = {
    { N_("Export _PDF…"), "quote.export-pdf" },
    { N_("Export _Workbook…"), "quote.export-xlsx" },
    { N_("Export _CSV…"), "quote.export-csv" },
    { N_("P_rint…"), "quote.print" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(items[i].label), NULL);

      g_menu_item_set_action_and_target (item, items[i].action, "s", r->revision);
      g_menu_append_item (menu, item);
    }
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "document-send-symbolic");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, a11y);
  gtk_widget_set_name (button, name);
  qm_a11y_label (button, a11y);
  return button;
}

/* "Changes since revision A", one change a line, under revision B. */
static GtkWidget *
changes_row (const QmQuoteRevision *previous,
             const QmQuoteRevision *r)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *changes = qm_quote_diff_describe (previous->quote, r->quote);
  g_autofree char *escaped = g_markup_escape_text (changes, -1);
  /* Translators: %s is the letter of the revision before this one. */
  g_autofree char *title = g_strdup_printf (_("Changes since revision %s"), previous->revision);
  g_autofree char *name = g_strdup_printf ("quote-revision-changes-%s", r->revision);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
  gtk_widget_set_name (row, name);
  return row;
}

static GtkWidget *
revisions_group (QmQuoteDialog *self)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Revisions"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("Each revision prints as it was issued, from the prices it froze"));
  /* The newest first: the one a buyer asks about. */
  for (guint i = self->revisions->len; i-- > 0;)
    {
      const QmQuoteRevision *r = g_ptr_array_index (self->revisions, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *gross = gtk_label_new (NULL);
      g_autofree char *title = NULL, *escaped = NULL;
      g_autofree char *name = g_strdup_printf ("quote-revision-%s", r->revision);
      char date[11], money[64];

      qm_quote_date_format (&r->issued, date);
      /* Translators: a revision's letter, then its issue date. */
      title = g_strdup_printf (_("Revision %s · %s"), r->revision, date);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      /* The subtitle is markup; a note may say "R&D". */
      escaped = g_markup_escape_text (r->note != NULL && *r->note ? r->note : _("First issue"), -1);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
      gtk_widget_set_name (row, name);
      gtk_label_set_label (GTK_LABEL (gross), qm_money_format (money, sizeof money, r->quote->gross,
                                                               r->quote->exponent, r->quote->currency));
      gtk_widget_add_css_class (gross, "numeric");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gross);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), revision_menu (r));
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
      /* The note says why; the frozen figures say what changed. */
      if (i > 0)
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                                   changes_row (g_ptr_array_index (self->revisions, i - 1), r));
    }
  return group;
}

static gboolean
load (QmQuoteDialog *self,
      GError       **error)
{
  g_autoptr(GPtrArray) all = qm_quote_store_list (self->store, NULL, NULL, error);
  g_autoptr(GPtrArray) letters = NULL;

  if (all == NULL)
    return FALSE;
  for (guint i = 0; i < all->len && self->summary == NULL; i++)
    if (g_str_equal (((QmQuoteSummary *) g_ptr_array_index (all, i))->number, self->number))
      self->summary = g_ptr_array_steal_index (all, i);
  if (self->summary == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND, _("There is no quote %s"), self->number);
      return FALSE;
    }
  if ((letters = qm_quote_store_list_revisions (self->store, self->number, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < letters->len; i++)
    {
      QmQuoteRevision *r = qm_quote_store_load_revision (self->store, self->number,
                                                         g_ptr_array_index (letters, i), error);
      if (r == NULL)
        return FALSE;
      g_ptr_array_add (self->revisions, r);
    }
  return TRUE;
}

static void
build (QmQuoteDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *open = gtk_button_new_with_mnemonic (_("_Open Plan"));
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *title = adw_window_title_new (self->number, self->summary->customer);

  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "quote.open-plan");
  gtk_widget_set_tooltip_text (open, self->summary->plan_id > 0 ? self->summary->plan_name
                                                                 : _("The plan was deleted"));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), open);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "quote.open-plan", self->summary->plan_id > 0);

  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (quote_group (self)));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (revisions_group (self)));
  gtk_widget_set_vexpand (page, TRUE);
  self->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toasts, page);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->toasts));
  adw_window_set_content (ADW_WINDOW (self), box);
  /* Translators: the title of a quote's window; %s is its number. */
  {
    g_autofree char *text = g_strdup_printf (_("Quote %s"), self->number);

    gtk_window_set_title (GTK_WINDOW (self), text);
  }
}

GtkWidget *
qm_quote_dialog_new (GtkWindow   *parent,
                     QmStore     *store,
                     const char  *number,
                     GError     **error)
{
  QmQuoteDialog *self;

  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (number != NULL, NULL);

  /* GTK holds a new window (its list of toplevels) until it is destroyed. */
  self = g_object_new (QM_TYPE_QUOTE_DIALOG, "modal", parent != NULL, "transient-for", parent,
                       "default-width", 560, "default-height", 560, NULL);
  self->store = qm_store_ref (store);
  self->number = g_strdup (number);
  if (!load (self, error))
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return NULL;
    }
  build (self);
  return GTK_WIDGET (self);
}

static void
qm_quote_dialog_finalize (GObject *object)
{
  QmQuoteDialog *self = QM_QUOTE_DIALOG (object);

  g_free (self->number);
  g_free (self->pending);
  g_clear_pointer (&self->summary, qm_quote_summary_free);
  g_clear_pointer (&self->revisions, g_ptr_array_unref);
  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_quote_dialog_parent_class)->finalize (object);
}

static void
qm_quote_dialog_class_init (QmQuoteDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = qm_quote_dialog_finalize;

  signals[OPEN_PLAN] = g_signal_new ("open-plan", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  signals[STATE_CHANGED] = g_signal_new ("state-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "quote.open-plan", NULL, open_plan_action);
  gtk_widget_class_install_action (widget_class, "quote.export-pdf", "s", export_action);
  gtk_widget_class_install_action (widget_class, "quote.export-xlsx", "s", export_action);
  gtk_widget_class_install_action (widget_class, "quote.export-csv", "s", export_action);
  gtk_widget_class_install_action (widget_class, "quote.print", "s", print_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
qm_quote_dialog_init (QmQuoteDialog *self)
{
  self->revisions = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_quote_revision_free);
}
