/* qm-catalog.c: the built-in catalog, parsed once from the embedded JSON.
 *
 * The files in data/catalog/ are compiled into the core as a GResource
 * (src/core/meson.build). The first look-up parses all of them under
 * g_once(); the arrays and their interned strings then live for the rest
 * of the process, so the returned pointers never dangle.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-catalog.h"
#include "qm-catalog-json.h"
#include "qm-catalog-resources.h"

/* Bump whenever anything under data/catalog/ changes: the store re-syncs
 * its built-in rows on a new version, and saved plans record the version
 * whose prices they quote. Format: YEAR.MONTH.SERIAL. */
/* 2026.11.6: engines.json (serving engines, issue 31); GPUs lose
 * step_overhead_us (now the engine's) and gain allreduce_latency_us and
 * p2p_link_gbs.
 * 2026.11.5: bought kinds gain lead_weeks and support_rate (quotes);
 * hgx-h100-8 gains a lead time.
 * 2026.11.4: GPUs gain the serving properties hbm_stream_fraction,
 * mamf_fraction_fp8, step_overhead_us and allreduce_busbw_gbs; B200 gains
 * memory_mib.
 * 2026.11.3: GPUs gain memory_mib, the capacity the device reports.
 * 2026.11.2: the store had dropped storage's usd_per_tb_month when it wrote
 * the built-in rows; the new version re-syncs them. */
#define QM_CATALOG_VERSION "2026.11.6"

#define RESOURCE_PREFIX "/io/github/quartermaster/Quartermaster/catalog/"

typedef struct
{
  GArray     *entries[QM_N_CATALOG_KINDS];
  GHashTable *by_id[QM_N_CATALOG_KINDS];   /* id -> entry in entries[] */
} QmCatalog;

static gpointer
qm_catalog_load (gpointer data)
{
  QmCatalog *cat = g_new0 (QmCatalog, 1);
  /* Referencing the resource directly (not g_resources_lookup_data) keeps
   * its object file from being dropped when core is a static library. */
  GResource *resource = qm_catalog_data_get_resource ();

  for (guint k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      g_autofree char *path = g_strconcat (RESOURCE_PREFIX, qm_catalog_kind_file (k), NULL);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      GArray *array = NULL;
      gsize size = qm_catalog_kind_struct_size (k);

      bytes = g_resource_lookup_data (resource, path,
                                      G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
      /* models.json is written separately and may not be built in yet. */
      if (bytes == NULL && k != QM_CATALOG_KIND_MODEL)
        g_critical ("Built-in catalog file %s is missing", path);
      if (bytes != NULL)
        array = qm_catalog_parse_bytes (k, bytes,
                                        QM_CATALOG_PARSE_STRICT |
                                        QM_CATALOG_PARSE_BUILTIN,
                                        qm_catalog_kind_file (k), &error);
      if (bytes != NULL && array == NULL)
        g_critical ("Built-in catalog is invalid: %s", error->message);
      if (array == NULL)
        array = g_array_new (FALSE, TRUE, size);

      cat->entries[k] = array;
      cat->by_id[k] = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < array->len; i++)
        {
          QmCatalogInfo *info = (QmCatalogInfo *) (array->data + i * size);

          g_hash_table_insert (cat->by_id[k], (gpointer) info->id, info);
        }
    }

  return cat;
}

static const QmCatalog *
qm_catalog_get (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, qm_catalog_load, NULL);
}

static gconstpointer
lookup (QmCatalogKind  kind,
        const char    *id)
{
  if (id == NULL)
    return NULL;
  return g_hash_table_lookup (qm_catalog_get ()->by_id[kind], id);
}

static gconstpointer
list (QmCatalogKind  kind,
      guint         *n)
{
  GArray *array = qm_catalog_get ()->entries[kind];

  if (n != NULL)
    *n = array->len;
  return array->data;
}

const char *
qm_catalog_version (void)
{
  return QM_CATALOG_VERSION;
}

/* The typed accessors of one kind: qm_catalog_<one> (id) looks an entry
 * up, qm_catalog_<many> (&n) lists them all. */
#define CATALOG_ACCESSORS(Type, one, many, KIND) \
  const Type *                                    \
  qm_catalog_##one (const char *id)               \
  {                                               \
    return lookup (QM_CATALOG_KIND_##KIND, id);   \
  }                                               \
                                                  \
  const Type *                                    \
  qm_catalog_##many (guint *n)                    \
  {                                               \
    return list (QM_CATALOG_KIND_##KIND, n);      \
  }

CATALOG_ACCESSORS (QmGpuSpec, gpu, gpus, GPU)
CATALOG_ACCESSORS (QmServerSpec, server, servers, SERVER)
CATALOG_ACCESSORS (QmNetworkSpec, network, networks, NETWORK)
CATALOG_ACCESSORS (QmStorageSpec, storage, storages, STORAGE)
CATALOG_ACCESSORS (QmModelPreset, model, models, MODEL)
CATALOG_ACCESSORS (QmCloudOffer, cloud_offer, cloud_offers, CLOUD)
CATALOG_ACCESSORS (QmFacilityItem, facility_item, facility_items, FACILITY)
