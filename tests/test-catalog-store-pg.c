/* test-catalog-store-pg.c: the catalog store on both engines (issue #23):
 * SQLite and a private PostgreSQL cluster (qm-test-pg.h). Sync, listing
 * and search, user entries, price overrides and CSV import behave alike;
 * a save against a stale revision is a conflict that names the entry and
 * both revisions and writes nothing; every price change is kept with who,
 * when, old and new; and db copy carries the user's catalog SQLite ->
 * PostgreSQL -> SQLite unchanged, safe to run again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <sqlite3.h>

#include "qm-catalog-store.h"
#include "qm-db.h"
#include "qm-store-private.h"
#include "qm-test-cli.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

#define H100 "h100-sxm-80gb"

#define MY_GPU \
  "{\"id\": \"acme-x1\", \"vendor\": \"Acme\", \"name\": \"Acme X1, \\\"Turbo\\\"\"," \
  " \"price_usd\": 12000, \"tflops\": {\"bf16\": 500}, \"memory_gb\": 96," \
  " \"bandwidth_tbs\": 2.4, \"tdp_w\": 600}"

static char *
my_gpu_at (double price)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("{\"id\": \"acme-x1\", \"vendor\": \"Acme\", \"name\": \"Acme X1\","
                          " \"price_usd\": %s, \"tflops\": {\"bf16\": 500}, \"memory_gb\": 96,"
                          " \"bandwidth_tbs\": 2.4}", g_ascii_dtostr (buf, sizeof buf, price));
}

static guint
count (QmStore    *store,
       int         kind,
       const char *search)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = qm_catalog_store_list (store, kind, search, QM_CATALOG_LIST_NONE, &error);

  g_assert_no_error (error);
  return list->len;
}

/* Who the history should name: the OS user on a file, the database user
 * on a server. */
static char *
expected_who (const char *location)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDb) db = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;

  if (!qm_db_location_is_uri (location))
    return g_strdup (g_get_user_name ());
  db = qm_db_open (location, QM_DB_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  stmt = qm_db_prepare (db, "SELECT current_user", &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
  return qm_db_column_dup (stmt, 0);
}

/* ------------------------------------------------------------------ */

static void
test_sync_list (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *version = qm_catalog_store_version (store);
  guint n_gpus = 0;
  gboolean synced = TRUE;

  /* Opening synced the built-ins, once. */
  g_assert_cmpstr (version, ==, qm_catalog_version ());
  qm_catalog_gpus (&n_gpus);
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, NULL), ==, n_gpus);
  g_assert_true (qm_catalog_store_sync (store, FALSE, &synced, &error));
  g_assert_no_error (error);
  g_assert_false (synced);
  g_assert_true (qm_catalog_store_sync (store, TRUE, &synced, &error));
  g_assert_true (synced);
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, NULL), ==, n_gpus);

  /* Search ignores ASCII case on both engines, and % is literal. */
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, "h100"), >, 0);
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, "H100"), ==,
                    count (store, QM_CATALOG_KIND_GPU, "h100"));
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, "%"), ==, 0);
  g_assert_cmpuint (count (store, -1, NULL), >, n_gpus);

  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_no_error (error);
  g_assert_true (e->builtin);
  g_assert_false (e->has_override);
  g_assert_cmpint (e->revision, ==, 0);
  g_assert_cmpint (e->override_revision, ==, 0);
  g_assert_cmpfloat (e->price_usd, ==, qm_catalog_gpu (H100)->info.price_usd);
  g_clear_pointer (&e, qm_catalog_entry_free);
  g_assert_null (qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "no-such-gpu", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Hidden built-ins leave the list until shown again. */
  g_assert_true (qm_catalog_store_set_hidden (store, QM_CATALOG_KIND_GPU, H100, TRUE, &error));
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, NULL), ==, n_gpus - 1);
  g_assert_true (qm_catalog_store_set_hidden (store, QM_CATALOG_KIND_GPU, H100, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, NULL), ==, n_gpus);
}

static void
test_user_entries (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cheaper = my_gpu_at (11000);
  gint64 revision = 0;
  guint n_gpus = 0;

  qm_catalog_gpus (&n_gpus);
  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_no_error (error);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_false (e->builtin);
  g_assert_cmpstr (e->name, ==, "Acme X1, \"Turbo\"");
  g_assert_cmpfloat (e->price_usd, ==, 12000);
  g_assert_cmpint (e->revision, ==, 1);
  g_clear_pointer (&e, qm_catalog_entry_free);
  /* After the built-ins, found by search in any case. */
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, NULL), ==, n_gpus + 1);
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, "TURBO"), ==, 1);

  g_assert_false (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_true (qm_catalog_store_update_at (store, QM_CATALOG_KIND_GPU, "acme-x1", cheaper, 1,
                                             &revision, &error));
  g_assert_no_error (error);
  g_assert_cmpint (revision, ==, 2);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_cmpfloat (e->list_price_usd, ==, 11000);
  g_assert_cmpint (e->revision, ==, 2);
  g_clear_pointer (&e, qm_catalog_entry_free);

  /* An override on the user's entry, then cleared. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "acme-x1", 9999.5, &error));
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_true (e->has_override);
  g_assert_cmpfloat (e->price_usd, ==, 9999.5);
  g_clear_pointer (&e, qm_catalog_entry_free);
  g_assert_true (qm_catalog_store_clear_price_override (store, QM_CATALOG_KIND_GPU, "acme-x1", &error));
  g_assert_no_error (error);

  g_assert_true (qm_catalog_store_delete (store, QM_CATALOG_KIND_GPU, "acme-x1", &error));
  g_assert_no_error (error);
  g_assert_null (qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (qm_catalog_store_delete (store, QM_CATALOG_KIND_GPU, H100, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
}

static const char prices_csv[] =
  "kind,id,vendor,name,price_usd,tflops_bf16,memory_gb,bandwidth_tbs,tdp_w\r\n"
  "gpu,acme-x2,Acmé GmbH,\"Acme X2, 8-way\",\"$14,500\",600,128,3.2,750\r\n"
  "gpu," H100 ",,,21000,,,,\r\n";

static void
test_csv_import (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autoptr(GError) error = NULL;
  guint written = 0;

  import = qm_catalog_store_import_csv_preview (store, prices_csv, strlen (prices_csv), "prices.csv",
                                                -1, &error);
  g_assert_no_error (error);
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, 2);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x2", &error);
  g_assert_cmpstr (e->vendor, ==, "Acmé GmbH");
  g_assert_cmpfloat (e->price_usd, ==, 14500);
  g_clear_pointer (&e, qm_catalog_entry_free);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_true (e->has_override);
  g_assert_cmpfloat (e->override_usd, ==, 21000);
  g_assert_cmpint (e->override_revision, ==, 1);
  /* An import is a price change like any other. */
  history = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (history->len, ==, 1);
}

/* Two clients read the same entry; the second to save is refused. */
static void
test_stale_revision (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) mine = qm_test_open_store_at (location);
  g_autoptr(QmStore) theirs = qm_test_open_store_at (location);
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *their_json = my_gpu_at (10500);
  g_autofree char *my_json = my_gpu_at (13000);
  gint64 revision = 0;

  g_assert_true (qm_catalog_store_add (mine, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_no_error (error);

  /* Both read revision 1; they save first. */
  e = qm_catalog_store_get (mine, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_cmpint (e->revision, ==, 1);
  g_clear_pointer (&e, qm_catalog_entry_free);
  g_assert_true (qm_catalog_store_update_at (theirs, QM_CATALOG_KIND_GPU, "acme-x1", their_json, 1,
                                             &revision, &error));
  g_assert_no_error (error);
  g_assert_cmpint (revision, ==, 2);

  g_assert_false (qm_catalog_store_update_at (mine, QM_CATALOG_KIND_GPU, "acme-x1", my_json, 1,
                                              &revision, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
  g_assert_nonnull (strstr (error->message, "acme-x1"));
  g_assert_nonnull (strstr (error->message, "revision 1"));
  g_assert_nonnull (strstr (error->message, "revision 2"));
  g_clear_error (&error);
  /* Nothing was overwritten. */
  e = qm_catalog_store_get (mine, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_cmpfloat (e->price_usd, ==, 10500);
  g_assert_cmpint (e->revision, ==, 2);
  g_clear_pointer (&e, qm_catalog_entry_free);

  /* Price overrides: both saw none (revision 0). */
  g_assert_true (qm_catalog_store_set_price_override_at (theirs, QM_CATALOG_KIND_GPU, H100, 20000, 0,
                                                         &revision, &error));
  g_assert_no_error (error);
  g_assert_cmpint (revision, ==, 1);
  g_assert_false (qm_catalog_store_set_price_override_at (mine, QM_CATALOG_KIND_GPU, H100, 19000, 0,
                                                          &revision, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
  g_assert_nonnull (strstr (error->message, H100));
  g_assert_nonnull (strstr (error->message, "revision 0"));
  g_assert_nonnull (strstr (error->message, "revision 1"));
  g_clear_error (&error);
  g_assert_false (qm_catalog_store_clear_price_override_at (mine, QM_CATALOG_KIND_GPU, H100, 0, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
  g_clear_error (&error);
  e = qm_catalog_store_get (mine, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpfloat (e->override_usd, ==, 20000);
  g_assert_cmpint (e->override_revision, ==, 1);
  g_clear_pointer (&e, qm_catalog_entry_free);

  /* From the current revision it goes through. */
  g_assert_true (qm_catalog_store_set_price_override_at (mine, QM_CATALOG_KIND_GPU, H100, 19000, 1,
                                                         &revision, &error));
  g_assert_no_error (error);
  g_assert_cmpint (revision, ==, 2);
  /* Cleared and set again, the override does not reuse an old revision:
   * a copy read at revision 2 before the clear stays stale. */
  g_assert_true (qm_catalog_store_clear_price_override_at (theirs, QM_CATALOG_KIND_GPU, H100, 2, &error));
  g_assert_true (qm_catalog_store_set_price_override_at (theirs, QM_CATALOG_KIND_GPU, H100, 18000, 0,
                                                         &revision, &error));
  g_assert_no_error (error);
  g_assert_cmpint (revision, >, 2);
  g_assert_false (qm_catalog_store_set_price_override_at (mine, QM_CATALOG_KIND_GPU, H100, 17000, 2,
                                                          NULL, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
}

/* Two clients raise one price by 1, N_RAISES times each, every raise
 * from the revision it read, reading again after a conflict: no raise is
 * lost, and every one is in the history. */
#define N_RAISES 60

typedef struct
{
  const char *location;
  guint       conflicts;
} Raiser;

static gpointer
raise_price (gpointer data)
{
  Raiser *r = data;
  g_autoptr(QmStore) store = qm_test_open_store_at (r->location);

  for (guint done = 0; done < N_RAISES;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(QmCatalogEntry) e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, H100, &error);

      g_assert_no_error (error);
      if (qm_catalog_store_set_price_override_at (store, QM_CATALOG_KIND_GPU, H100, e->price_usd + 1,
                                                  e->override_revision, NULL, &error))
        done++;
      else
        {
          g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
          r->conflicts++;
        }
    }
  return NULL;
}

static void
test_concurrent_raises (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autoptr(GError) error = NULL;
  Raiser raisers[2] = { { location, 0 }, { location, 0 } };
  GThread *threads[2];

  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100, 1000, &error));
  for (guint t = 0; t < 2; t++)
    threads[t] = g_thread_new ("raiser", raise_price, &raisers[t]);
  for (guint t = 0; t < 2; t++)
    g_thread_join (threads[t]);
  g_test_message ("conflicts: %u and %u", raisers[0].conflicts, raisers[1].conflicts);

  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpfloat (e->override_usd, ==, 1000 + 2 * N_RAISES);
  g_assert_cmpint (e->override_revision, ==, 1 + 2 * N_RAISES);
  history = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpuint (history->len, ==, 1 + 2 * N_RAISES);
  for (guint i = 0; i + 1 < history->len; i++)
    {
      const QmCatalogPriceChange *c = history->pdata[i];

      g_assert_cmpfloat (c->new_price_usd, ==, c->old_price_usd + 1);
    }
}

/* Saves that name no revision (the CLI's CSV import, a plan file's
 * entries) from two clients at once: the last one wins, none fails, and
 * the history has every one. */
static gpointer
set_prices (gpointer data)
{
  Raiser *r = data;
  g_autoptr(QmStore) store = qm_test_open_store_at (r->location);

  for (guint i = 0; i < N_RAISES; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100,
                                                          r->conflicts * 10000 + i, &error));
      g_assert_no_error (error);
    }
  return NULL;
}

static void
test_concurrent_any (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autoptr(GError) error = NULL;
  /* conflicts holds each client's price range here. */
  Raiser clients[2] = { { location, 1 }, { location, 2 } };
  GThread *threads[2];

  for (guint t = 0; t < 2; t++)
    threads[t] = g_thread_new ("setter", set_prices, &clients[t]);
  for (guint t = 0; t < 2; t++)
    g_thread_join (threads[t]);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpint (e->override_revision, ==, 2 * N_RAISES);
  history = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpuint (history->len, ==, 2 * N_RAISES);
  g_assert_cmpfloat (((QmCatalogPriceChange *) history->pdata[0])->new_price_usd, ==, e->override_usd);
}

static void
assert_change (const QmCatalogPriceChange *c,
               gboolean                    is_override,
               double                      old_price,
               double                      new_price,
               const char                 *who,
               const char                 *after)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_iso8601 (c->changed_at, NULL);

  g_assert_cmpint (c->is_override, ==, is_override);
  g_assert_cmpint (c->has_old, ==, old_price >= 0);
  if (old_price >= 0)
    g_assert_cmpfloat (c->old_price_usd, ==, old_price);
  g_assert_cmpint (c->has_new, ==, new_price >= 0);
  if (new_price >= 0)
    g_assert_cmpfloat (c->new_price_usd, ==, new_price);
  g_assert_cmpstr (c->who, ==, who);
  /* UTC, ISO 8601, and not before the test began. */
  g_assert_nonnull (when);
  g_assert_true (g_str_has_suffix (c->changed_at, "Z"));
  g_assert_cmpstr (c->changed_at, >=, after);
}

static void
test_history (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autofree char *who = expected_who (location);
  g_autoptr(GDateTime) start = g_date_time_new_now_utc ();
  g_autofree char *after = g_date_time_format (start, "%Y-%m-%dT%H:%M:%S");
  g_autofree char *cheaper = my_gpu_at (11000);
  g_autofree char *renamed = NULL;
  g_autoptr(GPtrArray) h = NULL;
  g_autoptr(GError) error = NULL;

  /* Set, changed, set to the same (no change), removed. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100, 100, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100, 120.25, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100, 120.25, &error));
  g_assert_true (qm_catalog_store_clear_price_override (store, QM_CATALOG_KIND_GPU, H100, &error));
  g_assert_no_error (error);
  h = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (h->len, ==, 3);
  assert_change (h->pdata[0], TRUE, 120.25, -1, who, after);
  assert_change (h->pdata[1], TRUE, 100, 120.25, who, after);
  assert_change (h->pdata[2], TRUE, -1, 100, who, after);
  g_assert_cmpstr (((QmCatalogPriceChange *) h->pdata[0])->changed_at, >=,
                   ((QmCatalogPriceChange *) h->pdata[1])->changed_at);
  g_clear_pointer (&h, g_ptr_array_unref);

  /* A user's entry: added, its price changed, an edit that keeps the
   * price (no change), deleted. */
  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_true (qm_catalog_store_update (store, QM_CATALOG_KIND_GPU, "acme-x1", cheaper, &error));
  g_assert_true (qm_catalog_store_update (store, QM_CATALOG_KIND_GPU, "acme-x1", cheaper, &error));
  g_assert_no_error (error);
  h = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_cmpuint (h->len, ==, 2);
  assert_change (h->pdata[0], FALSE, 12000, 11000, who, after);
  assert_change (h->pdata[1], FALSE, -1, 12000, who, after);
  g_clear_pointer (&h, g_ptr_array_unref);

  /* Renamed, the history follows; deleted, it stays. */
  renamed = g_strdup ("{\"id\": \"acme-x1b\", \"name\": \"Acme X1b\", \"price_usd\": 11000,"
                      " \"tflops\": {\"bf16\": 500}, \"memory_gb\": 96, \"bandwidth_tbs\": 2.4}");
  g_assert_true (qm_catalog_store_update (store, QM_CATALOG_KIND_GPU, "acme-x1", renamed, &error));
  g_assert_true (qm_catalog_store_delete (store, QM_CATALOG_KIND_GPU, "acme-x1b", &error));
  g_assert_no_error (error);
  h = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, "acme-x1b", &error);
  g_assert_cmpuint (h->len, ==, 3);
  assert_change (h->pdata[0], FALSE, 11000, -1, who, after);
  g_clear_pointer (&h, g_ptr_array_unref);

  h = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, "never-priced", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (h->len, ==, 0);
}

/* A database of schema 5 (before revisions and history) keeps its
 * entries and overrides through the upgrade, each at revision 1. */
static void
test_upgrade_from_5 (void)
{
  g_autofree char *path = qm_test_fresh_location (cluster, QM_DB_SQLITE);
  g_autoptr(QmStore) store = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(GPtrArray) h = NULL;
  g_autoptr(GError) error = NULL;
  gint64 revision = 0;
  sqlite3 *db = NULL;

  g_assert_true (qm_store_create_at_version (path, 5, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "INSERT INTO catalog_user (kind, id, vendor, name, price_usd, entry, created, modified)"
                                 " VALUES ('gpu', 'old-gpu', 'Acme', 'Old GPU', 5000,"
                                 "  '{\"id\":\"old-gpu\",\"name\":\"Old GPU\",\"price_usd\":5000,"
                                 "\"tflops\":{\"bf16\":100},\"memory_gb\":40,\"bandwidth_tbs\":1}', 1, 1);"
                                 "INSERT INTO catalog_override (kind, id, price_usd, modified)"
                                 " VALUES ('gpu', '" H100 "', 22000, 1);",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = qm_test_open_store_at (path);
  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "old-gpu", &error);
  g_assert_no_error (error);
  g_assert_cmpint (e->revision, ==, 1);
  g_assert_cmpfloat (e->price_usd, ==, 5000);
  g_clear_pointer (&e, qm_catalog_entry_free);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpfloat (e->override_usd, ==, 22000);
  g_assert_cmpint (e->override_revision, ==, 1);
  h = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpuint (h->len, ==, 0);
  g_clear_pointer (&h, g_ptr_array_unref);

  /* The first change after the upgrade is recorded from the old price. */
  g_assert_true (qm_catalog_store_set_price_override_at (store, QM_CATALOG_KIND_GPU, H100, 21000, 1,
                                                         &revision, &error));
  g_assert_no_error (error);
  g_assert_cmpint (revision, ==, 2);
  h = qm_catalog_store_price_history (store, QM_CATALOG_KIND_GPU, H100, &error);
  g_assert_cmpuint (h->len, ==, 1);
  g_assert_cmpfloat (((QmCatalogPriceChange *) h->pdata[0])->old_price_usd, ==, 22000);
}

/* A role that may only read opens a server whose built-ins are behind
 * this program's catalog: it reads them as they are, and a write is
 * refused by the server, in words. */
static void
test_reader_role (void)
{
  g_autofree char *uri = qm_test_pg_new_database (cluster);
  g_autofree char *dbname = g_strndup (uri + strlen ("postgresql:///"),
                                       strcspn (uri + strlen ("postgresql:///"), "?"));
  g_autofree char *reader_uri = NULL;
  g_autoptr(QmStore) store = qm_test_open_store_at (uri);
  g_autoptr(GError) error = NULL;
  guint n_gpus = 0;

  g_clear_pointer (&store, qm_store_free);
  qm_test_pg_exec (cluster, dbname,
                   "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'qm_catalog_reader')"
                   " THEN CREATE ROLE qm_catalog_reader LOGIN; END IF; END $$;"
                   "GRANT SELECT ON ALL TABLES IN SCHEMA public TO qm_catalog_reader;"
                   "UPDATE meta SET value = '2000.01.1' WHERE key = 'catalog_version'");
  reader_uri = g_strdup_printf ("postgresql:///%s?host=%s&user=qm_catalog_reader", dbname,
                                qm_test_pg_socket_dir (cluster));
  store = qm_test_open_store_at (reader_uri);
  qm_catalog_gpus (&n_gpus);
  g_assert_cmpuint (count (store, QM_CATALOG_KIND_GPU, NULL), ==, n_gpus);
  g_assert_false (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100, 1, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_test_message ("%s", error->message);
}

/* ------------------------------------------------------------------ */
/* db copy                                                             */

/* The user's side of the catalog as text: entries with both prices and
 * revisions, then every price change. */
static char *
catalog_content (const char *location)
{
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = qm_catalog_store_list (store, -1, NULL, QM_CATALOG_LIST_INCLUDE_HIDDEN, &error);
  GString *s = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < list->len; i++)
    {
      const QmCatalogEntry *e = list->pdata[i];
      g_autoptr(GPtrArray) h = NULL;

      if (e->builtin && !e->has_override)
        continue;
      g_string_append_printf (s, "%d %s %d %.17g %d %.17g %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s\n",
                              e->kind, e->id, e->builtin, e->list_price_usd, e->has_override,
                              e->override_usd, e->revision, e->override_revision,
                              e->builtin ? "" : e->json);
      h = qm_catalog_store_price_history (store, e->kind, e->id, &error);
      g_assert_no_error (error);
      for (guint j = 0; j < h->len; j++)
        {
          const QmCatalogPriceChange *c = h->pdata[j];

          g_string_append_printf (s, "  %d %d %.17g %d %.17g %s %s %" G_GINT64_FORMAT "\n",
                                  c->is_override, c->has_old, c->old_price_usd, c->has_new,
                                  c->new_price_usd, c->who, c->changed_at, c->revision);
        }
    }
  return g_string_free (s, FALSE);
}

static void
fill_catalog (const char *location)
{
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(GError) error = NULL;
  g_autofree char *cheaper = my_gpu_at (11000.75);

  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_true (qm_catalog_store_update (store, QM_CATALOG_KIND_GPU, "acme-x1", cheaper, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100, 21000.1, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, H100, 20500, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "acme-x1", 9000, &error));
  g_assert_no_error (error);
}

static void
test_copy_round_trip (void)
{
  g_autofree char *first = qm_test_fresh_location (cluster, QM_DB_SQLITE);
  g_autofree char *uri = qm_test_fresh_location (cluster, QM_DB_POSTGRESQL);
  g_autofree char *back = qm_test_fresh_location (cluster, QM_DB_SQLITE);
  g_autofree char *want = NULL;
  g_autofree char *there = NULL;
  g_autofree char *again = NULL;
  g_auto(Run) r = { 0 };

  fill_catalog (first);
  want = catalog_content (first);
  g_assert_nonnull (strstr (want, "acme-x1"));

  /* The store call: then a second run writes nothing. */
  {
    g_autoptr(QmStore) from = qm_test_open_store_at (first);
    g_autoptr(QmStore) to = qm_test_open_store_at (uri);
    g_autoptr(GError) error = NULL;
    QmCatalogCopyResult res;

    g_assert_true (qm_catalog_store_copy (from, to, &res, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (res.parts[0].n_rows, ==, 1);  /* entries */
    g_assert_cmpuint (res.parts[0].written, ==, 1);
    g_assert_cmpuint (res.parts[1].n_rows, ==, 2);  /* overrides */
    g_assert_cmpuint (res.parts[2].n_rows, ==, 5);  /* price changes */
    g_assert_true (qm_catalog_store_copy (from, to, &res, &error));
    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (res.parts); i++)
      {
        g_assert_cmpuint (res.parts[i].written, ==, 0);
        g_assert_cmpuint (res.parts[i].unchanged, ==, res.parts[i].n_rows);
      }
  }
  there = catalog_content (uri);
  g_assert_cmpstr (there, ==, want);

  /* Back to a new file with the CLI, which checks and says so. */
  run_cli (&r, "db", "copy", uri, back, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "5 price changes: 5 copied, 0 already there"));
  run_clear (&r);
  again = catalog_content (back);
  g_assert_cmpstr (again, ==, want);

  run_cli (&r, "db", "copy", uri, back, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "1 user entries: 0 copied, 1 already there"));
}

/* catalog history KIND ID, as text and JSON, on the server. */
static void
test_cli_history (void)
{
  g_autofree char *uri = qm_test_fresh_location (cluster, QM_DB_POSTGRESQL);
  g_autofree char *who = expected_who (uri);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(Run) r = { 0 };
  JsonObject *o;
  JsonArray *changes;

  fill_catalog (uri);
  run_cli (&r, "--db", uri, "catalog", "history", "gpu", H100, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, who));
  g_assert_nonnull (strstr (r.out, "UTC"));
  g_assert_nonnull (strstr (r.out, "→"));
  run_clear (&r);

  run_cli (&r, "--db", uri, "catalog", "history", "gpu", H100, "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "format_version"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (o, "id"), ==, H100);
  changes = json_object_get_array_member (o, "changes");
  g_assert_cmpuint (json_array_get_length (changes), ==, 2);
  o = json_array_get_object_element (changes, 0);
  g_assert_cmpstr (json_object_get_string_member (o, "price"), ==, "override");
  g_assert_cmpfloat (json_object_get_double_member (o, "old_price_usd"), ==, 21000.1);
  g_assert_cmpfloat (json_object_get_double_member (o, "new_price_usd"), ==, 20500);
  g_assert_cmpstr (json_object_get_string_member (o, "who"), ==, who);
  o = json_array_get_object_element (changes, 1);
  g_assert_true (json_object_get_null_member (o, "old_price_usd"));
  run_clear (&r);

  run_cli (&r, "--db", uri, "catalog", "history", "gpu", "no-such-gpu", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "no-such-gpu"));
  run_clear (&r);
  run_cli (&r, "--db", uri, "catalog", "history", "gpu", NULL);
  g_assert_cmpint (r.status, ==, 2);
}

static void
add_both (const char    *name,
          GTestDataFunc  func)
{
  qm_test_add_both_engines ("catalog-store-pg", name, cluster != NULL, func);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  cluster = qm_test_pg_start_if_available ();

  add_both ("sync-list", test_sync_list);
  add_both ("user-entries", test_user_entries);
  add_both ("csv-import", test_csv_import);
  add_both ("stale-revision", test_stale_revision);
  add_both ("history", test_history);
  add_both ("concurrent-raises", test_concurrent_raises);
  add_both ("concurrent-any", test_concurrent_any);
  g_test_add_func ("/catalog-store-pg/sqlite/upgrade-from-5", test_upgrade_from_5);
  if (cluster != NULL)
    {
      g_test_add_func ("/catalog-store-pg/postgresql/reader-role", test_reader_role);
      g_test_add_func ("/catalog-store-pg/copy-round-trip", test_copy_round_trip);
      g_test_add_func ("/catalog-store-pg/cli-history", test_cli_history);
    }

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
