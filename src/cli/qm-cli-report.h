/* qm-cli-report.h: the document commands of quartermaster-cli: report,
 * chart and compare (docs/cli.md), and their atomic file output.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int      qm_cli_report       (int argc, char **argv);
int      qm_cli_chart        (int argc, char **argv);
int      qm_cli_compare      (int argc, char **argv);

/* Writes @target through a temporary file beside it, renamed over the
 * target only when @write succeeded: a failed write never leaves half a
 * file. The temporary name keeps @target's extension, for writers that
 * choose the format by it. */
typedef gboolean (*QmCliWriteFunc) (const char  *path,
                                    gpointer     user_data,
                                    GError     **error);

gboolean qm_cli_write_atomic (const char      *target,
                              QmCliWriteFunc   write,
                              gpointer         user_data,
                              GError         **error);

/* "-o -" is standard output. The format is then --format, else the first
 * of @formats; *resolved becomes QM_CLI_STDOUT followed by it ("\x01-.pdf"),
 * a name whose extension every writer and check reads as a file's, and
 * qm_cli_write_atomic () sends to standard output. A file is *resolved as
 * it is; --format with it is a usage error. Prints usage errors. */
#define QM_CLI_STDOUT "\x01-."
gboolean qm_cli_output_resolve (const char         *command,
                                const char         *out,
                                const char         *format,
                                const char * const *formats,
                                char              **resolved);

G_END_DECLS
