/* qm-chart-power.c: where the watts go.
 *
 * Left, one node's provisioned watts by component (the figure PDUs are
 * sized for); right, the whole cluster's facility power, provisioned and
 * average side by side, with the cooling overhead that PUE adds on top.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-power.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-format.h"

/* Between the node panel and the cluster panel. */
#define PANEL_GAP 28.0

/* In the "power part" context: what draws the power, not how many ("GPUs"
 * as a count is "GPU 数" in Chinese, issue #35 item 8). */
static const char *node_names[QM_POWER_NODE_PARTS] = {
  NC_("power part", "GPUs"), NC_("power part", "CPUs"), N_("Memory"), N_("NICs"), N_("Local storage"), N_("Fans, board, PSU"),
};

static const char *cluster_names[QM_POWER_CLUSTER_PARTS] = {
  NC_("power part", "GPUs"), N_("Rest of servers"), N_("Network"), N_("Storage"), N_("Cooling and losses (PUE)"),
};

/* Colours: the node's parts and the cluster's share the GPU colour, so the
 * biggest consumer reads the same on both sides. */
static const guint node_series[QM_POWER_NODE_PARTS] = { 0, 2, 7, 3, 5, 6 };
static const guint cluster_series[QM_POWER_CLUSTER_PARTS] = { 0, 1, 3, 5, 4 };

const char *
qm_chart_power_node_part_name (guint i)
{
  g_return_val_if_fail (i < QM_POWER_NODE_PARTS, "");
  return i < 2 ? g_dpgettext2 (GETTEXT_PACKAGE, "power part", node_names[i]) : _(node_names[i]);
}

const char *
qm_chart_power_cluster_part_name (guint i)
{
  g_return_val_if_fail (i < QM_POWER_CLUSTER_PARTS, "");
  return i == 0 ? g_dpgettext2 (GETTEXT_PACKAGE, "power part", cluster_names[i]) : _(cluster_names[i]);
}

static double
positive (double v)
{
  return isfinite (v) && v > 0.0 ? v : 0.0;
}

double
qm_chart_power_cluster_part_kw (const QmPower *p,
                                guint          i,
                                gboolean       average)
{
  /* Average power scales the IT parts by the plan's average/peak ratio. */
  double ratio = p->it_peak_kw > 0 ? positive (p->it_avg_kw) / p->it_peak_kw : 0.0;
  double it = average ? positive (p->it_avg_kw) : positive (p->it_peak_kw);
  double facility = average ? positive (p->facility_avg_kw) : positive (p->facility_peak_kw);
  double s = average ? ratio : 1.0;

  switch (i)
    {
    case 0: return positive (p->gpus_kw) * s;
    case 1: return positive (p->servers_kw) * s;
    case 2: return positive (p->network_kw) * s;
    case 3: return positive (p->storage_kw) * s;
    case 4: return MAX (0.0, facility - it);
    default: return 0.0;
    }
}

static double
stack (cairo_t            *cr,
       const QmChartStyle *style,
       const QmAxis       *axis,
       double              x,
       double              w,
       const double       *values,
       const guint        *series,
       guint               n,
       QmRect             *rects)
{
  double acc = 0.0;

  for (guint i = 0; i < n; i++)
    {
      double y0 = round (qm_axis_to_pixel (axis, acc));
      double y1 = round (qm_axis_to_pixel (axis, acc + values[i]));

      rects[i] = (QmRect) { x, y1, w, y0 - y1 };
      if (y0 - y1 > 0)
        {
          /* Its colour and pattern, as its legend swatch. */
          qm_chart_fill_series (cr, style, series[i], &rects[i]);
          /* A one-pixel gap in the background colour tops each part: two
           * parts of equal lightness stay apart (WCAG 2.1 SC 1.4.11; see
           * qm-chart-style.c). */
          if (y0 - y1 > 2)
            {
              qm_chart_set_color (cr, &style->background);
              cairo_rectangle (cr, x, y1, w, 1.0);
              cairo_fill (cr);
            }
        }
      acc += values[i];
    }
  return acc;
}

void
qm_chart_power_top (const QmPower *p,
                    double        *node_w,
                    double        *cluster_kw)
{
  double node = positive (p->node.gpus) + positive (p->node.cpus) + positive (p->node.memory) +
                positive (p->node.nics) + positive (p->node.storage) + positive (p->node.other);
  double cluster = 0.0;

  for (guint k = 0; k < 2; k++)
    {
      double sum = 0.0;

      for (guint i = 0; i < QM_POWER_CLUSTER_PARTS; i++)
        sum += qm_chart_power_cluster_part_kw (p, i, k == 1);
      cluster = MAX (cluster, sum);
    }
  if (node_w != NULL)
    *node_w = node;
  if (cluster_kw != NULL)
    *cluster_kw = cluster;
}

void
qm_chart_render_power (const QmChartFrame *frame,
                       const QmPower      *p,
                       QmPowerLayout      *layout_out)
{
  qm_chart_render_power_scaled (frame, p, 0.0, 0.0, layout_out);
}

/* The node's bar, each part named beside it, and its total under it:
 * @node_w, the node's provisioned watts (QmNodeWatts.total, the sum of
 * the parts), not the axis top, which a comparison raises to the largest
 * plan's node (a 10.2 kW bar was labelled 14.3 kW, issue #34). */
static void
draw_node_panel (cairo_t            *cr,
                 const QmChartStyle *style,
                 const double       *node_values,
                 double              node_w,
                 QmPowerLayout      *layout)
{
  double top = layout->node_plot.y, plot_h = layout->node_plot.height;
  double text_h;
  double w = MIN (layout->node_plot.width * 0.3, 60.0);
  double x = round (layout->node_plot.x + 8.0);
  double last_label_top = G_MAXDOUBLE;
  char total[QM_FORMAT_BUF];

  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  stack (cr, style, &layout->node_axis, x, w, node_values, node_series, QM_POWER_NODE_PARTS,
         layout->node_parts);

  /* Name each part beside the bar, bottom up, nudging labels so they do
   * not overlap; parts too small for a label share the last one. */
  for (guint i = 0; i < QM_POWER_NODE_PARTS; i++)
    {
      const QmRect *r = &layout->node_parts[i];
      char label[96], watts[QM_FORMAT_BUF];
      double y;

      if (node_values[i] <= 0.0)
        continue;
      y = MIN (r->y + r->height / 2.0 + text_h / 2.0, last_label_top);
      if (y - text_h < top)
        break;
      g_snprintf (label, sizeof label, "%s %s", qm_chart_power_node_part_name (i),
                  qm_format_si (watts, sizeof watts, node_values[i], "W"));
      {
        double tw, room = layout->node_plot.x + layout->node_plot.width + PANEL_GAP * 0.5 - (x + w + 15.0);

        /* In a narrow chart, keep the label inside the node panel: the
         * figure alone, or nothing. */
        qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, &tw, NULL);
        if (tw > room)
          {
            g_strlcpy (label, watts, sizeof label);
            qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, &tw, NULL);
            if (tw > room)
              continue;
          }
      }
      qm_chart_fill_series (cr, style, node_series[i], &(QmRect) { x + w + 6.0, y - text_h + 3.0, 6.0, text_h - 6.0 });
      qm_chart_set_color (cr, &style->foreground);
      layout->node_labels[i] = qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, x + w + 15.0, y, 0.0, 1.0 },
                                              label);
      layout->node_label_named[i] = strcmp (label, watts) != 0;
      last_label_top = y - text_h;
    }
  qm_chart_set_color (cr, &style->foreground);
  qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, x + w / 2.0, top + plot_h + 4.0, 0.5, 0.0 },
                 qm_format_si (total, sizeof total, node_w, "W"));
  layout->node_total_w = node_w;
}

void
qm_chart_render_power_scaled (const QmChartFrame *frame,
                              const QmPower      *p,
                              double              node_max_w,
                              double              cluster_max_kw,
                              QmPowerLayout      *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  QmPowerLayout layout = { 0 };
  QmLegendEntry legend[QM_POWER_NODE_PARTS + 2];
  guint n_legend = 0;
  double node_values[QM_POWER_NODE_PARTS] = {
    positive (p->node.gpus), positive (p->node.cpus), positive (p->node.memory),
    positive (p->node.nics), positive (p->node.storage), positive (p->node.other),
  };
  double cluster_values[2][QM_POWER_CLUSTER_PARTS];
  double node_top = 0.0, node_w, cluster_top = 0.0, text_h, legend_h, caption_h;
  double top, plot_h, split, node_label_w, cluster_label_w, cluster_left, slot, title_h, bar_caption_h;
  QmChartLabel node_title, cluster_title, bar_caption[2];
  const char *node_title_text = _("One node (W, provisioned)");
  const char *cluster_title_text = _("Whole cluster (kW at the facility meter)");
  const char *bar_caption_text[2] = { _("Provisioned (peak)"), _("Average (for energy)") };
  char caption[256], a[QM_FORMAT_BUF], b[QM_FORMAT_BUF], c[QM_FORMAT_BUF];

  for (guint i = 0; i < QM_POWER_NODE_PARTS; i++)
    node_top += node_values[i];
  node_w = node_top;
  for (guint k = 0; k < 2; k++)
    {
      double sum = 0.0;
      for (guint i = 0; i < QM_POWER_CLUSTER_PARTS; i++)
        sum += cluster_values[k][i] = qm_chart_power_cluster_part_kw (p, i, k == 1);
      cluster_top = MAX (cluster_top, sum);
    }

  if (isfinite (node_max_w) && node_max_w > node_top)
    node_top = node_max_w;
  if (isfinite (cluster_max_kw) && cluster_max_kw > cluster_top)
    cluster_top = cluster_max_kw;

  qm_chart_begin (frame);

  /* Legend: the cluster's parts. The node's parts are labelled beside
   * their bar instead. */
  for (guint i = 0; i < QM_POWER_CLUSTER_PARTS; i++)
    legend[n_legend++] = qm_chart_series_legend (style, cluster_series[i], qm_chart_power_cluster_part_name (i));
  legend_h = qm_chart_legend_height (cr, style, legend, n_legend, width - 2 * pad);

  /* Translators: an energy such as "76.3 MWh", a mass such as "29.0 t",
   * and a number: the cooling load in BTU/h. */
  g_snprintf (caption, sizeof caption, _("Energy for the run: %s · %s CO₂e · cooling %s BTU/h"),
              qm_format_energy (a, sizeof a, positive (p->energy_mwh)),
              qm_format_tonnes (b, sizeof b, positive (p->co2_tonnes)),
              qm_format_number (c, sizeof c, positive (p->cooling_btu_h), 0));
  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  caption_h = text_h + 4.0;

  /* The axes' tick labels do not depend on the plot's height: measure
   * them first, so the panels' widths, and from them the titles' and the
   * bar captions' lines, are known before the height is. */
  qm_axis_init (&layout.node_axis, QM_SCALE_LINEAR, 0.0, node_top * 1.05, 5, 100.0, 0.0);
  qm_axis_init (&layout.cluster_axis, QM_SCALE_LINEAR, 0.0, cluster_top * 1.05, 5, 100.0, 0.0);
  node_label_w = qm_chart_axis_label_width (cr, style, &layout.node_axis, qm_chart_tick_number, NULL);
  cluster_label_w = qm_chart_axis_label_width (cr, style, &layout.cluster_axis, qm_chart_tick_number, NULL);

  /* Node panel: a third of the width, or up to half of it where the
   * parts' names need it beside the bar ("Fans, board, PSU 3.26 kW" was
   * cut to "3.26 kW", issue #35 item 8): axis labels, the bar (at most
   * 60 px), the swatch and the widest name with its figure. */
  {
    double widest = 0.0, tw;

    for (guint i = 0; i < QM_POWER_NODE_PARTS; i++)
      if (node_values[i] > 0.0)
        {
          char text[96], watts[QM_FORMAT_BUF];

          g_snprintf (text, sizeof text, "%s %s", qm_chart_power_node_part_name (i),
                      qm_format_si (watts, sizeof watts, node_values[i], "W"));
          qm_chart_text_size (cr, style, QM_TEXT_SMALL, text, &tw, NULL);
          widest = MAX (widest, tw);
        }
    split = MIN (MAX (width * 0.34, pad + node_label_w + 6.0 + 8.0 + 60.0 + 15.0 + widest + 2.0 - PANEL_GAP * 0.5),
                 width * 0.5);
  }
  cluster_left = split + PANEL_GAP;
  slot = MAX (10.0, width - cluster_left - cluster_label_w - 6.0 - pad) / 2.0;

  /* The panels' titles and the bars' captions break into lines within
   * their panel and slot (in German the cluster's title ran past the
   * chart's edge and the two captions into each other, issue #35 item 8). */
  node_title = (QmChartLabel) { QM_TEXT_SMALL, pad, 0.0, 0.0, 1.0, MAX (10.0, split - pad) };
  cluster_title = (QmChartLabel) { QM_TEXT_SMALL, cluster_left, 0.0, 0.0, 1.0, MAX (10.0, width - pad - cluster_left) };
  for (guint k = 0; k < 2; k++)
    bar_caption[k] = (QmChartLabel) { QM_TEXT_SMALL, 0.0, 0.0, 0.5, 0.0, MAX (10.0, slot - 6.0) };
  title_h = MAX (qm_chart_text_box (cr, style, &node_title, node_title_text).height,
                 qm_chart_text_box (cr, style, &cluster_title, cluster_title_text).height);
  bar_caption_h = MAX (qm_chart_text_box (cr, style, &bar_caption[0], bar_caption_text[0]).height,
                       qm_chart_text_box (cr, style, &bar_caption[1], bar_caption_text[1]).height);

  /* Below the titles, half a line for the top tick label. */
  top = pad + title_h + text_h * 0.5 + 6.0;
  plot_h = MAX (10.0, height - top - pad - legend_h - caption_h - bar_caption_h - text_h - 14.0);

  qm_axis_init (&layout.node_axis, QM_SCALE_LINEAR, 0.0, node_top * 1.05, 5, top + plot_h, top);
  layout.node_plot = (QmRect) { pad + node_label_w + 6.0, top, MAX (10.0, split - node_label_w - 6.0 - pad), plot_h };
  qm_chart_draw_axis (cr, style, &layout.node_axis, &layout.node_plot, QM_AXIS_LEFT, NULL, qm_chart_tick_number,
                      NULL);
  qm_chart_set_color (cr, &style->foreground);
  node_title.y = top - text_h * 0.5 - 2.0;
  layout.node_title = qm_chart_text (cr, style, &node_title, node_title_text);
  draw_node_panel (cr, style, node_values, node_w, &layout);

  /* Cluster panel: the rest. */
  qm_axis_init (&layout.cluster_axis, QM_SCALE_LINEAR, 0.0, cluster_top * 1.05, 5, top + plot_h, top);
  layout.cluster_plot = (QmRect) { cluster_left + cluster_label_w + 6.0, top, slot * 2.0, plot_h };
  qm_chart_draw_axis (cr, style, &layout.cluster_axis, &layout.cluster_plot, QM_AXIS_LEFT, NULL,
                      qm_chart_tick_number, NULL);
  qm_chart_set_color (cr, &style->foreground);
  cluster_title.y = top - text_h * 0.5 - 2.0;
  layout.cluster_title = qm_chart_text (cr, style, &cluster_title, cluster_title_text);
  for (guint k = 0; k < 2; k++)
    {
      double w = MIN (slot * 0.5, 110.0);
      double x = round (layout.cluster_plot.x + k * slot + (slot - w) / 2.0);
      double total = stack (cr, style, &layout.cluster_axis, x, w, cluster_values[k], cluster_series,
                            QM_POWER_CLUSTER_PARTS, layout.cluster_parts[k]);

      /* Each part's name on it, where it fits: not told by colour alone
       * (issue #37 item 9). */
      for (guint i = 0; i < QM_POWER_CLUSTER_PARTS; i++)
        {
          const QmRect *r = &layout.cluster_parts[k][i];

          if (r->height > 2)
            qm_chart_label_part (cr, style, &(QmRect) { r->x, r->y + 1.0, r->width, r->height - 1.0 },
                                 &style->series[cluster_series[i]], qm_chart_power_cluster_part_name (i));
        }
      qm_chart_set_color (cr, &style->foreground);
      bar_caption[k].x = x + w / 2.0;
      bar_caption[k].y = top + plot_h + 4.0;
      layout.bar_captions[k] = qm_chart_text (cr, style, &bar_caption[k], bar_caption_text[k]);
      qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_BOLD, x + w / 2.0, top + plot_h + 4.0 + bar_caption_h,
                                                  0.5, 0.0 },
                     qm_format_si (a, sizeof a, total * 1000.0, "W"));
    }

  qm_chart_set_color (cr, &style->foreground);
  qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, pad, height - pad - legend_h - 4.0, 0.0, 1.0 },
                 caption);
  qm_chart_legend (cr, style, legend, n_legend,
                   &(QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h });
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}
