/* claim.c - the verdict on a published claim (harness/report/claim.c),
 * rule by rule, on compare rows built as compare writes them. */
#include <stdio.h>
#include <string.h>

#include "../../harness/report/claim.h"
#include "tap.h"

/* A throughput row of B (the arm) against A (its dry control). */
static json_t *row(double ratio, double lo, double hi, const char *verdict, int equivalent,
		   double mde)
{
	return json_pack("{s:f,s:[f,f],s:s,s:{s:b},s:{s:f},s:{s:s},s:{s:s}}", "ratio", ratio,
			 "ratio_ci95", lo, hi, "verdict", verdict, "tost", "equivalent", equivalent,
			 "mde", "ratio", mde, "a", "workload", "slice-dry", "b", "workload",
			 "slice-spin");
}

/* The verdict of claim {published, row} plus extra keys; its reason in *why. */
static const char *judge(double published, json_t *r, json_t *extra, char *why, size_t len)
{
	static char v[32];
	json_t *in = json_pack("{s:f,s:o}", "published", published, "row", r ? r : json_null());

	if (extra)
		json_object_update_new(in, extra);
	json_t *o = claim_judge(in);

	snprintf(v, sizeof(v), "%s", json_string_value(json_object_get(o, "verdict")));
	snprintf(why, len, "%s | %s",
		 json_is_string(json_object_get(o, "reason"))
			 ? json_string_value(json_object_get(o, "reason"))
			 : "-",
		 json_string_value(json_object_get(o, "why")));
	json_decref(o);
	json_decref(in);
	return v;
}

#define IS(v, want) (!strcmp((v), (want)))

int main(void)
{
	char w[640];
	const char *v;

	v = judge(1.23, row(1.25, 1.15, 1.36, "improved", 0, 1.08), NULL, w, sizeof(w));
	CHECK(IS(v, "reproduced") && strstr(w, "against slice-dry"),
	      "claim: improved x1.25 [1.15, 1.36], published x1.23: %s (%s)", v, w);
	v = judge(1.23, row(1.9, 1.7, 2.1, "improved", 0, 1.08), NULL, w, sizeof(w));
	CHECK(IS(v, "contradicted") && strstr(w, "another size"),
	      "claim: the same direction, x1.9 [1.7, 2.1] against x1.23: %s (%s)", v, w);
	v = judge(1.23, row(0.8, 0.75, 0.86, "regressed", 0, 1.08), NULL, w, sizeof(w));
	CHECK(IS(v, "contradicted"), "claim: the opposite direction: %s (%s)", v, w);
	v = judge(1.0, row(1.01, 0.98, 1.04, "inconclusive", 1, 1.08), NULL, w, sizeof(w));
	CHECK(IS(v, "reproduced"), "claim: published no change, shown equivalent: %s (%s)", v, w);
	v = judge(1.0, row(1.3, 1.2, 1.4, "improved", 0, 1.08), NULL, w, sizeof(w));
	CHECK(IS(v, "contradicted"), "claim: published no change, here up: %s (%s)", v, w);
	v = judge(1.23, row(1.02, 0.95, 1.1, "inconclusive", 0, 1.15), NULL, w, sizeof(w));
	CHECK(IS(v, "contradicted") && strstr(w, "MDE x1.15"),
	      "claim: not seen though the design's MDE x1.15 reached x1.23: %s (%s)", v, w);
	v = judge(2.61, row(1.5, 0.4, 5, "inconclusive", 0, 17.6), NULL, w, sizeof(w));
	CHECK(IS(v, "cannot tell") && !strncmp(w, "power |", 7) && strstr(w, "MDE x17.6"),
	      "claim: MDE x17.6 against a published x2.61: %s (%s)", v, w);

	/* What stands before the numbers. */
	json_t *r = row(1.25, 1.15, 1.36, "improved", 0, 1.08);

	json_object_set_new(r, "control_aa", json_pack("{s:s,s:f}", "verdict", "invalid", "ratio",
						       1.504));
	v = judge(1.23, r, NULL, w, sizeof(w));
	CHECK(IS(v, "cannot tell") && !strncmp(w, "control |", 9) && strstr(w, "1.504"),
	      "claim: the dry control failed its A/A check: %s (%s)", v, w);
	r = row(1.25, 1.15, 1.36, "improved", 0, 1.08);
	json_object_set_new(r, "mechanism", json_pack("{s:f,s:b}", "grants_per_1000_ops", 0.0056,
						      "too_rare", 1));
	v = judge(1.23, json_deep_copy(r), NULL, w, sizeof(w));
	CHECK(IS(v, "cannot tell") && !strncmp(w, "mechanism |", 11) && strstr(w, "0.0056"),
	      "claim: the extension fired 0.0056 per 1000 acquisitions: %s (%s)", v, w);
	v = judge(1.23, r, json_pack("{s:s}", "about", "cost"), w, sizeof(w));
	CHECK(IS(v, "reproduced"),
	      "claim: ... a claim about the request's cost needs no grant: %s (%s)", v, w);
	v = judge(1.23, row(1.25, 1.15, 1.36, "improved", 0, 1.08),
		  json_pack("{s:s}", "not_comparable", "64 threads on 2 PUs"), w, sizeof(w));
	CHECK(IS(v, "not comparable") && strstr(w, "64 threads on 2 PUs"),
	      "claim: a different experiment, the difference stated: %s (%s)", v, w);
	v = judge(1.23, NULL, json_pack("{s:s}", "missing", "slice-spin: unsupported"), w,
		  sizeof(w));
	CHECK(IS(v, "cannot tell") && strstr(w, "not measured here: slice-spin: unsupported"),
	      "claim: no row: %s (%s)", v, w);
	json_t *in = json_pack("{s:n}", "published"), *o = claim_judge(in);

	CHECK(IS(json_string_value(json_object_get(o, "verdict")), "cannot tell") &&
		      IS(json_string_value(json_object_get(o, "reason")), "no figure"),
	      "claim: no published figure: cannot tell");
	json_decref(o);
	json_decref(in);
	return tap_failed != 0;
}
