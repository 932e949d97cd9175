/* qm-store.h: the database behind the catalog and the saved plans: a
 * SQLite file (the default), or a team's PostgreSQL server named by a
 * postgresql:// URI (issue #23; plans so far, the catalog and quotes
 * still need a file).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

G_BEGIN_DECLS

#define QM_STORE_ERROR (qm_store_error_quark ())

typedef enum
{
  QM_STORE_ERROR_OPEN,      /* cannot open or create the file */
  QM_STORE_ERROR_CORRUPT,   /* integrity check failed */
  QM_STORE_ERROR_TOO_NEW,   /* written by a newer Quartermaster */
  QM_STORE_ERROR_LOCKED,    /* another process holds it */
  QM_STORE_ERROR_READ_ONLY, /* the file or disk cannot be written */
  QM_STORE_ERROR_FULL,      /* the disk is full */
  QM_STORE_ERROR_FAILED,
  QM_STORE_ERROR_NOT_FOUND, /* no such plan or catalog entry */
  QM_STORE_ERROR_INVALID,   /* the input was refused; the message says why */
  QM_STORE_ERROR_CONFLICT,  /* someone else saved it since it was read */
  QM_STORE_ERROR_NOT_A_DATABASE, /* the location names something else: a
                                  * plan file, a folder, another program's
                                  * database, an address of another scheme */
} QmStoreError;

typedef enum
{
  QM_STORE_OPEN_NONE       = 0,
  /* Open without writing anything: no migration, no backup, no catalog
   * sync. Saves then fail with QM_STORE_ERROR_READ_ONLY. */
  QM_STORE_OPEN_READ_ONLY  = 1 << 0,
  /* Fail with QM_STORE_ERROR_CORRUPT instead of moving a damaged file aside. */
  QM_STORE_OPEN_NO_RECOVER = 1 << 1,
  /* Skip the daily backup (tests, benchmarks, the salvage source). */
  QM_STORE_OPEN_NO_BACKUP  = 1 << 2,
  /* Skip the re-sync of the built-in catalog. */
  QM_STORE_OPEN_NO_SYNC    = 1 << 3,
  /* Open only a database that exists: no file or folder is created
   * (read-only commands of the CLI, issue #33 item 2). */
  QM_STORE_OPEN_EXISTING   = 1 << 4,
} QmStoreOpenFlags;

typedef struct _QmStore QmStore;

/* How many daily backups are kept in backups/ beside the database. */
#define QM_STORE_BACKUPS_KEPT 7

GQuark      qm_store_error_quark       (void);

/* The default database: $XDG_DATA_HOME/quartermaster/quartermaster.db,
 * or $QM_DB when set (tests and scripts). */
char       *qm_store_default_path      (void);

/* Why this program opened a file read-only (its folder cannot be
 * written), or NULL. */
const char *qm_store_read_only_why     (QmStore          *store);

/* @path is a file, or a postgresql:// URI: a server's database is
 * migrated the same way, and its backups and integrity are the server's.
 *
 * Opens (creating if needed) and migrates the database to the current
 * schema, takes today's backup, and re-syncs the built-in catalog when its
 * version changed. Fails, without touching the file, on one from a newer
 * version. A damaged file (the integrity check fails) is moved aside as
 * NAME.corrupt-YYYYMMDD-HHMMSS and a fresh database is created in its
 * place: see qm_store_recovered_from() and qm_store_salvage(). */
QmStore    *qm_store_open              (const char        *path,
                                        GError           **error);
QmStore    *qm_store_open_with_flags   (const char        *path,
                                        QmStoreOpenFlags   flags,
                                        GError           **error);
/* As qm_store_open_with_flags(), for a worker thread: a server's store
 * fails with G_IO_ERROR_CANCELLED when @cancellable fires while libpq
 * connects, before anything is migrated or synced (the connect itself
 * runs to its end). A file is opened whole. */
QmStore    *qm_store_open_cancellable  (const char        *path,
                                        QmStoreOpenFlags   flags,
                                        GCancellable      *cancellable,
                                        GError           **error);
/* A store is reference-counted (issue #34 item 3): whoever keeps one (a
 * window, a page, a dialog, a worker) holds a reference, so the
 * application swapping its store (a team server connecting) never leaves
 * a dialog with a freed one. The last unref purges this session's trash
 * (deleted plans stay recoverable until the store is closed) and closes
 * the database. qm_store_free() is qm_store_unref(): it drops the
 * caller's reference. */
QmStore    *qm_store_ref               (QmStore           *store);
void        qm_store_unref             (QmStore           *store);
void        qm_store_free              (QmStore           *store);

int         qm_store_schema_version    (QmStore           *store);
/* The file, or the server's URI without its password. */
const char *qm_store_path              (QmStore           *store);
/* The SQLite handle; NULL on a PostgreSQL server. */
sqlite3    *qm_store_db                (QmStore           *store);
/* TRUE when opened with QM_STORE_OPEN_READ_ONLY or the file cannot be
 * written; the plans can still be read. */
gboolean    qm_store_is_read_only      (QmStore           *store);
/* Identifies this open store; the trash is kept per session. */
const char *qm_store_session_id        (QmStore           *store);

/* When the file was damaged at open: where the old file was moved, else
 * NULL. qm_store_recovery_message() says so in a sentence for the user. */
const char *qm_store_recovered_from    (QmStore           *store);
char       *qm_store_recovery_message  (QmStore           *store);

/* Copies whatever can still be read from a damaged database (plans, user
 * catalog entries and price overrides) into @store, as new rows. Returns
 * the number of plans copied, or -1 with @error when nothing could be
 * read at all. */
int         qm_store_salvage           (QmStore           *store,
                                        const char        *damaged_path,
                                        GError           **error);

/* Backups: backups/BASENAME-YYYY-MM-DD.db beside the database. Open takes
 * one per day; this takes one for @date ("YYYY-MM-DD"; NULL = today, local
 * time) if it does not exist yet, then keeps the newest
 * QM_STORE_BACKUPS_KEPT. Returns the backup's path. */
char       *qm_store_backup            (QmStore           *store,
                                        const char        *date,
                                        GError           **error);
char       *qm_store_backup_dir        (QmStore           *store);
/* The problem with today's backup at open, if any (a backup failure does
 * not stop the app). */
const char *qm_store_backup_problem    (QmStore           *store);

/* Runs PRAGMA quick_check. FALSE with QM_STORE_ERROR_CORRUPT and the first
 * problem found. */
gboolean    qm_store_check_integrity   (QmStore           *store,
                                        GError           **error);

/* How long to wait for another program's write lock before failing with
 * QM_STORE_ERROR_LOCKED (default 2000 ms). */
void        qm_store_set_busy_timeout  (QmStore           *store,
                                        int                ms);

/* The newest schema this build knows. */
int         qm_store_latest_version    (void);

/* Maps the last SQLite error of @db to a QmStoreError with a message that
 * starts with @what (what was being done) and explains the cause in words. */
void        qm_store_set_error         (GError           **error,
                                        sqlite3           *db,
                                        int                rc,
                                        const char        *what);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmStore, qm_store_unref)

G_END_DECLS
