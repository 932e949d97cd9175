/* qm-row-slots.c: stable row objects over a list model (see the header
 * for why).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-row-slots.h"

/* A cell bound to a slot, from its list item's bind to its unbind. */
typedef struct
{
  GtkListItem   *list_item;
  QmRowCellFill  fill;
  gpointer       user_data;
} BoundCell;

struct _QmRowSlot
{
  GObject     parent_instance;
  QmRowSlots *owner;     /* not a reference; NULL once it is disposed */
  guint       position;  /* fixed: slot i is always row i */
  GObject    *item;      /* NULL: padding (or not read yet) */
  gboolean    unread;    /* @item is to be read from the model when asked */
  GPtrArray  *cells;     /* BoundCell, the cells of the row showing this slot */
  gboolean    stale;     /* the cells show an older item */
};

G_DEFINE_FINAL_TYPE (QmRowSlot, qm_row_slot, G_TYPE_OBJECT)

static gpointer read_item (QmRowSlot *slot);

static void
qm_row_slot_finalize (GObject *object)
{
  g_clear_object (&QM_ROW_SLOT (object)->item);
  g_ptr_array_unref (QM_ROW_SLOT (object)->cells);

  G_OBJECT_CLASS (qm_row_slot_parent_class)->finalize (object);
}

static void
qm_row_slot_class_init (QmRowSlotClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qm_row_slot_finalize;
}

static void
qm_row_slot_init (QmRowSlot *self)
{
  self->cells = g_ptr_array_new_with_free_func (g_free);
}

gpointer
qm_row_slot_get_item (QmRowSlot *self)
{
  g_return_val_if_fail (QM_IS_ROW_SLOT (self), NULL);

  return read_item (self);
}

/* The row widget a cell's child sits in. In GTK 4.8 a column view cell's
 * child sits in the cell widget, which sits in the row widget; a list
 * view's child sits in the row itself. */
static GtkWidget *
row_of (GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkWidget *cell = child != NULL ? gtk_widget_get_parent (child) : NULL;
  GtkWidget *row = cell != NULL ? gtk_widget_get_parent (cell) : NULL;

  if (row == NULL || GTK_IS_LIST_VIEW (row))
    return cell;
  return row;
}

/* Rows this far outside the view are filled too, so that a short scroll
 * finds them ready. */
#define ON_SCREEN_MARGIN 64

/* Where the last layout put the row. GTK 4.8 lays out and maps only the
 * rows in view (others keep a 0 x 0 allocation); a row not laid out yet
 * counts as off screen until the layout that shows it. */
static gboolean
row_on_screen (GtkWidget *row)
{
  GtkWidget *view = gtk_widget_get_parent (row);
  graphene_rect_t bounds;

  if (view == NULL || !gtk_widget_get_mapped (row) ||
      !gtk_widget_compute_bounds (row, view, &bounds) || bounds.size.height <= 0)
    return FALSE;
  return bounds.origin.y + bounds.size.height >= -ON_SCREEN_MARGIN &&
         bounds.origin.y <= gtk_widget_get_height (view) + ON_SCREEN_MARGIN;
}

static void
fill_cells (QmRowSlot *slot)
{
  gpointer item = read_item (slot);

  for (guint i = 0; i < slot->cells->len; i++)
    {
      BoundCell *cell = slot->cells->pdata[i];

      cell->fill (cell->list_item, item, cell->user_data);
    }
  slot->stale = FALSE;
}

/* ------------------------------------------------------------------ */

struct _QmRowSlots
{
  GObject        parent_instance;
  GListModel    *model;
  GPtrArray     *slots;   /* QmRowSlot: one per item, then padding; kept
                           * past @n_slots when the list shrinks, for reuse */
  guint          n_slots; /* the length of this list */
  guint          floor;   /* it never gets shorter than this: the most
                           * items seen, at most QM_ROW_SLOTS_MIN_ROWS */
  GHashTable    *stale;   /* QmRowSlot (a reference) with cells to refill */
  GdkFrameClock *clock;   /* while @stale is not empty */
};

static void qm_row_slots_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (QmRowSlots, qm_row_slots, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, qm_row_slots_list_model_init))

static GType
qm_row_slots_get_item_type (GListModel *list)
{
  return QM_TYPE_ROW_SLOT;
}

static guint
qm_row_slots_get_n_items (GListModel *list)
{
  return QM_ROW_SLOTS (list)->n_slots;
}

static gpointer
qm_row_slots_get_item (GListModel *list,
                       guint       position)
{
  QmRowSlots *self = QM_ROW_SLOTS (list);

  if (position >= self->n_slots)
    return NULL;
  return g_object_ref (self->slots->pdata[position]);
}

/* Slots with no row are not kept up to date on each change (a change can
 * move thousands): they read their item when asked. */
static gpointer
read_item (QmRowSlot *slot)
{
  if (slot->unread)
    {
      slot->unread = FALSE;
      if (slot->owner != NULL && slot->position < g_list_model_get_n_items (slot->owner->model))
        slot->item = g_list_model_get_item (slot->owner->model, slot->position);
    }
  return slot->item;
}

static void
qm_row_slots_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = qm_row_slots_get_item_type;
  iface->get_n_items = qm_row_slots_get_n_items;
  iface->get_item = qm_row_slots_get_item;
}

static void
on_layout (QmRowSlots *self)
{
  GHashTableIter iter;
  QmRowSlot *slot;

  /* After the window's own layout: rows are where this frame draws them. */
  g_hash_table_iter_init (&iter, self->stale);
  while (g_hash_table_iter_next (&iter, (gpointer *) &slot, NULL))
    {
      if (slot->cells->len == 0)
        {
          slot->stale = FALSE;
          g_hash_table_iter_remove (&iter);
        }
      else if (row_on_screen (row_of (((BoundCell *) slot->cells->pdata[0])->list_item)))
        {
          fill_cells (slot);
          g_hash_table_iter_remove (&iter);
        }
    }
  if (g_hash_table_size (self->stale) == 0 && self->clock != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->clock, on_layout, self);
      g_clear_object (&self->clock);
    }
}

/* The slot shows another item: show or hide its row now (that is layout),
 * and refill its cells at this frame's layout, once it is known whether
 * the row is on screen. */
static void
slot_changed (QmRowSlots *self,
              QmRowSlot  *slot)
{
  GtkWidget *row, *child;
  GdkFrameClock *clock;

  row = row_of (((BoundCell *) slot->cells->pdata[0])->list_item);
  if (row != NULL)
    gtk_widget_set_visible (row, slot->item != NULL);

  child = gtk_list_item_get_child (((BoundCell *) slot->cells->pdata[0])->list_item);
  clock = child != NULL ? gtk_widget_get_frame_clock (child) : NULL;
  if (clock == NULL || (self->clock != NULL && clock != self->clock))
    {
      fill_cells (slot);
      return;
    }
  slot->stale = TRUE;
  g_hash_table_add (self->stale, g_object_ref (slot));
  if (self->clock == NULL)
    {
      self->clock = g_object_ref (clock);
      g_signal_connect_object (clock, "layout", G_CALLBACK (on_layout), self,
                               G_CONNECT_SWAPPED | G_CONNECT_AFTER);
    }
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
}

static void
on_items_changed (QmRowSlots *self,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GListModel *model)
{
  guint old_n = self->n_slots;
  guint n_items = g_list_model_get_n_items (model);
  guint new_n;

  self->floor = MAX (self->floor, MIN (n_items, QM_ROW_SLOTS_MIN_ROWS));
  new_n = MAX (n_items, self->floor);

  while (self->slots->len < new_n)
    {
      QmRowSlot *slot = g_object_new (QM_TYPE_ROW_SLOT, NULL);

      slot->owner = self;
      slot->position = self->slots->len;
      g_ptr_array_add (self->slots, slot);
    }

  /* Rows from @position on may show another item now, or none. Slots with
   * no row (no cells) only forget theirs. */
  for (guint i = position; i < self->slots->len; i++)
    {
      QmRowSlot *slot = self->slots->pdata[i];
      GObject *item;

      if (slot->cells->len == 0)
        {
          if (!slot->unread)
            {
              g_clear_object (&slot->item);
              slot->unread = TRUE;
            }
          continue;
        }
      item = i < n_items ? g_list_model_get_item (model, i) : NULL;
      slot->unread = FALSE;
      if (slot->item != item)
        {
          g_clear_object (&slot->item);
          slot->item = g_steal_pointer (&item);
          slot_changed (self, slot);
        }
      g_clear_object (&item);
    }

  self->n_slots = new_n;
  if (new_n < old_n)
    g_list_model_items_changed (G_LIST_MODEL (self), new_n, old_n - new_n, 0);
  else if (new_n > old_n)
    g_list_model_items_changed (G_LIST_MODEL (self), old_n, 0, new_n - old_n);
}

void
qm_row_slots_refill (QmRowSlots *self)
{
  g_return_if_fail (QM_IS_ROW_SLOTS (self));

  for (guint i = 0; i < self->n_slots && i < self->slots->len; i++)
    {
      QmRowSlot *slot = self->slots->pdata[i];

      if (slot->cells->len > 0 && slot->item != NULL && !slot->stale)
        slot_changed (self, slot);
    }
}

static void
qm_row_slots_dispose (GObject *object)
{
  QmRowSlots *self = QM_ROW_SLOTS (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_clear_object (&self->model);
  if (self->clock != NULL)
    g_signal_handlers_disconnect_by_func (self->clock, on_layout, self);
  g_clear_object (&self->clock);
  g_clear_pointer (&self->stale, g_hash_table_unref);
  /* The view may still hold slots. */
  for (guint i = 0; self->slots != NULL && i < self->slots->len; i++)
    ((QmRowSlot *) self->slots->pdata[i])->owner = NULL;
  g_clear_pointer (&self->slots, g_ptr_array_unref);

  G_OBJECT_CLASS (qm_row_slots_parent_class)->dispose (object);
}

static void
qm_row_slots_class_init (QmRowSlotsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = qm_row_slots_dispose;
}

static void
qm_row_slots_init (QmRowSlots *self)
{
  self->slots = g_ptr_array_new_with_free_func (g_object_unref);
  self->stale = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
}

QmRowSlots *
qm_row_slots_new (GListModel *model)
{
  QmRowSlots *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);

  self = g_object_new (QM_TYPE_ROW_SLOTS, NULL);
  self->model = g_object_ref (model);
  g_signal_connect_swapped (model, "items-changed", G_CALLBACK (on_items_changed), self);
  on_items_changed (self, 0, 0, g_list_model_get_n_items (model), model);
  return self;
}

gpointer
qm_row_slots_dup_item (QmRowSlots *self,
                       guint       position)
{
  g_return_val_if_fail (QM_IS_ROW_SLOTS (self), NULL);

  return g_list_model_get_item (self->model, position);
}

void
qm_row_slots_bind_cell (QmRowSlots    *self,
                        GtkListItem   *list_item,
                        QmRowCellFill  fill,
                        gpointer       user_data)
{
  QmRowSlot *slot;
  BoundCell *cell;
  GtkWidget *row;

  g_return_if_fail (QM_IS_ROW_SLOTS (self));
  g_return_if_fail (GTK_IS_LIST_ITEM (list_item));

  slot = gtk_list_item_get_item (list_item);
  g_return_if_fail (QM_IS_ROW_SLOT (slot));

  cell = g_new (BoundCell, 1);
  cell->list_item = list_item;
  cell->fill = fill;
  cell->user_data = user_data;
  g_ptr_array_add (slot->cells, cell);
  /* A new row: filled now, as GTK would. */
  fill (list_item, read_item (slot), user_data);
  if ((row = row_of (list_item)) != NULL)
    gtk_widget_set_visible (row, slot->item != NULL);
}

void
qm_row_slots_unbind_cell (QmRowSlots  *self,
                          GtkListItem *list_item)
{
  QmRowSlot *slot;

  g_return_if_fail (QM_IS_ROW_SLOTS (self));
  g_return_if_fail (GTK_IS_LIST_ITEM (list_item));

  slot = gtk_list_item_get_item (list_item);
  if (slot == NULL)
    return;
  for (guint i = 0; i < slot->cells->len; i++)
    if (((BoundCell *) slot->cells->pdata[i])->list_item == list_item)
      {
        g_ptr_array_remove_index_fast (slot->cells, i);
        break;
      }
}
