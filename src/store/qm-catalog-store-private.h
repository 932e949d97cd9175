/* qm-catalog-store-private.h: what the files of the catalog store share
 * (qm-catalog-store.c, -user.c, -csv.c) and what the plan store uses to
 * write an entry a plan file carries.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-catalog-store.h"
#include "qm-store-private.h"

G_BEGIN_DECLS

/* One catalog entry's JSON text as an object. */
JsonObject   *qm_catalog_store_parse_json      (const char           *json,
                                                GError              **error);

/* Prepares @sql with ?1 bound to the kind's name and ?2 to @id, as every
 * "WHERE kind = ?1 AND id = ?2" statement wants. */
QmDbStmt     *qm_catalog_store_prepare_kind_id (QmStore              *store,
                                                const char           *sql,
                                                QmCatalogKind         kind,
                                                const char           *id,
                                                GError              **error);

/* Inserts (@old_id NULL) or rewrites one of the user's entries inside the
 * caller's transaction; @info is the parsed entry, @text its canonical
 * JSON. */
gboolean      qm_catalog_store_write_user      (QmStore              *store,
                                                QmCatalogKind         kind,
                                                const char           *old_id,
                                                const QmCatalogInfo  *info,
                                                const char           *text,
                                                GError              **error);

/* Sets the user's price of an entry, without checking that it exists,
 * inside the caller's transaction, and records the change. @revision as
 * for qm_catalog_store_set_price_override_at(). */
gboolean      qm_catalog_store_set_override    (QmStore              *store,
                                                QmCatalogKind         kind,
                                                const char           *id,
                                                double                price_usd,
                                                gint64                revision,
                                                gint64               *new_revision,
                                                GError              **error);

/* qm-catalog-store-history.c: records one price change inside the
 * caller's transaction. @old_price / @new_price NULL: no price. */
gboolean      qm_catalog_store_record_price    (QmStore              *store,
                                                QmCatalogKind         kind,
                                                const char           *id,
                                                gboolean              is_override,
                                                const double         *old_price,
                                                const double         *new_price,
                                                gint64                revision,
                                                GError              **error);

/* One price change, as qm_catalog_store_record_price() takes it. */
typedef struct
{
  QmCatalogKind  kind;
  const char    *id;
  gboolean       is_override;
  const double  *old_price;
  const double  *new_price;
  gint64         revision;
} QmCatalogPriceRecord;

/* Records @n price changes with one statement, in that order; the
 * statement is kept in @cache (qm_catalog_store_query_cached()) unless
 * that is NULL. */
gboolean      qm_catalog_store_record_prices   (QmStore                     *store,
                                                GHashTable                  *cache,
                                                const QmCatalogPriceRecord  *records,
                                                guint                        n,
                                                GError                     **error);

/* @n copies of @row (a VALUES row with ?1 ... ?@per_row), the k-th (from
 * 0) with its placeholders numbered on by k * @per_row: "(?1, ?2), (?3,
 * ?4)". One statement then writes or reads many rows, one round trip to
 * a server instead of one per row. */
char         *qm_catalog_store_values_sql      (const char           *row,
                                                guint                 per_row,
                                                guint                 n);

/* The statement for @sql from @cache (SQL text -> QmDbStmt), reset for
 * new bindings, or prepared and kept there: a batch of rows prepares
 * each of its statements once. */
QmDbStmt     *qm_catalog_store_query_cached    (QmStore              *store,
                                                GHashTable           *cache,
                                                const char           *sql,
                                                GError              **error);

/* Writes the valid rows of a CSV import (QmCsvRowPreview) inside the
 * caller's transaction: a few statements per 300 rows, with the same
 * rows, revisions, price history and errors as writing them one by one. */
gboolean      qm_catalog_store_write_rows      (QmStore              *store,
                                                GPtrArray            *rows,
                                                GError              **error);

/* qm_store_begin() and qm_store_commit() for a change to the catalog:
 * checks the role's right, and tells the other clients on commit. */
gboolean  qm_catalog_store_begin     (QmStore     *store,
                                      const char  *what,
                                      GError     **error);
gboolean  qm_catalog_store_commit    (QmStore     *store,
                                      const char  *what,
                                      GError     **error);

G_END_DECLS
