/* qm-cli-fail.c: how quartermaster-cli reports an error. For people, one
 * line on stderr (qm_cli_error ()); with --json, one JSON object per error
 * on stderr, so that a script reads the code and the values instead of
 * parsing prose:
 *
 *   {"format_version":1,"error":{"path":"a.qmplan","code":"not-found",
 *    "message":"...","values":{}}}
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-csv.h"
#include "qm-plan.h"
#include "qm-problem.h"

gboolean qm_cli_json_output = FALSE;

/* One object on one line: stderr may carry several (one per bad row). */
static void
put_object (const char  *kind,
            const char  *path,
            const char  *code,
            const char  *message,
            JsonNode    *values)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format_version");
  json_builder_add_int_value (b, QM_CLI_FORMAT_VERSION);
  json_builder_set_member_name (b, kind);
  json_builder_begin_object (b);
  qm_cli_json_string (b, "path", path);
  json_builder_set_member_name (b, "code");
  json_builder_add_string_value (b, code);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, message);
  json_builder_set_member_name (b, "values");
  if (values != NULL)
    json_builder_add_value (b, json_node_copy (values));
  else
    {
      json_builder_begin_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fprintf (stderr, "%s\n", text);
}

void
qm_cli_fail_json (const char *path,
                  const char *code,
                  const char *message,
                  JsonNode   *values)
{
  put_object ("error", path, code, message, values);
}

static void
fail_valist (const char *path,
             const char *code,
             const char *format,
             va_list     args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  if (qm_cli_json_output)
    qm_cli_fail_json (path, code, message, NULL);
  else if (path != NULL)
    qm_cli_error ("%s: %s", qm_cli_arg_label (path), message);
  else
    qm_cli_error ("%s", message);
}

void
qm_cli_fail (const char *path,
             const char *code,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  fail_valist (path, code, format, args);
  va_end (args);
}

void
qm_cli_warn (const char *path,
             const char *message)
{
  if (qm_cli_json_output)
    put_object ("warning", path, "warning", message, NULL);
  else
    /* Translators: "FILE: warning: MESSAGE" on the terminal. */
    qm_cli_error (_("%s: warning: %s"), qm_cli_arg_label (path), message);
}

const char *
qm_cli_error_code (const GError *error)
{
  static const struct
  {
    GQuark (*domain) (void);
    int         code;      /* -1: any other code of the domain */
    const char *name;
  } codes[] = {
    { g_file_error_quark, G_FILE_ERROR_NOENT, QM_CLI_CODE_NOT_FOUND },
    { g_file_error_quark, -1, QM_CLI_CODE_IO },
    { g_io_error_quark, G_IO_ERROR_NOT_FOUND, QM_CLI_CODE_NOT_FOUND },
    { g_io_error_quark, -1, QM_CLI_CODE_IO },
    { qm_store_error_quark, QM_STORE_ERROR_LOCKED, "store-locked" },
    { qm_store_error_quark, QM_STORE_ERROR_NOT_FOUND, QM_CLI_CODE_NOT_FOUND },
    { qm_store_error_quark, QM_STORE_ERROR_TOO_NEW, "store-too-new" },
    { qm_store_error_quark, QM_STORE_ERROR_CORRUPT, "store-corrupt" },
    { qm_store_error_quark, QM_STORE_ERROR_READ_ONLY, "store-read-only" },
    { qm_store_error_quark, QM_STORE_ERROR_FULL, "disk-full" },
    { qm_store_error_quark, QM_STORE_ERROR_INVALID, QM_CLI_CODE_INVALID },
    { qm_store_error_quark, -1, "store" },
    { qm_plan_error_quark, QM_PLAN_ERROR_PARSE, "plan-syntax" },
    { qm_plan_error_quark, QM_PLAN_ERROR_FORMAT, "plan-format" },
    { qm_plan_error_quark, QM_PLAN_ERROR_MISSING, "plan-missing-key" },
    { qm_plan_error_quark, QM_PLAN_ERROR_UNKNOWN_ID, "plan-unknown-id" },
    { qm_plan_error_quark, -1, QM_CLI_CODE_INVALID },
    { qm_csv_error_quark, -1, "csv-syntax" },
  };

  if (error == NULL)
    return QM_CLI_CODE_FAILED;
  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    if (error->domain == codes[i].domain () && (codes[i].code < 0 || error->code == codes[i].code))
      return codes[i].name;
  return QM_CLI_CODE_FAILED;
}

void
qm_cli_fail_error (const char   *path,
                   const GError *error)
{
  qm_cli_fail (path, qm_cli_error_code (error), "%s", error->message);
}

void
qm_cli_plan_error (const char   *arg,
                   const GError *error)
{
  const QmProblem *problem = qm_plan_error_get_problem (error);

  /* A refused value (issue #24): its code and values, the key path among
   * them, for scripts; the message as people read it, translated. */
  if (problem != NULL && qm_cli_json_output)
    {
      g_autoptr(JsonNode) values = qm_problem_values_json (problem);

      qm_cli_fail_json (arg, qm_problem_code_id (problem->code), error->message, values);
      return;
    }
  qm_cli_fail_error (arg, error);
}
