/* plot.c - render result files with gnuplot.
 *
 * Each plot is a .dat file (gnuplot index blocks, one per series) plus a
 * template from plots/ that only draws; the terminal, output and the
 * series names are set here with -e, once for pngcairo and once for svg.
 * A plot without data is skipped with a note in index.html; a gnuplot
 * failure is reported with its stderr and makes the verb exit 1. */
#define _GNU_SOURCE
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "outfile.h"
#include "resload.h"
#include "textfmt.h"

#define MAXPLOTS 16

struct plot {
	const char *name, *title, *tmpl;
	int state; /* 0 skipped, 1 ok, -1 failed */
	char note[PATH_MAX + 1024];
};

struct ctx {
	const char *outdir, *tmpldir;
	json_t **docs;
	const char *const *names;
	size_t ndocs;
	struct plot plots[MAXPLOTS];
	size_t nplots;
};

/* A series name for gnuplot's word(): no spaces, no quotes. */
static void clean(char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '\'' || *s == '"' || *s == '\\')
			*s = *s == ' ' ? '_' : '-';
}

static void tag_of(const struct ctx *c, size_t d, char *buf, size_t len, int colon)
{
	char tmp[PATH_MAX];

	if (c->ndocs < 2) {
		buf[0] = '\0';
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s", c->names[d]);
	char *b = basename(tmp);
	size_t n = strlen(b);

	if (n > 5 && !strcmp(b + n - 5, ".json"))
		b[n - 5] = '\0';
	snprintf(buf, len, "%s%s", b, colon ? ":" : "");
}

/* Run keys that are swept axes; a series is a workload plus the values of
 * those that vary across all inputs (except the plot's own x axis). */
static const char *const axes[] = { "threads", "cs_ns", "think_ns", "noise", "cachelines",
				    "slice_ext_nsec", "victim", "loop", NULL };

static int varies(const struct ctx *c, const char *key)
{
	const json_t *first = NULL;
	int seen = 0;

	for (size_t d = 0; d < c->ndocs; d++) {
		size_t i;
		json_t *r;

		json_array_foreach(json_object_get(c->docs[d], "results"), i, r) {
			json_t *v = json_object_get(json_object_get(r, "params"), key);

			if (!seen++)
				first = v;
			else if (!json_equal(first, v) && (first || v))
				return 1;
		}
	}
	return 0;
}

static void series_name(const struct ctx *c, size_t d, const json_t *r, const char *xkey,
			int with_threads, char *buf, size_t len)
{
	char tag[128], v[64];
	const json_t *p = json_object_get(r, "params");

	tag_of(c, d, tag, sizeof(tag), 1);
	snprintf(buf, len, "%s%s", tag, res_str(r, "workload", "?"));
	for (size_t k = 0; axes[k]; k++) {
		if (!strcmp(axes[k], xkey) || (!with_threads && !strcmp(axes[k], "threads")))
			continue;
		if (strcmp(axes[k], "threads") && !varies(c, axes[k]))
			continue;
		size_t n = strlen(buf);

		const json_t *x = json_object_get(p, axes[k]);

		/* A boolean or a list, which no run writes for an axis,
		 * names as "off". */
		if (json_is_boolean(x) || json_is_array(x))
			snprintf(v, sizeof(v), "off");
		else
			val_str(x, v, sizeof(v));
		snprintf(buf + n, len - n, "/%s=%s", axes[k], v);
	}
	clean(buf);
}

/* ---- files ---- */

static FILE *dat_open(const struct ctx *c, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s.dat", c->outdir, name);
	return fopen(path, "w");
}

static void skip(struct plot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void skip(struct plot *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->note, sizeof(p->note), fmt, ap);
	va_end(ap);
	p->state = 0;
}

/* gnuplot single-quoted string: a quote is doubled. */
static void gq(char *dst, size_t len, const char *s)
{
	size_t n = 0;

	if (len < 3)
		return;
	dst[n++] = '\'';
	for (; *s && n + 3 < len; s++) {
		if (*s == '\'')
			dst[n++] = '\'';
		dst[n++] = *s;
	}
	dst[n++] = '\'';
	dst[n] = '\0';
}

/* Runs gnuplot in the output directory, once per terminal; 0 or -1 with
 * the first lines of its stderr in p->note. */
static int render(struct ctx *c, struct plot *p, const char *names, size_t n, const char *extra,
		  int height)
{
	static const char *const terms[2][2] = {
		{ "pngcairo size 1000,%d noenhanced font 'Sans,10'", "png" },
		{ "svg size 1000,%d noenhanced font 'Sans,10' background rgb 'white'", "svg" },
	};
	char tmpl[PATH_MAX], logp[PATH_MAX], qn[2048], qt[512], term[256];

	snprintf(tmpl, sizeof(tmpl), "%s/%s", c->tmpldir, p->tmpl);
	if (access(tmpl, R_OK)) {
		snprintf(p->note, sizeof(p->note), "template %s: %s", tmpl, strerror(errno));
		p->state = -1;
		return -1;
	}
	snprintf(logp, sizeof(logp), "%s/.%s.gnuplot.log", c->outdir, p->name);
	gq(qn, sizeof(qn), names);
	gq(qt, sizeof(qt), p->title);
	for (int t = 0; t < 2; t++) {
		char *e = NULL;

		snprintf(term, sizeof(term), terms[t][0], height);
		if (asprintf(&e, "set terminal %s; set output '%s.%s'; datafile='%s.dat'; n=%zu; "
				 "names=%s; ptitle=%s; %s",
			     term, p->name, terms[t][1], p->name, n, qn, qt, extra ? extra : "") < 0)
			return -1;
		pid_t pid = fork();

		if (pid < 0) {
			free(e);
			snprintf(p->note, sizeof(p->note), "fork: %s", strerror(errno));
			p->state = -1;
			return -1;
		}
		if (pid == 0) {
			int fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd >= 0) {
				dup2(fd, 2);
				dup2(fd, 1);
				close(fd);
			}
			if (chdir(c->outdir))
				_exit(126);
			execlp("gnuplot", "gnuplot", "-e", e, tmpl, (char *)NULL);
			fprintf(stderr, "gnuplot: %s\n", strerror(errno));
			_exit(127);
		}
		free(e);
		int st;

		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			FILE *f = fopen(logp, "r");
			size_t got = 0;
			int len = snprintf(p->note, sizeof(p->note), "gnuplot (%s) exited %d: ",
					   terms[t][1], WIFEXITED(st) ? WEXITSTATUS(st) : -1);

			if (f) {
				got = fread(p->note + len, 1, sizeof(p->note) - (size_t)len - 1, f);
				fclose(f);
			}
			p->note[len + (int)got] = '\0';
			p->state = -1;
			return -1;
		}
		char out[PATH_MAX];
		struct stat sb;

		snprintf(out, sizeof(out), "%s/%s.%s", c->outdir, p->name, terms[t][1]);
		if (stat(out, &sb) || sb.st_size == 0) {
			snprintf(p->note, sizeof(p->note), "gnuplot wrote no %s", out);
			p->state = -1;
			return -1;
		}
	}
	unlink(logp);
	p->state = 1;
	return 0;
}

static struct plot *plot_new(struct ctx *c, const char *name, const char *title,
			     const char *tmpl)
{
	struct plot *p = &c->plots[c->nplots++];

	p->name = name;
	p->title = title;
	p->tmpl = tmpl;
	p->state = 0;
	p->note[0] = '\0';
	return p;
}

/* ---- series collection ---- */

struct pt {
	char series[256];
	double x, y, lo, hi;
	char label[64];
};

struct pts {
	struct pt *v;
	size_t n, cap;
};

static void pts_add(struct pts *s, const struct pt *p)
{
	if (s->n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 64;
		struct pt *nv = realloc(s->v, nc * sizeof(*nv));

		if (!nv)
			return;
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n++] = *p;
}

static int pt_cmp(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	int c = strcmp(x->series, y->series);

	return c ? c : (x->x > y->x) - (x->x < y->x);
}

/* Writes the points as index blocks, one per series, sorted by x; the first
 * point at an x wins.  Returns the number of series and fills names;
 * *maxpts is the most points any series has. */
static size_t pts_write(struct pts *s, FILE *f, char *names, size_t nlen, size_t *maxpts,
			int labels)
{
	size_t ns = 0, cur = 0;

	*maxpts = 0;
	names[0] = '\0';
	/* stable order of first appearance would be nicer; sorted is stable
	 * across runs, which matters more for diffs of .dat files */
	qsort(s->v, s->n, sizeof(*s->v), pt_cmp);
	for (size_t i = 0; i < s->n; i++) {
		int newser = !i || strcmp(s->v[i].series, s->v[i - 1].series);

		if (!newser && s->v[i].x == s->v[i - 1].x)
			continue;
		if (newser) {
			size_t l = strlen(names);

			if (ns)
				fprintf(f, "\n\n");
			fprintf(f, "# %s\n", s->v[i].series);
			snprintf(names + l, nlen - l, "%s%s", ns ? " " : "", s->v[i].series);
			ns++;
			cur = 0;
		}
		cur++;
		if (cur > *maxpts)
			*maxpts = cur;
		fprintf(f, "%.10g %.10g %.10g %.10g", s->v[i].x, s->v[i].y, s->v[i].lo,
			s->v[i].hi);
		if (labels)
			fprintf(f, " %s", s->v[i].label);
		fputc('\n', f);
	}
	return ns;
}

#define FOREACH_OK(c, d, i, r)                                                   \
	for (size_t d = 0; d < (c)->ndocs; d++)                                    \
		json_array_foreach(json_object_get((c)->docs[d], "results"), i, r) \
			if (!strcmp(res_str(r, "status", ""), "ok"))

static void finish_plot(struct ctx *c, struct plot *p, struct pts *s, const char *empty,
			size_t need, const char *extra, int labels)
{
	char path[PATH_MAX], names[8192];
	size_t maxpts;
	FILE *f;

	if (!s->n) {
		skip(p, "%s", empty);
		return;
	}
	f = dat_open(c, p->name, path, sizeof(path));
	if (!f) {
		snprintf(p->note, sizeof(p->note), "%s: %s", path, strerror(errno));
		p->state = -1;
		return;
	}
	size_t ns = pts_write(s, f, names, sizeof(names), &maxpts, labels);

	fclose(f);
	if (maxpts < need) {
		skip(p, "no series has %zu or more points (%zu series of at most %zu)", need, ns,
		     maxpts);
		unlink(path);
		return;
	}
	render(c, p, names, ns, extra, 620);
}

static void plot_threads(struct ctx *c)
{
	struct plot *p = plot_new(c, "throughput_threads", "Throughput vs threads (95% CI)",
				  "throughput_threads.gp");
	struct pts s = { 0 };
	size_t i;
	json_t *r;

	FOREACH_OK(c, d, i, r) {
		const json_t *o = res_get(r, "summary.ops_per_sec");
		struct pt pt = { .x = res_num(r, "nthreads"), .y = res_num(o, "mean") };

		pt.lo = res_num(o, "ci95_lo");
		pt.hi = res_num(o, "ci95_hi");
		if (!isfinite(pt.x) || !isfinite(pt.y))
			continue;
		if (!isfinite(pt.lo) || !isfinite(pt.hi))
			pt.lo = pt.hi = pt.y;
		if (pt.lo < 0)
			pt.lo = 0; /* a CI from 2 repetitions can reach below zero */
		series_name(c, d, r, "threads", 0, pt.series, sizeof(pt.series));
		pts_add(&s, &pt);
	}
	finish_plot(c, p, &s, "no ok result with summary.ops_per_sec and nthreads", 1, NULL, 0);
	free(s.v);
}

static void plot_cs(struct ctx *c)
{
	struct plot *p = plot_new(c, "throughput_cs",
				  "Throughput vs critical-section length (95% CI)",
				  "throughput_cs.gp");
	struct pts s = { 0 };
	size_t i;
	json_t *r;
	int logx = 1;

	FOREACH_OK(c, d, i, r) {
		const json_t *o = res_get(r, "summary.ops_per_sec");
		struct pt pt = { .x = res_num(r, "params.cs_ns"), .y = res_num(o, "mean") };

		pt.lo = res_num(o, "ci95_lo");
		pt.hi = res_num(o, "ci95_hi");
		if (!isfinite(pt.x) || !isfinite(pt.y) || !(pt.y > 0))
			continue;
		if (!isfinite(pt.lo) || !isfinite(pt.hi) || pt.lo <= 0)
			pt.lo = pt.hi = pt.y; /* a log axis cannot show a CI through zero */
		if (pt.x <= 0)
			logx = 0;
		series_name(c, d, r, "cs_ns", 1, pt.series, sizeof(pt.series));
		pts_add(&s, &pt);
	}
	finish_plot(c, p, &s, "no ok result with summary.ops_per_sec and params.cs_ns", 2,
		    logx ? "logx=1" : "logx=0", 0);
	if (p->state == 0 && s.n)
		snprintf(p->note + strlen(p->note), sizeof(p->note) - strlen(p->note),
			 ": the inputs do not sweep cs_ns");
	free(s.v);
}

/* Histogram points: per bucket, x = bucket midpoint and y = its fraction
 * (ccdf = 0) or x = bucket end and y = the fraction above it (ccdf = 1). */
static void hist_points(struct pts *s, const json_t *h, const char *series, int ccdf)
{
	size_t i;
	json_t *b;
	double total = 0, above;

	json_array_foreach(h, i, b)
		if (json_is_array(b) && json_is_number(json_array_get(b, 2)))
			total += json_number_value(json_array_get(b, 2));
	if (!(total > 0))
		return;
	above = total;
	json_array_foreach(h, i, b) {
		double lo = json_number_value(json_array_get(b, 0));
		double w = json_number_value(json_array_get(b, 1));
		double cnt = json_number_value(json_array_get(b, 2));
		struct pt pt = { 0 };

		if (!json_is_array(b) || !json_is_number(json_array_get(b, 0)) ||
		    !json_is_number(json_array_get(b, 1)) || !(cnt >= 0))
			continue;
		snprintf(pt.series, sizeof(pt.series), "%s", series);
		if (!ccdf) {
			pt.x = lo + w / 2;
			pt.y = cnt / total;
			if (pt.x > 0)
				pts_add(s, &pt);
			continue;
		}
		if (i == 0 && lo > 0) {
			pt.x = lo;
			pt.y = 1;
			pts_add(s, &pt);
		}
		above -= cnt;
		pt.x = lo + w;
		pt.y = above / total;
		if (pt.y > 0 && pt.x > 0) /* zero has no place on a log axis */
			pts_add(s, &pt);
	}
}

static void plot_hist(struct ctx *c, const char *name, const char *title, const char *key,
		      const char *xl, int ccdf, const char *tmpl, const char *empty)
{
	struct plot *p = plot_new(c, name, title, tmpl);
	struct pts s = { 0 };
	size_t i;
	json_t *r;
	char extra[256], q[128];

	FOREACH_OK(c, d, i, r) {
		const json_t *h = res_get(r, key);
		char series[256];

		if (!json_is_array(h))
			continue;
		series_name(c, d, r, "", 1, series, sizeof(series));
		hist_points(&s, h, series, ccdf);
	}
	gq(q, sizeof(q), xl);
	snprintf(extra, sizeof(extra), "xl=%s", q);
	finish_plot(c, p, &s, empty, 1, extra, 0);
	free(s.v);
}

/* The extension-length trade-off.  The gain is over the same workload
 * with slice_ext_nsec = 0 (the kernel default) at the same other run
 * parameters, else over its shortest extension in the sweep. */
static void plot_ext(struct ctx *c)
{
	struct plot *p = plot_new(c, "ext_tradeoff",
				  "Extension length: throughput gain vs victim p99.99",
				  "ext_tradeoff.gp");
	struct pts s = { 0 };
	size_t i, j;
	json_t *r, *q;

	FOREACH_OK(c, d, i, r) {
		double ext = res_num(r, "params.slice_ext_nsec");
		double vp = res_num(r, "summary.victim.p99_99");
		double y = res_num(r, "summary.ops_per_sec.mean");
		double base = NAN, base_ext = INFINITY;

		if (!(ext > 0) || !isfinite(vp) || !(y > 0))
			continue;
		json_array_foreach(json_object_get(c->docs[d], "results"), j, q) {
			double e = res_num(q, "params.slice_ext_nsec");
			double by = res_num(q, "summary.ops_per_sec.mean");
			const json_t *pa = json_object_get(r, "params"),
				     *pb = json_object_get(q, "params");
			const char *k;
			json_t *v;
			int same = !strcmp(res_str(q, "workload", ""), res_str(r, "workload", "")) &&
				   strcmp(res_str(q, "status", ""), "ok") == 0 && by > 0;

			json_object_foreach((json_t *)pa, k, v)
				if (same && strcmp(k, "slice_ext_nsec") &&
				    !json_equal(v, json_object_get(pb, k)))
					same = 0;
			if (same && isfinite(e) && e < base_ext) {
				base_ext = e;
				base = by;
			}
		}
		struct pt pt = { .x = vp / 1000, .y = 100 * (y / base - 1) };

		if (!isfinite(pt.y))
			continue;
		pt.lo = pt.hi = pt.y;
		snprintf(pt.label, sizeof(pt.label), "%.0fus", ext / 1000);
		series_name(c, d, r, "slice_ext_nsec", 1, pt.series, sizeof(pt.series));
		pts_add(&s, &pt);
	}
	finish_plot(c, p, &s,
		    "no ok result with params.slice_ext_nsec > 0 and summary.victim (run an "
		    "extension-length sweep with the victim probe, e.g. configs/interference.json "
		    "on a kernel with the feature)",
		    1, NULL, 1);
	free(s.v);
}

static void plot_counters(struct ctx *c)
{
	static const struct {
		const char *path, *name;
	} cols[] = {
		{ "summary.counters.tsc_cycles_per_op", "tsc_cycles/op" },
		{ "summary.counters.cycles_per_op", "cycles/op" },
		{ "summary.counters.instructions_per_op", "instructions/op" },
		{ "summary.counters.context_switches_per_op", "context_switches/op" },
		{ "summary.counters.preemptions_per_1000_ops", "preemptions/1000ops" },
		{ "summary.slice.grants_per_1000_ops", "slice_grants/1000ops" },
		{ "summary.slice.yields_per_1000_ops", "slice_yields/1000ops" },
	};
	enum { NC = sizeof(cols) / sizeof(cols[0]) };
	struct plot *p = plot_new(c, "counters", "Counters per operation", "counters.gp");
	int present[NC] = { 0 };
	size_t i, rows = 0, np = 0;
	json_t *r;
	char path[PATH_MAX], names[1024] = "";

	FOREACH_OK(c, d, i, r)
		for (size_t k = 0; k < NC; k++)
			if (isfinite(res_num(r, cols[k].path)))
				present[k] = 1;
	for (size_t k = 0; k < NC; k++)
		if (present[k]) {
			size_t l = strlen(names);

			snprintf(names + l, sizeof(names) - l, "%s%s", np ? " " : "", cols[k].name);
			np++;
		}
	if (!np) {
		skip(p, "no ok result has summary.counters or summary.slice per-op values");
		return;
	}
	FILE *f = dat_open(c, p->name, path, sizeof(path));

	if (!f) {
		snprintf(p->note, sizeof(p->note), "%s: %s", path, strerror(errno));
		p->state = -1;
		return;
	}
	fprintf(f, "# result %s\n", names);
	FOREACH_OK(c, d, i, r) {
		char s[256];

		series_name(c, d, r, "", 1, s, sizeof(s));
		fprintf(f, "%s", s);
		for (size_t k = 0; k < NC; k++)
			if (present[k])
				fprintf(f, " %.10g", res_num(r, cols[k].path));
		fputc('\n', f);
		rows++;
	}
	fclose(f);
	render(c, p, names, np, NULL, 140 + 190 * (int)np);
	(void)rows;
}

static void plot_compare(struct ctx *c, json_t *rep)
{
	struct plot *p = plot_new(c, "compare", "Throughput ratio to the baseline (95% CI)",
				  "compare.gp");
	char path[PATH_MAX], names[4096] = "", extra[256];
	size_t i, nb = 0, nkeys = 0;
	json_t *row, *keys = json_array();

	if (c->ndocs < 2 || !rep) {
		skip(p, c->ndocs < 2 ? "one input: nothing to compare"
				     : "the inputs share no run (no overlapping workload and parameters)");
		json_decref(keys);
		return;
	}
	FILE *f = dat_open(c, p->name, path, sizeof(path));

	if (!f) {
		snprintf(p->note, sizeof(p->note), "%s: %s", path, strerror(errno));
		p->state = -1;
		json_decref(keys);
		return;
	}
	json_array_foreach(json_object_get(rep, "rows"), i, row) {
		char k[512];

		snprintf(k, sizeof(k), "%s/%s", res_str(row, "workload", "?"),
			 res_str(row, "point", ""));
		clean(k);
		size_t j;
		json_t *v;
		int have = 0;

		json_array_foreach(keys, j, v)
			have |= !strcmp(json_string_value(v), k);
		if (!have) {
			json_array_append_new(keys, json_string(k));
			nkeys++;
		}
	}
	for (size_t d = 1; d < c->ndocs; d++) {
		char tag[256];
		int any = 0;

		json_array_foreach(json_object_get(rep, "rows"), i, row) {
			char k[512];
			size_t j;
			json_t *v;

			if (strcmp(res_str(row, "b.file", ""), c->names[d]))
				continue;
			snprintf(k, sizeof(k), "%s/%s", res_str(row, "workload", "?"),
				 res_str(row, "point", ""));
			clean(k);
			json_array_foreach(keys, j, v)
				if (!strcmp(json_string_value(v), k))
					break;
			double ratio = res_num(row, "ratio");
			json_t *ci = json_object_get(row, "ratio_ci95");
			double lo = json_is_number(json_array_get(ci, 0))
					    ? json_number_value(json_array_get(ci, 0))
					    : ratio;
			double hi = json_is_number(json_array_get(ci, 1))
					    ? json_number_value(json_array_get(ci, 1))
					    : ratio;

			if (!isfinite(ratio))
				continue;
			if (!any && nb)
				fprintf(f, "\n\n");
			if (!any)
				fprintf(f, "# %s\n", c->names[d]);
			any = 1;
			fprintf(f, "%zu %.10g %.10g %.10g %s\n", j, ratio, lo, hi, k);
		}
		if (any) {
			size_t l = strlen(names);

			tag_of(c, d, tag, sizeof(tag), 0);
			clean(tag);
			snprintf(names + l, sizeof(names) - l, "%s%s", nb ? " " : "", tag);
			nb++;
		}
	}
	fclose(f);
	json_decref(keys);
	if (!nb) {
		skip(p, "no compared row has a ratio");
		unlink(path);
		return;
	}
	snprintf(extra, sizeof(extra), "bw=%.3f; yl='B/A (%s)'", 0.8 / (double)nb,
		 res_str(json_array_get(json_object_get(rep, "metrics"), 0), "", "ops_per_sec"));
	render(c, p, names, nb, extra, 620);
	(void)nkeys;
}

/* ---- index.html ---- */

static void meta_rows(FILE *f, const struct ctx *c)
{
	json_t *seen = json_array();

	fputs("<table class=\"meta\"><tr><th>input</th><th>host / CPU / kernel</th>"
	      "<th>summary</th><th>results</th></tr>\n", f);
	for (size_t d = 0; d < c->ndocs; d++) {
		size_t i;
		json_t *r;

		/* A directory may hold several machines: one row per group. */
		json_array_foreach(json_object_get(c->docs[d], "results"), i, r) {
			const json_t *m = res_meta_of(c->docs[d], r);
			char g[512], line[1024], key[1200];
			size_t n = 0, j;
			json_t *x, *v;

			res_group(m, g, sizeof(g));
			snprintf(key, sizeof(key), "%zu|%s", d, g);
			int dup = 0;

			json_array_foreach(seen, j, v)
				dup |= !strcmp(json_string_value(v), key);
			if (dup)
				continue;
			json_array_append_new(seen, json_string(key));
			json_array_foreach(json_object_get(c->docs[d], "results"), j, x) {
				char g2[512];

				res_group(res_meta_of(c->docs[d], x), g2, sizeof(g2));
				n += !strcmp(g, g2);
			}
			res_meta_line(m, line, sizeof(line));
			fputs("<tr><td><code>", f);
			html_esc(f, c->names[d]);
			fputs("</code></td><td>", f);
			html_esc(f, g);
			fputs("</td><td>", f);
			html_esc(f, line);
			fprintf(f, "</td><td>%zu</td></tr>\n", n);
		}
	}
	fputs("</table>\n", f);
	json_decref(seen);
}

static int write_index(const struct ctx *c, const json_t *rep, const char *cmp_err, char *err,
		       size_t len)
{
	char path[PATH_MAX];
	struct outfile o;
	FILE *f;

	snprintf(path, sizeof(path), "%s/index.html", c->outdir);
	f = outfile_open(&o, path, err, len);
	if (!f)
		return -1;
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
	      "<title>slicebench report</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;max-width:1100px}\n"
	      "table{border-collapse:collapse;font-size:0.85em}\n"
	      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}\n"
	      "tr.regressed td{background:#fdd}tr.improved td{background:#dfd}\n"
	      ".skipped{color:#666}.failed{color:#b00}.warnings{color:#b00}\n"
	      "img{max-width:100%;border:1px solid #eee}\n</style></head><body>\n"
	      "<h1>slicebench report</h1>\n",
	      f);
	meta_rows(f, c);
	fputs("<h2>Plots</h2>\n<ul>\n", f);
	for (size_t i = 0; i < c->nplots; i++) {
		const struct plot *p = &c->plots[i];

		fprintf(f, "<li><a href=\"#%s\">%s</a> %s</li>\n", p->name, p->title,
			p->state > 0 ? "" : p->state ? "(failed)" : "(skipped)");
	}
	fputs("</ul>\n", f);
	for (size_t i = 0; i < c->nplots; i++) {
		const struct plot *p = &c->plots[i];

		fprintf(f, "<h2 id=\"%s\">%s</h2>\n", p->name, p->title);
		if (p->state > 0) {
			fprintf(f, "<p><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"%s\"></a><br>"
				   "<a href=\"%s.svg\">%s.svg</a> &middot; "
				   "<a href=\"%s.dat\">%s.dat</a></p>\n",
				p->name, p->name, p->title, p->name, p->name, p->name, p->name);
		} else {
			fprintf(f, "<p class=\"%s\">%s: ", p->state ? "failed" : "skipped",
				p->state ? "failed" : "skipped");
			html_esc(f, p->note);
			fputs("</p>\n", f);
		}
	}
	fputs("<h2 id=\"comparison\">Comparison</h2>\n", f);
	if (rep)
		cmp_print(f, rep, CMP_HTML);
	else {
		fputs("<p class=\"skipped\">", f);
		html_esc(f, cmp_err);
		fputs("</p>\n", f);
	}
	fputs("</body></html>\n", f);
	return outfile_commit(&o, err, len);
}

/* ---- the verb ---- */

/* plots/ next to the binary's tree (build/slicebench, build/san-x/...),
 * else ./plots. */
static int find_templates(char *buf, size_t len)
{
	static const char *const rel[] = { "/../plots", "/../../plots", NULL };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		char *dir = dirname(exe);

		for (size_t i = 0; rel[i]; i++) {
			char t[PATH_MAX + 64];

			snprintf(t, sizeof(t), "%s%s/throughput_threads.gp", dir, rel[i]);
			if (!access(t, R_OK)) {
				snprintf(buf, len, "%s%s", dir, rel[i]);
				return 0;
			}
		}
	}
	if (!access("plots/throughput_threads.gp", R_OK)) {
		snprintf(buf, len, "plots");
		return 0;
	}
	return -1;
}

static int mkdir_p(const char *path, char *err, size_t len)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		goto fail;
	return 0;
fail:
	snprintf(err, len, "%s: %s", tmp, strerror(errno));
	return -1;
}

static void plot_usage(FILE *f)
{
	fprintf(f,
		"usage: slicebench plot RESULT.json [MORE.json | DIR ...] --out DIR\n"
		"                       [--templates DIR] [--metric NAME]\n"
		"\n"
		"Renders PNG and SVG plots with gnuplot (templates in plots/*.gp, data as\n"
		"DIR/NAME.dat) and DIR/index.html with the machines' summary and, for\n"
		"more than one input, the `compare` table against the first.  Plots:\n"
		"throughput_threads, throughput_cs, hold_ns, acquire_ns, victim_ccdf,\n"
		"ext_tradeoff, counters, compare.  A plot without data is skipped with a\n"
		"note in index.html.\n"
		"\n"
		"  -o, --out DIR         output directory (created)\n"
		"  -T, --templates DIR   gnuplot templates (default: plots/ of the tree)\n"
		"  -m, --metric NAME     metric of the comparison (default ops_per_sec)\n"
		"\n"
		"exit status: 0 done, 1 gnuplot failed, 2 bad input\n");
}

int cmd_plot(int argc, char **argv)
{
	static const struct option lo[] = { { "out", required_argument, 0, 'o' },
					    { "templates", required_argument, 0, 'T' },
					    { "metric", required_argument, 0, 'm' },
					    { "help", no_argument, 0, 'h' },
					    { 0, 0, 0, 0 } };
	const char *out = NULL, *tdir = NULL, *metric = "ops_per_sec";
	char err[8192], tbuf[PATH_MAX], cmp_err[8192] = "one input: nothing to compare";
	struct ctx c = { 0 };
	json_t *rep = NULL;
	int opt, rc = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:T:m:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'T': tdir = optarg; break;
		case 'm': metric = optarg; break;
		case 'h': plot_usage(stdout); return 0;
		default: plot_usage(stderr); return 2;
		}
	}
	if (!out || optind >= argc) {
		fprintf(stderr, "slicebench plot: %s\n",
			out ? "need at least one result file or directory" : "--out DIR is required");
		plot_usage(stderr);
		return 2;
	}
	const struct cmp_metric *m = cmp_metric_find(metric);

	if (!m) {
		fprintf(stderr, "slicebench plot: --metric: unknown metric \"%s\"\n", metric);
		return 2;
	}
	if (!tdir) {
		if (find_templates(tbuf, sizeof(tbuf))) {
			fprintf(stderr, "slicebench plot: cannot find the gnuplot templates "
					"(plots/*.gp); give --templates DIR\n");
			return 2;
		}
		tdir = tbuf;
	}
	char *abs_t = realpath(tdir, NULL);

	if (!abs_t) {
		fprintf(stderr, "slicebench plot: --templates %s: %s\n", tdir, strerror(errno));
		return 2;
	}
	c.ndocs = (size_t)(argc - optind);
	c.names = (const char *const *)&argv[optind];
	rc = res_load_all("slicebench plot", c.names, c.ndocs, &c.docs);
	if (!rc && mkdir_p(out, err, sizeof(err))) {
		fprintf(stderr, "slicebench plot: %s\n", err);
		rc = 2;
	}
	char *abs_out = rc ? NULL : realpath(out, NULL);

	if (!rc && !abs_out) {
		fprintf(stderr, "slicebench plot: %s: %s\n", out, strerror(errno));
		rc = 2;
	}
	if (!rc) {
		struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05, .nmetrics = 1 };

		o.metrics[0] = m;
		c.outdir = abs_out;
		c.tmpldir = abs_t;
		if (c.ndocs > 1 && cmp_docs(c.docs, c.names, c.ndocs, &o, &rep, cmp_err,
					    sizeof(cmp_err)))
			rep = NULL;
		plot_threads(&c);
		plot_cs(&c);
		plot_hist(&c, "hold_ns", "Hold-time distribution", "histograms.hold_ns",
			  "hold time (ns)", 0, "latency_hist.gp",
			  "no ok result has histograms.hold_ns");
		plot_hist(&c, "acquire_ns", "Acquire-latency distribution", "histograms.acquire_ns",
			  "acquire latency (ns)", 0, "latency_hist.gp",
			  "no ok result has histograms.acquire_ns");
		plot_hist(&c, "victim_ccdf", "Victim wakeup latency (CCDF)", "histograms.victim_ns",
			  "victim wakeup latency (ns)", 1, "victim_ccdf.gp",
			  "no ok result has histograms.victim_ns (no run with the victim probe)");
		plot_ext(&c);
		plot_counters(&c);
		plot_compare(&c, rep);
		if (write_index(&c, rep, cmp_err, err, sizeof(err))) {
			fprintf(stderr, "slicebench plot: %s\n", err);
			rc = 1;
		}
		for (size_t i = 0; i < c.nplots; i++) {
			const struct plot *p = &c.plots[i];

			if (p->state < 0) {
				fprintf(stderr, "slicebench plot: %s: %s\n", p->name, p->note);
				rc = 1;
			} else if (p->state == 0) {
				fprintf(stderr, "slicebench plot: %s skipped: %s\n", p->name, p->note);
			}
		}
		if (!rc)
			fprintf(stderr, "slicebench plot: wrote %s/index.html\n", out);
	}
	res_free_all(c.docs, c.ndocs);
	free(abs_out);
	free(abs_t);
	json_decref(rep);
	return rc;
}
