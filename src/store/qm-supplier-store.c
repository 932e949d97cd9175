/* qm-supplier-store.c: see qm-supplier-store.h. The table is schema step
 * 9 (qm-store-schema.c): one row, id 1, a column per qm_supplier_fields[]
 * key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-store-private.h"
#include "qm-supplier-store.h"

QmSupplier *
qm_supplier_store_get (QmStore  *store,
                       GError  **error)
{
  g_autoptr(QmSupplier) supplier = qm_supplier_new ();
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autoptr(GString) sql = g_string_new ("SELECT ");
  QmDbStep step;

  for (guint i = 0; i < qm_supplier_n_fields; i++)
    g_string_append_printf (sql, "%s%s", i > 0 ? ", " : "", qm_supplier_fields[i].key);
  g_string_append (sql, " FROM supplier WHERE id = 1");
  stmt = qm_store_query (store, sql->str, error);
  if (stmt == NULL)
    return NULL;
  step = qm_db_step (stmt);
  if (step == QM_DB_STEP_ERROR)
    {
      qm_store_db_fail (store, error, _("Could not read the supplier details"));
      return NULL;
    }
  if (step == QM_DB_STEP_ROW)
    for (guint i = 0; i < qm_supplier_n_fields; i++)
      {
        char **field = &QM_SUPPLIER_FIELD (supplier, &qm_supplier_fields[i]);

        g_free (*field);
        *field = qm_db_column_dup (stmt, i);
        if (*field == NULL)
          *field = g_strdup ("");
      }
  return g_steal_pointer (&supplier);
}

gboolean
qm_supplier_store_set (QmStore           *store,
                       const QmSupplier  *supplier,
                       GError           **error)
{
  const char *what = _("Could not save the supplier details");
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autoptr(GString) sql = g_string_new ("INSERT INTO supplier (id, modified");
  guint n = qm_supplier_n_fields;

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_QUOTES, what, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    g_string_append_printf (sql, ", %s", qm_supplier_fields[i].key);
  g_string_append (sql, ") VALUES (1, ?1");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (sql, ", ?%u", i + 2);
  g_string_append (sql, ") ON CONFLICT (id) DO UPDATE SET modified = excluded.modified");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (sql, ", %s = excluded.%s", qm_supplier_fields[i].key, qm_supplier_fields[i].key);

  stmt = qm_store_query (store, sql->str, error);
  if (stmt == NULL)
    return FALSE;
  qm_db_bind_int64 (stmt, 1, qm_store_now (store));
  for (guint i = 0; i < n; i++)
    {
      const char *v = supplier != NULL ? QM_SUPPLIER_FIELD (supplier, &qm_supplier_fields[i]) : NULL;

      qm_db_bind_text (stmt, i + 2, v != NULL ? v : "");
    }
  return qm_store_query_done (store, stmt, error, "%s", what);
}
