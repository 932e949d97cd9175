/* qm-team-connection.c: the team server's settings, its password in the
 * keyring, and opening its store (qm-team-connection.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <adwaita.h>
#include <libsecret/secret.h>

#include "qm-db.h"
#include "qm-team-connection.h"

static const SecretSchema *
secret_schema (void)
{
  static const SecretSchema schema = {
    QM_TEAM_SECRET_SCHEMA, SECRET_SCHEMA_NONE,
    {
      { "uri", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

/* ------------------------------------------------------------------ */
/* The URI                                                             */

/* The part of @uri between "://" and the first '/' or '?'. */
static char *
authority (const char *uri)
{
  const char *start = strstr (uri, "://");

  if (start == NULL)
    return g_strdup ("");
  start += 3;
  return g_strndup (start, strcspn (start, "/?"));
}

/* The value of query parameter @name, percent-decoded, or NULL. */
static char *
query_param (const char *uri,
             const char *name)
{
  const char *query = strchr (uri, '?');
  g_auto(GStrv) params = NULL;
  gsize len = strlen (name);

  if (query == NULL)
    return NULL;
  params = g_strsplit (query + 1, "&", -1);
  for (guint i = 0; params[i] != NULL; i++)
    if (g_ascii_strncasecmp (params[i], name, len) == 0 && params[i][len] == '=')
      return g_uri_unescape_string (params[i] + len + 1, NULL);
  return NULL;
}

gboolean
qm_team_check_uri (const char  *uri,
                   GError     **error)
{
  if (uri == NULL || !qm_db_location_is_uri (uri))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   _("The team database is named by a URI starting with postgresql://, "
                     "such as postgresql://db.example.com/quartermaster?sslmode=verify-full"));
      return FALSE;
    }
  /* A password in the URI would end up in the settings, in plain text:
   * in the user part, or as any parameter libpq reads a secret from,
   * however its name is spelt (pass%77ord=, sslpassword=). */
  if (qm_db_location_has_secret (uri))
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   _("Remove the password from the URI and type it in the Password field: "
                     "it is kept in the keyring, not in the settings"));
      return FALSE;
    }
  return TRUE;
}

char *
qm_team_server_label (const char *uri)
{
  g_autofree char *auth = authority (uri);
  g_autofree char *host = NULL;
  g_autofree char *dbname = NULL;
  const char *at = strrchr (auth, '@');
  const char *host_start = at != NULL ? at + 1 : auth;
  const char *path = strstr (uri, "://");

  host = g_strndup (host_start, strcspn (host_start, ":"));
  if (host[0] == '\0')
    {
      g_free (host);
      host = query_param (uri, "host");
      /* No host, or a Unix socket's folder: a server on this machine. */
      if (host == NULL || host[0] == '/' || host[0] == '\0')
        {
          g_free (host);
          host = g_strdup ("localhost");
        }
    }
  if (path != NULL && (path = strchr (path + 3, '/')) != NULL)
    dbname = g_uri_unescape_segment (path + 1, path + 1 + strcspn (path + 1, "?"), NULL);
  if (dbname == NULL || dbname[0] == '\0')
    {
      g_free (dbname);
      dbname = query_param (uri, "dbname");
    }
  return g_strdup_printf ("%s/%s", host, dbname != NULL ? dbname : "");
}

static void
append_param (GString    *location,
              const char *name,
              const char *value)
{
  g_autofree char *escaped = NULL;

  if (value == NULL || value[0] == '\0')
    return;
  escaped = g_uri_escape_string (value, NULL, FALSE);
  g_string_append_c (location, strchr (location->str, '?') != NULL ? '&' : '?');
  g_string_append_printf (location, "%s=%s", name, escaped);
}

char *
qm_team_location (const char *uri,
                  const char *user,
                  const char *password)
{
  GString *location = g_string_new (uri);

  /* libpq reads the last value of a keyword, so these win over any user
   * in the URI's authority. */
  append_param (location, "user", user);
  append_param (location, "password", password);
  return g_string_free (location, FALSE);
}

/* ------------------------------------------------------------------ */
/* The keyring                                                         */

static void
keyring_error (GError    **error,
               GError     *cause,
               const char *user,
               const char *uri,
               gboolean    storing)
{
  g_autofree char *label = qm_team_server_label (uri);

  g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_FAILED,
               storing ? _("The password for %s on %s could not be kept in the keyring: %s")
                       : _("The password for %s on %s could not be read from the keyring: %s"),
               user, label, cause->message);
}

gboolean
qm_team_password_store (const char  *uri,
                        const char  *user,
                        const char  *password,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *label = qm_team_server_label (uri);
  g_autofree char *title = NULL;

  /* The keyring's list shows this title. */
  title = g_strdup_printf (_("Quartermaster team database %s (%s)"), label, user);
  if (!secret_password_store_sync (secret_schema (), SECRET_COLLECTION_DEFAULT, title, password,
                                   NULL, &local_error, "uri", uri, "user", user, NULL))
    {
      keyring_error (error, local_error, user, uri, TRUE);
      return FALSE;
    }
  return TRUE;
}

char *
qm_team_password_lookup (const char  *uri,
                         const char  *user,
                         GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  char *password = secret_password_lookup_sync (secret_schema (), NULL, &local_error,
                                                "uri", uri, "user", user, NULL);

  if (local_error != NULL)
    keyring_error (error, local_error, user, uri, FALSE);
  return password;
}

gboolean
qm_team_password_clear (const char  *uri,
                        const char  *user,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  secret_password_clear_sync (secret_schema (), NULL, &local_error, "uri", uri, "user", user, NULL);
  if (local_error != NULL)
    {
      keyring_error (error, local_error, user, uri, TRUE);
      return FALSE;
    }
  return TRUE;
}

void
qm_team_password_free (char *password)
{
  if (password != NULL)
    secret_password_free (password);
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */

/* @cancellable fired while libpq connects: nothing is migrated (the
 * Preferences closed, the window went). */
static QmStore *
open_server (const char    *uri,
             const char    *user,
             const char    *password,
             GCancellable  *cancellable,
             GError       **error)
{
  char *location = qm_team_location (uri, user, password);
  QmStore *store = qm_store_open_cancellable (location, QM_STORE_OPEN_NONE, cancellable, error);

  /* The location holds the password: wipe it rather than leave it in freed memory. */
  memset (location, 0, strlen (location));
  g_free (location);
  return store;
}

gboolean
qm_team_is_configured (GSettings *settings)
{
  g_autofree char *mode = g_settings_get_string (settings, "database");

  return g_str_equal (mode, "server");
}

/* The keyring's password for @uri and @user, then the server's store:
 * what start-up waits on, on whichever thread calls it. */
static QmStore *
open_with_keyring (const char    *uri,
                   const char    *user,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GError) keyring = NULL;
  char *password;
  QmStore *store;

  /* No password kept is fine: the server may trust this user (a local
   * socket, a client certificate), and it says so if not. */
  password = qm_team_password_lookup (uri, user, &keyring);
  if (keyring != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&keyring));
      return NULL;
    }
  store = open_server (uri, user, password, cancellable, error);
  qm_team_password_free (password);
  return store;
}

QmStore *
qm_team_open_configured (GSettings  *settings,
                         GError    **error)
{
  g_autofree char *uri = g_settings_get_string (settings, "server-uri");
  g_autofree char *user = g_settings_get_string (settings, "server-user");

  if (!qm_team_is_configured (settings))
    return NULL;
  if (!qm_team_check_uri (uri, error))
    return NULL;
  return open_with_keyring (uri, user, NULL, error);
}

typedef struct
{
  char *uri;
  char *user;
  char *password;
} ConnectData;

static void
connect_data_free (gpointer data)
{
  ConnectData *d = data;

  g_free (d->uri);
  g_free (d->user);
  if (d->password != NULL)
    memset (d->password, 0, strlen (d->password));
  g_free (d->password);
  g_free (d);
}

static void
open_configured_thread (GTask        *task,
                        gpointer      source,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  ConnectData *d = task_data;
  GError *error = NULL;
  QmStore *store = open_with_keyring (d->uri, d->user, cancellable, &error);

  if (store == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, store, (GDestroyNotify) qm_store_free);
}

void
qm_team_open_configured_async (GSettings           *settings,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autofree char *uri = g_settings_get_string (settings, "server-uri");
  g_autofree char *user = g_settings_get_string (settings, "server-user");
  GError *error = NULL;
  ConnectData *d;

  g_task_set_source_tag (task, qm_team_open_configured_async);
  if (!qm_team_is_configured (settings))
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }
  if (!qm_team_check_uri (uri, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  d = g_new0 (ConnectData, 1);
  d->uri = g_steal_pointer (&uri);
  d->user = g_steal_pointer (&user);
  g_task_set_task_data (task, d, connect_data_free);
  /* libpq's connect cannot be interrupted: a cancelled open answers at
   * once, and the store the worker opens later is closed by the task
   * (the destroy notify of g_task_return_pointer). */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, open_configured_thread);
}

QmStore *
qm_team_open_configured_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == qm_team_open_configured_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
connect_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ConnectData *d = task_data;
  GError *error = NULL;
  QmStore *store = open_server (d->uri, d->user, d->password, cancellable, &error);

  if (store == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, store, (GDestroyNotify) qm_store_free);
}

void
qm_team_connect_async (const char          *uri,
                       const char          *user,
                       const char          *password,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ConnectData *d = g_new0 (ConnectData, 1);

  d->uri = g_strdup (uri);
  d->user = g_strdup (user);
  d->password = g_strdup (password);
  g_task_set_source_tag (task, qm_team_connect_async);
  g_task_set_task_data (task, d, connect_data_free);
  g_task_run_in_thread (task, connect_thread);
}

QmStore *
qm_team_connect_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* The window                                                          */

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

void
qm_team_show_state (GtkWindow  *window,
                    const char *state,
                    const char *place,
                    gboolean    offline)
{
  GtkWidget *title = find_type (GTK_WIDGET (window), ADW_TYPE_VIEW_SWITCHER_TITLE);
  GtkWidget *header = find_type (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR);
  GtkWidget *button = g_object_get_data (G_OBJECT (window), "qm-team-state");
  GtkWidget *content;

  /* A narrow window shows the subtitle instead of the view switcher. */
  if (title != NULL)
    adw_view_switcher_title_set_subtitle (ADW_VIEW_SWITCHER_TITLE (title), state != NULL ? state : "");
  if (header == NULL)
    return;
  if (button == NULL)
    {
      button = gtk_button_new ();
      gtk_widget_add_css_class (button, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "app.preferences");
      gtk_button_set_child (GTK_BUTTON (button), adw_button_content_new ());
      adw_header_bar_pack_start (ADW_HEADER_BAR (header), button);
      g_object_set_data (G_OBJECT (window), "qm-team-state", button);
    }
  /* Nothing on this computer's file: that is the usual case. */
  gtk_widget_set_visible (button, state != NULL);
  if (state == NULL)
    return;
  content = gtk_button_get_child (GTK_BUTTON (button));
  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content),
                                    offline ? "network-offline-symbolic" : "network-server-symbolic");
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), place);
  gtk_widget_set_tooltip_text (button, state);
}
