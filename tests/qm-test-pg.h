/* qm-test-pg.h: a private PostgreSQL cluster for one test binary.
 *
 * initdb + pg_ctl in a temporary folder, listening on a Unix socket in that
 * folder only (no TCP). initdb refuses to run as root, so as root the
 * server runs as the `postgres` account Debian's package creates. A
 * watchdog stops the server and removes the folder when the test process
 * ends, however it ends (an assertion aborts past atexit()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where Debian's postgresql-15 puts initdb, pg_ctl and postgres;
 * $QM_PG_BINDIR overrides it. */
#define QM_TEST_PG_BINDIR "/usr/lib/postgresql/15/bin"

/* The role the harness sets up to need a password (pg_hba.conf:
 * scram-sha-256); every other role connects by trust. */
#define QM_TEST_PG_PASSWORD_ROLE "qm_password"

typedef struct _QmTestPg QmTestPg;

/* TRUE when initdb and pg_ctl are there; otherwise a test may skip. */
gboolean     qm_test_pg_available  (void);

/* Starts the cluster, or fails the test with what went wrong. */
QmTestPg    *qm_test_pg_start      (void);
/* qm_test_pg_start() where PostgreSQL is installed (build-aux/dev installs
 * it, so CI always runs the server's cases); else NULL, said in the log. */
QmTestPg    *qm_test_pg_start_if_available (void);
/* Stops the server and removes its folder. */
void         qm_test_pg_stop       (QmTestPg   *pg);

/* The folder holding the socket. */
const char  *qm_test_pg_socket_dir (QmTestPg   *pg);
/* A URI for @dbname as the superuser: postgresql:///DB?host=DIR&user=... */
char        *qm_test_pg_uri        (QmTestPg   *pg,
                                    const char *dbname);
/* Creates a fresh, empty database and returns its URI. */
char        *qm_test_pg_new_database (QmTestPg *pg);
/* A fresh, empty database: its URI on @pg when @on_server, else a new
 * SQLite file in the test's data dir; several in one test differ. */
char        *qm_test_fresh_location (QmTestPg *pg,
                                     gboolean  on_server);
/* Runs SQL (no parameters: test set-up only) as the superuser on
 * @dbname, failing the test on error. */
void         qm_test_pg_exec       (QmTestPg   *pg,
                                    const char *dbname,
                                    const char *sql);

/* Stops the server at once, as a crash or a pulled plug would (pg_ctl
 * stop -m immediate: every connection is cut, nothing is flushed); the
 * data stay for qm_test_pg_resume(). */
void         qm_test_pg_kill       (QmTestPg   *pg);
/* Stops the server as an administrator would (pg_ctl stop -m fast: each
 * session is told "terminating connection due to administrator command"
 * and closed); qm_test_pg_resume() starts it again. */
void         qm_test_pg_shut_down  (QmTestPg   *pg);
/* A server that takes the connection and never answers (hung, or a
 * network that swallows packets): qm_test_pg_kill(), then a socket
 * listens where the server did and never accepts; the kernel completes
 * the connect, and the client waits for an answer that never comes. */
void         qm_test_pg_hang       (QmTestPg   *pg);
/* Starts the server again after qm_test_pg_kill(), qm_test_pg_hang() or
 * qm_test_pg_shut_down(), waiting until it accepts connections. */
void         qm_test_pg_resume     (QmTestPg   *pg);

G_END_DECLS
