/* qm-chart-style.h: colours and fonts a chart renderer draws with.
 *
 * The renderers never pick colours themselves: the widget fills a style from
 * the theme, the PDF and the tests use the light or dark defaults.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double red, green, blue, alpha;
} QmColor;

#define QM_CHART_N_SERIES 8

/* An error band (issue #36) is its series' colour at this alpha over the
 * background; the series' curve on it keeps 3:1 (tests/test-contrast.c). */
#define QM_CHART_BAND_ALPHA 0.18
/* A band in the foreground's colour (a range of a mark, such as a
 * capacity), under curves of several series. */
#define QM_CHART_NEUTRAL_BAND_ALPHA 0.1

typedef struct
{
  QmColor background;
  QmColor foreground;   /* text and axes */
  QmColor grid;
  QmColor accent;
  QmColor warning;
  QmColor error;
  /* Series colours, in an order that stays distinguishable for colour-blind
   * readers (blue, orange, purple, teal ... never red next to green). */
  QmColor series[QM_CHART_N_SERIES];
  char    font_family[64];
  double  font_size;    /* points, for labels */
} QmChartStyle;

/* libadwaita 1.2's palette, light and dark. */
void qm_chart_style_init_light (QmChartStyle *style);
void qm_chart_style_init_dark  (QmChartStyle *style);

/* The default style's colour @name ("background", "foreground", "grid",
 * "accent", "warning", "error", "series0" ... "series7") as "#rrggbb", or
 * NULL: the table tests/test-contrast.c checks. */
const char *qm_chart_style_hex (gboolean    dark,
                                const char *name);

/* Parses "#rrggbb" into @color; FALSE on anything else. */
gboolean qm_color_parse (const char *hex,
                         QmColor    *color);

G_END_DECLS
