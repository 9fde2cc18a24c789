/* workload.h - the contract between the harness and the locks.
 *
 * A lock is one file in workloads/locks/ ending in one const struct wl_lock,
 * listed once in workloads/registry.c.  Its loops (loop.h: one per waiting
 * policy and loop kind) are instantiated inside that file from its inline
 * acquire/trylock/release, so the measured code has no indirect call; the
 * harness only picks one.  What a run executes is a workload: a lock, a
 * waiting policy (policy.h) and the dry flag; the suite's historic names
 * (spin-tas, slice-spin, ...) are aliases for such triples. */
#ifndef SB_WORKLOAD_H
#define SB_WORKLOAD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "../lib/hist.h"
#include "keys.h"
#include "../os/slice.h"
#include "../lib/vocab.h"

/* PH_NONE is no phase yet: what a thread loop starts from, so a thread
 * that first runs after the stop still sees a change and leaves. */
enum wl_phase { PH_NONE = -1, PH_WARMUP, PH_MEASURE, PH_STOP };

/* Loop variants: LOOP_BARE has no timing code at all (the reference for
 * the harness's own overhead), LOOP_EVERY times every operation. */
enum wl_loop_kind { LOOP_SAMPLED, LOOP_BARE, LOOP_EVERY, LOOP_KINDS };

/* The number of waiting policies (policy.h's POL_COUNT). */
#define WL_POLICIES (0 SB_POLICIES(SB_COUNT_ONE, ))

struct hl_log;

struct wl_line {
	uint64_t v;
} __attribute__((aligned(64)));

struct wl_shared {
	_Alignas(64) _Atomic int phase;
	_Alignas(64) struct wl_line *lines;
	unsigned nlines;
};

struct wl_thread {
	/* Set up before the gate opens; read-only in the loop. */
	struct wl_shared *sh;
	void *lock;
	uint64_t think_iters, cs_iters;
	unsigned cachelines, sample_every;
	uint64_t max_ops; /* UINT64_MAX for timed runs; exact for the torture */
	double ns_per_tsc;
	int tid;
	int index;
	int policy; /* enum wl_policy, for the sleep hooks of policy.h */
	/* The faulting part of the section (faultcs.h): fault_pages pages from
	 * fault_base written in it, fault_advice (0 none) given after it. */
	unsigned char *fault_base;
	size_t fault_len;
	uint32_t fault_pages;
	int fault_advice;
	/* Holds at least this many TSC cycles go to hold_log (holdtrace.h);
	 * 0: no hold is timed. */
	uint64_t hold_log_tsc;
	struct hl_log *hold_log;
	struct slice_thread slice;
	/* Written by the thread alone, read after it was joined. */
	uint64_t ops;	    /* in the measured window */
	uint64_t total_ops; /* warm-up included: what the shared counter must equal */
	uint64_t slice_requests, slice_grants, slice_yields;
	/* The sleep hooks' own counts (policy.h), added in by the loop. */
	uint64_t sleep_requests, sleep_grants, sleep_yields;
	int rearm_after_sleep;
	struct hist acquire_ns, hold_ns, think_ns; /* sampled 1 in sample_every */
	/* Window accounting done by wl_phase_change() (see runner.c). */
	void *acct;
	/* The dry control's area: never registered, so never read by the
	 * kernel (policy.h). */
	struct sb_rseq dry_area;
	/* The lock algorithm's per-thread slot (an MCS queue node); zeroed
	 * before the thread starts. */
	_Alignas(64) unsigned char slot[128];
} __attribute__((aligned(64)));

/* One lock algorithm.  keys are bound to fields of the lock struct by
 * their .off (fio's option tables do the same); the harness fills them in
 * before init. */
struct wl_lock {
	const char *name;
	const char *desc;
	const struct key_desc *keys; /* lock-only keys, or NULL */
	size_t lock_size;	     /* the harness allocates it, 64-byte aligned, zeroed */
	int unlocked;		     /* not a lock (hogs, idle): no shared lines */
	/* Hands the lock over in arrival order: with more threads than PUs
	 * each handoff may wait for the next thread's time slice (ticket:
	 * 73 ops/s at 2 threads per PU against 260 k at one in quick.json). */
	int fifo;
	/* The most lock threads it can serve (a table of one slot per
	 * thread); 0: any number.  A run of more is "unsupported". */
	unsigned max_threads;
	/* NULL hooks are skipped by the harness.  init returns 0, or -errno
	 * with the reason in err; -EOPNOTSUPP when this machine cannot run
	 * the lock (a kernel feature or a privilege it lacks): the run is then
	 * "unsupported" and the torture skips it, with that reason. */
	int (*init)(void *lock, char *err, size_t len);
	void (*fini)(void *lock);
	/* loop[policy][kind]; a lock without trylock has no POL_REARM row. */
	void (*loop[WL_POLICIES][LOOP_KINDS])(struct wl_thread *t);
};

/* What a run executes: a lock under a policy, or a workload that measures
 * itself (primitives). */
/* The turns of an interleaved run (harness/engine/interleave.c), for a workload
 * that does its whole run itself: ready once it is set up, turn before
 * each repetition (0, or -1: no more turns), done after it (last: it wants
 * no more).  Every call takes g. */
struct wl_turns {
	void (*ready)(const void *g);
	int (*turn)(const void *g);
	void (*done)(const void *g, int last);
	const void *g;
};

struct workload_ops {
	const char *name;
	const char *desc;
	const struct wl_lock *lock;
	int policy; /* enum wl_policy */
	int dry;    /* requests on the dry area */
	/* A workload that is not a lock loop measures one repetition itself
	 * and returns its JSON, or NULL + err. */
	json_t *(*measure)(const json_t *params, unsigned nthreads, char *err, size_t len);
	const struct key_desc *keys; /* measure's (or run's) own keys */
	/* A workload that runs an external program does the whole run itself
	 * (workloads/program.c) and returns the result; preload is the preload
	 * library's placement for it, NULL to run the program as it is.  t:
	 * NULL, or the turns of an interleaved run (struct wl_turns). */
	json_t *(*run)(const struct workload_ops *ops, const json_t *params,
		       const struct wl_turns *t);
	const char *preload;
	/* The workload's keys read together, on one point (every key
	 * resolved): 0, or -1 with the key at fault in *key and the message,
	 * its value as given first, in msg.  The config loader calls it on
	 * every point, so a bad combination is refused before anything runs;
	 * NULL when each key's own check suffices. */
	int (*check)(const json_t *params, const char **key, char *msg, size_t len);
};

extern const struct wl_lock *const wl_locks[];
/* The i-th named workload (the aliases for lock x policy x dry, then
 * primitives), NULL past the last. */
const struct workload_ops *wl_named(size_t i);
/* The i-th program workload's arm (workloads/program.c), NULL past the last. */
const struct workload_ops *wl_program_named(size_t i);
int wl_has_trylock(const struct wl_lock *l);
const struct wl_lock *wl_lock_find(const char *name);
/* An alias, or "LOCK+POLICY" / "LOCK+POLICY+dry". */
const struct workload_ops *wl_find(const char *name);
/* The workload of a triple: its alias when it has one, else the canonical
 * "LOCK+POLICY[+dry]" entry; NULL for an invalid triple (*why says so). */
const struct workload_ops *wl_resolve(const struct wl_lock *lock, int policy, int dry,
				      const char **why);
/* The keys of a workload: its lock's, or measure's own. */
const struct key_desc *wl_keys(const struct workload_ops *o);
/* Whether params key k says which point a run of o is: a run key, or one
 * of the own keys of a workload that runs a program (its command and
 * metric: which experiment it is).  o may be NULL (a workload this build
 * does not know): run keys only. */
int wl_point_key(const struct workload_ops *o, const char *k);
/* Whether the workload needs the kernel's extension (a non-dry request). */
int wl_needs_slice(const struct workload_ops *o);

#endif
