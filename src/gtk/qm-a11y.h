/* qm-a11y.h: accessible names and descriptions that can be read back.
 *
 * GTK 4.8 has no public getter for accessible properties, so these set the
 * property and also keep the text on the widget, where the accessibility
 * test (tests/test-a11y.c) checks it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* GTK_ACCESSIBLE_PROPERTY_LABEL, replacing any labelled-by relation (call
 * it after adw_action_row_set_activatable_widget(), which adds one); on a
 * GtkDropDown, also on the toggle button inside it, which takes the focus. */
void        qm_a11y_label           (GtkWidget  *widget,
                                     const char *label);
/* GTK_ACCESSIBLE_RELATION_LABELLED_BY @label (a GtkLabel, or a row whose
 * title names the widget). */
void        qm_a11y_labelled_by     (GtkWidget  *widget,
                                     GtkWidget  *label);
/* qm_a11y_label() with the title of the AdwPreferencesRow that holds
 * @widget (a spin button or switch suffix), and qm_a11y_describe() with
 * its subtitle; nothing when there is none. */
void        qm_a11y_label_from_row  (GtkWidget  *widget);
/* GTK_ACCESSIBLE_PROPERTY_DESCRIPTION. */
void        qm_a11y_describe        (GtkWidget  *widget,
                                     const char *description);

/* Names @view (when @name is not NULL) and, as rows are bound, each cell
 * "Header: value" and each row by its cells: GTK 4.8 ties no cell to its
 * header. Columns need a GtkSignalListItemFactory; columns added later are
 * followed. */
void        qm_a11y_table           (GtkColumnView *view,
                                     const char    *name);

/* Names every button under @root that has a mnemonic ("_New Plan…") with
 * its plain text, once (GTK 4.8 reads the raw label and then the mnemonic
 * label), and again whenever its label changes. */
void        qm_a11y_fix_mnemonics   (GtkWidget     *root);

/* What was set above, or NULL. */
const char *qm_a11y_get_label       (GtkWidget  *widget);
GtkWidget  *qm_a11y_get_labelled_by (GtkWidget  *widget);
const char *qm_a11y_get_description (GtkWidget  *widget);

G_END_DECLS
