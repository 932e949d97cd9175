/* test-a11y.c: every control in every window has an accessible name.
 *
 * Builds the main window on a temporary store, visits each page, opens a
 * plan in the plan view, the comparison, the preferences, the help window,
 * the welcome and the New Plan wizard, and walks each widget tree:
 *
 * - a GtkButton shows a label, or has a tooltip or an accessible label;
 * - a spin button, entry, search entry, switch, drop-down or check button
 *   is named by a label: its row (AdwActionRow:activatable-widget), a
 *   mnemonic label, a LABELLED_BY relation or an explicit accessible label
 *   (set through qm_a11y_*, since GTK 4.8 cannot read these back);
 * - every chart has a description.
 *
 * On top of that, one test per item of issue #37 reads what GTK itself
 * exposes (gtk_test_accessible_has_property/has_relation/has_role, the
 * attributes the AT-SPI backend turns into names, descriptions and roles;
 * a tooltip is only a description there):
 *
 * - icon-buttons: a button or menu button that shows no text has an
 *   accessible label or a labelled-by relation (item 1);
 * - drop-downs: the toggle button inside a drop-down, which takes the
 *   focus, is named (item 3);
 * - doubled-names: no control has both a label and a labelled-by relation
 *   to a widget with text, which GTK 4.8 reads one after the other
 *   ("Layers Layers"; item 4);
 * - radio-buttons: a check button drawn as a radio (in a group) has the
 *   radio role (item 4);
 * - units: a spin button whose unit is a separate label in its row has the
 *   unit in its name, and one in a row with a subtitle has a description
 *   (item 5); a value (a "numeric" label) that is a Tab stop of its own
 *   (the Compare page's cells) is named with more than its text, which it holds, and the check
 *   mark is in words (item 2: "GPUs for Plan A: 2,048", not "✓ 8");
 * - silent-fields: every text field's GtkText (role none in GTK 4.8, so
 *   AT-SPI reports no focus on it) sits in a GtkEntry, GtkSpinButton,
 *   GtkSearchEntry or GtkPasswordEntry, which speak for it; an
 *   AdwEntryRow's does not (item 6);
 * - tables: every column view is named, every column has a header, every
 *   row is named (not "GtkListItemWidget") and every cell's name starts
 *   with its column's header (item 7); a value shown in a preferences
 *   row (the catalog's details) is no Tab stop of its own, and its row is
 *   named with it (item 7);
 * - charts: a shown chart is a Tab stop, no unnamed flow-box cell around
 *   it is one, and its keyboard probe (what the arrow keys do) reads a
 *   point into its name (item 8);
 * - mnemonics: a button whose label has a mnemonic is not named with the
 *   underscore, nor twice (item 10);
 * - figures: a key-figure card of the plan view (and the flow-box cell
 *   around it) is named with every line it shows, its likely range too
 *   (issue #36), and the walk saw cards with a likely range.
 *
 * A failure names each control: its type, its id and its nearest labelled
 * ancestor.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-chart-widget.h"
#include "qm-formulas-window.h"
#include "qm-plan-store.h"
#include "qm-plan-view.h"
#include "qm-preferences-window.h"
#include "qm-test-store.h"
#include "qm-test-ui.h"
#include "qm-welcome-window.h"
#include "qm-window.h"
#include "qm-wizard.h"

typedef enum
{
  FAIL_UNNAMED,          /* the original check: no name by any route */
  FAIL_ICON_BUTTON,      /* item 1 */
  FAIL_DROP_DOWN,        /* item 3 */
  FAIL_DOUBLED,          /* item 4: label and labelled-by both read */
  FAIL_RADIO,            /* item 4: a radio read as a check box */
  FAIL_UNIT,             /* item 5: a value read without its unit */
  FAIL_SILENT,           /* item 6: a field whose focus is not reported */
  FAIL_TABLE,            /* item 7: a list that is no table to AT */
  FAIL_CHART,            /* item 8: a chart the keyboard cannot read */
  FAIL_MNEMONIC,         /* item 10: "_New Plan… New Plan…" */
  FAIL_FIGURE,           /* issue #36: a card read without a line it shows */
  N_FAILS
} FailKind;

typedef struct
{
  GHashTable *seen[N_FAILS];   /* widgets already reported */
  GString    *failures[N_FAILS];
  guint       n_checked;
  guint       n_page;          /* controls on the page being walked */
  GString    *counts;          /* "plans 12, catalog 40, ..." */
  guint       n_bands;         /* key-figure cards showing a likely range */
} Walk;

static gboolean
has_text (const char *s)
{
  return s != NULL && s[0] != '\0';
}

/* Widgets inside these are GTK's or libadwaita's own parts, named by
 * their owner (the +/− of a spin button, a drop-down's toggle, the window
 * buttons, which GTK labels itself). */
static gboolean
is_internal_part (GtkWidget *widget)
{
  static GType types[6];

  if (types[0] == 0)
    {
      types[0] = GTK_TYPE_SPIN_BUTTON;
      types[1] = GTK_TYPE_DROP_DOWN;
      types[2] = GTK_TYPE_WINDOW_CONTROLS;
      types[3] = GTK_TYPE_MENU_BUTTON;
      types[4] = ADW_TYPE_SPLIT_BUTTON;
      types[5] = GTK_TYPE_POPOVER_MENU;
    }
  for (GtkWidget *p = gtk_widget_get_parent (widget); p != NULL; p = gtk_widget_get_parent (p))
    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      if (G_TYPE_CHECK_INSTANCE_TYPE (p, types[i]))
        return TRUE;
  /* An AdwPreferencesWindow's search entry stays in its title stack when
   * the window turns search off; nobody can reach it. */
  if (GTK_IS_SEARCH_ENTRY (widget) && ADW_IS_PREFERENCES_WINDOW (gtk_widget_get_root (widget)) &&
      !adw_preferences_window_get_search_enabled (ADW_PREFERENCES_WINDOW (gtk_widget_get_root (widget))))
    return TRUE;
  return FALSE;
}

static gboolean
has_accessible_name (GtkWidget *widget)
{
  g_autoptr(GList) mnemonic = NULL;

  if (has_text (qm_a11y_get_label (widget)) || qm_a11y_get_labelled_by (widget) != NULL)
    return TRUE;
  mnemonic = gtk_widget_list_mnemonic_labels (widget);
  if (mnemonic != NULL)
    return TRUE;
  for (GtkWidget *p = gtk_widget_get_parent (widget); p != NULL; p = gtk_widget_get_parent (p))
    if (ADW_IS_ACTION_ROW (p))
      return adw_action_row_get_activatable_widget (ADW_ACTION_ROW (p)) == widget &&
             has_text (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (p)));
  return FALSE;
}

/* A button is named by the text it shows. */
static gboolean
shows_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    return has_text (gtk_label_get_text (GTK_LABEL (widget)));
  if (ADW_IS_BUTTON_CONTENT (widget))
    return has_text (adw_button_content_get_label (ADW_BUTTON_CONTENT (widget)));
  /* A menu button's menu is not on the button. */
  if (GTK_IS_POPOVER (widget))
    return FALSE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (shows_text (c))
      return TRUE;
  return FALSE;
}

static gboolean
button_is_named (GtkWidget *button)
{
  if (has_text (gtk_widget_get_tooltip_text (button)) || has_text (gtk_widget_get_tooltip_markup (button)))
    return TRUE;
  if (has_text (qm_a11y_get_label (button)) || qm_a11y_get_labelled_by (button) != NULL)
    return TRUE;
  if (GTK_IS_BUTTON (button) && has_text (gtk_button_get_label (GTK_BUTTON (button))))
    return TRUE;
  return shows_text (button);
}

/* "AdwActionRow “Power per Rack”", for the failure message. */
static char *
describe_place (GtkWidget *widget)
{
  GtkWidget *with_id = NULL;

  for (GtkWidget *p = gtk_widget_get_parent (widget); p != NULL; p = gtk_widget_get_parent (p))
    {
      const char *name = NULL;
      const char *id = gtk_buildable_get_buildable_id (GTK_BUILDABLE (p));

      if (ADW_IS_PREFERENCES_ROW (p))
        name = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (p));
      else if (ADW_IS_PREFERENCES_GROUP (p))
        name = adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (p));
      else if (ADW_IS_PREFERENCES_PAGE (p))
        name = adw_preferences_page_get_title (ADW_PREFERENCES_PAGE (p));
      else if (ADW_IS_STATUS_PAGE (p))
        name = adw_status_page_get_title (ADW_STATUS_PAGE (p));
      else if (qm_a11y_get_label (p) != NULL)
        name = qm_a11y_get_label (p);
      if (has_text (name))
        return g_strdup_printf ("%s “%s”", G_OBJECT_TYPE_NAME (p), name);
      /* Else the nearest ancestor with a template id, not a generated one. */
      if (with_id == NULL && id != NULL && !g_str_has_prefix (id, "___"))
        with_id = p;
    }
  if (with_id != NULL)
    return g_strdup_printf ("%s “%s”", G_OBJECT_TYPE_NAME (with_id),
                            gtk_buildable_get_buildable_id (GTK_BUILDABLE (with_id)));
  return g_strdup ("(no labelled ancestor)");
}

static void
fail_kind (Walk       *walk,
           FailKind    kind,
           GtkWidget  *widget,
           const char *why)
{
  g_autofree char *place = NULL;
  const char *id;

  if (!g_hash_table_add (walk->seen[kind], widget))
    return;
  place = describe_place (widget);
  id = gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget));
  g_string_append_printf (walk->failures[kind], "\n  %s%s%s%s %s, in %s of %s",
                          G_OBJECT_TYPE_NAME (widget),
                          id ? " “" : "", id ? id : "", id ? "”" : "",
                          why, place, G_OBJECT_TYPE_NAME (gtk_widget_get_root (widget)));
}

static void
fail (Walk       *walk,
      GtkWidget  *widget,
      const char *why)
{
  fail_kind (walk, FAIL_UNNAMED, widget, why);
}

/* The widgets of @widget's LABELLED_BY relation, as GTK 4.8's test API
 * prints them ("GtkLabel<0x...> AdwActionRow<0x...>"); NULL when unset.
 * gtk_test_accessible_check_relation() returns the actual value when it
 * differs from the expected one, here the empty list. */
static char *
dup_labelled_by (GtkWidget *widget)
{
  if (!gtk_test_accessible_has_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY))
    return NULL;
  return gtk_test_accessible_check_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                             NULL);
}

/* A labelled-by relation to something other than the button's own icon:
 * GtkButton points LABELLED_BY at its child, and an icon has no name, so
 * AT-SPI reads "push button GtkImage". */
static gboolean
labelled_by_text (GtkWidget *widget)
{
  g_autofree char *targets = dup_labelled_by (widget);
  g_auto(GStrv) parts = NULL;

  if (targets == NULL)
    return FALSE;
  parts = g_strsplit_set (targets, " ,", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (has_text (parts[i]) && !g_str_has_prefix (parts[i], "GtkImage<"))
      return TRUE;
  return FALSE;
}

/* What GTK hands to AT-SPI as the name: a label property or a labelled-by
 * relation (GTK 4.8 takes nothing from a tooltip, which is only the
 * description). */
static gboolean
has_spoken_name (GtkWidget *widget)
{
  return gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL) ||
         labelled_by_text (widget);
}

/* The accessible label GTK holds, or NULL: gtk_test_accessible_check_property()
 * returns the actual value when it differs from the expected one. */
static char *
dup_label (GtkWidget *widget)
{
  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
    return NULL;
  return gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                             "\001");
}

/* The unit shown beside a value: a dim label in its row's suffixes. */
static const char *
row_unit (GtkWidget *row,
          GtkWidget *control)
{
  GtkWidget *label = NULL;

  for (GtkWidget *w = gtk_widget_get_first_child (row); w != NULL && label == NULL;
       w = gtk_widget_get_next_sibling (w))
    {
      if (w == control)
        continue;
      if (GTK_IS_LABEL (w) && gtk_widget_get_visible (w) && gtk_widget_has_css_class (w, "dim-label") &&
          !gtk_widget_has_css_class (w, "subtitle") && !gtk_widget_has_css_class (w, "title"))
        return gtk_label_get_text (GTK_LABEL (w));
      if (!GTK_IS_LABEL (w))
        {
          const char *inner = row_unit (w, control);

          if (has_text (inner))
            return inner;
        }
    }
  return NULL;
}

/* A button whose label has a mnemonic: GTK 4.8 names it with the raw
 * label and then the mnemonic label ("_New Plan… New Plan…"). */
static gboolean
has_mnemonic_label (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) && !GTK_IS_CHECK_BUTTON (widget) &&
         gtk_button_get_use_underline (GTK_BUTTON (widget)) &&
         has_text (gtk_button_get_label (GTK_BUTTON (widget)));
}

static void
check_table (Walk      *walk,
             GtkWidget *view)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (view));
  GPtrArray *titles = g_ptr_array_new ();
  guint n_rows = 0;
  g_autofree char *first_row = NULL;

  if (!has_spoken_name (view))
    fail_kind (walk, FAIL_TABLE, view, "is a table without a name");
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (!gtk_column_view_column_get_visible (column))
        continue;
      if (!has_text (gtk_column_view_column_get_title (column)))
        fail_kind (walk, FAIL_TABLE, view, "has a column without a header");
      g_ptr_array_add (titles, (gpointer) gtk_column_view_column_get_title (column));
    }
  for (GtkWidget *list = gtk_widget_get_first_child (view); list != NULL; list = gtk_widget_get_next_sibling (list))
    {
      if (g_strcmp0 (G_OBJECT_TYPE_NAME (list), "GtkColumnListView") != 0)
        continue;
      for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
        {
          guint c = 0;

          if (!gtk_widget_get_visible (row) || g_strcmp0 (G_OBJECT_TYPE_NAME (row), "GtkListItemWidget") != 0)
            continue;
          n_rows++;
          if (first_row == NULL)
            first_row = dup_label (row);
          if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL))
            fail_kind (walk, FAIL_TABLE, row, "is a table row without a name (read as its type)");
          for (GtkWidget *cell = gtk_widget_get_first_child (row); cell != NULL;
               cell = gtk_widget_get_next_sibling (cell), c++)
            {
              g_autofree char *label = dup_label (cell);

              if (c < titles->len && (label == NULL || !g_str_has_prefix (label, g_ptr_array_index (titles, c))))
                {
                  g_autofree char *why = g_strdup_printf ("is a cell not tied to its header “%s” (named “%s”)",
                                                          (char *) g_ptr_array_index (titles, c),
                                                          label ? label : "");

                  fail_kind (walk, FAIL_TABLE, cell, why);
                }
            }
        }
    }
  g_test_message ("table %s: %u columns, %u rows shown; the first read as “%s”",
                  qm_a11y_get_label (view) ? qm_a11y_get_label (view) : G_OBJECT_TYPE_NAME (view),
                  titles->len, n_rows, first_row ? first_row : "");
  g_ptr_array_unref (titles);
}

/* A grouped GtkCheckButton draws a "radio" indicator instead of "check". */
static gboolean
draws_radio (GtkWidget *check)
{
  for (GtkWidget *c = gtk_widget_get_first_child (check); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (g_strcmp0 (gtk_widget_get_css_name (c), "radio") == 0)
      return TRUE;
  return FALSE;
}

static void
check_items (Walk      *walk,
             GtkWidget *widget)
{
  /* Item 1: an icon-only button is read by its label, not its tooltip. */
  if ((GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget)) && !GTK_IS_CHECK_BUTTON (widget) &&
      !is_internal_part (widget) && !shows_text (widget) && !has_spoken_name (widget))
    fail_kind (walk, FAIL_ICON_BUTTON, widget, "shows an icon and has no accessible label");

  /* Item 3: the focus goes to the drop-down's own toggle button. */
  if (GTK_IS_DROP_DOWN (widget))
    {
      GtkWidget *button = qm_test_find_type (widget, GTK_TYPE_TOGGLE_BUTTON);

      if (!has_spoken_name (widget))
        fail_kind (walk, FAIL_DROP_DOWN, widget, "has no accessible label");
      else if (button != NULL && !has_spoken_name (button))
        fail_kind (walk, FAIL_DROP_DOWN, button, "(a drop-down's button) has no accessible label");
    }

  /* Item 4: GTK 4.8 reads the label, then each labelled-by widget. (A
   * button with a mnemonic is item 10.) */
  if (gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL) &&
      labelled_by_text (widget) && !has_mnemonic_label (widget))
    {
      g_autofree char *targets = dup_labelled_by (widget);
      g_autofree char *why = g_strdup_printf ("has a label and is labelled by %s", targets);

      fail_kind (walk, FAIL_DOUBLED, widget, why);
    }
  /* Item 5: "15000.0" says nothing without "billions". */
  if (GTK_IS_SPIN_BUTTON (widget) && gtk_widget_get_ancestor (widget, ADW_TYPE_ACTION_ROW) != NULL)
    {
      GtkWidget *row = gtk_widget_get_ancestor (widget, ADW_TYPE_ACTION_ROW);
      const char *unit = row_unit (row, widget);
      const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
      g_autofree char *label = dup_label (widget);

      if (has_text (unit) && (label == NULL || strstr (label, unit) == NULL))
        {
          g_autofree char *why = g_strdup_printf ("is named “%s” without its unit “%s”",
                                                  label ? label : "", unit);

          fail_kind (walk, FAIL_UNIT, widget, why);
        }
      if (has_text (subtitle) &&
          !gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION))
        fail_kind (walk, FAIL_UNIT, widget, "has no description (its row's subtitle)");
    }

  /* Item 7: GTK 4.8's column view: GtkColumnListView > GtkListItemWidget
   * (a row) > GtkColumnViewCell (a cell, in column order). */
  if (GTK_IS_COLUMN_VIEW (widget))
    check_table (walk, widget);

  /* Item 10: GTK 4.8 names a button with its raw label ("_New Plan…")
   * and then its mnemonic label. */
  if (has_mnemonic_label (widget) && !is_internal_part (widget))
    {
      g_autofree char *label = dup_label (widget);

      if (label != NULL && strchr (label, '_') != NULL)
        {
          g_autofree char *why = g_strdup_printf ("is named “%s”, underscore and all", label);

          fail_kind (walk, FAIL_MNEMONIC, widget, why);
        }
      else if (label != NULL && labelled_by_text (widget))
        fail_kind (walk, FAIL_MNEMONIC, widget, "has a label and is labelled by its mnemonic label");
    }

  /* Item 8: Tab to a chart, then the arrow keys read its points. */
  if (QM_IS_CHART_WIDGET (widget) && gtk_widget_get_mapped (widget))
    {
      GtkWidget *cell = gtk_widget_get_ancestor (widget, GTK_TYPE_FLOW_BOX_CHILD);
      g_autofree char *point = NULL;

      if (!gtk_widget_get_focusable (widget))
        fail_kind (walk, FAIL_CHART, widget, "is a chart the keyboard cannot reach");
      if (cell != NULL && gtk_widget_get_focusable (cell) && !has_spoken_name (cell))
        fail_kind (walk, FAIL_CHART, cell, "is an unnamed Tab stop around a chart");
      point = qm_chart_widget_move_probe (QM_CHART_WIDGET (widget), 0);
      if (point == NULL)
        fail_kind (walk, FAIL_CHART, widget, "reads no point from the keyboard");
      else
        {
          g_autofree char *label = dup_label (widget);

          if (label == NULL || strstr (label, point) == NULL)
            fail_kind (walk, FAIL_CHART, widget, "does not say the point its probe reads");
          else
            g_test_message ("chart read from the keyboard: “%s”", label);
        }
    }

  /* Item 7: "Memory 80 GB" read once, on the row. */
  if (GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)) &&
      gtk_widget_get_mapped (widget) && gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_ROW) != NULL)
    {
      GtkWidget *row = gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_ROW);
      g_autofree char *row_name = dup_label (row);
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      if (gtk_widget_get_focusable (widget))
        fail_kind (walk, FAIL_TABLE, widget, "is a value that is a Tab stop of its own");
      if (has_text (text) && (row_name == NULL || strstr (row_name, text) == NULL))
        {
          g_autofree char *why = g_strdup_printf ("is a row not named with its value “%s”", text);

          fail_kind (walk, FAIL_TABLE, row, why);
        }
    }

  /* Item 2: "2,048" says nothing without "GPUs" and the plan; "✓ 8"
   * says less. */
  if (GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)) &&
      gtk_widget_has_css_class (widget, "numeric") && gtk_widget_get_focusable (widget) &&
      gtk_widget_get_mapped (widget) && gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_ROW) == NULL)
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));
      const char *value = g_str_has_prefix (text, "✓ ") ? text + strlen ("✓ ") : text;
      g_autofree char *label = dup_label (widget);

      if (has_text (value) &&
          (label == NULL || g_str_equal (label, text) || strstr (label, value) == NULL || strstr (label, "✓") != NULL))
        {
          g_autofree char *why = g_strdup_printf ("is a value “%s” read as “%s”, not with what it measures",
                                                  text, label ? label : "");

          fail_kind (walk, FAIL_UNIT, widget, why);
        }
    }

  /* Item 6: Tab into an AdwEntryRow and Orca says nothing. */
  if (GTK_IS_TEXT (widget) && gtk_widget_get_focusable (widget))
    {
      GtkWidget *p = gtk_widget_get_parent (widget);

      if (!GTK_IS_ENTRY (p) && !GTK_IS_SPIN_BUTTON (p) && !GTK_IS_SEARCH_ENTRY (p) && !GTK_IS_PASSWORD_ENTRY (p))
        {
          GtkWidget *owner = gtk_widget_get_ancestor (widget, GTK_TYPE_EDITABLE);

          fail_kind (walk, FAIL_SILENT, owner != NULL ? owner : widget,
                     "is a text field whose focus AT-SPI does not report");
        }
    }

  if (GTK_IS_CHECK_BUTTON (widget) && draws_radio (widget) &&
      !gtk_test_accessible_has_role (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_ROLE_RADIO))
    fail_kind (walk, FAIL_RADIO, widget, "is a radio button read as a check box");
}

/* Whether every shown label under @widget is in @name. */
static const char *
label_missing (GtkWidget  *widget,
               const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      const char *missing;

      if (!gtk_widget_get_visible (c))
        continue;
      if (GTK_IS_LABEL (c) && has_text (gtk_label_get_label (GTK_LABEL (c))) &&
          (name == NULL || strstr (name, gtk_label_get_label (GTK_LABEL (c))) == NULL))
        return gtk_label_get_label (GTK_LABEL (c));
      if ((missing = label_missing (c, name)) != NULL)
        return missing;
    }
  return NULL;
}

/* Issue #36: a key-figure card reads as every line it shows. */
static void
check_figure (Walk      *walk,
              GtkWidget *widget)
{
  GtkWidget *cell;
  const char *missing;

  if (!gtk_widget_has_css_class (widget, "qm-figure"))
    {
      if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "qm-figure-band") &&
          has_text (gtk_label_get_label (GTK_LABEL (widget))))
        walk->n_bands++;
      return;
    }
  cell = gtk_widget_get_ancestor (widget, GTK_TYPE_FLOW_BOX_CHILD);
  if ((missing = label_missing (widget, qm_a11y_get_label (widget))) != NULL ||
      (cell != NULL && (missing = label_missing (widget, qm_a11y_get_label (cell))) != NULL))
    {
      g_autofree char *why = g_strdup_printf ("is a key figure read without “%s” (named “%s”)", missing,
                                              qm_a11y_get_label (widget) ? qm_a11y_get_label (widget) : "");

      fail_kind (walk, FAIL_FIGURE, widget, why);
    }
}

static void
check_widget (Walk      *walk,
              GtkWidget *widget)
{
  check_items (walk, widget);
  check_figure (walk, widget);
  /* A value that is a Tab stop counts as a control (check_items names it). */
  if (GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)) &&
      gtk_widget_get_focusable (widget))
    {
      walk->n_checked++;
      walk->n_page++;
    }
  if (QM_IS_CHART_WIDGET (widget))
    {
      walk->n_checked++;
      walk->n_page++;
      if (!has_text (qm_a11y_get_description (widget)))
        fail (walk, widget, "has no description");
    }
  else if (GTK_IS_SPIN_BUTTON (widget) || GTK_IS_ENTRY (widget) || GTK_IS_SEARCH_ENTRY (widget) ||
           GTK_IS_SWITCH (widget) || GTK_IS_DROP_DOWN (widget))
    {
      walk->n_checked++;
      walk->n_page++;
      if (!is_internal_part (widget) && !has_accessible_name (widget))
        fail (walk, widget, "has no accessible name");
    }
  else if (GTK_IS_CHECK_BUTTON (widget))
    {
      walk->n_checked++;
      walk->n_page++;
      if (!has_text (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget))) &&
          !has_accessible_name (widget) && !shows_text (widget))
        fail (walk, widget, "has no accessible name");
    }
  else if (GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget))
    {
      walk->n_checked++;
      walk->n_page++;
      if (!is_internal_part (widget) && !button_is_named (widget))
        fail (walk, widget, "has no label, tooltip or accessible label");
    }
}

static void
walk_tree (Walk      *walk,
           GtkWidget *widget)
{
  /* Hidden parts (an expander row's unused enable switch, libadwaita's
   * search when a window turns it off) are not there for anyone. Pages of
   * a stack are only child-invisible, so they are still checked. */
  if (!gtk_widget_get_visible (widget))
    return;
  check_widget (walk, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    walk_tree (walk, c);
}

static void
settle (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
}

static void
walk_window (Walk       *walk,
             GtkWidget  *window,
             const char *page)
{
  settle (window);
  walk->n_page = 0;
  walk_tree (walk, window);
  g_string_append_printf (walk->counts, "%s%s %u", walk->counts->len > 0 ? ", " : "", page, walk->n_page);
}

/* Walks every window once; the tests below read the result. */
static Walk *
get_walk (void)
{
  static Walk *walk;
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  static const char *pages[] = { "plans", "catalog", "compare", "quotes" };
  QmStore *store;
  QmWindow *window;
  GtkWidget *other;
  gint64 ids[2];

  if (walk != NULL)
    return walk;

  walk = g_new0 (Walk, 1);
  for (guint k = 0; k < N_FAILS; k++)
    {
      walk->seen[k] = g_hash_table_new (NULL, NULL);
      walk->failures[k] = g_string_new (NULL);
    }
  walk->counts = g_string_new (NULL);

  dir = g_dir_make_tmp ("qm-a11y-XXXXXX", NULL);
  db = g_build_filename (dir, "plans.db", NULL);
  settings = g_settings_new (APPLICATION_ID);
  /* The welcome is walked on its own below. */
  g_settings_set_boolean (settings, "first-run-done", TRUE);

  store = qm_store_open_with_flags (db, QM_STORE_OPEN_NO_BACKUP, &error);
  g_assert_no_error (error);
  ids[0] = qm_test_import_example (store, "llama-3.1-70b-pretrain-h100.qmplan");
  ids[1] = qm_test_import_example (store, "7b-pretrain-30-day-deadline.qmplan");

  window = qm_window_new_with_store (NULL, store);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      qm_window_set_page (window, pages[i]);
      walk_window (walk, GTK_WIDGET (window), pages[i]);
    }

  /* The comparison with plans in it, then a plan in the plan view. */
  qm_window_compare (window, ids, G_N_ELEMENTS (ids));
  walk_window (walk, GTK_WIDGET (window), "compare with plans");
  g_assert_true (qm_window_open_plan (window, ids[0]));
  g_assert_true (QM_IS_PLAN_VIEW (qm_window_get_detail (window)));
  walk_window (walk, GTK_WIDGET (window), "plan view");
  /* A plan with likely ranges (issue #36): the first gives its MFU. */
  qm_window_set_page (window, "plans");
  g_assert_true (qm_window_open_plan (window, ids[1]));
  walk_window (walk, GTK_WIDGET (window), "plan view with likely ranges");

  other = GTK_WIDGET (qm_preferences_window_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (walk, other, "preferences");
  gtk_window_destroy (GTK_WINDOW (other));

  other = GTK_WIDGET (qm_formulas_window_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (walk, other, "formulas");
  gtk_window_destroy (GTK_WINDOW (other));

  other = GTK_WIDGET (qm_welcome_window_new (window));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (walk, other, "welcome");
  gtk_window_destroy (GTK_WINDOW (other));

  other = GTK_WIDGET (qm_wizard_new (GTK_WINDOW (window), store));
  gtk_window_present (GTK_WINDOW (other));
  walk_window (walk, other, "wizard");
  gtk_window_destroy (GTK_WINDOW (other));

  gtk_window_destroy (GTK_WINDOW (window));
  {
    gint64 end = g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND;
    while (g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, FALSE);
  }
  qm_store_free (store);
  return walk;
}

static void
assert_no_failures (FailKind    kind,
                    const char *what)
{
  Walk *walk = get_walk ();

  g_test_message ("%u controls checked (%s)", walk->n_checked, walk->counts->str);
  g_assert_cmpuint (walk->n_checked, >, 50);
  if (walk->failures[kind]->len > 0)
    {
      /* On stderr: TAP takes no multi-line messages. */
      g_printerr ("%s:%s\n", what, walk->failures[kind]->str);
      g_test_fail ();
    }
}

static void
test_every_control_is_named (void)
{
  assert_no_failures (FAIL_UNNAMED, "Unlabelled controls");
}

static void
test_icon_buttons (void)
{
  assert_no_failures (FAIL_ICON_BUTTON, "Icon-only buttons without an accessible label (issue #37 item 1)");
}

static void
test_drop_downs (void)
{
  assert_no_failures (FAIL_DROP_DOWN, "Drop-downs read without a name (issue #37 item 3)");
}

static void
test_doubled_names (void)
{
  assert_no_failures (FAIL_DOUBLED, "Controls whose name is read twice (issue #37 item 4)");
}

static void
test_radio_buttons (void)
{
  assert_no_failures (FAIL_RADIO, "Radio buttons with the check box role (issue #37 item 4)");
}

static void
test_units (void)
{
  assert_no_failures (FAIL_UNIT, "Values read without their unit (issue #37 item 5)");
}

static void
test_silent_fields (void)
{
  assert_no_failures (FAIL_SILENT, "Text fields that are silent on focus (issue #37 item 6)");
}

static void
test_tables (void)
{
  assert_no_failures (FAIL_TABLE, "Lists that are not tables with headers (issue #37 item 7)");
}

static void
test_charts (void)
{
  assert_no_failures (FAIL_CHART, "Charts the keyboard cannot read (issue #37 item 8)");
}

static void
test_figures (void)
{
  /* The deadline plan's time, MFU and GPUs cards. */
  g_assert_cmpuint (get_walk ()->n_bands, >=, 3);
  assert_no_failures (FAIL_FIGURE, "Key figures read without a line they show (issue #36)");
}

static void
test_mnemonics (void)
{
  assert_no_failures (FAIL_MNEMONIC, "Buttons named with their mnemonic (issue #37 item 10)");
}

int
main (int argc, char **argv)
{
  /* The test context keeps the attributes GTK would hand to AT-SPI, where
   * gtk_test_accessible_* read them (GTK_A11Y=none, the ui suite's
   * default, keeps none). */
  g_setenv ("GTK_A11Y", "test", TRUE);
  if (!qm_test_ui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/a11y/every-control-is-named", test_every_control_is_named);
  g_test_add_func ("/a11y/icon-buttons", test_icon_buttons);
  g_test_add_func ("/a11y/drop-downs", test_drop_downs);
  g_test_add_func ("/a11y/doubled-names", test_doubled_names);
  g_test_add_func ("/a11y/radio-buttons", test_radio_buttons);
  g_test_add_func ("/a11y/units", test_units);
  g_test_add_func ("/a11y/silent-fields", test_silent_fields);
  g_test_add_func ("/a11y/tables", test_tables);
  g_test_add_func ("/a11y/charts", test_charts);
  g_test_add_func ("/a11y/mnemonics", test_mnemonics);
  g_test_add_func ("/a11y/figures", test_figures);

  return g_test_run ();
}
