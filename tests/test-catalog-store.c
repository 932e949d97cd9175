/* test-catalog-store.c: built-in sync, user entries, price overrides,
 * hiding, and CSV import/export, on a real temporary database.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-test-store.h"
#include "qm-test-util.h"

static guint
count_kind (QmStore           *store,
            int                kind,
            const char        *search,
            QmCatalogListFlags flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = qm_catalog_store_list (store, kind, search, flags, &error);

  g_assert_no_error (error);
  return list->len;
}

static gboolean
has_entry (QmStore    *store,
           const char *id)
{
  g_autoptr(QmCatalogEntry) e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, id, NULL);

  return e != NULL;
}

static void
test_sync (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autofree char *version = qm_catalog_store_version (store);
  g_autoptr(QmCatalogEntry) h100 = NULL;
  g_autoptr(GError) error = NULL;
  QmGpuSpec spec;
  guint n;

  g_assert_cmpstr (version, ==, qm_catalog_version ());
  qm_catalog_gpus (&n);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (count_kind (store, QM_CATALOG_KIND_GPU, NULL, 0), ==, n);
  qm_catalog_servers (&n);
  g_assert_cmpuint (count_kind (store, QM_CATALOG_KIND_SERVER, NULL, 0), ==, n);

  h100 = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error);
  g_assert_no_error (error);
  g_assert_true (h100->builtin);
  g_assert_false (h100->has_override);
  g_assert_cmpfloat (h100->price_usd, ==, qm_catalog_gpu ("h100-sxm-80gb")->info.price_usd);

  /* What comes back out of the database is the datasheet. */
  g_assert_true (qm_catalog_store_resolve (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &spec, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (spec.tflops[QM_PRECISION_BF16], ==, 989);
  g_assert_cmpfloat (spec.memory_gb, ==, 80);
  g_assert_cmpfloat (spec.bandwidth_tbs, ==, 3.35);
  g_assert_cmpfloat (spec.tdp_w, ==, 700);
  g_assert_true (spec.info.builtin);
}

/* Every built-in entry survives struct → JSON → struct → JSON unchanged,
 * so the serialiser and the core parser agree on every key. */
/* The store keeps every field of the built-in entries: storage rent is
 * what a rent quote prices its filesystem with. */
static void
test_builtin_fields_kept (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogEntry) e = qm_catalog_store_get (store, QM_CATALOG_KIND_STORAGE, "parallel-fs", &error);
  QmStorageSpec spec;

  g_assert_no_error (error);
  g_assert_nonnull (e);
  g_assert_true (qm_catalog_entry_parse (e, &spec, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (spec.usd_per_tb_month, >, 0.0);
  g_assert_cmpfloat (spec.usd_per_tb_month, ==, qm_catalog_storage ("parallel-fs")->usd_per_tb_month);
  g_assert_cmpfloat (spec.usd_per_tb, ==, qm_catalog_storage ("parallel-fs")->usd_per_tb);
}

static void
test_override_survives_resync (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autofree char *path = g_strdup (qm_store_path (store));
  double list_price = qm_catalog_gpu ("h100-sxm-80gb")->info.price_usd;
  gboolean synced = FALSE;
  QmGpuSpec spec;

  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb",
                                                      21500, &error));
  g_assert_no_error (error);
  g_assert_true (qm_catalog_store_set_hidden (store, QM_CATALOG_KIND_GPU, "v100-sxm-32gb", TRUE, &error));
  g_assert_no_error (error);

  /* Pretend the database was synced from an older catalog with another
   * list price: the next open re-syncs. */
  g_assert_cmpint (sqlite3_exec (qm_store_db (store),
                                 "UPDATE catalog_builtin SET price_usd = 1 WHERE id = 'h100-sxm-80gb';"
                                 "UPDATE meta SET value = '2000.01.1' WHERE key = 'catalog_version'",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  g_clear_pointer (&store, qm_store_free);
  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);

  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error);
  g_assert_no_error (error);
  /* Both figures: the new list price from the catalog, the user's price on top. */
  g_assert_cmpfloat (e->list_price_usd, ==, list_price);
  g_assert_true (e->has_override);
  g_assert_cmpfloat (e->override_usd, ==, 21500);
  g_assert_cmpfloat (e->price_usd, ==, 21500);
  g_clear_pointer (&e, qm_catalog_entry_free);

  /* Hidden stays hidden. */
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "v100-sxm-32gb", &error);
  g_assert_true (e->hidden);
  g_assert_cmpuint (count_kind (store, QM_CATALOG_KIND_GPU, "v100", 0), ==, 0);
  g_assert_cmpuint (count_kind (store, QM_CATALOG_KIND_GPU, "v100", QM_CATALOG_LIST_INCLUDE_HIDDEN), ==, 1);

  /* The estimate sees the override; a forced sync changes nothing of it. */
  g_assert_true (qm_catalog_store_resolve (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &spec, &error));
  g_assert_cmpfloat (spec.info.price_usd, ==, 21500);
  g_assert_true (qm_catalog_store_sync (store, TRUE, &synced, &error));
  g_assert_true (synced);
  g_assert_true (qm_catalog_store_resolve (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &spec, &error));
  g_assert_cmpfloat (spec.info.price_usd, ==, 21500);

  g_assert_true (qm_catalog_store_clear_price_override (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error));
  g_assert_true (qm_catalog_store_resolve (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &spec, &error));
  g_assert_cmpfloat (spec.info.price_usd, ==, list_price);

  /* A negative price is refused with the value. */
  g_assert_false (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb",
                                                       -5, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "-5"));
}

#define MY_GPU \
  "{\"id\": \"acme-x1\", \"vendor\": \"Acme\", \"name\": \"Acme X1, \\\"Turbo\\\"\"," \
  " \"price_usd\": 12000, \"tflops\": {\"bf16\": 500}, \"memory_gb\": 96," \
  " \"bandwidth_tbs\": 2.4, \"tdp_w\": 600}"

static void
test_user_entries (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;

  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_no_error (error);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_false (e->builtin);
  g_assert_cmpstr (e->name, ==, "Acme X1, \"Turbo\"");
  g_assert_cmpfloat (e->price_usd, ==, 12000);
  g_clear_pointer (&e, qm_catalog_entry_free);

  /* Listed after the built-ins, found by search. */
  g_assert_cmpuint (count_kind (store, QM_CATALOG_KIND_GPU, "acme", 0), ==, 1);
  g_assert_cmpuint (count_kind (store, QM_CATALOG_KIND_GPU, "TURBO", 0), ==, 1);

  /* Same id twice, or a built-in id: refused. */
  g_assert_false (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "acme-x1"));
  g_clear_error (&error);

  /* A bad value is named with its key and value, and nothing is written. */
  g_assert_false (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU,
                                        "{\"id\": \"bad-gpu\", \"name\": \"Bad\", \"tflops\": {\"bf16\": 1},"
                                        " \"memory_gb\": -80, \"bandwidth_tbs\": 1}", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "memory_gb"));
  g_assert_nonnull (strstr (error->message, "-80"));
  g_clear_error (&error);
  g_assert_false (has_entry (store, "bad-gpu"));

  /* Update, with the override shown beside it. */
  g_assert_true (qm_catalog_store_update (store, QM_CATALOG_KIND_GPU, "acme-x1",
                                          "{\"id\": \"acme-x1\", \"name\": \"Acme X1\", \"price_usd\": 11000,"
                                          " \"tflops\": {\"bf16\": 520}, \"memory_gb\": 96, \"bandwidth_tbs\": 2.4}",
                                          &error));
  g_assert_no_error (error);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_cmpfloat (e->list_price_usd, ==, 11000);
  g_clear_pointer (&e, qm_catalog_entry_free);

  /* Built-ins cannot be deleted or edited; user entries can be deleted. */
  g_assert_false (qm_catalog_store_delete (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "hide"));
  g_clear_error (&error);
  g_assert_false (qm_catalog_store_update (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", MY_GPU, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (qm_catalog_store_delete (store, QM_CATALOG_KIND_GPU, "acme-x1", &error));
  g_assert_no_error (error);
  g_assert_false (has_entry (store, "acme-x1"));
}

/* A vendor price list: a new GPU with a comma and quotes in its name, a
 * price for a built-in, UTF-8, a BOM and CRLF. */
static const char good_csv[] =
  "\xef\xbb\xbf" "kind,id,vendor,name,price_usd,tflops_bf16,memory_gb,bandwidth_tbs,tdp_w\r\n"
  "gpu,acme-x2,Acmé GmbH,\"Acme X2, 8-way \"\"Max\"\"\",\"$14,500\",600,128,3.2,750\r\n"
  "gpu,h100-sxm-80gb,,,21000,,,,\r\n"
  "gpu,acme-x3,Acmé GmbH,Acme X3 ☃,9000.50,300,48,1.6,350\r\n";

static void
test_csv_import (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  guint written = 0;

  import = qm_catalog_store_import_csv_preview (store, good_csv, strlen (good_csv), "prices.csv",
                                                -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->n_rows, ==, 3);
  g_assert_cmpuint (import->errors->len, ==, 0);
  g_assert_cmpuint (import->rows->len, ==, 3);
  g_assert_cmpint (((QmCsvRowPreview *) import->rows->pdata[0])->action, ==, QM_CSV_ROW_ADD);
  g_assert_cmpint (((QmCsvRowPreview *) import->rows->pdata[1])->action, ==, QM_CSV_ROW_PRICE);

  /* The preview wrote nothing. */
  g_assert_false (has_entry (store, "acme-x2"));

  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_no_error (error);
  /* Both files hold the same three rows and are read into one store:
   * the second finds the H100 at 21,000 already and writes it no more. */
  g_assert_cmpuint (written + import->unchanged, ==, 3);
  g_assert_cmpuint (written, ==, import->rows->len);

  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x2", &error);
  g_assert_cmpstr (e->name, ==, "Acme X2, 8-way \"Max\"");
  g_assert_cmpstr (e->vendor, ==, "Acmé GmbH");
  g_assert_cmpfloat (e->price_usd, ==, 14500);
  g_clear_pointer (&e, qm_catalog_entry_free);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x3", &error);
  g_assert_cmpstr (e->name, ==, "Acme X3 ☃");
  g_assert_cmpfloat (e->price_usd, ==, 9000.5);
  g_clear_pointer (&e, qm_catalog_entry_free);
  /* The built-in got an override, not a changed datasheet. */
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error);
  g_assert_true (e->builtin);
  g_assert_true (e->has_override);
  g_assert_cmpfloat (e->override_usd, ==, 21000);
  g_assert_cmpfloat (e->list_price_usd, ==, qm_catalog_gpu ("h100-sxm-80gb")->info.price_usd);
}

static const char bad_csv[] =
  "id,name,price_usd,tflops_bf16,memory_gb,bandwidth_tbs\n"
  "ok-1,Fine One,100,10,16,1\n"
  "bad-1,Negative memory,100,10,-16,1\n"
  "ok-2,Fine Two,200,20,32,2\n"
  "bad-2,Words for a number,eighty,10,16,1\n"
  ",No id,1,1,1,1\n"
  "ok-1,Twice,1,1,1,1\n"
  "bad-4,\"Unquoted, comma\",1,1,1,1,extra\n";

static void
test_csv_bad_rows (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autofree char *described = NULL;
  guint written = 99;
  QmCsvRowError *e;

  import = qm_catalog_store_import_csv_preview (store, bad_csv, strlen (bad_csv), "bad.csv",
                                                QM_CATALOG_KIND_GPU, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->n_rows, ==, 7);
  g_assert_cmpuint (import->rows->len, ==, 2);
  g_assert_cmpuint (import->errors->len, ==, 5);

  /* Every bad row, with its row, column, problem and value. */
  e = import->errors->pdata[0];
  g_assert_cmpuint (e->row, ==, 3);
  g_assert_cmpstr (e->column, ==, "memory_gb");
  g_assert_cmpstr (e->value, ==, "-16");
  g_assert_nonnull (strstr (e->problem, "> 0"));
  e = import->errors->pdata[1];
  g_assert_cmpuint (e->row, ==, 5);
  g_assert_cmpstr (e->column, ==, "price_usd");
  g_assert_cmpstr (e->value, ==, "eighty");
  e = import->errors->pdata[2];
  g_assert_cmpuint (e->row, ==, 6);
  g_assert_cmpstr (e->column, ==, "id");
  e = import->errors->pdata[3];
  g_assert_cmpuint (e->row, ==, 7);
  g_assert_nonnull (strstr (e->problem, "twice"));
  e = import->errors->pdata[4];
  g_assert_cmpuint (e->row, ==, 8);
  g_assert_nonnull (strstr (e->problem, "quotes"));

  described = qm_catalog_import_describe (import);
  g_assert_nonnull (strstr (described, "bad.csv: row 3, column memory_gb: "));
  g_assert_nonnull (strstr (described, "(got \"eighty\")"));

  /* Strict: nothing written, and the error lists every bad row. */
  g_assert_false (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_cmpuint (written, ==, 0);
  g_assert_nonnull (strstr (error->message, "5 of 7 rows"));
  g_assert_nonnull (strstr (error->message, "row 3"));
  g_assert_nonnull (strstr (error->message, "row 8"));
  g_clear_error (&error);
  g_assert_false (has_entry (store, "ok-1"));

  /* --skip-invalid: the good rows go in, in one transaction. */
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, TRUE, &written, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, 2);
  g_assert_true (has_entry (store, "ok-1"));
  g_assert_true (has_entry (store, "ok-2"));
  g_assert_false (has_entry (store, "bad-1"));
}

static void
test_csv_file_errors (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  QmCatalogImport *import;

  import = qm_catalog_store_import_csv_preview (store, "name,price_usd\nx,1\n", 18, "noid.csv", 0, &error);
  g_assert_null (import);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "noid.csv"));
  g_assert_nonnull (strstr (error->message, "id column"));
  g_clear_error (&error);

  import = qm_catalog_store_import_csv_preview (store, "id,name\nx,\"open\n", 15, "quote.csv", 0, &error);
  g_assert_null (import);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "quote.csv: line 2"));
}

static void
test_csv_export_round_trip (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autofree char *csv = NULL;
  gsize len = 0;
  guint n_gpus;

  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "a100-sxm-80gb", 9999, &error));
  csv = qm_catalog_store_export_csv (store, QM_CATALOG_KIND_GPU, NULL, 0, &len, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (csv, "kind,id,vendor,name,price_usd,source,as_of,list_price_usd"));
  g_assert_nonnull (strstr (csv, "\"Acme X1, \"\"Turbo\"\"\""));
  g_assert_nonnull (strstr (csv, ",9999,"));

  /* It reads back clean: the user's GPU as an update; the built-ins'
   * prices are what the store has already, so nothing is written for
   * them (issue #33: a round trip pinned every list price as an
   * override). */
  import = qm_catalog_store_import_csv_preview (store, csv, len, "export.csv", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->errors->len, ==, 0);
  g_assert_cmpuint (import->warnings->len, ==, 0);
  n_gpus = count_kind (store, QM_CATALOG_KIND_GPU, NULL, 0);
  g_assert_cmpuint (import->rows->len, ==, 1);
  g_assert_cmpuint (import->unchanged, ==, n_gpus - 1);
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&import, qm_catalog_import_free);

  /* Into a fresh store: the override comes along, the list prices stay
   * list prices. */
  {
    g_autofree char *other = g_build_filename (g_get_user_data_dir (), "fresh.db", NULL);
    g_autoptr(QmStore) fresh = qm_test_open_store_at (other);
    g_autoptr(QmCatalogEntry) a100 = NULL;
    g_autoptr(QmCatalogEntry) h100 = NULL;

    import = qm_catalog_store_import_csv_preview (fresh, csv, len, "export.csv", -1, &error);
    g_assert_no_error (error);
    /* The user's GPU is added, the A100's override set; nothing else. */
    g_assert_cmpuint (import->rows->len, ==, 2);
    g_assert_true (qm_catalog_store_import_csv_commit (fresh, import, FALSE, NULL, &error));
    g_assert_no_error (error);
    g_clear_pointer (&import, qm_catalog_import_free);
    a100 = qm_catalog_store_get (fresh, QM_CATALOG_KIND_GPU, "a100-sxm-80gb", &error);
    h100 = qm_catalog_store_get (fresh, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error);
    g_assert_no_error (error);
    g_assert_true (a100->has_override);
    g_assert_cmpfloat (a100->price_usd, ==, 9999);
    g_assert_false (h100->has_override);
  }

  /* And the whole catalog exports too. */
  g_clear_pointer (&csv, g_free);
  csv = qm_catalog_store_export_csv (store, -1, NULL, QM_CATALOG_LIST_INCLUDE_HIDDEN, &len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (csv, "\r\nserver,dgx-h100,"));
  g_assert_nonnull (strstr (csv, "\r\nmodel,llama-3.1-70b,"));
}

/* A vendor name that a spreadsheet would run as a formula leaves the
 * export as text (a single quote, quoted) and reads back unchanged. */
static void
test_csv_export_formula (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autofree char *csv = NULL;
  const char *row = "kind,id,vendor,name,price_usd,tflops_bf16,memory_gb,bandwidth_tbs,tdp_w\n"
                    "gpu,evil-1,@Evil,\"=HYPERLINK(\"\"http://x\"\")\",100,10,16,1,300\n";
  gsize len = 0;

  import = qm_catalog_store_import_csv_preview (store, row, strlen (row), "evil.csv", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->errors->len, ==, 0);
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&import, qm_catalog_import_free);

  csv = qm_catalog_store_export_csv (store, QM_CATALOG_KIND_GPU, NULL, 0, &len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (csv, "\r\ngpu,evil-1,\"'@Evil\",\"'=HYPERLINK(\"\"http://x\"\")\","));

  import = qm_catalog_store_import_csv_preview (store, csv, len, "export.csv", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->errors->len, ==, 0);
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, NULL, &error));
  g_assert_no_error (error);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "evil-1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (e->name, ==, "=HYPERLINK(\"http://x\")");
  g_assert_cmpstr (e->vendor, ==, "@Evil");
}

/* Every field of a kind has its CSV column, so that a storage price list
 * can carry its rent per TB-month both ways. */
static void
test_csv_every_field (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autofree char *csv = NULL;
  const char *row = "kind,id,name,type,usd_per_tb,usd_per_tb_month\n"
                    "storage,our-fs,Our filesystem,parallel-fs,350,99.5\n";
  QmStorageSpec spec;
  gsize len = 0;

  import = qm_catalog_store_import_csv_preview (store, row, strlen (row), "fs.csv", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->errors->len, ==, 0);
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, NULL, &error));
  g_assert_no_error (error);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_STORAGE, "our-fs", &error);
  g_assert_no_error (error);
  g_assert_true (qm_catalog_entry_parse (e, &spec, &error));
  g_assert_cmpfloat (spec.usd_per_tb_month, ==, 99.5);
  g_assert_cmpstr (spec.kind, ==, "parallel-fs");

  csv = qm_catalog_store_export_csv (store, QM_CATALOG_KIND_STORAGE, NULL, 0, &len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (csv, ",usd_per_tb_month"));
  g_assert_nonnull (strstr (csv, ",99.5"));
  /* The built-in filesystem's rent, too. */
  g_assert_nonnull (strstr (csv, "\r\nstorage,parallel-fs,"));

  /* And the GPU's precisions are columns of their own. */
  g_clear_pointer (&csv, g_free);
  csv = qm_catalog_store_export_csv (store, QM_CATALOG_KIND_GPU, NULL, 0, &len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (csv, ",tflops_bf16,"));
  g_assert_nonnull (strstr (csv, ",mamf_fraction"));
}

/* A bought item's lead time and support rate are kept by the store, go
 * out to CSV and come back; a bad one is refused, naming the field. */
static void
test_lead_and_support (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autofree char *csv = NULL;
  const char *server = "{\"id\": \"acme-8x\", \"name\": \"Acme 8x\", \"gpus\": 8, \"rack_units\": 8,"
                       " \"power_max_w\": 10200, \"price_usd\": 250000, \"lead_weeks\": 10,"
                       " \"support_rate\": 0.09}";
  QmServerSpec spec;
  gsize len = 0;

  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_SERVER, server, &error));
  g_assert_no_error (error);
  g_clear_pointer (&store, qm_store_free);
  store = qm_test_open_store ();
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_SERVER, "acme-8x", &error);
  g_assert_no_error (error);
  g_assert_true (qm_catalog_entry_parse (e, &spec, &error));
  g_assert_cmpfloat (spec.info.lead_weeks, ==, 10);
  g_assert_cmpfloat (spec.info.support_rate, ==, 0.09);

  csv = qm_catalog_store_export_csv (store, QM_CATALOG_KIND_SERVER, NULL, 0, &len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (csv, ",lead_weeks,support_rate"));
  g_assert_nonnull (strstr (csv, ",10,0.09"));
  g_clear_pointer (&csv, g_free);

  /* From CSV, and a support rate above 1 refused by field and row. */
  csv = g_strdup ("kind,id,name,gpus,rack_units,power_max_w,lead_weeks,support_rate\n"
                  "server,acme-4x,Acme 4x,4,4,5000,16,0.08\n"
                  "server,acme-2x,Acme 2x,2,2,3000,16,8\n");
  import = qm_catalog_store_import_csv_preview (store, csv, strlen (csv), "servers.csv", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->errors->len, ==, 1);
  {
    g_autofree char *text = qm_catalog_import_describe (import);

    g_test_message ("%s", text);
    g_assert_nonnull (strstr (text, "support_rate"));
    g_assert_nonnull (strstr (text, "servers.csv: row 3"));
  }
}

/* A price list as German Excel saves it: ';' between cells, decimal
 * commas and '.' grouping thousands, CRLF, the column titles the app
 * shows ("Price (USD)", "Memory (GB)"), in Windows-1252 (plain "CSV")
 * or UTF-8 with a BOM ("CSV UTF-8"). */
static void
check_german_excel (const char *fixture)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autofree char *path = qm_test_source_path (fixture);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(QmCatalogEntry) e = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o;
  gsize len = 0;
  guint written = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  import = qm_catalog_store_import_csv_preview (store, data, len, "de.csv", QM_CATALOG_KIND_GPU, &error);
  g_assert_no_error (error);
  g_assert_cmpint (import->dialect.separator, ==, ';');
  g_assert_cmpint (import->dialect.decimal_mark, ==, ',');
  g_assert_cmpuint (import->errors->len, ==, 0);
  g_assert_cmpuint (import->warnings->len, ==, 0);
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_no_error (error);
  /* Both files hold the same three rows and are read into one store:
   * the second finds the H100 at 21,000 already and writes it no more. */
  g_assert_cmpuint (written + import->unchanged, ==, 3);
  g_assert_cmpuint (written, ==, import->rows->len);

  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-de1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (e->vendor, ==, "Müller Rechentechnik");
  g_assert_cmpstr (e->name, ==, "Müller X1 „Turbo“");
  g_assert_cmpfloat (e->price_usd, ==, 14500.5);
  root = json_from_string (e->json, &error);
  g_assert_no_error (error);
  o = json_node_get_object (root);
  g_assert_cmpfloat (json_object_get_double_member (o, "memory_gb"), ==, 80);
  g_assert_cmpfloat (json_object_get_double_member (o, "bandwidth_tbs"), ==, 3.35);
  g_assert_cmpfloat (json_object_get_double_member (o, "tdp_w"), ==, 700);
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (o, "tflops"), "bf16"),
                     ==, 989.5);
  g_clear_pointer (&e, qm_catalog_entry_free);

  /* "21.000" groups thousands in a decimal-comma file. */
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", &error);
  g_assert_true (e->has_override);
  g_assert_cmpfloat (e->override_usd, ==, 21000);
  g_clear_pointer (&e, qm_catalog_entry_free);
  e = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-de2", &error);
  g_assert_cmpfloat (e->price_usd, ==, 9000.5);
}

static void
test_csv_german_excel (void)
{
  check_german_excel ("tests/data/catalog-de-excel-1252.csv");
  check_german_excel ("tests/data/catalog-de-excel-utf8-bom.csv");
}

/* A header without an id names the file once, what the header reads as
 * split, the separator used and the names an id column may have. */
static void
test_csv_header_error (void)
{
  static const char de[] = "Name;Hersteller;Preis\r\nX;Acme;1,5\r\n";
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  QmCatalogImport *import;

  import = qm_catalog_store_import_csv_preview (store, de, strlen (de), "de.csv", 0, &error);
  g_assert_null (import);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "de.csv, row 1: "));
  g_assert_null (strstr (error->message + 1, "de.csv"));
  g_assert_nonnull (strstr (error->message, "Name;Hersteller;Preis"));
  g_assert_nonnull (strstr (error->message, "semicolon"));
  g_assert_nonnull (strstr (error->message, "id, ID"));
}

/* A number in the other convention is refused, and the error says how
 * the file was read. */
static void
test_csv_decimal_hint (void)
{
  static const char de[] = "id;name;price_usd;tflops_bf16;memory_gb;bandwidth_tbs\r\n"
                           "acme-a;A;1.000,5;100;80;3,35\r\n"
                           "acme-b;B;2000;100;80;1.5\r\n";
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  QmCsvRowError *e;

  import = qm_catalog_store_import_csv_preview (store, de, strlen (de), "de.csv", QM_CATALOG_KIND_GPU, &error);
  g_assert_no_error (error);
  g_assert_cmpint (import->dialect.decimal_mark, ==, ',');
  g_assert_cmpuint (import->rows->len, ==, 1);
  g_assert_cmpfloat (((QmCsvRowPreview *) import->rows->pdata[0])->price_usd, ==, 1000.5);
  g_assert_cmpuint (import->errors->len, ==, 1);
  e = import->errors->pdata[0];
  g_assert_cmpuint (e->row, ==, 3);
  g_assert_cmpstr (e->column, ==, "bandwidth_tbs");
  g_assert_cmpstr (e->value, ==, "1.5");
  g_assert_nonnull (strstr (e->problem, "decimal commas"));
}

/* A store of its own at @name in the test's data dir. */
static QmStore *
open_store_named (const char *name)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), name, NULL);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);

  g_assert_no_error (error);
  return store;
}

/* Export in either convention reads back as it was: the C one, and the
 * one of a decimal-comma locale with Excel's "sep=;" line. */
static void
test_csv_dialect_round_trip (void)
{
  const QmCsvDialect dialects[] = { QM_CSV_DIALECT_C, { ';', ',', TRUE, "UTF-8" } };

  for (guint d = 0; d < G_N_ELEMENTS (dialects); d++)
    {
      g_autofree char *from = g_strdup_printf ("from-%u.db", d);
      g_autofree char *to = g_strdup_printf ("to-%u.db", d);
      g_autoptr(QmStore) store = open_store_named (from);
      g_autoptr(QmStore) other = open_store_named (to);
      g_autoptr(GError) error = NULL;
      g_autoptr(QmCatalogImport) import = NULL;
      g_autoptr(QmCatalogEntry) a = NULL;
      g_autoptr(QmCatalogEntry) b = NULL;
      g_autofree char *csv = NULL;
      gsize len = 0;

      g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, MY_GPU, &error));
      g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "a100-sxm-80gb",
                                                          12345.75, &error));
      csv = qm_catalog_store_export_csv_dialect (store, QM_CATALOG_KIND_GPU, NULL, 0, &dialects[d], &len,
                                                 &error);
      g_assert_no_error (error);
      if (dialects[d].sep_line)
        {
          g_assert_true (g_str_has_prefix (csv, "sep=;\r\nkind;id;vendor;name;price_usd;"));
          g_assert_nonnull (strstr (csv, ";12345,75;"));
        }
      else
        g_assert_nonnull (strstr (csv, ",12345.75,"));

      import = qm_catalog_store_import_csv_preview (other, csv, len, "export.csv", -1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (import->dialect.separator, ==, dialects[d].separator);
      g_assert_cmpint (import->dialect.decimal_mark, ==, dialects[d].decimal_mark);
      g_assert_cmpuint (import->errors->len, ==, 0);
      g_assert_cmpuint (import->warnings->len, ==, 0);
      g_assert_true (qm_catalog_store_import_csv_commit (other, import, FALSE, NULL, &error));
      g_assert_no_error (error);

      a = qm_catalog_store_get (store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
      b = qm_catalog_store_get (other, QM_CATALOG_KIND_GPU, "acme-x1", &error);
      g_assert_no_error (error);
      g_assert_cmpstr (a->json, ==, b->json);
      g_clear_pointer (&b, qm_catalog_entry_free);
      b = qm_catalog_store_get (other, QM_CATALOG_KIND_GPU, "a100-sxm-80gb", &error);
      g_assert_cmpfloat (b->override_usd, ==, 12345.75);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/catalog-store/sync", test_sync);
  g_test_add_func ("/catalog-store/lead-and-support", test_lead_and_support);
  g_test_add_func ("/catalog-store/builtin-fields-kept", test_builtin_fields_kept);
  g_test_add_func ("/catalog-store/override-survives-resync", test_override_survives_resync);
  g_test_add_func ("/catalog-store/user-entries", test_user_entries);
  g_test_add_func ("/catalog-store/csv-import", test_csv_import);
  g_test_add_func ("/catalog-store/csv-bad-rows", test_csv_bad_rows);
  g_test_add_func ("/catalog-store/csv-file-errors", test_csv_file_errors);
  g_test_add_func ("/catalog-store/csv-export-round-trip", test_csv_export_round_trip);
  g_test_add_func ("/catalog-store/csv-every-field", test_csv_every_field);
  g_test_add_func ("/catalog-store/csv-export-formula", test_csv_export_formula);
  g_test_add_func ("/catalog-store/csv-german-excel", test_csv_german_excel);
  g_test_add_func ("/catalog-store/csv-header-error", test_csv_header_error);
  g_test_add_func ("/catalog-store/csv-decimal-hint", test_csv_decimal_hint);
  g_test_add_func ("/catalog-store/csv-dialect-round-trip", test_csv_dialect_round_trip);
  return g_test_run ();
}
