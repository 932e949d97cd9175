/* qm-gtk.c: set-up shared by the app and the UI tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gtk/gtk.h>

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
