/* plots.c - the figures drawn from the results: throughput against threads
 * and against the critical-section length, the latency distributions, the
 * extension-length trade-off and the counters.  Each collects points with
 * their panel and series (plotpanel.h) and leaves the drawing to its
 * template in report/templates/. */
#include "plots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plotpanel.h"
#include "resload.h"

#define FOREACH_OK(c, d, i, r)                                                   \
	for (size_t d = 0; d < (c)->ndocs; d++)                                    \
		json_array_foreach(json_object_get((c)->docs[d], "results"), i, r) \
			if (!strcmp(res_str(r, "status", ""), "ok"))

/* The mean of summary.ops_per_sec with its CI; 0 when the result has none. */
static int ops_point(const json_t *r, struct ppt *pt)
{
	const json_t *o = res_get(r, "summary.ops_per_sec");

	pt->y = res_num(o, "mean");
	pt->lo = res_num(o, "ci95_lo");
	pt->hi = res_num(o, "ci95_hi");
	if (!isfinite(pt->x) || !isfinite(pt->y))
		return 0;
	if (!isfinite(pt->lo) || !isfinite(pt->hi))
		pt->lo = pt->hi = pt->y;
	if (pt->lo < 0)
		pt->lo = 0; /* a CI from 2 repetitions can reach below zero */
	return 1;
}

/* Throughput against a run key (x from xpath); logx=1 when every x is
 * positive, so the axis can be logarithmic. */
static void plot_ops(struct plotctx *c, struct plot *p, const char *xkey, const char *xpath,
		    size_t need, const char *empty, struct gpvars *v)
{
	struct ppts s = { 0 };
	struct facet fa;
	size_t i;
	json_t *r;
	int logx = 1;

	facet_init(&fa, c, xkey);
	FOREACH_OK(c, d, i, r) {
		struct ppt pt = { .x = res_num(r, xpath) };

		if (!ops_point(r, &pt) || !(pt.y > 0))
			continue;
		if (pt.x <= 0)
			logx = 0;
		facet_point(&fa, c, d, r, &pt);
		ppts_add(&s, &pt);
	}
	gpv_add(v, "logx=%d; ", logx);
	ppts_render(c, p, &s, v, 0, need, empty);
	if (p->state == 0 && s.n && need > 1)
		snprintf(p->note + strlen(p->note), sizeof(p->note) - strlen(p->note),
			 ": the inputs do not sweep %s", xkey);
	ppts_free(&s);
	gpv_free(v);
}

void plot_threads(struct plotctx *c)
{
	struct gpvars v = { 0 };

	plot_ops(c,
		 plot_new(c, "throughput_threads", "Throughput vs threads (95% CI)",
			  "throughput_threads.gp",
			  "Critical sections per second against the number of lock threads, one panel "
			  "per setting the runs hold fixed; higher is better, whiskers are 95% "
			  "intervals of the mean over repetitions."),
		 "threads", "nthreads", 1, "no ok result with summary.ops_per_sec and nthreads", &v);
}

void plot_cs(struct plotctx *c)
{
	struct gpvars v = { 0 };

	plot_ops(c,
		 plot_new(c, "throughput_cs", "Throughput vs critical-section length (95% CI)",
			  "throughput_cs.gp",
			  "Critical sections per second against the critical-section length cs_ns, "
			  "one panel per setting the runs hold fixed; higher is better."),
		 "cs_ns", "params.cs_ns", 2, "no ok result with summary.ops_per_sec and params.cs_ns",
		 &v);
}

/* Histogram points: per bucket, x = bucket midpoint and y = its fraction
 * (ccdf = 0) or x = bucket end and y = the fraction above it (ccdf = 1). */
static void hist_points(struct ppts *s, const json_t *h, const struct ppt *proto, int ccdf)
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
		struct ppt pt = *proto;

		if (!json_is_array(b) || !json_is_number(json_array_get(b, 0)) ||
		    !json_is_number(json_array_get(b, 1)) || !(cnt >= 0))
			continue;
		if (!ccdf) {
			pt.x = lo + w / 2;
			pt.y = pt.lo = pt.hi = cnt / total;
			if (pt.x > 0)
				ppts_add(s, &pt);
			continue;
		}
		if (i == 0 && lo > 0) {
			pt.x = lo;
			pt.y = pt.lo = pt.hi = 1;
			ppts_add(s, &pt);
		}
		above -= cnt;
		pt.x = lo + w;
		pt.y = pt.lo = pt.hi = above / total;
		if (pt.y > 0 && pt.x > 0) /* zero has no place on a log axis */
			ppts_add(s, &pt);
	}
}

static void plot_hist(struct plotctx *c, struct plot *p, const char *key, const char *xl,
		      const char *empty)
{
	struct ppts s = { 0 };
	struct gpvars v = { 0 };
	struct facet fa;
	size_t i;
	json_t *r;

	facet_init(&fa, c, "");
	FOREACH_OK(c, d, i, r) {
		const json_t *h = res_get(r, key);
		struct ppt pt = { 0 };

		if (!json_is_array(h))
			continue;
		facet_point(&fa, c, d, r, &pt);
		hist_points(&s, h, &pt, 1);
	}
	gpv_str(&v, "xl", xl);
	gpv_add(&v, "yl='fraction above x'; ");
	ppts_render(c, p, &s, &v, 0, 1, empty);
	ppts_free(&s);
	gpv_free(&v);
}

void plot_hold(struct plotctx *c)
{
	plot_hist(c,
		  plot_new(c, "hold_ns", "Hold time (CCDF)", "ccdf.gp",
			   "How long the lock was held: the fraction of sampled critical sections "
			   "longer than x, log-log; the drop on the left is the calibrated section "
			   "(cs_ns), a tail to the right is a holder that was held up."),
		  "histograms.hold_ns", "hold time (ns)", "no ok result has histograms.hold_ns");
}

void plot_acquire(struct plotctx *c)
{
	plot_hist(c,
		  plot_new(c, "acquire_ns", "Acquire latency (CCDF)", "ccdf.gp",
			   "How long a thread waited for the lock: the fraction of sampled "
			   "acquisitions slower than x, log-log; lower and further left is better, "
			   "a long tail is a waiter behind a preempted holder."),
		  "histograms.acquire_ns", "acquire latency (ns)",
		  "no ok result has histograms.acquire_ns");
}

void plot_victim(struct plotctx *c)
{
	plot_hist(c,
		  plot_new(c, "victim_ccdf", "Victim wakeup latency (CCDF)", "ccdf.gp",
			   "The cost to everyone else: the probability that the probe thread "
			   "woke later than x, log-log; a curve further right or higher is a "
			   "workload that delays others more."),
		  "histograms.victim_ns", "victim wakeup latency (ns)",
		  "no ok result has histograms.victim_ns (no run with the victim probe)");
}

void plot_extension(struct plotctx *c)
{
	plot_hist(c,
		  plot_new(c, "extension_ccdf", "Slice-extension grant duration (CCDF)", "ccdf.gp",
			   "How long each granted extension lasted, from the slice timer's arm "
			   "to its cancel (summary.slice.extension_ns; expired grants are counted "
			   "apart, not drawn): the fraction of grants longer than x, log-log.  A "
			   "curve far left of the extension length (5 us by default) is a budget "
			   "mostly unused."),
		  "histograms.extension_ns", "grant duration (ns)",
		  "no ok result has histograms.extension_ns (no traced slice run)");
}
