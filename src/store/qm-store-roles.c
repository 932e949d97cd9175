/* qm-store-roles.c: the three team roles on a PostgreSQL server, their
 * grants (qm_store_setup_roles), and what the connected role may do
 * (qm_store_rights), read with has_table_privilege() so the app can say
 * why something is read-only before the server refuses it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-store-private.h"
#include "qm-store-roles.h"

/* coalesce: a table this schema does not have yet gives no right. */
#define HAS(table, privilege) \
  "coalesce (has_table_privilege (to_regclass ('" table "'), '" privilege "'), false)"
#define HAS_WRITE(table) \
  HAS (table, "INSERT") " AND " HAS (table, "UPDATE") " AND " HAS (table, "DELETE")

/* One round trip: who is connected, their quartermaster_* group roles,
 * and each right as the grants give it. */
static const char rights_sql[] =
  "SELECT current_user::text,"
  " (SELECT string_agg (rolname::text, ', ' ORDER BY rolname) FROM pg_roles"
  "   WHERE rolname IN (?1, ?2, ?3) AND pg_has_role (current_user, oid, 'MEMBER')),"
  " " HAS ("plan", "SELECT") " AND " HAS ("plan_data", "SELECT") " AND "
  HAS ("catalog_entry", "SELECT") ","
  " " HAS_WRITE ("plan") " AND " HAS_WRITE ("plan_data") ","
  " " HAS ("quote", "INSERT") " AND " HAS ("quote", "UPDATE") " AND "
  HAS ("quote_revision", "INSERT") ","
  " " HAS_WRITE ("catalog_user") " AND " HAS_WRITE ("catalog_override") " AND "
  HAS ("exchange_rate", "INSERT")
  " AND " HAS ("catalog_builtin", "INSERT");

gboolean
qm_store_read_role_info (QmDb            *db,
                         QmStoreRoleInfo *info,
                         GError         **error)
{
  static const guint rights[] = {
    QM_STORE_RIGHT_READ, QM_STORE_RIGHT_EDIT_PLANS, QM_STORE_RIGHT_EDIT_QUOTES,
    QM_STORE_RIGHT_EDIT_CATALOG,
  };
  g_autoptr(QmDbStmt) stmt = qm_db_prepare (db, rights_sql, NULL);

  if (stmt == NULL)
    goto fail;
  qm_db_bind_text (stmt, 1, QM_STORE_ROLE_VIEWER);
  qm_db_bind_text (stmt, 2, QM_STORE_ROLE_EDITOR);
  qm_db_bind_text (stmt, 3, QM_STORE_ROLE_CATALOG_MANAGER);
  if (qm_db_step (stmt) != QM_DB_STEP_ROW)
    goto fail;
  qm_store_role_info_clear (info);
  info->known = TRUE;
  info->user = qm_db_column_dup (stmt, 0);
  info->groups = qm_db_column_dup (stmt, 1);
  for (guint i = 0; i < G_N_ELEMENTS (rights); i++)
    if (qm_db_column_int64 (stmt, 2 + i))
      info->rights |= rights[i];
  return TRUE;

fail:
  /* Translators: %s is the team database's server address. */
  qm_db_fail (db, error, _("Could not read what your role may do in %s"), qm_db_location (db));
  return FALSE;
}

void
qm_store_fail_no_read (QmDb    *db,
                       GError **error)
{
  g_autoptr(QmDbStmt) stmt = qm_db_prepare (db, "SELECT current_user::text", NULL);
  const char *user = stmt != NULL && qm_db_step (stmt) == QM_DB_STEP_ROW
                     ? qm_db_column_text (stmt, 0) : NULL;

  if (user != NULL)
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                 /* Translators: the server's address, your login role on it, and the
                  * team role to ask for (quartermaster_viewer). */
                 _("Could not open the team database %s: your role on it, %s, may not read "
                   "Quartermaster's data; ask whoever runs the database to grant you %s"),
                 qm_db_location (db), user, QM_STORE_ROLE_VIEWER);
  else
    g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_OPEN,
                 /* Translators: the server's address, and the team role to ask for
                  * (quartermaster_viewer). */
                 _("Could not open the team database %s: your role may not read "
                   "Quartermaster's data; ask whoever runs the database to grant you %s"),
                 qm_db_location (db), QM_STORE_ROLE_VIEWER);
}

gboolean
qm_store_check_may_upgrade (QmDb        *db,
                            int          from,
                            int          to,
                            GError     **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;

  /* A new database: whoever may create tables in it sets it up. */
  if (from == 0)
    return TRUE;
  /* Changing a table takes its owner (or a member of the owner's role). */
  stmt = qm_db_prepare (db, "SELECT pg_has_role (current_user, c.relowner, 'USAGE'),"
                        " pg_get_userbyid (c.relowner)::text"
                        " FROM pg_class c WHERE c.oid = to_regclass (?1)", NULL);
  if (stmt == NULL)
    goto fail;
  qm_db_bind_text (stmt, 1, "plan");
  switch (qm_db_step (stmt))
    {
    case QM_DB_STEP_ROW:
      if (qm_db_column_int64 (stmt, 0))
        return TRUE;
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY,
                   /* Translators: the server's address, the schema versions from and
                    * to, and the role that owns the tables. */
                   _("The team database %s needs an upgrade from schema %d to %d, which only "
                     "its owner, %s, may make. Ask whoever runs it to open it once with this "
                     "version of Quartermaster (for example with quartermaster-cli db "
                     "setup-roles). Nothing was changed."),
                   qm_db_location (db), from, to, qm_db_column_text (stmt, 1));
      return FALSE;
    case QM_DB_STEP_DONE:
      return TRUE;
    case QM_DB_STEP_ERROR:
    default:
      break;
    }

fail:
  /* Translators: %s is the team database's server address. */
  qm_db_fail (db, error, _("Could not read who owns %s"), qm_db_location (db));
  return FALSE;
}

void
qm_store_role_info_clear (QmStoreRoleInfo *info)
{
  g_clear_pointer (&info->user, g_free);
  g_clear_pointer (&info->groups, g_free);
  info->rights = 0;
  info->known = FALSE;
}

QmStoreRights
qm_store_rights (QmStore *store)
{
  QmStoreRoleInfo *info = qm_store_role_info (store);
  guint rights = info->known ? info->rights : QM_STORE_RIGHTS_ALL;

  /* A read-only store writes nothing, whatever the grants say. */
  if (qm_store_is_read_only (store))
    rights &= QM_STORE_RIGHT_READ;
  return rights;
}

const char *
qm_store_role (QmStore *store)
{
  QmStoreRoleInfo *info = qm_store_role_info (store);

  if (!info->known)
    return NULL;
  return info->groups != NULL ? info->groups : info->user;
}

/* What the role may not do, as a whole sentence so that a translation
 * can put the parts in its own order. The first %s is the role, the
 * second the group role to ask for. */
static const char *
missing_format (guint missing)
{
  switch (missing)
    {
    case QM_STORE_RIGHT_EDIT_PLANS:
      /* Translators: your role on the team database, then the team role
       * to ask for (quartermaster_editor). */
      return _("Your role on the team database, %s, may read plans but not save them; "
               "ask whoever runs the database to grant you %s");
    case QM_STORE_RIGHT_EDIT_QUOTES:
      /* Translators: your role on the team database, then the team role
       * to ask for (quartermaster_editor). */
      return _("Your role on the team database, %s, may read quotes but not save them; "
               "ask whoever runs the database to grant you %s");
    case QM_STORE_RIGHT_EDIT_CATALOG:
      /* Translators: your role on the team database, then the team role
       * to ask for (quartermaster_catalog_manager). */
      return _("Your role on the team database, %s, may read the catalog and its prices "
               "but not change them; ask whoever runs the database to grant you %s");
    default:
      /* Translators: your role on the team database, then the team role
       * to ask for (quartermaster_editor). */
      return _("Your role on the team database, %s, may read but not change anything; "
               "ask whoever runs the database to grant you %s");
    }
}

/* The group role that would give @missing. */
static const char *
role_for (guint missing)
{
  if (missing & QM_STORE_RIGHT_READ)
    return QM_STORE_ROLE_VIEWER;
  if (missing == QM_STORE_RIGHT_EDIT_CATALOG)
    return QM_STORE_ROLE_CATALOG_MANAGER;
  return QM_STORE_ROLE_EDITOR;
}

char *
qm_store_rights_reason (QmStore       *store,
                        QmStoreRights  rights)
{
  QmStoreRoleInfo *info = qm_store_role_info (store);
  guint missing = rights & ~qm_store_rights (store);

  if (missing == 0)
    return NULL;
  if (!info->known && qm_store_read_only_why (store) != NULL)
    return g_strdup (qm_store_read_only_why (store));
  if (!info->known)
    /* Translators: %s is the database file. */
    return g_strdup_printf (_("The database %s is read-only, so nothing can be saved; "
                              "check the file's permissions"), qm_store_path (store));
  /* The role's grants first: a viewer's store is read-only because of
   * them. */
  if ((missing & ~info->rights) == 0)
    /* Translators: %s is the team database's server address. */
    return g_strdup_printf (_("This connection to the team database %s is read-only, "
                              "so nothing can be saved"), qm_store_path (store));
  missing &= ~info->rights;
  if (missing & QM_STORE_RIGHT_READ)
    /* Translators: your role on the team database, then the team role to
     * ask for (quartermaster_viewer). */
    return g_strdup_printf (_("Your role on the team database, %s, may not read "
                              "Quartermaster's data; ask whoever runs the database to "
                              "grant you %s"), qm_store_role (store), role_for (missing));
  return g_strdup_printf (missing_format (missing), qm_store_role (store), role_for (missing));
}

gboolean
qm_store_check_right (QmStore     *store,
                      guint        rights,
                      const char  *what,
                      GError     **error)
{
  g_autofree char *why = qm_store_rights_reason (store, rights);

  if (why == NULL)
    return TRUE;
  g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_READ_ONLY, _("%s: %s"), what, why);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Setting the roles up.                                               */

static const char *const group_roles[] = {
  QM_STORE_ROLE_VIEWER, QM_STORE_ROLE_EDITOR, QM_STORE_ROLE_CATALOG_MANAGER,
};

#define ALL_THREE QM_STORE_ROLE_VIEWER ", " QM_STORE_ROLE_EDITOR ", " QM_STORE_ROLE_CATALOG_MANAGER

/* The grants, in the schema the store's tables live in (current_schema;
 * format's %I quotes it). No value from outside is in this text. Tables
 * the owner creates later (an upgrade) are readable by all three at once;
 * their write grants come from running setup-roles again. */
static const char grants_sql[] =
  /* Only the three roles (and the owner) may connect: a login given none
   * of them could otherwise take locks and send notices on the team's
   * channel (issue #33 item 6). PUBLIC holds CONNECT by default
   * (PostgreSQL 15 documentation, §5.7 "Privileges"). */
  "DO $$ DECLARE d text := current_database (); BEGIN"
  " EXECUTE format ('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', d);"
  " EXECUTE format ('GRANT CONNECT ON DATABASE %I TO " ALL_THREE "', d);"
  " END $$;"
  "DO $$ DECLARE s text := current_schema (); BEGIN"
  " EXECUTE format ('GRANT USAGE ON SCHEMA %I TO " ALL_THREE "', s);"
  " EXECUTE format ('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO " ALL_THREE "', s);"
  " EXECUTE format ('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES TO "
  ALL_THREE "', s);"
  /* Identity columns draw from sequences; lastval () reads them, and
   * `db copy` moves the plan ids' sequence past the ids it copied with
   * setval (), which needs UPDATE (PostgreSQL 15 documentation, §9.17
   * "Sequence Manipulation Functions"): without it README step 3, an
   * editor's copy into the server, failed 12 of 12 (issue #33 item 7). */
  " EXECUTE format ('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA %I TO "
  QM_STORE_ROLE_EDITOR ", " QM_STORE_ROLE_CATALOG_MANAGER "', s);"
  " END $$;"
  /* A catalog manager may do all an editor may (README, "Working as a
   * team"), and change the catalog besides. */
  "GRANT INSERT, UPDATE, DELETE ON plan, plan_data, quote, quote_revision TO "
  QM_STORE_ROLE_EDITOR ", " QM_STORE_ROLE_CATALOG_MANAGER ";"
  /* The quote number sequence lives in meta: a quote takes the next one. */
  "GRANT INSERT, UPDATE ON meta TO " QM_STORE_ROLE_EDITOR ";"
  /* The supplier's letterhead (schema step 9) is the quotes' as the
   * numbering is: whoever issues quotes keeps it. */
  "DO $$ BEGIN"
  " IF to_regclass ('supplier') IS NOT NULL THEN"
  "  GRANT INSERT, UPDATE ON supplier TO " QM_STORE_ROLE_EDITOR ", " QM_STORE_ROLE_CATALOG_MANAGER ";"
  " END IF; END $$;"
  /* The built-in rows and the catalog version in meta are rewritten when
   * a newer Quartermaster brings a newer catalog. */
  "GRANT INSERT, UPDATE, DELETE ON catalog_user, catalog_override, exchange_rate,"
  " catalog_builtin, meta TO " QM_STORE_ROLE_CATALOG_MANAGER ";"
  /* The price history is written by the server's triggers only (schema
   * step 7, issue #33 item 1): no team role may write it, whatever an
   * earlier setup-roles granted. */
  "DO $$ BEGIN"
  " IF to_regclass ('catalog_price_history') IS NOT NULL THEN"
  "  REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON catalog_price_history FROM PUBLIC, " ALL_THREE ";"
  " END IF; END $$;";

/* Which of the group roles exist: a bit per group_roles[] entry. */
static gboolean
existing_roles (QmStore  *store,
                guint    *found,
                GError  **error)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, "SELECT rolname::text FROM pg_roles"
                                             " WHERE rolname IN (?1, ?2, ?3)", error);
  QmDbStep step;

  *found = 0;
  if (stmt == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (group_roles); i++)
    qm_db_bind_text (stmt, i + 1, group_roles[i]);
  while ((step = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    for (guint i = 0; i < G_N_ELEMENTS (group_roles); i++)
      if (g_strcmp0 (qm_db_column_text (stmt, 0), group_roles[i]) == 0)
        *found |= 1u << i;
  if (step == QM_DB_STEP_ERROR)
    {
      qm_store_db_fail (store, error, _("Could not read the roles"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
has_price_history (QmStore *store)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, "SELECT to_regclass (?1) IS NOT NULL", NULL);

  if (stmt == NULL)
    return FALSE;
  qm_db_bind_text (stmt, 1, "catalog_price_history");
  return qm_db_step (stmt) == QM_DB_STEP_ROW && qm_db_column_int64 (stmt, 0) != 0;
}

GPtrArray *
qm_store_setup_roles (QmStore  *store,
                      GError  **error)
{
  QmDb *db = qm_store_connection (store);
  const char *what = _("Could not set up the team roles");
  g_autoptr(GPtrArray) done = g_ptr_array_new_with_free_func (g_free);
  guint found;

  if (qm_db_engine (db) != QM_DB_POSTGRESQL)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: the first %s says what failed ("Could not set up the
                    * team roles"), the second is the database file. */
                   _("%s: %s is a file; roles are for a team database on a PostgreSQL server"),
                   what, qm_store_path (store));
      return NULL;
    }
  if (!qm_store_begin (store, what, error))
    return NULL;
  if (!existing_roles (store, &found, error))
    goto fail;
  for (guint i = 0; i < G_N_ELEMENTS (group_roles); i++)
    {
      /* A role name cannot be a parameter; these are our constants. */
      g_autofree char *sql = g_strdup_printf ("CREATE ROLE %s NOLOGIN", group_roles[i]);

      if (found & (1u << i))
        {
          /* Translators: %s is a team role, such as quartermaster_editor. */
          g_ptr_array_add (done, g_strdup_printf (_("%s was there already."), group_roles[i]));
          continue;
        }
      if (!qm_db_exec (db, sql, NULL))
        {
          /* Translators: %s is a team role, such as quartermaster_editor. */
          qm_store_db_fail (store, error, _("Could not create the role %s"), group_roles[i]);
          goto fail;
        }
      /* Translators: %s is a team role, such as quartermaster_editor. */
      g_ptr_array_add (done, g_strdup_printf (_("Created the role %s."), group_roles[i]));
    }
  if (!qm_db_exec (db, grants_sql, NULL))
    {
      qm_store_db_fail (store, error, "%s", what);
      goto fail;
    }
  if (!qm_store_commit (store, what, error))
    return NULL;

  /* Translators: %s is quartermaster_viewer, a team role. */
  g_ptr_array_add (done, g_strdup_printf (_("%s may read plans, quotes and the catalog."),
                                          QM_STORE_ROLE_VIEWER));
  /* Translators: %s is quartermaster_editor, a team role. */
  g_ptr_array_add (done, g_strdup_printf (_("%s may also save plans and quotes."),
                                          QM_STORE_ROLE_EDITOR));
  if (has_price_history (store))
    /* Translators: %s is quartermaster_catalog_manager, a team role. */
    g_ptr_array_add (done, g_strdup_printf (_("%s may also change prices, hardware and exchange "
                                              "rates (and their history)."),
                                            QM_STORE_ROLE_CATALOG_MANAGER));
  else
    /* Translators: %s is quartermaster_catalog_manager, a team role. */
    g_ptr_array_add (done, g_strdup_printf (_("%s may also change prices, hardware and "
                                              "exchange rates."),
                                            QM_STORE_ROLE_CATALOG_MANAGER));
  return g_steal_pointer (&done);

fail:
  qm_store_rollback (store);
  return NULL;
}
