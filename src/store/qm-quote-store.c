/* qm-quote-store.c: numbered quotes, immutable revisions and exchange
 * rates (issue #22). The tables are migration step 3 → 4 in qm-store.c.
 *
 * A revision is frozen as the plan file with every hardware entry
 * embedded (so today's catalog and price overrides no longer reach it),
 * the exchange rate written into its quote section, and the quote JSON it
 * computed to. Loading rebuilds plan, estimate and quote from that plan
 * file alone and checks that they give the stored JSON again, so a
 * reprint cannot silently differ from what the customer was sent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-catalog.h"
#include "qm-plan-store.h"
#include "qm-quote-store-private.h"
#include "qm-supplier-store.h"
#include "qm-json-parse.h"

#define META_PATTERN  "quote_number_pattern"
#define META_SEQUENCE "quote_sequence"

static const char *state_names[] = { "draft", "sent", "accepted", "declined" };

const char *
qm_quote_state_to_string (QmQuoteState state)
{
  g_return_val_if_fail (state < G_N_ELEMENTS (state_names), "draft");
  return state_names[state];
}

gboolean
qm_quote_state_from_string (const char   *text,
                            QmQuoteState *state)
{
  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (state_names); i++)
    if (strcmp (text, state_names[i]) == 0)
      {
        *state = (QmQuoteState) i;
        return TRUE;
      }
  return FALSE;
}

GPtrArray *
qm_quote_store_collect (QmStore         *store,
                        QmDbStmt        *stmt,
                        QmQuoteRowFunc   row,
                        GDestroyNotify   free_func,
                        gpointer         user_data,
                        const char      *what,
                        GError         **error)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (free_func);
  QmDbStep step;

  while ((step = qm_db_step (stmt)) == QM_DB_STEP_ROW)
    {
      gpointer item = row (stmt, user_data);

      if (item != NULL)
        g_ptr_array_add (items, item);
    }
  if (step != QM_DB_STEP_DONE)
    {
      qm_store_db_fail (store, error, "%s", what);
      return NULL;
    }
  return g_steal_pointer (&items);
}

gboolean
qm_quote_date_parse (const char *text,
                     GDate      *out)
{
  int y, m, d;
  char end;

  if (text == NULL || sscanf (text, "%4d-%2d-%2d%c", &y, &m, &d, &end) != 3 ||
      strlen (text) != 10 || !g_date_valid_dmy (d, m, y))
    return FALSE;
  g_date_clear (out, 1);
  g_date_set_dmy (out, d, m, y);
  return TRUE;
}

void
qm_quote_date_format (const GDate *date,
                      char         buf[11])
{
  g_snprintf (buf, 11, "%04u-%02u-%02u", g_date_get_year (date), g_date_get_month (date),
              g_date_get_day (date));
}

/* ------------------------------------------------------------------ */
/* Numbering.                                                          */

char *
qm_quote_format_number (const char   *pattern,
                        const GDate  *date,
                        guint64       sequence,
                        GError      **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean has_sequence = FALSE;

  for (const char *p = pattern; *p != '\0';)
    {
      const char *end;
      gsize len;

      if (*p != '{')
        {
          g_string_append_c (out, *p++);
          continue;
        }
      end = strchr (p, '}');
      len = end != NULL ? (gsize) (end - p - 1) : 0;
      if (end != NULL && len == 4 && strncmp (p + 1, "YYYY", 4) == 0)
        g_string_append_printf (out, "%04u", g_date_get_year (date));
      else if (end != NULL && len == 2 && strncmp (p + 1, "YY", 2) == 0)
        g_string_append_printf (out, "%02u", g_date_get_year (date) % 100);
      else if (end != NULL && len == 2 && strncmp (p + 1, "MM", 2) == 0)
        g_string_append_printf (out, "%02u", (guint) g_date_get_month (date));
      else if (end != NULL && len >= 1 && len <= 12 && strspn (p + 1, "N") == len)
        {
          g_string_append_printf (out, "%0*" G_GUINT64_FORMAT, (int) len, sequence);
          has_sequence = TRUE;
        }
      else
        {
          g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                       /* Translators: the pattern, then the text from the unknown token on;
                        * {YYYY}, {YY}, {MM} and {NNNN} are tokens and stay as they are. */
                       _("The quote number pattern '%s' has an unknown token at '%s'; "
                         "use {YYYY}, {YY}, {MM} and {NNNN}"), pattern, p);
          return NULL;
        }
      p = end + 1;
    }
  if (!has_sequence)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: %s is the pattern; {NNNN} is a token and stays as it is. */
                   _("The quote number pattern '%s' needs a sequence token such as {NNNN}, "
                     "or two quotes would get the same number"), pattern);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
qm_quote_revision_letter (guint seq)
{
  char buf[16];
  int n = G_N_ELEMENTS (buf) - 1;

  g_return_val_if_fail (seq >= 1, g_strdup ("A"));
  /* Spreadsheet columns: A … Z, AA, AB … */
  buf[n] = '\0';
  for (; seq > 0; seq = (seq - 1) / 26)
    buf[--n] = (char) ('A' + (seq - 1) % 26);
  return g_strdup (buf + n);
}

static gboolean
meta_set (QmStore     *store,
          const char  *key,
          const char  *value,
          const char  *what,
          GError     **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;

  stmt = qm_store_query (store, "INSERT INTO meta (key, value) VALUES (?1, ?2)"
                                " ON CONFLICT (key) DO UPDATE SET value = excluded.value", error);
  if (stmt == NULL)
    return FALSE;
  qm_db_bind_text (stmt, 1, key);
  qm_db_bind_text (stmt, 2, value);
  return qm_store_query_done (store, stmt, error, "%s", what);
}

/* SQLite's BEGIN IMMEDIATE has serialised writers already; PostgreSQL
 * reads committed data per statement, so there the sequence's row is
 * locked (made first if the store has none yet) before anything is read. */
gboolean
qm_quote_store_lock_numbering (QmStore     *store,
                               const char  *what,
                               GError     **error)
{
  g_autoptr(QmDbStmt) make = NULL;
  g_autoptr(QmDbStmt) lock = NULL;

  if (qm_db_engine (qm_store_connection (store)) != QM_DB_POSTGRESQL)
    return TRUE;
  make = qm_store_query (store, "INSERT INTO meta (key, value) VALUES (?1, '0')"
                                " ON CONFLICT (key) DO NOTHING", error);
  if (make == NULL)
    return FALSE;
  qm_db_bind_text (make, 1, META_SEQUENCE);
  if (!qm_store_query_done (store, make, error, "%s", what))
    return FALSE;
  lock = qm_store_query (store, "SELECT value FROM meta WHERE key = ?1 FOR UPDATE", error);
  if (lock == NULL)
    return FALSE;
  qm_db_bind_text (lock, 1, META_SEQUENCE);
  if (qm_db_step (lock) != QM_DB_STEP_ROW)
    {
      qm_store_db_fail (store, error, "%s", what);
      return FALSE;
    }
  return TRUE;
}

char *
qm_quote_store_get_pattern (QmStore *store)
{
  char *pattern = qm_store_meta_get (store, META_PATTERN);

  return pattern != NULL ? pattern : g_strdup (QM_QUOTE_DEFAULT_PATTERN);
}

gboolean
qm_quote_store_set_pattern (QmStore     *store,
                            const char  *pattern,
                            GError     **error)
{
  g_autofree char *sample = NULL;
  GDate today;

  g_date_clear (&today, 1);
  g_date_set_dmy (&today, 1, 1, 2000);
  sample = qm_quote_format_number (pattern, &today, 1, error);
  if (sample == NULL)
    return FALSE;
  return qm_store_check_writable (store, _("Could not set the quote number pattern"), error) &&
         meta_set (store, META_PATTERN, pattern, _("Could not set the quote number pattern"), error);
}

guint64
qm_quote_store_get_sequence (QmStore *store)
{
  g_autofree char *text = qm_store_meta_get (store, META_SEQUENCE);

  return text != NULL ? g_ascii_strtoull (text, NULL, 10) : 0;
}

gboolean
qm_quote_store_set_sequence (QmStore     *store,
                             guint64      next,
                             GError     **error)
{
  const char *what = _("Could not set the quote sequence");
  g_autofree char *text = NULL;
  guint64 last;

  if (!qm_store_begin (store, what, error))
    return FALSE;
  if (!qm_quote_store_lock_numbering (store, what, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  last = qm_quote_store_get_sequence (store);
  if (next <= last)
    {
      qm_store_rollback (store);
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   /* Translators: what failed ("Could not set the quote sequence"), the
                    * database file or server, and the last quote number handed out. */
                   _("%s in %s: quote %llu was handed out already; the next must be above it"),
                   what, qm_store_path (store), (unsigned long long) last);
      return FALSE;
    }
  text = g_strdup_printf ("%" G_GUINT64_FORMAT, next - 1);
  if (!meta_set (store, META_SEQUENCE, text, what, error))
    {
      qm_store_rollback (store);
      return FALSE;
    }
  return qm_store_commit (store, what, error);
}

/* Inside the save's transaction: the next free number. A changed pattern
 * could meet a number given out under the old one, so skip those. */
static char *
take_number (QmStore      *store,
             const GDate  *issued,
             GError      **error)
{
  g_autofree char *pattern = qm_quote_store_get_pattern (store);
  g_autoptr(QmDbStmt) taken = qm_store_query (store, "SELECT 1 FROM quote WHERE number = ?1", error);
  guint64 seq = qm_quote_store_get_sequence (store);

  if (taken == NULL)
    return NULL;
  for (guint tries = 0; tries < 10000; tries++)
    {
      g_autofree char *number = qm_quote_format_number (pattern, issued, ++seq, error);
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, seq);
      QmDbStep step;

      if (number == NULL)
        return NULL;
      qm_db_reset (taken);
      qm_db_bind_text (taken, 1, number);
      if ((step = qm_db_step (taken)) == QM_DB_STEP_ROW)
        continue;
      if (step == QM_DB_STEP_ERROR)
        {
          qm_store_db_fail (store, error, _("Could not number the quote"));
          return NULL;
        }
      if (!meta_set (store, META_SEQUENCE, text, _("Could not number the quote"), error))
        return NULL;
      return g_steal_pointer (&number);
    }
  g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
               /* Translators: the database file or server, then the number pattern. */
               _("Could not number the quote in %s: every number the pattern '%s' gives is taken"),
               qm_store_path (store), pattern);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Revisions.                                                          */

void
qm_quote_summary_free (QmQuoteSummary *s)
{
  if (s == NULL)
    return;
  g_free (s->number);
  g_free (s->revision);
  g_free (s->plan_name);
  g_free (s->customer);
  g_free (s->project);
  g_free (s);
}

void
qm_quote_revision_free (QmQuoteRevision *r)
{
  if (r == NULL)
    return;
  g_free (r->number);
  g_free (r->revision);
  g_free (r->customer);
  g_free (r->customer_vat);
  g_free (r->project);
  g_free (r->prepared_by);
  g_free (r->payment_terms);
  g_free (r->terms);
  g_free (r->note);
  g_free (r->rate_source);
  g_free (r->catalog_version);
  g_free (r->terms_json);
  g_free (r->plan_json);
  g_free (r->quote_json);
  g_free (r->plan);
  g_free (r->estimate);
  g_free (r->quote);
  qm_supplier_free (r->supplier);
  g_free (r);
}

void
qm_quote_revision_header (const QmQuoteRevision *r,
                          QmQuoteHeader         *header)
{
  memset (header, 0, sizeof *header);
  header->number = r->number;
  header->revision = r->revision;
  header->customer = r->customer;
  header->customer_vat = r->customer_vat;
  header->supplier = r->supplier;
  header->issued = r->issued;
  header->valid_days = r->valid_days;
  header->project = r->project;
  header->prepared_by = r->prepared_by;
  header->payment_terms = r->payment_terms;
  header->terms = r->terms;
}

/* Estimates @plan and computes its quote; FALSE with the first input
 * error. */
static gboolean
compute (QmPlan      *plan,
         QmEstimate  *estimate,
         QmQuote     *quote,
         const char  *what,
         GError     **error)
{
  char buf[1024];

  qm_estimate (plan, estimate);
  if (!estimate->valid || estimate->n_errors > 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("%s: %s"), what,
                   estimate->n_warnings > 0 ? qm_note_format (&estimate->warnings[0], buf, sizeof buf)
                                            : _("the plan cannot be estimated"));
      return FALSE;
    }
  qm_estimate_quote (plan, estimate, quote);
  for (guint i = 0; i < quote->issues.n; i++)
    if (quote->issues.items[i].level == QM_ISSUE_ERROR)
      {
        g_autofree char *text = qm_issue_to_string (&quote->issues.items[i]);

        g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("%s: %s"), what, text);
        return FALSE;
      }
  return TRUE;
}

/* The quote's JSON as on its issue date, compact: what a revision stores
 * and what a reprint must give again. */
static char *
quote_json (const QmQuoteHeader *header,
            const QmQuote       *quote)
{
  g_autoptr(JsonNode) node = qm_quote_to_json_node (header, quote, &header->issued);
  g_autoptr(JsonGenerator) gen = json_generator_new ();

  json_generator_set_root (gen, node);
  return json_generator_to_data (gen, NULL);
}

/* @quote's JSON as a revision frozen before lines had keys (issue #35)
 * stored it: the same, without each line's "key". */
static char *
quote_json_without_keys (const QmQuoteHeader *header,
                         const QmQuote       *quote)
{
  g_autoptr(JsonNode) node = qm_quote_to_json_node (header, quote, &header->issued);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  JsonArray *lines = json_object_get_array_member (json_node_get_object (node), "lines");

  for (guint i = 0; lines != NULL && i < json_array_get_length (lines); i++)
    json_object_remove_member (json_array_get_object_element (lines, i), "key");
  json_generator_set_root (gen, node);
  return json_generator_to_data (gen, NULL);
}

/* The plan file's "quote" section of @plan_json. */
static char *
terms_json (const char *plan_json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  JsonObject *root;

  if (!qm_json_parser_load (parser, plan_json, -1, NULL))
    return g_strdup ("{}");
  root = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (root, "quote"))
    return g_strdup ("{}");
  json_generator_set_root (gen, json_object_get_member (root, "quote"));
  return json_generator_to_data (gen, NULL);
}

/* What a new revision freezes. */
typedef struct
{
  QmPlan     *plan;
  QmEstimate *estimate;
  QmQuote    *quote;
  char       *plan_json;
  char       *rate_source;
  GDate       rate_date;
} Frozen;

static void
frozen_clear (Frozen *f)
{
  g_clear_pointer (&f->plan, g_free);
  g_clear_pointer (&f->estimate, g_free);
  g_clear_pointer (&f->quote, g_free);
  g_clear_pointer (&f->plan_json, g_free);
  g_clear_pointer (&f->rate_source, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Frozen, frozen_clear)

/* Reads the saved plan through the store, fixes its exchange rate, and
 * writes it out with every hardware entry embedded; then reads that back
 * alone and computes, exactly as a reprint will. */
static gboolean
freeze (QmStore            *store,
        const QmSavedPlan  *saved,
        const GDate        *issued,
        Frozen             *f,
        GError            **error)
{
  g_autofree QmPlan *live = g_new0 (QmPlan, 1);
  g_autofree char *what = g_strdup_printf (_("Could not quote the saved plan '%s'"), saved->name);
  g_autoptr(GError) local = NULL;
  QmQuoteTerms *terms = &live->quote;

  if (!qm_plan_store_read_plan (store, saved->inputs, live, NULL, &local))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID, _("%s: %s"), what, local->message);
      return FALSE;
    }
  if (terms->currency[0] == '\0')
    g_strlcpy (terms->currency, "USD", sizeof terms->currency);
  f->rate_date = *issued;
  if (terms->exchange_rate > 0)
    f->rate_source = g_strdup ("plan file");
  else if (strcmp (terms->currency, "USD") == 0)
    {
      terms->exchange_rate = 1.0;
      f->rate_source = g_strdup ("US dollar");
    }
  else
    {
      g_autoptr(QmExchangeRate) rate = qm_quote_store_find_rate (store, terms->currency, issued, error);

      if (rate == NULL)
        return FALSE;
      terms->exchange_rate = rate->rate_per_usd;
      f->rate_date = rate->date;
      f->rate_source = g_strdup (rate->source);
    }

  live->has_quote = TRUE;
  live->gpu_embedded = live->server_embedded = TRUE;
  live->network_embedded = live->storage_embedded = TRUE;
  f->plan_json = qm_plan_to_data (live, NULL);

  f->plan = g_new0 (QmPlan, 1);
  f->estimate = g_new0 (QmEstimate, 1);
  f->quote = g_new0 (QmQuote, 1);
  if (!qm_plan_load_from_data (f->plan, f->plan_json, -1, NULL, &local))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
                   /* Translators: what failed ("Could not quote the saved plan 'NAME'"),
                    * then the plan reader's message. */
                   _("%s: the frozen plan does not read back: %s"), what, local->message);
      return FALSE;
    }
  if (!compute (f->plan, f->estimate, f->quote, what, error))
    return FALSE;
  /* Discounts of files written before per-line terms, one per catalog id,
   * are frozen as the lines they priced, each under its own key (issue
   * #35): the same figures, and a later revision that changes one line
   * leaves the others as they were. */
  for (guint i = 0; i < f->plan->quote.n_items; i++)
    if (f->plan->quote.items[i].key[0] == '\0')
      {
        qm_quote_terms_split (&f->plan->quote, f->quote);
        g_free (f->plan_json);
        f->plan_json = qm_plan_to_data (f->plan, NULL);
        break;
      }
  return TRUE;
}

static void
bind_or_default (QmDbStmt   *stmt,
                 int         index,
                 const char *value,
                 const char *fallback)
{
  qm_db_bind_text (stmt, index, value != NULL ? value : fallback != NULL ? fallback : "");
}

/* Inside the transaction: the plan's newest quote, or a new numbered one;
 * the request's texts replace the quote's. Returns its id, or 0. */
static gint64
upsert_quote (QmStore               *store,
              const QmSavedPlan     *saved,
              const QmQuoteRequest  *req,
              char                 **number,
              GError               **error)
{
  g_autoptr(QmDbStmt) find = NULL;
  g_autoptr(QmDbStmt) write = NULL;
  gint64 id = 0;
  QmDbStep step;

  find = qm_store_query (store, "SELECT id, number FROM quote WHERE plan_id = ?1 ORDER BY id DESC LIMIT 1",
                         error);
  if (find == NULL)
    return 0;
  qm_db_bind_int64 (find, 1, saved->id);
  step = qm_db_step (find);
  if (step == QM_DB_STEP_ERROR)
    {
      qm_store_db_fail (store, error, _("Could not look up the quote of the plan '%s'"), saved->name);
      return 0;
    }
  if (step == QM_DB_STEP_ROW)
    {
      id = qm_db_column_int64 (find, 0);
      *number = qm_db_column_dup (find, 1);
      write = qm_store_query (store,
                              "UPDATE quote SET customer = coalesce (?2, customer),"
                              " customer_vat = coalesce (?10, customer_vat),"
                              " project = coalesce (?3, project), prepared_by = coalesce (?4, prepared_by),"
                              " payment_terms = coalesce (?5, payment_terms), terms = coalesce (?6, terms),"
                              " plan_name = ?7, modified = ?8 WHERE id = ?1", error);
      if (write == NULL)
        return 0;
      qm_db_bind_int64 (write, 1, id);
      qm_db_bind_text (write, 2, req->customer);
      qm_db_bind_text (write, 3, req->project);
      qm_db_bind_text (write, 4, req->prepared_by);
      qm_db_bind_text (write, 5, req->payment_terms);
      qm_db_bind_text (write, 6, req->terms);
      qm_db_bind_text (write, 10, req->customer_vat);
    }
  else
    {
      *number = take_number (store, &req->issued, error);
      if (*number == NULL)
        return 0;
      write = qm_store_query (store,
                              "INSERT INTO quote (number, customer, project, prepared_by, payment_terms,"
                              " terms, plan_name, modified, created, plan_id, customer_vat)"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10)", error);
      if (write == NULL)
        return 0;
      qm_db_bind_text (write, 1, *number);
      bind_or_default (write, 2, req->customer, saved->customer);
      bind_or_default (write, 3, req->project, saved->name);
      bind_or_default (write, 4, req->prepared_by, g_get_real_name ());
      bind_or_default (write, 5, req->payment_terms, NULL);
      bind_or_default (write, 6, req->terms, NULL);
      qm_db_bind_int64 (write, 9, saved->id);
      bind_or_default (write, 10, req->customer_vat, NULL);
    }
  qm_db_bind_text (write, 7, saved->name);
  qm_db_bind_int64 (write, 8, qm_store_now (store));
  if (!qm_store_query_done (store, write, error, _("Could not save the quote %s"), *number))
    return 0;
  if (id != 0)
    return id;
  if ((id = qm_db_last_insert_id (qm_store_connection (store))) <= 0)
    qm_store_db_fail (store, error, _("Could not save the quote %s"), *number);
  return MAX (id, 0);
}

/* Inside the transaction: the revision row. Returns its letter. */
static char *
insert_revision (QmStore               *store,
                 gint64                 quote_id,
                 const char            *number,
                 const QmQuoteRequest  *req,
                 const Frozen          *f,
                 GError               **error)
{
  g_autoptr(QmDbStmt) next = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autofree char *letter = NULL, *terms = NULL, *json = NULL, *customer = NULL, *customer_vat = NULL;
  QmQuoteHeader header = { 0 };
  char issued[11], rate_date[11];
  guint seq;

  next = qm_store_query (store, "SELECT coalesce (max (seq), 0) + 1, (SELECT customer FROM quote"
                                " WHERE id = ?1), (SELECT customer_vat FROM quote WHERE id = ?1)"
                                " FROM quote_revision WHERE quote_id = ?1", error);
  if (next == NULL)
    return NULL;
  qm_db_bind_int64 (next, 1, quote_id);
  if (qm_db_step (next) != QM_DB_STEP_ROW)
    {
      qm_store_db_fail (store, error, _("Could not read the revisions of %s"), number);
      return NULL;
    }
  seq = (guint) qm_db_column_int64 (next, 0);
  customer = qm_db_column_dup (next, 1);
  customer_vat = qm_db_column_dup (next, 2);
  letter = qm_quote_revision_letter (seq);

  header.number = number;
  header.revision = letter;
  header.customer = customer;
  header.issued = req->issued;
  header.valid_days = f->plan->quote.valid_days;
  json = quote_json (&header, f->quote);
  terms = terms_json (f->plan_json);
  qm_quote_date_format (&req->issued, issued);
  qm_quote_date_format (&f->rate_date, rate_date);

  stmt = qm_store_query (store,
                         "INSERT INTO quote_revision (quote_id, seq, letter, issued, valid_days, note,"
                         " customer, currency, exchange_rate, rate_date, rate_source, catalog_version,"
                         " terms, plan, quote, exponent, gross, created, customer_vat)"
                         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
                         " ?16, ?17, ?18, ?19)", error);
  if (stmt == NULL)
    return NULL;
  qm_db_bind_int64 (stmt, 1, quote_id);
  qm_db_bind_int64 (stmt, 2, seq);
  qm_db_bind_text (stmt, 3, letter);
  qm_db_bind_text (stmt, 4, issued);
  qm_db_bind_int64 (stmt, 5, header.valid_days);
  bind_or_default (stmt, 6, req->note, NULL);
  qm_db_bind_text (stmt, 7, customer);
  qm_db_bind_text (stmt, 8, f->quote->currency);
  qm_db_bind_double (stmt, 9, f->quote->exchange_rate);
  qm_db_bind_text (stmt, 10, rate_date);
  qm_db_bind_text (stmt, 11, f->rate_source);
  qm_db_bind_text (stmt, 12, qm_catalog_version ());
  qm_db_bind_text (stmt, 13, terms);
  qm_db_bind_text (stmt, 14, f->plan_json);
  qm_db_bind_text (stmt, 15, json);
  qm_db_bind_int64 (stmt, 16, f->quote->exponent);
  qm_db_bind_int64 (stmt, 17, f->quote->gross);
  qm_db_bind_int64 (stmt, 18, qm_store_now (store));
  qm_db_bind_text (stmt, 19, customer_vat);
  /* Translators: a revision letter (A, B, ...), then a quote number. */
  if (!qm_store_query_done (store, stmt, error, _("Could not save revision %s of the quote %s"),
                            letter, number))
    return NULL;
  return g_steal_pointer (&letter);
}

QmQuoteRevision *
qm_quote_store_save_revision (QmStore               *store,
                              const QmQuoteRequest  *req,
                              GError               **error)
{
  const char *what = _("Could not save the quote");
  g_autoptr(QmSavedPlan) saved = NULL;
  g_auto(Frozen) f = { 0 };
  g_autofree char *number = NULL, *letter = NULL;
  gint64 quote_id;

  g_return_val_if_fail (g_date_valid (&req->issued), NULL);

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_QUOTES, what, error))
    return NULL;
  saved = qm_plan_store_load (store, req->plan_id, error);
  if (saved == NULL || !freeze (store, saved, &req->issued, &f, error))
    return NULL;

  if (!qm_store_begin (store, what, error))
    return NULL;
  quote_id = 0;
  if (qm_quote_store_lock_numbering (store, what, error))
    quote_id = upsert_quote (store, saved, req, &number, error);
  if (quote_id != 0)
    letter = insert_revision (store, quote_id, number, req, &f, error);
  if (letter != NULL && !qm_store_notify (store, QM_STORE_CHANGE_QUOTES, error))
    g_clear_pointer (&letter, g_free);
  if (letter == NULL)
    {
      qm_store_rollback (store);
      return NULL;
    }
  if (!qm_store_commit (store, what, error))
    return NULL;
  return qm_quote_store_load_revision (store, number, letter, error);
}

/* Rebuilds plan, estimate and quote from the frozen plan file and checks
 * them against the frozen JSON. */
static gboolean
rebuild (QmQuoteRevision  *r,
         GError          **error)
{
  /* Translators: a revision letter (A, B, ...) and a quote number; the
   * subject of the two messages that follow ("... no longer computes"). */
  g_autofree char *what = g_strdup_printf (_("Revision %s of the quote %s"), r->revision, r->number);
  g_autofree char *again = NULL;
  g_autoptr(GError) local = NULL;
  QmQuoteHeader header;

  r->plan = g_new0 (QmPlan, 1);
  r->estimate = g_new0 (QmEstimate, 1);
  r->quote = g_new0 (QmQuote, 1);
  if (!qm_plan_load_from_data (r->plan, r->plan_json, -1, NULL, &local))
    {
      /* Translators: "Revision A of the quote Q-2026-0001", then the plan
       * reader's message. */
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_CORRUPT, _("%s: its frozen plan does not read: %s"),
                   what, local->message);
      return FALSE;
    }
  if (!compute (r->plan, r->estimate, r->quote, what, error))
    return FALSE;
  qm_quote_revision_header (r, &header);
  /* The frozen JSON is the figures' and the header's of before the VAT
   * id (its own column): a revision copied or salvaged without that
   * column still reads. */
  header.customer_vat = NULL;
  again = quote_json (&header, r->quote);
  /* A revision frozen before lines had keys has none in its JSON; its
   * figures must still be the same. */
  if (strcmp (again, r->quote_json) != 0 && strstr (r->quote_json, "\"key\":") == NULL)
    {
      g_free (again);
      again = quote_json_without_keys (&header, r->quote);
    }
  if (strcmp (again, r->quote_json) != 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
                   _("%s no longer computes to the figures it froze (this version of Quartermaster "
                     "prices quotes differently); its stored JSON is unchanged"), what);
      return FALSE;
    }
  return TRUE;
}

QmQuoteRevision *
qm_quote_store_load_revision (QmStore     *store,
                              const char  *number,
                              const char  *revision,
                              GError     **error)
{
  g_autoptr(QmQuoteRevision) r = NULL;
  g_autoptr(QmDbStmt) stmt = NULL;
  QmDbStep step;

  stmt = qm_store_query (store,
                         "SELECT q.number, r.letter, r.seq, r.customer, q.project, q.prepared_by,"
                         " q.payment_terms, q.terms, q.state, r.issued, r.valid_days, r.note,"
                         " r.exchange_rate, r.rate_date, r.rate_source, r.catalog_version, r.terms,"
                         " r.plan, r.quote, r.customer_vat"
                         " FROM quote q JOIN quote_revision r ON r.quote_id = q.id"
                         " WHERE q.number = ?1 AND (CAST (?2 AS TEXT) IS NULL OR r.letter = ?2)"
                         " ORDER BY r.seq DESC LIMIT 1", error);
  if (stmt == NULL)
    return NULL;
  qm_db_bind_text (stmt, 1, number);
  qm_db_bind_text (stmt, 2, revision);
  step = qm_db_step (stmt);
  if (step == QM_DB_STEP_DONE)
    {
      if (revision != NULL)
        g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                     /* Translators: a revision letter (A, B, ...), a quote number, and the
                      * database file or server. */
                     _("No revision %s of the quote %s in %s"), revision, number, qm_store_path (store));
      else
        g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                     _("No quote %s in %s"), number, qm_store_path (store));
      return NULL;
    }
  if (step != QM_DB_STEP_ROW)
    {
      qm_store_db_fail (store, error, _("Could not read the quote %s"), number);
      return NULL;
    }

  r = g_new0 (QmQuoteRevision, 1);
  r->number = qm_db_column_dup (stmt, 0);
  r->revision = qm_db_column_dup (stmt, 1);
  r->seq = (guint) qm_db_column_int64 (stmt, 2);
  r->customer = qm_db_column_dup (stmt, 3);
  r->project = qm_db_column_dup (stmt, 4);
  r->prepared_by = qm_db_column_dup (stmt, 5);
  r->payment_terms = qm_db_column_dup (stmt, 6);
  r->terms = qm_db_column_dup (stmt, 7);
  qm_quote_state_from_string (qm_db_column_text (stmt, 8), &r->state);
  qm_quote_date_parse (qm_db_column_text (stmt, 9), &r->issued);
  r->valid_days = (guint) qm_db_column_int64 (stmt, 10);
  r->note = qm_db_column_dup (stmt, 11);
  r->exchange_rate = qm_db_column_double (stmt, 12);
  qm_quote_date_parse (qm_db_column_text (stmt, 13), &r->rate_date);
  r->rate_source = qm_db_column_dup (stmt, 14);
  r->catalog_version = qm_db_column_dup (stmt, 15);
  r->terms_json = qm_db_column_dup (stmt, 16);
  r->plan_json = qm_db_column_dup (stmt, 17);
  r->quote_json = qm_db_column_dup (stmt, 18);
  r->customer_vat = qm_db_column_dup (stmt, 19);
  if (!rebuild (r, error))
    return NULL;
  /* After the rebuild: the frozen JSON has no supplier. */
  r->supplier = qm_supplier_store_get (store, error);
  if (r->supplier == NULL)
    return NULL;
  return g_steal_pointer (&r);
}

static gpointer
letter_from_row (QmDbStmt *stmt,
                  gpointer  user_data)
{
  return qm_db_column_dup (stmt, 0);
}

GPtrArray *
qm_quote_store_list_revisions (QmStore     *store,
                               const char  *number,
                               GError     **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autofree char *what = g_strdup_printf (_("Could not list the revisions of %s"), number);

  stmt = qm_store_query (store, "SELECT r.letter FROM quote q JOIN quote_revision r ON r.quote_id = q.id"
                                " WHERE q.number = ?1 ORDER BY r.seq", error);
  if (stmt == NULL)
    return NULL;
  qm_db_bind_text (stmt, 1, number);
  return qm_quote_store_collect (store, stmt, letter_from_row, g_free, NULL, what, error);
}

/* A row of the list, unless its customer lacks the casefolded @needle. */
static gpointer
summary_from_row (QmDbStmt *stmt,
                   gpointer  needle)
{
  g_autoptr(QmQuoteSummary) s = NULL;
  g_autofree char *folded = g_utf8_casefold (qm_db_column_text (stmt, 5), -1);

  if (needle != NULL && strstr (folded, needle) == NULL)
    return NULL;
  s = g_new0 (QmQuoteSummary, 1);
  s->id = qm_db_column_int64 (stmt, 0);
  s->number = qm_db_column_dup (stmt, 1);
  s->revision = qm_db_column_dup (stmt, 2);
  s->plan_id = qm_db_column_int64 (stmt, 3);
  s->plan_name = qm_db_column_dup (stmt, 4);
  s->customer = qm_db_column_dup (stmt, 5);
  s->project = qm_db_column_dup (stmt, 6);
  qm_quote_state_from_string (qm_db_column_text (stmt, 7), &s->state);
  qm_quote_date_parse (qm_db_column_text (stmt, 8), &s->issued);
  s->valid_days = (guint) qm_db_column_int64 (stmt, 9);
  g_strlcpy (s->currency, qm_db_column_text (stmt, 10), sizeof s->currency);
  s->exponent = qm_db_column_int64 (stmt, 11);
  s->gross = qm_db_column_int64 (stmt, 12);
  return g_steal_pointer (&s);
}

GPtrArray *
qm_quote_store_list (QmStore             *store,
                     const char          *customer,
                     const QmQuoteState  *state,
                     GError             **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  g_autofree char *needle = customer != NULL && customer[0] ? g_utf8_casefold (customer, -1) : NULL;

  stmt = qm_store_query (store,
                         "SELECT q.id, q.number, r.letter, coalesce (q.plan_id, 0), q.plan_name,"
                         " q.customer, q.project, q.state, r.issued, r.valid_days, r.currency,"
                         " r.exponent, r.gross"
                         " FROM quote q JOIN quote_revision r ON r.quote_id = q.id"
                         " AND r.seq = (SELECT max (seq) FROM quote_revision WHERE quote_id = q.id)"
                         " WHERE CAST (?1 AS TEXT) IS NULL OR q.state = ?1 ORDER BY q.id DESC", error);
  if (stmt == NULL)
    return NULL;
  qm_db_bind_text (stmt, 1, state != NULL ? qm_quote_state_to_string (*state) : NULL);
  return qm_quote_store_collect (store, stmt, summary_from_row, (GDestroyNotify) qm_quote_summary_free,
                                 needle, _("Could not list the quotes"), error);
}

char *
qm_quote_store_find_for_plan (QmStore  *store,
                              gint64    plan_id,
                              GError  **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;
  QmDbStep step;

  stmt = qm_store_query (store, "SELECT number FROM quote WHERE plan_id = ?1 ORDER BY id DESC LIMIT 1",
                         error);
  if (stmt == NULL)
    return NULL;
  qm_db_bind_int64 (stmt, 1, plan_id);
  step = qm_db_step (stmt);
  if (step == QM_DB_STEP_ROW)
    return qm_db_column_dup (stmt, 0);
  if (step != QM_DB_STEP_DONE)
    /* Translators: %lld is the saved plan's number. */
    qm_store_db_fail (store, error, _("Could not look up the quote of plan %lld"),
                      (long long) plan_id);
  return NULL;
}

gboolean
qm_quote_store_set_state (QmStore       *store,
                          const char    *number,
                          QmQuoteState   state,
                          GError       **error)
{
  g_autoptr(QmDbStmt) stmt = NULL;

  if (!qm_store_check_right (store, QM_STORE_RIGHT_EDIT_QUOTES, _("Could not change the quote's state"),
                             error))
    return FALSE;
  stmt = qm_store_query (store, "UPDATE quote SET state = ?2, modified = ?3 WHERE number = ?1", error);
  if (stmt == NULL)
    return FALSE;
  qm_db_bind_text (stmt, 1, number);
  qm_db_bind_text (stmt, 2, qm_quote_state_to_string (state));
  qm_db_bind_int64 (stmt, 3, qm_store_now (store));
  if (!qm_store_query_done (store, stmt, error, _("Could not change the state of the quote %s"), number))
    return FALSE;
  if (qm_db_changes (qm_store_connection (store)) == 0)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND,
                   _("No quote %s in %s"), number, qm_store_path (store));
      return FALSE;
    }
  /* One statement, committed already: the notice goes on its own. */
  return qm_store_notify (store, QM_STORE_CHANGE_QUOTES, error);
}
