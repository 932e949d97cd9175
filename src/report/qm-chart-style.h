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

/* Series are told apart by more than colour (WCAG 2.1 SC 1.4.1, issue #37
 * item 9): each series index has a fill pattern as well as a colour, for
 * the parts of bars and their legend swatches, and a marker shape, for
 * points. The first series is solid; the others are drawn over the series'
 * colour in its shade (qm_chart_pattern_shade()). */
typedef enum
{
  QM_FILL_SOLID,
  QM_FILL_DIAGONAL,           /* lines rising to the right */
  QM_FILL_DOTS,
  QM_FILL_HORIZONTAL,
  QM_FILL_CROSS,              /* both diagonals */
  QM_FILL_REVERSE_DIAGONAL,   /* lines falling to the right */
  QM_FILL_VERTICAL,
  QM_FILL_GRID,               /* horizontal and vertical lines */
  QM_FILL_N_PATTERNS
} QmFillPattern;

typedef enum
{
  QM_MARKER_CIRCLE,
  QM_MARKER_SQUARE,
  QM_MARKER_TRIANGLE,
  QM_MARKER_DIAMOND,
  QM_MARKER_CROSS,
  QM_MARKER_TRIANGLE_DOWN,
  QM_MARKER_PLUS,
  QM_MARKER_STAR,
  QM_MARKER_N_SHAPES
} QmMarkerShape;

/* How much of the way to black a pattern's shade is: the series' colour
 * times (1 - this). Darker in both styles: in the light style the shade
 * contrasts with the background more than the colour does; in the dark
 * style the pattern stays 1 px inside its part, so the part's edge keeps
 * the colour's contrast with the background (tests/test-contrast.c). */
#define QM_CHART_PATTERN_SHADE 0.6

/* Series @series's pattern and marker (any index: they repeat as the
 * colours do, every QM_CHART_N_SERIES). */
QmFillPattern qm_chart_series_pattern (guint series);
QmMarkerShape qm_chart_series_marker  (guint series);

/* The colour a pattern is drawn in over @color. */
QmColor       qm_chart_pattern_shade  (const QmColor *color);

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
