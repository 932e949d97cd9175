/* qm-supplier-store.h: the supplier a store's quotes are from (issue #35
 * item 2): name, address, VAT id, registration, contact and bank, one set
 * per store, so every member of a team prints the same letterhead. The
 * fields are QmSupplier's (qm-quote-json.h), one column each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-quote-json.h"
#include "qm-store.h"

G_BEGIN_DECLS

/* The store's supplier; every field "" when none was ever set. NULL only
 * with an error (the store cannot be read). */
QmSupplier *qm_supplier_store_get (QmStore           *store,
                                   GError           **error);
/* Replaces the store's supplier with @supplier (NULL fields are ""). */
gboolean    qm_supplier_store_set (QmStore           *store,
                                   const QmSupplier  *supplier,
                                   GError           **error);

G_END_DECLS
