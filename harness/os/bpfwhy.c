/* bpfwhy.c - the cause behind a BPF tracepoint program that cannot run.
 *
 * What each answer means, read in Linux 7.3 (kernel/bpf/syscall.c,
 * kernel/events/core.c, include/linux/bpf_types.h) and libbpf 1.1:
 * - No bpf() at all (CONFIG_BPF_SYSCALL off): ENOSYS.  A seccomp filter
 *   can answer ENOSYS too (runc does for syscalls its profile lacks) or
 *   EPERM (Docker's default profile denies bpf without CAP_SYS_ADMIN).
 * - bpf_prog_load() and map_create() refuse EPERM without CAP_BPF when
 *   kernel.unprivileged_bpf_disabled is set; a tracepoint program is a
 *   perfmon type, which needs CAP_PERFMON as well, whatever the sysctl.
 * - Without CONFIG_BPF_EVENTS the tracepoint program type does not exist:
 *   the load fails with EINVAL.  Without CONFIG_EVENT_TRACING
 *   perf_event_set_bpf_prog() is a stub returning ENOENT.
 * - libbpf reads the tracepoint's id from tracefs (events/sched/
 *   sched_switch/id under /sys/kernel/tracing, else debugfs): ENOENT when
 *   no tracefs is mounted or the kernel has no such event.  perf_event_open
 *   of a tracepoint wants CAP_PERFMON when perf_event_paranoid > -1:
 *   EACCES.
 * - BPF_F_MMAPABLE arrays came in Linux 5.5: EINVAL from the map creation
 *   before, and from mmap where the map is not mmapable. */
#define _GNU_SOURCE
#include "bpfwhy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "slicewhy.h"

/* linux/capability.h numbers; CAP_PERFMON and CAP_BPF came in 5.8. */
#define CAPN_SYS_ADMIN 21
#define CAPN_PERFMON 38
#define CAPN_BPF 39

static const char *rel(const struct bpf_facts *f)
{
	return f->release ? f->release : "(unknown release)";
}

static const char *ename(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOSYS: return "ENOSYS";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	default: return strerror(err);
	}
}

static int why_load(const struct bpf_facts *f, char *r, size_t len)
{
	int admin = f->cap_sys_admin, bpf = f->cap_bpf || admin, perf = f->cap_perfmon || admin;

	if (f->err == ENOSYS && f->seccomp == 2)
		snprintf(r, len, "bpf() failed with ENOSYS under a seccomp filter (Seccomp: 2): "
			 "the filter denied it (container runtimes answer ENOSYS)");
	else if (f->err == ENOSYS)
		snprintf(r, len, "bpf() failed with ENOSYS: kernel %s is built without "
			 "CONFIG_BPF_SYSCALL", rel(f));
	else if ((f->err == EPERM || f->err == EACCES) && bpf && perf && f->seccomp == 2)
		snprintf(r, len, "bpf() failed with %s although the process has CAP_BPF and "
			 "CAP_PERFMON: a seccomp filter (Seccomp: 2) denied it", ename(f->err));
	else if ((f->err == EPERM || f->err == EACCES) && (!bpf || !perf))
		snprintf(r, len, "bpf() failed with %s: loading a tracepoint program needs "
			 "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN), the process has %s%s%s",
			 ename(f->err), bpf ? "CAP_BPF" : perf ? "CAP_PERFMON" : "neither",
			 f->unpriv_disabled > 0 ? "; kernel.unprivileged_bpf_disabled=" : "",
			 f->unpriv_disabled > 0 ? (f->unpriv_disabled == 1 ? "1" : "2") : "");
	else if (f->err == EPERM || f->err == EACCES)
		snprintf(r, len, "bpf() failed with %s although the process has CAP_BPF and "
			 "CAP_PERFMON: kernel lockdown or a security module refused it",
			 ename(f->err));
	else if (f->err == EINVAL)
		snprintf(r, len, "bpf() failed with EINVAL: kernel %s has no tracepoint programs "
			 "(CONFIG_BPF_EVENTS) or no mmapable arrays (Linux < 5.5)%s%s", rel(f),
			 f->detail ? ": " : "", f->detail ? f->detail : "");
	else
		snprintf(r, len, "bpf() failed with %s%s%s", ename(f->err),
			 f->detail ? ": " : "", f->detail ? f->detail : "");
	return -f->err;
}

static int why_attach(const struct bpf_facts *f, char *r, size_t len)
{
	if (f->err == ENOENT && !f->tracefs)
		snprintf(r, len, "attaching to sched:sched_switch failed with ENOENT: no tracefs "
			 "is mounted to read the event's id from (mount -t tracefs nodev "
			 "/sys/kernel/tracing)");
	else if (f->err == ENOENT)
		snprintf(r, len, "attaching to sched:sched_switch failed with ENOENT: kernel %s "
			 "has no such tracepoint or no CONFIG_EVENT_TRACING", rel(f));
	else if ((f->err == EACCES || f->err == EPERM) && !f->cap_perfmon && !f->cap_sys_admin)
		snprintf(r, len, "perf_event_open of sched:sched_switch failed with %s: "
			 "kernel.perf_event_paranoid=%d and the process lacks CAP_PERFMON",
			 ename(f->err), f->paranoid);
	else
		snprintf(r, len, "attaching to sched:sched_switch failed with %s%s", ename(f->err),
			 f->seccomp == 2 ? " under a seccomp filter (Seccomp: 2)" : "");
	return -f->err;
}

int bpf_why(const struct bpf_facts *f, char *reason, size_t len)
{
	if (len)
		reason[0] = 0;
	switch (f->step) {
	case BS_OK:
		return 0;
	case BS_BUILD:
		snprintf(reason, len, "built without the BPF object (no clang -target bpf or "
			 "libbpf-dev at build time)");
		return -ENOENT;
	case BS_OPEN:
		snprintf(reason, len, "libbpf could not open the embedded BPF object: %s",
			 ename(f->err));
		return -f->err;
	case BS_LOAD:
		return why_load(f, reason, len);
	case BS_MMAP:
		snprintf(reason, len, "mmap of a BPF_F_MMAPABLE array failed with %s (kernel %s; "
			 "needs Linux 5.5)", ename(f->err), rel(f));
		return -f->err;
	case BS_FORMAT:
		snprintf(reason, len, "sched:sched_switch of kernel %s has another record layout "
			 "than the program reads: %s", rel(f), f->detail ? f->detail : "?");
		return -EINVAL;
	case BS_ATTACH:
		return why_attach(f, reason, len);
	}
	return -EINVAL;
}

static int read_int(const char *path, int dflt)
{
	FILE *fp = fopen(path, "r");
	int v = dflt;

	if (fp) {
		if (fscanf(fp, "%d", &v) != 1)
			v = dflt;
		fclose(fp);
	}
	return v;
}

static unsigned long long cap_eff(void)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long v = 0;

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(fp);
	return v;
}

void bpf_facts_read(struct bpf_facts *f)
{
	static struct utsname u;
	unsigned long long caps = cap_eff();

	if (!uname(&u))
		f->release = u.release;
	f->seccomp = slice_seccomp_mode();
	f->unpriv_disabled = read_int("/proc/sys/kernel/unprivileged_bpf_disabled", -1);
	f->paranoid = read_int("/proc/sys/kernel/perf_event_paranoid", -99);
	f->cap_sys_admin = !!(caps & (1ull << CAPN_SYS_ADMIN));
	f->cap_perfmon = !!(caps & (1ull << CAPN_PERFMON));
	f->cap_bpf = !!(caps & (1ull << CAPN_BPF));
	f->tracefs = !access("/sys/kernel/tracing/events", F_OK) ||
		     !access("/sys/kernel/debug/tracing/events", F_OK);
}
