/* rescheck.c - a loaded result document against the result schema: the
 * field table's types and required fields (fldcheck.c, harness/lib/fields.h),
 * then what no type says: ranges, orderings, sums and the reasons a status
 * implies.  `validate` prints what this finds; compare
 * and plot refuse a file it finds anything in (resload.c), so no reader
 * skips a value that validate would have named. */
#include "rescheck.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fldcheck.h"
#include "resget.h"

#include "../core/keys.h"
#include "../lib/fields.h"
#include "../lib/status.h"

struct vctx {
	const char *who, *file;
	FILE *out;
	const json_t *r; /* the result being checked */
	size_t i, errors;
	int strict;
};

/* The value at a message's path inside a result: "a.b", "a[3].b". */
static const json_t *at_path(const json_t *r, const char *path)
{
	const json_t *cur = r;

	while (cur && *path) {
		size_t n = strcspn(path, ".[");
		char key[128];

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (n)
			cur = json_object_get(cur, key);
		path += n;
		if (*path == '[') {
			char *end;
			unsigned long k = strtoul(path + 1, &end, 10);

			cur = json_array_get(cur, k);
			path = *end == ']' ? end + 1 : end;
		}
		if (*path == '.')
			path++;
	}
	return cur;
}

/* " (got VALUE)" for a scalar or a list, " (missing)" for nothing; an
 * object's message is about its fields, which it names. */
static void got(char *buf, size_t len, const json_t *v)
{
	char *s;

	*buf = '\0';
	if (!v) {
		snprintf(buf, len, " (missing)");
		return;
	}
	if (json_is_object(v) || !(s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY)))
		return;
	snprintf(buf, len, " (got %.60s%s)", s, strlen(s) > 60 ? "..." : "");
	free(s);
}

/* Names the file the result came from and its index there (a directory
 * argument merges many files: its merged index would name nothing), and
 * the value found. */
static void verr_got(struct vctx *c, size_t i, const char *path, const json_t *v,
		     const char *msg)
{
	const json_t *f = json_object_get(c->r, fld_r_file), *k = json_object_get(c->r, fld_r_index);
	char g[96];

	got(g, sizeof(g), v);
	fprintf(c->out, "%s: %s: results[%zu]%s%s: %s%s\n", c->who,
		json_is_string(f) ? json_string_value(f) : c->file,
		json_is_integer(k) ? (size_t)json_integer_value(k) : i, *path ? "." : "", path, msg,
		g);
	c->errors++;
}

static void verr(struct vctx *c, size_t i, const char *path, const char *msg)
{
	verr_got(c, i, path, at_path(c->r, path), msg);
}

/* fldcheck's defects of the result being checked. */
static void table_defect(void *ctx, const char *path, const json_t *v, const char *msg)
{
	struct vctx *c = ctx;

	verr_got(c, c->i, path, v, msg);
	c->errors--; /* counted by fldcheck */
}

/* ... and of the document around the results. */
static void envelope_defect(void *ctx, const char *path, const json_t *v, const char *msg)
{
	struct vctx *c = ctx;
	char g[96];

	got(g, sizeof(g), v);
	fprintf(c->out, "%s: %s: %s: %s%s\n", c->who, c->file, path, msg, g);
}

/* A {n, mean, median, min, max, ci95_lo, ci95_hi} summary as readers use
 * it (its types are the table's): n >= 1, min <= mean, median <= max, the
 * median inside its own interval, and, for a rate or a cost, nothing
 * negative. */
static void need_stats(struct vctx *c, size_t i, const json_t *r, const char *path)
{
	const char *const f[] = { fld_key(fld_s_ops_n),	     fld_key(fld_s_ops_mean),
				  fld_key(fld_s_ops_median), fld_key(fld_s_ops_min),
				  fld_key(fld_s_ops_max),    fld_key(fld_s_ops_ci95_lo),
				  fld_key(fld_s_ops_ci95_hi) };
	double v[7];
	char p[160];
	int bad = 0;

	for (size_t k = 0; k < 7; k++) {
		snprintf(p, sizeof(p), "%s.%s", path, f[k]);
		v[k] = res_num(r, p);
		if (!isfinite(v[k])) {
			bad = 1; /* fldcheck named it */
		} else if (v[k] < 0 && k < 5) {
			verr(c, i, p, "must not be negative");
			bad = 1;
		}
	}
	if (bad)
		return;
	if (v[0] < 1)
		verr(c, i, path, "n must be at least 1");
	if (v[3] > v[4])
		verr(c, i, path, "min is above max");
	else if (v[1] < v[3] || v[1] > v[4] || v[2] < v[3] || v[2] > v[4])
		verr(c, i, path, "mean or median outside min..max");
	/* The interval is the mean's (Student's t, harness/lib/stats.c); a skewed set
	 * of repetitions can put the median outside it, not the mean. */
	if (v[5] > v[1] || v[1] > v[6])
		verr(c, i, path, "mean outside its own 95% interval");
}

/* A {count, min, ..., max} percentile summary: present and ordered. */
static void need_pct(struct vctx *c, size_t i, const json_t *r, const char *path)
{
	const char *const q[] = { fld_key(fld_s_hold_min), fld_key(fld_s_hold_p50),
				  fld_key(fld_s_hold_p90), fld_key(fld_s_hold_p99),
				  fld_key(fld_s_hold_p99_9), fld_key(fld_s_hold_max) };
	const json_t *h = res_get(r, path);
	double prev = 0; /* a duration: never negative */
	char p[128];

	if (!json_is_object(h))
		return; /* fldcheck names a missing or mistyped one */
	if (!json_integer_value(json_object_get(h, fld_key(fld_s_hold_count))))
		return; /* nothing sampled (a lock-less workload's hold time) */
	for (size_t k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
		double v = json_number_value(json_object_get(h, q[k]));

		snprintf(p, sizeof(p), "%s.%s", path, q[k]);
		if (!json_is_number(json_object_get(h, q[k])))
			continue;
		else if (v < prev)
			verr(c, i, p, k ? "is below the percentile before it" : "must not be negative");
		else
			prev = v;
	}
}

/* One side (hold or think) of a repetition's calibration check: either
 * unchecked with its reason, or a ratio that is p50 / expected and is
 * flagged exactly when it leaves [1/tol, tol].  Returns its flag. */
static int need_drift_side(struct vctx *c, size_t i, const json_t *side, double tol,
			   const char *path)
{
	char p[192];
	double want = json_number_value(json_object_get(side, fld_key(fld_cal_hold_expected)));
	const json_t *ratio = json_object_get(side, fld_key(fld_cal_hold_ratio));

	if (!json_is_object(side))
		return 0; /* fldcheck named it */
	if (!ratio) {
		snprintf(p, sizeof(p), "%s.%s", path, fld_key(fld_cal_hold_unchecked));
		if (!json_is_string(json_object_get(side, fld_key(fld_cal_hold_unchecked))))
			verr(c, i, p, "an unchecked side must say why");
		return 0;
	}
	double r = json_number_value(ratio);
	double p50 = json_number_value(json_object_get(side, fld_key(fld_cal_hold_p50)));
	int flag = json_is_true(json_object_get(side, fld_key(fld_cal_hold_drifted)));

	snprintf(p, sizeof(p), "%s.%s", path, fld_key(fld_cal_hold_ratio));
	if (!json_is_number(ratio) || !(r > 0) || !(want > 0) ||
	    fabs(r - p50 / want) > 1e-6 * r)
		verr(c, i, p, "must be a number > 0, p50_ns / expected_ns");
	else if (flag != (r > tol || r < 1 / tol))
		verr(c, i, p, "drifted must be true exactly when the ratio is outside the tolerance");
	return flag;
}

/* The busy-loop check of each repetition (drift.c), when the result has
 * one, and the summary's list of the repetitions that drifted. */
static void need_drift(struct vctx *c, size_t i, const json_t *r)
{
	const json_t *reps = json_object_get(r, fld_r_reps), *rep;
	const json_t *sum = res_get(r, fld_s_cal);
	size_t k, ndrift = 0;
	char p[160];

	json_array_foreach(reps, k, rep) {
		const json_t *cal = json_object_get(rep, fld_cal);
		double tol = json_number_value(json_object_get(cal, fld_key(fld_cal_tol)));

		if (!cal)
			continue;
		snprintf(p, sizeof(p), "repetitions[%zu].%s", k, fld_cal);
		if (!json_is_object(cal) || !(tol > 1)) {
			verr(c, i, p, "must be an object with a tolerance > 1");
			continue;
		}
		char ph[192], pt[192];

		snprintf(ph, sizeof(ph), "%s.%s", p, fld_key(fld_cal_hold));
		snprintf(pt, sizeof(pt), "%s.%s", p, fld_key(fld_cal_think));
		int d = need_drift_side(c, i, json_object_get(cal, fld_key(fld_cal_hold)), tol, ph);

		d |= need_drift_side(c, i, json_object_get(cal, fld_key(fld_cal_think)), tol, pt);
		snprintf(ph, sizeof(ph), "%s.%s", p, fld_key(fld_cal_drifted));
		if (json_is_true(json_object_get(cal, fld_key(fld_cal_drifted))) != d)
			verr(c, i, ph, "must be true exactly when the hold or the think drifted");
		if (!d)
			continue;
		ndrift++;
		const json_t *re = json_object_get(cal, fld_key(fld_cal_recal));
		const char *why = res_str(cal, fld_key(fld_cal_reason), "");

		snprintf(ph, sizeof(ph), "%s.%s", p, fld_key(fld_cal_recal));
		if (!json_is_boolean(re))
			verr(c, i, ph, "a drifted repetition must say whether it recalibrated");
		else if (json_is_false(re) && !*why)
			verr(c, i, ph, "a drift not recalibrated must say why (reason)");
	}
	if (!sum)
		return;
	const json_t *dr = res_get(r, fld_s_cal_drifted), *x;

	json_array_foreach(dr, k, x) {
		const json_t *one = json_array_get(reps, (size_t)json_integer_value(x));

		if (!json_is_integer(x) ||
		    !json_is_true(res_get(one, fld_cal_drifted)))
			ndrift = SIZE_MAX;
	}
	if (!json_is_array(dr) || json_array_size(dr) != ndrift)
		verr(c, i, fld_s_cal_drifted,
		     "must list exactly the repetitions whose calibration drifted");
}

/* A program workload (workloads/program.c): the program's own metric per
 * repetition, and the preload library's counts where it was loaded. */
static void check_program(struct vctx *c, size_t i, const json_t *r)
{
	size_t k;
	const json_t *rep;
	char p[160];

	json_array_foreach(json_object_get(r, fld_r_reps), k, rep) {
		snprintf(p, sizeof(p), "repetitions[%zu].%s", k, fld_metric);
		if (!json_object_get(rep, fld_metric)) /* fldcheck names a mistyped one */
			verr(c, i, p, "must be a number");
	}
	if (!res_get(r, fld_s_preload))
		return;
	const char *const counts[] = { fld_s_pl_locks, fld_s_pl_requests, fld_s_pl_grants,
				       fld_s_pl_yields };

	for (size_t j = 0; j < 4; j++)
		if (json_integer_value(res_get(r, counts[j])) < 0)
			verr(c, i, counts[j], "must be an integer >= 0");
	if (res_num(r, fld_s_pl_grants) > res_num(r, fld_s_pl_requests))
		verr(c, i, fld_s_pl_grants, "cannot exceed the requests");
	need_stats(c, i, r, fld_s_pl_gps);
}

/* summary.slice.extension_ns (slicedur.h): a reason when it was not
 * measured; else counts that add up, ordered percentiles and a harmonic
 * mean that is not above the arithmetic one (as no harmonic mean is). */
static void check_extension(struct vctx *c, size_t i, const json_t *r)
{
	const char *const counts[] = { fld_s_ext_arms,	   fld_s_ext_count,	fld_s_ext_expired,
				       fld_s_ext_rearmed,  fld_s_ext_open,	fld_s_ext_unmatched,
				       fld_s_ext_other_tasks, fld_s_ext_lost_events, fld_s_ext_hmean };
	const char *path = fld_s_ext;
	const json_t *x = res_get(r, path);
	double v[9];

	if (!res_get(r, fld_s_slice) || !json_is_object(x))
		return; /* results written before grants were timed have none */
	const char *st = res_str(r, fld_s_ext_status, "");

	if (!rs_is(st, RS_OK)) {
		if (!rs_is(st, RS_UNSUPPORTED) && !rs_is(st, RS_SKIPPED))
			verr(c, i, path, "status must be ok, unsupported or skipped");
		else if (!*res_str(r, fld_s_ext_reason, ""))
			verr(c, i, path, "an extension_ns that is not ok must say why");
		return;
	}
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		v[k] = res_num(r, counts[k]);
		if (!(v[k] >= 0)) {
			verr(c, i, counts[k], "must be a number >= 0");
			return;
		}
	}
	need_pct(c, i, r, path);
	if (v[1] + v[2] + v[3] + v[4] > v[0])
		verr(c, i, path, "count + expired + rearmed + open exceed the arms");
	if (v[1] && v[8] > res_num(r, fld_s_ext_mean) * (1 + 1e-9))
		verr(c, i, path, "harmonic_mean is above the arithmetic mean");
}

/* --strict: the run's parameters against the key table (core/keys.c), as
 * the config loader checked them: a result edited or written elsewhere may
 * hold what no config could (cs_ns -100, repetitions 1e9, holder_trace_us
 * "5").  Workload keys (`slicebench list`) are their workload's.  Not for
 * the readers: a result built for a test (5,000 repetitions) is read. */
static void check_params(struct vctx *c, size_t i, const json_t *r)
{
	const json_t *params = json_object_get(r, fld_r_params), *v, *sv;
	const char *name, *sub;
	char p[160], msg[160];

	json_object_foreach((json_t *)params, name, v) {
		const struct key_desc *k = key_find(run_keys, name);

		if (!k || (json_is_null(v) && !strcmp(k->def, "null")))
			continue; /* null: the workload's own (lock, policy, dry, victim) */
		snprintf(p, sizeof(p), "%s.%s", fld_r_params, name);
		if (k->type != KT_OBJ || !json_is_object(v)) {
			if (key_check(k, v, msg, sizeof(msg)))
				verr(c, i, p, msg);
			continue;
		}
		json_object_foreach((json_t *)v, sub, sv) {
			const struct key_desc *sk = k->sub ? key_find(k->sub, sub) : NULL;

			snprintf(p, sizeof(p), "%s.%s.%s", fld_r_params, name, sub);
			if (sk && key_check(sk, sv, msg, sizeof(msg)))
				verr(c, i, p, msg);
		}
	}
}

/* The loop's slice counts: events counted, never negative. */
static void check_slice(struct vctx *c, size_t i, const json_t *r)
{
	const char *const counts[] = { fld_s_slice_req, fld_s_slice_grants, fld_s_slice_yields,
				       fld_s_grants_k, fld_s_yields_k, fld_s_grants_k_c };

	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		const json_t *v = res_get(r, counts[k]);

		if (json_is_number(v) && !(json_number_value(v) >= 0))
			verr(c, i, counts[k], "must not be negative");
	}
}

/* --strict: a repetition's rate is its ops over its window (summary.c); a
 * rate that is not, by more than rounding, was edited (as the tests edit
 * the rates they compare, so not for the readers). */
static void check_rate(struct vctx *c, size_t i, size_t k, const json_t *rep)
{
	const json_t *o = json_object_get(rep, fld_ops), *w = json_object_get(rep, fld_wall_s);
	double rate = json_number_value(json_object_get(rep, fld_ops_per_sec));
	double want = json_number_value(o) / json_number_value(w);
	char p[160], msg[96];

	if (!json_is_number(o) || !json_is_number(w) || !(json_number_value(w) > 0) ||
	    !json_is_number(json_object_get(rep, fld_ops_per_sec)) ||
	    fabs(rate - want) <= 1e-6 * fmax(fabs(rate), fabs(want)))
		return;
	snprintf(p, sizeof(p), "repetitions[%zu].%s", k, fld_ops_per_sec);
	snprintf(msg, sizeof(msg), "is not ops / wall_s (%.17g)", want);
	verr(c, i, p, msg);
}

static void check_result(struct vctx *c, size_t i, const json_t *r)
{
	const char *st = res_str(r, fld_r_status, "");
	enum sb_status s = rs_of(st);

	if (s == RS_COUNT || !rs_result_status(s)) {
		verr(c, i, fld_r_status, "must be ok, unsupported, failed or interrupted");
		return;
	}
	/* the table's types and required fields first */
	c->errors += fld_check_result(r, c->strict, table_defect, c);
	if (c->strict)
		check_params(c, i, r);
	const json_t *nt = json_object_get(r, fld_r_nthreads);
	double n = json_number_value(nt);

	if (json_is_number(nt) && !(n >= 1 && n == floor(n)))
		verr(c, i, fld_r_nthreads, "must be a whole number >= 1");
	if (!rs_is(st, RS_OK)) {
		const char *why = res_str(r, fld_r_reason, "");

		if (!*why && json_object_get(r, fld_r_reason))
			verr(c, i, fld_r_reason, "a result that is not ok must say why");
		return;
	}
	const json_t *reps = json_object_get(r, fld_r_reps);

	if (!json_is_array(reps))
		; /* fldcheck named it */
	else if (res_num(r, fld_r_ci_target) > 0) {
		double n = (double)json_array_size(reps);

		if (n != res_num(r, fld_s_auto_n))
			verr(c, i, fld_s_auto_n, "must equal the number of repetitions (ci_target_pct)");
		else if (n < res_num(r, fld_s_auto_min) || n > res_num(r, fld_s_auto_max))
			verr(c, i, fld_r_reps, "must hold min..max entries (ci_target_pct)");
	} else if ((double)json_array_size(reps) != res_num(r, fld_r_nreps))
		verr(c, i, fld_r_reps, "must hold params.repetitions entries");
	const json_t *prim = res_get(r, fld_s_prim);
	char p[160];

	if (prim && !res_get(r, fld_s_ops)) {
		/* A workload that measures itself: each primitive's statistics
		 * are checked instead of the lock loop's. */
		const char *name, *stat;
		const json_t *one, *st;

		if (!json_is_object(prim) || !json_object_size(prim))
			verr(c, i, fld_s_prim, "must be a non-empty object");
		json_object_foreach((json_t *)prim, name, one) {
			const char *reason = fld_key(fld_s_prim_reason);
			const char *pst = json_string_value(json_object_get(one, fld_key(fld_s_prim_status)));

			snprintf(p, sizeof(p), "%s.%s.%s", fld_s_prim, name, reason);
			if (pst && !rs_is(pst, RS_OK) && !json_is_string(json_object_get(one, reason)))
				verr(c, i, p, "a primitive that did not run must say why");
			/* {status, reason} beside the statistics objects */
			json_object_foreach((json_t *)one, stat, st) {
				if (!json_is_object(st))
					continue;
				snprintf(p, sizeof(p), "%s.%s.%s", fld_s_prim, name, stat);
				need_stats(c, i, r, p);
			}
		}
		return;
	}
	need_stats(c, i, r, fld_s_ops);
	need_drift(c, i, r);
	if (res_get(r, fld_s_metric_name)) {
		check_program(c, i, r);
		return;
	}
	need_pct(c, i, r, fld_s_hold);
	need_pct(c, i, r, fld_s_acq);
	if (res_get(r, fld_s_victim))
		need_pct(c, i, r, fld_s_victim);
	check_extension(c, i, r);
	check_slice(c, i, r);
	size_t k;
	const json_t *rep;

	json_array_foreach(reps, k, rep) {
		snprintf(p, sizeof(p), "repetitions[%zu].%s", k, fld_exclusion_ok);
		if (json_is_false(json_object_get(rep, fld_exclusion_ok)))
			verr(c, i, p, "mutual exclusion failed in an ok result");
		/* the types are fldcheck's; a number must not be negative */
		double ops = json_number_value(json_object_get(rep, fld_ops));
		double rate = json_number_value(json_object_get(rep, fld_ops_per_sec));

		snprintf(p, sizeof(p), "repetitions[%zu].%s", k, fld_ops_per_sec);
		if (rate < 0)
			verr(c, i, p, "must be a number >= 0");
		snprintf(p, sizeof(p), "repetitions[%zu].%s", k, fld_ops);
		if (ops < 0)
			verr(c, i, p, "must be a number >= 0");
		if (c->strict)
			check_rate(c, i, k, rep);
		const json_t *th = json_object_get(rep, fld_threads), *t;
		double sum = 0;
		size_t j;

		if (!json_is_array(th)) /* keep: "summary" drops them */
			continue;
		json_array_foreach(th, j, t)
			sum += json_number_value(json_object_get(t, fld_key(fld_th_ops)));
		snprintf(p, sizeof(p), "repetitions[%zu].%s", k, fld_threads);
		if (sum != ops)
			verr(c, i, p, "the threads' ops do not add up to the repetition's ops");
	}
}

struct id_at {
	const char *file; /* a directory's files are merged: ids repeat across them */
	double id;
	size_t i;
};

static int by_id(const void *a, const void *b)
{
	const struct id_at *x = a, *y = b;
	int f = strcmp(x->file, y->file);

	if (f)
		return f;
	return x->id < y->id ? -1 : x->id > y->id ? 1 : x->i < y->i ? -1 : x->i > y->i;
}

/* --strict: each result's id is its run's number in the suite, no two of
 * one file the same (the tests' hand-built results repeat one result, as
 * the readers take them). */
static void check_ids(struct vctx *c, const json_t *results)
{
	size_t n = json_array_size(results), m = 0, k;
	struct id_at *ids = calloc(n ? n : 1, sizeof(*ids));
	const json_t *r;
	char msg[96];

	if (!ids)
		return;
	json_array_foreach(results, k, r) {
		const json_t *id = json_object_get(r, fld_r_id);

		if (json_is_number(id))
			ids[m++] = (struct id_at){ res_str(r, fld_r_file, ""), json_number_value(id), k };
	}
	qsort(ids, m, sizeof(*ids), by_id);
	for (k = 1; k < m; k++) {
		if (ids[k].id != ids[k - 1].id || strcmp(ids[k].file, ids[k - 1].file))
			continue;
		const json_t *first = json_object_get(json_array_get(results, ids[k - 1].i), fld_r_index);

		c->r = json_array_get(results, ids[k].i);
		snprintf(msg, sizeof(msg), "repeats the id of results[%zu]",
			 json_is_integer(first) ? (size_t)json_integer_value(first) : ids[k - 1].i);
		verr(c, ids[k].i, fld_r_id, msg);
	}
	free(ids);
}

size_t res_check_doc(const json_t *doc, int strict, const char *who, const char *file,
		     FILE *out)
{
	struct vctx c = { who, file, out, NULL, 0, 0, strict };
	size_t i;
	const json_t *r, *pus = res_get(json_object_get(doc, "meta"), fld_m_pus);

	c.errors = fld_check_envelope(doc, strict, envelope_defect, &c);
	if (json_is_number(pus) &&
	    !(json_number_value(pus) >= 1 && json_number_value(pus) == floor(json_number_value(pus)))) {
		envelope_defect(&c, "meta.topology.pus", pus, "must be a whole number >= 1");
		c.errors++;
	}
	json_array_foreach(json_object_get(doc, fld_results), i, r) {
		c.r = r;
		c.i = i;
		check_result(&c, i, r);
	}
	if (strict)
		check_ids(&c, json_object_get(doc, fld_results));
	return c.errors;
}
