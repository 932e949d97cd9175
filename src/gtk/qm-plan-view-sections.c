/* qm-plan-view-sections.c: jumping to a section of the plan view.
 *
 * The plan is one long page: title and key figures, charts, bill of materials,
 * quote, advisor, and assumptions. "Go To" in the plan menu and Ctrl+1 to
 * Ctrl+6 scroll to a section and move the keyboard focus into it (issue
 * #35 item 10). The table below is the one list of the sections: the
 * menu, the shortcuts and the action read it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-plan-view-private.h"

static const struct
{
  const char *name;    /* the action's target */
  const char *label;   /* the menu item */
} sections[] = {
  { "summary", N_("_Summary") },
  { "charts", N_("_Charts") },
  { "bom", N_("_Bill of Materials") },
  { "quote", N_("_Quote") },
  { "advisor", N_("_Advisor") },
  { "notes", N_("Assumptions and _Warnings") },
};

/* A widget inside section @name. */
static GtkWidget *
section_member (QmPlanView *self,
                const char *name)
{
  /* The title and the key figures: the top of the page. */
  if (g_str_equal (name, "summary"))
    return GTK_WIDGET (self->plan_title);
  if (g_str_equal (name, "charts"))
    return GTK_WIDGET (self->charts_box);
  if (g_str_equal (name, "bom"))
    return GTK_WIDGET (self->bom_view);
  if (g_str_equal (name, "quote"))
    return self->quote_box;
  if (g_str_equal (name, "advisor"))
    return GTK_WIDGET (self->advisor_panel);
  if (g_str_equal (name, "notes"))
    return GTK_WIDGET (self->notes_group);
  return NULL;
}

/* The section holding @name: the child of the page's content box (the
 * figures' parent) that holds its member, its heading included. */
GtkWidget *
qm_plan_view_section (QmPlanView *self,
                      const char *name)
{
  GtkWidget *member = section_member (self, name);
  GtkWidget *content = gtk_widget_get_parent (GTK_WIDGET (self->figures_box));
  GtkWidget *w = member;

  while (w != NULL && gtk_widget_get_parent (w) != content)
    w = gtk_widget_get_parent (w);
  return w;
}

static void
jump_to (GtkWidget  *widget,
         const char *action_name,
         GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  const char *name = g_variant_get_string (param, NULL);
  GtkWidget *section = qm_plan_view_section (self, name);
  GtkWidget *content = gtk_widget_get_parent (GTK_WIDGET (self->figures_box));
  GtkScrolledWindow *scroll = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (content, GTK_TYPE_SCROLLED_WINDOW));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (scroll);
  graphene_point_t at;

  /* A hidden section (the quote of a plan without one) stays where it is. */
  if (section == NULL || !gtk_widget_get_visible (section) ||
      !gtk_widget_compute_point (section, GTK_WIDGET (scroll), &GRAPHENE_POINT_INIT (0, 0), &at))
    return;
  /* The heading 12 px under the top of the view, as far as the page
   * scrolls (@at is where it is in the view now). */
  gtk_adjustment_set_value (adj, MAX (0.0, gtk_adjustment_get_value (adj) + at.y - 12.0));
  /* The keyboard goes where the eyes went; the view keeps the heading
   * in sight rather than follow the focus further down. */
  {
    double value = gtk_adjustment_get_value (adj);

    gtk_widget_child_focus (section, GTK_DIR_TAB_FORWARD);
    gtk_adjustment_set_value (adj, value);
  }
}

void
qm_plan_view_sections_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "plan.jump-to", "s", jump_to);
  /* Only for gtk_widget_get_template_child (): no member of its own. */
  gtk_widget_class_bind_template_child_full (widget_class, "menu_button", FALSE, 0);
  /* Ctrl+1 … Ctrl+6, in the order of the page (Alt+1 … 4 are the
   * window's pages). */
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_CONTROL_MASK, "plan.jump-to", "s",
                                         sections[i].name);
}

/* "Go To" at the top of the plan menu. */
void
qm_plan_view_sections_add_menu (QmPlanView *self)
{
  GtkMenuButton *button = GTK_MENU_BUTTON (gtk_widget_get_template_child (GTK_WIDGET (self), QM_TYPE_PLAN_VIEW,
                                                                          "menu_button"));
  GMenuModel *plan_menu = gtk_menu_button_get_menu_model (button);
  g_autoptr(GMenu) section = g_menu_new ();
  g_autoptr(GMenu) wrapper = g_menu_new ();

  g_return_if_fail (G_IS_MENU (plan_menu));

  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(sections[i].label), NULL);

      g_menu_item_set_action_and_target (item, "plan.jump-to", "s", sections[i].name);
      g_menu_append_item (section, item);
    }
  g_menu_append_submenu (wrapper, _("_Go To"), G_MENU_MODEL (section));
  g_menu_insert_section (G_MENU (plan_menu), 0, NULL, G_MENU_MODEL (wrapper));
}
