/* qm-store-roles.h: what the connected database role may do (issue #23).
 *
 * On a team's PostgreSQL server the team's administrator gives each
 * person one of three group roles (`quartermaster-cli db setup-roles`
 * creates them and their grants): a viewer reads and prints, an editor
 * also saves plans and quotes, a catalog manager also changes prices and
 * hardware. The server enforces them; the store reads them at open so the
 * app can show the rest read-only, with a reason, rather than fail on
 * save. A file has every right unless it is read-only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "qm-store.h"

G_BEGIN_DECLS

#define QM_STORE_ROLE_VIEWER          "quartermaster_viewer"
#define QM_STORE_ROLE_EDITOR          "quartermaster_editor"
#define QM_STORE_ROLE_CATALOG_MANAGER "quartermaster_catalog_manager"

typedef enum
{
  QM_STORE_RIGHT_NONE         = 0,
  QM_STORE_RIGHT_READ         = 1 << 0,  /* plans, quotes and the catalog */
  QM_STORE_RIGHT_EDIT_PLANS   = 1 << 1,  /* save, rename, duplicate, delete plans */
  QM_STORE_RIGHT_EDIT_QUOTES  = 1 << 2,  /* number quotes, add revisions */
  QM_STORE_RIGHT_EDIT_CATALOG = 1 << 3,  /* prices, hardware, exchange rates */
} QmStoreRights;

#define QM_STORE_RIGHTS_EDIT (QM_STORE_RIGHT_EDIT_PLANS | QM_STORE_RIGHT_EDIT_QUOTES | \
                              QM_STORE_RIGHT_EDIT_CATALOG)
#define QM_STORE_RIGHTS_ALL  (QM_STORE_RIGHT_READ | QM_STORE_RIGHTS_EDIT)

/* What this store may do: on a server, what the connected role's grants
 * allow (has_table_privilege, read at open); on a file, everything, or
 * only reading when it is read-only. */
QmStoreRights qm_store_rights        (QmStore       *store);
/* The connected role as the user knows it: its quartermaster_* group
 * roles, else its own name. NULL on a file. */
const char   *qm_store_role          (QmStore       *store);
/* Why the store lacks @rights (one right, or several): a sentence for
 * the user such as "Your role on the team database,
 * quartermaster_viewer, may read plans but not save them; ...". NULL
 * when it has them all. */
char         *qm_store_rights_reason (QmStore       *store,
                                      QmStoreRights  rights);

/* Creates the three group roles (NOLOGIN) if missing and grants them:
 * SELECT on every table to all three; INSERT, UPDATE and DELETE on plans
 * and quotes to editors, on the catalog, prices and exchange rates to
 * catalog managers (and on catalog_price_history once it exists). Safe
 * to run again, and again after an upgrade. PostgreSQL only; run it as
 * the database's owner with the right to create roles. Returns what was
 * done, one sentence per element. */
GPtrArray    *qm_store_setup_roles   (QmStore       *store,
                                      GError       **error);

G_END_DECLS
