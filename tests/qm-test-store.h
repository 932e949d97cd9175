/* qm-test-store.h: helpers shared by the store tests and benchmarks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

#include "qm-db.h"
#include "qm-plan-store.h"

G_BEGIN_DECLS

/* G_TEST_OPTION_ISOLATE_DIRS gives each test its own data dir. */
static inline char *
qm_test_db_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "quartermaster", "test.db", NULL);
}

/* The database at @location (a file, or a postgresql:// URI), opened
 * without the daily backup. */
static inline QmStore *
qm_test_open_store_at (const char *location)
{
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (location, QM_STORE_OPEN_NO_BACKUP, &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

/* Imports data/examples/@name into @store; its id. */
static inline gint64
qm_test_import_example (QmStore    *store,
                        const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;
  gint64 id = qm_plan_store_import_file (store, path, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  return id;
}

/* The test's database, opened without the daily backup. */
static inline QmStore *
qm_test_open_store (void)
{
  g_autofree char *path = qm_test_db_path ();

  return qm_test_open_store_at (path);
}

/* Registers @func as /SUITE/sqlite/NAME and, when @on_server (a private
 * cluster is running), as /SUITE/postgresql/NAME; its data is the
 * QmDbEngine it runs on. */
static inline void
qm_test_add_both_engines (const char    *suite,
                          const char    *name,
                          gboolean       on_server,
                          GTestDataFunc  func)
{
  g_autofree char *lite = g_strdup_printf ("/%s/sqlite/%s", suite, name);
  g_autofree char *pg = g_strdup_printf ("/%s/postgresql/%s", suite, name);

  g_test_add_data_func (lite, GINT_TO_POINTER (QM_DB_SQLITE), func);
  if (on_server)
    g_test_add_data_func (pg, GINT_TO_POINTER (QM_DB_POSTGRESQL), func);
}

/* A valid plan file (docs/plan-file.md) with @name on @gpu. */
static inline char *
qm_test_plan_json (const char *name,
                   const char *gpu)
{
  return g_strdup_printf (
    "{\"format\": \"quartermaster-plan\", \"version\": 1, \"name\": \"%s\","
    " \"workload\": {\"mode\": \"pretrain\", \"model\": {\"preset\": \"llama-3.1-70b\"},"
    "  \"tokens_b\": 15000, \"epochs\": 1, \"seq_len\": 8192, \"global_batch\": 2048,"
    "  \"micro_batch\": 1, \"precision\": \"bf16\", \"optimizer\": \"adamw\", \"zero_stage\": 1,"
    "  \"recompute\": \"selective\", \"flash_attention\": true, \"tp\": 8, \"pp\": 4,"
    "  \"cp\": 1, \"ep\": 1, \"mfu\": 0.40},"
    " \"target\": {\"gpus\": 2048},"
    " \"hardware\": {\"gpu\": \"%s\", \"server\": \"dgx-h100\", \"network\": \"ib-ndr-400\","
    "  \"storage\": \"parallel-fs\"},"
    " \"facility\": {\"pue\": 1.25, \"usd_per_kwh\": 0.08, \"rack_kw\": 40, \"rack_units\": 42,"
    "  \"gco2_per_kwh\": 380},"
    " \"pricing\": {\"mode\": \"buy\", \"usd_per_gpu_hour\": 2.5, \"amortization_years\": 4,"
    "  \"currency\": \"USD\"},"
    " \"reliability\": {\"preset\": \"llama3-production\", \"restart_minutes\": 20}}",
    name, gpu);
}

static inline QmSavedPlan *
qm_test_saved_plan (const char *name,
                    const char *customer,
                    double      total_cost)
{
  QmSavedPlan *plan = qm_saved_plan_new ();

  plan->name = g_strdup (name);
  plan->customer = g_strdup (customer);
  plan->quote_ref = g_strdup ("Q-2026-001");
  plan->tags = g_strdup ("pretrain, h100");
  plan->inputs = qm_test_plan_json (name, "h100-sxm-80gb");
  plan->snapshot = g_strdup_printf ("{\"gpus\": 2048, \"train_days\": 31.5,"
                                    " \"cost_usd\": {\"total\": %.2f}}", total_cost);
  plan->model = g_strdup ("llama-3.1-70b");
  plan->gpus = 2048;
  plan->days = 31.5;
  plan->total_cost = total_cost;
  return plan;
}

/* Benchmarks run outside g_test_run(), where G_TEST_OPTION_ISOLATE_DIRS
 * does not apply: they use a temporary folder of their own. */
static inline void
qm_test_remove_tree (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        qm_test_remove_tree (child);
      else
        g_remove (child);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}

G_END_DECLS
