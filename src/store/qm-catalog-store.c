/* qm-catalog-store.c: the catalog tables (schema in qm-store.c, step 1 → 2).
 *
 * Every entry is stored as catalog JSON (the keys of data/catalog/) and
 * parsed back with the core's own parser (qm-catalog-json.h), so a user's
 * entry, an imported CSV row and a shipped entry are checked by one set of
 * rules and give one set of error messages.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-csv.h"
#include "qm-store-private.h"

/* ------------------------------------------------------------------ */
/* Entries.                                                            */

void
qm_catalog_entry_free (QmCatalogEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->id);
  g_free (entry->vendor);
  g_free (entry->name);
  g_free (entry->source);
  g_free (entry->as_of);
  g_free (entry->json);
  g_free (entry);
}

QmCatalogEntry *
qm_catalog_entry_copy (const QmCatalogEntry *entry)
{
  QmCatalogEntry *copy = g_memdup2 (entry, sizeof *entry);

  copy->id = g_strdup (entry->id);
  copy->vendor = g_strdup (entry->vendor);
  copy->name = g_strdup (entry->name);
  copy->source = g_strdup (entry->source);
  copy->as_of = g_strdup (entry->as_of);
  copy->json = g_strdup (entry->json);
  return copy;
}

static gboolean
contains_casefolded (const char *haystack,
                     const char *needle)
{
  g_autofree char *folded = NULL;

  if (haystack == NULL)
    return FALSE;
  /* Most names are ASCII: skip the allocation when a plain search can
   * already decide. */
  if (strstr (haystack, needle) != NULL)
    return TRUE;
  folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, needle) != NULL;
}

gboolean
qm_catalog_entry_matches (const QmCatalogEntry *entry,
                          const char           *needle)
{
  if (needle == NULL || *needle == '\0')
    return TRUE;
  return contains_casefolded (entry->id, needle) ||
         contains_casefolded (entry->name, needle) ||
         contains_casefolded (entry->vendor, needle);
}

static JsonObject *
parse_object (const char  *json,
              GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, json, -1, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "expected one JSON object for a catalog entry");
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

gboolean
qm_catalog_entry_parse (const QmCatalogEntry  *entry,
                        gpointer               out,
                        GError               **error)
{
  g_autoptr(JsonObject) o = parse_object (entry->json, error);
  QmCatalogInfo *info = out;

  if (o == NULL)
    return FALSE;
  if (!qm_catalog_parse_object (entry->kind, o,
                                entry->builtin ? QM_CATALOG_PARSE_BUILTIN : QM_CATALOG_PARSE_NONE,
                                out, error))
    {
      g_prefix_error (error, "%s %s: ", qm_catalog_kind_to_string (entry->kind), entry->id);
      return FALSE;
    }
  info->price_usd = entry->price_usd;
  return TRUE;
}

static char *
object_to_text (JsonObject *o)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, o);
  return json_to_string (node, FALSE);
}

/* ------------------------------------------------------------------ */
/* Sync of the built-in rows.                                          */

static const void *
builtin_array (QmCatalogKind  kind,
               guint         *n)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:      return qm_catalog_gpus (n);
    case QM_CATALOG_KIND_SERVER:   return qm_catalog_servers (n);
    case QM_CATALOG_KIND_NETWORK:  return qm_catalog_networks (n);
    case QM_CATALOG_KIND_STORAGE:  return qm_catalog_storages (n);
    case QM_CATALOG_KIND_FACILITY: return qm_catalog_facility_items (n);
    case QM_CATALOG_KIND_CLOUD:    return qm_catalog_cloud_offers (n);
    case QM_CATALOG_KIND_MODEL:    return qm_catalog_models (n);
    case QM_N_CATALOG_KINDS:
    default:
      g_assert_not_reached ();
    }
}

static char *
meta_get (QmStore    *store,
          const char *key)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (qm_store_db (store), "SELECT value FROM meta WHERE key = ?1",
                          -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return NULL;
  return qm_store_column_dup (stmt, 0);
}

char *
qm_catalog_store_version (QmStore *store)
{
  return meta_get (store, "catalog_version");
}

gboolean
qm_catalog_store_sync_builtins (QmStore   *store,
                                gboolean   force,
                                gboolean  *synced,
                                GError   **error)
{
  const char *what = "Could not update the built-in catalog";
  g_autofree char *recorded = meta_get (store, "catalog_version");
  g_autoptr(sqlite3_stmt) upsert = NULL;
  g_autoptr(sqlite3_stmt) meta = NULL;
  sqlite3 *db = qm_store_db (store);
  int rc;

  if (synced != NULL)
    *synced = FALSE;
  if (!force && g_strcmp0 (recorded, qm_catalog_version ()) == 0)
    return TRUE;

  if (!qm_store_begin (store, what, error))
    return FALSE;
  /* Another process opening the same new file may have synced while this
   * one waited for the write lock: read the version again inside the
   * transaction, so that only the first one rewrites the rows and the
   * others do not hold the lock (and time out each other) doing it again. */
  if (!force)
    {
      g_autofree char *now = meta_get (store, "catalog_version");

      if (g_strcmp0 (now, qm_catalog_version ()) == 0)
        return qm_store_commit (store, what, error);
    }

  /* Rows the new catalog no longer ships keep position -1 and go. */
  rc = sqlite3_exec (db, "UPDATE catalog_builtin SET position = -1", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    goto fail;

  rc = sqlite3_prepare_v2 (db,
                           "INSERT INTO catalog_builtin"
                           " (kind, id, vendor, name, price_usd, source, as_of, position, entry)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                           " ON CONFLICT (kind, id) DO UPDATE SET"
                           "  vendor = excluded.vendor, name = excluded.name,"
                           "  price_usd = excluded.price_usd, source = excluded.source,"
                           "  as_of = excluded.as_of, position = excluded.position,"
                           "  entry = excluded.entry",
                           -1, &upsert, NULL);
  if (rc != SQLITE_OK)
    goto fail;

  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      gsize size = qm_catalog_kind_struct_size (k);
      guint n = 0;
      const guint8 *array = builtin_array (k, &n);

      for (guint i = 0; i < n; i++)
        {
          const QmCatalogInfo *info = (const QmCatalogInfo *) (array + i * size);
          g_autoptr(JsonObject) o = qm_catalog_spec_to_json (k, info);
          g_autofree char *text = object_to_text (o);

          sqlite3_reset (upsert);
          sqlite3_bind_text (upsert, 1, qm_catalog_kind_to_string (k), -1, SQLITE_STATIC);
          sqlite3_bind_text (upsert, 2, info->id, -1, SQLITE_STATIC);
          sqlite3_bind_text (upsert, 3, info->vendor ? info->vendor : "", -1, SQLITE_STATIC);
          sqlite3_bind_text (upsert, 4, info->name ? info->name : info->id, -1, SQLITE_STATIC);
          sqlite3_bind_double (upsert, 5, info->price_usd);
          sqlite3_bind_text (upsert, 6, info->source ? info->source : "", -1, SQLITE_STATIC);
          sqlite3_bind_text (upsert, 7, info->as_of ? info->as_of : "", -1, SQLITE_STATIC);
          sqlite3_bind_int (upsert, 8, i);
          sqlite3_bind_text (upsert, 9, text, -1, SQLITE_TRANSIENT);
          rc = sqlite3_step (upsert);
          if (rc != SQLITE_DONE)
            goto fail;
        }
    }

  rc = sqlite3_exec (db, "DELETE FROM catalog_builtin WHERE position = -1", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    goto fail;

  rc = sqlite3_prepare_v2 (db,
                           "INSERT INTO meta (key, value) VALUES ('catalog_version', ?1)"
                           " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           -1, &meta, NULL);
  if (rc != SQLITE_OK)
    goto fail;
  sqlite3_bind_text (meta, 1, qm_catalog_version (), -1, SQLITE_STATIC);
  rc = sqlite3_step (meta);
  if (rc != SQLITE_DONE)
    goto fail;

  if (!qm_store_commit (store, what, error))
    return FALSE;
  if (synced != NULL)
    *synced = TRUE;
  return TRUE;

fail:
  qm_store_fail (store, error, rc, "%s", what);
  qm_store_rollback (store);
  return FALSE;
}

gboolean
qm_catalog_store_sync (QmStore   *store,
                       gboolean   force,
                       gboolean  *synced,
                       GError   **error)
{
  return qm_catalog_store_sync_builtins (store, force, synced, error);
}

/* ------------------------------------------------------------------ */
/* Reading.                                                            */

#define ENTRY_COLUMNS \
  "kind, id, vendor, name, source, as_of, builtin, hidden, " \
  "list_price_usd, override_usd, price_usd, entry"

/* Kinds in the order of the catalog view's pages. */
#define KIND_ORDER \
  "CASE kind WHEN 'gpu' THEN 0 WHEN 'server' THEN 1 WHEN 'network' THEN 2" \
  " WHEN 'storage' THEN 3 WHEN 'facility' THEN 4 WHEN 'cloud' THEN 5 ELSE 6 END"

static QmCatalogEntry *
entry_from_row (sqlite3_stmt *stmt)
{
  QmCatalogEntry *e = g_new0 (QmCatalogEntry, 1);

  if (!qm_catalog_kind_from_string ((const char *) sqlite3_column_text (stmt, 0), &e->kind))
    e->kind = QM_CATALOG_KIND_GPU;
  e->id = qm_store_column_dup (stmt, 1);
  e->vendor = qm_store_column_dup (stmt, 2);
  e->name = qm_store_column_dup (stmt, 3);
  e->source = qm_store_column_dup (stmt, 4);
  e->as_of = qm_store_column_dup (stmt, 5);
  e->builtin = sqlite3_column_int (stmt, 6) != 0;
  e->hidden = sqlite3_column_int (stmt, 7) != 0;
  e->list_price_usd = sqlite3_column_double (stmt, 8);
  e->has_override = sqlite3_column_type (stmt, 9) != SQLITE_NULL;
  e->override_usd = e->has_override ? sqlite3_column_double (stmt, 9) : 0.0;
  e->price_usd = sqlite3_column_double (stmt, 10);
  e->json = qm_store_column_dup (stmt, 11);
  return e;
}

/* A LIKE pattern that matches @text literally anywhere. */
static char *
like_pattern (const char *text)
{
  GString *s = g_string_new ("%");

  for (const char *p = text; *p; p++)
    {
      if (*p == '%' || *p == '_' || *p == '\\')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '%');
  return g_string_free (s, FALSE);
}

GPtrArray *
qm_catalog_store_list (QmStore             *store,
                       int                  kind,
                       const char          *search,
                       QmCatalogListFlags   flags,
                       GError             **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_catalog_entry_free);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *pattern = NULL;
  int rc;

  stmt = qm_store_prepare (store,
                           "SELECT " ENTRY_COLUMNS " FROM catalog_entry"
                           " WHERE (?1 IS NULL OR kind = ?1) AND (?2 OR hidden = 0)"
                           "   AND (?3 IS NULL OR id LIKE ?3 ESCAPE '\\'"
                           "        OR name LIKE ?3 ESCAPE '\\' OR vendor LIKE ?3 ESCAPE '\\')"
                           " ORDER BY " KIND_ORDER ", builtin DESC, position",
                           error);
  if (stmt == NULL)
    return NULL;
  if (kind >= 0 && kind < QM_N_CATALOG_KINDS)
    sqlite3_bind_text (stmt, 1, qm_catalog_kind_to_string (kind), -1, SQLITE_STATIC);
  sqlite3_bind_int (stmt, 2, (flags & QM_CATALOG_LIST_INCLUDE_HIDDEN) != 0);
  if (search != NULL && *search != '\0')
    {
      pattern = like_pattern (search);
      sqlite3_bind_text (stmt, 3, pattern, -1, SQLITE_STATIC);
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (out, entry_from_row (stmt));
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not read the catalog");
      return NULL;
    }
  return g_steal_pointer (&out);
}

QmCatalogEntry *
qm_catalog_store_get (QmStore        *store,
                      QmCatalogKind   kind,
                      const char     *id,
                      GError        **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);

  stmt = qm_store_prepare (store,
                           "SELECT " ENTRY_COLUMNS " FROM catalog_entry"
                           " WHERE kind = ?1 AND id = ?2 ORDER BY builtin LIMIT 1",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, qm_catalog_kind_to_string (kind), -1, SQLITE_STATIC);
  qm_store_bind_text (stmt, 2, id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return entry_from_row (stmt);
  if (rc == SQLITE_DONE)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                 "No %s with the id \"%s\" in the catalog", qm_catalog_kind_to_string (kind),
                 id ? id : "");
  else
    qm_store_fail (store, error, rc, "Could not read the catalog");
  return NULL;
}

gboolean
qm_catalog_store_resolve (QmStore        *store,
                          QmCatalogKind   kind,
                          const char     *id,
                          gpointer        out,
                          GError        **error)
{
  g_autoptr(QmCatalogEntry) entry = qm_catalog_store_get (store, kind, id, error);

  return entry != NULL && qm_catalog_entry_parse (entry, out, error);
}

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
  g_autoptr(sqlite3_stmt) stmt = qm_store_prepare (store, table_sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, qm_catalog_kind_to_string (kind), -1, SQLITE_STATIC);
  qm_store_bind_text (stmt, 2, id);
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
  return object_to_text (canonical);
}

static gboolean
write_user_entry (QmStore              *store,
                  QmCatalogKind         kind,
                  const char           *old_id,   /* NULL = insert */
                  const QmCatalogInfo  *info,
                  const char           *text,
                  GError              **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint64 now = g_get_real_time ();
  int rc;

  if (old_id == NULL)
    stmt = qm_store_prepare (store,
                             "INSERT INTO catalog_user (kind, id, vendor, name, price_usd, source,"
                             " as_of, entry, created, modified)"
                             " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
                             error);
  else
    stmt = qm_store_prepare (store,
                             "UPDATE catalog_user SET id = ?2, vendor = ?3, name = ?4,"
                             " price_usd = ?5, source = ?6, as_of = ?7, entry = ?8, modified = ?9"
                             " WHERE kind = ?1 AND id = ?10",
                             error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, qm_catalog_kind_to_string (kind), -1, SQLITE_STATIC);
  qm_store_bind_text (stmt, 2, info->id);
  qm_store_bind_text (stmt, 3, info->vendor ? info->vendor : "");
  qm_store_bind_text (stmt, 4, info->name);
  sqlite3_bind_double (stmt, 5, info->price_usd);
  qm_store_bind_text (stmt, 6, info->source ? info->source : "");
  qm_store_bind_text (stmt, 7, info->as_of ? info->as_of : "");
  qm_store_bind_text (stmt, 8, text);
  sqlite3_bind_int64 (stmt, 9, now);
  if (old_id != NULL)
    qm_store_bind_text (stmt, 10, old_id);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not save the %s \"%s\"",
                     qm_catalog_kind_to_string (kind), info->id);
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_catalog_store_add (QmStore        *store,
                      QmCatalogKind   kind,
                      const char     *json,
                      GError        **error)
{
  g_autoptr(JsonObject) o = NULL;
  g_autofree char *text = NULL;
  QmCatalogInfo info;
  gboolean exists = FALSE;
  const char *what = "Could not add the catalog entry";

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if ((o = parse_object (json, error)) == NULL ||
      (text = canonical_entry (kind, o, &info, error)) == NULL)
    {
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
  if (!qm_store_begin (store, what, error))
    return FALSE;
  if (!row_exists (store, BUILTIN_EXISTS, kind, info.id, &exists, error))
    goto fail;
  if (!exists && !row_exists (store, USER_EXISTS, kind, info.id, &exists, error))
    goto fail;
  if (exists)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s: id: a %s with the id \"%s\" exists already; choose another id",
                   what, qm_catalog_kind_to_string (kind), info.id);
      goto fail;
    }
  if (!write_user_entry (store, kind, NULL, &info, text, error))
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
  g_autoptr(JsonObject) o = NULL;
  g_autofree char *text = NULL;
  g_autofree char *what = g_strdup_printf ("Could not change the %s \"%s\"",
                                           qm_catalog_kind_to_string (kind), id);
  QmCatalogInfo info;
  gboolean exists = FALSE;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if ((o = parse_object (json, error)) == NULL ||
      (text = canonical_entry (kind, o, &info, error)) == NULL)
    {
      g_prefix_error (error, "%s: ", what);
      return FALSE;
    }
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
      if (!row_exists (store, BUILTIN_EXISTS, kind, info.id, &exists, error))
        goto fail;
      if (!exists && !row_exists (store, USER_EXISTS, kind, info.id, &exists, error))
        goto fail;
      if (exists)
        {
          g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                       "%s: id: \"%s\" is taken by another entry", what, info.id);
          goto fail;
        }
    }
  if (!write_user_entry (store, kind, id, &info, text, error))
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
  g_autoptr(sqlite3_stmt) stmt = qm_store_prepare (store, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, qm_catalog_kind_to_string (kind), -1, SQLITE_STATIC);
  qm_store_bind_text (stmt, 2, id);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not change the %s \"%s\"",
                     qm_catalog_kind_to_string (kind), id);
      return FALSE;
    }
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

static gboolean
set_override (QmStore        *store,
              QmCatalogKind   kind,
              const char     *id,
              double          price_usd,
              GError        **error)
{
  g_autoptr(sqlite3_stmt) stmt = qm_store_prepare (store,
                                                   "INSERT INTO catalog_override (kind, id, price_usd, modified)"
                                                   " VALUES (?1, ?2, ?3, ?4)"
                                                   " ON CONFLICT (kind, id) DO UPDATE SET"
                                                   "  price_usd = excluded.price_usd, modified = excluded.modified",
                                                   error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, qm_catalog_kind_to_string (kind), -1, SQLITE_STATIC);
  qm_store_bind_text (stmt, 2, id);
  sqlite3_bind_double (stmt, 3, price_usd);
  sqlite3_bind_int64 (stmt, 4, g_get_real_time ());
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not set the price of the %s \"%s\"",
                     qm_catalog_kind_to_string (kind), id);
      return FALSE;
    }
  return TRUE;
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
  return set_override (store, kind, id, price_usd, error);
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

/* ------------------------------------------------------------------ */
/* CSV columns.                                                        */

typedef enum
{
  COL_TEXT,
  COL_NUMBER,
  COL_COUNT,
  COL_BOOL,
} ColumnType;

typedef struct
{
  const char *column;  /* CSV header */
  const char *key;     /* JSON key; "a.b" is member b of object a */
  ColumnType  type;
} ColumnDef;

static const ColumnDef info_columns[] = {
  { "id", "id", COL_TEXT },
  { "vendor", "vendor", COL_TEXT },
  { "name", "name", COL_TEXT },
  { "price_usd", "price_usd", COL_NUMBER },
  { "source", "source", COL_TEXT },
  { "as_of", "as_of", COL_TEXT },
  { NULL }
};

/* A kind's own columns, one per field of the catalog parser
 * (qm_catalog_field_key), so that CSV carries every field the JSON does:
 * the GPU's tflops object becomes tflops_fp32, tflops_bf16, ... and the
 * entry's own "kind" key is the column "type" ("kind" names the catalog
 * kind of the row). Built once; the strings are interned. */
static const ColumnDef *
kind_columns (QmCatalogKind kind)
{
  static const ColumnDef *columns[QM_N_CATALOG_KINDS];

  if (g_once_init_enter (&columns[kind]))
    {
      GArray *defs = g_array_new (TRUE, TRUE, sizeof (ColumnDef));
      QmCatalogValueType type;
      const char *key;

      for (guint i = 0; (key = qm_catalog_field_key (kind, i, &type)) != NULL; i++)
        {
          ColumnDef def = { key, key, COL_TEXT };

          switch (type)
            {
            case QM_CATALOG_VALUE_TFLOPS:
              for (guint p = 0; p < QM_N_PRECISIONS; p++)
                {
                  g_autofree char *column = g_strdup_printf ("%s_%s", key, qm_precision_to_string (p));
                  g_autofree char *path = g_strdup_printf ("%s.%s", key, qm_precision_to_string (p));
                  ColumnDef precision = { g_intern_string (column), g_intern_string (path), COL_NUMBER };

                  g_array_append_val (defs, precision);
                }
              continue;
            case QM_CATALOG_VALUE_TEXT:
              if (g_str_equal (key, "kind"))
                def.column = "type";
              break;
            case QM_CATALOG_VALUE_NUMBER:
              def.type = COL_NUMBER;
              break;
            case QM_CATALOG_VALUE_COUNT:
              def.type = COL_COUNT;
              break;
            case QM_CATALOG_VALUE_BOOL:
              def.type = COL_BOOL;
              break;
            default:
              g_assert_not_reached ();
            }
          g_array_append_val (defs, def);
        }
      /* Zero-terminated: the last ColumnDef has column == NULL. */
      g_once_init_leave (&columns[kind], (const ColumnDef *) g_array_free (defs, FALSE));
    }
  return columns[kind];
}

/* Columns that export writes for people and import skips. */
static const char * const export_only_columns[] = {
  "list_price_usd", "override_usd", "builtin", "hidden", NULL
};

static const ColumnDef *
find_column (QmCatalogKind  kind,
             const char    *column)
{
  for (const ColumnDef *c = info_columns; c->column; c++)
    if (strcmp (c->column, column) == 0)
      return c;
  for (const ColumnDef *c = kind_columns (kind); c->column; c++)
    if (strcmp (c->column, column) == 0)
      return c;
  return NULL;
}

static const char *
column_for_key (QmCatalogKind  kind,
                const char    *key)
{
  /* The parser says "tflops" when no bf16/fp16 figure was given. */
  if (kind == QM_CATALOG_KIND_GPU && strcmp (key, "tflops") == 0)
    return "tflops_bf16";
  for (const ColumnDef *c = info_columns; c->column; c++)
    if (strcmp (c->key, key) == 0)
      return c->column;
  for (const ColumnDef *c = kind_columns (kind); c->column; c++)
    if (strcmp (c->key, key) == 0)
      return c->column;
  return key;
}

/* Numbers as spreadsheets write them: "30000", "30000.50", "$30,000",
 * "1.2e3". A decimal comma is refused rather than guessed. */
static gboolean
parse_number (const char *cell,
              double     *out)
{
  g_autoptr(GString) s = g_string_new (NULL);
  const char *p = cell;
  char *end = NULL;
  gboolean grouped = FALSE;

  if (*p == '$')
    p++;
  for (; *p; p++)
    {
      if (*p == ',')
        {
          /* A thousands separator has exactly three digits after it. */
          if (!(g_ascii_isdigit (p[1]) && g_ascii_isdigit (p[2]) && g_ascii_isdigit (p[3]) &&
                !g_ascii_isdigit (p[4])) || s->len == 0)
            return FALSE;
          grouped = TRUE;
          continue;
        }
      g_string_append_c (s, *p);
    }
  if (s->len == 0)
    return FALSE;
  if (grouped && strpbrk (s->str, "eE") != NULL)
    return FALSE;
  *out = g_ascii_strtod (s->str, &end);
  return end != NULL && *end == '\0' && end != s->str;
}

static JsonNode *
cell_to_node (const ColumnDef *def,
              const char      *cell)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  double v;

  switch (def->type)
    {
    case COL_NUMBER:
    case COL_COUNT:
      if (parse_number (cell, &v))
        {
          if (def->type == COL_COUNT && v == floor (v) && fabs (v) < 1e15)
            json_node_set_int (node, (gint64) v);
          else
            json_node_set_double (node, v);
          return node;
        }
      break;
    case COL_BOOL:
      if (g_ascii_strcasecmp (cell, "true") == 0 || g_ascii_strcasecmp (cell, "yes") == 0 ||
          strcmp (cell, "1") == 0)
        {
          json_node_set_boolean (node, TRUE);
          return node;
        }
      if (g_ascii_strcasecmp (cell, "false") == 0 || g_ascii_strcasecmp (cell, "no") == 0 ||
          strcmp (cell, "0") == 0)
        {
          json_node_set_boolean (node, FALSE);
          return node;
        }
      break;
    case COL_TEXT:
    default:
      break;
    }
  /* Text, or a number that does not parse: the catalog parser then says
   * "must be a number (got "eighty")" with the cell as found. */
  json_node_set_string (node, cell);
  return node;
}

static void
set_key (JsonObject *o,
         const char *key,
         JsonNode   *node)
{
  const char *dot = strchr (key, '.');
  g_autofree char *outer = NULL;
  JsonObject *inner;

  if (dot == NULL)
    {
      json_object_set_member (o, key, node);
      return;
    }
  outer = g_strndup (key, dot - key);
  inner = json_object_get_member (o, outer) != NULL &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, outer))
          ? json_object_get_object_member (o, outer) : NULL;
  if (inner == NULL)
    {
      inner = json_object_new ();
      json_object_set_object_member (o, outer, inner);
    }
  json_object_set_member (inner, dot + 1, node);
}

/* ------------------------------------------------------------------ */
/* CSV import.                                                         */

static void
row_error_free (QmCsvRowError *e)
{
  g_free (e->column);
  g_free (e->problem);
  g_free (e->value);
  g_free (e);
}

static void
row_preview_free (QmCsvRowPreview *r)
{
  g_free (r->id);
  g_free (r->name);
  g_free (r->json);
  g_free (r);
}

void
qm_catalog_import_free (QmCatalogImport *import)
{
  if (import == NULL)
    return;
  g_free (import->source);
  g_clear_pointer (&import->rows, g_ptr_array_unref);
  g_clear_pointer (&import->errors, g_ptr_array_unref);
  g_clear_pointer (&import->warnings, g_ptr_array_unref);
  g_free (import);
}

static void
add_row_error (QmCatalogImport *import,
               QmCsvRecord     *record,
               guint            row,
               const char      *column,
               const char      *value,
               const char      *format,
               ...) G_GNUC_PRINTF (6, 7);

static void
add_row_error (QmCatalogImport *import,
               QmCsvRecord     *record,
               guint            row,
               const char      *column,
               const char      *value,
               const char      *format,
               ...)
{
  QmCsvRowError *e = g_new0 (QmCsvRowError, 1);
  va_list args;

  e->row = row;
  e->line = record->line;
  e->column = g_strdup (column);
  e->value = g_strdup (value);
  va_start (args, format);
  e->problem = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (import->errors, e);
}

char *
qm_catalog_import_describe (QmCatalogImport *import)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < import->errors->len; i++)
    {
      QmCsvRowError *e = import->errors->pdata[i];

      g_string_append_printf (s, "%s: row %u", import->source, e->row);
      if (e->column != NULL)
        g_string_append_printf (s, ", column %s", e->column);
      g_string_append_printf (s, ": %s", e->problem);
      if (e->value != NULL)
        g_string_append_printf (s, " (got \"%s\")", e->value);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static const char *
cell_at (QmCsvRecord *record,
         int          index)
{
  if (index < 0 || (guint) index >= record->fields->len)
    return NULL;
  return record->fields->pdata[index];
}

/* Splits a catalog parser message "key: problem (got value)" so the error
 * can name the CSV column and show the cell as the user typed it. */
static void
split_parse_error (const char  *message,
                   char       **key,
                   char       **problem)
{
  const char *colon = strstr (message, ": ");
  const char *got;

  if (colon == NULL)
    {
      *key = NULL;
      *problem = g_strdup (message);
      return;
    }
  *key = g_strndup (message, colon - message);
  got = g_strrstr (colon + 2, " (got ");
  *problem = got != NULL ? g_strndup (colon + 2, got - (colon + 2)) : g_strdup (colon + 2);
}

QmCatalogImport *
qm_catalog_store_import_csv_preview (QmStore     *store,
                                     const char  *data,
                                     gsize        length,
                                     const char  *source,
                                     int          default_kind,
                                     GError     **error)
{
  g_autoptr(QmCatalogImport) import = g_new0 (QmCatalogImport, 1);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) header = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) csv_error = NULL;
  QmCsvRecord *head;
  int id_col = -1, kind_col = -1;

  import->source = g_strdup (source != NULL ? source : "CSV");
  import->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_preview_free);
  import->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) row_error_free);
  import->warnings = g_ptr_array_new_with_free_func (g_free);

  records = qm_csv_parse (data, length, &csv_error);
  if (records == NULL)
    {
      /* One error domain for the caller: the file is unusable as input. */
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, "%s: %s",
                   import->source, csv_error->message);
      return NULL;
    }

  head = records->pdata[0];
  for (guint c = 0; c < head->fields->len; c++)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (head->fields->pdata[c]));
      char *name = g_ascii_strdown (trimmed, -1);
      gboolean known = FALSE;

      if (strcmp (name, "id") == 0)
        id_col = c;
      else if (strcmp (name, "kind") == 0)
        kind_col = c;
      known = strcmp (name, "kind") == 0 || g_strv_contains (export_only_columns, name);
      for (guint k = 0; k < QM_N_CATALOG_KINDS && !known; k++)
        known = find_column (k, name) != NULL;
      if (!known && *name != '\0')
        g_ptr_array_add (import->warnings,
                         g_strdup_printf ("%s: column %s is not a catalog field and was ignored",
                                          import->source, name));
      g_ptr_array_add (header, name);
    }
  if (id_col < 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s: row 1: the header has no id column (expected columns such as "
                   "kind,id,name,vendor,price_usd)", import->source);
      return NULL;
    }

  for (guint r = 1; r < records->len; r++)
    {
      QmCsvRecord *record = records->pdata[r];
      guint row = r + 1;
      guint errors_before = import->errors->len;
      const char *id = cell_at (record, id_col);
      const char *kind_cell = cell_at (record, kind_col);
      g_autofree char *id_trimmed = g_strstrip (g_strdup (id ? id : ""));
      g_autoptr(JsonObject) o = NULL;
      g_autoptr(QmCatalogEntry) existing = NULL;
      QmCatalogKind kind;
      QmCsvRowPreview *preview;
      const char *price_cell = NULL;
      g_autofree char *key_seen = NULL;

      import->n_rows++;

      if (record->fields->len > header->len)
        {
          add_row_error (import, record, row, NULL, NULL,
                         "has %u fields but the header has %u (an unquoted comma in a name? "
                         "put the name in double quotes)",
                         record->fields->len, header->len);
          continue;
        }

      if (kind_cell != NULL && *kind_cell != '\0')
        {
          g_autofree char *k = g_strstrip (g_strdup (kind_cell));
          if (!qm_catalog_kind_from_string (k, &kind))
            {
              add_row_error (import, record, row, "kind", kind_cell,
                             "unknown kind (expected gpu, server, network, storage, facility, "
                             "cloud or model)");
              continue;
            }
        }
      else if (default_kind >= 0 && default_kind < QM_N_CATALOG_KINDS)
        kind = default_kind;
      else
        {
          add_row_error (import, record, row, "kind", NULL,
                         "missing; give a kind column (gpu, server, network, ...) or choose the kind");
          continue;
        }

      if (*id_trimmed == '\0')
        {
          add_row_error (import, record, row, "id", NULL, "required; every row needs an id");
          continue;
        }

      key_seen = g_strconcat (qm_catalog_kind_to_string (kind), "/", id_trimmed, NULL);
      if (g_hash_table_contains (seen, key_seen))
        {
          add_row_error (import, record, row, "id", id_trimmed,
                         "appears twice in the file (first in row %u)",
                         GPOINTER_TO_UINT (g_hash_table_lookup (seen, key_seen)));
          continue;
        }
      g_hash_table_insert (seen, g_steal_pointer (&key_seen), GUINT_TO_POINTER (row));

      existing = qm_catalog_store_get (store, kind, id_trimmed, NULL);

      /* A built-in entry only takes a price: its figures come from the
       * datasheet, and a re-sync would overwrite any other change. */
      if (existing != NULL && existing->builtin)
        {
          double price;

          for (guint c = 0; c < header->len; c++)
            if (strcmp (header->pdata[c], "price_usd") == 0)
              price_cell = cell_at (record, c);
          if (price_cell == NULL || *price_cell == '\0')
            {
              add_row_error (import, record, row, "price_usd", NULL,
                             "required: %s is a built-in entry, so a row for it sets its price",
                             id_trimmed);
              continue;
            }
          {
            g_autofree char *p = g_strstrip (g_strdup (price_cell));
            if (!parse_number (p, &price) || !isfinite (price) || price < 0.0)
              {
                add_row_error (import, record, row, "price_usd", price_cell,
                               "must be a number >= 0");
                continue;
              }
          }
          preview = g_new0 (QmCsvRowPreview, 1);
          preview->row = row;
          preview->kind = kind;
          preview->id = g_strdup (id_trimmed);
          preview->name = g_strdup (existing->name);
          preview->action = QM_CSV_ROW_PRICE;
          preview->price_usd = price;
          g_ptr_array_add (import->rows, preview);
          continue;
        }

      /* A user entry is updated cell by cell; a new one starts empty. */
      if (existing != NULL)
        o = parse_object (existing->json, NULL);
      if (o == NULL)
        o = json_object_new ();

      for (guint c = 0; c < record->fields->len; c++)
        {
          const char *name = header->pdata[c];
          g_autofree char *cell = g_strstrip (g_strdup (record->fields->pdata[c]));
          const ColumnDef *def;

          if (*cell == '\0' || strcmp (name, "kind") == 0 ||
              g_strv_contains (export_only_columns, name))
            continue;
          def = find_column (kind, name);
          if (def == NULL)
            {
              gboolean other_kind = FALSE;

              for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
                other_kind |= find_column (k, name) != NULL;
              if (other_kind)
                add_row_error (import, record, row, name, cell,
                               "not a field of a %s entry", qm_catalog_kind_to_string (kind));
              continue;
            }
          set_key (o, def->key, cell_to_node (def, cell));
        }
      if (import->errors->len > errors_before)
        continue;

      {
        g_autofree guint8 *spec = g_malloc0 (qm_catalog_kind_struct_size (kind));
        g_autoptr(GError) parse_error = NULL;
        g_autoptr(JsonObject) canonical = NULL;

        if (!qm_catalog_parse_object (kind, o, QM_CATALOG_PARSE_NONE, spec, &parse_error))
          {
            g_autofree char *key = NULL;
            g_autofree char *problem = NULL;
            const char *column = NULL;
            const char *value = NULL;

            split_parse_error (parse_error->message, &key, &problem);
            if (key != NULL)
              {
                column = column_for_key (kind, key);
                for (guint c = 0; c < header->len; c++)
                  if (strcmp (header->pdata[c], column) == 0)
                    value = cell_at (record, c);
                if (value != NULL && *value == '\0')
                  value = NULL;
              }
            add_row_error (import, record, row, column, value, "%s", problem);
            continue;
          }

        canonical = qm_catalog_spec_to_json (kind, spec);
        preview = g_new0 (QmCsvRowPreview, 1);
        preview->row = row;
        preview->kind = kind;
        preview->id = g_strdup (((QmCatalogInfo *) spec)->id);
        preview->name = g_strdup (((QmCatalogInfo *) spec)->name);
        preview->action = existing != NULL ? QM_CSV_ROW_UPDATE : QM_CSV_ROW_ADD;
        preview->price_usd = ((QmCatalogInfo *) spec)->price_usd;
        preview->json = object_to_text (canonical);
        g_ptr_array_add (import->rows, preview);
      }
    }

  return g_steal_pointer (&import);
}

gboolean
qm_catalog_store_import_csv_commit (QmStore          *store,
                                    QmCatalogImport  *import,
                                    gboolean          skip_invalid,
                                    guint            *n_written,
                                    GError          **error)
{
  g_autofree char *what = g_strdup_printf ("Could not import %s", import->source);

  if (n_written != NULL)
    *n_written = 0;

  if (import->errors->len > 0 && !skip_invalid)
    {
      g_autofree char *list = qm_catalog_import_describe (import);
      g_autoptr(GHashTable) bad = g_hash_table_new (NULL, NULL);

      for (guint i = 0; i < import->errors->len; i++)
        g_hash_table_add (bad, GUINT_TO_POINTER (((QmCsvRowError *) import->errors->pdata[i])->row));
      g_strchomp (list);
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s: %u of %u rows are invalid, so nothing was written:\n%s",
                   import->source, g_hash_table_size (bad), import->n_rows, list);
      return FALSE;
    }

  if (!qm_store_begin (store, what, error))
    return FALSE;
  for (guint i = 0; i < import->rows->len; i++)
    {
      QmCsvRowPreview *r = import->rows->pdata[i];

      if (r->action == QM_CSV_ROW_PRICE)
        {
          if (!set_override (store, r->kind, r->id, r->price_usd, error))
            goto fail;
        }
      else
        {
          g_autoptr(JsonObject) o = parse_object (r->json, error);
          g_autofree guint8 *spec = g_malloc0 (qm_catalog_kind_struct_size (r->kind));

          if (o == NULL || !qm_catalog_parse_object (r->kind, o, QM_CATALOG_PARSE_NONE, spec, error) ||
              !write_user_entry (store, r->kind, r->action == QM_CSV_ROW_UPDATE ? r->id : NULL,
                                 (QmCatalogInfo *) spec, r->json, error))
            goto fail;
        }
    }
  if (!qm_store_commit (store, what, error))
    return FALSE;
  if (n_written != NULL)
    *n_written = import->rows->len;
  return TRUE;

fail:
  g_prefix_error (error, "%s: nothing was written: ", import->source);
  qm_store_rollback (store);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* CSV export.                                                         */

static char *
format_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.15g", v));
}

static char *
node_to_cell (JsonNode *node)
{
  GType t;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node) || !JSON_NODE_HOLDS_VALUE (node))
    return g_strdup ("");
  t = json_node_get_value_type (node);
  if (t == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (t == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (node) ? "true" : "false");
  if (t == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  return format_number (json_node_get_double (node));
}

static JsonNode *
get_key (JsonObject *o,
         const char *key)
{
  const char *dot = strchr (key, '.');
  g_autofree char *outer = NULL;
  JsonNode *inner;

  if (dot == NULL)
    return json_object_get_member (o, key);
  outer = g_strndup (key, dot - key);
  inner = json_object_get_member (o, outer);
  if (inner == NULL || !JSON_NODE_HOLDS_OBJECT (inner))
    return NULL;
  return json_object_get_member (json_node_get_object (inner), dot + 1);
}

/* In a mixed export, a column shared by several kinds (rack_units, gpus,
 * type) is filled for each of them. */
static gboolean
column_of_kind (QmCatalogKind    kind,
                const ColumnDef *def)
{
  const ColumnDef *own = find_column (kind, def->column);

  return own != NULL && strcmp (own->key, def->key) == 0;
}

char *
qm_catalog_store_export_csv (QmStore             *store,
                             int                  kind,
                             const char          *search,
                             QmCatalogListFlags   flags,
                             gsize               *length,
                             GError             **error)
{
  g_autoptr(GPtrArray) entries = qm_catalog_store_list (store, kind, search, flags, error);
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();   /* of const ColumnDef * */
  g_autoptr(GPtrArray) header = g_ptr_array_new ();
  GString *out;

  if (entries == NULL)
    return NULL;

  /* kind, the common columns, list/override prices, then the union of the
   * kinds' own columns (one kind's, when exporting one kind). */
  g_ptr_array_add (header, (gpointer) "kind");
  for (const ColumnDef *c = info_columns; c->column; c++)
    {
      g_ptr_array_add (header, (gpointer) c->column);
      g_ptr_array_add (columns, (gpointer) c);
    }
  g_ptr_array_add (header, (gpointer) "list_price_usd");
  g_ptr_array_add (header, (gpointer) "override_usd");
  g_ptr_array_add (header, (gpointer) "builtin");
  g_ptr_array_add (header, (gpointer) "hidden");
  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      if (kind >= 0 && (guint) kind != k)
        continue;
      for (const ColumnDef *c = kind_columns (k); c->column; c++)
        {
          gboolean dup = FALSE;

          for (guint i = 0; i < columns->len && !dup; i++)
            dup = strcmp (((const ColumnDef *) columns->pdata[i])->column, c->column) == 0;
          if (!dup)
            {
              g_ptr_array_add (header, (gpointer) c->column);
              g_ptr_array_add (columns, (gpointer) c);
            }
        }
    }

  out = g_string_new (NULL);
  qm_csv_append_row (out, (const char * const *) header->pdata, header->len, ',');

  for (guint i = 0; i < entries->len; i++)
    {
      QmCatalogEntry *e = entries->pdata[i];
      g_autoptr(JsonObject) o = parse_object (e->json, NULL);
      g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
      guint info_n = G_N_ELEMENTS (info_columns) - 1;

      if (o == NULL)
        continue;
      g_ptr_array_add (cells, g_strdup (qm_catalog_kind_to_string (e->kind)));
      for (guint c = 0; c < columns->len; c++)
        {
          const ColumnDef *def = columns->pdata[c];
          char *cell;

          if (strcmp (def->column, "price_usd") == 0)
            cell = format_number (e->price_usd);
          else if (c >= info_n && !column_of_kind (e->kind, def))
            cell = g_strdup ("");   /* another kind's column */
          else
            cell = node_to_cell (get_key (o, def->key));
          g_ptr_array_add (cells, cell);

          if (c == info_n - 1)
            {
              g_ptr_array_add (cells, format_number (e->list_price_usd));
              g_ptr_array_add (cells, e->has_override ? format_number (e->override_usd) : g_strdup (""));
              g_ptr_array_add (cells, g_strdup (e->builtin ? "true" : "false"));
              g_ptr_array_add (cells, g_strdup (e->hidden ? "true" : "false"));
            }
        }
      qm_csv_append_row (out, (const char * const *) cells->pdata, cells->len, ',');
    }

  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}
