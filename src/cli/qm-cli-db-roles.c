/* qm-cli-db-roles.c: quartermaster-cli --db postgresql://... db setup-roles
 *
 * Creates the team's three group roles on the server and grants them
 * what each may do (qm-store-roles.h). The administrator then gives each
 * person's login role one of them, e.g. GRANT quartermaster_editor TO
 * alice (README, "Working as a team").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-db.h"
#include "qm-store-roles.h"

int
qm_cli_db_setup_roles (int    argc,
                       char **argv)
{
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GPtrArray) done = NULL;
  g_autoptr(GError) error = NULL;

  if (argc != 2)
    {
      qm_cli_error (_("db setup-roles: expected no arguments; usage: %s"),
                    qm_cli_synopsis ("db setup-roles"));
      return QM_CLI_USAGE;
    }
  if (qm_cli_db_path == NULL || !qm_db_location_is_uri (qm_cli_db_path))
    {
      qm_cli_error ("%s", _("db setup-roles: roles are for a team database: name its server "
                            "with --db postgresql://HOST/DATABASE"));
      return QM_CLI_USAGE;
    }
  /* Opening as the owner brings the schema up to date first, so every
   * table there is to grant on exists. */
  if ((store = qm_cli_open_store (QM_CLI_STORE_WRITE)) == NULL)
    return QM_CLI_INPUT;
  if ((done = qm_store_setup_roles (store, &error)) == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  for (guint i = 0; i < done->len; i++)
    qm_cli_print ("%s\n", (const char *) done->pdata[i]);
  qm_cli_print (_("Give each person's login role one of them, for example: "
                  "GRANT %s TO alice;\n"), QM_STORE_ROLE_EDITOR);
  return QM_CLI_OK;
}
