/* qm-problem.h: a refused plan value as data (issue #24).
 *
 * The plan reader and qm_plan_validate() describe what is wrong as a key
 * path, a code and the values involved, as estimate notes do; the text is
 * made where it is shown (the plan view, the PDF, the CLI), in the user's
 * language, and --json prints the code and values instead of prose. The
 * GError a reader returns carries its problem (qm_plan_error_get_problem),
 * and its message is the problem rendered: "target.gpus: must be a multiple
 * of tp·pp·cp = 32 (got 2047)" in the C locale, as before.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "qm-plan.h"

G_BEGIN_DECLS

/* One code per rule. Each has a stable id (qm_problem_code_id) and a
 * message template taking the problem's strings, then its numbers. */
typedef enum
{
  QM_PROBLEM_NONE,
  /* the file as a whole */
  QM_PROBLEM_NOT_JSON,
  QM_PROBLEM_TOO_LARGE,
  QM_PROBLEM_NOT_OBJECT,
  QM_PROBLEM_NOT_A_PLAN,
  QM_PROBLEM_BAD_VERSION,
  QM_PROBLEM_NEWER_VERSION,
  /* absent keys */
  QM_PROBLEM_MISSING,
  QM_PROBLEM_MISSING_FOR_MODE,
  QM_PROBLEM_MISSING_ENUM,
  QM_PROBLEM_MISSING_HARDWARE,
  QM_PROBLEM_MISSING_MODEL,
  QM_PROBLEM_MISSING_SHAPE,
  QM_PROBLEM_TARGET_ONE_OF,
  /* values of the wrong type */
  QM_PROBLEM_NOT_NUMBER,
  QM_PROBLEM_NOT_WHOLE,
  QM_PROBLEM_NOT_WHOLE_IN_RANGE,
  QM_PROBLEM_NOT_FINITE,
  QM_PROBLEM_HUGE_NUMBER,
  QM_PROBLEM_NOT_COUNT_OR_AUTO,
  QM_PROBLEM_NOT_BOOL,
  QM_PROBLEM_NOT_STRING,
  QM_PROBLEM_NOT_SECTION,
  QM_PROBLEM_TOO_LONG,
  QM_PROBLEM_UNSAFE_TEXT,
  QM_PROBLEM_BAD_ENUM,
  /* ids */
  QM_PROBLEM_UNKNOWN_PRESET,
  QM_PROBLEM_UNKNOWN_HARDWARE,
  QM_PROBLEM_UNKNOWN_OFFER,
  QM_PROBLEM_UNKNOWN_FAILURE_PRESET,
  QM_PROBLEM_BAD_SPEC,
  /* ranges */
  QM_PROBLEM_OUT_OF_RANGE,
  QM_PROBLEM_OUT_OF_RANGE_OR_AUTO,
  QM_PROBLEM_AT_LEAST,
  QM_PROBLEM_POSITIVE,
  QM_PROBLEM_AT_MOST,
  QM_PROBLEM_PARAMS_RANGE,
  QM_PROBLEM_TOKENS_MAX,
  QM_PROBLEM_DEADLINE_RANGE,
  /* rules that relate two keys */
  QM_PROBLEM_HEADS_RANGE,
  QM_PROBLEM_HEADS_DIVIDE,
  QM_PROBLEM_KV_HEADS_DIVIDE,
  QM_PROBLEM_EXPERTS_PER_TOKEN,
  QM_PROBLEM_DENSE_LAYERS,
  QM_PROBLEM_MLA_ABSURD,
  QM_PROBLEM_MICRO_BATCH,
  QM_PROBLEM_LORA_RANK,
  QM_PROBLEM_FP8_WEIGHTS,
  QM_PROBLEM_SERVER_GPUS,
  QM_PROBLEM_TP_NODE,
  QM_PROBLEM_TP_HEADS,
  QM_PROBLEM_PP_LAYERS,
  QM_PROBLEM_EP_EXPERTS,
  QM_PROBLEM_NOT_A_MULTIPLE,
  QM_PROBLEM_NO_PEAK,
  QM_PROBLEM_SERVING_TOKENS,
  QM_PROBLEM_GPU_MEMORY,
  /* the quote section */
  QM_PROBLEM_BAD_CURRENCY,
  QM_PROBLEM_FRACTION,
  QM_PROBLEM_CATALOG_ID,
  QM_PROBLEM_TOO_MANY_ITEMS,
  QM_PROBLEM_NOT_FRACTION_LIST,
  QM_PROBLEM_TOO_MANY_PHASES,
  QM_PROBLEM_PHASE_FRACTION,
  QM_PROBLEM_PHASES_SUM,
  /* warnings */
  QM_PROBLEM_UNKNOWN_KEY,
  QM_PROBLEM_SERVER_HOLDS_OTHER_GPU,
  QM_PROBLEM_OFFER_RENTS_OTHER_GPU,
  /* a message made by a caller that has no code of its own yet */
  QM_PROBLEM_OTHER,
  QM_N_PROBLEMS
} QmProblemCode;

/* What the file (or the form) held, when the problem names it. */
typedef enum
{
  QM_PROBLEM_GOT_NONE,
  QM_PROBLEM_GOT_NUMBER,   /* got_number, printed with %g */
  QM_PROBLEM_GOT_INTEGER,  /* got_integer, a JSON integer */
  QM_PROBLEM_GOT_BOOL,
  QM_PROBLEM_GOT_STRING,   /* got_text: cut to 60 characters, escapes shown */
  QM_PROBLEM_GOT_NULL,
  QM_PROBLEM_GOT_OBJECT,
  QM_PROBLEM_GOT_ARRAY,
} QmProblemGot;

#define QM_PROBLEM_N_STRINGS 3
#define QM_PROBLEM_N_NUMBERS 2

/* A plain value: copied, never freed. */
typedef struct
{
  QmProblemCode code;
  char          path[128];  /* the key path, e.g. "target.gpus"; "" for the file */
  char          strings[QM_PROBLEM_N_STRINGS][256];
  double        numbers[QM_PROBLEM_N_NUMBERS];
  QmProblemGot  got;
  double        got_number;
  gint64        got_integer;
  char          got_text[256];
} QmProblem;

void        qm_problem_init          (QmProblem     *problem,
                                      QmProblemCode  code,
                                      const char    *path);
/* The problem's strings and numbers, in the order of its template. */
void        qm_problem_set_string    (QmProblem     *problem,
                                      guint          i,
                                      const char    *s);
void        qm_problem_set_number    (QmProblem     *problem,
                                      guint          i,
                                      double         v);
void        qm_problem_set_got_number (QmProblem    *problem,
                                       double        v);
/* The JSON value found in a file; NULL is "null". */
void        qm_problem_set_got_node  (QmProblem     *problem,
                                      JsonNode      *node);

/* "out-of-range", "not-a-multiple", …: stable, for scripts. */
const char *qm_problem_code_id       (QmProblemCode  code);
/* The message in the current locale, without the path: "must be a
 * multiple of tp·pp·cp = 32 (got 2047)". */
char       *qm_problem_message       (const QmProblem *problem);
/* The path and the message, "target.gpus: must be …": the GError text. */
char       *qm_problem_to_string     (const QmProblem *problem);
/* The problem's values for --json: "key" (its key path, when it has one),
 * its named strings and numbers, and "got" (what the file held). */
JsonNode   *qm_problem_values_json   (const QmProblem *problem);

/* Sets @error in QM_PLAN_ERROR with @code, the message rendered from
 * @problem and a copy of @problem. Returns FALSE, for a reader to return. */
gboolean    qm_problem_set_error     (GError         **error,
                                      QmPlanError      code,
                                      const QmProblem *problem);
/* The problem a QM_PLAN_ERROR carries; NULL for another error, or one set
 * by a caller without a problem. */
const QmProblem *qm_plan_error_get_problem (const GError *error);

G_END_DECLS
