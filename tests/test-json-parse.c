/* test-json-parse.c: hostile JSON refused before json-glib reads it
 * (issue #33 items 4 and 8): nesting that would overflow the parser's
 * stack, and a NUL escape that would cut a string.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-json-parse.h"
#include "qm-plan.h"
#include "qm-problem.h"

/* The attack of the issue: 75,000 levels in 150 KB. Before the bound it
 * crashed quartermaster-cli with a stack overflow inside json-glib. */
static void
test_deep (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  QmJsonScan scan;

  for (guint i = 0; i < 75000; i++)
    g_string_append_c (s, i % 2 ? '{' : '[');
  qm_json_scan (s->str, (gssize) s->len, QM_JSON_MAX_DEPTH, &scan);
  g_assert_cmpuint (scan.depth, ==, QM_JSON_MAX_DEPTH + 1);
  g_assert_cmpuint (scan.deep_line, ==, 1);
  g_assert_null (scan.nul_path);
  qm_json_scan_clear (&scan);

  g_assert_false (qm_json_parser_load (parser, s->str, (gssize) s->len, &error));
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "nested more than 64 levels deep at line 1"));
}

/* Brackets inside strings are text, not nesting; a document as deep as
 * the limit still parses. */
static void
test_depth_counts_structure_only (void)
{
  g_autoptr(GString) s = g_string_new ("{\"a\": \"");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  QmJsonScan scan;

  for (guint i = 0; i < 1000; i++)
    g_string_append (s, "[{\\\"");
  g_string_append (s, "\"}");
  qm_json_scan (s->str, -1, QM_JSON_MAX_DEPTH, &scan);
  g_assert_cmpuint (scan.depth, ==, 1);
  g_assert_true (qm_json_parser_load (parser, s->str, -1, &error));
  g_assert_no_error (error);

  g_string_truncate (s, 0);
  for (guint i = 0; i < QM_JSON_MAX_DEPTH; i++)
    g_string_append_c (s, '[');
  for (guint i = 0; i < QM_JSON_MAX_DEPTH; i++)
    g_string_append_c (s, ']');
  g_assert_true (qm_json_parser_load (parser, s->str, -1, &error));
  g_assert_no_error (error);
}

/* "before\u0000after": json-glib would read "before". The scan names the
 * key path, arrays by index, and the character. */
static void
test_nul (void)
{
  static const struct
  {
    const char *json, *path;
    guint       at;
  } cases[] = {
    { "{\"name\": \"before\\u0000after\"}", "name", 7 },
    { "{\"a\": {\"b\": [1, {\"c\": \"x\"}, {\"c\": \"\\u00e9\\u0000\"}]}}", "a.b[2].c", 2 },
    { "[\"ok\", \"\\u0000\"]", "[1]", 1 },
    /* An escaped backslash before u0000 is text, not a NUL. */
    { "{\"k\": \"\\\\u0000\"}", NULL, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      QmJsonScan scan;

      qm_json_scan (cases[i].json, -1, QM_JSON_MAX_DEPTH, &scan);
      g_assert_cmpstr (scan.nul_path, ==, cases[i].path);
      g_assert_cmpuint (scan.nul_at, ==, cases[i].at);
      qm_json_scan_clear (&scan);
      if (cases[i].path == NULL)
        {
          g_assert_true (qm_json_parser_load (parser, cases[i].json, -1, &error));
          g_assert_no_error (error);
        }
      else
        {
          g_autofree char *expected = g_strdup_printf ("%s: must not contain a NUL character",
                                                       cases[i].path);

          g_assert_false (qm_json_parser_load (parser, cases[i].json, -1, &error));
          g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
          g_assert_true (g_str_has_prefix (error->message, expected));
        }
    }
}

/* A whole number beyond 64 bits: json-glib reads it as -1, so a refusal
 * could only say "(got -1)". The scan keeps it as written. */
static void
test_huge_number (void)
{
  static const struct
  {
    const char *json, *path, *text;
  } cases[] = {
    { "{\"target\": {\"gpus\": 99999999999999999999999}}", "target.gpus", "99999999999999999999999" },
    { "[1, -12345678901234567890]", "[1]", "-12345678901234567890" },
    /* Fractions and exponents are doubles: json-glib reads them as such. */
    { "{\"a\": 1e308, \"b\": 123456789012345678901.5}", NULL, NULL },
    { "{\"a\": 123456789012345678}", NULL, NULL },
    { "{\"a\": \"99999999999999999999999\"}", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      QmJsonScan scan;

      qm_json_scan (cases[i].json, -1, QM_JSON_MAX_DEPTH, &scan);
      g_assert_cmpstr (scan.big_path, ==, cases[i].path);
      g_assert_cmpstr (scan.big_text, ==, cases[i].text);
      qm_json_scan_clear (&scan);
      g_assert_cmpint (qm_json_parser_load (parser, cases[i].json, -1, &error), ==, cases[i].path == NULL);
    }
}

/* A plan whose name holds a NUL is refused at "name", as other control
 * characters are, instead of being saved as "before". */
static void
test_plan_nul (void)
{
  const char *src = g_getenv ("QM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : "..", "data", "examples",
                                            "mistral-7b-lora-a100.qmplan", NULL);
  g_autofree char *data = NULL;
  g_autoptr(GString) s = NULL;
  g_autoptr(GError) error = NULL;
  QmPlan plan;
  char *name;

  g_assert_true (g_file_get_contents (path, &data, NULL, &error));
  g_assert_no_error (error);
  s = g_string_new (data);
  name = strstr (s->str, "\"name\": \"");
  g_assert_nonnull (name);
  g_string_insert (s, name - s->str + strlen ("\"name\": \""), "before\\u0000after");

  qm_plan_init (&plan);
  g_assert_false (qm_plan_load_from_data (&plan, s->str, (gssize) s->len, NULL, &error));
  g_assert_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "name: must not contain control characters"));
  g_assert_nonnull (strstr (error->message, "U+0000 at character 7"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-parse/deep", test_deep);
  g_test_add_func ("/json-parse/depth-counts-structure-only", test_depth_counts_structure_only);
  g_test_add_func ("/json-parse/nul", test_nul);
  g_test_add_func ("/json-parse/plan-nul", test_plan_nul);
  g_test_add_func ("/json-parse/huge-number", test_huge_number);
  return g_test_run ();
}
