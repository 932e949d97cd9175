/* qm-cli.h: shared declarations of the quartermaster-cli commands.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit status (cli.md). */
#define QM_CLI_OK    0
#define QM_CLI_INPUT 1  /* bad input or a failed operation */
#define QM_CLI_USAGE 2

/* A command gets argv after the command name (argv[0] is the command). */
typedef int (*QmCliCommand) (int argc, char **argv);

int  qm_cli_estimate (int argc, char **argv);

/* One-line error on stderr: "quartermaster-cli: <message>". */
void qm_cli_error    (const char *format, ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
