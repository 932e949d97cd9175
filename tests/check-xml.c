/* check-xml.c: fails when a file is not well-formed XML (GMarkup), for the
 * data suite where xmllint is not installed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>

int
main (int argc, char **argv)
{
  int status = 0;

  for (int i = 1; i < argc; i++)
    {
      static const GMarkupParser parser = { 0 };
      g_autoptr(GMarkupParseContext) context = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      gsize length = 0;

      if (!g_file_get_contents (argv[i], &text, &length, &error))
        {
          g_printerr ("%s\n", error->message);
          status = 1;
          continue;
        }
      context = g_markup_parse_context_new (&parser, G_MARKUP_PREFIX_ERROR_POSITION, NULL, NULL);
      if (!g_markup_parse_context_parse (context, text, length, &error) ||
          !g_markup_parse_context_end_parse (context, &error))
        {
          g_printerr ("%s: %s\n", argv[i], error->message);
          status = 1;
        }
    }
  return status;
}
