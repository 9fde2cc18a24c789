/* validate.c - `slicebench validate`: a result file against the schema of
 * README "Result format", beyond the envelope the loader checks: what each
 * status implies a result must carry.  For committed reference results and
 * for anyone who edits or generates result files by other means. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "resload.h"

#include "exitcodes.h"

struct vctx {
	const char *file;
	int errors;
};

static void verr(struct vctx *c, size_t i, const char *path, const char *msg)
{
	fprintf(stderr, "slicebench validate: %s: results[%zu]%s%s: %s\n", c->file, i,
		*path ? "." : "", path, msg);
	c->errors++;
}

static void need_num(struct vctx *c, size_t i, const json_t *r, const char *path)
{
	if (isnan(res_num(r, path)))
		verr(c, i, path, "must be a number");
}

/* A {count, min, ..., max} percentile summary: present and ordered. */
static void need_pct(struct vctx *c, size_t i, const json_t *r, const char *path)
{
	static const char *const q[] = { "min", "p50", "p90", "p99", "p99_9", "max" };
	const json_t *h = res_get(r, path);
	double prev = -INFINITY;
	char p[128];

	if (!json_is_object(h)) {
		verr(c, i, path, "must be an object");
		return;
	}
	if (!json_integer_value(json_object_get(h, "count")))
		return; /* nothing sampled (a lock-less workload's hold time) */
	for (size_t k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
		double v = json_number_value(json_object_get(h, q[k]));

		snprintf(p, sizeof(p), "%s.%s", path, q[k]);
		if (!json_is_number(json_object_get(h, q[k])))
			verr(c, i, p, "must be a number");
		else if (v < prev)
			verr(c, i, p, "is below the percentile before it");
		else
			prev = v;
	}
}

static void check_result(struct vctx *c, size_t i, const json_t *r)
{
	static const char *const statuses[] = { "ok", "unsupported", "failed", "interrupted" };
	const char *st = res_str(r, "status", "");
	int known = 0;

	for (size_t k = 0; k < sizeof(statuses) / sizeof(statuses[0]); k++)
		known |= !strcmp(st, statuses[k]);
	if (!known) {
		verr(c, i, "status", "must be ok, unsupported, failed or interrupted");
		return;
	}
	if (strcmp(st, "ok")) {
		const char *why = res_str(r, "reason", "");

		if (!*why)
			verr(c, i, "reason", "a result that is not ok must say why");
		return;
	}
	if (!json_is_array(json_object_get(r, "repetitions")))
		verr(c, i, "repetitions", "must be a list");
	else if ((double)json_array_size(json_object_get(r, "repetitions")) !=
		 res_num(r, "params.repetitions"))
		verr(c, i, "repetitions", "must hold params.repetitions entries");
	if (res_get(r, "summary.primitives"))
		return; /* a workload that measures itself: its own summary */
	need_num(c, i, r, "nthreads");
	static const char *const ops[] = { "n", "mean", "median", "min", "max", "ci95_lo",
					   "ci95_hi" };
	char p[64];

	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		snprintf(p, sizeof(p), "summary.ops_per_sec.%s", ops[k]);
		need_num(c, i, r, p);
	}
	if (res_num(r, "summary.ops_per_sec.ci95_lo") > res_num(r, "summary.ops_per_sec.median") ||
	    res_num(r, "summary.ops_per_sec.median") > res_num(r, "summary.ops_per_sec.ci95_hi"))
		verr(c, i, "summary.ops_per_sec", "median outside its own 95% interval");
	need_pct(c, i, r, "summary.hold_ns");
	need_pct(c, i, r, "summary.acquire_ns");
	if (res_get(r, "summary.victim"))
		need_pct(c, i, r, "summary.victim");
	size_t k;
	const json_t *rep;

	json_array_foreach(json_object_get(r, "repetitions"), k, rep) {
		snprintf(p, sizeof(p), "repetitions[%zu].exclusion_ok", k);
		if (json_is_false(json_object_get(rep, "exclusion_ok")))
			verr(c, i, p, "mutual exclusion failed in an ok result");
	}
}

int cmd_validate(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: slicebench validate RESULT.json [MORE.json | DIR ...]\n\n"
			"Checks each file against the result schema (README \"Result format\"):\n"
			"the envelope, every status with its reason, and for ok results the\n"
			"repetitions, the ops/s summary with its interval and ordered\n"
			"percentiles.  Prints FILE: ok (N results) per file.\n\n"
			"exit status: 0 all valid, 2 a file is not\n");
		return argc < 2 ? EXIT_USAGE : 0;
	}
	int bad = 0;

	for (int a = 1; a < argc; a++) {
		json_t *doc;
		char err[512];

		if (res_load(argv[a], &doc, err, sizeof(err))) {
			fprintf(stderr, "slicebench validate: %s\n", err);
			bad = 1;
			continue;
		}
		struct vctx c = { argv[a], 0 };
		size_t i;
		const json_t *r;

		json_array_foreach(json_object_get(doc, "results"), i, r)
			check_result(&c, i, r);
		if (c.errors)
			bad = 1;
		else
			printf("%s: ok (%zu results)\n", argv[a],
			       json_array_size(json_object_get(doc, "results")));
		json_decref(doc);
	}
	return bad ? EXIT_USAGE : 0;
}
