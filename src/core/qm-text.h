/* qm-text.h: text from strangers. Plan and catalog files travel by email,
 * so a name may carry terminal escape sequences or bidirectional overrides
 * (a name that prints "ok" and sets the terminal's title, or reads
 * backwards in a PDF). The readers refuse such text, and the CLI escapes
 * whatever it prints.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <locale.h>

G_BEGIN_DECLS

/* TRUE for a character no name or note may hold: C0 and C1 controls and
 * DEL (a tab and a line feed are allowed when @multiline), and the
 * bidirectional embeddings, overrides and isolates U+202A-202E and
 * U+2066-2069. */
gboolean    qm_text_char_is_unsafe (gunichar     c,
                                    gboolean     multiline);

/* The first unsafe character of the UTF-8 @text, or NULL when there is
 * none. @index_out, when not NULL, gets its position in characters from 1. */
const char *qm_text_find_unsafe    (const char  *text,
                                    gboolean     multiline,
                                    glong       *index_out);

/* A copy of @text that the readers accept: each unsafe character (a tab
 * pasted from a spreadsheet into a name, say) becomes a space, and invalid
 * UTF-8 becomes U+FFFD. For what a person types into the app. */
char       *qm_text_sanitize       (const char  *text,
                                    gboolean     multiline);

/* A copy of @text that is safe to print on a terminal: every unsafe
 * character (line feeds and tabs included) becomes a visible escape,
 * "\x1b" or "\u202e", and invalid UTF-8 becomes U+FFFD. */
char       *qm_text_escape         (const char  *text);

/* Like qm_text_escape(), but line feeds and tabs stay: for whole lines
 * of output that already hold their own line breaks. */
char       *qm_text_escape_lines   (const char  *text);

/* A copy of @text of at most @max characters, its last one an ellipsis
 * when it was cut: for a table cell of a fixed width. */
char       *qm_text_ellipsize      (const char  *text,
                                    glong        max);

/* Text for programs (JSON) is the same in every language: between these
 * two calls, the calling thread translates nothing and formats numbers
 * as C does. Returns what qm_text_end_c_locale() restores. */
locale_t    qm_text_begin_c_locale (void);
void        qm_text_end_c_locale   (locale_t     previous);

G_END_DECLS
