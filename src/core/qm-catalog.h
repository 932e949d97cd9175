/* qm-catalog.h: the built-in hardware catalog and model presets.
 *
 * The built-in entries ship as JSON in data/catalog/ and are compiled into
 * the core as a GResource, so the CLI, the tests and the app all read the
 * same figures. The store (src/store) copies them into SQLite and layers the
 * user's own entries and price overrides on top.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"
#include "qm-model.h"

G_BEGIN_DECLS

typedef struct
{
  QmCatalogInfo info;          /* id is the preset id, e.g. "llama-3.1-70b" */
  QmModelShape  shape;
  double        published_params;  /* the count the paper/model card states */
  double        published_active_params;
} QmModelPreset;

/* Cloud offers: $/GPU-hour by provider and instance type, with the date. */
typedef struct
{
  QmCatalogInfo info;          /* price_usd unused; see below */
  const char   *provider;
  const char   *instance_type;
  const char   *gpu_id;
  guint         gpus;          /* per instance */
  double        usd_per_gpu_hour_on_demand;
  double        usd_per_gpu_hour_reserved;
} QmCloudOffer;

/* Facility items: racks and PDUs. */
typedef struct
{
  QmCatalogInfo info;
  const char   *kind;          /* "rack", "pdu", "liquid-rack" */
  guint         rack_units;
  double        kw_limit;
  /* A liquid rack with a cold-plate loop (CDU, manifolds) that carries
   * direct-liquid-cooled servers; a rear-door heat exchanger does not. */
  gboolean      direct_liquid;
} QmFacilityItem;

/* The catalog version: bumped whenever the shipped data change, so that the
 * store re-syncs and saved plans can say which prices they used. */
const char            *qm_catalog_version       (void);

/* Look-ups in the built-in catalog. NULL when the id is unknown. The
 * returned pointers stay valid for the life of the process. */
const QmGpuSpec       *qm_catalog_gpu           (const char *id);
const QmServerSpec    *qm_catalog_server        (const char *id);
const QmNetworkSpec   *qm_catalog_network       (const char *id);
const QmStorageSpec   *qm_catalog_storage       (const char *id);
const QmModelPreset   *qm_catalog_model         (const char *id);
const QmCloudOffer    *qm_catalog_cloud_offer   (const char *id);
const QmFacilityItem  *qm_catalog_facility_item (const char *id);

/* All built-in entries of one kind, in catalog order. The arrays are owned
 * by the catalog. */
const QmGpuSpec       *qm_catalog_gpus           (guint *n);
const QmServerSpec    *qm_catalog_servers        (guint *n);
const QmNetworkSpec   *qm_catalog_networks       (guint *n);
const QmStorageSpec   *qm_catalog_storages       (guint *n);
const QmModelPreset   *qm_catalog_models         (guint *n);
const QmCloudOffer    *qm_catalog_cloud_offers   (guint *n);
const QmFacilityItem  *qm_catalog_facility_items (guint *n);

G_END_DECLS
