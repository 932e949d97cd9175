/* qm-catalog-json.h: parse catalog entries from JSON.
 *
 * The built-in catalog (qm-catalog.c) and the store's JSON/CSV imports use
 * the same parsers, so a user's entry is checked exactly like a shipped one.
 * Keys are those of data/catalog/<kind>.json; see qm-catalog-json.c for the
 * schema of each kind. An error names the key and the offending value, for
 * example `memory_gb: must be a number > 0 (got -80)`.
 *
 * Strings in the parsed structs are interned (g_intern_string), so a parsed
 * entry can be copied by value and kept for the life of the process.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "qm-catalog.h"

G_BEGIN_DECLS

#define QM_CATALOG_ERROR (qm_catalog_error_quark ())

typedef enum
{
  QM_CATALOG_ERROR_PARSE,        /* not JSON, or not an array of objects */
  QM_CATALOG_ERROR_MISSING_KEY,  /* a required key is absent */
  QM_CATALOG_ERROR_INVALID,      /* a value has the wrong type or range */
  QM_CATALOG_ERROR_UNKNOWN_KEY,  /* only with QM_CATALOG_PARSE_STRICT */
  QM_CATALOG_ERROR_DUPLICATE_ID, /* two entries with one id in one array */
} QmCatalogError;

/* The kinds of catalog entry; the strings are the `kind` key of
 * `quartermaster-cli catalog list --json` (docs/plan-file.md). */
typedef enum
{
  QM_CATALOG_KIND_GPU,
  QM_CATALOG_KIND_SERVER,
  QM_CATALOG_KIND_NETWORK,
  QM_CATALOG_KIND_STORAGE,
  QM_CATALOG_KIND_FACILITY,
  QM_CATALOG_KIND_CLOUD,
  QM_CATALOG_KIND_MODEL,
  QM_N_CATALOG_KINDS
} QmCatalogKind;

typedef enum
{
  QM_CATALOG_PARSE_NONE   = 0,
  /* Reject keys the schema does not know, to catch typos in shipped data.
   * Imports leave it off and ignore unknown keys. */
  QM_CATALOG_PARSE_STRICT = 1 << 0,
  /* Mark every parsed entry as built in (info.builtin = TRUE). */
  QM_CATALOG_PARSE_BUILTIN = 1 << 1,
} QmCatalogParseFlags;

GQuark       qm_catalog_error_quark      (void);

/* "gpu", "server", "network", "storage", "facility", "cloud", "model".
 * from_string also accepts "rack" for facility (docs/cli.md). */
const char  *qm_catalog_kind_to_string   (QmCatalogKind kind);
gboolean     qm_catalog_kind_from_string (const char    *s,
                                          QmCatalogKind *out);
/* The size of the struct one entry of @kind parses into. */
gsize        qm_catalog_kind_struct_size (QmCatalogKind kind);
/* The kind's file in data/catalog/ (the built-in catalog's resource):
 * "gpus.json", "servers.json", ... */
const char  *qm_catalog_kind_file        (QmCatalogKind kind);

/* The common keys of one entry. @out is cleared first and left cleared
 * on error. */
gboolean qm_catalog_parse_info          (JsonObject      *o,
                                         QmCatalogInfo   *out,
                                         GError         **error);
/* One entry of any kind; @out points at the struct for @kind. It is
 * cleared first and left cleared on error. */
gboolean qm_catalog_parse_object        (QmCatalogKind        kind,
                                         JsonObject          *o,
                                         QmCatalogParseFlags  flags,
                                         gpointer             out,
                                         GError             **error);

/* The value of one of a kind's own fields. */
typedef enum
{
  QM_CATALOG_VALUE_TEXT,
  QM_CATALOG_VALUE_NUMBER,
  QM_CATALOG_VALUE_COUNT,   /* a whole number >= 0 */
  QM_CATALOG_VALUE_BOOL,
  QM_CATALOG_VALUE_TFLOPS,  /* an object: precision name → dense TFLOPS */
} QmCatalogValueType;

/* The key of @kind's field @i (0, 1, ...), in the order the parser reads
 * them, or NULL past the last; the QmCatalogInfo keys (id, vendor, name,
 * source, as_of, price_usd) are not among them. For code that handles
 * every field of an entry without naming each (CSV import and export). */
const char *qm_catalog_field_key        (QmCatalogKind         kind,
                                         guint                 i,
                                         QmCatalogValueType   *type);

/* How people see and type one field: the catalog page's columns and
 * detail rows and the catalog editor loop over these. */
typedef enum
{
  QM_CATALOG_FIELD_TEXT,
  QM_CATALOG_FIELD_NUMBER,   /* a double */
  QM_CATALOG_FIELD_COUNT,    /* a whole number */
  QM_CATALOG_FIELD_MONEY,    /* US dollars */
  QM_CATALOG_FIELD_PARAMS,   /* a parameter count, shown in billions */
  QM_CATALOG_FIELD_BOOL,
} QmCatalogFieldType;

typedef enum
{
  QM_CATALOG_FIELD_REQUIRED = 1 << 0,  /* absent is refused */
  QM_CATALOG_FIELD_POSITIVE = 1 << 1,  /* > 0 when given */
  QM_CATALOG_FIELD_FRACTION = 1 << 2,  /* between 0 and 1 */
  QM_CATALOG_FIELD_COLUMN   = 1 << 3,  /* a column of the catalog page */
  QM_CATALOG_FIELD_LAST     = 1 << 4,  /* shown after the kind's other fields */
} QmCatalogFieldFlags;

typedef struct
{
  const char          *key;       /* catalog JSON key; "tflops.bf16" for a nested one */
  const char          *label;     /* untranslated (N_()); pass through _() */
  const char          *unit;      /* "TFLOPS", "GB" ... or NULL */
  QmCatalogFieldType   type;
  QmCatalogFieldFlags  flags;
  int                  decimals;  /* at most this many are shown */
  /* A text field's own rule, as the parser applies it, or NULL; @rule
   * says what it allows, for people (untranslated, N_()). */
  gboolean           (*check)     (const char *text);
  const char          *rule;
} QmCatalogField;

/* The fields of @kind beyond the common ones, in the parser's order but
 * those marked LAST at the end, with a GPU's tflops object as one field
 * per precision ("tflops.bf16", ...):
 * every field an entry has, each once. Every entry is a detail row and a
 * row of the editor; those with QM_CATALOG_FIELD_COLUMN are columns too. */
const QmCatalogField *qm_catalog_fields        (QmCatalogKind  kind,
                                                guint         *n_fields);
/* A field every kind has: "id", "name", "vendor", "price_usd", "source"
 * or "as_of"; NULL for another key. */
const QmCatalogField *qm_catalog_info_field    (const char    *key);

/* The key of the field that a spreadsheet's column @header names, for
 * @kind or common to all: the key ("price_usd", "tflops.bf16"), or a label
 * the app shows for it in English or in the user's language, with or
 * without its unit ("Price (USD)", "Memory (GB)", "Speicher"), case,
 * spaces and punctuation aside. NULL when none does. */
const char *qm_catalog_key_for_header  (QmCatalogKind   kind,
                                        const char     *header);
/* The names a header may give the common field @key, for messages:
 * "id, ID, Kennung". */
char       *qm_catalog_header_names    (const char     *key);

/* The rules the parser applies to an id and to as_of, for forms that
 * check as the user types. */
gboolean    qm_catalog_id_is_valid      (const char           *id);
gboolean    qm_catalog_date_is_valid    (const char           *date);

/* The member of @o that a field's key names: "memory_gb", or member bf16
 * of object tflops for "tflops.bf16"; NULL when absent or @o is NULL. */
JsonNode   *qm_catalog_json_lookup      (JsonObject           *o,
                                         const char           *key);

/* The entry as a JSON object with the keys the parsers read, so that
 * parsing it gives @spec back (zeros and empty strings are left out;
 * price_usd is always written). @spec is the kind's struct. */
JsonObject *qm_catalog_spec_to_json     (QmCatalogKind         kind,
                                         gconstpointer         spec);

/* A JSON array of entries of one kind. Returns a GArray of the kind's
 * struct (element size qm_catalog_kind_struct_size()), or NULL with an
 * error prefixed by the entry's index and id, e.g.
 * `gpus.json[3] (h100-sxm-80gb): tdp_w: must be a number >= 0 (got "700W")`.
 * @name labels errors; it may be NULL. Duplicate ids are an error. */
GArray  *qm_catalog_parse_array         (QmCatalogKind         kind,
                                         JsonNode             *root,
                                         QmCatalogParseFlags   flags,
                                         const char           *name,
                                         GError              **error);
GArray  *qm_catalog_parse_bytes         (QmCatalogKind         kind,
                                         GBytes               *bytes,
                                         QmCatalogParseFlags   flags,
                                         const char           *name,
                                         GError              **error);
GArray  *qm_catalog_parse_file          (QmCatalogKind         kind,
                                         const char           *path,
                                         QmCatalogParseFlags   flags,
                                         GError              **error);

G_END_DECLS
