/* qm-catalog-store.h: the catalog in the database: built-in entries (synced
 * from the shipped data), the user's own entries, price overrides, hiding,
 * and CSV import/export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-catalog-json.h"
#include "qm-csv.h"
#include "qm-store.h"

G_BEGIN_DECLS

/* One row of the catalog as the views show it. */
typedef struct
{
  QmCatalogKind kind;
  char         *id;
  char         *vendor;
  char         *name;
  char         *source;
  char         *as_of;
  gboolean      builtin;
  gboolean      hidden;          /* a built-in entry the user hid */
  double        list_price_usd;  /* the built-in (or user-entered) price */
  gboolean      has_override;
  double        override_usd;    /* the user's price, when has_override */
  double        price_usd;       /* what estimates use: the override, else the list price */
  char         *json;            /* the whole entry as catalog JSON (list price inside) */
  gint64        revision;        /* a user's entry: its revision (from 1); a built-in: 0 */
  gint64        override_revision; /* the price override's revision, 0 when there is none */
} QmCatalogEntry;

/* A save that names no revision to check: last writer wins. */
#define QM_CATALOG_ANY_REVISION ((gint64) -1)

/* One change of an entry's price, as the history keeps it. */
typedef struct
{
  QmCatalogKind kind;
  char         *id;
  gboolean      is_override;   /* the user's price override, else a user entry's own price */
  gboolean      has_old;       /* FALSE: there was no price (a new override or entry) */
  double        old_price_usd;
  gboolean      has_new;       /* FALSE: the price went (override cleared, entry deleted) */
  double        new_price_usd;
  char         *who;           /* the database user on a server, the OS user on a file */
  char         *changed_at;    /* UTC, ISO 8601: 2026-11-26T21:40:05.123456Z */
  gint64        revision;      /* the revision the change made */
} QmCatalogPriceChange;

void            qm_catalog_price_change_free (QmCatalogPriceChange *change);

void            qm_catalog_entry_free    (QmCatalogEntry *entry);
QmCatalogEntry *qm_catalog_entry_copy    (const QmCatalogEntry *entry);
/* For search-as-you-type in memory: TRUE when @needle (already casefolded
 * with g_utf8_casefold) occurs in the id, name or vendor. */
gboolean        qm_catalog_entry_matches (const QmCatalogEntry *entry,
                                          const char           *needle);
/* Parses the entry into the struct for its kind (see qm-catalog-json.h),
 * with info.price_usd set to the effective price. */
gboolean        qm_catalog_entry_parse   (const QmCatalogEntry *entry,
                                          gpointer              out,
                                          GError              **error);

typedef enum
{
  QM_CATALOG_LIST_NONE           = 0,
  QM_CATALOG_LIST_INCLUDE_HIDDEN = 1 << 0,
} QmCatalogListFlags;

/* The catalog version the built-in rows came from. */
char           *qm_catalog_store_version (QmStore  *store);
/* Re-syncs the built-in rows from qm_catalog_*() in one transaction when
 * the version changed (or @force). Hidden flags, user entries and price
 * overrides are kept. */
gboolean        qm_catalog_store_sync    (QmStore   *store,
                                          gboolean   force,
                                          gboolean  *synced,
                                          GError   **error);

/* Entries of @kind (or all kinds when @kind < 0), built-ins first in
 * catalog order, then the user's. @search, if not NULL or empty, matches
 * id, name and vendor (case-insensitive for ASCII). A GPtrArray of
 * QmCatalogEntry. */
GPtrArray      *qm_catalog_store_list    (QmStore             *store,
                                          int                  kind,
                                          const char          *search,
                                          QmCatalogListFlags   flags,
                                          GError             **error);
/* One entry; the user's entry wins over a built-in with the same id.
 * NULL with QM_STORE_ERROR_NOT_FOUND when there is none. */
QmCatalogEntry *qm_catalog_store_get     (QmStore        *store,
                                          QmCatalogKind   kind,
                                          const char     *id,
                                          GError        **error);
/* Like qm_catalog_store_get() + qm_catalog_entry_parse(). */
gboolean        qm_catalog_store_resolve (QmStore        *store,
                                          QmCatalogKind   kind,
                                          const char     *id,
                                          gpointer        out,
                                          GError        **error);

/* The user's own entries. @json is one catalog JSON object; it is checked
 * by the same parser as the shipped data and refused with an error naming
 * the key and value. Add refuses an id that exists (built-in or user);
 * update replaces the user entry @id (the JSON's id may rename it). */
gboolean        qm_catalog_store_add     (QmStore        *store,
                                          QmCatalogKind   kind,
                                          const char     *json,
                                          GError        **error);
gboolean        qm_catalog_store_update  (QmStore        *store,
                                          QmCatalogKind   kind,
                                          const char     *id,
                                          const char     *json,
                                          GError        **error);
/* Built-in entries cannot be deleted (QM_STORE_ERROR_INVALID): hide them. */
gboolean        qm_catalog_store_delete  (QmStore        *store,
                                          QmCatalogKind   kind,
                                          const char     *id,
                                          GError        **error);
gboolean        qm_catalog_store_set_hidden (QmStore       *store,
                                             QmCatalogKind  kind,
                                             const char    *id,
                                             gboolean       hidden,
                                             GError       **error);
gboolean        qm_catalog_store_set_price_override   (QmStore       *store,
                                                       QmCatalogKind  kind,
                                                       const char    *id,
                                                       double         price_usd,
                                                       GError       **error);
gboolean        qm_catalog_store_clear_price_override (QmStore       *store,
                                                       QmCatalogKind  kind,
                                                       const char    *id,
                                                       GError       **error);

/* The same three writes from a copy read at @revision (the entry's
 * revision, or its override_revision; 0 for "no override yet"), or
 * QM_CATALOG_ANY_REVISION. When someone else changed it meanwhile,
 * nothing is written and the error is QM_STORE_ERROR_CONFLICT, naming the
 * entry and both revisions. @new_revision (may be NULL) gets the revision
 * saved. */
gboolean        qm_catalog_store_update_at (QmStore        *store,
                                            QmCatalogKind   kind,
                                            const char     *id,
                                            const char     *json,
                                            gint64          revision,
                                            gint64         *new_revision,
                                            GError        **error);
gboolean        qm_catalog_store_set_price_override_at   (QmStore       *store,
                                                          QmCatalogKind  kind,
                                                          const char    *id,
                                                          double         price_usd,
                                                          gint64         revision,
                                                          gint64        *new_revision,
                                                          GError       **error);
gboolean        qm_catalog_store_clear_price_override_at (QmStore       *store,
                                                          QmCatalogKind  kind,
                                                          const char    *id,
                                                          gint64         revision,
                                                          GError       **error);

/* Every recorded change of the price of the entry @kind @id (its
 * override and, for a user's entry, its own price), newest first. A
 * GPtrArray of QmCatalogPriceChange; empty when the price never changed. */
GPtrArray      *qm_catalog_store_price_history (QmStore        *store,
                                                QmCatalogKind   kind,
                                                const char     *id,
                                                GError        **error);

/* ------------------------------------------------------------------ */
/* Copying the user's catalog to another database (db copy).           */

typedef struct
{
  const char *label;      /* "user entries", "price overrides", "price changes" */
  guint       n_rows;     /* rows in FROM */
  guint       written;    /* rows TO lacked or had otherwise */
  guint       unchanged;  /* rows TO had already as FROM has them */
  char        hash[65];   /* SHA-256 (hex) of FROM's rows, which TO's now match */
  gboolean    skipped;    /* not copied: a team server's price history is its own
                           * record, which only the server's owner may copy into */
} QmCatalogCopyPart;

typedef struct
{
  QmCatalogCopyPart parts[3];
} QmCatalogCopyResult;

/* Copies the user's entries, price overrides and price history from
 * @from to @to (revisions and times as they are) in one transaction of
 * @to, and before committing checks that @to holds every row of @from
 * with equal content (count and SHA-256). Safe to run again; @to's own
 * rows that @from lacks are kept. Built-in rows are not copied: each
 * database syncs its own. */
gboolean         qm_catalog_store_copy (QmStore              *from,
                                        QmStore              *to,
                                        QmCatalogCopyResult  *result,
                                        GError              **error);

/* ------------------------------------------------------------------ */
/* CSV import: a preview first, then a commit.                         */

typedef struct
{
  guint  row;      /* spreadsheet row: the header is row 1 */
  guint  line;     /* line in the file where the row starts */
  char  *column;   /* CSV column name, or NULL for the whole row */
  char  *problem;
  char  *value;    /* the cell as found, or NULL */
} QmCsvRowError;

typedef enum
{
  QM_CSV_ROW_ADD,     /* a new user entry */
  QM_CSV_ROW_UPDATE,  /* changes an existing user entry */
  QM_CSV_ROW_PRICE,   /* a price override on a built-in entry */
} QmCsvRowAction;

typedef struct
{
  guint          row;
  QmCatalogKind  kind;
  char          *id;
  char          *name;
  QmCsvRowAction action;
  double         price_usd;
  char          *json;     /* the entry to write (ADD/UPDATE) */
} QmCsvRowPreview;

typedef struct
{
  char        *source;   /* the file name, for messages */
  QmCsvDialect dialect;  /* as read: detected, or as the caller chose */
  guint        n_rows;   /* data rows, header excluded */
  GPtrArray   *rows;     /* QmCsvRowPreview: the valid rows */
  GPtrArray   *errors;   /* QmCsvRowError: every problem of every bad row */
  GPtrArray   *warnings; /* char *: e.g. an unknown column that was ignored */
  guint        unchanged; /* built-in rows whose price already is the file's: nothing to write */
} QmCatalogImport;

void             qm_catalog_import_free        (QmCatalogImport *import);
/* One line per problem: "FILE: row 4, column price_usd: must be a number
 * >= 0 (got "-5")". */
char            *qm_catalog_import_describe    (QmCatalogImport *import);

/* Columns are the catalog JSON keys (id, name, vendor, price_usd,
 * memory_gb ...; tflops_bf16 for tflops.bf16; type for a storage or
 * facility entry's own kind) plus an optional kind column. A row whose id
 * is a built-in entry sets a price override from price_usd; a row whose id
 * is a user entry updates the cells given; any other row adds an entry.
 * @default_kind (or < 0) applies to rows without a kind. Reads and checks
 * everything, writes nothing. NULL with an error only when the file as a
 * whole is unusable (not UTF-8, a broken quote, no id column). */
QmCatalogImport *qm_catalog_store_import_csv_preview (QmStore      *store,
                                                      const char   *data,
                                                      gsize         length,
                                                      const char   *source,
                                                      int           default_kind,
                                                      GError      **error);
/* The same, with the separator and decimal mark of @dialect where they
 * are not 0 (the user corrected what was detected); NULL detects both.
 * Headers may be the keys or the labels the app shows (see
 * qm_catalog_key_for_header()). The errors name @source once:
 * "de.csv, row 1: ...". */
QmCatalogImport *qm_catalog_store_import_csv_preview_dialect (QmStore            *store,
                                                              const char         *data,
                                                              gsize               length,
                                                              const char         *source,
                                                              int                 default_kind,
                                                              const QmCsvDialect *dialect,
                                                              GError            **error);
/* Writes the valid rows in one transaction. Without @skip_invalid, any bad
 * row fails the whole import with QM_STORE_ERROR_INVALID listing every bad
 * row, and nothing is written (docs/cli.md). */
gboolean         qm_catalog_store_import_csv_commit  (QmStore          *store,
                                                      QmCatalogImport  *import,
                                                      gboolean          skip_invalid,
                                                      guint            *n_written,
                                                      GError          **error);

/* The entries qm_catalog_store_list() would return, as CSV (UTF-8, CRLF)
 * that qm_catalog_store_import_csv_preview() reads back. */
char            *qm_catalog_store_export_csv (QmStore             *store,
                                              int                  kind,
                                              const char          *search,
                                              QmCatalogListFlags   flags,
                                              gsize               *length,
                                              GError             **error);
/* The same in @dialect: its separator and decimal mark, and Excel's
 * "sep=" line first when it asks for one. */
char            *qm_catalog_store_export_csv_dialect (QmStore             *store,
                                                      int                  kind,
                                                      const char          *search,
                                                      QmCatalogListFlags   flags,
                                                      const QmCsvDialect  *dialect,
                                                      gsize               *length,
                                                      GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmCatalogEntry, qm_catalog_entry_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmCatalogPriceChange, qm_catalog_price_change_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmCatalogImport, qm_catalog_import_free)

G_END_DECLS
