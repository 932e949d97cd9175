/* test-types.c: the shared enums and their byte sizes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-types.h"

static void
test_precision_bytes (void)
{
  QmPrecision p;

  g_assert_cmpfloat (qm_precision_bytes (QM_PRECISION_BF16), ==, 2.0);
  g_assert_cmpfloat (qm_precision_bytes (QM_PRECISION_FP8), ==, 1.0);
  g_assert_cmpfloat (qm_precision_bytes (QM_PRECISION_INT4), ==, 0.5);
  g_assert_true (qm_precision_from_string ("fp16", &p));
  g_assert_cmpint (p, ==, QM_PRECISION_FP16);
  g_assert_false (qm_precision_from_string ("fp12", &p));
  g_assert_cmpstr (qm_precision_to_string (QM_PRECISION_FP32), ==, "fp32");
}

/* A table whose name is not its first member, as the helper allows. */
static void
test_name_table (void)
{
  static const struct { int n; const char *name; } rows[] = {
    { 10, "ten" }, { 20, "twenty" }, { 30, NULL },
  };
  guint i = 99;

  g_assert_true (qm_name_table_find ("twenty", QM_NAME_TABLE (rows, name), &i));
  g_assert_cmpuint (i, ==, 1);
  g_assert_false (qm_name_table_find ("Twenty", QM_NAME_TABLE (rows, name), &i));
  g_assert_false (qm_name_table_find ("", QM_NAME_TABLE (rows, name), &i));
  g_assert_cmpuint (i, ==, 1);
  g_assert_true (qm_name_table_find (NULL, QM_NAME_TABLE (rows, name), &i));
  g_assert_cmpuint (i, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/types/precision-bytes", test_precision_bytes);
  g_test_add_func ("/types/name-table", test_name_table);
  return g_test_run ();
}
