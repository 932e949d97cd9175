/* bench-serving.c: how fast the request simulator is (issue 18 item 3).
 *
 * Prints figures only; no timed assertions (machines differ).
 * Target: 100,000 requests in under 1 s on one core (aim 100 ms), so the
 * wizard can simulate on every keystroke.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-inference.h"
#include "qm-serving.h"

static double
run (const QmServingEngine *e,
     QmArrival              arrival,
     double                 rate,
     double                 sd,
     QmServingResult       *res)
{
  QmServingLoad load = { 0, };
  gint64 t0;

  load.arrival = arrival;
  load.requests_per_s = rate;
  load.requests = 100000;
  load.input_tokens = 1000;
  load.output_tokens = 500;
  load.input_sd = sd;
  load.output_sd = sd / 2;
  load.seed = 18;
  t0 = g_get_monotonic_time ();
  qm_serving_simulate (e, &load, res);
  return (g_get_monotonic_time () - t0) / 1e3;
}

int
main (void)
{
  QmServingConfig c = { 0, };
  QmServingEngine e;
  QmServingResult res;
  QmInferenceInput in = { 0, };
  QmInference inf;
  double ms;
  gint64 t0;

  /* Llama 3.1 8B, fp8, one H100: the TensorRT-LLM overview's 1000/1000
   * class of workload. */
  c.shape = &qm_catalog_model ("llama-3.1-8b")->shape;
  c.gpu = qm_catalog_gpu ("h100-sxm-80gb");
  c.tp = 1;
  c.pp = 1;
  c.weight_precision = QM_PRECISION_FP8;
  c.kv_precision = QM_PRECISION_FP8;
  qm_serving_engine_init (&e, &c);

  ms = run (&e, QM_ARRIVAL_OFFLINE, 0, 0, &res);
  printf ("offline, 100,000 requests of 1000/500 tokens: %.1f ms (%u steps, %.0f tokens/s)\n",
          ms, res.steps, res.tokens_per_s);
  ms = run (&e, QM_ARRIVAL_POISSON, 0.8 * res.requests_per_s, 0, &res);
  printf ("Poisson at 80%% load, 100,000 requests: %.1f ms (%u steps, TTFT p99 %.0f ms, TPOT p99 %.1f ms)\n",
          ms, res.steps, res.ttft_p99_s * 1e3, res.tpot_p99_s * 1e3);
  ms = run (&e, QM_ARRIVAL_POISSON, 0.8 * res.requests_per_s, 300, &res);
  printf ("Poisson at 80%% load, lengths sd 300/150, 100,000 requests: %.1f ms (%u steps)\n",
          ms, res.steps);

  /* A whole serving estimate with SLO sizing (what the wizard runs). */
  in.shape = c.shape;
  in.params = qm_model_params (c.shape);
  in.gpu = c.gpu;
  in.weight_precision = QM_PRECISION_FP8;
  in.kv_precision = QM_PRECISION_FP8;
  in.requests_per_minute = 6000;
  in.input_tokens = 1000;
  in.output_tokens = 500;
  in.ttft_ms = 1000;
  in.tpot_ms = 30;
  t0 = g_get_monotonic_time ();
  qm_inference_compute (&in, &inf);
  printf ("qm_inference_compute with SLO sizing (6,000 requests/min): %.1f ms (%u replicas)\n",
          (g_get_monotonic_time () - t0) / 1e3, inf.replicas);
  return 0;
}
