/* test-compare-page.c: the Compare page shows each plan's figures as the
 * core computes them, marks the better value as the core's metric table
 * says, hides equal rows on request, and renders in light and dark; and
 * the page, the comparison PDF (read back with pdftotext) and
 * `quartermaster-cli compare` (text and --json, from QM_CLI) show the same
 * rows, the same values and the same marks for the same plans.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <json-glib/json-glib.h>

#include "qm-a11y.h"
#include "qm-chart-draw.h"
#include "qm-chart-widget.h"
#include "qm-compare-page.h"
#include "qm-format.h"
#include "qm-metrics.h"
#include "qm-plan-store.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-test-util.h"

static gboolean
has_buildable_id (GtkWidget     *widget,
                  gconstpointer  id)
{
  return g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget)), id) == 0;
}

/* A value cell of the table: a "numeric" label showing @text. */
static gboolean
is_value_cell (GtkWidget     *widget,
               gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "numeric") &&
         g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static void
test_compare (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-compare-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  GtkWidget *window = gtk_window_new ();
  QmComparePage *page;
  gint64 ids[3];
  gboolean best0, best1;
  const char *text;

  g_assert_no_error (error);
  ids[0] = qm_test_import_example (store, "llama-3.1-70b-pretrain-h100.qmplan");
  ids[1] = qm_test_import_example (store, "7b-pretrain-30-day-deadline.qmplan");
  ids[2] = qm_test_import_example (store, "mistral-7b-lora-a100.qmplan");

  page = QM_COMPARE_PAGE (qm_compare_page_new (store));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 900);
  gtk_window_present (GTK_WINDOW (window));

  /* One plan is not a comparison. */
  qm_compare_page_set_plans (page, ids, 1);
  qm_test_screenshot (window, "compare-empty-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  qm_compare_page_set_plans (page, ids, 3);
  g_assert_cmpuint (qm_compare_page_get_n_plans (page), ==, 3);

  /* The GPU count of the first plan is the example's 2,048. */
  text = qm_compare_page_get_cell (page, "gpus", 0, NULL);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "2,048"));

  /* Lower total cost is better by default: the LoRA run costs least. */
  qm_compare_page_get_cell (page, "total", 0, &best0);
  qm_compare_page_get_cell (page, "total", 2, &best1);
  g_assert_false (best0);
  g_assert_true (best1);
  g_assert_true (g_str_has_prefix (qm_compare_page_get_cell (page, "total", 2, NULL), "✓"));
  /* The total says how long it covers, in the cell as in the PDF: the
   * examples' 48-month horizon. */
  g_assert_true (g_str_has_suffix (qm_compare_page_get_cell (page, "total", 0, NULL), "over 48 months"));

  /* Memory is ranked by what each GPU has to spare, as in the PDF: the
   * LoRA run needs least of its 80 GB. */
  qm_compare_page_get_cell (page, "memory", 2, &best1);
  g_assert_true (best1);

  qm_test_screenshot (window, "compare-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* By Tab alone, each plan's Remove button is reached and named, and
   * each chip's flow-box cell is read as the plan's whole name (issue #37
   * items 1, 2). */
  {
    g_autoptr(GHashTable) removes = g_hash_table_new (NULL, NULL);
    GtkWidget *first = NULL;
    guint stops = 0;

    /* Once round: the window's Tab order wraps. */
    for (; stops < 300; stops++)
      {
        GtkWidget *focus;

        if (!gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD))
          break;
        focus = gtk_root_get_focus (GTK_ROOT (window));
        g_assert_nonnull (focus);
        if (focus == first)
          break;
        if (first == NULL)
          first = focus;
        if (GTK_IS_FLOW_BOX_CHILD (focus))
          g_assert_true (g_str_equal (qm_a11y_get_label (focus), "Llama 3.1 70B pretraining on 2,048 H100") ||
                         g_str_equal (qm_a11y_get_label (focus), "7B pretraining, 2T tokens in 30 days") ||
                         g_str_equal (qm_a11y_get_label (focus), "Mistral 7B LoRA fine-tune on one DGX A100"));
        if (GTK_IS_BUTTON (focus) &&
            g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (focus)), "compare.remove") == 0)
          {
            g_assert_true (g_str_has_prefix (qm_a11y_get_label (focus), "Remove “"));
            g_hash_table_add (removes, focus);
          }
      }
    g_assert_cmpuint (g_hash_table_size (removes), ==, 3);
    g_test_message ("%u Tab stops on the page with three plans", stops);
  }
  /* The table is rebuilt under a focused value (GTK 4.8 failed a critical
   * in gtk_widget_is_ancestor when the focus widget went with it). */
  {
    GtkWidget *cell = qm_test_find (GTK_WIDGET (page), is_value_cell, qm_compare_page_get_cell (page, "gpus", 0, NULL));

    g_assert_true (gtk_widget_grab_focus (cell));
    qm_compare_page_set_plans (page, ids, 3);
    /* The new cell of the same row and plan has the focus. */
    cell = gtk_root_get_focus (GTK_ROOT (window));
    g_assert_true (GTK_IS_LABEL (cell));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (cell)), ==, qm_compare_page_get_cell (page, "gpus", 0, NULL));
  }
  /* Remove by keyboard: the focused button goes with its chip, and the
   * focus stays on something shown; below two plans, the empty page's Add
   * Plan. */
  for (guint left = 2; left >= 1; left--)
    {
      GtkWidget *remove = qm_test_find_type (qm_test_find_type (GTK_WIDGET (page), GTK_TYPE_FLOW_BOX),
                                             GTK_TYPE_BUTTON);
      GtkWidget *focus;

      g_assert_true (gtk_widget_grab_focus (remove));
      g_signal_emit_by_name (remove, "clicked");
      g_assert_cmpuint (qm_compare_page_get_n_plans (page), ==, left);
      focus = gtk_root_get_focus (GTK_ROOT (window));
      g_assert_nonnull (focus);
      g_assert_true (gtk_widget_get_mapped (focus));
      if (left == 1)
        g_assert_true (gtk_widget_is_ancestor (focus, qm_test_find (GTK_WIDGET (page), has_buildable_id,
                                                                     "empty_add_button")));
    }
  qm_compare_page_set_plans (page, ids, 3);

  /* Export and print produce the comparison report: every plan's name in it. */
  {
    g_autofree char *pdf = g_build_filename (dir, "compare.pdf", NULL);
    g_autofree char *printed = g_build_filename (dir, "printed.pdf", NULL);
    g_autofree char *out = NULL;
    const char *argv[] = { "pdftotext", pdf, "-", NULL };

    g_assert_true (qm_compare_page_export_pdf (page, pdf, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL, &out, NULL, NULL, &error));
    g_assert_nonnull (strstr (out, "Mistral 7B LoRA"));
    g_assert_nonnull (strstr (out, "Llama 3.1 70B pretraining"));
    g_assert_true (qm_compare_page_print (page, printed, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_test (printed, G_FILE_TEST_EXISTS));
  }
  qm_test_screenshot (window, "compare-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  /* Two H100 plans: the GPU row is equal and hides with "only differences". */
  qm_compare_page_set_plans (page, ids, 2);
  g_assert_nonnull (qm_compare_page_get_cell (page, "gpu", 0, NULL));
  {
    GtkSwitch *sw = NULL;
    GtkWidget *w = GTK_WIDGET (page);

    /* Find the switch through its mnemonic label's neighbour. */
    for (GtkWidget *child = gtk_widget_get_first_child (w); child != NULL && sw == NULL;)
      {
        if (GTK_IS_SWITCH (child))
          sw = GTK_SWITCH (child);
        else if (gtk_widget_get_first_child (child) != NULL)
          {
            child = gtk_widget_get_first_child (child);
            continue;
          }
        while (child != NULL && gtk_widget_get_next_sibling (child) == NULL && child != w)
          child = gtk_widget_get_parent (child);
        if (child == NULL || child == w)
          break;
        child = gtk_widget_get_next_sibling (child);
      }
    g_assert_nonnull (sw);
    gtk_switch_set_active (sw, TRUE);
  }
  g_assert_null (qm_compare_page_get_cell (page, "gpu", 0, NULL));
  g_assert_nonnull (qm_compare_page_get_cell (page, "gpus", 0, NULL));

  gtk_window_set_default_size (GTK_WINDOW (window), 420, 900);
  qm_test_screenshot (window, "compare-narrow-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
}

static char *
example_path (const char *name)
{
  return g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
}

static char *
run_cli (const char * const *args,
         guint               n_args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = -1;

  g_assert_nonnull (g_getenv ("QM_CLI"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("QM_CLI"));
  for (guint i = 0; i < n_args; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* What a screen reader hears on the page (issue #37 item 2), for a
 * training, a serving and a fine-tuning plan: each value with its row and
 * its plan, the check mark in words; the charts named, their summaries
 * with each plan's figures (the serving plan without a time to train, as
 * the bars have none), and the keyboard probe reading bars by figure and
 * plan. The examples' inputs are the published figures here: 2,048 GPUs
 * for the Llama 3.1 70B pretraining example, one DGX A100 (8 GPUs) for
 * the LoRA run. */
static void
assert_spoken (QmComparePage *page)
{
  const char *training = "Llama 3.1 70B pretraining on 2,048 H100";
  const char *serving = "Llama 3.1 70B chat serving on H100";
  const char *lora = "Mistral 7B LoRA fine-tune on one DGX A100";
  GtkWidget *cell = qm_test_find (GTK_WIDGET (page), is_value_cell, qm_compare_page_get_cell (page, "gpus", 0, NULL));
  GtkWidget *chart = qm_test_find (GTK_WIDGET (page), has_buildable_id, "compare_chart");
  GtkWidget *vram = qm_test_find (GTK_WIDGET (page), has_buildable_id, "vram_chart");
  const char *summary, *serving_part;
  g_autofree char *expected = g_strdup_printf ("GPUs for %s: 2,048", training);
  g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func (g_free);
  gboolean best = FALSE;
  guint read_serving = 0;

  g_assert_nonnull (cell);
  g_assert_cmpstr (qm_a11y_get_label (cell), ==, expected);
  /* The LoRA run's eight GPUs are the fewest: the mark in words. */
  cell = qm_test_find (GTK_WIDGET (page), is_value_cell, qm_compare_page_get_cell (page, "gpus", 2, &best));
  g_assert_true (best);
  g_assert_nonnull (cell);
  g_clear_pointer (&expected, g_free);
  /* Its likely range read with it (issue #36). */
  expected = g_strdup_printf ("GPUs for %s: 8, the better value; likely 7–11", lora);
  g_assert_cmpstr (qm_a11y_get_label (cell), ==, expected);

  g_assert_nonnull (chart);
  g_assert_nonnull (vram);
  g_assert_cmpstr (qm_a11y_get_label (chart), ==, "Comparison of the plans");
  g_assert_cmpstr (qm_a11y_get_label (vram), ==, "Memory per GPU of each plan");
  summary = qm_a11y_get_description (chart);
  g_assert_nonnull (summary);
  g_assert_nonnull (strstr (summary, "A, Llama 3.1 70B pretraining on 2,048 H100: 2,048 GPUs, "));
  g_assert_nonnull (strstr (summary, "C, Mistral 7B LoRA fine-tune on one DGX A100: 8 GPUs, "));
  serving_part = strstr (summary, "B, Llama 3.1 70B chat serving on H100: ");
  g_assert_nonnull (serving_part);
  /* The serving plan: no time to train (the old summary printed one). */
  g_assert_true (g_str_has_prefix (strstr (serving_part, "GPUs, "), "GPUs, no time to train (serving), "));
  g_assert_nonnull (strstr (strstr (summary, training), " to train, "));
  summary = qm_a11y_get_description (vram);
  g_assert_nonnull (summary);
  g_assert_nonnull (strstr (summary, training));
  g_assert_nonnull (strstr (summary, serving));
  g_assert_nonnull (strstr (summary, lora));
  /* Each plan's memory as the table's Memory per GPU row reads it
   * ("38.5 GB of 85.5 GB, fits"): one figure, two views. */
  for (guint p = 0; p < 3; p++)
    {
      const char *names[] = { training, serving, lora };
      const char *value = qm_compare_page_get_cell (page, "memory", p, NULL);
      g_autofree char *used = NULL;
      g_autofree char *needle = NULL;

      g_assert_nonnull (value);
      if (g_str_has_prefix (value, "✓ "))
        value += strlen ("✓ ");
      g_assert_nonnull (strchr (value, ','));
      used = g_strndup (value, strchr (value, ',') - value);
      needle = g_strdup_printf ("%s: %s per GPU (fits): Weights ", names[p], used);
      if (strstr (summary, needle) == NULL)
        g_error ("“%s” not in the memory chart's summary “%s”", needle, summary);
    }
  g_assert_nonnull (strstr (summary, "Weights "));

  /* The arrow keys read every bar and point, left to right, each with
   * its figure and plan; the serving plan has no "Days" bar nor a point
   * on the cost-against-time plot. */
  for (char *text = qm_chart_widget_move_probe (QM_CHART_WIDGET (chart), 0); text != NULL && read->len < 200;
       text = qm_chart_widget_move_probe (QM_CHART_WIDGET (chart), 1))
    g_ptr_array_add (read, text);
  for (guint i = 0; i < read->len; i++)
    {
      const char *text = g_ptr_array_index (read, i);

      g_test_message ("compare chart, from the keyboard: %s", text);
      g_assert_false (g_str_has_prefix (text, "Days, Llama 3.1 70B chat serving"));
      g_assert_false (g_str_has_prefix (text, serving) && strstr (text, " days, ") != NULL);
      read_serving += strstr (text, serving) != NULL;
    }
  g_assert_true (g_ptr_array_find_with_equal_func (read, "GPUs, Llama 3.1 70B pretraining on 2,048 H100: 2,048",
                                                   g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (read, "GPUs, Mistral 7B LoRA fine-tune on one DGX A100: 8",
                                                   g_str_equal, NULL));
  /* GPUs, cost, power and CO₂e of the serving plan. */
  g_assert_cmpuint (read_serving, ==, 4);
  g_assert_cmpuint (read->len, ==, 4 + 5 + 5 + 2);
}

/* The same three plans (training, serving, fine-tuning: two modes) on the
 * page, in the comparison PDF and in `compare` as text and as JSON: the
 * same rows in the same order, the same cells, the same check marks, the
 * same likely ranges under the values and ≈ where plans are within each
 * other's ranges (issue #36), and the same note on what was not ranked. */
static void
test_views_agree (void)
{
  static const char *names[] = {
    "llama-3.1-70b-pretrain-h100.qmplan", "llama-3.1-70b-serving-h100.qmplan", "mistral-7b-lora-a100.qmplan",
  };
  g_autofree char *dir = g_dir_make_tmp ("qm-compare-agree-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autofree char *pdf = g_build_filename (dir, "page.pdf", NULL);
  /* Three strings of their own: g_autofree on an array frees only its first. */
  g_autofree char *path0 = example_path (names[0]);
  g_autofree char *path1 = example_path (names[1]);
  g_autofree char *path2 = example_path (names[2]);
  const char *paths[3] = { path0, path1, path2 };
  const char *json_args[] = { "compare", paths[0], paths[1], paths[2], "--json" };
  const char *text_args[] = { "compare", paths[0], paths[1], paths[2] };
  g_autofree char *json = run_cli (json_args, G_N_ELEMENTS (json_args));
  g_autofree char *text = run_cli (text_args, G_N_ELEMENTS (text_args));
  g_autofree char *pdf_text = NULL;
  g_autofree char *pdf_squeezed = NULL;
  g_autofree char *text_squeezed = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  GtkWidget *window = gtk_window_new ();
  QmComparePage *page;
  JsonObject *root;
  JsonArray *rows;
  const char *note;
  gint64 ids[3];
  guint shown = 0, marks = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    ids[i] = qm_test_import_example (store, names[i]);
  page = QM_COMPARE_PAGE (qm_compare_page_new (store));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 900);
  gtk_window_present (GTK_WINDOW (window));
  qm_compare_page_set_plans (page, ids, 3);
  g_assert_true (qm_compare_page_export_pdf (page, pdf, &error));
  g_assert_no_error (error);
  {
    /* -raw keeps a table cell's lines together, in drawing order. */
    const char *argv[] = { "pdftotext", "-raw", pdf, "-", NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL, &pdf_text, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  pdf_squeezed = qm_test_squeeze (pdf_text);
  text_squeezed = qm_test_squeeze (text);

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  rows = json_object_get_array_member (root, "metrics");
  g_assert_cmpuint (json_array_get_length (rows), >=, 15);

  for (guint r = 0; r < json_array_get_length (rows); r++)
    {
      JsonObject *row = json_array_get_object_element (rows, r);
      const char *id = json_object_get_string_member (row, "id");
      const char *label = json_object_get_string_member (row, "label");
      JsonArray *values = json_object_get_array_member (row, "values");
      JsonArray *best = json_object_get_array_member (row, "best");
      JsonArray *tied = json_object_get_array_member (row, "tied");
      JsonArray *bands = json_object_get_array_member (row, "bands");
      gboolean within = json_object_get_boolean_member (row, "within_bands");
      const QmMetric *metric = qm_metric_find (id);
      g_autoptr(GString) pdf_row = g_string_new (label);
      g_autofree char *pdf_needle = NULL;
      g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
      const char *line = NULL;
      guint text_marks = 0, line_marks = 0;

      /* The text table's line of this row: the label, then the padding. */
      for (guint l = 0; lines[l] != NULL && line == NULL; l++)
        if (g_str_has_prefix (lines[l], label) && g_str_has_prefix (lines[l] + strlen (label), "  "))
          line = lines[l];
      if (line == NULL)
        g_error ("row %s (%s) not in compare's text table", id, label);

      g_assert_cmpuint (json_array_get_length (best), ==, 3);
      g_assert_cmpuint (json_array_get_length (tied), ==, 3);
      g_assert_cmpuint (json_array_get_length (bands), ==, 3);
      g_assert_nonnull (metric);
      g_assert_cmpint (within, ==, g_str_equal (json_object_get_string_member (row, "ranked"), "within-bands"));
      for (guint i = 0; i < 3; i++)
        {
          gboolean marked = json_array_get_boolean_element (best, i);
          gboolean is_tied = json_array_get_boolean_element (tied, i);
          JsonNode *band_node = json_array_get_element (bands, i);
          const char *page_band = qm_compare_page_get_band (page, id, i);
          gboolean applies = !JSON_NODE_HOLDS_NULL (json_array_get_element (values, i));
          gboolean page_marked = !marked;
          const char *page_cell = qm_compare_page_get_cell (page, id, i, &page_marked);
          const char *value;
          g_autofree char *start = NULL;

          /* The page: the JSON's mark; "–" exactly where the JSON has no
           * value. */
          g_assert_nonnull (page_cell);
          g_assert_cmpint (page_marked, ==, marked);
          g_assert_cmpint (g_str_has_prefix (page_cell, "✓ "), ==, marked);
          /* ≈ only in a row within bands, never with ✓. */
          g_assert_cmpint (g_str_has_prefix (page_cell, "≈ "), ==, is_tied);
          g_assert_true (!is_tied || within);
          g_assert_true (!(within && marked));
          value = marked ? page_cell + strlen ("✓ ") : is_tied ? page_cell + strlen ("≈ ") : page_cell;
          /* A likely range on the page exactly where the JSON has one, in
           * the metric's unit around the value, and in the text table. */
          g_assert_cmpint (page_band != NULL, ==, !JSON_NODE_HOLDS_NULL (band_node));
          if (page_band != NULL)
            {
              JsonObject *b = json_node_get_object (band_node);
              double v = json_array_get_double_element (values, i);
              g_assert_nonnull (metric->band);
              g_assert_true (g_str_has_prefix (page_band, "likely "));
              g_assert_cmpfloat (json_object_get_double_member (b, "low"), <, v);
              g_assert_cmpfloat (json_object_get_double_member (b, "high"), >, v);
              if (strstr (text, page_band) == NULL)
                g_error ("row %s: the range '%s' not in compare's text", id, page_band);
            }
          g_assert_cmpint (g_str_equal (value, "–"), ==, !applies);
          if (g_str_equal (json_object_get_string_member (row, "unit"), "count"))
            {
              char number[QM_FORMAT_BUF];

              qm_format_number (number, sizeof number, json_array_get_double_element (values, i), 0);
              g_assert_cmpstr (value, ==, number);
            }
          shown++;
          marks += marked;
          text_marks += marked;
          /* The PDF prints the mark before the value, as the page does,
           * and the likely range under it. */
          g_string_append (pdf_row, page_cell);
          if (page_band != NULL)
            g_string_append (pdf_row, page_band);
          /* The text table: the same value (its first characters: the
           * terminal's cells are cut at 30 columns). */
          start = g_utf8_substring (value, 0, MIN (g_utf8_strlen (value, -1), 20));
          if (strstr (line, start) == NULL)
            g_error ("row %s: '%s' not in the text line '%s'", id, start, line);
        }
      for (const char *p = line; (p = strstr (p, "✓")) != NULL; p += strlen ("✓"))
        line_marks++;
      g_assert_cmpuint (line_marks, ==, text_marks);
      line_marks = 0;
      for (const char *p = line; (p = strstr (p, "≈")) != NULL; p += strlen ("≈"))
        line_marks++;
      for (guint i = 0; i < 3; i++)
        line_marks -= json_array_get_boolean_element (tied, i);
      g_assert_cmpuint (line_marks, ==, 0);

      /* Which plans it applies to and its parts, as the table says; the
       * page expands exactly the rows that have parts. */
      g_assert_cmpstr (json_object_get_string_member (row, "modes"), ==, qm_metric_modes_to_string (metric->modes));
      g_assert_cmpint (json_object_has_member (row, "parts"), ==, metric->n_parts > 0);
      g_assert_cmpint (qm_compare_page_get_expander (page, id) != NULL, ==, metric->n_parts > 0);
      if (metric->n_parts > 0)
        {
          JsonArray *parts = json_object_get_array_member (row, "parts");

          g_assert_cmpuint (json_array_get_length (parts), >, 0);
          for (guint k = 0; k < json_array_get_length (parts); k++)
            {
              JsonObject *part = json_array_get_object_element (parts, k);

              g_assert_nonnull (qm_metric_find_part (metric, json_object_get_string_member (part, "id")));
              g_assert_cmpuint (json_array_get_length (json_object_get_array_member (part, "values")), ==, 3);
            }
        }

      /* The PDF: the row's label and cells in order, marks where the page
       * has them (white space aside: the table wraps). */
      pdf_needle = qm_test_squeeze (pdf_row->str);
      if (strstr (pdf_squeezed, pdf_needle) == NULL)
        g_error ("row %s not in the PDF as %s", id, pdf_needle);
    }
  /* Something is ranked, and a training and a serving plan are not
   * ranked on per-run against per-month figures. */
  g_assert_cmpuint (marks, >, 5);
  {
    gboolean b0 = TRUE, b1 = TRUE, b2 = TRUE;

    qm_compare_page_get_cell (page, "energy", 0, &b0);
    qm_compare_page_get_cell (page, "energy", 1, &b1);
    qm_compare_page_get_cell (page, "energy", 2, &b2);
    g_assert_false (b0 || b1 || b2);
  }
  {
    JsonObject *energy = NULL, *mfu = NULL, *gpus = NULL;

    for (guint r = 0; r < json_array_get_length (rows); r++)
      {
        JsonObject *row = json_array_get_object_element (rows, r);
        const char *id = json_object_get_string_member (row, "id");

        if (g_str_equal (id, "energy"))
          energy = row;
        else if (g_str_equal (id, "mfu"))
          mfu = row;
        else if (g_str_equal (id, "gpus"))
          gpus = row;
      }
    g_assert_nonnull (energy);
    g_assert_cmpstr (json_object_get_string_member (energy, "ranked"), ==, "modes-differ");
    /* The LoRA run's predicted MFU, likely 35.8–48.7%, reaches the
     * pretraining plan's given 40%: within each other's ranges, no ✓, both
     * ≈; the serving plan has no MFU. */
    g_assert_nonnull (mfu);
    g_assert_true (json_object_get_boolean_member (mfu, "within_bands"));
    g_assert_cmpstr (json_object_get_string_member (mfu, "ranked"), ==, "within-bands");
    g_assert_true (json_array_get_boolean_element (json_object_get_array_member (mfu, "tied"), 0));
    g_assert_false (json_array_get_boolean_element (json_object_get_array_member (mfu, "tied"), 1));
    g_assert_true (json_array_get_boolean_element (json_object_get_array_member (mfu, "tied"), 2));
    /* The given MFU has no band, the predicted one has. */
    g_assert_true (JSON_NODE_HOLDS_NULL (json_array_get_element (json_object_get_array_member (mfu, "bands"), 0)));
    g_assert_false (JSON_NODE_HOLDS_NULL (json_array_get_element (json_object_get_array_member (mfu, "bands"), 2)));
    g_assert_cmpstr (qm_compare_page_get_band (page, "mfu", 2), ==, "likely 35.8–48.7%");
    /* Eight GPUs, likely 7–11, against sixteen, likely 14–19: a real
     * difference, ranked. */
    g_assert_nonnull (gpus);
    g_assert_false (json_object_get_boolean_member (gpus, "within_bands"));
    g_assert_cmpstr (qm_compare_page_get_band (page, "gpus", 2), ==, "likely 7–11");
    g_assert_null (qm_compare_page_get_band (page, "gpus", 0));
  }
  /* The page also shows the inputs, which the PDF and the text have too:
   * the GPU row of each plan. */
  g_assert_cmpuint (qm_compare_page_get_n_cells (page), >, shown);
  g_assert_nonnull (qm_compare_page_get_cell (page, "gpu", 0, NULL));
  /* The note under the table: the same words on the page, in the PDF and
   * in the text. */
  note = qm_compare_page_get_legend (page);
  g_assert_nonnull (note);
  g_assert_true (g_str_has_prefix (note, "✓ the better value of the row\n"));
  note += strlen ("✓ the better value of the row\n");
  g_assert_nonnull (strstr (note, "Training and serving plans"));
  g_assert_nonnull (strstr (note, "MFU: ≈ marks the plans within each other’s likely ranges"));
  {
    g_autofree char *note_squeezed = qm_test_squeeze (note);

    g_assert_nonnull (strstr (pdf_squeezed, note_squeezed));
    g_assert_nonnull (strstr (text_squeezed, note_squeezed));
  }
  qm_test_screenshot (window, "compare-modes-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  assert_spoken (page);
  /* The charts below the fold, for a look at the plans' letters on the
   * bars and in the legend. */
  qm_test_screenshot (qm_test_find (GTK_WIDGET (page), has_buildable_id, "compare_chart"),
                      "compare-chart-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
  qm_test_screenshot (qm_test_find (GTK_WIDGET (page), has_buildable_id, "vram_chart"),
                      "compare-vram-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  qm_test_screenshot (qm_test_find (GTK_WIDGET (page), has_buildable_id, "compare_chart"),
                      "compare-chart-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 900);
  qm_test_screenshot (window, "compare-modes-720-dark.png", ADW_COLOR_SCHEME_FORCE_DARK);

  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
}

/* Rows expand to what they are made of, as their chevrons and the help
 * say (issue #35 item 4: a click on the chevron flipped which way was
 * better): with a training (H100, 85.5 GB), a serving (MI300X, 192 GB)
 * and a LoRA plan, a click on Memory per GPU's label opens its parts,
 * each plan's weights as the estimate gives them; another closes them;
 * and neither changes any mark or the direction under the label, which
 * is the core metric's. Costs and power open likewise. Screenshots at
 * 1100 and 720 px, light and dark, in the language the test runs in. */
static void
test_expand (void)
{
  static const char *names[] = {
    "llama-3.1-70b-pretrain-h100.qmplan", "llama-3.1-70b-serving-mi300x.qmplan", "mistral-7b-lora-a100.qmplan",
  };
  static const char *expandable[] = { "memory", "power", "upfront", "monthly", "total" };
  g_autofree char *dir = g_dir_make_tmp ("qm-compare-expand-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  GtkWidget *window = gtk_window_new ();
  const char *lang = g_getenv ("QM_TEST_LANGUAGE") ? g_getenv ("QM_TEST_LANGUAGE") : "en";
  QmComparePage *page;
  guint n_metrics;
  const QmMetric *metrics = qm_metrics (&n_metrics);
  gboolean marks[32][3];
  g_autofree char *memory_name = NULL;
  GtkWidget *expander;
  gint64 ids[3];

  g_assert_no_error (error);
  g_assert_cmpuint (n_metrics, <=, G_N_ELEMENTS (marks));
  for (guint i = 0; i < 3; i++)
    ids[i] = qm_test_import_example (store, names[i]);
  page = QM_COMPARE_PAGE (qm_compare_page_new (store));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 1700);
  gtk_window_present (GTK_WINDOW (window));
  qm_compare_page_set_plans (page, ids, 3);

  /* Rows without parts have no expander; rows with them, closed. */
  g_assert_null (qm_compare_page_get_expander (page, "gpus"));
  g_assert_null (qm_compare_page_get_expander (page, "energy"));
  for (guint k = 0; k < G_N_ELEMENTS (expandable); k++)
    {
      g_assert_nonnull (qm_compare_page_get_expander (page, expandable[k]));
      g_assert_false (qm_compare_page_get_expanded (page, expandable[k]));
    }
  g_assert_null (qm_compare_page_get_cell (page, "memory.weights", 0, NULL));
  for (guint m = 0; m < n_metrics; m++)
    for (guint p = 0; p < 3; p++)
      g_assert_nonnull (qm_compare_page_get_cell (page, metrics[m].id, p, &marks[m][p]));
  /* The button reads with the row's direction, the metric's. */
  expander = qm_compare_page_get_expander (page, "memory");
  memory_name = g_strdup (qm_a11y_get_label (expander));
  g_assert_true (qm_compare_page_get_cell (page, "memory", 1, NULL) != NULL);

  /* A click opens the row. */
  g_assert_true (gtk_widget_grab_focus (expander));
  g_signal_emit_by_name (expander, "clicked");
  g_assert_true (qm_compare_page_get_expanded (page, "memory"));
  /* The focus stays on the row's button, rebuilt with the table. */
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == qm_compare_page_get_expander (page, "memory"));
  for (guint p = 0; p < 3; p++)
    {
      const char *weights = qm_compare_page_get_cell (page, "memory.weights", p, NULL);
      g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
      char expected[QM_FORMAT_BUF];
      QmPlan plan;
      g_autofree char *path = example_path (names[p]);

      g_assert_true (qm_plan_load_from_file (&plan, path, NULL, &error));
      g_assert_no_error (error);
      qm_estimate (&plan, e);
      g_assert_nonnull (weights);
      /* Each plan's weights per GPU, as its estimate gives them. */
      qm_format_bytes (expected, sizeof expected, e->memory.weights, QM_BYTES_GB);
      g_assert_cmpstr (weights, ==, expected);
      g_assert_nonnull (qm_compare_page_get_cell (page, "memory.activations", p, NULL));
    }
  /* The serving plan keeps a KV cache: the part is listed. */
  g_assert_nonnull (qm_compare_page_get_cell (page, "memory.kv-cache", 1, NULL));
  /* The focus stays on the button that was pressed, now the new one. */
  expander = qm_compare_page_get_expander (page, "memory");
  g_assert_nonnull (expander);
  g_assert_cmpstr (qm_a11y_get_label (expander), ==, memory_name);

  /* Nothing else changed: every mark as before. */
  for (guint m = 0; m < n_metrics; m++)
    for (guint p = 0; p < 3; p++)
      {
        gboolean best = !marks[m][p];

        qm_compare_page_get_cell (page, metrics[m].id, p, &best);
        if (best != marks[m][p])
          g_error ("%s of plan %u changed its mark on a click", metrics[m].id, p);
      }

  /* Costs and power open too: a bought plan's hardware written off, a
   * rented one's GPU rental. */
  for (guint k = 1; k < G_N_ELEMENTS (expandable); k++)
    g_signal_emit_by_name (qm_compare_page_get_expander (page, expandable[k]), "clicked");
  g_assert_true (qm_compare_page_get_expanded (page, "total"));
  g_assert_nonnull (qm_compare_page_get_cell (page, "total.amortization", 0, NULL));
  g_assert_cmpstr (qm_compare_page_get_cell (page, "total.amortization", 2, NULL), ==, "–");
  g_assert_nonnull (qm_compare_page_get_cell (page, "total.gpu-rental", 2, NULL));
  g_assert_nonnull (qm_compare_page_get_cell (page, "power.gpus", 0, NULL));
  {
    g_autofree char *name = g_strdup_printf ("compare-expanded-1100-light-%s.png", lang);

    qm_test_screenshot (window, name, ADW_COLOR_SCHEME_FORCE_LIGHT);
    g_free (name);
    name = g_strdup_printf ("compare-expanded-1100-dark-%s.png", lang);
    qm_test_screenshot (window, name, ADW_COLOR_SCHEME_FORCE_DARK);
    gtk_window_set_default_size (GTK_WINDOW (window), 720, 1700);
    g_free (name);
    name = g_strdup_printf ("compare-expanded-720-light-%s.png", lang);
    qm_test_screenshot (window, name, ADW_COLOR_SCHEME_FORCE_LIGHT);
    g_free (name);
    name = g_strdup_printf ("compare-expanded-720-dark-%s.png", lang);
    qm_test_screenshot (window, name, ADW_COLOR_SCHEME_FORCE_DARK);
    /* The costs' parts, below the fold of a 1024-pixel screen while
     * memory and power are open: with those closed. */
    qm_compare_page_set_expanded (page, "memory", FALSE);
    qm_compare_page_set_expanded (page, "power", FALSE);
    g_free (name);
    name = g_strdup_printf ("compare-expanded-costs-720-light-%s.png", lang);
    qm_test_screenshot (window, name, ADW_COLOR_SCHEME_FORCE_LIGHT);
    gtk_window_set_default_size (GTK_WINDOW (window), 1100, 1700);
    g_free (name);
    name = g_strdup_printf ("compare-expanded-costs-1100-dark-%s.png", lang);
    qm_test_screenshot (window, name, ADW_COLOR_SCHEME_FORCE_DARK);
    qm_compare_page_set_expanded (page, "memory", TRUE);
  }

  /* The comparison PDF's chart carries a value on every cost bar, as its
   * caption says ("the values are printed on the bars"): each plan's total
   * in full or in its short form ($132 M), on the charts' page. */
  {
    g_autofree char *pdf = g_build_filename (dir, "expand.pdf", NULL);
    g_autofree char *out = NULL;
    const char *argv[] = { "pdftotext", pdf, "-", NULL };
    g_auto(GStrv) pages = NULL;
    const char *charts = NULL;

    g_assert_true (qm_compare_page_export_pdf (page, pdf, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL, &out, NULL, NULL, &error));
    g_assert_no_error (error);
    pages = g_strsplit (out, "\f", -1);
    for (guint i = 0; pages[i] != NULL && charts == NULL; i++)
      if (strstr (pages[i], "values are printed on the bars") != NULL ||
          strstr (pages[i], g_dgettext (GETTEXT_PACKAGE, "Cost against time")) != NULL)
        charts = pages[i];
    g_assert_nonnull (charts);
    for (guint p = 0; p < 3; p++)
      {
        g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
        g_autofree char *path = example_path (names[p]);
        char full[QM_FORMAT_BUF], tick[QM_FORMAT_BUF];
        QmPlan plan;

        g_assert_true (qm_plan_load_from_file (&plan, path, NULL, &error));
        g_assert_no_error (error);
        qm_estimate (&plan, e);
        qm_format_money (full, sizeof full, e->cost.total, "USD");
        qm_chart_tick_money (e->cost.total, tick, sizeof tick, (gpointer) "USD");
        if (strstr (charts, full) == NULL && strstr (charts, tick) == NULL)
          g_error ("plan %u's cost bar carries no value (%s or %s) in the PDF: %s", p, full, tick, charts);
      }
  }

  /* Another click closes it; the parts go, the marks stay. */
  g_signal_emit_by_name (qm_compare_page_get_expander (page, "memory"), "clicked");
  g_assert_false (qm_compare_page_get_expanded (page, "memory"));
  g_assert_null (qm_compare_page_get_cell (page, "memory.weights", 0, NULL));
  for (guint m = 0; m < n_metrics; m++)
    for (guint p = 0; p < 3; p++)
      {
        gboolean best = !marks[m][p];

        qm_compare_page_get_cell (page, metrics[m].id, p, &best);
        g_assert_cmpint (best, ==, marks[m][p]);
      }

  /* Mixed modes: no ✓ on a row that means a run's figure in one plan and
   * a month's in another, and the note under the table says which rows
   * those are and which apply to one mode only, from the metric table. */
  for (guint m = 0; m < n_metrics; m++)
    if (metrics[m].rule & QM_METRIC_SAME_MODE)
      for (guint p = 0; p < 3; p++)
        g_assert_false (marks[m][p]);
  {
    const char *note = qm_compare_page_get_legend (page);

    g_assert_nonnull (note);
    for (guint m = 0; m < n_metrics; m++)
      if ((metrics[m].rule & QM_METRIC_SAME_MODE) || metrics[m].modes != QM_METRIC_BOTH)
        if (strstr (note, g_dgettext (GETTEXT_PACKAGE, metrics[m].label)) == NULL)
          g_error ("the note does not name %s: %s", metrics[m].id, note);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
}

int
main (int argc, char **argv)
{
  /* "de": the page in German, as a user picks it (test-translation):
   * only the expanded rows and their screenshots. */
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "de"))
      {
        g_autofree char *localedir = g_build_filename (g_getenv ("QM_BUILD_DIR"), "po", NULL);

        g_unsetenv ("LC_ALL");
        g_unsetenv ("LC_MESSAGES");
        g_setenv ("LANG", "C.UTF-8", TRUE);
        g_setenv ("LANGUAGE", "de", TRUE);
        g_setenv ("QM_TEST_LANGUAGE", "de", TRUE);
        setlocale (LC_ALL, "");
        bindtextdomain (GETTEXT_PACKAGE, localedir);
        bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
        textdomain (GETTEXT_PACKAGE);
      }
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/compare-page/expand", test_expand);
  if (g_getenv ("QM_TEST_LANGUAGE") != NULL)
    return g_test_run ();
  g_test_add_func ("/compare-page/compare", test_compare);
  g_test_add_func ("/compare-page/views-agree", test_views_agree);
  return g_test_run ();
}
