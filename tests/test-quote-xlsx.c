/* test-quote-xlsx.c: the quote workbook read back (unzip): the cash-flow
 * sheet's payments are formulas of the Quote sheet's gross, as the quote
 * computes them (docs/quotes.md), each carrying the quote's own figure,
 * so a buyer who changes a discount sees the deposit, the deliveries'
 * payments and the cumulative cash flow follow (issue #22).
 *
 * Every line or total made from others (spares, support, shipping,
 * installation, net, tax, gross, deposit, deliveries) is a formula whose
 * cached value is the app's figure, and the dates are date cells (issue
 * #35 item 2). No spreadsheet program is installed to recalculate the
 * workbook, so a small evaluator below does (+ - * /, SUM, SUMPRODUCT,
 * ROUND, ROUNDUP, MAX over the cells the workbook holds): it recomputes
 * every formula from the cells it names, and after a discount, a
 * quantity or an accepted flag is changed in its copy, gives what the
 * core gives for the quote with the same change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "qm-plan.h"
#include "qm-price-age.h"
#include "qm-quote-xlsx.h"
#include "qm-test-quote.h"
#include "qm-test-util.h"

/* The formula and cached value of cell @ref, or NULL when it holds none. */
static char *
cell (const char *sheet,
      const char *ref,
      double     *value)
{
  g_autofree char *pattern = g_strdup_printf ("<c r=\"%s\"[^>]*><f>([^<]*)</f><v>([^<]*)</v>", ref);
  g_autoptr(GRegex) re = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *v = NULL;

  if (!g_regex_match (re, sheet, 0, &m))
    return NULL;
  v = g_match_info_fetch (m, 2);
  *value = g_ascii_strtod (v, NULL);
  return g_match_info_fetch (m, 1);
}

/* Whether cell @ref holds the plain number @expected, no formula. */
static gboolean
has_value (const char *sheet,
           const char *ref,
           double      expected)
{
  g_autofree char *pattern = g_strdup_printf ("<c r=\"%s\"[^>]*><v>([^<]*)</v>", ref);
  g_autoptr(GRegex) re = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *v = NULL;

  if (!g_regex_match (re, sheet, 0, &m))
    return FALSE;
  v = g_match_info_fetch (m, 1);
  return fabs (g_ascii_strtod (v, NULL) - expected) < 1e-9;
}


/* ------------------------------------------------------------------ */
/* A workbook read back, and a small evaluator of its formulas.        */

typedef struct
{
  char    *formula;   /* without "=", or NULL for a value */
  double   value;     /* the cached value, or the value */
  gboolean number;    /* FALSE for a string cell */
  char    *text;      /* a string cell's text */
  guint    style;     /* index into the styles' cellXfs */
} Cell;

typedef struct
{
  GHashTable *cells;  /* "Quote!H16" → Cell */
  GHashTable *memo;   /* "Quote!H16" → double*, the evaluated values */
  char      **xf_formats;  /* per cellXfs index: its number format's code */
  guint       n_xfs;
} Book;

static void
cell_free (gpointer p)
{
  Cell *c = p;

  g_free (c->formula);
  g_free (c->text);
  g_free (c);
}

static char *
unescape (const char *s)
{
  g_autofree char *b = NULL, *c = NULL, *d = NULL;

  {
    g_auto(GStrv) p1 = g_strsplit (s, "&quot;", -1);
    b = g_strjoinv ("\"", p1);
  }
  {
    g_auto(GStrv) p2 = g_strsplit (b, "&lt;", -1);
    c = g_strjoinv ("<", p2);
  }
  {
    g_auto(GStrv) p3 = g_strsplit (c, "&gt;", -1);
    d = g_strjoinv (">", p3);
  }
  {
    g_auto(GStrv) p4 = g_strsplit (d, "&amp;", -1);
    return g_strjoinv ("&", p4);
  }
}

static void
read_sheet (Book        *book,
            const char  *sheet,
            const char  *xml,
            char       **strings,
            guint        n_strings)
{
  g_autoptr(GRegex) re = g_regex_new ("<c r=\"([A-Z]+[0-9]+)\"([^>]*?)(/>|>(.*?)</c>)", 0, 0, NULL);
  g_autoptr(GRegex) f_re = g_regex_new ("<f>([^<]*)</f>", 0, 0, NULL);
  g_autoptr(GRegex) v_re = g_regex_new ("<v>([^<]*)</v>", 0, 0, NULL);
  g_autoptr(GRegex) s_re = g_regex_new ("\\bs=\"([0-9]+)\"", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;

  g_regex_match (re, xml, 0, &m);
  while (g_match_info_matches (m))
    {
      g_autofree char *ref = g_match_info_fetch (m, 1);
      g_autofree char *attrs = g_match_info_fetch (m, 2);
      g_autofree char *inner = g_match_info_fetch (m, 4);
      g_autoptr(GMatchInfo) fm = NULL, vm = NULL, sm = NULL;
      Cell *c = g_new0 (Cell, 1);

      if (inner != NULL && g_regex_match (f_re, inner, 0, &fm))
        {
          g_autofree char *f = g_match_info_fetch (fm, 1);
          c->formula = unescape (f);
        }
      if (inner != NULL && g_regex_match (v_re, inner, 0, &vm))
        {
          g_autofree char *v = g_match_info_fetch (vm, 1);

          if (strstr (attrs, "t=\"s\"") != NULL)
            {
              guint64 k = g_ascii_strtoull (v, NULL, 10);
              c->text = g_strdup (k < n_strings ? strings[k] : "");
            }
          else
            {
              c->value = g_ascii_strtod (v, NULL);
              c->number = TRUE;
            }
        }
      if (g_regex_match (s_re, attrs, 0, &sm))
        {
          g_autofree char *st = g_match_info_fetch (sm, 1);
          c->style = (guint) g_ascii_strtoull (st, NULL, 10);
        }
      g_hash_table_insert (book->cells, g_strdup_printf ("%s!%s", sheet, ref), c);
      g_match_info_next (m, NULL);
    }
}

/* The workbook at @path: its two sheets, its strings and cell formats. */
static Book *
book_read (const char *path)
{
  Book *book = g_new0 (Book, 1);
  g_autofree char *quote = qm_test_zip_member (path, "xl/worksheets/sheet1.xml");
  g_autofree char *flow = qm_test_zip_member (path, "xl/worksheets/sheet2.xml");
  g_autofree char *shared = qm_test_zip_member (path, "xl/sharedStrings.xml");
  g_autofree char *styles = qm_test_zip_member (path, "xl/styles.xml");
  g_autoptr(GRegex) si = g_regex_new ("<si><t[^>]*>([^<]*)</t></si>", 0, 0, NULL);
  g_autoptr(GRegex) fmt = g_regex_new ("<numFmt numFmtId=\"([0-9]+)\" formatCode=\"([^\"]*)\"", 0, 0, NULL);
  g_autoptr(GRegex) xf = g_regex_new ("<xf [^>]*?numFmtId=\"([0-9]+)\"", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) codes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) xfs = g_ptr_array_new ();
  g_autoptr(GRegex) xfs_re = g_regex_new ("<cellXfs[^>]*>(.*?)</cellXfs>", G_REGEX_DOTALL, 0, NULL);
  g_autofree char *cell_xfs = NULL;

  book->cells = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cell_free);
  book->memo = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_regex_match (si, shared, 0, &m);
  for (; g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *t = g_match_info_fetch (m, 1);
      g_ptr_array_add (strings, unescape (t));
    }
  g_clear_pointer (&m, g_match_info_unref);

  g_regex_match (fmt, styles, 0, &m);
  for (; g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *code = g_match_info_fetch (m, 2);
      g_hash_table_insert (codes, g_match_info_fetch (m, 1), unescape (code));
    }
  g_clear_pointer (&m, g_match_info_unref);

  g_assert_true (g_regex_match (xfs_re, styles, 0, &m));
  cell_xfs = g_match_info_fetch (m, 1);
  g_clear_pointer (&m, g_match_info_unref);
  g_regex_match (xf, cell_xfs, 0, &m);
  for (; g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *id = g_match_info_fetch (m, 1);
      const char *code = g_hash_table_lookup (codes, id);

      /* Built-in formats 14-22 are Excel's dates and times. */
      if (code == NULL)
        code = atoi (id) >= 14 && atoi (id) <= 22 ? "builtin-date" : "General";
      g_ptr_array_add (xfs, g_strdup (code));
    }
  book->n_xfs = xfs->len;
  g_ptr_array_add (xfs, NULL);
  book->xf_formats = (char **) g_ptr_array_free (g_steal_pointer (&xfs), FALSE);

  read_sheet (book, "Quote", quote, (char **) strings->pdata, strings->len);
  read_sheet (book, "Cash flow", flow, (char **) strings->pdata, strings->len);
  return book;
}

static void
book_free (Book *book)
{
  g_hash_table_unref (book->cells);
  g_hash_table_unref (book->memo);
  g_strfreev (book->xf_formats);
  g_free (book);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Book, book_free)

static Cell *
book_cell (Book       *book,
           const char *sheet,
           const char *ref)
{
  g_autofree char *key = g_strdup_printf ("%s!%s", sheet, ref);
  return g_hash_table_lookup (book->cells, key);
}

/* Changes a cell in the evaluator's copy, as a buyer typing in it. */
static void
book_set (Book       *book,
          const char *sheet,
          const char *ref,
          double      value)
{
  Cell *c = book_cell (book, sheet, ref);

  g_assert_nonnull (c);
  g_clear_pointer (&c->formula, g_free);
  c->value = value;
  c->number = TRUE;
  g_hash_table_remove_all (book->memo);
}

/* The Excel row of the first cell in column @col of @sheet whose text is
 * @text; 0 for none. */
static guint
book_find_row (Book       *book,
               const char *sheet,
               char        col,
               const char *text)
{
  for (guint row = 1; row < 1000; row++)
    {
      g_autofree char *ref = g_strdup_printf ("%c%u", col, row);
      Cell *c = book_cell (book, sheet, ref);

      if (c != NULL && c->text != NULL && strcmp (c->text, text) == 0)
        return row;
    }
  return 0;
}

typedef struct
{
  Book       *book;
  const char *sheet;  /* the sheet of the formula's cell */
  const char *p;
} Parser;

static double eval_cell (Book *book, const char *sheet, const char *ref);
static double parse_expr (Parser *ps);

static void
skip_space (Parser *ps)
{
  while (*ps->p == ' ')
    ps->p++;
}

/* A reference: ['Sheet'!]$A$1[:$B$2]. Returns FALSE when there is none
 * at ps->p. */
static gboolean
parse_ref (Parser *ps,
           char  **sheet,
           guint  *c0,
           guint  *r0,
           guint  *c1,
           guint  *r1)
{
  const char *p = ps->p;
  g_autofree char *name = NULL;

  if (*p == '\'')
    {
      GString *n = g_string_new (NULL);

      for (p++; *p; p++)
        {
          if (*p == '\'' && p[1] == '\'')
            {
              g_string_append_c (n, '\'');
              p++;
            }
          else if (*p == '\'')
            break;
          else
            g_string_append_c (n, *p);
        }
      g_assert_true (p[0] == '\'' && p[1] == '!');
      p += 2;
      name = g_string_free (n, FALSE);
    }
  for (int end = 0; end < 2; end++)
    {
      guint col = 0, row = 0;

      if (*p == '$')
        p++;
      if (!g_ascii_isupper (*p))
        return FALSE;
      while (g_ascii_isupper (*p))
        col = col * 26 + (guint) (*p++ - 'A' + 1);
      if (*p == '$')
        p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        row = row * 10 + (guint) (*p++ - '0');
      if (end == 0)
        {
          *c0 = *c1 = col;
          *r0 = *r1 = row;
          if (*p != ':')
            break;
          p++;
        }
      else
        {
          *c1 = col;
          *r1 = row;
        }
    }
  *sheet = g_strdup (name != NULL ? name : ps->sheet);
  ps->p = p;
  return TRUE;
}

static char *
ref_name (guint col,
          guint row)
{
  g_assert_cmpuint (col, >=, 1);
  g_assert_cmpuint (col, <=, 26);
  return g_strdup_printf ("%c%u", 'A' + col - 1, row);
}

/* The values of a range, row by row (a cell without a number counts 0). */
static GArray *
range_values (Parser *ps)
{
  g_autofree char *sheet = NULL;
  guint c0, r0, c1, r1;
  GArray *v = g_array_new (FALSE, FALSE, sizeof (double));

  g_assert_true (parse_ref (ps, &sheet, &c0, &r0, &c1, &r1));
  for (guint r = r0; r <= r1; r++)
    for (guint c = c0; c <= c1; c++)
      {
        g_autofree char *ref = ref_name (c, r);
        double x = eval_cell (ps->book, sheet, ref);
        g_array_append_val (v, x);
      }
  return v;
}

static void
expect (Parser *ps,
        char    ch)
{
  skip_space (ps);
  if (*ps->p != ch)
    g_error ("formula: expected '%c' at \"%s\"", ch, ps->p);
  ps->p++;
}

/* Whether the next argument is a range (a reference with ':'). */
static gboolean
next_is_range (Parser *ps)
{
  Parser probe = *ps;
  g_autofree char *sheet = NULL;
  guint c0, r0, c1, r1;

  skip_space (&probe);
  return parse_ref (&probe, &sheet, &c0, &r0, &c1, &r1) && (c0 != c1 || r0 != r1);
}

static double
parse_function (Parser     *ps,
                const char *name)
{
  double result = 0.0;

  expect (ps, '(');
  if (strcmp (name, "SUM") == 0)
    {
      do
        {
          skip_space (ps);
          if (next_is_range (ps))
            {
              g_autoptr(GArray) v = range_values (ps);
              for (guint i = 0; i < v->len; i++)
                result += g_array_index (v, double, i);
            }
          else
            result += parse_expr (ps);
          skip_space (ps);
        }
      while (*ps->p == ',' && ps->p++);
    }
  else if (strcmp (name, "SUMPRODUCT") == 0)
    {
      g_autoptr(GArray) product = NULL;

      do
        {
          GArray *v;

          skip_space (ps);
          v = range_values (ps);
          if (product == NULL)
            product = v;
          else
            {
              g_assert_cmpuint (v->len, ==, product->len);
              for (guint i = 0; i < v->len; i++)
                g_array_index (product, double, i) *= g_array_index (v, double, i);
              g_array_unref (v);
            }
          skip_space (ps);
        }
      while (*ps->p == ',' && ps->p++);
      for (guint i = 0; i < product->len; i++)
        result += g_array_index (product, double, i);
    }
  else if (strcmp (name, "ROUND") == 0 || strcmp (name, "ROUNDUP") == 0)
    {
      double x = parse_expr (ps), digits, scale, scaled;

      expect (ps, ',');
      digits = parse_expr (ps);
      scale = pow (10.0, digits);
      scaled = x * scale;
      /* Excel rounds the decimal it shows (15 significant digits): the
       * binary product 2.675 × 100 = 267.49999... rounds up as 267.5. */
      scaled += copysign (fabs (scaled) * 4 * DBL_EPSILON, scaled);
      if (strcmp (name, "ROUND") == 0)
        result = round (scaled) / scale;
      else  /* away from zero */
        result = (scaled >= 0 ? ceil (scaled - fabs (scaled) * 8 * DBL_EPSILON)
                              : floor (scaled + fabs (scaled) * 8 * DBL_EPSILON)) / scale;
    }
  else if (strcmp (name, "MAX") == 0)
    {
      result = -INFINITY;
      do
        {
          double x = parse_expr (ps);  /* once: MAX () is a macro */
          result = MAX (result, x);
        }
      while (*ps->p == ',' && ps->p++);
    }
  else
    g_error ("formula: no function %s", name);
  expect (ps, ')');
  return result;
}

static double
parse_factor (Parser *ps)
{
  skip_space (ps);
  if (*ps->p == '-')
    {
      ps->p++;
      return -parse_factor (ps);
    }
  if (*ps->p == '+')
    {
      ps->p++;
      return parse_factor (ps);
    }
  if (*ps->p == '(')
    {
      double v;

      ps->p++;
      v = parse_expr (ps);
      expect (ps, ')');
      return v;
    }
  if (g_ascii_isdigit (*ps->p) || *ps->p == '.')
    {
      char *end = NULL;
      double v = g_ascii_strtod (ps->p, &end);

      ps->p = end;
      return v;
    }
  /* A function name: capitals followed by '('. */
  {
    const char *q = ps->p;

    while (g_ascii_isupper (*q))
      q++;
    if (q > ps->p && *q == '(')
      {
        g_autofree char *name = g_strndup (ps->p, q - ps->p);

        ps->p = q;
        return parse_function (ps, name);
      }
  }
  {
    g_autofree char *sheet = NULL, *ref = NULL;
    guint c0, r0, c1, r1;

    if (!parse_ref (ps, &sheet, &c0, &r0, &c1, &r1))
      g_error ("formula: cannot read \"%s\"", ps->p);
    g_assert_true (c0 == c1 && r0 == r1);
    ref = ref_name (c0, r0);
    return eval_cell (ps->book, sheet, ref);
  }
}

static double
parse_term (Parser *ps)
{
  double v = parse_factor (ps);

  for (;;)
    {
      skip_space (ps);
      if (*ps->p == '*')
        {
          ps->p++;
          v *= parse_factor (ps);
        }
      else if (*ps->p == '/')
        {
          ps->p++;
          v /= parse_factor (ps);
        }
      else
        return v;
    }
}

static double
parse_expr (Parser *ps)
{
  double v = parse_term (ps);

  for (;;)
    {
      skip_space (ps);
      if (*ps->p == '+')
        {
          ps->p++;
          v += parse_term (ps);
        }
      else if (*ps->p == '-')
        {
          ps->p++;
          v -= parse_term (ps);
        }
      else
        return v;
    }
}

/* A formula's value over the book's cells as they are now. */
static double
eval_formula (Book       *book,
              const char *sheet,
              const char *formula)
{
  Parser ps = { book, sheet, formula };
  double v = parse_expr (&ps);

  skip_space (&ps);
  if (*ps.p != '\0')
    g_error ("formula: trailing \"%s\" in %s", ps.p, formula);
  return v;
}

/* A cell's value: its formula recomputed, else its value; 0 when empty
 * or text, as Excel's arithmetic takes an empty cell. */
static double
eval_cell (Book       *book,
           const char *sheet,
           const char *ref)
{
  g_autofree char *key = g_strdup_printf ("%s!%s", sheet, ref);
  Cell *c = g_hash_table_lookup (book->cells, key);
  double *memo = g_hash_table_lookup (book->memo, key);
  double v;

  if (memo != NULL)
    return *memo;
  if (c == NULL || !c->number)
    return 0.0;
  v = c->formula != NULL ? eval_formula (book, sheet, c->formula) : c->value;
  g_hash_table_insert (book->memo, g_steal_pointer (&key), g_memdup2 (&v, sizeof v));
  return v;
}

static Cell *
cell_at (Book       *book,
         const char *sheet,
         char        col,
         guint       row)
{
  g_autofree char *ref = g_strdup_printf ("%c%u", col, row);
  return book_cell (book, sheet, ref);
}

static double
value_at (Book       *book,
          const char *sheet,
          char        col,
          guint       row)
{
  g_autofree char *ref = g_strdup_printf ("%c%u", col, row);
  return eval_cell (book, sheet, ref);
}

static void
set_at (Book       *book,
        const char *sheet,
        char        col,
        guint       row,
        double      value)
{
  g_autofree char *ref = g_strdup_printf ("%c%u", col, row);
  book_set (book, sheet, ref, value);
}

/* In minor units (cents): the evaluated value of a money cell. */
static QmMinor
cents (Book       *book,
       const char *sheet,
       char        col,
       guint       row)
{
  g_autofree char *ref = g_strdup_printf ("%c%u", col, row);
  return llround (eval_cell (book, sheet, ref) * 100);
}

/* Asserts that cell @col@row is a formula whose cached value is @minor
 * cents, the app's figure. */
static void
assert_formula_cents (Book       *book,
                      const char *sheet,
                      char        col,
                      guint       row,
                      QmMinor     minor)
{
  g_autofree char *ref = g_strdup_printf ("%c%u", col, row);
  Cell *c = book_cell (book, sheet, ref);

  if (c == NULL || c->formula == NULL)
    g_error ("%s!%s: no formula", sheet, ref);
  if (llround (c->value * 100) != minor)
    g_error ("%s!%s: cached %.2f, the app's figure %.2f", sheet, ref, c->value, minor / 100.0);
}

static char *
write_book (const QmQuote *q)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_user_data_dir (), "Q.xlsx", NULL);
  QmQuoteHeader h = { .number = "Q-2026-0001", .revision = "A", .customer = "Acme" };

  g_mkdir_with_parents (g_get_user_data_dir (), 0700);
  g_date_clear (&h.issued, 1);
  g_date_set_dmy (&h.issued, 25, 11, 2026);
  h.valid_days = 30;
  g_assert_true (qm_quote_write_xlsx (&h, q, path, &error));
  g_assert_no_error (error);
  return path;
}

/* Buy: 30 % deposit in month 0, four deliveries in months 3-6 paid a
 * month later; 12 weeks' lead time, net 30, EUR at 0.92. */
static void
test_buy_payments (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  g_autofree char *path = NULL, *quote = NULL, *flow = NULL;
  g_autofree char *gross_f = NULL, *deposit = NULL, *m0 = NULL, *m4 = NULL, *m7 = NULL, *m5 = NULL;
  g_autofree char *d1 = NULL, *d4 = NULL, *cum = NULL;
  double gross, v;

  qm_test_quote_cost (&cost);
  cost.horizon_months = 12;
  qm_quote_terms_init (&t, NULL);
  g_strlcpy (t.currency, "EUR", sizeof t.currency);
  t.exchange_rate = 0.92;
  t.tax_rate = 0.19;
  t.support_years = 0;
  t.n_phases = 4;
  for (guint k = 0; k < 4; k++)
    t.phases[k] = 0.25;
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, &q);
  g_assert_cmpuint (q.issues.n, ==, 0);
  g_assert_cmpuint (q.payment_month[0], ==, 4);
  g_assert_cmpuint (q.payment_month[3], ==, 7);

  path = write_book (&q);
  quote = qm_test_zip_member (path, "xl/worksheets/sheet1.xml");
  flow = qm_test_zip_member (path, "xl/worksheets/sheet2.xml");

  /* Three lines: rows 9-11, totals from row 13, the gross in H16. */
  gross_f = cell (quote, "H16", &gross);
  g_assert_cmpstr (gross_f, ==, "H13+H15");
  g_assert_cmpint (llround (gross * 100), ==, q.gross);

  /* The deposit: 30 % of the gross, rounded to the cent. */
  deposit = cell (flow, "L2", &v);
  g_assert_cmpstr (deposit, ==, "ROUND('Quote'!$H$16*K2,2)");
  g_assert_cmpint (llround (v * 100), ==, q.deposit);
  g_assert_true (has_value (flow, "K2", 0.3));

  /* The deliveries share what is left; the last takes the remainder. */
  d1 = cell (flow, "L3", &v);
  g_assert_cmpstr (d1, ==, "ROUND(('Quote'!$H$16-L2)*K3,2)");
  g_assert_cmpint (llround (v * 100), ==, q.phase_payment[0]);
  d4 = cell (flow, "L6", &v);
  g_assert_cmpstr (d4, ==, "'Quote'!$H$16-SUM(L2:L5)");
  g_assert_cmpint (llround (v * 100), ==, q.phase_payment[3]);
  g_assert_true (has_value (flow, "J6", 7));
  g_assert_true (has_value (flow, "K6", 0.25));

  /* Each month's payments name the cells due in it. */
  m0 = cell (flow, "B2", &v);
  g_assert_cmpstr (m0, ==, "L2");
  g_assert_cmpint (llround (v * 100), ==, q.months[0].payments);
  m4 = cell (flow, "B6", &v);
  g_assert_cmpstr (m4, ==, "L3");
  m7 = cell (flow, "B9", &v);
  g_assert_cmpstr (m7, ==, "L6");
  g_assert_cmpint (llround (v * 100), ==, q.months[7].payments);
  /* A month without payments keeps its plain 0. */
  g_assert_null (cell (flow, "B3", &v));
  g_assert_true (has_value (flow, "B3", 0));

  /* And the cumulative cash flow follows them. */
  m5 = cell (flow, "D7", &v);
  g_assert_cmpstr (m5, ==, "B7+C7");
  cum = cell (flow, "F13", &v);
  g_assert_cmpstr (cum, ==, "F12+D13");
  g_assert_cmpint (llround (v * 100), ==, q.spend_total);

  g_unlink (path);
}

/* Rent: the gross in equal monthly parts, the last month the remainder. */
static void
test_rent_payments (void)
{
  QmCost cost;
  QmQuoteTerms t;
  QmQuote q;
  g_autofree char *path = NULL, *flow = NULL, *first = NULL, *last = NULL;
  double v;

  memset (&cost, 0, sizeof cost);
  cost.bom[0] = (QmBomLine) { .item = "GPU-hours", .qty = 100000, .unit_usd = 2.5, .total_usd = 250000 };
  cost.n_bom = 1;
  qm_quote_terms_init (&t, NULL);
  qm_quote_compute (&cost, QM_PRICING_RENT_ON_DEMAND, 3, &t, &q);
  g_assert_cmpuint (q.n_months, ==, 3);

  path = write_book (&q);
  flow = qm_test_zip_member (path, "xl/worksheets/sheet2.xml");
  first = cell (flow, "B2", &v);
  g_assert_cmpstr (first, ==, "ROUND('Quote'!$H$14/3,2)");
  g_assert_cmpint (llround (v * 100), ==, q.months[0].payments);
  last = cell (flow, "B4", &v);
  g_assert_cmpstr (last, ==, "'Quote'!$H$14-SUM(B2:B3)");
  g_assert_cmpint (llround (v * 100), ==, q.months[2].payments);
  /* No deposit or deliveries. */
  g_assert_null (strstr (flow, "<c r=\"L2\""));
  g_unlink (path);
}

/* The workbook's header says the date the prices are as of, the one the
 * core gives for the plan (qm_prices_as_of), and past the age limit on
 * the issue date the core's warning; not before it (issue #35 item 6). */
static void
test_prices_as_of (void)
{
  g_autofree char *plan_path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples",
                                                 "llama-3.1-70b-quote-eur.qmplan", NULL);
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  g_autoptr(GError) error = NULL;
  GDate as_of;
  const struct { guint d, m, y; gboolean old; } issues[] = {
    { 28, 11, 2026, TRUE }, { 15, 6, 2025, FALSE },
  };

  g_assert_true (qm_plan_load_from_file (plan, plan_path, NULL, &error));
  g_assert_no_error (error);
  qm_estimate (plan, e);
  qm_estimate_quote (plan, e, q);
  g_assert_true (qm_prices_as_of (e, &as_of));

  for (guint k = 0; k < G_N_ELEMENTS (issues); k++)
    {
      g_autofree char *path = g_build_filename (g_get_user_data_dir (), "P.xlsx", NULL);
      g_autofree char *strings = NULL, *sheet = NULL, *date = NULL, *warning = NULL;
      QmQuoteHeader h = { .number = "Q-2026-0002", .customer = "Acme", .valid_days = 30 };

      g_mkdir_with_parents (g_get_user_data_dir (), 0700);
      g_date_clear (&h.issued, 1);
      g_date_set_dmy (&h.issued, issues[k].d, issues[k].m, issues[k].y);
      qm_quote_header_set_prices (&h, e, 6);
      g_assert_cmpint (g_date_compare (&h.prices_as_of, &as_of), ==, 0);
      g_assert_true (qm_quote_write_xlsx (&h, q, path, &error));
      g_assert_no_error (error);
      strings = qm_test_zip_member (path, "xl/sharedStrings.xml");
      sheet = qm_test_zip_member (path, "xl/worksheets/sheet1.xml");
      date = qm_price_date_format (&as_of);
      warning = qm_price_age_warning (&as_of, &h.issued, 6);
      g_assert_nonnull (strstr (strings, ">Prices as of<"));
      g_assert_nonnull (strstr (strings, date));
      /* Row 7: the label and the date; C7 the warning when old. */
      g_assert_nonnull (strstr (sheet, "<c r=\"A7\""));
      g_assert_nonnull (strstr (sheet, "<c r=\"B7\""));
      if (issues[k].old)
        {
          g_assert_nonnull (warning);
          g_assert_nonnull (strstr (strings, warning));
          g_assert_nonnull (strstr (sheet, "<c r=\"C7\""));
        }
      else
        {
          g_assert_null (warning);
          g_assert_null (strstr (strings, "check them with your vendors"));
          g_assert_null (strstr (sheet, "<c r=\"C7\""));
        }
      g_unlink (path);
    }
}

/* ------------------------------------------------------------------ */
/* Derived lines and totals as formulas (issue #35 item 2).             */

/* EUR at 0.92 per dollar and 19 % VAT; @server_discount off the servers
 * and 5 % off the switches; a quarter of the servers as spares, which
 * the customer may drop; 3 years' support at 8 % of list a year; 2 %
 * shipping; four deliveries. */
static void
derived_terms (QmQuoteTerms *t,
               double        server_discount)
{
  qm_quote_terms_init (t, NULL);
  g_strlcpy (t->currency, "EUR", sizeof t->currency);
  t->exchange_rate = 0.92;
  t->tax_rate = 0.19;
  t->support_years = 3;
  t->support_rate = 0.08;
  t->spares_fraction = 0.25;
  t->shipping_fraction = 0.02;
  t->optional_lines = QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_SPARES);
  t->n_phases = 4;
  for (guint k = 0; k < 4; k++)
    t->phases[k] = 0.25;
  g_strlcpy (t->items[0].key, "servers:dgx-h100", sizeof t->items[0].key);
  t->items[0].discount_kind = QM_DISCOUNT_FRACTION;
  t->items[0].discount = server_discount;
  g_strlcpy (t->items[1].key, "compute-switches:ib-ndr-400", sizeof t->items[1].key);
  t->items[1].discount_kind = QM_DISCOUNT_FRACTION;
  t->items[1].discount = 0.05;
  t->n_items = 2;
}

/* The Excel row of @q's line @l on the Quote sheet, by its label. */
static guint
line_row_of (Book              *book,
             const QmQuoteLine *l)
{
  g_autofree char *label = qm_quote_line_label (l);
  guint row = book_find_row (book, "Quote", 'A', label);

  if (row == 0)
    g_error ("no row for the line \"%s\"", label);
  return row;
}

/* The book, recomputed by the evaluator, gives @q's figures to the cent:
 * every line's total, net, tax and gross, the deposit, the deliveries'
 * payments and every month's payments and cumulative spend. */
static void
assert_book_gives (Book          *book,
                   const QmQuote *q)
{
  guint net = book_find_row (book, "Quote", 'G', "Net");

  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *l = &q->lines[i];
      guint row = line_row_of (book, l);

      g_assert_cmpint (cents (book, "Quote", 'E', row), ==, l->list_unit);
      g_assert_cmpint (cents (book, "Quote", 'G', row), ==, l->net_unit);
      g_assert_cmpint (cents (book, "Quote", 'H', row), ==, l->total);
    }
  g_assert_cmpuint (net, >, 0);
  g_assert_cmpint (cents (book, "Quote", 'H', net), ==, q->net);
  g_assert_cmpint (cents (book, "Quote", 'H', net + 2), ==, q->tax);
  g_assert_cmpint (cents (book, "Quote", 'H', net + 3), ==, q->gross);
  g_assert_cmpint (cents (book, "Cash flow", 'L', 2), ==, q->deposit);
  for (guint k = 0; k < q->n_phases; k++)
    g_assert_cmpint (cents (book, "Cash flow", 'L', 3 + k), ==, q->phase_payment[k]);
  for (guint m = 0; m < q->n_months; m++)
    {
      g_assert_cmpint (cents (book, "Cash flow", 'B', m + 2), ==, q->months[m].payments);
      g_assert_cmpint (cents (book, "Cash flow", 'F', m + 2), ==, q->months[m].spend_cumulative);
    }
}

/* Every formula, recomputed from the cells it names, gives the value it
 * carries: the workbook agrees with itself before anyone edits it.
 * Returns how many formulas there are. */
static guint
assert_book_recomputes (Book *book)
{
  GHashTableIter it;
  gpointer key, value;
  guint n = 0;

  g_hash_table_iter_init (&it, book->cells);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      Cell *c = value;
      g_auto(GStrv) parts = g_strsplit (key, "!", 2);
      double v;

      if (c->formula == NULL)
        continue;
      v = eval_cell (book, parts[0], parts[1]);
      if (!(fabs (v - c->value) <= 1e-6))
        g_error ("%s = %s recomputes to %.9g, carries %.9g", (char *) key, c->formula, v, c->value);
      n++;
    }
  return n;
}

static void
test_derived_formulas (void)
{
  QmCost cost;
  QmQuoteTerms t;
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  g_autofree char *path = NULL, *shipping = NULL, *install = NULL;
  g_autoptr(Book) book = NULL;
  guint servers, switches, spares, net;
  const QmQuoteLine *ship_line = NULL;

  qm_test_quote_cost (&cost);
  derived_terms (&t, 0.12);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, q);
  g_assert_cmpuint (q->issues.n, ==, 0);
  path = write_book (q);
  book = book_read (path);

  g_assert_cmpuint (assert_book_recomputes (book), >, 30);

  /* Every derived cell is a formula carrying the app's figure. */
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *l = &q->lines[i];
      guint row = line_row_of (book, l);
      g_autofree char *qty_ref = g_strdup_printf ("D%u", row);
      Cell *qty = book_cell (book, "Quote", qty_ref);

      assert_formula_cents (book, "Quote", 'G', row, l->net_unit);
      assert_formula_cents (book, "Quote", 'H', row, l->total);
      if (l->kind == QM_QUOTE_LINE_HARDWARE)
        {
          /* What a buyer types: plain values. */
          g_assert_null (qty->formula);
          g_assert_null (cell_at (book, "Quote", 'E', row)->formula);
          continue;
        }
      assert_formula_cents (book, "Quote", 'E', row, l->list_unit);
      if (l->kind == QM_QUOTE_LINE_SPARES || l->kind == QM_QUOTE_LINE_SUPPORT)
        {
          g_assert_nonnull (qty->formula);
          g_assert_cmpfloat (qty->value, ==, l->qty);
        }
      if (l->kind == QM_QUOTE_LINE_SHIPPING)
        ship_line = l;
    }
  g_assert_nonnull (ship_line);
  net = book_find_row (book, "Quote", 'G', "Net");
  assert_formula_cents (book, "Quote", 'H', net, q->net);
  assert_formula_cents (book, "Quote", 'H', net + 2, q->tax);
  assert_formula_cents (book, "Quote", 'H', net + 3, q->gross);
  assert_formula_cents (book, "Cash flow", 'L', 2, q->deposit);
  for (guint k = 0; k < q->n_phases; k++)
    assert_formula_cents (book, "Cash flow", 'L', 3 + k, q->phase_payment[k]);

  /* The right cells: shipping is its rate × the accepted hardware and
   * spares' totals; installation its share × the hardware at list. */
  servers = book_find_row (book, "Quote", 'A', "Servers");
  switches = book_find_row (book, "Quote", 'A', "Compute fabric switches");
  spares = book_find_row (book, "Quote", 'A', "Spare servers");
  g_assert_cmpuint (switches, ==, servers + 1);
  shipping = g_strdup_printf ("ROUND(J%u*(SUMPRODUCT(H%u:H%u,I%u:I%u)+SUMPRODUCT(H%u:H%u,I%u:I%u)),2)",
                              line_row_of (book, ship_line), servers, switches, servers, switches,
                              spares, spares, spares, spares);
  g_assert_cmpstr (cell_at (book, "Quote", 'E', line_row_of (book, ship_line))->formula,
                   ==, shipping);
  install = g_strdup_printf ("ROUND(J%u*(SUMPRODUCT(D%u:D%u,E%u:E%u)),2)", switches + 1, servers, switches,
                             servers, switches);
  g_assert_cmpstr (cell_at (book, "Quote", 'E', switches + 1)->formula, ==, install);
  /* The rates as the terms state them. */
  g_assert_cmpfloat_with_epsilon (value_at (book, "Quote", 'J', spares), 0.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (value_at (book, "Quote", 'J', line_row_of (book, ship_line)),
                                  0.02, 1e-12);
  g_assert_cmpfloat_with_epsilon (value_at (book, "Quote", 'J', switches + 1), 0.05, 1e-12);
  assert_book_gives (book, q);
  g_unlink (path);
}

/* A buyer's edit in the workbook moves what the core moves: the same
 * change made in the quote's terms (or the plan's quantities) and
 * computed by the core gives the figures the evaluator recomputes. */
static void
test_derived_follow_edits (void)
{
  QmCost cost;
  QmQuoteTerms t;
  g_autofree QmQuote *q = g_new0 (QmQuote, 1), *changed = g_new0 (QmQuote, 1);
  g_autofree char *path = NULL;
  guint servers, spares, shipping, install;
  QmMinor shipping_before, install_before;

  qm_test_quote_cost (&cost);
  derived_terms (&t, 0.12);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, q);
  path = write_book (q);

  /* 20 % off the servers instead of 12 %: spares follow the servers'
   * price, shipping the net, and so the gross and every payment; the
   * installation is priced on list and stays. */
  {
    g_autoptr(Book) book = book_read (path);

    servers = book_find_row (book, "Quote", 'A', "Servers");
    shipping = book_find_row (book, "Quote", 'A', "Shipping");
    install = book_find_row (book, "Quote", 'A', "Installation");
    shipping_before = cents (book, "Quote", 'H', shipping);
    install_before = cents (book, "Quote", 'H', install);
    set_at (book, "Quote", 'F', servers, 0.20);
    derived_terms (&t, 0.20);
    qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, changed);
    g_assert_cmpint (changed->issues.n, ==, 0);
    assert_book_gives (book, changed);
    g_assert_cmpint (cents (book, "Quote", 'H', shipping), <, shipping_before);
    g_assert_cmpint (cents (book, "Quote", 'H', install), ==, install_before);
    g_assert_cmpint (changed->gross, <, q->gross);
  }

  /* The customer drops the optional spares: shipping and the totals
   * leave them out. */
  {
    g_autoptr(Book) book = book_read (path);

    spares = book_find_row (book, "Quote", 'A', "Spare servers");
    set_at (book, "Quote", 'I', spares, 0);
    derived_terms (&t, 0.12);
    t.declined_lines = QM_QUOTE_LINE_BIT (QM_QUOTE_LINE_SPARES);
    qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, changed);
    assert_book_gives (book, changed);
    g_assert_cmpint (cents (book, "Quote", 'H', shipping), <, shipping_before);
  }

  /* Eight servers instead of four: two spares, support on eight, and
   * installation, 5 % of the hardware at list (qm-cost.c), on the new
   * hardware. The core is given the cost of the plan with eight. */
  {
    g_autoptr(Book) book = book_read (path);

    set_at (book, "Quote", 'D', servers, 8);
    derived_terms (&t, 0.12);
    cost.bom[0].qty = 8;
    cost.bom[0].total_usd = 8 * 300000.0;
    cost.hardware_usd = cost.bom[0].total_usd + cost.bom[1].total_usd;
    cost.install_usd = 0.05 * cost.hardware_usd;
    cost.bom[2].unit_usd = cost.hardware_usd;
    cost.bom[2].total_usd = cost.install_usd;
    qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, changed);
    g_assert_cmpfloat (qm_quote_find_line (changed, "spares/servers:dgx-h100")->qty, ==, 2);
    assert_book_gives (book, changed);
    g_assert_cmpint (cents (book, "Quote", 'H', install), >, install_before);
  }
  g_unlink (path);
}

/* Prices that do not convert to whole cents and a sized quantity (storage
 * terabytes) the quote rounds up: the cached figures are still the app's,
 * every formula recomputes to them, and a changed discount still gives
 * the core's shipping, totals and payments to the cent. */
static void
rounding_cost (QmCost *cost)
{
  memset (cost, 0, sizeof *cost);
  cost->bom[0] = (QmBomLine) { .item = "Servers", .catalog_id = "hgx-h100-8", .qty = 3,
                               .unit_usd = 287431.17, .total_usd = 3 * 287431.17 };
  cost->bom[1] = (QmBomLine) { .item = "Fabric cables", .catalog_id = "ib-ndr-400", .qty = 157,
                               .unit_usd = 123.45, .total_usd = 157 * 123.45 };
  cost->bom[2] = (QmBomLine) { .item = "Storage capacity (TB)", .catalog_id = "nvme-tier", .qty = 1234.56,
                               .unit_usd = 87.13, .total_usd = 1234.56 * 87.13 };
  cost->hardware_usd = cost->bom[0].total_usd + cost->bom[1].total_usd + cost->bom[2].total_usd;
  cost->install_usd = 0.05 * cost->hardware_usd;
  cost->bom[3] = (QmBomLine) { .item = "Installation", .qty = 0.05,
                               .unit_usd = cost->hardware_usd, .total_usd = cost->install_usd };
  cost->n_bom = 4;
  cost->horizon_months = 36;
  cost->power_monthly = 7345.67;
  cost->colo_monthly = 1234.5;
  cost->rent_monthly = 65432.1;
}

static void
rounding_terms (QmQuoteTerms *t,
                double        server_discount)
{
  qm_quote_terms_init (t, NULL);
  g_strlcpy (t->currency, "EUR", sizeof t->currency);
  t->exchange_rate = 0.9137;
  t->tax_rate = 0.19;
  t->support_years = 3;
  t->support_rate = 0.07;
  t->spares_fraction = 0.1;
  t->shipping_fraction = 0.015;
  t->n_phases = 3;
  t->phases[0] = 0.5;
  t->phases[1] = 0.3;
  t->phases[2] = 0.2;
  g_strlcpy (t->items[0].key, "servers:hgx-h100-8", sizeof t->items[0].key);
  t->items[0].discount_kind = QM_DISCOUNT_FRACTION;
  t->items[0].discount = server_discount;
  t->n_items = 1;
}

static void
test_derived_rounding (void)
{
  QmCost cost;
  QmQuoteTerms t;
  g_autofree QmQuote *q = g_new0 (QmQuote, 1), *changed = g_new0 (QmQuote, 1);
  g_autofree char *path = NULL;
  g_autoptr(Book) book = NULL;
  guint servers;

  rounding_cost (&cost);
  rounding_terms (&t, 0.117);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, q);
  g_assert_cmpuint (q->issues.n, ==, 0);
  /* The storage line is bought in whole terabytes. */
  g_assert_cmpfloat (qm_quote_find_line (q, "storage-capacity:nvme-tier")->qty, ==, 1235);
  path = write_book (q);
  book = book_read (path);
  g_assert_cmpuint (assert_book_recomputes (book), >, 30);
  assert_book_gives (book, q);

  servers = book_find_row (book, "Quote", 'A', "Servers");
  set_at (book, "Quote", 'F', servers, 0.083);
  rounding_terms (&t, 0.083);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, changed);
  assert_book_gives (book, changed);
  g_unlink (path);
}

/* The quote date and the last valid day are dates, not text. */
static gboolean
is_date_format (const char *code)
{
  return strcmp (code, "builtin-date") == 0
         || (strstr (code, "yy") != NULL && strchr (code, 'd') != NULL && strchr (code, '#') == NULL);
}

static void
test_dates (void)
{
  QmCost cost;
  QmQuoteTerms t;
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  g_autofree char *path = NULL, *until = NULL;
  g_autoptr(Book) book = NULL;
  GDate epoch, issued;
  double serial;
  guint row;
  Cell *c;

  qm_test_quote_cost (&cost);
  qm_quote_terms_init (&t, NULL);
  qm_quote_compute (&cost, QM_PRICING_BUY, 2, &t, q);
  path = write_book (q);
  book = book_read (path);

  /* Excel's serial: days since 1899-12-30 (the 1900 date system). */
  g_date_clear (&epoch, 1);
  g_date_set_dmy (&epoch, 30, 12, 1899);
  g_date_clear (&issued, 1);
  g_date_set_dmy (&issued, 25, 11, 2026);
  serial = g_date_get_julian (&issued) - g_date_get_julian (&epoch);
  g_assert_cmpfloat (serial, ==, 46351);

  row = book_find_row (book, "Quote", 'A', "Issued");
  g_assert_cmpuint (row, >, 0);
  c = cell_at (book, "Quote", 'B', row);
  g_assert_nonnull (c);
  g_assert_true (c->number);
  g_assert_null (c->formula);
  g_assert_cmpfloat (c->value, ==, serial);
  g_assert_cmpuint (c->style, <, book->n_xfs);
  g_assert_true (is_date_format (book->xf_formats[c->style]));

  /* Valid 30 days: the quote date's cell + 30. */
  row = book_find_row (book, "Quote", 'A', "Valid until");
  c = cell_at (book, "Quote", 'B', row);
  g_assert_nonnull (c);
  until = g_strdup_printf ("B%u+30", row - 1);
  g_assert_cmpstr (c->formula, ==, until);
  g_assert_cmpfloat (c->value, ==, serial + 30);
  g_assert_cmpfloat (value_at (book, "Quote", 'B', row), ==, serial + 30);
  g_assert_true (is_date_format (book->xf_formats[c->style]));

  /* No date left as text. */
  g_assert_cmpuint (book_find_row (book, "Quote", 'B', "2026-11-25"), ==, 0);
  g_assert_cmpuint (book_find_row (book, "Quote", 'B', "2026-12-25"), ==, 0);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/quote-xlsx/buy-payments", test_buy_payments);
  g_test_add_func ("/quote-xlsx/rent-payments", test_rent_payments);
  g_test_add_func ("/quote-xlsx/prices-as-of", test_prices_as_of);
  g_test_add_func ("/quote-xlsx/derived-formulas", test_derived_formulas);
  g_test_add_func ("/quote-xlsx/derived-follow-edits", test_derived_follow_edits);
  g_test_add_func ("/quote-xlsx/derived-rounding", test_derived_rounding);
  g_test_add_func ("/quote-xlsx/dates", test_dates);
  return g_test_run ();
}
