/* qm-gtk.c: set-up shared by the app and the UI tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>

#include <glib/gi18n.h>
#include <math.h>

#include "qm-gtk.h"
#include "qm-resources.h"

#define RESOURCE_PREFIX "/io/github/quartermaster/Quartermaster/"

void
qm_gtk_ensure_resources (void)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      GdkDisplay *display = gdk_display_get_default ();

      qm_register_resource ();
      /* GtkApplication adds this path for the app; widgets built without
       * one (tests, previews) need it too for the app's own icons. */
      if (display != NULL)
        gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (display),
                                          RESOURCE_PREFIX "icons");
      g_once_init_leave (&registered, 1);
    }
}

void
qm_gtk_class_set_template (GtkWidgetClass *widget_class,
                           const char     *name)
{
  g_autofree char *path = g_strconcat (RESOURCE_PREFIX, name, NULL);

  qm_gtk_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, path);
}

GtkBuilder *
qm_gtk_builder_new (const char *name)
{
  g_autofree char *path = g_strconcat (RESOURCE_PREFIX, name, NULL);

  qm_gtk_ensure_resources ();
  return gtk_builder_new_from_resource (path);
}

/* GtkScrolledWindow takes every scroll event it can use on either axis
 * (gtkscrolledwindow.c scroll_controller_scroll returns GDK_EVENT_STOP), so
 * a table that scrolls only sideways ate the vertical wheel. In the
 * capture phase the vertical part moves the outer window's adjustment by
 * GTK's own wheel step, pow (page_size, 2/3) per notch (the same file's
 * get_scroll_unit), or by the pixels of a smooth scroll. */
static gboolean
pass_vertical_scroll_cb (GtkEventControllerScroll *controller,
                         double                    dx,
                         double                    dy,
                         gpointer                  user_data)
{
  GtkWidget *inner = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *outer = gtk_widget_get_ancestor (gtk_widget_get_parent (inner), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj;
  double step, lower, upper, value;

  if (outer == NULL || fabs (dy) <= fabs (dx))
    return GDK_EVENT_PROPAGATE;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (outer));
  step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
         ? pow (gtk_adjustment_get_page_size (adj), 2.0 / 3.0) : 1.0;
  lower = gtk_adjustment_get_lower (adj);
  upper = gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj);
  value = CLAMP (gtk_adjustment_get_value (adj) + dy * step, lower, MAX (lower, upper));
  gtk_adjustment_set_value (adj, value);
  return GDK_EVENT_STOP;
}

GtkEventController *
qm_gtk_pass_vertical_scroll (GtkScrolledWindow *inner)
{
  GtkEventController *controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  g_return_val_if_fail (GTK_IS_SCROLLED_WINDOW (inner), NULL);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "scroll", G_CALLBACK (pass_vertical_scroll_cb), NULL);
  gtk_widget_add_controller (GTK_WIDGET (inner), controller);
  return controller;
}

static void
export_toast_open_cb (AdwToast *toast,
                      gpointer  user_data)
{
  const char *uri = g_object_get_data (G_OBJECT (toast), "qm-uri");
  GApplication *app = g_application_get_default ();
  GtkWindow *window = GTK_IS_APPLICATION (app)
                      ? gtk_application_get_active_window (GTK_APPLICATION (app)) : NULL;

  if (uri != NULL)
    gtk_show_uri (window, uri, GDK_CURRENT_TIME);
}

AdwToast *
qm_gtk_export_toast_new (const char *title,
                         GFile      *file)
{
  /* Toast titles are Pango markup on libadwaita 1.2; file names are not. */
  g_autofree char *escaped = g_markup_escape_text (title, -1);
  AdwToast *toast = adw_toast_new (escaped);

  g_return_val_if_fail (G_IS_FILE (file), toast);

  adw_toast_set_timeout (toast, 5);
  /* Translators: the button of a toast after an export: opens the file. */
  adw_toast_set_button_label (toast, _("_Open"));
  g_object_set_data_full (G_OBJECT (toast), "qm-uri", g_file_get_uri (file), g_free);
  g_signal_connect (toast, "button-clicked", G_CALLBACK (export_toast_open_cb), NULL);
  return toast;
}
