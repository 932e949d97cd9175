/* qm-cli-quote.c: quartermaster-cli quote PLAN [--date YYYY-MM-DD] [-o Q.pdf|Q.xlsx|Q.csv] [--json]
 *                                     quote PLAN --save [--date D] [--note TEXT] ...
 *                                     quote show NUMBER [--revision B] [-o ...] [--json]
 *                                     quote list [--customer C] [--state S] [--json]
 *                                     quote state NUMBER STATE
 *
 * Without --save, a quote from a plan file's quote section (or a saved
 * plan's) without a store's numbering: a draft, dated today unless --date
 * says otherwise. --save numbers the quote of a saved plan in the store
 * (or adds its next revision); show reprints a stored revision from its
 * frozen data alone, so it reads the same next year (qm-quote-store.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "qm-cli.h"
#include "qm-cli-report.h"
#include "qm-cli-commands.h"
#include "qm-estimate.h"
#include "qm-plan-store.h"
#include "qm-price-age.h"
#include "qm-text.h"
#include "qm-quote-diff.h"
#include "qm-quote-json.h"
#include "qm-quote-store.h"
#include "qm-supplier-store.h"
#include "qm-quote-report.h"
#include "qm-quote-csv.h"
#include "qm-quote-xlsx.h"

/* The lines as the PDF, workbook and CSV give them, each with its own
 * discount (issue #35): "–" for a line at list. */
static void
print_lines (const QmQuote *q)
{
  char list[64], net[64], total[64], discount[32];

  qm_cli_print ("%s %s %s %s %s %s\n", qm_cli_cell (_("Item"), -34), qm_cli_cell (_("Qty"), 8),
                qm_cli_cell (_("List unit"), 20), qm_cli_cell (_("Discount"), 9),
                qm_cli_cell (_("Net unit"), 20), qm_cli_cell (_("Total"), 22));
  for (guint i = 0; i < q->n_lines; i++)
    {
      const QmQuoteLine *l = &q->lines[i];
      g_autofree char *item = qm_quote_line_label (l);
      g_autofree char *label = g_strdup_printf ("%s%s", item,
                                                /* Translators: after a quote line the customer dropped. */
                                                l->accepted ? "" : _(" (declined)"));

      qm_money_format (list, sizeof list, l->list_unit, q->exponent, NULL);
      qm_money_format (net, sizeof net, l->net_unit, q->exponent, NULL);
      qm_money_format (total, sizeof total, l->total, q->exponent, NULL);
      /* As the PDF rounds it (qm-quote-report.c). */
      if (l->discount > 0.00005)
        g_snprintf (discount, sizeof discount, "%s %%", qm_cli_num (l->discount * 100.0, 1));
      else
        g_strlcpy (discount, "–", sizeof discount);
      qm_cli_print ("%s %s %s %s %s %s\n", qm_cli_cell (label, -34),
                    qm_cli_cell (qm_cli_num (l->qty, l->qty == (guint64) l->qty ? 0 : 2), 8),
                    qm_cli_cell (list, 20), qm_cli_cell (discount, 9), qm_cli_cell (net, 20),
                    qm_cli_cell (total, 22));
    }
}

static void
print_totals (const QmQuote *q,
              double         tax_rate)
{
  char buf[64];
  g_autofree char *tax_label = g_strdup_printf (_("Tax (%s %%)"), qm_cli_num (tax_rate * 100.0, 1));

  qm_cli_print ("%s %s\n", qm_cli_cell (_("Net"), -96),
                qm_cli_cell (qm_money_format (buf, sizeof buf, q->net, q->exponent, q->currency), 22));
  qm_cli_print ("%s %s\n", qm_cli_cell (tax_label, -96),
                qm_cli_cell (qm_money_format (buf, sizeof buf, q->tax, q->exponent, q->currency), 22));
  qm_cli_print ("%s %s\n", qm_cli_cell (_("Gross"), -96),
                qm_cli_cell (qm_money_format (buf, sizeof buf, q->gross, q->exponent, q->currency), 22));
}

static void
print_schedule (const QmQuote *q)
{
  char buf[64], rent[64];

  for (guint k = 0; k < q->n_phases; k++)
    /* Translators: a delivery of a quote; month 0 is the month of the order. */
    qm_cli_print (_("Delivery in month %u: %s %% of the nodes in place\n"), q->delivery_month[k],
                  qm_cli_num (q->delivered_fraction[k] * 100.0, 0));
  qm_cli_print (_("Training can start in month %u.\n"), q->training_start_month);
  qm_cli_print (_("Cash out over %u months: %s; renting the same GPUs: %s.\n"), q->n_months,
                qm_money_format (buf, sizeof buf, q->spend_total, q->exponent, q->currency),
                qm_money_format (rent, sizeof rent, q->rent_total, q->exponent, q->currency));
  if (q->break_even_valid)
    qm_cli_print (_("Buying costs less than renting from month %u on.\n"), q->break_even_month);
}

/* Which form of the command: the options each one takes are below. */
typedef enum
{
  SUB_DRAFT = 1 << 0,
  SUB_SAVE  = 1 << 1,
  SUB_SHOW  = 1 << 2,
  SUB_LIST  = 1 << 3,
  SUB_STATE = 1 << 4,
} Sub;

typedef struct
{
  Sub         sub;
  const char *args[2];    /* PLAN, or NUMBER [STATE] */
  guint       n_args;
  const char *out;
  gboolean    json;
  GDate       issued;
  GDate       today;
  const char *date;
  const char *note;
  const char *customer;
  const char *customer_vat;
  const char *project;
  const char *prepared_by;
  const char *payment_terms;
  const char *terms;
  const char *revision;
  const char *state;
  const char *format;
  const char *max_price_age;
  guint       max_price_age_months;  /* --max-price-age, else the default */
  char       *resolved_out;   /* -o as qm_cli_output_resolve () gives it */
} QuoteArgs;

/* The options with a value, and the forms that take them. */
static const struct
{
  const char *name;
  gsize       offset;
  guint       subs;
} value_options[] = {
  { "--date",        G_STRUCT_OFFSET (QuoteArgs, date),        SUB_DRAFT | SUB_SAVE },
  { "--output",      G_STRUCT_OFFSET (QuoteArgs, out),         SUB_DRAFT | SUB_SAVE | SUB_SHOW },
  { "-o",            G_STRUCT_OFFSET (QuoteArgs, out),         SUB_DRAFT | SUB_SAVE | SUB_SHOW },
  { "--note",        G_STRUCT_OFFSET (QuoteArgs, note),        SUB_SAVE },
  { "--customer",    G_STRUCT_OFFSET (QuoteArgs, customer),    SUB_SAVE | SUB_LIST },
  { "--project",     G_STRUCT_OFFSET (QuoteArgs, project),     SUB_SAVE },
  { "--customer-vat", G_STRUCT_OFFSET (QuoteArgs, customer_vat), SUB_SAVE },
  { "--prepared-by", G_STRUCT_OFFSET (QuoteArgs, prepared_by), SUB_SAVE },
  { "--payment-terms", G_STRUCT_OFFSET (QuoteArgs, payment_terms), SUB_SAVE },
  { "--terms",       G_STRUCT_OFFSET (QuoteArgs, terms),       SUB_SAVE },
  { "--revision",    G_STRUCT_OFFSET (QuoteArgs, revision),    SUB_SHOW },
  { "--state",       G_STRUCT_OFFSET (QuoteArgs, state),       SUB_LIST },
  { "--format",      G_STRUCT_OFFSET (QuoteArgs, format),      SUB_DRAFT | SUB_SAVE | SUB_SHOW },
  { "--max-price-age", G_STRUCT_OFFSET (QuoteArgs, max_price_age), SUB_DRAFT | SUB_SAVE | SUB_SHOW },
};

static void
set_today (GDate *date)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  g_date_clear (date, 1);
  g_date_set_dmy (date, g_date_time_get_day_of_month (now), g_date_time_get_month (now),
                  g_date_time_get_year (now));
}

/* The form: show, list and state unless a file of that name exists (a
 * file wins, as everywhere in the CLI). */
static Sub
sub_for (int    argc,
         char **argv)
{
  static const struct { const char *name; Sub sub; } subs[] = {
    { "show", SUB_SHOW }, { "list", SUB_LIST }, { "state", SUB_STATE },
  };

  if (argc < 2 || g_file_test (argv[1], G_FILE_TEST_EXISTS))
    return SUB_DRAFT;
  for (guint i = 0; i < G_N_ELEMENTS (subs); i++)
    if (strcmp (argv[1], subs[i].name) == 0)
      return subs[i].sub;
  return SUB_DRAFT;
}

static gboolean
usage_error (const char *message)
{
  qm_cli_error (_("quote: %s; usage: %s"), message, qm_cli_synopsis ("quote"));
  return FALSE;
}

static gboolean
parse_args (int        argc,
            char     **argv,
            QuoteArgs *a)
{
  guint max_args = a->sub == SUB_LIST ? 0 : a->sub == SUB_STATE ? 2 : 1;
  int first = a->sub == SUB_DRAFT ? 1 : 2;

  for (int i = first; i < argc; i++)
    {
      const char *value = NULL;
      guint k;

      for (k = 0; k < G_N_ELEMENTS (value_options); k++)
        if (qm_cli_option_value (argc, argv, &i, value_options[k].name, &value))
          break;
      if (k < G_N_ELEMENTS (value_options))
        {
          g_autofree char *msg = NULL;

          if (!(value_options[k].subs & a->sub))
            msg = g_strdup_printf (_("%s does not apply here"), value_options[k].name);
          else if (value == NULL)
            msg = g_strdup_printf (_("%s needs a value"), value_options[k].name);
          if (msg != NULL)
            return usage_error (msg);
          G_STRUCT_MEMBER (const char *, a, value_options[k].offset) = value;
        }
      else if (strcmp (argv[i], "--json") == 0 && a->sub != SUB_STATE)
        a->json = TRUE;
      else if (strcmp (argv[i], "--save") == 0 && a->sub & (SUB_DRAFT | SUB_SAVE))
        a->sub = SUB_SAVE;
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        {
          qm_cli_error (_("%s: unknown option '%s'"), "quote", argv[i]);
          return FALSE;
        }
      else if (a->n_args < max_args)
        a->args[a->n_args++] = argv[i];
      else
        {
          g_autofree char *msg = g_strdup_printf (_("unexpected '%s'"), argv[i]);
          return usage_error (msg);
        }
    }

  if (a->n_args < max_args)
    return usage_error (a->sub == SUB_SHOW || a->sub == SUB_STATE ? _("missing NUMBER")
                                                                  : _("missing PLAN"));
  if (a->out != NULL && g_str_equal (a->out, "-") && a->json)
    return usage_error (_("-o - and --json would both write to standard output"));
  if (a->out != NULL)
    {
      static const char * const formats[] = { "pdf", "xlsx", "csv", NULL };

      if (!qm_cli_output_resolve ("quote", a->out, a->format, formats, &a->resolved_out))
        return FALSE;
      a->out = a->resolved_out;
    }
  else if (a->format != NULL)
    return usage_error (_("--format is for -o - (standard output)"));
  if (a->out != NULL && !g_str_has_suffix (a->out, ".xlsx") && !g_str_has_suffix (a->out, ".pdf") &&
      !g_str_has_suffix (a->out, ".csv"))
    {
      qm_cli_error (_("%s: -o: the output must end in .pdf, .xlsx or .csv (got '%s')"), "quote", a->out);
      return FALSE;
    }
  a->max_price_age_months = QM_PRICE_MAX_AGE_MONTHS_DEFAULT;
  if (a->max_price_age != NULL && !qm_cli_parse_max_price_age ("quote", a->max_price_age,
                                                               &a->max_price_age_months))
    return FALSE;
  if (a->date != NULL && !qm_quote_date_parse (a->date, &a->issued))
    {
      qm_cli_error (_("%s: --date: must be a date as YYYY-MM-DD (got '%s')"), "quote", a->date);
      return FALSE;
    }
  return TRUE;
}

/* What is printed: a draft's, or a stored revision's (@rev) rebuilt from
 * what it froze. */
typedef struct
{
  const QmPlan          *plan;
  const QmEstimate      *estimate;
  QmQuoteHeader          header;
  const QmQuote         *quote;
  const QmQuoteRevision *rev;
  const QmQuoteRevision *previous;  /* the revision before @rev, or NULL */
} Printed;

typedef struct
{
  const Printed *p;
  const GDate   *today;
} QuoteJob;

/* The format follows the extension of @path (a temporary file's keeps
 * the target's). */
static gboolean
write_quote (const char  *path,
             gpointer     user_data,
             GError     **error)
{
  const QuoteJob *job = user_data;
  const Printed *p = job->p;

  if (g_str_has_suffix (path, ".pdf"))
    {
      g_autoptr(QmDocument) doc = qm_quote_report_new (p->plan, p->estimate, &p->header, p->quote, job->today,
                                                       qm_paper_for_locale ());

      return qm_document_write_pdf (doc, path, error);
    }
  if (g_str_has_suffix (path, ".csv"))
    {
      g_autofree char *csv = qm_quote_to_csv (&p->header, p->quote);

      return g_file_set_contents (path, csv, -1, error);
    }
  return qm_quote_write_xlsx (&p->header, p->quote, path, error);
}

static gboolean
write_output (const Printed *p,
              const GDate   *today,
              const char    *out)
{
  g_autoptr(GError) error = NULL;
  QuoteJob job = { p, today };

  if (!qm_cli_write_atomic (out, write_quote, &job, &error))
    {
      qm_cli_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* A stored revision's JSON also says what it froze: the rate with its
 * date and source, the catalog version, and what changed. */
static void
add_revision_json (JsonNode              *node,
                   const QmQuoteRevision *rev)
{
  JsonObject *root = json_node_get_object (node);
  JsonObject *rate = json_object_new ();
  char date[11];

  qm_quote_date_format (&rev->rate_date, date);
  json_object_set_double_member (rate, "per_usd", rev->exchange_rate);
  json_object_set_string_member (rate, "date", date);
  json_object_set_string_member (rate, "source", rev->rate_source);
  json_object_set_object_member (root, "exchange_rate", rate);
  json_object_set_string_member (root, "catalog_version", rev->catalog_version);
  json_object_set_string_member (root, "state", qm_quote_state_to_string (rev->state));
  json_object_set_string_member (root, "note", rev->note);
}

/* prices_as_of and the warning on the issue date (qm-price-age.h): not
 * in the core's quote JSON, which a stored revision freezes. */
static void
add_price_age_json (JsonNode            *node,
                    const QmQuoteHeader *header,
                    const GDate         *today)
{
  JsonObject *o = json_node_get_object (node);
  g_autofree char *warning = NULL;
  char date[16];
  /* The JSON is the same in every language (docs/plan-file.md). */
  locale_t old = qm_text_begin_c_locale ();

  warning = qm_quote_price_age_warning (header, today);
  qm_text_end_c_locale (old);

  if (g_date_valid (&header->prices_as_of))
    {
      g_date_strftime (date, sizeof date, "%Y-%m-%d", &header->prices_as_of);
      json_object_set_string_member (o, "prices_as_of", date);
    }
  else
    json_object_set_null_member (o, "prices_as_of");
  if (warning != NULL)
    json_object_set_string_member (o, "price_age_warning", warning);
  else
    json_object_set_null_member (o, "price_age_warning");
}

/* The quote as the options ask: a file, JSON, or the text table. */
static int
emit (const Printed   *p,
      const QuoteArgs *a)
{
  const QmQuoteHeader *header = &p->header;
  const QmQuote *quote = p->quote;
  GDate until = qm_quote_valid_until (header);
  char date[16];

  if (a->out != NULL && !write_output (p, &a->today, a->out))
    return QM_CLI_INPUT;
  if (a->json)
    {
      g_autoptr(JsonNode) node = qm_quote_to_json_node (header, quote, &a->today);

      add_price_age_json (node, header, &a->today);
      if (p->rev != NULL)
        add_revision_json (node, p->rev);
      if (p->previous != NULL)
        {
          JsonObject *o = json_node_get_object (node);

          json_object_set_string_member (o, "changes_since", p->previous->revision);
          json_object_set_member (o, "changes", qm_quote_diff_to_json (p->previous->quote, quote));
        }
      qm_cli_print_json_node (node);
      return QM_CLI_OK;
    }
  if (a->out != NULL)
    return QM_CLI_OK;

  g_date_strftime (date, sizeof date, "%Y-%m-%d", &until);
  if (header->revision != NULL)
    /* Translators: the first line of a stored quote; %s are its number,
     * revision letter, the customer and the last day it is valid. */
    qm_cli_print (_("Quote %s revision %s for %s, valid until %s\n"), header->number, header->revision,
                  header->customer && header->customer[0] ? header->customer : _("no customer"), date);
  else
    /* Translators: the first line of a quote; %s are its reference
     * (or "draft"), the customer and the last day it is valid. */
    qm_cli_print (_("Quote %s for %s, valid until %s\n"),
                  header->number && header->number[0] ? header->number : _("draft"),
                  header->customer && header->customer[0] ? header->customer : _("no customer"), date);
  if (qm_quote_expired (header, &a->today))
    qm_cli_print ("%s\n", _("This quote has expired: its prices no longer hold."));
  /* Their age on the issue date, as the PDF and the workbook say it. */
  qm_cli_print_prices_as_of ("", &header->prices_as_of,
                             g_date_valid (&header->issued) ? &header->issued : &a->today,
                             header->price_max_age_months);
  qm_cli_print ("\n");
  print_lines (quote);
  qm_cli_print ("\n");
  print_totals (quote, quote->tax_rate);
  qm_cli_print ("\n");
  print_schedule (quote);
  if (p->previous != NULL)
    {
      g_autofree char *changes = qm_quote_diff_describe (p->previous->quote, quote);
      /* Translators: %s is the letter of the revision before this one. */
      g_autofree char *heading = g_strdup_printf (_("Changes since revision %s:"), p->previous->revision);

      qm_cli_print ("\n%s\n%s\n", heading, changes);
    }
  return QM_CLI_OK;
}

static int
quote_draft (const QuoteArgs *a)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *estimate = g_new0 (QmEstimate, 1);
  g_autofree QmQuote *quote = g_new0 (QmQuote, 1);
  const char *path = a->args[0];
  Printed p = { .plan = plan, .estimate = estimate, .quote = quote };
  g_autoptr(QmSupplier) supplier = NULL;

  if (!qm_cli_load_plan (path, plan))
    return QM_CLI_INPUT;

  qm_estimate (plan, estimate);
  qm_estimate_quote (plan, estimate, quote);
  for (guint i = 0; i < quote->issues.n; i++)
    {
      g_autofree char *text = qm_issue_to_string (&quote->issues.items[i]);

      qm_cli_error ("%s: %s", path, text);
    }
  if (qm_issues_has_error (&quote->issues))
    return QM_CLI_INPUT;

  p.header.number = plan->quote_ref;
  p.header.customer = plan->customer;
  p.header.issued = a->issued;
  p.header.valid_days = plan->quote.valid_days;
  qm_quote_header_set_prices (&p.header, estimate, a->max_price_age_months);
  /* With --db, the database's supplier details as letterhead (issue #35
   * item 2). Only when asked: a draft from a file does not depend on
   * whatever the default database holds. */
  if (qm_cli_db_path != NULL)
    {
      g_autoptr(QmStore) store = qm_cli_open_store (QM_CLI_STORE_READ);
      g_autoptr(GError) error = NULL;

      if (store == NULL)
        return QM_CLI_INPUT;
      if ((supplier = qm_supplier_store_get (store, &error)) == NULL)
        {
          qm_cli_error ("%s", error->message);
          return QM_CLI_INPUT;
        }
      p.header.supplier = supplier;
    }
  return emit (&p, a);
}

static int
emit_revision (const QmQuoteRevision *rev,
               const QmQuoteRevision *previous,
               const QuoteArgs       *a)
{
  Printed p = { .plan = rev->plan, .estimate = rev->estimate, .quote = rev->quote, .rev = rev,
                .previous = previous };

  /* With the store's supplier details as letterhead (issue #35 item 2). */
  qm_quote_revision_header (rev, &p.header);
  qm_quote_header_set_prices (&p.header, rev->estimate, a->max_price_age_months);
  return emit (&p, a);
}

static int
quote_save (QmStore         *store,
            const QuoteArgs *a)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmQuoteRevision) rev = NULL;
  QmQuoteRequest req = { 0 };
  char gross[64];

  req.plan_id = qm_plan_store_find (store, a->args[0], &error);
  if (req.plan_id <= 0)
    {
      qm_cli_error (_("quote --save: '%s' is not a saved plan in %s (import a plan file with "
                      "'plans import' first)"), a->args[0], qm_store_path (store));
      return QM_CLI_INPUT;
    }
  req.issued = a->issued;
  req.note = a->note;
  req.customer = a->customer;
  req.customer_vat = a->customer_vat;
  req.project = a->project;
  req.prepared_by = a->prepared_by;
  req.payment_terms = a->payment_terms;
  req.terms = a->terms;
  rev = qm_quote_store_save_revision (store, &req, &error);
  if (rev == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  if (!a->json && a->out == NULL)
    {
      qm_money_format (gross, sizeof gross, rev->quote->gross, rev->quote->exponent, rev->quote->currency);
      /* Translators: after quote --save; %s are the number, the revision
       * letter and the gross total. */
      qm_cli_print (_("Saved quote %s revision %s: %s gross.\n\n"), rev->number, rev->revision, gross);
    }
  return emit_revision (rev, NULL, a);
}

/* The revision before @rev (seq - 1), or NULL for the first. */
static QmQuoteRevision *
load_previous (QmStore               *store,
               const QmQuoteRevision *rev,
               GError               **error)
{
  g_autoptr(GPtrArray) letters = NULL;

  if (rev->seq <= 1)
    return NULL;
  letters = qm_quote_store_list_revisions (store, rev->number, error);
  if (letters == NULL || rev->seq - 2 >= letters->len)
    return NULL;
  return qm_quote_store_load_revision (store, rev->number, g_ptr_array_index (letters, rev->seq - 2), error);
}

static int
quote_show (QmStore         *store,
            const QuoteArgs *a)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QmQuoteRevision) rev = qm_quote_store_load_revision (store, a->args[0], a->revision, &error);
  g_autoptr(QmQuoteRevision) previous = NULL;

  if (rev == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  previous = load_previous (store, rev, &error);
  if (previous == NULL && error != NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  return emit_revision (rev, previous, a);
}

static void
list_json (GPtrArray       *quotes,
           const QuoteArgs *a)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  qm_cli_json_begin_list (b, "quotes");
  for (guint i = 0; i < quotes->len; i++)
    {
      const QmQuoteSummary *s = quotes->pdata[i];
      QmQuoteHeader header = { .issued = s->issued, .valid_days = s->valid_days };
      GDate until = qm_quote_valid_until (&header);
      char issued[11], valid[11];

      qm_quote_date_format (&s->issued, issued);
      qm_quote_date_format (&until, valid);
      json_builder_begin_object (b);
      qm_cli_json_string (b, "number", s->number);
      qm_cli_json_string (b, "revision", s->revision);
      qm_cli_json_string (b, "customer", s->customer);
      qm_cli_json_string (b, "project", s->project);
      qm_cli_json_string (b, "plan", s->plan_name);
      json_builder_set_member_name (b, "plan_id");
      if (s->plan_id > 0)
        json_builder_add_int_value (b, s->plan_id);
      else
        json_builder_add_null_value (b);
      qm_cli_json_string (b, "issued", issued);
      qm_cli_json_string (b, "valid_until", valid);
      json_builder_set_member_name (b, "expired");
      json_builder_add_boolean_value (b, qm_quote_expired (&header, &a->today));
      qm_cli_json_string (b, "state", qm_quote_state_to_string (s->state));
      qm_cli_json_string (b, "currency", s->currency);
      json_builder_set_member_name (b, "gross");
      json_builder_add_double_value (b, qm_money_major (s->gross, s->exponent));
      json_builder_end_object (b);
    }
  qm_cli_json_end_list (b);
  qm_cli_print_json (b);
}

static int
quote_list (QmStore         *store,
            const QuoteArgs *a)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) quotes = NULL;
  QmQuoteState state;

  if (a->state != NULL && !qm_quote_state_from_string (a->state, &state))
    {
      qm_cli_error (_("quote list: --state must be draft, sent, accepted or declined (got '%s')"), a->state);
      return QM_CLI_USAGE;
    }
  quotes = qm_quote_store_list (store, a->customer, a->state ? &state : NULL, &error);
  if (quotes == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  if (a->json)
    {
      list_json (quotes, a);
      return QM_CLI_OK;
    }

  qm_cli_print ("%s %s %s %s %s %s %s %s\n", qm_cli_cell (_("Number"), -14), qm_cli_cell (_("Rev."), -4),
                qm_cli_cell (_("Customer"), -24), qm_cli_cell (_("Plan"), -24), qm_cli_cell (_("Issued"), -10),
                qm_cli_cell (_("Valid until"), -21), qm_cli_cell (_("State"), -9), qm_cli_cell (_("Gross"), 22));
  for (guint i = 0; i < quotes->len; i++)
    {
      const QmQuoteSummary *s = quotes->pdata[i];
      QmQuoteHeader header = { .issued = s->issued, .valid_days = s->valid_days };
      GDate until = qm_quote_valid_until (&header);
      g_autofree char *valid = NULL;
      char issued[11], last[11], gross[64];

      qm_quote_date_format (&s->issued, issued);
      qm_quote_date_format (&until, last);
      /* Translators: the last valid day of a quote that has run out. */
      valid = qm_quote_expired (&header, &a->today) ? g_strdup_printf (_("%s expired"), last) : g_strdup (last);
      qm_money_format (gross, sizeof gross, s->gross, s->exponent, s->currency);
      qm_cli_print ("%s %s %s %s %s %s %s %s\n", qm_cli_cell (s->number, -14), qm_cli_cell (s->revision, -4),
                    qm_cli_cell (s->customer, -24), qm_cli_cell (s->plan_name, -24), qm_cli_cell (issued, -10),
                    qm_cli_cell (valid, -21), qm_cli_cell (qm_quote_state_to_string (s->state), -9),
                    qm_cli_cell (gross, 22));
    }
  /* Translators: under the quote list. */
  qm_cli_print (_("\nQuotes: %u.\n"), quotes->len);
  return QM_CLI_OK;
}

static int
quote_state (QmStore         *store,
             const QuoteArgs *a)
{
  g_autoptr(GError) error = NULL;
  QmQuoteState state;

  if (!qm_quote_state_from_string (a->args[1], &state))
    {
      qm_cli_error (_("quote state: the state must be draft, sent, accepted or declined (got '%s')"),
                    a->args[1]);
      return QM_CLI_USAGE;
    }
  if (!qm_quote_store_set_state (store, a->args[0], state, &error))
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  return QM_CLI_OK;
}

int
qm_cli_quote (int    argc,
              char **argv)
{
  g_autoptr(QmStore) store = NULL;
  QuoteArgs a = { .sub = sub_for (argc, argv) };
  g_autofree char *resolved_out = NULL;
  gboolean parsed;

  set_today (&a.today);
  a.issued = a.today;
  parsed = parse_args (argc, argv, &a);
  resolved_out = a.resolved_out;
  if (!parsed)
    return QM_CLI_USAGE;
  if (a.sub == SUB_DRAFT)
    return quote_draft (&a);

  store = qm_cli_open_store (a.sub == SUB_SHOW || a.sub == SUB_LIST ? QM_CLI_STORE_READ
                                                                     : QM_CLI_STORE_WRITE);
  if (store == NULL)
    return QM_CLI_INPUT;
  switch (a.sub)
    {
    case SUB_SAVE:
      return quote_save (store, &a);
    case SUB_SHOW:
      return quote_show (store, &a);
    case SUB_LIST:
      return quote_list (store, &a);
    default:
      return quote_state (store, &a);
    }
}
