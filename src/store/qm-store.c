/* qm-store.c: opening the database, a SQLite file or a PostgreSQL server
 * (issue #23), migrating its schema (qm-store-schema.c), and keeping a
 * file safe (integrity check, moving a damaged file aside, daily backups).
 * All queries go through the engine layer, qm-db.h; the file-only parts
 * (WAL, backups, integrity, salvage) use the SQLite handle it holds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "qm-db-private.h"
#include "qm-plan-store.h"
#include "qm-store-private.h"
#include "qm-store-roles.h"

struct _QmStore
{
  QmDb    *qdb;     /* both engines */
  sqlite3 *db;      /* SQLite only: the handle qdb holds; NULL on a server */
  char    *path;    /* the file, or the server's URI without its password */
  int      version;
  gboolean read_only;
  char    *session_id;
  char    *recovered_from;
  char    *backup_problem;
  char    *read_only_why;  /* why a file was opened read-only by this program */
  QmStoreRoleInfo role;   /* a server's: what the connected role may do */
  QmStoreWatch   *watch;  /* qm-store-watch.c, once asked for */
  gint64   last_now;      /* qm_store_now(): the last time it gave */
  gint     ref_count;     /* qm_store_ref(): each holder has one */
};

G_DEFINE_QUARK (qm-store-error-quark, qm_store_error)

gint64
qm_store_now (QmStore *store)
{
  /* Two saves within one microsecond (a script, a test) still list newest
   * first: each time this store gives is past the one before. */
  store->last_now = MAX (g_get_real_time (), store->last_now + 1);
  return store->last_now;
}

/* Deleted plans from a session that never closed (a crash) are purged
 * after this long, so the trash cannot grow for ever. */
/* How long to wait for another process's write before calling the
 * database locked. */
#define QM_STORE_BUSY_TIMEOUT_MS 2000
/* ... while opening: the first process to open a new file creates the
 * schema and writes the built-in catalog, and every other one opening it
 * at the same time must wait for that rather than fail (issue 20). On a
 * loaded machine (four processes under AddressSanitizer) that took longer
 * than the 2 s a single save may wait. */
#define QM_STORE_OPEN_BUSY_TIMEOUT_MS 8000
#define STALE_TRASH_USEC (G_USEC_PER_SEC * (gint64) 24 * 3600)

static void
set_error_valist (GError     **error,
                  sqlite3     *db,
                  int          rc,
                  const char  *what)
{
  QmStoreError code = qm_db_sqlite_code (rc);
  const char *detail = db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc);
  const char *why = qm_db_explain (code);

  /* sqlite3_errmsg() can lag behind @rc (e.g. after a failed COMMIT). */
  if (db != NULL && (sqlite3_errcode (db) & 0xff) != (rc & 0xff))
    detail = sqlite3_errstr (rc);

  if (why != NULL)
    /* Translators: what failed, the cause in words, then SQLite's own
     * message. */
    g_set_error (error, QM_STORE_ERROR, code, _("%s: %s (%s)"), what, why, detail);
  else
    g_set_error (error, QM_STORE_ERROR, code, _("%s: %s"), what, detail);
}

void
qm_store_set_error (GError     **error,
                    sqlite3     *db,
                    int          rc,
                    const char  *what)
{
  set_error_valist (error, db, rc, what);
}

void
qm_store_fail (QmStore     *store,
               GError     **error,
               int          rc,
               const char  *format,
               ...)
{
  g_autofree char *what = NULL;
  g_autofree char *full = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: the first %s says what failed ("Could not save the plan"),
   * the second is the database file. */
  full = g_strdup_printf (_("%s in %s"), what, store->path);
  set_error_valist (error, store->db, rc, full);
}

char *
qm_store_default_path (void)
{
  const char *env = g_getenv ("QM_DB");

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);

  /* Per profile (meson.build), so a development build keeps its own plans. */
  return g_build_filename (g_get_user_data_dir (), STORE_DIR_NAME, "quartermaster.db", NULL);
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

sqlite3_stmt *
qm_store_prepare (QmStore     *store,
                  const char  *sql,
                  GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (store->db == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
                   /* Translators: %s is the team database's server address. */
                   _("%s does not keep this on a PostgreSQL server yet; use a database file"),
                   store->path);
      return NULL;
    }
  rc = sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      qm_store_fail (store, error, rc, _("Could not prepare a query"));
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

char *
qm_store_object_to_text (JsonObject *o,
                         gboolean    pretty)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, o);
  return json_to_string (node, pretty);
}

/* Each value with its length first, so no two rows hash alike by moving
 * text from one field into the next; NULL differs from "". */
void
qm_store_hash_text (GChecksum  *sum,
                    const char *text)
{
  guint64 len = text != NULL ? strlen (text) : G_MAXUINT64;
  guint8 bytes[8];

  for (guint i = 0; i < 8; i++)
    bytes[i] = (len >> (8 * i)) & 0xff;
  g_checksum_update (sum, bytes, sizeof bytes);
  if (text != NULL)
    g_checksum_update (sum, (const guchar *) text, len);
}

gboolean
qm_store_check_writable (QmStore     *store,
                         const char  *what,
                         GError     **error)
{
  if (!store->read_only)
    return TRUE;
  /* A role that may write nothing: say so, and who can change it. */
  if (store->role.known)
    return qm_store_check_right (store, QM_STORE_RIGHTS_EDIT, what, error);
  g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY,
               /* Translators: the first %s says what failed ("Could not save the plan"),
                * the second is the database file, the third the cause. */
               _("%s in %s: %s"), what, store->path, qm_db_explain (QM_STORE_ERROR_READ_ONLY));
  return FALSE;
}

gboolean
qm_store_begin (QmStore     *store,
                const char  *what,
                GError     **error)
{
  if (!qm_store_check_writable (store, what, error))
    return FALSE;
  if (qm_db_begin (store->qdb, NULL))
    return TRUE;
  qm_store_db_fail (store, error, "%s", what);
  return FALSE;
}

gboolean
qm_store_commit (QmStore     *store,
                 const char  *what,
                 GError     **error)
{
  if (qm_db_commit (store->qdb, NULL))
    return TRUE;
  qm_store_db_fail (store, error, "%s", what);
  return FALSE;
}

void
qm_store_rollback (QmStore *store)
{
  qm_db_rollback (store->qdb);
}

QmDb *
qm_store_connection (QmStore *store)
{
  return store->qdb;
}

void
qm_store_db_fail (QmStore     *store,
                  GError     **error,
                  const char  *format,
                  ...)
{
  va_list args;

  va_start (args, format);
  qm_db_failv (store->qdb, error, store->path, format, args);
  va_end (args);
}

QmDbStmt *
qm_store_query (QmStore     *store,
                const char  *sql,
                GError     **error)
{
  QmDbStmt *stmt = qm_db_prepare (store->qdb, sql, NULL);

  if (stmt == NULL)
    qm_store_db_fail (store, error, _("Could not prepare a query"));
  return stmt;
}

char *
qm_store_meta_get (QmStore    *store,
                   const char *key)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, "SELECT value FROM meta WHERE key = ?1", NULL);

  if (stmt == NULL)
    return NULL;
  qm_db_bind_text (stmt, 1, key);
  return qm_db_step (stmt) == QM_DB_STEP_ROW ? qm_db_column_dup (stmt, 0) : NULL;
}

gboolean
qm_store_query_done (QmStore     *store,
                     QmDbStmt    *stmt,
                     GError     **error,
                     const char  *format,
                     ...)
{
  va_list args;

  if (qm_db_step (stmt) == QM_DB_STEP_DONE)
    return TRUE;
  va_start (args, format);
  qm_db_failv (store->qdb, error, store->path, format, args);
  va_end (args);
  return FALSE;
}

/* Turns on write-ahead logging. The switch needs the file to itself, and
 * SQLite asks for that lock without calling the busy handler, so a process
 * that opens the file while another one does gets SQLITE_BUSY at once:
 * wait here as long as opening waits for a busy file. */
static gboolean
enable_wal (sqlite3     *db,
            const char  *what,
            GError     **error)
{
  gint64 deadline = g_get_monotonic_time () + QM_STORE_OPEN_BUSY_TIMEOUT_MS * G_TIME_SPAN_MILLISECOND;
  int rc;

  while ((rc = sqlite3_exec (db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL)) != SQLITE_OK &&
         (rc & 0xff) == SQLITE_BUSY && g_get_monotonic_time () < deadline)
    g_usleep (5 * G_TIME_SPAN_MILLISECOND);
  if (rc != SQLITE_OK)
    {
      qm_store_set_error (error, db, rc, what);
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_store_create_at_version (const char  *path,
                            int          version,
                            GError     **error)
{
  g_autoptr(QmDb) db = NULL;
  int current;

  g_return_val_if_fail (version >= 0 && version <= qm_store_latest_version (), FALSE);

  if ((db = qm_db_open (path, QM_DB_OPEN_NONE, error)) == NULL)
    return FALSE;
  /* A server too (a postgresql:// URI): its migrations from an older
   * version are tested as a file's are. */
  if (qm_db_engine (db) == QM_DB_POSTGRESQL)
    return (current = qm_db_schema_version (db, error)) >= 0 &&
           qm_store_migrate (db, current, version, error);
  sqlite3_busy_timeout (qm_db_sqlite (db), QM_STORE_OPEN_BUSY_TIMEOUT_MS);
  if ((current = qm_db_schema_version (db, error)) < 0)
    return FALSE;
  return enable_wal (qm_db_sqlite (db), path, error) &&
         qm_store_migrate (db, current, version, error);
}

/* ------------------------------------------------------------------ */
/* Integrity and recovery.                                             */

static gboolean
check_integrity (sqlite3     *db,
                 const char  *path,
                 GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;
  g_autofree char *problem = NULL;

  rc = sqlite3_prepare_v2 (db, "PRAGMA quick_check(1)", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        {
          const char *result = (const char *) sqlite3_column_text (stmt, 0);

          if (g_strcmp0 (result, "ok") != 0)
            /* Translators: SQLite's integrity check gave no answer. */
            problem = g_strdup (result != NULL ? result : _("no result"));
          rc = SQLITE_OK;
        }
    }
  sqlite3_finalize (stmt);

  if (rc != SQLITE_OK)
    {
      g_autofree char *what = g_strdup_printf (_("The integrity check of %s failed"), path);
      qm_store_set_error (error, db, rc, what);
      return FALSE;
    }
  if (problem != NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CORRUPT,
                   /* Translators: %s is the database file, then SQLite's account of the
                    * damage (in English). */
                   _("The database %s is damaged: %s"), path, problem);
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_store_check_integrity (QmStore  *store,
                          GError  **error)
{
  /* A server checks its own pages. */
  if (store->db == NULL)
    return TRUE;
  return check_integrity (store->db, store->path, error);
}

/* NAME.corrupt-YYYYMMDD-HHMMSS, with -2, -3 ... if that exists already. */
static char *
move_aside (const char  *path,
            GError     **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *target = g_strdup_printf ("%s.corrupt-%s", path, stamp);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autofree char *target_wal = NULL;

  for (guint n = 2; g_file_test (target, G_FILE_TEST_EXISTS); n++)
    {
      g_free (target);
      target = g_strdup_printf ("%s.corrupt-%s-%u", path, stamp, n);
    }
  if (g_rename (path, target) != 0)
    {
      int saved = errno;
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CORRUPT,
                   /* Translators: the damaged database file, the name it was to get,
                    * and why the rename failed. */
                   _("The database %s is damaged and could not be moved aside to %s: %s"),
                   path, target, g_strerror (saved));
      return NULL;
    }
  /* The write-ahead log belongs to the damaged file: keep the pair
   * together so the salvage sees the last commits too. */
  target_wal = g_strconcat (target, "-wal", NULL);
  if (g_file_test (wal, G_FILE_TEST_EXISTS))
    g_rename (wal, target_wal);
  g_remove (shm);
  return g_steal_pointer (&target);
}

const char *
qm_store_read_only_why (QmStore *store)
{
  return store->read_only_why;
}

const char *
qm_store_recovered_from (QmStore *store)
{
  return store->recovered_from;
}

char *
qm_store_recovery_message (QmStore *store)
{
  if (store->recovered_from == NULL)
    return NULL;
  /* Translators: the database file, then the name it was moved to. */
  return g_strdup_printf (_("The database %s was damaged. It was moved to %s and a new, "
                            "empty database was started. Plans that can still be read "
                            "can be imported from the old file."),
                          store->path, store->recovered_from);
}

/* ------------------------------------------------------------------ */
/* Backups.                                                            */

char *
qm_store_backup_dir (QmStore *store)
{
  g_autofree char *dir = g_path_get_dirname (store->path);

  return g_build_filename (dir, "backups", NULL);
}

static char *
backup_prefix (QmStore *store)
{
  g_autofree char *base = g_path_get_basename (store->path);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_strconcat (base, "-", NULL);
}

static gboolean
is_backup_name (const char *name,
                const char *prefix)
{
  const char *date;

  if (!g_str_has_prefix (name, prefix) || !g_str_has_suffix (name, ".db"))
    return FALSE;
  date = name + strlen (prefix);
  if (strlen (date) != strlen ("YYYY-MM-DD.db"))
    return FALSE;
  for (guint i = 0; i < 10; i++)
    if (i == 4 || i == 7 ? date[i] != '-' : !g_ascii_isdigit (date[i]))
      return FALSE;
  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
prune_backups (const char *dir,
               const char *prefix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    if (is_backup_name (name, prefix))
      g_ptr_array_add (names, g_strdup (name));

  /* ISO dates sort by name. */
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i + QM_STORE_BACKUPS_KEPT < names->len; i++)
    {
      g_autofree char *old = g_build_filename (dir, names->pdata[i], NULL);
      g_remove (old);
    }
}

char *
qm_store_backup (QmStore     *store,
                 const char  *date,
                 GError     **error)
{
  g_autofree char *dir = qm_store_backup_dir (store);
  g_autofree char *prefix = backup_prefix (store);
  g_autofree char *today = NULL;
  g_autofree char *name = NULL;
  g_autofree char *target = NULL;
  g_autofree char *partial = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (store->db == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
                   /* Translators: %s is the team database's server address. */
                   _("%s is a server: its backups are the server's own"), store->path);
      return NULL;
    }
  if (date == NULL)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      today = g_date_time_format (now, "%Y-%m-%d");
      date = today;
    }
  name = g_strconcat (prefix, date, ".db", NULL);
  target = g_build_filename (dir, name, NULL);
  if (g_file_test (target, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&target);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                   _("Could not create the backup folder %s: %s"), dir, g_strerror (saved));
      return NULL;
    }

  /* VACUUM INTO a temporary name and rename, so a crash or a full disk
   * never leaves a half-written file under a backup's name. */
  partial = g_strconcat (target, ".partial", NULL);
  g_remove (partial);
  stmt = qm_store_prepare (store, "VACUUM INTO ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, partial, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, _("Could not write the backup %s"), target);
      g_remove (partial);
      return NULL;
    }
  if (g_rename (partial, target) != 0)
    {
      int saved = errno;
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
                   _("Could not name the backup %s: %s"), target, g_strerror (saved));
      g_remove (partial);
      return NULL;
    }

  prune_backups (dir, prefix);
  return g_steal_pointer (&target);
}

const char *
qm_store_backup_problem (QmStore *store)
{
  return store->backup_problem;
}

/* ------------------------------------------------------------------ */
/* Opening.                                                            */

/* Opens the file; @immutable: read-only, and promising SQLite that nothing
 * changes it meanwhile, so that it reads a write-ahead-logged file without
 * creating the -shm and -wal beside it (sqlite.org/uri.html, "immutable"):
 * the one way to read a database in a folder that cannot be written. */
static gboolean
open_db_as (QmStore          *store,
            QmStoreOpenFlags  flags,
            gboolean          immutable,
            GError          **error)
{
  int open_flags = SQLITE_OPEN_FULLMUTEX;
  g_autofree char *uri = NULL;
  int rc;

  if (immutable)
    {
      g_autofree char *abs = g_canonicalize_filename (store->path, NULL);
      g_autofree char *file_uri = g_filename_to_uri (abs, NULL, NULL);

      if (file_uri == NULL)
        return FALSE;
      uri = g_strconcat (file_uri, "?immutable=1", NULL);
      open_flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    }
  else if (flags & QM_STORE_OPEN_READ_ONLY)
    open_flags |= SQLITE_OPEN_READONLY;
  else if (flags & QM_STORE_OPEN_EXISTING)
    open_flags |= SQLITE_OPEN_READWRITE;
  else
    open_flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

  rc = sqlite3_open_v2 (uri != NULL ? uri : store->path, &store->db, open_flags, NULL);
  /* Even a failed open returns a handle, which qdb now closes. */
  store->qdb = qm_db_new_sqlite (store->db, store->path);
  if (rc != SQLITE_OK)
    {
      g_autofree char *what = g_strdup_printf (_("Could not open the database %s"), store->path);
      qm_store_set_error (error, store->db, rc, what);
      return FALSE;
    }

  /* Wait a little for a writer in another process before calling it locked. */
  sqlite3_busy_timeout (store->db, QM_STORE_BUSY_TIMEOUT_MS);
  /* Enough cache for the plan list and the catalog to stay in memory. */
  sqlite3_exec (store->db, "PRAGMA cache_size = -16000", NULL, NULL, NULL);

  /* SQLite quietly opens a write-protected file read-only. */
  store->read_only = immutable || (flags & QM_STORE_OPEN_READ_ONLY) != 0 ||
                     sqlite3_db_readonly (store->db, "main") == 1;
  if (store->read_only)
    sqlite3_exec (store->db, "PRAGMA query_only = ON", NULL, NULL, NULL);
  return TRUE;
}

static gboolean
open_db (QmStore          *store,
         QmStoreOpenFlags  flags,
         GError          **error)
{
  return open_db_as (store, flags, FALSE, error);
}

static void
close_db (QmStore *store)
{
  g_clear_pointer (&store->qdb, qm_db_free);
  store->db = NULL;
}

/* Committed tables, none of them ours: schema 0 is otherwise a new file
 * (another Quartermaster's first migration commits with its version). */
static gboolean
has_foreign_tables (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  gboolean any = FALSE;

  if (sqlite3_prepare_v2 (db, "SELECT 1 FROM sqlite_master WHERE NOT EXISTS"
                          " (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'plan'))"
                          " LIMIT 1", -1, &stmt, NULL) == SQLITE_OK)
    any = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return any;
}

/* Reads the version and checks the file. FALSE with the error; *damaged
 * says whether the failure means a damaged file (as opposed to, say, a
 * locked one). */
static gboolean
inspect (QmStore   *store,
         gboolean  *damaged,
         GError   **error)
{
  g_autoptr(GError) local_error = NULL;

  *damaged = FALSE;
  store->version = qm_db_schema_version (store->qdb, NULL);
  if (store->version < 0)
    {
      qm_db_fail (store->qdb, error, _("Could not read the database %s"), store->path);
      *damaged = qm_db_last_code (store->qdb) == QM_STORE_ERROR_CORRUPT;
      return FALSE;
    }
  /* Before anything else: a newer schema is refused untouched. */
  if (store->version > qm_store_latest_version ())
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW,
                   /* Translators: the database file or server, the schema version it
                    * has and the newest this program knows. */
                   _("The database %s was written by a newer Quartermaster "
                     "(schema %d; this version knows up to %d). It was left untouched."),
                   store->path, store->version, qm_store_latest_version ());
      return FALSE;
    }
  /* Schema 0 with tables: another program's SQLite database, which the
   * first migration would write into. */
  if (store->version == 0 && has_foreign_tables (store->db))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_A_DATABASE,
                   /* Translators: %s is the file given as the database. */
                   _("%s is another program's SQLite database, not a Quartermaster one; it "
                     "was left untouched"), store->path);
      return FALSE;
    }
  if (!check_integrity (store->db, store->path, &local_error))
    {
      *damaged = g_error_matches (local_error, QM_STORE_ERROR, QM_STORE_ERROR_CORRUPT);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

static void
purge_stale_trash (QmStore *store)
{
  g_autoptr(QmDbStmt) stmt = NULL;

  if (store->read_only || store->version < 3)
    return;
  if ((stmt = qm_db_prepare (store->qdb,
                             "DELETE FROM plan WHERE trashed_session IS NOT NULL"
                             " AND trashed_session <> ?1 AND trashed_at < ?2", NULL)) == NULL)
    return;
  qm_db_bind_text (stmt, 1, store->session_id);
  qm_db_bind_int64 (stmt, 2, g_get_real_time () - STALE_TRASH_USEC);
  /* Best effort: a busy database keeps its trash until next time. */
  qm_db_step (stmt);
}

/* Whether a file could be created in @path's folder (access(2) says
 * EROFS for a read-only mount even to root; a full disk is found by
 * trying). */
static gboolean
folder_writable (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *probe = NULL;
  int fd;

  if (g_access (dir, W_OK) != 0)
    return FALSE;
  probe = g_build_filename (dir, ".qm-write-probe-XXXXXX", NULL);
  fd = g_mkstemp (probe);
  if (fd < 0)
    return FALSE;
  /* A full disk takes the name but not a page. */
  if (write (fd, "qm", 2) != 2 || fsync (fd) != 0)
    {
      close (fd);
      g_remove (probe);
      return FALSE;
    }
  close (fd);
  g_remove (probe);
  return TRUE;
}

/* The SQLite file format's first 16 bytes (sqlite.org/fileformat.html
 * §1.3: "SQLite format 3\000"). */
#define SQLITE_HEADER "SQLite format 3"

/* Whether @path may be opened as this program's database: it does not
 * exist yet (unless @flags say it must), or it is an empty file, or a
 * SQLite file. Anything else (a plan file, a spreadsheet, a folder) is
 * named and left untouched: moving it aside as "damaged" and starting a
 * new database in its place destroyed it (issue #33 item 2). */
static gboolean
is_database_file (const char        *path,
                  QmStoreOpenFlags   flags,
                  GError           **error)
{
  char head[16] = { 0, };
  GStatBuf st;
  FILE *f;
  size_t n;

  /* SQLite's own names for a database in memory or a temporary one. */
  if (path[0] == '\0' || g_strcmp0 (path, ":memory:") == 0)
    return TRUE;
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      if (saved == ENOENT && !(flags & (QM_STORE_OPEN_EXISTING | QM_STORE_OPEN_READ_ONLY)))
        return TRUE;
      g_set_error (error, QM_STORE_ERROR, saved == ENOENT ? QM_STORE_ERROR_NOT_FOUND : QM_STORE_ERROR_OPEN,
                   /* Translators: the database file, then why it cannot be opened. */
                   _("Could not open the database %s: %s"), path,
                   saved == ENOENT ? _("there is no database there") : g_strerror (saved));
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_A_DATABASE,
                   /* Translators: %s is a folder given where a database file was expected. */
                   _("%s is a folder, not a Quartermaster database"), path);
      return FALSE;
    }
  if (st.st_size == 0)
    return TRUE;
  f = g_fopen (path, "rb");
  if (f == NULL)
    return TRUE;  /* SQLite says why it cannot be read. */
  n = fread (head, 1, sizeof head, f);
  fclose (f);
  if (n < sizeof head || memcmp (head, SQLITE_HEADER, sizeof SQLITE_HEADER) != 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_A_DATABASE,
                   /* Translators: %s is the file given as the database. */
                   _("%s is not a Quartermaster database (it is not an SQLite file); it was "
                     "left untouched"), path);
      return FALSE;
    }
  return TRUE;
}

/* A PostgreSQL server: no file to guard (WAL, backups, integrity and
 * recovery are the server's). */
static QmStore *
open_server (QmStore           *store_in,
             const char        *uri,
             QmStoreOpenFlags   flags,
             GCancellable      *cancellable,
             GError           **error)
{
  g_autoptr(QmStore) store = store_in;
  g_autoptr(GError) local_error = NULL;
  int latest = qm_store_latest_version ();

  store->read_only = (flags & QM_STORE_OPEN_READ_ONLY) != 0;
  store->qdb = qm_db_open (uri, store->read_only ? QM_DB_OPEN_READ_ONLY : QM_DB_OPEN_NONE, error);
  if (store->qdb == NULL)
    return NULL;
  /* Whoever asked went while libpq waited (Preferences closed, the
   * window gone): nothing is migrated or synced on their behalf. */
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if ((store->version = qm_db_schema_version (store->qdb, NULL)) < 0)
    {
      /* A login role given none of the team roles yet. */
      if (qm_db_last_code (store->qdb) == QM_STORE_ERROR_READ_ONLY)
        qm_store_fail_no_read (store->qdb, error);
      else
        qm_store_db_fail (store, error, _("Could not read the schema version"));
      return NULL;
    }
  /* Before anything else: a newer schema is refused untouched. */
  if (store->version > latest)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW,
                   /* Translators: the database file or server, the schema version it
                    * has and the newest this program knows. */
                   _("The database %s was written by a newer Quartermaster "
                     "(schema %d; this version knows up to %d). It was left untouched."),
                   store->path, store->version, latest);
      return NULL;
    }
  if (store->version < latest)
    {
      if (store->read_only)
        {
          g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY,
                       /* Translators: the server's address, then the schema versions
                        * from and to. */
                       _("The database %s needs an upgrade from schema %d to %d, and this "
                         "connection is read-only."), store->path, store->version, latest);
          return NULL;
        }
      if (!qm_store_check_may_upgrade (store->qdb, store->version, latest, error) ||
          g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !qm_store_migrate (store->qdb, store->version, latest, error))
        return NULL;
      store->version = latest;
    }
  /* A viewer opens it too: a role that may write nothing makes the store
   * read-only, with its reason (qm_store_rights_reason). */
  if (!qm_store_read_role_info (store->qdb, &store->role, error))
    return NULL;
  if (!(store->role.rights & QM_STORE_RIGHTS_EDIT))
    store->read_only = TRUE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  /* A role that may not write the catalog reads the built-ins as the
   * last sync left them; the next catalog manager to connect syncs. */
  if ((store->role.rights & QM_STORE_RIGHT_EDIT_CATALOG) && !(flags & QM_STORE_OPEN_NO_SYNC) &&
      !qm_catalog_store_sync_builtins (store, FALSE, NULL, &local_error) &&
      !g_error_matches (local_error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (store->role.rights & QM_STORE_RIGHT_EDIT_PLANS)
    purge_stale_trash (store);
  return g_steal_pointer (&store);
}

QmStore *
qm_store_open (const char  *path,
               GError     **error)
{
  return qm_store_open_with_flags (path, QM_STORE_OPEN_NONE, error);
}

QmStore *
qm_store_open_with_flags (const char        *path,
                          QmStoreOpenFlags   flags,
                          GError           **error)
{
  return qm_store_open_cancellable (path, flags, NULL, error);
}

QmStore *
qm_store_open_cancellable (const char        *path,
                           QmStoreOpenFlags   flags,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_autoptr(QmStore) store = g_new0 (QmStore, 1);

  store->ref_count = 1;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  gboolean damaged = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  store->session_id = g_uuid_string_random ();
  if (qm_db_location_is_uri (path))
    {
      g_autofree char *uri = qm_db_location_normalize (path);

      store->path = qm_db_location_redact (uri);
      return open_server (g_steal_pointer (&store), uri, flags, cancellable, error);
    }
  /* "mysql://…" or "file://…" is an address, never a file name to create. */
  if (qm_db_location_looks_like_uri (path))
    {
      g_autofree char *shown = qm_db_location_redact (path);

      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_A_DATABASE,
                   /* Translators: %s is the address given; keep "postgresql://". */
                   _("%s is not an address Quartermaster can open: a team database is "
                     "postgresql://HOST/DATABASE, anything else a file name"), shown);
      return NULL;
    }
  store->path = g_strdup (path);
  if (!is_database_file (path, flags, error))
    return NULL;

  dir = g_path_get_dirname (path);
  if (!(flags & (QM_STORE_OPEN_READ_ONLY | QM_STORE_OPEN_EXISTING)) && g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                   _("Could not create the folder %s: %s"), dir, g_strerror (saved));
      return NULL;
    }

  if (!open_db (store, flags, error))
    return NULL;

  if (!inspect (store, &damaged, &local_error))
    {
      g_autofree char *moved = NULL;

      /* A folder that cannot be written (a read-only mount, a full disk)
       * cannot take the -shm that reading a WAL file needs: read it as it
       * is, and say why nothing can be saved (issue #33 item 9). */
      if (!damaged && !folder_writable (path) &&
          !g_error_matches (local_error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW) &&
          !g_error_matches (local_error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_A_DATABASE))
        {
          g_autoptr(GError) immutable_error = NULL;

          close_db (store);
          if (open_db_as (store, flags, TRUE, &immutable_error) &&
              inspect (store, &damaged, &immutable_error))
            {
              g_autofree char *folder = g_path_get_dirname (path);

              g_clear_error (&local_error);
              store->read_only_why = g_strdup_printf (
                /* Translators: the database file, then its folder. */
                _("The database %s is read-only, so nothing can be saved: its folder %s "
                  "cannot be written (read-only, or its disk is full). Plans can be "
                  "read and exported."), path, folder);
              goto opened;
            }
          close_db (store);
        }
      if (!damaged || (flags & (QM_STORE_OPEN_NO_RECOVER | QM_STORE_OPEN_READ_ONLY)))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }

      /* Never write into a damaged file: move it aside whole and start
       * afresh; qm_store_salvage() reads what it can from the old one. */
      close_db (store);
      moved = move_aside (path, error);
      if (moved == NULL)
        return NULL;
      store->recovered_from = g_steal_pointer (&moved);
      g_clear_error (&local_error);
      if (!open_db (store, flags, error) || !inspect (store, &damaged, error))
        return NULL;
    }

opened:
  sqlite3_busy_timeout (store->db, QM_STORE_OPEN_BUSY_TIMEOUT_MS);
  if (!store->read_only)
    {
      /* WAL keeps the last committed state readable after a crash mid-write. */
      if (!enable_wal (store->db, _("Could not enable write-ahead logging"), error) ||
          !exec_sql (store->db, "PRAGMA synchronous = NORMAL", _("Could not set the sync mode"), error))
        return NULL;
    }
  if (!exec_sql (store->db, "PRAGMA foreign_keys = ON", _("Could not enable foreign keys"), error))
    return NULL;

  if (store->version < qm_store_latest_version ())
    {
      if (store->read_only)
        {
          g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY,
                       /* Translators: the database file, then the schema versions from
                        * and to. */
                       _("The database %s is read-only, and it needs an upgrade from "
                         "schema %d to %d that would write to it. Open it where it can "
                         "be written, or copy it first."),
                       path, store->version, qm_store_latest_version ());
          return NULL;
        }

      /* A copy from before the upgrade, in case a newer schema must be undone. */
      if (store->version > 0 && !(flags & QM_STORE_OPEN_NO_BACKUP))
        {
          g_autofree char *copy = qm_store_backup (store, NULL, &local_error);
          if (copy == NULL)
            store->backup_problem = g_strdup (local_error->message);
          g_clear_error (&local_error);
        }
      if (!qm_store_migrate (store->qdb, store->version, qm_store_latest_version (), error))
        return NULL;
      store->version = qm_store_latest_version ();
    }

  if (!store->read_only && !(flags & QM_STORE_OPEN_NO_BACKUP) && store->backup_problem == NULL)
    {
      g_autofree char *copy = qm_store_backup (store, NULL, &local_error);
      if (copy == NULL)
        store->backup_problem = g_strdup (local_error->message);
      g_clear_error (&local_error);
    }

  if (!store->read_only && !(flags & QM_STORE_OPEN_NO_SYNC))
    {
      if (!qm_catalog_store_sync_builtins (store, FALSE, NULL, error))
        return NULL;
    }

  purge_stale_trash (store);

  sqlite3_busy_timeout (store->db, QM_STORE_BUSY_TIMEOUT_MS);
  return g_steal_pointer (&store);
}

QmStore *
qm_store_ref (QmStore *store)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (g_atomic_int_get (&store->ref_count) > 0, NULL);

  g_atomic_int_inc (&store->ref_count);
  return store;
}

void
qm_store_free (QmStore *store)
{
  qm_store_unref (store);
}

void
qm_store_unref (QmStore *store)
{
  if (store == NULL || !g_atomic_int_dec_and_test (&store->ref_count))
    return;

  if (store->qdb != NULL && !store->read_only && store->version >= 3 &&
      (!store->role.known || (store->role.rights & QM_STORE_RIGHT_EDIT_PLANS)))
    {
      g_autoptr(GError) error = NULL;

      /* The trash lasts until the app quits (issue #7). Nobody is left
       * to tell when this fails (the window is gone): the plans stay in
       * the trash, and the next open purges a session's trash once it is
       * a day old (STALE_TRASH_USEC), so nothing is lost either way. */
      qm_db_rollback (store->qdb);
      if (!qm_plan_store_purge_trash (store, &error))
        g_debug ("%s: the trash stays until the next open purges it: %s", store->path, error->message);
    }
  g_clear_pointer (&store->watch, qm_store_watch_free);
  qm_store_role_info_clear (&store->role);
  close_db (store);
  g_free (store->path);
  g_free (store->session_id);
  g_free (store->recovered_from);
  g_free (store->backup_problem);
  g_free (store->read_only_why);
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

gboolean
qm_store_is_read_only (QmStore *store)
{
  return store->read_only;
}

const char *
qm_store_session_id (QmStore *store)
{
  return store->session_id;
}

void
qm_store_set_busy_timeout (QmStore *store,
                           int      ms)
{
  if (store->db != NULL)
    sqlite3_busy_timeout (store->db, ms);
}

QmStoreRoleInfo *
qm_store_role_info (QmStore *store)
{
  return &store->role;
}

QmStoreWatch **
qm_store_watch_slot (QmStore *store)
{
  return &store->watch;
}
