/* primitives - what the building blocks cost on this machine: a syscall
 * (gettid), an uncontended and a contended lock xadd, a futex wake with no
 * waiter, a cache-line round trip between two PUs, rseq_slice_yield and the
 * slice request/clear pair.  The numbers behind "a syscall is ~8 atomic ops"
 * (Zijlstra in the "Extended Scheduler Time Slice" thread on LKML, 25 Oct
 * 2023: gettid x1M = 179,650,423 cycles, xadd x1M = 23,036,564). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../harness/core/loop.h"
#include "../harness/lib/resset.h"
#include "../harness/os/topo.h"
#include "locks/futex.h"

struct prim_params {
	uint64_t iterations;
};

static const struct key_desc prim_keys[] = {
	{ "iterations", KT_INT, "200000", 1000, 100000000, "ops",
	  "operations per primitive and repetition", NULL,
	  KEY_FIELD(struct prim_params, iterations) },
	{ 0 },
};

/* TSC cycles per operation of body(), best of 5 batches: a batch that was
 * interrupted only looks slower, as in the kernel's own micro-benchmarks. */
#define MEASURE(iters, body)                                                             \
	({                                                                                \
		uint64_t best_ = UINT64_MAX;                                               \
		for (int b_ = 0; b_ < 5; b_++) {                                           \
			uint64_t c0_ = tm_tsc();                                           \
			for (uint64_t i_ = 0; i_ < (iters); i_++) {                         \
				body;                                                      \
			}                                                                  \
			uint64_t d_ = tm_tsc() - c0_;                                      \
			if (d_ < best_)                                                    \
				best_ = d_;                                                \
		}                                                                          \
		(double)best_ / (double)(iters);                                           \
	})

static json_t *entry(double cycles)
{
	return json_pack("{s:s,s:f,s:f}", fld_key(fld_prim_status), "ok",
			 fld_key(fld_prim_tsc), cycles,
			 fld_key(fld_prim_ns), cycles / tm_tsc_per_ns());
}

/* One primitive that did not run, and why. */
static json_t *unsupported(const char *why)
{
	return json_pack("{s:s,s:s}", fld_key(fld_prim_status), "unsupported",
			 fld_key(fld_prim_reason), why);
}

struct pp {
	_Alignas(64) _Atomic uint64_t line;
	_Alignas(64) _Atomic uint64_t total;
	_Atomic int go, stop;
	uint64_t iters;
	int cpu; /* the ping-pong partner's PU */
};

struct xarg {
	struct pp *shared;
	int cpu;
	pthread_t tid;
};

static void *xadd_worker(void *arg)
{
	struct xarg *x = arg;
	struct pp *p = x->shared;
	uint64_t n = 0;

	topo_bind_self(x->cpu);
	while (!atomic_load(&p->go))
		;
	while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&p->line, 1, memory_order_relaxed);
		n++;
	}
	atomic_fetch_add(&p->total, n);
	return NULL;
}

/* n threads on their PUs all hammer one line: TSC cycles per xadd per
 * thread, i.e. window x threads / operations. */
static double contended_xadd(unsigned n, double secs)
{
	struct pp *p = aligned_alloc(64, sizeof(*p));
	struct xarg *x = calloc(n, sizeof(*x));
	int *cpu = calloc(n, sizeof(*cpu));
	char err[128];

	if (!p || !x || !cpu)
		abort();
	memset(p, 0, sizeof(*p));
	topo_assign("compact", n, cpu, err, sizeof(err));
	for (unsigned i = 0; i < n; i++) {
		x[i].shared = p;
		x[i].cpu = cpu[i];
		pthread_create(&x[i].tid, NULL, xadd_worker, &x[i]);
	}
	uint64_t c0 = tm_tsc();

	atomic_store(&p->go, 1);
	tm_sleep_ns((uint64_t)(secs * 1e9));
	atomic_store(&p->stop, 1);
	uint64_t c1 = tm_tsc();

	for (unsigned i = 0; i < n; i++)
		pthread_join(x[i].tid, NULL);
	double r = p->total ? (double)(c1 - c0) * n / (double)p->total : 0;

	free(p);
	free(x);
	free(cpu);
	return r;
}

static void *pong(void *arg)
{
	struct pp *p = arg;

	topo_bind_self(p->cpu);
	for (uint64_t v = 1; !atomic_load_explicit(&p->stop, memory_order_relaxed); v += 2) {
		while (atomic_load_explicit(&p->line, memory_order_acquire) != v)
			if (atomic_load_explicit(&p->stop, memory_order_relaxed))
				return NULL;
		atomic_store_explicit(&p->line, v + 1, memory_order_release);
	}
	return NULL;
}

/* One round trip: this PU writes, the other PU sees it and writes back. */
static double line_roundtrip(uint64_t iters, int cpu_a, int cpu_b)
{
	struct pp *p = aligned_alloc(64, sizeof(*p));
	pthread_t t;

	memset(p, 0, sizeof(*p));
	p->cpu = cpu_b;
	pthread_create(&t, NULL, pong, p);
	topo_bind_self(cpu_a);
	uint64_t c0 = tm_tsc(), v = 0;

	for (uint64_t i = 0; i < iters; i++) {
		atomic_store_explicit(&p->line, v + 1, memory_order_release);
		while (atomic_load_explicit(&p->line, memory_order_acquire) != v + 2)
			;
		v += 2;
	}
	uint64_t c1 = tm_tsc();

	atomic_store(&p->stop, 1);
	pthread_join(t, NULL);
	free(p);
	return (double)(c1 - c0) / (double)iters;
}

static json_t *prim_measure(const json_t *params, unsigned nthreads, char *err, size_t len)
{
	struct prim_params pp = { 0 };
	struct run_params rp;

	key_bind(prim_keys, params, &pp);
	run_params_parse(params, &rp);
	uint64_t n = pp.iterations;
	double secs = rp.duration_s;
	_Alignas(64) _Atomic uint64_t word = 0;
	_Alignas(64) _Atomic uint32_t fword = 0;
	json_t *o = json_object();
	int cpu[2];
	char why[320];

	(void)err;
	(void)len;
	topo_assign("compact", 2, cpu, why, sizeof(why));
	topo_bind_self(cpu[0]);
	double gettid = MEASURE(n, syscall(SYS_gettid));
	double xadd = MEASURE(n, atomic_fetch_add_explicit(&word, 1, memory_order_relaxed));

	res_set_as(o, fld_prim_one, "gettid", entry(gettid));
	res_set_as(o, fld_prim_one, "xadd", entry(xadd));
	res_set_as(o, fld_prim_one, "futex_wake_nowaiter",
		   entry(MEASURE(n, futex_call(&fword, FUTEX_WAKE_PRIVATE, 1))));
	res_set_as(o, fld_prim_one, "xadd_contended", entry(contended_xadd(nthreads, secs)));
	res_set(o, fld_prim_nth, json_integer(nthreads));
	if (topo_npus() >= 2)
		res_set_as(o, fld_prim_one, "line_roundtrip",
			   entry(line_roundtrip(n / 4 + 1, cpu[0], cpu[1])));
	else
		res_set_as(o, fld_prim_one, "line_roundtrip", unsupported("needs two PUs"));
	struct slice_thread st;

	if (slice_thread_init(&st, why, sizeof(why))) {
		res_set_as(o, fld_prim_one, "rseq_slice_yield", unsupported(why));
		res_set_as(o, fld_prim_one, "slice_request_clear", unsupported(why));
	} else {
		res_set_as(o, fld_prim_one, "rseq_slice_yield", entry(MEASURE(n, slice_yield())));
		res_set_as(o, fld_prim_one, "slice_request_clear",
			   entry(MEASURE(n, {
				   slice_request(st.rs);
				   if (slice_clear(st.rs))
					   slice_yield();
			   })));
		slice_thread_fini(&st);
	}
	res_set(o, fld_prim_ratio, json_real(xadd > 0 ? gettid / xadd : 0));
	return o;
}

const struct workload_ops wl_primitives = {
	.name = "primitives",
	.desc = "cycles per gettid, xadd (alone and contended), futex wake, line round trip, slice ops",
	.keys = prim_keys,
	.measure = prim_measure,
};
