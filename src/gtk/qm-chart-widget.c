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

  /* Keyboard reading (issue #37 item 8): the arrow keys move a probe
   * across the chart and read the point under it, as the pointer's
   * tooltip does. */
  double              probe_x;
  char               *probe_text;
};

/* Pixels between the probe's looks for a point. */
#define PROBE_SCAN 4.0

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

  /* Where the keyboard probe reads, while the chart has the focus. */
  if (self->probe_text != NULL && gtk_widget_has_focus (widget))
    {
      GdkRGBA accent = { self->style.accent.red, self->style.accent.green, self->style.accent.blue, 1.0 };

      gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (self->probe_x - 1, 0, 2, height));
    }
}

/* The first point at or after @x in @direction, scanning each column of
 * the chart from the top; NULL when there is none. */
static char *
point_from (QmChartWidget *self,
            double         x,
            int            direction,
            double        *found_x)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  for (; x >= 0 && x <= width; x += direction * PROBE_SCAN)
    for (double y = 0; y <= height; y += PROBE_SCAN)
      {
        char *text = self->tooltip (x, y, self->user_data);

        if (text != NULL)
          {
            *found_x = x;
            return text;
          }
      }
  return NULL;
}

char *
qm_chart_widget_move_probe (QmChartWidget *self,
                            int            direction)
{
  int width;
  double x, found_x = 0;
  char *text = NULL;
  const char *name;

  g_return_val_if_fail (QM_IS_CHART_WIDGET (self), NULL);

  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (self->tooltip == NULL || width <= 0)
    return NULL;
  /* 0 starts over from the left edge; otherwise the next point that
   * reads differently in @direction. */
  x = direction == 0 || self->probe_text == NULL ? 0.0 : self->probe_x + direction * PROBE_SCAN;
  if (direction == 0)
    direction = 1;
  while (x >= 0 && x <= width)
    {
      g_free (text);
      text = point_from (self, x, direction, &found_x);
      if (text == NULL || g_strcmp0 (text, self->probe_text) != 0)
        break;
      x = found_x + direction * PROBE_SCAN;
    }
  if (text == NULL)
    return NULL;
  self->probe_x = found_x;
  g_free (self->probe_text);
  self->probe_text = g_strdup (text);
  /* The name changes with the point: a screen reader reads a focused
   * widget's new name (GTK 4.8 has no announcement API). */
  name = qm_a11y_get_label (GTK_WIDGET (self));
  if (name != NULL)
    {
      g_autofree char *both = g_strdup_printf ("%s: %s", name, text);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, both, -1);
    }
  else
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return text;
}

static gboolean
key_pressed (GtkEventControllerKey *controller,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             QmChartWidget         *self)
{
  g_autofree char *text = NULL;

  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      text = qm_chart_widget_move_probe (self, -1);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      text = qm_chart_widget_move_probe (self, 1);
      return TRUE;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      text = qm_chart_widget_move_probe (self, 0);
      return TRUE;
    default:
      return FALSE;
    }
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

  if (self->tooltip == NULL)
    return FALSE;
  /* From the keyboard: the point the probe reads. */
  if (keyboard)
    {
      if (self->probe_text == NULL)
        return FALSE;
      gtk_tooltip_set_text (tooltip, self->probe_text);
      return TRUE;
    }
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
  g_clear_pointer (&self->probe_text, g_free);

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
  GtkEventController *keys;

  qm_chart_style_init_light (&self->style);
  keys = gtk_event_controller_key_new ();
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  /* A Tab stop: a screen reader reads the name and summary, and the arrow
   * keys read the points (issue #37 item 8). */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
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
