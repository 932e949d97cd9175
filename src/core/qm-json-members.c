/* qm-json-members.c: JSON members written from a table of struct members.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-json-members.h"

void
qm_json_add_members (JsonBuilder        *b,
                     gconstpointer       base,
                     const QmJsonMember *members,
                     guint               n)
{
  for (guint i = 0; i < n; i++)
    {
      const QmJsonMember *m = &members[i];
      gconstpointer at = (const char *) base + m->offset;

      if (m->key != NULL)
        json_builder_set_member_name (b, m->key);
      switch (m->type)
        {
        case QM_JSON_NUMBER:
        case QM_JSON_OPTIONAL:
          {
            double v = *(const double *) at;

            if (isfinite (v) && (v != 0 || m->type == QM_JSON_NUMBER))
              json_builder_add_double_value (b, v);
            else
              json_builder_add_null_value (b);
          }
          break;
        case QM_JSON_UINT:
          json_builder_add_int_value (b, *(const guint *) at);
          break;
        case QM_JSON_BOOL:
          json_builder_add_boolean_value (b, *(const gboolean *) at);
          break;
        case QM_JSON_ENUM:
          json_builder_add_string_value (b, m->to_string (*(const int *) at));
          break;
        case QM_JSON_STRING:
          {
            const char *v = *(const char *const *) at;

            if (v != NULL && *v != '\0')
              json_builder_add_string_value (b, v);
            else
              json_builder_add_null_value (b);
          }
          break;
        case QM_JSON_OBJECT:
          json_builder_begin_object (b);
          break;
        case QM_JSON_END:
        default:
          json_builder_end_object (b);
          break;
        }
    }
}
