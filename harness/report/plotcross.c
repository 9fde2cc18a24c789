/* plotcross.c - where the extension turns from cost to gain: per lock,
 * throughput against threads (log-log) for every placement of the request
 * and the no-request baseline, and each placement's throughput divided by
 * the baseline's at the same point, with its 95% interval, against threads.
 * The crossover is where that ratio crosses 1; the figure marks it.
 *
 * The shape is the one the feature was argued on (threads hammering one
 * global spinlock around a single increment, the thread count swept past
 * the CPUs, with and without the extension: Rostedt's POC, LKML "[POC][RFC]
 * [PATCH] sched: Extended Scheduler Time Slice", 25 Oct 2023).  The ratio
 * is compare's: the ratio of geometric means of the repetitions' ops/s
 * with Welch's interval on the logs (compare.h), so a marked crossover and
 * a verdict of `slicebench compare --within` never disagree. */
#define _GNU_SOURCE
#include "plots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plotpanel.h"
#include "resget.h"
#include "textfmt.h"
#include "../lib/stats.h"
#include "../lib/status.h"

static int is_ok(const json_t *r)
{
	return rs_is(res_str(r, fld_r_status, ""), RS_OK);
}

/* The point a result shares with its baseline: its params without the
 * request's own keys (policy, dry), in a canonical form, behind the input's
 * index.  NULL when the result has no params. */
static char *base_key(size_t d, const json_t *r)
{
	json_t *p = json_deep_copy(json_object_get(r, fld_r_params));
	char *s, *k = NULL;

	if (!p)
		return NULL;
	json_object_del(p, fld_key(fld_r_policy));
	json_object_del(p, fld_key(fld_r_dry));
	s = json_dumps(p, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(p);
	if (s && asprintf(&k, "%zu:%s", d, s) < 0)
		k = NULL;
	free(s);
	return k;
}

static int is_baseline(const json_t *r)
{
	return !strcmp(res_str(r, fld_r_policy, ""), "none") &&
	       !json_is_true(res_get(r, fld_r_dry));
}

/* Panel: the input (when several), the lock, then what else varies. */
static void lock_point(const struct facet *f, const struct plotctx *c, size_t d,
		       const json_t *r, struct ppt *pt)
{
	char rest[192];

	facet_point(f, c, d, r, pt);
	snprintf(rest, sizeof(rest), "%s", pt->panel);
	/* facet_panel puts the input's tag first; the lock goes after it. */
	if (f->by_doc) {
		char tag[128];
		size_t n;

		doc_tag(c, d, tag, sizeof(tag));
		n = strlen(tag);
		snprintf(pt->panel, sizeof(pt->panel), "%.60s, lock=%.40s%.80s", tag,
			 res_str(r, fld_r_lock, "?"), rest + n);
	} else {
		snprintf(pt->panel, sizeof(pt->panel), "lock=%.40s%s%.140s", res_str(r, fld_r_lock, "?"),
			 *rest ? ", " : "", rest);
	}
}

/* The baselines by point: key -> index into the input's results. */
static json_t *baselines(const struct plotctx *c)
{
	json_t *by = json_object(), *r;
	size_t i;

	for (size_t d = 0; d < c->ndocs; d++)
		json_array_foreach(json_object_get(c->docs[d], fld_results), i, r) {
			char *k;

			if (!is_ok(r) || !is_baseline(r) || !(k = base_key(d, r)))
				continue;
			json_object_set_new(by, k, json_integer((json_int_t)i));
			free(k);
		}
	return by;
}

/* The index of r's baseline among its input's results, or NULL. */
static const json_t *baseline_of(const json_t *by, size_t d, const json_t *r)
{
	char *k = is_ok(r) ? base_key(d, r) : NULL;
	const json_t *b = k ? json_object_get(by, k) : NULL;

	free(k);
	return b;
}

/* A result's own ops/s with its CI, the baselines among them. */
static int ops_point(const json_t *base, const json_t *r, struct ppt *pt)
{
	(void)base;
	pt->y = res_num(r, fld_s_ops_mean);
	pt->lo = fmax(res_num(r, fld_s_ops_ci95_lo), 0);
	pt->hi = res_num(r, fld_s_ops_ci95_hi);
	if (!(pt->y > 0))
		return 0;
	if (!isfinite(pt->lo) || !isfinite(pt->hi))
		pt->lo = pt->hi = pt->y;
	return 1;
}

/* A placement's ops/s over its baseline's, compare's way. */
static int ratio_point(const json_t *base, const json_t *r, struct ppt *pt)
{
	struct st_welch w;
	double *a, *b;

	if (is_baseline(r))
		return 0;
	size_t na = res_rep_values(base, fld_ops_per_sec, NULL, &a);
	size_t nb = res_rep_values(r, fld_ops_per_sec, NULL, &b);

	w.ok = 0;
	if (a && b)
		st_welch_log(a, na, b, nb, &w);
	free(a);
	free(b);
	if (!w.ok || !(w.ratio > 0))
		return 0;
	pt->y = w.ratio;
	pt->lo = isfinite(w.lo) ? w.lo : w.ratio;
	pt->hi = isfinite(w.hi) ? w.hi : w.ratio;
	return 1;
}

static void throughput(struct plotctx *c, struct plot *p, struct ppts *s)
{
	struct gpvars v = { 0 };

	gpv_add(&v, "logx=1; ");
	ppts_render(c, p, s, &v, 0, 2,
		    "no ok result shares its point with a no-request baseline (policy none)");
	gpv_free(&v);
}

/* Where one series' ratio crosses 1 between two neighbouring thread
 * counts: interpolated on log x against log ratio (both axes of the
 * figure are logarithmic, so the mark sits where the drawn line crosses). */
static double cross_x(const struct ppt *a, const struct ppt *b)
{
	double la = log(a->y), lb = log(b->y);

	return exp(log(a->x) + (log(b->x) - log(a->x)) * (0 - la) / (lb - la));
}

/* Writes one "# crossover | PANEL | SERIES | x | up|down | significant|within
 * noise" line per crossing and the gnuplot arrays the template marks the
 * significant ones from (the intervals on both sides exclude 1): ncx, CXP
 * (panel, 1-based), CXX, CXC (colour).  A ratio whose interval holds 1
 * crosses it back and forth with the noise: in the contention sweep under
 * TCG, 66 crossings of which 6 significant, whose lines hid the data. */
static size_t crossovers(const struct ppts *s, FILE *f, struct gpvars *v)
{
	struct gpvars cp = { 0 }, cx = { 0 }, cc = { 0 };
	size_t n = 0;

	for (size_t i = 1; i < s->n; i++) {
		const struct ppt *a = &s->v[i - 1], *b = &s->v[i];

		if (a->pid != b->pid || strcmp(a->series, b->series))
			continue;
		if ((a->y < 1) == (b->y < 1) || a->x == b->x)
			continue;
		int up = b->y > a->y;
		int sig = up ? (a->hi < 1 && b->lo > 1) : (a->lo > 1 && b->hi < 1);
		double x = cross_x(a, b);
		const char *sep = n ? "," : "";

		fprintf(f, "# crossover | %s | %s | %.4g | %s | %s\n", s->panels[b->pid], b->series,
			x, up ? "up" : "down", sig ? "significant" : "within noise");
		if (!sig)
			continue;
		gpv_add(&cp, "%s%zu", sep, b->pid + 1);
		gpv_add(&cx, "%s%.6g", sep, x);
		gpv_add(&cc, "%s'#%06x'", sep, b->st.rgb);
		n++;
	}
	gpv_add(v, "ncx=%zu; array CXP[%zu]=[%s]; array CXX[%zu]=[%s]; ", n, n ? n : 1,
		n ? cp.s : "0", n ? n : 1, n ? cx.s : "0");
	gpv_add(v, "array CXC[%zu]=[%s]; ", n ? n : 1, n ? cc.s : "''");
	gpv_free(&cp);
	gpv_free(&cx);
	gpv_free(&cc);
	return n;
}

/* The value beside a point drawn at the axis's edge, in at most five
 * characters: "x9k", "x1.1k", "x64", "1/19", "1/1M" (points eight to a panel's
 * width sat 35 px apart, and "x1.1e+03x9012x10082" ran together). */
static void edge_label(double y, char *buf, size_t len)
{
	const char *pre = y >= 1 ? "x" : "1/";
	char r[32];
	double v;

	/* three figures first: 1/1e-6 is 999999.99..., which is "1M" */
	snprintf(r, sizeof(r), "%.3g", y >= 1 ? y : 1 / y);
	v = strtod(r, NULL);

	if (!(y > 0))
		snprintf(buf, len, "0");
	else if (v >= 1e9)
		snprintf(buf, len, "%s%.0e", pre, v);
	else if (v >= 1e6)
		snprintf(buf, len, v < 1e7 ? "%s%.2gM" : "%s%.0fM", pre, v / 1e6);
	else if (v >= 1000)
		snprintf(buf, len, v < 1e4 ? "%s%.2gk" : "%s%.0fk", pre, v / 1000);
	else
		snprintf(buf, len, "%s%.0f", pre, v);
}

/* The ratio axis: the narrowest of a few symmetric ranges that holds every
 * ratio, at most 1/16x..16x; an interval beyond it ends at the edge (with
 * 3 repetitions one slow window makes an interval span a decade).  Every published effect of
 * the extension lies in 0.5x-3x (configs/replicate/targets.json,
 * pgbench's 0.51x on 7.0); a baseline that collapses under oversubscription gives ratios of
 * 10^4 and more, and drawn to scale (the reference contention sweep spans
 * eleven decades) they flatten that band to a line.  A point beyond is
 * drawn at the edge with its value as its label, the .dat keeps the real
 * values and says the range on a "# y range" line. */
static double ratio_range(struct ppts *s, FILE *f)
{
	static const double cand[] = { 1.25, 1.5, 2, 4, 16 };
	const size_t nc = sizeof(cand) / sizeof(cand[0]);
	double need = 1, r;
	size_t k = 0, beyond = 0;

	for (size_t i = 0; i < s->n; i++)
		need = fmax(need, fmax(s->v[i].y, 1 / s->v[i].y));
	while (k + 1 < nc && cand[k] < need)
		k++;
	r = cand[k];
	for (size_t i = 0; i < s->n; i++) {
		struct ppt *pt = &s->v[i];

		if (pt->y > r || pt->y < 1 / r) {
			edge_label(pt->y, pt->label, sizeof(pt->label));
			beyond++;
		} else {
			snprintf(pt->label, sizeof(pt->label), "-");
		}
	}
	fprintf(f, "# y range | %g | %g | %zu beyond it, drawn at its edge\n", 1 / r, r, beyond);
	return r;
}

static void ratio(struct plotctx *c, struct plot *p, struct ppts *s)
{
	struct gpvars v = { 0 };
	size_t most;
	double r;
	FILE *f;

	if (!s->n) {
		plot_skip(p, "no placement shares its point with a no-request baseline "
			     "(policy none, same lock)");
		return;
	}
	ppts_sort(s);
	if (!(f = plot_dat(c, p)))
		return;
	r = ratio_range(s, f);
	gpv_add(&v, "rlo=%g; rhi=%g; ", 1 / r, r);
	most = ppts_write(s, f, &v, 1);
	/* ppts_write sorts as ppts_sort does and keeps the panels (keep_panels),
	 * so panel ids and neighbours are the drawn ones. */
	crossovers(s, f, &v);
	fclose(f);
	if (most < 2) {
		plot_skip(p, "no placement has a ratio at 2 or more thread counts (at most %zu)",
			  most);
		plot_dat_remove(c, p);
	} else {
		size_t cols = s->npanels <= 1 ? 1 : s->npanels <= 4 ? 2 : 3;

		plot_render(c, p, &v, 1000, 60 + 370 * (int)((s->npanels + cols - 1) / cols));
	}
	gpv_free(&v);
}

/* The two figures of the sweep: the same results, each point from its
 * baseline, drawn two ways. */
static const struct cross_fig {
	const char *name, *title, *tmpl, *caption;
	int (*point)(const json_t *base, const json_t *r, struct ppt *pt);
	void (*draw)(struct plotctx *c, struct plot *p, struct ppts *s);
} cross_figs[] = {
	{ "contention_throughput", "Throughput vs threads per lock (log-log, 95% CI)",
	  "throughput_threads.gp",
	  "Critical sections per second against lock threads, one panel per lock: the "
	  "no-request baseline (policy none) and every placement of the request beside its "
	  "dry control (hollow); whiskers are 95% intervals of the mean over repetitions.",
	  ops_point, throughput },
	{ "contention_ratio", "Ratio to the no-request baseline vs threads (95% CI)",
	  "ratio_threads.gp",
	  "Each placement's throughput divided by the no-request baseline's (same lock, "
	  "same point), with the 95% interval of the ratio of geometric means; above 1 the "
	  "request pays. A vertical line marks a crossover, where the ratio crosses 1 "
	  "and the intervals on both sides exclude 1; crossings within the noise are "
	  "listed in the .dat only. The axis holds every ratio up to 16x either way "
	  "(published effects lie within 0.5x-3x); a ratio beyond it is a triangle at "
	  "the edge labelled with its value, an interval beyond it ends there.",
	  ratio_point, ratio },
};

/* The points of one figure: one per ok result with a baseline at its point. */
static void collect(const struct plotctx *c, const struct facet *fa, const json_t *by,
		    const struct cross_fig *f, struct ppts *s)
{
	size_t i;
	json_t *r;

	for (size_t d = 0; d < c->ndocs; d++) {
		const json_t *res = json_object_get(c->docs[d], fld_results);

		json_array_foreach(res, i, r) {
			const json_t *bi = baseline_of(by, d, r);
			struct ppt pt = { .x = res_num(r, fld_r_nthreads) };

			if (!bi || !(pt.x > 0) ||
			    !f->point(json_array_get(res, (size_t)json_integer_value(bi)), r, &pt))
				continue;
			lock_point(fa, c, d, r, &pt);
			ppts_add(s, &pt);
		}
	}
}

void plot_contention(struct plotctx *c)
{
	struct facet fa;
	json_t *by = baselines(c);

	facet_init(&fa, c, "threads");
	for (size_t k = 0; k < sizeof(cross_figs) / sizeof(cross_figs[0]); k++) {
		const struct cross_fig *f = &cross_figs[k];
		struct plot *p = plot_new(c, f->name, f->title, f->tmpl, f->caption);
		struct ppts s = { .keep_panels = 1 };

		collect(c, &fa, by, f, &s);
		f->draw(c, p, &s);
		ppts_free(&s);
	}
	json_decref(by);
}
