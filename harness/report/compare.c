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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aacheck.h"
#include "calfloor.h"
#include "cmppair.h"
#include "cmppower.h"
#include "cmpsched.h"
#include "cmptime.h"
#include "../lib/fields.h"
#include "../core/keys.h"
#include "resget.h"
#include "../lib/stats.h"
#include "textfmt.h"
#include "../lib/status.h"
#include "../lib/verdict.h"

/* A latency: one percentile of a distribution in a repetition (rep_<id>)
 * and in the summary (s_<id>); lower is better, and the median of the
 * repetitions is shown (one slow repetition moves a tail's mean).  The
 * paths are the field table's (harness/lib/fields.h). */
#define LATENCY(name, id, help) { name, fld_##id, NULL, fld_s_##id, "ns", 1, 1, help }

const struct cmp_metric cmp_metrics[] = {
	{ "ops_per_sec", fld_ops_per_sec, NULL, fld_s_ops_mean, "ops/s", 0, 0,
	  "critical sections per second (higher is better)" },
	{ "fairness", fld_jain, NULL, fld_s_jain, "", 0, 0,
	  "Jain's index over threads (higher is better)" },
	LATENCY("p50_hold", hold_p50, "median hold time"),
	LATENCY("p99_hold", hold_p99, "p99 hold time"),
	LATENCY("p999_hold", hold_p99_9, "p99.9 hold time"),
	LATENCY("p50_acquire", acq_p50, "median acquire latency"),
	LATENCY("p99_acquire", acq_p99, "p99 acquire latency"),
	LATENCY("p999_acquire", acq_p99_9, "p99.9 acquire latency"),
	LATENCY("p9999_acquire", acq_p99_99, "p99.99 acquire latency"),
	LATENCY("victim_p99", victim_p99, "victim wakeup latency p99"),
	LATENCY("victim_p999", victim_p99_9, "victim wakeup latency p99.9"),
	LATENCY("victim_p9999", victim_p99_99, "victim wakeup latency p99.99"),
	LATENCY("victim_max", victim_max, "victim worst wakeup"),
	{ "ctxsw_per_op", fld_ctxsw_value, fld_ops, fld_s_ctxsw_op, "", 1, 0,
	  "context switches per operation" },
	{ "tsc_cycles_per_op", fld_tsc_cycles, fld_ops, fld_s_tsc_op, "cycles", 1, 0,
	  "TSC cycles per operation (wall time x PUs)" },
	{ "gettid_per_xadd", fld_prim_ratio, NULL, fld_s_prim_ratio, "", 0, 0,
	  "a system call's cost in atomic adds (the primitives workload)" },
	/* over every grant of every repetition: one value per result */
	{ "grant_hmean", NULL, NULL, fld_s_ext_hmean, "ns", 0, 0,
	  "harmonic mean of grant durations, expired grants left out (the kernel's)" },
	{ "grant_p50", NULL, NULL, fld_s_ext_p50, "ns", 0, 0, "median grant duration" },
	{ NULL },
};

const struct cmp_metric *cmp_metric_find(const char *name)
{
	for (size_t i = 0; cmp_metrics[i].name; i++)
		if (!strcmp(cmp_metrics[i].name, name))
			return &cmp_metrics[i];
	return NULL;
}


/* Per-repetition values of a metric (all of them, res_rep_values), or the
 * summary's single value, in a new array *out. */
size_t cmp_metric_values(const json_t *r, const struct cmp_metric *m, double **out,
			 int *from_summary)
{
	size_t n = m->rep_path ? res_rep_values(r, m->rep_path, m->div_path, out) : 0;

	if (!m->rep_path && !(*out = malloc(sizeof(**out))))
		abort();

	*from_summary = 0;
	if (n || !*out)
		return n;
	double v = res_num(r, m->sum_path);

	if (isfinite(v)) {
		(*out)[0] = v;
		*from_summary = 1;
		return 1;
	}
	return 0;
}

static json_t *values_json(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_real(x[i]));
	return a;
}

/* "A#2 outlier (1.5 IQR, 3 MAD)" for each repetition of one side that
 * st_outliers flags (flagged, never dropped). */
static void flag_outliers(json_t *flags, char side, const double *x, size_t n)
{
	int *fl = calloc(n ? n : 1, sizeof(*fl));

	if (!fl)
		return;
	st_outliers(x, n, fl);
	for (size_t i = 0; i < n; i++)
		if (fl[i])
			json_array_append_new(flags, json_sprintf("%c#%zu outlier (%s%s%s)", side,
								  i + 1, fl[i] & 1 ? "1.5 IQR" : "",
								  fl[i] == 3 ? ", " : "",
								  fl[i] & 2 ? "3 MAD" : ""));
	free(fl);
}

/* One row: metric m of result ra (baseline) against rb. */
static json_t *make_row(const json_t *ra, const json_t *rb, const char *fa, const char *fb,
			const struct cmp_metric *m, const char *point, const char *group)
{
	double *a, *b;
	int sa, sb;
	size_t na = cmp_metric_values(ra, m, &a, &sa), nb = cmp_metric_values(rb, m, &b, &sb);

	if (!na || !nb) {
		free(a);
		free(b);
		return NULL;
	}
	struct st_welch w;
	int exact, ties;
	double mw = st_mann_whitney(a, na, b, nb, &exact, &ties);
	double ca = st_center(a, na, m->use_median), cb = st_center(b, nb, m->use_median);
	json_t *flags = json_array(), *row;

	st_welch_log(a, na, b, nb, &w);
	flag_outliers(flags, 'A', a, na);
	flag_outliers(flags, 'B', b, nb);
	if (sa || sb)
		json_array_append_new(flags, json_string("summary only: no repetitions, no test"));
	if (ties)
		json_array_append_new(flags, json_string("ties"));
	row = json_pack("{s:s,s:s,s:s,s:s,s:s,s:b,s:{s:s,s:s,s:I,s:f,s:o,s:O},"
			"s:{s:s,s:s,s:I,s:f,s:o,s:O}}",
			"group", group, "workload", res_str(ra, fld_r_workload, "?"), "point", point,
			"metric", m->name, "unit", m->unit, "lower_is_better", m->lower_better, "a",
			"file", fa, "workload", res_str(ra, fld_r_workload, "?"), "n", (json_int_t)na,
			"value", ca, "values", values_json(a, na), "nthreads",
			json_object_get(ra, fld_r_nthreads) ? json_object_get(ra, fld_r_nthreads)
							: json_null(),
			"b", "file", fb, "workload", res_str(rb, fld_r_workload, "?"), "n",
			(json_int_t)nb, "value", cb, "values", values_json(b, nb), "nthreads",
			json_object_get(rb, fld_r_nthreads) ? json_object_get(rb, fld_r_nthreads)
							: json_null());
	if (!row) {
		free(a);
		free(b);
		json_decref(flags);
		return NULL;
	}
#define NUM(x) (isfinite(x) ? json_real(x) : json_null())
	json_object_set_new(row, "ratio", NUM(w.ratio));
	json_object_set_new(row, "ratio_ci95", json_pack("[o,o]", NUM(w.lo), NUM(w.hi)));
	json_object_set_new(row, "welch_t", NUM(w.t));
	json_object_set_new(row, "welch_df", NUM(w.df));
	json_object_set_new(row, "welch_se", NUM(w.se));
	json_object_set_new(row, "welch_p", NUM(w.p));
	json_object_set_new(row, "mw_p", NUM(mw));
	json_object_set_new(row, "mw_exact", json_boolean(exact));
	json_object_set_new(row, "flags", flags);
	power_collapse(row, m, a, na, b, nb);
	power_states(row, m, a, na, b, nb);
	free(a);
	free(b);
	/* The mechanism's rate beside the ratio: a throughput ratio where
	 * the extension almost never fires measures stores and protocol. */
	double ga = res_num(ra, fld_s_grants_k);
	double gb = res_num(rb, fld_s_grants_k);

	if (isfinite(ga))
		json_object_set_new(json_object_get(row, "a"), "grants_per_1000_ops", json_real(ga));
	if (isfinite(gb))
		json_object_set_new(json_object_get(row, "b"), "grants_per_1000_ops", json_real(gb));
	/* How far a grant can outlast the section it guards: the extension
	 * in force on a slice arm's side over the control's median hold,
	 * which the request cannot have shortened.  A boot's time scale
	 * sets the extension, not the section (docs/vm.md). */
	double ext = res_num(rb, fld_r_ext_nsec), hold = res_num(ra, fld_s_hold_p50);

	if (isfinite(gb) && ext > 0 && hold > 0)
		json_object_set_new(json_object_get(row, "b"), "extension_over_hold", json_real(ext / hold));
	/* What the scheduler did in the windows: holders switched out,
	 * rounds per window. */
	cmp_sched(row, flags, ra, rb);
	cmp_time_sides(row, ra, rb);
	/* The config's labels: two rows can share a point under two labels. */
	if (res_str(ra, fld_r_label, NULL))
		json_object_set_new(json_object_get(row, "a"), "label",
				    json_string(res_str(ra, fld_r_label, "")));
	if (res_str(rb, fld_r_label, NULL))
		json_object_set_new(json_object_get(row, "b"), "label",
				    json_string(res_str(rb, fld_r_label, "")));
	if (!w.ok && !json_object_get(row, "collapse"))
		json_array_append_new(flags, json_string("values <= 0: no log test"));
	return row;
}

static json_t *report_new(const struct cmp_opts *o, const char *mode)
{
	json_t *mets = json_array();

	for (size_t i = 0; i < o->nmetrics; i++)
		json_array_append_new(mets, json_string(o->metrics[i]->name));
	return json_pack("{s:s,s:s,s:f,s:f,s:f,s:f,s:o,s:[],s:[],s:[],s:[],s:[]}", "schema",
			 "slicebench-compare/1", "mode", mode, "threshold_pct",
			 100 * o->threshold, "alpha", o->alpha, "power", CMP_POWER,
			 "equivalence_pct", 100 * power_margin(o), "metrics", mets, "files",
			 "warnings", "notes", "not_compared", "rows");
}

/* Appends s to rep[key] once: the strings seen are kept in a hidden
 * " seen" object, so thousands of notes stay linear.  finish removes it
 * after its own last note: no add_str may follow finish. */
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
		{ fld_m_cpu_model, "CPU model", 1 },
		{ fld_m_pus, "PU count", 1 },
		{ fld_m_virt_kind, "virtualization", 1 },
		{ fld_m_vm_accel, "VM accelerator", 1 },
		{ fld_m_suite_version, "suite version", 1 },
		{ fld_m_hz, "HZ", 1 },
		{ fld_m_preempt_model, "preemption model", 1 },
		{ fld_m_preempt_variant, "kernel variant", 1 },
		{ fld_m_slice_available, "slice extension availability", 1 },
		{ fld_m_kernel_release, "kernel release", 0 },
		{ fld_m_host, "host", 0 },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *va = res_get(ma, keys[i].path), *vb = res_get(mb, keys[i].path);
		char sa[128], sb[128];

		if (json_equal(va, vb) || (!va && !vb))
			continue;
		if (keys[i].path == fld_m_vm_accel) {
			res_where(ma, sa, sizeof(sa));
			res_where(mb, sb, sizeof(sb));
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
	const char *sa = res_str(ra, fld_r_status, "?"), *sb = res_str(rb, fld_r_status, "?");

	cmp_point_desc(ra, var, point, sizeof(point));
	res_group(res_meta_of(doca, ra), group, sizeof(group));
	if (!rs_is(sa, RS_OK) || !rs_is(sb, RS_OK)) {
		add_str(rep, "not_compared",
			json_sprintf("%s %s: A %s, %s %s%s%s", res_str(ra, fld_r_workload, "?"), point, sa,
				     fb, sb, !rs_is(sb, RS_OK) && res_str(rb, fld_r_reason, NULL) ? ": " : "",
				     !rs_is(sb, RS_OK) ? res_str(rb, fld_r_reason, "") : ""));
		return;
	}
	double nta = res_num(ra, fld_r_nthreads), ntb = res_num(rb, fld_r_nthreads);

	if (isfinite(nta) && isfinite(ntb) && nta != ntb)
		add_str(rep, "warnings",
			json_sprintf("%s %s: %.0f threads in A but %.0f in %s (\"Nx\" follows the "
				     "PU count)", res_str(ra, fld_r_workload, "?"), point, nta, ntb, fb));
	const char *ga = res_str(ra, fld_r_rseq_reg_kind, NULL);
	const char *gb = res_str(rb, fld_r_rseq_reg_kind, NULL);

	if (ga && gb && strcmp(ga, gb))
		add_str(rep, "warnings",
			json_sprintf("%s %s: rseq registration differs: A \"%s\" vs %s \"%s\" (the "
				     "kernel's rseq work on return to user space differs, not only "
				     "the requests)", res_str(ra, fld_r_workload, "?"), point, ga, fb, gb));
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

	power_decide(rows, o);
	json_array_foreach(rows, i, r) {
		cmp_time_row(r);
		if (res_num(r, "a.n") < 4 || res_num(r, "b.n") < 4)
			small++;
	}
	if (small)
		add_str(rep, "notes",
			json_sprintf("%zu row(s) have fewer than 4 repetitions on a side: the exact "
				     "Mann-Whitney p cannot reach 0.05 there (its minimum is "
				     "2/C(2n,n)); Welch on logs still decides", small));
	json_object_del(rep, " seen");
}

/* Appends i to the queue of point k in by (an array per point, in file
 * order): the results of one point pair in the order they came. */
static void queue_push(json_t *by, const char *k, size_t i)
{
	json_t *q = json_object_get(by, k);

	if (!q)
		json_object_set_new(by, k, q = json_array());
	json_array_append_new(q, json_integer((json_int_t)i));
}

int cmp_docs(json_t *const *docs, const char *const *names, size_t ndocs,
	     const struct cmp_opts *o, json_t **report, char *err, size_t len)
{
	json_t *rep = report_new(o, "files");
	json_t *ares = json_object_get(docs[0], fld_results);
	size_t na = json_array_size(ares), paired = 0;

	*report = NULL;
	for (size_t d = 0; d < ndocs; d++) {
		char ml[512];

		res_meta_line(json_object_get(docs[d], fld_meta), ml, sizeof(ml));
		json_array_append_new(json_object_get(rep, "files"),
				      json_pack("{s:s,s:s,s:s}", "role",
						d ? "B" : "A (baseline)", "file", names[d], "meta",
						ml));
	}
	for (size_t d = 1; d < ndocs; d++) {
		json_t *bres = json_object_get(docs[d], fld_results);
		size_t nb = json_array_size(bres), nall = na + nb, pd = 0;
		json_t **all = malloc((nall ? nall : 1) * sizeof(*all));
		char **ka = calloc(na ? na : 1, sizeof(char *)), **kb = calloc(nb ? nb : 1, sizeof(char *));
		json_t *bykey = json_object(), *var;
		char lbl[16];

		snprintf(lbl, sizeof(lbl), ndocs > 2 ? "B%zu" : "B", d);
		for (size_t i = 0; i < na; i++) {
			all[i] = json_array_get(ares, i);
			ka[i] = cmp_point_key(all[i], 1, 0);
		}
		/* B's results by point, each a queue in file order. */
		for (size_t i = 0; i < nb; i++) {
			all[na + i] = json_array_get(bres, i);
			kb[i] = cmp_point_key(all[na + i], 1, 0);
			if (kb[i])
				queue_push(bykey, kb[i], i);
		}
		var = cmp_variation(all, nall);
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
	json_t *res = json_object_get(doc, fld_results), *r, *b;
	size_t n = json_array_size(res), i, nbase = 0, paired = 0;
	json_t *rep = report_new(o, "within");
	json_t **all = malloc((n ? n : 1) * sizeof(*all));
	char ml[512];

	*report = NULL;
	res_meta_line(json_object_get(doc, fld_meta), ml, sizeof(ml));
	json_array_append_new(json_object_get(rep, "files"),
			      json_pack("{s:s,s:s,s:s}", "role", "A and B", "file", name, "meta",
					ml));
	json_object_set_new(rep, "baseline", json_string(baseline));
	/* The other workloads' results by run point, in file order: one pass
	 * each way, not baseline x results. */
	json_t *bykey = json_object(), *var;

	json_array_foreach(res, i, r) {
		all[i] = r;
		if (!strcmp(res_str(r, fld_r_workload, ""), baseline))
			continue;
		char *k = cmp_point_key(r, 0, 1);

		if (k)
			queue_push(bykey, k, i);
		free(k);
	}
	var = cmp_variation(all, n);
	/* A point's baseline can appear under several labels: a true A/A
	 * pair, or a study's longer A/A arms at a point another label also
	 * runs.  A result pairs with the baseline of its own label, and one
	 * whose label has no baseline there with the point's first, so no
	 * row is doubled and no arm meets another label's control. */
	json_t *based = json_object();

	json_array_foreach(res, i, b) {
		if (!strcmp(res_str(b, fld_r_workload, ""), baseline)) {
			char *kb = cmp_point_key(b, 0, 1);

			if (kb) {
				json_t *labels = json_object_get(based, kb);

				if (!labels)
					json_object_set_new(based, kb, labels = json_object());
				if (!json_object_get(labels, res_str(b, fld_r_label, "")))
					json_object_set_new(labels, res_str(b, fld_r_label, ""),
							    json_integer((json_int_t)i));
				if (!json_object_get(labels, " first"))
					json_object_set_new(labels, " first",
							    json_integer((json_int_t)i));
			}
			free(kb);
		}
	}
	json_array_foreach(res, i, b) {
		if (strcmp(res_str(b, fld_r_workload, ""), baseline))
			continue;
		nbase++;
		char *kbase = cmp_point_key(b, 0, 1);
		json_t *labels = kbase ? json_object_get(based, kbase) : NULL;
		json_t *q = kbase ? json_object_get(bykey, kbase) : NULL, *jv;
		size_t qi;

		json_array_foreach(q, qi, jv) {
			r = all[json_integer_value(jv)];
			json_t *own = json_object_get(labels, res_str(r, fld_r_label, ""));
			json_t *mine = own ? own : json_object_get(labels, " first");

			if (json_integer_value(mine) != (json_int_t)i)
				continue;
			add_rows(rep, b, r, baseline, res_str(r, fld_r_workload, "?"), o, var, doc);
			paired++;
		}
		free(kbase);
	}
	json_decref(var);
	json_decref(bykey);
	json_decref(based);
	free(all);
	if (!nbase || !paired) {
		char seen[512] = "";
		json_t *wls = json_object();
		const char *w;

		json_array_foreach(res, i, r)
			json_object_set_new(wls, res_str(r, fld_r_workload, "?"), json_true());
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
		n += vd_is(res_str(r, "verdict", ""), VD_REGRESSED) ||
		     vd_is(res_str(r, "collapse.verdict", ""), VD_REGRESSED);
	return n;
}
