/* qm-csv.c: RFC 4180 CSV reading and writing.
 *
 * Vendor price lists come out of spreadsheets: Excel writes a UTF-8 BOM and
 * CRLF, LibreOffice writes LF, and names like `HGX H100 8-GPU, 2U "Delta"`
 * arrive quoted with doubled quotes. The parser is a small state machine over
 * the whole buffer, so a quoted field may hold commas and line breaks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-csv.h"

#include <string.h>

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
              if (p < end && *p != ',' && *p != '\r' && *p != '\n')
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
      else if (c == ',')
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
