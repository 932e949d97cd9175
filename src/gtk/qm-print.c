/* qm-print.c: printing a report document with GtkPrintOperation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-print.h"

static void
on_begin_print (GtkPrintOperation *op,
                GtkPrintContext   *context,
                QmDocument        *doc)
{
  gtk_print_operation_set_n_pages (op, (int) qm_document_n_pages (doc));
}

static void
on_draw_page (GtkPrintOperation *op,
              GtkPrintContext   *context,
              int                page,
              QmDocument        *doc)
{
  /* The printable area can be smaller than the paper: the document
   * scales its page to fit. */
  qm_document_draw_page (doc, gtk_print_context_get_cairo_context (context), (guint) page,
                         gtk_print_context_get_width (context),
                         gtk_print_context_get_height (context));
}

gboolean
qm_print_document (GtkWidget   *parent,
                   QmDocument  *doc,
                   QmPaper      paper,
                   const char  *job_name,
                   const char  *export_path,
                   GError     **error)
{
  g_autoptr(GtkPrintOperation) op = gtk_print_operation_new ();
  g_autoptr(GtkPageSetup) setup = gtk_page_setup_new ();
  g_autoptr(GtkPaperSize) size = NULL;
  GtkNative *native = parent != NULL ? gtk_widget_get_native (parent) : NULL;
  GtkPrintOperationResult result;

  size = gtk_paper_size_new (paper == QM_PAPER_LETTER ? GTK_PAPER_NAME_LETTER : GTK_PAPER_NAME_A4);
  gtk_page_setup_set_paper_size_and_default_margins (setup, size);
  gtk_print_operation_set_default_page_setup (op, setup);
  gtk_print_operation_set_unit (op, GTK_UNIT_POINTS);
  gtk_print_operation_set_job_name (op, job_name);
  gtk_print_operation_set_embed_page_setup (op, TRUE);
  g_signal_connect (op, "begin-print", G_CALLBACK (on_begin_print), doc);
  g_signal_connect (op, "draw-page", G_CALLBACK (on_draw_page), doc);
  g_object_set_data_full (G_OBJECT (op), "qm-document", doc, (GDestroyNotify) qm_document_free);

  if (export_path != NULL)
    gtk_print_operation_set_export_filename (op, export_path);
  result = gtk_print_operation_run (op, export_path ? GTK_PRINT_OPERATION_ACTION_EXPORT
                                                    : GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG,
                                    GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL, error);
  return result != GTK_PRINT_OPERATION_RESULT_ERROR;
}
