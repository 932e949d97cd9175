/* test-cli.c: quartermaster-cli as a user runs it (shared/design/cli.md):
 * exit status, --help, and estimate on every example plan.
 *
 * The CLI's path comes from QM_CLI (tests/meson.build).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "qm-test-util.h"

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Run the CLI with the NULL-terminated arguments; capture everything. */
static void
run_cli (Run *r,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("QM_CLI");
  const char *arg;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, r);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  r->status = g_subprocess_get_exit_status (proc);
}

static guint
count_lines (const char *s)
{
  guint n = 0;

  for (; *s; s++)
    n += *s == '\n';
  return n;
}

static void
test_version (void)
{
  g_auto(Run) r = { 0, };

  run_cli (&r, "--version", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "quartermaster-cli "));
}

/* --help lists every command of cli.md. */
static void
test_help (void)
{
  static const char *commands[] = {
    "estimate PLAN.json", "search PLAN.json", "report PLAN.json", "chart PLAN.json",
    "compare A.json", "catalog list", "catalog import", "plans list", "advise PLAN.json",
    "--db PATH", "--version", "--help",
  };
  g_auto(Run) r = { 0, };

  run_cli (&r, "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strstr (r.out, commands[i]) == NULL)
      g_error ("--help does not list '%s'", commands[i]);
}

/* Usage errors exit 2 with one line on stderr. */
static void
test_usage (void)
{
  g_auto(Run) r = { 0, };

  run_cli (&r, "advise", "x.qmplan", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  run_clear (&r);
  run_cli (&r, "no-such-command", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  run_clear (&r);
  run_cli (&r, "estimate", NULL);
  g_assert_cmpint (r.status, ==, 2);
  run_clear (&r);
  run_cli (&r, "estimate", "a.qmplan", "--bogus", NULL);
  g_assert_cmpint (r.status, ==, 2);
  run_clear (&r);
  run_cli (&r, NULL);
  g_assert_cmpint (r.status, ==, 2);
}

/* Every example: the text table has every section, --json parses and has
 * the headline figures. */
static void
test_examples (void)
{
  g_autofree char *dir = qm_test_source_path ("data/examples");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      g_auto(Run) text = { 0, };
      g_auto(Run) json = { 0, };
      JsonObject *o;
      gboolean training;

      if (!g_str_has_suffix (name, ".qmplan"))
        continue;
      n++;
      run_cli (&text, "estimate", path, NULL);
      g_assert_cmpint (text.status, ==, 0);
      g_assert_cmpstr (text.err, ==, "");
      run_cli (&json, "estimate", path, "--json", NULL);
      g_assert_cmpint (json.status, ==, 0);
      g_assert_true (json_parser_load_from_data (parser, json.out, -1, &error));
      g_assert_no_error (error);
      o = json_node_get_object (json_parser_get_root (parser));
      training = !g_str_equal (json_object_get_string_member (o, "mode"), "inference");

      g_assert_cmpint (json_object_get_int_member (o, "gpus"), >=, 1);
      g_assert_true (json_object_has_member (o, "train_days"));
      if (training)
        {
          g_assert_cmpfloat (json_object_get_double_member (o, "train_days"), >, 0);
          g_assert_nonnull (strstr (text.out, "\nReliability\n"));
        }
      else
        {
          g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (o, "train_days")));
          g_assert_nonnull (strstr (text.out, "\nInference\n"));
        }
      g_assert_nonnull (json_object_get_object_member (o, "cost_usd"));
      g_assert_nonnull (strstr (text.out, "\nCluster\n"));
      g_assert_nonnull (strstr (text.out, "\nPower\n"));
      g_assert_nonnull (strstr (text.out, "\nCost ("));
      /* Thousands separators in the C.UTF-8 locale (tests/meson.build). */
      g_assert_true (g_regex_match_simple ("\\d,\\d\\d\\d", text.out, 0, 0));
    }
  g_assert_cmpuint (n, >=, 4);
}

/* A bad plan: exit 1, one line on stderr naming the file and key path. */
static void
test_bad_plan (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qm-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bad.qmplan", NULL);
  g_autofree char *rack = g_build_filename (dir, "rack.qmplan", NULL);
  g_autofree char *example = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *data = NULL;
  g_autofree char *small = NULL;
  g_auto(Run) r = { 0, };

  g_assert_true (g_file_get_contents (example, &data, NULL, NULL));
  {
    g_auto(GStrv) parts = g_strsplit (data, "\"tokens_b\": 15000", -1);
    g_autofree char *bad = g_strjoinv ("\"tokens_b\": -5", parts);

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
    g_assert_true (g_file_set_contents (path, bad, -1, NULL));
  }
  run_cli (&r, "estimate", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  g_assert_nonnull (strstr (r.err, "bad.qmplan"));
  g_assert_nonnull (strstr (r.err, "workload.tokens_b"));
  g_assert_nonnull (strstr (r.err, "-5"));
  g_assert_cmpstr (r.out, ==, "");
  run_clear (&r);

  /* A missing file. */
  run_cli (&r, "estimate", "/nonexistent/plan.qmplan", "--json", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  run_clear (&r);

  /* Valid to the reader but bad for the estimate: a rack smaller than one
   * DGX H100. Exit 1, the error line names the field. */
  {
    g_auto(GStrv) parts = g_strsplit (data, "\"rack_units\": 42", -1);

    small = g_strjoinv ("\"rack_units\": 4", parts);
    g_assert_true (g_file_set_contents (rack, small, -1, NULL));
  }
  run_cli (&r, "estimate", rack, "--json", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "facility.rack_units"));
  g_assert_nonnull (strstr (r.out, "\"racks\""));

  g_unlink (path);
  g_unlink (rack);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cli/version", test_version);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/examples", test_examples);
  g_test_add_func ("/cli/bad-plan", test_bad_plan);
  return g_test_run ();
}
