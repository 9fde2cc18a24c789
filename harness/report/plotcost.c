/* plotcost.c - the figures of what a policy costs: the extension-length
 * trade-off (throughput gained against the victim's tail latency) and the
 * counters per operation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plotpanel.h"
#include "plots.h"
#include "resget.h"
#include "../lib/status.h"

/* The same workload at the same run parameters except slice_ext_nsec. */
static int ext_sibling(const json_t *r, const json_t *q)
{
	const json_t *pa = json_object_get(r, fld_r_params), *pb = json_object_get(q, fld_r_params);
	const char *k;
	json_t *v;

	if (strcmp(res_str(q, fld_r_workload, ""), res_str(r, fld_r_workload, "")) ||
	    !rs_is(res_str(q, fld_r_status, ""), RS_OK))
		return 0;
	json_object_foreach((json_t *)pa, k, v)
		if (strcmp(k, fld_key(fld_r_slice_ext_nsec)) && !json_equal(v, json_object_get(pb, k)))
			return 0;
	return 1;
}

/* The gain is over the same workload with slice_ext_nsec = 0 (the kernel
 * default) at the same other run parameters, else over its shortest
 * extension in the sweep. */
void plot_ext(struct plotctx *c)
{
	struct plot *p = plot_new(c, "ext_tradeoff",
				  "Extension length: throughput gain vs victim p99.99",
				  "ext_tradeoff.gp",
				  "Each point is one extension length (labelled): how much throughput it "
				  "gains over the shortest against the victim's p99.99 wakeup latency; "
				  "up is faster, right is worse for everyone else.");
	struct ppts s = { 0 };
	struct gpvars v = { 0 };
	struct facet fa;
	size_t i, j;
	json_t *r, *q;

	facet_init(&fa, c, fld_key(fld_r_slice_ext_nsec));
	PLOT_FOREACH_OK(c, d, i, r) {
		double ext = res_num(r, fld_r_slice_ext_nsec);
		double vp = res_num(r, fld_s_victim_p99_99);
		double y = res_num(r, fld_s_ops_mean);
		double base = NAN, base_ext = INFINITY;

		if (!(ext > 0) || !isfinite(vp) || !(y > 0))
			continue;
		json_array_foreach(json_object_get(c->docs[d], fld_results), j, q) {
			double e = res_num(q, fld_r_slice_ext_nsec);
			double by = res_num(q, fld_s_ops_mean);

			if (ext_sibling(r, q) && by > 0 && isfinite(e) && e < base_ext) {
				base_ext = e;
				base = by;
			}
		}
		/* the line follows the extension length, not the latency */
		struct ppt pt = { .x = vp / 1000, .y = 100 * (y / base - 1), .order = ext,
				  .ordered = 1 };

		if (!isfinite(pt.y))
			continue;
		pt.lo = pt.hi = pt.y;
		snprintf(pt.label, sizeof(pt.label), "%.0fus", ext / 1000);
		facet_point(&fa, c, d, r, &pt);
		ppts_add(&s, &pt);
	}
	ppts_render(c, p, &s, &v, 1, 1,
		    "no ok result with params.slice_ext_nsec > 0 and summary.victim (run an "
		    "extension-length sweep with the victim probe, e.g. configs/interference.json "
		    "on a kernel with the feature)");
	ppts_free(&s);
	gpv_free(&v);
}

static const struct {
	const char *path, *name;
} cols[] = {
	{ fld_s_tsc_op, "tsc_cycles/op" },
	{ fld_s_cycles_op, "cycles/op" },
	{ fld_s_instr_op, "instructions/op" },
	{ fld_s_ctxsw_op, "context_switches/op" },
	{ fld_s_preempt_k, "preemptions/1000ops" },
	{ fld_s_grants_k, "slice_grants/1000ops" },
	{ fld_s_yields_k, "slice_yields/1000ops" },
};
enum { NC = sizeof(cols) / sizeof(cols[0]) };

/* The bars: grouped by the setting they were measured at (a gap between
 * groups, the group named once below its middle bar), coloured by
 * workload's lock, its policy's point on top, in the table's order inside
 * a group.  Adds RC[] and RP[] (each bar's colour and point), xend (the
 * last bar's x), and the key: nk, KT[] names, KC[] colours, KP[] points. */
static void write_counters(struct plotctx *c, struct plot *p, const double *hi,
			   struct gpvars *v)
{
	struct ppts s = { .keep_panels = 1 };
	struct gpvars rc = { 0 }, rp = { 0 }, kt = { 0 }, kc = { 0 }, kp = { 0 };
	struct facet fa;
	size_t i, nk = 0, x = 0, nbar = 0;
	json_t *r, *seen = json_object();
	FILE *f;

	facet_init(&fa, c, "");
	PLOT_FOREACH_OK(c, d, i, r) {
		struct ppt pt = { .order = (double)d * 1e6 + (double)i, .ordered = 1,
				  .src = r };

		facet_point(&fa, c, d, r, &pt);
		ppts_add(&s, &pt);
	}
	f = plot_dat(c, p);
	if (!f)
		goto out;
	fprintf(f, "# x group");
	for (size_t k = 0; k < NC; k++)
		if (hi[k] >= 0)
			fprintf(f, " %s", cols[k].name);
	fputc('\n', f);
	ppts_sort(&s);
	for (size_t a = 0; a < s.n;) {
		size_t b = a;

		while (b < s.n && s.v[b].pid == s.v[a].pid)
			b++;
		for (size_t j = a; j < b; j++, x++) {
			const struct ppt *pt = &s.v[j];
			const char *g = j == a + (b - a - 1) / 2 ? s.panels[pt->pid] : "";

			fprintf(f, "%zu \"", x);
			for (; *g; g++)
				fputc(*g == '"' ? '\'' : *g, f);
			fputc('"', f);
			for (size_t k = 0; k < NC; k++)
				if (hi[k] >= 0)
					fprintf(f, " %.10g", res_num(pt->src, cols[k].path));
			fputc('\n', f);
			gpv_add(&rp, "%s%d", nbar ? "," : "", pt->st.pt);
			gpv_add(&rc, "%s%u", nbar++ ? "," : "", pt->st.rgb);
			if (!json_object_get(seen, pt->series)) {
				json_object_set_new(seen, pt->series, json_true());
				gpv_add(&kt, "%s", nk ? "," : "");
				gpv_str(&kt, NULL, pt->series);
				gpv_add(&kp, "%s%d", nk ? "," : "", pt->st.pt);
				gpv_add(&kc, "%s'#%06x'", nk++ ? "," : "", pt->st.rgb);
			}
		}
		x++; /* the gap */
		a = b;
	}
	fclose(f);
	gpv_add(v, "xend=%zu; array RC[%zu]=[%s]; array RP[%zu]=[%s]; ", x - 1, nbar,
		rc.s ? rc.s : "", nbar, rp.s ? rp.s : "");
	gpv_add(v, "nk=%zu; array KT[%zu]=[%s]; array KC[%zu]=[%s]; array KP[%zu]=[%s]; ", nk, nk,
		kt.s ? kt.s : "", nk, kc.s ? kc.s : "", nk, kp.s ? kp.s : "");
out:
	ppts_free(&s);
	gpv_free(&rc);
	gpv_free(&rp);
	gpv_free(&kt);
	gpv_free(&kc);
	gpv_free(&kp);
	json_decref(seen);
}

/* One panel per counter, one bar per result in the colour of its
 * workload; a panel whose positive values span more than a decade gets a
 * log axis, so one large bar does not flatten the others. */
void plot_counters(struct plotctx *c)
{
	struct plot *p = plot_new(c, "counters", "Counters per operation", "counters.gp",
				  "One panel per counter, one bar per result (coloured by workload); "
				  "lower means less work or fewer interruptions per critical section; "
				  "a missing bar is a counter that result does not have.");
	double lo[NC], hi[NC];
	size_t i, np = 0;
	struct gpvars v = { 0 }, names = { 0 }, logs = { 0 };
	json_t *r;

	for (size_t k = 0; k < NC; k++) {
		lo[k] = INFINITY;
		hi[k] = -INFINITY;
	}
	PLOT_FOREACH_OK(c, d, i, r)
		for (size_t k = 0; k < NC; k++) {
			double x = res_num(r, cols[k].path);

			if (isfinite(x) && x > 0) {
				lo[k] = fmin(lo[k], x);
				hi[k] = fmax(hi[k], x);
			} else if (isfinite(x) && hi[k] < 0) {
				hi[k] = 0;
			}
		}
	for (size_t k = 0; k < NC; k++)
		if (hi[k] >= 0) {
			gpv_add(&names, "%s", np ? "," : "");
			gpv_str(&names, NULL, cols[k].name);
			gpv_add(&logs, "%s%d", np ? "," : "", isfinite(lo[k]) && hi[k] / lo[k] > 10);
			np++;
		}
	if (!np) {
		plot_skip(p, "no ok result has summary.counters or summary.slice per-op values");
		gpv_free(&names);
		gpv_free(&logs);
		return;
	}
	write_counters(c, p, hi, &v);
	gpv_add(&v, "n=%zu; array CN[%zu]=[%s]; array CLOG[%zu]=[%s]; ", np, np, names.s, np,
		logs.s);
	if (p->state >= 0)
		plot_render(c, p, &v, 1000, 250 + 170 * (int)np);
	gpv_free(&v);
	gpv_free(&names);
	gpv_free(&logs);
}

/* The cost of each primitive the `primitives` workload times (a system
 * call, an atomic, a futex wake ...), one panel per input.  The panel's
 * title carries the ratio the syscall-vs-atomic study asks for: gettid
 * over xadd, both in TSC cycles per operation.  Added only when some
 * result has summary.primitives. */
void plot_primitives(struct plotctx *c)
{
	struct ppts s = { .keep_panels = 1 };
	struct gpvars v = { 0 };
	json_t *order = json_array(), *r;
	size_t i;
	/* inside one primitive: "tsc_cycles_per_op.mean" */
	const char *tsc_mean = fld_rel(fld_s_prim_tsc_mean, fld_s_prim_one);
	const char *tsc_lo = fld_rel(fld_s_prim_tsc_ci95_lo, fld_s_prim_one);
	const char *tsc_hi = fld_rel(fld_s_prim_tsc_ci95_hi, fld_s_prim_one);

	PLOT_FOREACH_OK(c, d, i, r) {
		const json_t *prims = res_get(r, fld_s_prim);
		double gettid = res_num(json_object_get(prims, "gettid"), tsc_mean);
		double xadd = res_num(json_object_get(prims, "xadd"), tsc_mean);
		const char *k;
		json_t *m;
		char tag[128] = "";

		if (!json_is_object(prims))
			continue;
		if (c->ndocs > 1)
			doc_tag(c, d, tag, sizeof(tag));
		json_object_foreach((json_t *)prims, k, m) {
			struct ppt pt = { .y = res_num(m, tsc_mean), .lo = res_num(m, tsc_lo),
					  .hi = res_num(m, tsc_hi) };
			size_t x, n = json_array_size(order);

			if (!(pt.y > 0))
				continue;
			for (x = 0; x < n && strcmp(json_string_value(json_array_get(order, x)), k);
			     x++)
				;
			if (x == n)
				json_array_append_new(order, json_string(k));
			pt.x = (double)x;
			if (!(pt.lo > 0) || !isfinite(pt.hi))
				pt.lo = pt.hi = pt.y; /* a log axis cannot show a CI through zero */
			snprintf(pt.series, sizeof(pt.series), "%s", k);
			snprintf(pt.label, sizeof(pt.label), "%s", k);
			if (gettid > 0 && xadd > 0)
				snprintf(pt.panel, sizeof(pt.panel), "%s%sgettid / xadd = %.1f", tag,
					 *tag ? ": " : "", gettid / xadd);
			else
				snprintf(pt.panel, sizeof(pt.panel), "%s", tag);
			pstyle_of("primitives", NULL, &pt.st);
			ppts_add(&s, &pt);
		}
	}
	json_decref(order);
	if (s.n)
		ppts_render(c,
			    plot_new(c, "answer-primitives",
				     "Answer: cost per operation (TSC cycles, 95% CI)",
				     "primitives.gp",
				     "Each dot is what one operation costs in TSC cycles (log scale), the "
				     "whisker its 95% interval over repetitions; the panel title gives "
				     "the study's ratio, a system call (gettid) over an atomic (xadd)."),
			    &s, &v, 1, 1, "");
	ppts_free(&s);
	gpv_free(&v);
}
