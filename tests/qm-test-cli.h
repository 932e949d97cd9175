/* qm-test-cli.h: running quartermaster-cli from a test, as a user would:
 * its path comes from QM_CLI (tests/meson.build); the exit status,
 * standard output and standard error are captured.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <stdarg.h>

G_BEGIN_DECLS

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

static inline void
run_clear (Run *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs the CLI with the NULL-terminated arguments; captures everything. */
static inline void
run_cli (Run *r,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("QM_CLI");
  const char *arg;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, r);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  r->status = g_subprocess_get_exit_status (proc);
}

G_END_DECLS
