/* runner.c - threads, the start gate, warm-up and measured windows,
 * the join watchdog and the per-run summary. */
#define _GNU_SOURCE
#include "runner.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"
#include "timing.h"
#include "topo.h"

/* A stuck run: the threads get this long after STOP to leave their loops. */
#define JOIN_GRACE_NS 5000000000ull

struct worker {
	struct wl_thread t; /* first, so the array keeps it 64-byte aligned */
	const struct workload_ops *ops;
	pthread_barrier_t *gate;
	enum wl_loop_kind kind;
	int cpu;
	int noise;
	int init_rc;
	char reason[256];
};

struct rep {
	const struct workload_ops *ops;
	unsigned n, nnoise;
	struct worker *w; /* n lock threads, then nnoise hogs */
	pthread_t *tid;
	unsigned started, joined;
	struct wl_shared sh;
	void *lock;
	int inited; /* ops->init succeeded: fini owed */
	pthread_barrier_t gate;
	char err[256];
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct wl_thread *t = &w->t;

	t->tid = (int)syscall(SYS_gettid);
	int rc = topo_bind_self(w->cpu);

	if (rc) {
		w->init_rc = rc;
		snprintf(w->reason, sizeof(w->reason), "binding to CPU %d failed: %s", w->cpu,
			 strerror(-rc));
	}
	if (!w->init_rc && !w->noise && w->ops->slice)
		w->init_rc = slice_thread_init(&t->slice, w->reason, sizeof(w->reason));
	if (!w->init_rc && !w->noise && w->ops->thread_init)
		w->init_rc = w->ops->thread_init(t->lock, t, w->reason, sizeof(w->reason));
	/* One gate releases everyone at once, as perf bench futex does. */
	pthread_barrier_wait(w->gate);
	if (w->noise) {
		while (atomic_load_explicit(&t->sh->phase, memory_order_relaxed) != PH_STOP)
			tm_busy_iters(1000);
	} else if (!w->init_rc) {
		w->ops->loop[w->kind](t);
	}
	if (t->slice.rs)
		slice_thread_fini(&t->slice);
	return NULL;
}

static const char *pstr(const json_t *p, const char *k)
{
	return json_string_value(json_object_get(p, k));
}

int runner_nthreads(const json_t *params, unsigned *n, char *err, size_t len)
{
	const json_t *v = json_object_get(params, "threads");

	if (json_is_integer(v)) {
		*n = (unsigned)json_integer_value(v);
		return 0;
	}
	unsigned npus;

	if (topo_pin_pus(pstr(params, "pin"), &npus, err, len))
		return -1;
	*n = (unsigned)atoi(json_string_value(v)) * npus;
	return 0;
}

static enum wl_loop_kind loop_kind(const json_t *params)
{
	const char *k = pstr(params, "loop");

	if (k && !strcmp(k, "bare"))
		return LOOP_BARE;
	if (k && !strcmp(k, "every"))
		return LOOP_EVERY;
	return LOOP_SAMPLED;
}

static void rep_free(struct rep *r)
{
	if (r->inited && r->ops->fini)
		r->ops->fini(r->lock);
	free(r->lock);
	free(r->sh.lines);
	free(r->w);
	free(r->tid);
}

/* Sets up one repetition and starts its threads behind the gate. */
static int rep_start(struct rep *r, const struct workload_ops *ops, const json_t *params,
		     uint64_t max_ops, int phase)
{
	memset(r, 0, sizeof(*r));
	r->ops = ops;
	if (runner_nthreads(params, &r->n, r->err, sizeof(r->err)))
		return -1;
	r->nnoise = (unsigned)wl_param_int(params, "noise");
	unsigned total = r->n + r->nnoise;
	int *cpu = calloc(total, sizeof(*cpu));

	r->sh.nlines = (unsigned)wl_param_int(params, "cachelines");
	r->sh.lines = aligned_alloc(64, r->sh.nlines * sizeof(struct wl_line));
	r->lock = aligned_alloc(64, (ops->lock_size + 63) & ~(size_t)63);
	r->w = aligned_alloc(64, total * sizeof(*r->w));
	r->tid = calloc(total, sizeof(*r->tid));
	if (!cpu || !r->sh.lines || !r->lock || !r->w || !r->tid) {
		snprintf(r->err, sizeof(r->err), "out of memory for %u threads", total);
		free(cpu);
		return -1;
	}
	memset(r->sh.lines, 0, r->sh.nlines * sizeof(struct wl_line));
	memset(r->lock, 0, ops->lock_size);
	memset(r->w, 0, total * sizeof(*r->w));
	atomic_store(&r->sh.phase, phase);
	if (ops->init && ops->init(r->lock, params, r->err, sizeof(r->err))) {
		free(cpu);
		return -1;
	}
	r->inited = 1;
	if (topo_assign(pstr(params, "pin"), r->n, cpu, r->err, sizeof(r->err))) {
		free(cpu);
		return -1;
	}
	/* Noise hogs go round-robin onto the PUs the lock threads use. */
	for (unsigned i = 0; i < r->nnoise; i++)
		cpu[r->n + i] = cpu[i % r->n];
	pthread_barrier_init(&r->gate, NULL, total + 1);
	uint64_t think = tm_ns_to_iters((uint64_t)wl_param_int(params, "think_ns"));
	uint64_t cs = tm_ns_to_iters((uint64_t)wl_param_int(params, "cs_ns"));

	for (unsigned i = 0; i < total; i++) {
		struct worker *w = &r->w[i];

		w->ops = ops;
		w->gate = &r->gate;
		w->kind = loop_kind(params);
		w->cpu = cpu[i];
		w->noise = i >= r->n;
		w->t.sh = &r->sh;
		w->t.lock = r->lock;
		w->t.think_iters = think;
		w->t.cs_iters = cs;
		w->t.cachelines = r->sh.nlines;
		w->t.sample_every = (unsigned)wl_param_int(params, "sample_every");
		w->t.max_ops = max_ops;
		w->t.ns_per_tsc = 1.0 / tm_tsc_per_ns();
		w->t.index = (int)i;
		hist_init(&w->t.acquire_ns);
		hist_init(&w->t.hold_ns);
	}
	free(cpu);
	for (; r->started < total; r->started++) {
		int rc = pthread_create(&r->tid[r->started], NULL, worker_main, &r->w[r->started]);

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
	for (unsigned i = 0; i < r->n; i++)
		if (r->w[i].init_rc)
			return r->w[i].reason;
	return NULL;
}

/* Joins threads [joined, to) with a deadline; -1 when one is stuck (the lock
 * never released, or a holder that never returns): the caller then reports
 * the run failed and the process exits with the threads still in it. */
static int rep_join_range(struct rep *r, unsigned to, uint64_t grace_ns)
{
	struct timespec dl;

	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += (time_t)(grace_ns / 1000000000ull);
	for (; r->joined < to && r->joined < r->started; r->joined++) {
		unsigned i = r->joined;
		int rc = pthread_timedjoin_np(r->tid[i], NULL, &dl);

		if (rc) {
			snprintf(r->err, sizeof(r->err),
				 "watchdog: thread %u did not leave its loop within %.0f s of the "
				 "stop (lock never released?)",
				 i, (double)grace_ns / 1e9);
			return -1;
		}
	}
	return 0;
}

static int rep_join(struct rep *r, uint64_t grace_ns)
{
	if (rep_join_range(r, r->n + r->nnoise, grace_ns))
		return -1;
	pthread_barrier_destroy(&r->gate);
	return 0;
}

static uint64_t rep_total_ops(const struct rep *r)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < r->n; i++)
		sum += r->w[i].t.total_ops;
	return sum;
}

int runner_torture(const struct workload_ops *ops, const json_t *params,
		   uint64_t ops_per_thread, uint64_t *counted, char *reason, size_t len)
{
	struct rep r;
	const char *why;

	tm_calibrate();
	if (rep_start(&r, ops, params, ops_per_thread, PH_MEASURE)) {
		snprintf(reason, len, "%s", r.err);
		rep_free(&r);
		return -1;
	}
	/* Lock threads end after their quota; then the noise hogs are told. */
	if (rep_join_range(&r, r.n, UINT64_C(600) * 1000000000ull)) {
		snprintf(reason, len, "%s", r.err);
		return -1;
	}
	atomic_store(&r.sh.phase, PH_STOP);
	if (rep_join(&r, JOIN_GRACE_NS)) {
		snprintf(reason, len, "%s", r.err);
		return -1;
	}
	if ((why = rep_init_failure(&r))) {
		snprintf(reason, len, "%s", why);
		rep_free(&r);
		return -1;
	}
	*counted = r.sh.lines[0].v;
	int bad = r.sh.lines[0].v != rep_total_ops(&r) ||
		  rep_total_ops(&r) != ops_per_thread * r.n;

	rep_free(&r);
	return bad;
}

static json_t *status_result(json_t *res, const char *status, const char *reason)
{
	json_object_set_new(res, "status", json_string(status));
	json_object_set_new(res, "reason", reason ? json_string(reason) : json_null());
	return res;
}

json_t *runner_run(const struct workload_ops *ops, const json_t *params)
{
	json_t *res = json_object(), *reps = json_array();
	unsigned nrep = (unsigned)wl_param_int(params, "repetitions");
	double dur = json_number_value(json_object_get(params, "duration_s"));
	double warm = json_number_value(json_object_get(params, "warmup_s"));
	double *opss = calloc(nrep, sizeof(*opss)), *jain = calloc(nrep, sizeof(*jain));
	struct hist *acq = malloc(sizeof(*acq)), *hold = malloc(sizeof(*hold));
	uint64_t req = 0, grant = 0, yield = 0, all_ops = 0;
	struct rep r;

	json_object_set_new(res, "workload", json_string(ops->name));
	json_object_set_new(res, "params", json_deep_copy(params));
	json_object_set_new(res, "repetitions", reps);
	if (!opss || !jain || !acq || !hold)
		abort();
	hist_init(acq);
	hist_init(hold);
	tm_calibrate();
	for (unsigned k = 0; k < nrep; k++) {
		const char *why;
		int rc = rep_start(&r, ops, params, UINT64_MAX, PH_WARMUP);

		json_object_set_new(res, "nthreads", json_integer(r.n));
		if (rc) {
			status_result(res, "failed", r.err);
			if (rc == -2)
				return res; /* threads parked at the gate: no clean way out */
			rep_free(&r);
			goto out;
		}
		if ((why = rep_init_failure(&r))) {
			atomic_store(&r.sh.phase, PH_STOP);
			rep_join(&r, JOIN_GRACE_NS);
			status_result(res, ops->slice ? "unsupported" : "failed", why);
			rep_free(&r);
			goto out;
		}
		tm_sleep_ns((uint64_t)(warm * 1e9));
		uint64_t t0 = tm_now_ns();

		atomic_store(&r.sh.phase, PH_MEASURE);
		tm_sleep_ns((uint64_t)(dur * 1e9));
		atomic_store(&r.sh.phase, PH_STOP);
		uint64_t t1 = tm_now_ns();

		if (rep_join(&r, JOIN_GRACE_NS)) {
			status_result(res, "failed", r.err);
			return res; /* stuck threads still use r: leave it to _exit */
		}
		double wall = (double)(t1 - t0) / 1e9;
		uint64_t ops_sum = 0;
		struct hist *racq = calloc(1, sizeof(*racq)), *rhold = calloc(1, sizeof(*rhold));

		if (!racq || !rhold)
			abort();
		double *per = calloc(r.n, sizeof(*per));
		json_t *th = json_array();

		for (unsigned i = 0; i < r.n; i++) {
			struct wl_thread *t = &r.w[i].t;

			ops_sum += t->ops;
			per[i] = (double)t->ops;
			req += t->slice_requests;
			grant += t->slice_grants;
			yield += t->slice_yields;
			hist_merge(racq, &t->acquire_ns);
			hist_merge(rhold, &t->hold_ns);
			json_array_append_new(th, json_pack("{s:i,s:i,s:I}", "index", i, "cpu",
							    r.w[i].cpu, "ops", (json_int_t)t->ops));
		}
		all_ops += ops_sum;
		opss[k] = (double)ops_sum / wall;
		jain[k] = st_jain(per, r.n);
		free(per);
		int excl = r.sh.lines[0].v == rep_total_ops(&r);

		/* Per-repetition percentiles too: compare tests them across runs. */
		json_array_append_new(reps, json_pack("{s:f,s:I,s:f,s:f,s:b,s:o,s:o,s:o}",
						      "ops_per_sec", opss[k], "ops",
						      (json_int_t)ops_sum, "wall_s", wall,
						      "fairness_jain", jain[k], "exclusion_ok", excl,
						      "hold_ns", hist_summary_json(rhold),
						      "acquire_ns", hist_summary_json(racq),
						      "threads", th));
		hist_merge(acq, racq);
		hist_merge(hold, rhold);
		free(racq);
		free(rhold);
		if (!excl) {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "mutual exclusion violated: shared counter %llu != %llu operations",
				 (unsigned long long)r.sh.lines[0].v,
				 (unsigned long long)rep_total_ops(&r));
			status_result(res, "failed", msg);
			rep_free(&r);
			goto out;
		}
		rep_free(&r);
	}
	status_result(res, "ok", NULL);
	struct st_summary s;
	struct st_summary fj;

	st_summarize(opss, nrep, &s);
	st_summarize(jain, nrep, &fj);
	json_t *sum = json_object();

	json_object_set_new(sum, "ops_per_sec", st_summary_json(&s));
	json_object_set_new(sum, "fairness_jain", json_real(fj.mean));
	json_object_set_new(sum, "fairness_jain_min", json_real(fj.min));
	json_object_set_new(sum, "hold_ns", hist_summary_json(hold));
	json_object_set_new(sum, "acquire_ns", hist_summary_json(acq));
	if (ops->slice) {
		double k = all_ops ? 1000.0 / (double)all_ops : 0;

		json_object_set_new(sum, "slice",
				    json_pack("{s:I,s:I,s:I,s:f,s:f}", "requests", (json_int_t)req,
					      "grants", (json_int_t)grant, "yields",
					      (json_int_t)yield, "grants_per_1000_ops",
					      (double)grant * k, "yields_per_1000_ops",
					      (double)yield * k));
	}
	json_object_set_new(res, "summary", sum);
	json_object_set_new(res, "histograms",
			    json_pack("{s:o,s:o}", "hold_ns", hist_buckets_json(hold),
				      "acquire_ns", hist_buckets_json(acq)));
out:
	free(opss);
	free(jain);
	free(acq);
	free(hold);
	return res;
}
