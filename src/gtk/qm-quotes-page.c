/* qm-quotes-page.c: the Quotes page (qm-quotes-page.h).
 *
 * The store lists every quote with its latest revision; the page keeps
 * them all and filters in memory, as the plans page does: a store holds
 * some hundreds of quotes, and "expired" depends on today, not on a
 * column. The search, the cells and the empty states are the list pages'
 * (qm-list-page.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-list-page.h"
#include "qm-quote-dialog.h"
#include "qm-quote-store.h"
#include "qm-quotes-page.h"
#include "qm-row-slots.h"

/* ------------------------------------------------------------------ */
/* One row: a quote's summary, with what the filters look at.          */

#define QM_TYPE_QUOTE_ITEM (qm_quote_item_get_type ())
G_DECLARE_FINAL_TYPE (QmQuoteItem, qm_quote_item, QM, QUOTE_ITEM, GObject)

struct _QmQuoteItem
{
  GObject         parent_instance;
  QmQuoteSummary *summary;
  char           *customer_key;  /* casefolded */
  GDate           valid_until;
  gboolean        expired;
};

G_DEFINE_FINAL_TYPE (QmQuoteItem, qm_quote_item, G_TYPE_OBJECT)

static void
qm_quote_item_finalize (GObject *object)
{
  QmQuoteItem *self = QM_QUOTE_ITEM (object);

  g_clear_pointer (&self->summary, qm_quote_summary_free);
  g_free (self->customer_key);
  G_OBJECT_CLASS (qm_quote_item_parent_class)->finalize (object);
}

static void
qm_quote_item_class_init (QmQuoteItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qm_quote_item_finalize;
}

static void
qm_quote_item_init (QmQuoteItem *self)
{
}

/* Takes @summary. */
static QmQuoteItem *
qm_quote_item_new (QmQuoteSummary *summary,
                   const GDate    *today)
{
  QmQuoteItem *self = g_object_new (QM_TYPE_QUOTE_ITEM, NULL);
  QmQuoteHeader header = { .issued = summary->issued, .valid_days = summary->valid_days };

  self->summary = summary;
  self->customer_key = g_utf8_casefold (summary->customer != NULL ? summary->customer : "", -1);
  self->valid_until = qm_quote_valid_until (&header);
  self->expired = qm_quote_expired (&header, today);
  return self;
}

/* ------------------------------------------------------------------ */
/* The page                                                            */

typedef enum
{
  COLUMN_NUMBER,
  COLUMN_CUSTOMER,
  COLUMN_PROJECT,
  COLUMN_STATE,
  COLUMN_ISSUED,
  COLUMN_VALID,
  COLUMN_GROSS,
  N_COLUMNS
} Column;

static const char *const column_titles[N_COLUMNS] = {
  N_("Quote"), N_("Customer"), N_("Project"), N_("State"), N_("Issued"), N_("Valid Until"), N_("Gross"),
};

/* Characters each column needs: "Q-2026-0042 rev. B", "Expired · Accepted",
 * a date, "EUR 12,345,678.90". */
static const int column_chars[N_COLUMNS] = { 18, 16, 16, 16, 10, 10, 18 };

static const char *const state_names[] = {
  N_("Draft"), N_("Sent"), N_("Accepted"), N_("Declined"),
};

struct _QmQuotesPage
{
  AdwBin              parent_instance;

  QmStore            *store;     /* a reference, or NULL */
  GListStore         *quotes;    /* QmQuoteItem, newest first */
  QmListPageState     list;      /* its search casefolded */
  GtkColumnView      *column_view;
  GtkSearchEntry     *search_entry;
  GtkDropDown        *state_drop;
  GtkDropDown        *period_drop;
  GtkStack           *list_stack;
  GDate               today;
};

G_DEFINE_FINAL_TYPE (QmQuotesPage, qm_quotes_page, ADW_TYPE_BIN)

enum { OPEN_PLAN, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The first day of the period that holds @today. */
static gboolean
period_start (QmQuotesPeriod  period,
              const GDate    *today,
              GDate          *out)
{
  GDateMonth month = g_date_get_month (today);

  if (period == QM_QUOTES_PERIOD_ALL)
    return FALSE;
  if (period == QM_QUOTES_PERIOD_QUARTER)
    month = (GDateMonth) ((month - 1) / 3 * 3 + 1);
  else if (period == QM_QUOTES_PERIOD_YEAR)
    month = G_DATE_JANUARY;
  g_date_clear (out, 1);
  g_date_set_dmy (out, 1, month, g_date_get_year (today));
  return TRUE;
}

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  QmQuotesPage *self = user_data;
  QmQuoteItem *q = item;
  guint state = gtk_drop_down_get_selected (self->state_drop);
  GDate from;

  if (self->list.search != NULL && strstr (q->customer_key, self->list.search) == NULL)
    return FALSE;
  if (state == QM_QUOTES_STATE_EXPIRED && !q->expired)
    return FALSE;
  if (state >= QM_QUOTES_STATE_DRAFT && state <= QM_QUOTES_STATE_DECLINED &&
      (guint) q->summary->state != state - QM_QUOTES_STATE_DRAFT)
    return FALSE;
  if (period_start (gtk_drop_down_get_selected (self->period_drop), &self->today, &from) &&
      (g_date_compare (&q->summary->issued, &from) < 0 || g_date_compare (&q->summary->issued, &self->today) > 0))
    return FALSE;
  return TRUE;
}

static void
update_state (QmQuotesPage *self)
{
  guint n = qm_list_page_state_n_shown (&self->list);

  if (self->store == NULL)
    gtk_stack_set_visible_child_name (self->list_stack, "no-store");
  else if (g_list_model_get_n_items (G_LIST_MODEL (self->quotes)) == 0)
    gtk_stack_set_visible_child_name (self->list_stack, "empty");
  else
    qm_list_page_show_state (self->list_stack, n, "list", "no-matches");
}

static void
search_changed_cb (QmQuotesPage *self)
{
  g_autofree char *stripped = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))));
  g_autofree char *now = g_utf8_casefold (stripped, -1);

  if (qm_list_page_state_search (&self->list, now, QM_LIST_SEARCH_SUBSTRING, FALSE))
    update_state (self);
}

static void
filters_changed_cb (QmQuotesPage *self)
{
  gtk_filter_changed (GTK_FILTER (self->list.filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_state (self);
}

/* ------------------------------------------------------------------ */
/* Cells                                                               */

static char *
cell_text (Column       column,
           QmQuoteItem *q)
{
  const QmQuoteSummary *s = q->summary;
  char buf[64];

  switch (column)
    {
    case COLUMN_NUMBER:
      /* Translators: a quote number, then its revision letter. */
      return g_strdup_printf (_("%s rev. %s"), s->number, s->revision);
    case COLUMN_CUSTOMER:
      return g_strdup (s->customer);
    case COLUMN_PROJECT:
      return g_strdup (s->project);
    case COLUMN_STATE:
      if (q->expired)
        /* Translators: an expired quote's flag, then its state (Draft, Sent ...). */
        return g_strdup_printf (_("Expired · %s"), _(state_names[s->state]));
      return g_strdup (_(state_names[s->state]));
    case COLUMN_ISSUED:
      qm_quote_date_format (&s->issued, buf);
      return g_strdup (buf);
    case COLUMN_VALID:
      if (!g_date_valid (&q->valid_until))
        return NULL;
      qm_quote_date_format (&q->valid_until, buf);
      return g_strdup (buf);
    case COLUMN_GROSS:
      return g_strdup (qm_money_format (buf, sizeof buf, s->gross, s->exponent, s->currency));
    case N_COLUMNS:
    default:
      g_return_val_if_reached (NULL);
    }
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  int min_chars = column == COLUMN_CUSTOMER || column == COLUMN_PROJECT ? 8 : column_chars[column];

  gtk_list_item_set_child (list_item, qm_list_page_cell_new (column == COLUMN_GROSS, min_chars, column_chars[column]));
}

static void
fill_cell_cb (GtkListItem *list_item,
              gpointer     item,
              gpointer     user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = item != NULL ? cell_text (column, item) : NULL;
  gboolean flag = item != NULL && QM_QUOTE_ITEM (item)->expired &&
                  (column == COLUMN_STATE || column == COLUMN_VALID);

  gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
  /* An expired quote says so in red, where its state and date are. */
  if (flag)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_remove_css_class (label, "error");
}

/* ------------------------------------------------------------------ */
/* Opening a quote                                                     */

static QmQuoteItem *
get_item (QmQuotesPage *self,
          guint         position)
{
  return qm_list_page_state_get_item (&self->list, position);
}

static void
dialog_open_plan (QmQuotesPage *self,
                  gint64        id,
                  GtkWidget    *dialog)
{
  gtk_window_close (GTK_WINDOW (dialog));
  g_signal_emit (self, signals[OPEN_PLAN], 0, id);
}

GtkWidget *
qm_quotes_page_open_quote (QmQuotesPage *self,
                           guint         position)
{
  g_autoptr(QmQuoteItem) item = NULL;
  g_autoptr(GError) error = NULL;
  GtkRoot *root;
  GtkWidget *dialog;

  g_return_val_if_fail (QM_IS_QUOTES_PAGE (self), NULL);

  if ((item = get_item (self, position)) == NULL)
    return NULL;
  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = qm_quote_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, self->store,
                                item->summary->number, &error);
  if (dialog == NULL)
    {
      qm_list_page_show_error (GTK_WIDGET (self), _("Could Not Open Quote"), error->message);
      return NULL;
    }
  g_signal_connect_object (dialog, "open-plan", G_CALLBACK (dialog_open_plan), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "state-changed", G_CALLBACK (qm_quotes_page_reload), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
row_activated_cb (QmQuotesPage *self,
                  guint         position)
{
  qm_quotes_page_open_quote (self, position);
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

static GtkDropDown *
drop_down_new (const char *const *labels,
               guint              n,
               const char        *name,
               const char        *a11y)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  GtkDropDown *drop;

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (list, _(labels[i]));
  drop = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&list)), NULL));
  gtk_widget_set_name (GTK_WIDGET (drop), name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (drop), a11y);
  qm_a11y_label (GTK_WIDGET (drop), a11y);
  return drop;
}

static GtkWidget *
filter_bar (QmQuotesPage *self)
{
  static const char *const states[] = {
    N_("All States"), N_("Draft"), N_("Sent"), N_("Accepted"), N_("Declined"), N_("Expired"),
  };
  static const char *const periods[] = {
    N_("All Dates"), N_("This Month"), N_("This Quarter"), N_("This Year"),
  };
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->search_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->search_entry), "quotes-search");
  gtk_widget_set_hexpand (GTK_WIDGET (self->search_entry), TRUE);
  g_object_set (self->search_entry, "placeholder-text", _("Search customers"), NULL);
  qm_a11y_label (GTK_WIDGET (self->search_entry), _("Search quotes by customer"));
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);

  self->state_drop = drop_down_new (states, G_N_ELEMENTS (states), "quotes-state", _("Filter by state"));
  self->period_drop = drop_down_new (periods, G_N_ELEMENTS (periods), "quotes-period",
                                     _("Filter by issue date"));
  g_signal_connect_swapped (self->state_drop, "notify::selected", G_CALLBACK (filters_changed_cb), self);
  g_signal_connect_swapped (self->period_drop, "notify::selected", G_CALLBACK (filters_changed_cb), self);

  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->search_entry));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->state_drop));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->period_drop));
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  return bar;
}

static GtkWidget *
status_page (const char *icon,
             const char *title,
             const char *description)
{
  GtkWidget *page = adw_status_page_new ();

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (page), icon);
  adw_status_page_set_title (ADW_STATUS_PAGE (page), title);
  adw_status_page_set_description (ADW_STATUS_PAGE (page), description);
  return page;
}

static GtkWidget *
column_view_new (QmQuotesPage *self)
{
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkNoSelection *selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->list.slots)));

  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (selection)));
  gtk_widget_set_name (GTK_WIDGET (self->column_view), "quotes-list");
  gtk_column_view_set_single_click_activate (self->column_view, FALSE);
  gtk_column_view_set_show_row_separators (self->column_view, TRUE);
  qm_a11y_table (self->column_view, _("Saved quotes"));
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = qm_list_page_cell_factory_new (&self->list.slots, G_CALLBACK (setup_cell_cb),
                                                                   fill_cell_cb, GINT_TO_POINTER (c), NULL);
      g_autoptr(GtkColumnViewColumn) column = gtk_column_view_column_new (_(column_titles[c]), factory);

      gtk_column_view_column_set_expand (column, c == COLUMN_CUSTOMER || c == COLUMN_PROJECT);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
    }
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (row_activated_cb), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->column_view));
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->column_view));
  return scroll;
}

static void
qm_quotes_page_dispose (GObject *object)
{
  QmQuotesPage *self = QM_QUOTES_PAGE (object);

  adw_bin_set_child (ADW_BIN (self), NULL);
  qm_list_page_state_clear (&self->list);
  g_clear_object (&self->quotes);
  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_quotes_page_parent_class)->dispose (object);
}

static void
qm_quotes_page_class_init (QmQuotesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = qm_quotes_page_dispose;
  signals[OPEN_PLAN] = g_signal_new ("open-plan", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
}

static void
qm_quotes_page_init (QmQuotesPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *bar = filter_bar (self);

  qm_quote_today (&self->today);
  self->quotes = g_list_store_new (QM_TYPE_QUOTE_ITEM);
  qm_list_page_state_init (&self->list, G_LIST_MODEL (self->quotes), filter_cb, self, NULL);

  self->list_stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->list_stack), TRUE);
  gtk_stack_add_named (self->list_stack, column_view_new (self), "list");
  gtk_stack_add_named (self->list_stack,
                       status_page ("x-office-document-symbolic", _("No Quotes"),
                                    _("Save a quote from a plan’s Quote section to see it here")),
                       "empty");
  gtk_stack_add_named (self->list_stack,
                       status_page ("edit-find-symbolic", _("No Matching Quotes"),
                                    _("Try another customer, state or date")),
                       "no-matches");
  gtk_stack_add_named (self->list_stack,
                       status_page ("drive-multidisk-symbolic", _("No Database"),
                                    _("Quotes are kept in the plans database.")),
                       "no-store");
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list_stack));
  adw_bin_set_child (ADW_BIN (self), box);
}

GtkWidget *
qm_quotes_page_new (QmStore *store)
{
  QmQuotesPage *self = g_object_new (QM_TYPE_QUOTES_PAGE, NULL);

  self->store = store ? qm_store_ref (store) : NULL;
  qm_quotes_page_reload (self);
  return GTK_WIDGET (self);
}

void
qm_quotes_page_reload (QmQuotesPage *self)
{
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;

  g_return_if_fail (QM_IS_QUOTES_PAGE (self));

  qm_quote_today (&self->today);
  if (self->store != NULL && (list = qm_quote_store_list (self->store, NULL, NULL, &error)) == NULL)
    qm_list_page_show_error (GTK_WIDGET (self), _("Could Not Read Quotes"), error->message);
  /* The items take the summaries over. */
  if (list != NULL)
    g_ptr_array_set_free_func (list, NULL);
  for (guint i = 0; list != NULL && i < list->len; i++)
    g_ptr_array_add (items, qm_quote_item_new (g_ptr_array_index (list, i), &self->today));
  g_list_store_splice (self->quotes, 0, g_list_model_get_n_items (G_LIST_MODEL (self->quotes)),
                       items->pdata, items->len);
  update_state (self);
}

guint
qm_quotes_page_n_shown (QmQuotesPage *self)
{
  g_return_val_if_fail (QM_IS_QUOTES_PAGE (self), 0);

  return qm_list_page_state_n_shown (&self->list);
}

char *
qm_quotes_page_dup_shown (QmQuotesPage *self,
                          guint         position)
{
  g_autoptr(QmQuoteItem) item = NULL;

  g_return_val_if_fail (QM_IS_QUOTES_PAGE (self), NULL);

  item = get_item (self, position);
  return item != NULL ? cell_text (COLUMN_NUMBER, item) : NULL;
}

void
qm_quotes_page_focus_search (QmQuotesPage *self)
{
  g_return_if_fail (QM_IS_QUOTES_PAGE (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}
