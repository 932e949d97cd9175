/* qm-store.h: the SQLite database behind the catalog and the saved plans.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
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
} QmStoreError;

typedef struct _QmStore QmStore;

GQuark      qm_store_error_quark       (void);

/* The default database: $XDG_DATA_HOME/quartermaster/quartermaster.db,
 * or $QM_DB when set (tests and scripts). */
char       *qm_store_default_path      (void);

/* Opens (creating if needed) and migrates the database to the current
 * schema. Fails, without touching the file, on one from a newer version. */
QmStore    *qm_store_open              (const char  *path,
                                        GError     **error);
void        qm_store_free              (QmStore     *store);

int         qm_store_schema_version    (QmStore     *store);
const char *qm_store_path              (QmStore     *store);
sqlite3    *qm_store_db                (QmStore     *store);

/* The newest schema this build knows. */
int         qm_store_latest_version    (void);

/* Maps the last SQLite error of @db to a QmStoreError with a message that
 * starts with @what (what was being done). */
void        qm_store_set_error         (GError     **error,
                                        sqlite3     *db,
                                        int          rc,
                                        const char  *what);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmStore, qm_store_free)

G_END_DECLS
