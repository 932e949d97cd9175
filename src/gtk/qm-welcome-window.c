/* qm-welcome-window.c: a short, skippable welcome on the first run: what
 * Quartermaster does, where its numbers come from, and an example plan to
 * start from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-a11y.h"
#include "qm-gtk.h"
#include "qm-plan-store.h"
#include "qm-plans-page.h"
#include "qm-welcome-window.h"

/* Embedded in the app's GResource (ui/quartermaster.gresource.xml). */
#define EXAMPLE_NAME "llama-3.1-70b-pretrain-h100.qmplan"

struct _QmWelcomeWindow
{
  AdwWindow    parent_instance;

  GSettings   *settings;
  QmWindow    *main_window;   /* not owned: our transient parent */

  AdwCarousel *carousel;
  GtkStack    *end_stack;
};

G_DEFINE_FINAL_TYPE (QmWelcomeWindow, qm_welcome_window, ADW_TYPE_WINDOW)

static void
mark_done (QmWelcomeWindow *self)
{
  if (!g_settings_get_boolean (self->settings, "first-run-done"))
    g_settings_set_boolean (self->settings, "first-run-done", TRUE);
}

static gint64
import_example (QmStore  *store,
                GError  **error)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const char *data;

  bytes = g_resources_lookup_data (QM_EXAMPLES_RESOURCE_PATH EXAMPLE_NAME, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return 0;
  data = g_bytes_get_data (bytes, &length);
  return qm_plan_store_import_data (store, data, length, EXAMPLE_NAME, NULL, NULL, error);
}

static QmPlansPage *
find_plans_page (GtkWidget *widget)
{
  if (QM_IS_PLANS_PAGE (widget))
    return QM_PLANS_PAGE (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      QmPlansPage *page = find_plans_page (c);

      if (page != NULL)
        return page;
    }
  return NULL;
}

static void
skip_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  QmWelcomeWindow *self = QM_WELCOME_WINDOW (widget);

  mark_done (self);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  QmWelcomeWindow *self = QM_WELCOME_WINDOW (widget);
  guint n = adw_carousel_get_n_pages (self->carousel);
  guint i = (guint) (adw_carousel_get_position (self->carousel) + 0.5);

  if (i + 1 < n)
    adw_carousel_scroll_to (self->carousel, adw_carousel_get_nth_page (self->carousel, i + 1), TRUE);
}

static void
open_example_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  QmWelcomeWindow *self = QM_WELCOME_WINDOW (widget);
  g_autoptr(QmWindow) main_window = self->main_window ? g_object_ref (self->main_window) : NULL;
  g_autoptr(GError) error = NULL;
  QmStore *store;
  gint64 id = 0;

  mark_done (self);
  gtk_window_destroy (GTK_WINDOW (self));
  if (main_window == NULL)
    return;

  /* As the Plans page's own Open Example: estimated on import, so the
   * list shows its figures, then opened in the plan view. */
  {
    QmPlansPage *page = find_plans_page (GTK_WIDGET (main_window));

    if (page != NULL && qm_plans_page_get_store (page) != NULL)
      {
        qm_plans_page_open_example (page, EXAMPLE_NAME);
        return;
      }
  }

  store = qm_window_get_store (main_window);
  if (store != NULL)
    id = import_example (store, &error);
  if (id <= 0)
    {
      g_autofree char *message = g_strdup_printf (_("Could not open the example plan: %s"),
                                                  error != NULL ? error->message : _("no plan store"));
      qm_window_show_toast (main_window, message);
      return;
    }
  qm_window_open_plan (main_window, id);
}

static void
page_changed (QmWelcomeWindow *self,
              guint            index)
{
  gboolean last = index + 1 >= adw_carousel_get_n_pages (self->carousel);

  gtk_stack_set_visible_child_name (self->end_stack, last ? "open" : "next");
}

static gboolean
qm_welcome_window_close_request (GtkWindow *window)
{
  /* Closing is skipping: the welcome is shown once. */
  mark_done (QM_WELCOME_WINDOW (window));

  return GTK_WINDOW_CLASS (qm_welcome_window_parent_class)->close_request (window);
}

static void
qm_welcome_window_dispose (GObject *object)
{
  QmWelcomeWindow *self = QM_WELCOME_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_WELCOME_WINDOW);
  g_clear_weak_pointer (&self->main_window);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (qm_welcome_window_parent_class)->dispose (object);
}

static void
qm_welcome_window_class_init (QmWelcomeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = qm_welcome_window_dispose;
  window_class->close_request = qm_welcome_window_close_request;

  qm_gtk_class_set_template (widget_class, "qm-welcome-window.ui");
  gtk_widget_class_bind_template_child (widget_class, QmWelcomeWindow, carousel);
  gtk_widget_class_bind_template_child (widget_class, QmWelcomeWindow, end_stack);
  gtk_widget_class_bind_template_callback (widget_class, page_changed);

  gtk_widget_class_install_action (widget_class, "welcome.skip", NULL, skip_action);
  gtk_widget_class_install_action (widget_class, "welcome.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "welcome.open-example", NULL, open_example_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "welcome.skip", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "welcome.next", NULL);
}

static void
qm_welcome_window_init (QmWelcomeWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  /* Buttons with a mnemonic are read without it (issue #37 item 10). */
  qm_a11y_fix_mnemonics (GTK_WIDGET (self));
}

QmWelcomeWindow *
qm_welcome_window_new (QmWindow *parent)
{
  QmWelcomeWindow *self;

  g_return_val_if_fail (parent == NULL || QM_IS_WINDOW (parent), NULL);

  self = g_object_new (QM_TYPE_WELCOME_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
  g_set_weak_pointer (&self->main_window, parent);
  return self;
}

QmWelcomeWindow *
qm_welcome_maybe_show (QmWindow *window)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  QmWelcomeWindow *welcome;

  g_return_val_if_fail (QM_IS_WINDOW (window), NULL);

  if (g_settings_get_boolean (settings, "first-run-done"))
    return NULL;

  welcome = qm_welcome_window_new (window);
  gtk_window_present (GTK_WINDOW (welcome));
  return welcome;
}
