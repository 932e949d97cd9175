/* qm-catalog-store-copy.c: the user's catalog copied between databases
 * (quartermaster-cli db copy, issue #23): their own entries, price
 * overrides and the price history, row by row as they are (revisions and
 * times included), then checked by count and content hash.
 *
 * Safe to run again: a row TO has already as FROM has it is left alone;
 * an entry or override FROM has differently replaces TO's (FROM is the
 * source of the copy); a history row is added once. TO's own rows that
 * FROM does not have are never touched. The built-in rows are not copied:
 * each database syncs them from the catalog its program ships.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-catalog-store-private.h"

/* One table as the copy sees it: the columns, their types ('t' text,
 * 'i' integer, 'd' double; any may be NULL), how many of the first ones
 * make the key, and the statement that writes one row into TO. Its
 * messages are whole sentences, so a translation need not fit a label
 * into a sentence made for another language. */
typedef struct
{
  const char *label;
  const char *read_failed;
  const char *copy_failed;
  const char *differ;
  const char *select_sql;
  const char *types;
  guint       n_key;
  const char *put_sql;
} CopyTable;

static const CopyTable copy_tables[] = {
  { N_("user entries"),
    N_("Could not read the user entries"),
    N_("Could not copy the user entries"),
    /* Translators: the database copied to, the rows found there, the rows
     * copied, and the first 12 digits of the two content hashes. */
    N_("The user entries differ after the copy to %s: %u of %u rows there, "
       "content hash %.12s… against %.12s…; nothing was written"),
    "SELECT kind, id, vendor, name, price_usd, source, as_of, entry, created, modified, revision"
    " FROM catalog_user ORDER BY created, kind, id",
    "ttttdtttiii", 2,
    "INSERT INTO catalog_user (kind, id, vendor, name, price_usd, source, as_of, entry,"
    " created, modified, revision) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
    " ON CONFLICT (kind, id) DO UPDATE SET vendor = excluded.vendor, name = excluded.name,"
    "  price_usd = excluded.price_usd, source = excluded.source, as_of = excluded.as_of,"
    "  entry = excluded.entry, created = excluded.created, modified = excluded.modified,"
    "  revision = excluded.revision" },
  { N_("price overrides"),
    N_("Could not read the price overrides"),
    N_("Could not copy the price overrides"),
    /* Translators: the database copied to, the rows found there, the rows
     * copied, and the first 12 digits of the two content hashes. */
    N_("The price overrides differ after the copy to %s: %u of %u rows there, "
       "content hash %.12s… against %.12s…; nothing was written"),
    "SELECT kind, id, price_usd, modified, revision FROM catalog_override ORDER BY kind, id",
    "ttdii", 2,
    "INSERT INTO catalog_override (kind, id, price_usd, modified, revision)"
    " VALUES (?1, ?2, ?3, ?4, ?5)"
    " ON CONFLICT (kind, id) DO UPDATE SET price_usd = excluded.price_usd,"
    "  modified = excluded.modified, revision = excluded.revision" },
  { N_("price changes"),
    N_("Could not read the price changes"),
    N_("Could not copy the price changes"),
    /* Translators: the database copied to, the rows found there, the rows
     * copied, and the first 12 digits of the two content hashes. */
    N_("The price changes differ after the copy to %s: %u of %u rows there, "
       "content hash %.12s… against %.12s…; nothing was written"),
    "SELECT kind, id, changed_at, is_override, revision, old_price, new_price, who"
    " FROM catalog_price_history ORDER BY changed_at, seq",
    "tttiiddt", 5,
    "INSERT INTO catalog_price_history (kind, id, changed_at, is_override, revision,"
    " old_price, new_price, who) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
    " ON CONFLICT DO NOTHING" },
};

/* A row as text: each value with its length first, so no two rows read
 * alike by moving text from one column into the next; doubles in the
 * shortest text that reads back as the same number. */
static char *
row_text (QmDbStmt   *stmt,
          const char *types,
          guint       n)
{
  GString *s = g_string_new (NULL);

  for (guint c = 0; c < n; c++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      const char *v;

      if (qm_db_column_is_null (stmt, c))
        {
          g_string_append (s, "N;");
          continue;
        }
      if (types[c] == 'd')
        v = g_ascii_dtostr (buf, sizeof buf, qm_db_column_double (stmt, c));
      else if (types[c] == 'i')
        {
          g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, qm_db_column_int64 (stmt, c));
          v = buf;
        }
      else
        v = qm_db_column_text (stmt, c);
      g_string_append_printf (s, "%c%zu:%s;", types[c], strlen (v), v);
    }
  return g_string_free (s, FALSE);
}

typedef struct
{
  GPtrArray  *keys;   /* in the order read */
  GHashTable *rows;   /* key -> row text */
} TableRows;

static void
table_rows_clear (TableRows *t)
{
  g_clear_pointer (&t->keys, g_ptr_array_unref);
  g_clear_pointer (&t->rows, g_hash_table_unref);
}

/* Every row of @table in @store, by key. */
static gboolean
read_rows (QmStore          *store,
           const CopyTable  *table,
           TableRows        *out,
           GError          **error)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, table->select_sql, error);
  guint n = strlen (table->types);
  QmDbStep step;

  if (stmt == NULL)
    return FALSE;
  out->keys = g_ptr_array_new ();
  out->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while ((step = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    {
      char *key = row_text (stmt, table->types, table->n_key);

      g_ptr_array_add (out->keys, key);
      g_hash_table_replace (out->rows, key, row_text (stmt, table->types, n));
    }
  if (step != QM_DB_STEP_DONE)
    {
      qm_store_db_fail (store, error, "%s", _(table->read_failed));
      table_rows_clear (out);
      return FALSE;
    }
  return TRUE;
}

/* Reads @table from FROM again and writes each row TO lacks or has
 * otherwise, inside TO's transaction. */
static gboolean
put_rows (QmStore          *from,
          QmStore          *to,
          const CopyTable  *table,
          GHashTable       *there,
          guint            *written,
          GError          **error)
{
  g_autoptr(QmDbStmt) get = qm_store_query (from, table->select_sql, error);
  g_autoptr(QmDbStmt) put = NULL;
  guint n = strlen (table->types);
  QmDbStep step;

  if (get == NULL || (put = qm_store_query (to, table->put_sql, error)) == NULL)
    return FALSE;
  while ((step = qm_db_step (get)) == QM_DB_STEP_ROW)
    {
      g_autofree char *key = row_text (get, table->types, table->n_key);
      g_autofree char *row = row_text (get, table->types, n);

      if (g_strcmp0 (g_hash_table_lookup (there, key), row) == 0)
        continue;
      qm_db_reset (put);
      for (guint c = 0; c < n; c++)
        {
          if (qm_db_column_is_null (get, c))
            qm_db_bind_null (put, c + 1);
          else if (table->types[c] == 'd')
            qm_db_bind_double (put, c + 1, qm_db_column_double (get, c));
          else if (table->types[c] == 'i')
            qm_db_bind_int64 (put, c + 1, qm_db_column_int64 (get, c));
          else
            qm_db_bind_text (put, c + 1, qm_db_column_text (get, c));
        }
      if (!qm_store_query_done (to, put, error, "%s", _(table->copy_failed)))
        return FALSE;
      (*written)++;
    }
  if (step != QM_DB_STEP_DONE)
    {
      qm_store_db_fail (from, error, "%s", _(table->read_failed));
      return FALSE;
    }
  return TRUE;
}

/* The SHA-256 of FROM's rows and of TO's rows under the same keys, in
 * FROM's order; *found counts the keys TO has. */
static void
hash_rows (TableRows *from_rows,
           TableRows *to_rows,
           char     **from_hash,
           char     **to_hash,
           guint     *found)
{
  g_autoptr(GChecksum) a = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GChecksum) b = g_checksum_new (G_CHECKSUM_SHA256);

  *found = 0;
  for (guint i = 0; i < from_rows->keys->len; i++)
    {
      const char *key = from_rows->keys->pdata[i];
      const char *mine = g_hash_table_lookup (from_rows->rows, key);
      const char *theirs = g_hash_table_lookup (to_rows->rows, key);

      g_checksum_update (a, (const guchar *) mine, -1);
      g_checksum_update (a, (const guchar *) "\n", 1);
      if (theirs == NULL)
        continue;
      (*found)++;
      g_checksum_update (b, (const guchar *) theirs, -1);
      g_checksum_update (b, (const guchar *) "\n", 1);
    }
  *from_hash = g_strdup (g_checksum_get_string (a));
  *to_hash = g_strdup (g_checksum_get_string (b));
}

/* Copies one table and checks it; fills @part. */
static gboolean
copy_table (QmStore              *from,
            QmStore              *to,
            const CopyTable      *table,
            QmCatalogCopyPart    *part,
            GError              **error)
{
  TableRows from_rows = { 0 }, to_rows = { 0 };
  g_autofree char *from_hash = NULL;
  g_autofree char *to_hash = NULL;
  gboolean ok = FALSE;
  guint found = 0;

  part->label = _(table->label);
  if (!read_rows (from, table, &from_rows, error) || !read_rows (to, table, &to_rows, error))
    goto out;
  part->n_rows = from_rows.keys->len;
  if (!put_rows (from, to, table, to_rows.rows, &part->written, error))
    goto out;
  part->unchanged = part->n_rows - part->written;
  table_rows_clear (&to_rows);
  /* Read back inside the same transaction: what COMMIT will keep. */
  if (!read_rows (to, table, &to_rows, error))
    goto out;
  hash_rows (&from_rows, &to_rows, &from_hash, &to_hash, &found);
  g_strlcpy (part->hash, from_hash, sizeof part->hash);
  if (found != part->n_rows || g_strcmp0 (from_hash, to_hash) != 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED, _(table->differ),
                   qm_store_path (to), found, part->n_rows, to_hash, from_hash);
      goto out;
    }
  ok = TRUE;

out:
  table_rows_clear (&from_rows);
  table_rows_clear (&to_rows);
  return ok;
}

gboolean
qm_catalog_store_copy (QmStore              *from,
                       QmStore              *to,
                       QmCatalogCopyResult  *result,
                       GError              **error)
{
  /* Translators: %s is the database the catalog is copied to. */
  g_autofree char *what = g_strdup_printf (_("Could not copy the catalog to %s"),
                                           qm_store_path (to));

  gboolean server = qm_db_engine (qm_store_connection (to)) == QM_DB_POSTGRESQL;
  gboolean owner = TRUE;

  memset (result, 0, sizeof *result);
  if (!qm_store_begin (to, what, error))
    return FALSE;
  /* On a server the history is written by its triggers from who changes a
   * price (schema step 7): only the owner may bring earlier changes as
   * they were, and the triggers then leave the copy's own writes alone;
   * anyone else's copy is recorded as their change, and the earlier
   * history stays in the file. */
  if (server)
    {
      g_autoptr(QmDbStmt) stmt = qm_store_query (to, "SELECT set_config ('qm.copy', 'on', true),"
                                                 " pg_has_role (session_user, relowner, 'MEMBER')"
                                                 " FROM pg_class WHERE oid = 'catalog_price_history'::regclass",
                                                 error);

      if (stmt == NULL || qm_db_step (stmt) != QM_DB_STEP_ROW)
        {
          if (stmt != NULL)
            qm_store_db_fail (to, error, "%s", what);
          qm_store_rollback (to);
          return FALSE;
        }
      owner = qm_db_column_int64 (stmt, 1) != 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (copy_tables); i++)
    if (server && !owner && i == G_N_ELEMENTS (copy_tables) - 1)
      {
        result->parts[i].label = _(copy_tables[i].label);
        result->parts[i].skipped = TRUE;
      }
    else if (!copy_table (from, to, &copy_tables[i], &result->parts[i], error))
      {
        qm_store_rollback (to);
        g_prefix_error (error, _("%s: "), what);
        return FALSE;
      }
  return qm_store_commit (to, what, error);
}
