/* test-connection-banner.c: the window's banner while the team server is
 * unreachable (issue #23, faults), on a private PostgreSQL cluster that
 * the test stops and starts: hidden while connected, shown once the
 * server goes away, Retry says why it failed while the server is down,
 * and the banner's periodic try saves the edit kept on this computer once
 * it is back; against a hung server, Retry waits in the background while
 * the window goes on. Screenshots: connection-banner-{light,dark}.png,
 * connection-banner-connecting.png.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>

#include "qm-connection-banner.h"
#include "qm-store-recovery.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-window.h"

static QmTestPg *cluster;

static void
on_report (QmConnectionBanner *banner,
           const char         *message,
           GPtrArray          *messages)
{
  g_ptr_array_add (messages, g_strdup (message));
}

/* A fresh database whose commits survive the kill (the cluster runs with
 * synchronous_commit = off for speed). */
static char *
new_database (void)
{
  char *uri = qm_test_pg_new_database (cluster);
  const char *name = uri + strlen ("postgresql:///");
  g_autofree char *db = g_strndup (name, strcspn (name, "?"));
  g_autofree char *sql = g_strdup_printf ("ALTER DATABASE %s SET synchronous_commit = on", db);

  qm_test_pg_exec (cluster, "postgres", sql);
  return uri;
}

static void
test_banner (void)
{
  g_autofree char *uri = new_database ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = qm_store_open_with_flags (uri, QM_STORE_OPEN_NO_BACKUP, &error);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(QmSavedPlan) loaded = NULL;
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) pending = NULL;
  QmWindow *window;
  GtkWidget *banner;
  GtkWidget *retry;

  g_assert_no_error (error);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  window = qm_window_new_with_store (NULL, store);
  qm_window_set_page (window, "plans");
  gtk_window_present (GTK_WINDOW (window));
  banner = qm_test_find_type (GTK_WIDGET (window), QM_TYPE_CONNECTION_BANNER);
  g_assert_nonnull (banner);
  g_signal_connect (banner, "report", G_CALLBACK (on_report), messages);
  g_assert_false (qm_connection_banner_is_shown (QM_CONNECTION_BANNER (banner)));

  /* The server goes away: the banner says so, without a query. */
  qm_test_pg_kill (cluster);
  qm_connection_banner_update (QM_CONNECTION_BANNER (banner));
  g_assert_true (qm_connection_banner_is_shown (QM_CONNECTION_BANNER (banner)));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (window),
                                            "Not connected to the team server. Changes are kept on this computer."));

  /* An edit saved meanwhile waits on this computer. */
  g_free (plan->customer);
  plan->customer = g_strdup ("Acme, edited offline");
  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_assert_nonnull (strstr (error->message, "kept on this computer"));
  g_clear_error (&error);
  qm_test_screenshot (GTK_WIDGET (window), "connection-banner-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (window), "connection-banner-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* Retry while still down: a quick no, the copy stays, the banner too. */
  retry = qm_test_find_button (banner, "_Retry");
  g_assert_nonnull (retry);
  g_signal_emit_by_name (retry, "clicked");
  /* The try runs in the background: the main loop goes on meanwhile. */
  while (qm_connection_banner_is_trying (QM_CONNECTION_BANNER (banner)))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (qm_connection_banner_is_shown (QM_CONNECTION_BANNER (banner)));
  g_assert_cmpuint (messages->len, ==, 1);
  g_assert_nonnull (strstr (messages->pdata[0], "could not be reached"));

  /* Back: the banner's own try (every QM_CONNECTION_BANNER_RETRY_SECONDS)
   * saves the edit, says so, and the banner goes. */
  qm_test_pg_resume (cluster);
  {
    gint64 end = g_get_monotonic_time () + (QM_CONNECTION_BANNER_RETRY_SECONDS + 5) * G_USEC_PER_SEC;

    while (qm_connection_banner_is_shown (QM_CONNECTION_BANNER (banner)) && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, TRUE);
  }
  g_assert_false (qm_connection_banner_is_shown (QM_CONNECTION_BANNER (banner)));
  g_assert_cmpuint (messages->len, ==, 2);
  g_assert_nonnull (strstr (messages->pdata[1], "now saved on the server"));
  pending = qm_store_recovery_pending (store);
  g_assert_cmpuint (pending->len, ==, 0);
  loaded = qm_plan_store_load (store, plan->id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->customer, ==, "Acme, edited offline");

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GtkWidget *banner;
  GtkWidget *retry;
  guint      ticks;      /* turns of the main loop while the try was under way */
  gboolean   sensitive;  /* Retry could be pressed again meanwhile */
  gint64     last_tick;
  gint64     longest_gap;
} Watching;

static gboolean
watch_try (gpointer data)
{
  Watching *w = data;
  gint64 now = g_get_monotonic_time ();

  if (qm_connection_banner_is_trying (QM_CONNECTION_BANNER (w->banner)))
    {
      w->ticks++;
      w->sensitive |= gtk_widget_get_sensitive (w->retry);
    }
  w->longest_gap = MAX (w->longest_gap, now - w->last_tick);
  w->last_tick = now;
  return G_SOURCE_CONTINUE;
}

/* Retry against a server that takes the connection and never answers:
 * the window goes on (the main loop turns) while the try waits, the
 * button cannot be pressed again and the banner says a try is under way;
 * then the failure is reported as before. A window closed while a try
 * waits leaves nothing behind for the try's end to touch. */
static void
test_hung_server (void)
{
  g_autofree char *uri = new_database ();
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  QmWindow *window = qm_window_new_with_store (NULL, store);
  Watching w = { 0 };
  gint64 start;
  guint id;

  gtk_window_present (GTK_WINDOW (window));
  w.banner = qm_test_find_type (GTK_WIDGET (window), QM_TYPE_CONNECTION_BANNER);
  w.retry = qm_test_find_button (w.banner, "_Retry");
  g_signal_connect (w.banner, "report", G_CALLBACK (on_report), messages);

  qm_test_pg_hang (cluster);
  qm_connection_banner_update (QM_CONNECTION_BANNER (w.banner));
  g_assert_true (qm_connection_banner_is_shown (QM_CONNECTION_BANNER (w.banner)));

  start = g_get_monotonic_time ();
  g_signal_emit_by_name (w.retry, "clicked");
  g_test_message ("the Retry click returned after %.2f ms", (g_get_monotonic_time () - start) / 1000.0);
  g_assert_true (qm_connection_banner_is_trying (QM_CONNECTION_BANNER (w.banner)));
  g_assert_false (gtk_widget_get_sensitive (w.retry));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (window), "Connecting to the team server…"));
  qm_test_screenshot (GTK_WIDGET (window), "connection-banner-connecting.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  w.last_tick = g_get_monotonic_time ();
  id = g_timeout_add (50, watch_try, &w);
  while (qm_connection_banner_is_trying (QM_CONNECTION_BANNER (w.banner)))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (id);
  g_test_message ("the try ended after %.0f ms; meanwhile the main loop turned %u times, "
                  "the longest gap %.0f ms", (g_get_monotonic_time () - start) / 1000.0,
                  w.ticks, w.longest_gap / 1000.0);
  g_assert_cmpuint (w.ticks, >, 0);
  g_assert_false (w.sensitive);
  g_assert_true (gtk_widget_get_sensitive (w.retry));
  g_assert_true (qm_connection_banner_is_shown (QM_CONNECTION_BANNER (w.banner)));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (window),
                                            "Not connected to the team server. Changes are kept on this computer."));
  g_assert_cmpuint (messages->len, ==, 1);
  g_assert_nonnull (strstr (messages->pdata[0], "did not answer within 3.0 s"));

  /* Closed while a try waits: the try's end finds nothing to touch. */
  g_signal_emit_by_name (w.retry, "clicked");
  g_assert_true (qm_connection_banner_is_trying (QM_CONNECTION_BANNER (w.banner)));
  gtk_window_destroy (GTK_WINDOW (window));
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () < start + 500 * G_TIME_SPAN_MILLISECOND)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (messages->len, ==, 1);
  qm_test_pg_resume (cluster);
}

int
main (int argc, char **argv)
{
  int status;

  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

  if (!qm_test_ui_init (&argc, &argv))
    return 0;
  /* The application loads style.css; the screenshots show the banner as
   * the user sees it. */
  gtk_css_provider_load_from_resource (css, "/io/github/quartermaster/Quartermaster/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  cluster = qm_test_pg_start ();
  g_test_add_func ("/connection-banner/banner", test_banner);
  g_test_add_func ("/connection-banner/hung-server", test_hung_server);
  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
