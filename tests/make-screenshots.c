/* make-screenshots.c: renders the software-centre screenshots into a
 * folder: the main window at 1200×800 in the light style, on a temporary
 * store holding the example plans (Plans, a plan, Compare, Catalog, and
 * Quotes with the quoted example's two revisions), and team.png: the
 * Plans page on a team server (a private PostgreSQL cluster).
 *
 * Built by meson but not a test; build-aux/screenshots.sh runs it under
 * Xvfb: make-screenshots OUTDIR. With --bands it renders the plan view's
 * likely ranges (issue #36) for docs/screenshots instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "qm-estimate-json.h"
#include "qm-gtk.h"
#include "qm-plan-view.h"
#include "qm-plan-store.h"
#include "qm-quote-store.h"
#include "qm-team-connection.h"
#include "qm-test-pg.h"
#include "qm-window.h"

/* Whether a plan view under @widget still sweeps its serving charts in
 * its worker (issue 31 item 4): screenshots wait for the whole curves. */
static gboolean
sweeping_in (GtkWidget *widget)
{
  if (QM_IS_PLAN_VIEW (widget) && qm_plan_view_get_sweeping (QM_PLAN_VIEW (widget)))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (sweeping_in (c))
      return TRUE;
  return FALSE;
}

static void
settle (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 800 * G_TIME_SPAN_MILLISECOND;

  /* Let the estimates, the lists and libadwaita's transitions finish. */
  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  end = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;
  while (sweeping_in (widget) && g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
}

static void
save (GtkWidget  *widget,
      const char *dir,
      const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  int w, h;

  settle (widget);
  w = gtk_widget_get_width (widget);
  h = gtk_widget_get_height (widget);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (!gdk_texture_save_to_png (texture, path))
    g_error ("Could not write %s", path);
  g_print ("%s (%d×%d)\n", path, w, h);
}

/* As the Plans page imports: estimated first, so that the list shows the
 * GPUs, days and cost. */
static gint64
import_example (QmStore    *store,
                const char *source_dir,
                const char *name)
{
  g_autofree char *path = g_build_filename (source_dir, "data", "examples", name, NULL);
  g_autofree char *text = NULL;
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *estimate = g_new0 (QmEstimate, 1);
  g_autoptr(QmSavedPlan) extra = qm_saved_plan_new ();
  g_autoptr(GError) error = NULL;
  gint64 id;

  if (!g_file_get_contents (path, &text, NULL, &error) ||
      !qm_plan_store_read_plan (store, text, plan, NULL, &error))
    g_error ("%s: %s", path, error->message);
  qm_estimate (plan, estimate);
  extra->snapshot = qm_estimate_to_json (plan, estimate, NULL);
  extra->model = g_strdup (plan->workload.preset);
  extra->gpus = estimate->gpus;
  extra->days = estimate->has_training ? estimate->train_days : 0;
  extra->total_cost = estimate->has_cost ? estimate->cost.total : 0;
  id = qm_plan_store_import_data (store, text, -1, name, extra, NULL, &error);

  if (id <= 0)
    g_error ("%s: %s", path, error->message);
  return id;
}

/* The quoted example saved as a quote and revised, as Save Quote does. */
static void
save_quote (QmStore *store,
            gint64   plan_id)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  QmQuoteRequest req = { .plan_id = plan_id, .payment_terms = "30 % at order, the rest on delivery" };
  g_autoptr(GError) error = NULL;

  g_date_clear (&req.issued, 1);
  g_date_set_dmy (&req.issued, g_date_time_get_day_of_month (now), g_date_time_get_month (now),
                  g_date_time_get_year (now));
  for (int i = 0; i < 2; i++)
    {
      g_autoptr(QmQuoteRevision) rev = NULL;

      req.note = i == 0 ? NULL : "Spares raised to 5 %";
      if ((rev = qm_quote_store_save_revision (store, &req, &error)) == NULL)
        g_error ("Could not save the example quote: %s", error->message);
    }
}

/* team.png: the Plans page on a team server, a private PostgreSQL
 * cluster (qm-test-pg.h), with the header saying so. */
static void
save_team (const char *source_dir,
           const char *out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *label = NULL;
  g_autofree char *state = NULL;
  g_autoptr(GSimpleActionGroup) app_actions = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) preferences = g_simple_action_new ("preferences", NULL);
  QmTestPg *pg;
  QmStore *store;
  QmWindow *window;

  g_action_map_add_action (G_ACTION_MAP (app_actions), G_ACTION (preferences));
  if (!qm_test_pg_available ())
    {
      g_printerr ("PostgreSQL 15 is not installed (%s): team.png is left as it was\n", QM_TEST_PG_BINDIR);
      return;
    }
  pg = qm_test_pg_start ();
  qm_test_pg_exec (pg, "postgres", "CREATE DATABASE quartermaster");
  uri = qm_test_pg_uri (pg, "quartermaster");
  store = qm_store_open_with_flags (uri, QM_STORE_OPEN_NO_BACKUP, &error);
  if (store == NULL)
    g_error ("The team database: %s", error->message);
  import_example (store, source_dir, "mistral-7b-lora-a100.qmplan");
  import_example (store, source_dir, "llama-3.1-70b-serving-h100.qmplan");
  import_example (store, source_dir, "7b-pretrain-30-day-deadline.qmplan");
  import_example (store, source_dir, "llama-3.1-70b-pretrain-h100.qmplan");

  window = qm_window_new_with_store (NULL, store);
  /* The app's Preferences action, which the header's server button opens
   * (there is no application here to provide it). */
  gtk_widget_insert_action_group (GTK_WIDGET (window), "app", G_ACTION_GROUP (app_actions));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  qm_window_set_page (window, "plans");
  /* As the app says it (qm-application.c). */
  label = qm_team_server_label (uri);
  state = g_strdup_printf (_("Team server: %s"), label);
  qm_team_show_state (GTK_WINDOW (window), state, label, FALSE);
  save (GTK_WIDGET (window), out, "team.png");

  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
  qm_test_pg_stop (pg);
}

/* make-screenshots --bands OUTDIR: the plan view's likely ranges (issue
 * #36) for docs/screenshots: the 7B deadline plan and the MI300X serving
 * plan, each light and dark, at 1200×900. */
static int
save_bands (const char *source_dir,
            const char *out)
{
  static const struct
  {
    const char *example;
    const char *png;
  } plans[] = {
    { "7b-pretrain-30-day-deadline.qmplan", "bands-plan-view" },
    { "llama-3.1-70b-serving-mi300x.qmplan", "bands-serving" },
  };
  g_autofree char *tmp = NULL;
  g_autofree char *db = NULL;
  g_autoptr(GError) error = NULL;
  gint64 ids[G_N_ELEMENTS (plans)];
  QmStore *store;

  tmp = g_dir_make_tmp ("qm-screenshots-XXXXXX", &error);
  g_assert_no_error (error);
  db = g_build_filename (tmp, "plans.db", NULL);
  store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    ids[i] = import_example (store, source_dir, plans[i].example);
  for (int dark = 0; dark <= 1; dark++)
    {
      QmWindow *window;

      adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                          dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
      window = qm_window_new_with_store (NULL, store);
      gtk_window_set_default_size (GTK_WINDOW (window), 1200, 900);
      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
        {
          g_autofree char *png = g_strdup_printf ("%s%s.png", plans[i].png, dark ? "-dark" : "");

          qm_window_set_page (window, "plans");
          if (!qm_window_open_plan (window, ids[i]))
            g_error ("Could not open %s", plans[i].example);
          save (GTK_WIDGET (window), out, png);
        }
      gtk_window_destroy (GTK_WINDOW (window));
    }
  qm_store_free (store);
  g_remove (db);
  g_rmdir (tmp);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  const char *source_dir = g_getenv ("QM_SOURCE_DIR");
  g_autofree char *tmp = NULL;
  g_autofree char *db = NULL;
  g_autoptr(GError) error = NULL;
  QmStore *store;
  QmWindow *window;
  gint64 pretrain, deadline, lora, serving, quoted;

  gboolean bands = argc == 3 && g_strcmp0 (argv[1], "--bands") == 0;

  if ((argc != 2 && !bands) || source_dir == NULL)
    {
      g_printerr ("Usage: QM_SOURCE_DIR=SRC make-screenshots [--bands] OUTDIR\n");
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("No display: run under xvfb-run -a\n");
      return 1;
    }
  adw_init ();
  qm_gtk_ensure_resources ();
  if (bands)
    {
      g_mkdir_with_parents (argv[2], 0755);
      return save_bands (source_dir, argv[2]);
    }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_mkdir_with_parents (argv[1], 0755);

  tmp = g_dir_make_tmp ("qm-screenshots-XXXXXX", &error);
  g_assert_no_error (error);
  db = g_build_filename (tmp, "plans.db", NULL);
  store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);

  lora = import_example (store, source_dir, "mistral-7b-lora-a100.qmplan");
  serving = import_example (store, source_dir, "llama-3.1-70b-serving-h100.qmplan");
  deadline = import_example (store, source_dir, "7b-pretrain-30-day-deadline.qmplan");
  pretrain = import_example (store, source_dir, "llama-3.1-70b-pretrain-h100.qmplan");
  quoted = import_example (store, source_dir, "llama-3.1-70b-quote-eur.qmplan");
  save_quote (store, quoted);

  window = qm_window_new_with_store (NULL, store);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));

  qm_window_set_page (window, "plans");
  save (GTK_WIDGET (window), argv[1], "plans.png");
  qm_window_set_page (window, "catalog");
  save (GTK_WIDGET (window), argv[1], "catalog.png");
  qm_window_set_page (window, "quotes");
  save (GTK_WIDGET (window), argv[1], "quotes.png");
  {
    gint64 ids[] = { pretrain, deadline, lora };

    qm_window_compare (window, ids, G_N_ELEMENTS (ids));
    save (GTK_WIDGET (window), argv[1], "compare.png");
  }
  qm_window_set_page (window, "plans");
  if (!qm_window_open_plan (window, pretrain))
    g_error ("Could not open the example plan");
  save (GTK_WIDGET (window), argv[1], "plan.png");
  qm_window_set_page (window, "plans");
  if (!qm_window_open_plan (window, serving))
    g_error ("Could not open the serving example");
  save (GTK_WIDGET (window), argv[1], "plan-serving.png");
  gtk_window_destroy (GTK_WINDOW (window));

  save_team (source_dir, argv[1]);

  qm_store_free (store);
  g_remove (db);
  g_rmdir (tmp);
  return 0;
}
