/* test-estimate-stages.c: each stage of qm_estimate () on a prepared
 * estimate, against published figures and the stage's own definitions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-estimate-json.h"
#include "qm-estimate-private.h"
#include "qm-plan.h"
#include "qm-test-util.h"

#define PRETRAIN "data/examples/llama-3.1-70b-pretrain-h100.qmplan"
#define SERVING  "data/examples/llama-3.1-70b-serving-h100.qmplan"

static void
load_example (QmPlan     *p,
              const char *relative)
{
  g_autofree char *path = qm_test_source_path (relative);
  g_autoptr (GError) error = NULL;

  qm_plan_init (p);
  g_assert_true (qm_plan_load_from_file (p, path, NULL, &error));
  g_assert_no_error (error);
}

static guint
note_index (const QmNote *notes,
            guint         n,
            QmNoteId      id)
{
  for (guint i = 0; i < n; i++)
    if (notes[i].id == id)
      return i;
  return G_MAXUINT;
}

static const QmNote *
find_assumption (const QmEstimate *e,
                 QmNoteId          id)
{
  guint i = note_index (e->assumptions, e->n_assumptions, id);

  return i == G_MAXUINT ? NULL : &e->assumptions[i];
}

static gboolean
has_warning (const QmEstimate *e,
             QmNoteId          id)
{
  return note_index (e->warnings, e->n_warnings, id) != G_MAXUINT;
}

/* Run the stages up to (not including) @last, as qm_estimate () does. */
static void
run_until (const QmPlan      *p,
           QmEstimateContext *ctx,
           QmEstimate        *e,
           QmEstimateStage    last)
{
  static const QmEstimateStage order[] = {
    qm_estimate_stage_workload, qm_estimate_stage_serving, qm_estimate_stage_gpus,
    qm_estimate_stage_layout, qm_estimate_stage_time, qm_estimate_stage_memory,
    qm_estimate_stage_cluster, qm_estimate_stage_reliability, qm_estimate_stage_power,
    qm_estimate_stage_cost, qm_estimate_stage_bands, qm_estimate_stage_notes,
  };

  qm_estimate_begin (p, ctx, e);
  for (guint i = 0; i < G_N_ELEMENTS (order) && order[i] != last; i++)
    g_assert_true (order[i] (p, ctx, e));
}

/* The pretraining example's cluster of @gpus GPUs (DGX H100: 8 a node) on
 * an estimate prepared by hand. */
static void
prepare_cluster (const QmPlan      *p,
                 QmEstimateContext *ctx,
                 QmEstimate        *e,
                 guint              gpus)
{
  qm_estimate_begin (p, ctx, e);
  e->params = 70.6e9;
  e->gpus = gpus;
  e->nodes = gpus / 8;
  g_assert_true (qm_estimate_stage_cluster (p, ctx, e));
}

/* Llama 3.1 70B (Meta model card: 70.6 B parameters) on 15 T tokens: the
 * 6·N·D basis (Kaplan 2020) and the plan's MFU. */
static void
test_workload (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  load_example (&p, PRETRAIN);
  qm_estimate_begin (&p, &ctx, e);
  g_assert_true (qm_estimate_stage_workload (&p, &ctx, e));
  qm_assert_rel (e->params, 70.6e9, 0.01);
  g_assert_cmpfloat (e->tokens, ==, 15e12);
  qm_assert_rel (e->training_flops_6nd, 6.0 * e->active_params * 15e12, 1e-12);
  g_assert_cmpfloat (e->training_flops, >, e->training_flops_6nd);
  g_assert_cmpfloat (e->hardware_flops, >, e->training_flops);   /* selective recompute */
  /* H100 SXM: 989 dense bf16 TFLOPS (NVIDIA datasheet). */
  qm_assert_rel (e->peak_flops, 989e12, 0.01);
  g_assert_cmpfloat (e->mfu, ==, 0.40);
  g_assert_cmpint (e->mfu_source, ==, QM_MFU_SOURCE_GIVEN);
  g_assert_cmpuint (e->gpus, ==, 0);   /* not this stage's */

  /* params_b alone: a shape is inferred into the context. */
  memset (&p.workload.model, 0, sizeof p.workload.model);
  p.workload.model.params_hint = 7e9;
  qm_estimate_begin (&p, &ctx, e);
  g_assert_true (qm_estimate_stage_workload (&p, &ctx, e));
  g_assert_true (qm_model_has_shape (&ctx.shape));
  g_assert_nonnull (find_assumption (e, QM_NOTE_SHAPE_INFERRED));

  /* No model at all: the estimate stops, invalid. */
  p.workload.model.params_hint = 0;
  qm_estimate_begin (&p, &ctx, e);
  g_assert_false (qm_estimate_stage_workload (&p, &ctx, e));
  g_assert_false (e->valid);
  g_assert_true (has_warning (e, QM_NOTE_NO_MODEL));
}

/* Serving sizes a fleet and says how; training passes through. */
static void
test_serving (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  guint mem, overhead, sizing;

  load_example (&p, PRETRAIN);
  run_until (&p, &ctx, e, qm_estimate_stage_serving);
  g_assert_true (qm_estimate_stage_serving (&p, &ctx, e));
  g_assert_false (e->has_inference);
  g_assert_cmpuint (e->n_assumptions, ==, 0);

  load_example (&p, SERVING);
  run_until (&p, &ctx, e, qm_estimate_stage_serving);
  g_assert_true (qm_estimate_stage_serving (&p, &ctx, e));
  g_assert_true (e->has_inference);
  g_assert_cmpuint (e->inference.gpus, >=, e->inference.gpus_per_replica);
  g_assert_cmpuint (e->inference.replicas, >=, 1);
  g_assert_cmpuint (e->inference.gpus, ==,
                    e->inference.replicas * e->inference.gpus_per_replica);
  mem = note_index (e->assumptions, e->n_assumptions, QM_NOTE_INFERENCE_MEMORY);
  overhead = note_index (e->assumptions, e->n_assumptions, QM_NOTE_OVERHEAD);
  /* The example gives its GPUs (target.gpus 16): they are kept, and the
   * note says what they hold rather than how a fleet was sized (issue 31). */
  g_assert_true (e->inference.fixed_fleet);
  sizing = note_index (e->assumptions, e->n_assumptions, QM_NOTE_INFERENCE_CAPACITY);
  g_assert_cmpuint (note_index (e->assumptions, e->n_assumptions, QM_NOTE_INFERENCE_SIZING), ==, G_MAXUINT);
  g_assert_cmpuint (mem, <, overhead);
  g_assert_cmpuint (overhead, <, sizing);
  g_assert_cmpuint (sizing, <, e->n_assumptions);
  g_assert_cmpfloat (e->assumptions[sizing].v[0], ==, p.workload.target_gpus);
  g_assert_cmpfloat (e->assumptions[sizing].v[1], ==, e->inference.replicas);
  g_assert_cmpuint (e->inference.gpus, ==, p.workload.target_gpus);

  /* A deadline instead: the fleet is sized for the rate, and says so. */
  p.workload.target_gpus = 0;
  p.workload.deadline_days = 30;
  run_until (&p, &ctx, e, qm_estimate_stage_serving);
  g_assert_true (qm_estimate_stage_serving (&p, &ctx, e));
  g_assert_false (e->inference.fixed_fleet);
  sizing = note_index (e->assumptions, e->n_assumptions, QM_NOTE_INFERENCE_SIZING);
  g_assert_cmpuint (sizing, <, e->n_assumptions);
  g_assert_cmpfloat (e->assumptions[sizing].v[0], ==, e->inference.replicas);
}

/* GPUs: given, too few for the fixed layout, none, or for a deadline. */
static void
test_gpus (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  const QmNote *note;

  load_example (&p, PRETRAIN);
  run_until (&p, &ctx, e, qm_estimate_stage_gpus);
  g_assert_true (qm_estimate_stage_gpus (&p, &ctx, e));
  g_assert_cmpuint (e->gpus, ==, 2048);
  g_assert_cmpuint (e->nodes, ==, 256);   /* DGX H100: 8 GPUs a node */
  g_assert_false (ctx.use_model);         /* layout and MFU given: the hot path */

  /* 16 GPUs cannot hold tp 8 × pp 4. */
  p.workload.target_gpus = 16;
  run_until (&p, &ctx, e, qm_estimate_stage_gpus);
  g_assert_true (qm_estimate_stage_gpus (&p, &ctx, e));
  g_assert_true (has_warning (e, QM_NOTE_NOT_ENOUGH_GPUS));
  g_assert_cmpuint (e->gpus, ==, 32);
  g_assert_cmpuint (e->nodes, ==, 4);

  /* Neither a count nor a deadline: the estimate stops. */
  p.workload.target_gpus = 0;
  run_until (&p, &ctx, e, qm_estimate_stage_gpus);
  g_assert_false (qm_estimate_stage_gpus (&p, &ctx, e));
  g_assert_false (e->valid);
  g_assert_true (has_warning (e, QM_NOTE_NO_GPUS));

  /* A 90-day deadline: whole nodes that finish in time at the given MFU,
   * failures included. */
  p.workload.deadline_days = 90;
  run_until (&p, &ctx, e, qm_estimate_stage_gpus);
  g_assert_true (qm_estimate_stage_gpus (&p, &ctx, e));
  g_assert_cmpuint (e->gpus % 8, ==, 0);
  g_assert_cmpuint (e->gpus % 32, ==, 0);
  note = find_assumption (e, QM_NOTE_GPUS_FOR_DEADLINE);
  g_assert_nonnull (note);
  g_assert_cmpfloat (note->v[4], ==, e->gpus);
  g_assert_cmpfloat (e->training_flops / (e->gpus * e->peak_flops * e->mfu) / 86400.0, <=, 90.0);
}

/* The fixed layout of the example, and one that cannot fit. */
static void
test_layout (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  load_example (&p, PRETRAIN);
  run_until (&p, &ctx, e, qm_estimate_stage_layout);
  g_assert_true (qm_estimate_stage_layout (&p, &ctx, e));
  g_assert_cmpuint (e->parallelism.tp, ==, 8);
  g_assert_cmpuint (e->parallelism.pp, ==, 4);
  g_assert_cmpuint (e->parallelism.dp, ==, 2048 / 32);
  g_assert_cmpuint (e->parallelism.zero_stage, ==, 1);
  g_assert_true (e->fits);
  g_assert_cmpfloat (e->memory.total, <=, e->memory.capacity);
  g_assert_false (has_warning (e, QM_NOTE_DOES_NOT_FIT));

  /* 70 B with 16 bytes of model states per parameter (ZeRO Fig. 1) on one
   * 80 GB GPU per replica cannot fit. */
  p.workload.tp = 1;
  p.workload.pp = 1;
  p.workload.zero_stage = 0;
  run_until (&p, &ctx, e, qm_estimate_stage_layout);
  g_assert_true (qm_estimate_stage_layout (&p, &ctx, e));
  g_assert_false (e->fits);
  g_assert_cmpfloat (e->memory.total, >, 16.0 * e->params);
  g_assert_true (has_warning (e, QM_NOTE_DOES_NOT_FIT));
}

/* Time = FLOPs / (GPUs × peak × MFU), on a prepared estimate. */
static void
test_time (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  load_example (&p, PRETRAIN);
  qm_estimate_begin (&p, &ctx, e);
  e->training_flops = 6.3e24;   /* about 6·N·D for 70.6 B parameters and 15 T tokens */
  e->training_flops_6nd = 6.3e24;
  e->hardware_flops = 6.3e24;
  e->gpus = 2048;
  e->peak_flops = 989e12;
  e->mfu = 0.40;
  e->mfu_source = QM_MFU_SOURCE_GIVEN;
  g_assert_true (qm_estimate_stage_time (&p, &ctx, e));
  qm_assert_rel (e->ideal_days, 6.3e24 / (2048 * 989e12 * 0.40) / 86400.0, 1e-12);
  g_assert_cmpfloat (e->train_days, ==, e->ideal_days);
  g_assert_cmpfloat (e->gpu_hours, ==, 2048 * e->train_days * 24.0);
  g_assert_nonnull (find_assumption (e, QM_NOTE_FLOPS_BASIS));
  g_assert_nonnull (find_assumption (e, QM_NOTE_MFU_GIVEN));

  /* No peak: the estimate stops. */
  qm_estimate_begin (&p, &ctx, e);
  e->training_flops = 6.3e24;
  e->gpus = 2048;
  e->mfu = 0.40;
  g_assert_false (qm_estimate_stage_time (&p, &ctx, e));
  g_assert_false (e->valid);
  g_assert_true (has_warning (e, QM_NOTE_NO_PEAK));

  /* Serving runs for a month. */
  load_example (&p, SERVING);
  qm_estimate_begin (&p, &ctx, e);
  g_assert_true (qm_estimate_stage_time (&p, &ctx, e));
  g_assert_cmpfloat (e->run_s, ==, QM_HOURS_PER_MONTH * 3600.0);
  g_assert_cmpfloat (e->ideal_days, ==, 0);
}

/* Mixed-precision Adam: 16 bytes per parameter (ZeRO Fig. 1), and a batch
 * that the layout does not divide. */
static void
test_memory (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  const QmNote *states;

  load_example (&p, PRETRAIN);
  run_until (&p, &ctx, e, qm_estimate_stage_memory);
  g_assert_true (qm_estimate_stage_memory (&p, &ctx, e));
  states = find_assumption (e, QM_NOTE_MODEL_STATES);
  g_assert_nonnull (states);
  g_assert_cmpfloat (states->v[0], ==, 16.0);
  g_assert_cmpfloat (states->v[1], ==, 1);    /* ZeRO-1 */
  g_assert_cmpfloat (states->v[2], ==, 64);   /* over dp */
  g_assert_nonnull (find_assumption (e, QM_NOTE_ACTIVATIONS));
  g_assert_false (has_warning (e, QM_NOTE_BATCH_NOT_DIVISIBLE));

  /* 2,000 sequences over dp 64 × micro-batch 1. */
  qm_estimate_begin (&p, &ctx, e);
  e->has_training = TRUE;
  e->parallelism.tp = 8;
  e->parallelism.pp = 4;
  e->parallelism.dp = 64;
  e->parallelism.micro_batch = 1;
  p.workload.global_batch = 2000;
  g_assert_true (qm_estimate_stage_memory (&p, &ctx, e));
  g_assert_true (has_warning (e, QM_NOTE_BATCH_NOT_DIVISIBLE));
}

/* 2,048 GPUs in 256 DGX nodes; Llama 3's 128 K vocabulary stores tokens
 * as int32 (Megatron-LM indexed dataset). */
static void
test_cluster (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  load_example (&p, PRETRAIN);
  prepare_cluster (&p, &ctx, e, 2048);
  g_assert_true (e->has_cluster);
  g_assert_cmpuint (e->cluster.nodes, ==, 256);
  g_assert_cmpfloat (e->dataset_bytes, ==, 15e12 * 4.0);
  g_assert_cmpuint (e->cluster.racks, >=, (256 + e->cluster.nodes_per_rack - 1)
                                          / e->cluster.nodes_per_rack);
}

/* Llama 3 (arXiv 2407.21783 §3.3.4): 419 unexpected interruptions in 54
 * days on 16,384 H100; the wall clock grows by the lost time. */
static void
test_reliability (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  load_example (&p, PRETRAIN);
  prepare_cluster (&p, &ctx, e, 16384);
  e->ideal_days = 50;
  g_assert_true (qm_estimate_stage_reliability (&p, &ctx, e));
  g_assert_true (e->has_reliability);
  g_assert_cmpfloat (e->train_days, >, e->ideal_days);
  g_assert_cmpfloat (e->run_s, ==, e->reliability.wall_s);
  g_assert_cmpfloat (e->gpu_hours, ==, 16384 * e->train_days * 24.0);
  g_assert_cmpfloat (fabs (e->reliability.interruptions * 54.0 / e->train_days - 419) / 419, <,
                     0.10);

  /* Serving has no reliability stage. */
  load_example (&p, SERVING);
  qm_estimate_begin (&p, &ctx, e);
  g_assert_true (qm_estimate_stage_reliability (&p, &ctx, e));
  g_assert_false (e->has_reliability);
}

/* Energy = facility average power × the run; facility = IT × PUE. */
static void
test_power (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  load_example (&p, PRETRAIN);
  prepare_cluster (&p, &ctx, e, 2048);
  e->run_s = 86400.0;
  g_assert_true (qm_estimate_stage_power (&p, &ctx, e));
  g_assert_true (e->has_power);
  g_assert_cmpfloat (e->power.pue, ==, 1.25);
  qm_assert_rel (e->power.facility_avg_kw, e->power.it_avg_kw * 1.25, 1e-12);
  qm_assert_rel (e->power.energy_mwh, e->power.facility_avg_kw * 24.0 / 1000.0, 1e-12);
  /* 256 DGX H100 at 10.2 kW each (NVIDIA datasheet) draw at least 2.6 MW. */
  g_assert_cmpfloat (e->power.it_peak_kw, >=, 256 * 10.2);
}

/* Renting 2,048 GPUs for 10 days at $2.50 per GPU-hour. */
static void
test_cost (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);

  load_example (&p, PRETRAIN);
  p.pricing.mode = QM_PRICING_RENT_ON_DEMAND;
  prepare_cluster (&p, &ctx, e, 2048);
  e->run_s = 10 * 86400.0;
  g_assert_true (qm_estimate_stage_power (&p, &ctx, e));
  g_assert_true (qm_estimate_stage_cost (&p, &ctx, e));
  g_assert_true (e->has_cost);
  g_assert_cmpfloat (e->cost.gpu_hours, ==, 2048 * 240.0);
  g_assert_cmpfloat (e->cost.run, >=, 2048 * 240.0 * 2.50);
  g_assert_cmpfloat (e->cost.upfront, ==, 0);   /* nothing bought */
  g_assert_nonnull (e->rack);
  g_assert_nonnull (e->pdu);

  /* Buying the same cluster costs money upfront. */
  p.pricing.mode = QM_PRICING_BUY;
  g_assert_true (qm_estimate_stage_cost (&p, &ctx, e));
  g_assert_cmpfloat (e->cost.upfront, >, 0);
}

/* The module notes read storage, failures, racks, power, cost. */
static void
test_notes (void)
{
  QmPlan p;
  QmEstimateContext ctx;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  guint goodput, racks, facility, buy;

  load_example (&p, PRETRAIN);
  run_until (&p, &ctx, e, qm_estimate_stage_notes);
  g_assert_true (qm_estimate_stage_notes (&p, &ctx, e));
  goodput = note_index (e->assumptions, e->n_assumptions, QM_NOTE_GOODPUT);
  racks = note_index (e->assumptions, e->n_assumptions, QM_NOTE_RACKS);
  facility = note_index (e->assumptions, e->n_assumptions, QM_NOTE_FACILITY);
  buy = note_index (e->assumptions, e->n_assumptions, QM_NOTE_COST_BUY);
  g_assert_cmpuint (goodput, <, racks);
  g_assert_cmpuint (racks, <, facility);
  g_assert_cmpuint (facility, <, buy);
  g_assert_cmpuint (buy, <, e->n_assumptions);
  g_assert_cmpfloat (e->assumptions[facility].v[0], ==, 1.25);

  load_example (&p, SERVING);
  run_until (&p, &ctx, e, qm_estimate_stage_notes);
  g_assert_true (qm_estimate_stage_notes (&p, &ctx, e));
  g_assert_nonnull (find_assumption (e, QM_NOTE_INFERENCE_PERIOD));
  g_assert_null (find_assumption (e, QM_NOTE_GOODPUT));
}

/* The stages run by hand are qm_estimate (). */
static void
test_pipeline (void)
{
  static const char *const examples[] = { PRETRAIN, SERVING };

  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    {
      QmPlan p;
      QmEstimateContext ctx;
      g_autofree QmEstimate *staged = g_new0 (QmEstimate, 1);
      g_autofree QmEstimate *whole = g_new0 (QmEstimate, 1);
      g_autofree char *a = NULL, *b = NULL;

      load_example (&p, examples[i]);
      run_until (&p, &ctx, staged, NULL);
      qm_estimate (&p, whole);
      a = qm_estimate_to_json (&p, staged, NULL);
      b = qm_estimate_to_json (&p, whole, NULL);
      g_assert_cmpstr (a, ==, b);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/estimate-stages/workload", test_workload);
  g_test_add_func ("/estimate-stages/serving", test_serving);
  g_test_add_func ("/estimate-stages/gpus", test_gpus);
  g_test_add_func ("/estimate-stages/layout", test_layout);
  g_test_add_func ("/estimate-stages/time", test_time);
  g_test_add_func ("/estimate-stages/memory", test_memory);
  g_test_add_func ("/estimate-stages/cluster", test_cluster);
  g_test_add_func ("/estimate-stages/reliability", test_reliability);
  g_test_add_func ("/estimate-stages/power", test_power);
  g_test_add_func ("/estimate-stages/cost", test_cost);
  g_test_add_func ("/estimate-stages/notes", test_notes);
  g_test_add_func ("/estimate-stages/pipeline", test_pipeline);
  return g_test_run ();
}
