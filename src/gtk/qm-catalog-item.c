/* qm-catalog-item.c: one catalog entry as a list item, and how kinds and
 * fields are shown (the fields themselves are core's qm_catalog_fields()).
 *
 * The item reads its fields out of the entry's JSON once, so that filtering
 * and sorting thousands of entries touch plain doubles and interned strings
 * only (issue #6: a filter change within one frame at 5,000 entries).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qm-catalog-item.h"
#include "qm-format.h"
#include "qm-json-parse.h"

/* The key of the field each kind's second filter offers. */
static const char *filter_keys[QM_N_CATALOG_KINDS] = {
  [QM_CATALOG_KIND_GPU]      = "form_factor",
  [QM_CATALOG_KIND_SERVER]   = "gpu_id",
  [QM_CATALOG_KIND_NETWORK]  = "technology",
  [QM_CATALOG_KIND_STORAGE]  = "kind",
  [QM_CATALOG_KIND_FACILITY] = "kind",
  [QM_CATALOG_KIND_CLOUD]    = "gpu_id",
  [QM_CATALOG_KIND_MODEL]    = NULL,
};

int
qm_catalog_kind_filter_field (QmCatalogKind kind)
{
  const QmCatalogField *fields;
  guint n;

  g_return_val_if_fail (kind < QM_N_CATALOG_KINDS, -1);

  fields = qm_catalog_fields (kind, &n);
  for (guint i = 0; filter_keys[kind] != NULL && i < n; i++)
    if (g_str_equal (fields[i].key, filter_keys[kind]))
      return i;
  return -1;
}

const char *
qm_catalog_kind_filter_all (QmCatalogKind kind)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:
    case QM_CATALOG_KIND_SERVER:   return _("All Form Factors");
    case QM_CATALOG_KIND_NETWORK:  return _("All Technologies");
    case QM_CATALOG_KIND_CLOUD:    return _("All GPUs");
    case QM_CATALOG_KIND_STORAGE:
    case QM_CATALOG_KIND_FACILITY:
    case QM_CATALOG_KIND_MODEL:
    case QM_N_CATALOG_KINDS:
    default:                       return _("All Types");
    }
}

const char *
qm_catalog_kind_title (QmCatalogKind kind)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:      return _("GPUs");
    case QM_CATALOG_KIND_SERVER:   return _("Servers");
    case QM_CATALOG_KIND_NETWORK:  return _("Network");
    case QM_CATALOG_KIND_STORAGE:  return _("Storage");
    case QM_CATALOG_KIND_FACILITY: return _("Facility");
    case QM_CATALOG_KIND_CLOUD:    return _("Cloud");
    case QM_CATALOG_KIND_MODEL:    return _("Models");
    case QM_N_CATALOG_KINDS:
    default:                       g_return_val_if_reached ("");
    }
}

const char *
qm_catalog_kind_singular (QmCatalogKind kind)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:      return _("GPU");
    case QM_CATALOG_KIND_SERVER:   return _("Server");
    case QM_CATALOG_KIND_NETWORK:  return _("Network Switch");
    case QM_CATALOG_KIND_STORAGE:  return _("Storage");
    case QM_CATALOG_KIND_FACILITY: return _("Facility Item");
    case QM_CATALOG_KIND_CLOUD:    return _("Cloud Offer");
    case QM_CATALOG_KIND_MODEL:    return _("Model");
    case QM_N_CATALOG_KINDS:
    default:                       g_return_val_if_reached ("");
    }
}

gboolean
qm_catalog_kind_has_price (QmCatalogKind kind)
{
  return kind != QM_CATALOG_KIND_CLOUD && kind != QM_CATALOG_KIND_MODEL;
}

/* The fewest decimals (up to @max) that show @value exactly: 80 → "80",
 * 3.35 → "3.35". */
static int
needed_decimals (double value,
                 int    max)
{
  for (int d = 0; d < max; d++)
    {
      double scale = pow (10.0, d);

      if (fabs (round (value * scale) - value * scale) < 1e-6 * scale)
        return d;
    }
  return max;
}

char *
qm_catalog_field_format (const QmCatalogField *field,
                         double                value)
{
  char number[QM_FORMAT_BUF];

  g_return_val_if_fail (field != NULL, NULL);

  switch (field->type)
    {
    case QM_CATALOG_FIELD_MONEY:
      if (field->decimals > 0 && fabs (value) < 1e6)
        {
          qm_format_number (number, sizeof number, value, field->decimals);
          return g_strdup_printf ("$%s", number);
        }
      return g_strdup (qm_format_money (number, sizeof number, value, "USD"));

    case QM_CATALOG_FIELD_PARAMS:
      /* TRANSLATORS: a parameter count in billions, e.g. "70.6 B" */
      qm_format_number (number, sizeof number, value / 1e9,
                        needed_decimals (value / 1e9, value >= 1e10 ? field->decimals : 2));
      return g_strdup_printf (_("%s B"), number);

    case QM_CATALOG_FIELD_BOOL:
      return g_strdup (value != 0.0 ? _("Yes") : _("No"));

    case QM_CATALOG_FIELD_COUNT:
    case QM_CATALOG_FIELD_NUMBER:
      qm_format_number (number, sizeof number, value, needed_decimals (value, field->decimals));
      if (field->unit != NULL)
        return g_strdup_printf ("%s %s", number, field->unit);
      return g_strdup (number);

    case QM_CATALOG_FIELD_TEXT:
    default:
      g_return_val_if_reached (NULL);
    }
}

char *
qm_catalog_format_price (double price_usd)
{
  char buf[QM_FORMAT_BUF];

  if (!(price_usd > 0.0))
    return g_strdup ("—");
  return g_strdup (qm_format_money (buf, sizeof buf, price_usd, "USD"));
}

char *
qm_catalog_format_date (const char *iso)
{
  g_autoptr(GDateTime) dt = NULL;
  g_autoptr(GTimeZone) utc = NULL;
  int y, m, d;

  if (iso == NULL)
    return NULL;
  if (sscanf (iso, "%4d-%2d-%2d", &y, &m, &d) != 3 || strlen (iso) != 10)
    return g_strdup (iso);
  utc = g_time_zone_new_utc ();
  dt = g_date_time_new (utc, y, m, d, 0, 0, 0);
  if (dt == NULL)
    return g_strdup (iso);
  /* TRANSLATORS: a date as g_date_time_format() writes it: "1 Jun 2025" */
  return g_date_time_format (dt, _("%-d %b %Y"));
}

/* ------------------------------------------------------------------ */

struct _QmCatalogItem
{
  GObject          parent_instance;

  QmCatalogEntry  *entry;
  const char      *vendor;        /* interned */
  const char      *filter_value;  /* interned */
  char            *search_key;    /* casefolded "id\nname\nvendor" */
  double          *numbers;       /* per field, NAN when absent */
  const char     **texts;         /* per field, interned */
};

G_DEFINE_FINAL_TYPE (QmCatalogItem, qm_catalog_item, G_TYPE_OBJECT)

static void
qm_catalog_item_finalize (GObject *object)
{
  QmCatalogItem *self = QM_CATALOG_ITEM (object);

  g_clear_pointer (&self->entry, qm_catalog_entry_free);
  g_free (self->search_key);
  g_free (self->numbers);
  g_free (self->texts);

  G_OBJECT_CLASS (qm_catalog_item_parent_class)->finalize (object);
}

static void
qm_catalog_item_class_init (QmCatalogItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qm_catalog_item_finalize;
}

static void
qm_catalog_item_init (QmCatalogItem *self)
{
}

JsonObject *
qm_catalog_entry_to_object (const QmCatalogEntry *entry)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root;

  if (entry == NULL || entry->json == NULL)
    return NULL;
  parser = json_parser_new ();
  if (!qm_json_parser_load (parser, entry->json, -1, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return JSON_NODE_HOLDS_OBJECT (root) ? json_object_ref (json_node_get_object (root)) : NULL;
}

static void
read_fields (QmCatalogItem *self)
{
  g_autoptr(JsonObject) o = qm_catalog_entry_to_object (self->entry);
  const QmCatalogField *fields;
  guint n;

  fields = qm_catalog_fields (self->entry->kind, &n);
  self->numbers = g_new (double, n);
  self->texts = g_new0 (const char *, n);
  for (guint i = 0; i < n; i++)
    self->numbers[i] = NAN;

  if (o == NULL)
    return;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = qm_catalog_json_lookup (o, fields[i].key);
      GType type;

      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
        continue;
      type = json_node_get_value_type (node);
      if (type == G_TYPE_STRING)
        {
          const char *s = json_node_get_string (node);

          if (s != NULL && *s != '\0')
            self->texts[i] = g_intern_string (s);
        }
      else if (type == G_TYPE_BOOLEAN)
        self->numbers[i] = json_node_get_boolean (node) ? 1.0 : 0.0;
      else if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
        self->numbers[i] = json_node_get_double (node);
    }
}

QmCatalogItem *
qm_catalog_item_new (QmCatalogEntry *entry)
{
  QmCatalogItem *self;
  g_autofree char *key = NULL;
  int filter;

  g_return_val_if_fail (entry != NULL, NULL);
  g_return_val_if_fail (entry->kind < QM_N_CATALOG_KINDS, NULL);

  self = g_object_new (QM_TYPE_CATALOG_ITEM, NULL);
  self->entry = entry;
  self->vendor = entry->vendor && *entry->vendor ? g_intern_string (entry->vendor) : NULL;
  read_fields (self);

  filter = qm_catalog_kind_filter_field (entry->kind);
  if (entry->kind == QM_CATALOG_KIND_SERVER)
    {
      /* A server's form factor is its GPU's (SXM baseboard or PCIe cards). */
      const QmGpuSpec *gpu = self->texts[filter] ? qm_catalog_gpu (self->texts[filter]) : NULL;

      self->filter_value = gpu && gpu->form_factor ? g_intern_string (gpu->form_factor) : NULL;
    }
  else if (filter >= 0)
    self->filter_value = self->texts[filter];

  key = g_strjoin ("\n", entry->id ? entry->id : "", entry->name ? entry->name : "",
                   entry->vendor ? entry->vendor : "", NULL);
  self->search_key = g_utf8_casefold (key, -1);
  return self;
}

const QmCatalogEntry *
qm_catalog_item_get_entry (QmCatalogItem *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), NULL);

  return self->entry;
}

QmCatalogKind
qm_catalog_item_get_kind (QmCatalogItem *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), 0);

  return self->entry->kind;
}

const char *
qm_catalog_item_get_id (QmCatalogItem *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), NULL);

  return self->entry->id;
}

const char *
qm_catalog_item_get_name (QmCatalogItem *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), NULL);

  return self->entry->name;
}

const char *
qm_catalog_item_get_vendor (QmCatalogItem *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), NULL);

  return self->vendor;
}

const char *
qm_catalog_item_get_filter_value (QmCatalogItem *self)
{
  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), NULL);

  return self->filter_value;
}

/* Field @index of the item's kind; NULL, with a warning, past the last. */
static const QmCatalogField *
item_field (QmCatalogItem *self,
            guint          index)
{
  const QmCatalogField *fields;
  guint n;

  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), NULL);
  fields = qm_catalog_fields (self->entry->kind, &n);
  g_return_val_if_fail (index < n, NULL);
  return &fields[index];
}

double
qm_catalog_item_get_number (QmCatalogItem *self,
                            guint          index)
{
  return item_field (self, index) != NULL ? self->numbers[index] : NAN;
}

const char *
qm_catalog_item_get_text (QmCatalogItem *self,
                          guint          index)
{
  return item_field (self, index) != NULL ? self->texts[index] : NULL;
}

char *
qm_catalog_item_format (QmCatalogItem *self,
                        guint          index)
{
  const QmCatalogField *field = item_field (self, index);
  double v;

  if (field == NULL)
    return NULL;
  if (field->type == QM_CATALOG_FIELD_TEXT)
    return g_strdup (qm_catalog_pretty_value (self->texts[index]));
  /* 0 means "not given" in the catalog, except for yes/no fields. */
  v = self->numbers[index];
  if (isnan (v) || (v == 0.0 && field->type != QM_CATALOG_FIELD_BOOL))
    return NULL;
  return qm_catalog_field_format (field, v);
}

double
qm_catalog_item_sort_value (QmCatalogItem *self,
                            guint          index)
{
  double v = qm_catalog_item_get_number (self, index);

  return isnan (v) ? 0.0 : v;
}

gboolean
qm_catalog_item_matches (QmCatalogItem *self,
                         const char    *needle)
{
  g_return_val_if_fail (QM_IS_CATALOG_ITEM (self), FALSE);

  return needle == NULL || *needle == '\0' || strstr (self->search_key, needle) != NULL;
}

const char *
qm_catalog_pretty_value (const char *value)
{
  static const struct { const char *raw, *pretty; } names[] = {
    { "sxm", N_("SXM") },
    { "pcie", N_("PCIe") },
    { "oam", N_("OAM") },
    { "superchip", N_("Superchip") },
    { "cloud", N_("Cloud Only") },
    { "infiniband", N_("InfiniBand") },
    { "ethernet", N_("Ethernet") },
    { "parallel-fs", N_("Parallel File System") },
    { "local-nvme", N_("Local NVMe") },
    { "rack", N_("Rack") },
    { "pdu", N_("PDU") },
    { "liquid-rack", N_("Liquid-Cooled Rack") },
  };
  const QmGpuSpec *gpu;

  if (value == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (value, names[i].raw))
      return _(names[i].pretty);
  gpu = qm_catalog_gpu (value);
  if (gpu != NULL && gpu->info.name != NULL)
    return gpu->info.name;
  return value;
}
