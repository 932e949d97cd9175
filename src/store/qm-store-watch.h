/* qm-store-watch.h: hearing when another client of a team database
 * changes plans, the catalog or quotes (issue #23).
 *
 * Every save and delete through the store on PostgreSQL sends a
 * notification (NOTIFY) in its own transaction, so the server delivers it
 * when, and only if, the change commits. A window watches
 * qm_store_watch_fd() in its main loop and calls qm_store_watch_dispatch()
 * when it is readable. A file has nobody else to hear from: the fd is -1.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>

#include "qm-store.h"

G_BEGIN_DECLS

/* The channel, and what each payload names. */
#define QM_STORE_WATCH_CHANNEL "quartermaster"

typedef enum
{
  QM_STORE_CHANGE_NONE    = 0,
  QM_STORE_CHANGE_PLANS   = 1 << 0,  /* payload "plans" */
  QM_STORE_CHANGE_CATALOG = 1 << 1,  /* payload "catalog": entries and prices */
  QM_STORE_CHANGE_QUOTES  = 1 << 2,  /* payload "quotes": quotes and exchange rates */
  /* The watch lost the server: anything may have changed, and the fd is
   * closed; call qm_store_watch_fd() again to watch anew. */
  QM_STORE_CHANGE_LOST    = 1 << 7,
} QmStoreChange;

#define QM_STORE_CHANGE_ALL (QM_STORE_CHANGE_PLANS | QM_STORE_CHANGE_CATALOG | QM_STORE_CHANGE_QUOTES)

typedef void (*QmStoreWatchFunc) (QmStore       *store,
                                  QmStoreChange  changes,
                                  gpointer       user_data);

/* A file descriptor that becomes readable when another client changed
 * something; -1 on a file, or when the server cannot be reached (then
 * @error says why; it may be NULL). The store listens on a connection of
 * its own, so its queries never swallow a notification unseen; the first
 * call opens it. */
int            qm_store_watch_fd       (QmStore          *store,
                                        GError          **error);
/* The same without holding up the caller's thread: the connection, which
 * may wait up to QM_STORE_RECONNECT_TIMEOUT_MS on a server that does not
 * answer, is made in a worker thread, and the finish gives the fd (-1 on
 * a file, or with @error). The store must stay open until @callback runs,
 * unless @cancellable was cancelled first: then the store is not touched
 * again and the finish says G_IO_ERROR_CANCELLED. */
void           qm_store_watch_start_async  (QmStore             *store,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
int            qm_store_watch_start_finish (GAsyncResult        *result,
                                            GError             **error);
/* Reads the notifications waiting, without blocking, and calls @func
 * once with everything that changed (if anything did; the store's own
 * saves are left out). Returns the same. */
QmStoreChange  qm_store_watch_dispatch (QmStore          *store,
                                        QmStoreWatchFunc  func,
                                        gpointer          user_data);

/* The payload of one change, and back; NULL / NONE for anything else. */
const char    *qm_store_change_to_payload   (QmStoreChange  change);
QmStoreChange  qm_store_change_from_payload (const char    *payload);

G_END_DECLS
