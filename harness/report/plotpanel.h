/* plotpanel.h - small multiples: the points of one figure sorted into
 * panels (one per value of what the inputs hold fixed around the x axis)
 * and series (one per workload), written as gnuplot index blocks, with
 * the arrays the templates draw them from. */
#ifndef SB_PLOTPANEL_H
#define SB_PLOTPANEL_H

#include <stddef.h>
#include <stdio.h>

#include <string.h>

#include "gnuplot.h"
#include "plotstyle.h"
#include "resget.h"
#include "../lib/fields.h"
#include "../lib/status.h"

/* Every result r (index i) of every input d, and every ok one. */
#define PLOT_FOREACH(c, d, i, r)                  \
	for (size_t d = 0; d < (c)->ndocs; d++) \
		json_array_foreach(json_object_get((c)->docs[d], fld_results), i, r)
#define PLOT_FOREACH_OK(c, d, i, r) \
	PLOT_FOREACH(c, d, i, r) if (rs_is(res_str(r, fld_r_status, ""), RS_OK))

/* At most this many series share a panel: more and the eye cannot follow
 * one line across the others. */
#define PANEL_MAX_SERIES 6

struct ppt {
	char panel[192];
	char series[96];
	struct pstyle st;
	double x, y, lo, hi;
	char label[32];
	double order; /* where the point sits along its line: x unless ordered */
	int ordered;
	const json_t *src; /* the result it came from, for figures that read more */
	size_t pid;   /* the panel's index in first-seen order, set by ppts_add */
};

struct ppts {
	struct ppt *v;
	size_t n, cap;
	char (*panels)[192];
	size_t npanels;
	int keep_panels; /* never split a crowded panel (categories, not lines) */
};

/* The run keys a figure splits its panels by: those that vary across the
 * inputs, except the x axis and any key whose value follows from the x
 * value or from a key already kept (pin follows from threads in most
 * configs), plus the input file when there are several. */
struct facet {
	const char *keys[16];
	size_t nkeys;
	int by_doc;
};
/* An input's name without the part all inputs share up to a '-' or '_':
 * "vm" and "host" for rostedt-2023-vm.json and rostedt-2023-host.json
 * (the report's title names the study). */
void doc_tag(const struct plotctx *c, size_t d, char *buf, size_t len);
void facet_init(struct facet *f, const struct plotctx *c, const char *xkey);
/* "noise=2, cs_ns=100" for a result; "" when nothing varies. */
void facet_panel(const struct facet *f, const struct plotctx *c, size_t d, const json_t *r,
		 char *buf, size_t len);
/* The panel, series and style of a point from its result. */
void facet_point(const struct facet *f, const struct plotctx *c, size_t d, const json_t *r,
		 struct ppt *pt);

void ppts_add(struct ppts *s, const struct ppt *p);
/* Sorts by panel (first seen first), series (the style table's order),
 * then along the line. */
void ppts_sort(struct ppts *s);
/* s as a double-quoted gnuplot string broken into lines of width. */
void gpv_title(struct gpvars *v, const char *s, size_t width);
void ppts_free(struct ppts *s);

/* Splits any panel with more than PANEL_MAX_SERIES series by whether the
 * lock spins or sleeps, then into even parts; sorts; writes one index
 * block per (panel, series) with "x y lo hi [label]" lines, and adds to v:
 * npan, PT[] panel titles, PB0[]/PB1[] their first and last block, nb,
 * BT[] series titles, BC[] colours, BPT[] points, BDT[] dashes, BDX[] a
 * small x offset factor per series (so equal x values stay apart), logy
 * (1 when y spans more than a decade), xmin, xmax and the smallest and
 * largest positive y (with their intervals) ymin, ymax over all panels, so
 * every panel can share one scale; cols and rows of the layout.
 * Returns the most points any block has. */
size_t ppts_write(struct ppts *s, FILE *f, struct gpvars *v, int labels);

/* Writes the points to the plot's .dat file and renders them, 1000 pixels
 * wide and one row of panels per 370; a figure with no points, or none
 * with `need` points in a series, is skipped with `empty` or the reason. */
void ppts_render(struct plotctx *c, struct plot *p, struct ppts *s, struct gpvars *v, int labels,
		 size_t need, const char *empty);

#endif
