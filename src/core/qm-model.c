/* qm-model.c: parameter counts and FLOPs per token of a transformer shape.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-model.h"

guint
qm_model_head_dim (const QmModelShape *shape)
{
  if (shape->head_dim > 0)
    return shape->head_dim;
  return shape->heads > 0 ? shape->hidden / shape->heads : 0;
}

guint
qm_model_kv_heads (const QmModelShape *shape)
{
  return shape->kv_heads > 0 ? shape->kv_heads : shape->heads;
}

gboolean
qm_model_is_moe (const QmModelShape *shape)
{
  return shape->experts > 1;
}

gboolean
qm_model_has_shape (const QmModelShape *shape)
{
  return shape->layers > 0 && shape->hidden > 0 && shape->heads > 0 && shape->vocab > 0;
}

/* One MLP of width f: SwiGLU has gate, up and down matrices (Shazeer 2020,
 * "GLU Variants Improve Transformer"); a GeLU MLP has up and down. */
static double
mlp_params (const QmModelShape *s,
            double              f)
{
  double h = s->hidden;
  double p = (s->gated_mlp ? 3.0 : 2.0) * h * f;

  if (s->linear_bias)
    p += (s->gated_mlp ? 2.0 : 1.0) * f + h;
  return p;
}

/* Attention block weights. Standard/GQA: Wq (h x H*Q), Wk and Wv
 * (h x kv*Q each), Wo (H*Q x h). MLA (DeepSeek-V2 §2.1, V3 config.json):
 * a low-rank query path h->q_lora->H*(Q+R), a shared latent h->(kv_lora+R)
 * expanded to H*(Q+Q) for keys and values, and Wo (H*Q x h); R is the
 * decoupled RoPE head dim, with an RMSNorm on each latent. */
static double
attention_params (const QmModelShape *s)
{
  double h = s->hidden;
  double H = s->heads;
  double Q = qm_model_head_dim (s);
  double kv = qm_model_kv_heads (s);
  double p;

  if (s->kv_lora_rank > 0)
    {
      double R = s->rope_head_dim;
      double qk = Q + R;

      if (s->q_lora_rank > 0)
        p = h * s->q_lora_rank + s->q_lora_rank + s->q_lora_rank * H * qk;
      else
        p = h * H * qk;
      p += h * (s->kv_lora_rank + R) + s->kv_lora_rank;
      p += s->kv_lora_rank * H * (Q + Q);
      p += H * Q * h;
      return p;
    }

  p = h * H * Q + 2.0 * h * kv * Q + H * Q * h;
  if (s->linear_bias)
    p += H * Q + 2.0 * kv * Q + h;
  else if (s->qkv_bias)
    p += H * Q + 2.0 * kv * Q;
  return p;
}

/* Two norms per block; LayerNorm has a bias (GPT-style models), RMSNorm
 * (Llama and later) has a scale only. */
static double
norm_params (const QmModelShape *s)
{
  return (s->linear_bias ? 2.0 : 1.0) * s->hidden;
}

void
qm_model_count_params (const QmModelShape *s,
                       QmParamCount       *out)
{
  double h = s->hidden;
  double attn, dense_layer, moe_layer = 0, moe_layer_active = 0;
  double n_moe = 0, n_dense = s->layers;
  double emb;

  memset (out, 0, sizeof *out);
  if (!qm_model_has_shape (s))
    {
      /* params_b alone: the published total is all we know. */
      out->total = out->active = s->params_hint;
      return;
    }

  attn = attention_params (s) + 2.0 * norm_params (s);
  dense_layer = attn + mlp_params (s, s->ffn_hidden);

  if (qm_model_is_moe (s))
    {
      double f = s->moe_ffn_hidden > 0 ? s->moe_ffn_hidden : s->ffn_hidden;
      double expert = mlp_params (s, f);
      double router = h * s->experts;   /* gating linear, h x E */
      guint k = MAX (s->experts_per_token, 1);

      n_dense = MIN (s->dense_layers, s->layers);
      n_moe = s->layers - n_dense;
      moe_layer = attn + router + (s->experts + s->shared_experts) * expert;
      moe_layer_active = attn + router + (k + s->shared_experts) * expert;
      out->expert = n_moe * s->experts * expert;
    }

  /* Token embedding, plus the output head unless tied (Press & Wolf 2017),
   * plus learned positions (GPT-3; Narayanan 2021 eq. 2's (V+s) term). */
  emb = (double) s->vocab * h * (s->tied_embeddings ? 1.0 : 2.0)
        + (double) s->learned_positions * h;

  out->embedding = emb;
  out->total = n_dense * dense_layer + n_moe * moe_layer + emb + norm_params (s);
  out->active = n_dense * dense_layer + n_moe * moe_layer_active + emb + norm_params (s);
  out->per_layer_max = MAX (MAX (dense_layer, n_moe > 0 ? moe_layer : 0), (double) s->vocab * h);
}

double
qm_model_params (const QmModelShape *shape)
{
  QmParamCount c;

  qm_model_count_params (shape, &c);
  return c.total;
}

double
qm_model_active_params (const QmModelShape *shape)
{
  QmParamCount c;

  qm_model_count_params (shape, &c);
  return c.active;
}

double
qm_model_compute_optimal_tokens (double params)
{
  return isfinite (params) && params > 0 ? params * QM_CHINCHILLA_TOKENS_PER_PARAM : 0.0;
}

/* Forward attention matmuls per token: QK^T is 2·T·H·Dqk and attention-over-V
 * is 2·T·H·Dv FLOPs per layer (PaLM App. B counts the full, non-causal T).
 * With Dqk = Dv = Q this is 4·L·H·Q·T, a third of PaLM's 12·L·H·Q·T. */
double
qm_model_attention_forward_flops_per_token (const QmModelShape *s,
                                            guint               seq_len)
{
  double Q, qk;

  if (!qm_model_has_shape (s))
    return 0;
  Q = qm_model_head_dim (s);
  qk = s->kv_lora_rank > 0 ? Q + s->rope_head_dim : Q;
  return 2.0 * s->layers * (double) seq_len * s->heads * (qk + Q);
}

/* PaLM (Chowdhery et al. 2022) App. B: training FLOPs per token
 * = 6N + 12·L·H·Q·T, with N the (active) parameters. */
double
qm_model_training_flops_per_token (const QmModelShape *s,
                                   guint               seq_len)
{
  return 6.0 * qm_model_active_params (s)
         + 3.0 * qm_model_attention_forward_flops_per_token (s, seq_len);
}

/* A Llama-style shape (Touvron et al. 2023, Table 2): head dim 128, hidden
 * about 128 x layers, SwiGLU with ffn = 8h/3 rounded up to 256, GQA with
 * 8 KV heads from 32 heads up (Llama 2/3), a 32,000-token vocabulary.
 * Then 12·L·h² (Kaplan 2020 §2.1, with the 8/3 SwiGLU width) ~ params,
 * and the layer count is fitted to the target. */
void
qm_model_shape_infer (double        params,
                      QmModelShape *out)
{
  const double vocab = 32000;
  double h, per_layer, body;
  QmModelShape s = { 0 };

  if (!(params > 0))
    params = 1e9;

  h = cbrt (params * 128.0 / 12.0);
  h = MAX (256.0, round (h / 128.0) * 128.0);
  /* Small models: keep the embeddings under half the total. */
  while (h > 256.0 && 2.0 * vocab * h > 0.5 * params)
    h -= 128.0;

  s.hidden = (guint) h;
  s.head_dim = 128;
  s.heads = MAX (1u, s.hidden / 128);
  s.kv_heads = (s.heads >= 32 && s.heads % 8 == 0) ? 8 : s.heads;
  s.ffn_hidden = (guint) (ceil (8.0 * h / 3.0 / 256.0) * 256.0);
  s.vocab = (guint) vocab;
  s.gated_mlp = TRUE;
  s.layers = 1;

  per_layer = qm_model_params (&s) - 2.0 * vocab * h - h;
  body = params - 2.0 * vocab * h;
  s.layers = (guint) CLAMP (round (body / per_layer), 1.0, 1000.0);
  s.params_hint = params;
  *out = s;
}
