/* test-store-async.c: connecting to a team server without holding up the
 * main loop (qm_store_reconnect_async, qm_store_watch_start_async), on a
 * private PostgreSQL cluster. Against a server that takes the connection
 * and never answers, the main loop goes on while the connect waits in a
 * worker thread, and the callback says why it failed within the bound;
 * once the server is back the store reconnects, and a watch started
 * asynchronously hears another client's save. A cancelled call touches
 * nothing, even a store closed meanwhile. A file has nothing to connect.
 *
 * The figures (how long the caller was held, and the longest the main
 * loop went without a turn) go to the test log; nothing asserts on time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib-unix.h>

#include "qm-store-recovery.h"
#include "qm-store-watch.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* One async call, and what the main loop did while it was under way. */
typedef struct
{
  gboolean  watch;       /* qm_store_watch_start_async(), not reconnect */
  gboolean  done;
  gboolean  ok;
  int       fd;
  GError   *error;
  guint     ticks;       /* turns of a 50 ms timeout before the callback */
  gint64    last_tick;
  gint64    longest_gap;  /* µs between two turns, or since the start */
  gint64    call_us;     /* how long the _async call held its caller */
  gint64    total_us;    /* from the call to the callback */
} Pending;

static void
pending_clear (Pending *p)
{
  g_clear_error (&p->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Pending, pending_clear)

static gboolean
tick_cb (gpointer data)
{
  Pending *p = data;
  gint64 now = g_get_monotonic_time ();

  if (!p->done)
    p->ticks++;
  p->longest_gap = MAX (p->longest_gap, now - p->last_tick);
  p->last_tick = now;
  return G_SOURCE_CONTINUE;
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Pending *p = data;

  if (p->watch)
    p->ok = (p->fd = qm_store_watch_start_finish (result, &p->error)) >= 0;
  else
    p->ok = qm_store_reconnect_finish (result, &p->error);
  p->done = TRUE;
}

/* Runs the main loop, with a 50 ms timeout turning, until @p's callback
 * came; @start is when the call was made. */
static void
wait_for (Pending *p,
          gint64   start)
{
  guint id = g_timeout_add (50, tick_cb, p);

  p->last_tick = start;
  while (!p->done)
    g_main_context_iteration (NULL, TRUE);
  p->total_us = g_get_monotonic_time () - start;
  tick_cb (p);
  g_source_remove (id);
}

/* qm_store_reconnect_async() or qm_store_watch_start_async(), and the
 * main loop until its callback came. */
typedef void (*StartFunc) (QmStore             *store,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data);

static void
call (StartFunc  start,
      QmStore   *store,
      Pending   *p)
{
  gint64 t0 = g_get_monotonic_time ();

  p->watch = start == qm_store_watch_start_async;
  start (store, NULL, done_cb, p);
  p->call_us = g_get_monotonic_time () - t0;
  wait_for (p, t0);
}

static void
report (const char *what,
        Pending    *p)
{
  g_test_message ("%s: the call returned after %.2f ms, the callback came after %.0f ms "
                  "(%s); meanwhile a 50 ms timeout ran %u times, the longest gap %.0f ms",
                  what, p->call_us / 1000.0, p->total_us / 1000.0,
                  p->error != NULL ? p->error->message : "ok", p->ticks, p->longest_gap / 1000.0);
}

/* The server hangs: the connect waits in a thread, the main loop turns,
 * and the failure comes within the bound with the message a synchronous
 * retry gives. Back up, the next try reconnects and a save goes through. */
static void
test_reconnect_hung (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(GError) error = NULL;
  g_auto(Pending) hung = { 0 };
  g_auto(Pending) back = { 0 };
  gint64 start;

  qm_test_pg_hang (cluster);
  g_assert_false (qm_store_is_connected (store));
  call (qm_store_reconnect_async, store, &hung);
  report ("qm_store_reconnect_async() against a hung server", &hung);
  g_assert_cmpuint (hung.ticks, >, 0);
  g_assert_false (hung.ok);
  g_assert_error (hung.error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_assert_nonnull (strstr (hung.error->message, "could not be reached"));
  g_assert_nonnull (strstr (hung.error->message, "did not answer within 3.0 s"));
  g_assert_false (qm_store_is_connected (store));

  /* For comparison: the synchronous call holds its caller all along. */
  start = g_get_monotonic_time ();
  g_assert_false (qm_store_reconnect (store, &error));
  g_test_message ("qm_store_reconnect() against a hung server held its caller %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  g_assert_cmpstr (error->message, ==, hung.error->message);
  g_clear_error (&error);

  qm_test_pg_resume (cluster);
  call (qm_store_reconnect_async, store, &back);
  report ("qm_store_reconnect_async() once the server is back", &back);
  g_assert_no_error (back.error);
  g_assert_true (back.ok);
  g_assert_true (qm_store_is_connected (store));
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
}

/* Cancelled, with the store closed before the thread is done: the
 * callback says so and nothing touches the store (the sanitizer build
 * would see it). */
static void
test_reconnect_cancelled (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  QmStore *store = qm_test_open_store_at (uri);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_auto(Pending) p = { 0 };
  gint64 start;

  qm_test_pg_hang (cluster);
  g_assert_false (qm_store_is_connected (store));
  start = g_get_monotonic_time ();
  qm_store_reconnect_async (store, cancellable, done_cb, &p);
  p.call_us = g_get_monotonic_time () - start;
  g_cancellable_cancel (cancellable);
  qm_store_free (store);
  wait_for (&p, start);
  report ("qm_store_reconnect_async() cancelled at once", &p);
  g_assert_false (p.ok);
  g_assert_error (p.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  qm_test_pg_resume (cluster);
}

/* The watch's own connection against a hung server: the main loop turns,
 * and it gives up within the reconnect's bound (libpq's connect_timeout
 * alone would wait 10 s an address). */
static void
test_watch_hung (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(GError) error = NULL;
  g_auto(Pending) p = { 0 };
  gint64 start;

  qm_test_pg_hang (cluster);
  call (qm_store_watch_start_async, store, &p);
  report ("qm_store_watch_start_async() against a hung server", &p);
  g_assert_cmpuint (p.ticks, >, 0);
  g_assert_cmpint (p.fd, ==, -1);
  g_assert_error (p.error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_assert_nonnull (strstr (p.error->message, "again: the server did not answer within 3.0 s"));

  start = g_get_monotonic_time ();
  g_assert_cmpint (qm_store_watch_fd (store, &error), ==, -1);
  g_test_message ("qm_store_watch_fd() against a hung server held its caller %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  g_assert_cmpstr (error->message, ==, p.error->message);
  qm_test_pg_resume (cluster);
}

static void
heard_cb (QmStore       *store,
          QmStoreChange  changes,
          gpointer       data)
{
  *(QmStoreChange *) data |= changes;
}

typedef struct
{
  QmStore       *store;
  QmStoreChange  changes;
} Listening;

static gboolean
readable_cb (int           fd,
             GIOCondition  condition,
             gpointer      data)
{
  Listening *l = data;

  qm_store_watch_dispatch (l->store, heard_cb, &l->changes);
  return G_SOURCE_CONTINUE;
}

/* A watch started asynchronously, its fd in the main loop as the window
 * has it: another client's save reaches the callback. */
static void
test_watch_notify (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) mine = qm_test_open_store_at (uri);
  Listening l = { mine, QM_STORE_CHANGE_NONE };
  g_auto(Pending) p = { 0 };
  g_auto(Pending) again = { 0 };
  gint64 deadline;
  guint id;
  g_autoptr(QmStore) theirs = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("From a colleague", "Acme", 10.0);
  g_autoptr(GError) error = NULL;

  call (qm_store_watch_start_async, mine, &p);
  report ("qm_store_watch_start_async() on a live server", &p);
  g_assert_no_error (p.error);
  g_assert_cmpint (p.fd, >=, 0);
  /* One watch per store: a second start has its answer at once. */
  call (qm_store_watch_start_async, mine, &again);
  g_assert_cmpint (again.fd, ==, p.fd);

  id = g_unix_fd_add (p.fd, G_IO_IN | G_IO_HUP | G_IO_ERR, readable_cb, &l);
  g_assert_true (qm_plan_store_save (theirs, plan, &error));
  g_assert_no_error (error);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!(l.changes & QM_STORE_CHANGE_PLANS) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_source_remove (id);
  g_assert_cmpint (l.changes, ==, QM_STORE_CHANGE_PLANS);
}

/* A file: no watch (-1, no error), and always connected. */
static void
test_file (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_auto(Pending) watch = { 0 };
  g_auto(Pending) re = { 0 };

  call (qm_store_watch_start_async, store, &watch);
  g_assert_no_error (watch.error);
  g_assert_cmpint (watch.fd, ==, -1);
  call (qm_store_reconnect_async, store, &re);
  g_assert_no_error (re.error);
  g_assert_true (re.ok);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/store-async/sqlite/file", test_file);

  /* A server test never skips: build-aux/dev installs postgresql-15. */
  cluster = qm_test_pg_start ();
  g_test_add_func ("/store-async/postgresql/reconnect-hung", test_reconnect_hung);
  g_test_add_func ("/store-async/postgresql/reconnect-cancelled", test_reconnect_cancelled);
  g_test_add_func ("/store-async/postgresql/watch-hung", test_watch_hung);
  g_test_add_func ("/store-async/postgresql/watch-notify", test_watch_notify);
  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
