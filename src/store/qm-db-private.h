/* qm-db-private.h: what qm-db.c shares with the two engines
 * (qm-db-sqlite.c, qm-db-pg.c): each fills a table of functions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-db.h"

G_BEGIN_DECLS

typedef struct
{
  QmDbEngine   engine;
  void         (*close)          (QmDb *db);
  gboolean     (*exec)           (QmDb *db, const char *sql);
  const char  *begin_sql;
  gboolean     (*in_transaction) (QmDb *db);
  gint64       (*changes)        (QmDb *db);
  gint64       (*last_insert_id) (QmDb *db);
  int          (*schema_version) (QmDb *db);
  const char  *lock_schema_sql;  /* NULL: nothing to do */
  gboolean     (*set_schema_version) (QmDb *db, int version);
  char        *(*translate_ddl)  (const char *sql);

  QmDbStmt    *(*prepare)        (QmDb *db, const char *sql);
  void         (*stmt_free)      (QmDbStmt *stmt);
  int          (*param_count)    (QmDbStmt *stmt);
  void         (*bind_text)      (QmDbStmt *stmt, int index, const char *text);
  void         (*bind_int64)     (QmDbStmt *stmt, int index, gint64 value);
  void         (*bind_double)    (QmDbStmt *stmt, int index, double value);
  void         (*bind_null)      (QmDbStmt *stmt, int index);
  QmDbStep     (*step)           (QmDbStmt *stmt);
  void         (*reset)          (QmDbStmt *stmt);
  int          (*column_count)   (QmDbStmt *stmt);
  gboolean     (*column_is_null) (QmDbStmt *stmt, int column);
  const char  *(*column_text)    (QmDbStmt *stmt, int column);
  gint64       (*column_int64)   (QmDbStmt *stmt, int column);
  double       (*column_double)  (QmDbStmt *stmt, int column);

  /* A server connection (NULL on SQLite: a file is always there). */
  gboolean     (*connected)      (QmDb *db);
  gboolean     (*reconnect)      (QmDb *db, int timeout_ms);
  void         (*disconnect)     (QmDb *db);
} QmDbClass;

/* Every connection starts with this; the engine's own fields follow. */
struct _QmDb
{
  const QmDbClass *klass;
  char            *location;   /* path, or the URI without its password */
  QmStoreError     last_code;
  char            *last_message;
};

struct _QmDbStmt
{
  QmDb *db;
};

extern const QmDbClass qm_db_sqlite_class;
extern const QmDbClass qm_db_pg_class;

/* Remembers a failure on @db: its code and the cause in words. */
void      qm_db_set_failure   (QmDb          *db,
                               QmStoreError   code,
                               const char    *format,
                               ...) G_GNUC_PRINTF (3, 4);
void      qm_db_clear_failure (QmDb          *db);
/* What a QmStoreError means, in words a procurement officer can act on;
 * NULL for QM_STORE_ERROR_FAILED and the like, where the engine's text
 * is all there is. */
const char *qm_db_explain     (QmStoreError   code);

/* A SQLite result code as a QmStoreError. */
QmStoreError qm_db_sqlite_code (int rc);

/* SQLite's opener (qm-db-sqlite.c) and PostgreSQL's (qm-db-pg.c). */
QmDb     *qm_db_sqlite_open   (const char    *path,
                               QmDbOpenFlags  flags,
                               GError       **error);
QmDb     *qm_db_pg_open       (const char    *uri,
                               QmDbOpenFlags  flags,
                               GError       **error);

/* @sql with each ?N (or bare ?) outside quotes and comments rewritten to
 * $N; *n_params gets the highest number. */
char     *qm_db_rewrite_placeholders (const char *sql,
                                      int        *n_params);

G_END_DECLS
