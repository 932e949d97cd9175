/* qm-compare-page.c: 2-4 saved plans side by side: every key figure and
 * input in a table with the better value marked by a check mark and bold
 * type (not colour alone), a "lower is better" choice per metric, a
 * "show only differences" switch, and the comparison charts at one scale.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "qm-chart-compare.h"
#include "qm-chart-vram.h"
#include "qm-chart-widget.h"
#include "qm-compare-page.h"
#include "qm-estimate.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-list-page.h"
#include "qm-plan-report.h"
#include "qm-plan-store.h"
#include "qm-print.h"

typedef struct
{
  gint64      id;
  char       *name;
  QmPlan      plan;
  QmEstimate *estimate;
} Entry;

typedef enum
{
  METRIC_TEXT,
  METRIC_NUMBER,
} MetricKind;

typedef struct
{
  const char *id;
  const char *label;
  MetricKind  kind;
  gboolean    lower_is_better;   /* default */
  /* Fills @buf with the shown text; returns the value compared (NaN for
   * text rows and missing values). */
  double    (*get) (const Entry *e, char *buf, gsize size);
  /* A line under the row's label, or NULL: what the values cover. */
  char     *(*caption) (GArray *entries);
} Metric;

struct _QmComparePage
{
  AdwBin          parent_instance;

  QmStore        *store;
  GArray         *entries;        /* Entry */
  gboolean       *lower;          /* per metric */
  GHashTable     *cells;          /* "metric/plan" → GtkLabel */

  GtkStack       *stack;
  GtkMenuButton  *add_button;
  GtkMenuButton  *empty_add_button;
  GtkFlowBox     *chips;
  GtkGrid        *table;
  GtkSwitch      *differences_switch;
  QmChartWidget  *compare_chart;
  QmChartWidget  *vram_chart;
};

G_DEFINE_FINAL_TYPE (QmComparePage, qm_compare_page, ADW_TYPE_BIN)

/* Metric getters. */

#define FMT_NUMBER(v, d) (qm_format_number (buf, size, (v), (d)), (v))

static double get_model (const Entry *e, char *buf, gsize size)
{ g_strlcpy (buf, e->plan.workload.preset[0] ? e->plan.workload.preset : _("custom shape"), size); return NAN; }
static double get_gpu (const Entry *e, char *buf, gsize size)
{ g_strlcpy (buf, e->plan.hardware.gpu.info.name ? e->plan.hardware.gpu.info.name : e->plan.gpu_id, size); return NAN; }
static double get_server (const Entry *e, char *buf, gsize size)
{ g_strlcpy (buf, e->plan.hardware.server.info.name ? e->plan.hardware.server.info.name : e->plan.server_id, size); return NAN; }
static double get_pricing (const Entry *e, char *buf, gsize size)
{
  g_strlcpy (buf, e->plan.pricing.mode == QM_PRICING_BUY ? _("Buy")
                  : e->plan.pricing.mode == QM_PRICING_RENT_RESERVED ? _("Rent, reserved") : _("Rent, on demand"), size);
  return NAN;
}
static double get_tokens (const Entry *e, char *buf, gsize size)
{
  /* An input, not a figure of merit: shown, never marked best. */
  if (e->estimate->has_training)
    qm_format_si (buf, size, e->estimate->tokens, "");
  else
    g_strlcpy (buf, "–", size);
  return NAN;
}
static double get_gpus (const Entry *e, char *buf, gsize size) { return FMT_NUMBER (e->estimate->gpus, 0); }
static double get_nodes (const Entry *e, char *buf, gsize size) { return FMT_NUMBER (e->estimate->cluster.nodes, 0); }
static double get_racks (const Entry *e, char *buf, gsize size) { return FMT_NUMBER (e->estimate->cluster.racks, 0); }
static double get_days (const Entry *e, char *buf, gsize size)
{ return e->estimate->has_training ? (qm_format_days (buf, size, e->estimate->train_days), e->estimate->train_days) : (g_strlcpy (buf, "–", size), NAN); }
static double get_ideal (const Entry *e, char *buf, gsize size)
{ return e->estimate->has_training ? (qm_format_days (buf, size, e->estimate->ideal_days), e->estimate->ideal_days) : (g_strlcpy (buf, "–", size), NAN); }
static double get_mfu (const Entry *e, char *buf, gsize size)
{ g_snprintf (buf, size, "%.1f%%", e->estimate->mfu * 100.0); return e->estimate->mfu; }
static double get_memory (const Entry *e, char *buf, gsize size)
{
  char a[QM_FORMAT_BUF];
  g_snprintf (buf, size, "%s%s", qm_format_bytes (a, sizeof a, e->estimate->memory.total, QM_BYTES_GB),
              e->estimate->memory.fits ? "" : _(" (does not fit)"));
  return e->estimate->memory.total;
}
static double get_facility_kw (const Entry *e, char *buf, gsize size)
{ qm_format_si (buf, size, e->estimate->power.facility_peak_kw * 1e3, "W"); return e->estimate->power.facility_peak_kw; }
static double get_energy (const Entry *e, char *buf, gsize size)
{ qm_format_energy (buf, size, e->estimate->power.energy_mwh); return e->estimate->power.energy_mwh; }
static double get_co2 (const Entry *e, char *buf, gsize size)
{ qm_format_tonnes (buf, size, e->estimate->power.co2_tonnes); return e->estimate->power.co2_tonnes; }
static double get_upfront (const Entry *e, char *buf, gsize size)
{ qm_format_money (buf, size, e->estimate->cost.upfront, e->plan.pricing.currency); return e->estimate->cost.upfront; }
static double get_monthly (const Entry *e, char *buf, gsize size)
{ qm_format_money (buf, size, e->estimate->cost.monthly, e->plan.pricing.currency); return e->estimate->cost.monthly; }
static double get_run (const Entry *e, char *buf, gsize size)
{ qm_format_money (buf, size, e->estimate->cost.run, e->plan.pricing.currency); return e->estimate->cost.run; }
static double get_total (const Entry *e, char *buf, gsize size)
{ qm_format_money (buf, size, e->estimate->cost.total, e->plan.pricing.currency); return e->estimate->cost.total; }
/* The total covers each plan's horizon (rent or own alike): say how long,
 * as the comparison PDF does, or a five-hour rental reads as $500,000.
 * Under the label rather than in the cells, which a narrow window has no
 * room to widen. */
static char *
total_caption (GArray *entries)
{
  double months = entries->len > 0 ? g_array_index (entries, Entry, 0).estimate->cost.horizon_months : NAN;
  char m[QM_FORMAT_BUF];

  if (!isfinite (months) || months < 0)
    return NULL;
  for (guint p = 1; p < entries->len; p++)
    if (g_array_index (entries, Entry, p).estimate->cost.horizon_months != months)
      return g_strdup (_("over each plan's horizon"));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "over %s month", "over %s months",
                                       (gulong) round (months)),
                          qm_format_number (m, sizeof m, months, 0));
}
static double get_goodput (const Entry *e, char *buf, gsize size)
{
  if (!e->estimate->has_reliability)
    return g_strlcpy (buf, "–", size), NAN;
  g_snprintf (buf, size, "%.1f%%", e->estimate->reliability.goodput * 100.0);
  return e->estimate->reliability.goodput;
}

static const Metric metrics[] = {
  { "model",      N_("Model"),                METRIC_TEXT,   TRUE,  get_model },
  { "tokens",     N_("Training tokens"),      METRIC_TEXT,   TRUE,  get_tokens },
  { "gpu",        N_("GPU"),                  METRIC_TEXT,   TRUE,  get_gpu },
  { "server",     N_("Server"),               METRIC_TEXT,   TRUE,  get_server },
  { "pricing",    N_("Pricing"),              METRIC_TEXT,   TRUE,  get_pricing },
  { "gpus",       N_("GPUs"),                 METRIC_NUMBER, TRUE,  get_gpus },
  { "nodes",      N_("Nodes"),                METRIC_NUMBER, TRUE,  get_nodes },
  { "racks",      N_("Racks"),                METRIC_NUMBER, TRUE,  get_racks },
  { "days",       N_("Time with failures"),   METRIC_NUMBER, TRUE,  get_days },
  { "ideal",      N_("Time without failures"),METRIC_NUMBER, TRUE,  get_ideal },
  { "mfu",        N_("MFU"),                  METRIC_NUMBER, FALSE, get_mfu },
  { "memory",     N_("Memory per GPU"),       METRIC_NUMBER, TRUE,  get_memory },
  { "power",      N_("Facility power"),       METRIC_NUMBER, TRUE,  get_facility_kw },
  { "energy",     N_("Energy"),               METRIC_NUMBER, TRUE,  get_energy },
  { "co2",        N_("CO₂e"),                 METRIC_NUMBER, TRUE,  get_co2 },
  { "upfront",    N_("Upfront cost"),         METRIC_NUMBER, TRUE,  get_upfront },
  { "monthly",    N_("Monthly cost"),         METRIC_NUMBER, TRUE,  get_monthly },
  { "run",        N_("Cost of the run"),      METRIC_NUMBER, TRUE,  get_run },
  { "total",      N_("Total cost"),           METRIC_NUMBER, TRUE,  get_total, total_caption },
  { "goodput",    N_("Goodput"),              METRIC_NUMBER, FALSE, get_goodput },
};

static int
metric_index (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (g_str_equal (metrics[i].id, id))
      return (int) i;
  return -1;
}

static void
entry_clear (gpointer data)
{
  Entry *e = data;

  g_free (e->name);
  g_free (e->estimate);
}

/* Charts: the comparison and the memory of every plan on one axis, drawn
 * by one function from the same entries; ChartData says which. */

G_STATIC_ASSERT (QM_COMPARE_PAGE_MAX_PLANS <= QM_COMPARE_MAX_PLANS);

typedef struct
{
  QmComparePage *page;   /* not owned: the chart is the page's child */
  gboolean       vram;
} ChartData;

static ChartData *
chart_data_new (QmComparePage *page,
                gboolean       vram)
{
  ChartData *d = g_new0 (ChartData, 1);

  d->page = page;
  d->vram = vram;
  return d;
}

static void
draw_chart (const QmChartFrame *frame,
            gpointer            user_data)
{
  const ChartData *d = user_data;
  GArray *entries = d->page->entries;
  QmCompareItem items[QM_COMPARE_PAGE_MAX_PLANS];
  QmMemoryBreakdown bars[QM_COMPARE_PAGE_MAX_PLANS];
  const char *labels[QM_COMPARE_PAGE_MAX_PLANS];
  guint n = MIN (entries->len, QM_COMPARE_PAGE_MAX_PLANS);
  const char *currency = "USD";

  for (guint i = 0; i < n; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);

      items[i] = (QmCompareItem) {
        e->name, e->estimate->gpus, e->estimate->train_days, e->estimate->cost.total,
        e->estimate->power.facility_peak_kw, e->estimate->power.co2_tonnes,
      };
      currency = e->plan.pricing.currency;
      bars[i] = e->estimate->memory;
      labels[i] = e->name;
    }
  if (d->vram)
    qm_chart_render_vram (frame, bars, labels, n, QM_BYTES_GB, NULL);
  else
    qm_chart_render_compare (frame, items, n, currency, NULL);
}

/* The table. */

static void
clear_table (QmComparePage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->table))) != NULL)
    gtk_grid_remove (self->table, child);
  g_hash_table_remove_all (self->cells);
}

static void rebuild (QmComparePage *self);

static gboolean
rebuild_idle (gpointer user_data)
{
  rebuild (user_data);
  return G_SOURCE_REMOVE;
}

static void
lower_toggled (GtkToggleButton *button,
               QmComparePage   *self)
{
  int m = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "metric"));

  self->lower[m] = !gtk_toggle_button_get_active (button);
  /* Rebuild once the signal has returned: the rebuild destroys this button. */
  g_idle_add_full (G_PRIORITY_DEFAULT, rebuild_idle, g_object_ref (self), g_object_unref);
}

static void
rebuild_table (QmComparePage *self)
{
  gboolean only_differences = gtk_switch_get_active (self->differences_switch);
  guint n = self->entries->len;
  int row = 0;

  clear_table (self);

  /* Header: the plan names. */
  for (guint p = 0; p < n; p++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, p);
      GtkWidget *label = gtk_label_new (e->name);

      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
      gtk_widget_add_css_class (label, "heading");
      gtk_widget_set_hexpand (label, TRUE);
      gtk_grid_attach (self->table, label, 2 + p, row, 1, 1);
    }
  row++;

  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      char texts[QM_COMPARE_PAGE_MAX_PLANS][128];
      double values[QM_COMPARE_PAGE_MAX_PLANS];
      gboolean differ = FALSE;
      double best = NAN;
      GtkWidget *label;

      for (guint p = 0; p < n; p++)
        {
          const Entry *e = &g_array_index (self->entries, Entry, p);

          values[p] = metrics[m].get (e, texts[p], sizeof texts[p]);
          if (p > 0 && g_strcmp0 (texts[p], texts[0]) != 0)
            differ = TRUE;
          if (metrics[m].kind == METRIC_NUMBER && isfinite (values[p]))
            if (isnan (best) || (self->lower[m] ? values[p] < best : values[p] > best))
              best = values[p];
        }

      if (only_differences && !differ)
        continue;

      label = gtk_label_new (_(metrics[m].label));
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      /* Rows whose values differ stand out in weight too. */
      if (differ)
        gtk_widget_add_css_class (label, "heading");
      else
        gtk_widget_add_css_class (label, "dim-label");
      if (metrics[m].caption != NULL)
        {
          g_autofree char *text = metrics[m].caption (self->entries);
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
          GtkWidget *caption = gtk_label_new (text);

          gtk_label_set_xalign (GTK_LABEL (caption), 0.0);
          gtk_widget_add_css_class (caption, "caption");
          gtk_widget_add_css_class (caption, "dim-label");
          gtk_widget_set_visible (caption, text != NULL);
          gtk_box_append (GTK_BOX (box), label);
          gtk_box_append (GTK_BOX (box), caption);
          label = box;
        }
      gtk_grid_attach (self->table, label, 0, row, 1, 1);

      if (metrics[m].kind == METRIC_NUMBER)
        {
          GtkWidget *toggle = gtk_toggle_button_new ();

          gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), !self->lower[m]);
          gtk_button_set_icon_name (GTK_BUTTON (toggle),
                                    self->lower[m] ? "go-down-symbolic" : "go-up-symbolic");
          gtk_widget_set_tooltip_text (toggle, self->lower[m] ? _("Lower is better; click for higher")
                                                              : _("Higher is better; click for lower"));
          gtk_widget_add_css_class (toggle, "flat");
          gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
          g_object_set_data (G_OBJECT (toggle), "metric", GINT_TO_POINTER (m));
          g_signal_connect (toggle, "toggled", G_CALLBACK (lower_toggled), self);
          gtk_grid_attach (self->table, toggle, 1, row, 1, 1);
        }

      for (guint p = 0; p < n; p++)
        {
          gboolean is_best = differ && metrics[m].kind == METRIC_NUMBER && isfinite (values[p]) &&
                             values[p] == best;
          g_autofree char *text = is_best ? g_strdup_printf ("✓ %s", texts[p]) : g_strdup (texts[p]);
          GtkWidget *cell = gtk_label_new (text);

          gtk_label_set_xalign (GTK_LABEL (cell), 1.0);
          gtk_label_set_selectable (GTK_LABEL (cell), TRUE);
          gtk_widget_add_css_class (cell, "numeric");
          if (is_best)
            gtk_widget_add_css_class (cell, "heading");
          g_object_set_data (G_OBJECT (cell), "best", GINT_TO_POINTER (is_best));
          gtk_grid_attach (self->table, cell, 2 + p, row, 1, 1);
          g_hash_table_insert (self->cells, g_strdup_printf ("%s/%u", metrics[m].id, p), cell);
        }
      row++;
    }
}

static void
rebuild_chips (QmComparePage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->chips))) != NULL)
    gtk_flow_box_remove (self->chips, child);

  for (guint p = 0; p < self->entries->len; p++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, p);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new (e->name);
      GtkWidget *remove = gtk_button_new_from_icon_name ("window-close-symbolic");
      g_autofree char *tooltip = g_strdup_printf (_("Remove “%s” from the comparison"), e->name);

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
      gtk_widget_set_margin_start (label, 10);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_add_css_class (remove, "circular");
      gtk_widget_set_tooltip_text (remove, tooltip);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "compare.remove");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "x", e->id);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), remove);
      gtk_widget_add_css_class (box, "card");
      gtk_flow_box_append (self->chips, box);
    }
}

static void
rebuild (QmComparePage *self)
{
  g_autofree char *description = NULL;
  GString *desc = g_string_new (_("Comparison of "));

  gtk_stack_set_visible_child_name (self->stack, self->entries->len >= 2 ? "compare" : "empty");
  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button), self->entries->len < QM_COMPARE_PAGE_MAX_PLANS);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-pdf", self->entries->len >= 2);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.print", self->entries->len >= 2);
  rebuild_chips (self);
  rebuild_table (self);

  for (guint p = 0; p < self->entries->len; p++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, p);
      char days[QM_FORMAT_BUF], cost[QM_FORMAT_BUF];

      g_string_append_printf (desc, "%s%s: %u GPUs, %s, %s", p > 0 ? "; " : "", e->name, e->estimate->gpus,
                              qm_format_days (days, sizeof days, e->estimate->train_days),
                              qm_format_money (cost, sizeof cost, e->estimate->cost.total, e->plan.pricing.currency));
    }
  description = g_string_free (desc, FALSE);
  qm_chart_widget_set_description (self->compare_chart, description);
  qm_chart_widget_set_description (self->vram_chart, _("Memory per GPU of each plan, on one scale"));
  gtk_widget_queue_draw (GTK_WIDGET (self->compare_chart));
  gtk_widget_queue_draw (GTK_WIDGET (self->vram_chart));
}

/* Adding plans. */

static GMenuModel *
build_add_menu (QmComparePage *self)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GPtrArray) plans = NULL;

  if (self->store != NULL)
    plans = qm_plan_store_list (self->store, NULL, NULL);
  for (guint i = 0; plans != NULL && i < plans->len && i < 50; i++)
    {
      const QmPlanSummary *s = g_ptr_array_index (plans, i);
      gboolean present = FALSE;
      g_autoptr(GMenuItem) item = NULL;

      for (guint p = 0; p < self->entries->len; p++)
        present |= g_array_index (self->entries, Entry, p).id == s->id;
      if (present)
        continue;
      item = g_menu_item_new (s->name, NULL);
      g_menu_item_set_action_and_target_value (item, "compare.add", g_variant_new_int64 (s->id));
      g_menu_append_item (menu, item);
    }
  if (g_menu_model_get_n_items (G_MENU_MODEL (menu)) == 0)
    g_menu_append (menu, _("No other saved plans"), "compare.none");
  return G_MENU_MODEL (menu);
}

static void
create_add_popup (GtkMenuButton *button,
                  gpointer       user_data)
{
  g_autoptr(GMenuModel) model = build_add_menu (user_data);

  gtk_menu_button_set_menu_model (button, model);
}

static gboolean
load_entry (QmComparePage *self,
            gint64         id,
            Entry         *out,
            GError       **error)
{
  g_autoptr(QmSavedPlan) saved = NULL;

  if (self->store == NULL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND, _("No database is open"));
      return FALSE;
    }
  saved = qm_plan_store_load (self->store, id, error);
  if (saved == NULL || !qm_plan_store_read_plan (self->store, saved->inputs, &out->plan, NULL, error))
    return FALSE;

  out->id = id;
  out->name = g_strdup (saved->name != NULL && saved->name[0] ? saved->name : out->plan.name);
  out->estimate = g_new0 (QmEstimate, 1);
  qm_estimate (&out->plan, out->estimate);
  return TRUE;
}

gboolean
qm_compare_page_add_plan (QmComparePage *self,
                          gint64         id)
{
  g_autoptr(GError) error = NULL;
  Entry entry = { 0 };

  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), FALSE);

  if (self->entries->len >= QM_COMPARE_PAGE_MAX_PLANS)
    return FALSE;
  for (guint p = 0; p < self->entries->len; p++)
    if (g_array_index (self->entries, Entry, p).id == id)
      return TRUE;
  if (!load_entry (self, id, &entry, &error))
    {
      g_warning ("Could not compare plan %" G_GINT64_FORMAT ": %s", id, error->message);
      return FALSE;
    }
  g_array_append_val (self->entries, entry);
  rebuild (self);
  return TRUE;
}

void
qm_compare_page_set_plans (QmComparePage *self,
                           const gint64  *ids,
                           guint          n)
{
  g_return_if_fail (QM_IS_COMPARE_PAGE (self));

  g_array_set_size (self->entries, 0);
  for (guint i = 0; i < n && self->entries->len < QM_COMPARE_PAGE_MAX_PLANS; i++)
    {
      g_autoptr(GError) error = NULL;
      Entry entry = { 0 };

      if (load_entry (self, ids[i], &entry, &error))
        g_array_append_val (self->entries, entry);
      else
        g_warning ("Could not compare plan %" G_GINT64_FORMAT ": %s", ids[i], error->message);
    }
  rebuild (self);
}

guint
qm_compare_page_get_n_plans (QmComparePage *self)
{
  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), 0);
  return self->entries->len;
}

const char *
qm_compare_page_get_cell (QmComparePage *self,
                          const char    *metric,
                          guint          plan,
                          gboolean      *best)
{
  g_autofree char *key = g_strdup_printf ("%s/%u", metric, plan);
  GtkLabel *cell = g_hash_table_lookup (self->cells, key);

  if (cell == NULL)
    return NULL;
  if (best != NULL)
    *best = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (cell), "best"));
  return gtk_label_get_text (cell);
}

void
qm_compare_page_set_lower_is_better (QmComparePage *self,
                                     const char    *metric,
                                     gboolean       lower)
{
  int m = metric_index (metric);

  g_return_if_fail (m >= 0);
  self->lower[m] = lower;
  rebuild (self);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  qm_compare_page_add_plan (QM_COMPARE_PAGE (widget), g_variant_get_int64 (param));
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  QmComparePage *self = QM_COMPARE_PAGE (widget);
  gint64 id = g_variant_get_int64 (param);

  for (guint p = 0; p < self->entries->len; p++)
    if (g_array_index (self->entries, Entry, p).id == id)
      {
        g_array_remove_index (self->entries, p);
        break;
      }
  rebuild (self);
}

/* The comparison as a document: the same pages for PDF and print. */
static QmDocument *
build_report (QmComparePage *self,
              QmPaper       *paper)
{
  QmPlan plans[QM_COMPARE_PAGE_MAX_PLANS];
  g_autofree QmEstimate *estimates = g_new0 (QmEstimate, QM_COMPARE_PAGE_MAX_PLANS);
  QmPlanReportInfo info;
  guint n = MIN (self->entries->len, QM_COMPARE_PAGE_MAX_PLANS);

  for (guint i = 0; i < n; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);

      plans[i] = e->plan;
      estimates[i] = *e->estimate;
    }
  qm_plan_report_info_init (&info);
  *paper = info.paper;
  /* The report copies what it needs. */
  return qm_compare_report_new (plans, estimates, n, &info);
}

gboolean
qm_compare_page_export_pdf (QmComparePage  *self,
                            const char     *path,
                            GError        **error)
{
  g_autoptr(QmDocument) doc = NULL;
  QmPaper paper;

  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), FALSE);

  if (self->entries->len < 2)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Add at least two plans to compare"));
      return FALSE;
    }
  doc = build_report (self, &paper);
  return qm_document_write_pdf (doc, path, error);
}

gboolean
qm_compare_page_print (QmComparePage  *self,
                       const char     *export_path,
                       GError        **error)
{
  QmPaper paper;
  QmDocument *doc;

  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), FALSE);

  if (self->entries->len < 2)
    return TRUE;
  doc = build_report (self, &paper);
  return qm_print_document (GTK_WIDGET (self), doc, paper, _("Plan comparison"), export_path, error);
}

static void
export_to_file (GtkWidget *page,
                GFile     *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;

  if (path == NULL || !qm_compare_page_export_pdf (QM_COMPARE_PAGE (page), path, &error))
    {
      if (error == NULL)
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Choose a local file"));
      qm_list_page_show_error (page, _("Could Not Export the Comparison"), error->message);
    }
}

static void
export_pdf_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  g_autoptr(GtkFileFilter) filter = qm_list_page_file_filter_new (_("PDF documents"), NULL, "pdf");

  qm_list_page_choose_file (widget, _("Export Comparison"), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                            filter, _("Plan comparison.pdf"), export_to_file);
}

static void
print_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  g_autoptr(GError) error = NULL;

  if (!qm_compare_page_print (QM_COMPARE_PAGE (widget), NULL, &error))
    qm_list_page_show_error (widget, _("Could Not Print the Comparison"), error->message);
}

static void
qm_compare_page_dispose (GObject *object)
{
  QmComparePage *self = QM_COMPARE_PAGE (object);

  /* AdwBin unparents its child itself; let the template only drop its
   * references, so the child is not unparented twice. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_COMPARE_PAGE);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->cells, g_hash_table_unref);
  g_clear_pointer (&self->lower, g_free);

  G_OBJECT_CLASS (qm_compare_page_parent_class)->dispose (object);
}

static void
qm_compare_page_class_init (QmComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_compare_page_dispose;

  g_type_ensure (QM_TYPE_CHART_WIDGET);
  qm_gtk_class_set_template (widget_class, "qm-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, stack);
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, add_button);
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, empty_add_button);
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, chips);
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, table);
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, differences_switch);
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, compare_chart);
  gtk_widget_class_bind_template_child (widget_class, QmComparePage, vram_chart);

  gtk_widget_class_install_action (widget_class, "compare.add", "x", add_action);
  gtk_widget_class_install_action (widget_class, "compare.remove", "x", remove_action);
  gtk_widget_class_install_action (widget_class, "compare.export-pdf", NULL, export_pdf_action);
  gtk_widget_class_install_action (widget_class, "compare.print", NULL, print_action);
}

static void
qm_compare_page_init (QmComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
  self->cells = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->lower = g_new0 (gboolean, G_N_ELEMENTS (metrics));
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    self->lower[m] = metrics[m].lower_is_better;

  gtk_menu_button_set_create_popup_func (self->add_button, create_add_popup, self, NULL);
  gtk_menu_button_set_create_popup_func (self->empty_add_button, create_add_popup, self, NULL);
  g_signal_connect_swapped (self->differences_switch, "notify::active", G_CALLBACK (rebuild_table), self);
  qm_chart_widget_set_draw_func (self->compare_chart, draw_chart, NULL, chart_data_new (self, FALSE), g_free);
  qm_chart_widget_set_draw_func (self->vram_chart, draw_chart, NULL, chart_data_new (self, TRUE), g_free);
  rebuild (self);
}

GtkWidget *
qm_compare_page_new (QmStore *store)
{
  QmComparePage *self = g_object_new (QM_TYPE_COMPARE_PAGE, NULL);

  self->store = store;
  return GTK_WIDGET (self);
}
