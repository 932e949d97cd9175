/* test-plan-report.c: the PDF plan summary, the comparison report and the
 * BOM as CSV, read back with poppler: page counts, the figures of the
 * estimate in the text, "Page N of M", repeated BOM headers, vector charts,
 * embedded fonts, text inside the page box for a long CJK name and a
 * 300-line quote, the CSV through the store's parser, and the summary in
 * German from the catalogs built in <builddir>/po.
 *
 * The first pages are also rendered to PNG in the build dir for a person
 * to look at (pdftoppm, when installed).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <libintl.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "qm-test-pdf.h"
#include "qm-test-util.h"

#include "qm-advisor.h"
#include "qm-catalog.h"
#include "qm-csv.h"
#include "qm-plan.h"
#include "qm-plan-report.h"
#include "qm-plan-report-private.h"

#define DATE "2026-11-22"

static char *
out_path (const char *name)
{
  const char *dir = g_getenv ("QM_BUILD_DIR");

  return g_canonicalize_filename (name, dir != NULL ? dir : NULL);
}

static PopplerDocument *
open_pdf (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = g_filename_to_uri (path, NULL, &error);
  PopplerDocument *pdf;

  g_assert_no_error (error);
  pdf = poppler_document_new_from_file (uri, NULL, &error);
  g_assert_no_error (error);
  return pdf;
}

static char *
page_text (PopplerDocument *pdf,
           int              i)
{
  g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, i);

  return poppler_page_get_text (page);
}

static char *
all_text (PopplerDocument *pdf)
{
  GString *s = g_string_new (NULL);

  for (int i = 0; i < poppler_document_get_n_pages (pdf); i++)
    {
      g_autofree char *t = page_text (pdf, i);
      g_string_append (s, t);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
info_init (QmPlanReportInfo *info,
           QmPaper           paper)
{
  qm_plan_report_info_init (info);
  info->date = DATE;
  info->paper = paper;
}

static void
load_example (const char *name,
              QmPlan     *plan,
              QmEstimate *estimate)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);

  g_assert_true (qm_plan_load_from_file (plan, path, &warnings, &error));
  g_assert_no_error (error);
  qm_estimate (plan, estimate);
  g_assert_true (estimate->valid);
}

/* Vector pages, embedded fonts, every glyph inside the page box, and the
 * "Page N of M" footer on each page. */
static void
check_pages (PopplerDocument *pdf,
             guint            n_pages)
{
  g_assert_cmpint (poppler_document_get_n_pages (pdf), ==, n_pages);

  for (guint i = 0; i < n_pages; i++)
    {
      g_autoptr(PopplerPage) page = poppler_document_get_page (pdf, i);
      g_autofree char *text = poppler_page_get_text (page);
      /* In the language the report is written in (see test_german). */
      g_autofree char *footer = g_strdup_printf (g_dgettext (GETTEXT_PACKAGE, "Page %u of %u"), i + 1, n_pages);
      PopplerRectangle *rects = NULL;
      guint n_rects = 0;
      double w, h;
      GList *images;

      g_assert_nonnull (strstr (text, footer));

      images = poppler_page_get_image_mapping (page);
      g_assert_null (images);

      poppler_page_get_size (page, &w, &h);
      g_assert_true (poppler_page_get_text_layout (page, &rects, &n_rects));
      for (guint r = 0; r < n_rects; r++)
        {
          g_assert_cmpfloat (rects[r].x1, >=, -0.5);
          g_assert_cmpfloat (rects[r].y1, >=, -0.5);
          g_assert_cmpfloat (rects[r].x2, <=, w + 0.5);
          g_assert_cmpfloat (rects[r].y2, <=, h + 0.5);
        }
      g_free (rects);
    }

  {
    PopplerFontInfo *fonts = poppler_font_info_new (pdf);
    PopplerFontsIter *iter = NULL;
    guint n_fonts = 0;

    while (poppler_font_info_scan (fonts, n_pages, &iter))
      {
        if (iter == NULL)
          continue;
        do
          {
            g_assert_true (poppler_fonts_iter_is_embedded (iter));
            n_fonts++;
          }
        while (poppler_fonts_iter_next (iter));
        poppler_fonts_iter_free (iter);
      }
    poppler_font_info_free (fonts);
    g_assert_cmpuint (n_fonts, >, 0);
  }
}

/* Pages to PNG beside the PDF, for a person to look at. */
static void
render_png (const char *pdf_path,
            guint       last_page)
{
  g_autofree char *prog = g_find_program_in_path ("pdftoppm");
  g_autofree char *prefix = NULL;
  g_autofree char *last = g_strdup_printf ("%u", last_page);
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (prog == NULL)
    return;
  prefix = g_strndup (pdf_path, strlen (pdf_path) - 4);
  {
    const char *argv[] = { prog, "-r", "80", "-png", "-l", last, pdf_path, prefix, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
assert_squeezed_in (const char *squeezed,
                    const char *needle)
{
  g_autofree char *n = qm_test_squeeze (needle);

  if (strstr (squeezed, n) == NULL)
    g_error ("“%s” not on the summary page", needle);
}

static void
test_example (gconstpointer data)
{
  const char *name = data;
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autofree char *base = g_strndup (name, strlen (name) - strlen (".qmplan"));
  g_autofree char *file = g_strdup_printf ("test-plan-report-%s.pdf", base);
  g_autofree char *path = out_path (file);
  g_autofree char *text = NULL;
  g_autofree char *page2 = NULL;
  char buf[QM_FORMAT_BUF];
  QmPlanReportInfo info;
  guint n_pages;

  load_example (name, plan, e);
  info_init (&info, QM_PAPER_A4);
  doc = qm_plan_report_new (plan, e, &info);
  n_pages = qm_document_n_pages (doc);
  g_assert_cmpuint (n_pages, >=, 5);
  g_assert_true (qm_document_write_pdf (doc, path, &error));
  g_assert_no_error (error);

  pdf = open_pdf (path);
  check_pages (pdf, n_pages);
  text = all_text (pdf);

  g_assert_nonnull (strstr (text, plan->name));
  g_assert_nonnull (strstr (text, qm_format_number (buf, sizeof buf, e->gpus, 0)));
  g_assert_nonnull (strstr (text, qm_format_money (buf, sizeof buf, e->cost.total, plan->pricing.currency)));
  if (e->has_training)
    g_assert_nonnull (strstr (text, qm_format_days (buf, sizeof buf, e->train_days)));
  g_assert_nonnull (strstr (text, "Bill of materials"));
  g_assert_nonnull (strstr (text, "Assumptions, warnings and sources"));
  g_assert_nonnull (strstr (text, DATE));
  g_assert_nonnull (strstr (text, qm_catalog_version ()));
  /* The catalog entries used are named with their sources. */
  g_assert_nonnull (strstr (text, plan->gpu_id));
  g_assert_nonnull (strstr (text, plan->server_id));
  g_assert_nonnull (strstr (text, "Catalog sources"));
  /* Every formula of the table, as the app's help page shows it. */
  g_assert_nonnull (strstr (text, "Formulas and their sources"));
  g_assert_nonnull (strstr (text, "Checkpoint interval:"));

  /* How to improve this plan: the advisor's suggestions for cost (the
   * default goal), the first one named, and the guidance with sources. */
  g_assert_nonnull (strstr (text, "How to improve this plan"));
  {
    g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);

    qm_advise (plan, QM_ADVISOR_GOAL_COST, r);
    if (g_str_equal (name, "llama-3.1-70b-pretrain-h100.qmplan"))
      g_assert_cmpuint (r->n, >, 0);
    if (r->n > 0)
      {
        g_autofree char *first = g_strdup_printf ("1. %s", r->items[0].title);
        /* The paragraph wraps: compare with the line breaks as spaces. */
        g_autofree char *flat = g_strdelimit (g_strdup (text), "\n", ' ');

        g_assert_nonnull (strstr (text, "best first by cost"));
        g_assert_nonnull (strstr (text, first));
        g_assert_nonnull (strstr (flat, r->items[0].assumption));
      }
    else
      g_assert_nonnull (strstr (text, "Nothing to improve"));
    for (guint i = 0; i < r->n_guidance; i++)
      g_assert_nonnull (strstr (text, r->guidance[i].title));
  }

  /* How far to trust it (issue #36), on the first page: the likely
   * ranges beside the time and in words with their basis, as the estimate
   * prints them; or, for a plan giving its MFU, that none applies. */
  {
    g_autofree char *page1 = page_text (pdf, 0);
    g_autofree char *squeezed = qm_test_squeeze (page1);
    g_autofree char *basis = qm_estimate_bands_basis (plan, e);
    char band[QM_FORMAT_BUF], band2[QM_FORMAT_BUF];

    if (e->bands.train_days.set)
      {
        g_autofree char *label = g_strdup_printf ("with failures, likely %s days",
                                                  qm_estimate_band_format (e, QM_BAND_TRAIN_DAYS, band, sizeof band));
        g_autofree char *words = g_strdup_printf ("%s days at %s MFU",
                                                  qm_estimate_band_format (e, QM_BAND_TRAIN_DAYS, band, sizeof band),
                                                  qm_estimate_band_format (e, QM_BAND_MFU, band2, sizeof band2));

        assert_squeezed_in (squeezed, label);
        assert_squeezed_in (squeezed, words);
      }
    if (e->bands.tokens_per_s_per_gpu.set)
      {
        g_autofree char *words = g_strdup_printf ("%s output tokens/s per GPU, or %s GPUs for the same load",
                                                  qm_estimate_band_format (e, QM_BAND_TOKENS_PER_S_PER_GPU, band,
                                                                           sizeof band),
                                                  qm_estimate_band_format (e, QM_BAND_GPUS, band2, sizeof band2));

        assert_squeezed_in (squeezed, words);
      }
    if (basis != NULL)
      {
        g_autofree char *sentence = g_strdup_printf ("Basis: %s.", basis);

        assert_squeezed_in (squeezed, sentence);
        g_assert_null (strstr (page1, "No likely range"));
      }
    else if (e->has_training && e->mfu_source == QM_MFU_SOURCE_GIVEN)
      assert_squeezed_in (squeezed, "No likely range: the plan gives its own MFU, which no validation measures.");
    /* The examples have both. */
    if (g_str_equal (name, "7b-pretrain-30-day-deadline.qmplan") ||
        g_str_equal (name, "llama-3.1-70b-serving-mi300x.qmplan"))
      g_assert_nonnull (basis);
    if (g_str_equal (name, "llama-3.1-70b-pretrain-h100.qmplan"))
      g_assert_null (basis);
  }

  page2 = page_text (pdf, 1);
  g_assert_nonnull (strstr (page2, "Bill of materials"));
  g_assert_nonnull (strstr (page2, "Unit price"));

  render_png (path, n_pages);
}

/* A deadline plan sized at 90% confidence says so beside its bands, in
 * the words the summary and the quote's technical page share; at 50% the
 * estimate itself meets it and nothing is added (issue #36). */
static void
test_bands_deadline (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree char *at50 = NULL;
  g_autofree char *at90 = NULL;

  load_example ("7b-pretrain-30-day-deadline.qmplan", plan, e);
  at50 = qm_report_bands_text (plan, e);
  g_assert_nonnull (at50);
  g_assert_true (g_str_has_prefix (at50, "Likely, as 8 in 10 published runs of the kind: "));
  g_assert_null (strstr (at50, "deadline"));
  plan->workload.deadline_confidence = 0.9;
  qm_estimate (plan, e);
  g_assert_true (e->valid);
  g_assert_cmpfloat (e->bands.deadline_error, >, 0);
  at90 = qm_report_bands_text (plan, e);
  g_assert_nonnull (strstr (at90, "The deadline is met with 90% confidence: the GPUs are sized for a run "));
}

/* QmPlanReportInfo.advisor_goal ranks the advice page by another goal. */
static void
test_advice_goal (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree QmAdvisorResult *r = g_new0 (QmAdvisorResult, 1);
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autofree char *path = out_path ("test-plan-report-advice-time.pdf");
  g_autofree char *text = NULL;
  g_autofree char *first = NULL;
  QmPlanReportInfo info;

  load_example ("llama-3.1-70b-pretrain-h100.qmplan", plan, e);
  info_init (&info, QM_PAPER_A4);
  info.advisor_goal = "time";
  doc = qm_plan_report_new (plan, e, &info);
  g_assert_true (qm_document_write_pdf (doc, path, NULL));
  pdf = open_pdf (path);
  check_pages (pdf, qm_document_n_pages (doc));
  text = all_text (pdf);

  qm_advise (plan, QM_ADVISOR_GOAL_TIME, r);
  g_assert_cmpuint (r->n, >, 0);
  first = g_strdup_printf ("1. %s", r->items[0].title);
  g_assert_nonnull (strstr (text, "best first by time to train"));
  g_assert_nonnull (strstr (text, first));
}

static void
test_letter (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autoptr(PopplerPage) page = NULL;
  g_autofree char *path = out_path ("test-plan-report-letter.pdf");
  QmPlanReportInfo info;
  double w, h;

  load_example ("mistral-7b-lora-a100.qmplan", plan, e);
  info_init (&info, QM_PAPER_LETTER);
  doc = qm_plan_report_new (plan, e, &info);
  g_assert_true (qm_document_write_pdf (doc, path, NULL));
  pdf = open_pdf (path);
  check_pages (pdf, qm_document_n_pages (doc));
  page = poppler_document_get_page (pdf, 0);
  poppler_page_get_size (page, &w, &h);
  g_assert_cmpfloat (fabs (w - 612), <, 0.5);
  g_assert_cmpfloat (fabs (h - 792), <, 0.5);
}

#define STRESS_LINES 300

/* A 300-line quote with zero-cost items, quotes and commas in names, and
 * CJK; the strings live as long as the lines. */
static QmBomLine *
stress_bom (GPtrArray *strings)
{
  QmBomLine *bom = g_new0 (QmBomLine, STRESS_LINES);

  for (guint i = 0; i < STRESS_LINES; i++)
    {
      char *item, *id;

      if (i % 7 == 3)
        item = g_strdup_printf ("Stress item %u: 光ファイバーケーブル (OM4, 多モード) 30 m", i);
      else if (i % 11 == 5)
        item = g_strdup_printf ("Stress item %u: cable \"fancy\", 2 m; with a very long description that "
                                "goes on to wrap across several lines of the item column", i);
      else
        item = g_strdup_printf ("Stress item %u", i);
      id = g_strdup_printf ("stress-%03u", i);
      g_ptr_array_add (strings, item);
      g_ptr_array_add (strings, id);
      bom[i].item = item;
      bom[i].catalog_id = id;
      bom[i].qty = i % 5 == 0 ? 0 : (i % 3 == 0 ? 2.5 : i + 1);
      bom[i].unit_usd = i % 4 == 0 ? 0 : 1234.5 * (i + 1);
      bom[i].total_usd = bom[i].qty * bom[i].unit_usd;
      bom[i].source = i % 2 ? "Vendor price list, 2026 (test)" : "数据表 (测试)";
      bom[i].as_of = "2026-01-01";
    }
  return bom;
}

static void
test_stress (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autofree QmBomLine *bom = NULL;
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autofree char *path = out_path ("test-plan-report-stress.pdf");
  g_autofree char *text = NULL;
  g_autoptr(GString) name = g_string_new (NULL);
  QmPlanReportInfo info;
  guint n_pages, bom_pages = 0, rows_seen = 0;

  load_example ("llama-3.1-70b-pretrain-h100.qmplan", plan, e);
  while (name->len < QM_NAME_LEN - 40)
    g_string_append (name, "大規模言語モデル事前学習計画 Extraordinarily-long-plan-name-without-spaces ");
  g_utf8_strncpy (plan->name, name->str, 120);
  g_strlcpy (plan->customer, "株式会社テスト (Test Customer, Ltd.)", sizeof plan->customer);
  g_strlcpy (plan->quote_ref, "Q-2026-0001-中文", sizeof plan->quote_ref);
  g_strlcpy (plan->notes,
             "第一行：这是中文备注，用于测试排版。\n"
             "日本語のメモ：ラックの電力と冷却を確認してください。\n"
             "A very long note line without breaks: "
             "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
             sizeof plan->notes);

  bom = stress_bom (strings);
  info_init (&info, QM_PAPER_A4);
  doc = qm_plan_report_new_with_bom (plan, e, bom, STRESS_LINES, &info);
  n_pages = qm_document_n_pages (doc);
  g_assert_true (qm_document_write_pdf (doc, path, NULL));
  pdf = open_pdf (path);
  check_pages (pdf, n_pages);

  /* Every page with BOM rows repeats the table header. */
  for (guint i = 0; i < n_pages; i++)
    {
      g_autofree char *t = page_text (pdf, i);
      const char *p = t;

      if (strstr (t, "Stress item") == NULL || strstr (t, "Catalog sources") != NULL)
        continue;
      /* Pages of the sources table name the items too: count the BOM's. */
      if (strstr (t, "Unit price") == NULL)
        {
          g_assert_nonnull (strstr (t, "As of"));
          continue;
        }
      bom_pages++;
      while ((p = strstr (p, "stress-")) != NULL)
        {
          rows_seen++;
          p++;
        }
    }
  g_assert_cmpuint (bom_pages, >=, 5);
  g_assert_cmpuint (rows_seen, ==, STRESS_LINES);

  text = all_text (pdf);
  g_assert_nonnull (strstr (text, "株式会社テスト"));
  g_assert_nonnull (strstr (text, "第一行"));
  render_png (path, 3);
}

static void
test_compare (void)
{
  static const char *names[] = {
    "llama-3.1-70b-pretrain-h100.qmplan",
    "7b-pretrain-30-day-deadline.qmplan",
    "llama-3.1-70b-serving-h100.qmplan",
  };
  QmPlan *plans = g_new0 (QmPlan, 3);
  QmEstimate *estimates = g_new0 (QmEstimate, 3);
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *path = out_path ("test-compare-report.pdf");
  g_autofree char *text = NULL;
  QmPlanReportInfo info;
  guint n_pages, marked = 0;

  for (guint i = 0; i < 3; i++)
    load_example (names[i], &plans[i], &estimates[i]);
  info_init (&info, QM_PAPER_A4);
  doc = qm_compare_report_new (plans, estimates, 3, &info);
  n_pages = qm_document_n_pages (doc);
  g_assert_cmpuint (n_pages, >=, 3);
  g_assert_true (qm_document_write_pdf (doc, path, NULL));
  pdf = open_pdf (path);
  check_pages (pdf, n_pages);
  text = all_text (pdf);
  for (guint i = 0; i < 3; i++)
    g_assert_nonnull (strstr (text, plans[i].name));
  g_assert_nonnull (strstr (text, "✓"));

  /* The fewest GPUs is marked, and only it. */
  rows = qm_compare_rows (plans, estimates, 3, &info);
  for (guint r = 0; r < rows->len; r++)
    {
      QmCompareRow *row = g_ptr_array_index (rows, r);

      if (g_str_equal (row->label, "GPUs"))
        {
          guint best = 0;

          for (guint i = 1; i < 3; i++)
            if (estimates[i].gpus < estimates[best].gpus)
              best = i;
          for (guint i = 0; i < 3; i++)
            g_assert_cmpint (row->best[i], ==, i == best);
        }
      for (guint i = 0; i < 3; i++)
        marked += row->best[i];
    }
  g_assert_cmpuint (marked, >, 5);
  render_png (path, n_pages);

  g_free (plans);
  g_free (estimates);
}

/* One price fact (issue #34): a plan that rents at its cloud offer's
 * rate prints that rate as its price per GPU-hour in the inputs, the rate
 * of its rent line and of the rent-vs-buy note, not "0". */
static void
test_gpu_hour_price (void)
{
  QmPlan plan;
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autofree char *path = out_path ("test-gpu-hour-price.pdf");
  g_autofree char *text = NULL;
  g_autofree char *flat = NULL;
  g_autofree char *input = NULL;
  g_autofree char *note = NULL;
  char rate[QM_FORMAT_BUF];
  QmPlanReportInfo info;

  load_example ("llama-3.1-70b-serving-h100.qmplan", &plan, e);
  g_assert_cmpfloat (plan.pricing.usd_per_gpu_hour, ==, 0);
  g_assert_true (e->cost.rent_price_from_offer);
  info_init (&info, QM_PAPER_A4);
  doc = qm_plan_report_new (&plan, e, &info);
  g_assert_true (qm_document_write_pdf (doc, path, NULL));
  pdf = open_pdf (path);
  text = all_text (pdf);
  /* The lines wrap where they like. */
  flat = g_strdelimit (g_strdup (text), "\n", ' ');
  qm_format_number (rate, sizeof rate, e->cost.rent_usd_per_gpu_hour, 2);
  input = g_strdup_printf ("Price per GPU-Hour: %s USD", rate);
  note = g_strdup_printf ("renting at %s per GPU-hour", rate);
  if (strstr (flat, input) == NULL)
    g_error ("the inputs lack '%s'", input);
  g_assert_nonnull (strstr (flat, note));
  g_assert_null (strstr (flat, "Price per GPU-Hour: 0 USD"));
}

/* The comparison's power charts share one scale, but each node's bar is
 * labelled with its own provisioned watts (one figure: the estimate's
 * node total, the bar's height), not the scale's top: a DGX A100 beside a
 * DGX H100 was labelled 10.2 kW on its 6.50 kW bar (issue #34). */
static void
test_compare_node_power (void)
{
  static const char *names[] = {
    "llama-3.1-70b-pretrain-h100.qmplan",
    "mistral-7b-lora-a100.qmplan",
  };
  QmPlan *plans = g_new0 (QmPlan, 2);
  QmEstimate *estimates = g_new0 (QmEstimate, 2);
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autofree char *path = out_path ("test-compare-node-power.pdf");
  g_autofree char *text = NULL;
  QmPlanReportInfo info;

  for (guint i = 0; i < 2; i++)
    load_example (names[i], &plans[i], &estimates[i]);
  /* The two nodes differ: the shared scale is the H100's. */
  g_assert_cmpfloat (estimates[1].power.node.total, <, 0.8 * estimates[0].power.node.total);
  info_init (&info, QM_PAPER_A4);
  doc = qm_compare_report_new (plans, estimates, 2, &info);
  g_assert_true (qm_document_write_pdf (doc, path, NULL));
  pdf = open_pdf (path);
  text = all_text (pdf);
  for (guint i = 0; i < 2; i++)
    {
      char watts[QM_FORMAT_BUF];

      qm_format_si (watts, sizeof watts, estimates[i].power.node.total, "W");
      if (strstr (text, watts) == NULL)
        g_error ("%s: its node's %s is not under its bar", names[i], watts);
    }

  g_free (plans);
  g_free (estimates);
}

/* A small RFC 4180 reader for any separator (the store's reads commas). */
static GPtrArray *
parse_csv (const char *s,
           char        sep)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  GPtrArray *row = g_ptr_array_new ();
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *c = s; *c; c++)
    {
      if (quoted)
        {
          if (*c == '"' && c[1] == '"')
            g_string_append_c (field, *c++);
          else if (*c == '"')
            quoted = FALSE;
          else
            g_string_append_c (field, *c);
        }
      else if (*c == '"')
        quoted = TRUE;
      else if (*c == sep)
        {
          g_ptr_array_add (row, g_string_free (field, FALSE));
          field = g_string_new (NULL);
        }
      else if (*c == '\r' && c[1] == '\n')
        {
          c++;
          g_ptr_array_add (row, g_string_free (field, FALSE));
          field = g_string_new (NULL);
          g_ptr_array_add (row, NULL);
          g_ptr_array_add (rows, g_ptr_array_free (row, FALSE));
          row = g_ptr_array_new ();
        }
      else
        g_string_append_c (field, *c);
    }
  g_assert_false (quoted);
  g_assert_cmpuint (field->len, ==, 0);
  g_string_free (field, TRUE);
  g_ptr_array_free (row, TRUE);
  return rows;
}

static void
test_csv (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autofree QmBomLine *bom = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *stress = NULL;
  g_autofree char *semi = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  gboolean in_bom = FALSE;
  guint lines = 0;

  load_example ("llama-3.1-70b-pretrain-h100.qmplan", plan, e);

  /* The estimate's own BOM, with a byte order mark. */
  csv = qm_bom_to_csv (e, plan, TRUE);
  g_assert_true (g_str_has_prefix (csv, "\xEF\xBB\xBF"));
  g_assert_true (g_utf8_validate (csv, -1, NULL));
  records = qm_csv_parse (csv, strlen (csv), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < records->len; i++)
    {
      QmCsvRecord *rec = g_ptr_array_index (records, i);
      const char *first = g_ptr_array_index (rec->fields, 0);

      if (g_str_equal (first, "Item"))
        {
          in_bom = TRUE;
          continue;
        }
      /* The store's parser skips the blank line before the totals. */
      if (in_bom && (g_str_equal (first, "") || g_str_equal (first, "Totals")))
        in_bom = FALSE;
      else if (in_bom)
        {
          const QmBomLine *l = &e->cost.bom[lines++];

          g_assert_cmpstr (first, ==, l->item);
          g_assert_cmpfloat (fabs (g_ascii_strtod (g_ptr_array_index (rec->fields, 4), NULL) - l->total_usd), <, 0.01);
        }
      if (g_str_equal (first, "Upfront"))
        g_assert_cmpfloat (fabs (g_ascii_strtod (g_ptr_array_index (rec->fields, 4), NULL) - e->cost.upfront), <, 0.01);
    }
  g_assert_cmpuint (lines, ==, e->cost.n_bom);
  g_assert_nonnull (strstr (csv, "Total over 48 months"));
  g_clear_pointer (&records, g_ptr_array_unref);

  /* Quotes, commas and CJK survive the store's parser. */
  bom = stress_bom (strings);
  stress = qm_bom_to_csv_full (e, plan, bom, STRESS_LINES, FALSE, ',', ".");
  g_assert_false (g_str_has_prefix (stress, "\xEF\xBB\xBF"));
  records = qm_csv_parse (stress, strlen (stress), &error);
  g_assert_no_error (error);
  lines = 0;
  for (guint i = 0; i < records->len; i++)
    {
      QmCsvRecord *rec = g_ptr_array_index (records, i);
      const char *first = g_ptr_array_index (rec->fields, 0);

      if (g_str_has_prefix (first, "Stress item"))
        {
          g_assert_cmpstr (first, ==, bom[lines].item);
          g_assert_cmpstr (g_ptr_array_index (rec->fields, 5), ==, bom[lines].source);
          lines++;
        }
    }
  g_assert_cmpuint (lines, ==, STRESS_LINES);

  /* A decimal-comma locale: ";" separates, "," is the decimal point. */
  semi = qm_bom_to_csv_full (e, plan, bom, STRESS_LINES, TRUE, ';', ",");
  rows = parse_csv (semi + 3, ';');
  lines = 0;
  for (guint i = 0; i < rows->len; i++)
    {
      char **f = g_ptr_array_index (rows, i);

      if (f[0] != NULL && g_str_has_prefix (f[0], "Stress item"))
        {
          g_autofree char *total = g_strdup (f[4]);
          char *comma = strchr (total, ',');

          g_assert_cmpstr (f[0], ==, bom[lines].item);
          g_assert_nonnull (comma);
          g_assert_null (strchr (total, '.'));
          *comma = '.';
          g_assert_cmpfloat (fabs (g_ascii_strtod (total, NULL) - bom[lines].total_usd), <, 0.01);
          lines++;
        }
    }
  g_assert_cmpuint (lines, ==, STRESS_LINES);
}

/* The bill of materials in a decimal-comma convention, stated in a
 * "sep=;" line, reads back through the importer's detection with the
 * same totals. */
static void
test_bom_csv_dialect (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  const QmCsvDialect de = { ';', ',', TRUE, "UTF-8" };
  QmCsvDialect read = { 0 };
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  gboolean upfront = FALSE;

  load_example ("llama-3.1-70b-pretrain-h100.qmplan", plan, e);
  csv = qm_bom_to_csv_dialect (e, plan, FALSE, &de);
  g_assert_true (g_str_has_prefix (csv, "sep=;\r\n"));
  records = qm_csv_read (csv, strlen (csv), &read, &error);
  g_assert_no_error (error);
  g_assert_cmpint (read.separator, ==, ';');
  g_assert_cmpint (read.decimal_mark, ==, ',');
  g_assert_true (read.sep_line);
  for (guint i = 0; i < records->len; i++)
    {
      QmCsvRecord *rec = g_ptr_array_index (records, i);
      double v = 0;

      if (!g_str_equal (g_ptr_array_index (rec->fields, 0), "Upfront"))
        continue;
      g_assert_true (qm_csv_parse_number (g_ptr_array_index (rec->fields, 4), read.decimal_mark, &v));
      g_assert_cmpfloat (fabs (v - e->cost.upfront), <, 0.01);
      upfront = TRUE;
    }
  g_assert_true (upfront);

  /* With a byte order mark first, no "sep=" line: it must be the first. */
  g_clear_pointer (&csv, g_free);
  csv = qm_bom_to_csv_dialect (e, plan, TRUE, &de);
  g_assert_true (g_str_has_prefix (csv, "\xEF\xBB\xBF" "Plan;"));
}

/* A language the way a user picks one on a machine with only the C.UTF-8
 * locale (as test-translation.c does): LANGUAGE, with LANG=C.UTF-8 and no
 * LC_ALL. NULL goes back to English and @lc_all (the suite's C.UTF-8).
 * setlocale() also makes gettext drop the translations it has looked up. */
static void
use_language (const char *language,
              const char *lc_all)
{
  if (language != NULL)
    {
      g_unsetenv ("LC_ALL");
      g_setenv ("LANG", "C.UTF-8", TRUE);
      g_setenv ("LANGUAGE", language, TRUE);
    }
  else
    {
      if (lc_all != NULL)
        g_setenv ("LC_ALL", lc_all, TRUE);
      g_unsetenv ("LANGUAGE");
    }
  g_assert_nonnull (setlocale (LC_ALL, ""));
}

/* The plan summary in German: the report's own headings and sentences are
 * translated, and none of their English is left. English comes back after,
 * for the tests that read it. */
static void
test_german (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autoptr(QmDocument) doc = NULL;
  g_autoptr(QmDocument) english = NULL;
  g_autoptr(PopplerDocument) pdf = NULL;
  g_autoptr(PopplerDocument) english_pdf = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *localedir = g_build_filename (g_getenv ("QM_BUILD_DIR"), "po", NULL);
  g_autofree char *mo = g_build_filename (localedir, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  g_autofree char *lc_all = g_strdup (g_getenv ("LC_ALL"));
  g_autofree char *path = out_path ("test-plan-report-de.pdf");
  g_autofree char *english_path = out_path ("test-plan-report-en.pdf");
  g_autofree char *text = NULL;
  g_autofree char *english_text = NULL;
  g_autofree char *flat = NULL;
  QmPlanReportInfo info;
  guint n_pages;

  /* meson builds the catalogs for this test (depends: gmo_targets). */
  g_assert_true (g_file_test (mo, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (bindtextdomain (GETTEXT_PACKAGE, localedir));
  g_assert_nonnull (bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8"));

  load_example ("llama-3.1-70b-pretrain-h100.qmplan", plan, e);
  info_init (&info, QM_PAPER_A4);
  use_language ("de", NULL);
  doc = qm_plan_report_new (plan, e, &info);
  n_pages = qm_document_n_pages (doc);
  /* The charts are drawn as the PDF is written: still in German. */
  g_assert_true (qm_document_write_pdf (doc, path, &error));
  g_assert_no_error (error);

  pdf = open_pdf (path);
  /* "Seite 1 von 9" while German is on. */
  check_pages (pdf, n_pages);
  use_language (NULL, lc_all);
  text = all_text (pdf);
  g_assert_nonnull (strstr (text, "Seite 1 von"));
  g_assert_null (strstr (text, "Page 1 of"));
  flat = g_strdelimit (g_strdup (text), "\n", ' ');

  /* Headings: "Summary", "Bill of materials", "Totals", "Charts",
   * "Assumptions, warnings and sources", "How to improve this plan". */
  g_assert_nonnull (strstr (text, "Zusammenfassung"));
  g_assert_nonnull (strstr (text, "Stückliste"));
  g_assert_nonnull (strstr (text, "Summen"));
  g_assert_nonnull (strstr (text, "Diagramme"));
  g_assert_nonnull (strstr (text, "Annahmen, Warnungen und Quellen"));
  g_assert_nonnull (strstr (text, "So lässt sich dieser Plan verbessern"));
  /* A table header, a sentence with its numbers, a plural. */
  g_assert_nonnull (strstr (text, "Stückpreis"));
  /* The core's bill-of-materials labels. */
  g_assert_nonnull (strstr (text, "Switches im Rechennetz"));
  g_assert_nonnull (strstr (flat, "Um Llama 3.1 70B auf 15T Tokens zu trainieren, braucht es"));
  g_assert_nonnull (strstr (text, "Gesamtkosten über 48 Monate"));
  /* Names and ids from the plan and the catalog stay as they are. */
  g_assert_nonnull (strstr (text, plan->name));
  g_assert_nonnull (strstr (text, plan->gpu_id));

  g_assert_null (strstr (text, "Summary"));
  g_assert_null (strstr (text, "Bill of materials"));
  g_assert_null (strstr (text, "Unit price"));
  g_assert_null (strstr (text, "Assumptions, warnings and sources"));
  g_assert_null (strstr (text, "How to improve this plan"));
  g_assert_null (strstr (text, "Catalog sources"));
  g_assert_null (strstr (flat, "without failures"));
  render_png (path, 2);

  /* And back in English. */
  english = qm_plan_report_new (plan, e, &info);
  g_assert_true (qm_document_write_pdf (english, english_path, NULL));
  english_pdf = open_pdf (english_path);
  english_text = all_text (english_pdf);
  g_assert_nonnull (strstr (english_text, "Bill of materials"));
  g_assert_null (strstr (english_text, "Stückliste"));
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GDir) dir = NULL;
  g_autofree char *examples = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  examples = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", NULL);
  dir = g_dir_open (examples, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".qmplan"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, >=, 4);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *test = g_strdup_printf ("/plan-report/example/%s", (char *) g_ptr_array_index (names, i));
      g_test_add_data_func (test, g_ptr_array_index (names, i), test_example);
    }
  g_test_add_func ("/plan-report/advice-goal", test_advice_goal);
  g_test_add_func ("/plan-report/bands-deadline", test_bands_deadline);
  g_test_add_func ("/plan-report/letter", test_letter);
  g_test_add_func ("/plan-report/stress", test_stress);
  g_test_add_func ("/plan-report/compare", test_compare);
  g_test_add_func ("/plan-report/compare-node-power", test_compare_node_power);
  g_test_add_func ("/plan-report/gpu-hour-price", test_gpu_hour_price);
  g_test_add_func ("/plan-report/csv", test_csv);
  g_test_add_func ("/plan-report/bom-csv-dialect", test_bom_csv_dialect);
  /* Switches the process's language, and back to English: GLib runs the
   * /plan-report/example/ suite after it, and those tests read English. */
  g_test_add_func ("/plan-report/german", test_german);
  return g_test_run ();
}
