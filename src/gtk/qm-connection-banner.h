/* qm-connection-banner.h: the window's banner while the team server is
 * unreachable: "Not connected to the team server. Changes are kept on
 * this computer." with a Retry button. It watches the store (no round
 * trip), tries again every QM_CONNECTION_BANNER_RETRY_SECONDS while
 * disconnected, and saves the recovery copies once the server is back
 * (qm-store-recovery.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "qm-store.h"

G_BEGIN_DECLS

#define QM_CONNECTION_BANNER_RETRY_SECONDS 10

#define QM_TYPE_CONNECTION_BANNER (qm_connection_banner_get_type ())
G_DECLARE_FINAL_TYPE (QmConnectionBanner, qm_connection_banner, QM, CONNECTION_BANNER, GtkWidget)

/* The banner holds a reference to @store, which may be NULL or a file: it then never
 * shows. Signals: "report" (const char *message), one per recovery copy
 * saved or refused and for a failed retry, for a toast; "recovered"
 * (guint n_saved) after plans were saved, for the plan list to reload. */
GtkWidget  *qm_connection_banner_new       (QmStore            *store);
/* Shows or hides the banner from what the store knows now. */
void        qm_connection_banner_update    (QmConnectionBanner *self);
/* What Retry does, but waiting for the answer: connects again if need be
 * (at most QM_STORE_RECONNECT_TIMEOUT_MS) and saves the pending recovery
 * copies. TRUE when connected afterwards. The Retry button and the
 * banner's own tries do the same in the background: the connect waits
 * in a worker thread, the button is insensitive meanwhile and the banner
 * says "Connecting to the team server…". */
gboolean    qm_connection_banner_retry     (QmConnectionBanner *self);
/* TRUE while a try started by Retry or the banner's tick is under way. */
gboolean    qm_connection_banner_is_trying (QmConnectionBanner *self);
gboolean    qm_connection_banner_is_shown  (QmConnectionBanner *self);
/* The app's first connect to the team server, under way while the
 * window already shows the plans on this computer (issue #34 item 2):
 * @connecting says "Connecting to the team server…" with a spinner; then
 * @why (the error's message, or NULL) says why the server could not be
 * used and that the plans on this computer stay open, and Retry
 * activates app.connect-team. FALSE and NULL: back to what the store
 * knows. */
void        qm_connection_banner_set_opening (QmConnectionBanner *self,
                                              gboolean            connecting,
                                              const char         *why);

G_END_DECLS
