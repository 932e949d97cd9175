/* qm-test-accuracy.h: writes and checks data/catalog/accuracy.json, the
 * error model of issue #36, from a leave-one-source-out validation's
 * held-out errors (tests/test-parallel.c for training,
 * tests/test-inference.c for serving; each owns its domain of the file).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "qm-accuracy.h"

typedef struct
{
  const char *family;  /* the GPU's catalog family ("h100") */
  const char *kind;    /* qm_accuracy_training_kind() or the engine id */
  guint       gpus;
  double      error;   /* held out: predicted / published - 1 */
} QmTestAccuracyRun;

/* Groups @runs (QmTestAccuracyRun) into the pooled family, each GPU
 * family and each family and kind; rewrites @domain's part of
 * $QM_SOURCE_DIR/data/catalog/accuracy.json with QM_UPDATE_DOCS=1, else
 * fails the test when it differs. Returns the file's new text. */
char *qm_test_accuracy_check (QmAccuracyDomain  domain,
                              const char       *error_basis,
                              GArray           *runs);
