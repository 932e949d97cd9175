/* qm-estimate-notes.c: the estimate's notes: their table, adding them, and
 * formatting them as text at the edge.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-estimate-private.h"


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
  /* Seed 001 ("Number of A100 GPUs needed for Inference = output_tokens /
   * throughput x qpm / 60"), at the model's own max throughput per GPU,
   * beside the fleet the simulated latencies need. */
  [QM_NOTE_INFERENCE_RULE_OF_THUMB] = { "inference-rule-of-thumb",
    N_("rule of thumb (output tokens / throughput x requests a minute / 60): %.1f GPUs at "
       "%.0f output tokens/s per GPU; the fleet sized for the latency targets has %.0f GPUs, "
       "%.2fx as many") },
  [QM_NOTE_INFERENCE_PERIOD] = { "inference-period",
    N_("serving runs around the clock: energy, CO2 and the run cost are for one month "
       "(%.1f hours)") },
  [QM_NOTE_INFERENCE_ENGINE] = { "inference-engine",
    /* Translators: the first %s is an engine name (vLLM), the second its version. */
    N_("serving engine: %s %s; up to %.0f tokens and %.0f sequences per step, KV blocks of "
       "%.0f tokens, host time %.0f µs per step and %.1f µs per sequence for scheduling, "
       "sampling and launches (the engine's catalog entry and its sources)"), 2 },
  [QM_NOTE_INFERENCE_DERIVED] = { "inference-derived",
    /* Translators: %s is a GPU name; the list names serving constants. */
    N_("%s has no measured serving constants for %s: derived by the rules in qm-serving.c "
       "(HBM: mean achieved fraction of H100/H200/B200; fp8 GEMMs: its bf16 matmul "
       "efficiency scaled as on those GPUs; all-reduce: 80%% of the link where no bus bandwidth "
       "is measured, NCCL's NVLink latency where none is)"), 2 },
  /* Issue 31: a plan with target.gpus keeps its fleet and is told what it
   * holds (qm-inference.c, replica_capacity). */
  [QM_NOTE_INFERENCE_CAPACITY] = { "inference-capacity",
    N_("serving capacity: the plan's %.0f GPUs are kept, as %.0f replicas of %.0f GPUs; they hold "
       "%.4g requests/s, the highest Poisson rate at which the simulated p99 TTFT and TPOT meet the "
       "targets (a bracketing search to 1%%, seeded runs; Poisson arrivals split over the replicas)") },
  [QM_NOTE_INFERENCE_SPARE_GPUS] = { "inference-spare-gpus",
    N_("spare GPUs: %.0f of the %.0f GPUs serve no replica (whole nodes are rented, and the "
       "rest is not a whole replica of %.0f GPUs); they are costed and powered all the same") },
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
    N_("rent vs buy: buying costs less than renting at %.2f per GPU-hour from month %.0f after the order") },
  /* These two append what would fit (v[3] QmParallelFix flags, v[4] GPUs,
   * v[5] GB per GPU): see format_fixes (). */
  [QM_NOTE_SCHEDULE_1F1B] = { "schedule-1f1b",
    N_("pipeline schedule: 1F1B without interleaving (v = 1), the default of Megatron-LM and "
       "torchtitan when pp is given without virtual_stages; bubble (p − 1)/m of the step with p = "
       "%.0f stages and m = %.0f micro-batches (Narayanan 2021 §2.2)") },
  [QM_NOTE_SCHEDULE_INTERLEAVED] = { "schedule-interleaved",
    N_("pipeline schedule: interleaved 1F1B with v = %.0f model chunks per stage, as the plan "
       "gives; bubble (p − 1)/(v·m) with p = %.0f stages and m = %.0f micro-batches (Narayanan "
       "2021 §2.2)") },
  [QM_NOTE_SCHEDULE_SEARCH] = { "schedule-search",
    N_("pipeline schedule: 1F1B with v = %.0f model chunks per stage (1 = no interleaving), "
       "chosen by the layout search over p = %.0f stages (workload.virtual_stages \"auto\", or "
       "pp \"auto\" with virtual_stages absent)") },
  [QM_NOTE_MAMF_SAME_AS] = { "mamf-same-as",
    /* Translators: %s are catalog GPU ids. */
    N_("GEMM efficiency: %s has no measurement of its own and takes that of %s, the same "
       "silicon: a best-shape matmul fraction of %.3f of the dense peak (catalog mamf_source)"), 2 },
  [QM_NOTE_MAMF_DEFAULT] = { "mamf-default",
    /* Translators: %s is a catalog GPU id. */
    N_("GEMM efficiency: %s has no measured best-shape matmul fraction; the default %.3f is "
       "assumed, the mean of the measured A100, H100 and B200 (stas00/ml-engineering MAMF "
       "table)"), 1 },
  [QM_NOTE_LIQUID_BY_DESIGN] = { "liquid-by-design",
    /* Translators: %s is a catalog id of a rack-scale system or a liquid-cooled rack. */
    N_("liquid cooling (%s): the servers are cooled by liquid by design (cold plates), %.1f kW "
       "per compute rack; the air-cooling limit is %.0f kW"), 1 },
  [QM_NOTE_RACKS_OWN] = { "racks-own",
    /* Translators: %s is a catalog id of a rack-scale system (GB200 NVL72). */
    N_("racks: each %s is a rack of its own (%.0f U, %.1f kW at the nameplate power), delivered "
       "with its enclosure and power shelves, not packed into the facility's %.0f U racks"), 1 },
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
  [QM_NOTE_INFERENCE_OVER_CAPACITY] = { "inference-over-capacity",
    N_("target.gpus: the plan's %.4g requests/s are %.0f%% more than its %.0f GPUs hold "
       "(%.4g requests/s within the latency targets); %.0f GPUs would hold them") },
  [QM_NOTE_INFERENCE_NO_CAPACITY] = { "inference-no-capacity",
    N_("target.gpus: no number of replicas of %.0f GPUs meets the latency targets: a lone "
       "request already misses them") },
  [QM_NOTE_INPUT_ERROR] = { "input-error",
    /* Translators: an input field name (such as workload.tp), a message, and the value given. */
    N_("error: %s: %s (got %g)"), 2 },
  [QM_NOTE_INPUT_WARNING] = { "input-warning",
    /* Translators: an input field name (such as workload.tp), a message, and the value given. */
    N_("%s: %s (got %g)"), 2 },
  [QM_NOTE_LIST_FULL] = { "list-full",
    N_("more notes were dropped") },
  [QM_NOTE_HARDWARE_FLOPS_SELECTIVE_OP] = { "hardware-flops-selective-op",
    N_("hardware_flops add the recompute of every other matrix product (PyTorch per-operator "
       "selective checkpointing, as torchtitan applies it): +%.1f%%") },
  [QM_NOTE_LORA_ATTENTION] = { "lora-attention",
    N_("LoRA rank %.0f on the attention projections only (QKV and output, as NeMo's "
       "target_modules ['attention']): %.4g M trainable parameters; the base is frozen and keeps "
       "only the activations its backward needs") },
  [QM_NOTE_LORA_FROZEN] = { "lora-frozen",
    N_("LoRA rank %.0f on every linear layer: %.4g M trainable parameters; the base is frozen") },
  [QM_NOTE_FP8_WEIGHTS] = { "fp8-weights",
    N_("fp8 weights: the model's weights are kept in fp8, 1 byte each (Transformer Engine "
       "fp8_model_init, NeMo fp8_params); trained weights keep their fp32 masters in the "
       "optimizer") },
  /* Issue #36: the estimate's error band and what it rests on. */
  [QM_NOTE_ACCURACY_BAND] = { "accuracy-band",
    /* Translators: a GPU family id (h100), then a kind: a parallelism
     * (3D, FSDP, CP, LoRA), an engine id, or "all". */
    N_("likely range: held-out error of the published runs of GPU family %s, %s (%.0f runs on "
       "%.0f to %.0f GPUs): p10 %+.1f%%, p90 %+.1f%% (predicted / published - 1; "
       "data/catalog/accuracy.json, docs/accuracy.md)"), 2 },
  [QM_NOTE_ACCURACY_POOLED] = { "accuracy-pooled",
    /* Translators: %s is a catalog GPU id. */
    N_("likely range: %s has %.0f published runs of its family (fewer than %.0f), so the band is "
       "the spread of all %.0f runs on every GPU: p10 %+.1f%%, p90 %+.1f%%"), 1 },
  [QM_NOTE_ACCURACY_NONE] = { "accuracy-none",
    N_("no likely range: the plan gives its own MFU (%.0f%%), which no validation measures; "
       "leave it out to have the throughput model predict it with a band") },
  [QM_NOTE_DEADLINE_CONFIDENCE] = { "deadline-confidence",
    N_("deadline met with %.0f%% confidence (target.confidence): the GPUs are sized for a run "
       "%.1f%% slower than estimated, the error at that quantile (p90 %+.1f%%)") },
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
  if (note->id == QM_NOTE_RACKS || note->id == QM_NOTE_LIQUID_COOLING || note->id == QM_NOTE_RACK_PARTS
      || note->id == QM_NOTE_LIQUID_BY_DESIGN)
    {
      s0 = s0[0] != '\0' ? _(s0) : s0;
      s1 = s1[0] != '\0' ? _(s1) : s1;
    }
  /* An input issue: s0 is its key path (never translated), s1 its
   * message, marked with N_ where qm_issues_add is called. */
  if (note->id == QM_NOTE_INPUT_ERROR || note->id == QM_NOTE_INPUT_WARNING)
    {
      char message[256];

      if (s1[0] != '\0' && qm_issue_message_complete (s1, v[1] != 0.0 ? NAN : v[0], message, sizeof message))
        {
          /* Translators: an input field name (such as workload.tp) and a message. */
          g_snprintf (buf, size, note->id == QM_NOTE_INPUT_ERROR ? _("error: %s: %s") : _("%s: %s"), s0, message);
          return buf;
        }
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
    note->v[i] = i < n_v ? qm_estimate_finite_or_zero (v[i]) : 0.0;
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
  /* Note values are finite: v[1] says the issue has no value to show. */
  add_note_s (e->warnings, &e->n_warnings, id, issue->field, issue->message, issue->value,
              isnan (issue->value) ? 1.0 : 0.0, 0);
}

void
qm_estimate_add_issues (QmEstimate     *e,
                        const QmIssues *issues)
{
  for (guint i = 0; i < issues->n; i++)
    qm_estimate_add_issue (e, &issues->items[i]);
}

QmNote *
qm_estimate_assume_v (QmEstimate   *e,
                      QmNoteId      id,
                      const double *v,
                      guint         n_v)
{
  return add_note_v (e->assumptions, &e->n_assumptions, id, v, n_v);
}

void
qm_estimate_warn_v (QmEstimate   *e,
                    QmNoteId      id,
                    const double *v,
                    guint         n_v)
{
  add_note_v (e->warnings, &e->n_warnings, id, v, n_v);
}

void
qm_estimate_assume_s (QmEstimate *e,
                      QmNoteId    id,
                      const char *s0,
                      const char *s1,
                      double      v0,
                      double      v1,
                      double      v2)
{
  add_note_s (e->assumptions, &e->n_assumptions, id, s0, s1, v0, v1, v2);
}
