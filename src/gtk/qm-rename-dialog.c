/* qm-rename-dialog.c: the "Rename Plan" dialog of the plan view and the
 * plans page: the same question wherever a plan is renamed. Each caller
 * checks the name as it types and renames on the "rename" response.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include <glib/gi18n.h>
#include "qm-rename-dialog.h"

/* A "Rename Plan" dialog over @widget's window, not yet presented, its
 * entry (the extra child) holding @name; Enter in it answers "rename". */
AdwMessageDialog *
qm_rename_dialog_new (GtkWidget  *widget,
                      const char *name)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  AdwMessageDialog *dialog;
  GtkWidget *entry = gtk_entry_new ();

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("Rename Plan"), NULL));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "rename", _("_Rename"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "rename", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "rename");
  adw_message_dialog_set_close_response (dialog, "cancel");
  gtk_editable_set_text (GTK_EDITABLE (entry), name);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Plan name"), -1);
  adw_message_dialog_set_extra_child (dialog, entry);
  return dialog;
}

GtkEditable *
qm_rename_dialog_get_entry (AdwMessageDialog *dialog)
{
  return GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
}
