/* qm-text.c: what names and notes may hold, and escaping for a terminal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-text.h"

#include <string.h>

gboolean
qm_text_char_is_unsafe (gunichar c,
                        gboolean multiline)
{
  if (multiline && (c == '\t' || c == '\n'))
    return FALSE;
  /* C0, DEL and C1 (ECMA-48): ESC and CSI start terminal sequences. */
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
    return TRUE;
  /* Unicode bidi embeddings and overrides, and isolates (UAX #9). */
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

const char *
qm_text_find_unsafe (const char *text,
                     gboolean    multiline,
                     glong      *index_out)
{
  glong i = 1;

  g_return_val_if_fail (text != NULL, NULL);

  for (const char *p = text; *p; p = g_utf8_next_char (p), i++)
    if (qm_text_char_is_unsafe (g_utf8_get_char (p), multiline))
      {
        if (index_out != NULL)
          *index_out = i;
        return p;
      }
  return NULL;
}

static char *
escape (const char *text,
        gboolean    keep_lines)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (text == NULL)
    return g_strdup ("");
  valid = g_utf8_make_valid (text, -1);
  if (qm_text_find_unsafe (valid, keep_lines, NULL) == NULL)
    return g_steal_pointer (&valid);

  out = g_string_sized_new (strlen (valid) + 16);
  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!qm_text_char_is_unsafe (c, keep_lines))
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      else if (c < 0x100)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_printf (out, "\\u%04x", c);
    }
  return g_string_free (out, FALSE);
}

char *
qm_text_sanitize (const char *text,
                  gboolean    multiline)
{
  char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  GString *out;

  if (qm_text_find_unsafe (valid, multiline, NULL) == NULL)
    return valid;
  out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      if (qm_text_char_is_unsafe (g_utf8_get_char (p), multiline))
        g_string_append_c (out, ' ');
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  g_free (valid);
  return g_string_free (out, FALSE);
}

char *
qm_text_escape (const char *text)
{
  return escape (text, FALSE);
}

char *
qm_text_escape_lines (const char *text)
{
  return escape (text, TRUE);
}

locale_t
qm_text_begin_c_locale (void)
{
  static gsize c_locale;

  /* One C locale for the process; never freed, like the global one. */
  if (g_once_init_enter (&c_locale))
    g_once_init_leave (&c_locale, (gsize) newlocale (LC_ALL_MASK, "C", (locale_t) 0));
  return c_locale != 0 ? uselocale ((locale_t) c_locale) : (locale_t) 0;
}

void
qm_text_end_c_locale (locale_t previous)
{
  if (previous != (locale_t) 0)
    uselocale (previous);
}

char *
qm_text_ellipsize (const char *text,
                   glong       max)
{
  g_autofree char *head = NULL;

  if (g_utf8_strlen (text, -1) <= max)
    return g_strdup (text);
  head = g_utf8_substring (text, 0, max - 1);
  return g_strconcat (head, "…", NULL);
}
