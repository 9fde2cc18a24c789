/* plotpanel.c - small multiples for `slicebench plot` (see plotpanel.h). */
#define _GNU_SOURCE
#include "plotpanel.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "resget.h"
#include "textfmt.h"

/* Run keys that are swept axes, in the order a panel title names them. */
static const char *const axes[] = { "threads", "cs_ns",	 "think_ns", "noise", "cachelines",
				    "slice_ext_nsec", "victim", "loop", "pin", NULL };

static const json_t *param(const json_t *r, const char *key)
{
	return json_object_get(json_object_get(r, fld_r_params), key);
}

static int same(const json_t *a, const json_t *b)
{
	return (!a && !b) || (a && b && json_equal(a, b));
}

static int varies(const struct plotctx *c, const char *key)
{
	const json_t *first = NULL;
	int seen = 0;
	size_t i;
	json_t *r;

	PLOT_FOREACH(c, d, i, r) {
		if (!seen++)
			first = param(r, key);
		else if (!same(first, param(r, key)))
			return 1;
	}
	return 0;
}

/* Whether key's value follows from by's over all results of one input. */
static int follows(const struct plotctx *c, const char *key, const char *by)
{
	for (size_t d = 0; d < c->ndocs; d++) {
		const json_t *res = json_object_get(c->docs[d], fld_results);
		size_t n = json_array_size(res);

		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				const json_t *a = json_array_get(res, i), *b = json_array_get(res, j);

				if (same(param(a, by), param(b, by)) &&
				    !same(param(a, key), param(b, key)))
					return 0;
			}
	}
	return 1;
}

void facet_init(struct facet *f, const struct plotctx *c, const char *xkey)
{
	memset(f, 0, sizeof(*f));
	f->by_doc = c->ndocs > 1;
	for (size_t k = 0; axes[k] && f->nkeys < sizeof(f->keys) / sizeof(f->keys[0]); k++) {
		int keep = strcmp(axes[k], xkey) && varies(c, axes[k]);

		if (keep && *xkey && follows(c, axes[k], xkey))
			keep = 0;
		for (size_t j = 0; keep && j < f->nkeys; j++)
			if (follows(c, axes[k], f->keys[j]))
				keep = 0;
		if (keep)
			f->keys[f->nkeys++] = axes[k];
	}
}

static void base_of(const char *path, char *buf, size_t len)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	char *b = basename(tmp);
	size_t n = strlen(b);

	if (n > 8 && !strcmp(b + n - 8, ".json.gz"))
		b[n - 8] = '\0';
	else if (n > 5 && !strcmp(b + n - 5, ".json"))
		b[n - 5] = '\0';
	snprintf(buf, len, "%s", b);
}

void doc_tag(const struct plotctx *c, size_t d, char *buf, size_t len)
{
	char mine[256], other[256];
	size_t keep = 0;

	base_of(c->names[d], mine, sizeof(mine));
	keep = c->ndocs > 1 ? strlen(mine) : 0; /* alone, an input keeps its whole name */
	for (size_t e = 0; e < c->ndocs; e++) {
		size_t k = 0;

		base_of(c->names[e], other, sizeof(other));
		while (k < keep && mine[k] == other[k])
			k++;
		keep = k;
	}
	while (keep && mine[keep - 1] != '-' && mine[keep - 1] != '_')
		keep--;
	if (!mine[keep])
		keep = 0; /* never empty: a name that is all prefix stays whole */
	snprintf(buf, len, "%s", mine + keep);
}

void facet_panel(const struct facet *f, const struct plotctx *c, size_t d, const json_t *r,
		 char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (f->by_doc) {
		doc_tag(c, d, buf, len);
		n = strlen(buf);
	}
	for (size_t k = 0; k < f->nkeys && n < len; k++) {
		char v[64];
		const json_t *x = param(r, f->keys[k]);

		if (json_is_boolean(x) || json_is_array(x))
			snprintf(v, sizeof(v), "off"); /* no run writes these for an axis */
		else
			val_str(x, v, sizeof(v));
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? ", " : "", f->keys[k], v);
	}
}

void facet_point(const struct facet *f, const struct plotctx *c, size_t d, const json_t *r,
		 struct ppt *pt)
{
	const char *w = res_str(r, fld_r_workload, "?");

	facet_panel(f, c, d, r, pt->panel, sizeof(pt->panel));
	snprintf(pt->series, sizeof(pt->series), "%s", w);
	pstyle_of(w, json_object_get(r, fld_r_params), &pt->st);
}

void ppts_add(struct ppts *s, const struct ppt *p)
{
	size_t pid;

	for (pid = 0; pid < s->npanels && strcmp(s->panels[pid], p->panel); pid++)
		;
	if (pid == s->npanels) {
		char(*np)[192] = realloc(s->panels, (s->npanels + 1) * sizeof(*np));

		if (!np)
			return;
		s->panels = np;
		snprintf(s->panels[s->npanels++], sizeof(*np), "%s", p->panel);
	}
	if (s->n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 64;
		struct ppt *nv = realloc(s->v, nc * sizeof(*nv));

		if (!nv)
			return;
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n] = *p;
	if (!p->ordered)
		s->v[s->n].order = p->x;
	s->v[s->n++].pid = pid;
}

void ppts_free(struct ppts *s)
{
	free(s->v);
	free(s->panels);
	*s = (struct ppts){ 0 };
}

static int ser_cmp(const struct ppt *x, const struct ppt *y)
{
	if (x->st.order != y->st.order)
		return x->st.order < y->st.order ? -1 : 1;
	return strcmp(x->series, y->series);
}

static int pt_cmp(const void *a, const void *b)
{
	const struct ppt *x = a, *y = b;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if ((c = ser_cmp(x, y)))
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

void ppts_sort(struct ppts *s)
{
	qsort(s->v, s->n, sizeof(*s->v), pt_cmp);
}

/* Index of each point's series within its panel (points sorted), and the
 * number of series per panel in nser[pid]. */
static void series_index(const struct ppts *s, size_t *idx, size_t *nser)
{
	for (size_t i = 0; i < s->n; i++) {
		int newp = !i || s->v[i].pid != s->v[i - 1].pid;
		int news = newp || ser_cmp(&s->v[i], &s->v[i - 1]);

		if (newp)
			nser[s->v[i].pid] = 0;
		if (news)
			nser[s->v[i].pid]++;
		idx[i] = nser[s->v[i].pid] - 1;
	}
}

/* Re-registers every point's panel under a new title, in sorted order. */
static void repanel(struct ppts *s, char (*title)[320])
{
	struct ppts t = { 0 };

	for (size_t i = 0; i < s->n; i++) {
		struct ppt p = s->v[i];

		snprintf(p.panel, sizeof(p.panel), "%.*s", (int)sizeof(p.panel) - 1, title[i]);
		ppts_add(&t, &p);
	}
	t.keep_panels = s->keep_panels;
	ppts_free(s);
	*s = t;
	qsort(s->v, s->n, sizeof(*s->v), pt_cmp);
}

static void split_crowded(struct ppts *s)
{
	size_t *idx = calloc(s->n + 1, sizeof(*idx)), *nser = calloc(s->npanels + 1, sizeof(*nser));
	char(*title)[320] = calloc(s->n + 1, sizeof(*title));

	if (!idx || !nser || !title)
		goto out;
	for (int pass = 0; pass < 2; pass++) {
		size_t most = 0, *nn;

		series_index(s, idx, nser);
		for (size_t p = 0; p < s->npanels; p++)
			most = nser[p] > most ? nser[p] : most;
		if (most <= PANEL_MAX_SERIES)
			break;
		for (size_t i = 0; i < s->n; i++) {
			const struct ppt *p = &s->v[i];
			size_t ns = nser[p->pid], parts = (ns + PANEL_MAX_SERIES - 1) / PANEL_MAX_SERIES;
			size_t per = (ns + parts - 1) / parts;
			const char *sep = p->panel[0] ? ", " : "";

			if (ns <= PANEL_MAX_SERIES)
				snprintf(title[i], sizeof(*title), "%s", p->panel);
			else if (!pass)
				snprintf(title[i], sizeof(*title), "%s%s%s locks", p->panel, sep,
					 p->st.sleeps ? "sleeping" : "spinning");
			else
				snprintf(title[i], sizeof(*title), "%s%spart %zu of %zu", p->panel, sep,
					 idx[i] / per + 1, parts);
		}
		repanel(s, title);
		nn = realloc(nser, (s->npanels + 1) * sizeof(*nser));
		if (!nn)
			break;
		nser = nn;
		free(idx);
		idx = calloc(s->n + 1, sizeof(*idx));
		if (!idx)
			break;
	}
out:
	free(idx);
	free(nser);
	free(title);
}

/* A panel title as a double-quoted gnuplot string, broken into lines of
 * at most width characters after its commas, so titles of neighbouring
 * panels never run into each other. */
void gpv_title(struct gpvars *v, const char *s, size_t width)
{
	size_t col = 0;

	gpv_add(v, "\"");
	for (const char *w = s; *w;) {
		size_t n = strcspn(w, ",");

		if (w[n] == ',')
			n++;
		if (col && col + n > width) {
			gpv_add(v, "\\n");
			col = 0;
			while (*w == ' ')
				w++, n--;
		}
		for (size_t k = 0; k < n; k++)
			gpv_add(v, "%s%c", w[k] == '"' || w[k] == '\\' ? "\\" : "", w[k]);
		col += n;
		w += n;
	}
	gpv_add(v, "\"");
}

/* Panels per row: two up to four panels, else three (1000 pixels wide). */
static size_t layout_cols(size_t np)
{
	return np <= 1 ? 1 : np <= 4 ? 2 : 3;
}

size_t ppts_write(struct ppts *s, FILE *f, struct gpvars *v, int labels)
{
	struct gpvars bt = { 0 }, bc = { 0 }, bpt = { 0 }, bdt = { 0 }, bdx = { 0 };
	struct gpvars pt = { 0 }, pb0 = { 0 }, pb1 = { 0 };
	size_t nb = 0, cur = 0, most = 0, *idx, *nser;
	double ymin = INFINITY, ymax = -INFINITY, xmin = INFINITY, xmax = -INFINITY;

	qsort(s->v, s->n, sizeof(*s->v), pt_cmp);
	if (!s->keep_panels)
		split_crowded(s);
	idx = calloc(s->n + 1, sizeof(*idx));
	nser = calloc(s->npanels + 1, sizeof(*nser));
	if (!idx || !nser) {
		free(idx);
		free(nser);
		return 0;
	}
	series_index(s, idx, nser);
	for (size_t i = 0; i < s->n; i++) {
		const struct ppt *p = &s->v[i];
		int newp = !i || p->pid != s->v[i - 1].pid;
		int news = newp || ser_cmp(p, &s->v[i - 1]);

		if (!news && p->order == s->v[i - 1].order)
			continue; /* the first point at an x wins */
		if (newp) {
			if (p->pid)
				gpv_add(&pb1, "%s%zu", p->pid > 1 ? "," : "", nb);
			gpv_add(&pt, "%s", p->pid ? "," : "");
			gpv_title(&pt, s->panels[p->pid], 130 / layout_cols(s->npanels));
			gpv_add(&pb0, "%s%zu", p->pid ? "," : "", nb + 1);
		}
		if (news) {
			const char *sep = nb ? "," : "";
			/* about 3% of a doubling per series on a log-2 axis */
			double dx = exp2(((double)idx[i] - ((double)nser[p->pid] - 1) / 2) * 0.04);

			if (nb)
				fprintf(f, "\n\n");
			fprintf(f, "# %s | %s\n", s->panels[p->pid], p->series);
			gpv_add(&bt, "%s", sep);
			gpv_str(&bt, NULL, p->series);
			gpv_add(&bc, "%s'#%06x'", sep, p->st.rgb);
			gpv_add(&bpt, "%s%d", sep, p->st.pt);
			if (p->st.dash)
				gpv_add(&bdt, "%s'%s'", sep, p->st.dash);
			else
				gpv_add(&bdt, "%s1", sep);
			gpv_add(&bdx, "%s%.4f", sep, dx);
			nb++;
			cur = 0;
		}
		if (++cur > most)
			most = cur;
		xmin = fmin(xmin, p->x);
		xmax = fmax(xmax, p->x);
		if (p->y > 0) {
			ymin = fmin(ymin, p->lo > 0 ? p->lo : p->y);
			ymax = fmax(ymax, p->hi > p->y ? p->hi : p->y);
		}
		fprintf(f, "%.10g %.10g %.10g %.10g", p->x, p->y, p->lo, p->hi);
		if (labels)
			fprintf(f, " %s", p->label);
		fputc('\n', f);
	}
	gpv_add(&pb1, "%s%zu", s->npanels > 1 ? "," : "", nb);
	size_t np = s->npanels, cols = layout_cols(np);

	if (!isfinite(ymin) || !isfinite(ymax))
		ymin = ymax = 1; /* nothing positive: the templates autoscale around it */
	gpv_add(v, "npan=%zu; nb=%zu; cols=%zu; rows=%zu; logy=%d; ", np, nb, cols,
		(np + cols - 1) / cols, ymax / ymin > 10);
	gpv_add(v, "xmin=%.10g; xmax=%.10g; ymin=%.10g; ymax=%.10g; ", xmin, xmax, ymin, ymax);
	gpv_add(v, "array PT[%zu]=[%s]; array PB0[%zu]=[%s]; array PB1[%zu]=[%s]; ", np,
		pt.s ? pt.s : "", np, pb0.s ? pb0.s : "", np, pb1.s ? pb1.s : "");
	gpv_add(v, "array BT[%zu]=[%s]; array BC[%zu]=[%s]; array BPT[%zu]=[%s]; ", nb,
		bt.s ? bt.s : "", nb, bc.s ? bc.s : "", nb, bpt.s ? bpt.s : "");
	gpv_add(v, "array BDT[%zu]=[%s]; array BDX[%zu]=[%s]; ", nb, bdt.s ? bdt.s : "", nb,
		bdx.s ? bdx.s : "");
	gpv_free(&bt);
	gpv_free(&bc);
	gpv_free(&bpt);
	gpv_free(&bdt);
	gpv_free(&bdx);
	gpv_free(&pt);
	gpv_free(&pb0);
	gpv_free(&pb1);
	free(idx);
	free(nser);
	return most;
}

void ppts_render(struct plotctx *c, struct plot *p, struct ppts *s, struct gpvars *v, int labels,
		 size_t need, const char *empty)
{
	size_t most, rows = 1, cols;
	FILE *f;

	if (!s->n) {
		plot_skip(p, "%s", empty);
		return;
	}
	f = plot_dat(c, p);
	if (!f)
		return;
	most = ppts_write(s, f, v, labels);
	fclose(f);
	if (most < need) {
		plot_skip(p, "no series has %zu or more points (at most %zu)", need, most);
		plot_dat_remove(c, p);
		return;
	}
	cols = layout_cols(s->npanels);
	while (rows * cols < s->npanels)
		rows++;
	/* rows of 370 px, shorter when there are more than four: no figure
	 * is taller than 1,600 px (sixteen panels of the contention study's
	 * made one of 2,280) */
	plot_render(c, p, v, 1000, 60 + (int)(rows <= 4 ? 370 : 1540 / rows) * (int)rows);
}
