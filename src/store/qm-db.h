/* qm-db.h: the two database engines the store runs on, behind one small
 * interface: SQLite (a file, the default) and PostgreSQL (a team server,
 * through libpq).
 *
 * The store writes each query once, with ?N (or ?) placeholders, and binds
 * every value; nothing is ever pasted into SQL text. On PostgreSQL the
 * placeholders become $N. Schema text is written in SQLite's dialect and
 * qm_db_translate_ddl() makes PostgreSQL's from it, so the differences
 * (STRICT, types, json_valid, GLOB, date(), triggers) stay in one place.
 *
 * Failures are remembered on the connection and reported with
 * qm_db_fail(), as a QmStoreError with the cause in words.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdarg.h>
#include <glib.h>
#include <gio/gio.h>
#include <sqlite3.h>

#include "qm-store.h"

G_BEGIN_DECLS

typedef enum
{
  QM_DB_SQLITE,
  QM_DB_POSTGRESQL,
} QmDbEngine;

typedef enum
{
  QM_DB_STEP_ERROR = -1,
  QM_DB_STEP_DONE  = 0,
  QM_DB_STEP_ROW   = 1,
} QmDbStep;

typedef enum
{
  QM_DB_OPEN_NONE      = 0,
  /* SQLite: open the file read-only. PostgreSQL: every transaction of
   * the session is read-only. */
  QM_DB_OPEN_READ_ONLY = 1 << 0,
} QmDbOpenFlags;

typedef struct _QmDb     QmDb;
typedef struct _QmDbStmt QmDbStmt;

/* TRUE for "postgresql://..." and "postgres://...", the scheme in any
 * case and with spaces around (issue #33 item 2); a location that is not
 * a URI (see qm_db_location_looks_like_uri) is a SQLite file path. */
gboolean    qm_db_location_is_uri   (const char     *location);
/* TRUE for anything of the form "scheme://...": never a file path, even
 * where the scheme is not one Quartermaster opens. */
gboolean    qm_db_location_looks_like_uri (const char *location);
/* @location trimmed, its URI scheme lower-cased (libpq matches it
 * case-sensitively). */
char       *qm_db_location_normalize (const char    *location);
/* TRUE when a query parameter ("name=value", name percent-encoded or not)
 * is one of libpq's secrets: password, sslpassword. */
gboolean    qm_db_param_is_secret   (const char     *param);
/* TRUE when @location carries a password: in its user part, or as any
 * secret parameter. */
gboolean    qm_db_location_has_secret (const char   *location);
/* @location with any password removed, fit for messages and logs. */
char       *qm_db_location_redact   (const char     *location);

/* Opens a file path (creating it unless read-only) or connects to a
 * PostgreSQL URI. */
QmDb       *qm_db_open              (const char     *location,
                                     QmDbOpenFlags   flags,
                                     GError        **error);
/* Takes over a SQLite connection the caller opened. */
QmDb       *qm_db_new_sqlite        (sqlite3        *handle,
                                     const char     *path);
void        qm_db_free              (QmDb           *db);

QmDbEngine  qm_db_engine            (QmDb           *db);
/* The path or the redacted URI. */
const char *qm_db_location          (QmDb           *db);
/* The SQLite connection, or NULL on PostgreSQL. */
sqlite3    *qm_db_sqlite            (QmDb           *db);

/* Runs one or more statements without parameters (schema, BEGIN...). */
gboolean    qm_db_exec              (QmDb           *db,
                                     const char     *sql,
                                     GError        **error);

/* A write transaction: SQLite takes the write lock up front (BEGIN
 * IMMEDIATE) so a busy file fails here, before any work. */
gboolean    qm_db_begin             (QmDb           *db,
                                     GError        **error);
gboolean    qm_db_commit            (QmDb           *db,
                                     GError        **error);
/* Rolls back if a transaction is open; never fails. */
void        qm_db_rollback          (QmDb           *db);
gboolean    qm_db_in_transaction    (QmDb           *db);

/* Rows changed by the last INSERT, UPDATE or DELETE. */
gint64      qm_db_changes           (QmDb           *db);
/* The key the last INSERT gave its row: SQLite's rowid, PostgreSQL's
 * lastval() (one more round trip; 0 with the failure kept on error).
 * Cheaper on SQLite than RETURNING, which is compiled as a trigger. */
gint64      qm_db_last_insert_id    (QmDb           *db);

/* The schema version: PRAGMA user_version on SQLite, the table
 * qm_schema on PostgreSQL (0 when there is none yet). -1 on failure. */
int         qm_db_schema_version    (QmDb           *db,
                                     GError        **error);
/* Inside the caller's transaction: waits for any other client changing
 * the schema (SQLite's BEGIN IMMEDIATE has done that already). */
gboolean    qm_db_lock_schema       (QmDb           *db);
/* Inside the caller's transaction. */
gboolean    qm_db_set_schema_version (QmDb          *db,
                                      int            version,
                                      GError       **error);

/* @sql in SQLite's dialect, as this engine runs it. A new string. */
char       *qm_db_translate_ddl     (QmDb           *db,
                                     const char     *sql);

/* Sets @error from the last failure on @db: its QmStoreError code and
 * "WHAT: cause in words (the engine's own text)". */
void        qm_db_fail              (QmDb           *db,
                                     GError        **error,
                                     const char     *format,
                                     ...) G_GNUC_PRINTF (3, 4);
/* The same, "WHAT in PLACE: cause" when @place is not NULL. */
void        qm_db_failv             (QmDb           *db,
                                     GError        **error,
                                     const char     *place,
                                     const char     *format,
                                     va_list         args) G_GNUC_PRINTF (4, 0);
QmStoreError qm_db_last_code        (QmDb           *db);
/* The cause in words, or NULL when nothing failed. */
const char *qm_db_last_message      (QmDb           *db);

/* Statements. Indexes count from 1 for parameters, from 0 for columns,
 * as in SQLite. */
QmDbStmt   *qm_db_prepare           (QmDb           *db,
                                     const char     *sql,
                                     GError        **error);
void        qm_db_stmt_free         (QmDbStmt       *stmt);
/* The highest placeholder number in the statement. */
int         qm_db_param_count       (QmDbStmt       *stmt);
/* A NULL @text binds SQL NULL. */
void        qm_db_bind_text         (QmDbStmt       *stmt,
                                     int             index,
                                     const char     *text);
void        qm_db_bind_int64        (QmDbStmt       *stmt,
                                     int             index,
                                     gint64          value);
void        qm_db_bind_double       (QmDbStmt       *stmt,
                                     int             index,
                                     double          value);
void        qm_db_bind_null         (QmDbStmt       *stmt,
                                     int             index);
/* ROW while there are rows, then DONE; ERROR with the cause kept on the
 * connection (qm_db_fail). */
QmDbStep    qm_db_step              (QmDbStmt       *stmt);
/* Runs the statement again from the start, with the same bindings. */
void        qm_db_reset             (QmDbStmt       *stmt);

int         qm_db_column_count      (QmDbStmt       *stmt);
gboolean    qm_db_column_is_null    (QmDbStmt       *stmt,
                                     int             column);
/* Valid until the next step, reset or free; NULL for SQL NULL. */
const char *qm_db_column_text       (QmDbStmt       *stmt,
                                     int             column);
char       *qm_db_column_dup        (QmDbStmt       *stmt,
                                     int             column);
gint64      qm_db_column_int64      (QmDbStmt       *stmt,
                                     int             column);
double      qm_db_column_double     (QmDbStmt       *stmt,
                                     int             column);

/* Notifications (PostgreSQL's LISTEN/NOTIFY; qm-store-watch.c). */

/* The connection's socket, readable when the server sent something; -1
 * on SQLite. */
int         qm_db_socket            (QmDb           *db);
/* The server process serving this connection; 0 on SQLite. */
int         qm_db_backend_pid       (QmDb           *db);
/* A second connection to the same server, database and user as @db
 * (PostgreSQL only), giving up after @timeout_ms. */
QmDb       *qm_db_open_another      (QmDb           *db,
                                     int             timeout_ms,
                                     GError        **error);
/* Reads what the server sent, without waiting, and returns the payloads
 * of the notifications on @channel that no session with the process id
 * @skip_pid sent, oldest first; NULL with the failure kept (qm_db_fail)
 * when the connection is lost. PostgreSQL only. */
GPtrArray  *qm_db_take_notifications (QmDb          *db,
                                      const char    *channel,
                                      int            skip_pid);

/* A server connection can drop (the server stops, the network goes);
 * a file cannot. TRUE while the connection is up as far as the client
 * knows: no round trip, cheap to poll. */
gboolean    qm_db_is_connected      (QmDb           *db);
/* Connects again with the same settings, giving up after @timeout_ms
 * (whatever the network does). TRUE at once when connected or on SQLite.
 * A new session: open transactions and LISTENs of the old one are gone. */
gboolean    qm_db_reconnect         (QmDb           *db,
                                     int             timeout_ms,
                                     GError        **error);
/* Drops the server connection on purpose (a server this build must not
 * write to); qm_db_reconnect() may take it up again. */
void        qm_db_disconnect        (QmDb           *db);

/* Connecting without holding up the main thread (PostgreSQL only).
 * Everything that may wait on the server happens on a new connection
 * that only the attempt touches, so it may run in a worker thread while
 * the main thread goes on using @db:
 *   qm_db_attempt_new()       (@db's thread) copies @db's settings;
 *   qm_db_attempt_run()       (any thread) connects, within the timeout;
 *   qm_db_attempt_adopt()     (@db's thread) makes it @db's connection
 *                             (a reconnect), or
 *   qm_db_attempt_open()      (@db's thread) a QmDb of its own (a second
 *                             connection, as qm_db_open_another()).
 * qm_db_reconnect() and qm_db_open_another() are the three steps in a row. */
typedef struct _QmDbAttempt QmDbAttempt;

QmDbAttempt *qm_db_attempt_new      (QmDb                *db,
                                     int                  timeout_ms);
void        qm_db_attempt_free      (QmDbAttempt         *attempt);
/* TRUE when connected; FALSE when the server refused, did not answer in
 * time or @cancellable fired (the attempt keeps why, for the next step). */
gboolean    qm_db_attempt_run       (QmDbAttempt         *attempt,
                                     GCancellable        *cancellable);
/* qm_db_attempt_run() in a worker thread; takes @attempt, and the finish
 * gives it back (connected or not), or NULL with G_IO_ERROR_CANCELLED
 * once @cancellable fired. */
void        qm_db_attempt_run_async (QmDbAttempt         *attempt,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
QmDbAttempt *qm_db_attempt_run_finish (GAsyncResult      *result,
                                       GError           **error);
/* As qm_db_reconnect() ends: TRUE when @db is connected now (by
 * @attempt, or already), else FALSE with the failure kept on @db. */
gboolean    qm_db_attempt_adopt     (QmDb                *db,
                                     QmDbAttempt         *attempt,
                                     GError             **error);
/* As qm_db_open_another() ends: @attempt's connection as a QmDb, or
 * NULL with @error saying why it could not be made. */
QmDb       *qm_db_attempt_open      (QmDb                *db,
                                     QmDbAttempt         *attempt,
                                     GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmDb, qm_db_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmDbAttempt, qm_db_attempt_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmDbStmt, qm_db_stmt_free)

G_END_DECLS
