/* fgdetect.c - the flexguard lock's sched_switch program, watched at work:
 * a registered thread that sleeps with its critical flag set must be
 * counted off its CPU exactly once while it sleeps and not after it runs
 * again; with the flag clear, or unregistered, never.  Where the program
 * cannot load the test is a skip with the recorded reason. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../workloads/locks/fgload.h"
#include "tap.h"

struct probe {
	unsigned slot;
	int watch, crit;
	_Atomic int phase; /* 1: asleep with the flag as asked, 2: back and done */
	long long off_after;
};

static void nap_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static void *sleeper(void *arg)
{
	struct probe *p = arg;
	struct fg_slot *s = fgb_slot(p->slot);

	if (!s) { /* no such slot: the check fails, saying so */
		p->watch = -1;
		atomic_store(&p->phase, 1);
		return NULL;
	}
	if (p->watch)
		p->watch = fgb_watch(p->slot, (int)syscall(SYS_gettid)) ? -1 : 1;
	atomic_store(&p->phase, 1);
	__atomic_store_n(&s->crit, (__u32)p->crit, __ATOMIC_RELAXED);
	nap_ms(200); /* switched out: the program sees it leave and return */
	p->off_after = __atomic_load_n(&fgb_count()->off, __ATOMIC_RELAXED);
	__atomic_store_n(&s->crit, 0, __ATOMIC_RELAXED);
	atomic_store(&p->phase, 2);
	return NULL;
}

static void run(const char *name, unsigned slot, int watch, int crit, long long want_asleep)
{
	struct probe p = { .slot = slot, .watch = watch, .crit = crit };
	pthread_t th;

	pthread_create(&th, NULL, sleeper, &p);
	while (atomic_load(&p.phase) < 1)
		;
	nap_ms(100); /* the sleeper is in its 200 ms nap now */
	long long asleep = __atomic_load_n(&fgb_count()->off, __ATOMIC_RELAXED);

	pthread_join(th, NULL);
	CHECK(asleep == want_asleep && p.off_after == 0 && p.watch >= 0,
	      "fgdetect: %s (slot %u%s): count %lld while asleep (want %lld), %lld once running "
	      "again", name, slot, p.watch < 0 ? ", not watched" : "", asleep, want_asleep,
	      p.off_after);
	fgb_unwatch_all();
}

int main(void)
{
	char why[256];

	if (fgb_open(why, sizeof(why))) {
		SKIP("fgdetect: sched_switch program # SKIP %s", why);
		return 0;
	}
	run("a registered critical thread", 7, 1, 1, 1);
	run("a registered thread outside its critical section", 7, 1, 0, 0);
	run("an unregistered thread with the flag set", 7, 0, 1, 0);
	/* the threads key's largest count is 4096: its last thread too */
	run("the 4096th lock thread, registered and critical", 4095, 1, 1, 1);
	fgb_close();
	CHECK(fgb_open(why, sizeof(why)) == 0, "fgdetect: the program loads again after fgb_close");
	run("after a reload", 7, 1, 1, 1);
	return tap_failed ? 1 : 0;
}
