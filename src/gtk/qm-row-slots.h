/* qm-row-slots.h: a list model of stable row objects over another list
 * model, for GTK 4.8's list widgets.
 *
 * GTK 4.8's GtkListView (and so GtkColumnView) keeps widgets for up to
 * GTK_LIST_VIEW_MAX_LIST_ITEMS = 200 rows (gtk/gtklistview.c) whatever
 * its height, some 25 of them on screen. When the items under those rows
 * change (a filter or sort change), it destroys the rows and builds new
 * ones: with ten columns that is some 4,000 widgets and 50-180 ms. Three
 * things here bring a search keystroke within a frame:
 *
 * - Row i is always the same QmRowSlot, whose item changes; the view keeps
 *   its rows and only the cells change.
 * - The model never shrinks below the most items it has held, up to
 *   QM_ROW_SLOTS_MIN_ROWS slots. Slots past the end of the real list are
 *   padding (no item), and their rows are hidden, so a filter that shows 3
 *   rows, and then 300 again, creates and destroys no rows at all. It does
 *   not start with 200 padding rows either: an empty list builds no rows,
 *   which was a third of the window's cold start (issue 20, item 10).
 * - A cell whose item changes is refilled in the frame's layout phase if
 *   its row is then on screen, else when it scrolls into view: the text of
 *   the ~175 rows off screen is neither set nor shaped on each keystroke.
 * - Slots with no row read their item only when asked, and slots are kept
 *   for reuse when the list shrinks: a change over 5,000 items touches
 *   only the rows GTK holds.
 *
 * Only a change in length past QM_ROW_SLOTS_MIN_ROWS reaches the view as
 * items-changed, where GTK keeps no rows unless the list is scrolled
 * there. (GTK 4.12 recycles rows itself, and this can go.)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GTK_LIST_VIEW_MAX_LIST_ITEMS in GTK 4.8's gtk/gtklistview.c. */
#define QM_ROW_SLOTS_MIN_ROWS 200

#define QM_TYPE_ROW_SLOT (qm_row_slot_get_type ())
G_DECLARE_FINAL_TYPE (QmRowSlot, qm_row_slot, QM, ROW_SLOT, GObject)

/* The item this row stands for now, or NULL for a padding row. */
gpointer    qm_row_slot_get_item     (QmRowSlot  *self);

/* Fills one cell of a row with @item (NULL: a padding row, never seen). */
typedef void (*QmRowCellFill) (GtkListItem *list_item,
                               gpointer     item,
                               gpointer     user_data);

#define QM_TYPE_ROW_SLOTS (qm_row_slots_get_type ())
G_DECLARE_FINAL_TYPE (QmRowSlots, qm_row_slots, QM, ROW_SLOTS, GObject)

/* @model: any GListModel of GObjects. */
QmRowSlots *qm_row_slots_new         (GListModel *model);

/* From a list item factory's bind and unbind: @fill fills the cell now
 * and again whenever its slot's item changes. */
void        qm_row_slots_bind_cell   (QmRowSlots    *self,
                                      GtkListItem   *list_item,
                                      QmRowCellFill  fill,
                                      gpointer       user_data);
void        qm_row_slots_unbind_cell (QmRowSlots    *self,
                                      GtkListItem   *list_item);

/* Refills every row's cells with the same items (text that depends on
 * the clock, "5 minutes ago"), on screen at the next layout, the rest when
 * they scroll into view. */
void        qm_row_slots_refill      (QmRowSlots *self);

/* The item at @position of the model underneath (a new reference), or
 * NULL past its end. */
gpointer    qm_row_slots_dup_item    (QmRowSlots *self,
                                      guint       position);

G_END_DECLS
