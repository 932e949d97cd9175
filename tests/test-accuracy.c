/* test-accuracy.c: the error model and the estimate's bands (issue #36).
 *
 * The model itself is written and held current by the validations
 * (tests/test-parallel.c, tests/test-inference.c); here: that it loads,
 * that each band holds its estimate with the width its family's held-out
 * errors give, that a GPU without runs falls back to the pooled spread and
 * says so, and that a deadline at 90% confidence buys more GPUs than one
 * at 50% and still meets the deadline at the band's pessimistic edge.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "qm-accuracy.h"
#include "qm-estimate.h"
#include "qm-estimate-json.h"
#include "qm-plan.h"
#include "qm-test-util.h"

static void
load_example (const char *name,
              QmPlan     *p)
{
  g_autofree char *path = g_strdup_printf ("%s/data/examples/%s", g_getenv ("QM_SOURCE_DIR"), name);
  g_autoptr (GError) error = NULL;

  g_assert_true (qm_plan_load_from_file (p, path, NULL, &error));
  g_assert_no_error (error);
}

/* The file loads, every family's p10 <= bias <= p90, and the pooled
 * family counts every run of its domain. */
static void
test_model_loads (void)
{
  for (guint d = 0; d < QM_N_ACCURACY_DOMAINS; d++)
    {
      guint n, sum = 0;
      const QmAccuracyFamily * const *f = qm_accuracy_families (d, &n);

      g_assert_cmpuint (n, >, 1);
      g_assert_null (f[0]->family);
      g_assert_null (f[0]->kind);
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpfloat (f[i]->p10, <=, f[i]->bias);
          g_assert_cmpfloat (f[i]->bias, <=, f[i]->p90);
          g_assert_cmpuint (f[i]->gpus_min, <=, f[i]->gpus_max);
          if (f[i]->family != NULL && f[i]->kind == NULL)
            sum += f[i]->runs;
        }
      /* The GPU families partition the runs. */
      g_assert_cmpuint (sum, ==, f[0]->runs);
    }
}

static void
test_parse_refuses (void)
{
  GPtrArray *t = NULL, *s = NULL;
  g_autoptr (GError) error = NULL;
  const char *no_pooled =
    "{\"training\": {\"families\": [{\"family\": \"h100\", \"kind\": null, \"runs\": 3, \"gpus_min\": 8,"
    " \"gpus_max\": 8, \"bias\": 0, \"p10\": -0.1, \"p90\": 0.1}]}, \"serving\": {\"families\": []}}";
  const char *crossed =
    "{\"training\": {\"families\": [{\"family\": null, \"kind\": null, \"runs\": 3, \"gpus_min\": 8,"
    " \"gpus_max\": 8, \"bias\": 0, \"p10\": 0.2, \"p90\": 0.1}]}, \"serving\": {\"families\": []}}";

  g_assert_false (qm_accuracy_parse (no_pooled, -1, &t, &s, &error));
  g_assert_nonnull (strstr (error->message, "pooled"));
  g_clear_error (&error);
  g_assert_false (qm_accuracy_parse (crossed, -1, &t, &s, &error));
  g_assert_nonnull (strstr (error->message, "p10 <= p90"));
  g_assert_null (t);
  g_assert_null (s);
}

/* The most specific family with enough runs; the pooled spread, said,
 * where the GPU's family has none or too few. */
static void
test_lookup (void)
{
  QmAccuracyFit fit;
  g_autofree char *basis = NULL, *none = NULL;
  guint n;
  const QmAccuracyFamily * const *f = qm_accuracy_families (QM_ACCURACY_TRAINING, &n);

  qm_accuracy_lookup (QM_ACCURACY_TRAINING, "h100", "3D", &fit);
  g_assert_true (fit.covered);
  g_assert_cmpstr (fit.family->family, ==, "h100");
  g_assert_cmpstr (fit.family->kind, ==, "3D");
  g_assert_cmpuint (fit.family->runs, >=, QM_ACCURACY_MIN_RUNS);
  g_assert_cmpfloat (fit.p10, <, 0);
  g_assert_cmpfloat (fit.p90, >, 0);
  basis = qm_accuracy_basis (&fit, "H100 SXM");
  g_assert_nonnull (strstr (basis, "published runs on H100-class GPUs, 3D parallel"));

  /* TPUs: no run at all. */
  qm_accuracy_lookup (QM_ACCURACY_TRAINING, "tpu", "3D", &fit);
  g_assert_false (fit.covered);
  g_assert_true (fit.family == f[0]);
  none = qm_accuracy_basis (&fit, "TPU v5p");
  g_assert_nonnull (strstr (none, "No published runs on this GPU (TPU v5p)"));
  /* The pooled band is at least as wide as H100 3D's. */
  qm_accuracy_lookup (QM_ACCURACY_TRAINING, "h100", "3D", &fit);
  g_assert_cmpfloat (f[0]->p90 - f[0]->p10, >=, fit.p90 - fit.p10);
}

/* Each band of an estimate holds the estimate and has the width the
 * family's p10 and p90 give: the MFU divided, the days multiplied. */
static void
test_training_bands (void)
{
  QmPlan p;
  QmEstimate e;
  QmAccuracyFit fit;
  g_autofree char *json = NULL, *basis = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *bands;

  load_example ("7b-pretrain-30-day-deadline.qmplan", &p);
  qm_estimate (&p, &e);
  g_assert_true (e.valid);
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_PREDICTED);
  g_assert_true (e.bands.has);
  qm_accuracy_lookup (QM_ACCURACY_TRAINING, p.hardware.gpu.family,
                      qm_accuracy_training_kind (e.mode, e.parallelism.cp, e.parallelism.zero_stage), &fit);
  g_assert_true (e.bands.fit.family == fit.family);
  g_assert_cmpfloat_with_epsilon (e.bands.mfu.low, e.mfu / (1 + fit.p90), 1e-12);
  g_assert_cmpfloat_with_epsilon (e.bands.mfu.high, e.mfu / (1 + fit.p10), 1e-12);
  g_assert_cmpfloat_with_epsilon (e.bands.train_days.low, e.train_days * (1 + fit.p10), 1e-9);
  g_assert_cmpfloat_with_epsilon (e.bands.train_days.high, e.train_days * (1 + fit.p90), 1e-9);
  g_assert_cmpfloat (e.bands.gpus.low, <, e.gpus);
  g_assert_cmpfloat (e.bands.gpus.high, >, e.gpus);

  /* The JSON: low < value < high with a basis, for MFU, days and GPUs. */
  json = qm_estimate_to_json (&p, &e, NULL);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  bands = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "bands");
  g_assert_nonnull (bands);
  {
    static const struct { const char *band, *value; } pairs[] = {
      { "mfu", "mfu" }, { "train_days", "train_days" }, { "gpus", "gpus" },
    };
    JsonObject *root = json_node_get_object (json_parser_get_root (parser));

    for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
      {
        JsonObject *b = json_object_get_object_member (bands, pairs[i].band);
        double v = json_object_get_double_member (root, pairs[i].value);

        g_assert_nonnull (b);
        g_assert_cmpfloat (json_object_get_double_member (b, "low"), <, v);
        g_assert_cmpfloat (json_object_get_double_member (b, "high"), >, v);
        g_assert_nonnull (strstr (json_object_get_string_member (b, "basis"), "published runs on H100"));
      }
    g_assert_true (json_object_get_null_member (bands, "tokens_per_s_per_gpu"));
  }
  basis = qm_estimate_bands_basis (&p, &e);
  g_assert_nonnull (basis);
}

/* A plan that gives its own MFU has no band: the validation measures the
 * model, not the plan's figure. */
static void
test_given_mfu_no_band (void)
{
  QmPlan p;
  QmEstimate e;
  g_autofree char *json = NULL;

  load_example ("llama-3.1-70b-pretrain-h100.qmplan", &p);
  qm_estimate (&p, &e);
  g_assert_cmpint (e.mfu_source, ==, QM_MFU_SOURCE_GIVEN);
  g_assert_false (e.bands.has);
  g_assert_null (qm_estimate_bands_basis (&p, &e));
  json = qm_estimate_to_json (&p, &e, NULL);
  g_assert_nonnull (strstr (json, "\"bands\" : null"));
}

/* The MI300X serving example: its throughput band is vLLM on MI300's
 * spread, wider than TensorRT-LLM on H100's (the validation's). */
static void
test_serving_bands (void)
{
  QmPlan amd, nv;
  QmEstimate ea, en;
  QmAccuracyFit fa, fn;
  char buf[64];

  load_example ("llama-3.1-70b-serving-mi300x.qmplan", &amd);
  load_example ("llama-3.1-70b-serving-h100.qmplan", &nv);
  qm_estimate (&amd, &ea);
  qm_estimate (&nv, &en);
  g_assert_true (ea.bands.has && en.bands.has);
  qm_accuracy_lookup (QM_ACCURACY_SERVING, "mi300", "vllm", &fa);
  qm_accuracy_lookup (QM_ACCURACY_SERVING, "h100", "tensorrt-llm", &fn);
  g_assert_true (ea.bands.fit.family == fa.family);
  g_assert_true (en.bands.fit.family == fn.family);
  g_assert_cmpfloat_with_epsilon (ea.bands.tokens_per_s_per_gpu.low,
                                  ea.inference.tokens_per_s_per_gpu / (1 + fa.p90), 1e-9);
  g_assert_cmpfloat_with_epsilon (ea.bands.tokens_per_s_per_gpu.high,
                                  ea.inference.tokens_per_s_per_gpu / (1 + fa.p10), 1e-9);
  g_assert_cmpfloat (ea.bands.tokens_per_s_per_gpu.low, <, ea.inference.tokens_per_s_per_gpu);
  g_assert_cmpfloat (ea.bands.tokens_per_s_per_gpu.high, >, ea.inference.tokens_per_s_per_gpu);
  g_assert_cmpfloat (ea.bands.tokens_per_s_per_gpu.high / ea.bands.tokens_per_s_per_gpu.low, >,
                     en.bands.tokens_per_s_per_gpu.high / en.bands.tokens_per_s_per_gpu.low);
  g_assert_false (ea.bands.mfu.set);
  g_assert_false (ea.bands.train_days.set);
  g_assert_true (ea.bands.gpus.set);
  qm_estimate_band_format (&ea, QM_BAND_TOKENS_PER_S_PER_GPU, buf, sizeof buf);
  g_assert_nonnull (strstr (buf, "–"));
  qm_estimate_band_format (&ea, QM_BAND_MFU, buf, sizeof buf);
  g_assert_cmpstr (buf, ==, "–");
}

/* target.confidence 0.9 sizes for the band's pessimistic edge: more GPUs
 * than at 0.5, and the band's high edge of the days within the deadline. */
static void
test_deadline_confidence (void)
{
  QmPlan p50, p90;
  QmEstimate e50, e90;
  g_autofree char *data = NULL;
  QmPlan back;
  g_autoptr (GError) error = NULL;

  load_example ("7b-pretrain-30-day-deadline.qmplan", &p50);
  p90 = p50;
  p90.workload.deadline_confidence = 0.9;
  g_assert_true (qm_plan_validate (&p90, &error));
  qm_estimate (&p50, &e50);
  qm_estimate (&p90, &e90);
  g_test_message ("50%%: %u GPUs, %.1f days (band %.1f-%.1f); 90%%: %u GPUs, %.1f days (band %.1f-%.1f)",
                  e50.gpus, e50.train_days, e50.bands.train_days.low, e50.bands.train_days.high, e90.gpus,
                  e90.train_days, e90.bands.train_days.low, e90.bands.train_days.high);
  g_assert_cmpuint (e90.gpus, >, e50.gpus);
  g_assert_cmpfloat (e50.train_days, <=, p50.workload.deadline_days);
  g_assert_cmpfloat (e50.bands.train_days.high, >, p50.workload.deadline_days);
  g_assert_cmpfloat (e90.bands.train_days.high, <=, p90.workload.deadline_days);
  g_assert_cmpfloat (e90.bands.deadline_error, ==, e90.bands.fit.p90);
  g_assert_cmpfloat (e50.bands.deadline_error, ==, 0.0);

  /* Written and read back; absent at 0.5 (the default). */
  data = qm_plan_to_data (&p90, NULL);
  g_assert_nonnull (strstr (data, "\"confidence\""));
  g_assert_true (qm_plan_load_from_data (&back, data, -1, NULL, &error));
  g_assert_cmpfloat (back.workload.deadline_confidence, ==, 0.9);
  g_free (data);
  data = qm_plan_to_data (&p50, NULL);
  g_assert_null (strstr (data, "\"confidence\""));

  /* Out of range: refused with the key's name. */
  p90.workload.deadline_confidence = 0.95;
  g_assert_false (qm_plan_validate (&p90, &error));
  g_assert_nonnull (strstr (error->message, "target.confidence"));
}

/* docs/accuracy.md between the bands markers: the method and the error
 * model's families as a buyer reads them, from accuracy.json; rewritten
 * with QM_UPDATE_DOCS=1, else it must match. */
#define BANDS_BEGIN "<!-- bands:begin -->"
#define BANDS_END "<!-- bands:end -->"

static void
family_rows (GString          *md,
             QmAccuracyDomain  d)
{
  guint n;
  const QmAccuracyFamily * const *f = qm_accuracy_families (d, &n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *fam = f[i]->family ? qm_accuracy_family_label (f[i]->family) : g_strdup ("every GPU");
      QmAccuracyFit fit;
      double lo, hi;
      const char *use;

      qm_accuracy_lookup (d, f[i]->family, f[i]->kind, &fit);
      /* Which rows a plan's band comes from: the most specific with
       * enough runs; the others are shown for what they say. */
      use = fit.family == f[i] ? "yes" : "no (too few runs)";
      if (d == QM_ACCURACY_TRAINING)
        qm_accuracy_cost_band (&fit, 100.0, &lo, &hi);
      else
        qm_accuracy_rate_band (&fit, 1000.0, &lo, &hi);
      if (fit.family != f[i])
        g_string_append_printf (md, "| %s | %s | %u | %u–%u | %+.1f%% | %+.1f%% | %+.1f%% | %s | – |\n", fam,
                                f[i]->kind ? f[i]->kind : "all", f[i]->runs, f[i]->gpus_min, f[i]->gpus_max,
                                100 * f[i]->bias, 100 * f[i]->p10, 100 * f[i]->p90, use);
      else
        g_string_append_printf (md, "| %s | %s | %u | %u–%u | %+.1f%% | %+.1f%% | %+.1f%% | %s | %.0f–%.0f |\n", fam,
                                f[i]->kind ? f[i]->kind : "all", f[i]->runs, f[i]->gpus_min, f[i]->gpus_max,
                                100 * f[i]->bias, 100 * f[i]->p10, 100 * f[i]->p90, use, lo, hi);
    }
}

static void
test_accuracy_doc (void)
{
  g_autoptr (GString) md = g_string_new (NULL);
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "docs/accuracy.md", NULL);
  g_autofree char *text = NULL, *out = NULL;
  const char *b, *e;

  g_string_append (md, BANDS_BEGIN "\n"
    "## How far to trust an estimate: error bands\n\n"
    "Generated by `tests/test-accuracy.c` (`/accuracy/doc`) from `data/catalog/accuracy.json`; regenerate with\n"
    "`QM_UPDATE_DOCS=1 meson test -C build accuracy`. The error model itself is written by the two\n"
    "validations below (`QM_UPDATE_DOCS=1 meson test -C build parallel inference`), from\n"
    "`tests/data/training-runs.tsv` and `tests/data/serving-reference.tsv`, and those tests fail when it is stale.\n\n"
    "**Method.** Every published run is predicted with its own source left out of every fitted constant\n"
    "(the held-out error of the tables below: predicted / published − 1, positive when the model was\n"
    "optimistic). The runs are grouped by GPU family (catalog `family`: H100 covers H100, H200 and H800)\n"
    "and by kind: for training the parallelism (3D, FSDP, context parallel, LoRA), for serving the engine.\n"
    "For each group the file keeps the number of runs, the GPU counts they ran on, the bias (median error)\n"
    "and the p10 and p90 of the error. A plan's band comes from the most specific group with at least\n"
    "5 runs (GPU family and kind, else GPU family); a GPU family with fewer runs gets the spread of all\n"
    "runs, and the basis says \"No published runs on this GPU\". The band never excludes the estimate itself:\n"
    "its edges are at least 1% either side.\n\n"
    "**Reading a band.** A throughput (MFU, tokens/s per GPU) that the model overestimates by *e* is really\n"
    "*v* / (1 + *e*); a time or a GPU count is really *v* · (1 + *e*). So the band of a training time of *T* days\n"
    "is *T*·(1 + p10) to *T*·(1 + p90): the last column shows it for a 100-day estimate (and, for serving,\n"
    "for an estimate of 1,000 tokens/s per GPU). Roughly one run in ten fell below the band and one in ten\n"
    "above it. Plans that give their own MFU have no band: the validation measures the model, not the\n"
    "plan's figure.\n\n"
    "**Deadlines at a confidence.** `target.confidence` (0.5 by default, up to 0.9) sizes a deadline plan\n"
    "so that the deadline is met at that quantile: at 0.5 the estimate itself, at 0.9 the band's\n"
    "pessimistic edge (the days × (1 + p90)), linearly between. The wizard offers \"Likely\" (0.5) and\n"
    "\"Almost certainly\" (0.9).\n\n"
    "### Training (MFU; time and GPUs the other way round)\n\n"
    "| GPU family | kind | runs | GPUs | bias | p10 | p90 | used for a band | a 100-day estimate means |\n"
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n");
  family_rows (md, QM_ACCURACY_TRAINING);
  g_string_append (md, "\n### Serving (tokens/s per GPU, or the rate held within p99 limits)\n\n"
    "| GPU family | engine | runs | GPUs | bias | p10 | p90 | used for a band | 1,000 tokens/s per GPU means |\n"
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n");
  family_rows (md, QM_ACCURACY_SERVING);
  g_string_append (md, "\nGPU families not listed (TPU, Ada, Gaudi for serving, MI350 and others) have no published\n"
                       "runs in the data yet: their plans get the pooled band and say so.\n" BANDS_END);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  b = strstr (text, BANDS_BEGIN);
  e = b ? strstr (b, BANDS_END) : NULL;
  if (g_strcmp0 (g_getenv ("QM_UPDATE_DOCS"), "1") == 0)
    {
      g_autoptr (GError) error = NULL;
      const char *intro_end = strstr (text, "<!-- serving:begin -->");

      if (b != NULL && e != NULL)
        out = g_strdup_printf ("%.*s%s%s", (int) (b - text), text, md->str, e + strlen (BANDS_END));
      else
        {
          g_assert_nonnull (intro_end);
          out = g_strdup_printf ("%.*s%s\n\n%s", (int) (intro_end - text), text, md->str, intro_end);
        }
      g_file_set_contents (path, out, -1, &error);
      g_assert_no_error (error);
      return;
    }
  g_assert_nonnull (b);
  g_assert_nonnull (e);
  if (strncmp (b, md->str, md->len) != 0 || (gsize) (e + strlen (BANDS_END) - b) != md->len)
    {
      g_test_message ("%s: the bands section is stale; regenerate it with QM_UPDATE_DOCS=1", path);
      g_test_fail ();
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/accuracy/model-loads", test_model_loads);
  g_test_add_func ("/accuracy/parse-refuses", test_parse_refuses);
  g_test_add_func ("/accuracy/lookup", test_lookup);
  g_test_add_func ("/accuracy/training-bands", test_training_bands);
  g_test_add_func ("/accuracy/given-mfu-no-band", test_given_mfu_no_band);
  g_test_add_func ("/accuracy/serving-bands", test_serving_bands);
  g_test_add_func ("/accuracy/deadline-confidence", test_deadline_confidence);
  g_test_add_func ("/accuracy/doc", test_accuracy_doc);
  return g_test_run ();
}
