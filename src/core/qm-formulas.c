/* qm-formulas.c: the formulas the estimate uses, each with its source.
 *
 * The words follow the estimate's notes (qm-estimate.c) and the comments
 * next to each computation; a change to a formula there changes its entry
 * here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-formulas.h"

static const QmFormula formulas[] = {
  { "training-flops", N_("Training compute"),
    N_("Training FLOPs = 6·N·D + 12·L·H·Q·T·D: N active parameters, D training tokens "
       "(tokens × epochs), and the attention term with L layers, H heads of size Q and "
       "sequence length T. LoRA and QLoRA train adapters on a frozen base, which needs no "
       "weight gradients: 4·N·D plus the attention, whose backward still needs the gradients "
       "of both its activation operands (3 × its forward)."),
    N_("Chowdhery et al. 2022 (PaLM), Appendix B; Kaplan et al. 2020 and Brown et al. 2020 "
       "(GPT-3), Table D.1, for 6·N·D; Hu et al. 2021 (LoRA), §4.2") },
  { "hardware-flops", N_("Activation recompute"),
    N_("Hardware FLOPs = training FLOPs + recomputed FLOPs. Selective recompute repeats the "
       "attention core; full recompute repeats the whole forward pass. The MFU is counted on "
       "training FLOPs, so recompute lowers it."),
    N_("Korthikanti et al. 2022, eq. 8 (selective); Narayanan et al. 2021, eq. 3 (full)") },
  { "training-time", N_("Training time"),
    N_("Ideal time = training FLOPs / (GPUs × peak dense FLOP/s at the plan’s precision × "
       "MFU). A deadline gives the inverse with failures counted: GPUs = training FLOPs / "
       "(deadline × goodput × peak × MFU), iterated because MFU and goodput fall as GPUs are "
       "added, and rounded up to whole nodes on which a parallel layout keeps the plan’s "
       "global batch (dp × micro-batch × accumulation steps = batch) and fits in memory."),
    N_("Model FLOPs utilisation as defined by Chowdhery et al. 2022 (PaLM), Appendix B; "
       "peak FLOP/s from the GPU datasheet in the catalog") },
  { "rule-of-thumb", N_("Rule of thumb"),
    N_("GPUs ≈ tokens in billions × epochs × parameters in billions × 13.3 / hours: the "
       "training time formula for an A100 at 312 TFLOPS dense and 40% MFU on the 6·N·D "
       "basis, without the attention term."),
    N_("Derived from the training time formula; A100 peak from the NVIDIA A100 datasheet") },
  { "mfu", N_("Model FLOPs utilisation"),
    N_("When the plan gives no MFU, a throughput model prices one optimizer step of the "
       "slowest pipeline stage: GEMMs at the GPU’s best-shape matmul rate times a shape "
       "efficiency d/(d + 128) on the narrowest dimension d after tensor parallelism; "
       "FlashAttention at its own rate on the causal FLOPs it executes, or without it "
       "batched GEMMs plus the score matrix as HBM traffic; norms and element-wise kernels "
       "at HBM bandwidth; under FP8 only the layer GEMMs run at the FP8 rate, while attention "
       "and the output layer stay 16-bit and the casts cost HBM passes; α–β collectives for "
       "TP/SP, PP, DP/ZeRO, CP and EP, hidden behind compute only where the framework "
       "overlaps them; the pipeline bubble; recompute; the optimizer. MFU = training FLOPs "
       "of a step / (step time × GPUs × peak). With tp, pp, cp or ep on auto, the fastest "
       "layout that fits in memory is used."),
    N_("Narayanan et al. 2021 (pipeline bubble, interleaved 1F1B); Korthikanti et al. 2022 "
       "(sequence parallelism); Dao 2023 (FlashAttention-2), §4.1; Micikevicius et al. 2022 "
       "(FP8 formats); NCCL collective algorithms; stas00/ml-engineering (matmul rates); "
       "GPU and switch datasheets") },
  { "pipeline", N_("Pipeline schedule"),
    N_("Layers per stage: every model chunk of a full stage holds ⌈L/(p·v)⌉ layers and "
       "the first and last stages give up the layers that do not divide, as Llama 3 put 126 "
       "layers on 16 stages. Bubble = (p − 1)/(v·m) of the ideal step for p stages, v "
       "interleaved chunks per stage and m micro-batches, on the real stage times: filling "
       "and draining pass once through every other stage’s own micro-batch time, divided by "
       "v. Interleaving keeps 1 + (p − 1)/(p·v) times the 1F1B activations on "
       "the first stage (Megatron’s warm-up of 2(p − i − 1) + (v − 1)·p + 1 chunks on "
       "stage i)."),
    N_("Narayanan et al. 2021, §2.2; Korthikanti et al. 2022, §4.2.3; Dubey et al. 2024 "
       "(Llama 3), §3.3.2") },
  { "model-states", N_("Weights, gradients and optimizer states"),
    N_("Memory per GPU = bytes per trainable parameter × parameters of the heaviest "
       "pipeline stage / tp, with 16 bytes for mixed-precision Adam (2 for weights, 2 for "
       "gradients, 12 for the fp32 master copy and the two moments); an fp32 gradient "
       "buffer keeps 4 bytes of gradient instead of 2. ZeRO-1 shards the optimizer states "
       "over the dp × cp ranks that hold the same weights, ZeRO-2 also the gradients, "
       "ZeRO-3 also the weights. Capacity is what the device reports (an “80 GB” H100 "
       "holds 81,559 MiB)."),
    N_("Rajbhandari et al. 2020 (ZeRO), Figure 1") },
  { "activations", N_("Activations"),
    N_("Per layer s·b·h·(34 + 5·a·s/h) bytes for a standard transformer block (s sequence "
       "length, b micro-batch, h hidden size, a heads), divided by tp with sequence "
       "parallelism and re-derived for the model’s block (GQA, SwiGLU, MoE, MLA). Full "
       "recompute keeps only each layer’s input, 2·s·b·h, or 2·s·b·h/t with sequence "
       "parallelism; FP8 keeps the GEMM inputs at 1 byte. The busiest pipeline stage holds "
       "the most micro-batches in flight."),
    N_("Korthikanti et al. 2022, Table 2") },
  { "adapters", N_("LoRA and QLoRA"),
    N_("Trainable parameters = rank × (inputs + outputs) of every linear layer. LoRA keeps "
       "the frozen base at 16 bits; QLoRA stores it in NF4 with double quantisation, 4.127 "
       "bits per parameter."),
    N_("Hu et al. 2021 (LoRA); Dettmers et al. 2023 (QLoRA)") },
  { "memory-overhead", N_("Memory overhead"),
    /* xgettext:no-c-format */
    N_("The CUDA context (1.34 GiB), the DeepSpeed reduce bucket, the ZeRO-3 gather buffer "
       "and 2% allocator fragmentation are added to every GPU."),
    N_("Hugging Face, “Model memory anatomy”; DeepSpeed configuration defaults") },
  { "serving", N_("Serving memory"),
    /* xgettext:no-c-format */
    N_("Per GPU: the bytes the device reports, less the weights at the serving "
       "precision (embeddings and output head at 16 bits, NVFP4 with one scale per 16 "
       "values), one engine step’s workspace and the runtime reserve; 90% of the rest "
       "is the paged KV cache in 32-token blocks, 2 × layers × KV heads × head size × "
       "bytes per value per token (MLA: the latent). A replica fits when one "
       "request’s blocks fit; a request is admitted only with blocks for its whole "
       "prompt and answer."),
    N_("Kwon et al. 2023 (vLLM, PagedAttention); TensorRT-LLM KV-cache defaults "
       "(free-memory fraction 0.9, 32 tokens per block, guaranteed-no-evict "
       "scheduling); Austin et al., “How to Scale Your Model”, the inference chapter") },
  { "serving-step", N_("Serving engine step"),
    N_("Step time = Σ over operators of max(FLOPs / achievable FLOP/s, bytes / "
       "achievable HBM bandwidth): the weight GEMMs (2 FLOPs per weight per token, "
       "weights read once per step, at the weight precision’s tensor rate with a "
       "tile-shape loss d/(d+128)), routed experts (E·(1 − (1 − k/E)^t) distinct "
       "experts for t tokens), decode attention reading every sequence’s KV cache, "
       "causal prefill attention (4 × heads × head size FLOPs per query-key pair), "
       "norms and activation, the output head, two all-reduces per layer under tensor "
       "parallelism (latency + 2(n−1)/n × bytes / bus bandwidth), and a per-step "
       "overhead. The GPU constants are fitted to published TensorRT-LLM runs."),
    N_("Williams et al. 2009 (roofline); Shoeybi et al. 2019 (Megatron-LM, two "
       "all-reduces per layer); Shah et al. 2024 (FlashAttention-3); NVIDIA TensorRT-LLM "
       "performance overview (the fitted runs, tests/data/serving-reference.tsv)") },
  { "serving-simulation", N_("Serving latency"),
    N_("Requests arrive as a seeded Poisson stream at the plan’s rate per replica (or "
       "all at once, offline). Each step decodes one token of every running sequence "
       "and fills the rest of an 8,192-token budget with prompt chunks in arrival "
       "order. TTFT = first token − arrival; TPOT = (last token − first token) / "
       "(output tokens − 1); p50, p90 and p99 over the requests."),
    N_("Agrawal et al. 2024 (Sarathi-Serve, chunked prefill); Yu et al. 2022 (Orca, "
       "iteration-level scheduling)") },
  { "serving-fleet", N_("Serving fleet"),
    N_("Replicas = the fewest, and at least output tokens/s needed / (max-throughput "
       "tokens/s per GPU × GPUs per replica), whose simulated p99 TTFT and p99 TPOT "
       "meet the targets at the request rate. Energy and cost are for one month "
       "around the clock."),
    N_("Follows from the serving latency simulation; the rule GPUs = output tokens / "
       "throughput per GPU × requests per minute / 60") },
  { "storage", N_("Dataset and checkpoint storage"),
    N_("Dataset = tokens × 2 bytes (vocabulary below 65,500 entries) or 4 bytes, plus the "
       "checkpoints kept. The write bandwidth is sized to write one checkpoint in a minute, "
       "or is what the servers’ local drives give."),
    N_("Megatron-LM indexed dataset format; Dubey et al. 2024 (Llama 3), §3.3.1, for "
       "checkpoint sizes and write rates") },
  { "checkpoint", N_("Checkpoint size"),
    N_("Checkpoint = trainable parameters × (weights + fp32 master copy + optimizer "
       "states), 14 bytes per parameter for bf16 with Adam; write time = checkpoint / "
       "storage write bandwidth."),
    N_("Rajbhandari et al. 2020 (ZeRO), §5") },
  { "failures", N_("Interruptions"),
    N_("Expected interruptions = GPUs × wall-clock hours / GPU-hours per interruption; the "
       "job’s mean time between failures M = GPU-hours per interruption / GPUs. The "
       "production preset is 419 unexpected interruptions in 54 days on 16,384 H100."),
    N_("Dubey et al. 2024 (Llama 3), §3.3.4, Table 5") },
  { "checkpoint-interval", N_("Checkpoint interval"),
    N_("T = √(2·C·M) for write time C and mean time between failures M (Young); by "
       "default the exact optimum of Daly’s complete model, the root of "
       "e^((T + C)/M)·(1 − T/M) = 1, which his higher-order estimate √(2·C·M)·(1 + "
       "⅓·√(C/2M) + (C/2M)/9) − C approximates."),
    N_("Young 1974, CACM 17(9); Daly 2006, FGCS 22(3)") },
  { "goodput", N_("Goodput and wall-clock time"),
    N_("Goodput = T / (M·e^(R/M)·(e^((T + C)/M) − 1)) for compute interval T, checkpoint "
       "write C, restart R and mean time between failures M: exponential failures that "
       "also strike during rework, checkpoints and restarts, so it stays meaningful when M "
       "is shorter than an hour (past ~65k GPUs), where Young’s first-order 1 − C/T − "
       "(T/2 + R)/M fails. Wall-clock time = ideal time / goodput."),
    N_("Daly 2006, FGCS 22(3), eq. 13; Young 1974, CACM 17(9)") },
  { "racks", N_("Racks and cooling"),
    N_("Nodes per rack = the smaller of rack units / node height and rack kW / node "
       "nameplate kW. Racks above the air-cooling limit (40 kW unless the facility says "
       "otherwise) need liquid cooling; each rack has two PDUs on A/B feeds."),
    N_("NVIDIA DGX SuperPOD reference architecture; server datasheets in the catalog") },
  { "network", N_("Network"),
    N_("A rail-optimised fat tree: one leaf switch per rail for each scalable unit of "
       "radix/2 nodes, and spines for full bisection; two storage ports per node; "
       "out-of-band management on 48-port 1 GbE switches."),
    N_("NVIDIA DGX SuperPOD reference architecture") },
  { "average-power", N_("Average power"),
    /* xgettext:no-c-format */
    N_("Average power = the server’s typical power, or 75.4% of its nameplate when the "
       "datasheet gives none; switches, optics and storage run at their rating."),
    N_("Patterson et al. 2021, arXiv 2104.10350, Table 4: GPT-3 averaged 330 W per V100 "
       "system against a 437.5 W nameplate share") },
  { "facility", N_("Facility power, energy and carbon"),
    N_("Facility power = IT power × PUE; cooling = IT peak × 3.412 BTU/h per W; energy = "
       "average facility power × run time; CO₂e = energy × grid carbon intensity; "
       "electricity cost = energy × price per kWh."),
    N_("The Green Grid (PUE); ASHRAE (3.412 BTU/h per W)") },
  { "cost-buy", N_("Buying"),
    N_("Monthly cost = (hardware + installation) / amortisation months + electricity + "
       "colocation per provisioned kW + support as a yearly share of the hardware; a run "
       "costs the monthly cost × its months."),
    N_("Reference prices in the catalog, each with its source and date; the installation "
       "share is an assumption, shown as its own line") },
  { "cost-rent", N_("Renting"),
    N_("Run cost = GPUs × wall-clock hours × price per GPU-hour (the plan’s, or the cloud "
       "offer’s on-demand or reserved price) + storage per TB-month + egress."),
    N_("Cloud offers in the catalog, each with its source and date") },
  { "break-even", N_("Rent or buy"),
    N_("Buying costs less than renting from the first month m (counted from the order, month 0) "
       "at whose end the cumulative cash out of buying is no more than that of renting the same "
       "GPUs. Buying pays the quote as its terms say (deposit, deliveries, tax) plus power and "
       "colocation from each delivery; renting pays the GPU-hours each month."),
    N_("Follows from the buying and renting formulas") },
};

const QmFormula *
qm_formulas (guint *n_formulas)
{
  if (n_formulas != NULL)
    *n_formulas = G_N_ELEMENTS (formulas);
  return formulas;
}

const QmFormula *
qm_formula_find (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (formulas); i++)
    if (g_str_equal (formulas[i].id, id))
      return &formulas[i];
  return NULL;
}
