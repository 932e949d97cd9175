/* qm-inference.c: serving memory, throughput, latency and GPU count.
 *
 * - KV per token = 2 x bytes x kv_heads x head_dim x layers
 *   (jax-ml/scaling-book inference.md); MLA caches the latent;
 * - one engine step, memory and "fits": qm-serving.c (issue 18 items 1-2);
 * - throughput: the offline max-throughput run of one replica (every
 *   request queued at once, as trtllm-bench throughput and MLPerf offline);
 * - latency: the request simulator at the plan's rate per replica
 *   (Poisson arrivals split evenly stay Poisson);
 * - replicas: the fewest whose p99 TTFT and p99 TPOT meet the targets,
 *   and at least the rule GPUs = output tokens/s needed / tokens/s per GPU;
 * - or, when the plan gives its GPUs (issue 31 item 3), those GPUs as
 *   whole replicas, and their capacity: the highest Poisson rate whose
 *   simulated p99s meet the targets (a bracketing search, seeded runs).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-inference.h"

double
qm_inference_kv_bytes_per_token (const QmModelShape *shape,
                                 QmPrecision         kv_precision)
{
  double bytes = qm_precision_bytes (kv_precision);
  guint kv_heads, head_dim;

  if (shape == NULL || shape->layers == 0)
    return 0.0;

  /* Multi-head latent attention caches one compressed latent plus the
   * decoupled RoPE key per layer (DeepSeek-V2, arXiv 2405.04434 §2.1.2:
   * (d_c + d_h^R) x l elements per token). */
  if (shape->kv_lora_rank > 0)
    return bytes * (double) (shape->kv_lora_rank + shape->rope_head_dim) * shape->layers;

  kv_heads = shape->kv_heads ? shape->kv_heads : shape->heads;
  head_dim = shape->head_dim ? shape->head_dim
           : (shape->heads ? shape->hidden / shape->heads : 0);
  return 2.0 * bytes * kv_heads * (double) head_dim * shape->layers;
}

static double
pos (double v)
{
  return (isfinite (v) && v > 0.0) ? v : 0.0;
}

/* A replica of @n GPUs: tensor parallel within the node, pipeline stages
 * across nodes (or as the plan says). */
static void
engine_for (const QmInferenceInput *in,
            guint                   n,
            guint                   per_node,
            QmServingEngine        *e)
{
  QmServingConfig c = { 0, };

  /* Zeroed first: replica_capacity_memo () digests its bytes. */
  memset (e, 0, sizeof *e);
  c.shape = in->shape;
  c.gpu = in->gpu;
  c.pp = in->pp > 0 && n % in->pp == 0 ? in->pp : (n + per_node - 1) / per_node;
  c.pp = MAX (c.pp, 1u);
  c.tp = MAX (n / c.pp, 1u);
  c.weight_precision = in->weight_precision;
  c.kv_precision = in->kv_precision;
  c.max_sequences = in->max_sequences;
  c.token_budget = in->max_batch_tokens;
  c.engine = qm_engine_resolve (in->engine, in->gpu);
  c.server = in->arrival != QM_ARRIVAL_OFFLINE;
  qm_serving_engine_init (e, &c);
}

/* One request alone: prefill in token-budget chunks, then one decode
 * step at batch 1. */
static double
isolated_prefill_s (const QmServingEngine *e,
                    double                 input)
{
  double done = 0.0, t = 0.0;

  while (done < input)
    {
      double c = MIN (input - done, (double) e->token_budget);
      QmServingStep st = { 0, 0, c, c * (done + (c + 1.0) / 2.0), 0 };

      done += c;
      st.sampled = done >= input ? 1.0 : 0.0;
      t += qm_serving_step_s (e, &st);
    }
  return t;
}

static double
isolated_decode_s (const QmServingEngine *e,
                   double                 context)
{
  QmServingStep st = { 1.0, context, 0, 0, 1.0 };

  return qm_serving_step_s (e, &st);
}

static void
load_for (const QmInferenceInput *in,
          QmArrival               arrival,
          double                  rate_per_s,
          guint                   requests,
          guint                   max_sequences,
          double                  batch_estimate,
          QmServingLoad          *load)
{
  memset (load, 0, sizeof *load);
  load->arrival = arrival;
  load->requests_per_s = rate_per_s;
  load->requests = requests;
  /* Bound the work: a run costs about requests x output / batch steps;
   * keep it under QM_INFERENCE_SIM_STEPS (the batch under load is about
   * rate x time in the system, Little's law), and never under 200
   * requests; a hard stop at twice that. */
  if (batch_estimate > 0.0)
    load->requests = (guint) MIN ((double) requests,
                                  MAX (200.0, QM_INFERENCE_SIM_STEPS * batch_estimate
                                              / MAX (1.0, pos (in->output_tokens)
                                                          + 2.0 * pos (in->output_tokens_sd))));
  load->max_steps = (guint) (2.0 * QM_INFERENCE_SIM_STEPS);
  load->input_tokens = pos (in->input_tokens);
  load->output_tokens = MAX (1.0, pos (in->output_tokens));
  load->input_sd = pos (in->input_tokens_sd);
  load->output_sd = pos (in->output_tokens_sd);
  load->lengths = in->lengths;
  load->n_lengths = in->lengths ? in->n_lengths : 0;
  load->max_sequences = max_sequences;
  load->seed = in->seed ? in->seed : 18;
}

/* Latency of one replica of a fleet of @replicas at the plan's rate. */
static gboolean
simulate_fleet (const QmInferenceInput *in,
                const QmServingEngine  *e,
                guint                   max_sequences,
                double                  requests_per_minute,
                guint                   replicas,
                QmServingResult        *res)
{
  QmServingLoad load;
  double rate = pos (requests_per_minute) / 60.0 / MAX (replicas, 1u);
  double input = pos (in->input_tokens), output = pos (in->output_tokens);
  double busy = isolated_prefill_s (e, input) + output * isolated_decode_s (e, input + output);

  if (in->arrival == QM_ARRIVAL_OFFLINE)
    load_for (in, QM_ARRIVAL_OFFLINE, 0.0, QM_INFERENCE_SIM_REQUESTS, max_sequences,
              max_sequences, &load);
  else if (rate > 0.0)
    load_for (in, QM_ARRIVAL_POISSON, rate, QM_INFERENCE_SIM_REQUESTS, max_sequences,
              MIN ((double) max_sequences, MAX (1.0, rate * busy)), &load);
  else
    /* No load: one request alone. */
    load_for (in, QM_ARRIVAL_POISSON, 0.0, 1, max_sequences, 0.0, &load);
  return qm_serving_simulate (e, &load, res);
}

static gboolean
meets_targets (const QmServingResult *r,
               double                 ttft_s,
               double                 tpot_s)
{
  return !r->unstable
         && (ttft_s == 0.0 || r->ttft_p99_s <= ttft_s * (1.0 + 1e-9))
         && (tpot_s == 0.0 || r->tpot_p99_s <= tpot_s * (1.0 + 1e-9));
}

/* Issues for inputs the model cannot size. */
static void
check_inputs (const QmInferenceInput *in,
              QmIssues               *issues)
{
  const QmGpuSpec *gpu = in->gpu;

  if (!(isfinite (in->params) && in->params > 0.0))
    qm_issues_add (issues, QM_ISSUE_ERROR, "workload.model.params_b", N_("must be > 0"),
                   in->params / 1e9);
  if (!(isfinite (in->output_tokens) && in->output_tokens > 0.0))
    qm_issues_add (issues, QM_ISSUE_ERROR, "workload.inference.output_tokens",
                   N_("must be > 0"), in->output_tokens);
  if (!(isfinite (in->input_tokens) && in->input_tokens >= 0.0))
    qm_issues_add (issues, QM_ISSUE_ERROR, "workload.inference.input_tokens",
                   N_("must be >= 0"), in->input_tokens);
  if (!(isfinite (in->requests_per_minute) && in->requests_per_minute >= 0.0))
    qm_issues_add (issues, QM_ISSUE_ERROR, "workload.inference.requests_per_minute",
                   N_("must be >= 0"), in->requests_per_minute);
  if (!(pos (gpu->memory_gb) > 0.0 && pos (gpu->bandwidth_tbs) > 0.0))
    qm_issues_add (issues, QM_ISSUE_ERROR, "hardware.gpu",
                   N_("needs memory_gb and bandwidth_tbs > 0"), gpu->memory_gb);
}

/* Replica size: the given one, or the smallest that fits and whose lone
 * request meets the latency targets: powers of two within a node, then
 * whole nodes; the largest tried when none does. */
static guint
replica_size (const QmInferenceInput *in,
              guint                   per_node,
              double                  input,
              double                  output,
              double                  context,
              double                  ttft_s,
              double                  tpot_s)
{
  QmServingEngine e;
  guint n, candidates[12], n_candidates = 0;
  gboolean found = FALSE;

  if (in->gpus_per_replica > 0)
    candidates[n_candidates++] = in->gpus_per_replica;
  else
    {
      for (n = 1; n < per_node && n_candidates < G_N_ELEMENTS (candidates); n *= 2)
        candidates[n_candidates++] = n;
      for (n = per_node; n <= MAX (per_node, QM_INFERENCE_MAX_GPUS_PER_REPLICA)
           && n_candidates < G_N_ELEMENTS (candidates); n += per_node)
        candidates[n_candidates++] = n;
    }

  /* A fixed fleet is split into whole replicas: try the sizes that divide
   * it first (pass 0 and 1), any size after (pass 2 and 3). */
  n = candidates[n_candidates - 1];
  for (guint pass = in->fleet_gpus > 0 ? 0 : 2; pass < 4 && !found; pass++)
    for (guint i = 0; i < n_candidates; i++)
      {
        guint c = candidates[i];
        gboolean fits, fast;

        if (pass < 2 && (c > in->fleet_gpus || in->fleet_gpus % c != 0))
          continue;

        engine_for (in, c, per_node, &e);
        fits = qm_serving_fits (&e, context);
        fast = (ttft_s == 0.0 || isolated_prefill_s (&e, input) <= ttft_s)
               && (tpot_s == 0.0 || isolated_decode_s (&e, input + output) <= tpot_s);
        /* Pass 0 (2) wants both; pass 1 (3) settles for fitting. */
        if (fits && (fast || pass % 2 == 1))
          {
            n = c;
            found = TRUE;
            break;
          }
      }
  return n;
}

/* Latency targets: the fewest replicas (from @replicas up) whose p99s
 * meet them at the rate, and whose queue does not grow without targets
 * (doubling, then bisection; the simulation is seeded, so the same plan
 * always gives the same fleet). */
static guint
fleet_for_targets (const QmInferenceInput *in,
                   const QmServingEngine  *e,
                   guint                   cap,
                   guint                   replicas,
                   double                  ttft_s,
                   double                  tpot_s)
{
  QmServingResult res = { 0, };
  guint lo = replicas, hi = replicas;
  double want_ttft = ttft_s, want_tpot = tpot_s;
  gboolean ok = FALSE, ran = FALSE;

  if (!simulate_fleet (in, e, cap, in->requests_per_minute, replicas, &res)
      || meets_targets (&res, ttft_s, tpot_s))
    return replicas;
  while (hi < replicas * 1024u && hi < G_MAXUINT / 4)
    {
      lo = hi;
      hi *= 2;
      ran = simulate_fleet (in, e, cap, in->requests_per_minute, hi, &res);
      if (ran && meets_targets (&res, want_ttft, want_tpot))
        {
          ok = TRUE;
          break;
        }
    }
  /* No fleet meets them (a lone request already misses): the fewest
   * replicas within 25 % of the best p99s, those of the largest fleet
   * tried; the warnings below say the target is missed. */
  if (!ok && ran && !res.unstable)
    {
      if (want_ttft > 0.0 && res.ttft_p99_s > want_ttft)
        want_ttft = 1.25 * res.ttft_p99_s;
      if (want_tpot > 0.0 && res.tpot_p99_s > want_tpot)
        want_tpot = 1.25 * res.tpot_p99_s;
      ok = meets_targets (&res, want_ttft, want_tpot);
      lo = replicas;
    }
  if (ok)
    {
      while (hi - lo > 1)
        {
          guint mid = lo + (hi - lo) / 2;
          if (simulate_fleet (in, e, cap, in->requests_per_minute, mid, &res)
              && meets_targets (&res, want_ttft, want_tpot))
            hi = mid;
          else
            lo = mid;
        }
      replicas = hi;
    }
  return replicas;
}

/* Whether one replica holds @rate_per_s (Poisson) within the targets;
 * *@excess: log of the worst p99 over its target (<= 0 when held), or
 * +inf when it cannot say (no targets, or a queue that keeps growing). */
static gboolean
replica_holds (const QmInferenceInput *poisson,
               const QmServingEngine  *e,
               guint                   cap,
               double                  rate_per_s,
               double                  ttft_s,
               double                  tpot_s,
               double                 *excess)
{
  QmServingResult res = { 0, };
  double worst = 0.0;

  *excess = INFINITY;
  if (!simulate_fleet (poisson, e, cap, rate_per_s * 60.0, 1, &res))
    return FALSE;
  if (ttft_s > 0.0)
    worst = MAX (worst, res.ttft_p99_s / ttft_s);
  if (tpot_s > 0.0)
    worst = MAX (worst, res.tpot_p99_s / tpot_s);
  if (!res.unstable && worst > 0.0)
    *excess = log (worst);
  return meets_targets (&res, ttft_s, tpot_s);
}

/* The capacity of one replica, requests/s: the highest Poisson rate whose
 * simulated p99 TTFT and TPOT meet the targets (without targets, whose
 * queue stays bounded: qm_serving_simulate's "unstable"). Poisson
 * arrivals split evenly over replicas stay Poisson, so a fleet of r holds
 * r times this. The bracket: 0 (a lone request, checked first) and
 * @top_rps, the replica's offline throughput in requests/s, which a
 * Poisson stream cannot reach and stay within bounded latency
 * (utilisation 1: Kleinrock, Queueing Systems vol. 1 §3.2; under Poisson
 * the batch is smaller than offline, so the service rate is lower still).
 * It is narrowed until it is QM_INFERENCE_CAPACITY_TOLERANCE of its top,
 * always keeping a rate run and held below and one run and missed (or
 * the top) above: each run is at the rate where the log of the worst
 * p99 over its target crosses 0 on the line through the two ends
 * (false position with the Illinois halving, Dowell and Jarratt 1971),
 * kept a tenth of the bracket inside it, or at the middle when an end
 * says nothing (a growing queue, no targets); when the bracket is within
 * twice the tolerance, a run just above the held end closes it. Every
 * run uses the plan's seed and the arrival gaps scale with 1/rate, so the
 * answer is repeatable and the p99s all but monotonic in the rate. It
 * does not depend on the plan's rate or replica count, which lets
 * replica_capacity_memo () keep it across edits of those. */
static double
replica_capacity (const QmInferenceInput *in,
                  const QmServingEngine  *e,
                  guint                   cap,
                  double                  top_rps,
                  double                  ttft_s,
                  double                  tpot_s)
{
  QmInferenceInput poisson = *in;
  double lo = 0.0, hi = pos (top_rps), g_lo, g_hi = INFINITY;
  int kept = 0;   /* +1: lo moved last time, -1: hi did */

  poisson.arrival = QM_ARRIVAL_POISSON;
  /* A lone request that misses the targets: no rate is held. */
  if (hi == 0.0 || !replica_holds (&poisson, e, cap, 0.0, ttft_s, tpot_s, &g_lo))
    return 0.0;
  for (guint i = 0; i < 24 && hi - lo > QM_INFERENCE_CAPACITY_TOLERANCE * hi; i++)
    {
      double w = hi - lo, x, g;

      if (w <= 2.0 * QM_INFERENCE_CAPACITY_TOLERANCE * hi)
        x = lo + 0.99 * QM_INFERENCE_CAPACITY_TOLERANCE * hi;
      else if (isfinite (g_lo) && isfinite (g_hi) && g_hi > g_lo)
        x = CLAMP (lo - g_lo * w / (g_hi - g_lo), lo + 0.1 * w, hi - 0.1 * w);
      else
        x = lo + 0.5 * w;
      if (replica_holds (&poisson, e, cap, x, ttft_s, tpot_s, &g))
        {
          lo = x;
          g_lo = g;
          if (kept == 1)
            g_hi *= 0.5;
          kept = 1;
        }
      else
        {
          hi = x;
          g_hi = g;
          if (kept == -1)
            g_lo *= 0.5;
          kept = -1;
        }
    }
  return lo;
}

/* A few capacities already searched, by a digest of everything they depend
 * on (the engine's coefficients, the request lengths, the seed, the cap,
 * the bracket and the targets): a keystroke that changes the rate, the
 * GPU count, prices or the facility finds the capacity here instead of
 * running the simulator a dozen times (issue 31 item 4). Memoisation of a
 * pure function: the answer is the same either way. */
#define CAPACITY_MEMO 16

typedef struct
{
  guint64 key[2];
  double  rps;
} CapacityMemo;

static CapacityMemo capacity_memo[CAPACITY_MEMO];
static guint capacity_memo_next;
G_LOCK_DEFINE_STATIC (capacity_memo);

/* Two 64-bit digests (FNV-1a and a multiply-xorshift) of @n bytes. */
static void
digest (guint64       key[2],
        gconstpointer data,
        gsize         n)
{
  const guint8 *p = data;

  for (gsize i = 0; i < n; i++)
    {
      key[0] = (key[0] ^ p[i]) * G_GUINT64_CONSTANT (0x100000001b3);
      key[1] = (key[1] + p[i] + 1) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
      key[1] ^= key[1] >> 29;
    }
}

static double
replica_capacity_memo (const QmInferenceInput *in,
                       const QmServingEngine  *e,
                       guint                   cap,
                       double                  top_rps,
                       double                  ttft_s,
                       double                  tpot_s)
{
  guint64 key[2] = { G_GUINT64_CONSTANT (0xcbf29ce484222325), 31 };
  const double bracket[] = { (double) cap, top_rps, ttft_s, tpot_s };
  QmInferenceInput k;
  double rps = -1.0;

  /* Every input but those the capacity does not depend on (the rate, the
   * fleet, the plan's arrival) and the pointers (the engine and the
   * lengths stand for what they point at), so that an input added later
   * is in the key without anyone having to remember it. */
  memcpy (&k, in, sizeof k);
  k.shape = NULL;
  k.gpu = NULL;
  k.lengths = NULL;
  k.requests_per_minute = 0;
  k.fleet_gpus = 0;
  k.arrival = QM_ARRIVAL_POISSON;
  digest (key, &k, sizeof k);
  digest (key, e, sizeof *e);
  digest (key, bracket, sizeof bracket);
  if (in->lengths != NULL)
    digest (key, in->lengths, 2 * sizeof (double) * in->n_lengths);

  G_LOCK (capacity_memo);
  for (guint i = 0; i < CAPACITY_MEMO; i++)
    if (capacity_memo[i].key[0] == key[0] && capacity_memo[i].key[1] == key[1])
      rps = capacity_memo[i].rps;
  G_UNLOCK (capacity_memo);
  if (rps >= 0.0)
    return rps;

  rps = replica_capacity (in, e, cap, top_rps, ttft_s, tpot_s);
  G_LOCK (capacity_memo);
  capacity_memo[capacity_memo_next] = (CapacityMemo) { { key[0], key[1] }, rps };
  capacity_memo_next = (capacity_memo_next + 1) % CAPACITY_MEMO;
  G_UNLOCK (capacity_memo);
  return rps;
}

/* A fixed fleet of @replicas: its capacity, the headroom of the plan's rate
 * against it, and the GPUs that would hold the rate (the estimate warns
 * when that is more than the fleet; the fleet is not resized). */
static void
fleet_capacity (const QmInferenceInput *in,
                const QmServingEngine  *e,
                guint                   cap,
                guint                   replicas,
                double                  top_rps,
                double                  ttft_s,
                double                  tpot_s,
                QmInference            *out)
{
  double rate = pos (in->requests_per_minute) / 60.0, per_replica;
  guint n = out->gpus_per_replica;

  if (in->arrival == QM_ARRIVAL_OFFLINE
      || (isfinite (in->tokens_per_s_per_gpu) && in->tokens_per_s_per_gpu > 0.0))
    /* Offline (no arrivals, so no latency to hold) or a measured
     * throughput (no latency model): the throughput in requests. */
    per_replica = out->tokens_per_s_per_gpu * n / MAX (1.0, pos (in->output_tokens));
  else
    per_replica = replica_capacity_memo (in, e, cap, top_rps, ttft_s, tpot_s);
  /* Fewer GPUs than one replica needs: they hold nothing (the estimate
   * says so); gpus_for_rate still says what would. */
  out->max_requests_per_s = in->fleet_gpus >= n ? per_replica * replicas : 0.0;
  out->headroom = rate > 0.0 ? out->max_requests_per_s / rate - 1.0 : NAN;
  if (rate > 0.0 && per_replica > 0.0)
    out->gpus_for_rate = (guint) MIN (ceil (rate / per_replica - 1e-9), (double) (G_MAXUINT / MAX (n, 1u)))
                         * n;
}

/* The fleet's latency at the plan's rate, and the engine step it runs. */
static void
fleet_latency (const QmInferenceInput *in,
               const QmServingEngine  *e,
               guint                   cap,
               guint                   replicas,
               double                  input,
               double                  output,
               QmInference            *out)
{
  QmServingResult res = { 0, };

  if (simulate_fleet (in, e, cap, in->requests_per_minute, replicas, &res))
    {
      out->ttft_p50_ms = res.ttft_p50_s * 1000.0;
      out->ttft_p90_ms = res.ttft_p90_s * 1000.0;
      out->ttft_p99_ms = res.ttft_p99_s * 1000.0;
      out->tpot_p50_ms = res.tpot_p50_s * 1000.0;
      out->tpot_p90_ms = res.tpot_p90_s * 1000.0;
      out->tpot_p99_ms = res.tpot_p99_s * 1000.0;
      out->queue_p50_ms = res.queue_p50_s * 1000.0;
      out->queue_p99_ms = res.queue_p99_s * 1000.0;
      out->requests_per_s = res.requests_per_s * replicas;
      /* A finite Poisson sample strays from its rate: a fleet that keeps
       * up serves what arrives. */
      if (in->arrival != QM_ARRIVAL_OFFLINE && pos (in->requests_per_minute) > 0.0)
        out->requests_per_s = MIN (out->requests_per_s, in->requests_per_minute / 60.0);
      {
        QmServingStep st = { MAX (res.mean_batch, 1.0), MAX (res.mean_batch, 1.0) * (input + output / 2.0),
                             0, 0, MAX (res.mean_batch, 1.0) };
        out->step_s = qm_serving_step_s (e, &st);
        out->decode_compute_bound = st.decode * e->gemm_flops_tok / e->gemm_rate > e->dense_bytes / e->hbm;
      }
    }
}

/* One GPU's memory: the engine's weights, workspace and reserve and
 * @kv_bytes of KV cache. */
static void
per_gpu_memory (const QmServingEngine *e,
                double                 kv_bytes,
                QmInference           *out)
{
  out->weights_per_gpu_bytes = e->weights_bytes;
  out->workspace_per_gpu_bytes = e->workspace_bytes;
  out->reserve_per_gpu_bytes = e->reserve_bytes;
  out->kv_per_gpu_bytes = kv_bytes;
  out->memory_per_gpu_bytes = e->weights_bytes + e->workspace_bytes + e->reserve_bytes + kv_bytes;
}

/* Sequences per replica: the plan's concurrency, else what the KV pool
 * and the engine's max_sequences allow (sets out->max_batch). */
static guint
sequences_per_replica (const QmInferenceInput *in,
                       const QmServingEngine  *e,
                       double                  context,
                       QmInference            *out)
{
  guint cap;

  out->max_batch = qm_serving_max_batch (e, context);
  cap = out->max_batch;
  if (in->concurrency > 0)
    {
      if (in->concurrency > out->max_batch)
        {
          qm_issues_add (&out->issues, QM_ISSUE_WARNING, "workload.inference.concurrency",
                         N_("KV cache for this many sequences does not fit"), in->concurrency);
          out->fits = FALSE;
        }
      cap = in->concurrency;
    }
  return MAX (cap, 1u);
}

void
qm_inference_compute (const QmInferenceInput *in,
                      QmInference            *out)
{
  const QmGpuSpec *gpu;
  QmServingEngine e;
  QmServingLoad load;
  QmServingResult res = { 0, };
  guint per_node, n, cap, replicas;
  double ttft_s, tpot_s, input, output, context, thr_gpu, replica_rps = 0.0;

  memset (out, 0, sizeof *out);
  out->headroom = NAN;
  g_return_if_fail (in != NULL && in->shape != NULL && in->gpu != NULL);
  gpu = in->gpu;

  check_inputs (in, &out->issues);

  input = pos (in->input_tokens);
  output = pos (in->output_tokens);
  /* With a spread of lengths, size memory for a long request: mean + 2 sd. */
  context = input + 2.0 * pos (in->input_tokens_sd) + output + 2.0 * pos (in->output_tokens_sd);
  out->weights_bytes = pos (in->params) * qm_precision_bytes (in->weight_precision);
  out->kv_bytes_per_token = qm_inference_kv_bytes_per_token (in->shape, in->kv_precision);
  out->kv_bytes_per_seq = out->kv_bytes_per_token * (input + output);
  out->capacity_per_gpu_bytes = qm_gpu_memory_bytes (gpu);
  out->tokens_per_s_needed = pos (in->requests_per_minute) / 60.0 * output;

  if (qm_issues_has_error (&out->issues))
    return;
  if (pos (gpu->tflops[QM_PRECISION_BF16]) == 0.0 && pos (gpu->tflops[QM_PRECISION_FP16]) == 0.0
      && pos (gpu->tflops[in->weight_precision]) == 0.0)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "hardware.gpu.tflops",
                     N_("no dense throughput at this precision"), 0);
      return;
    }

  ttft_s = pos (in->ttft_ms) / 1000.0;
  tpot_s = pos (in->tpot_ms) / 1000.0;

  per_node = in->gpus_per_node ? in->gpus_per_node : 8;
  n = replica_size (in, per_node, input, output, context, ttft_s, tpot_s);

  engine_for (in, n, per_node, &e);
  out->gpus_per_replica = n;
  out->kv_blocks = e.kv_blocks;
  out->engine = e.spec;
  out->derived = e.derived;
  out->kv_pool_bytes = e.kv_bytes;
  out->fits = qm_serving_fits (&e, context);
  out->prefill_s = isolated_prefill_s (&e, input);
  if (!out->fits)
    {
      qm_issues_add (&out->issues, QM_ISSUE_ERROR, "workload.inference",
                     N_("weights and one sequence's KV cache do not fit on the largest replica (GB needed)"),
                     (e.weights_bytes + e.workspace_bytes + e.reserve_bytes) * e.tp * e.pp / 1e9
                     + out->kv_bytes_per_seq / 1e9);
      per_gpu_memory (&e, e.kv_bytes_per_token_gpu * context, out);
      out->ttft_ms = out->prefill_s * 1000.0;
      out->tpot_ms = isolated_decode_s (&e, input + output) * 1000.0;
      out->replicas = 1;
      out->gpus = n;
      return;
    }

  cap = sequences_per_replica (in, &e, context, out);

  /* Max throughput of one replica: the offline run at that cap. */
  load_for (in, QM_ARRIVAL_OFFLINE, 0.0,
            MIN (8192u, MAX (QM_INFERENCE_SIM_REQUESTS / 4, 4 * cap)), cap, cap, &load);
  if (qm_serving_simulate (&e, &load, &res))
    {
      out->replica_tokens_per_s = res.tokens_per_s;
      replica_rps = res.requests_per_s;
      out->concurrency = (guint) MAX (1.0, round (res.mean_batch));
    }
  else
    out->concurrency = cap;
  if (in->concurrency > 0)
    out->concurrency = in->concurrency;
  per_gpu_memory (&e, e.kv_bytes_per_token_gpu * e.block_tokens
                      * qm_serving_blocks (&e, context) * MIN (cap, out->max_batch), out);

  /* Throughput per GPU: measured (the rule of thumb) or the model. */
  if (isfinite (in->tokens_per_s_per_gpu) && in->tokens_per_s_per_gpu > 0.0)
    thr_gpu = in->tokens_per_s_per_gpu;
  else
    thr_gpu = out->replica_tokens_per_s / n;
  out->tokens_per_s_per_gpu = thr_gpu;

  /* GPUs for the request rate, at least the rule GPUs = output_tokens /
   * throughput x rpm / 60 (seed 001). */
  out->gpus_exact = thr_gpu > 0.0 ? out->tokens_per_s_needed / thr_gpu : 0.0;
  replicas = (guint) MAX (1.0, ceil (out->gpus_exact / n - 1e-9));

  if (in->fleet_gpus > 0)
    {
      /* The plan's GPUs, as whole replicas: kept, not sized. */
      out->fixed_fleet = TRUE;
      replicas = MAX (in->fleet_gpus / n, 1u);
      out->idle_gpus = in->fleet_gpus > replicas * n ? in->fleet_gpus - replicas * n : 0;
    }
  else if (in->arrival != QM_ARRIVAL_OFFLINE && pos (in->requests_per_minute) > 0.0
           && !(isfinite (in->tokens_per_s_per_gpu) && in->tokens_per_s_per_gpu > 0.0))
    replicas = fleet_for_targets (in, &e, cap, replicas, ttft_s, tpot_s);
  out->replicas = replicas;
  out->gpus = out->replicas * n;
  out->tokens_per_s_total = thr_gpu * out->gpus;

  fleet_latency (in, &e, cap, replicas, input, output, out);
  if (in->output_tokens <= 1.0)
    out->tpot_p50_ms = out->tpot_p90_ms = out->tpot_p99_ms = 0.0;
  out->ttft_ms = out->ttft_p50_ms;
  out->tpot_ms = out->tpot_p50_ms;
  if (out->fixed_fleet)
    fleet_capacity (in, &e, cap, replicas, replica_rps, ttft_s, tpot_s, out);
  out->meets_ttft = ttft_s == 0.0 || out->ttft_p99_ms <= in->ttft_ms * (1.0 + 1e-9);
  out->meets_tpot = tpot_s == 0.0 || out->tpot_p99_ms <= in->tpot_ms * (1.0 + 1e-9);
  if (!out->meets_ttft)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "workload.inference.ttft_ms",
                   N_("p99 target not met at this rate"), in->ttft_ms);
  if (!out->meets_tpot)
    qm_issues_add (&out->issues, QM_ISSUE_WARNING, "workload.inference.tpot_ms",
                   N_("p99 target not met at this rate"), in->tpot_ms);

  /* Little's law: sequences in flight per replica = arrival rate x time in
   * the system. */
  out->in_flight = pos (in->requests_per_minute) / 60.0 / out->replicas
                 * (out->ttft_p50_ms + output * out->tpot_p50_ms) / 1000.0;
}

gboolean
qm_inference_latency_at_rate (const QmInferenceInput *in,
                              const QmInference      *sized,
                              double                  requests_per_minute,
                              QmServingResult        *out)
{
  QmServingEngine e;
  guint cap;

  memset (out, 0, sizeof *out);
  g_return_val_if_fail (in != NULL && sized != NULL, FALSE);
  if (sized->gpus_per_replica == 0 || sized->max_batch == 0)
    return FALSE;
  engine_for (in, sized->gpus_per_replica, in->gpus_per_node ? in->gpus_per_node : 8, &e);
  cap = in->concurrency > 0 ? in->concurrency : sized->max_batch;
  return simulate_fleet (in, &e, cap, requests_per_minute, MAX (sized->replicas, 1u), out);
}

double
qm_inference_capacity (const QmInferenceInput *in,
                       const QmInference      *sized,
                       guint                   replicas)
{
  QmServingEngine e;
  guint cap;

  g_return_val_if_fail (in != NULL && sized != NULL, 0.0);
  if (sized->gpus_per_replica == 0 || sized->max_batch == 0)
    return 0.0;
  engine_for (in, sized->gpus_per_replica, in->gpus_per_node ? in->gpus_per_node : 8, &e);
  cap = in->concurrency > 0 ? in->concurrency : sized->max_batch;
  return MAX (replicas, 1u)
         * replica_capacity_memo (in, &e, cap, sized->replica_tokens_per_s / MAX (1.0, pos (in->output_tokens)),
                             pos (in->ttft_ms) / 1000.0, pos (in->tpot_ms) / 1000.0);
}

GArray *
qm_inference_read_lengths (const char       *path,
                           QmLengthsProblem *problem)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GError) error = NULL;

  problem->line = 0;
  problem->file_error = G_FILE_ERROR_FAILED;
  if (!g_file_get_contents (path, &text, NULL, &error))
    {
      if (error->domain == G_FILE_ERROR)
        problem->file_error = error->code;
      return NULL;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *l = g_strstrip (lines[i]), *end = NULL;
      double v[2];

      if (l[0] == '\0' || (i == 0 && !g_ascii_isdigit (l[0])))
        continue;
      v[0] = g_ascii_strtod (l, &end);
      if (end == l || *end != ',')
        goto bad;
      l = end + 1;
      v[1] = g_ascii_strtod (l, &end);
      while (end && g_ascii_isspace (*end))
        end++;
      if (end == l || (*end != '\0' && *end != ',')
          || !(v[0] >= 0 && v[0] <= 1e8 && v[0] == floor (v[0]))
          || !(v[1] >= 1 && v[1] <= 1e8 && v[1] == floor (v[1])))
        goto bad;
      g_array_append_vals (out, v, 2);
      continue;
    bad:
      problem->line = i + 1;
      return NULL;
    }
  if (out->len == 0)
    {
      problem->line = 1;
      return NULL;
    }
  return g_steal_pointer (&out);
}

double
qm_inference_throughput_at_concurrency (const QmInferenceInput *in,
                                        const QmInference      *sized,
                                        guint                   concurrency)
{
  QmServingEngine e;
  QmServingLoad load;
  QmServingResult res;
  guint cap;

  g_return_val_if_fail (in != NULL && sized != NULL, 0.0);
  if (sized->gpus_per_replica == 0 || sized->max_batch == 0 || concurrency == 0)
    return 0.0;
  engine_for (in, sized->gpus_per_replica, in->gpus_per_node ? in->gpus_per_node : 8, &e);
  cap = MIN (concurrency, sized->max_batch);
  load_for (in, QM_ARRIVAL_OFFLINE, 0.0,
            MIN (8192u, MAX (QM_INFERENCE_SIM_REQUESTS / 4, 4 * cap)), cap, cap, &load);
  if (!qm_serving_simulate (&e, &load, &res))
    return 0.0;
  return res.tokens_per_s / sized->gpus_per_replica;
}
