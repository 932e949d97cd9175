/* qm-plan-report.c: the PDF plan summary, the comparison of plans, and the
 * bill of materials as CSV.
 *
 * All of the report's wording lives in this file: the labels, the
 * plain-language summary and the CSV headers, translated with gettext (the
 * English msgids are what the tests read back). Catalog ids and units
 * after numbers stay as they are.
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

/* Charts on paper: the renderers' sizes are points here, so a slightly
 * smaller label size matches the 9.5 pt body text. */
#define CHART_FONT_PT     7.5
#define CHART_HEIGHT      272.0
#define COMPARE_HEIGHT    300.0
#define VRAM_CELL_HEIGHT  220.0
#define POWER_HEIGHT      230.0
#define POWER_PAGE        660.0
/* Key-figure cells are one line each (qm-document measures one line). */
#define KEY_LABEL_CHARS   34
#define FOOTER_NAME_CHARS 70

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */

/* The report formats many numbers per sentence: a ring of buffers. */
#define RING 32

static char *
ring (void)
{
  static char bufs[RING][QM_FORMAT_BUF * 2];
  static guint next;

  return bufs[next++ % RING];
}

/* A bill-of-materials line's label: the core's English label, marked for
 * translation (qm-cost.h). */
static const char *
bom_item_label (const char *item)
{
  return item != NULL && *item != '\0' ? g_dgettext (GETTEXT_PACKAGE, item) : "";
}

static const char *
num (double v,
     int    decimals)
{
  return qm_format_number (ring (), QM_FORMAT_BUF * 2, v, decimals);
}

static const char *
days (double v)
{
  return qm_format_days (ring (), QM_FORMAT_BUF * 2, v);
}

static const char *
money (double      v,
       const char *currency)
{
  return qm_format_money (ring (), QM_FORMAT_BUF * 2, v, currency);
}

static const char *
bytes (double      v,
       QmBytesUnit unit)
{
  return qm_format_bytes (ring (), QM_FORMAT_BUF * 2, v, unit);
}

static gboolean
is_dollars (const char *currency)
{
  return currency == NULL || currency[0] == '\0' || g_str_equal (currency, "USD");
}

/* A quote shows every digit: "$102,400,000", "$12.29". */
static const char *
money_exact (double      v,
             const char *currency)
{
  char number[QM_FORMAT_BUF];
  char *buf = ring ();
  int decimals = fabs (v) < 1000 && v != floor (v) ? 2 : 0;

  qm_format_number (number, sizeof number, v, decimals);
  if (is_dollars (currency))
    g_snprintf (buf, QM_FORMAT_BUF * 2, "%s%s", v < 0 ? "−$" : "$", number + (v < 0 ? 1 : 0));
  else
    g_snprintf (buf, QM_FORMAT_BUF * 2, "%s %s", currency, number);
  return buf;
}

static const char *
qty (double v)
{
  return num (v, v == floor (v) ? 0 : 2);
}

/* 15e12 → "15T", 2e9 → "2B", 3e8 → "300M": counts of tokens in prose. */
static const char *
short_count (double v)
{
  static const struct { double scale; const char *suffix; } steps[] = {
    { 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" }, { 1e3, "K" },
  };
  char *buf = ring ();

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (fabs (v) >= steps[i].scale)
      {
        double s = v / steps[i].scale;

        g_snprintf (buf, QM_FORMAT_BUF * 2, "%s%s", num (s, s >= 100 || s == floor (s) ? 0 : 1),
                    steps[i].suffix);
        return buf;
      }
  return num (v, 0);
}

/* The n that picks a plural form for a count printed with num(): the
 * value as printed, rounded; a fraction ("2.5 epochs", "1.5 months") reads
 * as a plural in English and German, so it counts as 2. */
static gulong
plural_n (double v)
{
  double r = round (v);

  if (!isfinite (v) || v < 0)
    return 0;
  if (fabs (v - r) >= 0.005)
    return 2;
  return r > 1e9 ? 1000000000ul + (gulong) fmod (r, 1e6) : (gulong) r;
}

/* At most @max characters, with an ellipsis when cut. */
static char *
ellipsize (const char *s,
           glong       max)
{
  g_autofree char *head = NULL;

  if (g_utf8_strlen (s, -1) <= max)
    return g_strdup (s);
  head = g_utf8_substring (s, 0, max - 1);
  return g_strconcat (head, "…", NULL);
}

static const char *
currency_of (const QmPlan           *plan,
             const QmPlanReportInfo *info)
{
  if (info->currency != NULL && info->currency[0])
    return info->currency;
  if (plan->pricing.currency[0])
    return plan->pricing.currency;
  return "USD";
}

static const char *
plan_name (const QmPlan *plan)
{
  return plan->name[0] ? plan->name : _("Untitled plan");
}

static char *
model_name (const QmPlan     *plan,
            const QmEstimate *e)
{
  const QmModelPreset *preset = plan->workload.preset[0] ? qm_catalog_model (plan->workload.preset) : NULL;

  if (preset != NULL && preset->info.name != NULL)
    return g_strdup (preset->info.name);
  /* Translators: a model without a catalog name, in a sentence and a table
   * cell; %s is a parameter count such as "70B". */
  return g_strdup_printf (_("a %s-parameter model"), short_count (e->params));
}

static const char *
gpu_name (const QmPlan *plan)
{
  const char *n = plan->hardware.gpu.info.name;

  return n != NULL && n[0] ? n : plan->gpu_id;
}

static const char *
server_name (const QmPlan *plan)
{
  const char *n = plan->hardware.server.info.name;

  return n != NULL && n[0] ? n : plan->server_id;
}

static const char *
pricing_label (QmPricingMode mode)
{
  switch (mode)
    {
    case QM_PRICING_BUY:            return _("Buy");
    case QM_PRICING_RENT_ON_DEMAND: return _("Rent, on demand");
    case QM_PRICING_RENT_RESERVED:  return _("Rent, reserved");
    default:                        return "";
    }
}

static const char *
mode_label (QmMode mode)
{
  switch (mode)
    {
    case QM_MODE_PRETRAIN:  return _("Pretraining");
    case QM_MODE_FINETUNE:  return _("Full fine-tuning");
    case QM_MODE_LORA:      return _("LoRA fine-tuning");
    case QM_MODE_QLORA:     return _("QLoRA fine-tuning");
    case QM_MODE_INFERENCE: return _("Serving (inference)");
    default:                return "";
    }
}

static const char *
mfu_basis (QmMfuSource source)
{
  switch (source)
    {
    /* Translators: where the MFU comes from, after "MFU 40.0% (…)" and
     * "Model FLOPs utilisation 40.0%: …". */
    case QM_MFU_SOURCE_GIVEN:     return _("given in the plan");
    case QM_MFU_SOURCE_PREDICTED: return _("predicted by the throughput model");
    case QM_MFU_SOURCE_DEFAULT:   return _("the default for this GPU family");
    default:                      return "";
    }
}

/* One word for where the MFU comes from, in the comparison's MFU row; in
 * English the same words as qm_mfu_source_to_string(). */
static const char *
mfu_source_word (QmMfuSource source)
{
  switch (source)
    {
    /* Translators: in the comparison's MFU row, "40.0% (given)": the MFU
     * is given in the plan. */
    case QM_MFU_SOURCE_GIVEN:     return C_("MFU source", "given");
    /* Translators: in the comparison's MFU row: predicted by the
     * throughput model. */
    case QM_MFU_SOURCE_PREDICTED: return C_("MFU source", "predicted");
    case QM_MFU_SOURCE_DEFAULT:
    /* Translators: in the comparison's MFU row: the default for the GPU
     * family. */
    default:                      return C_("MFU source", "default");
    }
}

/* Activation recompute after "recompute"; in English the plan file's words
 * (qm_recompute_to_string()). */
static const char *
recompute_word (QmRecompute recompute)
{
  switch (recompute)
    {
    /* Translators: after "recompute" in the parallel layout: no activation
     * recompute. */
    case QM_RECOMPUTE_NONE:      return C_("activation recompute", "none");
    /* Translators: after "recompute": selective (attention) recompute. */
    case QM_RECOMPUTE_SELECTIVE: return C_("activation recompute", "selective");
    /* Translators: after "recompute": full activation recompute. */
    case QM_RECOMPUTE_FULL:      return C_("activation recompute", "full");
    default:                     return qm_recompute_to_string (recompute);
    }
}

static gboolean
is_buy (const QmPlan *plan)
{
  return plan->pricing.mode == QM_PRICING_BUY;
}

static char *
today (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  return g_date_time_format (now, "%Y-%m-%d");
}

void
qm_plan_report_info_init (QmPlanReportInfo *info)
{
  static char date[16];
  g_autofree char *d = today ();

  /* A static copy: the info is a plain struct the caller may keep. */
  g_strlcpy (date, d, sizeof date);
  memset (info, 0, sizeof *info);
  info->date = date;
  info->paper = qm_paper_for_locale ();
  info->catalog_version = qm_catalog_version ();
  info->currency = NULL;
  info->memory_unit = QM_BYTES_GB;
}

/* Fill the gaps of a caller's info (or all of it when NULL). */
static void
resolve_info (const QmPlanReportInfo *in,
              QmPlanReportInfo       *out,
              char                  **date_out)
{
  qm_plan_report_info_init (out);
  if (in != NULL)
    {
      out->paper = in->paper;
      out->memory_unit = in->memory_unit;
      out->currency = in->currency;
      if (in->date != NULL)
        out->date = in->date;
      if (in->catalog_version != NULL)
        out->catalog_version = in->catalog_version;
      out->advisor_goal = in->advisor_goal;
    }
  *date_out = g_strdup (out->date);
  out->date = *date_out;
}

static void
paper_style (QmChartStyle *style)
{
  qm_chart_style_init_light (style);
  style->font_size = CHART_FONT_PT;
}

/* ---------------------------------------------------------------------- */
/* Figures: the document keeps copies of the plan and estimate             */

typedef struct
{
  QmPlan           plan;
  QmEstimate       estimate;
  QmBytesUnit      unit;
  QmChartStyle     style;
  QmPlanCurves    *curves;     /* computed on first draw */
} PlanCopy;

typedef struct
{
  PlanCopy        *copy;       /* shared, reference counted */
  QmPlanChartKind  kind;
} PlanFigure;

static void
plan_copy_clear (gpointer data)
{
  PlanCopy *c = data;

  g_clear_pointer (&c->curves, g_free);
}

static void
plan_figure_free (gpointer data)
{
  PlanFigure *f = data;

  g_rc_box_release_full (f->copy, plan_copy_clear);
  g_free (f);
}

static void
draw_plan_figure (cairo_t  *cr,
                  double    width,
                  double    height,
                  gpointer  user_data)
{
  PlanFigure *f = user_data;
  PlanCopy *c = f->copy;

  if (c->curves == NULL)
    {
      c->curves = g_new0 (QmPlanCurves, 1);
      qm_plan_curves (&c->plan, &c->estimate, c->curves);
    }
  qm_plan_chart_draw (f->kind, cr, &c->plan, &c->estimate, c->curves, c->unit, &c->style,
                      width, height);
}

/* ---------------------------------------------------------------------- */
/* Plan summary                                                            */

/* "64 H100 SXM GPUs", "8 DGX H100 nodes", "2 racks": the counts in the
 * summary's sentences, each with its plural. */
static char *
gpus_phrase (const QmPlan     *plan,
             const QmEstimate *e)
{
  /* Translators: in the summary's sentences; a GPU count, then the GPU
   * model: "64 H100 SXM GPUs". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s %s GPU", "%s %s GPUs", plural_n (e->gpus)),
                          num (e->gpus, 0), gpu_name (plan));
}

static char *
nodes_phrase (const QmPlan     *plan,
              const QmEstimate *e)
{
  /* Translators: in the summary's sentences; a node count, then the
   * server model: "8 DGX H100 nodes". */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s %s node", "%s %s nodes", plural_n (e->nodes)),
                          num (e->nodes, 0), server_name (plan));
}

static char *
racks_phrase (const QmEstimate *e)
{
  /* Translators: in the summary's sentences; %s is a rack count. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s rack", "%s racks", plural_n (e->cluster.racks)),
                          num (e->cluster.racks, 0));
}

/* "Catalog prices: version 2026.11 · amounts in USD"; without a currency,
 * the version alone. */
static void
append_catalog_line (GString    *s,
                     const char *version,
                     const char *currency)
{
  /* Translators: on a report's cover; %s is the version of the catalog's
   * prices. */
  g_string_append_printf (s, _("Catalog prices: version %s"), version);
  if (currency != NULL)
    {
      g_string_append (s, " · ");
      /* Translators: on a report's cover, after "Catalog prices: version …";
       * %s is a currency code such as "USD". */
      g_string_append_printf (s, _("amounts in %s"), currency);
    }
}

static void
add_cover (QmDocument             *doc,
           const QmPlan           *plan,
           const QmEstimate       *e,
           const QmPlanReportInfo *info)
{
  const char *cur = currency_of (plan, info);
  g_autoptr(GString) meta = g_string_new (NULL);
  g_autofree char *model = model_name (plan, e);
  g_autofree char *gpu_label = NULL;
  g_autofree char *node_label = NULL;
  g_autofree char *gpus = gpus_phrase (plan, e);
  g_autofree char *nodes = nodes_phrase (plan, e);
  g_autofree char *racks = racks_phrase (e);
  g_autoptr(GString) para = g_string_new (NULL);

  qm_document_add_heading (doc, plan_name (plan), 0);

  if (plan->customer[0])
    {
      /* Translators: on the cover of a plan summary; %s is the customer. */
      g_string_append_printf (meta, _("Prepared for: %s"), plan->customer);
      g_string_append_c (meta, '\n');
    }
  if (plan->quote_ref[0])
    {
      /* Translators: %s is the reference of the quote, as the plan gives it. */
      g_string_append_printf (meta, _("Quote reference: %s"), plan->quote_ref);
      g_string_append_c (meta, '\n');
    }
  /* Translators: on a report's cover; %s is a date, YYYY-MM-DD. */
  g_string_append_printf (meta, _("Date: %s"), info->date);
  g_string_append_c (meta, '\n');
  append_catalog_line (meta, info->catalog_version, cur);
  qm_document_add_paragraph (doc, meta->str);

  qm_document_add_heading (doc, _("Summary"), 1);

  /* The key figures, large: each label is one line of about 34 characters. */
  gpu_label = ellipsize (gpu_name (plan), KEY_LABEL_CHARS - 5);
  node_label = ellipsize (server_name (plan), KEY_LABEL_CHARS - 6);
  {
    /* Translators: a key figure's label, under the GPU count; %s is the GPU
     * model. The labels of the key figures must fit one short line (about
     * 34 characters). */
    g_autofree char *l1 = g_strdup_printf (_("%s GPUs"), gpu_label);
    /* Translators: a key figure's label, under the node count; %s is the
     * server model. */
    g_autofree char *l2 = g_strdup_printf (_("%s nodes"), node_label);

    qm_document_add_key_figure (doc, l1, num (e->gpus, 0));
    qm_document_add_key_figure (doc, l2, num (e->nodes, 0));
  }
  qm_document_add_key_figure (doc,
                              /* Translators: key figures' labels, under the rack count. */
                              e->cluster.liquid_cooling ? _("racks, liquid-cooled")
                              /* Translators: a key figure's label, under the rack count. */
                              : _("racks"),
                              num (e->cluster.racks, 0));

  if (e->has_training)
    {
      /* Translators: a key figure's label, under the days to train with
       * failures; %s is the time without failures, such as "46 days". */
      g_autofree char *l = g_strdup_printf (_("with failures; %s ideal"), days (e->ideal_days));

      qm_document_add_key_figure (doc, l, days (e->train_days));
    }
  else if (e->has_inference)
    {
      /* Translators: a key figure's label, under the output tokens per
       * second the cluster delivers; %s is the rate needed. */
      g_autofree char *l = g_strdup_printf (_("output tokens/s (%s needed)"),
                                            num (e->inference.tokens_per_s_needed, 0));

      qm_document_add_key_figure (doc, l, num (e->inference.tokens_per_s_total, 0));
    }
  {
    g_autofree char *l = NULL;

    if (e->fits)
      /* Translators: key figures' labels, under the memory each GPU needs;
       * %s is the GPU's memory, such as "80 GB". */
      l = g_strdup_printf (_("per GPU of %s: fits"), bytes (e->memory.capacity, info->memory_unit));
    else
      l = g_strdup_printf (_("per GPU of %s: DOES NOT FIT"), bytes (e->memory.capacity, info->memory_unit));
    qm_document_add_key_figure (doc, l, bytes (e->memory.total, info->memory_unit));
  }
  {
    g_autofree char *v = g_strdup_printf ("%s kW", num (e->power.facility_peak_kw, 0));
    /* Translators: a key figure's label, under the facility's provisioned
     * (peak) power in kW; %s is the PUE, such as "1.30". */
    g_autofree char *l = g_strdup_printf (_("facility, provisioned (PUE %s)"), num (e->power.pue, 2));

    qm_document_add_key_figure (doc, l, v);
  }
  {
    g_autofree char *v = g_strdup_printf ("%s MWh", num (e->power.energy_mwh, e->power.energy_mwh < 100 ? 1 : 0));

    qm_document_add_key_figure (doc,
                                /* Translators: key figures' labels, under an energy in MWh. */
                                e->has_training ? _("energy for the run")
                                /* Translators: a key figure's label, under an energy in MWh. */
                                : _("energy per month"), v);
  }
  {
    /* Translators: tonnes (of CO₂e). */
    g_autofree char *v = g_strdup_printf (_("%s t"), num (e->power.co2_tonnes, e->power.co2_tonnes < 100 ? 1 : 0));

    qm_document_add_key_figure (doc,
                                /* Translators: a key figure's label, under tonnes of CO₂e. */
                                e->has_training ? _("CO₂e for the run")
                                /* Translators: a key figure's label, under tonnes of CO₂e. */
                                : _("CO₂e per month"), v);
  }
  if (e->has_reliability)
    {
      g_autofree char *v = g_strdup_printf ("%s%%", num (100 * e->reliability.goodput, 1));
      /* Translators: a key figure's label, under the goodput in percent;
       * %s is the number of interruptions expected over the run. */
      g_autofree char *l = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "goodput (%s interruption)",
                                                         "goodput (%s interruptions)",
                                                         plural_n (e->reliability.interruptions)),
                                            num (e->reliability.interruptions, 0));

      qm_document_add_key_figure (doc, l, v);
    }
  else if (e->has_inference)
    {
      g_autofree char *v = g_strdup_printf ("%s ms", num (e->inference.ttft_ms, 0));
      /* Translators: a key figure's label, under the time to the first
       * token in ms; %s is the time per further token. */
      g_autofree char *l = g_strdup_printf (_("first token; %s ms per token"), num (e->inference.tpot_ms, 1));

      qm_document_add_key_figure (doc, l, v);
    }
  {
    /* Translators: a key figure's label, under an amount of money. */
    g_autofree char *l = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "total cost over %s month",
                                                       "total cost over %s months",
                                                       plural_n (e->cost.horizon_months)),
                                          num (e->cost.horizon_months, 0));

    qm_document_add_key_figure (doc, l, money (e->cost.total, cur));
  }
  if (is_buy (plan))
    /* Translators: key figures' labels, under amounts of money. */
    qm_document_add_key_figure (doc, _("upfront (hardware, installation)"), money (e->cost.upfront, cur));
  else
    /* Translators: key figures' labels, under amounts of money. */
    qm_document_add_key_figure (doc, e->has_training ? _("rental for this run") : _("rental per month"),
                                money (e->cost.run, cur));
  /* Translators: key figures' labels, under amounts of money. */
  qm_document_add_key_figure (doc, is_buy (plan) ? _("monthly (amortisation, running)") : _("monthly, around the clock"),
                              money (e->cost.monthly, cur));

  /* The same numbers in a few plain sentences; each ends in a space when
   * another may follow. */
  if (!e->valid)
    {
      /* Translators: the summary's sentences end in a space when another
       * follows (drop it where sentences are not separated by spaces). */
      g_string_append (para, _("This plan has errors, so its figures are stand-ins; see the warnings at the end. "));
    }
  else if (e->has_inference)
    {
      const QmInference *in = &e->inference;
      /* Translators: in the summary's sentence on serving; %s is a count of
       * model replicas, %u the GPUs in each. */
      g_autofree char *replicas = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s replica of %u GPUs",
                                                                "%s replicas of %u GPUs",
                                                                plural_n (in->replicas)),
                                                   num (in->replicas, 0), in->gpus_per_replica);

      g_string_append_printf (para,
                              /* Translators: the model; requests a minute; input and
                               * output tokens per request; "64 H100 SXM GPUs"; "8
                               * replicas of 8 GPUs"; "8 DGX H100 nodes"; "2 racks";
                               * the output tokens/s delivered and needed; the
                               * time to the first token and per further token. One
                               * of ", within the latency targets. " or "; the TTFT
                               * target is missed. " follows. */
                              _("Serving %s at %s requests a minute (%s input and %s output tokens each) "
                                "needs %s: %s, in %s across %s. "
                                "They deliver %s output tokens/s (%s needed), with the first token in %s ms "
                                "and %s ms per output token"),
                              model, num (plan->workload.inference.requests_per_minute, 0),
                              num (plan->workload.inference.input_tokens, 0),
                              num (plan->workload.inference.output_tokens, 0),
                              gpus, replicas, nodes, racks,
                              num (in->tokens_per_s_total, 0), num (in->tokens_per_s_needed, 0),
                              num (in->ttft_ms, 0), num (in->tpot_ms, 1));
      /* These end the sentence "Serving … per output token". */
      if (in->meets_ttft && in->meets_tpot)
        /* Translators: ends the sentence "Serving … ms per output token". */
        g_string_append (para, _(", within the latency targets. "));
      else if (!in->meets_ttft && !in->meets_tpot)
        /* Translators: ends the sentence "Serving … ms per output token"
         * (TTFT: time to first token; TPOT: time per output token). */
        g_string_append (para, _("; the TTFT and TPOT target is missed. "));
      else if (!in->meets_ttft)
        /* Translators: ends the sentence "Serving … ms per output token"
         * (TTFT: time to first token). */
        g_string_append (para, _("; the TTFT target is missed. "));
      else
        /* Translators: ends the sentence "Serving … ms per output token"
         * (TPOT: time per output token). */
        g_string_append (para, _("; the TPOT target is missed. "));
    }
  else
    {
      const char *tokens = short_count (e->tokens);
      const char *train = days (e->train_days);
      const char *ideal = days (e->ideal_days);
      const char *mfu = num (100 * e->mfu, 1);

      switch (plan->workload.mode)
        {
        case QM_MODE_FINETUNE:
          g_string_append_printf (para,
                                  /* Translators: the model; the tokens, such as "2B";
                                   * "64 H100 SXM GPUs"; "8 DGX H100 nodes"; "2 racks";
                                   * the time with failures, then without, such as
                                   * "54 days"; the MFU in percent. */
                                  _("Fine-tuning %s on %s tokens needs %s in %s across %s for %s "
                                    "(%s without failures, at %s%% MFU). "),
                                  model, tokens, gpus, nodes, racks, train, ideal, mfu);
          break;
        case QM_MODE_LORA:
        case QM_MODE_QLORA:
          g_string_append_printf (para,
                                  /* Translators: "LoRA" or "QLoRA" and the adapters'
                                   * rank; the model; the tokens, such as "2B"; "64
                                   * H100 SXM GPUs"; "8 DGX H100 nodes"; "2 racks"; the
                                   * time with failures, then without; the MFU in
                                   * percent. */
                                  _("%s fine-tuning (rank %u) of %s on %s tokens needs %s in %s across %s for %s "
                                    "(%s without failures, at %s%% MFU). "),
                                  plan->workload.mode == QM_MODE_LORA ? "LoRA" : "QLoRA", plan->workload.lora_rank,
                                  model, tokens, gpus, nodes, racks, train, ideal, mfu);
          break;
        default:
          g_string_append_printf (para,
                                  /* Translators: the model; the tokens, such as "15T";
                                   * "1,024 H100 SXM GPUs"; "128 DGX H100 nodes"; "32
                                   * racks"; the time with failures, then without, such
                                   * as "54 days"; the MFU in percent. */
                                  _("Training %s on %s tokens needs %s in %s across %s for %s "
                                    "(%s without failures, at %s%% MFU). "),
                                  model, tokens, gpus, nodes, racks, train, ideal, mfu);
          break;
        }
    }

  if (e->valid)
    {
      if (e->fits)
        /* Translators: the memory each GPU needs, the GPU's memory, and what
         * is left. */
        g_string_append_printf (para, _("Each GPU holds %s of its %s, leaving %s spare. "),
                                bytes (e->memory.total, info->memory_unit),
                                bytes (e->memory.capacity, info->memory_unit),
                                bytes (e->memory.margin, info->memory_unit));
      else
        /* Translators: the memory each GPU needs, then the GPU's memory. */
        g_string_append_printf (para, _("The plan does NOT fit in GPU memory: each GPU needs %s of its %s. "),
                                bytes (e->memory.total, info->memory_unit),
                                bytes (e->memory.capacity, info->memory_unit));

      if (is_buy (plan))
        {
          gulong months = plural_n (e->cost.horizon_months);

          if (e->has_training)
            g_string_append_printf (para,
                                    /* Translators: amounts upfront, a month and in all;
                                     * the months of the plan's horizon; this run's share. */
                                    g_dngettext (GETTEXT_PACKAGE, "Buying the cluster costs %s upfront and %s a "
                                                 "month, %s over %s month; this run's share is %s. ",
                                                 "Buying the cluster costs %s upfront and %s a month, %s over "
                                                 "%s months; this run's share is %s. ", months),
                                    money (e->cost.upfront, cur), money (e->cost.monthly, cur),
                                    money (e->cost.total, cur), num (e->cost.horizon_months, 0),
                                    money (e->cost.run, cur));
          else
            g_string_append_printf (para,
                                    /* Translators: amounts upfront, a month and in all;
                                     * the months of the plan's horizon; the cost of one
                                     * month of serving. */
                                    g_dngettext (GETTEXT_PACKAGE, "Buying the cluster costs %s upfront and %s a "
                                                 "month, %s over %s month; one month of serving is %s. ",
                                                 "Buying the cluster costs %s upfront and %s a month, %s over "
                                                 "%s months; one month of serving is %s. ", months),
                                    money (e->cost.upfront, cur), money (e->cost.monthly, cur),
                                    money (e->cost.total, cur), num (e->cost.horizon_months, 0),
                                    money (e->cost.run, cur));
        }
      else if (e->has_training)
        g_string_append_printf (para,
                                /* Translators: the rent for this run; the rent over the
                                 * plan's horizon, and its months. */
                                g_dngettext (GETTEXT_PACKAGE, "Renting costs %s for this run, or %s over %s "
                                             "month around the clock. ",
                                             "Renting costs %s for this run, or %s over %s months around the clock. ",
                                             plural_n (e->cost.horizon_months)),
                                money (e->cost.run, cur), money (e->cost.total, cur),
                                num (e->cost.horizon_months, 0));
      else
        g_string_append_printf (para,
                                /* Translators: the rent a month; the rent over the plan's
                                 * horizon, and its months. */
                                g_dngettext (GETTEXT_PACKAGE, "Renting costs %s a month, or %s over %s month "
                                             "around the clock. ",
                                             "Renting costs %s a month, or %s over %s months around the clock. ",
                                             plural_n (e->cost.horizon_months)),
                                money (e->cost.run, cur), money (e->cost.total, cur),
                                num (e->cost.horizon_months, 0));

      g_string_append_printf (para,
                              e->has_training
                              /* Translators: the facility's peak power in kW, the energy
                               * for the run in MWh and the tonnes of CO₂e. */
                              ? _("The cluster draws up to %s kW at the facility and uses %s MWh for the run "
                                  "(%s t CO₂e).")
                              /* Translators: the facility's peak power in kW, the energy
                               * a month in MWh and the tonnes of CO₂e. */
                              : _("The cluster draws up to %s kW at the facility and uses %s MWh a month "
                                  "(%s t CO₂e)."),
                              num (e->power.facility_peak_kw, 0),
                              num (e->power.energy_mwh, e->power.energy_mwh < 100 ? 1 : 0),
                              num (e->power.co2_tonnes, e->power.co2_tonnes < 100 ? 1 : 0));
    }
  qm_document_add_paragraph (doc, para->str);
  if (e->n_warnings > 0)
    {
      /* Translators: the quoted words are the heading of the report's last
       * section, “Assumptions, warnings and sources”. */
      g_autofree char *w = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u warning: see “Assumptions, "
                                                         "warnings and sources”.",
                                                         "%u warnings: see “Assumptions, warnings and sources”.",
                                                         e->n_warnings),
                                            e->n_warnings);
      qm_document_add_paragraph (doc, w);
    }

  /* The inputs, for the reader who checks them. */
  {
    const char *headers[] = {
      /* Translators: the headers of the table of a plan's inputs: what the
       * input is, and its value. */
      _("Input"),
      /* Translators: the header of the column of values in the table of a
       * plan's inputs. */
      _("Value"),
    };
    static const double widths[] = { 0.30, 0.70 };
    const QmWorkload *w = &plan->workload;
    g_autofree char *parallel = NULL;
    g_autofree char *hardware = NULL;
    g_autofree char *facility = NULL;
    g_autofree char *pricing = NULL;
    g_autofree char *target = NULL;

    qm_document_add_heading (doc, _("Inputs"), 2);
    qm_document_begin_table (doc, 2, headers, widths, NULL);
#define ROW(label, value) G_STMT_START { const char *cells_[] = { (label), (value) }; \
                                         qm_document_add_row (doc, cells_, FALSE); } G_STMT_END
    /* Translators: a row of the inputs table: training, fine-tuning or serving. */
    ROW (_("Workload"), mode_label (w->mode));
    ROW (_("Model"), model);
    if (e->has_training)
      {
        /* Translators: the training inputs: the tokens in all (the tokens of
         * one epoch × the epochs), the sequence length, the global batch in
         * sequences, the precision ("bf16") and the optimizer ("adamw"). */
        g_autofree char *t = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s tokens (%s × %s epoch), sequence "
                                                           "%s, global batch %s, %s, %s",
                                                           "%s tokens (%s × %s epochs), sequence %s, global batch %s, %s, %s",
                                                           plural_n (w->epochs)),
                                              short_count (e->tokens), short_count (w->tokens),
                                              num (w->epochs, w->epochs == floor (w->epochs) ? 0 : 2),
                                              num (w->seq_len, 0), num (w->global_batch, 0),
                                              qm_precision_to_string (w->precision),
                                              qm_optimizer_to_string (w->optimizer));

        /* Translators: a row of the inputs table. */
        ROW (_("Training"), t);
        /* Translators: the parallel layout: tensor, pipeline, data, context
         * and expert parallel degrees (TP … EP, not translated), the
         * micro-batch, the ZeRO stage and the activation recompute. */
        parallel = g_strdup_printf (_("TP %u, PP %u, DP %u, CP %u, EP %u; micro-batch %u; ZeRO-%u; recompute %s"),
                                    e->parallelism.tp, e->parallelism.pp, e->parallelism.dp,
                                    e->parallelism.cp, e->parallelism.ep, e->parallelism.micro_batch,
                                    e->parallelism.zero_stage,
                                    recompute_word (e->parallelism.recompute));
        ROW (_("Parallelism"), parallel);
        {
          g_autofree char *m = g_strdup_printf ("%s%% (%s)", num (100 * e->mfu, 1), mfu_basis (e->mfu_source));
          ROW (_("MFU"), m);
        }
      }
    else
      {
        /* Translators: the serving inputs: requests a minute, input and
         * output tokens per request, and the precisions ("bf16", "fp8") of
         * the weights and of the KV cache. */
        g_autofree char *t = g_strdup_printf (_("%s requests/min, %s input + %s output tokens, weights %s, KV cache %s"),
                                              num (w->inference.requests_per_minute, 0),
                                              num (w->inference.input_tokens, 0),
                                              num (w->inference.output_tokens, 0),
                                              qm_precision_to_string (w->inference.weight_precision),
                                              qm_precision_to_string (w->inference.kv_precision));
        ROW (_("Serving"), t);
      }
    if (w->deadline_days > 0)
      /* Translators: the plan's target; %s is a duration such as "30 days". */
      target = g_strdup_printf (_("finish within %s"), days (w->deadline_days));
    else
      /* Translators: the plan's target; %s is a GPU count. */
      target = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s GPU", "%s GPUs", plural_n (w->target_gpus)),
                                num (w->target_gpus, 0));
    /* Translators: a row of the inputs table: a GPU count or a deadline. */
    ROW (_("Target"), target);
    /* Translators: the GPU model in the server model; the network's and the
     * storage's catalog ids (or "none"). */
    hardware = g_strdup_printf (_("%s in %s; network %s; storage %s"), gpu_name (plan), server_name (plan),
                                plan->network_id[0] ? plan->network_id : C_("no network", "none"),
                                plan->storage_id[0] ? plan->storage_id : C_("no storage", "none"));
    ROW (_("Hardware"), hardware);
    /* Translators: the PUE; the electricity price; the power limit and the
     * rack units (U) per rack; the grid's carbon intensity. */
    facility = g_strdup_printf (_("PUE %s, %s per kWh, %s kW and %u U per rack, %s g CO₂e/kWh"),
                                num (plan->facility.pue, 2), money_exact (plan->facility.usd_per_kwh, cur),
                                num (plan->facility.rack_kw, 0), plan->facility.rack_units,
                                num (plan->facility.gco2_per_kwh, 0));
    ROW (_("Facility"), facility);
    if (is_buy (plan))
      /* Translators: the pricing of a bought cluster; %s is the years the
       * hardware is written off over. */
      pricing = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Buy, amortised over %s year",
                                              "Buy, amortised over %s years",
                                              plural_n (plan->pricing.amortization_years)),
                                 num (plan->pricing.amortization_years, 0));
    else if (plan->offer_id[0])
      /* Translators: "Rent, on demand" or "Rent, reserved", then a cloud
       * offer's catalog id. */
      pricing = g_strdup_printf (_("%s, offer %s"), pricing_label (plan->pricing.mode), plan->offer_id);
    else
      pricing = g_strdup (pricing_label (plan->pricing.mode));
    ROW (_("Pricing"), pricing);
#undef ROW
    qm_document_end_table (doc);
  }

  if (plan->notes[0])
    {
      g_auto(GStrv) lines = g_strsplit (plan->notes, "\n", -1);

      qm_document_add_heading (doc, _("Notes"), 2);
      /* One paragraph per line: a paragraph never breaks across pages. */
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_strstrip (lines[i])[0])
          qm_document_add_paragraph (doc, lines[i]);
    }
}

static void
add_bom (QmDocument             *doc,
         const QmPlan           *plan,
         const QmEstimate       *e,
         const QmBomLine        *bom,
         guint                   n_bom,
         const QmPlanReportInfo *info)
{
  const char *headers[] = {
    _("Item"),
    /* Translators: a column header: an entry's id in the hardware catalog. */
    _("Catalog id"),
    /* Translators: a column header of the bill of materials: the quantity,
     * in a narrow column (a short word or an abbreviation). */
    _("Qty"),
    /* Translators: a column header of the bill of materials. */
    _("Unit price"),
    _("Total"),
  };
  static const double widths[] = { 0.31, 0.20, 0.11, 0.17, 0.21 };
  static const QmAlign aligns[] = { QM_ALIGN_START, QM_ALIGN_START, QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END };
  const char *cur = currency_of (plan, info);
  const QmCost *c = &e->cost;
  double sum = 0.0;
  g_autofree char *intro = NULL;

  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, _("Bill of materials"), 1);
  if (is_buy (plan))
    /* Translators: under "Bill of materials"; a currency code such as
     * "USD", then the version of the catalog's prices. */
    intro = g_strdup_printf (_("Buying the cluster. Amounts in %s, from catalog prices version %s: list prices "
                               "before discounts, not a vendor quote."), cur, info->catalog_version);
  else if (e->has_training)
    /* Translators: under "Bill of materials"; a currency code such as
     * "USD", then the version of the catalog's prices. */
    intro = g_strdup_printf (_("Renting GPUs for the run. Amounts in %s, from catalog prices version %s: list "
                               "prices before discounts, not a vendor quote."), cur, info->catalog_version);
  else
    /* Translators: under "Bill of materials"; a currency code such as
     * "USD", then the version of the catalog's prices. */
    intro = g_strdup_printf (_("Renting GPUs for one month of serving. Amounts in %s, from catalog prices "
                               "version %s: list prices before discounts, not a vendor quote."),
                             cur, info->catalog_version);
  qm_document_add_paragraph (doc, intro);

  qm_document_begin_table (doc, 5, headers, widths, aligns);
  for (guint i = 0; i < n_bom; i++)
    {
      const QmBomLine *l = &bom[i];
      const char *cells[5];

      cells[0] = bom_item_label (l->item);
      cells[1] = l->catalog_id != NULL ? l->catalog_id : "—";
      cells[2] = qty (l->qty);
      cells[3] = money_exact (l->unit_usd, cur);
      cells[4] = money_exact (l->total_usd, cur);
      qm_document_add_row (doc, cells, FALSE);
      if (isfinite (l->total_usd))
        sum += l->total_usd;
    }
  {
    const char *cells[5] = {
      /* Translators: the last row of the bill of materials, its sum. */
      is_buy (plan) ? _("Upfront total") : e->has_training ? _("Rental for this run") : _("Rental for one month"),
      "", "", "", money_exact (sum, cur),
    };
    qm_document_add_row (doc, cells, TRUE);
  }
  qm_document_end_table (doc);

  /* What it costs over time. */
  {
    const char *h2[] = {
      _("Cost"),
      /* Translators: a column header of the table of totals: how a cost is
       * worked out. */
      _("Basis"),
      /* Translators: a column header of the table of totals: an amount of
       * money. */
      _("Amount"),
    };
    static const double w2[] = { 0.34, 0.45, 0.21 };
    static const QmAlign a2[] = { QM_ALIGN_START, QM_ALIGN_START, QM_ALIGN_END };
    /* Translators: the plan's horizon, in the table of totals. */
    g_autofree char *horizon = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s month", "%s months",
                                                             plural_n (c->horizon_months)),
                                                num (c->horizon_months, 0));
#define ROW(a, b, v, em) G_STMT_START { const char *cells_[] = { (a), (b), (v) }; \
                                        qm_document_add_row (doc, cells_, (em)); } G_STMT_END

    qm_document_add_heading (doc, _("Totals"), 2);
    qm_document_begin_table (doc, 3, h2, w2, a2);
    if (is_buy (plan))
      {
        /* Translators: how the monthly amortisation is worked out. */
        g_autofree char *amort = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "hardware over %s year",
                                                               "hardware over %s years",
                                                               plural_n (plan->pricing.amortization_years)),
                                                  num (plan->pricing.amortization_years, 0));
        /* Translators: how a run's cost is worked out; %s is the run's
         * duration, such as "54 days". */
        g_autofree char *run = g_strdup_printf (_("%s of the monthly cost"), days (e->run_s / 86400.0));

        /* The rows of the totals of a bought cluster: what, and how it is
         * worked out. */
        ROW (_("Upfront"),
             /* Translators: how the upfront cost of a bought cluster is made up. */
             _("hardware and installation"), money_exact (c->upfront, cur), TRUE);
        /* Translators: a row of the table of totals: the hardware written off
         * a month. */
        ROW (_("Amortisation"), amort, money_exact (c->amortization_monthly, cur), FALSE);
        /* Translators: a row of the table of totals: the electricity a month,
         * worked out from the facility's average power. */
        ROW (_("Electricity"), _("average facility power"), money_exact (c->power_monthly, cur), FALSE);
        /* Translators: a row of the table of totals: the data centre's rent
         * a month, worked out per kW of provisioned power. */
        ROW (_("Colocation"), _("per kW of provisioned power"), money_exact (c->colo_monthly, cur), FALSE);
        /* Translators: a row of the table of totals: the vendor's hardware
         * support a month, a yearly fraction of the hardware's price. */
        ROW (_("Support"), _("yearly fraction of the hardware"), money_exact (c->support_monthly, cur), FALSE);
        /* Translators: a row label: the cost a month. */
        ROW (_("Monthly"), _("subtotal"), money_exact (c->monthly, cur), TRUE);
        /* Translators: a row label: the cost of the training run. */
        ROW (e->has_training ? _("This run") : _("One month of serving"), run, money_exact (c->run, cur), FALSE);
        ROW (_("Total cost of ownership"), horizon, money_exact (c->total, cur), TRUE);
      }
    else
      {
        /* Translators: how a rented run's cost is worked out: GPUs × hours. */
        g_autofree char *hours = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s GPU-hour", "%s GPU-hours",
                                                               plural_n (c->gpu_hours)),
                                                  num (c->gpu_hours, 0));

        /* The rows of the totals of a rented cluster: what, and how it is
         * worked out. */
        ROW (_("Upfront"),
             /* Translators: the upfront cost of a rented cluster: nothing. */
             _("nothing: rented"), money_exact (c->upfront, cur), FALSE);
        ROW (e->has_training ? _("This run") : _("One month of serving"), hours, money_exact (c->run, cur), TRUE);
        ROW (_("Monthly"),
             /* Translators: what a rented cluster's monthly cost is made up of. */
             _("all GPUs around the clock, storage"), money_exact (c->monthly, cur), TRUE);
        ROW (_("Rental total"), horizon, money_exact (c->total, cur), TRUE);
      }
#undef ROW
    qm_document_end_table (doc);
  }
  if (c->break_even_valid)
    {
      /* Translators: the months until buying pays off, always with one
       * decimal ("17.5", "1.0"); the rent a month. */
      g_autofree char *t = g_strdup_printf (_("Buying pays off after %s months against renting the same GPUs "
                                              "(renting: %s a month)."),
                                            num (c->break_even_months, 1), money (c->rent_monthly, cur));
      qm_document_add_paragraph (doc, t);
    }
}

static void
add_charts (QmDocument             *doc,
            const QmPlan           *plan,
            const QmEstimate       *e,
            const QmPlanReportInfo *info)
{
  static const QmPlanChartKind order[] = {
    QM_PLAN_CHART_GPUS_TIME, QM_PLAN_CHART_VRAM, QM_PLAN_CHART_POWER, QM_PLAN_CHART_RACKS,
  };
  PlanCopy *copy = g_rc_box_new0 (PlanCopy);
  guint placed = 0;

  copy->plan = *plan;
  copy->estimate = *e;
  copy->unit = info->memory_unit;
  paper_style (&copy->style);

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      PlanFigure *f;
      g_autofree char *caption = NULL;

      /* Time to train does not apply to serving. */
      if (order[i] == QM_PLAN_CHART_GPUS_TIME && !e->has_training)
        continue;
      /* Two charts a page. */
      if (placed % 2 == 0)
        qm_document_add_page_break (doc);
      if (placed == 0)
        qm_document_add_heading (doc, _("Charts"), 1);
      qm_document_add_heading (doc, _(qm_plan_chart_title (order[i])), 2);
      f = g_new0 (PlanFigure, 1);
      f->copy = g_rc_box_acquire (copy);
      f->kind = order[i];
      qm_document_add_figure (doc, CHART_HEIGHT, draw_plan_figure, f, plan_figure_free);
      caption = qm_plan_chart_describe (order[i], plan, e);
      qm_document_add_paragraph (doc, caption);
      placed++;
    }
  g_rc_box_release_full (copy, plan_copy_clear);
}

static gboolean
seen_source (GPtrArray  *seen,
             const char *id,
             const char *source)
{
  g_autofree char *key = g_strdup_printf ("%s\x1f%s", id != NULL ? id : "", source != NULL ? source : "");

  for (guint i = 0; i < seen->len; i++)
    if (g_str_equal (g_ptr_array_index (seen, i), key))
      return TRUE;
  g_ptr_array_add (seen, g_steal_pointer (&key));
  return FALSE;
}

static void
source_row (QmDocument *doc,
            GPtrArray  *seen,
            const char *what,
            const char *id,
            const char *source,
            const char *as_of)
{
  const char *cells[4];

  if (source == NULL || source[0] == '\0' || seen_source (seen, id, source))
    return;
  cells[0] = what;
  cells[1] = id != NULL && id[0] ? id : "—";
  cells[2] = source;
  cells[3] = as_of != NULL && as_of[0] ? as_of : "—";
  qm_document_add_row (doc, cells, FALSE);
}

static void
add_assumptions (QmDocument             *doc,
                 const QmPlan           *plan,
                 const QmEstimate       *e,
                 const QmBomLine        *bom,
                 guint                   n_bom,
                 const QmPlanReportInfo *info)
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
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
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
                                            num (100 * e->mfu, 1), mfu_basis (e->mfu_source),
                                            qm_format_si (ring (), QM_FORMAT_BUF * 2, e->peak_flops, "FLOP/s"));
      qm_document_add_paragraph (doc, t);
    }
  else
    qm_document_add_paragraph (doc, _("Serving is sized by the roofline model below, not by an MFU."));

  qm_document_add_heading (doc, _("Catalog sources"), 2);
  {
    /* Translators: %s is the version of the catalog's prices. */
    g_autofree char *t = g_strdup_printf (_("Catalog prices version %s. Every entry used, with its source and "
                                            "the date its figures were read."), info->catalog_version);
    qm_document_add_paragraph (doc, t);
  }
  qm_document_begin_table (doc, 4, headers, widths, NULL);
  if (plan->workload.preset[0])
    {
      const QmModelPreset *m = qm_catalog_model (plan->workload.preset);

      if (m != NULL)
        source_row (doc, seen, _("Model"), m->info.id, m->info.source, m->info.as_of);
    }
  source_row (doc, seen, _("GPU"), hw->gpu.info.id, hw->gpu.info.source, hw->gpu.info.as_of);
  source_row (doc, seen, _("Server"), hw->server.info.id, hw->server.info.source, hw->server.info.as_of);
  if (plan->network_id[0])
    source_row (doc, seen, _("Network"), hw->network.info.id, hw->network.info.source, hw->network.info.as_of);
  if (plan->storage_id[0])
    source_row (doc, seen, _("Storage"), hw->storage.info.id, hw->storage.info.source, hw->storage.info.as_of);
  if (e->offer != NULL)
    source_row (doc, seen, _("Cloud offer"), e->offer->info.id, e->offer->info.source, e->offer->info.as_of);
  for (guint i = 0; i < n_bom; i++)
    source_row (doc, seen, bom_item_label (bom[i].item), bom[i].catalog_id, bom[i].source,
                bom[i].as_of);
  if (e->has_reliability)
    {
      QmFailurePreset preset;

      if (qm_failure_preset_from_string (plan->reliability_preset, &preset))
        {
          const QmFailurePresetInfo *fi = qm_failure_preset_info (preset);

          source_row (doc, seen, _("Failure rate"), fi->id, fi->source, NULL);
        }
    }
  if (seen->len == 0)
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

/* ---------------------------------------------------------------------- */
/* How to improve this plan: the advisor (issue #12)                       */

/* "−22%", "+7%", or "—" below the advisor's own threshold of half a
 * percent. */
static const char *
change (double d)
{
  char *buf = ring ();

  if (fabs (d) < 0.005)
    return "—";
  g_snprintf (buf, QM_FORMAT_BUF * 2, "%s%.0f%%", d < 0 ? "−" : "+", MAX (1.0, round (fabs (d) * 100)));
  return buf;
}

static QmAdvisorGoal
report_goal (const QmPlanReportInfo *info)
{
  QmAdvisorGoal goal = QM_ADVISOR_GOAL_COST;

  if (info->advisor_goal != NULL && !qm_advisor_goal_from_string (info->advisor_goal, &goal))
    goal = QM_ADVISOR_GOAL_COST;
  return goal;
}

static void
add_advice (QmDocument             *doc,
            const QmPlan           *plan,
            const QmEstimate       *e,
            const QmPlanReportInfo *info)
{
  /* What the suggestions are ranked by. */
  static const char *goal_words[] = {
    /* Translators: what the suggestions are ranked by, in "Changes that
     * would improve this plan, best first by %s." */
    [QM_ADVISOR_GOAL_TIME] = N_("time to train"),
    /* Translators: what the suggestions are ranked by, in "… best first by %s." */
    [QM_ADVISOR_GOAL_COST] = N_("cost"),
    /* Translators: what the suggestions are ranked by, in "… best first by %s." */
    [QM_ADVISOR_GOAL_ENERGY] = N_("energy"),
    /* Translators: what the suggestions are ranked by, in "… best first by %s." */
    [QM_ADVISOR_GOAL_GPUS] = N_("number of GPUs"),
  };
  const char *headers[] = {
    /* Translators: a column header of the table of suggestions: the change
     * to the plan. */
    _("Suggestion"),
    /* Translators: a column header of the table of suggestions: how a change
     * alters the time to train, in percent. */
    _("Time"),
    _("Cost"),
    _("Energy"),
    _("GPUs"),
  };
  static const double widths[] = { 0.46, 0.12, 0.12, 0.12, 0.18 };
  static const QmAlign aligns[] = { QM_ALIGN_START, QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END, QM_ALIGN_END };
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  const char *currency = currency_of (plan, info);
  QmAdvisorGoal goal = report_goal (info);

  if (!e->valid || e->n_errors > 0)
    return;
  qm_advise (plan, goal, r);

  qm_document_add_page_break (doc);
  qm_document_add_heading (doc, _("How to improve this plan"), 1);
  if (r->n == 0)
    qm_document_add_paragraph (doc, _("Nothing to improve: no change the model can quantify makes this plan "
                                      "faster, cheaper, more frugal with energy or smaller while keeping it "
                                      "feasible."));
  else
    {
      g_autofree char *intro =
        /* Translators: %s is what the suggestions are ranked by: "time to
         * train", "cost", "energy" or "number of GPUs". "−" is the minus
         * sign of the table's changes, such as "−22%". */
        g_strdup_printf (_("Changes that would improve this plan, best first by %s. Each is this plan with one "
                           "input changed, estimated by the same model, and kept only when the changed plan "
                           "is still feasible. The changes are against this plan: − is less. This quote is "
                           "not changed by them."), _(goal_words[goal]));

      qm_document_add_paragraph (doc, intro);
      qm_document_begin_table (doc, G_N_ELEMENTS (headers), headers, widths, aligns);
      for (guint i = 0; i < r->n; i++)
        {
          const QmAdvice *a = &r->items[i];
          g_autofree char *title = g_strdup_printf ("%u. %s", i + 1, a->title);
          g_autofree char *gpus = fabs (a->d_gpus) < 0.005
                                  ? g_strdup (num (a->gpus, 0))
                                  : g_strdup_printf ("%s (%s)", num (a->gpus, 0), change (a->d_gpus));
          const char *cells[] = {
            title, r->days > 0 ? change (a->d_days) : "—", change (a->d_cost), change (a->d_energy), gpus,
          };

          qm_document_add_row (doc, cells, FALSE);
        }
      qm_document_end_table (doc);

      qm_document_add_heading (doc, _("Trade-offs and assumptions"), 2);
      for (guint i = 0; i < r->n; i++)
        {
          const QmAdvice *a = &r->items[i];
          g_autofree char *upfront = NULL;
          g_autofree char *t = NULL;

          /* Buyers budget the hardware apart from the run. */
          if (r->upfront > 0 && fabs (a->d_upfront) >= 0.005)
            /* Translators: follows a suggestion's trade-off (hence the leading
             * space): the hardware's upfront cost now, with the change, and
             * the change in percent. */
            upfront = g_strdup_printf (_(" Hardware upfront: %s → %s (%s)."), money (r->upfront, currency),
                                       money (a->upfront, currency), change (a->d_upfront));
          /* Translators: a suggestion: its number and title; its trade-off
           * (sentences); the hardware's upfront cost when it changes (or
           * nothing); what the estimate assumes (a sentence). */
          t = g_strdup_printf (_("%u. %s. %s%s Assumes: %s"), i + 1, a->title, a->tradeoff,
                               upfront != NULL ? upfront : "", a->assumption);
          qm_document_add_paragraph (doc, t);
        }
    }

  if (r->n_guidance > 0)
    {
      qm_document_add_heading (doc, _("Also worth considering (not quantified)"), 2);
      qm_document_add_paragraph (doc, _("The model cannot put numbers on these, so none are given."));
      for (guint i = 0; i < r->n_guidance; i++)
        {
          /* Translators: a bulleted suggestion: its title, its trade-off (a
           * sentence) and its source. */
          g_autofree char *t = g_strdup_printf (_("• %s: %s Source: %s"), r->guidance[i].title,
                                                r->guidance[i].tradeoff, r->guidance[i].assumption);
          qm_document_add_paragraph (doc, t);
        }
    }
}

static char *
footer_text (const char *name,
             const char *date)
{
  g_autofree char *cut = ellipsize (name, FOOTER_NAME_CHARS);

  return g_strdup_printf ("%s — %s", cut, date);
}

QmDocument *
qm_plan_report_new_with_bom (const QmPlan           *plan,
                             const QmEstimate       *e,
                             const QmBomLine        *bom,
                             guint                   n_bom,
                             const QmPlanReportInfo *in)
{
  QmPlanReportInfo info;
  g_autofree char *date = NULL;
  g_autofree char *footer = NULL;
  QmDocument *doc;

  g_return_val_if_fail (plan != NULL && e != NULL, NULL);
  resolve_info (in, &info, &date);
  footer = footer_text (plan_name (plan), info.date);
  doc = qm_document_new (info.paper, plan_name (plan), footer);

  add_cover (doc, plan, e, &info);
  if (e->has_cost)
    add_bom (doc, plan, e, bom, n_bom, &info);
  add_charts (doc, plan, e, &info);
  add_advice (doc, plan, e, &info);
  add_assumptions (doc, plan, e, bom, n_bom, &info);
  return doc;
}

QmDocument *
qm_plan_report_new (const QmPlan           *plan,
                    const QmEstimate       *estimate,
                    const QmPlanReportInfo *info)
{
  g_return_val_if_fail (plan != NULL && estimate != NULL, NULL);
  return qm_plan_report_new_with_bom (plan, estimate, estimate->cost.bom,
                                      MIN (estimate->cost.n_bom, QM_BOM_MAX), info);
}

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

static void
sub_title (cairo_t            *cr,
           const QmChartStyle *style,
           const char         *text,
           double              x,
           double              y)
{
  qm_chart_set_color (cr, &style->foreground);
  qm_chart_text (cr, style, QM_TEXT_BOLD, text, x, y, 0.0, 0.0);
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

        for (guint i = 0; i < c->n; i++)
          {
            const QmEstimate *e = &c->estimates[i];

            items[i] = (QmCompareItem) {
              .label = c->labels[i],
              .gpus = e->gpus,
              .days = e->has_training ? e->train_days : 0.0,
              .cost = e->cost.total,
              .power_kw = e->power.facility_peak_kw,
              .co2_tonnes = e->power.co2_tonnes,
            };
          }
        qm_chart_render_compare (cr, items, c->n, c->currency, &c->style, width, height, NULL);
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
            sub_title (cr, &c->style, c->short_labels[i], 4.0, 0.0);
            cairo_translate (cr, 0, title_h);
            qm_chart_render_vram_scaled (cr, &c->estimates[i].memory, &label, 1, c->unit, c->vram_max,
                                         &c->style, cw - 6, ch - 6 - title_h, NULL);
            cairo_restore (cr);
          }
      }
      break;

    case COMPARE_FIGURE_POWER:
      sub_title (cr, &c->style, c->labels[f->plan], 4.0, 0.0);
      cairo_translate (cr, 0, title_h);
      qm_chart_render_power_scaled (cr, &c->estimates[f->plan].power, c->node_max_w, c->cluster_max_kw,
                                    &c->style, width, height - title_h, NULL);
      break;

    default:
      g_assert_not_reached ();
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

typedef enum
{
  BETTER_NONE,
  BETTER_LOWER,
  BETTER_HIGHER,
} Better;

static void
compare_row_free (gpointer data)
{
  QmCompareRow *row = data;

  g_free (row->label);
  for (guint i = 0; i < QM_COMPARE_MAX_PLANS; i++)
    g_free (row->cells[i]);
  g_free (row);
}

char
qm_compare_letter (guint i)
{
  g_return_val_if_fail (i < QM_COMPARE_MAX_PLANS, '?');
  return letters[i];
}

/* One row of figures: the best value(s) are marked, unless all are equal
 * or fewer than two apply (NaN = does not apply). Takes @texts. */
static void
metric_row (GPtrArray    *rows,
            guint         n,
            const char   *label,
            const double *values,
            char        **texts,
            Better        better)
{
  QmCompareRow *row = g_new0 (QmCompareRow, 1);
  double best = NAN, worst = NAN;
  guint applicable = 0;

  for (guint i = 0; i < n; i++)
    if (isfinite (values[i]))
      {
        applicable++;
        if (isnan (best) || (better == BETTER_LOWER ? values[i] < best : values[i] > best))
          best = values[i];
        if (isnan (worst) || (better == BETTER_LOWER ? values[i] > worst : values[i] < worst))
          worst = values[i];
      }

  row->label = g_strdup (label);
  for (guint i = 0; i < n; i++)
    {
      row->best[i] = better != BETTER_NONE && applicable >= 2 && best != worst &&
                     isfinite (values[i]) && values[i] == best;
      row->cells[i] = g_steal_pointer (&texts[i]);
    }
  g_ptr_array_add (rows, row);
}

GPtrArray *
qm_compare_rows (const QmPlan           *plans,
                 const QmEstimate       *estimates,
                 guint                   n,
                 const QmPlanReportInfo *in)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (compare_row_free);
  QmPlanReportInfo info;
  g_autofree char *date = NULL;
  gboolean same_currency = TRUE;
  double v[QM_COMPARE_MAX_PLANS];
  char *t[QM_COMPARE_MAX_PLANS];

  g_return_val_if_fail (n >= 1 && n <= QM_COMPARE_MAX_PLANS, rows);
  resolve_info (in, &info, &date);
  for (guint i = 1; i < n; i++)
    if (g_strcmp0 (currency_of (&plans[i], &info), currency_of (&plans[0], &info)) != 0)
      same_currency = FALSE;

#define EACH(expr_v, expr_t) G_STMT_START {                           \
    for (guint i = 0; i < n; i++)                                       \
      {                                                                 \
        const QmPlan *p G_GNUC_UNUSED = &plans[i];                      \
        const QmEstimate *e G_GNUC_UNUSED = &estimates[i];              \
        const char *cur G_GNUC_UNUSED = currency_of (p, &info);         \
        v[i] = (expr_v);                                                \
        t[i] = (expr_t);                                                \
      }                                                                 \
  } G_STMT_END
#define NA "–"
#define INPUT(label) metric_row (rows, n, (label), v, t, BETTER_NONE)

  /* The rows' labels and cells, as the comparison report, the CLI's table
   * and the Compare page show them. */
  EACH (e->gpus, g_strdup (num (e->gpus, 0)));
  metric_row (rows, n, _("GPUs"), v, t, BETTER_LOWER);
  EACH (e->nodes, g_strdup (num (e->nodes, 0)));
  metric_row (rows, n, _("Nodes"), v, t, BETTER_LOWER);
  EACH (e->cluster.racks, g_strdup (num (e->cluster.racks, 0)));
  metric_row (rows, n, _("Racks"), v, t, BETTER_LOWER);
  EACH (e->has_training ? e->train_days : NAN, g_strdup (e->has_training ? days (e->train_days) : NA));
  /* Translators: rows of the comparison: the time to train with failures
   * and restarts, and without. */
  metric_row (rows, n, _("Time, with failures"), v, t, BETTER_LOWER);
  EACH (e->has_training ? e->ideal_days : NAN, g_strdup (e->has_training ? days (e->ideal_days) : NA));
  metric_row (rows, n, _("Time, ideal"), v, t, BETTER_LOWER);
  EACH (e->has_training ? e->gpu_hours : NAN, g_strdup (e->has_training ? num (e->gpu_hours, 0) : NA));
  metric_row (rows, n, _("GPU-hours"), v, t, BETTER_LOWER);
  EACH (e->has_training ? e->mfu : NAN,
        e->has_training ? g_strdup_printf ("%s%% (%s)", num (100 * e->mfu, 1), mfu_source_word (e->mfu_source))
                        : g_strdup (NA));
  metric_row (rows, n, _("MFU"), v, t, BETTER_HIGHER);
  EACH (e->has_reliability ? e->reliability.goodput : NAN,
        e->has_reliability ? g_strdup_printf ("%s%%", num (100 * e->reliability.goodput, 1)) : g_strdup (NA));
  metric_row (rows, n, _("Goodput"), v, t, BETTER_HIGHER);
  EACH (e->has_inference ? e->inference.tokens_per_s_total : NAN,
        e->has_inference ? g_strdup (num (e->inference.tokens_per_s_total, 0)) : g_strdup (NA));
  /* Translators: a row of the comparison: the output tokens per second a
   * serving plan delivers. */
  metric_row (rows, n, _("Output tokens/s"), v, t, BETTER_HIGHER);
  EACH (e->memory.margin,
        /* Translators: a cell of the comparison: the memory each GPU needs,
         * the GPU's memory, and "fits" or "DOES NOT FIT". */
        g_strdup_printf (_("%s of %s, %s"), bytes (e->memory.total, info.memory_unit),
                         bytes (e->memory.capacity, info.memory_unit),
                         /* Translators: in a cell of the comparison, after the memory per GPU. */
                         e->fits ? _("fits") : _("DOES NOT FIT")));
  metric_row (rows, n, _("Memory per GPU"), v, t, BETTER_HIGHER);
  EACH (e->power.facility_peak_kw, g_strdup_printf ("%s kW", num (e->power.facility_peak_kw, 0)));
  metric_row (rows, n, _("Facility power"), v, t, BETTER_LOWER);
  EACH (e->power.energy_mwh,
        /* Translators: a cell of the comparison: the energy a serving plan
         * uses a month. */
        g_strdup_printf (e->has_training ? "%s MWh" : _("%s MWh a month"),
                         num (e->power.energy_mwh, e->power.energy_mwh < 100 ? 1 : 0)));
  metric_row (rows, n, _("Energy"), v, t, BETTER_LOWER);
  EACH (e->power.co2_tonnes,
        /* Translators: cells of the comparison: tonnes of CO₂e for a run,
         * and for a month of serving. */
        g_strdup_printf (e->has_training ? _("%s t") : _("%s t a month"),
                         num (e->power.co2_tonnes, e->power.co2_tonnes < 100 ? 1 : 0)));
  metric_row (rows, n, _("CO₂e"), v, t, BETTER_LOWER);
  EACH (same_currency ? e->cost.upfront : NAN, g_strdup (money (e->cost.upfront, cur)));
  metric_row (rows, n, _("Upfront"), v, t, BETTER_LOWER);
  EACH (same_currency ? e->cost.monthly : NAN, g_strdup (money (e->cost.monthly, cur)));
  metric_row (rows, n, _("Monthly"), v, t, BETTER_LOWER);
  EACH (same_currency ? e->cost.run : NAN,
        e->has_training ? g_strdup (money (e->cost.run, cur))
                        /* Translators: a cell of the comparison: the cost of a
                         * month of serving. */
                        : g_strdup_printf (_("%s a month"), money (e->cost.run, cur)));
  metric_row (rows, n, _("This run"), v, t, BETTER_LOWER);
  EACH (same_currency ? e->cost.total : NAN,
        /* Translators: a cell of the comparison: the total cost, then the
         * months of the plan's horizon. */
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s over %s month", "%s over %s months",
                                      plural_n (e->cost.horizon_months)),
                         money (e->cost.total, cur), num (e->cost.horizon_months, 0)));
  metric_row (rows, n, _("Total cost"), v, t, BETTER_LOWER);

  /* Inputs: no better or worse, just side by side. */
  {
    QmCompareRow *row = g_new0 (QmCompareRow, 1);

    row->label = g_strdup (_("Inputs"));
    row->section = TRUE;
    for (guint i = 0; i < n; i++)
      row->cells[i] = g_strdup ("");
    g_ptr_array_add (rows, row);
  }
  EACH (0, g_strdup (mode_label (p->workload.mode)));
  INPUT (_("Workload"));
  EACH (0, model_name (p, e));
  INPUT (_("Model"));
  EACH (0, e->has_training
           /* Translators: a cell of the comparison's "Work" row: the training
            * tokens, the sequence length and the precision ("bf16"). */
           ? g_strdup_printf (_("%s tokens, sequence %s, %s"), short_count (e->tokens),
                              num (p->workload.seq_len, 0), qm_precision_to_string (p->workload.precision))
           /* Translators: a cell of the comparison's "Work" row: the requests
            * a minute of a serving plan. */
           : g_strdup_printf (_("%s requests/min"), num (p->workload.inference.requests_per_minute, 0)));
  /* Translators: a row of the comparison: how much work a plan does. */
  INPUT (_("Work"));
  EACH (0, e->has_training
           ? g_strdup_printf ("TP %u · PP %u · DP %u · ZeRO-%u", e->parallelism.tp, e->parallelism.pp,
                              e->parallelism.dp, e->parallelism.zero_stage)
           /* Translators: a cell of the comparison's "Layout" row for a
            * serving plan: replicas × GPUs in each. */
           : g_strdup_printf (_("%s × %u GPUs"), num (e->inference.replicas, 0), e->inference.gpus_per_replica));
  /* Translators: a row of the comparison: the parallel layout. */
  INPUT (_("Layout"));
  EACH (0, g_strdup (gpu_name (p)));
  INPUT (_("GPU"));
  EACH (0, g_strdup (server_name (p)));
  INPUT (_("Server"));
  /* Translators: a plan without a network. */
  EACH (0, g_strdup (p->network_id[0] ? p->network_id : C_("no network", "none")));
  INPUT (_("Network"));
  EACH (0, g_strdup (pricing_label (p->pricing.mode)));
  INPUT (_("Pricing"));
  EACH (0, g_strdup_printf ("PUE %s, %s/kWh", num (p->facility.pue, 2), money_exact (p->facility.usd_per_kwh, cur)));
  INPUT (_("Facility"));
#undef EACH
#undef NA
#undef INPUT
  return rows;
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
  g_autoptr(GString) intro = g_string_new (NULL);
  const char *headers[1 + QM_COMPARE_MAX_PLANS];
  double widths[1 + QM_COMPARE_MAX_PLANS];
  char *header_text[QM_COMPARE_MAX_PLANS] = { NULL, };
  CompareCopy *copy;
  gboolean same_currency = TRUE;
  QmDocument *doc;

  g_return_val_if_fail (plans != NULL && estimates != NULL, NULL);
  g_return_val_if_fail (n >= 2 && n <= QM_COMPARE_MAX_PLANS, NULL);

  resolve_info (in, &info, &date);
  /* Translators: the comparison report's footer; %s is a date, YYYY-MM-DD. */
  footer = g_strdup_printf (_("Plan comparison — %s"), info.date);
  doc = qm_document_new (info.paper, _("Plan comparison"), footer);

  copy = g_rc_box_new0 (CompareCopy);
  copy->n = n;
  copy->unit = info.memory_unit;
  paper_style (&copy->style);
  g_strlcpy (copy->currency, currency_of (&plans[0], &info), sizeof copy->currency);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *cut = ellipsize (plan_name (&plans[i]), 40);
      double node_w, cluster_kw;

      copy->plans[i] = plans[i];
      copy->estimates[i] = estimates[i];
      g_autofree char *shorter = ellipsize (plan_name (&plans[i]), 30);

      g_snprintf (copy->labels[i], sizeof copy->labels[i], "%c: %s", letters[i], cut);
      g_snprintf (copy->short_labels[i], sizeof copy->short_labels[i], "%c: %s", letters[i], shorter);
      copy->vram_max = MAX (copy->vram_max, qm_chart_vram_top (&estimates[i].memory, 1));
      qm_chart_power_top (&estimates[i].power, &node_w, &cluster_kw);
      copy->node_max_w = MAX (copy->node_max_w, node_w);
      copy->cluster_max_kw = MAX (copy->cluster_max_kw, cluster_kw);
      if (g_strcmp0 (currency_of (&plans[i], &info), copy->currency) != 0)
        same_currency = FALSE;
    }

  /* Cover: what is compared. */
  qm_document_add_heading (doc, _("Plan comparison"), 0);
  g_string_append_printf (intro, _("Date: %s"), info.date);
  g_string_append_c (intro, '\n');
  append_catalog_line (intro, info.catalog_version, same_currency ? copy->currency : NULL);
  qm_document_add_paragraph (doc, intro->str);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GString) line = g_string_new (NULL);
      g_autofree char *model = model_name (&plans[i], &estimates[i]);

      /* Translators: a compared plan: its letter and name; the workload
       * ("Pretraining"); the model; the GPU count, then the GPU model. */
      g_string_append_printf (line, g_dngettext (GETTEXT_PACKAGE, "%c. %s — %s, %s, %s GPU (%s)",
                                                 "%c. %s — %s, %s, %s GPUs (%s)", plural_n (estimates[i].gpus)),
                              letters[i], plan_name (&plans[i]), mode_label (plans[i].workload.mode), model,
                              num (estimates[i].gpus, 0), gpu_name (&plans[i]));
      if (plans[i].customer[0])
        /* Translators: after a compared plan's line; %s is the customer. */
        g_string_append_printf (line, _("; for %s"), plans[i].customer);
      qm_document_add_paragraph (doc, line->str);
    }
  qm_document_add_paragraph (doc, _("✓ marks the better value in each row: lower for counts, time, power "
                                    "and cost; higher for MFU, goodput, memory to spare and throughput. "
                                    "“–” means the figure does not apply to that plan."));
  if (!same_currency)
    qm_document_add_paragraph (doc, _("The plans use different currencies, so costs are not marked."));

  /* The table. */
  headers[0] = "";
  widths[0] = 0.24;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *cut = ellipsize (plan_name (&plans[i]), 60);

      header_text[i] = g_strdup_printf ("%c. %s", letters[i], cut);
      headers[1 + i] = header_text[i];
      widths[1 + i] = 0.76 / n;
    }
  {
    QmAlign aligns[1 + QM_COMPARE_MAX_PLANS];

    for (guint i = 0; i <= n; i++)
      aligns[i] = QM_ALIGN_START;
    qm_document_add_heading (doc, _("Key figures"), 1);
    qm_document_begin_table (doc, 1 + n, headers, widths, aligns);
    /* The table copied the headers. */
    for (guint i = 0; i < n; i++)
      g_clear_pointer (&header_text[i], g_free);
  }

  {
    g_autoptr(GPtrArray) rows = qm_compare_rows (plans, estimates, n, &info);

    for (guint r = 0; r < rows->len; r++)
      {
        QmCompareRow *row = g_ptr_array_index (rows, r);
        const char *cells[1 + QM_COMPARE_MAX_PLANS];
        char *marked[QM_COMPARE_MAX_PLANS] = { NULL, };

        cells[0] = row->label;
        for (guint i = 0; i < n; i++)
          {
            /* A check mark, not colour: it survives a greyscale printer. */
            marked[i] = row->best[i] ? g_strconcat ("✓ ", row->cells[i], NULL) : g_strdup (row->cells[i]);
            cells[1 + i] = marked[i];
          }
        qm_document_add_row (doc, cells, row->section);
        /* (g_autofree on an array would free only its first element.) */
        for (guint i = 0; i < n; i++)
          g_free (marked[i]);
      }
  }
  qm_document_end_table (doc);

  /* Charts. */
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

  g_rc_box_release (copy);
  return doc;
}

/* ---------------------------------------------------------------------- */
/* Labels the CLI's text output shares with the PDF                        */

const char *
qm_bom_item_label (const char *item)
{
  return bom_item_label (item);
}

const char *
qm_mode_label (QmMode mode)
{
  return mode_label (mode);
}

const char *
qm_mfu_source_word (QmMfuSource source)
{
  return mfu_source_word (source);
}

const char *
qm_recompute_word (QmRecompute recompute)
{
  return recompute_word (recompute);
}

/* ---------------------------------------------------------------------- */
/* CSV                                                                     */

/* Plain digits for a spreadsheet: no grouping, the chosen decimal point. */
static char *
csv_number (double      v,
            int         decimals,
            const char *decimal_point)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];
  char *dot;

  if (!isfinite (v))
    return g_strdup ("");
  g_snprintf (format, sizeof format, "%%.%df", decimals);
  g_ascii_formatd (buf, sizeof buf, format, v);
  dot = strchr (buf, '.');
  if (dot != NULL && strcmp (decimal_point, ".") != 0)
    {
      *dot = '\0';
      return g_strconcat (buf, decimal_point, dot + 1, NULL);
    }
  return g_strdup (buf);
}

char *
qm_bom_to_csv_full (const QmEstimate *e,
                    const QmPlan     *plan,
                    const QmBomLine  *bom,
                    guint             n_bom,
                    gboolean          excel_bom,
                    char              sep,
                    const char       *dp)
{
  GString *out = g_string_new (NULL);
  const char *cur = plan->pricing.currency[0] ? plan->pricing.currency : "USD";
  /* The CSV is for a spreadsheet: its labels are in the reader's language
   * too (the numbers are plain digits). */
  const char *header[7] = { _("Item"), _("Catalog id"), _("Quantity"), NULL, NULL, _("Source"), _("As of") };
  /* Translators: a column of the bill of materials as CSV; %s is a currency
   * code such as "USD". */
  g_autofree char *unit_h = g_strdup_printf (_("Unit price (%s)"), cur);
  /* Translators: a column of the bill of materials as CSV; %s is a currency
   * code such as "USD". */
  g_autofree char *total_h = g_strdup_printf (_("Total (%s)"), cur);
  const QmCost *c = &e->cost;
  const char *empty[] = { "" };

  if (excel_bom)
    g_string_append (out, "\xEF\xBB\xBF");

#define PAIR(k, val) G_STMT_START { const char *f_[] = { (k), (val) }; qm_csv_append_row (out, f_, 2, sep); } G_STMT_END
  PAIR (_("Plan"), plan_name (plan));
  if (plan->customer[0])
    PAIR (_("Customer"), plan->customer);
  if (plan->quote_ref[0])
    /* Translators: a label in the bill of materials as CSV, before the
     * quote's reference. */
    PAIR (_("Quote reference"), plan->quote_ref);
  /* Translators: a label in the bill of materials as CSV, before the
   * version of the catalog's prices. */
  PAIR (_("Catalog prices"), qm_catalog_version ());
  /* Translators: a label in the bill of materials as CSV, before a currency
   * code such as "USD". */
  PAIR (_("Currency"), cur);
  PAIR (_("Pricing"), pricing_label (plan->pricing.mode));
#undef PAIR
  qm_csv_append_row (out, empty, 1, sep);

  header[3] = unit_h;
  header[4] = total_h;
  qm_csv_append_row (out, header, 7, sep);
  for (guint i = 0; i < n_bom; i++)
    {
      const QmBomLine *l = &bom[i];
      g_autofree char *q = csv_number (l->qty, l->qty == floor (l->qty) ? 0 : 4, dp);
      g_autofree char *u = csv_number (l->unit_usd, 2, dp);
      g_autofree char *t = csv_number (l->total_usd, 2, dp);
      const char *f[7] = { bom_item_label (l->item), l->catalog_id, q, u, t, l->source, l->as_of };

      qm_csv_append_row (out, f, 7, sep);
    }
  qm_csv_append_row (out, empty, 1, sep);

  /* Totals, in the Total column so they line up under the lines. */
  {
    const char *f[5] = { _("Totals"), "", "", "", "" };
    qm_csv_append_row (out, f, 5, sep);
  }
#define TOTAL(label, amount) G_STMT_START {                                   \
    g_autofree char *a_ = csv_number ((amount), 2, dp);                       \
    const char *f_[5] = { (label), "", "", "", a_ };                           \
    qm_csv_append_row (out, f_, 5, sep); \
  } G_STMT_END
  TOTAL (_("Upfront"), c->upfront);
  if (is_buy (plan))
    {
      TOTAL (_("Amortisation per month"), c->amortization_monthly);
      TOTAL (_("Electricity per month"), c->power_monthly);
      TOTAL (_("Colocation per month"), c->colo_monthly);
      TOTAL (_("Support per month"), c->support_monthly);
    }
  TOTAL (_("Monthly"), c->monthly);
  TOTAL (e->has_training ? _("This run") : _("One month of serving"), c->run);
  {
    /* Translators: the last total of the bill of materials as CSV; %s is
     * the months of the plan's horizon. */
    g_autofree char *label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Total over %s month",
                                                           "Total over %s months", plural_n (c->horizon_months)),
                                              num (c->horizon_months, 0));
    TOTAL (label, c->total);
  }
#undef TOTAL

  return g_string_free (out, FALSE);
}

char *
qm_bom_to_csv (const QmEstimate *estimate,
               const QmPlan     *plan,
               gboolean          excel_bom)
{
  const char *dp = qm_format_decimal_point ();
  gboolean comma = g_str_equal (dp, ",");

  g_return_val_if_fail (estimate != NULL && plan != NULL, NULL);
  return qm_bom_to_csv_full (estimate, plan, estimate->cost.bom, MIN (estimate->cost.n_bom, QM_BOM_MAX),
                             excel_bom, comma ? ';' : ',', comma ? "," : ".");
}
