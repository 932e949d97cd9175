/* qm-compare-page.c: 2-4 saved plans side by side: every key figure and
 * input in a table with the better value marked by a check mark and bold
 * type (not colour alone), which way is better under each figure's label
 * (from the core's metric table, qm-metrics.h: the page keeps none of its
 * own), each value's likely range under it and ≈ where the best is within
 * another plan's likely range (issue #36), a "show only differences"
 * switch, and the comparison charts at one scale.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "qm-a11y.h"
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

struct _QmComparePage
{
  AdwBin          parent_instance;

  QmStore        *store;
  GArray         *entries;        /* Entry */
  GHashTable     *cells;          /* "row id/plan" → GtkLabel */
  GHashTable     *bands;          /* "row id/plan" → GtkLabel: the likely range */
  GHashTable     *expanded;       /* ids of the rows shown with their parts */
  GHashTable     *expanders;      /* row id → GtkButton: its label, toggling its parts */

  GtkStack       *stack;
  GtkMenuButton  *add_button;
  GtkMenuButton  *empty_add_button;
  GtkFlowBox     *chips;
  GtkGrid        *table;
  GtkSwitch      *differences_switch;
  GtkWidget      *legend;         /* in the table: why rows are not marked */
  QmChartWidget  *compare_chart;
  QmChartWidget  *vram_chart;
  /* Where the charts were last drawn, for their tooltips and the
   * keyboard probe. */
  QmCompareLayout compare_layout;
  QmVramLayout    vram_layout;
};

G_DEFINE_FINAL_TYPE (QmComparePage, qm_compare_page, ADW_TYPE_BIN)

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
  /* The compare chart's legend: "A: name", the letter on the plan's bars,
   * as the comparison PDF labels it. */
  char lettered[QM_COMPARE_PAGE_MAX_PLANS][192];
  const char *lettered_labels[QM_COMPARE_PAGE_MAX_PLANS];
  guint n = MIN (entries->len, QM_COMPARE_PAGE_MAX_PLANS);
  g_autofree QmEstimate *estimates = g_new0 (QmEstimate, QM_COMPARE_PAGE_MAX_PLANS);
  /* The cost axis in the first plan's currency, as the comparison PDF. */
  const char *currency = n > 0 && g_array_index (entries, Entry, 0).plan.pricing.currency[0]
                         ? g_array_index (entries, Entry, 0).plan.pricing.currency : "USD";

  for (guint i = 0; i < n; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);

      estimates[i] = *e->estimate;
      bars[i] = e->estimate->memory;
      labels[i] = e->name;
      g_snprintf (lettered[i], sizeof lettered[i], "%c: %s", qm_compare_letter (i), e->name);
      lettered_labels[i] = lettered[i];
    }
  if (d->vram)
    qm_chart_render_vram (frame, bars, labels, n, QM_BYTES_GB, &d->page->vram_layout);
  else
    {
      /* The same bars as the PDF's (a serving plan has no time bar). */
      qm_compare_chart_items (estimates, lettered_labels, n, items);
      qm_chart_render_compare (frame, items, n, currency, &d->page->compare_layout);
    }
}

/* The point under the pointer or the keyboard probe, in words: the same
 * figures the chart prints, with the plan's name. */
static char *
chart_tooltip (double   x,
               double   y,
               gpointer user_data)
{
  const ChartData *d = user_data;
  QmComparePage *self = d->page;
  guint n = MIN (self->entries->len, QM_COMPARE_PAGE_MAX_PLANS);
  char a[QM_FORMAT_BUF], b[QM_FORMAT_BUF];
  guint metric, plan, part;

  if (d->vram)
    {
      const Entry *e;
      const QmMemoryBreakdown *mb;

      if (!qm_chart_vram_hit (&self->vram_layout, x, y, &plan, &part) || plan >= n)
        return NULL;
      e = &g_array_index (self->entries, Entry, plan);
      mb = &e->estimate->memory;
      /* The same words as the plan view's memory chart. */
      return g_strdup_printf (_("%s, %s: %s of %s in all (%s)"),
                              e->name, qm_chart_vram_part_name (part),
                              qm_format_bytes (a, sizeof a, qm_chart_vram_part_bytes (mb, MIN (part, QM_VRAM_N_PARTS - 1)),
                                               QM_BYTES_GB),
                              qm_format_bytes (b, sizeof b, mb->total, QM_BYTES_GB),
                              mb->fits ? _("fits") : _("does not fit"));
    }
  if (!qm_chart_compare_hit (&self->compare_layout, x, y, &metric, &plan) || plan >= n)
    return NULL;
  {
    const Entry *e = &g_array_index (self->entries, Entry, plan);
    const char *currency = e->plan.pricing.currency[0] ? e->plan.pricing.currency : "USD";
    const char *label = e->name;
    QmCompareItem item;

    qm_compare_chart_items (e->estimate, &label, 1, &item);
    if (metric == QM_COMPARE_N_METRICS)
      /* Translators: a point of the cost-against-time chart: the plan,
       * its days and its total cost. */
      return g_strdup_printf (_("%s: %s days, %s"), e->name,
                              qm_chart_compare_format_value (a, sizeof a, &item, 1, currency),
                              qm_chart_compare_format_value (b, sizeof b, &item, 2, currency));
    /* Translators: a bar of the compare chart: the figure (“GPUs”), the
     * plan and the value. */
    return g_strdup_printf (_("%s, %s: %s"), qm_chart_compare_metric_name (metric), e->name,
                            qm_chart_compare_format_value (a, sizeof a, &item, metric, currency));
  }
}

/* The table. */

/* Empties the table. A value that has the focus (a Tab stop) hands it to
 * the switch above the table first: GTK 4.8 fails a critical
 * (gtk_widget_is_ancestor) when the focus widget is removed with its
 * grid. Returns the focused cell's key, to focus it again, or NULL. */
static char *
clear_table (QmComparePage *self)
{
  GtkWidget *child;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self->table));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  char *focused = NULL;

  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->table)))
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, self->cells);
      while (focused == NULL && g_hash_table_iter_next (&iter, &key, &value))
        if (value == focus)
          focused = g_strdup (key);
      /* A row's expander: "expander:memory". */
      g_hash_table_iter_init (&iter, self->expanders);
      while (focused == NULL && g_hash_table_iter_next (&iter, &key, &value))
        if (value == focus || gtk_widget_is_ancestor (focus, value))
          focused = g_strconcat ("expander:", key, NULL);
      gtk_widget_grab_focus (GTK_WIDGET (self->differences_switch));
    }

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->table))) != NULL)
    gtk_grid_remove (self->table, child);
  g_hash_table_remove_all (self->cells);
  g_hash_table_remove_all (self->bands);
  g_hash_table_remove_all (self->expanders);
  self->legend = NULL;
  return focused;
}

/* The plans as the core's comparison takes them: copies, valid until the
 * entries change. */
static guint
entries_to_arrays (QmComparePage *self,
                   QmPlan        *plans,
                   QmEstimate    *estimates)
{
  guint n = MIN (self->entries->len, QM_COMPARE_PAGE_MAX_PLANS);

  for (guint i = 0; i < n; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);

      plans[i] = e->plan;
      estimates[i] = *e->estimate;
    }
  return n;
}

/* A line under a row's label: which way is better, from the metric. */
static const char *
better_caption (QmBetter better)
{
  switch (better)
    {
    /* Translators: under a row's label on the Compare page. */
    case QM_BETTER_LOWER:  return _("lower is better");
    /* Translators: under a row's label on the Compare page. */
    case QM_BETTER_HIGHER: return _("higher is better");
    case QM_BETTER_NONE:
    default:               return NULL;
    }
}

static void rebuild_table (QmComparePage *self);

/* A flat button's padding (Adwaita, 10 px), a chevron (16 px) and the
 * space after it (6 px): where an expanding row's label starts. */
#define LABEL_INDENT 32

static void
expander_clicked (GtkButton *button,
                  gpointer   user_data)
{
  QmComparePage *self = user_data;
  const char *id = g_object_get_data (G_OBJECT (button), "row-id");

  qm_compare_page_set_expanded (self, id, !qm_compare_page_get_expanded (self, id));
}

/* A row's label as a button that shows or hides its parts: a chevron
 * that turns as an expander's does, the label, and which way is better
 * under it (the metric's, shown, never toggled). */
static GtkWidget *
make_expander (QmComparePage *self,
               const char    *id,
               GtkWidget     *label,
               const char    *row_label,
               const char    *caption_text)
{
  gboolean open = g_hash_table_contains (self->expanded, id);
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_image_new_from_icon_name (open ? "pan-down-symbolic" : "pan-end-symbolic");
  g_autofree char *name = caption_text != NULL ? g_strdup_printf ("%s, %s", row_label, caption_text)
                                               : g_strdup (row_label);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_set_margin_top (icon, 2);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), label);
  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (button, open ? _("Hide what this figure is made of")
                                            : _("Show what this figure is made of"));
  qm_a11y_label (button, name);
  gtk_accessible_update_state (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_STATE_EXPANDED, open, -1);
  g_object_set_data_full (G_OBJECT (button), "row-id", g_strdup (id), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (expander_clicked), self);
  g_hash_table_insert (self->expanders, g_strdup (id), button);
  return button;
}

/* The parts of @cr under it, indented and dimmed, not ranked. */
static int
attach_parts (QmComparePage      *self,
              const QmCompareRow *cr,
              guint               n,
              int                 row)
{
  for (guint k = 0; k < cr->parts->len; k++)
    {
      const QmCompareRow *part = g_ptr_array_index (cr->parts, k);
      GtkWidget *label = gtk_label_new (part->label);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      /* Under the row's label, indented. */
      gtk_widget_set_margin_start (label, LABEL_INDENT + 12);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (self->table, label, 0, row, 1, 1);
      for (guint p = 0; p < n; p++)
        {
          const Entry *e = &g_array_index (self->entries, Entry, p);
          GtkWidget *cell = gtk_label_new (part->cells[p]);
          /* Translators: a part of a figure on the Compare page as a
           * screen reader reads it: the figure ("Memory per GPU"), the
           * part ("Weights"), the plan, the value. */
          g_autofree char *name = g_strdup_printf (_("%s, %s for %s: %s"), cr->label, part->label, e->name,
                                                   part->cells[p]);

          gtk_label_set_xalign (GTK_LABEL (cell), 1.0);
          gtk_label_set_wrap (GTK_LABEL (cell), TRUE);
          gtk_label_set_justify (GTK_LABEL (cell), GTK_JUSTIFY_RIGHT);
          gtk_label_set_selectable (GTK_LABEL (cell), TRUE);
          gtk_widget_add_css_class (cell, "numeric");
          gtk_widget_add_css_class (cell, "dim-label");
          g_object_set_data (G_OBJECT (cell), "best", GINT_TO_POINTER (FALSE));
          qm_a11y_label (cell, name);
          gtk_grid_attach (self->table, cell, 1 + p, row, 1, 1);
          g_hash_table_insert (self->cells, g_strdup_printf ("%s/%u", part->id, p), cell);
        }
      row++;
    }
  return row;
}

/* The rows are qm_compare_rows(): the same metrics, cells and marks as the
 * comparison PDF and `quartermaster-cli compare`. The page keeps no table
 * of its own. */
static void
rebuild_table (QmComparePage *self)
{
  gboolean only_differences = gtk_switch_get_active (self->differences_switch);
  QmPlan plans[QM_COMPARE_PAGE_MAX_PLANS];
  g_autofree QmEstimate *estimates = g_new0 (QmEstimate, QM_COMPARE_PAGE_MAX_PLANS);
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *why = NULL;
  g_autofree char *focused = NULL;
  QmPlanReportInfo info;
  guint n;
  int row = 0;

  focused = clear_table (self);
  n = entries_to_arrays (self, plans, estimates);
  if (n < 2)
    return;
  qm_plan_report_info_init (&info);
  rows = qm_compare_rows (plans, estimates, n, &info);
  why = qm_compare_explain (plans, estimates, n, &info);

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
      gtk_grid_attach (self->table, label, 1 + p, row, 1, 1);
    }
  row++;

  for (guint r = 0; r < rows->len; r++)
    {
      const QmCompareRow *cr = g_ptr_array_index (rows, r);
      const char *caption_text = better_caption (cr->better);
      gboolean differ = FALSE;
      GtkWidget *label;

      for (guint p = 1; p < n; p++)
        if (g_strcmp0 (cr->cells[p], cr->cells[0]) != 0)
          differ = TRUE;

      if (cr->section)
        {
          label = gtk_label_new (cr->label);
          gtk_label_set_xalign (GTK_LABEL (label), 0.0);
          gtk_widget_add_css_class (label, "title-4");
          gtk_widget_set_margin_top (label, 12);
          gtk_grid_attach (self->table, label, 0, row++, 1 + n, 1);
          continue;
        }
      if (only_differences && !differ)
        continue;

      label = gtk_label_new (cr->label);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      /* Rows whose values differ stand out in weight too. */
      if (differ)
        gtk_widget_add_css_class (label, "heading");
      else
        gtk_widget_add_css_class (label, "dim-label");
      if (caption_text != NULL)
        {
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
          GtkWidget *caption = gtk_label_new (caption_text);

          gtk_label_set_xalign (GTK_LABEL (caption), 0.0);
          gtk_widget_add_css_class (caption, "caption");
          gtk_widget_add_css_class (caption, "dim-label");
          gtk_box_append (GTK_BOX (box), label);
          gtk_box_append (GTK_BOX (box), caption);
          label = box;
        }
      if (cr->parts != NULL && cr->parts->len > 0)
        label = make_expander (self, cr->id, label, cr->label, caption_text);
      else
        /* In line with the labels of the rows that expand, past their
         * button's padding and chevron. */
        gtk_widget_set_margin_start (label, LABEL_INDENT);
      gtk_grid_attach (self->table, label, 0, row, 1, 1);

      for (guint p = 0; p < n; p++)
        {
          gboolean is_best = cr->best[p];
          g_autofree char *text = g_strconcat (qm_compare_mark (cr, p), cr->cells[p], NULL);
          GtkWidget *cell = gtk_label_new (text);
          GtkWidget *band = NULL;

          gtk_label_set_xalign (GTK_LABEL (cell), 1.0);
          gtk_label_set_wrap (GTK_LABEL (cell), TRUE);
          gtk_label_set_justify (GTK_LABEL (cell), GTK_JUSTIFY_RIGHT);
          gtk_label_set_selectable (GTK_LABEL (cell), TRUE);
          gtk_widget_add_css_class (cell, "numeric");
          if (is_best)
            gtk_widget_add_css_class (cell, "heading");
          g_object_set_data (G_OBJECT (cell), "best", GINT_TO_POINTER (is_best));
          /* A value is a Tab stop (selectable, to copy it): read it with
           * its row and its plan, and the mark in words, not "✓ 8"
           * (issue #37 item 2). After the text: GtkLabel names itself
           * with its text whenever that changes. */
          {
            const Entry *e = &g_array_index (self->entries, Entry, p);
            g_autofree char *name = is_best
              /* Translators: a value on the Compare page as a screen
               * reader reads it: the row (“GPUs”), the plan, the value;
               * this one is marked as the better value of its row. */
              ? g_strdup_printf (_("%s for %s: %s, the better value"), cr->label, e->name, cr->cells[p])
              : cr->tied[p]
              /* Translators: a value on the Compare page as a screen
               * reader reads it: the row (“GPUs”), the plan, the value;
               * this one is marked ≈: within the likely range of the best
               * value, so no real difference. */
              ? g_strdup_printf (_("%s for %s: %s, as good as the best within the likely ranges"),
                                 cr->label, e->name, cr->cells[p])
              /* Translators: a value on the Compare page as a screen
               * reader reads it: the row (“GPUs”), the plan, the value. */
              : g_strdup_printf (_("%s for %s: %s"), cr->label, e->name, cr->cells[p]);

            if (cr->bands[p] != NULL)
              {
                /* The likely range, read with the value it belongs to. */
                g_autofree char *with_band = g_strdup_printf ("%s; %s", name, cr->bands[p]);

                qm_a11y_label (cell, with_band);
              }
            else
              qm_a11y_label (cell, name);
          }
          if (cr->bands[p] != NULL)
            {
              GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

              /* Under the value, smaller and dimmed: the value is the
               * figure, the range how far to trust it (issue #36). */
              band = gtk_label_new (cr->bands[p]);
              gtk_label_set_xalign (GTK_LABEL (band), 1.0);
              gtk_widget_add_css_class (band, "caption");
              gtk_widget_add_css_class (band, "dim-label");
              gtk_box_append (GTK_BOX (box), cell);
              gtk_box_append (GTK_BOX (box), band);
              gtk_grid_attach (self->table, box, 1 + p, row, 1, 1);
              g_hash_table_insert (self->bands, g_strdup_printf ("%s/%u", cr->id, p), band);
            }
          else
            gtk_grid_attach (self->table, cell, 1 + p, row, 1, 1);
          g_hash_table_insert (self->cells, g_strdup_printf ("%s/%u", cr->id, p), cell);
        }
      row++;
      if (cr->parts != NULL && g_hash_table_contains (self->expanded, cr->id))
        row = attach_parts (self, cr, n, row);
    }

  {
    GtkWidget *legend = gtk_label_new (NULL);
    /* The key and the note on lines of their own: side by side they read
     * as one sentence without a stop. */
    g_autofree char *text = why != NULL ? g_strdup_printf ("%s\n%s", _("✓ the better value of the row"), why)
                                        : g_strdup (_("✓ the better value of the row"));

    gtk_label_set_text (GTK_LABEL (legend), text);
    gtk_label_set_xalign (GTK_LABEL (legend), 0.0);
    gtk_label_set_wrap (GTK_LABEL (legend), TRUE);
    gtk_widget_add_css_class (legend, "dim-label");
    gtk_widget_set_margin_top (legend, 12);
    gtk_grid_attach (self->table, legend, 0, row, 1 + n, 1);
    self->legend = legend;
  }
  /* The same row and plan keep the focus, where they are still shown;
   * an expander keeps it when its row opens or closes. */
  if (focused != NULL && g_hash_table_lookup (self->cells, focused) != NULL)
    gtk_widget_grab_focus (g_hash_table_lookup (self->cells, focused));
  else if (focused != NULL && g_str_has_prefix (focused, "expander:") &&
           g_hash_table_lookup (self->expanders, focused + strlen ("expander:")) != NULL)
    gtk_widget_grab_focus (g_hash_table_lookup (self->expanders, focused + strlen ("expander:")));
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
      /* Read by its name, not as "push button GtkImage" (issue #37 item 1). */
      qm_a11y_label (remove, tooltip);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "compare.remove");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "x", e->id);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), remove);
      gtk_widget_add_css_class (box, "card");
      gtk_flow_box_append (self->chips, box);
      /* The chip is a Tab stop (GtkFlowBox's): read it as the plan's whole
       * name, which the chip may shorten. Not made unfocusable: GTK 4.8's
       * flow box then fails a critical on Tab (gtk_widget_is_ancestor). */
      qm_a11y_label (gtk_widget_get_parent (box), e->name);
    }
}

/* The memory chart in words: each plan's parts, total and capacity. */
static char *
describe_vram (QmComparePage *self)
{
  GString *out = g_string_new (_("Memory per GPU of each plan, on one scale."));

  for (guint p = 0; p < MIN (self->entries->len, QM_COMPARE_PAGE_MAX_PLANS); p++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, p);
      const QmMemoryBreakdown *m = &e->estimate->memory;
      char total[QM_FORMAT_BUF], capacity[QM_FORMAT_BUF];

      /* Translators: one plan in the Compare page's memory chart summary:
       * name, memory per GPU, the GPU's memory, then “fits” or “does not
       * fit”; its parts follow. */
      g_string_append_printf (out, _(" %s: %s of %s per GPU (%s): "), e->name,
                              qm_format_bytes (total, sizeof total, m->total, QM_BYTES_GB),
                              qm_format_bytes (capacity, sizeof capacity, m->capacity, QM_BYTES_GB),
                              m->fits ? _("fits") : _("does not fit"));
      /* The plan view's memory summary's words. */
      qm_chart_vram_append_parts (out, m);
      g_string_append_c (out, '.');
    }
  return g_string_free (out, FALSE);
}

static void
rebuild (QmComparePage *self)
{
  guint n = MIN (self->entries->len, QM_COMPARE_PAGE_MAX_PLANS);
  QmCompareItem items[QM_COMPARE_PAGE_MAX_PLANS];
  const char *labels[QM_COMPARE_PAGE_MAX_PLANS];
  const char *currencies[QM_COMPARE_PAGE_MAX_PLANS];
  g_autofree QmEstimate *estimates = g_new0 (QmEstimate, QM_COMPARE_PAGE_MAX_PLANS);
  g_autofree char *figures = NULL;
  g_autofree char *description = NULL;
  g_autofree char *vram = NULL;

  gtk_stack_set_visible_child_name (self->stack, self->entries->len >= 2 ? "compare" : "empty");
  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button), self->entries->len < QM_COMPARE_PAGE_MAX_PLANS);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.export-pdf", self->entries->len >= 2);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.print", self->entries->len >= 2);
  rebuild_chips (self);
  rebuild_table (self);

  /* The summary reads the bars as drawn (qm_compare_chart_items: a
   * serving plan has no time to train), each cost in its plan's currency. */
  for (guint p = 0; p < n; p++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, p);

      estimates[p] = *e->estimate;
      labels[p] = e->name;
      currencies[p] = e->plan.pricing.currency;
    }
  qm_compare_chart_items (estimates, labels, n, items);
  figures = qm_chart_compare_describe (items, currencies, n);
  /* Translators: the compare chart's summary; %s is each plan's figures. */
  description = g_strdup_printf (_("Each plan's GPUs, days, cost, power and CO₂e as bars, and its cost against "
                                   "time as a point. %s"), figures);
  vram = describe_vram (self);
  qm_chart_widget_set_description (self->compare_chart, description);
  qm_chart_widget_set_description (self->vram_chart, vram);
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

const char *
qm_compare_page_get_band (QmComparePage *self,
                          const char    *metric,
                          guint          plan)
{
  g_autofree char *key = g_strdup_printf ("%s/%u", metric, plan);
  GtkLabel *band = g_hash_table_lookup (self->bands, key);

  return band != NULL ? gtk_label_get_text (band) : NULL;
}

guint
qm_compare_page_get_n_cells (QmComparePage *self)
{
  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), 0);
  return g_hash_table_size (self->cells);
}

const char *
qm_compare_page_get_legend (QmComparePage *self)
{
  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), NULL);
  return self->legend != NULL ? gtk_label_get_text (GTK_LABEL (self->legend)) : NULL;
}

GtkWidget *
qm_compare_page_get_expander (QmComparePage *self,
                              const char    *metric)
{
  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), NULL);
  return g_hash_table_lookup (self->expanders, metric);
}

gboolean
qm_compare_page_get_expanded (QmComparePage *self,
                              const char    *metric)
{
  g_return_val_if_fail (QM_IS_COMPARE_PAGE (self), FALSE);
  return g_hash_table_contains (self->expanded, metric);
}

void
qm_compare_page_set_expanded (QmComparePage *self,
                              const char    *metric,
                              gboolean       expanded)
{
  g_return_if_fail (QM_IS_COMPARE_PAGE (self));
  if (expanded == g_hash_table_contains (self->expanded, metric))
    return;
  if (expanded)
    g_hash_table_add (self->expanded, g_strdup (metric));
  else
    g_hash_table_remove (self->expanded, metric);
  rebuild_table (self);
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
  /* The Remove button pressed went with its chip, and below two plans the
   * whole table with it: the keyboard goes on from a button that is
   * shown (the empty page's Add Plan), not from nowhere. */
  if (gtk_widget_get_root (widget) != NULL)
    {
      GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));

      if (focus == NULL || !gtk_widget_get_mapped (focus))
        gtk_widget_grab_focus (GTK_WIDGET (self->entries->len >= 2 ? self->add_button : self->empty_add_button));
    }
}

/* The comparison as a document: the same pages for PDF and print. */
static QmDocument *
build_report (QmComparePage *self,
              QmPaper       *paper)
{
  QmPlan plans[QM_COMPARE_PAGE_MAX_PLANS];
  g_autofree QmEstimate *estimates = g_new0 (QmEstimate, QM_COMPARE_PAGE_MAX_PLANS);
  QmPlanReportInfo info;
  guint n = entries_to_arrays (self, plans, estimates);

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
  g_clear_pointer (&self->bands, g_hash_table_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->expanders, g_hash_table_unref);

  g_clear_pointer (&self->store, qm_store_unref);
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
  self->bands = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->expanders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_menu_button_set_create_popup_func (self->add_button, create_add_popup, self, NULL);
  gtk_menu_button_set_create_popup_func (self->empty_add_button, create_add_popup, self, NULL);
  g_signal_connect_swapped (self->differences_switch, "notify::active", G_CALLBACK (rebuild_table), self);
  qm_chart_widget_set_draw_func (self->compare_chart, draw_chart, chart_tooltip, chart_data_new (self, FALSE), g_free);
  qm_chart_widget_set_draw_func (self->vram_chart, draw_chart, chart_tooltip, chart_data_new (self, TRUE), g_free);
  /* Named, not read as "QmChartWidget"; the chart adds the point its
   * keyboard probe reads (issue #37 items 2 and 8). */
  qm_a11y_label (GTK_WIDGET (self->compare_chart), _("Comparison of the plans"));
  qm_a11y_label (GTK_WIDGET (self->vram_chart), _("Memory per GPU of each plan"));
  rebuild (self);
}

GtkWidget *
qm_compare_page_new (QmStore *store)
{
  QmComparePage *self = g_object_new (QM_TYPE_COMPARE_PAGE, NULL);

  self->store = store ? qm_store_ref (store) : NULL;
  return GTK_WIDGET (self);
}
