/* qm-csv.c: RFC 4180 CSV reading and writing.
 *
 * Vendor price lists come out of spreadsheets: Excel writes a UTF-8 BOM and
 * CRLF, LibreOffice writes LF, and names like `HGX H100 8-GPU, 2U "Delta"`
 * arrive quoted with doubled quotes. The parser is a small state machine over
 * the whole buffer, so a quoted field may hold commas and line breaks.
 * Where the decimal mark is a comma, spreadsheets write ';' between cells
 * and "1.234,5" for numbers, and Excel's plain "CSV" is Windows-1252:
 * qm_csv_read() detects all three, and the numbers parse either way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-csv.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "qm-format.h"

G_DEFINE_QUARK (qm-csv-error-quark, qm_csv_error)

void
qm_csv_record_free (QmCsvRecord *record)
{
  if (record == NULL)
    return;
  g_clear_pointer (&record->fields, g_ptr_array_unref);
  g_free (record);
}

static QmCsvRecord *
record_new (guint line)
{
  QmCsvRecord *r = g_new0 (QmCsvRecord, 1);

  r->fields = g_ptr_array_new_with_free_func (g_free);
  r->line = line;
  return r;
}

/* A spreadsheet runs a cell that starts with one of these as a formula
 * (OWASP, "CSV Injection"). */
static gboolean
is_formula_start (char c)
{
  return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

/* A plain number, as the writers print them ("-12", "3.5", "1,25",
 * "2e-3"): a spreadsheet reads it as a number, and it must stay one. */
static gboolean
is_plain_number (const char *s)
{
  gboolean digits = FALSE;

  if (*s == '+' || *s == '-')
    s++;
  for (; g_ascii_isdigit (*s); s++)
    digits = TRUE;
  if (*s == '.' || *s == ',')
    for (s++; g_ascii_isdigit (*s); s++)
      digits = TRUE;
  if (digits && (*s == 'e' || *s == 'E'))
    {
      s++;
      if (*s == '+' || *s == '-')
        s++;
      if (!g_ascii_isdigit (*s))
        return FALSE;
      while (g_ascii_isdigit (*s))
        s++;
    }
  return digits && *s == '\0';
}

/* The writer's single quote before a formula-like text (or before a text
 * that starts with a quote) is not part of the value. */
static char *
take_field (GString *field)
{
  if (field->len >= 2 && field->str[0] == '\'' &&
      (is_formula_start (field->str[1]) || field->str[1] == '\''))
    return g_strndup (field->str + 1, field->len - 1);
  return g_strndup (field->str, field->len);
}

/* A record that is one empty, unquoted field is a blank line. */
static gboolean
record_is_blank (QmCsvRecord *r,
                 gboolean     any_quoted)
{
  return !any_quoted && r->fields->len == 1 &&
         ((const char *) r->fields->pdata[0])[0] == '\0';
}

/* FALSE, with an error naming the line, unless @p to @end is UTF-8. */
static gboolean
check_utf8 (const char  *data,
            const char  *p,
            const char  *end,
            GError     **error)
{
  const char *bad = NULL;
  guint bad_line = 1;

  if (g_utf8_validate (p, end - p, &bad))
    return TRUE;
  for (const char *q = data; q < bad; q++)
    if (*q == '\n')
      bad_line++;
  g_set_error (error, QM_CSV_ERROR, QM_CSV_ERROR_ENCODING,
               "line %u: the file is not UTF-8 (byte 0x%02x); "
               "save it as \"CSV UTF-8\" and try again",
               bad_line, (guchar) *bad);
  return FALSE;
}

/* Keeps a finished record, or drops it when it is blank. */
static void
finish_record (GPtrArray   *records,
               QmCsvRecord *record,
               gboolean     any_quoted)
{
  if (record_is_blank (record, any_quoted))
    qm_csv_record_free (record);
  else
    g_ptr_array_add (records, record);
}

GPtrArray *
qm_csv_parse (const char  *data,
              gsize        length,
              GError     **error)
{
  return qm_csv_parse_separated (data, length, ',', error);
}

GPtrArray *
qm_csv_parse_separated (const char  *data,
                        gsize        length,
                        char         separator,
                        GError     **error)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_csv_record_free);
  g_autoptr(GString) field = g_string_new (NULL);
  QmCsvRecord *record = NULL;
  const char *p = data;
  const char *end = data + length;
  guint line = 1;
  gboolean in_quotes = FALSE;
  gboolean was_quoted = FALSE;  /* the current field was quoted */
  gboolean any_quoted = FALSE;  /* some field of the record was */
  guint quote_line = 0;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    p += 3;

  if (!check_utf8 (data, p, end, error))
    return NULL;

  record = record_new (line);
  while (p < end)
    {
      char c = *p;

      if (in_quotes)
        {
          if (c == '"')
            {
              if (p + 1 < end && p[1] == '"')
                {
                  g_string_append_c (field, '"');
                  p += 2;
                  continue;
                }
              in_quotes = FALSE;
              p++;
              /* After a closing quote only a separator or a line end may follow. */
              if (p < end && *p != separator && *p != '\r' && *p != '\n')
                {
                  g_set_error (error, QM_CSV_ERROR, QM_CSV_ERROR_QUOTE,
                               "line %u, column %u: unexpected text after a closing "
                               "quote (write a quote inside a quoted field as \"\")",
                               line, record->fields->len + 1);
                  qm_csv_record_free (record);
                  return NULL;
                }
              continue;
            }
          if (c == '\n')
            line++;
          else if (c == '\r' && !(p + 1 < end && p[1] == '\n'))
            line++;
          g_string_append_c (field, c);
          p++;
          continue;
        }

      if (c == '"' && field->len == 0 && !was_quoted)
        {
          in_quotes = TRUE;
          was_quoted = TRUE;
          any_quoted = TRUE;
          quote_line = line;
          p++;
        }
      else if (c == separator)
        {
          g_ptr_array_add (record->fields, take_field (field));
          g_string_truncate (field, 0);
          was_quoted = FALSE;
          p++;
        }
      else if (c == '\r' || c == '\n')
        {
          g_ptr_array_add (record->fields, take_field (field));
          g_string_truncate (field, 0);
          was_quoted = FALSE;
          finish_record (records, record, any_quoted);
          any_quoted = FALSE;
          if (c == '\r' && p + 1 < end && p[1] == '\n')
            p++;
          p++;
          line++;
          record = record_new (line);
        }
      else
        {
          /* A stray quote inside an unquoted field is kept as text, as
           * spreadsheets do; the field is not an RFC 4180 quoted field. */
          g_string_append_c (field, c);
          p++;
        }
    }

  if (in_quotes)
    {
      g_set_error (error, QM_CSV_ERROR, QM_CSV_ERROR_QUOTE,
                   "line %u, column %u: a quoted field is never closed",
                   quote_line, record->fields->len + 1);
      qm_csv_record_free (record);
      return NULL;
    }

  /* The last record may lack a line end. */
  g_ptr_array_add (record->fields, take_field (field));
  finish_record (records, record, any_quoted);

  if (records->len == 0)
    {
      g_set_error (error, QM_CSV_ERROR, QM_CSV_ERROR_EMPTY,
                   "the file is empty: expected a header row such as id,name,price_usd");
      return NULL;
    }

  return g_steal_pointer (&records);
}

void
qm_csv_append_field (GString    *out,
                     const char *field,
                     char        separator)
{
  gboolean quote;
  gboolean neutralise;
  size_t len;

  if (field == NULL)
    field = "";
  len = strlen (field);
  /* A name such as "=HYPERLINK(...)" from a plan or a vendor file must
   * reach the spreadsheet as text, never as a live formula. */
  neutralise = (is_formula_start (field[0]) && !is_plain_number (field)) ||
               (field[0] == '\'' && (is_formula_start (field[1]) || field[1] == '\''));
  quote = neutralise || strchr (field, separator) != NULL || strpbrk (field, "\"\r\n") != NULL ||
          (len > 0 && (g_ascii_isspace (field[0]) || g_ascii_isspace (field[len - 1])));
  if (!quote)
    {
      g_string_append (out, field);
      return;
    }

  g_string_append_c (out, '"');
  if (neutralise)
    g_string_append_c (out, '\'');
  for (const char *p = field; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

void
qm_csv_append_row (GString            *out,
                   const char * const *fields,
                   guint               n_fields,
                   char                separator)
{
  for (guint i = 0; i < n_fields; i++)
    {
      if (i > 0)
        g_string_append_c (out, separator);
      qm_csv_append_field (out, fields[i], separator);
    }
  g_string_append (out, "\r\n");
}

/* ------------------------------------------------------------------ */
/* Conventions across locales.                                         */

void
qm_csv_dialect_for_locale (QmCsvDialect *dialect)
{
  /* Excel and LibreOffice write ';' between cells where ',' is the
   * decimal mark, so that "12,5" needs no quotes. */
  gboolean comma = g_str_equal (qm_format_decimal_point (), ",");

  *dialect = QM_CSV_DIALECT_C;
  dialect->separator = comma ? ';' : ',';
  dialect->decimal_mark = comma ? ',' : '.';
  dialect->sep_line = TRUE;
}

gboolean
qm_csv_dialect_from_string (const char   *name,
                            QmCsvDialect *dialect)
{
  if (g_strcmp0 (name, "c") == 0)
    *dialect = QM_CSV_DIALECT_C;
  else if (g_strcmp0 (name, "user") == 0)
    qm_csv_dialect_for_locale (dialect);
  else
    return FALSE;
  return TRUE;
}

const char *
qm_csv_separator_name (char separator)
{
  switch (separator)
    {
    case ';':
      return _("semicolon");
    case '\t':
      return _("tab");
    case ',':
    default:
      return _("comma");
    }
}

char
qm_csv_detect_separator (const char *line,
                         gsize       length)
{
  guint n_comma = 0, n_semi = 0, n_tab = 0;
  gboolean in_quotes = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = line[i];

      if (c == '"')
        in_quotes = !in_quotes;   /* a doubled quote toggles twice */
      else if (in_quotes)
        continue;
      else if (c == '\r' || c == '\n')
        break;
      else if (c == ',')
        n_comma++;
      else if (c == ';')
        n_semi++;
      else if (c == '\t')
        n_tab++;
    }
  if (n_semi > n_comma && n_semi >= n_tab)
    return ';';
  if (n_tab > n_comma && n_tab > n_semi)
    return '\t';
  return ',';
}

/* Whether @cell, written with digits, '.' and ',' (a sign, '$', '€', '%'
 * and spaces around them aside), shows its decimal mark:
 *  - both marks ("1.234,56", "1,234.56"): the last one is the decimal mark;
 *  - one mark twice or more, each followed by exactly three digits and the
 *    first group 1-3 digits ("1.234.567"): it groups, the other is decimal;
 *  - one mark once: it is the decimal mark, unless exactly three digits
 *    follow it and 1-3 digits not starting with 0 precede it ("1.234",
 *    "12,500"), which either convention writes: no vote.
 * Returns the decimal mark shown, or 0. */
static char
number_evidence (const char *cell)
{
  g_autoptr(GString) body = g_string_new (NULL);
  const char *p = cell;
  char last = 0, first = 0;
  guint n_marks = 0, digits_before = 0, group = 0;
  gboolean groups_of_three = TRUE;

  while (*p == ' ')
    p++;
  if (*p == '-' || *p == '+')
    p++;
  if (*p == '$')
    p++;
  while (*p == ' ')
    p++;
  for (; g_ascii_isdigit (*p) || *p == '.' || *p == ','; p++)
    g_string_append_c (body, *p);
  while (*p == ' ')
    p++;
  if (*p == '%')
    p++;
  else if (g_str_has_prefix (p, "\xe2\x82\xac"))
    p += 3;
  while (*p == ' ')
    p++;
  /* Text, a date or a range: no number. */
  if (*p != '\0' || body->len == 0 || !g_ascii_isdigit (body->str[0]) ||
      !g_ascii_isdigit (body->str[body->len - 1]) || strpbrk (body->str, ".,") == NULL)
    return 0;
  for (const char *b = body->str; *b; b++)
    {
      if (*b == '.' || *b == ',')
        {
          if (first == 0)
            {
              first = *b;
              digits_before = group;
            }
          else if (group != 3)
            groups_of_three = FALSE;
          last = *b;
          n_marks++;
          group = 0;
        }
      else
        group++;
    }
  if (first != last)
    return last;
  if (n_marks >= 2)
    return groups_of_three && group == 3 && digits_before >= 1 && digits_before <= 3
           ? (first == '.' ? ',' : '.') : 0;
  if (group == 3 && digits_before >= 1 && digits_before <= 3 && body->str[0] != '0')
    return 0;
  return first;
}

char
qm_csv_detect_decimal_mark (GPtrArray *records,
                            char       separator)
{
  guint n_comma = 0, n_point = 0;

  /* A comma between cells cannot also be the decimal mark of bare numbers. */
  if (separator == ',')
    return '.';
  for (guint r = 1; records != NULL && r < records->len; r++)
    {
      QmCsvRecord *record = records->pdata[r];

      for (guint f = 0; f < record->fields->len; f++)
        {
          char mark = number_evidence (record->fields->pdata[f]);

          n_comma += mark == ',';
          n_point += mark == '.';
        }
    }
  if (n_point != n_comma)
    return n_point > n_comma ? '.' : ',';
  /* No evidence either way: ';' is what spreadsheets write where the
   * decimal mark is a comma; a tab-separated file is taken as written by
   * a program. */
  return separator == ';' ? ',' : '.';
}

/* @data as UTF-8 (a copy), and the encoding it was in. Excel's plain "CSV"
 * saves in the Windows code page, Windows-1252 in Western Europe; the
 * bytes it leaves undefined make the file Latin-1. Its "Unicode Text" is
 * UTF-16 after a byte order mark, tab-separated. */
static char *
to_utf8 (const char  *data,
         gsize        length,
         gsize       *out_length,
         const char **encoding)
{
  static const char * const encodings[] = { "WINDOWS-1252", "ISO-8859-1" };

  if (length >= 2 && ((guchar) data[0] == 0xff || (guchar) data[0] == 0xfe) &&
      (guchar) data[1] == ((guchar) data[0] ^ 0x01))
    {
      const char *utf16 = (guchar) data[0] == 0xff ? "UTF-16LE" : "UTF-16BE";
      char *text = g_convert (data + 2, length - 2, "UTF-8", utf16, NULL, out_length, NULL);

      if (text != NULL)
        {
          *encoding = utf16;
          return text;
        }
    }

  if (g_utf8_validate (data, length, NULL))
    {
      *encoding = "UTF-8";
      *out_length = length;
      return g_memdup2 (data, length);
    }
  for (guint i = 0; i < G_N_ELEMENTS (encodings); i++)
    {
      char *text = g_convert (data, length, "UTF-8", encodings[i], NULL, out_length, NULL);

      if (text != NULL)
        {
          *encoding = encodings[i];
          return text;
        }
    }
  *encoding = "UTF-8";   /* no iconv: the parser names the bad byte */
  *out_length = length;
  return g_memdup2 (data, length);
}

/* Excel's "sep=;" first line: the separator, and where the data start;
 * 0 when @text does not start with one. */
static char
sep_line (const char  *text,
          gsize        length,
          gsize       *skip)
{
  char sep;

  if (length < 5 || g_ascii_strncasecmp (text, "sep=", 4) != 0)
    return 0;
  sep = text[4];
  if (sep != ',' && sep != ';' && sep != '\t')
    return 0;
  *skip = 5;
  if (*skip < length && text[*skip] == '\r')
    (*skip)++;
  if (*skip < length && text[*skip] == '\n')
    (*skip)++;
  else if (*skip < length && text[*skip - 1] != '\r')
    return 0;
  return sep;
}

GPtrArray *
qm_csv_read (const char    *data,
             gsize          length,
             QmCsvDialect  *dialect,
             GError       **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) records = NULL;
  const char *start;
  gsize text_length = 0;
  gsize skip = 0;
  char stated;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (dialect != NULL, NULL);

  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    {
      data += 3;
      length -= 3;
    }
  text = to_utf8 (data, length, &text_length, &dialect->encoding);
  stated = sep_line (text, text_length, &skip);
  dialect->sep_line = stated != 0;
  start = text + skip;
  if (dialect->separator == 0)
    dialect->separator = stated != 0 ? stated : qm_csv_detect_separator (start, text_length - skip);

  records = qm_csv_parse_separated (start, text_length - skip, dialect->separator, error);
  if (records == NULL)
    return NULL;
  /* Line numbers stay the file's. */
  for (guint r = 0; skip > 0 && r < records->len; r++)
    ((QmCsvRecord *) records->pdata[r])->line++;
  if (dialect->decimal_mark == 0)
    dialect->decimal_mark = qm_csv_detect_decimal_mark (records, dialect->separator);
  return g_steal_pointer (&records);
}

gboolean
qm_csv_parse_number (const char *cell,
                     char        decimal_mark,
                     double     *out)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *trimmed = g_strstrip (g_strdup (cell));
  char group_mark = decimal_mark == ',' ? '.' : ',';
  gboolean grouped = FALSE, after_mark = FALSE;
  char *p = trimmed;
  char *end = NULL;

  if (g_str_has_suffix (p, "\xe2\x82\xac"))   /* "30.000 €" */
    {
      p[strlen (p) - 3] = '\0';
      g_strchomp (p);
    }
  if (*p == '-' || *p == '+')
    g_string_append_c (s, *p++);
  if (*p == '$')
    p++;
  while (*p == ' ')   /* "$ 14.500,00" */
    p++;
  for (; *p; p++)
    {
      /* A group mark has digits before it and exactly three after, and
       * comes before the decimal mark; a space may group as well. */
      gboolean space = *p == ' ' || g_str_has_prefix (p, "\xc2\xa0") || g_str_has_prefix (p, "\xe2\x80\xaf");

      if (*p == group_mark || space)
        {
          int w = *p == ' ' || *p == group_mark ? 1 : (guchar) *p == 0xc2 ? 2 : 3;

          if (after_mark || s->len == 0 || !g_ascii_isdigit (s->str[s->len - 1]) ||
              !(g_ascii_isdigit (p[w]) && g_ascii_isdigit (p[w + 1]) && g_ascii_isdigit (p[w + 2]) &&
                !g_ascii_isdigit (p[w + 3])))
            return FALSE;
          grouped = TRUE;
          p += w - 1;
          continue;
        }
      if (*p == decimal_mark)
        {
          after_mark = TRUE;
          g_string_append_c (s, '.');
          continue;
        }
      g_string_append_c (s, *p);
    }
  if (s->len == 0 || (grouped && strpbrk (s->str, "eE") != NULL))
    return FALSE;
  *out = g_ascii_strtod (s->str, &end);
  return end != NULL && *end == '\0' && end != s->str;
}

char *
qm_csv_format_number (double value,
                      char   decimal_mark)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char *dot;

  g_ascii_formatd (buf, sizeof buf, "%.15g", value);
  dot = strchr (buf, '.');
  if (dot != NULL && decimal_mark == ',')
    *dot = ',';
  return g_strdup (buf);
}

void
qm_csv_append_dialect_line (GString            *out,
                            const QmCsvDialect *dialect)
{
  if (dialect->sep_line)
    g_string_append_printf (out, "sep=%c\r\n", dialect->separator);
}
