/* test-plan.c: reading and writing plan files; the malformed-plan corpus.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-estimate.h"
#include "qm-plan.h"
#include "qm-plan-schema.h"
#include "qm-test-util.h"

static void
test_examples_load_and_round_trip (void)
{
  g_autofree char *dir = qm_test_source_path ("data/examples");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) warnings = NULL;
      g_autofree char *data1 = NULL, *data2 = NULL;
      QmPlan a, b;

      if (!g_str_has_suffix (name, ".qmplan"))
        continue;
      g_test_message ("%s", name);
      g_assert_true (qm_plan_load_from_file (&a, path, &warnings, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (warnings->len, ==, 0);
      g_assert_cmpstr (a.gpu_id, !=, "");
      g_assert_cmpfloat (a.hardware.gpu.memory_gb, >, 0);

      data1 = qm_plan_to_data (&a, NULL);
      g_assert_true (qm_plan_load_from_data (&b, data1, -1, NULL, &error));
      g_assert_no_error (error);
      data2 = qm_plan_to_data (&b, NULL);
      g_assert_cmpstr (data1, ==, data2);
      n++;
    }
  g_assert_cmpuint (n, >=, 3);
}

/* tests/plans/bad/<key path>@<what>.json must fail, and the error must
 * start with the key path. The plan passed in must stay untouched. */
static void
test_bad_corpus (void)
{
  g_autofree char *dir = qm_test_source_path ("tests/plans/bad");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *key = g_strndup (name, strcspn (name, "@"));
      g_autofree char *prefix = g_strconcat (key, ":", NULL);
      g_autoptr(GError) error = NULL;
      QmPlan plan, before;

      qm_plan_init (&plan);
      g_strlcpy (plan.name, "untouched", sizeof plan.name);
      before = plan;
      g_assert_false (qm_plan_load_from_file (&plan, path, NULL, &error));
      g_assert_nonnull (error);
      g_test_message ("%s -> %s", name, error->message);
      g_assert_true (error->domain == QM_PLAN_ERROR);
      if (!g_str_has_prefix (error->message, prefix))
        g_error ("%s: error \"%s\" does not start with \"%s\"", name, error->message, prefix);
      g_assert_true (memcmp (&plan, &before, sizeof plan) == 0);
      n++;
    }
  g_assert_cmpuint (n, >=, 30);
}

static const char *minimal =
  "{ \"format\": \"quartermaster-plan\", \"version\": 1,"
  "  \"workload\": { \"mode\": \"pretrain\", \"model\": { \"params_b\": 7 }, \"tokens_b\": 100,"
  "                  \"surprise\": 1 },"
  "  \"target\": { \"gpus\": 64 }, \"colour\": \"blue\","
  "  \"hardware\": { \"gpu\": \"a100-sxm-80gb\", \"server\": \"dgx-a100\" } }";

static void
test_unknown_keys_warn (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  QmPlan plan;

  g_assert_true (qm_plan_load_from_data (&plan, minimal, -1, &warnings, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (warnings, 0), ==, "colour: unknown key, ignored");
  g_assert_cmpstr (g_ptr_array_index (warnings, 1), ==, "workload.surprise: unknown key, ignored");
  g_assert_cmpfloat (plan.workload.model.params_hint, ==, 7e9);
  g_assert_cmpfloat (plan.workload.tokens, ==, 100e9);
  g_assert_cmpuint (plan.workload.tp, ==, 0);   /* auto */
  g_assert_cmpfloat (plan.workload.mfu, ==, 0); /* auto */
  g_assert_cmpuint (plan.hardware.server.gpus, ==, 8);
}

static void
test_error_messages (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  GString *s = g_string_new (minimal);
  QmPlan plan;

  g_string_replace (s, "\"tokens_b\": 100", "\"tokens_b\": -5", 1);
  data = g_string_free (s, FALSE);
  g_assert_false (qm_plan_load_from_data (&plan, data, -1, NULL, &error));
  g_assert_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "workload.tokens_b: must be > 0 (got -5)");
}

/* A stranger's plan: a name that would set the terminal's title is
 * refused with its key path, and the message shows the character rather
 * than obeying it; notes keep their line breaks and tabs. */
static void
test_control_characters (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  GString *s = g_string_new (minimal);
  QmPlan plan;

  g_string_replace (s, "\"version\": 1,", "\"version\": 1, \"name\": \"ok\\u001b]0;title\\u0007\\u001b[31m\",", 1);
  data = g_string_free (s, FALSE);
  g_assert_false (qm_plan_load_from_data (&plan, data, -1, NULL, &error));
  g_assert_error (error, QM_PLAN_ERROR, QM_PLAN_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "name: must not contain control characters or bidirectional overrides (got U+001B at character 3)");
  g_clear_error (&error);
  g_clear_pointer (&data, g_free);

  s = g_string_new (minimal);
  g_string_replace (s, "\"version\": 1,", "\"version\": 1, \"notes\": \"one\\n\\ttwo\",", 1);
  data = g_string_free (s, FALSE);
  g_assert_true (qm_plan_load_from_data (&plan, data, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (plan.notes, ==, "one\n\ttwo");
  g_clear_pointer (&data, g_free);

  /* An enum's value is quoted in the message, escaped. */
  s = g_string_new (minimal);
  g_string_replace (s, "\"pretrain\"", "\"pre\\u001b[2Jtrain\"", 1);
  data = g_string_free (s, FALSE);
  g_assert_false (qm_plan_load_from_data (&plan, data, -1, NULL, &error));
  g_assert_nonnull (strstr (error->message, "pre\\x1b[2Jtrain"));
  g_assert_null (strchr (error->message, '\x1b'));
}

/* A plan may carry custom hardware: hardware.gpu_spec stands in for an id
 * the reader's catalog lacks, and is written back out. */
static void
test_embedded_gpu_spec (void)
{
  const char *text =
    "{ \"format\": \"quartermaster-plan\", \"version\": 1,"
    "  \"workload\": { \"mode\": \"pretrain\", \"model\": { \"preset\": \"llama-2-7b\" }, \"tokens_b\": 10 },"
    "  \"target\": { \"gpus\": 16 },"
    "  \"hardware\": { \"gpu\": \"my-gpu\", \"server\": \"pcie-8gpu\","
    "    \"gpu_spec\": { \"id\": \"my-gpu\", \"vendor\": \"Acme\", \"name\": \"Acme X1\","
    "      \"source\": \"test\", \"as_of\": \"2025-01-01\", \"family\": \"x1\", \"form_factor\": \"pcie\","
    "      \"tflops\": { \"bf16\": 500 }, \"memory_gb\": 96, \"bandwidth_tbs\": 3, \"tdp_w\": 600,"
    "      \"link_gbs\": 64 } } }";
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  QmPlan plan, again;

  g_assert_true (qm_plan_load_from_data (&plan, text, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (plan.gpu_embedded);
  g_assert_cmpfloat (plan.hardware.gpu.memory_gb, ==, 96);
  g_assert_cmpfloat (plan.hardware.gpu.tflops[QM_PRECISION_BF16], ==, 500);
  out = qm_plan_to_data (&plan, NULL);
  g_assert_nonnull (strstr (out, "\"gpu_spec\""));
  g_assert_true (qm_plan_load_from_data (&again, out, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (again.hardware.gpu.memory_gb, ==, 96);
}

/* Custom storage keeps its rent through a plan file (a field the writer
 * once left out, so that a rent quote lost its filesystem). */
static void
test_embedded_storage_spec (void)
{
  const char *text =
    "{ \"format\": \"quartermaster-plan\", \"version\": 1,"
    "  \"workload\": { \"mode\": \"pretrain\", \"model\": { \"preset\": \"llama-2-7b\" }, \"tokens_b\": 10 },"
    "  \"target\": { \"gpus\": 16 },"
    "  \"hardware\": { \"gpu\": \"h100-sxm-80gb\", \"server\": \"dgx-h100\", \"storage\": \"my-fs\","
    "    \"storage_spec\": { \"id\": \"my-fs\", \"name\": \"Our filesystem\", \"kind\": \"parallel-fs\","
    "      \"usd_per_tb\": 300, \"usd_per_gbs\": 2000, \"write_gbs_per_tb\": 0.1, \"watts_per_tb\": 4,"
    "      \"rack_units_per_pb\": 4, \"usd_per_tb_month\": 120 } } }";
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  QmPlan plan, again;

  g_assert_true (qm_plan_load_from_data (&plan, text, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (plan.storage_embedded);
  out = qm_plan_to_data (&plan, NULL);
  g_assert_true (qm_plan_load_from_data (&again, out, -1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (again.hardware.storage.usd_per_tb_month, ==, 120);
  g_assert_cmpfloat (again.hardware.storage.usd_per_tb, ==, 300);
  g_assert_cmpuint (again.hardware.storage.rack_units_per_pb, ==, 4);
}

static void
test_save_to_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "plan.qmplan", NULL);
  QmPlan plan, back;

  g_assert_true (qm_plan_load_from_data (&plan, minimal, -1, NULL, &error));
  g_strlcpy (plan.customer, "ACME Corp", sizeof plan.customer);
  g_assert_true (qm_plan_save_to_file (&plan, path, &error));
  g_assert_no_error (error);
  g_assert_true (qm_plan_load_from_file (&back, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (back.customer, ==, "ACME Corp");
  g_assert_true (qm_plan_validate (&back, &error));
}

/* Byte-for-byte: every example and good test plan reads and writes out as
 * the hand-coded writer of 2026-11 wrote it (tests/plans/golden/, made by
 * that writer before the plan schema drove it), and every bad plan fails
 * with the same code and message (golden/messages.txt). A mismatch leaves
 * the new output next to the test (<name>.actual) for a person to compare. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static GPtrArray *
sorted_names (const char *dir,
              const char *suffix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, suffix))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

static void
check_golden (const char *name,
              const char *actual)
{
  g_autofree char *dir = qm_test_source_path ("tests/plans/golden");
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_file_get_contents (path, &expected, NULL, &error) || g_strcmp0 (expected, actual) != 0)
    {
      g_autofree char *out = g_strconcat (name, ".actual", NULL);

      g_file_set_contents (out, actual, -1, NULL);
      g_error ("%s: output differs from %s (see %s/%s)", name, path, g_get_current_dir (), out);
    }
}

static void
test_golden (void)
{
  static const char *dirs[] = { "data/examples", "tests/plans/good" };
  g_autoptr(GString) messages = g_string_new (NULL);
  g_autofree char *bad = qm_test_source_path ("tests/plans/bad");
  g_autoptr(GPtrArray) bad_names = sorted_names (bad, ".json");
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = qm_test_source_path (dirs[i]);
      g_autoptr(GPtrArray) names = sorted_names (dir, ".qmplan");

      for (guint j = 0; j < names->len; j++)
        {
          const char *name = g_ptr_array_index (names, j);
          g_autofree char *path = g_build_filename (dir, name, NULL);
          g_autoptr(GError) error = NULL;
          g_autoptr(GPtrArray) warnings = NULL;
          g_autofree char *once = NULL, *twice = NULL;
          QmPlan a, b;

          g_assert_true (qm_plan_load_from_file (&a, path, &warnings, &error));
          g_assert_no_error (error);
          for (guint k = 0; k < warnings->len; k++)
            g_string_append_printf (messages, "%s\t%s\n", name,
                                    (char *) g_ptr_array_index (warnings, k));
          once = qm_plan_to_data (&a, NULL);
          check_golden (name, once);
          g_assert_true (qm_plan_load_from_data (&b, once, -1, NULL, &error));
          twice = qm_plan_to_data (&b, NULL);
          g_assert_cmpstr (once, ==, twice);
          n++;
        }
    }
  g_assert_cmpuint (n, >=, 7);

  for (guint j = 0; j < bad_names->len; j++)
    {
      const char *name = g_ptr_array_index (bad_names, j);
      g_autofree char *path = g_build_filename (bad, name, NULL);
      g_autoptr(GError) error = NULL;
      QmPlan plan;

      g_assert_false (qm_plan_load_from_file (&plan, path, NULL, &error));
      g_string_append_printf (messages, "%s\t%d\t%s\n", name, error->code, error->message);
    }
  check_golden ("messages.txt", messages->str);
}

static void
load_example (const char *name,
              QmPlan     *plan)
{
  g_autofree char *path = qm_test_source_path (name);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_load_from_file (plan, path, NULL, &error));
  g_assert_no_error (error);
}

/* Bytes no value owns: after a string's NUL, and a struct's padding. A
 * memcmp saw these; qm_plan_equal() must not. */
static void
test_equal_ignores_padding (void)
{
  QmPlan a, b;
  gsize kind_end = G_STRUCT_OFFSET (QmQuoteItemTerms, discount_kind) + sizeof (QmDiscountKind);
  gsize gap = G_STRUCT_OFFSET (QmQuoteItemTerms, discount) - kind_end;

  load_example ("data/examples/llama-3.1-70b-quote-eur.qmplan", &a);
  g_assert_cmpuint (a.quote.n_items, >, 0);
  b = a;
  g_assert_true (qm_plan_equal (&a, &b));

  /* After the NUL of the name. */
  g_assert_cmpuint (strlen (b.name) + 2, <, sizeof b.name);
  b.name[strlen (b.name) + 1] = 'x';
  g_assert_true (memcmp (&a, &b, sizeof a) != 0);
  g_assert_true (qm_plan_equal (&a, &b));

  /* The padding between an enum and the double after it (4 bytes on
   * the ABIs we build for). */
  b = a;
  g_assert_cmpuint (gap, >, 0);
  memset ((char *) &b.quote.items[0] + kind_end, 0x5a, gap);
  g_assert_true (memcmp (&a, &b, sizeof a) != 0);
  g_assert_true (qm_plan_equal (&a, &b));
}

/* -0.0 and 0.0 read the same, and so do two NaNs with different bits. */
static void
test_equal_numbers_as_read (void)
{
  QmPlan a, b;

  load_example ("data/examples/llama-3.1-70b-pretrain-h100.qmplan", &a);
  b = a;
  a.workload.mfu = 0.0;
  b.workload.mfu = -0.0;
  g_assert_true (memcmp (&a, &b, sizeof a) != 0);
  g_assert_true (qm_plan_equal (&a, &b));

  b = a;
  a.restart_minutes = NAN;
  b.restart_minutes = -NAN;
  g_assert_true (isnan (a.restart_minutes) && isnan (b.restart_minutes));
  g_assert_true (memcmp (&a, &b, sizeof a) != 0);
  g_assert_true (qm_plan_equal (&a, &b));

  /* A NaN is not a number, though. */
  b = a;
  b.restart_minutes = 10;
  g_assert_false (qm_plan_equal (&a, &b));
}

/* Every key the schema places, and the members it does not, count. */
static void
test_equal_sees_every_change (void)
{
  const QmPlanKey *keys;
  guint n_keys, n_changed = 0;
  QmPlan a, b;

  load_example ("data/examples/llama-3.1-70b-quote-eur.qmplan", &a);
  keys = qm_plan_schema_keys (&n_keys);
  for (guint i = 0; i < n_keys; i++)
    {
      const QmPlanKey *key = &keys[i];
      gpointer where;

      if (key->offset < 0)
        continue;
      b = a;
      where = G_STRUCT_MEMBER_P (&b, key->offset);
      switch (key->type)
        {
        case QM_PLAN_KEY_NUMBER:  *(double *) where += 1; break;
        case QM_PLAN_KEY_INTEGER: *(guint *) where += 1; break;
        case QM_PLAN_KEY_ENUM:    *(int *) where ^= 1; break;
        case QM_PLAN_KEY_BOOL:    *(gboolean *) where = !*(gboolean *) where; break;
        case QM_PLAN_KEY_STRING:
        case QM_PLAN_KEY_ID:
          {
            char *text = where;

            g_assert_cmpuint (key->size, >=, 2);
            if (text[0] == '\0')
              text[1] = '\0';
            text[0] = text[0] == 'x' ? 'y' : 'x';
            break;
          }
        case QM_PLAN_KEY_SPEC:
        case QM_PLAN_KEY_OBJECT:
        default:
          g_assert_not_reached ();
        }
      g_test_message ("%s", key->path);
      g_assert_false (qm_plan_equal (&a, &b));
      n_changed++;
    }
  g_assert_cmpuint (n_changed, >=, 80);

  /* Outside the schema's offsets: a resolved spec, its embedded flag, the
   * preset's extra shape terms, a discount, a phase and the quote flag. */
  b = a;
  b.hardware.gpu.memory_gb += 1;
  g_assert_false (qm_plan_equal (&a, &b));
  b = a;
  b.gpu_embedded = !a.gpu_embedded;
  g_assert_false (qm_plan_equal (&a, &b));
  b = a;
  b.workload.model.learned_positions += 1;
  g_assert_false (qm_plan_equal (&a, &b));
  b = a;
  g_assert_cmpuint (a.quote.n_items, >, 0);
  b.quote.items[0].discount += 0.01;
  g_assert_false (qm_plan_equal (&a, &b));
  b = a;
  g_assert_cmpuint (a.quote.n_phases, >, 0);
  b.quote.phases[0] += 0.01;
  g_assert_false (qm_plan_equal (&a, &b));
  b = a;
  b.has_quote = !a.has_quote;
  g_assert_false (qm_plan_equal (&a, &b));
}

/* Per-line quote terms in the plan file (issue #35 item 1). A file written
 * before them keys discounts by catalog id: ib-ndr-400 at 5 % applies to
 * the compute switches, storage switches, cables and transceivers alike,
 * and is written back so until the quote is priced and a line edited.
 * Then each line has its own entry under quote.lines, by its key, with its
 * discount, vendor, lead time and support rate, and they read back as
 * written: 5 % on the switches, 2 % on the cables, the rest as before. */
static void
quote_of (const QmPlan *plan,
          QmQuote      *q)
{
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  qm_estimate (plan, e);
  g_assert_true (e->valid);
  qm_estimate_quote (plan, e, q);
  g_assert_false (qm_issues_has_error (&q->issues));
}

static double
line_discount (const QmQuote *q,
               const char    *key)
{
  const QmQuoteLine *l = qm_quote_find_line (q, key);

  g_assert_nonnull (l);
  return l->discount;
}

static void
test_quote_per_line (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmPlan *back = g_new0 (QmPlan, 1);
  g_autofree QmQuote *q = g_new0 (QmQuote, 1);
  g_autofree QmQuote *q2 = g_new0 (QmQuote, 1);
  g_autofree char *old = NULL, *data = NULL, *again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *quote, *lines, *cables;
  QmQuoteItemTerms *it;

  load_example ("data/examples/llama-3.1-70b-quote-eur.qmplan", plan);
  quote_of (plan, q);
  /* The old file: one discount for the fabric's catalog id, on all four. */
  g_assert_cmpfloat_with_epsilon (line_discount (q, "compute-switches:ib-ndr-400"), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_discount (q, "storage-switches:ib-ndr-400"), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_discount (q, "cables:ib-ndr-400"), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_discount (q, "transceivers:ib-ndr-400"), 0.05, 1e-12);
  old = qm_plan_to_data (plan, NULL);
  g_assert_nonnull (strstr (old, "\"discounts\""));
  g_assert_null (strstr (old, "\"lines\""));

  /* 2 % on the cables, a vendor, lead time and support rate for them. */
  it = qm_quote_terms_edit (&plan->quote, q, "cables:ib-ndr-400");
  g_assert_nonnull (it);
  it->discount = 0.02;
  g_strlcpy (it->vendor, "Cable Co", sizeof it->vendor);
  it->lead_weeks = 6;
  it->support_rate = 0.03;
  data = qm_plan_to_data (plan, NULL);
  g_test_message ("%s", data);

  /* Written under quote.lines, by key; no catalog-wide entry is left. */
  g_assert_true (json_parser_load_from_data (parser, data, -1, &error));
  quote = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "quote");
  g_assert_false (json_object_has_member (quote, "discounts"));
  lines = json_object_get_object_member (quote, "lines");
  g_assert_nonnull (lines);
  g_assert_true (json_object_has_member (lines, "compute-switches:ib-ndr-400"));
  g_assert_true (json_object_has_member (lines, "servers:dgx-h100"));
  cables = json_object_get_object_member (lines, "cables:ib-ndr-400");
  g_assert_cmpfloat (json_object_get_double_member (cables, "discount"), ==, 0.02);
  g_assert_cmpstr (json_object_get_string_member (cables, "vendor"), ==, "Cable Co");
  g_assert_cmpfloat (json_object_get_double_member (cables, "lead_weeks"), ==, 6);
  g_assert_cmpfloat (json_object_get_double_member (cables, "support_rate"), ==, 0.03);

  /* Read back: the same terms, each line its own. */
  g_assert_true (qm_plan_load_from_data (back, data, -1, NULL, &error));
  g_assert_no_error (error);
  /* (Not qm_plan_equal (): the example's workload.model.experts does not
   * survive a round trip, a separate matter.) */
  g_assert_cmpuint (back->quote.n_items, ==, plan->quote.n_items);
  for (guint i = 0; i < plan->quote.n_items; i++)
    {
      const QmQuoteItemTerms *x = &plan->quote.items[i], *y = &back->quote.items[i];

      g_assert_cmpstr (x->key, ==, y->key);
      g_assert_cmpstr (x->catalog_id, ==, y->catalog_id);
      g_assert_cmpint (x->discount_kind, ==, y->discount_kind);
      g_assert_cmpfloat (x->discount, ==, y->discount);
      g_assert_cmpstr (x->vendor, ==, y->vendor);
      g_assert_cmpfloat (x->lead_weeks, ==, y->lead_weeks);
      g_assert_cmpfloat (x->support_rate, ==, y->support_rate);
    }
  again = qm_plan_to_data (back, NULL);
  g_assert_cmpstr (again, ==, data);
  quote_of (back, q2);
  g_assert_cmpfloat_with_epsilon (line_discount (q2, "compute-switches:ib-ndr-400"), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_discount (q2, "storage-switches:ib-ndr-400"), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_discount (q2, "cables:ib-ndr-400"), 0.02, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_discount (q2, "transceivers:ib-ndr-400"), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (line_discount (q2, "servers:dgx-h100"), 0.12, 1e-12);
  g_assert_cmpstr (qm_quote_find_line (q2, "cables:ib-ndr-400")->vendor, ==, "Cable Co");
  g_assert_cmpfloat (qm_quote_find_line (q2, "cables:ib-ndr-400")->lead_weeks, ==, 6);
  g_assert_cmpstr (qm_quote_find_line (q2, "transceivers:ib-ndr-400")->vendor, ==, "");
  /* 2 % off the cables instead of 5 %: the gross rises. */
  g_assert_cmpint (q2->gross, >, q->gross);

  /* A bad line: the path names it. */
  {
    g_autofree char *bad = NULL;
    g_auto(GStrv) parts = g_strsplit (data, "\"discount\" : 0.02", 2);

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
    bad = g_strjoinv ("\"discount\" : 2", parts);
    g_assert_false (qm_plan_load_from_data (back, bad, -1, NULL, &error));
  }
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "quote.lines.cables:ib-ndr-400.discount"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/plan/examples", test_examples_load_and_round_trip);
  g_test_add_func ("/plan/bad-corpus", test_bad_corpus);
  g_test_add_func ("/plan/unknown-keys-warn", test_unknown_keys_warn);
  g_test_add_func ("/plan/error-messages", test_error_messages);
  g_test_add_func ("/plan/control-characters", test_control_characters);
  g_test_add_func ("/plan/embedded-gpu-spec", test_embedded_gpu_spec);
  g_test_add_func ("/plan/embedded-storage-spec", test_embedded_storage_spec);
  g_test_add_func ("/plan/save-to-file", test_save_to_file);
  g_test_add_func ("/plan/golden", test_golden);
  g_test_add_func ("/plan/quote-per-line", test_quote_per_line);
  g_test_add_func ("/plan/equal/ignores-padding", test_equal_ignores_padding);
  g_test_add_func ("/plan/equal/numbers-as-read", test_equal_numbers_as_read);
  g_test_add_func ("/plan/equal/sees-every-change", test_equal_sees_every_change);
  return g_test_run ();
}
