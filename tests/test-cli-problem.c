/* test-cli-problem.c: quartermaster-cli saying why a plan cannot be read
 * (issue #24). As text: one line in the user's language. With --json: one
 * line on stderr, {"format_version": 1, "error": {"path": FILE, "code",
 * "message", "values": {"key": KEY PATH, …}}} (docs/cli.md), the code and
 * values of the plan's problem, the same in every language.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "qm-test-cli.h"
#include "qm-test-util.h"

/* A copy of an example with one member replaced, in a temporary file. */
static char *
write_plan (const char *dir,
            const char *name,
            const char *was,
            const char *now)
{
  g_autofree char *example = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *data = NULL;
  g_autoptr(GString) s = NULL;
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_get_contents (example, &data, NULL, &error));
  g_assert_no_error (error);
  s = g_string_new (data);
  if (was != NULL)
    {
      g_assert_nonnull (strstr (data, was));
      g_string_replace (s, was, now, 1);
    }
  else
    g_string_assign (s, now);
  g_assert_true (g_file_set_contents (path, s->str, -1, &error));
  g_assert_no_error (error);
  return path;
}

/* stderr as the "error" object; stdout must be empty and the status 1. */
static JsonObject *
error_object (Run        *r,
              JsonParser *parser)
{
  JsonNode *root;

  g_assert_cmpint (r->status, ==, 1);
  g_assert_cmpstr (r->out, ==, "");
  /* One line, as every error of the CLI. */
  g_assert_true (g_str_has_suffix (r->err, "\n"));
  g_assert_true (strchr (r->err, '\n') == r->err + strlen (r->err) - 1);
  if (!json_parser_load_from_data (parser, r->err, -1, NULL))
    g_error ("stderr is not JSON:\n%s", r->err);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  g_assert_cmpuint (json_object_get_size (json_node_get_object (root)), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "format_version"), ==, 1);
  return json_object_get_object_member (json_node_get_object (root), "error");
}

static void
test_json_shape (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-cli-problem-XXXXXX", NULL);
  g_autofree char *bad = write_plan (dir, "bad.qmplan", "\"gpus\": 2048", "\"gpus\": 2047");
  g_autofree char *array = write_plan (dir, "array.qmplan", NULL, "[1, 2]");
  g_autofree char *missing = g_build_filename (dir, "missing.qmplan", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0, };
  JsonObject *e, *values;

  run_cli (&r, "estimate", bad, "--json", NULL);
  e = error_object (&r, parser);
  g_assert_cmpstr (json_object_get_string_member (e, "path"), ==, bad);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "not-a-multiple");
  g_assert_cmpstr (json_object_get_string_member (e, "message"), ==,
                   "target.gpus: must be a multiple of tp·pp·cp = 32 (got 2047)");
  values = json_object_get_object_member (e, "values");
  g_assert_cmpstr (json_object_get_string_member (values, "key"), ==, "target.gpus");
  g_assert_cmpint (json_object_get_int_member (values, "multiple_of"), ==, 32);
  g_assert_cmpint (json_object_get_int_member (values, "got"), ==, 2047);
  g_assert_cmpuint (json_object_get_size (values), ==, 3);
  run_clear (&r);

  /* The file as a whole: no key path, and what it held by its JSON type. */
  run_cli (&r, "estimate", array, "--json", NULL);
  e = error_object (&r, parser);
  g_assert_cmpstr (json_object_get_string_member (e, "path"), ==, array);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "not-an-object");
  values = json_object_get_object_member (e, "values");
  g_assert_false (json_object_has_member (values, "key"));
  g_assert_cmpstr (json_object_get_string_member (values, "got"), ==, "array");
  run_clear (&r);

  /* Not a plan problem at all: still JSON, with a code to switch on. */
  run_cli (&r, "estimate", missing, "--json", NULL);
  e = error_object (&r, parser);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "not-found");
  run_clear (&r);

  /* Without --json, the one line it always was. */
  run_cli (&r, "estimate", bad, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_suffix (r.err, ": target.gpus: must be a multiple of tp·pp·cp = 32 (got 2047)\n"));
  g_assert_cmpint (strchr (r.err, '\n') - r.err, ==, (int) strlen (r.err) - 1);

  g_remove (bad);
  g_remove (array);
  g_rmdir (dir);
}

/* In German the line is German; the JSON's code and values are not prose
 * and stay as they are, only its message is translated. */
static void
test_german (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-cli-problem-XXXXXX", NULL);
  g_autofree char *bad = write_plan (dir, "bad.qmplan", "\"gpus\": 2048", "\"gpus\": 2047");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0, };
  JsonObject *e, *values;

  g_setenv ("LANGUAGE", "de", TRUE);
  run_cli (&r, "estimate", bad, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_suffix (r.err, ": target.gpus: muss ein Vielfaches von tp·pp·cp = 32 sein (Wert: 2047)\n"));
  run_clear (&r);

  run_cli (&r, "estimate", bad, "--json", NULL);
  e = error_object (&r, parser);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "not-a-multiple");
  g_assert_cmpstr (json_object_get_string_member (e, "message"), ==,
                   "target.gpus: muss ein Vielfaches von tp·pp·cp = 32 sein (Wert: 2047)");
  values = json_object_get_object_member (e, "values");
  g_assert_cmpstr (json_object_get_string_member (values, "key"), ==, "target.gpus");
  g_assert_cmpint (json_object_get_int_member (values, "multiple_of"), ==, 32);
  g_assert_cmpint (json_object_get_int_member (values, "got"), ==, 2047);
  g_unsetenv ("LANGUAGE");

  g_remove (bad);
  g_rmdir (dir);
}

/* A SQLite file whose schema is newer than any this program knows: the
 * store refuses it untouched, whatever the file's permissions (the tests
 * may run as root, who writes any file). */
static char *
write_too_new_db (const char *dir)
{
  char *path = g_build_filename (dir, "newer.db", NULL);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE t (x); PRAGMA user_version = 999", NULL, NULL, NULL),
                   ==, SQLITE_OK);
  sqlite3_close (db);
  return path;
}

static int
user_version (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int version;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return version;
}

/* The store's own message reaches a German or Chinese user in that
 * language, amid the CLI's translated text; the file name and the schema
 * numbers are as they were. */
static void
test_store_message (gconstpointer data)
{
  const char *language = data;
  g_autofree char *dir = g_dir_make_tmp ("qm-cli-problem-XXXXXX", NULL);
  g_autofree char *db = write_too_new_db (dir);
  g_auto(Run) r = { 0, };

  g_setenv ("LANGUAGE", language, TRUE);
  run_cli (&r, "--db", db, "catalog", "list", NULL);
  g_unsetenv ("LANGUAGE");
  g_assert_cmpint (r.status, !=, 0);
  g_assert_cmpstr (r.out, ==, "");
  if (g_str_equal (language, "de"))
    {
      g_autofree char *expected = g_strdup_printf ("Die Datenbank %s wurde von einem neueren "
                                                   "Quartermaster geschrieben (Schema 999; "
                                                   "diese Version kennt bis ", db);

      g_assert_nonnull (strstr (r.err, expected));
      g_assert_true (g_str_has_suffix (r.err, "). Sie wurde nicht verändert.\n"));
    }
  else
    {
      g_autofree char *expected = g_strdup_printf ("数据库 %s 由较新版本的 Quartermaster 写入"
                                                   "（架构 999；此版本最高支持 ", db);

      g_assert_nonnull (strstr (r.err, expected));
      g_assert_true (g_str_has_suffix (r.err, "）。未对其做任何改动。\n"));
    }
  g_assert_null (strstr (r.err, "written by a newer"));
  run_clear (&r);

  /* Untouched: still the schema it had. */
  g_assert_cmpint (user_version (db), ==, 999);

  g_remove (db);
  g_rmdir (dir);
}

/* Hostile files (issue #33 items 4 and 8): 75,000 levels of nesting used
 * to crash the CLI inside json-glib (exit 139); a NUL in the name was
 * saved as the text before it. Both are one line, exit 1, and the import
 * keeps nothing. */
static void
test_hostile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-cli-problem-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GString) deep_text = g_string_new (NULL);
  g_autofree char *deep = NULL;
  g_autofree char *huge = NULL;
  g_autofree char *nul = write_plan (dir, "nul.qmplan", "\"name\": \"", "\"name\": \"before\\u0000after");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) r = { 0, };
  JsonObject *e, *values;

  for (guint i = 0; i < 75000; i++)
    g_string_append_c (deep_text, '{');
  for (guint i = 0; i < 75000; i++)
    g_string_append_c (deep_text, '}');
  deep = write_plan (dir, "deep.qmplan", NULL, deep_text->str);

  run_cli (&r, "estimate", deep, "--json", NULL);
  e = error_object (&r, parser);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "not-json");
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"), "nested more than 64 levels"));
  run_clear (&r);

  /* 10^23 GPUs: json-glib reads it as -1, and the refusal said "(got -1)". */
  {
    g_autofree char *big = write_plan (dir, "big.qmplan", "\"gpus\": 2048", "\"gpus\": 99999999999999999999999");

    run_cli (&r, "estimate", big, "--json", NULL);
    e = error_object (&r, parser);
    g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "huge-number");
    values = json_object_get_object_member (e, "values");
    g_assert_cmpstr (json_object_get_string_member (values, "key"), ==, "target.gpus");
    g_assert_cmpstr (json_object_get_string_member (values, "written"), ==, "99999999999999999999999");
    run_clear (&r);
    g_remove (big);
  }

  run_cli (&r, "estimate", nul, "--json", NULL);
  e = error_object (&r, parser);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "unsafe-text");
  values = json_object_get_object_member (e, "values");
  g_assert_cmpstr (json_object_get_string_member (values, "key"), ==, "name");
  g_assert_cmpstr (json_object_get_string_member (values, "character"), ==, "U+0000");
  run_clear (&r);

  /* Issue #33 item 5: past 16 MB a file is refused before it is parsed
   * (a 200 MB import took 1.7 GB), by import and by estimate alike. */
  {
    g_autoptr(GString) big = g_string_new ("{\"format\": \"quartermaster-plan\", \"notes\": \"");

    for (guint i = 0; i < 17 * 1024; i++)
      g_string_append (big, "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................"
                            "................................................................");
    g_string_append (big, "\"}");
    huge = write_plan (dir, "huge.qmplan", NULL, big->str);
  }
  run_cli (&r, "estimate", huge, "--json", NULL);
  e = error_object (&r, parser);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, "too-large");
  run_clear (&r);

  for (guint i = 0; i < 3; i++)
    {
      run_cli (&r, "--db", db, "plans", "import", i == 2 ? huge : i ? nul : deep, NULL);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpint (strchr (r.err, '\n') - r.err, ==, (int) strlen (r.err) - 1);
      run_clear (&r);
    }
  run_cli (&r, "--db", db, "plans", "list", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_null (strstr (r.out, "before"));
  run_clear (&r);

  g_remove (deep);
  g_remove (huge);
  g_remove (nul);
  g_remove (db);
  g_rmdir (dir);
}

/* Issue #33 item 2: --db naming a plan file renamed the plan to
 * ".corrupt-…", put a new database in its place and exited 0. Now the
 * file is named, left as it was, and the command exits 1; a read-only
 * command creates nothing where there is no database; ":memory:" (which
 * keeps nothing) is refused; a server address in capitals is a server,
 * never a folder. */
static void
test_db_not_a_database (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-cli-problem-XXXXXX", NULL);
  g_autofree char *plan = write_plan (dir, "myplan.qmplan", NULL, "{\"format\": \"quartermaster-plan\"}\n");
  g_autofree char *absent = g_build_filename (dir, "absent.db", NULL);
  g_autofree char *before = NULL, *after = NULL;
  const char *servers[] = { "POSTGRESQL://127.0.0.1:1/qm", "Postgresql://127.0.0.1:1/qm",
                            " postgresql://127.0.0.1:1/qm" };
  g_auto(Run) r = { 0, };

  g_assert_true (g_file_get_contents (plan, &before, NULL, NULL));
  run_cli (&r, "--db", plan, "plans", "list", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "is not a Quartermaster database"));
  g_assert_nonnull (strstr (r.err, plan));
  run_clear (&r);
  run_cli (&r, "--db", plan, "plans", "import", plan, NULL);
  g_assert_cmpint (r.status, ==, 1);
  run_clear (&r);
  g_assert_true (g_file_get_contents (plan, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, before);

  /* Reading where there is no database: an empty list, and no file. */
  run_cli (&r, "--db", absent, "plans", "list", NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  run_cli (&r, "--db", absent, "catalog", "list", "--kind", "gpu", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "h100-sxm-80gb"));
  run_clear (&r);
  g_assert_false (g_file_test (absent, G_FILE_TEST_EXISTS));

  run_cli (&r, "--db", ":memory:", "plans", "import", plan, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "keeps nothing"));
  run_clear (&r);

  /* Nothing listens on port 1: each is a failed connection, not a file. */
  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    {
      g_autofree char *cwd = g_get_current_dir ();

      g_assert_cmpint (g_chdir (dir), ==, 0);
      run_cli (&r, "--db", servers[i], "plans", "list", NULL);
      g_assert_cmpint (g_chdir (cwd), ==, 0);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, "postgresql://127.0.0.1:1/qm"));
      run_clear (&r);
    }
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    guint n = 0;

    while ((name = g_dir_read_name (d)) != NULL)
      n++;
    /* Only the plan: no .corrupt- copy, no database, no folder. */
    g_assert_cmpuint (n, ==, 1);
  }

  run_cli (&r, "--db", "mysql://ann:SECRET@h/q", "plans", "list", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "not an address Quartermaster can open"));
  g_assert_null (strstr (r.err, "SECRET"));
  run_clear (&r);

  g_remove (plan);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cli-problem/json-shape", test_json_shape);
  g_test_add_func ("/cli-problem/german", test_german);
  g_test_add_func ("/cli-problem/hostile", test_hostile);
  g_test_add_func ("/cli-problem/db-not-a-database", test_db_not_a_database);
  g_test_add_data_func ("/cli-problem/store-message/de", "de", test_store_message);
  g_test_add_data_func ("/cli-problem/store-message/zh_CN", "zh_CN", test_store_message);
  return g_test_run ();
}
