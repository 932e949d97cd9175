/* qm-memory.c: bytes per GPU for training and serving.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-memory.h"

/* The FFN width one token passes through: f, or for MoE its top-k routed
 * and shared experts. */
static double
mlp_width (const QmModelShape *shape)
{
  if (qm_model_is_moe (shape))
    {
      double fe = shape->moe_ffn_hidden > 0 ? shape->moe_ffn_hidden : shape->ffn_hidden;

      return fe * (MAX (shape->experts_per_token, 1u) + shape->shared_experts);
    }
  return shape->ffn_hidden;
}

/* Korthikanti et al. 2022 Table 2 (bytes per layer):
 *   no parallelism        sbh(34 + 5as/h)
 *   TP                    sbh(10 + 24/t + 5as/(ht))
 *   TP + SP               sbh(34/t + 5as/(ht))
 *   TP + selective        sbh(10 + 24/t)
 *   TP + SP + selective   sbh(34/t)
 *   full recompute        2sbh */
double
qm_memory_korthikanti_layer (double      s,
                             double      b,
                             double      h,
                             double      a,
                             double      t,
                             gboolean    sequence_parallel,
                             QmRecompute recompute)
{
  double sbh = s * b * h;
  double attn = 5.0 * a * s / (h * t);

  switch (recompute)
    {
    case QM_RECOMPUTE_FULL:
      return 2.0 * sbh;
    case QM_RECOMPUTE_SELECTIVE:
      return sequence_parallel ? sbh * 34.0 / t : sbh * (10.0 + 24.0 / t);
    case QM_RECOMPUTE_NONE:
    default:
      return sequence_parallel ? sbh * (34.0 / t + attn) : sbh * (10.0 + 24.0 / t + attn);
    }
}

/* Korthikanti §4.1 lists the stored tensors of a GPT block (16-bit, masks 1
 * byte):
 *   attention: input 2sbh, Q and K 4sbh, V 2sbh, softmax 2as²b, its
 *     dropout mask as²b and output 2as²b, output-projection input 2sbh,
 *     dropout mask sbh  ->  11sbh + 5as²b;
 *   MLP: input 2sbh, 4h-wide GeLU input 8sbh and output 8sbh, mask sbh
 *     -> 19sbh;  two LayerNorm inputs 4sbh.
 * Of these, TP cannot split 10sbh (LayerNorms 4, masks 2, block inputs 4);
 * SP splits those too. With GQA the K and V tensors are kv·Q wide; a SwiGLU
 * MLP stores the fused gate|up projection output (2 × 2sbf) and the product
 * that feeds the down projection (2sbf): 6sbf instead of GeLU's 4sbf. The
 * SiLU output is not kept: Megatron-Core's fused SwiGLU (fusions/
 * fused_bias_swiglu.py, SwiGLUFunction) saves only its input and recomputes
 * the SiLU in the backward, as Transformer Engine's LayerNormMLP does.
 * For MHA and f = 4h this is exactly 34sbh + 5as²b. */
double
qm_memory_layer_activations (const QmModelShape *shape,
                             double              s,
                             double              b,
                             double              t,
                             gboolean            sequence_parallel,
                             QmRecompute         recompute,
                             gboolean            flash_attention)
{
  double h = shape->hidden;
  double a = shape->heads;
  double kvd = (double) qm_model_kv_heads (shape) * qm_model_head_dim (shape);
  double qd = a * qm_model_head_dim (shape);
  double f = shape->ffn_hidden;
  double unsplit, split, scores;

  if (t < 1)
    t = 1;
  if (recompute == QM_RECOMPUTE_FULL)
    /* Table 2: only each layer's input, 2sbh; with sequence parallelism
     * that input is the sequence shard, 2sbh/t (Korthikanti §4.2.2: the
     * layer input is kept in the SP region, the gather is redone). */
    return 2.0 * s * b * h / (sequence_parallel ? t : 1.0);

  if (qm_model_is_moe (shape))
    {
      double fe = shape->moe_ffn_hidden > 0 ? shape->moe_ffn_hidden : shape->ffn_hidden;

      /* Every token goes through its top-k routed experts and the shared ones. */
      f = fe * (MAX (shape->experts_per_token, 1u) + shape->shared_experts);
    }

  unsplit = 10.0 * s * b * h;
  /* Q (qd wide), K and V (kvd wide) and the output-projection input (qd),
   * 2 bytes each; MLP 2 (plain) or 4 (gated) f-wide 16-bit tensors. With
   * MHA, qd = kvd = h: 8h, plus 16h for f = 4h: the paper's 24. */
  split = s * b * (2.0 * qd + 2.0 * kvd + 2.0 * kvd + 2.0 * qd
                   + (shape->gated_mlp ? 6.0 : 4.0) * f);
  if (shape->kv_lora_rank > 0 && recompute == QM_RECOMPUTE_SELECTIVE)
    {
      /* MLA with selective recompute (DeepSeek-V3, arXiv 2412.19437,
       * §3.2.3): the RMSNorm outputs and the up-projections are
       * recomputed in the backward, so a layer keeps the compressed
       * latents (q_lora, kv_lora + rope) instead of per-head Q, K, V, and
       * the norm inputs but not their outputs (the QKV and MLP inputs). */
      double latents = (double) shape->q_lora_rank + shape->kv_lora_rank + shape->rope_head_dim;

      unsplit -= 4.0 * s * b * h;
      split = s * b * (2.0 * latents * t + 2.0 * qd + (shape->gated_mlp ? 6.0 : 4.0) * f);
    }
  if (qm_model_is_moe (shape))
    /* The routed copies of each token (top-k, permuted for the experts)
     * are kept as the inputs of the experts' first GEMMs, 16-bit (GShard
     * dispatch; Megatron-Core's token permutation saves them). */
    unsplit += 2.0 * MAX (shape->experts_per_token, 1u) * s * b * h;
  scores = 5.0 * a * s * s * b;

  if (flash_attention)
    /* FlashAttention (Dao et al. 2022 §3.1) never stores the s×s matrix; it
     * keeps the fp32 softmax log-sum-exp per row and head. */
    scores = 4.0 * a * s * b;
  else if (recompute == QM_RECOMPUTE_SELECTIVE)
    scores = 0;

  return (sequence_parallel ? unsplit / t : unsplit) + split / t + scores / t;
}

/* Rajbhandari et al. 2020 Fig. 1: (2 + 2 + K)Ψ, with stage 1 sharding the
 * optimizer states, stage 2 also the gradients, stage 3 also the weights. */
double
qm_memory_zero_model_states (double psi,
                             double k,
                             guint  stage,
                             double nd)
{
  double w = 2.0 * psi, g = 2.0 * psi, o = k * psi;

  if (nd < 1)
    nd = 1;
  if (stage >= 1)
    o /= nd;
  if (stage >= 2)
    g /= nd;
  if (stage >= 3)
    w /= nd;
  return w + g + o;
}

/* deepspeed/runtime/zero/stage_1_and_2.py, estimate_zero2_model_states_mem_needs:
 *   cpu_offload: gpu = 2P;  else gpu = 2P + 18P/total_gpus
 *   ("2 = params_16bit; 18 = 2 grads16 + 4 grads32 + 4 params32 + 8 optim"). */
double
qm_memory_deepspeed_zero2 (double   total_params,
                           guint    total_gpus,
                           gboolean cpu_offload)
{
  if (cpu_offload)
    return 2.0 * total_params;
  return 2.0 * total_params + 18.0 * total_params / MAX (total_gpus, 1u);
}

/* deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs:
 *   largest_layer_memory = 4·LL
 *   offload params + optimizer: gpu = 4·LL
 *   offload optimizer only:     gpu = 4·LL + 2P/total_gpus
 *   no offload:                 gpu = 4·LL + 18P/total_gpus */
double
qm_memory_deepspeed_zero3 (double   total_params,
                           double   largest_layer_params,
                           guint    total_gpus,
                           gboolean offload_optimizer,
                           gboolean offload_params)
{
  double ll = 4.0 * largest_layer_params;
  double n = MAX (total_gpus, 1u);

  if (offload_params && offload_optimizer)
    return ll;
  if (offload_optimizer)
    return ll + 2.0 * total_params / n;
  return ll + 18.0 * total_params / n;
}

double
qm_memory_kv_cache_per_sequence (const QmModelShape *shape,
                                 double              tokens,
                                 double              bytes_per_value)
{
  if (shape->kv_lora_rank > 0)
    return (double) (shape->kv_lora_rank + shape->rope_head_dim)
           * bytes_per_value * shape->layers * tokens;
  return 2.0 * bytes_per_value * qm_model_kv_heads (shape)
         * qm_model_head_dim (shape) * shape->layers * tokens;
}

/* LoRA (Hu et al. 2021 §4.1): W + B·A with A r×in and B out×r, so r·(in+out)
 * trainable parameters per adapted matrix. */
double
qm_memory_lora_params (const QmModelShape *s,
                       guint               rank)
{
  double h = s->hidden;
  double qd = (double) s->heads * qm_model_head_dim (s);
  double kvd = (double) qm_model_kv_heads (s) * qm_model_head_dim (s);
  double r = rank;
  double attn = r * ((h + qd) + 2.0 * (h + kvd) + (qd + h));
  double n_mats = s->gated_mlp ? 3.0 : 2.0;
  double dense_mlp = n_mats * r * (h + s->ffn_hidden);
  double n_dense = s->layers, n_moe = 0, moe_mlp = 0;

  if (qm_model_is_moe (s))
    {
      double fe = s->moe_ffn_hidden > 0 ? s->moe_ffn_hidden : s->ffn_hidden;

      n_dense = MIN (s->dense_layers, s->layers);
      n_moe = s->layers - n_dense;
      moe_mlp = (s->experts + s->shared_experts) * n_mats * r * (h + fe);
    }
  return n_dense * (attn + dense_mlp) + n_moe * (attn + moe_mlp);
}

/* Optimizer bytes per trainable parameter, without the fp32 master copy.
 *   AdamW: fp32 momentum + variance, 8 (Loshchilov & Hutter 2019; ZeRO K=12
 *     includes the 4-byte master).
 *   8-bit AdamW: 1 + 1 byte, block-wise quantised (Dettmers et al. 2022,
 *     "8-bit Optimizers via Block-wise Quantization" §2); the per-block
 *     constants (one fp32 per 2048 values) are ignored.
 *   SGD with momentum: one fp32 buffer, 4.
 *   Adafactor without momentum (the paper's default, β1 = 0): factored
 *     second moments, rows + columns per matrix (Shazeer & Stern 2018 §3),
 *     under 0.1% of a parameter each for LLM widths: counted as 0. */
static double
optimizer_state_bytes (QmOptimizer o)
{
  switch (o)
    {
    case QM_OPTIMIZER_ADAMW_8BIT:
      return 2.0;
    case QM_OPTIMIZER_SGD:
      return 4.0;
    case QM_OPTIMIZER_ADAFACTOR:
      return 0.0;
    case QM_OPTIMIZER_ADAMW:
    default:
      return 8.0;
    }
}

gboolean
qm_memory_pipeline_stages (guint             layers,
                           guint             pp,
                           guint             v,
                           QmPipelineStages *out)
{
  guint deficit;

  memset (out, 0, sizeof *out);
  layers = MAX (layers, 1u);
  pp = MAX (pp, 1u);
  v = MAX (v, 1u);
  if (pp == 1)
    {
      out->chunk = out->full = out->first = out->last = layers;
      return v == 1;
    }
  out->chunk = (layers + pp * v - 1) / (pp * v);
  out->full = v * out->chunk;
  deficit = pp * out->full - layers;
  /* The last stage gives up the larger half: it also runs the output
   * head, the costliest non-layer work. */
  if (deficit > 2 * (out->full - 1))
    return FALSE;
  out->last = out->full - (deficit + 1) / 2;
  out->first = out->full - deficit / 2;
  return TRUE;
}

double
qm_memory_pipeline_layers_held (const QmPipelineStages *st,
                                guint                   pp,
                                guint                   v,
                                guint                   n_micro)
{
  double held = 0;
  double m = n_micro > 0 ? n_micro : MAX (pp, 1u);

  pp = MAX (pp, 1u);
  v = MAX (v, 1u);
  for (guint i = 0; i < pp; i++)
    {
      double layers = i == 0 ? st->first : i == pp - 1 ? st->last : st->full;
      double h;

      if (v == 1)
        h = MIN ((double) (pp - i), m) * layers;
      else
        h = MIN (2.0 * (pp - i - 1) + (v - 1.0) * pp + 1.0, v * m) * layers / v;
      held = MAX (held, h);
    }
  return held;
}

/* Parameters (before ZeRO) on the pipeline stage that holds the most:
 * each stage its layers, the first the token embedding (and positions),
 * the last the output head; with tied embeddings and pp > 1 both keep a
 * copy (Megatron-LM keeps the shared word embedding on both ends,
 * Shoeybi 2019 / Narayanan 2021 §4). */
static double
stage_dense_params (const QmModelShape     *shape,
                    const QmParamCount     *pc,
                    const QmPipelineStages *st,
                    double                  pp)
{
  double dense = pc->total - pc->expert;
  double body = MAX (dense - pc->embedding, 0.0);
  double per_layer = body / MAX (shape->layers, 1u);
  double e_in, e_out;

  if (pp <= 1 || !qm_model_has_shape (shape))
    return dense / pp;
  e_in = shape->tied_embeddings ? pc->embedding : 0.5 * pc->embedding;
  e_out = e_in;
  return MAX (MAX (st->first * per_layer + e_in, st->full * per_layer),
              st->last * per_layer + e_out);
}

/* Activations on the busiest pipeline stage. With 1F1B stage 0 holds pp
 * micro-batches in flight of L/pp layers each: L layers' worth whatever
 * pp is; interleaving keeps (1 + (p − 1)/(p·v)) times that (Korthikanti
 * §4.2.3); with uneven stages a middle stage may hold more
 * (qm_memory_pipeline_layers_held). Context parallelism splits the
 * sequence. */
static double
stage_activations (const QmModelShape     *shape,
                   const QmMemoryConfig   *c,
                   const QmPipelineStages *stages,
                   double                  tp,
                   double                  pp,
                   double                  cp)
{
  double s = (double) MAX (c->seq_len, 1u) / cp;
  double b = MAX (c->micro_batch, 1u);
  double layers_held = qm_memory_pipeline_layers_held (stages, (guint) pp,
                                                       MAX (c->virtual_stages, 1u),
                                                       c->n_microbatches);
  gboolean sp = c->sequence_parallel && tp > 1;
  gboolean mla_selective = shape->kv_lora_rank > 0 && c->recompute == QM_RECOMPUTE_SELECTIVE;
  double per_layer = qm_memory_layer_activations (shape, s, b, tp, sp, c->recompute,
                                                  c->flash_attention);
  double h = shape->hidden, V = shape->vocab;
  double activations;

  if (!qm_model_has_shape (shape))
    {
      /* params alone: model states only */
      per_layer = 0;
      h = 0;
      V = 0;
    }
  if (c->precision == QM_PRECISION_FP8 && c->recompute != QM_RECOMPUTE_FULL && per_layer > 0)
    /* Transformer Engine keeps the FP8 casts of the GEMM inputs for the
     * weight gradients (1 byte, not 2): the QKV and FC1 inputs (h wide,
     * split by SP) and the FC2 input (f wide, split by TP). The
     * attention output stays 16-bit, FlashAttention keeps it. */
    per_layer -= s * b * ((mla_selective ? 0.0 : 2.0 * h / (sp ? tp : 1.0))
                          + mlp_width (shape) / tp
                          + (qm_model_is_moe (shape)
                             ? MAX (shape->experts_per_token, 1u) * h / (sp ? tp : 1.0) : 0.0));
  activations = per_layer * layers_held;
  if (c->recompute == QM_RECOMPUTE_FULL)
    /* The layer being recomputed holds its full activations meanwhile. */
    activations += qm_memory_layer_activations (shape, s, b, tp, sp, QM_RECOMPUTE_NONE,
                                                c->flash_attention);
  /* Outside the layers (Korthikanti §4.2.3): (sbhL/t)·(p/L + δ_{p=1}·
   * (4/L)·(1 + v/h)): embedding dropout, final LayerNorm, output layer
   * input and the fp32 logits 4sbv/t. */
  if (h > 0)
    activations += s * b * h / tp * (pp + (pp == 1 ? 4.0 * (1.0 + V / h) : 0.0));
  return activations;
}

void
qm_memory_estimate (const QmModelShape   *shape,
                    const QmMemoryConfig *c,
                    QmMemoryBreakdown    *out)
{
  QmParamCount pc;
  double tp = MAX (c->tp, 1u), pp = MAX (c->pp, 1u), dp = MAX (c->dp, 1u);
  double cp = MAX (c->cp, 1u), ep = MAX (c->ep, 1u);
  /* Context-parallel ranks hold the same weights as data-parallel ones:
   * gradients are reduced, and ZeRO / the distributed optimizer shards,
   * over dp·cp ranks (Megatron-Core's data-parallel group "with CP"). */
  double dpc = dp * cp;
  double ep_dp = MAX (1.0, dpc / ep);   /* expert-data-parallel degree */
  double psi_dense, psi_expert, psi;
  double w_bytes, g_bytes, o_bytes, master;
  double rest;
  QmPipelineStages stages;

  memset (out, 0, sizeof *out);
  qm_model_count_params (shape, &pc);
  out->capacity = c->capacity_bytes;

  /* Parameters on one GPU before ZeRO: TP and PP split every layer; experts
   * split further over EP (ZeRO §5: Ψ becomes Ψ/(t·p) under MP). */
  if (!qm_memory_pipeline_stages (shape->layers, (guint) pp, MAX (c->virtual_stages, 1u), &stages))
    qm_memory_pipeline_stages (shape->layers, (guint) pp, 1, &stages);
  psi_dense = stage_dense_params (shape, &pc, &stages, pp) / tp;
  psi_expert = pc.expert / (tp * pp * ep);
  psi = psi_dense + psi_expert;

  if (c->mode == QM_MODE_INFERENCE)
    {
      double kv_split = MIN (tp, (double) MAX (qm_model_kv_heads (shape), 1u));

      out->weights = psi * qm_precision_bytes (c->weight_precision);
      if (shape->kv_lora_rank > 0)
        kv_split = 1;   /* MLA's latent is shared by all heads */
      out->kv_cache = qm_memory_kv_cache_per_sequence (shape, MAX (c->context, 1u),
                                                       qm_precision_bytes (c->kv_precision))
                      * MAX (c->batch, 1u) / (kv_split * pp);
      /* Serving activations are negligible next to weights and KV
       * (jax-ml/scaling-book inference.md: 80 MB for an 8K prefill at h = 5120). */
      out->activations = 0;
      rest = out->weights + out->kv_cache;
      out->overhead = QM_MEMORY_CUDA_CONTEXT_BYTES + QM_MEMORY_FRAGMENTATION * rest;
      goto done;
    }

  /* Mixed precision keeps 16-bit weights and gradients and an fp32 master
   * copy in the optimizer (Micikevicius et al. 2018; ZeRO §3.1). FP8 GEMMs
   * (Transformer Engine) keep bf16 weights: Accelerate's estimate.py notes
   * "there is no memory savings with FP8", and DeepSeek-V3 §3.3.3 keeps fp32
   * masters and gradients, so fp8 is accounted like bf16. Pure fp32 training
   * has no master copy. */
  if (c->precision == QM_PRECISION_FP32 || c->precision == QM_PRECISION_TF32)
    {
      w_bytes = 4.0;
      g_bytes = 4.0;
      master = 0.0;
    }
  else
    {
      /* With an fp32 gradient buffer (Megatron's main_grad) the backward
       * accumulates straight into it (gradient-accumulation fusion), so
       * no 16-bit gradient is kept beside it: 4 bytes, not 2 + 4. */
      w_bytes = 2.0;
      g_bytes = c->fp32_grad_buffer ? 4.0 : 2.0;
      master = 4.0;
    }
  o_bytes = master + optimizer_state_bytes (c->optimizer);

  if (c->mode == QM_MODE_LORA || c->mode == QM_MODE_QLORA)
    {
      /* Frozen base (16-bit, or NF4 for QLoRA) holds no gradients or
       * optimizer states; only the adapters train (Hu et al. 2021;
       * Dettmers et al. 2023). ZeRO-3 also shards the frozen base. */
      double base_b = c->mode == QM_MODE_QLORA ? QM_MEMORY_QLORA_BYTES_PER_PARAM : 2.0;
      double adapters = qm_memory_lora_params (shape, MAX (c->lora_rank, 1u)) / (tp * pp);
      double zdp = c->zero_stage >= 1 ? dpc : 1;

      out->weights = psi * base_b / (c->zero_stage >= 3 ? dpc : 1)
                     + adapters * w_bytes / (c->zero_stage >= 3 ? dpc : 1);
      out->gradients = adapters * g_bytes / (c->zero_stage >= 2 ? dpc : 1);
      out->optimizer = adapters * o_bytes / zdp;
    }
  else
    {
      /* ZeRO shards over data-parallel ranks only: dense states over
       * dp·cp, expert states over the expert-data-parallel group. */
      double wd = c->zero_stage >= 3 ? dpc : 1, we = c->zero_stage >= 3 ? ep_dp : 1;
      double gd = c->zero_stage >= 2 ? dpc : 1, ge = c->zero_stage >= 2 ? ep_dp : 1;
      double od = c->zero_stage >= 1 ? dpc : 1, oe = c->zero_stage >= 1 ? ep_dp : 1;

      out->weights = w_bytes * (psi_dense / wd + psi_expert / we);
      out->gradients = g_bytes * (psi_dense / gd + psi_expert / ge);
      out->optimizer = o_bytes * (psi_dense / od + psi_expert / oe);
    }

  out->activations = stage_activations (shape, c, &stages, tp, pp, cp);

  /* Overheads that real frameworks add (estimation-anchors §2.7). */
  rest = out->weights + out->gradients + out->optimizer + out->activations;
  out->overhead = QM_MEMORY_CUDA_CONTEXT_BYTES;
  if (dp > 1)
    out->overhead += MIN (QM_MEMORY_REDUCE_BUCKET_ELEMENTS * 2.0, out->gradients);
  if (c->zero_stage >= 3)
    /* DeepSpeed stage3.py: the largest layer is gathered whole, 4·LL. */
    out->overhead += 4.0 * pc.per_layer_max / tp;
  out->overhead += QM_MEMORY_FRAGMENTATION * rest;

done:
  out->total = out->weights + out->gradients + out->optimizer + out->activations
               + out->kv_cache + out->overhead;
  out->margin = out->capacity - out->total;
  out->fits = out->capacity > 0 && out->total <= out->capacity;
}
