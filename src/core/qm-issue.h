/* qm-issue.h: bad or doubtful input, named by its docs/plan-file.md key path.
 *
 * A fixed-size list that the cluster, power, cost, reliability and
 * inference results carry, so that a whole estimate stays allocation-free.
 * The field and message are static strings; qm_estimate() turns the issues
 * into estimate warnings without copying them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  QM_ISSUE_WARNING,  /* the result is usable but rests on a guess */
  QM_ISSUE_ERROR,    /* the input is invalid; outputs are finite stand-ins */
} QmIssueLevel;

typedef struct
{
  QmIssueLevel level;
  const char  *field;    /* static key path, e.g. "facility.pue" */
  const char  *message;  /* static and marked N_(), e.g. "must be >= 1" */
  double       value;    /* the offending value (NaN is reported as 0), or
                          * NaN from qm_issues_add_bare(): none to show */
} QmIssue;

#define QM_ISSUES_MAX 16

typedef struct
{
  guint   n;
  QmIssue items[QM_ISSUES_MAX];
} QmIssues;

void      qm_issues_clear     (QmIssues     *issues);
void      qm_issues_add       (QmIssues     *issues,
                               QmIssueLevel  level,
                               const char   *field,
                               const char   *message,
                               double        value);
/* An issue with no value to show, such as a file that cannot be read. */
void      qm_issues_add_bare  (QmIssues     *issues,
                               QmIssueLevel  level,
                               const char   *field,
                               const char   *message);
gboolean  qm_issues_has_error (const QmIssues *issues);
/* Find the first issue on @field, or NULL. */
const QmIssue *qm_issues_find (const QmIssues *issues,
                               const char     *field);
/* "facility.pue: must be >= 1 (got 0.9)". Allocates: for the UI/CLI edge. */
char     *qm_issue_to_string  (const QmIssue *issue);
/* The translated @message into @buf when it says all there is: it has no
 * value (NaN), or the value stands in it ("line %.0f is not ..."); FALSE
 * when the value is to follow as "(got V)". */
gboolean  qm_issue_message_complete (const char *message,
                                     double      value,
                                     char       *buf,
                                     gsize       size);

G_END_DECLS
