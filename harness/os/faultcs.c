/* faultcs.c - the faulting critical sections' regions (faultcs.h). */
#define _GNU_SOURCE
#include "faultcs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/resset.h"

#ifndef MFD_HUGETLB
#define MFD_HUGETLB 0x0004u
#endif

/* x86-64's PMD huge page: what MFD_HUGETLB gives without a size flag (the
 * default hugepagesz) and what THP maps. */
#define FCS_HUGE_PAGE (2u << 20)

const char *const fcs_mem_names[FCS_MEMS + 1] = {
	[FCS_PRIVATE] = "private", [FCS_SHARED] = "shared", [FCS_SHARED_REMOVE] = "shared-remove",
	[FCS_HUGE] = "huge", NULL,
};

static const char *advice_name(int advice)
{
	return advice == MADV_DONTNEED ? "MADV_DONTNEED" : advice == MADV_REMOVE ? "MADV_REMOVE"
										 : "none";
}

/* Every page written once: the region starts resident, so the first
 * section's faults are the same kind as every later one's. */
static void touch_all(unsigned char *p, size_t len)
{
	for (size_t o = 0; o < len; o += FCS_PAGE)
		((volatile unsigned char *)p)[o] = 1;
}

static unsigned char *map_memfd(size_t len, unsigned flags, int populate, int *err)
{
	int fd = memfd_create("slicebench-faultcs", flags);
	void *p = MAP_FAILED;

	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	if (!ftruncate(fd, (off_t)len))
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, 0);
	*err = errno;
	close(fd); /* the mapping keeps the file */
	return p == MAP_FAILED ? NULL : p;
}

/* The workaround's region: hugetlb first (PostgreSQL's huge_pages = on maps
 * its buffers MAP_HUGETLB), else THP on an aligned private region; either
 * way mapped once and never zapped, so its sections touch without a fault. */
static int map_huge(struct fcs_region *r, char *err, size_t len)
{
	int e;

	r->len = (r->len + FCS_HUGE_PAGE - 1) & ~(size_t)(FCS_HUGE_PAGE - 1);
	r->base = map_memfd(r->len, MFD_HUGETLB, 1, &e);
	if (r->base) {
		r->backing = "hugetlb";
		return 0;
	}
	snprintf(r->reason, sizeof(r->reason),
		 "no hugetlb pages (memfd MFD_HUGETLB of %zu bytes: %s; see vm.nr_hugepages): "
		 "THP via MADV_HUGEPAGE instead", r->len, strerror(e));
	void *p = mmap(NULL, r->len + FCS_HUGE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		snprintf(err, len, "fault_mem huge: mmap of %zu bytes: %s", r->len, strerror(errno));
		return -errno;
	}
	/* Aligned to the huge page, so THP can map it whole; the slack is
	 * unmapped again on both sides. */
	uintptr_t a = ((uintptr_t)p + FCS_HUGE_PAGE - 1) & ~(uintptr_t)(FCS_HUGE_PAGE - 1);
	size_t head = a - (uintptr_t)p;

	if (head)
		munmap(p, head);
	if (FCS_HUGE_PAGE - head)
		munmap((unsigned char *)a + r->len, FCS_HUGE_PAGE - head);
	r->base = (unsigned char *)a;
	r->backing = madvise(r->base, r->len, MADV_HUGEPAGE) ? "4k" : "thp";
	touch_all(r->base, r->len);
	return 0;
}

int fcs_map(struct fcs_region *r, uint32_t pages, enum fcs_mem mem, char *err, size_t len)
{
	int e = 0;

	memset(r, 0, sizeof(*r));
	r->advice = 0;
	if (!pages)
		return 0;
	r->pages = pages;
	r->len = (size_t)pages * FCS_PAGE;
	r->backing = "4k";
	if (mem == FCS_HUGE)
		return map_huge(r, err, len);
	if (mem == FCS_PRIVATE) {
		void *p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		e = errno;
		r->base = p == MAP_FAILED ? NULL : p;
		/* 4 KiB faults even where THP is "always": one huge fault
		 * would stand for many. */
		if (r->base)
			madvise(r->base, r->len, MADV_NOHUGEPAGE);
	} else {
		r->base = map_memfd(r->len, 0, 0, &e);
	}
	if (!r->base) {
		snprintf(err, len, "fault_mem %s: mapping %u pages: %s", fcs_mem_names[mem], pages,
			 strerror(e));
		return -e;
	}
	r->advice = mem == FCS_SHARED_REMOVE ? MADV_REMOVE : MADV_DONTNEED;
	touch_all(r->base, r->len);
	return 0;
}

void fcs_unmap(struct fcs_region *r)
{
	if (r->base)
		munmap(r->base, r->len);
	r->base = NULL;
}

void fcs_refresh(unsigned char *base, size_t len, int advice)
{
	/* Checked once, by the test that counts the faults: a failing
	 * madvise shows as no faults per op. */
	madvise(base, len, advice);
}

json_t *fcs_json(const struct fcs_region *r, enum fcs_mem mem)
{
	json_t *o = json_pack("{s:s,s:i,s:s,s:s}", fld_key(fld_r_fmem_mem), fcs_mem_names[mem],
			      fld_key(fld_r_fmem_pages), (int)r->pages, fld_key(fld_r_fmem_backing),
			      r->backing ? r->backing : "none", fld_key(fld_r_fmem_advice),
			      advice_name(r->advice));

	if (r->reason[0])
		res_set(o, fld_r_fmem_reason, json_string(r->reason));
	return o;
}
