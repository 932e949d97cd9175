/* qm-model.h: transformer model shapes, parameter counts and presets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-types.h"

G_BEGIN_DECLS

/* A decoder-only transformer. Zero in an optional field means "not used".
 * Field names follow plan-format.md (workload.model). */
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
};

G_END_DECLS
