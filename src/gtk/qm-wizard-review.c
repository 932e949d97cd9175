/* qm-wizard-review.c: the wizard's last page: the plan's name, then its
 * key figures, warnings and assumptions before Create Plan. It only shows
 * what it is given; the wizard decides the name until the person edits it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "qm-a11y.h"
#include "qm-format.h"
#include "qm-wizard-private.h"
#include "qm-wizard-review.h"

struct _QmWizardReview
{
  AdwPreferencesPage   parent_instance;

  AdwPreferencesGroup *name_group;
  AdwPreferencesGroup *figures_group;
  AdwPreferencesGroup *warnings_group;
  AdwPreferencesGroup *assumptions_group;
  GtkEntry            *name_entry;
  GHashTable          *review;      /* key -> GtkLabel (value), row via "qm-row" data */
  GPtrArray           *note_rows;   /* rows of warnings_group and assumptions_group */
  gboolean             setting_name;
};

G_DEFINE_FINAL_TYPE (QmWizardReview, qm_wizard_review, ADW_TYPE_PREFERENCES_PAGE)

enum {
  NAME_EDITED,
  NAME_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
format_money (const QmPlan *plan,
              double        usd)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (qm_format_money (buf, sizeof buf, usd, plan->pricing.currency));
}

static void
set_review (QmWizardReview *self,
            const char     *key,
            gboolean        visible,
            const char     *value,
            const char     *subtitle)
{
  GtkLabel *label = g_hash_table_lookup (self->review, key);
  AdwActionRow *row;

  g_return_if_fail (label != NULL);
  row = g_object_get_data (G_OBJECT (label), "qm-row");
  gtk_widget_set_visible (GTK_WIDGET (row), visible);
  gtk_label_set_label (label, value ? value : "");
  /* Short values stay on one line; long ones wrap at word breaks. */
  gtk_label_set_width_chars (label, MIN ((int) g_utf8_strlen (value ? value : "", -1), 14));
  adw_action_row_set_subtitle (row, subtitle);
  {
    g_autofree char *a11y = g_strdup_printf ("%s: %s",
                                             adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                                             value ? value : "");
    qm_a11y_label (GTK_WIDGET (label), a11y);
  }
}

static void
clear_note_rows (QmWizardReview *self)
{
  for (guint i = 0; i < self->note_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->note_rows, i);
      GtkWidget *group = g_object_get_data (G_OBJECT (row), "qm-group");

      adw_preferences_group_remove (ADW_PREFERENCES_GROUP (group), row);
    }
  g_ptr_array_set_size (self->note_rows, 0);
}

static void
add_note_row (QmWizardReview      *self,
              AdwPreferencesGroup *group,
              const QmNote        *note,
              gboolean             warning)
{
  char buf[512];
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *text = g_markup_escape_text (qm_note_format (note, buf, sizeof buf), -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  if (warning)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Warning"), -1);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  g_object_set_data (G_OBJECT (row), "qm-group", group);
  adw_preferences_group_add (group, row);
  g_ptr_array_add (self->note_rows, row);
}

void
qm_wizard_review_show (QmWizardReview   *self,
                       const QmPlan     *plan,
                       const QmEstimate *e)
{
  gboolean training = e->has_training;
  gboolean buy = plan->pricing.mode == QM_PRICING_BUY;
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF];

  g_return_if_fail (QM_IS_WIZARD_REVIEW (self));

  set_review (self, "gpus", TRUE, qm_format_number (a, sizeof a, e->gpus, 0),
              plan->hardware.gpu.info.name);
  set_review (self, "nodes", TRUE, qm_format_number (a, sizeof a, e->nodes, 0),
              plan->hardware.server.info.name);
  set_review (self, "racks", e->has_cluster, qm_format_number (a, sizeof a, e->cluster.racks, 0),
              e->has_cluster && e->cluster.liquid_cooling ? _("Needs liquid cooling") : NULL);
  set_review (self, "ideal-days", training, qm_format_days (a, sizeof a, e->ideal_days),
              _("If nothing ever fails"));
  {
    g_autofree char *sub = NULL;

    if (e->has_reliability)
      {
        g_autofree char *pct = qm_wizard_format_plain (round (e->reliability.goodput * 1000) / 10);
        /* Translators: %s is a percentage such as 94.5. */
        sub = g_strdup_printf (_("With restarts after failures and checkpoints; %s %% of the time is useful"), pct);
      }
    set_review (self, "train-days", training && e->has_reliability,
                qm_format_days (a, sizeof a, e->train_days), sub);
  }
  {
    const QmMemoryBreakdown *m = &e->memory;
    g_autofree char *sub = NULL;
    GtkLabel *label = g_hash_table_lookup (self->review, "memory");

    qm_format_bytes (b, sizeof b, m->capacity, QM_BYTES_GB);
    if (m->fits)
      sub = g_strdup_printf (_("Of %s: fits, with %s to spare"), b,
                             qm_format_bytes (a, sizeof a, m->margin, QM_BYTES_GB));
    else
      sub = g_strdup_printf (_("Of %s: does not fit, %s short"), b,
                             qm_format_bytes (a, sizeof a, -m->margin, QM_BYTES_GB));
    set_review (self, "memory", m->capacity > 0,
                qm_format_bytes (a, sizeof a, m->total, QM_BYTES_GB), sub);
    if (m->fits)
      {
        gtk_widget_remove_css_class (GTK_WIDGET (label), "error");
        gtk_widget_add_css_class (GTK_WIDGET (label), "success");
      }
    else
      {
        gtk_widget_remove_css_class (GTK_WIDGET (label), "success");
        gtk_widget_add_css_class (GTK_WIDGET (label), "error");
      }
  }
  {
    g_autofree char *it = g_strdup_printf (_("%s kW"), qm_format_number (a, sizeof a, e->power.it_peak_kw, 0));
    g_autofree char *fac = g_strdup_printf (_("%s kW"), qm_format_number (a, sizeof a, e->power.facility_peak_kw, 0));
    g_autofree char *pue = g_strdup_printf (_("With cooling and losses, PUE %s"),
                                            qm_format_number (b, sizeof b, e->power.pue, 2));

    set_review (self, "it-power", e->has_power, it, _("Servers, network and storage at full load"));
    set_review (self, "facility-power", e->has_power, fac, pue);
  }
  {
    g_autofree char *upfront = format_money (plan, e->cost.upfront);
    g_autofree char *run = format_money (plan, e->cost.run);
    g_autofree char *monthly = format_money (plan, e->cost.monthly);

    set_review (self, "upfront", e->has_cost && buy, upfront, _("Hardware, installation and racks"));
    set_review (self, "run-cost", e->has_cost, run,
                training ? (buy ? _("Share of the hardware over the run, plus power")
                                : _("GPU rental and storage over the run"))
                         : _("One month of serving"));
    set_review (self, "monthly", e->has_cost, monthly,
                buy ? _("Write-off, power, colocation and support") : _("Renting the GPUs around the clock"));
  }
  {
    /* Translators: a mass such as "29.0 t". */
    g_autofree char *v = g_strdup_printf (_("%s CO₂e"), qm_format_tonnes (a, sizeof a, e->power.co2_tonnes));
    set_review (self, "co2", e->has_power, v,
                training ? _("Emissions of the electricity over the run")
                         : _("Emissions of the electricity per month"));
  }

  clear_note_rows (self);
  for (guint i = 0; i < e->n_warnings; i++)
    add_note_row (self, self->warnings_group, &e->warnings[i], TRUE);
  for (guint i = 0; i < e->n_assumptions; i++)
    add_note_row (self, self->assumptions_group, &e->assumptions[i], FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->warnings_group), e->n_warnings > 0);
}


static void
name_changed (QmWizardReview *self)
{
  if (!self->setting_name)
    g_signal_emit (self, signals[NAME_EDITED], 0);
}

static void
name_activated (QmWizardReview *self)
{
  g_signal_emit (self, signals[NAME_ACTIVATED], 0);
}

static AdwPreferencesGroup *
add_group (QmWizardReview *self,
           const char     *title,
           const char     *description)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());

  if (title != NULL)
    adw_preferences_group_set_title (group, title);
  if (description != NULL)
    adw_preferences_group_set_description (group, description);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self), group);
  return group;
}

static void
qm_wizard_review_finalize (GObject *object)
{
  QmWizardReview *self = QM_WIZARD_REVIEW (object);

  g_hash_table_unref (self->review);
  g_ptr_array_unref (self->note_rows);

  G_OBJECT_CLASS (qm_wizard_review_parent_class)->finalize (object);
}

static void
qm_wizard_review_class_init (QmWizardReviewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qm_wizard_review_finalize;

  signals[NAME_EDITED] = g_signal_new ("name-edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[NAME_ACTIVATED] = g_signal_new ("name-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qm_wizard_review_init (QmWizardReview *self)
{
  static const struct { const char *key; const char *title; } figures[] = {
    { "gpus", N_("GPUs") },
    { "nodes", N_("Servers") },
    { "racks", N_("Racks") },
    { "ideal-days", N_("Training Time") },
    { "train-days", N_("With Failures") },
    { "memory", N_("Memory per GPU") },
    { "it-power", N_("IT Power") },
    { "facility-power", N_("Facility Power") },
    { "upfront", N_("Up-Front Cost") },
    { "run-cost", N_("Cost of the Run") },
    { "monthly", N_("Monthly Cost") },
    { "co2", N_("Carbon") },
  };
  GtkWidget *row;

  self->review = g_hash_table_new (g_str_hash, g_str_equal);
  self->note_rows = g_ptr_array_new ();
  self->name_group = add_group (self, NULL, NULL);
  self->figures_group = add_group (self, _("Key Figures"), NULL);
  self->warnings_group = add_group (self, _("Warnings"), NULL);
  self->assumptions_group =
    add_group (self, _("Assumptions"),
               _("What the estimate takes for granted, and where each figure comes from."));

  /* An entry in an action row, not an AdwEntryRow: libadwaita 1.2's entry
   * row focuses a GtkText that GTK 4.8 gives no role, and AT-SPI reports no
   * focus on it (issue #37 item 6). */
  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Plan Name"));
  self->name_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->name_entry), "name");
  gtk_widget_set_valign (GTK_WIDGET (self->name_entry), GTK_ALIGN_CENTER);
  gtk_widget_set_hexpand (GTK_WIDGET (self->name_entry), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), GTK_WIDGET (self->name_entry));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), GTK_WIDGET (self->name_entry));
  /* One Tab stop, on the entry (issue #35 item 7, as qm_wizard_row_set_field). */
  gtk_widget_set_focusable (row, FALSE);
  qm_a11y_label (GTK_WIDGET (self->name_entry), _("Plan Name"));
  adw_preferences_group_add (self->name_group, row);
  g_signal_connect_swapped (self->name_entry, "changed", G_CALLBACK (name_changed), self);
  g_signal_connect_swapped (self->name_entry, "activate", G_CALLBACK (name_activated), self);

  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      g_autofree char *name = g_strconcat ("review-", figures[i].key, NULL);
      GtkLabel *label = qm_wizard_add_value_row (self->figures_group, _(figures[i].title), NULL, NULL);

      gtk_widget_set_name (GTK_WIDGET (label), name);
      g_hash_table_insert (self->review, (gpointer) figures[i].key, label);
    }
}

const char *
qm_wizard_review_get_name (QmWizardReview *self)
{
  g_return_val_if_fail (QM_IS_WIZARD_REVIEW (self), "");
  return gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
}

void
qm_wizard_review_set_name (QmWizardReview *self,
                           const char     *name)
{
  g_return_if_fail (QM_IS_WIZARD_REVIEW (self));
  self->setting_name = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), name);
  self->setting_name = FALSE;
}

AdwPreferencesGroup *
qm_wizard_review_get_name_group (QmWizardReview *self)
{
  g_return_val_if_fail (QM_IS_WIZARD_REVIEW (self), NULL);
  return self->name_group;
}
