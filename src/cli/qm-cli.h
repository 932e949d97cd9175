/* qm-cli.h: shared declarations of the quartermaster-cli commands.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "qm-estimate.h"
#include "qm-plan.h"
#include "qm-store.h"

G_BEGIN_DECLS

/* Exit status (docs/cli.md). */
#define QM_CLI_OK    0
#define QM_CLI_INPUT 1  /* bad input or a failed operation */
#define QM_CLI_USAGE 2

/* A command gets argv after the command name (argv[0] is the command). */
typedef int (*QmCliCommand) (int argc, char **argv);

int  qm_cli_estimate (int argc, char **argv);
int  qm_cli_search   (int argc, char **argv);
int  qm_cli_catalog  (int argc, char **argv);
int  qm_cli_plans    (int argc, char **argv);
int  qm_cli_advise   (int argc, char **argv);
int  qm_cli_quote    (int argc, char **argv);
int  qm_cli_rates    (int argc, char **argv);
int  qm_cli_db       (int argc, char **argv);
/* db setup-roles (qm-cli-db-roles.c), reached through qm_cli_db. */
int  qm_cli_db_setup_roles (int argc, char **argv);

/* One-line error on stderr: "quartermaster-cli: <message>". With --json
 * it is kept and printed as a JSON error by qm_cli_flush_errors (), its
 * code taken from the exit status ("usage" for 2, else "failed"). */
void qm_cli_error    (const char *format, ...) G_GNUC_PRINTF (1, 2);
void qm_cli_flush_errors (int status);

/* The version of every JSON document the CLI prints: the top-level
 * "format_version" member. Raise it when a member changes meaning or goes
 * away; new members do not change it. */
#define QM_CLI_FORMAT_VERSION 1

/* Set by main.c when the command line has --json: errors and warnings go
 * to stderr as JSON objects (qm-cli-fail.c). */
extern gboolean qm_cli_json_output;

/* Error codes of --json errors: stable strings for scripts. A GError's
 * domain and code give a more precise one (qm_cli_error_code ()). */
#define QM_CLI_CODE_USAGE     "usage"
#define QM_CLI_CODE_NOT_FOUND "not-found"
#define QM_CLI_CODE_IO        "io"
#define QM_CLI_CODE_INVALID   "invalid-input"
#define QM_CLI_CODE_FAILED    "failed"

/* An error about @path (a file, a plan argument, or NULL for the command
 * line): "PATH: message" for people, or with --json one object
 * {"format_version":1,"error":{"path","code","message","values"}}. */
void qm_cli_fail       (const char   *path,
                        const char   *code,
                        const char   *format,
                        ...) G_GNUC_PRINTF (3, 4);
/* The same from a GError: its domain and code give the code. */
void qm_cli_fail_error (const char   *path,
                        const GError *error);
/* The --json form itself; @values (an object, may be NULL for {}) is
 * copied. For callers that have structured values to report. */
void qm_cli_fail_json  (const char   *path,
                        const char   *code,
                        const char   *message,
                        JsonNode     *values);
const char *qm_cli_error_code (const GError *error);
/* Where a plan argument that could not be read is reported: every command
 * that reads a PLAN comes through here. */
void qm_cli_plan_error (const char   *arg,
                        const GError *error);
/* "FILE: warning: message", or a JSON "warning" object with --json. */
void qm_cli_warn       (const char   *path,
                        const char   *message);
/* Standard input, read whole once (a second call gives the same bytes,
 * NUL-terminated); NULL with @error set when it cannot be read. */
const char *qm_cli_read_stdin (gsize   *len,
                               GError **error);
/* A PLAN or FILE argument as messages name it: "-" is "standard input". */
const char *qm_cli_arg_label (const char *arg);
/* Text output on stdout. Everything a person reads goes through one of
 * these two: control characters and bidi overrides in the message (a plan
 * name, a vendor's text) are printed as visible escapes (qm-text.h). */
void qm_cli_print    (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* The common --db PATH, or NULL when it was not given. main.c takes it
 * out of argv wherever it appears, so commands never see it. */
extern const char *qm_cli_db_path;

/* Opens --db, else the GUI's database (qm_store_default_path ()). On
 * failure prints one line naming the file and returns NULL. */
/* What a command does with the store: a command that only reads never
 * creates, moves or replaces a file (issue #33 item 2). */
typedef enum
{
  QM_CLI_STORE_READ,
  QM_CLI_STORE_WRITE,
} QmCliStoreUse;

QmStore    *qm_cli_open_store  (QmCliStoreUse use);

/* Reads the PLAN argument of estimate and search. A file wins over the
 * database (docs/cli.md): an existing file is read on its own against the
 * built-in catalog, or, when --db is given, through that database so that
 * the user's own catalog entries and price overrides apply. An argument
 * that is not a file is a saved plan's name or id in the database.
 * Prints warnings and the error (one line) itself. */
gboolean    qm_cli_load_plan   (const char *arg,
                                QmPlan     *plan);

/* Numbers for text output, with the locale's thousands separator. The
 * result lives in a small ring of buffers, so one printf can hold several;
 * the CLI is single-threaded. */
const char *qm_cli_num         (double      v,
                                int         decimals);
const char *qm_cli_money       (double      v,
                                const char *currency);
/* A saved plan's id as digits, for a translated "%s". */
const char *qm_cli_id          (gint64      id);
/* Terminal columns of @s: an East Asian wide character takes two. */
glong       qm_cli_columns     (const char *s);
/* @s padded with spaces to ABS (@width) terminal columns, as printf's
 * "%-*s" (negative @width: left-aligned, and cut with "…" when longer)
 * or "%*s" would, but counting a CJK character as the two columns it
 * takes: translated labels line up. Valid until 16 more calls. */
const char *qm_cli_cell        (const char *s,
                                int         width);

/* Reads PLAN (qm_cli_load_plan ()) and estimates it. A plan with input
 * errors gives stand-in figures: prints the errors and returns FALSE. */
gboolean    qm_cli_load_estimate (const char *arg,
                                  QmPlan     *plan,
                                  QmEstimate *estimate);
/* Prints @estimate's input errors, each as "ARG: message" on stderr, and
 * says whether it had any. */
gboolean    qm_cli_print_errors  (const char       *arg,
                                  const QmEstimate *estimate);

/* Command lines (docs/cli.md). Whether argv[*i] is the option @name, written
 * "NAME VALUE" or "NAME=VALUE". If it is, *value is its value (NULL when
 * the last argument lacks one) and *i has moved past it. */
gboolean    qm_cli_option_value  (int          argc,
                                  char       **argv,
                                  int         *i,
                                  const char  *name,
                                  const char **value);

/* An option with a value and where it goes; a table ends in { NULL }. */
typedef struct
{
  const char  *name;
  const char **value;
} QmCliValueOption;

/* Whether argv[*i] is one of @options: 1 when it is (its value stored,
 * *i past it), 0 when it is not, -1 when its value is missing (a usage
 * error naming @command's synopsis, printed). */
int         qm_cli_value_option  (int                      argc,
                                  char                   **argv,
                                  int                     *i,
                                  const char              *command,
                                  const QmCliValueOption  *options);

/* --max-price-age MONTHS: a whole number from 1 to 60 (qm-price-age.h).
 * FALSE with the error printed otherwise. */
gboolean    qm_cli_parse_max_price_age (const char *command,
                                        const char *value,
                                        guint      *months);

/* Today, as the local calendar says it. */
void        qm_cli_today         (GDate *date);

/* The text lines "Prices as of 1 June 2025" and, past @max_months on
 * @on, the warning (both on stdout after @indent; nothing when no price
 * is dated). */
void        qm_cli_print_prices_as_of (const char  *indent,
                                       const GDate *as_of,
                                       const GDate *on,
                                       guint        max_months);

typedef enum
{
  QM_CLI_ARG_PLAN,
  QM_CLI_ARG_FILE,
} QmCliArgKind;

/* Takes @arg as the one PLAN or FILE argument of @command into *target.
 * An unknown option or a second argument is a usage error: prints it and
 * returns FALSE. */
gboolean    qm_cli_take_argument (const char   *command,
                                  const char   *arg,
                                  QmCliArgKind  kind,
                                  const char  **target);

/* --json output: the builder's root, pretty, as raw UTF-8 on stdout
 * (g_print would transliterate to the locale's charset). Every document
 * goes through qm_cli_print_json_node (), which puts "format_version"
 * first in it. */
void        qm_cli_print_json    (JsonBuilder *builder);
/* A list document: { "format_version": 1, "MEMBER": [ ... ] }. A bare
 * array could not say which format it is; the list goes under @member. */
void        qm_cli_json_begin_list (JsonBuilder *builder,
                                    const char  *member);
void        qm_cli_json_end_list (JsonBuilder *builder);
void        qm_cli_print_json_node (JsonNode  *root);
/* A member whose value is the string @v, or null when it is NULL or empty. */
void        qm_cli_json_string   (JsonBuilder *builder,
                                  const char  *key,
                                  const char  *v);

G_END_DECLS
