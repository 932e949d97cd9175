/* qm-cli-report.c: quartermaster-cli report PLAN.qmplan -o SUMMARY.pdf|BOM.csv [--paper a4|letter]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-cli-report.h"
#include "qm-estimate.h"
#include "qm-plan-report.h"

gboolean
qm_cli_output_resolve (const char         *command,
                       const char         *out,
                       const char         *format,
                       const char * const *formats,
                       char              **resolved)
{
  if (out != NULL && g_str_equal (out, "-"))
    {
      if (format == NULL)
        format = formats[0];
      if (!g_strv_contains (formats, format))
        {
          g_autofree char *list = g_strjoinv ("|", (char **) formats);

          qm_cli_fail (NULL, QM_CLI_CODE_USAGE, _("%s: --format: must be %s (got '%s')"), command, list, format);
          return FALSE;
        }
      *resolved = g_strconcat (QM_CLI_STDOUT, format, NULL);
      return TRUE;
    }
  if (format != NULL)
    {
      qm_cli_fail (NULL, QM_CLI_CODE_USAGE, _("%s: --format is for -o - (standard output); a file's format "
                                              "follows its extension"), command);
      return FALSE;
    }
  *resolved = g_strdup (out);
  return TRUE;
}

/* Standard output: the writer writes a private temporary file, which is
 * then copied out whole, so that nothing is written on failure and a
 * writer that needs a seekable file (a PDF, a workbook) works. */
static gboolean
write_stdout (const char      *target,
              QmCliWriteFunc   write,
              gpointer         user_data,
              GError         **error)
{
  g_autofree char *tmpl = g_strdup_printf ("quartermaster-XXXXXX.%s", target + strlen (QM_CLI_STDOUT));
  g_autofree char *path = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;
  GError *local = NULL;
  gboolean ok;
  int fd;

  fd = g_file_open_tmp (tmpl, &path, error);
  if (fd < 0)
    return FALSE;
  close (fd);
  ok = write (path, user_data, &local) && g_file_get_contents (path, &data, &len, &local);
  g_unlink (path);
  if (!ok)
    {
      g_set_error (error, local->domain, local->code, _("%s: cannot write: %s"), _("standard output"),
                   local->message);
      g_error_free (local);
      return FALSE;
    }
  if (fwrite (data, 1, len, stdout) != len || fflush (stdout) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("%s: cannot write: %s"),
                   _("standard output"), g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_cli_write_atomic (const char      *target,
                     QmCliWriteFunc   write,
                     gpointer         user_data,
                     GError         **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = g_path_get_basename (target);
  const char *ext = strrchr (base, '.');
  g_autofree char *tmpl = NULL;
  GError *local = NULL;
  int fd;

  if (g_str_has_prefix (target, QM_CLI_STDOUT))
    return write_stdout (target, write, user_data, error);
  dir = g_path_get_dirname (target);
  /* Beside the target, so the rename stays on one file system. */
  tmpl = g_strdup_printf ("%s%c.%s.XXXXXX%s", dir, G_DIR_SEPARATOR, base, ext != NULL ? ext : "");
  fd = g_mkstemp (tmpl);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("%s: cannot write: %s"),
                   target, g_strerror (saved));
      return FALSE;
    }
  close (fd);

  if (!write (tmpl, user_data, &local))
    {
      g_unlink (tmpl);
      g_set_error (error, local->domain, local->code, _("%s: cannot write: %s"), target, local->message);
      g_error_free (local);
      return FALSE;
    }
  /* mkstemp makes the file private; give it the usual permissions. */
  {
    mode_t mask = umask (0);

    umask (mask);
    g_chmod (tmpl, 0666 & ~mask);
  }
  if (g_rename (tmpl, target) != 0)
    {
      int saved = errno;

      g_unlink (tmpl);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("%s: cannot write: %s"),
                   target, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_document (const char  *path,
                gpointer     user_data,
                GError     **error)
{
  return qm_document_write_pdf (user_data, path, error);
}

static gboolean
write_text (const char  *path,
            gpointer     user_data,
            GError     **error)
{
  return g_file_set_contents (path, user_data, -1, error);
}

int
qm_cli_report (int    argc,
               char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmDocument) doc = NULL;
  g_autofree QmPlan *plan = NULL;
  g_autofree QmEstimate *estimate = NULL;
  static const char * const formats[] = { "pdf", "csv", NULL };
  const char *path = NULL, *out_arg = NULL, *paper = NULL, *format = NULL, *csv_locale = NULL;
  const char *max_age = NULL;
  g_autofree char *out = NULL;
  QmPlanReportInfo info;
  QmCsvDialect dialect;
  gboolean csv;
  const QmCliValueOption options[] = {
    { "-o", &out_arg }, { "--output", &out_arg }, { "--paper", &paper }, { "--format", &format },
    { "--csv-locale", &csv_locale }, { "--max-price-age", &max_age }, { NULL },
  };

  for (int i = 1; i < argc; i++)
    {
      int taken = qm_cli_value_option (argc, argv, &i, "report", options);

      if (taken < 0)
        return QM_CLI_USAGE;
      if (taken > 0)
        continue;
      if (!qm_cli_take_argument ("report", argv[i], QM_CLI_ARG_PLAN, &path))
        return QM_CLI_USAGE;
    }
  if (path == NULL || out_arg == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "report", path == NULL ? "PLAN.qmplan" : "-o SUMMARY.pdf",
                    qm_cli_synopsis ("report"));
      return QM_CLI_USAGE;
    }

  qm_plan_report_info_init (&info);
  if (max_age != NULL && !qm_cli_parse_max_price_age ("report", max_age, &info.price_max_age_months))
    return QM_CLI_USAGE;
  if (paper != NULL)
    {
      if (g_ascii_strcasecmp (paper, "a4") == 0)
        info.paper = QM_PAPER_A4;
      else if (g_ascii_strcasecmp (paper, "letter") == 0)
        info.paper = QM_PAPER_LETTER;
      else
        {
          qm_cli_error (_("%s: --paper: must be a4 or letter (got '%s')"), "report", paper);
          return QM_CLI_USAGE;
        }
    }
  if (csv_locale != NULL && !qm_csv_dialect_from_string (csv_locale, &dialect))
    {
      qm_cli_error (_("%s: --csv-locale: expected c or user (got '%s')"), "report", csv_locale);
      return QM_CLI_USAGE;
    }
  if (!qm_cli_output_resolve ("report", out_arg, format, formats, &out))
    return QM_CLI_USAGE;
  /* The format follows the extension, as in chart: the PDF summary, or
   * the bill of materials as CSV (the app's "Export BOM as CSV"). */
  csv = g_str_has_suffix (out, ".csv") || g_str_has_suffix (out, ".CSV");
  if (!csv && !g_str_has_suffix (out, ".pdf") && !g_str_has_suffix (out, ".PDF"))
    {
      qm_cli_error (_("%s: -o: the output must end in .pdf or .csv (got '%s')"), "report", out);
      return QM_CLI_USAGE;
    }

  plan = g_new0 (QmPlan, 1);
  estimate = g_new0 (QmEstimate, 1);
  /* A summary of stand-in numbers would mislead: write nothing. */
  if (!qm_cli_load_estimate (path, plan, estimate))
    return QM_CLI_INPUT;

  if (csv)
    {
      /* Without --csv-locale, the locale's separator as before, unstated. */
      g_autofree char *text = csv_locale != NULL ? qm_bom_to_csv_dialect (estimate, plan, FALSE, &dialect)
                                                 : qm_bom_to_csv (estimate, plan, FALSE);

      if (!qm_cli_write_atomic (out, write_text, text, &error))
        {
          qm_cli_error ("%s", error->message);
          return QM_CLI_INPUT;
        }
      return QM_CLI_OK;
    }
  doc = qm_plan_report_new (plan, estimate, &info);
  if (!qm_cli_write_atomic (out, write_document, doc, &error))
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  return QM_CLI_OK;
}
