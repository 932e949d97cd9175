/* qm-csv.h: RFC 4180 CSV reading and writing: catalog import/export and
 * the bill of materials.
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmCsvRecord, qm_csv_record_free)

G_END_DECLS
