/* qm-store-schema.c: the schema, as one list of migrations that serves
 * both engines, and the code that runs it.
 *
 * Each step is written in SQLite's dialect; qm_db_translate_ddl() makes
 * PostgreSQL's from it, and pg_fixes[] holds the rare phrase it cannot
 * translate. The version is PRAGMA user_version on SQLite and the table
 * qm_schema on PostgreSQL (qm-db.h). Each step runs in its own
 * transaction, so a crash mid-migration leaves the previous version intact.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "qm-plan.h"
#include "qm-store-private.h"

/* migrations[i] takes the schema from version i to i + 1. Append only:
 * never edit a step that has shipped. */
static const char *migrations[] = {
  /* 0 → 1: bookkeeping. */
  "CREATE TABLE meta ("
  "  key   TEXT PRIMARY KEY,"
  "  value TEXT NOT NULL"
  ") STRICT;",

  /* 1 → 2: the catalog. Built-in rows are rewritten by every re-sync;
   * the user's own entries and price overrides live in their own tables so
   * a re-sync can never touch them. Overrides have no foreign key: one on
   * an entry that a new catalog drops is kept, and shows again if the
   * entry comes back. `entry` is the whole entry as catalog JSON. */
  "CREATE TABLE catalog_builtin ("
  "  kind      TEXT NOT NULL CHECK (kind IN ('gpu','server','network','storage','facility','cloud','model')),"
  "  id        TEXT NOT NULL CHECK (id <> ''),"
  "  vendor    TEXT NOT NULL DEFAULT '',"
  "  name      TEXT NOT NULL,"
  "  price_usd REAL NOT NULL DEFAULT 0 CHECK (price_usd >= 0),"
  "  source    TEXT NOT NULL DEFAULT '',"
  "  as_of     TEXT NOT NULL DEFAULT '',"
  "  hidden    INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),"
  "  position  INTEGER NOT NULL DEFAULT 0,"
  "  entry     TEXT NOT NULL CHECK (json_valid (entry)),"
  "  PRIMARY KEY (kind, id)"
  ") STRICT;"
  "CREATE TABLE catalog_user ("
  "  kind      TEXT NOT NULL CHECK (kind IN ('gpu','server','network','storage','facility','cloud','model')),"
  "  id        TEXT NOT NULL CHECK (id <> ''),"
  "  vendor    TEXT NOT NULL DEFAULT '',"
  "  name      TEXT NOT NULL,"
  "  price_usd REAL NOT NULL DEFAULT 0 CHECK (price_usd >= 0),"
  "  source    TEXT NOT NULL DEFAULT '',"
  "  as_of     TEXT NOT NULL DEFAULT '',"
  "  entry     TEXT NOT NULL CHECK (json_valid (entry)),"
  "  created   INTEGER NOT NULL,"
  "  modified  INTEGER NOT NULL,"
  "  PRIMARY KEY (kind, id)"
  ") STRICT;"
  "CREATE TABLE catalog_override ("
  "  kind      TEXT NOT NULL,"
  "  id        TEXT NOT NULL,"
  "  price_usd REAL NOT NULL CHECK (price_usd >= 0),"
  "  modified  INTEGER NOT NULL,"
  "  PRIMARY KEY (kind, id)"
  ") STRICT;"
  "CREATE INDEX catalog_builtin_name ON catalog_builtin (kind, name);"
  "CREATE INDEX catalog_user_name ON catalog_user (kind, name);"
  /* One list for the views: both prices side by side, builtins first. */
  "CREATE VIEW catalog_entry AS"
  "  SELECT b.kind, b.id, b.vendor, b.name, b.source, b.as_of, 1 AS builtin, b.hidden,"
  "         b.price_usd AS list_price_usd, o.price_usd AS override_usd,"
  "         coalesce (o.price_usd, b.price_usd) AS price_usd, b.entry, b.position"
  "    FROM catalog_builtin b LEFT JOIN catalog_override o USING (kind, id)"
  "  UNION ALL"
  "  SELECT u.kind, u.id, u.vendor, u.name, u.source, u.as_of, 0, 0,"
  "         u.price_usd, o.price_usd, coalesce (o.price_usd, u.price_usd), u.entry,"
  "         1000000 + u.rowid"
  "    FROM catalog_user u LEFT JOIN catalog_override o USING (kind, id);",

  /* 2 → 3: saved plans. The list columns (plan) are apart from the bulky
   * JSON (plan_data) so listing and searching 10,000 plans reads a few
   * hundred bytes per plan. search_key is the casefolded text the search
   * box matches. A plan in the trash has trashed_session set. */
  "CREATE TABLE plan ("
  "  id              INTEGER PRIMARY KEY,"
  "  name            TEXT NOT NULL CHECK (name <> ''),"
  "  customer        TEXT NOT NULL DEFAULT '',"
  "  quote_ref       TEXT NOT NULL DEFAULT '',"
  "  tags            TEXT NOT NULL DEFAULT '',"
  "  model           TEXT NOT NULL DEFAULT '',"
  "  gpus            INTEGER NOT NULL DEFAULT 0 CHECK (gpus >= 0),"
  "  days            REAL NOT NULL DEFAULT 0,"
  "  total_cost      REAL NOT NULL DEFAULT 0,"
  "  catalog_version TEXT NOT NULL DEFAULT '',"
  "  created         INTEGER NOT NULL,"
  "  modified        INTEGER NOT NULL,"
  "  search_key      TEXT NOT NULL DEFAULT '',"
  "  trashed_session TEXT,"
  "  trashed_at      INTEGER"
  ") STRICT;"
  "CREATE TABLE plan_data ("
  "  plan_id  INTEGER PRIMARY KEY REFERENCES plan (id) ON DELETE CASCADE,"
  "  notes    TEXT NOT NULL DEFAULT '',"
  "  inputs   TEXT NOT NULL CHECK (json_valid (inputs)),"
  "  snapshot TEXT CHECK (snapshot IS NULL OR json_valid (snapshot)),"
  "  prices   TEXT NOT NULL DEFAULT '{}' CHECK (json_valid (prices))"
  ") STRICT;"
  "CREATE INDEX plan_list ON plan (trashed_session, modified);"
  "CREATE INDEX plan_name ON plan (name);",

  /* 3 → 4: quotes (qm-quote-store.c). A quote outlives its plan (the plan
   * id goes NULL). A revision freezes everything its figures rest on and
   * is never changed or removed: the triggers refuse it. Rates are units
   * of a currency per US dollar from a date on. */
  "CREATE TABLE quote ("
  "  id            INTEGER PRIMARY KEY,"
  "  number        TEXT NOT NULL UNIQUE CHECK (number <> ''),"
  "  plan_id       INTEGER REFERENCES plan (id) ON DELETE SET NULL,"
  "  plan_name     TEXT NOT NULL DEFAULT '',"
  "  customer      TEXT NOT NULL DEFAULT '',"
  "  project       TEXT NOT NULL DEFAULT '',"
  "  prepared_by   TEXT NOT NULL DEFAULT '',"
  "  state         TEXT NOT NULL DEFAULT 'draft'"
  "                CHECK (state IN ('draft','sent','accepted','declined')),"
  "  payment_terms TEXT NOT NULL DEFAULT '',"
  "  terms         TEXT NOT NULL DEFAULT '',"
  "  created       INTEGER NOT NULL,"
  "  modified      INTEGER NOT NULL"
  ") STRICT;"
  "CREATE INDEX quote_plan ON quote (plan_id);"
  "CREATE TABLE quote_revision ("
  "  quote_id        INTEGER NOT NULL REFERENCES quote (id),"
  "  seq             INTEGER NOT NULL CHECK (seq >= 1),"
  "  letter          TEXT NOT NULL CHECK (letter <> ''),"
  "  issued          TEXT NOT NULL CHECK (date (issued) IS issued),"
  "  valid_days      INTEGER NOT NULL CHECK (valid_days BETWEEN 1 AND 3650),"
  "  note            TEXT NOT NULL DEFAULT '',"
  "  customer        TEXT NOT NULL DEFAULT '',"
  "  currency        TEXT NOT NULL,"
  "  exchange_rate   REAL NOT NULL CHECK (exchange_rate > 0),"
  "  rate_date       TEXT NOT NULL CHECK (date (rate_date) IS rate_date),"
  "  rate_source     TEXT NOT NULL DEFAULT '',"
  "  catalog_version TEXT NOT NULL DEFAULT '',"
  "  terms           TEXT NOT NULL CHECK (json_valid (terms)),"
  "  plan            TEXT NOT NULL CHECK (json_valid (plan)),"
  "  quote           TEXT NOT NULL CHECK (json_valid (quote)),"
  "  exponent        INTEGER NOT NULL,"
  "  gross           INTEGER NOT NULL,"
  "  created         INTEGER NOT NULL,"
  "  PRIMARY KEY (quote_id, seq)"
  ") STRICT;"
  "CREATE TRIGGER quote_revision_frozen BEFORE UPDATE ON quote_revision"
  "  BEGIN SELECT RAISE (ABORT, 'a quote revision is never changed'); END;"
  "CREATE TRIGGER quote_revision_kept BEFORE DELETE ON quote_revision"
  "  BEGIN SELECT RAISE (ABORT, 'a quote revision is never removed'); END;"
  "CREATE TABLE exchange_rate ("
  "  currency     TEXT NOT NULL CHECK (currency GLOB '[A-Z][A-Z][A-Z]'),"
  "  date         TEXT NOT NULL CHECK (date (date) IS date),"
  "  rate_per_usd REAL NOT NULL CHECK (rate_per_usd > 0),"
  "  source       TEXT NOT NULL DEFAULT '',"
  "  PRIMARY KEY (currency, date)"
  ") STRICT;",

  /* 4 → 5: a revision per plan (issue #23). A save names the revision it
   * started from; one against a stale revision is a conflict, never an
   * overwrite. */
  "ALTER TABLE plan ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;",

  /* 5 → 6: the catalog on a team server (issue #23). A revision per user
   * entry and per price override, as plans have; every price change kept
   * with who made it and when (UTC, ISO 8601), newest by changed_at. The
   * history has no foreign key: it outlives a deleted entry or a cleared
   * override. The view shows both revisions. */
  "ALTER TABLE catalog_user ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;"
  "ALTER TABLE catalog_override ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;"
  "CREATE TABLE catalog_price_history ("
  "  seq         INTEGER PRIMARY KEY,"
  "  kind        TEXT NOT NULL CHECK (kind IN ('gpu','server','network','storage','facility','cloud','model')),"
  "  id          TEXT NOT NULL CHECK (id <> ''),"
  "  is_override INTEGER NOT NULL CHECK (is_override IN (0, 1)),"
  "  old_price   REAL CHECK (old_price IS NULL OR old_price >= 0),"
  "  new_price   REAL CHECK (new_price IS NULL OR new_price >= 0),"
  "  who         TEXT NOT NULL DEFAULT '',"
  "  changed_at  TEXT NOT NULL CHECK (changed_at <> ''),"
  "  revision    INTEGER NOT NULL CHECK (revision >= 1)"
  ") STRICT;"
  "CREATE UNIQUE INDEX catalog_price_history_entry"
  "  ON catalog_price_history (kind, id, changed_at, is_override, revision);"
  "DROP VIEW catalog_entry;"
  "CREATE VIEW catalog_entry AS"
  "  SELECT b.kind, b.id, b.vendor, b.name, b.source, b.as_of, 1 AS builtin, b.hidden,"
  "         b.price_usd AS list_price_usd, o.price_usd AS override_usd,"
  "         coalesce (o.price_usd, b.price_usd) AS price_usd, b.entry, b.position,"
  "         0 AS revision, coalesce (o.revision, 0) AS override_revision"
  "    FROM catalog_builtin b LEFT JOIN catalog_override o USING (kind, id)"
  "  UNION ALL"
  "  SELECT u.kind, u.id, u.vendor, u.name, u.source, u.as_of, 0, 0,"
  "         u.price_usd, o.price_usd, coalesce (o.price_usd, u.price_usd), u.entry,"
  "         1000000 + u.rowid, u.revision, coalesce (o.revision, 0)"
  "    FROM catalog_user u LEFT JOIN catalog_override o USING (kind, id);",

  /* 6 → 7: on a team server the price history is the server's own record
   * (issue #33 item 1): a catalog manager with plain SQL could write rows
   * in anyone's name, rewrite or erase them, and change a price with no
   * row at all. PostgreSQL gets triggers that write each change from
   * session_user and the server's clock (pg_fixes below), and no role but
   * the owner may write the table (qm-store-roles.c). A file has one
   * user, who writes the history as before: nothing changes there. */
  "SELECT 1;",

  /* 7 → 8: the server takes no plan bigger than a plan file may be
   * (issue #33 item 5): the app and the CLI refuse one past
   * QM_PLAN_MAX_BYTES, and now so does the server, for a team member
   * writing with plain SQL (pg_fixes). A file is its user's own. */
  "SELECT 2;",

  /* 8 → 9: the supplier a quote is from (issue #35 item 2): one row of
   * letterhead and payment details per store, so a team server gives
   * every member's quotes the same (qm-supplier-store.c; the columns are
   * qm_supplier_fields[]). The customer's VAT id is kept beside the
   * customer, on the quote and frozen on each revision; revisions made
   * before have none. */
  "CREATE TABLE supplier ("
  "  id           INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),"
  "  name         TEXT NOT NULL DEFAULT '',"
  "  address      TEXT NOT NULL DEFAULT '',"
  "  vat_id       TEXT NOT NULL DEFAULT '',"
  "  registration TEXT NOT NULL DEFAULT '',"
  "  email        TEXT NOT NULL DEFAULT '',"
  "  phone        TEXT NOT NULL DEFAULT '',"
  "  bank         TEXT NOT NULL DEFAULT '',"
  "  iban         TEXT NOT NULL DEFAULT '',"
  "  bic          TEXT NOT NULL DEFAULT '',"
  "  modified     INTEGER NOT NULL DEFAULT 0"
  ") STRICT;"
  "ALTER TABLE quote ADD COLUMN customer_vat TEXT NOT NULL DEFAULT '';"
  "ALTER TABLE quote_revision ADD COLUMN customer_vat TEXT NOT NULL DEFAULT '';",
};

/* Phrases of a step that PostgreSQL says differently. */
typedef struct
{
  int         step;
  const char *sqlite;
  const char *postgresql;
} QmSchemaFix;

static const QmSchemaFix pg_fixes[] = {
  /* User entries sort after the built-ins in the order they were added:
   * SQLite's rowid, PostgreSQL's creation time. */
  { 1, "1000000 + u.rowid", "1000000 + row_number () OVER (ORDER BY u.created, u.kind, u.id)" },
  /* From step 5 on, the creation time itself: a window function over
   * every user entry made each catalog query (each search keystroke)
   * number them all first. Ties are broken by id (qm-catalog-store.c). */
  { 5, "1000000 + u.rowid", "1000000 + u.created" },
  /* The server-kept price history. SECURITY DEFINER: the function writes
   * as the table's owner, which no team role may; session_user names the
   * person (current_user would name the owner inside it). A rename carries
   * the entry's history to its new id, as the client did on a file. */
  { 6, "SELECT 1;",
    "CREATE FUNCTION qm_price_history_fn () RETURNS trigger LANGUAGE plpgsql"
    " SECURITY DEFINER SET search_path FROM CURRENT AS $$"
    " DECLARE"
    "  ovr int := CASE TG_TABLE_NAME WHEN 'catalog_override' THEN 1 ELSE 0 END;"
    "  stamp text := to_char (clock_timestamp () AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"');"
    " BEGIN"
    /* The owner's db copy brings the rows of the history as they were
     * (qm-catalog-store-copy.c): its writes are not new changes. */
    "  IF current_setting ('qm.copy', true) = 'on' AND pg_has_role (session_user,"
    "     (SELECT relowner FROM pg_class WHERE oid = 'catalog_price_history'::regclass), 'MEMBER') THEN"
    "   RETURN NULL;"
    "  END IF;"
    "  IF TG_OP = 'INSERT' THEN"
    "   INSERT INTO catalog_price_history (kind, id, is_override, old_price, new_price, changed_at, revision, who)"
    "    VALUES (NEW.kind, NEW.id, ovr, NULL, NEW.price_usd, stamp, NEW.revision, session_user);"
    "   RETURN NEW;"
    "  ELSIF TG_OP = 'UPDATE' THEN"
    "   IF ovr = 0 AND NEW.id IS DISTINCT FROM OLD.id THEN"
    "    UPDATE catalog_price_history SET id = NEW.id WHERE kind = OLD.kind AND id = OLD.id;"
    "   END IF;"
    "   IF NEW.price_usd IS DISTINCT FROM OLD.price_usd THEN"
    "    INSERT INTO catalog_price_history (kind, id, is_override, old_price, new_price, changed_at, revision, who)"
    "     VALUES (NEW.kind, NEW.id, ovr, OLD.price_usd, NEW.price_usd, stamp, NEW.revision, session_user);"
    "   END IF;"
    "   RETURN NEW;"
    "  END IF;"
    "  INSERT INTO catalog_price_history (kind, id, is_override, old_price, new_price, changed_at, revision, who)"
    "   VALUES (OLD.kind, OLD.id, ovr, OLD.price_usd, NULL, stamp, OLD.revision + 1, session_user);"
    "  RETURN OLD;"
    " END $$;"
    "CREATE TRIGGER catalog_override_history AFTER INSERT OR UPDATE OR DELETE ON catalog_override"
    " FOR EACH ROW EXECUTE FUNCTION qm_price_history_fn ();"
    "CREATE TRIGGER catalog_user_history AFTER INSERT OR UPDATE OR DELETE ON catalog_user"
    " FOR EACH ROW EXECUTE FUNCTION qm_price_history_fn ();"
    /* TRUNCATE skips row triggers: a quote revision's are statement-level
     * too (the owner's TRUNCATE; no team role holds TRUNCATE). */
    "CREATE TRIGGER quote_revision_not_truncated BEFORE TRUNCATE ON quote_revision"
    " FOR EACH STATEMENT EXECUTE FUNCTION quote_revision_kept_fn ();"
    "CREATE FUNCTION qm_price_history_kept_fn () RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN RAISE EXCEPTION 'the price history is never emptied'; END $$;"
    "CREATE TRIGGER catalog_price_history_not_truncated BEFORE TRUNCATE ON catalog_price_history"
    " FOR EACH STATEMENT EXECUTE FUNCTION qm_price_history_kept_fn ();" },
  /* NOT VALID: rows already there are not checked (an upgrade never fails
   * on them); every new or changed row is. */
  { 7, "SELECT 2;",
    "ALTER TABLE plan_data ADD CONSTRAINT plan_data_size CHECK ("
    " octet_length (inputs) <= " G_STRINGIFY (QM_PLAN_MAX_BYTES)
    " AND octet_length (coalesce (snapshot, '')) <= " G_STRINGIFY (QM_PLAN_MAX_BYTES)
    " AND octet_length (notes) <= " G_STRINGIFY (QM_PLAN_MAX_BYTES)
    " AND octet_length (prices) <= " G_STRINGIFY (QM_PLAN_MAX_BYTES) ") NOT VALID;" },
};

int
qm_store_latest_version (void)
{
  return G_N_ELEMENTS (migrations);
}

/* Step @v as @db's engine runs it. */
static char *
step_sql (QmDb *db,
          int   v)
{
  g_autofree char *sql = g_strdup (migrations[v]);

  if (qm_db_engine (db) == QM_DB_POSTGRESQL)
    for (guint i = 0; i < G_N_ELEMENTS (pg_fixes); i++)
      if (pg_fixes[i].step == v)
        {
          g_auto(GStrv) parts = g_strsplit (sql, pg_fixes[i].sqlite, -1);

          g_free (sql);
          sql = g_strjoinv (pg_fixes[i].postgresql, parts);
        }
  return qm_db_translate_ddl (db, sql);
}

gboolean
qm_store_migrate (QmDb     *db,
                  int       from,
                  int       to,
                  GError  **error)
{
  for (int v = from; v < to; v++)
    {
      g_autofree char *what = g_strdup_printf (_("Could not upgrade the database to version %d"),
                                               v + 1);
      g_autofree char *sql = NULL;
      int now;

      if (!qm_db_begin (db, NULL) || !qm_db_lock_schema (db))
        goto fail;
      /* Another process may have opened the same new database a moment
       * earlier and done this step while this one waited for the lock. */
      if ((now = qm_db_schema_version (db, NULL)) < 0)
        goto fail;
      if (now > v)
        {
          qm_db_commit (db, NULL);
          continue;
        }
      sql = step_sql (db, v);
      if (!qm_db_exec (db, sql, NULL) ||
          !qm_db_set_schema_version (db, v + 1, NULL) ||
          !qm_db_commit (db, NULL))
        goto fail;
      continue;

    fail:
      qm_db_rollback (db);
      qm_db_fail (db, error, "%s", what);
      return FALSE;
    }
  return TRUE;
}
