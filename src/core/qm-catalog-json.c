/* qm-catalog-json.c: parse catalog entries from JSON.
 *
 * Every file in data/catalog/ is a JSON array of objects, one per entry.
 * Keys common to every kind (QmCatalogInfo):
 *   id (required, lower case, digits, '-' and '.'), name (required),
 *   vendor, source, as_of ("YYYY-MM-DD"), price_usd (reference price, >= 0).
 * Per kind (absent or null numbers mean 0 = unknown / not applicable):
 *   gpu:      family, form_factor, tflops {fp32, tf32, fp16, bf16, fp8, int8,
 *             fp4, int4} (dense), memory_gb > 0, bandwidth_tbs > 0, tdp_w,
 *             link_gbs (one direction), mamf_fraction (0..1),
 *             memory_mib (as the device reports it), hbm_stream_fraction
 *             (0..1), mamf_fraction_fp8 (0..1), allreduce_busbw_gbs,
 *             allreduce_latency_us and p2p_link_gbs (serving, qm-serving.c),
 *             mamf_source and mamf_same_as (where mamf_fraction comes from).
 *   server:   gpu_id, gpus >= 1, cpus, cpu_model, cpu_w (per socket), ram_gb,
 *             ram_w, nvme_tb, nvme_w, nics, nic_gbps, nic_w (per NIC),
 *             other_w, rack_units >= 1, power_max_w > 0, power_typical_w
 *             (<= power_max_w), weight_kg, rack_scale and liquid_cooled
 *             (booleans: a system that is its own rack, e.g. GB200 NVL72).
 *   network:  technology, ports >= 1, port_gbps > 0, power_w, rack_units,
 *             latency_us, nic_usd, transceiver_usd, transceiver_w, cable_usd.
 *   storage:  kind, usd_per_tb, usd_per_gbs, write_gbs_per_tb, watts_per_tb,
 *             rack_units_per_pb, usd_per_tb_month (rent; 0 = not offered).
 *   facility: kind, rack_units, kw_limit, direct_liquid (a liquid rack that
 *             carries direct-liquid-cooled servers).
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
#include "config.h"

#include "qm-catalog-json.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-text.h"
#include "qm-json-parse.h"

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

const char *
qm_catalog_kind_file (QmCatalogKind kind)
{
  static const char *files[QM_N_CATALOG_KINDS] = {
    [QM_CATALOG_KIND_GPU]      = "gpus.json",
    [QM_CATALOG_KIND_SERVER]   = "servers.json",
    [QM_CATALOG_KIND_NETWORK]  = "network.json",
    [QM_CATALOG_KIND_STORAGE]  = "storage.json",
    [QM_CATALOG_KIND_FACILITY] = "facility.json",
    [QM_CATALOG_KIND_CLOUD]    = "cloud.json",
    [QM_CATALOG_KIND_MODEL]    = "models.json",
  };

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, "gpus.json");
  return files[kind];
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
  g_autofree char *json = json_to_string (node, FALSE);

  /* JSON escapes C0 controls but leaves C1 and bidi overrides as they are. */
  return qm_text_escape (json);
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

JsonNode *
qm_catalog_json_lookup (JsonObject *o,
                        const char *key)
{
  const char *dot;
  g_autofree char *outer = NULL;
  JsonNode *inner;

  g_return_val_if_fail (key != NULL, NULL);

  if (o == NULL)
    return NULL;
  dot = strchr (key, '.');
  if (dot == NULL)
    return json_object_get_member (o, key);
  outer = g_strndup (key, dot - key);
  inner = json_object_get_member (o, outer);
  if (inner == NULL || !JSON_NODE_HOLDS_OBJECT (inner))
    return NULL;
  return json_object_get_member (json_node_get_object (inner), dot + 1);
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

/* The range flags of a field (QmCatalogFieldFlags) say how its number
 * is checked. */
typedef QmCatalogFieldFlags NumFlags;
#define NUM_OPTIONAL 0                          /* absent/null = 0; otherwise >= 0 */
#define NUM_POSITIVE QM_CATALOG_FIELD_POSITIVE  /* > 0 when given */
#define NUM_REQUIRED QM_CATALOG_FIELD_REQUIRED  /* absent/null is an error */
#define NUM_FRACTION QM_CATALOG_FIELD_FRACTION  /* <= 1 */

/* A number as @flags allow it; @whole asks for one that fits a guint. */
static gboolean
check_number (JsonNode    *node,
              const char  *key,
              NumFlags     flags,
              gboolean     whole,
              double      *out,
              GError     **error)
{
  const char *what = NULL;
  double v;

  *out = 0.0;
  if (node_is_null (node))
    return (flags & NUM_REQUIRED) ? set_missing (error, key) : TRUE;
  if (!node_is_number (node))
    return set_invalid (error, key, whole ? "must be a whole number" : "must be a number", node);
  v = json_node_get_double (node);
  if (whole && (!isfinite (v) || v != floor (v) || v < 0.0 || v > (double) G_MAXUINT))
    what = "must be a whole number >= 0";
  else if (!isfinite (v))
    what = "must be finite";
  else if ((flags & NUM_POSITIVE) && !(v > 0.0))
    what = whole ? "must be a whole number > 0" : "must be a number > 0";
  else if (v < 0.0)
    what = "must be a number >= 0";
  else if ((flags & NUM_FRACTION) && v > 1.0)
    what = "must be a fraction between 0 and 1";
  if (what != NULL)
    return set_invalid (error, key, what, node);
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
  return check_number (json_object_get_member (o, key), key, flags, FALSE, out, error);
}

static gboolean
get_uint (JsonObject  *o,
          const char  *key,
          NumFlags     flags,
          guint       *out,
          GError     **error)
{
  double v;

  *out = 0;
  if (!check_number (json_object_get_member (o, key), key, flags, TRUE, &v, error))
    return FALSE;
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
  const char *bad;
  glong at = 0;

  *out = NULL;
  if (node_is_null (node))
    return required ? set_missing (error, key) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return set_invalid (error, key, "must be a string", node);
  s = json_node_get_string (node);
  if (!g_utf8_validate (s, -1, NULL))
    return set_invalid (error, key, "must be valid UTF-8", node);
  /* Names and sources reach terminals, PDFs and spreadsheets. */
  bad = qm_text_find_unsafe (s, FALSE, &at);
  if (bad != NULL)
    {
      g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_INVALID,
                   "%s: must not contain control characters or bidirectional overrides"
                   " (got U+%04X at character %ld)",
                   key, g_utf8_get_char (bad), at);
      return FALSE;
    }
  if (*s == '\0')
    {
      if (required)
        return set_invalid (error, key, "must not be empty", node);
      return TRUE;
    }
  *out = g_intern_string (s);
  return TRUE;
}

/* Ids: lower case with dashes (docs/plan-file.md); dots for versions
 * ("llama-3.1-8b", "p5.48xlarge"). */
gboolean
qm_catalog_id_is_valid (const char *id)
{
  if (!g_ascii_islower (id[0]) && !g_ascii_isdigit (id[0]))
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '-' && *p != '.')
      return FALSE;
  return strlen (id) <= 128;
}

gboolean
qm_catalog_date_is_valid (const char *s)
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
  if (!qm_catalog_id_is_valid (info.id))
    return set_invalid (error, "id",
                        "must be lower case letters, digits, '-' and '.'",
                        json_object_get_member (o, "id"));
  if (!get_string (o, "name", TRUE, &info.name, error) ||
      !get_string (o, "vendor", FALSE, &info.vendor, error) ||
      !get_string (o, "source", FALSE, &info.source, error) ||
      !get_string (o, "as_of", FALSE, &info.as_of, error) ||
      !get_double (o, "price_usd", NUM_OPTIONAL, &info.price_usd, error))
    return FALSE;
  if (info.as_of != NULL && !qm_catalog_date_is_valid (info.as_of))
    return set_invalid (error, "as_of", "must be a date YYYY-MM-DD",
                        json_object_get_member (o, "as_of"));

  *out = info;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The fields of each kind: one table that the parser, the writer, the  */
/* strict key check, the CSV columns and the GTK page and editor all    */
/* read, so that no field can be read and not written (a lost field is */
/* a wrong quote) nor shown under a rule other than the parser's.       */

/* In the struct: TEXT a const char * (interned; "" = absent), NUMBER a
 * double, COUNT a guint, BOOL a gboolean, TFLOPS double[QM_N_PRECISIONS]. */
typedef struct
{
  QmCatalogField      show;    /* key, label, unit, flags (the range a
                                * number is checked against; a string is
                                * required when REQUIRED), decimals */
  QmCatalogValueType  type;
  gsize               offset;  /* in the kind's struct */
} SpecField;

/* A row's type names how it is stored and how it is shown: MONEY and
 * PARAMS are numbers in dollars and in parameters. */
#define VALUE_TEXT   QM_CATALOG_VALUE_TEXT
#define VALUE_NUMBER QM_CATALOG_VALUE_NUMBER
#define VALUE_MONEY  QM_CATALOG_VALUE_NUMBER
#define VALUE_PARAMS QM_CATALOG_VALUE_NUMBER
#define VALUE_COUNT  QM_CATALOG_VALUE_COUNT
#define VALUE_BOOL   QM_CATALOG_VALUE_BOOL
#define VALUE_TFLOPS QM_CATALOG_VALUE_TFLOPS
#define SHOW_TEXT    QM_CATALOG_FIELD_TEXT
#define SHOW_NUMBER  QM_CATALOG_FIELD_NUMBER
#define SHOW_MONEY   QM_CATALOG_FIELD_MONEY
#define SHOW_PARAMS  QM_CATALOG_FIELD_PARAMS
#define SHOW_COUNT   QM_CATALOG_FIELD_COUNT
#define SHOW_BOOL    QM_CATALOG_FIELD_BOOL
#define SHOW_TFLOPS  QM_CATALOG_FIELD_NUMBER  /* shown by precision: tflops_fields */

/* key, type, range and page flags, struct member, unit, decimals shown,
 * label */
#define FIELD(kind_struct, key, type, flags, member, unit, decimals, label) \
  { { key, label, unit, SHOW_##type, flags, decimals }, VALUE_##type, \
    G_STRUCT_OFFSET (kind_struct, member) }
#define REQ  QM_CATALOG_FIELD_REQUIRED
#define POS  QM_CATALOG_FIELD_POSITIVE
#define FRAC QM_CATALOG_FIELD_FRACTION
#define COL  QM_CATALOG_FIELD_COLUMN
#define LAST QM_CATALOG_FIELD_LAST

#define GPU(...) FIELD (QmGpuSpec, __VA_ARGS__)
static const SpecField gpu_fields[] = {
  GPU ("family",              TEXT,   0,               family,              NULL,   0, N_("Family")),
  GPU ("form_factor",         TEXT,   COL,             form_factor,         NULL,   0, N_("Form Factor")),
  GPU ("tflops",              TFLOPS, REQ,             tflops,              NULL,   0, NULL),
  GPU ("memory_gb",           NUMBER, REQ | POS | COL, memory_gb,           "GB",   1, N_("Memory")),
  GPU ("bandwidth_tbs",       NUMBER, REQ | POS | COL, bandwidth_tbs,       "TB/s", 3, N_("Bandwidth")),
  GPU ("tdp_w",               NUMBER, COL,             tdp_w,               "W",    0, N_("TDP")),
  GPU ("link_gbs",            NUMBER, COL,             link_gbs,            "GB/s", 0, N_("GPU Link")),
  GPU ("mamf_fraction",       NUMBER, FRAC,            mamf_fraction,       NULL,   3, N_("Achievable Matmul Fraction")),
  GPU ("memory_mib",          NUMBER, 0,               memory_mib,          "MiB",  0, N_("Reported Memory")),
  GPU ("hbm_stream_fraction", NUMBER, FRAC,            hbm_stream_fraction, NULL,   3, N_("Achievable HBM Fraction")),
  GPU ("mamf_fraction_fp8",   NUMBER, FRAC,            mamf_fraction_fp8,   NULL,   3, N_("Achievable FP8/FP4 Matmul Fraction")),
  GPU ("allreduce_busbw_gbs", NUMBER, 0,               allreduce_busbw_gbs, "GB/s", 0, N_("All-Reduce Bus Bandwidth")),
  GPU ("allreduce_latency_us", NUMBER, 0,              allreduce_latency_us, "µs",  1, N_("All-Reduce Latency")),
  GPU ("p2p_link_gbs",        NUMBER, 0,               p2p_link_gbs,        "GB/s", 0, N_("Peer Link Bandwidth (Mesh)")),
  GPU ("mamf_source",         TEXT,   0,               mamf_source,         NULL,   0, N_("Matmul Fraction Source")),
  GPU ("mamf_same_as",        TEXT,   0,               mamf_same_as,        NULL,   0, N_("Matmul Fraction Measured On")),
  GPU ("lead_weeks",          NUMBER, 0,               info.lead_weeks,     NULL,   0, N_("Lead Time (Weeks)")),
  GPU ("support_rate",        NUMBER, FRAC,            info.support_rate,   NULL,   3, N_("Yearly Support (Fraction of List)")),
};

/* The tflops object as people see it: one field a precision, the common
 * ones first. Keys are "tflops." and the precision's name. */
static const QmCatalogField tflops_fields[] = {
  { "tflops.bf16", N_("BF16"), "TFLOPS", QM_CATALOG_FIELD_NUMBER, COL, 1 },
  { "tflops.fp16", N_("FP16"), "TFLOPS", QM_CATALOG_FIELD_NUMBER, 0,   1 },
  { "tflops.fp8",  N_("FP8"),  "TFLOPS", QM_CATALOG_FIELD_NUMBER, COL, 1 },
  { "tflops.fp4",  N_("FP4"),  "TFLOPS", QM_CATALOG_FIELD_NUMBER, 0,   1 },
  { "tflops.tf32", N_("TF32"), "TFLOPS", QM_CATALOG_FIELD_NUMBER, 0,   1 },
  { "tflops.fp32", N_("FP32"), "TFLOPS", QM_CATALOG_FIELD_NUMBER, 0,   1 },
  { "tflops.int8", N_("INT8"), "TOPS",   QM_CATALOG_FIELD_NUMBER, 0,   1 },
  { "tflops.int4", N_("INT4"), "TOPS",   QM_CATALOG_FIELD_NUMBER, 0,   1 },
};
G_STATIC_ASSERT (G_N_ELEMENTS (tflops_fields) == QM_N_PRECISIONS);

#define SERVER(...) FIELD (QmServerSpec, __VA_ARGS__)
static const SpecField server_fields[] = {
  SERVER ("gpu_id",          TEXT,   COL,             gpu_id,          NULL,   0, N_("GPU")),
  SERVER ("gpus",            COUNT,  REQ | POS | COL, gpus,            NULL,   0, N_("GPUs")),
  SERVER ("cpus",            COUNT,  0,               cpus,            NULL,   0, N_("CPUs")),
  SERVER ("cpu_model",       TEXT,   0,               cpu_model,       NULL,   0, N_("CPU Model")),
  SERVER ("cpu_w",           NUMBER, 0,               cpu_w,           "W",    0, N_("CPU Power")),
  SERVER ("ram_gb",          NUMBER, COL,             ram_gb,          "GB",   0, N_("RAM")),
  SERVER ("ram_w",           NUMBER, 0,               ram_w,           "W",    0, N_("RAM Power")),
  SERVER ("nvme_tb",         NUMBER, COL,             nvme_tb,         "TB",   1, N_("NVMe")),
  SERVER ("nvme_w",          NUMBER, 0,               nvme_w,          "W",    0, N_("NVMe Power")),
  SERVER ("nics",            COUNT,  0,               nics,            NULL,   0, N_("NICs")),
  SERVER ("nic_gbps",        NUMBER, 0,               nic_gbps,        "Gb/s", 0, N_("NIC Speed")),
  SERVER ("nic_w",           NUMBER, 0,               nic_w,           "W",    0, N_("NIC Power")),
  SERVER ("other_w",         NUMBER, 0,               other_w,         "W",    0, N_("Other Power")),
  SERVER ("rack_units",      COUNT,  REQ | POS | COL, rack_units,      "U",    0, N_("Height")),
  SERVER ("power_max_w",     NUMBER, REQ | POS | COL, power_max_w,     "W",    0, N_("Max Power")),
  SERVER ("power_typical_w", NUMBER, 0,               power_typical_w, "W",    0, N_("Typical Power")),
  SERVER ("weight_kg",       NUMBER, 0,               weight_kg,       "kg",   1, N_("Weight")),
  SERVER ("rack_scale",      BOOL,   0,               rack_scale,      NULL,   0, N_("Rack-Scale System")),
  SERVER ("liquid_cooled",   BOOL,   0,               liquid_cooled,   NULL,   0, N_("Liquid-Cooled")),
  SERVER ("lead_weeks",      NUMBER, 0,               info.lead_weeks, NULL,   0, N_("Lead Time (Weeks)")),
  SERVER ("support_rate",    NUMBER, FRAC,            info.support_rate, NULL, 3, N_("Yearly Support (Fraction of List)")),
};

#define NETWORK(...) FIELD (QmNetworkSpec, __VA_ARGS__)
static const SpecField network_fields[] = {
  NETWORK ("technology",      TEXT,   COL,             technology,      NULL,   0, N_("Technology")),
  NETWORK ("ports",           COUNT,  REQ | POS | COL, ports,           NULL,   0, N_("Ports")),
  NETWORK ("port_gbps",       NUMBER, REQ | POS | COL, port_gbps,       "Gb/s", 0, N_("Port Speed")),
  NETWORK ("power_w",         NUMBER, COL,             power_w,         "W",    0, N_("Power")),
  NETWORK ("rack_units",      COUNT,  COL,             rack_units,      "U",    0, N_("Height")),
  NETWORK ("latency_us",      NUMBER, 0,               latency_us,      "µs",   2, N_("Latency")),
  NETWORK ("nic_usd",         MONEY,  0,               nic_usd,         NULL,   0, N_("NIC Price")),
  NETWORK ("transceiver_usd", MONEY,  0,               transceiver_usd, NULL,   0, N_("Transceiver Price")),
  NETWORK ("transceiver_w",   NUMBER, 0,               transceiver_w,   "W",    1, N_("Transceiver Power")),
  NETWORK ("cable_usd",       MONEY,  0,               cable_usd,       NULL,   0, N_("Cable Price")),
  NETWORK ("lead_weeks",      NUMBER, 0,               info.lead_weeks, NULL,   0, N_("Lead Time (Weeks)")),
  NETWORK ("support_rate",    NUMBER, FRAC,            info.support_rate, NULL, 3, N_("Yearly Support (Fraction of List)")),
};

#define STORAGE(...) FIELD (QmStorageSpec, __VA_ARGS__)
static const SpecField storage_fields[] = {
  STORAGE ("kind",              TEXT,   COL, kind,              NULL,   0, N_("Type")),
  STORAGE ("usd_per_tb",        MONEY,  COL, usd_per_tb,        NULL,   0, N_("Price per TB")),
  STORAGE ("usd_per_gbs",       MONEY,  COL, usd_per_gbs,       NULL,   0, N_("Price per GB/s")),
  STORAGE ("write_gbs_per_tb",  NUMBER, COL, write_gbs_per_tb,  "GB/s", 3, N_("Write Bandwidth per TB")),
  STORAGE ("watts_per_tb",      NUMBER, 0,   watts_per_tb,      "W",    1, N_("Power per TB")),
  STORAGE ("rack_units_per_pb", COUNT,  0,   rack_units_per_pb, "U",    0, N_("Rack Space per PB")),
  STORAGE ("usd_per_tb_month",  MONEY,  COL, usd_per_tb_month,  NULL,   0, N_("Rent per TB-Month")),
  STORAGE ("lead_weeks",        NUMBER, 0,    info.lead_weeks,   NULL,   0, N_("Lead Time (Weeks)")),
  STORAGE ("support_rate",      NUMBER, FRAC, info.support_rate, NULL,   3, N_("Yearly Support (Fraction of List)")),
};

#define FACILITY(...) FIELD (QmFacilityItem, __VA_ARGS__)
static const SpecField facility_fields[] = {
  FACILITY ("kind",       TEXT,   REQ | COL, kind,       NULL, 0, N_("Type")),
  FACILITY ("rack_units", COUNT,  COL,       rack_units, "U",  0, N_("Height")),
  FACILITY ("kw_limit",   NUMBER, COL,       kw_limit,   "kW", 1, N_("Power Limit")),
  FACILITY ("direct_liquid", BOOL, 0,        direct_liquid, NULL, 0, N_("Direct Liquid Cooling")),
  FACILITY ("lead_weeks",   NUMBER, 0,         info.lead_weeks,   NULL, 0, N_("Lead Time (Weeks)")),
  FACILITY ("support_rate", NUMBER, FRAC,      info.support_rate, NULL, 3, N_("Yearly Support (Fraction of List)")),
};

/* The provider is not a column: the vendor column already names it. The
 * instance type comes after the prices people compare. */
#define CLOUD(...) FIELD (QmCloudOffer, __VA_ARGS__)
static const SpecField cloud_fields[] = {
  CLOUD ("provider",                   TEXT,  REQ,             provider,                   NULL, 0, N_("Provider")),
  CLOUD ("instance_type",              TEXT,  COL | LAST,      instance_type,              NULL, 0, N_("Instance Type")),
  CLOUD ("gpu_id",                     TEXT,  REQ | COL,       gpu_id,                     NULL, 0, N_("GPU")),
  CLOUD ("gpus",                       COUNT, REQ | POS | COL, gpus,                       NULL, 0, N_("GPUs")),
  CLOUD ("usd_per_gpu_hour_on_demand", MONEY, COL,             usd_per_gpu_hour_on_demand, NULL, 2, N_("On Demand per GPU-Hour")),
  CLOUD ("usd_per_gpu_hour_reserved",  MONEY, COL,             usd_per_gpu_hour_reserved,  NULL, 2, N_("Reserved per GPU-Hour")),
};

#define MODEL(...) FIELD (QmModelPreset, __VA_ARGS__)
static const SpecField model_fields[] = {
  MODEL ("params",            PARAMS, REQ | POS | COL, published_params,         NULL, 1, N_("Parameters")),
  MODEL ("active_params",     PARAMS, COL,             published_active_params,  NULL, 1, N_("Active Parameters")),
  MODEL ("layers",            COUNT,  REQ | POS | COL, shape.layers,             NULL, 0, N_("Layers")),
  MODEL ("hidden",            COUNT,  REQ | POS | COL, shape.hidden,             NULL, 0, N_("Hidden Size")),
  MODEL ("heads",             COUNT,  REQ | POS | COL, shape.heads,              NULL, 0, N_("Heads")),
  MODEL ("kv_heads",          COUNT,  COL,             shape.kv_heads,           NULL, 0, N_("KV Heads")),
  MODEL ("head_dim",          COUNT,  0,               shape.head_dim,           NULL, 0, N_("Head Size")),
  MODEL ("ffn_hidden",        COUNT,  0,               shape.ffn_hidden,         NULL, 0, N_("FFN Size")),
  MODEL ("vocab",             COUNT,  REQ | POS | COL, shape.vocab,              NULL, 0, N_("Vocabulary")),
  MODEL ("gated_mlp",         BOOL,   0,               shape.gated_mlp,          NULL, 0, N_("Gated MLP")),
  MODEL ("tied_embeddings",   BOOL,   0,               shape.tied_embeddings,    NULL, 0, N_("Tied Embeddings")),
  MODEL ("experts",           COUNT,  COL,             shape.experts,            NULL, 0, N_("Experts")),
  MODEL ("experts_per_token", COUNT,  0,               shape.experts_per_token,  NULL, 0, N_("Experts per Token")),
  MODEL ("shared_experts",    COUNT,  0,               shape.shared_experts,     NULL, 0, N_("Shared Experts")),
  MODEL ("moe_ffn_hidden",    COUNT,  0,               shape.moe_ffn_hidden,     NULL, 0, N_("Expert FFN Size")),
  MODEL ("dense_layers",      COUNT,  0,               shape.dense_layers,       NULL, 0, N_("Dense Layers")),
  MODEL ("q_lora_rank",       COUNT,  0,               shape.q_lora_rank,        NULL, 0, N_("Query LoRA Rank")),
  MODEL ("kv_lora_rank",      COUNT,  0,               shape.kv_lora_rank,       NULL, 0, N_("KV LoRA Rank")),
  MODEL ("rope_head_dim",     COUNT,  0,               shape.rope_head_dim,      NULL, 0, N_("RoPE Head Size")),
};

/* The keys of QmCatalogInfo, common to every kind, as the editor asks
 * for them. */
static const QmCatalogField info_fields[] = {
  { "id",        N_("ID"),                 NULL, QM_CATALOG_FIELD_TEXT,  REQ, 0, qm_catalog_id_is_valid,
    N_("Use lower case letters, digits, “-” and “.”, starting with a letter or digit") },
  { "vendor",    N_("Vendor"),             NULL, QM_CATALOG_FIELD_TEXT,  0,   0 },
  { "name",      N_("Name"),               NULL, QM_CATALOG_FIELD_TEXT,  REQ, 0 },
  { "source",    N_("Source"),             NULL, QM_CATALOG_FIELD_TEXT,  0,   0 },
  { "as_of",     N_("As Of (YYYY-MM-DD)"), NULL, QM_CATALOG_FIELD_TEXT,  0,   0, qm_catalog_date_is_valid,
    N_("Must be a date written YYYY-MM-DD, such as 2025-06-01") },
  { "price_usd", N_("List Price (US$)"),   NULL, QM_CATALOG_FIELD_MONEY, 0,   2 },
};

#undef REQ
#undef POS
#undef FRAC
#undef COL
#undef LAST

static const struct
{
  const SpecField *fields;
  guint            n;
} kind_fields[QM_N_CATALOG_KINDS] = {
  [QM_CATALOG_KIND_GPU]      = { gpu_fields, G_N_ELEMENTS (gpu_fields) },
  [QM_CATALOG_KIND_SERVER]   = { server_fields, G_N_ELEMENTS (server_fields) },
  [QM_CATALOG_KIND_NETWORK]  = { network_fields, G_N_ELEMENTS (network_fields) },
  [QM_CATALOG_KIND_STORAGE]  = { storage_fields, G_N_ELEMENTS (storage_fields) },
  [QM_CATALOG_KIND_FACILITY] = { facility_fields, G_N_ELEMENTS (facility_fields) },
  [QM_CATALOG_KIND_CLOUD]    = { cloud_fields, G_N_ELEMENTS (cloud_fields) },
  [QM_CATALOG_KIND_MODEL]    = { model_fields, G_N_ELEMENTS (model_fields) },
};

const char *
qm_catalog_field_key (QmCatalogKind       kind,
                      guint               i,
                      QmCatalogValueType *type)
{
  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);

  if (i >= kind_fields[kind].n)
    return NULL;
  if (type != NULL)
    *type = kind_fields[kind].fields[i].type;
  return kind_fields[kind].fields[i].show.key;
}

const QmCatalogField *
qm_catalog_fields (QmCatalogKind  kind,
                   guint         *n_fields)
{
  static const QmCatalogField *flat[QM_N_CATALOG_KINDS];
  static guint n_flat[QM_N_CATALOG_KINDS];

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);

  /* The tables hold SpecFields; people see QmCatalogFields, with the
   * tflops object spread out by precision and the LAST ones at the end.
   * Built once. */
  if (g_once_init_enter (&flat[kind]))
    {
      GArray *fields = g_array_new (FALSE, FALSE, sizeof (QmCatalogField));

      for (guint last = 0; last < 2; last++)
        for (guint i = 0; i < kind_fields[kind].n; i++)
          {
            const SpecField *f = &kind_fields[kind].fields[i];

            if (((f->show.flags & QM_CATALOG_FIELD_LAST) != 0) != last)
              continue;
            if (f->type == QM_CATALOG_VALUE_TFLOPS)
              g_array_append_vals (fields, tflops_fields, G_N_ELEMENTS (tflops_fields));
            else
              g_array_append_val (fields, f->show);
          }
      n_flat[kind] = fields->len;
      g_once_init_leave (&flat[kind], (const QmCatalogField *) g_array_free (fields, FALSE));
    }
  if (n_fields != NULL)
    *n_fields = n_flat[kind];
  return flat[kind];
}

const QmCatalogField *
qm_catalog_info_field (const char *key)
{
  for (guint i = 0; key != NULL && i < G_N_ELEMENTS (info_fields); i++)
    if (g_str_equal (info_fields[i].key, key))
      return &info_fields[i];
  return NULL;
}

/* Column headers of spreadsheets: the key, or a label people see for it. */

/* The catalog page's own titles for common fields, beyond the editor's
 * labels in info_fields. */
static const struct
{
  const char *key;
  const char *label;
  const char *unit;    /* as spreadsheets title a price: "Price (USD)" */
} page_titles[] = {
  { "vendor",    N_("Developer"), NULL },
  { "price_usd", N_("Price"),     "USD" },
  { "price_usd", N_("Price"),     "US$" },
  { "as_of",     N_("As Of"),     NULL },
};

/* Letters and digits only, case folded: "Price (USD)", "price_usd" and
 * "PRICE USD" all become "priceusd". */
static char *
header_norm (const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);
  GString *s = g_string_new (NULL);

  for (const char *p = folded; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isalnum (c))
        g_string_append_unichar (s, c);
    }
  return g_string_free (s, FALSE);
}

/* Whether @norm (header_norm()) names the field @key with @label, in
 * English or translated, with or without @unit. */
static gboolean
header_names (const char *norm,
              const char *key,
              const char *label,
              const char *unit)
{
  const char *labels[] = { key, label, label ? _(label) : NULL };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      g_autofree char *plain = NULL;
      g_autofree char *with_unit = NULL;

      if (labels[i] == NULL)
        continue;
      plain = header_norm (labels[i]);
      if (*plain != '\0' && g_str_equal (norm, plain))
        return TRUE;
      if (unit == NULL)
        continue;
      with_unit = g_strconcat (labels[i], unit, NULL);
      g_free (plain);
      plain = header_norm (with_unit);
      if (g_str_equal (norm, plain))
        return TRUE;
    }
  return FALSE;
}

const char *
qm_catalog_key_for_header (QmCatalogKind  kind,
                           const char    *header)
{
  g_autofree char *norm = NULL;
  const QmCatalogField *fields;
  guint n;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS && header != NULL, NULL);

  norm = header_norm (header);
  if (*norm == '\0')
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (info_fields); i++)
    if (header_names (norm, info_fields[i].key, info_fields[i].label, info_fields[i].unit))
      return info_fields[i].key;
  for (guint i = 0; i < G_N_ELEMENTS (page_titles); i++)
    if (header_names (norm, page_titles[i].key, page_titles[i].label, page_titles[i].unit))
      return page_titles[i].key;
  fields = qm_catalog_fields (kind, &n);
  for (guint i = 0; i < n; i++)
    if (header_names (norm, fields[i].key, fields[i].label, fields[i].unit))
      return fields[i].key;
  return NULL;
}

char *
qm_catalog_header_names (const char *key)
{
  const QmCatalogField *f = qm_catalog_info_field (key);
  GString *s = g_string_new (key);

  if (f != NULL && f->label != NULL)
    {
      g_string_append_printf (s, ", %s", f->label);
      if (!g_str_equal (_(f->label), f->label))
        g_string_append_printf (s, ", %s", _(f->label));
    }
  return g_string_free (s, FALSE);
}

/* For QM_CATALOG_PARSE_STRICT: a key the tables do not know is a typo. */
static gboolean
check_keys (JsonObject     *o,
            QmCatalogKind   kind,
            GError        **error)
{
  g_autoptr(GList) members = json_object_get_members (o);

  for (GList *l = members; l != NULL; l = l->next)
    {
      gboolean known = qm_catalog_info_field (l->data) != NULL;

      for (guint i = 0; !known && i < kind_fields[kind].n; i++)
        known = g_str_equal (kind_fields[kind].fields[i].show.key, l->data);
      if (!known)
        {
          g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_UNKNOWN_KEY,
                       "%s: unknown key", (const char *) l->data);
          return FALSE;
        }
    }
  return TRUE;
}

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
      if (!check_number (json_object_get_member (t, l->data), key,
                         NUM_OPTIONAL, FALSE, &v, error))
        return FALSE;
      tflops[p] = v;
    }
  if (tflops[QM_PRECISION_BF16] <= 0.0 && tflops[QM_PRECISION_FP16] <= 0.0)
    return set_invalid (error, "tflops",
                        "needs a dense bf16 or fp16 figure > 0", node);
  return TRUE;
}

static gboolean
parse_field (JsonObject       *o,
             const SpecField  *f,
             guint8           *spec,
             GError          **error)
{
  gpointer member = spec + f->offset;
  const char *key = f->show.key;

  switch (f->type)
    {
    case QM_CATALOG_VALUE_TEXT:
      return get_string (o, key, (f->show.flags & NUM_REQUIRED) != 0, member, error);
    case QM_CATALOG_VALUE_NUMBER:
      return get_double (o, key, f->show.flags, member, error);
    case QM_CATALOG_VALUE_COUNT:
      return get_uint (o, key, f->show.flags, member, error);
    case QM_CATALOG_VALUE_BOOL:
      return get_bool (o, key, member, error);
    case QM_CATALOG_VALUE_TFLOPS:
      return parse_tflops (o, member, error);
    default:
      g_assert_not_reached ();
    }
}

/* What the table cannot say: relations between fields, and defaults. */
static gboolean
check_kind (QmCatalogKind   kind,
            JsonObject     *o,
            gpointer        spec,
            GError        **error)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_SERVER:
      {
        const QmServerSpec *s = spec;

        if (s->power_typical_w > s->power_max_w)
          return set_invalid (error, "power_typical_w", "must not exceed power_max_w",
                              json_object_get_member (o, "power_typical_w"));
      }
      break;

    case QM_CATALOG_KIND_CLOUD:
      {
        const QmCloudOffer *c = spec;

        if (c->usd_per_gpu_hour_on_demand <= 0.0 && c->usd_per_gpu_hour_reserved <= 0.0)
          {
            g_set_error (error, QM_CATALOG_ERROR, QM_CATALOG_ERROR_MISSING_KEY,
                         "usd_per_gpu_hour_on_demand: an on-demand or reserved "
                         "price > 0 is required");
            return FALSE;
          }
      }
      break;

    case QM_CATALOG_KIND_MODEL:
      {
        QmModelPreset *m = spec;
        QmModelShape *s = &m->shape;

        /* A count, not billions: the smallest preset (pythia) has 1e7+. */
        if (m->published_params < 1e6)
          return set_invalid (error, "params",
                              "must be a parameter count (e.g. 7e9), not billions",
                              json_object_get_member (o, "params"));
        /* Zero fields are omitted in models.json: a dense model's active
         * count is its total, and plain multi-head attention has
         * kv_heads == heads. */
        if (m->published_active_params <= 0.0)
          m->published_active_params = m->published_params;
        if (m->published_active_params > m->published_params)
          return set_invalid (error, "active_params", "must not exceed params",
                              json_object_get_member (o, "active_params"));
        if (s->kv_heads == 0)
          s->kv_heads = s->heads;
        if (s->heads % s->kv_heads != 0)
          return set_invalid (error, "kv_heads", "must divide heads",
                              json_object_get_member (o, "kv_heads"));
      }
      break;

    case QM_CATALOG_KIND_GPU:
    case QM_CATALOG_KIND_NETWORK:
    case QM_CATALOG_KIND_STORAGE:
    case QM_CATALOG_KIND_FACILITY:
    case QM_N_CATALOG_KINDS:
    default:
      break;
    }
  return TRUE;
}

/* Fills @out (the kind's struct) only when every field is valid. */
static gboolean
parse_kind (QmCatalogKind   kind,
            JsonObject     *o,
            gpointer        out,
            GError        **error)
{
  gsize size = qm_catalog_kind_struct_size (kind);
  g_autofree guint8 *spec = g_malloc0 (size);

  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, size);

  /* QmCatalogInfo is the first member of every kind's struct. */
  if (!qm_catalog_parse_info (o, (QmCatalogInfo *) spec, error))
    return FALSE;
  for (guint i = 0; i < kind_fields[kind].n; i++)
    if (!parse_field (o, &kind_fields[kind].fields[i], spec, error))
      return FALSE;
  if (!check_kind (kind, o, spec, error))
    return FALSE;

  memcpy (out, spec, size);
  return TRUE;
}

gboolean
qm_catalog_parse_object (QmCatalogKind         kind,
                         JsonObject           *o,
                         QmCatalogParseFlags   flags,
                         gpointer              out,
                         GError              **error)
{
  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, FALSE);
  g_return_val_if_fail (o != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if ((flags & QM_CATALOG_PARSE_STRICT) && !check_keys (o, kind, error))
    return FALSE;
  if (!parse_kind (kind, o, out, error))
    return FALSE;
  if (flags & QM_CATALOG_PARSE_BUILTIN)
    ((QmCatalogInfo *) out)->builtin = TRUE;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Writing: the same keys, zeros and empty strings left out (they read */
/* back as absent).                                                     */

static void
put_string (JsonObject *o,
            const char *key,
            const char *value)
{
  if (value != NULL && *value != '\0')
    json_object_set_string_member (o, key, value);
}

static void
put_field (JsonObject      *o,
           const SpecField *f,
           const guint8    *spec)
{
  gconstpointer member = spec + f->offset;
  const char *key = f->show.key;

  switch (f->type)
    {
    case QM_CATALOG_VALUE_TEXT:
      put_string (o, key, *(const char * const *) member);
      break;
    case QM_CATALOG_VALUE_NUMBER:
      if (*(const double *) member != 0.0)
        json_object_set_double_member (o, key, *(const double *) member);
      break;
    case QM_CATALOG_VALUE_COUNT:
      if (*(const guint *) member != 0)
        json_object_set_int_member (o, key, *(const guint *) member);
      break;
    case QM_CATALOG_VALUE_BOOL:
      if (*(const gboolean *) member)
        json_object_set_boolean_member (o, key, TRUE);
      break;
    case QM_CATALOG_VALUE_TFLOPS:
      {
        const double *tflops = member;
        JsonObject *t = json_object_new ();

        for (guint p = 0; p < QM_N_PRECISIONS; p++)
          if (tflops[p] != 0.0)
            json_object_set_double_member (t, qm_precision_to_string (p), tflops[p]);
        json_object_set_object_member (o, key, t);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

JsonObject *
qm_catalog_spec_to_json (QmCatalogKind  kind,
                         gconstpointer  spec)
{
  const QmCatalogInfo *info = spec;
  JsonObject *o = json_object_new ();

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, o);
  g_return_val_if_fail (spec != NULL, o);

  put_string (o, "id", info->id);
  put_string (o, "vendor", info->vendor);
  put_string (o, "name", info->name);
  json_object_set_double_member (o, "price_usd", info->price_usd);
  put_string (o, "source", info->source);
  put_string (o, "as_of", info->as_of);
  for (guint i = 0; i < kind_fields[kind].n; i++)
    put_field (o, &kind_fields[kind].fields[i], spec);
  return o;
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
  if (!qm_json_parser_load (parser, data, len, error))
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
