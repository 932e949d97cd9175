/* test-compare-page.c: the Compare page shows each plan's figures as the
 * core computes them, marks the better value (and follows "lower is
 * better"), hides equal rows on request, and renders in light and dark.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "qm-compare-page.h"
#include "qm-format.h"
#include "qm-plan-store.h"
#include "qm-test-ui.h"

static gint64
import_example (QmStore    *store,
                const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;
  gint64 id = qm_plan_store_import_file (store, path, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  return id;
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
  ids[0] = import_example (store, "llama-3.1-70b-pretrain-h100.qmplan");
  ids[1] = import_example (store, "7b-pretrain-30-day-deadline.qmplan");
  ids[2] = import_example (store, "mistral-7b-lora-a100.qmplan");

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
  /* The total says how long it covers: the examples' 48-month horizon. */
  g_assert_nonnull (qm_test_find_label (GTK_WIDGET (page), "over 48 months"));

  /* Flipped, the most expensive one is marked. */
  qm_compare_page_set_lower_is_better (page, "total", FALSE);
  qm_compare_page_get_cell (page, "total", 0, &best0);
  g_assert_true (best0);
  qm_compare_page_set_lower_is_better (page, "total", TRUE);

  qm_test_screenshot (window, "compare-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);

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

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/compare-page/compare", test_compare);
  return g_test_run ();
}
