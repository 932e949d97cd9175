/* test-problem.c: refused plan values as data (issue #24). Every rule of
 * qm_plan_validate() and the reader's type checks give their key path, a
 * code and the values involved; the C locale renders today's English text
 * (what the CLI and the golden messages always printed), and German renders
 * German from the catalogs built in <builddir>/po.
 *
 * usage: test-problem [--tap] [de]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <string.h>

#include "qm-plan.h"
#include "qm-problem.h"
#include "qm-test-util.h"

static void
load_base (QmPlan *plan)
{
  g_autofree char *path = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_load_from_file (plan, path, NULL, &error));
  g_assert_no_error (error);
}

/* The values of @problem as --json prints them, equal to @expected (JSON
 * text; numbers compare by value, as a script reads them). */
static char *values_json (const QmProblem *problem);

static void
assert_values (const QmProblem *problem,
               const char      *expected)
{
  g_autoptr(JsonNode) want = json_from_string (expected, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = values_json (problem);

  g_assert_nonnull (want);
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  if (!json_node_equal (json_parser_get_root (parser), want))
    g_error ("values %s, expected %s", text, expected);
}

/* The values of @problem as --json prints them, compact, without "key"
 * (checked here to be the problem's path). */
static char *
values_json (const QmProblem *problem)
{
  g_autoptr(JsonNode) values = qm_problem_values_json (problem);
  JsonObject *o = json_node_get_object (values);

  if (problem->path[0] != '\0')
    g_assert_cmpstr (json_object_get_string_member (o, "key"), ==, problem->path);
  else
    g_assert_false (json_object_has_member (o, "key"));
  json_object_remove_member (o, "key");
  return json_to_string (values, FALSE);
}

typedef void (*Mutate) (QmPlan *p);

static void tp3 (QmPlan *p)            { p->workload.tp = 3; }
static void tp_heads (QmPlan *p)       { p->workload.model.heads = 4; p->workload.model.kv_heads = 4; }
static void gpus_2047 (QmPlan *p)      { p->workload.target_gpus = 2047; }
static void gpus_huge (QmPlan *p)      { p->workload.target_gpus = 20000000; }
static void pp_200 (QmPlan *p)         { p->workload.pp = 200; }
static void ep_3 (QmPlan *p)           { p->workload.ep = 3; }
static void micro_4096 (QmPlan *p)     { p->workload.micro_batch = 4096; }
static void tokens_neg (QmPlan *p)     { p->workload.tokens = -5e9; }
static void tokens_huge (QmPlan *p)    { p->workload.tokens = 2e16; }
static void heads_big (QmPlan *p)      { p->workload.model.heads = 9000; }
static void kv_heads_5 (QmPlan *p)     { p->workload.model.kv_heads = 5; }
static void pue_09 (QmPlan *p)         { p->facility.pue = 0.9; }
static void lora_rank_0 (QmPlan *p)    { p->workload.mode = QM_MODE_LORA; p->workload.lora_rank = 0; }
static void deadline_bad (QmPlan *p)   { p->workload.target_gpus = 0; p->workload.deadline_days = 40000; }
static void gpu_memory (QmPlan *p)     { p->hardware.gpu.memory_gb = 0; }
static void server_gpus (QmPlan *p)    { p->hardware.server.gpus = 0; }
static void dense_layers (QmPlan *p)   { p->workload.model.dense_layers = 100; }
static void zero_stage (QmPlan *p)     { p->workload.zero_stage = 4; }

static const struct
{
  Mutate      mutate;
  const char *path;
  const char *code;
  const char *english;  /* the message before issue #24, as the CLI printed it */
  const char *values;
} validate_cases[] = {
  { tp3, "workload.tp", "must-divide", "workload.tp: must divide the 8 GPUs of a node (got 3)",
    "{\"gpus_per_node\":8,\"got\":3}" },
  { tp_heads, "workload.tp", "must-divide", "workload.tp: must divide the attention heads (4) (got 8)",
    "{\"heads\":4,\"got\":8}" },
  { gpus_2047, "target.gpus", "not-a-multiple", "target.gpus: must be a multiple of tp·pp·cp = 32 (got 2047)",
    "{\"multiple_of\":32,\"got\":2047}" },
  { gpus_huge, "target.gpus", "out-of-range", "target.gpus: must be at most 10000000 (got 2e+07)",
    "{\"max\":10000000,\"got\":20000000}" },
  { pp_200, "workload.pp", "exceeds-key", "workload.pp: must not exceed the layers (80) (got 200)",
    "{\"layers\":80,\"got\":200}" },
  { ep_3, "workload.ep", "must-divide", "workload.ep: must divide the experts (0) (got 3)",
    "{\"experts\":0,\"got\":3}" },
  { micro_4096, "workload.micro_batch", "exceeds-key",
    "workload.micro_batch: must be from 1 to global_batch (2048) (got 4096)",
    "{\"global_batch\":2048,\"got\":4096}" },
  { tokens_neg, "workload.tokens_b", "out-of-range", "workload.tokens_b: must be > 0 (got -5)",
    "{\"got\":-5}" },
  { tokens_huge, "workload.tokens_b", "out-of-range",
    "workload.tokens_b: must be at most 10000000 (billions) (got 2e+07)", "{\"max\":10000000,\"got\":20000000}" },
  { heads_big, "workload.model.heads", "exceeds-key",
    "workload.model.heads: must be from 1 to hidden (8192) (got 9000)", "{\"hidden\":8192,\"got\":9000}" },
  { kv_heads_5, "workload.model.kv_heads", "must-divide", "workload.model.kv_heads: must divide heads (64) (got 5)",
    "{\"heads\":64,\"got\":5}" },
  { pue_09, "facility.pue", "out-of-range", "facility.pue: must be from 1 to 3 (got 0.9)",
    "{\"min\":1,\"max\":3,\"got\":0.9}" },
  { zero_stage, "workload.zero_stage", "out-of-range", "workload.zero_stage: must be 0, 1, 2 or 3 (got 4)",
    "{\"min\":0,\"max\":3,\"got\":4}" },
  { lora_rank_0, "workload.lora_rank", "missing-for-mode",
    "workload.lora_rank: must be > 0 for LoRA and QLoRA (got 0)", "{\"got\":0}" },
  { deadline_bad, "target.deadline_days", "out-of-range",
    "target.deadline_days: must be > 0 and at most 36500 (got 40000)", "{\"max\":36500,\"got\":40000}" },
  { gpu_memory, "hardware.gpu", "out-of-range", "hardware.gpu: the GPU's memory_gb must be > 0 (got 0)",
    "{\"got\":0}" },
  { server_gpus, "hardware.server", "out-of-range", "hardware.server: the server must hold 1 to 1024 GPUs (got 0)",
    "{\"min\":1,\"max\":1024,\"got\":0}" },
  { dense_layers, "workload.model.dense_layers", "exceeds-key",
    "workload.model.dense_layers: must not exceed layers (80) (got 100)", "{\"layers\":80,\"got\":100}" },
};

static void
test_validate (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (validate_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) copy = NULL;
      g_autofree char *text = NULL;
      const QmProblem *problem;
      QmPlan plan;

      load_base (&plan);
      validate_cases[i].mutate (&plan);
      g_assert_false (qm_plan_validate (&plan, &error));
      g_test_message ("%s", error->message);
      g_assert_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID);
      problem = qm_plan_error_get_problem (error);
      g_assert_nonnull (problem);
      g_assert_cmpstr (problem->path, ==, validate_cases[i].path);
      g_assert_cmpstr (qm_problem_code_id (problem->code), ==, validate_cases[i].code);
      text = qm_problem_to_string (problem);
      g_assert_cmpstr (text, ==, validate_cases[i].english);
      g_assert_cmpstr (error->message, ==, validate_cases[i].english);
      assert_values (problem, validate_cases[i].values);

      /* A copied error (a GTask, a GValue) keeps its problem. */
      copy = g_error_copy (error);
      g_assert_nonnull (qm_plan_error_get_problem (copy));
      g_assert_cmpint (qm_plan_error_get_problem (copy)->code, ==, problem->code);
    }
}

/* The reader's checks, from a file's text. */
static const struct
{
  const char *was;      /* in the base plan */
  const char *member;   /* what replaces it */
  const char *path;
  const char *code;
  const char *english;
  const char *values;
} reader_cases[] = {
  { "\"epochs\": 1", "\"epochs\": \"one\"", "workload.epochs", "not-a-number",
    "workload.epochs: must be a number (got \"one\")", "{\"got\":\"one\"}" },
  { "\"seq_len\": 8192", "\"seq_len\": 81.5", "workload.seq_len", "not-an-integer",
    "workload.seq_len: must be a whole number from 0 to 1e9 (got 81.5)", "{\"min\":0,\"max\":1000000000,\"got\":81.5}" },
  { "\"precision\": \"bf16\"", "\"precision\": \"fp4\"", "workload.precision", "bad-enum",
    "workload.precision: must be one of fp32, fp16, bf16, fp8 (got \"fp4\")",
    "{\"choices\":\"fp32, fp16, bf16, fp8\",\"got\":\"fp4\"}" },
  { "\"flash_attention\": true", "\"flash_attention\": \"yes\"", "workload.flash_attention", "not-a-boolean",
    "workload.flash_attention: must be true or false (got \"yes\")", "{\"got\":\"yes\"}" },
  { "\"mfu\": 0.40", "\"mfu\": 2", "workload.mfu", "out-of-range",
    "workload.mfu: must be > 0 and <= 1, or \"auto\" (got 2)", "{\"min\":0,\"max\":1,\"got\":2}" },
  { "\"tp\": 8", "\"tp\": 0", "workload.tp", "not-a-count",
    "workload.tp: must be a whole number >= 1 or \"auto\" (got 0)", "{\"got\":0}" },
  { "\"epochs\": 1", "\"epochs\": {}", "workload.epochs", "not-a-number", "workload.epochs: must be a number (got an object)",
    "{\"got\":\"object\"}" },
};

static void
test_reader (void)
{
  g_autofree char *path = qm_test_source_path ("data/examples/llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *base = NULL;

  g_assert_true (g_file_get_contents (path, &base, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (reader_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GString) data = g_string_new (base);
      const QmProblem *problem;
      QmPlan plan;

      g_assert_nonnull (strstr (base, reader_cases[i].was));
      g_string_replace (data, reader_cases[i].was, reader_cases[i].member, 1);
      g_assert_false (qm_plan_load_from_data (&plan, data->str, -1, NULL, &error));
      g_test_message ("%s", error->message);
      problem = qm_plan_error_get_problem (error);
      g_assert_nonnull (problem);
      g_assert_cmpstr (problem->path, ==, reader_cases[i].path);
      g_assert_cmpstr (qm_problem_code_id (problem->code), ==, reader_cases[i].code);
      g_assert_cmpstr (error->message, ==, reader_cases[i].english);
      assert_values (problem, reader_cases[i].values);
    }
}

/* The whole file and what is not a plan: no key path but the file's. */
static void
test_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  QmPlan plan;

  g_assert_false (qm_plan_load_from_data (&plan, "[1, 2]", -1, NULL, &error));
  g_assert_cmpstr (error->message, ==, "(top level): must be a JSON object (got an array)");
  g_assert_cmpstr (qm_plan_error_get_problem (error)->path, ==, "");
  g_assert_cmpstr (qm_problem_code_id (qm_plan_error_get_problem (error)->code), ==, "not-an-object");
  g_clear_error (&error);

  g_assert_false (qm_plan_load_from_data (&plan, "{\"format\": \"quartermaster-plan\", \"version\": 7}",
                                          -1, NULL, &error));
  g_assert_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_FORMAT);
  g_assert_cmpstr (error->message, ==,
                   "version: written by a newer Quartermaster; this one reads version 1 (got 7)");
  g_assert_cmpfloat (qm_plan_error_get_problem (error)->numbers[0], ==, 1);
  g_clear_error (&error);

  /* An error made without a problem has none. */
  g_set_error_literal (&error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID, "something");
  g_assert_null (qm_plan_error_get_problem (error));
  g_clear_error (&error);
  g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_FAILED, "something");
  g_assert_null (qm_plan_error_get_problem (error));
}

/* The same refusal in German: nothing of the English template is left,
 * the path stays a key path and the numbers are the plan's. */
static void
test_german (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  QmPlan plan;

  load_base (&plan);
  plan.workload.target_gpus = 2047;
  g_assert_false (qm_plan_validate (&plan, &error));
  message = qm_problem_message (qm_plan_error_get_problem (error));
  g_assert_cmpstr (message, ==, "muss ein Vielfaches von tp·pp·cp = 32 sein (Wert: 2047)");
  g_assert_cmpstr (error->message, ==, "target.gpus: muss ein Vielfaches von tp·pp·cp = 32 sein (Wert: 2047)");
  g_clear_error (&error);

  /* A schema row's own rule is translated too. */
  load_base (&plan);
  plan.facility.pue = 0.9;
  g_assert_false (qm_plan_validate (&plan, &error));
  g_assert_cmpstr (error->message, ==, "facility.pue: muss zwischen 1 und 3 liegen (Wert: 0.9)");
}

/* The reader's warnings are problems too, rendered in German. */
static void
test_german_warnings (void)
{
  g_autofree char *path = qm_test_source_path ("tests/plans/good/training-every-key.qmplan");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  QmPlan plan;

  g_assert_true (qm_plan_load_from_file (&plan, path, &warnings, &error));
  g_assert_no_error (error);
  g_assert_true (g_ptr_array_find_with_equal_func (warnings, "colour: unbekannter Schlüssel, ignoriert",
                                                   g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (warnings, "hardware.server: hgx-h100-8 enthält h100-sxm-80gb, "
                                                   "nicht h800-sxm-80gb; verwendet wird h800-sxm-80gb",
                                                   g_str_equal, NULL));
}

int
main (int argc, char **argv)
{
  const char *language = NULL;

  for (int i = 1; i < argc; i++)
    if (argv[i][0] != '-')
      language = argv[i];
  if (language != NULL)
    {
      const char *build_dir = g_getenv ("QM_BUILD_DIR");
      g_autofree char *localedir = g_build_filename (build_dir ? build_dir : ".", "po", NULL);

      /* As test-translation.c: LANGUAGE on a machine with only C.UTF-8. */
      g_unsetenv ("LC_ALL");
      g_unsetenv ("LC_MESSAGES");
      g_unsetenv ("LC_NUMERIC");
      g_setenv ("LANG", "C.UTF-8", TRUE);
      g_setenv ("LANGUAGE", language, TRUE);
      setlocale (LC_ALL, "");
      bindtextdomain (GETTEXT_PACKAGE, localedir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
    }
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  if (g_strcmp0 (language, "de") == 0)
    {
      g_test_add_func ("/problem/german", test_german);
      g_test_add_func ("/problem/german-warnings", test_german_warnings);
      return g_test_run ();
    }
  g_test_add_func ("/problem/validate", test_validate);
  g_test_add_func ("/problem/reader", test_reader);
  g_test_add_func ("/problem/file", test_file);
  return g_test_run ();
}
