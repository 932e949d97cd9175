/* bench-plan-store.c: the plan store with 10,000 saved plans (issue #7);
 * with --postgresql, on a private PostgreSQL cluster over a Unix socket
 * (issue #23: the same budgets).
 *
 * Targets: open + list all < 200 ms, one save < 5 ms, one search keystroke
 * well under a 16 ms frame. Prints figures; asserts nothing about time, so
 * a slow CI machine cannot make it flaky.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "qm-test-pg.h"
#include "qm-test-store.h"

#define N_PLANS 10000
#define ROUNDS  20

static const char *customers[] = { "Acme Corp", "Globex", "Initech", "Umbrella", "Stark Industries",
                                   "Wayne Enterprises", "Hooli", "Pied Piper", "Cyberdyne", "Soylent" };
static const char *models[] = { "llama-3.1-70b", "llama-3.1-405b", "mixtral-8x22b", "deepseek-v3",
                                "qwen2.5-72b", "mistral-7b" };

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
        guint       n,
        double      target)
{
  double sum = 0;

  for (guint i = 0; i < n; i++)
    sum += ms[i];
  qsort (ms, n, sizeof *ms, compare_doubles);
  g_print ("%-40s median %8.3f ms  mean %8.3f ms  max %8.3f ms  (target < %g ms)\n",
           what, ms[n / 2], sum / n, ms[n - 1], target);
}

/* A snapshot about the size of a real estimate JSON (~3 KB). */
static char *
make_snapshot (guint i)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\"gpus\": %u, \"train_days\": %.2f, \"cost_usd\": {\"total\": %u},"
                          " \"bom\": [", 512 + i % 4096, 10 + i % 50 / 3.0, 1000000 + i * 37);
  for (guint b = 0; b < 16; b++)
    g_string_append_printf (s, "%s{\"item\": \"line item %u\", \"catalog_id\": \"h100-sxm-80gb\","
                            " \"qty\": %u, \"unit_usd\": 30000, \"total_usd\": %u, \"source\":"
                            " \"NVIDIA H100 datasheet, price from the reference list\"}",
                            b ? ", " : "", b, b + 1, (b + 1) * 30000);
  g_string_append (s, "], \"assumptions\": [\"MFU given\", \"bf16\"], \"warnings\": []}");
  return g_string_free (s, FALSE);
}

int
main (int argc, char **argv)
{
  g_autofree char *tmp = NULL;
  g_autofree char *path = NULL;
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) plan = NULL;
  QmTestPg *cluster = NULL;
  const char *keystrokes[] = { "a", "ac", "acm", "acme", "acme 7", "llama", "405", "zzz", "stark h100" };
  double ms[ROUNDS * 10];
  gint64 t0;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tmp = g_dir_make_tmp ("qm-bench-XXXXXX", &error);
  g_assert_no_error (error);
  if (argc > 1 && g_str_equal (argv[1], "--postgresql"))
    {
      cluster = qm_test_pg_start ();
      path = qm_test_pg_new_database (cluster);
      g_print ("PostgreSQL: a private cluster over a Unix socket\n");
    }
  else
    path = g_build_filename (tmp, "bench.db", NULL);

  store = qm_store_open (path, &error);
  g_assert_no_error (error);
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < N_PLANS; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s %s quote %u", customers[i % 10], models[i % 6], i);
      g_autoptr(QmSavedPlan) p = qm_test_saved_plan (name, customers[i % 10], 1e6 + i);

      g_free (p->snapshot);
      p->snapshot = make_snapshot (i);
      g_free (p->model);
      p->model = g_strdup (models[i % 6]);
      if (!qm_plan_store_save (store, p, &error))
        g_error ("%s", error->message);
    }
  g_print ("filled %u plans in %.0f ms\n", N_PLANS, (g_get_monotonic_time () - t0) / 1000.0);
  g_clear_pointer (&store, qm_store_free);

  /* Open (integrity check, today's backup already taken, catalog in sync)
   * and list every plan, as the Plans page does at start. */
  for (guint r = 0; r < ROUNDS; r++)
    {
      g_autoptr(GPtrArray) list = NULL;

      t0 = g_get_monotonic_time ();
      store = qm_store_open (path, &error);
      g_assert_no_error (error);
      list = qm_plan_store_list (store, NULL, &error);
      ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
      g_assert_cmpuint (list->len, ==, N_PLANS);
      if (r + 1 < ROUNDS)
        g_clear_pointer (&store, qm_store_free);
    }
  report ("open + list 10,000 plans", ms, ROUNDS, 200);

  /* One autosave of an edited plan, and one new plan. */
  plan = qm_plan_store_load (store, 1, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < ROUNDS * 5; r++)
    {
      g_free (plan->customer);
      plan->customer = g_strdup_printf ("Acme edit %u", r);
      t0 = g_get_monotonic_time ();
      if (!qm_plan_store_save (store, plan, &error))
        g_error ("%s", error->message);
      ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  report ("save (update, autosave)", ms, ROUNDS * 5, 5);
  for (guint r = 0; r < ROUNDS * 5; r++)
    {
      g_autoptr(QmSavedPlan) p = qm_test_saved_plan ("New quote", "Acme", 1);

      g_free (p->snapshot);
      p->snapshot = make_snapshot (r);
      t0 = g_get_monotonic_time ();
      if (!qm_plan_store_save (store, p, &error))
        g_error ("%s", error->message);
      ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  report ("save (new plan)", ms, ROUNDS * 5, 5);

  /* Search as you type. */
  for (guint k = 0; k < G_N_ELEMENTS (keystrokes); k++)
    {
      g_autofree char *label = NULL;
      guint hits = 0;

      for (guint r = 0; r < ROUNDS; r++)
        {
          g_autoptr(GPtrArray) list = NULL;

          t0 = g_get_monotonic_time ();
          list = qm_plan_store_list (store, keystrokes[k], &error);
          ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
          hits = list->len;
        }
      label = g_strdup_printf ("search list \"%s\" (%u hits)", keystrokes[k], hits);
      report (label, ms, ROUNDS, 16);
      for (guint r = 0; r < ROUNDS; r++)
        {
          g_autoptr(GArray) ids = NULL;

          t0 = g_get_monotonic_time ();
          ids = qm_plan_store_search_ids (store, keystrokes[k], &error);
          ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
          g_assert_cmpuint (ids->len, ==, hits);
        }
      g_free (label);
      label = g_strdup_printf ("search ids  \"%s\" (%u hits)", keystrokes[k], hits);
      report (label, ms, ROUNDS, 16);
    }
  g_clear_pointer (&store, qm_store_free);
  g_clear_pointer (&cluster, qm_test_pg_stop);
  qm_test_remove_tree (tmp);
  return 0;
}
