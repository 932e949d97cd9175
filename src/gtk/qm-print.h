/* qm-print.h: printing a report document with GtkPrintOperation, with
 * the same page drawing as its PDF.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "qm-document.h"

G_BEGIN_DECLS

/* Runs the print dialog (with preview) for @doc, or with @export_path
 * writes the printed pages to that PDF without a dialog (tests). Takes
 * ownership of @doc. */
gboolean qm_print_document (GtkWidget   *parent,
                            QmDocument  *doc,
                            QmPaper      paper,
                            const char  *job_name,
                            const char  *export_path,
                            GError     **error);

/* Print Preview straight away, as the print dialog's Preview button does
 * (tests). Takes ownership of @doc. */
gboolean qm_print_preview_document (GtkWidget   *parent,
                                    QmDocument  *doc,
                                    QmPaper      paper,
                                    const char  *job_name,
                                    GError     **error);

/* Whether Print Preview can show anything: the gtk-print-preview-command
 * program is installed, or a default PDF viewer. @previewer, if not NULL,
 * gets the previewer's program name (or NULL). */
gboolean qm_print_previewer_available (GtkWidget  *parent,
                                       char      **previewer);

G_END_DECLS
