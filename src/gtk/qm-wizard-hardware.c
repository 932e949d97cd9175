/* qm-wizard-hardware.c: the wizard's hardware step.
 *
 * The catalog's GPUs, servers, networks and storage, each a list of radio
 * rows in an expander; only servers that hold the chosen GPU are offered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-catalog-store.h"
#include "qm-format.h"
#include "qm-plan-schema.h"
#include "qm-wizard-hardware.h"
#include "qm-wizard-private.h"

typedef enum
{
  HW_GPU,
  HW_SERVER,
  HW_NETWORK,
  HW_STORAGE,
  N_HW
} HwKind;

typedef struct
{
  HwKind   kind;
  char     id[QM_ID_LEN];
  gboolean embedded;        /* a user entry or price override: the plan carries the spec */
  union
  {
    QmCatalogInfo info;
    QmGpuSpec     gpu;
    QmServerSpec  server;
    QmNetworkSpec network;
    QmStorageSpec storage;
  } spec;
  AdwActionRow   *row;
  GtkCheckButton *check;
} HwItem;

struct _QmWizardHardware
{
  AdwPreferencesGroup  parent_instance;

  GPtrArray           *items[N_HW];    /* HwItem */
  HwItem              *selected[N_HW];
  AdwExpanderRow      *expander[N_HW];
  char                 currency[sizeof ((QmPlan *) NULL)->pricing.currency];
  gboolean             loading;
};

G_DEFINE_FINAL_TYPE (QmWizardHardware, qm_wizard_hardware, ADW_TYPE_PREFERENCES_GROUP)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static QmCatalogKind
hw_catalog_kind (HwKind kind)
{
  static const QmCatalogKind kinds[N_HW] = {
    QM_CATALOG_KIND_GPU, QM_CATALOG_KIND_SERVER, QM_CATALOG_KIND_NETWORK, QM_CATALOG_KIND_STORAGE,
  };
  return kinds[kind];
}

static void
hw_load (QmWizardHardware *self,
         QmStore          *store,
         HwKind            kind)
{
  GPtrArray *items = self->items[kind];

  if (store != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) entries = qm_catalog_store_list (store, hw_catalog_kind (kind),
                                                            NULL, QM_CATALOG_LIST_NONE, &error);

      if (entries != NULL)
        {
          for (guint i = 0; i < entries->len; i++)
            {
              const QmCatalogEntry *entry = g_ptr_array_index (entries, i);
              HwItem *item = g_new0 (HwItem, 1);

              item->kind = kind;
              if (!qm_catalog_entry_parse (entry, &item->spec, NULL))
                {
                  g_free (item);
                  continue;
                }
              g_strlcpy (item->id, entry->id, sizeof item->id);
              item->embedded = !entry->builtin || entry->has_override;
              g_ptr_array_add (items, item);
            }
          return;
        }
      g_debug ("Catalog store unavailable, using the built-in catalog: %s", error->message);
    }

  {
    guint n = 0;
    gconstpointer array = NULL;
    gsize size = 0;

    switch (kind)
      {
      case HW_GPU: array = qm_catalog_gpus (&n); size = sizeof (QmGpuSpec); break;
      case HW_SERVER: array = qm_catalog_servers (&n); size = sizeof (QmServerSpec); break;
      case HW_NETWORK: array = qm_catalog_networks (&n); size = sizeof (QmNetworkSpec); break;
      case HW_STORAGE: array = qm_catalog_storages (&n); size = sizeof (QmStorageSpec); break;
      case N_HW:
      default: g_assert_not_reached ();
      }
    for (guint i = 0; i < n; i++)
      {
        HwItem *item = g_new0 (HwItem, 1);

        item->kind = kind;
        memcpy (&item->spec, (const char *) array + i * size, size);
        g_strlcpy (item->id, item->spec.info.id, sizeof item->id);
        g_ptr_array_add (items, item);
      }
  }
}

static char *
format_money (QmWizardHardware *self,
              double            usd)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (qm_format_money (buf, sizeof buf, usd, self->currency));
}

static char *
hw_spec_line (QmWizardHardware *self,
              const HwItem     *item)
{
  const QmCatalogInfo *info = &item->spec.info;
  g_autofree char *price = info->price_usd > 0 ? format_money (self, info->price_usd)
                                               : g_strdup (_("no list price"));
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];

  switch (item->kind)
    {
    case HW_GPU:
      {
        const QmGpuSpec *g = &item->spec.gpu;
        gboolean bf16 = g->tflops[QM_PRECISION_BF16] > 0;
        double tflops = bf16 ? g->tflops[QM_PRECISION_BF16] : g->tflops[QM_PRECISION_FP16];

        qm_format_number (a, sizeof a, tflops, 0);
        qm_format_number (b, sizeof b, g->memory_gb, 0);
        qm_format_number (c, sizeof c, g->tdp_w, 0);
        /* Translators: "989 TFLOPS BF16 · 80 GB · 700 W · $30,000". */
        return g_strdup_printf (_("%s TFLOPS %s · %s GB · %s W · %s"), a,
                                bf16 ? "BF16" : "FP16", b, c, price);
      }
    case HW_SERVER:
      {
        const QmServerSpec *s = &item->spec.server;

        qm_format_number (a, sizeof a, s->power_max_w / 1000.0, 1);
        /* Translators: "8 GPUs · 10.2 kW · 8 U · $300,000". */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u GPU · %s kW · %u U · %s",
                                             "%u GPUs · %s kW · %u U · %s", s->gpus),
                                s->gpus, a, s->rack_units, price);
      }
    case HW_NETWORK:
      {
        const QmNetworkSpec *n = &item->spec.network;
        const char *tech = g_strcmp0 (n->technology, "infiniband") == 0 ? "InfiniBand" : _("Ethernet");

        qm_format_number (a, sizeof a, n->port_gbps, 0);
        /* Translators: "InfiniBand · 64 ports of 400 Gb/s · $30,000 per switch". */
        return g_strdup_printf (_("%s · %u ports of %s Gb/s · %s per switch"),
                                tech, n->ports, a, price);
      }
    case HW_STORAGE:
      {
        const QmStorageSpec *s = &item->spec.storage;
        g_autofree char *per_tb = format_money (self, s->usd_per_tb);

        return g_strdup_printf (_("%s · %s per TB"),
                                g_strcmp0 (s->kind, "local-nvme") == 0 ? _("Local NVMe drives")
                                                                       : _("Shared parallel file system"),
                                per_tb);
      }
    case N_HW:
    default:
      g_return_val_if_reached (g_strdup (""));
    }
}

static void
hw_update_subtitle (QmWizardHardware *self,
                    HwKind            kind)
{
  HwItem *item = self->selected[kind];

  if (item != NULL)
    adw_expander_row_set_subtitle (self->expander[kind], item->spec.info.name);
  else if (kind == HW_SERVER)
    adw_expander_row_set_subtitle (self->expander[kind],
                                   _("No server in the catalog holds this GPU"));
  else
    adw_expander_row_set_subtitle (self->expander[kind], _("None chosen"));
}

static gboolean
server_fits_gpu (const HwItem *server,
                 const HwItem *gpu)
{
  return gpu != NULL && (server->spec.server.gpu_id == NULL ||
                         g_strcmp0 (server->spec.server.gpu_id, gpu->id) == 0);
}

/* Only servers that hold the chosen GPU are offered. */
static void
filter_servers (QmWizardHardware *self)
{
  GPtrArray *servers = self->items[HW_SERVER];
  HwItem *first = NULL;

  for (guint i = 0; i < servers->len; i++)
    {
      HwItem *item = g_ptr_array_index (servers, i);
      gboolean fits = server_fits_gpu (item, self->selected[HW_GPU]);

      gtk_widget_set_visible (GTK_WIDGET (item->row), fits);
      if (fits && first == NULL)
        first = item;
    }
  if (self->selected[HW_SERVER] == NULL ||
      !server_fits_gpu (self->selected[HW_SERVER], self->selected[HW_GPU]))
    {
      if (first != NULL)
        gtk_check_button_set_active (first->check, TRUE);
      else
        {
          if (self->selected[HW_SERVER] != NULL)
            gtk_check_button_set_active (self->selected[HW_SERVER]->check, FALSE);
          self->selected[HW_SERVER] = NULL;
        }
    }
  hw_update_subtitle (self, HW_SERVER);
}

static void
hw_toggled (GtkCheckButton *check,
            HwItem         *item)
{
  QmWizardHardware *self = g_object_get_data (G_OBJECT (check), "qm-hardware");

  if (!gtk_check_button_get_active (check))
    return;
  self->selected[item->kind] = item;
  if (self->loading)
    return;
  hw_update_subtitle (self, item->kind);
  if (item->kind == HW_GPU)
    filter_servers (self);
  g_signal_emit (self, signals[CHANGED], 0, hw_catalog_kind (item->kind));
}

/* The lists come from @store (NULL: the built-in catalog); prices are
 * shown in @currency. */
void
qm_wizard_hardware_load (QmWizardHardware *self,
                         QmStore          *store,
                         const char       *currency)
{
  static const char *titles[N_HW] = { N_("GPU"), N_("Server"), N_("Network"), N_("Storage") };
  static const char *prefixes[N_HW] = { "gpu-", "server-", "network-", "storage-" };
  static const char *defaults[N_HW] = { "h100-sxm-80gb", "dgx-h100", "ib-ndr-400", "parallel-fs" };

  g_return_if_fail (QM_IS_WIZARD_HARDWARE (self));

  g_strlcpy (self->currency, currency, sizeof self->currency);
  self->loading = TRUE;
  for (guint k = 0; k < N_HW; k++)
    {
      GtkCheckButton *leader = NULL;

      hw_load (self, store, k);

      self->expander[k] = ADW_EXPANDER_ROW (adw_expander_row_new ());
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->expander[k]), _(titles[k]));
      gtk_widget_set_name (GTK_WIDGET (self->expander[k]), prefixes[k]);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (self->expander[k]));

      for (guint i = 0; i < self->items[k]->len; i++)
        {
          HwItem *item = g_ptr_array_index (self->items[k], i);
          g_autofree char *line = hw_spec_line (self, item);
          g_autofree char *name = g_strconcat (prefixes[k], item->id, NULL);

          item->check = qm_wizard_add_choice_row (GTK_WIDGET (self->expander[k]), name,
                                                  item->spec.info.name, line, leader);
          item->row = ADW_ACTION_ROW (gtk_widget_get_ancestor (GTK_WIDGET (item->check),
                                                               ADW_TYPE_ACTION_ROW));
          if (leader == NULL)
            leader = item->check;
          g_object_set_data (G_OBJECT (item->check), "qm-hardware", self);
          if (g_str_equal (item->id, defaults[k]) || (i == 0 && self->selected[k] == NULL))
            {
              gtk_check_button_set_active (item->check, TRUE);
              self->selected[k] = item;
            }
          g_signal_connect (item->check, "toggled", G_CALLBACK (hw_toggled), item);
        }
      hw_update_subtitle (self, k);
    }
  filter_servers (self);
  self->loading = FALSE;
}

/* Where each kind keeps its spec and whether the plan embeds it; the id
 * goes where the plan key hardware.KIND says. */
static const struct
{
  const char *path;
  gsize       spec;
  gsize       spec_size;
  gsize       embedded;
} hw_slots[N_HW] = {
  { "hardware.gpu", G_STRUCT_OFFSET (QmPlan, hardware.gpu), sizeof (QmGpuSpec),
    G_STRUCT_OFFSET (QmPlan, gpu_embedded) },
  { "hardware.server", G_STRUCT_OFFSET (QmPlan, hardware.server), sizeof (QmServerSpec),
    G_STRUCT_OFFSET (QmPlan, server_embedded) },
  { "hardware.network", G_STRUCT_OFFSET (QmPlan, hardware.network), sizeof (QmNetworkSpec),
    G_STRUCT_OFFSET (QmPlan, network_embedded) },
  { "hardware.storage", G_STRUCT_OFFSET (QmPlan, hardware.storage), sizeof (QmStorageSpec),
    G_STRUCT_OFFSET (QmPlan, storage_embedded) },
};

void
qm_wizard_hardware_compose (QmWizardHardware *self,
                            QmPlan           *p)
{
  g_return_if_fail (QM_IS_WIZARD_HARDWARE (self));

  for (guint k = 0; k < N_HW; k++)
    {
      const HwItem *item = self->selected[k];
      const QmPlanKey *key = qm_plan_schema_lookup (hw_slots[k].path);

      if (item == NULL)
        continue;
      g_strlcpy (G_STRUCT_MEMBER_P (p, key->offset), item->id, key->size);
      G_STRUCT_MEMBER (gboolean, p, hw_slots[k].embedded) = item->embedded;
      memcpy (G_STRUCT_MEMBER_P (p, hw_slots[k].spec), &item->spec, hw_slots[k].spec_size);
    }
}

const char *
qm_wizard_hardware_get_id (QmWizardHardware *self,
                           QmCatalogKind     kind)
{
  g_return_val_if_fail (QM_IS_WIZARD_HARDWARE (self), NULL);

  for (guint k = 0; k < N_HW; k++)
    if (hw_catalog_kind (k) == kind)
      return self->selected[k] != NULL ? self->selected[k]->id : NULL;
  return NULL;
}

static void
qm_wizard_hardware_finalize (GObject *object)
{
  QmWizardHardware *self = QM_WIZARD_HARDWARE (object);

  for (guint k = 0; k < N_HW; k++)
    g_ptr_array_unref (self->items[k]);

  G_OBJECT_CLASS (qm_wizard_hardware_parent_class)->finalize (object);
}

static void
qm_wizard_hardware_class_init (QmWizardHardwareClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qm_wizard_hardware_finalize;

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
qm_wizard_hardware_init (QmWizardHardware *self)
{
  for (guint k = 0; k < N_HW; k++)
    self->items[k] = g_ptr_array_new_with_free_func (g_free);
}
