/* test-cli-report.c: quartermaster-cli report, chart and compare as a user
 * runs them (docs/cli.md): exit status, one-line errors, and the
 * files they write, read back (poppler, PNG header, SVG).
 *
 * The CLI's path comes from QM_CLI (tests/meson.build).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "qm-test-pdf.h"
#include "qm-test-cli.h"


static char *
example (const char *name)
{
  return g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
}

static char *
out_path (const char *name)
{
  return g_build_filename (g_getenv ("QM_BUILD_DIR"), name, NULL);
}

static void
assert_one_line (const char *err)
{
  g_assert_true (g_str_has_prefix (err, "quartermaster-cli: "));
  g_assert_nonnull (strchr (err, '\n'));
  g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
}

/* The plan's name, as the reader sees it. */
static char *
plan_name (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return g_strdup (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "name"));
}

static void
test_report_examples (void)
{
  g_autofree char *dir_path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_auto(Run) r = { 0, };
      g_autofree char *plan = NULL;
      g_autofree char *file = NULL;
      g_autofree char *out = NULL;
      g_autofree char *text = NULL;
      g_autofree char *title = NULL;
      int pages = 0;

      if (!g_str_has_suffix (name, ".qmplan"))
        continue;
      plan = example (name);
      file = g_strdup_printf ("cli-report-%s.pdf", name);
      out = out_path (file);
      g_unlink (out);
      run_cli (&r, "report", plan, "-o", out, "--paper", "letter", NULL);
      g_assert_cmpstr (r.err, ==, "");
      g_assert_cmpint (r.status, ==, 0);
      text = qm_test_pdf_text (out, &pages);
      g_assert_cmpint (pages, >=, 5);
      title = plan_name (plan);
      g_assert_nonnull (strstr (text, title));
      n++;
    }
  g_assert_cmpuint (n, >=, 4);
}

static void
test_report_errors (void)
{
  g_autofree char *plan = example ("mistral-7b-lora-a100.qmplan");
  g_autofree char *bad_dir = out_path ("no-such-dir/sub/out.pdf");

  {
    g_auto(Run) r = { 0, };

    /* Unwritable: exit 1, the path in the message, nothing left behind. */
    run_cli (&r, "report", plan, "-o", bad_dir, NULL);
    g_assert_cmpint (r.status, ==, 1);
    assert_one_line (r.err);
    g_assert_nonnull (strstr (r.err, bad_dir));
    g_assert_false (g_file_test (bad_dir, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "report", plan, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_one_line (r.err);
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *out = out_path ("cli-report-paper.pdf");

    run_cli (&r, "report", plan, "-o", out, "--paper", "a3", NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_one_line (r.err);
    g_assert_nonnull (strstr (r.err, "a3"));
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *out = out_path ("cli-report-missing.pdf");

    run_cli (&r, "report", "no-such-plan.qmplan", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 1);
    assert_one_line (r.err);
    g_assert_nonnull (strstr (r.err, "no-such-plan.qmplan"));
  }
}

static void
test_report_atomic (void)
{
  g_autofree char *plan = example ("mistral-7b-lora-a100.qmplan");
  g_autofree char *dir = out_path ("cli-report-atomic");
  g_autofree char *out = g_build_filename (dir, "out.pdf", NULL);
  g_autoptr(GDir) listing = NULL;
  g_auto(Run) r = { 0, };
  guint entries = 0;

  g_mkdir_with_parents (dir, 0755);
  g_unlink (out);
  run_cli (&r, "report", plan, "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  /* Only the target: no temporary left beside it. */
  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    entries++;
  g_assert_cmpuint (entries, ==, 1);
}

/* report -o BOM.csv: the bill of materials as the app exports it, and a
 * name a stranger chose reaches the spreadsheet as text, not a formula. */
static void
test_report_csv (void)
{
  g_autofree char *example_plan = example ("mistral-7b-lora-a100.qmplan");
  g_autofree char *plan = out_path ("cli-report-hostile.qmplan");
  g_autofree char *out = out_path ("cli-report-hostile.csv");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) hostile = NULL;
  g_auto(Run) r = { 0, };
  gboolean upfront = FALSE;

  g_file_get_contents (example_plan, &text, NULL, &error);
  g_assert_no_error (error);
  hostile = g_string_new (text);
  g_assert_cmpuint (g_string_replace (hostile, "\"Mistral 7B LoRA fine-tune on one DGX A100\"",
                                      "\"=HYPERLINK(\\\"http://evil\\\",\\\"Click\\\")\", "
                                      "\"customer\": \"+cmd|' /C calc'!A0\", \"quote_ref\": \"@SUM(1+1)\"", 1), ==, 1);
  g_file_set_contents (plan, hostile->str, -1, &error);
  g_assert_no_error (error);

  g_unlink (out);
  run_cli (&r, "report", plan, "-o", out, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_file_get_contents (out, &csv, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (csv, "Plan,\"'=HYPERLINK(\"\"http://evil\"\",\"\"Click\"\")\"\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nCustomer,\"'+cmd|' /C calc'!A0\"\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nQuote reference,\"'@SUM(1+1)\"\r\n"));
  /* No cell anywhere starts a formula. */
  lines = g_strsplit (csv, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);

      for (guint c = 0; cells[c] != NULL; c++)
        g_assert_null (strchr ("=+-@\t", cells[c][0] != '\0' ? cells[c][0] : 'x'));
      /* Totals stay plain numbers in the last column. */
      if (g_str_has_prefix (lines[i], "Upfront,"))
        {
          g_assert_cmpuint (g_strv_length (cells), ==, 5);
          g_assert_true (g_ascii_isdigit (cells[4][0]));
          upfront = TRUE;
        }
    }
  g_assert_true (upfront);

  {
    g_auto(Run) bad = { 0, };
    g_autofree char *txt = out_path ("cli-report-hostile.txt");

    run_cli (&bad, "report", plan, "-o", txt, NULL);
    g_assert_cmpint (bad.status, ==, 2);
    assert_one_line (bad.err);
    g_assert_nonnull (strstr (bad.err, ".csv"));
  }
}

/* report --csv-locale: "user" states its separator in Excel's "sep="
 * line (the suite runs in C.UTF-8: a comma); "c" is plain RFC 4180. */
static void
test_report_csv_locale (void)
{
  g_autofree char *plan = example ("mistral-7b-lora-a100.qmplan");
  g_autofree char *user = out_path ("cli-report-user.csv");
  g_autofree char *c = out_path ("cli-report-c.csv");
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_auto(Run) r = { 0, };

  run_cli (&r, "report", plan, "-o", user, "--csv-locale", "user", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_file_get_contents (user, &csv, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (csv, "sep=,\r\nPlan,"));
  g_clear_pointer (&csv, g_free);
  run_clear (&r);

  run_cli (&r, "report", plan, "-o", c, "--csv-locale", "c", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_file_get_contents (c, &csv, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (csv, "Plan,"));
  run_clear (&r);

  run_cli (&r, "report", plan, "-o", c, "--csv-locale", "de", NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_one_line (r.err);
  g_assert_nonnull (strstr (r.err, "--csv-locale"));
}

static void
test_chart (void)
{
  g_autofree char *plan = example ("llama-3.1-70b-pretrain-h100.qmplan");

  {
    g_auto(Run) r = { 0, };
    g_autofree char *out = out_path ("cli-chart-racks.png");
    g_autofree char *data = NULL;
    gsize len = 0;

    run_cli (&r, "chart", plan, "--kind", "racks", "--width", "640", "--height", "480", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_get_contents (out, &data, &len, NULL));
    g_assert_cmpuint (len, >, 24);
    g_assert_true (memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0);
    /* IHDR: width and height, big-endian, at bytes 16 and 20. */
    g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 16)), ==, 640);
    g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 20)), ==, 480);
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *out = out_path ("cli-chart-default.png");
    g_autofree char *data = NULL;
    gsize len = 0;

    run_cli (&r, "chart", plan, "--kind", "gpus-time", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_get_contents (out, &data, &len, NULL));
    g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 16)), ==, 1200);
    g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 20)), ==, 800);
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *out = out_path ("cli-chart-vram.svg");
    g_autofree char *data = NULL;

    run_cli (&r, "chart", plan, "--kind", "vram", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_get_contents (out, &data, NULL, NULL));
    g_assert_nonnull (strstr (data, "<svg"));
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *out = out_path ("cli-chart-power.pdf");
    g_autofree char *text = NULL;
    int pages = 0;

    run_cli (&r, "chart", plan, "--kind", "power", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    text = qm_test_pdf_text (out, &pages);
    g_assert_cmpint (pages, ==, 1);
    g_assert_nonnull (strstr (text, "Provisioned"));
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *serving = example ("llama-3.1-70b-serving-h100.qmplan");
    g_autofree char *out = out_path ("cli-chart-latency.pdf");
    g_autofree char *text = NULL;
    int pages = 0;

    run_cli (&r, "chart", serving, "--kind", "latency", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    text = qm_test_pdf_text (out, &pages);
    g_assert_cmpint (pages, ==, 1);
    g_assert_nonnull (strstr (text, "Time to first token"));
    g_assert_nonnull (strstr (text, "Requests per minute"));
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *serving = example ("llama-3.1-70b-serving-h100.qmplan");
    g_autofree char *out = out_path ("cli-chart-throughput.svg");
    g_autofree char *data = NULL;

    run_cli (&r, "chart", serving, "--kind", "throughput", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_get_contents (out, &data, NULL, NULL));
    g_assert_nonnull (strstr (data, "<svg"));
  }
}

/* Issue #22: the cash flow of the plan's quote, in its currency, with the
 * break-even month marked; a plan without a quote gets the default terms. */
static void
test_chart_cashflow (void)
{
  {
    g_auto(Run) r = { 0, };
    g_autofree char *plan = example ("llama-3.1-70b-quote-eur.qmplan");
    g_autofree char *out = out_path ("cli-chart-cashflow.pdf");
    g_autofree char *text = NULL;
    int pages = 0;

    run_cli (&r, "chart", plan, "--kind", "cashflow", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    text = qm_test_pdf_text (out, &pages);
    g_assert_cmpint (pages, ==, 1);
    g_assert_nonnull (strstr (text, "EUR"));
    g_assert_nonnull (strstr (text, "Buying is cheaper from month"));
    g_assert_nonnull (strstr (text, "Months after the order"));
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *plan = example ("llama-3.1-70b-pretrain-h100.qmplan");
    g_autofree char *out = out_path ("cli-chart-cashflow-default.pdf");
    g_autofree char *text = NULL;
    int pages = 0;

    run_cli (&r, "chart", plan, "--kind", "cashflow", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    text = qm_test_pdf_text (out, &pages);
    g_assert_cmpint (pages, ==, 1);
    g_assert_nonnull (strstr (text, "USD"));
    g_assert_nonnull (strstr (text, "Cluster in place: month"));
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *plan = example ("llama-3.1-70b-pretrain-h100.qmplan");
    g_autofree char *png = out_path ("cli-chart-cashflow-default.png");
    g_autofree char *data = NULL;
    gsize len = 0;

    run_cli (&r, "chart", plan, "--kind", "cashflow", "-o", png, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_get_contents (png, &data, &len, NULL));
    g_assert_cmpuint (len, >, 24);
    g_assert_true (memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0);
  }
}

/* @text with every run of white space as one space: PDF lines wrap. */
static char *
flatten (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
    else if (out->len > 0 && out->str[out->len - 1] != ' ')
      g_string_append_c (out, ' ');
  return g_string_free (out, FALSE);
}

/* One break-even (issue #34): for each bought example, the month the plan
 * report states (cost page and assumptions), estimate --json's
 * break_even_month, the quote PDF's sentence and the cash-flow chart's
 * mark are the same. The euro quote's terms (deposit, four deliveries,
 * 19 % tax) put it at month 47 where the plan said 34.5 months before. */
static void
test_break_even_agrees (void)
{
  static const char *names[] = {
    "llama-3.1-70b-quote-eur.qmplan", "llama-3.1-70b-pretrain-h100.qmplan", "7b-pretrain-30-day-deadline.qmplan",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *plan = example (names[i]);
      g_autofree char *report = out_path ("cli-break-even-report.pdf");
      g_autofree char *quote = out_path ("cli-break-even-quote.pdf");
      g_autofree char *chart = out_path ("cli-break-even-chart.pdf");
      g_autofree char *report_text = NULL, *quote_text = NULL, *chart_text = NULL;
      g_autofree char *cost_line = NULL, *note = NULL, *quote_line = NULL, *chart_mark = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonObject *cost;
      gint64 month;
      int pages = 0;

      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "estimate", plan, "--json", NULL);
        g_assert_cmpint (r.status, ==, 0);
        g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
        g_assert_no_error (error);
      }
      cost = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "cost_usd");
      g_assert_nonnull (cost);
      month = json_object_get_int_member (cost, "break_even_month");
      g_assert_cmpint (month, >, 0);
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "report", plan, "-o", report, NULL);
        g_assert_cmpint (r.status, ==, 0);
      }
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "quote", plan, "-o", quote, NULL);
        g_assert_cmpint (r.status, ==, 0);
      }
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "chart", plan, "--kind", "cashflow", "-o", chart, NULL);
        g_assert_cmpint (r.status, ==, 0);
      }
      {
        g_autofree char *t1 = qm_test_pdf_text (report, &pages);
        g_autofree char *t2 = qm_test_pdf_text (quote, &pages);
        g_autofree char *t3 = qm_test_pdf_text (chart, &pages);

        report_text = flatten (t1);
        quote_text = flatten (t2);
        chart_text = flatten (t3);
      }
      cost_line = g_strdup_printf ("Buying costs less than renting the same GPUs from month %" G_GINT64_FORMAT
                                   " after the order", month);
      note = g_strdup_printf ("per GPU-hour from month %" G_GINT64_FORMAT " after the order", month);
      quote_line = g_strdup_printf ("buying costs less than renting the same GPUs from month %" G_GINT64_FORMAT
                                    " on.", month);
      chart_mark = g_strdup_printf ("Buying is cheaper from month %" G_GINT64_FORMAT, month);
      if (strstr (report_text, cost_line) == NULL || strstr (report_text, note) == NULL)
        g_error ("%s: the plan report does not say month %" G_GINT64_FORMAT, names[i], month);
      if (strstr (quote_text, quote_line) == NULL)
        g_error ("%s: the quote does not say month %" G_GINT64_FORMAT, names[i], month);
      if (strstr (chart_text, chart_mark) == NULL)
        g_error ("%s: the cash-flow chart does not mark month %" G_GINT64_FORMAT, names[i], month);
    }
}

/* estimate --json's member @key: a string, or NULL for null. */
static char *
json_string (const char *json,
             const char *key)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *o;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (o, key));
  if (json_object_get_null_member (o, key))
    return NULL;
  return g_strdup (json_object_get_string_member (o, key));
}

/* One price date (issue #35 item 6): for a bought and a rented example,
 * estimate --json's prices_as_of and price_age_warning, the estimate's
 * text, the plan report, and the quote's PDF, text and JSON all say the
 * same date and, past 6 months, the same warning; with --max-price-age 60
 * none warns. The core's definition is tested in test-price-age.c. */
static void
test_prices_as_of_agrees (void)
{
  static const char *names[] = { "llama-3.1-70b-quote-eur.qmplan", "llama-3.1-70b-serving-h100.qmplan" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *plan = example (names[i]);
      g_autofree char *report = out_path ("cli-prices-report.pdf");
      g_autofree char *quote = out_path ("cli-prices-quote.pdf");
      g_autofree char *iso = NULL, *warning = NULL, *line = NULL, *report_text = NULL, *quote_text = NULL;
      g_autofree char *estimate_text = NULL, *quote_cli = NULL, *quote_iso = NULL, *quote_warning = NULL;
      char date[64];
      GDate d;
      int pages = 0;

      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "estimate", plan, "--date", "2026-11-28", "--json", NULL);
        g_assert_cmpint (r.status, ==, 0);
        iso = json_string (r.out, "prices_as_of");
        warning = json_string (r.out, "price_age_warning");
      }
      g_assert_nonnull (iso);
      g_assert_nonnull (warning);
      g_date_clear (&d, 1);
      g_date_set_parse (&d, iso);
      g_assert_true (g_date_valid (&d));
      g_date_strftime (date, sizeof date, "%-d %B %Y", &d);
      line = g_strdup_printf ("Prices as of %s", date);
      g_assert_true (g_str_has_prefix (warning, "Prices are from "));
      g_assert_nonnull (strstr (warning, date));
      g_test_message ("%s: %s; %s", names[i], line, warning);
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "estimate", plan, "--date", "2026-11-28", "--max-price-age", "60", "--json", NULL);
        g_assert_cmpint (r.status, ==, 0);
        g_assert_null (json_string (r.out, "price_age_warning"));
      }
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "estimate", plan, "--date", "2026-11-28", NULL);
        g_assert_cmpint (r.status, ==, 0);
        estimate_text = g_strdup (r.out);
      }
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "report", plan, "-o", report, NULL);
        g_assert_cmpint (r.status, ==, 0);
      }
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "quote", plan, "--date", "2026-11-28", "-o", quote, NULL);
        g_assert_cmpint (r.status, ==, 0);
      }
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "quote", plan, "--date", "2026-11-28", NULL);
        g_assert_cmpint (r.status, ==, 0);
        quote_cli = g_strdup (r.out);
      }
      {
        g_auto(Run) r = { 0, };

        run_cli (&r, "quote", plan, "--date", "2026-11-28", "--json", NULL);
        g_assert_cmpint (r.status, ==, 0);
        quote_iso = json_string (r.out, "prices_as_of");
        quote_warning = json_string (r.out, "price_age_warning");
      }
      {
        g_autofree char *t1 = qm_test_pdf_text (report, &pages);
        g_autofree char *t2 = qm_test_pdf_text (quote, &pages);

        report_text = flatten (t1);
        quote_text = flatten (t2);
      }
      g_assert_nonnull (strstr (estimate_text, line));
      g_assert_nonnull (strstr (estimate_text, warning));
      g_assert_nonnull (strstr (quote_cli, line));
      g_assert_nonnull (strstr (quote_cli, warning));
      g_assert_cmpstr (quote_iso, ==, iso);
      g_assert_cmpstr (quote_warning, ==, warning);
      if (strstr (report_text, line) == NULL || strstr (report_text, warning) == NULL)
        g_error ("%s: the plan report does not say '%s' and '%s'", names[i], line, warning);
      if (strstr (quote_text, line) == NULL || strstr (quote_text, warning) == NULL)
        g_error ("%s: the quote PDF does not say '%s' and '%s'", names[i], line, warning);

      /* Issued within the limit: the date, no warning. */
      {
        g_auto(Run) r = { 0, };
        g_autofree char *t = NULL, *flat = NULL;

        run_cli (&r, "quote", plan, "--date", iso, "-o", quote, NULL);
        g_assert_cmpint (r.status, ==, 0);
        t = qm_test_pdf_text (quote, &pages);
        flat = flatten (t);
        g_assert_nonnull (strstr (flat, line));
        g_assert_null (strstr (flat, "check them with your vendors"));
      }
      g_unlink (report);
      g_unlink (quote);
    }

  /* The date in the user's language, month name included, whatever
   * LC_TIME says (here C): the .po files' words. */
  {
    g_autofree char *plan = example ("llama-3.1-70b-quote-eur.qmplan");
    const struct { const char *language, *line; } said[] = {
      { "de", "Preise vom 1. Juni 2025" }, { "zh_CN", "价格截至 2025年6月1日" },
    };

    for (guint l = 0; l < G_N_ELEMENTS (said); l++)
      {
        g_auto(Run) r = { 0, };

        g_setenv ("LANGUAGE", said[l].language, TRUE);
        run_cli (&r, "estimate", plan, "--date", "2026-11-28", NULL);
        g_unsetenv ("LANGUAGE");
        g_assert_cmpint (r.status, ==, 0);
        if (strstr (r.out, said[l].line) == NULL)
          g_error ("LANGUAGE=%s estimate does not say '%s'", said[l].language, said[l].line);
      }
  }
}

static void
test_chart_errors (void)
{
  g_autofree char *plan = example ("llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *out = out_path ("cli-chart-bad.png");
  g_autofree char *bad_dir = out_path ("no-such-dir/chart.png");

  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "chart", plan, "--kind", "pie", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_one_line (r.err);
    g_assert_nonnull (strstr (r.err, "--kind"));
    g_assert_nonnull (strstr (r.err, "pie"));
  }
  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "chart", plan, "--kind", "vram", "--width", "12x", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_one_line (r.err);
    g_assert_nonnull (strstr (r.err, "12x"));
  }
  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "chart", plan, "--kind", "vram", "-o", "chart.gif", NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_one_line (r.err);
  }
  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "chart", plan, "--kind", "racks", "-o", bad_dir, NULL);
    g_assert_cmpint (r.status, ==, 1);
    assert_one_line (r.err);
    g_assert_nonnull (strstr (r.err, bad_dir));
  }
  {
    g_auto(Run) r = { 0, };

    /* Latency against load is for serving plans: a training plan is
     * refused, naming the plan and the kind. */
    run_cli (&r, "chart", plan, "--kind", "latency", "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 1);
    assert_one_line (r.err);
    g_assert_nonnull (strstr (r.err, plan));
    g_assert_nonnull (strstr (r.err, "latency"));
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
}

static void
test_compare (void)
{
  g_autofree char *a = example ("llama-3.1-70b-pretrain-h100.qmplan");
  g_autofree char *b = example ("7b-pretrain-30-day-deadline.qmplan");
  g_autofree char *c = example ("llama-3.1-70b-serving-h100.qmplan");
  const char *paths[] = { a, b, c };

  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "compare", a, b, c, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.err, ==, "");
    for (guint i = 0; i < 3; i++)
      {
        g_autofree char *name = plan_name (paths[i]);
        g_assert_nonnull (strstr (r.out, name));
      }
    g_assert_nonnull (strstr (r.out, "GPUs"));
    g_assert_nonnull (strstr (r.out, "✓"));
  }
  {
    g_auto(Run) r = { 0, };
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    JsonArray *plans;

    run_cli (&r, "compare", a, b, c, "--json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    json_parser_load_from_data (parser, r.out, -1, &error);
    g_assert_no_error (error);
    plans = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "plans");
    g_assert_cmpuint (json_array_get_length (plans), ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        JsonObject *o = json_array_get_object_element (plans, i);
        g_autofree char *name = plan_name (paths[i]);

        g_assert_cmpstr (json_object_get_string_member (o, "plan"), ==, name);
        g_assert_true (json_object_has_member (o, "gpus"));
        g_assert_true (json_object_has_member (o, "cost_usd"));
        g_assert_true (json_object_has_member (o, "bom"));
      }
  }
  {
    g_auto(Run) r = { 0, };
    g_autofree char *out = out_path ("cli-compare.pdf");
    g_autofree char *text = NULL;
    int pages = 0;

    run_cli (&r, "compare", a, b, c, "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    text = qm_test_pdf_text (out, &pages);
    g_assert_cmpint (pages, >=, 3);
    for (guint i = 0; i < 3; i++)
      {
        g_autofree char *name = plan_name (paths[i]);
        g_assert_nonnull (strstr (text, name));
      }
  }
  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "compare", a, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_one_line (r.err);
  }
  {
    g_auto(Run) r = { 0, };

    run_cli (&r, "compare", a, b, c, a, b, NULL);
    g_assert_cmpint (r.status, ==, 2);
    assert_one_line (r.err);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/report/examples", test_report_examples);
  g_test_add_func ("/cli/report/errors", test_report_errors);
  g_test_add_func ("/cli/report/atomic", test_report_atomic);
  g_test_add_func ("/cli/report/csv", test_report_csv);
  g_test_add_func ("/cli/report/csv-locale", test_report_csv_locale);
  g_test_add_func ("/cli/chart", test_chart);
  g_test_add_func ("/cli/chart/cashflow", test_chart_cashflow);
  g_test_add_func ("/cli/chart/errors", test_chart_errors);
  g_test_add_func ("/cli/break-even-agrees", test_break_even_agrees);
  g_test_add_func ("/cli/prices-as-of-agrees", test_prices_as_of_agrees);
  g_test_add_func ("/cli/compare", test_compare);
  return g_test_run ();
}
