/* qm-catalog-editor.h: the form that adds, duplicates or edits the user's
 * own catalog entries, and overrides the price of a built-in one, with
 * live validation: every invalid field says what it allows, and Save stays
 * insensitive until the whole entry is valid.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-catalog-store.h"

G_BEGIN_DECLS

typedef enum
{
  QM_CATALOG_EDITOR_ADD,    /* a new user entry; from a copy of @entry when given */
  QM_CATALOG_EDITOR_EDIT,   /* the user entry @entry */
  QM_CATALOG_EDITOR_PRICE,  /* the user's price for @entry (a built-in) */
} QmCatalogEditorMode;

#define QM_TYPE_CATALOG_EDITOR (qm_catalog_editor_get_type ())
G_DECLARE_FINAL_TYPE (QmCatalogEditor, qm_catalog_editor, QM, CATALOG_EDITOR, AdwWindow)

/* The editor holds a reference to @store. */
QmCatalogEditor *qm_catalog_editor_new       (QmStore              *store,
                                              QmCatalogEditorMode   mode,
                                              QmCatalogKind         kind,
                                              const QmCatalogEntry *entry);
QmCatalogEditorMode qm_catalog_editor_get_mode (QmCatalogEditor    *self);
/* The row of the field @key: a catalog JSON key ("memory_gb",
 * "tflops.bf16", "price_usd") or "override" for the user's price. NULL
 * when the form has no such field. */
GtkWidget       *qm_catalog_editor_get_row   (QmCatalogEditor      *self,
                                              const char           *key);
/* Types @text into the field @key, as a person would. */
void             qm_catalog_editor_set_text  (QmCatalogEditor      *self,
                                              const char           *key,
                                              const char           *text);
/* The message shown under the field @key, or NULL when it is valid. */
const char      *qm_catalog_editor_get_message (QmCatalogEditor    *self,
                                                const char         *key);
gboolean         qm_catalog_editor_get_valid (QmCatalogEditor      *self);
/* Writes the entry (the Save button). On success emits ::saved and closes;
 * on failure shows the reason and keeps the form as it is. */
gboolean         qm_catalog_editor_save      (QmCatalogEditor      *self,
                                              GError              **error);

G_END_DECLS
