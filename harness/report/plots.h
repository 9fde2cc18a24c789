/* plots.h - the figures of `slicebench plot` drawn from the results
 * themselves: each adds one plot slot to the context and renders it. */
#ifndef SB_PLOTS_H
#define SB_PLOTS_H

#include "gnuplot.h"

/* Throughput against the run key xkey: "threads" or "cs_ns". */
void plot_throughput(struct plotctx *c, const char *xkey);
/* The CCDFs of hold time, acquire latency, victim wakeup latency and
 * grant duration. */
void plot_ccdfs(struct plotctx *c);
void plot_ext(struct plotctx *c);
void plot_counters(struct plotctx *c);
void plot_primitives(struct plotctx *c);
/* plotcross.c: per lock, throughput and the ratio to the no-request
 * baseline against threads, with the crossovers marked. */
void plot_contention(struct plotctx *c);

#endif
