/* qm-plan-view-lists.c: the catalog entries the plan view's hardware,
 * offer and model rows offer, and resolving a picked id into the plan.
 *
 * With a store, the store's entries (the user's own ones, hidden ones left
 * out, price overrides applied); without one, the built-in catalog.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "qm-catalog-json.h"
#include "qm-catalog-store.h"
#include "qm-catalog.h"
#include "qm-plan-view-rows.h"

typedef gconstpointer (*CatalogAll) (guint *n);
typedef gconstpointer (*CatalogOne) (const char *id);

/* Each list's kind and its built-in catalog: every entry starts with its
 * QmCatalogInfo, and the entries are qm_catalog_kind_struct_size() apart. */
static const struct
{
  QmCatalogKind kind;
  CatalogAll    all;
  CatalogOne    one;
} catalogs[QM_PLAN_VIEW_N_LISTS] = {
#define CATALOG(k, all_fn, one_fn) \
  { QM_CATALOG_KIND_##k, (CatalogAll) (void (*) (void)) (all_fn), (CatalogOne) (void (*) (void)) (one_fn) }
  [QM_PLAN_VIEW_LIST_GPUS]     = CATALOG (GPU, qm_catalog_gpus, qm_catalog_gpu),
  [QM_PLAN_VIEW_LIST_SERVERS]  = CATALOG (SERVER, qm_catalog_servers, qm_catalog_server),
  [QM_PLAN_VIEW_LIST_NETWORKS] = CATALOG (NETWORK, qm_catalog_networks, qm_catalog_network),
  [QM_PLAN_VIEW_LIST_STORAGE]  = CATALOG (STORAGE, qm_catalog_storages, qm_catalog_storage),
  [QM_PLAN_VIEW_LIST_OFFERS]   = CATALOG (CLOUD, qm_catalog_cloud_offers, qm_catalog_cloud_offer),
  [QM_PLAN_VIEW_LIST_MODELS]   = CATALOG (MODEL, qm_catalog_models, qm_catalog_model),
#undef CATALOG
};

static int
list_of_kind (QmCatalogKind kind)
{
  for (guint l = 0; l < QM_PLAN_VIEW_N_LISTS; l++)
    if (catalogs[l].kind == kind)
      return l;
  return -1;
}

static void
choice_free (gpointer data)
{
  QmPlanViewChoice *c = data;

  g_free (c->id);
  g_free (c->label);
  g_free (c->gpu_id);
  g_free (c);
}

GPtrArray *
qm_plan_view_choices_new (void)
{
  return g_ptr_array_new_with_free_func (choice_free);
}

static QmPlanViewChoice *
add_entry (GPtrArray  *list,
           const char *id,
           const char *vendor,
           const char *name,
           const char *gpu_id)
{
  QmPlanViewChoice *c = g_new0 (QmPlanViewChoice, 1);

  c->id = g_strdup (id);
  if (vendor != NULL && vendor[0] != '\0' && name != NULL && !g_str_has_prefix (name, vendor))
    c->label = g_strdup_printf ("%s %s", vendor, name);
  else
    c->label = g_strdup (name != NULL && name[0] != '\0' ? name : id);
  c->gpu_id = g_strdup (gpu_id);
  g_ptr_array_add (list, c);
  return c;
}

void
qm_plan_view_add_choice (GPtrArray  *choices,
                         const char *id,
                         const char *label)
{
  add_entry (choices, id, NULL, label, NULL);
}

/* A server's or an offer's GPU; NULL for the other kinds. */
static const char *
entry_gpu_id (QmCatalogKind  kind,
              gconstpointer  entry)
{
  if (kind == QM_CATALOG_KIND_SERVER)
    return ((const QmServerSpec *) entry)->gpu_id;
  if (kind == QM_CATALOG_KIND_CLOUD)
    return ((const QmCloudOffer *) entry)->gpu_id;
  return NULL;
}

static void
load_from_store (QmPlanView *self,
                 guint       l,
                 GPtrArray  *entries)
{
  QmCatalogKind kind = catalogs[l].kind;
  g_autofree gpointer spec = g_malloc0 (qm_catalog_kind_struct_size (kind));

  for (guint i = 0; i < entries->len; i++)
    {
      QmCatalogEntry *entry = g_ptr_array_index (entries, i);
      const char *gpu_id = NULL;

      if ((kind == QM_CATALOG_KIND_SERVER || kind == QM_CATALOG_KIND_CLOUD) &&
          qm_catalog_store_resolve (self->store, kind, entry->id, spec, NULL))
        gpu_id = entry_gpu_id (kind, spec);
      add_entry (self->lists[l], entry->id, kind == QM_CATALOG_KIND_MODEL ? NULL : entry->vendor,
                 entry->name, gpu_id);
    }
}

static void
load_built_in (QmPlanView *self,
               guint       l)
{
  QmCatalogKind kind = catalogs[l].kind;
  gsize size = qm_catalog_kind_struct_size (kind);
  guint n;
  const char *v = catalogs[l].all (&n);

  for (guint i = 0; i < n; i++, v += size)
    {
      const QmCatalogInfo *info = (const QmCatalogInfo *) v;

      if (kind == QM_CATALOG_KIND_CLOUD)
        add_entry (self->lists[l], info->id, ((const QmCloudOffer *) v)->provider,
                   ((const QmCloudOffer *) v)->instance_type, entry_gpu_id (kind, v));
      else
        add_entry (self->lists[l], info->id, kind == QM_CATALOG_KIND_MODEL ? NULL : info->vendor,
                   info->name, entry_gpu_id (kind, v));
    }
}

void
qm_plan_view_lists_load (QmPlanView *self)
{
  for (guint l = 0; l < QM_PLAN_VIEW_N_LISTS; l++)
    {
      g_autoptr(GPtrArray) entries = NULL;

      self->lists[l] = qm_plan_view_choices_new ();
      if (self->store != NULL)
        entries = qm_catalog_store_list (self->store, catalogs[l].kind, NULL,
                                         QM_CATALOG_LIST_NONE, NULL);
      if (entries != NULL)
        load_from_store (self, l, entries);
      else
        load_built_in (self, l);
    }
}

void
qm_plan_view_lists_clear (QmPlanView *self)
{
  for (guint l = 0; l < QM_PLAN_VIEW_N_LISTS; l++)
    g_clear_pointer (&self->lists[l], g_ptr_array_unref);
}

void
qm_plan_view_choices_from_list (QmPlanView    *self,
                                QmCatalogKind  kind,
                                const char    *gpu_id,
                                const char    *current,
                                GPtrArray     *out)
{
  int l = list_of_kind (kind);
  gboolean have_current = FALSE;

  g_return_if_fail (l >= 0);
  for (guint i = 0; i < self->lists[l]->len; i++)
    {
      QmPlanViewChoice *c = g_ptr_array_index (self->lists[l], i);

      if (gpu_id != NULL && c->gpu_id != NULL && g_strcmp0 (c->gpu_id, gpu_id) != 0 &&
          g_strcmp0 (c->id, current) != 0)
        continue;
      qm_plan_view_add_choice (out, c->id, c->label);
      have_current |= g_strcmp0 (c->id, current) == 0;
    }
  /* A plan's own (embedded or hidden) entry stays selectable. */
  if (!have_current && current != NULL && current[0] != '\0')
    qm_plan_view_add_choice (out, current, current);
}

gboolean
qm_plan_view_resolve (QmPlanView *self,
                      int         kind,
                      const char *id,
                      gpointer    out)
{
  int l = list_of_kind (kind);
  gconstpointer found;

  if (self->store != NULL)
    return qm_catalog_store_resolve (self->store, (QmCatalogKind) kind, id, out, NULL);
  if (l < 0 || (found = catalogs[l].one (id)) == NULL)
    return FALSE;
  memcpy (out, found, qm_catalog_kind_struct_size (kind));
  return TRUE;
}

gboolean
qm_plan_view_pick_server (QmPlanView *self,
                          QmPlan     *p)
{
  GPtrArray *servers = self->lists[QM_PLAN_VIEW_LIST_SERVERS];

  for (guint i = 0; i < servers->len; i++)
    {
      QmPlanViewChoice *c = g_ptr_array_index (servers, i);

      if (g_strcmp0 (c->gpu_id, p->gpu_id) == 0 &&
          qm_plan_view_resolve (self, QM_CATALOG_KIND_SERVER, c->id, &p->hardware.server))
        {
          g_strlcpy (p->server_id, c->id, sizeof p->server_id);
          p->server_embedded = FALSE;
          return TRUE;
        }
    }
  return FALSE;
}
