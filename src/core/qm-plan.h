/* qm-plan.h: read and write plan files (docs/plan-file.md).
 *
 * Reading is all or nothing: the file is parsed into a temporary plan and
 * copied out only when every key is valid. Errors name the key path and the
 * value found, e.g. `workload.tokens_b: must be > 0 (got -5)`. Unknown keys
 * are not errors; they are collected as warnings for the caller to show.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "qm-workload.h"

G_BEGIN_DECLS

#define QM_PLAN_FORMAT  "quartermaster-plan"
#define QM_PLAN_VERSION 1
/* The largest plan file read, from a file, standard input, a paste, an
 * import or the store: the largest example is 6 KB, and one with a
 * lengths list of 100,000 requests about 2 MB, so 16 MB is no real plan's
 * limit, while a 200 MB file took 1.7 GB to parse (issue #33 item 5). */
#define QM_PLAN_MAX_BYTES (16 * 1024 * 1024)

#define QM_PLAN_ERROR (qm_plan_error_quark ())

typedef enum
{
  QM_PLAN_ERROR_PARSE,      /* not JSON, or not an object */
  QM_PLAN_ERROR_FORMAT,     /* unknown format, or a newer version */
  QM_PLAN_ERROR_MISSING,    /* a required key is absent */
  QM_PLAN_ERROR_INVALID,    /* a value has the wrong type or range */
  QM_PLAN_ERROR_UNKNOWN_ID, /* a catalog id that is not in the catalog */
} QmPlanError;

GQuark   qm_plan_error_quark  (void);

/* @warnings, if not NULL, receives a new GPtrArray of strings (one per
 * unknown key, e.g. "workload.foo: unknown key, ignored"); it is set even
 * when there are none. On error @plan is left untouched. */
gboolean qm_plan_load_from_data (QmPlan       *plan,
                                 const char   *data,
                                 gssize        length,
                                 GPtrArray   **warnings,
                                 GError      **error);
gboolean qm_plan_load_from_file (QmPlan       *plan,
                                 const char   *path,
                                 GPtrArray   **warnings,
                                 GError      **error);

/* Check a plan built in code (the UI) with the same rules as the reader. */
gboolean qm_plan_validate       (const QmPlan *plan,
                                 GError      **error);

/* Serialise; the result reads back to an equal plan. */
char    *qm_plan_to_data        (const QmPlan *plan,
                                 gsize        *length);
gboolean qm_plan_save_to_file   (const QmPlan *plan,
                                 const char   *path,
                                 GError      **error);

/* Whether @a and @b are the same plan as a person sees it: every key of
 * the plan schema, the resolved model shape and hardware entries, and the
 * quote's discounts and phases (qm-plan-equal.c). Strings compare up to
 * their NUL, numbers by value: -0.0 equals 0.0 and NaN equals NaN. Padding
 * and bytes after a string's NUL never count, unlike a memcmp. */
gboolean qm_plan_equal          (const QmPlan *a,
                                 const QmPlan *b);

G_END_DECLS
