/* qm-store-recovery.c: recovery copies of plan saves the team server did
 * not take, and saving them once it is back (qm-store-recovery.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "qm-plan-store-private.h"
#include "qm-store-recovery.h"

#define RECOVERY_MEMBER "recovery"
#define SUFFIX ".qmplan"

void
qm_recovery_result_free (QmRecoveryResult *result)
{
  if (result == NULL)
    return;
  g_free (result->path);
  g_free (result->name);
  g_free (result->message);
  g_free (result);
}

char *
qm_store_recovery_dir (void)
{
  g_autofree char *db = qm_store_default_path ();
  g_autofree char *dir = g_path_get_dirname (db);

  return g_build_filename (dir, "recovery", NULL);
}

/* ------------------------------------------------------------------ */
/* The connection.                                                     */

static gboolean
on_server (QmStore *store)
{
  return qm_db_engine (qm_store_connection (store)) == QM_DB_POSTGRESQL;
}

gboolean
qm_store_is_connected (QmStore *store)
{
  return qm_db_is_connected (qm_store_connection (store));
}

gboolean
qm_store_connection_lost (QmStore *store)
{
  return on_server (store) && !qm_store_is_connected (store);
}

gboolean
qm_store_reconnect (QmStore  *store,
                    GError  **error)
{
  return qm_store_reconnect_within (store, QM_STORE_RECONNECT_TIMEOUT_MS, error);
}

/* After a reconnect that did (@connected) or did not come up: a failure
 * in the store's words, and the schema check. */
static gboolean
check_reconnected (QmStore   *store,
                   gboolean   connected,
                   GError   **error)
{
  QmDb *db = qm_store_connection (store);
  int version;

  if (!connected)
    {
      g_set_error (error, QM_STORE_ERROR, qm_db_last_code (db),
                   /* Translators: the team server's address, and why. */
                   _("The team server %s could not be reached: %s"), qm_store_path (store),
                   qm_db_last_message (db));
      return FALSE;
    }
  /* Someone may have upgraded the server while we were away: this build
   * must not write to a schema it does not know. */
  version = qm_db_schema_version (db, NULL);
  if (version == qm_store_schema_version (store))
    return TRUE;
  qm_db_disconnect (db);
  if (version < 0)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                 /* Translators: %s is the team server's address. */
                 _("The team server %s could not be reached: the schema version could not be read"),
                 qm_store_path (store));
  else
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_TOO_NEW,
                 /* Translators: the team server's address, then two schema
                  * version numbers. */
                 _("The database %s now has schema %d and this Quartermaster was opened "
                   "with schema %d: it was upgraded (or restored) meanwhile. Nothing was "
                   "written; changes kept on this computer stay there. Restart Quartermaster "
                   "(a newer version if need be) to use it."),
                 qm_store_path (store), version, qm_store_schema_version (store));
  return FALSE;
}

gboolean
qm_store_reconnect_within (QmStore  *store,
                           int       timeout_ms,
                           GError  **error)
{
  QmDb *db = qm_store_connection (store);

  if (qm_db_is_connected (db))
    return TRUE;
  return check_reconnected (store, qm_db_reconnect (db, timeout_ms, NULL), error);
}

typedef struct
{
  GTask            *task;
  QmStoreTakeFunc   take;
} Taking;

/* The attempt ended in the worker thread, connected or not: back on the
 * caller's thread, @take makes of it what the task returns. */
static void
attempt_ended (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autofree Taking *taking = user_data;
  g_autoptr(GTask) task = taking->task;
  g_autoptr(QmDbAttempt) attempt = qm_db_attempt_run_finish (result, NULL);
  GError *error = NULL;
  int value;

  /* Cancelled: the store may be gone, so it is not touched. */
  if (g_task_return_error_if_cancelled (task))
    return;
  value = taking->take (g_task_get_task_data (task), attempt, &error);
  if (value < 0)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, value);
}

void
qm_store_connect_async (QmStore         *store,
                        GTask           *task,
                        QmStoreTakeFunc  take)
{
  Taking *taking = g_new0 (Taking, 1);

  taking->task = task;
  taking->take = take;
  g_task_set_task_data (task, store, NULL);
  qm_db_attempt_run_async (qm_db_attempt_new (qm_store_connection (store), QM_STORE_RECONNECT_TIMEOUT_MS),
                           g_task_get_cancellable (task), attempt_ended, taking);
}

static int
take_reconnect (QmStore      *store,
                QmDbAttempt  *attempt,
                GError      **error)
{
  gboolean adopted = qm_db_attempt_adopt (qm_store_connection (store), attempt, NULL);

  return check_reconnected (store, adopted, error) ? 1 : -1;
}

void
qm_store_reconnect_async (QmStore             *store,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, qm_store_reconnect_async);
  if (!qm_store_is_connected (store))
    qm_store_connect_async (store, task, take_reconnect);
  else
    {
      g_task_return_int (task, 1);
      g_object_unref (task);
    }
}

gboolean
qm_store_reconnect_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_int (G_TASK (result), error) > 0;
}

/* ------------------------------------------------------------------ */
/* Copies on disk.                                                     */

static char *
short_hash (const char *text)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);

  return g_strndup (sum, 16);
}

static const char *
plan_name (const QmSavedPlan *plan,
           JsonObject        *inputs)
{
  const char *name = plan->name;

  if (name == NULL || *name == '\0')
    name = qm_plan_store_get_string (inputs, "name");
  return name != NULL ? name : "";
}

/* One copy per plan and server: a later failed save of the same edit
 * replaces the earlier. A new plan has no id yet; its name stands in. */
static char *
copy_path (QmStore           *store,
           const QmSavedPlan *plan,
           JsonObject        *inputs)
{
  g_autofree char *dir = qm_store_recovery_dir ();
  g_autofree char *server = short_hash (qm_store_path (store));
  g_autofree char *base = NULL;

  if (plan->id != 0)
    base = g_strdup_printf ("%s-plan-%" G_GINT64_FORMAT SUFFIX, server, plan->id);
  else
    {
      g_autofree char *name = short_hash (plan_name (plan, inputs));

      base = g_strdup_printf ("%s-new-%s" SUFFIX, server, name);
    }
  return g_build_filename (dir, base, NULL);
}

static void
set_text (JsonObject *o,
          const char *key,
          const char *value)
{
  if (value != NULL)
    json_object_set_string_member (o, key, value);
}

static gboolean
write_copy (QmStore            *store,
            const QmSavedPlan  *plan,
            gint64              modified,
            const char         *reason,
            char              **path_out,
            GError            **error)
{
  g_autoptr(JsonObject) inputs = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *kept_at = g_date_time_format_iso8601 (now);
  g_autofree char *dir = qm_store_recovery_dir ();
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  JsonObject *r = json_object_new ();

  if (plan->inputs == NULL ||
      (inputs = qm_plan_store_parse_json (plan->inputs, -1, _("the plan"), error)) == NULL)
    {
      json_object_unref (r);
      if (plan->inputs == NULL)
        g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("the plan has no inputs"));
      return FALSE;
    }
  path = copy_path (store, plan, inputs);
  set_text (r, "server", qm_store_path (store));
  set_text (r, "session", qm_store_session_id (store));
  json_object_set_int_member (r, "plan_id", plan->id);
  json_object_set_int_member (r, "revision", plan->revision);
  set_text (r, "kept_at", kept_at);
  set_text (r, "reason", reason);
  json_object_set_int_member (r, "attempt_modified", modified);
  set_text (r, "name", plan->name);
  set_text (r, "notes", plan->notes);
  set_text (r, "customer", plan->customer);
  set_text (r, "quote_ref", plan->quote_ref);
  set_text (r, "tags", plan->tags);
  set_text (r, "model", plan->model);
  json_object_set_int_member (r, "gpus", plan->gpus);
  json_object_set_double_member (r, "days", plan->days);
  json_object_set_double_member (r, "total_cost", plan->total_cost);
  set_text (r, "snapshot", plan->snapshot);
  json_object_set_object_member (inputs, RECOVERY_MEMBER, r);
  text = qm_store_object_to_text (inputs, TRUE);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   /* Translators: a folder, and the system's reason. */
                   _("could not create %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  /* Written whole and renamed into place: never half a copy. */
  if (!g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return FALSE;
  *path_out = g_steal_pointer (&path);
  return TRUE;
}

void
qm_store_recovery_keep (QmStore            *store,
                        const QmSavedPlan  *plan,
                        gint64              modified,
                        GError            **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *path = NULL;
  g_autofree char *cause = NULL;
  g_autoptr(JsonObject) inputs = NULL;
  const char *name;
  int code;

  g_return_if_fail (error != NULL && *error != NULL);

  cause = g_strdup ((*error)->message);
  code = (*error)->code;
  inputs = plan->inputs != NULL ? qm_plan_store_parse_json (plan->inputs, -1, "", NULL) : NULL;
  name = plan_name (plan, inputs);
  g_clear_error (error);
  if (write_copy (store, plan, modified, cause, &path, &local))
    g_set_error (error, QM_STORE_ERROR, code,
                 /* Translators: the team server's address, the plan's name, the
                  * file that keeps the changes, and the server's reason. */
                 _("The team server %s could not be reached; your changes to \"%s\" are kept "
                   "on this computer (%s) and will be saved when it is back. (%s)"),
                 qm_store_path (store), name, path, cause);
  else
    g_set_error (error, QM_STORE_ERROR, code,
                 /* Translators: the team server's address, the plan's name, why
                  * no copy could be kept, and the server's reason. */
                 _("The team server %s could not be reached, and your changes to \"%s\" could "
                   "not be kept on this computer either (%s). Keep the window open and save "
                   "again, or export the plan to a file. (%s)"),
                 qm_store_path (store), name, local->message, cause);
}

/* The revision a copy started from, or -1 when it cannot be read or
 * another session (another window, the CLI, an earlier run) kept it. */
static gint64
copy_revision (QmStore    *store,
               const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) o = NULL;
  JsonObject *r;

  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      (o = qm_plan_store_parse_json (text, -1, path, NULL)) == NULL ||
      (r = qm_plan_store_get_object (o, RECOVERY_MEMBER)) == NULL)
    return -1;
  if (g_strcmp0 (qm_plan_store_get_string (r, "session"), qm_store_session_id (store)) != 0)
    return -1;
  return json_object_get_int_member_with_default (r, "revision", -1);
}

static GHashTable *session_rebases (QmStore  *store,
                                    gboolean  create);

void
qm_store_recovery_forget (QmStore            *store,
                          const QmSavedPlan  *plan)
{
  g_autoptr(JsonObject) inputs = NULL;
  g_autofree char *path = NULL;

  GHashTable *plans = session_rebases (store, FALSE);

  if (plans != NULL)
    g_hash_table_remove (plans, &plan->id);
  if (!on_server (store) || plan->inputs == NULL)
    return;
  inputs = qm_plan_store_parse_json (plan->inputs, -1, "", NULL);
  path = copy_path (store, plan, inputs);
  /* Only the same edit: a copy from another revision, or kept by another
   * session, is another edit. */
  if (g_file_test (path, G_FILE_TEST_EXISTS) && copy_revision (store, path) == plan->revision)
    g_unlink (path);
}

/* ------------------------------------------------------------------ */
/* This session's copies, once saved.                                  */

/* A window still holds the plan at the revision the copy started from;
 * its next save is the same user going on, not someone else: it is
 * checked against the revision the copy was saved as. Per session id,
 * plan id -> Rebase. */
typedef struct
{
  gint64 base;
  gint64 saved;
} Rebase;

static GHashTable *rebases;

static GHashTable *
session_rebases (QmStore  *store,
                 gboolean  create)
{
  GHashTable *plans;

  if (rebases == NULL && create)
    rebases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_hash_table_unref);
  plans = rebases != NULL ? g_hash_table_lookup (rebases, qm_store_session_id (store)) : NULL;
  if (plans == NULL && create)
    {
      plans = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
      g_hash_table_insert (rebases, g_strdup (qm_store_session_id (store)), plans);
    }
  return plans;
}

static void
remember_rebase (QmStore *store,
                 gint64   id,
                 gint64   base,
                 gint64   saved)
{
  Rebase *r = g_new (Rebase, 1);

  r->base = base;
  r->saved = saved;
  g_hash_table_insert (session_rebases (store, TRUE), g_memdup2 (&id, sizeof id), r);
}

gint64
qm_store_recovery_rebase (QmStore            *store,
                          const QmSavedPlan  *plan)
{
  GHashTable *plans = session_rebases (store, FALSE);
  Rebase *r = plans != NULL ? g_hash_table_lookup (plans, &plan->id) : NULL;

  return r != NULL && plan->revision == r->base ? r->saved : plan->revision;
}

/* ------------------------------------------------------------------ */
/* Saving them.                                                        */

static int
by_age (gconstpointer a,
        gconstpointer b)
{
  GStatBuf sa, sb;
  const char *pa = *(const char * const *) a;
  const char *pb = *(const char * const *) b;

  if (g_stat (pa, &sa) == 0 && g_stat (pb, &sb) == 0 && sa.st_mtime != sb.st_mtime)
    return sa.st_mtime < sb.st_mtime ? -1 : 1;
  return strcmp (pa, pb);
}

GPtrArray *
qm_store_recovery_pending (QmStore *store)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = qm_store_recovery_dir ();
  g_autofree char *server = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (!on_server (store) || (d = g_dir_open (dir, 0, NULL)) == NULL)
    return paths;
  server = short_hash (qm_store_path (store));
  prefix = g_strconcat (server, "-", NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, SUFFIX))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, by_age);
  return paths;
}

/* The copy at @path as the plan to save; *modified is the time the
 * failed save wrote, if it got that far. */
static QmSavedPlan *
read_copy (QmStore     *store,
           const char  *path,
           gint64      *modified,
           gboolean    *ours,
           GError     **error)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) o = NULL;
  g_autoptr(QmSavedPlan) plan = qm_saved_plan_new ();
  JsonObject *r;

  if (!g_file_get_contents (path, &text, NULL, error) ||
      (o = qm_plan_store_parse_json (text, -1, path, error)) == NULL)
    return NULL;
  r = qm_plan_store_get_object (o, RECOVERY_MEMBER);
  if (r == NULL || g_strcmp0 (qm_plan_store_get_string (r, "server"), qm_store_path (store)) != 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: a file, and the team server's address. */
                   _("%s is not a recovery copy for %s"), path, qm_store_path (store));
      return NULL;
    }
  plan->id = json_object_get_int_member_with_default (r, "plan_id", 0);
  plan->revision = json_object_get_int_member_with_default (r, "revision", 0);
  *modified = json_object_get_int_member_with_default (r, "attempt_modified", 0);
  *ours = g_strcmp0 (qm_plan_store_get_string (r, "session"), qm_store_session_id (store)) == 0;
  plan->name = g_strdup (qm_plan_store_get_string (r, "name"));
  plan->notes = g_strdup (qm_plan_store_get_string (r, "notes"));
  plan->customer = g_strdup (qm_plan_store_get_string (r, "customer"));
  plan->quote_ref = g_strdup (qm_plan_store_get_string (r, "quote_ref"));
  plan->tags = g_strdup (qm_plan_store_get_string (r, "tags"));
  plan->model = g_strdup (qm_plan_store_get_string (r, "model"));
  plan->gpus = json_object_get_int_member_with_default (r, "gpus", 0);
  plan->days = json_object_get_double_member_with_default (r, "days", 0.0);
  plan->total_cost = json_object_get_double_member_with_default (r, "total_cost", 0.0);
  plan->snapshot = g_strdup (qm_plan_store_get_string (r, "snapshot"));
  json_object_remove_member (o, RECOVERY_MEMBER);
  plan->inputs = qm_store_object_to_text (o, FALSE);
  return g_steal_pointer (&plan);
}

/* The failed save may have committed with only its answer lost: then the
 * server holds a plan of that name written at that very microsecond. */
static gint64
already_saved (QmStore           *store,
               const QmSavedPlan *plan,
               gint64             modified)
{
  g_autoptr(JsonObject) inputs = qm_plan_store_parse_json (plan->inputs, -1, "", NULL);
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autofree char *name = g_strstrip (g_strdup (plan_name (plan, inputs)));
  gint64 id;

  if (modified == 0 ||
      (stmt = qm_store_query (store, "SELECT id FROM plan WHERE modified = ?1 AND name = ?2", NULL)) == NULL)
    return 0;
  qm_db_bind_int64 (stmt, 1, modified);
  qm_db_bind_text (stmt, 2, name);
  if (qm_db_step (stmt) != QM_DB_STEP_ROW)
    return 0;
  id = qm_db_column_int64 (stmt, 0);
  return plan->id == 0 || plan->id == id ? id : 0;
}

/* Theirs stays as it is; ours becomes a new plan beside it. */
static gboolean
save_as_copy (QmStore      *store,
              QmSavedPlan  *plan,
              GError      **error)
{
  g_autoptr(JsonObject) inputs = qm_plan_store_parse_json (plan->inputs, -1, "", NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = g_date_time_format (now, "%Y-%m-%d %H:%M");
  /* Translators: the name of the copy kept beside a plan someone else
   * changed meanwhile: the plan's name, and a date and time. */
  char *name = g_strdup_printf (_("%s (my changes, %s)"), plan_name (plan, inputs), when);

  g_free (plan->name);
  plan->name = name;
  plan->id = 0;
  plan->revision = 0;
  return qm_plan_store_save_full (store, plan, FALSE, error);
}

static QmRecoveryResult *
flush_one (QmStore    *store,
           const char *path)
{
  g_autoptr(QmRecoveryResult) r = g_new0 (QmRecoveryResult, 1);
  g_autoptr(QmSavedPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  gint64 modified = 0;
  gboolean ours = FALSE;

  r->path = g_strdup (path);
  r->outcome = QM_RECOVERY_PENDING;
  if ((plan = read_copy (store, path, &modified, &ours, &error)) == NULL)
    {
      /* Translators: a file, and why it could not be read. */
      r->message = g_strdup_printf (_("The recovery copy %s could not be read; it was left "
                                      "there: %s"), path, error->message);
      return g_steal_pointer (&r);
    }
  {
    g_autoptr(JsonObject) inputs = qm_plan_store_parse_json (plan->inputs, -1, "", NULL);

    r->name = g_strdup (plan_name (plan, inputs));
  }
  r->plan_id = plan->id;
  r->revision = plan->revision;

  if ((r->saved_id = already_saved (store, plan, modified)) != 0)
    {
      r->outcome = QM_RECOVERY_SAVED;
      /* Translators: %s is a plan's name. */
      r->message = g_strdup_printf (_("\"%s\" had reached the server before the connection "
                                      "dropped."), r->name);
      /* That save was ours, from the copy's revision to the next. */
      if (r->plan_id != 0 && ours)
        remember_rebase (store, r->plan_id, r->revision, r->revision + 1);
    }
  else if (qm_plan_store_save_full (store, plan, FALSE, &error))
    {
      r->outcome = QM_RECOVERY_SAVED;
      r->saved_id = plan->id;
      if (r->plan_id != 0 && ours)
        remember_rebase (store, r->plan_id, r->revision, plan->revision);
      /* Translators: a plan's name, and its revision number. */
      r->message = g_strdup_printf (_("Your changes to \"%s\" kept on this computer are now "
                                      "saved on the server (revision %lld)."),
                                    r->name, (long long) plan->revision);
    }
  else if (g_error_matches (error, QM_STORE_ERROR, QM_STORE_ERROR_CONFLICT) ||
           g_error_matches (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND))
    {
      g_autofree char *why = g_strdup (error->message);

      g_clear_error (&error);
      if (save_as_copy (store, plan, &error))
        {
          r->outcome = QM_RECOVERY_SAVED_AS_COPY;
          r->saved_id = plan->id;
          /* Translators: a sentence saying what happened to the plan on
           * the server, then the name of the copy. */
          r->message = g_strdup_printf (_("%s Your changes kept on this computer are saved "
                                          "beside it as \"%s\"; both are kept."), why, plan->name);
        }
    }
  if (r->outcome == QM_RECOVERY_PENDING)
    /* Translators: a plan's name, the file that keeps it, and why it was
     * not saved. */
    r->message = g_strdup_printf (_("Your changes to \"%s\" are still kept on this computer "
                                    "(%s): %s"), r->name, path, error->message);
  else if (g_unlink (path) != 0 && errno != ENOENT)
    {
      /* Saved: a copy left behind would only be saved again as a conflict. */
      g_autofree char *m = r->message;

      /* Translators: a sentence saying the plan was saved, a file, and
       * the system's reason. */
      r->message = g_strdup_printf (_("%s (The recovery copy %s could not be removed: %s.)"),
                                    m, path, g_strerror (errno));
    }
  return g_steal_pointer (&r);
}

GPtrArray *
qm_store_recovery_flush (QmStore  *store,
                         GError  **error)
{
  g_autoptr(GPtrArray) paths = qm_store_recovery_pending (store);
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_recovery_result_free);

  if (paths->len > 0 && !qm_store_reconnect (store, error))
    return NULL;
  for (guint i = 0; i < paths->len; i++)
    {
      QmRecoveryResult *r = flush_one (store, g_ptr_array_index (paths, i));

      g_ptr_array_add (results, r);
      /* Gone again: the rest wait for the next try. */
      if (r->outcome == QM_RECOVERY_PENDING && qm_store_connection_lost (store))
        break;
    }
  return g_steal_pointer (&results);
}
