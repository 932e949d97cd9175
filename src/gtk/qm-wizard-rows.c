/* qm-wizard-rows.c: the New Plan wizard's rows.
 *
 * An entry row binds to a plan key by its path: where the value lives in
 * the plan, its type, label, help and range are the schema's
 * (qm-plan-schema.c); the row adds only how people type it ("15T",
 * "8 weeks") and what an empty entry means. Combo rows list the values of
 * a plan key in words. The rows of the wizard's own (choices, switches,
 * figures) are here too, so each step's file only says what it shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-a11y.h"
#include "qm-format.h"
#include "qm-wizard-private.h"

/* ------------------------------------------------------------------ */
/* Words for values                                                    */

/* 70.55e9 -> "70.6 billion": words, since procurement reads them aloud. */
char *
qm_wizard_format_big (double v)
{
  static const struct { double scale; const char *fmt; } units[] = {
    { 1e12, N_("%s trillion") }, { 1e9, N_("%s billion") }, { 1e6, N_("%s million") },
  };
  char num[QM_FORMAT_BUF];

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (v >= units[i].scale * 0.9995)
      {
        double x = v / units[i].scale;

        qm_format_number (num, sizeof num, x, x < 100 && fabs (x - round (x)) > 0.05 ? 1 : 0);
        return g_strdup_printf (_(units[i].fmt), num);
      }
  qm_format_number (num, sizeof num, v, 0);
  return g_strdup (num);
}


char *
qm_wizard_format_plain (double v)
{
  char buf[QM_FORMAT_BUF];
  int decimals = 0;

  while (decimals < 3 && fabs (v * pow (10, decimals) - round (v * pow (10, decimals))) > 1e-9)
    decimals++;
  return g_strdup (qm_format_number (buf, sizeof buf, v, decimals));
}

static char *
format_days (double days)
{
  char buf[QM_FORMAT_BUF];

  if (days < 1)
    return g_strdup (qm_format_days (buf, sizeof buf, days));
  {
    g_autofree char *n = qm_wizard_format_plain (round (days * 10) / 10);

    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s day", "%s days",
                                         days == 1 ? 1 : 2), n);
  }
}


char *
qm_wizard_format_money (QmWizard *self,
                        double    usd)
{
  char buf[QM_FORMAT_BUF];

  return g_strdup (qm_format_money (buf, sizeof buf, usd, self->base.pricing.currency));
}


/* What a parsed value was understood as, when that is not obvious. */
static char *
describe_value (QmWizard    *self,
                QmParseKind  kind,
                double       v)
{
  switch (kind)
    {
    case QM_PARSE_TOKENS:
      {
        g_autofree char *big = qm_wizard_format_big (v);
        return g_strdup_printf (_("%s tokens"), big);
      }
    case QM_PARSE_PARAMS:
      {
        g_autofree char *big = qm_wizard_format_big (v);
        return g_strdup_printf (_("%s parameters"), big);
      }
    case QM_PARSE_SEQ_LEN:
      {
        g_autofree char *n = qm_wizard_format_plain (v);
        return g_strdup_printf (_("%s tokens"), n);
      }
    case QM_PARSE_DAYS:
      return format_days (v);
    case QM_PARSE_PERCENT:
      {
        g_autofree char *n = qm_wizard_format_plain (round (v * 1000) / 10);
        return g_strdup_printf ("%s %%", n);
      }
    case QM_PARSE_MILLISECONDS:
      {
        g_autofree char *n = qm_wizard_format_plain (v);
        return g_strdup_printf (_("%s ms"), n);
      }
    case QM_PARSE_MONEY:
      {
        char buf[QM_FORMAT_BUF];
        g_autofree char *n = g_strdup (qm_format_number (buf, sizeof buf, v, v < 100 ? 2 : 0));
        return g_strdup_printf ("%s%s", g_str_equal (self->base.pricing.currency, "USD") ? "$" : "", n);
      }
    case QM_PARSE_NUMBER:
    case QM_PARSE_COUNT:
    case QM_N_PARSE_KINDS:
    default:
      return qm_wizard_format_plain (v);
    }
}

/* ------------------------------------------------------------------ */
/* One Tab stop per row                                                */

/* Issue #35 item 7: a row and the widget it activates were two Tab stops,
 * and text typed while the row held the focus went nowhere ("1000"
 * vanished; "500 ms" became "ms", the space activating the row). The row
 * takes no focus of its own: Tab, a click and the row's activation all
 * land in its entry, check or switch, which has a role and a name for
 * assistive technology (issue #37). */
void
qm_wizard_row_set_field (AdwActionRow *row,
                         GtkWidget    *widget)
{
  adw_action_row_set_activatable_widget (row, widget);
  gtk_widget_set_focusable (GTK_WIDGET (row), FALSE);
}

/* ------------------------------------------------------------------ */
/* Entry rows bound to plan keys                                       */

void
qm_wizard_field_free (gpointer data)
{
  QmWizardField *field = data;

  g_free (field->message);
  g_free (field);
}

/* Hidden rows (another goal, a collapsed choice) do not count; collapsed
 * expander rows still do, as they stay visible. */
gboolean
qm_wizard_widget_active (QmWizard  *self,
                         GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL && w != GTK_WIDGET (self->stack); w = gtk_widget_get_parent (w))
    if (!gtk_widget_get_visible (w))
      return FALSE;
  return TRUE;
}

gboolean
qm_wizard_field_active (QmWizardField *field)
{
  return qm_wizard_widget_active (field->self, GTK_WIDGET (field->row));
}

gboolean
qm_wizard_field_ok (QmWizardField *field)
{
  return field->valid && (field->has_value || (field->spec->flags & QM_WIZARD_ROW_OPTIONAL));
}

static const char *
field_help (QmWizardField *field)
{
  const char *help = field->spec->help ? field->spec->help : field->plan_key->help;

  return help ? _(help) : "";
}

/* The values a typed entry may take: the key's range, narrowed. A typed
 * 0 would mean "automatic" or "none" in the plan file, which an empty
 * entry says here, so a count starts at 1 and an amount above 0. */
static void
field_range (QmWizardField *field,
             double        *lo,
             double        *hi,
             gboolean      *lo_open)
{
  const QmPlanKey *key = field->plan_key;
  const QmWizardRow *spec = field->spec;

  *lo = key->range != NULL ? key->min : 0;
  *hi = key->range != NULL ? key->max : G_MAXDOUBLE;
  *lo_open = (key->flags & QM_PLAN_KEY_MIN_EXCLUSIVE) != 0;
  if (spec->max > 0)
    *hi = MIN (*hi, spec->max);
  if (!(spec->flags & QM_WIZARD_ROW_ZERO_OK) && *lo <= 0)
    {
      *lo = key->type == QM_PLAN_KEY_INTEGER ? 1 : 0;
      *lo_open = key->type != QM_PLAN_KEY_INTEGER;
    }
}

/* "15T", "8 weeks": a unit the reader may want spelt out. */
static gboolean
has_unit (const char *text)
{
  for (const char *p = text; *p; p++)
    if (g_ascii_isalpha (*p))
      return TRUE;
  return FALSE;
}

static void
set_error_style (GtkWidget *widget,
                 gboolean   error)
{
  if (error)
    gtk_widget_add_css_class (widget, "error");
  else
    gtk_widget_remove_css_class (widget, "error");
}

void
qm_wizard_field_show (QmWizardField *field)
{
  gboolean complaint = field->self->complaint_field == field;
  gboolean show_error = (!field->valid && field->touched) || complaint;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (field->entry));
  g_autofree char *subtitle = NULL;

  if (!field->valid && field->touched)
    subtitle = g_strdup (field->message);
  else if (complaint)
    subtitle = g_strdup (field->self->invalid_message);
  else if (field->has_value && has_unit (text))
    {
      g_autofree char *what = describe_value (field->self, field->spec->kind, field->value);
      g_autofree char *typed = g_strstrip (g_utf8_casefold (text, -1));
      g_autofree char *shown = g_utf8_casefold (what, -1);

      if (g_str_equal (typed, shown))
        subtitle = g_strdup (field_help (field));
      else
        /* Translators: a field's explanation, then what was typed as understood ("= 15 trillion tokens"). */
        subtitle = g_strdup_printf (_("%s · = %s"), field_help (field), what);
    }
  else
    subtitle = g_strdup (field_help (field));

  adw_action_row_set_subtitle (field->row, subtitle);
  set_error_style (GTK_WIDGET (field->row), show_error);
  set_error_style (GTK_WIDGET (field->entry), show_error);
  gtk_accessible_update_property (GTK_ACCESSIBLE (field->entry),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (field->entry),
                               GTK_ACCESSIBLE_STATE_INVALID,
                               show_error ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE,
                               -1);
}

static void
field_parse (QmWizardField *field)
{
  const QmWizardRow *spec = field->spec;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (field->entry));
  g_autoptr(GError) error = NULL;
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  double v = 0, lo, hi;
  gboolean lo_open;

  g_clear_pointer (&field->message, g_free);
  field->has_value = FALSE;
  field->valid = TRUE;

  if (trimmed[0] == '\0')
    {
      if (!(spec->flags & QM_WIZARD_ROW_OPTIONAL))
        {
          field->valid = FALSE;
          field->message = qm_parse_hint (spec->kind);
        }
      return;
    }
  if (!qm_parse (spec->kind, trimmed, &v, &error))
    {
      field->valid = FALSE;
      field->message = g_strdup (error->message);
      return;
    }
  field_range (field, &lo, &hi, &lo_open);
  if ((lo_open ? !(v > lo) : !(v >= lo)) || v > hi)
    {
      g_autofree char *lo_text = describe_value (field->self, spec->kind, lo);
      g_autofree char *hi_text = describe_value (field->self, spec->kind, hi);

      field->valid = FALSE;
      if (lo_open)
        field->message = g_strdup_printf (_("Must be more than %s and at most %s"), lo_text, hi_text);
      else
        field->message = g_strdup_printf (_("Must be from %s to %s"), lo_text, hi_text);
      return;
    }
  field->has_value = TRUE;
  field->value = v;
}

static void
field_changed (GtkEditable   *editable,
               QmWizardField *field)
{
  if (!field->self->building)
    field->touched = TRUE;
  field_parse (field);
  qm_wizard_field_show (field);
  qm_wizard_refresh (field->self, field->spec->key);
}

static void
activate_next (QmWizard *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "wizard.next", NULL);
}

/* What the entry shows at first: the plan's default, as a person would
 * type it. */
static char *
field_initial_text (QmWizardField *field)
{
  double v = field->spec->suggest;

  if (field->spec->flags & QM_WIZARD_ROW_PREFILL)
    v = qm_plan_key_get_value (field->plan_key, &field->self->base);
  if (!(v > 0) && !(field->spec->flags & QM_WIZARD_ROW_PREFILL))
    return NULL;
  if (field->spec->kind == QM_PARSE_MONEY)
    return describe_value (field->self, field->spec->kind, v);
  return qm_wizard_format_plain (v);
}

/* An AdwActionRow with the explanation as subtitle (or the error, in the
 * error style) and the entry at the end: AdwEntryRow has no subtitle. */
static void
add_field (QmWizard          *self,
           GtkWidget         *parent,
           QmWizardStep       step,
           const QmWizardRow *spec)
{
  QmWizardField *field = g_new0 (QmWizardField, 1);
  g_autofree char *entry_name = g_strconcat ("field-", spec->key, NULL);
  g_autofree char *row_name = g_strconcat ("row-", spec->key, NULL);
  g_autofree char *initial = NULL;
  const char *title;

  field->self = self;
  field->spec = spec;
  field->plan_key = qm_plan_schema_lookup (spec->path);
  g_assert (field->plan_key != NULL && field->plan_key->label != NULL);
  /* A key the reader does not range-check still gets a limit here. */
  g_assert (field->plan_key->range != NULL || spec->max > 0);
  field->step = step;
  title = _(field->plan_key->label);
  field->row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (field->row), title);
  gtk_widget_set_name (GTK_WIDGET (field->row), row_name);

  field->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (field->entry), entry_name);
  gtk_widget_set_valign (GTK_WIDGET (field->entry), GTK_ALIGN_CENTER);
  gtk_editable_set_width_chars (GTK_EDITABLE (field->entry), 9);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (field->entry), 9);
  gtk_entry_set_activates_default (field->entry, FALSE);
  if (spec->flags & QM_WIZARD_ROW_OPTIONAL)
    gtk_entry_set_placeholder_text (field->entry, spec->kind == QM_PARSE_MILLISECONDS
                                                  ? _("No limit") : _("Auto"));
  adw_action_row_add_suffix (field->row, GTK_WIDGET (field->entry));
  qm_wizard_row_set_field (field->row, GTK_WIDGET (field->entry));
  qm_a11y_label (GTK_WIDGET (field->entry), title);
  qm_wizard_add_row (parent, GTK_WIDGET (field->row));

  g_ptr_array_add (self->fields, field);
  initial = field_initial_text (field);
  if (initial != NULL)
    gtk_editable_set_text (GTK_EDITABLE (field->entry), initial);
  field_parse (field);
  qm_wizard_field_show (field);
  g_signal_connect (field->entry, "changed", G_CALLBACK (field_changed), field);
  g_signal_connect_swapped (field->entry, "activate", G_CALLBACK (activate_next), self);
}

void
qm_wizard_add_fields (QmWizard          *self,
                      GtkWidget         *parent,
                      QmWizardStep       step,
                      const QmWizardRow *rows,
                      guint              n_rows)
{
  for (guint i = 0; i < n_rows; i++)
    add_field (self, parent, step, &rows[i]);
}

QmWizardField *
qm_wizard_find_field (QmWizard   *self,
                      const char *key)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      QmWizardField *field = g_ptr_array_index (self->fields, i);

      if (g_str_equal (field->spec->key, key))
        return field;
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Combo rows bound to plan keys                                       */

static double
choice_value (const QmPlanKey *key,
              const char      *id)
{
  int v = 0;

  if (key->type == QM_PLAN_KEY_ENUM)
    {
      if (!key->from_string (id, &v))
        g_critical ("%s: %s is not one of %s", key->path, id, key->choices);
      return v;
    }
  return g_ascii_strtod (id, NULL);
}

static void
combo_changed (QmWizard *self)
{
  if (self->building)
    return;
  qm_wizard_update_mode (self);
  qm_wizard_refresh (self, NULL);
}

/* Starts at the plan's default. The choice itself is the subtitle: it
 * says what it means and stays readable in a narrow window. */
AdwComboRow *
qm_wizard_add_combo (QmWizard             *self,
                     GtkWidget            *parent,
                     const char           *name,
                     const char           *path,
                     const QmWizardChoice *choices,
                     guint                 n_choices)
{
  QmWizardCombo combo = { NULL, qm_plan_schema_lookup (path), choices, n_choices };
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  guint index = 0;

  double initial;

  g_assert (combo.plan_key != NULL && combo.plan_key->label != NULL);
  initial = qm_plan_key_get_value (combo.plan_key, &self->base);
  for (guint i = 0; i < n_choices; i++)
    {
      gtk_string_list_append (list, _(choices[i].label));
      if (choice_value (combo.plan_key, choices[i].id) == initial)
        index = i;
    }
  combo.row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (combo.row), _(combo.plan_key->label));
  adw_combo_row_set_use_subtitle (combo.row, TRUE);
  adw_combo_row_set_model (combo.row, G_LIST_MODEL (list));
  adw_combo_row_set_selected (combo.row, index);
  gtk_widget_set_name (GTK_WIDGET (combo.row), name);
  qm_wizard_add_row (parent, GTK_WIDGET (combo.row));
  g_signal_connect_swapped (combo.row, "notify::selected", G_CALLBACK (combo_changed), self);
  g_array_append_val (self->combos, combo);
  return combo.row;
}

/* Every row that is shown and holds a value, into @plan. */
void
qm_wizard_write_rows (QmWizard *self,
                      QmPlan   *plan)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      QmWizardField *field = g_ptr_array_index (self->fields, i);

      if (field->valid && field->has_value && qm_wizard_field_active (field))
        qm_plan_key_set_value (field->plan_key, plan, field->value);
    }
  for (guint i = 0; i < self->combos->len; i++)
    {
      const QmWizardCombo *combo = &g_array_index (self->combos, QmWizardCombo, i);
      guint sel = adw_combo_row_get_selected (combo->row);

      if (sel < combo->n_choices && qm_wizard_widget_active (self, GTK_WIDGET (combo->row)))
        qm_plan_key_set_value (combo->plan_key, plan,
                               choice_value (combo->plan_key, combo->choices[sel].id));
    }
}

/* ------------------------------------------------------------------ */
/* Rows of the wizard's own                                            */

void
qm_wizard_add_row (GtkWidget *parent,
                   GtkWidget *row)
{
  if (ADW_IS_EXPANDER_ROW (parent))
    adw_expander_row_add_row (ADW_EXPANDER_ROW (parent), row);
  else if (GTK_IS_LIST_BOX (parent))
    gtk_list_box_append (GTK_LIST_BOX (parent), row);
  else
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (parent), row);
}

GtkCheckButton *
qm_wizard_add_choice_row (GtkWidget      *parent,
                          const char     *name,
                          const char     *title,
                          const char     *subtitle,
                          GtkCheckButton *leader)
{
  GtkWidget *row = adw_action_row_new ();
  /* A choice is one of a group: the radio role (construct-only in GTK 4.8,
   * where a grouped GtkCheckButton keeps the check box role). */
  GtkWidget *check = g_object_new (GTK_TYPE_CHECK_BUTTON,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO,
                                   NULL);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_name (check, name);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  if (subtitle != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    subtitle, -1);
  if (leader != NULL)
    gtk_check_button_set_group (GTK_CHECK_BUTTON (check), leader);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  qm_wizard_row_set_field (ADW_ACTION_ROW (row), check);
  qm_a11y_label (check, title);
  qm_wizard_add_row (parent, row);
  return GTK_CHECK_BUTTON (check);
}

GtkLabel *
qm_wizard_add_value_row (AdwPreferencesGroup *group,
                         const char          *title,
                         const char          *subtitle,
                         AdwActionRow       **row_out)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new ("–");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 16);
  gtk_label_set_selectable (GTK_LABEL (label), FALSE);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
  if (row_out != NULL)
    *row_out = ADW_ACTION_ROW (row);
  g_object_set_data (G_OBJECT (label), "qm-row", row);
  return GTK_LABEL (label);
}

GtkSwitch *
qm_wizard_add_switch_row (GtkWidget     *parent,
                          const char    *name,
                          const char    *title,
                          const char    *subtitle,
                          gboolean       active,
                          AdwActionRow **row_out)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *sw = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
  gtk_widget_set_name (sw, name);
  gtk_switch_set_active (GTK_SWITCH (sw), active);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), sw);
  qm_wizard_row_set_field (ADW_ACTION_ROW (row), sw);
  qm_a11y_label (sw, title);
  qm_wizard_add_row (parent, row);
  if (row_out != NULL)
    *row_out = ADW_ACTION_ROW (row);
  return GTK_SWITCH (sw);
}
