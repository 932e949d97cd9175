/* qm-plan-store-copy.c: plans written exactly as they are, for copying
 * between databases (quartermaster-cli db copy, issue #23), and the
 * content hash that checks such a copy.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-plan-store-private.h"

static void
hash_int (GChecksum *sum,
          gint64     v)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, v);

  qm_store_hash_text (sum, text);
}

static void
hash_double (GChecksum *sum,
             double     v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  qm_store_hash_text (sum, g_ascii_dtostr (buf, sizeof buf, v));
}

char *
qm_saved_plan_hash (const QmSavedPlan *plan)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  hash_int (sum, plan->id);
  qm_store_hash_text (sum, plan->name);
  qm_store_hash_text (sum, plan->customer);
  qm_store_hash_text (sum, plan->quote_ref);
  qm_store_hash_text (sum, plan->tags);
  qm_store_hash_text (sum, plan->notes);
  qm_store_hash_text (sum, plan->inputs);
  qm_store_hash_text (sum, plan->snapshot);
  qm_store_hash_text (sum, plan->model);
  hash_int (sum, plan->gpus);
  hash_double (sum, plan->days);
  hash_double (sum, plan->total_cost);
  qm_store_hash_text (sum, plan->catalog_version);
  qm_store_hash_text (sum, plan->prices);
  hash_int (sum, plan->created);
  hash_int (sum, plan->modified);
  hash_int (sum, plan->revision);
  return g_strdup (g_checksum_get_string (sum));
}

static const char put_plan_sql[] =
  "INSERT INTO plan (id, name, customer, quote_ref, tags, model, gpus, days, total_cost,"
  " catalog_version, created, modified, search_key, revision)"
  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
  " ON CONFLICT (id) DO UPDATE SET name = excluded.name, customer = excluded.customer,"
  "  quote_ref = excluded.quote_ref, tags = excluded.tags, model = excluded.model,"
  "  gpus = excluded.gpus, days = excluded.days, total_cost = excluded.total_cost,"
  "  catalog_version = excluded.catalog_version, created = excluded.created,"
  "  modified = excluded.modified, search_key = excluded.search_key,"
  "  revision = excluded.revision, trashed_session = NULL, trashed_at = NULL";

static const char put_data_sql[] =
  "INSERT INTO plan_data (plan_id, notes, inputs, snapshot, prices)"
  " VALUES (?1, ?2, ?3, ?4, ?5)"
  " ON CONFLICT (plan_id) DO UPDATE SET notes = excluded.notes,"
  "  inputs = excluded.inputs, snapshot = excluded.snapshot, prices = excluded.prices";

static gboolean
put_locked (QmStore            *store,
            const QmSavedPlan  *plan,
            const char         *what,
            GError            **error)
{
  g_autofree char *search_key = qm_plan_search_key (plan->name, plan->customer, plan->tags,
                                                    plan->model, plan->quote_ref);
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, put_plan_sql, error);

  if (stmt == NULL)
    return FALSE;
  qm_db_bind_int64 (stmt, 1, plan->id);
  qm_db_bind_text (stmt, 2, plan->name);
  qm_db_bind_text (stmt, 3, plan->customer != NULL ? plan->customer : "");
  qm_db_bind_text (stmt, 4, plan->quote_ref != NULL ? plan->quote_ref : "");
  qm_db_bind_text (stmt, 5, plan->tags != NULL ? plan->tags : "");
  qm_db_bind_text (stmt, 6, plan->model != NULL ? plan->model : "");
  qm_db_bind_int64 (stmt, 7, plan->gpus);
  qm_db_bind_double (stmt, 8, plan->days);
  qm_db_bind_double (stmt, 9, plan->total_cost);
  qm_db_bind_text (stmt, 10, plan->catalog_version != NULL ? plan->catalog_version : "");
  qm_db_bind_int64 (stmt, 11, plan->created);
  qm_db_bind_int64 (stmt, 12, plan->modified);
  qm_db_bind_text (stmt, 13, search_key);
  qm_db_bind_int64 (stmt, 14, MAX (plan->revision, 1));
  if (!qm_store_query_done (store, stmt, error, "%s", what))
    return FALSE;
  g_clear_pointer (&stmt, qm_db_stmt_free);

  if ((stmt = qm_store_query (store, put_data_sql, error)) == NULL)
    return FALSE;
  qm_db_bind_int64 (stmt, 1, plan->id);
  qm_db_bind_text (stmt, 2, plan->notes != NULL ? plan->notes : "");
  qm_db_bind_text (stmt, 3, plan->inputs);
  qm_db_bind_text (stmt, 4, plan->snapshot);
  qm_db_bind_text (stmt, 5, plan->prices != NULL ? plan->prices : "{}");
  if (!qm_store_query_done (store, stmt, error, "%s", what))
    return FALSE;
  g_clear_pointer (&stmt, qm_db_stmt_free);

  /* PostgreSQL's identity does not see ids given by hand: move it past
   * them, so the next new plan does not take a copied plan's id. */
  if (qm_db_engine (qm_store_connection (store)) == QM_DB_POSTGRESQL)
    {
      stmt = qm_store_query (store, "SELECT setval (pg_get_serial_sequence ('plan', 'id'),"
                                    " (SELECT max (id) FROM plan))", error);
      if (stmt == NULL || qm_db_step (stmt) != QM_DB_STEP_ROW)
        {
          if (stmt != NULL)
            qm_store_db_fail (store, error, "%s", what);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
qm_plan_store_put (QmStore            *store,
                   const QmSavedPlan  *plan,
                   GError            **error)
{
  g_autofree char *what = g_strdup_printf (_("Could not copy the plan \"%s\""),
                                           plan->name != NULL ? plan->name : "");

  g_return_val_if_fail (plan->id > 0, FALSE);

  if (plan->name == NULL || *plan->name == '\0' || plan->inputs == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: what failed ("Could not copy the plan \"NAME\""), then
                    * the saved plan's number. */
                   _("%s: plan %lld has no name or no inputs"), what, (long long) plan->id);
      return FALSE;
    }
  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_PLANS, what, error) ||
      !qm_store_begin (store, what, error))
    return FALSE;
  if (!put_locked (store, plan, what, error) ||
      !qm_store_notify (store, QM_STORE_CHANGE_PLANS, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  return qm_store_commit (store, what, error);
}
