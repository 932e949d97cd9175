/* test-quotes-page.c: the Quotes page (issue #22 item 6) under a real
 * display, over a real store whose quotes are saved through the quote
 * store: the customer, state and issue-date filters change the rows; a
 * quote past its validity carries the Expired flag; a quote's window
 * lists its revisions with what changed, changes the state and opens the
 * plan; and a revision exported from it is the PDF the CLI prints for
 * that revision, word for word. In the window, a quote opens its plan,
 * and a plan whose stored quote expired says so in its Quote section.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "qm-catalog-store.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-quote-dialog.h"
#include "qm-quote-store.h"
#include "qm-quotes-page.h"
#include "qm-test-cli.h"
#include "qm-test-fixture.h"
#include "qm-test-pdf.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-window.h"

static void
iterate (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static void
today (GDate *out)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  g_date_clear (out, 1);
  g_date_set_dmy (out, g_date_time_get_day_of_month (now), g_date_time_get_month (now),
                  g_date_time_get_year (now));
}

/* A saved plan for @customer, and its quote's revision issued on @issued. */
static char *
save_quote (QmStore     *store,
            const char  *plan_name,
            const char  *customer,
            const GDate *issued,
            gint64      *plan_id)
{
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (plan_name, customer, 1e6);
  g_autoptr(QmQuoteRevision) rev = NULL;
  g_autoptr(GError) error = NULL;
  QmQuoteRequest req = { 0 };

  g_clear_pointer (&plan->quote_ref, g_free);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  req.plan_id = plan->id;
  req.issued = *issued;
  rev = qm_quote_store_save_revision (store, &req, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (rev->revision, ==, "A");
  if (plan_id != NULL)
    *plan_id = plan->id;
  return g_strdup (rev->number);
}

static void
set_search (GtkWidget  *page,
            const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (qm_test_find_named (page, "quotes-search")), text);
  /* The search entry reports its text after a short delay. */
  iterate (400);
}

static void
set_drop (GtkWidget  *page,
          const char *name,
          guint       selected)
{
  gtk_drop_down_set_selected (GTK_DROP_DOWN (qm_test_find_named (page, name)), selected);
  iterate (50);
}

static guint
n_shown (GtkWidget *page)
{
  return qm_quotes_page_n_shown (QM_QUOTES_PAGE (page));
}

static gboolean
shows_quote (GtkWidget  *page,
             const char *number)
{
  for (guint i = 0; i < n_shown (page); i++)
    {
      g_autofree char *text = qm_quotes_page_dup_shown (QM_QUOTES_PAGE (page), i);

      if (g_str_has_prefix (text, number))
        return TRUE;
    }
  return FALSE;
}

static guint
position_of (GtkWidget  *page,
             const char *number)
{
  for (guint i = 0; i < n_shown (page); i++)
    {
      g_autofree char *text = qm_quotes_page_dup_shown (QM_QUOTES_PAGE (page), i);

      if (g_str_has_prefix (text, number))
        return i;
    }
  g_assert_not_reached ();
}

typedef struct
{
  Fixture  f;
  char    *recent;   /* issued today, Acme */
  char    *old;      /* issued 2025-01-01, Globex: expired */
  gint64   recent_plan;
} Quotes;

static void
quotes_set_up (Quotes        *q,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GDate now, old;

  fixture_set_up (&q->f, data);
  today (&now);
  g_date_clear (&old, 1);
  g_date_set_dmy (&old, 1, G_DATE_JANUARY, 2025);
  q->old = save_quote (q->f.store, "Globex training", "Globex Corporation", &old, NULL);
  g_assert_true (qm_quote_store_set_state (q->f.store, q->old, QM_QUOTE_STATE_SENT, &error));
  g_assert_no_error (error);
  q->recent = save_quote (q->f.store, "Acme inference", "Acme Research AG", &now, &q->recent_plan);
}

static void
quotes_tear_down (Quotes        *q,
                  gconstpointer  data)
{
  g_free (q->recent);
  g_free (q->old);
  fixture_tear_down (&q->f, data);
}

static void
test_filters (Quotes        *q,
              gconstpointer  data)
{
  GtkWidget *page = qm_quotes_page_new (q->f.store);
  GtkWindow *window = show_view (page, 1100, 600);
  g_autofree char *first = NULL;

  iterate (100);
  /* Newest first. */
  g_assert_cmpuint (n_shown (page), ==, 2);
  first = qm_quotes_page_dup_shown (QM_QUOTES_PAGE (page), 0);
  g_assert_true (g_str_has_prefix (first, q->recent));
  g_assert_nonnull (strstr (first, " rev. A"));
  /* The old quote is flagged where its state is shown. */
  g_assert_nonnull (qm_test_wait_for_label (page, "Expired · Sent"));
  g_assert_nonnull (qm_test_find_label (page, "Draft"));
  qm_test_screenshot (GTK_WIDGET (window), "quotes-page-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (window), "quotes-page-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* Customer: any part of the name, in any case. */
  set_search (page, "GLOBEX");
  g_assert_cmpuint (n_shown (page), ==, 1);
  g_assert_true (shows_quote (page, q->old));
  set_search (page, "nobody");
  g_assert_cmpuint (n_shown (page), ==, 0);
  g_assert_nonnull (qm_test_find_label (page, "No Matching Quotes"));
  set_search (page, "");
  g_assert_cmpuint (n_shown (page), ==, 2);

  /* State: the stored states, and expired. */
  set_drop (page, "quotes-state", QM_QUOTES_STATE_SENT);
  g_assert_cmpuint (n_shown (page), ==, 1);
  g_assert_true (shows_quote (page, q->old));
  set_drop (page, "quotes-state", QM_QUOTES_STATE_DRAFT);
  g_assert_cmpuint (n_shown (page), ==, 1);
  g_assert_true (shows_quote (page, q->recent));
  set_drop (page, "quotes-state", QM_QUOTES_STATE_EXPIRED);
  g_assert_cmpuint (n_shown (page), ==, 1);
  g_assert_true (shows_quote (page, q->old));
  set_drop (page, "quotes-state", QM_QUOTES_STATE_ACCEPTED);
  g_assert_cmpuint (n_shown (page), ==, 0);
  set_drop (page, "quotes-state", QM_QUOTES_STATE_ANY);

  /* Issue date: this month, quarter and year hold only today's. */
  for (guint period = QM_QUOTES_PERIOD_MONTH; period <= QM_QUOTES_PERIOD_YEAR; period++)
    {
      set_drop (page, "quotes-period", period);
      g_assert_cmpuint (n_shown (page), ==, 1);
      g_assert_true (shows_quote (page, q->recent));
    }
  set_drop (page, "quotes-period", QM_QUOTES_PERIOD_ALL);
  g_assert_cmpuint (n_shown (page), ==, 2);

  /* Filters combine. */
  set_search (page, "acme");
  set_drop (page, "quotes-state", QM_QUOTES_STATE_EXPIRED);
  g_assert_cmpuint (n_shown (page), ==, 0);
  close_window (window);

  /* Narrow, the filters stay usable and the columns scroll. */
  page = qm_quotes_page_new (q->f.store);
  window = show_view (page, 400, 500);
  iterate (200);
  g_assert_cmpint (gtk_widget_get_width (qm_test_find_named (page, "quotes-state")), >, 0);
  g_assert_cmpint (gtk_widget_get_width (qm_test_find_named (page, "quotes-search")), >, 100);
  qm_test_screenshot (GTK_WIDGET (window), "quotes-page-narrow-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  close_window (window);
}

static void
test_empty (Quotes        *q,
            gconstpointer  data)
{
  GtkWidget *page = qm_quotes_page_new (NULL);
  GtkWindow *window = show_view (page, 800, 500);

  g_assert_cmpuint (n_shown (page), ==, 0);
  g_assert_nonnull (qm_test_wait_for_label (page, "No Database"));
  close_window (window);
}

static void
open_plan_cb (GtkWidget *page,
              gint64     id,
              gint64    *out)
{
  *out = id;
}

/* The revisions with what changed, the state, the plan, and a revision
 * exported as the CLI prints it. */
static void
test_revisions_and_export (Quotes        *q,
                           gconstpointer  data)
{
  const char *build = g_getenv ("QM_BUILD_DIR");
  g_autofree char *db = g_build_filename (q->f.dir, "test.db", NULL);
  g_autofree char *ours = g_build_filename (build, "quotes-page-rev-a.pdf", NULL);
  g_autofree char *cli = g_build_filename (build, "quotes-page-rev-a-cli.pdf", NULL);
  g_autofree char *csv = g_build_filename (build, "quotes-page-rev-b.csv", NULL);
  g_autofree char *xlsx = g_build_filename (build, "quotes-page-rev-b.xlsx", NULL);
  g_autofree char *printed = g_build_filename (build, "quotes-page-rev-b-print.pdf", NULL);
  g_autofree char *text_ours = NULL, *text_cli = NULL, *bytes = NULL;
  g_autoptr(QmQuoteRevision) b = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Run) show = { 0 };
  QmQuoteRequest req = { 0 };
  GtkWidget *page, *dialog, *row, *state;
  GtkWindow *window;
  gint64 opened = 0;
  gsize len = 0;

  /* Revision B says what changed, on today's dearer servers. */
  g_assert_true (qm_catalog_store_set_price_override (q->f.store, QM_CATALOG_KIND_SERVER, "dgx-h100", 600000,
                                                      &error));
  g_assert_no_error (error);
  req.plan_id = q->recent_plan;
  today (&req.issued);
  req.note = "Support extended to five years";
  b = qm_quote_store_save_revision (q->f.store, &req, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (b->revision, ==, "B");

  page = qm_quotes_page_new (q->f.store);
  g_signal_connect (page, "open-plan", G_CALLBACK (open_plan_cb), &opened);
  window = show_view (page, 1100, 600);
  iterate (100);
  g_assert_true (shows_quote (page, q->recent));
  dialog = qm_quotes_page_open_quote (QM_QUOTES_PAGE (page), position_of (page, q->recent));
  g_assert_true (QM_IS_QUOTE_DIALOG (dialog));
  iterate (100);
  row = qm_test_find_named (dialog, "quote-revision-B");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "Support extended to five years");
  g_assert_nonnull (qm_test_find_named (dialog, "quote-revision-A"));
  /* Under B, what its frozen figures changed since A: the server's price
   * went up between the two. */
  row = qm_test_find_named (dialog, "quote-revision-changes-B");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "Servers (dgx-h100): unit price "));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "Gross "));
  g_assert_null (qm_test_find_named (dialog, "quote-revision-changes-A"));
  g_assert_null (qm_test_find_named (dialog, "quote-expired"));
  qm_test_screenshot (dialog, "quote-dialog-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (dialog, "quote-dialog-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* Revision A as the CLI prints it from the same frozen data. */
  g_assert_true (qm_quote_dialog_export (QM_QUOTE_DIALOG (dialog), "A", ours, &error));
  g_assert_no_error (error);
  run_cli (&show, "--db", db, "quote", "show", q->recent, "--revision", "A", "-o", cli, NULL);
  g_assert_cmpstr (show.err, ==, "");
  g_assert_cmpint (show.status, ==, 0);
  text_ours = qm_test_pdf_text (ours, NULL);
  text_cli = qm_test_pdf_text (cli, NULL);
  g_assert_nonnull (strstr (text_ours, q->recent));
  g_assert_cmpstr (text_ours, ==, text_cli);
  /* ... at the prices it froze (servers at list), not today's. */
  {
    g_autoptr(QmQuoteRevision) a = qm_quote_store_load_revision (q->f.store, q->recent, "A", &error);

    g_assert_no_error (error);
    g_assert_cmpint (a->quote->gross, <, b->quote->gross);
    g_assert_nonnull (strstr (text_ours, "400,000.00"));
    g_assert_null (strstr (text_ours, "600,000.00"));
  }

  /* Revision B as CSV and workbook, and printed. */
  g_assert_true (qm_quote_dialog_export (QM_QUOTE_DIALOG (dialog), "B", csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &bytes, &len, NULL));
  g_assert_nonnull (strstr (bytes, q->recent));
  g_clear_pointer (&bytes, g_free);
  g_assert_true (qm_quote_dialog_export (QM_QUOTE_DIALOG (dialog), "B", xlsx, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (xlsx, &bytes, &len, NULL));
  g_assert_true (len > 1000 && memcmp (bytes, "PK", 2) == 0);
  g_clear_pointer (&bytes, g_free);
  g_assert_true (qm_quote_dialog_print (QM_QUOTE_DIALOG (dialog), "B", printed, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (printed, &bytes, &len, NULL));
  g_assert_true (len > 1000 && memcmp (bytes, "%PDF", 4) == 0);
  /* A name the page cannot write is refused in words. */
  g_assert_false (qm_quote_dialog_export (QM_QUOTE_DIALOG (dialog), "B", "quote.txt", &error));
  g_assert_nonnull (strstr (error->message, "quote.txt"));
  g_clear_error (&error);
  g_assert_false (qm_quote_dialog_export (QM_QUOTE_DIALOG (dialog), "C", csv, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* The state, from its row: the store and the list follow. */
  state = qm_test_find_named (dialog, "quote-state");
  adw_combo_row_set_selected (ADW_COMBO_ROW (state), QM_QUOTE_STATE_ACCEPTED);
  iterate (50);
  set_drop (page, "quotes-state", QM_QUOTES_STATE_ACCEPTED);
  g_assert_cmpuint (n_shown (page), ==, 1);
  g_assert_true (shows_quote (page, q->recent));

  /* Open Plan: the quote's plan. */
  g_assert_true (gtk_widget_activate_action (dialog, "quote.open-plan", NULL));
  g_assert_cmpint (opened, ==, q->recent_plan);
  close_window (window);
}

/* The expired quote's window says so beside its validity. */
static void
test_expired_dialog (Quotes        *q,
                     gconstpointer  data)
{
  GtkWidget *page = qm_quotes_page_new (q->f.store);
  GtkWindow *window = show_view (page, 1100, 600);
  GtkWidget *dialog;
  GObject *weak;

  iterate (100);
  dialog = qm_quotes_page_open_quote (QM_QUOTES_PAGE (page), position_of (page, q->old));
  g_assert_nonnull (dialog);
  g_assert_nonnull (qm_test_find_named (dialog, "quote-expired"));
  qm_test_screenshot (dialog, "quote-dialog-expired-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  /* Closed, it is freed with its revisions. */
  weak = G_OBJECT (dialog);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_window_close (GTK_WINDOW (dialog));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  close_window (window);
}

/* In the main window: the Quotes page beside the others, and a quote's
 * Open Plan opens its plan over it. */
static void
test_in_window (Quotes        *q,
                gconstpointer  data)
{
  QmWindow *window = qm_window_new_with_store (NULL, q->f.store);
  GtkWidget *page, *dialog;
  GObject *weak = G_OBJECT (window);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  qm_window_set_page (window, "quotes");
  g_assert_cmpstr (qm_window_get_page (window), ==, "quotes");
  iterate (100);
  page = qm_test_find_type (GTK_WIDGET (window), QM_TYPE_QUOTES_PAGE);
  g_assert_nonnull (page);
  g_assert_cmpuint (n_shown (page), ==, 2);
  qm_test_screenshot (GTK_WIDGET (window), "quotes-window-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (window), "quotes-window-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  dialog = qm_quotes_page_open_quote (QM_QUOTES_PAGE (page), position_of (page, q->recent));
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_activate_action (dialog, "quote.open-plan", NULL));
  g_assert_true (QM_IS_PLAN_VIEW (qm_window_get_detail (window)));
  g_assert_cmpint (qm_plan_editor_get_saved_id (qm_plan_view_get_editor (QM_PLAN_VIEW (qm_window_get_detail (window)))),
                   ==, q->recent_plan);

  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_window_destroy (GTK_WINDOW (window));
  qm_test_wait_until_null (&weak);
}

/* A plan whose stored quote is past its validity says so in its Quote
 * section. */
static void
test_plan_view_expired (Quotes        *q,
                        gconstpointer  data)
{
  g_autoptr(QmSavedPlan) saved = NULL;
  g_autoptr(QmPlanEditor) editor = NULL;
  g_autoptr(GError) error = NULL;
  QmPlan plan;
  GtkWidget *view, *state;
  GtkWindow *window;
  gint64 id;

  saved = qm_plan_store_load (q->f.store, qm_plan_store_find (q->f.store, "Globex training", &error), &error);
  g_assert_no_error (error);
  id = saved->id;
  g_assert_true (qm_plan_store_read_plan (q->f.store, saved->inputs, &plan, NULL, &error));
  g_assert_no_error (error);
  plan.has_quote = TRUE;
  editor = qm_plan_editor_new (&plan);
  qm_plan_editor_mark_saved (editor, id);
  view = qm_plan_view_new (q->f.store, editor);
  window = show_view (view, 1200, 900);
  iterate (100);
  state = qm_test_find_named (view, "quote-state");
  g_assert_true (GTK_IS_LABEL (state));
  g_assert_true (g_str_has_prefix (gtk_label_get_label (GTK_LABEL (state)), "Expired · Sent · "));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (state)), q->old));
  g_assert_true (gtk_widget_has_css_class (state, "error"));
  close_window (window);
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "appmenu:close", NULL);

#define ADD(path, fn) g_test_add (path, Quotes, NULL, quotes_set_up, fn, quotes_tear_down)
  ADD ("/quotes-page/filters", test_filters);
  ADD ("/quotes-page/empty", test_empty);
  ADD ("/quotes-page/revisions-and-export", test_revisions_and_export);
  ADD ("/quotes-page/expired-dialog", test_expired_dialog);
  ADD ("/quotes-page/in-window", test_in_window);
  ADD ("/quotes-page/plan-view-expired", test_plan_view_expired);
#undef ADD
  return g_test_run ();
}
