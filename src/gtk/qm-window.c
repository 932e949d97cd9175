/* qm-window.c: the main window, with the Plans, Catalog, Compare and Quotes
 * pages.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "qm-a11y.h"
#include "qm-application.h"
#include "qm-catalog-page.h"
#include "qm-compare-page.h"
#include "qm-connection-banner.h"
#include "qm-formulas-window.h"
#include "qm-gtk.h"
#include "qm-plan-editor.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-plans-page.h"
#include "qm-quotes-page.h"
#include "qm-store-roles.h"
#include "qm-store-watch.h"
#include "qm-wizard.h"
#include "qm-window.h"

struct _QmWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  QmStore              *store;     /* a reference to the application's, or a test's */

  AdwToastOverlay      *toast_overlay;
  AdwLeaflet           *leaflet;
  GtkWidget            *main_box;
  GtkWidget            *detail;    /* the page shown over the main one, or NULL */
  AdwViewStack         *stack;
  GtkMenuButton        *primary_menu_button;
  GMenuModel           *primary_menu;
  AdwBin               *compare_bin;
  QmComparePage        *compare_page;
  AdwBin               *plans_bin;
  QmPlansPage          *plans_page;
  AdwBin               *catalog_bin;
  GtkWidget            *catalog_page;
  AdwBin               *quotes_bin;
  QmQuotesPage         *quotes_page;
  gboolean              pages_ready;  /* the store is known: pages may be built */
  guint                 watch_source;    /* a team database's notifications */
  guint                 rewatch_source;  /* watching again after losing the server */
  GCancellable         *watch_starting;  /* the watch's connect under way, or NULL */
  QmConnectionBanner   *banner;
  /* Cancelled when the window goes: work started for it (the app's
   * first connect to the team server) is then dropped. */
  GCancellable         *cancellable;
};

G_DEFINE_FINAL_TYPE (QmWindow, qm_window, ADW_TYPE_APPLICATION_WINDOW)

static QmPlansPage   *get_plans_page   (QmWindow *self);
static void           watch_store      (QmWindow *self);

/* ------------------------------------------------------------------ */
/* Live refresh: another client of a team database saved something.    */

/* Reloads the pages that show what changed; the plans page keeps its
 * selection and search through a reload. */
static void
refresh_pages (QmWindow      *self,
               QmStoreChange  changes)
{
  if ((changes & QM_STORE_CHANGE_PLANS) && self->plans_page != NULL)
    qm_plans_page_reload (self->plans_page);
  if ((changes & QM_STORE_CHANGE_QUOTES) && self->quotes_page != NULL)
    qm_quotes_page_reload (self->quotes_page);
  if ((changes & QM_STORE_CHANGE_CATALOG) && self->catalog_page != NULL)
    qm_catalog_page_reload (QM_CATALOG_PAGE (self->catalog_page));
}

/* Windows share the application's store, and one of them takes the
 * notifications off its connection: it refreshes them all. */
static void
store_changed_cb (QmStore       *store,
                  QmStoreChange  changes,
                  gpointer       user_data)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (user_data));
  GList *windows = app != NULL ? gtk_application_get_windows (app) : NULL;

  /* Lost: the server is away, and a reload now would empty the lists;
   * they reload once the watch is back (rewatch_cb). */
  if (changes & QM_STORE_CHANGE_LOST)
    return;
  if (windows == NULL)
    refresh_pages (QM_WINDOW (user_data), changes);
  for (GList *l = windows; l != NULL; l = l->next)
    if (QM_IS_WINDOW (l->data) && QM_WINDOW (l->data)->store == store)
      refresh_pages (QM_WINDOW (l->data), changes);
}

static gboolean
rewatch_cb (gpointer user_data)
{
  QmWindow *self = QM_WINDOW (user_data);

  self->rewatch_source = 0;
  watch_store (self);
  return G_SOURCE_REMOVE;
}

static gboolean
store_readable_cb (int           fd,
                   GIOCondition  condition,
                   gpointer      user_data)
{
  QmWindow *self = QM_WINDOW (user_data);
  QmStoreChange changes = QM_STORE_CHANGE_NONE;

  /* Another window may have lost (and closed) the watch already. */
  if (!(condition & G_IO_NVAL))
    changes = qm_store_watch_dispatch (self->store, store_changed_cb, self);
  if (!(changes & QM_STORE_CHANGE_LOST) && !(condition & (G_IO_NVAL | G_IO_HUP | G_IO_ERR)))
    return G_SOURCE_CONTINUE;
  self->watch_source = 0;
  if (self->rewatch_source == 0)
    self->rewatch_source = g_timeout_add_seconds (10, rewatch_cb, self);
  return G_SOURCE_REMOVE;
}

static void
watch_started_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  int fd = qm_store_watch_start_finish (result, &error);
  QmWindow *self;

  /* Cancelled by dispose: the window may be gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = QM_WINDOW (user_data);
  g_clear_object (&self->watch_starting);
  if (fd >= 0)
    {
      self->watch_source = g_unix_fd_add (fd, G_IO_IN | G_IO_HUP | G_IO_ERR, store_readable_cb, self);
      /* Whatever changed while the server was away, or between the
       * pages' first load and the LISTEN. */
      refresh_pages (self, QM_STORE_CHANGE_ALL);
    }
  else if (error != NULL)
    {
      g_debug ("Not watching %s for changes yet: %s", qm_store_path (self->store), error->message);
      if (self->rewatch_source == 0)
        self->rewatch_source = g_timeout_add_seconds (10, rewatch_cb, self);
    }
}

/* Nothing to do on a file (the fd is -1); a server that cannot be
 * reached now is tried again later. The connect waits in a worker
 * thread: a server that does not answer leaves the window responsive. */
static void
watch_store (QmWindow *self)
{
  if (self->store == NULL || self->watch_source != 0 || self->watch_starting != NULL)
    return;
  self->watch_starting = g_cancellable_new ();
  qm_store_watch_start_async (self->store, self->watch_starting, watch_started_cb, self);
}

static QmComparePage *get_compare_page (QmWindow *self);

static void
qm_window_save_state (QmWindow *self)
{
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_set_string (self->settings, "last-page", qm_window_get_page (self));
}

static gboolean
qm_window_close_request (GtkWindow *window)
{
  qm_window_save_state (QM_WINDOW (window));

  return GTK_WINDOW_CLASS (qm_window_parent_class)->close_request (window);
}

static void
plan_view_back (QmWindow *self)
{
  qm_window_close_detail (self);
}

static void
plan_view_add_to_compare (QmWindow *self,
                          gint64    id)
{
  if (id <= 0 || !qm_compare_page_add_plan (get_compare_page (self), id))
    {
      qm_window_show_toast (self, _("Save the plan before comparing it"));
      return;
    }
  qm_window_close_detail (self);
  qm_window_set_page (self, "compare");
}

static void
plan_view_duplicated (QmWindow *self,
                      gint64    id)
{
  qm_window_open_plan (self, id);
}

/* Shows @editor's plan in a plan view over the main pages. */
static QmPlanView *
show_plan_view (QmWindow     *self,
                QmPlanEditor *editor)
{
  QmPlanView *view = QM_PLAN_VIEW (qm_plan_view_new (self->store, editor));

  g_signal_connect_object (view, "back", G_CALLBACK (plan_view_back), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (view, "add-to-compare", G_CALLBACK (plan_view_add_to_compare), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (view, "duplicated", G_CALLBACK (plan_view_duplicated), self,
                           G_CONNECT_SWAPPED);
  qm_window_open_detail (self, GTK_WIDGET (view));
  return view;
}

static void
wizard_plan_created (QmWindow     *self,
                     const QmPlan *plan)
{
  g_autoptr(QmPlanEditor) editor = qm_plan_editor_new (plan);
  g_autoptr(GError) error = NULL;
  QmPlanView *view = show_plan_view (self, editor);

  /* Saved at once, so it is in the list even if the app stops; a failed
   * save keeps the plan in the view, and autosave tries again. */
  if (!qm_plan_view_save (view, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The plan is not saved yet: %s"), error->message);
      qm_window_show_toast (self, message);
    }
}

static void
new_plan_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  QmWindow *self = QM_WINDOW (widget);
  QmWizard *wizard = qm_wizard_new (GTK_WINDOW (self), self->store);

  g_signal_connect_object (wizard, "plan-created", G_CALLBACK (wizard_plan_created), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (wizard));
}

/* The shortcuts window, built when first asked for rather than by
 * GtkApplication with every window (it looks for gtk/help-overlay.ui):
 * building it cost more than the rest of the window (issue #20 item 10). */
static void
show_help_overlay_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (widget);

  if (gtk_application_window_get_help_overlay (window) == NULL)
    {
      g_autoptr(GtkBuilder) builder = qm_gtk_builder_new ("help-overlay.ui");

      gtk_application_window_set_help_overlay (window,
                                                GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder,
                                                                                              "help_overlay")));
    }
  gtk_window_present (GTK_WINDOW (gtk_application_window_get_help_overlay (window)));
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  qm_window_set_page (QM_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
leaflet_transition_changed (QmWindow *self)
{
  /* Once the slide back to the main page has finished, drop the detail
   * page so a closed plan frees its widgets. */
  if (self->detail != NULL &&
      !adw_leaflet_get_child_transition_running (self->leaflet) &&
      adw_leaflet_get_visible_child (self->leaflet) == self->main_box)
    {
      adw_leaflet_remove (self->leaflet, self->detail);
      self->detail = NULL;
      /* The plan may have been saved, renamed or duplicated meanwhile. */
      if (self->plans_page != NULL)
        qm_plans_page_reload (self->plans_page);
      if (self->quotes_page != NULL)
        qm_quotes_page_reload (self->quotes_page);
    }
}

/* A menu button builds its popover with all the items as soon as it has
 * a menu: give it the menu when it first opens instead. */
static void
create_primary_menu (GtkMenuButton *button,
                     gpointer       user_data)
{
  QmWindow *self = QM_WINDOW (user_data);

  gtk_menu_button_set_menu_model (button, self->primary_menu);
}

static void
qm_window_dispose (GObject *object)
{
  QmWindow *self = QM_WINDOW (object);

  g_clear_handle_id (&self->watch_source, g_source_remove);
  g_clear_handle_id (&self->rewatch_source, g_source_remove);
  /* The connect may end after the window is gone: watch_started_cb() sees this. */
  g_cancellable_cancel (self->watch_starting);
  g_clear_object (&self->watch_starting);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->banner = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_WINDOW);
  g_clear_object (&self->settings);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_window_parent_class)->dispose (object);
}

static void
plans_compare (QmWindow *self,
               GVariant *ids)
{
  gsize n = 0;
  const gint64 *v = g_variant_get_fixed_array (ids, &n, sizeof (gint64));

  qm_window_compare (self, v, n);
}

static void
plans_new_plan (QmWindow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.new-plan", NULL);
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  QmWindow *self = QM_WINDOW (widget);

  /* Ctrl+O anywhere: importing lands on the plan list. */
  qm_window_close_detail (self);
  qm_window_set_page (self, "plans");
  gtk_widget_activate_action (GTK_WIDGET (get_plans_page (self)), "plans.import", NULL);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  QmWindow *self = QM_WINDOW (widget);
  const char *page = qm_window_get_page (self);

  /* Ctrl+F searches the page in front: plans or catalog. */
  if (self->detail != NULL)
    return;
  if (g_strcmp0 (page, "plans") == 0)
    gtk_widget_activate_action (GTK_WIDGET (get_plans_page (self)), "plans.search", NULL);
  else if (g_strcmp0 (page, "catalog") == 0 && QM_IS_CATALOG_PAGE (self->catalog_page))
    qm_catalog_page_focus_search (QM_CATALOG_PAGE (self->catalog_page));
  else if (g_strcmp0 (page, "quotes") == 0 && self->quotes_page != NULL)
    qm_quotes_page_focus_search (self->quotes_page);
}

/* Each page is built when it is first shown, not with the window: the
 * catalog's column view and the compare page's charts cost most of a cold
 * start (issue #20 item 10), and most sessions never open them. */
static GtkWidget *
ensure_page (QmWindow   *self,
             const char *name)
{
  if (g_strcmp0 (name, "plans") == 0 && self->plans_page == NULL)
    {
      self->plans_page = QM_PLANS_PAGE (qm_plans_page_new (self->store));
      adw_bin_set_child (self->plans_bin, GTK_WIDGET (self->plans_page));
      g_signal_connect_object (self->plans_page, "open-plan", G_CALLBACK (qm_window_open_plan), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->plans_page, "compare-plans", G_CALLBACK (plans_compare), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->plans_page, "new-plan", G_CALLBACK (plans_new_plan), self,
                               G_CONNECT_SWAPPED);
    }
  else if (g_strcmp0 (name, "catalog") == 0 && self->catalog_page == NULL)
    {
      /* The catalog lives in the database; without one (a preview) say so. */
      if (self->store != NULL)
        self->catalog_page = qm_catalog_page_new (self->store);
      else
        {
          self->catalog_page = adw_status_page_new ();
          adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->catalog_page), "drive-multidisk-symbolic");
          adw_status_page_set_title (ADW_STATUS_PAGE (self->catalog_page), _("No Database"));
          adw_status_page_set_description (ADW_STATUS_PAGE (self->catalog_page),
                                           _("The hardware catalog is kept in the plans database."));
        }
      adw_bin_set_child (self->catalog_bin, self->catalog_page);
    }
  else if (g_strcmp0 (name, "compare") == 0 && self->compare_page == NULL)
    {
      self->compare_page = QM_COMPARE_PAGE (qm_compare_page_new (self->store));
      adw_bin_set_child (self->compare_bin, GTK_WIDGET (self->compare_page));
    }
  else if (g_strcmp0 (name, "quotes") == 0 && self->quotes_page == NULL)
    {
      self->quotes_page = QM_QUOTES_PAGE (qm_quotes_page_new (self->store));
      adw_bin_set_child (self->quotes_bin, GTK_WIDGET (self->quotes_page));
      g_signal_connect_object (self->quotes_page, "open-plan", G_CALLBACK (qm_window_open_plan), self,
                               G_CONNECT_SWAPPED);
    }

  if (g_strcmp0 (name, "plans") == 0)
    return GTK_WIDGET (self->plans_page);
  if (g_strcmp0 (name, "catalog") == 0)
    return self->catalog_page;
  if (g_strcmp0 (name, "compare") == 0)
    return GTK_WIDGET (self->compare_page);
  if (g_strcmp0 (name, "quotes") == 0)
    return GTK_WIDGET (self->quotes_page);
  return NULL;
}

static QmPlansPage *
get_plans_page (QmWindow *self)
{
  return QM_PLANS_PAGE (ensure_page (self, "plans"));
}

static QmComparePage *
get_compare_page (QmWindow *self)
{
  return QM_COMPARE_PAGE (ensure_page (self, "compare"));
}

static void
visible_page_changed (QmWindow *self)
{
  /* Only once the store is known: qm_window_init shows the last page
   * before qm_window_new_with_store() sets it. */
  if (self->pages_ready)
    ensure_page (self, adw_view_stack_get_visible_child_name (self->stack));
}

static void
qm_window_class_init (QmWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = qm_window_dispose;
  window_class->close_request = qm_window_close_request;

  qm_gtk_class_set_template (widget_class, "qm-window.ui");
  gtk_widget_class_bind_template_child (widget_class, QmWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, main_box);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, compare_bin);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, plans_bin);
  gtk_widget_class_bind_template_child (widget_class, QmWindow, catalog_bin);

  gtk_widget_class_install_action (widget_class, "win.new-plan", NULL, new_plan_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.import", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL, show_help_overlay_action);
  /* Help: win.show-formulas (Shift+F1), the Assumptions and Formulas window. */
  qm_formulas_window_install_action (widget_class);

  /* A binding, not an application accelerator, so that a page nearer the
   * focus may take Ctrl+N first: the catalog adds an entry with it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-plan", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK,
                                       "win.show-page", "s", "plans");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK,
                                       "win.show-page", "s", "catalog");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK,
                                       "win.show-page", "s", "compare");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_ALT_MASK,
                                       "win.show-page", "s", "quotes");
}

/* The Quotes page (issue #22), after the three pages of the template. */
static void
add_quotes_page (QmWindow *self)
{
  AdwViewStackPage *page;

  self->quotes_bin = ADW_BIN (adw_bin_new ());
  page = adw_view_stack_add_titled (self->stack, GTK_WIDGET (self->quotes_bin), "quotes", _("_Quotes"));
  adw_view_stack_page_set_use_underline (page, TRUE);
  adw_view_stack_page_set_icon_name (page, "x-office-document-symbolic");
}

static void
qm_window_init (QmWindow *self)
{
  g_autofree char *page = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
#if DEVELOPMENT_BUILD
  /* The striped header bar: a development build is told apart at a glance. */
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
  gtk_menu_button_set_create_popup_func (self->primary_menu_button, create_primary_menu, self, NULL);
  add_quotes_page (self);

  self->settings = g_settings_new (APPLICATION_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  page = g_settings_get_string (self->settings, "last-page");
  qm_window_set_page (self, page);
  g_signal_connect_swapped (self->stack, "notify::visible-child-name",
                            G_CALLBACK (visible_page_changed), self);

  g_signal_connect_swapped (self->leaflet, "notify::child-transition-running",
                            G_CALLBACK (leaflet_transition_changed), self);
  g_signal_connect_swapped (self->leaflet, "notify::visible-child",
                            G_CALLBACK (leaflet_transition_changed), self);
  /* Buttons with a mnemonic are read without it (issue #37 item 10). */
  qm_a11y_fix_mnemonics (GTK_WIDGET (self));
}

QmWindow *
qm_window_new (AdwApplication *application)
{
  QmStore *store = QM_IS_APPLICATION (application)
                   ? qm_application_get_store (QM_APPLICATION (application)) : NULL;

  return qm_window_new_with_store (application, store);
}

/* A toast's title is markup; the message names the server's URI ('&'). */
static void
connection_report (QmWindow   *self,
                   const char *message)
{
  g_autofree char *escaped = g_markup_escape_text (message, -1);

  qm_window_show_toast (self, escaped);
}

static void
connection_recovered (QmWindow *self)
{
  if (self->plans_page != NULL)
    qm_plans_page_reload (self->plans_page);
}

/* The team server's banner (issue #23), along the bottom of the window so
 * that it shows over every page, a plan open in detail included. */
static void
add_connection_banner (QmWindow *self)
{
  GtkWidget *banner = qm_connection_banner_new (self->store);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *leaflet = g_object_ref (GTK_WIDGET (self->leaflet));

  self->banner = QM_CONNECTION_BANNER (banner);
  adw_toast_overlay_set_child (self->toast_overlay, NULL);
  gtk_box_append (GTK_BOX (box), leaflet);
  gtk_box_append (GTK_BOX (box), banner);
  adw_toast_overlay_set_child (self->toast_overlay, box);
  g_object_unref (leaflet);
  g_signal_connect_swapped (banner, "report", G_CALLBACK (connection_report), self);
  g_signal_connect_swapped (banner, "recovered", G_CALLBACK (connection_recovered), self);
}

QmWindow *
qm_window_new_with_store (AdwApplication *application,
                          QmStore        *store)
{
  QmWindow *self = g_object_new (QM_TYPE_WINDOW, "application", application, NULL);

  /* A plain field rather than a property: it is only ever passed in here.
   * The window holds its own reference (issue #34 item 3). */
  self->store = store ? qm_store_ref (store) : NULL;
  add_connection_banner (self);
  self->pages_ready = TRUE;
  visible_page_changed (self);
  watch_store (self);
  /* A role on a team database that may not save plans, or a file opened
   * read-only: the plans page shows them read-only, and this says why. */
  if (store != NULL)
    {
      g_autofree char *why = qm_store_rights_reason (store, QM_STORE_RIGHT_EDIT_PLANS);

      if (why != NULL)
        qm_window_show_toast (self, why);
    }
  return self;
}

GCancellable *
qm_window_get_cancellable (QmWindow *self)
{
  g_return_val_if_fail (QM_IS_WINDOW (self), NULL);

  if (self->cancellable == NULL)
    self->cancellable = g_cancellable_new ();
  return self->cancellable;
}

void
qm_window_show_team_opening (QmWindow   *self,
                             gboolean    connecting,
                             const char *why)
{
  g_return_if_fail (QM_IS_WINDOW (self));

  if (self->banner != NULL)
    qm_connection_banner_set_opening (self->banner, connecting, why);
}

QmStore *
qm_window_get_store (QmWindow *self)
{
  g_return_val_if_fail (QM_IS_WINDOW (self), NULL);

  return self->store;
}

void
qm_window_show_toast (QmWindow   *self,
                      const char *message)
{
  g_return_if_fail (QM_IS_WINDOW (self));

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

void
qm_window_set_page (QmWindow   *self,
                    const char *name)
{
  g_return_if_fail (QM_IS_WINDOW (self));

  /* An unknown name (say, from an older settings file) keeps the page. */
  if (name != NULL && adw_view_stack_get_child_by_name (self->stack, name) != NULL)
    adw_view_stack_set_visible_child_name (self->stack, name);
}

const char *
qm_window_get_page (QmWindow *self)
{
  g_return_val_if_fail (QM_IS_WINDOW (self), NULL);

  return adw_view_stack_get_visible_child_name (self->stack);
}

void
qm_window_open_detail (QmWindow  *self,
                       GtkWidget *detail)
{
  g_return_if_fail (QM_IS_WINDOW (self));
  g_return_if_fail (GTK_IS_WIDGET (detail));

  if (self->detail != NULL)
    adw_leaflet_remove (self->leaflet, self->detail);
  self->detail = detail;
  adw_leaflet_append (self->leaflet, detail);
  adw_leaflet_set_visible_child (self->leaflet, detail);
}

void
qm_window_close_detail (QmWindow *self)
{
  g_return_if_fail (QM_IS_WINDOW (self));

  if (self->detail != NULL)
    adw_leaflet_set_visible_child (self->leaflet, self->main_box);
}

GtkWidget *
qm_window_get_detail (QmWindow *self)
{
  g_return_val_if_fail (QM_IS_WINDOW (self), NULL);

  return self->detail;
}

void
qm_window_compare (QmWindow     *self,
                   const gint64 *ids,
                   guint         n)
{
  g_return_if_fail (QM_IS_WINDOW (self));

  qm_compare_page_set_plans (get_compare_page (self), ids, n);
  qm_window_close_detail (self);
  qm_window_set_page (self, "compare");
}

gboolean
qm_window_open_plan (QmWindow *self,
                     gint64    id)
{
  g_autoptr(QmSavedPlan) saved = NULL;
  g_autoptr(QmPlanEditor) editor = NULL;
  g_autoptr(GError) error = NULL;
  QmPlan plan;

  g_return_val_if_fail (QM_IS_WINDOW (self), FALSE);

  if (self->store == NULL)
    return FALSE;
  saved = qm_plan_store_load (self->store, id, &error);
  if (saved == NULL || !qm_plan_store_read_plan (self->store, saved->inputs, &plan, NULL, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not open the plan: %s"), error->message);
      qm_window_show_toast (self, message);
      return FALSE;
    }

  editor = qm_plan_editor_new (&plan);
  qm_plan_editor_mark_saved (editor, id);
  show_plan_view (self, editor);
  return TRUE;
}

gint64
qm_window_open_file (QmWindow *self,
                     GFile    *file)
{
  g_return_val_if_fail (QM_IS_WINDOW (self), 0);

  qm_window_close_detail (self);
  qm_window_set_page (self, "plans");
  /* Imports, then opens the plan (open-plan), or says what is wrong. */
  return qm_plans_page_open_file (get_plans_page (self), file);
}
