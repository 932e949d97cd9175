/* qm-plan-report-compare.c: the comparison of plans: its rows (shared with
 * the compare page and the CLI) and its PDF.
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
#include "qm-metrics.h"
#include "qm-plan-charts.h"
#include "qm-reliability.h"


/* ---------------------------------------------------------------------- */
/* Comparison                                                              */

typedef enum
{
  COMPARE_FIGURE_CHART,
  COMPARE_FIGURE_VRAM,
  COMPARE_FIGURE_POWER,
} CompareFigureKind;

typedef struct
{
  guint        n;
  QmPlan       plans[QM_COMPARE_MAX_PLANS];
  QmEstimate   estimates[QM_COMPARE_MAX_PLANS];
  char         labels[QM_COMPARE_MAX_PLANS][192];
  char         short_labels[QM_COMPARE_MAX_PLANS][192];  /* half-width cells */
  char         currency[16];
  QmBytesUnit  unit;
  QmChartStyle style;
  /* The shared scales. */
  double       vram_max;
  double       node_max_w;
  double       cluster_max_kw;
} CompareCopy;

typedef struct
{
  CompareCopy       *copy;
  CompareFigureKind  kind;
  guint              plan;     /* COMPARE_FIGURE_POWER */
} CompareFigure;

static void
compare_figure_free (gpointer data)
{
  CompareFigure *f = data;

  g_rc_box_release (f->copy);
  g_free (f);
}

static const char letters[] = "ABCD";

/* A plan's name over its chart, at the top left of the figure. */
static void
sub_title (cairo_t            *cr,
           const QmChartStyle *style,
           const char         *text)
{
  qm_chart_set_color (cr, &style->foreground);
  qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_BOLD, 4.0, 0.0, 0.0, 0.0 }, text);
}

static void
draw_compare_figure (cairo_t  *cr,
                     double    width,
                     double    height,
                     gpointer  user_data)
{
  CompareFigure *f = user_data;
  CompareCopy *c = f->copy;
  double title_h;

  qm_chart_text_size (cr, &c->style, QM_TEXT_BOLD, "Xg", NULL, &title_h);
  title_h += 4.0;

  switch (f->kind)
    {
    case COMPARE_FIGURE_CHART:
      {
        QmCompareItem items[QM_COMPARE_MAX_PLANS];
        const char *labels[QM_COMPARE_MAX_PLANS];

        for (guint i = 0; i < c->n; i++)
          labels[i] = c->labels[i];
        qm_compare_chart_items (c->estimates, labels, c->n, items);
        qm_chart_render_compare (&(QmChartFrame) { cr, &c->style, width, height },
                                 items, c->n, c->currency, NULL);
      }
      break;

    case COMPARE_FIGURE_VRAM:
      {
        guint cols = 2;
        double cw = width / cols, ch = height / ((c->n + cols - 1) / cols);

        for (guint i = 0; i < c->n; i++)
          {
            const char *label = _("Per GPU");

            cairo_save (cr);
            cairo_translate (cr, (i % cols) * cw, (i / cols) * ch);
            cairo_rectangle (cr, 0, 0, cw - 6, ch - 6);
            cairo_clip (cr);
            sub_title (cr, &c->style, c->short_labels[i]);
            cairo_translate (cr, 0, title_h);
            qm_chart_render_vram_scaled (&(QmChartFrame) { cr, &c->style, cw - 6, ch - 6 - title_h },
                                         &c->estimates[i].memory, &label, 1, c->unit, c->vram_max, NULL);
            cairo_restore (cr);
          }
      }
      break;

    case COMPARE_FIGURE_POWER:
      sub_title (cr, &c->style, c->labels[f->plan]);
      cairo_translate (cr, 0, title_h);
      qm_chart_render_power_scaled (&(QmChartFrame) { cr, &c->style, width, height - title_h },
                                    &c->estimates[f->plan].power, c->node_max_w, c->cluster_max_kw, NULL);
      break;

    default:
      g_assert_not_reached ();
    }
}

void
qm_compare_chart_items (const QmEstimate   *estimates,
                        const char * const *labels,
                        guint               n,
                        QmCompareItem      *items)
{
  for (guint i = 0; i < n; i++)
    {
      const QmEstimate *e = &estimates[i];

      items[i] = (QmCompareItem) {
        .label = labels[i],
        .gpus = e->gpus,
        .days = e->has_training ? e->train_days : 0.0,
        .cost = e->cost.total,
        .power_kw = e->power.facility_peak_kw,
        .co2_tonnes = e->power.co2_tonnes,
      };
    }
}

static void
add_compare_figure (QmDocument        *doc,
                    CompareCopy       *copy,
                    CompareFigureKind  kind,
                    guint              plan,
                    double             height)
{
  CompareFigure *f = g_new0 (CompareFigure, 1);

  f->copy = g_rc_box_acquire (copy);
  f->kind = kind;
  f->plan = plan;
  qm_document_add_figure (doc, height, draw_compare_figure, f, compare_figure_free);
}

static void
compare_row_free (gpointer data)
{
  QmCompareRow *row = data;

  g_free (row->label);
  for (guint i = 0; i < QM_COMPARE_MAX_PLANS; i++)
    {
      g_free (row->cells[i]);
      g_free (row->bands[i]);
    }
  if (row->parts != NULL)
    g_ptr_array_unref (row->parts);
  g_free (row);
}

char
qm_compare_letter (guint i)
{
  g_return_val_if_fail (i < QM_COMPARE_MAX_PLANS, '?');
  return letters[i];
}

const char *
qm_compare_mark (const QmCompareRow *row,
                 guint               i)
{
  g_return_val_if_fail (i < QM_COMPARE_MAX_PLANS, "");
  if (row->best[i])
    return "✓ ";
  return row->tied[i] ? "≈ " : "";
}

/* The plans compared, as the rows and the report's sections take them. */
typedef struct
{
  const QmPlan           *plans;
  const QmEstimate       *estimates;
  guint                   n;
  const QmPlanReportInfo *info;
  const char             *currencies[QM_COMPARE_MAX_PLANS];
} Compared;

static void
compared_init (Compared               *set,
               const QmPlan           *plans,
               const QmEstimate       *estimates,
               guint                   n,
               const QmPlanReportInfo *info)
{
  *set = (Compared) { plans, estimates, n, info, { NULL, } };
  for (guint i = 0; i < n; i++)
    set->currencies[i] = qm_report_currency_of (&plans[i], info);
}

/* The parts of @metric that apply to any of the plans, under @row. */
static void
add_part_rows (QmCompareRow   *row,
               const QmMetric *metric,
               const Compared *set)
{
  if (metric->n_parts == 0)
    return;
  row->parts = g_ptr_array_new_with_free_func (compare_row_free);
  for (guint k = 0; k < metric->n_parts; k++)
    {
      const QmMetricPart *part = &metric->parts[k];
      QmCompareRow *sub = g_new0 (QmCompareRow, 1);
      gboolean any = FALSE;

      sub->id = part->id;
      sub->label = g_strdup (_(part->label));
      sub->better = QM_BETTER_NONE;
      sub->verdict = QM_METRIC_NOT_RANKED;
      for (guint i = 0; i < set->n; i++)
        {
          double v = part->value (&set->plans[i], &set->estimates[i]);

          /* A part of nothing (no KV cache in training, no egress) is
           * not listed. */
          sub->values[i] = isfinite (v) ? v : NAN;
          any |= isfinite (v) && v != 0.0;
          sub->band_low[i] = sub->band_high[i] = NAN;
          sub->cells[i] = part->format (&set->plans[i], &set->estimates[i], set->currencies[i],
                                        set->info->memory_unit);
        }
      if (any)
        g_ptr_array_add (row->parts, sub);
      else
        compare_row_free (sub);
    }
}

/* The figures: one row per metric of the core's table (qm-metrics.h), each
 * value marked where the metric's one rule ranks it best. */
static void
add_figure_rows (GPtrArray      *rows,
                 const Compared *set)
{
  guint n_metrics;
  const QmMetric *metrics = qm_metrics (&n_metrics);

  for (guint m = 0; m < n_metrics; m++)
    {
      QmCompareRow *row = g_new0 (QmCompareRow, 1);

      row->id = metrics[m].id;
      row->label = g_strdup (_(metrics[m].label));
      row->better = metrics[m].better;
      row->verdict = qm_metric_rank (&metrics[m], set->plans, set->estimates, set->currencies, set->n,
                                     row->values, row->best, row->tied);
      for (guint i = 0; i < set->n; i++)
        {
          g_autofree char *band = qm_metric_band_format (&metrics[m], &set->plans[i], &set->estimates[i]);

          row->cells[i] = metrics[m].format (&set->plans[i], &set->estimates[i], set->currencies[i],
                                             set->info->memory_unit);
          row->band_low[i] = row->band_high[i] = NAN;
          if (band == NULL)
            continue;
          metrics[m].band (&set->plans[i], &set->estimates[i], &row->band_low[i], &row->band_high[i]);
          /* Translators: under a value of the comparison: the range it
           * likely falls in (p10–p90 of the validation), "likely 23.8–31.5". */
          row->bands[i] = g_strdup_printf (_("likely %s"), band);
        }
      add_part_rows (row, &metrics[m], set);
      g_ptr_array_add (rows, row);
    }
}

/* Fills t[] with one cell per plan; the expressions see the plan as p,
 * its estimate as e and its currency as cur. */
#define EACH(expr_v, expr_t) G_STMT_START {                             \
    for (guint i = 0; i < set->n; i++)                                  \
      {                                                                 \
        const QmPlan *p G_GNUC_UNUSED = &set->plans[i];                 \
        const QmEstimate *e G_GNUC_UNUSED = &set->estimates[i];         \
        const char *cur G_GNUC_UNUSED = set->currencies[i];             \
        t[i] = (expr_t);                                                \
      }                                                                 \
  } G_STMT_END

/* An input row: no better or worse. Takes @texts. */
static void
input_row (GPtrArray   *rows,
           guint        n,
           const char  *id,
           const char  *label,
           char       **texts)
{
  QmCompareRow *row = g_new0 (QmCompareRow, 1);

  row->id = id;
  row->label = g_strdup (label);
  row->better = QM_BETTER_NONE;
  row->verdict = QM_METRIC_NOT_RANKED;
  for (guint i = 0; i < n; i++)
    {
      row->values[i] = row->band_low[i] = row->band_high[i] = NAN;
      row->cells[i] = g_steal_pointer (&texts[i]);
    }
  g_ptr_array_add (rows, row);
}

/* The inputs: no better or worse, just side by side. */
static void
add_input_rows (GPtrArray      *rows,
                const Compared *set)
{
  char *t[QM_COMPARE_MAX_PLANS];
#define INPUT(id, label) input_row (rows, set->n, (id), (label), t)

  {
    QmCompareRow *row = g_new0 (QmCompareRow, 1);

    row->id = "inputs";
    row->label = g_strdup (_("Inputs"));
    row->verdict = QM_METRIC_NOT_RANKED;
    row->section = TRUE;
    for (guint i = 0; i < set->n; i++)
      {
        row->cells[i] = g_strdup ("");
        row->values[i] = row->band_low[i] = row->band_high[i] = NAN;
      }
    g_ptr_array_add (rows, row);
  }
  EACH (0, g_strdup (qm_report_mode_label (p->workload.mode)));
  INPUT ("workload", _("Workload"));
  EACH (0, qm_report_model_name (p, e));
  INPUT ("model", _("Model"));
  EACH (0, e->has_training
           /* Translators: a cell of the comparison's "Work" row: the training
            * tokens, the sequence length and the precision ("bf16"). */
           ? g_strdup_printf (_("%s tokens, sequence %s, %s"), qm_report_short_count (e->tokens),
                              qm_report_num (p->workload.seq_len, 0), qm_precision_to_string (p->workload.precision))
           /* Translators: a cell of the comparison's "Work" row: the requests
            * a minute of a serving plan. */
           : g_strdup_printf (_("%s requests/min"), qm_report_num (p->workload.inference.requests_per_minute, 0)));
  /* Translators: a row of the comparison: how much work a plan does. */
  INPUT ("work", _("Work"));
  EACH (0, e->has_training
           ? g_strdup_printf ("TP %u · PP %u · DP %u · ZeRO-%u", e->parallelism.tp, e->parallelism.pp,
                              e->parallelism.dp, e->parallelism.zero_stage)
           /* Translators: a cell of the comparison's "Layout" row for a
            * serving plan: replicas × GPUs in each. */
           : g_strdup_printf (_("%s × %u GPUs"), qm_report_num (e->inference.replicas, 0), e->inference.gpus_per_replica));
  /* Translators: a row of the comparison: the parallel layout. */
  INPUT ("layout", _("Layout"));
  EACH (0, g_strdup (qm_report_gpu_name (p)));
  INPUT ("gpu", _("GPU"));
  EACH (0, g_strdup (qm_report_server_name (p)));
  INPUT ("server", _("Server"));
  /* Translators: a plan without a network. */
  EACH (0, g_strdup (p->network_id[0] ? p->network_id : C_("no network", "none")));
  INPUT ("network", _("Network"));
  EACH (0, g_strdup (qm_report_pricing_label (p->pricing.mode)));
  INPUT ("pricing", _("Pricing"));
  EACH (0, g_strdup_printf ("PUE %s, %s/kWh", qm_report_num (p->facility.pue, 2), qm_report_money_exact (p->facility.usd_per_kwh, cur)));
  INPUT ("facility", _("Facility"));
#undef INPUT
}

#undef EACH

GPtrArray *
qm_compare_rows (const QmPlan           *plans,
                 const QmEstimate       *estimates,
                 guint                   n,
                 const QmPlanReportInfo *in)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (compare_row_free);
  QmPlanReportInfo info;
  g_autofree char *date = NULL;
  Compared set;

  g_return_val_if_fail (n >= 1 && n <= QM_COMPARE_MAX_PLANS, rows);
  qm_report_resolve_info (in, &info, &date);
  compared_init (&set, plans, estimates, n, &info);
  add_figure_rows (rows, &set);
  add_input_rows (rows, &set);
  return rows;
}

char *
qm_compare_explain (const QmPlan           *plans,
                    const QmEstimate       *estimates,
                    guint                   n,
                    const QmPlanReportInfo *in)
{
  QmPlanReportInfo info;
  g_autofree char *date = NULL;
  Compared set;

  g_return_val_if_fail (n >= 1 && n <= QM_COMPARE_MAX_PLANS, NULL);
  qm_report_resolve_info (in, &info, &date);
  compared_init (&set, plans, estimates, n, &info);
  return qm_metrics_explain (plans, estimates, set.currencies, n);
}

/* The plans and estimates copied for the figures, which draw after the
 * caller's arrays are gone, with the scales they share. */
static CompareCopy *
compare_copy_new (const QmPlan           *plans,
                  const QmEstimate       *estimates,
                  guint                   n,
                  const QmPlanReportInfo *info,
                  gboolean               *same_currency)
{
  CompareCopy *copy = g_rc_box_new0 (CompareCopy);

  *same_currency = TRUE;
  copy->n = n;
  copy->unit = info->memory_unit;
  qm_report_paper_style (&copy->style);
  g_strlcpy (copy->currency, qm_report_currency_of (&plans[0], info), sizeof copy->currency);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *cut = qm_text_ellipsize (qm_report_plan_name (&plans[i]), 40);
      g_autofree char *shorter = qm_text_ellipsize (qm_report_plan_name (&plans[i]), 30);
      double node_w, cluster_kw;

      copy->plans[i] = plans[i];
      copy->estimates[i] = estimates[i];
      g_snprintf (copy->labels[i], sizeof copy->labels[i], "%c: %s", letters[i], cut);
      g_snprintf (copy->short_labels[i], sizeof copy->short_labels[i], "%c: %s", letters[i], shorter);
      copy->vram_max = MAX (copy->vram_max, qm_chart_vram_top (&estimates[i].memory, 1));
      qm_chart_power_top (&estimates[i].power, &node_w, &cluster_kw);
      copy->node_max_w = MAX (copy->node_max_w, node_w);
      copy->cluster_max_kw = MAX (copy->cluster_max_kw, cluster_kw);
      if (g_strcmp0 (qm_report_currency_of (&plans[i], info), copy->currency) != 0)
        *same_currency = FALSE;
    }
  return copy;
}

/* Cover: what is compared. @currency is NULL when the plans differ. */
static void
add_compare_cover (QmDocument     *doc,
                   const Compared *set,
                   const char     *currency)
{
  g_autoptr(GString) intro = g_string_new (NULL);

  qm_document_add_heading (doc, _("Plan comparison"), 0);
  g_string_append_printf (intro, _("Date: %s"), set->info->date);
  g_string_append_c (intro, '\n');
  qm_report_append_catalog_line (intro, set->info->catalog_version, currency);
  qm_document_add_paragraph (doc, intro->str);
  for (guint i = 0; i < set->n; i++)
    {
      const QmPlan *p = &set->plans[i];
      const QmEstimate *e = &set->estimates[i];
      g_autoptr(GString) line = g_string_new (NULL);
      g_autofree char *model = qm_report_model_name (p, e);

      /* Translators: a compared plan: its letter and name; the workload
       * ("Pretraining"); the model; the GPU count, then the GPU model. */
      g_string_append_printf (line, g_dngettext (GETTEXT_PACKAGE, "%c. %s — %s, %s, %s GPU (%s)",
                                                 "%c. %s — %s, %s, %s GPUs (%s)", qm_report_plural_n (e->gpus)),
                              letters[i], qm_report_plan_name (p), qm_report_mode_label (p->workload.mode), model,
                              qm_report_num (e->gpus, 0), qm_report_gpu_name (p));
      if (p->customer[0])
        /* Translators: after a compared plan's line; %s is the customer. */
        g_string_append_printf (line, _("; for %s"), p->customer);
      qm_document_add_paragraph (doc, line->str);
    }
  qm_document_add_paragraph (doc, _("✓ marks the better value in each row: lower for counts, time, power "
                                    "and cost; higher for MFU, goodput, memory to spare and throughput. "
                                    "“–” means the figure does not apply to that plan."));
  {
    g_autofree char *why = qm_metrics_explain (set->plans, set->estimates, set->currencies, set->n);

    if (why != NULL)
      qm_document_add_paragraph (doc, why);
  }
}

/* The table of key figures: qm_compare_rows(), a column per plan. */
static void
add_compare_table (QmDocument     *doc,
                   const Compared *set)
{
  const char *headers[1 + QM_COMPARE_MAX_PLANS];
  double widths[1 + QM_COMPARE_MAX_PLANS];
  QmAlign aligns[1 + QM_COMPARE_MAX_PLANS];
  char *header_text[QM_COMPARE_MAX_PLANS] = { NULL, };
  g_autoptr(GPtrArray) rows = qm_compare_rows (set->plans, set->estimates, set->n, set->info);

  headers[0] = "";
  widths[0] = 0.24;
  aligns[0] = QM_ALIGN_START;
  for (guint i = 0; i < set->n; i++)
    {
      g_autofree char *cut = qm_text_ellipsize (qm_report_plan_name (&set->plans[i]), 60);

      header_text[i] = g_strdup_printf ("%c. %s", letters[i], cut);
      headers[1 + i] = header_text[i];
      widths[1 + i] = 0.76 / set->n;
      aligns[1 + i] = QM_ALIGN_START;
    }
  qm_document_add_heading (doc, _("Key figures"), 1);
  qm_document_begin_table (doc, 1 + set->n, headers, widths, aligns);
  /* The table copied the headers. */
  for (guint i = 0; i < set->n; i++)
    g_clear_pointer (&header_text[i], g_free);

  for (guint r = 0; r < rows->len; r++)
    {
      QmCompareRow *row = g_ptr_array_index (rows, r);
      const char *cells[1 + QM_COMPARE_MAX_PLANS];
      char *marked[QM_COMPARE_MAX_PLANS] = { NULL, };

      cells[0] = row->label;
      for (guint i = 0; i < set->n; i++)
        {
          /* A check mark, not colour: it survives a greyscale printer. The
           * likely range on a line of its own under the value. */
          marked[i] = g_strconcat (qm_compare_mark (row, i), row->cells[i], row->bands[i] ? "\n" : "",
                                   row->bands[i], NULL);
          cells[1 + i] = marked[i];
        }
      qm_document_add_row (doc, cells, row->section);
      /* (g_autofree on an array would free only its first element.) */
      for (guint i = 0; i < set->n; i++)
        g_free (marked[i]);
    }
  qm_document_end_table (doc);
}

static void
add_compare_charts (QmDocument  *doc,
                    CompareCopy *copy)
{
  guint n = copy->n;

  qm_document_add_page_break (doc);
  /* Translators: a heading of the comparison report, over its charts. */
  qm_document_add_heading (doc, _("Side by side"), 1);
  add_compare_figure (doc, copy, COMPARE_FIGURE_CHART, 0, COMPARE_HEIGHT);
  qm_document_add_paragraph (doc, _("Each metric has its own scale; the values are printed on the bars. "
                                    "On the right, total cost against time to train: lower left is better."));

  /* The grid is tall: give it its own page rather than strand its heading. */
  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, _("Memory per GPU, on one scale"), 1);
  add_compare_figure (doc, copy, COMPARE_FIGURE_VRAM, 0, VRAM_CELL_HEIGHT * ((n + 1) / 2));

  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, _("Power, on one scale"), 1);
  /* All of them on one page when they fit. */
  for (guint i = 0; i < n; i++)
    add_compare_figure (doc, copy, COMPARE_FIGURE_POWER, i, MIN (POWER_HEIGHT, POWER_PAGE / n));
}

QmDocument *
qm_compare_report_new (const QmPlan           *plans,
                       const QmEstimate       *estimates,
                       guint                   n,
                       const QmPlanReportInfo *in)
{
  QmPlanReportInfo info;
  g_autofree char *date = NULL;
  g_autofree char *footer = NULL;
  CompareCopy *copy;
  gboolean same_currency;
  QmDocument *doc;

  g_return_val_if_fail (plans != NULL && estimates != NULL, NULL);
  g_return_val_if_fail (n >= 2 && n <= QM_COMPARE_MAX_PLANS, NULL);

  qm_report_resolve_info (in, &info, &date);
  /* Translators: the comparison report's footer; %s is a date, YYYY-MM-DD. */
  footer = g_strdup_printf (_("Plan comparison — %s"), info.date);
  doc = qm_document_new (info.paper, _("Plan comparison"), footer);

  copy = compare_copy_new (plans, estimates, n, &info, &same_currency);
  {
    Compared set;

    compared_init (&set, plans, estimates, n, &info);
    add_compare_cover (doc, &set, same_currency ? copy->currency : NULL);
    add_compare_table (doc, &set);
  }
  add_compare_charts (doc, copy);
  g_rc_box_release (copy);
  return doc;
}
