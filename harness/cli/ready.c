/* ready.c - what a bare-metal run still lacks here, and the command that
 * fixes each: the list `slicebench info` ends with. */
#define _GNU_SOURCE
#include "ready.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../os/counters.h"
#include "../os/slice.h"
#include "../os/sysinfo.h"

#define NEED_ROOT "run as root: sudo ./run.sh"
#define STATS_KERNEL                                                                       \
	"boot a kernel with CONFIG_RSEQ_STATS=y (needs CONFIG_EXPERT and CONFIG_DEBUG_FS; "  \
	"kernel/configs/guest.config has it)"

static json_t *lack(const char *reason, const char *fix)
{
	return json_pack("{s:b,s:s,s:s}", "ok", 0, "reason", reason, "fix", fix);
}

static json_t *have(const char *what)
{
	return json_pack("{s:b,s:s}", "ok", 1, "have", what);
}

static json_t *slice_item(void)
{
	char reason[320];
	enum slice_cause cause;

	if (!slice_probe_cause(reason, sizeof(reason), &cause))
		return have("prctl(PR_RSEQ_SLICE_EXTENSION) and rseq_slice_yield answer");
	return lack(reason, slice_fix(cause));
}

static json_t *stats_item(void)
{
	struct rseq_stats s;

	rseq_stats_read(&s);
	if (s.ok)
		return have("debugfs rseq/stats with the slice counters");
	if (strstr(s.reason, sysinfo_why_not_root))
		return lack(s.reason, NEED_ROOT);
	if (strstr(s.reason, sysinfo_why_no_debugfs))
		return lack(s.reason, "boot a kernel with CONFIG_DEBUG_FS=y and without debugfs=off");
	if (strstr(s.reason, "no slice counters"))
		return lack(s.reason, slice_fix(SC_COMPILED_OUT));
	return lack(s.reason, STATS_KERNEL);
}

/* tracefs with the rseq_slice_* tracepoints of kernel/patches/0001. */
static json_t *trace_item(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[256], reason[256];
	struct stat st;
	int denied = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (stat(path, &st)) {
			denied |= errno == EACCES;
			continue;
		}
		snprintf(path, sizeof(path), "%s/events/rseq/rseq_slice_grant", dirs[i]);
		if (!stat(path, &st))
			return have(path);
		snprintf(reason, sizeof(reason),
			 "%s/events has no rseq/rseq_slice_grant: the kernel lacks the suite's "
			 "slice tracepoints",
			 dirs[i]);
		return lack(reason, "boot a kernel with kernel/patches/ applied (kernel/build.sh "
				    "applies them), or use the guest: ./run.sh --vm");
	}
	if (denied || geteuid())
		return lack("tracefs is root's only, and this is not root", NEED_ROOT);
	return lack("tracefs is not mounted", "mount -t tracefs nodev /sys/kernel/tracing");
}

/* One hardware event, as a profile of the lock loop would open it. */
static json_t *pmu_item(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				     .config = PERF_COUNT_HW_CPU_CYCLES, .disabled = 1,
				     .exclude_kernel = 1 };
	long fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	char reason[160];

	if (fd >= 0) {
		close((int)fd);
		return have("perf_event_open(cycles)");
	}
	int err = errno;

	snprintf(reason, sizeof(reason), "perf_event_open(cycles): %s", strerror(err));
	if (err == EACCES || err == EPERM)
		return lack(reason, "sysctl kernel.perf_event_paranoid=2, or run as root");
	strncat(reason, " (no hardware PMU: a VM without a virtual one?)",
		sizeof(reason) - strlen(reason) - 1);
	return lack(reason, "run on bare metal, or in a KVM guest with a virtual PMU "
			    "(qemu -enable-kvm -cpu host)");
}

static json_t *root_item(void)
{
	if (!geteuid())
		return have("euid 0");
	return lack("not root: slice_ext_nsec, debugfs rseq/stats and tracefs need it",
		    NEED_ROOT);
}

json_t *ready_json(void)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "slice_extension", slice_item(), "rseq_stats",
			 stats_item(), "tracefs", trace_item(), "pmu", pmu_item(), "root",
			 root_item());
}

int ready_print_lacks(FILE *f, const json_t *ready)
{
	const char *k;
	json_t *v;
	int n = 0;

	json_object_foreach((json_t *)ready, k, v) {
		if (json_is_true(json_object_get(v, "ok")))
			continue;
		fprintf(f, "  %-16s %s\n  %-16s fix: %s\n", k,
			json_string_value(json_object_get(v, "reason")), "",
			json_string_value(json_object_get(v, "fix")));
		n++;
	}
	if (!n)
		fprintf(f, "  nothing: this machine has all a bare-metal run uses\n");
	return n;
}
