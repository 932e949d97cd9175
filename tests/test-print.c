/* test-print.c: Print Preview, as the print dialog's Preview button runs
 * it (issue #35 item 10).
 *
 * With "previewer" the gtk-print-preview-command setting names a stand-in
 * previewer (a script that copies the PDF it is given): GTK writes the
 * document's pages to a PDF and runs it, and the copy has every page.
 * With "none" there is no previewer on PATH and no PDF viewer in a private
 * XDG data folder (the system's applications are left out): the window
 * says so in a dialog, and the preview ends rather than hang.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "qm-print.h"
#include "qm-test-pdf.h"
#include "qm-test-ui.h"

static char *tmp_dir;
static gboolean with_previewer;

static char *
copy_path (void)
{
  return g_build_filename (tmp_dir, "previewed.pdf", NULL);
}

/* Before GTK and GIO read any of it: no application handles PDF. */
static void
set_up_desktop (void)
{
  g_autofree char *data_home = g_build_filename (tmp_dir, "data", NULL);
  g_autofree char *config_home = g_build_filename (tmp_dir, "config", NULL);
  g_autofree char *data_dirs = g_build_filename (tmp_dir, "share", NULL);
  g_autofree char *icons = g_build_filename (data_dirs, "icons", NULL);
  g_autofree char *mime = g_build_filename (data_dirs, "mime", NULL);
  g_autofree char *bin = g_build_filename (tmp_dir, "bin", NULL);

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
  g_assert_cmpint (g_mkdir_with_parents (data_dirs, 0700), ==, 0);
  g_assert_cmpint (symlink ("/usr/share/icons", icons), ==, 0);
  g_assert_cmpint (symlink ("/usr/share/mime", mime), ==, 0);
  g_setenv ("XDG_DATA_DIRS", data_dirs, TRUE);
  /* The shell for the stand-in previewer, but no Evince. */
  g_assert_cmpint (g_mkdir_with_parents (bin, 0700), ==, 0);
  g_setenv ("PATH", bin, TRUE);
  for (guint i = 0; i < 3; i++)
    {
      static const char *const tools[] = { "sh", "cp", "mv" };
      g_autofree char *from = g_build_filename ("/bin", tools[i], NULL);
      g_autofree char *to = g_build_filename (bin, tools[i], NULL);

      g_assert_cmpint (symlink (from, to), ==, 0);
    }
}

static QmDocument *
make_document (void)
{
  QmDocument *doc = qm_document_new (QM_PAPER_A4, "Preview test", "Preview test");

  qm_document_add_heading (doc, "First page", 1);
  qm_document_add_paragraph (doc, "Printed as the PDF is.");
  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, "Second page", 1);
  qm_document_add_paragraph (doc, "The preview shows every page.");
  return doc;
}

static GtkWindow *
message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w))
        return w;
    }
  return NULL;
}

static void
test_preview (void)
{
  GtkWidget *window = gtk_window_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = copy_path ();
  g_autofree char *previewer = NULL;
  gboolean available;

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_present (GTK_WINDOW (window));

  if (with_previewer)
    {
      g_autofree char *script = g_build_filename (tmp_dir, "bin", "qm-test-previewer", NULL);
      g_autofree char *text = g_strdup_printf ("#!/bin/sh\ncp \"$1\" '%s.part' && mv '%s.part' '%s'\n",
                                               copy, copy, copy);
      g_autofree char *command = g_strdup_printf ("qm-test-previewer %%f");

      g_file_set_contents (script, text, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_chmod (script, 0700), ==, 0);
      g_object_set (gtk_widget_get_settings (window), "gtk-print-preview-command", command, NULL);
    }

  available = qm_print_previewer_available (window, &previewer);
  g_assert_cmpint (available, ==, with_previewer);
  g_assert_cmpstr (previewer, ==, with_previewer ? "qm-test-previewer" : "evince");

  /* Returns once the preview has ended: it would hang if it never did. */
  g_assert_true (qm_print_preview_document (window, make_document (), QM_PAPER_A4, "Preview test", &error));
  g_assert_no_error (error);

  if (with_previewer)
    {
      g_autofree char *text = NULL;
      int n_pages = 0;
      gint64 deadline = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;

      /* The previewer runs on its own: wait for the copy it makes. */
      while (!g_file_test (copy, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, FALSE);
      g_assert_true (g_file_test (copy, G_FILE_TEST_EXISTS));
      text = qm_test_pdf_text (copy, &n_pages);
      g_assert_cmpint (n_pages, ==, 2);
      g_assert_nonnull (strstr (text, "The preview shows every page."));
      g_assert_null (message_dialog ());
    }
  else
    {
      GtkWindow *dialog;
      gint64 deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

      while ((dialog = message_dialog ()) == NULL && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, FALSE);
      g_assert_nonnull (dialog);
      g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==,
                       "No Print Preview Available");
      g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "evince"));
      g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (window));
      qm_test_screenshot (GTK_WIDGET (dialog), "print-preview-none-light.png", ADW_COLOR_SCHEME_FORCE_LIGHT);
      gtk_window_destroy (dialog);
      g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  int status;

  /* Before g_test_init, which reads the arguments. */
  with_previewer = argc > 1 && g_strcmp0 (argv[argc - 1], "previewer") == 0;
  if (argc > 1 && (g_strcmp0 (argv[argc - 1], "previewer") == 0 || g_strcmp0 (argv[argc - 1], "none") == 0))
    argc--;
  tmp_dir = g_dir_make_tmp ("qm-test-print-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  set_up_desktop ();
  if (!qm_test_ui_init (&argc, &argv))
    return 0;
  g_test_add_func (with_previewer ? "/print/preview-previewer" : "/print/preview-none", test_preview);
  status = g_test_run ();
  {
    g_autofree char *rm = g_strdup_printf ("/bin/rm -rf '%s'", tmp_dir);

    (void) !system (rm);
  }
  g_free (tmp_dir);
  return status;
}
