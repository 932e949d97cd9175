/* test-store.c: opening, creating and reopening the database.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "qm-quote-store.h"
#include "qm-supplier-store.h"
#include "qm-store.h"
#include "qm-store-roles.h"
#include "qm-test-store.h"

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

/* Issue #33 item 2: a file that is not a Quartermaster database (a plan
 * given to --db by mistake, a folder, another program's SQLite file) is
 * refused by name and left byte for byte as it was; it used to be moved
 * aside as "damaged" and a new database put in its place. */
static void
test_not_a_database (void)
{
  g_autofree char *path = temp_db_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *other = g_build_filename (dir, "other-program.sqlite", NULL);
  const char *text = "this is not an SQLite file, it is a shopping list\n"
                     "and it is long enough to have a header page or two ...........\n";
  QmStoreOpenFlags flags[] = { QM_STORE_OPEN_NONE, QM_STORE_OPEN_NO_RECOVER, QM_STORE_OPEN_EXISTING };
  sqlite3 *db = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (sqlite3_open (other, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE groceries (item TEXT); INSERT INTO groceries VALUES ('milk')",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      const char *locations[] = { path, dir, other };

      for (guint k = 0; k < G_N_ELEMENTS (locations); k++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(QmStore) store = qm_store_open_with_flags (locations[k], flags[i], &error);

          g_assert_null (store);
          g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_A_DATABASE);
          g_assert_nonnull (strstr (error->message, locations[k]));
        }
      {
        g_autofree char *after = NULL;

        g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
        g_assert_cmpstr (after, ==, text);
      }
    }
  /* Nothing moved aside, nothing created beside them. */
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      g_assert_null (strstr (name, ".corrupt-"));
  }
  g_assert_cmpint (sqlite3_open_v2 (other, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "SELECT item FROM groceries", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_remove (other);
}

/* Opening with QM_STORE_OPEN_EXISTING never creates the file or its folder. */
static void
test_existing_only (void)
{
  g_autofree char *path = temp_db_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *folder = g_build_filename (dir, "not-yet", NULL);
  g_autofree char *nested = g_build_filename (folder, "plans.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmStore) store = NULL;

  store = qm_store_open_with_flags (nested, QM_STORE_OPEN_EXISTING, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  g_assert_false (g_file_test (nested, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
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

static QmStore *
open_path (const char       *path,
           QmStoreOpenFlags  flags)
{
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (path, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

static void
save_plan (QmStore    *store,
           const char *name,
           const char *notes)
{
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, "Acme", 1e6);
  g_autoptr(GError) error = NULL;

  plan->notes = g_strdup (notes);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
}

/* A damaged file is moved aside, a new one started, and the plans that
 * can still be read are salvaged from the old one. */
static void
test_corrupt_recover_salvage (void)
{
  g_autofree char *path = temp_db_path ();
  g_autofree char *notes = g_strnfill (3000, 'n');
  g_autoptr(QmStore) store = open_path (path, QM_STORE_OPEN_NO_BACKUP);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autofree char *message = NULL;
  g_autofree char *moved = NULL;
  FILE *f;
  long size;
  int copied;

  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *name = g_strdup_printf ("plan %u", i);
      save_plan (store, name, notes);
    }
  g_clear_pointer (&store, qm_store_free);

  /* Scribble over a page in the middle of the file. */
  f = fopen (path, "r+b");
  g_assert_nonnull (f);
  fseek (f, 0, SEEK_END);
  size = ftell (f);
  fseek (f, (size / 2) / 4096 * 4096, SEEK_SET);
  for (guint i = 0; i < 4096; i++)
    fputc (0xa5 ^ (i & 0x0f), f);
  fclose (f);

  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP | QM_STORE_OPEN_NO_RECOVER, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  store = open_path (path, QM_STORE_OPEN_NO_BACKUP);
  moved = g_strdup (qm_store_recovered_from (store));
  g_assert_nonnull (moved);
  g_assert_true (g_file_test (moved, G_FILE_TEST_EXISTS));
  message = qm_store_recovery_message (store);
  g_assert_nonnull (strstr (message, moved));
  g_assert_cmpuint (qm_plan_store_count (store), ==, 0);
  g_assert_true (qm_store_check_integrity (store, &error));

  copied = qm_store_salvage (store, moved, &error);
  g_assert_no_error (error);
  g_test_message ("salvaged %d of 300 plans", copied);
  g_assert_cmpint (copied, >, 0);
  g_assert_cmpint (copied, <=, 300);
  list = qm_plan_store_list (store, NULL, &error);
  g_assert_cmpuint (list->len, ==, (guint) copied);
  for (guint i = 0; i < list->len; i++)
    {
      g_autoptr(QmSavedPlan) plan = qm_plan_store_load (store, ((QmPlanSummary *) list->pdata[i])->id, &error);

      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (plan->name, "plan "));
      g_assert_cmpstr (plan->notes, ==, notes);
      g_assert_nonnull (strstr (plan->inputs, plan->name));
    }
}

/* A saved plan quoted in euros at the store's rate. */
static gint64
save_quoted_plan (QmStore    *store,
                  const char *name)
{
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (name, "Acme", 1e6);
  g_autoptr(GError) error = NULL;
  g_autofree char *inputs = plan->inputs;

  inputs[strlen (inputs) - 1] = '\0';
  plan->inputs = g_strconcat (inputs, ", \"quote\": {\"currency\": \"EUR\", \"tax_rate\": 0.19}}", NULL);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  return plan->id;
}

static QmQuoteRevision *
save_quote (QmStore    *store,
            gint64      plan_id,
            const char *date,
            const char *note)
{
  g_autoptr(GError) error = NULL;
  QmQuoteRequest req = { .plan_id = plan_id, .note = note, .customer = "Acme Corp",
                         .customer_vat = "FR40303265045" };
  QmQuoteRevision *rev;

  g_assert_true (qm_quote_date_parse (date, &req.issued));
  rev = qm_quote_store_save_revision (store, &req, &error);
  g_assert_no_error (error);
  return rev;
}

/* Every revision column but the quote id, as one text per row. */
static GPtrArray *
revision_rows (sqlite3 *db)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT q.number, r.seq, r.letter, r.issued, r.valid_days,"
                                           " r.note, r.customer, r.currency, r.exchange_rate, r.rate_date,"
                                           " r.rate_source, r.catalog_version, r.terms, r.plan, r.quote,"
                                           " r.exponent, r.gross, r.created, r.customer_vat FROM quote_revision r"
                                           " JOIN quote q ON q.id = r.quote_id ORDER BY q.number, r.seq",
                                   -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      GString *row = g_string_new (NULL);

      for (int c = 0; c < sqlite3_column_count (stmt); c++)
        g_string_append_printf (row, "%s\x1f", (const char *) sqlite3_column_text (stmt, c));
      g_ptr_array_add (rows, g_string_free (row, FALSE));
    }
  sqlite3_finalize (stmt);
  return rows;
}

/* Salvage copies quotes with their revisions unchanged, the numbering
 * and the exchange rates; a quote follows its plan to the plan's new id,
 * and the sequence goes on after the highest number. */
static void
test_salvage_quotes (void)
{
  g_autofree char *old_path = g_build_filename (g_get_user_data_dir (), "old.db", NULL);
  g_autofree char *new_path = temp_db_path ();
  g_autoptr(QmStore) old = open_path (old_path, QM_STORE_OPEN_NO_BACKUP);
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QmQuoteRevision) a = NULL, b = NULL, other = NULL, next = NULL, reprint = NULL;
  g_autoptr(GPtrArray) old_rows = NULL, new_rows = NULL, letters = NULL, list = NULL;
  g_autoptr(QmExchangeRate) rate = NULL;
  g_autofree char *pattern = NULL, *found = NULL;
  QmExchangeRate eur = { .rate_per_usd = 0.92, .source = (char *) "ECB reference rate" };
  gint64 plan, plan2, gone, new_plan = 0;
  GDate day;

  strcpy (eur.currency, "EUR");
  g_assert_true (qm_quote_date_parse ("2026-01-02", &eur.date));
  g_assert_true (qm_quote_store_set_rate (old, &eur, &error));
  g_assert_true (qm_quote_store_set_pattern (old, "ACME-{YY}-{NNN}", &error));
  g_assert_no_error (error);
  /* The supplier details go along (issue #35 item 2). */
  {
    g_autoptr(QmSupplier) supplier = qm_supplier_new ();

    g_free (supplier->name);
    supplier->name = g_strdup ("Grüne Rechenwerke GmbH");
    g_assert_true (qm_supplier_store_set (old, supplier, &error));
    g_assert_no_error (error);
  }
  plan = save_quoted_plan (old, "Acme 70B");
  plan2 = save_quoted_plan (old, "Acme 405B");
  gone = save_quoted_plan (old, "Acme 8B");
  a = save_quote (old, plan, "2026-11-25", NULL);
  b = save_quote (old, plan, "2026-11-30", "Servers 5 % cheaper");
  g_assert_true (qm_quote_store_set_sequence (old, 40, &error));
  other = save_quote (old, plan2, "2026-12-01", NULL);
  g_clear_pointer (&other, qm_quote_revision_free);
  other = save_quote (old, gone, "2026-12-02", NULL);
  g_assert_cmpstr (other->number, ==, "ACME-26-041");
  g_assert_true (qm_plan_store_delete (old, gone, &error));
  g_assert_no_error (error);
  old_rows = revision_rows (qm_store_db (old));
  g_assert_cmpuint (old_rows->len, ==, 4);
  g_clear_pointer (&old, qm_store_free);

  store = open_path (new_path, QM_STORE_OPEN_NO_BACKUP);
  g_assert_cmpint (qm_store_salvage (store, old_path, &error), ==, 2);
  g_assert_no_error (error);

  /* Revisions byte for byte, and a reprint gives its stored figures. */
  new_rows = revision_rows (qm_store_db (store));
  g_assert_cmpuint (new_rows->len, ==, old_rows->len);
  for (guint i = 0; i < old_rows->len; i++)
    g_assert_cmpstr (new_rows->pdata[i], ==, old_rows->pdata[i]);
  letters = qm_quote_store_list_revisions (store, a->number, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (letters->len, ==, 2);
  reprint = qm_quote_store_load_revision (store, a->number, "B", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (reprint->note, ==, "Servers 5 % cheaper");
  g_assert_cmpstr (reprint->customer_vat, ==, "FR40303265045");
  g_assert_cmpstr (reprint->supplier->name, ==, "Grüne Rechenwerke GmbH");
  g_assert_cmpint (reprint->quote->gross, ==, b->quote->gross);

  /* The quote follows its plan; the deleted plan's quote stays, unlinked. */
  list = qm_plan_store_list (store, NULL, &error);
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (((QmPlanSummary *) list->pdata[i])->name, "Acme 70B"))
      new_plan = ((QmPlanSummary *) list->pdata[i])->id;
  g_assert_cmpint (new_plan, >, 0);
  found = qm_quote_store_find_for_plan (store, new_plan, &error);
  g_assert_cmpstr (found, ==, a->number);
  g_clear_pointer (&list, g_ptr_array_unref);
  list = qm_quote_store_list (store, NULL, NULL, &error);
  g_assert_cmpuint (list->len, ==, 3);
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (((QmQuoteSummary *) list->pdata[i])->number, "ACME-26-041"))
      g_assert_cmpint (((QmQuoteSummary *) list->pdata[i])->plan_id, ==, 0);

  /* Numbering and rates. */
  pattern = qm_quote_store_get_pattern (store);
  g_assert_cmpstr (pattern, ==, "ACME-{YY}-{NNN}");
  g_assert_cmpuint (qm_quote_store_get_sequence (store), ==, 41);
  g_assert_true (qm_quote_date_parse ("2026-06-30", &day));
  rate = qm_quote_store_find_rate (store, "EUR", &day, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (rate->rate_per_usd, ==, 0.92);
  g_assert_cmpstr (rate->source, ==, "ECB reference rate");
  next = save_quote (store, save_quoted_plan (store, "Initech 70B"), "2027-01-04", NULL);
  g_assert_cmpstr (next->number, ==, "ACME-27-042");
}

static void
test_locked (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(QmStore) store = open_path (path, QM_STORE_OPEN_NO_BACKUP);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Locked out", "Acme", 1);
  g_autoptr(GError) error = NULL;
  sqlite3 *other = NULL;

  /* Another program holds the write lock. */
  g_assert_cmpint (sqlite3_open (path, &other), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (other, "BEGIN EXCLUSIVE; INSERT INTO meta VALUES ('x', 'y')",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  qm_store_set_busy_timeout (store, 50);
  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_LOCKED);
  g_assert_nonnull (strstr (error->message, "another program is using the database"));
  g_assert_nonnull (strstr (error->message, path));
  /* The caller's edit is untouched, and reading still works. */
  g_assert_cmpint (plan->id, ==, 0);
  g_assert_cmpstr (plan->name, ==, "Locked out");
  g_assert_cmpuint (qm_plan_store_count (store), ==, 0);
  g_clear_error (&error);

  g_assert_cmpint (sqlite3_exec (other, "ROLLBACK", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
  g_clear_pointer (&store, qm_store_free);

  /* A program that holds the file exclusively keeps us from opening it. */
  g_assert_cmpint (sqlite3_exec (other, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;"
                                 " INSERT INTO meta VALUES ('x', 'y')", NULL, NULL, NULL), ==, SQLITE_OK);
  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_null (store);
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_LOCKED);
  g_assert_nonnull (strstr (error->message, "another program is using the database"));
  sqlite3_close (other);
}

static gpointer
end_read_later (gpointer data)
{
  sqlite3 *other = data;

  g_usleep (300 * G_TIME_SPAN_MILLISECOND);
  /* The store's attempts to switch the journal mode hold a shared lock for
   * a moment, and COMMIT needs every reader gone: like any writer (and like
   * another Quartermaster, which sets a busy timeout), wait for them rather
   * than fail and leave the transaction open, which the store would then
   * wait out in vain (CI saw that once under AddressSanitizer). */
  sqlite3_busy_timeout (other, 10000);
  g_assert_cmpint (sqlite3_exec (other, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  return NULL;
}

/* Another process is writing the new file when this one opens it: turning
 * on write-ahead logging needs the file to itself, and SQLite reports that
 * lock busy at once, without its busy handler. Opening waits for it as a
 * later write would (issue 20: three "plans list" on a fresh file failed
 * with "Could not enable write-ahead logging"). */
static void
test_open_waits (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GThread) thread = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  sqlite3 *other = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (sqlite3_open (path, &other), ==, SQLITE_OK);
  /* Its first write is not committed yet: the file reads as a new one (a
   * schema-0 file with only other programs' tables is refused). */
  g_assert_cmpint (sqlite3_exec (other, "BEGIN IMMEDIATE; CREATE TABLE scratch (a); INSERT INTO scratch VALUES (1)",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  thread = g_thread_new ("reader", end_read_later, other);
  store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_cmpint (qm_store_schema_version (store), ==, qm_store_latest_version ());
  g_thread_join (g_steal_pointer (&thread));
  sqlite3_close (other);
}

static gboolean
run_mount (const char *command)
{
  g_autofree char *full = g_strdup_printf ("sh -c '%s' 2>/dev/null", command);
  int status = -1;

  return g_spawn_command_line_sync (full, NULL, NULL, &status, NULL) &&
         g_spawn_check_wait_status (status, NULL);
}

/* Issue #33 item 9: a database in a folder that cannot be written (a
 * read-only mount; a full disk) could not even be listed ("disk I/O
 * error"): reading a write-ahead-logged file needs its -shm beside it. It
 * opens read-only now, lists its plans, and says why nothing can be
 * saved. Root cannot be kept from writing by permissions, so the folder
 * is a read-only bind mount and a full tmpfs (skipped where mounting is
 * not allowed). */
static void
test_read_only_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-ro-XXXXXX", NULL);
  g_autofree char *rw = g_build_filename (dir, "rw", NULL);
  g_autofree char *ro = g_build_filename (dir, "ro", NULL);
  g_autofree char *full = g_build_filename (dir, "full", NULL);
  const char *folders[] = { ro, full };
  g_autofree char *cmd = NULL;

  g_assert_cmpint (g_mkdir (rw, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (ro, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (full, 0700), ==, 0);
  cmd = g_strdup_printf ("mount --bind %s %s && mount -o remount,ro,bind %s", rw, ro, ro);
  if (!run_mount (cmd))
    {
      g_test_skip ("mounting is not allowed here");
      return;
    }
  g_free (cmd);
  cmd = g_strdup_printf ("mount -t tmpfs -o size=2m tmpfs %s", full);
  g_assert_true (run_mount (cmd));

  for (guint k = 0; k < G_N_ELEMENTS (folders); k++)
    {
      g_autofree char *writable = g_build_filename (k == 0 ? rw : full, "q.db", NULL);
      g_autofree char *path = g_build_filename (folders[k], "q.db", NULL);
      g_autoptr(QmStore) store = open_path (writable, QM_STORE_OPEN_NO_BACKUP);
      g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Not saved", "Acme", 1);
      g_autoptr(GError) error = NULL;
      g_autofree char *why = NULL;

      save_plan (store, "Kept", NULL);
      g_clear_pointer (&store, qm_store_free);
      if (k == 1)
        {
          /* Fill the disk. */
          g_autofree char *filler = g_build_filename (full, "filler", NULL);
          g_autofree char *fill = g_strdup_printf ("dd if=/dev/zero of=%s bs=64k", filler);

          run_mount (fill);
        }

      store = qm_store_open (path, &error);
      g_assert_no_error (error);
      g_assert_nonnull (store);
      g_assert_true (qm_store_is_read_only (store));
      g_assert_cmpuint (qm_plan_store_count (store), ==, 1);
      why = qm_store_rights_reason (store, QM_STORE_RIGHT_EDIT_PLANS);
      g_assert_nonnull (strstr (why, "cannot be written"));
      g_assert_false (qm_plan_store_save (store, plan, &error));
      g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
      g_assert_cmpint (plan->id, ==, 0);
    }
  g_free (cmd);
  cmd = g_strdup_printf ("umount %s && umount %s && rm -rf %s", ro, full, dir);
  g_assert_true (run_mount (cmd));
}

/* Tests run as root, where chmod 0400 does not stop writes, so read-only
 * is simulated two ways SQLite itself honours: opening read-only, and
 * PRAGMA query_only on an open store. As a normal user, a 0400 file is
 * also checked. */
static void
test_read_only (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(QmStore) store = open_path (path, QM_STORE_OPEN_NO_BACKUP);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Edit in the window", "Acme", 1);
  g_autoptr(GError) error = NULL;

  save_plan (store, "Kept", NULL);
  g_assert_cmpint (sqlite3_exec (qm_store_db (store), "PRAGMA query_only = ON", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, "read-only"));
  g_assert_cmpint (plan->id, ==, 0);
  g_clear_error (&error);
  g_clear_pointer (&store, qm_store_free);

  store = open_path (path, QM_STORE_OPEN_READ_ONLY);
  g_assert_true (qm_store_is_read_only (store));
  g_assert_cmpuint (qm_plan_store_count (store), ==, 1);
  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_cmpint (plan->id, ==, 0);
  g_clear_error (&error);
  g_clear_pointer (&store, qm_store_free);

  if (geteuid () != 0)
    {
      g_assert_cmpint (g_chmod (path, 0400), ==, 0);
      store = open_path (path, QM_STORE_OPEN_NO_BACKUP);
      g_assert_true (qm_store_is_read_only (store));
      g_assert_false (qm_plan_store_save (store, plan, &error));
      g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY);
      g_clear_pointer (&store, qm_store_free);
      g_chmod (path, 0600);
    }
}

/* A full disk, simulated with PRAGMA max_page_count. */
static void
test_full (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(QmStore) store = open_path (path, QM_STORE_OPEN_NO_BACKUP);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Too big", "Acme", 1);
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *stmt = NULL;
  g_autofree char *limit = NULL;
  int pages;

  save_plan (store, "Kept", NULL);
  g_assert_cmpint (sqlite3_prepare_v2 (qm_store_db (store), "PRAGMA page_count", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  pages = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  limit = g_strdup_printf ("PRAGMA max_page_count = %d", pages);
  g_assert_cmpint (sqlite3_exec (qm_store_db (store), limit, NULL, NULL, NULL), ==, SQLITE_OK);

  plan->notes = g_strnfill (200000, 'x');
  g_assert_false (qm_plan_store_save (store, plan, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FULL);
  g_assert_nonnull (strstr (error->message, "disk is full"));
  g_assert_cmpint (plan->id, ==, 0);
  g_assert_cmpuint (strlen (plan->notes), ==, 200000);
  g_assert_cmpuint (qm_plan_store_count (store), ==, 1);
  g_assert_true (qm_store_check_integrity (store, NULL));
  g_clear_error (&error);

  /* Space again: the same edit saves. */
  g_assert_cmpint (sqlite3_exec (qm_store_db (store), "PRAGMA max_page_count = 1000000", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_no_error (error);
}

/* A writer killed mid-save leaves only whole plans. */
static void
test_crash_mid_save (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GError) error = NULL;
  int fds[2];
  pid_t pid;
  guint saved = 0;
  int status;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      QmStore *child;

      close (fds[0]);
      alarm (60);
      child = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, NULL);
      if (child == NULL)
        _exit (1);
      for (guint i = 0;; i++)
        {
          QmSavedPlan *plan = qm_test_saved_plan ("x", "Acme", i);

          g_free (plan->name);
          plan->name = g_strdup_printf ("crash %u", i);
          /* Big enough that each save writes many pages. */
          plan->notes = g_strnfill (20000 + i, 'a' + i % 26);
          if (!qm_plan_store_save (child, plan, NULL))
            _exit (2);
          qm_saved_plan_free (plan);
          if (write (fds[1], &i, sizeof i) != sizeof i)
            _exit (3);
        }
    }
  close (fds[1]);
  while (saved < 30)
    {
      guint i;

      g_assert_cmpint (read (fds[0], &i, sizeof i), ==, sizeof i);
      saved = i + 1;
    }
  /* Mid-save, most likely: the child never pauses between saves. */
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  close (fds[0]);

  store = open_path (path, QM_STORE_OPEN_NO_BACKUP);
  g_assert_null (qm_store_recovered_from (store));
  g_assert_true (qm_store_check_integrity (store, &error));
  g_assert_no_error (error);
  list = qm_plan_store_list (store, NULL, &error);
  g_assert_cmpuint (list->len, >=, saved);
  for (guint p = 0; p < list->len; p++)
    {
      QmPlanSummary *s = list->pdata[p];
      g_autoptr(QmSavedPlan) plan = qm_plan_store_load (store, s->id, &error);
      guint i;

      g_assert_no_error (error);
      g_assert_cmpint (sscanf (plan->name, "crash %u", &i), ==, 1);
      /* Every part of the plan belongs to the same save. */
      g_assert_cmpuint (strlen (plan->notes), ==, 20000 + i);
      g_assert_cmpint (plan->notes[0], ==, 'a' + i % 26);
      g_assert_cmpfloat (plan->total_cost, ==, i);
      g_assert_nonnull (strstr (plan->inputs, plan->name));
      g_assert_nonnull (plan->snapshot);
    }
}

static void
test_backups (void)
{
  g_autofree char *path = temp_db_path ();
  g_autoptr(QmStore) store = open_path (path, QM_STORE_OPEN_NONE);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *today = g_date_time_format (now, "%Y-%m-%d");
  g_autofree char *dir = qm_store_backup_dir (store);
  g_autofree char *todays = g_strdup_printf ("%s/test-%s.db", dir, today);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint n = 0;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  /* Opening took today's copy. */
  g_assert_null (qm_store_backup_problem (store));
  g_assert_true (g_file_test (todays, G_FILE_TEST_EXISTS));

  save_plan (store, "In the backup", NULL);
  for (guint day = 1; day <= 9; day++)
    {
      g_autofree char *date = g_strdup_printf ("2020-01-%02u", day);
      g_autofree char *copy = qm_store_backup (store, date, &error);

      g_assert_no_error (error);
      g_assert_true (g_str_has_suffix (copy, ".db"));
    }

  /* Seven are kept: the newest ones, today's among them. */
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      n++;
      g_assert_false (g_str_equal (name, "test-2020-01-01.db"));
      g_assert_false (g_str_equal (name, "test-2020-01-03.db"));
    }
  g_assert_cmpuint (n, ==, QM_STORE_BACKUPS_KEPT);
  g_assert_true (g_file_test (todays, G_FILE_TEST_EXISTS));

  /* A backup is a whole database with the plan in it. */
  {
    g_autofree char *copy = g_strdup_printf ("%s/test-2020-01-09.db", dir);

    g_assert_cmpint (sqlite3_open_v2 (copy, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM plan", -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, 1);
    sqlite3_finalize (stmt);
    sqlite3_close (db);
  }
}

/* Issue #34 item 3: a store lives as long as its last holder. A plan
 * trashed through one holder stays recoverable while another still holds
 * the store; the last unref purges this session's trash. */
static void
test_references (void)
{
  g_autofree char *path = qm_test_db_path ();
  QmStore *store = qm_test_open_store_at (path);
  QmStore *other = qm_store_ref (store);
  g_autoptr(QmSavedPlan) plan = qm_test_saved_plan ("Held", "Acme", 10.0);
  g_autoptr(GPtrArray) trash = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (other == store);
  g_assert_true (qm_plan_store_save (store, plan, &error));
  g_assert_true (qm_plan_store_trash (store, plan->id, &error));
  g_assert_no_error (error);
  /* The first holder lets go: the store is still open for the other. */
  qm_store_unref (store);
  trash = qm_plan_store_list_trash (other, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (trash->len, ==, 1);
  g_clear_pointer (&trash, g_ptr_array_unref);
  g_assert_true (qm_plan_store_restore (other, plan->id, &error));
  g_assert_true (qm_plan_store_trash (other, plan->id, &error));
  g_assert_no_error (error);
  /* The last one: closed, and the session's trash purged. */
  qm_store_unref (other);
  other = qm_test_open_store_at (path);
  trash = qm_plan_store_list_trash (other, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (trash->len, ==, 0);
  g_assert_null (qm_plan_store_load (other, plan->id, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND);
  qm_store_unref (other);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/store/create-and-reopen", test_create_and_reopen);
  g_test_add_func ("/store/refuses-newer-schema", test_refuses_newer_schema);
  g_test_add_func ("/store/not-a-database", test_not_a_database);
  g_test_add_func ("/store/existing-only", test_existing_only);
  g_test_add_func ("/store/read-only-folder", test_read_only_folder);
  g_test_add_func ("/store/default-path", test_default_path);
  g_test_add_func ("/store/corrupt-recover-salvage", test_corrupt_recover_salvage);
  g_test_add_func ("/store/salvage-quotes", test_salvage_quotes);
  g_test_add_func ("/store/locked", test_locked);
  g_test_add_func ("/store/open-waits", test_open_waits);
  g_test_add_func ("/store/read-only", test_read_only);
  g_test_add_func ("/store/full", test_full);
  g_test_add_func ("/store/crash-mid-save", test_crash_mid_save);
  g_test_add_func ("/store/backups", test_backups);
  g_test_add_func ("/store/references", test_references);
  return g_test_run ();
}
