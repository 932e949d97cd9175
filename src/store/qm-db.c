/* qm-db.c: the engine-neutral half of qm-db.h: dispatch to the engine,
 * the remembered failure, locations and placeholders.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-db-private.h"

/* The length of "scheme://" at the start of @location (RFC 3986 §3.1:
 * ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )), or 0. */
static gsize
scheme_length (const char *location)
{
  gsize i = 0;

  if (location == NULL || !g_ascii_isalpha (location[0]))
    return 0;
  while (g_ascii_isalnum (location[i]) || location[i] == '+' || location[i] == '-' ||
         location[i] == '.')
    i++;
  return strncmp (location + i, "://", 3) == 0 ? i + 3 : 0;
}

char *
qm_db_location_normalize (const char *location)
{
  char *copy;
  gsize n;

  g_return_val_if_fail (location != NULL, NULL);

  copy = g_strstrip (g_strdup (location));
  /* libpq compares the prefix case-sensitively: lower-case the scheme. */
  n = scheme_length (copy);
  for (gsize i = 0; i + 3 < n; i++)
    copy[i] = g_ascii_tolower (copy[i]);
  return copy;
}

gboolean
qm_db_location_looks_like_uri (const char *location)
{
  g_autofree char *norm = NULL;

  if (location == NULL)
    return FALSE;
  norm = qm_db_location_normalize (location);
  return scheme_length (norm) > 0;
}

gboolean
qm_db_location_is_uri (const char *location)
{
  g_autofree char *norm = NULL;

  if (location == NULL)
    return FALSE;
  norm = qm_db_location_normalize (location);
  return g_str_has_prefix (norm, "postgresql://") || g_str_has_prefix (norm, "postgres://");
}

/* libpq's connection parameters that hold a secret (PostgreSQL 15
 * documentation, §34.1.2 "Parameter Key Words": password, and
 * sslpassword for the client key). The name is compared decoded, so
 * "pass%77ord" is a password too (issue #33 item 3). */
gboolean
qm_db_param_is_secret (const char *param)
{
  static const char * const secrets[] = { "password", "sslpassword" };
  g_autofree char *raw = g_strndup (param, strcspn (param, "="));
  g_autofree char *name = g_uri_unescape_string (raw, NULL);

  /* Undecodable (a bad escape): treated as a secret, hidden rather than shown. */
  if (name == NULL)
    return TRUE;
  g_strstrip (name);
  for (guint i = 0; i < G_N_ELEMENTS (secrets); i++)
    if (g_ascii_strcasecmp (name, secrets[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
qm_db_location_has_secret (const char *location)
{
  g_autofree char *norm = NULL;
  g_auto(GStrv) params = NULL;
  const char *rest, *query;
  gsize auth_len;
  const char *at;

  if (!qm_db_location_is_uri (location))
    return FALSE;
  norm = qm_db_location_normalize (location);
  rest = strstr (norm, "://") + 3;
  auth_len = strcspn (rest, "/?");
  /* user:password@host */
  at = g_strrstr_len (rest, (gssize) auth_len, "@");
  if (at != NULL && memchr (rest, ':', at - rest) != NULL)
    return TRUE;
  query = strchr (rest, '?');
  if (query == NULL)
    return FALSE;
  params = g_strsplit (query + 1, "&", -1);
  for (guint i = 0; params[i] != NULL; i++)
    if (qm_db_param_is_secret (params[i]))
      return TRUE;
  return FALSE;
}

/* Drops every secret parameter from the query part of a URI. */
static void
redact_query (GString *out,
              char    *query)
{
  g_auto(GStrv) params = g_strsplit (query, "&", -1);
  gboolean first = TRUE;

  for (guint i = 0; params[i] != NULL; i++)
    {
      if (qm_db_param_is_secret (params[i]))
        continue;
      g_string_append_c (out, first ? '?' : '&');
      g_string_append (out, params[i]);
      first = FALSE;
    }
}

char *
qm_db_location_redact (const char *location)
{
  g_autofree char *copy = NULL;
  g_autoptr(GString) out = NULL;
  char *rest, *authority_end, *at, *query;

  /* Any "scheme://" address, not only PostgreSQL's: a mistyped scheme
   * is shown in the refusal, and must not show its password either. */
  if (!qm_db_location_looks_like_uri (location))
    return g_strdup (location);

  copy = qm_db_location_normalize (location);
  rest = strstr (copy, "://") + 3;
  out = g_string_new_len (copy, rest - copy);
  query = strchr (rest, '?');
  if (query != NULL)
    *query++ = '\0';
  authority_end = rest + strcspn (rest, "/");
  /* user:password@host: the last @ ends the user part. */
  at = g_strrstr_len (rest, authority_end - rest, "@");
  if (at != NULL)
    {
      char *colon = memchr (rest, ':', at - rest);

      g_string_append_len (out, rest, (colon != NULL ? colon : at) - rest);
      rest = at;
    }
  g_string_append (out, rest);
  if (query != NULL)
    redact_query (out, query);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

QmDb *
qm_db_open (const char     *location,
            QmDbOpenFlags   flags,
            GError        **error)
{
  g_return_val_if_fail (location != NULL, NULL);

  if (qm_db_location_is_uri (location))
    {
      g_autofree char *norm = qm_db_location_normalize (location);

      return qm_db_pg_open (norm, flags, error);
    }
  return qm_db_sqlite_open (location, flags, error);
}

void
qm_db_free (QmDb *db)
{
  if (db == NULL)
    return;
  g_free (db->location);
  g_free (db->last_message);
  /* The engine frees its own struct, this one included. */
  db->klass->close (db);
}

QmDbEngine
qm_db_engine (QmDb *db)
{
  return db->klass->engine;
}

const char *
qm_db_location (QmDb *db)
{
  return db->location;
}

/* ------------------------------------------------------------------ */
/* Failures.                                                           */

void
qm_db_set_failure (QmDb          *db,
                   QmStoreError   code,
                   const char    *format,
                   ...)
{
  va_list args;

  g_free (db->last_message);
  va_start (args, format);
  db->last_message = g_strdup_vprintf (format, args);
  va_end (args);
  db->last_code = code;
}

void
qm_db_clear_failure (QmDb *db)
{
  g_clear_pointer (&db->last_message, g_free);
  db->last_code = QM_STORE_ERROR_FAILED;
}

const char *
qm_db_explain (QmStoreError code)
{
  switch (code)
    {
    case QM_STORE_ERROR_LOCKED:
      return _("another program is using the database; close it (or the other "
               "Quartermaster window) and try again");
    case QM_STORE_ERROR_READ_ONLY:
      return _("the database is read-only, so nothing was saved; "
               "check the file's permissions or save the plan to a file instead");
    case QM_STORE_ERROR_FULL:
      return _("the disk is full, so nothing was saved; free some space and try again");
    case QM_STORE_ERROR_CORRUPT:
      return _("the database is damaged");
    case QM_STORE_ERROR_OPEN:
      return _("the file cannot be opened");
    default:
      return NULL;
    }
}

QmStoreError
qm_db_last_code (QmDb *db)
{
  return db->last_code;
}

const char *
qm_db_last_message (QmDb *db)
{
  return db->last_message;
}

void
qm_db_failv (QmDb        *db,
             GError     **error,
             const char  *place,
             const char  *format,
             va_list      args)
{
  g_autofree char *what = g_strdup_vprintf (format, args);
  const char *cause = db->last_message != NULL ? db->last_message : _("unknown database error");

  if (place != NULL)
    /* Translators: the first %s says what failed ("Could not save the plan"),
     * the second is the database file or server, the third the cause. */
    g_set_error (error, QM_STORE_ERROR, db->last_code, _("%s in %s: %s"), what, place, cause);
  else
    g_set_error (error, QM_STORE_ERROR, db->last_code, _("%s: %s"), what, cause);
}

void
qm_db_fail (QmDb        *db,
            GError     **error,
            const char  *format,
            ...)
{
  va_list args;

  va_start (args, format);
  qm_db_failv (db, error, NULL, format, args);
  va_end (args);
}

/* ------------------------------------------------------------------ */
/* Connection.                                                         */

gboolean
qm_db_exec (QmDb        *db,
            const char  *sql,
            GError     **error)
{
  if (db->klass->exec (db, sql))
    return TRUE;
  /* Translators: %s is the database file or server. */
  qm_db_fail (db, error, _("Could not change %s"), db->location);
  return FALSE;
}

gboolean
qm_db_begin (QmDb    *db,
             GError **error)
{
  if (db->klass->exec (db, db->klass->begin_sql))
    return TRUE;
  qm_db_fail (db, error, _("Could not start a transaction in %s"), db->location);
  return FALSE;
}

gboolean
qm_db_commit (QmDb    *db,
              GError **error)
{
  if (db->klass->exec (db, "COMMIT"))
    return TRUE;
  qm_db_fail (db, error, _("Could not commit to %s"), db->location);
  qm_db_rollback (db);
  return FALSE;
}

void
qm_db_rollback (QmDb *db)
{
  if (db->klass->in_transaction (db))
    {
      /* Keep the failure that made the caller roll back. */
      QmStoreError code = db->last_code;
      g_autofree char *message = g_steal_pointer (&db->last_message);

      db->klass->exec (db, "ROLLBACK");
      g_free (db->last_message);
      db->last_message = g_steal_pointer (&message);
      db->last_code = code;
    }
}

gboolean
qm_db_in_transaction (QmDb *db)
{
  return db->klass->in_transaction (db);
}

gint64
qm_db_changes (QmDb *db)
{
  return db->klass->changes (db);
}

gint64
qm_db_last_insert_id (QmDb *db)
{
  return db->klass->last_insert_id (db);
}

int
qm_db_schema_version (QmDb    *db,
                      GError **error)
{
  int version = db->klass->schema_version (db);

  if (version < 0)
    qm_db_fail (db, error, _("Could not read the schema version of %s"), db->location);
  return version;
}

gboolean
qm_db_lock_schema (QmDb *db)
{
  return db->klass->lock_schema_sql == NULL || db->klass->exec (db, db->klass->lock_schema_sql);
}

gboolean
qm_db_set_schema_version (QmDb    *db,
                          int      version,
                          GError **error)
{
  if (db->klass->set_schema_version (db, version))
    return TRUE;
  qm_db_fail (db, error, _("Could not record schema version %d in %s"), version, db->location);
  return FALSE;
}

char *
qm_db_translate_ddl (QmDb       *db,
                     const char *sql)
{
  return db->klass->translate_ddl (sql);
}

/* ------------------------------------------------------------------ */
/* Statements.                                                         */

QmDbStmt *
qm_db_prepare (QmDb        *db,
               const char  *sql,
               GError     **error)
{
  QmDbStmt *stmt = db->klass->prepare (db, sql);

  if (stmt == NULL)
    qm_db_fail (db, error, _("Could not prepare a query on %s"), db->location);
  return stmt;
}

void
qm_db_stmt_free (QmDbStmt *stmt)
{
  if (stmt != NULL)
    stmt->db->klass->stmt_free (stmt);
}

int
qm_db_param_count (QmDbStmt *stmt)
{
  return stmt->db->klass->param_count (stmt);
}

void
qm_db_bind_text (QmDbStmt   *stmt,
                 int         index,
                 const char *text)
{
  if (text == NULL)
    stmt->db->klass->bind_null (stmt, index);
  else
    stmt->db->klass->bind_text (stmt, index, text);
}

void
qm_db_bind_int64 (QmDbStmt *stmt,
                  int       index,
                  gint64    value)
{
  stmt->db->klass->bind_int64 (stmt, index, value);
}

void
qm_db_bind_double (QmDbStmt *stmt,
                   int       index,
                   double    value)
{
  stmt->db->klass->bind_double (stmt, index, value);
}

void
qm_db_bind_null (QmDbStmt *stmt,
                 int       index)
{
  stmt->db->klass->bind_null (stmt, index);
}

QmDbStep
qm_db_step (QmDbStmt *stmt)
{
  return stmt->db->klass->step (stmt);
}

void
qm_db_reset (QmDbStmt *stmt)
{
  stmt->db->klass->reset (stmt);
}

int
qm_db_column_count (QmDbStmt *stmt)
{
  return stmt->db->klass->column_count (stmt);
}

gboolean
qm_db_column_is_null (QmDbStmt *stmt,
                      int       column)
{
  return stmt->db->klass->column_is_null (stmt, column);
}

const char *
qm_db_column_text (QmDbStmt *stmt,
                   int       column)
{
  return stmt->db->klass->column_text (stmt, column);
}

char *
qm_db_column_dup (QmDbStmt *stmt,
                  int       column)
{
  return g_strdup (stmt->db->klass->column_text (stmt, column));
}

gint64
qm_db_column_int64 (QmDbStmt *stmt,
                    int       column)
{
  return stmt->db->klass->column_int64 (stmt, column);
}

double
qm_db_column_double (QmDbStmt *stmt,
                     int       column)
{
  return stmt->db->klass->column_double (stmt, column);
}

/* ------------------------------------------------------------------ */
/* Placeholders.                                                       */

/* Where a quoted string, quoted name or comment starting at @p ends, or
 * @p itself when none starts there. */
static const char *
skip_quoted (const char *p)
{
  if (*p == '\'' || *p == '"')
    {
      char q = *p++;

      /* A doubled quote is an escaped one and simply reads on. */
      while (*p != '\0' && *p != q)
        p++;
      return *p != '\0' ? p + 1 : p;
    }
  if (p[0] == '-' && p[1] == '-')
    return p + strcspn (p, "\n");
  if (p[0] == '/' && p[1] == '*')
    {
      const char *end = strstr (p + 2, "*/");
      return end != NULL ? end + 2 : p + strlen (p);
    }
  return p;
}

char *
qm_db_rewrite_placeholders (const char *sql,
                            int        *n_params)
{
  GString *out = g_string_sized_new (strlen (sql) + 16);
  const char *p = sql;
  int highest = 0;

  while (*p != '\0')
    {
      const char *end = skip_quoted (p);

      if (end != p)
        {
          g_string_append_len (out, p, end - p);
          p = end;
        }
      else if (*p == '?')
        {
          int n;

          p++;
          if (g_ascii_isdigit (*p))
            {
              n = 0;
              while (g_ascii_isdigit (*p))
                n = n * 10 + (*p++ - '0');
            }
          else
            n = highest + 1;  /* SQLite numbers a bare ? after the highest so far */
          highest = MAX (highest, n);
          g_string_append_printf (out, "$%d", n);
        }
      else
        g_string_append_c (out, *p++);
    }
  *n_params = highest;
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Connection.                                                         */

gboolean
qm_db_is_connected (QmDb *db)
{
  return db->klass->connected == NULL || db->klass->connected (db);
}

gboolean
qm_db_reconnect (QmDb    *db,
                 int      timeout_ms,
                 GError **error)
{
  if (qm_db_is_connected (db))
    return TRUE;
  if (db->klass->reconnect (db, timeout_ms))
    {
      qm_db_clear_failure (db);
      return TRUE;
    }
  qm_db_fail (db, error, _("Could not connect again to %s"), db->location);
  return FALSE;
}

void
qm_db_disconnect (QmDb *db)
{
  if (db->klass->disconnect != NULL)
    db->klass->disconnect (db);
}
