/* qm-json-members.h: JSON members written from a table of struct members
 * (the estimate's contract JSON, the CLI's search results and catalog
 * entries).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  QM_JSON_NUMBER,   /* a double; null when it is not finite */
  QM_JSON_OPTIONAL, /* a double that 0 means absent: null when 0 or not finite */
  QM_JSON_UINT,     /* a guint */
  QM_JSON_BOOL,     /* a gboolean */
  QM_JSON_ENUM,     /* an enum, as the row's to_string names it */
  QM_JSON_STRING,   /* a const char *; null when NULL or empty */
  QM_JSON_OBJECT,   /* opens the object @key, which the next END row closes */
  QM_JSON_END,
} QmJsonMemberType;

/* One row: the key, the type and where the value is in the struct. */
typedef struct
{
  const char        *key;
  QmJsonMemberType   type;
  gsize              offset;
  const char      *(*to_string) (int value);
} QmJsonMember;

/* A row for @member of @Type, refused at compile time unless the member
 * is of @CType. */
#define QM_JSON_MEMBER(key, json_type, Type, member, CType) \
  { key, json_type, G_STRUCT_OFFSET (Type, member) + 0 * sizeof (_Generic (((Type *) 0)->member, CType: 1)), NULL }

/* The @n rows of @members, read from @base, into the object @b is in. */
void qm_json_add_members (JsonBuilder        *b,
                          gconstpointer       base,
                          const QmJsonMember *members,
                          guint               n);

G_END_DECLS
