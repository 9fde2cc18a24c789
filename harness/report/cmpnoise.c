/* cmpnoise.c - run-to-run noise beside the within-run interval.
 *
 * A result's intervals come from its repetitions, all in one boot of one
 * machine.  Independent runs of the same config (fresh boots of the guest,
 * another day on the host) move more than that: the hybrid at 4x/10 us
 * came out 1.41 of adaptive in one run and 0.908 in the next, each with a
 * tight interval.  Given the same comparison made on K-1 more runs, each
 * row gets the spread of its ratio across the K runs, and its verdict is
 * decided on the wider of the two intervals. */
#define _GNU_SOURCE
#include "cmpnoise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "../lib/stats.h"
#include "resget.h"
#include "../lib/verdict.h"

/* Rows of two reports are the same comparison when these agree. */
static char *row_key(const json_t *r)
{
	char *k = NULL;

	if (asprintf(&k, "%s\x1f%s\x1f%s\x1f%s", res_str(r, "point", ""), res_str(r, "metric", ""),
		     res_str(r, "a.workload", ""), res_str(r, "b.workload", "")) < 0)
		abort(); /* a few bytes: no partial report */
	return k;
}

/* key -> array of the other runs' ratios of that row */
static json_t *ratios_by_key(json_t *const *others, size_t n)
{
	json_t *by = json_object(), *r;
	size_t i;

	for (size_t d = 0; d < n; d++)
		json_array_foreach(json_object_get(others[d], "rows"), i, r) {
			double x = res_num(r, "ratio");
			char *k;

			if (!isfinite(x) || x <= 0)
				continue;
			k = row_key(r);
			if (!json_object_get(by, k))
				json_object_set_new(by, k, json_array());
			json_array_append_new(json_object_get(by, k), json_real(x));
			free(k);
		}
	return by;
}

/* The run-to-run record of one row, and its verdict on the wider interval.
 * Returns 1 when the verdict changed. */
static int noise_row(json_t *r, const json_t *more)
{
	size_t k = json_array_size(more) + 1, i;
	double ratio = res_num(r, "ratio");
	json_t *v;

	if (!isfinite(ratio) || ratio <= 0 || k < 2)
		return 0;
	double *x = malloc(2 * k * sizeof(*x)), *lx = x + k; /* the K ratios, their logs */

	if (!x)
		abort(); /* a few bytes per row: no partial report */
	x[0] = ratio;
	json_array_foreach(more, i, v)
		x[i + 1] = json_number_value(v);
	for (i = 0; i < k; i++)
		lx[i] = log(x[i]);
	struct st_summary sr, sl;

	st_summarize(x, k, &sr);
	st_summarize(lx, k, &sl);
	free(x);
	double cv = sr.mean > 0 ? 100 * sr.stddev / sr.mean : 0.0, sdl = sl.stddev;
	/* One run's ratio against the truth: a single draw, so the interval
	 * is t * sd, not t * sd / sqrt(K). */
	double h = gsl_cdf_tdist_Pinv(0.975, (double)(k - 1)) * sdl;
	double lo = ratio * exp(-h), hi = ratio * exp(h);
	const json_t *ci = json_object_get(r, "ratio_ci95");
	double wlo = json_number_value(json_array_get(ci, 0));
	double whi = json_number_value(json_array_get(ci, 1));
	int wider = !(wlo > 0) || !(whi > 0) || h > fmax(log(whi / ratio), log(ratio / wlo));
	json_t *rr = json_pack("{s:I,s:f,s:[f,f],s:b}", "runs", (json_int_t)k, "cv_pct",
			       cv, "ratio_ci95", lo, hi, "wider", wider);
	json_t *all = json_array();

	json_array_append_new(all, json_real(ratio));
	json_array_extend(all, (json_t *)more);
	json_object_set_new(rr, "ratios", all);
	json_object_set_new(r, "run_to_run", rr);
	const char *verdict = res_str(r, "verdict", "");

	if (!wider || (!vd_is(verdict, VD_IMPROVED) && !vd_is(verdict, VD_REGRESSED)) ||
	    (lo > 1 || hi < 1))
		return 0;
	char why[160];

	snprintf(why, sizeof(why),
		 "within run-to-run noise (%zu runs, ratio CV %.1f%%, interval %.3f..%.3f)", k, cv,
		 lo, hi);
	json_object_set_new(r, "verdict_within_run", json_string(verdict));
	json_object_set_new(r, "verdict", json_string(vd_name(VD_INCONCLUSIVE)));
	json_object_set_new(r, "why", json_string(why));
	json_object_set_new(r, "reading", json_string(why));
	return 1;
}

int noise_attach(json_t *rep, json_t *const *others, const char *const *names, size_t n)
{
	json_t *by = ratios_by_key(others, n), *r, *files = json_array(), *none = json_array();
	size_t i, rows = 0, changed = 0, matched = 0;
	double cvs = 0, cvmax = 0;

	for (size_t d = 0; d < n; d++)
		json_array_append_new(files, json_string(names[d]));
	json_array_foreach(json_object_get(rep, "rows"), i, r) {
		char *k = row_key(r);
		json_t *more = json_object_get(by, k);

		free(k);
		rows++;
		if (!more) {
			json_array_append_new(none, json_sprintf("%s: %s vs %s at %s",
								 res_str(r, "metric", ""),
								 res_str(r, "b.workload", ""),
								 res_str(r, "a.workload", ""),
								 res_str(r, "point", "")));
			continue;
		}
		changed += (size_t)noise_row(r, more);
		if (json_object_get(r, "run_to_run")) {
			double cv = res_num(r, "run_to_run.cv_pct");

			matched++;
			cvs += cv;
			cvmax = fmax(cvmax, cv);
		}
	}
	json_decref(by);
	json_object_set_new(rep, "run_to_run",
			    json_pack("{s:o,s:I,s:I,s:I,s:f,s:f,s:o}", "files", files, "rows",
				      (json_int_t)rows, "rows_with_runs", (json_int_t)matched,
				      "verdicts_changed", (json_int_t)changed, "cv_pct_mean",
				      matched ? cvs / (double)matched : 0.0, "cv_pct_max", cvmax,
				      "rows_without_runs", none));
	if (json_array_size(none))
		json_array_append_new(json_object_get(rep, "warnings"),
				      json_sprintf("%zu of %zu rows have no counterpart in the --noise "
						   "runs: their verdicts rest on the within-run interval "
						   "alone", json_array_size(none), rows));
	return 0;
}

void noise_print(FILE *f, const json_t *rep, enum cmp_format fmt)
{
	const json_t *n = json_object_get(rep, "run_to_run"), *r;
	size_t i;

	if (!n || fmt == CMP_JSON)
		return;
	const char *li = fmt == CMP_MARKDOWN ? "- " : fmt == CMP_HTML ? "<li>" : "  ";
	const char *end = fmt == CMP_HTML ? "</li>" : "";

	fprintf(f, "%sRun-to-run noise: %.0f independent runs, %.0f of %.0f rows matched; ratio "
		   "CV mean %.1f%%, max %.1f%%; verdicts decided on the wider interval, %.0f "
		   "changed%s\n",
		fmt == CMP_MARKDOWN ? "\n**" : fmt == CMP_HTML ? "<p><b>" : "",
		(double)json_array_size(json_object_get(n, "files")) + 1,
		res_num(n, "rows_with_runs"), res_num(n, "rows"), res_num(n, "cv_pct_mean"),
		res_num(n, "cv_pct_max"), res_num(n, "verdicts_changed"),
		fmt == CMP_MARKDOWN ? "**\n" : fmt == CMP_HTML ? "</b></p><ul>" : "");
	json_array_foreach(json_object_get(rep, "rows"), i, r) {
		if (!json_object_get(r, "verdict_within_run"))
			continue;
		fprintf(f, "%s%s vs %s at %s: %s within the run, %s%s\n", li,
			res_str(r, "b.workload", "?"), res_str(r, "a.workload", "?"),
			res_str(r, "point", "?"), res_str(r, "verdict_within_run", "?"),
			res_str(r, "why", "?"), end);
	}
	if (fmt == CMP_HTML)
		fputs("</ul>\n", f);
}
