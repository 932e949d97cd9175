/* test-text.c: what names and notes may hold, and escaping for a terminal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-text.h"

static void
test_unsafe (void)
{
  glong at = 0;

  /* Ordinary text of any script, with marks that are not overrides. */
  g_assert_null (qm_text_find_unsafe ("Llama 3.1 70B — 日本語 «Ö» \u200f", FALSE, NULL));
  /* ESC starts a terminal sequence (xterm OSC 0 sets the title). */
  g_assert_nonnull (qm_text_find_unsafe ("ok\x1b]0;title\x07", FALSE, &at));
  g_assert_cmpint (at, ==, 3);
  /* C1: U+009B is CSI on an 8-bit terminal; DEL too. */
  g_assert_nonnull (qm_text_find_unsafe ("a\xc2\x9b" "31m", FALSE, &at));
  g_assert_cmpint (at, ==, 2);
  g_assert_nonnull (qm_text_find_unsafe ("a\x7f", FALSE, NULL));
  /* Bidi embeddings, overrides and isolates; a carriage return. */
  for (gunichar c = 0x202a; c <= 0x202e; c++)
    g_assert_true (qm_text_char_is_unsafe (c, TRUE));
  for (gunichar c = 0x2066; c <= 0x2069; c++)
    g_assert_true (qm_text_char_is_unsafe (c, TRUE));
  g_assert_false (qm_text_char_is_unsafe (0x2065, FALSE));
  g_assert_false (qm_text_char_is_unsafe (0x202f, FALSE));
  g_assert_true (qm_text_char_is_unsafe ('\r', TRUE));
  /* A tab and a line feed: in notes, not in names. */
  g_assert_null (qm_text_find_unsafe ("one\n\ttwo", TRUE, NULL));
  g_assert_nonnull (qm_text_find_unsafe ("one\n\ttwo", FALSE, &at));
  g_assert_cmpint (at, ==, 4);
}

static void
test_escape (void)
{
  g_autofree char *a = qm_text_escape ("ok\x1b]0;title\x07\x1b[31m");
  g_autofree char *b = qm_text_escape ("abc\u202edef\u2066");
  g_autofree char *c = qm_text_escape ("two\nlines\tand \xff bad");
  g_autofree char *d = qm_text_escape_lines ("two\nlines\tkept\r\x1b");
  g_autofree char *e = qm_text_escape ("plain «text»");

  g_assert_cmpstr (a, ==, "ok\\x1b]0;title\\x07\\x1b[31m");
  g_assert_cmpstr (b, ==, "abc\\u202edef\\u2066");
  g_assert_cmpstr (c, ==, "two\\x0alines\\x09and \uFFFD bad");
  g_assert_cmpstr (d, ==, "two\nlines\tkept\\x0d\\x1b");
  g_assert_cmpstr (e, ==, "plain «text»");
}

/* What the app makes of a name pasted with a tab or an override: spaces,
 * so that the saved plan reads back. */
static void
test_sanitize (void)
{
  g_autofree char *a = qm_text_sanitize ("Q3\tquote \u202eevil\x1b[0m", FALSE);
  g_autofree char *b = qm_text_sanitize ("one\n\ttwo\r", TRUE);

  g_assert_cmpstr (a, ==, "Q3 quote  evil [0m");
  g_assert_null (qm_text_find_unsafe (a, FALSE, NULL));
  g_assert_cmpstr (b, ==, "one\n\ttwo ");
}

/* A table cell of 5 characters: 4 and an ellipsis, counted in characters,
 * not bytes. */
static void
test_ellipsize (void)
{
  g_autofree char *a = qm_text_ellipsize ("short", 5);
  g_autofree char *b = qm_text_ellipsize ("longer", 5);
  g_autofree char *c = qm_text_ellipsize ("ÄÖÜßéè", 5);

  g_assert_cmpstr (a, ==, "short");
  g_assert_cmpstr (b, ==, "long…");
  g_assert_cmpstr (c, ==, "ÄÖÜß…");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/text/unsafe", test_unsafe);
  g_test_add_func ("/text/escape", test_escape);
  g_test_add_func ("/text/sanitize", test_sanitize);
  g_test_add_func ("/text/ellipsize", test_ellipsize);
  return g_test_run ();
}
