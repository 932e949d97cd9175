/* qm-formulas.h: the formulas the estimate uses, each with its source.
 *
 * One table, read by both the in-app "Assumptions and Formulas" page and the
 * PDF plan summary, so the two say the same thing by construction. The
 * strings are marked for translation (N_); the GTK layer shows them through
 * gettext, the PDF prints them as written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *id;       /* stable: "training-flops", ... */
  const char *title;    /* "Training compute" */
  const char *formula;  /* the formula in words and symbols */
  const char *source;   /* paper, table, datasheet */
} QmFormula;

/* The table, in the order a plan is estimated; @n_formulas may be NULL. */
const QmFormula *qm_formulas          (guint      *n_formulas);
/* The entry with @id, or NULL. */
const QmFormula *qm_formula_find      (const char *id);

G_END_DECLS
