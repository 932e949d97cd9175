/* test-catalog-json.c: the catalog's field tables (qm_catalog_fields())
 * say what the parser does: a field marked required is refused when
 * absent, a positive one at 0, a fraction above 1; and the helpers forms
 * use (id and date checks, dotted keys) agree with the parser.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "qm-catalog-json.h"

/* The smallest entry of each kind the parser takes (docs/plan-file.md). */
static const char *minimal[QM_N_CATALOG_KINDS] = {
  [QM_CATALOG_KIND_GPU] =
    "{\"id\": \"x1\", \"name\": \"X1\", \"tflops\": {\"bf16\": 100}, \"memory_gb\": 80,"
    " \"bandwidth_tbs\": 3}",
  [QM_CATALOG_KIND_SERVER] =
    "{\"id\": \"x1\", \"name\": \"X1\", \"gpus\": 8, \"rack_units\": 4, \"power_max_w\": 10000}",
  [QM_CATALOG_KIND_NETWORK] =
    "{\"id\": \"x1\", \"name\": \"X1\", \"ports\": 64, \"port_gbps\": 400}",
  [QM_CATALOG_KIND_STORAGE] =
    "{\"id\": \"x1\", \"name\": \"X1\"}",
  [QM_CATALOG_KIND_FACILITY] =
    "{\"id\": \"x1\", \"name\": \"X1\", \"kind\": \"rack\"}",
  [QM_CATALOG_KIND_CLOUD] =
    "{\"id\": \"x1\", \"name\": \"X1\", \"provider\": \"p\", \"gpu_id\": \"h100-sxm-80gb\", \"gpus\": 8,"
    " \"usd_per_gpu_hour_on_demand\": 2, \"usd_per_gpu_hour_reserved\": 1}",
  [QM_CATALOG_KIND_MODEL] =
    "{\"id\": \"x1\", \"name\": \"X1\", \"params\": 7e9, \"layers\": 32, \"hidden\": 4096,"
    " \"heads\": 32, \"vocab\": 32000}",
};

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Parses @o as @kind; the error's code, or -1 when it parses. */
static int
parse_code (QmCatalogKind  kind,
            JsonObject    *o,
            const char    *key)
{
  g_autofree gpointer spec = g_malloc0 (qm_catalog_kind_struct_size (kind));
  g_autoptr(GError) error = NULL;

  if (qm_catalog_parse_object (kind, o, QM_CATALOG_PARSE_STRICT, spec, &error))
    return -1;
  g_assert_true (error->domain == QM_CATALOG_ERROR);
  /* The error names the field. */
  g_assert_true (g_str_has_prefix (error->message, key));
  return error->code;
}

static void
test_flags_match_parser (void)
{
  for (QmCatalogKind k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      const QmCatalogField *fields;
      guint n;

      fields = qm_catalog_fields (k, &n);
      {
        g_autoptr(JsonObject) o = parse_object (minimal[k]);

        g_assert_cmpint (parse_code (k, o, ""), ==, -1);
      }
      for (guint i = 0; i < n; i++)
        {
          const QmCatalogField *f = &fields[i];

          /* The tflops object's rule (a bf16 or fp16 figure) spans fields. */
          if (strchr (f->key, '.') != NULL)
            continue;
          {
            g_autoptr(JsonObject) o = parse_object (minimal[k]);

            json_object_remove_member (o, f->key);
            if (f->flags & QM_CATALOG_FIELD_REQUIRED)
              g_assert_cmpint (parse_code (k, o, f->key), ==, QM_CATALOG_ERROR_MISSING_KEY);
            else
              g_assert_cmpint (parse_code (k, o, f->key), ==, -1);
          }
          if (f->type == QM_CATALOG_FIELD_TEXT || f->type == QM_CATALOG_FIELD_BOOL)
            continue;
          {
            g_autoptr(JsonObject) o = parse_object (minimal[k]);

            json_object_set_double_member (o, f->key, 0.0);
            if (f->flags & QM_CATALOG_FIELD_POSITIVE)
              g_assert_cmpint (parse_code (k, o, f->key), ==, QM_CATALOG_ERROR_INVALID);
            else if (!(f->flags & QM_CATALOG_FIELD_REQUIRED))
              g_assert_cmpint (parse_code (k, o, f->key), ==, -1);
          }
          {
            g_autoptr(JsonObject) o = parse_object (minimal[k]);

            json_object_set_double_member (o, f->key, 1.5);
            if (f->flags & QM_CATALOG_FIELD_FRACTION)
              g_assert_cmpint (parse_code (k, o, f->key), ==, QM_CATALOG_ERROR_INVALID);
            if (f->type == QM_CATALOG_FIELD_COUNT)
              g_assert_cmpint (parse_code (k, o, f->key), ==, QM_CATALOG_ERROR_INVALID);
          }
        }
    }
}

/* Every field has a label and is listed once; a GPU's tflops object is a
 * field per precision. */
static void
test_fields_listed_once (void)
{
  for (QmCatalogKind k = 0; k < QM_N_CATALOG_KINDS; k++)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      QmCatalogValueType type;
      const QmCatalogField *fields;
      guint n, n_parsed = 0;

      for (guint i = 0; qm_catalog_field_key (k, i, &type) != NULL; i++)
        n_parsed += type == QM_CATALOG_VALUE_TFLOPS ? QM_N_PRECISIONS : 1;
      fields = qm_catalog_fields (k, &n);
      g_assert_cmpuint (n, ==, n_parsed);
      for (guint i = 0; i < n; i++)
        {
          g_assert_nonnull (fields[i].label);
          g_assert_cmpstr (fields[i].label, !=, "");
          g_assert_false (g_hash_table_contains (seen, fields[i].key));
          g_hash_table_add (seen, (gpointer) fields[i].key);
        }
    }
}

/* A cloud offer's instance type comes after its prices (LAST). */
static void
test_last (void)
{
  const QmCatalogField *fields;
  guint n;

  fields = qm_catalog_fields (QM_CATALOG_KIND_CLOUD, &n);
  g_assert_cmpstr (fields[n - 1].key, ==, "instance_type");
  g_assert_cmpstr (fields[0].key, ==, "provider");
}

static void
test_helpers (void)
{
  g_autoptr(JsonObject) o = parse_object (minimal[QM_CATALOG_KIND_GPU]);
  const QmCatalogField *id = qm_catalog_info_field ("id");

  g_assert_true (qm_catalog_id_is_valid ("llama-3.1-8b"));
  g_assert_false (qm_catalog_id_is_valid ("H100"));
  g_assert_false (qm_catalog_id_is_valid ("-x"));
  g_assert_true (qm_catalog_date_is_valid ("2024-02-29"));
  g_assert_false (qm_catalog_date_is_valid ("2023-02-29"));
  g_assert_false (qm_catalog_date_is_valid ("1 Jun 2025"));

  g_assert_cmpfloat (json_node_get_double (qm_catalog_json_lookup (o, "tflops.bf16")), ==, 100.0);
  g_assert_cmpfloat (json_node_get_double (qm_catalog_json_lookup (o, "memory_gb")), ==, 80.0);
  g_assert_null (qm_catalog_json_lookup (o, "tflops.fp8"));
  g_assert_null (qm_catalog_json_lookup (o, "memory_gb.x"));
  g_assert_null (qm_catalog_json_lookup (NULL, "memory_gb"));

  g_assert_nonnull (id);
  g_assert_true (id->flags & QM_CATALOG_FIELD_REQUIRED);
  g_assert_false (id->check ("H100"));
  g_assert_nonnull (id->rule);
  g_assert_false (qm_catalog_info_field ("as_of")->check ("2023-02-29"));
  g_assert_null (qm_catalog_info_field ("name")->check);
  g_assert_cmpint (qm_catalog_info_field ("price_usd")->type, ==, QM_CATALOG_FIELD_MONEY);
  g_assert_null (qm_catalog_info_field ("memory_gb"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/catalog-json/flags-match-parser", test_flags_match_parser);
  g_test_add_func ("/catalog-json/fields-listed-once", test_fields_listed_once);
  g_test_add_func ("/catalog-json/last", test_last);
  g_test_add_func ("/catalog-json/helpers", test_helpers);

  return g_test_run ();
}
