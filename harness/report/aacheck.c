/* aacheck.c - A/A checks of the dry controls.
 *
 * A dry control (LOCK+POLICY+dry: the same loop, its request written to an
 * area the kernel never reads) stands for "the extension's code without
 * its grants" only if, where no grant can happen, it runs like the real
 * thing.  Under TCG that failed once: moving one store of the request from
 * after the lock's exchange to before it changed a single thread's
 * throughput about threefold.  So every dry control is checked at a point
 * where the kernel cannot act (one thread per PU, no noise, no victim):
 * real / dry ops/s must be equivalent within the smallest effect of
 * interest (by default the noise band).  The test is harness/lib/aatest.c's,
 * the one the runner stops on: arms that took turns are paired by round,
 * no covariate comes from the arms' own operations, and a window with no
 * operation stays in.  Verdicts:
 *   valid        equivalent: both one-sided tests of the log ratio
 *                against +-log(1 + margin) reject at alpha (TOST,
 *                Schuirmann 1987);
 *   invalid      the difference is significant and the ratio outside it;
 *   inconclusive neither: the check says what it could have detected
 *                (mde, 80% power at alpha).
 * A verdict that rests on a control carries the control's check beside
 * it (control_aa). */
#define _GNU_SOURCE
#include "aacheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmppair.h"
#include "textfmt.h"
#include "../core/keys.h"
#include "cmppower.h"
#include "resget.h"
#include "../lib/fields.h"
#include "../lib/aatest.h"
#include "../lib/stats.h"
#include "../lib/status.h"
#include "../lib/verdict.h"

#include <gsl/gsl_cdf.h>

/* params that must match between the real run and its control */
static int same_point(const json_t *a, const json_t *b)
{
	json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
	const char *const skip[] = { "workload", fld_key(fld_r_dry) };

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++) {
		json_object_del(x, skip[i]);
		json_object_del(y, skip[i]);
	}
	int eq = json_equal(x, y);

	json_decref(x);
	json_decref(y);
	return eq;
}

/* One thread per PU, nothing else runnable of ours: no noise, no victim. */
static int quiet_point(const json_t *r, double pus)
{
	const json_t *v = res_get(r, fld_r_victim);

	return res_num(r, fld_r_nthreads) == pus && res_num(r, fld_r_noise) == 0 &&
	       (!v || json_is_null(v) || res_num(r, fld_r_victim_threads) == 0);
}

/* The runner's check of an arm pair that stopped on it (harness/engine/aastop.c),
 * when both arms carry the same one: its looks spent alpha, so the verdict
 * is read at the level of one look, against the margin it was run for. */
static const json_t *run_check(const json_t *real, const json_t *dry)
{
	const json_t *a = json_object_get(json_object_get(dry, fld_r_interleave), "check");
	const json_t *b = json_object_get(json_object_get(real, fld_r_interleave), "check");

	if (!json_is_object(a) || !json_is_object(b) ||
	    !json_is_number(json_object_get(a, "level")) ||
	    !json_equal(json_object_get(a, "level"), json_object_get(b, "level")) ||
	    !json_equal(json_object_get(a, "n"), json_object_get(b, "n")))
		return NULL;
	return a;
}

/* Every window's ops/s, in the order they ran (0 for a window with no
 * operation: kept). */
static size_t windows_of(const json_t *r, double **ops)
{
	const json_t *reps = json_object_get(r, fld_r_reps), *x;
	size_t n = json_array_size(reps), i;
	double *v = calloc(n + 1, sizeof(*v));

	if (!v)
		abort();
	json_array_foreach(reps, i, x)
		v[i] = res_num(x, fld_ops_per_sec);
	*ops = v;
	return n;
}

/* The check of real against dry at level, margin band: by rounds when
 * both took turns in one interleaved point, else as two samples. */
static void aa_pair_test(const json_t *real, const json_t *dry, double band, double level,
			 struct aa_test *t)
{
	const json_t *pr = json_object_get(json_object_get(real, fld_r_interleave), "point");
	const json_t *pd = json_object_get(json_object_get(dry, fld_r_interleave), "point");
	double *vr, *vd;
	size_t nr = windows_of(real, &vr), nd = windows_of(dry, &vd);

	aa_test_run(vr, nr, vd, nd, json_is_integer(pr) && json_equal(pr, pd),
		    aa_floor(res_num(real, fld_r_duration)), band, level, CMP_POWER, t);
	free(vr);
	free(vd);
}

static json_t *check_pair(const json_t *real, const json_t *dry, const struct cmp_opts *o)
{
	double band = power_margin(o), level = o->alpha;
	struct aa_test t;
	const json_t *rc = run_check(real, dry);

	/* The margin the study stated for the check, unless compare was
	 * given one (--equiv). */
	if (rc) {
		level = json_number_value(json_object_get(rc, "level"));
		if (!(o->equiv > 0) && json_number_value(json_object_get(rc, "margin_pct")) > 0)
			band = json_number_value(json_object_get(rc, "margin_pct")) / 100;
	}
	aa_pair_test(real, dry, band, level, &t);
	const char *verdict = vd_name(t.decision > 0	 ? VD_VALID
				      : t.decision < 0 ? VD_INVALID
						       : VD_INCONCLUSIVE);
	json_t *j = aa_test_json(&t);

	json_object_update_new(j, json_pack("{s:s,s:s,s:O,s:f,s:s}", "control",
					     res_str(dry, fld_r_workload, "?"), "real",
					     res_str(real, fld_r_workload, "?"), "nthreads",
					     json_object_get(real, fld_r_nthreads), "band_pct",
					     100 * band, "verdict", verdict));

	/* The point's defining run keys (those not at their default), so a
	 * study with several A/A points says which is which. */
	char *key = cmp_point_key(real, 0, 1);
	json_t *point = key ? json_loads(key, 0, NULL) : NULL;

	free(key);
	if (point)
		json_object_set_new(j, "point", point);
	/* A study can check one point under two labels (its sweep's 1x and
	 * its longer aa arms): the label says which. */
	if (res_str(real, fld_r_label, NULL))
		json_object_set_new(j, "label", json_string(res_str(real, fld_r_label, "")));
	/* Arms that stopped on their check: the level of each of its looks,
	 * how many there were, and what stopped them. */
	if (rc)
		json_object_set_new(j, "sequential",
				    json_pack("{s:f,s:I,s:O,s:O}", "level", level, "looks",
					      (json_int_t)json_array_size(json_object_get(rc, "looks")),
					      "margin_pct", json_object_get(rc, "margin_pct"),
					      "stopped_by", json_object_get(rc, "stopped_by")));
	double g = res_num(real, fld_s_slice_grants);

	if (isfinite(g))
		json_object_set_new(j, "grants", json_real(g));
	/* The interleaved point its arms took turns in (supersede). */
	const json_t *ip = json_object_get(json_object_get(real, fld_r_interleave), "point");

	if (json_is_integer(ip))
		json_object_set(j, "interleave_point", (json_t *)ip);
	return j;
}

/* A study may check one control at one point twice: its sweep's quiet
 * point in short windows and its A/A arms in long ones, repeated until
 * narrow.  The check with the most windows of that control at that point
 * (ties: each) is the point's check; a shorter one is kept, marked
 * superseded_by the label that stands instead, and not counted.  Checks
 * whose arms took turns in one interleaved point (a study's aa and
 * aa-twin, each stopped by its own check) are copies of one design, not
 * a short and a long one: neither supersedes the other. */
static int same_il_point(const json_t *a, const json_t *b)
{
	const json_t *x = json_object_get(a, "interleave_point");

	return x && json_equal(x, json_object_get(b, "interleave_point"));
}

static double windows(const json_t *c)
{
	return res_num(c, "n_real") + res_num(c, "n_dry");
}

static void supersede(json_t *checks)
{
	size_t i, n = json_array_size(checks);
	char **key = calloc(n ? n : 1, sizeof(*key));
	json_t *best = json_object(), *c;

	if (!key)
		abort();
	json_array_foreach(checks, i, c) {
		json_t *pt = json_pack("{s:s,s:O,s:O}", "control", res_str(c, "control", "?"),
				       "nthreads", json_object_get(c, "nthreads"), "point",
				       json_object_get(c, "point") ? json_object_get(c, "point")
								   : json_null());
		const json_t *b;

		key[i] = json_dumps(pt, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(pt);
		if (!key[i])
			abort();
		b = json_object_get(best, key[i]);
		if (!b || windows(c) > windows(b))
			json_object_set(best, key[i], c);
	}
	json_array_foreach(checks, i, c) {
		const json_t *b = json_object_get(best, key[i]);

		if (windows(c) < windows(b) && !same_il_point(c, b))
			json_object_set_new(c, "superseded_by", json_string(res_str(b, "label", "?")));
		free(key[i]);
	}
	free(key);
	json_decref(best);
}

json_t *aa_checks(const json_t *doc, const struct cmp_opts *o)
{
	const json_t *res = json_object_get(doc, fld_results), *d, *r;
	json_t *out = json_array();
	size_t i, k;

	json_array_foreach(res, i, d) {
		const json_t *pd = json_object_get(d, fld_r_params);
		double pus = res_num(res_meta_of(doc, d), fld_m_pus);

		if (!json_is_true(res_get(d, fld_r_dry)) ||
		    !rs_is(res_str(d, fld_r_status, ""), RS_OK) || !quiet_point(d, pus))
			continue;
		/* The real run at the control's point, under the control's own
		 * label where there is one (a study's aa-twin arms pair with
		 * each other, not with the first copy). */
		const json_t *real = NULL;

		json_array_foreach(res, k, r) {
			const json_t *pr = json_object_get(r, fld_r_params);

			if (!json_is_false(res_get(r, fld_r_dry)) ||
			    !rs_is(res_str(r, fld_r_status, ""), RS_OK) || !same_point(pd, pr))
				continue;
			if (!real)
				real = r;
			if (!strcmp(res_str(r, fld_r_label, ""), res_str(d, fld_r_label, ""))) {
				real = r;
				break;
			}
		}
		if (real)
			json_array_append_new(out, check_pair(real, d, o));
	}
	supersede(out);
	return out;
}

/* True A/A pairs: the same workload at the same point declared twice
 * under two labels (the config runs such a point once per label).  Their
 * difference can only be noise, so the share of pairs that the check's
 * test (harness/lib/aatest.c) calls significant at alpha is the comparison's real false-positive rate:
 * near alpha when the repetitions are independent and the test's
 * assumptions hold, above it when drift or host load lands on one copy.
 * In an interleaved suite only copies of one interleaved point pair. */
/* The point a twin must share: the workload and its point, and in an
 * interleaved suite the same interleaved point, so that both copies took
 * turns (a study's 1x sweep and its A/A arms meet the same keys but run
 * apart, and drift between them is not noise of the test). */
static char *twin_key(const json_t *r)
{
	char *k = cmp_point_key(r, 1, 0), *out = NULL;
	const json_t *pt = json_object_get(json_object_get(r, fld_r_interleave), "point");

	if (!k || !json_is_integer(pt))
		return k;
	if (asprintf(&out, "%s #%lld", k, (long long)json_integer_value(pt)) < 0)
		abort();
	free(k);
	return out;
}

json_t *aa_twins(const json_t *doc, const struct cmp_opts *o)
{
	const json_t *res = json_object_get(doc, fld_results), *r;
	json_t *first = json_object(), *pairs = json_array();
	size_t i, npos = 0;

	json_array_foreach(res, i, r) {
		if (!rs_is(res_str(r, fld_r_status, ""), RS_OK) || !res_str(r, fld_r_label, NULL))
			continue;
		char *k = twin_key(r);
		json_t *f = k ? json_object_get(first, k) : NULL;

		if (k && !f)
			json_object_set(first, k, (json_t *)r);
		if (f && strcmp(res_str(f, fld_r_label, ""), res_str(r, fld_r_label, ""))) {
			struct aa_test t;

			aa_pair_test(r, f, power_margin(o), o->alpha, &t);
			const struct st_welch w = t.w;

			if (isfinite(w.p)) {
				int pos = w.p < o->alpha;

				npos += pos;
				json_array_append_new(
					pairs, json_pack("{s:s,s:s,s:s,s:O,s:f,s:f,s:b,s:b}", "workload",
							 res_str(r, fld_r_workload, "?"), "a_label",
							 res_str(f, fld_r_label, "?"), "b_label",
							 res_str(r, fld_r_label, "?"), "nthreads",
							 json_object_get(r, fld_r_nthreads)
								 ? json_object_get(r, fld_r_nthreads)
								 : json_null(),
							 "ratio", w.ratio, "p", w.p, "positive", pos,
							 "paired", t.paired));
			}
		}
		free(k);
	}
	json_decref(first);
	size_t n = json_array_size(pairs);

	if (!n) {
		json_decref(pairs);
		return NULL;
	}
	/* Clopper-Pearson interval of the rate (exact, from the beta quantiles). */
	double lo = npos ? gsl_cdf_beta_Pinv(0.025, (double)npos, (double)(n - npos) + 1) : 0;
	double hi = npos < n ? gsl_cdf_beta_Pinv(0.975, (double)npos + 1, (double)(n - npos)) : 1;

	return json_pack("{s:I,s:I,s:f,s:[f,f],s:f,s:o}", "pairs", (json_int_t)n, "positives",
			 (json_int_t)npos, "rate", (double)npos / (double)n, "rate_ci95", lo, hi,
			 "alpha", o->alpha, "list", pairs);
}

/* Whether check c's point can stand behind a row at rowpoint (compare's
 * "k=v ..." description): every key the row names, other than those the
 * check's quiet point sets apart (threads, pin, noise), holds the check's
 * value, or the key's default where the check's point leaves it out. */
static int point_agrees(const json_t *c, const char *rowpoint)
{
	const json_t *pt = json_object_get(c, "point");
	char *copy = strdup(rowpoint ? rowpoint : ""), *save = NULL, *tok;
	int ok = 1;

	if (!copy)
		abort();
	for (tok = strtok_r(copy, " ", &save); tok && ok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '='), want[96] = "";

		if (!eq)
			continue;
		*eq = '\0';
		if (!strcmp(tok, "threads") || !strcmp(tok, "pin") || !strcmp(tok, "noise"))
			continue;
		const json_t *v = json_object_get(pt, tok);
		const struct key_desc *d = v ? NULL : key_find(run_keys, tok);
		json_t *def = d && d->def ? json_loads(d->def, JSON_DECODE_ANY, NULL) : NULL;

		if (v || def)
			val_str(v ? v : def, want, sizeof(want));
		json_decref(def);
		if (v || def)
			ok = !strcmp(want, eq + 1);
	}
	free(copy);
	return ok;
}

/* The check that stands behind a row whose control is w, or NULL: among
 * the checks of w at the row's point that were not superseded by a longer
 * one, the one run under the row's label, else the one with the most repetitions
 * (a study's A/A arms repeat until narrow; its sweep's quiet point does
 * not). */
static const json_t *aa_for(const json_t *checks, const char *w, const json_t *row)
{
	const json_t *c, *best = NULL;
	const char *lab = res_str(row, "b.label", NULL);
	size_t i;

	json_array_foreach(checks, i, c) {
		if (strcmp(res_str(c, "control", ""), w) || json_object_get(c, "superseded_by") ||
		    !point_agrees(c, res_str(row, "point", "")))
			continue;
		if (lab && !strcmp(res_str(c, "label", ""), lab))
			return c;
		if (!best || res_num(c, "n_real") + res_num(c, "n_dry") >
				     res_num(best, "n_real") + res_num(best, "n_dry"))
			best = c;
	}
	return best;
}

void aa_attach(json_t *rep, const json_t *doc, const char *file, const struct cmp_opts *o)
{
	json_t *checks = aa_checks(doc, o), *c, *row;
	size_t i;

	if (!json_object_get(rep, "aa_checks"))
		json_object_set_new(rep, "aa_checks", json_array());
	json_array_foreach(checks, i, c) {
		json_object_set_new(c, "file", json_string(file));
		if (vd_is(res_str(c, "verdict", ""), VD_INVALID) &&
		    !json_object_get(c, "superseded_by"))
			json_array_append_new(
				json_object_get(rep, "warnings"),
				json_sprintf("%s: the control %s is invalid: at one thread per PU, "
					     "where no grant can happen, %s / %s = %.3f, outside the "
					     "%.3g%% band; a verdict against %s measures its stores too",
					     file, res_str(c, "control", "?"), res_str(c, "real", "?"),
					     res_str(c, "control", "?"), res_num(c, "ratio"),
					     res_num(c, "band_pct"), res_str(c, "control", "?")));
	}
	json_array_extend(json_object_get(rep, "aa_checks"), checks);
	json_t *tw = aa_twins(doc, o);

	if (tw) {
		json_object_set_new(tw, "file", json_string(file));
		if (!json_object_get(rep, "true_aa"))
			json_object_set_new(rep, "true_aa", json_array());
		json_array_append_new(json_object_get(rep, "true_aa"), tw);
	}
	json_array_foreach(json_object_get(rep, "rows"), i, row) {
		const json_t *x = aa_for(checks, res_str(row, "a.workload", ""), row);

		if (!x)
			x = aa_for(checks, res_str(row, "b.workload", ""), row);
		if (!x)
			continue;
		json_t *ca = json_pack("{s:s,s:s,s:O}", "control", res_str(x, "control", "?"),
				       "verdict", res_str(x, "verdict", "?"), "ratio",
				       json_object_get(x, "ratio") ? json_object_get(x, "ratio")
								   : json_null());

		if (res_str(x, "label", NULL))
			json_object_set_new(ca, "label", json_string(res_str(x, "label", "")));
		json_object_set(ca, "point", json_object_get(x, "point"));
		json_object_set_new(row, "control_aa", ca);
	}
	json_decref(checks);
}

void aa_print(FILE *f, const json_t *rep, enum cmp_format fmt)
{
	const json_t *checks = json_object_get(rep, "aa_checks"), *c;
	size_t i;

	if (fmt == CMP_JSON)
		return;
	json_array_foreach(json_object_get(rep, "true_aa"), i, c) {
		const json_t *ci = json_object_get(c, "rate_ci95");

		fprintf(f, "%s%s: true A/A (the same arm under two labels): %.0f of %.0f pairs "
			   "significant at %.3g, false-positive rate %.3g [%.3g, %.3g]%s\n",
			fmt == CMP_MARKDOWN ? "- " : fmt == CMP_HTML ? "<p>" : "",
			res_str(c, "file", "?"), res_num(c, "positives"), res_num(c, "pairs"),
			res_num(c, "alpha"), res_num(c, "rate"),
			json_number_value(json_array_get(ci, 0)),
			json_number_value(json_array_get(ci, 1)), fmt == CMP_HTML ? "</p>" : "");
	}
	if (!json_array_size(checks))
		return;
	size_t nv = 0, ni = 0, nc = 0, ns = 0;

	json_array_foreach(checks, i, c) {
		const char *v = res_str(c, "verdict", "");

		if (json_object_get(c, "superseded_by"))
			ns++;
		else
			vd_is(v, VD_VALID) ? nv++ : vd_is(v, VD_INVALID) ? ni++ : nc++;
	}
	char sup[96] = "";

	if (ns)
		snprintf(sup, sizeof(sup), "; %zu more superseded by a longer check of the same point",
			 ns);
	fprintf(f, "%sA/A checks of the controls (one thread per PU, no noise: real / dry "
		   "must be equivalent within the band, TOST): %zu valid, %zu invalid, %zu "
		   "inconclusive%s%s\n",
		fmt == CMP_MARKDOWN ? "\n**" : fmt == CMP_HTML ? "<p><b>" : "", nv, ni, nc, sup,
		fmt == CMP_MARKDOWN ? "**\n" : fmt == CMP_HTML ? "</b></p><ul>" : "");
	json_array_foreach(checks, i, c) {
		const json_t *ci = json_object_get(c, "ratio_ci95");
		char ratio[96] = "no ratio (a side has no repetitions)";

		if (json_object_get(c, "ratio"))
			snprintf(ratio, sizeof(ratio), "%s / %s = %.3f", res_str(c, "real", "?"),
				 res_str(c, "control", "?"), res_num(c, "ratio"));
		if (ci) {
			size_t l = strlen(ratio);

			snprintf(ratio + l, sizeof(ratio) - l, " [%.3f, %.3f]",
				 json_number_value(json_array_get(ci, 0)),
				 json_number_value(json_array_get(ci, 1)));
		}
		/* The point's keys beyond the thread count (a study may check
		 * its control at several critical-section lengths). */
		char at[160] = "";
		const char *k;
		json_t *v;

		json_object_foreach(json_object_get(c, "point"), k, v) {
			size_t l = strlen(at);

			if (!strcmp(k, "threads") || json_is_null(v) || l >= sizeof(at) - 1)
				continue;
			if (json_is_string(v))
				snprintf(at + l, sizeof(at) - l, " %s=%s", k, json_string_value(v));
			else if (json_is_number(v))
				snprintf(at + l, sizeof(at) - l, " %s=%g", k, json_number_value(v));
		}
		char power[352] = "";
		const json_t *sq = json_object_get(c, "sequential");

		if (vd_is(res_str(c, "verdict", ""), VD_INCONCLUSIVE) &&
		    isfinite(res_num(c, "mde")))
			snprintf(power, sizeof(power), " (could detect >= x%.3g)", res_num(c, "mde"));
		if (sq) {
			size_t l = strlen(power);
			const char *by = res_str(sq, "stopped_by", "?");

			snprintf(power + l, sizeof(power) - l,
				 "; the arms stopped %s after %.0f windows a side (%.0f looks at "
				 "%.3g each, margin +-%.3g%%)",
				 !strcmp(by, "check")	  ? "on the check"
				 : !strcmp(by, "maximum") ? "at repetitions_max"
							  : "when an arm ended",
				 res_num(c, "n_real"), res_num(sq, "looks"), res_num(sq, "level"),
				 res_num(c, "band_pct"));
		}
		const json_t *col = json_object_get(c, "collapsed");

		if (res_num(col, "real") > 0 || res_num(col, "dry") > 0) {
			size_t l = strlen(power);

			snprintf(power + l, sizeof(power) - l,
				 "; windows with no operation, kept at the floor: %.0f real, %.0f "
				 "dry",
				 res_num(col, "real"), res_num(col, "dry"));
		}
		char lab[80] = "";

		if (res_str(c, "label", NULL))
			snprintf(lab, sizeof(lab), " [%s]", res_str(c, "label", ""));
		if (json_object_get(c, "superseded_by")) {
			size_t l = strlen(power);

			snprintf(power + l, sizeof(power) - l, "; superseded by [%s]",
				 res_str(c, "superseded_by", "?"));
		}
		fprintf(f, "%s%s at %.0f threads%s%s%s%s: %s, grants %.0f: %s%s%s\n",
			fmt == CMP_MARKDOWN ? "- " : fmt == CMP_HTML ? "<li>" : "  ",
			res_str(c, "control", "?"), res_num(c, "nthreads"), *at ? " (" : "",
			*at ? at + 1 : "", *at ? ")" : "", lab, ratio,
			isfinite(res_num(c, "grants")) ? res_num(c, "grants") : 0,
			res_str(c, "verdict", "?"), power, fmt == CMP_HTML ? "</li>" : "");
	}
	if (fmt == CMP_HTML)
		fputs("</ul>\n", f);
	else if (fmt == CMP_MARKDOWN)
		fputc('\n', f);
}
