/* plothtml.h - index.html, the study's report: what was asked, the
 * verdicts, each figure with a caption saying how to read it, and the
 * machines and kernels.  Self-contained: no script, font or style from
 * the network. */
#ifndef SB_PLOTHTML_H
#define SB_PLOTHTML_H

#include <stddef.h>

#include <jansson.h>

#include "gnuplot.h"

/* The comparisons the report states verdicts for. */
struct verdicts {
	json_t *reps[32]; /* compare reports (NULL: none) */
	const char *what[32]; /* "slice-spin against spin-tas in rostedt-vm" ... */
	size_t n;
	const char *note; /* why there is none, when n == 0 */
};

/* Writes OUTDIR/index.html whole or not at all; 0, or -1 with err. */
int plot_index(const struct plotctx *c, const struct verdicts *v, char *err, size_t len);

#endif
