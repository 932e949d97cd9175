/* qm-plan-store.c: saved plans (schema in qm-store.c, step 2 → 3): save,
 * load, duplicate, rename and trash. Listing and search are in
 * qm-plan-store-list.c, plan files and the catalog check in
 * qm-plan-store-files.c, the salvage of a damaged file in
 * qm-plan-store-salvage.c.
 *
 * The store never estimates. The caller saves the inputs (the plan file
 * JSON), the estimate it showed (verbatim) and the list figures; the store
 * records which catalog entries and prices the plan used, so that it can
 * later say whether today's catalog would change the quote.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-plan-store-private.h"
#include "qm-store-recovery.h"
#include "qm-json-parse.h"

const QmPlanHardwareKey qm_plan_hardware_keys[QM_PLAN_N_HARDWARE_KEYS] = {
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

JsonObject *
qm_plan_store_parse_json (const char  *data,
                          gssize       length,
                          const char  *label,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local = NULL;
  JsonNode *root;

  /* Before parsing: a plan never needs more (qm-plan.h). */
  if ((length < 0 ? strlen (data) : (gsize) length) > QM_PLAN_MAX_BYTES)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: what was read ("Could not save the plan: inputs", or a
                    * file's name). */
                   _("%s: larger than 16 MB; not a plan file"), label);
      return NULL;
    }
  if (!qm_json_parser_load (parser, data, length, &local))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: what was read ("Could not save the plan: inputs", or a
                    * file's name), then the JSON parser's message. */
                   _("%s: not valid JSON: %s"), label, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: what was read ("Could not save the plan: inputs", or a
                    * file's name). */
                   _("%s: must be a JSON object"), label);
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

const char *
qm_plan_store_get_string (JsonObject *o,
                          const char *key)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, key) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

JsonObject *
qm_plan_store_get_object (JsonObject *o,
                          const char *key)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, key) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    return NULL;
  return json_node_get_object (n);
}

/* ------------------------------------------------------------------ */
/* What the plan uses from the catalog.                                */

/* The fingerprint of plans saved before issue #35 item 5 (prices
 * format 1, member "spec"): an entry's figures with price_usd left out.
 * Kept only to read those records. */
char *
qm_plan_store_fingerprint_v1 (QmCatalogKind kind,
                              gconstpointer spec)
{
  g_autofree guint8 *copy = g_memdup2 (spec, qm_catalog_kind_struct_size (kind));
  g_autoptr(JsonObject) o = NULL;
  g_autofree char *text = NULL;

  ((QmCatalogInfo *) copy)->price_usd = 0.0;
  o = qm_catalog_spec_to_json (kind, copy);
  text = qm_store_object_to_text (o, FALSE);
  return g_compute_checksum_for_string (G_CHECKSUM_SHA1, text, -1);
}

/* A fingerprint of what an entry gives the estimate besides its prices:
 * every money field (the price lines compare those on their own), its
 * name, vendor, source and date left out, so a new price or a corrected
 * source never reads as "its figures changed". */
char *
qm_plan_store_figures_fingerprint (QmCatalogKind kind,
                                   gconstpointer spec)
{
  static const char *const info_keys[] = { "name", "vendor", "source", "as_of", "price_usd" };
  g_autoptr(JsonObject) o = qm_catalog_spec_to_json (kind, spec);
  g_autofree char *text = NULL;
  const QmCatalogField *fields;
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (info_keys); i++)
    if (json_object_has_member (o, info_keys[i]))
      json_object_remove_member (o, info_keys[i]);
  fields = qm_catalog_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    if (fields[i].type == QM_CATALOG_FIELD_MONEY && json_object_has_member (o, fields[i].key))
      json_object_remove_member (o, fields[i].key);
  text = qm_store_object_to_text (o, FALSE);
  return g_compute_checksum_for_string (G_CHECKSUM_SHA1, text, -1);
}

/* Looks up hardware.<key> of @inputs as the estimate would: the file's own
 * embedded spec first, else this store's catalog (its price override
 * included, as qm_plan_store_read_plan applies it). NULL when neither has
 * it; *id_out is then set only when the plan names an id. Free the spec
 * with g_free(). */
gpointer
qm_plan_store_resolve_used (QmStore     *store,
                            JsonObject  *hardware,
                            guint        k,
                            char       **id_out)
{
  QmCatalogKind kind = qm_plan_hardware_keys[k].kind;
  g_autofree char *spec_key = g_strconcat (qm_plan_hardware_keys[k].key, "_spec", NULL);
  g_autofree guint8 *spec = g_malloc0 (qm_catalog_kind_struct_size (kind));
  JsonObject *embedded = qm_plan_store_get_object (hardware, spec_key);
  const char *id = qm_plan_store_get_string (hardware, qm_plan_hardware_keys[k].key);

  *id_out = NULL;
  if (embedded != NULL)
    {
      if (!qm_catalog_parse_object (kind, embedded, QM_CATALOG_PARSE_NONE, spec, NULL))
        return NULL;
      *id_out = g_strdup (id != NULL ? id : ((QmCatalogInfo *) spec)->id);
    }
  else if (id != NULL)
    {
      g_autoptr(QmCatalogEntry) entry = qm_catalog_store_get (store, kind, id, NULL);

      *id_out = g_strdup (id);
      if (entry == NULL || !qm_catalog_entry_parse (entry, spec, NULL))
        return NULL;
    }
  else
    return NULL;
  return g_steal_pointer (&spec);
}

/* Each line of the bill of materials that the estimate prices from a
 * catalog entry, by the label qm-cost.c gives it (build_bom () and the
 * rent lines of qm_cost ()): the entry (a hardware slot of the plan, or a
 * part the estimate picks from the built-in catalog itself) and the money
 * field it multiplies. A DGX or HGX system's GPUs are in its price, so
 * such a plan has no "GPUs" line and the GPU's price is none of its
 * business. */
static const QmPlanPricedLine priced_lines[] = {
  { "Servers",                        1, QM_CATALOG_KIND_SERVER,   "price_usd" },
  { "GPUs",                           0, QM_CATALOG_KIND_GPU,      "price_usd" },
  { "Compute NICs",                   2, QM_CATALOG_KIND_NETWORK,  "nic_usd" },
  { "Compute fabric switches",        2, QM_CATALOG_KIND_NETWORK,  "price_usd" },
  { "Storage fabric switches",        2, QM_CATALOG_KIND_NETWORK,  "price_usd" },
  { "Fabric cables",                  2, QM_CATALOG_KIND_NETWORK,  "cable_usd" },
  { "Optical transceivers",           2, QM_CATALOG_KIND_NETWORK,  "transceiver_usd" },
  { "Management switches",           -1, QM_CATALOG_KIND_NETWORK,  "price_usd" },
  { "Racks",                         -1, QM_CATALOG_KIND_FACILITY, "price_usd" },
  { "Liquid-cooled racks",           -1, QM_CATALOG_KIND_FACILITY, "price_usd" },
  { "Rack PDUs",                     -1, QM_CATALOG_KIND_FACILITY, "price_usd" },
  { "Storage capacity (TB)",          3, QM_CATALOG_KIND_STORAGE,  "usd_per_tb" },
  { "Storage write bandwidth (GB/s)", 3, QM_CATALOG_KIND_STORAGE,  "usd_per_gbs" },
  { "Storage (TB-months)",            3, QM_CATALOG_KIND_STORAGE,  "usd_per_tb_month" },
  /* The cloud offer's rate: on demand or reserved, as the plan rents. */
  { "GPU-hours",                     -1, QM_CATALOG_KIND_CLOUD,    NULL },
};

const QmPlanPricedLine *
qm_plan_store_priced_line (const char *item)
{
  for (guint i = 0; item != NULL && i < G_N_ELEMENTS (priced_lines); i++)
    if (g_str_equal (priced_lines[i].item, item))
      return &priced_lines[i];
  return NULL;
}

/* An entry the estimate takes from the built-in catalog (qm-estimate-
 * modules.c picks racks, PDUs and the cloud offer there, not in the
 * store: a price override on them does not reach an estimate, so it must
 * not mark a plan either). */
static gconstpointer
builtin_spec (QmCatalogKind  kind,
              const char    *id)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:      return qm_catalog_gpu (id);
    case QM_CATALOG_KIND_SERVER:   return qm_catalog_server (id);
    case QM_CATALOG_KIND_NETWORK:  return qm_catalog_network (id);
    case QM_CATALOG_KIND_STORAGE:  return qm_catalog_storage (id);
    case QM_CATALOG_KIND_FACILITY: return qm_catalog_facility_item (id);
    case QM_CATALOG_KIND_CLOUD:    return qm_catalog_cloud_offer (id);
    case QM_CATALOG_KIND_MODEL:
    case QM_N_CATALOG_KINDS:
    default:                       return NULL;
    }
}

/* The money field of @line for a plan that prices with @mode (the plan
 * file's pricing.mode). */
const char *
qm_plan_store_priced_field (const QmPlanPricedLine *line,
                            const char             *mode)
{
  if (line->field != NULL)
    return line->field;
  return g_strcmp0 (mode, "rent-reserved") == 0 ? "usd_per_gpu_hour_reserved"
                                               : "usd_per_gpu_hour_on_demand";
}

gboolean
qm_plan_store_price_today (QmStore                *store,
                           JsonObject             *hardware,
                           const QmPlanPricedLine *line,
                           const char             *field,
                           const char             *id,
                           double                 *usd)
{
  g_autofree guint8 *resolved = NULL;
  g_autofree char *resolved_id = NULL;
  g_autoptr(JsonObject) o = NULL;
  gconstpointer spec;
  JsonNode *value;

  if (line->slot >= 0)
    {
      resolved = qm_plan_store_resolve_used (store, hardware, line->slot, &resolved_id);
      /* The line is of the entry the plan names, or it moved on. */
      if (resolved == NULL || g_strcmp0 (resolved_id, id) != 0)
        return FALSE;
      spec = resolved;
    }
  else if ((spec = builtin_spec (line->kind, id)) == NULL)
    return FALSE;
  o = qm_catalog_spec_to_json (line->kind, spec);
  value = qm_catalog_json_lookup (o, field);
  *usd = value != NULL && JSON_NODE_HOLDS_VALUE (value) ? json_node_get_double (value) : 0.0;
  return TRUE;
}

/* What the saved quote is priced with (prices format 2): each hardware
 * slot's id and figures, and each catalog-priced line of the snapshot's
 * bill of materials with today's price of it. A snapshot without a bill
 * of materials (older ones) counts each slot's list price as used. */
static char *
prices_used (QmStore    *store,
             JsonObject *inputs,
             JsonObject *snapshot)
{
  g_autoptr(JsonObject) out = json_object_new ();
  JsonArray *lines = json_array_new ();
  JsonObject *hardware = qm_plan_store_get_object (inputs, "hardware");
  const char *mode = qm_plan_store_get_string (qm_plan_store_get_object (inputs, "pricing"), "mode");
  JsonNode *bom_node = snapshot != NULL ? json_object_get_member (snapshot, "bom") : NULL;
  JsonArray *bom = bom_node != NULL && JSON_NODE_HOLDS_ARRAY (bom_node) ? json_node_get_array (bom_node) : NULL;

  json_object_set_int_member (out, "format", 2);
  for (guint k = 0; k < QM_PLAN_N_HARDWARE_KEYS; k++)
    {
      g_autofree char *id = NULL;
      g_autofree guint8 *spec = qm_plan_store_resolve_used (store, hardware, k, &id);
      JsonObject *item;

      if (spec == NULL && id == NULL)
        continue;
      item = json_object_new ();
      json_object_set_string_member (item, "id", id);
      if (spec != NULL)
        {
          g_autofree char *figures = qm_plan_store_figures_fingerprint (qm_plan_hardware_keys[k].kind, spec);

          json_object_set_string_member (item, "figures", figures);
          if (bom == NULL)
            {
              JsonObject *line = json_object_new ();

              json_object_set_string_member (line, "item", qm_plan_hardware_keys[k].key);
              json_object_set_string_member (line, "id", id);
              json_object_set_string_member (line, "field", "price_usd");
              json_object_set_double_member (line, "usd", ((QmCatalogInfo *) spec)->price_usd);
              json_array_add_object_element (lines, line);
            }
        }
      json_object_set_object_member (out, qm_plan_hardware_keys[k].key, item);
    }

  for (guint i = 0; bom != NULL && i < json_array_get_length (bom); i++)
    {
      JsonNode *node = json_array_get_element (bom, i);
      JsonObject *b = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *item = qm_plan_store_get_string (b, "item");
      const char *id = qm_plan_store_get_string (b, "catalog_id");
      const QmPlanPricedLine *priced = qm_plan_store_priced_line (item);
      const char *field;
      JsonObject *line;
      double usd = 0.0;

      if (priced == NULL || id == NULL)
        continue;
      field = qm_plan_store_priced_field (priced, mode);
      if (!qm_plan_store_price_today (store, hardware, priced, field, id, &usd))
        continue;
      line = json_object_new ();
      json_object_set_string_member (line, "item", item);
      json_object_set_string_member (line, "id", id);
      json_object_set_string_member (line, "field", field);
      json_object_set_double_member (line, "usd", usd);
      json_array_add_object_element (lines, line);
    }
  json_object_set_array_member (out, "lines", lines);
  return qm_store_object_to_text (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Save and load.                                                      */

static void
bind_or_empty (QmDbStmt   *stmt,
               int         index,
               const char *text)
{
  qm_db_bind_text (stmt, index, text != NULL ? text : "");
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
  g_autoptr(QmDbStmt) stmt = qm_store_query (store,
                                             "SELECT d.snapshot, d.prices, p.catalog_version, p.created"
                                             " FROM plan p JOIN plan_data d ON d.plan_id = p.id"
                                             " WHERE p.id = ?1",
                                             error);
  QmDbStep rc;

  if (stmt == NULL)
    return FALSE;
  qm_db_bind_int64 (stmt, 1, id);
  rc = qm_db_step (stmt);
  if (rc == QM_DB_STEP_DONE)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   /* Translators: %lld is the saved plan's number. */
                   _("Could not save the plan: there is no saved plan %lld any more "
                     "(was it deleted?)"), (long long) id);
      return FALSE;
    }
  if (rc != QM_DB_STEP_ROW)
    {
      qm_store_db_fail (store, error, _("Could not save the plan"));
      return FALSE;
    }
  *snapshot = qm_db_column_dup (stmt, 0);
  *prices = qm_db_column_dup (stmt, 1);
  *version = qm_db_column_dup (stmt, 2);
  *created = qm_db_column_int64 (stmt, 3);
  return TRUE;
}

void
qm_plan_save_result_clear (QmPlanSaveResult *r)
{
  g_free (r->name);
  g_free (r->notes);
  g_free (r->inputs);
  g_free (r->prices);
  g_free (r->version);
}

/* The row's name and notes (the plan's, else the file's), and the file
 * made to say the same name, notes, customer and quote as the row. */
static gboolean
sync_inputs (const QmSavedPlan  *plan,
             JsonObject         *inputs,
             QmPlanSaveResult   *res,
             GError            **error)
{
  res->name = g_strdup (plan->name != NULL && *plan->name ? plan->name : qm_plan_store_get_string (inputs, "name"));
  if (res->name != NULL)
    g_strstrip (res->name);
  if (res->name == NULL || *res->name == '\0')
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   _("Could not save the plan: name: a plan needs a name"));
      return FALSE;
    }
  res->notes = g_strdup (plan->notes != NULL ? plan->notes : qm_plan_store_get_string (inputs, "notes"));

  json_object_set_string_member (inputs, "name", res->name);
  if (res->notes != NULL && *res->notes != '\0')
    json_object_set_string_member (inputs, "notes", res->notes);
  else if (json_object_has_member (inputs, "notes"))
    json_object_remove_member (inputs, "notes");
  if (plan->customer != NULL && *plan->customer != '\0')
    json_object_set_string_member (inputs, "customer", plan->customer);
  if (plan->quote_ref != NULL && *plan->quote_ref != '\0')
    json_object_set_string_member (inputs, "quote_ref", plan->quote_ref);
  res->inputs = qm_store_object_to_text (inputs, FALSE);
  return TRUE;
}

/* The prices the plan was quoted with: kept from the stored row while the
 * snapshot is the same (and the caller does not ask to reprice), else
 * what the catalog says today. */
static gboolean
pricing (QmStore            *store,
         const QmSavedPlan  *plan,
         JsonObject         *inputs,
         QmPlanSaveResult   *res,
         GError            **error)
{
  if (res->id != 0)
    {
      g_autofree char *old_snapshot = NULL;
      g_autofree char *old_prices = NULL;
      g_autofree char *old_version = NULL;

      if (!read_pricing (store, res->id, &old_snapshot, &old_prices, &old_version, &res->created, error))
        return FALSE;
      /* Recompute asks for today's prices even when the figures came
       * out the same. */
      if (!plan->reprice && g_strcmp0 (old_snapshot, plan->snapshot) == 0)
        {
          res->prices = g_steal_pointer (&old_prices);
          res->version = g_steal_pointer (&old_version);
        }
    }
  if (res->prices == NULL)
    {
      g_autoptr(JsonObject) snapshot = NULL;

      if (plan->snapshot != NULL)
        snapshot = qm_plan_store_parse_json (plan->snapshot, -1, "snapshot", NULL);
      res->prices = prices_used (store, inputs, snapshot);
      res->version = qm_catalog_store_version (store);
      if (res->version == NULL)
        res->version = g_strdup (qm_catalog_version ());
    }
  return TRUE;
}

/* The update changed nothing: the plan moved on (or went) since
 * @plan->revision was read. Nothing was written. */
static gboolean
stale_revision (QmStore            *store,
                const QmSavedPlan  *plan,
                const char         *name,
                GError            **error)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, "SELECT revision FROM plan WHERE id = ?1", error);

  if (stmt == NULL)
    return FALSE;
  qm_db_bind_int64 (stmt, 1, plan->id);
  switch (qm_db_step (stmt))
    {
    case QM_DB_STEP_ROW:
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT,
                   /* Translators: the plan's name, the revision this copy was read at,
                    * the database file or server, and the revision it has now. */
                   _("Could not save the plan \"%s\": someone else saved it meanwhile "
                     "(this copy is revision %lld, %s has revision %lld). Nothing was "
                     "overwritten; reload it, or save yours as a copy."),
                   name, (long long) plan->revision, qm_store_path (store),
                   (long long) qm_db_column_int64 (stmt, 0));
      return FALSE;
    case QM_DB_STEP_DONE:
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   /* Translators: %lld is the saved plan's number. */
                   _("Could not save the plan: there is no saved plan %lld any more "
                     "(was it deleted?)"), (long long) plan->id);
      return FALSE;
    case QM_DB_STEP_ERROR:
    default:
      qm_store_db_fail (store, error, _("Could not save the plan \"%s\""), name);
      return FALSE;
    }
}

/* After the INSERT or UPDATE: the new row's id, and the revision saved. */
static gboolean
saved_revision (QmStore            *store,
                const QmSavedPlan  *plan,
                QmPlanSaveResult   *res,
                const char         *what,
                GError            **error)
{
  QmDb *db = qm_store_connection (store);
  g_autoptr(QmDbStmt) stmt = NULL;

  if (res->id == 0)
    {
      res->revision = 1;
      if ((res->id = qm_db_last_insert_id (db)) > 0)
        return TRUE;
      qm_store_db_fail (store, error, "%s", what);
      return FALSE;
    }
  if (qm_db_changes (db) == 0)
    return stale_revision (store, plan, res->name, error);
  if (plan->revision > 0)
    {
      res->revision = plan->revision + 1;
      return TRUE;
    }
  /* Saved without a revision to check: read the one it got. */
  if ((stmt = qm_store_query (store, "SELECT revision FROM plan WHERE id = ?1", error)) == NULL)
    return FALSE;
  qm_db_bind_int64 (stmt, 1, res->id);
  if (qm_db_step (stmt) != QM_DB_STEP_ROW)
    {
      qm_store_db_fail (store, error, "%s", what);
      return FALSE;
    }
  res->revision = qm_db_column_int64 (stmt, 0);
  return TRUE;
}

gboolean
qm_plan_store_save_locked (QmStore            *store,
                           const QmSavedPlan  *plan,
                           QmPlanSaveResult   *res,
                           GError            **error)
{
  g_autoptr(JsonObject) inputs = NULL;
  g_autoptr(JsonObject) snapshot_check = NULL;
  g_autofree char *what = NULL;
  g_autofree char *search_key = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;

  res->modified = qm_store_now (store);
  res->created = res->modified;
  res->id = plan->id;

  if (plan->inputs == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   _("Could not save the plan: it has no inputs"));
      return FALSE;
    }
  /* Translators: "inputs" and "snapshot" are the parts of a saved plan
   * as its file names them; keep them as they are. */
  if ((inputs = qm_plan_store_parse_json (plan->inputs, -1, _("Could not save the plan: inputs"),
                                          error)) == NULL)
    return FALSE;
  if (plan->snapshot != NULL &&
      (snapshot_check = qm_plan_store_parse_json (plan->snapshot, -1,
                                                  _("Could not save the plan: snapshot"),
                                                  error)) == NULL)
    return FALSE;

  if (!sync_inputs (plan, inputs, res, error))
    return FALSE;
  what = g_strdup_printf (_("Could not save the plan \"%s\""), res->name);
  search_key = qm_plan_search_key (res->name, plan->customer, plan->tags, plan->model, plan->quote_ref);
  if (!pricing (store, plan, inputs, res, error))
    return FALSE;

  /* An update names the revision it started from (?13; 0 = any) and
   * changes nothing when that is stale. */
  if (res->id == 0)
    stmt = qm_store_query (store,
                           "INSERT INTO plan (name, customer, quote_ref, tags, model, gpus, days,"
                           " total_cost, catalog_version, created, modified, search_key)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11)",
                           error);
  else
    stmt = qm_store_query (store,
                           "UPDATE plan SET name = ?1, customer = ?2, quote_ref = ?3, tags = ?4,"
                           " model = ?5, gpus = ?6, days = ?7, total_cost = ?8,"
                           " catalog_version = ?9, modified = ?10, search_key = ?11,"
                           " revision = revision + 1"
                           " WHERE id = ?12 AND (?13 = 0 OR revision = ?13)",
                           error);
  if (stmt == NULL)
    return FALSE;
  bind_or_empty (stmt, 1, res->name);
  bind_or_empty (stmt, 2, plan->customer);
  bind_or_empty (stmt, 3, plan->quote_ref);
  bind_or_empty (stmt, 4, plan->tags);
  bind_or_empty (stmt, 5, plan->model);
  qm_db_bind_int64 (stmt, 6, plan->gpus);
  qm_db_bind_double (stmt, 7, plan->days);
  qm_db_bind_double (stmt, 8, plan->total_cost);
  bind_or_empty (stmt, 9, res->version);
  qm_db_bind_int64 (stmt, 10, res->modified);
  qm_db_bind_text (stmt, 11, search_key);
  qm_db_bind_int64 (stmt, 12, res->id);
  qm_db_bind_int64 (stmt, 13, plan->revision);
  if (!qm_store_query_done (store, stmt, error, "%s", what))
    return FALSE;
  g_clear_pointer (&stmt, qm_db_stmt_free);
  if (!saved_revision (store, plan, res, what, error))
    return FALSE;

  stmt = qm_store_query (store,
                           "INSERT INTO plan_data (plan_id, notes, inputs, snapshot, prices)"
                           " VALUES (?1, ?2, ?3, ?4, ?5)"
                           " ON CONFLICT (plan_id) DO UPDATE SET notes = excluded.notes,"
                           "  inputs = excluded.inputs, snapshot = excluded.snapshot,"
                           "  prices = excluded.prices",
                           error);
  if (stmt == NULL)
    return FALSE;
  qm_db_bind_int64 (stmt, 1, res->id);
  bind_or_empty (stmt, 2, res->notes);
  qm_db_bind_text (stmt, 3, res->inputs);
  qm_db_bind_text (stmt, 4, plan->snapshot);
  qm_db_bind_text (stmt, 5, res->prices);
  return qm_store_query_done (store, stmt, error, "%s", what);
}

/* Only once the row is on disk does the caller's copy change. */
static void
save_result_apply (QmPlanSaveResult *res,
                   QmSavedPlan      *plan)
{
  plan->id = res->id;
  plan->created = res->created;
  plan->modified = res->modified;
  plan->revision = res->revision;
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
  plan->reprice = FALSE;
}

/* One try: BEGIN, write, COMMIT. *begun says whether anything reached
 * the server beyond a failed BEGIN. */
static gboolean
save_once (QmStore           *store,
           const QmSavedPlan *plan,
           QmPlanSaveResult  *res,
           gboolean          *begun,
           GError           **error)
{
  const char *what = _("Could not save the plan");

  *begun = FALSE;
  if (!qm_store_begin (store, what, error))
    return FALSE;
  *begun = TRUE;
  if (!qm_plan_store_save_locked (store, plan, res, error) ||
      !qm_store_notify (store, QM_STORE_CHANGE_PLANS, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  return qm_store_commit (store, what, error);
}

gboolean
qm_plan_store_save_full (QmStore      *store,
                         QmSavedPlan  *plan,
                         gboolean      keep_recovery,
                         GError      **error)
{
  g_auto(QmPlanSaveResult) res = { 0 };
  g_autoptr(GError) local = NULL;
  QmSavedPlan checked;
  gboolean begun = FALSE;
  gboolean ok;

  g_return_val_if_fail (plan != NULL, FALSE);

  /* A role that may not save plans is told so; no recovery copy of what
   * it may never save. */
  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_PLANS, _("Could not save the plan"), error))
    return FALSE;
  /* The caller's plan, checked against the revision its recovery copy
   * was saved as (the same user's edit, saved while the window held it). */
  checked = *plan;
  checked.revision = qm_store_recovery_rebase (store, plan);
  ok = save_once (store, &checked, &res, &begun, &local);
  /* A connection that died while idle (the server restarted overnight)
   * fails at BEGIN, before anything was written: connect again and try
   * once more. */
  if (!ok && !begun && qm_store_connection_lost (store) &&
      qm_store_reconnect_within (store, QM_STORE_SAVE_RECONNECT_TIMEOUT_MS, NULL))
    {
      g_clear_error (&local);
      qm_plan_save_result_clear (&res);
      res = (QmPlanSaveResult) { 0 };
      ok = save_once (store, &checked, &res, &begun, &local);
    }
  if (!ok)
    {
      /* Nothing the user typed is lost: the edit waits on this computer. */
      if (keep_recovery && qm_store_connection_lost (store))
        qm_store_recovery_keep (store, &checked, res.inputs != NULL ? res.modified : 0, &local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  qm_store_recovery_forget (store, &checked);
  save_result_apply (&res, plan);
  return TRUE;
}

gboolean
qm_plan_store_save (QmStore      *store,
                    QmSavedPlan  *plan,
                    GError      **error)
{
  return qm_plan_store_save_full (store, plan, TRUE, error);
}

void
qm_plan_store_read_quote (QmDbStmt     *stmt,
                          int           col,
                          QmSavedPlan  *plan)
{
  plan->name = qm_db_column_dup (stmt, col);
  plan->customer = qm_db_column_dup (stmt, col + 1);
  plan->quote_ref = qm_db_column_dup (stmt, col + 2);
  plan->tags = qm_db_column_dup (stmt, col + 3);
  plan->model = qm_db_column_dup (stmt, col + 4);
  plan->gpus = qm_db_column_int64 (stmt, col + 5);
  plan->days = qm_db_column_double (stmt, col + 6);
  plan->total_cost = qm_db_column_double (stmt, col + 7);
}

QmSavedPlan *
qm_plan_store_load (QmStore  *store,
                    gint64    id,
                    GError  **error)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store,
                                             "SELECT " PLAN_COLUMNS ", d.notes, d.inputs, d.snapshot, d.prices,"
                                             " p.revision"
                                             " FROM plan p JOIN plan_data d ON d.plan_id = p.id"
                                             " WHERE p.id = ?1",
                                             error);
  QmSavedPlan *plan;
  QmDbStep rc;

  if (stmt == NULL)
    return NULL;
  qm_db_bind_int64 (stmt, 1, id);
  rc = qm_db_step (stmt);
  if (rc == QM_DB_STEP_DONE)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   /* Translators: %lld is the saved plan's number. */
                   _("There is no saved plan %lld"), (long long) id);
      return NULL;
    }
  if (rc != QM_DB_STEP_ROW)
    {
      /* Translators: %lld is the saved plan's number. */
      qm_store_db_fail (store, error, _("Could not read the plan %lld"), (long long) id);
      return NULL;
    }
  plan = qm_saved_plan_new ();
  plan->id = qm_db_column_int64 (stmt, 0);
  qm_plan_store_read_quote (stmt, 1, plan);
  plan->catalog_version = qm_db_column_dup (stmt, 9);
  plan->created = qm_db_column_int64 (stmt, 10);
  plan->modified = qm_db_column_int64 (stmt, 11);
  /* 12 is the search key. */
  plan->notes = qm_db_column_dup (stmt, 13);
  plan->inputs = qm_db_column_dup (stmt, 14);
  plan->snapshot = qm_db_column_dup (stmt, 15);
  plan->prices = qm_db_column_dup (stmt, 16);
  plan->revision = qm_db_column_int64 (stmt, 17);
  return plan;
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
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autoptr(JsonObject) o = NULL;
  gint64 now = qm_store_now (store);
  gint64 new_id;

  if (plan == NULL)
    return 0;
  /* Translators: the name of a duplicated plan; %s is the original's name. */
  new_name = name != NULL && *name ? g_strdup (name) : g_strdup_printf (_("%s (copy)"), plan->name);
  if ((o = qm_plan_store_parse_json (plan->inputs, -1, "inputs", error)) == NULL)
    return 0;
  json_object_set_string_member (o, "name", new_name);
  inputs = qm_store_object_to_text (o, FALSE);
  search_key = qm_plan_search_key (new_name, plan->customer, plan->tags, plan->model, plan->quote_ref);

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_PLANS, _("Could not duplicate the plan"),
                             error) ||
      !qm_store_begin (store, _("Could not duplicate the plan"), error))
    return 0;
  /* The copy keeps the snapshot and the prices it was quoted with. */
  stmt = qm_store_query (store,
                         "INSERT INTO plan (name, customer, quote_ref, tags, model, gpus, days,"
                         " total_cost, catalog_version, created, modified, search_key)"
                         " SELECT ?1, customer, quote_ref, tags, model, gpus, days, total_cost,"
                         "  catalog_version, ?2, ?2, ?3 FROM plan WHERE id = ?4",
                         error);
  if (stmt == NULL)
    goto fail;
  qm_db_bind_text (stmt, 1, new_name);
  qm_db_bind_int64 (stmt, 2, now);
  qm_db_bind_text (stmt, 3, search_key);
  qm_db_bind_int64 (stmt, 4, id);
  if (!qm_store_query_done (store, stmt, error, _("Could not duplicate the plan \"%s\""), plan->name) ||
      (new_id = qm_db_last_insert_id (qm_store_connection (store))) <= 0)
    {
      if (error != NULL && *error == NULL)
        qm_store_db_fail (store, error, _("Could not duplicate the plan \"%s\""), plan->name);
      goto fail;
    }
  g_clear_pointer (&stmt, qm_db_stmt_free);

  stmt = qm_store_query (store,
                         "INSERT INTO plan_data (plan_id, notes, inputs, snapshot, prices)"
                         " SELECT ?1, notes, ?2, snapshot, prices FROM plan_data WHERE plan_id = ?3",
                         error);
  if (stmt == NULL)
    goto fail;
  qm_db_bind_int64 (stmt, 1, new_id);
  qm_db_bind_text (stmt, 2, inputs);
  qm_db_bind_int64 (stmt, 3, id);
  if (!qm_store_query_done (store, stmt, error, _("Could not duplicate the plan \"%s\""), plan->name) ||
      !qm_store_notify (store, QM_STORE_CHANGE_PLANS, error))
    goto fail;
  if (!qm_store_commit (store, _("Could not duplicate the plan"), error))
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
                   _("Could not rename the plan: name: a plan needs a name"));
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
  g_autoptr(QmDbStmt) stmt = NULL;

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_PLANS, what, error) ||
      !qm_store_begin (store, what, error))
    return FALSE;
  if ((stmt = qm_store_query (store, sql, error)) == NULL)
    goto fail;
  qm_db_bind_int64 (stmt, 1, id);
  if (bind_session)
    {
      qm_db_bind_text (stmt, 2, qm_store_session_id (store));
      qm_db_bind_int64 (stmt, 3, g_get_real_time ());
    }
  if (!qm_store_query_done (store, stmt, error, "%s", what))
    goto fail;
  if (qm_db_changes (qm_store_connection (store)) == 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   /* Translators: what failed ("Could not delete the plan"), then the
                    * saved plan's number. */
                   _("%s: there is no such plan (%lld)"), what, (long long) id);
      goto fail;
    }
  /* Other windows on a team database hear of it when this commits. */
  if (!qm_store_notify (store, QM_STORE_CHANGE_PLANS, error))
    goto fail;
  return qm_store_commit (store, what, error);

fail:
  qm_store_rollback (store);
  return FALSE;
}

gboolean
qm_plan_store_trash (QmStore  *store,
                     gint64    id,
                     GError  **error)
{
  return exec_id (store,
                  "UPDATE plan SET trashed_session = ?2, trashed_at = ?3"
                  " WHERE id = ?1 AND trashed_session IS NULL",
                  id, TRUE, _("Could not delete the plan"), error);
}

gboolean
qm_plan_store_restore (QmStore  *store,
                       gint64    id,
                       GError  **error)
{
  return exec_id (store,
                  "UPDATE plan SET trashed_session = NULL, trashed_at = NULL"
                  " WHERE id = ?1 AND trashed_session IS NOT NULL",
                  id, FALSE, _("Could not restore the plan"), error);
}

gboolean
qm_plan_store_delete (QmStore  *store,
                      gint64    id,
                      GError  **error)
{
  return exec_id (store, "DELETE FROM plan WHERE id = ?1", id, FALSE,
                  _("Could not delete the plan"), error);
}

gboolean
qm_plan_store_purge_trash (QmStore  *store,
                           GError  **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_PLANS, _("Could not empty the trash"), error))
    return FALSE;
  if ((stmt = qm_store_query (store, "DELETE FROM plan WHERE trashed_session = ?1", error)) == NULL)
    return FALSE;
  qm_db_bind_text (stmt, 1, qm_store_session_id (store));
  return qm_store_query_done (store, stmt, error, _("Could not empty the trash"));
}

