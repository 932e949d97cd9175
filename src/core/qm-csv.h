/* qm-csv.h: RFC 4180 CSV reading and writing: catalog import/export and
 * the bill of materials, in the conventions spreadsheets use across
 * locales (the separator, the decimal mark, the encoding).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define QM_CSV_ERROR (qm_csv_error_quark ())

typedef enum
{
  QM_CSV_ERROR_ENCODING,   /* not UTF-8 */
  QM_CSV_ERROR_QUOTE,      /* an unterminated quote, or text after a closing quote */
  QM_CSV_ERROR_EMPTY,      /* no header row */
} QmCsvError;

/* One record: its fields, and the line of the file it starts on (1-based;
 * a quoted field may span lines, so line numbers can jump). */
typedef struct
{
  GPtrArray *fields;  /* of char *, UTF-8 */
  guint      line;
} QmCsvRecord;

GQuark     qm_csv_error_quark  (void);

/* Parses a whole file: a UTF-8 byte order mark is skipped, records end
 * in LF, CRLF or CR, and blank lines are skipped. A field that
 * qm_csv_append_field() neutralised loses its leading single quote. Returns a GPtrArray of
 * QmCsvRecord, header included. Errors name the line and the column. */
GPtrArray *qm_csv_parse        (const char  *data,
                                gsize        length,
                                GError     **error);
void       qm_csv_record_free  (QmCsvRecord *record);

/* Appends one field to @out, quoted when it needs to be (the separator, a
 * quote, a line break, or leading/trailing space). A text that a spreadsheet
 * would run as a formula (it starts with = + - @, a tab or a CR, and is not
 * a plain number) is written as OWASP recommends: a single quote before it,
 * and quoted; a text that already starts like that (a quote, then one of
 * those) gets one more, so that qm_csv_parse() gives back what was written. */
void       qm_csv_append_field (GString     *out,
                                const char  *field,
                                char         separator);
/* Appends a whole record with CRLF, the RFC 4180 line end. */
void       qm_csv_append_row   (GString     *out,
                                const char * const *fields,
                                guint        n_fields,
                                char         separator);

/* How a file writes its cells. Spreadsheets in a locale whose decimal
 * mark is a comma (German Excel, LibreOffice) write ';' between cells and
 * "1234,5" for numbers. */
typedef struct
{
  char        separator;     /* ',', ';' or '\t'; 0: detect when reading */
  char        decimal_mark;  /* '.' or ','; 0: detect when reading */
  gboolean    sep_line;      /* the file starts with Excel's "sep=;" line */
  const char *encoding;      /* after reading: "UTF-8", "UTF-16LE", "WINDOWS-1252" ... */
} QmCsvDialect;

/* RFC 4180 as programs write it: comma, decimal point. */
#define QM_CSV_DIALECT_C ((QmCsvDialect) { ',', '.', FALSE, "UTF-8" })

/* The user's convention: from LC_NUMERIC, ';' and a decimal comma where
 * the decimal point is a comma, else the C dialect; it states its
 * separator in a "sep=" line so that Excel reads it back in any locale. */
void        qm_csv_dialect_for_locale   (QmCsvDialect       *dialect);
/* "c" (comma, decimal point) or "user" (qm_csv_dialect_for_locale()). */
gboolean    qm_csv_dialect_from_string  (const char         *name,
                                         QmCsvDialect       *dialect);
/* The separator in words for messages: "comma", "semicolon", "tab". */
const char *qm_csv_separator_name       (char                separator);

/* The separator of a header line (the first @length bytes of @line, up to
 * its end): the most frequent of ',', ';' and tab outside quotes; ','
 * when none occurs or on a tie with ','. */
char        qm_csv_detect_separator     (const char         *line,
                                         gsize               length);
/* The decimal mark of the data rows of @records (the header, record 0,
 * is skipped), as qm-csv.c's comment on number_evidence() describes. */
char        qm_csv_detect_decimal_mark  (GPtrArray          *records,
                                         char                separator);

/* Reads a file as spreadsheets write it: a UTF-8 BOM is skipped; bytes
 * that are not UTF-8 are read as Windows-1252 (what Excel's "CSV" saves
 * on Windows), or Latin-1; UTF-16 after its byte order mark (Excel's
 * "Unicode Text"); an Excel "sep=X" first line is honoured and
 * skipped. The fields of @dialect that are 0 are detected; all are set on
 * return, encoding included. Records are as from qm_csv_parse(). */
GPtrArray  *qm_csv_read                 (const char         *data,
                                         gsize               length,
                                         QmCsvDialect       *dialect,
                                         GError            **error);
/* qm_csv_parse() with another separator. */
GPtrArray  *qm_csv_parse_separated      (const char         *data,
                                         gsize               length,
                                         char                separator,
                                         GError            **error);

/* A number as a spreadsheet writes it with @decimal_mark: "30000",
 * "30000.50" or "30000,50", grouped "$30,000" or "30.000 €", "1.2e3".
 * The other mark ('.' or ',') and spaces group digits in threes only. */
gboolean    qm_csv_parse_number         (const char         *cell,
                                         char                decimal_mark,
                                         double             *out);
/* Up to 15 significant digits, no grouping, @decimal_mark. */
char       *qm_csv_format_number        (double              value,
                                         char                decimal_mark);
/* The "sep=X" line, when @dialect asks for it. */
void        qm_csv_append_dialect_line  (GString            *out,
                                         const QmCsvDialect *dialect);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmCsvRecord, qm_csv_record_free)

G_END_DECLS
