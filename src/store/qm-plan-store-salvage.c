/* qm-plan-store-salvage.c: copies what can still be read from a damaged
 * database (whole plans, the user's catalog rows, quotes with their
 * revisions, the quote numbering and exchange rates) into a new one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-plan-store-private.h"
#include "qm-quote-store.h"
#include "qm-json-parse.h"

/* ------------------------------------------------------------------ */
/* Salvage from a damaged file.                                        */

/* When a scan of the damaged table stops early, ids past the last one
 * read are probed one by one until this many in a row cannot be read:
 * ids are dense (INTEGER PRIMARY KEY), so rows behind a bad page sit just
 * past it. */
#define SALVAGE_PROBE_GAP 2000

static gboolean
json_valid_text (const char *text)
{
  g_autoptr(JsonNode) node = qm_json_from_string (text, NULL);

  return node != NULL;
}

/* The plan's id in the new file, or 0 when it could not be copied. */
static gint64
salvage_plan (QmStore      *store,
              QmDbStmt     *read,
              gint64        id)
{
  g_autoptr(QmSavedPlan) plan = NULL;
  g_auto(QmPlanSaveResult) res = { 0 };
  g_autoptr(JsonObject) check = NULL;
  g_autoptr(QmDbStmt) times = NULL;

  qm_db_reset (read);
  qm_db_bind_int64 (read, 1, id);
  if (qm_db_step (read) != QM_DB_STEP_ROW)
    return 0;

  plan = qm_saved_plan_new ();
  qm_plan_store_read_quote (read, 0, plan);
  plan->notes = qm_db_column_dup (read, 10);
  plan->inputs = qm_db_column_dup (read, 11);
  plan->snapshot = qm_db_column_dup (read, 12);

  /* Only whole plans: the inputs must still parse. */
  if (plan->inputs == NULL || (check = qm_plan_store_parse_json (plan->inputs, -1, "inputs", NULL)) == NULL)
    return 0;
  if (plan->snapshot != NULL && !json_valid_text (plan->snapshot))
    g_clear_pointer (&plan->snapshot, g_free);

  if (!qm_store_begin (store, "Could not copy a plan from the damaged database", NULL))
    return 0;
  if (!qm_plan_store_save_locked (store, plan, &res, NULL))
    {
      qm_store_rollback (store);
      return 0;
    }
  /* Keep the quote's history: its dates and the prices it was quoted with. */
  times = qm_store_query (store, "UPDATE plan SET created = ?2, modified = ?3, catalog_version = ?4"
                          " WHERE id = ?1", NULL);
  if (times != NULL)
    {
      qm_db_bind_int64 (times, 1, res.id);
      qm_db_bind_int64 (times, 2, qm_db_column_int64 (read, 8));
      qm_db_bind_int64 (times, 3, qm_db_column_int64 (read, 9));
      qm_db_bind_text (times, 4, qm_db_column_text (read, 13));
      qm_db_step (times);
    }
  g_clear_pointer (&times, qm_db_stmt_free);
  times = qm_store_query (store, "UPDATE plan_data SET prices = ?2 WHERE plan_id = ?1"
                          " AND json_valid (?2)", NULL);
  if (times != NULL)
    {
      qm_db_bind_int64 (times, 1, res.id);
      qm_db_bind_text (times, 2, qm_db_column_text (read, 14));
      qm_db_step (times);
    }
  return qm_store_commit (store, "Could not copy a plan from the damaged database", NULL) ? res.id : 0;
}

/* Notes that the plan @old_id is @new_id now; FALSE when it was lost. */
static gboolean
keep_plan_id (GHashTable *plan_ids,
              gint64      old_id,
              gint64      new_id)
{
  if (new_id == 0)
    return FALSE;
  g_hash_table_insert (plan_ids, g_memdup2 (&old_id, sizeof old_id), g_memdup2 (&new_id, sizeof new_id));
  return TRUE;
}

/* Copies the rows of @select in @old into @insert, value by value; a row
 * the new file's CHECKs refuse (bad JSON) is simply skipped. */
static void
copy_rows (QmStore    *store,
           sqlite3    *old,
           const char *select,
           const char *insert)
{
  g_autoptr(sqlite3_stmt) read = NULL;
  g_autoptr(sqlite3_stmt) write = NULL;
  int n;

  if (sqlite3_prepare_v2 (old, select, -1, &read, NULL) != SQLITE_OK ||
      (write = qm_store_prepare (store, insert, NULL)) == NULL)
    return;
  n = sqlite3_column_count (read);
  while (sqlite3_step (read) == SQLITE_ROW)
    {
      sqlite3_reset (write);
      for (int c = 0; c < n; c++)
        sqlite3_bind_value (write, c + 1, sqlite3_column_value (read, c));
      sqlite3_step (write);
    }
}

static void
salvage_catalog (QmStore *store,
                 sqlite3 *old)
{
  copy_rows (store, old,
             "SELECT kind, id, vendor, name, price_usd, source, as_of, entry,"
             " created, modified FROM catalog_user",
             "INSERT OR IGNORE INTO catalog_user (kind, id, vendor, name,"
             " price_usd, source, as_of, entry, created, modified)"
             " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  copy_rows (store, old,
             "SELECT kind, id, price_usd, modified FROM catalog_override",
             "INSERT OR IGNORE INTO catalog_override (kind, id, price_usd,"
             " modified) VALUES (?1, ?2, ?3, ?4)");
}

/* The new id of the plan that had @old_id, or 0 when it was lost. */
static gint64
plan_id_lookup (GHashTable *plan_ids,
                gint64      old_id)
{
  gint64 *new_id = g_hash_table_lookup (plan_ids, &old_id);

  return new_id != NULL ? *new_id : 0;
}

/* Copies the revisions of quote @old_id as they are, column by column, so
 * a reprint rebuilds the same figures; the number of revisions copied. */
static int
salvage_revisions (QmStore *store,
                   sqlite3 *old,
                   gint64   old_id,
                   gint64   new_id)
{
  g_autoptr(sqlite3_stmt) read = NULL;
  g_autoptr(sqlite3_stmt) write = NULL;
  int copied = 0;

  /* The customer's VAT id (schema step 9) when the damaged file has the
   * column, else '' (a file from before it). */
  if ((sqlite3_prepare_v2 (old, "SELECT seq, letter, issued, valid_days, note, customer, currency,"
                                " exchange_rate, rate_date, rate_source, catalog_version, terms,"
                                " plan, quote, exponent, gross, created, customer_vat"
                                " FROM quote_revision WHERE quote_id = ?1 ORDER BY seq",
                           -1, &read, NULL) != SQLITE_OK &&
       sqlite3_prepare_v2 (old, "SELECT seq, letter, issued, valid_days, note, customer, currency,"
                                " exchange_rate, rate_date, rate_source, catalog_version, terms,"
                                " plan, quote, exponent, gross, created, ''"
                                " FROM quote_revision WHERE quote_id = ?1 ORDER BY seq",
                           -1, &read, NULL) != SQLITE_OK) ||
      (write = qm_store_prepare (store, "INSERT INTO quote_revision (quote_id, seq, letter, issued,"
                                        " valid_days, note, customer, currency, exchange_rate,"
                                        " rate_date, rate_source, catalog_version, terms, plan,"
                                        " quote, exponent, gross, created, customer_vat) VALUES (?1,"
                                        " ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
                                        " ?16, ?17, ?18, ?19)", NULL)) == NULL)
    return 0;
  sqlite3_bind_int64 (read, 1, old_id);
  while (sqlite3_step (read) == SQLITE_ROW)
    {
      sqlite3_reset (write);
      sqlite3_bind_int64 (write, 1, new_id);
      for (int c = 0; c < 18; c++)
        sqlite3_bind_value (write, c + 2, sqlite3_column_value (read, c));
      copied += sqlite3_step (write) == SQLITE_DONE;
    }
  return copied;
}

/* One quote and its revisions, in one transaction: a quote whose number
 * the new file has already, or of which no revision can be read, is left
 * out rather than merged or kept empty. */
static void
salvage_quote (QmStore      *store,
               sqlite3      *old,
               sqlite3_stmt *read,
               sqlite3_stmt *write,
               GHashTable   *plan_ids)
{
  const char *what = "Could not copy a quote from the damaged database";
  gint64 plan_id = plan_id_lookup (plan_ids, sqlite3_column_int64 (read, 2));

  if (!qm_store_begin (store, what, NULL))
    return;
  sqlite3_reset (write);
  for (int c = 1; c < sqlite3_column_count (read); c++)
    sqlite3_bind_value (write, c, sqlite3_column_value (read, c));
  /* The plan's new id; NULL, as after its deletion, when it was lost. */
  if (plan_id > 0)
    sqlite3_bind_int64 (write, 2, plan_id);
  else
    sqlite3_bind_null (write, 2);
  if (sqlite3_step (write) != SQLITE_DONE || sqlite3_changes (qm_store_db (store)) == 0 ||
      salvage_revisions (store, old, sqlite3_column_int64 (read, 0),
                         sqlite3_last_insert_rowid (qm_store_db (store))) == 0)
    {
      qm_store_rollback (store);
      return;
    }
  qm_store_commit (store, what, NULL);
}

/* Quotes, exchange rates and the numbering. The meta keys are those of
 * qm-quote-store.c. A pattern set in the new file wins; the sequence goes
 * on after the highest number either file handed out. */
static void
salvage_quotes (QmStore    *store,
                sqlite3    *old,
                GHashTable *plan_ids)
{
  g_autoptr(sqlite3_stmt) read = NULL;
  g_autoptr(sqlite3_stmt) write = NULL;
  g_autoptr(sqlite3_stmt) seq = NULL;

  /* With the customer's VAT id when the file has it (schema step 9). */
  if ((sqlite3_prepare_v2 (old, "SELECT id, number, plan_id, plan_name, customer, project,"
                                " prepared_by, state, payment_terms, terms, created, modified,"
                                " customer_vat FROM quote ORDER BY id", -1, &read, NULL) == SQLITE_OK ||
       sqlite3_prepare_v2 (old, "SELECT id, number, plan_id, plan_name, customer, project,"
                                " prepared_by, state, payment_terms, terms, created, modified, ''"
                                " FROM quote ORDER BY id", -1, &read, NULL) == SQLITE_OK) &&
      (write = qm_store_prepare (store, "INSERT OR IGNORE INTO quote (number, plan_id, plan_name,"
                                        " customer, project, prepared_by, state, payment_terms,"
                                        " terms, created, modified, customer_vat) VALUES (?1, ?2, ?3,"
                                        " ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)", NULL)) != NULL)
    while (sqlite3_step (read) == SQLITE_ROW)
      salvage_quote (store, old, read, write, plan_ids);
  /* The supplier details, unless the new file has its own. */
  copy_rows (store, old,
             "SELECT id, name, address, vat_id, registration, email, phone, bank, iban, bic, modified"
             " FROM supplier",
             "INSERT OR IGNORE INTO supplier (id, name, address, vat_id, registration, email, phone,"
             " bank, iban, bic, modified) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");

  copy_rows (store, old,
             "SELECT currency, date, rate_per_usd, source FROM exchange_rate",
             "INSERT OR IGNORE INTO exchange_rate (currency, date, rate_per_usd, source)"
             " VALUES (?1, ?2, ?3, ?4)");
  copy_rows (store, old,
             "SELECT key, value FROM meta WHERE key = 'quote_number_pattern'",
             "INSERT OR IGNORE INTO meta (key, value) VALUES (?1, ?2)");
  if (sqlite3_prepare_v2 (old, "SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'quote_sequence'",
                          -1, &seq, NULL) == SQLITE_OK && sqlite3_step (seq) == SQLITE_ROW)
    {
      guint64 last = (guint64) MAX (sqlite3_column_int64 (seq, 0), 0);

      if (last > qm_quote_store_get_sequence (store))
        qm_quote_store_set_sequence (store, last + 1, NULL);
    }
}

int
qm_store_salvage (QmStore     *store,
                  const char  *damaged_path,
                  GError     **error)
{
  g_autoptr(sqlite3_stmt) ids = NULL;
  g_autoptr(QmDb) old_db = NULL;     /* freed after read */
  g_autoptr(QmDbStmt) read = NULL;
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GHashTable) plan_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  sqlite3 *old = NULL;
  gint64 last = 0;
  int copied = 0;
  int rc;

  if (!qm_store_check_writable (store, _("Could not import from the damaged database"), error))
    return -1;

  rc = sqlite3_open_v2 (damaged_path, &old, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK)
    {
      /* Translators: %s is the damaged database file. */
      g_autofree char *what = g_strdup_printf (_("Could not open the damaged database %s"),
                                               damaged_path);
      qm_store_set_error (error, old, rc, what);
      sqlite3_close_v2 (old);
      return -1;
    }
  /* The damaged file is read through the engine layer, as the plans are. */
  old_db = qm_db_new_sqlite (old, damaged_path);
  read = qm_db_prepare (old_db,
                        "SELECT p.name, p.customer, p.quote_ref, p.tags, p.model, p.gpus, p.days,"
                        " p.total_cost, p.created, p.modified, d.notes, d.inputs, d.snapshot,"
                        " p.catalog_version, d.prices"
                        " FROM plan p JOIN plan_data d ON d.plan_id = p.id"
                        " WHERE p.id = ?1 AND p.trashed_session IS NULL",
                        NULL);
  if (read == NULL)
    {
      /* No plan tables at all (an old schema, or page 1 is gone). */
      /* Translators: %s is the damaged database file. */
      qm_db_fail (old_db, error, _("Could not read any plans from %s"), damaged_path);
      return -1;
    }

  /* Walk the ids as far as the table can be read, then probe past the
   * point where the walk stopped. */
  if (sqlite3_prepare_v2 (old, "SELECT id FROM plan ORDER BY id", -1, &ids, NULL) == SQLITE_OK)
    {
      while ((rc = sqlite3_step (ids)) == SQLITE_ROW)
        {
          gint64 id = sqlite3_column_int64 (ids, 0);
          g_array_append_val (seen, id);
          last = MAX (last, id);
        }
    }
  for (guint i = 0; i < seen->len; i++)
    copied += keep_plan_id (plan_ids, g_array_index (seen, gint64, i),
                            salvage_plan (store, read, g_array_index (seen, gint64, i)));
  if (rc != SQLITE_DONE)
    for (gint64 id = last + 1, misses = 0; misses < SALVAGE_PROBE_GAP; id++)
      {
        gboolean ok = keep_plan_id (plan_ids, id, salvage_plan (store, read, id));

        copied += ok;
        misses = ok ? 0 : misses + 1;
      }

  salvage_catalog (store, old);
  salvage_quotes (store, old, plan_ids);

  g_clear_pointer (&ids, sqlite3_finalize);
  g_clear_pointer (&read, qm_db_stmt_free);
  /* old_db closes @old. */
  return copied;
}
