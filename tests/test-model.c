/* test-model.c: parameter counts of every preset against its published total.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>

#include "qm-model.h"
#include "qm-test-util.h"

/* Read data/catalog/models.json directly, so that this test checks the data
 * file and the counting code on their own (the catalog parser has its own
 * tests). */
static JsonArray *
load_models (JsonParser **parser_out)
{
  g_autofree char *path = qm_test_source_path ("data/catalog/models.json");
  g_autoptr(GError) error = NULL;
  JsonParser *parser = json_parser_new ();

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)));
  *parser_out = parser;
  return json_node_get_array (json_parser_get_root (parser));
}

static void
shape_from_json (JsonObject   *o,
                 QmModelShape *s)
{
#define U(f) s->f = (guint) json_object_get_int_member_with_default (o, #f, 0)
#define B(f) s->f = json_object_get_boolean_member_with_default (o, #f, FALSE)
  memset (s, 0, sizeof *s);
  U (layers); U (hidden); U (heads); U (kv_heads); U (head_dim); U (ffn_hidden);
  U (vocab); U (experts); U (experts_per_token); U (shared_experts);
  U (moe_ffn_hidden); U (dense_layers); U (q_lora_rank); U (kv_lora_rank);
  U (rope_head_dim); U (learned_positions);
  B (gated_mlp); B (tied_embeddings); B (linear_bias); B (qkv_bias);
#undef U
#undef B
}

/* Published counts are exact (model cards) or rounded to 3 significant
 * figures (papers: 175.0B, 46.7B). MoE active counts are stated to 2-3
 * figures (37B, 39B, 12.9B), so for them we allow half a unit in the last
 * stated figure on top of the 1%. */
static double
active_tolerance (double published)
{
  double unit = pow (10.0, floor (log10 (published)) - 1.0);
  return 0.01 + 0.5 * unit / published;
}

static void
test_presets_match_published (void)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonArray *models = load_models (&parser);
  static const char *required[] = {
    "gpt-3-175b", "llama-7b", "llama-13b", "llama-33b", "llama-65b",
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b",
    "llama-3.1-70b", "llama-3.1-405b", "mistral-7b", "mixtral-8x7b",
    "mixtral-8x22b", "qwen2.5-7b", "qwen2.5-72b", "deepseek-v3",
    "falcon-180b", "bloom-176b", "pythia-70m", "pythia-160m", "pythia-410m",
    "pythia-1b", "pythia-1.4b", "pythia-2.8b", "pythia-6.9b", "pythia-12b",
  };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *o = json_array_get_object_element (models, i);
      const char *id = json_object_get_string_member (o, "id");
      double published = json_object_get_double_member (o, "params");
      double published_active = json_object_get_double_member (o, "active_params");
      QmModelShape s;
      QmParamCount c;

      g_assert_nonnull (id);
      g_assert_false (g_hash_table_contains (seen, id));
      g_hash_table_add (seen, (gpointer) id);
      g_assert_nonnull (json_object_get_string_member_with_default (o, "source", NULL));
      g_assert_nonnull (json_object_get_string_member_with_default (o, "as_of", NULL));

      shape_from_json (o, &s);
      qm_model_count_params (&s, &c);
      g_test_message ("%-16s computed %.4e published %.4e (%+.3f%%), active %.4e / %.4e",
                      id, c.total, published, 100 * (c.total / published - 1),
                      c.active, published_active);
      qm_assert_rel (c.total, published, 0.01);
      if (qm_model_is_moe (&s))
        qm_assert_rel (c.active, published_active, active_tolerance (published_active));
      else
        g_assert_cmpfloat (c.active, ==, c.total);
    }

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (!g_hash_table_contains (seen, required[i]))
      g_error ("preset %s missing from models.json", required[i]);
}

/* Exact totals from model cards, where our count has every term. */
static void
test_exact_counts (void)
{
  /* EleutherAI/pythia README: 70,426,624 total, 18,915,328 non-embedding. */
  QmModelShape pythia70m = { .layers = 6, .hidden = 512, .heads = 8, .ffn_hidden = 2048,
                             .vocab = 50304, .linear_bias = TRUE };
  /* meta-llama/Llama-2-7b-hf: 6,738,415,616. */
  QmModelShape llama2_7b = { .layers = 32, .hidden = 4096, .heads = 32, .ffn_hidden = 11008,
                             .vocab = 32000, .gated_mlp = TRUE };
  QmParamCount c;

  qm_model_count_params (&pythia70m, &c);
  g_assert_cmpfloat (c.total, ==, 70426624.0);
  g_assert_cmpfloat (c.total - c.embedding, ==, 18915328.0);
  g_assert_cmpfloat (qm_model_params (&llama2_7b), ==, 6738415616.0);
}

/* Narayanan et al. 2021 eq. 2 for a GPT block (MHA, 4h GeLU MLP, learned
 * positions): P = 12·l·h²·(1 + 13/(12h) + (V+s)/(12·l·h)). Our count adds
 * the final LayerNorm (2h) and counts the tied head once, as eq. 2 does. */
static void
test_narayanan_eq2 (void)
{
  QmModelShape gpt = { .layers = 96, .hidden = 12288, .heads = 96, .ffn_hidden = 4 * 12288,
                       .vocab = 51200, .tied_embeddings = TRUE, .learned_positions = 2048,
                       .linear_bias = TRUE };
  double l = 96, h = 12288, V = 51200, s = 2048;
  double eq2 = 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h));

  qm_assert_rel (qm_model_params (&gpt), eq2 + 2 * h, 1e-12);
}

/* PaLM App. B: MFU with the attention term, 6N + 12·L·H·Q·T per token. */
static void
test_flops_per_token (void)
{
  QmModelShape gpt = { .layers = 96, .hidden = 12288, .heads = 96, .ffn_hidden = 4 * 12288,
                       .vocab = 50257, .tied_embeddings = TRUE, .learned_positions = 2048,
                       .linear_bias = TRUE };
  double n = qm_model_active_params (&gpt);

  g_assert_cmpfloat (qm_model_training_flops_per_token (&gpt, 2048), ==,
                     6 * n + 12.0 * 96 * 96 * 128 * 2048);
}

static void
test_infer_shape (void)
{
  double targets[] = { 0.125e9, 1e9, 7e9, 13e9, 70e9, 175e9, 1000e9 };

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      QmModelShape s;

      qm_model_shape_infer (targets[i], &s);
      g_assert_true (qm_model_has_shape (&s));
      g_assert_cmpuint (s.hidden % s.heads, ==, 0);
      g_assert_cmpuint (s.heads % s.kv_heads, ==, 0);
      /* A whole number of layers gets within a few percent. */
      qm_assert_rel (qm_model_params (&s), targets[i], 0.10);
    }
}

/* Hoffmann et al. 2022, Table 3: a compute-optimal 70B model trains on
 * 1.4 trillion tokens (Chinchilla itself: 70B on 1.4T). */
static void
test_compute_optimal_tokens (void)
{
  g_assert_cmpfloat_with_epsilon (qm_model_compute_optimal_tokens (70e9), 1.4e12, 1e3);
  g_assert_cmpfloat (qm_model_compute_optimal_tokens (0), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/model/presets-match-published", test_presets_match_published);
  g_test_add_func ("/model/exact-counts", test_exact_counts);
  g_test_add_func ("/model/narayanan-eq2", test_narayanan_eq2);
  g_test_add_func ("/model/compute-optimal-tokens", test_compute_optimal_tokens);
  g_test_add_func ("/model/flops-per-token", test_flops_per_token);
  g_test_add_func ("/model/infer-shape", test_infer_shape);
  return g_test_run ();
}
