/* qm-catalog-store-csv.c: the catalog as CSV: the columns (one per field
 * of the catalog parser), import in two steps (a preview that checks
 * every row, then a commit that writes them in one transaction) and
 * export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-catalog-store-private.h"
#include "qm-csv.h"

/* ------------------------------------------------------------------ */
/* CSV columns.                                                        */

typedef enum
{
  COL_TEXT,
  COL_NUMBER,
  COL_COUNT,
  COL_BOOL,
} ColumnType;

typedef struct
{
  const char *column;  /* CSV header */
  const char *key;     /* JSON key; "a.b" is member b of object a */
  ColumnType  type;
} ColumnDef;

static const ColumnDef info_columns[] = {
  { "id", "id", COL_TEXT },
  { "vendor", "vendor", COL_TEXT },
  { "name", "name", COL_TEXT },
  { "price_usd", "price_usd", COL_NUMBER },
  { "source", "source", COL_TEXT },
  { "as_of", "as_of", COL_TEXT },
  { NULL }
};

/* A kind's own columns, one per field of the catalog parser
 * (qm_catalog_field_key), so that CSV carries every field the JSON does:
 * the GPU's tflops object becomes tflops_fp32, tflops_bf16, ... and the
 * entry's own "kind" key is the column "type" ("kind" names the catalog
 * kind of the row). Built once; the strings are interned. */
static const ColumnDef *
kind_columns (QmCatalogKind kind)
{
  static const ColumnDef *columns[QM_N_CATALOG_KINDS];

  if (g_once_init_enter (&columns[kind]))
    {
      GArray *defs = g_array_new (TRUE, TRUE, sizeof (ColumnDef));
      QmCatalogValueType type;
      const char *key;

      for (guint i = 0; (key = qm_catalog_field_key (kind, i, &type)) != NULL; i++)
        {
          ColumnDef def = { key, key, COL_TEXT };

          switch (type)
            {
            case QM_CATALOG_VALUE_TFLOPS:
              for (guint p = 0; p < QM_N_PRECISIONS; p++)
                {
                  g_autofree char *column = g_strdup_printf ("%s_%s", key, qm_precision_to_string (p));
                  g_autofree char *path = g_strdup_printf ("%s.%s", key, qm_precision_to_string (p));
                  ColumnDef precision = { g_intern_string (column), g_intern_string (path), COL_NUMBER };

                  g_array_append_val (defs, precision);
                }
              continue;
            case QM_CATALOG_VALUE_TEXT:
              if (g_str_equal (key, "kind"))
                def.column = "type";
              break;
            case QM_CATALOG_VALUE_NUMBER:
              def.type = COL_NUMBER;
              break;
            case QM_CATALOG_VALUE_COUNT:
              def.type = COL_COUNT;
              break;
            case QM_CATALOG_VALUE_BOOL:
              def.type = COL_BOOL;
              break;
            default:
              g_assert_not_reached ();
            }
          g_array_append_val (defs, def);
        }
      /* Zero-terminated: the last ColumnDef has column == NULL. */
      g_once_init_leave (&columns[kind], (const ColumnDef *) g_array_free (defs, FALSE));
    }
  return columns[kind];
}

/* Columns that export writes for people and import skips. */
static const char * const export_only_columns[] = {
  "list_price_usd", "override_usd", "builtin", "hidden", NULL
};

static const ColumnDef *
find_column (QmCatalogKind  kind,
             const char    *column)
{
  for (const ColumnDef *c = info_columns; c->column; c++)
    if (strcmp (c->column, column) == 0)
      return c;
  for (const ColumnDef *c = kind_columns (kind); c->column; c++)
    if (strcmp (c->column, column) == 0)
      return c;
  return NULL;
}

static const char *
column_for_key (QmCatalogKind  kind,
                const char    *key)
{
  /* The parser says "tflops" when no bf16/fp16 figure was given. */
  if (kind == QM_CATALOG_KIND_GPU && strcmp (key, "tflops") == 0)
    return "tflops_bf16";
  for (const ColumnDef *c = info_columns; c->column; c++)
    if (strcmp (c->key, key) == 0)
      return c->column;
  for (const ColumnDef *c = kind_columns (kind); c->column; c++)
    if (strcmp (c->key, key) == 0)
      return c->column;
  return key;
}

/* Numbers as the file writes them (qm_csv_parse_number()): "30000,50"
 * in a file with decimal commas, "$30,000" in one with decimal points. */
static JsonNode *
cell_to_node (const ColumnDef *def,
              const char      *cell,
              char             decimal_mark)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  double v;

  switch (def->type)
    {
    case COL_NUMBER:
    case COL_COUNT:
      if (qm_csv_parse_number (cell, decimal_mark, &v))
        {
          if (def->type == COL_COUNT && v == floor (v) && fabs (v) < 1e15)
            json_node_set_int (node, (gint64) v);
          else
            json_node_set_double (node, v);
          return node;
        }
      break;
    case COL_BOOL:
      if (g_ascii_strcasecmp (cell, "true") == 0 || g_ascii_strcasecmp (cell, "yes") == 0 ||
          strcmp (cell, "1") == 0)
        {
          json_node_set_boolean (node, TRUE);
          return node;
        }
      if (g_ascii_strcasecmp (cell, "false") == 0 || g_ascii_strcasecmp (cell, "no") == 0 ||
          strcmp (cell, "0") == 0)
        {
          json_node_set_boolean (node, FALSE);
          return node;
        }
      break;
    case COL_TEXT:
    default:
      break;
    }
  /* Text, or a number that does not parse: the catalog parser then says
   * "must be a number (got "eighty")" with the cell as found. */
  json_node_set_string (node, cell);
  return node;
}

static void
set_key (JsonObject *o,
         const char *key,
         JsonNode   *node)
{
  const char *dot = strchr (key, '.');
  g_autofree char *outer = NULL;
  JsonObject *inner;

  if (dot == NULL)
    {
      json_object_set_member (o, key, node);
      return;
    }
  outer = g_strndup (key, dot - key);
  inner = json_object_get_member (o, outer) != NULL &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, outer))
          ? json_object_get_object_member (o, outer) : NULL;
  if (inner == NULL)
    {
      inner = json_object_new ();
      json_object_set_object_member (o, outer, inner);
    }
  json_object_set_member (inner, dot + 1, node);
}

/* ------------------------------------------------------------------ */
/* CSV import.                                                         */

static void
row_error_free (QmCsvRowError *e)
{
  g_free (e->column);
  g_free (e->problem);
  g_free (e->value);
  g_free (e);
}

static void
row_preview_free (QmCsvRowPreview *r)
{
  g_free (r->id);
  g_free (r->name);
  g_free (r->json);
  g_free (r);
}

void
qm_catalog_import_free (QmCatalogImport *import)
{
  if (import == NULL)
    return;
  g_free (import->source);
  g_clear_pointer (&import->rows, g_ptr_array_unref);
  g_clear_pointer (&import->errors, g_ptr_array_unref);
  g_clear_pointer (&import->warnings, g_ptr_array_unref);
  g_free (import);
}

static void
add_row_error (QmCatalogImport *import,
               QmCsvRecord     *record,
               guint            row,
               const char      *column,
               const char      *value,
               const char      *format,
               ...) G_GNUC_PRINTF (6, 7);

static void
add_row_error (QmCatalogImport *import,
               QmCsvRecord     *record,
               guint            row,
               const char      *column,
               const char      *value,
               const char      *format,
               ...)
{
  QmCsvRowError *e = g_new0 (QmCsvRowError, 1);
  va_list args;

  e->row = row;
  e->line = record->line;
  e->column = g_strdup (column);
  e->value = g_strdup (value);
  va_start (args, format);
  e->problem = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (import->errors, e);
}

char *
qm_catalog_import_describe (QmCatalogImport *import)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < import->errors->len; i++)
    {
      QmCsvRowError *e = import->errors->pdata[i];

      /* Whole lines, so a translation can order the parts its own way. */
      if (e->column != NULL && e->value != NULL)
        /* Translators: the file, the row number, the column's name, the
         * problem (a translated phrase) and the cell as the file has it. */
        g_string_append_printf (s, _("%s: row %u, column %s: %s (got \"%s\")"),
                                import->source, e->row, e->column, e->problem, e->value);
      else if (e->column != NULL)
        /* Translators: the file, the row number, the column's name and
         * the problem (a translated phrase). */
        g_string_append_printf (s, _("%s: row %u, column %s: %s"),
                                import->source, e->row, e->column, e->problem);
      else if (e->value != NULL)
        /* Translators: the file, the row number, the problem (a translated
         * phrase) and the cell as the file has it. */
        g_string_append_printf (s, _("%s: row %u: %s (got \"%s\")"),
                                import->source, e->row, e->problem, e->value);
      else
        /* Translators: the file, the row number and the problem (a
         * translated phrase). */
        g_string_append_printf (s, _("%s: row %u: %s"), import->source, e->row, e->problem);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static const char *
cell_at (QmCsvRecord *record,
         int          index)
{
  if (index < 0 || (guint) index >= record->fields->len)
    return NULL;
  return record->fields->pdata[index];
}

/* Splits a catalog parser message "key: problem (got value)" so the error
 * can name the CSV column and show the cell as the user typed it. */
static void
split_parse_error (const char  *message,
                   char       **key,
                   char       **problem)
{
  const char *colon = strstr (message, ": ");
  const char *got;

  if (colon == NULL)
    {
      *key = NULL;
      *problem = g_strdup (message);
      return;
    }
  *key = g_strndup (message, colon - message);
  got = g_strrstr (colon + 2, " (got ");
  *problem = got != NULL ? g_strndup (colon + 2, got - (colon + 2)) : g_strdup (colon + 2);
}

/* A column import reads, or one export writes for people. */
static gboolean
is_column (const char *name)
{
  gboolean known = strcmp (name, "kind") == 0 || g_strv_contains (export_only_columns, name);

  for (guint k = 0; k < QM_N_CATALOG_KINDS && !known; k++)
    known = find_column (k, name) != NULL;
  return known;
}

/* The column a header that is not a column name stands for: a label the
 * app shows ("Price (USD)", "Speicher (GB)"), looked up in @default_kind
 * first, then in every kind. NULL when none. */
static const char *
column_for_header (const char *text,
                   int         default_kind)
{
  for (int i = -1; i < QM_N_CATALOG_KINDS; i++)
    {
      QmCatalogKind k = i < 0 ? default_kind : i;
      const char *key;

      if (i < 0 && (default_kind < 0 || default_kind >= QM_N_CATALOG_KINDS))
        continue;
      key = qm_catalog_key_for_header (k, text);
      if (key != NULL)
        return column_for_key (k, key);
    }
  return NULL;
}

/* Reads the header row into @header (column names, lower case), warning
 * about columns no kind has. FALSE when there is no id column, with an
 * error that shows the header as read and the separator it was split at. */
static gboolean
read_header (QmCatalogImport  *import,
             QmCsvRecord      *head,
             int               default_kind,
             GPtrArray        *header,
             int              *id_col,
             int              *kind_col,
             GError          **error)
{
  for (guint c = 0; c < head->fields->len; c++)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (head->fields->pdata[c]));
      char *name = g_ascii_strdown (trimmed, -1);

      if (!is_column (name) && column_for_header (trimmed, default_kind) != NULL)
        {
          g_free (name);
          name = g_strdup (column_for_header (trimmed, default_kind));
        }
      if (strcmp (name, "id") == 0)
        *id_col = c;
      else if (strcmp (name, "kind") == 0)
        *kind_col = c;
      if (!is_column (name) && *name != '\0')
        g_ptr_array_add (import->warnings,
                         /* Translators: %s is a column's name as the CSV file's header has it. */
                         g_strdup_printf (_("column %s is not a catalog field and was ignored"),
                                          trimmed));
      g_ptr_array_add (header, name);
    }
  if (*id_col < 0)
    {
      char sep[2] = { import->dialect.separator, '\0' };
      g_autofree char *cells = NULL;
      g_autofree char *names = qm_catalog_header_names ("id");

      g_ptr_array_add (head->fields, NULL);
      cells = g_strjoinv (sep, (char **) head->fields->pdata);
      g_ptr_array_remove_index (head->fields, head->fields->len - 1);
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: the file, its header row as it reads, the separator's
                    * name ("comma", "semicolon", "tab"), and the names an id column may
                    * have. */
                   _("%s, row 1: no column is the id column: the header reads %s (split at "
                     "each %s); expected a column named one of %s"), import->source, cells,
                   qm_csv_separator_name (import->dialect.separator), names);
      return FALSE;
    }
  return TRUE;
}

/* The cell of @record under the header column @name, or NULL. */
static const char *
cell_named (QmCsvRecord *record,
            GPtrArray   *header,
            const char  *name)
{
  const char *value = NULL;

  for (guint c = 0; c < header->len; c++)
    if (strcmp (header->pdata[c], name) == 0)
      value = cell_at (record, c);
  return value;
}

static void
add_preview (QmCatalogImport *import,
             guint            row,
             QmCatalogKind    kind,
             QmCsvRowAction   action,
             const char      *id,
             const char      *name,
             double           price_usd,
             char            *json)
{
  QmCsvRowPreview *preview = g_new0 (QmCsvRowPreview, 1);

  preview->row = row;
  preview->kind = kind;
  preview->id = g_strdup (id);
  preview->name = g_strdup (name);
  preview->action = action;
  preview->price_usd = price_usd;
  preview->json = json;
  g_ptr_array_add (import->rows, preview);
}

/* The kind a row names: its kind cell, else @default_kind. */
static gboolean
cell_kind (const char    *kind_cell,
           int            default_kind,
           QmCatalogKind *kind)
{
  if (kind_cell != NULL && *kind_cell != '\0')
    {
      g_autofree char *k = g_strstrip (g_strdup (kind_cell));

      return qm_catalog_kind_from_string (k, kind);
    }
  if (default_kind >= 0 && default_kind < QM_N_CATALOG_KINDS)
    {
      *kind = default_kind;
      return TRUE;
    }
  return FALSE;
}

/* The row's kind: its kind cell, else @default_kind. FALSE (with a row
 * error) when neither gives one. */
static gboolean
row_kind (QmCatalogImport *import,
          QmCsvRecord     *record,
          guint            row,
          const char      *kind_cell,
          int              default_kind,
          QmCatalogKind   *kind)
{
  if (cell_kind (kind_cell, default_kind, kind))
    return TRUE;
  if (kind_cell != NULL && *kind_cell != '\0')
    add_row_error (import, record, row, "kind", kind_cell,
                   /* Translators: the kinds are the words a file uses; keep them as they are. */
                   _("unknown kind (expected gpu, server, network, storage, facility, "
                     "cloud or model)"));
  else
    add_row_error (import, record, row, "kind", NULL,
                   /* Translators: the kinds are the words a file uses; keep them as they are. */
                   _("missing; give a kind column (gpu, server, network, ...) or choose the "
                     "kind"));
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* The entries an import names, read together.                        */

/* Rows per statement, as qm_catalog_store_write_rows() writes them. */
#define READ_ROWS 300

/* What qm_catalog_store_get() gives for each (kind, id), the user's entry
 * last where both exist; ?3 is the record's index. The tables rather
 * than the view catalog_entry: SQLite would scan the view's union for
 * every row. */
static const char read_entries_sql[] =
  "SELECT v.column3, 1, b.name, b.entry, coalesce (o.price_usd, b.price_usd) FROM (VALUES %s) AS v"
  " JOIN catalog_builtin b ON b.kind = v.column1 AND b.id = v.column2"
  " LEFT JOIN catalog_override o ON o.kind = b.kind AND o.id = b.id"
  " UNION ALL"
  " SELECT v.column3, 0, u.name, u.entry, coalesce (o.price_usd, u.price_usd) FROM (VALUES %s) AS v"
  " JOIN catalog_user u ON u.kind = v.column1 AND u.id = v.column2"
  " LEFT JOIN catalog_override o ON o.kind = u.kind AND o.id = u.id"
  " ORDER BY 2 DESC";

typedef struct
{
  QmCatalogKind  kind;
  char          *id;
  guint          record;
} EntryKey;

static void
entry_key_clear (EntryKey *key)
{
  g_free (key->id);
}

/* Reads the entries of @keys[0 .. n - 1] into @entries (by record). */
static gboolean
read_entries_chunk (QmStore    *store,
                    GHashTable *cache,
                    EntryKey   *keys,
                    guint       n,
                    GPtrArray  *entries)
{
  g_autofree char *values = qm_catalog_store_values_sql ("(?1, ?2, ?3)", 3, n);
  g_autofree char *sql = g_strdup_printf (read_entries_sql, values, values);
  QmDbStmt *stmt = qm_catalog_store_query_cached (store, cache, sql, NULL);
  QmDbStep step;

  if (stmt == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      qm_db_bind_text (stmt, 3 * i + 1, qm_catalog_kind_to_string (keys[i].kind));
      qm_db_bind_text (stmt, 3 * i + 2, keys[i].id);
      qm_db_bind_int64 (stmt, 3 * i + 3, keys[i].record);
    }
  while ((step = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    {
      guint r = qm_db_column_int64 (stmt, 0);
      QmCatalogEntry *e = g_new0 (QmCatalogEntry, 1);

      for (guint i = 0; i < n; i++)
        if (keys[i].record == r)
          {
            e->kind = keys[i].kind;
            e->id = g_strdup (keys[i].id);
          }
      e->builtin = qm_db_column_int64 (stmt, 1) != 0;
      e->name = qm_db_column_dup (stmt, 2);
      e->json = qm_db_column_dup (stmt, 3);
      /* What the estimates use: the override, else the list price. */
      e->price_usd = qm_db_column_double (stmt, 4);
      /* The user's entry comes last and wins, as in qm_catalog_store_get(). */
      g_clear_pointer (&g_ptr_array_index (entries, r), qm_catalog_entry_free);
      g_ptr_array_index (entries, r) = e;
    }
  return step == QM_DB_STEP_DONE;
}

/* The existing entry each record names, by record (NULL: none, or no
 * kind and id to look for), read READ_ROWS rows a statement rather than
 * one entry a round trip; NULL when the read fails, for the caller to
 * look them up one by one. */
static GPtrArray *
read_entries (QmStore   *store,
              GPtrArray *records,
              int        id_col,
              int        kind_col,
              int        default_kind)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_full (records->len, (GDestroyNotify) qm_catalog_entry_free);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (EntryKey));
  g_autoptr(GHashTable) cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                      (GDestroyNotify) qm_db_stmt_free);

  g_array_set_clear_func (keys, (GDestroyNotify) entry_key_clear);
  g_ptr_array_set_size (entries, records->len);
  for (guint r = 1; r < records->len; r++)
    {
      const char *id = cell_at (records->pdata[r], id_col);
      EntryKey key = { 0, g_strstrip (g_strdup (id ? id : "")), r };

      if (*key.id != '\0' && cell_kind (cell_at (records->pdata[r], kind_col), default_kind, &key.kind))
        g_array_append_val (keys, key);
      else
        g_free (key.id);
    }
  for (guint i = 0; i < keys->len; i += READ_ROWS)
    if (!read_entries_chunk (store, cache, &g_array_index (keys, EntryKey, i),
                             MIN (READ_ROWS, keys->len - i), entries))
      return NULL;
  return g_steal_pointer (&entries);
}

/* When @cell is a number in the other convention ("1.5" in a file read
 * with decimal commas), says what the file was read as, so that a wrong
 * guess is plain to see; else "". */
static const char *
decimal_hint (QmCatalogImport *import,
              const char      *cell)
{
  char mark = import->dialect.decimal_mark;
  double v;

  if (cell == NULL || qm_csv_parse_number (cell, mark, &v) ||
      !qm_csv_parse_number (cell, mark == ',' ? '.' : ',', &v))
    return "";
  /* Translators: these end a problem with a cell ("must be a number >= 0"),
   * so they start with a semicolon. */
  return mark == ',' ? _("; the file was read with decimal commas (\"12,5\")")
                     : _("; the file was read with decimal points (\"12.5\")");
}

/* A built-in entry only takes a price: its figures come from the
 * datasheet, and a re-sync would overwrite any other change. */
static void
preview_price_row (QmCatalogImport      *import,
                   QmCsvRecord          *record,
                   GPtrArray            *header,
                   guint                 row,
                   QmCatalogKind         kind,
                   const char           *id,
                   const QmCatalogEntry *existing)
{
  const char *price_cell = cell_named (record, header, "price_usd");
  g_autofree char *p = NULL;
  double price;

  if (price_cell == NULL || *price_cell == '\0')
    {
      add_row_error (import, record, row, "price_usd", NULL,
                     /* Translators: %s is the id of a built-in catalog entry. */
                     _("required: %s is a built-in entry, so a row for it sets its price"), id);
      return;
    }
  p = g_strstrip (g_strdup (price_cell));
  if (!qm_csv_parse_number (p, import->dialect.decimal_mark, &price) || !isfinite (price) || price < 0.0)
    {
      /* Translators: %s is nothing, or a hint such as "; the file was read
       * with decimal commas (\"12,5\")". */
      add_row_error (import, record, row, "price_usd", price_cell, _("must be a number >= 0%s"),
                     decimal_hint (import, p));
      return;
    }
  /* The price the estimates already use (the list price, or the
   * override): nothing to write. An exported catalog read back into a
   * fresh store pinned every list price as an override (issue #33). */
  if (price == existing->price_usd)
    {
      import->unchanged++;
      return;
    }
  add_preview (import, row, kind, QM_CSV_ROW_PRICE, id, existing->name, price, NULL);
}

/* A user entry is updated cell by cell; a new one starts empty. The
 * result is checked by the catalog parser, whose errors name the CSV
 * column and show the cell as the user typed it. */
static void
preview_entry_row (QmCatalogImport      *import,
                   QmCsvRecord          *record,
                   GPtrArray            *header,
                   guint                 row,
                   QmCatalogKind         kind,
                   const QmCatalogEntry *existing)
{
  g_autoptr(JsonObject) o = NULL;
  g_autofree guint8 *spec = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(JsonObject) canonical = NULL;
  const QmCatalogInfo *info;
  guint errors_before = import->errors->len;

  if (existing != NULL)
    o = qm_catalog_store_parse_json (existing->json, NULL);
  if (o == NULL)
    o = json_object_new ();

  for (guint c = 0; c < record->fields->len; c++)
    {
      const char *name = header->pdata[c];
      g_autofree char *cell = g_strstrip (g_strdup (record->fields->pdata[c]));
      const ColumnDef *def;

      if (*cell == '\0' || strcmp (name, "kind") == 0 ||
          g_strv_contains (export_only_columns, name))
        continue;
      def = find_column (kind, name);
      if (def == NULL)
        {
          gboolean other_kind = FALSE;

          for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
            other_kind |= find_column (k, name) != NULL;
          if (other_kind)
            add_row_error (import, record, row, name, cell,
                           /* Translators: %s is a catalog kind as the files name it (gpu,
                            * server, network, storage, facility, cloud, model). */
                           _("not a field of a %s entry"), qm_catalog_kind_to_string (kind));
          continue;
        }
      set_key (o, def->key, cell_to_node (def, cell, import->dialect.decimal_mark));
    }
  if (import->errors->len > errors_before)
    return;

  spec = g_malloc0 (qm_catalog_kind_struct_size (kind));
  if (!qm_catalog_parse_object (kind, o, QM_CATALOG_PARSE_NONE, spec, &parse_error))
    {
      g_autofree char *key = NULL;
      g_autofree char *problem = NULL;
      const char *column = NULL;
      const char *value = NULL;

      split_parse_error (parse_error->message, &key, &problem);
      if (key != NULL)
        {
          column = column_for_key (kind, key);
          value = cell_named (record, header, column);
          if (value != NULL && *value == '\0')
            value = NULL;
        }
      add_row_error (import, record, row, column, value, "%s%s", problem, decimal_hint (import, value));
      return;
    }

  info = (const QmCatalogInfo *) spec;
  canonical = qm_catalog_spec_to_json (kind, spec);
  add_preview (import, row, kind, existing != NULL ? QM_CSV_ROW_UPDATE : QM_CSV_ROW_ADD,
               info->id, info->name, info->price_usd,
               qm_store_object_to_text (canonical, FALSE));
}

QmCatalogImport *
qm_catalog_store_import_csv_preview (QmStore     *store,
                                     const char  *data,
                                     gsize        length,
                                     const char  *source,
                                     int          default_kind,
                                     GError     **error)
{
  return qm_catalog_store_import_csv_preview_dialect (store, data, length, source, default_kind, NULL, error);
}

QmCatalogImport *
qm_catalog_store_import_csv_preview_dialect (QmStore            *store,
                                             const char         *data,
                                             gsize               length,
                                             const char         *source,
                                             int                 default_kind,
                                             const QmCsvDialect *dialect,
                                             GError            **error)
{
  g_autoptr(QmCatalogImport) import = g_new0 (QmCatalogImport, 1);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) header = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) csv_error = NULL;
  int id_col = -1, kind_col = -1;

  import->source = g_strdup (source != NULL ? source : "CSV");
  import->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_preview_free);
  import->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) row_error_free);
  import->warnings = g_ptr_array_new_with_free_func (g_free);
  if (dialect != NULL)
    {
      import->dialect.separator = dialect->separator;
      import->dialect.decimal_mark = dialect->decimal_mark;
    }

  /* The separator, the decimal mark and the encoding as spreadsheets in
   * the user's locale write them, unless the caller set them. */
  records = qm_csv_read (data, length, &import->dialect, &csv_error);
  if (records == NULL)
    {
      /* One error domain for the caller: the file is unusable as input. */
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("%s: %s"),
                   import->source, csv_error->message);
      return NULL;
    }
  if (!read_header (import, records->pdata[0], default_kind, header, &id_col, &kind_col, error))
    return NULL;
  entries = read_entries (store, records, id_col, kind_col, default_kind);

  for (guint r = 1; r < records->len; r++)
    {
      QmCsvRecord *record = records->pdata[r];
      guint row = r + 1;
      const char *id = cell_at (record, id_col);
      g_autofree char *id_trimmed = g_strstrip (g_strdup (id ? id : ""));
      g_autoptr(QmCatalogEntry) existing = NULL;
      g_autofree char *key_seen = NULL;
      QmCatalogKind kind;

      import->n_rows++;

      if (record->fields->len > header->len)
        {
          add_row_error (import, record, row, NULL, NULL,
                         /* Translators: the row's number of fields, the header's, and the
                          * separator's name ("comma", "semicolon", "tab"). */
                         _("has %u fields but the header has %u (an unquoted %s in a name? "
                           "put the name in double quotes)"),
                         record->fields->len, header->len,
                         qm_csv_separator_name (import->dialect.separator));
          continue;
        }
      if (!row_kind (import, record, row, cell_at (record, kind_col), default_kind, &kind))
        continue;
      if (*id_trimmed == '\0')
        {
          add_row_error (import, record, row, "id", NULL, _("required; every row needs an id"));
          continue;
        }

      key_seen = g_strconcat (qm_catalog_kind_to_string (kind), "/", id_trimmed, NULL);
      if (g_hash_table_contains (seen, key_seen))
        {
          add_row_error (import, record, row, "id", id_trimmed,
                         _("appears twice in the file (first in row %u)"),
                         GPOINTER_TO_UINT (g_hash_table_lookup (seen, key_seen)));
          continue;
        }
      g_hash_table_insert (seen, g_steal_pointer (&key_seen), GUINT_TO_POINTER (row));

      if (entries == NULL)
        existing = qm_catalog_store_get (store, kind, id_trimmed, NULL);
      else
        existing = g_steal_pointer (&g_ptr_array_index (entries, r));
      if (existing != NULL && existing->builtin)
        preview_price_row (import, record, header, row, kind, id_trimmed, existing);
      else
        preview_entry_row (import, record, header, row, kind, existing);
    }

  return g_steal_pointer (&import);
}

gboolean
qm_catalog_store_import_csv_commit (QmStore          *store,
                                    QmCatalogImport  *import,
                                    gboolean          skip_invalid,
                                    guint            *n_written,
                                    GError          **error)
{
  /* Translators: %s is the CSV file's name. */
  g_autofree char *what = g_strdup_printf (_("Could not import %s"), import->source);

  if (n_written != NULL)
    *n_written = 0;

  if (import->errors->len > 0 && !skip_invalid)
    {
      g_autofree char *list = qm_catalog_import_describe (import);
      g_autoptr(GHashTable) bad = g_hash_table_new (NULL, NULL);

      for (guint i = 0; i < import->errors->len; i++)
        g_hash_table_add (bad, GUINT_TO_POINTER (((QmCsvRowError *) import->errors->pdata[i])->row));
      g_strchomp (list);
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: the CSV file's name, the number of invalid rows, all
                    * rows, and then a list of the problems, one a line. */
                   g_dngettext (GETTEXT_PACKAGE,
                                "%s: %u of %u rows is invalid, so nothing was written:\n%s",
                                "%s: %u of %u rows are invalid, so nothing was written:\n%s",
                                g_hash_table_size (bad)),
                   import->source, g_hash_table_size (bad), import->n_rows, list);
      return FALSE;
    }

  if (!qm_catalog_store_begin (store, what, error))
    return FALSE;
  if (!qm_catalog_store_write_rows (store, import->rows, error))
    goto fail;
  if (!qm_catalog_store_commit (store, what, error))
    return FALSE;
  if (n_written != NULL)
    *n_written = import->rows->len;
  return TRUE;

fail:
  /* Translators: %s is the CSV file's name. */
  g_prefix_error (error, _("%s: nothing was written: "), import->source);
  qm_store_rollback (store);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* CSV export.                                                         */

static char *
node_to_cell (JsonNode *node,
              char      decimal_mark)
{
  GType t;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node) || !JSON_NODE_HOLDS_VALUE (node))
    return g_strdup ("");
  t = json_node_get_value_type (node);
  if (t == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (t == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (node) ? "true" : "false");
  if (t == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  return qm_csv_format_number (json_node_get_double (node), decimal_mark);
}

/* In a mixed export, a column shared by several kinds (rack_units, gpus,
 * type) is filled for each of them. */
static gboolean
column_of_kind (QmCatalogKind    kind,
                const ColumnDef *def)
{
  const ColumnDef *own = find_column (kind, def->column);

  return own != NULL && strcmp (own->key, def->key) == 0;
}

char *
qm_catalog_store_export_csv (QmStore             *store,
                             int                  kind,
                             const char          *search,
                             QmCatalogListFlags   flags,
                             gsize               *length,
                             GError             **error)
{
  QmCsvDialect c = QM_CSV_DIALECT_C;

  return qm_catalog_store_export_csv_dialect (store, kind, search, flags, &c, length, error);
}

char *
qm_catalog_store_export_csv_dialect (QmStore             *store,
                                     int                  kind,
                                     const char          *search,
                                     QmCatalogListFlags   flags,
                                     const QmCsvDialect  *dialect,
                                     gsize               *length,
                                     GError             **error)
{
  char dm = dialect->decimal_mark;
  g_autoptr(GPtrArray) entries = qm_catalog_store_list (store, kind, search, flags, error);
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();   /* of const ColumnDef * */
  g_autoptr(GPtrArray) header = g_ptr_array_new ();
  GString *out;

  if (entries == NULL)
    return NULL;

  /* kind, the common columns, list/override prices, then the union of the
   * kinds' own columns (one kind's, when exporting one kind). */
  g_ptr_array_add (header, (gpointer) "kind");
  for (const ColumnDef *c = info_columns; c->column; c++)
    {
      g_ptr_array_add (header, (gpointer) c->column);
      g_ptr_array_add (columns, (gpointer) c);
    }
  g_ptr_array_add (header, (gpointer) "list_price_usd");
  g_ptr_array_add (header, (gpointer) "override_usd");
  g_ptr_array_add (header, (gpointer) "builtin");
  g_ptr_array_add (header, (gpointer) "hidden");
  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      if (kind >= 0 && (guint) kind != k)
        continue;
      for (const ColumnDef *c = kind_columns (k); c->column; c++)
        {
          gboolean dup = FALSE;

          for (guint i = 0; i < columns->len && !dup; i++)
            dup = strcmp (((const ColumnDef *) columns->pdata[i])->column, c->column) == 0;
          if (!dup)
            {
              g_ptr_array_add (header, (gpointer) c->column);
              g_ptr_array_add (columns, (gpointer) c);
            }
        }
    }

  out = g_string_new (NULL);
  qm_csv_append_dialect_line (out, dialect);
  qm_csv_append_row (out, (const char * const *) header->pdata, header->len, dialect->separator);

  for (guint i = 0; i < entries->len; i++)
    {
      QmCatalogEntry *e = entries->pdata[i];
      g_autoptr(JsonObject) o = qm_catalog_store_parse_json (e->json, NULL);
      g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
      guint info_n = G_N_ELEMENTS (info_columns) - 1;

      if (o == NULL)
        continue;
      g_ptr_array_add (cells, g_strdup (qm_catalog_kind_to_string (e->kind)));
      for (guint c = 0; c < columns->len; c++)
        {
          const ColumnDef *def = columns->pdata[c];
          char *cell;

          if (strcmp (def->column, "price_usd") == 0)
            cell = qm_csv_format_number (e->price_usd, dm);
          else if (c >= info_n && !column_of_kind (e->kind, def))
            cell = g_strdup ("");   /* another kind's column */
          else
            cell = node_to_cell (qm_catalog_json_lookup (o, def->key), dm);
          g_ptr_array_add (cells, cell);

          if (c == info_n - 1)
            {
              g_ptr_array_add (cells, qm_csv_format_number (e->list_price_usd, dm));
              g_ptr_array_add (cells, e->has_override ? qm_csv_format_number (e->override_usd, dm) : g_strdup (""));
              g_ptr_array_add (cells, g_strdup (e->builtin ? "true" : "false"));
              g_ptr_array_add (cells, g_strdup (e->hidden ? "true" : "false"));
            }
        }
      qm_csv_append_row (out, (const char * const *) cells->pdata, cells->len, dialect->separator);
    }

  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

