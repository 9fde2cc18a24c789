/* gnuplot.h - running gnuplot for `slicebench plot`: one plot is a .dat
 * file plus a template from plots/templates/ that only draws; the
 * terminal, output, and every per-series setting are passed with -e. */
#ifndef SB_GNUPLOT_H
#define SB_GNUPLOT_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#define GP_MAXPLOTS 64

struct plot {
	const char *name, *title, *tmpl;
	const char *caption; /* one line: what it shows and how to read it */
	int state;	     /* 0 skipped, 1 ok, -1 failed */
	char note[PATH_MAX + 1024];
	char own_name[96], own_title[256]; /* a part's (plot_part) */
};

/* What every extractor reads and the index is written from. */
struct plotctx {
	const char *outdir, *tmpldir;
	json_t **docs;
	const char *const *names;
	size_t ndocs;
	struct plot plots[GP_MAXPLOTS];
	size_t nplots;
};

struct plot *plot_new(struct plotctx *c, const char *name, const char *title, const char *tmpl,
		      const char *caption);
/* A figure of its own for one part of p's rows (a forest split by
 * family): named NAME-PART, titled "TITLE: WHAT", p's template and
 * caption; NULL when the slots are full. */
struct plot *plot_part(struct plotctx *c, const struct plot *p, const char *part,
		       const char *what);
void plot_skip(struct plot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void plot_fail(struct plot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* OUTDIR/NAME.dat for writing, or NULL with the plot failed. */
FILE *plot_dat(const struct plotctx *c, struct plot *p);
void plot_dat_remove(const struct plotctx *c, const struct plot *p);

/* A growing string of gnuplot statements, e.g. "n=3; array T[3] = [...]". */
struct gpvars {
	char *s;
	size_t len, cap;
};
void gpv_add(struct gpvars *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* NAME='S' with S quoted for gnuplot's single-quoted strings. */
void gpv_str(struct gpvars *v, const char *name, const char *s);
/* s as a double-quoted string inside an eval'd single-quoted one. */
void gpv_dq(struct gpvars *v, const char *s);
void gpv_free(struct gpvars *v);

/* Runs gnuplot on the plot's template in the output directory, once for
 * PNG and once for SVG, width x height pixels.  0, or -1 with the first
 * lines of gnuplot's stderr in p->note and the plot failed. */
int plot_render(struct plotctx *c, struct plot *p, const struct gpvars *v, int width, int height);

#endif
