/* qm-wizard-hardware.c: the wizard's hardware, pricing and facility steps.
 *
 * The catalog's GPUs, servers, networks and storage, each a list of radio
 * rows in an expander; only servers that hold the chosen GPU are offered.
 * Pricing and facility rows name their plan keys like the other steps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-catalog-store.h"
#include "qm-format.h"
#include "qm-wizard-private.h"

/* ------------------------------------------------------------------ */
/* Hardware                                                            */

static QmCatalogKind
hw_catalog_kind (HwKind kind)
{
  static const QmCatalogKind kinds[N_HW] = {
    QM_CATALOG_KIND_GPU, QM_CATALOG_KIND_SERVER, QM_CATALOG_KIND_NETWORK, QM_CATALOG_KIND_STORAGE,
  };
  return kinds[kind];
}

static void
hw_load (QmWizard *self,
         HwKind    kind)
{
  GPtrArray *items = self->hw[kind];

  if (self->store != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) entries = qm_catalog_store_list (self->store, hw_catalog_kind (kind),
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
hw_spec_line (QmWizard     *self,
              const HwItem *item)
{
  const QmCatalogInfo *info = &item->spec.info;
  g_autofree char *price = info->price_usd > 0 ? qm_wizard_format_money (self, info->price_usd)
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
        g_autofree char *per_tb = qm_wizard_format_money (self, s->usd_per_tb);

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
hw_update_subtitle (QmWizard *self,
                    HwKind    kind)
{
  HwItem *item = self->selected[kind];

  if (item != NULL)
    adw_expander_row_set_subtitle (self->hw_expander[kind], item->spec.info.name);
  else if (kind == HW_SERVER)
    adw_expander_row_set_subtitle (self->hw_expander[kind],
                                   _("No server in the catalog holds this GPU"));
  else
    adw_expander_row_set_subtitle (self->hw_expander[kind], _("None chosen"));
}

static gboolean
server_fits_gpu (const HwItem *server,
                 const HwItem *gpu)
{
  return gpu != NULL && (server->spec.server.gpu_id == NULL ||
                         g_strcmp0 (server->spec.server.gpu_id, gpu->id) == 0);
}

static void update_offers (QmWizard *self);

/* Only servers that hold the chosen GPU are offered. */
static void
filter_servers (QmWizard *self)
{
  GPtrArray *servers = self->hw[HW_SERVER];
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
  QmWizard *self = g_object_get_data (G_OBJECT (check), "qm-wizard");

  if (!gtk_check_button_get_active (check))
    return;
  self->selected[item->kind] = item;
  if (self->building)
    return;
  hw_update_subtitle (self, item->kind);
  if (item->kind == HW_GPU)
    {
      filter_servers (self);
      update_offers (self);
    }
  qm_wizard_refresh (self, NULL);
}

void
qm_wizard_build_hardware (QmWizard *self)
{
  static const char *titles[N_HW] = { N_("GPU"), N_("Server"), N_("Network"), N_("Storage") };
  static const char *prefixes[N_HW] = { "gpu-", "server-", "network-", "storage-" };
  static const char *defaults[N_HW] = { "h100-sxm-80gb", "dgx-h100", "ib-ndr-400", "parallel-fs" };

  for (guint k = 0; k < N_HW; k++)
    {
      GtkCheckButton *leader = NULL;

      self->hw[k] = g_ptr_array_new_with_free_func (g_free);
      hw_load (self, k);

      self->hw_expander[k] = ADW_EXPANDER_ROW (adw_expander_row_new ());
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->hw_expander[k]), _(titles[k]));
      gtk_widget_set_name (GTK_WIDGET (self->hw_expander[k]), prefixes[k]);
      adw_preferences_group_add (self->hardware_group, GTK_WIDGET (self->hw_expander[k]));

      for (guint i = 0; i < self->hw[k]->len; i++)
        {
          HwItem *item = g_ptr_array_index (self->hw[k], i);
          g_autofree char *line = hw_spec_line (self, item);
          g_autofree char *name = g_strconcat (prefixes[k], item->id, NULL);

          item->check = qm_wizard_add_choice_row (GTK_WIDGET (self->hw_expander[k]), name,
                                                  item->spec.info.name, line, leader);
          item->row = ADW_ACTION_ROW (gtk_widget_get_ancestor (GTK_WIDGET (item->check),
                                                               ADW_TYPE_ACTION_ROW));
          if (leader == NULL)
            leader = item->check;
          g_object_set_data (G_OBJECT (item->check), "qm-wizard", self);
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
}

/* ------------------------------------------------------------------ */
/* Pricing                                                             */

static void
update_offers (QmWizard *self)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  const QmCloudOffer *offers;
  const char *gpu = self->selected[HW_GPU] ? self->selected[HW_GPU]->id : NULL;
  guint n = 0;

  g_ptr_array_set_size (self->offers, 0);
  offers = qm_catalog_cloud_offers (&n);
  gtk_string_list_append (list, _("Cheapest Offer for This GPU"));
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (offers[i].gpu_id, gpu) == 0)
      {
        g_autofree char *price = qm_wizard_format_money (self, offers[i].usd_per_gpu_hour_on_demand);
        /* Translators: "AWS p5.48xlarge, $6.88 per GPU-hour". */
        g_autofree char *label = g_strdup_printf (_("%s, %s per GPU-hour"), offers[i].info.name, price);

        gtk_string_list_append (list, label);
        g_ptr_array_add (self->offers, (gpointer) &offers[i]);
      }
  adw_combo_row_set_model (self->offer_row, G_LIST_MODEL (list));
  adw_combo_row_set_selected (self->offer_row, 0);
}

static const QmWizardChoice pricing_modes[] = {
  { "buy", N_("Buy the Hardware") },
  { "rent", N_("Rent On Demand") },
  { "rent-reserved", N_("Rent Reserved") },
};

static const QmWizardRow pricing_rows[] = {
  { "gpu-hour", "pricing.usd_per_gpu_hour", QM_PARSE_MONEY, QM_WIZARD_ROW_OPTIONAL,
    .help = N_("Empty to use the offer’s price") },
  { "amortization", "pricing.amortization_years", QM_PARSE_NUMBER, QM_WIZARD_ROW_PREFILL },
};

/* Free electricity and a carbon-free grid are real answers. */
static const QmWizardRow facility_rows[] = {
  { "pue", "facility.pue", QM_PARSE_NUMBER, QM_WIZARD_ROW_PREFILL },
  { "kwh", "facility.usd_per_kwh", QM_PARSE_MONEY, QM_WIZARD_ROW_PREFILL | QM_WIZARD_ROW_ZERO_OK },
  { "rack-kw", "facility.rack_kw", QM_PARSE_NUMBER, QM_WIZARD_ROW_PREFILL },
  { "rack-units", "facility.rack_units", QM_PARSE_COUNT, QM_WIZARD_ROW_PREFILL },
  { "carbon", "facility.gco2_per_kwh", QM_PARSE_NUMBER,
    QM_WIZARD_ROW_PREFILL | QM_WIZARD_ROW_ZERO_OK },
};

static void
offer_changed (QmWizard *self)
{
  qm_wizard_refresh (self, NULL);
}

void
qm_wizard_build_facility (QmWizard *self)
{
  self->pricing_row = qm_wizard_add_combo (self, GTK_WIDGET (self->pricing_group), "pricing",
                                           "pricing.mode", pricing_modes,
                                           G_N_ELEMENTS (pricing_modes));
  self->offer_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->offer_row), _("Cloud Offer"));
  adw_combo_row_set_use_subtitle (self->offer_row, TRUE);
  gtk_widget_set_name (GTK_WIDGET (self->offer_row), "offer");
  adw_preferences_group_add (self->pricing_group, GTK_WIDGET (self->offer_row));
  update_offers (self);
  g_signal_connect_swapped (self->offer_row, "notify::selected", G_CALLBACK (offer_changed), self);
  qm_wizard_add_fields (self, GTK_WIDGET (self->pricing_group), QM_WIZARD_STEP_FACILITY,
                        pricing_rows, G_N_ELEMENTS (pricing_rows));
  qm_wizard_add_fields (self, GTK_WIDGET (self->facility_group), QM_WIZARD_STEP_FACILITY,
                        facility_rows, G_N_ELEMENTS (facility_rows));
}

/* Renting asks for an offer or a price; buying, for the write-off. */
void
qm_wizard_update_pricing (QmWizard *self)
{
  gboolean rent = adw_combo_row_get_selected (self->pricing_row) > 0;

  gtk_widget_set_visible (GTK_WIDGET (self->offer_row), rent);
  gtk_widget_set_visible (GTK_WIDGET (qm_wizard_find_field (self, "gpu-hour")->row), rent);
  gtk_widget_set_visible (GTK_WIDGET (qm_wizard_find_field (self, "amortization")->row), !rent);
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

/* The chosen hardware and cloud offer, into @p. */
void
qm_wizard_compose_hardware (QmWizard *self,
                            QmPlan   *p)
{
  guint sel;

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

  p->offer_id[0] = '\0';
  sel = adw_combo_row_get_selected (self->offer_row);
  if (p->pricing.mode != QM_PRICING_BUY && sel != GTK_INVALID_LIST_POSITION &&
      sel >= 1 && sel - 1 < self->offers->len)
    {
      const QmCloudOffer *offer = g_ptr_array_index (self->offers, sel - 1);

      g_strlcpy (p->offer_id, offer->info.id, sizeof p->offer_id);
    }
}
