/* qm-plan-view-figures.c: the plan view's key figures, from the estimate
 * or from a saved snapshot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "qm-a11y.h"
#include "qm-catalog.h"
#include "qm-chart-widget.h"
#include "qm-estimate-json.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-plan-report.h"
#include "qm-plan.h"
#include "qm-plan-view-private.h"
#include "qm-print.h"
#include "qm-text.h"

/* ------------------------------------------------------------------ */
/* Key figures: from the estimate, or from a saved snapshot            */


/* The likely ranges as every view writes them (qm_estimate_band_format),
 * "" where @e has none. */
static void
figures_bands (const QmPlan      *p,
               const QmEstimate  *e,
               QmPlanViewFigures *f)
{
  static const struct
  {
    QmBandId band;
    gsize    offset;
  } bands[] = {
    { QM_BAND_MFU, G_STRUCT_OFFSET (QmPlanViewFigures, band_mfu) },
    { QM_BAND_TRAIN_DAYS, G_STRUCT_OFFSET (QmPlanViewFigures, band_days) },
    { QM_BAND_GPUS, G_STRUCT_OFFSET (QmPlanViewFigures, band_gpus) },
    { QM_BAND_TOKENS_PER_S_PER_GPU, G_STRUCT_OFFSET (QmPlanViewFigures, band_tokens) },
  };
  const QmBand *set[] = { &e->bands.mfu, &e->bands.train_days, &e->bands.gpus, &e->bands.tokens_per_s_per_gpu };
  g_autofree char *basis = e->valid ? qm_estimate_bands_basis (p, e) : NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bands); i++)
    {
      char *buf = G_STRUCT_MEMBER_P (f, bands[i].offset);

      buf[0] = '\0';
      if (e->valid && set[i]->set)
        qm_estimate_band_format (e, bands[i].band, buf, QM_FORMAT_BUF);
    }
  g_strlcpy (f->bands_basis, basis ? basis : "", sizeof f->bands_basis);
  f->deadline_confidence = f->deadline_error = NAN;
  if (e->valid && e->bands.has && p->workload.deadline_days > 0 && e->bands.deadline_error > 0)
    {
      f->deadline_confidence = e->bands.confidence;
      f->deadline_error = e->bands.deadline_error;
    }
}

void
qm_plan_view_figures_from_estimate (const QmPlan     *p,
                                    const QmEstimate *e,
                                    QmPlanViewFigures          *f)
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
  f->gpus_per_replica = e->has_inference ? e->inference.gpus_per_replica : NAN;
  f->idle_gpus = e->has_inference ? e->inference.idle_gpus : NAN;
  f->max_requests_per_s = e->has_inference && e->inference.fixed_fleet ? e->inference.max_requests_per_s : NAN;
  f->headroom = e->has_inference && e->inference.fixed_fleet ? e->inference.headroom : NAN;
  f->gpus_for_rate = e->has_inference && e->inference.fixed_fleet ? e->inference.gpus_for_rate : NAN;
  f->tokens_per_s_per_gpu = e->has_inference ? e->inference.tokens_per_s_per_gpu : NAN;
  figures_bands (p, e, f);
}

static JsonNode *
member_node (JsonObject *o,
             const char *member)
{
  return o != NULL && json_object_has_member (o, member) ? json_object_get_member (o, member) : NULL;
}

double
qm_plan_view_json_num (JsonObject *o,
                       const char *member)
{
  JsonNode *n = member_node (o, member);

  if (n != NULL && JSON_NODE_HOLDS_VALUE (n) && (json_node_get_value_type (n) == G_TYPE_DOUBLE ||
                                                 json_node_get_value_type (n) == G_TYPE_INT64))
    return json_node_get_double (n);
  return NAN;
}

JsonObject *
qm_plan_view_json_obj (JsonObject *o,
                       const char *member)
{
  JsonNode *n = member_node (o, member);

  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

const char *
qm_plan_view_json_str (JsonObject *o,
                       const char *member)
{
  JsonNode *n = member_node (o, member);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
         ? json_node_get_string (n) : NULL;
}

/* Where each number of the figures stands in an estimate's JSON
 * (qm-estimate-json.c): a member of the top level or of a section. */
#define FIG(member) G_STRUCT_OFFSET (QmPlanViewFigures, member)
static const struct
{
  const char *section;
  const char *member;
  gsize       offset;
} snapshot_numbers[] = {
  { NULL, "gpus", FIG (gpus) },
  { NULL, "nodes", FIG (nodes) },
  { NULL, "racks", FIG (racks) },
  { "cluster", "nodes_per_rack", FIG (nodes_per_rack) },
  { NULL, "ideal_days", FIG (ideal_days) },
  { NULL, "train_days", FIG (train_days) },
  { NULL, "mfu", FIG (mfu) },
  { "memory_bytes", "total", FIG (mem_total) },
  { "memory_bytes", "capacity", FIG (mem_capacity) },
  { "memory_bytes", "margin", FIG (mem_margin) },
  { "power_kw", "it_peak", FIG (it_peak_kw) },
  { "power_kw", "it_avg", FIG (it_avg_kw) },
  { "power_kw", "facility_peak", FIG (facility_peak_kw) },
  { "power_kw", "facility_avg", FIG (facility_avg_kw) },
  { NULL, "energy_mwh", FIG (energy_mwh) },
  { NULL, "electricity_usd", FIG (electricity_usd) },
  { NULL, "co2_tonnes", FIG (co2_tonnes) },
  { "cost_usd", "upfront", FIG (upfront) },
  { "cost_usd", "monthly", FIG (monthly) },
  { "cost_usd", "run", FIG (run) },
  { "cost_usd", "total", FIG (total) },
  { "cost_usd", "horizon_months", FIG (horizon_months) },
  { "reliability", "goodput", FIG (goodput) },
  { "reliability", "interruptions", FIG (interruptions) },
  { "inference", "replicas", FIG (replicas) },
  { "inference", "ttft_ms", FIG (ttft_ms) },
  { "inference", "tpot_ms", FIG (tpot_ms) },
  { "inference", "gpus_per_replica", FIG (gpus_per_replica) },
  { "inference", "idle_gpus", FIG (idle_gpus) },
  { "inference", "max_requests_per_s", FIG (max_requests_per_s) },
  { "inference", "headroom", FIG (headroom) },
  { "inference", "gpus_for_rate", FIG (gpus_for_rate) },
  { "inference", "tokens_per_s_per_gpu", FIG (tokens_per_s_per_gpu) },
  { "bands", "confidence", FIG (deadline_confidence) },
  { "bands", "deadline_error", FIG (deadline_error) },
};
#undef FIG

/* A saved estimate's likely ranges (absent before issue #36), written by
 * the one formatter through an estimate that holds only them; the basis
 * as the snapshot wrote it. */
static void
snapshot_bands (const QmPlan      *p,
                JsonObject        *bands,
                QmPlanViewFigures *f)
{
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  const char *basis = qm_plan_view_json_str (bands, "basis");
  QmBand *each[] = { &e->bands.mfu, &e->bands.train_days, &e->bands.gpus, &e->bands.tokens_per_s_per_gpu };
  static const char *members[] = { "mfu", "train_days", "gpus", "tokens_per_s_per_gpu" };
  char *bufs[] = { f->band_mfu, f->band_days, f->band_gpus, f->band_tokens };
  static const QmBandId ids[] = { QM_BAND_MFU, QM_BAND_TRAIN_DAYS, QM_BAND_GPUS, QM_BAND_TOKENS_PER_S_PER_GPU };

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      JsonObject *b = qm_plan_view_json_obj (bands, members[i]);

      each[i]->low = qm_plan_view_json_num (b, "low");
      each[i]->high = qm_plan_view_json_num (b, "high");
      each[i]->set = isfinite (each[i]->low) && isfinite (each[i]->high);
      bufs[i][0] = '\0';
      if (each[i]->set)
        qm_estimate_band_format (e, ids[i], bufs[i], QM_FORMAT_BUF);
    }
  g_strlcpy (f->bands_basis, basis ? basis : "", sizeof f->bands_basis);
  if (!(f->deadline_error > 0) || p->workload.deadline_days <= 0)
    f->deadline_confidence = f->deadline_error = NAN;
}

/* The snapshot may come from an older version: every key may be absent. */
void
qm_plan_view_figures_from_snapshot (const QmPlan      *p,
                                    JsonObject        *o,
                                    QmPlanViewFigures *f)
{
  JsonObject *cl = qm_plan_view_json_obj (o, "cluster");
  const char *mode = qm_plan_view_json_str (o, "mode");
  const char *pricing = qm_plan_view_json_str (qm_plan_view_json_obj (o, "cost_usd"), "pricing");
  JsonNode *fits = member_node (o, "fits");

  for (guint i = 0; i < G_N_ELEMENTS (snapshot_numbers); i++)
    {
      const char *section = snapshot_numbers[i].section;

      G_STRUCT_MEMBER (double, f, snapshot_numbers[i].offset) =
        qm_plan_view_json_num (section ? qm_plan_view_json_obj (o, section) : o, snapshot_numbers[i].member);
    }
  f->training = mode ? g_strcmp0 (mode, "inference") != 0 : p->workload.mode != QM_MODE_INFERENCE;
  f->liquid = cl != NULL && json_object_has_member (cl, "liquid_cooling") &&
              json_object_get_boolean_member_with_default (cl, "liquid_cooling", FALSE);
  f->mfu_source = qm_plan_view_json_str (o, "mfu_source");
  f->fits = fits && JSON_NODE_HOLDS_VALUE (fits) ? json_node_get_boolean (fits) : -1;
  f->buy = pricing ? g_strcmp0 (pricing, "buy") == 0 : p->pricing.mode == QM_PRICING_BUY;
  snapshot_bands (p, qm_plan_view_json_obj (o, "bands"), f);
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
  { "capacity", N_("Capacity") },
  { "throughput", N_("Tokens/s per GPU") },
  { "mfu",     N_("MFU") },
  { "memory",  N_("Memory per GPU") },
  { "power",   N_("Power") },
  { "energy",  N_("Energy") },
  { "cost",    N_("Cost") },
  { "co2",     N_("CO₂") },
  { "goodput", N_("Goodput") },
};


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

GtkWidget *
qm_plan_view_capped_new (GtkWidget *child,
                         int        natural_width)
{
  GtkWidget *cap = adw_bin_new ();

  gtk_widget_set_layout_manager (cap, gtk_custom_layout_new (NULL, cap_measure, cap_allocate));
  g_object_set_data (G_OBJECT (cap), "qm-cap", GINT_TO_POINTER (natural_width));
  adw_bin_set_child (ADW_BIN (cap), child);
  return cap;
}

/* A figure's card (its look in qm-plan-view-figure.ui), capped in width. */
static GtkWidget *
figure_card_new (QmPlanView       *self,
                 const FigureInfo *info)
{
  g_autoptr(GtkBuilder) builder = qm_gtk_builder_new ("qm-plan-view-figure.ui");
  GtkWidget *frame = GTK_WIDGET (gtk_builder_get_object (builder, "frame"));

  gtk_label_set_label (GTK_LABEL (gtk_builder_get_object (builder, "title")), _(info->title));
  gtk_accessible_update_property (GTK_ACCESSIBLE (frame), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _(info->title), -1);

  g_hash_table_insert (self->figure_values, (gpointer) info->id, gtk_builder_get_object (builder, "value"));
  g_hash_table_insert (self->figure_details, (gpointer) info->id, gtk_builder_get_object (builder, "detail"));
  g_hash_table_insert (self->figure_bands, (gpointer) info->id, gtk_builder_get_object (builder, "band"));
  g_hash_table_insert (self->figure_cards, (gpointer) info->id, gtk_builder_get_object (builder, "card"));
  /* Wrapped while the builder still holds the frame. */
  return qm_plan_view_capped_new (frame, FIGURE_CARD_NATURAL);
}

/* Fills card @id: its @value, its likely range @band (issue #36; NULL or
 * "" for none) and its @detail, read as one by a screen reader. */
static void
set_figure_full (QmPlanView *self,
                 const char *id,
                 const char *title,
                 const char *value,
                 const char *band,
                 const char *detail,
                 gboolean    problem)
{
  GtkWidget *card = g_hash_table_lookup (self->figure_cards, id);
  GtkWidget *value_label = g_hash_table_lookup (self->figure_values, id);
  GtkWidget *band_label = g_hash_table_lookup (self->figure_bands, id);
  GtkWidget *detail_label = g_hash_table_lookup (self->figure_details, id);
  GtkWidget *title_box = gtk_widget_get_first_child (card);
  GtkWidget *title_label = gtk_widget_get_first_child (title_box);
  GtkWidget *icon = gtk_widget_get_last_child (title_box);
  g_autofree char *a11y = NULL;

  if (title != NULL)
    gtk_label_set_label (GTK_LABEL (title_label), title);
  gtk_label_set_label (GTK_LABEL (value_label), value);
  gtk_label_set_label (GTK_LABEL (band_label), band ? band : "");
  gtk_widget_set_visible (band_label, band != NULL && band[0] != '\0');
  gtk_label_set_label (GTK_LABEL (detail_label), detail ? detail : "");
  gtk_widget_set_visible (detail_label, detail != NULL && detail[0] != '\0');
  gtk_widget_set_visible (icon, problem);
  if (problem)
    gtk_widget_add_css_class (value_label, "error");
  else
    gtk_widget_remove_css_class (value_label, "error");
  gtk_widget_set_tooltip_text (value_label, NULL);

  a11y = g_strdup_printf ("%s: %s%s%s%s%s%s", gtk_label_get_label (GTK_LABEL (title_label)),
                          problem ? _("problem: ") : "", value,
                          band && band[0] ? ", " : "", band ? band : "",
                          detail && detail[0] ? ". " : "", detail ? detail : "");
  /* The card (and its flow box child) reads as one labelled figure. */
  qm_a11y_label (gtk_widget_get_parent (card), a11y);
  qm_a11y_label (gtk_widget_get_ancestor (card, GTK_TYPE_FLOW_BOX_CHILD), a11y);
  gtk_widget_set_visible (gtk_widget_get_ancestor (card, GTK_TYPE_FLOW_BOX_CHILD), TRUE);
}

static void
set_figure (QmPlanView *self,
            const char *id,
            const char *title,
            const char *value,
            const char *detail,
            gboolean    problem)
{
  set_figure_full (self, id, title, value, NULL, detail, problem);
}

static void
hide_figure (QmPlanView *self,
             const char *id)
{
  GtkWidget *card = g_hash_table_lookup (self->figure_cards, id);

  gtk_widget_set_visible (gtk_widget_get_ancestor (card, GTK_TYPE_FLOW_BOX_CHILD), FALSE);
}


static const char *
num_or_dash (char *buf, gsize size, double v, int decimals)
{
  return isfinite (v) ? qm_format_number (buf, size, v, decimals) : "–";
}

/* GPUs, nodes, racks. */
static void
update_cluster (QmPlanView              *self,
                const QmPlan            *p,
                const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF];
  g_autofree char *gpus = NULL;
  g_autofree char *racks = NULL;
  g_autofree char *band = NULL;

  gpus = g_strdup_printf (_("%s, %u per node"),
                          p->hardware.gpu.info.name ? p->hardware.gpu.info.name : p->gpu_id,
                          p->hardware.server.gpus);
  /* Serving: GPUs rented that no replica uses are said (issue 31). */
  if (!f->training && isfinite (f->idle_gpus) && f->idle_gpus > 0)
    {
      g_autofree char *with_spare = g_strdup_printf (_("%s; %s serve no replica"), gpus,
                                                     num_or_dash (b, sizeof b, f->idle_gpus, 0));

      g_free (gpus);
      gpus = g_steal_pointer (&with_spare);
    }
  if (f->band_gpus[0] != '\0')
    /* Translators: %s is a range of GPU counts such as "75–100": the GPUs
     * the same training run (or, below, serving load) likely needs. */
    band = g_strdup_printf (f->training ? _("Likely %s for the same work") : _("Likely %s for the same load"),
                            f->band_gpus);
  set_figure_full (self, "gpus", NULL, num_or_dash (a, sizeof a, f->gpus, 0), band, gpus, FALSE);
  set_figure (self, "nodes", NULL, num_or_dash (a, sizeof a, f->nodes, 0),
              p->hardware.server.info.name ? p->hardware.server.info.name : p->server_id, FALSE);
  if (isfinite (f->nodes_per_rack))
    racks = g_strdup_printf (f->liquid ? _("Up to %s nodes per rack, liquid-cooled") : _("Up to %s nodes per rack"),
                             num_or_dash (b, sizeof b, f->nodes_per_rack, 0));
  set_figure (self, "racks", NULL, num_or_dash (a, sizeof a, f->racks, 0), racks, FALSE);
}

/* Time to train, or the serving figures; and where the MFU came from. */
static void
update_time (QmPlanView              *self,
             const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];
  g_autofree char *detail = NULL;
  g_autofree char *value = NULL;

  if (f->training)
    {
      g_autofree char *band = NULL;

      detail = isfinite (f->ideal_days)
               ? g_strdup_printf (_("With failures; %s without"), FMT (b, qm_format_days, f->ideal_days))
               : NULL;
      if (f->band_days[0] != '\0')
        /* Translators: %s is a range of days such as "23.8–31.5". */
        band = g_strdup_printf (_("Likely %s days"), f->band_days);
      set_figure_full (self, "time", _("Time to Train"),
                       isfinite (f->train_days) ? FMT (a, qm_format_days, f->train_days) : "–", band, detail,
                       FALSE);
    }
  else
    {
      char d[QM_FORMAT_BUF];

      /* A snapshot from before issue 31 has no replica size. */
      if (isfinite (f->gpus_per_replica))
        /* Translators: replicas of (a number of) GPUs each, then two latencies. */
        detail = g_strdup_printf (ngettext ("Of %s GPU each; %s ms to the first token, %s ms per token",
                                            "Of %s GPUs each; %s ms to the first token, %s ms per token",
                                            (unsigned long) MAX (f->gpus_per_replica, 0.0)),
                                  num_or_dash (d, sizeof d, f->gpus_per_replica, 0),
                                  num_or_dash (b, sizeof b, f->ttft_ms, 0),
                                  num_or_dash (c, sizeof c, f->tpot_ms, 1));
      else
        detail = g_strdup_printf (_("%s ms to the first token, %s ms per token"),
                                  num_or_dash (b, sizeof b, f->ttft_ms, 0),
                                  num_or_dash (c, sizeof c, f->tpot_ms, 1));
      value = g_strdup_printf (ngettext ("%s replica", "%s replicas",
                                         isfinite (f->replicas) ? (unsigned long) MAX (f->replicas, 0.0) : 2),
                               num_or_dash (a, sizeof a, f->replicas, 0));
      set_figure (self, "time", _("Serving"), value, detail, FALSE);
    }
}

/* What a plan's own GPUs hold (issue 31): the highest request rate within
 * the p99 targets, in requests a minute as the plan gives its rate, and
 * the plan's rate against it. Hidden for training and for a fleet sized
 * for its rate. */
static void
update_capacity (QmPlanView              *self,
                 const QmPlan            *p,
                 const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];
  g_autofree char *detail = NULL;
  g_autofree char *value = NULL;
  double rpm = p->workload.inference.requests_per_minute;

  if (f->training || !isfinite (f->max_requests_per_s))
    {
      hide_figure (self, "capacity");
      return;
    }
  /* Translators: requests a minute, short to fit a key figure's card. */
  value = g_strdup_printf (_("%s/min"), FMT (a, qm_format_number, f->max_requests_per_s * 60.0, 0));
  if (isfinite (f->headroom) && f->headroom >= 0)
    /* Translators: a percentage, then the plan's requests a minute. */
    detail = g_strdup_printf (_("Requests within the p99 targets; %s%% headroom over the plan's %s"),
                              FMT (b, qm_format_number, 100.0 * f->headroom, 0),
                              FMT (c, qm_format_number, rpm, 0));
  else if (isfinite (f->headroom) && f->headroom > -1 && isfinite (f->gpus_for_rate) && f->gpus_for_rate > 0)
    /* Translators: the plan's requests a minute, a percentage, then a GPU count. */
    detail = g_strdup_printf (_("Requests within the p99 targets; the plan's %s are %s%% more: %s GPUs would hold them"),
                              FMT (b, qm_format_number, rpm, 0),
                              FMT (c, qm_format_number, 100.0 * (-f->headroom / (1.0 + f->headroom)), 0),
                              num_or_dash (a, sizeof a, f->gpus_for_rate, 0));
  else
    detail = g_strdup (_("Requests a minute within the p99 targets"));
  set_figure (self, "capacity", NULL, value, detail, isfinite (f->headroom) && f->headroom < 0);
}

static void
update_mfu (QmPlanView              *self,
            const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF];
  g_autofree char *value = NULL;
  g_autofree char *band = NULL;
  const char *source;

  if (!f->training || !isfinite (f->mfu))
    {
      hide_figure (self, "mfu");
      return;
    }
  source = g_strcmp0 (f->mfu_source, "given") == 0 ? _("Given in the plan")
         : g_strcmp0 (f->mfu_source, "predicted") == 0 ? _("Predicted by the throughput model")
         : g_strcmp0 (f->mfu_source, "default") == 0 ? _("Default for this GPU family")
         : NULL;
  value = g_strdup_printf ("%s%%", qm_format_number (a, sizeof a, f->mfu * 100, 1));
  if (f->band_mfu[0] != '\0')
    /* Translators: %s is a range of percentages such as "40.7–54.0%". */
    band = g_strdup_printf (_("Likely %s"), f->band_mfu);
  set_figure_full (self, "mfu", NULL, value, band, source, FALSE);
}

/* Serving: output tokens/s per GPU and its likely range. */
static void
update_throughput (QmPlanView              *self,
                   const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF];
  g_autofree char *value = NULL;
  g_autofree char *band = NULL;

  if (f->training || !isfinite (f->tokens_per_s_per_gpu))
    {
      hide_figure (self, "throughput");
      return;
    }
  value = g_strdup (FMT (a, qm_format_number, f->tokens_per_s_per_gpu, 0));
  if (f->band_tokens[0] != '\0')
    band = g_strdup_printf (_("Likely %s"), f->band_tokens);
  set_figure_full (self, "throughput", NULL, value, band, _("Output tokens at the plan's requests in flight"),
                   FALSE);
}

/* What the likely ranges rest on, under the cards; a plan that gives its
 * own MFU has none, and says why. */
static void
update_bands_basis (QmPlanView              *self,
                    const QmPlanViewFigures *f)
{
  g_autofree char *text = NULL;

  if (f->bands_basis[0] != '\0')
    {
      GString *s = g_string_new (NULL);
      char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF];

      /* Translators: %s says what the ranges rest on, such as "17
       * published runs on H100-class GPUs, 3D parallel, 4–16,384 GPUs". */
      g_string_printf (s, _("Likely ranges (p10–p90) from the validation: %s."), f->bands_basis);
      if (isfinite (f->deadline_confidence) && f->deadline_error > 0)
        /* Translators: the deadline's confidence ("90"), then the error
         * the GPUs were sized at ("13.0"). */
        g_string_append_printf (s, _(" The deadline is met with %s%% confidence: sized for a run %s%% slower than estimated."),
                                FMT (a, qm_format_number, 100.0 * f->deadline_confidence, 0),
                                FMT (b, qm_format_number, 100.0 * f->deadline_error, 1));
      text = g_string_free (s, FALSE);
    }
  else if (f->training && g_strcmp0 (f->mfu_source, "given") == 0)
    text = g_strdup (_("No likely ranges: the plan gives its own MFU, which no validation measures."));
  gtk_label_set_label (self->bands_basis, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->bands_basis), text != NULL);
}

/* Memory: fits or not, with the margin. */
static void
update_memory (QmPlanView              *self,
               const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];
  g_autofree char *detail = NULL;

  if (!isfinite (f->mem_total))
    {
      set_figure (self, "memory", NULL, "–", NULL, FALSE);
      return;
    }
  if (f->fits == 0)
    detail = g_strdup_printf (_("Does not fit in %s: %s over"),
                              FMT (b, qm_format_bytes, f->mem_capacity, QM_BYTES_GB),
                              FMT (c, qm_format_bytes, -f->mem_margin, QM_BYTES_GB));
  else if (isfinite (f->mem_capacity))
    {
      char d[QM_FORMAT_BUF];

      /* The capacity as the driver reports it, in GB, and in GiB beside
       * it: an "80GB" H100 holds 85.5 GB, which is 79.6 GiB, the binary
       * gigabytes its name counts (issue #35 item 8). */
      /* Translators: "Fits in 85.5 GB (79.6 GiB) with 12.3 GB to spare" */
      detail = g_strdup_printf (_("Fits in %s (%s) with %s to spare"),
                                FMT (b, qm_format_bytes, f->mem_capacity, QM_BYTES_GB),
                                FMT (d, qm_format_bytes, f->mem_capacity, QM_BYTES_GIB),
                                FMT (c, qm_format_bytes, f->mem_margin, QM_BYTES_GB));
    }
  set_figure (self, "memory", NULL, FMT (a, qm_format_bytes, f->mem_total, QM_BYTES_GB),
              detail, f->fits == 0);
}

/* Power, energy, CO2. */
static void
update_power (QmPlanView              *self,
              const QmPlan            *p,
              const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];
  g_autofree char *power = NULL;
  g_autofree char *electricity = NULL;
  g_autofree char *energy = NULL;
  g_autofree char *grid = NULL;
  g_autofree char *co2 = NULL;

  if (isfinite (f->facility_peak_kw))
    power = g_strdup_printf (_("Facility peak; IT %s peak, %s average"),
                             FMT (b, qm_format_si, f->it_peak_kw * 1e3, "W"),
                             FMT (c, qm_format_si, f->it_avg_kw * 1e3, "W"));
  set_figure (self, "power", NULL,
              isfinite (f->facility_peak_kw) ? FMT (a, qm_format_si, f->facility_peak_kw * 1e3, "W") : "–",
              power, FALSE);

  if (isfinite (f->electricity_usd))
    electricity = g_strdup_printf (f->training ? _("Electricity for the run: %s") : _("Electricity per month: %s"),
                                   FMT (b, qm_format_money, f->electricity_usd, p->pricing.currency));
  energy = g_strdup (qm_format_energy (a, sizeof a, f->energy_mwh));
  set_figure (self, "energy", NULL, energy, electricity, FALSE);

  grid = g_strdup_printf (_("At %s g/kWh from the grid"),
                          qm_format_number (b, sizeof b, p->facility.gco2_per_kwh, 0));
  co2 = g_strdup (qm_format_tonnes (a, sizeof a, f->co2_tonnes));
  set_figure (self, "co2", NULL, co2, grid, FALSE);
}

/* Cost: buying shows the total of ownership, renting the run. */
static void
update_cost (QmPlanView              *self,
             const QmPlan            *p,
             const QmPlanViewFigures *f)
{
  const char *cur = p->pricing.currency;
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF], d[QM_FORMAT_BUF];
  g_autofree char *detail = NULL;

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
}

static void
update_goodput (QmPlanView              *self,
                const QmPlanViewFigures *f)
{
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF];
  g_autofree char *detail = NULL;
  g_autofree char *value = NULL;

  if (!f->training || !isfinite (f->goodput))
    {
      hide_figure (self, "goodput");
      return;
    }
  detail = g_strdup_printf (_("%s interruptions expected"), num_or_dash (b, sizeof b, f->interruptions, 0));
  value = g_strdup_printf ("%s%%", qm_format_number (a, sizeof a, f->goodput * 100, 1));
  set_figure (self, "goodput", NULL, value, detail, FALSE);
}

void
qm_plan_view_update_figures (QmPlanView              *self,
                             const QmPlanViewFigures *f)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);

  update_cluster (self, p, f);
  update_time (self, f);
  update_capacity (self, p, f);
  update_throughput (self, f);
  update_mfu (self, f);
  update_memory (self, f);
  update_power (self, p, f);
  update_cost (self, p, f);
  update_goodput (self, f);
  update_bands_basis (self, f);
}

/* One card for each key figure, in their order on the page. */
void
qm_plan_view_add_figure_cards (QmPlanView *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (figure_infos); i++)
    gtk_flow_box_append (self->figures_box,
                         figure_card_new (self, &figure_infos[i]));
}
