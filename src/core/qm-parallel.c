/* qm-parallel.c: the layout search (TP × PP × DP × CP × EP, micro-batch,
 * interleaving) and the GPUs-vs-time curve. The time model of one layout
 * is in qm-parallel-model.c, its communication in qm-parallel-comm.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-parallel-private.h"

/* ---- Search bounds ------------------------------------------------------- */
#define QM_PARALLEL_MAX_PP_DEFAULT  128
#define QM_PARALLEL_MAX_MB_DEFAULT  64
/* Interleaving: any chunk count the layers allow (a chunk of one layer at
 * most), up to NeMo's deepest published setting (VP 20 on 80 layers and
 * PP 4, Llama 2 70B, NeMo 24.07 performance summary). */
#define QM_PARALLEL_MAX_VIRTUAL     20
#define QM_PARALLEL_MAX_CP          16
#define QM_PARALLEL_MAX_LIST        160

/* ---- Search -------------------------------------------------------------- */

static guint
push_unique (guint *list,
             guint  n,
             guint  v)
{
  for (guint i = 0; i < n; i++)
    if (list[i] == v)
      return n;
  if (n < QM_PARALLEL_MAX_LIST)
    list[n++] = v;
  return n;
}

static void
sort_uints (guint *list,
            guint  n)
{
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && list[j - 1] > list[j]; j--)
      {
        guint t = list[j];
        list[j] = list[j - 1];
        list[j - 1] = t;
      }
}

static double
rank_value (const QmParallelProblem *pb,
            const QmParallelTime    *t)
{
  if (pb->rank == QM_PARALLEL_RANK_COST)
    return t->step * pb->gpus * (pb->usd_per_gpu_hour > 0 ? pb->usd_per_gpu_hour : 1.0) / 3600.0;
  return t->step;
}

/* A total order on layouts for ties, so that the pruned and exhaustive
 * searches return the same list whatever order they visit layouts in. */
static int
layout_cmp (const QmParallelLayout *a,
            const QmParallelLayout *b)
{
  guint ka[] = { a->tp, a->pp, a->cp, a->ep, a->micro_batch, a->virtual_stages,
                 a->zero_stage, a->recompute, a->tp_overlap };
  guint kb[] = { b->tp, b->pp, b->cp, b->ep, b->micro_batch, b->virtual_stages,
                 b->zero_stage, b->recompute, b->tp_overlap };

  for (guint i = 0; i < G_N_ELEMENTS (ka); i++)
    if (ka[i] != kb[i])
      return ka[i] < kb[i] ? -1 : 1;
  return 0;
}

static gboolean
better (const QmParallelProblem *pb,
        const QmParallelResult  *a,
        const QmParallelResult  *b)
{
  double va = rank_value (pb, &a->time), vb = rank_value (pb, &b->time);

  if (va != vb)
    return va < vb;
  return layout_cmp (&a->layout, &b->layout) < 0;
}

static void
insert_top (const QmParallelProblem *pb,
            QmParallelSearch        *out,
            guint                    top_n,
            const QmParallelResult  *r)
{
  guint i;

  if (out->n == top_n && !better (pb, r, &out->top[top_n - 1]))
    return;
  i = out->n < top_n ? out->n++ : top_n - 1;
  while (i > 0 && better (pb, r, &out->top[i - 1]))
    {
      out->top[i] = out->top[i - 1];
      i--;
    }
  out->top[i] = *r;
}

/* Every interleaving of one layout (@l with v unset): check memory, bound,
 * price, keep the best. TRUE when the plain 1F1B schedule (v = 1) does not
 * fit, so that larger micro-batches need not be tried. */
static gboolean
try_virtual_stages (const QmParallelCtx     *c,
                    const QmParallelProblem *pb,
                    guint                    top_n,
                    QmParallelLayout        *l,
                    QmParallelSearch        *out)
{
  guint L = MAX (pb->shape.layers, 1u);
  guint v_lo = pb->virtual_stages > 0 ? pb->virtual_stages : 1;
  guint v_hi = pb->virtual_stages > 0 ? pb->virtual_stages
               : (l->pp > 1 ? MIN (QM_PARALLEL_MAX_VIRTUAL, (L + l->pp - 1) / l->pp) : 1);
  gboolean v1_nofit = FALSE;

  for (guint v = v_lo; v <= v_hi; v++)
    {
      QmParallelResult res;
      QmMemoryBreakdown mem;

      l->virtual_stages = v;
      if (!qm_parallel_layout_valid (pb, l))
        continue;
      out->no_fit.layouts_tried++;
      qm_parallel_memory (pb, l, &mem);
      out->memory_checks++;
      if (!mem.fits)
        {
          if (-mem.margin < out->no_fit.shortfall_bytes)
            {
              out->no_fit.shortfall_bytes = -mem.margin;
              out->no_fit.best_layout = *l;
              out->no_fit.best_memory = mem;
            }
          /* Interleaving keeps 1 + (p−1)/(p·v) times the activations of
           * 1F1B, never fewer. */
          if (v == 1)
            v1_nofit = TRUE;
          continue;
        }
      /* Bound: compute alone cannot beat the N-th best. */
      if (!pb->no_prune && out->n == top_n)
        {
          QmParallelTime lb = { 0 };

          lb.step = qm_parallel_step_lower_bound (c, l);
          if (rank_value (pb, &lb) > rank_value (pb, &out->top[top_n - 1].time))
            {
              out->pruned++;
              continue;
            }
        }
      res.layout = *l;
      res.memory = mem;
      qm_parallel_model_step (c, l, &res.time);
      /* tp_overlap "auto": the fastest of the three for this layout (no
       * memory difference: userbuffers are a few activation-sized
       * buffers, within the allocator's reserve). */
      if (pb->tp_overlap == QM_TP_OVERLAP_AUTO && l->tp > 1 && l->sequence_parallel)
        for (guint o = QM_TP_OVERLAP_BULK; o <= QM_TP_OVERLAP_PIPELINED; o++)
          {
            QmParallelLayout lo = *l;
            QmParallelTime to;

            lo.tp_overlap = (QmTpOverlap) o;
            qm_parallel_model_step (c, &lo, &to);
            if (to.step < res.time.step)
              {
                res.layout = lo;
                res.time = to;
              }
          }
      res.cost_usd_per_step = res.time.step * pb->gpus * pb->usd_per_gpu_hour / 3600.0;
      out->evaluated++;
      insert_top (pb, out, top_n, &res);
    }
  return v1_nofit;
}

/* The TP, PP and CP degrees to try (the plan's, when it fixes one);
 * returns the number of CP degrees. */
static guint
model_parallel_candidates (const QmParallelProblem *pb,
                           guint                   *tps,
                           guint                   *ntp,
                           guint                   *pps,
                           guint                   *npp,
                           guint                   *cps)
{
  guint L = MAX (pb->shape.layers, 1u);
  guint gpn = MAX (pb->server.gpus, 1u);
  guint max_pp = pb->max_pp > 0 ? pb->max_pp : QM_PARALLEL_MAX_PP_DEFAULT;
  guint ncp = 0;

  /* TP: powers of two inside the node first, then up to two nodes. Inside
   * the node only those that divide it, as a plan's own tp must
   * (qm_plan_validate): a 72-GPU NVLink domain (GB200 NVL72) takes 8 but
   * not 16, whose fifth group would straddle two racks and run at the
   * NICs' speed, not NVLink's. */
  if (pb->tp > 0)
    tps[(*ntp)++] = pb->tp;
  else
    for (guint t = 1; t <= 2 * gpn && t <= MAX (pb->shape.heads, 1u); t *= 2)
      if (t > gpn || gpn % t == 0)
        tps[(*ntp)++] = t;
  /* PP: divisors of the layers, powers of two, and the divisors of the
   * GPU count: stages may be uneven (qm_memory_pipeline_stages), so a
   * count with an odd factor can put it into pp, as Llama 3 put 126
   * layers on 16 stages. */
  if (pb->pp > 0)
    pps[(*npp)++] = pb->pp;
  else
    {
      for (guint p = 1; p <= MIN (L, max_pp); p++)
        if (L % p == 0 || pb->gpus % p == 0)
          *npp = push_unique (pps, *npp, p);
      for (guint p = 1; p <= MIN (L, max_pp); p *= 2)
        *npp = push_unique (pps, *npp, p);
      sort_uints (pps, *npp);
    }
  /* CP: powers of two that split the sequence into chunks of ≥ 1024
   * (ring attention pairs chunks; below that the exchange dominates). */
  if (pb->cp > 0)
    cps[ncp++] = pb->cp;
  else
    for (guint k = 1; k <= QM_PARALLEL_MAX_CP && (k == 1 || pb->seq_len / k >= 1024); k *= 2)
      if (pb->seq_len % k == 0)
        cps[ncp++] = k;
  return ncp;
}

/* The EP degrees to try at data parallelism @dp: 1 for a dense model,
 * else the powers of two that divide both the experts and dp. */
static guint
expert_candidates (const QmParallelProblem *pb,
                   guint                    dp,
                   guint                   *eps)
{
  guint nep = 0;

  if (pb->ep > 0)
    eps[nep++] = pb->ep;
  else if (!qm_model_is_moe (&pb->shape))
    eps[nep++] = 1;
  else
    for (guint e = 1; e <= MAX (pb->shape.experts, 1u); e *= 2)
      if (pb->shape.experts % e == 0 && dp % e == 0)
        eps[nep++] = e;
  return nep;
}

/* The micro-batch sizes that divide the @per_dp sequences of one replica. */
static guint
micro_batch_candidates (const QmParallelProblem *pb,
                        guint                    per_dp,
                        guint                   *mbs)
{
  guint max_mb = pb->max_micro_batch > 0 ? pb->max_micro_batch : QM_PARALLEL_MAX_MB_DEFAULT;
  guint nmb = 0;

  if (pb->search_micro_batch)
    {
      for (guint b = 1; b <= MIN (per_dp, max_mb); b++)
        if (per_dp % b == 0)
          mbs[nmb++] = b;
    }
  else
    {
      guint b = MAX (pb->micro_batch, 1u);
      if (per_dp % b == 0)
        mbs[nmb++] = b;
    }
  return nmb;
}

static void
search_core (const QmParallelProblem *pb,
             guint                    top_n,
             QmParallelSearch        *out)
{
  QmParallelCtx c;
  guint tps[QM_PARALLEL_MAX_LIST], pps[QM_PARALLEL_MAX_LIST], cps[QM_PARALLEL_MAX_LIST];
  guint eps[QM_PARALLEL_MAX_LIST], mbs[QM_PARALLEL_MAX_LIST];
  guint ntp = 0, npp = 0, ncp = 0;
  guint z_lo = pb->search_zero ? 0 : MIN (pb->zero_stage, 3u);
  guint z_hi = pb->search_zero ? 3 : MIN (pb->zero_stage, 3u);
  guint r_lo = pb->search_recompute ? 0 : pb->recompute;
  guint r_hi = pb->search_recompute ? 2 : pb->recompute;

  memset (out, 0, sizeof *out);
  out->no_fit.shortfall_bytes = G_MAXDOUBLE;
  top_n = CLAMP (top_n, 1u, (guint) QM_PARALLEL_MAX_TOP);
  if (pb->gpus == 0 || pb->global_batch == 0 || pb->seq_len == 0)
    return;
  qm_parallel_ctx_init (&c, pb);
  if (!(c.peak > 0))
    return;

  ncp = model_parallel_candidates (pb, tps, &ntp, pps, &npp, cps);
  for (guint it = 0; it < ntp; it++)
    for (guint ic = 0; ic < ncp; ic++)
      for (guint ip = 0; ip < npp; ip++)
        {
          guint tp = tps[it], cp = cps[ic], pp = pps[ip];
          guint64 mp = (guint64) tp * cp * pp;
          guint dp, per_dp, nep, nmb;

          if (mp > pb->gpus || pb->gpus % mp != 0)
            continue;
          dp = pb->gpus / mp;
          if (pb->global_batch % dp != 0)
            continue;
          per_dp = pb->global_batch / dp;

          nep = expert_candidates (pb, dp, eps);
          nmb = micro_batch_candidates (pb, per_dp, mbs);

          for (guint ie = 0; ie < nep; ie++)
            for (guint z = z_lo; z <= z_hi; z++)
              for (guint r = r_lo; r <= r_hi; r++)
                for (guint ib = 0; ib < nmb; ib++)
                  {
                    QmParallelLayout l;
                    gboolean v1_nofit;

                    memset (&l, 0, sizeof l);
                    l.tp = tp;
                    l.pp = pp;
                    l.dp = dp;
                    l.cp = cp;
                    l.ep = eps[ie];
                    l.micro_batch = mbs[ib];
                    l.n_micro = per_dp / mbs[ib];
                    l.virtual_stages = 1;
                    l.zero_stage = z;
                    l.recompute = (QmRecompute) r;
                    l.sequence_parallel = pb->sequence_parallel && tp > 1;
                    l.tp_overlap = pb->tp_overlap == QM_TP_OVERLAP_AUTO || !l.sequence_parallel
                                   ? QM_TP_OVERLAP_NONE : pb->tp_overlap;
                    l.shard_group = pb->shard_group;
                    v1_nofit = try_virtual_stages (&c, pb, top_n, &l, out);
                    /* Memory grows with the micro-batch: when no
                     * interleaving fits, larger ones cannot fit either. */
                    if (v1_nofit && !pb->no_prune)
                      {
                        out->pruned += nmb - ib - 1;
                        break;
                      }
                  }
        }
}

void
qm_parallel_search (const QmParallelProblem *pb,
                    guint                    top_n,
                    QmParallelSearch        *out)
{
  QmParallelNoFit *nf = &out->no_fit;
  QmParallelProblem alt;
  QmParallelSearch *tmp;

  search_core (pb, top_n, out);
  if (out->n > 0)
    {
      memset (nf, 0, sizeof *nf);
      return;
    }

  /* Nothing fits: say why, and what would. The what-ifs run the search
   * again with one restriction lifted (this path is not the hot one). */
  nf->valid = TRUE;
  if (nf->layouts_tried == 0)
    {
      nf->fixes |= QM_PARALLEL_FIX_GLOBAL_BATCH;
      nf->shortfall_bytes = 0;
      return;
    }
  nf->fixes |= QM_PARALLEL_FIX_BIGGER_GPU;
  nf->fix_capacity_bytes = nf->best_memory.total;

  tmp = g_alloca (sizeof *tmp);
  if (!pb->search_zero && pb->zero_stage < 3)
    {
      alt = *pb;
      alt.zero_stage = 3;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_ZERO3;
    }
  if (!pb->search_recompute && pb->recompute != QM_RECOMPUTE_FULL)
    {
      alt = *pb;
      alt.recompute = QM_RECOMPUTE_FULL;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_RECOMPUTE;
    }
  if (!pb->search_micro_batch && pb->micro_batch > 1)
    {
      alt = *pb;
      alt.micro_batch = 1;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_MICRO_BATCH;
    }
  if (pb->tp > 0 || pb->pp > 0 || pb->cp > 0 || pb->ep > 0)
    {
      alt = *pb;
      alt.tp = alt.pp = alt.cp = alt.ep = 0;
      alt.virtual_stages = 0;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        nf->fixes |= QM_PARALLEL_FIX_MODEL_PARALLEL;
    }
  /* More GPUs of the same kind, everything else on auto: doublings up to
   * 1024× (the global batch bounds the data-parallel degree). */
  alt = *pb;
  alt.tp = alt.pp = alt.cp = alt.ep = 0;
  alt.virtual_stages = 0;
  alt.search_zero = alt.search_recompute = alt.search_micro_batch = TRUE;
  for (guint k = 1; k <= 10; k++)
    {
      guint64 g = (guint64) pb->gpus << k;

      if (g > G_MAXUINT / 2)
        break;
      alt.gpus = (guint) g;
      search_core (&alt, 1, tmp);
      if (tmp->n > 0)
        {
          nf->fixes |= QM_PARALLEL_FIX_MORE_GPUS;
          nf->fix_gpus = alt.gpus;
          break;
        }
    }
}

const char *
qm_parallel_no_fit_format (const QmParallelNoFit *nf,
                           char                  *buf,
                           gsize                  size)
{
  GString *s;

  if (size == 0)
    return buf;
  if (!nf->valid)
    {
      g_strlcpy (buf, "", size);
      return buf;
    }
  s = g_string_new (NULL);
  if (nf->fixes & QM_PARALLEL_FIX_GLOBAL_BATCH)
    g_string_append (s, "no layout divides the global batch (global_batch = micro_batch × n_micro × dp)");
  else
    {
      const QmParallelLayout *l = &nf->best_layout;

      g_string_append_printf (s, "no layout fits in memory; the closest (tp %u, pp %u, dp %u, cp %u, "
                              "micro-batch %u, ZeRO-%u, recompute %s) needs %.1f GB, %.1f GB more than "
                              "the GPU has. Would fit:",
                              l->tp, l->pp, l->dp, l->cp, l->micro_batch, l->zero_stage,
                              qm_recompute_to_string (l->recompute),
                              nf->best_memory.total / 1e9, nf->shortfall_bytes / 1e9);
      if (nf->fixes & QM_PARALLEL_FIX_MORE_GPUS)
        g_string_append_printf (s, " %u GPUs;", nf->fix_gpus);
      if (nf->fixes & QM_PARALLEL_FIX_ZERO3)
        g_string_append (s, " ZeRO-3;");
      if (nf->fixes & QM_PARALLEL_FIX_RECOMPUTE)
        g_string_append (s, " full recompute;");
      if (nf->fixes & QM_PARALLEL_FIX_MICRO_BATCH)
        g_string_append (s, " micro-batch 1;");
      if (nf->fixes & QM_PARALLEL_FIX_MODEL_PARALLEL)
        g_string_append (s, " tp/pp/cp/ep on auto;");
      if (nf->fixes & QM_PARALLEL_FIX_BIGGER_GPU)
        g_string_append_printf (s, " a GPU with at least %.0f GB.", ceil (nf->fix_capacity_bytes / 1e9));
    }
  g_strlcpy (buf, s->str, size);
  g_string_free (s, TRUE);
  return buf;
}

/* ---- GPUs-vs-time curve -------------------------------------------------- */

guint
qm_parallel_curve_counts (guint  min_gpus,
                          guint  max_gpus,
                          guint  gpn,
                          guint  n,
                          guint *counts)
{
  guint k = 0;
  double lo, hi;

  gpn = MAX (gpn, 1u);
  min_gpus = MAX (min_gpus, 1u);
  max_gpus = MAX (max_gpus, min_gpus);
  if (n == 0)
    return 0;
  lo = log ((double) min_gpus);
  hi = log ((double) max_gpus);
  for (guint i = 0; i < n; i++)
    {
      double g = exp (n > 1 ? lo + (hi - lo) * i / (n - 1) : lo);
      double best = 0, best_d = G_MAXDOUBLE;
      guint c;

      /* Cluster sizes people buy and layouts can use: 2^k, and 1, 1.25,
       * 1.5 or 1.75 × 2^k whole nodes (the data-parallel degree must divide
       * a power-of-two batch, so odd factors have to go to tp·pp·cp). */
      for (double p2 = 1; p2 <= 2.0 * max_gpus; p2 *= 2)
        for (guint m = 4; m <= 7; m++)
          {
            double cand = p2 < gpn ? (m == 4 ? p2 : 0) : p2 * m / 4.0;
            double d;

            if (cand < 1 || fmod (cand, p2 < gpn ? 1.0 : (double) gpn) != 0)
              continue;
            d = fabs (log (cand / g));
            if (d < best_d)
              {
                best_d = d;
                best = cand;
              }
          }
      c = (guint) CLAMP (best, (double) min_gpus, (double) max_gpus);
      if (k == 0 || counts[k - 1] < c)
        counts[k++] = c;
    }
  return k;
}

/* Whether going from @from to the larger count @to speeds the run up by
 * QM_PARALLEL_KNEE_SPEEDUP per doubling of the GPUs. */
static gboolean
doubling_pays (const QmParallelCurvePoint *from,
               const QmParallelCurvePoint *to)
{
  double doublings = log2 ((double) to->gpus / from->gpus);

  return doublings > 0 && pow (from->train_s / to->train_s, 1.0 / doublings) >= QM_PARALLEL_KNEE_SPEEDUP;
}

/* The first point past the knee: the one after the first fitting count
 * from which no larger count pays (doubling_pays). A fixed global batch
 * makes the curve jagged, since a count that does not divide the batch
 * wastes GPUs or forces a slower layout, so one poor step is not the
 * knee while a larger count still pays. n when every fitting count but
 * the last still pays. */
static guint
find_knee (const QmParallelCurvePoint *points,
           guint                       n)
{
  for (guint e = 0; e < n; e++)
    {
      gboolean pays = FALSE;
      guint next = n;

      if (!points[e].fits)
        continue;
      for (guint j = e + 1; j < n && !pays; j++)
        if (points[j].fits)
          {
            next = MIN (next, j);
            pays = doubling_pays (&points[e], &points[j]);
          }
      if (!pays)
        return next;
    }
  return n;
}

void
qm_parallel_curve (const QmParallelProblem *pb,
                   double                   tokens,
                   const guint             *counts,
                   guint                    n,
                   QmParallelCurvePoint    *points,
                   QmParallelCurve         *out)
{
  QmParallelProblem p = *pb;
  QmParallelSearch *res = g_alloca (sizeof *res);
  double steps = tokens / ((double) MAX (pb->global_batch, 1u) * MAX (pb->seq_len, 1u));
  double last_t = 0;
  guint last_g = 0;

  memset (out, 0, sizeof *out);
  out->monotone = TRUE;
  for (guint i = 0; i < n; i++)
    {
      QmParallelCurvePoint *pt = &points[i];

      memset (pt, 0, sizeof *pt);
      pt->gpus = counts[i];
      p.gpus = counts[i];
      search_core (&p, 1, res);
      out->evaluated += res->evaluated;
      if (res->n == 0)
        continue;
      pt->fits = TRUE;
      pt->step_s = res->top[0].time.step;
      pt->train_s = steps * pt->step_s;
      pt->mfu = res->top[0].time.mfu;
      pt->layout = res->top[0].layout;
      if (last_g > 0)
        {
          double doublings = log2 ((double) pt->gpus / last_g);

          /* Speed-up per doubling, so uneven grid steps compare. */
          pt->speedup = doublings > 0 ? pow (last_t / pt->train_s, 1.0 / doublings) : 1.0;
          if (pt->train_s > last_t * (1.0 + 1e-9))
            out->monotone = FALSE;
        }
      last_t = pt->train_s;
      last_g = pt->gpus;
    }
  out->n = n;
  out->knee = find_knee (points, n);
}

