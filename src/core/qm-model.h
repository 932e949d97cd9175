/* qm-model.h: transformer model shapes, parameter counts and presets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-types.h"

G_BEGIN_DECLS

/* A decoder-only transformer. Zero in an optional field means "not used".
 * Field names follow docs/plan-file.md (workload.model). */
struct _QmModelShape
{
  guint    layers;
  guint    hidden;
  guint    heads;
  guint    kv_heads;          /* GQA/MQA; == heads for plain multi-head attention */
  guint    head_dim;          /* 0 = hidden / heads */
  guint    ffn_hidden;        /* dense MLP width */
  guint    vocab;
  gboolean gated_mlp;         /* SwiGLU (3 matrices) vs GeLU (2 matrices) */
  gboolean tied_embeddings;
  /* Mixture of experts. experts <= 1 means dense. */
  guint    experts;
  guint    experts_per_token;
  guint    shared_experts;
  guint    moe_ffn_hidden;    /* width of one expert's MLP */
  guint    dense_layers;      /* leading layers with a dense MLP in an MoE model */
  /* Multi-head latent attention (DeepSeek-V2/V3); 0 = not MLA. */
  guint    q_lora_rank;
  guint    kv_lora_rank;
  guint    rope_head_dim;
  /* A published total, when the plan gives params_b alone (in parameters). */
  double   params_hint;
  /* Small terms that some published counts include (GPT-2/3, Pythia, BLOOM,
   * Qwen2). They change a count by well under 1%, but let the exact
   * published totals be reproduced. */
  guint    learned_positions; /* learned position embeddings (GPT-3: 2048); 0 = RoPE/ALiBi */
  gboolean linear_bias;       /* biases on every linear layer, LayerNorm with bias */
  gboolean qkv_bias;          /* biases on the Q/K/V projections only (Qwen2) */
};

/* Parameter counts of a shape, in parameters. */
typedef struct
{
  double total;         /* every stored parameter (tied embeddings once) */
  double active;        /* used per token: MoE counts top-k + shared experts */
  double embedding;     /* token embedding + untied output head + positions */
  double expert;        /* routed-expert weights (all experts), 0 when dense */
  double per_layer_max; /* the largest single layer (ZeRO-3 gather buffer) */
} QmParamCount;

guint    qm_model_head_dim          (const QmModelShape *shape);
guint    qm_model_kv_heads          (const QmModelShape *shape);
gboolean qm_model_is_moe            (const QmModelShape *shape);
gboolean qm_model_has_shape         (const QmModelShape *shape);

void     qm_model_count_params      (const QmModelShape *shape,
                                     QmParamCount       *out);
double   qm_model_params            (const QmModelShape *shape);
double   qm_model_active_params     (const QmModelShape *shape);

/* Compute-optimal training uses about 20 tokens per parameter (Hoffmann et
 * al. 2022, "Training Compute-Optimal Large Language Models", Table 3:
 * 70B parameters → 1.4T tokens). A property of the scaling law, not of a
 * plan: the wizard suggests it, the estimate never assumes it. */
#define QM_CHINCHILLA_TOKENS_PER_PARAM 20.0

/* The compute-optimal training tokens for @params (total) parameters. */
double   qm_model_compute_optimal_tokens (double params);

/* Per-token FLOPs of the attention score and attention-over-V matmuls in one
 * forward pass, over all layers, for a context of seq_len tokens. */
double   qm_model_attention_forward_flops_per_token (const QmModelShape *shape,
                                                     guint               seq_len);
/* Training model FLOPs per token: 6N + 12LHQT (PaLM App. B), N = active. */
double   qm_model_training_flops_per_token (const QmModelShape *shape,
                                            guint               seq_len);

/* A typical Llama-style dense shape with about `params` parameters (used when
 * a plan gives params_b alone; the estimate lists this as an assumption). */
void     qm_model_shape_infer       (double        params,
                                     QmModelShape *out);

G_END_DECLS
