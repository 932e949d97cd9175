/* test-store.c: opening, creating and reopening the database.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "qm-store.h"

static char *
temp_db_path (void)
{
  /* G_TEST_OPTION_ISOLATE_DIRS gives each test its own temporary data dir. */
  return g_build_filename (g_get_user_data_dir (), "sub", "dir", "test.db", NULL);
}

static void
test_create_and_reopen (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;
  char *journal = NULL;
  sqlite3_stmt *stmt = NULL;

  store = qm_store_open (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());

  g_assert_cmpint (sqlite3_exec (qm_store_db (store),
                                 "INSERT INTO meta (key, value) VALUES ('probe', 'kept')",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  g_clear_pointer (&store, qm_store_free);

  store = qm_store_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());

  /* The row written before survives the reopen, and the file is in WAL mode. */
  g_assert_cmpint (sqlite3_prepare_v2 (qm_store_db (store),
                                       "SELECT value FROM meta WHERE key = 'probe'",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "kept");
  sqlite3_finalize (stmt);

  g_assert_cmpint (sqlite3_prepare_v2 (qm_store_db (store), "PRAGMA journal_mode",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  journal = g_ascii_strdown ((const char *) sqlite3_column_text (stmt, 0), -1);
  g_assert_cmpstr (journal, ==, "wal");
  g_free (journal);
  sqlite3_finalize (stmt);
}

static void
test_refuses_newer_schema (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;
  g_autofree char *bump = g_strdup_printf ("PRAGMA user_version = %d",
                                           qm_store_latest_version () + 1);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize len_before, len_after;

  store = qm_store_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (qm_store_db (store), bump, NULL, NULL, NULL), ==, SQLITE_OK);
  g_clear_pointer (&store, qm_store_free);
  g_assert_true (g_file_get_contents (path, &before, &len_before, NULL));

  store = qm_store_open (path, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW);
  g_assert_nonnull (strstr (error->message, "newer Quartermaster"));

  /* Refusing means not touching: the file is byte for byte the same. */
  g_assert_true (g_file_get_contents (path, &after, &len_after, NULL));
  g_assert_cmpmem (before, len_before, after, len_after);
}

static void
test_not_a_database (void)
{
  g_autofree char *path = temp_db_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "this is not an SQLite file, it is a shopping list\n"
                                      "and it is long enough to have a header page or two ...........\n",
                                      -1, NULL));
  store = qm_store_open (path, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CORRUPT);
}

static void
test_default_path (void)
{
  g_autofree char *path = NULL;

  g_unsetenv ("QM_DB");
  path = qm_store_default_path ();
  g_assert_true (g_str_has_prefix (path, g_get_user_data_dir ()));
  g_assert_true (g_str_has_suffix (path, "quartermaster/quartermaster.db"));
  g_clear_pointer (&path, g_free);

  g_setenv ("QM_DB", "/tmp/elsewhere.db", TRUE);
  path = qm_store_default_path ();
  g_assert_cmpstr (path, ==, "/tmp/elsewhere.db");
  g_unsetenv ("QM_DB");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/store/create-and-reopen", test_create_and_reopen);
  g_test_add_func ("/store/refuses-newer-schema", test_refuses_newer_schema);
  g_test_add_func ("/store/not-a-database", test_not_a_database);
  g_test_add_func ("/store/default-path", test_default_path);
  return g_test_run ();
}
