/* test-store-pg.c: the store on a PostgreSQL server (issue #23), on a
 * private cluster: open and migrate, the plan round trip, a stale save is
 * a conflict and two clients saving at once lose nothing (on both
 * engines), and a newer schema is refused untouched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-db.h"
#include "qm-test-cli.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* A fresh database on @engine: its location (a URI or a file path). */
static char *
fresh_location (QmDbEngine engine)
{
  if (engine == QM_DB_POSTGRESQL)
    return qm_test_pg_new_database (cluster);
  return qm_test_db_path ();
}

static void
test_open_migrate (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());
  g_assert_null (qm_store_db (store));
  g_assert_false (qm_store_is_read_only (store));
  g_assert_cmpuint (qm_plan_store_count (store), ==, 0);
  /* A server is no file: no backup, and its integrity is its own. */
  g_assert_true (qm_store_check_integrity (store, &error));
  g_assert_null (qm_store_backup (store, NULL, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
  g_clear_pointer (&store, qm_store_free);

  /* Opening again finds the schema there and changes nothing. */
  store = qm_test_open_store_at (uri);
  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());
}

static void
test_round_trip (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Llama pretrain", "Acme Grüße", 1234567.89);
  g_autoptr(QmSavedPlan) loaded = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GArray) ids = NULL;
  g_autoptr(GError) error = NULL;
  QmPlanSummary *s;
  gint64 copy;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpint (plan->id, >, 0);
  g_assert_cmpint (plan->revision, ==, 1);

  loaded = qm_plan_store_load (store, plan->id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->name, ==, "Llama pretrain");
  g_assert_cmpstr (loaded->customer, ==, "Acme Grüße");
  g_assert_cmpstr (loaded->quote_ref, ==, plan->quote_ref);
  g_assert_cmpstr (loaded->tags, ==, plan->tags);
  g_assert_cmpstr (loaded->model, ==, "llama-3.1-70b");
  g_assert_cmpstr (loaded->inputs, ==, plan->inputs);
  g_assert_cmpstr (loaded->snapshot, ==, plan->snapshot);
  g_assert_cmpstr (loaded->prices, ==, plan->prices);
  g_assert_cmpstr (loaded->catalog_version, ==, plan->catalog_version);
  g_assert_cmpuint (loaded->gpus, ==, 2048);
  g_assert_cmpfloat (loaded->days, ==, 31.5);
  g_assert_cmpfloat (loaded->total_cost, ==, 1234567.89);
  g_assert_cmpint (loaded->created, ==, plan->created);
  g_assert_cmpint (loaded->modified, ==, plan->modified);
  g_assert_cmpint (loaded->revision, ==, 1);

  /* Saved again from what was loaded: the next revision. */
  g_free (loaded->customer);
  loaded->customer = g_strdup ("Beta GmbH");
  g_assert_true (qm_plan_store_save (store, loaded, &error));
  g_assert_cmpint (loaded->revision, ==, 2);

  list = qm_plan_store_list (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 1);
  s = list->pdata[0];
  g_assert_cmpint (s->id, ==, plan->id);
  g_assert_cmpstr (s->customer, ==, "Beta GmbH");
  g_assert_cmpfloat (s->total_cost, ==, 1234567.89);
  g_clear_pointer (&list, g_ptr_array_unref);

  /* Search, as SQLite does it: every folded word in the key. */
  list = qm_plan_store_list (store, "BETA llama", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 1);
  g_clear_pointer (&list, g_ptr_array_unref);
  list = qm_plan_store_list (store, "acme", &error);
  g_assert_cmpuint (list->len, ==, 0);
  ids = qm_plan_store_search_ids (store, "gmbh", &error);
  g_assert_cmpuint (ids->len, ==, 1);
  g_assert_cmpint (g_array_index (ids, gint64, 0), ==, plan->id);
  g_assert_cmpint (qm_plan_store_find (store, "Llama pretrain", &error), ==, plan->id);

  /* Duplicate, rename, trash, restore, delete. */
  copy = qm_plan_store_duplicate (store, plan->id, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (copy, >, plan->id);
  g_assert_true (qm_plan_store_rename (store, copy, "Second", &error));
  g_assert_cmpuint (qm_plan_store_count (store), ==, 2);
  g_assert_true (qm_plan_store_trash (store, copy, &error));
  g_assert_cmpuint (qm_plan_store_count (store), ==, 1);
  g_assert_true (qm_plan_store_restore (store, copy, &error));
  g_assert_cmpuint (qm_plan_store_count (store), ==, 2);
  g_assert_true (qm_plan_store_delete (store, copy, &error));
  g_assert_false (qm_plan_store_delete (store, copy, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_assert_cmpuint (qm_plan_store_count (store), ==, 1);
}

/* Two clients read revision 1; the first save wins, the second is a
 * conflict that names the plan and both revisions and overwrites nothing. */
static void
test_stale_save (gconstpointer data)
{
  g_autofree char *location = fresh_location (GPOINTER_TO_INT (data));
  g_autoptr(QmStore) a = qm_test_open_store_at (location);
  g_autoptr(QmStore) b = qm_test_open_store_at (location);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Shared quote", "Acme", 100);
  g_autoptr(QmSavedPlan) mine = NULL;
  g_autoptr(QmSavedPlan) theirs = NULL;
  g_autoptr(QmSavedPlan) now = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_store_save (a, plan, &error));
  mine = qm_plan_store_load (a, plan->id, &error);
  theirs = qm_plan_store_load (b, plan->id, &error);
  g_assert_cmpint (mine->revision, ==, 1);
  g_assert_cmpint (theirs->revision, ==, 1);

  g_free (theirs->customer);
  theirs->customer = g_strdup ("Theirs Ltd");
  g_assert_true (qm_plan_store_save (b, theirs, &error));
  g_assert_cmpint (theirs->revision, ==, 2);

  g_free (mine->customer);
  mine->customer = g_strdup ("Mine Inc");
  g_assert_false (qm_plan_store_save (a, mine, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "\"Shared quote\""));
  g_assert_nonnull (strstr (error->message, "revision 1"));
  g_assert_nonnull (strstr (error->message, "revision 2"));
  /* The caller's copy is untouched, the stored plan is theirs. */
  g_assert_cmpint (mine->revision, ==, 1);
  g_assert_cmpstr (mine->customer, ==, "Mine Inc");
  now = qm_plan_store_load (a, plan->id, &error);
  g_assert_cmpstr (now->customer, ==, "Theirs Ltd");
  g_assert_cmpint (now->revision, ==, 2);
  g_clear_error (&error);

  /* The winner saves on from its new revision. */
  g_assert_true (qm_plan_store_save (b, theirs, &error));
  g_assert_cmpint (theirs->revision, ==, 3);
}

/* Two clients save the same few plans as fast as they can, each from what
 * it last read; a stale save is a conflict, and the client reloads and
 * tries again. Afterwards every plan's revision is exactly 1 + the saves
 * that succeeded on it: no save was lost or overwritten silently. */
#define N_SHARED 4
#define N_SAVES  500

typedef struct
{
  const char *location;
  gint64      ids[N_SHARED];
  guint       saved[N_SHARED];
  guint       conflicts;
  guint       added;
  char        name;
} QmClient;

static gpointer
client_run (gpointer data)
{
  QmClient *c = data;
  g_autoptr(QmStore) store = qm_test_open_store_at (c->location);

  /* The clients contend on purpose, and under the sanitizers on a loaded
   * CI machine one write can wait past the app's 2 s for another's (a
   * file then says "locked"; CI saw it once): what this test checks is
   * that no save is lost and each refusal is a conflict, not how long a
   * writer waits. */
  qm_store_set_busy_timeout (store, 30000);
  for (guint k = 0; k < N_SAVES; k++)
    {
      guint i = (k * 7 + (guint) c->name) % N_SHARED;
      g_autoptr(QmSavedPlan) plan = NULL;
      g_autoptr(GError) error = NULL;

      /* Now and then a new plan of its own, which nobody else touches. */
      if (k % 50 == 0)
        {
          g_autofree char *name = g_strdup_printf ("%c new %u", c->name, k);
          g_autoptr(QmSavedPlan) fresh = qm_test_saved_plan (name, "Own", k);

          g_assert_true (qm_plan_store_save (store, fresh, &error));
          g_assert_no_error (error);
          c->added++;
        }
      plan = qm_plan_store_load (store, c->ids[i], &error);
      g_assert_no_error (error);
      g_free (plan->tags);
      plan->tags = g_strdup_printf ("%c %u", c->name, k);
      if (qm_plan_store_save (store, plan, &error))
        c->saved[i]++;
      else
        {
          g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
          c->conflicts++;
        }
    }
  return NULL;
}

static void
test_concurrent_saves (gconstpointer data)
{
  g_autofree char *location = fresh_location (GPOINTER_TO_INT (data));
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  QmClient clients[2] = { { .location = location, .name = 'A' }, { .location = location, .name = 'B' } };
  GThread *threads[2];
  guint added = 0;

  for (guint i = 0; i < N_SHARED; i++)
    {
      g_autofree char *name = g_strdup_printf ("Shared %u", i);
      g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, "Acme", 1000 + i);
      g_autoptr(GError) error = NULL;

      g_assert_true (qm_plan_store_save (store, plan, &error));
      clients[0].ids[i] = clients[1].ids[i] = plan->id;
    }
  for (guint t = 0; t < 2; t++)
    threads[t] = g_thread_new ("client", client_run, &clients[t]);
  for (guint t = 0; t < 2; t++)
    g_thread_join (threads[t]);

  for (guint i = 0; i < N_SHARED; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(QmSavedPlan) plan = qm_plan_store_load (store, clients[0].ids[i], &error);

      g_assert_no_error (error);
      g_assert_cmpint (plan->revision, ==, 1 + clients[0].saved[i] + clients[1].saved[i]);
    }
  for (guint t = 0; t < 2; t++)
    {
      guint saved = 0;

      for (guint i = 0; i < N_SHARED; i++)
        saved += clients[t].saved[i];
      g_assert_cmpuint (saved + clients[t].conflicts, ==, N_SAVES);
      added += clients[t].added;
      g_test_message ("client %c: %u saved, %u conflicts, %u new plans",
                      clients[t].name, saved, clients[t].conflicts, clients[t].added);
    }
  /* Not one plan lost. */
  g_assert_cmpuint (qm_plan_store_count (store), ==, N_SHARED + added);
}

static void
test_newer_schema (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  /* postgresql:///NAME?host=... */
  g_autofree char *dbname = g_strndup (uri + strlen ("postgresql:///"), strcspn (uri + strlen ("postgresql:///"), "?"));
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;
  g_autoptr(QmDb) db = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;

  qm_test_pg_exec (cluster, dbname,
                   "CREATE TABLE qm_schema (version INTEGER NOT NULL);"
                   "INSERT INTO qm_schema VALUES (99)");
  store = qm_store_open (uri, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW);
  g_assert_nonnull (strstr (error->message, "schema 99"));
  g_assert_nonnull (strstr (error->message, "left untouched"));

  /* Nothing was written: no table but the marker, the version as it was. */
  db = qm_db_open (uri, QM_DB_OPEN_READ_ONLY, NULL);
  stmt = qm_db_prepare (db, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", NULL);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
  g_assert_cmpint (qm_db_column_int64 (stmt, 0), ==, 1);
  g_assert_cmpint (qm_db_schema_version (db, NULL), ==, 99);
}

/* Every live plan of @a is in @b with the same content hash. */
static guint
assert_same_plans (const char *a,
                   const char *b)
{
  g_autoptr(QmStore) sa = qm_test_open_store_at (a);
  g_autoptr(QmStore) sb = qm_test_open_store_at (b);
  g_autoptr(GPtrArray) list = qm_plan_store_list (sa, NULL, NULL);

  for (guint i = 0; i < list->len; i++)
    {
      gint64 id = ((QmPlanSummary *) list->pdata[i])->id;
      g_autoptr(QmSavedPlan) pa = qm_plan_store_load (sa, id, NULL);
      g_autoptr(QmSavedPlan) pb = qm_plan_store_load (sb, id, NULL);
      g_autofree char *ha = qm_saved_plan_hash (pa);
      g_autofree char *hb = NULL;

      g_assert_nonnull (pb);
      hb = qm_saved_plan_hash (pb);
      g_assert_cmpstr (pa->inputs, ==, pb->inputs);
      g_assert_cmpstr (pa->snapshot, ==, pb->snapshot);
      g_assert_cmpstr (ha, ==, hb);
    }
  return list->len;
}

/* quartermaster-cli db copy: SQLite -> PostgreSQL -> SQLite, byte-equal;
 * a second run changes nothing; a plan of TO's own is never overwritten. */
static void
test_db_copy (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "copy", NULL);
  g_autofree char *first = g_build_filename (dir, "first.db", NULL);
  g_autofree char *back = g_build_filename (dir, "back.db", NULL);
  g_autofree char *other = g_build_filename (dir, "other.db", NULL);
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_auto(Run) r = { 0 };

  g_mkdir_with_parents (dir, 0700);
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (first);

    for (guint i = 0; i < 3; i++)
      {
        g_autofree char *name = g_strdup_printf ("Plan %u «ü»", i);
        g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, "Acme", 1000.25 * i);
        g_autoptr(GError) error = NULL;

        g_assert_true (qm_plan_store_save (store, plan, &error));
        if (i == 1)
          g_assert_true (qm_plan_store_save (store, plan, &error));  /* revision 2 */
      }
  }

  run_cli (&r, "db", "copy", first, uri, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "3 copied, 0 replaced, 0 already there"));
  g_assert_nonnull (strstr (r.out, "All 3 match"));
  run_clear (&r);
  g_assert_cmpuint (assert_same_plans (first, uri), ==, 3);

  /* Again: nothing to do. */
  run_cli (&r, "db", "copy", first, uri, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "0 copied, 0 replaced, 3 already there"));
  run_clear (&r);

  /* And back into a new file: the same plans, byte for byte. */
  run_cli (&r, "db", "copy", uri, back, NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  g_assert_cmpuint (assert_same_plans (first, back), ==, 3);

  /* A new plan on the server after the copy takes a fresh id. */
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (uri);
    g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Made on the server", "Beta", 5);
    g_autoptr(GError) error = NULL;

    g_assert_true (qm_plan_store_save (store, plan, &error));
    g_assert_no_error (error);
    g_assert_cmpint (plan->id, >, 3);
  }

  /* A file with a plan of its own under id 1: reported, not overwritten. */
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (other);
    g_autoptr(QmSavedPlan) mine = qm_test_saved_plan ("Mine alone", "Gamma", 7);
    g_autoptr(GError) error = NULL;

    g_assert_true (qm_plan_store_save (store, mine, &error));
    g_assert_cmpint (mine->id, ==, 1);
  }
  run_cli (&r, "db", "copy", uri, other, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "different plan under that id"));
  {
    g_autoptr(QmStore) store = qm_test_open_store_at (other);
    g_autoptr(QmSavedPlan) still = qm_plan_store_load (store, 1, NULL);

    g_assert_cmpstr (still->name, ==, "Mine alone");
  }
}

static void
test_unreachable (void)
{
  g_autofree char *uri = g_strdup_printf ("postgresql:///quotes?host=%s/gone&user=postgres&password=hunter2",
                                          qm_test_pg_socket_dir (cluster));
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = qm_store_open (uri, &error);

  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, "no database server is listening"));
  g_assert_null (strstr (error->message, "hunter2"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_data_func ("/store-pg/sqlite/stale-save", GINT_TO_POINTER (QM_DB_SQLITE), test_stale_save);
  g_test_add_data_func ("/store-pg/sqlite/concurrent-saves", GINT_TO_POINTER (QM_DB_SQLITE),
                        test_concurrent_saves);
  /* build-aux/dev installs postgresql-15; only a machine without it skips. */
  if (!qm_test_pg_available ())
    {
      g_test_message ("PostgreSQL is not installed in %s: its tests are skipped", QM_TEST_PG_BINDIR);
      return g_test_run ();
    }
  cluster = qm_test_pg_start ();
  g_test_add_func ("/store-pg/postgresql/open-migrate", test_open_migrate);
  g_test_add_func ("/store-pg/postgresql/round-trip", test_round_trip);
  g_test_add_data_func ("/store-pg/postgresql/stale-save", GINT_TO_POINTER (QM_DB_POSTGRESQL), test_stale_save);
  g_test_add_data_func ("/store-pg/postgresql/concurrent-saves", GINT_TO_POINTER (QM_DB_POSTGRESQL),
                        test_concurrent_saves);
  g_test_add_func ("/store-pg/postgresql/newer-schema", test_newer_schema);
  g_test_add_func ("/store-pg/postgresql/unreachable", test_unreachable);
  g_test_add_func ("/store-pg/postgresql/db-copy", test_db_copy);

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
