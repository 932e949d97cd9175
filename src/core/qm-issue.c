/* qm-issue.c: the fixed-size list of input issues.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

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

void
qm_issues_add_bare (QmIssues     *issues,
                    QmIssueLevel  level,
                    const char   *field,
                    const char   *message)
{
  guint before = issues->n;

  qm_issues_add (issues, level, field, message, 0.0);
  if (issues->n > before)
    issues->items[before].value = NAN;
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
  char message[256];

  if (qm_issue_message_complete (issue->message, issue->value, message, sizeof message))
    return g_strdup_printf (_("%s: %s"), issue->field, message);
  /* Translators: an input field name (such as workload.tp), a message, and the value given. */
  return g_strdup_printf (_("%s: %s (got %g)"), issue->field, _(issue->message), issue->value);
}

gboolean
qm_issue_message_complete (const char *message,
                           double      value,
                           char       *buf,
                           gsize       size)
{
  const char *text = _(message);

  if (isnan (value))
    g_strlcpy (buf, text, size);
  else if (strchr (message, '%') != NULL)
    /* The message is a static N_() template with one conversion for the
     * value (its translations are checked as c-format by msgfmt). */
    g_snprintf (buf, size, text, value);
  else
    return FALSE;
  return TRUE;
}
