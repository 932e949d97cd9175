/* qm-print.c: printing a report document with GtkPrintOperation.
 *
 * Print Preview is GTK's: it writes the pages to a PDF and runs the
 * gtk-print-preview-command setting (Evince by default), or, when that
 * program is missing, opens the PDF in the default PDF viewer. With
 * neither, GTK 4.8 does nothing and says nothing (issue #35 item 10); the
 * preview handler here then says so, and what to do instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

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
qm_print_previewer_available (GtkWidget  *parent,
                              char      **previewer)
{
  GtkSettings *settings = parent != NULL ? gtk_widget_get_settings (parent) : gtk_settings_get_default ();
  g_autofree char *command = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GAppInfo) viewer = NULL;

  if (previewer != NULL)
    *previewer = NULL;
  if (settings != NULL)
    g_object_get (settings, "gtk-print-preview-command", &command, NULL);
  if (command != NULL && g_shell_parse_argv (command, NULL, &argv, NULL) && argv[0] != NULL)
    {
      g_autofree char *path = g_find_program_in_path (argv[0]);

      if (previewer != NULL)
        *previewer = g_path_get_basename (argv[0]);
      if (path != NULL)
        return TRUE;
    }
  /* GTK falls back to the default application for PDF. */
  viewer = g_app_info_get_default_for_type ("application/pdf", FALSE);
  return viewer != NULL;
}

static gboolean
end_preview_idle (gpointer data)
{
  gtk_print_operation_preview_end_preview (GTK_PRINT_OPERATION_PREVIEW (data));
  return G_SOURCE_REMOVE;
}

/* GTK has paginated: nothing is drawn, the preview ends once the
 * emission is over. */
static void
on_preview_ready (GtkPrintOperationPreview *preview,
                  GtkPrintContext          *context,
                  gpointer                  user_data)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, end_preview_idle, g_object_ref (preview), g_object_unref);
}

static gboolean
on_preview (GtkPrintOperation        *op,
            GtkPrintOperationPreview *preview,
            GtkPrintContext          *context,
            GtkWindow                *parent,
            gpointer                  user_data)
{
  g_autofree char *previewer = NULL;
  g_autofree char *body = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  AdwMessageDialog *dialog;

  if (qm_print_previewer_available (parent != NULL ? GTK_WIDGET (parent) : NULL, &previewer))
    return FALSE;

  /* GTK requires a cairo context on the print context of a preview that
   * an application handles; nothing is drawn on this one. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  gtk_print_context_set_cairo_context (context, cr, 72.0, 72.0);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_signal_connect (preview, "ready", G_CALLBACK (on_preview_ready), NULL);

  /* Translators: %s is the program GTK runs for print previews, such as
   * "evince". */
  body = g_strdup_printf (_("Neither the print previewer (%s) nor a PDF viewer is installed. "
                            "Install a PDF viewer such as Document Viewer, or export the document "
                            "as a PDF and open it elsewhere."),
                          previewer != NULL ? previewer : "evince");
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("No Print Preview Available"), body));
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  adw_message_dialog_set_default_response (dialog, "close");
  adw_message_dialog_set_close_response (dialog, "close");
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

static gboolean
run_operation (GtkWidget                *parent,
               QmDocument               *doc,
               QmPaper                   paper,
               const char               *job_name,
               GtkPrintOperationAction   action,
               const char               *export_path,
               GError                  **error)
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

  g_signal_connect (op, "preview", G_CALLBACK (on_preview), NULL);

  if (export_path != NULL)
    gtk_print_operation_set_export_filename (op, export_path);
  result = gtk_print_operation_run (op, action, GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL, error);
  return result != GTK_PRINT_OPERATION_RESULT_ERROR;
}

gboolean
qm_print_document (GtkWidget   *parent,
                   QmDocument  *doc,
                   QmPaper      paper,
                   const char  *job_name,
                   const char  *export_path,
                   GError     **error)
{
  return run_operation (parent, doc, paper, job_name,
                        export_path != NULL ? GTK_PRINT_OPERATION_ACTION_EXPORT
                                            : GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG,
                        export_path, error);
}

gboolean
qm_print_preview_document (GtkWidget   *parent,
                           QmDocument  *doc,
                           QmPaper      paper,
                           const char  *job_name,
                           GError     **error)
{
  return run_operation (parent, doc, paper, job_name, GTK_PRINT_OPERATION_ACTION_PREVIEW, NULL, error);
}
