/* test-store-faults.c: the team server goes away (issue #23, faults), on a
 * private PostgreSQL cluster that the tests kill (pg_ctl stop -m
 * immediate) or shut down (-m fast) and start again: a save that fails
 * keeps the edit in a recovery copy, the copies are saved once the server
 * is back and removed only then, a plan changed meanwhile ends as a
 * conflict with both kept, a connection that died while idle heals by
 * itself, a hung server holds a save up for at most a second, and a server
 * upgraded meanwhile is refused without a write.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <libpq-fe.h>

#include "qm-db.h"
#include "qm-store-recovery.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* A fresh database whose commits survive the kill: the cluster trades
 * that away for speed (synchronous_commit = off), and a crash then loses
 * the last commits, which is not what these tests are about. */
static char *
new_database (char **dbname)
{
  char *uri = qm_test_pg_new_database (cluster);
  const char *name = uri + strlen ("postgresql:///");
  g_autofree char *db = g_strndup (name, strcspn (name, "?"));
  g_autofree char *sql = g_strdup_printf ("ALTER DATABASE %s SET synchronous_commit = on", db);

  qm_test_pg_exec (cluster, "postgres", sql);
  if (dbname != NULL)
    *dbname = g_steal_pointer (&db);
  return uri;
}

static guint
n_pending (QmStore *store)
{
  g_autoptr(GPtrArray) paths = qm_store_recovery_pending (store);

  return paths->len;
}

static char *
read_text (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&text);
}

/* A save of @plan that must fail for want of the server, keeping the
 * edit; returns the copy's path. */
static char *
save_while_down (QmStore     *store,
                 QmSavedPlan *plan)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  gint64 revision = plan->revision;
  gint64 start = g_get_monotonic_time ();

  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_test_message ("a save with the server down gave up after %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "could not be reached"));
  g_assert_nonnull (strstr (error->message, "kept on this computer"));
  g_assert_nonnull (strstr (error->message, "will be saved when it is back"));
  /* The caller's copy is untouched: the edit is still the user's. */
  g_assert_cmpint (plan->revision, ==, revision);
  g_assert_false (qm_store_is_connected (store));

  paths = qm_store_recovery_pending (store);
  for (guint i = 0; i < paths->len; i++)
    if (strstr (error->message, paths->pdata[i]) != NULL)
      return g_strdup (paths->pdata[i]);
  g_error ("the error names no recovery copy: %s", error->message);
}

/* Another client holds the plan's row, so our save waits inside its
 * transaction; the server is killed while it waits. */
typedef struct
{
  QmTestPg *pg;
  guint     delay_ms;
} Killer;

static gpointer
kill_later (gpointer data)
{
  Killer *k = data;

  g_usleep (k->delay_ms * 1000);
  qm_test_pg_kill (k->pg);
  return NULL;
}

static PGconn *
hold_row (const char *uri,
          gint64      id)
{
  g_autofree char *sql = g_strdup_printf ("BEGIN; SELECT 1 FROM plan WHERE id = %" G_GINT64_FORMAT
                                          " FOR UPDATE", id);
  PGconn *conn = PQconnectdb (uri);
  PGresult *result;

  g_assert_cmpint (PQstatus (conn), ==, CONNECTION_OK);
  result = PQexec (conn, sql);
  g_assert_cmpint (PQresultStatus (result), ==, PGRES_TUPLES_OK);
  PQclear (result);
  return conn;
}

static void
test_killed_mid_save (void)
{
  g_autofree char *uri = new_database (NULL);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(QmSavedPlan) other = qm_test_saved_plan ("Mistral finetune", "Beta", 2000.0);
  g_autoptr(QmSavedPlan) fresh = qm_test_saved_plan ("Qwen inference", "Gamma", 3000.0);
  g_autoptr(QmSavedPlan) loaded = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *fresh_copy = NULL;
  g_autofree char *text = NULL;
  Killer killer = { cluster, 300 };
  GThread *thread;
  PGconn *holder;
  gint64 start;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_true (qm_plan_store_save (store, other, &error));
  g_assert_no_error (error);

  /* The user's edit; the server dies while the save waits mid-transaction. */
  g_free (plan->customer);
  plan->customer = g_strdup ("Acme Grüße, Procurement");
  holder = hold_row (uri, plan->id);
  thread = g_thread_new ("killer", kill_later, &killer);
  copy = save_while_down (store, plan);
  g_thread_join (thread);
  PQfinish (holder);

  text = read_text (copy);
  g_assert_nonnull (strstr (text, "Acme Grüße, Procurement"));
  g_assert_nonnull (strstr (text, "\"quartermaster-plan\""));
  g_assert_nonnull (strstr (text, "\"revision\" : 1"));
  g_assert_nonnull (strstr (text, qm_store_path (store)));

  /* A new plan while the server is down is kept too. */
  fresh_copy = save_while_down (store, fresh);
  g_assert_cmpint (fresh->id, ==, 0);
  g_assert_cmpuint (n_pending (store), ==, 2);

  /* Still down: a retry gives up quickly and keeps both copies. */
  start = g_get_monotonic_time ();
  results = qm_store_recovery_flush (store, &error);
  g_test_message ("a retry with the server down gave up after %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  g_assert_null (results);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, "could not be reached"));
  g_clear_error (&error);
  g_assert_true (g_file_test (copy, G_FILE_TEST_EXISTS));

  qm_test_pg_resume (cluster);
  start = g_get_monotonic_time ();
  results = qm_store_recovery_flush (store, &error);
  g_test_message ("reconnect and save of 2 copies: %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 2);
  for (guint i = 0; i < results->len; i++)
    {
      QmRecoveryResult *r = results->pdata[i];

      g_test_message ("%s", r->message);
      g_assert_cmpint (r->outcome, ==, QM_RECOVERY_SAVED);
      g_assert_cmpint (r->saved_id, >, 0);
    }
  g_assert_true (qm_store_is_connected (store));
  g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (fresh_copy, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (n_pending (store), ==, 0);

  /* 0 plans lost: the edit is on the server, the others untouched. */
  loaded = qm_plan_store_load (store, plan->id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->customer, ==, "Acme Grüße, Procurement");
  g_assert_cmpint (loaded->revision, ==, 2);
  g_assert_cmpuint (qm_plan_store_count (store), ==, 3);
  g_assert_cmpint (qm_plan_store_find (store, "Qwen inference", &error), >, 0);

  /* The window still holds the plan as revision 1: its next save is the
   * same user going on, not a conflict with their own saved copy. */
  g_free (plan->customer);
  plan->customer = g_strdup ("Acme, later the same day");
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpint (plan->revision, ==, 3);

  /* Flushing again does nothing: each copy was saved once. */
  g_clear_pointer (&results, g_ptr_array_unref);
  results = qm_store_recovery_flush (store, &error);
  g_assert_cmpuint (results->len, ==, 0);
  g_assert_cmpuint (qm_plan_store_count (store), ==, 3);
}

/* The server restarted while the app sat idle: the next save connects
 * again by itself, and nothing is left waiting. */
static void
test_idle_restart (void)
{
  g_autofree char *uri = new_database (NULL);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_true (qm_store_is_connected (store));
  qm_test_pg_kill (cluster);
  /* Noticed without a query: what the window's banner polls. */
  g_assert_false (qm_store_is_connected (store));
  qm_test_pg_resume (cluster);

  g_free (plan->customer);
  plan->customer = g_strdup ("Acme after the restart");
  qm_plan_store_save (store, plan, &error);
  g_assert_no_error (error);
  g_assert_cmpint (plan->revision, ==, 2);
  g_assert_cmpuint (n_pending (store), ==, 0);
}

/* An administrator shuts the server down (pg_ctl stop -m fast): noticed
 * between queries, the edit kept, saved once the server is back. */
static void
test_admin_shutdown (void)
{
  g_autofree char *uri = new_database (NULL);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(QmSavedPlan) loaded = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = NULL;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  qm_test_pg_shut_down (cluster);
  g_assert_false (qm_store_is_connected (store));
  g_free (plan->customer);
  plan->customer = g_strdup ("Edited during maintenance");
  copy = save_while_down (store, plan);
  qm_test_pg_resume (cluster);

  results = qm_store_recovery_flush (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpint (((QmRecoveryResult *) results->pdata[0])->outcome, ==, QM_RECOVERY_SAVED);
  g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
  loaded = qm_plan_store_load (store, plan->id, &error);
  g_assert_cmpstr (loaded->customer, ==, "Edited during maintenance");
  g_assert_cmpuint (qm_plan_store_count (store), ==, 1);
}

/* Someone else saved the plan while ours waited on this computer: a
 * conflict, never an overwrite; both are kept. */
static void
test_conflict_after_outage (void)
{
  g_autofree char *uri = new_database (NULL);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmStore) theirs = NULL;
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(QmSavedPlan) their_plan = NULL;
  g_autoptr(QmSavedPlan) loaded = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = NULL;
  QmRecoveryResult *r;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  qm_test_pg_kill (cluster);
  g_free (plan->customer);
  plan->customer = g_strdup ("Mine");
  copy = save_while_down (store, plan);
  qm_test_pg_resume (cluster);

  theirs = qm_test_open_store_at (uri);
  their_plan = qm_plan_store_load (theirs, plan->id, &error);
  g_free (their_plan->customer);
  their_plan->customer = g_strdup ("Theirs");
  g_assert_true (qm_plan_store_save (theirs, their_plan, &error));
  g_assert_no_error (error);

  results = qm_store_recovery_flush (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
  r = results->pdata[0];
  g_test_message ("%s", r->message);
  g_assert_cmpint (r->outcome, ==, QM_RECOVERY_SAVED_AS_COPY);
  g_assert_nonnull (strstr (r->message, "someone else saved it meanwhile"));
  g_assert_nonnull (strstr (r->message, "both are kept"));
  g_assert_cmpint (r->saved_id, !=, plan->id);
  g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));

  /* Theirs as they saved it; ours beside it. */
  loaded = qm_plan_store_load (store, plan->id, &error);
  g_assert_cmpstr (loaded->customer, ==, "Theirs");
  g_assert_cmpint (loaded->revision, ==, 2);
  g_clear_pointer (&loaded, qm_saved_plan_free);
  loaded = qm_plan_store_load (store, r->saved_id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->customer, ==, "Mine");
  g_assert_true (g_str_has_prefix (loaded->name, "Llama pretrain (my changes, "));
  g_assert_cmpuint (qm_plan_store_count (store), ==, 2);
}

/* Upgraded by a newer Quartermaster while we were away: refused, not one
 * write, and the edit stays on this computer. */
static void
test_newer_schema_after_outage (void)
{
  g_autofree char *dbname = NULL;
  g_autofree char *uri = new_database (&dbname);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmStore) reader = NULL;
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(QmDb) db = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = NULL;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  qm_test_pg_kill (cluster);
  g_free (plan->customer);
  plan->customer = g_strdup ("Mine");
  copy = save_while_down (store, plan);
  qm_test_pg_resume (cluster);
  qm_test_pg_exec (cluster, dbname, "UPDATE qm_schema SET version = 99");

  results = qm_store_recovery_flush (store, &error);
  g_assert_null (results);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW);
  g_assert_nonnull (strstr (error->message, "schema 99"));
  g_assert_nonnull (strstr (error->message, "Nothing was written"));
  g_clear_error (&error);
  g_assert_false (qm_store_is_connected (store));
  g_assert_true (g_file_test (copy, G_FILE_TEST_EXISTS));

  /* A save now is kept too, never written. */
  g_free (copy);
  copy = save_while_down (store, plan);

  db = qm_db_open (uri, QM_DB_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  stmt = qm_db_prepare (db, "SELECT customer, revision FROM plan", NULL);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
  g_assert_cmpstr (qm_db_column_text (stmt, 0), ==, "Acme");
  g_assert_cmpint (qm_db_column_int64 (stmt, 1), ==, 1);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_DONE);
}

/* A server that takes the connection and never answers (hung, or a
 * network that swallows packets): a retry gives up within the bound, so
 * the window waits no longer than that. */
static void
test_hung_server (void)
{
  g_autofree char *uri = new_database (NULL);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme", 1000.0);
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = NULL;
  double ms;
  gint64 start;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  qm_test_pg_hang (cluster);

  g_free (plan->customer);
  plan->customer = g_strdup ("Mine");
  start = g_get_monotonic_time ();
  copy = save_while_down (store, plan);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  g_test_message ("a save against a hung server gave up after %.0f ms", ms);
  g_assert_cmpfloat (ms, <, QM_STORE_SAVE_RECONNECT_TIMEOUT_MS + 1000);

  start = g_get_monotonic_time ();
  results = qm_store_recovery_flush (store, &error);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  g_test_message ("a retry against a hung server gave up after %.0f ms: %s", ms,
                  error != NULL ? error->message : "");
  g_assert_null (results);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, "did not answer within 3.0 s"));
  g_assert_cmpfloat (ms, >=, QM_STORE_RECONNECT_TIMEOUT_MS - 100);
  g_assert_cmpfloat (ms, <, QM_STORE_RECONNECT_TIMEOUT_MS + 1000);
  g_clear_error (&error);

  qm_test_pg_resume (cluster);
  results = qm_store_recovery_flush (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_cmpint (((QmRecoveryResult *) results->pdata[0])->outcome, ==, QM_RECOVERY_SAVED);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* The recovery folder is beside the default database. */
  g_unsetenv ("QM_DB");
  /* A server test never skips: build-aux/dev installs postgresql-15. */
  cluster = qm_test_pg_start ();
  g_test_add_func ("/store-faults/killed-mid-save", test_killed_mid_save);
  g_test_add_func ("/store-faults/idle-restart", test_idle_restart);
  g_test_add_func ("/store-faults/admin-shutdown", test_admin_shutdown);
  g_test_add_func ("/store-faults/conflict-after-outage", test_conflict_after_outage);
  g_test_add_func ("/store-faults/newer-schema-after-outage", test_newer_schema_after_outage);
  g_test_add_func ("/store-faults/hung-server", test_hung_server);

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
