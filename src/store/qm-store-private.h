/* qm-store-private.h: helpers shared by the files of src/store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-db.h"
#include "qm-store.h"
#include "qm-store-roles.h"
#include "qm-store-watch.h"

G_BEGIN_DECLS

/* Sets @error from @rc with a message "WHAT in PATH: cause". */
void     qm_store_fail            (QmStore     *store,
                                   GError     **error,
                                   int          rc,
                                   const char  *format,
                                   ...) G_GNUC_PRINTF (4, 5);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. Writers take the write lock up
 * front so a busy database fails at BEGIN, before any work is done. */
gboolean qm_store_begin           (QmStore     *store,
                                   const char  *what,
                                   GError     **error);
gboolean qm_store_commit          (QmStore     *store,
                                   const char  *what,
                                   GError     **error);
void     qm_store_rollback        (QmStore     *store);

/* Prepares @sql, reporting failures like qm_store_fail. SQLite only: on
 * a server it fails, saying so. */
sqlite3_stmt *qm_store_prepare    (QmStore     *store,
                                   const char  *sql,
                                   GError     **error);

/* Now, in microseconds since the epoch, for a row's modified time: never
 * the same twice nor earlier than before from one store (a save right
 * after another still sorts after it). */
gint64    qm_store_now            (QmStore     *store);

/* The engine layer under the store, on either engine. */
QmDb     *qm_store_connection     (QmStore     *store);
/* Sets @error from the connection's last failure: "WHAT in PATH: cause". */
void      qm_store_db_fail        (QmStore     *store,
                                   GError     **error,
                                   const char  *format,
                                   ...) G_GNUC_PRINTF (3, 4);
/* qm_store_prepare and qm_store_step_done for either engine. */
QmDbStmt *qm_store_query          (QmStore     *store,
                                   const char  *sql,
                                   GError     **error);
gboolean  qm_store_query_done     (QmStore     *store,
                                   QmDbStmt    *stmt,
                                   GError     **error,
                                   const char  *format,
                                   ...) G_GNUC_PRINTF (4, 5);
/* The value the meta table keeps under @key, or NULL when there is none
 * (or it cannot be read). */
char     *qm_store_meta_get       (QmStore     *store,
                                   const char  *key);

/* qm-store-schema.c: runs migration steps @from to @to, each in its own
 * transaction, on either engine. */
gboolean  qm_store_migrate        (QmDb        *db,
                                   int          from,
                                   int          to,
                                   GError     **error);

/* Checks that the store may be written; else a READ_ONLY error naming
 * @what. */
gboolean qm_store_check_writable  (QmStore     *store,
                                   const char  *what,
                                   GError     **error);

/* An object as JSON text: compact, or @pretty for files people read. */
char    *qm_store_object_to_text  (JsonObject   *o,
                                   gboolean      pretty);

/* Adds @text to a content hash (qm_saved_plan_hash, the quote copy's):
 * its length first, so no two rows hash alike by moving text from one
 * field into the next; NULL differs from "". */
void     qm_store_hash_text       (GChecksum    *sum,
                                   const char   *text);

/* For the migration tests: creates (or extends) a database at @path (a
 * file, or a server's URI) by running only the first @version migration
 * steps. */
gboolean qm_store_create_at_version (const char *path,
                                     int         version,
                                     GError    **error);

/* qm-catalog-store.c: re-syncs the built-in rows when qm_catalog_version()
 * differs from the one recorded in meta. */
gboolean qm_catalog_store_sync_builtins (QmStore   *store,
                                         gboolean   force,
                                         gboolean  *synced,
                                         GError   **error);

/* qm-store-roles.c: what the connected role may do, read once at open on
 * a server and kept in the store (qm_store_role_info). */
typedef struct
{
  gboolean  known;   /* read from a server */
  guint     rights;  /* QmStoreRights */
  char     *user;    /* current_user */
  char     *groups;  /* its quartermaster_* roles, "a, b"; NULL for none */
} QmStoreRoleInfo;

gboolean  qm_store_read_role_info  (QmDb            *db,
                                    QmStoreRoleInfo *info,
                                    GError         **error);
void      qm_store_role_info_clear (QmStoreRoleInfo *info);
/* Sets @error (QM_STORE_ERROR_OPEN) for a role that may not read the
 * store's tables: who is connected and which role to ask for. */
void      qm_store_fail_no_read    (QmDb            *db,
                                    GError         **error);
/* On a server: FALSE with QM_STORE_ERROR_READ_ONLY, naming the owner,
 * when the connected role may not upgrade the schema @from -> @to. */
gboolean  qm_store_check_may_upgrade (QmDb          *db,
                                      int            from,
                                      int            to,
                                      GError       **error);
/* qm-store.c: the store's own copy. */
QmStoreRoleInfo *qm_store_role_info (QmStore        *store);
/* FALSE with QM_STORE_ERROR_READ_ONLY and the reason in words ("WHAT:
 * Your role ... may read plans but not save them") when the store lacks
 * @rights (QmStoreRights). */
gboolean  qm_store_check_right     (QmStore         *store,
                                    guint            rights,
                                    const char      *what,
                                    GError         **error);

/* qm-store-watch.c: tells other clients of the server what changed
 * (QmStoreChange), delivered when the caller's transaction commits. Call
 * it inside the save's transaction; does nothing on a file. */
gboolean  qm_store_notify          (QmStore         *store,
                                    guint            changes,
                                    GError         **error);
/* The async connects (qm_store_reconnect_async, qm_store_watch_start_async):
 * a new connection with @store's settings is made in a worker thread,
 * within QM_STORE_RECONNECT_TIMEOUT_MS, and handed, on this thread, to
 * @take, whose answer (a number >= 0, or -1 with its error) @task (taken)
 * returns as an int; unless the task's cancellable fired: then the store
 * is not touched again, and the task says G_IO_ERROR_CANCELLED. */
typedef int (*QmStoreTakeFunc) (QmStore      *store,
                                QmDbAttempt  *attempt,
                                GError      **error);
void      qm_store_connect_async  (QmStore         *store,
                                   GTask           *task,
                                   QmStoreTakeFunc  take);

/* The watch connection the store keeps for qm_store_watch_fd(). */
typedef struct _QmStoreWatch QmStoreWatch;
void      qm_store_watch_free      (QmStoreWatch    *watch);
QmStoreWatch **qm_store_watch_slot (QmStore         *store);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

G_END_DECLS
