/* test-plan-view-advisor.c: the plan view's Advisor section (issue #12)
 * under a real display: it lists what qm_advise() says, in its order, with
 * the same effects; the goal buttons re-rank; Try It saves a changed copy
 * that estimates to the advertised figures and leaves the original alone;
 * guidance carries no numbers; an edit recomputes the advice after its
 * own frame, once for a burst. Screenshots light and dark, wide and
 * narrow, for a person to look at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "qm-advisor-panel.h"
#include "qm-advisor.h"
#include "qm-catalog.h"
#include "qm-format.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-plan.h"
#include "qm-test-ui.h"
#include "qm-test-fixture.h"

#define EXAMPLE_70B "llama-3.1-70b-pretrain-h100.qmplan"


static QmAdvisorPanel *
panel_of (GtkWidget *view)
{
  GtkWidget *panel = qm_test_find_type (view, QM_TYPE_ADVISOR_PANEL);

  g_assert_nonnull (panel);
  return QM_ADVISOR_PANEL (panel);
}

/* Runs the main loop until the advice caught up with the plan (generous:
 * under AddressSanitizer the frame that triggers it comes late). */
static void
wait_for_advice (QmAdvisorPanel *panel)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while ((qm_advisor_panel_get_pending (panel) || qm_advisor_panel_get_result (panel) == NULL) &&
         g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (qm_advisor_panel_get_pending (panel));
  g_assert_nonnull (qm_advisor_panel_get_result (panel));
}

static void
iterate (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

/* The ids of the rows in the suggestions list, in order. */
static GPtrArray *
row_ids (QmAdvisorPanel *panel,
         const char     *some_id)
{
  GtkWidget *row = qm_advisor_panel_get_row (panel, some_id);
  GPtrArray *ids = g_ptr_array_new ();

  g_assert_nonnull (row);
  for (GtkWidget *c = gtk_widget_get_first_child (gtk_widget_get_parent (row)); c; c = gtk_widget_get_next_sibling (c))
    g_ptr_array_add (ids, (gpointer) gtk_widget_get_name (c));
  return ids;
}

static const QmAdvice *
advice_by_id (const QmAdvisorResult *r,
              const char            *id)
{
  for (guint i = 0; i < r->n; i++)
    if (g_str_equal (r->items[i].id, id))
      return &r->items[i];
  return NULL;
}

static gboolean
has_digit (const char *s)
{
  for (; *s; s++)
    if (g_ascii_isdigit (*s))
      return TRUE;
  return FALSE;
}

/* The 70B example lists what qm_advise() says, in its order, and Train in
 * FP8 shows its time change as the core computed it. */
static void
test_suggestions (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree QmAdvisorResult *expected = g_new0 (QmAdvisorResult, 1);
  g_autoptr(QmPlanEditor) editor = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autofree char *words = NULL;
  g_autofree char *phrase = NULL;
  char before[QM_FORMAT_BUF], after[QM_FORMAT_BUF];
  const QmAdvisorResult *shown;
  const QmAdvice *fp8;
  QmAdvisorPanel *panel;
  GtkWidget *view, *row, *effect, *change;
  GtkWindow *window;
  QmPlan plan;

  load_example (EXAMPLE_70B, &plan);
  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (NULL, editor);
  window = show_view (view, 1280, 900);
  panel = panel_of (view);
  g_assert_cmpint (qm_advisor_panel_get_goal (panel), ==, QM_ADVISOR_GOAL_COST);
  wait_for_advice (panel);

  qm_advise (&plan, QM_ADVISOR_GOAL_COST, expected);
  shown = qm_advisor_panel_get_result (panel);
  g_assert_cmpuint (shown->n, ==, expected->n);
  g_assert_cmpuint (expected->n, >, 0);
  ids = row_ids (panel, expected->items[0].id);
  g_assert_cmpuint (ids->len, ==, expected->n);
  for (guint i = 0; i < expected->n; i++)
    {
      g_assert_cmpstr (shown->items[i].id, ==, expected->items[i].id);
      g_assert_cmpstr (g_ptr_array_index (ids, i), ==, expected->items[i].id);
      g_assert_nonnull (qm_advisor_panel_get_try_button (panel, expected->items[i].id));
    }

  /* Train in FP8: "−22%" in the core is "22% less time" here, and the time
   * row shows both figures. */
  fp8 = advice_by_id (expected, "precision-fp8");
  g_assert_nonnull (fp8);
  g_assert_cmpfloat (fp8->d_days, <, 0);
  row = qm_advisor_panel_get_row (panel, "precision-fp8");
  g_assert_true (ADW_IS_EXPANDER_ROW (row));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "Train in FP8");
  phrase = g_strdup_printf ("%.0f%% less time", round (-fp8->d_days * 100));
  g_assert_nonnull (strstr (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)), phrase));

  /* The details are built when the row opens. */
  g_assert_null (qm_test_find_named (row, "effect-time"));
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
  effect = qm_test_find_named (row, "effect-time");
  g_assert_nonnull (effect);
  qm_format_days (before, sizeof before, expected->days);
  qm_format_days (after, sizeof after, fp8->days);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (effect)), before));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (effect)), after));
  change = qm_test_find_named (effect, "change");
  words = g_strdup_printf ("%.0f%% less", round (-fp8->d_days * 100));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (change)), ==, words);
  /* The direction is in words and an arrow, not only in colour. */
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (qm_test_find_named (effect, "arrow"))), ==, "↓");

  /* The trade-off and the assumption with its source. */
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (qm_test_find_named (row, "assumption"))),
                            "MosaicML"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (qm_test_find_named (row, "tradeoff"))),
                            "Transformer Engine"));

  close_window (window);
}

/* Each goal button ranks like qm_advise() for that goal. */
static void
test_goals (Fixture       *f,
            gconstpointer  data)
{
  static const char *buttons[] = { "Time", "Cost", "Energy", "GPUs" };
  g_autoptr(QmPlanEditor) editor = NULL;
  QmAdvisorPanel *panel;
  GtkWidget *view;
  GtkWindow *window;
  QmPlan plan;

  load_example ("7b-pretrain-30-day-deadline.qmplan", &plan);
  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (NULL, editor);
  window = show_view (view, 1280, 900);
  panel = panel_of (view);
  wait_for_advice (panel);

  for (QmAdvisorGoal goal = QM_ADVISOR_GOAL_TIME; goal <= QM_ADVISOR_GOAL_GPUS; goal++)
    {
      g_autofree QmAdvisorResult *expected = g_new0 (QmAdvisorResult, 1);
      g_autoptr(GPtrArray) ids = NULL;
      GtkWidget *button = NULL;

      /* Click the goal's toggle button, as a person would. */
      button = qm_test_find_button (GTK_WIDGET (panel), buttons[goal]);
      g_assert_nonnull (button);
      g_signal_emit_by_name (button, "clicked");
      g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
      g_assert_cmpint (qm_advisor_panel_get_goal (panel), ==, goal);
      g_assert_false (qm_advisor_panel_get_pending (panel));

      qm_advise (&plan, goal, expected);
      g_assert_cmpuint (expected->n, >, 1);
      g_assert_cmpstr (qm_advisor_panel_get_result (panel)->items[0].id, ==, expected->items[0].id);
      ids = row_ids (panel, expected->items[0].id);
      g_assert_cmpstr (g_ptr_array_index (ids, 0), ==, expected->items[0].id);
    }
  /* Time and GPUs put different changes first for this plan. */
  {
    g_autofree QmAdvisorResult *t = g_new0 (QmAdvisorResult, 1);
    g_autofree QmAdvisorResult *g = g_new0 (QmAdvisorResult, 1);

    qm_advise (&plan, QM_ADVISOR_GOAL_TIME, t);
    qm_advise (&plan, QM_ADVISOR_GOAL_GPUS, g);
    if (g_str_equal (t->items[0].id, g->items[0].id))
      g_assert_cmpstr (t->items[1].id, !=, g->items[1].id);
  }
  close_window (window);
}

static void
on_duplicated (QmPlanView *view,
               gint64      id,
               gint64     *out)
{
  *out = id;
}

/* Try It saves a changed copy that estimates to the advertised figures,
 * opens it through ::duplicated, and leaves the original as it was. */
static void
test_try_it (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(QmPlanEditor) editor = NULL;
  g_autoptr(QmSavedPlan) original = NULL;
  g_autoptr(QmSavedPlan) original_after = NULL;
  g_autoptr(QmSavedPlan) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree char *name = NULL;
  const QmAdvice *fp8;
  QmAdvisorPanel *panel;
  GtkWidget *view, *button;
  GtkWindow *window;
  QmPlan plan, reloaded;
  gint64 opened = 0, original_id;

  load_example (EXAMPLE_70B, &plan);
  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (f->store, editor);
  g_signal_connect (view, "duplicated", G_CALLBACK (on_duplicated), &opened);
  window = show_view (view, 1280, 900);
  g_assert_true (qm_plan_view_save (QM_PLAN_VIEW (view), &error));
  g_assert_no_error (error);
  original_id = qm_plan_editor_get_saved_id (editor);
  g_assert_cmpint (original_id, >, 0);
  original = qm_plan_store_load (f->store, original_id, &error);
  g_assert_no_error (error);

  panel = panel_of (view);
  wait_for_advice (panel);
  fp8 = advice_by_id (qm_advisor_panel_get_result (panel), "precision-fp8");
  g_assert_nonnull (fp8);
  button = qm_advisor_panel_get_try_button (panel, "precision-fp8");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");

  g_assert_cmpint (opened, >, 0);
  g_assert_cmpint (opened, !=, original_id);
  g_assert_cmpuint (qm_plan_store_count (f->store), ==, 2);
  copy = qm_plan_store_load (f->store, opened, &error);
  g_assert_no_error (error);
  name = g_strdup_printf ("%s — Train in FP8", plan.name);
  g_assert_cmpstr (copy->name, ==, name);
  g_assert_true (qm_plan_load_from_data (&reloaded, copy->inputs, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (reloaded.workload.precision, ==, QM_PRECISION_FP8);
  qm_estimate (&reloaded, e);
  g_assert_true (e->valid);
  g_assert_cmpfloat (fabs (e->train_days / fp8->days - 1), <=, 1e-9);
  g_assert_cmpfloat (fabs (e->gpus / fp8->gpus - 1), <=, 1e-9);
  g_assert_cmpfloat (fabs (e->cost.run / fp8->cost - 1), <=, 1e-9);

  /* The quote on screen and in the store is untouched. */
  g_assert_cmpint (qm_plan_editor_get_plan (editor)->workload.precision, ==, plan.workload.precision);
  g_assert_cmpint (qm_plan_editor_get_saved_id (editor), ==, original_id);
  iterate (QM_PLAN_VIEW_AUTOSAVE_MS + 100);
  original_after = qm_plan_store_load (f->store, original_id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (original_after->inputs, ==, original->inputs);
  g_assert_cmpstr (original_after->name, ==, original->name);

  /* A suggestion that is not on screen is refused. */
  g_assert_cmpint (qm_advisor_panel_try (panel, "no-such-change", &error), ==, 0);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  close_window (window);
}

/* Without a store Try It saves and opens nothing. */
static void
test_try_it_no_store (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(QmPlanEditor) editor = NULL;
  g_autoptr(GError) error = NULL;
  QmAdvisorPanel *panel;
  GtkWidget *view, *button;
  GtkWindow *window;
  QmPlan plan;
  gint64 opened = 0;

  load_example (EXAMPLE_70B, &plan);
  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (NULL, editor);
  g_signal_connect (view, "duplicated", G_CALLBACK (on_duplicated), &opened);
  window = show_view (view, 1280, 900);
  panel = panel_of (view);
  wait_for_advice (panel);

  button = qm_advisor_panel_get_try_button (panel, "precision-fp8");
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpint (opened, ==, 0);
  g_assert_cmpint (qm_advisor_panel_try (panel, "precision-fp8", &error), ==, 0);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_cmpint (qm_plan_editor_get_plan (editor)->workload.precision, ==, plan.workload.precision);
  close_window (window);
}

/* Guidance: text and a source, never numbers, and no Try It. */
static void
test_guidance (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(QmPlanEditor) editor = NULL;
  const QmAdvisorResult *r;
  QmAdvisorPanel *panel;
  GtkWidget *view;
  GtkWindow *window;
  QmPlan plan;

  load_example (EXAMPLE_70B, &plan);
  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (NULL, editor);
  window = show_view (view, 1280, 900);
  panel = panel_of (view);
  wait_for_advice (panel);

  r = qm_advisor_panel_get_result (panel);
  g_assert_cmpuint (r->n_guidance, >, 0);
  for (guint i = 0; i < r->n_guidance; i++)
    {
      const QmAdvice *a = &r->guidance[i];
      GtkWidget *row = qm_advisor_panel_get_row (panel, a->id);
      const char *subtitle;
      g_autofree char *text = NULL;
      const char *source;

      g_assert_false (a->quantified);
      g_assert_nonnull (row);
      g_assert_true (ADW_IS_ACTION_ROW (row));
      g_assert_null (qm_advisor_panel_get_try_button (panel, a->id));
      g_assert_null (qm_test_find_type (row, GTK_TYPE_BUTTON));
      subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
      source = strstr (subtitle, "\nSource: ");
      g_assert_nonnull (source);
      g_assert_cmpstr (source + strlen ("\nSource: "), ==, a->assumption);
      /* The title and the text: no figures (a source may have a year). */
      text = g_strndup (subtitle, source - subtitle);
      g_assert_false (has_digit (text));
      g_assert_false (has_digit (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row))));
    }
  close_window (window);
}

/* An edit recomputes the advice after the edit's own frame; a burst of
 * edits costs one computation; "Nothing to improve…" when nothing does. */
static void
test_live (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(QmPlanEditor) editor = NULL;
  g_autofree QmAdvisorResult *expected = g_new0 (QmAdvisorResult, 1);
  QmAdvisorPanel *panel;
  GtkWidget *view;
  GtkWindow *window;
  QmPlan plan, edited;
  gint64 t0, t_edit, t_advice;
  double advice_ms;

  load_example (EXAMPLE_70B, &plan);
  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (NULL, editor);
  window = show_view (view, 1280, 900);
  panel = panel_of (view);
  wait_for_advice (panel);
  iterate (50);

  /* One edit: the edit returns before the advice is computed. */
  edited = plan;
  edited.workload.target_gpus = 4096;
  t0 = g_get_monotonic_time ();
  qm_plan_editor_set_plan (editor, &edited, "gpus");
  t_edit = g_get_monotonic_time () - t0;
  g_assert_true (qm_advisor_panel_get_pending (panel));
  wait_for_advice (panel);
  t_advice = g_get_monotonic_time () - t0;
  advice_ms = qm_advisor_panel_get_last_duration (panel) / 1000.0;
  qm_advise (&edited, QM_ADVISOR_GOAL_COST, expected);
  g_assert_cmpuint (qm_advisor_panel_get_result (panel)->n, ==, expected->n);
  g_assert_cmpfloat (qm_advisor_panel_get_result (panel)->gpus, ==, 4096);
  g_test_message ("edit → advice (70B): the edit %.2f ms; the advice and its rows %.2f ms in an idle; "
                  "edit to advice on screen %.2f ms", t_edit / 1000.0, advice_ms, t_advice / 1000.0);
  g_print ("# edit → advice (70B): edit %.2f ms, advice + rows %.2f ms (idle), wall %.2f ms\n",
           t_edit / 1000.0, advice_ms, t_advice / 1000.0);

  /* The same changes with new figures: the rows are updated in place, and
   * an open row keeps its details up to date. */
  {
    const char *id = qm_advisor_panel_get_result (panel)->items[0].id;
    GtkWidget *row = qm_advisor_panel_get_row (panel, id);
    g_autofree char *subtitle = g_strdup (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)));

    adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
    g_assert_nonnull (qm_test_find_named (row, "tradeoff"));
    edited.workload.tokens *= 0.5;
    qm_plan_editor_set_plan (editor, &edited, "tokens");
    wait_for_advice (panel);
    g_assert_cmpstr (qm_advisor_panel_get_result (panel)->items[0].id, ==, id);
    g_assert_true (qm_advisor_panel_get_row (panel, id) == row);
    g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row)));
    g_assert_nonnull (qm_test_find_named (row, "tradeoff"));
    g_test_message ("in place: %s → %s", subtitle, adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)));
  }

  /* A burst of keystrokes: one pending computation, for the last plan. */
  for (guint gpus = 1024; gpus <= 1024 + 8 * 64; gpus += 64)
    {
      edited.workload.target_gpus = gpus;
      qm_plan_editor_set_plan (editor, &edited, "gpus");
      g_assert_true (qm_advisor_panel_get_pending (panel));
    }
  wait_for_advice (panel);
  g_assert_cmpfloat (qm_advisor_panel_get_result (panel)->gpus, ==, edited.workload.target_gpus);

  /* Undo goes back to the example's advice. */
  while (qm_plan_editor_can_undo (editor))
    qm_plan_editor_undo (editor);
  wait_for_advice (panel);
  qm_advise (&plan, QM_ADVISOR_GOAL_COST, expected);
  g_assert_cmpstr (qm_advisor_panel_get_result (panel)->items[0].id, ==, expected->items[0].id);
  close_window (window);
}

/* Serving on the newest GPU, bought, in an efficient liquid-cooled hall:
 * nothing the core can quantify improves it. */
static void
test_nothing (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(QmPlanEditor) editor = NULL;
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  QmAdvisorPanel *panel;
  GtkWidget *view, *status;
  GtkWindow *window;
  QmPlan plan;

  load_example ("llama-3.1-70b-serving-h100.qmplan", &plan);
  g_strlcpy (plan.gpu_id, "b300", sizeof plan.gpu_id);
  g_strlcpy (plan.server_id, "hgx-b200-8", sizeof plan.server_id);
  plan.hardware.gpu = *qm_catalog_gpu ("b300");
  plan.hardware.server = *qm_catalog_server ("hgx-b200-8");
  plan.pricing.mode = QM_PRICING_BUY;
  plan.offer_id[0] = '\0';
  plan.facility.pue = 1.10;
  plan.facility.rack_kw = 80;
  qm_advise (&plan, QM_ADVISOR_GOAL_COST, r);
  g_assert_cmpuint (r->n, ==, 0);

  editor = qm_plan_editor_new (&plan);
  view = qm_plan_view_new (NULL, editor);
  window = show_view (view, 1280, 900);
  panel = panel_of (view);
  wait_for_advice (panel);
  status = qm_test_find_named (GTK_WIDGET (panel), "status");
  g_assert_nonnull (status);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (status)), ==, "Nothing to improve…");
  close_window (window);
}

static void
dump_widths (GtkWidget *w,
             int        depth)
{
  int m;

  gtk_widget_measure (w, GTK_ORIENTATION_HORIZONTAL, -1, &m, NULL, NULL, NULL);
  if (m > 250)
    g_printerr ("%*s%s %s min %d\n", depth, "", G_OBJECT_TYPE_NAME (w), gtk_widget_get_name (w), m);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    dump_widths (c, depth + 1);
}

/* Scrolls the plan view so that the advisor's heading is at the top. */
static void
scroll_to_advisor (GtkWidget      *view,
                   QmAdvisorPanel *panel)
{
  GtkWidget *scroll = gtk_widget_get_ancestor (GTK_WIDGET (panel), GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroll));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroll));
  graphene_point_t p;

  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (panel), content, &GRAPHENE_POINT_INIT (0, 0), &p));
  gtk_adjustment_set_value (adj, p.y - 12);
}

/* Light and dark, wide and narrow, the first suggestion expanded. */
static void
test_screenshots (Fixture       *f,
                  gconstpointer  data)
{
  static const struct { const char *name; int w, h; gboolean panel; } sizes[] = {
    { "wide", 1280, 900, FALSE },
    { "wide-inputs", 1280, 900, TRUE },
    { "narrow", 400, 900, FALSE },
  };
  QmPlan plan;

  load_example (EXAMPLE_70B, &plan);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(QmPlanEditor) editor = qm_plan_editor_new (&plan);
      GtkWidget *view = qm_plan_view_new (NULL, editor);
      GtkWindow *window = show_view (view, sizes[i].w, sizes[i].h);
      g_autofree char *light = g_strdup_printf ("plan-view-advisor-%s-light.png", sizes[i].name);
      g_autofree char *dark = g_strdup_printf ("plan-view-advisor-%s-dark.png", sizes[i].name);
      g_autofree char *guidance = g_strdup_printf ("plan-view-advisor-%s-guidance-light.png", sizes[i].name);
      QmAdvisorPanel *panel = panel_of (view);
      int min;

      qm_plan_view_set_inputs_visible (QM_PLAN_VIEW (view), sizes[i].panel);
      wait_for_advice (panel);
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (qm_advisor_panel_get_row (panel, "precision-fp8")), TRUE);
      iterate (300);
      scroll_to_advisor (view, panel);
      qm_test_screenshot (GTK_WIDGET (window), light, ADW_COLOR_SCHEME_FORCE_LIGHT);
      qm_test_screenshot (GTK_WIDGET (window), dark, ADW_COLOR_SCHEME_FORCE_DARK);

      /* Further down: the guidance. */
      {
        GtkWidget *scroll = gtk_widget_get_ancestor (GTK_WIDGET (panel), GTK_TYPE_SCROLLED_WINDOW);
        GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroll));

        gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + sizes[i].h * 0.6);
        qm_test_screenshot (GTK_WIDGET (window), guidance, ADW_COLOR_SCHEME_FORCE_LIGHT);
      }

      /* The section asks for no more width than a narrow window has. */
      gtk_widget_measure (GTK_WIDGET (panel), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (g_getenv ("QM_DEBUG_WIDTHS"))
        dump_widths (GTK_WIDGET (panel), 0);
      g_assert_cmpint (min, <=, 360 - 2 * 18);
      close_window (window);
    }
}

int
main (int argc, char **argv)
{
  if (!qm_test_ui_init (&argc, &argv))
    return 0;
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "appmenu:close", NULL);
  {
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/io/github/quartermaster/Quartermaster/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/plan-view-advisor/suggestions", test_suggestions);
  ADD ("/plan-view-advisor/goals", test_goals);
  ADD ("/plan-view-advisor/try-it", test_try_it);
  ADD ("/plan-view-advisor/try-it-no-store", test_try_it_no_store);
  ADD ("/plan-view-advisor/guidance", test_guidance);
  ADD ("/plan-view-advisor/live", test_live);
  ADD ("/plan-view-advisor/nothing", test_nothing);
  ADD ("/plan-view-advisor/screenshots", test_screenshots);
#undef ADD
  return g_test_run ();
}
