/* test-wizard-keyboard.c: the New Plan wizard from the keyboard alone
 * (issue #35 item 7), with real key presses through Xvfb (qm-test-keys.h).
 *
 * Ctrl+Page Down/Up and Alt+Right/Left change the step from anywhere;
 * every row is one Tab stop and its entry takes what is typed; the focus
 * is never on a widget that is not shown (nor left on a combo row's
 * closed list); Space and Enter open a combo row and the hardware lists;
 * Esc in the model search clears it, then cancels; the first focus is the
 * first field; and a plan is made from the first step to Create Plan, and
 * from Ctrl+N in the main window to a plan saved in the store, without
 * the pointer. Each test fails on the sources before issue #35. With a
 * language argument (de) it runs translated, as test-translation does,
 * and /wizard-keyboard/screenshots shows the focus ring on each step at
 * 1100 and 720 px (build/screenshots/wizard-keyboard-LANG-WIDTH-STEP.png).
 *
 * usage: test-wizard-keyboard [--tap] [de]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "qm-plan.h"
#include "qm-plan-store.h"
#include "qm-store.h"
#include "qm-test-keys.h"
#include "qm-test-ui.h"
#include "qm-window.h"
#include "qm-wizard.h"

#define CTRL GDK_CONTROL_MASK

static GtkWidget *
get (QmWizard   *wizard,
     const char *name)
{
  GtkWidget *widget = qm_test_find_named (GTK_WIDGET (wizard), name);

  if (widget == NULL)
    g_error ("No widget named %s", name);
  return widget;
}

static void
settle (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static GtkWindow *
win (QmWizard *wizard)
{
  return GTK_WINDOW (wizard);
}

static GtkWidget *
focus (QmWizard *wizard)
{
  return gtk_window_get_focus (win (wizard));
}

/* The keyboard focus is in @name (an entry's text is a child of it), or
 * on the row that holds it. */
static gboolean
focus_at (QmWizard   *wizard,
          const char *name)
{
  GtkWidget *widget = get (wizard, name);
  GtkWidget *f = focus (wizard);
  GtkWidget *row = gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_BOX_ROW);

  if (f == NULL)
    return FALSE;
  return f == widget || gtk_widget_is_ancestor (f, widget) ||
         (row != NULL && (f == row || gtk_widget_is_ancestor (f, row)));
}

static void
assert_focus_at (QmWizard   *wizard,
                 const char *name)
{
  GtkWidget *f = focus (wizard);

  if (!focus_at (wizard, name))
    g_error ("The focus is on %s (%s), not at %s", f ? G_OBJECT_TYPE_NAME (f) : "nothing",
             f ? gtk_widget_get_name (f) : "", name);
}

/* The focus is on a widget a person can see: mapped, in this window. */
static void
assert_focus_shown (QmWizard   *wizard,
                    const char *after)
{
  GtkWidget *f = focus (wizard);

  if (f == NULL)
    g_error ("After %s the window has no focus", after);
  if (!gtk_widget_get_mapped (f) || !gtk_widget_get_child_visible (f))
    g_error ("After %s the focus is on a hidden %s (%s)", after, G_OBJECT_TYPE_NAME (f),
             gtk_widget_get_name (f));
  for (GtkWidget *w = f; w != NULL; w = gtk_widget_get_parent (w))
    if (!gtk_widget_get_child_visible (w))
      g_error ("After %s the focus is on %s inside a hidden %s", after,
               G_OBJECT_TYPE_NAME (f), G_OBJECT_TYPE_NAME (w));
}

static const char *language = "en";

static QmWizard *
open_wizard_sized (int width,
                   int height)
{
  QmWizard *wizard = qm_wizard_new (NULL, NULL);

  gtk_window_set_default_size (win (wizard), width, height);
  if (!qm_test_keys_init (win (wizard)))
    {
      gtk_window_destroy (win (wizard));
      return NULL;
    }
  settle ();
  return wizard;
}

static QmWizard *
open_wizard (void)
{
  return open_wizard_sized (640, 720);
}

#define OPEN_OR_SKIP(wizard) \
  G_STMT_START { \
    wizard = open_wizard (); \
    if (wizard == NULL) \
      { \
        g_test_skip ("no X11 display with XTEST"); \
        return; \
      } \
  } G_STMT_END

static void
key (QmWizard        *wizard,
     guint            keyval,
     GdkModifierType  mods)
{
  qm_test_key (win (wizard), keyval, mods);
}

static void
type (QmWizard   *wizard,
      const char *text)
{
  qm_test_type (win (wizard), text);
}

static const char *
text_of (QmWizard   *wizard,
         const char *name)
{
  return gtk_editable_get_text (GTK_EDITABLE (get (wizard, name)));
}

/* After typing in the model search: GtkSearchEntry reports the text
 * 150 ms later (its search-delay), and the list hides what does not match
 * only then. Waits until @hidden's row is hidden (a model the search
 * leaves out), so that Tab enters the list as a person would find it;
 * under AddressSanitizer the Tab came before the search and the focus was
 * left on the list itself. */
static void
wait_search_applied (QmWizard   *wizard,
                     const char *hidden)
{
  GtkWidget *widget = get (wizard, hidden);
  GtkWidget *row = gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_BOX_ROW);
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  if (row == NULL)
    row = widget;
  while (gtk_widget_get_visible (row) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (gtk_widget_get_visible (row));
}

/* Down from the focus until it is on @name's row (a list of choices). */
static void
down_to (QmWizard   *wizard,
         const char *name)
{
  for (guint i = 0; i < 60 && !focus_at (wizard, name); i++)
    key (wizard, GDK_KEY_Down, 0);
  assert_focus_at (wizard, name);
}

/* The first focus is the first field of the first step, not Cancel. */
static void
test_first_focus (void)
{
  QmWizard *wizard;

  OPEN_OR_SKIP (wizard);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_GOAL);
  assert_focus_at (wizard, "goal-pretrain");
  gtk_window_destroy (win (wizard));
}

/* Ctrl+Page Down is the next step from inside a list of rows, where the
 * list box would take it to move down a row; Ctrl+Page Up, Alt+Right
 * and Alt+Left likewise. Each step change puts the focus on the step's
 * first field. */
static void
test_step_keys (void)
{
  QmWizard *wizard;

  OPEN_OR_SKIP (wizard);
  /* Inside the list of goals, whatever the first focus. */
  gtk_widget_grab_focus (get (wizard, "goal-pretrain"));
  key (wizard, GDK_KEY_Page_Down, CTRL);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_MODEL);
  assert_focus_at (wizard, "preset-search");
  key (wizard, GDK_KEY_Page_Up, CTRL);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_GOAL);
  assert_focus_at (wizard, "goal-pretrain");
  key (wizard, GDK_KEY_Right, GDK_ALT_MASK);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_MODEL);
  key (wizard, GDK_KEY_Left, GDK_ALT_MASK);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_GOAL);

  /* From a row of the model list, and refused while none is picked. */
  key (wizard, GDK_KEY_Page_Down, CTRL);
  key (wizard, GDK_KEY_Tab, 0);
  g_assert_nonnull (gtk_widget_get_ancestor (focus (wizard), GTK_TYPE_LIST_BOX_ROW));
  key (wizard, GDK_KEY_Page_Down, CTRL);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_MODEL);
  assert_focus_shown (wizard, "Ctrl+Page Down on a step with nothing picked");
  down_to (wizard, "preset-mistral-7b");
  key (wizard, GDK_KEY_space, 0);
  g_assert_cmpstr (qm_wizard_get_plan (wizard)->workload.preset, ==, "mistral-7b");
  key (wizard, GDK_KEY_Page_Down, CTRL);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_DATA);
  assert_focus_at (wizard, "field-tokens");

  /* A model given by its size: its entry is the step's first field. */
  key (wizard, GDK_KEY_Left, GDK_ALT_MASK);
  assert_focus_at (wizard, "preset-search");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (get (wizard, "source-size")), TRUE);
  key (wizard, GDK_KEY_Left, GDK_ALT_MASK);
  key (wizard, GDK_KEY_Right, GDK_ALT_MASK);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_MODEL);
  assert_focus_at (wizard, "field-params");
  gtk_window_destroy (win (wizard));
}

/* Tab around a whole step: every entry row is one stop, on its entry (the
 * row itself never holds the focus, so nothing typed is lost on it), and
 * the focus is always on something shown. Returns the entries met. */
static GPtrArray *
tab_around (QmWizard *wizard)
{
  GPtrArray *seen = g_ptr_array_new ();
  GtkWidget *start = focus (wizard);

  for (guint i = 0; i < 80; i++)
    {
      GtkWidget *f;

      key (wizard, GDK_KEY_Tab, 0);
      f = focus (wizard);
      assert_focus_shown (wizard, "Tab");
      if (ADW_IS_ACTION_ROW (f))
        {
          GtkWidget *activatable = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (f));

          if (activatable != NULL && GTK_IS_EDITABLE (activatable))
            g_error ("Tab stops on the row %s as well as its entry", gtk_widget_get_name (f));
        }
      if (GTK_IS_TEXT (f))
        {
          GtkWidget *entry = gtk_widget_get_ancestor (f, GTK_TYPE_ENTRY);

          if (entry != NULL)
            {
              if (g_ptr_array_find (seen, entry, NULL))
                g_error ("Tab met %s twice in one round", gtk_widget_get_name (entry));
              g_ptr_array_add (seen, entry);
            }
        }
      if (f == start)
        break;
    }
  return seen;
}

static void
assert_seen (GPtrArray  *seen,
             const char *name)
{
  for (guint i = 0; i < seen->len; i++)
    if (g_strcmp0 (gtk_widget_get_name (g_ptr_array_index (seen, i)), name) == 0)
      return;
  g_error ("Tab never reached %s", name);
}

/* One Tab from a field to the next; what is typed lands in the field
 * ("1000" and "500 ms" were lost on the rows). Serving, where the focus
 * used to fall off the step. */
static void
test_tab_and_type (void)
{
  QmWizard *wizard;
  g_autoptr(GPtrArray) seen = NULL;
  const QmPlan *plan;

  OPEN_OR_SKIP (wizard);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (get (wizard, "goal-inference")), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (wizard), "wizard.next", NULL);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (get (wizard, "preset-llama-3.1-70b")), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (wizard), "wizard.next", NULL);
  settle ();
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_DATA);
  gtk_widget_grab_focus (get (wizard, "field-requests"));
  type (wizard, "1000");
  key (wizard, GDK_KEY_Tab, 0);
  assert_focus_at (wizard, "field-input-tokens");
  key (wizard, GDK_KEY_Tab, 0);
  assert_focus_at (wizard, "field-output-tokens");
  key (wizard, GDK_KEY_Tab, 0);
  assert_focus_at (wizard, "field-ttft");
  type (wizard, "500 ms");
  key (wizard, GDK_KEY_Tab, 0);
  assert_focus_at (wizard, "field-tpot");
  g_assert_cmpstr (text_of (wizard, "field-requests"), ==, "1000");
  g_assert_cmpstr (text_of (wizard, "field-ttft"), ==, "500 ms");
  plan = qm_wizard_get_plan (wizard);
  g_assert_cmpfloat (plan->workload.inference.requests_per_minute, ==, 1000);
  g_assert_cmpfloat (plan->workload.inference.ttft_ms, ==, 500);

  seen = tab_around (wizard);
  assert_seen (seen, "field-requests");
  assert_seen (seen, "field-tpot");
  gtk_window_destroy (win (wizard));
}

/* The serving steps: Down, Up, Tab and the step keys never leave the
 * focus on something hidden (the training rows of the same pages are),
 * where it stayed until a click. */
static void
test_focus_shown (void)
{
  QmWizard *wizard;
  g_autoptr(GPtrArray) seen = NULL;

  OPEN_OR_SKIP (wizard);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (get (wizard, "goal-inference")), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (wizard), "wizard.next", NULL);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (get (wizard, "preset-llama-3.1-70b")), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (wizard), "wizard.next", NULL);
  settle ();
  gtk_editable_set_text (GTK_EDITABLE (get (wizard, "field-requests")), "1000");
  /* On the last row shown, where the deadline's row (hidden when
   * serving) is next in the same list: the old list box took the focus
   * there, on Ctrl+Page Down as on Down. */
  {
    GtkWidget *sw = get (wizard, "fixed-gpus-switch");
    GtkWidget *row = gtk_widget_get_ancestor (sw, GTK_TYPE_LIST_BOX_ROW);

    if (!gtk_widget_grab_focus (row))
      gtk_widget_grab_focus (sw);
  }
  for (guint i = 0; i < 4; i++)
    {
      key (wizard, GDK_KEY_Down, 0);
      assert_focus_shown (wizard, "Down on the serving data step");
    }
  /* Ctrl+Page Down from the first field: the next step (the old list box
   * moved down a row per press, and on to the hidden deadline's). */
  gtk_widget_grab_focus (get (wizard, "field-requests"));
  for (guint i = 0; i < 8 && qm_wizard_get_step (wizard) == QM_WIZARD_STEP_DATA; i++)
    {
      key (wizard, GDK_KEY_Page_Down, CTRL);
      assert_focus_shown (wizard, "Ctrl+Page Down on the serving data step");
    }
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_SETUP);
  for (guint i = 0; i < 8; i++)
    {
      key (wizard, GDK_KEY_Down, 0);
      assert_focus_shown (wizard, "Down on the serving setup");
    }
  for (guint i = 0; i < 8; i++)
    {
      key (wizard, GDK_KEY_Up, 0);
      assert_focus_shown (wizard, "Up on the serving setup");
    }
  seen = tab_around (wizard);
  assert_seen (seen, "field-concurrency");
  for (guint s = QM_WIZARD_STEP_SETUP; s < QM_WIZARD_STEP_REVIEW; s++)
    {
      key (wizard, GDK_KEY_Page_Down, CTRL);
      assert_focus_shown (wizard, "Ctrl+Page Down");
    }
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_REVIEW);
  /* Not Create Plan: only a step key. */
  key (wizard, GDK_KEY_Page_Down, CTRL);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_REVIEW);
  for (guint s = 0; s < QM_WIZARD_N_STEPS; s++)
    {
      key (wizard, GDK_KEY_Page_Up, CTRL);
      assert_focus_shown (wizard, "Ctrl+Page Up");
    }
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_GOAL);
  gtk_window_destroy (win (wizard));
}

/* A combo row opens with Space or Enter; its list takes Down and Enter. */
static void
test_combo (void)
{
  QmWizard *wizard;
  AdwComboRow *precision;

  OPEN_OR_SKIP (wizard);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (get (wizard, "preset-mistral-7b")), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (wizard), "wizard.next", NULL);
  gtk_widget_activate_action (GTK_WIDGET (wizard), "wizard.next", NULL);
  gtk_editable_set_text (GTK_EDITABLE (get (wizard, "field-tokens")), "1T");
  gtk_editable_set_text (GTK_EDITABLE (get (wizard, "field-deadline")), "30 days");
  key (wizard, GDK_KEY_Page_Down, CTRL);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_SETUP);
  precision = ADW_COMBO_ROW (get (wizard, "precision"));
  assert_focus_at (wizard, "precision");
  g_assert_cmpuint (adw_combo_row_get_selected (precision), ==, 0);
  key (wizard, GDK_KEY_space, 0);
  key (wizard, GDK_KEY_Down, 0);
  key (wizard, GDK_KEY_Return, 0);
  g_assert_cmpuint (adw_combo_row_get_selected (precision), ==, 1);
  /* The list closed: the focus is back on the row, not on its hidden item. */
  assert_focus_shown (wizard, "a choice in a combo row");
  assert_focus_at (wizard, "precision");
  /* Esc closes the list and leaves the wizard open. */
  key (wizard, GDK_KEY_space, 0);
  key (wizard, GDK_KEY_Escape, 0);
  g_assert_cmpuint (adw_combo_row_get_selected (precision), ==, 1);
  assert_focus_at (wizard, "precision");
  /* Enter opens it as Space does, and picks. */
  key (wizard, GDK_KEY_Return, 0);
  key (wizard, GDK_KEY_Down, 0);
  key (wizard, GDK_KEY_Return, 0);
  g_assert_cmpuint (adw_combo_row_get_selected (precision), ==, 2);
  assert_focus_at (wizard, "precision");
  key (wizard, GDK_KEY_Down, 0);
  assert_focus_at (wizard, "optimizer");
  gtk_window_destroy (win (wizard));
}

/* Esc in the model search clears it; the next Esc cancels the wizard. */
static void
test_escape (void)
{
  QmWizard *wizard;
  GObject *weak;

  OPEN_OR_SKIP (wizard);
  weak = G_OBJECT (wizard);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  gtk_widget_activate_action (GTK_WIDGET (wizard), "wizard.next", NULL);
  gtk_widget_grab_focus (get (wizard, "preset-search"));
  type (wizard, "llama");
  g_assert_cmpstr (text_of (wizard, "preset-search"), ==, "llama");
  key (wizard, GDK_KEY_Escape, 0);
  g_assert_nonnull (weak);
  g_assert_cmpstr (text_of (wizard, "preset-search"), ==, "");
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_MODEL);
  /* The window goes with this one: no release to wait for. */
  qm_test_key_no_wait (win (wizard), GDK_KEY_Escape, 0);
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
}

static void
on_created (QmWizard     *wizard,
            const QmPlan *plan,
            QmPlan      **out)
{
  g_assert_null (*out);
  *out = g_memdup2 (plan, sizeof *plan);
}

/* From the first step to Create Plan with keys only; the last key
 * closes the wizard. */
static void
walk_to_create (QmWizard *wizard)
{
  /* 1. Goal: pretraining, the first choice. */
  assert_focus_at (wizard, "goal-pretrain");
  key (wizard, GDK_KEY_space, 0);
  key (wizard, GDK_KEY_Page_Down, CTRL);

  /* 2. Model: searched, then picked from the list. */
  type (wizard, "llama 70");
  wait_search_applied (wizard, "preset-mistral-7b");
  key (wizard, GDK_KEY_Tab, 0);
  down_to (wizard, "preset-llama-3.1-70b");
  key (wizard, GDK_KEY_space, 0);
  g_assert_cmpstr (qm_wizard_get_plan (wizard)->workload.preset, ==, "llama-3.1-70b");
  key (wizard, GDK_KEY_Page_Down, CTRL);

  /* 3. Data: Enter in the last field is Next. */
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_DATA);
  assert_focus_at (wizard, "field-tokens");
  type (wizard, "15T");
  for (guint i = 0; i < 10 && !focus_at (wizard, "field-deadline"); i++)
    key (wizard, GDK_KEY_Tab, 0);
  assert_focus_at (wizard, "field-deadline");
  type (wizard, "60");
  key (wizard, GDK_KEY_Return, 0);

  /* 4. Setup: the defaults. */
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_SETUP);
  key (wizard, GDK_KEY_Page_Down, CTRL);

  /* 5. Hardware: open the GPU list (Enter), pick one, then the server
   * (Space). */
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_HARDWARE);
  assert_focus_at (wizard, "gpu-");
  key (wizard, GDK_KEY_Return, 0);
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (get (wizard, "gpu-"))));
  down_to (wizard, "gpu-h100-sxm-80gb");
  key (wizard, GDK_KEY_space, 0);
  for (guint i = 0; i < 60 && !focus_at (wizard, "server-"); i++)
    key (wizard, GDK_KEY_Tab, 0);
  key (wizard, GDK_KEY_space, 0);
  down_to (wizard, "server-dgx-h100");
  key (wizard, GDK_KEY_space, 0);
  g_assert_cmpstr (qm_wizard_get_plan (wizard)->gpu_id, ==, "h100-sxm-80gb");
  g_assert_cmpstr (qm_wizard_get_plan (wizard)->server_id, ==, "dgx-h100");
  key (wizard, GDK_KEY_Page_Down, CTRL);

  /* 6. Facility: the defaults. 7. Review: a name, and Enter creates. */
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_FACILITY);
  key (wizard, GDK_KEY_Page_Down, CTRL);
  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_REVIEW);
  assert_focus_at (wizard, "name");
  key (wizard, GDK_KEY_a, CTRL);
  type (wizard, "Keyboard 70B");
  qm_test_key_no_wait (win (wizard), GDK_KEY_Return, 0);
}

static void
test_walk (void)
{
  QmWizard *wizard;
  GObject *weak;
  g_autofree QmPlan *created = NULL;

  OPEN_OR_SKIP (wizard);
  weak = G_OBJECT (wizard);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  g_signal_connect (wizard, "plan-created", G_CALLBACK (on_created), &created);
  walk_to_create (wizard);
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  g_assert_nonnull (created);
  g_assert_cmpint (created->workload.mode, ==, QM_MODE_PRETRAIN);
  g_assert_cmpstr (created->workload.preset, ==, "llama-3.1-70b");
  g_assert_cmpfloat (created->workload.tokens, ==, 15e12);
  g_assert_cmpfloat (created->workload.deadline_days, ==, 60);
  g_assert_cmpstr (created->gpu_id, ==, "h100-sxm-80gb");
  g_assert_cmpstr (created->name, ==, "Keyboard 70B");
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static QmWizard *
find_wizard (void)
{
  QmWizard *found = NULL;

  for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
    if (QM_IS_WIZARD (l->data))
      found = l->data;
  return found;
}

/* In the app: Ctrl+N in the main window opens the wizard, the keys walk
 * it, and the plan is in the store, saved. */
static void
test_saved (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-wizard-keyboard-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  QmWindow *window;
  QmWizard *wizard;
  GObject *weak;
  GPtrArray *plans;

  g_assert_no_error (error);
  window = qm_window_new_with_store (NULL, store);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  if (!qm_test_keys_init (GTK_WINDOW (window)))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      qm_store_free (store);
      g_test_skip ("no X11 display with XTEST");
      return;
    }
  qm_window_set_page (window, "plans");
  settle ();
  /* The wizard takes the keyboard: the releases go to it. */
  qm_test_key_no_wait (GTK_WINDOW (window), GDK_KEY_n, CTRL);
  {
    gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
    /* Wakes the loop only to look at the deadline. */
    guint tick = g_timeout_add (100, wake, NULL);

    while ((wizard = find_wizard ()) == NULL && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (tick);
  }
  g_assert_nonnull (wizard);
  weak = G_OBJECT (wizard);
  g_object_add_weak_pointer (weak, (gpointer *) &weak);
  g_assert_true (qm_test_keys_init (win (wizard)));
  settle ();
  walk_to_create (wizard);
  qm_test_wait_until_null (&weak);
  g_assert_null (weak);
  settle ();

  plans = qm_plan_store_list (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (plans->len, ==, 1);
  {
    QmPlanSummary *summary = g_ptr_array_index (plans, 0);
    QmSavedPlan *saved = qm_plan_store_load (store, summary->id, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (summary->name, ==, "Keyboard 70B");
    g_assert_nonnull (strstr (saved->inputs, "llama-3.1-70b"));
    g_assert_nonnull (strstr (saved->inputs, "h100-sxm-80gb"));
    qm_saved_plan_free (saved);
  }
  g_ptr_array_unref (plans);
  gtk_window_destroy (GTK_WINDOW (window));
  qm_store_free (store);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *file;

    while (d != NULL && (file = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, file, NULL);

        g_remove (path);
      }
    g_rmdir (dir);
  }
}

/* The focus is inside what each scrolled window around it shows: a
 * person can see the ring. */
static void
assert_focus_in_view (QmWizard   *wizard,
                      const char *step)
{
  GtkWidget *f = focus (wizard);

  for (GtkWidget *sw = gtk_widget_get_ancestor (f, GTK_TYPE_SCROLLED_WINDOW); sw != NULL;
       sw = gtk_widget_get_ancestor (gtk_widget_get_parent (sw), GTK_TYPE_SCROLLED_WINDOW))
    {
      graphene_rect_t b;

      g_assert_true (gtk_widget_compute_bounds (f, sw, &b));
      if (b.origin.y < -0.5 || b.origin.y + b.size.height > gtk_widget_get_height (sw) + 0.5)
        g_error ("%s: the focus (%s) is scrolled out of view, at %.0f–%.0f of 0–%d", step,
                 gtk_widget_get_name (f), b.origin.y, b.origin.y + b.size.height, gtk_widget_get_height (sw));
    }
}

static void
shoot (QmWizard   *wizard,
       int         width,
       const char *step)
{
  g_autofree char *name = g_strdup_printf ("wizard-keyboard-%s-%d-%s.png", language, width, step);

  g_assert_true (gtk_window_get_focus_visible (win (wizard)));
  assert_focus_shown (wizard, step);
  qm_test_screenshot (GTK_WIDGET (wizard), name, ADW_COLOR_SCHEME_FORCE_LIGHT);
  /* What the picture shows, after its frames. */
  assert_focus_in_view (wizard, step);
}

/* The steps driven by keys, with the focus ring where the keys left it,
 * at a wide and a narrow width. */
static void
shoot_walk (int width)
{
  QmWizard *wizard = open_wizard_sized (width, 760);

  if (wizard == NULL)
    {
      g_test_skip ("no X11 display with XTEST");
      return;
    }
  key (wizard, GDK_KEY_Down, 0);
  key (wizard, GDK_KEY_Down, 0);
  shoot (wizard, width, "1-goal");
  key (wizard, GDK_KEY_Up, 0);
  key (wizard, GDK_KEY_Up, 0);
  key (wizard, GDK_KEY_space, 0);
  key (wizard, GDK_KEY_Page_Down, CTRL);

  type (wizard, "llama");
  wait_search_applied (wizard, "preset-mistral-7b");
  key (wizard, GDK_KEY_Tab, 0);
  down_to (wizard, "preset-llama-3.1-70b");
  key (wizard, GDK_KEY_space, 0);
  shoot (wizard, width, "2-model");
  key (wizard, GDK_KEY_Page_Down, CTRL);

  type (wizard, "15T");
  key (wizard, GDK_KEY_Tab, 0);
  shoot (wizard, width, "3-data");
  for (guint i = 0; i < 10 && !focus_at (wizard, "field-deadline"); i++)
    key (wizard, GDK_KEY_Tab, 0);
  type (wizard, "60");
  key (wizard, GDK_KEY_Page_Down, CTRL);

  key (wizard, GDK_KEY_Down, 0);
  shoot (wizard, width, "4-setup");
  key (wizard, GDK_KEY_Page_Down, CTRL);

  key (wizard, GDK_KEY_space, 0);
  down_to (wizard, "gpu-h100-sxm-80gb");
  shoot (wizard, width, "5-hardware");
  key (wizard, GDK_KEY_Page_Down, CTRL);

  key (wizard, GDK_KEY_Tab, 0);
  shoot (wizard, width, "6-facility");
  key (wizard, GDK_KEY_Page_Down, CTRL);

  g_assert_cmpint (qm_wizard_get_step (wizard), ==, QM_WIZARD_STEP_REVIEW);
  assert_focus_at (wizard, "name");
  shoot (wizard, width, "7-review");
  gtk_window_destroy (win (wizard));
}

static void
test_screenshots (void)
{
  shoot_walk (1100);
  shoot_walk (720);
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (argv[i][0] != '-')
      language = argv[i];
  if (!g_str_equal (language, "en"))
    {
      const char *build_dir = g_getenv ("QM_BUILD_DIR");
      g_autofree char *localedir = g_build_filename (build_dir ? build_dir : ".", "po", NULL);

      /* As test-translation: LANGUAGE over the C.UTF-8 locale. */
      g_unsetenv ("LC_ALL");
      g_unsetenv ("LC_MESSAGES");
      g_setenv ("LANG", "C.UTF-8", TRUE);
      g_setenv ("LANGUAGE", language, TRUE);
      setlocale (LC_ALL, "");
      bindtextdomain (GETTEXT_PACKAGE, localedir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }
  if (!qm_test_ui_init (&argc, &argv))
    return 0;
  g_test_add_func ("/wizard-keyboard/first-focus", test_first_focus);
  g_test_add_func ("/wizard-keyboard/step-keys", test_step_keys);
  g_test_add_func ("/wizard-keyboard/tab-and-type", test_tab_and_type);
  g_test_add_func ("/wizard-keyboard/focus-shown", test_focus_shown);
  g_test_add_func ("/wizard-keyboard/combo", test_combo);
  g_test_add_func ("/wizard-keyboard/escape", test_escape);
  g_test_add_func ("/wizard-keyboard/walk", test_walk);
  g_test_add_func ("/wizard-keyboard/saved", test_saved);
  g_test_add_func ("/wizard-keyboard/screenshots", test_screenshots);
  return g_test_run ();
}
