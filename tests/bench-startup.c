/* bench-startup.c: cold start, from launching the quartermaster binary to
 * its first painted window, with an empty store (issue #20 item 10:
 * target < 400 ms), and with a team server that takes the connection and
 * never answers (issue #34 item 2: target < 1.5 s; before, start-up
 * waited for libpq's connect timeout, 10.3 s).
 *
 * Each run starts the real binary as a new process on a fresh database,
 * with the welcome already seen, and times it from outside until it
 * prints "first-frame" (QM_EXIT_AFTER_FIRST_FRAME=1). Prints figures
 * only; asserts nothing about time. Needs a display:
 * xvfb-run -a meson test -C build --benchmark startup
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 10

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The hung team server's URI, or NULL for this computer's file. */
static char *hung_uri;
static char *display;

/* One launch: milliseconds until the first frame, or -1. */
static double
launch (const char *binary,
        const char *dir,
        const char *page,
        const char *renderer,
        guint       round)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autofree char *config = g_build_filename (dir, "config", NULL);
  g_autofree char *keyfile_dir = g_build_filename (config, "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (keyfile_dir, "keyfile", NULL);
  g_autofree char *team = hung_uri != NULL
                         ? g_strdup_printf ("database='server'\nserver-uri='%s'\nserver-user='bench'\n", hung_uri)
                         : g_strdup ("");
  g_autofree char *settings = g_strdup_printf ("[io/github/quartermaster/Quartermaster]\n"
                                               "first-run-done=true\n"
                                               "last-page='%s'\n%s", page, team);
  g_autofree char *db_name = g_strdup_printf ("run-%s-%u.db", page, round);
  g_autofree char *db = g_build_filename (dir, db_name, NULL);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gint64 t0;
  double ms = -1;

  g_assert_cmpint (g_mkdir_with_parents (keyfile_dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (keyfile, settings, -1, NULL));
  /* A fresh, empty store each run, and the settings above. */
  g_subprocess_launcher_setenv (launcher, "QM_DB", db, TRUE);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "keyfile", TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config, TRUE);
  g_subprocess_launcher_setenv (launcher, "QM_EXIT_AFTER_FIRST_FRAME", "1", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  if (display != NULL)
    g_subprocess_launcher_setenv (launcher, "DISPLAY", display, TRUE);
  /* "nogl": cairo, and GDK told not to load a GL driver at all (on Xvfb
   * that is Mesa's llvmpipe, whose loading is a good part of a launch). */
  if (g_strcmp0 (renderer, "nogl") == 0)
    {
      g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", "cairo", TRUE);
      g_subprocess_launcher_setenv (launcher, "GDK_DEBUG", "gl-disable", TRUE);
    }
  else if (renderer != NULL)
    g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", renderer, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "GSK_RENDERER");

  t0 = g_get_monotonic_time ();
  process = g_subprocess_launcher_spawn (launcher, &error, binary, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  while ((line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error)) != NULL)
    {
      if (g_str_has_prefix (line, "first-frame"))
        {
          ms = (g_get_monotonic_time () - t0) / 1000.0;
          break;
        }
      g_clear_pointer (&line, g_free);
    }
  g_assert_no_error (error);
  /* On a hung server the app would quit when libpq gives up: the first
   * frame is all this times. */
  if (hung_uri != NULL)
    g_subprocess_force_exit (process);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  g_remove (db);
  return ms;
}

static void
report (const char *what,
        double     *ms,
        guint       n,
        int         target_ms)
{
  double sum = 0;

  for (guint i = 0; i < n; i++)
    sum += ms[i];
  qsort (ms, n, sizeof *ms, compare_doubles);
  g_print ("%-44s median %7.1f ms  min %7.1f ms  mean %7.1f ms  max %7.1f ms  (target < %d ms)\n",
           what, ms[n / 2], ms[0], sum / n, ms[n - 1], target_ms);
}

/* A private session bus with gnome-keyring-daemon serving the Secret
 * Service on it (as tests/test-team-ui.c): the app looks the password up
 * before it connects, and with no keyring it would stop there. FALSE
 * when the daemon is not installed. */
static gboolean
start_keyring (const char *dir)
{
  g_autofree char *daemon = g_find_program_in_path ("gnome-keyring-daemon");
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = g_build_filename (dir, "keyring", NULL);
  GSubprocess *process;
  GOutputStream *in;
  GTestDBus *bus;

  if (daemon == NULL)
    return FALSE;
  display = g_strdup (g_getenv ("DISPLAY"));
  /* Never brought down: its watcher stops the bus when this process ends. */
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", dir, TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, daemon, "--foreground", "--unlock",
                                         "--components=secrets", NULL);
  g_assert_no_error (error);
  in = g_subprocess_get_stdin_pipe (process);
  g_output_stream_write_all (in, "bench", strlen ("bench"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (in, NULL, NULL);
  /* Left running: it goes with the bus. */
  return TRUE;
}

/* A socket where the server's would be, listening and never accepting:
 * the kernel completes the connect, and libpq waits for an answer that
 * never comes (tests/qm-test-pg.c, qm_test_pg_hang). */
static GSocket *
hang (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, ".s.PGSQL.5432", NULL);
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (path);
  g_autoptr(GError) error = NULL;
  GSocket *socket = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, 0, &error);

  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, address, TRUE, &error));
  g_assert_true (g_socket_listen (socket, &error));
  g_assert_no_error (error);
  return socket;
}

int
main (int   argc,
      char *argv[])
{
  /* The cairo renderer, as the UI tests use; and GTK's default, which on
   * Xvfb is GL in software (llvmpipe) and slower than any real GPU. */
  static const struct { const char *page, *renderer; } cases[] = {
    { "plans", "cairo" }, { "catalog", "cairo" }, { "compare", "cairo" }, { "plans", NULL },
    { "plans", "nogl" },
  };
  const char *binary = g_getenv ("QM_APP");
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;

  if (binary == NULL || g_getenv ("DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP needs QM_APP and a display (xvfb-run -a)\n");
      return 0;
    }
  dir = g_dir_make_tmp ("qm-bench-startup-XXXXXX", &error);
  g_assert_no_error (error);

  /* One unmeasured launch: the first one reads the libraries from disk. */
  launch (binary, dir, "plans", "cairo", 0);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      double ms[ROUNDS];
      g_autofree char *what = g_strdup_printf ("first window on %s, %s renderer", cases[c].page,
                                               cases[c].renderer ? cases[c].renderer : "default");

      for (guint r = 0; r < ROUNDS; r++)
        {
          ms[r] = launch (binary, dir, cases[c].page, cases[c].renderer, r + 1);
          g_assert_cmpfloat (ms[r], >, 0);
        }
      report (what, ms, ROUNDS, 400);
    }

  /* Last: the private bus stays up from here on. */
  if (start_keyring (dir))
    {
      g_autoptr(GSocket) hung = hang (dir);
      double ms[ROUNDS];

      hung_uri = g_strdup_printf ("postgresql:///quartermaster?host=%s", dir);
      for (guint r = 0; r < ROUNDS; r++)
        {
          ms[r] = launch (binary, dir, "plans", "cairo", 100 + r);
          g_assert_cmpfloat (ms[r], >, 0);
        }
      report ("first window, team server never answers", ms, ROUNDS, 1500);
    }
  else
    g_print ("first window, team server never answers: skipped, gnome-keyring-daemon is not installed\n");
  return 0;
}
