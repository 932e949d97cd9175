/* qm-workload.h: what to train or serve (QmWorkload) and the whole plan
 * (QmPlan): plain value structs, copied by value, with no heap pointers.
 * Strings are fixed arrays; the hardware specs carry interned strings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"
#include "qm-model.h"
#include "qm-quote.h"

G_BEGIN_DECLS

#define QM_ID_LEN    64
#define QM_NAME_LEN  256
#define QM_NOTES_LEN 4096

/* How serving requests arrive (workload.inference.arrival): a Poisson
 * stream at the plan's rate, or all queued at once (offline
 * max-throughput, as trtllm-bench throughput and MLPerf Offline). */
/* workload.tp_overlap: how tensor-parallel collectives overlap the GEMMs
 * (qm-parallel-model.c prices each): none (Megatron-LM's default), bulk
 * (Transformer Engine userbuffers' bulk overlaps of the backward only),
 * pipelined (Megatron --tp-comm-overlap with userbuffers, or PyTorch
 * AsyncTP: every collective split and pipelined with its GEMM), auto (the
 * layout search picks the fastest). */
typedef enum
{
  QM_TP_OVERLAP_NONE,
  QM_TP_OVERLAP_BULK,
  QM_TP_OVERLAP_PIPELINED,
  QM_TP_OVERLAP_AUTO,
} QmTpOverlap;

typedef enum
{
  QM_ARRIVAL_POISSON,
  QM_ARRIVAL_OFFLINE,
} QmArrival;

/* workload.inference (docs/plan-file.md). */
typedef struct
{
  double      requests_per_minute;
  guint       input_tokens;
  guint       output_tokens;
  guint       concurrency;        /* sequences in flight per replica; 0 = derive */
  QmPrecision weight_precision;
  QmPrecision kv_precision;
  double      ttft_ms;
  double      tpot_ms;
  /* Optional (issue 18): arrival process, spread of lengths (standard
   * deviations; 0 = fixed), a CSV of "input,output" lengths, and the
   * engine's cap on sequences per replica (0 = the engine default). */
  QmArrival   arrival;
  double      input_tokens_sd;
  double      output_tokens_sd;
  char        lengths_csv[1024];
  guint       max_sequences;
  /* Issue 31: the serving engine (0 = auto, the usual engine for the
   * GPU's vendor; k = the k-th entry of data/catalog/engines.json,
   * qm_workload_engine_id) and its tokens per step (0 = the engine's
   * default). */
  int         engine;
  guint       max_batch_tokens;
} QmInferenceSpec;

typedef struct
{
  QmMode       mode;
  char         preset[QM_ID_LEN];  /* "" = none */
  QmModelShape model;              /* resolved: preset + overrides, or params_hint alone */
  double       tokens;             /* training tokens per epoch (tokens_b × 1e9) */
  double       epochs;
  guint        seq_len;
  guint        global_batch;       /* sequences per step */
  guint        micro_batch;
  QmPrecision  precision;
  QmOptimizer  optimizer;
  guint        zero_stage;         /* 0..3 */
  QmRecompute  recompute;
  guint        recompute_layers;   /* optional; full recompute of this many layers per stage, 0 = all */
  gboolean     flash_attention;
  gboolean     sequence_parallel;  /* optional key; default TRUE (used when tp > 1) */
  gboolean     fp32_grad_buffer;   /* optional key; +4 B/param, see qm-memory.h */
  QmTpOverlap  tp_overlap;         /* optional key; default none */
  guint        tp, pp, cp, ep;     /* 0 = auto */
  guint        virtual_stages;     /* interleaved 1F1B chunks per stage; 0 = "auto"
                                    * (the search's choice); QM_VIRTUAL_STAGES_UNSET
                                    * = absent: see qm_workload_virtual_stages() */
  double       mfu;                /* 0 = auto */
  guint        lora_rank;
  QmLoraTargets lora_targets;      /* optional; default all */
  gboolean     fp8_weights;        /* optional; with fp8: weights kept in fp8 (1 B/param) */
  guint        shard_group;        /* optional; ZeRO/FSDP shard group (HSDP), 0 = all DP ranks */
  QmInferenceSpec inference;
  /* target: exactly one of these is set. */
  guint        target_gpus;
  double       deadline_days;
  /* optional: how sure the deadline is to be met, 0.5 to 0.9 of the
   * error model's band (qm-accuracy.h); 0 = absent, 0.5 */
  double       deadline_confidence;
} QmWorkload;

/* workload.virtual_stages absent from the plan. */
#define QM_VIRTUAL_STAGES_UNSET G_MAXUINT

/* The interleaving v a plan asks for, as the layout code takes it: the
 * plan's number; "auto" is 0, the search's choice; absent is the engines'
 * default when the plan fixes pp, 1F1B without interleaving (v = 1:
 * Megatron-LM interleaves only when --num-layers-per-virtual-pipeline-stage
 * is given; torchtitan's default pipeline schedule is "1F1B"), and the
 * search's choice when pp is "auto" too. */
static inline guint
qm_workload_virtual_stages (const QmWorkload *w)
{
  if (w->virtual_stages == QM_VIRTUAL_STAGES_UNSET)
    return w->pp > 0 ? 1 : 0;
  return w->virtual_stages;
}

typedef struct
{
  char        name[QM_NAME_LEN];
  char        notes[QM_NOTES_LEN];
  char        customer[QM_NAME_LEN];   /* optional */
  char        quote_ref[QM_ID_LEN];    /* optional */
  QmWorkload  workload;
  /* hardware.*: catalog ids, and the resolved specs. *_embedded says the
   * plan file carried the spec (hardware.gpu_spec ...), so writing the plan
   * embeds it again. */
  char        gpu_id[QM_ID_LEN];
  char        server_id[QM_ID_LEN];
  char        network_id[QM_ID_LEN];
  char        storage_id[QM_ID_LEN];
  gboolean    gpu_embedded;
  gboolean    server_embedded;
  gboolean    network_embedded;
  gboolean    storage_embedded;
  QmHardware  hardware;
  QmFacility  facility;
  QmPricing   pricing;
  /* pricing.offer (an extension of docs/plan-file.md): a catalog cloud offer
   * whose on-demand or reserved $/GPU-hour is used when
   * pricing.usd_per_gpu_hour is not given. "" = none. */
  char        offer_id[QM_ID_LEN];
  char        reliability_preset[QM_ID_LEN];
  double      restart_minutes;
  /* quote.*: the terms a quote is made on (issue #22); has_quote says the
   * file had the section, so a plan without one writes none. */
  gboolean     has_quote;
  QmQuoteTerms quote;
} QmPlan;

/* Defaults for every optional key of docs/plan-format.md. */
void qm_workload_init (QmWorkload *workload);
void qm_plan_init     (QmPlan     *plan);

const char *qm_mode_to_string        (QmMode mode);
gboolean    qm_mode_from_string      (const char *s, QmMode *out);
const char *qm_optimizer_to_string   (QmOptimizer o);
gboolean    qm_optimizer_from_string (const char *s, QmOptimizer *out);
const char *qm_recompute_to_string   (QmRecompute r);
gboolean    qm_recompute_from_string (const char *s, QmRecompute *out);
const char *qm_tp_overlap_to_string   (QmTpOverlap o);
gboolean    qm_tp_overlap_from_string (const char *s, QmTpOverlap *out);
const char *qm_lora_targets_to_string   (QmLoraTargets t);
gboolean    qm_lora_targets_from_string (const char *s, QmLoraTargets *out);
const char *qm_pricing_mode_to_string   (QmPricingMode m);
gboolean    qm_pricing_mode_from_string (const char *s, QmPricingMode *out);

G_END_DECLS
