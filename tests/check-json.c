/* check-json.c: fails when a file is not well-formed JSON, printing where.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>

int
main (int argc, char **argv)
{
  int failed = 0;

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      if (!json_parser_load_from_file (parser, argv[i], &error))
        {
          g_printerr ("%s: %s\n", argv[i], error->message);
          failed = 1;
        }
      else if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          g_printerr ("%s: the top level is not an object\n", argv[i]);
          failed = 1;
        }
    }
  return failed;
}
