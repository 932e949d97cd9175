/* test-contrast.c: every colour the charts and the app's CSS draw meets
 * WCAG 2.1 AA (issue #37 item 9).
 *
 * The ratio is WCAG 2.1's: (L1 + 0.05) / (L2 + 0.05), with L the relative
 * luminance of the sRGB colour (www.w3.org/TR/WCAG21/#dfn-relative-luminance,
 * #dfn-contrast-ratio). Text needs 4.5:1 (SC 1.4.3), graphics 3:1 (SC
 * 1.4.11). A colour with an alpha, or under a CSS opacity, is composited
 * over its background first, as GTK paints it.
 *
 * Chart colours come from the table in src/report/qm-chart-style.c; the
 * app's colours are libadwaita 1.2's named colours
 * (src/stylesheet/_defaults.scss: window, card, error, accent, warning;
 * .dim-label and a row's .subtitle at opacity 0.55, _common.scss) under the
 * rules of ui/style.css, which the test reads for the opacities it sets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "qm-chart-style.h"

#define TEXT     4.5
#define GRAPHICS 3.0

/* libadwaita 1.2's .dim-label and row .subtitle opacity. */
#define ADW_DIM_OPACITY 0.55

typedef struct
{
  double r, g, b, a;
} Rgba;

static Rgba
hex (const char *s)
{
  QmColor c;

  g_assert_true (qm_color_parse (s, &c));
  return (Rgba) { c.red, c.green, c.blue, 1.0 };
}

static Rgba
with_alpha (Rgba   c,
            double a)
{
  c.a *= a;
  return c;
}

/* @top (with its alpha) painted over the opaque @bottom. */
static Rgba
over (Rgba top,
      Rgba bottom)
{
  return (Rgba) { top.r * top.a + bottom.r * (1 - top.a), top.g * top.a + bottom.g * (1 - top.a),
                  top.b * top.a + bottom.b * (1 - top.a), 1.0 };
}

static double
channel (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (Rgba c)
{
  return 0.2126 * channel (c.r) + 0.7152 * channel (c.g) + 0.0722 * channel (c.b);
}

static double
ratio (Rgba fg,
       Rgba bg)
{
  double a = luminance (over (fg, bg)), b = luminance (bg);

  return (MAX (a, b) + 0.05) / (MIN (a, b) + 0.05);
}

static GString *failures;

static void
check (const char *what,
       Rgba        fg,
       Rgba        bg,
       double      need)
{
  double r = ratio (fg, bg);

  g_test_message ("%-52s %5.2f:1  (needs %.1f)%s", what, r, need, r + 1e-9 < need ? "  FAILS" : "");
  if (r + 1e-9 < need)
    g_string_append_printf (failures, "\n  %s: %.2f:1, needs %.1f:1", what, r, need);
}

static void
test_chart_palette (void)
{
  /* Drawn as text as well as lines: series 1 labels the GPUs-time chart's
   * cost axis; warning, error and accent label marks (deadline, overload,
   * break-even). */
  static const char *text[] = { "foreground", "accent", "warning", "error", "series1" };

  failures = g_string_new (NULL);
  for (int dark = 0; dark <= 1; dark++)
    {
      Rgba bg = hex (qm_chart_style_hex (dark, "background"));

      for (guint i = 0; i < G_N_ELEMENTS (text); i++)
        {
          g_autofree char *what = g_strdup_printf ("%s %s %s (text)", dark ? "dark" : "light", text[i],
                                                   qm_chart_style_hex (dark, text[i]));

          check (what, hex (qm_chart_style_hex (dark, text[i])), bg, TEXT);
        }
      for (guint i = 0; i < QM_CHART_N_SERIES + 3; i++)
        {
          g_autofree char *name = i < QM_CHART_N_SERIES
                                  ? g_strdup_printf ("series%u", i)
                                  : g_strdup ((const char *[]) { "accent", "warning", "error" }[i - QM_CHART_N_SERIES]);
          g_autofree char *what = g_strdup_printf ("%s %s %s (graphics)", dark ? "dark" : "light", name,
                                                   qm_chart_style_hex (dark, name));

          check (what, hex (qm_chart_style_hex (dark, name)), bg, GRAPHICS);
        }
      /* Patterns (issue #37 item 9): a series' pattern is drawn in its
       * shade over its colour. The shade must stand out from the colour
       * for the pattern to tell the series apart: 2.5:1 is our floor, not
       * a WCAG figure (the pattern is the second cue, besides the colour
       * and the legend; SC 1.4.11's 3:1 is met by the part's edge, which
       * keeps the plain colour), and the darkest colour, light purple 3
       * #9141ac, sets it. In the light style the shade is darker than the
       * colour on a white background, so it holds the colour's 3:1
       * against the background too; in the dark style it is not, and the
       * pattern keeps 1 px inside the part (qm_chart_fill_pattern()). */
      for (guint i = 0; i < QM_CHART_N_SERIES; i++)
        {
          g_autofree char *name = g_strdup_printf ("series%u", i);
          QmColor c, shade;
          Rgba s;
          g_autofree char *w1 = NULL, *w2 = NULL;

          g_assert_true (qm_color_parse (qm_chart_style_hex (dark, name), &c));
          shade = qm_chart_pattern_shade (&c);
          s = (Rgba) { shade.red, shade.green, shade.blue, 1.0 };
          w1 = g_strdup_printf ("%s series%u pattern shade on its colour (pattern)", dark ? "dark" : "light", i);
          check (w1, s, hex (qm_chart_style_hex (dark, name)), 2.5);
          w2 = g_strdup_printf ("%s series%u pattern shade on the background%s", dark ? "dark" : "light", i,
                                dark ? " (inside the part)" : " (graphics)");
          if (dark)
            g_test_message ("%-52s %5.2f:1  (inside the part's edge)", w2, ratio (s, bg));
          else
            check (w2, s, bg, GRAPHICS);
        }
      /* Error bands (issue #36): a series' curve on its own band, and the
       * latency chart's curves and targets on the capacity's grey band. */
      {
        Rgba series0 = hex (qm_chart_style_hex (dark, "series0"));
        Rgba band = over (with_alpha (series0, QM_CHART_BAND_ALPHA), bg);
        Rgba neutral = over (with_alpha (hex (qm_chart_style_hex (dark, "foreground")),
                                         QM_CHART_NEUTRAL_BAND_ALPHA), bg);
        static const char *on_neutral[] = { "series0", "series2", "warning", "accent" };
        g_autofree char *what = g_strdup_printf ("%s series0 on its band (alpha %.2f) (graphics)",
                                                 dark ? "dark" : "light", QM_CHART_BAND_ALPHA);

        check (what, series0, band, GRAPHICS);
        for (guint i = 0; i < G_N_ELEMENTS (on_neutral); i++)
          {
            g_autofree char *w = g_strdup_printf ("%s %s on the capacity band (alpha %.2f) (graphics)",
                                                  dark ? "dark" : "light", on_neutral[i],
                                                  QM_CHART_NEUTRAL_BAND_ALPHA);

            check (w, hex (qm_chart_style_hex (dark, on_neutral[i])), neutral, GRAPHICS);
          }
        /* Text on the band: the foreground. */
        {
          g_autofree char *w = g_strdup_printf ("%s foreground on the band (text)", dark ? "dark" : "light");

          check (w, hex (qm_chart_style_hex (dark, "foreground")), band, TEXT);
        }
      }
    }
  if (failures->len > 0)
    {
      g_printerr ("Chart colours below WCAG 2.1 AA:%s\n", failures->str);
      g_test_fail ();
    }
  g_string_free (failures, TRUE);
}

/* The opacity ui/style.css gives @selector, or @fallback. */
static double
css_opacity (const char *css,
             const char *selector,
             double      fallback)
{
  g_autofree char *head = g_strconcat (selector, " {", NULL);
  const char *rule = strstr (css, head);
  const char *end, *op;

  if (rule == NULL)
    return fallback;
  end = strchr (rule, '}');
  op = strstr (rule, "opacity:");
  if (op == NULL || op > end)
    return fallback;
  return g_ascii_strtod (op + strlen ("opacity:"), NULL);
}

static void
test_app_css (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "ui", "style.css", NULL);
  g_autofree char *css = NULL;
  g_autoptr(GError) error = NULL;
  double caption, error_subtitle, compare, dim, subtitle;

  g_assert_true (g_file_get_contents (path, &css, NULL, &error));
  g_assert_no_error (error);
  caption = css_opacity (css, ".qm-figure .dim-label", ADW_DIM_OPACITY);
  error_subtitle = css_opacity (css, "row.error .subtitle", ADW_DIM_OPACITY);
  compare = css_opacity (css, ".compare-table .dim-label", ADW_DIM_OPACITY);
  /* The first ".dim-label {" in the file is the app-wide rule. */
  dim = css_opacity (css, ".dim-label", ADW_DIM_OPACITY);
  subtitle = css_opacity (css, "row .subtitle", ADW_DIM_OPACITY);

  failures = g_string_new (NULL);
  for (int dark = 0; dark <= 1; dark++)
    {
      const char *style = dark ? "dark" : "light";
      Rgba window_bg = hex (dark ? "#242424" : "#fafafa");
      Rgba fg = dark ? hex ("#ffffff") : with_alpha (hex ("#000000"), 0.8);
      /* Cards and boxed lists: white, or white at 8 % over the window. */
      Rgba card_bg = dark ? over (with_alpha (hex ("#ffffff"), 0.08), window_bg) : hex ("#ffffff");
      Rgba error_color = hex (dark ? "#ff7b63" : "#c01c28");
      Rgba accent_bg = hex ("#3584e4");
      Rgba warning_bg = hex (dark ? "#cd9309" : "#e5a50a");
      g_autofree char *w1 = g_strdup_printf ("%s figure-card caption (opacity %.2f)", style, caption);
      g_autofree char *w2 = g_strdup_printf ("%s wizard error subtitle (opacity %.2f)", style, error_subtitle);
      g_autofree char *w3 = g_strdup_printf ("%s plan-view banner text", style);
      g_autofree char *w4 = g_strdup_printf ("%s connection banner text", style);
      g_autofree char *w5 = g_strdup_printf ("%s dimmed label (opacity %.2f)", style, dim);
      g_autofree char *w6 = g_strdup_printf ("%s Compare page caption (opacity %.2f)", style, compare);

      check (w1, with_alpha (fg, caption), card_bg, TEXT);
      check (w2, with_alpha (error_color, error_subtitle), card_bg, TEXT);
      /* ui/style.css: alpha(@accent_bg_color, 0.15), alpha(@warning_bg_color, 0.25). */
      check (w3, fg, over (with_alpha (accent_bg, 0.15), window_bg), TEXT);
      check (w4, fg, over (with_alpha (warning_bg, 0.25), window_bg), TEXT);
      check (w6, with_alpha (fg, compare), window_bg, TEXT);
      /* Every other dimmed label and row subtitle, on the window and on
       * a card or boxed list (libadwaita's 0.55 was 3.22:1). */
      check (w5, with_alpha (fg, dim), window_bg, TEXT);
      check (w5, with_alpha (fg, dim), card_bg, TEXT);
      {
        g_autofree char *w7 = g_strdup_printf ("%s row subtitle (opacity %.2f)", style, subtitle);

        check (w7, with_alpha (fg, subtitle), card_bg, TEXT);
      }
    }
  if (failures->len > 0)
    {
      g_printerr ("App colours below WCAG 2.1 AA:%s\n", failures->str);
      g_test_fail ();
    }
  g_string_free (failures, TRUE);
}

/* The formula itself, on WCAG's own extremes and a known pair. */
static void
test_ratio (void)
{
  g_assert_cmpfloat_with_epsilon (ratio (hex ("#000000"), hex ("#ffffff")), 21.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (ratio (hex ("#ffffff"), hex ("#ffffff")), 1.0, 1e-9);
  /* #767676 on white is the lightest grey at 4.5:1 (WebAIM's checker: 4.54). */
  g_assert_cmpfloat_with_epsilon (ratio (hex ("#767676"), hex ("#ffffff")), 4.54, 0.01);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/contrast/ratio", test_ratio);
  g_test_add_func ("/contrast/chart-palette", test_chart_palette);
  g_test_add_func ("/contrast/app-css", test_app_css);

  return g_test_run ();
}
