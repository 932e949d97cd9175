/* qm-catalog-editor.c: add, duplicate or edit a catalog entry, or override
 * a built-in price, with live validation.
 *
 * Each field is checked on its own as it is typed (what it allows), then
 * the whole entry goes through the same core parser as the shipped data
 * (qm-catalog-json.c) for the rules that span fields; the store checks it a
 * third time when saving, so nothing invalid is written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "qm-catalog-editor.h"
#include "qm-catalog-item.h"
#include "qm-gtk.h"

typedef struct
{
  QmCatalogField  def;
  GtkWidget      *row;          /* AdwEntryRow, or AdwActionRow with a switch */
  GtkSwitch      *toggle;       /* yes/no fields */
  GtkWidget      *message_row;
  GtkLabel       *message_label;
  char           *message;      /* NULL when valid */
  gboolean        touched;      /* edited since the form opened */
} Field;

struct _QmCatalogEditor
{
  AdwWindow            parent_instance;

  AdwWindowTitle      *window_title;
  AdwPreferencesPage  *page;
  GtkWidget           *save_button;

  QmStore             *store;  /* a reference */
  QmCatalogEditorMode  mode;
  QmCatalogKind        kind;
  QmCatalogEntry      *entry;  /* the original, or NULL */
  GPtrArray           *fields; /* of Field* */
  AdwPreferencesGroup *first_group;
  gboolean             valid;
  gboolean             building;
};

G_DEFINE_FINAL_TYPE (QmCatalogEditor, qm_catalog_editor, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_VALID,
  N_PROPS
};

enum {
  SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The field only the price override form has; the rest are core's
 * (qm_catalog_info_field() and qm_catalog_fields()). */
static const QmCatalogField override_field = { "override", N_("Your Price (US$)"), NULL, QM_CATALOG_FIELD_MONEY, QM_CATALOG_FIELD_REQUIRED, 2 };

static void
field_free (Field *f)
{
  g_free (f->message);
  g_free (f);
}

static Field *
find_field (QmCatalogEditor *self,
            const char      *key)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *f = self->fields->pdata[i];

      if (g_strcmp0 (f->def.key, key) == 0)
        return f;
    }
  return NULL;
}

static char *
field_text (Field *f)
{
  if (f->toggle != NULL)
    return g_strdup (gtk_switch_get_active (f->toggle) ? "true" : "false");
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (f->row))));
}

/* "1,234.5", "$25,000" and "7e9" are numbers; group separators, spaces and
 * a leading $ are ignored. */
static gboolean
parse_number (const char *text,
              double     *out)
{
  g_autoptr(GString) clean = g_string_new (NULL);
  char *end = NULL;

  for (const char *p = text; *p; p++)
    if (*p != ',' && *p != ' ' && !(*p == '$' && clean->len == 0))
      g_string_append_c (clean, *p);
  if (clean->len == 0)
    return FALSE;
  *out = g_ascii_strtod (clean->str, &end);
  return end != NULL && *end == '\0' && isfinite (*out);
}

/* What a number field allows, as a sentence. */
static const char *
number_rule (const QmCatalogField *def)
{
  if (def->type == QM_CATALOG_FIELD_PARAMS)
    return _("Must be a parameter count of a million or more, such as 7e9 or 70600000000");
  if (def->flags & QM_CATALOG_FIELD_FRACTION)
    return _("Must be a number between 0 and 1");
  if (def->type == QM_CATALOG_FIELD_COUNT)
    return (def->flags & QM_CATALOG_FIELD_POSITIVE) ? _("Must be a whole number greater than 0")
                                                    : _("Must be a whole number, 0 or more");
  if (def->type == QM_CATALOG_FIELD_MONEY)
    return _("Must be an amount in US dollars, 0 or more");
  return (def->flags & QM_CATALOG_FIELD_POSITIVE) ? _("Must be a number greater than 0")
                                                  : _("Must be a number, 0 or more");
}

/* The problem with field @f on its own, or NULL. */
static char *
check_field (QmCatalogEditor *self,
             Field           *f)
{
  g_autofree char *text = NULL;
  double v;

  if (f->toggle != NULL)
    return NULL;
  text = field_text (f);

  if (f->def.type == QM_CATALOG_FIELD_TEXT)
    {
      if (*text == '\0')
        return (f->def.flags & QM_CATALOG_FIELD_REQUIRED) ? g_strdup (_("Required")) : NULL;
      if (f->def.check != NULL && !f->def.check (text))
        return g_strdup (_(f->def.rule));
      /* A new entry's id must be free; only the store knows. */
      if (g_str_equal (f->def.key, "id") && self->mode == QM_CATALOG_EDITOR_ADD)
        {
          g_autoptr(QmCatalogEntry) other = qm_catalog_store_get (self->store, self->kind, text, NULL);

          if (other != NULL)
            return g_strdup (_("Already used by another entry: choose another ID"));
        }
      return NULL;
    }

  if (*text == '\0')
    return (f->def.flags & QM_CATALOG_FIELD_REQUIRED) ? g_strdup (number_rule (&f->def)) : NULL;
  if (!parse_number (text, &v) || v < 0.0 ||
      ((f->def.flags & QM_CATALOG_FIELD_POSITIVE) && v <= 0.0) ||
      ((f->def.flags & QM_CATALOG_FIELD_FRACTION) && v > 1.0) ||
      (f->def.type == QM_CATALOG_FIELD_COUNT && (v != floor (v) || v > G_MAXUINT)) ||
      (f->def.type == QM_CATALOG_FIELD_PARAMS && v < 1e6))
    return g_strdup (number_rule (&f->def));
  return NULL;
}

static JsonObject *
ensure_object (JsonObject *o,
               const char *key)
{
  JsonNode *node = json_object_get_member (o, key);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    json_object_set_object_member (o, key, json_object_new ());
  return json_object_get_object_member (o, key);
}

/* The entry the form describes, as catalog JSON. Fields that do not
 * parse are left out: the caller checks them first. */
static JsonObject *
build_json (QmCatalogEditor *self)
{
  JsonObject *o = qm_catalog_entry_to_object (self->entry);

  if (o == NULL)
    o = json_object_new ();

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *f = self->fields->pdata[i];
      g_autofree char *text = field_text (f);
      const char *dot = strchr (f->def.key, '.');
      g_autofree char *outer = dot ? g_strndup (f->def.key, dot - f->def.key) : NULL;
      JsonObject *target = dot ? ensure_object (o, outer) : o;
      const char *key = dot ? dot + 1 : f->def.key;
      double v;

      if (g_str_equal (f->def.key, "override"))
        continue;
      if (json_object_has_member (target, key))
        json_object_remove_member (target, key);
      if (f->toggle != NULL)
        {
          json_object_set_boolean_member (target, key, gtk_switch_get_active (f->toggle));
          continue;
        }
      if (*text == '\0')
        continue;
      if (f->def.type == QM_CATALOG_FIELD_TEXT)
        json_object_set_string_member (target, key, text);
      else if (!parse_number (text, &v))
        continue;
      else if (f->def.type == QM_CATALOG_FIELD_COUNT)
        json_object_set_int_member (target, key, (gint64) v);
      else
        json_object_set_double_member (target, key, v);
    }
  return o;
}

static void
show_message (Field      *f,
              const char *message)
{
  gboolean shown;

  if (g_strcmp0 (f->message, message) != 0)
    {
      g_free (f->message);
      f->message = g_strdup (message);
    }
  /* Untouched empty fields of a new entry keep quiet; Save says enough. */
  shown = f->message != NULL && f->touched;
  if (shown)
    gtk_widget_add_css_class (f->row, "error");
  else
    gtk_widget_remove_css_class (f->row, "error");
  gtk_label_set_text (f->message_label, f->message ? f->message : "");
  gtk_widget_set_visible (f->message_row, shown);
  gtk_widget_set_tooltip_text (f->row, shown ? f->message : NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (f->row),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, shown ? f->message : "",
                                  -1);
}

static void
validate (QmCatalogEditor *self)
{
  gboolean valid = TRUE;

  if (self->building)
    return;

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *f = self->fields->pdata[i];
      g_autofree char *message = check_field (self, f);

      show_message (f, message);
      valid = valid && message == NULL;
    }

  /* The rules between fields (a bf16 or fp16 figure, typical power under
   * max power, kv heads dividing heads ...) are the core parser's. */
  if (valid && self->mode != QM_CATALOG_EDITOR_PRICE)
    {
      g_autoptr(JsonObject) o = build_json (self);
      g_autofree gpointer spec = g_malloc0 (qm_catalog_kind_struct_size (self->kind));
      g_autoptr(GError) error = NULL;

      if (!qm_catalog_parse_object (self->kind, o, QM_CATALOG_PARSE_NONE, spec, &error))
        {
          g_auto(GStrv) parts = g_strsplit (error->message, ": ", 2);
          Field *f = find_field (self, parts[0]);
          g_autofree char *key = g_strconcat (parts[0], ".bf16", NULL);
          char *got;

          if (f == NULL)
            f = find_field (self, key);   /* "tflops": the bf16 figure */
          if (f == NULL)
            f = self->fields->pdata[0];
          f->touched = TRUE;
          /* "must not exceed power_max_w (got 900)": the value is in view. */
          if (parts[1] != NULL && (got = strstr (parts[1], " (got ")) != NULL)
            *got = '\0';
          if (parts[1] != NULL)
            parts[1][0] = g_ascii_toupper (parts[1][0]);
          show_message (f, parts[1] != NULL ? parts[1] : error->message);
          valid = FALSE;
        }
    }

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.save", valid);
  if (valid != self->valid)
    {
      self->valid = valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
    }
}

static void
on_field_changed (QmCatalogEditor *self,
                  GtkWidget       *row)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *f = self->fields->pdata[i];

      if (f->row == row || (f->toggle != NULL && GTK_WIDGET (f->toggle) == row))
        f->touched = TRUE;
    }
  validate (self);
}

static void
add_field (QmCatalogEditor      *self,
           AdwPreferencesGroup  *group,
           const QmCatalogField *def,
           const char           *initial,
           gboolean              editable)
{
  Field *f = g_new0 (Field, 1);
  const char *label = _(def->label);
  g_autofree char *title = NULL;

  f->def = *def;
  if (def->unit != NULL && def->type != QM_CATALOG_FIELD_TEXT)
    title = g_strdup_printf ("%s (%s)", label, def->unit);
  else
    title = g_strdup (label);

  if (def->type == QM_CATALOG_FIELD_BOOL)
    {
      f->row = adw_action_row_new ();
      f->toggle = GTK_SWITCH (gtk_switch_new ());
      gtk_widget_set_valign (GTK_WIDGET (f->toggle), GTK_ALIGN_CENTER);
      gtk_switch_set_active (f->toggle, g_strcmp0 (initial, "true") == 0);
      gtk_accessible_update_property (GTK_ACCESSIBLE (f->toggle),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (f->row), GTK_WIDGET (f->toggle));
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (f->row), GTK_WIDGET (f->toggle));
      gtk_widget_set_sensitive (f->row, editable);
      g_signal_connect_object (f->toggle, "notify::active",
                               G_CALLBACK (on_field_changed), self, G_CONNECT_SWAPPED);
    }
  else
    {
      f->row = adw_entry_row_new ();
      adw_entry_row_set_activates_default (ADW_ENTRY_ROW (f->row), TRUE);
      gtk_editable_set_text (GTK_EDITABLE (f->row), initial ? initial : "");
      gtk_editable_set_editable (GTK_EDITABLE (f->row), editable);
      if (def->type != QM_CATALOG_FIELD_TEXT)
        adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (f->row), GTK_INPUT_PURPOSE_NUMBER);
      g_signal_connect_object (f->row, "changed",
                               G_CALLBACK (on_field_changed), self, G_CONNECT_SWAPPED);
    }
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (f->row), title);
  adw_preferences_group_add (group, f->row);

  /* The message sits right under its field, inside the boxed list. */
  f->message_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (f->message_label, TRUE);
  gtk_label_set_xalign (f->message_label, 0.0);
  gtk_widget_set_margin_start (GTK_WIDGET (f->message_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (f->message_label), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (f->message_label), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (f->message_label), 6);
  gtk_widget_add_css_class (GTK_WIDGET (f->message_label), "error");
  gtk_widget_add_css_class (GTK_WIDGET (f->message_label), "caption");
  f->message_row = g_object_new (ADW_TYPE_PREFERENCES_ROW,
                                 "child", f->message_label,
                                 "activatable", FALSE,
                                 "selectable", FALSE,
                                 "focusable", FALSE,
                                 "visible", FALSE,
                                 NULL);
  adw_preferences_group_add (group, f->message_row);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (f->row),
                                  GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, f->message_label, NULL,
                                  -1);

  g_ptr_array_add (self->fields, f);
}

static AdwPreferencesGroup *
add_group (QmCatalogEditor *self,
           const char      *title,
           const char      *description)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());

  adw_preferences_group_set_title (group, title);
  adw_preferences_group_set_description (group, description);
  adw_preferences_page_add (self->page, group);
  if (self->first_group == NULL)
    self->first_group = group;
  return group;
}

/* The text a field starts with: the entry's value, as typed. */
static char *
initial_text (JsonObject *o,
              const char *key)
{
  JsonNode *node = qm_catalog_json_lookup (o, key);
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (type == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (node) ? "true" : "false");
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      double v = json_node_get_double (node);

      if (v == 0.0)
        return NULL;   /* 0 is "not given" in the catalog */
      return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.15g", v));
    }
  return NULL;
}

/* "h100-sxm-80gb-copy", "-copy-2" ...: an id not yet taken. */
static char *
free_copy_id (QmCatalogEditor *self,
              const char      *id)
{
  for (guint n = 1; n < 1000; n++)
    {
      g_autofree char *candidate = n == 1 ? g_strdup_printf ("%s-copy", id)
                                          : g_strdup_printf ("%s-copy-%u", id, n);
      g_autoptr(QmCatalogEntry) other = qm_catalog_store_get (self->store, self->kind, candidate, NULL);

      if (other == NULL)
        return g_steal_pointer (&candidate);
    }
  return g_strdup (id);
}

static void
set_titles (QmCatalogEditor *self,
            const char      *title,
            const char      *subtitle)
{
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, subtitle);
}

/* A common field (qm_catalog_info_field()), filled from @o. */
static void
add_info_field (QmCatalogEditor     *self,
                AdwPreferencesGroup *group,
                JsonObject          *o,
                const char          *key)
{
  g_autofree char *initial = initial_text (o, key);

  add_field (self, group, qm_catalog_info_field (key), initial, TRUE);
}

static void
build_price_form (QmCatalogEditor *self)
{
  g_autofree char *list = qm_catalog_format_price (self->entry->list_price_usd);
  g_autofree char *initial = NULL;
  AdwPreferencesGroup *group;
  GtkWidget *row;

  set_titles (self, _("Override Price"), self->entry->name);
  group = add_group (self, _("Price"),
                     _("Estimates use your price. The list price is kept, and comes back when you reset the override."));
  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("List Price"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), list);
  adw_preferences_group_add (group, row);
  if (self->entry->has_override)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      initial = g_strdup (g_ascii_formatd (buf, sizeof buf, "%.15g", self->entry->override_usd));
    }
  add_field (self, group, &override_field, initial, TRUE);
}

/* Id and name; a copy gets a free id and "(Copy)" after its name. */
static void
add_id_and_name (QmCatalogEditor     *self,
                 AdwPreferencesGroup *group,
                 JsonObject          *o)
{
  g_autofree char *id = initial_text (o, "id");
  g_autofree char *name = initial_text (o, "name");

  if (self->mode == QM_CATALOG_EDITOR_ADD && id != NULL)
    {
      g_autofree char *copy_id = free_copy_id (self, id);
      g_autofree char *copy_name = g_strdup_printf (_("%s (Copy)"), name ? name : id);

      g_free (id);
      g_free (name);
      id = g_steal_pointer (&copy_id);
      name = g_steal_pointer (&copy_name);
    }
  add_field (self, group, qm_catalog_info_field ("id"), id, self->mode == QM_CATALOG_EDITOR_ADD);
  add_field (self, group, qm_catalog_info_field ("name"), name, TRUE);
}

/* The kind's own fields, a GPU's throughput figures in a group of their
 * own. */
static void
add_spec_fields (QmCatalogEditor *self,
                 JsonObject      *o)
{
  AdwPreferencesGroup *group = add_group (self, _("Specifications"), NULL);
  const QmCatalogField *fields;
  guint n;

  fields = qm_catalog_fields (self->kind, &n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *initial = initial_text (o, fields[i].key);
      gboolean tflops = g_str_has_prefix (fields[i].key, "tflops.");
      gboolean after_tflops = i > 0 && g_str_has_prefix (fields[i - 1].key, "tflops.");

      if (tflops && !after_tflops)
        group = add_group (self, _("Peak Throughput"),
                           _("Dense figures, never “with sparsity”; leave a precision empty when the chip lacks it. A BF16 or FP16 figure is required."));
      else if (!tflops && after_tflops)
        group = add_group (self, _("Memory and Power"), NULL);
      add_field (self, group, &fields[i], initial, TRUE);
    }
}

static void
build_form (QmCatalogEditor *self)
{
  g_autoptr(JsonObject) o = qm_catalog_entry_to_object (self->entry);
  const char *singular = qm_catalog_kind_singular (self->kind);
  AdwPreferencesGroup *group;

  self->building = TRUE;
  if (self->mode == QM_CATALOG_EDITOR_PRICE)
    {
      build_price_form (self);
      self->building = FALSE;
      return;
    }

  if (self->mode == QM_CATALOG_EDITOR_EDIT)
    {
      g_autofree char *title = g_strdup_printf (_("Edit %s"), singular);

      set_titles (self, title, self->entry->name);
    }
  else
    {
      g_autofree char *title = g_strdup_printf (_("New %s"), singular);

      set_titles (self, title, self->entry != NULL ? _("A copy you can change") : NULL);
    }

  group = add_group (self, _("General"), NULL);
  add_id_and_name (self, group, o);
  add_info_field (self, group, o, "vendor");

  add_spec_fields (self, o);

  if (qm_catalog_kind_has_price (self->kind))
    {
      group = add_group (self, _("Price"), _("The reference price estimates use for buying"));
      add_info_field (self, group, o, "price_usd");
    }

  group = add_group (self, _("Source"), _("Where the figures come from, and when they were read"));
  add_info_field (self, group, o, "source");
  add_info_field (self, group, o, "as_of");
  self->building = FALSE;
}

static gboolean
write_entry (QmCatalogEditor  *self,
             char            **id_out,
             GError          **error)
{
  g_autoptr(JsonObject) o = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *json = NULL;
  gboolean ok;

  if (self->mode == QM_CATALOG_EDITOR_PRICE)
    {
      g_autofree char *text = field_text (find_field (self, "override"));
      double v = 0.0;

      parse_number (text, &v);
      *id_out = g_strdup (self->entry->id);
      /* From the revision this form was opened at: a price someone else
       * set meanwhile is a conflict, never overwritten (issue #23). */
      return qm_catalog_store_set_price_override_at (self->store, self->kind, self->entry->id, v,
                                                     self->entry->override_revision, NULL, error);
    }

  o = build_json (self);
  node = json_node_init_object (json_node_alloc (), o);
  json = json_to_string (node, FALSE);
  if (self->mode == QM_CATALOG_EDITOR_EDIT)
    ok = qm_catalog_store_update_at (self->store, self->kind, self->entry->id, json,
                                     self->entry->revision, NULL, error);
  else
    ok = qm_catalog_store_add (self->store, self->kind, json, error);
  if (ok)
    *id_out = g_strdup (json_object_get_string_member (o, "id"));
  return ok;
}

gboolean
qm_catalog_editor_save (QmCatalogEditor  *self,
                        GError          **error)
{
  g_autofree char *id = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (QM_IS_CATALOG_EDITOR (self), FALSE);

  validate (self);
  if (!self->valid)
    {
      g_set_error (error, QM_STORE_ERROR, QM_STORE_ERROR_INVALID,
                   "%s", _("The form has invalid fields"));
      return FALSE;
    }

  if (!write_entry (self, &id, &local_error))
    {
      AdwMessageDialog *dialog;

      /* The form stays open with everything the user typed. */
      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Could Not Save"),
                                                           local_error->message));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_signal_emit (self, signals[SAVED], 0, id);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  qm_catalog_editor_save (QM_CATALOG_EDITOR (widget), NULL);
}

static void
qm_catalog_editor_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  QmCatalogEditor *self = QM_CATALOG_EDITOR (object);

  switch (prop_id)
    {
    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qm_catalog_editor_dispose (GObject *object)
{
  QmCatalogEditor *self = QM_CATALOG_EDITOR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), QM_TYPE_CATALOG_EDITOR);
  g_clear_pointer (&self->fields, g_ptr_array_unref);
  g_clear_pointer (&self->entry, qm_catalog_entry_free);

  g_clear_pointer (&self->store, qm_store_unref);
  G_OBJECT_CLASS (qm_catalog_editor_parent_class)->dispose (object);
}

static void
qm_catalog_editor_class_init (QmCatalogEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qm_catalog_editor_dispose;
  object_class->get_property = qm_catalog_editor_get_property;

  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The id of the entry written. */
  signals[SAVED] = g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  qm_gtk_class_set_template (widget_class, "qm-catalog-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, QmCatalogEditor, window_title);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogEditor, page);
  gtk_widget_class_bind_template_child (widget_class, QmCatalogEditor, save_button);

  gtk_widget_class_install_action (widget_class, "editor.save", NULL, save_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "editor.save", NULL);
}

static void
qm_catalog_editor_init (QmCatalogEditor *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
}

QmCatalogEditor *
qm_catalog_editor_new (QmStore              *store,
                       QmCatalogEditorMode   mode,
                       QmCatalogKind         kind,
                       const QmCatalogEntry *entry)
{
  QmCatalogEditor *self;

  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, NULL);
  g_return_val_if_fail (mode == QM_CATALOG_EDITOR_ADD || entry != NULL, NULL);

  self = g_object_new (QM_TYPE_CATALOG_EDITOR, NULL);
  self->store = qm_store_ref (store);
  self->mode = mode;
  self->kind = kind;
  self->entry = entry ? qm_catalog_entry_copy (entry) : NULL;
  build_form (self);
  validate (self);
  return self;
}

QmCatalogEditorMode
qm_catalog_editor_get_mode (QmCatalogEditor *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_EDITOR (self), 0);

  return self->mode;
}

GtkWidget *
qm_catalog_editor_get_row (QmCatalogEditor *self,
                           const char      *key)
{
  Field *f;

  g_return_val_if_fail (QM_IS_CATALOG_EDITOR (self), NULL);

  f = find_field (self, key);
  return f ? f->row : NULL;
}

void
qm_catalog_editor_set_text (QmCatalogEditor *self,
                            const char      *key,
                            const char      *text)
{
  Field *f;

  g_return_if_fail (QM_IS_CATALOG_EDITOR (self));

  f = find_field (self, key);
  g_return_if_fail (f != NULL);
  if (f->toggle != NULL)
    gtk_switch_set_active (f->toggle, g_strcmp0 (text, "true") == 0);
  else
    gtk_editable_set_text (GTK_EDITABLE (f->row), text);
}

const char *
qm_catalog_editor_get_message (QmCatalogEditor *self,
                               const char      *key)
{
  Field *f;

  g_return_val_if_fail (QM_IS_CATALOG_EDITOR (self), NULL);

  f = find_field (self, key);
  g_return_val_if_fail (f != NULL, NULL);
  return f->message;
}

gboolean
qm_catalog_editor_get_valid (QmCatalogEditor *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_EDITOR (self), FALSE);

  return self->valid;
}
