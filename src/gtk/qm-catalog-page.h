/* qm-catalog-page.h: the Catalog page: a sortable, searchable table per
 * kind of entry (GPUs, servers, network, storage, facility, cloud, models),
 * a details pane with every figure's source and date, the user's own
 * entries and price overrides, and CSV import/export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-catalog-item.h"
#include "qm-catalog-store.h"

G_BEGIN_DECLS

#define QM_TYPE_CATALOG_PAGE (qm_catalog_page_get_type ())
G_DECLARE_FINAL_TYPE (QmCatalogPage, qm_catalog_page, QM, CATALOG_PAGE, AdwBin)

/* The page holds a reference to @store. */
GtkWidget     *qm_catalog_page_new             (QmStore       *store);
QmStore       *qm_catalog_page_get_store       (QmCatalogPage *self);

QmCatalogKind  qm_catalog_page_get_kind        (QmCatalogPage *self);
void           qm_catalog_page_set_kind        (QmCatalogPage *self,
                                                QmCatalogKind  kind);
/* The search text: applied at once, as if typed and the typing paused. */
void           qm_catalog_page_set_search_text (QmCatalogPage *self,
                                                const char    *text);
const char    *qm_catalog_page_get_search_text (QmCatalogPage *self);
/* Vendor and second filter (form factor, technology ...); NULL for all. */
void           qm_catalog_page_set_vendor      (QmCatalogPage *self,
                                                const char    *vendor);
void           qm_catalog_page_set_type_filter (QmCatalogPage *self,
                                                const char    *value);

/* The rows of the current kind as shown: filtered and sorted. Items are
 * QmCatalogItem. */
GListModel    *qm_catalog_page_get_model       (QmCatalogPage *self);
GtkColumnView *qm_catalog_page_get_column_view (QmCatalogPage *self,
                                                QmCatalogKind  kind);
/* The column of the current kind showing field @key ("memory_gb"), or
 * "name", "vendor", "price", "origin", "as_of"; NULL when not shown. */
GtkColumnViewColumn *qm_catalog_page_get_column (QmCatalogPage *self,
                                                 const char    *key);

/* Selects the entry @id of the current kind; FALSE when it is not shown. */
gboolean       qm_catalog_page_select          (QmCatalogPage *self,
                                                const char    *id);
QmCatalogItem *qm_catalog_page_get_selected    (QmCatalogPage *self);

/* Re-reads every entry from the store (after a change made elsewhere). */
void           qm_catalog_page_reload          (QmCatalogPage *self);
/* Puts keyboard focus in the search entry (Ctrl+F). */
void           qm_catalog_page_focus_search    (QmCatalogPage *self);
/* The CSV of the current view, in its order (what Export writes). */
char          *qm_catalog_page_export_csv      (QmCatalogPage *self,
                                                gsize         *length,
                                                GError       **error);
/* The same in @dialect (qm-csv.h). */
char          *qm_catalog_page_export_csv_dialect (QmCatalogPage      *self,
                                                   const QmCsvDialect *dialect,
                                                   gsize              *length,
                                                   GError            **error);

G_END_DECLS
