/* plots.c - the figures drawn from the results: throughput against threads
 * and against the critical-section length, the latency distributions, the
 * extension-length trade-off and the counters.  Each collects points with
 * their panel and series (plotpanel.h) and leaves the drawing to its
 * template in plots/templates/. */
#include "plots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plotpanel.h"
#include "resget.h"

/* The mean of summary.ops_per_sec with its CI; 0 when the result has none. */
static int ops_point(const json_t *r, struct ppt *pt)
{
	pt->y = res_num(r, fld_s_ops_mean);
	pt->lo = res_num(r, fld_s_ops_ci95_lo);
	pt->hi = res_num(r, fld_s_ops_ci95_hi);
	if (!isfinite(pt->x) || !isfinite(pt->y))
		return 0;
	if (!isfinite(pt->lo) || !isfinite(pt->hi))
		pt->lo = pt->hi = pt->y;
	if (pt->lo < 0)
		pt->lo = 0; /* a CI from 2 repetitions can reach below zero */
	return 1;
}

/* The throughput figures: ops/s against one run key. */
static const struct ops_fig {
	const char *name, *title, *tmpl, *caption;
	const char *xkey, *xpath; /* the run key on x; where a result has its value */
	size_t need;		  /* points a series needs for a line */
} ops_figs[] = {
	{ "throughput_threads", "Throughput vs threads (95% CI)", "throughput_threads.gp",
	  "Critical sections per second against the number of lock threads, one panel "
	  "per setting the runs hold fixed; higher is better, whiskers are 95% "
	  "intervals of the mean over repetitions.",
	  "threads", fld_r_nthreads, 1 },
	{ "throughput_cs", "Throughput vs critical-section length (95% CI)", "throughput_cs.gp",
	  "Critical sections per second against the critical-section length cs_ns, "
	  "one panel per setting the runs hold fixed; higher is better.",
	  "cs_ns", fld_r_cs_ns, 2 },
};

/* logx=1 when every x is positive, so the axis can be logarithmic. */
void plot_throughput(struct plotctx *c, const char *xkey)
{
	const struct ops_fig *f = ops_figs, *end = f + sizeof(ops_figs) / sizeof(ops_figs[0]);
	struct ppts s = { 0 };
	struct gpvars v = { 0 };
	struct facet fa;
	size_t i;
	json_t *r;
	int logx = 1;
	char empty[128];

	while (f < end && strcmp(f->xkey, xkey))
		f++;
	if (f == end)
		return;
	struct plot *p = plot_new(c, f->name, f->title, f->tmpl, f->caption);

	facet_init(&fa, c, xkey);
	PLOT_FOREACH_OK(c, d, i, r) {
		struct ppt pt = { .x = res_num(r, f->xpath) };

		if (!ops_point(r, &pt) || !(pt.y > 0))
			continue;
		if (pt.x <= 0)
			logx = 0;
		facet_point(&fa, c, d, r, &pt);
		ppts_add(&s, &pt);
	}
	gpv_add(&v, "logx=%d; ", logx);
	snprintf(empty, sizeof(empty), "no ok result with summary.ops_per_sec and %s", f->xpath);
	ppts_render(c, p, &s, &v, 0, f->need, empty);
	if (p->state == 0 && s.n && f->need > 1)
		snprintf(p->note + strlen(p->note), sizeof(p->note) - strlen(p->note),
			 ": the inputs do not sweep %s", xkey);
	ppts_free(&s);
	gpv_free(&v);
}

/* Histogram points: per bucket, x = bucket midpoint and y = its fraction
 * (ccdf = 0) or x = bucket end and y = the fraction above it (ccdf = 1). */
static void hist_points(struct ppts *s, const json_t *h, const struct ppt *proto, int ccdf)
{
	size_t i;
	json_t *b;
	double total = 0, above, last = 1;
	int done = 0;

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
		/* Zero has no place on a log axis: the last bucket's point keeps
		 * the level before it, so the step line runs on to the largest
		 * value seen instead of stopping a bucket short (and a one-bucket
		 * distribution is a line, not a lone point). */
		if (pt.y <= 0)
			pt.y = pt.lo = pt.hi = last;
		if (pt.y > 0 && pt.x > 0 && !done)
			ppts_add(s, &pt);
		done = above <= 0;
		last = pt.y;
	}
}

/* The distributions, each a CCDF of histograms.HIST from ccdf.gp. */
static const struct ccdf_fig {
	const char *name, *title, *caption;
	const char *hist, *xl; /* histograms.HIST; the x axis label */
	const char *none;      /* why a result may lack it, for the skip note */
} ccdf_figs[] = {
	{ "hold_ns", "Hold time (CCDF)",
	  "How long the lock was held: the fraction of sampled critical sections "
	  "longer than x, log-log; the drop on the left is the calibrated section "
	  "(cs_ns), a tail to the right is a holder that was held up.",
	  "hold_ns", "hold time (ns)", "" },
	{ "acquire_ns", "Acquire latency (CCDF)",
	  "How long a thread waited for the lock: the fraction of sampled "
	  "acquisitions slower than x, log-log; lower and further left is better, "
	  "a long tail is a waiter behind a preempted holder.",
	  "acquire_ns", "acquire latency (ns)", "" },
	{ "victim_ccdf", "Victim wakeup latency (CCDF)",
	  "The cost to everyone else: the probability that the probe thread "
	  "woke later than x, log-log; a curve further right or higher is a "
	  "workload that delays others more.",
	  "victim_ns", "victim wakeup latency (ns)", " (no run with the victim probe)" },
	{ "extension_ccdf", "Slice-extension grant duration (CCDF)",
	  "How long each granted extension lasted, from the slice timer's arm "
	  "to its cancel (summary.slice.extension_ns; expired grants are counted "
	  "apart, not drawn): the fraction of grants longer than x, log-log.  A "
	  "curve far left of the extension length (5 us by default) is a budget "
	  "mostly unused.",
	  "extension_ns", "grant duration (ns)", " (no traced slice run)" },
};

static void plot_ccdf(struct plotctx *c, const struct ccdf_fig *f)
{
	struct plot *p = plot_new(c, f->name, f->title, "ccdf.gp", f->caption);
	struct ppts s = { 0 };
	struct gpvars v = { 0 };
	struct facet fa;
	size_t i;
	json_t *r;
	char key[64], empty[160];

	snprintf(key, sizeof(key), "%s.%s", fld_r_histograms, f->hist);
	facet_init(&fa, c, "");
	PLOT_FOREACH_OK(c, d, i, r) {
		const json_t *h = res_get(r, key);
		struct ppt pt = { 0 };

		if (!json_is_array(h))
			continue;
		facet_point(&fa, c, d, r, &pt);
		hist_points(&s, h, &pt, 1);
	}
	gpv_str(&v, "xl", f->xl);
	gpv_add(&v, "yl='fraction above x'; ");
	snprintf(empty, sizeof(empty), "no ok result has %s%s", key, f->none);
	ppts_render(c, p, &s, &v, 0, 1, empty);
	ppts_free(&s);
	gpv_free(&v);
}

void plot_ccdfs(struct plotctx *c)
{
	for (size_t i = 0; i < sizeof(ccdf_figs) / sizeof(ccdf_figs[0]); i++)
		plot_ccdf(c, &ccdf_figs[i]);
}
