/* faultcs.h - critical sections that page-fault: each lock thread's own
 * region of fault_pages pages, touched once per page inside every critical
 * section (loop.h) and made fresh again after the release, outside it, so
 * that the next section faults them in again.  The shape of the 7.0
 * preemption regression's explanation: a PostgreSQL backend holding a
 * spinlock takes a minor fault on a buffer page and is preempted in the
 * handler.  The faults are counted (getrusage minflt per thread in the
 * window, summary.c), never assumed.
 *
 * Per thread because the threads share one address space: a region zapped
 * by one thread would fault in every thread's section.  A zap in a
 * multi-threaded process also costs a TLB shootdown on the CPUs running
 * its other threads (PostgreSQL's backends are processes and pay none):
 * the interrupt lands on whoever runs there, holder or waiter. */
#ifndef SB_FAULTCS_H
#define SB_FAULTCS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* The fault_mem key's values, in its table's order. */
enum fcs_mem {
	FCS_PRIVATE,	   /* private anonymous pages, MADV_DONTNEED */
	FCS_SHARED,	   /* a memfd mapped MAP_SHARED, MADV_DONTNEED: pages stay in it */
	FCS_SHARED_REMOVE, /* the same, MADV_REMOVE: pages freed, each fault allocates */
	FCS_HUGE,	   /* huge pages mapped once, never made fresh: the workaround */
	FCS_MEMS,
};

extern const char *const fcs_mem_names[FCS_MEMS + 1];

#define FCS_PAGE 4096u

struct fcs_region {
	unsigned char *base; /* NULL: no faulting section */
	size_t len;
	uint32_t pages;
	int advice; /* madvise() after each section, 0 none (MADV_NORMAL is never one) */
	const char *backing; /* "4k", "hugetlb", "thp" */
	char reason[160];    /* why a huge region is not hugetlb */
};

/* Maps the region (pages 0: nothing); 0, or -errno with err filled in. */
int fcs_map(struct fcs_region *r, uint32_t pages, enum fcs_mem mem, char *err, size_t len);
void fcs_unmap(struct fcs_region *r);
/* Outside the section: the pages go, so the next touch faults. */
void fcs_refresh(unsigned char *base, size_t len, int advice);
/* {"mem", "pages", "backing", "advice", "reason"?} of a mapped region. */
json_t *fcs_json(const struct fcs_region *r, enum fcs_mem mem);

#endif
