/* qm-catalog-item.h: one catalog entry as a list item for the catalog
 * page, and how each kind and field is shown. The fields themselves are
 * core's (qm_catalog_fields() in qm-catalog-json.h): columns, details and
 * the edit form all read that one table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "qm-catalog-store.h"

G_BEGIN_DECLS

/* The field whose values the second filter of the page offers (form factor,
 * technology, type, GPU), or -1 when the kind has none. Servers take their
 * GPU's form factor. */
int                   qm_catalog_kind_filter_field (QmCatalogKind kind);
/* "All Form Factors" and such, translated. */
const char           *qm_catalog_kind_filter_all   (QmCatalogKind kind);
/* "GPUs", "Servers" ..., translated. */
const char           *qm_catalog_kind_title        (QmCatalogKind kind);
/* "GPU", "Server" ..., translated: for "New GPU". */
const char           *qm_catalog_kind_singular     (QmCatalogKind kind);
/* TRUE when the kind's price_usd means something (not cloud offers or models). */
gboolean              qm_catalog_kind_has_price    (QmCatalogKind kind);

/* @value with its unit, for people: "989 TFLOPS", "$25,000", "175 B". */
char                 *qm_catalog_field_format      (const QmCatalogField *field,
                                                    double                value);
/* A price, or "—" for none. */
char                 *qm_catalog_format_price      (double price_usd);
/* "2025-06-01" → "1 Jun 2025"; anything else is returned as it is. */
char                 *qm_catalog_format_date       (const char *iso);

/* @entry's JSON as an object (a new reference), or NULL when it has none. */
JsonObject           *qm_catalog_entry_to_object   (const QmCatalogEntry *entry);

/* A filter value as people read it: "sxm" → "SXM", a GPU id → its name. */
const char           *qm_catalog_pretty_value      (const char *value);

#define QM_TYPE_CATALOG_ITEM (qm_catalog_item_get_type ())
G_DECLARE_FINAL_TYPE (QmCatalogItem, qm_catalog_item, QM, CATALOG_ITEM, GObject)

/* Takes @entry. */
QmCatalogItem        *qm_catalog_item_new          (QmCatalogEntry *entry);
const QmCatalogEntry *qm_catalog_item_get_entry    (QmCatalogItem  *self);
QmCatalogKind         qm_catalog_item_get_kind     (QmCatalogItem  *self);
const char           *qm_catalog_item_get_id       (QmCatalogItem  *self);
const char           *qm_catalog_item_get_name     (QmCatalogItem  *self);
/* Interned, or NULL. */
const char           *qm_catalog_item_get_vendor   (QmCatalogItem  *self);
/* The value for the kind's filter field (interned), or NULL. */
const char           *qm_catalog_item_get_filter_value (QmCatalogItem *self);
/* Field @index of qm_catalog_fields(): NAN when absent. */
double                qm_catalog_item_get_number   (QmCatalogItem  *self,
                                                    guint           index);
/* Text of field @index (interned), or NULL when absent. */
const char           *qm_catalog_item_get_text     (QmCatalogItem  *self,
                                                    guint           index);
/* Field @index as people read it ("80 GB", "SXM", a GPU's name), or NULL
 * when absent. */
char                 *qm_catalog_item_format       (QmCatalogItem  *self,
                                                    guint           index);
/* The value for sorting field @index: absent sorts as 0. */
double                qm_catalog_item_sort_value   (QmCatalogItem  *self,
                                                    guint           index);
/* @needle casefolded with g_utf8_casefold(); matches id, name and vendor. */
gboolean              qm_catalog_item_matches      (QmCatalogItem  *self,
                                                    const char     *needle);

G_END_DECLS
