/* qm-catalog-slots.c: stable row objects over a list model (see the header
 * for why).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-catalog-slots.h"

struct _QmCatalogSlot
{
  GObject        parent_instance;
  QmCatalogItem *item;
};

G_DEFINE_FINAL_TYPE (QmCatalogSlot, qm_catalog_slot, G_TYPE_OBJECT)

enum {
  SLOT_PROP_0,
  SLOT_PROP_ITEM,
  SLOT_N_PROPS
};

static GParamSpec *slot_properties[SLOT_N_PROPS];

static void
qm_catalog_slot_finalize (GObject *object)
{
  g_clear_object (&QM_CATALOG_SLOT (object)->item);

  G_OBJECT_CLASS (qm_catalog_slot_parent_class)->finalize (object);
}

static void
qm_catalog_slot_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case SLOT_PROP_ITEM:
      g_value_set_object (value, QM_CATALOG_SLOT (object)->item);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_catalog_slot_class_init (QmCatalogSlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = qm_catalog_slot_finalize;
  object_class->get_property = qm_catalog_slot_get_property;

  slot_properties[SLOT_PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, QM_TYPE_CATALOG_ITEM,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, SLOT_N_PROPS, slot_properties);
}

static void
qm_catalog_slot_init (QmCatalogSlot *self)
{
}

QmCatalogItem *
qm_catalog_slot_get_item (QmCatalogSlot *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_SLOT (self), NULL);

  return self->item;
}

/* ------------------------------------------------------------------ */

struct _QmCatalogSlots
{
  GObject     parent_instance;
  GListModel *model;
  GPtrArray  *slots;   /* QmCatalogSlot, one per item of the model */
};

static void qm_catalog_slots_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (QmCatalogSlots, qm_catalog_slots, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, qm_catalog_slots_list_model_init))

static GType
qm_catalog_slots_get_item_type (GListModel *list)
{
  return QM_TYPE_CATALOG_SLOT;
}

static guint
qm_catalog_slots_get_n_items (GListModel *list)
{
  return QM_CATALOG_SLOTS (list)->slots->len;
}

static gpointer
qm_catalog_slots_get_item (GListModel *list,
                           guint       position)
{
  QmCatalogSlots *self = QM_CATALOG_SLOTS (list);

  if (position >= self->slots->len)
    return NULL;
  return g_object_ref (self->slots->pdata[position]);
}

static void
qm_catalog_slots_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = qm_catalog_slots_get_item_type;
  iface->get_n_items = qm_catalog_slots_get_n_items;
  iface->get_item = qm_catalog_slots_get_item;
}

static void
on_items_changed (QmCatalogSlots *self,
                  guint           position,
                  guint           removed,
                  guint           added,
                  GListModel     *model)
{
  guint old_n = self->slots->len;
  guint new_n = g_list_model_get_n_items (model);

  for (guint i = old_n; i < new_n; i++)
    g_ptr_array_add (self->slots, g_object_new (QM_TYPE_CATALOG_SLOT, NULL));

  /* Rows from @position on may show another item now. */
  for (guint i = position; i < new_n; i++)
    {
      QmCatalogSlot *slot = self->slots->pdata[i];
      QmCatalogItem *item = g_list_model_get_item (model, i);

      if (slot->item != item)
        {
          g_clear_object (&slot->item);
          slot->item = g_steal_pointer (&item);
          g_object_notify_by_pspec (G_OBJECT (slot), slot_properties[SLOT_PROP_ITEM]);
        }
      g_clear_object (&item);
    }

  if (new_n < old_n)
    {
      g_ptr_array_remove_range (self->slots, new_n, old_n - new_n);
      g_list_model_items_changed (G_LIST_MODEL (self), new_n, old_n - new_n, 0);
    }
  else if (new_n > old_n)
    g_list_model_items_changed (G_LIST_MODEL (self), old_n, 0, new_n - old_n);
}

static void
qm_catalog_slots_dispose (GObject *object)
{
  QmCatalogSlots *self = QM_CATALOG_SLOTS (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_clear_object (&self->model);
  g_clear_pointer (&self->slots, g_ptr_array_unref);

  G_OBJECT_CLASS (qm_catalog_slots_parent_class)->dispose (object);
}

static void
qm_catalog_slots_class_init (QmCatalogSlotsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = qm_catalog_slots_dispose;
}

static void
qm_catalog_slots_init (QmCatalogSlots *self)
{
  self->slots = g_ptr_array_new_with_free_func (g_object_unref);
}

QmCatalogSlots *
qm_catalog_slots_new (GListModel *model)
{
  QmCatalogSlots *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);

  self = g_object_new (QM_TYPE_CATALOG_SLOTS, NULL);
  self->model = g_object_ref (model);
  g_signal_connect_swapped (model, "items-changed", G_CALLBACK (on_items_changed), self);
  on_items_changed (self, 0, 0, g_list_model_get_n_items (model), model);
  return self;
}
