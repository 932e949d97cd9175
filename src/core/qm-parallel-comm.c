/* qm-parallel-comm.c: the communication part of the step-time model:
 * which link a communicator rides (NVLink or the NICs) and the α–β cost
 * of NCCL's ring and all-to-all collectives on it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-parallel-private.h"

/* A communicator of n ranks whose neighbours are `stride` ranks apart
 * (Megatron orders ranks tp, cp, dp, pp from the fastest). Inside one node
 * it rides NVLink; across nodes a ring crosses each node boundary once per
 * channel, so its bus bandwidth is the NIC bandwidth of the k members it
 * has in each node (NCCL rings are one channel per NIC rail). */
QmParallelTier
qm_parallel_tier_for (const QmParallelCtx *c,
                      double               n,
                      double               stride)
{
  QmParallelTier t;

  if (n * stride <= c->gpn)
    {
      t.bw = c->nvlink_bw;
      /* A full mesh: the group's ring runs over the n - 1 links each GPU
       * has to the others, not the GPU's whole fabric. */
      if (c->mesh_link_bw > 0 && n > 1)
        t.bw = MIN (t.bw, (n - 1) * c->mesh_link_bw);
      t.hop = QM_PARALLEL_NCCL_NVLINK_HOP_S;
    }
  else
    {
      double k = stride >= c->gpn ? 1.0 : MIN (n, c->gpn / stride);

      t.bw = MIN (c->nvlink_bw > 0 ? c->nvlink_bw : G_MAXDOUBLE, k * c->nic_bw);
      t.hop = c->net_hop;
    }
  if (!(t.bw > 0))
    t.bw = 1e9;
  return t;
}

QmParallelTier
qm_parallel_p2p_tier (const QmParallelCtx *c,
                      double               n,
                      double               stride)
{
  QmParallelTier t = qm_parallel_tier_for (c, n, stride);

  /* Across nodes: a ring of k members per node has k - 1 NVLink hops and
   * one NIC hop per node; all hops run at once, so the NIC hop, one GPU's
   * share of the node's NICs (rail-optimised: its own), sets the pace. */
  if (n * stride > c->gpn && c->nic_bw > 0)
    t.bw = MIN (t.bw, c->nic_bw);
  /* Inside a full mesh a send to one neighbour rides the one link
   * between them. */
  else if (n * stride <= c->gpn && c->mesh_link_bw > 0)
    t.bw = MIN (t.bw, c->mesh_link_bw);
  return t;
}

/* α–β cost of one collective: base latency + steps·α + volume·bytes/busbw.
 * NCCL ring algorithms (NVIDIA/nccl-tests doc/PERFORMANCE.md): all-reduce moves
 * 2(n−1)/n of the buffer per rank in 2(n−1) steps; all-gather and
 * reduce-scatter (n−1)/n in n−1 steps. All-to-all (MoE dispatch/combine):
 * each rank keeps 1/n and sends the rest, (n−1)/n of its buffer, pairwise
 * in one step (NCCL send/recv groups). */
double
qm_parallel_collective (const QmParallelTier  *t,
                        QmParallelCollective   kind,
                        double                 n,
                        double                 bytes)
{
  double steps, volume;

  if (n <= 1)
    return 0;
  switch (kind)
    {
    case QM_PARALLEL_ALL_REDUCE:
      steps = 2.0 * (n - 1);
      volume = 2.0 * (n - 1) / n;
      break;
    case QM_PARALLEL_ALL_GATHER:
      steps = n - 1;
      volume = (n - 1) / n;
      break;
    case QM_PARALLEL_ALL_TO_ALL:
    default:
      steps = 1;
      volume = (n - 1) / n;
      break;
    }
  return QM_PARALLEL_NCCL_BASE_LATENCY_S + steps * t->hop + volume * bytes / t->bw;
}

double
qm_parallel_exposed (const QmParallelCtx *c,
                     double               comm,
                     double               window,
                     gboolean             overlap)
{
  if (!overlap)
    return comm;
  return comm - MIN (c->overlap * comm, MAX (window, 0.0));
}

