/* qm-test-pg.c: the private PostgreSQL cluster of qm-test-pg.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <pwd.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <gio/gunixsocketaddress.h>
#include <libpq-fe.h>

#include "qm-test-pg.h"

/* The account Debian's postgresql package creates; initdb refuses root. */
#define SERVER_ACCOUNT "postgres"
#define SUPERUSER "postgres"

struct _QmTestPg
{
  char   *dir;        /* temporary folder: data/, the socket, log */
  char   *data;
  int     watchdog_fd; /* closing it (or exiting) stops the server */
  GPid    watchdog;
  guint   n_databases;
  GSocket *hung;      /* listening where the server did (qm_test_pg_hang) */
};

static const char *
bindir (void)
{
  const char *env = g_getenv ("QM_PG_BINDIR");

  return env != NULL && *env != '\0' ? env : QM_TEST_PG_BINDIR;
}

static char *
tool (const char *name)
{
  return g_build_filename (bindir (), name, NULL);
}

gboolean
qm_test_pg_available (void)
{
  g_autofree char *initdb = tool ("initdb");
  g_autofree char *pg_ctl = tool ("pg_ctl");

  return g_file_test (initdb, G_FILE_TEST_IS_EXECUTABLE) &&
         g_file_test (pg_ctl, G_FILE_TEST_IS_EXECUTABLE);
}

static gboolean
as_root (void)
{
  return geteuid () == 0;
}

/* Runs @argv (as the server account when we are root) and fails the test
 * with its output when it fails. */
static void
run_tool (const char * const *argv)
{
  g_autoptr(GPtrArray) full = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (as_root ())
    {
      g_ptr_array_add (full, (gpointer) "runuser");
      g_ptr_array_add (full, (gpointer) "-u");
      g_ptr_array_add (full, (gpointer) SERVER_ACCOUNT);
      g_ptr_array_add (full, (gpointer) "--");
    }
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (full, (gpointer) argv[i]);
  g_ptr_array_add (full, NULL);

  /* From "/": the server account may not read the test's folder. */
  if (!g_spawn_sync ("/", (char **) full->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("qm-test-pg: %s failed: %s\n%s%s", argv[0], error->message,
             out != NULL ? out : "", err != NULL ? err : "");
}

static void
write_file (const char *path,
            const char *text,
            gboolean    append)
{
  FILE *f = fopen (path, append ? "a" : "w");

  if (f == NULL || fputs (text, f) < 0 || fclose (f) != 0)
    g_error ("qm-test-pg: cannot write %s: %s", path, g_strerror (errno));
}

/* Owned by the server account, so initdb and the server can use it. */
static char *
make_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("qm-pg-XXXXXX", &error);

  g_assert_no_error (error);
  if (as_root ())
    {
      struct passwd *pw = getpwnam (SERVER_ACCOUNT);

      if (pw == NULL)
        g_error ("qm-test-pg: running as root, and there is no '%s' account to run the "
                 "server as (install postgresql-15)", SERVER_ACCOUNT);
      if (chown (dir, pw->pw_uid, pw->pw_gid) != 0)
        g_error ("qm-test-pg: cannot give %s to %s: %s", dir, SERVER_ACCOUNT, g_strerror (errno));
    }
  g_chmod (dir, 0700);
  return dir;
}

static void
configure (QmTestPg *pg)
{
  g_autofree char *conf = g_build_filename (pg->data, "postgresql.conf", NULL);
  g_autofree char *hba = g_build_filename (pg->data, "pg_hba.conf", NULL);
  g_autofree char *settings = g_strdup_printf (
    "\n# qm-test-pg: a Unix socket in the test's folder, no TCP; speed over safety.\n"
    "listen_addresses = ''\n"
    "unix_socket_directories = '%s'\n"
    "fsync = off\n"
    "synchronous_commit = off\n"
    "full_page_writes = off\n"
    "max_connections = 40\n"
    "shared_buffers = 32MB\n"
    /* A test's databases live seconds: no vacuum worker to compete with
     * them for the CPU, or to sit in template1 while CREATE DATABASE
     * copies it. */
    "autovacuum = off\n",
    pg->dir);

  write_file (conf, settings, TRUE);
  /* One role must give a password, to test a refused one. */
  write_file (hba,
              "local all " QM_TEST_PG_PASSWORD_ROLE " scram-sha-256\n"
              "local all all trust\n",
              FALSE);
}

/* A shell that waits for the pipe on its stdin to close (we exit or stop),
 * then stops the server and removes the folder. Its own session, so a
 * signal to the test's process group does not take it along. */
static void
watchdog_setup (gpointer data)
{
  setsid ();
}

static void
start_watchdog (QmTestPg *pg)
{
  g_autofree char *pg_ctl = tool ("pg_ctl");
  const char *script = as_root ()
    ? "cat >/dev/null; runuser -u " SERVER_ACCOUNT " -- \"$1\" -D \"$2\" -m immediate -w stop"
      " >/dev/null 2>&1; rm -rf \"$3\""
    : "cat >/dev/null; \"$1\" -D \"$2\" -m immediate -w stop >/dev/null 2>&1; rm -rf \"$3\"";
  const char *argv[] = { "/bin/sh", "-c", script, "sh", pg_ctl, pg->data, pg->dir, NULL };
  g_autoptr(GError) error = NULL;

  if (!g_spawn_async_with_pipes ("/", (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                 watchdog_setup, NULL, &pg->watchdog, &pg->watchdog_fd,
                                 NULL, NULL, &error))
    g_error ("qm-test-pg: cannot start the watchdog: %s", error->message);
}

static QmTestPg *running;

static void
stop_at_exit (void)
{
  g_clear_pointer (&running, qm_test_pg_stop);
}

QmTestPg *
qm_test_pg_start (void)
{
  QmTestPg *pg = g_new0 (QmTestPg, 1);
  g_autofree char *initdb = tool ("initdb");
  g_autofree char *pg_ctl = tool ("pg_ctl");
  g_autofree char *log = NULL;

  g_assert_true (qm_test_pg_available ());
  pg->dir = make_dir ();
  pg->data = g_build_filename (pg->dir, "data", NULL);
  log = g_build_filename (pg->dir, "server.log", NULL);
  pg->watchdog_fd = -1;

  {
    const char *argv[] = { initdb, "-D", pg->data, "-U", SUPERUSER, "-A", "trust",
                           "-E", "UTF8", "--locale=C", "--no-sync", NULL };
    run_tool (argv);
  }
  configure (pg);
  start_watchdog (pg);
  {
    const char *argv[] = { pg_ctl, "-D", pg->data, "-l", log, "-w", "-t", "60", "start", NULL };
    run_tool (argv);
  }
  if (running == NULL)
    {
      running = pg;
      atexit (stop_at_exit);
    }
  return pg;
}

QmTestPg *
qm_test_pg_start_if_available (void)
{
  if (qm_test_pg_available ())
    return qm_test_pg_start ();
  g_test_message ("PostgreSQL is not installed in %s: its tests are skipped", QM_TEST_PG_BINDIR);
  return NULL;
}

void
qm_test_pg_stop (QmTestPg *pg)
{
  int status;

  if (pg == NULL)
    return;
  if (running == pg)
    running = NULL;
  /* The watchdog stops the server and removes the folder. */
  if (pg->watchdog_fd >= 0)
    close (pg->watchdog_fd);
  if (pg->watchdog > 0)
    {
      waitpid (pg->watchdog, &status, 0);
      g_spawn_close_pid (pg->watchdog);
    }
  g_clear_object (&pg->hung);
  g_free (pg->dir);
  g_free (pg->data);
  g_free (pg);
}

const char *
qm_test_pg_socket_dir (QmTestPg *pg)
{
  return pg->dir;
}

char *
qm_test_pg_uri (QmTestPg   *pg,
                const char *dbname)
{
  return g_strdup_printf ("postgresql:///%s?host=%s&user=%s", dbname, pg->dir, SUPERUSER);
}

static void
quiet (void       *data,
       const char *message)
{
}

void
qm_test_pg_exec (QmTestPg   *pg,
                 const char *dbname,
                 const char *sql)
{
  g_autofree char *uri = qm_test_pg_uri (pg, dbname);
  PGconn *conn = PQconnectdb (uri);
  PGresult *result;

  if (PQstatus (conn) != CONNECTION_OK)
    g_error ("qm-test-pg: cannot connect to %s: %s", uri, PQerrorMessage (conn));
  /* "role does not exist, skipping" and the like. */
  PQsetNoticeProcessor (conn, quiet, NULL);
  result = PQexec (conn, sql);
  if (PQresultStatus (result) != PGRES_COMMAND_OK && PQresultStatus (result) != PGRES_TUPLES_OK)
    g_error ("qm-test-pg: %s failed: %s", sql, PQerrorMessage (conn));
  PQclear (result);
  PQfinish (conn);
}

char *
qm_test_pg_new_database (QmTestPg *pg)
{
  /* A name we make, never user input: CREATE DATABASE takes no parameters. */
  g_autofree char *name = g_strdup_printf ("qm_test_%u", ++pg->n_databases);
  g_autofree char *sql = g_strdup_printf ("CREATE DATABASE %s", name);

  qm_test_pg_exec (pg, "postgres", sql);
  return qm_test_pg_uri (pg, name);
}

char *
qm_test_fresh_location (QmTestPg *pg,
                        gboolean  on_server)
{
  static guint n;

  if (on_server)
    return qm_test_pg_new_database (pg);
  g_mkdir_with_parents (g_get_user_data_dir (), 0700);
  return g_strdup_printf ("%s/fresh-%u.db", g_get_user_data_dir (), ++n);
}

void
qm_test_pg_kill (QmTestPg *pg)
{
  g_autofree char *pg_ctl = tool ("pg_ctl");
  const char *argv[] = { pg_ctl, "-D", pg->data, "-m", "immediate", "-w", "stop", NULL };

  run_tool (argv);
}

void
qm_test_pg_shut_down (QmTestPg *pg)
{
  g_autofree char *pg_ctl = tool ("pg_ctl");
  const char *argv[] = { pg_ctl, "-D", pg->data, "-m", "fast", "-w", "stop", NULL };

  run_tool (argv);
}

static char *
socket_path (QmTestPg *pg)
{
  return g_build_filename (pg->dir, ".s.PGSQL.5432", NULL);
}

void
qm_test_pg_hang (QmTestPg *pg)
{
  g_autofree char *path = socket_path (pg);
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (path);
  g_autoptr(GError) error = NULL;

  g_assert_null (pg->hung);
  qm_test_pg_kill (pg);
  pg->hung = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, 0, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (pg->hung, address, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (g_socket_listen (pg->hung, &error));
  g_assert_no_error (error);
}

void
qm_test_pg_resume (QmTestPg *pg)
{
  g_autofree char *pg_ctl = tool ("pg_ctl");
  g_autofree char *log = g_build_filename (pg->dir, "server.log", NULL);
  const char *argv[] = { pg_ctl, "-D", pg->data, "-l", log, "-w", "-t", "60", "start", NULL };

  if (pg->hung != NULL)
    {
      g_autofree char *path = socket_path (pg);

      g_socket_close (pg->hung, NULL);
      g_clear_object (&pg->hung);
      g_unlink (path);
    }
  run_tool (argv);
}
