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

static void
set_common (QmChartStyle *style,
            const char   *const *series)
{
  for (guint i = 0; i < QM_CHART_N_SERIES; i++)
    qm_color_parse (series[i], &style->series[i]);
  g_strlcpy (style->font_family, "Cantarell, DejaVu Sans, sans-serif", sizeof style->font_family);
  style->font_size = 9.0;
}

void
qm_chart_style_init_light (QmChartStyle *style)
{
  static const char *const series[QM_CHART_N_SERIES] = {
    "#3584e4", "#ff7800", "#9141ac", "#2190a4", "#f5c211", "#b5835a", "#9a9996", "#2ec27e",
  };

  memset (style, 0, sizeof *style);
  qm_color_parse ("#ffffff", &style->background);
  qm_color_parse ("#1e1e1e", &style->foreground);
  qm_color_parse ("#deddda", &style->grid);
  qm_color_parse ("#1c71d8", &style->accent);
  qm_color_parse ("#9c6e03", &style->warning);
  qm_color_parse ("#c01c28", &style->error);
  set_common (style, series);
}

void
qm_chart_style_init_dark (QmChartStyle *style)
{
  static const char *const series[QM_CHART_N_SERIES] = {
    "#62a0ea", "#ffa348", "#c061cb", "#5bc8d8", "#f8e45c", "#cdab8f", "#c0bfbc", "#57e389",
  };

  memset (style, 0, sizeof *style);
  qm_color_parse ("#242424", &style->background);
  qm_color_parse ("#ffffff", &style->foreground);
  qm_color_parse ("#464646", &style->grid);
  qm_color_parse ("#78aeed", &style->accent);
  qm_color_parse ("#f8e45c", &style->warning);
  qm_color_parse ("#ff7b63", &style->error);
  set_common (style, series);
}
