/* bench-catalog-store.c: filtering 5,000 catalog entries (issue #6: the
 * catalog view filters within one 16 ms frame), on SQLite, or with
 * --postgresql on a private PostgreSQL cluster over a Unix socket (issue
 * #23), and importing them from CSV. Prints figures only.
 *
 * The CSV import (preview + commit) on the 2-core build machine (load
 * average about 2), before and after the import read and wrote its rows
 * 300 to a statement, same binary otherwise:
 *
 *                                     before       after
 *   SQLite, 5,000 new entries           526 ms      188 ms
 *   SQLite, 5,027 updates and prices    644 ms      210 ms
 *   PostgreSQL, 5,000 new entries     6,654 ms      538 ms
 *   PostgreSQL, 5,027 updates/prices  3,620 ms      532 ms
 *
 * Each statement to the server is a round trip (qm-db-pg.c sends every
 * one with PQexecParams): one per row and kind of write before, one per
 * 300 rows after.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-test-pg.h"
#include "qm-test-store.h"

#define N_ENTRIES 5000
#define ROUNDS    20

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static void
report (const char *what,
        double     *ms,
        guint       n)
{
  qsort (ms, n, sizeof *ms, compare_doubles);
  g_print ("%-44s median %8.3f ms  max %8.3f ms  (target < 16 ms)\n", what, ms[n / 2], ms[n - 1]);
}

/* Imports @csv, timing the preview and the commit apart. */
static guint
import_csv (QmStore    *store,
            GString    *csv,
            const char *what)
{
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  gint64 t1;
  guint written = 0;

  import = qm_catalog_store_import_csv_preview (store, csv->str, csv->len, "bench.csv", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->errors->len, ==, 0);
  t1 = g_get_monotonic_time ();
  g_assert_true (qm_catalog_store_import_csv_commit (store, import, FALSE, &written, &error));
  g_assert_no_error (error);
  g_print ("CSV import of %u rows, %s: preview %.1f ms + commit %.1f ms = %.1f ms (target < 1000 ms)\n",
           written, what, (t1 - t0) / 1000.0, (g_get_monotonic_time () - t1) / 1000.0,
           (g_get_monotonic_time () - t0) / 1000.0);
  return written;
}

int
main (int argc, char **argv)
{
  g_autofree char *tmp = NULL;
  g_autofree char *path = NULL;
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) csv = g_string_new ("kind,id,vendor,name,price_usd,tflops_bf16,memory_gb,bandwidth_tbs,tdp_w\n");
  g_autoptr(GPtrArray) builtins = NULL;
  g_autoptr(GPtrArray) all = NULL;
  const char *vendors[] = { "Acme", "Globex", "Initech", "Umbrella", "Cyberdyne" };
  const char *needles[] = { "a", "ac", "acme", "acme 12", "h100", "zzz" };
  QmTestPg *cluster = NULL;
  const char *engine = "SQLite";
  double ms[ROUNDS];
  gint64 t0;
  guint written = 0;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tmp = g_dir_make_tmp ("qm-bench-XXXXXX", &error);
  g_assert_no_error (error);
  if (argc > 1 && g_str_equal (argv[1], "--postgresql"))
    {
      cluster = qm_test_pg_start ();
      path = qm_test_pg_new_database (cluster);
      engine = "PostgreSQL";
      g_print ("PostgreSQL: a private cluster over a Unix socket\n");
    }
  else
    path = g_build_filename (tmp, "bench.db", NULL);
  t0 = g_get_monotonic_time ();
  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  g_print ("open a new database (schema + built-in catalog sync): %.1f ms\n",
           (g_get_monotonic_time () - t0) / 1000.0);

  for (guint i = 0; i < N_ENTRIES; i++)
    g_string_append_printf (csv, "gpu,bench-%u,%s,\"%s Accelerator %u, rev \"\"B\"\"\",%u,%u,%u,%.1f,%u\n",
                            i, vendors[i % 5], vendors[i % 5], i, 10000 + i, 100 + i % 900,
                            16 + i % 192, 1 + i % 5 / 2.0, 300 + i % 700);
  written = import_csv (store, csv, "new entries");
  g_assert_cmpuint (written, ==, N_ENTRIES);

  /* The same entries again at other prices (each an update and a price
   * change), and a price override of every built-in GPU. */
  g_string_truncate (csv, 0);
  g_string_append (csv, "kind,id,price_usd\n");
  for (guint i = 0; i < N_ENTRIES; i++)
    g_string_append_printf (csv, "gpu,bench-%u,%u\n", i, 20000 + i);
  builtins = qm_catalog_store_list (store, QM_CATALOG_KIND_GPU, NULL, QM_CATALOG_LIST_INCLUDE_HIDDEN, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < builtins->len; i++)
    {
      const QmCatalogEntry *e = builtins->pdata[i];

      if (e->builtin)
        g_string_append_printf (csv, "gpu,%s,%u\n", e->id, 1000 + i);
    }
  written = import_csv (store, csv, "updates and overrides");
  g_assert_cmpuint (written, >, N_ENTRIES);

  for (guint r = 0; r < ROUNDS; r++)
    {
      g_autoptr(GPtrArray) list = NULL;

      t0 = g_get_monotonic_time ();
      list = qm_catalog_store_list (store, QM_CATALOG_KIND_GPU, NULL, 0, &error);
      ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
      g_assert_cmpuint (list->len, >=, N_ENTRIES);
    }
  {
    g_autofree char *label = g_strdup_printf ("list all GPUs from %s", engine);

    report (label, ms, ROUNDS);
  }

  for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
    {
      g_autofree char *label = NULL;
      guint hits = 0;

      for (guint r = 0; r < ROUNDS; r++)
        {
          g_autoptr(GPtrArray) list = NULL;

          t0 = g_get_monotonic_time ();
          list = qm_catalog_store_list (store, QM_CATALOG_KIND_GPU, needles[k], 0, &error);
          ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
          hits = list->len;
        }
      label = g_strdup_printf ("SQL filter \"%s\" (%u hits)", needles[k], hits);
      report (label, ms, ROUNDS);
    }

  /* What a GtkFilter over the loaded list does on each keystroke. */
  all = qm_catalog_store_list (store, QM_CATALOG_KIND_GPU, NULL, 0, &error);
  for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
    {
      g_autofree char *label = NULL;
      g_autofree char *needle = g_utf8_casefold (needles[k], -1);
      guint hits = 0;

      for (guint r = 0; r < ROUNDS; r++)
        {
          t0 = g_get_monotonic_time ();
          hits = 0;
          for (guint i = 0; i < all->len; i++)
            hits += qm_catalog_entry_matches (all->pdata[i], needle);
          ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
        }
      label = g_strdup_printf ("in-memory filter \"%s\" (%u hits)", needles[k], hits);
      report (label, ms, ROUNDS);
    }
  g_clear_pointer (&store, qm_store_free);
  g_clear_pointer (&cluster, qm_test_pg_stop);
  qm_test_remove_tree (tmp);
  return 0;
}
