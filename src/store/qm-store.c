/* qm-store.c: opening the database and migrating its schema.
 *
 * Migrations are numbered by PRAGMA user_version. Each step runs in its own
 * transaction, so a crash mid-migration leaves the previous version intact.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "qm-store.h"

struct _QmStore
{
  sqlite3 *db;
  char    *path;
  int      version;
};

G_DEFINE_QUARK (qm-store-error-quark, qm_store_error)

/* migrations[i] takes the schema from version i to i + 1. Append only:
 * never edit a step that has shipped. */
static const char *migrations[] = {
  /* 0 → 1: bookkeeping. */
  "CREATE TABLE meta ("
  "  key   TEXT PRIMARY KEY,"
  "  value TEXT NOT NULL"
  ") STRICT;",
};

int
qm_store_latest_version (void)
{
  return G_N_ELEMENTS (migrations);
}

void
qm_store_set_error (GError     **error,
                    sqlite3     *db,
                    int          rc,
                    const char  *what)
{
  QmStoreError code;
  const char *detail = db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc);

  switch (rc & 0xff)
    {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      code = QM_STORE_ERROR_LOCKED;
      break;
    case SQLITE_READONLY:
    case SQLITE_PERM:
      code = QM_STORE_ERROR_READ_ONLY;
      break;
    case SQLITE_FULL:
      code = QM_STORE_ERROR_FULL;
      break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      code = QM_STORE_ERROR_CORRUPT;
      break;
    case SQLITE_CANTOPEN:
      code = QM_STORE_ERROR_OPEN;
      break;
    default:
      code = QM_STORE_ERROR_FAILED;
      break;
    }

  g_set_error (error, QM_STORE_ERROR, code, "%s: %s", what, detail);
}

char *
qm_store_default_path (void)
{
  const char *env = g_getenv ("QM_DB");

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);

  return g_build_filename (g_get_user_data_dir (), "quartermaster", "quartermaster.db", NULL);
}

static gboolean
exec_sql (sqlite3     *db,
          const char  *sql,
          const char  *what,
          GError     **error)
{
  int rc = sqlite3_exec (db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      qm_store_set_error (error, db, rc, what);
      return FALSE;
    }
  return TRUE;
}

static int
read_user_version (sqlite3 *db,
                   int     *rc_out)
{
  sqlite3_stmt *stmt = NULL;
  int version = -1;
  int rc;

  rc = sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        {
          version = sqlite3_column_int (stmt, 0);
          rc = SQLITE_OK;
        }
    }
  sqlite3_finalize (stmt);
  *rc_out = rc;
  return version;
}

static gboolean
migrate (QmStore  *store,
         GError  **error)
{
  for (int v = store->version; v < qm_store_latest_version (); v++)
    {
      g_autofree char *bump = g_strdup_printf ("PRAGMA user_version = %d", v + 1);
      g_autofree char *what = g_strdup_printf ("Could not upgrade the database to version %d", v + 1);

      if (!exec_sql (store->db, "BEGIN IMMEDIATE", what, error))
        return FALSE;
      if (!exec_sql (store->db, migrations[v], what, error) ||
          !exec_sql (store->db, bump, what, error))
        {
          sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
          return FALSE;
        }
      if (!exec_sql (store->db, "COMMIT", what, error))
        {
          sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
          return FALSE;
        }
      store->version = v + 1;
    }
  return TRUE;
}

QmStore *
qm_store_open (const char  *path,
               GError     **error)
{
  g_autoptr(QmStore) store = g_new0 (QmStore, 1);
  g_autofree char *dir = NULL;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);

  store->path = g_strdup (path);
  store->version = 0;

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                   "Could not create the folder %s: %s", dir, g_strerror (saved));
      return NULL;
    }

  rc = sqlite3_open_v2 (path, &store->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL);
  if (rc != SQLITE_OK)
    {
      g_autofree char *what = g_strdup_printf ("Could not open the database %s", path);
      qm_store_set_error (error, store->db, rc, what);
      return NULL;
    }

  /* Wait a little for a writer in another process before calling it locked. */
  sqlite3_busy_timeout (store->db, 2000);

  store->version = read_user_version (store->db, &rc);
  if (rc != SQLITE_OK)
    {
      g_autofree char *what = g_strdup_printf ("Could not read the database %s", path);
      qm_store_set_error (error, store->db, rc, what);
      return NULL;
    }
  if (store->version > qm_store_latest_version ())
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW,
                   "The database %s was written by a newer Quartermaster "
                   "(schema %d; this version knows up to %d). It was left untouched.",
                   path, store->version, qm_store_latest_version ());
      return NULL;
    }

  /* WAL keeps the last committed state readable after a crash mid-write. */
  if (!exec_sql (store->db, "PRAGMA journal_mode = WAL", "Could not enable write-ahead logging", error) ||
      !exec_sql (store->db, "PRAGMA foreign_keys = ON", "Could not enable foreign keys", error) ||
      !exec_sql (store->db, "PRAGMA synchronous = NORMAL", "Could not set the sync mode", error))
    return NULL;

  if (!migrate (store, error))
    return NULL;

  return g_steal_pointer (&store);
}

void
qm_store_free (QmStore *store)
{
  if (store == NULL)
    return;

  if (store->db != NULL)
    sqlite3_close_v2 (store->db);
  g_free (store->path);
  g_free (store);
}

int
qm_store_schema_version (QmStore *store)
{
  return store->version;
}

const char *
qm_store_path (QmStore *store)
{
  return store->path;
}

sqlite3 *
qm_store_db (QmStore *store)
{
  return store->db;
}
