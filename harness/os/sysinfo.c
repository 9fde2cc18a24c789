/* sysinfo.c - kernel release, config, preemption model, HZ, timers,
 * virtualization, the slice extension's availability and the toolchain. */
#define _GNU_SOURCE
#include "sysinfo.h"

#include <cpuid.h>
#include <dirent.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../lib/resset.h"
#include "slice.h"
#include "topo.h"


static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	ssize_t n = getdelim(&buf, &cap, '\0', f);

	fclose(f);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return buf;
}

static volatile int we_mounted; /* debugfs was mounted by us: undo it */

void sysinfo_cleanup(void)
{
	if (we_mounted && !umount2("/sys/kernel/debug", MNT_DETACH))
		we_mounted = 0;
}

const char *sysinfo_debugfs_dir(void)
{
	const char *d = getenv("SLICEBENCH_DEBUGFS");

	return d && *d ? d : "/sys/kernel/debug";
}

const char sysinfo_why_not_root[] = "debugfs is root's only, and this is not root";
const char sysinfo_why_no_debugfs[] =
	"kernel without debugfs (CONFIG_DEBUG_FS off, or debugfs=off at boot)";
const char sysinfo_why_absent[] = "not present in debugfs";

/* The file systems this kernel registered: debugfs is missing there when
 * CONFIG_DEBUG_FS is off or debugfs=off was given at boot (fs/debugfs/
 * inode.c: debugfs_init() then never registers it). */
static int kernel_has_fs(const char *name)
{
	FILE *f = fopen("/proc/filesystems", "r");
	char line[128], fs[64];
	int found = 0;

	if (!f)
		return 1; /* cannot tell: do not claim it is missing */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "nodev %63s", fs) == 1 && !strcmp(fs, name);
	fclose(f);
	return found;
}

/* Mounts debugfs on its usual place; NULL, or why it is not there. */
static const char *debugfs_mount(const char *dir)
{
	if (!kernel_has_fs("debugfs"))
		return sysinfo_why_no_debugfs;
	if (geteuid())
		return "debugfs not mounted, and mounting it needs root";
	if (!mount("debugfs", dir, "debugfs", 0, NULL)) {
		we_mounted = 1;
		return NULL;
	}
	switch (errno) {
	case EBUSY: return NULL; /* mounted meanwhile */
	case EPERM: return "mounting debugfs not permitted (no CAP_SYS_ADMIN: a container?)";
	case ENODEV:
	case ENOENT: return sysinfo_why_no_debugfs;
	default: return "debugfs cannot be mounted";
	}
}

static const char *read_why(int err)
{
	if (err == ENOENT)
		return sysinfo_why_absent;
	if (err == EACCES || (err == EPERM && geteuid()))
		return sysinfo_why_not_root;
	if (err == EPERM)
		return "debugfs read denied to root (kernel lockdown or a security module)";
	return "debugfs read failed";
}

char *sysinfo_debugfs_read(const char *rel, const char **why)
{
	char path[512];
	struct stat st;
	const char *dir = sysinfo_debugfs_dir();

	snprintf(path, sizeof(path), "%s/sched", dir);
	if (stat(path, &st)) {
		/* Mounted with its default mode 0700, a user may not look in. */
		if (errno == EACCES) {
			*why = sysinfo_why_not_root;
			return NULL;
		}
		snprintf(path, sizeof(path), "%s/rseq", dir);
		if (stat(path, &st) && !strcmp(dir, "/sys/kernel/debug") &&
		    (*why = debugfs_mount(dir)))
			return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	char *s = read_text(path);

	if (!s)
		*why = read_why(errno);
	return s;
}

/* The kernel config as text: /proc/config.gz, else /boot/config-R. */
static char *kconfig_text(const char **src)
{
	gzFile gz = gzopen("/proc/config.gz", "rb");

	if (gz) {
		size_t cap = 1 << 16, len = 0;
		char *buf = malloc(cap);
		int n;

		while (buf && (n = gzread(gz, buf + len, (unsigned)(cap - len - 1))) > 0) {
			len += (size_t)n;
			if (cap - len < 4096)
				buf = realloc(buf, cap *= 2);
		}
		gzclose(gz);
		if (buf) {
			buf[len] = 0;
			*src = "/proc/config.gz";
			return buf;
		}
	}
	struct utsname u;
	static char path[128 + sizeof(u.release)];

	uname(&u);
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	*src = path;
	return read_text(path);
}

static const char *kconfig_val(const char *cfg, const char *opt, char *buf, size_t len)
{
	char pat[96];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s=", opt);
	if (cfg && (p = strstr(cfg, pat))) {
		p += strlen(pat);
		size_t n = strcspn(p, "\n");

		snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
		return buf;
	}
	return NULL;
}

static json_t *kconfig_json(const char *cfg, const char *src)
{
	static const char *const opts[] = {
		"CONFIG_RSEQ",		 "CONFIG_RSEQ_SLICE_EXTENSION", "CONFIG_RSEQ_STATS",
		"CONFIG_PREEMPT_NONE",	 "CONFIG_PREEMPT_VOLUNTARY",	"CONFIG_PREEMPT",
		"CONFIG_PREEMPT_LAZY",	 "CONFIG_PREEMPT_RT",		"CONFIG_PREEMPT_DYNAMIC",
		"CONFIG_HZ",		 "CONFIG_NO_HZ_FULL",		"CONFIG_SCHED_DEBUG",
		"CONFIG_DEBUG_FS",
	};
	json_t *o = json_object();
	char buf[64];

	res_set(o, fld_m_kconfig_source, cfg ? json_string(src) : json_null());
	for (size_t i = 0; cfg && i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *v = kconfig_val(cfg, opts[i], buf, sizeof(buf));

		res_set_as(o, fld_m_kconfig_opt, opts[i] + 7,
			   v ? json_string(v) : json_string("not set"));
	}
	return o;
}

/* The kernel variant (kernel/build.sh --variant): slicebench.variant= on
 * the command line (scripts/vm.sh passes it); else a bare-metal build's
 * release, "-slicebench" for the default, "-slicebench-NAME" for another;
 * else null: not a kernel the suite built. */
static void variant_set(json_t *o, const char *cmdline, const char *release)
{
	const char *p = cmdline ? strstr(cmdline, "slicebench.variant=") : NULL;
	const char *r = strstr(release, "-slicebench");
	char v[32];

	if (p && (p == cmdline || p[-1] == ' ')) {
		p += strlen("slicebench.variant=");
		snprintf(v, sizeof(v), "%.*s", (int)strcspn(p, " \n"), p);
		res_set(o, fld_m_preempt_variant, json_string(v));
		res_set(o, fld_m_preempt_variant_source,
			json_string("slicebench.variant= on the kernel command line"));
	} else if (r) {
		r += strlen("-slicebench");
		res_set(o, fld_m_preempt_variant, json_string(*r == '-' ? r + 1 : "default"));
		res_set(o, fld_m_preempt_variant_source, json_string("the kernel release"));
	} else {
		res_set(o, fld_m_preempt_variant, json_null());
		res_set(o, fld_m_preempt_variant_source,
				    json_string("no slicebench.variant= on the command line, no -slicebench release"));
	}
}

/* Current model: debugfs sched/preempt marks it "(full)"; else preempt=
 * on the command line; else the config's default.  Beside it, the kernel
 * variant, which decides which models there are to choose from. */
static json_t *preempt_json(const char *cfg, const char *cmdline, const char *release)
{
	const char *why = NULL;
	char *dbg = sysinfo_debugfs_read("sched/preempt", &why), buf[16];
	char model[32] = "unknown", src[160] = "";

	if (dbg) {
		char *a = strchr(dbg, '('), *b = a ? strchr(a, ')') : NULL;

		if (a && b) {
			snprintf(model, sizeof(model), "%.*s", (int)(b - a - 1), a + 1);
			snprintf(src, sizeof(src), "debugfs sched/preempt: %s", dbg);
		}
	}
	const char *p = cmdline ? strstr(cmdline, "preempt=") : NULL;

	if (!*src && p && (p == cmdline || p[-1] == ' ')) {
		snprintf(model, sizeof(model), "%.*s", (int)strcspn(p + 8, " "), p + 8);
		snprintf(src, sizeof(src), "preempt= on the kernel command line (debugfs: %s)",
			 why ? why : "unreadable");
	}
	static const char *const m[][2] = { { "CONFIG_PREEMPT_RT", "rt" },
					     { "CONFIG_PREEMPT_NONE", "none" },
					     { "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
					     { "CONFIG_PREEMPT_LAZY", "lazy" },
					     { "CONFIG_PREEMPT", "full" } };

	for (size_t i = 0; !*src && i < sizeof(m) / sizeof(m[0]); i++) {
		const char *v = kconfig_val(cfg, m[i][0], buf, sizeof(buf));

		if (v && !strcmp(v, "y")) {
			snprintf(model, sizeof(model), "%s", m[i][1]);
			snprintf(src, sizeof(src), "%s=y, the build default (debugfs: %s)",
				 m[i][0], why ? why : "unreadable");
		}
	}
	free(dbg);
	json_t *o = json_pack("{s:s,s:s}", fld_key(fld_m_preempt_model), model, fld_key(fld_m_preempt_source),
			      *src ? src : "no debugfs, cmdline or kernel config");

	variant_set(o, cmdline, release);
	return o;
}

/* CPUID leaf 0x40000000 names the hypervisor; TCG says "TCGTCGTCGTCG". */
static json_t *virt_json(void)
{
	unsigned a, b, c, d;
	char vendor[13] = "";

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return json_pack("{s:b,s:s}", fld_key(fld_m_virt_hypervisor), 0,
				 fld_key(fld_m_virt_vendor), "none (bare metal)");
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	static const char *const names[][2] = { { "KVMKVMKVM", "kvm" },
						{ "TCGTCGTCGTCG", "tcg" },
						{ "Microsoft Hv", "hyperv" },
						{ "VMwareVMware", "vmware" },
						{ "XenVMMXenVMM", "xen" } };
	const char *kind = "other";

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(vendor, names[i][0], strlen(names[i][0])))
			kind = names[i][1];
	return json_pack("{s:b,s:s,s:s}", fld_key(fld_m_virt_hypervisor), 1,
			 fld_key(fld_m_virt_vendor), vendor, fld_key(fld_m_virt_kind), kind);
}

/* The timers a wakeup latency rests on.  Without a one-shot clock event
 * device (an x86 guest whose local APIC timer failed its boot-time check
 * against the PIT: "APIC timer disabled due to verification failure")
 * hrtimers stay in low-resolution mode and every sleep ends on a tick, up
 * to 1/HZ late: clock_getres(2) then says 1/HZ instead of 1 ns
 * (Documentation/timers/highres.rst). */
static json_t *timers_json(void)
{
	struct timespec r;
	json_t *o = json_object();
	char *dev = read_text("/sys/devices/system/clockevents/clockevent0/current_device");
	char *src = read_text("/sys/devices/system/clocksource/clocksource0/current_clocksource");

	if (!clock_getres(CLOCK_MONOTONIC, &r)) {
		long long ns = (long long)r.tv_sec * 1000000000LL + r.tv_nsec;

		res_set(o, fld_m_timers_res, json_integer(ns));
		res_set(o, fld_m_timers_hres, json_boolean(ns <= 1));
	}
	res_set(o, fld_m_timers_dev, dev ? json_string(dev) : json_null());
	res_set(o, fld_m_timers_src, src ? json_string(src) : json_null());
	free(dev);
	free(src);
	return o;
}

static json_t *slice_json(void)
{
	char reason[320] = "";
	int rc = slice_probe(reason, sizeof(reason));
	const char *why = NULL;
	char *nsec = sysinfo_debugfs_read("rseq/slice_ext_nsec", &why);
	json_t *o = json_pack("{s:b,s:s?,s:s,s:I}", fld_key(fld_m_slice_available), rc == 0,
			      fld_key(fld_m_slice_reason), rc ? reason : NULL,
			      fld_key(fld_m_slice_registration), slice_registration_mode(),
			      fld_key(fld_m_slice_feature),
			      (json_int_t)getauxval(AT_RSEQ_FEATURE_SIZE));

	if (nsec)
		res_set(o, fld_m_slice_nsec, json_integer(atoll(nsec)));
	else
		res_set(o, fld_m_slice_nsec_reason, json_string(why));
	free(nsec);
	return o;
}

/* Provenance when run as a Slurm job step (the plan runner's array tasks). */
/* The kernel's speculative-execution mitigations in force: what a system
 * call costs depends on them (retpolines, return thunks, IBPB...). */
static json_t *vuln_json(void)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	DIR *d = opendir(dir);
	json_t *o = json_object();
	struct dirent *e;

	if (!d)
		return json_pack("{s:s}", "unavailable", strerror(errno));
	while ((e = readdir(d))) {
		char path[512], *v;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if ((v = read_text(path))) {
			res_set_as(o, fld_m_vuln_one, e->d_name, json_string(v));
			free(v);
		}
	}
	closedir(d);
	return o;
}

static json_t *slurm_json(void)
{
	static const char *const vars[][2] = {
		{ "job_id", "SLURM_JOB_ID" },	      { "array_job_id", "SLURM_ARRAY_JOB_ID" },
		{ "array_task_id", "SLURM_ARRAY_TASK_ID" }, { "node", "SLURMD_NODENAME" },
		{ "partition", "SLURM_JOB_PARTITION" }, { "cluster", "SLURM_CLUSTER_NAME" },
	};
	json_t *o = json_object();

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i][1]);

		if (v)
			json_object_set_new(o, vars[i][0], json_string(v));
	}
	return o;
}

int sysinfo_hz(void)
{
	const char *src = NULL;
	char *cfg = kconfig_text(&src), hz[16];
	const char *h = kconfig_val(cfg, "CONFIG_HZ", hz, sizeof(hz));
	int v = h ? atoi(h) : 0;

	free(cfg);
	return v;
}

json_t *sysinfo_json(void)
{
	struct utsname u;
	const char *src = NULL;
	char *cfg = kconfig_text(&src), *cmdline = read_text("/proc/cmdline"), hz[16];
	json_t *o = json_object();

	uname(&u);
	res_set(o, fld_m_suite_version, json_string(SB_VERSION));
	res_set(o, fld_m_git_revision, json_string(SB_GIT_REV));
	res_set(o, fld_m_host, json_string(u.nodename));
	res_set(o, fld_m_kernel,
			    json_pack("{s:s,s:s,s:s}", fld_key(fld_m_kernel_release), u.release,
				      fld_key(fld_m_kernel_version), u.version, fld_key(fld_m_kernel_machine), u.machine));
	res_set(o, fld_m_cmdline, json_string(cmdline ? cmdline : ""));
	res_set(o, fld_m_kconfig, kconfig_json(cfg, src));
	res_set(o, fld_m_preemption, preempt_json(cfg, cmdline, u.release));
	const char *h = kconfig_val(cfg, "CONFIG_HZ", hz, sizeof(hz));

	res_set(o, fld_m_hz, h ? json_integer(atoi(h)) : json_null());
	res_set(o, fld_m_timers, timers_json());
	res_set(o, fld_m_slice, slice_json());
	res_set(o, fld_m_topology, topo_summary_json());
	res_set(o, fld_m_virt, virt_json());
	res_set(o, fld_m_vuln, vuln_json());
	res_set(o, fld_m_glibc, json_string(gnu_get_libc_version()));
	res_set(o, fld_m_compiler, json_string(__VERSION__));
	if (getenv("SLURM_JOB_ID"))
		res_set(o, fld_m_slurm, slurm_json());
	free(cfg);
	free(cmdline);
	return o;
}
