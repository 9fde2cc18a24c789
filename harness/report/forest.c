/* forest.c - the dot-and-whisker chart of compare's rows (forest.h).
 *
 * A row's "point" is "key=value ..." in run-key order.  The keys whose
 * values differ across rows are the chart's structure: the first one
 * splits panels (when two or more vary), the rest name the groups down a
 * panel, and inside a group there is one row per compared workload, in
 * that workload's colour and point shape (plotstyle.h: a dry control keeps
 * its hollow point, so significance is marked by the verdict printed beside
 * the whisker, never by the point).  A key whose value
 * follows from the panel key (pin from threads) names nothing. */
#include "forest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "forestrow.h"
#include "plotpanel.h"
#include "plotstyle.h"
#include "resget.h"
#include "textfmt.h"
#include "../lib/verdict.h"

/* The tallest figure a forest makes; a taller one is split by family
 * (a 4,466 px answer figure of the contention study was a page of its
 * own). */
#define FOREST_MAX_PX 1600

/* How an answer figure differs from a plain forest (forest.h). */
struct fview {
	double lo, hi;	 /* the axis; a point beyond is drawn at its edge */
	double max;	 /* the widest it may be: 4, 128 with a reference contrast */
	double published; /* a line at the published effect, 0 for none */
};

static int frow_cmp(const void *a, const void *b)
{
	const struct frow *x = a, *y = b;
	int c = (x->tagi > y->tagi) - (x->tagi < y->tagi);

	if (!c)
		c = x->st.order - y->st.order;

	if (!c)
		c = strcmp(x->series, y->series);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static double num_or(const json_t *v, double def)
{
	return json_is_number(v) ? json_number_value(v) : def;
}

/* Keeps a whisker on the axis: ratios beyond 10^4 either way are drawn at
 * the edge (their value is in the .dat file and the verdict table). */
static double clampr(double x)
{
	return fmin(fmax(x, 1e-4), 1e4);
}

/* The ratio drawn for a row: compare's, or for a collapse (no log test)
 * the ratio of the sides' centres, 0 when B did nothing. */
static double row_ratio(const json_t *row)
{
	double x = num_or(json_object_get(row, "ratio"), NAN);

	if (isfinite(x) && x > 0)
		return x;
	if (!json_object_get(row, "collapse"))
		return NAN;
	double a = res_num(row, "a.value"), b = res_num(row, "b.value");

	return a > 0 && b >= 0 ? b / a : NAN;
}

/* Columns 6-9 of an answer row: the MDE band (1/mde .. mde, on the axis),
 * where the point lies (0 on the axis, 1 below it, 2 above it) and its
 * annotation: the value of a clipped point, "0" for a collapse to zero. */
static void answer_cols(FILE *f, const json_t *row, double x, const struct fview *o)
{
	double mde = res_num(row, "mde.ratio");
	int where = !(x >= o->lo) ? 1 : x > o->hi ? 2 : 0;
	char ann[32] = "-";

	if (!(mde >= 1))
		mde = 1;
	if (where)
		ratio_str(x, ann, sizeof(ann));
	fprintf(f, " %.6g %.6g %d %s", fmax(1 / mde, o->lo), fmin(mde, o->hi), where, ann);
}

/* The word beside an answer row: its verdict, or "equivalent", else none. */
static const char *answer_word(const json_t *row)
{
	const char *v = res_str(row, "verdict", "");

	if (vd_is(v, VD_IMPROVED) || vd_is(v, VD_REGRESSED) || vd_is(v, VD_COLLAPSED) ||
	    vd_is(v, VD_ABOVE) || vd_is(v, VD_BELOW))
		return v;
	return json_is_true(res_get(row, "tost.equivalent")) ? vd_name(VD_EQUIVALENT) : NULL;
}

/* 1 for the first row of its series in its panel: the one the key lists. */
static int first_in_panel(const struct frow *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(r[j].panel, r[i].panel) && !strcmp(r[j].series, r[i].series))
			return 0;
	return 1;
}

/* The x range and tics of the ratio axis: readable numbers on a log axis
 * whether the ratios stay within 10% or span four decades. */
static void ratio_axis(const struct frow *r, size_t n, double band, struct gpvars *v)
{
	static const double fine[] = { 0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 2 };
	static const double near[] = { 0.25, 0.5, 0.8, 1, 1.25, 1.5, 2, 3, 4, 6, 8 };
	static const double mid[] = { 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50 };
	static const double coarse[] = { 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1e3, 1e4 };
	double lo = 1 / (1 + band), hi = 1 + band;
	const double *cand;
	size_t nc, nt = 0;

	for (size_t i = 0; i < n; i++) {
		const json_t *ci = json_object_get(r[i].row, "ratio_ci95");
		double x = num_or(json_object_get(r[i].row, "ratio"), NAN);

		if (!(x > 0))
			continue;
		lo = fmin(lo, clampr(num_or(json_array_get(ci, 0), x)));
		hi = fmax(hi, clampr(num_or(json_array_get(ci, 1), x)));
	}
	lo /= 1.15;
	/* room for the verdict printed right of the whisker: about a fifth of
	 * the axis, whatever the span */
	hi *= fmax(1.6, pow(hi / lo, 0.25));
	/* tics no closer than the labels need: the finer the steps, the
	 * narrower the span they are used for */
	if (hi / lo <= 3) {
		cand = fine;
		nc = sizeof(fine) / sizeof(*fine);
	} else if (hi / lo <= 10) {
		cand = near;
		nc = sizeof(near) / sizeof(*near);
	} else if (hi / lo <= 100) {
		cand = mid;
		nc = sizeof(mid) / sizeof(*mid);
	} else {
		cand = coarse;
		nc = sizeof(coarse) / sizeof(*coarse);
	}
	gpv_add(v, "xlo=%g; xhi=%g; xt='(", lo, hi);
	for (size_t i = 0; i < nc; i++)
		if (cand[i] >= lo && cand[i] <= hi)
			gpv_add(v, "%s\"%g\" %g", nt++ ? ", " : "", cand[i], cand[i]);
	gpv_add(v, ")'; ");
}

/* Writes one block per (panel, series) and the gnuplot arrays; returns the
 * number of blocks. */
static size_t write_blocks(FILE *f, struct frow *r, size_t n, struct gpvars *v, size_t *most,
			   const struct fview *o)
{
	struct gpvars pt = { 0 }, pb0 = { 0 }, pb1 = { 0 }, yt = { 0 }, ymin = { 0 }, bt = { 0 },
		      bc = { 0 }, bpt = { 0 }, bk = { 0 }, y2t = { 0 };
	char (*panels)[160] = calloc(n + 1, sizeof(*panels));
	size_t np = 0, nb = 0;

	*most = 0;
	for (size_t i = 0; i < n; i++) {
		size_t p;

		for (p = 0; p < np && strcmp(panels[p], r[i].panel); p++)
			;
		if (p == np)
			snprintf(panels[np++], sizeof(*panels), "%s", r[i].panel);
	}
	for (size_t p = 0; p < np; p++) {
		/* Groups in first-seen order, top to bottom: y counts down. */
		char (*groups)[160] = calloc(n + 1, sizeof(*groups));
		double y = 0;
		size_t ng = 0, rows = 0;

		gpv_add(&pt, "%s", p ? "," : "");
		gpv_title(&pt, panels[p], np > 1 ? 40 : 120);
		gpv_add(&pb0, "%s%zu", p ? "," : "", nb + 1);
		gpv_add(&yt, "%s'(", p ? "," : "");
		gpv_add(&y2t, "%s'(", p ? "," : "");
		for (size_t i = 0; i < n; i++) {
			size_t g;

			if (strcmp(r[i].panel, panels[p]))
				continue;
			for (g = 0; g < ng && strcmp(groups[g], r[i].group); g++)
				;
			if (g == ng)
				snprintf(groups[ng++], sizeof(*groups), "%s", r[i].group);
		}
		for (size_t g = 0; g < ng; g++) {
			double top = y;

			for (size_t i = 0; i < n; i++) {
				const json_t *ci = json_object_get(r[i].row, "ratio_ci95");
				double ratio = o ? row_ratio(r[i].row)
						 : num_or(json_object_get(r[i].row, "ratio"), NAN);
				const char *verdict = res_str(r[i].row, "verdict", "");
				int sig = vd_is(verdict, VD_IMPROVED) || vd_is(verdict, VD_REGRESSED);
				const char *word = o ? answer_word(r[i].row) : NULL;

				if (strcmp(r[i].panel, panels[p]) || strcmp(r[i].group, groups[g]) ||
				    !isfinite(ratio) || !(ratio > 0 || (o && ratio == 0)))
					continue;
				/* Each row its own block: its own colour, shape and title. */
				fprintf(f, "%s# %s | %s | %s\n", nb ? "\n\n" : "", panels[p], groups[g],
					r[i].series);
				if (o) {
					double lo = num_or(json_array_get(ci, 0), ratio);
					double hi = num_or(json_array_get(ci, 1), ratio);

					fprintf(f, "%.6g %.6g %.6g %.2f %s",
						fmin(fmax(ratio, o->lo), o->hi),
						fmin(fmax(lo, o->lo), o->hi),
						fmin(fmax(hi, o->lo), o->hi), y, word ? word : "-");
					answer_cols(f, r[i].row, ratio, o);
					fputc('\n', f);
					if (word)
						gpv_add(&y2t, "%s\"%s\" %.2f", y2t.s[y2t.len - 1] == '(' ? "" : ", ",
							word, y);
				} else {
					fprintf(f, "%.6g %.6g %.6g %.2f %s\n", clampr(ratio),
						clampr(num_or(json_array_get(ci, 0), ratio)),
						clampr(num_or(json_array_get(ci, 1), ratio)), y,
						sig ? verdict : "-");
				}
				gpv_add(&bt, "%s", nb ? "," : "");
				gpv_str(&bt, NULL, r[i].series);
				gpv_add(&bc, "%s'#%06x'", nb ? "," : "", r[i].st.rgb);
				gpv_add(&bpt, "%s%d", nb ? "," : "", r[i].st.pt);
				gpv_add(&bk, "%s%d", nb ? "," : "", first_in_panel(r, i));
				nb++;
				rows++;
				y -= 1;
			}
			gpv_add(&yt, "%s", g ? ", " : "");
			gpv_dq(&yt, groups[g]);
			gpv_add(&yt, " %.2f", (top + y + 1) / 2);
			y -= 0.8; /* a gap between groups */
		}
		gpv_add(&yt, ")'");
		gpv_add(&y2t, ")'");
		gpv_add(&pb1, "%s%zu", p ? "," : "", nb);
		gpv_add(&ymin, "%s%.2f", p ? "," : "", y + 0.8);
		if (rows > *most)
			*most = rows;
		free(groups);
	}
	gpv_add(v, "npan=%zu; nb=%zu; cols=%zu; array PT[%zu]=[%s]; array PB0[%zu]=[%s]; "
		   "array PB1[%zu]=[%s]; array YT[%zu]=[%s]; array YMIN[%zu]=[%s]; ",
		np, nb, np < 3 ? np : np == 4 ? 2 : 3, np, pt.s, np, pb0.s, np, pb1.s, np, yt.s, np, ymin.s);
	gpv_add(v, "array BT[%zu]=[%s]; array BC[%zu]=[%s]; array BPT[%zu]=[%s]; "
		   "array BK[%zu]=[%s]; array Y2T[%zu]=[%s]; ",
		nb, bt.s, nb, bc.s, nb, bpt.s, nb, bk.s, np, y2t.s);
	gpv_free(&pt);
	gpv_free(&pb0);
	gpv_free(&pb1);
	gpv_free(&yt);
	gpv_free(&bt);
	gpv_free(&bc);
	gpv_free(&bpt);
	gpv_free(&bk);
	gpv_free(&y2t);
	gpv_free(&ymin);
	free(panels);
	return nb;
}

/* The symmetric axis of an answer figure: the narrowest of a few ranges
 * that holds every interval and the published effect, at most 0.25x-4x
 * (a 4x effect is past every published claim; beyond it, the value is
 * printed at the edge), or up to 1/128x-128x with a contrast against a
 * published number, where a tenfold discrepancy is the finding. */
static void answer_axis(const struct frow *r, size_t n, struct fview *o)
{
	static const double cand[] = { 1.1, 1.25, 1.5, 2, 4, 16, 128 };
	double need = o->published > 0 ? fmax(o->published, 1 / o->published) : 1;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const json_t *ci = json_object_get(r[i].row, "ratio_ci95");

		for (size_t e = 0; e < 2; e++) {
			double x = num_or(json_array_get(ci, e), row_ratio(r[i].row));

			if (x > 0 && isfinite(x))
				need = fmax(need, fmax(x, 1 / x));
		}
	}
	while (k + 1 < sizeof(cand) / sizeof(cand[0]) && cand[k] < need && cand[k + 1] <= o->max)
		k++;
	o->hi = cand[k];
	o->lo = 1 / cand[k];
}

/* 1 when a row before r[i] has r[i]'s lock. */
static int family_before(const struct frow *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(r[j].st.lock, r[i].st.lock))
			return 1;
	return 0;
}

/* The figure's height in pixels: rows of up to three panels, each as
 * tall as its most rows (tighter rows in a long panel). */
static int height_of(size_t np, size_t most, const struct fview *o)
{
	size_t rows = np == 4 ? 2 : (np + 2) / 3;
	int px = most > ANSWER_PANEL_ROWS / 2 ? 13 : 17;
	int h = 140 + (int)rows * (110 + px * (int)most);

	/* an answer's key lists every series below short panels */
	return o && h < 420 ? 420 : h;
}

/* What height_of would give rows r[0..n): panels and their most rows. */
static int forest_height(const struct frow *r, size_t n, const struct fview *o)
{
	size_t np = 0, most = 0;

	for (size_t i = 0; i < n; i++) {
		size_t in = 0, seen = 0;

		for (size_t j = 0; j < n; j++)
			if (!strcmp(r[j].panel, r[i].panel)) {
				in++;
				seen |= j < i;
			}
		np += !seen;
		most = in > most ? in : most;
	}
	return height_of(np, most, o);
}

/* The left margin in characters that holds the longest group label
 * (drawn at 9 points beside the 10-point margin unit), 16 at least: a
 * label wider than the margin was cut at the figure's edge. */
static int left_margin(const struct frow *r, size_t n)
{
	size_t most = 0;

	for (size_t i = 0; i < n; i++)
		most = strlen(r[i].group) > most ? strlen(r[i].group) : most;
	return most * 9 / 10 + 2 > 16 ? (int)(most * 9 / 10 + 2) : 16;
}

static void draw(struct plotctx *c, struct plot *p, struct frow *r, size_t nr, double band,
		 const char *xlabel, const struct fview *o)
{
	struct gpvars v = { 0 };
	FILE *f = plot_dat(c, p);

	if (!f)
		return;
	size_t most, nb = write_blocks(f, r, nr, &v, &most, o);
	size_t np = 0;

	fclose(f);
	sscanf(v.s ? v.s : "", "npan=%zu", &np);
	gpv_add(&v, "band=%g; lm=%d; ", band, left_margin(r, nr));
	gpv_str(&v, "xl", xlabel);
	if (o)
		gpv_add(&v, "xlo=%g; xhi=%g; pub=%g; ", o->lo, o->hi, o->published);
	else
		ratio_axis(r, nr, band, &v);
	if (!nb) {
		plot_skip(p, "no compared row has a ratio");
		plot_dat_remove(c, p);
	} else {
		plot_render(c, p, &v, 1000, height_of(np, most, o));
	}
	gpv_free(&v);
}

/* A panel with more rows than a figure of FOREST_MAX_PX holds goes on
 * as panels of its own: "threads=1x", "threads=1x, continued 1" (a
 * compare forest of preempt-regression had 108 rows in one). */
static void split_long_panels(struct frow *r, size_t n, const struct fview *o)
{
	size_t most = 1;

	while (height_of(1, most + 1, o) <= FOREST_MAX_PX)
		most++;
	for (size_t i = n; i-- > 0;) {
		size_t before = 0, l = strlen(r[i].panel);

		for (size_t j = 0; j < i; j++)
			before += !strcmp(r[j].panel, r[i].panel);
		if (before >= most)
			snprintf(r[i].panel + l, sizeof(r[i].panel) - l, ", continued %zu",
				 before / most);
	}
}

/* Rows r[0..n) of one family as figures of at most FOREST_MAX_PX: whole
 * panels, as many in each part as fit ("tas, part 2 of 4"). */
static void in_parts(struct plotctx *c, struct plot *p, struct frow *r, size_t n,
		     const char *fam, double band, const char *xlabel, const struct fview *o)
{
	size_t *pid = calloc(n + 1, sizeof(*pid)), *cnt = calloc(n + 1, sizeof(*cnt));
	size_t *end = calloc(n + 1, sizeof(*end)), np = 0, nparts = 0;
	struct frow *part = malloc((n + 1) * sizeof(*part));

	split_long_panels(r, n, o);
	for (size_t i = 0; pid && cnt && end && part && i < n; i++) {
		size_t j;

		for (j = 0; j < i && strcmp(r[j].panel, r[i].panel); j++)
			;
		pid[i] = j < i ? pid[j] : np++;
		cnt[pid[i]]++;
	}
	for (size_t s = 0; part && s < np; s = end[nparts++]) {
		size_t e = s + 1, most = cnt[s];

		for (; e < np && height_of(e + 1 - s, most > cnt[e] ? most : cnt[e], o) <= FOREST_MAX_PX;
		     e++)
			most = most > cnt[e] ? most : cnt[e];
		end[nparts] = e;
	}
	for (size_t k = 0, s = 0; k < nparts; s = end[k++]) {
		char name[64], title[96];
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (pid[i] >= s && pid[i] < end[k])
				part[m++] = r[i];
		snprintf(name, sizeof(name), nparts > 1 ? "%s-%zu" : "%s", fam, k + 1);
		snprintf(title, sizeof(title), nparts > 1 ? "%s, part %zu of %zu" : "%s", fam, k + 1,
			 nparts);
		struct plot *q = plot_part(c, p, name, title);

		if (!q) {
			fprintf(stderr, "slicebench plot: %s: no room for its figure %s\n", p->name, title);
			break;
		}
		draw(c, q, part, m, band, xlabel, o);
	}
	free(pid);
	free(cnt);
	free(end);
	free(part);
}

/* A forest taller than FOREST_MAX_PX as one figure per family of rows
 * (its lock: every spinlock variant of tas together), each labelled by
 * what varies inside it and in parts when still too tall; p stays,
 * skipped, saying so.  0 without memory. */
static int by_family(struct plotctx *c, struct plot *p, struct frow *r, size_t nr,
		     const struct fkeys *ks, size_t ntags, double band, const char *xlabel,
		     const struct fview *o)
{
	struct frow *sub = malloc(nr * sizeof(*sub));

	if (!sub)
		return 0;
	plot_skip(p, "drawn as one figure per lock family, in parts of at most %d px", FOREST_MAX_PX);
	for (size_t i = 0; i < nr; i++) {
		size_t n = 0;

		if (family_before(r, i))
			continue;
		for (size_t j = i; j < nr; j++)
			if (!strcmp(r[j].st.lock, r[i].st.lock))
				sub[n++] = r[j];
		frow_label(sub, n, ks, ntags > 1);
		in_parts(c, p, sub, n, r[i].st.lock, band, xlabel, o);
	}
	free(sub);
	return 1;
}

static void forest(struct plotctx *c, struct plot *p, const char *xlabel, json_t *const *reps,
		   const char *const *tags, size_t n, const char *empty, struct fview *o)
{
	struct fkeys ks = { 0 };
	struct frow *r = NULL;
	size_t nr = 0, cap = 0, ntags = 0;
	double band = 0.05;

	for (size_t k = 0; k < n; k++) {
		size_t i;
		json_t *row;
		int any = 0;

		if (!reps[k])
			continue;
		band = num_or(json_object_get(reps[k], "threshold_pct"), 5) / 100;
		if (o)
			o->max = fmax(o->max, num_or(json_object_get(reps[k], "axis_max"), 4));
		json_array_foreach(json_object_get(reps[k], "rows"), i, row) {
			if (nr == cap) {
				struct frow *nv = realloc(r, (cap = cap ? 2 * cap : 64) * sizeof(*r));

				if (!nv)
					break;
				r = nv;
			}
			struct frow *fr = &r[nr++];

			memset(fr, 0, sizeof(*fr));
			fr->seq = nr;
			fr->tagi = k;
			fr->row = row;
			fr->tag = tags ? tags[k] : NULL;
			frow_parse_point(res_str(row, "point", ""), &ks, fr);
			snprintf(fr->series, sizeof(fr->series), "%s", res_str(row, "b.workload", "?"));
			pstyle_of(fr->series, NULL, &fr->st);
			any = 1;
		}
		ntags += any;
	}
	if (!nr) {
		plot_skip(p, "%s", empty);
		free(r);
		return;
	}
	qsort(r, nr, sizeof(*r), frow_cmp);
	frow_label(r, nr, &ks, ntags > 1);
	if (o) {
		answer_axis(r, nr, o); /* one axis for every family's figure */
		frow_split_by_lock(r, nr);
	}
	if (forest_height(r, nr, o) <= FOREST_MAX_PX || !by_family(c, p, r, nr, &ks, ntags, band,
								       xlabel, o))
		draw(c, p, r, nr, band, xlabel, o);
	free(r);
}

void plot_forest(struct plotctx *c, const char *name, const char *title, const char *caption,
		 const char *xlabel, json_t *const *reps, const char *const *tags, size_t n,
		 const char *empty)
{
	forest(c, plot_new(c, name, title, "forest.gp", caption), xlabel, reps, tags, n, empty,
	       NULL);
}

void plot_answer(struct plotctx *c, const char *name, const char *title, const char *caption,
		 const char *xlabel, json_t *const *reps, const char *const *tags, size_t n,
		 double published)
{
	struct fview o = { .published = published };

	forest(c, plot_new(c, name, title, "answer.gp", caption), xlabel, reps, tags, n,
	       "no contrast of the question has a pair in these inputs", &o);
}
