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
/* 2026.11.4: GPUs gain the serving properties hbm_stream_fraction,
 * mamf_fraction_fp8, step_overhead_us and allreduce_busbw_gbs; B200 gains
 * memory_mib.
 * 2026.11.3: GPUs gain memory_mib, the capacity the device reports.
 * 2026.11.2: the store had dropped storage's usd_per_tb_month when it wrote
 * the built-in rows; the new version re-syncs them. */
#define QM_CATALOG_VERSION "2026.11.4"

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

const QmGpuSpec *
qm_catalog_gpu (const char *id)
{
  return lookup (QM_CATALOG_KIND_GPU, id);
}

const QmServerSpec *
qm_catalog_server (const char *id)
{
  return lookup (QM_CATALOG_KIND_SERVER, id);
}

const QmNetworkSpec *
qm_catalog_network (const char *id)
{
  return lookup (QM_CATALOG_KIND_NETWORK, id);
}

const QmStorageSpec *
qm_catalog_storage (const char *id)
{
  return lookup (QM_CATALOG_KIND_STORAGE, id);
}

const QmModelPreset *
qm_catalog_model (const char *id)
{
  return lookup (QM_CATALOG_KIND_MODEL, id);
}

const QmCloudOffer *
qm_catalog_cloud_offer (const char *id)
{
  return lookup (QM_CATALOG_KIND_CLOUD, id);
}

const QmFacilityItem *
qm_catalog_facility_item (const char *id)
{
  return lookup (QM_CATALOG_KIND_FACILITY, id);
}

const QmGpuSpec *
qm_catalog_gpus (guint *n)
{
  return list (QM_CATALOG_KIND_GPU, n);
}

const QmServerSpec *
qm_catalog_servers (guint *n)
{
  return list (QM_CATALOG_KIND_SERVER, n);
}

const QmNetworkSpec *
qm_catalog_networks (guint *n)
{
  return list (QM_CATALOG_KIND_NETWORK, n);
}

const QmStorageSpec *
qm_catalog_storages (guint *n)
{
  return list (QM_CATALOG_KIND_STORAGE, n);
}

const QmModelPreset *
qm_catalog_models (guint *n)
{
  return list (QM_CATALOG_KIND_MODEL, n);
}

const QmCloudOffer *
qm_catalog_cloud_offers (guint *n)
{
  return list (QM_CATALOG_KIND_CLOUD, n);
}

const QmFacilityItem *
qm_catalog_facility_items (guint *n)
{
  return list (QM_CATALOG_KIND_FACILITY, n);
}
