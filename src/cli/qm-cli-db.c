/* qm-cli-db.c: quartermaster-cli db copy FROM TO
 *
 * Copies every saved plan from one database to another: a SQLite file or
 * a postgresql:// URI, either way (issue #23). Ids, times, revisions and
 * the prices each plan was quoted with come along; then every copied plan
 * is read back from TO and its content hash compared with FROM's. Safe to
 * run again: a plan already there unchanged is left alone, a changed one
 * is replaced, and TO's own plans are never touched (one under the same
 * id as a plan of FROM is reported, not overwritten). Quotes with their
 * revisions, the quote numbering and the exchange rates follow
 * (qm_quote_store_copy), then the user's catalog: their entries, price
 * overrides and price history (qm-catalog-store-copy.c), checked the same
 * way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-catalog-store.h"
#include "qm-plan-store.h"
#include "qm-quote-store.h"

typedef struct
{
  guint added;
  guint replaced;
  guint unchanged;
  guint failed;
  guint mismatched;
} QmCopyCounts;

static QmStore *
open_location (const char       *location,
               QmStoreOpenFlags  flags)
{
  g_autoptr(GError) error = NULL;
  QmStore *store = qm_store_open_with_flags (location, flags, &error);

  /* The error names the file, or the server without its password. */
  if (store == NULL)
    qm_cli_error ("%s", error->message);
  return store;
}

/* Copies one plan unless TO has it exactly; counts what happened. TRUE
 * when TO should now hold it as FROM does. */
static gboolean
copy_plan (QmStore      *from,
           QmStore      *to,
           gint64        id,
           QmCopyCounts *n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) plan = qm_plan_store_load (from, id, &error);
  g_autoptr(QmSavedPlan) there = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *there_hash = NULL;

  if (plan == NULL)
    {
      qm_cli_error ("%s", error->message);
      n->failed++;
      return FALSE;
    }
  hash = qm_saved_plan_hash (plan);
  there = qm_plan_store_load (to, id, NULL);
  if (there != NULL)
    there_hash = qm_saved_plan_hash (there);
  if (g_strcmp0 (hash, there_hash) == 0)
    {
      n->unchanged++;
      return TRUE;
    }
  /* Ids are per database: a plan of TO's own under the same id is another
   * plan (a copy keeps its creation time), and is never overwritten. */
  if (there != NULL && there->created != plan->created)
    {
      qm_cli_error (_("db copy: plan %s (\"%s\") was not copied: the other database has a "
                      "different plan under that id (\"%s\")"),
                    qm_cli_id (id), plan->name, there->name);
      n->failed++;
      return FALSE;
    }
  if (!qm_plan_store_put (to, plan, &error))
    {
      qm_cli_error ("%s", error->message);
      n->failed++;
      return FALSE;
    }
  if (there != NULL)
    n->replaced++;
  else
    n->added++;
  return TRUE;
}

/* Reads the plan back from TO: the copy must hash as the original. */
static void
verify_plan (QmStore      *from,
             QmStore      *to,
             gint64        id,
             QmCopyCounts *n)
{
  g_autoptr(QmSavedPlan) plan = qm_plan_store_load (from, id, NULL);
  g_autoptr(QmSavedPlan) copy = qm_plan_store_load (to, id, NULL);
  g_autofree char *a = plan != NULL ? qm_saved_plan_hash (plan) : NULL;
  g_autofree char *b = copy != NULL ? qm_saved_plan_hash (copy) : NULL;

  if (a == NULL || g_strcmp0 (a, b) != 0)
    {
      qm_cli_error (_("db copy: plan %s (\"%s\") differs after the copy"), qm_cli_id (id),
                    plan != NULL ? plan->name : "?");
      n->mismatched++;
    }
}

/* After the plans: quotes refer to them by the ids in @plans. */
static int
copy_quotes (QmStore *from,
             QmStore *to,
             GArray  *plans)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  QmQuoteCopyCounts n = { 0 };
  gboolean ok = qm_quote_store_copy (from, to, plans, &n, problems, &error);

  for (guint i = 0; i < problems->len; i++)
    qm_cli_error ("db copy: %s", (const char *) problems->pdata[i]);
  if (!ok)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  qm_cli_print (_("%u quotes with %u revisions: %u copied, %u replaced, %u already there; "
                  "%u new revisions.\n"), n.quotes, n.revisions, n.added, n.replaced, n.unchanged,
                n.revisions_added);
  qm_cli_print (_("%u exchange rates: %u copied, %u replaced.\n"), n.rates, n.rates_added,
                n.rates_replaced);
  if (n.failed > 0 || n.mismatched > 0)
    {
      qm_cli_error (_("db copy: %u quotes failed to copy and %u quotes or rates differ after the copy"),
                    n.failed, n.mismatched);
      return QM_CLI_INPUT;
    }
  qm_cli_print (_("All %u quotes, their revisions and the rates match their original by content "
                  "hash (SHA-256).\n"), n.quotes);
  return QM_CLI_OK;
}

/* The user's catalog, after the plans; FALSE with the error printed. */
static gboolean
copy_catalog (QmStore *from,
              QmStore *to)
{
  g_autoptr(GError) error = NULL;
  QmCatalogCopyResult res;

  if (!qm_catalog_store_copy (from, to, &res, &error))
    {
      qm_cli_error ("db copy: %s", error->message);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (res.parts); i++)
    if (res.parts[i].skipped)
      /* Translators: %s is "price changes". */
      qm_cli_print (_("%s: not copied; the server keeps its own price history, into which only "
                      "its owner may copy earlier changes (your copy is recorded as your change).\n"),
                    res.parts[i].label);
    else
      /* Translators: %s is "user entries", "price overrides" or "price changes". */
      qm_cli_print (_("%u %s: %u copied, %u already there; SHA-256 %.12s… matches.\n"),
                    res.parts[i].n_rows, res.parts[i].label, res.parts[i].written,
                    res.parts[i].unchanged, res.parts[i].hash);
  return TRUE;
}

int
qm_cli_db (int    argc,
           char **argv)
{
  g_autoptr(QmStore) from = NULL;
  g_autoptr(QmStore) to = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) done = g_array_new (FALSE, FALSE, sizeof (gint64));
  QmCopyCounts n = { 0 };
  gboolean ok;

  if (argc >= 2 && strcmp (argv[1], "setup-roles") == 0)
    return qm_cli_db_setup_roles (argc, argv);
  if (argc != 4 || strcmp (argv[1], "copy") != 0)
    {
      qm_cli_error (_("db: expected copy FROM TO; usage: %s"), qm_cli_synopsis ("db"));
      return QM_CLI_USAGE;
    }
  if (strcmp (argv[2], argv[3]) == 0)
    {
      qm_cli_error ("%s", _("db copy: FROM and TO are the same database"));
      return QM_CLI_USAGE;
    }
  /* FROM is only read: no upgrade, backup or catalog sync there. */
  if ((from = open_location (argv[2], QM_STORE_OPEN_READ_ONLY | QM_STORE_OPEN_NO_SYNC |
                                      QM_STORE_OPEN_NO_BACKUP)) == NULL ||
      (to = open_location (argv[3], QM_STORE_OPEN_NONE)) == NULL)
    return QM_CLI_INPUT;
  if ((list = qm_plan_store_list (from, NULL, &error)) == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }

  for (guint i = 0; i < list->len; i++)
    {
      gint64 id = ((QmPlanSummary *) list->pdata[i])->id;

      if (copy_plan (from, to, id, &n))
        g_array_append_val (done, id);
    }
  for (guint i = 0; i < done->len; i++)
    verify_plan (from, to, g_array_index (done, gint64, i), &n);

  qm_cli_print (_("%u plans from %s to %s: %u copied, %u replaced, %u already there.\n"),
                list->len, qm_store_path (from), qm_store_path (to), n.added, n.replaced, n.unchanged);
  if (n.failed > 0 || n.mismatched > 0)
    qm_cli_error (_("db copy: %u plans failed to copy and %u differ after the copy"),
                  n.failed, n.mismatched);
  else
    qm_cli_print (_("All %u match their original by content hash (SHA-256).\n"), list->len);
  /* A quote of a plan that was not copied keeps its plan's name only. */
  ok = copy_quotes (from, to, done) == QM_CLI_OK;
  ok = copy_catalog (from, to) && ok;
  if (!ok || n.failed > 0 || n.mismatched > 0)
    return QM_CLI_INPUT;
  return QM_CLI_OK;
}
