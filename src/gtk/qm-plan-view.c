/* qm-plan-view.c: one plan on screen: key figures, charts, bill of
 * materials, assumptions and warnings, saving and export. The side panel
 * lives in qm-plan-view-inputs.c.
 *
 * A saved quote whose catalog prices changed since is shown as it was
 * quoted: the key figures and the bill of materials come from the saved
 * estimate JSON (the snapshot), and a banner offers Recompute. The charts
 * and assumptions would need today's estimate, so they wait for Recompute
 * (or for the first edit, which is a recompute by choice).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-chart-widget.h"
#include "qm-estimate-json.h"
#include "qm-format.h"
#include "qm-plan-report.h"
#include "qm-plan.h"
#include "qm-plan-view-private.h"
#include "qm-print.h"
#include "qm-text.h"

enum {
  PROP_0,
  PROP_STORE,
  PROP_EDITOR,
  PROP_SHOWING_SNAPSHOT,
  N_PROPS
};

enum {
  BACK,
  ADD_TO_COMPARE,
  DUPLICATED,
  SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QmPlanView, qm_plan_view, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ */
/* Bill of materials rows                                              */

#define QM_TYPE_PLAN_VIEW_BOM_ROW (qm_plan_view_bom_row_get_type ())
G_DECLARE_FINAL_TYPE (QmPlanViewBomRow, qm_plan_view_bom_row, QM, PLAN_VIEW_BOM_ROW, GObject)

enum {
  BOM_ITEM,
  BOM_CATALOG_ID,
  BOM_QTY,
  BOM_UNIT,
  BOM_TOTAL,
  BOM_N_COLUMNS
};

struct _QmPlanViewBomRow
{
  GObject  parent_instance;
  char    *text[BOM_N_COLUMNS];
  char    *source;
};

G_DEFINE_FINAL_TYPE (QmPlanViewBomRow, qm_plan_view_bom_row, G_TYPE_OBJECT)

static void
qm_plan_view_bom_row_finalize (GObject *object)
{
  QmPlanViewBomRow *self = QM_PLAN_VIEW_BOM_ROW (object);

  for (guint i = 0; i < BOM_N_COLUMNS; i++)
    g_free (self->text[i]);
  g_free (self->source);
  G_OBJECT_CLASS (qm_plan_view_bom_row_parent_class)->finalize (object);
}

static void
qm_plan_view_bom_row_class_init (QmPlanViewBomRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qm_plan_view_bom_row_finalize;
}

static void
qm_plan_view_bom_row_init (QmPlanViewBomRow *self)
{
}

static QmPlanViewBomRow *
bom_row_new (const char *item,
             const char *catalog_id,
             double      qty,
             double      unit_usd,
             double      total_usd,
             const char *currency,
             const char *source)
{
  QmPlanViewBomRow *row = g_object_new (QM_TYPE_PLAN_VIEW_BOM_ROW, NULL);
  char buf[QM_FORMAT_BUF];

  /* The core's English label, marked for translation (qm-cost.h). */
  row->text[BOM_ITEM] = g_strdup (item != NULL && *item != '\0' ? _(item) : "");
  row->text[BOM_CATALOG_ID] = g_strdup (catalog_id ? catalog_id : "");
  row->text[BOM_QTY] = g_strdup (qm_format_number (buf, sizeof buf, qty, qty == floor (qty) ? 0 : qty < 10 ? 2 : 1));
  row->text[BOM_UNIT] = g_strdup (qm_format_money (buf, sizeof buf, unit_usd, currency));
  row->text[BOM_TOTAL] = g_strdup (qm_format_money (buf, sizeof buf, total_usd, currency));
  row->source = g_strdup (source);
  return row;
}

/* ------------------------------------------------------------------ */
/* Key figures: from the estimate, or from a saved snapshot            */

typedef struct
{
  gboolean    training;
  double      gpus, nodes, racks, nodes_per_rack;
  gboolean    liquid;
  double      ideal_days, train_days;
  double      mfu;
  const char *mfu_source;            /* "given", "predicted", "default" or NULL */
  double      mem_total, mem_capacity, mem_margin;
  int         fits;                  /* -1 unknown */
  double      it_peak_kw, it_avg_kw, facility_peak_kw, facility_avg_kw;
  double      energy_mwh, electricity_usd;
  gboolean    buy;
  double      upfront, monthly, run, total, horizon_months;
  double      co2_tonnes;
  double      goodput, interruptions;
  double      replicas, ttft_ms, tpot_ms;
} Figures;

static void
figures_from_estimate (const QmPlan     *p,
                       const QmEstimate *e,
                       Figures          *f)
{
  f->training = e->has_training;
  f->gpus = e->gpus;
  f->nodes = e->nodes;
  f->racks = e->has_cluster ? e->cluster.racks : NAN;
  f->nodes_per_rack = e->has_cluster ? e->cluster.nodes_per_rack : NAN;
  f->liquid = e->has_cluster && e->cluster.liquid_cooling;
  f->ideal_days = e->ideal_days;
  f->train_days = e->train_days > 0 ? e->train_days : e->ideal_days;
  f->mfu = e->mfu;
  f->mfu_source = qm_mfu_source_to_string (e->mfu_source);
  f->mem_total = e->memory.total;
  f->mem_capacity = e->memory.capacity;
  f->mem_margin = e->memory.margin;
  f->fits = e->valid ? e->fits : -1;
  f->it_peak_kw = e->has_power ? e->power.it_peak_kw : NAN;
  f->it_avg_kw = e->has_power ? e->power.it_avg_kw : NAN;
  f->facility_peak_kw = e->has_power ? e->power.facility_peak_kw : NAN;
  f->facility_avg_kw = e->has_power ? e->power.facility_avg_kw : NAN;
  f->energy_mwh = e->has_power ? e->power.energy_mwh : NAN;
  f->electricity_usd = e->has_power ? e->power.electricity_usd : NAN;
  f->co2_tonnes = e->has_power ? e->power.co2_tonnes : NAN;
  f->buy = p->pricing.mode == QM_PRICING_BUY;
  f->upfront = e->has_cost ? e->cost.upfront : NAN;
  f->monthly = e->has_cost ? e->cost.monthly : NAN;
  f->run = e->has_cost ? e->cost.run : NAN;
  f->total = e->has_cost ? e->cost.total : NAN;
  f->horizon_months = e->has_cost ? e->cost.horizon_months : NAN;
  f->goodput = e->has_reliability ? e->reliability.goodput : NAN;
  f->interruptions = e->has_reliability ? e->reliability.interruptions : NAN;
  f->replicas = e->has_inference ? e->inference.replicas : NAN;
  f->ttft_ms = e->has_inference ? e->inference.ttft_ms : NAN;
  f->tpot_ms = e->has_inference ? e->inference.tpot_ms : NAN;
}

static double
json_num (JsonObject *o,
          const char *member)
{
  JsonNode *n;

  if (o == NULL || !json_object_has_member (o, member))
    return NAN;
  n = json_object_get_member (o, member);
  if (JSON_NODE_HOLDS_VALUE (n) && (json_node_get_value_type (n) == G_TYPE_DOUBLE ||
                                    json_node_get_value_type (n) == G_TYPE_INT64))
    return json_node_get_double (n);
  return NAN;
}

static JsonObject *
json_obj (JsonObject *o,
          const char *member)
{
  JsonNode *n;

  if (o == NULL || !json_object_has_member (o, member))
    return NULL;
  n = json_object_get_member (o, member);
  return JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static const char *
json_str (JsonObject *o,
          const char *member)
{
  JsonNode *n;

  if (o == NULL || !json_object_has_member (o, member))
    return NULL;
  n = json_object_get_member (o, member);
  return JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
         ? json_node_get_string (n) : NULL;
}

/* The snapshot may come from an older version: every key may be absent. */
static void
figures_from_snapshot (const QmPlan *p,
                       JsonObject   *o,
                       Figures      *f)
{
  JsonObject *mem = json_obj (o, "memory_bytes");
  JsonObject *pw = json_obj (o, "power_kw");
  JsonObject *cost = json_obj (o, "cost_usd");
  JsonObject *cl = json_obj (o, "cluster");
  JsonObject *rel = json_obj (o, "reliability");
  JsonObject *inf = json_obj (o, "inference");
  const char *mode = json_str (o, "mode");
  const char *pricing = json_str (cost, "pricing");
  JsonNode *fits;

  f->training = mode ? g_strcmp0 (mode, "inference") != 0 : p->workload.mode != QM_MODE_INFERENCE;
  f->gpus = json_num (o, "gpus");
  f->nodes = json_num (o, "nodes");
  f->racks = json_num (o, "racks");
  f->nodes_per_rack = json_num (cl, "nodes_per_rack");
  f->liquid = cl != NULL && json_object_has_member (cl, "liquid_cooling") &&
              json_object_get_boolean_member_with_default (cl, "liquid_cooling", FALSE);
  f->ideal_days = json_num (o, "ideal_days");
  f->train_days = json_num (o, "train_days");
  f->mfu = json_num (o, "mfu");
  f->mfu_source = json_str (o, "mfu_source");
  f->mem_total = json_num (mem, "total");
  f->mem_capacity = json_num (mem, "capacity");
  f->mem_margin = json_num (mem, "margin");
  fits = o && json_object_has_member (o, "fits") ? json_object_get_member (o, "fits") : NULL;
  f->fits = fits && JSON_NODE_HOLDS_VALUE (fits) ? json_node_get_boolean (fits) : -1;
  f->it_peak_kw = json_num (pw, "it_peak");
  f->it_avg_kw = json_num (pw, "it_avg");
  f->facility_peak_kw = json_num (pw, "facility_peak");
  f->facility_avg_kw = json_num (pw, "facility_avg");
  f->energy_mwh = json_num (o, "energy_mwh");
  f->electricity_usd = json_num (o, "electricity_usd");
  f->co2_tonnes = json_num (o, "co2_tonnes");
  f->buy = pricing ? g_strcmp0 (pricing, "buy") == 0 : p->pricing.mode == QM_PRICING_BUY;
  f->upfront = json_num (cost, "upfront");
  f->monthly = json_num (cost, "monthly");
  f->run = json_num (cost, "run");
  f->total = json_num (cost, "total");
  f->horizon_months = json_num (cost, "horizon_months");
  f->goodput = json_num (rel, "goodput");
  f->interruptions = json_num (rel, "interruptions");
  f->replicas = json_num (inf, "replicas");
  f->ttft_ms = json_num (inf, "ttft_ms");
  f->tpot_ms = json_num (inf, "tpot_ms");
}

typedef struct
{
  const char *id;
  const char *title;
} FigureInfo;

static const FigureInfo figure_infos[] = {
  { "gpus",    N_("GPUs") },
  { "nodes",   N_("Nodes") },
  { "racks",   N_("Racks") },
  { "time",    N_("Time to Train") },
  { "mfu",     N_("MFU") },
  { "memory",  N_("Memory per GPU") },
  { "power",   N_("Power") },
  { "energy",  N_("Energy") },
  { "cost",    N_("Cost") },
  { "co2",     N_("CO₂") },
  { "goodput", N_("Goodput") },
};

/* A flow box puts N children on a line only when N natural widths fit: the
 * chart widget asks for 560 px and a wrapping label for its whole text, so
 * cap what a card asks for (it still grows to fill its column). */
#define CHART_CARD_NATURAL  400
#define FIGURE_CARD_NATURAL 170

static void
cap_measure (GtkWidget      *widget,
             GtkOrientation  orientation,
             int             for_size,
             int            *minimum,
             int            *natural,
             int            *minimum_baseline,
             int            *natural_baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  *minimum = *natural = 0;
  if (child == NULL)
    return;
  gtk_widget_measure (child, orientation, for_size, minimum, natural, NULL, NULL);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *natural = MAX (*minimum, MIN (*natural, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (widget), "qm-cap"))));
}

static void
cap_allocate (GtkWidget *widget,
              int        width,
              int        height,
              int        baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  if (child != NULL)
    gtk_widget_allocate (child, width, height, baseline, NULL);
}

static GtkWidget *
capped_new (GtkWidget *child,
            int        natural_width)
{
  GtkWidget *cap = adw_bin_new ();

  gtk_widget_set_layout_manager (cap, gtk_custom_layout_new (NULL, cap_measure, cap_allocate));
  g_object_set_data (G_OBJECT (cap), "qm-cap", GINT_TO_POINTER (natural_width));
  adw_bin_set_child (ADW_BIN (cap), child);
  return cap;
}

static GtkWidget *
figure_card_new (QmPlanView *self,
                 const FigureInfo *info)
{
  GtkWidget *frame = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *title_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_(info->title));
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *value = gtk_label_new (NULL);
  GtkWidget *detail = gtk_label_new (NULL);

  gtk_widget_add_css_class (frame, "card");
  gtk_widget_set_margin_top (card, 12);
  gtk_widget_set_margin_bottom (card, 12);
  gtk_widget_set_margin_start (card, 12);
  gtk_widget_set_margin_end (card, 12);
  gtk_box_append (GTK_BOX (frame), card);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "caption-heading");
  gtk_widget_add_css_class (title, "dim-label");
  gtk_widget_set_visible (icon, FALSE);
  gtk_widget_add_css_class (icon, "error");
  gtk_widget_set_name (icon, "warning-icon");
  gtk_box_append (GTK_BOX (title_box), title);
  gtk_box_append (GTK_BOX (title_box), icon);

  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_ellipsize (GTK_LABEL (value), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (value, "title-2");
  gtk_widget_add_css_class (value, "numeric");

  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
  gtk_label_set_width_chars (GTK_LABEL (detail), 16);
  gtk_label_set_max_width_chars (GTK_LABEL (detail), 24);
  gtk_widget_add_css_class (detail, "caption");
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_widget_add_css_class (detail, "numeric");

  gtk_box_append (GTK_BOX (card), title_box);
  gtk_box_append (GTK_BOX (card), value);
  gtk_box_append (GTK_BOX (card), detail);
  gtk_accessible_update_property (GTK_ACCESSIBLE (frame), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _(info->title), -1);

  g_hash_table_insert (self->figure_values, (gpointer) info->id, value);
  g_hash_table_insert (self->figure_details, (gpointer) info->id, detail);
  g_hash_table_insert (self->figure_cards, (gpointer) info->id, card);
  return frame;
}

static void
set_figure (QmPlanView *self,
            const char *id,
            const char *title,
            const char *value,
            const char *detail,
            gboolean    problem)
{
  GtkWidget *card = g_hash_table_lookup (self->figure_cards, id);
  GtkWidget *value_label = g_hash_table_lookup (self->figure_values, id);
  GtkWidget *detail_label = g_hash_table_lookup (self->figure_details, id);
  GtkWidget *title_box = gtk_widget_get_first_child (card);
  GtkWidget *title_label = gtk_widget_get_first_child (title_box);
  GtkWidget *icon = gtk_widget_get_last_child (title_box);
  g_autofree char *a11y = NULL;

  if (title != NULL)
    gtk_label_set_label (GTK_LABEL (title_label), title);
  gtk_label_set_label (GTK_LABEL (value_label), value);
  gtk_label_set_label (GTK_LABEL (detail_label), detail ? detail : "");
  gtk_widget_set_visible (detail_label, detail != NULL && detail[0] != '\0');
  gtk_widget_set_visible (icon, problem);
  if (problem)
    gtk_widget_add_css_class (value_label, "error");
  else
    gtk_widget_remove_css_class (value_label, "error");
  gtk_widget_set_tooltip_text (value_label, NULL);

  a11y = g_strdup_printf ("%s: %s%s%s%s", gtk_label_get_label (GTK_LABEL (title_label)),
                          problem ? _("problem: ") : "", value,
                          detail && detail[0] ? ". " : "", detail ? detail : "");
  /* The card (and its flow box child) reads as one labelled figure. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (card)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_ancestor (card, GTK_TYPE_FLOW_BOX_CHILD)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  gtk_widget_set_visible (gtk_widget_get_ancestor (card, GTK_TYPE_FLOW_BOX_CHILD), TRUE);
}

static void
hide_figure (QmPlanView *self,
             const char *id)
{
  GtkWidget *card = g_hash_table_lookup (self->figure_cards, id);

  gtk_widget_set_visible (gtk_widget_get_ancestor (card, GTK_TYPE_FLOW_BOX_CHILD), FALSE);
}

#define FMT(buf, fn, ...) (fn (buf, sizeof buf, __VA_ARGS__))

static const char *
num_or_dash (char *buf, gsize size, double v, int decimals)
{
  return isfinite (v) ? qm_format_number (buf, size, v, decimals) : "–";
}

static void
update_figures (QmPlanView    *self,
                const Figures *f)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const char *cur = p->pricing.currency;
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF], d[QM_FORMAT_BUF];
  g_autofree char *detail = NULL;
  g_autofree char *value = NULL;

  /* GPUs, nodes, racks. */
  detail = g_strdup_printf (_("%s, %u per node"),
                            p->hardware.gpu.info.name ? p->hardware.gpu.info.name : p->gpu_id,
                            p->hardware.server.gpus);
  set_figure (self, "gpus", NULL, num_or_dash (a, sizeof a, f->gpus, 0), detail, FALSE);
  g_clear_pointer (&detail, g_free);
  set_figure (self, "nodes", NULL, num_or_dash (a, sizeof a, f->nodes, 0),
              p->hardware.server.info.name ? p->hardware.server.info.name : p->server_id, FALSE);
  if (isfinite (f->nodes_per_rack))
    detail = g_strdup_printf (f->liquid ? _("Up to %s nodes per rack, liquid-cooled") : _("Up to %s nodes per rack"),
                              num_or_dash (b, sizeof b, f->nodes_per_rack, 0));
  set_figure (self, "racks", NULL, num_or_dash (a, sizeof a, f->racks, 0), detail, FALSE);
  g_clear_pointer (&detail, g_free);

  /* Time, or the serving figures. */
  if (f->training)
    {
      detail = isfinite (f->ideal_days)
               ? g_strdup_printf (_("With failures; %s without"), FMT (b, qm_format_days, f->ideal_days))
               : NULL;
      set_figure (self, "time", _("Time to Train"),
                  isfinite (f->train_days) ? FMT (a, qm_format_days, f->train_days) : "–", detail, FALSE);
      g_clear_pointer (&detail, g_free);
    }
  else
    {
      detail = g_strdup_printf (_("%s ms to the first token, %s ms per token"),
                                num_or_dash (b, sizeof b, f->ttft_ms, 0),
                                num_or_dash (c, sizeof c, f->tpot_ms, 1));
      value = g_strdup_printf (_("%s replicas"), num_or_dash (a, sizeof a, f->replicas, 0));
      set_figure (self, "time", _("Serving"), value, detail, FALSE);
      g_clear_pointer (&detail, g_free);
      g_clear_pointer (&value, g_free);
    }

  /* MFU: say where it came from. */
  if (f->training && isfinite (f->mfu))
    {
      const char *source = g_strcmp0 (f->mfu_source, "given") == 0 ? _("Given in the plan")
                         : g_strcmp0 (f->mfu_source, "predicted") == 0 ? _("Predicted by the throughput model")
                         : g_strcmp0 (f->mfu_source, "default") == 0 ? _("Default for this GPU family")
                         : NULL;

      value = g_strdup_printf ("%s%%", qm_format_number (a, sizeof a, f->mfu * 100, 1));
      set_figure (self, "mfu", NULL, value, source, FALSE);
      g_clear_pointer (&value, g_free);
    }
  else
    hide_figure (self, "mfu");

  /* Memory: fits or not, with the margin. */
  if (isfinite (f->mem_total))
    {
      if (f->fits == 0)
        detail = g_strdup_printf (_("Does not fit in %s: %s over"),
                                  FMT (b, qm_format_bytes, f->mem_capacity, QM_BYTES_GB),
                                  FMT (c, qm_format_bytes, -f->mem_margin, QM_BYTES_GB));
      else if (isfinite (f->mem_capacity))
        detail = g_strdup_printf (_("Fits in %s with %s to spare"),
                                  FMT (b, qm_format_bytes, f->mem_capacity, QM_BYTES_GB),
                                  FMT (c, qm_format_bytes, f->mem_margin, QM_BYTES_GB));
      set_figure (self, "memory", NULL, FMT (a, qm_format_bytes, f->mem_total, QM_BYTES_GB),
                  detail, f->fits == 0);
      g_clear_pointer (&detail, g_free);
    }
  else
    set_figure (self, "memory", NULL, "–", NULL, FALSE);

  /* Power, energy, CO2. */
  if (isfinite (f->facility_peak_kw))
    detail = g_strdup_printf (_("Facility peak; IT %s peak, %s average"),
                              FMT (b, qm_format_si, f->it_peak_kw * 1e3, "W"),
                              FMT (c, qm_format_si, f->it_avg_kw * 1e3, "W"));
  set_figure (self, "power", NULL,
              isfinite (f->facility_peak_kw) ? FMT (a, qm_format_si, f->facility_peak_kw * 1e3, "W") : "–",
              detail, FALSE);
  g_clear_pointer (&detail, g_free);

  if (isfinite (f->electricity_usd))
    detail = g_strdup_printf (f->training ? _("Electricity for the run: %s") : _("Electricity per month: %s"),
                              FMT (b, qm_format_money, f->electricity_usd, cur));
  value = g_strdup_printf (_("%s MWh"), num_or_dash (a, sizeof a, f->energy_mwh, 0));
  set_figure (self, "energy", NULL, value, detail, FALSE);
  g_clear_pointer (&detail, g_free);
  g_clear_pointer (&value, g_free);

  detail = g_strdup_printf (_("At %s g/kWh from the grid"),
                            qm_format_number (b, sizeof b, p->facility.gco2_per_kwh, 0));
  value = g_strdup_printf (_("%s t"), num_or_dash (a, sizeof a, f->co2_tonnes, f->co2_tonnes < 10 ? 1 : 0));
  set_figure (self, "co2", NULL, value, detail, FALSE);
  g_clear_pointer (&detail, g_free);
  g_clear_pointer (&value, g_free);

  /* Cost: buying shows the total of ownership, renting the run. */
  if (f->buy && isfinite (f->total))
    {
      detail = g_strdup_printf (_("Over %s months: %s upfront, %s a month; this run %s"),
                                num_or_dash (b, sizeof b, f->horizon_months, 0),
                                FMT (c, qm_format_money, f->upfront, cur),
                                FMT (d, qm_format_money, f->monthly, cur),
                                FMT (a, qm_format_money, f->run, cur));
      set_figure (self, "cost", _("Cost to Own"), FMT (a, qm_format_money, f->total, cur), detail, FALSE);
    }
  else if (isfinite (f->run))
    {
      /* Serving runs one month: the run and the month are the same. */
      detail = f->training ? g_strdup_printf (_("Rental for the run; %s a month"),
                                              FMT (b, qm_format_money, f->monthly, cur))
                           : g_strdup (_("Rental per month of serving"));
      set_figure (self, "cost", _("Rental Cost"),
                  FMT (a, qm_format_money, f->training ? f->run : f->monthly, cur), detail, FALSE);
    }
  else if (isfinite (f->total))
    set_figure (self, "cost", _("Cost"), FMT (a, qm_format_money, f->total, cur), NULL, FALSE);
  else
    set_figure (self, "cost", _("Cost"), "–", NULL, FALSE);
  g_clear_pointer (&detail, g_free);

  /* Goodput. */
  if (f->training && isfinite (f->goodput))
    {
      detail = g_strdup_printf (_("%s interruptions expected"), num_or_dash (b, sizeof b, f->interruptions, 0));
      value = g_strdup_printf ("%s%%", qm_format_number (a, sizeof a, f->goodput * 100, 1));
      set_figure (self, "goodput", NULL, value, detail, FALSE);
      g_clear_pointer (&detail, g_free);
      g_clear_pointer (&value, g_free);
    }
  else
    hide_figure (self, "goodput");
}

/* ------------------------------------------------------------------ */
/* Charts                                                              */

typedef struct
{
  QmPlanView      *view;
  QmPlanChartKind  kind;
} ChartData;

static void
draw_chart (cairo_t            *cr,
            const QmChartStyle *style,
            double              width,
            double              height,
            gpointer            user_data)
{
  ChartData *d = user_data;
  QmPlanView *self = d->view;

  if (self->editor == NULL)
    return;
  qm_plan_chart_draw_with_layout (d->kind, cr, qm_plan_editor_get_plan (self->editor),
                                  qm_plan_editor_get_estimate (self->editor), self->curves,
                                  QM_BYTES_GB, style, width, height, self->layouts[d->kind]);
}

static gboolean
in_rect (const QmRect *r,
         double        x,
         double        y)
{
  return r->width > 0 && r->height > 0 &&
         x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height;
}

static char *
chart_tooltip (double   x,
               double   y,
               gpointer user_data)
{
  ChartData *d = user_data;
  QmPlanView *self = d->view;
  const QmPlanChartLayout *l = self->layouts[d->kind];
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF], m[QM_FORMAT_BUF];

  switch (d->kind)
    {
    case QM_PLAN_CHART_GPUS_TIME:
      {
        const QmGpusTimeCurve *cv = &self->curves->gpus_time;
        int i = qm_chart_gpus_time_hit (&l->gpus_time, cv, x, y);

        if (i < 0)
          return NULL;
        return g_strdup_printf (_("%s GPUs: %s with failures, %s ideal%s%s%s"),
                                FMT (a, qm_format_number, cv->gpus[i], 0),
                                cv->days[i] > 0 ? FMT (b, qm_format_days, cv->days[i]) : "–",
                                FMT (c, qm_format_days, cv->ideal_days[i]),
                                cv->cost[i] > 0 ? _("; the run costs ") : "",
                                cv->cost[i] > 0 ? FMT (m, qm_format_money, cv->cost[i], p->pricing.currency) : "",
                                i == cv->knee ? _(" (the knee: more GPUs stop paying)") : "");
      }
    case QM_PLAN_CHART_VRAM:
      {
        guint bar, part;
        const QmMemoryBreakdown *mb;
        const double *parts;

        if (!qm_chart_vram_hit (&l->vram, x, y, &bar, &part) || bar >= l->n_vram_bars)
          return NULL;
        mb = &l->vram_bars[bar];
        parts = (const double[QM_VRAM_N_PARTS]) {
          mb->weights, mb->gradients, mb->optimizer, mb->activations, mb->kv_cache, mb->overhead,
        };
        return g_strdup_printf (_("%s, %s: %s of %s in all (%s)"),
                                l->vram_labels[bar], qm_chart_vram_part_name (part),
                                FMT (a, qm_format_bytes, parts[MIN (part, QM_VRAM_N_PARTS - 1)], QM_BYTES_GB),
                                FMT (b, qm_format_bytes, mb->total, QM_BYTES_GB),
                                mb->fits ? _("fits") : _("does not fit"));
      }
    case QM_PLAN_CHART_POWER:
      {
        const QmNodeWatts *nw = &e->power.node;
        const double node[QM_POWER_NODE_PARTS] = {
          nw->gpus, nw->cpus, nw->memory, nw->nics, nw->storage, nw->other,
        };

        for (guint i = 0; i < QM_POWER_NODE_PARTS; i++)
          if (in_rect (&l->power.node_parts[i], x, y))
            return g_strdup_printf (_("One node, %s: %s"), qm_chart_power_node_part_name (i),
                                    FMT (a, qm_format_si, node[i], "W"));
        for (guint k = 0; k < 2; k++)
          for (guint i = 0; i < QM_POWER_CLUSTER_PARTS; i++)
            if (in_rect (&l->power.cluster_parts[k][i], x, y))
              return g_strdup_printf (k == 0 ? _("Cluster, provisioned, %s: %s") : _("Cluster, average, %s: %s"),
                                      qm_chart_power_cluster_part_name (i),
                                      FMT (a, qm_format_si, qm_chart_power_cluster_part_kw (&e->power, i, k == 1) * 1e3, "W"));
        return NULL;
      }
    case QM_PLAN_CHART_RACKS:
      {
        int g = qm_chart_racks_hit (&l->racks, x, y);
        const QmRackGroup *rg;
        static const char *kinds[] = { N_("compute"), N_("compute (partly filled)"), N_("network"), N_("storage") };

        if (g < 0)
          return NULL;
        rg = &l->racks.groups[g];
        return g_strdup_printf (_("%u × %s rack: %u servers, %u switches, %s of %s%s"),
                                rg->count, _(kinds[MIN ((guint) rg->kind, 3u)]), rg->servers, rg->switches,
                                FMT (a, qm_format_si, rg->kw * 1e3, "W"),
                                FMT (b, qm_format_si, p->facility.rack_kw * 1e3, "W"),
                                rg->liquid ? _(", liquid-cooled") : "");
      }
    case QM_N_PLAN_CHARTS:
    default:
      return NULL;
    }
}

static void
build_charts (QmPlanView *self)
{
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    {
      GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      GtkWidget *title = gtk_label_new (_(qm_plan_chart_title ((QmPlanChartKind) k)));
      GtkWidget *chart = qm_chart_widget_new ();
      ChartData *d = g_new0 (ChartData, 1);

      d->view = self;
      d->kind = (QmPlanChartKind) k;
      self->layouts[k] = g_new0 (QmPlanChartLayout, 1);
      self->charts[k] = chart;

      gtk_widget_add_css_class (card, "card");
      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_set_margin_top (title, 12);
      gtk_widget_set_margin_start (title, 12);
      gtk_widget_set_margin_end (title, 12);
      gtk_widget_set_margin_start (chart, 6);
      gtk_widget_set_margin_end (chart, 6);
      gtk_widget_set_margin_bottom (chart, 6);
      gtk_widget_add_css_class (title, "heading");
      gtk_widget_set_vexpand (chart, TRUE);
      gtk_widget_set_size_request (chart, -1, 300);
      gtk_widget_set_name (chart, qm_plan_chart_kind_to_string ((QmPlanChartKind) k));
      gtk_accessible_update_property (GTK_ACCESSIBLE (chart), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _(qm_plan_chart_title ((QmPlanChartKind) k)), -1);
      qm_chart_widget_set_draw_func (QM_CHART_WIDGET (chart), draw_chart, chart_tooltip, d, g_free);
      gtk_box_append (GTK_BOX (card), title);
      gtk_box_append (GTK_BOX (card), chart);
      gtk_flow_box_append (self->charts_box, capped_new (card, CHART_CARD_NATURAL));
    }
}

static void
update_charts (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);

  /* Once per change: the curve runs the layout search at ~20 counts. */
  qm_plan_curves (p, e, self->curves);
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    {
      g_autofree char *description = qm_plan_chart_describe ((QmPlanChartKind) k, p, e);

      qm_chart_widget_set_description (QM_CHART_WIDGET (self->charts[k]), description);
      gtk_widget_queue_draw (self->charts[k]);
    }
  /* A serving plan has no training curve. */
  gtk_widget_set_visible (gtk_widget_get_ancestor (self->charts[QM_PLAN_CHART_GPUS_TIME],
                                                  GTK_TYPE_FLOW_BOX_CHILD),
                          e->has_training);
}

/* ------------------------------------------------------------------ */
/* Bill of materials                                                   */

static void
bom_setup (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  guint column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column >= BOM_QTY ? 1.0 : 0.0);
  if (column >= BOM_QTY)
    gtk_widget_add_css_class (label, "numeric");
  if (column == BOM_CATALOG_ID)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_list_item_set_child (item, label);
}

static void
bom_bind (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  guint column = GPOINTER_TO_UINT (user_data);
  QmPlanViewBomRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_label (GTK_LABEL (label), row->text[column]);
  gtk_widget_set_tooltip_text (label, column == BOM_ITEM ? row->source : NULL);
}

static void
build_bom (QmPlanView *self)
{
  static const char *titles[BOM_N_COLUMNS] = {
    N_("Item"), N_("Catalog ID"), N_("Quantity"), N_("Unit Price"), N_("Total"),
  };
  g_autoptr(GtkNoSelection) selection = NULL;

  self->bom_store = g_list_store_new (QM_TYPE_PLAN_VIEW_BOM_ROW);
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->bom_store)));
  gtk_column_view_set_model (self->bom_view, GTK_SELECTION_MODEL (selection));

  for (guint i = 0; i < BOM_N_COLUMNS; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_signal_connect (factory, "setup", G_CALLBACK (bom_setup), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bom_bind), GUINT_TO_POINTER (i));
      column = gtk_column_view_column_new (_(titles[i]), factory);
      gtk_column_view_column_set_expand (column, i == BOM_ITEM);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (self->bom_view, column);
    }
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static void
add_total (QmPlanView *self,
           int         row,
           const char *label,
           double      amount,
           gboolean    emphasis)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  char buf[QM_FORMAT_BUF];
  GtkWidget *name = gtk_label_new (label);
  GtkWidget *value = gtk_label_new (isfinite (amount)
                                    ? qm_format_money (buf, sizeof buf, amount, p->pricing.currency)
                                    : "–");

  gtk_label_set_xalign (GTK_LABEL (name), 1.0);
  gtk_label_set_xalign (GTK_LABEL (value), 1.0);
  gtk_widget_add_css_class (value, "numeric");
  if (emphasis)
    {
      gtk_widget_add_css_class (name, "heading");
      gtk_widget_add_css_class (value, "heading");
    }
  else
    gtk_widget_add_css_class (name, "dim-label");
  gtk_grid_attach (self->bom_totals, name, 0, row, 1, 1);
  gtk_grid_attach (self->bom_totals, value, 1, row, 1, 1);
}

static void
update_bom (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  double hardware = NAN, install = NAN, upfront = NAN, run = NAN;
  gboolean buy = p->pricing.mode == QM_PRICING_BUY;

  if (self->snapshot != NULL)
    {
      JsonObject *o = json_node_get_object (self->snapshot);
      JsonObject *cost = json_obj (o, "cost_usd");
      JsonNode *bom = json_object_has_member (o, "bom") ? json_object_get_member (o, "bom") : NULL;

      if (bom != NULL && JSON_NODE_HOLDS_ARRAY (bom))
        {
          JsonArray *a = json_node_get_array (bom);

          for (guint i = 0; i < json_array_get_length (a); i++)
            {
              JsonNode *n = json_array_get_element (a, i);
              JsonObject *line;

              if (!JSON_NODE_HOLDS_OBJECT (n))
                continue;
              line = json_node_get_object (n);
              g_ptr_array_add (rows, bom_row_new (json_str (line, "item"), json_str (line, "catalog_id"),
                                                  json_num (line, "qty"), json_num (line, "unit_usd"),
                                                  json_num (line, "total_usd"), p->pricing.currency,
                                                  json_str (line, "source")));
            }
        }
      hardware = json_num (cost, "hardware");
      install = json_num (cost, "installation");
      upfront = json_num (cost, "upfront");
      run = json_num (cost, "run");
      if (json_str (cost, "pricing") != NULL)
        buy = g_strcmp0 (json_str (cost, "pricing"), "buy") == 0;
    }
  else if (e->has_cost)
    {
      for (guint i = 0; i < e->cost.n_bom; i++)
        {
          const QmBomLine *line = &e->cost.bom[i];

          g_ptr_array_add (rows, bom_row_new (line->item, line->catalog_id, line->qty, line->unit_usd,
                                              line->total_usd, p->pricing.currency, line->source));
        }
      hardware = e->cost.hardware_usd;
      install = e->cost.install_usd;
      upfront = e->cost.upfront;
      run = e->cost.run;
    }

  g_list_store_splice (self->bom_store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->bom_store)),
                       rows->pdata, rows->len);

  clear_grid (self->bom_totals);
  add_total (self, 0, _("Hardware"), hardware, FALSE);
  add_total (self, 1, _("Installation"), install, FALSE);
  if (buy)
    add_total (self, 2, _("Upfront"), upfront, TRUE);
  else
    add_total (self, 2, _("Rental for the run"), run, TRUE);
}

/* ------------------------------------------------------------------ */
/* Assumptions and warnings                                            */

static void
add_note_row (QmPlanView   *self,
              const QmNote *note,
              gboolean      warning)
{
  char text[1024];
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (warning ? "dialog-warning-symbolic"
                                                          : "dialog-information-symbolic");

  qm_note_format (note, text, sizeof text);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), warning ? _("Warning") : _("Assumption"));
  gtk_widget_add_css_class (icon, warning ? "warning" : "dim-label");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  warning ? _("Warning") : _("Assumption"), -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_focusable (row, TRUE);
  gtk_list_box_append (self->notes_list, row);
}

static void
update_notes (QmPlanView *self)
{
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->notes_list))) != NULL)
    gtk_list_box_remove (self->notes_list, child);
  for (guint i = 0; i < e->n_warnings; i++)
    add_note_row (self, &e->warnings[i], TRUE);
  for (guint i = 0; i < e->n_assumptions; i++)
    add_note_row (self, &e->assumptions[i], FALSE);

  adw_preferences_group_set_description (self->notes_group,
                                         e->n_warnings == 0
                                         ? _("Each figure’s basis, with its source")
                                         : g_dngettext (GETTEXT_PACKAGE, "One warning first, then each figure’s basis",
                                                        "Warnings first, then each figure’s basis", e->n_warnings));
}

/* ------------------------------------------------------------------ */
/* Refresh                                                             */

static const char *
mode_label (QmMode mode)
{
  switch (mode)
    {
    case QM_MODE_PRETRAIN: return _("Pretraining");
    case QM_MODE_FINETUNE: return _("Fine-tuning");
    case QM_MODE_LORA: return _("LoRA fine-tuning");
    case QM_MODE_QLORA: return _("QLoRA fine-tuning");
    case QM_MODE_INFERENCE: return _("Serving");
    default: return "";
    }
}

static void
update_title (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  const QmModelPreset *preset = p->workload.preset[0] ? qm_catalog_model (p->workload.preset) : NULL;
  const char *name = p->name[0] ? p->name : _("Untitled Plan");
  const char *state = "";
  char params[QM_FORMAT_BUF];
  double billions = e->params / 1e9;
  g_autofree char *subtitle = NULL;

  if (self->save_error != NULL)
    state = _("Not saved");
  else if (self->snapshot != NULL)
    state = _("Saved quote");
  else if (self->store != NULL && qm_plan_editor_get_dirty (self->editor))
    state = _("Unsaved changes");
  else if (self->store != NULL && qm_plan_editor_get_saved_id (self->editor) > 0)
    state = _("Saved");

  adw_window_title_set_title (self->window_title, name);
  adw_window_title_set_subtitle (self->window_title, state);
  gtk_label_set_label (self->plan_title, name);

  qm_format_number (params, sizeof params, billions, billions < 10 ? 2 : 1);
  subtitle = g_strdup_printf (_("%s · %s · %s billion parameters"), mode_label (p->workload.mode),
                              preset ? preset->info.name : _("Custom model"), params);
  gtk_label_set_label (self->plan_subtitle, subtitle);
}

static void
update_actions (QmPlanView *self)
{
  gboolean live = self->snapshot == NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.undo", qm_plan_editor_can_undo (self->editor));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.redo", qm_plan_editor_can_redo (self->editor));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.duplicate", self->store != NULL);
  /* Exports follow today's estimate: not while a saved quote is shown. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.export-pdf", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.print", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.export-csv", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.recompute", !live);
}

static void
refresh (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  Figures f;

  if (self->snapshot != NULL)
    figures_from_snapshot (p, json_node_get_object (self->snapshot), &f);
  else
    figures_from_estimate (p, qm_plan_editor_get_estimate (self->editor), &f);
  update_figures (self, &f);
  update_charts (self);
  update_bom (self);
  update_notes (self);
  update_title (self);
  update_actions (self);

  gtk_widget_set_visible (GTK_WIDGET (self->charts_box), self->snapshot == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->notes_group), self->snapshot == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->advisor_panel), self->snapshot == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->charts_note), self->snapshot != NULL);
  gtk_revealer_set_reveal_child (self->catalog_revealer, self->snapshot != NULL);
}

/* ------------------------------------------------------------------ */
/* Saving                                                              */

static gboolean
save_now (QmPlanView *self,
          gboolean    force,
          GError    **error)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  g_autoptr(QmSavedPlan) sp = NULL;
  gint64 id = qm_plan_editor_get_saved_id (self->editor);

  g_clear_handle_id (&self->autosave_source, g_source_remove);
  if (self->store == NULL)
    return TRUE;
  if (!force && id > 0 && !qm_plan_editor_get_dirty (self->editor))
    return TRUE;
  /* Never overwrite a shown snapshot: recompute is the user's choice. */
  if (self->snapshot != NULL)
    return TRUE;

  sp = self->saved != NULL ? qm_saved_plan_copy (self->saved) : qm_saved_plan_new ();
  sp->id = id;
  g_free (sp->name);
  sp->name = g_strdup (p->name);
  g_clear_pointer (&sp->notes, g_free);
  g_free (sp->inputs);
  sp->inputs = qm_plan_to_data (p, NULL);
  g_free (sp->snapshot);
  sp->snapshot = qm_estimate_to_json (p, e, NULL);
  g_free (sp->model);
  sp->model = g_strdup (p->workload.preset[0] ? p->workload.preset : "custom");
  sp->gpus = e->gpus;
  sp->days = e->train_days > 0 ? e->train_days : e->ideal_days;
  sp->total_cost = e->has_cost ? e->cost.total : 0;

  if (!qm_plan_store_save (self->store, sp, error))
    {
      g_free (self->save_error);
      self->save_error = g_strdup (error && *error ? (*error)->message : "");
      update_title (self);
      return FALSE;
    }

  g_clear_pointer (&self->save_error, g_free);
  g_clear_pointer (&self->saved, qm_saved_plan_free);
  self->saved = g_steal_pointer (&sp);
  qm_plan_editor_mark_saved (self->editor, self->saved->id);
  update_title (self);
  g_signal_emit (self, signals[SAVED], 0, self->saved->id);
  return TRUE;
}

static void
toast (QmPlanView *self,
       const char *text)
{
  AdwToast *t = adw_toast_new (text);

  adw_toast_set_timeout (t, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

static gboolean
autosave_cb (gpointer user_data)
{
  QmPlanView *self = user_data;
  g_autoptr(GError) error = NULL;

  self->autosave_source = 0;
  if (!save_now (self, FALSE, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save: %s. The edit is kept here and saving is tried again on the next edit."),
                                               error->message);
      toast (self, text);
    }
  return G_SOURCE_REMOVE;
}

static void
on_editor_changed (QmPlanEditor *editor,
                   QmPlanView   *self)
{
  /* An edit is a recompute by choice: leave a shown snapshot. */
  if (self->snapshot != NULL && qm_plan_editor_get_dirty (editor))
    {
      g_clear_pointer (&self->snapshot, json_node_unref);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWING_SNAPSHOT]);
    }
  refresh (self);
  qm_plan_view_inputs_sync (self, !self->editing);

  if (self->store != NULL && qm_plan_editor_get_dirty (editor))
    {
      g_clear_handle_id (&self->autosave_source, g_source_remove);
      self->autosave_source = g_timeout_add (QM_PLAN_VIEW_AUTOSAVE_MS, autosave_cb, self);
    }
}

static void
on_editor_state (QmPlanEditor *editor,
                 GParamSpec   *pspec,
                 QmPlanView   *self)
{
  update_actions (self);
  update_title (self);
}

/* ------------------------------------------------------------------ */
/* Export and print                                                    */

gboolean
qm_plan_view_export_pdf (QmPlanView  *self,
                         const char  *path,
                         GError     **error)
{
  g_autoptr(QmDocument) doc = NULL;
  QmPlanReportInfo info;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  qm_plan_report_info_init (&info);
  /* The PDF ranks its advice by the goal chosen on screen. */
  info.advisor_goal = qm_advisor_goal_to_string (qm_advisor_panel_get_goal (self->advisor_panel));
  doc = qm_plan_report_new (qm_plan_editor_get_plan (self->editor),
                            qm_plan_editor_get_estimate (self->editor), &info);
  return qm_document_write_pdf (doc, path, error);
}

gboolean
qm_plan_view_export_csv (QmPlanView  *self,
                         const char  *path,
                         GError     **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  csv = qm_bom_to_csv (qm_plan_editor_get_estimate (self->editor),
                       qm_plan_editor_get_plan (self->editor), FALSE);
  return g_file_set_contents (path, csv, -1, error);
}

gboolean
qm_plan_view_export_plan_file (QmPlanView  *self,
                               const char  *path,
                               GError     **error)
{
  g_autofree char *data = NULL;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  data = qm_plan_to_data (qm_plan_editor_get_plan (self->editor), NULL);
  /* The user's own catalog entries go inside, so it opens elsewhere. */
  if (self->store != NULL)
    {
      char *embedded = qm_plan_store_embed_custom (self->store, data, NULL);

      if (embedded != NULL)
        {
          g_free (data);
          data = embedded;
        }
    }
  return g_file_set_contents (path, data, -1, error);
}

typedef gboolean (*ExportFunc) (QmPlanView *self, const char *path, GError **error);

typedef struct
{
  QmPlanView *self;
  ExportFunc  func;
} ExportData;

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  ExportData *data = user_data;
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file != NULL)
    {
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *base = g_file_get_basename (file);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      if (path != NULL && data->func (data->self, path, &error))
        text = g_strdup_printf (_("Exported “%s”"), base);
      else
        text = g_strdup_printf (_("Could not export “%s”: %s"), base,
                                error ? error->message : _("not a local file"));
      toast (data->self, text);
    }
  g_object_unref (data->self);
  g_free (data);
  g_object_unref (dialog);
}

static void
export_with_chooser (QmPlanView *self,
                     const char *title,
                     const char *extension,
                     const char *filter_name,
                     const char *mime_type,
                     ExportFunc  func)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *base = g_strdup (p->name[0] ? p->name : _("Plan"));
  g_autofree char *name = NULL;
  ExportData *data = g_new0 (ExportData, 1);

  /* A file name without path separators. */
  g_strdelimit (base, "/\\:", '-');
  name = g_strconcat (base, ".", extension, NULL);
  chooser = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_file_filter_set_name (filter, filter_name);
  gtk_file_filter_add_mime_type (filter, mime_type);
  {
    g_autofree char *pattern = g_strconcat ("*.", extension, NULL);
    gtk_file_filter_add_pattern (filter, pattern);
  }
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);

  data->self = g_object_ref (self);
  data->func = func;
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

gboolean
qm_plan_view_print (QmPlanView  *self,
                    const char  *export_path,
                    GError     **error)
{
  const QmPlan *p;
  QmPlanReportInfo info;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);

  p = qm_plan_editor_get_plan (self->editor);
  qm_plan_report_info_init (&info);
  info.advisor_goal = qm_advisor_goal_to_string (qm_advisor_panel_get_goal (self->advisor_panel));
  return qm_print_document (GTK_WIDGET (self),
                            qm_plan_report_new (p, qm_plan_editor_get_estimate (self->editor), &info),
                            info.paper, p->name[0] ? p->name : _("Plan"), export_path, error);
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
action_back (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);

  /* Escape first closes the side panel drawn over the content. */
  if (adw_flap_get_folded (self->flap) && adw_flap_get_reveal_flap (self->flap))
    {
      adw_flap_set_reveal_flap (self->flap, FALSE);
      return;
    }
  g_signal_emit (self, signals[BACK], 0);
}

static void
action_undo (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  qm_plan_editor_undo (QM_PLAN_VIEW (widget)->editor);
}

static void
action_redo (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  qm_plan_editor_redo (QM_PLAN_VIEW (widget)->editor);
}

static void
action_toggle_inputs (GtkWidget  *widget,
                      const char *name,
                      GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);

  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

static void
on_rename_entry_changed (GtkEditable      *entry,
                         AdwMessageDialog *dialog)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "rename", text[0] != '\0' && strlen (text) < QM_NAME_LEN);
}

static void
on_rename_response (AdwMessageDialog *dialog,
                    const char       *response,
                    QmPlanView       *self)
{
  GtkEditable *entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  /* A pasted tab or control character would make the saved plan unreadable. */
  g_autofree char *text = g_strstrip (qm_text_sanitize (gtk_editable_get_text (entry), FALSE));
  QmPlan candidate;

  if (g_strcmp0 (response, "rename") != 0 || text[0] == '\0')
    return;
  candidate = *qm_plan_editor_get_plan (self->editor);
  g_strlcpy (candidate.name, text, sizeof candidate.name);
  qm_plan_editor_set_plan (self->editor, &candidate, "name");
}

static void
action_rename (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  GtkNative *native = gtk_widget_get_native (widget);
  GtkWidget *dialog;
  GtkWidget *entry = gtk_entry_new ();

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL,
                                   _("Rename Plan"), NULL);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "rename", _("_Rename"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "rename",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "rename");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_editable_set_text (GTK_EDITABLE (entry), qm_plan_editor_get_plan (self->editor)->name);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Plan name"), -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  g_signal_connect (entry, "changed", G_CALLBACK (on_rename_entry_changed), dialog);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_rename_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
action_duplicate (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gint64 id;

  if (self->store == NULL)
    return;
  if (!save_now (self, qm_plan_editor_get_saved_id (self->editor) == 0, &error) ||
      (id = qm_plan_store_duplicate (self->store, qm_plan_editor_get_saved_id (self->editor),
                                     NULL, &error)) == 0)
    {
      text = g_strdup_printf (_("Could not save a copy: %s"), error ? error->message : "");
      toast (self, text);
      return;
    }
  text = g_strdup_printf (_("Saved a copy of “%s”"), qm_plan_editor_get_plan (self->editor)->name);
  toast (self, text);
  g_signal_emit (self, signals[DUPLICATED], 0, id);
}

static void
action_export_pdf (GtkWidget  *widget,
                   const char *name,
                   GVariant   *param)
{
  export_with_chooser (QM_PLAN_VIEW (widget), _("Export PDF"), "pdf", _("PDF documents"),
                       "application/pdf", qm_plan_view_export_pdf);
}

static void
action_export_csv (GtkWidget  *widget,
                   const char *name,
                   GVariant   *param)
{
  export_with_chooser (QM_PLAN_VIEW (widget), _("Export Bill of Materials"), "csv",
                       _("CSV spreadsheets"), "text/csv", qm_plan_view_export_csv);
}

static void
action_export_plan (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  export_with_chooser (QM_PLAN_VIEW (widget), _("Export Plan File"), "qmplan",
                       _("Quartermaster plans"), "application/x-quartermaster-plan",
                       qm_plan_view_export_plan_file);
}

static void
action_print (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  g_autoptr(GError) error = NULL;

  if (!qm_plan_view_print (self, NULL, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not print: %s"), error->message);
      toast (self, text);
    }
}

static void
action_add_to_compare (GtkWidget  *widget,
                       const char *name,
                       GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  g_autoptr(GError) error = NULL;

  /* Compare reads saved plans: save pending edits first. */
  if (!save_now (self, self->store != NULL && qm_plan_editor_get_saved_id (self->editor) == 0, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save: %s"), error->message);
      toast (self, text);
      return;
    }
  g_signal_emit (self, signals[ADD_TO_COMPARE], 0, qm_plan_editor_get_saved_id (self->editor));
}

static void
action_recompute (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  g_autoptr(GError) error = NULL;

  if (self->snapshot == NULL)
    return;
  g_clear_pointer (&self->snapshot, json_node_unref);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWING_SNAPSHOT]);
  refresh (self);
  /* The new figures replace the quote in the store, by the user's choice. */
  if (!save_now (self, TRUE, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save: %s"), error->message);
      toast (self, text);
    }
  else
    toast (self, _("Recomputed with today’s catalog"));
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
load_saved (QmPlanView *self)
{
  gint64 id = qm_plan_editor_get_saved_id (self->editor);
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(JsonParser) parser = NULL;

  if (self->store == NULL || id <= 0)
    return;
  self->saved = qm_plan_store_load (self->store, id, NULL);
  if (self->saved == NULL || self->saved->snapshot == NULL)
    return;
  if (!qm_plan_store_catalog_changed (self->store, id, &changes, NULL))
    return;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, self->saved->snapshot, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;
  self->snapshot = json_node_ref (json_parser_get_root (parser));

  if (changes != NULL && changes->len > 0)
    {
      g_autoptr(GString) tip = g_string_new (NULL);

      for (guint i = 0; i < changes->len; i++)
        g_string_append_printf (tip, "%s%s", i ? "\n" : "", (const char *) g_ptr_array_index (changes, i));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->catalog_label), tip->str);
    }
}

/* Try It saved a changed copy: the window opens it like a duplicate. */
static void
on_advisor_plan_saved (QmAdvisorPanel *panel,
                       gint64          id,
                       QmPlanView     *self)
{
  g_signal_emit (self, signals[DUPLICATED], 0, id);
}

static void
qm_plan_view_constructed (GObject *object)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  G_OBJECT_CLASS (qm_plan_view_parent_class)->constructed (object);

  if (self->editor == NULL)
    self->editor = qm_plan_editor_new (NULL);
  load_saved (self);
  qm_plan_view_inputs_build (self);
  qm_advisor_panel_set_store (self->advisor_panel, self->store);
  qm_advisor_panel_set_editor (self->advisor_panel, self->editor);
  g_signal_connect_object (self->advisor_panel, "plan-saved", G_CALLBACK (on_advisor_plan_saved), self, 0);

  self->changed_handler = g_signal_connect (self->editor, "changed", G_CALLBACK (on_editor_changed), self);
  self->undo_handler = g_signal_connect (self->editor, "notify::can-undo", G_CALLBACK (on_editor_state), self);
  self->redo_handler = g_signal_connect (self->editor, "notify::can-redo", G_CALLBACK (on_editor_state), self);
  self->dirty_handler = g_signal_connect (self->editor, "notify::dirty", G_CALLBACK (on_editor_state), self);

  refresh (self);
  qm_plan_view_inputs_sync (self, TRUE);
}

static void
qm_plan_view_dispose (GObject *object)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  /* Leaving the view must not lose an edit waiting for its autosave. */
  if (self->autosave_source != 0 && self->editor != NULL)
    save_now (self, FALSE, NULL);
  g_clear_handle_id (&self->autosave_source, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_PLAN_VIEW);

  if (self->editor != NULL)
    {
      g_clear_signal_handler (&self->changed_handler, self->editor);
      g_clear_signal_handler (&self->undo_handler, self->editor);
      g_clear_signal_handler (&self->redo_handler, self->editor);
      g_clear_signal_handler (&self->dirty_handler, self->editor);
    }
  g_clear_object (&self->editor);
  g_clear_object (&self->bom_store);
  g_clear_pointer (&self->snapshot, json_node_unref);
  g_clear_pointer (&self->saved, qm_saved_plan_free);
  qm_plan_view_inputs_clear (self);

  G_OBJECT_CLASS (qm_plan_view_parent_class)->dispose (object);
}

static void
qm_plan_view_finalize (GObject *object)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  g_free (self->curves);
  for (guint k = 0; k < QM_N_PLAN_CHARTS; k++)
    g_free (self->layouts[k]);
  g_clear_pointer (&self->figure_values, g_hash_table_unref);
  g_clear_pointer (&self->figure_details, g_hash_table_unref);
  g_clear_pointer (&self->figure_cards, g_hash_table_unref);
  g_free (self->save_error);

  G_OBJECT_CLASS (qm_plan_view_parent_class)->finalize (object);
}

static void
qm_plan_view_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_pointer (value, self->store);
      break;
    case PROP_EDITOR:
      g_value_set_object (value, self->editor);
      break;
    case PROP_SHOWING_SNAPSHOT:
      g_value_set_boolean (value, self->snapshot != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_plan_view_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  QmPlanView *self = QM_PLAN_VIEW (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_get_pointer (value);
      break;
    case PROP_EDITOR:
      self->editor = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_plan_view_class_init (QmPlanViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = qm_plan_view_constructed;
  object_class->dispose = qm_plan_view_dispose;
  object_class->finalize = qm_plan_view_finalize;
  object_class->get_property = qm_plan_view_get_property;
  object_class->set_property = qm_plan_view_set_property;

  properties[PROP_STORE] =
    g_param_spec_pointer ("store", NULL, NULL,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EDITOR] =
    g_param_spec_object ("editor", NULL, NULL, QM_TYPE_PLAN_EDITOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOWING_SNAPSHOT] =
    g_param_spec_boolean ("showing-snapshot", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[BACK] = g_signal_new ("back", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ADD_TO_COMPARE] = g_signal_new ("add-to-compare", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  signals[DUPLICATED] = g_signal_new ("duplicated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  signals[SAVED] = g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  g_type_ensure (QM_TYPE_ADVISOR_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/quartermaster/Quartermaster/qm-plan-view.ui");
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, header_bar);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, window_title);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, inputs_button);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, catalog_revealer);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, catalog_label);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, flap);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, inputs_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, plan_title);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, plan_subtitle);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, figures_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, charts_note);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, charts_box);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, bom_view);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, bom_totals);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, notes_group);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, notes_list);
  gtk_widget_class_bind_template_child (widget_class, QmPlanView, advisor_panel);

  gtk_widget_class_install_action (widget_class, "plan.back", NULL, action_back);
  gtk_widget_class_install_action (widget_class, "plan.undo", NULL, action_undo);
  gtk_widget_class_install_action (widget_class, "plan.redo", NULL, action_redo);
  gtk_widget_class_install_action (widget_class, "plan.toggle-inputs", NULL, action_toggle_inputs);
  gtk_widget_class_install_action (widget_class, "plan.rename", NULL, action_rename);
  gtk_widget_class_install_action (widget_class, "plan.duplicate", NULL, action_duplicate);
  gtk_widget_class_install_action (widget_class, "plan.export-pdf", NULL, action_export_pdf);
  gtk_widget_class_install_action (widget_class, "plan.print", NULL, action_print);
  gtk_widget_class_install_action (widget_class, "plan.export-csv", NULL, action_export_csv);
  gtk_widget_class_install_action (widget_class, "plan.export-plan", NULL, action_export_plan);
  gtk_widget_class_install_action (widget_class, "plan.add-to-compare", NULL, action_add_to_compare);
  gtk_widget_class_install_action (widget_class, "plan.recompute", NULL, action_recompute);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "plan.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "plan.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "plan.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "plan.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "plan.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "plan.toggle-inputs", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "plan.rename", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "plan.duplicate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "plan.export-pdf", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, GDK_CONTROL_MASK, "plan.print", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "planview");
}

static void
qm_plan_view_init (QmPlanView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->curves = g_new0 (QmPlanCurves, 1);
  self->figure_values = g_hash_table_new (g_str_hash, g_str_equal);
  self->figure_details = g_hash_table_new (g_str_hash, g_str_equal);
  self->figure_cards = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < G_N_ELEMENTS (figure_infos); i++)
    gtk_flow_box_append (self->figures_box,
                         capped_new (figure_card_new (self, &figure_infos[i]), FIGURE_CARD_NATURAL));
  build_charts (self);
  build_bom (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GtkWidget *
qm_plan_view_new (QmStore      *store,
                  QmPlanEditor *editor)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (editor), NULL);

  return g_object_new (QM_TYPE_PLAN_VIEW, "store", store, "editor", editor, NULL);
}

QmPlanEditor *
qm_plan_view_get_editor (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return self->editor;
}

QmStore *
qm_plan_view_get_store (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return self->store;
}

gboolean
qm_plan_view_save (QmPlanView  *self,
                   GError     **error)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return save_now (self, FALSE, error);
}

gboolean
qm_plan_view_get_showing_snapshot (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return self->snapshot != NULL;
}

gboolean
qm_plan_view_get_inputs_visible (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return adw_flap_get_reveal_flap (self->flap);
}

void
qm_plan_view_set_inputs_visible (QmPlanView *self,
                                 gboolean    visible)
{
  g_return_if_fail (QM_IS_PLAN_VIEW (self));
  adw_flap_set_reveal_flap (self->flap, visible);
}

GtkWidget *
qm_plan_view_get_input (QmPlanView *self,
                        const char *key)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return qm_plan_view_inputs_widget (self, key, FALSE);
}

GtkWidget *
qm_plan_view_get_input_row (QmPlanView *self,
                            const char *key)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  return qm_plan_view_inputs_widget (self, key, TRUE);
}

const char *
qm_plan_view_get_figure (QmPlanView *self,
                         const char *id)
{
  GtkWidget *label;

  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), NULL);
  label = g_hash_table_lookup (self->figure_values, id);
  return label != NULL ? gtk_label_get_label (GTK_LABEL (label)) : NULL;
}
