/* qm-plan-view-bom.c: the plan view's bill of materials: its rows, its
 * table and its totals.
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
#include "qm-plan-report.h"
#include "qm-plan.h"
#include "qm-plan-view-private.h"
#include "qm-price-age.h"
#include "qm-print.h"
#include "qm-text.h"

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

/* ------------------------------------------------------------------ */
/* How old the prices are                                              */

guint
qm_plan_view_price_max_age (QmPlanView *self)
{
  if (self->settings == NULL)
    return QM_PRICE_MAX_AGE_MONTHS_DEFAULT;
  return qm_price_max_age_months_clamp ((guint) MAX (g_settings_get_int (self->settings,
                                                                         "price-max-age-months"), 0));
}

/* Under the totals: "Prices as of 1 June 2025", and past the user's
 * limit a warning as the notes list shows one (a warning icon before the
 * sentence). */
static void
build_prices_as_of (QmPlanView *self)
{
  GtkWidget *box = gtk_widget_get_parent (GTK_WIDGET (self->bom_totals));
  GtkWidget *icon, *label;

  self->settings = g_settings_new (APPLICATION_ID);
  g_signal_connect_object (self->settings, "changed::price-max-age-months",
                           G_CALLBACK (qm_plan_view_update_bom), self, G_CONNECT_SWAPPED);

  label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_visible (label, FALSE);
  gtk_box_append (GTK_BOX (box), label);
  self->prices_as_of = GTK_LABEL (label);

  self->price_age_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_start (self->price_age_box, 12);
  gtk_widget_set_margin_end (self->price_age_box, 12);
  icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_add_css_class (icon, "warning");
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Warning"), -1);
  gtk_box_append (GTK_BOX (self->price_age_box), icon);
  label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (self->price_age_box), label);
  self->price_age_label = GTK_LABEL (label);
  gtk_widget_set_visible (self->price_age_box, FALSE);
  gtk_box_append (GTK_BOX (box), self->price_age_box);
}

/* The date from the core's one definition (qm_prices_as_of) for the
 * lines shown: the estimate's, or a saved snapshot's bom[].as_of. */
static gboolean
shown_prices_as_of (QmPlanView       *self,
                    const QmEstimate *e,
                    GDate            *as_of)
{
  g_autofree QmEstimate *lines = NULL;
  JsonObject *o;
  JsonNode *bom;
  JsonArray *a;

  if (self->snapshot == NULL)
    return qm_prices_as_of (e, as_of);
  g_date_clear (as_of, 1);
  o = json_node_get_object (self->snapshot);
  bom = json_object_has_member (o, "bom") ? json_object_get_member (o, "bom") : NULL;
  if (bom == NULL || !JSON_NODE_HOLDS_ARRAY (bom))
    return FALSE;
  a = json_node_get_array (bom);
  lines = g_new0 (QmEstimate, 1);
  lines->has_cost = TRUE;
  for (guint i = 0; i < json_array_get_length (a) && lines->cost.n_bom < QM_BOM_MAX; i++)
    {
      JsonNode *n = json_array_get_element (a, i);

      if (JSON_NODE_HOLDS_OBJECT (n))
        lines->cost.bom[lines->cost.n_bom++].as_of =
          g_intern_string (qm_plan_view_json_str (json_node_get_object (n), "as_of"));
    }
  return qm_prices_as_of (lines, as_of);
}

static void
update_prices_as_of (QmPlanView       *self,
                     const QmEstimate *e)
{
  g_autofree char *text = NULL, *warning = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  GDate as_of, today;

  if (self->prices_as_of == NULL)
    return;
  g_date_clear (&today, 1);
  g_date_set_dmy (&today, (GDateDay) g_date_time_get_day_of_month (now),
                  (GDateMonth) g_date_time_get_month (now), (GDateYear) g_date_time_get_year (now));
  if (shown_prices_as_of (self, e, &as_of))
    {
      text = qm_prices_as_of_text (&as_of);
      warning = qm_price_age_warning (&as_of, &today, qm_plan_view_price_max_age (self));
    }
  gtk_label_set_label (self->prices_as_of, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->prices_as_of), text != NULL);
  gtk_label_set_label (self->price_age_label, warning ? warning : "");
  gtk_widget_set_visible (self->price_age_box, warning != NULL);
}

void
qm_plan_view_build_bom (QmPlanView *self)
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
  /* A table to assistive technology: cells named with their header. */
  qm_a11y_table (self->bom_view, _("Bill of Materials"));
  build_prices_as_of (self);
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

void
qm_plan_view_update_bom (QmPlanView *self)
{
  const QmPlan *p = qm_plan_editor_get_plan (self->editor);
  const QmEstimate *e = qm_plan_editor_get_estimate (self->editor);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  double hardware = NAN, install = NAN, upfront = NAN, run = NAN;
  gboolean buy = p->pricing.mode == QM_PRICING_BUY;

  if (self->snapshot != NULL)
    {
      JsonObject *o = json_node_get_object (self->snapshot);
      JsonObject *cost = qm_plan_view_json_obj (o, "cost_usd");
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
              g_ptr_array_add (rows, bom_row_new (qm_plan_view_json_str (line, "item"), qm_plan_view_json_str (line, "catalog_id"),
                                                  qm_plan_view_json_num (line, "qty"), qm_plan_view_json_num (line, "unit_usd"),
                                                  qm_plan_view_json_num (line, "total_usd"), p->pricing.currency,
                                                  qm_plan_view_json_str (line, "source")));
            }
        }
      hardware = qm_plan_view_json_num (cost, "hardware");
      install = qm_plan_view_json_num (cost, "installation");
      upfront = qm_plan_view_json_num (cost, "upfront");
      run = qm_plan_view_json_num (cost, "run");
      if (qm_plan_view_json_str (cost, "pricing") != NULL)
        buy = g_strcmp0 (qm_plan_view_json_str (cost, "pricing"), "buy") == 0;
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
  update_prices_as_of (self, e);
}
