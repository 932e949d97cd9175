/* test-price-age.c: the date a plan's prices are as of (the oldest
 * catalog date it prices) and the warning past the user's age limit,
 * with fixed dates (issue #35 item 6).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "qm-catalog.h"
#include "qm-plan.h"
#include "qm-estimate-json.h"
#include "qm-price-age.h"

static GDate
dmy (guint d,
     guint m,
     guint y)
{
  GDate date;

  g_date_clear (&date, 1);
  g_date_set_dmy (&date, (GDateDay) d, (GDateMonth) m, (GDateYear) y);
  return date;
}

/* Exactly six months is not yet old; six months and a day is. */
static void
test_boundary (void)
{
  GDate as_of = dmy (1, 6, 2025);
  GDate six = dmy (1, 12, 2025);
  GDate six_and_a_day = dmy (2, 12, 2025);
  GDate before = dmy (31, 5, 2025);
  g_autofree char *none = qm_price_age_warning (&as_of, &six, 6);
  g_autofree char *warning = qm_price_age_warning (&as_of, &six_and_a_day, 6);
  g_autofree char *today = qm_price_age_warning (&as_of, &as_of, 6);
  g_autofree char *future = qm_price_age_warning (&as_of, &before, 6);

  g_assert_false (qm_price_age_is_old (&as_of, &six, 6));
  g_assert_true (qm_price_age_is_old (&as_of, &six_and_a_day, 6));
  g_assert_null (none);
  g_assert_null (today);
  g_assert_null (future);
  g_assert_cmpstr (warning, ==, "Prices are from 1 June 2025, more than 6 months ago: "
                                "check them with your vendors before quoting");
}

/* The procurement officer's case: catalog prices of 1 June 2025 on
 * 28 November 2026, at the default limit and at the largest one. */
static void
test_limits (void)
{
  GDate as_of = dmy (1, 6, 2025);
  GDate today = dmy (28, 11, 2026);
  GDate month_end = dmy (31, 8, 2025);
  g_autofree char *one = NULL;

  g_assert_true (qm_price_age_is_old (&as_of, &today, QM_PRICE_MAX_AGE_MONTHS_DEFAULT));
  /* 0 means the default. */
  g_assert_true (qm_price_age_is_old (&as_of, &today, 0));
  g_assert_true (qm_price_age_is_old (&as_of, &today, 17));
  g_assert_false (qm_price_age_is_old (&as_of, &today, 18));
  /* Clamped to 60 months. */
  g_assert_cmpuint (qm_price_max_age_months_clamp (500), ==, QM_PRICE_MAX_AGE_MONTHS_MAX);
  g_assert_cmpuint (qm_price_max_age_months_clamp (0), ==, 6);

  /* 31 August + 6 months = 28 February (2026 is no leap year). */
  {
    GDate feb28 = dmy (28, 2, 2026), mar1 = dmy (1, 3, 2026);

    g_assert_false (qm_price_age_is_old (&month_end, &feb28, 6));
    g_assert_true (qm_price_age_is_old (&month_end, &mar1, 6));
  }

  /* One month: the singular. */
  {
    GDate jul2 = dmy (2, 7, 2025);

    one = qm_price_age_warning (&as_of, &jul2, 1);
    g_assert_cmpstr (one, ==, "Prices are from 1 June 2025, more than 1 month ago: "
                              "check them with your vendors before quoting");
  }

  /* Invalid dates warn of nothing. */
  {
    GDate invalid;

    g_date_clear (&invalid, 1);
    g_assert_false (qm_price_age_is_old (&invalid, &today, 6));
    g_assert_null (qm_price_date_format (&invalid));
    g_assert_null (qm_prices_as_of_text (&invalid));
  }
}

static void
test_text (void)
{
  GDate as_of = dmy (1, 12, 2024);
  g_autofree char *text = qm_prices_as_of_text (&as_of);

  g_assert_cmpstr (text, ==, "Prices as of 1 December 2024");
}

/* The oldest dated line, not the newest; undated lines do not count. */
static void
test_oldest_line (void)
{
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree char *iso = NULL;
  GDate d;

  g_assert_false (qm_prices_as_of (e, &d));
  g_assert_false (g_date_valid (&d));

  e->has_cost = TRUE;
  e->cost.n_bom = 4;
  e->cost.bom[0].as_of = "2025-06-01";
  e->cost.bom[1].as_of = "2024-12-01";
  e->cost.bom[2].as_of = NULL;          /* a price the plan gives */
  e->cost.bom[3].as_of = "2025-10-06";
  g_assert_true (qm_prices_as_of (e, &d));
  g_assert_cmpuint (g_date_get_year (&d), ==, 2024);
  g_assert_cmpuint (g_date_get_month (&d), ==, 12);
  g_assert_cmpuint (g_date_get_day (&d), ==, 1);
  iso = qm_prices_as_of_iso (e);
  g_assert_cmpstr (iso, ==, "2024-12-01");

  e->cost.n_bom = 1;
  e->cost.bom[0].as_of = NULL;
  g_assert_false (qm_prices_as_of (e, &d));
}

static void
load (const char *name,
      QmPlan     *plan,
      QmEstimate *e)
{
  g_autofree char *path = g_build_filename (g_getenv ("QM_SOURCE_DIR"), "data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (qm_plan_load_from_file (plan, path, NULL, &error));
  g_assert_no_error (error);
  qm_estimate (plan, e);
  g_assert_true (e->valid);
  g_assert_true (e->has_cost);
}

static char *
json_prices_as_of (const QmPlan     *plan,
                   const QmEstimate *e)
{
  g_autoptr(JsonNode) node = qm_estimate_to_json_node (plan, e);
  JsonObject *o = json_node_get_object (node);

  g_assert_true (json_object_has_member (o, "prices_as_of"));
  if (json_object_get_null_member (o, "prices_as_of"))
    return NULL;
  return g_strdup (json_object_get_string_member (o, "prices_as_of"));
}

/* A plan that rents at a cloud offer's rate: its prices are as old as
 * the offer or its storage, whichever is older; the JSON says the same. */
static void
test_rent_offer (void)
{
  g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
  g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
  g_autofree char *iso = NULL, *json = NULL;
  const char *expect = NULL;

  load ("llama-3.1-70b-serving-h100.qmplan", plan, e);
  g_assert_nonnull (e->offer);
  g_assert_true (e->cost.rent_price_from_offer);
  g_assert_nonnull (e->offer->info.as_of);
  for (guint i = 0; i < e->cost.n_bom; i++)
    if (e->cost.bom[i].as_of && (expect == NULL || strcmp (e->cost.bom[i].as_of, expect) < 0))
      expect = e->cost.bom[i].as_of;
  /* The offer's date is among those. */
  g_assert_cmpint (strcmp (expect, e->offer->info.as_of), <=, 0);
  iso = qm_prices_as_of_iso (e);
  g_assert_cmpstr (iso, ==, expect);
  json = json_prices_as_of (plan, e);
  g_assert_cmpstr (json, ==, iso);
}

/* A plan that rents at its own rate: the GPU-hours are undated, so only
 * the storage's catalog date counts. A buy plan: the oldest of the
 * hardware. JSON and core agree on every example. */
static void
test_examples_agree (void)
{
  const char *names[] = {
    "7b-pretrain-30-day-deadline.qmplan", "llama-3.1-70b-pretrain-h100.qmplan",
    "llama-3.1-70b-quote-eur.qmplan", "llama-3.1-70b-serving-h100.qmplan",
    "llama-3.1-70b-serving-mi300x.qmplan", "mistral-7b-lora-a100.qmplan",
  };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autofree QmPlan *plan = g_new0 (QmPlan, 1);
      g_autofree QmEstimate *e = g_new0 (QmEstimate, 1);
      g_autofree char *iso = NULL, *json = NULL;

      load (names[n], plan, e);
      iso = qm_prices_as_of_iso (e);
      json = json_prices_as_of (plan, e);
      g_test_message ("%s: prices as of %s", names[n], iso ? iso : "(none)");
      g_assert_nonnull (iso);
      g_assert_cmpstr (json, ==, iso);
      if (plan->pricing.mode != QM_PRICING_BUY && !e->cost.rent_price_from_offer)
        for (guint i = 0; i < e->cost.n_bom; i++)
          if (g_strcmp0 (e->cost.bom[i].item, "GPU-hours") == 0)
            g_assert_null (e->cost.bom[i].as_of);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/price-age/boundary", test_boundary);
  g_test_add_func ("/price-age/limits", test_limits);
  g_test_add_func ("/price-age/text", test_text);
  g_test_add_func ("/price-age/oldest-line", test_oldest_line);
  g_test_add_func ("/price-age/rent-offer", test_rent_offer);
  g_test_add_func ("/price-age/examples-agree", test_examples_agree);
  return g_test_run ();
}
