/* rep.h - what the runner and the summary writer share: one repetition's
 * threads and their accounting, and the totals over a run's repetitions.
 * Private to runner.c, worker.c and summary.c. */
#ifndef SB_REP_H
#define SB_REP_H

#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>

#include <jansson.h>

#include "../os/counters.h"
#include "../os/faultcs.h"
#include "../lib/hist.h"
#include "../core/keys.h"
#include "../core/workload.h"

/* What one thread measures about its own window (wl_phase_change). */
struct acct {
	const struct cnt_events *ev;
	struct cnt_thread cnt;
	struct cnt_values vals;
	struct rusage ru0, ru1;
	uint64_t tsc0, tsc1;
	int measured;
};

struct worker {
	struct wl_thread t; /* first, so the array keeps it 64-byte aligned */
	struct acct acct;
	const struct workload_ops *ops;
	pthread_barrier_t *gate;
	_Atomic unsigned *left; /* the rep's count of threads out of their loops */
	enum wl_loop_kind kind;
	int cpu;
	enum { WK_LOCK, WK_NOISE, WK_VICTIM } role;
	struct victim_params victim; /* WK_VICTIM: the run's probe (a copy: a stuck
				      * run's threads outlive runner_run's frame) */
	struct hist *lat;      /* WK_VICTIM: wakeup latency in the window */
	uint64_t noise_busy_ns, noise_sleep_ns; /* WK_NOISE: 0 sleep = a plain hog */
	int init_rc;
	char reason[256];
	struct fcs_region fault; /* WK_LOCK: the faulting section's pages (mapped by the thread) */
	int fault_mem;		 /* enum fcs_mem */
	int rseq_registered;	/* WK_LOCK: an rseq area of ours, extension enabled */
	char rseq_reason[256]; /* WK_LOCK: why not, when the policy could do without */
};

struct rep {
	const struct workload_ops *ops;
	unsigned n, nnoise, nvictim, total;
	struct worker *w; /* n lock threads, nnoise hogs, nvictim probes */
	pthread_t *tid;
	unsigned started, joined;
	_Atomic unsigned left; /* threads out of their loops: the join's progress */
	struct wl_shared sh;
	void *lock;
	struct cnt_events *ev;
	int inited; /* ops->init succeeded: fini owed */
	int unsupported; /* ops->init answered -EOPNOTSUPP: err says why */
	pthread_barrier_t gate;
	char err[256];
};

/* Totals over the repetitions of one run, for the summary. */
struct run_acc {
	uint64_t ops, req, grant, yield, nvcsw, nivcsw, minflt, majflt;
	double wall_s, cpu_ns;
	double ev_cycles, ev_instr, ev_cs, ev_switch; /* < 0: unsupported */
	int64_t rseq[5];
	int rseq_ok;
	json_t *rseq_reason;
	struct hist acq, hold, victim;
};

/* worker.c: a repetition's thread, from the start gate to STOP (arg is its
 * struct worker). */
void *rep_worker(void *arg);

/* summary.c: the result schema's writer, and the operations of a
 * repetition's lock threads (rep_total_ops). */
uint64_t rep_total_ops(const struct rep *r);
json_t *rep_collect(const struct rep *r, double wall, struct run_acc *acc, double *ops_s,
		    double *jain, int *excl);
json_t *summary_json(const struct workload_ops *ops, struct run_acc *acc, const double *opss,
		     const double *jain, unsigned nrep);
json_t *status_result(json_t *res, const char *status, const char *reason);
void keep_summary(json_t *res);
void rseq_acc(struct run_acc *acc, const struct rseq_stats *a, const struct rseq_stats *b);
json_t *rep_registration(const struct rep *r);
struct slicetrace;
/* The window's grant durations, counted for the lock threads (NULL untraced). */
json_t *rep_slicetrace_end(const struct rep *r, struct slicetrace *t);
/* summary.slice.extension_ns and histograms.extension_ns. */
void rep_slicetrace_summary(json_t *res, struct slicetrace *t);

/* repfault.c: the window's page faults per lock thread (added to acc),
 * the faulting region's description, and the holder trace's window. */
json_t *rep_faults(const struct rep *r, struct run_acc *acc);
json_t *rep_fault_mem(const struct rep *r);
struct holdtrace;
void rep_holdtrace_begin(const struct rep *r, struct holdtrace *h);
/* After the join: the window's holder counts, NULL untraced. */
json_t *rep_holdtrace_end(const struct rep *r, struct holdtrace *h);
/* summary.faults and summary.holder_trace. */
void rep_fault_summary(json_t *res, const struct run_acc *acc, struct holdtrace *h);

#endif
