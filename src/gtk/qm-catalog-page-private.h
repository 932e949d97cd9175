/* qm-catalog-page-private.h: the struct shared by the files of
 * QmCatalogPage (qm-catalog-page.c: models, filters, loading and layout;
 * -columns.c: the table's columns and cells; -details.c: the details
 * pane; -actions.c: the page's actions, import and export).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-catalog-item.h"
#include "qm-catalog-page.h"
#include "qm-row-slots.h"

G_BEGIN_DECLS

typedef enum
{
  COLUMN_NAME,
  COLUMN_VENDOR,
  COLUMN_FIELD,
  COLUMN_PRICE,
  COLUMN_ORIGIN,
  COLUMN_AS_OF,
} ColumnType;

typedef struct
{
  ColumnType            type;
  QmCatalogKind         kind;
  guint                 field;
  const QmCatalogField *def;        /* field @field of @kind, for COLUMN_FIELD */
  gboolean              numeric;    /* right-aligned, sorted by number */
  int                   nat_chars;  /* of a cell */
  int                   width;      /* of the column, in pixels */
  QmRowSlots           *slots;      /* the view's; outlives its columns */
} ColumnDef;

typedef struct
{
  GListStore          *items;
  GtkFilter           *filter;
  GtkFilterListModel  *filtered;
  GtkSortListModel    *sorted;
  QmRowSlots          *slots;
  GtkSingleSelection  *selection;
  GtkColumnView       *view;
  GtkWidget           *scroller;
  guint                n_hidden;   /* entries flagged hidden, counted when @items change */
} KindView;

struct _QmCatalogPage
{
  AdwBin               parent_instance;

  AdwToastOverlay     *toast_overlay;
  AdwLeaflet          *leaflet;
  GtkWidget           *list_pane;
  GtkWidget           *details_pane;
  GtkWidget           *back_button;
  GtkDropDown         *kind_dropdown;
  GtkGrid             *filter_grid;
  GtkSearchEntry      *search_entry;
  GtkDropDown         *vendor_dropdown;
  GtkDropDown         *type_dropdown;
  GtkStack            *content_stack;
  GtkStack            *views_stack;
  GtkInscription      *count_label;
  GtkStack            *details_stack;
  GtkLabel            *details_title;
  GtkLabel            *details_subtitle;
  GtkImage            *origin_icon;
  GtkWidget           *edit_button;
  GtkWidget           *duplicate_button;
  GtkWidget           *reset_button;
  GtkWidget           *hide_button;
  GtkWidget           *delete_button;
  GtkPopover          *more_popover;
  GtkWidget           *details_actions;
  GtkBox              *details_groups;

  QmStore             *store;  /* a reference */
  KindView             views[QM_N_CATALOG_KINDS];
  QmCatalogKind        kind;
  char                *needle;        /* casefolded search text; NULL: none */
  const char          *vendor;        /* interned; NULL = all */
  const char          *type_value;    /* interned; NULL = all */
  GPtrArray           *vendor_values; /* interned, [0] = NULL for "all" */
  GPtrArray           *type_values;
  gboolean             show_hidden;
  gboolean             updating;      /* while the page sets its own dropdowns */
  QmCatalogItem       *shown;         /* the item in the details pane */
  GdkFrameClock       *details_clock;  /* a details update waits for its paint */
  gboolean             rows_changing;  /* on_rows_changed moves the selection */
  GPtrArray           *detail_values;  /* GtkLabel, in the order update_details fills them */
  char                *details_layout; /* the rows detail_values belong to */
};

/* qm-catalog-page-actions.c */
void qm_catalog_page_toast (QmCatalogPage *self, const char *message);
gboolean qm_catalog_page_ctrl_f_cb (GtkWidget *widget, GVariant *args, gpointer user_data);

/* qm-catalog-page.c */
/* The view of the kind shown. */
KindView *qm_catalog_page_current (QmCatalogPage *self);
void qm_catalog_page_refilter (QmCatalogPage *self, GtkFilterChange change);
void qm_catalog_page_fill_filters (QmCatalogPage *self);
void qm_catalog_page_load_all (QmCatalogPage *self);
void qm_catalog_page_reload_entry (QmCatalogPage *self, QmCatalogKind kind, const char *id);

/* qm-catalog-page-details.c */
void qm_catalog_page_update_actions (QmCatalogPage *self);
void qm_catalog_page_update_details (QmCatalogPage *self);

/* qm-catalog-page-columns.c */
GtkColumnViewColumn *qm_catalog_page_add_column (GtkColumnView *view, QmRowSlots *slots, QmCatalogKind kind, ColumnType type, guint field, const char *title, const char *id);
void qm_catalog_page_class_actions_init (GtkWidgetClass *widget_class);

G_END_DECLS
