/* qm-list-page.h: what the catalog, plans and quotes pages share as list
 * pages: the search's filter change, the filtered rows and their slots, cells bound through row slots, the
 * empty state and the file chooser for import and export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "qm-row-slots.h"

G_BEGIN_DECLS

/* How a list page's search text matches its rows. */
typedef enum
{
  QM_LIST_SEARCH_SUBSTRING,  /* the whole text, anywhere in the row */
  QM_LIST_SEARCH_PREFIX,     /* words: more text only narrows at the end */
} QmListSearch;

/* The change for gtk_filter_changed() when the search goes from @old to
 * @now (both stripped): a longer text can only drop rows, a shorter one
 * only add them. */
GtkFilterChange     qm_list_page_search_change      (const char    *old,
                                                     const char    *now,
                                                     QmListSearch   search);

/* Takes @now (the search as the page matches it: stripped, casefolded
 * where it should be) as *@search, NULL for none: FALSE when that is the
 * search already, else TRUE with the change for gtk_filter_changed() in
 * *@change. */
gboolean            qm_list_page_take_search        (char           **search,
                                                     const char      *now,
                                                     QmListSearch     kind,
                                                     GtkFilterChange *change);

/* What the plans and quotes pages keep alike, embedded in each: their
 * rows filtered by @filter (the page's search and filters), the row
 * slots that show them, and the search as applied to the filter. */
typedef struct
{
  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  QmRowSlots         *slots;
  char               *search;   /* as applied to the filter; NULL: none */
} QmListPageState;

/* Filters @model (not taken) with @match, called with @page; where
 * @rows_changing is not NULL, it hears the filtered rows' items-changed
 * (swapped, with @page) before the slots do. */
void                qm_list_page_state_init         (QmListPageState     *state,
                                                     GListModel          *model,
                                                     GtkCustomFilterFunc  match,
                                                     gpointer             page,
                                                     GCallback            rows_changing);
/* Applies the search @now as qm_list_page_take_search() takes it, and
 * refilters; with @force, refilters even when it is the same (the rows'
 * keys changed). FALSE when nothing was done. */
gboolean            qm_list_page_state_search       (QmListPageState     *state,
                                                     const char          *now,
                                                     QmListSearch         kind,
                                                     gboolean             force);
/* The rows the filter lets through. */
guint               qm_list_page_state_n_shown      (QmListPageState     *state);
/* The item at @position of the filtered rows (a new reference), or NULL. */
gpointer            qm_list_page_state_get_item     (QmListPageState     *state,
                                                     guint                position);
void                qm_list_page_state_clear        (QmListPageState     *state);

/* Puts @text in a page's search @entry without its handler @changed
 * (connected with @data) hearing of it: the caller applies @text itself. */
void                qm_list_page_set_search_text    (GtkEditable   *entry,
                                                     const char    *text,
                                                     gpointer       changed,
                                                     gpointer       data);

/* A factory for one column whose rows are bound to the row slots at
 * *@slots (read on each bind, so it may change or go NULL in dispose):
 * @setup makes the cell, @fill fills it with an item. @data goes to both,
 * and @destroy frees it with the factory. */
GtkListItemFactory *qm_list_page_cell_factory_new   (QmRowSlots   **slots,
                                                     GCallback      setup,
                                                     QmRowCellFill  fill,
                                                     gpointer       data,
                                                     GDestroyNotify destroy);

/* A list page's cell: one ellipsized line at least @min_chars and by
 * preference @nat_chars wide (0: no preference); a @numeric one aligned
 * right, in tabular figures. */
GtkWidget          *qm_list_page_cell_new           (gboolean       numeric,
                                                     int            min_chars,
                                                     int            nat_chars);

/* Shows @shown_child of @stack when @n_shown > 0, else @empty_child. */
void                qm_list_page_show_state         (GtkStack      *stack,
                                                     guint          n_shown,
                                                     const char    *shown_child,
                                                     const char    *empty_child);

/* A message dialog over @page's window that says what went wrong, with
 * one Close button (also the default and Escape). */
void                qm_list_page_show_error         (GtkWidget     *page,
                                                     const char    *heading,
                                                     const char    *body);

/* A filter named @name for the files ending in .@suffix (any case) and,
 * where @mime_type is not NULL, the files of that type. */
GtkFileFilter      *qm_list_page_file_filter_new    (const char    *name,
                                                     const char    *mime_type,
                                                     const char    *suffix);

/* A modal native chooser over @page's window, with @filter. */
GtkFileChooserNative *
                    qm_list_page_file_chooser_new   (GtkWidget            *page,
                                                     const char           *title,
                                                     GtkFileChooserAction  action,
                                                     const char           *accept,
                                                     const char           *cancel,
                                                     GtkFileFilter        *filter);

/* What to do with the file the user chose on @page. */
typedef void (*QmListPageFileFunc) (GtkWidget *page,
                                    GFile     *file);

/* Asks for a file with qm_list_page_file_chooser_new() (Cancel as the
 * other button; @suggested_name, if not NULL, for a file to save) and
 * calls @chosen with it, unless the user cancels. The page is kept alive
 * meanwhile. */
void                qm_list_page_choose_file        (GtkWidget            *page,
                                                     const char           *title,
                                                     GtkFileChooserAction  action,
                                                     const char           *accept,
                                                     GtkFileFilter        *filter,
                                                     const char           *suggested_name,
                                                     QmListPageFileFunc    chosen);

G_END_DECLS
