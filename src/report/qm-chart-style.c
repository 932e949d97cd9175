/* qm-chart-style.c: default chart styles from the libadwaita 1.2 palette.
 *
 * Colours: GNOME HIG palette (developer.gnome.org/hig/reference/palette.html)
 * as used by libadwaita's stylesheet. Every series must reach WCAG 2.1's
 * 3:1 against the chart background (SC 1.4.11, non-text contrast), and a
 * series whose colour also draws text (series 1: the cost axis of the
 * GPUs-time chart), the foreground, accent, warning and error 4.5:1 (SC
 * 1.4.3); tests/test-contrast.c computes every ratio (issue #37 item 9).
 * Light, on #ffffff: blue 3 #3584e4 (3.77:1), orange 5 #c64600 (4.91:1;
 * orange 3 #ff7800 was 2.65:1), purple 3 #9141ac (5.91:1), teal (blue 1/
 * green mix) #2190a4 (3.76:1), libadwaita 1.2's light warning yellow
 * #9c6e03 for yellow (4.52:1; yellow 4 #f5c211 was 1.67:1, and no HIG
 * yellow reaches 3:1 on white), brown 2 #b5835a (3.30:1), dark 1 #77767b
 * for grey (4.50:1; light 5 #9a9996 was 2.85:1), green 5 #26a269 (3.25:1;
 * green 4 #2ec27e was 2.30:1). Dark, on #242424: the HIG's lighter shades,
 * all above 4.3:1. Stacked bars separate their parts with a gap in the
 * background colour, so two parts of equal lightness (blue 3 and the teal
 * are 1.00:1 to each other) are still told apart (SC 1.4.11 asks 3:1
 * against adjacent colours).
 *
 * Colour alone does not tell the series apart for every reader (SC 1.4.1):
 * each series index also has a fill pattern and a marker shape (tables
 * below), and the patterns are drawn in a darker shade of the colour
 * (QM_CHART_PATTERN_SHADE); tests/test-contrast.c checks the shades and
 * tests/test-chart-patterns.c that no two series look alike in greyscale.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-chart-style.h"

#include <stdio.h>
#include <string.h>

gboolean
qm_color_parse (const char *hex,
                QmColor    *color)
{
  unsigned int r, g, b;

  if (hex == NULL || strlen (hex) != 7 || hex[0] != '#' ||
      sscanf (hex + 1, "%02x%02x%02x", &r, &g, &b) != 3)
    return FALSE;

  color->red = r / 255.0;
  color->green = g / 255.0;
  color->blue = b / 255.0;
  color->alpha = 1.0;
  return TRUE;
}

/* One pattern and one marker per series index, in the order of the
 * colours: the simplest first, so that a chart of two or three series
 * (most of them) gets the plainest. */
static const QmFillPattern series_patterns[QM_CHART_N_SERIES] = {
  QM_FILL_SOLID, QM_FILL_DIAGONAL, QM_FILL_DOTS, QM_FILL_HORIZONTAL,
  QM_FILL_CROSS, QM_FILL_REVERSE_DIAGONAL, QM_FILL_VERTICAL, QM_FILL_GRID,
};

static const QmMarkerShape series_markers[QM_CHART_N_SERIES] = {
  QM_MARKER_CIRCLE, QM_MARKER_SQUARE, QM_MARKER_TRIANGLE, QM_MARKER_DIAMOND,
  QM_MARKER_CROSS, QM_MARKER_TRIANGLE_DOWN, QM_MARKER_PLUS, QM_MARKER_STAR,
};

QmFillPattern
qm_chart_series_pattern (guint series)
{
  return series_patterns[series % QM_CHART_N_SERIES];
}

QmMarkerShape
qm_chart_series_marker (guint series)
{
  return series_markers[series % QM_CHART_N_SERIES];
}

QmColor
qm_chart_pattern_shade (const QmColor *color)
{
  double k = 1.0 - QM_CHART_PATTERN_SHADE;

  return (QmColor) { color->red * k, color->green * k, color->blue * k, color->alpha };
}

/* A style's colours as "#rrggbb", in QmChartStyle's order. */
typedef struct
{
  const char *background, *foreground, *grid, *accent, *warning, *error;
  const char *series[QM_CHART_N_SERIES];
} Palette;

static const Palette light_palette = {
  "#ffffff", "#1e1e1e", "#deddda", "#1c71d8", "#9c6e03", "#c01c28",
  { "#3584e4", "#c64600", "#9141ac", "#2190a4", "#9c6e03", "#b5835a", "#77767b", "#26a269" },
};

static const Palette dark_palette = {
  "#242424", "#ffffff", "#464646", "#78aeed", "#f8e45c", "#ff7b63",
  { "#62a0ea", "#ffa348", "#c061cb", "#5bc8d8", "#f8e45c", "#cdab8f", "#c0bfbc", "#57e389" },
};

static void
style_init (QmChartStyle  *style,
            const Palette *palette)
{
  memset (style, 0, sizeof *style);
  qm_color_parse (palette->background, &style->background);
  qm_color_parse (palette->foreground, &style->foreground);
  qm_color_parse (palette->grid, &style->grid);
  qm_color_parse (palette->accent, &style->accent);
  qm_color_parse (palette->warning, &style->warning);
  qm_color_parse (palette->error, &style->error);
  for (guint i = 0; i < QM_CHART_N_SERIES; i++)
    qm_color_parse (palette->series[i], &style->series[i]);
  g_strlcpy (style->font_family, "Cantarell, DejaVu Sans, sans-serif", sizeof style->font_family);
  style->font_size = 9.0;
}

const char *
qm_chart_style_hex (gboolean    dark,
                    const char *name)
{
  const Palette *p = dark ? &dark_palette : &light_palette;
  const struct { const char *name, *hex; } named[] = {
    { "background", p->background }, { "foreground", p->foreground }, { "grid", p->grid },
    { "accent", p->accent }, { "warning", p->warning }, { "error", p->error },
  };

  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    if (g_strcmp0 (name, named[i].name) == 0)
      return named[i].hex;
  if (name != NULL && g_str_has_prefix (name, "series"))
    {
      guint64 i = g_ascii_strtoull (name + strlen ("series"), NULL, 10);

      if (i < QM_CHART_N_SERIES)
        return p->series[i];
    }
  return NULL;
}

void
qm_chart_style_init_light (QmChartStyle *style)
{
  style_init (style, &light_palette);
}

void
qm_chart_style_init_dark (QmChartStyle *style)
{
  style_init (style, &dark_palette);
}
