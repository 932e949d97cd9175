/* test-store-roles.c: the team roles on a private PostgreSQL cluster
 * (issue #23): `db setup-roles` creates them and their grants (again
 * and again), and for each
 * role the server itself refuses what it may not do, the store says so in
 * words, and qm_store_rights() reports it. A viewer opens the store
 * read-only rather than failing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-db.h"
#include "qm-plan-store.h"
#include "qm-store-roles.h"
#include "qm-test-cli.h"
#include "qm-test-pg.h"
#include "qm-plan.h"
#include "qm-test-store.h"

static QmTestPg *cluster;
static char *owner_uri;   /* the team database, as its owner */
static char *dbname;
static gint64 plan_id;    /* a plan the owner saved */

/* The team database as @user (the harness lets them in by trust). */
static char *
uri_as (const char *user)
{
  return g_strdup_printf ("postgresql:///%s?host=%s&user=%s", dbname,
                          qm_test_pg_socket_dir (cluster), user);
}

static QmStore *
open_as (const char *user)
{
  g_autofree char *uri = uri_as (user);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (uri, QM_STORE_OPEN_NO_BACKUP, &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

/* Runs @sql as @user straight on the server, past the store's own
 * checks: TRUE when the server took it; else the cause is in *message. */
static gboolean
server_allows (const char  *user,
               const char  *sql,
               char       **message)
{
  g_autofree char *uri = uri_as (user);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDb) db = qm_db_open (uri, QM_DB_OPEN_NONE, &error);
  gboolean ok;

  g_assert_no_error (error);
  ok = qm_db_exec (db, sql, &error);
  if (!ok)
    {
      /* A refused grant is a read-only store error, in words. */
      g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
      g_assert_nonnull (strstr (error->message, "permission denied"));
      g_assert_nonnull (strstr (error->message, "your database role may not change this"));
      if (message != NULL)
        *message = g_strdup (error->message);
    }
  return ok;
}

static const char insert_plan_sql[] =
  "INSERT INTO plan (name, created, modified) VALUES ('direct', 1, 1)";
static const char insert_override_sql[] =
  "INSERT INTO catalog_override (kind, id, price_usd, modified) VALUES ('gpu', 'h100-sxm-80gb', 20000, 1)"
  " ON CONFLICT (kind, id) DO UPDATE SET price_usd = excluded.price_usd";
static const char insert_rate_sql[] =
  "INSERT INTO exchange_rate (currency, date, rate_per_usd) VALUES ('EUR', '2026-11-26', 0.92)"
  " ON CONFLICT DO NOTHING";
static const char insert_quote_sql[] =
  "INSERT INTO quote (number, created, modified) VALUES ('Q-' || clock_timestamp (), 1, 1)";

/* The command as the administrator runs it, twice: the second run finds
 * the roles and changes nothing. */
static void
test_setup_command (void)
{
  g_auto(Run) r = { 0 };
  g_auto(Run) again = { 0 };
  g_auto(Run) file = { 0 };
  g_autofree char *path = qm_test_db_path ();

  run_cli (&r, "--db", owner_uri, "db", "setup-roles", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Created the role quartermaster_viewer."));
  g_assert_nonnull (strstr (r.out, "Created the role quartermaster_catalog_manager."));
  /* The schema has the price history (step 6): it is granted too. */
  g_assert_nonnull (strstr (r.out, "(and their history)"));

  /* The people: a login role each, given one group role. */
  qm_test_pg_exec (cluster, dbname,
                   "CREATE ROLE qm_vera LOGIN IN ROLE quartermaster_viewer;"
                   "CREATE ROLE qm_eddie LOGIN IN ROLE quartermaster_editor;"
                   "CREATE ROLE qm_erin LOGIN IN ROLE quartermaster_editor;"
                   "CREATE ROLE qm_cara LOGIN IN ROLE quartermaster_catalog_manager");

  run_cli (&again, "--db", owner_uri, "db", "setup-roles", NULL);
  g_assert_cmpint (again.status, ==, 0);
  g_assert_nonnull (strstr (again.out, "quartermaster_editor was there already."));
  g_assert_null (strstr (again.out, "Created"));

  /* A file has no roles: said so, and nothing is written. */
  run_cli (&file, "--db", path, "db", "setup-roles", NULL);
  g_assert_cmpint (file.status, ==, 2);
  g_assert_nonnull (strstr (file.err, "postgresql://"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_viewer (void)
{
  g_autoptr(QmStore) store = open_as ("qm_vera");
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) plan = NULL;
  g_autoptr(QmSavedPlan) fresh = qm_test_saved_plan ("Viewer's try", "Acme", 1.0);
  g_autofree char *why = NULL;
  g_autofree char *message = NULL;

  /* Opened, read-only, with every plan readable. */
  g_assert_true (qm_store_is_read_only (store));
  g_assert_cmpint (qm_store_rights (store), ==, QM_STORE_RIGHT_READ);
  g_assert_cmpstr (qm_store_role (store), ==, QM_STORE_ROLE_VIEWER);
  g_assert_cmpuint (qm_plan_store_count (store), ==, 1);
  plan = qm_plan_store_load (store, plan_id, &error);
  g_assert_no_error (error);

  why = qm_store_rights_reason (store, QM_STORE_RIGHT_EDIT_PLANS);
  g_assert_cmpstr (why, ==, "Your role on the team database, quartermaster_viewer, may read "
                   "plans but not save them; ask whoever runs the database to grant you "
                   "quartermaster_editor");
  g_assert_null (qm_store_rights_reason (store, QM_STORE_RIGHT_READ));

  /* The store says why before the server is asked ... */
  g_free (plan->name);
  plan->name = g_strdup ("Renamed by a viewer");
  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, "may read plans but not save them"));
  g_clear_error (&error);
  g_assert_false (qm_plan_store_save (store, fresh, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_assert_false (qm_plan_store_delete (store, plan_id, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_assert_cmpint (fresh->id, ==, 0);

  /* ... and the server refuses it anyway. */
  g_assert_false (server_allows ("qm_vera", insert_plan_sql, &message));
  g_assert_nonnull (strstr (message, "plan"));
  g_assert_false (server_allows ("qm_vera", "DELETE FROM plan", NULL));
  g_assert_false (server_allows ("qm_vera", insert_override_sql, NULL));
  g_assert_false (server_allows ("qm_vera", insert_quote_sql, NULL));
  g_assert_false (server_allows ("qm_vera", insert_rate_sql, NULL));
  g_assert_false (server_allows ("qm_vera", "UPDATE meta SET value = value", NULL));
}

static void
test_editor (void)
{
  g_autoptr(QmStore) store = open_as ("qm_eddie");
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Editor's plan", "Globex", 99.0);
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;

  g_assert_false (qm_store_is_read_only (store));
  g_assert_cmpint (qm_store_rights (store), ==,
                   QM_STORE_RIGHT_READ | QM_STORE_RIGHT_EDIT_PLANS | QM_STORE_RIGHT_EDIT_QUOTES);
  g_assert_cmpstr (qm_store_role (store), ==, QM_STORE_ROLE_EDITOR);

  /* Plans: new, changed, duplicated, trashed, deleted. */
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  plan->total_cost = 120.0;
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_cmpint (plan->revision, ==, 2);
  g_assert_cmpint (qm_plan_store_duplicate (store, plan->id, NULL, &error), >, 0);
  g_assert_no_error (error);
  g_assert_true (qm_plan_store_trash (store, plan->id, &error));
  g_assert_true (qm_plan_store_delete (store, plan->id, &error));
  g_assert_no_error (error);
  g_assert_true (server_allows ("qm_eddie", insert_quote_sql, NULL));

  /* Not the catalog. */
  why = qm_store_rights_reason (store, QM_STORE_RIGHT_EDIT_CATALOG);
  g_assert_cmpstr (why, ==, "Your role on the team database, quartermaster_editor, may read "
                   "the catalog and its prices but not change them; ask whoever runs the "
                   "database to grant you quartermaster_catalog_manager");
  g_assert_false (server_allows ("qm_eddie", insert_override_sql, NULL));
  g_assert_false (server_allows ("qm_eddie", insert_rate_sql, NULL));
  g_assert_false (server_allows ("qm_eddie", "DELETE FROM catalog_builtin", NULL));
}

/* A plan file that brings its own GPU: an editor's import is refused in
 * words naming the entry and the missing right, and leaves nothing
 * behind; once a catalog manager has added the entry, the editor's
 * import goes through. */
static void
test_editor_imports_embedded (void)
{
  g_autoptr(QmStore) editor = open_as ("qm_eddie");
  g_autoptr(QmStore) manager = open_as ("qm_cara");
  g_autoptr(QmCatalogEntry) entry = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "tests", "plans", "good",
                                            "lora-embedded-gpu.qmplan", NULL);
  gint64 id;

  id = qm_plan_store_import_file (editor, path, NULL, NULL, &error);
  g_assert_cmpint (id, ==, 0);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, "lora-embedded-gpu.qmplan"));
  g_assert_nonnull (strstr (error->message, "“my-gpu” (hardware.gpu_spec)"));
  g_assert_nonnull (strstr (error->message, QM_STORE_ROLE_CATALOG_MANAGER));
  g_clear_error (&error);
  g_assert_null (qm_catalog_store_get (editor, QM_CATALOG_KIND_GPU, "my-gpu", NULL));

  g_assert_true (qm_catalog_store_add (manager, QM_CATALOG_KIND_GPU,
                                       "{ \"id\": \"my-gpu\", \"vendor\": \"X\", \"name\": \"X card\","
                                       " \"source\": \"test\", \"as_of\": \"2025-01-01\", \"family\": \"x\","
                                       " \"form_factor\": \"pcie\","
                                       " \"tflops\": { \"bf16\": 100, \"fp16\": 100, \"fp32\": 50 },"
                                       " \"memory_gb\": 48, \"bandwidth_tbs\": 1, \"tdp_w\": 300,"
                                       " \"link_gbs\": 32 }", &error));
  g_assert_no_error (error);
  entry = qm_catalog_store_get (editor, QM_CATALOG_KIND_GPU, "my-gpu", &error);
  g_assert_no_error (error);
  g_assert_nonnull (entry);
  g_assert_cmpint (qm_plan_store_import_file (editor, path, NULL, NULL, &error), >, 0);
  g_assert_no_error (error);
}

static void
test_catalog_manager (void)
{
  g_autoptr(QmStore) store = open_as ("qm_cara");
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Manager's plan", "Initech", 5.0);
  g_autoptr(GError) error = NULL;

  g_assert_false (qm_store_is_read_only (store));
  /* All an editor may, and the catalog (README, "Working as a team";
   * issue #33 item 7: it could not save a plan). */
  g_assert_cmpint (qm_store_rights (store), ==, QM_STORE_RIGHT_READ | QM_STORE_RIGHTS_EDIT);
  g_assert_cmpstr (qm_store_role (store), ==, QM_STORE_ROLE_CATALOG_MANAGER);

  g_assert_true (server_allows ("qm_cara", insert_override_sql, NULL));
  g_assert_true (server_allows ("qm_cara", insert_rate_sql, NULL));
  g_assert_true (server_allows ("qm_cara", "UPDATE catalog_builtin SET hidden = hidden", NULL));

  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  g_assert_true (server_allows ("qm_cara", insert_plan_sql, NULL));
  g_assert_true (server_allows ("qm_cara", insert_quote_sql, NULL));
}

/* README step 3 as an editor: `db copy` of a file's plans into the server
 * moves the plan ids' sequence (setval), which the editor may now do. */
static void
test_editor_copies (void)
{
  g_autofree char *path = qm_test_db_path ();
  g_autofree char *uri = uri_as ("qm_eddie");
  g_autoptr(QmStore) file = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, NULL);
  g_auto(Run) r = { 0 };

  g_assert_nonnull (file);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("Copied plan %u", i);
      g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, "Umbrella", 2.0 + i);
      g_autoptr(GError) error = NULL;

      g_assert_true (qm_plan_store_save (file, plan, &error));
      g_assert_no_error (error);
    }
  g_clear_pointer (&file, qm_store_free);

  run_cli (&r, "db", "copy", path, uri, NULL);
  /* The server's own plans hold ids 1 and 3 already: those two the copy
   * refuses rather than overwrite (qm-plan-store-copy.c); the third is
   * copied, which moves the sequence. Before the grant every plan failed
   * with "permission denied for sequence plan_id_seq". */
  g_assert_null (strstr (r.err, "permission denied"));
  g_assert_nonnull (strstr (r.out, "1 copied"));
  {
    g_autoptr(QmStore) server = open_as ("qm_eddie");
    g_autoptr(GPtrArray) list = qm_plan_store_list (server, NULL, NULL);
    g_autoptr(QmSavedPlan) fresh = qm_test_saved_plan ("After the copy", "Umbrella", 1.0);
    g_autoptr(GError) error = NULL;
    guint copied = 0;

    for (guint i = 0; list != NULL && i < list->len; i++)
      {
        QmPlanSummary *s = g_ptr_array_index (list, i);

        copied += g_str_has_prefix (s->name, "Copied plan");
      }
    g_assert_cmpuint (copied, ==, 1);
    /* The next new plan takes an id past the copied one. */
    g_assert_true (qm_plan_store_save (server, fresh, &error));
    g_assert_no_error (error);
  }
}

/* The store's check is only a courtesy: with the editor's grant taken
 * away (the person is made a viewer) after the store read it, the save through the store API reaches the server,
 * which refuses it, in words, and nothing is written. */
static void
test_server_enforces (void)
{
  g_autoptr(QmStore) store = open_as ("qm_erin");
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Late revoke", "Hooli", 7.0);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_store_rights (store) & QM_STORE_RIGHT_EDIT_PLANS);
  qm_test_pg_exec (cluster, dbname, "REVOKE quartermaster_editor FROM qm_erin;"
                   "GRANT quartermaster_viewer TO qm_erin");
  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, "your database role may not change this"));
  g_assert_nonnull (strstr (error->message, "permission denied"));
  g_assert_cmpint (plan->id, ==, 0);
  g_clear_error (&error);
  g_assert_false (qm_plan_store_delete (store, plan_id, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  qm_test_pg_exec (cluster, dbname, "REVOKE quartermaster_viewer FROM qm_erin;"
                   "GRANT quartermaster_editor TO qm_erin");
}

/* The price history is everyone's to read and the catalog manager's to
 * write, as the server enforces it. */
/* Issue #33 item 1: a catalog manager with plain SQL could write history
 * rows in anyone's name, rewrite "who", erase the history, and change a
 * price with no row. Now the server's triggers write every change from
 * session_user, and no team role may write the table. */
static void
test_price_history (void)
{
  static const char insert_history_sql[] =
    "INSERT INTO catalog_price_history (kind, id, is_override, new_price, who, changed_at, revision)"
    " VALUES ('gpu', 'h100-sxm-80gb', 1, 20000, 'test', clock_timestamp ()::text, 1)";
  static const char *const attacks[] = {
    insert_history_sql,
    "UPDATE catalog_price_history SET who = 'qm_vera'",
    "DELETE FROM catalog_price_history",
    "TRUNCATE catalog_price_history",
  };
  g_autoptr(QmDb) owner = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  gint64 before, after;

  g_assert_true (server_allows ("qm_vera", "SELECT count (*) FROM catalog_price_history", NULL));
  for (guint i = 0; i < G_N_ELEMENTS (attacks); i++)
    {
      g_assert_false (server_allows ("qm_cara", attacks[i], NULL));
      g_assert_false (server_allows ("qm_eddie", attacks[i], NULL));
      g_assert_false (server_allows ("qm_vera", attacks[i], NULL));
    }

  /* A price changed with plain SQL still gets its row, in the name of
   * who changed it, whatever the statement claims. */
  owner = qm_db_open (owner_uri, QM_DB_OPEN_NONE, &error);
  g_assert_no_error (error);
  stmt = qm_db_prepare (owner, "SELECT count (*) FROM catalog_price_history WHERE who = 'qm_cara'"
                                " AND kind = 'gpu' AND id = 'b200-sxm-180gb'", &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
  before = qm_db_column_int64 (stmt, 0);
  g_assert_true (server_allows ("qm_cara", "INSERT INTO catalog_override (kind, id, price_usd, modified)"
                                " VALUES ('gpu', 'b200-sxm-180gb', 31000, 1) ON CONFLICT (kind, id)"
                                " DO UPDATE SET price_usd = excluded.price_usd + 1,"
                                " revision = catalog_override.revision + 1", NULL));
  qm_db_reset (stmt);
  g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
  after = qm_db_column_int64 (stmt, 0);
  g_assert_cmpint (after, ==, before + 1);

  /* A catalog manager's db copy brings the prices, recorded as their own
   * change; the file's earlier history is not copied in their name. */
  {
    g_autofree char *path = qm_test_db_path ();
    g_autofree char *uri = uri_as ("qm_cara");
    g_autoptr(QmStore) file = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, NULL);
    g_auto(Run) r = { 0 };

    g_assert_true (qm_catalog_store_set_price_override (file, QM_CATALOG_KIND_GPU, "a100-sxm-80gb", 9100, &error));
    g_assert_true (qm_catalog_store_set_price_override (file, QM_CATALOG_KIND_GPU, "a100-sxm-80gb", 9000, &error));
    g_assert_no_error (error);
    g_clear_pointer (&file, qm_store_free);
    run_cli (&r, "db", "copy", path, uri, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "price changes: not copied; the server keeps its own price history"));
    g_clear_pointer (&stmt, qm_db_stmt_free);
    stmt = qm_db_prepare (owner, "SELECT who, new_price FROM catalog_price_history"
                                 " WHERE kind = 'gpu' AND id = 'a100-sxm-80gb' ORDER BY seq", &error);
    g_assert_no_error (error);
    g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_ROW);
    g_assert_cmpstr (qm_db_column_text (stmt, 0), ==, "qm_cara");
    g_assert_cmpfloat (qm_db_column_double (stmt, 1), ==, 9000);
    g_assert_cmpint (qm_db_step (stmt), ==, QM_DB_STEP_DONE);
  }
}
/* Issue #33 item 5: the server takes no plan bigger than a plan file may
 * be (QM_PLAN_MAX_BYTES), whoever writes it with plain SQL; one just
 * under the limit goes in. */
static void
test_size_limit (void)
{
  g_autofree char *big = NULL, *small = NULL;
  /* A JSON string of n bytes of 'x' in all: {"n":"xxx…"}. */
  GString *json = g_string_sized_new (QM_PLAN_MAX_BYTES + 64);

  g_string_append (json, "{\"n\":\"");
  while (json->len < QM_PLAN_MAX_BYTES + 8)
    g_string_append_c (json, 'x');
  g_string_append (json, "\"}");
  big = g_strdup_printf ("UPDATE plan_data SET inputs = '%s' WHERE plan_id = %" G_GINT64_FORMAT,
                         json->str, plan_id);
  g_string_truncate (json, 1000);
  g_string_append (json, "\"}");
  small = g_strdup_printf ("UPDATE plan_data SET notes = '%s' WHERE plan_id = %" G_GINT64_FORMAT,
                           json->str, plan_id);
  g_string_free (json, TRUE);
  {
    g_autofree char *uri = uri_as ("qm_eddie");
    g_autoptr(GError) error = NULL;
    g_autoptr(QmDb) db = qm_db_open (uri, QM_DB_OPEN_NONE, &error);

    g_assert_no_error (error);
    g_assert_false (qm_db_exec (db, big, &error));
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "plan_data_size"));
  }
  g_assert_true (server_allows ("qm_eddie", small, NULL));
}

/* A newer Quartermaster meets an older team database: only its owner may
 * upgrade it; anyone else is told so, and nothing is changed. */
static void
test_upgrade_needs_owner (void)
{
  g_autofree char *uri = uri_as ("qm_eddie");
  g_autofree char *old = g_strdup_printf ("UPDATE qm_schema SET version = %d",
                                          qm_store_latest_version () - 1);
  g_autofree char *back = g_strdup_printf ("UPDATE qm_schema SET version = %d",
                                           qm_store_latest_version ());
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GError) error = NULL;

  qm_test_pg_exec (cluster, dbname, old);
  store = qm_store_open_with_flags (uri, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, "which only its owner, postgres, may make"));
  g_assert_nonnull (strstr (error->message, "Nothing was changed."));
  qm_test_pg_exec (cluster, dbname, back);
}

/* A login role given no team role yet: it may not even connect (issue
 * #33 item 6: it could take the schema lock and hang setup-roles and
 * upgrades, and send notices on the team's channel), and opening says
 * which role to ask for. */
static void
test_no_role (void)
{
  g_autofree char *uri = uri_as ("qm_newcomer");
  g_autoptr(QmStore) store = NULL;
  g_autoptr(QmDb) db = NULL;
  g_autoptr(GError) error = NULL;

  qm_test_pg_exec (cluster, dbname, "CREATE ROLE qm_newcomer LOGIN");
  store = qm_store_open_with_flags (uri, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, "your user may not connect to this database; ask "
                            "whoever runs it to grant you quartermaster_viewer"));
  g_clear_error (&error);
  db = qm_db_open (uri, QM_DB_OPEN_NONE, &error);
  g_assert_null (db);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN);
}

/* The schema lock is a table lock that needs a write grant on the
 * version table: an editor connected to the database cannot hold it. */
static void
test_schema_lock (void)
{
  g_autofree char *message = NULL;

  g_assert_false (server_allows ("qm_eddie", "BEGIN; LOCK TABLE qm_schema IN SHARE ROW EXCLUSIVE MODE; COMMIT",
                                 &message));
  g_assert_nonnull (strstr (message, "qm_schema"));
}

/* A file has every right, unless it is read-only. */
static void
test_file (void)
{
  g_autofree char *path = qm_test_db_path ();
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;

  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_store_rights (store), ==, QM_STORE_RIGHTS_ALL);
  g_assert_null (qm_store_role (store));
  g_assert_null (qm_store_rights_reason (store, QM_STORE_RIGHTS_ALL));
  g_assert_null (qm_store_setup_roles (store, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_clear_pointer (&store, qm_store_free);

  store = qm_store_open_with_flags (path, QM_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_store_rights (store), ==, QM_STORE_RIGHT_READ);
  why = qm_store_rights_reason (store, QM_STORE_RIGHT_EDIT_PLANS);
  g_assert_nonnull (strstr (why, "is read-only"));
  g_assert_nonnull (strstr (why, path));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(QmStore) owner = NULL;
  g_autoptr(QmSavedPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  cluster = qm_test_pg_start ();
  owner_uri = qm_test_pg_new_database (cluster);
  dbname = g_strndup (owner_uri + strlen ("postgresql:///"),
                      strcspn (owner_uri + strlen ("postgresql:///"), "?"));

  /* The owner creates the schema and a plan, before any role exists. */
  owner = qm_store_open_with_flags (owner_uri, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qm_store_rights (owner), ==, QM_STORE_RIGHTS_ALL);
  plan = qm_test_saved_plan ("Team plan", "Acme", 42.0);
  g_assert_true (qm_plan_store_save (owner, plan, &error));
  plan_id = plan->id;

  g_test_add_func ("/store-roles/setup-command", test_setup_command);
  g_test_add_func ("/store-roles/viewer", test_viewer);
  g_test_add_func ("/store-roles/editor", test_editor);
  g_test_add_func ("/store-roles/editor-imports-embedded", test_editor_imports_embedded);
  g_test_add_func ("/store-roles/catalog-manager", test_catalog_manager);
  g_test_add_func ("/store-roles/editor-copies", test_editor_copies);
  g_test_add_func ("/store-roles/server-enforces", test_server_enforces);
  g_test_add_func ("/store-roles/price-history", test_price_history);
  g_test_add_func ("/store-roles/size-limit", test_size_limit);
  g_test_add_func ("/store-roles/upgrade-needs-owner", test_upgrade_needs_owner);
  g_test_add_func ("/store-roles/no-role", test_no_role);
  g_test_add_func ("/store-roles/schema-lock", test_schema_lock);
  g_test_add_func ("/store-roles/file", test_file);

  /* In order: the first test runs the command and creates the people. */
  status = g_test_run ();
  qm_test_pg_stop (cluster);
  return status;
}
