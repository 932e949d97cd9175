/* test-db.c: the engine layer (qm-db.h) on SQLite and on a private
 * PostgreSQL cluster: the same SQL, the same values back, the same
 * failures in the same words.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-db-private.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* A fresh, empty database on @engine. */
static QmDb *
open_fresh (QmDbEngine engine)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *location = NULL;
  QmDb *db;

  if (engine == QM_DB_POSTGRESQL)
    location = qm_test_pg_new_database (cluster);
  else
    {
      static guint n;
      g_autofree char *name = g_strdup_printf ("db-%u.db", ++n);

      g_mkdir_with_parents (g_get_user_data_dir (), 0700);
      location = g_build_filename (g_get_user_data_dir (), name, NULL);
    }
  db = qm_db_open (location, QM_DB_OPEN_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_db_engine (db), ==, engine);
  return db;
}

static void
exec_ddl (QmDb       *db,
          const char *sqlite_sql)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = qm_db_translate_ddl (db, sqlite_sql);

  g_assert_true (qm_db_exec (db, sql, &error));
  g_assert_no_error (error);
}

static gint64
count_rows (QmDb       *db,
            const char *table_sql)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDbStmt) stmt = qm_db_prepare (db, table_sql, &error);

  g_assert_no_error (error);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
  return qm_db_column_int64 (stmt, 0);
}

/* ------------------------------------------------------------------ */
/* Without a database.                                                 */

static void
test_placeholders (void)
{
  int n = 0;
  g_autofree char *a = qm_db_rewrite_placeholders (
    "SELECT ?1, '?2 it''s', \"col?\", ?, ?3 -- a ? here\n FROM t /* ?9 */ WHERE x = ?10 OR y = ?", &n);

  g_assert_cmpstr (a, ==,
                   "SELECT $1, '?2 it''s', \"col?\", $2, $3 -- a ? here\n FROM t /* ?9 */ WHERE x = $10 OR y = $11");
  g_assert_cmpint (n, ==, 11);
}

static void
test_redact (void)
{
  struct { const char *in, *out; } cases[] = {
    { "postgresql://bob:hunter2@db.example.com:5432/quotes?sslmode=verify-full&password=x2",
      "postgresql://bob@db.example.com:5432/quotes?sslmode=verify-full" },
    { "postgres://db.example.com/quotes", "postgres://db.example.com/quotes" },
    { "postgresql:///q?host=/run/pg&password=s3cret&user=ann", "postgresql:///q?host=/run/pg&user=ann" },
    { "/home/ann/.local/share/quartermaster/quartermaster.db",
      "/home/ann/.local/share/quartermaster/quartermaster.db" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *r = qm_db_location_redact (cases[i].in);
      g_assert_cmpstr (r, ==, cases[i].out);
    }
  g_assert_true (qm_db_location_is_uri ("postgresql://h/d"));
  g_assert_false (qm_db_location_is_uri ("postgresql.db"));
}

/* Issue #33 item 3: a password under another spelling of its name, or
 * sslpassword, was printed in messages and written to recovery files. */
static void
test_redact_spellings (void)
{
  struct { const char *in, *out; gboolean secret; } cases[] = {
    { "postgresql://h/q?pass%77ord=SECRET&sslmode=require", "postgresql://h/q?sslmode=require", TRUE },
    { "postgresql://h/q?%70assword=SECRET", "postgresql://h/q", TRUE },
    { "postgresql://h/q?PASSWORD=SECRET", "postgresql://h/q", TRUE },
    { "postgresql://h/q?sslpassword=SECRET&user=ann", "postgresql://h/q?user=ann", TRUE },
    { "postgresql://h/q?ssl%70assword=SECRET", "postgresql://h/q", TRUE },
    { "postgresql://ann:SECRET@h/q", "postgresql://ann@h/q", TRUE },
    { "POSTGRESQL://ann:SECRET@h/q", "postgresql://ann@h/q", TRUE },
    /* A scheme Quartermaster does not open is still an address: its
     * password is hidden in the refusal too. */
    { "mysql://ann:SECRET@h/q?password=x", "mysql://ann@h/q", TRUE },
    { "postgresql://h/q?passfile=/home/ann/.pgpass&sslmode=verify-full",
      "postgresql://h/q?passfile=/home/ann/.pgpass&sslmode=verify-full", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *r = qm_db_location_redact (cases[i].in);

      g_assert_cmpstr (r, ==, cases[i].out);
      g_assert_null (strstr (r, "SECRET"));
      if (g_str_has_prefix (cases[i].in, "mysql"))
        continue;
      g_assert_cmpint (qm_db_location_has_secret (cases[i].in), ==, cases[i].secret);
      g_assert_false (qm_db_location_has_secret (r));
    }
}

/* Issue #33 item 2: the scheme in any case and with spaces around is a
 * server, and any "scheme://" is an address, never a file to create. */
static void
test_location_kinds (void)
{
  const char *servers[] = { "POSTGRESQL://h/q", "Postgresql://h/q", " postgresql://h/q",
                            "postgres://h/q\n", "\tPostgres://h/q " };

  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    {
      g_autofree char *norm = qm_db_location_normalize (servers[i]);

      g_assert_true (qm_db_location_is_uri (servers[i]));
      g_assert_true (qm_db_location_looks_like_uri (servers[i]));
      g_assert_true (g_str_has_prefix (norm, "postgres"));
      g_assert_true (g_str_has_suffix (norm, "://h/q"));
    }
  g_assert_false (qm_db_location_is_uri ("mysql://h/q"));
  g_assert_true (qm_db_location_looks_like_uri ("mysql://h/q"));
  g_assert_true (qm_db_location_looks_like_uri ("file:///tmp/x.db"));
  g_assert_false (qm_db_location_looks_like_uri ("/tmp/postgresql://x"));
  g_assert_false (qm_db_location_looks_like_uri ("plans.db"));
  g_assert_false (qm_db_location_looks_like_uri ("C:/plans.db"));
}

/* ------------------------------------------------------------------ */
/* On both engines.                                                    */

static const char schema[] =
  "CREATE TABLE item ("
  "  id       INTEGER PRIMARY KEY,"
  "  name     TEXT NOT NULL UNIQUE CHECK (name <> ''),"
  "  count    INTEGER NOT NULL DEFAULT 0,"
  "  price    REAL,"
  "  doc      TEXT CHECK (doc IS NULL OR json_valid (doc)),"
  "  day      TEXT CHECK (day IS NULL OR date (day) IS day),"
  "  currency TEXT CHECK (currency IS NULL OR currency GLOB '[A-Z][A-Z][A-Z]')"
  ") STRICT;"
  "CREATE TABLE frozen (x INTEGER) STRICT;"
  "CREATE TRIGGER frozen_kept BEFORE DELETE ON frozen"
  "  BEGIN SELECT RAISE (ABORT, 'a frozen row is never removed'); END;";

static void
test_round_trip (gconstpointer data)
{
  g_autoptr(QmDb) db = open_fresh (GPOINTER_TO_INT (data));
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDbStmt) ins = NULL;
  g_autoptr(QmDbStmt) sel = NULL;
  const char *tricky = "it's \"quoted\" ?1 $1 -- Grüße 你好";
  gint64 id;

  exec_ddl (db, schema);
  ins = qm_db_prepare (db, "INSERT INTO item (name, count, price, doc, day, currency)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id", &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_db_param_count (ins), ==, 6);
  qm_db_bind_text (ins, 1, tricky);
  qm_db_bind_int64 (ins, 2, G_GINT64_CONSTANT (9007199254740993));
  qm_db_bind_double (ins, 3, 0.1 + 0.2);
  qm_db_bind_text (ins, 4, "{\"a\": [1, 2.5e-300]}");
  qm_db_bind_text (ins, 5, "2026-02-28");
  qm_db_bind_null (ins, 6);
  /* Beyond the last placeholder: ignored, as SQLite does. */
  qm_db_bind_int64 (ins, 7, 1);
  g_assert_cmpint (qm_db_step (ins), ==, QM_DB_STEP_ROW);
  id = qm_db_column_int64 (ins, 0);
  g_assert_cmpint (id, >, 0);
  g_assert_cmpint (qm_db_step (ins), ==, QM_DB_STEP_DONE);

  sel = qm_db_prepare (db, "SELECT name, count, price, doc, day, currency FROM item WHERE id = ?", &error);
  g_assert_no_error (error);
  qm_db_bind_int64 (sel, 1, id);
  g_assert_cmpint (qm_db_step (sel), ==, QM_DB_STEP_ROW);
  g_assert_cmpint (qm_db_column_count (sel), ==, 6);
  g_assert_cmpstr (qm_db_column_text (sel, 0), ==, tricky);
  g_assert_cmpint (qm_db_column_int64 (sel, 1), ==, G_GINT64_CONSTANT (9007199254740993));
  g_assert_cmpfloat (qm_db_column_double (sel, 2), ==, 0.1 + 0.2);
  g_assert_cmpstr (qm_db_column_text (sel, 3), ==, "{\"a\": [1, 2.5e-300]}");
  g_assert_cmpstr (qm_db_column_text (sel, 4), ==, "2026-02-28");
  g_assert_true (qm_db_column_is_null (sel, 5));
  g_assert_null (qm_db_column_text (sel, 5));
  g_assert_false (qm_db_column_is_null (sel, 0));
  g_assert_cmpint (qm_db_step (sel), ==, QM_DB_STEP_DONE);

  /* Reset runs it again with the same bindings. */
  qm_db_reset (sel);
  g_assert_cmpint (qm_db_step (sel), ==, QM_DB_STEP_ROW);
  g_assert_cmpstr (qm_db_column_text (sel, 0), ==, tricky);
}

static void
test_upsert_changes (gconstpointer data)
{
  g_autoptr(QmDb) db = open_fresh (GPOINTER_TO_INT (data));
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDbStmt) up = NULL;
  g_autoptr(QmDbStmt) upd = NULL;

  exec_ddl (db, schema);
  up = qm_db_prepare (db, "INSERT INTO item (name, count) VALUES (?1, ?2)"
                          " ON CONFLICT (name) DO UPDATE SET count = item.count + excluded.count", &error);
  g_assert_no_error (error);
  for (int i = 0; i < 3; i++)
    {
      qm_db_reset (up);
      qm_db_bind_text (up, 1, "gpu");
      qm_db_bind_int64 (up, 2, 5);
      g_assert_cmpint (qm_db_step (up), ==, QM_DB_STEP_DONE);
      g_assert_cmpint (qm_db_changes (db), ==, 1);
    }
  g_assert_cmpint (count_rows (db, "SELECT count FROM item WHERE name = 'gpu'"), ==, 15);

  upd = qm_db_prepare (db, "UPDATE item SET count = 0 WHERE name = ?1", &error);
  qm_db_bind_text (upd, 1, "none");
  g_assert_cmpint (qm_db_step (upd), ==, QM_DB_STEP_DONE);
  g_assert_cmpint (qm_db_changes (db), ==, 0);
}

static void
test_transactions (gconstpointer data)
{
  g_autoptr(QmDb) db = open_fresh (GPOINTER_TO_INT (data));
  g_autoptr(GError) error = NULL;

  exec_ddl (db, schema);
  g_assert_false (qm_db_in_transaction (db));
  g_assert_true (qm_db_begin (db, &error));
  g_assert_true (qm_db_in_transaction (db));
  g_assert_true (qm_db_exec (db, "INSERT INTO item (name) VALUES ('rolled back')", &error));
  qm_db_rollback (db);
  g_assert_false (qm_db_in_transaction (db));
  g_assert_cmpint (count_rows (db, "SELECT count(*) FROM item"), ==, 0);

  g_assert_true (qm_db_begin (db, &error));
  g_assert_true (qm_db_exec (db, "INSERT INTO item (name) VALUES ('kept')", &error));
  g_assert_true (qm_db_commit (db, &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_rows (db, "SELECT count(*) FROM item"), ==, 1);

  /* The version is 0 until set, and set inside a transaction. */
  g_assert_cmpint (qm_db_schema_version (db, &error), ==, 0);
  g_assert_true (qm_db_begin (db, &error));
  g_assert_true (qm_db_set_schema_version (db, 3, &error));
  g_assert_true (qm_db_commit (db, &error));
  g_assert_cmpint (qm_db_schema_version (db, &error), ==, 3);
  g_assert_true (qm_db_begin (db, &error));
  g_assert_true (qm_db_set_schema_version (db, 4, &error));
  qm_db_rollback (db);
  g_assert_cmpint (qm_db_schema_version (db, &error), ==, 3);
  g_assert_no_error (error);
}

/* Each insert breaks one rule of the schema; each is refused and nothing
 * is written. */
static void
test_checks (gconstpointer data)
{
  g_autoptr(QmDb) db = open_fresh (GPOINTER_TO_INT (data));
  const char *bad[][2] = {
    { "doc", "{not json" },
    { "day", "2026-13-01" },
    { "day", "26-2-1" },
    { "currency", "usd" },
    { "currency", "EURO" },
  };

  exec_ddl (db, schema);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *sql = g_strdup_printf ("INSERT INTO item (name, %s) VALUES (?1, ?2)", bad[i][0]);
      g_autoptr(QmDbStmt) stmt = qm_db_prepare (db, sql, &error);

      g_assert_no_error (error);
      qm_db_bind_text (stmt, 1, bad[i][1]);
      qm_db_bind_text (stmt, 2, bad[i][1]);
      g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ERROR);
      qm_db_fail (db, &error, "Could not add %s", bad[i][1]);
      g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
      g_assert_true (g_str_has_prefix (error->message, "Could not add "));
    }
  g_assert_cmpint (count_rows (db, "SELECT count(*) FROM item"), ==, 0);

  /* The good ones pass the same checks. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (qm_db_exec (db, "INSERT INTO item (name, doc, day, currency)"
                                   " VALUES ('ok', '[]', '2024-02-29', 'EUR')", &error));
    g_assert_no_error (error);
  }

  /* The trigger refuses a delete. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (qm_db_exec (db, "INSERT INTO frozen (x) VALUES (1)", &error));
    g_assert_false (qm_db_exec (db, "DELETE FROM frozen", &error));
    g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, "a frozen row is never removed"));
    g_assert_cmpint (count_rows (db, "SELECT count(*) FROM frozen"), ==, 1);
  }
}

static void
test_unique_and_syntax (gconstpointer data)
{
  g_autoptr(QmDb) db = open_fresh (GPOINTER_TO_INT (data));
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;

  exec_ddl (db, schema);
  g_assert_true (qm_db_exec (db, "INSERT INTO item (name) VALUES ('dup')", &error));
  g_assert_false (qm_db_exec (db, "INSERT INTO item (name) VALUES ('dup')", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, qm_db_location (db)));
  g_clear_error (&error);

  /* A typo fails at prepare (SQLite) or at the first step (PostgreSQL
   * sends the query then); either way the error says so. */
  stmt = qm_db_prepare (db, "SELEKT 1", &error);
  if (stmt != NULL)
    {
      g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ERROR);
      qm_db_fail (db, &error, "Could not read");
    }
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "SELEKT"));
}

/* ------------------------------------------------------------------ */
/* PostgreSQL's own failures.                                          */

static void
assert_connect_fails (const char *uri,
                      const char *words,
                      const char *secret)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDb) db = qm_db_open (uri, QM_DB_OPEN_NONE, &error);

  g_assert_null (db);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, words));
  if (secret != NULL)
    g_assert_null (strstr (error->message, secret));
}

static void
test_pg_connect_failures (void)
{
  g_autofree char *nowhere = g_strdup_printf ("postgresql:///postgres?host=%s/nowhere&user=postgres",
                                              qm_test_pg_socket_dir (cluster));
  g_autofree char *no_db = qm_test_pg_uri (cluster, "no_such_database");
  g_autofree char *no_password = g_strdup_printf ("postgresql:///postgres?host=%s&user=" QM_TEST_PG_PASSWORD_ROLE,
                                                  qm_test_pg_socket_dir (cluster));
  g_autofree char *wrong = g_strdup_printf ("postgresql://" QM_TEST_PG_PASSWORD_ROLE ":hunter2@/postgres?host=%s",
                                            qm_test_pg_socket_dir (cluster));
  g_autofree char *right = g_strdup_printf ("postgresql://" QM_TEST_PG_PASSWORD_ROLE ":Right-1@/postgres?host=%s",
                                            qm_test_pg_socket_dir (cluster));
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDb) db = NULL;

  qm_test_pg_exec (cluster, "postgres",
                   "DROP ROLE IF EXISTS " QM_TEST_PG_PASSWORD_ROLE ";"
                   "CREATE ROLE " QM_TEST_PG_PASSWORD_ROLE " LOGIN PASSWORD 'Right-1'");
  assert_connect_fails (nowhere, "no database server is listening there", NULL);
  assert_connect_fails (no_db, "no such database", NULL);
  assert_connect_fails (no_password, "asks for a password", NULL);
  assert_connect_fails (wrong, "refused the user name or password", "hunter2");

  db = qm_db_open (right, QM_DB_OPEN_NONE, &error);
  g_assert_no_error (error);
  /* The location never shows the password. */
  g_assert_null (strstr (qm_db_location (db), "Right-1"));
}

static void
test_pg_server_gone (void)
{
  g_autoptr(QmDb) db = open_fresh (QM_DB_POSTGRESQL);
  g_autoptr(QmDb) admin = open_fresh (QM_DB_POSTGRESQL);
  g_autoptr(QmDbStmt) pid = NULL;
  g_autoptr(QmDbStmt) kill = NULL;
  g_autoptr(GError) error = NULL;

  pid = qm_db_prepare (db, "SELECT pg_backend_pid ()", &error);
  g_assert_cmpint (qm_db_step (pid), ==, QM_DB_STEP_ROW);
  kill = qm_db_prepare (admin, "SELECT pg_terminate_backend (?1::integer)", &error);
  qm_db_bind_int64 (kill, 1, qm_db_column_int64 (pid, 0));
  g_assert_cmpint (qm_db_step (kill), ==, QM_DB_STEP_ROW);
  g_assert_cmpint (qm_db_column_int64 (kill, 0), ==, 1);

  g_assert_false (qm_db_exec (db, "SELECT 1", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_test_message ("%s", error->message);
  g_assert_true (strstr (error->message, "shut down") != NULL ||
                 strstr (error->message, "connection to the server was lost") != NULL);
}

/* Two connections to one database. */
static void
open_pair (QmDb **a,
           QmDb **b)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(GError) error = NULL;

  *a = qm_db_open (uri, QM_DB_OPEN_NONE, &error);
  g_assert_no_error (error);
  *b = qm_db_open (uri, QM_DB_OPEN_NONE, &error);
  g_assert_no_error (error);
  exec_ddl (*a, schema);
  g_assert_true (qm_db_exec (*a, "INSERT INTO item (name, count) VALUES ('gpu', 1)", &error));
}

static void
test_pg_conflicts (void)
{
  g_autoptr(QmDb) a = NULL;
  g_autoptr(QmDb) b = NULL;
  g_autoptr(GError) error = NULL;

  open_pair (&a, &b);
  /* A row lock held by another client: LOCKED once the wait runs out. */
  g_assert_true (qm_db_exec (b, "SET lock_timeout = '100ms'", &error));
  g_assert_true (qm_db_begin (a, &error));
  g_assert_true (qm_db_exec (a, "UPDATE item SET count = 2", &error));
  g_assert_false (qm_db_exec (b, "UPDATE item SET count = 3", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_LOCKED);
  g_assert_nonnull (strstr (error->message, "someone else"));
  g_clear_error (&error);
  g_assert_true (qm_db_commit (a, &error));

  /* A serialization failure: b read, a changed it, b writes. */
  g_assert_true (qm_db_exec (b, "BEGIN ISOLATION LEVEL REPEATABLE READ", &error));
  g_assert_cmpint (count_rows (b, "SELECT count FROM item"), ==, 2);
  g_assert_true (qm_db_exec (a, "UPDATE item SET count = 4", &error));
  g_assert_false (qm_db_exec (b, "UPDATE item SET count = 5", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_LOCKED);
  g_clear_error (&error);
  qm_db_rollback (b);
  g_assert_false (qm_db_in_transaction (b));
  g_assert_cmpint (count_rows (b, "SELECT count FROM item"), ==, 4);
}

static void
test_pg_read_only (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDb) db = qm_db_open (uri, QM_DB_OPEN_READ_ONLY, &error);

  g_assert_no_error (error);
  g_assert_false (qm_db_exec (db, "CREATE TABLE t (x integer)", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
}

static void
test_pg_translate (void)
{
  g_autoptr(QmDb) db = open_fresh (QM_DB_POSTGRESQL);
  g_autofree char *sql = qm_db_translate_ddl (db, schema);

  g_assert_null (strstr (sql, "STRICT"));
  g_assert_null (strstr (sql, "GLOB"));
  g_assert_null (strstr (sql, " REAL"));
  g_assert_nonnull (strstr (sql, "id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"));
  g_assert_nonnull (strstr (sql, "currency ~ '^[A-Z][A-Z][A-Z]$'"));
  g_assert_nonnull (strstr (sql, "qm_iso_date (day)"));
  g_assert_nonnull (strstr (sql, "EXECUTE FUNCTION frozen_kept_fn ()"));
}

/* A statement the server's statement_timeout stops (SQLSTATE 57014) is
 * said as that, not blamed on another user's change (issue #33). */
static void
test_pg_statement_timeout (void)
{
  g_autoptr(QmDb) db = open_fresh (QM_DB_POSTGRESQL);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_db_exec (db, "SET statement_timeout = 50", NULL));
  g_assert_false (qm_db_exec (db, "SELECT pg_sleep (5)", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "statement_timeout"));
  g_assert_null (strstr (error->message, "another user"));
}

static void
test_pg_missing (void)
{
  g_test_skip ("PostgreSQL 15 is not installed (build-aux/dev installs it)");
}

static void
add_both (const char    *name,
          GTestDataFunc  func)
{
  qm_test_add_both_engines ("db", name, cluster != NULL, func);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  cluster = qm_test_pg_start_if_available ();

  g_test_add_func ("/db/placeholders", test_placeholders);
  g_test_add_func ("/db/redact", test_redact);
  g_test_add_func ("/db/redact-spellings", test_redact_spellings);
  g_test_add_func ("/db/location-kinds", test_location_kinds);
  add_both ("round-trip", test_round_trip);
  add_both ("upsert-changes", test_upsert_changes);
  add_both ("transactions", test_transactions);
  add_both ("checks", test_checks);
  add_both ("unique-and-syntax", test_unique_and_syntax);
  if (cluster != NULL)
    {
      g_test_add_func ("/db/postgresql/translate", test_pg_translate);
      g_test_add_func ("/db/postgresql/connect-failures", test_pg_connect_failures);
      g_test_add_func ("/db/postgresql/server-gone", test_pg_server_gone);
      g_test_add_func ("/db/postgresql/conflicts", test_pg_conflicts);
      g_test_add_func ("/db/postgresql/read-only", test_pg_read_only);
      g_test_add_func ("/db/postgresql/statement-timeout", test_pg_statement_timeout);
    }
  else
    g_test_add_func ("/db/postgresql/skipped", test_pg_missing);

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
