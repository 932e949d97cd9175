/* qm-store-watch.c: NOTIFY on save (qm_store_notify) and LISTEN on a
 * second connection (qm_store_watch_fd, qm_store_watch_dispatch).
 *
 * Why a second connection: libpq reads notifications along with any
 * query's answer and keeps them queued, so on the store's own connection
 * a list or a load could take one off the socket and the main loop would
 * never wake for it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-store-private.h"
#include "qm-store-recovery.h"
#include "qm-store-watch.h"

struct _QmStoreWatch
{
  QmDb *listener;
  /* What each kind of data looked like when a change of it was last
   * reported (fingerprint()), by payload; NULL before the first. */
  char *seen[3];
};

static const struct
{
  QmStoreChange  change;
  const char    *payload;
} payloads[] = {
  { QM_STORE_CHANGE_PLANS, "plans" },
  { QM_STORE_CHANGE_CATALOG, "catalog" },
  { QM_STORE_CHANGE_QUOTES, "quotes" },
};

const char *
qm_store_change_to_payload (QmStoreChange change)
{
  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    if (payloads[i].change == change)
      return payloads[i].payload;
  return NULL;
}

QmStoreChange
qm_store_change_from_payload (const char *payload)
{
  for (guint i = 0; payload != NULL && i < G_N_ELEMENTS (payloads); i++)
    if (strcmp (payloads[i].payload, payload) == 0)
      return payloads[i].change;
  return QM_STORE_CHANGE_NONE;
}

gboolean
qm_store_notify (QmStore  *store,
                 guint     changes,
                 GError  **error)
{
  QmDb *db = qm_store_connection (store);
  g_autoptr(QmDbStmt) stmt = NULL;

  if (qm_db_engine (db) != QM_DB_POSTGRESQL)
    return TRUE;
  /* The server folds the same payload sent twice in one transaction. */
  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    {
      if (!(changes & payloads[i].change))
        continue;
      if (stmt == NULL &&
          (stmt = qm_store_query (store, "SELECT pg_notify (?1, ?2)", error)) == NULL)
        return FALSE;
      qm_db_reset (stmt);
      qm_db_bind_text (stmt, 1, QM_STORE_WATCH_CHANNEL);
      qm_db_bind_text (stmt, 2, payloads[i].payload);
      if (qm_db_step (stmt) != QM_DB_STEP_ROW)
        {
          qm_store_db_fail (store, error, _("Could not tell the others about the change"));
          return FALSE;
        }
    }
  return TRUE;
}

void
qm_store_watch_free (QmStoreWatch *watch)
{
  if (watch == NULL)
    return;
  g_clear_pointer (&watch->listener, qm_db_free);
  for (guint i = 0; i < G_N_ELEMENTS (watch->seen); i++)
    g_free (watch->seen[i]);
  g_free (watch);
}

/* Listens on @listener (taken; NULL when it could not be opened, with
 * @error set) and keeps it as the store's watch, unless another start
 * got there first. */
static int
watch_with (QmStore  *store,
            QmDb     *listener,
            GError  **error)
{
  QmStoreWatch **slot = qm_store_watch_slot (store);
  g_autoptr(QmDb) owned = listener;

  if (owned == NULL)
    return -1;
  if (*slot != NULL)
    return qm_db_socket ((*slot)->listener);
  /* The channel is our constant: LISTEN takes no parameter. */
  if (!qm_db_exec (owned, "LISTEN " QM_STORE_WATCH_CHANNEL, error))
    return -1;
  *slot = g_new0 (QmStoreWatch, 1);
  (*slot)->listener = g_steal_pointer (&owned);
  return qm_db_socket ((*slot)->listener);
}

int
qm_store_watch_fd (QmStore  *store,
                   GError  **error)
{
  QmStoreWatch **slot = qm_store_watch_slot (store);
  QmDb *db = qm_store_connection (store);

  if (qm_db_engine (db) != QM_DB_POSTGRESQL)
    return -1;
  if (*slot != NULL)
    return qm_db_socket ((*slot)->listener);
  return watch_with (store, qm_db_open_another (db, QM_STORE_RECONNECT_TIMEOUT_MS, error), error);
}

static int
take_listener (QmStore      *store,
               QmDbAttempt  *attempt,
               GError      **error)
{
  return watch_with (store, qm_db_attempt_open (qm_store_connection (store), attempt, error), error);
}

void
qm_store_watch_start_async (QmStore             *store,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  QmStoreWatch **slot = qm_store_watch_slot (store);
  QmDb *db = qm_store_connection (store);

  g_task_set_source_tag (task, qm_store_watch_start_async);
  if (qm_db_engine (db) == QM_DB_POSTGRESQL && *slot == NULL)
    {
      qm_store_connect_async (store, task, take_listener);
      return;
    }
  /* A file (-1), or a store watched already: the answer is known. */
  g_task_return_int (task, *slot != NULL ? qm_db_socket ((*slot)->listener) : -1);
  g_object_unref (task);
}

int
qm_store_watch_start_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), -1);

  return (int) g_task_propagate_int (G_TASK (result), error);
}

/* A notice is verified against the data before a window reloads (issue
 * #33 item 6): any member of the team may send NOTIFY on the channel (500
 * fake notices made a listening window refresh 20 times). Each kind of
 * data has a fingerprint that every change through the store moves
 * (counts, revisions, newest times); a notice whose data looks as it did
 * at the last change reported is dropped. Read on the store's own
 * connection, which does not LISTEN, so no notice is taken off the
 * listener's socket unseen. */
static const char * const fingerprint_sql[G_N_ELEMENTS (payloads)] = {
  /* plans: saved (revision, modified), trashed or restored, deleted */
  "SELECT count (*) || ':' || coalesce (sum (revision), 0) || ':' || coalesce (max (modified), 0)"
  " || ':' || count (trashed_session) FROM plan",
  /* catalog: user entries, price overrides (each change a new revision;
   * a cleared and set again one goes past the old), hidden built-ins */
  "SELECT (SELECT count (*) || ':' || coalesce (sum (revision), 0) FROM catalog_user)"
  " || '/' || (SELECT count (*) || ':' || coalesce (sum (revision), 0) FROM catalog_override)"
  " || '/' || (SELECT count (*) FROM catalog_builtin WHERE hidden = 1)",
  /* quotes: quotes, their revisions, exchange rates */
  "SELECT (SELECT count (*) || ':' || coalesce (max (modified), 0) FROM quote)"
  " || '/' || (SELECT count (*) FROM quote_revision)"
  " || '/' || (SELECT count (*) || ':' || coalesce (sum (rate_per_usd), 0) FROM exchange_rate)",
};

/* NULL when it cannot be read: the notice then counts. */
static char *
fingerprint (QmStore *store,
             guint    kind)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, fingerprint_sql[kind], NULL);

  if (stmt == NULL || qm_db_step (stmt) != QM_DB_STEP_ROW)
    return NULL;
  return g_strdup (qm_db_column_text (stmt, 0));
}

/* @changes less the kinds whose data did not move since last reported. */
static guint
verified (QmStore      *store,
          QmStoreWatch *watch,
          guint         changes)
{
  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    {
      g_autofree char *now = NULL;

      if (!(changes & payloads[i].change) || (now = fingerprint (store, i)) == NULL)
        continue;
      if (g_strcmp0 (now, watch->seen[i]) == 0)
        changes &= ~payloads[i].change;
      else
        {
          g_free (watch->seen[i]);
          watch->seen[i] = g_steal_pointer (&now);
        }
    }
  return changes;
}

QmStoreChange
qm_store_watch_dispatch (QmStore          *store,
                         QmStoreWatchFunc  func,
                         gpointer          user_data)
{
  QmStoreWatch **slot = qm_store_watch_slot (store);
  g_autoptr(GPtrArray) got = NULL;
  guint changes = QM_STORE_CHANGE_NONE;

  if (*slot == NULL)
    return QM_STORE_CHANGE_NONE;
  /* The store's own saves come from its main connection: the window
   * that made them has shown them already. */
  got = qm_db_take_notifications ((*slot)->listener, QM_STORE_WATCH_CHANNEL,
                                  qm_db_backend_pid (qm_store_connection (store)));
  if (got == NULL)
    {
      g_debug ("Stopped watching %s: %s", qm_store_path (store),
               qm_db_last_message ((*slot)->listener));
      g_clear_pointer (slot, qm_store_watch_free);
      changes = QM_STORE_CHANGE_ALL | QM_STORE_CHANGE_LOST;
    }
  for (guint i = 0; got != NULL && i < got->len; i++)
    changes |= qm_store_change_from_payload (got->pdata[i]);
  if (got != NULL && changes != QM_STORE_CHANGE_NONE)
    changes = verified (store, *slot, changes);
  if (changes != QM_STORE_CHANGE_NONE && func != NULL)
    func (store, changes, user_data);
  return changes;
}
