/* qm-test-util.h: small helpers shared by the core tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>
#include <glib.h>

G_BEGIN_DECLS

/* Assert |a - b| <= rel·|b|, printing both values on failure. */
#define qm_assert_rel(a, b, rel)                                              \
  G_STMT_START {                                                              \
    double qm_a_ = (a), qm_b_ = (b);                                          \
    if (!(fabs (qm_a_ - qm_b_) <= (rel) * fabs (qm_b_)))                      \
      {                                                                       \
        g_autofree char *qm_m_ =                                              \
          g_strdup_printf ("%s = %.6g, expected %.6g within %.2f%% (off %.3f%%)", \
                           #a, qm_a_, qm_b_, 100.0 * (rel),                   \
                           100.0 * fabs (qm_a_ - qm_b_) / fabs (qm_b_));      \
        g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, qm_m_); \
      }                                                                       \
  } G_STMT_END

/* A path inside the source tree (tests/meson.build sets QM_SOURCE_DIR). */
static inline char *
qm_test_source_path (const char *relative)
{
  const char *root = g_getenv ("QM_SOURCE_DIR");
  return g_build_filename (root ? root : ".", relative, NULL);
}

/* @s without white space, for text read back from a PDF: a paragraph or
 * a table cell wraps where it likes. Free with g_free(). */
static inline char *
qm_test_squeeze (const char *s)
{
  GString *out = g_string_new (NULL);

  for (const char *p = s; *p; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

/* One member of a zip file (an XLSX workbook), as text, through unzip. */
static inline char *
qm_test_zip_member (const char *zip,
                    const char *member)
{
  const char *argv[] = { "unzip", "-p", zip, member, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

G_END_DECLS
