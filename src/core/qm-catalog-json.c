/* qm-catalog-json.c: parse catalog entries from JSON.
 *
 * Every file in data/catalog/ is a JSON array of objects, one per entry.
 * Keys common to every kind (QmCatalogInfo):
 *   id (required, lower case, digits, '-' and '.'), name (required),
 *   vendor, source, as_of ("YYYY-MM-DD"), price_usd (reference price, >= 0).
 * Per kind (absent or null numbers mean 0 = unknown / not applicable):
 *   gpu:      family, form_factor, tflops {fp32, tf32, fp16, bf16, fp8, int8,
 *             fp4, int4} (dense), memory_gb > 0, bandwidth_tbs > 0, tdp_w,
 *             link_gbs (one direction), mamf_fraction (0..1).
 *   server:   gpu_id, gpus >= 1, cpus, cpu_model, cpu_w (per socket), ram_gb,
 *             ram_w, nvme_tb, nvme_w, nics, nic_gbps, nic_w (per NIC),
 *             other_w, rack_units >= 1, power_max_w > 0, power_typical_w
 *             (<= power_max_w), weight_kg.
 *   network:  technology, ports >= 1, port_gbps > 0, power_w, rack_units,
 *             latency_us, nic_usd, transceiver_usd, transceiver_w, cable_usd.
 *   storage:  kind, usd_per_tb, usd_per_gbs, write_gbs_per_tb, watts_per_tb,
 *             rack_units_per_pb, usd_per_tb_month (rent; 0 = not offered).
 *   facility: kind, rack_units, kw_limit.
 *   cloud:    provider, instance_type, gpu_id, gpus >= 1,
 *             usd_per_gpu_hour_on_demand, usd_per_gpu_hour_reserved.
 *   model:    params > 0 (a count, not billions), active_params (absent =
 *             params), layers, hidden, heads, vocab (all > 0), kv_heads
 *             (absent = heads), head_dim, ffn_hidden, gated_mlp,
 *             tied_embeddings, experts, experts_per_token, shared_experts,
 *             moe_ffn_hidden, dense_layers, q_lora_rank, kv_lora_rank,
 *             rope_head_dim.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-catalog-json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK (qm-catalog-error-quark, qm_catalog_error)

static const char *kind_names[QM_N_CATALOG_KINDS] = {
  [QM_CATALOG_KIND_GPU]      = "gpu",
  [QM_CATALOG_KIND_SERVER]   = "server",
  [QM_CATALOG_KIND_NETWORK]  = "network",
  [QM_CATALOG_KIND_STORAGE]  = "storage",
  [QM_CATALOG_KIND_FACILITY] = "facility",
  [QM_CATALOG_KIND_CLOUD]    = "cloud",
  [QM_CATALOG_KIND_MODEL]    = "model",
};

const char *
qm_catalog_kind_to_string (QmCatalogKind kind)
{
  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, "gpu");
  return kind_names[kind];
}

gboolean
qm_catalog_kind_from_string (const char    *s,
                             QmCatalogKind *out)
{
  g_return_val_if_fail (out != NULL, FALSE);

  if (s == NULL)
    return FALSE;
  for (guint i = 0; i < QM_N_CATALOG_KINDS; i++)
    {
      if (g_ascii_strcasecmp (s, kind_names[i]) == 0)
        {
          *out = i;
          return TRUE;
        }
    }
  if (g_ascii_strcasecmp (s, "rack") == 0)
    {
      *out = QM_CATALOG_KIND_FACILITY;
      return TRUE;
    }
  return FALSE;
}

gsize
qm_catalog_kind_struct_size (QmCatalogKind kind)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:      return sizeof (QmGpuSpec);
    case QM_CATALOG_KIND_SERVER:   return sizeof (QmServerSpec);
    case QM_CATALOG_KIND_NETWORK:  return sizeof (QmNetworkSpec);
    case QM_CATALOG_KIND_STORAGE:  return sizeof (QmStorageSpec);
    case QM_CATALOG_KIND_FACILITY: return sizeof (QmFacilityItem);
    case QM_CATALOG_KIND_CLOUD:    return sizeof (QmCloudOffer);
    case QM_CATALOG_KIND_MODEL:    return sizeof (QmModelPreset);
    case QM_N_CATALOG_KINDS:
    default:
      g_return_val_if_reached (0);
    }
}

/* ------------------------------------------------------------------ */
/* Typed getters. Each names the key and the value in its error.       */

static char *
node_to_text (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

static gboolean
node_is_null (JsonNode *node)
{
  return node == NULL || JSON_NODE_HOLDS_NULL (node);
}

static gboolean
node_is_number (JsonNode *node)
{
  GType t;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static gboolean
set_invalid (GError     **error,
             const char  *key,
             const char  *what,
             JsonNode    *node)
{
  g_autofree char *text = node_to_text (node);

  g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_INVALID,
               "%s: %s (got %s)", key, what, text);
  return FALSE;
}

static gboolean
set_missing (GError     **error,
             const char  *key)
{
  g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_MISSING_KEY,
               "%s: required key is missing", key);
  return FALSE;
}

typedef enum
{
  NUM_OPTIONAL = 0,       /* absent/null = 0; otherwise >= 0 */
  NUM_POSITIVE = 1 << 0,  /* > 0 when given */
  NUM_REQUIRED = 1 << 1,  /* absent/null is an error */
  NUM_FRACTION = 1 << 2,  /* <= 1 */
} NumFlags;

static gboolean
check_double (JsonNode    *node,
              const char  *key,
              NumFlags     flags,
              double      *out,
              GError     **error)
{
  double v;

  *out = 0.0;
  if (node_is_null (node))
    {
      if (flags & NUM_REQUIRED)
        return set_missing (error, key);
      return TRUE;
    }
  if (!node_is_number (node))
    return set_invalid (error, key, "must be a number", node);
  v = json_node_get_double (node);
  if (!isfinite (v))
    return set_invalid (error, key, "must be finite", node);
  if ((flags & NUM_POSITIVE) && !(v > 0.0))
    return set_invalid (error, key, "must be a number > 0", node);
  if (v < 0.0)
    return set_invalid (error, key, "must be a number >= 0", node);
  if ((flags & NUM_FRACTION) && v > 1.0)
    return set_invalid (error, key, "must be a fraction between 0 and 1", node);
  *out = v;
  return TRUE;
}

static gboolean
get_double (JsonObject  *o,
            const char  *key,
            NumFlags     flags,
            double      *out,
            GError     **error)
{
  return check_double (json_object_get_member (o, key), key, flags, out, error);
}

static gboolean
get_uint (JsonObject  *o,
          const char  *key,
          NumFlags     flags,
          guint       *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (o, key);
  double v;

  *out = 0;
  if (node_is_null (node))
    {
      if (flags & NUM_REQUIRED)
        return set_missing (error, key);
      return TRUE;
    }
  if (!node_is_number (node))
    return set_invalid (error, key, "must be a whole number", node);
  v = json_node_get_double (node);
  if (!isfinite (v) || v != floor (v) || v < 0.0 || v > (double) G_MAXUINT)
    return set_invalid (error, key, "must be a whole number >= 0", node);
  if ((flags & NUM_POSITIVE) && v < 1.0)
    return set_invalid (error, key, "must be a whole number > 0", node);
  *out = (guint) v;
  return TRUE;
}

static gboolean
get_bool (JsonObject  *o,
          const char  *key,
          gboolean    *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (o, key);

  *out = FALSE;
  if (node_is_null (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return set_invalid (error, key, "must be true or false", node);
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* Strings come back interned; "" counts as absent. */
static gboolean
get_string (JsonObject   *o,
            const char   *key,
            gboolean      required,
            const char  **out,
            GError      **error)
{
  JsonNode *node = json_object_get_member (o, key);
  const char *s;

  *out = NULL;
  if (node_is_null (node))
    return required ? set_missing (error, key) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return set_invalid (error, key, "must be a string", node);
  s = json_node_get_string (node);
  if (!g_utf8_validate (s, -1, NULL))
    return set_invalid (error, key, "must be valid UTF-8", node);
  if (*s == '\0')
    {
      if (required)
        return set_invalid (error, key, "must not be empty", node);
      return TRUE;
    }
  *out = g_intern_string (s);
  return TRUE;
}

/* Ids: lower case with dashes (plan-format.md); dots for versions
 * ("llama-3.1-8b", "p5.48xlarge"). */
static gboolean
id_is_valid (const char *id)
{
  if (!g_ascii_islower (id[0]) && !g_ascii_isdigit (id[0]))
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '-' && *p != '.')
      return FALSE;
  return strlen (id) <= 128;
}

static gboolean
date_is_valid (const char *s)
{
  guint y, m, d;
  char tail;

  if (strlen (s) != 10 || s[4] != '-' || s[7] != '-')
    return FALSE;
  if (sscanf (s, "%4u-%2u-%2u%c", &y, &m, &d, &tail) != 3)
    return FALSE;
  return g_date_valid_dmy (d, m, y);
}

gboolean
qm_catalog_parse_info (JsonObject     *o,
                       QmCatalogInfo  *out,
                       GError        **error)
{
  QmCatalogInfo info = { 0 };

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);

  if (!get_string (o, "id", TRUE, &info.id, error))
    return FALSE;
  if (!id_is_valid (info.id))
    return set_invalid (error, "id",
                        "must be lower case letters, digits, '-' and '.'",
                        json_object_get_member (o, "id"));
  if (!get_string (o, "name", TRUE, &info.name, error) ||
      !get_string (o, "vendor", FALSE, &info.vendor, error) ||
      !get_string (o, "source", FALSE, &info.source, error) ||
      !get_string (o, "as_of", FALSE, &info.as_of, error) ||
      !get_double (o, "price_usd", NUM_OPTIONAL, &info.price_usd, error))
    return FALSE;
  if (info.as_of != NULL && !date_is_valid (info.as_of))
    return set_invalid (error, "as_of", "must be a date YYYY-MM-DD",
                        json_object_get_member (o, "as_of"));

  *out = info;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Known keys, for QM_CATALOG_PARSE_STRICT.                            */

#define INFO_KEYS "id", "vendor", "name", "source", "as_of", "price_usd"

static const char * const gpu_keys[] = {
  INFO_KEYS, "family", "form_factor", "tflops", "memory_gb", "bandwidth_tbs",
  "tdp_w", "link_gbs", "mamf_fraction", NULL
};
static const char * const server_keys[] = {
  INFO_KEYS, "gpu_id", "gpus", "cpus", "cpu_model", "cpu_w", "ram_gb", "ram_w",
  "nvme_tb", "nvme_w", "nics", "nic_gbps", "nic_w", "other_w", "rack_units",
  "power_max_w", "power_typical_w", "weight_kg", NULL
};
static const char * const network_keys[] = {
  INFO_KEYS, "technology", "ports", "port_gbps", "power_w", "rack_units",
  "latency_us", "nic_usd", "transceiver_usd", "transceiver_w", "cable_usd", NULL
};
static const char * const storage_keys[] = {
  INFO_KEYS, "kind", "usd_per_tb", "usd_per_gbs", "write_gbs_per_tb",
  "watts_per_tb", "rack_units_per_pb", "usd_per_tb_month", NULL
};
static const char * const facility_keys[] = {
  INFO_KEYS, "kind", "rack_units", "kw_limit", NULL
};
static const char * const cloud_keys[] = {
  INFO_KEYS, "provider", "instance_type", "gpu_id", "gpus",
  "usd_per_gpu_hour_on_demand", "usd_per_gpu_hour_reserved", NULL
};
static const char * const model_keys[] = {
  INFO_KEYS, "params", "active_params", "layers", "hidden", "heads",
  "kv_heads", "head_dim", "ffn_hidden", "vocab", "gated_mlp",
  "tied_embeddings", "experts", "experts_per_token", "shared_experts",
  "moe_ffn_hidden", "dense_layers", "q_lora_rank", "kv_lora_rank",
  "rope_head_dim", NULL
};

static const char * const *kind_keys[QM_N_CATALOG_KINDS] = {
  [QM_CATALOG_KIND_GPU]      = gpu_keys,
  [QM_CATALOG_KIND_SERVER]   = server_keys,
  [QM_CATALOG_KIND_NETWORK]  = network_keys,
  [QM_CATALOG_KIND_STORAGE]  = storage_keys,
  [QM_CATALOG_KIND_FACILITY] = facility_keys,
  [QM_CATALOG_KIND_CLOUD]    = cloud_keys,
  [QM_CATALOG_KIND_MODEL]    = model_keys,
};

static gboolean
check_keys (JsonObject          *o,
            const char * const  *known,
            GError             **error)
{
  g_autoptr(GList) members = json_object_get_members (o);

  for (GList *l = members; l != NULL; l = l->next)
    {
      if (!g_strv_contains (known, l->data))
        {
          g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_UNKNOWN_KEY,
                       "%s: unknown key", (const char *) l->data);
          return FALSE;
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Per kind.                                                           */

static gboolean
parse_tflops (JsonObject  *o,
              double       tflops[QM_N_PRECISIONS],
              GError     **error)
{
  JsonNode *node = json_object_get_member (o, "tflops");
  g_autoptr(GList) members = NULL;
  JsonObject *t;

  if (node_is_null (node))
    return set_missing (error, "tflops");
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return set_invalid (error, "tflops",
                        "must be an object such as {\"bf16\": 989}", node);
  t = json_node_get_object (node);
  members = json_object_get_members (t);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *key = g_strconcat ("tflops.", l->data, NULL);
      QmPrecision p;
      double v;

      if (!qm_precision_from_string (l->data, &p))
        {
          g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_INVALID,
                       "%s: unknown precision (expected fp32, tf32, fp16, "
                       "bf16, fp8, int8, fp4 or int4)", key);
          return FALSE;
        }
      if (!check_double (json_object_get_member (t, l->data), key,
                         NUM_OPTIONAL, &v, error))
        return FALSE;
      tflops[p] = v;
    }
  if (tflops[QM_PRECISION_BF16] <= 0.0 && tflops[QM_PRECISION_FP16] <= 0.0)
    return set_invalid (error, "tflops",
                        "needs a dense bf16 or fp16 figure > 0", node);
  return TRUE;
}

gboolean
qm_catalog_parse_gpu (JsonObject  *o,
                      QmGpuSpec   *out,
                      GError     **error)
{
  QmGpuSpec g = { 0 };

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!qm_catalog_parse_info (o, &g.info, error) ||
      !get_string (o, "family", FALSE, &g.family, error) ||
      !get_string (o, "form_factor", FALSE, &g.form_factor, error) ||
      !parse_tflops (o, g.tflops, error) ||
      !get_double (o, "memory_gb", NUM_REQUIRED | NUM_POSITIVE, &g.memory_gb, error) ||
      !get_double (o, "bandwidth_tbs", NUM_REQUIRED | NUM_POSITIVE, &g.bandwidth_tbs, error) ||
      !get_double (o, "tdp_w", NUM_OPTIONAL, &g.tdp_w, error) ||
      !get_double (o, "link_gbs", NUM_OPTIONAL, &g.link_gbs, error) ||
      !get_double (o, "mamf_fraction", NUM_FRACTION, &g.mamf_fraction, error))
    return FALSE;

  *out = g;
  return TRUE;
}

gboolean
qm_catalog_parse_server (JsonObject    *o,
                         QmServerSpec  *out,
                         GError       **error)
{
  QmServerSpec s = { 0 };

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!qm_catalog_parse_info (o, &s.info, error) ||
      !get_string (o, "gpu_id", FALSE, &s.gpu_id, error) ||
      !get_uint (o, "gpus", NUM_REQUIRED | NUM_POSITIVE, &s.gpus, error) ||
      !get_uint (o, "cpus", NUM_OPTIONAL, &s.cpus, error) ||
      !get_string (o, "cpu_model", FALSE, &s.cpu_model, error) ||
      !get_double (o, "cpu_w", NUM_OPTIONAL, &s.cpu_w, error) ||
      !get_double (o, "ram_gb", NUM_OPTIONAL, &s.ram_gb, error) ||
      !get_double (o, "ram_w", NUM_OPTIONAL, &s.ram_w, error) ||
      !get_double (o, "nvme_tb", NUM_OPTIONAL, &s.nvme_tb, error) ||
      !get_double (o, "nvme_w", NUM_OPTIONAL, &s.nvme_w, error) ||
      !get_uint (o, "nics", NUM_OPTIONAL, &s.nics, error) ||
      !get_double (o, "nic_gbps", NUM_OPTIONAL, &s.nic_gbps, error) ||
      !get_double (o, "nic_w", NUM_OPTIONAL, &s.nic_w, error) ||
      !get_double (o, "other_w", NUM_OPTIONAL, &s.other_w, error) ||
      !get_uint (o, "rack_units", NUM_REQUIRED | NUM_POSITIVE, &s.rack_units, error) ||
      !get_double (o, "power_max_w", NUM_REQUIRED | NUM_POSITIVE, &s.power_max_w, error) ||
      !get_double (o, "power_typical_w", NUM_OPTIONAL, &s.power_typical_w, error) ||
      !get_double (o, "weight_kg", NUM_OPTIONAL, &s.weight_kg, error))
    return FALSE;
  if (s.power_typical_w > s.power_max_w)
    return set_invalid (error, "power_typical_w",
                        "must not exceed power_max_w",
                        json_object_get_member (o, "power_typical_w"));

  *out = s;
  return TRUE;
}

gboolean
qm_catalog_parse_network (JsonObject     *o,
                          QmNetworkSpec  *out,
                          GError        **error)
{
  QmNetworkSpec n = { 0 };

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!qm_catalog_parse_info (o, &n.info, error) ||
      !get_string (o, "technology", FALSE, &n.technology, error) ||
      !get_uint (o, "ports", NUM_REQUIRED | NUM_POSITIVE, &n.ports, error) ||
      !get_double (o, "port_gbps", NUM_REQUIRED | NUM_POSITIVE, &n.port_gbps, error) ||
      !get_double (o, "power_w", NUM_OPTIONAL, &n.power_w, error) ||
      !get_uint (o, "rack_units", NUM_OPTIONAL, &n.rack_units, error) ||
      !get_double (o, "latency_us", NUM_OPTIONAL, &n.latency_us, error) ||
      !get_double (o, "nic_usd", NUM_OPTIONAL, &n.nic_usd, error) ||
      !get_double (o, "transceiver_usd", NUM_OPTIONAL, &n.transceiver_usd, error) ||
      !get_double (o, "transceiver_w", NUM_OPTIONAL, &n.transceiver_w, error) ||
      !get_double (o, "cable_usd", NUM_OPTIONAL, &n.cable_usd, error))
    return FALSE;

  *out = n;
  return TRUE;
}

gboolean
qm_catalog_parse_storage (JsonObject     *o,
                          QmStorageSpec  *out,
                          GError        **error)
{
  QmStorageSpec s = { 0 };

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!qm_catalog_parse_info (o, &s.info, error) ||
      !get_string (o, "kind", FALSE, &s.kind, error) ||
      !get_double (o, "usd_per_tb", NUM_OPTIONAL, &s.usd_per_tb, error) ||
      !get_double (o, "usd_per_gbs", NUM_OPTIONAL, &s.usd_per_gbs, error) ||
      !get_double (o, "write_gbs_per_tb", NUM_OPTIONAL, &s.write_gbs_per_tb, error) ||
      !get_double (o, "watts_per_tb", NUM_OPTIONAL, &s.watts_per_tb, error) ||
      !get_uint (o, "rack_units_per_pb", NUM_OPTIONAL, &s.rack_units_per_pb, error) ||
      !get_double (o, "usd_per_tb_month", NUM_OPTIONAL, &s.usd_per_tb_month, error))
    return FALSE;

  *out = s;
  return TRUE;
}

gboolean
qm_catalog_parse_facility_item (JsonObject      *o,
                                QmFacilityItem  *out,
                                GError         **error)
{
  QmFacilityItem f = { 0 };

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!qm_catalog_parse_info (o, &f.info, error) ||
      !get_string (o, "kind", TRUE, &f.kind, error) ||
      !get_uint (o, "rack_units", NUM_OPTIONAL, &f.rack_units, error) ||
      !get_double (o, "kw_limit", NUM_OPTIONAL, &f.kw_limit, error))
    return FALSE;

  *out = f;
  return TRUE;
}

gboolean
qm_catalog_parse_cloud_offer (JsonObject    *o,
                              QmCloudOffer  *out,
                              GError       **error)
{
  QmCloudOffer c = { 0 };

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!qm_catalog_parse_info (o, &c.info, error) ||
      !get_string (o, "provider", TRUE, &c.provider, error) ||
      !get_string (o, "instance_type", FALSE, &c.instance_type, error) ||
      !get_string (o, "gpu_id", TRUE, &c.gpu_id, error) ||
      !get_uint (o, "gpus", NUM_REQUIRED | NUM_POSITIVE, &c.gpus, error) ||
      !get_double (o, "usd_per_gpu_hour_on_demand", NUM_OPTIONAL,
                   &c.usd_per_gpu_hour_on_demand, error) ||
      !get_double (o, "usd_per_gpu_hour_reserved", NUM_OPTIONAL,
                   &c.usd_per_gpu_hour_reserved, error))
    return FALSE;
  if (c.usd_per_gpu_hour_on_demand <= 0.0 && c.usd_per_gpu_hour_reserved <= 0.0)
    {
      g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_MISSING_KEY,
                   "usd_per_gpu_hour_on_demand: an on-demand or reserved "
                   "price > 0 is required");
      return FALSE;
    }

  *out = c;
  return TRUE;
}

gboolean
qm_catalog_parse_model (JsonObject     *o,
                        QmModelPreset  *out,
                        GError        **error)
{
  QmModelPreset m = { 0 };
  QmModelShape *s = &m.shape;
  JsonNode *params;

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!qm_catalog_parse_info (o, &m.info, error) ||
      !get_double (o, "params", NUM_REQUIRED | NUM_POSITIVE, &m.published_params, error) ||
      !get_double (o, "active_params", NUM_OPTIONAL, &m.published_active_params, error) ||
      !get_uint (o, "layers", NUM_REQUIRED | NUM_POSITIVE, &s->layers, error) ||
      !get_uint (o, "hidden", NUM_REQUIRED | NUM_POSITIVE, &s->hidden, error) ||
      !get_uint (o, "heads", NUM_REQUIRED | NUM_POSITIVE, &s->heads, error) ||
      !get_uint (o, "kv_heads", NUM_OPTIONAL, &s->kv_heads, error) ||
      !get_uint (o, "head_dim", NUM_OPTIONAL, &s->head_dim, error) ||
      !get_uint (o, "ffn_hidden", NUM_OPTIONAL, &s->ffn_hidden, error) ||
      !get_uint (o, "vocab", NUM_REQUIRED | NUM_POSITIVE, &s->vocab, error) ||
      !get_bool (o, "gated_mlp", &s->gated_mlp, error) ||
      !get_bool (o, "tied_embeddings", &s->tied_embeddings, error) ||
      !get_uint (o, "experts", NUM_OPTIONAL, &s->experts, error) ||
      !get_uint (o, "experts_per_token", NUM_OPTIONAL, &s->experts_per_token, error) ||
      !get_uint (o, "shared_experts", NUM_OPTIONAL, &s->shared_experts, error) ||
      !get_uint (o, "moe_ffn_hidden", NUM_OPTIONAL, &s->moe_ffn_hidden, error) ||
      !get_uint (o, "dense_layers", NUM_OPTIONAL, &s->dense_layers, error) ||
      !get_uint (o, "q_lora_rank", NUM_OPTIONAL, &s->q_lora_rank, error) ||
      !get_uint (o, "kv_lora_rank", NUM_OPTIONAL, &s->kv_lora_rank, error) ||
      !get_uint (o, "rope_head_dim", NUM_OPTIONAL, &s->rope_head_dim, error))
    return FALSE;

  /* A count, not billions: the smallest preset (pythia) has 1e7+. */
  params = json_object_get_member (o, "params");
  if (m.published_params < 1e6)
    return set_invalid (error, "params",
                        "must be a parameter count (e.g. 7e9), not billions",
                        params);
  /* Zero fields are omitted in models.json: a dense model's active count
   * is its total, and plain multi-head attention has kv_heads == heads. */
  if (m.published_active_params <= 0.0)
    m.published_active_params = m.published_params;
  if (m.published_active_params > m.published_params)
    return set_invalid (error, "active_params", "must not exceed params",
                        json_object_get_member (o, "active_params"));
  if (s->kv_heads == 0)
    s->kv_heads = s->heads;
  if (s->heads % s->kv_heads != 0)
    return set_invalid (error, "kv_heads", "must divide heads",
                        json_object_get_member (o, "kv_heads"));

  *out = m;
  return TRUE;
}

gboolean
qm_catalog_parse_object (QmCatalogKind         kind,
                         JsonObject           *o,
                         QmCatalogParseFlags   flags,
                         gpointer              out,
                         GError              **error)
{
  gboolean ok = FALSE;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);
  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if ((flags & QM_CATALOG_PARSE_STRICT) && !check_keys (o, kind_keys[kind], error))
    return FALSE;

  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:      ok = qm_catalog_parse_gpu (o, out, error); break;
    case QM_CATALOG_KIND_SERVER:   ok = qm_catalog_parse_server (o, out, error); break;
    case QM_CATALOG_KIND_NETWORK:  ok = qm_catalog_parse_network (o, out, error); break;
    case QM_CATALOG_KIND_STORAGE:  ok = qm_catalog_parse_storage (o, out, error); break;
    case QM_CATALOG_KIND_FACILITY: ok = qm_catalog_parse_facility_item (o, out, error); break;
    case QM_CATALOG_KIND_CLOUD:    ok = qm_catalog_parse_cloud_offer (o, out, error); break;
    case QM_CATALOG_KIND_MODEL:    ok = qm_catalog_parse_model (o, out, error); break;
    case QM_N_CATALOG_KINDS:
    default:
      g_assert_not_reached ();
    }

  /* QmCatalogInfo is the first member of every kind's struct. */
  if (ok && (flags & QM_CATALOG_PARSE_BUILTIN))
    ((QmCatalogInfo *) out)->builtin = TRUE;
  return ok;
}

/* ------------------------------------------------------------------ */
/* Arrays, bytes, files.                                               */

GArray *
qm_catalog_parse_array (QmCatalogKind         kind,
                        JsonNode             *root,
                        QmCatalogParseFlags   flags,
                        const char           *name,
                        GError              **error)
{
  g_autoptr(GArray) out = NULL;
  g_autoptr(GHashTable) seen = NULL;
  gsize size;
  JsonArray *array;
  guint n;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (name == NULL)
    name = qm_catalog_kind_to_string (kind);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_PARSE,
                   "%s: expected a JSON array of %s entries", name,
                   qm_catalog_kind_to_string (kind));
      return NULL;
    }

  size = qm_catalog_kind_struct_size (kind);
  array = json_node_get_array (root);
  n = json_array_get_length (array);
  out = g_array_sized_new (FALSE, TRUE, size, n);
  seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree guint8 *entry = g_malloc0 (size);
      const QmCatalogInfo *info = (const QmCatalogInfo *) entry;
      GError *local_error = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_PARSE,
                       "%s[%u]: expected an object", name, i);
          return NULL;
        }
      if (!qm_catalog_parse_object (kind, json_node_get_object (node), flags,
                                    entry, &local_error))
        {
          JsonNode *id_node = json_object_get_member (json_node_get_object (node), "id");
          const char *id = NULL;

          if (id_node != NULL && JSON_NODE_HOLDS_VALUE (id_node) &&
              json_node_get_value_type (id_node) == G_TYPE_STRING)
            id = json_node_get_string (id_node);
          if (id != NULL && *id != '\0')
            g_prefix_error (&local_error, "%s[%u] (%s): ", name, i, id);
          else
            g_prefix_error (&local_error, "%s[%u]: ", name, i);
          g_propagate_error (error, local_error);
          return NULL;
        }
      if (g_hash_table_contains (seen, info->id))
        {
          g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_DUPLICATE_ID,
                       "%s[%u]: id: duplicate (got \"%s\")", name, i, info->id);
          return NULL;
        }
      /* Interned, so the key outlives the table. */
      g_hash_table_add (seen, (gpointer) info->id);
      g_array_append_vals (out, entry, 1);
    }

  return g_steal_pointer (&out);
}

GArray *
qm_catalog_parse_bytes (QmCatalogKind         kind,
                        GBytes               *bytes,
                        QmCatalogParseFlags   flags,
                        const char           *name,
                        GError              **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  gconstpointer data;
  gsize len;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (name == NULL)
    name = qm_catalog_kind_to_string (kind);
  data = g_bytes_get_data (bytes, &len);
  if (!json_parser_load_from_data (parser, data, len, error))
    {
      g_prefix_error (error, "%s: ", name);
      if (error != NULL && *error != NULL)
        {
          (*error)->domain = QM_CATALOG_ERROR;
          (*error)->code = QM_CATALOG_ERROR_PARSE;
        }
      return NULL;
    }
  return qm_catalog_parse_array (kind, json_parser_get_root (parser), flags,
                                 name, error);
}

GArray *
qm_catalog_parse_file (QmCatalogKind         kind,
                       const char           *path,
                       QmCatalogParseFlags   flags,
                       GError              **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *basename = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  basename = g_path_get_basename (path);
  return qm_catalog_parse_bytes (kind, bytes, flags, basename, error);
}
