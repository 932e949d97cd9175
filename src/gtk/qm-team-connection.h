/* qm-team-connection.h: which database the app opens: the SQLite file on
 * this computer, or a team's PostgreSQL server (issue #23).
 *
 * The server's URI and user name are settings (GSettings keys database,
 * server-uri, server-user); its password is kept only in the Secret
 * Service (GNOME Keyring) through libsecret, and reaches libpq inside the
 * location string handed to the store, which never shows it
 * (qm_db_location_redact).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "qm-store.h"

G_BEGIN_DECLS

/* The libsecret schema of the stored passwords: attributes "uri" (the
 * server's URI, without a password) and "user". */
#define QM_TEAM_SECRET_SCHEMA "io.github.quartermaster.Quartermaster.TeamServer"

/* A URI the Preferences may keep: postgresql:// or postgres://, and no
 * password in it (the keyring holds that). FALSE with
 * QM_STORE_ERROR_INVALID saying what to change. */
gboolean  qm_team_check_uri          (const char  *uri,
                                      GError     **error);

/* "host/database" for the window's subtitle and messages: the host, or
 * "localhost" for none or a Unix socket (a host= folder). */
char     *qm_team_server_label       (const char  *uri);

/* The location the store opens: @uri with user= and password= added as
 * percent-encoded parameters (either may be NULL or empty). Holds the
 * password: give it only to qm_store_open(), never to a message. */
char     *qm_team_location           (const char  *uri,
                                      const char  *user,
                                      const char  *password);

/* The keyring. Store replaces any password kept for the same URI and
 * user; lookup returns NULL without an error when none is kept. */
gboolean  qm_team_password_store     (const char  *uri,
                                      const char  *user,
                                      const char  *password,
                                      GError     **error);
char     *qm_team_password_lookup    (const char  *uri,
                                      const char  *user,
                                      GError     **error);
gboolean  qm_team_password_clear     (const char  *uri,
                                      const char  *user,
                                      GError     **error);
/* Frees a password from lookup, wiping it first. */
void      qm_team_password_free      (char        *password);

/* The store the settings name: NULL with no error for "local" (the
 * caller opens the file), the server's store when it connects, or NULL
 * with @error saying in words why the server could not be used. */
QmStore  *qm_team_open_configured    (GSettings   *settings,
                                      GError     **error);
/* qm_team_open_configured() in a worker thread (issue #34 item 2: a
 * server that takes the connection and never answers holds libpq for its
 * connect timeout, so the first window never waits for it). The settings
 * are read here, on the caller's thread; the keyring lookup and the
 * connect run in the worker. Cancelling @cancellable gives
 * G_IO_ERROR_CANCELLED at once (the worker's connect ends on its own
 * and its store is closed). The result is the store, NULL with no error
 * for "local", or the error. */
void      qm_team_open_configured_async  (GSettings           *settings,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
QmStore  *qm_team_open_configured_finish (GAsyncResult        *result,
                                          GError             **error);
/* TRUE when the settings name a team server (database is "server"). */
gboolean  qm_team_is_configured      (GSettings   *settings);

/* Connects to @uri as @user with @password in a thread (the Connect
 * button: the window stays responsive while libpq waits) and opens the
 * store as the app would. The result is the QmStore, or the error.
 * Cancelled (the Preferences closed) while libpq waits: the callback
 * comes when the worker is done, with G_IO_ERROR_CANCELLED, and nothing
 * was migrated or synced on the server. */
void      qm_team_connect_async      (const char          *uri,
                                      const char          *user,
                                      const char          *password,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
QmStore  *qm_team_connect_finish     (GAsyncResult        *result,
                                      GError             **error);

/* Says in @window's header which database it works on: @state in words
 * ("Team server: host/db") as the title's subtitle (shown when narrow) and
 * the tooltip of a button showing @place ("host/db", or "This Computer"
 * when @offline) that opens the Preferences. NULL @state: the file on
 * this computer, nothing shown. */
void      qm_team_show_state         (GtkWindow           *window,
                                      const char          *state,
                                      const char          *place,
                                      gboolean             offline);

G_END_DECLS
