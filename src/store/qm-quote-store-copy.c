/* qm-quote-store-copy.c: quotes, their revisions, the numbering and the
 * exchange rates copied between databases (quartermaster-cli db copy,
 * issue #23), checked by content hash.
 *
 * Rows are read and written column by column with the column's own type,
 * so a revision's texts (its frozen plan, terms and quote JSON) arrive
 * byte for byte, and a double reads back as the same double whichever way
 * it went (SQLite prints 15 digits, PostgreSQL the shortest exact text: the
 * hashes take the value, never the engine's text). A quote is found in TO
 * by its number and keeps TO's own id; a revision by its quote and letter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-quote-store-private.h"
#include "qm-supplier-store.h"

#define META_PATTERN  "quote_number_pattern"
#define META_SEQUENCE "quote_sequence"

/* Columns after id and plan_id, and their kinds: t text, i integer, d real. */
#define QUOTE_COLUMNS "number, plan_name, customer, project, prepared_by, state, payment_terms, terms," \
                      " created, modified, customer_vat"
static const char quote_kinds[] = "ttttttttiit";
enum { Q_ID, Q_PLAN, Q_NUMBER, Q_CREATED = Q_NUMBER + 8, Q_NCOLS = Q_NUMBER + 11 };

#define REVISION_COLUMNS "seq, letter, issued, valid_days, note, customer, currency, exchange_rate," \
                         " rate_date, rate_source, catalog_version, terms, plan, quote, exponent, gross," \
                         " created, customer_vat"
static const char revision_kinds[] = "ittitttdttttttiiit";

static const char rate_kinds[] = "ttdt";

typedef struct
{
  QmStore           *from;
  QmStore           *to;
  GHashTable        *plans;     /* ids TO holds as FROM does */
  QmQuoteCopyCounts *n;
  GPtrArray         *problems;
  gboolean           write;     /* FALSE: only compare (the check after) */
} Copy;

static void
hash_columns (GChecksum  *sum,
              QmDbStmt   *stmt,
              int         first,
              const char *kinds)
{
  for (int i = 0; kinds[i] != '\0'; i++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      int c = first + i;

      if (qm_db_column_is_null (stmt, c))
        qm_store_hash_text (sum, NULL);
      else if (kinds[i] == 'i')
        {
          g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, qm_db_column_int64 (stmt, c));
          qm_store_hash_text (sum, buf);
        }
      else if (kinds[i] == 'd')
        qm_store_hash_text (sum, g_ascii_dtostr (buf, sizeof buf, qm_db_column_double (stmt, c)));
      else
        qm_store_hash_text (sum, qm_db_column_text (stmt, c));
    }
}

/* SHA-256 over the row's columns from @first, led by @plan_id (0 for none). */
static char *
row_hash (QmDbStmt   *stmt,
          int         first,
          const char *kinds,
          gint64      plan_id)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *plan = g_strdup_printf ("%" G_GINT64_FORMAT, plan_id);

  qm_store_hash_text (sum, plan_id != 0 ? plan : NULL);
  hash_columns (sum, stmt, first, kinds);
  return g_strdup (g_checksum_get_string (sum));
}

/* Binds @src's columns from @first to @dst's parameters from @param. */
static void
bind_columns (QmDbStmt   *dst,
              int         param,
              QmDbStmt   *src,
              int         first,
              const char *kinds)
{
  for (int i = 0; kinds[i] != '\0'; i++)
    {
      int c = first + i;

      if (qm_db_column_is_null (src, c))
        qm_db_bind_null (dst, param + i);
      else if (kinds[i] == 'i')
        qm_db_bind_int64 (dst, param + i, qm_db_column_int64 (src, c));
      else if (kinds[i] == 'd')
        qm_db_bind_double (dst, param + i, qm_db_column_double (src, c));
      else
        qm_db_bind_text (dst, param + i, qm_db_column_text (src, c));
    }
}

static void
problem (Copy       *c,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static void
problem (Copy       *c,
         const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (c->problems, g_strdup_vprintf (format, args));
  va_end (args);
}

/* ------------------------------------------------------------------ */
/* Exchange rates and numbering.                                        */

/* Adds FROM's rates TO lacks and replaces those that differ, in one
 * transaction; when only comparing, counts the differences. */
static gboolean
copy_rates (Copy    *c,
            GError **error)
{
  const char *what = _("Could not copy the exchange rates");
  g_autoptr(QmDbStmt) src = NULL, find = NULL, put = NULL;
  QmDbStep step;

  if ((src = qm_store_query (c->from, "SELECT currency, date, rate_per_usd, source FROM exchange_rate"
                                      " ORDER BY currency, date", error)) == NULL ||
      (find = qm_store_query (c->to, "SELECT currency, date, rate_per_usd, source FROM exchange_rate"
                                     " WHERE currency = ?1 AND date = ?2", error)) == NULL ||
      (put = qm_store_query (c->to, "INSERT INTO exchange_rate (currency, date, rate_per_usd, source)"
                                    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (currency, date) DO UPDATE"
                                    " SET rate_per_usd = excluded.rate_per_usd, source = excluded.source",
                             error)) == NULL)
    return FALSE;
  if (c->write && !qm_store_begin (c->to, what, error))
    return FALSE;
  while ((step = qm_db_step (src)) == QM_DB_STEP_ROW)
    {
      g_autofree char *hash = row_hash (src, 0, rate_kinds, 0);
      g_autofree char *there = NULL;
      QmDbStep found;

      if (c->write)
        c->n->rates++;
      qm_db_reset (find);
      bind_columns (find, 1, src, 0, "tt");
      if ((found = qm_db_step (find)) == QM_DB_STEP_ERROR)
        goto fail;
      there = found == QM_DB_STEP_ROW ? row_hash (find, 0, rate_kinds, 0) : NULL;
      if (g_strcmp0 (hash, there) == 0)
        continue;
      if (!c->write)
        {
          /* Translators: a currency code (EUR), then a date (2026-01-31). */
          problem (c, _("the %s rate of %s differs after the copy"), qm_db_column_text (src, 0),
                   qm_db_column_text (src, 1));
          c->n->mismatched++;
          continue;
        }
      qm_db_reset (put);
      bind_columns (put, 1, src, 0, rate_kinds);
      if (qm_db_step (put) != QM_DB_STEP_DONE)
        goto fail;
      if (there != NULL)
        c->n->rates_replaced++;
      else
        c->n->rates_added++;
    }
  if (step == QM_DB_STEP_ERROR)
    {
      qm_store_db_fail (c->from, error, "%s", what);
      qm_store_rollback (c->to);
      return FALSE;
    }
  return !c->write || qm_store_commit (c->to, what, error);

fail:
  qm_store_db_fail (c->to, error, "%s", what);
  qm_store_rollback (c->to);
  return FALSE;
}

static gboolean
meta_put (QmStore    *store,
          const char *key,
          const char *value)
{
  g_autoptr(QmDbStmt) stmt = qm_store_query (store, "INSERT INTO meta (key, value) VALUES (?1, ?2)"
                                                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                             NULL);

  if (stmt == NULL)
    return FALSE;
  qm_db_bind_text (stmt, 1, key);
  qm_db_bind_text (stmt, 2, value);
  return qm_db_step (stmt) == QM_DB_STEP_DONE;
}

/* TO continues after the higher of the two sequences, so no number is
 * given out twice; it takes FROM's pattern unless it has one of its own
 * (a team server's numbering is not changed by a desktop's file). */
static gboolean
copy_numbering (Copy    *c,
                GError **error)
{
  const char *what = _("Could not copy the quote numbering");
  g_autofree char *pattern = qm_store_meta_get (c->from, META_PATTERN);
  g_autofree char *theirs = NULL, *next = NULL;
  guint64 from_seq = qm_quote_store_get_sequence (c->from);

  if (!qm_store_begin (c->to, what, error))
    return FALSE;
  if (!qm_quote_store_lock_numbering (c->to, what, error))
    {
      qm_store_rollback (c->to);
      return FALSE;
    }
  theirs = qm_store_meta_get (c->to, META_PATTERN);
  next = g_strdup_printf ("%" G_GUINT64_FORMAT, MAX (from_seq, qm_quote_store_get_sequence (c->to)));
  if ((pattern != NULL && theirs == NULL && !meta_put (c->to, META_PATTERN, pattern)) ||
      !meta_put (c->to, META_SEQUENCE, next))
    {
      qm_store_db_fail (c->to, error, "%s", what);
      qm_store_rollback (c->to);
      return FALSE;
    }
  if (pattern != NULL && theirs != NULL && strcmp (pattern, theirs) != 0)
    /* Translators: the two quote number patterns, such as Q-{YYYY}-{NNNN}. */
    problem (c, _("the other database numbers quotes as '%s' and keeps that (this one: '%s')"),
             theirs, pattern);
  return qm_store_commit (c->to, what, error);
}

/* The supplier details (issue #35 item 2), as the numbering pattern: TO
 * takes FROM's when it has none, and keeps its own when it has (a team
 * server's are the team's), saying so when they differ. */
static gboolean
copy_supplier (Copy    *c,
               GError **error)
{
  g_autoptr(QmSupplier) mine = qm_supplier_store_get (c->from, error);
  g_autoptr(QmSupplier) theirs = NULL;

  if (mine == NULL)
    return FALSE;
  if (qm_supplier_is_empty (mine))
    return TRUE;
  if ((theirs = qm_supplier_store_get (c->to, error)) == NULL)
    return FALSE;
  if (qm_supplier_is_empty (theirs))
    return qm_supplier_store_set (c->to, mine, error);
  if (!qm_supplier_equal (mine, theirs))
    /* Translators: after db copy; %s is the other database's supplier name. */
    problem (c, _("the other database has its own supplier details (%s) and keeps them"), theirs->name);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Quotes and revisions.                                                */

/* The plan a copied quote refers to in TO: the same id when TO holds that
 * plan as FROM does, else none. */
static gint64
plan_in_to (Copy     *c,
            QmDbStmt *src)
{
  gint64 id = qm_db_column_is_null (src, Q_PLAN) ? 0 : qm_db_column_int64 (src, Q_PLAN);

  return id != 0 && g_hash_table_contains (c->plans, &id) ? id : 0;
}

/* Writes the quote row of @src into TO: a new row, or over @there_id. */
static gboolean
put_quote (Copy      *c,
           QmDbStmt  *src,
           gint64     there_id,
           gint64    *id)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  gint64 plan = plan_in_to (c, src);

  if (there_id == 0)
    stmt = qm_store_query (c->to, "INSERT INTO quote (plan_id, " QUOTE_COLUMNS ")"
                                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)", NULL);
  else
    stmt = qm_store_query (c->to, "UPDATE quote SET plan_id = ?1, number = ?2, plan_name = ?3,"
                                  " customer = ?4, project = ?5, prepared_by = ?6, state = ?7,"
                                  " payment_terms = ?8, terms = ?9, created = ?10, modified = ?11,"
                                  " customer_vat = ?12 WHERE id = ?13", NULL);
  if (stmt == NULL)
    return FALSE;
  if (plan != 0)
    qm_db_bind_int64 (stmt, 1, plan);
  else
    qm_db_bind_null (stmt, 1);
  bind_columns (stmt, 2, src, Q_NUMBER, quote_kinds);
  qm_db_bind_int64 (stmt, 13, there_id);
  if (qm_db_step (stmt) != QM_DB_STEP_DONE)
    return FALSE;
  *id = there_id != 0 ? there_id : qm_db_last_insert_id (qm_store_connection (c->to));
  return *id > 0;
}

/* FROM's revisions of @from_id into TO's quote @to_id: the missing ones
 * added, the others compared. FALSE on a failure (@failed set when a
 * revision differs, which is never overwritten). */
static gboolean
copy_revisions (Copy       *c,
                const char *number,
                gint64      from_id,
                gint64      to_id,
                guint      *added,
                gboolean   *failed)
{
  g_autoptr(QmDbStmt) src = qm_store_query (c->from, "SELECT " REVISION_COLUMNS " FROM quote_revision"
                                                     " WHERE quote_id = ?1 ORDER BY seq", NULL);
  g_autoptr(QmDbStmt) find = qm_store_query (c->to, "SELECT " REVISION_COLUMNS " FROM quote_revision"
                                                    " WHERE quote_id = ?1 AND seq = ?2", NULL);
  g_autoptr(QmDbStmt) put = qm_store_query (c->to, "INSERT INTO quote_revision"
                                                   " (quote_id, " REVISION_COLUMNS ")"
                                                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
                                                   " ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)", NULL);
  QmDbStep step;

  if (src == NULL || find == NULL || put == NULL)
    return FALSE;
  qm_db_bind_int64 (src, 1, from_id);
  qm_db_bind_int64 (find, 1, to_id);
  while ((step = qm_db_step (src)) == QM_DB_STEP_ROW)
    {
      g_autofree char *hash = row_hash (src, 0, revision_kinds, 0);
      g_autofree char *there = NULL;
      QmDbStep found;

      qm_db_reset (find);
      qm_db_bind_int64 (find, 2, qm_db_column_int64 (src, 0));
      if ((found = qm_db_step (find)) == QM_DB_STEP_ERROR)
        return FALSE;
      if (found == QM_DB_STEP_ROW)
        {
          there = row_hash (find, 0, revision_kinds, 0);
          if (strcmp (hash, there) == 0)
            continue;
          /* Translators: a quote number, then a revision letter (A, B, ...). */
          problem (c, _("quote %s was not copied: the other database has a different revision %s; "
                     "a revision is never changed"), number, qm_db_column_text (src, 1));
          *failed = TRUE;
          return FALSE;
        }
      if (!c->write)
        {
          /* Translators: a revision letter (A, B, ...), then a quote number. */
          problem (c, _("revision %s of the quote %s is missing after the copy"), qm_db_column_text (src, 1),
                   number);
          *failed = TRUE;
          return FALSE;
        }
      qm_db_reset (put);
      qm_db_bind_int64 (put, 1, to_id);
      bind_columns (put, 2, src, 0, revision_kinds);
      if (qm_db_step (put) != QM_DB_STEP_DONE)
        return FALSE;
      (*added)++;
    }
  return step == QM_DB_STEP_DONE;
}

/* The quote at @src's row, in TO's transaction: found by its number; one
 * of TO's own under that number (another creation time) is never touched. */
static gboolean
copy_quote_locked (Copy     *c,
                   QmDbStmt *src,
                   gboolean *failed)
{
  const char *number = qm_db_column_text (src, Q_NUMBER);
  g_autoptr(QmDbStmt) find = qm_store_query (c->to, "SELECT id, plan_id, " QUOTE_COLUMNS
                                                    " FROM quote WHERE number = ?1", NULL);
  g_autofree char *hash = row_hash (src, Q_NUMBER, quote_kinds, plan_in_to (c, src));
  g_autofree char *there = NULL;
  gint64 there_id = 0, to_id = 0;
  guint added = 0;
  QmDbStep found;

  if (find == NULL)
    return FALSE;
  qm_db_bind_text (find, 1, number);
  if ((found = qm_db_step (find)) == QM_DB_STEP_ERROR)
    return FALSE;
  if (found == QM_DB_STEP_ROW)
    {
      there_id = qm_db_column_int64 (find, Q_ID);
      there = row_hash (find, Q_NUMBER, quote_kinds,
                        qm_db_column_is_null (find, Q_PLAN) ? 0 : qm_db_column_int64 (find, Q_PLAN));
      if (qm_db_column_int64 (find, Q_CREATED) != qm_db_column_int64 (src, Q_CREATED))
        {
          problem (c, _("quote %s was not copied: the other database has a different quote under "
                     "that number"), number);
          *failed = TRUE;
          return FALSE;
        }
    }
  to_id = there_id;
  if (g_strcmp0 (hash, there) != 0)
    {
      if (!c->write)
        {
          problem (c, _("quote %s differs after the copy"), number);
          *failed = TRUE;
          return FALSE;
        }
      if (!put_quote (c, src, there_id, &to_id))
        return FALSE;
    }
  if (!copy_revisions (c, number, qm_db_column_int64 (src, Q_ID), to_id, &added, failed))
    return FALSE;
  if (!c->write)
    return TRUE;
  c->n->revisions_added += added;
  if (there_id == 0)
    c->n->added++;
  else if (added > 0 || g_strcmp0 (hash, there) != 0)
    c->n->replaced++;
  else
    c->n->unchanged++;
  return TRUE;
}

/* One quote, all or nothing, in a transaction of its own so one that
 * cannot be copied leaves the others copied. */
static void
copy_quote (Copy     *c,
            QmDbStmt *src)
{
  const char *number = qm_db_column_text (src, Q_NUMBER);
  g_autofree char *what = g_strdup_printf (_("Could not copy the quote %s"), number);
  g_autoptr(GError) error = NULL;
  gboolean failed = FALSE;

  if (c->write && (!qm_store_begin (c->to, what, &error) ||
                   !qm_quote_store_lock_numbering (c->to, what, &error)))
    {
      qm_store_rollback (c->to);
      problem (c, "%s", error->message);
      c->n->failed++;
      return;
    }
  if (copy_quote_locked (c, src, &failed) && (!c->write || qm_store_commit (c->to, what, &error)))
    return;
  if (error == NULL && !failed)
    qm_store_db_fail (c->to, &error, "%s", what);
  if (c->write)
    qm_store_rollback (c->to);
  if (error != NULL)
    problem (c, "%s", error->message);
  if (c->write)
    c->n->failed++;
  else
    c->n->mismatched++;
}

/* Every quote of FROM, copied or (c->write FALSE) compared. */
static gboolean
each_quote (Copy       *c,
            GHashTable *skip,
            GError    **error)
{
  g_autoptr(QmDbStmt) src = qm_store_query (c->from, "SELECT id, plan_id, " QUOTE_COLUMNS
                                                     " FROM quote ORDER BY id", error);
  QmDbStep step;

  if (src == NULL)
    return FALSE;
  while ((step = qm_db_step (src)) == QM_DB_STEP_ROW)
    {
      const char *number = qm_db_column_text (src, Q_NUMBER);
      guint before = c->n->failed;

      if (skip != NULL && g_hash_table_contains (skip, number))
        continue;
      if (c->write)
        c->n->quotes++;
      copy_quote (c, src);
      if (c->write && c->n->failed > before)
        g_hash_table_add (skip, g_strdup (number));
    }
  if (step == QM_DB_STEP_ERROR)
    {
      qm_store_db_fail (c->from, error, _("Could not read the quotes"));
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_quote_store_copy (QmStore            *from,
                     QmStore            *to,
                     GArray             *plans,
                     QmQuoteCopyCounts  *counts,
                     GPtrArray          *problems,
                     GError            **error)
{
  g_autoptr(GHashTable) ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Copy c = { from, to, ids, counts, problems, TRUE };

  g_autoptr(QmDbStmt) all = qm_store_query (from, "SELECT count(*) FROM quote_revision", error);

  memset (counts, 0, sizeof *counts);
  if (all == NULL || qm_db_step (all) != QM_DB_STEP_ROW)
    {
      if (all != NULL)
        qm_store_db_fail (from, error, _("Could not read the quotes"));
      return FALSE;
    }
  counts->revisions = (guint) qm_db_column_int64 (all, 0);
  for (guint i = 0; i < plans->len; i++)
    g_hash_table_add (ids, &g_array_index (plans, gint64, i));

  if (!copy_rates (&c, error) || !copy_numbering (&c, error) || !copy_supplier (&c, error) ||
      !each_quote (&c, failed, error))
    return FALSE;
  /* Read back: every quote that was copied, and every rate, as in FROM. */
  c.write = FALSE;
  return copy_rates (&c, error) && each_quote (&c, failed, error);
}
