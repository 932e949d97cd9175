/* qm-plan-report-sources.c: the plan report's assumptions and sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-plan-report.h"
#include "qm-plan-report-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qm-advisor.h"
#include "qm-catalog.h"
#include "qm-chart-compare.h"
#include "qm-chart-power.h"
#include "qm-chart-style.h"
#include "qm-csv.h"
#include "qm-chart-vram.h"
#include "qm-formulas.h"
#include "qm-plan-charts.h"
#include "qm-reliability.h"


/* A row of the table of sources for the entry @info, once per id and
 * source: @seen holds the pairs already listed. */
static void
source_row (QmDocument          *doc,
            GHashTable          *seen,
            const char          *what,
            const QmCatalogInfo *info)
{
  const char *id = info->id, *source = info->source, *as_of = info->as_of;
  const char *cells[4];

  if (source == NULL || source[0] == '\0' ||
      !g_hash_table_add (seen, g_strdup_printf ("%s\x1f%s", id != NULL ? id : "", source)))
    return;
  cells[0] = what;
  cells[1] = id != NULL && id[0] ? id : "—";
  cells[2] = source;
  cells[3] = as_of != NULL && as_of[0] ? as_of : "—";
  qm_document_add_row (doc, cells, FALSE);
}

void
qm_plan_report_add_assumptions (QmDocument                *doc,
                                const QmPlanReportSubject *subject)
{
  const char *headers[] = {
    /* Translators: a column header of the table of catalog sources: the
     * kind of entry (GPU, server, …). */
    _("Entry"),
    _("Catalog id"),
    _("Source"),
    /* Translators: a column header: the date an entry's figures were read. */
    _("As of"),
  };
  static const double widths[] = { 0.15, 0.19, 0.53, 0.13 };
  const QmPlan *plan = subject->plan;
  const QmEstimate *e = subject->e;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const QmHardware *hw = &plan->hardware;
  char buf[2048];

  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, _("Assumptions, warnings and sources"), 1);

  if (e->n_warnings > 0)
    {
      qm_document_add_heading (doc, _("Warnings"), 2);
      for (guint i = 0; i < e->n_warnings; i++)
        {
          g_autofree char *t = g_strdup_printf ("• %s", qm_note_format (&e->warnings[i], buf, sizeof buf));
          qm_document_add_paragraph (doc, t);
        }
    }

  /* Translators: a heading: where the MFU comes from. */
  qm_document_add_heading (doc, _("MFU basis"), 2);
  if (e->has_training)
    {
      /* Translators: the MFU in percent; where it comes from ("predicted by
       * the throughput model"); the GPU's peak, such as "989 TFLOP/s". */
      g_autofree char *t = g_strdup_printf (_("Model FLOPs utilisation %s%%: %s. Time to train = "
                                              "training FLOPs / (GPUs × peak %s × MFU)."),
                                            qm_report_num (100 * e->mfu, 1), qm_report_mfu_basis (e->mfu_source),
                                            qm_format_si (qm_report_ring (), QM_FORMAT_BUF * 2, e->peak_flops, "FLOP/s"));
      qm_document_add_paragraph (doc, t);
    }
  else
    qm_document_add_paragraph (doc, _("Serving is sized by the roofline model below, not by an MFU."));

  qm_document_add_heading (doc, _("Catalog sources"), 2);
  {
    /* Translators: %s is the version of the catalog's prices. */
    g_autofree char *t = g_strdup_printf (_("Catalog prices version %s. Every entry used, with its source and "
                                            "the date its figures were read."), subject->info.catalog_version);
    qm_document_add_paragraph (doc, t);
  }
  qm_document_begin_table (doc, 4, headers, widths, NULL);
  if (plan->workload.preset[0])
    {
      const QmModelPreset *m = qm_catalog_model (plan->workload.preset);

      if (m != NULL)
        source_row (doc, seen, _("Model"), &m->info);
    }
  source_row (doc, seen, _("GPU"), &hw->gpu.info);
  source_row (doc, seen, _("Server"), &hw->server.info);
  if (plan->network_id[0])
    source_row (doc, seen, _("Network"), &hw->network.info);
  if (plan->storage_id[0])
    source_row (doc, seen, _("Storage"), &hw->storage.info);
  if (e->offer != NULL)
    source_row (doc, seen, _("Cloud offer"), &e->offer->info);
  for (guint i = 0; i < subject->n_bom; i++)
    {
      const QmBomLine *line = &subject->bom[i];
      const QmCatalogInfo info = { .id = line->catalog_id, .source = line->source, .as_of = line->as_of };

      source_row (doc, seen, qm_report_bom_item_label (line->item), &info);
    }
  if (e->has_reliability)
    {
      QmFailurePreset preset;

      if (qm_failure_preset_from_string (plan->reliability_preset, &preset))
        {
          const QmFailurePresetInfo *fi = qm_failure_preset_info (preset);
          const QmCatalogInfo info = { .id = fi->id, .source = fi->source };

          source_row (doc, seen, _("Failure rate"), &info);
        }
    }
  if (g_hash_table_size (seen) == 0)
    {
      const char *cells[] = { "—", "—", _("No catalog entries."), "—" };
      qm_document_add_row (doc, cells, FALSE);
    }
  qm_document_end_table (doc);

  qm_document_add_heading (doc, _("Model and formulas"), 2);
  for (guint i = 0; i < e->n_assumptions; i++)
    {
      g_autofree char *t = g_strdup_printf ("• %s", qm_note_format (&e->assumptions[i], buf, sizeof buf));
      qm_document_add_paragraph (doc, t);
    }

  /* The same table as the app's Assumptions and Formulas page (qm-formulas.c). */
  qm_document_add_heading (doc, _("Formulas and their sources"), 2);
  {
    guint n_formulas;
    const QmFormula *formulas = qm_formulas (&n_formulas);

    for (guint i = 0; i < n_formulas; i++)
      {
        /* Translators: a formula's title, the formula in words (a sentence),
         * and where it comes from. */
        g_autofree char *t = g_strdup_printf (_("%s: %s Source: %s."), _(formulas[i].title),
                                              _(formulas[i].formula), _(formulas[i].source));
        qm_document_add_paragraph (doc, t);
      }
  }
}
