/* qm-quote-store-private.h: what the files of the quote store share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-quote-store.h"
#include "qm-store-private.h"

G_BEGIN_DECLS

/* One row of a list query as a new item, or NULL to leave the row out. */
typedef gpointer (*QmQuoteRowFunc) (QmDbStmt *stmt,
                                    gpointer  user_data);

/* Steps the prepared, bound @stmt to its end into a new array of what
 * @row gives; NULL with the error "WHAT in PATH: cause" when a step fails. */
GPtrArray *qm_quote_store_collect (QmStore        *store,
                                   QmDbStmt       *stmt,
                                   QmQuoteRowFunc  row,
                                   GDestroyNotify  free_func,
                                   gpointer        user_data,
                                   const char     *what,
                                   GError        **error);

/* Inside a writer's transaction: holds the quote numbering until it ends,
 * so two clients never take the same quote number or revision letter. */
gboolean   qm_quote_store_lock_numbering (QmStore     *store,
                                          const char  *what,
                                          GError     **error);

G_END_DECLS
