/* slice.h - rseq registration and the time-slice extension (Linux >= 7.0). */
#ifndef SB_SLICE_H
#define SB_SLICE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "slicewhy.h"

#ifndef PR_RSEQ_SLICE_EXTENSION
#define PR_RSEQ_SLICE_EXTENSION 79
#define PR_RSEQ_SLICE_EXTENSION_GET 1
#define PR_RSEQ_SLICE_EXTENSION_SET 2
#define PR_RSEQ_SLICE_EXT_ENABLE 0x01
#endif
#ifndef __NR_rseq_slice_yield
#define __NR_rseq_slice_yield 471
#endif
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE 27
#define AT_RSEQ_ALIGN 28
#endif
#define SLICE_FEATURE_SIZE 33 /* offsetof(struct rseq, slice_ctrl) + 1 */
#define RSEQ_FLAG_SLICE_EXT_AVAILABLE (1u << 4)
#define RSEQ_FLAG_SLICE_EXT_ENABLED (1u << 5)

/* The uapi struct rseq of Linux 7.x; glibc 2.36 headers predate it. */
struct sb_rseq {
	uint32_t cpu_id_start;
	uint32_t cpu_id;
	uint64_t rseq_cs;
	uint32_t flags;
	uint32_t node_id;
	uint32_t mm_cid;
	/* request is set by us, cleared by us or the kernel; granted is the
	 * kernel's alone: writing it gets the task killed with SIGSEGV. */
	_Atomic uint8_t request;
	_Atomic uint8_t granted;
	uint16_t reserved;
} __attribute__((aligned(32)));

struct slice_thread {
	struct sb_rseq *rs;
	void *own_area; /* non-NULL when we registered it ourselves */
};

/* Re-executes the program with glibc's rseq registration off when the
 * kernel offers the extension but glibc registered a legacy 32-byte area
 * (which keeps the kernel in legacy mode).  Call first thing in main().
 * SLICEBENCH_NO_REEXEC set in the environment keeps glibc's area. */
void slice_reexec_if_needed(char **argv);
/* How rseq is registered in this process, for the result's meta. */
const char *slice_registration_mode(void);
/* Whether the extension can work here; on failure *reason says exactly why. */
int slice_probe(char *reason, size_t len);
/* The same, with the cause for `slicebench info`'s list of what is missing. */
int slice_probe_cause(char *reason, size_t len, enum slice_cause *cause);
/* Registers (or adopts glibc's) rseq area and enables the extension for
 * the calling thread.  0, or -errno with the reason filled in. */
int slice_thread_init(struct slice_thread *st, char *reason, size_t len);
void slice_thread_fini(struct slice_thread *st);

/* The request/clear pair of Documentation/userspace-api/rseq.rst.  Only this
 * CPU's kernel entry reads the fields, so relaxed stores plus signal fences
 * (compiler barriers) are the whole ordering needed. */
static inline void slice_request(struct sb_rseq *rs)
{
	atomic_store_explicit(&rs->request, 1, memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
}

/* Returns 1 when a grant was in force at the end of the section (the
 * caller then yields), 0 otherwise. */
static inline int slice_clear(struct sb_rseq *rs)
{
	atomic_signal_fence(memory_order_seq_cst);
	atomic_store_explicit(&rs->request, 0, memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
	return atomic_load_explicit(&rs->granted, memory_order_relaxed);
}

long slice_yield(void);

#endif
