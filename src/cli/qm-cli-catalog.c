/* qm-cli-catalog.c: quartermaster-cli catalog list [--kind K] [--json]
 *                   quartermaster-cli catalog import CATALOG.csv [--skip-invalid] [--csv-locale c|user]
 *                   quartermaster-cli catalog export [CATALOG.csv] [--kind K] [--csv-locale c|user]
 *                   quartermaster-cli catalog history KIND ID [--json]
 *
 * The catalog as the database holds it: the built-in entries (synced from
 * the shipped data when the database opens), the user's own entries, and
 * price overrides (price_usd is what estimates use; list_price_usd and
 * override_usd show both). JSON keys: docs/plan-file.md "Catalog output".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "qm-catalog-store.h"
#include "qm-cli.h"
#include "qm-cli-commands.h"
#include "qm-json-members.h"
#include "qm-text.h"
#include "qm-json-parse.h"

/* Room for an entry of any kind, as qm_catalog_entry_parse () fills it. */
typedef union
{
  QmGpuSpec      gpu;
  QmServerSpec   server;
  QmNetworkSpec  network;
  QmStorageSpec  storage;
  QmFacilityItem facility;
  QmCloudOffer   cloud;
  QmModelPreset  model;
} AnySpec;

/* ---- JSON ---------------------------------------------------------------- */

/* The per-kind keys of docs/plan-file.md, read from the AnySpec that
 * qm_catalog_entry_parse () filled (each spec of the union is at its
 * start); numbers a catalog may not have (0) are null, not zero. */
static const QmJsonMember gpu_members[] = {
  { "tflops", QM_JSON_OBJECT, 0, NULL },
  QM_JSON_MEMBER ("fp32", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_FP32], double),
  QM_JSON_MEMBER ("tf32", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_TF32], double),
  QM_JSON_MEMBER ("bf16", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_BF16], double),
  QM_JSON_MEMBER ("fp16", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_FP16], double),
  QM_JSON_MEMBER ("fp8", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_FP8], double),
  QM_JSON_MEMBER ("fp4", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_FP4], double),
  QM_JSON_MEMBER ("int8", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_INT8], double),
  QM_JSON_MEMBER ("int4", QM_JSON_OPTIONAL, QmGpuSpec, tflops[QM_PRECISION_INT4], double),
  { NULL, QM_JSON_END, 0, NULL },
  QM_JSON_MEMBER ("memory_gb", QM_JSON_NUMBER, QmGpuSpec, memory_gb, double),
  QM_JSON_MEMBER ("bandwidth_tbs", QM_JSON_NUMBER, QmGpuSpec, bandwidth_tbs, double),
  QM_JSON_MEMBER ("tdp_w", QM_JSON_OPTIONAL, QmGpuSpec, tdp_w, double),
  QM_JSON_MEMBER ("link_gbs", QM_JSON_OPTIONAL, QmGpuSpec, link_gbs, double),
  QM_JSON_MEMBER ("form_factor", QM_JSON_STRING, QmGpuSpec, form_factor, const char *),
};

static const QmJsonMember server_members[] = {
  QM_JSON_MEMBER ("gpu_id", QM_JSON_STRING, QmServerSpec, gpu_id, const char *),
  QM_JSON_MEMBER ("gpus", QM_JSON_UINT, QmServerSpec, gpus, guint),
  QM_JSON_MEMBER ("cpus", QM_JSON_UINT, QmServerSpec, cpus, guint),
  QM_JSON_MEMBER ("ram_gb", QM_JSON_OPTIONAL, QmServerSpec, ram_gb, double),
  QM_JSON_MEMBER ("rack_units", QM_JSON_UINT, QmServerSpec, rack_units, guint),
  QM_JSON_MEMBER ("power_max_w", QM_JSON_NUMBER, QmServerSpec, power_max_w, double),
  QM_JSON_MEMBER ("power_typical_w", QM_JSON_OPTIONAL, QmServerSpec, power_typical_w, double),
  QM_JSON_MEMBER ("weight_kg", QM_JSON_OPTIONAL, QmServerSpec, weight_kg, double),
  QM_JSON_MEMBER ("nics", QM_JSON_UINT, QmServerSpec, nics, guint),
};

static const QmJsonMember network_members[] = {
  QM_JSON_MEMBER ("ports", QM_JSON_UINT, QmNetworkSpec, ports, guint),
  QM_JSON_MEMBER ("port_gbps", QM_JSON_NUMBER, QmNetworkSpec, port_gbps, double),
  QM_JSON_MEMBER ("power_w", QM_JSON_OPTIONAL, QmNetworkSpec, power_w, double),
};

/* After model_defaults (): the counts as a model card would state them. */
static const QmJsonMember model_members[] = {
  QM_JSON_MEMBER ("params", QM_JSON_NUMBER, QmModelPreset, published_params, double),
  QM_JSON_MEMBER ("active_params", QM_JSON_NUMBER, QmModelPreset, published_active_params, double),
  QM_JSON_MEMBER ("layers", QM_JSON_UINT, QmModelPreset, shape.layers, guint),
  QM_JSON_MEMBER ("hidden", QM_JSON_UINT, QmModelPreset, shape.hidden, guint),
  QM_JSON_MEMBER ("heads", QM_JSON_UINT, QmModelPreset, shape.heads, guint),
  QM_JSON_MEMBER ("kv_heads", QM_JSON_UINT, QmModelPreset, shape.kv_heads, guint),
  QM_JSON_MEMBER ("ffn_hidden", QM_JSON_UINT, QmModelPreset, shape.ffn_hidden, guint),
  QM_JSON_MEMBER ("vocab", QM_JSON_UINT, QmModelPreset, shape.vocab, guint),
  QM_JSON_MEMBER ("gated_mlp", QM_JSON_BOOL, QmModelPreset, shape.gated_mlp, gboolean),
  QM_JSON_MEMBER ("tied_embeddings", QM_JSON_BOOL, QmModelPreset, shape.tied_embeddings, gboolean),
  QM_JSON_MEMBER ("experts", QM_JSON_UINT, QmModelPreset, shape.experts, guint),
  QM_JSON_MEMBER ("experts_per_token", QM_JSON_UINT, QmModelPreset, shape.experts_per_token, guint),
  QM_JSON_MEMBER ("shared_experts", QM_JSON_UINT, QmModelPreset, shape.shared_experts, guint),
  QM_JSON_MEMBER ("moe_ffn_hidden", QM_JSON_UINT, QmModelPreset, shape.moe_ffn_hidden, guint),
};

/* The keys every entry has; "kind" is the catalog kind, not the facility
 * or storage sub-kind that the entry's own JSON may carry. */
static const QmJsonMember common_members[] = {
  QM_JSON_MEMBER ("id", QM_JSON_STRING, QmCatalogEntry, id, char *),
  { "kind", QM_JSON_ENUM, G_STRUCT_OFFSET (QmCatalogEntry, kind),
    (const char *(*) (int)) (void (*) (void)) qm_catalog_kind_to_string },
  QM_JSON_MEMBER ("vendor", QM_JSON_STRING, QmCatalogEntry, vendor, char *),
  QM_JSON_MEMBER ("name", QM_JSON_STRING, QmCatalogEntry, name, char *),
  QM_JSON_MEMBER ("source", QM_JSON_STRING, QmCatalogEntry, source, char *),
  QM_JSON_MEMBER ("as_of", QM_JSON_STRING, QmCatalogEntry, as_of, char *),
  QM_JSON_MEMBER ("price_usd", QM_JSON_NUMBER, QmCatalogEntry, price_usd, double),
  QM_JSON_MEMBER ("builtin", QM_JSON_BOOL, QmCatalogEntry, builtin, gboolean),
  QM_JSON_MEMBER ("list_price_usd", QM_JSON_NUMBER, QmCatalogEntry, list_price_usd, double),
};

static const struct
{
  QmCatalogKind       kind;
  const QmJsonMember *members;
  guint               n;
} kind_tables[] = {
  { QM_CATALOG_KIND_GPU, gpu_members, G_N_ELEMENTS (gpu_members) },
  { QM_CATALOG_KIND_SERVER, server_members, G_N_ELEMENTS (server_members) },
  { QM_CATALOG_KIND_NETWORK, network_members, G_N_ELEMENTS (network_members) },
  { QM_CATALOG_KIND_MODEL, model_members, G_N_ELEMENTS (model_members) },
};

/* A model card states one count for a dense model and plain multi-head
 * attention; the shape leaves those at 0 (or 1 expert). */
static void
model_defaults (QmModelPreset *m)
{
  QmModelShape *s = &m->shape;

  if (m->published_active_params <= 0)
    m->published_active_params = m->published_params;
  if (s->kv_heads == 0)
    s->kv_heads = s->heads;
  s->experts = MAX (s->experts, 1u);
  s->experts_per_token = MAX (s->experts_per_token, 1u);
}

/* The keys of @members outside any object into @written. */
static void
mark_written (GHashTable         *written,
              const QmJsonMember *members,
              guint               n)
{
  int depth = 0;

  for (guint i = 0; i < n; i++)
    {
      if (depth == 0 && members[i].key != NULL)
        g_hash_table_add (written, (gpointer) members[i].key);
      depth += members[i].type == QM_JSON_OBJECT;
      depth -= members[i].type == QM_JSON_END;
    }
}

/* The per-kind keys of docs/plan-file.md, always present (null when the
 * entry has none), then every other key of the entry's own JSON. */
static void
kind_members (JsonBuilder          *b,
              const QmCatalogEntry *entry,
              JsonObject           *src,
              GHashTable           *written)
{
  AnySpec u;
  g_autoptr(GError) error = NULL;

  memset (&u, 0, sizeof u);
  if (!qm_catalog_entry_parse (entry, &u, &error))
    return;   /* the store only keeps entries that parse */

  if (entry->kind == QM_CATALOG_KIND_MODEL)
    model_defaults (&u.model);
  for (guint i = 0; i < G_N_ELEMENTS (kind_tables); i++)
    if (kind_tables[i].kind == entry->kind)
      {
        qm_json_add_members (b, &u, kind_tables[i].members, kind_tables[i].n);
        mark_written (written, kind_tables[i].members, kind_tables[i].n);
      }

  /* Everything else the entry carries; a storage or facility entry's own
   * "kind" (rack, pdu, parallel-fs ...) becomes "type", as in the CSV. */
  if (src != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (src);

      for (GList *l = members; l; l = l->next)
        {
          const char *key = l->data;

          if (g_hash_table_contains (written, key))
            continue;
          json_builder_set_member_name (b, g_str_equal (key, "kind") ? "type" : key);
          json_builder_add_value (b, json_node_copy (json_object_get_member (src, key)));
        }
    }
}

static void
entry_json (JsonBuilder          *b,
            const QmCatalogEntry *entry)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GHashTable) written = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *src = NULL;
  static const char *common[] = {
    "id", "vendor", "name", "source", "as_of", "price_usd", "builtin",
  };

  if (entry->json && qm_json_parser_load (parser, entry->json, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    src = json_node_get_object (json_parser_get_root (parser));

  json_builder_begin_object (b);
  qm_json_add_members (b, entry, common_members, G_N_ELEMENTS (common_members));
  json_builder_set_member_name (b, "override_usd");
  if (entry->has_override)
    json_builder_add_double_value (b, entry->override_usd);
  else
    json_builder_add_null_value (b);
  /* The entry's own list_price_usd and override_usd, if any, still follow
   * (as they always have); "kind" is the facility/storage sub-kind. */
  for (guint i = 0; i < G_N_ELEMENTS (common); i++)
    g_hash_table_add (written, (gpointer) common[i]);
  kind_members (b, entry, src, written);
  json_builder_end_object (b);
}

/* ---- Text ---------------------------------------------------------------- */

/* The figures a buyer compares, with units, per kind. */
static char *
entry_specs (const QmCatalogEntry *entry)
{
  AnySpec u;

  memset (&u, 0, sizeof u);
  if (!qm_catalog_entry_parse (entry, &u, NULL))
    return g_strdup ("");
  switch (entry->kind)
    {
    case QM_CATALOG_KIND_GPU:
      /* Translators: a GPU in "catalog list"; units as on datasheets. */
      return g_strdup_printf (_("%s TFLOPS bf16, %s GB, %s TB/s, %s W"),
                              qm_cli_num (u.gpu.tflops[QM_PRECISION_BF16], 0),
                              qm_cli_num (u.gpu.memory_gb, 0),
                              qm_cli_num (u.gpu.bandwidth_tbs, 2),
                              qm_cli_num (u.gpu.tdp_w, 0));
    case QM_CATALOG_KIND_SERVER:
      /* Translators: a server in "catalog list": "8 × h100-sxm-80gb, 8 U,
       * 10,200 W max"; the %s after × is a catalog id. */
      return g_strdup_printf (_("%u × %s, %u U, %s W max"), u.server.gpus,
                              u.server.gpu_id ? u.server.gpu_id : "GPU", u.server.rack_units,
                              qm_cli_num (u.server.power_max_w, 0));
    case QM_CATALOG_KIND_NETWORK:
      return g_strdup_printf ("%u × %s Gb/s, %s W", u.network.ports,
                              qm_cli_num (u.network.port_gbps, 0),
                              qm_cli_num (u.network.power_w, 0));
    case QM_CATALOG_KIND_STORAGE:
      return g_strdup_printf (_("%s, %s $/TB, %s $/(GB/s)"), u.storage.kind ? u.storage.kind : "",
                              qm_cli_num (u.storage.usd_per_tb, 0),
                              qm_cli_num (u.storage.usd_per_gbs, 0));
    case QM_CATALOG_KIND_FACILITY:
      return g_strdup_printf ("%s, %u U, %s kW", u.facility.kind ? u.facility.kind : "",
                              u.facility.rack_units, qm_cli_num (u.facility.kw_limit, 1));
    case QM_CATALOG_KIND_CLOUD:
      return g_strdup_printf (_("%u × %s, $%s/GPU-h on demand, $%s reserved"), u.cloud.gpus,
                              u.cloud.gpu_id ? u.cloud.gpu_id : "GPU",
                              qm_cli_num (u.cloud.usd_per_gpu_hour_on_demand, 2),
                              qm_cli_num (u.cloud.usd_per_gpu_hour_reserved, 2));
    case QM_CATALOG_KIND_MODEL:
      return g_strdup_printf (_("%s B params, %u layers, hidden %s"),
                              qm_cli_num (u.model.published_params / 1e9, 1),
                              u.model.shape.layers, qm_cli_num (u.model.shape.hidden, 0));
    default:
      return g_strdup ("");
    }
}

/* Pad to @width terminal columns, cutting with "…". */
static void
print_cell (const char *s,
            guint       width)
{
  qm_cli_print ("%s ", qm_cli_cell (s, -(int) width));
}

static const char *
kind_label (QmCatalogKind kind)
{
  switch (kind)
    {
    case QM_CATALOG_KIND_GPU:      return _("GPUs");
    case QM_CATALOG_KIND_SERVER:   return _("Servers");
    case QM_CATALOG_KIND_NETWORK:  return _("Network");
    case QM_CATALOG_KIND_STORAGE:  return _("Storage");
    case QM_CATALOG_KIND_FACILITY: return _("Racks");
    case QM_CATALOG_KIND_CLOUD:    return _("Cloud");
    case QM_CATALOG_KIND_MODEL:    return _("Models");
    default:                       return qm_catalog_kind_to_string (kind);
    }
}

static void
print_text (GPtrArray *entries)
{
  int kind = -1;

  for (guint i = 0; i < entries->len; i++)
    {
      const QmCatalogEntry *e = g_ptr_array_index (entries, i);
      g_autofree char *specs = entry_specs (e);
      g_autofree char *price = NULL;

      if ((int) e->kind != kind)
        {
          kind = e->kind;
          qm_cli_print ("%s%s\n", i > 0 ? "\n" : "", kind_label (e->kind));
          qm_cli_print ("  ");
          print_cell (_("ID"), 24);
          print_cell (_("Name"), 34);
          print_cell (_("Specifications"), 52);
          qm_cli_print ("%s  %s %s\n", qm_cli_cell (_("Price"), 16), qm_cli_cell (_("Origin"), -8), _("As of"));
        }
      if (e->has_override)
        price = g_strdup_printf ("%s*", qm_cli_money (e->price_usd, "USD"));
      else if (e->price_usd > 0)
        price = g_strdup (qm_cli_money (e->price_usd, "USD"));
      else
        price = g_strdup ("–");
      qm_cli_print ("  ");
      print_cell (e->id, 24);
      print_cell (e->name, 34);
      print_cell (specs, 52);
      /* Translators: where a catalog entry comes from: built into the app,
       * or added by the user. */
      qm_cli_print ("%16s  %s %s\n", price, qm_cli_cell (e->builtin ? C_("catalog origin", "built-in")
                                                                    : C_("catalog origin", "user"), -8),
                    e->as_of ? e->as_of : "");
    }
  qm_cli_print (_("\nEntries: %u. * = your price override (list price in --json).\n"), entries->len);
}

/* The value of --kind into *kind, or a usage error printed. */
static gboolean
parse_kind (const char *command,
            const char *v,
            int        *kind)
{
  QmCatalogKind k;

  if (v == NULL || !qm_catalog_kind_from_string (v, &k))
    {
      qm_cli_error (_("%s: --kind must be gpu, server, network, storage, rack, cloud or model (got '%s')"),
                    command, v ? v : "");
      return FALSE;
    }
  *kind = k;
  return TRUE;
}

/* --csv-locale: "c" is RFC 4180 as programs read it (comma, decimal
 * point); "user" is what the user's spreadsheet reads (';' and a decimal
 * comma where the locale writes "1,5"), stated in a "sep=" line. */
static gboolean
parse_csv_locale (const char   *command,
                  const char   *value,
                  QmCsvDialect *dialect)
{
  if (qm_csv_dialect_from_string (value, dialect))
    return TRUE;
  qm_cli_error (_("%s: --csv-locale: expected c or user (got '%s')"), command, value);
  return FALSE;
}

/* The options a catalog command takes. */
typedef enum
{
  TAKES_JSON         = 1 << 0,
  TAKES_SKIP_INVALID = 1 << 1,
  TAKES_CSV_LOCALE   = 1 << 2,
  TAKES_FILE         = 1 << 3,   /* else anything unknown is a usage error */
} Takes;

typedef struct
{
  gboolean      json;
  gboolean      skip_invalid;
  int           kind;       /* -1: every kind */
  QmCsvDialect  dialect;    /* as the caller set it when there is no --csv-locale */
  const char   *path;
} CatalogArgs;

/* argv[2...] of "catalog list", "import" or "export" into @a, which
 * holds the defaults; a usage error printed when FALSE. */
static gboolean
parse_catalog_args (const char  *command,
                    int          argc,
                    char       **argv,
                    Takes        takes,
                    CatalogArgs *a)
{
  const char *v = NULL;

  for (int i = 2; i < argc; i++)
    {
      if ((takes & TAKES_JSON) && strcmp (argv[i], "--json") == 0)
        a->json = TRUE;
      else if ((takes & TAKES_SKIP_INVALID) && strcmp (argv[i], "--skip-invalid") == 0)
        a->skip_invalid = TRUE;
      else if ((takes & TAKES_CSV_LOCALE) && qm_cli_option_value (argc, argv, &i, "--csv-locale", &v))
        {
          if (!parse_csv_locale (command, v, &a->dialect))
            return FALSE;
        }
      else if (qm_cli_option_value (argc, argv, &i, "--kind", &v))
        {
          if (!parse_kind (command, v, &a->kind))
            return FALSE;
        }
      else if (takes & TAKES_FILE)
        {
          if (!qm_cli_take_argument (command, argv[i], QM_CLI_ARG_FILE, &a->path))
            return FALSE;
        }
      else
        {
          qm_cli_error (_("%s: unexpected '%s'; usage: %s"), command, argv[i],
                        qm_cli_synopsis (command));
          return FALSE;
        }
    }
  return TRUE;
}

static int
catalog_list (int    argc,
              char **argv)
{
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  CatalogArgs a = { .kind = -1 };

  if (!parse_catalog_args ("catalog list", argc, argv, TAKES_JSON, &a))
    return QM_CLI_USAGE;

  store = qm_cli_open_store (QM_CLI_STORE_READ);
  if (store == NULL)
    return QM_CLI_INPUT;
  entries = qm_catalog_store_list (store, a.kind, NULL, QM_CATALOG_LIST_NONE, &error);
  if (entries == NULL)
    {
      qm_cli_error ("%s: %s", qm_store_path (store), error->message);
      return QM_CLI_INPUT;
    }
  if (a.json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

      qm_cli_json_begin_list (b, "entries");
      for (guint i = 0; i < entries->len; i++)
        entry_json (b, g_ptr_array_index (entries, i));
      qm_cli_json_end_list (b);
      qm_cli_print_json (b);
    }
  else
    print_text (entries);
  return QM_CLI_OK;
}

/* "FILE:LINE: column: problem (got value)", the compiler style that
 * editors jump to. */
static void
print_row_error (const char          *file,
                 const QmCsvRowError *err,
                 const char          *suffix)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append_printf (s, "%s:%u: ", file, err->line);
  if (err->column)
    g_string_append_printf (s, "%s: ", err->column);
  g_string_append (s, err->problem ? err->problem : "invalid row");
  if (err->value)
    g_string_append_printf (s, " (got \"%s\")", err->value);
  g_string_append (s, suffix);
  {
    /* The value is a stranger's cell: it may hold terminal escapes. */
    g_autofree char *safe = qm_text_escape (s->str);

    fprintf (stderr, "%s\n", safe);
  }
}

static int
catalog_export (int    argc,
                char **argv)
{
  g_autoptr(QmStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  CatalogArgs a = { .kind = -1 };
  const char *path;
  gsize len = 0;

  qm_csv_dialect_for_locale (&a.dialect);
  if (!parse_catalog_args ("catalog export", argc, argv, TAKES_CSV_LOCALE | TAKES_FILE, &a))
    return QM_CLI_USAGE;
  path = a.path;

  store = qm_cli_open_store (QM_CLI_STORE_READ);
  if (store == NULL)
    return QM_CLI_INPUT;
  csv = qm_catalog_store_export_csv_dialect (store, a.kind, NULL, QM_CATALOG_LIST_NONE, &a.dialect, &len, &error);
  if (csv == NULL)
    {
      qm_cli_error ("%s: %s", qm_store_path (store), error->message);
      return QM_CLI_INPUT;
    }
  if (path == NULL || strcmp (path, "-") == 0)
    {
      fwrite (csv, 1, len, stdout);
      return QM_CLI_OK;
    }
  if (!g_file_set_contents (path, csv, len, &error))
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  return QM_CLI_OK;
}

static int
catalog_import (int    argc,
                char **argv)
{
  g_autoptr(QmStore) store = NULL;
  g_autoptr(QmCatalogImport) import = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  guint written = 0, added = 0, updated = 0, prices = 0;
  CatalogArgs a = { .kind = -1 };   /* no --csv-locale: the dialect is detected */
  const char *path;
  gboolean skip_invalid;
  gsize len = 0;

  if (!parse_catalog_args ("catalog import", argc, argv,
                           TAKES_SKIP_INVALID | TAKES_CSV_LOCALE | TAKES_FILE, &a))
    return QM_CLI_USAGE;
  path = a.path;
  skip_invalid = a.skip_invalid;
  if (path == NULL)
    {
      qm_cli_error (_("%s: missing %s; usage: %s"), "catalog import", "CATALOG.csv",
                    qm_cli_synopsis ("catalog import"));
      return QM_CLI_USAGE;
    }
  if (!g_file_get_contents (path, &data, &len, &error))
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }

  store = qm_cli_open_store (QM_CLI_STORE_WRITE);
  if (store == NULL)
    return QM_CLI_INPUT;
  import = qm_catalog_store_import_csv_preview_dialect (store, data, len, path, a.kind, &a.dialect, &error);
  if (import == NULL)
    {
      /* The message names the file. */
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  for (guint i = 0; i < import->warnings->len; i++)
    qm_cli_warn (path, g_ptr_array_index (import->warnings, i));

  /* Every bad row, then nothing written (docs/cli.md), unless asked to skip. */
  if (import->errors->len > 0 && !skip_invalid)
    {
      for (guint i = 0; i < import->errors->len; i++)
        print_row_error (path, g_ptr_array_index (import->errors, i), "");
      qm_cli_error (_("%s: problems in bad rows: %u; nothing imported (--skip-invalid imports the "
                      "good rows: %u)"), path, import->errors->len, import->rows->len);
      return QM_CLI_INPUT;
    }
  for (guint i = 0; i < import->errors->len; i++)
    print_row_error (path, g_ptr_array_index (import->errors, i), _(" (skipped)"));
  for (guint i = 0; i < import->rows->len; i++)
    {
      const QmCsvRowPreview *row = g_ptr_array_index (import->rows, i);

      added += row->action == QM_CSV_ROW_ADD;
      updated += row->action == QM_CSV_ROW_UPDATE;
      prices += row->action == QM_CSV_ROW_PRICE;
    }
  if (!qm_catalog_store_import_csv_commit (store, import, skip_invalid, &written, &error))
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  qm_cli_print (_("%s: rows imported into %s: %u (added %u, updated %u, price overrides %u)"),
                path, qm_store_path (store), written, added, updated, prices);
  if (import->unchanged > 0)
    qm_cli_print (_("; %u built-in prices were already as the file has them"), import->unchanged);
  if (import->errors->len > 0)
    qm_cli_print (_("; skipped the bad rows (problems: %u)"), import->errors->len);
  qm_cli_print ("\n");
  return QM_CLI_OK;
}

/* ---- history ------------------------------------------------------------- */

static void
history_json (JsonBuilder                *b,
              const QmCatalogPriceChange *c)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "changed_at");
  json_builder_add_string_value (b, c->changed_at);
  json_builder_set_member_name (b, "who");
  json_builder_add_string_value (b, c->who);
  json_builder_set_member_name (b, "price");
  json_builder_add_string_value (b, c->is_override ? "override" : "entry");
  json_builder_set_member_name (b, "old_price_usd");
  if (c->has_old)
    json_builder_add_double_value (b, c->old_price_usd);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "new_price_usd");
  if (c->has_new)
    json_builder_add_double_value (b, c->new_price_usd);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "revision");
  json_builder_add_int_value (b, c->revision);
  json_builder_end_object (b);
}

/* "2026-11-26T21:40:05.123456Z" as "2026-11-26 21:40:05 UTC". */
static char *
history_time (const char *iso)
{
  g_autoptr(GDateTime) t = g_date_time_new_from_iso8601 (iso, NULL);

  return t != NULL ? g_date_time_format (t, "%Y-%m-%d %H:%M:%S UTC") : g_strdup (iso);
}

static void
history_text (const QmCatalogEntry *entry,
              GPtrArray            *changes)
{
  qm_cli_print (_("Price history of %s %s (%s), newest first:\n"),
                qm_catalog_kind_to_string (entry->kind), entry->id, entry->name);
  if (changes->len == 0)
    {
      qm_cli_print ("%s\n", _("  No price change recorded."));
      return;
    }
  for (guint i = 0; i < changes->len; i++)
    {
      const QmCatalogPriceChange *c = changes->pdata[i];
      g_autofree char *when = history_time (c->changed_at);
      g_autofree char *old = g_strdup (c->has_old ? qm_cli_money (c->old_price_usd, "USD") : "–");
      g_autofree char *new = g_strdup (c->has_new ? qm_cli_money (c->new_price_usd, "USD") : "–");

      /* Translators: which price of a catalog entry changed. */
      qm_cli_print ("  %s  %s  %s  %s → %s\n", when, qm_cli_cell (c->who, -16),
                    qm_cli_cell (c->is_override ? C_("price history", "override")
                                                : C_("price history", "entry"), -8),
                    old, new);
    }
}

static int
catalog_history (int    argc,
                 char **argv)
{
  g_autoptr(QmStore) store = NULL;
  g_autoptr(QmCatalogEntry) entry = NULL;
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(GError) error = NULL;
  const char *args[2] = { NULL, NULL };
  gboolean json = FALSE;
  guint n = 0;
  int kind = -1;

  for (int i = 2; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (argv[i][0] != '-' && n < 2)
        args[n++] = argv[i];
      else
        {
          qm_cli_error (_("%s: unexpected '%s'; usage: %s"), "catalog history", argv[i],
                        qm_cli_synopsis ("catalog history"));
          return QM_CLI_USAGE;
        }
    }
  if (n != 2)
    {
      qm_cli_error (_("%s: expected KIND and ID; usage: %s"), "catalog history",
                    qm_cli_synopsis ("catalog history"));
      return QM_CLI_USAGE;
    }
  if (!parse_kind ("catalog history", args[0], &kind))
    return QM_CLI_USAGE;

  if ((store = qm_cli_open_store (QM_CLI_STORE_READ)) == NULL)
    return QM_CLI_INPUT;
  /* The history of an entry deleted since still answers; an id never
   * seen is a mistake worth saying. */
  entry = qm_catalog_store_get (store, kind, args[1], &error);
  if (entry == NULL && g_error_matches (error, QM_STORE_ERROR, QM_STORE_ERROR_NOT_FOUND))
    {
      entry = g_new0 (QmCatalogEntry, 1);
      entry->kind = kind;
      entry->id = g_strdup (args[1]);
      entry->name = g_strdup (_("no longer in the catalog"));
    }
  else if (entry == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  g_clear_error (&error);
  if ((changes = qm_catalog_store_price_history (store, kind, args[1], &error)) == NULL)
    {
      qm_cli_error ("%s", error->message);
      return QM_CLI_INPUT;
    }
  if (changes->len == 0 && entry->json == NULL)
    {
      qm_cli_error (_("catalog history: no %s with the id \"%s\" in the catalog, and no price "
                      "history for one"), qm_catalog_kind_to_string (kind), args[1]);
      return QM_CLI_INPUT;
    }
  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new_immutable ();

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, qm_catalog_kind_to_string (kind));
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, args[1]);
      json_builder_set_member_name (b, "changes");
      json_builder_begin_array (b);
      for (guint i = 0; i < changes->len; i++)
        history_json (b, changes->pdata[i]);
      json_builder_end_array (b);
      json_builder_end_object (b);
      qm_cli_print_json (b);
    }
  else
    history_text (entry, changes);
  return QM_CLI_OK;
}

int
qm_cli_catalog (int    argc,
                char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "history") == 0)
    return catalog_history (argc, argv);
  if (argc >= 2 && strcmp (argv[1], "list") == 0)
    return catalog_list (argc, argv);
  if (argc >= 2 && strcmp (argv[1], "import") == 0)
    return catalog_import (argc, argv);
  if (argc >= 2 && strcmp (argv[1], "export") == 0)
    return catalog_export (argc, argv);
  qm_cli_error (_("%s: expected 'list', 'import', 'export' or 'history' (got '%s'); usage: %s"), "catalog",
                argc >= 2 ? argv[1] : "", qm_cli_synopsis ("catalog"));
  return QM_CLI_USAGE;
}
