/* test-catalog-page.c: the Catalog page under a real display, on a
 * temporary database: the built-ins are listed with their units, search,
 * filters and numeric sorting work, the kinds switch, a user GPU is added
 * through the form (an invalid value is refused first), its price edited,
 * a built-in price overridden and reset, a built-in hidden, a user entry
 * deleted and restored, a CSV previewed then imported, the view exported;
 * with screenshots, light and dark, wide and narrow.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <math.h>
#include <string.h>

#include "qm-catalog-editor.h"
#include "qm-catalog-import-dialog.h"
#include "qm-catalog-page.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-test-util.h"

typedef struct
{
  char          *dir;
  QmStore       *store;
  GtkWindow     *window;
  QmCatalogPage *page;
} Fixture;

static void
wait_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static void
fixture_open (Fixture *f,
              int      width,
              int      height)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->dir = g_dir_make_tmp ("qm-catalog-page-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->dir, "catalog.db", NULL);
  f->store = qm_store_open_with_flags (path, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);

  f->window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_title (f->window, "Catalog");
  gtk_window_set_default_size (f->window, width, height);
  f->page = QM_CATALOG_PAGE (qm_catalog_page_new (f->store));
  adw_window_set_content (ADW_WINDOW (f->window), GTK_WIDGET (f->page));
  gtk_window_present (f->window);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f->window));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  fixture_open (f, 1100, 760);
}

static void
fixture_setup_narrow (Fixture       *f,
                      gconstpointer  data)
{
  fixture_open (f, 400, 760);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  GObject *weak = G_OBJECT (f->page);
  GListModel *toplevels = gtk_window_get_toplevels ();

  /* Dialogs first, then the window; the page must go with it. */
  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i - 1);

      if (w != f->window)
        gtk_window_destroy (w);
    }
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_window_destroy (f->window);
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  qm_store_free (f->store);
  qm_test_remove_tree (f->dir);
  g_free (f->dir);
}

static gpointer
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static gpointer
child (QmCatalogPage *page,
       const char    *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (page), QM_TYPE_CATALOG_PAGE, name);

  g_assert_nonnull (object);
  return object;
}

static guint
n_shown (QmCatalogPage *page)
{
  return g_list_model_get_n_items (qm_catalog_page_get_model (page));
}

static QmCatalogItem *
shown_item (QmCatalogPage *page,
            const char    *id)
{
  GListModel *model = qm_catalog_page_get_model (page);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (qm_catalog_item_get_id (item), id) == 0)
        return item;   /* the model keeps it alive */
    }
  return NULL;
}

static int
field_index (QmCatalogKind  kind,
             const char    *key)
{
  guint n;
  const QmCatalogField *fields = qm_catalog_fields (kind, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (fields[i].key, key))
      return i;
  g_assert_not_reached ();
}

static gboolean
contains_folded (const char *haystack,
                 const char *needle)
{
  g_autofree char *folded = haystack ? g_utf8_casefold (haystack, -1) : NULL;

  return folded != NULL && strstr (folded, needle) != NULL;
}

/* ------------------------------------------------------------------ */

static void
assert_displayed (QmCatalogKind  kind,
                  const char    *key)
{
  guint n;
  const QmCatalogField *fields = qm_catalog_fields (kind, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (fields[i].key, key))
      return;
  g_error ("%s.%s: the catalog parser reads it, the page has no field for it",
           qm_catalog_kind_to_string (kind), key);
}

/* The page shows and edits every field the catalog parser reads: its
 * display table names each of them (a GPU's tflops object by precision). */
static void
test_fields_complete (void)
{
  for (QmCatalogKind k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      QmCatalogValueType type;
      const char *key;

      for (guint i = 0; (key = qm_catalog_field_key (k, i, &type)) != NULL; i++)
        {
          if (type == QM_CATALOG_VALUE_TFLOPS)
            {
              for (guint p = 0; p < QM_N_PRECISIONS; p++)
                {
                  g_autofree char *sub = g_strdup_printf ("%s.%s", key, qm_precision_to_string (p));

                  assert_displayed (k, sub);
                }
              continue;
            }
          assert_displayed (k, key);
        }
    }
}

static void
test_builtins (Fixture       *f,
               gconstpointer  data)
{
  QmCatalogItem *h100;
  g_autofree char *bf16 = NULL;
  guint n_gpus;

  qm_catalog_gpus (&n_gpus);
  g_assert_cmpint (qm_catalog_page_get_kind (f->page), ==, QM_CATALOG_KIND_GPU);
  g_assert_cmpuint (n_shown (f->page), ==, n_gpus);
  g_assert_false (adw_leaflet_get_folded (child (f->page, "leaflet")));

  h100 = shown_item (f->page, "h100-sxm-80gb");
  g_assert_nonnull (h100);
  g_assert_true (qm_catalog_item_get_entry (h100)->builtin);
  bf16 = qm_catalog_item_format (h100, field_index (QM_CATALOG_KIND_GPU, "tflops.bf16"));
  g_assert_cmpstr (bf16, ==, "989 TFLOPS");

  /* What is on screen: the cells carry their units, the price its
   * thousands separator, and the origin is a word, not a colour. */
  g_assert_true (qm_catalog_page_select (f->page, "h100-sxm-80gb"));
  wait_ms (100);
  {
    GtkWidget *view = GTK_WIDGET (qm_catalog_page_get_column_view (f->page, QM_CATALOG_KIND_GPU));
    g_autofree char *price = qm_catalog_format_price (qm_catalog_item_get_entry (h100)->price_usd);

    g_assert_nonnull (qm_test_wait_for_label (view, "989 TFLOPS"));
    g_assert_nonnull (qm_test_wait_for_label (view, "80 GB"));
    g_assert_nonnull (qm_test_wait_for_label (view, "3.35 TB/s"));
    g_assert_nonnull (qm_test_wait_for_label (view, "700 W"));
    g_assert_nonnull (qm_test_wait_for_label (view, "Built-in"));
    g_assert_nonnull (strchr (price, ','));
    g_assert_nonnull (qm_test_wait_for_label (view, price));
  }
  /* The details pane: every field, its source and its date. */
  g_assert_cmpstr (gtk_label_get_label (child (f->page, "details_title")), ==,
                   qm_catalog_item_get_entry (h100)->name);
  g_assert_nonnull (qm_test_find_label (child (f->page, "details_groups"), qm_catalog_item_get_entry (h100)->source));
  {
    g_autofree char *date = qm_catalog_format_date (qm_catalog_item_get_entry (h100)->as_of);

    g_assert_nonnull (qm_test_find_label (child (f->page, "details_groups"), date));
  }
  /* Built-ins cannot be deleted, only hidden. */
  g_assert_false (gtk_widget_get_visible (child (f->page, "delete_button")));
  g_assert_true (gtk_widget_get_visible (child (f->page, "hide_button")));

  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-wide-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-wide-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
}

static void
test_search_and_filters (Fixture       *f,
                         gconstpointer  data)
{
  GtkEditable *entry = child (f->page, "search_entry");
  const QmGpuSpec *gpus;
  guint n_gpus, expected = 0, amd = 0;
  gint64 end;

  gpus = qm_catalog_gpus (&n_gpus);
  for (guint i = 0; i < n_gpus; i++)
    {
      if (contains_folded (gpus[i].info.id, "h100") || contains_folded (gpus[i].info.name, "h100") ||
          contains_folded (gpus[i].info.vendor, "h100"))
        expected++;
      if (g_strcmp0 (gpus[i].info.vendor, "AMD") == 0)
        amd++;
    }
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (expected, <, n_gpus);

  /* Typed, as a person would: applied when the typing pauses. */
  gtk_editable_set_text (entry, "H100");
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (n_shown (f->page) != expected && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (n_shown (f->page), ==, expected);
  g_assert_nonnull (shown_item (f->page, "h100-sxm-80gb"));

  qm_catalog_page_set_search_text (f->page, "no-such-gpu");
  g_assert_cmpuint (n_shown (f->page), ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (child (f->page, "content_stack")), ==, "empty");
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-no-matches-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.clear-filters", NULL));
  g_assert_cmpuint (n_shown (f->page), ==, n_gpus);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (child (f->page, "content_stack")), ==, "list");

  /* Vendor, then form factor. */
  qm_catalog_page_set_vendor (f->page, "AMD");
  g_assert_cmpuint (n_shown (f->page), ==, amd);
  qm_catalog_page_set_vendor (f->page, NULL);
  qm_catalog_page_set_type_filter (f->page, "pcie");
  g_assert_cmpuint (n_shown (f->page), >, 0);
  for (guint i = 0; i < n_shown (f->page); i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (qm_catalog_page_get_model (f->page), i);

      g_assert_cmpstr (qm_catalog_item_get_filter_value (item), ==, "pcie");
    }

  /* Ctrl+F puts the focus in the search entry. */
  qm_catalog_page_set_type_filter (f->page, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (qm_catalog_page_get_column_view (f->page, QM_CATALOG_KIND_GPU)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.focus-search", NULL));
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (f->window), GTK_WIDGET (entry)));
}

/* The rows GTK lays out show the filtered model in order, one per item:
 * padding rows past its end are hidden, and no row on screen is stale. */
static void
check_rows_on_screen (Fixture       *f,
                      GtkColumnView *view)
{
  GListModel *model = qm_catalog_page_get_model (f->page);
  GtkWidget *list = NULL;
  guint n = g_list_model_get_n_items (model), position = 0, shown_rows = 0;

  gtk_test_widget_wait_for_draw (GTK_WIDGET (f->window));
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (view)); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      list = c;
  g_assert_nonnull (list);

  /* Rows are the list's children in model order. */
  for (GtkWidget *row = gtk_widget_get_first_child (list); row; row = gtk_widget_get_next_sibling (row), position++)
    {
      GtkWidget *cell = gtk_widget_get_first_child (row);
      GtkWidget *name = cell != NULL ? gtk_widget_get_first_child (cell) : NULL;

      if (!GTK_IS_INSCRIPTION (name))
        continue;  /* not a row (the rubberband, say) */
      if (!gtk_widget_get_visible (row))
        continue;
      shown_rows++;
      if (gtk_widget_get_mapped (row))
        {
          g_autoptr(QmCatalogItem) item = NULL;

          g_assert_cmpuint (position, <, n);
          item = g_list_model_get_item (model, position);
          g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (name)), ==,
                           qm_catalog_item_get_entry (item)->name);
        }
    }
  g_assert_cmpuint (shown_rows, <=, n);
  g_assert_cmpuint (shown_rows, >=, MIN (n, 20));
}

static void
check_order (QmCatalogPage *page,
             int            field,
             GtkSortType    order)
{
  GListModel *model = qm_catalog_page_get_model (page);
  double previous = order == GTK_SORT_ASCENDING ? -INFINITY : INFINITY;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(QmCatalogItem) item = g_list_model_get_item (model, i);
      double v = field >= 0 ? qm_catalog_item_sort_value (item, field)
                            : qm_catalog_item_get_entry (item)->price_usd;

      if (order == GTK_SORT_ASCENDING)
        g_assert_cmpfloat (v, >=, previous);
      else
        g_assert_cmpfloat (v, <=, previous);
      previous = v;
    }
}

static void
test_sort (Fixture       *f,
           gconstpointer  data)
{
  GtkColumnView *view = qm_catalog_page_get_column_view (f->page, QM_CATALOG_KIND_GPU);
  int memory = field_index (QM_CATALOG_KIND_GPU, "memory_gb");
  int bf16 = field_index (QM_CATALOG_KIND_GPU, "tflops.bf16");
  g_autoptr(QmCatalogItem) first = NULL;

  gtk_column_view_sort_by_column (view, qm_catalog_page_get_column (f->page, "memory_gb"), GTK_SORT_DESCENDING);
  check_order (f->page, memory, GTK_SORT_DESCENDING);
  /* Numbers sort as numbers: 192 GB before 80 GB. */
  first = g_list_model_get_item (qm_catalog_page_get_model (f->page), 0);
  g_assert_cmpfloat (qm_catalog_item_get_number (first, memory), >=, 141);

  gtk_column_view_sort_by_column (view, qm_catalog_page_get_column (f->page, "tflops.bf16"), GTK_SORT_ASCENDING);
  check_order (f->page, bf16, GTK_SORT_ASCENDING);
  gtk_column_view_sort_by_column (view, qm_catalog_page_get_column (f->page, "price"), GTK_SORT_DESCENDING);
  check_order (f->page, -1, GTK_SORT_DESCENDING);

  /* A filter change keeps the order. */
  qm_catalog_page_set_search_text (f->page, "nvidia");
  g_assert_cmpuint (n_shown (f->page), >, 0);
  check_order (f->page, -1, GTK_SORT_DESCENDING);
  check_rows_on_screen (f, view);

  /* Rows are kept across filter changes (qm-row-slots.h): after a narrow
   * search and back, what is on screen is still the model, row for row. */
  qm_catalog_page_set_search_text (f->page, "h100 sxm");
  check_rows_on_screen (f, view);
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-search-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_catalog_page_set_search_text (f->page, "");
  check_rows_on_screen (f, view);
}

static void
test_kinds (Fixture       *f,
            gconstpointer  data)
{
  struct { const char *name; QmCatalogKind kind; guint n; } kinds[] = {
    { "server", QM_CATALOG_KIND_SERVER, 0 },
    { "network", QM_CATALOG_KIND_NETWORK, 0 },
    { "storage", QM_CATALOG_KIND_STORAGE, 0 },
    { "facility", QM_CATALOG_KIND_FACILITY, 0 },
    { "cloud", QM_CATALOG_KIND_CLOUD, 0 },
    { "model", QM_CATALOG_KIND_MODEL, 0 },
    { "gpu", QM_CATALOG_KIND_GPU, 0 },
  };

  qm_catalog_servers (&kinds[0].n);
  qm_catalog_networks (&kinds[1].n);
  qm_catalog_storages (&kinds[2].n);
  qm_catalog_facility_items (&kinds[3].n);
  qm_catalog_cloud_offers (&kinds[4].n);
  qm_catalog_models (&kinds[5].n);
  qm_catalog_gpus (&kinds[6].n);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.kind", "s", kinds[i].name));
      g_assert_cmpint (qm_catalog_page_get_kind (f->page), ==, kinds[i].kind);
      g_assert_cmpuint (kinds[i].n, >, 0);
      g_assert_cmpuint (n_shown (f->page), ==, kinds[i].n);
      g_assert_cmpuint (gtk_drop_down_get_selected (child (f->page, "kind_dropdown")), ==, kinds[i].kind);
      g_assert_true (gtk_stack_get_visible_child (child (f->page, "views_stack")) ==
                     gtk_widget_get_parent (GTK_WIDGET (qm_catalog_page_get_column_view (f->page, kinds[i].kind))));
    }

  /* Units of other kinds. */
  qm_catalog_page_set_kind (f->page, QM_CATALOG_KIND_SERVER);
  g_assert_true (qm_catalog_page_select (f->page, "dgx-h100"));
  wait_ms (100);
  g_assert_nonnull (qm_test_find_label (GTK_WIDGET (qm_catalog_page_get_column_view (f->page, QM_CATALOG_KIND_SERVER)), "8 U"));
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-servers-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  /* A bought item's lead time and support rate are detail rows (issue #22). */
  g_assert_true (qm_catalog_page_select (f->page, "hgx-h100-8"));
  wait_ms (100);
  {
    GtkWidget *lead = qm_test_find_label (GTK_WIDGET (f->page), "Lead Time (Weeks)");
    GtkWidget *scroller = lead ? gtk_widget_get_ancestor (lead, GTK_TYPE_SCROLLED_WINDOW) : NULL;
    double x, y;

    g_assert_nonnull (lead);
    g_assert_nonnull (qm_test_find_label (GTK_WIDGET (f->page), "Yearly Support (Fraction of List)"));
    /* Scroll the row into the screenshot. */
    g_assert_true (gtk_widget_translate_coordinates (lead, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)),
                                                     0, 0, &x, &y));
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), y - 300);
    wait_ms (100);
  }
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-server-lead-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-server-lead-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  qm_catalog_page_set_kind (f->page, QM_CATALOG_KIND_CLOUD);
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-cloud-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
}

static QmCatalogEditor *
open_editor (Fixture    *f,
             const char *action)
{
  QmCatalogEditor *editor;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), action, NULL));
  editor = find_toplevel (QM_TYPE_CATALOG_EDITOR);
  g_assert_nonnull (editor);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (editor));
  return editor;
}

static gboolean
save_sensitive (QmCatalogEditor *editor)
{
  return gtk_widget_get_sensitive (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (editor),
                                                                              QM_TYPE_CATALOG_EDITOR,
                                                                              "save_button")));
}

static void
test_add_and_edit (Fixture       *f,
                   gconstpointer  data)
{
  QmCatalogEditor *editor;
  GtkWidget *memory;
  g_autoptr(QmCatalogEntry) saved = NULL;
  g_autoptr(GError) error = NULL;
  GObject *weak;
  guint n_before = n_shown (f->page);

  editor = open_editor (f, "catalog.add");
  g_assert_cmpint (qm_catalog_editor_get_mode (editor), ==, QM_CATALOG_EDITOR_ADD);
  /* An empty form cannot be saved, but does not shout either. */
  g_assert_false (qm_catalog_editor_get_valid (editor));
  g_assert_false (save_sensitive (editor));
  g_assert_false (gtk_widget_has_css_class (qm_catalog_editor_get_row (editor, "id"), "error"));

  qm_catalog_editor_set_text (editor, "id", "acme-x1");
  qm_catalog_editor_set_text (editor, "name", "Acme X1, \"rev B\"");
  qm_catalog_editor_set_text (editor, "vendor", "Acme");
  qm_catalog_editor_set_text (editor, "form_factor", "pcie");
  qm_catalog_editor_set_text (editor, "tflops.bf16", "450");
  qm_catalog_editor_set_text (editor, "bandwidth_tbs", "2.4");
  qm_catalog_editor_set_text (editor, "as_of", "2026-02-30");
  qm_catalog_editor_set_text (editor, "memory_gb", "-80");

  /* Each invalid field is marked and says what it allows; Save is off. */
  memory = qm_catalog_editor_get_row (editor, "memory_gb");
  g_assert_true (gtk_widget_has_css_class (memory, "error"));
  g_assert_cmpstr (qm_catalog_editor_get_message (editor, "memory_gb"), ==, "Must be a number greater than 0");
  g_assert_true (gtk_widget_has_css_class (qm_catalog_editor_get_row (editor, "as_of"), "error"));
  g_assert_nonnull (qm_catalog_editor_get_message (editor, "as_of"));
  g_assert_false (gtk_widget_has_css_class (qm_catalog_editor_get_row (editor, "tflops.bf16"), "error"));
  g_assert_false (save_sensitive (editor));
  /* Scroll the invalid field and its message into the screenshot. */
  {
    GtkWidget *scroller = gtk_widget_get_ancestor (memory, GTK_TYPE_SCROLLED_WINDOW);
    GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
    double x, y;

    wait_ms (100);
    g_assert_true (gtk_widget_translate_coordinates (memory, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)),
                                                     0, 0, &x, &y));
    gtk_adjustment_set_value (adj, y - 200);
  }
  qm_test_screenshot (GTK_WIDGET (editor), "catalog-editor-error-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (editor), "catalog-editor-error-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  /* Nothing invalid is saved, even when asked. */
  g_assert_false (qm_catalog_editor_save (editor, &error));
  g_assert_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "acme-x1", NULL));

  /* An id already taken is refused too. */
  qm_catalog_editor_set_text (editor, "id", "h100-sxm-80gb");
  g_assert_true (gtk_widget_has_css_class (qm_catalog_editor_get_row (editor, "id"), "error"));
  qm_catalog_editor_set_text (editor, "id", "acme-x1");
  g_assert_false (gtk_widget_has_css_class (qm_catalog_editor_get_row (editor, "id"), "error"));

  qm_catalog_editor_set_text (editor, "memory_gb", "96");
  qm_catalog_editor_set_text (editor, "as_of", "2026-02-01");
  qm_catalog_editor_set_text (editor, "price_usd", "12,500");
  g_assert_false (gtk_widget_has_css_class (memory, "error"));
  g_assert_null (qm_catalog_editor_get_message (editor, "memory_gb"));
  g_assert_true (qm_catalog_editor_get_valid (editor));
  g_assert_true (save_sensitive (editor));

  weak = G_OBJECT (editor);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_widget_activate (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (editor), QM_TYPE_CATALOG_EDITOR,
                                                                  "save_button")));
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);

  saved = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "acme-x1", &error);
  g_assert_no_error (error);
  g_assert_false (saved->builtin);
  g_assert_cmpstr (saved->name, ==, "Acme X1, \"rev B\"");
  g_assert_cmpfloat (saved->price_usd, ==, 12500);
  g_assert_cmpuint (n_shown (f->page), ==, n_before + 1);
  g_assert_cmpstr (qm_catalog_item_get_id (qm_catalog_page_get_selected (f->page)), ==, "acme-x1");
  g_assert_true (gtk_widget_get_visible (child (f->page, "delete_button")));
  g_assert_false (gtk_widget_get_visible (child (f->page, "hide_button")));

  /* Edit its price. */
  editor = open_editor (f, "catalog.edit");
  g_assert_cmpint (qm_catalog_editor_get_mode (editor), ==, QM_CATALOG_EDITOR_EDIT);
  g_assert_true (qm_catalog_editor_get_valid (editor));
  qm_catalog_editor_set_text (editor, "price_usd", "eleven");
  g_assert_true (gtk_widget_has_css_class (qm_catalog_editor_get_row (editor, "price_usd"), "error"));
  g_assert_false (save_sensitive (editor));
  qm_catalog_editor_set_text (editor, "price_usd", "11000");
  g_assert_true (qm_catalog_editor_save (editor, &error));
  g_assert_no_error (error);
  g_clear_pointer (&saved, qm_catalog_entry_free);
  saved = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "acme-x1", NULL);
  g_assert_cmpfloat (saved->price_usd, ==, 11000);
  g_assert_cmpfloat (qm_catalog_item_get_entry (shown_item (f->page, "acme-x1"))->price_usd, ==, 11000);
  g_assert_cmpstr (gtk_label_get_label (child (f->page, "details_title")), ==, "Acme X1, \"rev B\"");

  /* Duplicate: a new id is offered, and the copy saves as a new entry. */
  editor = open_editor (f, "catalog.duplicate");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (qm_catalog_editor_get_row (editor, "id"))), ==, "acme-x1-copy");
  g_assert_true (qm_catalog_editor_save (editor, NULL));
  g_assert_cmpuint (n_shown (f->page), ==, n_before + 2);
}

/* The details pane lists the price history, newest first (issue #23). */
static void
test_price_history (Fixture       *f,
                    gconstpointer  data)
{
  QmCatalogEditor *editor;
  GtkWidget *groups = child (f->page, "details_groups");
  g_autofree char *set = NULL;
  g_autofree char *cleared = NULL;

  g_assert_true (qm_catalog_page_select (f->page, "h100-sxm-80gb"));
  g_assert_null (qm_test_find_label (groups, "Price History"));
  editor = open_editor (f, "catalog.edit");
  qm_catalog_editor_set_text (editor, "override", "27,500");
  g_assert_true (qm_catalog_editor_save (editor, NULL));
  g_assert_nonnull (qm_test_wait_for_label (groups, "Price History"));
  set = g_strdup_printf ("none → %s", "$27,500");
  g_assert_nonnull (qm_test_find_label (groups, set));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.reset-price", NULL));
  cleared = g_strdup_printf ("%s → none", "$27,500");
  g_assert_nonnull (qm_test_wait_for_label (groups, cleared));
  /* Both changes, and the one before is still there. */
  g_assert_nonnull (qm_test_find_label (groups, set));
}

static void
test_override_and_hide (Fixture       *f,
                        gconstpointer  data)
{
  QmCatalogEditor *editor;
  g_autoptr(QmCatalogEntry) before = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", NULL);
  g_autoptr(QmCatalogEntry) after = NULL;
  const QmCatalogEntry *shown;
  guint n_before = n_shown (f->page);

  g_assert_true (qm_catalog_page_select (f->page, "h100-sxm-80gb"));
  g_assert_false (gtk_widget_get_visible (child (f->page, "reset_button")));
  editor = open_editor (f, "catalog.edit");
  g_assert_cmpint (qm_catalog_editor_get_mode (editor), ==, QM_CATALOG_EDITOR_PRICE);
  g_assert_null (qm_catalog_editor_get_row (editor, "memory_gb"));
  qm_catalog_editor_set_text (editor, "override", "-1");
  g_assert_true (gtk_widget_has_css_class (qm_catalog_editor_get_row (editor, "override"), "error"));
  g_assert_false (save_sensitive (editor));
  qm_catalog_editor_set_text (editor, "override", "27,500");
  g_assert_true (qm_catalog_editor_save (editor, NULL));

  /* Both prices are kept and shown. */
  after = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", NULL);
  g_assert_true (after->has_override);
  g_assert_cmpfloat (after->override_usd, ==, 27500);
  g_assert_cmpfloat (after->list_price_usd, ==, before->list_price_usd);
  shown = qm_catalog_item_get_entry (shown_item (f->page, "h100-sxm-80gb"));
  g_assert_true (shown->has_override);
  wait_ms (100);
  {
    g_autofree char *list = qm_catalog_format_price (before->list_price_usd);
    g_autofree char *line = g_strdup_printf ("list %s", list);
    GtkWidget *view = GTK_WIDGET (qm_catalog_page_get_column_view (f->page, QM_CATALOG_KIND_GPU));

    g_autofree char *both = g_strdup_printf ("$27,500\n%s", line);

    /* One cell, two lines: the user's price over the list price. Cells
     * are refilled at the next frame's layout (qm-row-slots.h). */
    g_assert_nonnull (qm_test_wait_for_label (view, both));
  }
  g_assert_true (gtk_widget_get_visible (child (f->page, "reset_button")));
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-override-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.reset-price", NULL));
  g_clear_pointer (&after, qm_catalog_entry_free);
  after = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", NULL);
  g_assert_false (after->has_override);

  /* Hide: gone from the list, back with Show Hidden, never deleted. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.toggle-hidden", NULL));
  g_assert_cmpuint (n_shown (f->page), ==, n_before - 1);
  g_assert_null (shown_item (f->page, "h100-sxm-80gb"));
  g_clear_pointer (&after, qm_catalog_entry_free);
  after = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", NULL);
  g_assert_true (after->hidden);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.show-hidden", NULL));
  g_assert_cmpuint (n_shown (f->page), ==, n_before);
  g_assert_true (qm_catalog_page_select (f->page, "h100-sxm-80gb"));
  g_assert_false (gtk_widget_get_visible (child (f->page, "delete_button")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.toggle-hidden", NULL));
  g_clear_pointer (&after, qm_catalog_entry_free);
  after = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", NULL);
  g_assert_false (after->hidden);
}

static void
test_delete_undo (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *undo;
  guint n_before;

  g_assert_true (qm_catalog_store_add (f->store, QM_CATALOG_KIND_GPU,
                                       "{\"id\": \"mine\", \"name\": \"Mine\", \"tflops\": {\"bf16\": 100},"
                                       " \"memory_gb\": 24, \"bandwidth_tbs\": 1, \"price_usd\": 3000}",
                                       &error));
  g_assert_no_error (error);
  g_assert_true (qm_catalog_store_set_price_override (f->store, QM_CATALOG_KIND_GPU, "mine", 2500, &error));
  qm_catalog_page_reload (f->page);
  n_before = n_shown (f->page);
  g_assert_true (qm_catalog_page_select (f->page, "mine"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.delete", NULL));
  g_assert_null (qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "mine", NULL));
  g_assert_cmpuint (n_shown (f->page), ==, n_before - 1);

  /* The toast's Undo brings it back, price override and all. */
  wait_ms (100);
  undo = qm_test_find_button (child (f->page, "toast_overlay"), "_Undo");
  g_assert_nonnull (undo);
  /* GtkButton's activate presses for a moment, then clicks. */
  gtk_widget_activate (undo);
  /* Poll rather than sleep a fixed time: under AddressSanitizer the
   * press-then-click takes far longer than on a normal build. */
  {
    gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
    QmCatalogEntry *probe = NULL;

    while ((probe = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "mine", NULL)) == NULL &&
           g_get_monotonic_time () < end)
      wait_ms (50);
    g_clear_pointer (&probe, qm_catalog_entry_free);
    wait_ms (100);
  }
  {
    g_autoptr(QmCatalogEntry) back = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "mine", NULL);

    g_assert_nonnull (back);
    g_assert_true (back->has_override);
    g_assert_cmpfloat (back->override_usd, ==, 2500);
  }
  g_assert_cmpuint (n_shown (f->page), ==, n_before);
}

static void
test_import_export (Fixture       *f,
                    gconstpointer  data)
{
  static const char csv[] =
    "id,name,vendor,price_usd,tflops_bf16,memory_gb,bandwidth_tbs,tdp_w\r\n"
    "imp-a,\"Imported A, rev 1\",Initech,15000,400,64,2,500\r\n"
    "imp-b,Imported B,Initech,-5,400,64,2,500\r\n"
    "imp-c,Imported C,Initech,9000,300,48,1.5,350\r\n"
    "h100-sxm-80gb,H100 SXM,NVIDIA,26000,,,,\r\n";
  g_autoptr(GError) error = NULL;
  QmCatalogImport *import;
  QmCatalogImportDialog *dialog;
  GtkWidget *button;
  GObject *weak;
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length = 0;

  import = qm_catalog_store_import_csv_preview (f->store, csv, sizeof csv - 1, "prices.csv",
                                                QM_CATALOG_KIND_GPU, &error);
  g_assert_no_error (error);
  dialog = qm_catalog_import_dialog_new (f->store, import);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), f->window);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));

  /* The preview lists the bad row with its column and value, and writes nothing. */
  button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (dialog), QM_TYPE_CATALOG_IMPORT_DIALOG,
                                                     "import_button"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Import 3 Valid Rows");
  g_assert_nonnull (qm_test_find_label (GTK_WIDGET (dialog), "Row 3, column price_usd"));
  g_assert_null (qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "imp-a", NULL));
  qm_test_screenshot (GTK_WIDGET (dialog), "catalog-import-preview-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  g_signal_connect_object (dialog, "imported", G_CALLBACK (qm_catalog_page_reload), f->page, G_CONNECT_SWAPPED);
  weak = G_OBJECT (dialog);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_widget_activate (button);
  qm_test_wait_until_null (&weak);
  {
    g_autoptr(QmCatalogEntry) a = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "imp-a", NULL);
    g_autoptr(QmCatalogEntry) b = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "imp-b", NULL);
    g_autoptr(QmCatalogEntry) h100 = qm_catalog_store_get (f->store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", NULL);

    g_assert_nonnull (a);
    g_assert_null (b);
    g_assert_true (h100->has_override);
  }
  g_assert_nonnull (shown_item (f->page, "imp-a"));

  /* Export: the rows of the view, in its order. */
  qm_catalog_page_set_vendor (f->page, "Initech");
  gtk_column_view_sort_by_column (qm_catalog_page_get_column_view (f->page, QM_CATALOG_KIND_GPU),
                                  qm_catalog_page_get_column (f->page, "price"), GTK_SORT_ASCENDING);
  out = qm_catalog_page_export_csv (f->page, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, strlen (out));
  lines = g_strsplit (out, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);   /* header, 2 rows, "" */
  g_assert_true (g_str_has_prefix (lines[0], "kind,id,"));
  g_assert_true (g_str_has_prefix (lines[1], "gpu,imp-c,"));
  g_assert_true (g_str_has_prefix (lines[2], "gpu,imp-a,"));
  g_assert_nonnull (strstr (lines[2], ",\"Imported A, rev 1\","));
}

/* A German Excel file: the preview shows ';' and the decimal comma as
 * detected; choosing a comma instead refuses the file and says why, naming
 * it once; choosing back lists the rows again. A round trip through the
 * view's export in the decimal-comma convention reads back. */
static void
test_import_locale (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *path = qm_test_source_path ("tests/data/catalog-de-excel-1252.csv");
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  const QmCsvDialect de = { ';', ',', TRUE, "UTF-8" };
  QmCatalogImportDialog *dialog;
  GtkWidget *button;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  dialog = qm_catalog_import_dialog_new_for_data (f->store, bytes, "de.csv", QM_CATALOG_KIND_GPU);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), f->window);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));
  button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (dialog), QM_TYPE_CATALOG_IMPORT_DIALOG,
                                                     "import_button"));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Import 3 Valid Rows");
  g_assert_cmpint (qm_catalog_import_dialog_get_import (dialog)->dialect.separator, ==, ';');
  g_assert_nonnull (qm_test_find_label (GTK_WIDGET (dialog), "Semicolon"));
  g_assert_nonnull (qm_test_find_label (GTK_WIDGET (dialog), "Comma (12,5)"));
  qm_test_screenshot (GTK_WIDGET (dialog), "catalog-import-locale-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (dialog), "catalog-import-locale-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* The wrong separator: the whole file is refused, in words. */
  qm_catalog_import_dialog_set_format (dialog, ',', 0);
  g_assert_null (qm_catalog_import_dialog_get_import (dialog));
  g_assert_false (gtk_widget_get_sensitive (button));
  g_assert_nonnull (qm_test_wait_for_label (GTK_WIDGET (dialog), "This File Cannot Be Imported"));
  qm_test_screenshot (GTK_WIDGET (dialog), "catalog-import-refused-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_catalog_import_dialog_set_format (dialog, ';', ',');
  g_assert_nonnull (qm_catalog_import_dialog_get_import (dialog));
  g_assert_true (qm_catalog_import_dialog_commit (dialog, &error));
  g_assert_no_error (error);

  qm_catalog_page_reload (f->page);
  qm_catalog_page_set_vendor (f->page, "Müller Rechentechnik");
  out = qm_catalog_page_export_csv_dialect (f->page, &de, &length, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (out, "sep=;\r\nkind;id;"));
  g_assert_nonnull (strstr (out, ";14500,5;"));
  g_assert_nonnull (strstr (out, ";9000,5;"));
  {
    g_autoptr(QmCatalogImport) back = qm_catalog_store_import_csv_preview (f->store, out, length, "back.csv",
                                                                         -1, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (back->errors->len, ==, 0);
    g_assert_cmpuint (back->rows->len, ==, 2);
    g_assert_cmpint (back->dialect.decimal_mark, ==, ',');
  }
}

static void
test_narrow (Fixture       *f,
             gconstpointer  data)
{
  AdwLeaflet *leaflet = child (f->page, "leaflet");
  GtkColumnView *view = qm_catalog_page_get_column_view (f->page, QM_CATALOG_KIND_GPU);

  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 400);
  g_assert_true (adw_leaflet_get_folded (leaflet));
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == child (f->page, "list_pane"));
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-narrow-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-narrow-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* Activating a row opens its details; Back returns. */
  g_assert_true (qm_catalog_page_select (f->page, "h100-sxm-80gb"));
  g_signal_emit_by_name (view, "activate", 0);
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == child (f->page, "details_pane"));
  g_assert_true (gtk_widget_get_visible (child (f->page, "back_button")));
  qm_test_screenshot (GTK_WIDGET (f->window), "catalog-narrow-details-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.show-list", NULL));
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == child (f->page, "list_pane"));
}

/* The details pane's visible buttons: on one line, and inside the pane. */
static void
assert_actions_one_line (Fixture    *f,
                         int         width,
                         const char *id)
{
  GtkWidget *pane = child (f->page, "details_pane");
  GtkWidget *row = child (f->page, "details_actions");
  double top = -1;

  g_assert_true (qm_catalog_page_select (f->page, id));
  wait_ms (150);
  for (GtkWidget *b = gtk_widget_get_first_child (row); b != NULL; b = gtk_widget_get_next_sibling (b))
    {
      graphene_rect_t r;

      if (!gtk_widget_get_visible (b))
        continue;
      g_assert_true (gtk_widget_compute_bounds (b, pane, &r));
      if (top < 0)
        top = r.origin.y;
      if (fabs (r.origin.y - top) > 1.0)
        g_error ("%d px, %s: the details' buttons wrap onto a second line", width, id);
      if (r.origin.x < 0 || r.origin.x + r.size.width > gtk_widget_get_width (pane))
        g_error ("%d px, %s: a details button leaves the pane", width, id);
    }
}

/* The catalog at 1200 and 720 px (issue 20: at 1200 the FP8 column was
 * cut at the pane's edge with nothing to say the table scrolls, and the
 * details pane's buttons wrapped): each header's title fits its column,
 * columns that do not fit scroll with a visible scrollbar, and the
 * details' buttons stay on one line for a built-in with a price override
 * (the most buttons) and for an entry of the user's own. */
static void
check_widths (int         width,
              const char *name)
{
  Fixture f = { 0, };
  GtkColumnView *view;
  GtkScrolledWindow *scroller;
  GListModel *columns;
  g_autoptr(GError) error = NULL;
  g_autofree char *shot_light = g_strdup_printf ("catalog-%s-light.png", name);
  g_autofree char *shot_dark = g_strdup_printf ("catalog-%s-dark.png", name);
  int total = 0;

  fixture_open (&f, width, 760);
  g_assert_false (adw_leaflet_get_folded (child (f.page, "leaflet")));
  g_assert_true (qm_catalog_store_set_price_override (f.store, QM_CATALOG_KIND_GPU, "h100-sxm-80gb", 27000,
                                                      &error));
  g_assert_no_error (error);
  g_assert_true (qm_catalog_store_add (f.store, QM_CATALOG_KIND_GPU,
                                       "{\"id\": \"my-gpu\", \"name\": \"My GPU\", \"vendor\": \"Acme\","
                                       " \"tflops\": {\"bf16\": 100}, \"memory_gb\": 24, \"bandwidth_tbs\": 1,"
                                       " \"price_usd\": 3000}", &error));
  g_assert_no_error (error);
  qm_catalog_page_reload (f.page);
  wait_ms (200);

  view = qm_catalog_page_get_column_view (f.page, QM_CATALOG_KIND_GPU);
  scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW));
  columns = gtk_column_view_get_columns (view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      int w = gtk_column_view_column_get_fixed_width (column);
      const char *title = gtk_column_view_column_get_title (column);
      PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (view), title);
      int tw;

      pango_layout_get_pixel_size (layout, &tw, NULL);
      g_object_unref (layout);
      /* Title, sort arrow (16 px) and the header's padding (2 × 6 px). */
      if (tw + 16 + 12 > w)
        g_error ("%d px: the \"%s\" column (%d px) clips its title (%d px)", width, title, w, tw);
      total += w;
    }
  if (total > gtk_widget_get_width (GTK_WIDGET (scroller)))
    {
      GtkPolicyType hpolicy;

      gtk_scrolled_window_get_policy (scroller, &hpolicy, NULL);
      g_assert_cmpint (hpolicy, !=, GTK_POLICY_NEVER);
      g_assert_false (gtk_scrolled_window_get_overlay_scrolling (scroller));
      g_assert_true (gtk_widget_get_mapped (gtk_scrolled_window_get_hscrollbar (scroller)));
      g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_scrolled_window_get_hadjustment (scroller)), >=, total - 1);
    }

  assert_actions_one_line (&f, width, "my-gpu");
  assert_actions_one_line (&f, width, "h100-sxm-80gb");
  qm_test_screenshot (GTK_WIDGET (f.window), shot_light, ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (GTK_WIDGET (f.window), shot_dark, ADW_COLOR_SCHEME_FORCE_DARK);
  fixture_teardown (&f, NULL);
}

static void
test_widths (void)
{
  check_widths (1200, "1200");
  check_widths (720, "720");
}

/* Issue #34 item 3: the page holds its own reference to the store. Its
 * opener (the application swapping to a team server, here the test)
 * drops its own, and the page still reads and writes through the store
 * (a freed one would fail under AddressSanitizer). */
static void
test_store_reference (Fixture       *f,
                      gconstpointer  data)
{
  g_clear_pointer (&f->store, qm_store_unref);
  qm_catalog_page_reload (f->page);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "catalog.kind", "s", "gpu"));
  g_assert_true (qm_catalog_page_select (f->page, "h100-sxm-80gb"));
}

int
main (int    argc,
      char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/catalog-page/fields-complete", test_fields_complete);
  g_test_add_func ("/catalog-page/widths", test_widths);
  g_test_add ("/catalog-page/builtins", Fixture, NULL, fixture_setup, test_builtins, fixture_teardown);
  g_test_add ("/catalog-page/search-and-filters", Fixture, NULL, fixture_setup, test_search_and_filters, fixture_teardown);
  g_test_add ("/catalog-page/sort", Fixture, NULL, fixture_setup, test_sort, fixture_teardown);
  g_test_add ("/catalog-page/kinds", Fixture, NULL, fixture_setup, test_kinds, fixture_teardown);
  g_test_add ("/catalog-page/add-and-edit", Fixture, NULL, fixture_setup, test_add_and_edit, fixture_teardown);
  g_test_add ("/catalog-page/override-and-hide", Fixture, NULL, fixture_setup, test_override_and_hide, fixture_teardown);
  g_test_add ("/catalog-page/price-history", Fixture, NULL, fixture_setup, test_price_history, fixture_teardown);
  g_test_add ("/catalog-page/delete-undo", Fixture, NULL, fixture_setup, test_delete_undo, fixture_teardown);
  g_test_add ("/catalog-page/import-export", Fixture, NULL, fixture_setup, test_import_export, fixture_teardown);
  g_test_add ("/catalog-page/import-locale", Fixture, NULL, fixture_setup, test_import_locale, fixture_teardown);
  g_test_add ("/catalog-page/narrow", Fixture, NULL, fixture_setup_narrow, test_narrow, fixture_teardown);
  g_test_add ("/catalog-page/store-reference", Fixture, NULL, fixture_setup, test_store_reference, fixture_teardown);
  return g_test_run ();
}
