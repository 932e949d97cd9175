/* qm-plan-editor.c: the plan being edited in the UI.
 *
 * qm_estimate() is pure and takes microseconds, so every edit simply
 * re-estimates the whole plan (docs/architecture.md, Data flow).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan-editor.h"

#include "qm-plan.h"

/* Enough for a long editing session; the oldest steps drop off. */
#define UNDO_LIMIT 200

struct _QmPlanEditor
{
  GObject     parent_instance;

  QmPlan      plan;
  QmEstimate *estimate;      /* large: kept on the heap, allocated once */
  GQueue      undo;          /* QmPlan*, newest at the head */
  GQueue      redo;
  char       *merge_key;
  gint64      saved_id;
  gboolean    dirty;
};

G_DEFINE_FINAL_TYPE (QmPlanEditor, qm_plan_editor, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_DIRTY,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
clear_queue (GQueue *queue)
{
  g_queue_clear_full (queue, g_free);
}

/* The properties are three read-only flags, declared once here: an edit
 * saves them (save_flags) and notifies those that changed (notify_flags). */
static const char *flag_names[N_PROPS] = {
  [PROP_CAN_UNDO] = "can-undo", [PROP_CAN_REDO] = "can-redo", [PROP_DIRTY] = "dirty",
};

typedef gboolean Flags[N_PROPS];

static gboolean
get_flag (QmPlanEditor *self,
          guint         prop_id)
{
  switch (prop_id)
    {
    case PROP_CAN_UNDO: return qm_plan_editor_can_undo (self);
    case PROP_CAN_REDO: return qm_plan_editor_can_redo (self);
    case PROP_DIRTY:    return self->dirty;
    default:            g_return_val_if_reached (FALSE);
    }
}

static void
save_flags (QmPlanEditor *self,
            Flags         was)
{
  for (guint p = PROP_0 + 1; p < N_PROPS; p++)
    was[p] = get_flag (self, p);
}

static void
notify_flags (QmPlanEditor *self,
              const Flags   was)
{
  for (guint p = PROP_0 + 1; p < N_PROPS; p++)
    if (was[p] != get_flag (self, p))
      g_object_notify_by_pspec (G_OBJECT (self), properties[p]);
}

static void
apply (QmPlanEditor *self,
       const QmPlan *plan)
{
  self->plan = *plan;
  qm_estimate (&self->plan, self->estimate);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
qm_plan_editor_finalize (GObject *object)
{
  QmPlanEditor *self = QM_PLAN_EDITOR (object);

  clear_queue (&self->undo);
  clear_queue (&self->redo);
  g_free (self->merge_key);
  g_free (self->estimate);

  G_OBJECT_CLASS (qm_plan_editor_parent_class)->finalize (object);
}

static void
qm_plan_editor_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  if (prop_id > PROP_0 && prop_id < N_PROPS)
    g_value_set_boolean (value, get_flag (QM_PLAN_EDITOR (object), prop_id));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
qm_plan_editor_class_init (QmPlanEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = qm_plan_editor_finalize;
  object_class->get_property = qm_plan_editor_get_property;

  for (guint p = PROP_0 + 1; p < N_PROPS; p++)
    properties[p] = g_param_spec_boolean (flag_names[p], NULL, NULL, FALSE,
                                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                          G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted after the inputs changed and the estimate was recomputed. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qm_plan_editor_init (QmPlanEditor *self)
{
  self->estimate = g_new0 (QmEstimate, 1);
  g_queue_init (&self->undo);
  g_queue_init (&self->redo);
}

QmPlanEditor *
qm_plan_editor_new (const QmPlan *plan)
{
  QmPlanEditor *self = g_object_new (QM_TYPE_PLAN_EDITOR, NULL);
  QmPlan defaults;

  if (plan == NULL)
    {
      qm_plan_init (&defaults);
      plan = &defaults;
    }
  self->plan = *plan;
  qm_estimate (&self->plan, self->estimate);
  return self;
}

const QmPlan *
qm_plan_editor_get_plan (QmPlanEditor *self)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (self), NULL);
  return &self->plan;
}

const QmEstimate *
qm_plan_editor_get_estimate (QmPlanEditor *self)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (self), NULL);
  return self->estimate;
}

void
qm_plan_editor_set_plan (QmPlanEditor *self,
                         const QmPlan *plan,
                         const char   *merge_key)
{
  Flags was;

  g_return_if_fail (QM_IS_PLAN_EDITOR (self));
  g_return_if_fail (plan != NULL);

  if (qm_plan_equal (plan, &self->plan))
    return;

  save_flags (self, was);
  if (merge_key == NULL || g_strcmp0 (merge_key, self->merge_key) != 0 ||
      g_queue_is_empty (&self->undo))
    {
      g_queue_push_head (&self->undo, g_memdup2 (&self->plan, sizeof self->plan));
      if (g_queue_get_length (&self->undo) > UNDO_LIMIT)
        g_free (g_queue_pop_tail (&self->undo));
    }
  g_free (self->merge_key);
  self->merge_key = g_strdup (merge_key);
  clear_queue (&self->redo);
  self->dirty = TRUE;

  apply (self, plan);
  notify_flags (self, was);
}

gboolean
qm_plan_editor_can_undo (QmPlanEditor *self)
{
  return !g_queue_is_empty (&self->undo);
}

gboolean
qm_plan_editor_can_redo (QmPlanEditor *self)
{
  return !g_queue_is_empty (&self->redo);
}

static gboolean
step (QmPlanEditor *self,
      GQueue       *from,
      GQueue       *to)
{
  g_autofree QmPlan *plan = NULL;
  Flags was;

  save_flags (self, was);
  plan = g_queue_pop_head (from);
  if (plan == NULL)
    return FALSE;

  g_queue_push_head (to, g_memdup2 (&self->plan, sizeof self->plan));
  g_clear_pointer (&self->merge_key, g_free);
  self->dirty = TRUE;
  apply (self, plan);
  notify_flags (self, was);
  return TRUE;
}

gboolean
qm_plan_editor_undo (QmPlanEditor *self)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (self), FALSE);
  return step (self, &self->undo, &self->redo);
}

gboolean
qm_plan_editor_redo (QmPlanEditor *self)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (self), FALSE);
  return step (self, &self->redo, &self->undo);
}

gint64
qm_plan_editor_get_saved_id (QmPlanEditor *self)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (self), 0);
  return self->saved_id;
}

void
qm_plan_editor_mark_saved (QmPlanEditor *self,
                           gint64        id)
{
  Flags was;

  g_return_if_fail (QM_IS_PLAN_EDITOR (self));

  save_flags (self, was);
  self->saved_id = id;
  self->dirty = FALSE;
  notify_flags (self, was);
}

gboolean
qm_plan_editor_get_dirty (QmPlanEditor *self)
{
  g_return_val_if_fail (QM_IS_PLAN_EDITOR (self), FALSE);
  return self->dirty;
}
