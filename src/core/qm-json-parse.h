/* qm-json-parse.h: JSON from outside (plan files, imports, pasted text,
 * rows of the store) parsed with a bound on nesting, and NUL characters
 * found before they cut a string.
 *
 * json-glib's parser recurses once per level, so a file of 150 KB nested
 * 75,000 levels deep overflows the stack (issue #33 item 4). No
 * Quartermaster document nests more than a dozen levels (a plan's
 * embedded catalog entry inside hardware inside the plan, a quote's
 * lines inside its revision), so anything deeper than
 * QM_JSON_MAX_DEPTH is refused before the parser sees it.
 *
 * json-glib keeps string values as C strings, so "before\u0000after"
 * silently reads as "before" (issue #33 item 8): the scan finds the escape
 * and the key it sits under, and the reader refuses it there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define QM_JSON_MAX_DEPTH 64

typedef struct
{
  guint  depth;      /* deepest nesting seen (stops counting past the limit) */
  guint  deep_line;  /* line where the limit was passed, 1-based; 0 = it was not */
  char  *nul_path;   /* key path of the first string holding \u0000 ("" = top
                      * level, "a.b[2].c"); NULL = none. Free with g_free. */
  guint  nul_at;     /* 1-based character of that string where the NUL is */
  char  *big_path;   /* key path of the first whole number beyond 64 bits, which
                      * json-glib reads as -1; NULL = none. Free with g_free. */
  char  *big_text;   /* that number as written. Free with g_free. */
} QmJsonScan;

/* Scans @data (@length bytes, or NUL-terminated when -1) without parsing
 * it: nesting outside strings, and the first \u0000 escape. */
void      qm_json_scan          (const char  *data,
                                 gssize       length,
                                 guint        limit,
                                 QmJsonScan  *out);

/* Frees what a scan found. */
void      qm_json_scan_clear    (QmJsonScan  *scan);

/* json_parser_load_from_data() that first refuses nesting deeper than
 * QM_JSON_MAX_DEPTH, a NUL escape inside a string and a whole number
 * beyond 64 bits, with a JSON_PARSER_ERROR naming the line or the key. */
gboolean  qm_json_parser_load   (JsonParser  *parser,
                                 const char  *data,
                                 gssize       length,
                                 GError     **error);

/* json_from_string() with the same checks. */
JsonNode *qm_json_from_string   (const char  *text,
                                 GError     **error);

G_END_DECLS
