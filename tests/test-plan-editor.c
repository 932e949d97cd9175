/* test-plan-editor.c: edits re-estimate, and undo/redo walk the inputs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan.h"
#include "qm-plan-editor.h"

static void
count_changed (QmPlanEditor *editor,
               guint        *count)
{
  (*count)++;
}

static void
load_example (QmPlan *plan)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                            "llama-3.1-70b-pretrain-h100.qmplan", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_load_from_file (plan, path, NULL, &error));
  g_assert_no_error (error);
}

static void
test_edit_undo_redo (void)
{
  QmPlan plan, edited;
  g_autoptr(QmPlanEditor) editor = NULL;
  guint changed = 0;
  double days_2048;

  load_example (&plan);
  editor = qm_plan_editor_new (&plan);
  g_signal_connect (editor, "changed", G_CALLBACK (count_changed), &changed);
  g_assert_false (qm_plan_editor_can_undo (editor));
  days_2048 = qm_plan_editor_get_estimate (editor)->ideal_days;
  g_assert_cmpfloat (days_2048, >, 0);

  /* Doubling the GPUs halves the ideal time at a given MFU. */
  edited = plan;
  edited.workload.target_gpus = 4096;
  qm_plan_editor_set_plan (editor, &edited, "gpus");
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (qm_plan_editor_get_estimate (editor)->gpus, ==, 4096);
  g_assert_cmpfloat_with_epsilon (qm_plan_editor_get_estimate (editor)->ideal_days, days_2048 / 2, days_2048 * 1e-6);
  g_assert_true (qm_plan_editor_get_dirty (editor));

  /* A second keystroke in the same field merges into one undo step. */
  edited.workload.target_gpus = 8192;
  qm_plan_editor_set_plan (editor, &edited, "gpus");
  /* An identical plan is no edit at all. */
  qm_plan_editor_set_plan (editor, &edited, "gpus");
  g_assert_cmpuint (changed, ==, 2);

  g_assert_true (qm_plan_editor_undo (editor));
  g_assert_cmpuint (qm_plan_editor_get_plan (editor)->workload.target_gpus, ==, 2048);
  g_assert_false (qm_plan_editor_can_undo (editor));
  g_assert_true (qm_plan_editor_can_redo (editor));
  g_assert_cmpfloat (qm_plan_editor_get_estimate (editor)->ideal_days, ==, days_2048);

  g_assert_true (qm_plan_editor_redo (editor));
  g_assert_cmpuint (qm_plan_editor_get_plan (editor)->workload.target_gpus, ==, 8192);
  g_assert_false (qm_plan_editor_redo (editor));

  qm_plan_editor_mark_saved (editor, 42);
  g_assert_false (qm_plan_editor_get_dirty (editor));
  g_assert_cmpint (qm_plan_editor_get_saved_id (editor), ==, 42);
}

static void
test_defaults (void)
{
  g_autoptr(QmPlanEditor) editor = qm_plan_editor_new (NULL);

  /* The defaults alone are not a plan (no model); the estimate says so
   * without NaN. */
  g_assert_nonnull (qm_plan_editor_get_estimate (editor));
  g_assert_false (qm_plan_editor_get_dirty (editor));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/plan-editor/edit-undo-redo", test_edit_undo_redo);
  g_test_add_func ("/plan-editor/defaults", test_defaults);
  return g_test_run ();
}
