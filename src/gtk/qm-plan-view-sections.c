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
#include <math.h>

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

static GtkScrolledWindow *
page_scroll (QmPlanView *self)
{
  GtkWidget *content = gtk_widget_get_parent (GTK_WIDGET (self->figures_box));

  return GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (content, GTK_TYPE_SCROLLED_WINDOW));
}

/* Scrolls so that the section's heading is 12 px under the top of the
 * view, as far as the page scrolls. Returns whether it moved. */
static gboolean
bring_to_top (QmPlanView *self)
{
  GtkScrolledWindow *scroll = page_scroll (self);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (scroll);
  graphene_point_t at;
  double value = gtk_adjustment_get_value (adj), target;

  if (!gtk_widget_compute_point (self->jump_section, GTK_WIDGET (scroll), &GRAPHENE_POINT_INIT (0, 0), &at))
    return FALSE;
  /* The first section is the top of the page. */
  if (gtk_widget_get_prev_sibling (self->jump_section) == NULL)
    at.y = 12.0 - value;
  target = CLAMP (value + at.y - 12.0, gtk_adjustment_get_lower (adj),
                  gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  if (fabs (target - value) < 0.5)
    return FALSE;
  gtk_adjustment_set_value (adj, target);
  return TRUE;
}

/* The sections above may still grow once they come into view (charts
 * are drawn when mapped): keep the heading in place until the layout has
 * stood still for a few frames. */
static gboolean
jump_tick_cb (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);

  if (self->jump_section == NULL || gtk_widget_get_parent (self->jump_section) == NULL)
    self->jump_still = G_MAXUINT;
  else if (bring_to_top (self) || qm_plan_view_get_sweeping (self))
    /* Moved, or a chart's curve is still being computed and may change
     * the charts' height. */
    self->jump_still = 0;
  else
    self->jump_still++;
  if (self->jump_still < 10)
    return G_SOURCE_CONTINUE;
  self->jump_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
jump_to (GtkWidget  *widget,
         const char *action_name,
         GVariant   *param)
{
  QmPlanView *self = QM_PLAN_VIEW (widget);
  GtkWidget *section = qm_plan_view_section (self, g_variant_get_string (param, NULL));
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (page_scroll (self));

  /* A hidden section (the quote of a plan without one) stays where it is. */
  if (section == NULL || !gtk_widget_get_visible (section))
    return;
  self->jump_section = section;
  bring_to_top (self);
  /* The keyboard goes where the eyes went; the view keeps the heading
   * in sight rather than follow the focus further down. */
  {
    GtkWidget *viewport = gtk_scrolled_window_get_child (page_scroll (self));
    double value = gtk_adjustment_get_value (adj);

    if (GTK_IS_VIEWPORT (viewport))
      gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (viewport), FALSE);
    gtk_widget_child_focus (section, GTK_DIR_TAB_FORWARD);
    if (GTK_IS_VIEWPORT (viewport))
      gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (viewport), TRUE);
    gtk_adjustment_set_value (adj, value);
  }
  self->jump_still = 0;
  if (self->jump_tick == 0)
    self->jump_tick = gtk_widget_add_tick_callback (widget, jump_tick_cb, NULL, NULL);
}

gboolean
qm_plan_view_get_jumping (QmPlanView *self)
{
  g_return_val_if_fail (QM_IS_PLAN_VIEW (self), FALSE);
  return self->jump_tick != 0;
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
