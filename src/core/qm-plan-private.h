/* qm-plan-private.h: the plan reader's helpers, for the rows of the plan
 * schema whose reading differs from their type's (qm-plan-schema.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-plan.h"
#include "qm-plan-schema.h"
#include "qm-problem.h"

G_BEGIN_DECLS

#define QM_PLAN_MAX_KEYS 128

struct _QmPlanReader
{
  GPtrArray *warnings;
  char       path[256];
  gboolean   present[QM_PLAN_MAX_KEYS]; /* by row: the file gave the key */
};

const char *qm_plan_reader_path    (QmPlanReader *r,
                                    const char   *prefix,
                                    const char   *key);
gboolean    qm_plan_reader_present (QmPlanReader *r,
                                    const char   *path);
void        qm_plan_reader_warn    (QmPlanReader *r,
                                    const char   *format,
                                    ...) G_GNUC_PRINTF (2, 3);
/* A warning as a problem, with up to three strings for its template,
 * rendered in the current locale. */
void        qm_plan_reader_warn_problem (QmPlanReader  *r,
                                         QmProblemCode  code,
                                         const char    *path,
                                         const char    *s0,
                                         const char    *s1,
                                         const char    *s2);
gboolean    qm_plan_reader_string  (QmPlanReader *r,
                                    JsonObject   *o,
                                    const char   *prefix,
                                    const char   *key,
                                    char         *out,
                                    gsize         size,
                                    GError      **error);
gboolean    qm_plan_reader_object  (QmPlanReader *r,
                                    JsonObject   *o,
                                    const char   *prefix,
                                    const char   *key,
                                    JsonObject  **out,
                                    GError      **error);
/* Sets @error to the problem @problem at @path, with the value @got found
 * when @has_got (NULL is "null"), a string and two numbers for its
 * template (qm-problem.c). Returns FALSE. */
gboolean    qm_plan_fail_problem   (GError       **error,
                                    QmPlanError    code,
                                    QmProblemCode  problem,
                                    const char    *path,
                                    gboolean       has_got,
                                    JsonNode      *got,
                                    const char    *s0,
                                    double         n0,
                                    double         n1);
/* A MISSING error: @problem at @path, with its one string. */
gboolean    qm_plan_fail_missing   (GError       **error,
                                    const char    *path,
                                    QmProblemCode  problem,
                                    const char    *s0);

/* The quote section (qm-plan-quote.c). */
gboolean    qm_plan_quote_has             (const QmPlan    *p);
gboolean    qm_plan_quote_check           (QmPlanReader    *r,
                                           const QmPlanKey *key,
                                           JsonObject      *o,
                                           QmPlan          *p,
                                           GError         **error);
gboolean    qm_plan_quote_read_discounts  (QmPlanReader    *r,
                                           const QmPlanKey *key,
                                           JsonObject      *o,
                                           QmPlan          *p,
                                           GError         **error);
void        qm_plan_quote_write_discounts (JsonBuilder     *b,
                                           const QmPlanKey *key,
                                           const QmPlan    *p);
gboolean    qm_plan_quote_read_lines      (QmPlanReader    *r,
                                           const QmPlanKey *key,
                                           JsonObject      *o,
                                           QmPlan          *p,
                                           GError         **error);
void        qm_plan_quote_write_lines     (JsonBuilder     *b,
                                           const QmPlanKey *key,
                                           const QmPlan    *p);
gboolean    qm_plan_quote_read_phases     (QmPlanReader    *r,
                                           const QmPlanKey *key,
                                           JsonObject      *o,
                                           QmPlan          *p,
                                           GError         **error);
void        qm_plan_quote_write_phases    (JsonBuilder     *b,
                                           const QmPlanKey *key,
                                           const QmPlan    *p);

G_END_DECLS
