/* qm-plan-schema.h: every plan key, declared once (docs/plan-file.md).
 *
 * One static table holds each key of a plan file: its path, type, unit,
 * range, what "auto" or absence means, label and help, and the modes it
 * applies in. The reader, the range checks, the writer and the reference in
 * docs/plan-format.md loop over it; a new key is one row plus the formula
 * that uses it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-catalog-json.h"
#include "qm-workload.h"

G_BEGIN_DECLS

typedef enum
{
  QM_PLAN_KEY_NUMBER,   /* double */
  QM_PLAN_KEY_INTEGER,  /* guint */
  QM_PLAN_KEY_ENUM,     /* a string naming an enum value */
  QM_PLAN_KEY_BOOL,
  QM_PLAN_KEY_STRING,   /* free text in a fixed buffer */
  QM_PLAN_KEY_ID,       /* an id into the catalog kind of the row */
  QM_PLAN_KEY_SPEC,     /* an embedded catalog entry of the row's kind */
  QM_PLAN_KEY_OBJECT,   /* a section holding the rows below its path */
} QmPlanKeyType;

typedef enum
{
  QM_PLAN_KEY_REQUIRED      = 1 << 0, /* absent is an error (in the row's modes) */
  QM_PLAN_KEY_AUTO          = 1 << 1, /* "auto" (or absent) stores 0 */
  QM_PLAN_KEY_OPTIONAL      = 1 << 2, /* written only when not 0 / "" / false */
  QM_PLAN_KEY_SHAPE         = 1 << 3, /* a model shape field: written and checked with a shape */
  QM_PLAN_KEY_MULTILINE     = 1 << 4, /* text that may hold line breaks and tabs */
  QM_PLAN_KEY_MIN_EXCLUSIVE = 1 << 5, /* the range's minimum is not allowed */
  QM_PLAN_KEY_AT_LEAST_ONE  = 1 << 6, /* written as at least 1 (0 means 1) */
} QmPlanKeyFlags;

/* Bits of QmMode. */
#define QM_PLAN_MODE(m)        (1u << (m))
#define QM_PLAN_MODES_TRAINING (QM_PLAN_MODE (QM_MODE_PRETRAIN) | QM_PLAN_MODE (QM_MODE_FINETUNE) | \
                                QM_PLAN_MODE (QM_MODE_LORA) | QM_PLAN_MODE (QM_MODE_QLORA))
#define QM_PLAN_MODES_SERVING  QM_PLAN_MODE (QM_MODE_INFERENCE)
#define QM_PLAN_MODES_ALL      (QM_PLAN_MODES_TRAINING | QM_PLAN_MODES_SERVING)

typedef struct _QmPlanKey    QmPlanKey;
typedef struct _QmPlanReader QmPlanReader;

/* Where a row differs from its type's way, it says so in a callback. */
typedef gboolean (*QmPlanKeyReadFunc)  (QmPlanReader    *r,
                                        const QmPlanKey *key,
                                        JsonObject      *o,
                                        QmPlan          *plan,
                                        GError         **error);
typedef void     (*QmPlanKeyWriteFunc) (JsonBuilder     *b,
                                        const QmPlanKey *key,
                                        const QmPlan    *plan);
typedef gboolean (*QmPlanKeyTestFunc)  (const QmPlan    *plan);
typedef const char *(*QmEnumToString)  (int value);
typedef gboolean (*QmEnumFromString)   (const char *s,
                                        int        *out);

struct _QmPlanKey
{
  const char        *path;       /* "workload.model.layers" */
  QmPlanKeyType      type;
  QmPlanKeyFlags     flags;
  gssize             offset;     /* of the value in QmPlan; -1 for none */
  gsize              size;       /* STRING and ID: the buffer's size */
  QmCatalogKind      kind;       /* ID and SPEC */
  QmEnumToString     to_string;  /* ENUM */
  QmEnumFromString   from_string;
  const char        *choices;    /* ENUM: "a, b, c", in messages and docs */
  double             scale;      /* stored = written × scale; 0 means 1 */
  double             min, max;   /* checked when range is set */
  const char        *range;      /* N_(), the check's message: "must be from 1 to 1000" */
  const char        *unit;
  const char        *auto_rule;  /* what "auto" or absence means (docs) */
  guint              modes;      /* QM_PLAN_MODE bits the key applies in */
  const char        *label;      /* N_(), shown in forms */
  const char        *help;       /* N_() */
  QmPlanKeyReadFunc  read;       /* instead of the type's reader */
  QmPlanKeyReadFunc  after_read; /* after it: resolve ids, cross-key rules */
  QmPlanKeyTestFunc  written;    /* NULL: by the flags */
  QmPlanKeyWriteFunc write;      /* instead of the type's writer */
};

const QmPlanKey *qm_plan_schema_keys   (guint           *n_keys);
const QmPlanKey *qm_plan_schema_lookup (const char      *path);
/* The index of the section row holding row @i, or -1 at the top level. */
int              qm_plan_schema_parent (guint            i);
const char      *qm_plan_key_name      (const QmPlanKey *key);
const char      *qm_plan_key_type_name (const QmPlanKey *key);

/* The value of @key in @plan as the writer writes it, e.g. "1.25", "auto",
 * "bf16", "\"USD\""; NULL for a section. */
char            *qm_plan_key_format    (const QmPlanKey *key,
                                        const QmPlan    *plan);

/* Wizard (issue #21): a NUMBER, INTEGER, ENUM or BOOL value of @plan as a
 * double, and back, so a form row can bind to a key by its path alone. */
double           qm_plan_key_get_value (const QmPlanKey *key,
                                        const QmPlan    *plan);
void             qm_plan_key_set_value (const QmPlanKey *key,
                                        QmPlan          *plan,
                                        double           value);

/* ------------------------------------------------------------------ */
/* Value accessors for forms and reports (task planview, issue #21)   */

/* NUMBER, INTEGER, ENUM and BOOL: the value as written (stored / scale). */
double           qm_plan_key_get_number (const QmPlanKey *key,
                                         const QmPlan    *plan);
/* Stores @v (as written: times the scale); refuses a fraction or a
 * negative value for an INTEGER. */
gboolean         qm_plan_key_set_number (const QmPlanKey *key,
                                         QmPlan          *plan,
                                         double           v);
/* ENUM, STRING and ID: the value as the plan file writes it (not quoted);
 * INTEGER: its decimal digits, in a static buffer. */
const char      *qm_plan_key_get_string (const QmPlanKey *key,
                                         const QmPlan    *plan);
/* ENUM (through from_string), STRING, ID and INTEGER; FALSE when @s is not
 * one of the key's values or does not fit. */
gboolean         qm_plan_key_set_string (const QmPlanKey *key,
                                         QmPlan          *plan,
                                         const char      *s);
/* hardware.gpu/server/network/storage: where the plan keeps the resolved
 * catalog entry and whether it was embedded; NULL for other keys. */
gpointer         qm_plan_key_spec       (const QmPlanKey *key,
                                         QmPlan          *plan,
                                         gboolean       **embedded);
/* The row a qm_plan_validate() error names (its problem's path, or for an
 * error set without a problem the path its message starts with, before
 * ": "), with @detail set to the rest of the message; NULL when it names
 * none. New code reads qm_plan_error_get_problem () instead. */
const QmPlanKey *qm_plan_schema_error_key (const GError *error,
                                           const char  **detail);
/* The key's unit as a person reads it: translated, and amounts in the
 * plan's currency ("EUR/kWh" for "USD/kWh"); NULL when it has none. */
char            *qm_plan_key_unit_label   (const QmPlanKey *key,
                                           const QmPlan    *plan);

G_END_DECLS
