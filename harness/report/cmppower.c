/* cmppower.c - the verdicts of `slicebench compare`, and what each row
 * could have seen.
 *
 * A row is improved or regressed when its test, after Holm's step-down over
 * its family, is significant and the ratio lies outside the noise band.  The
 * family is the report's rows, or a study's primary contrasts sharing
 * alpha (question.c); an exploratory row (compare --exploratory) is tested
 * on its own at alpha and says so.  Every other row says why it is not: a
 * non-significant result is evidence of absence only when the test could
 * have seen an effect.  So each row carries
 *   - its minimum detectable effect, from the design: the smallest ratio a
 *     two-sided Welch test at the level the row is sure to be tested at
 *     (alpha / m over a family of m tests: Holm's first step, Bonferroni's
 *     level; alpha for an exploratory row) detects with 80% power, from n
 *     and the measured spread (d = (t(1-a/2) + t(power)) * se, e.g. Cohen,
 *     Statistical Power Analysis, 1988, ch. 2).  Never from the row's p or
 *     its rank: rows of the same spread and n read the same MDE.  Where the
 *     level is not alpha, the unadjusted MDE stands beside it;
 *   - an equivalence test: two one-sided Welch tests of the log ratio
 *     against +-log(1 + margin) (Schuirmann, J Pharmacokinet Biopharm 15,
 *     1987), Holm-corrected over the rows as a family of their own; by
 *     default the margin is the noise band.
 * An inconclusive row then reads "equivalent within +-5%" or
 * "underpowered: could detect >= x1.9".
 *
 * A window without a single operation is a result, not missing data: logs
 * cannot take it, so such a throughput row is decided by the exact
 * Mann-Whitney test on the per-window values instead, and its verdict is
 * "collapsed".
 *
 * Windows can also fall into two states, each window in one for its whole
 * length (an MCS queue in a convoy or out of it): the logs then spread so
 * far that no number of windows brings the ratio's MDE near x1.25, and the
 * measure that describes the row is the share of windows in each state.
 * Where the windows of both sides, sorted, leave a gap of x10 or more with
 * none between, and one side has at least two windows on each side of it,
 * the row carries states: the cut, each side's windows above it, Fisher's
 * exact test of the two shares, and the smallest change of the control's
 * share the design detects (Cohen's h at the row's level). */
#define _GNU_SOURCE
#include "cmppower.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmppair.h"
#include "resget.h"
#include "../lib/fields.h"
#include "../lib/stats.h"
#include "../lib/verdict.h"

#define NUM(x) (isfinite(x) ? json_real(x) : json_null())

double power_margin(const struct cmp_opts *o)
{
	return o->equiv > 0 ? o->equiv : o->threshold;
}

void power_collapse(json_t *row, const struct cmp_metric *m, const double *a, size_t na,
		    const double *b, size_t nb)
{
	size_t za = 0, zb = 0;

	if (!m->rep_path || strcmp(m->rep_path, fld_ops_per_sec) || m->div_path)
		return;
	for (size_t i = 0; i < na; i++)
		za += a[i] == 0;
	for (size_t i = 0; i < nb; i++)
		zb += b[i] == 0;
	if (za || zb)
		json_object_set_new(row, "collapse",
				    json_pack("{s:I,s:I,s:I,s:I}", "a", (json_int_t)za, "a_n",
					      (json_int_t)na, "b", (json_int_t)zb, "b_n",
					      (json_int_t)nb));
}

/* Two windows this far apart, with none between, are in two states. */
#define STATE_GAP 10.0

static size_t count_above(const double *x, size_t n, double cut)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += x[i] > cut;
	return k;
}

/* Whether k of n windows leave at least two on each side of the cut. */
static int split(size_t k, size_t n)
{
	return k >= 2 && n - k >= 2;
}

void power_states(json_t *row, const struct cmp_metric *m, const double *a, size_t na,
		  const double *b, size_t nb)
{
	double cut, gap;

	if (!m->rep_path || strcmp(m->rep_path, fld_ops_per_sec) || m->div_path || na < 2 || nb < 2)
		return;
	/* NAN where a window had no operation: the collapse's rank test. */
	gap = st_widest_gap(a, na, b, nb, &cut);
	if (!(gap >= STATE_GAP))
		return;
	size_t ka = count_above(a, na, cut), kb = count_above(b, nb, cut);

	if (split(ka, na) || split(kb, nb))
		json_object_set_new(row, "states",
				    json_pack("{s:f,s:f,s:I,s:I,s:I,s:I,s:f}", "cut", cut, "gap", gap,
					      "a", (json_int_t)ka, "a_n", (json_int_t)na, "b",
					      (json_int_t)kb, "b_n", (json_int_t)nb, "fisher_p",
					      st_fisher(ka, na, kb, nb)));
}

/* A two-state row's share test beside its verdict: the shares above the
 * cut, Fisher's p at the row's level, the change of the control's share
 * the design detects. */
static void states_note(json_t *r, double level)
{
	json_t *s = json_object_get(r, "states");
	double ka = res_num(s, "a"), na = res_num(s, "a_n"), kb = res_num(s, "b"),
	       nb = res_num(s, "b_n"), p = res_num(s, "fisher_p");
	int lower = json_is_true(json_object_get(r, "lower_is_better"));
	const char *dir = vd_name(VD_NOT_SIGNIFICANT);
	char buf[768];

	if (!s)
		return;
	double mde = st_share_mde(ka / na, (size_t)na, (size_t)nb, level, CMP_POWER);

	if (p < level && kb / nb != ka / na)
		dir = vd_name((kb / nb > ka / na) != lower ? VD_IMPROVED : VD_REGRESSED);
	json_object_set_new(s, "verdict", json_string(dir));
	json_object_set_new(s, "mde_share", isfinite(mde) ? json_pack("{s:f,s:f,s:f}", "share",
								      mde, "alpha", level, "power",
								      CMP_POWER)
							  : json_null());
	snprintf(buf, sizeof(buf), "%s; two states x%.3g apart: above %.3g in %.0f of %.0f "
		 "windows (b) vs %.0f of %.0f (a), Fisher p %.2g, %s; the share could move "
		 ">= %.0f points and be seen", res_str(r, "reading", res_str(r, "verdict", "?")),
		 res_num(s, "gap"), res_num(s, "cut"), kb, nb, ka, na, p, dir, 100 * mde);
	json_object_set_new(r, "reading", json_string(buf));
}

/* The p the row's verdict rests on. */
static double test_p(const json_t *r)
{
	const char *k = json_object_get(r, "collapse") ? "mw_p" : "welch_p";

	return json_is_number(json_object_get(r, k)) ? json_number_value(json_object_get(r, k))
						     : NAN;
}

/* The Welch test of a row, back from its JSON. */
static struct st_welch row_welch(const json_t *r)
{
	struct st_welch w = { .ok = 1 };

	w.ratio = res_num(r, "ratio");
	w.se = res_num(r, "welch_se");
	w.df = res_num(r, "welch_df");
	w.p = res_num(r, "welch_p");
	return w;
}

static void collapse_reading(json_t *r, double hp, const struct cmp_opts *o, int lower)
{
	json_t *c = json_object_get(r, "collapse");
	double za = res_num(c, "a"), zb = res_num(c, "b");
	double ca = res_num(r, "a.value"), cb = res_num(r, "b.value");
	char where[96], buf[256];
	const char *dir = vd_name(VD_NOT_SIGNIFICANT);

	if (za && zb)
		snprintf(where, sizeof(where), "%.0f of %.0f windows of A and %.0f of %.0f of B",
			 za, res_num(c, "a_n"), zb, res_num(c, "b_n"));
	else
		snprintf(where, sizeof(where), "%.0f of %.0f windows of %s", za ? za : zb,
			 res_num(c, za ? "a_n" : "b_n"), za ? "A" : "B");
	if (isfinite(hp) && hp < o->alpha && ca != cb)
		dir = vd_name((lower ? cb < ca : cb > ca) ? VD_IMPROVED : VD_REGRESSED);
	json_object_set_new(c, "verdict", json_string(dir));
	snprintf(buf, sizeof(buf), "collapsed: 0 ops in %s, %s (Mann-Whitney)", where, dir);
	json_object_set_new(r, "verdict", json_string(vd_name(VD_COLLAPSED)));
	json_object_set_new(r, "why", json_string("a window without operations: decided by "
						  "the rank test on per-window values"));
	json_object_set_new(r, "reading", json_string(buf));
}

static const char *family_name(const struct cmp_opts *o)
{
	return o->family == CMP_FAM_EXPLORATORY ? "exploratory"
	       : o->family == CMP_FAM_PRIMARY	? "primary"
						: "report";
}

/* mde and tost of row r at the design's level; the reading of an
 * inconclusive row. */
static void power_row(json_t *r, double level, double tost_holm, const struct cmp_opts *o)
{
	struct st_welch w = row_welch(r);
	double margin = power_margin(o);
	double mde = isfinite(level) ? st_mde_log(&w, level, CMP_POWER) : NAN;
	double alone = st_mde_log(&w, o->alpha, CMP_POWER);
	double tp = st_tost_log(&w, margin);
	int equivalent = isfinite(tost_holm) && tost_holm < o->alpha;
	char buf[160], also[48] = "";

	json_object_set_new(r, "mde", isfinite(mde) ? json_pack("{s:f,s:f,s:f}", "ratio", mde,
								 "alpha", level, "power",
								 CMP_POWER)
						    : json_null());
	if (isfinite(mde) && isfinite(alone) && level != o->alpha) {
		json_object_set_new(json_object_get(r, "mde"), "unadjusted",
				    json_pack("{s:f,s:f}", "ratio", alone, "alpha", o->alpha));
		snprintf(also, sizeof(also), " (x%.3g tested alone)", alone);
	}
	json_object_set_new(r, "tost",
			    isfinite(tp) ? json_pack("{s:f,s:f,s:f,s:b}", "margin_pct", 100 * margin,
						     "p", tp, "holm_p", tost_holm, "equivalent",
						     equivalent)
					 : json_null());
	const char *v = res_str(r, "verdict", "");

	if (!vd_is(v, VD_INCONCLUSIVE)) {
		if (!json_object_get(r, "reading"))
			json_object_set_new(r, "reading", json_string(v));
		return;
	}
	if (equivalent)
		snprintf(buf, sizeof(buf), "equivalent within +-%.3g%%", 100 * margin);
	else if (!isfinite(mde))
		snprintf(buf, sizeof(buf), "%s", res_str(r, "why", "no test"));
	else if (mde <= 1 + margin)
		snprintf(buf, sizeof(buf), "not shown equivalent within +-%.3g%% (could detect "
					   ">= x%.3g%s)", 100 * margin, mde, also);
	else
		snprintf(buf, sizeof(buf), mde < 1000 ? "underpowered: could detect >= x%.3g%s"
						      : "underpowered: could detect >= x%.0f%s", mde,
			 also);
	json_object_set_new(r, "reading", json_string(buf));
}

/* The mechanism's rate beside the verdict: where the slice arms' grants
 * per 1000 acquisitions (the larger side's) are below the floor, a grant
 * would have to save the time of band * 1000 / g acquisitions to move the
 * ratio by the noise band, and the row says the extension is too rare here
 * to be what moved it (or could have); against a dry control a row that
 * moved beyond the band says what each grant stood for instead. */
static void rare_note(json_t *r, const struct cmp_opts *o)
{
	double ga = res_num(r, "a.grants_per_1000_ops"), gb = res_num(r, "b.grants_per_1000_ops");
	double g = isfinite(ga) && isfinite(gb) ? fmax(ga, gb) : isfinite(ga) ? ga : gb;
	double gfloor = o->grant_floor > 0 ? o->grant_floor : CMP_GRANT_FLOOR;
	char buf[512];

	if (!isfinite(g) || g >= gfloor)
		return;
	double worth = g > 0 ? o->threshold * 1000 / g : NAN;
	const char *v = res_str(r, "verdict", "");

	/* Against a dry control the two arms differ only in whether the
	 * kernel reads the request: a ratio that moved beyond the band there
	 * was moved by the mechanism, however rare its grants.  Say what each
	 * grant stood for instead of calling it too rare. */
	if (g > 0 && (vd_is(v, VD_IMPROVED) || vd_is(v, VD_REGRESSED)) &&
	    (o->control_dry || cmp_dry_name(res_str(r, "a.workload", "")))) {
		double ratio = res_num(r, "ratio"), each = fabs(ratio - 1) * 1000 / g;

		json_object_set_new(r, "mechanism",
				    json_pack("{s:f,s:f,s:f,s:f,s:b}", "grants_per_1000_ops", g, "floor",
					      gfloor, "acquisitions_per_grant_for_band", worth,
					      "acquisitions_per_grant_moved", each, "too_rare", 0));
		snprintf(buf, sizeof(buf), "%s; rare grants moved it against its dry control "
			 "(%.3g grants/1k ops < %.3g: each stood for about %.0f acquisitions' time)",
			 res_str(r, "reading", "?"), g, gfloor, each);
		json_object_set_new(r, "reading", json_string(buf));
		return;
	}

	json_object_set_new(r, "mechanism",
			    json_pack("{s:f,s:f,s:o,s:b}", "grants_per_1000_ops", g, "floor", gfloor,
				      "acquisitions_per_grant_for_band", NUM(worth), "too_rare", 1));
	if (g > 0)
		snprintf(buf, sizeof(buf), "%s; the extension is too rare here to move this ratio "
			 "(%.3g grants/1k ops < %.3g: each would have to save %.0f acquisitions' "
			 "time to move it %.3g%%)", res_str(r, "reading", "?"), g, gfloor, worth,
			 100 * o->threshold);
	else
		snprintf(buf, sizeof(buf), "%s; the extension was never granted here (0 grants/1k "
			 "ops)", res_str(r, "reading", "?"));
	json_object_set_new(r, "reading", json_string(buf));
}

/* Where both sides traced their holders: how often a holder was switched
 * out while holding, per second, on each side, and the grants that
 * deferred one, after the reading. */
static void holder_note(json_t *r)
{
	double pa = res_num(r, "a.holder.preempted_per_s"), pb = res_num(r, "b.holder.preempted_per_s");
	double gb = res_num(r, "b.holder.grants_per_s");
	char buf[640];

	if (!isfinite(pa) || !isfinite(pb))
		return;
	snprintf(buf, sizeof(buf), "%s; holders switched out holding %.3g/s (a) vs %.3g/s (b), "
		 "%.3g grants/s deferred one (b)", res_str(r, "reading", res_str(r, "verdict", "?")),
		 pa, pb, gb);
	json_object_set_new(r, "reading", json_string(buf));
}

void power_decide(json_t *rows, const struct cmp_opts *o)
{
	size_t n = json_array_size(rows), i;
	double *p = malloc(2 * (n ? n : 1) * sizeof(*p)), *tost = p + n;
	size_t m = 0;
	json_t *r;

	if (!p)
		abort(); /* a few bytes per row: no partial verdicts */
	json_array_foreach(rows, i, r) {
		struct st_welch w = row_welch(r);

		p[i] = test_p(r);
		m += isfinite(p[i]);
		tost[i] = json_object_get(r, "collapse") ? NAN : st_tost_log(&w, power_margin(o));
	}
	/* The level every test of the family is sure to be held to: known
	 * before any p is seen. */
	double level = o->family == CMP_FAM_EXPLORATORY ? o->alpha : o->alpha / (double)(m ? m : 1);

	if (o->family != CMP_FAM_EXPLORATORY) {
		st_holm(p, n);
		st_holm(tost, n);
	}
	json_array_foreach(rows, i, r) {
		double ratio = res_num(r, "ratio");
		int lower = json_is_true(json_object_get(r, "lower_is_better"));
		const char *v = vd_name(VD_INCONCLUSIVE), *why;
		json_t *flags = json_object_get(r, "flags");

		json_object_set_new(r, "holm_p", NUM(p[i]));
		json_object_set_new(r, "family",
				    json_pack("{s:s,s:I,s:f}", "kind", family_name(o), "tests",
					      (json_int_t)m, "level", level));
		if (json_object_get(r, "collapse")) {
			collapse_reading(r, p[i], o, lower);
			rare_note(r, o);
			holder_note(r);
			continue;
		}
		if (!isfinite(p[i])) {
			why = "no test (fewer than 2 values per side)";
		} else if (p[i] >= o->alpha) {
			why = "not significant";
		} else if (fabs(log(ratio)) < log1p(o->threshold)) {
			why = "within noise band";
		} else {
			int better = lower ? ratio < 1 : ratio > 1;

			v = vd_name(better ? VD_IMPROVED : VD_REGRESSED);
			why = "significant and beyond the noise band";
			double mw = res_num(r, "mw_p");

			if (res_num(r, "a.n") >= 4 && res_num(r, "b.n") >= 4 && mw >= o->alpha)
				json_array_append_new(flags,
						      json_string("Mann-Whitney disagrees"));
		}
		json_object_set_new(r, "verdict", json_string(v));
		json_object_set_new(r, "why", json_string(why));
		power_row(r, level, tost[i], o);
		states_note(r, level);
		rare_note(r, o);
		holder_note(r);
	}
	free(p);
}

double power_reps_for(const json_t *row, double effect)
{
	double mde = res_num(row, "mde.ratio");
	double n = fmin(res_num(row, "a.n"), res_num(row, "b.n"));
	double e = fabs(log(effect)), m = log(mde);

	if (!(mde > 1) || !isfinite(mde) || !(n >= 2) || !(e > 0))
		return NAN;
	/* The MDE's log is (t(1-a/2) + t(power)) * se and se shrinks as
	 * 1/sqrt(n): n' = n (log mde / log effect)^2.  The t quantiles shrink
	 * too as n grows, so this errs on the side of more repetitions. */
	return fmax(2, ceil(n * (m / e) * (m / e)));
}
