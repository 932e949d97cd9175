/* qm-cli-compare.c: quartermaster-cli compare A.qmplan B.qmplan [...] [-o COMPARISON.pdf] [--json]
 *
 * Two to four plans side by side: a text table (the better value of each
 * row marked with a check mark, plans within each other's likely ranges
 * with ≈, each value's likely range on the line under it), or a JSON
 * object whose "plans" array holds each plan's estimate (the estimate
 * --json contract) and whose "metrics" rank them (values, bands, direction
 * and marks of qm_compare_rows), or the comparison PDF with -o.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-cli-report.h"
#include "qm-estimate-json.h"
#include "qm-plan-report.h"
#include "qm-text.h"

#define CELL_CHARS 30

static gboolean
write_document (const char  *path,
                gpointer     user_data,
                GError     **error)
{
  return qm_document_write_pdf (user_data, path, error);
}

/* Pads @s to @width terminal columns (a CJK character takes two). */
static void
print_cell (const char *s,
            glong       width)
{
  qm_cli_print ("%s", qm_cli_cell (s, -(int) MAX (width, qm_cli_columns (s))));
}

/* The mark after a value: the page and the PDF print it before. */
static char *
marked_cell (const QmCompareRow *row,
             guint               i,
             const char         *text)
{
  const char *mark = qm_compare_mark (row, i);
  g_autofree char *bare = g_strndup (mark, strcspn (mark, " "));

  return *mark ? g_strconcat (text, " ", bare, NULL) : g_strdup (text);
}

static void
print_table (const QmPlan     *plans,
             const QmEstimate *estimates,
             guint             n)
{
  g_autoptr(GPtrArray) rows = qm_compare_rows (plans, estimates, n, NULL);
  glong label_w = 0, cell_w[QM_COMPARE_MAX_PLANS] = { 0, };

  for (guint i = 0; i < n; i++)
    qm_cli_print ("%c. %s\n", qm_compare_letter (i), plans[i].name[0] ? plans[i].name : _("(untitled plan)"));
  putchar ('\n');

  for (guint r = 0; r < rows->len; r++)
    {
      QmCompareRow *row = g_ptr_array_index (rows, r);

      label_w = MAX (label_w, qm_cli_columns (row->label));
      for (guint i = 0; i < n; i++)
        {
          cell_w[i] = MAX (cell_w[i], MIN (qm_cli_columns (row->cells[i]) + (*qm_compare_mark (row, i) ? 2 : 0),
                                           CELL_CHARS));
          if (row->bands[i] != NULL)
            cell_w[i] = MAX (cell_w[i], MIN (qm_cli_columns (row->bands[i]), CELL_CHARS));
        }
    }
  for (guint i = 0; i < n; i++)
    cell_w[i] = MAX (cell_w[i], 1);

  print_cell ("", label_w);
  for (guint i = 0; i < n; i++)
    {
      char head[4] = { qm_compare_letter (i), '\0' };

      fputs ("  ", stdout);
      print_cell (head, cell_w[i]);
    }
  putchar ('\n');

  for (guint r = 0; r < rows->len; r++)
    {
      QmCompareRow *row = g_ptr_array_index (rows, r);

      if (row->section)
        {
          qm_cli_print ("\n%s\n", row->label);
          continue;
        }
      print_cell (row->label, label_w);
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *text = qm_text_ellipsize (row->cells[i], CELL_CHARS - (*qm_compare_mark (row, i) ? 2 : 0));
          g_autofree char *cell = marked_cell (row, i, text);

          fputs ("  ", stdout);
          print_cell (cell, cell_w[i]);
        }
      putchar ('\n');
      /* The likely ranges under the values, where any plan has one. */
      for (guint i = 0; i < n; i++)
        if (row->bands[i] != NULL)
          {
            print_cell ("", label_w);
            for (guint k = 0; k < n; k++)
              {
                g_autofree char *band = qm_text_ellipsize (row->bands[k] ? row->bands[k] : "", CELL_CHARS);

                fputs ("  ", stdout);
                print_cell (band, cell_w[k]);
              }
            putchar ('\n');
            break;
          }
    }
  qm_cli_print ("\n%s\n", _("✓ the better value of the row"));
  {
    g_autofree char *why = qm_compare_explain (plans, estimates, n, NULL);

    if (why != NULL)
      qm_cli_print ("%s\n", why);
  }
}

static void
print_json (const QmPlan     *plans,
            const QmEstimate *estimates,
            guint             n)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GPtrArray) rows = qm_compare_rows (plans, estimates, n, NULL);

  qm_cli_json_begin_list (builder, "plans");
  for (guint i = 0; i < n; i++)
    json_builder_add_value (builder, qm_estimate_to_json_node (&plans[i], &estimates[i]));
  json_builder_end_array (builder);

  /* The figures of the side-by-side table the text output, the PDF and
   * the Compare page show, from the same metric table and the same ranking
   * (qm_compare_rows): which way is better, the values in the metric's
   * unit (null: does not apply), their likely ranges (null: none), the
   * marks, and whether the row could be ranked at all, or the best is
   * within another plan's likely range (within_bands, with the plans tied).
   * Language-neutral: the cells are for people and stay in the text
   * table. */
  json_builder_set_member_name (builder, "metrics");
  json_builder_begin_array (builder);
  for (guint r = 0; r < rows->len; r++)
    {
      QmCompareRow *row = g_ptr_array_index (rows, r);
      const QmMetric *metric = row->id != NULL ? qm_metric_find (row->id) : NULL;

      if (metric == NULL)
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, metric->id);
      json_builder_set_member_name (builder, "label");
      json_builder_add_string_value (builder, metric->label);
      json_builder_set_member_name (builder, "unit");
      json_builder_add_string_value (builder, metric->unit);
      json_builder_set_member_name (builder, "better");
      json_builder_add_string_value (builder, qm_better_to_string (metric->better));
      json_builder_set_member_name (builder, "ranked");
      json_builder_add_string_value (builder, qm_metric_verdict_to_string (row->verdict));
      json_builder_set_member_name (builder, "values");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n; i++)
        if (isfinite (row->values[i]))
          json_builder_add_double_value (builder, row->values[i]);
        else
          json_builder_add_null_value (builder);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "bands");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n; i++)
        if (isfinite (row->band_low[i]) && isfinite (row->band_high[i]))
          {
            json_builder_begin_object (builder);
            json_builder_set_member_name (builder, "low");
            json_builder_add_double_value (builder, row->band_low[i]);
            json_builder_set_member_name (builder, "high");
            json_builder_add_double_value (builder, row->band_high[i]);
            json_builder_end_object (builder);
          }
        else
          json_builder_add_null_value (builder);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "best");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n; i++)
        json_builder_add_boolean_value (builder, row->best[i]);
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "within_bands");
      json_builder_add_boolean_value (builder, row->verdict == QM_METRIC_WITHIN_BANDS);
      json_builder_set_member_name (builder, "tied");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n; i++)
        json_builder_add_boolean_value (builder, row->tied[i]);
      json_builder_end_array (builder);
      /* Which plans it applies to, and what it is made of (the rows the
       * Compare page shows under it expanded): each part's values in the
       * metric's unit, null where it does not apply to a plan. */
      json_builder_set_member_name (builder, "modes");
      json_builder_add_string_value (builder, qm_metric_modes_to_string (metric->modes));
      if (row->parts != NULL)
        {
          json_builder_set_member_name (builder, "parts");
          json_builder_begin_array (builder);
          for (guint k = 0; k < row->parts->len; k++)
            {
              const QmCompareRow *part = g_ptr_array_index (row->parts, k);
              const QmMetricPart *def = qm_metric_find_part (metric, part->id);

              json_builder_begin_object (builder);
              json_builder_set_member_name (builder, "id");
              json_builder_add_string_value (builder, part->id);
              json_builder_set_member_name (builder, "label");
              json_builder_add_string_value (builder, def != NULL ? def->label : part->label);
              json_builder_set_member_name (builder, "values");
              json_builder_begin_array (builder);
              for (guint i = 0; i < n; i++)
                if (isfinite (part->values[i]))
                  json_builder_add_double_value (builder, part->values[i]);
                else
                  json_builder_add_null_value (builder);
              json_builder_end_array (builder);
              json_builder_end_object (builder);
            }
          json_builder_end_array (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  qm_cli_print_json (builder);
}

int
qm_cli_compare (int    argc,
                char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree QmPlan *plans = NULL;
  g_autofree QmEstimate *estimates = NULL;
  const char *paths[QM_COMPARE_MAX_PLANS];
  static const char * const formats[] = { "pdf", NULL };
  const char *out = NULL;
  g_autofree char *resolved = NULL;
  gboolean json = FALSE;
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (strcmp (argv[i], "-o") == 0 || strcmp (argv[i], "--output") == 0)
        {
          if (i + 1 >= argc)
            {
              qm_cli_error (_("%s: %s needs a value; usage: %s"), "compare", argv[i], qm_cli_synopsis ("compare"));
              return QM_CLI_USAGE;
            }
          out = argv[++i];
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        {
          qm_cli_error (_("%s: unknown option '%s'"), "compare", argv[i]);
          return QM_CLI_USAGE;
        }
      else if (n < QM_COMPARE_MAX_PLANS)
        paths[n++] = argv[i];
      else
        {
          qm_cli_error (_("%s: at most %d plans (got '%s' too)"), "compare", QM_COMPARE_MAX_PLANS, argv[i]);
          return QM_CLI_USAGE;
        }
    }
  if (n < 2)
    {
      qm_cli_error (_("%s: needs 2 to %d plans (got %u); usage: %s"), "compare", QM_COMPARE_MAX_PLANS, n, qm_cli_synopsis ("compare"));
      return QM_CLI_USAGE;
    }
  if (out != NULL && g_str_equal (out, "-") && json)
    {
      qm_cli_fail (NULL, QM_CLI_CODE_USAGE, _("%s: -o - and --json would both write to standard output"), "compare");
      return QM_CLI_USAGE;
    }
  if (out != NULL && !qm_cli_output_resolve ("compare", out, NULL, formats, &resolved))
    return QM_CLI_USAGE;
  out = resolved;
  if (out != NULL && !g_str_has_suffix (out, ".pdf") && !g_str_has_suffix (out, ".PDF"))
    {
      qm_cli_error (_("%s: -o: the output must end in .pdf (got '%s')"), "compare", out);
      return QM_CLI_USAGE;
    }

  plans = g_new0 (QmPlan, n);
  estimates = g_new0 (QmEstimate, n);
  for (guint i = 0; i < n; i++)
    {
      if (!qm_cli_load_estimate (paths[i], &plans[i], &estimates[i]))
        return QM_CLI_INPUT;
    }

  if (out != NULL)
    {
      g_autoptr(QmDocument) doc = qm_compare_report_new (plans, estimates, n, NULL);

      if (!qm_cli_write_atomic (out, write_document, doc, &error))
        {
          qm_cli_error ("%s", error->message);
          return QM_CLI_INPUT;
        }
    }
  if (json)
    print_json (plans, estimates, n);
  else if (out == NULL)
    print_table (plans, estimates, n);
  return QM_CLI_OK;
}
