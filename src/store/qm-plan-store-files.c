/* qm-plan-store-files.c: plan files in and out of the store (custom
 * catalog entries travel embedded in the file) and whether today's
 * catalog would change a saved quote.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-catalog-store-private.h"
#include "qm-plan-store-private.h"
#include "qm-json-parse.h"

/* ------------------------------------------------------------------ */
/* Has the catalog moved since the quote?                              */

/* $30,000, or $2.49 when there are cents (a GPU-hour). */
static char *
format_usd (double v)
{
  long long cents = llround (fabs (v) * 100.0);
  g_autofree char *digits = g_strdup_printf ("%lld", cents / 100);
  GString *s = g_string_new (v < 0 ? "-$" : "$");
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  if (cents % 100 != 0)
    g_string_append_printf (s, ".%02lld", cents % 100);
  return g_string_free (s, FALSE);
}

/* A price line of a plan saved before the store kept its bill of
 * materials' lines: each slot's list price. */
static const QmPlanPricedLine slot_lines[QM_PLAN_N_HARDWARE_KEYS] = {
  { "gpu", 0, QM_CATALOG_KIND_GPU, "price_usd" },
  { "server", 1, QM_CATALOG_KIND_SERVER, "price_usd" },
  { "network", 2, QM_CATALOG_KIND_NETWORK, "price_usd" },
  { "storage", 3, QM_CATALOG_KIND_STORAGE, "price_usd" },
};

static const QmPlanPricedLine *
find_priced_line (const char *item)
{
  const QmPlanPricedLine *line = qm_plan_store_priced_line (item);

  for (guint k = 0; line == NULL && item != NULL && k < QM_PLAN_N_HARDWARE_KEYS; k++)
    if (g_str_equal (slot_lines[k].item, item))
      line = &slot_lines[k];
  return line;
}

/* The price lines a plan saved with prices format 1 was quoted with:
 * those of its snapshot's bill of materials, at the snapshot's unit
 * prices; a snapshot without one counts each slot's recorded list
 * price. */
static JsonArray *
lines_v1 (JsonObject        *used,
          const QmSavedPlan *plan)
{
  JsonArray *lines = json_array_new ();
  g_autoptr(JsonObject) snapshot = NULL;
  JsonNode *bom_node = NULL;
  JsonArray *bom;

  if (plan->snapshot != NULL &&
      (snapshot = qm_plan_store_parse_json (plan->snapshot, -1, "snapshot", NULL)) != NULL)
    bom_node = json_object_get_member (snapshot, "bom");
  if (bom_node == NULL || !JSON_NODE_HOLDS_ARRAY (bom_node))
    {
      for (guint k = 0; k < QM_PLAN_N_HARDWARE_KEYS; k++)
        {
          JsonObject *then = qm_plan_store_get_object (used, qm_plan_hardware_keys[k].key);
          JsonObject *line;

          if (then == NULL || !json_object_has_member (then, "price_usd"))
            continue;
          line = json_object_new ();
          json_object_set_string_member (line, "item", slot_lines[k].item);
          json_object_set_string_member (line, "id", qm_plan_store_get_string (then, "id"));
          json_object_set_string_member (line, "field", "price_usd");
          json_object_set_double_member (line, "usd", json_object_get_double_member (then, "price_usd"));
          json_array_add_object_element (lines, line);
        }
      return lines;
    }
  bom = json_node_get_array (bom_node);
  for (guint i = 0; i < json_array_get_length (bom); i++)
    {
      JsonNode *node = json_array_get_element (bom, i);
      JsonObject *b = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonNode *unit = b != NULL ? json_object_get_member (b, "unit_usd") : NULL;
      JsonObject *line;

      if (qm_plan_store_priced_line (qm_plan_store_get_string (b, "item")) == NULL ||
          qm_plan_store_get_string (b, "catalog_id") == NULL ||
          unit == NULL || !JSON_NODE_HOLDS_VALUE (unit))
        continue;
      line = json_object_new ();
      json_object_set_string_member (line, "item", qm_plan_store_get_string (b, "item"));
      json_object_set_string_member (line, "id", qm_plan_store_get_string (b, "catalog_id"));
      json_object_set_double_member (line, "usd", json_node_get_double (unit));
      json_array_add_object_element (lines, line);
    }
  return lines;
}

static gboolean
same_price (double a,
            double b)
{
  return fabs (a - b) <= 1e-9 * MAX (1.0, fabs (a));
}

static void
add_change (GPtrArray *out,
            char      *text)
{
  for (guint i = 0; i < out->len; i++)
    if (g_str_equal (g_ptr_array_index (out, i), text))
      {
        g_free (text);
        return;
      }
  g_ptr_array_add (out, text);
}

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
  g_autoptr(JsonArray) v1_lines = NULL;
  JsonArray *lines;
  JsonNode *lines_node;
  JsonObject *hardware;
  const char *mode;
  gboolean v2;

  if (changes != NULL)
    *changes = NULL;
  if (plan == NULL)
    return FALSE;
  if ((inputs = qm_plan_store_parse_json (plan->inputs, -1, "inputs", error)) == NULL ||
      (used = qm_plan_store_parse_json (plan->prices, -1, "prices", error)) == NULL)
    return FALSE;
  hardware = qm_plan_store_get_object (inputs, "hardware");
  mode = qm_plan_store_get_string (qm_plan_store_get_object (inputs, "pricing"), "mode");
  v2 = json_object_has_member (used, "format") && json_object_get_int_member (used, "format") >= 2;

  /* The hardware the plan names: still there, with the same figures. */
  for (guint k = 0; k < QM_PLAN_N_HARDWARE_KEYS; k++)
    {
      const char *key = qm_plan_hardware_keys[k].key;
      const char *fp_key = v2 ? "figures" : "spec";
      JsonObject *then = qm_plan_store_get_object (used, key);
      g_autofree char *id_now = NULL;
      g_autofree char *fingerprint = NULL;
      g_autofree guint8 *spec = NULL;

      if (then == NULL)
        continue;
      spec = qm_plan_store_resolve_used (store, hardware, k, &id_now);
      if (!json_object_has_member (then, fp_key))
        {
          if (spec != NULL)
            /* Translators: a hardware slot of the plan (gpu, server, network,
             * storage), then a catalog entry's id. */
            add_change (out, g_strdup_printf (_("%s %s: was not in the catalog when quoted; "
                                                "it is now"), key, id_now));
          continue;
        }
      if (spec == NULL)
        {
          /* Translators: a hardware slot of the plan (gpu, server, network,
           * storage), then a catalog entry's id. */
          add_change (out, g_strdup_printf (_("%s %s: no longer in the catalog"), key,
                                            qm_plan_store_get_string (then, "id")));
          continue;
        }
      fingerprint = v2 ? qm_plan_store_figures_fingerprint (qm_plan_hardware_keys[k].kind, spec)
                       : qm_plan_store_fingerprint_v1 (qm_plan_hardware_keys[k].kind, spec);
      if (g_strcmp0 (qm_plan_store_get_string (then, fp_key), fingerprint) != 0)
        /* Translators: a hardware slot of the plan (gpu, server, network,
         * storage), then a catalog entry's id, then the
         * catalog versions then and now. */
        add_change (out, g_strdup_printf (_("%s %s: its catalog figures changed since the "
                                            "quote (catalog %s then, %s now)"),
                                          key, id_now, plan->catalog_version,
                                          qm_catalog_version ()));
    }

  /* The catalog prices of its bill of materials. */
  lines_node = json_object_get_member (used, "lines");
  if (v2 && lines_node != NULL && JSON_NODE_HOLDS_ARRAY (lines_node))
    lines = json_node_get_array (lines_node);
  else
    lines = v1_lines = lines_v1 (used, plan);
  for (guint i = 0; i < json_array_get_length (lines); i++)
    {
      JsonNode *node = json_array_get_element (lines, i);
      JsonObject *l = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *item = qm_plan_store_get_string (l, "item");
      const char *entry = qm_plan_store_get_string (l, "id");
      const QmPlanPricedLine *priced = find_priced_line (item);
      const char *field;
      double then, now = 0.0;

      if (priced == NULL || entry == NULL || !json_object_has_member (l, "usd"))
        continue;
      field = qm_plan_store_get_string (l, "field");
      if (field == NULL)
        field = qm_plan_store_priced_field (priced, mode);
      then = json_object_get_double_member (l, "usd");
      if (!qm_plan_store_price_today (store, hardware, priced, field, entry, &now))
        {
          /* A slot's entry that went is said above. */
          if (priced->slot < 0)
            /* Translators: a line of the bill of materials (Racks, Rack
             * PDUs), then a catalog entry's id. */
            add_change (out, g_strdup_printf (_("%s %s: no longer in the catalog"), _(item), entry));
          continue;
        }
      if (!same_price (then, now))
        {
          g_autofree char *a = format_usd (then);
          g_autofree char *b = format_usd (now);

          /* Translators: a line of the bill of materials (such as Servers
           * or Fabric cables), then a catalog entry's id, then the unit
           * price when quoted and today (such as $30,000). */
          add_change (out, g_strdup_printf (_("%s %s: price %s when quoted, %s today"),
                                            _(item), entry, a, b));
        }
    }

  if (changes != NULL)
    *changes = g_ptr_array_ref (out);
  return out->len > 0;
}

/* ------------------------------------------------------------------ */
/* Plan files.                                                         */

/* A built-in entry of @kind (the catalog compiled into the core). */
static gboolean
builtin_has (QmCatalogKind  kind,
             const char    *id)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:
      return qm_catalog_gpu (id) != NULL;
    case QM_CATALOG_KIND_SERVER:
      return qm_catalog_server (id) != NULL;
    case QM_CATALOG_KIND_NETWORK:
      return qm_catalog_network (id) != NULL;
    case QM_CATALOG_KIND_STORAGE:
      return qm_catalog_storage (id) != NULL;
    default:
      return FALSE;
    }
}

char *
qm_plan_store_embed_custom (QmStore     *store,
                            const char  *inputs,
                            GError     **error)
{
  g_autoptr(JsonObject) o = qm_plan_store_parse_json (inputs, -1, "plan", error);
  JsonObject *hardware;

  if (o == NULL)
    return NULL;
  hardware = qm_plan_store_get_object (o, "hardware");
  for (guint k = 0; hardware != NULL && k < QM_PLAN_N_HARDWARE_KEYS; k++)
    {
      g_autofree char *spec_key = g_strconcat (qm_plan_hardware_keys[k].key, "_spec", NULL);
      const char *id = qm_plan_store_get_string (hardware, qm_plan_hardware_keys[k].key);
      g_autoptr(QmCatalogEntry) entry = NULL;
      JsonNode *node;

      if (id == NULL || json_object_has_member (hardware, spec_key))
        continue;
      entry = qm_catalog_store_get (store, qm_plan_hardware_keys[k].kind, id, NULL);
      /* Built-in entries ship with every copy of Quartermaster. */
      if (entry != NULL && entry->builtin)
        continue;
      if (entry == NULL)
        {
          /* Neither the file nor this catalog has it: a copy would not
           * open anywhere, so say so rather than write it without. */
          if (builtin_has (qm_plan_hardware_keys[k].kind, id))
            continue;
          g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                       /* Translators: a plan key (hardware.gpu), then a catalog id */
                       _("hardware.%s: “%s” is not in the catalog, so the plan cannot carry its "
                         "figures"), qm_plan_hardware_keys[k].key, id);
          return NULL;
        }
      node = qm_json_from_string (entry->json, error);
      if (node == NULL)
        return NULL;
      json_object_set_member (hardware, spec_key, node);
    }
  return qm_store_object_to_text (o, TRUE);
}

gboolean
qm_plan_store_read_plan (QmStore     *store,
                         const char  *inputs,
                         QmPlan      *plan,
                         GPtrArray  **warnings,
                         GError     **error)
{
  g_autoptr(JsonObject) original = qm_plan_store_parse_json (inputs, -1, "plan", error);
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
  hardware = qm_plan_store_get_object (original, "hardware");
  infos[0] = &plan->hardware.gpu.info;
  infos[1] = &plan->hardware.server.info;
  infos[2] = &plan->hardware.network.info;
  infos[3] = &plan->hardware.storage.info;
  for (guint k = 0; k < QM_PLAN_N_HARDWARE_KEYS; k++)
    {
      g_autofree char *spec_key = g_strconcat (qm_plan_hardware_keys[k].key, "_spec", NULL);
      const char *id = qm_plan_store_get_string (hardware, qm_plan_hardware_keys[k].key);
      g_autoptr(QmCatalogEntry) entry = NULL;

      had_spec[k] = hardware != NULL && json_object_has_member (hardware, spec_key);
      if (had_spec[k] || id == NULL)
        continue;
      entry = qm_catalog_store_get (store, qm_plan_hardware_keys[k].kind, id, NULL);
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
                   /* Translators: %s is the file's name. */
                   _("%s: the file is not UTF-8 text"), source);
      return NULL;
    }
  plan = g_new0 (QmPlan, 1);
  ok = qm_plan_store_read_plan (store, text, plan, warnings, &local);
  g_free (plan);
  if (!ok)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("%s: %s"), source, local->message);
      return NULL;
    }
  o = qm_plan_store_parse_json (text, -1, source, error);
  return g_steal_pointer (&o);
}

static gboolean
add_embedded_entries (QmStore     *store,
                      JsonObject  *inputs,
                      GError     **error)
{
  JsonObject *hardware = qm_plan_store_get_object (inputs, "hardware");

  for (guint k = 0; hardware != NULL && k < QM_PLAN_N_HARDWARE_KEYS; k++)
    {
      QmCatalogKind kind = qm_plan_hardware_keys[k].kind;
      g_autofree char *spec_key = g_strconcat (qm_plan_hardware_keys[k].key, "_spec", NULL);
      JsonObject *spec = qm_plan_store_get_object (hardware, spec_key);
      g_autoptr(QmCatalogEntry) existing = NULL;
      g_autofree guint8 *parsed = NULL;
      g_autoptr(JsonObject) canonical = NULL;
      g_autofree char *canonical_text = NULL;
      const char *id;

      if (spec == NULL || (id = qm_plan_store_get_string (spec, "id")) == NULL)
        continue;
      existing = qm_catalog_store_get (store, kind, id, NULL);
      if (existing != NULL)
        continue;
      /* A new entry joins the shared catalog: a role that may edit plans
       * but not the catalog hears which entry, before the server says
       * no to the whole import. */
      {
        /* Translators: %s are a catalog entry's id and a plan key such as
         * "gpu_spec". */
        g_autofree char *what = g_strdup_printf (_("the plan brings its own catalog entry “%s” "
                                                   "(hardware.%s), which this catalog does not have"),
                                                 id, spec_key);

        if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_CATALOG, what, error))
          return FALSE;
      }
      parsed = g_malloc0 (qm_catalog_kind_struct_size (kind));
      if (!qm_catalog_parse_object (kind, spec, QM_CATALOG_PARSE_NONE, parsed, error))
        {
          g_prefix_error (error, "hardware.%s.", spec_key);
          return FALSE;
        }
      canonical = qm_catalog_spec_to_json (kind, parsed);
      canonical_text = qm_store_object_to_text (canonical, FALSE);
      /* Inside the import's transaction: qm_catalog_store_add's own BEGIN
       * would nest. */
      if (!qm_catalog_store_write_user (store, kind, NULL, (const QmCatalogInfo *) parsed,
                                        canonical_text, error))
        return FALSE;
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
  g_auto(QmPlanSaveResult) res = { 0 };

  g_return_val_if_fail (data != NULL, 0);

  if (source == NULL)
    source = "plan";
  if ((o = check_plan_file (store, data, length, source, warnings, error)) == NULL)
    return 0;

  text = qm_store_object_to_text (o, FALSE);
  plan->inputs = g_steal_pointer (&text);
  plan->name = dup_nonempty (extra ? extra->name : NULL, qm_plan_store_get_string (o, "name"));
  if (plan->name == NULL || *plan->name == '\0')
    {
      g_autofree char *base = g_path_get_basename (source);
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      g_free (plan->name);
      plan->name = g_steal_pointer (&base);
    }
  plan->customer = dup_nonempty (extra ? extra->customer : NULL, qm_plan_store_get_string (o, "customer"));
  plan->quote_ref = dup_nonempty (extra ? extra->quote_ref : NULL, qm_plan_store_get_string (o, "quote_ref"));
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
  /* Translators: %s is the plan file's name. */
  what = g_strdup_printf (_("Could not import %s"), source);
  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_PLANS, what, error) ||
      !qm_store_begin (store, what, error))
    return 0;
  if (!add_embedded_entries (store, o, error) || !qm_plan_store_save_locked (store, plan, &res, error) ||
      !qm_store_notify (store, QM_STORE_CHANGE_PLANS, error))
    {
      g_prefix_error (error, _("%s: "), source);
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
                   _("Could not export the plan to %s: %s"), path, local->message);
      return FALSE;
    }
  return TRUE;
}

