/* test-plan-store.c: saving, listing, searching, duplicating, renaming,
 * the trash, plan files, and "today's catalog would change the numbers".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib/gstdio.h>

#include "qm-catalog-store.h"
#include "qm-estimate.h"
#include "qm-estimate-json.h"
#include "qm-plan-store-private.h"
#include "qm-test-store.h"

static gint64
save_new (QmStore    *store,
          const char *name,
          const char *customer)
{
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, customer, 1.0e8);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpint (plan->id, >, 0);
  return plan->id;
}

static void
test_save_load (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Acme 70B", "Acme Corp", 1.25e8);
  g_autoptr(QmSavedPlan) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *snapshot = g_strdup (plan->snapshot);
  gint64 first_modified;

  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpint (plan->created, >, 0);
  g_assert_cmpint (plan->modified, ==, plan->created);
  g_assert_cmpstr (plan->catalog_version, ==, qm_catalog_version ());
  g_assert_nonnull (strstr (plan->prices, "h100-sxm-80gb"));
  first_modified = plan->modified;

  loaded = qm_plan_store_load (store, plan->id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loaded->name, ==, "Acme 70B");
  g_assert_cmpstr (loaded->customer, ==, "Acme Corp");
  g_assert_cmpstr (loaded->quote_ref, ==, "Q-2026-001");
  g_assert_cmpstr (loaded->snapshot, ==, snapshot);   /* verbatim */
  g_assert_cmpuint (loaded->gpus, ==, 2048);
  g_assert_cmpfloat (loaded->total_cost, ==, 1.25e8);
  /* The file's name and customer follow the columns. */
  g_assert_nonnull (strstr (loaded->inputs, "\"name\":\"Acme 70B\""));
  g_assert_nonnull (strstr (loaded->inputs, "\"customer\":\"Acme Corp\""));

  /* An update touches modified, keeps created (the store's clock never
   * gives one time twice: no sleep needed). */
  g_free (loaded->customer);
  loaded->customer = g_strdup ("Acme Holdings");
  g_assert_true (qm_plan_store_save (store, loaded, &error));
  g_assert_no_error (error);
  g_assert_cmpint (loaded->created, ==, plan->created);
  g_assert_cmpint (loaded->modified, >, first_modified);
  g_assert_cmpuint (qm_plan_store_count (store), ==, 1);

  /* Bad input is refused before anything is written. */
  g_free (loaded->inputs);
  loaded->inputs = g_strdup ("{not json");
  g_assert_false (qm_plan_store_save (store, loaded, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "inputs"));
  g_clear_error (&error);
  g_assert_null (qm_plan_store_load (store, 999, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
}

static guint
list_len (QmStore    *store,
          const char *search)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = qm_plan_store_list (store, search, &error);

  g_assert_no_error (error);
  return list->len;
}

static void
test_list_search (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(QmSavedPlan) tagged = qm_test_saved_plan ("Zürich inference", "École Polytechnique", 5e6);
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GError) error = NULL;

  save_new (store, "Acme 70B", "Acme Corp");
  save_new (store, "Globex 405B", "Globex");
  g_free (tagged->tags);
  tagged->tags = g_strdup ("inference, 100%_sure");
  g_free (tagged->model);
  tagged->model = g_strdup ("mixtral-8x7b");
  g_assert_true (qm_plan_store_save (store, tagged, &error));

  list = qm_plan_store_list (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list->len, ==, 3);
  /* Newest first. */
  g_assert_cmpstr (((QmPlanSummary *) list->pdata[0])->name, ==, "Zürich inference");

  g_assert_cmpuint (list_len (store, "acme"), ==, 1);            /* name, any case */
  g_assert_cmpuint (list_len (store, "GLOBEX"), ==, 1);          /* customer */
  g_assert_cmpuint (list_len (store, "mixtral"), ==, 1);         /* model */
  g_assert_cmpuint (list_len (store, "llama"), ==, 2);
  g_assert_cmpuint (list_len (store, "h100"), ==, 2);            /* tags */
  g_assert_cmpuint (list_len (store, "école"), ==, 1);           /* Unicode case */
  g_assert_cmpuint (list_len (store, "ZÜRICH"), ==, 1);
  g_assert_cmpuint (list_len (store, "acme 70b"), ==, 1);        /* every word */
  g_assert_cmpuint (list_len (store, "acme globex"), ==, 0);
  g_assert_cmpuint (list_len (store, "100%_"), ==, 1);           /* no LIKE wildcards */
  g_assert_cmpuint (list_len (store, "%"), ==, 1);
  g_assert_cmpuint (list_len (store, "q-2026"), ==, 3);          /* quote reference */
  {
    g_autoptr(GArray) ids = qm_plan_store_search_ids (store, "ACME", &error);

    g_assert_no_error (error);
    g_assert_cmpuint (ids->len, ==, 1);
  }

  g_assert_cmpint (qm_plan_store_find (store, "Globex 405B", &error), >, 0);
  g_assert_cmpint (qm_plan_store_find (store, "nope", &error), ==, 0);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "nope"));
}

static void
test_duplicate_rename_trash (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) a = NULL;
  g_autoptr(QmSavedPlan) b = NULL;
  g_autoptr(GPtrArray) trash = NULL;
  g_autofree char *path = g_strdup (qm_store_path (store));
  gint64 id = save_new (store, "Acme 70B", "Acme Corp");
  gint64 copy;

  copy = qm_plan_store_duplicate (store, id, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (copy, >, id);
  a = qm_plan_store_load (store, id, &error);
  b = qm_plan_store_load (store, copy, &error);
  g_assert_cmpstr (b->name, ==, "Acme 70B (copy)");
  g_assert_cmpstr (b->snapshot, ==, a->snapshot);
  g_assert_cmpstr (b->prices, ==, a->prices);
  g_assert_nonnull (strstr (b->inputs, "Acme 70B (copy)"));

  g_assert_true (qm_plan_store_rename (store, copy, "  Acme 70B, rent  ", &error));
  g_assert_no_error (error);
  g_clear_pointer (&b, qm_saved_plan_free);
  b = qm_plan_store_load (store, copy, &error);
  g_assert_cmpstr (b->name, ==, "Acme 70B, rent");
  g_assert_nonnull (strstr (b->inputs, "\"name\":\"Acme 70B, rent\""));
  g_assert_cmpuint (list_len (store, "rent"), ==, 1);
  g_assert_false (qm_plan_store_rename (store, copy, "   ", &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);

  /* Delete goes to the trash; undo brings it back. */
  g_assert_true (qm_plan_store_trash (store, id, &error));
  g_assert_cmpuint (list_len (store, NULL), ==, 1);
  trash = qm_plan_store_list_trash (store, &error);
  g_assert_cmpuint (trash->len, ==, 1);
  g_assert_true (qm_plan_store_restore (store, id, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (list_len (store, NULL), ==, 2);

  /* Trashed plans last until the store closes. */
  g_assert_true (qm_plan_store_trash (store, id, &error));
  g_clear_pointer (&store, qm_store_free);
  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (list_len (store, NULL), ==, 1);
  g_assert_false (qm_plan_store_restore (store, id, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
}

static void
test_catalog_changed (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(QmSavedPlan) plan = NULL;
  g_autofree char *snapshot = NULL;
  gint64 id = save_new (store, "Acme 70B", "Acme Corp");

  g_assert_false (qm_plan_store_catalog_changed (store, id, &changes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 0);
  g_clear_pointer (&changes, g_ptr_array_unref);

  /* Issue #35 item 5: a price the plan does not use changes nothing. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "a100-sxm-80gb",
                                                      9999, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_SERVER, "dgx-a100",
                                                      99999, &error));
  g_assert_false (qm_plan_store_catalog_changed (store, id, &changes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 0);
  g_clear_pointer (&changes, g_ptr_array_unref);

  /* A new price for the GPU it uses: the plan says so, and keeps its snapshot. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb",
                                                      12345, &error));
  g_assert_true (qm_plan_store_catalog_changed (store, id, &changes, &error));
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_nonnull (strstr (changes->pdata[0], "h100-sxm-80gb"));
  g_assert_nonnull (strstr (changes->pdata[0], "$12,345 today"));
  g_clear_pointer (&changes, g_ptr_array_unref);

  /* Editing the customer keeps the old snapshot, so still "changed". */
  plan = qm_plan_store_load (store, id, &error);
  snapshot = g_strdup (plan->snapshot);
  g_free (plan->customer);
  plan->customer = g_strdup ("Acme Holdings");
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_true (qm_plan_store_catalog_changed (store, id, NULL, &error));
  g_assert_cmpstr (plan->snapshot, ==, snapshot);

  /* Recomputing (a new snapshot) records today's prices. */
  g_free (plan->snapshot);
  plan->snapshot = g_strdup ("{\"cost_usd\": {\"total\": 1}}");
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_false (qm_plan_store_catalog_changed (store, id, NULL, &error));
  g_assert_no_error (error);
}

/* Saves @inputs as the plan view does: read with this store's catalog,
 * estimated, and the estimate kept as the snapshot. @id 0 saves a new
 * plan; else it recomputes the saved one (Recompute: today's catalog,
 * recorded even when the figures come out the same). */
static gint64
save_estimated (QmStore    *store,
                gint64      id,
                const char *inputs)
{
  g_autoptr(QmSavedPlan) sp = id > 0 ? qm_plan_store_load (store, id, NULL) : qm_saved_plan_new ();
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autoptr(GError) error = NULL;
  QmPlan plan;

  g_assert_true (qm_plan_store_read_plan (store, inputs, &plan, NULL, &error));
  g_assert_no_error (error);
  qm_estimate (&plan, e);
  g_free (sp->inputs);
  sp->inputs = qm_plan_to_data (&plan, NULL);
  g_free (sp->snapshot);
  sp->snapshot = qm_estimate_to_json (&plan, e, NULL);
  g_free (sp->name);
  sp->name = g_strdup (plan.name);
  sp->reprice = id > 0;
  g_assert_true (qm_plan_store_save (store, sp, &error));
  g_assert_no_error (error);
  g_assert_false (sp->reprice);
  return sp->id;
}

/* The lines of @changes joined, for the messages of failed asserts. */
static char *
joined (GPtrArray *changes)
{
  g_ptr_array_add (changes, NULL);
  g_ptr_array_set_size (changes, changes->len - 1);
  return g_strjoinv ("\n", (char **) changes->pdata);
}

static gboolean
changed (QmStore  *store,
         gint64    id,
         char    **text)
{
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(GError) error = NULL;
  gboolean r = qm_plan_store_catalog_changed (store, id, &changes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (changes);
  g_assert_cmpint (r, ==, changes->len > 0);
  *text = joined (changes);
  return r;
}

/* Issue #35 item 5, with the plan the view saves (its snapshot carries
 * the bill of materials): only a price that a line of the plan's bill of
 * materials uses marks it, the change names the line, the entry and both
 * prices, and Recompute records today's prices for good. */
static void
test_catalog_changed_bom (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) saved = NULL;
  g_autoptr(JsonObject) prices = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                            "llama-3.1-70b-pretrain-h100.qmplan", NULL);
  g_autofree char *text = NULL;
  g_autofree char *version = NULL;
  char *why = NULL;
  gint64 id;

  /* DGX H100 servers (their GPUs in the system's price), NDR InfiniBand
   * (switches, cables and transceivers), a parallel file system (per TB
   * and per GB/s), racks and PDUs the estimate picks. */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  id = save_estimated (store, 0, text);
  saved = qm_plan_store_load (store, id, &error);
  g_assert_no_error (error);
  prices = qm_plan_store_parse_json (saved->prices, -1, "prices", &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (prices, "format"), ==, 2);
  g_assert_nonnull (strstr (saved->prices, "\"item\":\"Fabric cables\",\"id\":\"ib-ndr-400\","
                                           "\"field\":\"cable_usd\""));
  g_assert_nonnull (strstr (saved->prices, "\"Optical transceivers\""));
  g_assert_nonnull (strstr (saved->prices, "\"Storage capacity (TB)\""));
  g_assert_null (strstr (saved->prices, "\"GPUs\""));
  g_assert_false (changed (store, id, &why));
  g_free (why);

  /* Prices of entries the plan does not use, and the H100's own price,
   * which a DGX H100's price includes (no "GPUs" line): nothing. So is
   * the file system's list price: the plan pays it per TB and per GB/s. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "a100-sxm-80gb", 9999, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_SERVER, "dgx-a100", 99999, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_NETWORK, "eth-400g", 999, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", 12345, &error));
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_STORAGE, "parallel-fs", 777, &error));
  g_assert_no_error (error);
  if (changed (store, id, &why))
    g_error ("unused prices marked the plan:\n%s", why);
  g_free (why);

  /* The switches' price (a network entry priced on two lines) marks it,
   * naming each line, the entry and both prices. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_NETWORK, "ib-ndr-400", 25000, &error));
  g_assert_true (changed (store, id, &why));
  g_assert_nonnull (strstr (why, "Compute fabric switches ib-ndr-400: price $30,000 when quoted, $25,000 today"));
  g_assert_nonnull (strstr (why, "Storage fabric switches ib-ndr-400: price $30,000 when quoted, $25,000 today"));
  g_assert_null (strstr (why, "cables"));
  g_assert_null (strstr (why, "figures"));
  g_clear_pointer (&why, g_free);

  /* And the servers'. */
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_SERVER, "dgx-h100", 300000, &error));
  g_assert_true (changed (store, id, &why));
  g_assert_nonnull (strstr (why, "Servers dgx-h100: price $400,000 when quoted, $300,000 today"));
  g_clear_pointer (&why, g_free);

  /* Recompute: today's prices are the quote's, in the store; read back,
   * nothing has changed. */
  id = save_estimated (store, id, saved->inputs);
  g_clear_pointer (&saved, qm_saved_plan_free);
  saved = qm_plan_store_load (store, id, &error);
  g_assert_nonnull (strstr (saved->prices, "\"item\":\"Servers\",\"id\":\"dgx-h100\","
                                           "\"field\":\"price_usd\",\"usd\":300000"));
  version = qm_catalog_store_version (store);
  g_assert_cmpstr (saved->catalog_version, ==, version);
  if (changed (store, id, &why))
    g_error ("still marked after Recompute:\n%s", why);
  g_free (why);
}

#define ACME_NDR(nic, cable) \
  "{\"id\": \"acme-ndr\", \"vendor\": \"Acme\", \"name\": \"Acme NDR switch\"," \
  " \"technology\": \"infiniband\", \"ports\": 64, \"port_gbps\": 400, \"power_w\": 747," \
  " \"rack_units\": 1, \"latency_us\": 0.13, \"price_usd\": 30000, \"nic_usd\": " nic "," \
  " \"transceiver_usd\": 900, \"transceiver_w\": 8.5, \"cable_usd\": " cable "}"

/* The network entry's other prices: a plan imported as the Plans page
 * does it (the file names the user's own switch; the snapshot is the
 * estimate) is marked by its cables' price, which its bill of materials
 * uses, and names that line alone; not by the NIC price, which a DGX
 * system's price includes. */
static void
test_catalog_changed_network_lines (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) extra = qm_saved_plan_new ();
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree char *text = NULL;
  g_autoptr(GString) file = NULL;
  char *why = NULL;
  QmPlan plan;
  gint64 id;

  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_NETWORK, ACME_NDR ("2500", "300"), &error));
  g_assert_no_error (error);
  text = qm_test_plan_json ("Acme fabric", "h100-sxm-80gb");
  file = g_string_new (text);
  g_assert_cmpuint (g_string_replace (file, "\"ib-ndr-400\"", "\"acme-ndr\"", 1), ==, 1);
  g_assert_true (qm_plan_store_read_plan (store, file->str, &plan, NULL, &error));
  g_assert_no_error (error);
  qm_estimate (&plan, e);
  extra->snapshot = qm_estimate_to_json (&plan, e, NULL);
  id = qm_plan_store_import_data (store, file->str, -1, "acme.qmplan", extra, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (changed (store, id, &why));
  g_free (why);

  /* The NIC: in the DGX H100's price, no line of its own. */
  g_assert_true (qm_catalog_store_update (store, QM_CATALOG_KIND_NETWORK, "acme-ndr", ACME_NDR ("3100", "300"),
                                          &error));
  g_assert_no_error (error);
  if (changed (store, id, &why))
    g_error ("the NIC price marked a plan without NIC lines:\n%s", why);
  g_free (why);

  /* Its cables. */
  g_assert_true (qm_catalog_store_update (store, QM_CATALOG_KIND_NETWORK, "acme-ndr", ACME_NDR ("3100", "350"),
                                          &error));
  g_assert_no_error (error);
  g_assert_true (changed (store, id, &why));
  g_assert_nonnull (strstr (why, "Fabric cables acme-ndr: price $300 when quoted, $350 today"));
  g_assert_null (strstr (why, "switches"));
  g_assert_null (strstr (why, "transceivers"));
  g_assert_null (strstr (why, "figures"));
  g_free (why);
}

/* Every line that the estimate prices from a catalog entry is one the
 * store knows how to price again (its label is in the store's table):
 * each example, bought and rented, with every server of the catalog (a
 * generic chassis buys its GPUs and NICs apart). A renamed or new line in
 * qm-cost.c fails here instead of going unwatched. */
static void
test_priced_lines_known (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autofree char *dir = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  const QmServerSpec *servers;
  const char *name;
  guint n_servers = 0, n_lines = 0, n_mapped = 0;

  servers = qm_catalog_servers (&n_servers);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;

      if (!g_str_has_suffix (name, ".qmplan"))
        continue;
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      for (guint m = 0; m < 3; m++)
        for (guint k = 0; k <= n_servers; k++)
          {
            g_autoptr(GError) error = NULL;
            QmPlan plan;

            g_assert_true (qm_plan_store_read_plan (store, text, &plan, NULL, &error));
            g_assert_no_error (error);
            plan.pricing.mode = m == 0 ? QM_PRICING_BUY : m == 1 ? QM_PRICING_RENT_ON_DEMAND : QM_PRICING_RENT_RESERVED;
            if (m > 0)
              plan.pricing.usd_per_gpu_hour = 0;   /* the cloud offer's rate */
            if (k < n_servers)
              plan.hardware.server = servers[k];
            qm_estimate (&plan, e);
            for (guint i = 0; e->has_cost && i < e->cost.n_bom; i++)
              {
                const QmBomLine *l = &e->cost.bom[i];

                if (l->catalog_id == NULL)
                  continue;
                n_lines++;
                if (qm_plan_store_priced_line (l->item) == NULL)
                  g_error ("%s: BOM line \"%s\" (%s) is priced from the catalog, but the plan store "
                           "does not know it", name, l->item, l->catalog_id);
                n_mapped++;
              }
          }
    }
  g_assert_cmpuint (n_lines, >, 0);
  g_assert_cmpuint (n_mapped, ==, n_lines);
}

/* A plan saved before the store kept its bill of materials' lines
 * (prices format 1) and whose snapshot has none: its slots' list prices
 * still count; Recompute replaces them even when the figures come out
 * the same, so the mark does not come back. */
static void
test_catalog_changed_recompute_same (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) plan = NULL;
  gint64 id = save_new (store, "Acme 70B", "Acme Corp");
  g_autoptr(QmDbStmt) stmt = NULL;
  char *why = NULL;

  /* As the store wrote it before. */
  stmt = qm_db_prepare (qm_store_connection (store),
                        "UPDATE plan_data SET prices = ?2 WHERE plan_id = ?1", &error);
  g_assert_no_error (error);
  qm_db_bind_int64 (stmt, 1, id);
  qm_db_bind_text (stmt, 2, "{\"gpu\":{\"id\":\"h100-sxm-80gb\",\"price_usd\":30000.0}}");
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_DONE);
  g_assert_true (qm_catalog_store_set_price_override (store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", 12345, &error));
  g_assert_true (changed (store, id, &why));
  g_assert_nonnull (strstr (why, "gpu h100-sxm-80gb: price $30,000 when quoted, $12,345 today"));
  g_clear_pointer (&why, g_free);

  /* Recompute, and the estimate is the same as before: recorded anew. */
  plan = qm_plan_store_load (store, id, &error);
  plan->reprice = TRUE;
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  g_assert_false (plan->reprice);
  g_assert_nonnull (strstr (plan->prices, "\"format\":2"));
  if (changed (store, id, &why))
    g_error ("still marked after Recompute:\n%s", why);
  g_free (why);
}

#define CUSTOM_GPU \
  "{\"id\": \"acme-x1\", \"vendor\": \"Acme\", \"name\": \"Acme X1\", \"price_usd\": 12000," \
  " \"tflops\": {\"bf16\": 500}, \"memory_gb\": 96, \"bandwidth_tbs\": 2.4, \"tdp_w\": 600," \
  " \"link_gbs\": 300}"

static void
test_export_import (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  g_autoptr(QmStore) other = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Custom GPU plan", "Acme", 1e6);
  g_autoptr(QmSavedPlan) imported = NULL;
  g_autoptr(QmCatalogEntry) entry = NULL;
  g_autofree char *file = g_build_filename (g_get_tmp_dir (), "custom.qmplan", NULL);
  g_autofree char *other_path = g_build_filename (g_get_user_data_dir (), "elsewhere", "other.db", NULL);
  g_autofree char *text = NULL;
  gint64 id;

  g_assert_true (qm_catalog_store_add (store, QM_CATALOG_KIND_GPU, CUSTOM_GPU, &error));
  g_assert_no_error (error);
  g_free (plan->inputs);
  plan->inputs = qm_test_plan_json ("Custom GPU plan", "acme-x1");
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);

  g_assert_true (qm_plan_store_export_file (store, plan->id, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  /* The custom GPU travels in the file; built-ins do not. */
  g_assert_nonnull (strstr (text, "\"gpu_spec\""));
  g_assert_null (strstr (text, "\"server_spec\""));

  /* A colleague's machine: a fresh database without the custom GPU. */
  other = qm_store_open_with_flags (other_path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  id = qm_plan_store_import_file (other, file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  imported = qm_plan_store_load (other, id, &error);
  g_assert_cmpstr (imported->name, ==, "Custom GPU plan");
  g_assert_cmpstr (imported->customer, ==, "Acme");
  entry = qm_catalog_store_get (other, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_no_error (error);
  g_assert_false (entry->builtin);
  g_assert_cmpfloat (entry->price_usd, ==, 12000);

  /* Issue #34 item 4: with the custom GPU gone from the catalog, an export
   * says so instead of writing a file that opens nowhere, and the file
   * already there stays as it was. */
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  g_assert_true (qm_catalog_store_delete (store, QM_CATALOG_KIND_GPU, "acme-x1", &error));
  g_assert_no_error (error);
  {
    g_autofree char *again = NULL;

    g_assert_false (qm_plan_store_export_file (store, plan->id, file, &error));
    g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "hardware.gpu"));
    g_assert_nonnull (strstr (error->message, "acme-x1"));
    g_clear_error (&error);
    g_assert_true (g_file_get_contents (file, &again, NULL, NULL));
    g_assert_cmpstr (again, ==, text);
  }
}

static void
test_import_bad_files (void)
{
  g_autoptr(QmStore) store = qm_test_open_store ();
  const struct { const char *json; const char *expect; } cases[] = {
    { "{\"format\": \"quartermaster-plan\", \"version\": 1,", "not valid JSON" },
    { "{\"format\": \"spreadsheet\", \"version\": 1}", "format" },
    { "{\"format\": \"quartermaster-plan\", \"version\": 99}", "version" },
    { NULL, "hardware.gpu" },        /* unknown id, no spec */
    { NULL, "workload.tokens_b" },   /* an invalid value */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *json = NULL;

      if (i == 3)
        json = qm_test_plan_json ("x", "no-such-gpu-9000");
      else if (i == 4)
        {
          g_autofree char *good = qm_test_plan_json ("x", "h100-sxm-80gb");
          g_autoptr(GString) s = g_string_new (good);
          g_string_replace (s, "\"tokens_b\": 15000", "\"tokens_b\": -5", 1);
          json = g_string_free (g_steal_pointer (&s), FALSE);
        }
      else
        json = g_strdup (cases[i].json);

      g_assert_cmpint (qm_plan_store_import_data (store, json, -1, "bad.qmplan", NULL, NULL, &error), ==, 0);
      g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
      if (strstr (error->message, cases[i].expect) == NULL || !g_str_has_prefix (error->message, "bad.qmplan: "))
        g_error ("case %u: \"%s\" does not name \"%s\"", i, error->message, cases[i].expect);
    }
  /* Nothing was written. */
  g_assert_cmpuint (qm_plan_store_count (store), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/plan-store/save-load", test_save_load);
  g_test_add_func ("/plan-store/list-search", test_list_search);
  g_test_add_func ("/plan-store/duplicate-rename-trash", test_duplicate_rename_trash);
  g_test_add_func ("/plan-store/catalog-changed", test_catalog_changed);
  g_test_add_func ("/plan-store/catalog-changed-bom", test_catalog_changed_bom);
  g_test_add_func ("/plan-store/catalog-changed-recompute-same", test_catalog_changed_recompute_same);
  g_test_add_func ("/plan-store/catalog-changed-network-lines", test_catalog_changed_network_lines);
  g_test_add_func ("/plan-store/priced-lines-known", test_priced_lines_known);
  g_test_add_func ("/plan-store/export-import", test_export_import);
  g_test_add_func ("/plan-store/import-bad-files", test_import_bad_files);
  return g_test_run ();
}
