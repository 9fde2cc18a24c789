/* runner.c - a run's repetitions: their threads (worker.c says what each
 * does), the start gate, warm-up and measured windows, the join watchdog;
 * summary.c writes the result from what they measured. */
#define _GNU_SOURCE
#include "runner.h"
#include "rep.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <sys/resource.h>

#include "autorep.h"
#include "../os/counters.h"
#include "drift.h"
#include "../os/holdtrace.h"
#include "../lib/status.h"
#include "../os/signals.h"
#include "gate.h"
#include "../core/policy.h"
#include "../os/slicetrace.h"
#include "../lib/resset.h"
#include "../lib/stats.h"
#include "../os/timing.h"
#include "../os/topo.h"

/* A stuck run: after STOP, the threads fail the run when none of them has
 * left its loop for this long.  Progress, not a fixed deadline: a FIFO lock
 * (ticket, MCS) hands the lock to each queued waiter in turn, and with 64
 * spinning threads per CPU every handoff waits for the next waiter to be
 * scheduled, so the queue drains at a few threads per second (the run's
 * own timeout_s still bounds the whole run). */
#define JOIN_GRACE_NS 5000000000ull
#define JOIN_POLL_NS 100000000ull

/* The lock threads of a "threads" value: an integer, or "Nx" = N per PU
 * of the pin set. */
static int nthreads_of(const json_t *v, const char *pin, unsigned *n, char *err, size_t len)
{
	if (json_is_integer(v)) {
		*n = (unsigned)json_integer_value(v);
		return 0;
	}
	unsigned npus;

	if (topo_pin_pus(pin, &npus, err, len))
		return -1;
	*n = (unsigned)atoi(json_string_value(v)) * npus;
	return 0;
}

/* The loop key's values are indexed by enum wl_loop_kind; sampled when
 * unset. */
static enum wl_loop_kind loop_kind(const char *k)
{
	int i = key_enum_index(key_find(run_keys, "loop"), k);

	return i < 0 ? LOOP_SAMPLED : (enum wl_loop_kind)i;
}

static void rep_free(struct rep *r)
{
	if (r->inited && r->ops->lock->fini)
		r->ops->lock->fini(r->lock);
	free(r->lock);
	free(r->sh.lines);
	for (unsigned i = 0; r->w && i < r->total; i++) {
		free(r->w[i].lat);
		hl_log_free(r->w[i].t.hold_log);
	}
	free(r->w);
	free(r->tid);
	free(r->ev);
}

/* Sets up one repetition and starts its threads behind the gate; p is
 * params typed, params itself is read only for the lock's own keys. */
static int rep_start(struct rep *r, const struct workload_ops *ops, const struct run_params *p,
		     const json_t *params, uint64_t max_ops, int phase)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->ops = ops;
	if (nthreads_of(p->threads, p->pin, &r->n, r->err, sizeof(r->err)))
		return -1;
	r->nnoise = (unsigned)p->noise;
	r->nvictim = max_ops == UINT64_MAX ? (unsigned)p->victim.threads : 0;
	unsigned total = r->n + r->nnoise + r->nvictim;
	int *cpu = calloc(total, sizeof(*cpu));

	r->sh.nlines = (unsigned)p->cachelines;
	r->sh.lines = aligned_alloc(64, r->sh.nlines * sizeof(struct wl_line));
	r->lock = aligned_alloc(64, (ops->lock->lock_size + 63) & ~(size_t)63);
	r->w = aligned_alloc(64, total * sizeof(*r->w));
	r->tid = calloc(total, sizeof(*r->tid));
	if (!cpu || !r->sh.lines || !r->lock || !r->w || !r->tid) {
		snprintf(r->err, sizeof(r->err), "out of memory for %u threads", total);
		free(cpu);
		return -1;
	}
	memset(r->sh.lines, 0, r->sh.nlines * sizeof(struct wl_line));
	memset(r->lock, 0, ops->lock->lock_size);
	memset(r->w, 0, total * sizeof(*r->w));
	r->total = total; /* from here on rep_free() may walk the workers */
	atomic_store(&r->sh.phase, phase);
	key_bind(ops->lock->keys, params, r->lock);
	if (ops->lock->max_threads && r->n > ops->lock->max_threads) {
		snprintf(r->err, sizeof(r->err), "%s serves at most %u lock threads, %u asked",
			 ops->lock->name, ops->lock->max_threads, r->n);
		r->unsupported = 1;
		free(cpu);
		return -1;
	}
	if (ops->lock->init && (rc = ops->lock->init(r->lock, r->err, sizeof(r->err)))) {
		r->unsupported = rc == -EOPNOTSUPP;
		free(cpu);
		return -1;
	}
	r->inited = 1;
	if (topo_assign(p->pin, r->n, cpu, r->err, sizeof(r->err))) {
		free(cpu);
		return -1;
	}
	/* Noise hogs go round-robin onto the PUs the lock threads use. */
	for (unsigned i = 0; i < r->nnoise + r->nvictim; i++)
		cpu[r->n + i] = cpu[i % r->n];
	if (json_array_size(p->events) && max_ops == UINT64_MAX) {
		r->ev = calloc(1, sizeof(*r->ev));
		if (!r->ev) {
			free(cpu);
			return -1;
		}
		/* A libpfm4 failure is recorded per event, never fatal. */
		cnt_encode(p->events, r->ev, r->err, sizeof(r->err));
		r->err[0] = 0;
	}
	pthread_barrier_init(&r->gate, NULL, total + 1);
	/* Calibrated where the first lock thread runs (timing.h). */
	if (r->n)
		tm_calibrate_on(cpu[0]);
	uint64_t think = tm_ns_to_iters((uint64_t)p->think_ns);
	uint64_t cs = tm_ns_to_iters((uint64_t)p->cs_ns);

	for (unsigned i = 0; i < total; i++) {
		struct worker *w = &r->w[i];

		w->ops = ops;
		w->gate = &r->gate;
		w->left = &r->left;
		w->kind = loop_kind(p->loop);
		w->cpu = cpu[i];
		w->role = i < r->n ? WK_LOCK : i < r->n + r->nnoise ? WK_NOISE : WK_VICTIM;
		w->victim = p->victim;
		w->noise_busy_ns = (uint64_t)p->noise_busy_ns;
		w->noise_sleep_ns = (uint64_t)p->noise_sleep_ns;
		if (w->role == WK_VICTIM && !(w->lat = calloc(1, sizeof(*w->lat)))) {
			free(cpu);
			return -1;
		}
		w->t.sh = &r->sh;
		w->t.lock = r->lock;
		w->t.think_iters = think;
		w->t.cs_iters = cs;
		/* Lock-less workloads (hogs, abusers) must not race on the lines. */
		w->t.cachelines = ops->lock->unlocked ? 0 : r->sh.nlines;
		w->t.policy = ops->policy;
		if (w->role == WK_LOCK && !ops->lock->unlocked) {
			w->t.fault_pages = (uint32_t)p->fault_pages;
			w->fault_mem = key_enum_index(key_find(run_keys, "fault_mem"), p->fault_mem);
			w->t.hold_log_tsc = (uint64_t)((double)p->holder_trace_us * 1e3 *
						       tm_tsc_per_ns());
			if (w->t.hold_log_tsc && !(w->t.hold_log = hl_log_new())) {
				free(cpu);
				return -1;
			}
		}
		w->t.sample_every = (unsigned)p->sample_every;
		w->t.max_ops = max_ops;
		w->t.ns_per_tsc = 1.0 / tm_tsc_per_ns();
		w->t.index = (int)i;
		w->acct.ev = r->ev;
		w->t.acct = &w->acct;
		hist_init(&w->t.acquire_ns);
		hist_init(&w->t.hold_ns);
		hist_init(&w->t.think_ns);
	}
	free(cpu);
	for (; r->started < total; r->started++) {
		int rc = sig_thread_create(&r->tid[r->started], rep_worker, &r->w[r->started]);

		if (rc) {
			snprintf(r->err, sizeof(r->err), "pthread_create of thread %u: %s",
				 r->started, strerror(rc));
			/* The gate counts total+1: cannot open now.  Fail hard. */
			return -2;
		}
	}
	pthread_barrier_wait(&r->gate);
	return 0;
}

/* The first thread that could not start explains the whole run. */
static const char *rep_init_failure(const struct rep *r)
{
	for (unsigned i = 0; i < r->total; i++)
		if (r->w[i].init_rc)
			return r->w[i].reason;
	return NULL;
}

/* Joins threads [joined, to); -1 when they are stuck: no thread left its
 * loop for grace_ns (the lock never released, or a holder that never
 * returns).  The caller then reports the run failed and the process exits
 * with the threads still in it. */
static int rep_join_range(struct rep *r, unsigned to, uint64_t grace_ns)
{
	uint64_t last = tm_now_ns();
	unsigned seen = atomic_load(&r->left);

	while (r->joined < to && r->joined < r->started) {
		unsigned i = r->joined;
		struct timespec dl;

		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_nsec += (long)JOIN_POLL_NS;
		if (dl.tv_nsec >= 1000000000L) {
			dl.tv_sec++;
			dl.tv_nsec -= 1000000000L;
		}
		int rc = pthread_timedjoin_np(r->tid[i], NULL, &dl);

		if (!rc) {
			r->joined++;
			last = tm_now_ns();
			continue;
		}
		unsigned now_left = atomic_load(&r->left);

		if (now_left != seen) {
			seen = now_left;
			last = tm_now_ns();
		} else if (tm_now_ns() - last > grace_ns) {
			snprintf(r->err, sizeof(r->err),
				 "watchdog: thread %u did not leave its loop, and no thread left "
				 "its loop for %.0f s after the stop (lock never released?)",
				 i, (double)grace_ns / 1e9);
			return -1;
		}
	}
	return 0;
}

static int rep_join(struct rep *r, uint64_t grace_ns)
{
	if (rep_join_range(r, r->total, grace_ns))
		return -1;
	pthread_barrier_destroy(&r->gate);
	return 0;
}

int runner_torture(const struct workload_ops *ops, const json_t *params,
		   uint64_t ops_per_thread, uint64_t *counted, char *reason, size_t len)
{
	struct rep *rp = malloc(sizeof(*rp)); /* leaked with stuck threads, as in runner_run */
	const char *why;
	int rc;

	if (!rp)
		abort();
	tm_calibrate();
	struct run_params p;

	run_params_parse(params, &p);
	if ((rc = rep_start(rp, ops, &p, params, ops_per_thread, PH_MEASURE))) {
		int unsupported = rp->unsupported;

		snprintf(reason, len, "%s", rp->err);
		if (rc != -2) {
			rep_free(rp);
			free(rp);
		}
		return unsupported ? -2 : -1;
	}
	/* Lock threads end after their quota; then the noise hogs are told. */
	if (rep_join_range(rp, rp->n, UINT64_C(600) * 1000000000ull)) {
		snprintf(reason, len, "%s", rp->err);
		return -1;
	}
	atomic_store(&rp->sh.phase, PH_STOP);
	if (rep_join(rp, JOIN_GRACE_NS)) {
		snprintf(reason, len, "%s", rp->err);
		return -1;
	}
	if ((why = rep_init_failure(rp))) {
		snprintf(reason, len, "%s", why);
		rep_free(rp);
		free(rp);
		return -1;
	}
	*counted = rp->sh.lines[0].v;
	int bad = rp->sh.lines[0].v != rep_total_ops(rp) ||
		  rep_total_ops(rp) != ops_per_thread * rp->n;

	rep_free(rp);
	free(rp);
	return bad;
}

/* Workloads that measure themselves: one call per repetition, then the
 * median of each "tsc_cycles_per_op" / "ns_per_op" across repetitions. */
static json_t *measure_run(const struct workload_ops *ops, const json_t *params,
			   const struct run_params *p, json_t *res)
{
	unsigned nrep = (unsigned)p->repetitions, nthr;
	json_t *reps = json_object_get(res, fld_r_reps), *sum = json_object();
	char err[256] = "";

	if (nthreads_of(p->threads, p->pin, &nthr, err, sizeof(err)))
		return status_result(res, "failed", err);
	res_set(res, fld_r_nthreads, json_integer(nthr));
	for (unsigned k = 0; k < nrep; k++) {
		json_t *m = ops->measure(params, nthr, err, sizeof(err));

		if (!m)
			return status_result(res, "failed", err);
		json_array_append_new(reps, json_pack("{s:o}", fld_prim, m));
	}
	const char *name;
	json_t *v, *first = json_object_get(json_array_get(reps, 0), fld_prim);
	double *x = calloc(nrep, sizeof(*x));

	json_object_foreach(first, name, v) {
		const char *st = json_string_value(json_object_get(v, fld_key(fld_prim_status)));

		if (!json_is_object(v) || strcmp(st, "ok")) {
			json_object_set(sum, name, v);
			continue;
		}
		json_t *o = json_object();
		static const char *const f[] = { fld_s_prim_tsc, fld_s_prim_ns };

		for (size_t j = 0; j < 2; j++) {
			struct st_summary s;

			for (unsigned k = 0; k < nrep; k++)
				x[k] = json_number_value(json_object_get(
					json_object_get(json_object_get(json_array_get(reps, k),
									fld_prim),
							name),
					fld_key(f[j])));
			st_summarize(x, nrep, &s);
			res_set(o, f[j], st_summary_json(&s));
		}
		res_set_as(sum, fld_s_prim_one, name, o);
	}
	free(x);
	json_t *g = json_object_get(json_object_get(sum, "gettid"), fld_key(fld_s_prim_tsc));
	json_t *a = json_object_get(json_object_get(sum, "xadd"), fld_key(fld_s_prim_tsc));
	double gm = json_number_value(json_object_get(g, fld_key(fld_s_prim_tsc_median)));
	double am = json_number_value(json_object_get(a, fld_key(fld_s_prim_tsc_median)));

	res_set(sum, fld_s_prim_ratio, json_real(am > 0 ? gm / am : 0));
	status_result(res, "ok", NULL);
	res_set(res, fld_r_summary, json_pack("{s:o}", fld_key(fld_s_prim), sum));
	return res;
}

json_t *runner_run(const struct workload_ops *ops, const json_t *params)
{
	struct run_params p;

	run_params_parse(params, &p);
	return runner_run_gated(ops, params, &p, NULL);
}

/* The interleave gate as a workload's turns (harness/core/workload.h). */
static void turns_ready(const void *g)
{
	il_ready(g);
}

static int turns_turn(const void *g)
{
	return il_turn(g);
}

static void turns_done(const void *g, int last)
{
	il_turn_done(g, last ? IL_LAST : IL_MORE, NAN);
}

json_t *runner_run_gated(const struct workload_ops *ops, const json_t *params,
			 const struct run_params *p, const struct il_gate *g)
{
	if (ops->run) {
		struct wl_turns t = { turns_ready, turns_turn, turns_done, g };

		return ops->run(ops, params, g ? &t : NULL);
	}
	json_t *res = json_object(), *reps = json_array();
	unsigned nrep = autorep_cap(p), ndone = 0;
	int by_check = 0; /* the parent ended the arm: its A/A check is decided */
	/* A stop signal: the completed windows are the result (2: one was
	 * in flight). */
	int stopped = 0;
	double dur = p->duration_s, warm = p->warmup_s;
	double *opss = calloc(nrep, sizeof(*opss)), *jain = calloc(nrep, sizeof(*jain));
	struct run_acc *acc = calloc(1, sizeof(*acc));
	/* On the heap: when a thread is stuck the run returns and leaves the
	 * threads running on *rp until the child exits, so it must outlive this
	 * frame (it is leaked then, on purpose). */
	struct rep *rp = malloc(sizeof(*rp));

	res_set(res, fld_r_workload, json_string(ops->name));
	res_set(res, fld_r_params, json_deep_copy(params));
	res_set(res, fld_r_reps, reps);
	if (!opss || !jain || !acc || !rp)
		abort();
	tm_calibrate();
	if (ops->measure) {
		free(opss);
		free(jain);
		free(acc);
		free(rp);
		return measure_run(ops, params, p, res);
	}
	/* Grant durations where the run can be granted at all (dry controls
	 * never are); the session outlives the repetitions. */
	struct slicetrace *tr = slicetrace_open(wl_needs_slice(ops) ? (int)p->slice_trace : 0, ops->name);
	struct holdtrace *ht = holdtrace_open(p->holder_trace_us > 0 && !ops->lock->unlocked,
					      ops->name);

	/* Calibrated and traced: the arm waits for its turns from here on. */
	il_ready(g);
	for (unsigned k = 0; k < nrep; k++) {
		const char *why;

		int turn = sig_pending() ? IL_TURN_SIGNAL : il_turn(g);

		if (turn == IL_TURN_SIGNAL) {
			stopped = 1;
			break;
		}
		if (turn > 0) {
			by_check = turn == 1;
			break;
		}
		if (turn < 0) {
			status_result(res, "failed", "interleave: the parent gave no more turns");
			goto out;
		}
		int rc = rep_start(rp, ops, p, params, UINT64_MAX, PH_WARMUP);

		res_set(res, fld_r_nthreads, json_integer(rp->n));
		if (rc) {
			status_result(res, rp->unsupported ? "unsupported" : "failed", rp->err);
			if (rc == -2) {
				slicetrace_close(tr);
				holdtrace_close(ht);
				return res; /* threads parked at the gate: no clean way out */
			}
			rep_free(rp);
			goto out;
		}
		if ((why = rep_init_failure(rp))) {
			atomic_store(&rp->sh.phase, PH_STOP);
			rep_join(rp, JOIN_GRACE_NS);
			status_result(res, wl_needs_slice(ops) ? "unsupported" : "failed", why);
			rep_free(rp);
			goto out;
		}
		struct rseq_stats rs0, rs1;

		/* A stop signal cuts the window short: it is ended as usual,
		 * then dropped. */
		int cut = sig_sleep_ns((uint64_t)(warm * 1e9));
		/* The trace window holds the stats window: sgrant and the traced
		 * arms differ only by grants at the edges. */
		slicetrace_begin(tr);
		rep_holdtrace_begin(rp, ht);
		rseq_stats_read(&rs0);
		uint64_t t0 = tm_now_ns();

		atomic_store(&rp->sh.phase, PH_MEASURE);
		if (!cut)
			cut = sig_sleep_ns((uint64_t)(dur * 1e9));
		atomic_store(&rp->sh.phase, PH_STOP);
		uint64_t t1 = tm_now_ns();

		holdtrace_stop(ht);

		rseq_stats_read(&rs1);
		json_t *tj = rep_slicetrace_end(rp, tr);
		if (rep_join(rp, JOIN_GRACE_NS)) {
			status_result(res, "failed", rp->err);
			slicetrace_close(tr);
			holdtrace_close(ht);
			return res; /* stuck threads still use *rp: leaked, _exit ends them */
		}
		if (cut) {
			json_decref(tj);
			rep_free(rp);
			stopped = 2;
			break;
		}
		if (!k) {
			res_set(res, fld_r_rseq_reg, rep_registration(rp));
			if (p->fault_pages)
				res_set(res, fld_r_fmem, rep_fault_mem(rp));
		}
		int excl;
		json_t *rj = rep_collect(rp, (double)(t1 - t0) / 1e9, acc, &opss[k], &jain[k], &excl);

		res_set(rj, fld_rseq, rseq_stats_delta_json(&rs0, &rs1));
		/* Interleaved arms share CLOCK_MONOTONIC: the turns' real order. */
		if (g)
			res_set(rj, fld_window_start, json_integer((json_int_t)t0));
		json_t *cal = drift_check_rep(rp, p->cs_ns, p->think_ns);
		res_set(rj, fld_cal, cal);
		if (tj)
			res_set(rj, fld_strace, tj);
		res_set(rj, fld_faults, rep_faults(rp, acc));
		if ((tj = rep_holdtrace_end(rp, ht)))
			res_set(rj, fld_htr, tj);
		rseq_acc(acc, &rs0, &rs1);
		json_array_append_new(reps, rj);
		if (!excl) {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "mutual exclusion violated: shared counter %llu != %llu operations",
				 (unsigned long long)rp->sh.lines[0].v,
				 (unsigned long long)rep_total_ops(rp));
			status_result(res, "failed", msg);
			rep_free(rp);
			goto out;
		}
		rep_free(rp);
		int last = autorep_done(p, opss, ++ndone), cap = k + 1 == nrep;

		/* An arm of an A/A check goes on until its pair is decided
		 * (interleave.c), however narrow its own interval. */
		if (g && p->check_margin_pct > 0 && !cap) {
			il_turn_done(g, last ? IL_DONE : IL_MORE, opss[k]);
			continue;
		}
		il_turn_done(g, last || cap ? IL_LAST : IL_MORE, opss[k]);
		if (last)
			break;
	}
	if (stopped) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "stopped by signal %d (%s) during the run: %u completed repetition%s kept%s",
			 sig_pending(), strsignal(sig_pending()), ndone, ndone == 1 ? "" : "s",
			 stopped > 1 ? ", the one in flight dropped" : "");
		status_result(res, rs_name(RS_INTERRUPTED), msg);
		if (!ndone)
			goto out;
	} else {
		status_result(res, "ok", NULL);
	}
	res_set(res, fld_r_summary, summary_json(ops, acc, opss, jain, ndone));
	drift_summary(res);
	json_t *au = autorep_json(p, opss, ndone, by_check);

	if (au)
		res_set(json_object_get(res, fld_r_summary), fld_s_auto, au);
	json_t *hg = json_pack("{s:o,s:o}", "hold_ns", hist_buckets_json(&acc->hold),
			       "acquire_ns", hist_buckets_json(&acc->acq));

	if (acc->victim.count)
		res_set_as(hg, fld_r_histogram, "victim_ns", hist_buckets_json(&acc->victim));
	res_set(res, fld_r_histograms, hg);
	rep_slicetrace_summary(res, tr);
	rep_fault_summary(res, acc, ht);
out:
	slicetrace_close(tr);
	holdtrace_close(ht);
	if (!strcmp(p->keep, "summary"))
		keep_summary(res);
	free(rp);
	free(opss);
	free(jain);
	free(acc);
	return res;
}
