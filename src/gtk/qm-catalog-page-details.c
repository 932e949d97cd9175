/* qm-catalog-page-details.c: the Catalog page's details pane: the
 * selected entry's figures, source and date, its price history, and which
 * actions apply.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include "qm-a11y.h"
#include "qm-catalog-editor.h"
#include "qm-catalog-import-dialog.h"
#include "qm-catalog-page.h"
#include "qm-catalog-page-private.h"
#include "qm-row-slots.h"
#include "qm-store-roles.h"
#include "qm-csv.h"
#include "qm-gtk.h"
#include "qm-list-page.h"

/* ------------------------------------------------------------------ */
/* Details                                                             */

/* The details pane is rebuilt only when its rows change (another kind);
 * moving between entries refills the labels and titles and shows or hides
 * the override row, which keeps a search keystroke that selects another
 * entry cheap. */
typedef struct
{
  QmCatalogPage       *self;
  gboolean             reuse;
  AdwPreferencesGroup *group;  /* building: the group rows go into */
  guint                next;   /* refilling: the next label */
} DetailsFill;

static void
set_value_label (GtkLabel   *label,
                 const char *value,
                 const char *tooltip)
{
  gtk_label_set_text (label, value);
  /* Short figures stay on one line; only long text wraps. */
  gtk_label_set_wrap (label, g_utf8_strlen (value, -1) > 22);
  /* Setting a tooltip asks the display where the pointer is: only on a
   * change. */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (label)), tooltip) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (label), tooltip);
}

/* The row reads "Title: value" once; the value is selectable with the
 * pointer but no Tab stop of its own, which a screen reader read a second
 * time under the row's title (issue #37 item 7). */
static void
name_row (GtkWidget  *row,
          const char *title,
          const char *value)
{
  /* Translators: an accessible name of a detail row, e.g. "Memory: 80 GB". */
  g_autofree char *name = g_strdup_printf (C_("detail row", "%s: %s"), title, value);

  qm_a11y_label (row, name);
}

/* Returns the row. */
static GtkWidget *
add_value_row (DetailsFill *fill,
               const char  *title,
               const char  *value,
               const char  *tooltip)
{
  GtkWidget *row, *label;

  if (fill->reuse)
    {
      label = g_ptr_array_index (fill->self->detail_values, fill->next++);
      row = gtk_widget_get_ancestor (label, ADW_TYPE_PREFERENCES_ROW);
      set_value_label (GTK_LABEL (label), value, tooltip);
      if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), title) != 0)
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      name_row (row, title, value);
      return row;
    }
  row = adw_action_row_new ();
  label = gtk_label_new (NULL);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 22);
  gtk_widget_add_css_class (label, "numeric");
  set_value_label (GTK_LABEL (label), value, tooltip);
  gtk_widget_set_focusable (label, FALSE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  name_row (row, title, value);
  adw_preferences_group_add (fill->group, row);
  g_ptr_array_add (fill->self->detail_values, label);
  return row;
}

/* A title over a long, wrapped, selectable text (a source citation). */
static void
add_text_row (DetailsFill *fill,
              const char  *title,
              const char  *value)
{
  GtkWidget *row, *box, *title_label, *label;

  if (fill->reuse)
    {
      label = g_ptr_array_index (fill->self->detail_values, fill->next++);
      gtk_label_set_text (GTK_LABEL (label), value);
      name_row (gtk_widget_get_ancestor (label, ADW_TYPE_PREFERENCES_ROW), title, value);
      return;
    }
  row = g_object_new (ADW_TYPE_PREFERENCES_ROW, "activatable", FALSE, NULL);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  title_label = gtk_label_new (title);
  label = gtk_label_new (value);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_label_set_xalign (GTK_LABEL (title_label), 0.0);
  gtk_widget_add_css_class (title_label, "caption");
  gtk_widget_add_css_class (title_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  gtk_box_append (GTK_BOX (box), title_label);
  gtk_box_append (GTK_BOX (box), label);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  name_row (row, title, value);
  adw_preferences_group_add (fill->group, row);
  g_ptr_array_add (fill->self->detail_values, label);
}

static void
add_details_group (DetailsFill *fill,
                   const char  *title)
{
  GtkWidget *group;

  if (fill->reuse)
    return;
  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  gtk_box_append (fill->self->details_groups, group);
  fill->group = ADW_PREFERENCES_GROUP (group);
}

/* ------------------------------------------------------------------ */
/* Price history                                                       */

/* How many changes the pane lists; the CLI's catalog history has all. */
#define HISTORY_ROWS 10

static char *
history_price (gboolean has,
               double   price)
{
  /* Translators: a price history row's side with no price (an override
   * set for the first time, or cleared). */
  return has ? qm_catalog_format_price (price) : g_strdup (C_("price history", "none"));
}

static GtkWidget *
history_row (const QmCatalogPriceChange *c)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_iso8601 (c->changed_at, NULL);
  g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  g_autofree char *when = local != NULL ? g_date_time_format (local, "%Y-%m-%d %H:%M")
                                        : g_strdup (c->changed_at);
  g_autofree char *old = history_price (c->has_old, c->old_price_usd);
  g_autofree char *new = history_price (c->has_new, c->new_price_usd);
  /* Translators: a price change: old price → new price. */
  g_autofree char *change = g_strdup_printf (_("%s → %s"), old, new);
  /* Translators: when, who, and which price: "2026-11-26 21:40 · alice · Your Price". */
  g_autofree char *subtitle = g_strdup_printf (_("%s · %s · %s"), when,
                                               c->who != NULL && *c->who ? c->who : _("unknown"),
                                               c->is_override ? _("Your Price") : _("Price"));
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), change);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_add_css_class (row, "property");
  return row;
}

/* The "Price History" group comes last and is rebuilt for every entry
 * (its rows differ from one entry to the next): one indexed query. */
static void
update_history (QmCatalogPage        *self,
                const QmCatalogEntry *e)
{
  GtkWidget *last = gtk_widget_get_last_child (GTK_WIDGET (self->details_groups));
  g_autoptr(GPtrArray) changes = NULL;
  GtkWidget *group;

  if (last != NULL && g_object_get_data (G_OBJECT (last), "qm-price-history") != NULL)
    gtk_box_remove (self->details_groups, last);
  if (self->store == NULL)
    return;
  /* A failed read leaves the group out; the entry itself is shown. */
  changes = qm_catalog_store_price_history (self->store, e->kind, e->id, NULL);
  if (changes == NULL || changes->len == 0)
    return;
  group = adw_preferences_group_new ();
  g_object_set_data (G_OBJECT (group), "qm-price-history", GINT_TO_POINTER (TRUE));
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Price History"));
  if (changes->len > HISTORY_ROWS)
    {
      g_autofree char *more = g_strdup_printf (ngettext ("The latest %u of %u changes",
                                                         "The latest %u of %u changes", changes->len),
                                               HISTORY_ROWS, changes->len);

      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), more);
    }
  for (guint i = 0; i < MIN (changes->len, HISTORY_ROWS); i++)
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), history_row (changes->pdata[i]));
  gtk_box_append (self->details_groups, group);
}

void
qm_catalog_page_update_actions (QmCatalogPage *self)
{
  QmCatalogItem *item = qm_catalog_page_get_selected (self);
  const QmCatalogEntry *e = item ? qm_catalog_item_get_entry (item) : NULL;
  GtkWidget *widget = GTK_WIDGET (self);
  /* On a team database, as the connected role's grants allow: the rest
   * stays readable, and the window says why at open (issue #23). */
  gboolean w = self->store != NULL && (qm_store_rights (self->store) & QM_STORE_RIGHT_EDIT_CATALOG);

  gtk_widget_action_set_enabled (widget, "catalog.add", w);
  gtk_widget_action_set_enabled (widget, "catalog.import", w);
  gtk_widget_action_set_enabled (widget, "catalog.edit", w && e != NULL && (!e->builtin || qm_catalog_kind_has_price (e->kind)));
  gtk_widget_action_set_enabled (widget, "catalog.duplicate", w && e != NULL);
  gtk_widget_action_set_enabled (widget, "catalog.delete", w && e != NULL && !e->builtin);
  gtk_widget_action_set_enabled (widget, "catalog.toggle-hidden", w && e != NULL && e->builtin);
  gtk_widget_action_set_enabled (widget, "catalog.reset-price", w && e != NULL && e->has_override);
  gtk_widget_action_set_enabled (widget, "catalog.export",
                                 g_list_model_get_n_items (G_LIST_MODEL (qm_catalog_page_current (self)->filtered)) > 0);
}

void
qm_catalog_page_update_details (QmCatalogPage *self)
{
  QmCatalogItem *item = qm_catalog_page_get_selected (self);
  const QmCatalogEntry *e;
  const QmCatalogField *fields;
  DetailsFill fill = { self, FALSE, NULL, 0 };
  GtkWidget *child;
  g_autofree char *subtitle = NULL;
  g_autofree char *date = NULL;
  g_autofree char *layout = NULL;
  guint n;

  qm_catalog_page_update_actions (self);
  if (item == self->shown && item != NULL)
    return;
  g_set_object (&self->shown, item);

  if (item == NULL)
    {
      gtk_stack_set_visible_child_name (self->details_stack, "none");
      return;
    }
  gtk_stack_set_visible_child_name (self->details_stack, "entry");
  e = qm_catalog_item_get_entry (item);

  /* The rows below depend on these only (a price override on a kind with
   * no price column is rare: it adds the price group). */
  layout = g_strdup_printf ("%d %d", e->kind, qm_catalog_kind_has_price (e->kind) || e->has_override);
  fill.reuse = g_strcmp0 (layout, self->details_layout) == 0;
  if (!fill.reuse)
    {
      while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->details_groups))) != NULL)
        gtk_box_remove (self->details_groups, child);
      g_ptr_array_set_size (self->detail_values, 0);
      g_free (self->details_layout);
      self->details_layout = g_steal_pointer (&layout);
    }

  gtk_label_set_text (self->details_title, e->name);
  if (e->builtin)
    subtitle = g_strdup_printf (e->hidden ? _("%s · Built-in, hidden") : _("%s · Built-in"),
                                e->vendor ? e->vendor : qm_catalog_kind_singular (e->kind));
  else
    subtitle = g_strdup_printf (_("%s · Your entry"), e->vendor ? e->vendor : qm_catalog_kind_singular (e->kind));
  gtk_label_set_text (self->details_subtitle, subtitle);
  gtk_image_set_from_icon_name (self->origin_icon, e->builtin ? "emblem-system-symbolic" : "avatar-default-symbolic");

  gtk_button_set_label (GTK_BUTTON (self->edit_button), e->builtin ? _("_Override Price…") : _("_Edit…"));
  gtk_widget_set_visible (self->edit_button, !e->builtin || qm_catalog_kind_has_price (e->kind));
  gtk_widget_set_visible (self->reset_button, e->has_override);
  gtk_widget_set_visible (self->hide_button, e->builtin);
  gtk_button_set_label (GTK_BUTTON (self->hide_button), e->hidden ? _("_Show") : _("_Hide"));
  gtk_widget_set_tooltip_text (self->hide_button, e->hidden ? _("List this entry again")
                                                            : _("Built-in entries cannot be deleted; hiding keeps them out of lists and searches"));
  gtk_widget_set_visible (self->delete_button, !e->builtin);

  if (qm_catalog_kind_has_price (e->kind) || e->has_override)
    {
      g_autofree char *list = qm_catalog_format_price (e->list_price_usd);
      g_autofree char *mine = e->has_override ? qm_catalog_format_price (e->override_usd) : g_strdup ("");

      add_details_group (&fill, _("Price"));
      add_value_row (&fill, e->builtin ? _("List Price") : _("Price"), list, NULL);
      gtk_widget_set_visible (add_value_row (&fill, _("Your Price"), mine, _("Estimates use this price")),
                              e->has_override);
    }

  add_details_group (&fill, _("Specifications"));
  fields = qm_catalog_fields (e->kind, &n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *value = qm_catalog_item_format (item, i);
      add_value_row (&fill, _(fields[i].label), value ? value : _("Not given"), NULL);
    }

  add_details_group (&fill, _("Source and Date"));
  date = qm_catalog_format_date (e->as_of);
  add_text_row (&fill, _("Source"), e->source && *e->source ? e->source : _("Not given"));
  add_value_row (&fill, _("As Of"), date ? date : _("Not given"), e->as_of);
  add_value_row (&fill, _("ID"), e->id, NULL);
  update_history (self, e);
}
