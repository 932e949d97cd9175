/* qm-store-recovery.h: when the team server goes away (it stops, the
 * network drops), a plan save is not lost: qm_plan_store_save() keeps the
 * edit in a recovery copy on this computer, and qm_store_recovery_flush()
 * saves the pending copies once the server is back (issue #23, faults).
 *
 * A recovery copy is a plan file (docs/plan-file.md) in the recovery
 * folder beside the default database, with a "recovery" member naming
 * the server, the plan's id and the revision the edit started from, and
 * the plan's list columns and snapshot. It is removed only once a save of
 * it (or a later save of the same edit) has committed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "qm-plan-store.h"
#include "qm-store.h"

G_BEGIN_DECLS

/* How long a reconnect may wait for the server, all addresses and the
 * handshake included: the longest a poll can hold up the caller. */
#define QM_STORE_RECONNECT_TIMEOUT_MS 3000

typedef enum
{
  QM_RECOVERY_SAVED,         /* saved over the revision it started from */
  QM_RECOVERY_SAVED_AS_COPY, /* the plan changed (or went) meanwhile: saved
                              * as a new plan next to theirs */
  QM_RECOVERY_PENDING,       /* not saved yet; the copy stays */
} QmRecoveryOutcome;

/* What became of one recovery copy. */
typedef struct
{
  char              *path;      /* the copy on this computer */
  char              *name;      /* the plan's name */
  gint64             plan_id;   /* the plan it was an edit of; 0 = new */
  gint64             revision;  /* ... and the revision it started from */
  QmRecoveryOutcome  outcome;
  gint64             saved_id;  /* the plan now holding the edit, or 0 */
  char              *message;   /* the outcome in a sentence */
} QmRecoveryResult;

void        qm_recovery_result_free   (QmRecoveryResult *result);

/* $XDG_DATA_HOME/quartermaster/recovery: beside the default database
 * (qm_store_default_path(), so $QM_DB moves it too). */
char       *qm_store_recovery_dir     (void);

/* FALSE when the team server's connection is known to be down (no round
 * trip: cheap to poll). Always TRUE for a file. */
gboolean    qm_store_is_connected     (QmStore   *store);
/* Connects again when the connection is down, waiting at most
 * QM_STORE_RECONNECT_TIMEOUT_MS; TRUE at once when it is up. A server
 * whose schema changed meanwhile (a newer Quartermaster upgraded it) is
 * refused with QM_STORE_ERROR_TOO_NEW and left disconnected, untouched. */
gboolean    qm_store_reconnect        (QmStore   *store,
                                       GError   **error);
/* The same without holding up the caller's thread: the network part runs
 * in a worker thread on a connection of its own, and the store takes it
 * up (and checks the schema) on the caller's thread before @callback
 * runs; the finish then says what qm_store_reconnect() would have. The
 * store must stay open until @callback runs, unless @cancellable was
 * cancelled first: then the store is not touched again and the finish
 * says G_IO_ERROR_CANCELLED. */
void        qm_store_reconnect_async  (QmStore             *store,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
gboolean    qm_store_reconnect_finish (GAsyncResult        *result,
                                       GError             **error);

/* The recovery copies waiting for this store's server, oldest first (a
 * GPtrArray of paths). Empty for a file. */
GPtrArray  *qm_store_recovery_pending (QmStore   *store);
/* Reconnects if need be, then saves each pending copy of this server:
 * over its revision when nobody changed the plan meanwhile, else (a
 * conflict, or the plan was deleted) as a new plan beside theirs, so both
 * are kept. A GPtrArray of QmRecoveryResult, one per copy; NULL with
 * @error when the server cannot be reached (the copies stay). */
GPtrArray  *qm_store_recovery_flush   (QmStore   *store,
                                       GError   **error);

/* For qm_plan_store_save(). */

/* A save tries once to connect again (the server restarted while the
 * app sat idle), waiting less than Retry does: a save while the network
 * is gone must not hold the window up for long. */
#define QM_STORE_SAVE_RECONNECT_TIMEOUT_MS 1000
gboolean    qm_store_reconnect_within (QmStore   *store,
                                       int        timeout_ms,
                                       GError   **error);
/* TRUE when the last failure on @store was its server going away. */
gboolean    qm_store_connection_lost  (QmStore   *store);
/* Keeps @plan (the caller's copy, as it was to be saved) in a recovery
 * copy, and rewrites @error (the failed save's) to say so, or, when even
 * the copy could not be written, to say that as well. @modified is the
 * time the failed save wrote (0 if it got no that far), so a save that
 * reached the server before the answer was lost is known as saved. */
void        qm_store_recovery_keep    (QmStore            *store,
                                       const QmSavedPlan  *plan,
                                       gint64              modified,
                                       GError            **error);
/* After a committed save of @plan (as it was before the save): its
 * recovery copy, if this session kept it from the same revision, is
 * superseded. */
void        qm_store_recovery_forget  (QmStore            *store,
                                       const QmSavedPlan  *plan);

/* The revision a save of @plan is checked against: the one its recovery
 * copy was saved as, when this session saved it from @plan's revision
 * (the window still holds the plan as it was), else @plan's. */
gint64      qm_store_recovery_rebase  (QmStore            *store,
                                       const QmSavedPlan  *plan);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmRecoveryResult, qm_recovery_result_free)

G_END_DECLS
