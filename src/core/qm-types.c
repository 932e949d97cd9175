/* qm-types.c: helpers for the shared enums.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "qm-types.h"

static const struct { const char *name; double bytes; } precisions[QM_N_PRECISIONS] = {
  [QM_PRECISION_FP32] = { "fp32", 4.0 },
  [QM_PRECISION_TF32] = { "tf32", 4.0 },  /* stored as fp32; tf32 is a matmul mode */
  [QM_PRECISION_FP16] = { "fp16", 2.0 },
  [QM_PRECISION_BF16] = { "bf16", 2.0 },
  [QM_PRECISION_FP8]  = { "fp8",  1.0 },
  [QM_PRECISION_INT8] = { "int8", 1.0 },
  [QM_PRECISION_FP4]  = { "fp4",  0.5 },
  [QM_PRECISION_INT4] = { "int4", 0.5 },
};

double
qm_precision_bytes (QmPrecision p)
{
  g_return_val_if_fail (p < QM_N_PRECISIONS, 2.0);
  return precisions[p].bytes;
}

const char *
qm_precision_to_string (QmPrecision p)
{
  g_return_val_if_fail (p < QM_N_PRECISIONS, "bf16");
  return precisions[p].name;
}

gboolean
qm_precision_from_string (const char  *s,
                          QmPrecision *out)
{
  return qm_name_table_find (s, QM_NAME_TABLE (precisions, name), (guint *) out);
}

gboolean
qm_name_table_find (const char    *s,
                    gconstpointer  rows,
                    guint          n_rows,
                    gsize          row_size,
                    gsize          name_offset,
                    guint         *index)
{
  for (guint i = 0; i < n_rows; i++)
    {
      const char *name = G_STRUCT_MEMBER (const char *, (const char *) rows + i * row_size,
                                          name_offset);

      if (g_strcmp0 (s, name) == 0)
        {
          *index = i;
          return TRUE;
        }
    }
  return FALSE;
}
