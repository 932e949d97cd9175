/* bench-parallel.c: how fast the layout search is (issue 5).
 *
 * Prints figures only; no timed assertions (machines differ).
 * Targets: a full search for Llama 3.1 405B on 16,384 H100 (DGX H100,
 * NDR 400) under 100 ms on one core; a 64-point GPUs-vs-time curve under
 * 200 ms.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-parallel.h"

static void
problem_405b (QmParallelProblem *pb,
              guint              gpus)
{
  memset (pb, 0, sizeof *pb);
  pb->shape = qm_catalog_model ("llama-3.1-405b")->shape;
  pb->mode = QM_MODE_PRETRAIN;
  pb->precision = QM_PRECISION_BF16;
  pb->optimizer = QM_OPTIMIZER_ADAMW;
  /* Llama 3 §3.4: 8K sequences, 16M-token batches (2048 sequences). */
  pb->seq_len = 8192;
  pb->global_batch = 2048;
  pb->flash_attention = TRUE;
  pb->sequence_parallel = TRUE;
  pb->gpu = *qm_catalog_gpu ("h100-sxm-80gb");
  pb->server = *qm_catalog_server ("dgx-h100");
  pb->network = *qm_catalog_network ("ib-ndr-400");
  pb->gpus = gpus;
  pb->search_zero = TRUE;
  pb->search_recompute = TRUE;
  pb->search_micro_batch = TRUE;
  pb->overlap_dp = TRUE;
}

int
main (void)
{
  QmParallelProblem pb;
  QmParallelSearch *res = g_new0 (QmParallelSearch, 1);
  QmParallelCurvePoint pts[256];
  QmParallelCurve curve;
  guint counts[256], n;
  gint64 t0, t1;
  double best_ms = G_MAXDOUBLE;
  const guint reps = 5;

  problem_405b (&pb, 16384);
  for (guint r = 0; r < reps; r++)
    {
      t0 = g_get_monotonic_time ();
      qm_parallel_search (&pb, 8, res);
      t1 = g_get_monotonic_time ();
      best_ms = MIN (best_ms, (t1 - t0) / 1000.0);
    }
  printf ("search: llama-3.1-405b on 16384 H100 (seq 8192, batch 2048): %.2f ms (best of %u), "
          "%" G_GUINT64_FORMAT " layouts evaluated, %" G_GUINT64_FORMAT " memory checks, %"
          G_GUINT64_FORMAT " pruned by a bound (target < 100 ms)\n",
          best_ms, reps, res->evaluated, res->memory_checks, res->pruned);
  for (guint i = 0; i < res->n; i++)
    {
      const QmParallelResult *r = &res->top[i];

      printf ("  #%u tp %u pp %u dp %u cp %u mb %u v %u ZeRO-%u %-9s step %.2f s MFU %.3f "
              "(compute %.2f, tp %.2f, pp %.2f, dp %.2f, zero %.2f, cp %.2f, bubble %.2f, rec %.2f, opt %.3f)\n",
              i + 1, r->layout.tp, r->layout.pp, r->layout.dp, r->layout.cp, r->layout.micro_batch,
              r->layout.virtual_stages, r->layout.zero_stage,
              qm_recompute_to_string (r->layout.recompute), r->time.step, r->time.mfu,
              r->time.compute, r->time.tp_comm, r->time.pp_comm, r->time.dp_comm,
              r->time.zero_comm, r->time.cp_comm, r->time.bubble, r->time.recompute,
              r->time.optimizer);
    }

  pb.no_prune = TRUE;
  t0 = g_get_monotonic_time ();
  qm_parallel_search (&pb, 8, res);
  t1 = g_get_monotonic_time ();
  printf ("exhaustive (no pruning), same problem: %.2f ms, %" G_GUINT64_FORMAT " layouts evaluated\n",
          (t1 - t0) / 1000.0, res->evaluated);
  pb.no_prune = FALSE;

  n = qm_parallel_curve_counts (8, 262144, pb.server.gpus, 64, counts);
  /* Nearby grid targets can round to the same cluster size; ask for more
   * until 64 distinct counts. */
  for (guint want = 65; n < 64 && want < 256; want++)
    n = qm_parallel_curve_counts (8, 262144, pb.server.gpus, want, counts);
  best_ms = G_MAXDOUBLE;
  for (guint r = 0; r < reps; r++)
    {
      t0 = g_get_monotonic_time ();
      qm_parallel_curve (&pb, 15.6e12, counts, n, pts, &curve);
      t1 = g_get_monotonic_time ();
      best_ms = MIN (best_ms, (t1 - t0) / 1000.0);
    }
  printf ("curve: %u GPU counts from %u to %u: %.2f ms (best of %u), %" G_GUINT64_FORMAT
          " layouts evaluated, monotone %s, knee at %u GPUs (target < 200 ms)\n",
          n, counts[0], counts[n - 1], best_ms, reps, curve.evaluated,
          curve.monotone ? "yes" : "no", curve.knee < n ? pts[curve.knee].gpus : 0);
  {
    guint fits = 0;
    for (guint i = 0; i < n; i++)
      fits += pts[i].fits;
    printf ("  %u of %u counts have a layout that fits and divides the batch\n", fits, n);
  }
  for (guint i = 0; i < n; i += 4)
    printf ("  %6u GPUs: %s %.1f days, MFU %.3f, speed-up/doubling %.2f\n", pts[i].gpus,
            pts[i].fits ? "fits" : "no fit", pts[i].train_s / 86400, pts[i].mfu, pts[i].speedup);

  g_free (res);
  return 0;
}
