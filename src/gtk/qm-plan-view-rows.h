/* qm-plan-view-rows.h: the editable rows of the plan view's side panel
 * (qm-plan-view-rows.c says what each row shows, qm-plan-view-inputs.c
 * builds and syncs the widgets, qm-plan-view-lists.c the catalog lists).
 *
 * A row names a key of the plan schema; the key's type, offset, unit,
 * label, help and enum names give its widget and its value, so a row needs
 * a callback only where it behaves unlike its key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-plan-schema.h"
#include "qm-plan-view-private.h"

G_BEGIN_DECLS

typedef enum
{
  QM_PLAN_VIEW_GROUP_MODEL,
  QM_PLAN_VIEW_GROUP_SHAPE,       /* the expander row inside the model group */
  QM_PLAN_VIEW_GROUP_SCHEDULE,
  QM_PLAN_VIEW_GROUP_SERVING,
  QM_PLAN_VIEW_GROUP_TRAINING,
  QM_PLAN_VIEW_GROUP_HARDWARE,
  QM_PLAN_VIEW_GROUP_FACILITY,
  QM_PLAN_VIEW_GROUP_PRICING,
  QM_PLAN_VIEW_GROUP_RELIABILITY,
  QM_PLAN_VIEW_GROUP_QUOTE,       /* the quote's terms, on the Quote section */
  QM_PLAN_VIEW_N_GROUPS
} QmPlanViewGroup;

typedef enum
{
  QM_PLAN_VIEW_ROW_FROM_KEY,      /* numbers spin, enums and ids choose, bools switch */
  QM_PLAN_VIEW_ROW_NUMBER,
  QM_PLAN_VIEW_ROW_CHOICE,
  QM_PLAN_VIEW_ROW_SWITCH,
  QM_PLAN_VIEW_ROW_TEXT,
} QmPlanViewRowKind;

typedef struct _QmPlanViewRow QmPlanViewRow;

/* One row's widgets and state. */
struct _QmPlanViewInput
{
  const QmPlanViewRow *info;
  const QmPlanKey     *key;         /* the schema row of info->path */
  QmPlanViewRowKind    kind;        /* never FROM_KEY */
  QmPlanView          *view;
  GtkWidget           *row;
  GtkWidget           *control;     /* GtkSpinButton, AdwComboRow, GtkSwitch, AdwEntryRow */
  GtkWidget           *error_icon;
  GtkWidget           *unit;        /* the key's unit after a spin button, or NULL */
  GPtrArray           *shown;       /* choice ids in the combo, in order */
  gboolean             in_error;
};

/* The value shown; the estimate supplies what "auto" resolved to. */
typedef double      (*QmPlanViewGetFunc)     (QmPlanViewInput  *in,
                                              const QmPlan     *p,
                                              const QmEstimate *e);
/* Writes @v into @p; returns NULL, or why @v is refused (N_(), static). */
typedef const char *(*QmPlanViewSetFunc)     (QmPlanViewInput  *in,
                                              QmPlan           *p,
                                              double            v,
                                              const QmEstimate *e);
typedef const char *(*QmPlanViewGetIdFunc)   (QmPlanViewInput  *in,
                                              const QmPlan     *p,
                                              const QmEstimate *e);
typedef const char *(*QmPlanViewSetIdFunc)   (QmPlanViewInput  *in,
                                              QmPlan           *p,
                                              const char       *id,
                                              const QmEstimate *e);
/* After a choice is set: pulls other keys along; NULL or why refused. */
typedef const char *(*QmPlanViewAfterFunc)   (QmPlanViewInput  *in,
                                              QmPlan           *p);
/* Fills @out (QmPlanViewChoice) with what the combo offers for @p. */
typedef void        (*QmPlanViewChoicesFunc) (QmPlanViewInput  *in,
                                              const QmPlan     *p,
                                              GPtrArray        *out);
typedef gboolean    (*QmPlanViewPredicate)   (const QmPlan     *p);

struct _QmPlanViewRow
{
  const char            *key;        /* merge key and lookup name */
  const char            *path;       /* the schema key: value, label, help, unit, errors */
  QmPlanViewGroup        group;
  QmPlanViewRowKind      kind;
  double                 step;       /* spin rows: 0 means 1 */
  guint                  digits;
  const char            *title;      /* N_() with a mnemonic; NULL: the key's label */
  const char            *hint;       /* N_(); NULL: the key's help */
  const char *const     *labels;     /* choice rows: id, N_(label) pairs, NULL-ended */
  gssize                 resolved;   /* an "auto" key shows this guint of QmEstimate; 0: none */
  QmPlanViewGetFunc      get;        /* NULL: the generic ones below */
  QmPlanViewSetFunc      set;
  QmPlanViewGetIdFunc    get_id;
  QmPlanViewSetIdFunc    set_id;
  QmPlanViewAfterFunc    after_set;
  QmPlanViewChoicesFunc  choices;
  QmPlanViewPredicate    visible;    /* NULL: in the key's modes */
  QmPlanViewPredicate    sensitive;
};

/* qm-plan-view-rows.c */
const QmPlanViewRow *qm_plan_view_rows                (guint            *n_rows);
double               qm_plan_view_row_get             (QmPlanViewInput  *in,
                                                       const QmPlan     *p,
                                                       const QmEstimate *e);
const char          *qm_plan_view_row_set             (QmPlanViewInput  *in,
                                                       QmPlan           *p,
                                                       double            v,
                                                       const QmEstimate *e);
const char          *qm_plan_view_row_get_id          (QmPlanViewInput  *in,
                                                       const QmPlan     *p,
                                                       const QmEstimate *e);
const char          *qm_plan_view_row_set_id          (QmPlanViewInput  *in,
                                                       QmPlan           *p,
                                                       const char       *id,
                                                       const QmEstimate *e);
void                 qm_plan_view_row_choices         (QmPlanViewInput  *in,
                                                       const QmPlan     *p,
                                                       GPtrArray        *out);
gboolean             qm_plan_view_row_visible         (QmPlanViewInput  *in,
                                                       const QmPlan     *p);

/* qm-plan-view-lists.c */
void                 qm_plan_view_lists_load          (QmPlanView       *self);
void                 qm_plan_view_lists_clear         (QmPlanView       *self);
GPtrArray           *qm_plan_view_choices_new         (void);
void                 qm_plan_view_add_choice          (GPtrArray        *choices,
                                                       const char       *id,
                                                       const char       *label);
/* The catalog entries of @kind; servers and offers only those holding
 * @gpu_id (when not NULL). The plan's own @current entry stays listed. */
void                 qm_plan_view_choices_from_list   (QmPlanView       *self,
                                                       QmCatalogKind     kind,
                                                       const char       *gpu_id,
                                                       const char       *current,
                                                       GPtrArray        *out);
/* The first catalog server holding the plan's GPU, resolved into @p. */
gboolean             qm_plan_view_pick_server         (QmPlanView       *self,
                                                       QmPlan           *p);

G_END_DECLS
