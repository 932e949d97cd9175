/* test-parallel.c: the throughput model against published runs, and the
 * layout search (pruned == exhaustive, no-fit explanation, the curve).
 *
 * Published rows: docs/published-runs.tsv (Korthikanti 2022
 * Table 3/5, Narayanan 2021 Table 1, mosaicml/llm-foundry benchmarking
 * README). Layouts are the published ones; the model predicts the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-compute.h"
#include "qm-parallel.h"
#include "qm-test-util.h"

/* GPT shapes of Korthikanti 2022 Table 3 / Narayanan 2021 Table 1: GeLU MLP
 * 4h, multi-head attention, learned positions, biases, tied embeddings
 * (Megatron shares the input embedding with the output layer), V = 51200. */
static QmModelShape
gpt_shape (guint layers,
           guint hidden,
           guint heads)
{
  QmModelShape s = { 0 };

  s.layers = layers;
  s.hidden = hidden;
  s.heads = heads;
  s.kv_heads = heads;
  s.ffn_hidden = 4 * hidden;
  s.vocab = 51200;
  s.tied_embeddings = TRUE;
  s.learned_positions = 2048;
  s.linear_bias = TRUE;
  return s;
}

/* MPT (llm-foundry yamls): GeLU 4h, MHA, no biases, tied embeddings,
 * V = 50368; the benchmark configs use learned positions, one per token of
 * max_seq_len (NumParams grows with the sequence length in the README
 * table). */
static QmModelShape
mpt_shape (guint layers,
           guint hidden,
           guint heads,
           guint seq_len)
{
  QmModelShape s = { 0 };

  s.layers = layers;
  s.hidden = hidden;
  s.heads = heads;
  s.kv_heads = heads;
  s.ffn_hidden = 4 * hidden;
  s.vocab = 50368;
  s.tied_embeddings = TRUE;
  s.learned_positions = seq_len;
  return s;
}

static void
problem_init (QmParallelProblem *pb,
              const char        *gpu,
              const char        *server,
              const char        *network,
              guint              gpus)
{
  memset (pb, 0, sizeof *pb);
  pb->mode = QM_MODE_PRETRAIN;
  pb->precision = QM_PRECISION_BF16;
  pb->optimizer = QM_OPTIMIZER_ADAMW;
  pb->gpu = *qm_catalog_gpu (gpu);
  pb->server = *qm_catalog_server (server);
  pb->network = *qm_catalog_network (network);
  pb->gpus = gpus;
  pb->overlap_dp = TRUE;
}

typedef enum
{
  BASIS_MFU,
  BASIS_HFU,     /* Narayanan eq. 3: FLOPs include the recompute forward */
  BASIS_TFLOPS,  /* model TFLOP/s per GPU (NeMo, Llama 3 Table 4): MFU × peak */
  BASIS_MFU_6ND, /* MFU on 6·N·D alone (GPU-hours of a whole run, Pythia) */
  BASIS_TOKENS,  /* tokens per second per GPU (tokens / GPU-hours of a run) */
} Basis;

typedef enum
{
  FAMILY_GPT,     /* Megatron GPT block (gpt_shape) */
  FAMILY_MPT,     /* llm-foundry MPT block (mpt_shape) */
  FAMILY_PRESET,  /* the catalog's model of that id */
} Family;

/* The software generation of a row, as the layout flags a plan has: no
 * per-run constants. */
typedef enum
{
  /* Megatron-LM 2021–22: fused softmax, no FlashAttention, fp32
   * main_grad, the DP all-reduce after the last backward, TP in the open. */
  STACK_MEGATRON_2021,
  /* llm-foundry 2023: FlashAttention (triton), bf16 FSDP with prefetch. */
  STACK_FOUNDRY_2023,
  /* Megatron-Core + Transformer Engine (NeMo 24.x performance recipes):
   * cuDNN/flash attention, fp32 main_grad, DP reduce and parameter gathers
   * overlapped, TP communication overlapped with the GEMMs (userbuffers). */
  STACK_MCORE_2024,
  /* Llama 3's own stack (Dubey et al. 2024 §3.3.2): FlashAttention, FSDP-
   * style sharded gradients with overlap; no TP overlap reported. */
  STACK_META_2024,
  /* GPT-NeoX with DeepSpeed ZeRO-1 (Pythia's yamls, 2022-23): fp16
   * gradients reduced with overlap_comm, FlashAttention where the yaml's
   * attention-config asks for it (the row's no_flash otherwise). */
  STACK_NEOX_2022,
} Stack;

typedef struct
{
  const char  *id;
  Family       family;
  const char  *preset;     /* FAMILY_PRESET */
  guint        layers, hidden, heads;
  const char  *gpu, *server, *network;
  guint        gpus, tp, pp, cp;
  guint        v;          /* virtual stages; 0 = unpublished, the search picks */
  guint        mb;         /* micro-batch; 0 = unpublished, the search picks */
  guint        global_batch, seq_len;
  QmRecompute  recompute;
  gboolean     sp;
  guint        zero;
  QmPrecision  precision;
  Stack        stack;
  Basis        basis;
  double       published;
  const char  *odd;        /* why the physics disagrees, or NULL */
  /* Optional, 0 = the catalog's: compute-fabric NICs per node and their
   * speed (a cloud instance's own), and no FlashAttention in a stack that
   * has it. */
  guint        nics, nic_gbps;
  gboolean     no_flash;
  guint        ep;         /* expert parallel, 0 = 1 */
} Row;

#define A100_80 "a100-sxm-80gb", "dgx-a100", "ib-hdr-200"
#define A100_80_ROCE "a100-sxm-80gb", "dgx-a100", "eth-400g"
#define A100_40_ROCE "a100-sxm-40gb", "dgx-a100", "eth-400g"
#define H100_IB "h100-sxm-80gb", "dgx-h100", "ib-ndr-400"
#define H100_ROCE "h100-sxm-80gb", "hgx-h100-8", "eth-400g"
#define GPT(L, h, a) FAMILY_GPT, NULL, L, h, a
#define MPT(L, h, a) FAMILY_MPT, NULL, L, h, a
#define PRESET(id) FAMILY_PRESET, id, 0, 0, 0
#define NONE QM_RECOMPUTE_NONE
#define SEL QM_RECOMPUTE_SELECTIVE
#define FULL QM_RECOMPUTE_FULL
#define BF16 QM_PRECISION_BF16
#define FP8 QM_PRECISION_FP8
#define FP16 QM_PRECISION_FP16

/* Published training runs, each at its published layout; the model predicts
 * the step. Sources are docs/published-runs.tsv and:
 *   Korthikanti et al. 2022 (arXiv 2205.05198) Table 3 + 5 (Selene, DGX
 *     A100, 8×200G HDR IB), SP + selective and the full-recompute baseline;
 *     175B/530B interleaved with 3 chunks per stage.
 *   Narayanan et al. 2021 (arXiv 2104.04473) Table 1 (weak scaling, full
 *     recompute, percentages of peak counted with eq. 3, i.e. HFU); the
 *     1T row interleaved with 2 chunks; micro-batch and interleaving of
 *     the others are not in the table (the search picks them).
 *   mosaicml/llm-foundry scripts/train/benchmarking/README.md, A100 80GB
 *     and 40GB tables with 1600 Gbps RoCE: FSDP FULL_SHARD (ZeRO-3),
 *     activation checkpointing = full recompute, MFU as ours.
 *   NVIDIA/NeMo docs/source/performance/performance_summary.md, NeMo
 *     24.07, DGX-H100, FP8, "Model TFLOP / sec / GPU" (NeMo's FLOPs
 *     formula has the same 6N + 12·L·h·s basis as ours). Recompute is not
 *     in the table: none (the rows fit without it).
 *   Dubey et al. 2024, "The Llama 3 Herd of Models" (arXiv 2407.21783),
 *     Table 4 (16M tokens per batch, BF16) and §3.3.2: no activation
 *     checkpointing, sharded optimizer states and gradients, uneven first
 *     and last stages, interleaving; RoCE 400G per GPU (§3.3.1).
 * GPT rows use Megatron's GPT block, MPT rows llm-foundry's yaml shapes. */
static const Row rows[] = {
  { "korthikanti-22b-sp-sel",         GPT (48, 6144, 64),    A100_80,    8, 8,  1, 1, 1, 4,    4, 2048, SEL,  TRUE,  1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.415, NULL },
  { "korthikanti-22b-fullrecompute",  GPT (48, 6144, 64),    A100_80,    8, 8,  1, 1, 1, 4,    4, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.321, NULL },
  { "korthikanti-175b-sp-sel",        GPT (96, 12288, 96),   A100_80,   64, 8,  8, 1, 3, 1,   64, 2048, SEL,  TRUE,  1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.514, NULL },
  { "korthikanti-175b-fullrecompute", GPT (96, 12288, 96),   A100_80,   64, 8,  8, 1, 3, 1,   64, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.390, NULL },
  { "korthikanti-530b-sp-sel",        GPT (105, 20480, 128), A100_80,  280, 8, 35, 1, 3, 1,  280, 2048, SEL,  TRUE,  1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.560, NULL },
  { "korthikanti-530b-fullrecompute", GPT (105, 20480, 128), A100_80,  280, 8, 35, 1, 3, 1,  280, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.432, NULL },
  { "korthikanti-1t-sp-sel",          GPT (128, 25600, 160), A100_80,  512, 8, 64, 1, 1, 1,  512, 2048, SEL,  TRUE,  1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.563, NULL },
  { "korthikanti-1t-fullrecompute",   GPT (128, 25600, 160), A100_80,  512, 8, 64, 1, 1, 1,  512, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.426, NULL },
  { "korthikanti-530b-dp8",           GPT (105, 20480, 128), A100_80, 2240, 8, 35, 1, 3, 1, 2240, 2048, SEL,  TRUE,  1, BF16, STACK_MEGATRON_2021, BASIS_MFU, 0.542, NULL },
  /* Narayanan 2021 Table 1: 163 TF = 52% (1T), 163 (530B), 148 (145.6B),
   * 135 (18.4B), 137 (1.7B) TFLOP/s of 312, eq. 3 (recompute counted). */
  { "megatron21-1t",                  GPT (128, 25600, 160), A100_80, 3072, 8, 64, 1, 2, 1, 3072, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_HFU, 0.52, NULL },
  { "megatron21-530b",                GPT (105, 20480, 128), A100_80, 2520, 8, 35, 1, 0, 1, 2520, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_HFU, 163.0 / 312, NULL },
  { "megatron21-145b",                GPT (80, 12288, 96),   A100_80, 1536, 8,  8, 1, 0, 1, 2304, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_HFU, 148.0 / 312, NULL },
  { "megatron21-18b",                 GPT (40, 6144, 48),    A100_80,  256, 8,  1, 1, 1, 0, 1024, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_HFU, 135.0 / 312, NULL },
  { "megatron21-1.7b",                GPT (24, 2304, 24),    A100_80,   32, 1,  1, 1, 1, 0,  512, 2048, FULL, FALSE, 1, BF16, STACK_MEGATRON_2021, BASIS_HFU, 137.0 / 312, NULL },
  /* llm-foundry README. */
  { "mosaic-70b-a100-80-64",          MPT (80, 8192, 64), A100_80_ROCE,  64, 1, 1, 1, 1,  8, 2048, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5333, NULL },
  { "mosaic-7b-a100-80-8",            MPT (32, 4096, 32), A100_80_ROCE,   8, 1, 1, 1, 1,  6,   96, 2048, NONE, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.6423, NULL },
  { "mosaic-70b-a100-40-128",         MPT (80, 8192, 64), A100_40_ROCE, 128, 1, 1, 1, 1,  4,  512, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.4891, NULL },
  { "mosaic-70b-a100-40-64",          MPT (80, 8192, 64), A100_40_ROCE,  64, 1, 1, 1, 1,  2,  128, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.3587,
    "0.359 at micro-batch 2 while its twins (70B on 32 x 80GB at micro-batch 2: same compute and FSDP bytes per "
    "micro-batch, 0.486; 30B on 32 x 40GB, GA 1: 0.517) are predicted within 3%: no per-micro-batch, per-step or "
    "free-memory term explains it without breaking a twin" },
  { "mosaic-7b-a100-40-128",          MPT (32, 4096, 32), A100_40_ROCE, 128, 1, 1, 1, 1, 18, 2304, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5014, NULL },
  { "mosaic-70b-a100-80-32",          MPT (80, 8192, 64), A100_80_ROCE,  32, 1, 1, 1, 1,  2, 1024, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.4856, NULL },
  /* 0.394 vs 0.514 at 4096 (same GPUs, micro-batch 1, GA 21): the
   * FlashAttention share grows with s, a quarter of the drop; the rest is
   * unexplained (predicted ~27% high). */
  { "mosaic-30b-a100-80-8-s8192",     MPT (48, 7168, 56), A100_80_ROCE,   8, 1, 1, 1, 1,  1,  168, 8192, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.3938, NULL },
  { "mosaic-30b-a100-80-8-s4096",     MPT (48, 7168, 56), A100_80_ROCE,   8, 1, 1, 1, 1,  1,  168, 4096, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5137, NULL },
  { "mosaic-30b-a100-80-8",           MPT (48, 7168, 56), A100_80_ROCE,   8, 1, 1, 1, 1,  3,  504, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5530, NULL },
  { "mosaic-30b-a100-80-8-s1024",     MPT (48, 7168, 56), A100_80_ROCE,   8, 1, 1, 1, 1,  6, 1008, 1024, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5582, NULL },
  { "mosaic-30b-a100-80-8-s512",      MPT (48, 7168, 56), A100_80_ROCE,   8, 1, 1, 1, 1, 12, 2016,  512, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5640, NULL },
  { "mosaic-13b-a100-80-8",           MPT (40, 5120, 40), A100_80_ROCE,   8, 1, 1, 1, 1,  2,   48, 2048, NONE, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5957, NULL },
  { "mosaic-30b-a100-40-128",         MPT (48, 7168, 56), A100_40_ROCE, 128, 1, 1, 1, 1,  6,  768, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5225, NULL },
  { "mosaic-30b-a100-40-32",          MPT (48, 7168, 56), A100_40_ROCE,  32, 1, 1, 1, 1,  4,  128, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5174, NULL },
  { "mosaic-13b-a100-40-128",         MPT (40, 5120, 40), A100_40_ROCE, 128, 1, 1, 1, 1, 16, 2048, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5193, NULL },
  { "mosaic-13b-a100-40-64",          MPT (40, 5120, 40), A100_40_ROCE,  64, 1, 1, 1, 1, 16, 1024, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5204, NULL },
  { "mosaic-13b-a100-40-32",          MPT (40, 5120, 40), A100_40_ROCE,  32, 1, 1, 1, 1, 14,  448, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5262, NULL },
  { "mosaic-13b-a100-40-16",          MPT (40, 5120, 40), A100_40_ROCE,  16, 1, 1, 1, 1, 10,  160, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5250, NULL },
  /* 0.439 vs 0.525 on 16 GPUs of the same table, predicted alike: the
   * drop is unexplained (predicted ~16% high). */
  { "mosaic-13b-a100-40-8",           MPT (40, 5120, 40), A100_40_ROCE,   8, 1, 1, 1, 1,  4,  512, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.4394, NULL },
  { "mosaic-7b-a100-40-64",           MPT (32, 4096, 32), A100_40_ROCE,  64, 1, 1, 1, 1, 18, 1152, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5073, NULL },
  { "mosaic-7b-a100-40-32",           MPT (32, 4096, 32), A100_40_ROCE,  32, 1, 1, 1, 1, 18,  576, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5155, NULL },
  { "mosaic-7b-a100-40-16",           MPT (32, 4096, 32), A100_40_ROCE,  16, 1, 1, 1, 1, 16,  256, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5044, NULL },
  { "mosaic-7b-a100-40-8",            MPT (32, 4096, 32), A100_40_ROCE,   8, 1, 1, 1, 1, 12,  384, 2048, FULL, FALSE, 3, BF16, STACK_FOUNDRY_2023, BASIS_MFU, 0.5092, NULL },
  /* NeMo 24.07, DGX-H100, FP8 (Model TFLOP/s per GPU). GPT3-5B and 20B are
   * NeMo's gpt3 5b/20b yamls (24 × 4096 × 32 heads; 44 × 6144 × 48). */
  { "nemo-gpt3-5b-fp8",               GPT (24, 4096, 32),    H100_IB,  64, 1, 1, 1, 1, 4, 2048, 2048, NONE, FALSE, 1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 736, NULL },
  { "nemo-gpt3-20b-fp8",              GPT (44, 6144, 48),    H100_IB,  64, 2, 1, 1, 1, 2,  256, 2048, NONE, TRUE,  1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 750, NULL },
  { "nemo-gpt3-175b-128-fp8",         GPT (96, 12288, 96),   H100_IB, 128, 4, 8, 1, 6, 1,  256, 2048, NONE, TRUE,  1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 782, NULL },
  { "nemo-gpt3-175b-512-fp8",         GPT (96, 12288, 96),   H100_IB, 512, 4, 8, 1, 6, 2, 2048, 2048, NONE, TRUE,  1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 842, NULL },
  { "nemo-llama2-7b-fp8",             PRESET ("llama-2-7b"),    H100_IB,  8, 1, 1, 1, 1, 1, 128, 4096, NONE, FALSE, 1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 776, NULL },
  { "nemo-llama2-13b-fp8",            PRESET ("llama-2-13b"),   H100_IB, 16, 1, 4, 1, 10, 1, 128, 4096, NONE, FALSE, 1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 754, NULL },
  { "nemo-llama2-70b-fp8",            PRESET ("llama-2-70b"),   H100_IB, 64, 4, 4, 1, 20, 1, 128, 4096, NONE, TRUE,  1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 759, NULL },
  { "nemo-llama3-8b-fp8",             PRESET ("llama-3.1-8b"),  H100_IB,  8, 1, 1, 2, 1, 1, 128, 8192, NONE, FALSE, 1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 697, NULL },
  { "nemo-llama3-70b-fp8",            PRESET ("llama-3.1-70b"), H100_IB, 64, 4, 4, 2, 5, 1, 128, 8192, NONE, TRUE,  1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 738, NULL },
  /* NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md, 25.11 NeMo container,
   * DGX-H100, FP8 current scaling (Model TFLOP/s per GPU); FSDP = 1 is
   * Megatron-FSDP (ZeRO-3). */
  { "nemo2511-llama3-8b-fp8",         PRESET ("llama-3.1-8b"),   H100_IB,    8, 1, 1, 1, 1, 1, 128, 8192, NONE, FALSE, 3, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 744, NULL },
  { "nemo2511-llama3-70b-fp8",        PRESET ("llama-3.1-70b"),  H100_IB,   64, 4, 8, 1, 5, 1, 128, 8192, NONE, TRUE,  1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 719, NULL },
  { "nemo2511-llama31-405b-fp8",      PRESET ("llama-3.1-405b"), H100_IB, 1024, 8, 8, 2, 8, 1, 512, 8192, NONE, TRUE,  1, FP8, STACK_MCORE_2024, BASIS_TFLOPS, 737, NULL },
  /* Pythia's six rows are predicted 21-44% too fast, by about the same
   * factor at every size from 410M to 12B, where the Megatron 2021 rows of
   * the same sizes (no FlashAttention either) and the llm-foundry A100-40GB
   * rows are predicted within 10%: not a scaling effect the model misses
   * but one of this run. Their numbers are GPU-hours of whole runs, not
   * step times, and the 2022 GPT-NeoX stack in the yamls synchronises the
   * host after every layer (synchronize-each-layer) and partitions the
   * checkpointed activations; none of that is a layout knob. */
#define PYTHIA_ODD "GPU-hours of a whole GPT-NeoX run, ~30% slower than the mechanisms price at every size: see above"
  /* Pythia (Biderman et al. 2023, arXiv 2304.01373) App. D Table 5: GPU
   * count and GPU-hours for 300B tokens (published-runs.tsv: MFU* on
   * 6·N·D with N the total parameters); layouts from EleutherAI/pythia
   * models/<size>/pythia-<size>.yml: ZeRO-1, fp16, activation checkpointing, TP 1 (6.9B: 2,
   * 12B: 4), micro-batch 32/16/16/16/8/8 with GA 2 for the last two;
   * FlashAttention but in the 1B yaml. The data paths are /fsx (AWS FSx):
   * p4d instances, 4 × 100 Gb/s EFA per node. */
  { "pythia-410m",  PRESET ("pythia-410m"), A100_40_ROCE,  32, 1, 1, 1, 1, 32, 1024, 2048, FULL, FALSE, 1, FP16, STACK_NEOX_2022, BASIS_MFU_6ND, 0.256, PYTHIA_ODD, 4, 100, FALSE },
  { "pythia-1b",    PRESET ("pythia-1b"),   A100_40_ROCE,  64, 1, 1, 1, 1, 16, 1024, 2048, FULL, FALSE, 1, FP16, STACK_NEOX_2022, BASIS_MFU_6ND, 0.336, PYTHIA_ODD, 4, 100, TRUE },
  { "pythia-1.4b",  PRESET ("pythia-1.4b"), A100_40_ROCE,  64, 1, 1, 1, 1, 16, 1024, 2048, FULL, FALSE, 1, FP16, STACK_NEOX_2022, BASIS_MFU_6ND, 0.318, PYTHIA_ODD, 4, 100, FALSE },
  { "pythia-2.8b",  PRESET ("pythia-2.8b"), A100_40_ROCE,  64, 1, 1, 1, 1, 16, 1024, 2048, FULL, FALSE, 1, FP16, STACK_NEOX_2022, BASIS_MFU_6ND, 0.312, PYTHIA_ODD, 4, 100, FALSE },
  { "pythia-6.9b",  PRESET ("pythia-6.9b"), A100_40_ROCE, 128, 2, 1, 1, 1,  8, 1024, 2048, FULL, FALSE, 1, FP16, STACK_NEOX_2022, BASIS_MFU_6ND, 0.328, PYTHIA_ODD, 4, 100, FALSE },
  { "pythia-12b",   PRESET ("pythia-12b"),  A100_40_ROCE, 256, 4, 1, 1, 1,  8, 1024, 2048, FULL, FALSE, 1, FP16, STACK_NEOX_2022, BASIS_MFU_6ND, 0.262, PYTHIA_ODD, 4, 100, FALSE },
  /* DeepSeek-V3 (arXiv 2412.19437): 2.664M H800 GPU-hours of pre-training
   * for 14.8T tokens (Table 1), i.e. 1,543 tokens/s per GPU, on 2,048 H800
   * (§3.1), PP 16, EP 64 over 8 nodes, ZeRO-1 DP, no TP (§3.2), FP8
   * (§3.3), RMSNorm and MLA up-projections recomputed (§3.2.3: selective
   * for MLA), batch 15,360 of 4K tokens (§4.2, after the ramp). DualPipe
   * hides the all-to-all behind compute (§3.2.1), which the model prices in
   * the open (about a quarter of its step), and it still comes out a few
   * percent fast: its compute side is optimistic here by about what
   * DualPipe hides, right in sum for partly the wrong reasons. */
  { "deepseek-v3",                    PRESET ("deepseek-v3"), "h800-sxm-80gb", "dgx-h100", "ib-ndr-400",
    2048, 1, 16, 1, 0, 0, 15360, 4096, SEL, FALSE, 1, FP8, STACK_MCORE_2024, BASIS_TOKENS, 14.8e12 / (2.664e6 * 3600),
    NULL, 0, 0, FALSE, 64 },
  /* Llama 3 Table 4: TFLOPs/GPU 430 (8,192 GPUs), 400 (16,384), 380
   * (16,384, CP 16, 131,072-token sequences); 16M tokens per batch. */
  { "llama3-405b-8k",                 PRESET ("llama-3.1-405b"), H100_ROCE,  8192, 8, 16,  1, 0, 1, 2048,   8192, NONE, TRUE, 2, BF16, STACK_META_2024, BASIS_TFLOPS, 430,
    "32 micro-batches per pipeline: 1F1B's bubble alone is 15/32 of the ideal step, so 430 TF needs "
    "interleaving; without activation checkpointing Megatron's interleaved warm-up (47 chunks in flight on stage 0 "
    "at v = 2) does not fit 80 GB by Korthikanti's tensor list, so the model keeps v = 1. Llama 3's schedule with "
    "a flexible micro-batch group (§3.3.2, Fig. 6) must keep fewer in flight; it is not modelled" },
  { "llama3-405b-16k",                PRESET ("llama-3.1-405b"), H100_ROCE, 16384, 8, 16,  1, 0, 1, 2048,   8192, NONE, TRUE, 2, BF16, STACK_META_2024, BASIS_TFLOPS, 400, NULL },
  { "llama3-405b-16k-cp16",           PRESET ("llama-3.1-405b"), H100_ROCE, 16384, 8, 16, 16, 0, 1,  128, 131072, NONE, TRUE, 2, BF16, STACK_META_2024, BASIS_TFLOPS, 380, NULL },
};

static void
row_problem (const Row         *r,
             QmParallelProblem *pb,
             QmParallelLayout  *l)
{
  problem_init (pb, r->gpu, r->server, r->network, r->gpus);
  if (r->family == FAMILY_PRESET)
    pb->shape = qm_catalog_model (r->preset)->shape;
  else
    pb->shape = r->family == FAMILY_GPT ? gpt_shape (r->layers, r->hidden, r->heads)
                                        : mpt_shape (r->layers, r->hidden, r->heads, r->seq_len);
  pb->precision = r->precision;
  pb->seq_len = r->seq_len;
  pb->global_batch = r->global_batch;
  switch (r->stack)
    {
    case STACK_MEGATRON_2021:
      pb->flash_attention = FALSE;
      pb->fp32_grad_buffer = TRUE;
      pb->overlap_dp = FALSE;
      break;
    case STACK_FOUNDRY_2023:
      pb->flash_attention = TRUE;
      pb->overlap_dp = TRUE;
      break;
    case STACK_MCORE_2024:
      pb->flash_attention = TRUE;
      pb->fp32_grad_buffer = TRUE;
      pb->overlap_dp = TRUE;
      pb->tp_overlap = QM_TP_OVERLAP_PIPELINED;
      break;
    case STACK_NEOX_2022:
      pb->flash_attention = TRUE;
      pb->overlap_dp = TRUE;
      break;
    case STACK_META_2024:
    default:
      pb->flash_attention = TRUE;
      pb->overlap_dp = TRUE;
      break;
    }
  if (r->no_flash)
    pb->flash_attention = FALSE;
  if (r->nics > 0)
    {
      pb->server.nics = r->nics;
      pb->server.nic_gbps = r->nic_gbps;
    }
  pb->sequence_parallel = r->sp;

  memset (l, 0, sizeof *l);
  l->tp = r->tp;
  l->pp = r->pp;
  l->cp = r->cp;
  l->ep = MAX (r->ep, 1u);
  l->dp = r->gpus / (r->tp * r->pp * r->cp);
  l->micro_batch = MAX (r->mb, 1u);
  l->n_micro = r->global_batch / (l->micro_batch * l->dp);
  l->virtual_stages = MAX (r->v, 1u);
  l->zero_stage = r->zero;
  l->recompute = r->recompute;
  l->sequence_parallel = r->sp && r->tp > 1;
}

/* Price a row at its published layout; the knobs the publication does not
 * give (micro-batch, interleaving: 0 in the row) are the search's best, as
 * the authors tuned them. FALSE when it does not fit. */
static gboolean
row_time (const Row         *r,
          double             kernel_efficiency,
          double             comm_overlap,
          QmParallelTime    *t,
          QmMemoryBreakdown *mem,
          QmParallelLayout  *out_layout)
{
  QmParallelProblem pb;
  QmParallelLayout l;
  QmParallelSearch *res;
  gboolean ok;

  row_problem (r, &pb, &l);
  pb.kernel_efficiency = kernel_efficiency;
  pb.comm_overlap = comm_overlap;
  if (r->mb > 0 && r->v > 0)
    {
      g_assert_true (qm_parallel_step_time (&pb, &l, t));
      qm_parallel_memory (&pb, &l, mem);
      *out_layout = l;
      return TRUE;
    }
  pb.tp = r->tp;
  pb.pp = r->pp;
  pb.cp = r->cp;
  pb.ep = MAX (r->ep, 1u);
  pb.virtual_stages = r->v;
  pb.micro_batch = r->mb;
  pb.search_micro_batch = r->mb == 0;
  pb.zero_stage = r->zero;
  pb.recompute = r->recompute;
  res = g_new0 (QmParallelSearch, 1);
  qm_parallel_search (&pb, 1, res);
  ok = res->n > 0;
  if (ok)
    {
      *t = res->top[0].time;
      *mem = res->top[0].memory;
      *out_layout = res->top[0].layout;
    }
  g_free (res);
  return ok;
}

static double
row_predicted (const Row            *r,
               const QmParallelTime *t)
{
  QmGpuSpec gpu = *qm_catalog_gpu (r->gpu);

  switch (r->basis)
    {
    case BASIS_HFU:
      return t->hfu;
    case BASIS_TFLOPS:
      return t->mfu * qm_compute_peak_flops (&gpu, r->precision) / 1e12;
    case BASIS_TOKENS:
      return t->tokens_per_s / r->gpus;
    case BASIS_MFU_6ND:
      {
        QmModelShape sh = qm_catalog_model (r->preset)->shape;
        QmTrainingFlops tf;

        qm_compute_training_flops (&sh, 1e9, r->seq_len, QM_RECOMPUTE_NONE, &tf);
        return t->mfu * tf.flops_6nd / tf.model_flops;
      }
    case BASIS_MFU:
    default:
      return t->mfu;
    }
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median_of (const double *v,
           guint         n)
{
  double *sorted = g_memdup2 (v, n * sizeof (double));
  double m;

  g_assert_cmpuint (n, >, 0);
  qsort (sorted, n, sizeof (double), cmp_double);
  m = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  g_free (sorted);
  return m;
}

/* Signed relative error of every row of one half (index parity), at a
 * kernel efficiency; a row that does not fit counts as 100% off. */
static guint
half_errors (guint    half,
             double   kernel_efficiency,
             double   comm_overlap,
             gboolean print,
             double  *errs)
{
  guint n = 0;

  for (guint i = half; i < G_N_ELEMENTS (rows); i += 2)
    {
      const Row *r = &rows[i];
      QmParallelTime t = { 0 };
      QmMemoryBreakdown mem = { 0 };
      QmParallelLayout l = { 0 };
      double pred = 0;

      if (row_time (r, kernel_efficiency, comm_overlap, &t, &mem, &l))
        pred = row_predicted (r, &t);
      errs[n++] = (pred - r->published) / r->published;
      if (print)
        g_test_message ("%-30s %6s %8.3f %8.3f %+6.1f%%  v%u mb%u step %.2f s (compute %.2f tp %.2f pp %.2f "
                        "dp %.2f zero %.2f cp %.2f bubble %.2f rec %.2f) mem %.1f/%.1f GB%s%s",
                        r->id, r->basis == BASIS_HFU ? "HFU" : r->basis == BASIS_TFLOPS ? "TF/s"
                        : r->basis == BASIS_MFU_6ND ? "MFU6ND" : r->basis == BASIS_TOKENS ? "tok/s" : "MFU",
                        r->published, pred, 100.0 * errs[n - 1], l.virtual_stages, l.micro_batch,
                        t.step, t.compute, t.tp_comm, t.pp_comm, t.dp_comm, t.zero_comm, t.cp_comm,
                        t.bubble, t.recompute, mem.total / 1e9, mem.capacity / 1e9,
                        r->odd ? "  ODD: " : "", r->odd ? r->odd : "");
    }
  return n;
}

static double
median_abs (const double *errs,
            guint         n)
{
  double a[G_N_ELEMENTS (rows)] = { 0 };

  for (guint i = 0; i < n; i++)
    a[i] = fabs (errs[i]);
  return median_of (a, n);
}

/* The two fitted constants (kernel efficiency, hidden fraction of
 * overlapped communication), fitted on one half: the pair with the
 * smallest median error there, on a grid. */
static void
fit_half (guint   half,
          double *kernel_efficiency,
          double *comm_overlap)
{
  double errs[G_N_ELEMENTS (rows)];
  double best_med = G_MAXDOUBLE;

  for (double o = 0.2; o <= 0.9001; o += 0.1)
    for (double k = 0.70; k <= 1.0001; k += 0.01)
      {
        guint n = half_errors (half, k, o, FALSE, errs);
        double m = median_abs (errs, n);

        if (m < best_med)
          {
            best_med = m;
            *kernel_efficiency = k;
            *comm_overlap = o;
          }
      }
}

/* Validation that cannot be fitted to: fit the two constants on one half
 * of the published runs (alternate rows), report the other half at those
 * values, and the reverse. The held-back half's median error must stay
 * under 15% and every held-back row under 35%, but for the rows marked
 * odd (at most a sixth of them), which say why. */
static void
test_published_split (void)
{
  double all[G_N_ELEMENTS (rows)];
  guint n_all = 0;

  for (guint half = 0; half < 2; half++)
    {
      double errs[G_N_ELEMENTS (rows)];
      double k = 0, o = 0, med, worst = 0;
      guint n;

      fit_half (1 - half, &k, &o);
      g_test_message ("fitted on half %u: kernel efficiency %.2f, communication hidden %.1f (the constants are "
                      "0.88 and 0.5); held-back half %u:", 1 - half, k, o, half);
      g_test_message ("%-30s %6s %8s %8s %7s", "row", "basis", "published", "predicted", "error");
      n = half_errors (half, k, o, TRUE, errs);
      med = median_abs (errs, n);
      for (guint i = 0; i < n; i++)
        {
          worst = MAX (worst, fabs (errs[i]));
          all[n_all++] = errs[i];
        }
      g_test_message ("held-back half %u: median |error| %.1f%%, worst %.1f%% (odd rows included) over %u rows",
                      half, 100.0 * med, 100.0 * worst, n);
      g_assert_cmpfloat (med, <, 0.15);
      /* Every row within 35%, except those whose published number the
       * physics disagrees with, each saying why (printed, and counted in
       * the medians). */
      for (guint i = 0, r = half; i < n; i++, r += 2)
        if (rows[r].odd == NULL)
          g_assert_cmpfloat (fabs (errs[i]), <, 0.35);
    }
  {
    guint n_odd = 0;

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      n_odd += rows[i].odd != NULL;
    g_assert_cmpuint (n_odd, <=, G_N_ELEMENTS (rows) / 6);
  }
  g_test_message ("all rows held back once: median |error| %.1f%% over %u rows",
                  100.0 * median_abs (all, n_all), n_all);
}

/* At the shipped constant, every row printed, with the error summary. */
static void
test_published_accuracy (void)
{
  double errs[G_N_ELEMENTS (rows)], all[G_N_ELEMENTS (rows)];
  guint n_all = 0;

  for (guint half = 0; half < 2; half++)
    {
      guint n = half_errors (half, 0, 0, TRUE, errs);

      for (guint i = 0; i < n; i++)
        all[n_all++] = errs[i];
    }
  g_test_message ("shipped constant: median |error| %.1f%% over %u rows", 100.0 * median_abs (all, n_all),
                  n_all);
  g_assert_cmpfloat (median_abs (all, n_all), <, 0.15);
}

/* One micro-batch of 16k tokens of MPT-7B on one A100, at sequence length
 * 2048 and 16384: the attention core's share of the FLOPs grows with s
 * (4·s·h against 24·h² per token per layer, 8% to 40%). FlashAttention
 * runs it below the GEMM rate, so MFU falls with s at a fixed token count;
 * without FlashAttention the matmuls run at the GEMM rate and the s×s
 * score traffic is what costs. */
static void
one_a100_micro_batch (guint           seq_len,
                      gboolean        flash,
                      QmMode          mode,
                      QmParallelTime *out)
{
  QmParallelProblem pb;
  QmParallelLayout l;

  problem_init (&pb, "a100-sxm-80gb", "dgx-a100", "eth-400g", 1);
  pb.shape = mpt_shape (32, 4096, 32, seq_len);
  pb.mode = mode;
  pb.lora_rank = 16;
  pb.seq_len = seq_len;
  pb.global_batch = 16384 / seq_len;
  pb.flash_attention = flash;
  memset (&l, 0, sizeof l);
  l.tp = l.pp = l.cp = l.ep = l.dp = 1;
  l.micro_batch = pb.global_batch;
  l.n_micro = 1;
  l.virtual_stages = 1;
  l.recompute = QM_RECOMPUTE_NONE;
  g_assert_true (qm_parallel_step_time (&pb, &l, out));
}

static double
long_sequence_mfu (guint    seq_len,
                   gboolean flash)
{
  QmParallelTime t;

  one_a100_micro_batch (seq_len, flash, QM_MODE_PRETRAIN, &t);
  return t.mfu;
}

static void
test_flash_attention_rate (void)
{
  double short_s = long_sequence_mfu (2048, TRUE), long_s = long_sequence_mfu (16384, TRUE);

  g_test_message ("MPT-7B, 1 x A100, FlashAttention: MFU %.3f at 2048, %.3f at 16384", short_s, long_s);
  g_assert_cmpfloat (long_s, <, 0.95 * short_s);
  g_assert_cmpfloat (long_s, >, 0.7 * short_s);
  /* The fused kernel is still faster than unfused attention at 16k. */
  g_assert_cmpfloat (long_s, >, long_sequence_mfu (16384, FALSE));
}

/* The compute seconds of that micro-batch, full fine-tuning or LoRA,
 * without FlashAttention. */
static double
unfused_compute_seconds (guint  seq_len,
                         QmMode mode)
{
  QmParallelTime t;

  one_a100_micro_batch (seq_len, FALSE, mode, &t);
  return t.compute;
}

/* A frozen (LoRA) base skips the weight gradients of its GEMMs, nothing
 * else: the attention core multiplies activations by activations, and its
 * backward needs the gradients of both operands either way. So what LoRA
 * saves over full fine-tuning is the weight-gradient GEMMs, the same per
 * token at any sequence length, while attention grows with it. */
static void
test_lora_attention_backward (void)
{
  double saved_2k = unfused_compute_seconds (2048, QM_MODE_FINETUNE) - unfused_compute_seconds (2048, QM_MODE_LORA);
  double saved_16k = unfused_compute_seconds (16384, QM_MODE_FINETUNE) - unfused_compute_seconds (16384, QM_MODE_LORA);

  g_test_message ("LoRA saves %.4f s at 2048 and %.4f s at 16384 per 16k tokens", saved_2k, saved_16k);
  g_assert_cmpfloat (saved_2k, >, 0.0);
  g_assert_cmpfloat (fabs (saved_16k / saved_2k - 1.0), <, 1e-9);
}

/* The published layouts of the MosaicML rows are "fit" validation points. */
static void
test_published_layouts_fit (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      QmParallelProblem pb;
      QmParallelLayout l;
      QmMemoryBreakdown mem;

      if (rows[i].family != FAMILY_MPT)
        continue;
      row_problem (&rows[i], &pb, &l);
      qm_parallel_memory (&pb, &l, &mem);
      if (!mem.fits)
        g_test_message ("%s: %.1f GB does not fit %.0f GB", rows[i].id, mem.total / 1e9,
                        mem.capacity / 1e9);
      g_assert_true (mem.fits);
    }
}

static void
small_problem (QmParallelProblem *pb,
               const char        *model,
               guint              gpus,
               guint              global_batch)
{
  problem_init (pb, "a100-sxm-80gb", "dgx-a100", "ib-hdr-200", gpus);
  pb->shape = qm_catalog_model (model)->shape;
  pb->seq_len = 4096;
  pb->global_batch = global_batch;
  pb->flash_attention = TRUE;
  pb->sequence_parallel = TRUE;
  pb->search_zero = TRUE;
  pb->search_recompute = TRUE;
  pb->search_micro_batch = TRUE;
}

static void
assert_same_results (const QmParallelProblem *pb,
                     guint                    top_n)
{
  QmParallelProblem ex = *pb;
  QmParallelSearch *a = g_new0 (QmParallelSearch, 1);
  QmParallelSearch *b = g_new0 (QmParallelSearch, 1);

  qm_parallel_search (pb, top_n, a);
  ex.no_prune = TRUE;
  qm_parallel_search (&ex, top_n, b);
  g_test_message ("%u GPUs: pruned search evaluated %" G_GUINT64_FORMAT " layouts, exhaustive %"
                  G_GUINT64_FORMAT, pb->gpus, a->evaluated, b->evaluated);
  g_assert_cmpuint (a->n, ==, b->n);
  g_assert_cmpuint (a->evaluated, <=, b->evaluated);
  for (guint i = 0; i < a->n; i++)
    {
      g_assert_cmpmem (&a->top[i].layout, sizeof a->top[i].layout,
                       &b->top[i].layout, sizeof b->top[i].layout);
      g_assert_cmpfloat (a->top[i].time.step, ==, b->top[i].time.step);
    }
  g_free (a);
  g_free (b);
}

static void
test_pruned_equals_exhaustive (void)
{
  QmParallelProblem pb;

  small_problem (&pb, "llama-2-7b", 16, 64);
  assert_same_results (&pb, 8);
  small_problem (&pb, "llama-3.1-70b", 64, 256);
  assert_same_results (&pb, 5);
  small_problem (&pb, "mixtral-8x7b", 32, 128);
  assert_same_results (&pb, 4);
  small_problem (&pb, "gpt-3-175b", 128, 512);
  pb.seq_len = 2048;
  assert_same_results (&pb, QM_PARALLEL_MAX_TOP);
}

/* Every result fits, divides the batch, and the list is sorted. */
static void
test_search_results_valid (void)
{
  QmParallelProblem pb;
  QmParallelSearch *res = g_new0 (QmParallelSearch, 1);

  small_problem (&pb, "llama-3.1-70b", 256, 512);
  qm_parallel_search (&pb, 10, res);
  g_assert_cmpuint (res->n, ==, 10);
  for (guint i = 0; i < res->n; i++)
    {
      const QmParallelLayout *l = &res->top[i].layout;

      g_assert_true (res->top[i].memory.fits);
      g_assert_cmpuint (l->tp * l->pp * l->dp * l->cp, ==, 256);
      g_assert_cmpuint (l->micro_batch * l->n_micro * l->dp, ==, 512);
      g_assert_cmpfloat (res->top[i].time.mfu, >, 0.2);
      g_assert_cmpfloat (res->top[i].time.mfu, <, pb.gpu.mamf_fraction);
      if (i > 0)
        g_assert_cmpfloat (res->top[i].time.step, >=, res->top[i - 1].time.step);
    }
  g_test_message ("70B on 256 A100: best tp %u pp %u dp %u mb %u v %u ZeRO-%u %s, MFU %.3f",
                  res->top[0].layout.tp, res->top[0].layout.pp, res->top[0].layout.dp,
                  res->top[0].layout.micro_batch, res->top[0].layout.virtual_stages,
                  res->top[0].layout.zero_stage,
                  qm_recompute_to_string (res->top[0].layout.recompute), res->top[0].time.mfu);
  g_free (res);
}

static void
test_no_fit (void)
{
  QmParallelProblem pb;
  QmParallelSearch *res = g_new0 (QmParallelSearch, 1);
  char buf[512];

  /* 405B on 8 GPUs: nothing fits; more GPUs and a bigger GPU would. */
  small_problem (&pb, "llama-3.1-405b", 8, 64);
  qm_parallel_search (&pb, 4, res);
  g_assert_cmpuint (res->n, ==, 0);
  g_assert_true (res->no_fit.valid);
  g_assert_cmpfloat (res->no_fit.shortfall_bytes, >, 0);
  g_assert_true (res->no_fit.fixes & QM_PARALLEL_FIX_MORE_GPUS);
  g_assert_true (res->no_fit.fixes & QM_PARALLEL_FIX_BIGGER_GPU);
  g_assert_cmpuint (res->no_fit.fix_gpus, >, 8);
  g_assert_cmpfloat (res->no_fit.fix_capacity_bytes, >, 80e9);
  g_test_message ("%s", qm_parallel_no_fit_format (&res->no_fit, buf, sizeof buf));

  /* 70B on 32 GPUs with tp 8, pp 2 (dp 2) and ZeRO-0 fixed: 16 B/param
   * over 16 model-parallel ranks is 70 GB; ZeRO-3 over dp halves it, and
   * a deeper pipeline (auto) would fit too. */
  small_problem (&pb, "llama-3.1-70b", 32, 64);
  pb.search_zero = pb.search_recompute = FALSE;
  pb.zero_stage = 0;
  pb.recompute = QM_RECOMPUTE_SELECTIVE;
  pb.tp = 8;
  pb.pp = 2;
  pb.cp = 1;
  qm_parallel_search (&pb, 4, res);
  g_assert_cmpuint (res->n, ==, 0);
  g_assert_true (res->no_fit.valid);
  g_assert_true (res->no_fit.fixes & QM_PARALLEL_FIX_ZERO3);
  g_assert_true (res->no_fit.fixes & QM_PARALLEL_FIX_MODEL_PARALLEL);
  g_test_message ("%s", qm_parallel_no_fit_format (&res->no_fit, buf, sizeof buf));

  /* A global batch no layout divides. */
  small_problem (&pb, "llama-2-7b", 16, 3);
  pb.tp = pb.pp = pb.cp = 1;
  qm_parallel_search (&pb, 4, res);
  g_assert_cmpuint (res->n, ==, 0);
  g_assert_true (res->no_fit.fixes & QM_PARALLEL_FIX_GLOBAL_BATCH);
  g_free (res);
}

static void
test_curve (void)
{
  QmParallelProblem pb;
  guint counts[64];
  QmParallelCurvePoint pts[64];
  QmParallelCurve curve;
  guint n;

  /* 70B, 4M-token batches: compute bound from 64 to 1024 GPUs, so the
   * time must fall monotonically; past dp = batch it cannot scale. */
  small_problem (&pb, "llama-3.1-70b", 0, 1024);
  n = qm_parallel_curve_counts (64, 1024, 8, 5, counts);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpuint (counts[0], ==, 64);
  g_assert_cmpuint (counts[4], ==, 1024);
  qm_parallel_curve (&pb, 1e12, counts, n, pts, &curve);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (pts[i].fits);
      g_test_message ("%5u GPUs: %.1f days, MFU %.3f, speed-up/doubling %.2f", pts[i].gpus,
                      pts[i].train_s / 86400, pts[i].mfu, pts[i].speedup);
    }
  g_assert_true (curve.monotone);

  /* Knee: a small global batch (64 sequences) stops paying early. */
  small_problem (&pb, "llama-2-7b", 0, 64);
  n = qm_parallel_curve_counts (8, 4096, 8, 10, counts);
  qm_parallel_curve (&pb, 1e11, counts, n, pts, &curve);
  for (guint i = 0; i < n; i++)
    g_test_message ("%5u GPUs: fits %d, %.2f h, MFU %.3f, speed-up/doubling %.2f%s", pts[i].gpus,
                    pts[i].fits, pts[i].train_s / 3600, pts[i].mfu, pts[i].speedup,
                    i == curve.knee ? "  <- knee" : "");
  g_assert_cmpuint (curve.knee, <, n);
  g_assert_cmpuint (curve.knee, >, 0);
  g_assert_cmpfloat (pts[curve.knee].speedup, <, QM_PARALLEL_KNEE_SPEEDUP);
  /* Before the knee a larger count still pays, per doubling; from the
   * knee itself (the point before curve.knee) none does. */
  for (guint i = 0; i < curve.knee; i++)
    {
      gboolean later_pays = FALSE;

      for (guint j = i + 1; j < n; j++)
        later_pays |= pow (pts[i].train_s / pts[j].train_s,
                           1.0 / log2 ((double) pts[j].gpus / pts[i].gpus)) >= QM_PARALLEL_KNEE_SPEEDUP;
      g_assert_true (later_pays == (i + 1 < curve.knee));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/parallel/published-accuracy", test_published_accuracy);
  g_test_add_func ("/parallel/published-split", test_published_split);
  g_test_add_func ("/parallel/flash-attention-rate", test_flash_attention_rate);
  g_test_add_func ("/parallel/lora-attention-backward", test_lora_attention_backward);
  g_test_add_func ("/parallel/published-layouts-fit", test_published_layouts_fit);
  g_test_add_func ("/parallel/pruned-equals-exhaustive", test_pruned_equals_exhaustive);
  g_test_add_func ("/parallel/search-results-valid", test_search_results_valid);
  g_test_add_func ("/parallel/no-fit", test_no_fit);
  g_test_add_func ("/parallel/curve", test_curve);
  return g_test_run ();
}
