/* slice.c - per-thread rseq areas in "optimized" mode and the prctl switch. */
#define _GNU_SOURCE
#include "slice.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef ENOTSUPP
#define ENOTSUPP 524 /* kernel-internal, but it is what the prctl returns */
#endif
#define RSEQ_SIG 0x53053053 /* the selftests' x86 signature */
#define TUNABLE "glibc.pthread.rseq=0"

/* glibc >= 2.35 exports these; weak so a libc without them still links. */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

static unsigned long feature_size(void)
{
	return getauxval(AT_RSEQ_FEATURE_SIZE);
}

/* The kernel wants the area aligned to AT_RSEQ_ALIGN (at least the 32 of
 * the original ABI) and at least AT_RSEQ_FEATURE_SIZE long. */
static unsigned long area_align(void)
{
	unsigned long align = getauxval(AT_RSEQ_ALIGN);

	return align < 32 ? 32 : align;
}

static unsigned long area_size(void)
{
	return (feature_size() + area_align() - 1) & ~(area_align() - 1);
}

static unsigned glibc_rseq_size(void)
{
	return &__rseq_size ? __rseq_size : 0;
}

void slice_reexec_if_needed(char **argv)
{
	const char *old = getenv("GLIBC_TUNABLES");
	unsigned gsize = glibc_rseq_size();

	if (feature_size() < SLICE_FEATURE_SIZE || !gsize || gsize >= feature_size())
		return;
	if (old && strstr(old, TUNABLE))
		return; /* already re-executed: never loop */
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%s%s", old ? old : "", old ? ":" : "", TUNABLE);
	setenv("GLIBC_TUNABLES", buf, 1);
	execv("/proc/self/exe", argv);
	/* If exec fails we stay in legacy mode; slice_probe() will say so. */
}

const char *slice_registration_mode(void)
{
	unsigned gsize = glibc_rseq_size();

	if (!gsize)
		return "own (glibc registration off or absent)";
	if (gsize >= SLICE_FEATURE_SIZE)
		return "glibc";
	return "glibc legacy 32-byte area";
}

static int cmdline_has(const char *word)
{
	char buf[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, word) != NULL;
}

static int explain(int err, char *reason, size_t len)
{
	switch (err) {
	case EINVAL:
		snprintf(reason, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with EINVAL: kernel built "
			 "without CONFIG_RSEQ_SLICE_EXTENSION (needs Linux >= 7.0)");
		break;
	case ENOTSUPP:
		/* The prctl exists in every 7.x kernel, so ENOTSUPP means the
		 * feature is off: compiled out, or switched off at boot. */
		if (cmdline_has("rseq_slice_ext="))
			snprintf(reason, len,
				 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENOTSUPP: slice "
				 "extension disabled on the kernel command line (rseq_slice_ext=)");
		else
			snprintf(reason, len,
				 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENOTSUPP: kernel "
				 "built without CONFIG_RSEQ_SLICE_EXTENSION (no rseq_slice_ext= on "
				 "its command line)");
		break;
	case ENXIO:
		snprintf(reason, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENXIO: no rseq area "
			 "registered for the thread");
		break;
	default:
		snprintf(reason, len, "prctl(PR_RSEQ_SLICE_EXTENSION) failed: %s",
			 strerror(err));
	}
	return -err;
}

int slice_probe(char *reason, size_t len)
{
	/* GET needs no registration: EINVAL here means the kernel lacks it. */
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0) < 0)
		return explain(errno, reason, len);
	if (feature_size() < SLICE_FEATURE_SIZE) {
		snprintf(reason, len,
			 "AT_RSEQ_FEATURE_SIZE is %lu, below the %d bytes that include "
			 "slice_ctrl",
			 feature_size(), SLICE_FEATURE_SIZE);
		return -ENOSYS;
	}
	unsigned gsize = glibc_rseq_size();

	if (gsize && gsize < feature_size()) {
		snprintf(reason, len,
			 "glibc registered a %u-byte rseq area (legacy mode) and the "
			 "re-exec with GLIBC_TUNABLES=" TUNABLE " did not take effect",
			 gsize);
		return -EBUSY;
	}
	return 0;
}

int slice_thread_init(struct slice_thread *st, char *reason, size_t len)
{
	memset(st, 0, sizeof(*st));
	int rc = slice_probe(reason, len);

	if (rc)
		return rc;
	if (glibc_rseq_size()) {
		st->rs = (struct sb_rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
	} else {
		unsigned long align = area_align(), size = area_size();

		if (posix_memalign(&st->own_area, align, size)) {
			snprintf(reason, len, "out of memory for the rseq area");
			return -ENOMEM;
		}
		memset(st->own_area, 0, size);
		if (syscall(__NR_rseq, st->own_area, (unsigned)size, 0, RSEQ_SIG)) {
			int err = errno;

			snprintf(reason, len, "rseq(2) registration of %lu bytes failed: %s",
				 size, strerror(err));
			free(st->own_area);
			st->own_area = NULL;
			return -err;
		}
		st->rs = st->own_area;
	}
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
		  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0)) {
		rc = explain(errno, reason, len);
		slice_thread_fini(st);
		return rc;
	}
	if (!(st->rs->flags & RSEQ_FLAG_SLICE_EXT_ENABLED)) {
		snprintf(reason, len, "prctl succeeded but rseq flags 0x%x lack "
			 "SLICE_EXT_ENABLED", st->rs->flags);
		slice_thread_fini(st);
		return -EIO;
	}
	return 0;
}

void slice_thread_fini(struct slice_thread *st)
{
	if (st->own_area) {
		syscall(__NR_rseq, st->own_area, (unsigned)area_size(), 1 /* UNREGISTER */,
			RSEQ_SIG);
		free(st->own_area);
	}
	memset(st, 0, sizeof(*st));
}

long slice_yield(void)
{
	return syscall(__NR_rseq_slice_yield);
}
