/* qm-wizard-facility.c: the wizard's facility and pricing step.
 *
 * Buy or rent, a cloud offer for the chosen GPU or a price of one's own,
 * and the facility's power, space and carbon; the rows name their plan
 * keys like the other steps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-catalog.h"
#include "qm-wizard-private.h"

/* The cloud offers for the chosen GPU; the first item picks the cheapest. */
void
qm_wizard_update_offers (QmWizard *self)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  const QmCloudOffer *offers;
  const char *gpu = qm_wizard_hardware_get_id (self->hardware, QM_CATALOG_KIND_GPU);
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
  qm_wizard_update_offers (self);
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

/* The chosen cloud offer, into @p, whose pricing mode is set. */
void
qm_wizard_compose_offer (QmWizard *self,
                         QmPlan   *p)
{
  guint sel;

  p->offer_id[0] = '\0';
  sel = adw_combo_row_get_selected (self->offer_row);
  if (p->pricing.mode != QM_PRICING_BUY && sel != GTK_INVALID_LIST_POSITION &&
      sel >= 1 && sel - 1 < self->offers->len)
    {
      const QmCloudOffer *offer = g_ptr_array_index (self->offers, sel - 1);

      g_strlcpy (p->offer_id, offer->info.id, sizeof p->offer_id);
    }
}
