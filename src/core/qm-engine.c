/* qm-engine.c: the serving-engine catalog (data/catalog/engines.json).
 *
 * Keys of an entry: id, name, vendor, source, as_of (as every catalog
 * entry), version, step_overhead_us (>= 0), seq_overhead_us (>= 0, per
 * sequence of a step), cuda_graphs (bool),
 * block_tokens (>= 1), kv_fraction (0..1], kv_fraction_of ("free" or
 * "total"), admission ("reserve" or "blocks") and limits (1 to 4 objects:
 * min_memory_gib, except_family, max_sequences_offline,
 * max_batch_tokens_offline, max_sequences_server, max_batch_tokens_server).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-catalog-json.h"
#include "qm-catalog-resources.h"
#include "qm-engine.h"

#define ENGINES_RESOURCE "/io/github/quartermaster/Quartermaster/catalog/engines.json"

static gboolean
fail (GError    **error,
      const char *id,
      const char *key,
      const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "engines.json (%s): %s: %s",
               id ? id : "?", key, what);
  return FALSE;
}

static gboolean
get_number (JsonObject *o,
            const char *id,
            const char *key,
            double      lo,
            double      hi,
            double     *out,
            GError    **error)
{
  JsonNode *n = json_object_get_member (o, key);
  double v;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n)
      || (json_node_get_value_type (n) != G_TYPE_INT64 && json_node_get_value_type (n) != G_TYPE_DOUBLE))
    return fail (error, id, key, "must be a number");
  v = json_node_get_double (n);
  if (!isfinite (v) || v < lo || v > hi)
    return fail (error, id, key, "out of range");
  *out = v;
  return TRUE;
}

static gboolean
get_count (JsonObject *o,
           const char *id,
           const char *key,
           guint       lo,
           guint      *out,
           GError    **error)
{
  double v;

  if (!get_number (o, id, key, lo, 1e9, &v, error))
    return FALSE;
  if (v != floor (v))
    return fail (error, id, key, "must be a whole number");
  *out = (guint) v;
  return TRUE;
}

static const char *
get_word (JsonObject *o,
          const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return g_intern_string (json_node_get_string (n));
}

static gboolean
parse_limits (JsonObject   *o,
              const char   *id,
              QmEngineSpec *e,
              GError      **error)
{
  JsonNode *n = json_object_get_member (o, "limits");
  JsonArray *a;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return fail (error, id, "limits", "must be an array");
  a = json_node_get_array (n);
  e->n_limits = json_array_get_length (a);
  if (e->n_limits < 1 || e->n_limits > QM_ENGINE_MAX_LIMITS)
    return fail (error, id, "limits", "must hold 1 to 4 entries");
  for (guint i = 0; i < e->n_limits; i++)
    {
      JsonNode *ln = json_array_get_element (a, i);
      QmEngineLimits *l = &e->limits[i];
      JsonObject *lo;

      if (!JSON_NODE_HOLDS_OBJECT (ln))
        return fail (error, id, "limits", "entries must be objects");
      lo = json_node_get_object (ln);
      if (!get_number (lo, id, "min_memory_gib", 0, 1e6, &l->min_memory_gib, error)
          || !get_count (lo, id, "max_sequences_offline", 0, &l->max_sequences_offline, error)
          || !get_count (lo, id, "max_batch_tokens_offline", 1, &l->max_batch_tokens_offline, error)
          || !get_count (lo, id, "max_sequences_server", 0, &l->max_sequences_server, error)
          || !get_count (lo, id, "max_batch_tokens_server", 1, &l->max_batch_tokens_server, error))
        return FALSE;
      l->except_family = get_word (lo, "except_family");
    }
  return TRUE;
}

static gboolean
parse_engine (JsonObject   *o,
              QmEngineSpec *e,
              GError      **error)
{
  static const char *const keys[] = {
    "id", "name", "vendor", "source", "as_of", "version", "step_overhead_us", "seq_overhead_us", "cuda_graphs",
    "block_tokens", "kv_fraction", "kv_fraction_of", "admission", "limits", NULL,
  };
  g_autoptr (GList) members = json_object_get_members (o);
  const char *id, *word;
  JsonNode *n;

  memset (e, 0, sizeof *e);
  if (!qm_catalog_parse_info (o, &e->info, error))
    return FALSE;
  id = e->info.id;
  for (GList *l = members; l; l = l->next)
    if (!g_strv_contains (keys, l->data))
      return fail (error, id, l->data, "unknown key");
  e->info.builtin = TRUE;
  e->version = get_word (o, "version");
  if (e->version == NULL)
    return fail (error, id, "version", "must be a string");
  if (e->info.source == NULL || e->info.as_of == NULL)
    return fail (error, id, "source", "an engine needs its source and as_of");
  if (!get_number (o, id, "step_overhead_us", 0, 1e6, &e->step_overhead_us, error)
      || !get_number (o, id, "seq_overhead_us", 0, 1e6, &e->seq_overhead_us, error)
      || !get_count (o, id, "block_tokens", 1, &e->block_tokens, error)
      || !get_number (o, id, "kv_fraction", 1e-3, 1.0, &e->kv_fraction, error)
      || !parse_limits (o, id, e, error))
    return FALSE;
  n = json_object_get_member (o, "cuda_graphs");
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return fail (error, id, "cuda_graphs", "must be true or false");
  e->cuda_graphs = json_node_get_boolean (n);
  word = get_word (o, "kv_fraction_of");
  if (g_strcmp0 (word, "free") == 0)
    e->kv_base = QM_ENGINE_KV_OF_FREE;
  else if (g_strcmp0 (word, "total") == 0)
    e->kv_base = QM_ENGINE_KV_OF_TOTAL;
  else
    return fail (error, id, "kv_fraction_of", "must be \"free\" or \"total\"");
  word = get_word (o, "admission");
  if (g_strcmp0 (word, "reserve") == 0)
    e->admission = QM_ENGINE_ADMIT_RESERVE;
  else if (g_strcmp0 (word, "blocks") == 0)
    e->admission = QM_ENGINE_ADMIT_BLOCKS;
  else
    return fail (error, id, "admission", "must be \"reserve\" or \"blocks\"");
  return TRUE;
}

GArray *
qm_engine_parse (const char *json,
                 gssize      len,
                 GError    **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (QmEngineSpec));
  JsonNode *root;
  JsonArray *a;

  if (!json_parser_load_from_data (parser, json, len, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      fail (error, NULL, "engines.json", "expected an array");
      return NULL;
    }
  a = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *n = json_array_get_element (a, i);
      QmEngineSpec e;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        {
          fail (error, NULL, "engines.json", "entries must be objects");
          return NULL;
        }
      if (!parse_engine (json_node_get_object (n), &e, error))
        return NULL;
      for (guint k = 0; k < out->len; k++)
        if (g_strcmp0 (g_array_index (out, QmEngineSpec, k).info.id, e.info.id) == 0)
          {
            fail (error, e.info.id, "id", "duplicate");
            return NULL;
          }
      g_array_append_val (out, e);
    }
  return g_steal_pointer (&out);
}

static gpointer
load (gpointer data)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  GArray *engines;
  gsize len;
  const char *json;

  (void) data;
  bytes = g_resource_lookup_data (qm_catalog_data_get_resource (), ENGINES_RESOURCE,
                                  G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    g_error ("Built-in engine catalog is missing: %s", error->message);
  json = g_bytes_get_data (bytes, &len);
  engines = qm_engine_parse (json, (gssize) len, &error);
  if (engines == NULL || engines->len == 0)
    g_error ("Built-in engine catalog is invalid: %s", error ? error->message : "empty");
  return engines;
}

const QmEngineSpec *
qm_engines (guint *n)
{
  static GOnce once = G_ONCE_INIT;
  GArray *a = g_once (&once, load, NULL);

  if (n)
    *n = a->len;
  return (const QmEngineSpec *) a->data;
}

const QmEngineSpec *
qm_engine_lookup (const char *id)
{
  guint n;
  const QmEngineSpec *e = qm_engines (&n);

  for (guint i = 0; id && i < n; i++)
    if (strcmp (e[i].info.id, id) == 0)
      return &e[i];
  return NULL;
}

const QmEngineSpec *
qm_engine_resolve (const char      *id,
                   const QmGpuSpec *gpu)
{
  const QmEngineSpec *e;

  if (id != NULL && *id != '\0' && strcmp (id, "auto") != 0)
    {
      e = qm_engine_lookup (id);
      if (e != NULL)
        return e;
    }
  /* The usual engine for the vendor: NVIDIA publishes its serving
   * figures with TensorRT-LLM (perf-overview, MLPerf); AMD's ROCm
   * performance results and most other vendors' with vLLM. */
  if (gpu != NULL && g_strcmp0 (gpu->info.vendor, "NVIDIA") == 0)
    e = qm_engine_lookup ("tensorrt-llm");
  else
    e = qm_engine_lookup ("vllm");
  if (e == NULL)
    e = qm_engines (NULL);
  return e;
}

void
qm_engine_limits (const QmEngineSpec *engine,
                  const QmGpuSpec    *gpu,
                  gboolean            offline,
                  guint              *max_sequences,
                  guint              *max_batch_tokens)
{
  const QmEngineLimits *best = &engine->limits[0];
  /* vLLM and SGLang read the device's total memory (torch
   * get_device_total_memory), in GiB. */
  double gib = gpu ? qm_gpu_memory_bytes (gpu) / 1073741824.0 : 0.0;

  for (guint i = 0; i < engine->n_limits; i++)
    {
      const QmEngineLimits *l = &engine->limits[i];

      if (gib + 1e-9 < l->min_memory_gib)
        continue;
      if (l->except_family && gpu && g_strcmp0 (gpu->family, l->except_family) == 0)
        continue;
      if (l->min_memory_gib >= best->min_memory_gib)
        best = l;
    }
  *max_sequences = offline ? best->max_sequences_offline : best->max_sequences_server;
  *max_batch_tokens = offline ? best->max_batch_tokens_offline : best->max_batch_tokens_server;
}
