/* test-parallel.c: the throughput model against published runs, and the
 * layout search (pruned == exhaustive, no-fit explanation, the curve).
 *
 * Published runs: tests/data/training-runs.tsv, one row per run with its
 * provenance (papers, engine performance pages, training logs). Layouts
 * are the published ones; the model predicts the rest. The split and the
 * leave-one-source-out validations fit the two fitted constants on some
 * sources and report the others; the latter writes the training section
 * of docs/accuracy.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-compute.h"
#include "qm-parallel.h"
#include "qm-test-accuracy.h"
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
  /* Megatron-LM 2021–22 (and Megatron-DeepSpeed of BLOOM and MT-NLG):
   * fused softmax, no FlashAttention, fp32 main_grad, the DP all-reduce
   * after the last backward, TP in the open. */
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
   * attention-config asks for it (the row's flash column otherwise). */
  STACK_NEOX_2022,
  /* torchtitan (pytorch/torchtitan docs/fsdp.md, 2024-12): FSDP2 with
   * bf16 parameters and fp32 gradient reduce-scatter (its default
   * mixed_precision_reduce), prefetch overlapped with compute, SDPA flash
   * attention; TP overlap only where the row says AsyncTP. */
  STACK_TORCHTITAN_2024,
} Stack;

typedef enum
{
  TP_OVERLAP_STACK,     /* "-": what the stack does */
  TP_OVERLAP_NONE,
  TP_OVERLAP_BULK,      /* Megatron --tp-comm-overlap bulk (wgrad/dgrad) */
  TP_OVERLAP_PIPELINED, /* userbuffers ring exchange, PyTorch AsyncTP */
} TpOverlap;

/* One published run: a row of tests/data/training-runs.tsv. */
typedef struct
{
  char        *id;
  char        *source;     /* the publication; leave-one-source-out groups by it */
  Family       family;
  char        *preset;     /* FAMILY_PRESET */
  guint        layers, hidden, heads;
  char        *gpu, *server, *network;
  /* 0 = the catalog's: compute-fabric NICs per node and their speed. */
  guint        nics, nic_gbps;
  guint        gpus, tp, pp, cp, ep;
  guint        zero;
  guint        shard_group;      /* 0 = all DP ranks */
  guint        v;                /* virtual stages; 0 = unpublished, the search picks */
  guint        mb;               /* micro-batch; 0 = unpublished, the search picks */
  guint        global_batch, seq_len;
  QmRecompute  recompute;
  gboolean     recompute_auto;   /* unpublished: the search picks */
  guint        recompute_layers; /* 0 = as recompute says, for every layer */
  gboolean     sp;
  TpOverlap    tp_overlap;
  gboolean     flash;
  QmPrecision  precision;
  QmMode       mode;
  guint        lora_rank;
  QmLoraTargets lora_targets;   /* "-": all */
  gboolean     fp8_weights;
  Stack        stack;
  Basis        basis;
  double       published;
  char        *provenance;
  char        *odd;              /* why the physics disagrees, or NULL */
} Row;

static Row  *rows;
static guint n_rows;

#define TSV_COLUMNS 39

static guint
tsv_uint (const char *s,
          guint       dflt)
{
  guint64 v = 0;

  if (g_strcmp0 (s, "-") == 0 || g_strcmp0 (s, "auto") == 0)
    return dflt;
  g_assert_true (g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT, &v, NULL));
  return (guint) v;
}

static gboolean
tsv_bool (const char *s)
{
  g_assert_true (g_strcmp0 (s, "yes") == 0 || g_strcmp0 (s, "no") == 0);
  return g_strcmp0 (s, "yes") == 0;
}

static int
tsv_enum (const char         *s,
          const char * const *names)
{
  for (int i = 0; names[i]; i++)
    if (g_strcmp0 (s, names[i]) == 0)
      return i;
  g_error ("training-runs.tsv: unknown value '%s'", s);
  return -1;
}

/* Every row of tests/data/training-runs.tsv, checked against the catalog:
 * one definition of each published run. */
static void
load_rows (void)
{
  static const char * const stacks[] = { "megatron-2021", "foundry-2023", "mcore-2024", "meta-2024",
                                         "neox-2022", "torchtitan-2024", NULL };
  static const char * const bases[] = { "mfu", "hfu", "tflops", "mfu6nd", "tokens", NULL };
  static const char * const overlaps[] = { "-", "none", "bulk", "pipelined", NULL };
  static const char * const header[TSV_COLUMNS] = {
    "id", "source", "model", "layers", "hidden", "heads", "gpu", "server", "network", "nics", "nic_gbps",
    "gpus", "tp", "pp", "cp", "ep", "zero", "shard_group", "v", "mb", "global_batch", "seq_len",
    "recompute", "recompute_layers", "sp", "tp_overlap", "flash", "precision", "mode", "lora_rank",
    "lora_targets", "fp8_weights", "stack", "basis", "published", "provenance", "date_read", "odd", "notes",
  };
  const char *src = g_getenv ("QM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : "..", "tests", "data", "training-runs.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *arr = g_array_new (FALSE, TRUE, sizeof (Row));
  gboolean seen_header = FALSE;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) f = NULL;
      Row r = { 0 };

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), ==, TSV_COLUMNS);
      if (!seen_header)
        {
          for (guint c = 0; c < TSV_COLUMNS; c++)
            g_assert_cmpstr (f[c], ==, header[c]);
          seen_header = TRUE;
          continue;
        }
      r.id = g_strdup (f[0]);
      g_assert_false (g_hash_table_contains (ids, r.id));
      g_hash_table_add (ids, r.id);
      r.source = g_strdup (f[1]);
      if (g_strcmp0 (f[2], "gpt") == 0 || g_strcmp0 (f[2], "mpt") == 0)
        {
          r.family = f[2][0] == 'g' ? FAMILY_GPT : FAMILY_MPT;
          r.layers = tsv_uint (f[3], 0);
          r.hidden = tsv_uint (f[4], 0);
          r.heads = tsv_uint (f[5], 0);
          g_assert_cmpuint (r.layers * r.hidden * r.heads, >, 0);
        }
      else
        {
          r.family = FAMILY_PRESET;
          r.preset = g_strdup (f[2]);
          g_assert_nonnull (qm_catalog_model (r.preset));
        }
      r.gpu = g_strdup (f[6]);
      r.server = g_strdup (f[7]);
      r.network = g_strdup (f[8]);
      g_assert_nonnull (qm_catalog_gpu (r.gpu));
      g_assert_nonnull (qm_catalog_server (r.server));
      g_assert_nonnull (qm_catalog_network (r.network));
      r.nics = tsv_uint (f[9], 0);
      r.nic_gbps = tsv_uint (f[10], 0);
      r.gpus = tsv_uint (f[11], 0);
      r.tp = tsv_uint (f[12], 0);
      r.pp = tsv_uint (f[13], 0);
      r.cp = tsv_uint (f[14], 0);
      r.ep = tsv_uint (f[15], 1);
      g_assert_cmpuint (r.tp * r.pp * r.cp, >, 0);
      g_assert_cmpuint (r.gpus % (r.tp * r.pp * r.cp), ==, 0);
      r.zero = tsv_uint (f[16], 0);
      r.shard_group = tsv_uint (f[17], 0);
      r.v = tsv_uint (f[18], 0);
      r.mb = tsv_uint (f[19], 0);
      r.global_batch = tsv_uint (f[20], 0);
      r.seq_len = tsv_uint (f[21], 0);
      g_assert_cmpuint (r.global_batch * r.seq_len, >, 0);
      r.recompute_auto = g_strcmp0 (f[22], "auto") == 0;
      if (!r.recompute_auto)
        g_assert_true (qm_recompute_from_string (f[22], &r.recompute));
      r.recompute_layers = tsv_uint (f[23], 0);
      r.sp = tsv_bool (f[24]);
      r.tp_overlap = tsv_enum (f[25], overlaps);
      r.flash = tsv_bool (f[26]);
      g_assert_true (qm_precision_from_string (f[27], &r.precision));
      g_assert_true (qm_mode_from_string (f[28], &r.mode));
      r.lora_rank = tsv_uint (f[29], 0);
      g_assert_true ((r.mode == QM_MODE_LORA) == (r.lora_rank > 0));
      if (g_strcmp0 (f[30], "-") != 0)
        g_assert_true (qm_lora_targets_from_string (f[30], &r.lora_targets));
      r.fp8_weights = g_strcmp0 (f[31], "-") != 0 && tsv_bool (f[31]);
      r.stack = tsv_enum (f[32], stacks);
      r.basis = tsv_enum (f[33], bases);
      r.published = g_ascii_strtod (f[34], NULL);
      g_assert_cmpfloat (r.published, >, 0);
      g_assert_cmpuint (strlen (f[35]), >, 10);    /* provenance */
      g_assert_true (g_regex_match_simple ("^20[0-9][0-9]-[01][0-9]-[0-3][0-9]$", f[36], 0, 0));
      r.provenance = g_strdup (f[35]);
      r.odd = g_strcmp0 (f[37], "-") == 0 ? NULL : g_strdup (f[37]);
      g_array_append_val (arr, r);
    }
  g_assert_true (seen_header);
  n_rows = arr->len;
  rows = (Row *) g_array_free (arr, FALSE);
}

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
  pb->mode = r->mode;
  pb->lora_rank = r->lora_rank;
  pb->lora_targets = r->lora_targets;
  pb->fp8_weights = r->fp8_weights;
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
    case STACK_TORCHTITAN_2024:
      pb->flash_attention = TRUE;
      pb->fp32_grad_buffer = TRUE;
      pb->overlap_dp = TRUE;
      break;
    case STACK_META_2024:
    default:
      pb->flash_attention = TRUE;
      pb->overlap_dp = TRUE;
      break;
    }
  if (!r->flash)
    pb->flash_attention = FALSE;
  /* The row's TP overlap where it says one (AsyncTP, userbuffers), its
   * HSDP shard group and how many layers it recomputes in full. */
  if (r->tp_overlap == TP_OVERLAP_NONE)
    pb->tp_overlap = QM_TP_OVERLAP_NONE;
  else if (r->tp_overlap == TP_OVERLAP_BULK)
    pb->tp_overlap = QM_TP_OVERLAP_BULK;
  else if (r->tp_overlap == TP_OVERLAP_PIPELINED)
    pb->tp_overlap = QM_TP_OVERLAP_PIPELINED;
  pb->shard_group = r->shard_group;
  pb->recompute = r->recompute_auto ? QM_RECOMPUTE_SELECTIVE : r->recompute;
  pb->recompute_layers = r->recompute_layers;
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
  l->recompute = r->recompute_auto ? QM_RECOMPUTE_SELECTIVE : r->recompute;
  l->sequence_parallel = r->sp && r->tp > 1;
}

/* Price a row at its published layout; the knobs the publication does not
 * give (micro-batch, interleaving, recompute: "auto" in the row) are the
 * search's best, as the authors tuned them. FALSE when it does not fit. */
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
  if (r->mb > 0 && r->v > 0 && !r->recompute_auto)
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
  pb.search_recompute = r->recompute_auto;
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

static double
median_abs (const double *errs,
            guint         n)
{
  g_autofree double *a = g_new (double, MAX (n, 1u));

  for (guint i = 0; i < n; i++)
    a[i] = fabs (errs[i]);
  return median_of (a, n);
}

/* A column the row publishes that the model cannot read yet (another
 * branch adds it): the row is priced without it and says so. */
static const char *
row_pending_mechanism (const Row *r)
{
  return NULL;
}

/* Runs the model does not reproduce yet, each with the mechanism it
 * needs (issue #32). They stay in tests/data/training-runs.tsv, are
 * priced and printed with the rest and counted in every median; only the
 * per-row bounds (35%, fits where it ran) skip them, and a row that
 * meets them again is reported so that its line here can go. */
typedef struct
{
  const char *id;
  const char *mechanism;
} KnownGap;

/* The torchtitan 8B FSDP rows (pytorch/torchtitan docs/performance.md @eaea6f6a, Tables 1
 * and 3) are not an FSDP gap: the measured throughput on 8 GPUs (NVLink)
 * and on 128 (RoCE) differs by 2-3% (5,762/5,605, 6,667/6,514,
 * 8,532/8,380 TPS/GPU), and the model's exposed per-layer FSDP traffic is
 * 0.08 and 0.15 s of a 1.85-1.91 s step. What is left is on the GPU:
 * those runs used H100 96GB HBM2e at 2.4 TB/s under the default 500 W
 * limit (the doc: "the actual peak TFLOPs number is between SXM and
 * NVL"), priced here as the catalog's 80GB SXM at 3.35 TB/s and 700 W. On
 * 2.4 TB/s and the H100 NVL's dense peak (835 of 989 TFLOPs), the same
 * layouts come out +11-13% (compile rows), not +32-35% (2026-11-28, by
 * hand through qm_parallel_step_time()): a catalog part, not a mechanism.
 * The rows also do not fit (memory: item 4). */
#define GAP_FSDP "the GPU that ran: H100 96GB HBM2e, 2.4 TB/s, 500 W limit, peak between SXM and NVL (torchtitan " \
                 "pytorch/torchtitan docs/performance.md), priced as the 80GB SXM (3.35 TB/s, 700 W): about +20 of the +32-35%; not " \
                 "FSDP traffic (8 and 128 GPUs measured within 3%); and the memory of a run that ran (issue #32 item 4)"
/* torchtitan's context parallelism (same GPU as above) is PyTorch's
 * (torch/distributed/tensor/experimental/_attention.py at torch 1963fc8,
 * 2024-12-23): K/V all-gathered once per layer (_AllGatherRotater, the
 * default), issued at step 0 and awaited at step 1, so only the diagonal
 * block covers it; K/V expanded to every query head first (torchtitan's
 * Attention.forward: repeat_kv before F.scaled_dot_product_attention);
 * partial outputs merged in fp32 by unfused element-wise ops (_SDPAMerger,
 * convert_to_f32); dK/dV passed in fp32 by all-to-all each backward step.
 * The model prices Transformer Engine's ring (nemo-longseq rows, within
 * 6%). Over NVLink (8B, 8 GPUs) none of this is exposed; over the NICs
 * (405B, cp ranks 8 apart) the expanded all-gather at cp 8 is about 47 ms
 * per layer against a 15 ms diagonal, ~+11% of the step by hand. The
 * attention time implied by the published 8B steps (the model's other
 * parts kept) is 1.43, 1.26, 1.69, 1.73x the model's at cp 1, 2, 4, 8:
 * not monotonic in cp, so no per-step mechanism fits all four; the
 * GPU above explains about 1.2x (989/835 on compute-bound kernels).
 * FlashAttention-2's slower backward (322 against 370 TFLOPs/s, FA3
 * paper Figs. 5-6), tried on every row (2026-11-28), moves these rows 5-12
 * points down but the Transformer Engine rows (nemo-longseq) 3-9 points
 * the other way (to -14%), and the held-out median without known gaps
 * from 7.2% to 8.3%: one attention-kernel class prices both stacks, so
 * it stays out until a plan can say which kernel runs. */
#define GAP_RING "torchtitan's context parallel (PyTorch's all-gather rotater with K/V expanded to every head, fp32 " \
                 "unfused merges; the model prices Transformer Engine's ring) on the 500 W HBM2e H100 (about 1.2x); " \
                 "the 8B rows imply attention 1.69-1.73x the model's at cp 4-8 but 1.26x at cp 2 (issue #32 item 1)"

static const KnownGap known_gaps[] = {
  { "tt-l31-8b-8-fsdp-eager", GAP_FSDP "; eager PyTorch: unfused element-wise kernels (no plan knob)" },
  { "tt-l31-8b-8-fsdp-compile-fp8", GAP_FSDP "; fp8 cast and amax passes (item 5)" },
  { "tt-l31-8b-128-fsdp-eager", GAP_FSDP "; eager PyTorch: unfused element-wise kernels (no plan knob)" },
  { "tt-l31-8b-128-fsdp-compile-fp8", GAP_FSDP "; fp8 cast and amax passes (item 5)" },
  { "tt-l31-8b-8-cp4-128k", GAP_RING },
  { "tt-l31-8b-8-cp8-256k", GAP_RING },
  { "tt-l31-405b-512-cp2-64k", GAP_RING },
  { "tt-l31-405b-512-cp4-128k", GAP_RING },
  { "tt-l31-405b-512-cp8-256k", GAP_RING },
  { "nemo-llama2-70b-sft-fp8", "memory of a full fine-tune that ran: at TP 4 x PP 4 on 16 GPUs (DP 1) bf16 "
    "weights, fp32 main_grad and Adam states are 79 GB per GPU before activations; the recipe's gradient "
    "buffer and the allocator's real reserve (issue #32 item 4)" },
  { "mlperf50-mango-mi300x-32-llama2-70b-lora", "scaling of context parallelism across MI300X nodes: the same "
    "recipe's published throughput per GPU falls from 2,077 (8 GPUs, CP 1) to 1,944 (16, CP 2) to 1,520 tokens/s "
    "(32, CP 4), where the model keeps the CP exchange hidden behind the blocks over xGMI and the LoRA gradient "
    "reduce is a few MB; RCCL's ring attention on MI300X (its per-step synchronisation, the exchange on one xGMI "
    "link) is not measured in any source we have" },
  { NULL, NULL },
};

static const KnownGap *
row_gap (const Row *r)
{
  for (guint i = 0; known_gaps[i].id; i++)
    if (g_strcmp0 (known_gaps[i].id, r->id) == 0)
      return &known_gaps[i];
  return NULL;
}

/* One row priced at a pair of constants. */
typedef struct
{
  double            predicted;
  double            err;       /* signed, relative to the published value */
  gboolean          priced;    /* a layout was priced (FALSE: none divides the batch) */
  gboolean          fits;
  QmParallelTime    t;
  QmMemoryBreakdown mem;
  QmParallelLayout  l;
} Eval;

static void
row_eval (const Row *r,
          double     kernel_efficiency,
          double     comm_overlap,
          Eval      *e)
{
  memset (e, 0, sizeof *e);
  if (row_time (r, kernel_efficiency, comm_overlap, &e->t, &e->mem, &e->l))
    {
      e->priced = TRUE;
      e->fits = e->mem.fits;
    }
  else
    {
      /* Nothing fits: price the layout that came closest, so that the
       * throughput model is still checked; the verdict stays "no fit". */
      QmParallelProblem pb;
      QmParallelLayout l;
      QmParallelSearch *res = g_new0 (QmParallelSearch, 1);

      row_problem (r, &pb, &l);
      pb.kernel_efficiency = kernel_efficiency;
      pb.comm_overlap = comm_overlap;
      pb.tp = r->tp;
      pb.pp = r->pp;
      pb.cp = r->cp;
      pb.ep = MAX (r->ep, 1u);
      pb.virtual_stages = r->v;
      pb.micro_batch = r->mb;
      pb.search_micro_batch = r->mb == 0;
      pb.zero_stage = r->zero;
      pb.recompute = r->recompute;
      pb.search_recompute = r->recompute_auto;
      qm_parallel_search (&pb, 1, res);
      if (res->no_fit.valid && res->no_fit.layouts_tried > 0
          && qm_parallel_step_time (&pb, &res->no_fit.best_layout, &e->t))
        {
          e->priced = TRUE;
          e->l = res->no_fit.best_layout;
          e->mem = res->no_fit.best_memory;
        }
      g_free (res);
    }
  if (e->priced)
    e->predicted = row_predicted (r, &e->t);
  e->err = (e->predicted - r->published) / r->published;
}

static const char *
basis_name (Basis b)
{
  static const char * const names[] = { "MFU", "HFU", "TF/s", "MFU6ND", "tok/s" };

  return names[b];
}

static void
print_eval (const Row  *r,
            const Eval *e)
{
  const KnownGap *gap = row_gap (r);
  const char *pending = row_pending_mechanism (r);

  g_test_message ("%-32s %6s %9.3f %9.3f %+6.1f%%  v%u mb%u %s step %.2f s (compute %.2f tp %.2f pp %.2f "
                  "dp %.2f zero %.2f cp %.2f bubble %.2f rec %.2f) mem %.1f/%.1f GB%s%s%s%s%s%s",
                  r->id, basis_name (r->basis), r->published, e->predicted, 100.0 * e->err,
                  e->l.virtual_stages, e->l.micro_batch, qm_recompute_to_string (e->l.recompute),
                  e->t.step, e->t.compute, e->t.tp_comm, e->t.pp_comm, e->t.dp_comm, e->t.zero_comm,
                  e->t.cp_comm, e->t.bubble, e->t.recompute, e->mem.total / 1e9, e->mem.capacity / 1e9,
                  e->fits ? "" : "  DOES NOT FIT", gap ? "  GAP: " : "", gap ? gap->mechanism : "",
                  pending ? "  PENDING: " : "", pending ? pending : "",
                  r->odd ? "  ODD" : "");
}

/* The rows the per-row bounds hold for: all but the known gaps. */
static guint
scope_rows (guint *idx)
{
  guint n = 0;

  for (guint i = 0; i < n_rows; i++)
    if (row_gap (&rows[i]) == NULL)
      idx[n++] = i;
  return n;
}

/* Signed relative error of every in-scope row of one half (parity of its
 * place among the in-scope rows), at a pair of constants; a row no layout
 * prices counts as 100% off. */
static guint
half_errors (guint       half,
             double      kernel_efficiency,
             double      comm_overlap,
             gboolean    print,
             double     *errs,
             const Row **which)
{
  g_autofree guint *idx = g_new (guint, n_rows);
  guint n_scope = scope_rows (idx), n = 0;

  for (guint j = half; j < n_scope; j += 2)
    {
      Eval e;

      row_eval (&rows[idx[j]], kernel_efficiency, comm_overlap, &e);
      if (which)
        which[n] = &rows[idx[j]];
      errs[n++] = e.err;
      if (print)
        print_eval (&rows[idx[j]], &e);
    }
  return n;
}

/* What the two fitted constants minimise, in the split and in the
 * leave-one-source-out fits alike: the mean |error| over the runs fitted
 * on, leaving out those whose published number the physics disputes (odd:
 * they would pull the constants toward what no mechanism explains). The
 * mean, not the median: the median |error| is flat over a wide range of
 * constants, and its optimum jumped between distant pairs (0.86, 0.5 and
 * 0.92, 0.2) as single runs were added to the data. */
static double
fit_objective (const Row * const *which,
               const double      *errs,
               guint              n)
{
  double sum = 0;
  guint used = 0;

  for (guint i = 0; i < n; i++)
    if (which[i]->odd == NULL)
      {
        sum += fabs (errs[i]);
        used++;
      }
  g_assert_cmpuint (used, >, 0);
  return sum / used;
}

/* The two fitted constants (kernel efficiency, hidden fraction of
 * overlapped communication), fitted on one half: the pair with the
 * smallest fit_objective() there, on a grid. */
static void
fit_half (guint   half,
          double *kernel_efficiency,
          double *comm_overlap)
{
  g_autofree double *errs = g_new (double, n_rows);
  g_autofree const Row **which = g_new (const Row *, n_rows);
  double best_med = G_MAXDOUBLE;

  for (double o = 0.2; o <= 0.9001; o += 0.1)
    for (double k = 0.70; k <= 1.0001; k += 0.01)
      {
        guint n = half_errors (half, k, o, FALSE, errs, which);
        double m = fit_objective (which, errs, n);

        if (m < best_med)
          {
            best_med = m;
            *kernel_efficiency = k;
            *comm_overlap = o;
          }
      }
}

/* Validation that cannot be fitted to: fit the two constants on one half
 * of the published runs (alternate rows, the known gaps left out), report
 * the other half at those values, and the reverse. The held-back half's
 * median error must stay under 15% and every held-back row under 35%, but
 * for the rows marked odd (at most a sixth of them), which say why. */
static void
test_published_split (void)
{
  g_autofree double *all = g_new (double, n_rows);
  g_autofree guint *idx = g_new (guint, n_rows);
  guint n_all = 0, n_scope = scope_rows (idx);

  for (guint half = 0; half < 2; half++)
    {
      g_autofree double *errs = g_new (double, n_rows);
      double k = 0, o = 0, med, worst = 0;
      guint n;

      fit_half (1 - half, &k, &o);
      g_test_message ("fitted on half %u: kernel efficiency %.2f, communication hidden %.1f (the constants are "
                      "0.88 and 0.5); held-back half %u:", 1 - half, k, o, half);
      g_test_message ("%-32s %6s %9s %9s %7s", "row", "basis", "published", "predicted", "error");
      n = half_errors (half, k, o, TRUE, errs, NULL);
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
      for (guint i = 0, j = half; i < n; i++, j += 2)
        if (rows[idx[j]].odd == NULL)
          g_assert_cmpfloat (fabs (errs[i]), <, 0.35);
    }
  {
    guint n_odd = 0;

    for (guint j = 0; j < n_scope; j++)
      n_odd += rows[idx[j]].odd != NULL;
    g_assert_cmpuint (n_odd, <=, n_scope / 6);
  }
  g_test_message ("all rows held back once: median |error| %.1f%% over %u rows",
                  100.0 * median_abs (all, n_all), n_all);
}

/* At the shipped constants, every row printed (the known gaps too), with
 * the error summary. */
static void
test_published_accuracy (void)
{
  g_autofree double *all = g_new (double, n_rows);
  g_autofree double *scope = g_new (double, n_rows);
  guint n_scope = 0;

  for (guint i = 0; i < n_rows; i++)
    {
      Eval e;

      row_eval (&rows[i], 0, 0, &e);
      print_eval (&rows[i], &e);
      all[i] = e.err;
      if (row_gap (&rows[i]) == NULL)
        scope[n_scope++] = e.err;
    }
  g_test_message ("shipped constants: median |error| %.1f%% over all %u rows, %.1f%% over the %u without a known gap",
                  100.0 * median_abs (all, n_rows), n_rows, 100.0 * median_abs (scope, n_scope), n_scope);
  g_assert_cmpfloat (median_abs (scope, n_scope), <, 0.15);
}

/* Leave-one-source-out: the two constants are fitted on every source but
 * one (the same grid and objective as the split above, the known gaps
 * left out of the fit) and the left-out source is priced at them. */

#define GRID_K 31   /* kernel efficiency 0.70 … 1.00 */
#define GRID_O 8    /* communication hidden 0.2 … 0.9 */

static double
grid_k (guint g)
{
  return 0.70 + 0.01 * (g % GRID_K);
}

static double
grid_o (guint g)
{
  return 0.2 + 0.1 * (g / GRID_K);
}

static const char *
row_vendor (const Row *r)
{
  if (g_str_has_prefix (r->gpu, "mi"))
    return "AMD";
  if (g_str_has_prefix (r->gpu, "gaudi"))
    return "Intel";
  if (g_str_has_prefix (r->gpu, "tpu"))
    return "Google";
  return "NVIDIA";
}

static const char *
row_gpu (const Row *r)
{
  return r->gpu;
}

/* LoRA, then context parallel, then FSDP / ZeRO-3, else 3D (TP, PP and
 * DP with ZeRO-1/2 or none): the error model's kinds (qm-accuracy.h). */
static const char *
row_kind (const Row *r)
{
  return qm_accuracy_training_kind (r->mode, r->cp, r->zero);
}

static const char *
row_scale (const Row *r)
{
  if (r->gpus <= 8)
    return "8 GPUs or fewer";
  if (r->gpus <= 64)
    return "9-64 GPUs";
  if (r->gpus <= 512)
    return "65-512 GPUs";
  if (r->gpus <= 4096)
    return "513-4096 GPUs";
  return "more than 4096 GPUs";
}

typedef const char *(*RowLabel) (const Row *r);

typedef struct
{
  double  *held_out;    /* signed error of each row with its source left out */
  gboolean *fits;
  double  *fit_all;     /* signed error at the constants fitted on every source */
  double  *shipped;     /* at the shipped constants */
  double   all_k, all_o;
  GPtrArray *sources;   /* distinct source ids, in file order */
  double  *source_k, *source_o;
} Loso;

static guint
best_grid (const double *grid_err,
           const char   *leave_out)
{
  g_autofree double *errs = g_new (double, n_rows);
  g_autofree const Row **which = g_new (const Row *, n_rows);
  double best = G_MAXDOUBLE;
  guint best_g = 0;

  /* o outer, k inner: the order of fit_half(). */
  for (guint g = 0; g < GRID_K * GRID_O; g++)
    {
      guint n = 0;
      double m;

      for (guint i = 0; i < n_rows; i++)
        if (row_gap (&rows[i]) == NULL && g_strcmp0 (rows[i].source, leave_out) != 0)
          {
            which[n] = &rows[i];
            errs[n++] = grid_err[(gsize) g * n_rows + i];
          }
      m = fit_objective (which, errs, n);
      if (m < best)
        {
          best = m;
          best_g = g;
        }
    }
  return best_g;
}

static void
loso_compute (Loso *lo)
{
  g_autofree double *grid_err = g_new (double, (gsize) GRID_K * GRID_O * n_rows);
  guint g_all;

  memset (lo, 0, sizeof *lo);
  lo->held_out = g_new0 (double, n_rows);
  lo->fits = g_new0 (gboolean, n_rows);
  lo->fit_all = g_new0 (double, n_rows);
  lo->shipped = g_new0 (double, n_rows);
  lo->sources = g_ptr_array_new ();
  for (guint i = 0; i < n_rows; i++)
    {
      Eval e;

      if (!g_ptr_array_find_with_equal_func (lo->sources, rows[i].source, g_str_equal, NULL))
        g_ptr_array_add (lo->sources, rows[i].source);
      row_eval (&rows[i], 0, 0, &e);
      lo->shipped[i] = e.err;
      lo->fits[i] = e.fits;
    }
  for (guint g = 0; g < GRID_K * GRID_O; g++)
    for (guint i = 0; i < n_rows; i++)
      {
        Eval e;

        row_eval (&rows[i], grid_k (g), grid_o (g), &e);
        grid_err[(gsize) g * n_rows + i] = e.err;
      }
  g_all = best_grid (grid_err, NULL);
  lo->all_k = grid_k (g_all);
  lo->all_o = grid_o (g_all);
  lo->source_k = g_new0 (double, lo->sources->len);
  lo->source_o = g_new0 (double, lo->sources->len);
  for (guint s = 0; s < lo->sources->len; s++)
    {
      const char *src = g_ptr_array_index (lo->sources, s);
      guint g = best_grid (grid_err, src);

      lo->source_k[s] = grid_k (g);
      lo->source_o[s] = grid_o (g);
      for (guint i = 0; i < n_rows; i++)
        if (g_strcmp0 (rows[i].source, src) == 0)
          lo->held_out[i] = grid_err[(gsize) g * n_rows + i];
    }
  for (guint i = 0; i < n_rows; i++)
    lo->fit_all[i] = grid_err[(gsize) g_all * n_rows + i];
}

static void
loso_free (Loso *lo)
{
  g_free (lo->held_out);
  g_free (lo->fits);
  g_free (lo->fit_all);
  g_free (lo->shipped);
  g_free (lo->source_k);
  g_free (lo->source_o);
  g_ptr_array_free (lo->sources, TRUE);
}

/* Nearest-rank quantile of signed errors. */
static double
quantile (const double *v,
          guint         n,
          double        q)
{
  g_autofree double *s = g_memdup2 (v, n * sizeof (double));
  guint r;

  qsort (s, n, sizeof (double), cmp_double);
  r = (guint) ceil (q * n);
  return s[CLAMP (r, 1u, n) - 1];
}

typedef struct
{
  guint  n;
  double median_abs, bias, p10, p90, worst;
} ErrStats;

static void
err_stats (const double *errs,
           guint         n,
           ErrStats     *st)
{
  memset (st, 0, sizeof *st);
  st->n = n;
  if (n == 0)
    return;
  st->median_abs = median_abs (errs, n);
  st->bias = median_of (errs, n);
  st->p10 = quantile (errs, n, 0.10);
  st->p90 = quantile (errs, n, 0.90);
  for (guint i = 0; i < n; i++)
    st->worst = MAX (st->worst, fabs (errs[i]));
}

static void
stats_row (GString        *md,
           const char     *label,
           const ErrStats *st)
{
  g_test_message ("  %-28s %4u runs  median |err| %5.1f%%  bias %+6.1f%%  p10 %+6.1f%%  p90 %+6.1f%%  worst %5.1f%%",
                  label, st->n, 100 * st->median_abs, 100 * st->bias, 100 * st->p10, 100 * st->p90,
                  100 * st->worst);
  g_string_append_printf (md, "| %s | %u | %.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %.1f%% |\n", label, st->n,
                          100 * st->median_abs, 100 * st->bias, 100 * st->p10, 100 * st->p90, 100 * st->worst);
}

/* One table of held-out errors grouped by @label, in order of first
 * appearance in the file. */
static void
group_table (GString     *md,
             const Loso  *lo,
             const char  *title,
             RowLabel     label)
{
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  g_autofree double *errs = g_new (double, n_rows);

  g_test_message ("held out, by %s:", title);
  g_string_append_printf (md, "\n### By %s\n\n| %s | runs | median \\|error\\| | bias (median) | p10 | p90 | worst |\n"
                          "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n", title, title);
  for (guint i = 0; i < n_rows; i++)
    if (!g_ptr_array_find_with_equal_func (labels, label (&rows[i]), g_str_equal, NULL))
      g_ptr_array_add (labels, (gpointer) label (&rows[i]));
  for (guint l = 0; l < labels->len; l++)
    {
      ErrStats st;
      guint n = 0;

      for (guint i = 0; i < n_rows; i++)
        if (g_strcmp0 (label (&rows[i]), g_ptr_array_index (labels, l)) == 0)
          errs[n++] = lo->held_out[i];
      err_stats (errs, n, &st);
      stats_row (md, g_ptr_array_index (labels, l), &st);
    }
}

static char *
training_section (const Loso *lo)
{
  GString *md = g_string_new (NULL);
  g_autofree double *errs = g_new (double, n_rows);
  ErrStats st;
  guint n;

  g_string_append (md,
    "## Training: published runs, leave-one-source-out\n\n"
    "Generated by `tests/test-parallel.c` (`/parallel/leave-one-source-out`) from\n"
    "`tests/data/training-runs.tsv`, where every run has its provenance; regenerate with\n"
    "`QM_UPDATE_DOCS=1 meson test -C build parallel` (the test fails when this section is stale).\n\n"
    "The step model has two fitted constants: the kernel efficiency over the GEMM rate and the share\n"
    "of overlappable communication that is hidden. For each source (publication) in turn they are\n"
    "fitted on all the other sources (the grid and objective of the split validation: the pair with the\n"
    "smallest mean |error| over the runs not marked odd; runs with a known gap are left out of every fit)\n"
    "and the left-out source is priced at them: its error is *held out*. Error = (predicted − published)\n"
    "/ published on the run's own basis (MFU, HFU, model TFLOP/s or tokens/s per GPU: the same ratio as\n"
    "the MFU error), positive when the model is optimistic. Runs with a known gap (below) are counted in\n"
    "every table.\n\n");
  g_string_append (md, "| errors | runs | median \\|error\\| | bias (median) | p10 | p90 | worst |\n"
                       "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  g_test_message ("summary:");
  err_stats (lo->held_out, n_rows, &st);
  stats_row (md, "held out, all runs", &st);
  n = 0;
  for (guint i = 0; i < n_rows; i++)
    if (row_gap (&rows[i]) == NULL)
      errs[n++] = lo->held_out[i];
  err_stats (errs, n, &st);
  stats_row (md, "held out, without known gaps", &st);
  {
    g_autofree char *label = g_strdup_printf ("fitted on all (%.2f, %.1f)", lo->all_k, lo->all_o);

    err_stats (lo->fit_all, n_rows, &st);
    stats_row (md, label, &st);
  }
  err_stats (lo->shipped, n_rows, &st);
  stats_row (md, "shipped constants", &st);

  g_test_message ("held out, by source (left out in turn):");
  g_string_append (md, "\n### By source (left out in turn)\n\n"
                       "| source | runs | constants fitted without it | median \\|error\\| | bias (median) | p10 | p90 | "
                       "worst |\n"
                       "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n");
  for (guint s = 0; s < lo->sources->len; s++)
    {
      const char *src = g_ptr_array_index (lo->sources, s);
      g_autofree char *label = g_strdup_printf ("%s (fitted without it: %.2f, %.1f)", src, lo->source_k[s],
                                                lo->source_o[s]);

      n = 0;
      for (guint i = 0; i < n_rows; i++)
        if (g_strcmp0 (rows[i].source, src) == 0)
          errs[n++] = lo->held_out[i];
      err_stats (errs, n, &st);
      g_test_message ("  %-44s %4u runs  median |err| %5.1f%%  bias %+6.1f%%  p10 %+6.1f%%  p90 %+6.1f%%  worst %5.1f%%",
                      label, st.n, 100 * st.median_abs, 100 * st.bias, 100 * st.p10, 100 * st.p90, 100 * st.worst);
      g_string_append_printf (md, "| %s | %u | %.2f, %.1f | %.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %.1f%% |\n", src, n,
                              lo->source_k[s], lo->source_o[s], 100 * st.median_abs, 100 * st.bias, 100 * st.p10,
                              100 * st.p90, 100 * st.worst);
    }
  group_table (md, lo, "GPU vendor", row_vendor);
  {
    static const char * const vendors[] = { "AMD", "Intel", NULL };

    for (guint v = 0; vendors[v]; v++)
      {
        gboolean any = FALSE;

        for (guint i = 0; i < n_rows; i++)
          any |= g_strcmp0 (row_vendor (&rows[i]), vendors[v]) == 0;
        if (!any)
          g_string_append_printf (md, "\nNo run on %s accelerators in the data yet: nothing above speaks for them.\n",
                                  vendors[v]);
      }
  }
  group_table (md, lo, "GPU", row_gpu);
  group_table (md, lo, "parallelism", row_kind);
  group_table (md, lo, "scale", row_scale);

  g_string_append (md, "\n### Known gaps\n\nRuns the model does not reproduce yet, with the mechanism each needs "
                       "(issue #32); they stay in the data and in every table above.\n\n"
                       "| run | source | held-out error | fits where it ran | mechanism needed |\n"
                       "| --- | --- | ---: | --- | --- |\n");
  for (guint i = 0; i < n_rows; i++)
    {
      const KnownGap *gap = row_gap (&rows[i]);

      if (gap)
        g_string_append_printf (md, "| %s | %s | %+.1f%% | %s | %s |\n", rows[i].id, rows[i].source,
                                100 * lo->held_out[i], lo->fits[i] ? "yes" : "**no**", gap->mechanism);
    }

  g_string_append (md, "\n### Every run\n\n"
                       "| run | source | GPU | GPUs | parallelism | basis | published | held-out error | "
                       "fitted on all | fits |\n"
                       "| --- | --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- |\n");
  for (guint i = 0; i < n_rows; i++)
    g_string_append_printf (md, "| %s%s | %s | %s | %u | %s | %s | %.4g | %+.1f%% | %+.1f%% | %s |\n",
                            rows[i].id, rows[i].odd ? " (odd)" : "", rows[i].source, rows[i].gpu, rows[i].gpus,
                            row_kind (&rows[i]), basis_name (rows[i].basis), rows[i].published,
                            100 * lo->held_out[i], 100 * lo->fit_all[i], lo->fits[i] ? "yes" : "no");
  g_string_append (md, "\n(odd): the published number is one the physics disagrees with; the data file says why.\n");
  return g_string_free (md, FALSE);
}

#define TRAINING_BEGIN "<!-- training:begin -->"
#define TRAINING_END "<!-- training:end -->"
#define SERVING_BEGIN "<!-- serving:begin -->"
#define SERVING_END "<!-- serving:end -->"

/* docs/accuracy.md between the training markers: rewritten with
 * QM_UPDATE_DOCS=1 (the file is created with both marker pairs if it is
 * missing), else it must equal @section. */
static void
check_accuracy_doc (const char *section)
{
  const char *src = g_getenv ("QM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : "..", "docs/accuracy.md", NULL);
  g_autofree char *text = NULL;
  g_autofree char *want = g_strconcat (TRAINING_BEGIN "\n", section, TRAINING_END, NULL);
  const char *b, *e;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    text = g_strdup ("# Accuracy\n\nHow far the estimates are from published measurements, by the tests that\n"
                     "check them.\n\n" SERVING_BEGIN "\n" SERVING_END "\n\n" TRAINING_BEGIN "\n" TRAINING_END "\n");
  b = strstr (text, TRAINING_BEGIN);
  e = b ? strstr (b, TRAINING_END) : NULL;
  if (g_strcmp0 (g_getenv ("QM_UPDATE_DOCS"), "1") == 0)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *out = NULL;

      if (b == NULL || e == NULL)
        out = g_strconcat (text, "\n", want, "\n", NULL);
      else
        out = g_strdup_printf ("%.*s%s%s", (int) (b - text), text, want, e + strlen (TRAINING_END));
      g_file_set_contents (path, out, -1, &error);
      g_assert_no_error (error);
      g_test_message ("wrote %s", path);
      return;
    }
  g_assert_nonnull (b);
  g_assert_nonnull (e);
  if (strncmp (b, want, strlen (want)) != 0 || (gsize) (e + strlen (TRAINING_END) - b) != strlen (want))
    {
      g_test_message ("%s: the training section is stale; regenerate it with QM_UPDATE_DOCS=1", path);
      g_test_fail ();
    }
}

static void
test_leave_one_source_out (void)
{
  Loso lo;
  g_autofree char *section = NULL;
  g_autofree double *scoped = g_new (double, n_rows);
  guint n_scoped = 0;

  loso_compute (&lo);
  g_test_message ("constants fitted on every source: kernel efficiency %.2f, communication hidden %.1f "
                  "(shipped: 0.88, 0.5)", lo.all_k, lo.all_o);
  for (guint s = 0; s < lo.sources->len; s++)
    g_test_message ("without %-16s kernel efficiency %.2f, communication hidden %.1f",
                    (const char *) g_ptr_array_index (lo.sources, s), lo.source_k[s], lo.source_o[s]);
  g_test_message ("%-32s %-16s %-14s %6s %9s %8s %8s", "run", "source", "gpu", "basis", "published", "held-out",
                  "fit-all");
  for (guint i = 0; i < n_rows; i++)
    {
      const KnownGap *gap = row_gap (&rows[i]);
      const char *pending = row_pending_mechanism (&rows[i]);

      g_test_message ("%-32s %-16s %-14s %6s %9.4g %+7.1f%% %+7.1f%%%s%s%s%s%s", rows[i].id, rows[i].source,
                      rows[i].gpu, basis_name (rows[i].basis), rows[i].published, 100 * lo.held_out[i],
                      100 * lo.fit_all[i], lo.fits[i] ? "" : "  DOES NOT FIT",
                      gap ? "  GAP: " : "", gap ? gap->mechanism : "", pending ? "  PENDING: " : "",
                      pending ? pending : "");
      if (gap == NULL)
        {
          scoped[n_scoped++] = lo.held_out[i];
          /* Every run fits where it ran, and is priced within 35% held
           * out, but for the ones whose number the physics disputes. */
          if (!lo.fits[i])
            g_test_message ("%s ran on %u x %s but the model says it does not fit", rows[i].id, rows[i].gpus,
                            rows[i].gpu);
          g_assert_true (lo.fits[i]);
          if (rows[i].odd == NULL)
            g_assert_cmpfloat (fabs (lo.held_out[i]), <, 0.35);
        }
      else if (lo.fits[i] && fabs (lo.held_out[i]) < 0.35)
        g_test_message ("%s: meets the bounds now; its known gap (%s) can go", rows[i].id, gap->mechanism);
    }
  section = training_section (&lo);
  /* The error model's training part (data/catalog/accuracy.json): every
   * run's held-out error, known gaps and odd runs included, as a plan on
   * that GPU and layout would meet it. */
  {
    g_autoptr (GArray) runs = g_array_new (FALSE, FALSE, sizeof (QmTestAccuracyRun));
    g_autofree char *model = NULL;

    for (guint i = 0; i < n_rows; i++)
      {
        const QmGpuSpec *gpu = qm_catalog_gpu (rows[i].gpu);
        QmTestAccuracyRun run = { gpu->family, row_kind (&rows[i]), rows[i].gpus, lo.held_out[i] };

        g_array_append_val (runs, run);
      }
    model = qm_test_accuracy_check (QM_ACCURACY_TRAINING, "MFU (or the run's own throughput basis), held out "
                                    "by source", runs);
  }
  /* The held-out median over the runs without a known gap: issue #32's
   * bar for runs the constants were not fitted to. */
  g_assert_cmpfloat (median_abs (scoped, n_scoped), <, 0.10);
  check_accuracy_doc (section);
  loso_free (&lo);
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
  for (guint i = 0; i < n_rows; i++)
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
  load_rows ();
  g_test_add_func ("/parallel/published-accuracy", test_published_accuracy);
  g_test_add_func ("/parallel/published-split", test_published_split);
  g_test_add_func ("/parallel/leave-one-source-out", test_leave_one_source_out);
  g_test_add_func ("/parallel/flash-attention-rate", test_flash_attention_rate);
  g_test_add_func ("/parallel/lora-attention-backward", test_lora_attention_backward);
  g_test_add_func ("/parallel/published-layouts-fit", test_published_layouts_fit);
  g_test_add_func ("/parallel/pruned-equals-exhaustive", test_pruned_equals_exhaustive);
  g_test_add_func ("/parallel/search-results-valid", test_search_results_valid);
  g_test_add_func ("/parallel/no-fit", test_no_fit);
  g_test_add_func ("/parallel/curve", test_curve);
  return g_test_run ();
}
