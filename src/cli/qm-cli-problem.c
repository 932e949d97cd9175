/* qm-cli-problem.c: a plan that cannot be read, said on stderr as a line
 * in the user's language or, with --json, as its problem's code and values.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>

#include "qm-cli.h"
#include "qm-cli-problem.h"
#include "qm-problem.h"

gboolean qm_cli_problem_json = FALSE;

static void
print_json (const char   *file,
            const GError *error)
{
  const QmProblem *problem = qm_plan_error_get_problem (error);
  g_autoptr(JsonBuilder) b = json_builder_new_immutable ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, file);
  if (problem != NULL)
    qm_problem_add_json (problem, b);
  else
    {
      json_builder_set_member_name (b, "path");
      json_builder_add_string_value (b, "");
      json_builder_set_member_name (b, "code");
      json_builder_add_string_value (b, error->domain == G_FILE_ERROR ? "file-error" : "error");
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, error->message);
      json_builder_set_member_name (b, "values");
      json_builder_begin_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  /* One line, as every error of the CLI is (cli.md): a script reads
   * stderr line by line. */
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fprintf (stderr, "%s\n", text);
}

void
qm_cli_print_problem (const char   *file,
                      const GError *error)
{
  g_return_if_fail (error != NULL);

  if (qm_cli_problem_json)
    print_json (file, error);
  else
    /* The reader rendered the message in the user's language. */
    qm_cli_error ("%s: %s", file, error->message);
}
