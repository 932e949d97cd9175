/* test-store-watch.c: live refresh on a team database (issue #23), on a
 * private PostgreSQL cluster: a plan saved, trashed or deleted on one
 * connection wakes another's qm_store_watch_fd() and its dispatch names
 * what changed; the change is there to list when it does (what the plans
 * page reloads); a save that fails tells nobody; a client does not hear
 * its own saves; a lost watch says so and can be opened again. A file has
 * nothing to watch.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <poll.h>
#include <string.h>

#include "qm-store-watch.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* Waits up to @ms for @fd to be readable (a closed one is not). */
static gboolean
readable (int fd,
          int ms)
{
  struct pollfd p = { .fd = fd, .events = POLLIN };

  return poll (&p, 1, ms) == 1 && (p.revents & (POLLIN | POLLHUP));
}

typedef struct
{
  guint         calls;
  QmStoreChange changes;
  guint         plans_listed;  /* what a reload on the call found */
} Heard;

/* The plans page's refresh, without the page: list the plans again. */
static void
heard_cb (QmStore       *store,
          QmStoreChange  changes,
          gpointer       data)
{
  Heard *h = data;
  g_autoptr(GPtrArray) list = NULL;

  h->calls++;
  h->changes |= changes;
  if (changes & QM_STORE_CHANGE_PLANS)
    {
      list = qm_plan_store_list (store, NULL, NULL);
      g_assert_nonnull (list);
      h->plans_listed = list->len;
    }
}

/* Waits for @fd, dispatches, and returns what was heard, with whatever
 * else comes within 100 ms (as a main loop would, waking again); the
 * time from @since to the first refreshed list goes to *elapsed_us. */
static Heard
hear (QmStore *store,
      int      fd,
      gint64   since,
      gint64  *elapsed_us)
{
  Heard h = { 0 };

  g_assert_true (readable (fd, 5000));
  do
    {
      qm_store_watch_dispatch (store, heard_cb, &h);
      if (elapsed_us != NULL && *elapsed_us == 0 && h.calls > 0)
        *elapsed_us = g_get_monotonic_time () - since;
    }
  while (!(h.changes & QM_STORE_CHANGE_LOST) && readable (fd, 100));
  return h;
}

static void
test_file (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  Heard h = { 0 };

  g_assert_cmpint (qm_store_watch_fd (store, &error), ==, -1);
  g_assert_no_error (error);
  g_assert_cmpint (qm_store_watch_dispatch (store, heard_cb, &h), ==, QM_STORE_CHANGE_NONE);
  g_assert_cmpuint (h.calls, ==, 0);
}

static void
test_payloads (void)
{
  g_assert_cmpstr (qm_store_change_to_payload (QM_STORE_CHANGE_PLANS), ==, "plans");
  g_assert_cmpstr (qm_store_change_to_payload (QM_STORE_CHANGE_CATALOG), ==, "catalog");
  g_assert_cmpstr (qm_store_change_to_payload (QM_STORE_CHANGE_QUOTES), ==, "quotes");
  g_assert_cmpint (qm_store_change_from_payload ("quotes"), ==, QM_STORE_CHANGE_QUOTES);
  g_assert_cmpint (qm_store_change_from_payload ("plan"), ==, QM_STORE_CHANGE_NONE);
  g_assert_cmpint (qm_store_change_from_payload (NULL), ==, QM_STORE_CHANGE_NONE);
}

static void
test_two_clients (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) a = qm_test_open_store_at (uri);
  g_autoptr(QmStore) b = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Shared plan", "Acme", 10.0);
  g_autoptr(QmSavedPlan) stale = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start, elapsed = 0;
  int fd_a, fd_b;
  Heard h;

  fd_b = qm_store_watch_fd (b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd_b, >=, 0);
  g_assert_cmpint (qm_store_watch_fd (b, NULL), ==, fd_b);  /* one watch per store */
  fd_a = qm_store_watch_fd (a, &error);
  g_assert_cmpint (fd_a, >=, 0);
  g_assert_false (readable (fd_b, 0));

  /* A new plan. */
  start = g_get_monotonic_time ();
  g_assert_true (qm_plan_store_save (a, plan, &error));
  g_assert_no_error (error);
  h = hear (b, fd_b, start, &elapsed);
  g_assert_cmpuint (h.calls, ==, 1);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);
  g_assert_cmpuint (h.plans_listed, ==, 1);
  g_test_message ("save on A to B's list refreshed: %.2f ms", elapsed / 1000.0);
  g_test_minimized_result (elapsed / 1000.0, "ms from a save to the other client's refreshed list");

  /* A does not hear its own save. */
  h = (Heard) { 0 };
  g_assert_false (readable (fd_a, 200) && qm_store_watch_dispatch (a, heard_cb, &h) != 0);
  g_assert_cmpuint (h.calls, ==, 0);

  /* A change that fails (a stale revision) tells nobody. */
  stale = qm_plan_store_load (b, plan->id, &error);
  g_assert_no_error (error);
  plan->total_cost = 11.0;
  g_assert_true (qm_plan_store_save (a, plan, &error));
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);
  h = (Heard) { 0 };
  while (readable (fd_a, 100))
    qm_store_watch_dispatch (a, heard_cb, &h);
  g_assert_cmpuint (h.calls, ==, 0);
  g_assert_false (qm_plan_store_save (b, stale, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  g_assert_false (readable (fd_a, 300));

  /* Rename, trash, restore, delete: each is heard, and several saves
   * before the other client looks are one refresh. */
  g_assert_true (qm_plan_store_rename (a, plan->id, "Shared plan v2", &error));
  g_assert_true (qm_plan_store_trash (a, plan->id, &error));
  g_assert_no_error (error);
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);
  g_assert_cmpuint (h.plans_listed, ==, 0);
  g_assert_true (qm_plan_store_restore (a, plan->id, &error));
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpuint (h.plans_listed, ==, 1);
  g_assert_true (qm_plan_store_delete (a, plan->id, &error));
  g_assert_no_error (error);
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);
  g_assert_cmpuint (h.plans_listed, ==, 0);
}

/* The store's queries on its main connection never take a notification
 * off the watch: B lists and loads between the save and the look. */
/* Issue #33 item 6: a team member's NOTIFY without a change makes no
 * window reload: the notice is checked against the data. 500 fake notices
 * after a real save: the save is heard, the fakes are not; a real change
 * after them is heard again. */
static void
test_fake_notices (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) a = qm_test_open_store_at (uri);
  g_autoptr(QmStore) b = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Real", "Acme", 10.0);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDb) stranger = qm_db_open (uri, QM_DB_OPEN_NONE, &error);
  g_autoptr(GString) fakes = g_string_new (NULL);
  int fd_b = qm_store_watch_fd (b, &error);
  Heard h;

  g_assert_no_error (error);
  g_assert_cmpint (fd_b, >=, 0);
  g_assert_true (qm_plan_store_save (a, plan, &error));
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);

  /* One notice per transaction (the server folds repeats in one). */
  for (guint i = 0; i < 500; i++)
    g_string_append_printf (fakes, "NOTIFY " QM_STORE_WATCH_CHANNEL ", '%s';",
                            i % 3 == 0 ? "plans" : i % 3 == 1 ? "catalog" : "quotes");
  g_assert_true (qm_db_exec (stranger, fakes->str, &error));
  g_assert_no_error (error);
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpuint (h.calls, <=, 1);   /* the first catalog or quotes notice: nothing seen yet */
  h = (Heard) { 0 };
  g_assert_true (qm_db_exec (stranger, fakes->str, &error));
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpuint (h.calls, ==, 0);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_NONE);

  /* A real change is heard again. */
  plan->total_cost = 12.0;
  g_assert_true (qm_plan_store_save (a, plan, &error));
  g_assert_no_error (error);
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);
}

static void
test_busy_client (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) a = qm_test_open_store_at (uri);
  g_autoptr(QmStore) b = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Busy", "Acme", 10.0);
  g_autoptr(GError) error = NULL;
  int fd_b = qm_store_watch_fd (b, &error);
  Heard h;

  g_assert_cmpint (fd_b, >=, 0);
  g_assert_true (qm_plan_store_save (a, plan, &error));
  /* The notice has reached b's connection (its socket is readable) before
   * b's own queries run and read it off the socket on the way. */
  {
    struct pollfd p = { .fd = fd_b, .events = POLLIN };

    g_assert_cmpint (poll (&p, 1, 30000), ==, 1);
  }
  for (int i = 0; i < 5; i++)
    g_ptr_array_unref (qm_plan_store_list (b, NULL, &error));
  g_assert_no_error (error);
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);
}

/* The server drops the watch's connection: the fd wakes, the dispatch
 * says everything may have changed and the watch is gone, and a new
 * watch hears the next save. */
static void
test_lost (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autofree char *dbname = g_strndup (uri + strlen ("postgresql:///"),
                                       strcspn (uri + strlen ("postgresql:///"), "?"));
  g_autoptr(QmStore) a = qm_test_open_store_at (uri);
  g_autoptr(QmStore) b = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("After the drop", "Acme", 1.0);
  g_autoptr(GError) error = NULL;
  int fd_b = qm_store_watch_fd (b, &error);
  Heard h;

  g_assert_cmpint (fd_b, >=, 0);
  qm_test_pg_exec (cluster, dbname,
                   "SELECT pg_terminate_backend (pid) FROM pg_stat_activity"
                   " WHERE query = 'LISTEN quartermaster' AND datname = current_database ()");
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  /* The server's "terminating connection" message can come a moment
   * before the close itself (more than hear()'s 100 ms on a loaded
   * machine); a main loop wakes again for the close, and so does this. */
  while (!(h.changes & QM_STORE_CHANGE_LOST) && readable (fd_b, 5000))
    qm_store_watch_dispatch (b, heard_cb, &h);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_ALL | QM_STORE_CHANGE_LOST);
  g_assert_cmpint (qm_store_watch_dispatch (b, heard_cb, &h), ==, QM_STORE_CHANGE_NONE);

  fd_b = qm_store_watch_fd (b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd_b, >=, 0);
  g_assert_true (qm_plan_store_save (a, plan, &error));
  h = hear (b, fd_b, g_get_monotonic_time (), NULL);
  g_assert_cmpint (h.changes, ==, QM_STORE_CHANGE_PLANS);
  g_assert_cmpuint (h.plans_listed, ==, 1);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/store-watch/sqlite/file", test_file);
  g_test_add_func ("/store-watch/payloads", test_payloads);

  cluster = qm_test_pg_start ();
  g_test_add_func ("/store-watch/postgresql/two-clients", test_two_clients);
  g_test_add_func ("/store-watch/postgresql/busy-client", test_busy_client);
  g_test_add_func ("/store-watch/postgresql/fake-notices", test_fake_notices);
  g_test_add_func ("/store-watch/postgresql/lost", test_lost);
  status = g_test_run ();
  qm_test_pg_stop (cluster);
  return status;
}
