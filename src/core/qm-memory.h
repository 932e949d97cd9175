/* qm-memory.h: bytes per GPU for training and serving.
 *
 * Accounting (stated, not hidden):
 *  - model states follow the ZeRO paper (Rajbhandari et al. 2020 §3.1,
 *    Fig. 1): 16-bit weights 2Ψ, 16-bit gradients 2Ψ, optimizer KΨ with
 *    K = 12 for mixed-precision Adam (fp32 master 4 + momentum 4 +
 *    variance 4), 16 B/param in all. An fp32 gradient accumulation buffer
 *    (+4 B/param: HF "model memory anatomy", DeepSpeed's estimator, Megatron's
 *    main_grad) is the explicit option fp32_grad_buffer;
 *  - activations follow Korthikanti et al. 2022 Table 2 and §4.2.3, with
 *    the per-block constants re-derived from the same tensor list for GQA and
 *    SwiGLU (they reduce to the paper's 34 and 5as/h for a GPT block);
 *  - KV cache follows jax-ml/scaling-book inference.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-model.h"

G_BEGIN_DECLS

/* CUDA context and kernels, measured: 1,343 MB (MiB, nvidia-smi) on a V100
 * (huggingface/transformers docs/source/en/model_memory_anatomy.md; "1-2 GB"). */
#define QM_MEMORY_CUDA_CONTEXT_BYTES (1343.0 * 1024 * 1024)
/* NCCL's own device memory per communicator (channel FIFOs, NCCL_BUFFSIZE
 * 4 MiB per channel and peer, plus its kernels' state), measured through
 * PyTorch process groups on 4 × A100 with NVLink: 544 MB for a group of
 * two ranks, 688 MB for more (NVIDIA/nccl issue #964, 2023-08; the
 * maintainer, #864/#986: linear in the channels, not growing past two
 * nodes for rings). Every parallel dimension of more than one rank is
 * one communicator (process group) on each GPU. */
#define QM_MEMORY_NCCL_COMMUNICATOR_BYTES (688.0 * 1024 * 1024)
#define QM_MEMORY_NCCL_PAIR_BYTES         (544.0 * 1024 * 1024)
/* Allocator reserve over allocated memory: 1-2% in steady state in nanotron
 * benchmark logs (44,034 vs 44,472 MiB); we take the top of that range. */
#define QM_MEMORY_FRAGMENTATION 0.02
/* DeepSpeed ZeRO reduce_bucket_size default, in elements
 * (DeepSpeedZeroOptimizer.__init__); capped at the gradients themselves. */
#define QM_MEMORY_REDUCE_BUCKET_ELEMENTS 5e8
/* Layers whose full parameters FSDP gathers ahead of the one running:
 * PyTorch FSDP's default backward_prefetch = BACKWARD_PRE and FSDP2's
 * implicit prefetch both issue the next layer's all-gather while the
 * current one computes, one layer ahead (pytorch.org/docs FSDP,
 * "backward_prefetch"; torch.distributed.fsdp.fully_shard docs). */
#define QM_MEMORY_FSDP_PREFETCH 1
/* QLoRA NF4 with double quantisation: 4 bits + 0.127 bits of constants per
 * parameter (Dettmers et al. 2023, QLoRA §3). */
#define QM_MEMORY_QLORA_BYTES_PER_PARAM ((4.0 + 0.127) / 8.0)

typedef struct
{
  QmMode       mode;
  QmPrecision  precision;         /* training: fp32, fp16, bf16 or fp8 */
  QmOptimizer  optimizer;
  guint        zero_stage;        /* 0..3; FSDP FULL_SHARD = 3, SHARD_GRAD_OP = 2 */
  guint        tp, pp, dp, cp, ep;
  gboolean     sequence_parallel; /* Megatron SP (needs tp > 1) */
  guint        micro_batch;
  guint        seq_len;
  guint        n_microbatches;    /* per pipeline per step; 0 = at least pp */
  guint        virtual_stages;    /* interleaved 1F1B model chunks per stage; 0 = 1 */
  QmRecompute  recompute;
  guint        recompute_layers;  /* with full recompute: layers per stage checkpointed; 0 = all */
  gboolean     flash_attention;
  guint        lora_rank;         /* LoRA/QLoRA adapters */
  QmLoraTargets lora_targets;     /* which linears carry them */
  gboolean     fp32_grad_buffer;  /* +4 B/param fp32 gradient buffer */
  gboolean     fp8_weights;       /* with fp8: weights stored in 1 byte */
  guint        shard_group;       /* ZeRO/FSDP shards over this many ranks (HSDP); 0 = all dp·cp */
  /* Serving (mode == QM_MODE_INFERENCE). */
  QmPrecision  weight_precision;
  QmPrecision  kv_precision;
  guint        batch;             /* sequences in flight per replica */
  guint        context;           /* tokens per sequence (input + output) */
  double       capacity_bytes;    /* one GPU's memory */
} QmMemoryConfig;

typedef struct
{
  double   weights;
  double   gradients;
  double   optimizer;
  double   activations;
  double   kv_cache;
  double   overhead;     /* CUDA context, comm buckets, ZeRO-3 gather, fragmentation */
  double   total;
  double   capacity;
  double   margin;       /* capacity - total; negative when it does not fit */
  gboolean fits;
} QmMemoryBreakdown;

/* How a pipeline of pp stages with v model chunks each splits L layers.
 * Every chunk of a full stage holds ceil(L/(pp·v)) layers; the layers that
 * are missing come off the first and the last stage (which also hold the
 * embedding and the output head), as Llama 3 did with 126 layers on 16
 * stages (Dubey et al. 2024, arXiv 2407.21783, §3.3.2: "we reduce one
 * Transformer layer each from the first and the last stages").
 * FALSE when that leaves the first or last stage without a layer. */
typedef struct
{
  guint chunk;   /* layers per model chunk on a full stage */
  guint full;    /* layers on a full (middle) stage: v · chunk */
  guint first;   /* layers on the first stage */
  guint last;    /* layers on the last stage */
} QmPipelineStages;

gboolean qm_memory_pipeline_stages       (guint             layers,
                                          guint             pp,
                                          guint             virtual_stages,
                                          QmPipelineStages *out);

/* Layer activations the busiest stage keeps, in units of one layer's
 * stored activations for one micro-batch, under 1F1B (v = 1: stage i holds
 * min(p − i, m) micro-batches) or interleaved 1F1B (Megatron's warm-up of
 * 2(p − i − 1) + (v − 1)p + 1 chunks on stage i; on stage 0 that is
 * L·(1 + (p − 1)/(p·v)), Korthikanti 2022 §4.2.3). */
double   qm_memory_pipeline_layers_held  (const QmPipelineStages *stages,
                                          guint                   pp,
                                          guint                   virtual_stages,
                                          guint                   n_micro);

void     qm_memory_estimate              (const QmModelShape     *shape,
                                          const QmMemoryConfig   *config,
                                          QmMemoryBreakdown      *out);

/* Korthikanti et al. 2022 Table 2, exactly: activation bytes of one GPT
 * transformer layer (16-bit activations, 1-byte dropout masks). */
double   qm_memory_korthikanti_layer     (double      s,
                                          double      b,
                                          double      h,
                                          double      a,
                                          double      t,
                                          gboolean    sequence_parallel,
                                          QmRecompute recompute);

/* The same for any shape (GQA, SwiGLU, MoE, FlashAttention); equal to the
 * table for a GPT block. */
double   qm_memory_layer_activations     (const QmModelShape *shape,
                                          double              s,
                                          double              b,
                                          double              t,
                                          gboolean            sequence_parallel,
                                          QmRecompute         recompute,
                                          gboolean            flash_attention);

/* PyTorch per-operator selective checkpointing (torchtitan "op"): one
 * layer's kept activations. */
double   qm_memory_layer_activations_op  (const QmModelShape *shape,
                                          double              s,
                                          double              b,
                                          double              t,
                                          gboolean            sequence_parallel);

/* ZeRO paper Fig. 1: model-state bytes per GPU for Ψ params, optimizer
 * multiplier K, stage 0..3, data-parallel degree Nd. */
double   qm_memory_zero_model_states     (double psi,
                                          double k,
                                          guint  stage,
                                          double nd);

/* DeepSpeed's own estimators, verbatim (bytes, GPU side):
 * stage_1_and_2.py estimate_zero2_model_states_mem_needs and
 * stage3.py estimate_zero3_model_states_mem_needs. */
double   qm_memory_deepspeed_zero2       (double   total_params,
                                          guint    total_gpus,
                                          gboolean cpu_offload);
double   qm_memory_deepspeed_zero3       (double   total_params,
                                          double   largest_layer_params,
                                          guint    total_gpus,
                                          gboolean offload_optimizer,
                                          gboolean offload_params);

/* KV cache of one sequence of `tokens` (jax-ml/scaling-book inference.md):
 * 2 · bytes · kv_heads · head_dim · layers · tokens; MLA caches the latent
 * (kv_lora_rank + rope_head_dim) per layer instead (DeepSeek-V2 §2.1.2). */
double   qm_memory_kv_cache_per_sequence (const QmModelShape *shape,
                                          double              tokens,
                                          double              bytes_per_value);

/* Trainable adapter parameters of LoRA rank r on every linear layer
 * (QLoRA §4 applies adapters to all linear layers), or on the targets. */
double   qm_memory_lora_params           (const QmModelShape *shape,
                                          guint               rank);
double   qm_memory_lora_params_for       (const QmModelShape *shape,
                                          guint               rank,
                                          QmLoraTargets       targets);

/* One frozen layer's activations under LoRA: what the adapters'
 * gradients and the backward through the frozen layers still need. */
double   qm_memory_lora_layer_activations (const QmModelShape *shape,
                                           double              s,
                                           double              b,
                                           double              t,
                                           gboolean            sequence_parallel,
                                           QmRecompute         recompute,
                                           gboolean            flash_attention,
                                           QmLoraTargets       targets);

/* Megatron's --recompute-method block --recompute-num-layers N: the
 * fraction of a model chunk's layers that keep only their input. */
double   qm_memory_recompute_fraction    (guint recompute_layers,
                                          guint stage_layers);

/* ZeRO-3 / FSDP: bytes of parameters and gradients gathered unsharded at
 * the peak (the running and prefetched layers, the root unit). */
double   qm_memory_zero3_gathered        (const QmModelShape *shape,
                                          const QmParamCount *pc,
                                          double              tp,
                                          double              pp,
                                          double              ep,
                                          double              w_bytes,
                                          double              g_bytes);

G_END_DECLS
