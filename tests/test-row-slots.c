/* test-row-slots.c: the row slots under the catalog and plans tables keep
 * their length when a filter shrinks the list (so GTK keeps its rows), but
 * an empty or short list is not padded to 200 rows it never had (the
 * window's cold start built 200 empty rows per table, issue 20 item 10).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-row-slots.h"

static guint
n_slots (QmRowSlots *slots)
{
  return g_list_model_get_n_items (G_LIST_MODEL (slots));
}

static gpointer
slot_item (QmRowSlots *slots,
           guint       position)
{
  g_autoptr(QmRowSlot) slot = g_list_model_get_item (G_LIST_MODEL (slots), position);

  return qm_row_slot_get_item (slot);
}

static void
append (GListStore *store,
        guint       n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) o = g_object_new (G_TYPE_OBJECT, NULL);

      g_list_store_append (store, o);
    }
}

static void
test_floor (void)
{
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(QmRowSlots) slots = qm_row_slots_new (G_LIST_MODEL (store));

  /* Empty: no rows at all. */
  g_assert_cmpuint (n_slots (slots), ==, 0);

  /* Five items, then two: the five rows stay, the last three as padding. */
  append (store, 5);
  g_assert_cmpuint (n_slots (slots), ==, 5);
  g_list_store_splice (store, 2, 3, NULL, 0);
  g_assert_cmpuint (n_slots (slots), ==, 5);
  g_assert_nonnull (slot_item (slots, 1));
  g_assert_null (slot_item (slots, 2));
  g_assert_null (slot_item (slots, 4));

  /* A long list: every item has a slot; shrunk, the list keeps the 200
   * rows GTK 4.8 would otherwise destroy and build again, no more. */
  append (store, 498);
  g_assert_cmpuint (n_slots (slots), ==, 500);
  g_list_store_splice (store, 10, 490, NULL, 0);
  g_assert_cmpuint (n_slots (slots), ==, QM_ROW_SLOTS_MIN_ROWS);
  g_assert_nonnull (slot_item (slots, 9));
  g_assert_null (slot_item (slots, 10));
  g_list_store_remove_all (store);
  g_assert_cmpuint (n_slots (slots), ==, QM_ROW_SLOTS_MIN_ROWS);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/row-slots/floor", test_floor);
  return g_test_run ();
}
