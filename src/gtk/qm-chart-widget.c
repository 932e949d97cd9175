/* qm-chart-widget.c: a thin widget around a chart renderer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "qm-a11y.h"
#include "qm-chart-widget.h"

struct _QmChartWidget
{
  GtkWidget           parent_instance;

  QmChartDrawFunc     draw;
  QmChartTooltipFunc  tooltip;
  gpointer            user_data;
  GDestroyNotify      destroy;

  QmChartStyle        style;
};

G_DEFINE_FINAL_TYPE (QmChartWidget, qm_chart_widget, GTK_TYPE_WIDGET)

static QmColor
to_color (const GdkRGBA *rgba)
{
  return (QmColor) { rgba->red, rgba->green, rgba->blue, rgba->alpha };
}

static void
update_style (QmChartWidget *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GdkRGBA rgba;

  /* The palette follows libadwaita's light or dark style; text, accent
   * and background come from the theme itself where it names them. */
  if (dark)
    qm_chart_style_init_dark (&self->style);
  else
    qm_chart_style_init_light (&self->style);

  gtk_style_context_get_color (context, &rgba);
  self->style.foreground = to_color (&rgba);
  if (gtk_style_context_lookup_color (context, "accent_color", &rgba))
    self->style.accent = to_color (&rgba);
  if (gtk_style_context_lookup_color (context, "view_bg_color", &rgba))
    self->style.background = to_color (&rgba);
  if (gtk_style_context_lookup_color (context, "error_color", &rgba))
    self->style.error = to_color (&rgba);
}

static void
qm_chart_widget_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  QmChartWidget *self = QM_CHART_WIDGET (widget);

  GTK_WIDGET_CLASS (qm_chart_widget_parent_class)->css_changed (widget, change);
  update_style (self);
  gtk_widget_queue_draw (widget);
}

static void
qm_chart_widget_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  QmChartWidget *self = QM_CHART_WIDGET (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  QmChartFrame frame = { NULL, &self->style, width, height };

  if (self->draw == NULL || width <= 0 || height <= 0)
    return;

  /* GTK scales the cairo node for HiDPI, so the chart stays crisp. */
  frame.cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  self->draw (&frame, self->user_data);
  cairo_destroy (frame.cr);
}

static gboolean
qm_chart_widget_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard,
                               GtkTooltip *tooltip)
{
  QmChartWidget *self = QM_CHART_WIDGET (widget);
  g_autofree char *text = NULL;

  if (self->tooltip == NULL || keyboard)
    return FALSE;
  text = self->tooltip (x, y, self->user_data);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
qm_chart_widget_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  /* Small enough for a narrow window, large enough to read. */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 280 : 220;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 560 : 320;
}

static void
qm_chart_widget_dispose (GObject *object)
{
  QmChartWidget *self = QM_CHART_WIDGET (object);

  if (self->destroy != NULL)
    g_clear_pointer (&self->user_data, self->destroy);
  self->draw = NULL;
  self->tooltip = NULL;

  G_OBJECT_CLASS (qm_chart_widget_parent_class)->dispose (object);
}

static void
qm_chart_widget_class_init (QmChartWidgetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_chart_widget_dispose;
  widget_class->snapshot = qm_chart_widget_snapshot;
  widget_class->css_changed = qm_chart_widget_css_changed;
  widget_class->query_tooltip = qm_chart_widget_query_tooltip;
  widget_class->measure = qm_chart_widget_measure;

  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
qm_chart_widget_init (QmChartWidget *self)
{
  qm_chart_style_init_light (&self->style);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), FALSE);
}

GtkWidget *
qm_chart_widget_new (void)
{
  return g_object_new (QM_TYPE_CHART_WIDGET, NULL);
}

void
qm_chart_widget_set_draw_func (QmChartWidget      *self,
                               QmChartDrawFunc     draw,
                               QmChartTooltipFunc  tooltip,
                               gpointer            user_data,
                               GDestroyNotify      destroy)
{
  g_return_if_fail (QM_IS_CHART_WIDGET (self));

  if (self->destroy != NULL)
    g_clear_pointer (&self->user_data, self->destroy);
  self->draw = draw;
  self->tooltip = tooltip;
  self->user_data = user_data;
  self->destroy = destroy;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
qm_chart_widget_set_description (QmChartWidget *self,
                                 const char    *description)
{
  g_return_if_fail (QM_IS_CHART_WIDGET (self));

  /* Through qm_a11y_describe so the accessibility test can read it back. */
  qm_a11y_describe (GTK_WIDGET (self), description != NULL ? description : "");
}

const QmChartStyle *
qm_chart_widget_get_style (QmChartWidget *self)
{
  g_return_val_if_fail (QM_IS_CHART_WIDGET (self), NULL);

  return &self->style;
}
