/* compare.c - the statistics of `slicebench compare`.
 *
 * One summary number per independent repetition is the sample.  Welch's
 * t-test on log values decides: throughput and latency are ratio-scale
 * and right-skewed, logs make a multiplicative change additive and the
 * ratio of geometric means with its CI is the number a reader wants
 * ("B is 1.18x [1.12, 1.25] of A").  Welch, not Student, because A and B
 * need not share a variance.  The exact Mann-Whitney U p-value is a
 * distribution-free cross-check; its smallest two-sided p with n per side
 * is 2/C(2n,n), so below 4 repetitions per side it can never reach 0.05.
 * Holm's step-down keeps the family-wise error at alpha over all rows. */
#define _GNU_SOURCE
#include "compare.h"

#include "aacheck.h"
#include "calfloor.h"
#include "cliopt.h"
#include "exitcodes.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "keys.h"
#include "outfile.h"
#include "resload.h"
#include "textfmt.h"
#include "workload.h"

const struct cmp_metric cmp_metrics[] = {
	{ "ops_per_sec", "ops_per_sec", NULL, "ops_per_sec.mean", "ops/s", 0, 0,
	  "critical sections per second (higher is better)" },
	{ "fairness", "fairness_jain", NULL, "fairness_jain", "", 0, 0,
	  "Jain's index over threads (higher is better)" },
	{ "p50_hold", "hold_ns.p50", NULL, "hold_ns.p50", "ns", 1, 1, "median hold time" },
	{ "p99_hold", "hold_ns.p99", NULL, "hold_ns.p99", "ns", 1, 1, "p99 hold time" },
	{ "p999_hold", "hold_ns.p99_9", NULL, "hold_ns.p99_9", "ns", 1, 1, "p99.9 hold time" },
	{ "p50_acquire", "acquire_ns.p50", NULL, "acquire_ns.p50", "ns", 1, 1,
	  "median acquire latency" },
	{ "p99_acquire", "acquire_ns.p99", NULL, "acquire_ns.p99", "ns", 1, 1,
	  "p99 acquire latency" },
	{ "p999_acquire", "acquire_ns.p99_9", NULL, "acquire_ns.p99_9", "ns", 1, 1,
	  "p99.9 acquire latency" },
	{ "p9999_acquire", "acquire_ns.p99_99", NULL, "acquire_ns.p99_99", "ns", 1, 1,
	  "p99.99 acquire latency" },
	{ "victim_p99", "victim.p99", NULL, "victim.p99", "ns", 1, 1,
	  "victim wakeup latency p99" },
	{ "victim_p999", "victim.p99_9", NULL, "victim.p99_9", "ns", 1, 1,
	  "victim wakeup latency p99.9" },
	{ "victim_p9999", "victim.p99_99", NULL, "victim.p99_99", "ns", 1, 1,
	  "victim wakeup latency p99.99" },
	{ "victim_max", "victim.max", NULL, "victim.max", "ns", 1, 1, "victim worst wakeup" },
	{ "ctxsw_per_op", "counters.context-switches.value", "ops",
	  "counters.context_switches_per_op", "", 1, 0, "context switches per operation" },
	{ "tsc_cycles_per_op", "tsc_cycles", "ops", "counters.tsc_cycles_per_op", "cycles", 1, 0,
	  "TSC cycles per operation (wall time x PUs)" },
	{ NULL },
};

/* Run keys that do not define a point: how long or how often it was
 * measured, what was kept, and the watchdog.  Pairing ignores them.  The
 * lock x policy x dry triple is in the workload's name already (results
 * from before it was recorded lack it). */
static const char *const ignored_keys[] = { "timeout_s", "duration_s", "warmup_s",
					    "repetitions", "ci_target_pct", "repetitions_max",
					    "events", "keep",
					    "lock", "policy", "dry", NULL };

static int ignored(const char *k)
{
	for (size_t i = 0; ignored_keys[i]; i++)
		if (!strcmp(k, ignored_keys[i]))
			return 1;
	return 0;
}

const struct cmp_metric *cmp_metric_find(const char *name)
{
	for (size_t i = 0; cmp_metrics[i].name; i++)
		if (!strcmp(cmp_metrics[i].name, name))
			return &cmp_metrics[i];
	return NULL;
}

/* ---- statistics ---- */

static void mean_var(const double *x, size_t n, double *m, double *v)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*m = n ? s / (double)n : NAN;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *m) * (x[i] - *m);
	*v = n > 1 ? ss / (double)(n - 1) : NAN;
}

void cmp_welch_log(const double *a, size_t na, const double *b, size_t nb, struct cmp_welch *w)
{
	double ma, va, mb, vb;

	memset(w, 0, sizeof(*w));
	w->ratio = w->lo = w->hi = w->t = w->df = w->p = NAN;
	if (!na || !nb)
		return;
	/* Heap, not the stack: the sizes come from the input. */
	double *la = malloc((na + nb) * sizeof(*la)), *lb = la + na;

	if (!la)
		return;
	for (size_t i = 0; i < na + nb; i++) {
		double x = i < na ? a[i] : b[i - na];

		if (!(x > 0) || !isfinite(x)) {
			free(la);
			return;
		}
		la[i] = log(x);
	}
	w->ok = 1;
	mean_var(la, na, &ma, &va);
	mean_var(lb, nb, &mb, &vb);
	free(la);
	w->ratio = exp(mb - ma);
	if (na < 2 || nb < 2)
		return;
	double sa = va / (double)na, sb = vb / (double)nb, se = sqrt(sa + sb);

	if (se == 0) {
		/* Constant on both sides: the difference is exact, or none. */
		w->lo = w->hi = w->ratio;
		w->p = mb == ma ? 1.0 : 0.0;
		w->df = (double)(na + nb - 2);
		w->t = mb == ma ? 0 : copysign(INFINITY, mb - ma);
		return;
	}
	/* Welch-Satterthwaite degrees of freedom. */
	w->df = (sa + sb) * (sa + sb) /
		(sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	w->t = (mb - ma) / se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	if (w->p > 1)
		w->p = 1;
	double h = gsl_cdf_tdist_Pinv(0.975, w->df) * se;

	w->lo = exp(mb - ma - h);
	w->hi = exp(mb - ma + h);
}

#define MW_EXACT_MAX 50

/* Counts of U = #(x > y) over all arrangements of m x's and n y's, by the
 * recurrence f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u) (is the largest value an
 * x or a y?), only additions so the doubles stay exact far enough. */
static double *mw_counts(size_t m, size_t n)
{
	size_t U = m * n + 1;
	double *prev = calloc((n + 1) * U, sizeof(double));
	double *cur = calloc((n + 1) * U, sizeof(double));

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NULL;
	}
	for (size_t j = 0; j <= n; j++)
		prev[j * U] = 1; /* m = 0: one arrangement, U = 0 */
	for (size_t i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * U * sizeof(double));
		cur[0] = 1; /* n = 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t u = 0; u <= i * j; u++)
				cur[j * U + u] = (u >= j ? prev[j * U + u - j] : 0) +
						 cur[(j - 1) * U + u];
		double *t = prev;

		prev = cur;
		cur = t;
	}
	double *res = malloc(U * sizeof(double));

	if (res)
		memcpy(res, prev + n * U, U * sizeof(double));
	free(prev);
	free(cur);
	return res;
}

double cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb, int *exact,
			int *ties)
{
	double u = 0;
	size_t N = na + nb;

	*exact = 0;
	*ties = 0;
	if (!na || !nb)
		return NAN;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			if (a[i] > b[j])
				u += 1;
			else if (a[i] == b[j]) {
				u += 0.5;
				*ties = 1;
			}
		}
	if (na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX) {
		double *f = mw_counts(na, nb), tot = 0, lo = 0, hi = 0;

		if (f) {
			for (size_t k = 0; k <= na * nb; k++) {
				tot += f[k];
				if ((double)k <= floor(u))
					lo += f[k];
				if ((double)k >= ceil(u))
					hi += f[k];
			}
			free(f);
			*exact = 1;
			double p = 2 * fmin(lo, hi) / tot;

			return p > 1 ? 1 : p;
		}
	}
	/* Normal approximation with the tie-corrected variance. */
	double *all = malloc(N * sizeof(double)), tsum = 0;

	if (!all)
		return NAN;
	memcpy(all, a, na * sizeof(double));
	memcpy(all + na, b, nb * sizeof(double));
	for (size_t i = 0; i < N; i++) {
		size_t t = 0;

		for (size_t j = 0; j < N; j++)
			t += all[j] == all[i];
		tsum += (double)t * (double)t - 1; /* summed per member: (t^3 - t) per group */
	}
	free(all);
	double mu = (double)na * (double)nb / 2;
	double var = (double)na * (double)nb / 12 *
		     ((double)N + 1 - tsum / ((double)N * ((double)N - 1)));

	if (!(var > 0))
		return 1;
	double z = (fabs(u - mu) - 0.5) / sqrt(var);

	return z <= 0 ? 1 : fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
}

struct holm_ent {
	double p;
	size_t i;
};

static int holm_cmp(const void *x, const void *y)
{
	const struct holm_ent *a = x, *b = y;

	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

void cmp_holm(double *p, size_t n)
{
	struct holm_ent *e = malloc((n ? n : 1) * sizeof(*e));
	size_t m = 0;

	if (!e) { /* no correction possible: say nothing is significant */
		for (size_t i = 0; i < n; i++)
			p[i] = isfinite(p[i]) ? 1.0 : p[i];
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (isfinite(p[i]))
			e[m++] = (struct holm_ent){ p[i], i };
	/* Rows can be thousands (a directory of results): n log n. */
	qsort(e, m, sizeof(*e), holm_cmp);
	double run = 0;

	for (size_t k = 0; k < m; k++) {
		double adj = fmin(1, (double)(m - k) * e[k].p);

		run = fmax(run, adj); /* step-down: adjusted p never decreases */
		p[e[k].i] = run;
	}
	free(e);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double quantile_sorted(const double *s, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);

	return lo + 1 < n ? s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]) : s[n - 1];
}

void cmp_outliers(const double *x, size_t n, int *flags)
{
	memset(flags, 0, n * sizeof(*flags));
	if (n < 3)
		return;
	double *s = malloc(2 * n * sizeof(*s)), *dev = s + n;

	if (!s)
		return;
	memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	double med = quantile_sorted(s, n, 0.5);

	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	qsort(dev, n, sizeof(double), cmp_double);
	/* 1.4826 scales the MAD to a standard deviation for normal data. */
	double mad = 1.4826 * quantile_sorted(dev, n, 0.5);

	for (size_t i = 0; i < n; i++)
		if (mad > 0 && fabs(x[i] - med) > 3 * mad)
			flags[i] |= 2;
	if (n >= 4) {
		double q1 = quantile_sorted(s, n, 0.25), q3 = quantile_sorted(s, n, 0.75);
		double iqr = q3 - q1;

		for (size_t i = 0; i < n; i++)
			if (x[i] < q1 - 1.5 * iqr || x[i] > q3 + 1.5 * iqr)
				flags[i] |= 1;
	}
	free(s);
}

/* ---- pairing ---- */

/* A key of a workload that runs a program (workloads/program.c): its arms
 * share the key table, and the command is what the point is. */
static int arm_key(const json_t *r, const char *k)
{
	const struct workload_ops *o = wl_find(res_str(r, "workload", ""));

	return o && o->run && key_find(o->keys, k);
}

/* Whether params key k holds its run key's default.  A result from before
 * a key existed lacks it, and ran as the default: the same point as a newer
 * result at that default, so a default is left out of the point.  The
 * defaults are parsed once (point_key runs for every result). */
static int at_default(const char *k, const json_t *v)
{
	static json_t *defs[128];
	static int parsed;
	const struct key_desc *d = key_find(run_keys, k);
	size_t i;

	if (!d || d->type == KT_OBJ)
		return 0;
	i = (size_t)(d - run_keys);
	if (i >= sizeof(defs) / sizeof(defs[0]))
		return 0;
	if (!parsed) {
		for (size_t j = 0; run_keys[j].name && j < sizeof(defs) / sizeof(defs[0]); j++)
			defs[j] = run_keys[j].def ? json_loads(run_keys[j].def, JSON_DECODE_ANY, NULL)
						  : NULL;
		parsed = 1;
	}
	return defs[i] && json_equal(defs[i], v);
}

/* workload + params without the ignored keys (and, for --within, without
 * the keys that are not run keys: the workloads' own knobs, except the
 * program arms' shared ones). */
static char *point_key(const json_t *r, int with_workload, int run_keys_only)
{
	json_t *p = json_object_get(r, "params"), *c = json_object(), *v;
	const char *k;

	json_object_foreach(p, k, v) {
		if (ignored(k) || at_default(k, v) ||
		    (run_keys_only && !key_find(run_keys, k) && !arm_key(r, k)))
			continue;
		json_object_set(c, k, v);
	}
	if (with_workload)
		json_object_set_new(c, " workload", json_string(res_str(r, "workload", "?")));
	char *s = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

	json_decref(c);
	return s;
}

/* Which params vary among each workload's results, in one pass over them
 * (a result set can hold thousands): {workload: {"n": results, "keys":
 * {key: [first value, results having it, differs]}}}. */
static json_t *variation(json_t *const *all, size_t nall)
{
	json_t *var = json_object();

	for (size_t i = 0; i < nall; i++) {
		const char *wl = res_str(all[i], "workload", "?"), *k;
		json_t *w = json_object_get(var, wl), *v;

		if (!w) {
			w = json_pack("{s:i,s:{}}", "n", 0, "keys");
			json_object_set_new(var, wl, w);
		}
		json_object_set_new(w, "n", json_integer(json_integer_value(json_object_get(w, "n")) + 1));
		json_t *keys = json_object_get(w, "keys");

		json_object_foreach(json_object_get(all[i], "params"), k, v) {
			json_t *e = json_object_get(keys, k);

			if (!e) {
				json_object_set_new(keys, k, json_pack("[O,i,b]", v, 1, 0));
				continue;
			}
			json_array_set_new(e, 1, json_integer(json_integer_value(json_array_get(e, 1)) + 1));
			if (!json_equal(v, json_array_get(e, 0)))
				json_array_set(e, 2, json_true());
		}
	}
	return var;
}

/* "threads=2x pin=oversubscribe:2 victim=on": threads always, then every
 * other key whose value differs among this workload's results (or that
 * some of them lack). */
static void point_desc(const json_t *r, const json_t *var, char *buf, size_t len)
{
	const json_t *p = json_object_get(r, "params");
	const json_t *w = json_object_get(var, res_str(r, "workload", "?"));
	const json_t *keys = json_object_get(w, "keys");
	json_int_t nw = json_integer_value(json_object_get(w, "n"));
	const char *k;
	json_t *v;
	char s[96];

	val_str(json_object_get(p, "threads"), s, sizeof(s));
	snprintf(buf, len, "threads=%s", s);
	json_object_foreach((json_t *)p, k, v) {
		const json_t *e = json_object_get(keys, k);

		if (!strcmp(k, "threads") || ignored(k))
			continue;
		if (json_integer_value(json_array_get(e, 1)) == nw &&
		    !json_is_true(json_array_get(e, 2)))
			continue;
		size_t n = strlen(buf);

		val_str(v, s, sizeof(s));
		snprintf(buf + n, len - n, " %s=%s", k, s);
	}
}

/* Per-repetition values of a metric, or the summary's single value. */
static size_t metric_values(const json_t *r, const struct cmp_metric *m, double *out, size_t max,
			    int *from_summary)
{
	json_t *reps = json_object_get(r, "repetitions"), *rep;
	size_t i, n = 0;

	*from_summary = 0;
	json_array_foreach(reps, i, rep) {
		double v = res_num(rep, m->rep_path);

		if (m->div_path) {
			double d = res_num(rep, m->div_path);

			v = d > 0 ? v / d : NAN;
		}
		if (isfinite(v) && n < max)
			out[n++] = v;
	}
	if (n)
		return n;
	double v = res_num(json_object_get(r, "summary"), m->sum_path);

	if (isfinite(v) && max) {
		out[0] = v;
		*from_summary = 1;
		return 1;
	}
	return 0;
}

static double center(const double *x, size_t n, int median)
{
	double m, v, *s;

	if (!n)
		return NAN;
	if (!median) {
		mean_var(x, n, &m, &v);
		return m;
	}
	if (!(s = malloc(n * sizeof(*s))))
		return NAN;
	memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	m = quantile_sorted(s, n, 0.5);
	free(s);
	return m;
}

static json_t *values_json(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(x[i]));
	return a;
}

#define MAXREP 1024

/* One row: metric m of result ra (baseline) against rb. */
static json_t *make_row(const json_t *ra, const json_t *rb, const char *fa, const char *fb,
			const struct cmp_metric *m, const char *point, const char *group)
{
	static double a[MAXREP], b[MAXREP];
	int sa, sb, fl[MAXREP];
	size_t na = metric_values(ra, m, a, MAXREP, &sa), nb = metric_values(rb, m, b, MAXREP, &sb);

	if (!na || !nb)
		return NULL;
	struct cmp_welch w;
	int exact, ties;
	double mw = cmp_mann_whitney(a, na, b, nb, &exact, &ties);
	double ca = center(a, na, m->use_median), cb = center(b, nb, m->use_median);
	json_t *flags = json_array(), *row;

	cmp_welch_log(a, na, b, nb, &w);
	cmp_outliers(a, na, fl);
	for (size_t i = 0; i < na; i++)
		if (fl[i])
			json_array_append_new(flags, json_sprintf("A#%zu outlier (%s%s%s)", i + 1,
								  fl[i] & 1 ? "1.5 IQR" : "",
								  fl[i] == 3 ? ", " : "",
								  fl[i] & 2 ? "3 MAD" : ""));
	cmp_outliers(b, nb, fl);
	for (size_t i = 0; i < nb; i++)
		if (fl[i])
			json_array_append_new(flags, json_sprintf("B#%zu outlier (%s%s%s)", i + 1,
								  fl[i] & 1 ? "1.5 IQR" : "",
								  fl[i] == 3 ? ", " : "",
								  fl[i] & 2 ? "3 MAD" : ""));
	if (sa || sb)
		json_array_append_new(flags, json_string("summary only: no repetitions, no test"));
	if (!w.ok)
		json_array_append_new(flags, json_string("values <= 0: no log test"));
	if (ties)
		json_array_append_new(flags, json_string("ties"));
	row = json_pack("{s:s,s:s,s:s,s:s,s:s,s:b,s:{s:s,s:s,s:I,s:f,s:o,s:O},"
			"s:{s:s,s:s,s:I,s:f,s:o,s:O}}",
			"group", group, "workload", res_str(ra, "workload", "?"), "point", point,
			"metric", m->name, "unit", m->unit, "lower_is_better", m->lower_better, "a",
			"file", fa, "workload", res_str(ra, "workload", "?"), "n", (json_int_t)na,
			"value", ca, "values", values_json(a, na), "nthreads",
			json_object_get(ra, "nthreads") ? json_object_get(ra, "nthreads")
							: json_null(),
			"b", "file", fb, "workload", res_str(rb, "workload", "?"), "n",
			(json_int_t)nb, "value", cb, "values", values_json(b, nb), "nthreads",
			json_object_get(rb, "nthreads") ? json_object_get(rb, "nthreads")
							: json_null());
	if (!row) {
		json_decref(flags);
		return NULL;
	}
#define NUM(x) (isfinite(x) ? json_real(x) : json_null())
	json_object_set_new(row, "delta_pct", NUM(ca != 0 ? 100 * (cb - ca) / ca : NAN));
	json_object_set_new(row, "ratio", NUM(w.ratio));
	json_object_set_new(row, "ratio_ci95", json_pack("[o,o]", NUM(w.lo), NUM(w.hi)));
	json_object_set_new(row, "welch_t", NUM(w.t));
	json_object_set_new(row, "welch_df", NUM(w.df));
	json_object_set_new(row, "welch_p", NUM(w.p));
	json_object_set_new(row, "mw_p", NUM(mw));
	json_object_set_new(row, "mw_exact", json_boolean(exact));
	json_object_set_new(row, "flags", flags);
	return row;
}

/* After Holm: the verdict.  Improved or regressed needs the adjusted Welch
 * p below alpha AND the ratio of geometric means outside the noise band;
 * a significant 1% change is still noise for a benchmark. */
static void decide(json_t *rows, const struct cmp_opts *o)
{
	size_t n = json_array_size(rows), i;
	double *p = malloc((n ? n : 1) * sizeof(*p));
	json_t *r;

	if (!p)
		abort(); /* a few bytes per row: no partial verdicts */

	json_array_foreach(rows, i, r)
		p[i] = json_is_number(json_object_get(r, "welch_p"))
			       ? json_number_value(json_object_get(r, "welch_p"))
			       : NAN;
	cmp_holm(p, n);
	json_array_foreach(rows, i, r) {
		double ratio = res_num(r, "ratio");
		int lower = json_is_true(json_object_get(r, "lower_is_better"));
		const char *v = "inconclusive", *why;
		json_t *flags = json_object_get(r, "flags");

		json_object_set_new(r, "holm_p", NUM(p[i]));
		if (!isfinite(p[i])) {
			why = "no test (fewer than 2 values per side)";
		} else if (p[i] >= o->alpha) {
			why = "not significant";
		} else if (fabs(log(ratio)) < log1p(o->threshold)) {
			why = "within noise band";
		} else {
			int better = lower ? ratio < 1 : ratio > 1;

			v = better ? "improved" : "regressed";
			why = "significant and beyond the noise band";
			double mw = res_num(r, "mw_p");

			if (res_num(r, "a.n") >= 4 && res_num(r, "b.n") >= 4 && mw >= o->alpha)
				json_array_append_new(flags,
						      json_string("Mann-Whitney disagrees"));
		}
		json_object_set_new(r, "verdict", json_string(v));
		json_object_set_new(r, "why", json_string(why));
	}
	free(p);
}

static json_t *report_new(const struct cmp_opts *o, const char *mode)
{
	json_t *mets = json_array();

	for (size_t i = 0; i < o->nmetrics; i++)
		json_array_append_new(mets, json_string(o->metrics[i]->name));
	return json_pack("{s:s,s:s,s:f,s:f,s:o,s:[],s:[],s:[],s:[],s:[]}", "schema",
			 "slicebench-compare/1", "mode", mode, "threshold_pct",
			 100 * o->threshold, "alpha", o->alpha, "metrics", mets, "files",
			 "warnings", "notes", "not_compared", "rows");
}

/* Appends s to rep[key] once: the strings seen are kept in a hidden
 * " seen" object (removed by finish), so thousands of notes stay linear. */
static void add_str(json_t *rep, const char *key, json_t *s)
{
	json_t *seen = json_object_get(rep, " seen");
	char *id;

	if (!seen) {
		seen = json_object();
		json_object_set_new(rep, " seen", seen);
	}
	if (!s || asprintf(&id, "%s\n%s", key, json_string_value(s)) < 0) {
		json_decref(s);
		return;
	}
	if (json_object_get(seen, id)) {
		json_decref(s);
	} else {
		json_object_set_new(seen, id, json_true());
		json_array_append_new(json_object_get(rep, key), s);
	}
	free(id);
}

/* What makes an A/B comparison suspect: different hardware, accelerator,
 * suite, tick, or preemption model.  The kernel is a note: comparing
 * kernels is what the suite is for. */
static void meta_diff(json_t *rep, const json_t *ma, const json_t *mb, const char *fb)
{
	static const struct {
		const char *path, *what;
		int warn;
	} keys[] = {
		{ "topology.cpu_model", "CPU model", 1 },
		{ "topology.pus", "PU count", 1 },
		{ "virtualization.kind", "virtualization", 1 },
		{ "vm.accel", "VM accelerator", 1 },
		{ "suite_version", "suite version", 1 },
		{ "hz", "HZ", 1 },
		{ "preemption.model", "preemption model", 1 },
		{ "slice_extension.available", "slice extension availability", 1 },
		{ "kernel.release", "kernel release", 0 },
		{ "host", "host", 0 },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *va = res_get(ma, keys[i].path), *vb = res_get(mb, keys[i].path);
		char sa[128], sb[128];

		if (json_equal(va, vb) || (!va && !vb))
			continue;
		if (!strcmp(keys[i].path, "vm.accel")) {
			snprintf(sa, sizeof(sa), "%s", va ? res_str(ma, "vm.accel", "?") : "bare metal / no VM");
			snprintf(sb, sizeof(sb), "%s", vb ? res_str(mb, "vm.accel", "?") : "bare metal / no VM");
		} else {
			val_str(va, sa, sizeof(sa));
			val_str(vb, sb, sizeof(sb));
			if (!va)
				snprintf(sa, sizeof(sa), "(missing)");
			if (!vb)
				snprintf(sb, sizeof(sb), "(missing)");
		}
		add_str(rep, keys[i].warn ? "warnings" : "notes",
			json_sprintf("%s differs: A \"%s\" vs %s \"%s\"", keys[i].what, sa, fb, sb));
	}
	json_t *floors = calfloor_diff(ma, mb, fb), *w;
	size_t k;

	json_array_foreach(floors, k, w)
		add_str(rep, "warnings", json_incref(w));
	json_decref(floors);
}

static void add_rows(json_t *rep, const json_t *ra, const json_t *rb, const char *fa,
		     const char *fb, const struct cmp_opts *o, const json_t *var,
		     const json_t *doca)
{
	char point[512], group[512];
	const char *sa = res_str(ra, "status", "?"), *sb = res_str(rb, "status", "?");

	point_desc(ra, var, point, sizeof(point));
	res_group(res_meta_of(doca, ra), group, sizeof(group));
	if (strcmp(sa, "ok") || strcmp(sb, "ok")) {
		add_str(rep, "not_compared",
			json_sprintf("%s %s: A %s, %s %s%s%s", res_str(ra, "workload", "?"), point, sa,
				     fb, sb, strcmp(sb, "ok") && res_str(rb, "reason", NULL) ? ": " : "",
				     strcmp(sb, "ok") ? res_str(rb, "reason", "") : ""));
		return;
	}
	double nta = res_num(ra, "nthreads"), ntb = res_num(rb, "nthreads");

	if (isfinite(nta) && isfinite(ntb) && nta != ntb)
		add_str(rep, "warnings",
			json_sprintf("%s %s: %.0f threads in A but %.0f in %s (\"Nx\" follows the "
				     "PU count)", res_str(ra, "workload", "?"), point, nta, ntb, fb));
	const char *ga = res_str(ra, "rseq_registration.kind", NULL);
	const char *gb = res_str(rb, "rseq_registration.kind", NULL);

	if (ga && gb && strcmp(ga, gb))
		add_str(rep, "warnings",
			json_sprintf("%s %s: rseq registration differs: A \"%s\" vs %s \"%s\" (the "
				     "kernel's rseq work on return to user space differs, not only "
				     "the requests)", res_str(ra, "workload", "?"), point, ga, fb, gb));
	for (size_t k = 0; k < o->nmetrics; k++) {
		json_t *row = make_row(ra, rb, fa, fb, o->metrics[k], point, group);

		if (row)
			json_array_append_new(json_object_get(rep, "rows"), row);
	}
}

static void finish(json_t *rep, const struct cmp_opts *o)
{
	json_t *rows = json_object_get(rep, "rows"), *r;
	size_t i, small = 0;

	json_object_del(rep, " seen");
	decide(rows, o);
	json_array_foreach(rows, i, r)
		if (res_num(r, "a.n") < 4 || res_num(r, "b.n") < 4)
			small++;
	if (small)
		add_str(rep, "notes",
			json_sprintf("%zu row(s) have fewer than 4 repetitions on a side: the exact "
				     "Mann-Whitney p cannot reach 0.05 there (its minimum is "
				     "2/C(2n,n)); Welch on logs still decides", small));
}

int cmp_docs(json_t *const *docs, const char *const *names, size_t ndocs,
	     const struct cmp_opts *o, json_t **report, char *err, size_t len)
{
	json_t *rep = report_new(o, "files");
	json_t *ares = json_object_get(docs[0], "results");
	size_t na = json_array_size(ares), paired = 0;

	*report = NULL;
	for (size_t d = 0; d < ndocs; d++) {
		char ml[512];

		res_meta_line(json_object_get(docs[d], "meta"), ml, sizeof(ml));
		json_array_append_new(json_object_get(rep, "files"),
				      json_pack("{s:s,s:s,s:s}", "role",
						d ? "B" : "A (baseline)", "file", names[d], "meta",
						ml));
	}
	for (size_t d = 1; d < ndocs; d++) {
		json_t *bres = json_object_get(docs[d], "results");
		size_t nb = json_array_size(bres), nall = na + nb, pd = 0;
		json_t **all = malloc((nall ? nall : 1) * sizeof(*all));
		char **ka = calloc(na ? na : 1, sizeof(char *)), **kb = calloc(nb ? nb : 1, sizeof(char *));
		json_t *bykey = json_object(), *var;
		char lbl[16];

		snprintf(lbl, sizeof(lbl), ndocs > 2 ? "B%zu" : "B", d);
		for (size_t i = 0; i < na; i++) {
			all[i] = json_array_get(ares, i);
			ka[i] = point_key(all[i], 1, 0);
		}
		/* B's results by point, each a queue in file order. */
		for (size_t i = 0; i < nb; i++) {
			all[na + i] = json_array_get(bres, i);
			kb[i] = point_key(all[na + i], 1, 0);
			if (!kb[i])
				continue;
			json_t *q = json_object_get(bykey, kb[i]);

			if (!q)
				json_object_set_new(bykey, kb[i], q = json_array());
			json_array_append_new(q, json_integer((json_int_t)i));
		}
		var = variation(all, nall);
		/* A point seen twice on a side (a directory of several hosts)
		 * pairs in order: the first with the first. */
		for (size_t i = 0; i < na; i++) {
			json_t *q = ka[i] ? json_object_get(bykey, ka[i]) : NULL;

			if (!json_array_size(q))
				continue;
			size_t j = (size_t)json_integer_value(json_array_get(q, 0));

			json_array_remove(q, 0);
			pd++;
			const json_t *ma = res_meta_of(docs[0], all[i]);
			const json_t *mb = res_meta_of(docs[d], all[na + j]);

			meta_diff(rep, ma, mb, lbl);
			add_rows(rep, all[i], all[na + j], names[0], names[d], o, var, docs[0]);
		}
		json_decref(var);
		json_decref(bykey);
		if (!pd)
			add_str(rep, "warnings",
				json_sprintf("%s: no run shares workload and parameters with %s",
					     names[d], names[0]));
		paired += pd;
		for (size_t i = 0; i < na; i++)
			free(ka[i]);
		for (size_t i = 0; i < nb; i++)
			free(kb[i]);
		free(ka);
		free(kb);
		free(all);
	}
	if (!paired) {
		snprintf(err, len,
			 "no overlapping runs: no result in %s%s shares workload and parameters "
			 "with %s (%zu results)", names[1], ndocs > 2 ? " or later files" : "",
			 names[0], na);
		json_decref(rep);
		return -1;
	}
	finish(rep, o);
	for (size_t d = 0; d < ndocs; d++)
		aa_attach(rep, docs[d], names[d], o);
	*report = rep;
	return 0;
}

int cmp_within(json_t *doc, const char *name, const char *baseline, const struct cmp_opts *o,
	       json_t **report, char *err, size_t len)
{
	json_t *res = json_object_get(doc, "results"), *r, *b;
	size_t n = json_array_size(res), i, nbase = 0, paired = 0;
	json_t *rep = report_new(o, "within");
	json_t **all = malloc((n ? n : 1) * sizeof(*all));
	char ml[512];

	*report = NULL;
	res_meta_line(json_object_get(doc, "meta"), ml, sizeof(ml));
	json_array_append_new(json_object_get(rep, "files"),
			      json_pack("{s:s,s:s,s:s}", "role", "A and B", "file", name, "meta",
					ml));
	json_object_set_new(rep, "baseline", json_string(baseline));
	/* The other workloads' results by run point, in file order: one pass
	 * each way, not baseline x results. */
	json_t *bykey = json_object(), *var;

	json_array_foreach(res, i, r) {
		all[i] = r;
		if (!strcmp(res_str(r, "workload", ""), baseline))
			continue;
		char *k = point_key(r, 0, 1);

		if (!k)
			continue;
		json_t *q = json_object_get(bykey, k);

		if (!q)
			json_object_set_new(bykey, k, q = json_array());
		json_array_append_new(q, json_integer((json_int_t)i));
		free(k);
	}
	var = variation(all, n);
	json_array_foreach(res, i, b) {
		if (strcmp(res_str(b, "workload", ""), baseline))
			continue;
		nbase++;
		char *kbase = point_key(b, 0, 1);
		json_t *q = kbase ? json_object_get(bykey, kbase) : NULL, *jv;
		size_t qi;

		json_array_foreach(q, qi, jv) {
			r = all[json_integer_value(jv)];
			add_rows(rep, b, r, baseline, res_str(r, "workload", "?"), o, var, doc);
			paired++;
		}
		free(kbase);
	}
	json_decref(var);
	json_decref(bykey);
	free(all);
	if (!nbase || !paired) {
		char seen[512] = "";
		json_t *wls = json_object();
		const char *w;

		json_array_foreach(res, i, r)
			json_object_set_new(wls, res_str(r, "workload", "?"), json_true());
		json_object_foreach(wls, w, r) {
			size_t l = strlen(seen);

			snprintf(seen + l, sizeof(seen) - l, "%s%s", l ? ", " : "", w);
		}
		json_decref(wls);
		if (!nbase)
			snprintf(err, len, "%s: no results of baseline workload \"%s\" (present: %s)",
				 name, baseline, *seen ? seen : "none");
		else
			snprintf(err, len,
				 "%s: no overlapping runs: no other workload ran at the parameters "
				 "of \"%s\"", name, baseline);
		json_decref(rep);
		return -1;
	}
	finish(rep, o);
	aa_attach(rep, doc, name, o);
	*report = rep;
	return 0;
}

size_t cmp_regressions(const json_t *report)
{
	size_t i, n = 0;
	json_t *r;

	json_array_foreach(json_object_get(report, "rows"), i, r)
		n += !strcmp(res_str(r, "verdict", ""), "regressed");
	return n;
}

/* ---- output ---- */

static void fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (a >= 1e9)
		snprintf(buf, len, "%.4gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.4gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.4gk", v / 1e3);
	else
		snprintf(buf, len, "%.4g", v);
}

static void fmt_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 1e-4)
		snprintf(buf, len, "<1e-4");
	else
		snprintf(buf, len, "%.3g", p);
}

struct cells {
	char c[13][256];
};

static const char *const heads[13] = { "workload", "point", "metric", "A", "B", "delta",
				       "ratio [95% CI]", "p Welch", "p Holm", "p MW", "n A/B",
				       "verdict", "flags" };

static void row_cells(const json_t *r, int within, struct cells *c)
{
	char a[32], b[32], lo[32], hi[32];
	const json_t *ci = json_object_get(r, "ratio_ci95");
	double d = res_num(r, "delta_pct");
	json_t *fl = json_object_get(r, "flags"), *f;
	size_t i;

	if (within)
		snprintf(c->c[0], sizeof(c->c[0]), "%s vs %s", res_str(r, "b.workload", "?"),
			 res_str(r, "a.workload", "?"));
	else
		snprintf(c->c[0], sizeof(c->c[0]), "%s", res_str(r, "workload", "?"));
	snprintf(c->c[1], sizeof(c->c[1]), "%s", res_str(r, "point", ""));
	snprintf(c->c[2], sizeof(c->c[2]), "%s%s", res_str(r, "metric", "?"),
		 json_is_true(json_object_get(r, "lower_is_better")) ? " (lower better)" : "");
	fmt_num(res_num(r, "a.value"), c->c[3], sizeof(c->c[3]));
	fmt_num(res_num(r, "b.value"), c->c[4], sizeof(c->c[4]));
	if (isfinite(d))
		snprintf(c->c[5], sizeof(c->c[5]), "%+.1f%%", d);
	else
		snprintf(c->c[5], sizeof(c->c[5]), "-");
	double lov = json_is_number(json_array_get(ci, 0)) ? json_number_value(json_array_get(ci, 0)) : NAN;
	double hiv = json_is_number(json_array_get(ci, 1)) ? json_number_value(json_array_get(ci, 1)) : NAN;

	snprintf(lo, sizeof(lo), isfinite(lov) ? "%.3f" : "-", lov);
	snprintf(hi, sizeof(hi), isfinite(hiv) ? "%.3f" : "-", hiv);
	if (isfinite(res_num(r, "ratio")))
		snprintf(c->c[6], sizeof(c->c[6]), "%.3f [%s, %s]", res_num(r, "ratio"), lo, hi);
	else
		snprintf(c->c[6], sizeof(c->c[6]), "-");
	fmt_p(res_num(r, "welch_p"), c->c[7], sizeof(c->c[7]));
	fmt_p(res_num(r, "holm_p"), c->c[8], sizeof(c->c[8]));
	fmt_p(res_num(r, "mw_p"), a, sizeof(a));
	snprintf(c->c[9], sizeof(c->c[9]), "%s%s", a,
		 json_is_false(json_object_get(r, "mw_exact")) ? " (normal)" : "");
	snprintf(b, sizeof(b), "%.0f/%.0f", res_num(r, "a.n"), res_num(r, "b.n"));
	snprintf(c->c[10], sizeof(c->c[10]), "%s", b);
	snprintf(c->c[11], sizeof(c->c[11]), "%s", res_str(r, "verdict", "?"));
	c->c[12][0] = '\0';
	json_array_foreach(fl, i, f) {
		size_t l = strlen(c->c[12]);

		snprintf(c->c[12] + l, sizeof(c->c[12]) - l, "%s%s", l ? "; " : "",
			 json_string_value(f));
	}
}

static void print_list(FILE *f, const json_t *rep, const char *key, const char *prefix,
		       enum cmp_format fmt)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(rep, key), i, v) {
		if (fmt == CMP_HTML) {
			fprintf(f, "<p class=\"%s\">%s", key, prefix);
			html_esc(f, json_string_value(v));
			fputs("</p>\n", f);
		} else {
			fprintf(f, "%s%s%s\n", fmt == CMP_MARKDOWN ? "- " : "", prefix,
				json_string_value(v));
		}
	}
}

void cmp_print(FILE *f, const json_t *rep, enum cmp_format fmt)
{
	json_t *rows = json_object_get(rep, "rows"), *r, *v;
	size_t n = json_array_size(rows), i;
	int within = !strcmp(res_str(rep, "mode", ""), "within");
	struct cells *cs;
	int w[13] = { 0 }, groups = 0;

	if (fmt == CMP_JSON) {
		json_dumpf(rep, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f);
		return;
	}
	cs = calloc(n ? n : 1, sizeof(*cs));
	if (!cs)
		return;
	json_array_foreach(rows, i, r) {
		row_cells(r, within, &cs[i]);
		if (i && strcmp(res_str(r, "group", ""),
				res_str(json_array_get(rows, i - 1), "group", "")))
			groups = 1;
	}
	const char *h1 = fmt == CMP_MARKDOWN ? "### " : fmt == CMP_HTML ? "<h3>" : "";

	fprintf(f, "%sslicebench compare%s%s%s\n", h1,
		within ? ": every workload vs " : "", within ? res_str(rep, "baseline", "?") : "",
		fmt == CMP_HTML ? "</h3>" : "");
	if (fmt == CMP_HTML)
		fputs("<p>", f);
	fprintf(f,
		"noise band %.3g%%, alpha %.3g family-wise over %zu rows; the verdict follows "
		"Welch's t-test on log values (Holm-adjusted), the exact Mann-Whitney U "
		"p is a cross-check%s\n",
		res_num(rep, "threshold_pct"), res_num(rep, "alpha"), n,
		fmt == CMP_HTML ? "</p>" : fmt == CMP_MARKDOWN ? "\n" : "");
	json_array_foreach(json_object_get(rep, "files"), i, v) {
		if (fmt == CMP_HTML) {
			fputs("<p class=\"file\">", f);
			html_esc(f, res_str(v, "role", ""));
			fputs(": <code>", f);
			html_esc(f, res_str(v, "file", ""));
			fputs("</code>: ", f);
			html_esc(f, res_str(v, "meta", ""));
			fputs("</p>\n", f);
		} else {
			fprintf(f, "%s%s: %s: %s\n", fmt == CMP_MARKDOWN ? "- " : "  ",
				res_str(v, "role", ""), res_str(v, "file", ""), res_str(v, "meta", ""));
		}
	}
	print_list(f, rep, "warnings", "WARNING: ", fmt);
	print_list(f, rep, "notes", "note: ", fmt);
	aa_print(f, rep, fmt);
	if (fmt != CMP_HTML)
		fputc('\n', f);
	if (fmt == CMP_TEXT) {
		for (int k = 0; k < 13; k++)
			w[k] = (int)strlen(heads[k]);
		for (i = 0; i < n; i++)
			for (int k = 0; k < 13; k++)
				if ((int)strlen(cs[i].c[k]) > w[k])
					w[k] = (int)strlen(cs[i].c[k]);
		w[12] = 0; /* the last column is not padded */
	}
	const char *prev = NULL;

	if (fmt == CMP_HTML)
		fputs("<table class=\"compare\">\n<tr>", f);
	for (int k = 0; k < 13; k++) {
		if (fmt == CMP_TEXT)
			fprintf(f, "%-*s%s", w[k], heads[k], k < 12 ? "  " : "\n");
		else if (fmt == CMP_MARKDOWN)
			fprintf(f, "| %s %s", heads[k], k < 12 ? "" : "|\n");
		else
			fprintf(f, "<th>%s</th>%s", heads[k], k < 12 ? "" : "</tr>\n");
	}
	if (fmt == CMP_MARKDOWN)
		fprintf(f, "|---|---|---|--:|--:|--:|---|--:|--:|--:|--:|---|---|\n");
	json_array_foreach(rows, i, r) {
		const char *g = res_str(r, "group", "");

		if (groups && (!prev || strcmp(prev, g))) {
			if (fmt == CMP_TEXT)
				fprintf(f, "== %s ==\n", g);
			else if (fmt == CMP_MARKDOWN)
				fprintf(f, "| **%s** | | | | | | | | | | | | |\n", g);
			else {
				fputs("<tr><th colspan=\"13\">", f);
				html_esc(f, g);
				fputs("</th></tr>\n", f);
			}
		}
		prev = g;
		const char *verdict = cs[i].c[11];

		if (fmt == CMP_HTML)
			fprintf(f, "<tr class=\"%s\">", verdict);
		for (int k = 0; k < 13; k++) {
			const char *s = cs[i].c[k];

			if (fmt == CMP_TEXT) {
				fprintf(f, "%-*s%s", w[k], s, k < 12 ? "  " : "\n");
			} else if (fmt == CMP_MARKDOWN) {
				fputs("| ", f);
				for (; *s; s++) /* a '|' would split the cell */
					fputs(*s == '|' ? "\\|" : (char[]){ *s, 0 }, f);
				fprintf(f, " %s", k < 12 ? "" : "|\n");
			} else {
				fputs("<td>", f);
				html_esc(f, s);
				fputs(k < 12 ? "</td>" : "</td></tr>\n", f);
			}
		}
	}
	if (fmt == CMP_HTML)
		fputs("</table>\n", f);
	if (json_array_size(json_object_get(rep, "not_compared"))) {
		if (fmt == CMP_HTML)
			fputs("<p>not compared (no data on a side):</p>\n", f);
		else
			fprintf(f, "\nnot compared (no data on a side):\n");
		print_list(f, rep, "not_compared", "", fmt);
	}
	free(cs);
}

/* ---- the verb ---- */

static const struct cli_opt compare_opts[] = {
	{ 'm', "metric", "LIST", "comma-separated, repeatable (default ops_per_sec)" },
	{ 'f', "format", "FMT", "text | markdown | json | html (default text)" },
	{ 't', "threshold", "PCT", "noise band in percent (default 5)" },
	{ 'r', "fail-on-regression", NULL, "exit 1 when any row regressed" },
	{ 'o', "out", "FILE", "write there (temp file + rename; a new path or a\n"
			      "regular file, replaced), not stdout" },
	{ 'w', "within", "FILE", "compare workloads inside one file" },
	{ 'b', "baseline", "WL", "the baseline workload for --within" },
	{ 'h', "help", NULL, "this text" },
	{ 0 }
};

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: slicebench compare A.json B.json [C.json ...] [options]\n"
		"       slicebench compare --within A.json --baseline WORKLOAD [options]\n"
		"\n"
		"Pairs the results of each file with the baseline A by workload and\n"
		"parameters (duration, warm-up, repetitions, events and timeout do not\n"
		"define a point), or with --within every workload of one file with the\n"
		"baseline workload at the same run parameters.  A file may be a\n"
		"directory of result files; rows are then grouped by host / CPU / kernel.\n"
		"\n"
		"Statistics, per metric and pair, over one value per repetition:\n"
		"  ratio   B/A of the geometric means, with its 95%% CI from Welch's\n"
		"          t-test on log values (ratio-scale, skewed data; unequal\n"
		"          variances).  This test decides the verdict.\n"
		"  p MW    exact two-sided Mann-Whitney U, a distribution-free cross-check\n"
		"          (it cannot reach p < 0.05 below 4 repetitions per side).\n"
		"  p Holm  the Welch p after Holm's correction over all rows.\n"
		"  verdict improved / regressed when the Holm p < 0.05 and the ratio lies\n"
		"          outside the noise band; else inconclusive.  Lower-is-better\n"
		"          metrics (latencies) invert the sense.\n"
		"  flags   repetitions beyond 1.5 IQR or 3 MADs (flagged, never dropped).\n"
		"Meta differences that make a comparison suspect (CPU, PUs, VM accelerator,\n"
		"virtualization, suite version, HZ, preemption model) are warned about on\n"
		"stderr and in the table header; a different kernel is a note.  So are\n"
		"two VM results' guest timing floors (meta.vm.calibration) that differ.\n"
		"\n"
		"\n");
	cli_usage(f, compare_opts);
	fprintf(f, "\nmetrics:\n");
	for (size_t i = 0; cmp_metrics[i].name; i++)
		fprintf(f, "  %-18s %s\n", cmp_metrics[i].name, cmp_metrics[i].help);
	fprintf(f, "\nexit status: 0 done, 1 regression (with --fail-on-regression), 2 bad input\n");
}

static int cmp_parse_metrics(struct cmp_opts *o, const char *list, char *err, size_t len)
{
	char *dup = strdup(list), *save = NULL;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct cmp_metric *m = cmp_metric_find(t);

		if (!m) {
			snprintf(err, len, "--metric: unknown metric \"%s\" (see --help)", t);
			free(dup);
			return -1;
		}
		if (o->nmetrics == sizeof(o->metrics) / sizeof(o->metrics[0])) {
			snprintf(err, len, "--metric: too many metrics");
			free(dup);
			return -1;
		}
		o->metrics[o->nmetrics++] = m;
	}
	free(dup);
	return 0;
}

static int cmp_write_out(const char *path, const json_t *rep, enum cmp_format fmt, char *err,
		  size_t len)
{
	struct outfile o;

	if (!outfile_open(&o, path, err, len))
		return -1;
	cmp_print(o.f, rep, fmt);
	return outfile_commit(&o, err, len);
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05 };
	enum cmp_format fmt = CMP_TEXT;
	const char *out = NULL, *within = NULL, *baseline = NULL;
	int fail = 0, c, rc;
	char err[8192], *end;

	optind = 1;
	while ((c = cli_getopt(argc, argv, compare_opts)) != -1) {
		switch (c) {
		case 'm':
			if (cmp_parse_metrics(&o, optarg, err, sizeof(err))) {
				fprintf(stderr, "slicebench compare: %s\n", err);
				return EXIT_USAGE;
			}
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = CMP_TEXT;
			else if (!strcmp(optarg, "markdown"))
				fmt = CMP_MARKDOWN;
			else if (!strcmp(optarg, "json"))
				fmt = CMP_JSON;
			else if (!strcmp(optarg, "html"))
				fmt = CMP_HTML;
			else {
				fprintf(stderr, "slicebench compare: --format \"%s\": not one of "
						"text, markdown, json, html\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 't':
			o.threshold = strtod(optarg, &end) / 100;
			if (end == optarg || *end || !(o.threshold >= 0 && o.threshold < 10)) {
				fprintf(stderr, "slicebench compare: --threshold \"%s\": not a "
						"percentage in 0..1000\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r': fail = 1; break;
		case 'o': out = optarg; break;
		case 'w': within = optarg; break;
		case 'b': baseline = optarg; break;
		case 'h': compare_usage(stdout); return 0;
		default: compare_usage(stderr); return EXIT_USAGE;
		}
	}
	if (!o.nmetrics)
		o.metrics[o.nmetrics++] = cmp_metric_find("ops_per_sec");
	int nfiles = argc - optind;

	if (within ? (nfiles != 0 || !baseline) : (nfiles < 2 || baseline)) {
		fprintf(stderr, "slicebench compare: %s\n",
			within ? (baseline ? "--within takes no other files"
					   : "--within needs --baseline WORKLOAD")
			       : baseline ? "--baseline only goes with --within"
					  : "need a baseline and at least one file to compare");
		compare_usage(stderr);
		return EXIT_USAGE;
	}
	size_t nd = within ? 1 : (size_t)nfiles;
	const char *const *names = within ? &within : (const char *const *)&argv[optind];
	json_t **docs, *rep = NULL;

	rc = res_load_all("slicebench compare", names, nd, &docs);
	if (!rc) {
		int e = within ? cmp_within(docs[0], names[0], baseline, &o, &rep, err, sizeof(err))
			       : cmp_docs(docs, names, nd, &o, &rep, err, sizeof(err));

		if (e) {
			fprintf(stderr, "slicebench compare: %s\n", err);
			rc = 2;
		}
	}
	if (!rc) {
		size_t i;
		json_t *v;

		/* Suspect comparisons are said on stderr too, so a redirected
		 * table does not hide them. */
		json_array_foreach(json_object_get(rep, "warnings"), i, v)
			fprintf(stderr, "slicebench compare: WARNING: %s\n", json_string_value(v));
		if (out) {
			if (cmp_write_out(out, rep, fmt, err, sizeof(err))) {
				fprintf(stderr, "slicebench compare: %s\n", err);
				rc = 2;
			}
		} else {
			cmp_print(stdout, rep, fmt);
		}
		size_t nreg = cmp_regressions(rep);

		if (!rc && fail && nreg) {
			fprintf(stderr, "slicebench compare: %zu row(s) regressed beyond %.3g%%\n",
				nreg, 100 * o.threshold);
			rc = 1;
		}
	}
	res_free_all(docs, nd);
	json_decref(rep);
	return rc;
}
