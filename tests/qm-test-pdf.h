/* qm-test-pdf.h: reading PDFs back with poppler-glib in tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <poppler.h>

G_BEGIN_DECLS

/* poppler-glib 22.12 (Debian 12) defines no autoptr cleanups. */
#ifndef POPPLER_CHECK_VERSION
#define POPPLER_CHECK_VERSION(a, b, c) 0
#endif
#if !POPPLER_CHECK_VERSION (23, 0, 0)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PopplerDocument, g_object_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PopplerPage, g_object_unref)
#endif

G_END_DECLS
