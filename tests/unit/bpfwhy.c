/* bpfwhy.c - the reasons for a BPF program that cannot watch the
 * scheduler: every cause injected into the decision (this machine can
 * produce only some of them), each reason checked for its key words and
 * for fitting the 256-byte buffer a run's reason travels in. */
#include <errno.h>
#include <string.h>

#include "../../harness/os/bpfwhy.h"
#include "tap.h"

/* Root on a 7.3 kernel with tracefs: every test changes some answers. */
static struct bpf_facts root(enum bpf_step step, int err)
{
	return (struct bpf_facts){ .release = "7.3.4", .step = step, .err = err,
				   .unpriv_disabled = 2, .paranoid = 2, .cap_bpf = 1,
				   .cap_perfmon = 1, .cap_sys_admin = 1, .tracefs = 1 };
}

static void expect(const char *name, const struct bpf_facts *f, int want_rc, const char *a,
		   const char *b)
{
	char reason[256];
	int rc = bpf_why(f, reason, sizeof(reason));

	CHECK(rc == want_rc && strstr(reason, a) && (!b || strstr(reason, b)) &&
		      strlen(reason) < sizeof(reason) - 1,
	      "bpfwhy: %s: \"%s\"", name, reason);
}

int main(void)
{
	struct bpf_facts f = root(BS_OK, 0);

	expect("nothing failed", &f, 0, "", NULL);
	f = root(BS_LOAD, ENOSYS);
	expect("no bpf() syscall", &f, -ENOSYS, "CONFIG_BPF_SYSCALL", "7.3.4");
	f.seccomp = 2;
	expect("bpf() denied by seccomp with ENOSYS", &f, -ENOSYS, "seccomp filter", NULL);
	f = root(BS_LOAD, EPERM);
	f.cap_bpf = f.cap_perfmon = f.cap_sys_admin = 0;
	expect("unprivileged, sysctl 2", &f, -EPERM, "needs CAP_BPF and CAP_PERFMON",
	       "unprivileged_bpf_disabled=2");
	f.cap_bpf = 1;
	f.unpriv_disabled = 0;
	expect("CAP_BPF without CAP_PERFMON", &f, -EPERM, "the process has CAP_BPF", NULL);
	f = root(BS_LOAD, EPERM);
	f.seccomp = 2;
	expect("root under Docker's default seccomp profile", &f, -EPERM, "seccomp filter", NULL);
	f.seccomp = 0;
	expect("root refused: lockdown", &f, -EPERM, "lockdown", NULL);
	f = root(BS_LOAD, EINVAL);
	f.detail = "unknown prog type 5";
	expect("no tracepoint programs", &f, -EINVAL, "CONFIG_BPF_EVENTS", "unknown prog type");
	f = root(BS_ATTACH, ENOENT);
	f.tracefs = 0;
	expect("no tracefs", &f, -ENOENT, "mount -t tracefs", NULL);
	f.tracefs = 1;
	expect("no sched_switch tracepoint", &f, -ENOENT, "no such tracepoint", NULL);
	f = root(BS_ATTACH, EACCES);
	f.cap_perfmon = f.cap_sys_admin = 0;
	expect("perf_event_open refused", &f, -EACCES, "perf_event_paranoid=2", "CAP_PERFMON");
	f = root(BS_FORMAT, 0);
	f.detail = "prev_pid at offset 28 size 4, the program reads offset 24 size 4";
	expect("another record layout", &f, -EINVAL, "record layout", "offset 28");
	f = root(BS_MMAP, EINVAL);
	expect("no mmapable arrays", &f, -EINVAL, "BPF_F_MMAPABLE", "5.5");
	f = root(BS_BUILD, 0);
	expect("built without the object", &f, -ENOENT, "built without the BPF object", NULL);
	return tap_failed ? 1 : 0;
}
