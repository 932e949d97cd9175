/* test-a11y-atspi.c: the app as a screen reader sees it (issue #37).
 *
 * test-a11y.c reads what GTK exposes in-process; this test reads what
 * reaches Orca. It starts a private D-Bus session bus (GTestDBus) whose
 * service directory activates the system's at-spi-bus-launcher, so GTK
 * (GTK_A11Y=atspi) registers on a real accessibility bus. For each page it
 * walks the AT-SPI tree over D-Bus from a worker thread (the GTK thread
 * answers the calls meanwhile), with the interfaces Orca uses:
 * org.a11y.atspi.Accessible's GetChildren, GetRoleName and the Name and
 * Description properties, and fails on
 *
 * - an unnamed control (a button, toggle, check box, radio, combo box,
 *   spin button, entry, slider, switch, link or menu item with no name),
 *   or one named by its GTK type ("GtkMenuButton");
 * - a doubled name ("Layers Layers");
 * - a mnemonic underscore spoken in a name ("_New Plan");
 * - a table (role table or tree table) without column headers.
 *
 * It prints each page's count of controls and tables, the figures the
 * closing note of issue #37 asks for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <gio/gio.h>
#include <string.h>

#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-preferences-window.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-window.h"
#include "qm-wizard.h"

#define ATSPI_ACCESSIBLE "org.a11y.atspi.Accessible"
#define ATSPI_ROOT_PATH  "/org/a11y/atspi/accessible/root"
#define CALL_TIMEOUT_MS  20000

static GTestDBus *session_bus;
/* The GTK process's unique name on the accessibility bus, once found (it
 * stays for the process's life). */
static char *app_bus_name;

/* ------------------------------------------------------------------ */
/* The walk, on the worker thread.                                     */

typedef struct
{
  const char      *window;     /* the one window to walk, or NULL for all */
  GDBusConnection *a11y;       /* the worker's own connection */
  const char      *app;        /* the GTK process's unique name */
  GString         *failures;
  GHashTable      *seen;       /* "name path" of nodes walked */
  guint            controls;
  guint            tables;
  guint            nodes;
} Walk;

static GVariant *
call (Walk       *w,
      const char *path,
      const char *iface,
      const char *method,
      GVariant   *args,
      const char *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply = g_dbus_connection_call_sync (w->a11y, w->app, path, iface, method, args,
                                                 reply_type != NULL ? G_VARIANT_TYPE (reply_type) : NULL,
                                                 G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS, NULL, &error);

  if (reply == NULL)
    g_string_append_printf (w->failures, "\n  %s: %s.%s failed: %s", path, iface, method, error->message);
  return reply;
}

static gboolean
is_control_role (const char *role)
{
  static const char *const roles[] = {
    /* GTK 4.8's AT-SPI role names (ARIA's words), and ATK's older ones. */
    "button", "push button", "toggle button", "check box", "radio", "radio button", "combo box",
    "spin button", "text box", "search box", "entry", "password text", "slider", "switch", "link",
    "menu item", "check menu item", "radio menu item", "tab", "page tab",
  };

  for (guint i = 0; i < G_N_ELEMENTS (roles); i++)
    if (g_str_equal (role, roles[i]))
      return TRUE;
  return FALSE;
}

/* "Layers Layers": the name is one phrase said twice. */
static gboolean
is_doubled (const char *name)
{
  gsize n = strlen (name);

  return n >= 3 && n % 2 == 1 && name[n / 2] == ' ' && strncmp (name, name + n / 2 + 1, n / 2) == 0;
}

static gboolean
names_a_type (const char *name)
{
  return g_str_has_prefix (name, "Gtk") || g_str_has_prefix (name, "Adw") || g_str_has_prefix (name, "Qm");
}

/* A mnemonic underscore: "_" before a letter, not inside a word such as
 * "snake_case" nor a catalog id ("h100_sxm"). */
static gboolean
speaks_mnemonic (const char *name)
{
  for (const char *p = name; (p = strchr (p, '_')) != NULL; p++)
    if ((p == name || p[-1] == ' ') && g_ascii_isalpha (p[1]))
      return TRUE;
  return FALSE;
}

static void walk_node (Walk *w, const char *path, const char *context, guint depth);


static void
check_table (Walk       *w,
             const char *path,
             const char *name,
             GVariant   *children)
{
  GVariantIter iter;
  const char *child_app, *child_path;
  gboolean headers = FALSE;

  /* The headers are the table's children or its first row's. */
  g_variant_iter_init (&iter, children);
  while (!headers && g_variant_iter_next (&iter, "(&s&o)", &child_app, &child_path))
    {
      g_autoptr(GVariant) r = call (w, child_path, ATSPI_ACCESSIBLE, "GetRoleName", NULL, "(s)");
      const char *role = "";
      g_autoptr(GVariant) grand = NULL;

      if (r == NULL)
        continue;
      g_variant_get (r, "(&s)", &role);
      if (strstr (role, "column header") != NULL)
        headers = TRUE;
      else if ((grand = call (w, child_path, ATSPI_ACCESSIBLE, "GetChildren", NULL, "(a(so))")) != NULL)
        {
          GVariantIter inner;
          const char *a, *p;
          g_autoptr(GVariant) list = g_variant_get_child_value (grand, 0);

          g_variant_iter_init (&inner, list);
          while (!headers && g_variant_iter_next (&inner, "(&s&o)", &a, &p))
            {
              g_autoptr(GVariant) rr = call (w, p, ATSPI_ACCESSIBLE, "GetRoleName", NULL, "(s)");
              const char *rrole = "";

              if (rr == NULL)
                continue;
              g_variant_get (rr, "(&s)", &rrole);
              headers = strstr (rrole, "column header") != NULL;
            }
        }
    }
  if (!headers)
    g_string_append_printf (w->failures, "\n  table \"%s\" (%s) has no column headers", name, path);
}

static void
walk_node (Walk       *w,
           const char *path,
           const char *context,
           guint       depth)
{
  g_autoptr(GVariant) role_reply = NULL;
  g_autoptr(GVariant) children_reply = NULL;
  g_autoptr(GVariant) children = NULL;
  g_autofree char *name = NULL;
  const char *role = "";
  gint32 child_count = -1;
  GVariantIter iter;
  const char *child_app, *child_path;

  if (depth > 64 || !g_hash_table_add (w->seen, g_strdup (path)))
    return;
  w->nodes++;
  if ((role_reply = call (w, path, ATSPI_ACCESSIBLE, "GetRoleName", NULL, "(s)")) == NULL)
    return;
  g_variant_get (role_reply, "(&s)", &role);
  /* Name and ChildCount in one call: a leaf (most nodes are labels) is
   * not asked for its children. GTK 4.8 reports a stack's other pages as
   * showing too, so they are walked and held to the same rules. */
  {
    g_autoptr(GVariant) all = call (w, path, "org.freedesktop.DBus.Properties", "GetAll",
                                    g_variant_new ("(s)", ATSPI_ACCESSIBLE), "(a{sv})");
    g_autoptr(GVariant) props = all != NULL ? g_variant_get_child_value (all, 0) : NULL;

    if (props == NULL || !g_variant_lookup (props, "Name", "s", &name))
      name = g_strdup ("");
    if (props != NULL)
      g_variant_lookup (props, "ChildCount", "i", &child_count);
  }
  if (depth == 1 && w->window != NULL && g_strcmp0 (name, w->window) != 0)
    return;
  if (g_getenv ("QM_ATSPI_DUMP") != NULL)
    g_printerr ("%*s%s \"%s\" %s\n", (int) depth, "", role, name, path);

  if (is_control_role (role))
    {
      w->controls++;
      if (name[0] == '\0' || names_a_type (name))
        g_string_append_printf (w->failures, "\n  %s \"%s\" unnamed, in \"%s\" (%s)", role, name, context, path);
    }
  if (name[0] != '\0' && is_doubled (name))
    g_string_append_printf (w->failures, "\n  %s named twice: \"%s\" (%s)", role, name, path);
  if (name[0] != '\0' && speaks_mnemonic (name))
    g_string_append_printf (w->failures, "\n  %s speaks its mnemonic: \"%s\" (%s)", role, name, path);

  if (child_count == 0 ||
      (children_reply = call (w, path, ATSPI_ACCESSIBLE, "GetChildren", NULL, "(a(so))")) == NULL)
    return;
  children = g_variant_get_child_value (children_reply, 0);
  /* Lists of data: GtkColumnView is a tree grid. (A grid is a layout:
   * GtkFlowBox, GtkGridView.) */
  if (g_str_equal (role, "table") || g_str_equal (role, "tree table") || g_str_equal (role, "tree grid"))
    {
      w->tables++;
      check_table (w, path, name, children);
    }
  g_variant_iter_init (&iter, children);
  while (g_variant_iter_next (&iter, "(&s&o)", &child_app, &child_path))
    if (g_strcmp0 (child_app, w->app) == 0)
      walk_node (w, child_path, name[0] != '\0' ? name : context, depth + 1);
}

static void
name_joined_cb (GDBusConnection *connection,
                const char      *sender,
                const char      *path,
                const char      *iface,
                const char      *signal,
                GVariant        *params,
                gpointer         data)
{
  guint *joined = data;

  (*joined)++;
}

static gboolean
tick_cb (gpointer data)
{
  return G_SOURCE_REMOVE;
}

/* The unique name whose accessible root is named @app_name, into
 * *app_out; FALSE while there is none. */
static gboolean
find_app (Walk       *w,
          const char *app_name,
          char      **app_out)
{
  g_autoptr(GVariant) names = NULL;
  g_autoptr(GVariant) list = NULL;
  GVariantIter iter;
  const char *bus_name;

  names = g_dbus_connection_call_sync (w->a11y, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "ListNames", NULL, G_VARIANT_TYPE ("(as)"),
                                       G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS, NULL, NULL);
  if (names == NULL)
    return FALSE;
  list = g_variant_get_child_value (names, 0);
  g_variant_iter_init (&iter, list);
  while (g_variant_iter_next (&iter, "&s", &bus_name))
    {
      g_autoptr(GVariant) name_reply = NULL;
      g_autoptr(GVariant) value = NULL;

      if (bus_name[0] != ':' || g_strcmp0 (bus_name, g_dbus_connection_get_unique_name (w->a11y)) == 0)
        continue;
      name_reply = g_dbus_connection_call_sync (w->a11y, bus_name, ATSPI_ROOT_PATH,
                                                "org.freedesktop.DBus.Properties", "Get",
                                                g_variant_new ("(ss)", ATSPI_ACCESSIBLE, "Name"),
                                                G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE,
                                                CALL_TIMEOUT_MS, NULL, NULL);
      if (name_reply == NULL)
        continue;
      g_variant_get (name_reply, "(v)", &value);
      if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING) &&
          g_strcmp0 (g_variant_get_string (value, NULL), app_name) == 0)
        {
          *app_out = g_strdup (bus_name);
          return TRUE;
        }
    }
  return FALSE;
}

/* The a11y bus's address, from org.a11y.Bus on the session bus, and the
 * unique name there of the process whose root is named @app_name. */
static gboolean
connect_a11y (Walk       *w,
              const char *app_name,
              char      **app_out,
              GError    **error)
{
  g_autoptr(GDBusConnection) session = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, error);
  g_autoptr(GVariant) reply = NULL;
  const char *address;

  *app_out = NULL;
  if (session == NULL)
    return FALSE;
  reply = g_dbus_connection_call_sync (session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus",
                                       "GetAddress", NULL, G_VARIANT_TYPE ("(s)"),
                                       G_DBUS_CALL_FLAGS_NONE, CALL_TIMEOUT_MS, NULL, error);
  if (reply == NULL)
    return FALSE;
  g_variant_get (reply, "(&s)", &address);
  w->a11y = g_dbus_connection_new_for_address_sync (address,
                                                    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                    G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                    NULL, NULL, error);
  if (w->a11y == NULL)
    return FALSE;
  if (app_bus_name != NULL)
    {
      *app_out = g_strdup (app_bus_name);
      return TRUE;
    }
  /* GTK joins the bus from its own thread's main loop, later than the
   * window appears (seconds later under AddressSanitizer): look again
   * whenever a name joins the bus, up to a deadline. */
  {
    gint64 deadline = g_get_monotonic_time () + CALL_TIMEOUT_MS * G_TIME_SPAN_MILLISECOND;
    GMainContext *context = g_main_context_new ();
    guint joined = 0;
    guint sub;

    g_main_context_push_thread_default (context);
    sub = g_dbus_connection_signal_subscribe (w->a11y, "org.freedesktop.DBus", "org.freedesktop.DBus",
                                              "NameOwnerChanged", "/org/freedesktop/DBus", NULL,
                                              G_DBUS_SIGNAL_FLAGS_NONE, name_joined_cb, &joined, NULL);
    for (;;)
      {
        guint seen = joined;

        if (find_app (w, app_name, app_out))
          break;
        /* Wait for the next name, or for the app to export its root. */
        while (joined == seen && g_get_monotonic_time () < deadline)
          {
            GSource *tick = g_timeout_source_new (100);

            g_source_set_callback (tick, tick_cb, NULL, NULL);
            g_source_attach (tick, context);
            g_main_context_iteration (context, TRUE);
            g_source_destroy (tick);
            g_source_unref (tick);
            if (find_app (w, app_name, app_out))
              break;
          }
        if (*app_out != NULL || g_get_monotonic_time () >= deadline)
          break;
      }
    g_dbus_connection_signal_unsubscribe (w->a11y, sub);
    g_main_context_pop_thread_default (context);
    g_main_context_unref (context);
    if (*app_out != NULL)
      {
        app_bus_name = g_strdup (*app_out);
        return TRUE;
      }
  }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no application \"%s\" on the accessibility bus", app_name);
  return FALSE;
}

typedef struct
{
  char     *page;
  char     *window;
  char     *app_name;
  GString  *failures;
  guint     controls, tables, nodes;
  gboolean  done;
  GError   *error;
} Job;

static gpointer
walk_thread (gpointer data)
{
  Job *job = data;
  Walk w = { 0 };
  g_autofree char *app = NULL;

  w.failures = job->failures;
  w.window = job->window;
  w.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (connect_a11y (&w, job->app_name, &app, &job->error))
    {
      w.app = app;
      walk_node (&w, ATSPI_ROOT_PATH, job->page, 0);
    }
  job->controls = w.controls;
  job->tables = w.tables;
  job->nodes = w.nodes;
  g_hash_table_unref (w.seen);
  g_clear_object (&w.a11y);
  g_atomic_int_set (&job->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Pages, on the GTK thread.                                           */

typedef struct
{
  GString    *failures;
  GHashTable *reported;   /* failure lines already in @failures */
  GString    *counts;
  guint       controls;
} Result;

static void
settle (void)
{
  gint64 end = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

/* Walks the whole application tree as it is now, naming failures after
 * @page. */
static void
walk_page (Result     *result,
           const char *page,
           GtkWindow  *window)
{
  Job job = { 0 };
  GThread *thread;

  settle ();
  job.page = g_strdup (page);
  job.app_name = g_strdup (g_get_prgname ());
  job.window = g_strdup (gtk_window_get_title (window));
  job.failures = g_string_new (NULL);
  thread = g_thread_new ("atspi-walk", walk_thread, &job);
  while (!g_atomic_int_get (&job.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  g_assert_no_error (job.error);

  g_test_message ("%s: %u controls, %u tables, %u nodes", page, job.controls, job.tables, job.nodes);
  g_string_append_printf (result->counts, "%s%s %u controls, %u tables", result->counts->len ? "; " : "",
                          page, job.controls, job.tables);
  g_assert_cmpuint (job.nodes, >, 10);
  result->controls += job.controls;
  /* Each failure once, under the first page that shows it. */
  {
    g_auto(GStrv) lines = g_strsplit (job.failures->str, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      if (lines[i][0] != '\0' && g_hash_table_add (result->reported, g_strdup (lines[i])))
        g_string_append_printf (result->failures, "\n%s:%s", page, lines[i]);
  }
  g_string_free (job.failures, TRUE);
  g_free (job.page);
  g_free (job.window);
  g_free (job.app_name);
}

static void
test_pages (void)
{
  static const char *pages[] = { "plans", "catalog", "compare", "quotes" };
  g_autofree char *dir = g_dir_make_tmp ("qm-atspi-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "plans.db", NULL);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GError) error = NULL;
  Result result = { g_string_new (NULL), g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                    g_string_new (NULL), 0 };
  QmStore *store;
  QmWindow *window;
  GtkWidget *other;
  gint64 ids[2];

  g_settings_set_boolean (settings, "first-run-done", TRUE);
  store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  ids[0] = qm_test_import_example (store, "llama-3.1-70b-pretrain-h100.qmplan");
  ids[1] = qm_test_import_example (store, "7b-pretrain-30-day-deadline.qmplan");

  window = qm_window_new_with_store (NULL, store);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      qm_window_set_page (window, pages[i]);
      walk_page (&result, pages[i], GTK_WINDOW (window));
    }
  qm_window_compare (window, ids, G_N_ELEMENTS (ids));
  walk_page (&result, "compare with plans", GTK_WINDOW (window));
  g_assert_true (qm_window_open_plan (window, ids[1]));
  walk_page (&result, "plan view", GTK_WINDOW (window));

  other = GTK_WIDGET (qm_preferences_window_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (other));
  walk_page (&result, "preferences", GTK_WINDOW (other));
  gtk_window_destroy (GTK_WINDOW (other));

  other = GTK_WIDGET (qm_wizard_new (GTK_WINDOW (window), store));
  gtk_window_present (GTK_WINDOW (other));
  walk_page (&result, "wizard", GTK_WINDOW (other));
  gtk_window_destroy (GTK_WINDOW (other));

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
  qm_store_free (store);

  g_test_message ("controls per page: %s", result.counts->str);
  g_assert_cmpuint (result.controls, >, 100);
  if (result.failures->len > 0)
    {
      /* On stderr: TAP takes no multi-line messages. */
      g_printerr ("As a screen reader hears them (AT-SPI):%s\n", result.failures->str);
      g_test_fail ();
    }
  g_string_free (result.failures, TRUE);
  g_hash_table_unref (result.reported);
  g_string_free (result.counts, TRUE);
}

int
main (int argc, char **argv)
{
  int status;

  /* A private session bus that can start the accessibility bus, and GTK
   * on it, before GTK reads either. */
  g_setenv ("GTK_A11Y", "atspi", TRUE);
  g_unsetenv ("NO_AT_BRIDGE");
  {
    /* g_test_dbus_up() unsets DISPLAY (against X11 autolaunch); GTK needs it. */
    g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));

    session_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
    g_test_dbus_add_service_dir (session_bus, "/usr/share/dbus-1/services");
    g_test_dbus_up (session_bus);
    if (display != NULL)
      g_setenv ("DISPLAY", display, TRUE);
  }

  if (!qm_test_ui_init (&argc, &argv))
    {
      g_test_dbus_stop (session_bus);
      return 0;
    }
  g_test_add_func ("/a11y-atspi/pages", test_pages);
  status = g_test_run ();
  /* Stop, not down: GTK keeps its session bus connection to the end. */
  g_test_dbus_stop (session_bus);
  /* Not unreferenced: its finalize would wait for GTK's connection. */
  return status;
}
