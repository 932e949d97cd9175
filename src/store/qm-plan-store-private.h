/* qm-plan-store-private.h: what the files of the plan store share
 * (qm-plan-store.c, -list.c, -files.c, -salvage.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-catalog-store.h"
#include "qm-plan-store.h"
#include "qm-store-private.h"

G_BEGIN_DECLS

/* The hardware keys of docs/plan-file.md and their catalog kinds. */
typedef struct
{
  const char    *key;
  QmCatalogKind  kind;
} QmPlanHardwareKey;

#define QM_PLAN_N_HARDWARE_KEYS 4
extern const QmPlanHardwareKey qm_plan_hardware_keys[QM_PLAN_N_HARDWARE_KEYS];

/* The columns of a QmPlanSummary, in summary_from_row's order. */
#define PLAN_COLUMNS \
  "p.id, p.name, p.customer, p.quote_ref, p.tags, p.model, p.gpus, p.days, p.total_cost," \
  " p.catalog_version, p.created, p.modified, p.search_key"

/* @data as one JSON object; errors start with @label. */
JsonObject *qm_plan_store_parse_json  (const char  *data,
                                       gssize       length,
                                       const char  *label,
                                       GError     **error);
/* Member @key of @o (which may be NULL) if it is a string / an object. */
const char *qm_plan_store_get_string  (JsonObject  *o,
                                       const char  *key);
JsonObject *qm_plan_store_get_object  (JsonObject  *o,
                                       const char  *key);

/* Looks up hardware.<key> of the plan's hardware object as the estimate
 * would (qm_plan_hardware_keys[@k]): the file's own embedded spec first,
 * else this store's catalog. The kind's struct (g_free() it), or NULL when
 * neither has it; *id_out is then set only when the plan names an id. */
gpointer    qm_plan_store_resolve_used (QmStore     *store,
                                        JsonObject  *hardware,
                                        guint        k,
                                        char       **id_out);

/* Fingerprints of an entry's figures: format 2 leaves every money field,
 * name, vendor, source and date out; format 1 (plans saved before issue
 * #35 item 5) only price_usd. */
char       *qm_plan_store_figures_fingerprint (QmCatalogKind kind,
                                               gconstpointer spec);
char       *qm_plan_store_fingerprint_v1      (QmCatalogKind kind,
                                               gconstpointer spec);

/* A line of the estimate's bill of materials priced from a catalog entry
 * (qm-plan-store.c has the table). */
typedef struct
{
  const char    *item;   /* the BOM line's label, as the estimate JSON writes it */
  int            slot;   /* index in qm_plan_hardware_keys, or -1: the estimate picks
                          * the entry from the built-in catalog */
  QmCatalogKind  kind;
  const char    *field;  /* its money field; NULL: the cloud offer's rate (see
                          * qm_plan_store_priced_field) */
} QmPlanPricedLine;

/* The priced line labelled @item, or NULL (installation, egress: not
 * catalog prices). */
const QmPlanPricedLine *qm_plan_store_priced_line  (const char             *item);
const char             *qm_plan_store_priced_field (const QmPlanPricedLine *line,
                                                    const char             *mode);
/* Today's value of @field of entry @id, as an estimate of the plan (its
 * hardware object @hardware) would take it; FALSE when the entry is gone
 * or the plan's slot names another one. */
gboolean    qm_plan_store_price_today (QmStore                *store,
                                       JsonObject             *hardware,
                                       const QmPlanPricedLine *line,
                                       const char             *field,
                                       const char             *id,
                                       double                 *usd);

/* Reads name, customer, quote_ref, tags, model, gpus, days and
 * total_cost, in that order, from column @col on. */
void        qm_plan_store_read_quote  (QmDbStmt     *stmt,
                                       int           col,
                                       QmSavedPlan  *plan);

/* What a save wrote, applied to the caller's plan only after COMMIT. */
typedef struct
{
  gint64  id;
  gint64  created;
  gint64  modified;
  gint64  revision;
  char   *name;
  char   *notes;
  char   *inputs;
  char   *prices;
  char   *version;
} QmPlanSaveResult;

void        qm_plan_save_result_clear (QmPlanSaveResult *r);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (QmPlanSaveResult, qm_plan_save_result_clear)

/* Writes @plan inside the caller's transaction. */
gboolean    qm_plan_store_save_locked (QmStore            *store,
                                       const QmSavedPlan  *plan,
                                       QmPlanSaveResult   *res,
                                       GError            **error);

/* qm_plan_store_save(); @keep_recovery FALSE when saving a recovery copy
 * (qm-store-recovery.c), which must not make another. */
gboolean    qm_plan_store_save_full   (QmStore            *store,
                                       QmSavedPlan        *plan,
                                       gboolean            keep_recovery,
                                       GError            **error);

G_END_DECLS
