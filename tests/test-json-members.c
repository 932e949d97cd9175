/* test-json-members.c: JSON members written from a table of struct members.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "qm-json-members.h"
#include "qm-workload.h"

typedef struct
{
  double      x;
  guint       n;
  gboolean    on;
  QmRecompute recompute;
  double      inner;
  double      opt;
  const char *name;
} Sample;

#define TO_S (const char *(*) (int)) (void (*) (void)) qm_recompute_to_string

static const QmJsonMember members[] = {
  QM_JSON_MEMBER ("x", QM_JSON_NUMBER, Sample, x, double),
  QM_JSON_MEMBER ("n", QM_JSON_UINT, Sample, n, guint),
  QM_JSON_MEMBER ("on", QM_JSON_BOOL, Sample, on, gboolean),
  { "recompute", QM_JSON_ENUM, G_STRUCT_OFFSET (Sample, recompute), TO_S },
  { "sub", QM_JSON_OBJECT, 0, NULL },
  QM_JSON_MEMBER ("inner", QM_JSON_NUMBER, Sample, inner, double),
  { NULL, QM_JSON_END, 0, NULL },
  QM_JSON_MEMBER ("opt", QM_JSON_OPTIONAL, Sample, opt, double),
  QM_JSON_MEMBER ("name", QM_JSON_STRING, Sample, name, const char *),
};

static char *
to_json (const Sample *s)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  qm_json_add_members (b, s, members, G_N_ELEMENTS (members));
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/* Every type, a nested object, and null for a number that is not finite
 * (JSON has no NaN or infinity), an optional number of 0 and a string
 * that is NULL or empty. */
static void
test_members (void)
{
  Sample a = { 1.5, 7, TRUE, QM_RECOMPUTE_FULL, 2, 3, "h100" };
  Sample b = { NAN, 0, FALSE, QM_RECOMPUTE_NONE, INFINITY, 0, NULL };
  Sample c = { 0, 0, FALSE, QM_RECOMPUTE_NONE, 0, NAN, "" };
  g_autofree char *ja = to_json (&a);
  g_autofree char *jb = to_json (&b);
  g_autofree char *jc = to_json (&c);

  g_assert_cmpstr (ja, ==, "{\"x\":1.5,\"n\":7,\"on\":true,\"recompute\":\"full\",\"sub\":{\"inner\":2.0},"
                           "\"opt\":3.0,\"name\":\"h100\"}");
  g_assert_cmpstr (jb, ==, "{\"x\":null,\"n\":0,\"on\":false,\"recompute\":\"none\",\"sub\":{\"inner\":null},"
                           "\"opt\":null,\"name\":null}");
  g_assert_cmpstr (jc, ==, "{\"x\":0.0,\"n\":0,\"on\":false,\"recompute\":\"none\",\"sub\":{\"inner\":0.0},"
                           "\"opt\":null,\"name\":null}");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/json-members/members", test_members);
  return g_test_run ();
}
