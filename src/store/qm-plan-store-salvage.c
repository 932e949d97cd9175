/* qm-plan-store-salvage.c: copies what can still be read from a damaged
 * database (whole plans and the user's catalog rows) into a new one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "qm-plan-store-private.h"

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
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  return node != NULL;
}

static gboolean
salvage_plan (QmStore      *store,
              sqlite3_stmt *read,
              gint64        id)
{
  g_autoptr(QmSavedPlan) plan = NULL;
  g_auto(QmPlanSaveResult) res = { 0 };
  g_autoptr(JsonObject) check = NULL;
  g_autoptr(sqlite3_stmt) times = NULL;

  sqlite3_reset (read);
  sqlite3_bind_int64 (read, 1, id);
  if (sqlite3_step (read) != SQLITE_ROW)
    return FALSE;

  plan = qm_saved_plan_new ();
  qm_plan_store_read_quote (read, 0, plan);
  plan->notes = qm_store_column_dup (read, 10);
  plan->inputs = qm_store_column_dup (read, 11);
  plan->snapshot = qm_store_column_dup (read, 12);

  /* Only whole plans: the inputs must still parse. */
  if (plan->inputs == NULL || (check = qm_plan_store_parse_json (plan->inputs, -1, "inputs", NULL)) == NULL)
    return FALSE;
  if (plan->snapshot != NULL && !json_valid_text (plan->snapshot))
    g_clear_pointer (&plan->snapshot, g_free);

  if (!qm_store_begin (store, "Could not copy a plan from the damaged database", NULL))
    return FALSE;
  if (!qm_plan_store_save_locked (store, plan, &res, NULL))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  /* Keep the quote's history: its dates and the prices it was quoted with. */
  times = qm_store_prepare (store, "UPDATE plan SET created = ?2, modified = ?3, catalog_version = ?4"
                            " WHERE id = ?1", NULL);
  if (times != NULL)
    {
      sqlite3_bind_int64 (times, 1, res.id);
      sqlite3_bind_int64 (times, 2, sqlite3_column_int64 (read, 8));
      sqlite3_bind_int64 (times, 3, sqlite3_column_int64 (read, 9));
      sqlite3_bind_text (times, 4, (const char *) sqlite3_column_text (read, 13), -1, SQLITE_TRANSIENT);
      sqlite3_step (times);
    }
  g_clear_pointer (&times, sqlite3_finalize);
  times = qm_store_prepare (store, "UPDATE plan_data SET prices = ?2 WHERE plan_id = ?1"
                            " AND json_valid (?2)", NULL);
  if (times != NULL)
    {
      sqlite3_bind_int64 (times, 1, res.id);
      sqlite3_bind_text (times, 2, (const char *) sqlite3_column_text (read, 14), -1, SQLITE_TRANSIENT);
      sqlite3_step (times);
    }
  return qm_store_commit (store, "Could not copy a plan from the damaged database", NULL);
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

int
qm_store_salvage (QmStore     *store,
                  const char  *damaged_path,
                  GError     **error)
{
  g_autoptr(sqlite3_stmt) ids = NULL;
  g_autoptr(sqlite3_stmt) read = NULL;
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3 *old = NULL;
  gint64 last = 0;
  int copied = 0;
  int rc;

  if (!qm_store_check_writable (store, "Could not import from the damaged database", error))
    return -1;

  rc = sqlite3_open_v2 (damaged_path, &old, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK)
    {
      g_autofree char *what = g_strdup_printf ("Could not open the damaged database %s", damaged_path);
      qm_store_set_error (error, old, rc, what);
      sqlite3_close_v2 (old);
      return -1;
    }
  rc = sqlite3_prepare_v2 (old,
                           "SELECT p.name, p.customer, p.quote_ref, p.tags, p.model, p.gpus, p.days,"
                           " p.total_cost, p.created, p.modified, d.notes, d.inputs, d.snapshot,"
                           " p.catalog_version, d.prices"
                           " FROM plan p JOIN plan_data d ON d.plan_id = p.id"
                           " WHERE p.id = ?1 AND p.trashed_session IS NULL",
                           -1, &read, NULL);
  if (rc != SQLITE_OK)
    {
      /* No plan tables at all (an old schema, or page 1 is gone). */
      g_autofree char *what = g_strdup_printf ("Could not read any plans from %s", damaged_path);
      qm_store_set_error (error, old, rc, what);
      g_clear_pointer (&read, sqlite3_finalize);
      sqlite3_close_v2 (old);
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
    copied += salvage_plan (store, read, g_array_index (seen, gint64, i));
  if (rc != SQLITE_DONE)
    for (gint64 id = last + 1, misses = 0; misses < SALVAGE_PROBE_GAP; id++)
      {
        gboolean ok = salvage_plan (store, read, id);

        copied += ok;
        misses = ok ? 0 : misses + 1;
      }

  salvage_catalog (store, old);

  g_clear_pointer (&ids, sqlite3_finalize);
  g_clear_pointer (&read, sqlite3_finalize);
  sqlite3_close_v2 (old);
  return copied;
}
