/* qm-estimate-quote.c: a plan's quote terms applied to its estimate's cost
 * (qm-quote.h does the arithmetic).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-estimate.h"

void
qm_estimate_quote (const QmPlan     *plan,
                   const QmEstimate *estimate,
                   QmQuote          *out)
{
  QmQuoteTerms terms = plan->quote;
  double run_months = estimate->run_s / (QM_HOURS_PER_MONTH * 3600.0);

  /* A plan without quote terms gets the defaults for its pricing (support
   * over its amortisation years): the same terms for its quote, its
   * cash-flow chart and the break-even its estimate states. */
  if (!plan->has_quote)
    qm_quote_terms_init (&terms, &plan->pricing);
  if (terms.support_rate == 0.0)
    terms.support_rate = plan->pricing.support_fraction;
  qm_quote_compute (&estimate->cost, plan->pricing.mode, run_months, &terms, out);
}
