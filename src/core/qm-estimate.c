/* qm-estimate.c: a plan in, an estimate out; pure and allocation-free.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-compute.h"
#include "qm-estimate.h"

/* Each note: a stable id and a printf template. The template takes the
 * note's first n_str strings, then up to four doubles. */
static const struct
{
  const char *id;
  const char *text;
  guint       n_str;
} notes[QM_N_NOTES] = {
  [QM_NOTE_NONE] = { "none", "" },
  [QM_NOTE_FLOPS_BASIS] = { "flops-basis",
    N_("training_flops = 6·N·D + attention 12·L·H·Q·T·D (PaLM App. B) with N = %.4g active "
       "parameters and D = %.4g tokens; on the 6·N·D basis alone (Kaplan 2020, GPT-3 "
       "Table D.1) it is %.4g FLOPs (attention adds %.1f%%)") },
  [QM_NOTE_HARDWARE_FLOPS_NONE] = { "hardware-flops-none",
    N_("hardware_flops = training_flops: no activation recompute") },
  [QM_NOTE_HARDWARE_FLOPS_SELECTIVE] = { "hardware-flops-selective",
    N_("hardware_flops add selective recompute of attention (Korthikanti 2022 eq. 8): +%.1f%%") },
  [QM_NOTE_HARDWARE_FLOPS_FULL] = { "hardware-flops-full",
    N_("hardware_flops add a full forward recompute (Narayanan 2021 eq. 3): +%.1f%%") },
  [QM_NOTE_MFU_GIVEN] = { "mfu-given",
    N_("MFU %.0f%% as given in the plan (model FLOPs basis)") },
  [QM_NOTE_MFU_DEFAULT] = { "mfu-default",
    N_("MFU %.0f%% is the default for this GPU family (published runs; see qm-compute.c): "
       "the throughput model cannot price this layout (see the warnings)") },
  [QM_NOTE_MFU_PREDICTED] = { "mfu-predicted",
    N_("MFU %.0f%% predicted from the throughput model (qm-parallel) for this layout: a %.3g s "
       "step is %.0f%% compute, %.0f%% exposed communication, %.0f%% pipeline bubble and "
       "%.0f%% recompute and optimizer") },
  [QM_NOTE_SHAPE_INFERRED] = { "shape-inferred",
    N_("model shape inferred from params_b = %.3g B: a typical Llama-style shape with %.0f "
       "layers, hidden %.0f, SwiGLU, GQA (%.4g B parameters)") },
  [QM_NOTE_SEED_RULE] = { "seed-rule",
    N_("rule of thumb (A100 at 312 TFLOPS dense and 40%% MFU, 6·N·D): GPUs ≈ tokens_B × "
       "epochs × params_B × 13.3 / hours = %.0f A100 for %.0f hours; it is the special case "
       "of this estimate for that GPU and MFU without the attention term") },
  [QM_NOTE_GPUS_FOR_DEADLINE] = { "gpus-for-deadline",
    N_("a %.3g-day deadline, failures included, needs %.1f GPUs at %.0f%% MFU and %.1f%% goodput "
       "(checkpoints, lost work and restarts; Daly 2006); rounded up to %.0f: whole nodes of %.0f "
       "GPUs on which a parallel layout keeps the plan's global batch (dp × micro-batch × "
       "accumulation steps) and fits in memory") },
  [QM_NOTE_PARALLEL_AUTO] = { "parallel-auto",
    N_("tp = %.0f, pp = %.0f, cp = %.0f, ep = %.0f (%.0f interleaved stages) picked by the "
       "throughput search: the fastest of %.0f layouts that fit in memory") },
  [QM_NOTE_MODEL_STATES] = { "model-states",
    N_("model states: ZeRO paper accounting (Rajbhandari 2020 Fig. 1), %.0f bytes per "
       "trainable parameter before ZeRO-%.0f sharding over dp = %.0f") },
  [QM_NOTE_FP32_GRAD_BUFFER] = { "fp32-grad-buffer",
    N_("fp32 gradient buffer: gradients kept at 4 bytes per parameter instead of 2, accumulated in "
       "place with no 16-bit copy (Megatron-LM main_grad)") },
  [QM_NOTE_FP8_MEMORY] = { "fp8-memory",
    N_("fp8 keeps bf16 weights and fp32 masters (Transformer Engine; DeepSeek-V3 §3.3.3): "
       "no model-state saving over bf16") },
  [QM_NOTE_ACTIVATIONS] = { "activations",
    N_("activations: Korthikanti 2022 Table 2 per layer, re-derived for this block, on the "
       "busiest pipeline stage: %.0f layers' worth in flight with %.0f model chunks per stage "
       "(interleaving keeps 1 + (p−1)/(p·v) times the 1F1B amount, Korthikanti §4.2.3)") },
  [QM_NOTE_LORA] = { "lora",
    N_("LoRA rank %.0f on every linear layer: %.4g M trainable parameters; the 16-bit base is frozen") },
  [QM_NOTE_QLORA] = { "qlora",
    N_("QLoRA rank %.0f: NF4 base with double quantisation (4.127 bits/param, Dettmers 2023), "
       "%.4g M trainable parameters") },
  [QM_NOTE_OVERHEAD] = { "overhead",
    N_("overhead: CUDA context 1.34 GiB (measured, HF docs), DeepSpeed reduce bucket, ZeRO-3 "
       "gather buffer and 2%% allocator fragmentation") },
  [QM_NOTE_PEAK_FALLBACK] = { "peak-fallback",
    N_("this GPU has no dense peak listed for the plan's precision; used %.0f TFLOPS") },
  [QM_NOTE_INFERENCE_MEMORY] = { "inference-memory",
    N_("serving memory: the GPU's reported bytes less the weights at the serving precision, "
       "one step's workspace and the runtime reserve; 90%% of the rest is the paged KV cache, "
       "used by %.0f sequences of %.0f tokens (vLLM and TensorRT-LLM defaults)") },
  [QM_NOTE_INFERENCE_SIZING] = { "inference-sizing",
    N_("serving: %.0f replicas of %.0f GPUs, %.0f sequences in flight each, for %.4g output "
       "tokens/s; throughput from the engine step model (GEMMs, attention, all-reduces, step "
       "overhead; constants fitted to TensorRT-LLM's published runs), at least output tokens/s "
       "needed / throughput per GPU replicas, and more until the simulated p99 TTFT and TPOT "
       "meet the targets") },
  [QM_NOTE_INFERENCE_PERIOD] = { "inference-period",
    N_("serving runs around the clock: energy, CO2 and the run cost are for one month "
       "(%.1f hours)") },
  [QM_NOTE_DATASET_STORAGE] = { "dataset-storage",
    N_("storage: the dataset tokenised at %.0f bytes per token (Megatron-LM indexed dataset: "
       "uint16 below 65,500 vocabulary entries, else int32) is %.4g TB; with %.0f checkpoints "
       "kept, %.4g TB in all; write bandwidth for one checkpoint a minute (assumption; Llama 3 "
       "wrote 5.7 TB checkpoints at 2 TB/s, §3.3.1), or on local NVMe what the servers' drives give") },
  [QM_NOTE_CHECKPOINT] = { "checkpoint",
    N_("checkpoint: %.4g GB (%.0f bytes per trainable parameter: weights, fp32 master copy "
       "and optimizer states, ZeRO §5 layout), written in %.3g s at %.3g GB/s") },
  [QM_NOTE_FAILURE_PRESET] = { "failure-preset",
    /* Translators: the first %s is a failure preset id, the second its source. */
    N_("failures: the %s preset (%s): one interruption per %.4g GPU-hours, %.1f expected over "
       "the run"), 2 },
  [QM_NOTE_CHECKPOINT_INTERVAL] = { "checkpoint-interval",
    N_("checkpoint every %.0f min: the optimum of Daly 2006's complete model (his higher-order "
       "refinement of Young 1974's √(2·C·M)) for a job MTBF M of %.3g hours; each restart costs "
       "%.0f min") },
  [QM_NOTE_GOODPUT] = { "goodput",
    N_("goodput %.1f%% = T / (M·e^(R/M)·(e^((T + C)/M) − 1)) (Daly 2006 eq. 13: failures also "
       "strike during rework and restarts): %.2f%% of the wall clock writing checkpoints, %.2f%% "
       "lost work and restarts; train_days = ideal_days / goodput = %.2f days") },
  [QM_NOTE_RACKS] = { "racks",
    /* Translators: %s is "rack space" or "the kW limit per rack". */
    N_("racks: %s binds first, %.0f nodes per rack (%.0f by rack units, %.0f by kW at the "
       "nameplate power)"), 1 },
  [QM_NOTE_LIQUID_COOLING] = { "liquid-cooling",
    /* Translators: %s is a catalog id of a liquid-cooled rack, or "no liquid rack in the catalog". */
    N_("liquid cooling (%s): %.1f kW per compute rack is above the %.0f kW air-cooling limit"), 1 },
  [QM_NOTE_POWER_AVG_TYPICAL] = { "power-average-typical",
    N_("average power: the server's typical %.0f W of its %.0f W nameplate (%.0f%%); "
       "switches, optics and storage run at their rating") },
  [QM_NOTE_POWER_AVG_DEFAULT] = { "power-average-default",
    N_("average power at %.1f%% of the nameplate (Patterson 2021, arXiv 2104.10350 Table 4: "
       "GPT-3 averaged 330 W per V100 system); switches, optics and storage run at their rating") },
  [QM_NOTE_FACILITY] = { "facility",
    N_("facility power = IT × PUE %.2f (The Green Grid); cooling sized for the IT peak at "
       "3.412 BTU/h per W; CO2 at %.0f g/kWh; electricity at %.3f per kWh") },
  [QM_NOTE_MGMT_UNPRICED] = { "management-unpriced",
    N_("management network: %.0f switches (48-port 1 GbE) counted in the racks, not priced or "
       "powered (the catalog has none)") },
  [QM_NOTE_RACK_PARTS] = { "rack-parts",
    /* Translators: %s are catalog ids of a rack and of a PDU, or "(none)". */
    N_("racks %s and PDUs %s from the catalog, %.0f PDUs per rack on A/B feeds"), 2 },
  [QM_NOTE_COST_BUY] = { "cost-buy",
    N_("buy: hardware amortised over %.3g years; support %.0f%% of the hardware a year; "
       "colocation %.0f per kW-month; installation %.0f%% of the hardware (assumption)") },
  [QM_NOTE_COST_RENT] = { "cost-rent",
    N_("rent: %.2f per GPU-hour as given in the plan, for the wall-clock time; no hardware "
       "is bought") },
  [QM_NOTE_COST_RENT_OFFER] = { "cost-rent-offer",
    /* Translators: the first %s is a catalog id of a cloud offer, the second its source. */
    N_("rent: cloud offer %s (%s): %.2f per GPU-hour"), 2 },
  [QM_NOTE_BREAK_EVEN] = { "break-even",
    N_("rent vs buy: buying pays off after %.1f months against renting at %.2f per GPU-hour") },
  /* These two append what would fit (v[3] QmParallelFix flags, v[4] GPUs,
   * v[5] GB per GPU): see format_fixes (). */
  [QM_NOTE_DOES_NOT_FIT] = { "does-not-fit",
    N_("does not fit: %.1f GB needed per GPU, %.1f GB available") },
  [QM_NOTE_NO_LAYOUT_FITS] = { "no-layout-fits",
    N_("no parallel layout of %.0f GPUs fits in memory: the closest (shown) needs %.1f GB per "
       "GPU, %.1f GB more than the GPU has") },
  [QM_NOTE_BATCH_NOT_DIVISIBLE] = { "batch-not-divisible",
    N_("global_batch %.0f is not a multiple of micro_batch × dp = %.0f") },
  [QM_NOTE_PARAMS_HINT_MISMATCH] = { "params-hint-mismatch",
    N_("params_b = %.4g B differs from the shape's %.4g B parameters") },
  [QM_NOTE_MFU_ABOVE_CEILING] = { "mfu-above-ceiling",
    N_("MFU %.0f%% is above this GPU's best-shape matmul ceiling of %.0f%% (MAMF)") },
  [QM_NOTE_NO_PEAK] = { "no-peak",
    N_("cannot estimate time: the GPU has no dense peak for this precision") },
  [QM_NOTE_NO_GPUS] = { "no-gpus",
    N_("cannot estimate: no GPU count and no deadline") },
  [QM_NOTE_NO_MODEL] = { "no-model",
    N_("cannot estimate: no model shape and no params_b") },
  [QM_NOTE_NOT_ENOUGH_GPUS] = { "not-enough-gpus",
    N_("%.0f GPUs cannot hold tp·pp·cp = %.0f; using %.0f") },
  [QM_NOTE_INFERENCE_MORE_GPUS] = { "inference-more-gpus",
    N_("target.gpus: %.0f GPUs are fewer than the %.0f that the request rate needs") },
  [QM_NOTE_INPUT_ERROR] = { "input-error",
    /* Translators: an input field name (such as workload.tp), a message, and the value given. */
    N_("error: %s: %s (got %g)"), 2 },
  [QM_NOTE_INPUT_WARNING] = { "input-warning",
    /* Translators: an input field name (such as workload.tp), a message, and the value given. */
    N_("%s: %s (got %g)"), 2 },
  [QM_NOTE_LIST_FULL] = { "list-full",
    N_("more notes were dropped") },
};

const char *
qm_note_id_to_string (QmNoteId id)
{
  return id < QM_N_NOTES && notes[id].id ? notes[id].id : "unknown";
}

/* "; it would fit with 512 GPUs, ZeRO-3, … or a GPU with at least 96 GB":
 * the what-ifs of qm_parallel_search () (QmParallelFix flags in v[3]). */
static void
format_fixes (const QmNote *note,
              char         *buf,
              gsize         size)
{
  guint fixes = (guint) note->v[3];
  gsize len = strlen (buf);
  /* Translators: starts the list of what would make a plan fit in memory. */
  const char *sep = _("; it would fit with ");
  /* Translators: separates the things that would make a plan fit. */
  const char *comma = C_("list separator", ", ");
  gboolean listed = FALSE;

#define APPEND(...) G_STMT_START {                                  \
    if (len < size)                                                 \
      len += g_snprintf (buf + len, size - len, __VA_ARGS__);       \
  } G_STMT_END
  if (fixes & QM_PARALLEL_FIX_MORE_GPUS)
    {
      APPEND ("%s", sep);
      /* Translators: what would make a plan fit in memory; %.0f is a GPU count. */
      APPEND (_("%.0f GPUs"), note->v[4]);
      sep = comma;
      listed = TRUE;
    }
  if (fixes & QM_PARALLEL_FIX_ZERO3)
    {
      APPEND ("%sZeRO-3", sep);
      sep = comma;
      listed = TRUE;
    }
  if (fixes & QM_PARALLEL_FIX_RECOMPUTE)
    {
      APPEND ("%s%s", sep, _("full recompute"));
      sep = comma;
      listed = TRUE;
    }
  if (fixes & QM_PARALLEL_FIX_MICRO_BATCH)
    {
      APPEND ("%smicro_batch 1", sep);
      sep = comma;
      listed = TRUE;
    }
  if (fixes & QM_PARALLEL_FIX_MODEL_PARALLEL)
    {
      APPEND ("%s%s", sep, _("tp/pp/cp/ep on auto"));
      sep = comma;
      listed = TRUE;
    }
  if (fixes & QM_PARALLEL_FIX_BIGGER_GPU)
    {
      /* Translators: before the last of several things that would make a plan fit. */
      APPEND ("%s%s", sep, listed ? _("or ") : "");
      /* Translators: the last of the things that would make a plan fit; %.0f is an amount in GB. */
      APPEND (_("a GPU with at least %.0f GB"), note->v[5]);
    }
#undef APPEND
}

const char *
qm_note_format (const QmNote *note,
                char         *buf,
                gsize         size)
{
  const char *s0, *s1;
  const double *v = note->v;

  if (note->id >= QM_N_NOTES || notes[note->id].text == NULL)
    {
      g_strlcpy (buf, "", size);
      return buf;
    }
  if (note->id == QM_NOTE_NO_LAYOUT_FITS && ((guint) v[3] & QM_PARALLEL_FIX_GLOBAL_BATCH))
    {
      g_snprintf (buf, size, _("no parallel layout of %.0f GPUs divides the global batch of %.0f "
                  "sequences (global_batch = micro_batch × micro-batches × dp, with tp·pp·cp·dp "
                  "= GPUs): change the GPU count or the global batch"), v[0], v[1]);
      return buf;
    }
  s0 = note->s[0] ? note->s[0] : "";
  s1 = note->s[1] ? note->s[1] : "";
  /* These notes carry words of their own (marked with N_ where they are
   * set); catalog ids have no translation and come back unchanged. */
  if (note->id == QM_NOTE_RACKS || note->id == QM_NOTE_LIQUID_COOLING || note->id == QM_NOTE_RACK_PARTS)
    {
      s0 = s0[0] != '\0' ? _(s0) : s0;
      s1 = s1[0] != '\0' ? _(s1) : s1;
    }
  switch (notes[note->id].n_str)
    {
    case 2:
      g_snprintf (buf, size, _(notes[note->id].text), s0, s1, v[0], v[1], v[2], v[3], v[4], v[5]);
      break;
    case 1:
      g_snprintf (buf, size, _(notes[note->id].text), s0, v[0], v[1], v[2], v[3], v[4], v[5]);
      break;
    default:
      g_snprintf (buf, size, _(notes[note->id].text), v[0], v[1], v[2], v[3], v[4], v[5]);
      break;
    }
  if (note->id == QM_NOTE_NO_LAYOUT_FITS || note->id == QM_NOTE_DOES_NOT_FIT)
    format_fixes (note, buf, size);
  if (note->id == QM_NOTE_BATCH_NOT_DIVISIBLE && v[2] > 0)
    {
      gsize len = strlen (buf);

      if (len < size)
        g_snprintf (buf + len, size - len,
                    /* Translators: appended to "global_batch … is not a multiple of …"; %.0f is a batch size. */
                    _("; the throughput model priced the nearest batch "
                      "that a layout of these GPUs divides, %.0f sequences"), v[2]);
    }
  return buf;
}

const char *
qm_mfu_source_to_string (QmMfuSource source)
{
  switch (source)
    {
    case QM_MFU_SOURCE_GIVEN: return "given";
    case QM_MFU_SOURCE_PREDICTED: return "predicted";
    case QM_MFU_SOURCE_DEFAULT:
    default: return "default";
    }
}

/* Notes hold only finite numbers, so no output can print NaN. */
static inline double
finite_or_zero (double v)
{
  return isfinite (v) ? v : 0.0;
}

static QmNote *
add_note_v (QmNote       *list,
            guint        *n,
            QmNoteId      id,
            const double *v,
            guint         n_v)
{
  QmNote *note;

  if (*n >= QM_ESTIMATE_MAX_NOTES)
    return NULL;
  note = &list[*n];
  if (*n == QM_ESTIMATE_MAX_NOTES - 1)
    id = QM_NOTE_LIST_FULL;
  note->id = id;
  for (guint i = 0; i < QM_NOTE_N_VALUES; i++)
    note->v[i] = i < n_v ? finite_or_zero (v[i]) : 0.0;
  note->s[0] = NULL;
  note->s[1] = NULL;
  (*n)++;
  return id == QM_NOTE_LIST_FULL ? NULL : note;
}

static QmNote *
add_note (QmNote   *list,
          guint    *n,
          QmNoteId  id,
          double    v0,
          double    v1,
          double    v2,
          double    v3)
{
  const double v[] = { v0, v1, v2, v3 };

  return add_note_v (list, n, id, v, G_N_ELEMENTS (v));
}

/* A note with two strings first (see the n_str of its template). */
static void
add_note_s (QmNote     *list,
            guint      *n,
            QmNoteId    id,
            const char *s0,
            const char *s1,
            double      v0,
            double      v1,
            double      v2)
{
  QmNote *note = add_note (list, n, id, v0, v1, v2, 0);

  if (note != NULL)
    {
      note->s[0] = s0;
      note->s[1] = s1;
    }
}

void
qm_estimate_assume (QmEstimate *e,
                    QmNoteId    id,
                    double      v0,
                    double      v1,
                    double      v2,
                    double      v3)
{
  add_note (e->assumptions, &e->n_assumptions, id, v0, v1, v2, v3);
}

void
qm_estimate_warn (QmEstimate *e,
                  QmNoteId    id,
                  double      v0,
                  double      v1,
                  double      v2,
                  double      v3)
{
  add_note (e->warnings, &e->n_warnings, id, v0, v1, v2, v3);
}

void
qm_estimate_add_issue (QmEstimate    *e,
                       const QmIssue *issue)
{
  QmNoteId id = issue->level == QM_ISSUE_ERROR ? QM_NOTE_INPUT_ERROR : QM_NOTE_INPUT_WARNING;

  /* Several modules may see the same bad field; say it once. */
  for (guint i = 0; i < e->n_warnings; i++)
    if (e->warnings[i].id == id && g_strcmp0 (e->warnings[i].s[0], issue->field) == 0 &&
        g_strcmp0 (e->warnings[i].s[1], issue->message) == 0)
      return;
  if (issue->level == QM_ISSUE_ERROR)
    e->n_errors++;
  add_note_s (e->warnings, &e->n_warnings, id, issue->field, issue->message, issue->value, 0, 0);
}

static void
add_issues (QmEstimate     *e,
            const QmIssues *issues)
{
  for (guint i = 0; i < issues->n; i++)
    qm_estimate_add_issue (e, &issues->items[i]);
}

static void
fill_memory_config (const QmPlan   *plan,
                    const QmEstimate *e,
                    QmMemoryConfig *mc)
{
  const QmWorkload *w = &plan->workload;

  memset (mc, 0, sizeof *mc);
  mc->mode = w->mode;
  mc->precision = w->precision;
  mc->optimizer = w->optimizer;
  mc->zero_stage = w->zero_stage;
  mc->tp = e->parallelism.tp;
  mc->pp = e->parallelism.pp;
  mc->dp = e->parallelism.dp;
  mc->cp = e->parallelism.cp;
  mc->ep = e->parallelism.ep;
  mc->sequence_parallel = e->parallelism.sequence_parallel;
  mc->micro_batch = w->micro_batch;
  mc->seq_len = w->seq_len;
  mc->n_microbatches = w->global_batch / MAX (1u, w->micro_batch * e->parallelism.dp);
  mc->virtual_stages = e->parallelism.virtual_stages;
  mc->recompute = w->recompute;
  mc->flash_attention = w->flash_attention;
  mc->lora_rank = w->lora_rank;
  mc->fp32_grad_buffer = w->fp32_grad_buffer;
  mc->weight_precision = w->inference.weight_precision;
  mc->kv_precision = w->inference.kv_precision;
  /* Serving: the sequences in flight that qm-inference sized the replica for. */
  if (e->has_inference && e->inference.concurrency > 0)
    mc->batch = e->inference.concurrency;
  else
    mc->batch = w->inference.concurrency > 0 ? w->inference.concurrency : 1;
  mc->context = w->inference.input_tokens + w->inference.output_tokens;
  /* Training: the capacity the device reports (an "80 GB" H100 holds
   * 81,559 MiB); serving keeps its own basis (qm-inference). */
  mc->capacity_bytes = w->mode == QM_MODE_INFERENCE ? plan->hardware.gpu.memory_gb * 1e9
                       : qm_gpu_memory_bytes (&plan->hardware.gpu);
}

static gboolean
try_layout (const QmPlan       *plan,
            const QmModelShape *shape,
            QmEstimate         *e,
            guint               tp,
            guint               pp,
            guint               cp,
            guint               ep)
{
  QmMemoryConfig mc;

  e->parallelism.tp = tp;
  e->parallelism.pp = pp;
  e->parallelism.cp = cp;
  e->parallelism.dp = MAX (1u, e->gpus / (tp * pp * cp));
  e->parallelism.ep = ep;
  e->parallelism.sequence_parallel = plan->workload.sequence_parallel && tp > 1;
  fill_memory_config (plan, e, &mc);
  qm_memory_estimate (shape, &mc, &e->memory);
  return e->memory.fits;
}

/* ------------------------------------------------------------------ */
/* Training layout and MFU from the throughput model (qm-parallel).     */

/* Interleaved schedules the estimate tries for a layout the plan fixes
 * when workload.virtual_stages is "auto", like the search's (which goes to
 * the same bound, QM_PARALLEL_MAX_VIRTUAL in qm-parallel.c). */
#define QM_ESTIMATE_MAX_VIRTUAL 20

/* Deadline sizing: whole-node counts tried above the rounded need before
 * the coarser grid of 1, 1.25, 1.5 and 1.75 × 2^k nodes (the counts that
 * layouts with a power-of-two batch can use), up to this many times it. */
#define QM_ESTIMATE_DEADLINE_STEPS    16
#define QM_ESTIMATE_DEADLINE_MAX_GROW 8
#define QM_ESTIMATE_DEADLINE_ITERS    4

static void
set_parallelism (QmEstimate             *e,
                 const QmParallelLayout *l)
{
  e->parallelism.tp = l->tp;
  e->parallelism.pp = l->pp;
  e->parallelism.dp = l->dp;
  e->parallelism.cp = l->cp;
  e->parallelism.ep = l->ep;
  e->parallelism.micro_batch = l->micro_batch;
  e->parallelism.zero_stage = l->zero_stage;
  e->parallelism.recompute = l->recompute;
  e->parallelism.sequence_parallel = l->sequence_parallel;
  e->parallelism.virtual_stages = l->virtual_stages;
}

/* The layout the plan fixes, on @gpus GPUs (ep 1 when the plan leaves a
 * dense model's ep on auto). */
static void
plan_layout (const QmWorkload *w,
             guint             gpus,
             QmParallelLayout *l)
{
  memset (l, 0, sizeof *l);
  l->tp = MAX (w->tp, 1u);
  l->pp = MAX (w->pp, 1u);
  l->cp = MAX (w->cp, 1u);
  l->ep = MAX (w->ep, 1u);
  l->dp = MAX (1u, gpus / (l->tp * l->pp * l->cp));
  l->micro_batch = MAX (w->micro_batch, 1u);
  l->n_micro = MAX (1u, w->global_batch / (l->micro_batch * l->dp));
  l->virtual_stages = 1;
  l->zero_stage = w->zero_stage;
  l->recompute = w->recompute;
  l->sequence_parallel = w->sequence_parallel && l->tp > 1;
}

/* The batch nearest @batch that a layout of @gpus can divide: a multiple of
 * the odd part of the GPU count (tp and a power-of-two pp take the rest)
 * and the micro-batch. 0 when that is more than a quarter away. */
static guint
nearby_batch (guint batch,
              guint gpus,
              guint micro_batch)
{
  guint64 q = MAX (gpus, 1u);
  double k;

  while (q % 2 == 0)
    q /= 2;
  q *= MAX (micro_batch, 1u);
  k = MAX (1.0, round ((double) batch / q));
  if (fabs (k * q - batch) > 0.25 * batch || k * q > G_MAXUINT)
    return 0;
  return (guint) (k * q);
}

/* Price a fixed layout at its fastest interleaving that fits in memory
 * (interleaving keeps more activations, Korthikanti §4.2.3), or at its
 * fastest when none fits. FALSE when the model cannot price it (it does
 * not divide the batch, the heads, ...). */
static gboolean
price_layout (const QmParallelProblem *pb,
              QmParallelLayout        *l,
              QmParallelTime          *out)
{
  QmParallelLayout try = *l;
  QmParallelTime t;
  gboolean found = FALSE, found_fits = FALSE;
  guint v_lo = pb->virtual_stages > 0 ? pb->virtual_stages : 1;
  guint v_hi = pb->virtual_stages > 0 ? pb->virtual_stages
               : (l->pp > 1 ? QM_ESTIMATE_MAX_VIRTUAL : 1u);

  memset (out, 0, sizeof *out);
  for (guint v = v_lo; v <= v_hi; v++)
    {
      QmMemoryBreakdown mem;
      gboolean fits;

      try.virtual_stages = v;
      if (!qm_parallel_step_time (pb, &try, &t))
        continue;
      qm_parallel_memory (pb, &try, &mem);
      fits = mem.fits;
      if (!found || (fits && !found_fits) || (fits == found_fits && t.step < out->step))
        {
          *out = t;
          l->virtual_stages = v;
          found = TRUE;
          found_fits = fits;
        }
    }
  return found;
}

/* A fixed layout whose dp·micro_batch does not divide the batch: price
 * it at the nearest batch that it divides (p->global_batch is set). */
static gboolean
relax_and_price (QmParallelProblem *p,
                 QmParallelLayout  *l,
                 QmParallelTime    *t)
{
  guint q = l->dp * l->micro_batch;
  guint b = MAX (1u, (guint) round ((double) p->global_batch / q)) * q;

  if (b == p->global_batch || fabs ((double) b - p->global_batch) > 0.25 * p->global_batch)
    return FALSE;
  p->global_batch = b;
  l->n_micro = b / q;
  return price_layout (p, l, t);
}

/* Can @gpus run the plan: a layout keeps the plan's global batch (dp ×
 * micro-batch × accumulation steps = batch, no nearby batch) and,
 * searched, fits? The predicted MFU there in *mfu. The deadline sizing
 * calls this for many counts, so it uses the search without the no-fit
 * what-ifs (the curve). */
static gboolean
count_feasible (const QmParallelProblem *pb,
                const QmWorkload        *w,
                gboolean                 searched,
                guint                    gpus,
                double                  *mfu)
{
  QmParallelProblem p = *pb;

  p.gpus = gpus;
  if (searched)
    {
      QmParallelCurvePoint pt;
      QmParallelCurve curve;

      qm_parallel_curve (&p, 0, &gpus, 1, &pt, &curve);
      *mfu = pt.mfu;
      return pt.fits && pt.mfu > 0;
    }
  else
    {
      QmParallelLayout l;
      QmParallelTime t;

      plan_layout (w, gpus, &l);
      if (!price_layout (&p, &l, &t))
        return FALSE;
      *mfu = t.mfu;
      return t.mfu > 0;
    }
}

/* The first count from @from (a multiple of @step) on which the plan runs:
 * whole steps first, then the 1/1.25/1.5/1.75 × 2^k grid. 0 = none. */
static guint
first_feasible (const QmParallelProblem *pb,
                const QmWorkload        *w,
                gboolean                 searched,
                guint                    from,
                guint                    step,
                double                  *mfu)
{
  guint64 last = 0;
  guint64 limit = (guint64) from * QM_ESTIMATE_DEADLINE_MAX_GROW;

  for (guint k = 0; k < QM_ESTIMATE_DEADLINE_STEPS; k++)
    {
      guint64 g = from + (guint64) k * step;

      if (g > G_MAXUINT / 2)
        return 0;
      if (count_feasible (pb, w, searched, (guint) g, mfu))
        return (guint) g;
      last = g;
    }
  for (guint64 p2 = 1; p2 <= limit; p2 *= 2)
    for (guint m = 4; m <= 7; m++)
      {
        guint64 g = p2 * m / 4;

        if ((p2 * m) % 4 != 0 || g <= last || g % step != 0 || g > limit || g > G_MAXUINT / 2)
          continue;
        last = g;
        if (count_feasible (pb, w, searched, (guint) g, mfu))
          return (guint) g;
      }
  return 0;
}

/* The first count from @from (in steps of @step, whole nodes of the fixed
 * tp·pp·cp) whose data-parallel degree divides the plan's batch with its
 * micro-batch: dp × micro-batch × accumulation steps = batch. @from when
 * none does within QM_ESTIMATE_DEADLINE_MAX_GROW times it (the batch
 * warning then says so). */
static guint
batch_keeping_gpus (const QmWorkload *w,
                    guint             from,
                    guint             step)
{
  guint64 mp = (guint64) MAX (w->tp, 1u) * MAX (w->pp, 1u) * MAX (w->cp, 1u);
  guint64 mb = MAX (w->micro_batch, 1u);

  step = MAX (step, 1u);
  for (guint64 g = from; g <= (guint64) from * QM_ESTIMATE_DEADLINE_MAX_GROW && g <= G_MAXUINT / 2;
       g += step)
    if (g % mp == 0 && w->global_batch % ((g / mp) * mb) == 0)
      return (guint) g;
  return from;
}

static double deadline_goodput (const QmPlan     *plan,
                                const QmEstimate *e,
                                guint             gpus,
                                double            ideal_s);

/* GPUs for a deadline when the throughput model runs: the fewest whole
 * nodes on which a layout keeps the plan's batch, fits and finishes in
 * time with failures counted (checkpoints, lost work and restarts, Daly's
 * complete model: qm-reliability). Both the MFU and the goodput fall as
 * GPUs are added, so the need is iterated: size at the current MFU and
 * goodput, predict both there, size again. */
static guint
gpus_for_deadline (const QmPlan            *plan,
                   const QmParallelProblem *pb,
                   const QmWorkload        *w,
                   QmEstimate              *e,
                   gboolean                 searched,
                   gboolean                 predict,
                   guint                    gpn,
                   guint                    mp_fixed,
                   double                  *raw_out,
                   double                  *mfu_out,
                   double                  *goodput_out)
{
  double deadline_s = w->deadline_days * 86400.0;
  double mfu = e->mfu, m = 0, raw = 0, good = 1.0;
  guint step = qm_compute_round_gpus (0, gpn, mp_fixed);
  guint g = 0;

  for (guint it = 0; it < QM_ESTIMATE_DEADLINE_ITERS + 2; it++)
    {
      guint c;
      double ideal;

      raw = qm_compute_gpus_for_time (e->training_flops, deadline_s * good, e->peak_flops, mfu);
      c = first_feasible (pb, w, searched, qm_compute_round_gpus (raw, gpn, mp_fixed), step, &m);
      if (c == 0)
        break;
      if (!predict)
        m = e->mfu;
      ideal = qm_compute_seconds (e->training_flops, c, e->peak_flops, m);
      if (c == g)
        break;
      g = c;
      *mfu_out = m;
      mfu = m;
      good = deadline_goodput (plan, e, g, ideal);
    }
  if (g == 0)
    {
      /* No count runs the plan: the layout step below says why. */
      *raw_out = raw;
      *mfu_out = e->mfu;
      *goodput_out = good;
      return qm_compute_round_gpus (raw, gpn, mp_fixed);
    }
  /* The last iterate may still miss the deadline, failures included. */
  for (guint k = 0; k < QM_ESTIMATE_DEADLINE_STEPS; k++)
    {
      double ideal = qm_compute_seconds (e->training_flops, g, e->peak_flops, *mfu_out);
      guint c;

      good = deadline_goodput (plan, e, g, ideal);
      if (ideal / good <= deadline_s)
        break;
      c = first_feasible (pb, w, searched, g + step, step, &m);
      if (c == 0)
        break;
      g = c;
      *mfu_out = predict ? m : e->mfu;
    }
  good = deadline_goodput (plan, e, g, qm_compute_seconds (e->training_flops, g, e->peak_flops,
                                                          *mfu_out));
  *goodput_out = good;
  *raw_out = qm_compute_gpus_for_time (e->training_flops, deadline_s * good, e->peak_flops,
                                       *mfu_out);
  return g;
}

/* A not-fitting layout the plan fixed: what would make it fit. Only on
 * this (rare) path, as the what-ifs search several times. */
static void
explain_no_fit (const QmParallelProblem *pb,
                QmEstimate              *e)
{
  QmParallelSearch res;

  qm_parallel_search (pb, 1, &res);
  if (res.n == 0)
    e->no_fit = res.no_fit;
}

static void
warn_no_fit (QmEstimate *e,
             QmNoteId    id,
             double      v0,
             double      v1,
             double      v2)
{
  const QmParallelNoFit *nf = &e->no_fit;
  const double v[] = {
    v0, v1, v2, nf->valid ? nf->fixes : 0, nf->fix_gpus, ceil (nf->fix_capacity_bytes / 1e9),
  };

  add_note_v (e->warnings, &e->n_warnings, id, v, G_N_ELEMENTS (v));
}

/* The old stand-in when no layout divides the batch: tp inside the node,
 * as far as the heads and GPUs allow, so that memory can still be shown. */
static void
fallback_layout (const QmWorkload   *w,
                 const QmModelShape *shape,
                 guint               gpus,
                 guint               gpn,
                 QmParallelLayout   *l)
{
  plan_layout (w, gpus, l);
  if (w->tp == 0)
    {
      guint heads = MAX (shape->heads, 1u);

      l->tp = 1;
      while (l->tp * 2 <= gpn && heads % (l->tp * 2) == 0 &&
             gpus % (l->tp * 2 * l->pp * l->cp) == 0)
        l->tp *= 2;
    }
  l->dp = MAX (1u, gpus / (l->tp * l->pp * l->cp));
  l->n_micro = MAX (1u, w->global_batch / (l->micro_batch * l->dp));
  l->sequence_parallel = w->sequence_parallel && l->tp > 1;
}

/* Layout, memory and (when @predict) the MFU of a training plan from the
 * throughput model: the search when @searched, else the plan's layout. */
static void
model_layout (const QmPlan            *plan,
              const QmModelShape      *shape,
              const QmParallelProblem *pb,
              QmEstimate              *e,
              gboolean                 searched,
              guint                    gpn)
{
  const QmWorkload *w = &plan->workload;
  QmParallelLayout l;

  if (searched)
    {
      QmParallelSearch res;
      QmParallelProblem relaxed;

      qm_parallel_search (pb, 1, &res);
      if (res.n == 0 && (res.no_fit.fixes & QM_PARALLEL_FIX_GLOBAL_BATCH))
        {
          relaxed = *pb;
          relaxed.global_batch = nearby_batch (pb->global_batch, pb->gpus, w->micro_batch);
          if (relaxed.global_batch > 0)
            {
              pb = &relaxed;
              e->priced_global_batch = relaxed.global_batch;
              qm_parallel_search (pb, 1, &res);
            }
        }
      e->layouts_evaluated = res.evaluated;
      if (res.n > 0)
        {
          const QmParallelResult *best = &res.top[0];
          const double v[] = {
            best->layout.tp, best->layout.pp, best->layout.cp, best->layout.ep,
            best->layout.virtual_stages, res.evaluated,
          };

          set_parallelism (e, &best->layout);
          e->memory = best->memory;
          e->step_time = best->time;
          e->has_step_time = TRUE;
          add_note_v (e->assumptions, &e->n_assumptions, QM_NOTE_PARALLEL_AUTO, v,
                      G_N_ELEMENTS (v));
          return;
        }
      e->no_fit = res.no_fit;
      if (res.no_fit.layouts_tried > 0)
        {
          /* The closest layout, priced as it is: its time is what the
           * plan would take on GPUs that held it. */
          l = res.no_fit.best_layout;
          e->memory = res.no_fit.best_memory;
          e->has_step_time = price_layout (pb, &l, &e->step_time);
          warn_no_fit (e, QM_NOTE_NO_LAYOUT_FITS, e->gpus, e->memory.total / 1e9,
                       res.no_fit.shortfall_bytes / 1e9);
        }
      else
        {
          fallback_layout (w, shape, e->gpus, gpn, &l);
          qm_parallel_memory (pb, &l, &e->memory);
          warn_no_fit (e, QM_NOTE_NO_LAYOUT_FITS, e->gpus, w->global_batch, 0);
        }
      set_parallelism (e, &l);
      return;
    }

  /* The plan fixes the layout and omits the MFU: price that layout. */
  plan_layout (w, e->gpus, &l);
  e->has_step_time = price_layout (pb, &l, &e->step_time);
  if (!e->has_step_time)
    {
      QmParallelProblem relaxed = *pb;

      e->has_step_time = relax_and_price (&relaxed, &l, &e->step_time);
      if (e->has_step_time)
        e->priced_global_batch = relaxed.global_batch;
      l.n_micro = MAX (1u, w->global_batch / (l.micro_batch * l.dp));
    }
  set_parallelism (e, &l);
  qm_parallel_memory (pb, &l, &e->memory);
  if (!e->memory.fits)
    explain_no_fit (pb, e);
}

/* The plan fixes the layout and gives the MFU: no throughput model, the
 * hot path (issue #3: a million estimates a second). */
static void
fixed_layout (const QmPlan       *plan,
              const QmModelShape *shape,
              QmEstimate         *e)
{
  const QmWorkload *w = &plan->workload;

  try_layout (plan, shape, e, MAX (w->tp, 1u), MAX (w->pp, 1u), MAX (w->cp, 1u),
              MAX (w->ep, 1u));
  e->parallelism.virtual_stages = 1;
}

/* ------------------------------------------------------------------ */
/* Catalog parts the plan does not name: racks, PDUs, a cloud offer.   */

/* The catalog's racks, liquid-cooled racks and PDUs, sorted out once so
 * that an estimate compares numbers, not kind strings. */
#define KIND_MAX 32

typedef struct
{
  const QmFacilityItem *rack[KIND_MAX];
  const QmFacilityItem *liquid[KIND_MAX];
  const QmFacilityItem *pdu[KIND_MAX];
  guint n_rack, n_liquid, n_pdu;
} FacilityKinds;

static const FacilityKinds *
facility_kinds (void)
{
  static FacilityKinds kinds;
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      guint n;
      const QmFacilityItem *items = qm_catalog_facility_items (&n);

      for (guint i = 0; i < n; i++)
        {
          if (g_strcmp0 (items[i].kind, "rack") == 0 && kinds.n_rack < KIND_MAX)
            kinds.rack[kinds.n_rack++] = &items[i];
          else if (g_strcmp0 (items[i].kind, "liquid-rack") == 0 && kinds.n_liquid < KIND_MAX)
            kinds.liquid[kinds.n_liquid++] = &items[i];
          else if (g_strcmp0 (items[i].kind, "pdu") == 0 && kinds.n_pdu < KIND_MAX)
            kinds.pdu[kinds.n_pdu++] = &items[i];
        }
      g_once_init_leave (&once, 1);
    }
  return &kinds;
}

/* The air-cooled rack with the facility's rack units, else the smallest
 * that holds them, else the tallest. */
static const QmFacilityItem *
pick_rack (guint rack_units)
{
  const FacilityKinds *k = facility_kinds ();
  const QmFacilityItem *best = NULL;

  for (guint i = 0; i < k->n_rack; i++)
    {
      const QmFacilityItem *it = k->rack[i];

      if (it->rack_units == rack_units)
        return it;
      if (best == NULL
          || (it->rack_units >= rack_units
              && (best->rack_units < rack_units || it->rack_units < best->rack_units))
          || (best->rack_units < rack_units && it->rack_units > best->rack_units))
        best = it;
    }
  return best;
}

/* The liquid-cooled rack with the least kW limit that carries @kw, else the
 * one with the most. */
static const QmFacilityItem *
pick_liquid_rack (double kw)
{
  const FacilityKinds *k = facility_kinds ();
  const QmFacilityItem *best = NULL;

  for (guint i = 0; i < k->n_liquid; i++)
    {
      const QmFacilityItem *it = k->liquid[i];

      if (best == NULL
          || (it->kw_limit >= kw && (best->kw_limit < kw || it->kw_limit < best->kw_limit))
          || (best->kw_limit < kw && it->kw_limit > best->kw_limit))
        best = it;
    }
  return best;
}

/* The PDU that feeds the fullest rack for the least money: each of the A/B
 * sets needs ceil (rack kW / PDU kW) of them (qm-cost.c). */
static const QmFacilityItem *
pick_pdu (double rack_kw)
{
  const FacilityKinds *k = facility_kinds ();
  const QmFacilityItem *best = NULL;
  double best_usd = G_MAXDOUBLE;

  for (guint i = 0; i < k->n_pdu; i++)
    {
      const QmFacilityItem *it = k->pdu[i];
      double usd = it->info.price_usd * (it->kw_limit > 0 && rack_kw > 0
                                         ? MAX (ceil (rack_kw / it->kw_limit), 1.0) : 1.0);

      if (usd < best_usd)
        {
          best = it;
          best_usd = usd;
        }
    }
  return best;
}

static double
offer_price (const QmCloudOffer *offer,
             gboolean            reserved)
{
  return reserved ? offer->usd_per_gpu_hour_reserved : offer->usd_per_gpu_hour_on_demand;
}

/* The plan's pricing.offer, else the cheapest catalog offer of the plan's
 * GPU that has a price of the wanted kind. */
static const QmCloudOffer *
pick_offer (const QmPlan *plan,
            gboolean      reserved)
{
  const QmCloudOffer *offers, *best = NULL;
  guint n;

  if (plan->offer_id[0] != '\0')
    return qm_catalog_cloud_offer (plan->offer_id);
  offers = qm_catalog_cloud_offers (&n);
  for (guint i = 0; i < n; i++)
    {
      double price = offer_price (&offers[i], reserved);

      if (price > 0 && g_strcmp0 (offers[i].gpu_id, plan->gpu_id) == 0
          && (best == NULL || price < offer_price (best, reserved)))
        best = &offers[i];
    }
  return best;
}

/* Tokenised data on disk: Megatron-LM's indexed dataset stores token ids as
 * uint16 when the vocabulary has fewer than 65,500 entries, else as int32
 * (megatron/core/datasets/indexed_dataset.py, DType.optimal_dtype). */
static double
bytes_per_token (const QmModelShape *shape)
{
  return shape->vocab > 0 && shape->vocab < 65500 ? 2.0 : 4.0;
}

/* ------------------------------------------------------------------ */
/* Cluster -> reliability -> power -> cost.                            */

/* Storage is sized to write one full checkpoint within this time, topping
 * up the bandwidth that capacity brings (a small dataset alone would buy
 * almost none). An assumption: Llama 3's Tectonic sustained 2 TB/s, so its
 * 5.7 TB checkpoints took seconds (arXiv 2407.21783 §3.3.1). */
#define QM_ESTIMATE_CHECKPOINT_TARGET_S 60.0

static gboolean
storage_in_servers (const QmStorageSpec *st)
{
  return st != NULL && g_strcmp0 (st->kind, "local-nvme") == 0;
}

/* The goodput a training run on @gpus would get (qm-reliability, Daly's
 * complete model), for the deadline sizing before the cluster exists:
 * checkpoints written in QM_ESTIMATE_CHECKPOINT_TARGET_S (the storage is
 * sized for that; more capacity only writes faster) or at the speed of the
 * servers' own drives. */
static double
deadline_goodput (const QmPlan     *plan,
                  const QmEstimate *e,
                  guint             gpus,
                  double            ideal_s)
{
  const QmWorkload *w = &plan->workload;
  const QmStorageSpec *st = plan->storage_id[0] || plan->storage_embedded ? &plan->hardware.storage : NULL;
  QmReliabilityInput ri = { 0, };
  QmReliability r;
  double trainable = e->params;
  guint gpn = MAX (plan->hardware.server.gpus, 1u);

  if (w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA)
    trainable = qm_memory_lora_params (&w->model, MAX (w->lora_rank, 1u));
  if (!qm_failure_preset_from_string (plan->reliability_preset, &ri.preset))
    ri.preset = QM_FAILURE_LLAMA3_PRODUCTION;
  ri.gpus = gpus;
  ri.ideal_s = ideal_s;
  ri.checkpoint_bytes = qm_checkpoint_bytes (trainable, w->precision, w->optimizer);
  if (storage_in_servers (st))
    ri.write_bytes_per_s = (double) ((gpus + gpn - 1) / gpn) * plan->hardware.server.nvme_tb
                           * st->write_gbs_per_tb * 1e9;
  else
    ri.write_bytes_per_s = ri.checkpoint_bytes / QM_ESTIMATE_CHECKPOINT_TARGET_S;
  ri.restart_s = plan->restart_minutes * 60.0;
  ri.rule = QM_CHECKPOINT_INTERVAL_DALY;
  qm_reliability_compute (&ri, &r);
  return r.goodput > 0 ? r.goodput : 1.0;
}

static void
run_modules (const QmPlan       *plan,
             const QmModelShape *shape,
             QmEstimate         *e)
{
  const QmWorkload *w = &plan->workload;
  const QmHardware *hw = &plan->hardware;
  const QmNetworkSpec *net = plan->network_id[0] || plan->network_embedded ? &hw->network : NULL;
  const QmStorageSpec *st = plan->storage_id[0] || plan->storage_embedded ? &hw->storage : NULL;
  gboolean rent = plan->pricing.mode != QM_PRICING_BUY;
  gboolean reserved = plan->pricing.mode == QM_PRICING_RENT_RESERVED;
  QmClusterInput ci = { 0, };
  QmPowerInput pi = { 0, };
  QmCostInput ki = { 0, };
  double checkpoint_bytes, trainable;

  /* What storage holds: the tokenised dataset and the kept checkpoints
   * while training; the served weights otherwise. LoRA checkpoints only the
   * adapters and their optimizer states; the frozen base is not rewritten. */
  if (e->has_training)
    {
      trainable = e->params;
      if (w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA)
        trainable = qm_memory_lora_params (shape, MAX (w->lora_rank, 1u));
      checkpoint_bytes = qm_checkpoint_bytes (trainable, w->precision, w->optimizer);
      e->dataset_bytes = w->tokens * bytes_per_token (shape);
    }
  else
    {
      checkpoint_bytes = e->inference.weights_bytes;
      e->dataset_bytes = 0;
      ci.checkpoints_kept = 1;
    }

  ci.gpus = e->gpus;
  ci.server = &hw->server;
  ci.gpu = &hw->gpu;
  ci.network = net;
  ci.storage = st;
  ci.facility = &plan->facility;
  ci.dataset_bytes = e->dataset_bytes;
  ci.checkpoint_bytes = checkpoint_bytes;
  /* Local NVMe writes at the speed of the drives already in the servers. */
  if (storage_in_servers (st))
    {
      double drives = e->nodes * hw->server.nvme_tb * st->write_gbs_per_tb * 1e9;

      ci.checkpoint_target_s = drives > 0 ? checkpoint_bytes / drives : 0;
    }
  else
    ci.checkpoint_target_s = QM_ESTIMATE_CHECKPOINT_TARGET_S;
  qm_cluster_compute (&ci, &e->cluster);
  e->has_cluster = TRUE;
  add_issues (e, &e->cluster.issues);

  if (e->has_training)
    {
      QmReliabilityInput ri = { 0, };
      QmFailurePreset preset = QM_FAILURE_LLAMA3_PRODUCTION;

      if (!qm_failure_preset_from_string (plan->reliability_preset, &preset))
        {
          static const QmIssue unknown = {
            QM_ISSUE_ERROR, "reliability.preset",
            "unknown preset; using llama3-production", 0
          };
          qm_estimate_add_issue (e, &unknown);
        }
      ri.preset = preset;
      ri.gpus = e->gpus;
      ri.ideal_s = e->ideal_days * 86400.0;
      ri.checkpoint_bytes = checkpoint_bytes;
      ri.write_bytes_per_s = e->cluster.storage_write_bytes_per_s;
      ri.restart_s = plan->restart_minutes * 60.0;
      ri.rule = QM_CHECKPOINT_INTERVAL_DALY;
      qm_reliability_compute (&ri, &e->reliability);
      e->has_reliability = TRUE;
      add_issues (e, &e->reliability.issues);

      /* The time the user waits includes failures; ideal_days stays beside. */
      e->train_days = e->reliability.wall_s / 86400.0;
      e->gpu_hours = e->gpus * e->train_days * 24.0;
      e->run_s = e->reliability.wall_s;
    }
  else
    e->run_s = QM_HOURS_PER_MONTH * 3600.0;

  pi.cluster = &e->cluster;
  pi.server = &hw->server;
  pi.gpu = &hw->gpu;
  pi.network = net;
  pi.storage = st;
  pi.facility = &plan->facility;
  pi.run_s = e->run_s;
  qm_power_compute (&pi, &e->power);
  e->has_power = TRUE;
  add_issues (e, &e->power.issues);

  /* Rent takes the offer's price when the plan gives none; buy compares
   * against renting for the break-even. */
  if (plan->pricing.usd_per_gpu_hour == 0 || plan->offer_id[0])
    e->offer = pick_offer (plan, reserved);
  if (!(isfinite (plan->pricing.usd_per_gpu_hour) && plan->pricing.usd_per_gpu_hour >= 0))
    {
      static const QmIssue bad_price = {
        QM_ISSUE_ERROR, "pricing.usd_per_gpu_hour", "price must be >= 0", 0
      };
      QmIssue issue = bad_price;

      issue.value = finite_or_zero (plan->pricing.usd_per_gpu_hour);
      qm_estimate_add_issue (e, &issue);
    }
  e->rack = pick_rack (plan->facility.rack_units);
  e->liquid_rack = e->cluster.liquid_cooling ? pick_liquid_rack (e->cluster.rack_kw_peak) : NULL;
  e->pdu = pick_pdu (e->cluster.rack_kw_peak);

  ki.cluster = &e->cluster;
  ki.power = &e->power;
  ki.server = &hw->server;
  ki.gpu = &hw->gpu;
  ki.network = net;
  ki.storage = st;
  ki.rack = e->rack;
  ki.liquid_rack = e->liquid_rack;
  ki.pdu = e->pdu;
  ki.facility = &plan->facility;
  ki.pricing = &plan->pricing;
  ki.offer = e->offer;
  ki.run_s = e->run_s;
  if (!rent && e->offer != NULL && !(plan->pricing.usd_per_gpu_hour > 0))
    ki.rent_usd_per_gpu_hour = offer_price (e->offer, FALSE);
  qm_cost_compute (&ki, &e->cost);
  e->has_cost = TRUE;
  for (guint i = 0; i < e->cost.issues.n; i++)
    {
      const QmIssue *issue = &e->cost.issues.items[i];

      /* The servers' own drives: their bandwidth is in the server price. */
      if (storage_in_servers (st) && issue->level == QM_ISSUE_WARNING &&
          g_strcmp0 (issue->field, "hardware.storage.usd_per_gbs") == 0)
        continue;
      qm_estimate_add_issue (e, issue);
    }
}

/* The module assumptions, in reading order. */
static void
assume_modules (const QmPlan       *plan,
                const QmModelShape *shape,
                QmEstimate         *e)
{
  const QmCluster *cl = &e->cluster;
  const QmPower *pw = &e->power;
  const QmCost *co = &e->cost;
  const QmPricing *pr = &plan->pricing;

  if (e->has_training)
    {
      const QmReliability *r = &e->reliability;
      const QmWorkload *w = &plan->workload;
      /* r->preset is the id that qm-reliability used: find its source. */
      QmFailurePreset preset = QM_FAILURE_LLAMA3_PRODUCTION;

      for (guint i = 0; i < QM_N_FAILURE_PRESETS; i++)
        if (qm_failure_preset_info ((QmFailurePreset) i)->id == r->preset)
          preset = (QmFailurePreset) i;
      qm_estimate_assume (e, QM_NOTE_DATASET_STORAGE, bytes_per_token (shape),
                          e->dataset_bytes / 1e12, QM_CLUSTER_CHECKPOINTS_KEPT_DEFAULT,
                          cl->storage_tb);
      qm_estimate_assume (e, QM_NOTE_CHECKPOINT, r->checkpoint_bytes / 1e9,
                          qm_checkpoint_bytes_per_param (w->precision, w->optimizer),
                          r->checkpoint_write_s, cl->storage_write_bytes_per_s / 1e9);
      add_note_s (e->assumptions, &e->n_assumptions, QM_NOTE_FAILURE_PRESET, r->preset,
                  qm_failure_preset_info (preset)->source,
                  r->gpu_hours_per_failure, r->interruptions, 0);
      qm_estimate_assume (e, QM_NOTE_CHECKPOINT_INTERVAL, r->checkpoint_interval_s / 60.0,
                          r->mtbf_s / 3600.0, r->restart_s / 60.0, 0);
      qm_estimate_assume (e, QM_NOTE_GOODPUT, 100.0 * r->goodput,
                          100.0 * r->checkpoint_overhead, 100.0 * r->failure_overhead,
                          e->train_days);
    }
  else
    qm_estimate_assume (e, QM_NOTE_INFERENCE_PERIOD, e->run_s / 3600.0, 0, 0, 0);

  {
    QmNote *note = add_note (e->assumptions, &e->n_assumptions, QM_NOTE_RACKS,
                             cl->nodes_per_rack, cl->nodes_per_rack_by_units,
                             cl->nodes_per_rack_by_kw, 0);
    if (note)
      note->s[0] = cl->rack_limited_by_kw ? N_("the kW limit per rack") : N_("rack space");
  }
  if (cl->liquid_cooling)
    {
      QmNote *note = add_note (e->assumptions, &e->n_assumptions, QM_NOTE_LIQUID_COOLING,
                               cl->rack_kw_peak,
                               plan->facility.air_cooling_kw > 0
                               ? plan->facility.air_cooling_kw
                               : QM_CLUSTER_AIR_COOLING_KW_DEFAULT, 0, 0);
      if (note)
        note->s[0] = e->liquid_rack ? e->liquid_rack->info.id : N_("no liquid rack in the catalog");
    }
  if (pw->avg_basis == QM_POWER_AVG_TYPICAL)
    qm_estimate_assume (e, QM_NOTE_POWER_AVG_TYPICAL, plan->hardware.server.power_typical_w,
                        pw->node.total, 100.0 * pw->avg_fraction, 0);
  else
    qm_estimate_assume (e, QM_NOTE_POWER_AVG_DEFAULT, 100.0 * pw->avg_fraction, 0, 0, 0);
  qm_estimate_assume (e, QM_NOTE_FACILITY, pw->pue, plan->facility.gco2_per_kwh,
                      plan->facility.usd_per_kwh, 0);
  if (cl->mgmt_switches > 0)
    qm_estimate_assume (e, QM_NOTE_MGMT_UNPRICED, cl->mgmt_switches, 0, 0, 0);

  if (pr->mode == QM_PRICING_BUY)
    {
      double pdus = 0;

      for (guint i = 0; i < co->n_bom; i++)
        if (e->pdu && co->bom[i].catalog_id == e->pdu->info.id && cl->racks > 0)
          pdus = co->bom[i].qty / cl->racks;
      add_note_s (e->assumptions, &e->n_assumptions, QM_NOTE_RACK_PARTS,
                  e->rack ? e->rack->info.id : N_("(none)"), e->pdu ? e->pdu->info.id : N_("(none)"),
                  pdus, 0, 0);
      qm_estimate_assume (e, QM_NOTE_COST_BUY, co->horizon_months / 12.0,
                          100.0 * pr->support_fraction, plan->facility.colo_usd_per_kw_month,
                          100.0 * QM_COST_INSTALL_FRACTION_DEFAULT);
    }
  else if (pr->usd_per_gpu_hour > 0 || e->offer == NULL)
    qm_estimate_assume (e, QM_NOTE_COST_RENT, pr->usd_per_gpu_hour, 0, 0, 0);
  else
    add_note_s (e->assumptions, &e->n_assumptions, QM_NOTE_COST_RENT_OFFER,
                e->offer->info.id, e->offer->info.source,
                offer_price (e->offer, pr->mode == QM_PRICING_RENT_RESERVED), 0, 0);
  if (co->break_even_valid)
    qm_estimate_assume (e, QM_NOTE_BREAK_EVEN, co->break_even_months,
                        co->rent_monthly / MAX (1.0, (double) e->gpus) / QM_HOURS_PER_MONTH,
                        0, 0);
}

/* Serving: replica size, concurrency, throughput and GPUs for the request
 * rate (qm-inference). */
static void
size_inference (const QmPlan       *plan,
                const QmModelShape *shape,
                QmEstimate         *e,
                guint               gpn)
{
  const QmWorkload *w = &plan->workload;
  const QmInferenceSpec *is = &w->inference;
  QmInferenceInput in = { 0, };
  g_autoptr (GArray) lengths = NULL;
  guint bad_line = 0;

  in.shape = shape;
  in.params = e->params;
  in.active_params = e->active_params;
  in.gpu = &plan->hardware.gpu;
  in.gpus_per_node = gpn;
  in.gpus_per_replica = w->tp > 0 ? w->tp * MAX (w->pp, 1u) : 0;
  in.requests_per_minute = is->requests_per_minute;
  in.input_tokens = is->input_tokens;
  in.output_tokens = is->output_tokens;
  in.concurrency = is->concurrency;
  in.weight_precision = is->weight_precision;
  in.kv_precision = is->kv_precision;
  in.ttft_ms = is->ttft_ms;
  in.tpot_ms = is->tpot_ms;
  in.pp = w->pp;
  in.arrival = is->arrival;
  in.input_tokens_sd = is->input_tokens_sd;
  in.output_tokens_sd = is->output_tokens_sd;
  in.max_sequences = is->max_sequences;
  if (is->lengths_csv[0])
    {
      lengths = qm_inference_read_lengths (is->lengths_csv, &bad_line);
      if (lengths != NULL)
        {
          in.lengths = (const double *) lengths->data;
          in.n_lengths = lengths->len / 2;
        }
    }
  qm_inference_compute (&in, &e->inference);
  if (is->lengths_csv[0] && lengths == NULL)
    qm_issues_add (&e->inference.issues, QM_ISSUE_ERROR, "workload.inference.lengths_csv",
                   bad_line == 0 ? "cannot read the file"
                                 : "each line needs input,output token counts (got a bad line)",
                   bad_line);
  e->has_inference = TRUE;
  add_issues (e, &e->inference.issues);
}

static void
add_error (QmEstimate *e,
           const char *field,
           const char *message,
           double      value)
{
  QmIssue issue = { QM_ISSUE_ERROR, field, message, finite_or_zero (value) };

  qm_estimate_add_issue (e, &issue);
}

static void
estimate (const QmPlan *plan,
          QmEstimate   *out)
{
  const QmWorkload *w = &plan->workload;
  const QmGpuSpec *gpu = &plan->hardware.gpu;
  QmModelShape shape = w->model;
  QmParamCount pc;
  QmTrainingFlops tf = { 0 };
  guint gpn = plan->hardware.server.gpus > 0 ? plan->hardware.server.gpus : 8;
  guint mp_fixed;
  double seconds;
  gboolean searched, predict, use_model;
  /* Filled only when the throughput model runs (not on the hot path). */
  QmParallelProblem pb;

  /* The note arrays are filled by count and each module clears its own
   * result, so only the rest needs zeroing here; qm_estimate () clears the
   * modules that did not run. */
  memset (out, 0, G_STRUCT_OFFSET (QmEstimate, cluster));
  memset ((char *) out + G_STRUCT_OFFSET (QmEstimate, run_s), 0,
          G_STRUCT_OFFSET (QmEstimate, assumptions) - G_STRUCT_OFFSET (QmEstimate, run_s));
  out->mode = w->mode;
  out->has_training = w->mode != QM_MODE_INFERENCE;
  out->valid = TRUE;

  /* The model: a shape, or params_b alone. */
  if (!qm_model_has_shape (&shape))
    {
      if (!(shape.params_hint > 0 && isfinite (shape.params_hint)))
        {
          qm_estimate_warn (out, QM_NOTE_NO_MODEL, 0, 0, 0, 0);
          out->valid = FALSE;
          return;
        }
      qm_model_shape_infer (shape.params_hint, &shape);
      qm_estimate_assume (out, QM_NOTE_SHAPE_INFERRED, shape.params_hint / 1e9,
                          shape.layers, shape.hidden, qm_model_params (&shape) / 1e9);
    }
  else if (shape.params_hint > 0 &&
           fabs (qm_model_params (&shape) / shape.params_hint - 1.0) > 0.05)
    {
      qm_estimate_warn (out, QM_NOTE_PARAMS_HINT_MISMATCH, shape.params_hint / 1e9,
                        qm_model_params (&shape) / 1e9, 0, 0);
    }
  qm_model_count_params (&shape, &pc);
  out->params = pc.total;
  out->active_params = pc.active;

  /* Compute and the MFU. */
  out->peak_flops = qm_compute_peak_flops (gpu, w->precision);
  if (out->peak_flops > 0 && !(gpu->tflops[w->precision] > 0))
    qm_estimate_assume (out, QM_NOTE_PEAK_FALLBACK, out->peak_flops / 1e12, 0, 0, 0);
  if (w->mfu > 0 && w->mfu <= 1)
    {
      out->mfu = w->mfu;
      out->mfu_source = QM_MFU_SOURCE_GIVEN;
    }
  else
    {
      out->mfu = qm_compute_default_mfu (gpu->family);
      out->mfu_source = QM_MFU_SOURCE_DEFAULT;
    }

  if (out->has_training)
    {
      out->tokens = w->tokens * w->epochs;
      if (!(isfinite (out->tokens) && out->tokens > 0))
        {
          add_error (out, isfinite (w->tokens) && w->tokens > 0 ? "workload.epochs"
                                                                 : "workload.tokens_b",
                     "must be > 0",
                     isfinite (w->tokens) && w->tokens > 0 ? w->epochs : w->tokens / 1e9);
          out->tokens = 0;
          out->valid = FALSE;
          return;
        }
      qm_compute_training_flops_for_mode (&shape, w->mode, out->tokens, w->seq_len, w->recompute, &tf);
      out->training_flops = tf.model_flops;
      out->training_flops_6nd = tf.flops_6nd;
      out->hardware_flops = tf.hardware_flops;
    }
  else
    size_inference (plan, &shape, out, gpn);

  /* The throughput model runs when the plan leaves a layout knob or the
   * MFU to us; a dense model's ep on auto is simply 1. */
  searched = w->tp == 0 || w->pp == 0 || w->cp == 0 ||
             (w->ep == 0 && qm_model_is_moe (&shape));
  predict = out->mfu_source != QM_MFU_SOURCE_GIVEN;
  use_model = out->has_training && out->peak_flops > 0 && (searched || predict);
  if (use_model)
    {
      qm_parallel_problem_from_plan (plan, 0, &pb);
      pb.shape = shape;   /* inferred from params_b when the plan has none */
    }

  /* GPUs: fixed, or enough for the deadline in whole nodes, or (serving)
   * enough for the request rate in whole nodes. */
  mp_fixed = (w->tp > 0 ? w->tp : 1) * (w->pp > 0 ? w->pp : 1) * MAX (w->cp, 1u);
  if (w->target_gpus > 0)
    {
      out->gpus = w->target_gpus;
      if (out->has_inference && out->inference.gpus > out->gpus)
        qm_estimate_warn (out, QM_NOTE_INFERENCE_MORE_GPUS, out->gpus, out->inference.gpus,
                          0, 0);
    }
  else if (w->deadline_days > 0 && out->has_training && out->peak_flops > 0)
    {
      double raw, mfu = out->mfu, good = 1.0;
      const double *v;

      if (use_model)
        out->gpus = gpus_for_deadline (plan, &pb, w, out, searched, predict, gpn, mp_fixed,
                                       &raw, &mfu, &good);
      else
        {
          /* Given MFU and layout: size on the failure-adjusted time too;
           * the goodput falls with the count, so iterate to a fixed point. */
          double deadline_s = w->deadline_days * 86400.0;

          out->gpus = 0;
          for (guint it = 0; it < QM_ESTIMATE_DEADLINE_ITERS + 4; it++)
            {
              guint g;

              raw = qm_compute_gpus_for_time (out->training_flops, deadline_s * good,
                                              out->peak_flops, out->mfu);
              g = batch_keeping_gpus (w, qm_compute_round_gpus (raw, gpn, mp_fixed),
                                      qm_compute_round_gpus (0, gpn, mp_fixed));
              good = deadline_goodput (plan, out, g, qm_compute_seconds (out->training_flops, g,
                                                                         out->peak_flops, out->mfu));
              if (g <= out->gpus)
                break;
              out->gpus = g;
            }
        }
      v = (const double[]) { w->deadline_days, raw, 100.0 * mfu, 100.0 * good, out->gpus, gpn };
      add_note_v (out->assumptions, &out->n_assumptions, QM_NOTE_GPUS_FOR_DEADLINE, v, 6);
    }
  else if (!out->has_training)
    out->gpus = (MAX (out->inference.gpus, 1u) + gpn - 1) / gpn * gpn;
  if (out->gpus == 0)
    {
      qm_estimate_warn (out, out->peak_flops > 0 ? QM_NOTE_NO_GPUS : QM_NOTE_NO_PEAK,
                        0, 0, 0, 0);
      out->valid = FALSE;
      return;
    }
  if (out->gpus < mp_fixed)
    {
      qm_estimate_warn (out, QM_NOTE_NOT_ENOUGH_GPUS, out->gpus, mp_fixed, mp_fixed, 0);
      out->gpus = mp_fixed;
    }
  out->nodes = (out->gpus + gpn - 1) / gpn;

  /* Layout and memory. Serving uses the replica that qm-inference sized,
   * unless the plan fixes tp/pp. */
  if (out->has_inference && out->inference.gpus_per_replica > 0)
    {
      guint gpr = out->inference.gpus_per_replica;
      guint tp = w->tp > 0 ? w->tp : MIN (gpr, gpn);

      try_layout (plan, &shape, out, tp, w->pp > 0 ? w->pp : MAX (gpr / tp, 1u), 1,
                  w->ep > 0 ? w->ep : 1);
      /* One "fits" for the memory page and serving (issue 18): the serving
       * engine's own budget on the device's real bytes (qm_serving_fits). */
      if (out->inference.fits || out->inference.weights_per_gpu_bytes > 0)
        {
          QmMemoryBreakdown *m = &out->memory;
          const QmInference *inf = &out->inference;

          memset (m, 0, sizeof *m);
          m->weights = inf->weights_per_gpu_bytes;
          m->activations = inf->workspace_per_gpu_bytes;
          m->kv_cache = inf->kv_per_gpu_bytes;
          m->overhead = inf->reserve_per_gpu_bytes;
          m->total = inf->memory_per_gpu_bytes;
          m->capacity = inf->capacity_per_gpu_bytes;
          m->margin = m->capacity - m->total;
          m->fits = inf->fits;
        }
    }
  else if (use_model)
    {
      pb.gpus = out->gpus;
      model_layout (plan, &shape, &pb, out, searched, gpn);
      if (predict && out->has_step_time && out->step_time.mfu > 0)
        {
          out->mfu = out->step_time.mfu;
          out->mfu_source = QM_MFU_SOURCE_PREDICTED;
        }
    }
  else
    {
      fixed_layout (plan, &shape, out);
      /* A fixed layout that does not fit: what would (the rare path). */
      if (out->has_training && !out->memory.fits && out->peak_flops > 0)
        {
          qm_parallel_problem_from_plan (plan, out->gpus, &pb);
          pb.shape = shape;
          explain_no_fit (&pb, out);
        }
    }
  if (out->has_inference)
    {
      out->parallelism.micro_batch = w->micro_batch;
      out->parallelism.zero_stage = w->zero_stage;
      out->parallelism.recompute = w->recompute;
      out->parallelism.virtual_stages = 1;
    }
  else if (!use_model)
    {
      out->parallelism.micro_batch = w->micro_batch;
      out->parallelism.zero_stage = w->zero_stage;
      out->parallelism.recompute = w->recompute;
    }
  out->fits = out->memory.fits;
  /* No layout of the search fits: QM_NOTE_NO_LAYOUT_FITS says it all. */
  if (!out->fits && !(use_model && searched))
    warn_no_fit (out, QM_NOTE_DOES_NOT_FIT, out->memory.total / 1e9,
                 out->memory.capacity / 1e9, 0);

  if (!out->has_training)
    {
      const QmInference *inf = &out->inference;

      qm_estimate_assume (out, QM_NOTE_INFERENCE_MEMORY,
                          MAX (inf->concurrency, 1u),
                          w->inference.input_tokens + w->inference.output_tokens, 0, 0);
      qm_estimate_assume (out, QM_NOTE_OVERHEAD, 0, 0, 0, 0);
      qm_estimate_assume (out, QM_NOTE_INFERENCE_SIZING, inf->replicas, inf->gpus_per_replica,
                          inf->concurrency, inf->tokens_per_s_needed);
      run_modules (plan, &shape, out);
      assume_modules (plan, &shape, out);
      return;
    }

  /* Time. */
  seconds = qm_compute_seconds (out->training_flops, out->gpus, out->peak_flops, out->mfu);
  if (!(seconds > 0 && isfinite (seconds)))
    {
      qm_estimate_warn (out, QM_NOTE_NO_PEAK, 0, 0, 0, 0);
      out->valid = FALSE;
      return;
    }
  out->ideal_days = seconds / 86400.0;
  /* Until reliability runs (run_modules), the failure-free figures. */
  out->train_days = out->ideal_days;
  out->gpu_hours = out->gpus * out->train_days * 24.0;

  /* Assumptions, in reading order. */
  qm_estimate_assume (out, QM_NOTE_FLOPS_BASIS, out->active_params, out->tokens,
                      out->training_flops_6nd,
                      out->training_flops_6nd > 0
                      ? 100.0 * (out->training_flops / out->training_flops_6nd - 1.0) : 0);
  switch (w->recompute)
    {
    case QM_RECOMPUTE_SELECTIVE:
      qm_estimate_assume (out, QM_NOTE_HARDWARE_FLOPS_SELECTIVE,
                          100.0 * (out->hardware_flops / out->training_flops - 1.0), 0, 0, 0);
      break;
    case QM_RECOMPUTE_FULL:
      qm_estimate_assume (out, QM_NOTE_HARDWARE_FLOPS_FULL,
                          100.0 * (out->hardware_flops / out->training_flops - 1.0), 0, 0, 0);
      break;
    case QM_RECOMPUTE_NONE:
    default:
      qm_estimate_assume (out, QM_NOTE_HARDWARE_FLOPS_NONE, 0, 0, 0, 0);
      break;
    }
  if (out->mfu_source == QM_MFU_SOURCE_PREDICTED)
    {
      const QmParallelTime *t = &out->step_time;
      double step = t->step > 0 ? t->step : 1.0;
      double comm = t->tp_comm + t->pp_comm + t->dp_comm + t->zero_comm + t->cp_comm
                    + t->ep_comm;
      const double v[] = {
        100.0 * out->mfu, t->step, 100.0 * t->compute / step, 100.0 * comm / step,
        100.0 * t->bubble / step, 100.0 * (t->recompute + t->optimizer) / step,
      };

      add_note_v (out->assumptions, &out->n_assumptions, QM_NOTE_MFU_PREDICTED, v,
                  G_N_ELEMENTS (v));
    }
  else
    qm_estimate_assume (out, out->mfu_source == QM_MFU_SOURCE_GIVEN
                        ? QM_NOTE_MFU_GIVEN : QM_NOTE_MFU_DEFAULT, 100.0 * out->mfu, 0, 0, 0);
  if (out->mfu_source == QM_MFU_SOURCE_GIVEN && gpu->mamf_fraction > 0 &&
      out->mfu > gpu->mamf_fraction)
    qm_estimate_warn (out, QM_NOTE_MFU_ABOVE_CEILING, 100.0 * out->mfu,
                      100.0 * gpu->mamf_fraction, 0, 0);
  qm_estimate_assume (out, QM_NOTE_SEED_RULE,
                      qm_compute_seed_rule_gpus (out->tokens / 1e9, 1.0, out->active_params / 1e9,
                                                 out->ideal_days * 24.0),
                      out->ideal_days * 24.0, 0, 0);

  if (w->mode == QM_MODE_LORA || w->mode == QM_MODE_QLORA)
    qm_estimate_assume (out, w->mode == QM_MODE_QLORA ? QM_NOTE_QLORA : QM_NOTE_LORA,
                        MAX (w->lora_rank, 1u),
                        qm_memory_lora_params (&shape, MAX (w->lora_rank, 1u)) / 1e6, 0, 0);
  {
    gboolean fp32 = w->precision == QM_PRECISION_FP32 || w->precision == QM_PRECISION_TF32;
    double per_param = fp32 ? 8.0 : 8.0 + (w->fp32_grad_buffer ? 2.0 : 0.0);
    static const double opt[] = { 8.0, 2.0, 4.0, 0.0 };

    per_param += opt[MIN ((guint) w->optimizer, 3u)];
    qm_estimate_assume (out, QM_NOTE_MODEL_STATES, per_param, w->zero_stage,
                        out->parallelism.dp, 0);
  }
  if (w->fp32_grad_buffer)
    qm_estimate_assume (out, QM_NOTE_FP32_GRAD_BUFFER, 0, 0, 0, 0);
  if (w->precision == QM_PRECISION_FP8)
    qm_estimate_assume (out, QM_NOTE_FP8_MEMORY, 0, 0, 0, 0);
  {
    QmPipelineStages st;
    guint pp = MAX (out->parallelism.pp, 1u), v = MAX (out->parallelism.virtual_stages, 1u);
    guint dp = MAX (out->parallelism.dp, 1u), mb = MAX (out->parallelism.micro_batch, 1u);

    if (!qm_memory_pipeline_stages (shape.layers, pp, v, &st))
      {
        v = 1;
        qm_memory_pipeline_stages (shape.layers, pp, 1, &st);
      }
    qm_estimate_assume (out, QM_NOTE_ACTIVATIONS,
                        qm_memory_pipeline_layers_held (&st, pp, v, w->global_batch / (dp * mb)),
                        v, 0, 0);
  }
  qm_estimate_assume (out, QM_NOTE_OVERHEAD, 0, 0, 0, 0);

  if (w->global_batch % MAX (1u, out->parallelism.micro_batch * out->parallelism.dp) != 0)
    qm_estimate_warn (out, QM_NOTE_BATCH_NOT_DIVISIBLE, w->global_batch,
                      (double) out->parallelism.micro_batch * out->parallelism.dp,
                      out->priced_global_batch, 0);

  /* The cluster and what it costs to run; train_days becomes the wall clock. */
  run_modules (plan, &shape, out);
  assume_modules (plan, &shape, out);
}

void
qm_estimate (const QmPlan *plan,
             QmEstimate   *out)
{
  estimate (plan, out);
  /* A module that did not run (invalid input, or not for this mode) reads
   * as zeros, never as the previous estimate. */
  if (!out->has_cluster)
    memset (&out->cluster, 0, sizeof out->cluster);
  if (!out->has_reliability)
    memset (&out->reliability, 0, sizeof out->reliability);
  if (!out->has_power)
    memset (&out->power, 0, sizeof out->power);
  if (!out->has_cost)
    memset (&out->cost, 0, sizeof out->cost);
  if (!out->has_inference)
    memset (&out->inference, 0, sizeof out->inference);
}
