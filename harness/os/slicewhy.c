/* slicewhy.c - the cause behind a missing time-slice extension.
 *
 * Which errno means what, read in Linux 7.3 (kernel/rseq.c,
 * include/linux/rseq.h, kernel/sys.c):
 * - A kernel older than 7.0 does not know prctl option 79: EINVAL.
 * - Built without CONFIG_RSEQ_SLICE_EXTENSION, the prctl is a stub that
 *   returns ENOTSUPP (524) for GET and SET alike.  Built with it, GET never
 *   fails (it reports the thread's state), so ENOTSUPP from GET always
 *   means "compiled out".
 * - SET checks, in this order: the static key rseq_slice_ext= switches off
 *   (ENOTSUPP), a registered area (ENXIO), an optimized-V2 registration
 *   larger than the original 32 bytes (ENOTSUPP).  The V2 check came with
 *   "rseq: Cure refactoring regressions" (Linux 7.1, backported to
 *   7.0.10): glibc 2.35-2.40 register 32 bytes, so their threads get
 *   ENOTSUPP although the extension is there.
 * - With rseq_slice_ext=0 the kernel no longer sets SLICE_EXT_AVAILABLE in
 *   the flags of a new registration (tip 010b7723c0a3): a V2 area without
 *   that flag is the boot switch's trace.
 * - rseq_slice_yield (471) returns 0 or 1 and nothing else; a kernel
 *   without it answers ENOSYS.  EPERM can only come from a seccomp filter
 *   (Docker's default profile denies syscalls it does not list with EPERM;
 *   runc answers ENOSYS for syscalls newer than the profile it was given),
 *   and a filter may also kill the caller (systemd's SystemCallFilter=
 *   does, unless SystemCallErrorNumber= is set).
 */
#define _GNU_SOURCE
#include "slicewhy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "slice.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524 /* kernel-internal, but it is what the prctl returns */
#endif

static const char *errname(int err)
{
	switch (err) {
	case EINVAL: return "EINVAL";
	case ENOTSUPP: return "ENOTSUPP (524)";
	case ENXIO: return "ENXIO";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOSYS: return "ENOSYS";
	default: return strerror(err);
	}
}

static const char *rel(const struct slice_facts *f)
{
	return f->release ? f->release : "(unknown release)";
}

/* Appended to another cause: the filter would deny the extension too. */
static void seccomp_note(const struct slice_facts *f, char *reason, size_t len)
{
	size_t n = strlen(reason);

	if (f->yield_err == EPERM && n < len)
		snprintf(reason + n, len - n,
			 "; a seccomp filter (Seccomp: %d) also denies rseq_slice_yield "
			 "(syscall 471) with EPERM",
			 f->seccomp);
	else if (f->yield_sig && n < len)
		snprintf(reason + n, len - n,
			 "; a seccomp filter (Seccomp: %d) also kills callers of "
			 "rseq_slice_yield (471) with signal %d",
			 f->seccomp, f->yield_sig);
}

static int why_get(const struct slice_facts *f, char *reason, size_t len, enum slice_cause *c)
{
	switch (f->get_err) {
	case EINVAL:
		*c = SC_OLD_KERNEL;
		snprintf(reason, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with EINVAL: kernel %s has no "
			 "such prctl (the extension came in Linux 7.0)",
			 rel(f));
		break;
	case ENOTSUPP:
		*c = SC_COMPILED_OUT;
		snprintf(reason, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENOTSUPP (524): kernel %s "
			 "is built without CONFIG_RSEQ_SLICE_EXTENSION",
			 rel(f));
		break;
	case EPERM:
	case EACCES:
	case ENOSYS:
		if (f->seccomp == 2) {
			*c = SC_DENIED;
			snprintf(reason, len,
				 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with %s: a seccomp filter "
				 "(Seccomp: 2 in /proc/self/status) denied it",
				 errname(f->get_err));
			return -f->get_err;
		}
		/* fall through */
	default:
		*c = SC_OTHER;
		snprintf(reason, len, "prctl(PR_RSEQ_SLICE_EXTENSION) failed with %s",
			 errname(f->get_err));
	}
	seccomp_note(f, reason, len);
	return -f->get_err;
}

static int why_yield(const struct slice_facts *f, char *reason, size_t len, enum slice_cause *c)
{
	*c = f->yield_err == EPERM || f->seccomp == 2 ? SC_DENIED : SC_OTHER;
	if (f->yield_sig) {
		snprintf(reason, len,
			 "rseq_slice_yield (syscall 471) killed its caller with signal %d (%s): a "
			 "seccomp filter (Seccomp: %d in /proc/self/status) forbids it",
			 f->yield_sig, strsignal(f->yield_sig), f->seccomp);
		return -EPERM;
	}
	if (f->yield_err == EPERM)
		snprintf(reason, len,
			 "rseq_slice_yield (syscall 471) failed with EPERM, which the kernel "
			 "never returns for it: a %s denied it (Seccomp: %d in /proc/self/status; "
			 "Docker's default profile does so)",
			 f->seccomp == 2 ? "seccomp filter" : "seccomp filter or security module",
			 f->seccomp);
	else if (f->seccomp == 2)
		snprintf(reason, len,
			 "rseq_slice_yield (syscall 471) failed with %s although kernel %s has "
			 "the extension's prctl: a seccomp filter (Seccomp: 2) denied it "
			 "(runtimes answer ENOSYS for syscalls newer than their profile)",
			 errname(f->yield_err), rel(f));
	else
		snprintf(reason, len,
			 "rseq_slice_yield (syscall 471) failed with %s although kernel %s has "
			 "the extension's prctl",
			 errname(f->yield_err), rel(f));
	return -f->yield_err;
}

static int why_legacy(const struct slice_facts *f, char *reason, size_t len)
{
	if (f->set_err == ENOTSUPP)
		snprintf(reason, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION_SET) failed with ENOTSUPP (524) although "
			 "the extension is there: the thread's rseq area is a %u-byte legacy "
			 "registration (glibc 2.35-2.40), refused since Linux 7.1 and 7.0.10; "
			 "run with GLIBC_TUNABLES=glibc.pthread.rseq=0",
			 f->reg_len);
	else
		snprintf(reason, len,
			 "glibc registered a %u-byte legacy rseq area, for which Linux >= 7.1 "
			 "and 7.0.10 refuse the extension (ENOTSUPP); run with "
			 "GLIBC_TUNABLES=glibc.pthread.rseq=0",
			 f->reg_len);
	return -ENOTSUPP;
}

static int why_boot(const struct slice_facts *f, char *reason, size_t len)
{
	if (f->boot_off)
		snprintf(reason, len,
			 "slice extension switched off at boot: rseq_slice_ext=%s on the kernel "
			 "command line (kernel %s has it built in)",
			 f->boot_off, rel(f));
	else
		snprintf(reason, len,
			 "slice extension switched off at boot in kernel %s (rseq_slice_ext=): "
			 "SLICE_EXT_AVAILABLE is not set in the flags (0x%x) of a %u-byte "
			 "optimized-V2 rseq registration",
			 rel(f), f->flags, f->reg_len);
	return -ENOTSUPP;
}

int slice_why(const struct slice_facts *f, char *reason, size_t len, enum slice_cause *cause)
{
	enum slice_cause c_local, *c = cause ? cause : &c_local;
	int v2 = f->reg_len > ORIG_RSEQ_SIZE;

	*c = SC_OK;
	if (len)
		reason[0] = 0;
	if (f->get_err > 0)
		return why_get(f, reason, len, c);
	if (f->yield_err > 0 || f->yield_sig)
		return why_yield(f, reason, len, c);
	if (f->feature_size < SLICE_FEATURE_SIZE) {
		*c = SC_FEATURE_SIZE;
		snprintf(reason, len,
			 "AT_RSEQ_FEATURE_SIZE is %lu, below the %d bytes that include "
			 "slice_ctrl (kernel %s)",
			 f->feature_size, SLICE_FEATURE_SIZE, rel(f));
		return -ENOSYS;
	}
	if (f->boot_off || (v2 && f->flags_known && !(f->flags & RSEQ_FLAG_SLICE_EXT_AVAILABLE)) ||
	    (v2 && f->set_err == ENOTSUPP)) {
		*c = SC_BOOT_DISABLED;
		return why_boot(f, reason, len);
	}
	if (f->reg_len && !v2 && f->set_err != 0) {
		*c = SC_LEGACY;
		return why_legacy(f, reason, len);
	}
	if (f->set_err == ENXIO) {
		*c = SC_NO_AREA;
		snprintf(reason, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION_SET) failed with ENXIO: no rseq area "
			 "registered for the thread");
		return -ENXIO;
	}
	if (f->set_err > 0) {
		*c = SC_OTHER;
		snprintf(reason, len, "prctl(PR_RSEQ_SLICE_EXTENSION_SET) failed with %s",
			 errname(f->set_err));
		return -f->set_err;
	}
	return 0;
}

const char *slice_fix(enum slice_cause cause)
{
	switch (cause) {
	case SC_OK: return NULL;
	case SC_OLD_KERNEL:
	case SC_COMPILED_OUT:
	case SC_FEATURE_SIZE:
		return "boot Linux 7.0 or later with CONFIG_RSEQ_SLICE_EXTENSION=y (the "
		       "options of kernel/configs/guest.config), or measure in the guest: "
		       "./run.sh --vm";
	case SC_DENIED:
		return "allow rseq_slice_yield in the seccomp profile: docker run "
		       "--security-opt seccomp=PROFILE.json (Docker's default profile plus "
		       "rseq_slice_yield)";
	case SC_BOOT_DISABLED:
		return "remove rseq_slice_ext= from the kernel command line (GRUB_CMDLINE_LINUX "
		       "in /etc/default/grub, then update-grub) and reboot";
	case SC_LEGACY:
		return "unset SLICEBENCH_NO_REEXEC, or run with "
		       "GLIBC_TUNABLES=glibc.pthread.rseq=0";
	case SC_NO_AREA:
	case SC_OTHER:
		break;
	}
	return "see the reason";
}

/* kstrtobool() of harness/lib/kstrtox.c: what rseq_slice_cmdline() parses. */
static int kstrtobool_off(const char *s)
{
	switch (s[0]) {
	case 'n': case 'N': case 'f': case 'F': case '0':
		return 1;
	case 'o': case 'O':
		return s[1] == 'f' || s[1] == 'F';
	default:
		return 0;
	}
}

const char *slice_boot_off(const char *cmdline, char *buf, size_t len)
{
	static const char key[] = "rseq_slice_ext=";
	const char *found = NULL;

	/* Every occurrence is parsed at boot and any "off" one disables the
	 * static key for good, so one is enough.  Nothing after "--" is a
	 * kernel parameter. */
	for (const char *p = cmdline; p && *p;) {
		p += strspn(p, " \t\n");
		size_t n = strcspn(p, " \t\n");

		if (n == 2 && !strncmp(p, "--", 2))
			break;
		if (n > sizeof(key) - 1 && !strncmp(p, key, sizeof(key) - 1) &&
		    kstrtobool_off(p + sizeof(key) - 1) && !found) {
			found = p + sizeof(key) - 1;
			snprintf(buf, len, "%.*s", (int)(n - (sizeof(key) - 1)), found);
		}
		p += n;
	}
	return found ? buf : NULL;
}

int slice_seccomp_mode(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int mode = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode;
}
