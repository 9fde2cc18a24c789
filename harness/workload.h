/* workload.h - the contract between the harness and one lock workload.
 *
 * A workload is one file in workloads/ ending in one const workload_ops,
 * listed once in workloads/registry.c.  The hot loop is generated inside the
 * workload file from its inline lock/unlock (WL_DEFINE_LOOPS in loop.h), so
 * the measured code has no indirect call; the harness only picks a variant. */
#ifndef SB_WORKLOAD_H
#define SB_WORKLOAD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "hist.h"
#include "keys.h"
#include "slice.h"

/* PH_NONE is no phase yet: what a thread loop starts from, so a thread
 * that first runs after the stop still sees a change and leaves. */
enum wl_phase { PH_NONE = -1, PH_WARMUP, PH_MEASURE, PH_STOP };

/* Loop variants: LOOP_BARE has no timing code at all (the reference for
 * the harness's own overhead), LOOP_EVERY times every operation. */
enum wl_loop_kind { LOOP_SAMPLED, LOOP_BARE, LOOP_EVERY, LOOP_KINDS };

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
	struct slice_thread slice;
	/* Written by the thread alone, read after it was joined. */
	uint64_t ops;	    /* in the measured window */
	uint64_t total_ops; /* warm-up included: what the shared counter must equal */
	uint64_t slice_requests, slice_grants, slice_yields;
	struct hist acquire_ns, hold_ns;
	/* Window accounting done by wl_phase_change() (see runner.c). */
	void *acct;
} __attribute__((aligned(64)));

struct workload_ops {
	const char *name;
	const char *desc;
	const struct key_desc *keys; /* workload-only keys, or NULL */
	size_t lock_size;	     /* the harness allocates it, 64-byte aligned, zeroed */
	int slice;		     /* waiting policy uses the slice extension */
	int unlocked;		     /* no mutual exclusion (hogs, abusers): no shared lines */
	/* NULL hooks are skipped by the harness. */
	int (*init)(void *lock, const json_t *params, char *err, size_t len);
	void (*fini)(void *lock);
	int (*thread_init)(void *lock, struct wl_thread *t, char *reason, size_t len);
	void (*loop[LOOP_KINDS])(struct wl_thread *t);
	/* A workload that is not a lock loop (primitives) measures one
	 * repetition itself and returns its JSON, or NULL + err. */
	json_t *(*measure)(const json_t *params, unsigned nthreads, char *err, size_t len);
};

extern const struct workload_ops *const wl_registry[];
const struct workload_ops *wl_find(const char *name);
/* Integer value of a key in a run's resolved parameters. */
int64_t wl_param_int(const json_t *params, const char *key);

#endif
