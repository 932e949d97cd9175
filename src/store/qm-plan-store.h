/* qm-plan-store.h: saved plans: save, load, list and search, duplicate,
 * rename, trash with undo, plan files (.qmplan) in and out, and whether
 * today's catalog would change a saved quote.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "qm-plan.h"
#include "qm-store.h"

G_BEGIN_DECLS

/* A saved plan. The store keeps @snapshot verbatim: an old plan shows what
 * was quoted, whatever the catalog says today. */
typedef struct
{
  gint64  id;               /* 0 = not saved yet */
  char   *name;             /* NULL/empty = the plan JSON's "name" */
  char   *customer;
  char   *quote_ref;
  char   *tags;             /* free text, e.g. "acme, q3, rent" */
  char   *notes;            /* NULL = the plan JSON's "notes" */
  char   *inputs;           /* the plan file JSON (docs/plan-file.md) */
  char   *snapshot;         /* the estimate JSON the plan showed, or NULL */
  /* Summary columns for the plan list, taken from the estimate by the
   * caller (the store does not estimate). */
  char   *model;
  guint   gpus;
  double  days;
  double  total_cost;
  /* Set by the store on save. */
  char   *catalog_version;  /* catalog the snapshot was priced with */
  /* JSON: {"format": 2, "gpu": {"id", "figures"}, ...,
   * "lines": [{"item", "id", "field", "usd"}, ...]}: the hardware the
   * plan names and the catalog prices its bill of materials uses (format
   * 1, before issue #35 item 5: {"gpu": {"id", "price_usd", "spec"}}). */
  char   *prices;
  gint64  created;          /* µs since the epoch */
  gint64  modified;
  /* The revision this copy was read or saved as (the store counts saves
   * from 1). A save of a stale revision fails with
   * QM_STORE_ERROR_CONFLICT; 0 saves without the check. */
  gint64  revision;
  /* Set by the caller to record today's catalog version and prices even
   * when the snapshot is the one stored (Recompute: the user took today's
   * catalog, whatever it changed); a save clears it. */
  gboolean reprice;
} QmSavedPlan;

/* One row of the plan list: everything but the bulky JSON. */
typedef struct
{
  gint64  id;
  char   *name;
  char   *customer;
  char   *quote_ref;
  char   *tags;
  char   *model;
  guint   gpus;
  double  days;
  double  total_cost;
  char   *catalog_version;
  gint64  created;
  gint64  modified;
  char   *search_key;  /* what a search matches: see qm_plan_search_key() */
} QmPlanSummary;

QmSavedPlan *qm_saved_plan_new      (void);
QmSavedPlan *qm_saved_plan_copy     (const QmSavedPlan *plan);
void         qm_saved_plan_free     (QmSavedPlan       *plan);
void         qm_plan_summary_free   (QmPlanSummary     *summary);

/* Inserts (id 0) or updates the plan in one transaction and touches its
 * modified time; the JSON's name and notes are kept in step with the
 * columns. The catalog version and prices are recorded when the snapshot
 * is new or changed, or @plan->reprice is set; an update that keeps the
 * snapshot keeps them too, so editing the customer of an old quote does
 * not make it look re-priced.
 * On success @plan gets its id, times, version, prices and new revision.
 * On failure @plan is untouched (the caller keeps the edit) and the error
 * says why: QM_STORE_ERROR_READ_ONLY, _FULL, _LOCKED, _INVALID,
 * _NOT_FOUND, or _CONFLICT when someone else saved the plan since its
 * @revision was read (nothing is overwritten; the message names the plan
 * and both revisions). */
gboolean     qm_plan_store_save     (QmStore      *store,
                                     QmSavedPlan  *plan,
                                     GError      **error);
QmSavedPlan *qm_plan_store_load     (QmStore      *store,
                                     gint64        id,
                                     GError      **error);

/* The live plans (not in the trash), most recently modified first. Every
 * word of @search (casefolded) must occur in the name, customer, tags,
 * model or quote reference. A GPtrArray of QmPlanSummary. */
GPtrArray   *qm_plan_store_list     (QmStore      *store,
                                     const char   *search,
                                     GError      **error);
/* Search as you type: only the ids of the live plans that match, newest
 * first, for a list already loaded with qm_plan_store_list(NULL) to filter
 * on (a GArray of gint64). Cheaper than a full list on every keystroke. */
GArray      *qm_plan_store_search_ids (QmStore    *store,
                                       const char *search,
                                       GError    **error);
guint        qm_plan_store_count    (QmStore      *store);

/* Searching, as the store does it, for lists that filter in memory: the
 * key is the name, customer, tags, model and quote reference, normalized
 * and casefolded (so "ÉCOLE" finds "école"); the words are the search's,
 * the same way, at most 8; a plan matches when every word occurs in its
 * key. */
char        *qm_plan_search_key     (const char   *name,
                                     const char   *customer,
                                     const char   *tags,
                                     const char   *model,
                                     const char   *quote_ref);
GStrv        qm_plan_search_words   (const char   *search);
gboolean     qm_plan_search_matches (const char   *search_key,
                                     const char * const *words);
/* A plan by id ("42") or by exact name (the newest of that name). */
gint64       qm_plan_store_find     (QmStore      *store,
                                     const char   *name_or_id,
                                     GError      **error);

/* A copy named @name (NULL = "NAME (copy)"), with the snapshot, version
 * and prices of the original. Returns the new id, or 0. */
gint64       qm_plan_store_duplicate (QmStore     *store,
                                      gint64       id,
                                      const char  *name,
                                      GError     **error);
gboolean     qm_plan_store_rename   (QmStore      *store,
                                     gint64        id,
                                     const char   *name,
                                     GError      **error);

/* Delete with undo: a trashed plan leaves the list and stays recoverable
 * until this store is closed (qm_store_free purges this session's trash). */
gboolean     qm_plan_store_trash    (QmStore      *store,
                                     gint64        id,
                                     GError      **error);
gboolean     qm_plan_store_restore  (QmStore      *store,
                                     gint64        id,
                                     GError      **error);
GPtrArray   *qm_plan_store_list_trash (QmStore    *store,
                                       GError    **error);
gboolean     qm_plan_store_purge_trash (QmStore   *store,
                                        GError   **error);
/* Deletes at once, without the trash (the CLI's `plans delete`). */
gboolean     qm_plan_store_delete   (QmStore      *store,
                                     gint64        id,
                                     GError      **error);

/* Whether today's catalog would price or size the saved plan differently
 * from its snapshot: TRUE and one line per difference in @changes (e.g.
 * "Servers dgx-h100: price $400,000 when quoted, $300,000 today"). Only
 * what the plan uses counts: the hardware it names (its figures) and the
 * catalog prices of its bill of materials' lines, so a new price of a GPU
 * that a DGX system's price includes, or of an entry the plan does not
 * use, changes nothing. Never recomputes: that is the caller's explicit
 * action. */
gboolean     qm_plan_store_catalog_changed (QmStore     *store,
                                            gint64       id,
                                            GPtrArray  **changes,
                                            GError     **error);

/* Plan files. Import checks the file (JSON, format, version, and every
 * hardware id known here or carried as hardware.<kind>_spec) and writes
 * nothing when it is bad; the error names the file and the key path.
 * Embedded specs of hardware unknown here become the user's own catalog
 * entries, in the same transaction. @extra (may be NULL) supplies the
 * customer, tags, snapshot and summary columns. */
gint64       qm_plan_store_import_data (QmStore            *store,
                                        const char         *data,
                                        gssize              length,
                                        const char         *source,
                                        const QmSavedPlan  *extra,
                                        GPtrArray         **warnings,
                                        GError            **error);
gint64       qm_plan_store_import_file (QmStore            *store,
                                        const char         *path,
                                        const QmSavedPlan  *extra,
                                        GPtrArray         **warnings,
                                        GError            **error);
/* The plan file JSON, with the user's own catalog entries it uses embedded
 * as hardware.gpu_spec etc., so it opens on another machine. */
char        *qm_plan_store_export_data (QmStore      *store,
                                        gint64        id,
                                        gsize        *length,
                                        GError      **error);
gboolean     qm_plan_store_export_file (QmStore      *store,
                                        gint64        id,
                                        const char   *path,
                                        GError      **error);

/* The plan JSON @inputs with the user's own catalog entries it names
 * embedded as hardware.<kind>_spec (what export writes). */
char        *qm_plan_store_embed_custom (QmStore     *store,
                                         const char  *inputs,
                                         GError     **error);
/* Reads @inputs into @plan with this store's catalog: the user's own
 * entries resolve, and price overrides apply to hardware that the file
 * does not carry itself. Errors as qm_plan_load_from_data(). */
gboolean     qm_plan_store_read_plan   (QmStore     *store,
                                        const char  *inputs,
                                        QmPlan      *plan,
                                        GPtrArray  **warnings,
                                        GError     **error);

/* Copying between databases (quartermaster-cli db copy): writes @plan as
 * it is, its id, times, revision, catalog version and prices included,
 * replacing the plan with that id (restored if it was in the trash). */
gboolean     qm_plan_store_put         (QmStore            *store,
                                        const QmSavedPlan  *plan,
                                        GError            **error);
/* SHA-256 (hex) over everything qm_plan_store_put() writes: two plans
 * hash alike only when a copy is exact. */
char        *qm_saved_plan_hash        (const QmSavedPlan  *plan);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmSavedPlan, qm_saved_plan_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QmPlanSummary, qm_plan_summary_free)

G_END_DECLS
