/* qm-cli-problem.h: a plan that cannot be read, said on stderr (issue #24).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether errors go out as JSON: set when the command line holds --json
 * (main.c), so a script that asked for JSON never parses prose. */
extern gboolean qm_cli_problem_json;

/* Says why @file (a plan file or a saved plan's name) cannot be read.
 * As text, one line in the user's language: "quartermaster-cli: FILE:
 * path: message". With --json, on stderr, on one line:
 * {"error": {"file", "path", "code", "message", "values": {…}}}, where code
 * and values come from the error's problem (qm-problem.h); an error without
 * one (a missing file) has code "file-error" or "error" and no values. */
void qm_cli_print_problem (const char   *file,
                           const GError *error);

G_END_DECLS
