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

#include "qm-store-private.h"
#include "qm-store-watch.h"

struct _QmStoreWatch
{
  QmDb *listener;
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
          qm_store_db_fail (store, error, "Could not tell the others about the change");
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
  g_free (watch);
}

int
qm_store_watch_fd (QmStore  *store,
                   GError  **error)
{
  QmStoreWatch **slot = qm_store_watch_slot (store);
  QmDb *db = qm_store_connection (store);
  g_autoptr(QmDb) listener = NULL;

  if (qm_db_engine (db) != QM_DB_POSTGRESQL)
    return -1;
  if (*slot != NULL)
    return qm_db_socket ((*slot)->listener);
  if ((listener = qm_db_open_another (db, error)) == NULL)
    return -1;
  /* The channel is our constant: LISTEN takes no parameter. */
  if (!qm_db_exec (listener, "LISTEN " QM_STORE_WATCH_CHANNEL, error))
    return -1;
  *slot = g_new0 (QmStoreWatch, 1);
  (*slot)->listener = g_steal_pointer (&listener);
  return qm_db_socket ((*slot)->listener);
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
  if (changes != QM_STORE_CHANGE_NONE && func != NULL)
    func (store, changes, user_data);
  return changes;
}
