/* qm-catalog-slots.h: a list model of stable row objects over another
 * list model, for GTK 4.8's list widgets.
 *
 * GTK 4.8's GtkListView/GtkColumnView keep ~200 rows of widgets and, when
 * the items under them change identity (a filter change), destroy those
 * rows and build new ones: 50-150 ms with 5,000 entries. Here row i is
 * always the same QmCatalogSlot, whose :item changes; the view keeps its
 * rows and the cells rebind, which takes a few milliseconds. Only a change
 * in length reaches the view as items-changed (GTK 4.12 recycles rows
 * itself, and this goes away).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "qm-catalog-item.h"

G_BEGIN_DECLS

#define QM_TYPE_CATALOG_SLOT (qm_catalog_slot_get_type ())
G_DECLARE_FINAL_TYPE (QmCatalogSlot, qm_catalog_slot, QM, CATALOG_SLOT, GObject)

/* The item shown in this row now; notifies :item when it changes. */
QmCatalogItem *qm_catalog_slot_get_item (QmCatalogSlot *self);

#define QM_TYPE_CATALOG_SLOTS (qm_catalog_slots_get_type ())
G_DECLARE_FINAL_TYPE (QmCatalogSlots, qm_catalog_slots, QM, CATALOG_SLOTS, GObject)

/* @model: a GListModel of QmCatalogItem. */
QmCatalogSlots *qm_catalog_slots_new (GListModel *model);

G_END_DECLS
