/* qm-plan-store.c: saved plans (schema in qm-store.c, step 2 → 3).
 *
 * The store never estimates. The caller saves the inputs (the plan file
 * JSON), the estimate it showed (verbatim) and the list figures; the store
 * records which catalog entries and prices the plan used, so that it can
 * later say whether today's catalog would change the quote.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "qm-catalog-store.h"
#include "qm-plan-store.h"
#include "qm-store-private.h"

/* The hardware keys of plan-format.md and their catalog kinds. */
static const struct
{
  const char    *key;
  QmCatalogKind  kind;
} hardware_keys[] = {
  { "gpu", QM_CATALOG_KIND_GPU },
  { "server", QM_CATALOG_KIND_SERVER },
  { "network", QM_CATALOG_KIND_NETWORK },
  { "storage", QM_CATALOG_KIND_STORAGE },
};

/* ------------------------------------------------------------------ */
/* Structs.                                                            */

QmSavedPlan *
qm_saved_plan_new (void)
{
  return g_new0 (QmSavedPlan, 1);
}

QmSavedPlan *
qm_saved_plan_copy (const QmSavedPlan *plan)
{
  QmSavedPlan *copy = g_memdup2 (plan, sizeof *plan);

  copy->name = g_strdup (plan->name);
  copy->customer = g_strdup (plan->customer);
  copy->quote_ref = g_strdup (plan->quote_ref);
  copy->tags = g_strdup (plan->tags);
  copy->notes = g_strdup (plan->notes);
  copy->inputs = g_strdup (plan->inputs);
  copy->snapshot = g_strdup (plan->snapshot);
  copy->model = g_strdup (plan->model);
  copy->catalog_version = g_strdup (plan->catalog_version);
  copy->prices = g_strdup (plan->prices);
  return copy;
}

void
qm_saved_plan_free (QmSavedPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->name);
  g_free (plan->customer);
  g_free (plan->quote_ref);
  g_free (plan->tags);
  g_free (plan->notes);
  g_free (plan->inputs);
  g_free (plan->snapshot);
  g_free (plan->model);
  g_free (plan->catalog_version);
  g_free (plan->prices);
  g_free (plan);
}

void
qm_plan_summary_free (QmPlanSummary *summary)
{
  if (summary == NULL)
    return;
  g_free (summary->name);
  g_free (summary->customer);
  g_free (summary->quote_ref);
  g_free (summary->tags);
  g_free (summary->model);
  g_free (summary->catalog_version);
  g_free (summary->search_key);
  g_free (summary);
}

/* ------------------------------------------------------------------ */
/* JSON helpers.                                                       */

static JsonObject *
parse_json_object (const char  *data,
                   gssize       length,
                   const char  *label,
                   GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s: not valid JSON: %s", label, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s: must be a JSON object", label);
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

static char *
object_to_text (JsonObject *o,
                gboolean    pretty)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, o);
  return json_to_string (node, pretty);
}

static const char *
get_member_string (JsonObject *o,
                   const char *key)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, key) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static JsonObject *
get_member_object (JsonObject *o,
                   const char *key)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, key) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    return NULL;
  return json_node_get_object (n);
}

#define MAX_SEARCH_WORDS 8

static char *
fold (const char *text)
{
  g_autofree char *normal = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normal != NULL ? normal : text, -1);
}

char *
qm_plan_search_key (const char *name,
                    const char *customer,
                    const char *tags,
                    const char *model,
                    const char *quote_ref)
{
  g_autofree char *joined = g_strjoin ("\n", name ? name : "", customer ? customer : "",
                                       tags ? tags : "", model ? model : "",
                                       quote_ref ? quote_ref : "", NULL);

  return fold (joined);
}

GStrv
qm_plan_search_words (const char *search)
{
  g_autofree char *folded = fold (search != NULL ? search : "");
  g_auto(GStrv) split = g_strsplit_set (g_strstrip (folded), " \t\n", -1);
  g_autoptr(GStrvBuilder) words = g_strv_builder_new ();
  guint n = 0;

  for (guint i = 0; split[i] != NULL && n < MAX_SEARCH_WORDS; i++)
    if (*split[i] != '\0')
      {
        g_strv_builder_add (words, split[i]);
        n++;
      }
  return g_strv_builder_end (words);
}

gboolean
qm_plan_search_matches (const char         *search_key,
                        const char * const *words)
{
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (search_key == NULL || strstr (search_key, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* What the plan uses from the catalog.                                */

/* A fingerprint of an entry's figures, price left out (prices are
 * compared on their own). */
static char *
spec_fingerprint (QmCatalogKind kind,
                  gpointer      spec)
{
  g_autoptr(JsonObject) o = NULL;
  g_autofree char *text = NULL;

  ((QmCatalogInfo *) spec)->price_usd = 0.0;
  o = qm_catalog_spec_to_json (kind, spec);
  text = object_to_text (o, FALSE);
  return g_compute_checksum_for_string (G_CHECKSUM_SHA1, text, -1);
}

/* Looks up hardware.<key> of @inputs as the estimate would: the file's own
 * embedded spec first, else this store's catalog. FALSE when neither has
 * it. */
static gboolean
resolve_used (QmStore        *store,
              JsonObject     *hardware,
              guint           k,
              char          **id_out,
              double         *price_out,
              char          **fingerprint_out)
{
  QmCatalogKind kind = hardware_keys[k].kind;
  g_autofree char *spec_key = g_strconcat (hardware_keys[k].key, "_spec", NULL);
  g_autofree guint8 *spec = g_malloc0 (qm_catalog_kind_struct_size (kind));
  JsonObject *embedded = get_member_object (hardware, spec_key);
  const char *id = get_member_string (hardware, hardware_keys[k].key);

  *id_out = NULL;
  if (embedded != NULL)
    {
      if (!qm_catalog_parse_object (kind, embedded, QM_CATALOG_PARSE_NONE, spec, NULL))
        return FALSE;
      *id_out = g_strdup (id != NULL ? id : ((QmCatalogInfo *) spec)->id);
    }
  else if (id != NULL)
    {
      g_autoptr(QmCatalogEntry) entry = qm_catalog_store_get (store, kind, id, NULL);

      if (entry == NULL || !qm_catalog_entry_parse (entry, spec, NULL))
        {
          *id_out = g_strdup (id);
          return FALSE;
        }
      *id_out = g_strdup (id);
    }
  else
    return FALSE;

  *price_out = ((QmCatalogInfo *) spec)->price_usd;
  *fingerprint_out = spec_fingerprint (kind, spec);
  return TRUE;
}

static char *
prices_used (QmStore    *store,
             JsonObject *inputs)
{
  g_autoptr(JsonObject) out = json_object_new ();
  JsonObject *hardware = get_member_object (inputs, "hardware");

  for (guint k = 0; k < G_N_ELEMENTS (hardware_keys); k++)
    {
      g_autofree char *id = NULL;
      g_autofree char *fingerprint = NULL;
      double price = 0.0;
      JsonObject *item;

      if (!resolve_used (store, hardware, k, &id, &price, &fingerprint) && id == NULL)
        continue;
      item = json_object_new ();
      json_object_set_string_member (item, "id", id);
      if (fingerprint != NULL)
        {
          json_object_set_double_member (item, "price_usd", price);
          json_object_set_string_member (item, "spec", fingerprint);
        }
      json_object_set_object_member (out, hardware_keys[k].key, item);
    }
  return object_to_text (out, FALSE);
}

static gboolean
json_valid_text (const char *text)
{
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  return node != NULL;
}

static char *
format_usd (double v)
{
  g_autofree char *digits = g_strdup_printf ("%.0f", v < 0 ? -v : v);
  GString *s = g_string_new (v < 0 ? "-$" : "$");
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------ */
/* Save and load.                                                      */

static void
bind_or_empty (sqlite3_stmt *stmt,
               int           index,
               const char   *text)
{
  sqlite3_bind_text (stmt, index, text != NULL ? text : "", -1, SQLITE_TRANSIENT);
}

/* The stored snapshot and prices of @id, to keep them when the snapshot
 * did not change. */
static gboolean
read_pricing (QmStore  *store,
              gint64    id,
              char    **snapshot,
              char    **prices,
              char    **version,
              gint64   *created,
              GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = qm_store_prepare (store,
                                                   "SELECT d.snapshot, d.prices, p.catalog_version, p.created"
                                                   " FROM plan p JOIN plan_data d ON d.plan_id = p.id"
                                                   " WHERE p.id = ?1",
                                                   error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   "Could not save the plan: there is no saved plan %" G_GINT64_FORMAT
                   " any more (was it deleted?)", id);
      return FALSE;
    }
  if (rc != SQLITE_ROW)
    {
      qm_store_fail (store, error, rc, "Could not save the plan");
      return FALSE;
    }
  *snapshot = qm_store_column_dup (stmt, 0);
  *prices = qm_store_column_dup (stmt, 1);
  *version = qm_store_column_dup (stmt, 2);
  *created = sqlite3_column_int64 (stmt, 3);
  return TRUE;
}

typedef struct
{
  gint64  id;
  gint64  created;
  gint64  modified;
  char   *name;
  char   *notes;
  char   *inputs;
  char   *prices;
  char   *version;
} SaveResult;

static void
save_result_clear (SaveResult *r)
{
  g_free (r->name);
  g_free (r->notes);
  g_free (r->inputs);
  g_free (r->prices);
  g_free (r->version);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SaveResult, save_result_clear)

/* Writes @plan inside the caller's transaction. */
static gboolean
save_locked (QmStore            *store,
             const QmSavedPlan  *plan,
             SaveResult         *res,
             GError            **error)
{
  g_autoptr(JsonObject) inputs = NULL;
  g_autoptr(JsonObject) snapshot_check = NULL;
  g_autofree char *what = NULL;
  g_autofree char *search_key = NULL;
  g_autofree char *old_snapshot = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  res->modified = g_get_real_time ();
  res->created = res->modified;
  res->id = plan->id;

  if (plan->inputs == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "Could not save the plan: it has no inputs");
      return FALSE;
    }
  if ((inputs = parse_json_object (plan->inputs, -1, "Could not save the plan: inputs", error)) == NULL)
    return FALSE;
  if (plan->snapshot != NULL &&
      (snapshot_check = parse_json_object (plan->snapshot, -1, "Could not save the plan: snapshot", error)) == NULL)
    return FALSE;

  res->name = g_strdup (plan->name != NULL && *plan->name ? plan->name : get_member_string (inputs, "name"));
  if (res->name != NULL)
    g_strstrip (res->name);
  if (res->name == NULL || *res->name == '\0')
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "Could not save the plan: name: a plan needs a name");
      return FALSE;
    }
  res->notes = g_strdup (plan->notes != NULL ? plan->notes : get_member_string (inputs, "notes"));
  what = g_strdup_printf ("Could not save the plan \"%s\"", res->name);

  /* The file and the row say the same name, notes, customer and quote. */
  json_object_set_string_member (inputs, "name", res->name);
  if (res->notes != NULL && *res->notes != '\0')
    json_object_set_string_member (inputs, "notes", res->notes);
  else if (json_object_has_member (inputs, "notes"))
    json_object_remove_member (inputs, "notes");
  if (plan->customer != NULL && *plan->customer != '\0')
    json_object_set_string_member (inputs, "customer", plan->customer);
  if (plan->quote_ref != NULL && *plan->quote_ref != '\0')
    json_object_set_string_member (inputs, "quote_ref", plan->quote_ref);
  res->inputs = object_to_text (inputs, FALSE);
  search_key = qm_plan_search_key (res->name, plan->customer, plan->tags, plan->model, plan->quote_ref);

  if (res->id != 0)
    {
      g_autofree char *old_prices = NULL;
      g_autofree char *old_version = NULL;

      if (!read_pricing (store, res->id, &old_snapshot, &old_prices, &old_version, &res->created, error))
        return FALSE;
      if (g_strcmp0 (old_snapshot, plan->snapshot) == 0)
        {
          res->prices = g_steal_pointer (&old_prices);
          res->version = g_steal_pointer (&old_version);
        }
    }
  if (res->prices == NULL)
    {
      res->prices = prices_used (store, inputs);
      res->version = qm_catalog_store_version (store);
      if (res->version == NULL)
        res->version = g_strdup (qm_catalog_version ());
    }

  if (res->id == 0)
    stmt = qm_store_prepare (store,
                             "INSERT INTO plan (name, customer, quote_ref, tags, model, gpus, days,"
                             " total_cost, catalog_version, created, modified, search_key)"
                             " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11)",
                             error);
  else
    stmt = qm_store_prepare (store,
                             "UPDATE plan SET name = ?1, customer = ?2, quote_ref = ?3, tags = ?4,"
                             " model = ?5, gpus = ?6, days = ?7, total_cost = ?8,"
                             " catalog_version = ?9, modified = ?10, search_key = ?11"
                             " WHERE id = ?12",
                             error);
  if (stmt == NULL)
    return FALSE;
  bind_or_empty (stmt, 1, res->name);
  bind_or_empty (stmt, 2, plan->customer);
  bind_or_empty (stmt, 3, plan->quote_ref);
  bind_or_empty (stmt, 4, plan->tags);
  bind_or_empty (stmt, 5, plan->model);
  sqlite3_bind_int64 (stmt, 6, plan->gpus);
  sqlite3_bind_double (stmt, 7, plan->days);
  sqlite3_bind_double (stmt, 8, plan->total_cost);
  bind_or_empty (stmt, 9, res->version);
  sqlite3_bind_int64 (stmt, 10, res->modified);
  sqlite3_bind_text (stmt, 11, search_key, -1, SQLITE_STATIC);
  if (res->id != 0)
    sqlite3_bind_int64 (stmt, 12, res->id);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "%s", what);
      return FALSE;
    }
  if (res->id == 0)
    res->id = sqlite3_last_insert_rowid (qm_store_db (store));
  g_clear_pointer (&stmt, sqlite3_finalize);

  stmt = qm_store_prepare (store,
                           "INSERT INTO plan_data (plan_id, notes, inputs, snapshot, prices)"
                           " VALUES (?1, ?2, ?3, ?4, ?5)"
                           " ON CONFLICT (plan_id) DO UPDATE SET notes = excluded.notes,"
                           "  inputs = excluded.inputs, snapshot = excluded.snapshot,"
                           "  prices = excluded.prices",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, res->id);
  bind_or_empty (stmt, 2, res->notes);
  sqlite3_bind_text (stmt, 3, res->inputs, -1, SQLITE_STATIC);
  qm_store_bind_text (stmt, 4, plan->snapshot);
  sqlite3_bind_text (stmt, 5, res->prices, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "%s", what);
      return FALSE;
    }
  return TRUE;
}

/* Only once the row is on disk does the caller's copy change. */
static void
save_result_apply (SaveResult  *res,
                   QmSavedPlan *plan)
{
  plan->id = res->id;
  plan->created = res->created;
  plan->modified = res->modified;
  g_free (plan->name);
  plan->name = g_steal_pointer (&res->name);
  g_free (plan->notes);
  plan->notes = g_steal_pointer (&res->notes);
  g_free (plan->inputs);
  plan->inputs = g_steal_pointer (&res->inputs);
  g_free (plan->catalog_version);
  plan->catalog_version = g_steal_pointer (&res->version);
  g_free (plan->prices);
  plan->prices = g_steal_pointer (&res->prices);
}

gboolean
qm_plan_store_save (QmStore      *store,
                    QmSavedPlan  *plan,
                    GError      **error)
{
  g_auto(SaveResult) res = { 0 };
  const char *what = "Could not save the plan";

  g_return_val_if_fail (plan != NULL, FALSE);

  if (!qm_store_begin (store, what, error))
    return FALSE;
  if (!save_locked (store, plan, &res, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  if (!qm_store_commit (store, what, error))
    return FALSE;
  save_result_apply (&res, plan);
  return TRUE;
}

#define PLAN_COLUMNS \
  "p.id, p.name, p.customer, p.quote_ref, p.tags, p.model, p.gpus, p.days, p.total_cost," \
  " p.catalog_version, p.created, p.modified, p.search_key"

QmSavedPlan *
qm_plan_store_load (QmStore  *store,
                    gint64    id,
                    GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = qm_store_prepare (store,
                                                   "SELECT " PLAN_COLUMNS ", d.notes, d.inputs, d.snapshot, d.prices"
                                                   " FROM plan p JOIN plan_data d ON d.plan_id = p.id"
                                                   " WHERE p.id = ?1",
                                                   error);
  QmSavedPlan *plan;
  int rc;

  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   "There is no saved plan %" G_GINT64_FORMAT, id);
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      qm_store_fail (store, error, rc, "Could not read the plan %" G_GINT64_FORMAT, id);
      return NULL;
    }
  plan = qm_saved_plan_new ();
  plan->id = sqlite3_column_int64 (stmt, 0);
  plan->name = qm_store_column_dup (stmt, 1);
  plan->customer = qm_store_column_dup (stmt, 2);
  plan->quote_ref = qm_store_column_dup (stmt, 3);
  plan->tags = qm_store_column_dup (stmt, 4);
  plan->model = qm_store_column_dup (stmt, 5);
  plan->gpus = sqlite3_column_int64 (stmt, 6);
  plan->days = sqlite3_column_double (stmt, 7);
  plan->total_cost = sqlite3_column_double (stmt, 8);
  plan->catalog_version = qm_store_column_dup (stmt, 9);
  plan->created = sqlite3_column_int64 (stmt, 10);
  plan->modified = sqlite3_column_int64 (stmt, 11);
  /* 12 is the search key. */
  plan->notes = qm_store_column_dup (stmt, 13);
  plan->inputs = qm_store_column_dup (stmt, 14);
  plan->snapshot = qm_store_column_dup (stmt, 15);
  plan->prices = qm_store_column_dup (stmt, 16);
  return plan;
}

/* ------------------------------------------------------------------ */
/* Listing.                                                            */

static QmPlanSummary *
summary_from_row (sqlite3_stmt *stmt)
{
  QmPlanSummary *s = g_new0 (QmPlanSummary, 1);

  s->id = sqlite3_column_int64 (stmt, 0);
  s->name = qm_store_column_dup (stmt, 1);
  s->customer = qm_store_column_dup (stmt, 2);
  s->quote_ref = qm_store_column_dup (stmt, 3);
  s->tags = qm_store_column_dup (stmt, 4);
  s->model = qm_store_column_dup (stmt, 5);
  s->gpus = sqlite3_column_int64 (stmt, 6);
  s->days = sqlite3_column_double (stmt, 7);
  s->total_cost = sqlite3_column_double (stmt, 8);
  s->catalog_version = qm_store_column_dup (stmt, 9);
  s->created = sqlite3_column_int64 (stmt, 10);
  s->modified = sqlite3_column_int64 (stmt, 11);
  s->search_key = qm_store_column_dup (stmt, 12);
  return s;
}


static gpointer
list_where (QmStore     *store,
            gboolean     trash,
            gboolean     ids_only,
            const char  *search,
            GError     **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_plan_summary_free);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GString) sql = g_string_new (ids_only ? "SELECT p.id FROM plan p WHERE "
                                                  : "SELECT " PLAN_COLUMNS " FROM plan p WHERE ");
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_auto(GStrv) words = qm_plan_search_words (search);
  guint n_words = g_strv_length (words);
  int rc;

  g_string_append (sql, trash ? "p.trashed_session = ?1" : "p.trashed_session IS NULL");
  /* Placeholders only: the words themselves are bound. */
  for (guint i = 0; i < n_words; i++)
    g_string_append_printf (sql, " AND instr (p.search_key, ?%u) > 0", 2 + i);
  g_string_append (sql, " ORDER BY p.modified DESC, p.id DESC");

  if ((stmt = qm_store_prepare (store, sql->str, error)) == NULL)
    return NULL;
  if (trash)
    sqlite3_bind_text (stmt, 1, qm_store_session_id (store), -1, SQLITE_STATIC);
  for (guint i = 0; i < n_words; i++)
    sqlite3_bind_text (stmt, 2 + i, words[i], -1, SQLITE_STATIC);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (ids_only)
        {
          gint64 id = sqlite3_column_int64 (stmt, 0);
          g_array_append_val (ids, id);
        }
      else
        g_ptr_array_add (out, summary_from_row (stmt));
    }
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not list the saved plans");
      return NULL;
    }
  return ids_only ? (gpointer) g_steal_pointer (&ids) : (gpointer) g_steal_pointer (&out);
}

GArray *
qm_plan_store_search_ids (QmStore     *store,
                          const char  *search,
                          GError     **error)
{
  return list_where (store, FALSE, TRUE, search, error);
}

GPtrArray *
qm_plan_store_list (QmStore     *store,
                    const char  *search,
                    GError     **error)
{
  return list_where (store, FALSE, FALSE, search, error);
}

GPtrArray *
qm_plan_store_list_trash (QmStore  *store,
                          GError  **error)
{
  return list_where (store, TRUE, FALSE, NULL, error);
}

guint
qm_plan_store_count (QmStore *store)
{
  g_autoptr(sqlite3_stmt) stmt = qm_store_prepare (store,
                                                   "SELECT count(*) FROM plan WHERE trashed_session IS NULL",
                                                   NULL);

  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW)
    return 0;
  return sqlite3_column_int (stmt, 0);
}

gint64
qm_plan_store_find (QmStore     *store,
                    const char  *name_or_id,
                    GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  char *end = NULL;
  gint64 id;

  g_return_val_if_fail (name_or_id != NULL, 0);

  id = g_ascii_strtoll (name_or_id, &end, 10);
  if (*name_or_id != '\0' && end != NULL && *end == '\0' && id > 0)
    stmt = qm_store_prepare (store, "SELECT id FROM plan WHERE trashed_session IS NULL AND id = ?2"
                             " UNION ALL SELECT id FROM plan WHERE trashed_session IS NULL AND name = ?1"
                             " LIMIT 1", error);
  else
    stmt = qm_store_prepare (store, "SELECT id FROM plan WHERE trashed_session IS NULL AND name = ?1"
                             " ORDER BY modified DESC LIMIT 1", error);
  if (stmt == NULL)
    return 0;
  sqlite3_bind_text (stmt, 1, name_or_id, -1, SQLITE_STATIC);
  if (sqlite3_bind_parameter_count (stmt) >= 2)
    sqlite3_bind_int64 (stmt, 2, id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    return sqlite3_column_int64 (stmt, 0);
  g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
               "There is no saved plan named \"%s\" in %s", name_or_id, qm_store_path (store));
  return 0;
}

/* ------------------------------------------------------------------ */
/* Duplicate, rename, trash.                                           */

gint64
qm_plan_store_duplicate (QmStore     *store,
                         gint64       id,
                         const char  *name,
                         GError     **error)
{
  g_autoptr(QmSavedPlan) plan = qm_plan_store_load (store, id, error);
  g_autofree char *new_name = NULL;
  g_autofree char *inputs = NULL;
  g_autofree char *search_key = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(JsonObject) o = NULL;
  gint64 now = g_get_real_time ();
  gint64 new_id;
  int rc;

  if (plan == NULL)
    return 0;
  new_name = name != NULL && *name ? g_strdup (name) : g_strdup_printf ("%s (copy)", plan->name);
  if ((o = parse_json_object (plan->inputs, -1, "inputs", error)) == NULL)
    return 0;
  json_object_set_string_member (o, "name", new_name);
  inputs = object_to_text (o, FALSE);
  search_key = qm_plan_search_key (new_name, plan->customer, plan->tags, plan->model, plan->quote_ref);

  if (!qm_store_begin (store, "Could not duplicate the plan", error))
    return 0;
  /* The copy keeps the snapshot and the prices it was quoted with. */
  stmt = qm_store_prepare (store,
                           "INSERT INTO plan (name, customer, quote_ref, tags, model, gpus, days,"
                           " total_cost, catalog_version, created, modified, search_key)"
                           " SELECT ?1, customer, quote_ref, tags, model, gpus, days, total_cost,"
                           "  catalog_version, ?2, ?2, ?3 FROM plan WHERE id = ?4",
                           error);
  if (stmt == NULL)
    goto fail;
  sqlite3_bind_text (stmt, 1, new_name, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, now);
  sqlite3_bind_text (stmt, 3, search_key, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 4, id);
  if ((rc = sqlite3_step (stmt)) != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not duplicate the plan \"%s\"", plan->name);
      goto fail;
    }
  new_id = sqlite3_last_insert_rowid (qm_store_db (store));
  g_clear_pointer (&stmt, sqlite3_finalize);

  stmt = qm_store_prepare (store,
                           "INSERT INTO plan_data (plan_id, notes, inputs, snapshot, prices)"
                           " SELECT ?1, notes, ?2, snapshot, prices FROM plan_data WHERE plan_id = ?3",
                           error);
  if (stmt == NULL)
    goto fail;
  sqlite3_bind_int64 (stmt, 1, new_id);
  sqlite3_bind_text (stmt, 2, inputs, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 3, id);
  if ((rc = sqlite3_step (stmt)) != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not duplicate the plan \"%s\"", plan->name);
      goto fail;
    }
  if (!qm_store_commit (store, "Could not duplicate the plan", error))
    return 0;
  return new_id;

fail:
  qm_store_rollback (store);
  return 0;
}

gboolean
qm_plan_store_rename (QmStore     *store,
                      gint64       id,
                      const char  *name,
                      GError     **error)
{
  g_autoptr(QmSavedPlan) plan = NULL;
  g_autofree char *trimmed = g_strstrip (g_strdup (name != NULL ? name : ""));

  if (*trimmed == '\0')
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "Could not rename the plan: name: a plan needs a name");
      return FALSE;
    }
  if ((plan = qm_plan_store_load (store, id, error)) == NULL)
    return FALSE;
  g_free (plan->name);
  plan->name = g_steal_pointer (&trimmed);
  /* Same snapshot: the prices it was quoted with are kept. */
  return qm_plan_store_save (store, plan, error);
}

static gboolean
exec_id (QmStore     *store,
         const char  *sql,
         gint64       id,
         gboolean     bind_session,
         const char  *what,
         GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!qm_store_check_writable (store, what, error))
    return FALSE;
  if ((stmt = qm_store_prepare (store, sql, error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  if (bind_session)
    {
      sqlite3_bind_text (stmt, 2, qm_store_session_id (store), -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 3, g_get_real_time ());
    }
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "%s", what);
      return FALSE;
    }
  if (sqlite3_changes (qm_store_db (store)) == 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   "%s: there is no such plan (%" G_GINT64_FORMAT ")", what, id);
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_plan_store_trash (QmStore  *store,
                     gint64    id,
                     GError  **error)
{
  return exec_id (store,
                  "UPDATE plan SET trashed_session = ?2, trashed_at = ?3"
                  " WHERE id = ?1 AND trashed_session IS NULL",
                  id, TRUE, "Could not delete the plan", error);
}

gboolean
qm_plan_store_restore (QmStore  *store,
                       gint64    id,
                       GError  **error)
{
  return exec_id (store,
                  "UPDATE plan SET trashed_session = NULL, trashed_at = NULL"
                  " WHERE id = ?1 AND trashed_session IS NOT NULL",
                  id, FALSE, "Could not restore the plan", error);
}

gboolean
qm_plan_store_delete (QmStore  *store,
                      gint64    id,
                      GError  **error)
{
  return exec_id (store, "DELETE FROM plan WHERE id = ?1", id, FALSE,
                  "Could not delete the plan", error);
}

gboolean
qm_plan_store_purge_trash (QmStore  *store,
                           GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (!qm_store_check_writable (store, "Could not empty the trash", error))
    return FALSE;
  if ((stmt = qm_store_prepare (store, "DELETE FROM plan WHERE trashed_session = ?1", error)) == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, qm_store_session_id (store), -1, SQLITE_STATIC);
  if ((rc = sqlite3_step (stmt)) != SQLITE_DONE)
    {
      qm_store_fail (store, error, rc, "Could not empty the trash");
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Has the catalog moved since the quote?                              */

gboolean
qm_plan_store_catalog_changed (QmStore     *store,
                               gint64       id,
                               GPtrArray  **changes,
                               GError     **error)
{
  g_autoptr(QmSavedPlan) plan = qm_plan_store_load (store, id, error);
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonObject) inputs = NULL;
  g_autoptr(JsonObject) used = NULL;
  JsonObject *hardware;

  if (changes != NULL)
    *changes = NULL;
  if (plan == NULL)
    return FALSE;
  if ((inputs = parse_json_object (plan->inputs, -1, "inputs", error)) == NULL ||
      (used = parse_json_object (plan->prices, -1, "prices", error)) == NULL)
    return FALSE;
  hardware = get_member_object (inputs, "hardware");

  for (guint k = 0; k < G_N_ELEMENTS (hardware_keys); k++)
    {
      const char *key = hardware_keys[k].key;
      JsonObject *then = get_member_object (used, key);
      g_autofree char *id_now = NULL;
      g_autofree char *fingerprint = NULL;
      double price_now = 0.0;
      gboolean found;

      if (then == NULL)
        continue;
      found = resolve_used (store, hardware, k, &id_now, &price_now, &fingerprint);
      if (!json_object_has_member (then, "spec"))
        {
          if (found)
            g_ptr_array_add (out, g_strdup_printf ("%s %s: was not in the catalog when quoted; it is now",
                                                   key, id_now));
          continue;
        }
      if (!found)
        {
          g_ptr_array_add (out, g_strdup_printf ("%s %s: no longer in the catalog", key,
                                                 get_member_string (then, "id")));
          continue;
        }
      if (json_object_get_double_member (then, "price_usd") != price_now)
        {
          g_autofree char *a = format_usd (json_object_get_double_member (then, "price_usd"));
          g_autofree char *b = format_usd (price_now);

          g_ptr_array_add (out, g_strdup_printf ("%s %s: price %s when quoted, %s today",
                                                 key, id_now, a, b));
        }
      if (g_strcmp0 (get_member_string (then, "spec"), fingerprint) != 0)
        g_ptr_array_add (out, g_strdup_printf ("%s %s: its catalog figures changed since the quote "
                                               "(catalog %s then, %s now)",
                                               key, id_now, plan->catalog_version,
                                               qm_catalog_version ()));
    }

  if (changes != NULL)
    *changes = g_ptr_array_ref (out);
  return out->len > 0;
}

/* ------------------------------------------------------------------ */
/* Plan files.                                                         */

char *
qm_plan_store_embed_custom (QmStore     *store,
                            const char  *inputs,
                            GError     **error)
{
  g_autoptr(JsonObject) o = parse_json_object (inputs, -1, "plan", error);
  JsonObject *hardware;

  if (o == NULL)
    return NULL;
  hardware = get_member_object (o, "hardware");
  for (guint k = 0; hardware != NULL && k < G_N_ELEMENTS (hardware_keys); k++)
    {
      g_autofree char *spec_key = g_strconcat (hardware_keys[k].key, "_spec", NULL);
      const char *id = get_member_string (hardware, hardware_keys[k].key);
      g_autoptr(QmCatalogEntry) entry = NULL;
      JsonNode *node;

      if (id == NULL || json_object_has_member (hardware, spec_key))
        continue;
      entry = qm_catalog_store_get (store, hardware_keys[k].kind, id, NULL);
      /* Built-in entries ship with every copy of Quartermaster. */
      if (entry == NULL || entry->builtin)
        continue;
      node = json_from_string (entry->json, error);
      if (node == NULL)
        return NULL;
      json_object_set_member (hardware, spec_key, node);
    }
  return object_to_text (o, TRUE);
}

gboolean
qm_plan_store_read_plan (QmStore     *store,
                         const char  *inputs,
                         QmPlan      *plan,
                         GPtrArray  **warnings,
                         GError     **error)
{
  g_autoptr(JsonObject) original = parse_json_object (inputs, -1, "plan", error);
  g_autofree char *embedded = NULL;
  JsonObject *hardware;
  QmCatalogInfo *infos[4];
  gboolean had_spec[4];

  if (original == NULL)
    return FALSE;
  if ((embedded = qm_plan_store_embed_custom (store, inputs, error)) == NULL)
    return FALSE;
  if (!qm_plan_load_from_data (plan, embedded, -1, warnings, error))
    return FALSE;

  /* Price overrides: the user's price wins for hardware the file does not
   * carry itself. */
  hardware = get_member_object (original, "hardware");
  infos[0] = &plan->hardware.gpu.info;
  infos[1] = &plan->hardware.server.info;
  infos[2] = &plan->hardware.network.info;
  infos[3] = &plan->hardware.storage.info;
  for (guint k = 0; k < G_N_ELEMENTS (hardware_keys); k++)
    {
      g_autofree char *spec_key = g_strconcat (hardware_keys[k].key, "_spec", NULL);
      const char *id = get_member_string (hardware, hardware_keys[k].key);
      g_autoptr(QmCatalogEntry) entry = NULL;

      had_spec[k] = hardware != NULL && json_object_has_member (hardware, spec_key);
      if (had_spec[k] || id == NULL)
        continue;
      entry = qm_catalog_store_get (store, hardware_keys[k].kind, id, NULL);
      if (entry != NULL)
        infos[k]->price_usd = entry->price_usd;
    }
  return TRUE;
}

/* Checks a plan file as the core reads it, with this store's catalog;
 * errors are prefixed with @source. */
static JsonObject *
check_plan_file (QmStore     *store,
                 const char  *data,
                 gssize       length,
                 const char  *source,
                 GPtrArray  **warnings,
                 GError     **error)
{
  g_autofree char *text = length < 0 ? g_strdup (data) : g_strndup (data, length);
  g_autoptr(JsonObject) o = NULL;
  g_autoptr(GError) local = NULL;
  QmPlan *plan;
  gboolean ok;

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s: the file is not UTF-8 text", source);
      return NULL;
    }
  plan = g_new0 (QmPlan, 1);
  ok = qm_plan_store_read_plan (store, text, plan, warnings, &local);
  g_free (plan);
  if (!ok)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, "%s: %s", source, local->message);
      return NULL;
    }
  o = parse_json_object (text, -1, source, error);
  return g_steal_pointer (&o);
}

static gboolean
add_embedded_entries (QmStore     *store,
                      JsonObject  *inputs,
                      GError     **error)
{
  JsonObject *hardware = get_member_object (inputs, "hardware");

  for (guint k = 0; hardware != NULL && k < G_N_ELEMENTS (hardware_keys); k++)
    {
      g_autofree char *spec_key = g_strconcat (hardware_keys[k].key, "_spec", NULL);
      JsonObject *spec = get_member_object (hardware, spec_key);
      g_autoptr(QmCatalogEntry) existing = NULL;
      g_autofree char *text = NULL;
      const char *id;

      if (spec == NULL || (id = get_member_string (spec, "id")) == NULL)
        continue;
      existing = qm_catalog_store_get (store, hardware_keys[k].kind, id, NULL);
      if (existing != NULL)
        continue;
      text = object_to_text (spec, FALSE);
      /* Inside the import's transaction: the add's own BEGIN would nest, so
       * write directly. */
      {
        g_autofree guint8 *parsed = g_malloc0 (qm_catalog_kind_struct_size (hardware_keys[k].kind));
        g_autoptr(JsonObject) canonical = NULL;
        g_autofree char *canonical_text = NULL;
        g_autoptr(sqlite3_stmt) stmt = NULL;
        const QmCatalogInfo *info = (const QmCatalogInfo *) parsed;
        gint64 now = g_get_real_time ();
        int rc;

        if (!qm_catalog_parse_object (hardware_keys[k].kind, spec, QM_CATALOG_PARSE_NONE, parsed, error))
          {
            g_prefix_error (error, "hardware.%s.", spec_key);
            return FALSE;
          }
        canonical = qm_catalog_spec_to_json (hardware_keys[k].kind, parsed);
        canonical_text = object_to_text (canonical, FALSE);
        stmt = qm_store_prepare (store,
                                 "INSERT INTO catalog_user (kind, id, vendor, name, price_usd, source,"
                                 " as_of, entry, created, modified)"
                                 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
                                 error);
        if (stmt == NULL)
          return FALSE;
        sqlite3_bind_text (stmt, 1, qm_catalog_kind_to_string (hardware_keys[k].kind), -1, SQLITE_STATIC);
        bind_or_empty (stmt, 2, info->id);
        bind_or_empty (stmt, 3, info->vendor);
        bind_or_empty (stmt, 4, info->name);
        sqlite3_bind_double (stmt, 5, info->price_usd);
        bind_or_empty (stmt, 6, info->source);
        bind_or_empty (stmt, 7, info->as_of);
        sqlite3_bind_text (stmt, 8, canonical_text, -1, SQLITE_STATIC);
        sqlite3_bind_int64 (stmt, 9, now);
        if ((rc = sqlite3_step (stmt)) != SQLITE_DONE)
          {
            qm_store_fail (store, error, rc, "Could not add the %s \"%s\" from the plan",
                           hardware_keys[k].key, info->id);
            return FALSE;
          }
      }
    }
  return TRUE;
}

static char *
dup_nonempty (const char *a,
              const char *b)
{
  return g_strdup (a != NULL && *a != '\0' ? a : b);
}

gint64
qm_plan_store_import_data (QmStore            *store,
                           const char         *data,
                           gssize              length,
                           const char         *source,
                           const QmSavedPlan  *extra,
                           GPtrArray         **warnings,
                           GError            **error)
{
  g_autoptr(JsonObject) o = NULL;
  g_autoptr(QmSavedPlan) plan = qm_saved_plan_new ();
  g_autofree char *what = NULL;
  g_autofree char *text = NULL;
  g_auto(SaveResult) res = { 0 };

  g_return_val_if_fail (data != NULL, 0);

  if (source == NULL)
    source = "plan";
  if ((o = check_plan_file (store, data, length, source, warnings, error)) == NULL)
    return 0;

  text = object_to_text (o, FALSE);
  plan->inputs = g_steal_pointer (&text);
  plan->name = dup_nonempty (extra ? extra->name : NULL, get_member_string (o, "name"));
  if (plan->name == NULL || *plan->name == '\0')
    {
      g_autofree char *base = g_path_get_basename (source);
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      g_free (plan->name);
      plan->name = g_steal_pointer (&base);
    }
  plan->customer = dup_nonempty (extra ? extra->customer : NULL, get_member_string (o, "customer"));
  plan->quote_ref = dup_nonempty (extra ? extra->quote_ref : NULL, get_member_string (o, "quote_ref"));
  if (extra != NULL)
    {
      plan->tags = g_strdup (extra->tags);
      plan->snapshot = g_strdup (extra->snapshot);
      plan->model = g_strdup (extra->model);
      plan->gpus = extra->gpus;
      plan->days = extra->days;
      plan->total_cost = extra->total_cost;
      if (extra->notes != NULL)
        plan->notes = g_strdup (extra->notes);
    }

  /* The catalog entries the file carries and the plan go in together,
   * in one transaction. */
  what = g_strdup_printf ("Could not import %s", source);
  if (!qm_store_begin (store, what, error))
    return 0;
  if (!add_embedded_entries (store, o, error) || !save_locked (store, plan, &res, error))
    {
      g_prefix_error (error, "%s: ", source);
      qm_store_rollback (store);
      return 0;
    }
  if (!qm_store_commit (store, what, error))
    return 0;
  return res.id;
}

gint64
qm_plan_store_import_file (QmStore            *store,
                           const char         *path,
                           const QmSavedPlan  *extra,
                           GPtrArray         **warnings,
                           GError            **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) local = NULL;

  if (!g_file_get_contents (path, &contents, &length, &local))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN, "%s", local->message);
      return 0;
    }
  return qm_plan_store_import_data (store, contents, length, path, extra, warnings, error);
}

char *
qm_plan_store_export_data (QmStore  *store,
                           gint64    id,
                           gsize    *length,
                           GError  **error)
{
  g_autoptr(QmSavedPlan) plan = qm_plan_store_load (store, id, error);
  char *text;

  if (plan == NULL)
    return NULL;
  text = qm_plan_store_embed_custom (store, plan->inputs, error);
  if (text != NULL && length != NULL)
    *length = strlen (text);
  return text;
}

gboolean
qm_plan_store_export_file (QmStore     *store,
                           gint64       id,
                           const char  *path,
                           GError     **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  g_autoptr(GError) local = NULL;

  if ((text = qm_plan_store_export_data (store, id, &length, error)) == NULL)
    return FALSE;
  /* g_file_set_contents writes a temporary file and renames it: a full
   * disk never leaves half a plan under the chosen name. */
  if (!g_file_set_contents (path, text, length, &local))
    {
      g_set_error (error, QM_STORE_ERROR,
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOSPC) ? QM_STORE_ERROR_FULL :
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
                   g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_ROFS) ? QM_STORE_ERROR_READ_ONLY :
                   QM_STORE_ERROR_FAILED,
                   "Could not export the plan to %s: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Salvage from a damaged file.                                        */

/* When a scan of the damaged table stops early, ids past the last one
 * read are probed one by one until this many in a row cannot be read:
 * ids are dense (INTEGER PRIMARY KEY), so rows behind a bad page sit just
 * past it. */
#define SALVAGE_PROBE_GAP 2000

static gboolean
salvage_plan (QmStore      *store,
              sqlite3_stmt *read,
              gint64        id)
{
  g_autoptr(QmSavedPlan) plan = NULL;
  g_auto(SaveResult) res = { 0 };
  g_autoptr(JsonObject) check = NULL;
  g_autoptr(sqlite3_stmt) times = NULL;

  sqlite3_reset (read);
  sqlite3_bind_int64 (read, 1, id);
  if (sqlite3_step (read) != SQLITE_ROW)
    return FALSE;

  plan = qm_saved_plan_new ();
  plan->name = qm_store_column_dup (read, 0);
  plan->customer = qm_store_column_dup (read, 1);
  plan->quote_ref = qm_store_column_dup (read, 2);
  plan->tags = qm_store_column_dup (read, 3);
  plan->model = qm_store_column_dup (read, 4);
  plan->gpus = sqlite3_column_int64 (read, 5);
  plan->days = sqlite3_column_double (read, 6);
  plan->total_cost = sqlite3_column_double (read, 7);
  plan->notes = qm_store_column_dup (read, 10);
  plan->inputs = qm_store_column_dup (read, 11);
  plan->snapshot = qm_store_column_dup (read, 12);

  /* Only whole plans: the inputs must still parse. */
  if (plan->inputs == NULL || (check = parse_json_object (plan->inputs, -1, "inputs", NULL)) == NULL)
    return FALSE;
  if (plan->snapshot != NULL && !json_valid_text (plan->snapshot))
    g_clear_pointer (&plan->snapshot, g_free);

  if (!qm_store_begin (store, "Could not copy a plan from the damaged database", NULL))
    return FALSE;
  if (!save_locked (store, plan, &res, NULL))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  /* Keep the quote's history: its dates and the prices it was quoted with. */
  times = qm_store_prepare (store, "UPDATE plan SET created = ?2, modified = ?3, catalog_version = ?4"
                            " WHERE id = ?1", NULL);
  if (times != NULL)
    {
      sqlite3_bind_int64 (times, 1, res.id);
      sqlite3_bind_int64 (times, 2, sqlite3_column_int64 (read, 8));
      sqlite3_bind_int64 (times, 3, sqlite3_column_int64 (read, 9));
      sqlite3_bind_text (times, 4, (const char *) sqlite3_column_text (read, 13), -1, SQLITE_TRANSIENT);
      sqlite3_step (times);
    }
  g_clear_pointer (&times, sqlite3_finalize);
  times = qm_store_prepare (store, "UPDATE plan_data SET prices = ?2 WHERE plan_id = ?1"
                            " AND json_valid (?2)", NULL);
  if (times != NULL)
    {
      sqlite3_bind_int64 (times, 1, res.id);
      sqlite3_bind_text (times, 2, (const char *) sqlite3_column_text (read, 14), -1, SQLITE_TRANSIENT);
      sqlite3_step (times);
    }
  return qm_store_commit (store, "Could not copy a plan from the damaged database", NULL);
}

static void
salvage_catalog (QmStore *store,
                 sqlite3 *old)
{
  g_autoptr(sqlite3_stmt) read = NULL;
  g_autoptr(sqlite3_stmt) write = NULL;

  if (sqlite3_prepare_v2 (old, "SELECT kind, id, vendor, name, price_usd, source, as_of, entry,"
                          " created, modified FROM catalog_user", -1, &read, NULL) == SQLITE_OK &&
      (write = qm_store_prepare (store, "INSERT OR IGNORE INTO catalog_user (kind, id, vendor, name,"
                                 " price_usd, source, as_of, entry, created, modified)"
                                 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", NULL)) != NULL)
    {
      while (sqlite3_step (read) == SQLITE_ROW)
        {
          sqlite3_reset (write);
          for (int c = 0; c < 10; c++)
            sqlite3_bind_value (write, c + 1, sqlite3_column_value (read, c));
          /* A row the CHECKs refuse (bad JSON) is simply skipped. */
          sqlite3_step (write);
        }
    }
  g_clear_pointer (&read, sqlite3_finalize);
  g_clear_pointer (&write, sqlite3_finalize);

  if (sqlite3_prepare_v2 (old, "SELECT kind, id, price_usd, modified FROM catalog_override",
                          -1, &read, NULL) == SQLITE_OK &&
      (write = qm_store_prepare (store, "INSERT OR IGNORE INTO catalog_override (kind, id, price_usd,"
                                 " modified) VALUES (?1, ?2, ?3, ?4)", NULL)) != NULL)
    {
      while (sqlite3_step (read) == SQLITE_ROW)
        {
          sqlite3_reset (write);
          for (int c = 0; c < 4; c++)
            sqlite3_bind_value (write, c + 1, sqlite3_column_value (read, c));
          sqlite3_step (write);
        }
    }
}

int
qm_store_salvage (QmStore     *store,
                  const char  *damaged_path,
                  GError     **error)
{
  g_autoptr(sqlite3_stmt) ids = NULL;
  g_autoptr(sqlite3_stmt) read = NULL;
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3 *old = NULL;
  gint64 last = 0;
  int copied = 0;
  int rc;

  if (!qm_store_check_writable (store, "Could not import from the damaged database", error))
    return -1;

  rc = sqlite3_open_v2 (damaged_path, &old, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK)
    {
      g_autofree char *what = g_strdup_printf ("Could not open the damaged database %s", damaged_path);
      qm_store_set_error (error, old, rc, what);
      sqlite3_close_v2 (old);
      return -1;
    }
  rc = sqlite3_prepare_v2 (old,
                           "SELECT p.name, p.customer, p.quote_ref, p.tags, p.model, p.gpus, p.days,"
                           " p.total_cost, p.created, p.modified, d.notes, d.inputs, d.snapshot,"
                           " p.catalog_version, d.prices"
                           " FROM plan p JOIN plan_data d ON d.plan_id = p.id"
                           " WHERE p.id = ?1 AND p.trashed_session IS NULL",
                           -1, &read, NULL);
  if (rc != SQLITE_OK)
    {
      /* No plan tables at all (an old schema, or page 1 is gone). */
      g_autofree char *what = g_strdup_printf ("Could not read any plans from %s", damaged_path);
      qm_store_set_error (error, old, rc, what);
      g_clear_pointer (&read, sqlite3_finalize);
      sqlite3_close_v2 (old);
      return -1;
    }

  /* Walk the ids as far as the table can be read, then probe past the
   * point where the walk stopped. */
  if (sqlite3_prepare_v2 (old, "SELECT id FROM plan ORDER BY id", -1, &ids, NULL) == SQLITE_OK)
    {
      while ((rc = sqlite3_step (ids)) == SQLITE_ROW)
        {
          gint64 id = sqlite3_column_int64 (ids, 0);
          g_array_append_val (seen, id);
          last = MAX (last, id);
        }
    }
  for (guint i = 0; i < seen->len; i++)
    copied += salvage_plan (store, read, g_array_index (seen, gint64, i));
  if (rc != SQLITE_DONE)
    for (gint64 id = last + 1, misses = 0; misses < SALVAGE_PROBE_GAP; id++)
      {
        gboolean ok = salvage_plan (store, read, id);

        copied += ok;
        misses = ok ? 0 : misses + 1;
      }

  salvage_catalog (store, old);

  g_clear_pointer (&ids, sqlite3_finalize);
  g_clear_pointer (&read, sqlite3_finalize);
  sqlite3_close_v2 (old);
  return copied;
}
