/* qm-json-parse.c: a nesting bound and a NUL check in front of json-glib's
 * parser. The scan follows RFC 8259's grammar only as far as it needs to:
 * strings (with their escapes), brackets, and which string is a key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qm-json-parse.h"

typedef struct
{
  gboolean is_object;
  guint    index;    /* arrays: the element; objects: unused */
  char    *key;      /* objects: the member being read */
  gboolean want_key; /* objects: the next string is a key */
} Frame;

static char *
frames_path (const Frame *frames,
             guint        n)
{
  GString *p = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (frames[i].is_object)
        {
          if (p->len > 0)
            g_string_append_c (p, '.');
          g_string_append (p, frames[i].key ? frames[i].key : "");
        }
      else
        g_string_append_printf (p, "[%u]", frames[i].index);
    }
  return g_string_free (p, FALSE);
}

void
qm_json_scan (const char *data,
              gssize      length,
              guint       limit,
              QmJsonScan *out)
{
  gsize n = length < 0 ? strlen (data) : (gsize) length;
  g_autofree Frame *frames = g_new0 (Frame, limit + 1);
  GString *key = NULL;
  guint depth = 0, line = 1, chars = 0;
  gboolean in_string = FALSE, is_key = FALSE;

  memset (out, 0, sizeof *out);
  for (gsize i = 0; i < n; i++)
    {
      char c = data[i];

      if (c == '\n')
        line++;
      if (in_string)
        {
          if (c == '"')
            {
              in_string = FALSE;
              if (is_key && depth > 0 && depth <= limit)
                {
                  g_free (frames[depth - 1].key);
                  frames[depth - 1].key = g_string_free (g_steal_pointer (&key), FALSE);
                  frames[depth - 1].want_key = FALSE;
                }
              continue;
            }
          /* One character of the decoded string per UTF-8 lead byte, and
           * one per escape. */
          if (((guchar) c & 0xC0) != 0x80)
            chars++;
          if (c == '\\' && i + 1 < n)
            {
              if (data[i + 1] == 'u' && i + 5 < n && strncmp (data + i + 2, "0000", 4) == 0
                  && out->nul_path == NULL && !is_key)
                {
                  out->nul_path = frames_path (frames, MIN (depth, limit));
                  out->nul_at = chars;
                }
              if (is_key && key)
                g_string_append_len (key, data + i, 2);
              i++;
              if (data[i] == 'u')
                {
                  /* The four hex digits are one character. */
                  if (is_key && key && i + 4 < n)
                    g_string_append_len (key, data + i + 1, 4);
                  i += MIN ((gsize) 4, n - 1 - i);
                }
              continue;
            }
          if (is_key && key)
            g_string_append_c (key, c);
          continue;
        }
      /* A whole number of more than 18 digits may not fit 64 bits; json-glib
       * then reads it as -1, and "(got -1)" was all a refusal could say. */
      if (c == '-' || g_ascii_isdigit (c))
        {
          gsize end = i, digits = 0;
          gboolean whole = TRUE;

          while (end < n && (g_ascii_isdigit (data[end]) || strchr ("+-.eE", data[end]) != NULL))
            {
              digits += g_ascii_isdigit (data[end]) ? 1 : 0;
              whole &= strchr (".eE", data[end]) == NULL;
              end++;
            }
          if (whole && digits > 18 && out->big_path == NULL)
            {
              out->big_path = frames_path (frames, MIN (depth, limit));
              out->big_text = g_strndup (data + i, end - i);
            }
          i = end - 1;
          continue;
        }
      switch (c)
        {
        case '"':
          in_string = TRUE;
          chars = 0;
          is_key = depth > 0 && depth <= limit && frames[depth - 1].is_object
                   && frames[depth - 1].want_key;
          if (is_key)
            key = g_string_new (NULL);
          break;
        case '{':
        case '[':
          depth++;
          if (depth > out->depth)
            out->depth = depth;
          if (depth > limit)
            {
              out->deep_line = line;
              goto done;
            }
          frames[depth - 1].is_object = c == '{';
          frames[depth - 1].index = 0;
          frames[depth - 1].want_key = c == '{';
          g_clear_pointer (&frames[depth - 1].key, g_free);
          break;
        case ',':
          if (depth > 0)
            {
              if (frames[depth - 1].is_object)
                frames[depth - 1].want_key = TRUE;
              else
                frames[depth - 1].index++;
            }
          break;
        case '}':
        case ']':
          if (depth > 0)
            {
              g_clear_pointer (&frames[depth - 1].key, g_free);
              depth--;
            }
          break;
        default:
          break;
        }
    }
done:
  if (key)
    g_string_free (key, TRUE);
  for (guint i = 0; i < MIN (depth, limit); i++)
    g_free (frames[i].key);
}

void
qm_json_scan_clear (QmJsonScan *scan)
{
  g_clear_pointer (&scan->nul_path, g_free);
  g_clear_pointer (&scan->big_path, g_free);
  g_clear_pointer (&scan->big_text, g_free);
}

gboolean
qm_json_parser_load (JsonParser  *parser,
                     const char  *data,
                     gssize       length,
                     GError     **error)
{
  QmJsonScan scan;

  g_return_val_if_fail (JSON_IS_PARSER (parser), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  qm_json_scan (data, length, QM_JSON_MAX_DEPTH, &scan);
  if (scan.deep_line > 0)
    {
      qm_json_scan_clear (&scan);
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE,
                   /* Translators: the first number is a limit (64), the second a line
                    * of the file. */
                   _("nested more than %u levels deep at line %u; no Quartermaster file "
                     "nests that deep"), QM_JSON_MAX_DEPTH, scan.deep_line);
      return FALSE;
    }
  if (scan.nul_path != NULL)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   /* Translators: %s is where in the file ("name", "quote.lines[2].note");
                    * %u the character of that text. */
                   _("%s: must not contain a NUL character (got \\u0000 at character %u)"),
                   *scan.nul_path ? scan.nul_path : _("(top level)"), scan.nul_at);
      qm_json_scan_clear (&scan);
      return FALSE;
    }
  if (scan.big_path != NULL)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   /* Translators: %s is where in the file ("target.gpus"), then the
                    * number as written. */
                   _("%s: a whole number too large to be meant (got %s)"),
                   *scan.big_path ? scan.big_path : _("(top level)"), scan.big_text);
      qm_json_scan_clear (&scan);
      return FALSE;
    }
  return json_parser_load_from_data (parser, data, length, error);
}

JsonNode *
qm_json_from_string (const char  *text,
                     GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;

  g_return_val_if_fail (text != NULL, NULL);

  if (!qm_json_parser_load (parser, text, -1, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE,
                           _("the text is empty"));
      return NULL;
    }
  return json_node_copy (root);
}
