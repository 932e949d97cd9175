/* qm-chart-racks.c: a rack elevation drawing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-racks.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qm-format.h"

#define MIN_SWITCH_UNITS 1

void
qm_rack_groups (const QmCluster     *c,
                const QmServerSpec  *server,
                const QmNetworkSpec *network,
                const QmFacility    *facility,
                QmRackLayout        *layout)
{
  guint per_rack = MAX (c->nodes_per_rack, 1);
  guint full = c->nodes / per_rack;
  guint rest = c->nodes % per_rack;
  guint su = server != NULL ? MAX (server->rack_units, 1) : 1;
  guint sw_u = network != NULL ? MAX (network->rack_units, MIN_SWITCH_UNITS) : MIN_SWITCH_UNITS;
  /* Every switch the racks hold, fabric and management: the estimate's
   * one count (QmCluster, "total_switches" in the JSON), which the bill
   * of materials lists as its switch lines plus the management switches. */
  guint switches = c->switches + c->mgmt_switches;
  double node_kw = c->node_power_w / 1000.0;
  double air = facility != NULL && facility->air_cooling_kw > 0 ? facility->air_cooling_kw : 40.0;
  guint in_compute = 0, extra = 0;

  memset (layout, 0, sizeof *layout);

  /* With no rack of their own, the switches sit at the top of the compute
   * racks, spread evenly: the first @extra racks hold one more, so the
   * drawing holds exactly @switches (rounding each rack up drew 140 for
   * 138, issue #34). */
  if (c->network_racks == 0 && c->compute_racks > 0)
    {
      in_compute = switches / c->compute_racks;
      extra = switches % c->compute_racks;
    }

#define ADD(k, n, srv, sw, st, kw_) G_STMT_START { \
    QmRackGroup *g = &layout->groups[layout->n_groups++]; \
    g_assert (layout->n_groups <= QM_RACK_MAX_GROUPS); \
    g->kind = k; g->count = n; g->servers = srv; g->server_units = su; \
    g->switches = sw; g->switch_units = sw_u; g->storage_units = st; \
    g->kw = kw_; g->liquid = g->kw > air || (srv > 0 && server != NULL && server->liquid_cooled); \
    layout->total_racks += n; \
  } G_STMT_END

  /* extra < compute_racks, so the partial rack (the last) never needs
   * one more than the rest. */
  if (full > 0 && extra > 0 && extra < full)
    {
      ADD (QM_RACK_COMPUTE, extra, per_rack, in_compute + 1, 0, per_rack * node_kw);
      ADD (QM_RACK_COMPUTE, full - extra, per_rack, in_compute, 0, per_rack * node_kw);
    }
  else if (full > 0)
    ADD (QM_RACK_COMPUTE, full, per_rack, in_compute + (extra > 0 ? 1 : 0), 0, per_rack * node_kw);
  if (rest > 0)
    ADD (QM_RACK_COMPUTE_PARTIAL, 1, rest, in_compute + (extra > full ? 1 : 0), 0, rest * node_kw);
  if (c->network_racks > 0)
    {
      guint per = switches / c->network_racks;
      guint more = switches % c->network_racks;
      double sw_kw = network != NULL ? network->power_w / 1000.0 : 0.0;

      /* Each rack holds its share of the drawn switches (fabric and
       * management, as the bill of materials counts them); the kW are the
       * fabric switches' as qm-cluster.c sized them, spread by that share:
       * the management switches' watts are not in @network. */
      double kw_per_switch = switches > 0 ? c->switches * sw_kw / switches : 0.0;

      if (more > 0)
        ADD (QM_RACK_NETWORK, more, 0, per + 1, 0, (per + 1) * kw_per_switch);
      if (c->network_racks > more)
        ADD (QM_RACK_NETWORK, c->network_racks - more, 0, per, 0, per * kw_per_switch);
    }
  /* Each storage rack draws its share of the blocks' watts (QmCluster's
   * one figure, which the power breakdown shows too), not 0.0 kW. */
  if (c->storage_racks > 0)
    ADD (QM_RACK_STORAGE, c->storage_racks, 0, 0,
         (c->storage_units + c->storage_racks - 1) / c->storage_racks,
         c->storage_w / 1000.0 / c->storage_racks);
#undef ADD
}

static void
draw_units (cairo_t            *cr,
            const QmChartStyle *style,
            double              x,
            double              y_bottom,
            double              w,
            double              unit_h,
            guint               first_unit,
            guint               units,
            guint               series,
            const char         *label)
{
  /* Round both edges, then leave a 1 px seam, so every box shows. */
  double y = round (y_bottom - (first_unit + units) * unit_h);
  double h = round (y_bottom - first_unit * unit_h) - y - 1.0;

  if (h < 1.0)
    h = 1.0;
  /* Its colour and pattern, as its legend swatch. */
  qm_chart_fill_series (cr, style, series, &(QmRect) { x, y, w, h });

  if (label != NULL)
    {
      double tw, th;

      qm_chart_text_size (cr, style, QM_TEXT_SMALL, label, &tw, &th);
      if (th <= h && tw <= w - 4)
        {
          const QmChartLabel at = { QM_TEXT_SMALL, x + w / 2.0, y + h / 2.0, 0.5, 0.5 };
          QmRect box = qm_chart_text_box (cr, style, &at, label);

          /* On a patch of the plain colour, clear of the pattern. */
          qm_chart_set_color (cr, &style->series[series]);
          cairo_rectangle (cr, MAX (x, box.x - 2.0), MAX (y, box.y - 1.0),
                           MIN (x + w, box.x + box.width + 2.0) - MAX (x, box.x - 2.0),
                           MIN (y + h, box.y + box.height + 1.0) - MAX (y, box.y - 1.0));
          cairo_fill (cr);
          /* White text on the series colours reads in light and dark. */
          cairo_set_source_rgb (cr, 1, 1, 1);
          qm_chart_text (cr, style, &at, label);
        }
    }
}

/* What the racks of a group hold, above them: "16 × DGX H100". */
static void
group_title (const QmRackGroup *g,
             const char        *server_name,
             char              *title,
             gsize              size)
{
  switch (g->kind)
    {
    case QM_RACK_COMPUTE:
      g_snprintf (title, size, "%u × %s", g->servers, server_name);
      break;
    case QM_RACK_COMPUTE_PARTIAL:
      /* Translators: the last, partly filled rack; %u is a server count, %s a server model. */
      g_snprintf (title, size, _("%u × %s (last)"), g->servers, server_name);
      break;
    case QM_RACK_NETWORK:
      g_snprintf (title, size,
                  g_dngettext (GETTEXT_PACKAGE, "%u switch", "%u switches", g->switches), g->switches);
      break;
    case QM_RACK_STORAGE:
    default:
      g_strlcpy (title, _("Storage"), size);
      break;
    }
}

/* Group @i's kW against the rack's limit, under its racks. */
static void
draw_kw_bar (cairo_t            *cr,
             const QmChartStyle *style,
             double              limit_kw,
             double              text_h,
             guint               i,
             QmRackLayout       *layout)
{
  const QmRackGroup *g = &layout->groups[i];
  const QmRect *rack = &layout->racks[i];
  double x = rack->x, rack_w = rack->width, bar_y = rack->y + rack->height + 6.0;
  char kw[QM_FORMAT_BUF], lim[QM_FORMAT_BUF], line[128];
  double fraction = limit_kw > 0 ? MIN (g->kw / limit_kw, 1.0) : 0.0;
  gboolean over = limit_kw > 0 && g->kw > limit_kw;

  layout->kw_bars[i] = (QmRect) { x, bar_y, rack_w, 6.0 };
  layout->kw_fill[i] = round (rack_w * fraction);
  qm_chart_set_color (cr, &style->grid);
  cairo_rectangle (cr, x, bar_y, rack_w, 6.0);
  cairo_fill (cr);
  qm_chart_set_color (cr, over ? &style->error : &style->accent);
  cairo_rectangle (cr, x, bar_y, layout->kw_fill[i], 6.0);
  cairo_fill (cr);

  qm_format_number (kw, sizeof kw, g->kw, 1);
  qm_format_number (lim, sizeof lim, limit_kw, 0);
  g_snprintf (line, sizeof line, "%s / %s kW", kw, lim);
  qm_chart_set_color (cr, over ? &style->error : &style->foreground);
  qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, x + rack_w / 2.0, bar_y + 8.0, 0.5, 0.0 }, line);
  if (g->liquid)
    {
      double tw, cx, cy = bar_y + 8.0 + text_h * 1.5;

      /* A drawn droplet, then the words: the mark does not depend on
       * colour or on an emoji font. */
      qm_chart_text_size (cr, style, QM_TEXT_BOLD, _("Liquid-cooled"), &tw, NULL);
      cx = x + rack_w / 2.0 - (tw + 10.0) / 2.0 + 4.0;
      qm_chart_set_color (cr, &style->accent);
      cairo_move_to (cr, cx, cy - 5.0);
      cairo_curve_to (cr, cx + 4.5, cy, cx + 4.5, cy + 4.0, cx, cy + 4.0);
      cairo_curve_to (cr, cx - 4.5, cy + 4.0, cx - 4.5, cy, cx, cy - 5.0);
      cairo_fill (cr);
      qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_BOLD, cx + 7.0, cy, 0.0, 0.5 }, _("Liquid-cooled"));
    }
}

void
qm_chart_render_racks (const QmChartFrame  *frame,
                       const QmCluster     *c,
                       const QmServerSpec  *server,
                       const QmNetworkSpec *network,
                       const QmFacility    *facility,
                       QmRackLayout        *layout_out)
{
  cairo_t *cr = frame->cr;
  const QmChartStyle *style = frame->style;
  const double width = frame->width, height = frame->height;
  const double pad = 12.0;
  QmRackLayout layout;
  guint rack_units = facility != NULL && facility->rack_units > 0 ? facility->rack_units : 42;
  double limit_kw = facility != NULL && facility->rack_kw > 0 ? facility->rack_kw : 0.0;

  /* A rack-scale system is its own rack: draw racks of its height. */
  if (server != NULL && server->rack_scale)
    rack_units = MAX (rack_units, server->rack_units);
  double text_h, legend_h, slot, rack_w, rack_h, top, bottom;
  /* The PDUs are strips too narrow for a pattern: dashed, as their
   * legend entry's line sample. */
  const QmLegendEntry legend[] = {
    qm_chart_series_legend (style, 0, _("Servers")),
    qm_chart_series_legend (style, 1, _("Switches")),
    qm_chart_series_legend (style, 5, _("Storage")),
    { _("PDUs (zero-U)"), style->series[6], TRUE },
  };

  qm_rack_groups (c, server, network, facility, &layout);
  qm_chart_begin (frame);

  qm_chart_text_size (cr, style, QM_TEXT_SMALL, "Xg", NULL, &text_h);
  legend_h = qm_chart_legend_height (cr, style, legend, G_N_ELEMENTS (legend), width - 2 * pad);

  /* Per group: "×N" and a title above, the kW bar and its figures below. */
  top = pad + text_h * 2 + 6.0;
  bottom = height - pad - legend_h - 8.0 - (text_h * 2 + 14.0);
  rack_h = MAX (10.0, bottom - top);
  slot = (width - 2 * pad) / MAX (layout.n_groups, 1);
  rack_w = MIN (slot * 0.7, MAX (rack_h * 0.45, 40.0));
  rack_w = MIN (rack_w, slot - 8.0);
  layout.unit_height = (rack_h - 8.0) / rack_units;

  for (guint i = 0; i < layout.n_groups; i++)
    {
      const QmRackGroup *g = &layout.groups[i];
      double x = round (pad + i * slot + (slot - rack_w) / 2.0);
      double inner_x = x + 6.0, inner_w = rack_w - 12.0;
      double floor_y = top + rack_h - 4.0;
      guint used = 0;
      char title[96], count[32];
      const char *server_name = server != NULL && server->info.name != NULL ? server->info.name : _("Server");

      layout.racks[i] = (QmRect) { x, top, rack_w, rack_h };

      /* Cabinet, with zero-U PDUs as strips down both sides. */
      qm_chart_set_color (cr, &style->foreground);
      cairo_set_line_width (cr, 1.5);
      cairo_rectangle (cr, x + 0.75, top + 0.75, rack_w - 1.5, rack_h - 1.5);
      cairo_stroke (cr);
      qm_chart_dashed_line (cr, &(QmChartDash) { &style->series[6], 2.5, (const double[]) { 4.0, 2.0 } },
                            &(QmRect) { 0.0, top + 4.0, 0.0, rack_h - 8.0 }, QM_AXIS_BOTTOM, x + 3.25);
      qm_chart_dashed_line (cr, &(QmChartDash) { &style->series[6], 2.5, (const double[]) { 4.0, 2.0 } },
                            &(QmRect) { 0.0, top + 4.0, 0.0, rack_h - 8.0 }, QM_AXIS_BOTTOM, x + rack_w - 3.25);

      /* Contents from the bottom: servers, storage, then switches on top. */
      for (guint s = 0; s < g->servers; s++, used += g->server_units)
        draw_units (cr, style, inner_x, floor_y, inner_w, layout.unit_height, used, g->server_units,
                    0, server_name);
      if (g->storage_units > 0)
        {
          draw_units (cr, style, inner_x, floor_y, inner_w, layout.unit_height, used,
                      MIN (g->storage_units, rack_units - used), 5, _("Storage"));
          used += g->storage_units;
        }
      for (guint s = 0; s < g->switches && used + g->switch_units <= rack_units; s++)
        {
          draw_units (cr, style, inner_x, floor_y, inner_w, layout.unit_height,
                      rack_units - (s + 1) * g->switch_units, g->switch_units, 1, NULL);
        }

      /* Above: how many racks look like this, and what they are. */
      group_title (g, server_name, title, sizeof title);
      g_snprintf (count, sizeof count, "×%u", g->count);
      qm_chart_set_color (cr, &style->foreground);
      qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_BOLD, x + rack_w / 2.0, pad, 0.5, 0.0 }, count);
      qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_SMALL, x + rack_w / 2.0, pad + text_h + 2.0, 0.5,
                                                  0.0 }, title);

      /* Below: kW against the rack's limit; a rack-scale system's own
       * rack against its own power, not the facility's positions. */
      draw_kw_bar (cr, style,
                   server != NULL && server->rack_scale && g->servers > 0 && limit_kw > 0
                   ? MAX (limit_kw, g->kw) : limit_kw,
                   text_h, i, &layout);
    }

  if (layout.n_groups == 0)
    {
      qm_chart_set_color (cr, &style->foreground);
      qm_chart_text (cr, style, &(QmChartLabel) { QM_TEXT_NORMAL, width / 2.0, height / 2.0, 0.5, 0.5 },
                     _("No racks"));
    }

  qm_chart_legend (cr, style, legend, G_N_ELEMENTS (legend),
                   &(QmRect) { pad, height - pad - legend_h, width - 2 * pad, legend_h });
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = layout;
}

int
qm_chart_racks_hit (const QmRackLayout *layout,
                    double              x,
                    double              y)
{
  for (guint i = 0; i < layout->n_groups; i++)
    {
      const QmRect *r = &layout->racks[i];

      if (x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height + 30.0)
        return (int) i;
    }
  return -1;
}
