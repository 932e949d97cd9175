/* test-translation.c: the app in German and in Simplified Chinese, from the
 * catalogs meson compiles into the build dir. The language is chosen the
 * way a user does (LANGUAGE, with LANG=C.UTF-8 as on a machine without the
 * locale installed), before setlocale and gtk_init. Known labels of the
 * main window and the wizard must be translated, nothing may ask for more
 * width than a narrow (400 px) window has, and the main pages, the wizard's first
 * step and a plan view are screenshotted for a person to check clipping
 * and CJK rendering.
 *
 * usage: test-translation [--tap] LANGUAGE   (de or zh_CN)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>

#include "qm-plan-editor.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-store-roles.h"
#include "qm-test-ui.h"
#include "qm-chart-power.h"
#include "qm-window.h"
#include "qm-wizard.h"

typedef struct
{
  const char *language;
  const char *plans_title;      /* the view switcher's "_Plans" */
  const char *catalog_title;    /* "_Catalog" */
  const char *wizard_question;  /* the wizard's first step, "What do you want to do?" */
  const char *plan_view_title;  /* a section of the plan view, "Bill of Materials" */
  const char *refused_gpus;     /* 2047 GPUs where tp·pp·cp = 32 (issue #24) */
  const char *read_only_file;   /* the store's reason for a read-only file; %s the file */
  const char *power_gpus;       /* the power chart's GPU part: power, not a count (issue #35 item 8) */
} Expected;

static const Expected expectations[] = {
  { "de", "_Pläne", "_Katalog", "Was soll getan werden?", "Stückliste",
    "Muss ein Vielfaches von tp·pp·cp = 32 sein (Wert: 2047)",
    "Die Datenbank %s ist schreibgeschützt, Speichern ist nicht möglich; Dateirechte prüfen", "GPUs" },
  { "zh_CN", "计划(_P)", "目录(_C)", "您想做什么？", "物料清单",
    "必须是 tp·pp·cp = 32 的倍数（当前值：2047）",
    "数据库 %s 为只读，因此无法保存任何内容；请检查该文件的权限", "GPU" },
};

static const Expected *expected;

static void
settle (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
has_text (GtkWidget  *root,
          const char *text)
{
  const char *shown = NULL;

  if (GTK_IS_LABEL (root))
    shown = gtk_label_get_label (GTK_LABEL (root));
  else if (ADW_IS_PREFERENCES_GROUP (root))
    shown = adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (root));
  if (g_strcmp0 (shown, text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child;
       child = gtk_widget_get_next_sibling (child))
    if (has_text (child, text))
      return TRUE;
  return FALSE;
}

static void
shoot (GtkWidget  *widget,
       const char *what)
{
  g_autofree char *name = g_strdup_printf ("i18n-%s-%s.png", expected->language, what);

  qm_test_screenshot (widget, name, ADW_COLOR_SCHEME_FORCE_LIGHT);
}

/* Longer words must wrap or ellipsize rather than widen the window past
 * the narrow width the plan view is tested at (test-plan-view.c, 400 px).
 * In English the main window needs 389 px and the wizard 322 px. */
static void
assert_fits_narrow (GtkWindow *window)
{
  int min = 0;

  /* The window's child: the window itself adds the CSD shadow. */
  gtk_widget_measure (gtk_window_get_child (window), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min, NULL, NULL, NULL);
  g_test_message ("%s needs %d px", G_OBJECT_TYPE_NAME (window), min);
  g_assert_cmpint (min, <=, 400);
}

static void
test_catalog (void)
{
  /* The catalog itself, and a format the C code fills in. */
  g_assert_cmpstr (_("_Plans"), ==, expected->plans_title);
  g_assert_cmpstr (g_dngettext (NULL, "%u plan deleted", "%u plans deleted", 3), !=, "%u plans deleted");
  /* The power chart names what draws the power ("GPU"), not a count of GPUs
   * ("GPU 数" in Chinese). */
  g_assert_cmpstr (qm_chart_power_node_part_name (0), ==, expected->power_gpus);
  g_assert_cmpstr (qm_chart_power_cluster_part_name (0), ==, expected->power_gpus);
}

/* A new plans database at @db holding the 70B example, whose id is *id. */
static QmStore *
store_with_example (const char *db,
                    gint64     *id)
{
  g_autofree char *example = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                               "llama-3.1-70b-pretrain-h100.qmplan", NULL);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);

  g_assert_no_error (error);
  *id = qm_plan_store_import_file (store, example, NULL, NULL, &error);
  g_assert_no_error (error);
  return store;
}

static void
test_window (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-translation-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  AdwViewStack *stack;
  QmWindow *window;
  GtkWidget *view;
  gint64 id;
  QmStore *store = store_with_example (db, &id);

  window = qm_window_new_with_store (NULL, store);
  gtk_window_present (GTK_WINDOW (window));

  stack = ADW_VIEW_STACK (qm_test_find_type (GTK_WIDGET (window), ADW_TYPE_VIEW_STACK));
  g_assert_nonnull (stack);
  g_assert_cmpstr (adw_view_stack_page_get_title (adw_view_stack_get_page (stack, adw_view_stack_get_child_by_name (stack, "plans"))),
                   ==, expected->plans_title);
  g_assert_cmpstr (adw_view_stack_page_get_title (adw_view_stack_get_page (stack, adw_view_stack_get_child_by_name (stack, "catalog"))),
                   ==, expected->catalog_title);

  qm_window_set_page (window, "plans");
  shoot (GTK_WIDGET (window), "window-plans");
  qm_window_set_page (window, "catalog");
  shoot (GTK_WIDGET (window), "window-catalog");
  qm_window_set_page (window, "compare");
  shoot (GTK_WIDGET (window), "window-compare");
  assert_fits_narrow (GTK_WINDOW (window));

  g_assert_true (qm_window_open_plan (window, id));
  view = qm_window_get_detail (window);
  g_assert_true (QM_IS_PLAN_VIEW (view));
  /* Let the leaflet's slide finish before the side panel moves: toggling
   * it mid-slide can make libadwaita 1.2 allocate a negative width. */
  settle (600);
  g_assert_true (has_text (view, expected->plan_view_title));
  /* As it opens, with the side panel of inputs as the window's width
   * decides. (Hiding the panel right after the slide can make libadwaita
   * 1.2 allocate a negative width under load, so this test does not.) */
  shoot (GTK_WIDGET (window), "plan-view");

  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
}

static void
test_wizard (void)
{
  QmWizard *wizard = qm_wizard_new (NULL, NULL);

  gtk_window_set_default_size (GTK_WINDOW (wizard), 640, 720);
  gtk_window_present (GTK_WINDOW (wizard));
  settle (100);
  g_assert_true (has_text (GTK_WIDGET (wizard), expected->wizard_question));
  shoot (GTK_WIDGET (wizard), "wizard-goal");
  assert_fits_narrow (GTK_WINDOW (wizard));
  gtk_window_set_default_size (GTK_WINDOW (wizard), 400, 720);
  shoot (GTK_WIDGET (wizard), "wizard-goal-narrow");
  gtk_window_destroy (GTK_WINDOW (wizard));
}

/* Issue #24: a GPU count the plan refuses, typed into the plan view, is
 * refused in the user's language on the GPU row itself; the tensor-parallel
 * row the rule also names stays as it was. */
static void
test_refused_value (void)
{
  g_autofree char *example = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                               "llama-3.1-70b-pretrain-h100.qmplan", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmPlanEditor) editor = NULL;
  GtkWidget *view, *gpus, *row, *flap, *scroll;
  GtkWindow *window;
  graphene_point_t at;
  QmPlan plan;

  g_assert_true (qm_plan_load_from_file (&plan, example, NULL, &error));
  g_assert_no_error (error);
  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (NULL, editor);
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 1280, 900);
  gtk_window_set_child (window, view);
  gtk_window_present (window);
  qm_plan_view_set_inputs_visible (QM_PLAN_VIEW (view), TRUE);
  settle (300);

  gpus = qm_plan_view_get_input (QM_PLAN_VIEW (view), "gpus");
  row = qm_plan_view_get_input_row (QM_PLAN_VIEW (view), "gpus");
  g_assert_true (GTK_IS_SPIN_BUTTON (gpus));
  gtk_editable_set_text (GTK_EDITABLE (gpus), "2047");
  gtk_spin_button_update (GTK_SPIN_BUTTON (gpus));

  g_assert_true (gtk_widget_has_css_class (row, "error"));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, expected->refused_gpus);
  g_assert_false (gtk_widget_has_css_class (qm_plan_view_get_input_row (QM_PLAN_VIEW (view), "tp"), "error"));
  g_assert_cmpuint (qm_plan_editor_get_plan (editor)->workload.target_gpus, ==, 2048);

  /* The side panel scrolled to the refused row, for a person to look at. */
  flap = qm_test_find_type (view, ADW_TYPE_FLAP);
  scroll = adw_flap_get_flap (ADW_FLAP (flap));
  settle (100);
  g_assert_true (gtk_widget_compute_point (row, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroll)),
                                           &GRAPHENE_POINT_INIT (0, 0), &at));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroll)), at.y - 200);
  shoot (GTK_WIDGET (window), "refused-value");
  {
    g_autofree char *name = g_strdup_printf ("i18n-%s-refused-value-dark.png", expected->language);

    qm_test_screenshot (GTK_WIDGET (window), name, ADW_COLOR_SCHEME_FORCE_DARK);
  }
  gtk_window_destroy (window);
}

/* A database file the user may not write: the store's reason, in the
 * user's language, is the plan view's banner and the window's toast. The
 * file is opened read-only as well as write-protected, since the tests may
 * run as root, who writes any file. */
static void
test_read_only_store (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-translation-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autofree char *why = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GError) error = NULL;
  QmWindow *window;
  GtkWidget *view;
  gint64 id;
  QmStore *store = store_with_example (db, &id);

  qm_store_free (store);
  g_assert_cmpint (g_chmod (db, 0444), ==, 0);
  store = qm_store_open_with_flags (db, QM_STORE_OPEN_READ_ONLY | QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);

  why = qm_store_rights_reason (store, QM_STORE_RIGHT_EDIT_PLANS);
  reason = g_strdup_printf (expected->read_only_file, db);
  g_assert_cmpstr (why, ==, reason);

  window = qm_window_new_with_store (NULL, store);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (qm_window_open_plan (window, id));
  view = qm_window_get_detail (window);
  g_assert_true (QM_IS_PLAN_VIEW (view));
  settle (600);
  g_assert_nonnull (qm_test_wait_for_label (view, reason));
  shoot (GTK_WIDGET (window), "read-only");

  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
  g_chmod (db, 0644);
  g_remove (db);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  const char *language = NULL;
  const char *build_dir = g_getenv ("QM_BUILD_DIR");
  g_autofree char *localedir = g_build_filename (build_dir ? build_dir : ".", "po", NULL);

  for (int i = 1; i < argc; i++)
    if (argv[i][0] != '-')
      language = argv[i];
  for (guint i = 0; i < G_N_ELEMENTS (expectations); i++)
    if (g_strcmp0 (expectations[i].language, language) == 0)
      expected = &expectations[i];
  if (expected == NULL)
    g_error ("usage: test-translation [--tap] de|zh_CN");

  /* As a user picks a language on a machine with only the C.UTF-8 locale
   * (docs/toolchain.md, "LC_ALL and LANGUAGE"): LC_ALL would override LANGUAGE. */
  g_unsetenv ("LC_ALL");
  g_unsetenv ("LC_MESSAGES");
  g_setenv ("LANG", "C.UTF-8", TRUE);
  g_setenv ("LANGUAGE", expected->language, TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/translation/catalog", test_catalog);
  g_test_add_func ("/translation/window", test_window);
  g_test_add_func ("/translation/wizard", test_wizard);
  g_test_add_func ("/translation/refused-value", test_refused_value);
  g_test_add_func ("/translation/read-only-store", test_read_only_store);
  return g_test_run ();
}
