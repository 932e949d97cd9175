/* qm-plan-store-list.c: the list of saved plans and its search: every word
 * of the search must occur in a plan's folded search key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-plan-store-private.h"

#define MAX_SEARCH_WORDS 8

static char *
fold (const char *text)
{
  g_autofree char *normal = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normal != NULL ? normal : text, -1);
}

char *
qm_plan_search_key (const char *name,
                    const char *customer,
                    const char *tags,
                    const char *model,
                    const char *quote_ref)
{
  g_autofree char *joined = g_strjoin ("\n", name ? name : "", customer ? customer : "",
                                       tags ? tags : "", model ? model : "",
                                       quote_ref ? quote_ref : "", NULL);

  return fold (joined);
}

GStrv
qm_plan_search_words (const char *search)
{
  g_autofree char *folded = fold (search != NULL ? search : "");
  g_auto(GStrv) split = g_strsplit_set (g_strstrip (folded), " \t\n", -1);
  g_autoptr(GStrvBuilder) words = g_strv_builder_new ();
  guint n = 0;

  for (guint i = 0; split[i] != NULL && n < MAX_SEARCH_WORDS; i++)
    if (*split[i] != '\0')
      {
        g_strv_builder_add (words, split[i]);
        n++;
      }
  return g_strv_builder_end (words);
}

gboolean
qm_plan_search_matches (const char         *search_key,
                        const char * const *words)
{
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (search_key == NULL || strstr (search_key, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Listing.                                                            */

static QmPlanSummary *
summary_from_row (QmDbStmt *stmt)
{
  QmPlanSummary *s = g_new0 (QmPlanSummary, 1);

  s->id = qm_db_column_int64 (stmt, 0);
  s->name = qm_db_column_dup (stmt, 1);
  s->customer = qm_db_column_dup (stmt, 2);
  s->quote_ref = qm_db_column_dup (stmt, 3);
  s->tags = qm_db_column_dup (stmt, 4);
  s->model = qm_db_column_dup (stmt, 5);
  s->gpus = qm_db_column_int64 (stmt, 6);
  s->days = qm_db_column_double (stmt, 7);
  s->total_cost = qm_db_column_double (stmt, 8);
  s->catalog_version = qm_db_column_dup (stmt, 9);
  s->created = qm_db_column_int64 (stmt, 10);
  s->modified = qm_db_column_int64 (stmt, 11);
  s->search_key = qm_db_column_dup (stmt, 12);
  return s;
}


static gpointer
list_where (QmStore     *store,
            gboolean     trash,
            gboolean     ids_only,
            const char  *search,
            GError     **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) qm_plan_summary_free);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GString) sql = g_string_new (ids_only ? "SELECT p.id FROM plan p WHERE "
                                                  : "SELECT " PLAN_COLUMNS " FROM plan p WHERE ");
  g_autoptr(QmDbStmt) stmt = NULL;
  g_auto(GStrv) words = qm_plan_search_words (search);
  guint n_words = g_strv_length (words);
  QmDbStep rc;

  g_string_append (sql, trash ? "p.trashed_session = ?1" : "p.trashed_session IS NULL");
  /* Placeholders only: the words themselves are bound. */
  for (guint i = 0; i < n_words; i++)
    g_string_append_printf (sql, " AND instr (p.search_key, ?%u) > 0", 2 + i);
  g_string_append (sql, " ORDER BY p.modified DESC, p.id DESC");

  if ((stmt = qm_store_query (store, sql->str, error)) == NULL)
    return NULL;
  if (trash)
    qm_db_bind_text (stmt, 1, qm_store_session_id (store));
  for (guint i = 0; i < n_words; i++)
    qm_db_bind_text (stmt, 2 + i, words[i]);

  while ((rc = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    {
      if (ids_only)
        {
          gint64 id = qm_db_column_int64 (stmt, 0);
          g_array_append_val (ids, id);
        }
      else
        g_ptr_array_add (out, summary_from_row (stmt));
    }
  if (rc != QM_DB_STEP_DONE)
    {
      qm_store_db_fail (store, error, _("Could not list the saved plans"));
      return NULL;
    }
  return ids_only ? (gpointer) g_steal_pointer (&ids) : (gpointer) g_steal_pointer (&out);
}

GArray *
qm_plan_store_search_ids (QmStore     *store,
                          const char  *search,
                          GError     **error)
{
  return list_where (store, FALSE, TRUE, search, error);
}

GPtrArray *
qm_plan_store_list (QmStore     *store,
                    const char  *search,
                    GError     **error)
{
  return list_where (store, FALSE, FALSE, search, error);
}

GPtrArray *
qm_plan_store_list_trash (QmStore  *store,
                          GError  **error)
{
  return list_where (store, TRUE, FALSE, NULL, error);
}

guint
qm_plan_store_count (QmStore *store)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store,
                                             "SELECT count(*) FROM plan WHERE trashed_session IS NULL",
                                             NULL);

  if (stmt == NULL || qm_db_step (stmt) != QM_DB_STEP_ROW)
    return 0;
  return qm_db_column_int64 (stmt, 0);
}

gint64
qm_plan_store_find (QmStore     *store,
                    const char  *name_or_id,
                    GError     **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  char *end = NULL;
  gint64 id;

  g_return_val_if_fail (name_or_id != NULL, 0);

  id = g_ascii_strtoll (name_or_id, &end, 10);
  if (*name_or_id != '\0' && end != NULL && *end == '\0' && id > 0)
    stmt = qm_store_query (store, "SELECT id FROM plan WHERE trashed_session IS NULL AND id = ?2"
                             " UNION ALL SELECT id FROM plan WHERE trashed_session IS NULL AND name = ?1"
                             " LIMIT 1", error);
  else
    stmt = qm_store_query (store, "SELECT id FROM plan WHERE trashed_session IS NULL AND name = ?1"
                             " ORDER BY modified DESC LIMIT 1", error);
  if (stmt == NULL)
    return 0;
  qm_db_bind_text (stmt, 1, name_or_id);
  if (qm_db_param_count (stmt) >= 2)
    qm_db_bind_int64 (stmt, 2, id);
  if (qm_db_step (stmt) == QM_DB_STEP_ROW)
    return qm_db_column_int64 (stmt, 0);
  g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
               /* Translators: the plan's name (or number), then the database file or
                * server. */
               _("There is no saved plan named \"%s\" in %s"), name_or_id, qm_store_path (store));
  return 0;
}

