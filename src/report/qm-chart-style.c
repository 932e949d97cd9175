/* qm-chart-style.c: default chart styles from the libadwaita 1.2 palette.
 *
 * Colours: GNOME HIG palette (developer.gnome.org/hig/reference/palette.html)
 * as used by libadwaita's stylesheet: blue 3 #3584e4, orange 3 #ff7800,
 * purple 3 #9141ac, teal (blue 1/green mix) #2190a4, yellow 4 #f5c211,
 * brown 2 #b5835a, light 5 #9a9996, green 4 #2ec27e.
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

/* A style's colours as "#rrggbb", in QmChartStyle's order. */
typedef struct
{
  const char *background, *foreground, *grid, *accent, *warning, *error;
  const char *series[QM_CHART_N_SERIES];
} Palette;

static const Palette light = {
  "#ffffff", "#1e1e1e", "#deddda", "#1c71d8", "#9c6e03", "#c01c28",
  { "#3584e4", "#ff7800", "#9141ac", "#2190a4", "#f5c211", "#b5835a", "#9a9996", "#2ec27e" },
};

static const Palette dark = {
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

void
qm_chart_style_init_light (QmChartStyle *style)
{
  style_init (style, &light);
}

void
qm_chart_style_init_dark (QmChartStyle *style)
{
  style_init (style, &dark);
}
