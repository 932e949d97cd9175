/* qm-catalog-store-history.c: the price history of catalog entries
 * (table catalog_price_history, schema step 5 → 6): every change of a
 * price override and of a user entry's own price, with who made it and
 * when, so that a team sees how a negotiated price came to be.
 *
 * On a server the history is the server's own: triggers write each change
 * with session_user and the server's clock, and no team role may write
 * the table (schema step 7, issue #33 item 1), so nothing here writes it.
 * On a file, the OS user.
 * When is UTC, ISO 8601 with microseconds (the server's clock on a
 * server), so the text sorts in time order on both engines and survives a
 * copy between them unchanged.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-catalog-store-private.h"

void
qm_catalog_price_change_free (QmCatalogPriceChange *change)
{
  if (change == NULL)
    return;
  g_free (change->id);
  g_free (change->who);
  g_free (change->changed_at);
  g_free (change);
}

static const char record_sql[] =
  "INSERT INTO catalog_price_history"
  " (kind, id, is_override, old_price, new_price, changed_at, revision, who)"
  " VALUES ";
static const char record_sqlite_row[] = "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
/* Now, as the history writes it. */
static char *
now_utc (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.%fZ");
}

/* Binds @price, or NULL for no price. */
static void
bind_price (QmDbStmt      *stmt,
            int            index,
            const double  *price)
{
  if (price != NULL)
    qm_db_bind_double (stmt, index, *price);
  else
    qm_db_bind_null (stmt, index);
}

gboolean
qm_catalog_store_record_prices (QmStore                     *store,
                                GHashTable                  *cache,
                                const QmCatalogPriceRecord  *records,
                                guint                        n,
                                GError                     **error)
{
  gboolean pg = qm_db_engine (qm_store_connection (store)) == QM_DB_POSTGRESQL;
  g_autofree char *rows = NULL;
  g_autofree char *sql = NULL;
  g_autoptr(QmDbStmt) owned = NULL;
  QmDbStmt *stmt;

  /* The server's triggers wrote it with the change itself. */
  if (pg)
    return TRUE;
  rows = qm_catalog_store_values_sql (record_sqlite_row, 8, n);
  sql = g_strconcat (record_sql, rows, NULL);
  stmt = cache != NULL ? qm_catalog_store_query_cached (store, cache, sql, error)
                       : (owned = qm_store_query (store, sql, error));

  if (stmt == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const QmCatalogPriceRecord *r = &records[i];
      int base = i * 8;

      qm_db_bind_text (stmt, base + 1, qm_catalog_kind_to_string (r->kind));
      qm_db_bind_text (stmt, base + 2, r->id);
      qm_db_bind_int64 (stmt, base + 3, r->is_override ? 1 : 0);
      bind_price (stmt, base + 4, r->old_price);
      bind_price (stmt, base + 5, r->new_price);
      qm_db_bind_int64 (stmt, base + 7, r->revision);
      {
        g_autofree char *when = now_utc ();

        qm_db_bind_text (stmt, base + 6, when);
        qm_db_bind_text (stmt, base + 8, g_get_user_name ());
      }
    }
  return qm_store_query_done (store, stmt, error,
                              /* Translators: a catalog kind as the files name it (gpu, server,
                               * network, storage, facility, cloud, model), then the entry's id. */
                              _("Could not record the price change of the %s \"%s\""),
                              qm_catalog_kind_to_string (records[0].kind), records[0].id);
}

gboolean
qm_catalog_store_record_price (QmStore        *store,
                               QmCatalogKind   kind,
                               const char     *id,
                               gboolean        is_override,
                               const double   *old_price,
                               const double   *new_price,
                               gint64          revision,
                               GError        **error)
{
  QmCatalogPriceRecord record = { kind, id, is_override, old_price, new_price, revision };

  return qm_catalog_store_record_prices (store, NULL, &record, 1, error);
}

GPtrArray *
qm_catalog_store_price_history (QmStore        *store,
                                QmCatalogKind   kind,
                                const char     *id,
                                GError        **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_catalog_price_change_free);
  g_autoptr(QmDbStmt) stmt = NULL;
  QmDbStep step;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);

  stmt = qm_catalog_store_prepare_kind_id (store,
                                           "SELECT is_override, old_price, new_price, who, changed_at,"
                                           " revision FROM catalog_price_history"
                                           " WHERE kind = ?1 AND id = ?2"
                                           " ORDER BY changed_at DESC, seq DESC",
                                           kind, id, error);
  if (stmt == NULL)
    return NULL;
  while ((step = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    {
      QmCatalogPriceChange *c = g_new0 (QmCatalogPriceChange, 1);

      c->kind = kind;
      c->id = g_strdup (id);
      c->is_override = qm_db_column_int64 (stmt, 0) != 0;
      c->has_old = !qm_db_column_is_null (stmt, 1);
      c->old_price_usd = c->has_old ? qm_db_column_double (stmt, 1) : 0.0;
      c->has_new = !qm_db_column_is_null (stmt, 2);
      c->new_price_usd = c->has_new ? qm_db_column_double (stmt, 2) : 0.0;
      c->who = qm_db_column_dup (stmt, 3);
      c->changed_at = qm_db_column_dup (stmt, 4);
      c->revision = qm_db_column_int64 (stmt, 5);
      g_ptr_array_add (out, c);
    }
  if (step != QM_DB_STEP_DONE)
    {
      /* Translators: a catalog kind as the files name it (gpu, server,
       * network, storage, facility, cloud, model), then the entry's id. */
      qm_store_db_fail (store, error, _("Could not read the price history of the %s \"%s\""),
                        qm_catalog_kind_to_string (kind), id);
      return NULL;
    }
  return g_steal_pointer (&out);
}
