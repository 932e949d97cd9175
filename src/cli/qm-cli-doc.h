/* qm-cli-doc.h: the command-line reference as Markdown and man pages,
 * printed from the command table (build-aux/qm-cli-doc.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void qm_cli_doc_markdown    (GString    *out);
void qm_cli_doc_man         (GString    *out,
                             const char *version);

/* Pieces for another program's man page (quartermaster.1). */
void qm_cli_doc_man_escape  (GString    *out,
                             const char *text);
void qm_cli_doc_man_header  (GString    *out,
                             const char *name,
                             const char *version,
                             const char *what);
void qm_cli_doc_man_option  (GString    *out,
                             const char *label,
                             const char *help);

G_END_DECLS
