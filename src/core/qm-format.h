/* qm-format.h: numbers for people: thousands separators, SI prefixes,
 * bytes, money and durations. The core computes in SI units; these turn
 * them into text at the edges (UI, PDF, CLI). They write into the caller's
 * buffer and never allocate, so charts can call them while drawing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define QM_FORMAT_BUF 64

typedef enum
{
  QM_BYTES_GB,   /* 10^9, as datasheets give HBM */
  QM_BYTES_GIB,  /* 2^30, as nvidia-smi and allocators report */
} QmBytesUnit;

/* The locale's digit-group separator and decimal point (LC_NUMERIC), with
 * "," and "." where the locale has none (the C locale). */
const char *qm_format_group_separator (void);
const char *qm_format_decimal_point   (void);

/* The n that picks a plural form (ngettext) for a count printed with 0
 * decimals: the value as printed, rounded; a fraction ("2.5 epochs",
 * "1.5 months") reads as a plural in English and German, so it counts as
 * 2; beyond 10^9 the last digits still choose the form. */
gulong qm_format_plural_n (double value);

/* 1234567.891, 2 → "1,234,567.89". Non-finite values print as "–". */
char *qm_format_number (char   *buf,
                        gsize   size,
                        double  value,
                        int     decimals);

/* 3.2e12, "FLOP/s" → "3.2 TFLOP/s"; three significant digits. */
char *qm_format_si     (char       *buf,
                        gsize       size,
                        double      value,
                        const char *unit);

char *qm_format_bytes  (char        *buf,
                        gsize        size,
                        double       bytes,
                        QmBytesUnit  unit);

/* Whole units with separators below a million, then "12.3 M" style. The
 * currency is a label: "$" for USD, else the code as a prefix. */
char *qm_format_money  (char       *buf,
                        gsize       size,
                        double      amount,
                        const char *currency);

/* The same for an axis tick: whole amounts without cents ("$50", not
 * "$50.00"), so the labels of one axis match. */
char *qm_format_money_tick (char       *buf,
                            gsize       size,
                            double      amount,
                            const char *currency);

/* An axis tick with the fewest decimals (at most 3) that show it
 * exactly: 0.05 → "0.05", 0.2 → "0.2", 1500 → "1,500". */
char *qm_format_tick   (char   *buf,
                        gsize   size,
                        double  value);

/* Energy and mass, three significant digits at most, in the unit that
 * keeps a small run readable: 7361 → "7,361 MWh", 0.0342 → "34.2 kWh";
 * tonnes: 2797 → "2,797 t", 0.013 → "13.0 kg". */
char *qm_format_energy (char   *buf,
                        gsize   size,
                        double  mwh);
char *qm_format_tonnes (char   *buf,
                        gsize   size,
                        double  tonnes);

/* 0.4 → "9.6 hours", 41.3 → "41.3 days", 800 → "2.2 years". */
char *qm_format_days   (char   *buf,
                        gsize   size,
                        double  days);

G_END_DECLS
