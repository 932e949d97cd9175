/* qm-plan-item.c: one saved plan in the Plans page's list.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-catalog.h"
#include "qm-plan-item.h"

struct _QmPlanItem
{
  GObject        parent_instance;

  QmPlanSummary *summary;
  char          *model_label;
  char          *sort_keys[3];
};

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (QmPlanItem, qm_plan_item, G_TYPE_OBJECT)

static void
qm_plan_item_finalize (GObject *object)
{
  QmPlanItem *self = QM_PLAN_ITEM (object);

  g_clear_pointer (&self->summary, qm_plan_summary_free);
  g_clear_pointer (&self->model_label, g_free);
  for (guint i = 0; i < G_N_ELEMENTS (self->sort_keys); i++)
    g_clear_pointer (&self->sort_keys[i], g_free);

  G_OBJECT_CLASS (qm_plan_item_parent_class)->finalize (object);
}

static void
qm_plan_item_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  QmPlanItem *self = QM_PLAN_ITEM (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_int64 (value, qm_plan_item_get_id (self));
      break;

    case PROP_NAME:
      g_value_set_string (value, qm_plan_item_get_name (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_plan_item_class_init (QmPlanItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = qm_plan_item_finalize;
  object_class->get_property = qm_plan_item_get_property;

  properties[PROP_ID] =
    g_param_spec_int64 ("id", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
qm_plan_item_init (QmPlanItem *self)
{
}

QmPlanItem *
qm_plan_item_new (QmPlanSummary *summary)
{
  QmPlanItem *self;

  g_return_val_if_fail (summary != NULL, NULL);

  self = g_object_new (QM_TYPE_PLAN_ITEM, NULL);
  self->summary = summary;
  return self;
}

const QmPlanSummary *
qm_plan_item_get_summary (QmPlanItem *self)
{
  g_return_val_if_fail (QM_IS_PLAN_ITEM (self), NULL);

  return self->summary;
}

gint64
qm_plan_item_get_id (QmPlanItem *self)
{
  g_return_val_if_fail (QM_IS_PLAN_ITEM (self), 0);

  return self->summary->id;
}

const char *
qm_plan_item_get_name (QmPlanItem *self)
{
  g_return_val_if_fail (QM_IS_PLAN_ITEM (self), NULL);

  return self->summary->name != NULL ? self->summary->name : "";
}

const char *
qm_plan_item_get_model_label (QmPlanItem *self)
{
  g_return_val_if_fail (QM_IS_PLAN_ITEM (self), NULL);

  if (self->model_label == NULL)
    {
      const char *model = self->summary->model != NULL ? self->summary->model : "";
      const QmModelPreset *preset = *model != '\0' ? qm_catalog_model (model) : NULL;

      self->model_label = g_strdup (preset != NULL && preset->info.name != NULL
                                    ? preset->info.name : model);
    }
  return self->model_label;
}

const char *
qm_plan_item_get_sort_key (QmPlanItem    *self,
                           QmPlanItemKey  key)
{
  g_return_val_if_fail (QM_IS_PLAN_ITEM (self), NULL);
  g_return_val_if_fail (key <= QM_PLAN_ITEM_KEY_MODEL, NULL);

  if (self->sort_keys[key] == NULL)
    {
      const char *text = key == QM_PLAN_ITEM_KEY_NAME ? qm_plan_item_get_name (self)
                         : key == QM_PLAN_ITEM_KEY_CUSTOMER ? self->summary->customer
                         : qm_plan_item_get_model_label (self);
      g_autofree char *folded = g_utf8_casefold (text != NULL ? text : "", -1);

      self->sort_keys[key] = g_utf8_collate_key (folded, -1);
    }
  return self->sort_keys[key];
}
