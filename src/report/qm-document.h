/* qm-document.h: a small paginating document for PDF summaries and
 * printing. Callers add blocks (headings, paragraphs, key figures, tables,
 * figures); the document measures them with pango, breaks them into pages
 * (tables repeat their header on each page), and draws any page onto any
 * cairo_t: a PDF surface or a GtkPrintContext.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "qm-chart-style.h"

G_BEGIN_DECLS

typedef enum
{
  QM_PAPER_A4,
  QM_PAPER_LETTER,
} QmPaper;

typedef enum
{
  QM_ALIGN_START,
  QM_ALIGN_END,
} QmAlign;

/* Draws a figure into the box (0, 0, width, height) of @cr. */
typedef void (*QmFigureFunc) (cairo_t  *cr,
                              double    width,
                              double    height,
                              gpointer  user_data);

typedef struct _QmDocument QmDocument;

/* The paper size of the user's locale: Letter where LC_PAPER says so (the
 * US, Canada ...), else A4. */
QmPaper     qm_paper_for_locale        (void);
void        qm_paper_size_points       (QmPaper paper,
                                        double *width,
                                        double *height);

QmDocument *qm_document_new            (QmPaper     paper,
                                        const char *title,
                                        const char *footer);
void        qm_document_free           (QmDocument *doc);

void        qm_document_add_heading    (QmDocument *doc,
                                        const char *text,
                                        int         level);     /* 0 = title */
void        qm_document_add_paragraph  (QmDocument *doc,
                                        const char *text);
/* A grid of large figures with small labels: the cover page's numbers. */
void        qm_document_add_key_figure (QmDocument *doc,
                                        const char *label,
                                        const char *value);
/* A table. @widths are fractions of the text width; rows are added next.
 * A column is widened beyond its fraction (taking the room from columns
 * that can spare it) when a word of its header, or a whole cell of an
 * end-aligned (numeric) column, measured with pango in the document's
 * font, would not fit: a number or a header word never wraps. */
void        qm_document_begin_table    (QmDocument        *doc,
                                        guint              n_columns,
                                        const char *const *headers,
                                        const double      *widths,
                                        const QmAlign     *aligns);
void        qm_document_add_row        (QmDocument        *doc,
                                        const char *const *cells,
                                        gboolean           emphasis);  /* subtotals */
/* A row that stays on the page of the row before it: a table's totals
 * (net, tax, gross) stay with its last line, and when the page would break
 * among them its last lines move to the next page with them. Its
 * start-aligned label runs on over the empty cells after it. */
void        qm_document_add_total_row  (QmDocument        *doc,
                                        const char *const *cells,
                                        gboolean           emphasis);
void        qm_document_end_table      (QmDocument        *doc);
void        qm_document_add_figure     (QmDocument        *doc,
                                        double             height,     /* points */
                                        QmFigureFunc       func,
                                        gpointer           user_data,
                                        GDestroyNotify     destroy);
void        qm_document_add_page_break (QmDocument        *doc);
/* The blocks added between these two stay on one page: they start a new
 * page only when they do not fit on the rest of the current one (and do
 * fit on a page of their own). A section that fits goes where there is
 * room, rather than after a forced break that leaves a page near-empty. */
void        qm_document_begin_keep     (QmDocument        *doc);
void        qm_document_end_keep       (QmDocument        *doc);

/* Lays the blocks out (once; later calls reuse it) and counts pages. */
guint       qm_document_n_pages        (QmDocument *doc);
/* Draws page @index (0-based) into @cr, whose origin is the page's top
 * left corner and whose units are points. @width and @height are the
 * drawable size (the printable area when printing). */
void        qm_document_draw_page      (QmDocument *doc,
                                        cairo_t    *cr,
                                        guint       index,
                                        double      width,
                                        double      height);

/* Writes the whole document as a vector PDF with embedded fonts. */
gboolean    qm_document_write_pdf      (QmDocument  *doc,
                                        const char  *path,
                                        GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmDocument, qm_document_free)

G_END_DECLS
