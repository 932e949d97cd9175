/* qm-cli-plans.c: quartermaster-cli plans list [--json] | show NAME [--json] |
 *                 export NAME -o F.qmplan | import F.qmplan | delete NAME
 *
 * The saved plans of the database (--db, else the GUI's). NAME is a plan's
 * name (the newest of that name) or its id. Import estimates the plan so
 * that the plan list shows its GPUs, days and cost, and keeps that
 * estimate as the plan's snapshot, as the GUI does on save.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "qm-cli.h"
#include "qm-cli-report.h"
#include "qm-cli-commands.h"
#include "qm-estimate-json.h"
#include "qm-plan-store.h"
#include "qm-json-parse.h"

static char *
format_time (gint64 us)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local (us / G_USEC_PER_SEC);

  return dt ? g_date_time_format (dt, "%Y-%m-%d %H:%M") : g_strdup ("");
}

static char *
format_iso (gint64 us)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);

  return dt ? g_date_time_format_iso8601 (dt) : g_strdup ("");
}

static void
add_time (JsonBuilder *b,
          const char  *key,
          gint64       us)
{
  g_autofree char *s = format_iso (us);

  qm_cli_json_string (b, key, s);
}

/* A JSON text as a value, or its string when it does not parse. */
static void
add_json (JsonBuilder *b,
          const char  *key,
          const char  *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  json_builder_set_member_name (b, key);
  if (text && qm_json_parser_load (parser, text, -1, NULL))
    json_builder_add_value (b, json_node_copy (json_parser_get_root (parser)));
  else if (text)
    json_builder_add_string_value (b, text);
  else
    json_builder_add_null_value (b);
}

/* The members that both a listed plan and a shown one begin with. */
static void
add_plan_names (JsonBuilder *b,
                gint64       id,
                const char  *name,
                const char  *customer,
                const char  *quote_ref,
                const char  *tags)
{
  json_builder_set_member_name (b, "id");
  json_builder_add_int_value (b, id);
  qm_cli_json_string (b, "name", name);
  qm_cli_json_string (b, "customer", customer);
  qm_cli_json_string (b, "quote_ref", quote_ref);
  qm_cli_json_string (b, "tags", tags);
}

static int
plans_list (QmStore  *store,
            gboolean  json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = qm_plan_store_list (store, NULL, &error);

  if (list == NULL)
    {
      qm_cli_error ("%s: %s", qm_store_path (store), error->message);
      return QM_CLI_INPUT;
    }
  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

      qm_cli_json_begin_list (b, "plans");
      for (guint i = 0; i < list->len; i++)
        {
          const QmPlanSummary *p = g_ptr_array_index (list, i);

          json_builder_begin_object (b);
          add_plan_names (b, p->id, p->name, p->customer, p->quote_ref, p->tags);
          qm_cli_json_string (b, "model", p->model);
          json_builder_set_member_name (b, "gpus");
          json_builder_add_int_value (b, p->gpus);
          json_builder_set_member_name (b, "days");
          json_builder_add_double_value (b, p->days);
          json_builder_set_member_name (b, "total_cost_usd");
          json_builder_add_double_value (b, p->total_cost);
          qm_cli_json_string (b, "catalog_version", p->catalog_version);
          add_time (b, "created", p->created);
          add_time (b, "modified", p->modified);
          json_builder_end_object (b);
        }
      qm_cli_json_end_list (b);
      qm_cli_print_json (b);
      return QM_CLI_OK;
    }

  if (list->len == 0)
    {
      qm_cli_print (_("No saved plans in %s.\n"), qm_store_path (store));
      return QM_CLI_OK;
    }
  qm_cli_print ("%s  %s %s %s %s %s %s  %s\n", qm_cli_cell (_("ID"), 6), qm_cli_cell (_("Name"), -40),
                qm_cli_cell (_("Customer"), -20), qm_cli_cell (_("Model"), -16), qm_cli_cell (_("GPUs"), 8),
                qm_cli_cell (_("Days"), 9), qm_cli_cell (_("Total cost"), 16), _("Modified"));
  for (guint i = 0; i < list->len; i++)
    {
      const QmPlanSummary *p = g_ptr_array_index (list, i);
      g_autofree char *when = format_time (p->modified);

      qm_cli_print ("%6" G_GINT64_FORMAT "  %s %s %s %8s %9s %16s  %s\n", p->id,
                    qm_cli_cell (p->name, -40), qm_cli_cell (p->customer, -20), qm_cli_cell (p->model, -16),
                    qm_cli_num (p->gpus, 0), qm_cli_num (p->days, 1),
                    qm_cli_money (p->total_cost, "USD"), when);
    }
  /* Translators: the last line of "plans list": the number of saved
   * plans and the database's path. */
  qm_cli_print (_("\nSaved plans: %u, in %s.\n"), list->len, qm_store_path (store));
  return QM_CLI_OK;
}

/* NAME (or id) to a saved plan's id; prints the error. */
static gint64
find_plan (QmStore    *store,
           const char *name)
{
  g_autoptr(GError) error = NULL;
  gint64 id = qm_plan_store_find (store, name, &error);

  if (id <= 0)
    qm_cli_error (_("no saved plan named '%s' (or with that id) in %s"), name,
                  qm_store_path (store));
  return id;
}

static int
plans_show (QmStore    *store,
            const char *name,
            gboolean    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmSavedPlan) p = NULL;
  g_autoptr(GPtrArray) changes = NULL;
  gint64 id = find_plan (store, name);
  gboolean changed;

  if (id <= 0)
    return QM_CLI_INPUT;
  p = qm_plan_store_load (store, id, &error);
  if (p == NULL)
    {
      qm_cli_error ("%s: %s", name, error->message);
      return QM_CLI_INPUT;
    }
  /* Never recomputes: it only says whether today's catalog would differ. */
  changed = qm_plan_store_catalog_changed (store, id, &changes, NULL);

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

      json_builder_begin_object (b);
      add_plan_names (b, p->id, p->name, p->customer, p->quote_ref, p->tags);
      qm_cli_json_string (b, "notes", p->notes);
      qm_cli_json_string (b, "catalog_version", p->catalog_version);
      add_time (b, "created", p->created);
      add_time (b, "modified", p->modified);
      json_builder_set_member_name (b, "catalog_changed");
      json_builder_add_boolean_value (b, changed);
      json_builder_set_member_name (b, "catalog_changes");
      json_builder_begin_array (b);
      for (guint i = 0; changes && i < changes->len; i++)
        json_builder_add_string_value (b, g_ptr_array_index (changes, i));
      json_builder_end_array (b);
      add_json (b, "plan", p->inputs);
      add_json (b, "snapshot", p->snapshot);
      json_builder_end_object (b);
      qm_cli_print_json (b);
      return QM_CLI_OK;
    }

  {
    g_autofree char *created = format_time (p->created);
    g_autofree char *modified = format_time (p->modified);

    qm_cli_print (_("%s (id %s)\n"), p->name ? p->name : "", qm_cli_id (p->id));
    qm_cli_print ("  %s %s\n", qm_cli_cell (_("Customer"), -16), p->customer ? p->customer : "");
    qm_cli_print ("  %s %s\n", qm_cli_cell (_("Quote reference"), -16), p->quote_ref ? p->quote_ref : "");
    qm_cli_print ("  %s %s\n", qm_cli_cell (_("Tags"), -16), p->tags ? p->tags : "");
    qm_cli_print ("  %s %s\n", qm_cli_cell (_("Model"), -16), p->model ? p->model : "");
    qm_cli_print ("  %s ", qm_cli_cell (_("Quoted"), -16));
    qm_cli_print (_("%s GPUs, %s days, %s in all\n"), qm_cli_num (p->gpus, 0),
                  qm_cli_num (p->days, 1), qm_cli_money (p->total_cost, "USD"));
    qm_cli_print ("  %s %s\n", qm_cli_cell (_("Catalog"), -16), p->catalog_version ? p->catalog_version : "");
    qm_cli_print ("  %s ", qm_cli_cell (_("Created"), -16));
    qm_cli_print (_("%s, modified %s\n"), created, modified);
    if (p->notes && *p->notes)
      qm_cli_print ("  %s %s\n", qm_cli_cell (_("Notes"), -16), p->notes);
    if (changed)
      {
        qm_cli_print ("\n%s\n", _("Today's catalog would change this quote (run estimate to recompute):"));
        for (guint i = 0; changes && i < changes->len; i++)
          qm_cli_print ("  - %s\n", (const char *) g_ptr_array_index (changes, i));
      }
    qm_cli_print ("\n%s\n%s\n", _("Plan file:"), p->inputs ? p->inputs : "");
  }
  return QM_CLI_OK;
}

typedef struct
{
  QmStore *store;
  gint64   id;
} ExportJob;

static gboolean
write_export (const char  *path,
              gpointer     user_data,
              GError     **error)
{
  ExportJob *job = user_data;

  return qm_plan_store_export_file (job->store, job->id, path, error);
}

static int
plans_export (QmStore    *store,
              const char *name,
              const char *out)
{
  g_autoptr(GError) error = NULL;
  gint64 id = find_plan (store, name);

  if (id <= 0)
    return QM_CLI_INPUT;
  /* "-o -": the plan file on standard output, and nothing else there. */
  if (g_str_equal (out, "-"))
    {
      ExportJob job = { store, id };

      if (!qm_cli_write_atomic (QM_CLI_STDOUT "qmplan", write_export, &job, &error))
        {
          qm_cli_fail_error (NULL, error);
          return QM_CLI_INPUT;
        }
      return QM_CLI_OK;
    }
  if (!qm_plan_store_export_file (store, id, out, &error))
    {
      qm_cli_error ("%s: %s", out, error->message);
      return QM_CLI_INPUT;
    }
  qm_cli_print (_("exported '%s' (id %s) to %s\n"), name, qm_cli_id (id), out);
  return QM_CLI_OK;
}

static int
plans_import (QmStore    *store,
              const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(QmSavedPlan) extra = qm_saved_plan_new ();
  g_autofree QmPlan *plan = g_new (QmPlan, 1);
  g_autofree QmEstimate *e = g_new (QmEstimate, 1);
  gint64 id;

  const char *label = qm_cli_arg_label (path);
  const char *data = NULL;
  gsize len = 0;
  gboolean read;

  /* "-": the plan file on standard input. */
  if (g_str_equal (path, "-"))
    {
      data = qm_cli_read_stdin (&len, &error);
      if (data == NULL)
        {
          qm_cli_fail_error (path, error);
          return QM_CLI_INPUT;
        }
    }
  /* Estimate first for the list's columns and the snapshot. A file the
   * reader refuses is refused by the import too, with the key path. */
  read = data != NULL ? qm_plan_load_from_data (plan, data, len, NULL, NULL)
                      : qm_plan_load_from_file (plan, path, NULL, NULL);
  if (read)
    {
      qm_estimate (plan, e);
      if (e->valid)
        {
          extra->snapshot = qm_estimate_to_json (plan, e, NULL);
          extra->model = g_strdup (plan->workload.preset[0] ? plan->workload.preset : "custom");
          extra->gpus = e->gpus;
          extra->days = e->has_training ? e->train_days : 0;
          extra->total_cost = e->has_cost ? e->cost.total : 0;
        }
    }
  id = data != NULL ? qm_plan_store_import_data (store, data, len, label, extra, &warnings, &error)
                    : qm_plan_store_import_file (store, path, extra, &warnings, &error);
  if (id <= 0)
    {
      qm_cli_error ("%s", error ? error->message : _("import failed"));
      return QM_CLI_INPUT;
    }
  for (guint i = 0; warnings && i < warnings->len; i++)
    qm_cli_warn (path, g_ptr_array_index (warnings, i));
  qm_cli_print (_("imported %s as '%s' (id %s)\n"), label,
                read && plan->name[0] ? plan->name : label, qm_cli_id (id));
  return QM_CLI_OK;
}

static int
plans_delete (QmStore    *store,
              const char *name)
{
  g_autoptr(GError) error = NULL;
  gint64 id = find_plan (store, name);

  if (id <= 0)
    return QM_CLI_INPUT;
  if (!qm_plan_store_delete (store, id, &error))
    {
      qm_cli_error ("%s: %s", name, error->message);
      return QM_CLI_INPUT;
    }
  qm_cli_print (_("deleted '%s' (id %s)\n"), name, qm_cli_id (id));
  return QM_CLI_OK;
}

int
qm_cli_plans (int    argc,
              char **argv)
{
  g_autoptr(QmStore) store = NULL;
  const char *sub = argc >= 2 ? argv[1] : NULL;
  const char *arg = NULL, *out = NULL;
  gboolean json = FALSE;
  gboolean wants_arg, wants_out;

  if (sub == NULL || !(g_str_equal (sub, "list") || g_str_equal (sub, "show") ||
                       g_str_equal (sub, "export") || g_str_equal (sub, "import") ||
                       g_str_equal (sub, "delete")))
    {
      if (sub != NULL)
        qm_cli_error (_("plans: expected list, show, export, import or delete (got '%s'); usage: %s"), sub,
                      qm_cli_synopsis ("plans"));
      else
        qm_cli_error (_("plans: expected list, show, export, import or delete; usage: %s"), qm_cli_synopsis ("plans"));
      return QM_CLI_USAGE;
    }
  wants_arg = !g_str_equal (sub, "list");
  wants_out = g_str_equal (sub, "export");
  for (int i = 2; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0 && (g_str_equal (sub, "list") || g_str_equal (sub, "show")))
        json = TRUE;
      else if ((strcmp (argv[i], "-o") == 0 || strcmp (argv[i], "--output") == 0) && wants_out)
        {
          if (i + 1 >= argc)
            {
              qm_cli_error ("%s", _("plans export: -o needs a FILE"));
              return QM_CLI_USAGE;
            }
          out = argv[++i];
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        {
          qm_cli_error (_("plans %s: unknown option '%s'; usage: %s"), sub, argv[i], qm_cli_synopsis ("plans"));
          return QM_CLI_USAGE;
        }
      else if (wants_arg && arg == NULL)
        arg = argv[i];
      else
        {
          qm_cli_error (_("plans %s: unexpected '%s'; usage: %s"), sub, argv[i], qm_cli_synopsis ("plans"));
          return QM_CLI_USAGE;
        }
    }
  if (wants_arg && arg == NULL)
    {
      qm_cli_error (_("plans %s: missing %s; usage: %s"), sub,
                    g_str_equal (sub, "import") ? "F.qmplan" : "NAME", qm_cli_synopsis ("plans"));
      return QM_CLI_USAGE;
    }
  if (wants_out && out == NULL)
    {
      qm_cli_error (_("plans export: missing -o F.qmplan; usage: %s"), qm_cli_synopsis ("plans"));
      return QM_CLI_USAGE;
    }

  store = qm_cli_open_store (g_str_equal (sub, "import") || g_str_equal (sub, "delete")
                             ? QM_CLI_STORE_WRITE : QM_CLI_STORE_READ);
  if (store == NULL)
    return QM_CLI_INPUT;
  if (g_str_equal (sub, "list"))
    return plans_list (store, json);
  if (g_str_equal (sub, "show"))
    return plans_show (store, arg, json);
  if (g_str_equal (sub, "export"))
    return plans_export (store, arg, out);
  if (g_str_equal (sub, "import"))
    return plans_import (store, arg);
  return plans_delete (store, arg);
}
