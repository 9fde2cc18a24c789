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
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* The length glibc registered, which is what the kernel judges: glibc's
 * __rseq_size counts only the fields in use (20 since glibc 2.40, and in
 * the 2.35-2.39 stable updates Debian ships: sourceware bug 31965), but
 * rseq(2) takes nothing shorter than the original 32 bytes (kernel/rseq.c,
 * ORIG_RSEQ_SIZE), so such a glibc registered 32. */
static unsigned glibc_rseq_len(void)
{
	unsigned s = glibc_rseq_size();

	return s && s < ORIG_RSEQ_SIZE ? ORIG_RSEQ_SIZE : s;
}

void slice_reexec_if_needed(char **argv)
{
	const char *old = getenv("GLIBC_TUNABLES");
	unsigned gsize = glibc_rseq_size();

	if (feature_size() < SLICE_FEATURE_SIZE || !gsize || gsize >= feature_size())
		return;
	if (old && strstr(old, TUNABLE))
		return; /* already re-executed: never loop */
	if (getenv("SLICEBENCH_NO_REEXEC"))
		return; /* keep glibc's area: how the legacy case is reproduced */
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

/* rseq_slice_yield's answer where a seccomp filter stands in front of it
 * (Seccomp: 2), asked once per process in a child: a filter may kill the
 * caller (SIGSYS) instead of failing the call.  Without a filter nothing
 * but the kernel answers, and the prctl has already said whether it has
 * the call.  Outside a grant the call only clears a stale "yielded" flag. */
static void probe_yield(struct slice_facts *f)
{
	static _Atomic int cached = -1; /* errno | signal << 8 */
	int c = atomic_load(&cached);

	if (f->seccomp != 2)
		return;
	if (c < 0) {
		pid_t pid = fork();
		int st;

		if (pid == 0)
			_exit(syscall(__NR_rseq_slice_yield) < 0 ? errno & 0xff : 0);
		c = 0; /* no child, no answer: assume nothing stands in the way */
		if (pid > 0 && waitpid(pid, &st, 0) == pid)
			c = WIFSIGNALED(st) ? WTERMSIG(st) << 8 : WEXITSTATUS(st);
		atomic_store(&cached, c);
	}
	f->yield_err = c & 0xff;
	f->yield_sig = c >> 8;
}

/* What the kernel answers about the extension before this thread registers
 * anything of its own: the prctl, the yield system call, the boot switch,
 * and glibc's registration when there is one. */
static void probe_facts(struct slice_facts *f, struct utsname *u, char *off, size_t offlen)
{
	char cmdline[4096] = "";
	FILE *fp = fopen("/proc/cmdline", "r");

	if (fp) {
		if (!fgets(cmdline, sizeof(cmdline), fp))
			cmdline[0] = 0;
		fclose(fp);
	}
	memset(f, 0, sizeof(*f));
	uname(u);
	f->release = u->release;
	f->set_err = -1;
	/* GET needs no registration and never fails where the extension is
	 * built in. */
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0) < 0)
		f->get_err = errno;
	f->seccomp = slice_seccomp_mode();
	probe_yield(f);
	f->feature_size = feature_size();
	f->boot_off = slice_boot_off(cmdline, off, offlen);
	f->reg_len = glibc_rseq_len();
	if (f->reg_len) {
		const struct sb_rseq *rs =
			(const struct sb_rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);

		f->flags_known = 1;
		f->flags = rs->flags;
	}
	/* A legacy glibc area (not re-executed): let the kernel say whether it
	 * accepts it, and leave the thread as it was. */
	if (!f->get_err && !f->yield_err && f->reg_len && f->reg_len <= 32 && !f->boot_off) {
		f->set_err = 0;
		if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
			  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0))
			f->set_err = errno;
		else if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET, 0, 0, 0))
			f->set_err = errno;
	}
}

int slice_probe_cause(char *reason, size_t len, enum slice_cause *cause)
{
	struct slice_facts f;
	struct utsname u;
	char off[64];

	probe_facts(&f, &u, off, sizeof(off));
	return slice_why(&f, reason, len, cause);
}

int slice_probe(char *reason, size_t len)
{
	return slice_probe_cause(reason, len, NULL);
}

/* The reason for a failed SET on the thread's own registration. */
static int explain_set(int err, const struct sb_rseq *rs, unsigned reg_len, char *reason,
		       size_t len)
{
	struct slice_facts f;
	struct utsname u;
	char off[64];

	probe_facts(&f, &u, off, sizeof(off));
	f.reg_len = reg_len;
	f.flags_known = 1;
	f.flags = rs->flags;
	f.set_err = err;
	int rc = slice_why(&f, reason, len, NULL);

	if (!rc) {
		snprintf(reason, len, "prctl(PR_RSEQ_SLICE_EXTENSION_SET) failed: %s",
			 strerror(err));
		rc = -err;
	}
	return rc;
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
		rc = explain_set(errno, st->rs, st->own_area ? (unsigned)area_size()
							     : glibc_rseq_len(),
				 reason, len);
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
