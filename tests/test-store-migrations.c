/* test-store-migrations.c: every migration, from every older version.
 *
 * For each k below the latest schema, a database is made by running only
 * the first k steps, filled with the data that version could hold, and
 * then opened with qm_store_open(): the schema must reach the latest
 * version and every row written at version k must still be there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-quote-store.h"
#include "qm-store-private.h"
#include "qm-supplier-store.h"
#include "qm-test-store.h"

static void
exec_raw (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

static int
user_version (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int v;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  v = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return v;
}

/* Data each version can hold, written with plain SQL as that version's
 * code would have. */
static void
fill (const char *path,
      int         version)
{
  if (version >= 1)
    exec_raw (path, "INSERT INTO meta (key, value) VALUES ('probe', 'kept since v1')");
  if (version >= 2)
    exec_raw (path,
              "INSERT INTO catalog_user (kind, id, vendor, name, price_usd, entry, created, modified)"
              " VALUES ('gpu', 'acme-x1', 'Acme', 'Acme X1', 12000,"
              "  '{\"id\":\"acme-x1\",\"name\":\"Acme X1\",\"price_usd\":12000,"
              "\"tflops\":{\"bf16\":500},\"memory_gb\":96,\"bandwidth_tbs\":2.4}', 1, 1);"
              "INSERT INTO catalog_override (kind, id, price_usd, modified)"
              " VALUES ('gpu', 'h100-sxm-80gb', 21000, 1);");
  if (version >= 3)
    exec_raw (path,
              "INSERT INTO plan (id, name, customer, created, modified) VALUES (7, 'Old quote', 'Acme', 1, 2);"
              "INSERT INTO plan_data (plan_id, inputs, snapshot) VALUES (7, '{\"name\":\"Old quote\"}',"
              " '{\"cost_usd\":{\"total\":42}}');");
  if (version >= 4)
    exec_raw (path,
              "INSERT INTO quote (id, number, plan_id, customer, created, modified)"
              " VALUES (3, 'Q-2026-0001', 7, 'Acme', 1, 2);");
}

static void
check (QmStore *store,
       int      from)
{
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());

  if (from >= 1)
    {
      g_assert_cmpint (sqlite3_prepare_v2 (qm_store_db (store),
                                           "SELECT value FROM meta WHERE key = 'probe'",
                                           -1, &stmt, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "kept since v1");
      sqlite3_finalize (stmt);
    }
  if (from >= 2)
    {
      g_autoptr(QmCatalogEntry) mine = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
      g_autoptr(QmCatalogEntry) h100 = NULL;

      g_assert_no_error (error);
      g_assert_cmpstr (mine->name, ==, "Acme X1");
      h100 = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error);
      g_assert_true (h100->has_override);
      g_assert_cmpfloat (h100->override_usd, ==, 21000);
    }
  if (from >= 3)
    {
      g_autoptr(QmSavedPlan) plan = qm_plan_store_load (store, 7, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (plan->name, ==, "Old quote");
      g_assert_cmpstr (plan->snapshot, ==, "{\"cost_usd\":{\"total\":42}}");
    }

  if (from >= 4)
    {
      g_assert_cmpint (sqlite3_prepare_v2 (qm_store_db (store),
                                           "SELECT customer, customer_vat FROM quote WHERE id = 3",
                                           -1, &stmt, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "Acme");
      g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 1), ==, "");
      sqlite3_finalize (stmt);
    }

  /* The supplier details (step 9): none until set, then settable. */
  {
    g_autoptr(QmSupplier) supplier = qm_supplier_store_get (store, &error);
    g_autoptr(QmSupplier) back = NULL;

    g_assert_no_error (error);
    /* Set by the first open of the two in test_from_version. */
    g_assert_true (qm_supplier_is_empty (supplier) || g_strcmp0 (supplier->vat_id, "DE123456789") == 0);
    g_free (supplier->vat_id);
    supplier->vat_id = g_strdup ("DE123456789");
    g_assert_true (qm_supplier_store_set (store, supplier, &error));
    g_assert_no_error (error);
    back = qm_supplier_store_get (store, &error);
    g_assert_cmpstr (back->vat_id, ==, "DE123456789");
  }

  /* Whatever the start, the latest schema works: the built-ins are
   * synced and a plan can be saved. */
  {
    g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("New", "X", 1);
    g_autoptr(QmCatalogEntry) h100 = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error);

    g_assert_no_error (error);
    g_assert_true (h100->builtin);
    g_assert_true (qm_plan_store_save (store, plan, &error));
    g_assert_no_error (error);
  }
}

static void
test_from_version (gconstpointer data)
{
  int from = GPOINTER_TO_INT (data);
  g_autofree char *path = qm_test_db_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (qm_store_create_at_version (path, from, &error));
  g_assert_no_error (error);
  g_assert_cmpint (user_version (path), ==, from);
  fill (path, from);

  store = qm_store_open (path, &error);
  g_assert_no_error (error);
  check (store, from);
  g_clear_pointer (&store, qm_store_free);

  /* Opening again is a no-op that keeps everything. */
  store = qm_store_open (path, &error);
  g_assert_no_error (error);
  check (store, from);
}

/* A migration that fails half-way leaves the previous version intact. */
static void
test_failed_step_rolls_back (void)
{
  g_autofree char *path = qm_test_db_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (qm_store_create_at_version (path, 2, &error));
  /* A table in the way makes step 2 → 3 fail. */
  exec_raw (path, "CREATE TABLE plan (x INTEGER)");
  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "version 3"));
  g_assert_cmpint (user_version (path), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  for (int k = 0; k < qm_store_latest_version (); k++)
    {
      g_autofree char *name = g_strdup_printf ("/store-migrations/from-v%d", k);
      g_test_add_data_func (name, GINT_TO_POINTER (k), test_from_version);
    }
  g_test_add_func ("/store-migrations/failed-step-rolls-back", test_failed_step_rolls_back);
  return g_test_run ();
}
