/* qm-document.c: a small paginating document for PDF summaries and
 * printing.
 *
 * Layout and drawing share one pango context with hinting off and 72 dpi,
 * so what was measured is exactly what is drawn, in points, on a PDF
 * surface and on a print context alike.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-document.h"

#include <cairo-pdf.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <langinfo.h>
#include <math.h>
#include <pango/pangocairo.h>

#define MARGIN        50.0
#define FOOTER_GAP    18.0
#define BODY_PT       9.5
#define SMALL_PT      8.0
#define BLOCK_GAP     10.0
#define CELL_PAD      4.0
#define KEY_COLUMNS   3
#define FONT_FAMILY   "DejaVu Sans, Cantarell, sans-serif"

typedef enum
{
  BLOCK_HEADING,
  BLOCK_PARAGRAPH,
  BLOCK_KEY_FIGURES,
  BLOCK_TABLE,
  BLOCK_FIGURE,
  BLOCK_PAGE_BREAK,
  BLOCK_KEEP_BEGIN,   /* the blocks up to the matching BLOCK_KEEP_END stay on one page */
  BLOCK_KEEP_END,
} BlockKind;

typedef struct
{
  char     **cells;
  gboolean   emphasis;
  gboolean   keep_with_previous;  /* totals: on the page of the row before */
  double     height;
} Row;

typedef struct
{
  BlockKind      kind;
  char          *text;
  int            level;
  /* key figures */
  GPtrArray     *labels;
  GPtrArray     *values;
  /* tables */
  guint          n_columns;
  char         **headers;
  double        *widths;
  QmAlign       *aligns;
  GArray        *rows;         /* Row */
  double        *column_width; /* points, as measured; NULL until then */
  double         header_height;
  /* figures */
  double         height;
  QmFigureFunc   func;
  gpointer       user_data;
  GDestroyNotify destroy;
} Block;

typedef struct
{
  guint  block;
  guint  first_row;   /* tables: rows [first_row, end_row) on this page */
  guint  end_row;
  double y;
  double height;
} Placement;

typedef struct
{
  GArray *placements;  /* Placement */
} Page;

struct _QmDocument
{
  QmPaper       paper;
  double        page_width;
  double        page_height;
  char         *title;
  char         *footer;
  GPtrArray    *blocks;  /* Block */
  GArray       *pages;   /* Page; NULL until laid out */
  PangoContext *context;
  QmChartStyle  style;
};

QmPaper
qm_paper_for_locale (void)
{
#ifdef _NL_PAPER_WIDTH
  /* glibc's LC_PAPER: width in millimetres, 216 for Letter. */
  union { char *s; int i; } width;

  width.s = nl_langinfo (_NL_PAPER_WIDTH);
  if (width.i == 216)
    return QM_PAPER_LETTER;
#endif
  return QM_PAPER_A4;
}

void
qm_paper_size_points (QmPaper paper,
                      double *width,
                      double *height)
{
  if (paper == QM_PAPER_LETTER)
    {
      *width = 612.0;     /* 8.5 × 11 in */
      *height = 792.0;
    }
  else
    {
      *width = 595.276;   /* 210 × 297 mm */
      *height = 841.890;
    }
}

static void
block_free (gpointer data)
{
  Block *b = data;

  g_free (b->text);
  g_clear_pointer (&b->labels, g_ptr_array_unref);
  g_clear_pointer (&b->values, g_ptr_array_unref);
  g_strfreev (b->headers);
  g_free (b->widths);
  g_free (b->aligns);
  g_free (b->column_width);
  if (b->rows != NULL)
    {
      for (guint i = 0; i < b->rows->len; i++)
        g_strfreev (g_array_index (b->rows, Row, i).cells);
      g_array_unref (b->rows);
    }
  if (b->destroy != NULL)
    b->destroy (b->user_data);
  g_free (b);
}

static void
free_pages (QmDocument *doc)
{
  if (doc->pages == NULL)
    return;
  for (guint i = 0; i < doc->pages->len; i++)
    g_array_unref (g_array_index (doc->pages, Page, i).placements);
  g_clear_pointer (&doc->pages, g_array_unref);
}

QmDocument *
qm_document_new (QmPaper     paper,
                 const char *title,
                 const char *footer)
{
  QmDocument *doc = g_new0 (QmDocument, 1);
  PangoFontMap *map = pango_cairo_font_map_get_default ();
  cairo_font_options_t *options = cairo_font_options_create ();

  doc->paper = paper;
  qm_paper_size_points (paper, &doc->page_width, &doc->page_height);
  doc->title = g_strdup (title != NULL ? title : "");
  doc->footer = g_strdup (footer != NULL ? footer : "");
  doc->blocks = g_ptr_array_new_with_free_func (block_free);

  doc->context = pango_font_map_create_context (map);
  pango_cairo_context_set_resolution (doc->context, 72.0);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options (doc->context, options);
  cairo_font_options_destroy (options);

  /* Paper is white whatever the desktop style. */
  qm_chart_style_init_light (&doc->style);
  return doc;
}

void
qm_document_free (QmDocument *doc)
{
  if (doc == NULL)
    return;
  free_pages (doc);
  g_ptr_array_unref (doc->blocks);
  g_object_unref (doc->context);
  g_free (doc->title);
  g_free (doc->footer);
  g_free (doc);
}

static Block *
add_block (QmDocument *doc,
           BlockKind   kind)
{
  Block *b = g_new0 (Block, 1);

  free_pages (doc);
  b->kind = kind;
  g_ptr_array_add (doc->blocks, b);
  return b;
}

void
qm_document_add_heading (QmDocument *doc,
                         const char *text,
                         int         level)
{
  Block *b = add_block (doc, BLOCK_HEADING);

  b->text = g_strdup (text);
  b->level = CLAMP (level, 0, 2);
}

void
qm_document_add_paragraph (QmDocument *doc,
                           const char *text)
{
  add_block (doc, BLOCK_PARAGRAPH)->text = g_strdup (text);
}

void
qm_document_add_key_figure (QmDocument *doc,
                            const char *label,
                            const char *value)
{
  Block *b = doc->blocks->len > 0 ? g_ptr_array_index (doc->blocks, doc->blocks->len - 1) : NULL;

  if (b == NULL || b->kind != BLOCK_KEY_FIGURES)
    {
      b = add_block (doc, BLOCK_KEY_FIGURES);
      b->labels = g_ptr_array_new_with_free_func (g_free);
      b->values = g_ptr_array_new_with_free_func (g_free);
    }
  free_pages (doc);
  g_ptr_array_add (b->labels, g_strdup (label));
  g_ptr_array_add (b->values, g_strdup (value));
}

void
qm_document_begin_table (QmDocument        *doc,
                         guint              n_columns,
                         const char *const *headers,
                         const double      *widths,
                         const QmAlign     *aligns)
{
  Block *b = add_block (doc, BLOCK_TABLE);

  g_return_if_fail (n_columns > 0);
  b->n_columns = n_columns;
  b->headers = g_new0 (char *, n_columns + 1);
  b->widths = g_new0 (double, n_columns);
  b->aligns = g_new0 (QmAlign, n_columns);
  for (guint i = 0; i < n_columns; i++)
    {
      b->headers[i] = g_strdup (headers[i]);
      b->widths[i] = widths != NULL ? widths[i] : 1.0 / n_columns;
      b->aligns[i] = aligns != NULL ? aligns[i] : QM_ALIGN_START;
    }
  b->rows = g_array_new (FALSE, TRUE, sizeof (Row));
}

static void
add_row (QmDocument        *doc,
         const char *const *cells,
         gboolean           emphasis,
         gboolean           keep_with_previous)
{
  Block *b = g_ptr_array_index (doc->blocks, doc->blocks->len - 1);
  Row row = { 0 };

  g_return_if_fail (b->kind == BLOCK_TABLE);
  free_pages (doc);
  g_clear_pointer (&b->column_width, g_free);
  row.cells = g_new0 (char *, b->n_columns + 1);
  for (guint i = 0; i < b->n_columns; i++)
    row.cells[i] = g_strdup (cells[i] != NULL ? cells[i] : "");
  row.emphasis = emphasis;
  row.keep_with_previous = keep_with_previous;
  g_array_append_val (b->rows, row);
}

void
qm_document_add_row (QmDocument        *doc,
                     const char *const *cells,
                     gboolean           emphasis)
{
  add_row (doc, cells, emphasis, FALSE);
}

void
qm_document_add_total_row (QmDocument        *doc,
                           const char *const *cells,
                           gboolean           emphasis)
{
  add_row (doc, cells, emphasis, TRUE);
}

void
qm_document_end_table (QmDocument *doc)
{
  /* Nothing to close: a marker for readers of the calling code. */
}

void
qm_document_add_figure (QmDocument     *doc,
                        double          height,
                        QmFigureFunc    func,
                        gpointer        user_data,
                        GDestroyNotify  destroy)
{
  Block *b = add_block (doc, BLOCK_FIGURE);

  b->height = height;
  b->func = func;
  b->user_data = user_data;
  b->destroy = destroy;
}

void
qm_document_add_page_break (QmDocument *doc)
{
  add_block (doc, BLOCK_PAGE_BREAK);
}

void
qm_document_begin_keep (QmDocument *doc)
{
  add_block (doc, BLOCK_KEEP_BEGIN);
}

void
qm_document_end_keep (QmDocument *doc)
{
  add_block (doc, BLOCK_KEEP_END);
}

/* Text. */

static PangoLayout *
make_layout (QmDocument *doc,
             const char *text,
             double      size_pt,
             gboolean    bold,
             double      width)
{
  PangoLayout *layout = pango_layout_new (doc->context);
  PangoFontDescription *font = pango_font_description_from_string (FONT_FAMILY);

  pango_font_description_set_absolute_size (font, size_pt * PANGO_SCALE);
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  if (width > 0)
    {
      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
    }
  pango_layout_set_text (layout, text, -1);
  return layout;
}

static double
text_height (QmDocument *doc,
             const char *text,
             double      size_pt,
             gboolean    bold,
             double      width)
{
  PangoLayout *layout = make_layout (doc, text, size_pt, bold, width);
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  g_object_unref (layout);
  return (double) logical.height / PANGO_SCALE;
}

/* The width of @text on one line. */
static double
text_width (QmDocument *doc,
            const char *text,
            double      size_pt,
            gboolean    bold)
{
  PangoLayout *layout = make_layout (doc, text, size_pt, bold, 0);
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  g_object_unref (layout);
  return (double) logical.width / PANGO_SCALE;
}

/* The width of the widest word of @text: where a wrapped cell cannot be
 * narrower without breaking a word. A word ends where pango may break
 * the line (Unicode line breaking, UAX #14): at a space, and also between
 * two Chinese characters, so a Chinese label or header ("单位标价（EUR）")
 * is not measured as one unbreakable word. It was: with a line-number
 * column the Chinese quote's columns then needed more than the page, all
 * were scaled, and "10,306" wrapped in the Qty column (issue #35 item 2). */
static double
widest_word (QmDocument *doc,
             const char *text,
             double      size_pt,
             gboolean    bold)
{
  PangoLayout *layout = make_layout (doc, text, size_pt, bold, 0);
  const PangoLogAttr *attrs;
  const char *start = text;
  double w = 0.0;
  int n_attrs, i = 0;

  attrs = pango_layout_get_log_attrs_readonly (layout, &n_attrs);
  for (const char *p = text;; p = g_utf8_next_char (p), i++)
    {
      if (*p == '\0' || *p == '\n' || (p > start && i < n_attrs && attrs[i].is_line_break))
        {
          g_autofree char *word = g_strstrip (g_strndup (start, p - start));

          if (word[0] != '\0')
            w = MAX (w, text_width (doc, word, size_pt, bold));
          start = p;
        }
      if (*p == '\0')
        break;
    }
  g_object_unref (layout);
  return w;
}

static void
draw_text (QmDocument *doc,
           cairo_t    *cr,
           const char *text,
           double      size_pt,
           gboolean    bold,
           double      x,
           double      y,
           double      width,
           QmAlign     align)
{
  PangoLayout *layout = make_layout (doc, text, size_pt, bold, width);

  if (align == QM_ALIGN_END)
    pango_layout_set_alignment (layout, PANGO_ALIGN_RIGHT);
  cairo_move_to (cr, x, y);
  pango_cairo_update_layout (cr, layout);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static double
heading_size (int level)
{
  return level == 0 ? 20.0 : level == 1 ? 14.0 : 11.0;
}

/* Layout. */

static double
content_width (QmDocument *doc)
{
  return doc->page_width - 2 * MARGIN;
}

static double
content_bottom (QmDocument *doc)
{
  return doc->page_height - MARGIN - FOOTER_GAP;
}

/* The width cell @c of a row has: its column's, and on a total row a
 * start-aligned label also takes the empty cells after it ("Total,
 * including tax" on one line across the quantity and price columns). */
static double
cell_width (Block   *b,
            char   **cells,
            guint    c,
            gboolean spans)
{
  double w = b->column_width[c];

  if (spans && b->aligns[c] == QM_ALIGN_START)
    for (guint k = c + 1; k < b->n_columns && cells[k][0] == '\0'; k++)
      w += b->column_width[k];
  return w;
}

static double
row_height (QmDocument *doc,
            Block      *b,
            char      **cells,
            gboolean    bold,
            gboolean    spans)
{
  double h = 0.0;

  for (guint c = 0; c < b->n_columns; c++)
    h = MAX (h, text_height (doc, cells[c], BODY_PT, bold, cell_width (b, cells, c, spans) - 2 * CELL_PAD));
  return h + 2 * CELL_PAD;
}

/* The columns' widths in points: each its fraction of the text width, or
 * what its content needs when that is more (every word of its header; in
 * an end-aligned column every whole cell, a number being one piece; in a
 * start-aligned one its longest word, up to its fraction). The room comes
 * from the columns wider than they need, in proportion to what each can
 * spare; only when none can spare enough are all scaled to fit. */
static void
measure_columns (QmDocument *doc,
                 Block      *b)
{
  double total = content_width (doc), sum = 0.0, slack = 0.0;
  g_autofree double *need = g_new0 (double, b->n_columns);

  g_free (b->column_width);
  b->column_width = g_new0 (double, b->n_columns);
  for (guint c = 0; c < b->n_columns; c++)
    {
      double share = b->widths[c] * total, content = 0.0;

      need[c] = widest_word (doc, b->headers[c], BODY_PT, TRUE);
      for (guint r = 0; r < b->rows->len; r++)
        {
          Row *row = &g_array_index (b->rows, Row, r);

          if (b->aligns[c] == QM_ALIGN_END)
            need[c] = MAX (need[c], text_width (doc, row->cells[c], BODY_PT, row->emphasis));
          else
            content = MAX (content, widest_word (doc, row->cells[c], BODY_PT, row->emphasis));
        }
      /* A fraction of a point more than measured: the exact width can
       * still wrap after rounding to pango units. */
      need[c] = MAX (need[c] + 0.5, MIN (content + 0.5, share - 2 * CELL_PAD)) + 2 * CELL_PAD;
      b->column_width[c] = MAX (share, need[c]);
      sum += b->column_width[c];
      slack += b->column_width[c] - need[c];
    }
  if (sum <= total + 1e-6)
    return;
  if (slack >= sum - total)
    {
      double take = (sum - total) / slack;

      for (guint c = 0; c < b->n_columns; c++)
        b->column_width[c] -= (b->column_width[c] - need[c]) * take;
    }
  else
    for (guint c = 0; c < b->n_columns; c++)
      b->column_width[c] *= total / sum;
}

/* Once per table: adding a row clears what was measured. */
static void
measure_table (QmDocument *doc,
               Block      *b)
{
  if (b->column_width != NULL)
    return;
  measure_columns (doc, b);
  b->header_height = row_height (doc, b, b->headers, TRUE, FALSE);
  for (guint r = 0; r < b->rows->len; r++)
    {
      Row *row = &g_array_index (b->rows, Row, r);
      row->height = row_height (doc, b, row->cells, row->emphasis, row->keep_with_previous);
    }
}

/* The height of a key figure's value and of its label: of a Latin capital,
 * or of the tallest text when that is taller (a CJK font's line: "第 6 个月"
 * drawn at a Latin line's height ran into its label). */
static void
key_figure_heights (QmDocument *doc,
                    Block      *b,
                    double     *value_h,
                    double     *label_h)
{
  *value_h = text_height (doc, "X", 18.0, TRUE, 0);
  *label_h = text_height (doc, "X", SMALL_PT, FALSE, 0);
  for (guint i = 0; i < b->labels->len; i++)
    {
      *value_h = MAX (*value_h, text_height (doc, g_ptr_array_index (b->values, i), 18.0, TRUE, 0));
      *label_h = MAX (*label_h, text_height (doc, g_ptr_array_index (b->labels, i), SMALL_PT, FALSE, 0));
    }
}

static double
key_figures_height (QmDocument *doc,
                    Block      *b)
{
  guint rows = (b->labels->len + KEY_COLUMNS - 1) / KEY_COLUMNS;
  double value_h, label_h;

  key_figure_heights (doc, b, &value_h, &label_h);
  return rows * (label_h + value_h + 10.0);
}

static Page *
new_page (QmDocument *doc)
{
  Page page = { g_array_new (FALSE, TRUE, sizeof (Placement)) };

  g_array_append_val (doc->pages, page);
  return &g_array_index (doc->pages, Page, doc->pages->len - 1);
}

static void
place (Page   *page,
       guint   block,
       guint   first_row,
       guint   end_row,
       double  y,
       double  height)
{
  Placement p = { block, first_row, end_row, y, height };

  g_array_append_val (page->placements, p);
}

/* The height @b takes on a page, and in @gap the space after it. */
static double
block_height (QmDocument *doc,
              Block      *b,
              double     *gap)
{
  double h = 0.0;

  *gap = BLOCK_GAP;
  switch (b->kind)
    {
    case BLOCK_HEADING:
      *gap = b->level == 0 ? BLOCK_GAP : BLOCK_GAP / 2;
      h = text_height (doc, b->text, heading_size (b->level), TRUE, content_width (doc));
      break;
    case BLOCK_PARAGRAPH:
      h = text_height (doc, b->text, BODY_PT, FALSE, content_width (doc));
      break;
    case BLOCK_KEY_FIGURES:
      h = key_figures_height (doc, b);
      break;
    case BLOCK_FIGURE:
      h = MIN (b->height, content_bottom (doc) - MARGIN);
      break;
    case BLOCK_TABLE:
      measure_table (doc, b);
      h = b->header_height;
      for (guint r = 0; r < b->rows->len; r++)
        h += g_array_index (b->rows, Row, r).height;
      break;
    case BLOCK_PAGE_BREAK:
    case BLOCK_KEEP_BEGIN:
    case BLOCK_KEEP_END:
    default:
      *gap = 0.0;
      break;
    }
  return h;
}

/* The height of the blocks after the BLOCK_KEEP_BEGIN at @begin up to its
 * BLOCK_KEEP_END, as laid out one under the other; G_MAXDOUBLE when they
 * hold a page break (they cannot be kept on one page). */
static double
keep_height (QmDocument *doc,
             guint       begin)
{
  double sum = 0.0, gap = 0.0;
  guint depth = 0;

  for (guint j = begin + 1; j < doc->blocks->len; j++)
    {
      Block *b = g_ptr_array_index (doc->blocks, j);

      if (b->kind == BLOCK_KEEP_END && depth-- == 0)
        break;
      if (b->kind == BLOCK_KEEP_BEGIN)
        depth++;
      if (b->kind == BLOCK_PAGE_BREAK)
        return G_MAXDOUBLE;
      sum += gap;
      sum += block_height (doc, b, &gap);
    }
  return sum;
}

static void
layout_document (QmDocument *doc)
{
  double top = MARGIN, bottom = content_bottom (doc), y;
  Page *page;

  if (doc->pages != NULL)
    return;

  doc->pages = g_array_new (FALSE, TRUE, sizeof (Page));
  page = new_page (doc);
  y = top;

  for (guint i = 0; i < doc->blocks->len; i++)
    {
      Block *b = g_ptr_array_index (doc->blocks, i);
      double h;

      switch (b->kind)
        {
        case BLOCK_PAGE_BREAK:
          if (page->placements->len > 0)
            {
              page = new_page (doc);
              y = top;
            }
          break;

        case BLOCK_KEEP_BEGIN:
          /* What fits on the rest of this page stays here; what fits only
           * on a page of its own starts one; what is longer than a page
           * flows as it would without the keep. */
          h = keep_height (doc, i);
          if (page->placements->len > 0 && y + h > bottom && h <= bottom - top)
            {
              page = new_page (doc);
              y = top;
            }
          break;

        case BLOCK_KEEP_END:
          break;

        case BLOCK_HEADING:
          {
            Block *next = i + 1 < doc->blocks->len ? g_ptr_array_index (doc->blocks, i + 1) : NULL;
            double gap = b->level == 0 ? BLOCK_GAP : BLOCK_GAP / 2;
            /* Keep a heading with at least a few lines of what follows, or
             * with all of a shorter paragraph (a plan's one-line note). */
            double need = 4 * BODY_PT * 1.4;

            h = text_height (doc, b->text, heading_size (b->level), TRUE, content_width (doc));
            if (next != NULL && next->kind == BLOCK_PARAGRAPH)
              {
                double next_h = text_height (doc, next->text, BODY_PT, FALSE, content_width (doc));

                if (next_h < need)
                  need = gap + next_h;
              }
            if (y + h + need > bottom && page->placements->len > 0)
              {
                page = new_page (doc);
                y = top;
              }
            place (page, i, 0, 0, y, h);
            y += h + gap;
          }
          break;

        case BLOCK_PARAGRAPH:
        case BLOCK_KEY_FIGURES:
        case BLOCK_FIGURE:
          if (b->kind == BLOCK_PARAGRAPH)
            h = text_height (doc, b->text, BODY_PT, FALSE, content_width (doc));
          else if (b->kind == BLOCK_KEY_FIGURES)
            h = key_figures_height (doc, b);
          else
            h = MIN (b->height, bottom - top);
          if (y + h > bottom && page->placements->len > 0)
            {
              page = new_page (doc);
              y = top;
            }
          place (page, i, 0, 0, y, h);
          y += h + BLOCK_GAP;
          break;

        case BLOCK_TABLE:
          {
            guint first = 0;

            measure_table (doc, b);

            /* The header with at least one row, or start a new page. */
            if (b->rows->len > 0 &&
                y + b->header_height + g_array_index (b->rows, Row, 0).height > bottom &&
                page->placements->len > 0)
              {
                page = new_page (doc);
                y = top;
              }

            while (TRUE)
              {
                double used = b->header_height;
                guint end = first;

                while (end < b->rows->len &&
                       (y + used + g_array_index (b->rows, Row, end).height <= bottom || end == first))
                  used += g_array_index (b->rows, Row, end++).height;
                /* A break among the totals moves back to before the last
                 * lines they belong to: two of them go over with the
                 * totals (not one line alone under the repeated header),
                 * when two stay behind. */
                if (end < b->rows->len && g_array_index (b->rows, Row, end).keep_with_previous)
                  {
                    while (end > first + 1 && g_array_index (b->rows, Row, end).keep_with_previous)
                      used -= g_array_index (b->rows, Row, --end).height;
                    if (end > first + 2)
                      used -= g_array_index (b->rows, Row, --end).height;
                  }
                place (page, i, first, end, y, used);
                y += used + BLOCK_GAP;
                if (end >= b->rows->len)
                  break;
                /* The rest continues on a new page, under a repeated header. */
                first = end;
                page = new_page (doc);
                y = top;
              }
          }
          break;

        default:
          g_assert_not_reached ();
        }
    }
}

guint
qm_document_n_pages (QmDocument *doc)
{
  layout_document (doc);
  return doc->pages->len;
}

/* Drawing. */

static void
set_color (cairo_t       *cr,
           const QmColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

static void
draw_table (QmDocument      *doc,
            cairo_t         *cr,
            Block           *b,
            const Placement *p)
{
  double x0 = MARGIN, y = p->y, w = content_width (doc);

  /* Header on a tinted band, repeated on every page the table spans. */
  set_color (cr, &doc->style.grid);
  cairo_rectangle (cr, x0, y, w, b->header_height);
  cairo_fill (cr);
  set_color (cr, &doc->style.foreground);
  {
    double x = x0;
    for (guint c = 0; c < b->n_columns; c++)
      {
        double cw = b->column_width[c];
        draw_text (doc, cr, b->headers[c], BODY_PT, TRUE, x + CELL_PAD, y + CELL_PAD,
                   cw - 2 * CELL_PAD, b->aligns[c]);
        x += cw;
      }
  }
  y += b->header_height;

  for (guint r = p->first_row; r < p->end_row; r++)
    {
      Row *row = &g_array_index (b->rows, Row, r);
      double x = x0;

      set_color (cr, &doc->style.foreground);
      for (guint c = 0; c < b->n_columns; c++)
        {
          double cw = cell_width (b, row->cells, c, row->keep_with_previous);

          draw_text (doc, cr, row->cells[c], BODY_PT, row->emphasis, x + CELL_PAD, y + CELL_PAD,
                     cw - 2 * CELL_PAD, b->aligns[c]);
          x += b->column_width[c];
        }
      y += row->height;
      /* A hairline between rows; a stronger rule above subtotals. */
      set_color (cr, &doc->style.grid);
      cairo_set_line_width (cr, row->emphasis ? 1.0 : 0.4);
      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x0 + w, y);
      cairo_stroke (cr);
    }
}

static void
draw_key_figures (QmDocument      *doc,
                  cairo_t         *cr,
                  Block           *b,
                  const Placement *p)
{
  double cell_w = content_width (doc) / KEY_COLUMNS;
  double label_h, value_h;

  key_figure_heights (doc, b, &value_h, &label_h);
  for (guint i = 0; i < b->labels->len; i++)
    {
      double x = MARGIN + (i % KEY_COLUMNS) * cell_w;
      double y = p->y + (i / KEY_COLUMNS) * (label_h + value_h + 10.0);

      set_color (cr, &doc->style.foreground);
      draw_text (doc, cr, g_ptr_array_index (b->values, i), 18.0, TRUE, x, y, cell_w - 8, QM_ALIGN_START);
      cairo_set_source_rgba (cr, 0.37, 0.36, 0.39, 1.0);
      draw_text (doc, cr, g_ptr_array_index (b->labels, i), SMALL_PT, FALSE, x, y + value_h,
                 cell_w - 8, QM_ALIGN_START);
    }
}

void
qm_document_draw_page (QmDocument *doc,
                       cairo_t    *cr,
                       guint       index,
                       double      width,
                       double      height)
{
  Page *page;
  char number[64];

  layout_document (doc);
  g_return_if_fail (index < doc->pages->len);
  page = &g_array_index (doc->pages, Page, index);

  cairo_save (cr);
  /* Fit the laid-out page into the drawable area (the printable area of a
   * printer can be a little smaller than the paper). */
  if (width > 0 && height > 0)
    {
      double s = MIN (width / doc->page_width, height / doc->page_height);
      if (s < 1.0)
        cairo_scale (cr, s, s);
    }

  for (guint i = 0; i < page->placements->len; i++)
    {
      Placement *p = &g_array_index (page->placements, Placement, i);
      Block *b = g_ptr_array_index (doc->blocks, p->block);

      switch (b->kind)
        {
        case BLOCK_HEADING:
          set_color (cr, &doc->style.foreground);
          draw_text (doc, cr, b->text, heading_size (b->level), TRUE, MARGIN, p->y,
                     content_width (doc), QM_ALIGN_START);
          break;
        case BLOCK_PARAGRAPH:
          set_color (cr, &doc->style.foreground);
          draw_text (doc, cr, b->text, BODY_PT, FALSE, MARGIN, p->y, content_width (doc),
                     QM_ALIGN_START);
          break;
        case BLOCK_KEY_FIGURES:
          draw_key_figures (doc, cr, b, p);
          break;
        case BLOCK_TABLE:
          draw_table (doc, cr, b, p);
          break;
        case BLOCK_FIGURE:
          cairo_save (cr);
          cairo_translate (cr, MARGIN, p->y);
          cairo_rectangle (cr, 0, 0, content_width (doc), p->height);
          cairo_clip (cr);
          b->func (cr, content_width (doc), p->height, b->user_data);
          cairo_restore (cr);
          break;
        case BLOCK_PAGE_BREAK:
        case BLOCK_KEEP_BEGIN:
        case BLOCK_KEEP_END:
        default:
          break;
        }
    }

  /* Footer: what and when on the left, where on the right. */
  /* Translators: the footer of every PDF page, "Page 2 of 9" */
  g_snprintf (number, sizeof number, _("Page %u of %u"), index + 1, doc->pages->len);
  cairo_set_source_rgba (cr, 0.37, 0.36, 0.39, 1.0);
  cairo_set_line_width (cr, 0.4);
  cairo_move_to (cr, MARGIN, doc->page_height - MARGIN - 4);
  cairo_line_to (cr, doc->page_width - MARGIN, doc->page_height - MARGIN - 4);
  cairo_stroke (cr);
  draw_text (doc, cr, doc->footer, SMALL_PT, FALSE, MARGIN, doc->page_height - MARGIN,
             content_width (doc) * 0.75, QM_ALIGN_START);
  draw_text (doc, cr, number, SMALL_PT, FALSE, MARGIN, doc->page_height - MARGIN,
             content_width (doc), QM_ALIGN_END);
  cairo_restore (cr);
}

gboolean
qm_document_write_pdf (QmDocument  *doc,
                       const char  *path,
                       GError     **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  guint n = qm_document_n_pages (doc);

  surface = cairo_pdf_surface_create (path, doc->page_width, doc->page_height);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, doc->title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Quartermaster");
  cr = cairo_create (surface);
  for (guint i = 0; i < n; i++)
    {
      qm_document_draw_page (doc, cr, i, doc->page_width, doc->page_height);
      cairo_show_page (cr);
    }
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not write %s: %s",
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
