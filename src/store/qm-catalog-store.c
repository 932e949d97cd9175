/* qm-catalog-store.c: the catalog tables (schema in qm-store-schema.c,
 * steps 1 → 2 and 5 → 6): entries, the sync of the built-in rows and
 * reading, on SQLite or PostgreSQL through the engine layer (qm-db.h). The
 * user's own entries and price overrides, with their revisions, are in
 * qm-catalog-store-user.c, the price history in -history.c, CSV import and
 * export in -csv.c, the copy between databases in -copy.c.
 *
 * Every entry is stored as catalog JSON (the keys of data/catalog/) and
 * parsed back with the core's own parser (qm-catalog-json.h), so a user's
 * entry, an imported CSV row and a shipped entry are checked by one set of
 * rules and give one set of error messages.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-catalog-store-private.h"
#include "qm-json-parse.h"

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

JsonObject *
qm_catalog_store_parse_json (const char  *json,
                             GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!qm_json_parser_load (parser, json, -1, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   _("expected one JSON object for a catalog entry"));
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

gboolean
qm_catalog_entry_parse (const QmCatalogEntry  *entry,
                        gpointer               out,
                        GError               **error)
{
  g_autoptr(JsonObject) o = qm_catalog_store_parse_json (entry->json, error);
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

QmDbStmt *
qm_catalog_store_prepare_kind_id (QmStore        *store,
                                  const char     *sql,
                                  QmCatalogKind   kind,
                                  const char     *id,
                                  GError        **error)
{
  QmDbStmt *stmt = qm_store_query (store, sql, error);

  if (stmt != NULL)
    {
      qm_db_bind_text (stmt, 1, qm_catalog_kind_to_string (kind));
      qm_db_bind_text (stmt, 2, id);
    }
  return stmt;
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

char *
qm_catalog_store_version (QmStore *store)
{
  return qm_store_meta_get (store, "catalog_version");
}

static const char upsert_builtin_sql[] =
  "INSERT INTO catalog_builtin"
  " (kind, id, vendor, name, price_usd, source, as_of, position, entry)"
  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
  " ON CONFLICT (kind, id) DO UPDATE SET"
  "  vendor = excluded.vendor, name = excluded.name,"
  "  price_usd = excluded.price_usd, source = excluded.source,"
  "  as_of = excluded.as_of, position = excluded.position,"
  "  entry = excluded.entry";

/* Writes every built-in row of every kind with @upsert. */
static gboolean
write_builtins (QmDbStmt *upsert)
{
  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      gsize size = qm_catalog_kind_struct_size (k);
      guint n = 0;
      const guint8 *array = builtin_array (k, &n);

      for (guint i = 0; i < n; i++)
        {
          const QmCatalogInfo *info = (const QmCatalogInfo *) (array + i * size);
          g_autoptr(JsonObject) o = qm_catalog_spec_to_json (k, info);
          g_autofree char *text = qm_store_object_to_text (o, FALSE);

          qm_db_reset (upsert);
          qm_db_bind_text (upsert, 1, qm_catalog_kind_to_string (k));
          qm_db_bind_text (upsert, 2, info->id);
          qm_db_bind_text (upsert, 3, info->vendor ? info->vendor : "");
          qm_db_bind_text (upsert, 4, info->name ? info->name : info->id);
          qm_db_bind_double (upsert, 5, info->price_usd);
          qm_db_bind_text (upsert, 6, info->source ? info->source : "");
          qm_db_bind_text (upsert, 7, info->as_of ? info->as_of : "");
          qm_db_bind_int64 (upsert, 8, i);
          qm_db_bind_text (upsert, 9, text);
          if (qm_db_step (upsert) != QM_DB_STEP_DONE)
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
qm_catalog_store_sync_builtins (QmStore   *store,
                                gboolean   force,
                                gboolean  *synced,
                                GError   **error)
{
  const char *what = _("Could not update the built-in catalog");
  g_autofree char *recorded = qm_store_meta_get (store, "catalog_version");
  g_autoptr(QmDbStmt) upsert = NULL;
  g_autoptr(QmDbStmt) meta = NULL;
  QmDb *db = qm_store_connection (store);

  if (synced != NULL)
    *synced = FALSE;
  if (!force && g_strcmp0 (recorded, qm_catalog_version ()) == 0)
    return TRUE;

  if (!qm_store_begin (store, what, error))
    return FALSE;
  /* Clients of one server sync one at a time (SQLite's BEGIN IMMEDIATE
   * has serialised them already), so two never rewrite the rows at once. */
  if (qm_db_engine (db) == QM_DB_POSTGRESQL &&
      !qm_db_exec (db, "LOCK TABLE catalog_builtin IN SHARE ROW EXCLUSIVE MODE", NULL))
    goto fail;
  /* Another process opening the same new database may have synced while
   * this one waited for the write lock: read the version again inside the
   * transaction, so that only the first one rewrites the rows and the
   * others do not hold the lock (and time out each other) doing it again. */
  if (!force)
    {
      g_autofree char *now = qm_store_meta_get (store, "catalog_version");

      if (g_strcmp0 (now, qm_catalog_version ()) == 0)
        return qm_store_commit (store, what, error);
    }

  /* Rows the new catalog no longer ships keep position -1 and go. */
  if (!qm_db_exec (db, "UPDATE catalog_builtin SET position = -1", NULL) ||
      (upsert = qm_db_prepare (db, upsert_builtin_sql, NULL)) == NULL ||
      !write_builtins (upsert) ||
      !qm_db_exec (db, "DELETE FROM catalog_builtin WHERE position = -1", NULL))
    goto fail;

  meta = qm_db_prepare (db, "INSERT INTO meta (key, value) VALUES ('catalog_version', ?1)"
                            " ON CONFLICT (key) DO UPDATE SET value = excluded.value", NULL);
  if (meta == NULL)
    goto fail;
  qm_db_bind_text (meta, 1, qm_catalog_version ());
  if (qm_db_step (meta) != QM_DB_STEP_DONE)
    goto fail;

  if (!qm_store_commit (store, what, error))
    return FALSE;
  if (synced != NULL)
    *synced = TRUE;
  return TRUE;

fail:
  qm_store_db_fail (store, error, "%s", what);
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
  "list_price_usd, override_usd, price_usd, entry, revision, override_revision"

/* Kinds in the order of the catalog view's pages. */
#define KIND_ORDER \
  "CASE kind WHEN 'gpu' THEN 0 WHEN 'server' THEN 1 WHEN 'network' THEN 2" \
  " WHEN 'storage' THEN 3 WHEN 'facility' THEN 4 WHEN 'cloud' THEN 5 ELSE 6 END"

static QmCatalogEntry *
entry_from_row (QmDbStmt *stmt)
{
  QmCatalogEntry *e = g_new0 (QmCatalogEntry, 1);

  if (!qm_catalog_kind_from_string (qm_db_column_text (stmt, 0), &e->kind))
    e->kind = QM_CATALOG_KIND_GPU;
  e->id = qm_db_column_dup (stmt, 1);
  e->vendor = qm_db_column_dup (stmt, 2);
  e->name = qm_db_column_dup (stmt, 3);
  e->source = qm_db_column_dup (stmt, 4);
  e->as_of = qm_db_column_dup (stmt, 5);
  e->builtin = qm_db_column_int64 (stmt, 6) != 0;
  e->hidden = qm_db_column_int64 (stmt, 7) != 0;
  e->list_price_usd = qm_db_column_double (stmt, 8);
  e->has_override = !qm_db_column_is_null (stmt, 9);
  e->override_usd = e->has_override ? qm_db_column_double (stmt, 9) : 0.0;
  e->price_usd = qm_db_column_double (stmt, 10);
  e->json = qm_db_column_dup (stmt, 11);
  e->revision = qm_db_column_int64 (stmt, 12);
  e->override_revision = qm_db_column_int64 (stmt, 13);
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

#define LIKE_ANY(LIKE) \
  "id " LIKE " ?3 ESCAPE '\\' OR name " LIKE " ?3 ESCAPE '\\' OR vendor " LIKE " ?3 ESCAPE '\\'"

/* SQLite's LIKE ignores ASCII case, and "?3 IS NULL" first spares it
 * three LIKEs a row when there is no search (the whole list loads in a
 * third less time). PostgreSQL's ILIKE ignores case; it takes each
 * parameter's type from the first place it appears, so there a column
 * comes first, and user entries sharing a creation time sort by id. */
static const char list_sqlite_sql[] =
  "SELECT " ENTRY_COLUMNS " FROM catalog_entry"
  " WHERE (?1 IS NULL OR kind = ?1) AND (?2 <> 0 OR hidden = 0)"
  "   AND (?3 IS NULL OR " LIKE_ANY ("LIKE") ")"
  " ORDER BY " KIND_ORDER ", builtin DESC, position";
static const char list_pg_sql[] =
  "SELECT " ENTRY_COLUMNS " FROM catalog_entry"
  " WHERE (kind = ?1 OR ?1 IS NULL) AND (?2 <> 0 OR hidden = 0)"
  "   AND (" LIKE_ANY ("ILIKE") " OR ?3 IS NULL)"
  " ORDER BY " KIND_ORDER ", builtin DESC, position, id";

GPtrArray *
qm_catalog_store_list (QmStore             *store,
                       int                  kind,
                       const char          *search,
                       QmCatalogListFlags   flags,
                       GError             **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_catalog_entry_free);
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autofree char *pattern = NULL;
  gboolean pg = qm_db_engine (qm_store_connection (store)) == QM_DB_POSTGRESQL;
  QmDbStep step;

  stmt = qm_store_query (store, pg ? list_pg_sql : list_sqlite_sql, error);
  if (stmt == NULL)
    return NULL;
  qm_db_bind_text (stmt, 1, kind >= 0 && kind < QM_N_CATALOG_KINDS
                            ? qm_catalog_kind_to_string (kind) : NULL);
  qm_db_bind_int64 (stmt, 2, (flags & QM_CATALOG_LIST_INCLUDE_HIDDEN) != 0);
  if (search != NULL && *search != '\0')
    pattern = like_pattern (search);
  qm_db_bind_text (stmt, 3, pattern);

  while ((step = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    g_ptr_array_add (out, entry_from_row (stmt));
  if (step != QM_DB_STEP_DONE)
    {
      qm_store_db_fail (store, error, _("Could not read the catalog"));
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
  g_autoptr(QmDbStmt) stmt = NULL;
  QmDbStep step;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);

  stmt = qm_catalog_store_prepare_kind_id (store,
                                           "SELECT " ENTRY_COLUMNS " FROM catalog_entry"
                                           " WHERE kind = ?1 AND id = ?2 ORDER BY builtin LIMIT 1",
                                           kind, id, error);
  if (stmt == NULL)
    return NULL;
  step = qm_db_step (stmt);
  if (step == QM_DB_STEP_ROW)
    return entry_from_row (stmt);
  if (step == QM_DB_STEP_DONE)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                 /* Translators: a catalog kind as the files name it (gpu, server,
                  * network, storage, facility, cloud, model), then the entry's id. */
                 _("No %s with the id \"%s\" in the catalog"), qm_catalog_kind_to_string (kind),
                 id ? id : "");
  else
    qm_store_db_fail (store, error, _("Could not read the catalog"));
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

/* Every change to the user's catalog: the catalog manager's right first,
 * and the other clients told when it commits (qm-store-watch.c). */
gboolean
qm_catalog_store_begin (QmStore     *store,
                        const char  *what,
                        GError     **error)
{
  return qm_store_check_right (store, QM_STORE_RIGHT_EDIT_CATALOG, what, error) &&
         qm_store_begin (store, what, error);
}

gboolean
qm_catalog_store_commit (QmStore     *store,
                         const char  *what,
                         GError     **error)
{
  if (!qm_store_notify (store, QM_STORE_CHANGE_CATALOG, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  return qm_store_commit (store, what, error);
}
