/* qm-cli-util.c: what the quartermaster-cli commands share: the database,
 * reading a plan argument, the command line and --json output.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-db.h"
#include "qm-format.h"
#include "qm-plan-store.h"
#include "qm-price-age.h"
#include "qm-text.h"

const char *qm_cli_db_path = NULL;

/* Names, notes and sources come from files strangers send: their escape
 * sequences and bidi overrides are shown, never obeyed. An error stays on
 * one line whatever it quotes. */
static void
put_escaped (FILE       *out,
             const char *prefix,
             gboolean    one_line,
             const char *format,
             va_list     args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);
  g_autofree char *safe = one_line ? qm_text_escape (text) : qm_text_escape_lines (text);

  fprintf (out, "%s%s%s", prefix, safe, one_line ? "\n" : "");
}

void
qm_cli_print (const char *format,
              ...)
{
  va_list args;

  va_start (args, format);
  put_escaped (stdout, "", FALSE, format, args);
  va_end (args);
}

static GPtrArray *json_errors;

void
qm_cli_error (const char *format,
              ...)
{
  va_list args;

  va_start (args, format);
  if (qm_cli_json_output)
    {
      if (json_errors == NULL)
        json_errors = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (json_errors, g_strdup_vprintf (format, args));
    }
  else
    put_escaped (stderr, "quartermaster-cli: ", TRUE, format, args);
  va_end (args);
}

void
qm_cli_flush_errors (int status)
{
  for (guint i = 0; json_errors != NULL && i < json_errors->len; i++)
    qm_cli_fail_json (NULL, status == QM_CLI_USAGE ? QM_CLI_CODE_USAGE : QM_CLI_CODE_FAILED,
                      g_ptr_array_index (json_errors, i), NULL);
  g_clear_pointer (&json_errors, g_ptr_array_unref);
}

const char *
qm_cli_arg_label (const char *arg)
{
  return g_strcmp0 (arg, "-") == 0 ? _("standard input") : arg;
}

QmStore *
qm_cli_open_store (QmCliStoreUse use)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = qm_cli_db_path ? g_strdup (qm_cli_db_path) : qm_store_default_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  /* A postgresql:// URI (issue #23) may carry a password: never print it. */
  g_autofree char *shown = qm_db_location_redact (path);
  QmStore *store;

  /* The GUI's default lives under XDG_DATA_HOME/quartermaster, which may
   * not exist yet on a first run. */
  if (use == QM_CLI_STORE_WRITE && qm_cli_db_path == NULL && !qm_db_location_is_uri (path))
    g_mkdir_with_parents (dir, 0700);
  /* Reading: no daily copy, and a damaged file is reported, not moved
   * aside (only a writing command recovers). Where there is no database
   * yet, what it would hold: the built-in catalog and no plans, kept in
   * memory, so that nothing is created. */
  if (use == QM_CLI_STORE_WRITE)
    store = qm_store_open (path, &error);
  else if (!qm_db_location_looks_like_uri (path) && !g_file_test (path, G_FILE_TEST_EXISTS))
    store = qm_store_open_with_flags (":memory:", QM_STORE_OPEN_NO_BACKUP, &error);
  else
    store = qm_store_open_with_flags (path, QM_STORE_OPEN_EXISTING | QM_STORE_OPEN_NO_BACKUP
                                            | QM_STORE_OPEN_NO_RECOVER, &error);
  if (store == NULL)
    {
      qm_cli_error ("%s: %s", shown, error->message);
      return NULL;
    }
  if (qm_store_recovered_from (store))
    {
      g_autofree char *msg = qm_store_recovery_message (store);

      qm_cli_warn (shown, msg);
    }
  return store;
}

static void
print_warnings (const char *label,
                GPtrArray  *warnings)
{
  for (guint i = 0; warnings && i < warnings->len; i++)
    qm_cli_warn (label, g_ptr_array_index (warnings, i));
}

/* A plan on standard input ("-"): read whole, once; a second "-" in one
 * command line (compare - -) reads the same plan. */
const char *
qm_cli_read_stdin (gsize   *len,
                   GError **error)
{
  static GString *data;
  char buf[65536];
  size_t n;

  if (data != NULL)
    {
      *len = data->len;
      return data->str;
    }
  data = g_string_new (NULL);
  while ((n = fread (buf, 1, sizeof buf, stdin)) > 0)
    g_string_append_len (data, buf, n);
  if (ferror (stdin))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, _("cannot read standard input"));
      g_string_free (g_steal_pointer (&data), TRUE);
      return NULL;
    }
  *len = data->len;
  return data->str;
}

static gboolean
load_stdin (QmPlan *plan)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(QmStore) store = NULL;
  const char *data;
  gsize len;

  data = qm_cli_read_stdin (&len, &error);
  if (data == NULL)
    {
      qm_cli_plan_error ("-", error);
      return FALSE;
    }
  /* With --db, through the database as a file would be. */
  if (qm_cli_db_path != NULL)
    {
      store = qm_cli_open_store (QM_CLI_STORE_READ);
      if (store == NULL)
        return FALSE;
      if (!qm_plan_store_read_plan (store, data, plan, &warnings, &error))
        {
          qm_cli_plan_error ("-", error);
          return FALSE;
        }
    }
  else if (!qm_plan_load_from_data (plan, data, len, &warnings, &error))
    {
      qm_cli_plan_error ("-", error);
      return FALSE;
    }
  print_warnings ("-", warnings);
  return TRUE;
}

gboolean
qm_cli_load_plan (const char *arg,
                  QmPlan     *plan)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(QmStore) store = NULL;
  g_autoptr(QmSavedPlan) saved = NULL;
  g_autofree char *data = NULL;
  gboolean is_file = g_file_test (arg, G_FILE_TEST_EXISTS);
  gint64 id;

  if (g_str_equal (arg, "-"))
    return load_stdin (plan);
  /* Without --db a file is read on its own, and a path that looks like a
   * file gets the reader's "no such file" rather than a database lookup. */
  if (is_file && qm_cli_db_path == NULL)
    goto file_only;
  if (!is_file && (strchr (arg, G_DIR_SEPARATOR) || g_str_has_suffix (arg, ".json") ||
                   g_str_has_suffix (arg, ".qmplan")))
    goto file_only;

  store = qm_cli_open_store (QM_CLI_STORE_READ);
  if (store == NULL)
    return FALSE;
  if (is_file)
    {
      gsize len;

      if (!g_file_get_contents (arg, &data, &len, &error))
        {
          qm_cli_fail (arg, qm_cli_error_code (error), "%s", error->message);
          return FALSE;
        }
      if (!qm_plan_store_read_plan (store, data, plan, &warnings, &error))
        {
          qm_cli_plan_error (arg, error);
          return FALSE;
        }
      print_warnings (arg, warnings);
      return TRUE;
    }

  id = qm_plan_store_find (store, arg, &error);
  if (id <= 0)
    {
      qm_cli_fail (NULL, QM_CLI_CODE_NOT_FOUND, _("%s: no such file, and no saved plan of that name or id in %s"),
                   arg, qm_store_path (store));
      return FALSE;
    }
  saved = qm_plan_store_load (store, id, &error);
  if (saved == NULL || !qm_plan_store_read_plan (store, saved->inputs, plan, &warnings, &error))
    {
      if (error != NULL && qm_cli_json_output)
        qm_cli_plan_error (arg, error);
      else
        qm_cli_error (_("%s (saved plan %s): %s"), arg, qm_cli_id (id),
                      error ? error->message : _("cannot be read"));
      return FALSE;
    }
  print_warnings (arg, warnings);
  return TRUE;

file_only:
  if (!qm_plan_load_from_file (plan, arg, &warnings, &error))
    {
      qm_cli_plan_error (arg, error);
      return FALSE;
    }
  print_warnings (arg, warnings);
  return TRUE;
}

gboolean
qm_cli_print_errors (const char       *arg,
                     const QmEstimate *estimate)
{
  char buf[1024];

  if (estimate->valid && estimate->n_errors == 0)
    return FALSE;
  for (guint i = 0; i < estimate->n_warnings; i++)
    if (estimate->warnings[i].id == QM_NOTE_INPUT_ERROR || !estimate->valid)
      qm_cli_fail (arg, QM_CLI_CODE_INVALID, "%s", qm_note_format (&estimate->warnings[i], buf, sizeof buf));
  return TRUE;
}

gboolean
qm_cli_load_estimate (const char *arg,
                      QmPlan     *plan,
                      QmEstimate *estimate)
{
  if (!qm_cli_load_plan (arg, plan))
    return FALSE;
  qm_estimate (plan, estimate);
  return !qm_cli_print_errors (arg, estimate);
}

gboolean
qm_cli_option_value (int          argc,
                     char       **argv,
                     int         *i,
                     const char  *name,
                     const char **value)
{
  const char *arg = argv[*i];
  gsize len = strlen (name);

  if (strncmp (arg, name, len) != 0)
    return FALSE;
  if (arg[len] == '=')
    *value = arg + len + 1;
  else if (arg[len] == '\0')
    *value = *i + 1 < argc ? argv[++*i] : NULL;
  else
    return FALSE;
  return TRUE;
}

/* The table rows the command line's form is: for a command with
 * subcommands, those of argv[1]; none when argv[1] names no subcommand,
 * and the command reports that itself. */
static gboolean
option_for_form (const char  *command,
                 const char  *sub,
                 const char  *name,
                 gboolean    *found_form,
                 const QmCliOption **option)
{
  guint n;
  const QmCliCommandInfo *commands = qm_cli_commands (&n);

  for (guint i = 0; i < n; i++)
    {
      const QmCliCommandInfo *c = &commands[i];

      if (!g_str_equal (c->command, command) || (c->sub != NULL && g_strcmp0 (c->sub, sub) != 0))
        continue;
      *found_form = TRUE;
      for (const QmCliOption *o = c->options; o->name != NULL; o++)
        if (g_str_equal (o->name, name) || g_strcmp0 (o->alias, name) == 0)
          {
            *option = o;
            return TRUE;
          }
    }
  return FALSE;
}

/* "plans list" for a command with subcommands, else "estimate". */
static char *
form_name (const char *command,
           const char *sub)
{
  guint n;
  const QmCliCommandInfo *commands = qm_cli_commands (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (commands[i].command, command) && g_strcmp0 (commands[i].sub, sub) == 0)
      return g_strdup_printf ("%s %s", command, sub);
  return g_strdup (command);
}

gboolean
qm_cli_check_options (int    argc,
                      char **argv)
{
  const char *command = argv[0];
  const char *sub = argc > 1 ? argv[1] : NULL;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      const QmCliOption *option = NULL;
      g_autofree char *name = NULL;
      gboolean found_form = FALSE;
      g_autofree char *form = NULL;
      const char *eq;

      if (arg[0] != '-' || arg[1] == '\0')
        continue;
      if (g_str_equal (arg, "--"))
        break;
      eq = g_str_has_prefix (arg, "--") ? strchr (arg, '=') : NULL;
      name = eq != NULL ? g_strndup (arg, eq - arg) : g_strdup (arg);
      /* A flag takes no "=VALUE". */
      if (option_for_form (command, sub, name, &found_form, &option) && (option->arg != NULL || eq == NULL))
        {
          /* Its value is the next argument, whatever it looks like. */
          if (option->arg != NULL && eq == NULL)
            i++;
          continue;
        }
      if (!found_form)
        return TRUE;
      form = form_name (command, sub);
      qm_cli_fail (NULL, QM_CLI_CODE_USAGE, _("%s: unexpected '%s'; usage: %s"), form, arg,
                   qm_cli_synopsis (form));
      return FALSE;
    }
  return TRUE;
}

gboolean
qm_cli_wants_help (int    argc,
                   char **argv)
{
  const char *sub = argc > 1 ? argv[1] : NULL;

  for (int i = 1; i < argc; i++)
    {
      const QmCliOption *option = NULL;
      gboolean found_form = FALSE;

      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_equal (argv[i], "--help") || g_str_equal (argv[i], "-h"))
        return TRUE;
      /* "--note -h" is a note. */
      if (option_for_form (argv[0], sub, argv[i], &found_form, &option) && option->arg != NULL)
        i++;
    }
  return FALSE;
}

int
qm_cli_value_option (int                      argc,
                     char                   **argv,
                     int                     *i,
                     const char              *command,
                     const QmCliValueOption  *options)
{
  for (const QmCliValueOption *o = options; o->name != NULL; o++)
    {
      const char *v = NULL;

      if (!qm_cli_option_value (argc, argv, i, o->name, &v))
        continue;
      if (v == NULL)
        {
          qm_cli_error (_("%s: %s needs a value; usage: %s"), command, o->name, qm_cli_synopsis (command));
          return -1;
        }
      *o->value = v;
      return 1;
    }
  return 0;
}

gboolean
qm_cli_take_argument (const char    *command,
                      const char    *arg,
                      QmCliArgKind   kind,
                      const char   **target)
{
  if (arg[0] == '-' && arg[1] != '\0')
    qm_cli_error (_("%s: unknown option '%s'"), command, arg);
  else if (*target != NULL && kind == QM_CLI_ARG_FILE)
    qm_cli_error (_("%s: one file at a time (got '%s' too)"), command, arg);
  else if (*target != NULL)
    qm_cli_error (_("%s: one plan at a time (got '%s' too)"), command, arg);
  else
    {
      *target = arg;
      return TRUE;
    }
  return FALSE;
}

void
qm_cli_json_begin_list (JsonBuilder *builder,
                        const char  *member)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
}

void
qm_cli_json_end_list (JsonBuilder *builder)
{
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

void
qm_cli_print_json (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  qm_cli_print_json_node (root);
}

void
qm_cli_print_json_node (JsonNode *root)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) versioned = NULL;
  g_autofree char *text = NULL;
  gsize len;

  /* format_version first, then the document's own members in order. */
  if (JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonObject *o = json_node_get_object (root);
      JsonObject *v = json_object_new ();
      g_autoptr(GList) members = json_object_get_members (o);

      json_object_set_int_member (v, "format_version", QM_CLI_FORMAT_VERSION);
      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (v, l->data, json_object_dup_member (o, l->data));
      versioned = json_node_init_object (json_node_alloc (), v);
      json_object_unref (v);
      root = versioned;
    }
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, &len);
  fwrite (text, 1, len, stdout);
  fputc ('\n', stdout);
}

void
qm_cli_json_string (JsonBuilder *builder,
                    const char  *key,
                    const char  *v)
{
  json_builder_set_member_name (builder, key);
  if (v != NULL && *v != '\0')
    json_builder_add_string_value (builder, v);
  else
    json_builder_add_null_value (builder);
}

#define RING 16

static char *
ring_next (void)
{
  static char bufs[RING][QM_FORMAT_BUF * 2];
  static guint next;

  return bufs[next++ % RING];
}

const char *
qm_cli_num (double v,
            int    decimals)
{
  return qm_format_number (ring_next (), QM_FORMAT_BUF * 2, v, decimals);
}

const char *
qm_cli_id (gint64 id)
{
  char *b = ring_next ();

  /* Ids are typed back in: no digit grouping. */
  g_snprintf (b, QM_FORMAT_BUF * 2, "%" G_GINT64_FORMAT, id);
  return b;
}

const char *
qm_cli_money (double      v,
              const char *currency)
{
  return qm_format_money (ring_next (), QM_FORMAT_BUF * 2, v, currency ? currency : "USD");
}

glong
qm_cli_columns (const char *s)
{
  glong n = 0;

  for (const char *p = s; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      n += g_unichar_iswide (c) ? 2 : 1;
    }
  return n;
}

const char *
qm_cli_cell (const char *s,
             int         width)
{
  static char *ring[RING];
  static guint next;
  gboolean left = width < 0;
  glong want = ABS (width);
  glong have;
  GString *out;

  if (s == NULL)
    s = "";
  out = g_string_new (NULL);
  have = qm_cli_columns (s);
  if (left && have > want)
    {
      /* Cut to the width, ending in "…". */
      have = 0;
      for (const char *p = s; *p; p = g_utf8_next_char (p))
        {
          gunichar c = g_utf8_get_char (p);
          glong w = g_unichar_iszerowidth (c) ? 0 : g_unichar_iswide (c) ? 2 : 1;

          if (have + w > want - 1)
            break;
          g_string_append_unichar (out, c);
          have += w;
        }
      g_string_append (out, "…");
      have++;
    }
  else if (left)
    g_string_append (out, s);
  for (; have < want; have++)
    g_string_append_c (out, ' ');
  if (!left)
    g_string_append (out, s);

  g_free (ring[next % RING]);
  ring[next++ % RING] = g_string_free (out, FALSE);
  return ring[(next - 1) % RING];
}

gboolean
qm_cli_parse_max_price_age (const char *command,
                            const char *value,
                            guint      *months)
{
  guint64 v = 0;

  if (value == NULL || !g_ascii_string_to_unsigned (value, 10, QM_PRICE_MAX_AGE_MONTHS_MIN,
                                                    QM_PRICE_MAX_AGE_MONTHS_MAX, &v, NULL))
    {
      /* Translators: %s is the command; then the limits, and what was given. */
      qm_cli_error (_("%s: --max-price-age: must be a whole number of months from %d to %d (got '%s')"),
                    command, QM_PRICE_MAX_AGE_MONTHS_MIN, QM_PRICE_MAX_AGE_MONTHS_MAX, value ? value : "");
      return FALSE;
    }
  *months = (guint) v;
  return TRUE;
}

void
qm_cli_today (GDate *date)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  g_date_clear (date, 1);
  g_date_set_dmy (date, (GDateDay) g_date_time_get_day_of_month (now),
                  (GDateMonth) g_date_time_get_month (now), (GDateYear) g_date_time_get_year (now));
}

void
qm_cli_print_prices_as_of (const char  *indent,
                           const GDate *as_of,
                           const GDate *on,
                           guint        max_months)
{
  g_autofree char *text = qm_prices_as_of_text (as_of);
  g_autofree char *warning = qm_price_age_warning (as_of, on, max_months);

  if (text == NULL)
    return;
  qm_cli_print ("%s%s\n", indent, text);
  if (warning != NULL)
    {
      /* Translators: a warning in the CLI's text output. */
      g_autofree char *line = g_strdup_printf (_("Warning: %s"), warning);

      qm_cli_print ("%s%s\n", indent, line);
    }
}
