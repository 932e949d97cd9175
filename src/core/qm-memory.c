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
  if (recompute == QM_RECOMPUTE_SELECTIVE_OP)
    return qm_memory_layer_activations_op (shape, s, b, t, sequence_parallel);
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

/* PyTorch selective activation checkpointing by operator (torchtitan's
 * "selective" / "op", _custom_policy: save the outputs of the matmuls
 * except every second one, and of the attention kernel; recompute the
 * rest). What a layer keeps, 16-bit unless stated:
 *   - the checkpointed block's input, 2h (split by SP);
 *   - the saved matmul outputs: the 1st, 3rd, 5th and 7th of wq, wk, wv,
 *     wo, w1, w3, w2, i.e. Q (qd), V (kvd), w1 (f) and w2 (h; SP splits
 *     it, it is the reduce-scattered output); without a gate wq, wv, w1;
 *   - the attention kernel's output (qd) and fp32 log-sum-exp per head
 *     (Dao 2022 Alg. 2).
 * Norm outputs, K, the SiLU/GeLU and the products are rebuilt from these
 * in the backward. For Llama 3.1 8B at 8192 tokens that is 64 kB per
 * token per layer against 147 kB for Korthikanti's list. */
double
qm_memory_layer_activations_op (const QmModelShape *shape,
                                double              s,
                                double              b,
                                double              t,
                                gboolean            sequence_parallel)
{
  double h = shape->hidden;
  double qd = (double) shape->heads * qm_model_head_dim (shape);
  double kvd = (double) qm_model_kv_heads (shape) * qm_model_head_dim (shape);
  double f = mlp_width (shape);
  double unsplit, split;

  if (t < 1)
    t = 1;
  unsplit = 2.0 * h + (shape->gated_mlp ? 2.0 * h : 0.0);
  split = 2.0 * qd + 2.0 * kvd + 2.0 * f + 2.0 * qd;
  return s * b * ((sequence_parallel ? unsplit / t : unsplit) + split / t
                  + 4.0 * shape->heads / t);
}

/* A frozen layer under LoRA (Hu et al. 2021 §4.1: W0 receives no gradient)
 * computes no weight gradients, so the backward keeps only what the
 * adapters' gradients need and what carries the gradient down to the
 * adapters of earlier layers. Going through Korthikanti §4.1's list:
 *   - the input of every adapted linear (dL/dA = (dL/dh·B)ᵀ·x needs x);
 *   - Q, K, V and the attention output (FlashAttention's backward, Dao
 *     2022 Alg. 4, reads Q, K, V, O and the log-sum-exp), the norm inputs
 *     (the norm's backward needs x), the MLP's activation input (SiLU/GeLU
 *     backward) and the dropout masks: needed whatever is adapted;
 *   - the input of a frozen linear is not: its input gradient is dY·W0,
 *     no activation. With adapters on the attention projections only
 *     (NeMo target_modules ['attention'], the MLPerf llama2_70b_lora
 *     reference) that drops the MLP input (the second norm's output, 2sbh)
 *     and the down projection's input (2sbf: the SwiGLU product or the GeLU
 *     output).
 * With adapters on every linear this is the full-training list: PEFT's
 * all-linear LoRA saves no activation memory, only model states. */
double
qm_memory_lora_layer_activations (const QmModelShape *shape,
                                  double              s,
                                  double              b,
                                  double              t,
                                  gboolean            sequence_parallel,
                                  QmRecompute         recompute,
                                  gboolean            flash_attention,
                                  QmLoraTargets       targets)
{
  double act = qm_memory_layer_activations (shape, s, b, t, sequence_parallel, recompute,
                                            flash_attention);

  if (t < 1)
    t = 1;
  if (recompute == QM_RECOMPUTE_FULL || recompute == QM_RECOMPUTE_SELECTIVE_OP
      || targets == QM_LORA_TARGETS_ALL)
    return act;
  return act - 2.0 * s * b * shape->hidden / (sequence_parallel ? t : 1.0)
         - 2.0 * s * b * mlp_width (shape) / t;
}

/* Megatron-LM --recompute-granularity full --recompute-method block
 * --recompute-num-layers N (megatron/training/arguments.py: "block:
 * recompute the input activations of only a set number of individual
 * Transformer layers per pipeline stage and do the rest without any
 * recomputing"), and the "every k-th layer" checkpointing of FSDP stacks
 * (torchtitan's selective_ac_option = k; NeMo/AMD
 * activations_checkpoint_num_layers): of the @stage_layers layers of a
 * stage, @recompute_layers keep only their input, the rest everything.
 * 0 or at least @stage_layers: every layer is recomputed. */
double
qm_memory_recompute_fraction (guint recompute_layers,
                              guint stage_layers)
{
  if (recompute_layers == 0 || stage_layers == 0 || recompute_layers >= stage_layers)
    return 1.0;
  return (double) recompute_layers / stage_layers;
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
  return qm_memory_lora_params_for (s, rank, QM_LORA_TARGETS_ALL);
}

double
qm_memory_lora_params_for (const QmModelShape *s,
                           guint               rank,
                           QmLoraTargets       targets)
{
  double h = s->hidden;
  double qd = (double) s->heads * qm_model_head_dim (s);
  double kvd = (double) qm_model_kv_heads (s) * qm_model_head_dim (s);
  double r = rank;
  double attn = r * ((h + qd) + 2.0 * (h + kvd) + (qd + h));
  double n_mats = s->gated_mlp ? 3.0 : 2.0;
  double dense_mlp = n_mats * r * (h + s->ffn_hidden);
  double n_dense = s->layers, n_moe = 0, moe_mlp = 0;

  if (targets == QM_LORA_TARGETS_ATTENTION)
    return s->layers * attn;
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

/* ZeRO-3 / FSDP: the parameters are sharded, but the layer running is
 * gathered whole, with the next one prefetched: PyTorch FSDP's defaults
 * (BackwardPrefetch.BACKWARD_PRE, and FSDP2's implicit prefetch of the
 * next layer's all-gather forward and backward, docs "FSDP2: fully_shard":
 * "prefetching ... by one module"), QM_MEMORY_FSDP_PREFETCH layers
 * ahead; DeepSpeed stage3 likewise keeps the largest layer whole
 * (estimate_zero3_model_states_mem_needs: 4·LL = 16-bit weights +
 * gradients). In the backward each layer's unsharded gradients live until
 * their reduce-scatter, which runs while the next layer computes: two
 * layers'. The root unit (embedding, final norm, output head) is not
 * resharded after the forward (FSDP2 keeps the root's parameters for the
 * backward that follows at once), so at the peak, the start of the
 * backward, it is gathered too, and the output head's gradient is held
 * until the root's reduce-scatter at the end of the backward. */
double
qm_memory_zero3_gathered (const QmModelShape *shape,
                          const QmParamCount *pc,
                          double              tp,
                          double              pp,
                          double              ep,
                          double              w_bytes,
                          double              g_bytes)
{
  double L = MAX (shape->layers, 1u);
  double n_moe = qm_model_is_moe (shape) ? L - MIN (shape->dense_layers, shape->layers) : 0.0;
  double block = (pc->total - pc->expert - pc->embedding) / L
                 + (n_moe > 0 ? pc->expert / (n_moe * MAX (ep, 1.0)) : 0.0);
  double root = pc->embedding / (pp > 1 ? 2.0 : 1.0);
  double head = shape->tied_embeddings ? root : pc->embedding / 2.0;

  if (!qm_model_has_shape (shape))
    /* params alone: DeepSpeed's largest layer */
    return (w_bytes + g_bytes) * pc->per_layer_max / MAX (tp, 1.0);
  if (pc->embedding <= 0)
    root = head = 0;
  return (w_bytes * ((1.0 + QM_MEMORY_FSDP_PREFETCH) * block + root)
          + g_bytes * (2.0 * block + head)) / MAX (tp, 1.0);
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
  gboolean lora = c->mode == QM_MODE_LORA || c->mode == QM_MODE_QLORA;
  /* Under full recompute with recompute_layers, the other layers of a
   * chunk keep everything (qm_memory_recompute_fraction). */
  QmRecompute kept_mode = c->recompute == QM_RECOMPUTE_FULL ? QM_RECOMPUTE_NONE : c->recompute;
  double frac = c->recompute == QM_RECOMPUTE_FULL
                ? qm_memory_recompute_fraction (c->recompute_layers, stages->chunk) : 0.0;
  gboolean mla_selective = shape->kv_lora_rank > 0 && kept_mode == QM_RECOMPUTE_SELECTIVE;
  double ckpt = qm_memory_layer_activations (shape, s, b, tp, sp, QM_RECOMPUTE_FULL,
                                             c->flash_attention);
  double kept = lora ? qm_memory_lora_layer_activations (shape, s, b, tp, sp, kept_mode,
                                                         c->flash_attention, c->lora_targets)
                : qm_memory_layer_activations (shape, s, b, tp, sp, kept_mode, c->flash_attention);
  double per_layer;
  double h = shape->hidden, V = shape->vocab;
  double activations;

  if (!qm_model_has_shape (shape))
    {
      /* params alone: model states only */
      kept = ckpt = 0;
      h = 0;
      V = 0;
    }
  if (c->precision == QM_PRECISION_FP8 && !lora && kept > 0 && kept_mode != QM_RECOMPUTE_SELECTIVE_OP)
    /* Transformer Engine keeps the FP8 casts of the GEMM inputs for the
     * weight gradients (1 byte, not 2): the QKV and FC1 inputs (h wide,
     * split by SP) and the FC2 input (f wide, split by TP). The
     * attention output stays 16-bit, FlashAttention keeps it. A frozen
     * (LoRA) base has no weight gradients: the 16-bit inputs its
     * adapters read are kept instead. */
    kept -= s * b * ((mla_selective ? 0.0 : 2.0 * h / (sp ? tp : 1.0))
                     + mlp_width (shape) / tp
                     + (qm_model_is_moe (shape)
                        ? MAX (shape->experts_per_token, 1u) * h / (sp ? tp : 1.0) : 0.0));
  per_layer = frac * ckpt + (1.0 - frac) * kept;
  activations = per_layer * layers_held;
  if ((c->recompute == QM_RECOMPUTE_FULL || c->recompute == QM_RECOMPUTE_SELECTIVE_OP) && h > 0)
    /* The layer being recomputed holds its full activations meanwhile. */
    activations += lora ? qm_memory_lora_layer_activations (shape, s, b, tp, sp, QM_RECOMPUTE_NONE,
                                                            c->flash_attention, c->lora_targets)
                   : qm_memory_layer_activations (shape, s, b, tp, sp, QM_RECOMPUTE_NONE,
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
  /* HSDP / hybrid sharding (PyTorch FSDP ShardingStrategy.HYBRID_SHARD,
   * FSDP2 fully_shard on a 2-D mesh; DeepSpeed ZeRO++ hpZ): the states
   * shard within a group of shard_group ranks and are replicated across
   * the groups, so each rank holds 1/shard_group, not 1/(dp·cp). */
  double zs = c->shard_group > 0 && c->shard_group < dpc ? c->shard_group : dpc;
  double zse = MIN (ep_dp, zs);
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
  if (c->fp8_weights && c->precision == QM_PRECISION_FP8)
    /* FP8 weight storage: Transformer Engine's fp8_model_init / Megatron's
     * --fp8-param-gather and NeMo's fp8_params keep the model's weights in
     * FP8 (1 byte, plus one fp32 scale per tensor) instead of a 16-bit copy
     * that is cast before every GEMM; the fp32 master copy stays in the
     * optimizer (TE docs, "fp8_model_init": "the master weights are
     * kept in higher precision by the optimizer"). The MLPerf Training
     * llama2_70b_lora submissions set fp8_params with fp8 (NeMo config
     * megatron_gpt_peft_tuning_config.yaml): their frozen base is 1 B/param.
     * Not counted: Transformer Engine's cached fp8 transpose of each weight
     * (another byte per parameter on Hopper, whose fp8 GEMMs want the
     * transposed operand in the backward); those MLPerf configs turn it off
     * (disable_parameter_transpose_cache: True). */
    w_bytes = 1.0;
  o_bytes = master + optimizer_state_bytes (c->optimizer);

  if (c->mode == QM_MODE_LORA || c->mode == QM_MODE_QLORA)
    {
      /* Frozen base (16-bit, or NF4 for QLoRA) holds no gradients or
       * optimizer states; only the adapters train (Hu et al. 2021;
       * Dettmers et al. 2023). ZeRO-3 also shards the frozen base. */
      double adapter_b = w_bytes == 1.0 ? 2.0 : w_bytes;
      double base_b = c->mode == QM_MODE_QLORA ? QM_MEMORY_QLORA_BYTES_PER_PARAM
                      : w_bytes == 1.0 ? 1.0 : 2.0;
      double adapters = qm_memory_lora_params_for (shape, MAX (c->lora_rank, 1u), c->lora_targets)
                        / (tp * pp);
      double zdp = c->zero_stage >= 1 ? zs : 1;

      /* The adapters themselves are never stored in fp8. */
      out->weights = psi * base_b / (c->zero_stage >= 3 ? zs : 1)
                     + adapters * adapter_b / (c->zero_stage >= 3 ? zs : 1);
      out->gradients = adapters * g_bytes / (c->zero_stage >= 2 ? zs : 1);
      out->optimizer = adapters * o_bytes / zdp;
    }
  else
    {
      /* ZeRO shards over data-parallel ranks only: dense states over
       * dp·cp, expert states over the expert-data-parallel group. */
      double wd = c->zero_stage >= 3 ? zs : 1, we = c->zero_stage >= 3 ? zse : 1;
      double gd = c->zero_stage >= 2 ? zs : 1, ge = c->zero_stage >= 2 ? zse : 1;
      double od = c->zero_stage >= 1 ? zs : 1, oe = c->zero_stage >= 1 ? zse : 1;

      out->weights = w_bytes * (psi_dense / wd + psi_expert / we);
      out->gradients = g_bytes * (psi_dense / gd + psi_expert / ge);
      out->optimizer = o_bytes * (psi_dense / od + psi_expert / oe);
    }

  out->activations = stage_activations (shape, c, &stages, tp, pp, cp);

  /* Overheads that real frameworks add (estimation-anchors §2.7). */
  rest = out->weights + out->gradients + out->optimizer + out->activations;
  out->overhead = QM_MEMORY_CUDA_CONTEXT_BYTES;
  {
    /* One NCCL communicator per parallel group this GPU belongs to: TP,
     * PP (its send/recv pairs), CP, EP and the data-parallel group with CP
     * (Megatron-Core's process groups; HSDP adds the replicate group). */
    const double groups[] = { tp, cp, ep, dpc };

    for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
      if (groups[i] > 1)
        out->overhead += groups[i] > 2 ? QM_MEMORY_NCCL_COMMUNICATOR_BYTES : QM_MEMORY_NCCL_PAIR_BYTES;
    if (pp > 1)
      out->overhead += QM_MEMORY_NCCL_PAIR_BYTES;
    if (c->zero_stage >= 1 && zs < dpc)
      out->overhead += dpc / zs > 2 ? QM_MEMORY_NCCL_COMMUNICATOR_BYTES : QM_MEMORY_NCCL_PAIR_BYTES;
  }
  /* DeepSpeed copies gradients into its reduce bucket; Megatron's
   * contiguous fp32 main_grad buffer is reduced in place, its buckets
   * being views into it (Megatron-LM megatron/core/distributed/
   * param_and_grad_buffer.py, _ParamAndGradBucket over the grad buffer). */
  if (dp > 1 && !c->fp32_grad_buffer)
    out->overhead += MIN (QM_MEMORY_REDUCE_BUCKET_ELEMENTS * 2.0, out->gradients);
  if (c->zero_stage >= 3 && pp > 1 && zs > 1)
    {
      /* FSDP under a pipeline schedule: PyTorch's pipelining
       * (torch/distributed/pipelining/stage.py, backward_maybe_with_nosync)
       * sets reshard_after_backward(False) and requires_gradient_sync(False)
       * on the stage's FSDP module for every micro-batch but the last, and
       * torchtitan builds it with reshard_after_forward = not pp_enabled
       * (parallelize_llama.py apply_fsdp). So once gathered, the stage's
       * weights stay whole for the step, and its gradients accumulate
       * unsharded, in FSDP2's reduce_dtype (fp32 in torchtitan's
       * mixed_precision_reduce), until the last micro-batch reduce-scatters
       * them: on top of the shards, like ZeRO-1 for weights and gradients. */
      gboolean frozen = c->mode == QM_MODE_LORA || c->mode == QM_MODE_QLORA;

      out->overhead += psi * ((frozen && w_bytes == 1.0) ? 1.0 : frozen ? 2.0 : w_bytes)
                       + (frozen ? 0.0 : 4.0 * psi);
    }
  else if (c->zero_stage >= 3)
    out->overhead += qm_memory_zero3_gathered (shape, &pc, tp, pp, ep,
                                               c->mode == QM_MODE_LORA || c->mode == QM_MODE_QLORA
                                               ? w_bytes == 1.0 ? 1.0 : 2.0 : w_bytes,
                                               c->mode == QM_MODE_LORA || c->mode == QM_MODE_QLORA
                                               ? 0.0 : g_bytes);
  out->overhead += QM_MEMORY_FRAGMENTATION * rest;

done:
  out->total = out->weights + out->gradients + out->optimizer + out->activations
               + out->kv_cache + out->overhead;
  out->margin = out->capacity - out->total;
  out->fits = out->capacity > 0 && out->total <= out->capacity;
}
