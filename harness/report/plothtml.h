/* plothtml.h - index.html, the study's report: what was asked, the
 * verdicts, each figure with a caption saying how to read it, and the
 * machines and kernels.  Self-contained: no script, font or style from
 * the network. */
#ifndef SB_PLOTHTML_H
#define SB_PLOTHTML_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "gnuplot.h"

struct question;

/* What index.html may weigh: it opens at once on a slow link and a
 * laptop; figures are separate files, and every comparison's full table
 * is in details.html, one click away. */
#define PLOT_INDEX_BUDGET (200 * 1024)

/* The comparisons the report states verdicts for. */
struct verdicts {
	const struct question *q; /* the study's question, or NULL */
	json_t *reps[32]; /* compare reports (NULL: none) */
	const char *what[32]; /* "slice-spin against spin-tas in rostedt-vm" ... */
	size_t n;
	const char *note; /* why there is none, when n == 0 */
};

/* Writes OUTDIR/index.html and OUTDIR/details.html, each whole or not at
 * all; 0, or -1 with err.  An index.html over its budget is written, with
 * a warning on stderr (tests/t-report.sh holds every report to it). */
int plot_index(const struct plotctx *c, const struct verdicts *v, char *err, size_t len);

/* plotqtab.c: the question's text (the page's first section), its table
 * of verdicts (how to read it collapsed below), a compared row's first
 * cells up to the verdict's, and the verdict counts of a report. */
void plot_question_head(FILE *f, const struct question *q);
void plot_question_table(FILE *f, const struct question *q);
void plot_row_start(FILE *f, const json_t *row, const char *cls);
void plot_counts(FILE *f, const json_t *rep);

#endif
