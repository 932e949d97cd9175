/* qm-catalog-store-user.c: the user's own catalog entries (add, change,
 * delete), hiding built-in ones and price overrides. Every write checks
 * the entry with the core's catalog parser first.
 *
 * Entries and overrides carry a revision, as plans do (issue #23): a save
 * names the revision it was read at, and the write only happens where the
 * row still has it ("WHERE revision = ?"), so that of two team members the
 * second is refused with a conflict rather than overwriting the first.
 * Every change of a price is recorded in the history in the same
 * transaction (qm-catalog-store-history.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-catalog-store-private.h"

/* ------------------------------------------------------------------ */
/* The user's entries.                                                 */

/* What run_kind_id() found. */
typedef struct
{
  gboolean  exists;    /* a SELECT gave a row */
  gint64    revision;  /* its first two columns as revision and price */
  double    price;     /* (USER_REVISION, OVERRIDE_REVISION); 0 without a row */
  gint64    changes;   /* the rows any other statement changed */
} KindIdRow;

/* Runs @sql, a statement on the row @kind @id, to its first row. */
static gboolean
run_kind_id (QmStore        *store,
             const char     *sql,
             QmCatalogKind   kind,
             const char     *id,
             KindIdRow      *row,
             GError        **error)
{
  g_autoptr(QmDbStmt) stmt = qm_catalog_store_prepare_kind_id (store, sql, kind, id, error);
  gboolean reads = g_str_has_prefix (sql, "SELECT");
  QmDbStep step;

  memset (row, 0, sizeof *row);
  if (stmt == NULL)
    return FALSE;
  step = qm_db_step (stmt);
  if (step == QM_DB_STEP_ERROR || (!reads && step != QM_DB_STEP_DONE))
    {
      if (reads)
        qm_store_db_fail (store, error, _("Could not read the catalog"));
      else
        /* Translators: a catalog kind as the files name it (gpu, server,
         * network, storage, facility, cloud, model), then the entry's id. */
        qm_store_db_fail (store, error, _("Could not change the %s \"%s\""),
                          qm_catalog_kind_to_string (kind), id);
      return FALSE;
    }
  row->exists = step == QM_DB_STEP_ROW;
  if (row->exists && qm_db_column_count (stmt) >= 2)
    {
      row->revision = qm_db_column_int64 (stmt, 0);
      row->price = qm_db_column_double (stmt, 1);
    }
  if (!reads)
    row->changes = qm_db_changes (qm_store_connection (store));
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
    g_prefix_error (error, _("%s: "), what);
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
  KindIdRow row;

  if (!run_kind_id (store, BUILTIN_EXISTS, kind, id, &row, error) ||
      (!row.exists && !run_kind_id (store, USER_EXISTS, kind, id, &row, error)))
    return FALSE;
  *taken = row.exists;
  return TRUE;
}

/* How often a save that names no revision reads again after another
 * client's change slipped in between its read and its write. SQLite's
 * write lock is taken before the read, and on PostgreSQL the read locks
 * the row (FOR UPDATE), so this is left for a row that another client
 * inserted after the read found none. (Without the row lock two clients
 * saving one price 60 times each ran out of attempts on a loaded CI
 * machine: test-catalog-store-pg's concurrent-any.) */
#define MAX_ATTEMPTS 5

#define USER_REVISION     "SELECT revision, price_usd FROM catalog_user WHERE kind = ?1 AND id = ?2"
#define OVERRIDE_REVISION "SELECT revision, price_usd FROM catalog_override WHERE kind = ?1 AND id = ?2"

/* Someone else changed the row since the caller read it at @mine. */
static void
set_conflict (QmStore     *store,
              GError     **error,
              const char  *what,
              gboolean     price,
              gint64       mine,
              gint64       theirs)
{
  g_autofree char *now = theirs > 0
                         /* Translators: %s is the database file or server, then a revision
                          * number; this goes into the "someone else changed" message. */
                         ? g_strdup_printf (_("%s has revision %lld"),
                                            qm_store_path (store), (long long) theirs)
                         /* Translators: %s is the database file or server; the
                          * entry (or its price) is gone there. */
                         : g_strdup_printf (_("%s has none any more"), qm_store_path (store));

  if (price)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT,
                 /* Translators: what failed ("Could not set the price of the gpu
                  * \"h100\""), the revision this copy was read at, and what the
                  * database has now ("DATABASE has revision 4"). */
                 _("%s: someone else changed its price meanwhile (this copy is revision "
                   "%lld, %s). Nothing was overwritten; reload it and make the change again."),
                 what, (long long) mine, now);
  else
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT,
                 /* Translators: what failed ("Could not save the gpu \"h100\""), the
                  * revision this copy was read at, and what the database has now
                  * ("DATABASE has revision 4"). */
                 _("%s: someone else changed this entry meanwhile (this copy is revision "
                   "%lld, %s). Nothing was overwritten; reload it and make the change again."),
                 what, (long long) mine, now);
}

/* A write guarded by the revision its row was read at: the row is read,
 * checked against the revision the caller names, and written only where
 * it still has that revision. */
typedef struct
{
  QmStore        *store;
  QmCatalogKind   kind;
  const char     *id;            /* the row; NULL: a new one, nothing to read */
  const char     *revision_sql;  /* USER_REVISION or OVERRIDE_REVISION */
  const char     *what;
  gboolean        price;         /* set_conflict() says the price changed, not the entry */
  gint64          expected;      /* or QM_CATALOG_ANY_REVISION */
  gboolean        must_exist;    /* no row is a conflict too */
  gint64          revision;      /* the revision read; 0: no row */
  double          old_price;     /* the price read */
} GuardedWrite;

/* Prepares and binds the write once @w's row is read; *stmt NULL when
 * there is nothing to write. */
typedef gboolean (*PrepareWrite) (GuardedWrite  *w,
                                  gpointer       data,
                                  QmDbStmt     **stmt,
                                  GError       **error);

static gboolean
guarded_write (GuardedWrite  *w,
               PrepareWrite   prepare,
               gpointer       data,
               GError       **error)
{
  for (guint attempts = 1; ; attempts++)
    {
      g_autoptr(QmDbStmt) stmt = NULL;
      KindIdRow row;

      if (w->id != NULL)
        {
          g_autofree char *read = qm_db_engine (qm_store_connection (w->store)) == QM_DB_POSTGRESQL
                                  ? g_strconcat (w->revision_sql, " FOR UPDATE", NULL)
                                  : g_strdup (w->revision_sql);

          if (!run_kind_id (w->store, read, w->kind, w->id, &row, error))
            return FALSE;
          w->revision = row.revision;
          w->old_price = row.price;
          if ((w->must_exist && w->revision == 0) ||
              (w->expected != QM_CATALOG_ANY_REVISION && w->expected != w->revision))
            {
              set_conflict (w->store, error, w->what, w->price,
                            w->expected != QM_CATALOG_ANY_REVISION ? w->expected : w->revision,
                            w->revision);
              return FALSE;
            }
        }
      if (!prepare (w, data, &stmt, error))
        return FALSE;
      if (stmt == NULL)
        return TRUE;
      if (!qm_store_query_done (w->store, stmt, error, "%s", w->what))
        return FALSE;
      if (qm_db_changes (qm_store_connection (w->store)) > 0)
        return TRUE;
      /* Another client of the server changed it between the read and now:
       * a save that names no revision tries again from what is there now. */
      if (w->expected == QM_CATALOG_ANY_REVISION && attempts < MAX_ATTEMPTS)
        continue;
      if (run_kind_id (w->store, w->revision_sql, w->kind, w->id, &row, error))
        set_conflict (w->store, error, w->what, w->price, w->revision, row.revision);
      return FALSE;
    }
}

/* The parsed entry and its canonical JSON, for prepare_user(). */
typedef struct
{
  const QmCatalogInfo  *info;
  const char           *text;
} UserEntry;

#define USER_INSERT \
  "INSERT INTO catalog_user (kind, id, vendor, name, price_usd, source," \
  " as_of, entry, created, modified, revision) VALUES "
#define USER_INSERT_ROW "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, 1)"

/* Binds ?1 ... ?9 past @base as USER_INSERT_ROW wants them: kind, id,
 * vendor, name, price_usd, source, as_of, entry, and @now as modified. */
static void
bind_user (QmDbStmt             *stmt,
           int                   base,
           QmCatalogKind         kind,
           const QmCatalogInfo  *info,
           const char           *text,
           gint64                now)
{
  qm_db_bind_text (stmt, base + 1, qm_catalog_kind_to_string (kind));
  qm_db_bind_text (stmt, base + 2, info->id);
  qm_db_bind_text (stmt, base + 3, info->vendor ? info->vendor : "");
  qm_db_bind_text (stmt, base + 4, info->name);
  qm_db_bind_double (stmt, base + 5, info->price_usd);
  qm_db_bind_text (stmt, base + 6, info->source ? info->source : "");
  qm_db_bind_text (stmt, base + 7, info->as_of ? info->as_of : "");
  qm_db_bind_text (stmt, base + 8, text);
  qm_db_bind_int64 (stmt, base + 9, now);
}

static gboolean
prepare_user (GuardedWrite  *w,
              gpointer       data,
              QmDbStmt     **stmt,
              GError       **error)
{
  const UserEntry *entry = data;
  const char *sql = w->id == NULL
                    ? USER_INSERT USER_INSERT_ROW
                    : "UPDATE catalog_user SET id = ?2, vendor = ?3, name = ?4,"
                      " price_usd = ?5, source = ?6, as_of = ?7, entry = ?8, modified = ?9,"
                      " revision = ?11 + 1"
                      " WHERE kind = ?1 AND id = ?10 AND revision = ?11";

  if ((*stmt = qm_store_query (w->store, sql, error)) == NULL)
    return FALSE;
  bind_user (*stmt, 0, w->kind, entry->info, entry->text, g_get_real_time ());
  if (w->id != NULL)
    qm_db_bind_text (*stmt, 10, w->id);
  qm_db_bind_int64 (*stmt, 11, w->id != NULL ? w->revision : 1);
  return TRUE;
}

/* Inserts a new user entry (@old_id NULL) or rewrites @old_id from
 * revision @expected (or any); records a change of its price. */
static gboolean
write_user_at (QmStore              *store,
               QmCatalogKind         kind,
               const char           *old_id,
               const QmCatalogInfo  *info,
               const char           *text,
               gint64                expected,
               gint64               *new_revision,
               GError              **error)
{
  /* Translators: a catalog kind as the files name it (gpu, server,
   * network, storage, facility, cloud, model), then the entry's id. */
  g_autofree char *what = g_strdup_printf (_("Could not save the %s \"%s\""),
                                           qm_catalog_kind_to_string (kind), info->id);
  GuardedWrite w = { store, kind, old_id, USER_REVISION, what, FALSE, expected, TRUE, 0, 0.0 };
  UserEntry entry = { info, text };
  gint64 revision;

  if (!guarded_write (&w, prepare_user, &entry, error))
    return FALSE;
  revision = old_id != NULL ? w.revision + 1 : 1;
  if (new_revision != NULL)
    *new_revision = revision;

  /* On a server its trigger carries the history along (schema step 7). */
  if (old_id != NULL && g_strcmp0 (old_id, info->id) != 0 &&
      qm_db_engine (qm_store_connection (store)) != QM_DB_POSTGRESQL)
    {
      /* The history follows the entry to its new id. */
      g_autoptr(QmDbStmt) stmt = qm_catalog_store_prepare_kind_id (store, "UPDATE catalog_price_history SET id = ?3"
                                                                          " WHERE kind = ?1 AND id = ?2",
                                                                   kind, old_id, error);
      if (stmt == NULL)
        return FALSE;
      qm_db_bind_text (stmt, 3, info->id);
      if (!qm_store_query_done (store, stmt, error, "%s", what))
        return FALSE;
    }
  if (old_id == NULL || w.old_price != info->price_usd)
    return qm_catalog_store_record_price (store, kind, info->id, FALSE,
                                          old_id != NULL ? &w.old_price : NULL, &info->price_usd,
                                          revision, error);
  return TRUE;
}

gboolean
qm_catalog_store_write_user (QmStore              *store,
                             QmCatalogKind         kind,
                             const char           *old_id,
                             const QmCatalogInfo  *info,
                             const char           *text,
                             GError              **error)
{
  return write_user_at (store, kind, old_id, info, text, QM_CATALOG_ANY_REVISION, NULL, error);
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
  const char *what = _("Could not add the catalog entry");

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if ((text = canonical_entry_text (kind, json, &info, what, error)) == NULL)
    return FALSE;
  if (!qm_catalog_store_begin (store, what, error))
    return FALSE;
  if (!id_taken (store, kind, info.id, &exists, error))
    goto fail;
  if (exists)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: what failed ("Could not add the catalog entry"), a
                    * catalog kind as the files name it (gpu, server, ...), and the id;
                    * "id" is the field's key and stays as it is. */
                   _("%s: id: a %s with the id \"%s\" exists already; choose another id"),
                   what, qm_catalog_kind_to_string (kind), info.id);
      goto fail;
    }
  if (!qm_catalog_store_write_user (store, kind, NULL, &info, text, error))
    goto fail;
  return qm_catalog_store_commit (store, what, error);

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
  return qm_catalog_store_update_at (store, kind, id, json, QM_CATALOG_ANY_REVISION, NULL, error);
}

gboolean
qm_catalog_store_update_at (QmStore        *store,
                            QmCatalogKind   kind,
                            const char     *id,
                            const char     *json,
                            gint64          revision,
                            gint64         *new_revision,
                            GError        **error)
{
  g_autofree char *text = NULL;
  /* Translators: a catalog kind as the files name it (gpu, server,
   * network, storage, facility, cloud, model), then the entry's id. */
  g_autofree char *what = g_strdup_printf (_("Could not change the %s \"%s\""),
                                           qm_catalog_kind_to_string (kind), id);
  QmCatalogInfo info;
  KindIdRow row;
  gboolean exists = FALSE;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if ((text = canonical_entry_text (kind, json, &info, what, error)) == NULL)
    return FALSE;
  if (!qm_catalog_store_begin (store, what, error))
    return FALSE;
  if (!run_kind_id (store, USER_EXISTS, kind, id, &row, error))
    goto fail;
  if (!row.exists)
    {
      if (!run_kind_id (store, BUILTIN_EXISTS, kind, id, &row, error))
        goto fail;
      if (row.exists)
        g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                     /* Translators: %s says what failed ("Could not change the gpu \"h100\""). */
                     _("%s: it is a built-in entry; override its price, or duplicate it and "
                       "edit the copy"), what);
      else
        g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                     /* Translators: %s says what failed ("Could not change the gpu \"h100\""). */
                     _("%s: there is no such entry of your own"), what);
      goto fail;
    }
  if (g_strcmp0 (id, info.id) != 0)
    {
      if (!id_taken (store, kind, info.id, &exists, error))
        goto fail;
      if (exists)
        {
          g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                       /* Translators: what failed ("Could not change the gpu \"h100\""),
                        * then the new id; "id" is the field's key and stays as it is. */
                       _("%s: id: \"%s\" is taken by another entry"), what, info.id);
          goto fail;
        }
    }
  if (!write_user_at (store, kind, id, &info, text, revision, new_revision, error))
    goto fail;
  return qm_catalog_store_commit (store, what, error);

fail:
  qm_store_rollback (store);
  return FALSE;
}

/* Deletes the row @w read, with the DELETE @data ("... AND revision =
 * ?3"); nothing when there is none. */
static gboolean
prepare_delete (GuardedWrite  *w,
                gpointer       data,
                QmDbStmt     **stmt,
                GError       **error)
{
  if (w->revision == 0)
    return TRUE;
  if ((*stmt = qm_catalog_store_prepare_kind_id (w->store, data, w->kind, w->id, error)) == NULL)
    return FALSE;
  qm_db_bind_int64 (*stmt, 3, w->revision);
  return TRUE;
}

/* Deletes the user's entry (or, @is_override, its price override) read at
 * @expected, and records that its price went, inside the caller's
 * transaction; *deleted FALSE when there was none. */
static gboolean
delete_locked (QmStore        *store,
               QmCatalogKind   kind,
               const char     *id,
               gboolean        is_override,
               gint64          expected,
               const char     *what,
               gboolean       *deleted,
               GError        **error)
{
  GuardedWrite w = { store, kind, id, is_override ? OVERRIDE_REVISION : USER_REVISION, what,
                     is_override, expected, FALSE, 0, 0.0 };

  if (!guarded_write (&w, prepare_delete,
                      is_override ? "DELETE FROM catalog_override WHERE kind = ?1 AND id = ?2 AND revision = ?3"
                                  : "DELETE FROM catalog_user WHERE kind = ?1 AND id = ?2 AND revision = ?3",
                      error))
    return FALSE;
  *deleted = w.revision != 0;
  if (w.revision == 0)
    return TRUE;
  return qm_catalog_store_record_price (store, kind, id, is_override, &w.old_price, NULL, w.revision + 1, error);
}

gboolean
qm_catalog_store_delete (QmStore        *store,
                         QmCatalogKind   kind,
                         const char     *id,
                         GError        **error)
{
  const char *what = _("Could not delete the catalog entry");
  /* Translators: a catalog kind as the files name it (gpu, server,
   * network, storage, facility, cloud, model), then the entry's id. */
  g_autofree char *change = g_strdup_printf (_("Could not change the %s \"%s\""),
                                             qm_catalog_kind_to_string (kind), id);
  KindIdRow builtin;
  gboolean deleted = FALSE;

  if (!qm_catalog_store_begin (store, what, error))
    return FALSE;
  if (!delete_locked (store, kind, id, FALSE, QM_CATALOG_ANY_REVISION, change, &deleted, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  if (deleted)
    return qm_catalog_store_commit (store, what, error);
  qm_store_rollback (store);
  if (!run_kind_id (store, BUILTIN_EXISTS, kind, id, &builtin, error))
    return FALSE;
  if (builtin.exists)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                 /* Translators: a catalog kind as the files name it (gpu, server,
                  * network, storage, facility, cloud, model), then the entry's id. */
                 _("The %s \"%s\" is built in and cannot be deleted; hide it instead"),
                 qm_catalog_kind_to_string (kind), id);
  else
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                 /* Translators: a catalog kind as the files name it (gpu, server,
                  * network, storage, facility, cloud, model), then the entry's id. */
                 _("No %s of your own with the id \"%s\""), qm_catalog_kind_to_string (kind), id);
  return FALSE;
}

gboolean
qm_catalog_store_set_hidden (QmStore        *store,
                             QmCatalogKind   kind,
                             const char     *id,
                             gboolean        hidden,
                             GError        **error)
{
  KindIdRow row;

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_CATALOG, _("Could not hide the catalog entry"),
                             error))
    return FALSE;
  if (!run_kind_id (store,
                    hidden ? "UPDATE catalog_builtin SET hidden = 1 WHERE kind = ?1 AND id = ?2"
                           : "UPDATE catalog_builtin SET hidden = 0 WHERE kind = ?1 AND id = ?2",
                    kind, id, &row, error))
    return FALSE;
  if (row.changes == 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   /* Translators: a catalog kind as the files name it (gpu, server,
                    * network, storage, facility, cloud, model), then the entry's id. */
                   _("No built-in %s with the id \"%s\" (only built-in entries are hidden; "
                     "delete your own)"), qm_catalog_kind_to_string (kind), id);
      return FALSE;
    }
  /* One statement, committed already: the notice goes on its own. */
  return qm_store_notify (store, QM_STORE_CHANGE_CATALOG, error);
}

/* The revision a new override starts at: past every one the entry's
 * override had before, so a copy read before a clear and a set again
 * never matches the new one. */
static gboolean
next_override_revision (QmStore        *store,
                        QmCatalogKind   kind,
                        const char     *id,
                        gint64         *revision,
                        GError        **error)
{
  g_autoptr(QmDbStmt) stmt = qm_catalog_store_prepare_kind_id (store,
      "SELECT coalesce (max (revision), 0) + 1 FROM catalog_price_history"
      " WHERE kind = ?1 AND id = ?2 AND is_override = 1", kind, id, error);

  if (stmt == NULL)
    return FALSE;
  if (qm_db_step (stmt) != QM_DB_STEP_ROW)
    {
      qm_store_db_fail (store, error, _("Could not read the price history"));
      return FALSE;
    }
  *revision = qm_db_column_int64 (stmt, 0);
  return TRUE;
}

#define OVERRIDE_INSERT \
  "INSERT INTO catalog_override (kind, id, price_usd, modified, revision) VALUES "
#define OVERRIDE_ROW        "(?1, ?2, ?3, ?4, ?5)"
#define OVERRIDE_INSERT_END " ON CONFLICT (kind, id) DO NOTHING"

/* The price to set, and the revision it is set at, for prepare_override(). */
typedef struct
{
  double  price_usd;
  gint64  next;
} OverrideWrite;

static gboolean
prepare_override (GuardedWrite  *w,
                  gpointer       data,
                  QmDbStmt     **stmt,
                  GError       **error)
{
  OverrideWrite *o = data;

  if (w->revision == 0 && !next_override_revision (w->store, w->kind, w->id, &o->next, error))
    return FALSE;
  *stmt = qm_catalog_store_prepare_kind_id (w->store, w->revision == 0
      ? OVERRIDE_INSERT OVERRIDE_ROW OVERRIDE_INSERT_END
      : "UPDATE catalog_override SET price_usd = ?3, modified = ?4, revision = ?5"
        " WHERE kind = ?1 AND id = ?2 AND revision = ?5 - 1", w->kind, w->id, error);
  if (*stmt == NULL)
    return FALSE;
  o->next = w->revision == 0 ? o->next : w->revision + 1;
  qm_db_bind_double (*stmt, 3, o->price_usd);
  qm_db_bind_int64 (*stmt, 4, g_get_real_time ());
  qm_db_bind_int64 (*stmt, 5, o->next);
  return TRUE;
}

gboolean
qm_catalog_store_set_override (QmStore        *store,
                               QmCatalogKind   kind,
                               const char     *id,
                               double          price_usd,
                               gint64          expected,
                               gint64         *new_revision,
                               GError        **error)
{
  /* Translators: a catalog kind as the files name it (gpu, server,
   * network, storage, facility, cloud, model), then the entry's id. */
  g_autofree char *what = g_strdup_printf (_("Could not set the price of the %s \"%s\""),
                                           qm_catalog_kind_to_string (kind), id);
  GuardedWrite w = { store, kind, id, OVERRIDE_REVISION, what, TRUE, expected, FALSE, 0, 0.0 };
  OverrideWrite o = { price_usd, 0 };

  if (!guarded_write (&w, prepare_override, &o, error))
    return FALSE;
  if (new_revision != NULL)
    *new_revision = o.next;
  if (w.revision != 0 && w.old_price == price_usd)
    return TRUE;
  return qm_catalog_store_record_price (store, kind, id, TRUE, w.revision != 0 ? &w.old_price : NULL,
                                        &price_usd, o.next, error);
}

gboolean
qm_catalog_store_set_price_override (QmStore        *store,
                                     QmCatalogKind   kind,
                                     const char     *id,
                                     double          price_usd,
                                     GError        **error)
{
  return qm_catalog_store_set_price_override_at (store, kind, id, price_usd,
                                                 QM_CATALOG_ANY_REVISION, NULL, error);
}

gboolean
qm_catalog_store_set_price_override_at (QmStore        *store,
                                        QmCatalogKind   kind,
                                        const char     *id,
                                        double          price_usd,
                                        gint64          revision,
                                        gint64         *new_revision,
                                        GError        **error)
{
  g_autoptr(QmCatalogEntry) entry = NULL;
  const char *what = _("Could not set the price");

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);

  if (!isfinite (price_usd) || price_usd < 0.0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: "price_usd" is the field's key and stays as it is. */
                   _("price_usd: must be a number >= 0 (got %g)"), price_usd);
      return FALSE;
    }
  if (!qm_catalog_store_begin (store, what, error))
    return FALSE;
  if ((entry = qm_catalog_store_get (store, kind, id, error)) == NULL ||
      !qm_catalog_store_set_override (store, kind, id, price_usd, revision, new_revision, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  return qm_catalog_store_commit (store, what, error);
}

gboolean
qm_catalog_store_clear_price_override (QmStore        *store,
                                       QmCatalogKind   kind,
                                       const char     *id,
                                       GError        **error)
{
  return qm_catalog_store_clear_price_override_at (store, kind, id, QM_CATALOG_ANY_REVISION, error);
}

gboolean
qm_catalog_store_clear_price_override_at (QmStore        *store,
                                          QmCatalogKind   kind,
                                          const char     *id,
                                          gint64          revision,
                                          GError        **error)
{
  /* Translators: a catalog kind as the files name it (gpu, server,
   * network, storage, facility, cloud, model), then the entry's id. */
  g_autofree char *what = g_strdup_printf (_("Could not clear the price of the %s \"%s\""),
                                           qm_catalog_kind_to_string (kind), id);
  gboolean deleted = FALSE;

  if (!qm_catalog_store_begin (store, what, error))
    return FALSE;
  if (!delete_locked (store, kind, id, TRUE, revision, what, &deleted, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  return qm_catalog_store_commit (store, what, error);
}

/* ------------------------------------------------------------------ */
/* Many rows at once (a CSV import).                                   */

char *
qm_catalog_store_values_sql (const char *row,
                             guint       per_row,
                             guint       n)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < n; k++)
    {
      if (k > 0)
        g_string_append (s, ", ");
      for (const char *p = row; *p != '\0'; p++)
        {
          char *end;

          if (*p != '?' || !g_ascii_isdigit (p[1]))
            {
              g_string_append_c (s, *p);
              continue;
            }
          g_string_append_printf (s, "?%" G_GUINT64_FORMAT,
                                  g_ascii_strtoull (p + 1, &end, 10) + (guint64) k * per_row);
          p = end - 1;
        }
    }
  return g_string_free (s, FALSE);
}

QmDbStmt *
qm_catalog_store_query_cached (QmStore     *store,
                               GHashTable  *cache,
                               const char  *sql,
                               GError     **error)
{
  QmDbStmt *stmt = g_hash_table_lookup (cache, sql);

  if (stmt != NULL)
    {
      qm_db_reset (stmt);
      return stmt;
    }
  if ((stmt = qm_store_query (store, sql, error)) != NULL)
    g_hash_table_insert (cache, g_strdup (sql), stmt);
  return stmt;
}

/* Rows per statement: each has at most 3,000 parameters (SQLite takes
 * 32,766, PostgreSQL 65,535), and a server parses it in a few ms; more
 * rows a statement gained little in the bench. */
#define BATCH_ROWS 300

/* One row of an import, with what was read of its entry or override. */
typedef struct
{
  const QmCsvRowPreview  *preview;
  QmCatalogInfo           info;      /* ADD, UPDATE: the parsed entry */
  guint                   index;     /* in the batch */
  gboolean                exists;    /* a user entry, or for PRICE an override */
  gint64                  revision;  /* its revision, 0 without one */
  double                  old_price;
  gint64                  next;      /* the revision written */
  gint64                  time;      /* modified (and created): the row's own */
} BatchRow;

/* Binds the row @b of a statement past @base. */
typedef void (*BindRow) (QmDbStmt *stmt,
                         int       base,
                         BatchRow *b);

/* ?1 kind, ?2 id: the row's entry. */
static void
bind_entry (QmDbStmt *stmt,
            int       base,
            BatchRow *b)
{
  qm_db_bind_text (stmt, base + 1, qm_catalog_kind_to_string (b->preview->kind));
  qm_db_bind_text (stmt, base + 2, b->preview->id);
}

/* ... and ?3 the row's index in the batch, to find it in what a read
 * gives back. */
#define KEY_ROW "(?1, ?2, ?3)"

static void
bind_key (QmDbStmt *stmt,
          int       base,
          BatchRow *b)
{
  bind_entry (stmt, base, b);
  qm_db_bind_int64 (stmt, base + 3, b->index);
}

static void
bind_insert_user (QmDbStmt *stmt,
                  int       base,
                  BatchRow *b)
{
  bind_user (stmt, base, b->preview->kind, &b->info, b->preview->json, b->time);
}

/* The row an UPDATE_USER_ROW rewrites. */
static void
bind_update_user (QmDbStmt *stmt,
                  int       base,
                  BatchRow *b)
{
  bind_user (stmt, base, b->preview->kind, &b->info, b->preview->json, b->time);
  qm_db_bind_int64 (stmt, base + 10, b->revision);
}

static void
bind_override (QmDbStmt *stmt,
               int       base,
               BatchRow *b)
{
  bind_entry (stmt, base, b);
  qm_db_bind_double (stmt, base + 3, b->preview->price_usd);
  qm_db_bind_int64 (stmt, base + 4, b->time);
  qm_db_bind_int64 (stmt, base + 5, b->next);
}

/* What the import reads of its rows' user entries and overrides; the
 * first column is the row's index, then revision, price (NULL without a
 * row) and, for overrides, the revision a new one starts at (as
 * next_override_revision()). */
static const char read_user_sql[] =
  "SELECT v.column3, u.revision, u.price_usd FROM (VALUES %s) AS v"
  " JOIN catalog_user u ON u.kind = v.column1 AND u.id = v.column2";
static const char read_override_sql[] =
  "SELECT v.column3, o.revision, o.price_usd,"
  " (SELECT coalesce (max (h.revision), 0) + 1 FROM catalog_price_history h"
  "   WHERE h.kind = v.column1 AND h.id = v.column2 AND h.is_override = 1)"
  " FROM (VALUES %s) AS v LEFT JOIN catalog_override o ON o.kind = v.column1 AND o.id = v.column2";

/* The writes, each guarded by the revision read as the single-row ones
 * are, so that a count short of the rows means someone else changed one. */
static const char insert_user_sql[] = USER_INSERT "%s";
static const char update_user_sql[] =
  "UPDATE catalog_user SET vendor = v.column3, name = v.column4, price_usd = v.column5,"
  " source = v.column6, as_of = v.column7, entry = v.column8, modified = v.column9,"
  " revision = v.column10 + 1 FROM (VALUES %s) AS v"
  " WHERE catalog_user.kind = v.column1 AND catalog_user.id = v.column2"
  " AND catalog_user.revision = v.column10";
#define UPDATE_USER_ROW "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
static const char insert_override_sql[] = OVERRIDE_INSERT "%s" OVERRIDE_INSERT_END;
static const char update_override_sql[] =
  "UPDATE catalog_override SET price_usd = v.column3, modified = v.column4, revision = v.column5"
  " FROM (VALUES %s) AS v"
  " WHERE catalog_override.kind = v.column1 AND catalog_override.id = v.column2"
  " AND catalog_override.revision = v.column5 - 1";

/* A statement of a batch: its SQL (%s the VALUES rows), one VALUES row
 * with its placeholders, and what binds them. */
typedef struct
{
  const char  *sql;
  const char  *row;
  guint        per_row;
  BindRow      bind;
} BatchSql;

static const BatchSql read_user = { read_user_sql, KEY_ROW, 3, bind_key };
static const BatchSql read_override = { read_override_sql, KEY_ROW, 3, bind_key };
static const BatchSql insert_user = { insert_user_sql, USER_INSERT_ROW, 9, bind_insert_user };
static const BatchSql update_user = { update_user_sql, UPDATE_USER_ROW, 10, bind_update_user };
static const BatchSql insert_override = { insert_override_sql, OVERRIDE_ROW, 5, bind_override };
static const BatchSql update_override = { update_override_sql, OVERRIDE_ROW, 5, bind_override };

/* Runs @what for @rows (BatchRow *, of @batch); a read fills in what it
 * found, a write must change every one of them. FALSE on any failure or
 * short count, with no error: the caller goes row by row. */
static gboolean
run_batch (QmStore        *store,
           GHashTable     *cache,
           const BatchSql *what,
           GPtrArray      *rows,
           BatchRow       *batch)
{
  g_autofree char *values = NULL;
  g_autofree char *sql = NULL;
  QmDbStmt *stmt;
  gboolean reads = g_str_has_prefix (what->sql, "SELECT");
  QmDbStep step;

  if (rows->len == 0)
    return TRUE;
  values = qm_catalog_store_values_sql (what->row, what->per_row, rows->len);
  sql = g_strdup_printf (what->sql, values);
  if ((stmt = qm_catalog_store_query_cached (store, cache, sql, NULL)) == NULL)
    return FALSE;
  for (guint i = 0; i < rows->len; i++)
    what->bind (stmt, i * what->per_row, rows->pdata[i]);
  while ((step = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    {
      BatchRow *b = &batch[qm_db_column_int64 (stmt, 0)];

      b->exists = !qm_db_column_is_null (stmt, 1);
      b->revision = qm_db_column_int64 (stmt, 1);
      b->old_price = qm_db_column_double (stmt, 2);
      if (qm_db_column_count (stmt) > 3)
        b->next = b->exists ? b->revision + 1 : qm_db_column_int64 (stmt, 3);
    }
  return step == QM_DB_STEP_DONE &&
         (reads || qm_db_changes (qm_store_connection (store)) == rows->len);
}

/* The history row of @b, if its price changed; as write_user_at() and
 * qm_catalog_store_set_override() record it. */
static void
add_record (GArray   *records,
            BatchRow *b)
{
  gboolean is_override = b->preview->action == QM_CSV_ROW_PRICE;
  const double *new_price = is_override ? &b->preview->price_usd : &b->info.price_usd;
  QmCatalogPriceRecord r = { b->preview->kind, b->preview->id, is_override,
                             b->exists ? &b->old_price : NULL, new_price, b->next };

  if (!b->exists || b->old_price != *new_price)
    g_array_append_val (records, r);
}

/* Writes @n rows with a few statements; FALSE (no error) when anything
 * is not as the rows expect, for the caller to go row by row. */
static gboolean
write_batch (QmStore    *store,
             GHashTable *cache,
             BatchRow   *batch,
             guint     n)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  g_autoptr(GPtrArray) prices = g_ptr_array_new ();
  g_autoptr(GPtrArray) adds = g_ptr_array_new ();
  g_autoptr(GPtrArray) updates = g_ptr_array_new ();
  g_autoptr(GPtrArray) new_overrides = g_ptr_array_new ();
  g_autoptr(GPtrArray) overrides = g_ptr_array_new ();
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (QmCatalogPriceRecord));

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (batch[i].preview->action == QM_CSV_ROW_PRICE ? prices : entries, &batch[i]);
  if (!run_batch (store, cache, &read_user, entries, batch) ||
      !run_batch (store, cache, &read_override, prices, batch))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      BatchRow *b = &batch[i];
      GPtrArray *to = updates;

      if (b->preview->action == QM_CSV_ROW_PRICE)
        to = b->exists ? overrides : new_overrides;
      else if (b->preview->action == QM_CSV_ROW_ADD)
        to = adds;
      /* An entry added or gone since the preview: the single-row write
       * says so in its own words. */
      if (b->preview->action != QM_CSV_ROW_PRICE && b->exists != (to == updates))
        return FALSE;
      if (b->preview->action == QM_CSV_ROW_ADD)
        b->next = 1;
      else if (b->preview->action == QM_CSV_ROW_UPDATE)
        b->next = b->revision + 1;
      g_ptr_array_add (to, b);
      add_record (records, b);
    }
  return run_batch (store, cache, &insert_user, adds, batch) &&
         run_batch (store, cache, &update_user, updates, batch) &&
         run_batch (store, cache, &insert_override, new_overrides, batch) &&
         run_batch (store, cache, &update_override, overrides, batch) &&
         (records->len == 0 ||
          qm_catalog_store_record_prices (store, cache, (QmCatalogPriceRecord *) records->data,
                                          records->len, NULL));
}

/* The parsed entry of an ADD or UPDATE row, as it is written. */
static gboolean
parse_row (const QmCsvRowPreview  *r,
           QmCatalogInfo          *info,
           GError                **error)
{
  g_autoptr(JsonObject) o = NULL;
  g_autofree guint8 *spec = NULL;

  if (r->action == QM_CSV_ROW_PRICE)
    return TRUE;
  if ((o = qm_catalog_store_parse_json (r->json, error)) == NULL)
    return FALSE;
  spec = g_malloc0 (qm_catalog_kind_struct_size (r->kind));
  if (!qm_catalog_parse_object (r->kind, o, QM_CATALOG_PARSE_NONE, spec, error))
    return FALSE;
  /* The strings are interned: the info outlives the spec. */
  *info = *(QmCatalogInfo *) spec;
  return TRUE;
}

/* Row by row, as the editor writes one entry: the path that names the
 * row that fails, and the one taken when another client changed a row
 * between the batch's read and its write. */
static gboolean
write_rows_one_by_one (QmStore    *store,
                       GPtrArray  *rows,
                       GError    **error)
{
  for (guint i = 0; i < rows->len; i++)
    {
      QmCsvRowPreview *r = rows->pdata[i];
      QmCatalogInfo info;

      if (r->action == QM_CSV_ROW_PRICE
          ? !qm_catalog_store_set_override (store, r->kind, r->id, r->price_usd,
                                            QM_CATALOG_ANY_REVISION, NULL, error)
          : !parse_row (r, &info, error) ||
            !qm_catalog_store_write_user (store, r->kind, r->action == QM_CSV_ROW_UPDATE ? r->id : NULL,
                                          &info, r->json, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
qm_catalog_store_write_rows (QmStore    *store,
                             GPtrArray  *rows,
                             GError    **error)
{
  QmDb *db = qm_store_connection (store);
  g_autofree BatchRow *batch = g_new0 (BatchRow, rows->len);
  gboolean written = TRUE;
  g_autoptr(GHashTable) cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                      (GDestroyNotify) qm_db_stmt_free);

  for (guint i = 0; i < rows->len; i++)
    {
      batch[i].preview = rows->pdata[i];
      batch[i].index = i % BATCH_ROWS;
      /* Past the row before, as when each row took its own statement:
       * PostgreSQL lists user entries by creation time, so they keep
       * the file's order. */
      batch[i].time = MAX (g_get_real_time (), i > 0 ? batch[i - 1].time + 1 : 0);
      /* A row that does not parse, or renames its entry: one by one. */
      if (!parse_row (batch[i].preview, &batch[i].info, NULL) ||
          (batch[i].preview->action != QM_CSV_ROW_PRICE &&
           g_strcmp0 (batch[i].info.id, batch[i].preview->id) != 0))
        return write_rows_one_by_one (store, rows, error);
    }
  if (!qm_db_exec (db, "SAVEPOINT catalog_rows", error))
    return FALSE;
  for (guint i = 0; i < rows->len && written; i += BATCH_ROWS)
    written = write_batch (store, cache, &batch[i], MIN (BATCH_ROWS, rows->len - i));
  g_hash_table_remove_all (cache);
  if (!written &&
      !qm_db_exec (db, "ROLLBACK TO SAVEPOINT catalog_rows", error))
    return FALSE;
  if (!qm_db_exec (db, "RELEASE SAVEPOINT catalog_rows", error))
    return FALSE;
  return written || write_rows_one_by_one (store, rows, error);
}
