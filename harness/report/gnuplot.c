/* gnuplot.c - the plumbing of `slicebench plot`: plot slots, their .dat
 * files, and gnuplot itself.  A gnuplot failure is recorded with its
 * stderr in the plot's note; the verb reports it and exits 1. */
#define _GNU_SOURCE
#include "gnuplot.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/outpath.h"

struct plot *plot_new(struct plotctx *c, const char *name, const char *title, const char *tmpl,
		      const char *caption)
{
	struct plot *p = &c->plots[c->nplots++];

	p->name = name;
	p->title = title;
	p->tmpl = tmpl;
	p->caption = caption;
	p->state = 0;
	p->note[0] = '\0';
	return p;
}

struct plot *plot_part(struct plotctx *c, const struct plot *p, const char *part,
		       const char *what)
{
	struct plot *q;
	size_t l;

	if (c->nplots == GP_MAXPLOTS)
		return NULL;
	q = plot_new(c, NULL, NULL, p->tmpl, p->caption);
	l = (size_t)snprintf(q->own_name, sizeof(q->own_name), "%s-", p->name);
	/* a file name: the part's letters, digits, '+' and '-' */
	for (const char *s = part; *s && l + 1 < sizeof(q->own_name); s++)
		q->own_name[l++] = isalnum((unsigned char)*s) || *s == '+' || *s == '-' ? *s : '_';
	q->own_name[l] = '\0';
	snprintf(q->own_title, sizeof(q->own_title), "%s: %s", p->title, what);
	q->name = q->own_name;
	q->title = q->own_title;
	return q;
}

static void note(struct plot *p, int state, const char *fmt, va_list ap)
{
	vsnprintf(p->note, sizeof(p->note), fmt, ap);
	p->state = state;
}

void plot_skip(struct plot *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note(p, 0, fmt, ap);
	va_end(ap);
}

void plot_fail(struct plot *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note(p, -1, fmt, ap);
	va_end(ap);
}

/* Every file a plot writes (.dat, .png, .svg, its log) follows the one
 * output-path policy: a FIFO, device, symlink or directory of that name
 * fails the plot, with the reason, instead of blocking or being replaced. */
static int plot_out_ok(struct plot *p, const char *path)
{
	char err[PATH_MAX + 128];

	if (!outpath_check(path, 1, err, sizeof(err)))
		return 0;
	plot_fail(p, "%s", err);
	return -1;
}

FILE *plot_dat(const struct plotctx *c, struct plot *p)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.dat", c->outdir, p->name);
	if (plot_out_ok(p, path))
		return NULL;
	f = fopen(path, "w");
	if (!f)
		plot_fail(p, "%s: %s", path, strerror(errno));
	return f;
}

void plot_dat_remove(const struct plotctx *c, const struct plot *p)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.dat", c->outdir, p->name);
	unlink(path);
}

void gpv_add(struct gpvars *v, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (v->len + (size_t)n + 1 > v->cap) {
		size_t nc = (v->len + (size_t)n + 1) * 2;
		char *ns = realloc(v->s, nc);

		if (!ns) {
			free(s);
			return;
		}
		v->s = ns;
		v->cap = nc;
	}
	memcpy(v->s + v->len, s, (size_t)n + 1);
	v->len += (size_t)n;
	free(s);
}

/* gnuplot single-quoted string: a quote is doubled, nothing else is special. */
void gpv_str(struct gpvars *v, const char *name, const char *s)
{
	gpv_add(v, "%s%s'", name ? name : "", name ? "=" : "");
	for (; *s; s++) {
		if (*s == '\'')
			gpv_add(v, "''");
		else
			gpv_add(v, "%c", *s);
	}
	gpv_add(v, "'%s", name ? "; " : "");
}

/* A gnuplot double-quoted string inside a single-quoted one that is eval'd
 * (a tic list): '"' and '\\' escaped for the inner string, a quote doubled
 * for the outer.  A run point's label holds both: command=["sysbench",...]. */
void gpv_dq(struct gpvars *v, const char *s)
{
	gpv_add(v, "\"");
	for (; *s; s++) {
		if (*s == '\'')
			gpv_add(v, "''");
		else if (*s == '"' || *s == '\\')
			gpv_add(v, "\\%c", *s);
		else
			gpv_add(v, "%c", *s);
	}
	gpv_add(v, "\"");
}

void gpv_free(struct gpvars *v)
{
	free(v->s);
	*v = (struct gpvars){ 0 };
}

static int run_gnuplot(struct plotctx *c, struct plot *p, const char *e, const char *tmpl,
		       const char *logp, const char *ext)
{
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		plot_fail(p, "fork: %s", strerror(errno));
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
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		FILE *f = fopen(logp, "r");
		size_t got = 0;
		int len = snprintf(p->note, sizeof(p->note), "gnuplot (%s) exited %d: ", ext,
				   WIFEXITED(st) ? WEXITSTATUS(st) : -1);

		if (f) {
			got = fread(p->note + len, 1, sizeof(p->note) - (size_t)len - 1, f);
			fclose(f);
		}
		p->note[len + (int)got] = '\0';
		p->state = -1;
		return -1;
	}
	return 0;
}

int plot_render(struct plotctx *c, struct plot *p, const struct gpvars *v, int width, int height)
{
	static const char *const terms[2][2] = {
		{ "pngcairo size %d,%d noenhanced font 'Sans,10'", "png" },
		{ "svg size %d,%d noenhanced font 'Sans,10' background rgb 'white'", "svg" },
	};
	char tmpl[PATH_MAX], logp[PATH_MAX], term[256];
	struct gpvars e = { 0 };

	snprintf(tmpl, sizeof(tmpl), "%s/%s", c->tmpldir, p->tmpl);
	if (access(tmpl, R_OK)) {
		plot_fail(p, "template %s: %s", tmpl, strerror(errno));
		return -1;
	}
	snprintf(logp, sizeof(logp), "%s/.%s.gnuplot.log", c->outdir, p->name);
	for (int t = 0; t < 2; t++) {
		char out[PATH_MAX];
		struct stat sb;

		snprintf(out, sizeof(out), "%s/%s.%s", c->outdir, p->name, terms[t][1]);
		if (plot_out_ok(p, out) || plot_out_ok(p, logp)) {
			gpv_free(&e);
			return -1;
		}
		snprintf(term, sizeof(term), terms[t][0], width, height);
		e.len = 0;
		gpv_add(&e, "set terminal %s; set output '%s.%s'; datafile='%s.dat'; ", term,
			p->name, terms[t][1], p->name);
		gpv_str(&e, "ptitle", p->title);
		gpv_add(&e, "%s", v && v->s ? v->s : "");
		if (!e.s || run_gnuplot(c, p, e.s, tmpl, logp, terms[t][1])) {
			if (!e.s)
				plot_fail(p, "out of memory");
			gpv_free(&e);
			return -1;
		}
		snprintf(out, sizeof(out), "%s/%s.%s", c->outdir, p->name, terms[t][1]);
		if (stat(out, &sb) || sb.st_size == 0) {
			plot_fail(p, "gnuplot wrote no %s", out);
			gpv_free(&e);
			return -1;
		}
	}
	gpv_free(&e);
	unlink(logp);
	p->state = 1;
	return 0;
}
