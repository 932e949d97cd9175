/* qm-compute.h: training FLOPs, time for a GPU count, and its inverse.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-hardware.h"
#include "qm-model.h"

G_BEGIN_DECLS

/* Training FLOPs of a run, on three bases. Every output says which one. */
typedef struct
{
  double flops_6nd;       /* 6·N·D, N = active params (Kaplan 2020; GPT-3 Table D.1) */
  double model_flops;     /* 6·N·D + attention 12·L·H·Q·T·D (PaLM App. B): the MFU basis */
  double hardware_flops;  /* model_flops + recompute (Korthikanti eq. 8; Narayanan eq. 3) */
} QmTrainingFlops;

/* As qm_compute_training_flops() for a training @mode: LoRA and QLoRA
 * train adapters on a frozen base, so the backward pass computes input
 * gradients only (no weight gradients): forward 2N + A, backward 2N + A
 * per token, i.e. 4·N·D + 2·A·D model FLOPs (Hu et al. 2021, LoRA §4.2:
 * no gradients for the frozen weights). flops_6nd stays 6·N·D, the
 * reference basis. Other modes are unchanged. */
void   qm_compute_training_flops_for_mode (const QmModelShape *shape,
                                           QmMode              mode,
                                           double              tokens,
                                           guint               seq_len,
                                           QmRecompute         recompute,
                                           QmTrainingFlops    *out);
/* Parameters per layer of the matmuls that PyTorch's per-operator
 * selective checkpointing (QM_RECOMPUTE_SELECTIVE_OP) recomputes. */
double qm_compute_op_recompute_params (const QmModelShape *shape);
void   qm_compute_training_flops  (const QmModelShape *shape,
                                   double              tokens,
                                   guint               seq_len,
                                   QmRecompute         recompute,
                                   QmTrainingFlops    *out);

/* Seconds to do `flops` on `gpus` GPUs of `peak_flops` dense FLOP/s each,
 * at model FLOPs utilisation `mfu`. 0 when an input is not positive. */
double qm_compute_seconds         (double flops,
                                   double gpus,
                                   double peak_flops,
                                   double mfu);

/* The inverse: GPUs (fractional) needed to finish in `seconds`. */
double qm_compute_gpus_for_time   (double flops,
                                   double seconds,
                                   double peak_flops,
                                   double mfu);

/* Round a GPU count up to whole nodes of `gpus_per_node`, and to a multiple
 * of `multiple_of` (the model-parallel size tp·pp·cp). */
guint  qm_compute_round_gpus      (double gpus,
                                   guint  gpus_per_node,
                                   guint  multiple_of);

/* The rule of thumb users know: A100 (312 TF dense bf16) at 40% MFU,
 * GPUs ≈ tokens_B × epochs × params_B × 13.3 / hours. It is the special
 * case of qm_compute_gpus_for_time() on the 6ND basis; see qm-compute.c. */
#define QM_SEED_RULE_FACTOR 13.3
double qm_compute_seed_rule_gpus  (double tokens_b,
                                   double epochs,
                                   double params_b,
                                   double hours);

/* Dense peak FLOP/s of a GPU at a training precision (fp8 falls back to
 * bf16 when the part has no fp8 units). 0 when unknown. */
double qm_compute_peak_flops      (const QmGpuSpec *gpu,
                                   QmPrecision      precision);

/* Default MFU for a GPU family, used when the plan gives none. */
double qm_compute_default_mfu     (const char *family);

G_END_DECLS
