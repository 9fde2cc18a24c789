/* faultorder.c - a faulting section's page refresh (madvise) is a system
 * call, and one made while a grant is in force ends the grant as an abort
 * (kernel/rseq.c, rseq_syscall_enter_work) instead of in the yield the
 * request's clear makes.  So one operation must clear its request before
 * it refreshes the pages: this test replaces madvise with one that records
 * the request word as the call sees it, and runs wl_op under every policy
 * that requests. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "../../harness/core/loop.h"
#include "tap.h"

static struct sb_rseq area;
static int calls, request_seen = -1, advice_seen = -1;

/* The executable's definition wins over the C library's for faultcs.o. */
int madvise(void *addr, size_t len, int advice)
{
	(void)addr;
	(void)len;
	calls++;
	request_seen = (int)atomic_load_explicit(&area.request, memory_order_relaxed);
	advice_seen = advice;
	return 0;
}

static int held;

static void acq(void *lk, struct wl_thread *t)
{
	(void)lk;
	(void)t;
	held = 1;
}

static int try_acq(void *lk, struct wl_thread *t)
{
	acq(lk, t);
	return 1;
}

static void rel(void *lk, struct wl_thread *t)
{
	(void)lk;
	(void)t;
	held = 0;
}

int main(void)
{
	static unsigned char pages[4 * FCS_PAGE] __attribute__((aligned(4096)));
	struct wl_line line[1];
	const enum wl_policy pols[] = { POL_CS, POL_PRE, POL_REARM };
	const char *names[] = { "cs", "pre", "rearm" };

	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct wl_thread t;
		struct wl_counts c = { 0 };
		struct wl_cs cs = { 0 };

		memset(&t, 0, sizeof(t));
		t.slice.rs = &area; /* the re-arming acquisition reads it there */
		memset(line, 0, sizeof(line));
		cs.lines = line;
		cs.end = line + 1;
		cs.fault = pages;
		cs.fault_len = sizeof(pages);
		cs.fault_pages = 4;
		cs.fault_advice = MADV_DONTNEED;
		calls = 0;
		request_seen = -1;
		wl_op(&t, NULL, &area, cs, acq, try_acq, rel, pols[i], 0, 0, 0, &c);
		CHECK(calls == 1 && advice_seen == MADV_DONTNEED,
		      "faultorder: %s: one operation refreshes its pages once (%d calls)", names[i],
		      calls);
		CHECK(request_seen == 0,
		      "faultorder: %s: the request is cleared before the refresh's system call "
		      "(request word %d at madvise)",
		      names[i], request_seen);
		CHECK(!held && line[0].v == 1 && c.req >= 1,
		      "faultorder: %s: the section ran once under the lock, its request counted "
		      "(%llu)",
		      names[i], (unsigned long long)c.req);
	}
	return tap_failed != 0;
}
