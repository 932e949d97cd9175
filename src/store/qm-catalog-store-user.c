/* qm-catalog-store-user.c: the user's own catalog entries (add, change,
 * delete), hiding built-in ones and price overrides. Every write checks
 * the entry with the core's catalog parser first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "qm-catalog-store-private.h"

/* ------------------------------------------------------------------ */
/* The user's entries.                                                 */

static gboolean
row_exists (QmStore        *store,
            const char     *table_sql,
            QmCatalogKind   kind,
            const char     *id,
            gboolean       *exists,
            GError        **error)
{
  g_autoptr(sqlite3_stmt) stmt = qm_catalog_store_prepare_kind_id (store, table_sql, kind, id, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not read the catalog");
      return FALSE;
    }
  *exists = rc == SQLITE_ROW;
  return TRUE;
}

#define BUILTIN_EXISTS "SELECT 1 FROM catalog_builtin WHERE kind = ?1 AND id = ?2"
#define USER_EXISTS    "SELECT 1 FROM catalog_user WHERE kind = ?1 AND id = ?2"

/* Checks @json as an entry of @kind; returns the canonical JSON text and
 * the parsed info (strings interned). */
static char *
canonical_entry (QmCatalogKind   kind,
                 JsonObject     *o,
                 QmCatalogInfo  *info_out,
                 GError        **error)
{
  g_autofree guint8 *spec = g_malloc0 (qm_catalog_kind_struct_size (kind));
  g_autoptr(JsonObject) canonical = NULL;
  GError *local_error = NULL;

  if (!qm_catalog_parse_object (kind, o, QM_CATALOG_PARSE_NONE, spec, &local_error))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, "%s", local_error->message);
      g_error_free (local_error);
      return NULL;
    }
  *info_out = *(QmCatalogInfo *) spec;
  canonical = qm_catalog_spec_to_json (kind, spec);
  return qm_store_object_to_text (canonical, FALSE);
}

/* canonical_entry() of the JSON text @json; errors start with @what. */
static char *
canonical_entry_text (QmCatalogKind   kind,
                      const char     *json,
                      QmCatalogInfo  *info_out,
                      const char     *what,
                      GError        **error)
{
  g_autoptr(JsonObject) o = qm_catalog_store_parse_json (json, error);
  char *text = o != NULL ? canonical_entry (kind, o, info_out, error) : NULL;

  if (text == NULL)
    g_prefix_error (error, "%s: ", what);
  return text;
}

/* Whether a built-in or a user's entry of @kind has the id @id. */
static gboolean
id_taken (QmStore        *store,
          QmCatalogKind   kind,
          const char     *id,
          gboolean       *taken,
          GError        **error)
{
  if (!row_exists (store, BUILTIN_EXISTS, kind, id, taken, error))
    return FALSE;
  return *taken || row_exists (store, USER_EXISTS, kind, id, taken, error);
}

gboolean
qm_catalog_store_write_user (QmStore              *store,
                             QmCatalogKind         kind,
                             const char           *old_id,
                             const QmCatalogInfo  *info,
                             const char           *text,
                             GError              **error)
{
  const char *sql = old_id == NULL
                    ? "INSERT INTO catalog_user (kind, id, vendor, name, price_usd, source,"
                      " as_of, entry, created, modified)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)"
                    : "UPDATE catalog_user SET id = ?2, vendor = ?3, name = ?4,"
                      " price_usd = ?5, source = ?6, as_of = ?7, entry = ?8, modified = ?9"
                      " WHERE kind = ?1 AND id = ?10";
  g_autoptr(sqlite3_stmt) stmt = qm_catalog_store_prepare_kind_id (store, sql, kind, info->id, error);
  gint64 now = g_get_real_time ();

  if (stmt == NULL)
    return FALSE;
  qm_store_bind_text (stmt, 3, info->vendor ? info->vendor : "");
  qm_store_bind_text (stmt, 4, info->name);
  sqlite3_bind_double (stmt, 5, info->price_usd);
  qm_store_bind_text (stmt, 6, info->source ? info->source : "");
  qm_store_bind_text (stmt, 7, info->as_of ? info->as_of : "");
  qm_store_bind_text (stmt, 8, text);
  sqlite3_bind_int64 (stmt, 9, now);
  if (old_id != NULL)
    qm_store_bind_text (stmt, 10, old_id);
  return qm_store_step_done (store, stmt, error, "Could not save the %s \"%s\"",
                             qm_catalog_kind_to_string (kind), info->id);
}

gboolean
qm_catalog_store_add (QmStore        *store,
                      QmCatalogKind   kind,
                      const char     *json,
                      GError        **error)
{
  g_autofree char *text = NULL;
  QmCatalogInfo info;
  gboolean exists = FALSE;
  const char *what = "Could not add the catalog entry";

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if ((text = canonical_entry_text (kind, json, &info, what, error)) == NULL)
    return FALSE;
  if (!qm_store_begin (store, what, error))
    return FALSE;
  if (!id_taken (store, kind, info.id, &exists, error))
    goto fail;
  if (exists)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s: id: a %s with the id \"%s\" exists already; choose another id",
                   what, qm_catalog_kind_to_string (kind), info.id);
      goto fail;
    }
  if (!qm_catalog_store_write_user (store, kind, NULL, &info, text, error))
    goto fail;
  return qm_store_commit (store, what, error);

fail:
  qm_store_rollback (store);
  return FALSE;
}

gboolean
qm_catalog_store_update (QmStore        *store,
                         QmCatalogKind   kind,
                         const char     *id,
                         const char     *json,
                         GError        **error)
{
  g_autofree char *text = NULL;
  g_autofree char *what = g_strdup_printf ("Could not change the %s \"%s\"",
                                           qm_catalog_kind_to_string (kind), id);
  QmCatalogInfo info;
  gboolean exists = FALSE;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if ((text = canonical_entry_text (kind, json, &info, what, error)) == NULL)
    return FALSE;
  if (!qm_store_begin (store, what, error))
    return FALSE;
  if (!row_exists (store, USER_EXISTS, kind, id, &exists, error))
    goto fail;
  if (!exists)
    {
      gboolean builtin = FALSE;

      if (!row_exists (store, BUILTIN_EXISTS, kind, id, &builtin, error))
        goto fail;
      g_set_error (error, QM_STORE_ERROR, builtin ? QM_STORE_ERROR_INVALID : QM_STORE_ERROR_NOT_FOUND,
                   builtin ? "%s: it is a built-in entry; override its price, or duplicate it and edit the copy"
                           : "%s: there is no such entry of your own", what);
      goto fail;
    }
  if (g_strcmp0 (id, info.id) != 0)
    {
      if (!id_taken (store, kind, info.id, &exists, error))
        goto fail;
      if (exists)
        {
          g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                       "%s: id: \"%s\" is taken by another entry", what, info.id);
          goto fail;
        }
    }
  if (!qm_catalog_store_write_user (store, kind, id, &info, text, error))
    goto fail;
  return qm_store_commit (store, what, error);

fail:
  qm_store_rollback (store);
  return FALSE;
}

static gboolean
exec_kind_id (QmStore        *store,
              const char     *sql,
              QmCatalogKind   kind,
              const char     *id,
              int            *changes,
              GError        **error)
{
  g_autoptr(sqlite3_stmt) stmt = qm_catalog_store_prepare_kind_id (store, sql, kind, id, error);

  if (stmt == NULL || !qm_store_step_done (store, stmt, error, "Could not change the %s \"%s\"",
                           qm_catalog_kind_to_string (kind), id))
    return FALSE;
  if (changes != NULL)
    *changes = sqlite3_changes (qm_store_db (store));
  return TRUE;
}

gboolean
qm_catalog_store_delete (QmStore        *store,
                         QmCatalogKind   kind,
                         const char     *id,
                         GError        **error)
{
  gboolean builtin = FALSE;
  int changes = 0;

  if (!qm_store_check_writable (store, "Could not delete the catalog entry", error))
    return FALSE;
  if (!exec_kind_id (store, "DELETE FROM catalog_user WHERE kind = ?1 AND id = ?2",
                     kind, id, &changes, error))
    return FALSE;
  if (changes > 0)
    return TRUE;
  if (!row_exists (store, BUILTIN_EXISTS, kind, id, &builtin, error))
    return FALSE;
  if (builtin)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                 "The %s \"%s\" is built in and cannot be deleted; hide it instead",
                 qm_catalog_kind_to_string (kind), id);
  else
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                 "No %s of your own with the id \"%s\"", qm_catalog_kind_to_string (kind), id);
  return FALSE;
}

gboolean
qm_catalog_store_set_hidden (QmStore        *store,
                             QmCatalogKind   kind,
                             const char     *id,
                             gboolean        hidden,
                             GError        **error)
{
  int changes = 0;

  if (!qm_store_check_writable (store, "Could not hide the catalog entry", error))
    return FALSE;
  if (!exec_kind_id (store,
                     hidden ? "UPDATE catalog_builtin SET hidden = 1 WHERE kind = ?1 AND id = ?2"
                            : "UPDATE catalog_builtin SET hidden = 0 WHERE kind = ?1 AND id = ?2",
                     kind, id, &changes, error))
    return FALSE;
  if (changes == 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   "No built-in %s with the id \"%s\" (only built-in entries are hidden; "
                   "delete your own)", qm_catalog_kind_to_string (kind), id);
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_catalog_store_set_override (QmStore        *store,
                               QmCatalogKind   kind,
                               const char     *id,
                               double          price_usd,
                               GError        **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  stmt = qm_catalog_store_prepare_kind_id (store,
                                           "INSERT INTO catalog_override (kind, id, price_usd, modified)"
                                           " VALUES (?1, ?2, ?3, ?4)"
                                           " ON CONFLICT (kind, id) DO UPDATE SET"
                                           "  price_usd = excluded.price_usd, modified = excluded.modified",
                                           kind, id, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_double (stmt, 3, price_usd);
  sqlite3_bind_int64 (stmt, 4, g_get_real_time ());
  return qm_store_step_done (store, stmt, error, "Could not set the price of the %s \"%s\"",
                             qm_catalog_kind_to_string (kind), id);
}

gboolean
qm_catalog_store_set_price_override (QmStore        *store,
                                     QmCatalogKind   kind,
                                     const char     *id,
                                     double          price_usd,
                                     GError        **error)
{
  g_autoptr(QmCatalogEntry) entry = NULL;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if (!isfinite (price_usd) || price_usd < 0.0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "price_usd: must be a number >= 0 (got %g)", price_usd);
      return FALSE;
    }
  if (!qm_store_check_writable (store, "Could not set the price", error))
    return FALSE;
  if ((entry = qm_catalog_store_get (store, kind, id, error)) == NULL)
    return FALSE;
  return qm_catalog_store_set_override (store, kind, id, price_usd, error);
}

gboolean
qm_catalog_store_clear_price_override (QmStore        *store,
                                       QmCatalogKind   kind,
                                       const char     *id,
                                       GError        **error)
{
  if (!qm_store_check_writable (store, "Could not clear the price", error))
    return FALSE;
  return exec_kind_id (store, "DELETE FROM catalog_override WHERE kind = ?1 AND id = ?2",
                       kind, id, NULL, error);
}

