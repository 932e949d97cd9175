/* test-catalog-import-batch.c: a CSV import writes its rows a few hundred
 * to a statement (qm_catalog_store_write_rows()); on both engines that
 * must give the same entries, revisions and price history as writing
 * the same rows one by one through the editor's API, and a row that fails
 * at commit must still roll back everything and name its entry.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

static QmTestPg *cluster;

/* More than one batch of rows (qm-catalog-store-user.c writes 300 to a
 * statement). */
#define N_USER     340
#define N_BUILTINS 5

/* The first @n built-in GPUs' ids. */
static GPtrArray *
builtin_ids (QmStore *store,
             guint    n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = qm_catalog_store_list (store, QM_CATALOG_KIND_GPU, NULL,
                                                     QM_CATALOG_LIST_INCLUDE_HIDDEN, &error);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  g_assert_no_error (error);
  for (guint i = 0; i < list->len && ids->len < n; i++)
    if (((QmCatalogEntry *) list->pdata[i])->builtin)
      g_ptr_array_add (ids, g_strdup (((QmCatalogEntry *) list->pdata[i])->id));
  g_assert_cmpuint (ids->len, ==, n);
  return ids;
}

static QmCatalogImport *
preview (QmStore    *store,
         const char *csv)
{
  g_autoptr(GError) error = NULL;
  QmCatalogImport *import = qm_catalog_store_import_csv_preview (store, csv, strlen (csv), "batch.csv",
                                                                 -1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (import->errors->len, ==, 0);
  return import;
}

static void
import (QmStore    *store,
        const char *csv)
{
  g_autoptr(QmCatalogImport) import = preview (store, csv);
  g_autoptr(GError) error = NULL;
  guint written = 0;

  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, import->rows->len);
}

/* Writes the rows @csv previews one by one, as the editor would. */
static void
write_one_by_one (QmStore    *store,
                  const char *csv)
{
  g_autoptr(QmCatalogImport) import = preview (store, csv);

  for (guint i = 0; i < import->rows->len; i++)
    {
      const QmCsvRowPreview *r = import->rows->pdata[i];
      g_autoptr(GError) error = NULL;

      if (r->action == QM_CSV_ROW_PRICE)
        g_assert_true (qm_catalog_store_set_price_override (store, r->kind, r->id, r->price_usd, &error));
      else if (r->action == QM_CSV_ROW_UPDATE)
        g_assert_true (qm_catalog_store_update (store, r->kind, r->id, r->json, &error));
      else
        g_assert_true (qm_catalog_store_add (store, r->kind, r->json, &error));
      g_assert_no_error (error);
    }
}

/* The same state on two databases: user entries (some changed since),
 * overrides set, changed and cleared. */
static void
set_up (QmStore   *store,
        GPtrArray *builtins)
{
  g_autoptr(GString) csv = g_string_new ("kind,id,vendor,name,price_usd,tflops_bf16,memory_gb,bandwidth_tbs\n");
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < N_USER; i++)
    g_string_append_printf (csv, "gpu,batch-%u,Acme,\"Batch %u, \"\"B\"\"\",%u,%u,%u,2.5\n",
                            i, i, 1000 + i, 100 + i, 16 + i % 100);
  import (store, csv->str);
  for (guint i = 0; i < N_USER; i += 7)
    {
      g_autofree char *id = g_strdup_printf ("batch-%u", i);

      g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, id, 50 + i, &error));
    }
  /* builtins[0]: an override; [1]: one at the price the import sets;
   * [2]: one cleared, so the next starts past its revisions; [3], [4]:
   * none ever. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, builtins->pdata[0], 10, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, builtins->pdata[0], 11, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, builtins->pdata[1], 777, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, builtins->pdata[2], 12, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, builtins->pdata[2], 13, &error));
  g_assert_true (qm_catalog_store_clear_price_override (store, QM_CATALOG_KIND_GPU, builtins->pdata[2], &error));
  g_assert_no_error (error);
}

/* Updates of every user entry (every third at its old price, so with no
 * history row), prices of the built-ins, and new entries. */
static char *
changes_csv (GPtrArray *builtins)
{
  GString *csv = g_string_new ("kind,id,name,price_usd,memory_gb,tflops_bf16,bandwidth_tbs\n");

  for (guint i = 0; i < N_USER; i++)
    g_string_append_printf (csv, "gpu,batch-%u,Batch %u (new),%u,%u,,\n",
                            i, i, i % 3 == 0 ? 1000 + i : 2000 + i, 32 + i % 50);
  for (guint i = 0; i < builtins->len; i++)
    g_string_append_printf (csv, "gpu,%s,,%u,,,\n", (char *) builtins->pdata[i], i == 1 ? 777 : 900 + i);
  for (guint i = 0; i < 5; i++)
    g_string_append_printf (csv, "gpu,batch-new-%u,New %u,%u,80,400,3\n", i, i, 3000 + i);
  return g_string_free (csv, FALSE);
}

static void
assert_same_history (QmStore    *a,
                     QmStore    *b,
                     const char *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ha = qm_catalog_store_price_history (a, QM_CATALOG_KIND_GPU, id, &error);
  g_autoptr(GPtrArray) hb = qm_catalog_store_price_history (b, QM_CATALOG_KIND_GPU, id, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (ha->len, ==, hb->len);
  for (guint i = 0; i < ha->len; i++)
    {
      const QmCatalogPriceChange *x = ha->pdata[i];
      const QmCatalogPriceChange *y = hb->pdata[i];

      g_assert_cmpint (x->is_override, ==, y->is_override);
      g_assert_cmpint (x->has_old, ==, y->has_old);
      g_assert_cmpfloat (x->old_price_usd, ==, y->old_price_usd);
      g_assert_cmpint (x->has_new, ==, y->has_new);
      g_assert_cmpfloat (x->new_price_usd, ==, y->new_price_usd);
      g_assert_cmpint (x->revision, ==, y->revision);
      g_assert_cmpstr (x->who, ==, y->who);
      g_assert_true (g_str_has_suffix (x->changed_at, "Z"));
      if (i > 0)
        g_assert_cmpstr (x->changed_at, <=, ((QmCatalogPriceChange *) ha->pdata[i - 1])->changed_at);
    }
}

static void
test_same_as_one_by_one (gconstpointer data)
{
  QmDbEngine engine = GPOINTER_TO_INT (data);
  g_autofree char *batch_location = qm_test_fresh_location (cluster, engine == QM_DB_POSTGRESQL);
  g_autofree char *single_location = qm_test_fresh_location (cluster, engine == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) batch = qm_test_open_store_at (batch_location);
  g_autoptr(QmStore) single = qm_test_open_store_at (single_location);
  g_autoptr(GPtrArray) builtins = builtin_ids (batch, N_BUILTINS);
  g_autofree char *csv = changes_csv (builtins);
  g_autoptr(GPtrArray) la = NULL;
  g_autoptr(GPtrArray) lb = NULL;
  g_autoptr(GError) error = NULL;
  guint n_histories = 0;

  set_up (batch, builtins);
  set_up (single, builtins);
  import (batch, csv);
  write_one_by_one (single, csv);

  la = qm_catalog_store_list (batch, QM_CATALOG_KIND_GPU, NULL, QM_CATALOG_LIST_INCLUDE_HIDDEN, &error);
  lb = qm_catalog_store_list (single, QM_CATALOG_KIND_GPU, NULL, QM_CATALOG_LIST_INCLUDE_HIDDEN, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (la->len, ==, lb->len);
  for (guint i = 0; i < la->len; i++)
    {
      const QmCatalogEntry *x = la->pdata[i];
      const QmCatalogEntry *y = lb->pdata[i];

      g_assert_cmpstr (x->id, ==, y->id);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->vendor, ==, y->vendor);
      g_assert_cmpstr (x->json, ==, y->json);
      g_assert_cmpint (x->builtin, ==, y->builtin);
      g_assert_cmpint (x->revision, ==, y->revision);
      g_assert_cmpint (x->override_revision, ==, y->override_revision);
      g_assert_cmpint (x->has_override, ==, y->has_override);
      g_assert_cmpfloat (x->override_usd, ==, y->override_usd);
      g_assert_cmpfloat (x->list_price_usd, ==, y->list_price_usd);
      g_assert_cmpfloat (x->price_usd, ==, y->price_usd);
      if (g_str_has_prefix (x->id, "batch-") ||
          g_ptr_array_find_with_equal_func (builtins, x->id, g_str_equal, NULL))
        {
          assert_same_history (batch, single, x->id);
          n_histories++;
        }
    }
  g_assert_cmpuint (n_histories, >=, N_USER + 5);
  /* Revisions moved as the rows say: an update is one more, an override
   * set after a clear starts past the cleared one's. */
  {
    g_autoptr(QmCatalogEntry) e = qm_catalog_store_get (batch, QM_CATALOG_KIND_GPU, "batch-7", &error);
    g_autoptr(QmCatalogEntry) cleared = qm_catalog_store_get (batch, QM_CATALOG_KIND_GPU, builtins->pdata[2], &error);

    g_assert_no_error (error);
    g_assert_cmpint (e->revision, ==, 2);
    g_assert_cmpint (cleared->override_revision, ==, 4);
  }
}

/* An entry deleted between the preview and the commit: the import fails
 * naming it, and writes none of its other rows. */
static void
test_failing_row (gconstpointer data)
{
  g_autofree char *location = qm_test_fresh_location (cluster, GPOINTER_TO_INT (data) == QM_DB_POSTGRESQL);
  g_autoptr(QmStore) store = qm_test_open_store_at (location);
  g_autoptr(GPtrArray) builtins = builtin_ids (store, N_BUILTINS);
  g_autofree char *csv = changes_csv (builtins);
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(QmCatalogEntry) before = NULL;
  g_autoptr(QmCatalogEntry) after = NULL;
  g_autoptr(GError) error = NULL;
  guint written = 7;

  set_up (store, builtins);
  import = preview (store, csv);
  before = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "batch-1", &error);
  g_assert_true (qm_catalog_store_delete (store, QM_CATALOG_KIND_GPU, "batch-320", &error));
  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU,
                                       "{\"id\": \"batch-new-3\", \"name\": \"Taken\", \"price_usd\": 1,"
                                       " \"tflops\": {\"bf16\": 1}, \"memory_gb\": 1, \"bandwidth_tbs\": 1}",
                                       &error));
  g_assert_no_error (error);

  g_assert_false (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_cmpuint (written, ==, 0);
  /* The first row that fails, in the words of a single save. */
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT);
  g_assert_true (g_str_has_prefix (error->message,
                                   "batch.csv: nothing was written: Could not save the gpu \"batch-320\": "
                                   "someone else changed this entry meanwhile"));
  after = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "batch-1", NULL);
  g_assert_cmpint (after->revision, ==, before->revision);
  g_assert_cmpfloat (after->price_usd, ==, before->price_usd);
  g_assert_null (qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "batch-new-0", NULL));
  g_clear_error (&error);

  /* With that row gone, the new entry taken meanwhile is the one. */
  g_ptr_array_remove_index (import->rows, 320);
  g_assert_false (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message,
                                   "batch.csv: nothing was written: Could not save the gpu \"batch-new-3\""));
  g_assert_null (qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "batch-new-0", NULL));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  cluster = qm_test_pg_start_if_available ();
  qm_test_add_both_engines ("catalog-import-batch", "same-as-one-by-one", cluster != NULL,
                            test_same_as_one_by_one);
  qm_test_add_both_engines ("catalog-import-batch", "failing-row", cluster != NULL, test_failing_row);

  status = g_test_run ();
  g_clear_pointer (&cluster, qm_test_pg_stop);
  return status;
}
