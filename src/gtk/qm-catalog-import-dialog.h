/* qm-catalog-import-dialog.h: the preview of a CSV import: every row that
 * would be written and every problem of every bad row, before anything is
 * written; then the valid rows in one transaction.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-catalog-store.h"

G_BEGIN_DECLS

#define QM_TYPE_CATALOG_IMPORT_DIALOG (qm_catalog_import_dialog_get_type ())
G_DECLARE_FINAL_TYPE (QmCatalogImportDialog, qm_catalog_import_dialog, QM, CATALOG_IMPORT_DIALOG, AdwWindow)

/* Takes @import (from qm_catalog_store_import_csv_preview()). @store is not
 * owned and must outlive the dialog. */
QmCatalogImportDialog *qm_catalog_import_dialog_new        (QmStore               *store,
                                                            QmCatalogImport       *import);
/* Reads @data (a CSV file) as detected, and lets the user change the
 * separator and decimal mark; a file refused as a whole shows why. */
QmCatalogImportDialog *qm_catalog_import_dialog_new_for_data (QmStore          *store,
                                                              GBytes           *data,
                                                              const char       *source,
                                                              int               default_kind);
/* Reads the file again with @separator and @decimal_mark (0 keeps the
 * current one), as the format rows do; for a dialog from _new_for_data(). */
void                   qm_catalog_import_dialog_set_format   (QmCatalogImportDialog *self,
                                                              char                   separator,
                                                              char                   decimal_mark);
/* The preview as read; NULL when the file was refused as a whole. */
const QmCatalogImport *qm_catalog_import_dialog_get_import (QmCatalogImportDialog *self);
/* Writes the valid rows (the Import button). On success emits ::imported
 * with the number written and closes; on failure shows why, writes
 * nothing, and stays open. */
gboolean               qm_catalog_import_dialog_commit     (QmCatalogImportDialog *self,
                                                            GError               **error);

G_END_DECLS
