/* qm-test-pdf.h: reading PDFs back with poppler-glib in tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <poppler.h>

G_BEGIN_DECLS

/* poppler-glib 22.12 (Debian 12) defines no autoptr cleanups. */
#ifndef POPPLER_CHECK_VERSION
#define POPPLER_CHECK_VERSION(a, b, c) 0
#endif
#if !POPPLER_CHECK_VERSION (23, 0, 0)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PopplerDocument, g_object_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PopplerPage, g_object_unref)
#endif

/* Every page's text, as a reader of the PDF at @path would copy it;
 * the page count in @n_pages when it is not NULL. */
static inline char *
qm_test_pdf_text (const char *path,
                  int        *n_pages)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = g_filename_to_uri (path, NULL, &error);
  g_autoptr(PopplerDocument) pdf = poppler_document_new_from_file (uri, NULL, &error);
  GString *s = g_string_new (NULL);
  int n;

  g_assert_no_error (error);
  n = poppler_document_get_n_pages (pdf);
  if (n_pages != NULL)
    *n_pages = n;
  for (int i = 0; i < n; i++)
    {
      g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, i);
      g_autofree char *t = poppler_page_get_text (page);

      g_string_append (s, t);
    }
  return g_string_free (s, FALSE);
}

G_END_DECLS
