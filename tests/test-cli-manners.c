/* test-cli-manners.c: the conventions scripts rely on (issue #24 item 3):
 * COMMAND --help for every command, exit 2 on an unknown option, "-" for
 * standard input and output, format_version in every JSON document, JSON
 * errors with --json, and man pages that render.
 *
 * The CLI's path comes from QM_CLI, the man pages' folder from QM_MAN_DIR
 * (tests/meson.build).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "qm-test-cli.h"
#include "qm-test-pdf.h"
#include "qm-test-util.h"

static const char *const commands[] = {
  "estimate", "search", "report", "chart", "compare", "catalog", "plans", "advise", "quote", "rates",
};

/* Runs the CLI with @input on standard input; standard output is kept as
 * bytes (a PDF is not UTF-8). */
static int
run_bytes (GBytes      *input,
           GBytes     **out,
           char       **err,
           const char  *first,
           ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) err_bytes = NULL;
  const char *arg = first;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("QM_CLI"));
  va_start (args, first);
  for (; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                            G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) nothing = g_bytes_new_static ("", 0);

    g_subprocess_communicate (proc, input != NULL ? input : nothing, NULL, out, &err_bytes, &error);
  }
  g_assert_no_error (error);
  /* An empty GBytes may have no data at all. */
  *err = g_bytes_get_size (err_bytes) > 0 ? g_strndup (g_bytes_get_data (err_bytes, NULL), g_bytes_get_size (err_bytes))
                                          : g_strdup ("");
  return g_subprocess_get_exit_status (proc);
}

static GBytes *
file_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static JsonObject *
parse_object (JsonParser *parser,
              const char *text)
{
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

/* COMMAND --help, COMMAND -h and help COMMAND: exit 0, on stdout, with the
 * command's synopsis; files named as users have them. */
static void
test_command_help (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *synopsis = g_strdup_printf ("quartermaster-cli %s ", commands[i]);
      const char *forms[][3] = {
        { commands[i], "--help", NULL }, { commands[i], "-h", NULL }, { "help", commands[i], NULL },
      };

      for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
        {
          g_auto(Run) r = { 0, };

          run_cli (&r, forms[f][0], forms[f][1], NULL);
          if (r.status != 0 || strstr (r.out, synopsis) == NULL || r.err[0] != '\0')
            g_error ("'%s %s': exit %d, stdout:\n%s\nstderr:\n%s", forms[f][0], forms[f][1], r.status,
                     r.out, r.err);
          g_assert_null (strstr (r.out, ".json"));
        }
    }
  {
    g_auto(Run) r = { 0, };

    /* After a plan and before the rest, as git takes it. */
    run_cli (&r, "plans", "export", "--help", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "plans export NAME -o PLAN.qmplan"));
    run_clear (&r);
    run_cli (&r, "--help", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "catalog import CATALOG.csv"));
    g_assert_null (strstr (r.out, ".json"));
    run_clear (&r);
    run_cli (&r, "help", "frobnicate", NULL);
    g_assert_cmpint (r.status, ==, 2);
    run_clear (&r);
    /* -h as the value of an option is that value, not a plea for help. */
    run_cli (&r, "quote", "no-such-plan.qmplan", "--date", "-h", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--date"));
  }
}

/* An option a command does not take: exit 2, one line naming the option
 * and the command's synopsis, nothing on stdout. */
static void
test_unknown_option (void)
{
  g_autofree char *plan = qm_test_source_path ("data/examples/mistral-7b-lora-a100.qmplan");
  const char *lines[][4] = {
    { "estimate", plan, "--bogus", "estimate PLAN.qmplan" },
    { "search", plan, "--json=yes", "search PLAN.qmplan" },
    { "report", plan, "--colour", "report PLAN.qmplan" },
    { "chart", plan, "-x", "chart PLAN.qmplan" },
    { "compare", plan, "--top", "compare A.qmplan" },
    { "advise", plan, "--top", "advise PLAN.qmplan" },
    { "quote", plan, "--revision", "quote PLAN" },
    { "plans", "list", "--kind", "plans list [--json]" },
    { "catalog", "list", "--top", "catalog list" },
    { "rates", "list", "--customer", "rates list" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_auto(Run) r = { 0, };
      char *nl;

      run_cli (&r, lines[i][0], lines[i][1], lines[i][2], NULL);
      nl = strchr (r.err, '\n');
      if (r.status != 2 || nl == NULL || nl[1] != '\0' || strstr (r.err, lines[i][2]) == NULL ||
          strstr (r.err, lines[i][3]) == NULL || r.out[0] != '\0')
        g_error ("'%s %s %s': exit %d, stderr: %s", lines[i][0], lines[i][1], lines[i][2], r.status, r.err);
    }
}

/* A plan on standard input estimates as the same file does, and is named
 * "standard input" in messages. */
static void
test_stdin_plan (void)
{
  g_autofree char *plan = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *bad = qm_test_source_path ("tests/plans/bad/facility.pue@below-one.json");
  g_autoptr(GBytes) in = file_bytes (plan);
  g_autoptr(GBytes) out = NULL;
  g_autofree char *err = NULL;
  g_auto(Run) file = { 0, };

  run_cli (&file, "estimate", plan, "--json", NULL);
  g_assert_cmpint (file.status, ==, 0);
  g_assert_cmpint (run_bytes (in, &out, &err, "estimate", "-", "--json", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), file.out, strlen (file.out));
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);

  /* Text too, and a second "-" reads the same plan. */
  g_assert_cmpint (run_bytes (in, &out, &err, "compare", "-", "-", NULL), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (out), >, 100);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);

  {
    g_autoptr(GBytes) bad_in = file_bytes (bad);

    g_assert_cmpint (run_bytes (bad_in, &out, &err, "estimate", "-", NULL), ==, 1);
    g_assert_true (g_str_has_prefix (err, "quartermaster-cli: standard input: "));
    g_assert_nonnull (strstr (err, "facility.pue"));
    g_clear_pointer (&out, g_bytes_unref);
    g_clear_pointer (&err, g_free);
  }
  {
    g_autoptr(GBytes) junk = g_bytes_new_static ("{ not json", 10);

    g_assert_cmpint (run_bytes (junk, &out, &err, "estimate", "-", NULL), ==, 1);
    g_assert_nonnull (strstr (err, "standard input"));
    g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  }
}

/* -o - writes the document to stdout, and nothing else goes there. */
static void
test_stdout_output (void)
{
  g_autofree char *plan = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *quote = qm_test_source_path ("tests/plans/golden/llama-3.1-70b-quote-eur.qmplan");
  g_autoptr(GBytes) in = file_bytes (plan);
  g_autoptr(GError) error = NULL;
  GBytes *out = NULL;
  char *err = NULL;

  g_assert_cmpint (run_bytes (NULL, &out, &err, "report", plan, "-o", "-", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_bytes_get_size (out) > 1000);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), 5, "%PDF-", 5);
  {
    g_autoptr(PopplerDocument) doc = poppler_document_new_from_bytes (out, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (poppler_document_get_n_pages (doc), >=, 1);
  }
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);

  /* Plan from stdin, PDF to stdout. */
  g_assert_cmpint (run_bytes (in, &out, &err, "report", "-", "-o", "-", NULL), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), 5, "%PDF-", 5);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_bytes (NULL, &out, &err, "report", plan, "-o", "-", "--format", "csv", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (out, NULL), "Plan,"));
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_bytes (NULL, &out, &err, "chart", plan, "--kind", "vram", "-o", "-", NULL), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), 4, "\x89PNG", 4);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_bytes (NULL, &out, &err, "quote", quote, "-o", "-", "--format", "xlsx", NULL), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), 2, "PK", 2);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);

  /* --format names a format of that command, and only with -o -. */
  g_assert_cmpint (run_bytes (NULL, &out, &err, "report", plan, "-o", "-", "--format", "png", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--format"));
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_bytes (NULL, &out, &err, "compare", plan, plan, "-o", "-", "--json", NULL), ==, 2);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_free);
}

/* plans export NAME -o - prints the same plan file export writes. */
static void
test_export_stdout (void)
{
  g_autofree char *plan = qm_test_source_path ("data/examples/mistral-7b-lora-a100.qmplan");
  g_autofree char *dir = g_dir_make_tmp ("qm-cli-manners-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "test.db", NULL);
  g_autofree char *file = g_build_filename (dir, "out.qmplan", NULL);
  g_autofree char *db_side = g_strconcat (db, "-journal", NULL);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autofree char *err = NULL;
  g_auto(Run) r = { 0, };

  run_cli (&r, "--db", db, "plans", "import", plan, NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  run_cli (&r, "--db", db, "plans", "export", "1", "-o", file, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpint (run_bytes (NULL, &out, &err, "--db", db, "plans", "export", "1", "-o", "-", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  written = file_bytes (file);
  g_assert_true (g_bytes_equal (out, written));
  g_clear_pointer (&err, g_free);

  /* And back in from standard input. */
  {
    GBytes *again = NULL;

    g_assert_cmpint (run_bytes (written, &again, &err, "--db", db, "plans", "import", "-", NULL), ==, 0);
    g_assert_cmpstr (err, ==, "");
    g_assert_nonnull (g_strstr_len (g_bytes_get_data (again, NULL), g_bytes_get_size (again), "standard input"));
    g_bytes_unref (again);
  }
  run_clear (&r);
  run_cli (&r, "--db", db, "plans", "show", "2", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"format_version\" : 1"));

  g_unlink (file);
  g_unlink (db_side);
  g_unlink (db);
  g_rmdir (dir);
}

/* Every JSON document the CLI prints has format_version 1 at its top. */
static void
test_format_version (void)
{
  g_autofree char *train = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *lora = qm_test_source_path ("data/examples/mistral-7b-lora-a100.qmplan");
  g_autofree char *quote = qm_test_source_path ("tests/plans/golden/llama-3.1-70b-quote-eur.qmplan");
  const char *lines[][5] = {
    { "estimate", train, "--json", NULL },
    { "advise", lora, "--json", NULL },
    { "compare", train, lora, "--json", NULL },
    { "quote", quote, "--date", "2026-11-25", "--json" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_auto(Run) r = { 0, };
      JsonObject *o;

      run_cli (&r, lines[i][0], lines[i][1], lines[i][2], lines[i][3], lines[i][4], NULL);
      g_assert_cmpint (r.status, ==, 0);
      o = parse_object (parser, r.out);
      if (!json_object_has_member (o, "format_version"))
        g_error ("%s --json: no format_version", lines[i][0]);
      g_assert_cmpint (json_object_get_int_member (o, "format_version"), ==, 1);
      /* First, where a reader looks. */
      {
        g_autoptr(GList) members = json_object_get_members (o);

        g_assert_cmpstr (members->data, ==, "format_version");
      }
    }
}

/* With --json an error is one JSON object on stderr: code, message, path
 * and values, with format_version. */
static void
assert_json_error (const char *err,
                   const char *code,
                   const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o, *e;

  g_assert_cmpuint (strlen (err), >, 0);
  /* One line: the newline that ends it is the only one. */
  g_assert_true (strchr (err, '\n') == err + strlen (err) - 1);
  o = parse_object (parser, err);
  g_assert_cmpint (json_object_get_int_member (o, "format_version"), ==, 1);
  e = json_object_get_object_member (o, "error");
  g_assert_nonnull (e);
  g_assert_cmpstr (json_object_get_string_member (e, "code"), ==, code);
  g_assert_cmpuint (strlen (json_object_get_string_member (e, "message")), >, 0);
  g_assert_true (json_object_has_member (e, "path"));
  if (path != NULL)
    g_assert_cmpstr (json_object_get_string_member (e, "path"), ==, path);
  g_assert_nonnull (json_object_get_object_member (e, "values"));
}

static void
test_json_errors (void)
{
  g_autofree char *plan = qm_test_source_path ("data/examples/mistral-7b-lora-a100.qmplan");
  g_auto(Run) r = { 0, };

  run_cli (&r, "estimate", "no-such-plan.qmplan", "--json", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  assert_json_error (r.err, "not-found", "no-such-plan.qmplan");
  run_clear (&r);

  run_cli (&r, "estimate", plan, "--json", "--bogus", NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_json_error (r.err, "usage", NULL);
  run_clear (&r);

  run_cli (&r, "search", "--json", NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_json_error (r.err, "usage", NULL);
  run_clear (&r);

  /* Without --json, the line for people. */
  run_cli (&r, "estimate", "no-such-plan.qmplan", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "quartermaster-cli: no-such-plan.qmplan: "));
}

/* The man pages render without warnings and name every command. */
static void
test_man_pages (void)
{
  g_autofree char *man = g_find_program_in_path ("man");
  const char *dir = g_getenv ("QM_MAN_DIR");
  const char *pages[] = { "quartermaster-cli.1", "quartermaster.1" };

  g_assert_nonnull (dir);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *path = g_build_filename (dir, pages[i], NULL);
      g_autofree char *troff = NULL;
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(GSubprocess) proc = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (g_file_get_contents (path, &troff, NULL, &error));
      g_assert_no_error (error);
      /* The structure every man page has. */
      g_assert_nonnull (strstr (troff, "\n.TH "));
      g_assert_nonnull (strstr (troff, "\n.SH NAME\n"));
      g_assert_nonnull (strstr (troff, "\n.SH SYNOPSIS\n"));
      g_assert_nonnull (strstr (troff, "\n.SH OPTIONS\n"));
      if (man == NULL)
        continue;  /* man-db (build-aux/debian-packages.txt) renders it below */

      proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                               man, "--warnings", "-E", "UTF-8", "-l", path, NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
      g_assert_cmpstr (err, ==, "");
      g_assert_nonnull (strstr (out, "NAME"));
      g_assert_nonnull (strstr (out, "--version"));
      if (i == 0)
        for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
          g_assert_nonnull (strstr (out, commands[c]));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* Messages in English, whatever the machine's language. */
  g_setenv ("LANGUAGE", "C", TRUE);
  g_setenv ("MANWIDTH", "120", TRUE);
  g_test_add_func ("/cli-manners/command-help", test_command_help);
  g_test_add_func ("/cli-manners/unknown-option", test_unknown_option);
  g_test_add_func ("/cli-manners/stdin-plan", test_stdin_plan);
  g_test_add_func ("/cli-manners/stdout-output", test_stdout_output);
  g_test_add_func ("/cli-manners/export-stdout", test_export_stdout);
  g_test_add_func ("/cli-manners/format-version", test_format_version);
  g_test_add_func ("/cli-manners/json-errors", test_json_errors);
  g_test_add_func ("/cli-manners/man-pages", test_man_pages);
  return g_test_run ();
}
