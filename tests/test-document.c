/* test-document.c: the paginating document, checked by reading the PDF
 * back with poppler: page count and size, text on the right pages, a long
 * table that repeats its header, CJK text, embedded fonts, no raster
 * images, and a footer on every page; totals kept with the last line, kept
 * sections, and columns widened for their numbers (issue #35 item 3).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-test-pdf.h"

#include "qm-document.h"

static char *
out_path (const char *name)
{
  const char *dir = g_getenv ("QM_BUILD_DIR");

  return g_canonicalize_filename (name, dir != NULL ? dir : NULL);
}

static PopplerDocument *
open_pdf (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = g_filename_to_uri (path, NULL, &error);
  PopplerDocument *pdf;

  g_assert_no_error (error);
  pdf = poppler_document_new_from_file (uri, NULL, &error);
  g_assert_no_error (error);
  return pdf;
}

static char *
page_text (PopplerDocument *pdf,
           int              i)
{
  g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, i);

  return poppler_page_get_text (page);
}

static void
draw_box (cairo_t  *cr,
          double    width,
          double    height,
          gpointer  user_data)
{
  cairo_set_source_rgb (cr, 0.2, 0.5, 0.9);
  cairo_rectangle (cr, 0, 0, width / 2, height / 2);
  cairo_fill (cr);
}

static void
test_long_table (void)
{
  g_autoptr(QmDocument) doc = qm_document_new (QM_PAPER_A4, "Test summary",
                                               "Quartermaster test — 2026-11-22");
  g_autofree char *path = out_path ("test-document.pdf");
  g_autoptr(PopplerDocument) pdf = NULL;
  const char *headers[] = { "Item", "Qty", "Unit price", "Total" };
  const double widths[] = { 0.52, 0.12, 0.18, 0.18 };
  const QmAlign aligns[] = { QM_ALIGN_START, QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END };
  g_autoptr(GError) error = NULL;
  int n_pages, pages_with_header = 0;
  double w, h;

  qm_document_add_heading (doc, "Training Llama-3.1-70B on 15T tokens", 0);
  qm_document_add_key_figure (doc, "GPUs", "1,024");
  qm_document_add_key_figure (doc, "Days", "41.3");
  qm_document_add_key_figure (doc, "Total cost", "$312 M");
  qm_document_add_paragraph (doc, "Long names wrap: a very long item name that goes on and on "
                             "to check that wrapping keeps the layout and nothing runs off the page. "
                             "中文字符也要正确显示：GPU 集群报价。");
  qm_document_add_figure (doc, 200, draw_box, NULL, NULL);
  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, "Bill of materials", 1);
  qm_document_begin_table (doc, 4, headers, widths, aligns);
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *item = g_strdup_printf ("Line item %03u%s", i + 1,
                                               i % 50 == 7 ? ", with a long, comma-laden, name that wraps onto a second line" : "");
      g_autofree char *qty = g_strdup_printf ("%u", i + 1);
      const char *cells[] = { item, qty, i % 10 == 0 ? "$0" : "$1,000", "$1,000" };

      qm_document_add_row (doc, cells, FALSE);
    }
  {
    const char *total[] = { "Total", "", "", "$300,000" };
    qm_document_add_row (doc, total, TRUE);
  }
  qm_document_end_table (doc);

  g_assert_true (qm_document_write_pdf (doc, path, &error));
  g_assert_no_error (error);

  pdf = open_pdf (path);
  n_pages = poppler_document_get_n_pages (pdf);
  g_assert_cmpint (n_pages, ==, (int) qm_document_n_pages (doc));
  /* A cover page plus 300 rows at ~50 a page. */
  g_assert_cmpint (n_pages, >=, 6);
  g_assert_cmpint (n_pages, <=, 10);

  {
    g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, 0);
    poppler_page_get_size (page, &w, &h);
    g_assert_cmpfloat_with_epsilon (w, 595.276, 0.5);
    g_assert_cmpfloat_with_epsilon (h, 841.89, 0.5);
  }

  {
    g_autofree char *cover = page_text (pdf, 0);
    g_assert_nonnull (strstr (cover, "Training Llama-3.1-70B"));
    g_assert_nonnull (strstr (cover, "$312 M"));
    g_assert_nonnull (strstr (cover, "中文字符"));
  }

  for (int i = 0; i < n_pages; i++)
    {
      g_autofree char *text = page_text (pdf, i);
      g_autofree char *footer = g_strdup_printf ("Page %d of %d", i + 1, n_pages);
      g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, i);
      GList *images = poppler_page_get_image_mapping (page);

      g_assert_nonnull (strstr (text, footer));
      g_assert_nonnull (strstr (text, "Quartermaster test"));
      /* Charts and tables are vectors, never raster images. */
      g_assert_null (images);
      if (i > 0 && strstr (text, "Unit price") != NULL)
        pages_with_header++;
    }
  /* The header repeats on every page the table spans. */
  g_assert_cmpint (pages_with_header, ==, n_pages - 1);

  {
    g_autofree char *last = page_text (pdf, n_pages - 1);
    g_autofree char *first_table = page_text (pdf, 1);
    g_assert_nonnull (strstr (last, "$300,000"));
    g_assert_nonnull (strstr (first_table, "Line item 001"));
  }

  /* Every font is embedded. */
  {
    PopplerFontInfo *info = poppler_font_info_new (pdf);
    PopplerFontsIter *iter = NULL;
    int fonts = 0;

    while (poppler_font_info_scan (info, n_pages, &iter))
      {
        if (iter == NULL)
          continue;
        do
          {
            g_assert_true (poppler_fonts_iter_is_embedded (iter));
            fonts++;
          }
        while (poppler_fonts_iter_next (iter));
        poppler_fonts_iter_free (iter);
        iter = NULL;
      }
    poppler_font_info_free (info);
    g_assert_cmpint (fonts, >, 0);
  }
}

static void
test_letter_and_empty (void)
{
  g_autoptr(QmDocument) doc = qm_document_new (QM_PAPER_LETTER, "Empty", "");
  g_autofree char *path = out_path ("test-document-letter.pdf");
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autoptr(PopplerPage) page = NULL;
  g_autoptr(GError) error = NULL;
  double w, h;

  /* An empty document is still one page, with its footer. */
  g_assert_cmpuint (qm_document_n_pages (doc), ==, 1);
  g_assert_true (qm_document_write_pdf (doc, path, &error));
  pdf = open_pdf (path);
  page = poppler_document_get_page (pdf, 0);
  poppler_page_get_size (page, &w, &h);
  g_assert_cmpfloat (w, ==, 612.0);
  g_assert_cmpfloat (h, ==, 792.0);
}

static void
test_write_error (void)
{
  g_autoptr(QmDocument) doc = qm_document_new (QM_PAPER_A4, "x", "y");
  g_autoptr(GError) error = NULL;

  qm_document_add_paragraph (doc, "text");
  g_assert_false (qm_document_write_pdf (doc, "/nonexistent-dir/out.pdf", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/out.pdf"));
}

/* The index of the first page of @pdf whose text holds @needle, or -1. */
static int
page_with (PopplerDocument *pdf,
           const char      *needle)
{
  for (int i = 0; i < poppler_document_get_n_pages (pdf); i++)
    {
      g_autofree char *text = page_text (pdf, i);

      if (strstr (text, needle) != NULL)
        return i;
    }
  return -1;
}

/* The page of each of "Line 001" ... "Line @n" and the three totals in
 * a table after a heading; @kept: the totals as total rows. */
static void
totals_table (guint     n,
              gboolean  kept,
              int      *line_page,
              int      *total_page)
{
  const char *headers[] = { "Item", "Total" };
  const double widths[] = { 0.7, 0.3 };
  const QmAlign aligns[] = { QM_ALIGN_START, QM_ALIGN_END };
  const char *totals[][2] = { { "Net total", "100.00" }, { "Tax total", "19.00" }, { "Gross total", "119.00" } };
  g_autoptr(QmDocument) doc = qm_document_new (QM_PAPER_A4, "Totals", "Totals test");
  g_autofree char *path = out_path ("test-document-totals.pdf");
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autoptr(GError) error = NULL;

  qm_document_add_heading (doc, "Items", 1);
  qm_document_begin_table (doc, 2, headers, widths, aligns);
  for (guint i = 1; i <= n; i++)
    {
      g_autofree char *item = g_strdup_printf ("Line %03u", i);

      qm_document_add_row (doc, (const char *[]) { item, "1.00" }, FALSE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (totals); i++)
    if (kept)
      qm_document_add_total_row (doc, totals[i], i != 1);
    else
      qm_document_add_row (doc, totals[i], i != 1);
  qm_document_end_table (doc);
  g_assert_true (qm_document_write_pdf (doc, path, &error));
  g_assert_no_error (error);

  pdf = open_pdf (path);
  for (guint i = 1; i <= n; i++)
    {
      g_autofree char *item = g_strdup_printf ("Line %03u", i);

      line_page[i] = page_with (pdf, item);
    }
  for (guint i = 0; i < G_N_ELEMENTS (totals); i++)
    total_page[i] = page_with (pdf, totals[i][0]);
}

/* Net, tax and gross as total rows stay on the page of the table's last
 * line, whatever the number of lines before them: where the page would
 * break among them (as plain rows show), the last two lines go over with
 * them (issue #35 item 3). */
static void
test_total_rows (void)
{
  guint split_among_totals = 0;

  /* About 35 lines fill the first page: counts around it put the break
   * before, among and after the totals. */
  for (guint n = 28; n < 42; n++)
    {
      int plain_lines[64], plain_totals[3], lines[64], totals[3];

      totals_table (n, FALSE, plain_lines, plain_totals);
      totals_table (n, TRUE, lines, totals);
      for (guint i = 0; i < 3; i++)
        g_assert_cmpint (totals[i], ==, lines[n]);
      if (plain_totals[2] != plain_lines[n])
        {
          split_among_totals++;
          /* Two lines under the repeated header, and the rest as before. */
          g_assert_cmpint (lines[n - 1], ==, lines[n]);
          g_assert_cmpint (lines[n - 2], ==, lines[n] - 1);
        }
      else
        /* Where the break did not fall among them, nothing moves. */
        for (guint i = 1; i <= n; i++)
          g_assert_cmpint (lines[i], ==, plain_lines[i]);
    }
  /* The break did fall among the totals for some of the counts. */
  g_assert_cmpuint (split_among_totals, >, 0);
}

static void
draw_nothing (cairo_t  *cr,
              double    width,
              double    height,
              gpointer  user_data)
{
}

/* A kept section goes on the rest of the page when it fits there (no page
 * break before it), and starts a new page, whole, when it does not. */
static void
test_keep (void)
{
  for (guint filler = 0; filler < 2; filler++)
    {
      g_autoptr(QmDocument) doc = qm_document_new (QM_PAPER_A4, "Keep", "Keep test");
      g_autofree char *path = out_path ("test-document-keep.pdf");
      g_autoptr(PopplerDocument) pdf = NULL;
      g_autoptr(GError) error = NULL;

      qm_document_add_heading (doc, "First section", 1);
      /* 300 points, or 560: the section below (about 250) fits after the
       * first, not after the second. */
      qm_document_add_figure (doc, filler == 0 ? 300 : 560, draw_box, NULL, NULL);
      qm_document_begin_keep (doc);
      qm_document_add_heading (doc, "Kept section", 1);
      qm_document_add_paragraph (doc, "Its first paragraph.");
      qm_document_add_figure (doc, 200, draw_nothing, NULL, NULL);
      qm_document_add_paragraph (doc, "Its last paragraph.");
      qm_document_end_keep (doc);
      g_assert_true (qm_document_write_pdf (doc, path, &error));
      g_assert_no_error (error);

      pdf = open_pdf (path);
      g_assert_cmpint (poppler_document_get_n_pages (pdf), ==, filler == 0 ? 1 : 2);
      g_assert_cmpint (page_with (pdf, "Kept section"), ==, filler == 0 ? 0 : 1);
      g_assert_cmpint (page_with (pdf, "Its last paragraph."), ==, page_with (pdf, "Kept section"));
    }
}

/* A column too narrow for its numbers and its header's word is widened,
 * measured with pango, the room taken from the column that can spare it:
 * the numbers and the word come out of the PDF whole. Where everything
 * fits, the columns keep their fractions. */
static void
test_number_columns (void)
{
  g_autoptr(QmDocument) doc = qm_document_new (QM_PAPER_A4, "Columns", "Columns test");
  g_autofree char *path = out_path ("test-document-columns.pdf");
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *headers[] = { "Item", "Quantität", "Total" };
  const double widths[] = { 0.75, 0.04, 0.21 };
  const QmAlign aligns[] = { QM_ALIGN_START, QM_ALIGN_END, QM_ALIGN_END };

  qm_document_begin_table (doc, 3, headers, widths, aligns);
  qm_document_add_row (doc, (const char *[]) { "Fabric cables", "10,306", "1,351,116.60" }, FALSE);
  qm_document_add_row (doc, (const char *[]) { "Optical transceivers", "5,153 %", "8,106,699.60" }, FALSE);
  qm_document_end_table (doc);
  g_assert_true (qm_document_write_pdf (doc, path, &error));
  g_assert_no_error (error);

  pdf = open_pdf (path);
  text = page_text (pdf, 0);
  g_assert_nonnull (strstr (text, "Quantität"));
  g_assert_nonnull (strstr (text, "10,306"));
  /* A cell of a numeric column is one piece, its unit included. */
  g_assert_nonnull (strstr (text, "5,153 %"));
  g_assert_nonnull (strstr (text, "Fabric cables"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/document/long-table", test_long_table);
  g_test_add_func ("/document/letter-and-empty", test_letter_and_empty);
  g_test_add_func ("/document/write-error", test_write_error);
  g_test_add_func ("/document/total-rows", test_total_rows);
  g_test_add_func ("/document/keep", test_keep);
  g_test_add_func ("/document/number-columns", test_number_columns);
  return g_test_run ();
}
