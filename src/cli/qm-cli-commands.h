/* qm-cli-commands.h: the one table of quartermaster-cli's commands: their
 * synopses, options and descriptions. --help, help COMMAND, COMMAND --help,
 * usage errors, the option check, docs/cli.md and the man pages all read
 * it, so none of them can drift from the others.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *name;      /* "--json", "-o" */
  const char *alias;     /* another spelling ("--output"), or NULL */
  const char *arg;       /* its value's name ("FILE"), or NULL for a flag */
  const char *help;      /* N_(): translated where it is shown */
} QmCliOption;

typedef struct
{
  const char        *command;   /* "catalog" */
  const char        *sub;       /* "list", or NULL for a command without subcommands */
  const char        *synopsis;  /* the syntax, never translated */
  const char        *summary;   /* N_(): one line, for the command list */
  const QmCliOption *options;   /* terminated by a { NULL } row */
} QmCliCommandInfo;

/* Every form of every command, in the order --help lists them. */
const QmCliCommandInfo *qm_cli_commands          (guint *n);
/* The options every command takes (--db, --help, --version). */
const QmCliOption      *qm_cli_common_options    (void);

/* The paragraphs after the command list (untranslated; NULL-terminated;
 * lines broken for a terminal) and the exit status line. */
const char *const      *qm_cli_notes             (void);
const char             *qm_cli_exit_status       (void);

/* "-o, --output FILE" */
char                   *qm_cli_option_label      (const QmCliOption *option);

/* Whether @command (the first word after the program) names a command. */
gboolean                qm_cli_command_exists    (const char *command);

/* The command's synopses joined by " | ", for a usage error; @command
 * with its subcommand ("plans export") gives only that form. Static. */
const char             *qm_cli_synopsis          (const char *command);

/* --help: every command, its synopsis and summary. */
void                    qm_cli_print_help        (FILE *out);
/* help COMMAND and COMMAND --help: its forms, each with its options. */
void                    qm_cli_print_command_help (FILE       *out,
                                                   const char *command);

/* Checks the options of @command's command line (argv[0] is the command)
 * against the table: an option the command's form does not take is a
 * usage error, printed with the synopsis. Option values are skipped, so a
 * value such as "-" is never taken for an option. */
gboolean                qm_cli_check_options     (int          argc,
                                                  char       **argv);

/* Whether argv (after the command) asks for the command's help. */
gboolean                qm_cli_wants_help        (int          argc,
                                                  char       **argv);

G_END_DECLS
