/* qm-db-sqlite.c: qm-db.h on SQLite, a thin layer over sqlite3_stmt (the
 * default engine must not get slower for being behind an interface).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-db-private.h"

typedef struct
{
  QmDb     parent;
  sqlite3 *handle;
} QmDbSqlite;

typedef struct
{
  QmDbStmt      parent;
  sqlite3_stmt *stmt;
} QmDbSqliteStmt;

#define HANDLE(db) (((QmDbSqlite *) (db))->handle)
#define STMT(s)    (((QmDbSqliteStmt *) (s))->stmt)

QmStoreError
qm_db_sqlite_code (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return QM_STORE_ERROR_LOCKED;
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return QM_STORE_ERROR_READ_ONLY;
    case SQLITE_FULL:
      return QM_STORE_ERROR_FULL;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return QM_STORE_ERROR_CORRUPT;
    case SQLITE_CANTOPEN:
      return QM_STORE_ERROR_OPEN;
    default:
      return QM_STORE_ERROR_FAILED;
    }
}

/* The cause in words, SQLite's own text in brackets for the bug report. */
static void
remember (QmDb *db,
          int   rc)
{
  QmStoreError code = qm_db_sqlite_code (rc);
  const char *detail = sqlite3_errmsg (HANDLE (db));
  const char *why = qm_db_explain (code);

  /* sqlite3_errmsg() can lag behind @rc (e.g. after a failed COMMIT). */
  if ((sqlite3_errcode (HANDLE (db)) & 0xff) != (rc & 0xff))
    detail = sqlite3_errstr (rc);
  if (why != NULL)
    /* Translators: the cause in words, then SQLite's own message. */
    qm_db_set_failure (db, code, _("%s (%s)"), why, detail);
  else
    qm_db_set_failure (db, code, "%s", detail);
}

QmDb *
qm_db_new_sqlite (sqlite3    *handle,
                  const char *path)
{
  QmDbSqlite *db = g_new0 (QmDbSqlite, 1);

  db->parent.klass = &qm_db_sqlite_class;
  db->parent.location = g_strdup (path);
  db->parent.last_code = QM_STORE_ERROR_FAILED;
  db->handle = handle;
  return (QmDb *) db;
}

QmDb *
qm_db_sqlite_open (const char     *path,
                   QmDbOpenFlags   flags,
                   GError        **error)
{
  sqlite3 *handle = NULL;
  int open_flags = SQLITE_OPEN_FULLMUTEX;
  int rc;

  if (flags & QM_DB_OPEN_READ_ONLY)
    open_flags |= SQLITE_OPEN_READONLY;
  else
    open_flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  rc = sqlite3_open_v2 (path, &handle, open_flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_autoptr(QmDb) db = qm_db_new_sqlite (handle, path);

      remember (db, rc);
      qm_db_fail (db, error, _("Could not open the database %s"), path);
      return NULL;
    }
  return qm_db_new_sqlite (handle, path);
}

sqlite3 *
qm_db_sqlite (QmDb *db)
{
  return db->klass == &qm_db_sqlite_class ? HANDLE (db) : NULL;
}

static void
sqlite_close (QmDb *db)
{
  if (HANDLE (db) != NULL)
    sqlite3_close_v2 (HANDLE (db));
  g_free (db);
}

static gboolean
sqlite_exec (QmDb       *db,
             const char *sql)
{
  int rc = sqlite3_exec (HANDLE (db), sql, NULL, NULL, NULL);

  if (rc == SQLITE_OK)
    return TRUE;
  remember (db, rc);
  return FALSE;
}

static gboolean
sqlite_in_transaction (QmDb *db)
{
  return !sqlite3_get_autocommit (HANDLE (db));
}

static gint64
sqlite_changes (QmDb *db)
{
  return sqlite3_changes64 (HANDLE (db));
}

static gint64
sqlite_last_insert_id (QmDb *db)
{
  return sqlite3_last_insert_rowid (HANDLE (db));
}

static int
sqlite_schema_version (QmDb *db)
{
  sqlite3_stmt *stmt = NULL;
  int version = -1;
  int rc = sqlite3_prepare_v2 (HANDLE (db), "PRAGMA user_version", -1, &stmt, NULL);

  if (rc == SQLITE_OK)
    {
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        {
          version = sqlite3_column_int (stmt, 0);
          rc = SQLITE_OK;
        }
    }
  if (rc != SQLITE_OK)
    remember (db, rc);
  sqlite3_finalize (stmt);
  return version;
}

static gboolean
sqlite_set_schema_version (QmDb *db,
                           int   version)
{
  /* A pragma takes no parameters; @version is a number we made. */
  g_autofree char *sql = g_strdup_printf ("PRAGMA user_version = %d", version);

  return sqlite_exec (db, sql);
}

static char *
sqlite_translate_ddl (const char *sql)
{
  return g_strdup (sql);
}

static QmDbStmt *
sqlite_prepare (QmDb       *db,
                const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  QmDbSqliteStmt *s;
  int rc = sqlite3_prepare_v2 (HANDLE (db), sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    {
      remember (db, rc);
      sqlite3_finalize (stmt);
      return NULL;
    }
  s = g_new (QmDbSqliteStmt, 1);
  s->parent.db = db;
  s->stmt = stmt;
  return (QmDbStmt *) s;
}

static void
sqlite_stmt_free (QmDbStmt *stmt)
{
  sqlite3_finalize (STMT (stmt));
  g_free (stmt);
}

static int
sqlite_param_count (QmDbStmt *stmt)
{
  return sqlite3_bind_parameter_count (STMT (stmt));
}

static void
sqlite_bind_text (QmDbStmt   *stmt,
                  int         index,
                  const char *text)
{
  sqlite3_bind_text (STMT (stmt), index, text, -1, SQLITE_TRANSIENT);
}

static void
sqlite_bind_int64 (QmDbStmt *stmt,
                   int       index,
                   gint64    value)
{
  sqlite3_bind_int64 (STMT (stmt), index, value);
}

static void
sqlite_bind_double (QmDbStmt *stmt,
                    int       index,
                    double    value)
{
  sqlite3_bind_double (STMT (stmt), index, value);
}

static void
sqlite_bind_null (QmDbStmt *stmt,
                  int       index)
{
  sqlite3_bind_null (STMT (stmt), index);
}

static QmDbStep
sqlite_step (QmDbStmt *stmt)
{
  int rc = sqlite3_step (STMT (stmt));

  if (rc == SQLITE_ROW)
    return QM_DB_STEP_ROW;
  if (rc == SQLITE_DONE)
    return QM_DB_STEP_DONE;
  remember (stmt->db, rc);
  return QM_DB_STEP_ERROR;
}

static void
sqlite_reset (QmDbStmt *stmt)
{
  sqlite3_reset (STMT (stmt));
}

static int
sqlite_column_count (QmDbStmt *stmt)
{
  return sqlite3_column_count (STMT (stmt));
}

static gboolean
sqlite_column_is_null (QmDbStmt *stmt,
                       int       column)
{
  return sqlite3_column_type (STMT (stmt), column) == SQLITE_NULL;
}

static const char *
sqlite_column_text (QmDbStmt *stmt,
                    int       column)
{
  return (const char *) sqlite3_column_text (STMT (stmt), column);
}

static gint64
sqlite_column_int64 (QmDbStmt *stmt,
                     int       column)
{
  return sqlite3_column_int64 (STMT (stmt), column);
}

static double
sqlite_column_double (QmDbStmt *stmt,
                      int       column)
{
  return sqlite3_column_double (STMT (stmt), column);
}

const QmDbClass qm_db_sqlite_class = {
  .engine = QM_DB_SQLITE,
  .close = sqlite_close,
  .exec = sqlite_exec,
  .begin_sql = "BEGIN IMMEDIATE",
  .in_transaction = sqlite_in_transaction,
  .changes = sqlite_changes,
  .last_insert_id = sqlite_last_insert_id,
  .schema_version = sqlite_schema_version,
  .set_schema_version = sqlite_set_schema_version,
  .translate_ddl = sqlite_translate_ddl,
  .prepare = sqlite_prepare,
  .stmt_free = sqlite_stmt_free,
  .param_count = sqlite_param_count,
  .bind_text = sqlite_bind_text,
  .bind_int64 = sqlite_bind_int64,
  .bind_double = sqlite_bind_double,
  .bind_null = sqlite_bind_null,
  .step = sqlite_step,
  .reset = sqlite_reset,
  .column_count = sqlite_column_count,
  .column_is_null = sqlite_column_is_null,
  .column_text = sqlite_column_text,
  .column_int64 = sqlite_column_int64,
  .column_double = sqlite_column_double,
};
