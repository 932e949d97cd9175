/* qm-db-pg.c: qm-db.h on PostgreSQL, through libpq. Every value travels
 * as a parameter of PQexecParams (text format); results are read as text
 * and converted here, so the store sees what SQLite would give it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include <glib/gi18n-lib.h>

#include "qm-db-private.h"

/* Type oids from PostgreSQL's pg_type.dat; text goes untyped ("unknown")
 * so the server takes the type of the column it meets. */
#define INT8OID   20
#define TEXTOID   25
#define FLOAT8OID 701

typedef struct
{
  QmDb      parent;
  PGconn   *conn;      /* NULL once disconnected on purpose */
  gboolean  lost;      /* a failure said the server went away */
  gint64    changes;
  /* The settings the first connection ended up with (password included,
   * in memory only), to connect again after the server or network went
   * away. */
  char    **keywords;
  char    **values;
  gboolean  read_only;
} QmDbPg;

typedef struct
{
  QmDbStmt  parent;
  char     *sql;
  int       n_params;
  char    **values;
  Oid      *types;
  gboolean *unused;  /* numbers the SQL skips: the server cannot type them */
  PGresult *result;
  int       row;
  int       n_rows;
} QmDbPgStmt;

#define CONN(db) (((QmDbPg *) (db))->conn)
#define PG_STMT(s) ((QmDbPgStmt *) (s))

/* ------------------------------------------------------------------ */
/* Failures.                                                           */

/* libpq's text up to the first line break, for the brackets. */
static char *
first_line (const char *text)
{
  g_autofree char *copy = g_strdup (text != NULL ? text : "");
  char *nl = strchr (copy, '\n');

  if (nl != NULL)
    *nl = '\0';
  return g_strdup (g_strstrip (copy));
}

static const char *
explain_connect (PGconn     *conn,
                 const char *message)
{
  if (conn != NULL && PQconnectionNeedsPassword (conn))
    return _("the server asks for a password and none was given");
  if (strstr (message, "authentication failed") != NULL)
    return _("the server refused the user name or password");
  if (strstr (message, "Connection refused") != NULL ||
      strstr (message, "No such file or directory") != NULL)
    return _("no database server is listening there; is it running?");
  if (strstr (message, "does not exist") != NULL)
    return _("the server has no such database or user");
  if (strstr (message, "could not translate host name") != NULL)
    return _("the server's name cannot be found; check the address");
  if (strstr (message, "timeout expired") != NULL)
    return _("the server did not answer in time");
  /* A login given none of the team roles, once `db setup-roles` has taken
   * CONNECT from PUBLIC. */
  if (strstr (message, "permission denied for database") != NULL)
    return _("your user may not connect to this database; ask whoever runs it to grant you "
             "quartermaster_viewer");
  if (strstr (message, "no pg_hba.conf entry") != NULL)
    return _("the server does not accept connections from here for this user");
  return _("could not connect to the database server");
}

typedef struct
{
  const char   *state;  /* a SQLSTATE, or its two-letter class */
  QmStoreError  code;
  const char   *why;
} QmPgFailure;

/* SQLSTATEs from PostgreSQL's errcodes.txt, most specific first. */
static const QmPgFailure failures[] = {
  { "40001", QM_STORE_ERROR_LOCKED,
    N_("someone else changed the same data at the same moment; nothing was saved, try again") },
  { "40P01", QM_STORE_ERROR_LOCKED,
    N_("someone else changed the same data at the same moment; nothing was saved, try again") },
  { "55P03", QM_STORE_ERROR_LOCKED,
    N_("someone else is changing the same data; nothing was saved, try again") },
  /* query_canceled: the server's statement_timeout, or a cancel; a lock
   * wait that runs out is 55P03 above, so no other user is to blame
   * (issue #33). */
  { "57014", QM_STORE_ERROR_FAILED,
    N_("the server stopped the statement: it ran longer than the server allows "
       "(statement_timeout); nothing was saved") },
  { "23505", QM_STORE_ERROR_FAILED,
    N_("another entry already has this key, so nothing was saved") },
  { "25006", QM_STORE_ERROR_READ_ONLY,
    N_("the connection is read-only, so nothing was saved") },
  { "42501", QM_STORE_ERROR_READ_ONLY,
    N_("your database role may not change this, so nothing was saved; "
       "ask whoever runs the team database") },
  { "53100", QM_STORE_ERROR_FULL,
    N_("the server's disk is full, so nothing was saved") },
  { "57P01", QM_STORE_ERROR_OPEN,
    N_("the database server shut down, so nothing was saved") },
  { "57P02", QM_STORE_ERROR_OPEN,
    N_("the database server shut down, so nothing was saved") },
  { "57P03", QM_STORE_ERROR_OPEN,
    N_("the database server is not accepting connections yet") },
  { "XX001", QM_STORE_ERROR_CORRUPT, N_("the database on the server is damaged") },
  { "XX002", QM_STORE_ERROR_CORRUPT, N_("the database on the server is damaged") },
  { "23", QM_STORE_ERROR_FAILED, N_("the data breaks a rule of the database, so nothing was saved") },
  { "28", QM_STORE_ERROR_OPEN, N_("the server refused the user name or password") },
  { "08", QM_STORE_ERROR_OPEN, N_("the connection to the server was lost, so nothing was saved") },
  { "53", QM_STORE_ERROR_FULL, N_("the server ran out of resources, so nothing was saved") },
};

/* Whether a failure means the server went away: libpq may still call
 * the connection OK when it read the server's last words ("terminating
 * connection...") or failed to send before it noticed the socket close. */
static gboolean
connection_lost (PGconn     *conn,
                 const char *state,
                 const char *message)
{
  static const char * const words[] = {
    "server closed the connection", "no connection to the server",
    "could not send data", "could not receive data", "terminating connection",
    "connection pointer is NULL",
  };

  if (PQstatus (conn) == CONNECTION_BAD)
    return TRUE;
  if (state != NULL)
    return g_str_has_prefix (state, "08") || strcmp (state, "57P01") == 0 ||
           strcmp (state, "57P02") == 0 || strcmp (state, "57P03") == 0;
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (message != NULL && strstr (message, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* Remembers why @result (or the connection) failed. */
static void
remember (QmDb     *db,
          PGresult *result)
{
  const char *state = result != NULL ? PQresultErrorField (result, PG_DIAG_SQLSTATE) : NULL;
  const char *primary = result != NULL ? PQresultErrorField (result, PG_DIAG_MESSAGE_PRIMARY) : NULL;
  g_autofree char *detail = first_line (primary != NULL ? primary : PQerrorMessage (CONN (db)));

  /* No SQLSTATE and a dead connection: the server went away mid-query. */
  if (connection_lost (CONN (db), state, detail))
    {
      ((QmDbPg *) db)->lost = TRUE;
      if (state == NULL)
        state = "08006";
    }
  for (guint i = 0; state != NULL && i < G_N_ELEMENTS (failures); i++)
    if (strncmp (state, failures[i].state, strlen (failures[i].state)) == 0)
      {
        qm_db_set_failure (db, failures[i].code, "%s (%s)", _(failures[i].why), detail);
        return;
      }
  qm_db_set_failure (db, QM_STORE_ERROR_FAILED, "%s", detail);
}

/* ------------------------------------------------------------------ */
/* Connection.                                                         */

/* Server notices ("table exists, skipping") are not for the user. */
static void
drop_notice (void       *data,
             const char *message)
{
}

/* What every session of ours starts with. */
static gboolean
set_up_session (QmDbPg  *db,
                GError **error)
{
  PQsetNoticeProcessor (db->conn, drop_notice, NULL);
  return !db->read_only ||
         qm_db_exec ((QmDb *) db, "SET default_transaction_read_only = on", error);
}

/* The connection's settings as libpq resolved them, for a reconnect. */
static void
keep_settings (QmDbPg *db)
{
  PQconninfoOption *options = PQconninfo (db->conn);
  g_autoptr(GPtrArray) keywords = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();

  for (PQconninfoOption *o = options; o != NULL && o->keyword != NULL; o++)
    if (o->val != NULL && strcmp (o->keyword, "connect_timeout") != 0)
      {
        g_ptr_array_add (keywords, g_strdup (o->keyword));
        g_ptr_array_add (values, g_strdup (o->val));
      }
  /* Filled in by the reconnect: its own, shorter wait. */
  g_ptr_array_add (keywords, g_strdup ("connect_timeout"));
  g_ptr_array_add (values, NULL);
  g_ptr_array_add (keywords, NULL);
  g_ptr_array_add (values, NULL);
  db->keywords = (char **) g_ptr_array_free (g_steal_pointer (&keywords), FALSE);
  db->values = (char **) g_ptr_array_free (g_steal_pointer (&values), FALSE);
  PQconninfoFree (options);
}

QmDb *
qm_db_pg_open (const char     *uri,
               QmDbOpenFlags   flags,
               GError        **error)
{
  /* Later keywords win: the URI may change those before dbname, never the
   * encoding the store reads and writes in. Over TCP, unacknowledged data
   * gives up after 15 s and a silent peer is noticed within a minute,
   * rather than the kernel's quarter of an hour, so a dropped network
   * ends a save with an error the user can act on. */
  const char *keywords[] = { "application_name", "connect_timeout", "tcp_user_timeout",
                             "keepalives_idle", "keepalives_interval", "keepalives_count",
                             "dbname", "client_encoding", NULL };
  const char *values[] = { "Quartermaster", "10", "15000", "30", "10", "3", uri, "UTF8", NULL };
  g_autofree char *redacted = qm_db_location_redact (uri);
  PGconn *conn = PQconnectdbParams (keywords, values, 1);
  QmDbPg *db;

  if (conn == NULL || PQstatus (conn) != CONNECTION_OK)
    {
      g_autofree char *detail = first_line (conn != NULL ? PQerrorMessage (conn) : "out of memory");

      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                   /* Translators: the server's address, why (such as "the server
                    * did not answer in time"), and the server's own words. */
                   _("Could not connect to %s: %s (%s)"), redacted,
                   explain_connect (conn, detail), detail);
      PQfinish (conn);
      return NULL;
    }

  db = g_new0 (QmDbPg, 1);
  db->parent.klass = &qm_db_pg_class;
  db->parent.location = g_steal_pointer (&redacted);
  db->parent.last_code = QM_STORE_ERROR_FAILED;
  db->conn = conn;
  db->read_only = (flags & QM_DB_OPEN_READ_ONLY) != 0;
  keep_settings (db);
  if (!set_up_session (db, error))
    {
      qm_db_free ((QmDb *) db);
      return NULL;
    }
  return (QmDb *) db;
}

/* No round trip: between queries, reads what the socket holds, which is
 * where a server that shut down or restarted left its goodbye (libpq then
 * calls the connection bad). A silent network is caught by the keepalives
 * set at open. */
static gboolean
pg_connected (QmDb *db)
{
  QmDbPg *pg = (QmDbPg *) db;

  if (pg->lost || PQstatus (pg->conn) != CONNECTION_OK)
    return FALSE;
  /* A dying server says goodbye first ("terminating connection"): one
   * read takes that, the next finds the end of the stream. */
  for (int i = 0; i < 3 && PQtransactionStatus (pg->conn) == PQTRANS_IDLE; i++)
    if (!PQconsumeInput (pg->conn))
      {
        pg->lost = TRUE;
        break;
      }
  return !pg->lost && PQstatus (pg->conn) == CONNECTION_OK;
}

/* Drives a non-blocking connect until it is up, fails, @cancellable
 * fires, or @deadline (on the monotonic clock) passes: libpq's
 * connect_timeout counts per address and in whole seconds, this bounds
 * the whole attempt. */
static gboolean
connect_until (PGconn       *conn,
               gint64        deadline,
               GCancellable *cancellable)
{
  PostgresPollingStatusType state = PGRES_POLLING_WRITING;
  struct pollfd fds[2] = { { -1, 0, 0 }, { -1, POLLIN, 0 } };
  gboolean cancelled = FALSE;

  if (cancellable != NULL)
    fds[1].fd = g_cancellable_get_fd (cancellable);
  while (state != PGRES_POLLING_OK && !cancelled)
    {
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      int n;

      fds[0].fd = PQsocket (conn);
      if (state == PGRES_POLLING_FAILED || fds[0].fd < 0 || left <= 0)
        break;
      fds[0].events = state == PGRES_POLLING_READING ? POLLIN : POLLOUT;
      fds[0].revents = fds[1].revents = 0;
      n = poll (fds, fds[1].fd >= 0 ? 2 : 1, (int) MIN (left, G_MAXINT));
      if (n < 0 && errno != EINTR)
        break;
      cancelled = g_cancellable_is_cancelled (cancellable);
      if (n > 0 && fds[0].revents != 0 && !cancelled)
        state = PQconnectPoll (conn);
    }
  if (cancellable != NULL)
    g_cancellable_release_fd (cancellable);
  return state == PGRES_POLLING_OK;
}

/* ------------------------------------------------------------------ */
/* Connecting away from the main thread (qm-db.h, QmDbAttempt).        */

struct _QmDbAttempt
{
  /* Copies of the settings: the thread reads nothing of the QmDb. */
  char         **keywords;
  char         **values;
  int            timeout_ms;
  PGconn        *conn;  /* up once qm_db_attempt_run() said so */
  char          *why;   /* else why not, in words */
};

/* Wipes the password before the settings are freed. */
static void
free_settings (char **keywords,
               char **values)
{
  for (guint i = 0; keywords != NULL && keywords[i] != NULL; i++)
    if (strcmp (keywords[i], "password") == 0 && values[i] != NULL)
      memset (values[i], 0, strlen (values[i]));
  g_strfreev (keywords);
  /* Only the last value (connect_timeout) may be NULL: the NULL that
   * ends the vector, for g_strfreev(), comes after it. */
  g_strfreev (values);
}

QmDbAttempt *
qm_db_attempt_new (QmDb *db,
                   int   timeout_ms)
{
  QmDbPg *pg = (QmDbPg *) db;
  QmDbAttempt *attempt;
  guint n;

  g_return_val_if_fail (db->klass->engine == QM_DB_POSTGRESQL, NULL);

  n = g_strv_length (pg->keywords);
  attempt = g_new0 (QmDbAttempt, 1);
  attempt->keywords = g_strdupv (pg->keywords);
  attempt->values = g_new0 (char *, n + 1);
  /* The last one is connect_timeout (keep_settings): libpq's own wait,
   * per address, in whole seconds; connect_until() bounds the whole. */
  for (guint i = 0; i + 1 < n; i++)
    attempt->values[i] = g_strdup (pg->values[i]);
  attempt->values[n - 1] = g_strdup_printf ("%d", MAX (2, (timeout_ms + 999) / 1000));
  attempt->timeout_ms = timeout_ms;
  return attempt;
}

void
qm_db_attempt_free (QmDbAttempt *attempt)
{
  if (attempt == NULL)
    return;
  PQfinish (attempt->conn);
  free_settings (attempt->keywords, attempt->values);
  g_free (attempt->why);
  g_free (attempt);
}

gboolean
qm_db_attempt_run (QmDbAttempt  *attempt,
                   GCancellable *cancellable)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) attempt->timeout_ms * 1000;
  PGconn *conn;

  g_return_val_if_fail (attempt->conn == NULL && attempt->why == NULL, FALSE);

  conn = PQconnectStartParams ((const char * const *) attempt->keywords,
                               (const char * const *) attempt->values, 0);
  if (conn != NULL && PQstatus (conn) != CONNECTION_BAD &&
      connect_until (conn, deadline, cancellable))
    {
      attempt->conn = conn;
      return TRUE;
    }
  if (g_cancellable_is_cancelled (cancellable))
    attempt->why = g_strdup (_("the attempt was cancelled"));
  else if (conn != NULL && PQstatus (conn) != CONNECTION_BAD)
    attempt->why = g_strdup_printf (_("the server did not answer within %.1f s"),
                                    attempt->timeout_ms / 1000.0);
  else
    {
      g_autofree char *detail = first_line (conn != NULL ? PQerrorMessage (conn) : "out of memory");

      attempt->why = g_strdup_printf ("%s (%s)", explain_connect (conn, detail), detail);
    }
  PQfinish (conn);
  return FALSE;
}

static void
attempt_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  QmDbAttempt *attempt = task_data;

  qm_db_attempt_run (attempt, cancellable);
  /* Handed back whole, failed or not: the caller words the failure. */
  g_task_return_pointer (task, attempt, (GDestroyNotify) qm_db_attempt_free);
}

void
qm_db_attempt_run_async (QmDbAttempt         *attempt,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  /* Debian's libpq is built thread-safe; one that is not could not
   * connect in another thread while this one queries. */
  g_assert (PQisthreadsafe ());
  g_task_set_source_tag (task, qm_db_attempt_run_async);
  /* Not freed with the task: attempt_thread() always runs (the task does
   * not return early on cancel) and hands it on as the result. */
  g_task_set_task_data (task, attempt, NULL);
  g_task_run_in_thread (task, attempt_thread);
}

QmDbAttempt *
qm_db_attempt_run_finish (GAsyncResult  *result,
                          GError       **error)
{
  GTask *task = G_TASK (result);

  g_return_val_if_fail (g_task_get_source_tag (task) == qm_db_attempt_run_async, NULL);
  return g_task_propagate_pointer (task, error);
}

gboolean
qm_db_attempt_adopt (QmDb         *db,
                     QmDbAttempt  *attempt,
                     GError      **error)
{
  QmDbPg *pg = (QmDbPg *) db;

  g_return_val_if_fail (db->klass->engine == QM_DB_POSTGRESQL, FALSE);

  /* Another try (a save's) got there first: its session stays. */
  if (pg_connected (db))
    return TRUE;
  if (attempt->conn == NULL)
    qm_db_set_failure (db, QM_STORE_ERROR_OPEN, "%s", attempt->why);
  else
    {
      PQfinish (pg->conn);
      pg->conn = g_steal_pointer (&attempt->conn);
      pg->lost = FALSE;
      if (set_up_session (pg, NULL))
        {
          qm_db_clear_failure (db);
          return TRUE;
        }
    }
  /* Translators: %s is the team server's address. */
  qm_db_fail (db, error, _("Could not connect again to %s"), db->location);
  return FALSE;
}

QmDb *
qm_db_attempt_open (QmDb         *db,
                    QmDbAttempt  *attempt,
                    GError      **error)
{
  QmDbPg *copy;

  g_return_val_if_fail (db->klass->engine == QM_DB_POSTGRESQL, NULL);

  if (attempt->conn == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                   /* Translators: the team server's address, and why. */
                   _("Could not connect to %s again: %s"), db->location, attempt->why);
      return NULL;
    }
  copy = g_new0 (QmDbPg, 1);
  copy->parent.klass = &qm_db_pg_class;
  copy->parent.location = g_strdup (db->location);
  copy->parent.last_code = QM_STORE_ERROR_FAILED;
  copy->conn = g_steal_pointer (&attempt->conn);
  /* The settings go with it, so it can connect again by itself. */
  copy->keywords = g_steal_pointer (&attempt->keywords);
  copy->values = g_steal_pointer (&attempt->values);
  PQsetNoticeProcessor (copy->conn, drop_notice, NULL);
  return (QmDb *) copy;
}

static gboolean
pg_reconnect (QmDb *db,
              int   timeout_ms)
{
  g_autoptr(QmDbAttempt) attempt = qm_db_attempt_new (db, timeout_ms);

  qm_db_attempt_run (attempt, NULL);
  return qm_db_attempt_adopt (db, attempt, NULL);
}

static void
pg_disconnect (QmDb *db)
{
  g_clear_pointer (&((QmDbPg *) db)->conn, PQfinish);
}

static void
pg_close (QmDb *db)
{
  QmDbPg *pg = (QmDbPg *) db;

  PQfinish (pg->conn);
  free_settings (pg->keywords, pg->values);
  g_free (db);
}

static gboolean
pg_exec (QmDb       *db,
         const char *sql)
{
  PGresult *result = PQexec (CONN (db), sql);
  ExecStatusType status = PQresultStatus (result);
  gboolean ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;

  if (!ok)
    remember (db, result);
  PQclear (result);
  return ok;
}

static gboolean
pg_in_transaction (QmDb *db)
{
  PGTransactionStatusType status = PQtransactionStatus (CONN (db));

  return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE;
}

static gint64
pg_changes (QmDb *db)
{
  return ((QmDbPg *) db)->changes;
}

/* Runs @sql with text parameters and hands back the result, or NULL with
 * the failure remembered. */
static PGresult *
run (QmDb        *db,
     const char  *sql,
     int          n,
     const char **params)
{
  PGresult *result = PQexecParams (CONN (db), sql, n, NULL, params, NULL, NULL, 0);
  ExecStatusType status = PQresultStatus (result);

  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
    return result;
  remember (db, result);
  PQclear (result);
  return NULL;
}

static gint64
pg_last_insert_id (QmDb *db)
{
  PGresult *result = run (db, "SELECT lastval ()", 0, NULL);
  gint64 id = 0;

  if (result != NULL && PQntuples (result) == 1)
    id = g_ascii_strtoll (PQgetvalue (result, 0, 0), NULL, 10);
  PQclear (result);
  return id;
}

/* The version lives in a one-row table, qm_schema; none yet is 0. */
static int
pg_schema_version (QmDb *db)
{
  PGresult *result = run (db, "SELECT to_regclass ('qm_schema') IS NOT NULL", 0, NULL);
  gboolean exists;
  int version = 0;

  if (result == NULL)
    return -1;
  exists = PQntuples (result) == 1 && strcmp (PQgetvalue (result, 0, 0), "t") == 0;
  PQclear (result);
  if (!exists)
    return 0;
  if ((result = run (db, "SELECT max (version) FROM qm_schema", 0, NULL)) == NULL)
    return -1;
  if (PQntuples (result) == 1 && !PQgetisnull (result, 0, 0))
    version = atoi (PQgetvalue (result, 0, 0));
  PQclear (result);
  return version;
}

static gboolean
pg_set_schema_version (QmDb *db,
                       int   version)
{
  g_autofree char *text = g_strdup_printf ("%d", version);
  const char *params[] = { text };
  PGresult *result;

  if (!pg_exec (db, "CREATE TABLE IF NOT EXISTS qm_schema (version INTEGER NOT NULL);"
                    "DELETE FROM qm_schema"))
    return FALSE;
  result = run (db, "INSERT INTO qm_schema (version) VALUES ($1)", 1, params);
  PQclear (result);
  return result != NULL;
}

/* ------------------------------------------------------------------ */
/* Dialect.                                                            */

/* What SQLite has built in and the schema uses, as PostgreSQL functions.
 * CREATE OR REPLACE: every translated step carries them. */
static const char pg_helpers[] =
  "CREATE OR REPLACE FUNCTION json_valid (t text) RETURNS boolean"
  " LANGUAGE plpgsql IMMUTABLE AS $$"
  " BEGIN PERFORM t::json; RETURN true;"
  " EXCEPTION WHEN others THEN RETURN false; END $$;"
  "CREATE OR REPLACE FUNCTION instr (haystack text, needle text) RETURNS integer"
  " LANGUAGE sql IMMUTABLE AS $$ SELECT strpos (haystack, needle) $$;"
  /* SQLite's CHECK (date (x) IS x): a real date written YYYY-MM-DD. */
  "CREATE OR REPLACE FUNCTION qm_iso_date (t text) RETURNS boolean"
  " LANGUAGE plpgsql IMMUTABLE AS $$"
  " BEGIN RETURN t ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND to_char (t::date, 'YYYY-MM-DD') = t;"
  " EXCEPTION WHEN others THEN RETURN false; END $$;";

static gboolean
glob_to_regex (const GMatchInfo *info,
               GString          *out,
               gpointer          data)
{
  g_autofree char *glob = g_match_info_fetch (info, 1);

  g_string_append (out, "~ '^");
  for (const char *p = glob; *p != '\0'; p++)
    {
      if (*p == '*')
        g_string_append (out, ".*");
      else if (*p == '?')
        g_string_append_c (out, '.');
      else
        g_string_append_c (out, *p);
    }
  g_string_append (out, "$'");
  return FALSE;
}

typedef struct
{
  const char *pattern;
  const char *replacement;  /* NULL: glob_to_regex */
} QmDdlRule;

/* In order: a rule sees what the ones before it made. */
static const QmDdlRule ddl_rules[] = {
  /* A trigger that refuses a change: a function that raises, and the
   * trigger calling it for each row. */
  { "CREATE TRIGGER (\\w+) (BEFORE|AFTER) (UPDATE|DELETE|INSERT) ON (\\w+)\\s*"
    "BEGIN SELECT RAISE \\(ABORT, '([^']*)'\\); END;",
    "CREATE FUNCTION \\1_fn () RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN RAISE EXCEPTION '\\5'; END $$;"
    "CREATE TRIGGER \\1 \\2 \\3 ON \\4 FOR EACH ROW EXECUTE FUNCTION \\1_fn ();" },
  { "\\)\\s*STRICT\\b", ")" },
  /* The rowid alias: an identity column that still takes given ids. */
  { "\\bINTEGER PRIMARY KEY\\b", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" },
  /* SQLite's INTEGER holds 64 bits (times are in µs), REAL is a double. */
  { "\\bINTEGER\\b", "BIGINT" },
  { "\\bREAL\\b", "DOUBLE PRECISION" },
  { "\\bdate \\((\\w+)\\) IS \\1\\b", "qm_iso_date (\\1)" },
  { "\\bGLOB '([^']*)'", NULL },
};

static char *
pg_translate_ddl (const char *sql)
{
  g_autofree char *text = g_strconcat (pg_helpers, sql, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ddl_rules); i++)
    {
      g_autoptr(GRegex) re = g_regex_new (ddl_rules[i].pattern, 0, 0, NULL);
      char *next;

      g_assert (re != NULL);
      if (ddl_rules[i].replacement != NULL)
        next = g_regex_replace (re, text, -1, 0, ddl_rules[i].replacement, 0, NULL);
      else
        next = g_regex_replace_eval (re, text, -1, 0, 0, glob_to_regex, NULL, NULL);
      g_free (text);
      text = next;
    }
  return g_steal_pointer (&text);
}

/* ------------------------------------------------------------------ */
/* Statements.                                                         */

static QmDbStmt *
pg_prepare (QmDb       *db,
            const char *sql)
{
  QmDbPgStmt *s = g_new0 (QmDbPgStmt, 1);

  s->parent.db = db;
  s->sql = qm_db_rewrite_placeholders (sql, &s->n_params);
  s->values = g_new0 (char *, s->n_params + 1);
  s->types = g_new0 (Oid, s->n_params + 1);
  s->unused = g_new0 (gboolean, s->n_params + 1);
  /* SQLite lets a statement skip ?1 and use ?2; PostgreSQL needs a type
   * for every $N, so a skipped one is sent as text. */
  for (int i = 0; i < s->n_params; i++)
    {
      g_autofree char *mark = g_strdup_printf ("$%d", i + 1);
      const char *p = s->sql;
      gboolean found = FALSE;

      while (!found && (p = strstr (p, mark)) != NULL)
        {
          p += strlen (mark);
          found = !g_ascii_isdigit (*p);
        }
      s->unused[i] = !found;
      if (s->unused[i])
        s->types[i] = TEXTOID;
    }
  return (QmDbStmt *) s;
}

static void
pg_reset (QmDbStmt *stmt)
{
  QmDbPgStmt *s = PG_STMT (stmt);

  g_clear_pointer (&s->result, PQclear);
  s->row = -1;
  s->n_rows = 0;
}

static void
pg_stmt_free (QmDbStmt *stmt)
{
  QmDbPgStmt *s = PG_STMT (stmt);

  pg_reset (stmt);
  for (int i = 0; i < s->n_params; i++)
    g_free (s->values[i]);
  g_free (s->values);
  g_free (s->types);
  g_free (s->unused);
  g_free (s->sql);
  g_free (s);
}

static int
pg_param_count (QmDbStmt *stmt)
{
  return PG_STMT (stmt)->n_params;
}

/* Out-of-range indexes are ignored, as SQLite's SQLITE_RANGE is. */
static void
set_param (QmDbStmt *stmt,
           int       index,
           char     *value,
           Oid       type)
{
  QmDbPgStmt *s = PG_STMT (stmt);

  if (index < 1 || index > s->n_params)
    {
      g_free (value);
      return;
    }
  g_free (s->values[index - 1]);
  s->values[index - 1] = value;
  s->types[index - 1] = s->unused[index - 1] ? TEXTOID : type;
}

static void
pg_bind_text (QmDbStmt   *stmt,
              int         index,
              const char *text)
{
  set_param (stmt, index, g_strdup (text), 0);
}

static void
pg_bind_int64 (QmDbStmt *stmt,
               int       index,
               gint64    value)
{
  set_param (stmt, index, g_strdup_printf ("%" G_GINT64_FORMAT, value), INT8OID);
}

static void
pg_bind_double (QmDbStmt *stmt,
                int       index,
                double    value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Shortest text that reads back as the same double. */
  set_param (stmt, index, g_strdup (g_ascii_dtostr (buf, sizeof buf, value)), FLOAT8OID);
}

static void
pg_bind_null (QmDbStmt *stmt,
              int       index)
{
  set_param (stmt, index, NULL, 0);
}

static QmDbStep
pg_step (QmDbStmt *stmt)
{
  QmDbPgStmt *s = PG_STMT (stmt);
  QmDbPg *db = (QmDbPg *) stmt->db;
  ExecStatusType status;

  if (s->result != NULL)
    return ++s->row < s->n_rows ? QM_DB_STEP_ROW : QM_DB_STEP_DONE;

  s->result = PQexecParams (db->conn, s->sql, s->n_params, s->types,
                            (const char * const *) s->values, NULL, NULL, 0);
  status = PQresultStatus (s->result);
  if (status == PGRES_TUPLES_OK)
    {
      s->n_rows = PQntuples (s->result);
      s->row = 0;
      db->changes = g_ascii_strtoll (PQcmdTuples (s->result), NULL, 10);
      return s->n_rows > 0 ? QM_DB_STEP_ROW : QM_DB_STEP_DONE;
    }
  if (status == PGRES_COMMAND_OK)
    {
      db->changes = g_ascii_strtoll (PQcmdTuples (s->result), NULL, 10);
      return QM_DB_STEP_DONE;
    }
  remember (stmt->db, s->result);
  pg_reset (stmt);
  return QM_DB_STEP_ERROR;
}

static int
pg_column_count (QmDbStmt *stmt)
{
  QmDbPgStmt *s = PG_STMT (stmt);

  return s->result != NULL ? PQnfields (s->result) : 0;
}

static gboolean
pg_column_is_null (QmDbStmt *stmt,
                   int       column)
{
  QmDbPgStmt *s = PG_STMT (stmt);

  return s->result == NULL || s->row < 0 || s->row >= s->n_rows ||
         PQgetisnull (s->result, s->row, column);
}

static const char *
pg_column_text (QmDbStmt *stmt,
                int       column)
{
  QmDbPgStmt *s = PG_STMT (stmt);

  if (pg_column_is_null (stmt, column))
    return NULL;
  return PQgetvalue (s->result, s->row, column);
}

static gint64
pg_column_int64 (QmDbStmt *stmt,
                 int       column)
{
  const char *text = pg_column_text (stmt, column);

  if (text == NULL)
    return 0;
  /* A boolean reads as 1 or 0, as SQLite gives it. */
  if (text[0] == 't' && text[1] == '\0')
    return 1;
  return g_ascii_strtoll (text, NULL, 10);
}

static double
pg_column_double (QmDbStmt *stmt,
                  int       column)
{
  const char *text = pg_column_text (stmt, column);

  return text != NULL ? g_ascii_strtod (text, NULL) : 0.0;
}

const QmDbClass qm_db_pg_class = {
  .engine = QM_DB_POSTGRESQL,
  .close = pg_close,
  .exec = pg_exec,
  .begin_sql = "BEGIN",
  .in_transaction = pg_in_transaction,
  .changes = pg_changes,
  .last_insert_id = pg_last_insert_id,
  .schema_version = pg_schema_version,
  /* Once the schema exists, a lock on its version table in a mode that
   * needs UPDATE, DELETE or TRUNCATE on it (PostgreSQL 15 documentation,
   * LOCK: "All other forms of LOCK require table-level UPDATE, DELETE, or
   * TRUNCATE privileges"), which only the owner has: an advisory lock
   * could be taken, and held, by any login (issue #33 item 6). Before the
   * first step, a transaction-scoped advisory lock ("QMSC" in ASCII). */
  .lock_schema_sql = "DO $$ BEGIN"
                     " IF to_regclass ('qm_schema') IS NOT NULL THEN"
                     "  LOCK TABLE qm_schema IN SHARE ROW EXCLUSIVE MODE;"
                     " ELSE PERFORM pg_advisory_xact_lock (1364022083); END IF; END $$",
  .set_schema_version = pg_set_schema_version,
  .translate_ddl = pg_translate_ddl,
  .prepare = pg_prepare,
  .stmt_free = pg_stmt_free,
  .param_count = pg_param_count,
  .bind_text = pg_bind_text,
  .bind_int64 = pg_bind_int64,
  .bind_double = pg_bind_double,
  .bind_null = pg_bind_null,
  .step = pg_step,
  .reset = pg_reset,
  .column_count = pg_column_count,
  .column_is_null = pg_column_is_null,
  .column_text = pg_column_text,
  .column_int64 = pg_column_int64,
  .column_double = pg_column_double,
  .connected = pg_connected,
  .reconnect = pg_reconnect,
  .disconnect = pg_disconnect,
};

/* ------------------------------------------------------------------ */
/* Notifications (LISTEN/NOTIFY) and the connection's socket.          */

int
qm_db_socket (QmDb *db)
{
  if (db->klass->engine != QM_DB_POSTGRESQL)
    return -1;
  return PQsocket (CONN (db));
}

int
qm_db_backend_pid (QmDb *db)
{
  if (db->klass->engine != QM_DB_POSTGRESQL)
    return 0;
  return PQbackendPID (CONN (db));
}

QmDb *
qm_db_open_another (QmDb    *db,
                    int      timeout_ms,
                    GError **error)
{
  g_autoptr(QmDbAttempt) attempt = NULL;

  if (db->klass->engine != QM_DB_POSTGRESQL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
                   "%s is a file, not a database server", db->location);
      return NULL;
    }
  /* The settings the first connection was made with, password and all,
   * so a second one needs nothing the user typed again. */
  attempt = qm_db_attempt_new (db, timeout_ms);
  qm_db_attempt_run (attempt, NULL);
  return qm_db_attempt_open (db, attempt, error);
}

GPtrArray *
qm_db_take_notifications (QmDb       *db,
                          const char *channel,
                          int         skip_pid)
{
  GPtrArray *payloads;
  PGnotify *n;

  g_return_val_if_fail (db->klass->engine == QM_DB_POSTGRESQL, NULL);

  /* Never blocks: it reads only what the socket already holds. */
  if (!PQconsumeInput (CONN (db)) || PQstatus (CONN (db)) != CONNECTION_OK)
    {
      remember (db, NULL);
      return NULL;
    }
  payloads = g_ptr_array_new_with_free_func (g_free);
  while ((n = PQnotifies (CONN (db))) != NULL)
    {
      if (strcmp (n->relname, channel) == 0 && n->be_pid != skip_pid)
        g_ptr_array_add (payloads, g_strdup (n->extra));
      PQfreemem (n);
    }
  return payloads;
}
