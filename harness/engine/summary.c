/* summary.c - a run's result object from its repetitions: each
 * repetition's JSON, the totals, the derived per-operation figures and the
 * summary that compare, plot and validate read. */
#define _GNU_SOURCE
#include "rep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/policy.h"
#include "../os/slicetrace.h"
#include "../lib/resset.h"
#include "../lib/stats.h"
#include "../os/timing.h"

static double ru_cpu_ns(const struct rusage *a, const struct rusage *b)
{
	return (double)(b->ru_utime.tv_sec - a->ru_utime.tv_sec) * 1e9 +
	       (double)(b->ru_utime.tv_usec - a->ru_utime.tv_usec) * 1e3 +
	       (double)(b->ru_stime.tv_sec - a->ru_stime.tv_sec) * 1e9 +
	       (double)(b->ru_stime.tv_usec - a->ru_stime.tv_usec) * 1e3;
}

static void add_event(double *acc, double v)
{
	if (v < 0 || *acc < 0)
		*acc = -1;
	else
		*acc += v;
}

/* The counters of one repetition's lock threads as JSON, totals into acc. */
static json_t *rep_counters(const struct rep *r, struct run_acc *acc)
{
	struct cnt_thread *ct = calloc(r->n, sizeof(*ct));
	struct cnt_values *cv = calloc(r->n, sizeof(*cv));

	if (!ct || !cv)
		abort();
	for (unsigned i = 0; i < r->n; i++) {
		ct[i] = r->w[i].acct.cnt;
		cv[i] = r->w[i].acct.vals;
	}
	json_t *j = cnt_json(r->ev, ct, cv, r->n);

	add_event(&acc->ev_cycles, cnt_total(r->ev, cv, r->n, "cycles"));
	add_event(&acc->ev_instr, cnt_total(r->ev, cv, r->n, "instructions"));
	add_event(&acc->ev_cs, cnt_total(r->ev, cv, r->n, "context-switches"));
	add_event(&acc->ev_switch, cnt_total(r->ev, cv, r->n, "sched:sched_switch"));
	free(ct);
	free(cv);
	return j;
}

/* The operations of the lock threads of a repetition, as they counted them. */
uint64_t rep_total_ops(const struct rep *r)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < r->n; i++)
		sum += r->w[i].t.total_ops;
	return sum;
}

/* One repetition's JSON; adds its totals to acc. */
json_t *rep_collect(const struct rep *r, double wall, struct run_acc *acc, double *ops_s,
		    double *jain, int *excl)
{
	uint64_t ops_sum = 0, nvcsw = 0, nivcsw = 0;
	double cpu = 0, tsc = 0, *per = calloc(r->n, sizeof(*per));
	struct hist *racq = calloc(1, sizeof(*racq)), *rhold = calloc(1, sizeof(*rhold));
	json_t *th = json_array(), *noise = json_array();
	struct hist *rvic = calloc(1, sizeof(*rvic));

	if (!per || !racq || !rhold || !rvic)
		abort();
	for (unsigned i = 0; i < r->total; i++) {
		const struct wl_thread *t = &r->w[i].t;
		const struct acct *a = &r->w[i].acct;
		double c = a->measured ? ru_cpu_ns(&a->ru0, &a->ru1) : 0;
		long nv = a->measured ? a->ru1.ru_nvcsw - a->ru0.ru_nvcsw : 0;
		long niv = a->measured ? a->ru1.ru_nivcsw - a->ru0.ru_nivcsw : 0;

		if (r->w[i].role == WK_VICTIM) {
			hist_merge(rvic, r->w[i].lat);
			continue;
		}
		if (i >= r->n) {
			json_array_append_new(noise, json_pack("{s:i,s:i,s:f,s:i}", fld_key(fld_nz_index), i,
							       fld_key(fld_nz_cpu), r->w[i].cpu,
							       fld_key(fld_nz_share), c / (wall * 1e9),
							       fld_key(fld_nz_nivcsw), (int)niv));
			continue;
		}
		ops_sum += t->ops;
		per[i] = (double)t->ops;
		nvcsw += (uint64_t)nv;
		nivcsw += (uint64_t)niv;
		cpu += c;
		tsc += a->measured ? (double)(a->tsc1 - a->tsc0) : 0;
		acc->req += t->slice_requests;
		acc->grant += t->slice_grants;
		acc->yield += t->slice_yields;
		hist_merge(racq, &t->acquire_ns);
		hist_merge(rhold, &t->hold_ns);
		json_array_append_new(th, json_pack("{s:i,s:i,s:I,s:i,s:i,s:f,s:f}",
						    fld_key(fld_th_index), i, fld_key(fld_th_cpu),
						    r->w[i].cpu, fld_key(fld_th_ops), (json_int_t)t->ops,
						    fld_key(fld_th_nvcsw), (int)nv, fld_key(fld_th_nivcsw),
						    (int)niv, fld_key(fld_th_cpu_ns), c,
						    fld_key(fld_th_share), c / (wall * 1e9)));
	}
	*ops_s = (double)ops_sum / wall;
	*jain = st_jain(per, r->n);
	*excl = r->ops->lock->unlocked || r->sh.lines[0].v == rep_total_ops(r);
	free(per);
	acc->ops += ops_sum;
	acc->nvcsw += nvcsw;
	acc->nivcsw += nivcsw;
	acc->cpu_ns += cpu;
	acc->wall_s += wall;
	/* Per-repetition percentiles too: compare tests them across runs. */
	json_t *j = json_pack("{s:f,s:I,s:f,s:f,s:b,s:o,s:o,s:{s:I,s:I},s:f,s:f,s:o}",
			      fld_key(fld_ops_per_sec), *ops_s, fld_key(fld_ops), (json_int_t)ops_sum,
			      fld_key(fld_wall_s), wall, fld_key(fld_jain), *jain, fld_key(fld_exclusion_ok),
			      *excl, fld_key(fld_hold), hist_summary_json(rhold), fld_key(fld_acq),
			      hist_summary_json(racq), fld_key(fld_rusage), fld_key(fld_nvcsw),
			      (json_int_t)nvcsw, fld_key(fld_nivcsw), (json_int_t)nivcsw,
			      fld_key(fld_tsc_cycles), tsc, fld_key(fld_cpu_ns), cpu, fld_key(fld_threads), th);

	if (r->nnoise)
		res_set(j, fld_noise, noise);
	else
		json_decref(noise);
	if (r->ev)
		res_set(j, fld_counters, rep_counters(r, acc));
	if (r->nvictim) {
		res_set(j, fld_victim, hist_summary_json(rvic));
		hist_merge(&acc->victim, rvic);
	}
	free(rvic);
	hist_merge(&acc->acq, racq);
	hist_merge(&acc->hold, rhold);
	free(racq);
	free(rhold);
	return j;
}

/* A hold this long means the holder was off the CPU or interrupted for
 * long: 50 us is above any interrupt handler's time and far below one tick
 * (1 ms at HZ=1000), and 10x the median keeps long critical sections from
 * counting themselves. */
static uint64_t long_hold_threshold(const struct hist *hold)
{
	uint64_t t = 10 * hist_quantile(hold, 0.5);

	return t > 50000 ? t : 50000;
}

static uint64_t hist_count_above(const struct hist *h, uint64_t ns)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (hist_bucket_lo(i) >= ns)
			n += h->bucket[i];
	return n;
}

static json_t *per_op(double v, uint64_t ops)
{
	return v >= 0 && ops ? json_real(v / (double)ops) : json_null();
}

/* Cycles, preemptions and slice figures per operation: what each lock
 * costs in the currency a reader compares (cycles/op, preemptions/op). */
static json_t *derived_json(const struct workload_ops *ops, const struct run_acc *a)
{
	double k = a->ops ? 1000.0 / (double)a->ops : 0;
	uint64_t thr = long_hold_threshold(&a->hold), lh = hist_count_above(&a->hold, thr);
	json_t *d = json_object();

	res_set(d, fld_s_cycles_op, per_op(a->ev_cycles, a->ops));
	res_set(d, fld_s_instr_op, per_op(a->ev_instr, a->ops));
	/* TSC ticks of the threads' CPU time: a cycle figure without a PMU. */
	res_set(d, fld_s_tsc_op,
			    per_op(a->cpu_ns * tm_tsc_per_ns(), a->ops));
	res_set(d, fld_s_tsc_ghz, json_real(tm_tsc_per_ns()));
	res_set(d, fld_s_ctxsw_op,
			    per_op(a->ev_cs >= 0 ? a->ev_cs : (double)(a->nvcsw + a->nivcsw), a->ops));
	res_set(d, fld_s_ctxsw_src,
			    json_string(a->ev_cs >= 0 ? "perf context-switches" : "getrusage"));
	res_set(d, fld_s_preempt, json_integer((json_int_t)a->nivcsw));
	res_set(d, fld_s_preempt_s,
			    json_real(a->wall_s > 0 ? (double)a->nivcsw / a->wall_s : 0));
	res_set(d, fld_s_preempt_k, json_real((double)a->nivcsw * k));
	res_set(d, fld_s_switch,
			    a->ev_switch >= 0 ? json_real(a->ev_switch) : json_null());
	res_set(d, fld_s_cpu_share,
			    json_real(a->wall_s > 0 ? a->cpu_ns / (a->wall_s * 1e9) : 0));
	res_set(d, fld_s_long,
		json_pack("{s:I,s:I,s:f}", fld_key(fld_s_long_thr),
			  (json_int_t)thr, fld_key(fld_s_long_n),
			  (json_int_t)lh, fld_key(fld_s_long_frac),
			  a->hold.count ? (double)lh / (double)a->hold.count : 0.0));
	if (wl_policy_requests(ops->policy)) {
		/* Each grant is a preemption the kernel deferred; the share of
		 * deferred among all attempts is grants / (grants + preemptions). */
		double tot = (double)a->grant + (double)a->nivcsw;

		res_set(d, fld_s_grants_k_c, json_real((double)a->grant * k));
		res_set(d, fld_s_deferred,
				    json_real(tot > 0 ? (double)a->grant / tot : 0));
	}
	return d;
}

void rseq_acc(struct run_acc *acc, const struct rseq_stats *a, const struct rseq_stats *b)
{
	if (!a->ok || !b->ok) {
		if (!acc->rseq_reason)
			acc->rseq_reason = json_string(a->ok ? b->reason : a->reason);
		return;
	}
	acc->rseq_ok = 1;
	for (int i = 0; i < 5; i++)
		acc->rseq[i] += (int64_t)(b->v[i] - a->v[i]);
}

static json_t *rseq_summary(struct run_acc *acc)
{
	if (!acc->rseq_ok)
		return json_pack("{s:s,s:o}", fld_key(fld_s_rseq_status), "unsupported",
				 fld_key(fld_s_rseq_reason),
				 acc->rseq_reason ? acc->rseq_reason : json_string("not read"));
	json_decref(acc->rseq_reason);
	return json_pack("{s:s,s:I,s:I,s:I,s:I,s:I}", fld_key(fld_s_rseq_status), "ok",
			 fld_key(fld_s_rseq_sgrant), acc->rseq[0],
			 fld_key(fld_s_rseq_sexpir), acc->rseq[1],
			 fld_key(fld_s_rseq_srevok), acc->rseq[2],
			 fld_key(fld_s_rseq_syield), acc->rseq[3],
			 fld_key(fld_s_rseq_sabort), acc->rseq[4]);
}

/* How the lock threads of one repetition registered rseq (see
 * lock_thread_rseq): the same kind in every thread, or "mixed". */
json_t *rep_registration(const struct rep *r)
{
	unsigned k = 0;
	const char *why = NULL;

	for (unsigned i = 0; i < r->n; i++) {
		k += r->w[i].rseq_registered;
		if (!why && r->w[i].rseq_reason[0])
			why = r->w[i].rseq_reason;
	}
	const char *kind = !k ? "none" : k == r->n ? slice_registration_mode() : "mixed";

	return json_pack("{s:s,s:i,s:i,s:s?}", fld_key(fld_r_rseq_reg_kind), kind,
			 fld_key(fld_r_rseq_reg_threads), (int)k,
			 fld_key(fld_r_rseq_reg_lock), (int)r->n,
			 fld_key(fld_r_rseq_reg_reason), why);
}

/* keep: "summary": what grows with the thread count goes, the summaries
 * and per-repetition totals (all that compare reads) stay. */
void keep_summary(json_t *res)
{
	size_t i;
	json_t *rep;

	json_array_foreach(json_object_get(res, fld_r_reps), i, rep) {
		const char *name;
		json_t *ev;

		json_object_del(rep, fld_threads);
		json_object_del(rep, fld_noise);
		json_object_del(json_object_get(rep, fld_faults), fld_key(fld_faults_threads));
		json_object_foreach(json_object_get(rep, fld_counters), name, ev)
			if (json_is_object(ev))
				json_object_del(ev, fld_key(fld_counter_per_thread));
	}
	json_object_del(res, fld_r_histograms);
}

json_t *status_result(json_t *res, const char *status, const char *reason)
{
	res_set(res, fld_r_status, json_string(status));
	res_set(res, fld_r_reason, reason ? json_string(reason) : json_null());
	return res;
}

json_t *summary_json(const struct workload_ops *ops, struct run_acc *acc, const double *opss,
		     const double *jain, unsigned nrep)
{
	struct st_summary s, fj;
	json_t *sum = json_object();

	st_summarize(opss, nrep, &s);
	st_summarize(jain, nrep, &fj);
	res_set(sum, fld_s_ops, st_summary_json(&s));
	res_set(sum, fld_s_jain, json_real(fj.mean));
	res_set(sum, fld_s_jain_min, json_real(fj.min));
	res_set(sum, fld_s_hold, hist_summary_json(&acc->hold));
	res_set(sum, fld_s_acq, hist_summary_json(&acc->acq));
	res_set(sum, fld_s_counters, derived_json(ops, acc));
	res_set(sum, fld_s_rseq, rseq_summary(acc));
	if (acc->victim.count)
		res_set(sum, fld_s_victim, hist_summary_json(&acc->victim));
	if (wl_policy_requests(ops->policy)) {
		double k = acc->ops ? 1000.0 / (double)acc->ops : 0;

		res_set(sum, fld_s_slice,
				    json_pack("{s:I,s:I,s:I,s:f,s:f}", fld_key(fld_s_slice_req),
					      (json_int_t)acc->req, fld_key(fld_s_slice_grants),
					      (json_int_t)acc->grant, fld_key(fld_s_slice_yields),
					      (json_int_t)acc->yield,
					      fld_key(fld_s_grants_k),
					      (double)acc->grant * k,
					      fld_key(fld_s_yields_k),
					      (double)acc->yield * k));
	}
	return sum;
}

json_t *rep_slicetrace_end(const struct rep *r, struct slicetrace *t)
{
	int *tids = calloc(r->n ? r->n : 1, sizeof(*tids));

	if (!tids)
		abort();
	for (unsigned i = 0; i < r->n; i++)
		tids[i] = r->w[i].t.tid;
	json_t *o = slicetrace_end(t, tids, r->n);

	free(tids);
	return o;
}

void rep_slicetrace_summary(json_t *res, struct slicetrace *t)
{
	json_t *slice = json_object_get(json_object_get(res, fld_r_summary), fld_key(fld_s_slice));
	json_t *hist;

	if (!slice)
		return; /* a policy that never requests: nothing to time */
	res_set(slice, fld_s_ext, slicetrace_summary(t, &hist));
	if (hist)
		res_set_as(json_object_get(res, fld_r_histograms), fld_r_histogram, "extension_ns",
			   hist);
}
