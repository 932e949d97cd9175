/* qm-engine.h: serving engines (TensorRT-LLM, vLLM, SGLang) as catalog data.
 *
 * An engine is software: its per-step overhead (scheduler, sampling,
 * launch gaps), its scheduler defaults (sequences and tokens per step,
 * which differ by GPU memory and by offline vs server use), its KV-cache
 * block size and memory fraction, and how it admits requests. The GPU's
 * own constants (HBM, GEMM, all-reduce) stay in gpus.json. Entries ship
 * in data/catalog/engines.json, compiled into the core like the other
 * catalog files; each has its source and date.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"

G_BEGIN_DECLS

/* What the KV fraction is a fraction of. */
typedef enum
{
  QM_ENGINE_KV_OF_FREE,    /* memory left after weights and activations
                            * (TensorRT-LLM free_gpu_memory_fraction) */
  QM_ENGINE_KV_OF_TOTAL,   /* the whole device: weights, activations and KV
                            * together (vLLM gpu_memory_utilization, SGLang
                            * mem_fraction_static) */
} QmEngineKvBase;

/* How the scheduler admits a waiting request. */
typedef enum
{
  QM_ENGINE_ADMIT_RESERVE, /* blocks for the whole prompt and answer
                            * (TensorRT-LLM GUARANTEED_NO_EVICT) */
  QM_ENGINE_ADMIT_BLOCKS,  /* blocks for the tokens scheduled now; preempt
                            * the newest request when decode runs out (vLLM
                            * V1, SGLang retract) */
} QmEngineAdmission;

#define QM_ENGINE_MAX_LIMITS 4

/* Scheduler defaults for GPUs with at least min_memory_gib of device
 * memory (and not of except_family); 0 sequences = no cap but KV. */
typedef struct
{
  double      min_memory_gib;
  const char *except_family;
  guint       max_sequences_offline;
  guint       max_batch_tokens_offline;
  guint       max_sequences_server;
  guint       max_batch_tokens_server;
} QmEngineLimits;

typedef struct
{
  QmCatalogInfo     info;            /* id "vllm"; name; source; as_of */
  const char       *version;
  double            step_overhead_us;
  /* Host time per sequence in a step (input preparation, scheduling and
   * sampling bookkeeping in the engine's own loop), microseconds. */
  double            seq_overhead_us;
  gboolean          cuda_graphs;
  guint             block_tokens;
  double            kv_fraction;
  QmEngineKvBase    kv_base;
  QmEngineAdmission admission;
  QmEngineLimits    limits[QM_ENGINE_MAX_LIMITS];
  guint             n_limits;
} QmEngineSpec;

/* The built-in engines, in catalog order; NULL when @id is unknown. */
const QmEngineSpec *qm_engine_lookup   (const char      *id);
const QmEngineSpec *qm_engines         (guint           *n);
/* The engine of @id, or for NULL, "" or "auto" the usual one for the
 * GPU's vendor: TensorRT-LLM on NVIDIA, vLLM on every other vendor. */
const QmEngineSpec *qm_engine_resolve  (const char      *id,
                                        const QmGpuSpec *gpu);
/* The engine's default sequences and tokens per step on @gpu, offline
 * (max-throughput runs) or as a server. */
void                qm_engine_limits   (const QmEngineSpec *engine,
                                        const QmGpuSpec    *gpu,
                                        gboolean            offline,
                                        guint              *max_sequences,
                                        guint              *max_batch_tokens);
/* Parses an engines.json array (for tests); NULL with @error set. */
GArray             *qm_engine_parse    (const char      *json,
                                        gssize           len,
                                        GError         **error);

G_END_DECLS
