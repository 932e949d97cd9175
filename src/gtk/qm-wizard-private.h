/* qm-wizard-private.h: the New Plan wizard's state, shared by its files.
 *
 * qm-wizard.c is the assistant: steps, navigation, composing the plan and
 * its checks. qm-wizard-rows.c holds the row machinery that binds a row to
 * a plan key of the schema; qm-wizard-model.c (goal and model),
 * qm-wizard-setup.c (data and setup) and qm-wizard-facility.c build one
 * or two steps each; the hardware and review steps are widgets of their
 * own, QmWizardHardware and QmWizardReview.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-catalog.h"
#include "qm-parse.h"
#include "qm-plan-editor.h"
#include "qm-plan-schema.h"
#include "qm-wizard.h"
#include "qm-wizard-hardware.h"
#include "qm-wizard-review.h"

G_BEGIN_DECLS

typedef enum
{
  QM_WIZARD_ROW_OPTIONAL = 1 << 0, /* empty means automatic, or no limit */
  QM_WIZARD_ROW_ZERO_OK  = 1 << 1, /* a typed 0 is a real amount (free power), not "none" */
  QM_WIZARD_ROW_PREFILL  = 1 << 2, /* starts with the plan's default (qm_plan_init, Preferences) */
} QmWizardRowFlags;

/* An entry row bound to a plan key. Offset, type, label, help and range
 * come from the key's row in the schema; the wizard adds how people type
 * the value and, where the key sets no upper bound, a limit of its own. */
typedef struct
{
  const char       *key;      /* merge key; widget names "field-KEY", "row-KEY" */
  const char       *path;     /* the plan key, qm_plan_schema_lookup() */
  QmParseKind       kind;     /* "15T", "8 weeks": what people may type */
  QmWizardRowFlags  flags;
  double            max;      /* 0, or at most this even where the key allows more */
  const char       *help;     /* N_(); NULL for the key's own help */
  double            suggest;  /* shown at first where the plan's default is none */
} QmWizardRow;

typedef struct
{
  QmWizard          *self;
  const QmWizardRow *spec;
  const QmPlanKey   *plan_key;
  QmWizardStep       step;
  AdwActionRow      *row;
  GtkEntry          *entry;
  gboolean           touched;
  gboolean           valid;
  gboolean           has_value;
  double             value;
  char              *message;   /* why it is invalid */
} QmWizardField;

/* A choice of a plan key's values, as the combo row lists them. */
typedef struct
{
  const char *id;      /* the value as the plan file writes it: "bf16", "2" */
  const char *label;   /* N_(): the choice and what it means */
} QmWizardChoice;

typedef struct
{
  AdwComboRow          *row;
  const QmPlanKey      *plan_key;
  const QmWizardChoice *choices;
  guint                 n_choices;
} QmWizardCombo;

typedef enum
{
  MODEL_PRESET,
  MODEL_SIZE,
  MODEL_SHAPE,
  N_MODEL_SOURCES
} ModelSource;

#define QM_WIZARD_N_GOALS 5

struct _QmWizard
{
  AdwWindow             parent_instance;

  QmStore              *store;       /* a reference, or NULL */
  QmPlanEditor         *editor;
  GSettings            *settings;
  QmPlan                base;        /* qm_plan_init + Preferences */
  QmWizardStep          step;
  gboolean              building;    /* setting up: no re-estimates, nothing touched */
  gboolean              created;

  QmMode                mode;
  ModelSource           model_source;
  const QmModelPreset  *preset;
  GPtrArray            *fields;      /* QmWizardField */
  GArray               *combos;      /* QmWizardCombo */
  GPtrArray            *offers;      /* const QmCloudOffer *, as in offer_row */
  int                   invalid_step;   /* step of qm_plan_validate's error, or N_STEPS */
  char                 *invalid_message;   /* that error, in words for people */
  const char           *invalid_fields;    /* key_steps[].fields of that error */
  /* Next was pressed on the step while something was missing: from then
   * on it shows every complaint, not only those of fields edited. */
  gboolean              attempted[QM_WIZARD_N_STEPS];
  QmWizardField        *complaint_field;   /* the row showing invalid_message, or NULL */
  gboolean              name_edited;
  guint                 refocus_source;   /* idle: the focus back on a shown field */
  GdkFrameClock        *scroll_clock;     /* a reference while scroll_handler is set */
  gulong                scroll_handler;   /* after-paint: the focus scrolled into view */

  /* Template */
  AdwWindowTitle       *window_title;
  GtkButton            *next_button;
  GtkButton            *back_button;
  GtkButton            *cancel_button;
  GtkBox               *dots;
  GtkStack             *stack;
  AdwPreferencesPage   *pages[QM_WIZARD_N_STEPS];
  AdwPreferencesGroup  *goal_group;
  AdwPreferencesGroup  *model_source_group;
  AdwPreferencesGroup  *model_preset_group;
  AdwPreferencesGroup  *model_size_group;
  AdwPreferencesGroup  *model_shape_group;
  AdwPreferencesGroup  *model_summary_group;
  AdwPreferencesGroup  *data_group;
  AdwPreferencesGroup  *schedule_group;
  AdwPreferencesGroup  *traffic_group;
  AdwPreferencesGroup  *latency_group;
  AdwPreferencesGroup  *setup_group;
  AdwPreferencesGroup  *advanced_group;
  AdwPreferencesGroup  *serve_setup_group;
  QmWizardHardware     *hardware;
  AdwPreferencesGroup  *pricing_group;
  AdwPreferencesGroup  *facility_group;

  /* Built in code */
  GtkWidget            *dot[QM_WIZARD_N_STEPS];
  GtkLabel             *step_message[QM_WIZARD_N_STEPS];
  AdwActionRow         *so_far_row[QM_WIZARD_N_STEPS];
  GtkCheckButton       *goal_check[QM_WIZARD_N_GOALS];
  GtkToggleButton      *source_button[N_MODEL_SOURCES];
  GtkSearchEntry       *preset_search;
  GtkListBox           *preset_list;
  GtkLabel             *total_params_label;
  GtkLabel             *active_params_label;
  GtkLabel             *chinchilla_label;
  AdwActionRow         *active_params_row;
  GtkSwitch            *fixed_gpus_switch;
  AdwActionRow         *fixed_gpus_row;
  AdwComboRow          *confidence_row;  /* a deadline's, in words (issue #36) */
  GtkSwitch            *flash_switch;
  GtkSwitch            *auto_parallel_switch;
  AdwComboRow          *pricing_row;
  AdwComboRow          *offer_row;
};

/* qm-wizard.c */
void            qm_wizard_refresh            (QmWizard            *self,
                                              const char          *merge_key);
void            qm_wizard_update_mode        (QmWizard            *self);
void            qm_wizard_queue_scroll       (QmWizard            *self);

/* qm-wizard-rows.c: words for values */
char           *qm_wizard_format_big         (double               v);
char           *qm_wizard_format_plain       (double               v);
char           *qm_wizard_format_money       (QmWizard            *self,
                                              double               usd);

/* qm-wizard-rows.c: rows bound to plan keys */
void            qm_wizard_add_fields         (QmWizard            *self,
                                              GtkWidget           *parent,
                                              QmWizardStep         step,
                                              const QmWizardRow   *rows,
                                              guint                n_rows);
QmWizardField  *qm_wizard_find_field         (QmWizard            *self,
                                              const char          *key);
void            qm_wizard_field_show         (QmWizardField       *field);
gboolean        qm_wizard_field_active       (QmWizardField       *field);
gboolean        qm_wizard_field_ok           (QmWizardField       *field);
void            qm_wizard_field_free         (gpointer             data);
AdwComboRow    *qm_wizard_add_combo          (QmWizard            *self,
                                              GtkWidget           *parent,
                                              const char          *name,
                                              const char          *path,
                                              const QmWizardChoice *choices,
                                              guint                n_choices);
void            qm_wizard_write_rows         (QmWizard            *self,
                                              QmPlan              *plan);

/* qm-wizard-rows.c: rows of the wizard's own */
void            qm_wizard_row_set_field      (AdwActionRow        *row,
                                              GtkWidget           *widget);
void            qm_wizard_add_row            (GtkWidget           *parent,
                                              GtkWidget           *row);
GtkCheckButton *qm_wizard_add_choice_row     (GtkWidget           *parent,
                                              const char          *name,
                                              const char          *title,
                                              const char          *subtitle,
                                              GtkCheckButton      *leader);
GtkLabel       *qm_wizard_add_value_row      (AdwPreferencesGroup *group,
                                              const char          *title,
                                              const char          *subtitle,
                                              AdwActionRow       **row_out);
GtkSwitch      *qm_wizard_add_switch_row     (GtkWidget           *parent,
                                              const char          *name,
                                              const char          *title,
                                              const char          *subtitle,
                                              gboolean             active,
                                              AdwActionRow       **row_out);
gboolean        qm_wizard_widget_active      (QmWizard            *self,
                                              GtkWidget           *widget);

/* The steps: each builds its rows once, at construction. */
void            qm_wizard_build_goal         (QmWizard            *self);
void            qm_wizard_build_model        (QmWizard            *self);
void            qm_wizard_update_model       (QmWizard            *self);
void            qm_wizard_build_data         (QmWizard            *self);
void            qm_wizard_build_setup        (QmWizard            *self);
void            qm_wizard_show_parallel      (QmWizard            *self,
                                              gboolean             shown);
void            qm_wizard_build_facility     (QmWizard            *self);
void            qm_wizard_update_pricing     (QmWizard            *self);
void            qm_wizard_update_offers      (QmWizard            *self);
void            qm_wizard_compose_offer      (QmWizard            *self,
                                              QmPlan              *plan);

G_END_DECLS
