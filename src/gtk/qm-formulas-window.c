/* qm-formulas-window.c: every formula the estimate uses, with its source,
 * read from the same table as the PDF's "Formulas and their sources"
 * (src/core/qm-formulas.c), so the two say the same thing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "qm-formulas.h"
#include "qm-formulas-window.h"
#include "qm-gtk.h"

struct _QmFormulasWindow
{
  AdwWindow           parent_instance;

  AdwPreferencesPage *page;
};

G_DEFINE_FINAL_TYPE (QmFormulasWindow, qm_formulas_window, ADW_TYPE_WINDOW)

static GtkWidget *
wrapped_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  /* Selectable to copy a formula, but not focusable: the first label would
   * take the focus on opening and show all its text selected. */
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  return label;
}

static void
add_formula (QmFormulasWindow *self,
             const QmFormula  *formula)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *text = wrapped_label (_(formula->formula));
  g_autofree char *source_text = g_strdup_printf (_("Source: %s"), _(formula->source));
  GtkWidget *source = wrapped_label (source_text);

  adw_preferences_group_set_title (group, _(formula->title));
  gtk_widget_add_css_class (box, "card");
  gtk_widget_set_margin_top (text, 12);
  gtk_widget_set_margin_start (text, 12);
  gtk_widget_set_margin_end (text, 12);
  gtk_widget_add_css_class (source, "dim-label");
  gtk_widget_add_css_class (source, "caption");
  gtk_widget_set_margin_bottom (source, 12);
  gtk_widget_set_margin_start (source, 12);
  gtk_widget_set_margin_end (source, 12);
  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (GTK_BOX (box), source);
  gtk_widget_set_name (box, formula->id);
  adw_preferences_group_add (group, box);
  adw_preferences_page_add (self->page, group);
}

static void
qm_formulas_window_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), QM_TYPE_FORMULAS_WINDOW);

  G_OBJECT_CLASS (qm_formulas_window_parent_class)->dispose (object);
}

static void
qm_formulas_window_class_init (QmFormulasWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_formulas_window_dispose;

  qm_gtk_class_set_template (widget_class, "qm-formulas-window.ui");
  gtk_widget_class_bind_template_child (widget_class, QmFormulasWindow, page);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
qm_formulas_window_init (QmFormulasWindow *self)
{
  const QmFormula *formulas;
  guint n;

  gtk_widget_init_template (GTK_WIDGET (self));

  formulas = qm_formulas (&n);
  for (guint i = 0; i < n; i++)
    add_formula (self, &formulas[i]);
}

QmFormulasWindow *
qm_formulas_window_new (GtkWindow *parent)
{
  return g_object_new (QM_TYPE_FORMULAS_WINDOW,
                       "transient-for", parent,
                       NULL);
}

static void
show_formulas_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  GtkRoot *root = gtk_widget_get_root (widget);

  gtk_window_present (GTK_WINDOW (qm_formulas_window_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL)));
}

void
qm_formulas_window_install_action (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.show-formulas", NULL, show_formulas_action);
  /* F1 is the user guide (app.help); the guide links here. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F1, GDK_SHIFT_MASK, "win.show-formulas", NULL);
}
