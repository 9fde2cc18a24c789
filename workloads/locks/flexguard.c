/* flexguard - a preemption-aware lock in the way of FlexGuard (Laforet,
 * Kashyap, Iorgulescu, Lawall, Lozi, SOSP 2025; github.com/vlaforet/
 * flexguard): the lock is the 3-state futex word of futex.h; waiters queue
 * on an MCS list to spin, and only its head spins on the word.  A
 * sched_switch BPF program (bpf/fgswitch.bpf.c, loaded by fgload.c) counts
 * the lock's critical threads that are off their CPU; while that count is
 * non-zero no one spins: queued waiters leave the queue and sleep on the
 * word (FUTEX_WAIT), and a release wakes one.
 *
 * Critical, as the program sees it: from taking the word, or from heading
 * the queue, until the release (the head is the next holder: FlexGuard
 * counts a preempted head too).  FlexGuard reads the preempted thread's
 * user stack and registers to place it exactly inside its lock code; this
 * lock only sets a flag, so a switch in the few instructions between the
 * word's CAS and that store goes unseen, and waiters then spin a little
 * longer: never a question of correctness, which rests on the word alone.
 * It also counts a holder that blocks (a page fault's I/O) as off its CPU,
 * where FlexGuard counts preemptions only: either way it is not running.
 *
 * Without the program (no BPF here: harness/os/bpfwhy.c says why) the run is
 * "unsupported" rather than a plain MCS run under this name.  The
 * detector key's other values are its controls: 0, never blocked (the
 * same code spinning throughout), 2, always blocked (every waiter sleeps
 * on the word: a futex mutex with a spin-free slow path). */
#include <errno.h>
#include <immintrin.h>

#include "../../harness/core/loop.h"
#include "fgload.h"
#include "futex.h"

struct fg_node {
	_Atomic(struct fg_node *) next;
	_Atomic uint32_t waiting;   /* 1 while queued behind a predecessor */
	_Atomic uint32_t link_wait; /* 1 while asleep for a successor's link */
	_Atomic uint32_t *crit;	    /* the slot the program reads, or crit_own */
	_Atomic uint32_t crit_own;
	int ready;
};

struct fg_lock {
	_Alignas(64) _Atomic uint32_t word;		/* futex.h's 3-state word: the lock */
	_Alignas(64) _Atomic(struct fg_node *) tail; /* the spinners' queue */
	_Alignas(64) const _Atomic int64_t *off;	/* critical threads off their CPU */
	int64_t detector;				/* key; read-only after init */
};

_Static_assert(sizeof(struct fg_node) <= sizeof(((struct wl_thread *)0)->slot),
	       "the node fits the thread's slot");

enum { FG_NEVER, FG_BPF, FG_ALWAYS };

/* Registers the thread with the program on its first acquisition (the
 * slot is zeroed before the thread starts): one bpf() call per thread,
 * outside the measured window only if the warm-up takes a lock, which it
 * does.  A thread the program cannot watch keeps a private flag. */
static __attribute__((noinline, cold)) void fg_node_init(const struct fg_lock *l,
							 struct fg_node *n, struct wl_thread *t)
{
	struct fg_slot *s = fgb_slot((unsigned)t->index);

	n->crit = &n->crit_own;
	/* The slot's u32 is written as an atomic of the same size and
	 * alignment (both are plain 4-byte stores on x86). */
	if (l->detector == FG_BPF && s && !fgb_watch((unsigned)t->index, t->tid))
		n->crit = (_Atomic uint32_t *)&s->crit;
	n->ready = 1;
}

static inline struct fg_node *fg_node_of(const struct fg_lock *l, struct wl_thread *t)
{
	struct fg_node *n = (struct fg_node *)t->slot;

	if (__builtin_expect(!n->ready, 0))
		fg_node_init(l, n, t);
	return n;
}

/* relaxed plus a signal fence: only the program, on this thread's own CPU
 * at its switch-out, reads the flag, so it needs program order and no
 * barrier (slice.h stores its request the same way, for the same reader). */
static inline void fg_crit(struct fg_node *n, uint32_t v)
{
	atomic_signal_fence(memory_order_seq_cst);
	atomic_store_explicit(n->crit, v, memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
}

/* relaxed: a stale count only makes a waiter spin or sleep once more. */
static inline int fg_blocked(const struct fg_lock *l)
{
	return atomic_load_explicit(l->off, memory_order_relaxed) > 0;
}

/* Links behind pred and wakes it if it sleeps waiting for this link.  The
 * two seq_cst pairs (next then link_wait here, link_wait then next in
 * fg_queue_leave) are Dekker's: one side sees the other's store. */
static inline void fg_link(struct fg_node *pred, struct fg_node *me)
{
	atomic_store_explicit(&pred->next, me, memory_order_seq_cst);
	if (atomic_load_explicit(&pred->link_wait, memory_order_seq_cst) &&
	    atomic_exchange_explicit(&pred->link_wait, 0, memory_order_seq_cst))
		futex_call(&pred->link_wait, FUTEX_WAKE_PRIVATE, 1);
}

/* Leaves the queue, passing the head on.  A successor that has swapped
 * the tail but not linked yet is waited for: spinning while no critical
 * thread is off its CPU, asleep otherwise (FlexGuard's mcs_exit does the
 * same).  A waiter may leave before its predecessor handed it the head;
 * that handoff then lands later on this node, at worst making this thread
 * head early next time: two heads only both spin on the word. */
static void fg_queue_leave(struct fg_lock *l, struct fg_node *me, struct wl_thread *t)
{
	struct fg_node *next = atomic_load_explicit(&me->next, memory_order_acquire), *expect = me;

	if (!next) {
		if (atomic_compare_exchange_strong_explicit(&l->tail, &expect, NULL,
							    memory_order_release,
							    memory_order_relaxed))
			return;
		while (!(next = atomic_load_explicit(&me->next, memory_order_acquire))) {
			if (!fg_blocked(l)) {
				_mm_pause();
				continue;
			}
			atomic_store_explicit(&me->link_wait, 1, memory_order_seq_cst);
			if (atomic_load_explicit(&me->next, memory_order_seq_cst))
				break;
			wl_sleep_enter(t);
			futex_call(&me->link_wait, FUTEX_WAIT_PRIVATE, 1);
			wl_sleep_exit(t);
		}
		next = atomic_load_explicit(&me->next, memory_order_acquire);
		atomic_store_explicit(&me->link_wait, 0, memory_order_relaxed);
	}
	atomic_store_explicit(&next->waiting, 0, memory_order_release);
}

/* Sleeps on the word as futex.h's slow path does: 1 once it took the
 * word, 0 when woken with the word still taken and nobody off a CPU (the
 * caller then spins again). */
static int fg_sleep(const struct fg_lock *l, struct wl_thread *t)
{
	_Atomic uint32_t *w = (_Atomic uint32_t *)&l->word;

	for (int woken = 0;; woken = 1) {
		if (!atomic_exchange_explicit(w, 2, memory_order_acquire))
			return 1;
		if (woken && !fg_blocked(l))
			return 0;
		wl_sleep_enter(t);
		futex_call(w, FUTEX_WAIT_PRIVATE, 2);
		wl_sleep_exit(t);
	}
}

/* Out of line, as futex.h's fx_lock_slow() is and for its reason. */
static __attribute__((noinline, cold)) void fg_lock_slow(struct fg_lock *l, struct fg_node *me,
							 struct wl_thread *t)
{
	for (;;) {
		int queued = !fg_blocked(l);

		if (queued) {
			atomic_store_explicit(&me->next, NULL, memory_order_relaxed);
			atomic_store_explicit(&me->waiting, 1, memory_order_relaxed);
			/* acq_rel: publishes the node to the successor that finds it */
			struct fg_node *pred =
				atomic_exchange_explicit(&l->tail, me, memory_order_acq_rel);

			if (pred) {
				fg_link(pred, me);
				while (atomic_load_explicit(&me->waiting, memory_order_relaxed) &&
				       !fg_blocked(l))
					_mm_pause();
			}
			if (!pred || !atomic_load_explicit(&me->waiting, memory_order_relaxed))
				fg_crit(me, 1); /* the head: the next holder */
		}
		while (!fg_blocked(l)) {
			/* Only try when it looks free: a failed CAS steals the line. */
			if (!atomic_load_explicit(&l->word, memory_order_relaxed) &&
			    fx_trylock(&l->word)) {
				fg_crit(me, 1);
				if (queued)
					fg_queue_leave(l, me, t);
				return;
			}
			_mm_pause();
		}
		/* A critical thread is off its CPU: stop spinning. */
		if (queued)
			fg_queue_leave(l, me, t);
		fg_crit(me, 0);
		if (fg_sleep(l, t)) {
			fg_crit(me, 1);
			return;
		}
	}
}

static inline void fg_acquire(void *lock, struct wl_thread *t)
{
	struct fg_lock *l = lock;
	struct fg_node *me = fg_node_of(l, t);

	if (!atomic_load_explicit(&l->word, memory_order_relaxed) && fx_trylock(&l->word)) {
		fg_crit(me, 1);
		return;
	}
	fg_lock_slow(l, me, t);
}

static inline int fg_trylock(void *lock, struct wl_thread *t)
{
	struct fg_lock *l = lock;
	struct fg_node *me = fg_node_of(l, t);

	if (atomic_load_explicit(&l->word, memory_order_relaxed) || !fx_trylock(&l->word))
		return 0;
	fg_crit(me, 1);
	return 1;
}

/* The flag is cleared after the word: a switch in between is counted
 * though the lock is free, and costs a waiter one xchg that takes it. */
static inline void fg_release(void *lock, struct wl_thread *t)
{
	struct fg_lock *l = lock;

	fx_unlock(&l->word);
	fg_crit((struct fg_node *)t->slot, 0);
}

static int fg_init(void *lock, char *err, size_t len)
{
	static const _Atomic int64_t never = 0, always = 1;
	struct fg_lock *l = lock;

	if (l->detector != FG_BPF) {
		l->off = l->detector == FG_ALWAYS ? &always : &never;
		return 0;
	}
	if (fgb_open(err, len))
		return -EOPNOTSUPP;
	l->off = (const _Atomic int64_t *)&fgb_count()->off;
	return 0;
}

static void fg_fini(void *lock)
{
	if (((struct fg_lock *)lock)->detector == FG_BPF)
		fgb_unwatch_all();
}

static const struct key_desc fg_keys[] = {
	{ "detector", KT_INT, "1", 0, 2, "",
	  "1: the sched_switch BPF program (the run is unsupported without it); 0: never "
	  "blocked, waiters always spin; 2: always blocked, waiters always sleep",
	  KEY_FIELD(struct fg_lock, detector) },
	{ 0 },
};

WL_DEFINE_LOOPS(fg)

const struct wl_lock wl_lock_flexguard = {
	.name = "flexguard",
	.desc = "FlexGuard-style: MCS-queued spinning on a futex word while every critical "
		"thread runs, FUTEX_WAIT while a sched_switch BPF program sees one off its CPU",
	.keys = fg_keys,
	.lock_size = sizeof(struct fg_lock),
	/* every detector: 0 and 2 are 1's controls, at its thread counts */
	.max_threads = FG_MAX_THREADS,
	.init = fg_init,
	.fini = fg_fini,
	.loop = WL_LOOP_TABLE(fg),
};
