/* qm-issue.c: the fixed-size list of input issues.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "qm-issue.h"

void
qm_issues_clear (QmIssues *issues)
{
  issues->n = 0;
}

void
qm_issues_add (QmIssues     *issues,
               QmIssueLevel  level,
               const char   *field,
               const char   *message,
               double        value)
{
  QmIssue *issue;

  if (issues->n >= QM_ISSUES_MAX)
    return;

  issue = &issues->items[issues->n++];
  issue->level = level;
  issue->field = field;
  issue->message = message;
  issue->value = isfinite (value) ? value : 0.0;
}

gboolean
qm_issues_has_error (const QmIssues *issues)
{
  for (guint i = 0; i < issues->n; i++)
    if (issues->items[i].level == QM_ISSUE_ERROR)
      return TRUE;
  return FALSE;
}

const QmIssue *
qm_issues_find (const QmIssues *issues,
                const char     *field)
{
  for (guint i = 0; i < issues->n; i++)
    if (g_strcmp0 (issues->items[i].field, field) == 0)
      return &issues->items[i];
  return NULL;
}

char *
qm_issue_to_string (const QmIssue *issue)
{
  /* Translators: an input field name (such as workload.tp), a message, and the value given. */
  return g_strdup_printf (_("%s: %s (got %g)"), issue->field, _(issue->message), issue->value);
}
