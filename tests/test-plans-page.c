/* test-plans-page.c: the Plans page under a real display: the list and its
 * columns, search, sort, delete with undo, duplicate, rename, the examples,
 * bad plan files, compare, export failures, selecting with Ctrl+click and
 * Shift+click (real clicks through Xvfb), and screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "qm-plan-item.h"
#include "qm-plans-page.h"
#include "qm-plans-page-private.h"
#include "qm-test-keys.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-test-util.h"

typedef struct
{
  char        *dir;
  QmStore     *store;
  GtkWidget   *window;
  QmPlansPage *page;
  gint64       ids[4];
  gint64       opened;
  guint        n_opened;
  GVariant    *compared;
} Fixture;

/* Four plans, saved oldest first: "Delta" is the newest. */
static const struct {
  const char *name, *customer, *model, *tags;
  guint gpus;
  double days, cost;
} seeds[] = {
  { "Alpha pretrain", "Acme Corp", "llama-3.1-70b", "pretrain, h100", 2048, 31.5, 123456789.0 },
  { "Bravo fine-tune", "Globex", "mistral-7b", "lora, a100", 8, 1.2, 45000.0 },
  { "Charlie serving", "Acme Corp", "llama-3.1-405b", "inference", 512, 0, 9876543.0 },
  { "Delta big run", "Initech", "deepseek-v3", "moe, rent", 16384, 58.25, 2.5e9 },
};

static void
open_plan_cb (QmPlansPage *page,
              gint64       id,
              Fixture     *f)
{
  f->opened = id;
  f->n_opened++;
}

static void
compare_plans_cb (QmPlansPage *page,
                  GVariant    *ids,
                  Fixture     *f)
{
  g_clear_pointer (&f->compared, g_variant_unref);
  f->compared = g_variant_ref (ids);
}

static void
fixture_open_page (Fixture *f,
                   int      width)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();

  f->page = QM_PLANS_PAGE (qm_plans_page_new (f->store));
  g_signal_connect (f->page, "open-plan", G_CALLBACK (open_plan_cb), f);
  g_signal_connect (f->page, "compare-plans", G_CALLBACK (compare_plans_cb), f);
  gtk_widget_set_vexpand (GTK_WIDGET (f->page), TRUE);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), adw_window_title_new ("Plans", NULL));
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (f->page));

  f->window = adw_window_new ();
  adw_window_set_content (ADW_WINDOW (f->window), box);
  gtk_window_set_default_size (GTK_WINDOW (f->window), width, 560);
  gtk_window_present (GTK_WINDOW (f->window));
  gtk_test_widget_wait_for_draw (f->window);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  gboolean empty = GPOINTER_TO_INT (data);

  f->dir = g_dir_make_tmp ("qm-plans-page-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->dir, "plans.db", NULL);
  f->store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);

  for (guint i = 0; !empty && i < G_N_ELEMENTS (seeds); i++)
    {
      g_autoptr(QmSavedPlan) plan = qm_test_saved_plan (seeds[i].name, seeds[i].customer, seeds[i].cost);

      g_free (plan->model);
      plan->model = g_strdup (seeds[i].model);
      g_free (plan->tags);
      plan->tags = g_strdup (seeds[i].tags);
      plan->gpus = seeds[i].gpus;
      plan->days = seeds[i].days;
      g_assert_true (qm_plan_store_save (f->store, plan, &error));
      g_assert_no_error (error);
      f->ids[i] = plan->id;   /* the store gives each save its own modified time */
    }

  fixture_open_page (f, 1000);
}

static void
close_dialogs (void)
{
  GList *toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data))
      gtk_window_destroy (l->data);
  g_list_free (toplevels);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_pointer (&f->compared, g_variant_unref);
  g_clear_pointer (&f->store, qm_store_free);
  qm_test_remove_tree (f->dir);
  g_free (f->dir);
}

/* ------------------------------------------------------------------ */

static void
collect_texts (GtkWidget *widget,
               GString   *out)
{
  if (GTK_IS_INSCRIPTION (widget) && gtk_widget_get_mapped (widget))
    g_string_append_printf (out, "%s|", gtk_inscription_get_text (GTK_INSCRIPTION (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_texts (c, out);
}

static gboolean
column_shown (Fixture    *f,
              const char *title)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW));
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_str_equal (gtk_column_view_column_get_title (column), title))
        return TRUE;
    }
  return FALSE;
}

static GtkColumnViewColumn *
find_column (Fixture    *f,
             const char *title)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW));
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_str_equal (gtk_column_view_column_get_title (column), title))
        return column;
    }
  g_assert_not_reached ();
}

static guint
n_rows (Fixture *f)
{
  return g_list_model_get_n_items (qm_plans_page_get_rows (f->page));
}

static gint64
row_id (Fixture *f,
        guint    position)
{
  g_autoptr(QmPlanItem) item = g_list_model_get_item (qm_plans_page_get_rows (f->page), position);

  return qm_plan_item_get_id (item);
}

static const QmPlanSummary *
row (Fixture *f,
     guint    position)
{
  g_autoptr(QmPlanItem) item = g_list_model_get_item (qm_plans_page_get_rows (f->page), position);

  /* The model keeps the item alive. */
  return qm_plan_item_get_summary (item);
}

static const char *
visible_page (Fixture *f)
{
  GtkStack *stack = GTK_STACK (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_STACK));

  return gtk_stack_get_visible_child_name (stack);
}

static void
select_rows (Fixture     *f,
             const guint *positions,
             guint        n)
{
  GtkSelectionModel *model = qm_plans_page_get_model (f->page);

  gtk_selection_model_unselect_all (model);
  for (guint i = 0; i < n; i++)
    gtk_selection_model_select_item (model, positions[i], FALSE);
}

static guint
position_of (Fixture *f,
             gint64   id)
{
  for (guint i = 0; i < n_rows (f); i++)
    if (row_id (f, i) == id)
      return i;
  g_assert_not_reached ();
}

/* The rows GTK shows are the filtered list in order, one per plan: the
 * padding rows past its end (qm-row-slots.h) are hidden, and no row on
 * screen shows an older plan. */
static void
check_rows_on_screen (Fixture *f)
{
  GtkWidget *view = qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW);
  GtkWidget *list = NULL;
  guint position = 0, shown_rows = 0;

  gtk_test_widget_wait_for_draw (GTK_WIDGET (f->window));
  for (GtkWidget *c = gtk_widget_get_first_child (view); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      list = c;
  g_assert_nonnull (list);

  for (GtkWidget *r = gtk_widget_get_first_child (list); r; r = gtk_widget_get_next_sibling (r), position++)
    {
      GtkWidget *cell = gtk_widget_get_first_child (r);
      GtkWidget *name = cell != NULL ? gtk_widget_get_first_child (cell) : NULL;

      if (!GTK_IS_INSCRIPTION (name) || !gtk_widget_get_visible (r))
        continue;
      shown_rows++;
      g_assert_cmpuint (position, <, n_rows (f));
      if (gtk_widget_get_mapped (r))
        g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (name)), ==, row (f, position)->name);
    }
  g_assert_cmpuint (shown_rows, ==, n_rows (f));
}

/* The selected plans, as a sorted, comma-separated list of their indices
 * in f->ids, for readable assertions. */
static char *
selected_plans (Fixture *f)
{
  g_autoptr(GArray) ids = qm_plans_page_get_selected_ids (f->page);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint k = 0; k < G_N_ELEMENTS (f->ids); k++)
    for (guint i = 0; i < ids->len; i++)
      if (g_array_index (ids, gint64, i) == f->ids[k])
        g_string_append_printf (out, "%s%u", out->len > 0 ? "," : "", k);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static AdwMessageDialog *
find_dialog (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  AdwMessageDialog *dialog = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_list_free (toplevels);
  return dialog;
}

static GtkWidget *
find_actionable (GtkWidget  *widget,
                 const char *action)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_actionable (c, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether @action is enabled, as the button that uses it shows. */
static gboolean
action_enabled (GtkWidget  *page,
                const char *action)
{
  GtkWidget *button = find_actionable (page, action);

  g_assert_nonnull (button);
  return gtk_widget_get_sensitive (button);
}

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* ------------------------------------------------------------------ */

static void
test_list (Fixture       *f,
           gconstpointer  data)
{
  static const char *titles[] = { "Name", "Customer", "Model", "GPUs", "Days", "Total Cost", "Modified" };
  GtkColumnView *view = GTK_COLUMN_VIEW (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW));
  GListModel *columns = gtk_column_view_get_columns (view);
  g_autoptr(GString) texts = g_string_new ("|");

  g_assert_cmpstr (visible_page (f), ==, "plans");
  g_assert_cmpuint (qm_plans_page_get_n_plans (f->page), ==, 4);
  g_assert_cmpuint (n_rows (f), ==, 4);

  g_assert_cmpuint (g_list_model_get_n_items (columns), ==, G_N_ELEMENTS (titles));
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, titles[i]);
      g_assert_nonnull (gtk_column_view_column_get_sorter (column));
      g_assert_true (gtk_column_view_column_get_visible (column));
    }

  /* Newest first. */
  g_assert_cmpint (row_id (f, 0), ==, f->ids[3]);
  g_assert_cmpint (row_id (f, 3), ==, f->ids[0]);

  /* Thousands separators, money, the catalog's model names, "–" for a
   * serving plan's days, and a relative date. */
  gtk_test_widget_wait_for_draw (f->window);
  collect_texts (GTK_WIDGET (f->page), texts);
  g_test_message ("cells: %s", texts->str);
  g_assert_nonnull (strstr (texts->str, "|Alpha pretrain|Acme Corp|Llama 3.1 70B|2,048|31.5|$123 M|"));
  g_assert_nonnull (strstr (texts->str, "|Bravo fine-tune|Globex|"));
  g_assert_nonnull (strstr (texts->str, "|8|1.2|$45,000|"));
  g_assert_nonnull (strstr (texts->str, "|16,384|58.3|$2,500 M|"));
  g_assert_nonnull (strstr (texts->str, "|512|–|$9.9 M|"));
  g_assert_nonnull (strstr (texts->str, "|Just now|"));

  /* Six minutes on, the page says so by itself (issue #35 item 10: it said
   * "Just now" until something else redrew the list). */
  qm_plans_page_advance_clock (f->page, 6 * G_TIME_SPAN_MINUTE + 5 * G_TIME_SPAN_SECOND);
  gtk_test_widget_wait_for_draw (f->window);
  g_string_assign (texts, "|");
  collect_texts (GTK_WIDGET (f->page), texts);
  g_assert_null (strstr (texts->str, "|Just now|"));
  g_assert_nonnull (strstr (texts->str, "|6 minutes ago|"));
  qm_plans_page_advance_clock (f->page, -(6 * G_TIME_SPAN_MINUTE + 5 * G_TIME_SPAN_SECOND));
  gtk_test_widget_wait_for_draw (f->window);

  /* Activating a row opens its plan. */
  g_signal_emit_by_name (view, "activate", 1);
  g_assert_cmpint (f->opened, ==, f->ids[2]);

  qm_test_screenshot (f->window, "plans-page-wide-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (f->window, "plans-page-wide-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* With a selection, the action bar shows. */
  select_rows (f, (guint[]) { 0, 2 }, 2);
  qm_test_screenshot (f->window, "plans-page-selected-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
}

static void
test_narrow (Fixture       *f,
             gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  fixture_open_page (f, 400);
  iterate ();
  gtk_test_widget_wait_for_draw (f->window);

  /* Too narrow for all seven: the least important columns go. */
  g_assert_true (column_shown (f, "Name"));
  g_assert_true (column_shown (f, "Total Cost"));
  g_assert_true (column_shown (f, "GPUs"));
  g_assert_false (column_shown (f, "Modified"));
  g_assert_false (column_shown (f, "Model"));
  /* The name takes the room that is left, without scrolling sideways. */
  {
    GtkWidget *view = qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW);
    int minimum;

    gtk_widget_measure (view, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
    g_assert_cmpint (minimum, <=, gtk_widget_get_width (view));
  }

  /* Wide again: all seven are back, in their order. */
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 560);
  iterate ();
  gtk_test_widget_wait_for_draw (f->window);
  iterate ();
  {
    GtkColumnView *view = GTK_COLUMN_VIEW (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW));
    GListModel *columns = gtk_column_view_get_columns (view);
    g_autoptr(GtkColumnViewColumn) last = NULL;

    g_assert_cmpuint (g_list_model_get_n_items (columns), ==, 7);
    last = g_list_model_get_item (columns, 6);
    g_assert_cmpstr (gtk_column_view_column_get_title (last), ==, "Modified");
  }
  gtk_window_set_default_size (GTK_WINDOW (f->window), 400, 560);
  iterate ();
  gtk_test_widget_wait_for_draw (f->window);
  iterate ();

  qm_test_screenshot (f->window, "plans-page-narrow-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (f->window, "plans-page-narrow-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  select_rows (f, (guint[]) { 0, 1 }, 2);
  qm_test_screenshot (f->window, "plans-page-narrow-selected-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  GtkSearchEntry *entry = GTK_SEARCH_ENTRY (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_SEARCH_ENTRY));

  /* Customer. */
  qm_plans_page_set_search (f->page, "acme");
  g_assert_cmpuint (n_rows (f), ==, 2);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "acme");
  /* Typing on narrows; every word must match. */
  qm_plans_page_set_search (f->page, "acme serv");
  g_assert_cmpuint (n_rows (f), ==, 1);
  g_assert_cmpint (row_id (f, 0), ==, f->ids[2]);
  /* Tags and model. */
  qm_plans_page_set_search (f->page, "lora");
  g_assert_cmpuint (n_rows (f), ==, 1);
  g_assert_cmpint (row_id (f, 0), ==, f->ids[1]);
  qm_plans_page_set_search (f->page, "deepseek");
  g_assert_cmpuint (n_rows (f), ==, 1);
  g_assert_cmpint (row_id (f, 0), ==, f->ids[3]);

  /* Nothing matches: the "No Matches" page. */
  qm_plans_page_set_search (f->page, "zzz");
  g_assert_cmpuint (n_rows (f), ==, 0);
  g_assert_cmpstr (visible_page (f), ==, "plans");
  qm_test_screenshot (f->window, "plans-page-no-matches-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* Typing in the entry searches too (after its typing delay). */
  gtk_editable_set_text (GTK_EDITABLE (entry), "globex");
  for (gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC; n_rows (f) != 1 && g_get_monotonic_time () < end;)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (n_rows (f), ==, 1);
  g_assert_cmpstr (qm_plans_page_get_search (f->page), ==, "globex");

  /* Ctrl+F focuses the entry; clearing shows all again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "plans.search", NULL));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (entry)) ||
                 gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f->window)), GTK_WIDGET (entry)));
  qm_plans_page_set_search (f->page, "");
  g_assert_cmpuint (n_rows (f), ==, 4);
}

static guint64
n_selected_positions (GtkSelectionModel *model)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (model);

  return gtk_bitset_get_size (selected);
}

/* The selection follows the plans, not the row positions, through
 * searches and sorts; padding rows never count as selected. */
static void
test_search_selection (Fixture       *f,
                       gconstpointer  data)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW));
  GtkSelectionModel *model = qm_plans_page_get_model (f->page);
  g_autofree char *two = NULL, *after_search = NULL, *after_clear = NULL, *after_sort = NULL;
  g_autofree char *all = NULL;

  check_rows_on_screen (f);
  select_rows (f, (guint[]) { position_of (f, f->ids[1]), position_of (f, f->ids[2]) }, 2);
  two = selected_plans (f);
  g_assert_cmpstr (two, ==, "1,2");

  /* "acme" shows plans 0 and 2: plan 2 stays selected wherever it is. */
  qm_plans_page_set_search (f->page, "acme");
  g_assert_cmpuint (n_rows (f), ==, 2);
  after_search = selected_plans (f);
  g_assert_cmpstr (after_search, ==, "2");
  check_rows_on_screen (f);
  qm_test_screenshot (f->window, "plans-page-search-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  qm_plans_page_set_search (f->page, "");
  after_clear = selected_plans (f);
  g_assert_cmpstr (after_clear, ==, "2");
  g_assert_cmpuint (n_selected_positions (model), ==, 1);
  check_rows_on_screen (f);

  gtk_column_view_sort_by_column (view, find_column (f, "GPUs"), GTK_SORT_ASCENDING);
  after_sort = selected_plans (f);
  g_assert_cmpstr (after_sort, ==, "2");
  g_assert_true (gtk_selection_model_is_selected (model, position_of (f, f->ids[2])));
  check_rows_on_screen (f);

  /* A reload (another part of the app saved a plan) keeps it too. */
  qm_plans_page_reload (f->page);
  {
    g_autofree char *after_reload = selected_plans (f);

    g_assert_cmpstr (after_reload, ==, "2");
  }

  /* Select all takes the plans shown, not the hidden padding rows. */
  qm_plans_page_set_search (f->page, "acme");
  gtk_selection_model_select_all (model);
  all = selected_plans (f);
  g_assert_cmpstr (all, ==, "0,2");
  g_assert_cmpuint (n_selected_positions (model), ==, 2);
  g_assert_true (action_enabled (GTK_WIDGET (f->page), "plans.compare"));
}

static void
test_sort (Fixture       *f,
           gconstpointer  data)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_COLUMN_VIEW));

  gtk_column_view_sort_by_column (view, find_column (f, "GPUs"), GTK_SORT_ASCENDING);
  g_assert_cmpuint (row (f, 0)->gpus, ==, 8);
  g_assert_cmpuint (row (f, 1)->gpus, ==, 512);
  g_assert_cmpuint (row (f, 2)->gpus, ==, 2048);
  g_assert_cmpuint (row (f, 3)->gpus, ==, 16384);

  gtk_column_view_sort_by_column (view, find_column (f, "GPUs"), GTK_SORT_DESCENDING);
  g_assert_cmpuint (row (f, 0)->gpus, ==, 16384);
  g_assert_cmpuint (row (f, 3)->gpus, ==, 8);

  /* Money is numeric, not text: $45,000 < $9.9 M < $123 M < $2,500 M. */
  gtk_column_view_sort_by_column (view, find_column (f, "Total Cost"), GTK_SORT_ASCENDING);
  g_assert_cmpint (row_id (f, 0), ==, f->ids[1]);
  g_assert_cmpint (row_id (f, 1), ==, f->ids[2]);
  g_assert_cmpint (row_id (f, 3), ==, f->ids[3]);

  gtk_column_view_sort_by_column (view, find_column (f, "Customer"), GTK_SORT_ASCENDING);
  g_assert_cmpstr (row (f, 0)->customer, ==, "Acme Corp");
  g_assert_cmpstr (row (f, 3)->customer, ==, "Initech");

  /* A search keeps the sort. */
  gtk_column_view_sort_by_column (view, find_column (f, "GPUs"), GTK_SORT_ASCENDING);
  qm_plans_page_set_search (f->page, "acme");
  g_assert_cmpuint (n_rows (f), ==, 2);
  g_assert_cmpuint (row (f, 0)->gpus, ==, 512);
  g_assert_cmpuint (row (f, 1)->gpus, ==, 2048);
}

static void
test_delete_undo (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *page = GTK_WIDGET (f->page);

  /* Nothing selected: nothing to delete. */
  gtk_selection_model_unselect_all (qm_plans_page_get_model (f->page));
  g_assert_false (action_enabled (page, "plans.delete"));
  gtk_widget_activate_action (page, "plans.delete", NULL);
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 4);

  select_rows (f, (guint[]) { 0 }, 1);
  g_assert_true (action_enabled (page, "plans.delete"));

  select_rows (f, (guint[]) { 0, 2 }, 2);
  g_assert_true (gtk_widget_activate_action (page, "plans.delete", NULL));
  g_assert_cmpuint (n_rows (f), ==, 2);
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 2);
  g_assert_cmpint (row_id (f, 0), ==, f->ids[2]);
  g_assert_cmpint (row_id (f, 1), ==, f->ids[0]);
  qm_test_screenshot (f->window, "plans-page-deleted-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* The toast's Undo brings both back, selected. */
  g_assert_true (gtk_widget_activate_action (page, "plans.undo-delete", NULL));
  g_assert_cmpuint (n_rows (f), ==, 4);
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 4);
  g_assert_cmpint (row_id (f, 0), ==, f->ids[3]);
  g_assert_cmpint (row_id (f, 2), ==, f->ids[1]);
  {
    g_autoptr(GArray) selected = qm_plans_page_get_selected_ids (f->page);

    g_assert_cmpuint (selected->len, ==, 2);
    g_assert_cmpint (g_array_index (selected, gint64, 0), ==, f->ids[3]);
    g_assert_cmpint (g_array_index (selected, gint64, 1), ==, f->ids[1]);
  }
  /* Only once. */
  gtk_widget_activate_action (page, "plans.undo-delete", NULL);
  g_assert_cmpuint (n_rows (f), ==, 4);

  /* Deleting every plan shows the empty state. */
  gtk_selection_model_select_all (qm_plans_page_get_model (f->page));
  g_assert_true (gtk_widget_activate_action (page, "plans.delete", NULL));
  g_assert_cmpstr (visible_page (f), ==, "empty");
  g_assert_true (gtk_widget_activate_action (page, "plans.undo-delete", NULL));
  g_assert_cmpstr (visible_page (f), ==, "plans");
  g_assert_cmpuint (n_rows (f), ==, 4);
}

static void
test_duplicate_rename (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *page = GTK_WIDGET (f->page);
  AdwMessageDialog *dialog;
  GtkWidget *entry;
  gint64 copy;

  select_rows (f, (guint[]) { 3 }, 1);    /* Alpha */
  g_assert_true (gtk_widget_activate_action (page, "plans.duplicate", NULL));
  g_assert_cmpuint (n_rows (f), ==, 5);
  copy = row_id (f, 0);
  g_assert_cmpint (copy, !=, f->ids[0]);
  g_assert_cmpstr (row (f, 0)->name, ==, "Alpha pretrain (copy)");
  {
    g_autoptr(GArray) selected = qm_plans_page_get_selected_ids (f->page);

    g_assert_cmpuint (selected->len, ==, 1);
    g_assert_cmpint (g_array_index (selected, gint64, 0), ==, copy);
  }

  /* Rename the copy through the dialog. */
  g_assert_true (gtk_widget_activate_action (page, "plans.rename", NULL));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  entry = adw_message_dialog_get_extra_child (dialog);
  g_assert_true (GTK_IS_EDITABLE (entry));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "Alpha pretrain (copy)");
  qm_test_screenshot (GTK_WIDGET (dialog), "plans-page-rename-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  /* An empty name cannot be chosen. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "  ");
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "rename"));
  gtk_editable_set_text (GTK_EDITABLE (entry), "Alpha, second option");
  adw_message_dialog_response (dialog, "rename");
  iterate ();
  close_dialogs ();
  g_assert_cmpuint (n_rows (f), ==, 5);
  {
    g_autoptr(QmSavedPlan) saved = qm_plan_store_load (f->store, copy, NULL);

    g_assert_cmpstr (saved->name, ==, "Alpha, second option");
  }
  qm_plans_page_set_search (f->page, "second option");
  g_assert_cmpuint (n_rows (f), ==, 1);
  g_assert_cmpint (row_id (f, 0), ==, copy);
}

static void
test_examples (Fixture       *f,
               gconstpointer  data)
{
  g_auto(GStrv) names = g_resources_enumerate_children (QM_EXAMPLES_RESOURCE_PATH, 0, NULL);
  GtkMenuButton *button = GTK_MENU_BUTTON (qm_test_find_type (GTK_WIDGET (f->page), GTK_TYPE_MENU_BUTTON));
  GMenuModel *menu;

  /* The examples are embedded, so they open installed or not. */
  g_assert_nonnull (names);
  g_assert_cmpuint (g_strv_length (names), ==, 4);
  g_assert_cmpstr (visible_page (f), ==, "empty");
  qm_test_screenshot (f->window, "plans-page-empty-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (f->window, "plans-page-empty-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 400, 560);
  qm_test_screenshot (f->window, "plans-page-empty-narrow-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (f->window, "plans-page-empty-narrow-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* The menu lists them by their plan names. */
  menu = gtk_menu_button_get_menu_model (button);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 4);
  {
    g_autofree char *label = NULL;
    g_autofree char *target = NULL;
    gboolean found = FALSE;

    for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
      {
        g_clear_pointer (&label, g_free);
        g_clear_pointer (&target, g_free);
        g_assert_true (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label));
        g_assert_true (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_TARGET, "s", &target));
        if (g_str_equal (target, "mistral-7b-lora-a100.qmplan"))
          {
            g_assert_cmpstr (label, ==, "Mistral 7B LoRA fine-tune on one DGX A100");
            found = TRUE;
          }
      }
    g_assert_true (found);
  }
  gtk_menu_button_popup (button);
  qm_test_screenshot (GTK_WIDGET (gtk_menu_button_get_popover (button)), "plans-page-examples-light.png",
                      ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_menu_button_popdown (button);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "plans.open-example", "s",
                                             "mistral-7b-lora-a100.qmplan"));
  g_assert_cmpuint (f->n_opened, ==, 1);
  g_assert_cmpint (f->opened, >, 0);
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 1);
  g_assert_cmpstr (visible_page (f), ==, "plans");
  g_assert_cmpint (row_id (f, 0), ==, f->opened);
  /* Imported with its estimate: the list has its numbers, the store its snapshot. */
  g_assert_cmpuint (row (f, 0)->gpus, ==, 8);
  g_assert_cmpfloat (row (f, 0)->days, >, 0);
  g_assert_cmpfloat (row (f, 0)->total_cost, >, 0);
  g_assert_cmpstr (row (f, 0)->model, ==, "mistral-7b");
  {
    g_autoptr(QmSavedPlan) saved = qm_plan_store_load (f->store, f->opened, NULL);

    g_assert_cmpstr (saved->name, ==, "Mistral 7B LoRA fine-tune on one DGX A100");
    g_assert_nonnull (saved->snapshot);
    g_assert_nonnull (strstr (saved->snapshot, "\"train_days\""));
  }

  /* Every example opens. */
  for (guint i = 0; names[i] != NULL; i++)
    g_assert_cmpint (qm_plans_page_open_example (f->page, names[i]), >, 0);
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 5);
  g_assert_null (find_dialog ());
}

static void
test_bad_files (Fixture       *f,
                gconstpointer  data)
{
  static const char *bad[] = {
    "format@other.json",
    "version@newer.json",
    "workload.mfu@above-one.json",
    "hardware.gpu@unknown.json",
    "target@both.json",
  };
  guint count = qm_plan_store_count (f->store);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *relative = g_build_filename ("tests", "plans", "bad", bad[i], NULL);
      g_autofree char *path = qm_test_source_path (relative);
      g_autofree char *key = g_strndup (bad[i], strchr (bad[i], '@') - bad[i]);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      AdwMessageDialog *dialog;

      /* The function the app's open handler calls: an error naming the
       * file and the key, and nothing written. */
      g_assert_cmpint (qm_plans_page_import_file (f->page, file, &error), ==, 0);
      g_assert_nonnull (error);
      g_test_message ("%s → %s", bad[i], error->message);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_assert_nonnull (strstr (error->message, key));
      g_assert_cmpuint (qm_plan_store_count (f->store), ==, count);

      /* Through the UI: a dialog says the same. */
      g_assert_cmpint (qm_plans_page_open_file (f->page, file), ==, 0);
      dialog = find_dialog ();
      g_assert_nonnull (dialog);
      g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Could Not Import Plan");
      g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), key));
      g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "Nothing was imported"));
      if (i == 2)
        qm_test_screenshot (GTK_WIDGET (dialog), "plans-page-bad-file-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
      adw_message_dialog_response (dialog, "close");
      iterate ();
      close_dialogs ();
      g_assert_cmpuint (qm_plan_store_count (f->store), ==, count);
      g_assert_cmpuint (qm_plans_page_get_n_plans (f->page), ==, count);
    }
  g_assert_cmpuint (f->n_opened, ==, 0);

  /* A good file imports and opens. */
  {
    g_autofree char *path = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
    g_autoptr(GFile) file = g_file_new_for_path (path);
    gint64 id = qm_plans_page_open_file (f->page, file);

    g_assert_cmpint (id, >, 0);
    g_assert_cmpint (f->opened, ==, id);
    g_assert_cmpuint (qm_plan_store_count (f->store), ==, count + 1);
    g_assert_cmpuint (row (f, 0)->gpus, ==, 2048);
  }
}

static void
test_compare (Fixture       *f,
              gconstpointer  data)
{
  GtkWidget *page = GTK_WIDGET (f->page);
  const gint64 *ids;
  gsize n;

  select_rows (f, (guint[]) { 1 }, 1);
  g_assert_false (action_enabled (page, "plans.compare"));
  gtk_widget_activate_action (page, "plans.compare", NULL);
  g_assert_null (f->compared);

  select_rows (f, (guint[]) { 1, 3 }, 2);
  g_assert_true (action_enabled (page, "plans.compare"));
  g_assert_true (gtk_widget_activate_action (page, "plans.compare", NULL));
  g_assert_nonnull (f->compared);
  g_assert_true (g_variant_is_of_type (f->compared, G_VARIANT_TYPE ("ax")));
  ids = g_variant_get_fixed_array (f->compared, &n, sizeof (gint64));
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (ids[0], ==, f->ids[2]);
  g_assert_cmpint (ids[1], ==, f->ids[0]);

  /* Four is the most. */
  gtk_selection_model_select_all (qm_plans_page_get_model (f->page));
  g_assert_true (gtk_widget_activate_action (page, "plans.compare", NULL));
  g_assert_cmpuint (g_variant_n_children (f->compared), ==, 4);
  {
    g_autoptr(QmSavedPlan) p = qm_test_saved_plan ("Echo", "Hooli", 1e6);

    g_assert_true (qm_plan_store_save (f->store, p, NULL));
  }
  qm_plans_page_reload (f->page);
  g_assert_cmpuint (n_rows (f), ==, 5);
  gtk_selection_model_select_all (qm_plans_page_get_model (f->page));
  g_assert_false (action_enabled (page, "plans.compare"));
  g_clear_pointer (&f->compared, g_variant_unref);
  gtk_widget_activate_action (page, "plans.compare", NULL);
  g_assert_null (f->compared);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "alpha.qmplan", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) nowhere = g_file_new_for_path ("/proc/qm-no-such-dir/alpha.qmplan");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  AdwMessageDialog *dialog;

  g_assert_true (qm_plans_page_export_plan (f->page, f->ids[0], file));
  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_nonnull (strstr (contents, "\"quartermaster-plan\""));
  g_assert_null (find_dialog ());

  /* A folder that cannot be written: a dialog says so. */
  g_assert_false (qm_plans_page_export_plan (f->page, f->ids[0], nowhere));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Could Not Export Plan");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "/proc/qm-no-such-dir"));
  adw_message_dialog_response (dialog, "close");
  close_dialogs ();

  /* The exported file imports back. */
  g_assert_cmpint (qm_plans_page_import_file (f->page, file, &error), >, 0);
  g_assert_no_error (error);
  g_assert_cmpuint (qm_plans_page_get_n_plans (f->page), ==, 5);
}

/* The set of selected rows, as "0 2" (positions). */
static char *
selected_positions (Fixture *f)
{
  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (qm_plans_page_get_model (f->page));
  GString *out = g_string_new (NULL);
  GtkBitsetIter iter;
  guint pos;

  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &pos); ok;
       ok = gtk_bitset_iter_next (&iter, &pos))
    g_string_append_printf (out, out->len ? " %u" : "%u", pos);
  return g_string_free (out, FALSE);
}

static void
assert_selected (Fixture    *f,
                 const char *expected)
{
  g_autofree char *got = selected_positions (f);

  g_assert_cmpstr (got, ==, expected);
}

/* Issue #35 item 7: a click selects one plan, Ctrl+click adds a plan to
 * the selection or takes it out, Shift+click selects a range: real clicks,
 * through the column view's own gestures. */
static void
test_click_select (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *delta, *charlie, *bravo, *alpha;

  if (!qm_test_keys_init (GTK_WINDOW (f->window)))
    {
      g_test_skip ("no X11 display with XTEST");
      return;
    }
  gtk_test_widget_wait_for_draw (f->window);
  /* Newest first: Delta, Charlie, Bravo, Alpha. */
  delta = qm_test_wait_for_label (GTK_WIDGET (f->page), "Delta big run");
  charlie = qm_test_wait_for_label (GTK_WIDGET (f->page), "Charlie serving");
  bravo = qm_test_wait_for_label (GTK_WIDGET (f->page), "Bravo fine-tune");
  alpha = qm_test_wait_for_label (GTK_WIDGET (f->page), "Alpha pretrain");
  g_assert_nonnull (delta);
  g_assert_nonnull (alpha);

  qm_test_click (delta, 0);
  assert_selected (f, "0");
  qm_test_click (bravo, GDK_CONTROL_MASK);
  assert_selected (f, "0 2");
  qm_test_click (alpha, GDK_CONTROL_MASK);
  assert_selected (f, "0 2 3");
  /* Ctrl+click on a selected plan takes it out. */
  qm_test_click (bravo, GDK_CONTROL_MASK);
  assert_selected (f, "0 3");
  /* A plain click selects that plan alone. */
  qm_test_click (charlie, 0);
  assert_selected (f, "1");
  /* Shift+click: the range from the last click. */
  qm_test_click (alpha, GDK_SHIFT_MASK);
  assert_selected (f, "1 2 3");
  qm_test_screenshot (f->window, "plans-page-ctrl-click-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

#define ADD(path, func, empty) \
  g_test_add ("/plans-page/" path, Fixture, GINT_TO_POINTER (empty), fixture_set_up, func, fixture_tear_down)
  ADD ("list", test_list, FALSE);
  ADD ("narrow", test_narrow, FALSE);
  ADD ("search", test_search, FALSE);
  ADD ("search-selection", test_search_selection, FALSE);
  ADD ("sort", test_sort, FALSE);
  ADD ("delete-undo", test_delete_undo, FALSE);
  ADD ("duplicate-rename", test_duplicate_rename, FALSE);
  ADD ("examples", test_examples, TRUE);
  ADD ("bad-files", test_bad_files, FALSE);
  ADD ("compare", test_compare, FALSE);
  ADD ("export", test_export, FALSE);
  ADD ("click-select", test_click_select, FALSE);
#undef ADD
  return g_test_run ();
}
