/* qm-types.h: forward typedefs and the enums shared by the whole core.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _QmModelShape   QmModelShape;
typedef struct _QmGpuSpec      QmGpuSpec;
typedef struct _QmServerSpec   QmServerSpec;
typedef struct _QmNetworkSpec  QmNetworkSpec;
typedef struct _QmStorageSpec  QmStorageSpec;
typedef struct _QmHardware     QmHardware;
typedef struct _QmFacility     QmFacility;
typedef struct _QmPricing      QmPricing;

/* What the plan is for (docs/plan-file.md, workload.mode). */
typedef enum
{
  QM_MODE_PRETRAIN,
  QM_MODE_FINETUNE,
  QM_MODE_LORA,
  QM_MODE_QLORA,
  QM_MODE_INFERENCE,
} QmMode;

/* Numeric formats. Training uses fp32/fp16/bf16/fp8; serving also int8/int4/fp4. */
typedef enum
{
  QM_PRECISION_FP32,
  QM_PRECISION_TF32,
  QM_PRECISION_FP16,
  QM_PRECISION_BF16,
  QM_PRECISION_FP8,
  QM_PRECISION_INT8,
  QM_PRECISION_FP4,
  QM_PRECISION_INT4,
  QM_N_PRECISIONS
} QmPrecision;

typedef enum
{
  QM_OPTIMIZER_ADAMW,
  QM_OPTIMIZER_ADAMW_8BIT,
  QM_OPTIMIZER_SGD,        /* with momentum */
  QM_OPTIMIZER_ADAFACTOR,
} QmOptimizer;

typedef enum
{
  QM_RECOMPUTE_NONE,
  QM_RECOMPUTE_SELECTIVE,
  QM_RECOMPUTE_FULL,
  /* PyTorch selective activation checkpointing by operator, as torchtitan
   * applies it (mode "selective", selective_ac_option "op"): every layer
   * keeps the outputs of every other matmul and of the attention kernel,
   * and recomputes the rest (see qm_memory_layer_activations_ops). */
  QM_RECOMPUTE_SELECTIVE_OP,
} QmRecompute;

#define QM_N_RECOMPUTE 4

/* Which linear layers carry LoRA adapters: every one (QLoRA §4, PEFT's
 * "all-linear"), or the attention projections alone (QKV and output, as
 * NeMo's target_modules ['attention'] and the MLPerf Training
 * llama2_70b_lora reference). */
typedef enum
{
  QM_LORA_TARGETS_ALL,
  QM_LORA_TARGETS_ATTENTION,
} QmLoraTargets;

typedef enum
{
  QM_PRICING_BUY,
  QM_PRICING_RENT_ON_DEMAND,
  QM_PRICING_RENT_RESERVED,
} QmPricingMode;

/* Bytes per element of a numeric format. int4/fp4 are half a byte. */
double       qm_precision_bytes     (QmPrecision p);
const char  *qm_precision_to_string (QmPrecision p);
gboolean     qm_precision_from_string (const char *s, QmPrecision *out);

/* The enum ↔ name tables: an array of rows indexed by the enum, each row
 * holding its name at @name_offset. Sets *@index to the row whose name is
 * @s and returns TRUE, or returns FALSE and leaves *@index alone.
 * QM_NAME_TABLE (rows, member) gives the middle four arguments. */
gboolean     qm_name_table_find       (const char    *s,
                                       gconstpointer  rows,
                                       guint          n_rows,
                                       gsize          row_size,
                                       gsize          name_offset,
                                       guint         *index);

#define QM_NAME_TABLE(rows, member) \
  (rows), G_N_ELEMENTS (rows), sizeof (rows)[0], G_STRUCT_OFFSET (__typeof__ ((rows)[0]), member)

G_END_DECLS
