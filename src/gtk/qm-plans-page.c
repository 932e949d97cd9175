/* qm-plans-page.c: the Plans page: saved plans in a sortable, searchable
 * column view, the selection actions, the empty state and plan files.
 *
 * The model chain is store → sort → filter → row slots → multi-selection:
 * a search keystroke only re-runs the filter in memory (the words against
 * each plan's search key, as the store matches them), never the sort or a
 * query, and the rows on screen are refilled rather than rebuilt
 * (qm-row-slots.h). Positions in the selection are positions in the
 * filtered list; past its end are hidden padding rows, never selected.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "qm-a11y.h"
#include "qm-estimate-json.h"
#include "qm-estimate.h"
#include "qm-format.h"
#include "qm-gtk.h"
#include "qm-list-page.h"
#include "qm-plan-item.h"
#include "qm-store-roles.h"
#include "qm-plan-store.h"
#include "qm-plans-page.h"
#include "qm-store-recovery.h"
#include "qm-plans-page-private.h"
#include "qm-row-slots.h"

enum {
  OPEN_PLAN,
  COMPARE_PLANS,
  NEW_PLAN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QmPlansPage, qm_plans_page, GTK_TYPE_WIDGET)

void
qm_plans_page_emit_open_plan (QmPlansPage *self,
                              gint64       id)
{
  g_signal_emit (self, signals[OPEN_PLAN], 0, id);
}

void
qm_plans_page_emit_compare_plans (QmPlansPage *self,
                                  GVariant    *ids)
{
  g_signal_emit (self, signals[COMPARE_PLANS], 0, ids);
}

/* Column widths when shown (the name column's is its minimum). Keep in
 * step with the fixed-width values in qm-plans-page.ui. */
static const int column_widths[N_COLUMNS] = { 160, 150, 150, 80, 72, 110, 130 };
static const Column column_priority[N_COLUMNS] = {
  COLUMN_NAME, COLUMN_COST, COLUMN_GPUS, COLUMN_CUSTOMER, COLUMN_MODEL, COLUMN_DAYS, COLUMN_MODIFIED,
};

/* ------------------------------------------------------------------ */
/* Cells                                                               */

static char *
format_modified (gint64     modified,
                 GDateTime *now)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (modified / G_USEC_PER_SEC);
  GTimeSpan ago;
  GDate d_when, d_now;
  int y, m, d, days;

  if (when == NULL)
    return g_strdup ("–");
  ago = g_date_time_difference (now, when);
  if (ago >= 0 && ago < G_TIME_SPAN_MINUTE)
    return g_strdup (_("Just now"));
  if (ago >= 0 && ago < G_TIME_SPAN_HOUR)
    {
      guint minutes = ago / G_TIME_SPAN_MINUTE;

      return g_strdup_printf (ngettext ("%u minute ago", "%u minutes ago", minutes), minutes);
    }

  g_date_time_get_ymd (when, &y, &m, &d);
  g_date_clear (&d_when, 1);
  g_date_set_dmy (&d_when, d, m, y);
  g_date_time_get_ymd (now, &y, &m, &d);
  g_date_clear (&d_now, 1);
  g_date_set_dmy (&d_now, d, m, y);
  days = g_date_days_between (&d_when, &d_now);

  if (days == 0)
    /* Translators: a time today, as g_date_time_format() takes it. */
    return g_date_time_format (when, C_("plan modified", "%H:%M"));
  if (days == 1)
    return g_strdup (_("Yesterday"));
  if (days > 1 && days < 7)
    return g_date_time_format (when, "%A");
  if (g_date_get_year (&d_when) == g_date_get_year (&d_now))
    /* Translators: a date this year, as g_date_time_format() takes it. */
    return g_date_time_format (when, C_("plan modified", "%-d %b"));
  /* Translators: a date in another year, as g_date_time_format() takes it. */
  return g_date_time_format (when, C_("plan modified", "%-d %b %Y"));
}

static char *
cell_text (QmPlansPage *self,
           Column       column,
           QmPlanItem  *item)
{
  const QmPlanSummary *s = qm_plan_item_get_summary (item);
  char buf[QM_FORMAT_BUF];

  switch (column)
    {
    case COLUMN_NAME:
      return g_strdup (qm_plan_item_get_name (item));
    case COLUMN_CUSTOMER:
      return g_strdup (s->customer);
    case COLUMN_MODEL:
      return g_strdup (qm_plan_item_get_model_label (item));
    case COLUMN_GPUS:
      return g_strdup (s->gpus > 0 ? qm_format_number (buf, sizeof buf, s->gpus, 0) : "–");
    case COLUMN_DAYS:
      return g_strdup (s->days > 0 ? qm_format_number (buf, sizeof buf, s->days, 1) : "–");
    case COLUMN_COST:
      return g_strdup (s->total_cost > 0 ? qm_format_money (buf, sizeof buf, s->total_cost, "USD") : "–");
    case COLUMN_MODIFIED:
      {
        g_autoptr(GDateTime) wall = g_date_time_new_now_local ();
        g_autoptr(GDateTime) now = g_date_time_add (wall, self != NULL ? self->clock_offset : 0);

        return format_modified (s->modified, now);
      }
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

/* The long form, asked for only when the pointer rests on a cell: a
 * tooltip set at bind time costs a pointer query to the display server
 * per cell, which made each search keystroke take hundreds of ms. */
static char *
cell_tooltip (Column      column,
              QmPlanItem *item)
{
  const QmPlanSummary *s = qm_plan_item_get_summary (item);
  char buf[QM_FORMAT_BUF];

  switch (column)
    {
    case COLUMN_NAME:
    case COLUMN_CUSTOMER:
      return cell_text (NULL, column, item);
    case COLUMN_MODEL:
      return g_strdup (s->model);
    case COLUMN_COST:
      return s->total_cost > 0 ? g_strdup_printf ("$%s", qm_format_number (buf, sizeof buf, s->total_cost, 0))
                               : NULL;
    case COLUMN_MODIFIED:
      {
        g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (s->modified / G_USEC_PER_SEC);

        return when != NULL ? g_date_time_format (when, "%c") : NULL;
      }
    case COLUMN_GPUS:
    case COLUMN_DAYS:
    case N_COLUMNS:
    default:
      return NULL;
    }
}

static gboolean
cell_query_tooltip_cb (GtkWidget   *label,
                       int          x,
                       int          y,
                       gboolean     keyboard_mode,
                       GtkTooltip  *tooltip,
                       GtkListItem *list_item)
{
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "qm-column"));
  QmRowSlot *slot = gtk_list_item_get_item (list_item);
  QmPlanItem *item = slot != NULL ? qm_row_slot_get_item (slot) : NULL;
  g_autofree char *text = item != NULL ? cell_tooltip (column, item) : NULL;

  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  gboolean numeric = column == COLUMN_GPUS || column == COLUMN_DAYS || column == COLUMN_COST;
  GtkWidget *label = qm_list_page_cell_new (numeric, numeric ? 4 : 8, 0);

  g_object_set_data (G_OBJECT (label), "qm-column", GINT_TO_POINTER (column));
  /* For ctrl_click_pressed_cb; the list item owns the label. */
  g_object_set_data (G_OBJECT (label), "qm-list-item", list_item);
  gtk_widget_set_has_tooltip (label, column != COLUMN_GPUS && column != COLUMN_DAYS);
  /* The list item owns the label, so it outlives this handler. */
  g_signal_connect (label, "query-tooltip", G_CALLBACK (cell_query_tooltip_cb), list_item);
  gtk_list_item_set_child (list_item, label);
}

static void
fill_cell_cb (GtkListItem *list_item,
              gpointer     item,
              gpointer     user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  QmPlansPage *page = (QmPlansPage *) gtk_widget_get_ancestor (label, QM_TYPE_PLANS_PAGE);
  g_autofree char *text = item != NULL ? cell_text (page, column, item) : NULL;

  gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
}

/* ------------------------------------------------------------------ */
/* Sorting                                                             */

#define CMP(a, b) ((a) < (b) ? GTK_ORDERING_SMALLER : (a) > (b) ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL)

/* The columns' ids in the template. */
static const char *const column_ids[N_COLUMNS] = {
  "name_column", "customer_column", "model_column", "gpus_column", "days_column", "cost_column",
  "modified_column",
};

/* A figure column's value in @s. */
static double
figure (const QmPlanSummary *s,
        Column               column)
{
  switch (column)
    {
    case COLUMN_GPUS:
      return s->gpus;
    case COLUMN_DAYS:
      return s->days;
    case COLUMN_COST:
      return s->total_cost;
    case COLUMN_NAME:
    case COLUMN_CUSTOMER:
    case COLUMN_MODEL:
    case COLUMN_MODIFIED:
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static int
compare_cb (gconstpointer a,
            gconstpointer b,
            gpointer      user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  QmPlanItem *ia = (QmPlanItem *) a, *ib = (QmPlanItem *) b;
  const QmPlanSummary *sa = qm_plan_item_get_summary (ia);
  const QmPlanSummary *sb = qm_plan_item_get_summary (ib);
  int r;

  if (column == COLUMN_NAME || column == COLUMN_CUSTOMER || column == COLUMN_MODEL)
    {
      QmPlanItemKey key = column == COLUMN_NAME ? QM_PLAN_ITEM_KEY_NAME
                          : column == COLUMN_CUSTOMER ? QM_PLAN_ITEM_KEY_CUSTOMER
                          : QM_PLAN_ITEM_KEY_MODEL;

      r = strcmp (qm_plan_item_get_sort_key (ia, key), qm_plan_item_get_sort_key (ib, key));
      r = CMP (r, 0);
    }
  else if (column == COLUMN_MODIFIED)
    r = CMP (sa->modified, sb->modified);
  else
    r = CMP (figure (sa, column), figure (sb, column));
  /* Ties keep a stable, meaningful order: newest first. */
  if (r == GTK_ORDERING_EQUAL && column != COLUMN_MODIFIED)
    r = CMP (sb->modified, sa->modified);
  if (r == GTK_ORDERING_EQUAL)
    r = CMP (sa->id, sb->id);
  return r;
}

/* ------------------------------------------------------------------ */
/* State                                                               */

/* The plan shown at @position, or NULL past the last row (padding). */
static QmPlanItem *
get_item (QmPlansPage *self,
          guint        position)
{
  return qm_list_page_state_get_item (&self->list, position);
}

guint
qm_plans_page_n_shown (QmPlansPage *self)
{
  return qm_list_page_state_n_shown (&self->list);
}

/* How many real rows are selected (select-all takes padding too, until
 * selection_changed_cb drops it). */
static guint
n_selected (QmPlansPage *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  guint n = qm_plans_page_n_shown (self);

  return n > 0 ? (guint) gtk_bitset_get_size_in_range (selected, 0, n - 1) : 0;
}

GArray *
qm_plans_page_get_selected_ids (QmPlansPage *self)
{
  g_autoptr(GtkBitset) selected = NULL;
  GtkBitsetIter iter;
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint position;

  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), ids);

  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, selected, &position);
       ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      /* The slot's plan: during a change the filtered list is already
       * new, while the rows (and the selection) still show the old. */
      g_autoptr(QmRowSlot) slot = g_list_model_get_item (G_LIST_MODEL (self->list.slots), position);
      QmPlanItem *item = slot != NULL ? qm_row_slot_get_item (slot) : NULL;
      gint64 id;

      if (item == NULL)
        break;   /* padding, and all after it */
      id = qm_plan_item_get_id (item);
      g_array_append_val (ids, id);
    }
  return ids;
}

gint64
qm_plans_page_get_single_selected_id (QmPlansPage *self)
{
  g_autoptr(GArray) ids = qm_plans_page_get_selected_ids (self);

  return ids->len == 1 ? g_array_index (ids, gint64, 0) : 0;
}

static gboolean
store_writable (QmPlansPage *self)
{
  /* On a team database, as the connected role's grants allow. */
  return self->store != NULL && (qm_store_rights (self->store) & QM_STORE_RIGHT_EDIT_PLANS);
}

void
qm_plans_page_update_actions (QmPlansPage *self)
{
  guint n = n_selected (self);
  gboolean writable = store_writable (self);
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (widget, "plans.import", writable);
  gtk_widget_action_set_enabled (widget, "plans.open-example", writable);
  gtk_widget_action_set_enabled (widget, "plans.compare", n >= 2 && n <= 4);
  gtk_widget_action_set_enabled (widget, "plans.delete", writable && n >= 1);
  gtk_widget_action_set_enabled (widget, "plans.duplicate", writable && n == 1);
  gtk_widget_action_set_enabled (widget, "plans.rename", writable && n == 1);
  gtk_widget_action_set_enabled (widget, "plans.export", self->store != NULL && n == 1);
  gtk_widget_action_set_enabled (widget, "plans.undo-delete",
                                 writable && self->undo_ids != NULL && self->undo_ids->len > 0);

  gtk_action_bar_set_revealed (self->action_bar, n > 0);
  if (n > 0)
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u selected", "%u selected", n), n);

      gtk_label_set_label (self->selection_label, text);
    }
}

void
qm_plans_page_update_view (QmPlansPage *self)
{
  guint n_plans = g_list_model_get_n_items (G_LIST_MODEL (self->plans));

  gtk_stack_set_visible_child_name (self->stack, n_plans > 0 ? "plans" : "empty");
  qm_list_page_show_state (self->list_stack, qm_plans_page_n_shown (self), "list", "no-matches");
}

static void
selection_changed_cb (QmPlansPage *self)
{
  guint n = qm_plans_page_n_shown (self);
  guint n_slots = g_list_model_get_n_items (G_LIST_MODEL (self->list.slots));
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  /* Padding rows are hidden: never leave them selected. The arrow keys
   * past the last row land here; keep that row selected, as GTK does. */
  if (n < n_slots && gtk_bitset_get_size_in_range (selected, n, n_slots - 1) > 0)
    {
      gboolean only_padding = n > 0 && gtk_bitset_get_size_in_range (selected, 0, n - 1) == 0;

      gtk_selection_model_unselect_range (GTK_SELECTION_MODEL (self->selection), n, n_slots - n);
      if (only_padding)
        gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), n - 1, TRUE);
      return;   /* the calls above report the change again */
    }
  qm_plans_page_update_actions (self);
}

/* The rows are about to show other plans (a search, a sort, a plan saved
 * or deleted), and the slots under the selection keep their positions:
 * note the selected plans while the slots still hold them. */
static void
rows_changing_cb (QmPlansPage *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  if (self->kept_ids == NULL && !gtk_bitset_is_empty (selected))
    self->kept_ids = qm_plans_page_get_selected_ids (self);
}

/* ... and select them again where they are now. */
static void
filtered_items_changed_cb (QmPlansPage *self)
{
  if (self->kept_ids != NULL)
    {
      g_autoptr(GArray) ids = g_steal_pointer (&self->kept_ids);

      qm_plans_page_select_ids (self, (const gint64 *) (gpointer) ids->data, ids->len);
    }
  qm_plans_page_update_view (self);
  qm_plans_page_update_actions (self);
}

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  QmPlansPage *self = user_data;

  return self->words == NULL ||
         qm_plan_search_matches (qm_plan_item_get_summary (item)->search_key, (const char * const *) self->words);
}

/* Filters the loaded rows by the search's words. */
static void
apply_search (QmPlansPage *self,
              const char  *text,
              gboolean     force)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));

  /* The filter reads the words: they go first. */
  g_clear_pointer (&self->words, g_strfreev);
  if (*stripped != '\0')
    self->words = qm_plan_search_words (stripped);
  qm_list_page_state_search (&self->list, stripped, QM_LIST_SEARCH_PREFIX, force);
}

static void
search_changed_cb (QmPlansPage *self)
{
  apply_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), FALSE);
}

static void
stop_search_cb (QmPlansPage *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  apply_search (self, "", FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

/* Selects the rows with these ids, and only them. */
void
qm_plans_page_select_ids (QmPlansPage  *self,
                          const gint64 *ids,
                          guint         n_ids)
{
  g_autoptr(GHashTable) wanted = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GtkBitset) selected = gtk_bitset_new_empty ();
  g_autoptr(GtkBitset) mask = NULL;
  guint n = qm_plans_page_n_shown (self);
  guint found = 0;

  for (guint i = 0; i < n_ids; i++)
    g_hash_table_add (wanted, (gpointer) &ids[i]);
  for (guint i = 0; found < g_hash_table_size (wanted) && i < n; i++)
    {
      g_autoptr(QmPlanItem) item = get_item (self, i);
      gint64 id = qm_plan_item_get_id (item);

      if (g_hash_table_contains (wanted, &id))
        {
          gtk_bitset_add (selected, i);
          found++;
        }
    }
  mask = gtk_bitset_new_range (0, g_list_model_get_n_items (G_LIST_MODEL (self->list.slots)));
  gtk_selection_model_set_selection (GTK_SELECTION_MODEL (self->selection), selected, mask);
}

static QmPlanSummary *
summary_from_saved (const QmSavedPlan *plan)
{
  QmPlanSummary *s = g_new0 (QmPlanSummary, 1);

  s->id = plan->id;
  s->name = g_strdup (plan->name);
  s->customer = g_strdup (plan->customer);
  s->quote_ref = g_strdup (plan->quote_ref);
  s->tags = g_strdup (plan->tags);
  s->model = g_strdup (plan->model);
  s->gpus = plan->gpus;
  s->days = plan->days;
  s->total_cost = plan->total_cost;
  s->catalog_version = g_strdup (plan->catalog_version);
  s->created = plan->created;
  s->modified = plan->modified;
  s->search_key = qm_plan_search_key (plan->name, plan->customer, plan->tags, plan->model, plan->quote_ref);
  return s;
}

/* The position of @id in the (unsorted, unfiltered) list, or -1. */
int
qm_plans_page_find_position (QmPlansPage *self,
                             gint64       id)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->plans));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(QmPlanItem) item = g_list_model_get_item (G_LIST_MODEL (self->plans), i);

      if (qm_plan_item_get_id (item) == id)
        return i;
    }
  return -1;
}

/* Puts the saved plan @id in the list (replacing its old row), keeping the
 * newest-first order, without re-reading every plan. */
gboolean
qm_plans_page_refresh_plan (QmPlansPage *self,
                            gint64       id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) plan = qm_plan_store_load (self->store, id, &error);
  g_autoptr(QmPlanItem) item = NULL;
  guint n, pos;
  int old;

  if ((old = qm_plans_page_find_position (self, id)) >= 0)
    g_list_store_remove (self->plans, old);
  if (plan == NULL)
    {
      /* Said, not only logged (issue #34 item 4). */
      qm_plans_page_show_toast (self, error->message);
      return FALSE;
    }

  item = qm_plan_item_new (summary_from_saved (plan));
  n = g_list_model_get_n_items (G_LIST_MODEL (self->plans));
  for (pos = 0; pos < n; pos++)
    {
      g_autoptr(QmPlanItem) other = g_list_model_get_item (G_LIST_MODEL (self->plans), pos);

      if (qm_plan_item_get_summary (other)->modified <= plan->modified)
        break;
    }
  /* The filter takes the new row as it comes: a search hides it unless
   * it matches. */
  g_list_store_insert (self->plans, pos, item);
  return TRUE;
}

void
qm_plans_page_reload (QmPlansPage *self)
{
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (QM_IS_PLANS_PAGE (self));

  if (self->store != NULL)
    {
      list = qm_plan_store_list (self->store, NULL, &error);
      /* Keep the rows shown rather than empty the list: a team server
       * that went away is the window's banner to say, and comes back. */
      if (list == NULL)
        {
          if (!qm_store_connection_lost (self->store))
            qm_plans_page_show_toast (self, error->message);
          return;
        }
    }

  items = g_ptr_array_new_full (list != NULL ? list->len : 0, g_object_unref);
  if (list != NULL)
    {
      /* The items take the summaries over. */
      g_ptr_array_set_free_func (list, NULL);
      for (guint i = 0; i < list->len; i++)
        g_ptr_array_add (items, qm_plan_item_new (g_ptr_array_index (list, i)));
    }
  g_list_store_splice (self->plans, 0, g_list_model_get_n_items (G_LIST_MODEL (self->plans)),
                       items->pdata, items->len);

  /* The selection keeps its plans through both changes
   * (rows_changing_cb). */
  apply_search (self, self->list.search, TRUE);
  qm_plans_page_update_view (self);
  qm_plans_page_update_actions (self);
}

/* ------------------------------------------------------------------ */
/* Dialogs and toasts                                                  */

void
qm_plans_page_show_toast (QmPlansPage *self,
                          const char  *title)
{
  /* Toast titles are Pango markup on libadwaita 1.2, and plan names are
   * the user's text. */
  g_autofree char *escaped = g_markup_escape_text (title, -1);
  AdwToast *toast = adw_toast_new (escaped);

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* A store error as a sentence for a dialog: what went wrong in words first,
 * then the store's own message. */
static char *
describe_store_error (const GError *error)
{
  const char *hint = NULL;

  if (error->domain == QM_STORE_ERROR)
    switch (error->code)
      {
      case QM_STORE_ERROR_FULL:
        hint = _("The disk is full. Free some space and try again.");
        break;
      case QM_STORE_ERROR_READ_ONLY:
        hint = _("The location cannot be written to. Choose another folder, or check its permissions.");
        break;
      case QM_STORE_ERROR_LOCKED:
        hint = _("Another program is using the plans database. Close it and try again.");
        break;
      default:
        break;
      }
  return hint != NULL ? g_strdup_printf ("%s\n\n%s", hint, error->message) : g_strdup (error->message);
}

void
qm_plans_page_show_store_error (QmPlansPage  *self,
                                const char   *heading,
                                const GError *error)
{
  g_autofree char *body = describe_store_error (error);

  qm_list_page_show_error (GTK_WIDGET (self), heading, body);
}

/* ------------------------------------------------------------------ */
/* Other actions and signals                                           */

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  QmPlansPage *self = QM_PLANS_PAGE (widget);

  if (g_str_equal (gtk_stack_get_visible_child_name (self->stack), "plans"))
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
new_plan_clicked_cb (QmPlansPage *self)
{
  g_signal_emit (self, signals[NEW_PLAN], 0);
}

static void
row_activated_cb (QmPlansPage *self,
                  guint        position)
{
  g_autoptr(QmPlanItem) item = get_item (self, position);

  if (item != NULL)
    g_signal_emit (self, signals[OPEN_PLAN], 0, qm_plan_item_get_id (item));
}

/* ------------------------------------------------------------------ */
/* Narrow widths: drop the least important columns rather than scroll   */
/* sideways (AdwBreakpoint is libadwaita 1.4).                          */

static guint
columns_for_width (int width)
{
  guint visible = 0;
  int used = 0;

  for (guint i = 0; i < N_COLUMNS; i++)
    {
      Column c = column_priority[i];

      if (i > 0 && used + column_widths[c] > width)
        break;
      used += column_widths[c];
      visible |= 1u << c;
    }
  return visible;
}

static gboolean
apply_columns_idle (gpointer user_data)
{
  QmPlansPage *self = user_data;
  guint position = 0;

  self->columns_idle = 0;
  /* Removed and put back rather than hidden: GTK 4.8 still counts hidden
   * columns in the view's width, so the name column would not expand. */
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkColumnViewColumn *column = self->columns[c];
      gboolean shown = gtk_column_view_column_get_column_view (column) != NULL;
      gboolean wanted = (self->visible_columns & (1u << c)) != 0;

      if (shown && !wanted)
        gtk_column_view_remove_column (self->column_view, column);
      else if (!shown && wanted)
        gtk_column_view_insert_column (self->column_view, position, column);
      if (wanted)
        position++;
    }
  return G_SOURCE_REMOVE;
}

static void
qm_plans_page_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  QmPlansPage *self = QM_PLANS_PAGE (widget);

  gtk_widget_measure (GTK_WIDGET (self->toast_overlay), orientation, for_size,
                      minimum, natural, minimum_baseline, natural_baseline);
}

static void
qm_plans_page_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  QmPlansPage *self = QM_PLANS_PAGE (widget);

  gtk_widget_allocate (GTK_WIDGET (self->toast_overlay), width, height, baseline, NULL);

  /* Less the list's margins and the scrollbar. */
  if (width != self->columns_width)
    {
      guint visible = columns_for_width (width - 24);

      self->columns_width = width;
      if (visible != self->visible_columns)
        {
          self->visible_columns = visible;
          /* Not during allocation: that would resize what is being laid out. */
          if (self->columns_idle == 0)
            self->columns_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, apply_columns_idle, self, NULL);
        }
    }
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

/* The relative dates ("Just now", "5 minutes ago") follow the clock. */
static gboolean
clock_tick_cb (gpointer data)
{
  QmPlansPage *self = data;

  if (self->list.slots != NULL)
    qm_row_slots_refill (self->list.slots);
  return G_SOURCE_CONTINUE;
}

void
qm_plans_page_advance_clock (QmPlansPage *self,
                             GTimeSpan    by)
{
  g_return_if_fail (QM_IS_PLANS_PAGE (self));

  self->clock_offset += by;
  clock_tick_cb (self);
}

static void
qm_plans_page_map (GtkWidget *widget)
{
  QmPlansPage *self = QM_PLANS_PAGE (widget);

  GTK_WIDGET_CLASS (qm_plans_page_parent_class)->map (widget);
  /* Shown again after a while: the dates first, then every minute. */
  clock_tick_cb (self);
  if (self->clock_source == 0)
    {
      self->clock_source = g_timeout_add_seconds (60, clock_tick_cb, self);
      g_source_set_name_by_id (self->clock_source, "[quartermaster] plans page clock");
    }
}

static void
qm_plans_page_unmap (GtkWidget *widget)
{
  QmPlansPage *self = QM_PLANS_PAGE (widget);

  g_clear_handle_id (&self->clock_source, g_source_remove);
  GTK_WIDGET_CLASS (qm_plans_page_parent_class)->unmap (widget);
}

static void
qm_plans_page_dispose (GObject *object)
{
  QmPlansPage *self = QM_PLANS_PAGE (object);

  g_clear_handle_id (&self->columns_idle, g_source_remove);
  g_clear_handle_id (&self->clock_source, g_source_remove);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_weak_pointer (&self->undo_toast);
  /* Tearing the column view down changes the models: no updates to the
   * widgets that are going away. */
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_pointer (&self->kept_ids, g_array_unref);
  if (self->list.filtered != NULL)
    g_signal_handlers_disconnect_by_data (self->list.filtered, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_PLANS_PAGE);
  for (guint c = 0; c < N_COLUMNS; c++)
    g_clear_object (&self->columns[c]);

  g_clear_object (&self->selection);
  qm_list_page_state_clear (&self->list);
  g_clear_object (&self->sorted);
  g_clear_object (&self->plans);
  g_clear_pointer (&self->words, g_strfreev);
  g_clear_pointer (&self->undo_ids, g_array_unref);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_plans_page_parent_class)->dispose (object);
}

static void
qm_plans_page_class_init (QmPlansPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_plans_page_dispose;
  widget_class->measure = qm_plans_page_measure;
  widget_class->size_allocate = qm_plans_page_size_allocate;
  widget_class->map = qm_plans_page_map;
  widget_class->unmap = qm_plans_page_unmap;

  signals[OPEN_PLAN] =
    g_signal_new ("open-plan", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  /* A GVariant of type "ax": the selected ids in list order. */
  signals[COMPARE_PLANS] =
    g_signal_new ("compare-plans", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_VARIANT);
  signals[NEW_PLAN] =
    g_signal_new ("new-plan", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  qm_gtk_class_set_template (widget_class, "qm-plans-page.ui");
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, stack);
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, list_stack);
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, example_button);
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, action_bar);
  gtk_widget_class_bind_template_child (widget_class, QmPlansPage, selection_label);
  for (guint c = 0; c < N_COLUMNS; c++)
    gtk_widget_class_bind_template_child_full (widget_class, column_ids[c], FALSE,
                                               G_STRUCT_OFFSET (QmPlansPage, columns) +
                                               c * sizeof (GtkColumnViewColumn *));
  gtk_widget_class_bind_template_callback (widget_class, new_plan_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  qm_plans_page_class_actions_init (widget_class);
  gtk_widget_class_install_action (widget_class, "plans.search", NULL, search_action);

  /* Inside the page; the window adds Ctrl+O and Ctrl+F for the whole window. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "plans.import", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "plans.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "plans.rename", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "plans.export", NULL);
}

/* GTK 4.8's column view acts on a click twice: its cell and its row each
 * have a click gesture that activates list.select-item. That is harmless
 * for a click or a Shift+click, which select the same again, but
 * Ctrl+click added the plan and took it straight back out (issue #35
 * item 7). Ctrl+click is done here once, in the capture phase, and the
 * claimed click goes no further. */
static void
ctrl_click_pressed_cb (GtkGestureClick *gesture,
                       int              n_press,
                       double           x,
                       double           y,
                       QmPlansPage     *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  GtkWidget *view = GTK_WIDGET (self->column_view);
  GtkWidget *cell = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);
  GtkListItem *list_item = NULL;
  guint position;

  if ((state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) != GDK_CONTROL_MASK)
    cell = NULL;
  for (; cell != NULL && cell != view; cell = gtk_widget_get_parent (cell))
    if ((list_item = g_object_get_data (G_OBJECT (cell), "qm-list-item")) != NULL)
      break;
  position = list_item != NULL ? gtk_list_item_get_position (list_item) : GTK_INVALID_LIST_POSITION;
  /* Not on a plan (a header, a hidden padding row): GTK's own handling. */
  if (position == GTK_INVALID_LIST_POSITION || position >= qm_plans_page_n_shown (self))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  /* GTK's own action, so that a later Shift+click extends from here. */
  gtk_widget_activate_action (cell, "list.select-item", "(ubb)", position, TRUE, FALSE);
  for (GtkWidget *w = cell; w != NULL && w != view; w = gtk_widget_get_parent (w))
    if (gtk_widget_get_focusable (w))
      {
        gtk_widget_grab_focus (w);
        break;
      }
}

static GtkListItemFactory *
column_factory (QmPlansPage *self,
                Column       column)
{
  /* The page owns the columns, which own the factory: &self->list.slots
   * outlives it (and is NULL from dispose on). */
  return qm_list_page_cell_factory_new (&self->list.slots, G_CALLBACK (setup_cell_cb), fill_cell_cb,
                                        GINT_TO_POINTER (column), NULL);
}

static void
qm_plans_page_init (QmPlansPage *self)
{
  g_autoptr(GMenuModel) examples = NULL;
  GtkShortcutController *shortcuts;
  GtkSorter *sorter;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Also in the template; set here so the accessibility test can read it. */
  qm_a11y_label (GTK_WIDGET (self->search_entry), _("Search plans"));
  self->visible_columns = (1u << N_COLUMNS) - 1;

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      g_autoptr(GtkListItemFactory) factory = column_factory (self, c);

      /* Our own reference: narrow widths take columns out of the view. */
      g_object_ref (self->columns[c]);
      g_autoptr(GtkSorter) column_sorter = GTK_SORTER (gtk_custom_sorter_new (compare_cb, GINT_TO_POINTER (c), NULL));

      gtk_column_view_column_set_factory (self->columns[c], factory);
      gtk_column_view_column_set_sorter (self->columns[c], column_sorter);
    }
  /* A table to assistive technology: cells named with their header (the
   * view's name, "Saved plans", is in the template). */
  qm_a11y_table (self->column_view, NULL);

  self->plans = g_list_store_new (QM_TYPE_PLAN_ITEM);
  sorter = gtk_column_view_get_sorter (self->column_view);
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->plans)),
                                          sorter != NULL ? g_object_ref (sorter) : NULL);
  /* Before the slots see the change, and after. */
  qm_list_page_state_init (&self->list, G_LIST_MODEL (self->sorted), filter_cb, self,
                           G_CALLBACK (rows_changing_cb));
  g_signal_connect_object (self->list.filtered, "items-changed",
                           G_CALLBACK (filtered_items_changed_cb), self, G_CONNECT_SWAPPED);
  self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->list.slots)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->column_view, self->columns[COLUMN_MODIFIED], GTK_SORT_DESCENDING);

  g_signal_connect_object (self->selection, "selection-changed",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  {
    GtkGesture *click = gtk_gesture_click_new ();

    gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
    gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
    g_signal_connect (click, "pressed", G_CALLBACK (ctrl_click_pressed_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));
  }

  /* Delete only when the list has the focus: in the search entry the key
   * edits the text. */
  shortcuts = GTK_SHORTCUT_CONTROLLER (gtk_shortcut_controller_new ());
  gtk_shortcut_controller_add_shortcut (shortcuts,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Delete, 0),
                                                          gtk_named_action_new ("plans.delete")));
  gtk_shortcut_controller_add_shortcut (shortcuts,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_KP_Delete, 0),
                                                          gtk_named_action_new ("plans.delete")));
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (shortcuts));

  /* Typing in the list starts a search. */
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->column_view));

  examples = qm_plans_page_build_examples_menu ();
  gtk_menu_button_set_menu_model (self->example_button, examples);

  qm_plans_page_update_view (self);
  qm_plans_page_update_actions (self);
  /* Buttons with a mnemonic are read without it (issue #37 item 10). */
  qm_a11y_fix_mnemonics (GTK_WIDGET (self));
}

GtkWidget *
qm_plans_page_new (QmStore *store)
{
  QmPlansPage *self = g_object_new (QM_TYPE_PLANS_PAGE, NULL);

  /* The store is a plain field (qm_plans_page_set_store), not a property:
   * nothing binds to it. */
  qm_plans_page_set_store (self, store);
  return GTK_WIDGET (self);
}

QmStore *
qm_plans_page_get_store (QmPlansPage *self)
{
  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), NULL);

  return self->store;
}

void
qm_plans_page_set_store (QmPlansPage *self,
                         QmStore     *store)
{
  g_return_if_fail (QM_IS_PLANS_PAGE (self));

  if (self->store == store)
    return;
  if (store != NULL)
    qm_store_ref (store);
  g_clear_pointer (&self->store, qm_store_unref);
  self->store = store;
  g_clear_pointer (&self->undo_ids, g_array_unref);
  qm_plans_page_reload (self);
}

const char *
qm_plans_page_get_search (QmPlansPage *self)
{
  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), NULL);

  return self->list.search != NULL ? self->list.search : "";
}

void
qm_plans_page_set_search (QmPlansPage *self,
                          const char  *text)
{
  g_return_if_fail (QM_IS_PLANS_PAGE (self));

  if (text == NULL)
    text = "";
  qm_list_page_set_search_text (GTK_EDITABLE (self->search_entry), text, search_changed_cb, self);
  apply_search (self, text, FALSE);
}

GtkSelectionModel *
qm_plans_page_get_model (QmPlansPage *self)
{
  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), NULL);

  return GTK_SELECTION_MODEL (self->selection);
}

GListModel *
qm_plans_page_get_rows (QmPlansPage *self)
{
  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), NULL);

  return G_LIST_MODEL (self->list.filtered);
}

guint
qm_plans_page_get_n_plans (QmPlansPage *self)
{
  g_return_val_if_fail (QM_IS_PLANS_PAGE (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->plans));
}
