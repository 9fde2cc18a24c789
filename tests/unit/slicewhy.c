/* slicewhy.c - the reasons for a missing time-slice extension: every cause
 * injected into the decision, the boot switch parsed as the kernel parses
 * it, this kernel's own answer, and the probe and the harness under a
 * seccomp filter that denies rseq_slice_yield as Docker's default does. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../harness/os/slice.h"
#include "../../harness/os/slicewhy.h"
#include "tap.h"

#define ENOTSUPP 524

/* Facts of a 7.3 kernel that has the extension, seen from a thread that
 * registered its own 64-byte area: every test changes one answer. */
static struct slice_facts good(void)
{
	return (struct slice_facts){ .release = "7.3.4", .feature_size = 33, .reg_len = 64,
				     .flags_known = 1, .flags = RSEQ_FLAG_SLICE_EXT_AVAILABLE,
				     .set_err = 0 };
}

static void expect(const char *name, const struct slice_facts *f, int want_rc,
		   enum slice_cause want_cause, const char *want)
{
	char reason[600];
	enum slice_cause c;
	int rc = slice_why(f, reason, sizeof(reason), &c);

	CHECK(rc == want_rc && c == want_cause && !strcmp(reason, want), "slicewhy: %s", name);
	if (strcmp(reason, want))
		printf("#   got:  %s\n#   want: %s\n", reason, want);

	/* A run's reason travels in a 256-byte buffer (runner.c): it must fit
	 * with a 48-character release and the seccomp note. */
	struct slice_facts l = *f;

	l.release = "7.3.4-1~bpo13+1-cloud-amd64-local-suffix-48chars";
	size_t most = 0;

	for (int sig = 0; sig <= SIGSYS; sig += SIGSYS) {
		if (l.get_err) {
			l.yield_err = sig ? 0 : EPERM;
			l.yield_sig = sig;
		}
		slice_why(&l, reason, sizeof(reason), &c);
		most = strlen(reason) > most ? strlen(reason) : most;
	}
	CHECK(most < 256, "slicewhy: %s: reason fits 255 bytes (%zu)", name, most);
}

static void injected(void)
{
	struct slice_facts f = good();

	expect("extension usable", &f, 0, SC_OK, "");

	f = good();
	f.get_err = EINVAL;
	f.yield_err = ENOSYS;
	expect("kernel before 7.0 (EINVAL)", &f, -EINVAL, SC_OLD_KERNEL,
	       "prctl(PR_RSEQ_SLICE_EXTENSION) failed with EINVAL: kernel 7.3.4 has no such "
	       "prctl (the extension came in Linux 7.0)");

	f = good();
	f.get_err = ENOTSUPP;
	f.yield_err = ENOSYS;
	expect("compiled out (ENOTSUPP from GET)", &f, -ENOTSUPP, SC_COMPILED_OUT,
	       "prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENOTSUPP (524): kernel 7.3.4 is "
	       "built without CONFIG_RSEQ_SLICE_EXTENSION");

	f = good();
	f.yield_err = EPERM;
	f.seccomp = 2;
	expect("seccomp filter, EPERM", &f, -EPERM, SC_DENIED,
	       "rseq_slice_yield (syscall 471) failed with EPERM, which the kernel never "
	       "returns for it: a seccomp filter denied it (Seccomp: 2 in /proc/self/status; "
	       "Docker's default profile does so)");

	f = good();
	f.yield_err = ENOSYS;
	f.seccomp = 2;
	expect("seccomp filter, ENOSYS", &f, -ENOSYS, SC_DENIED,
	       "rseq_slice_yield (syscall 471) failed with ENOSYS although kernel 7.3.4 has "
	       "the extension's prctl: a seccomp filter (Seccomp: 2) denied it (runtimes "
	       "answer ENOSYS for syscalls newer than their profile)");

	f = good();
	f.yield_sig = SIGSYS;
	f.seccomp = 2;
	expect("seccomp filter that kills", &f, -EPERM, SC_DENIED,
	       "rseq_slice_yield (syscall 471) killed its caller with signal 31 (Bad system "
	       "call): a seccomp filter (Seccomp: 2 in /proc/self/status) forbids it");

	f = good();
	f.get_err = EPERM;
	f.seccomp = 2;
	expect("seccomp filter on the prctl", &f, -EPERM, SC_DENIED,
	       "prctl(PR_RSEQ_SLICE_EXTENSION) failed with EPERM: a seccomp filter "
	       "(Seccomp: 2 in /proc/self/status) denied it");

	f = good();
	f.boot_off = "0";
	f.flags = 0;
	expect("disabled at boot, seen on the command line", &f, -ENOTSUPP, SC_BOOT_DISABLED,
	       "slice extension switched off at boot: rseq_slice_ext=0 on the kernel command "
	       "line (kernel 7.3.4 has it built in)");

	f = good();
	f.flags = 0;
	f.set_err = ENOTSUPP;
	expect("disabled at boot, seen in the flags only", &f, -ENOTSUPP, SC_BOOT_DISABLED,
	       "slice extension switched off at boot in kernel 7.3.4 (rseq_slice_ext=): "
	       "SLICE_EXT_AVAILABLE is not set in the flags (0x0) of a 64-byte optimized-V2 "
	       "rseq registration");

	f = good();
	f.reg_len = 32;
	f.flags = 0;
	f.set_err = ENOTSUPP;
	expect("legacy 32-byte registration, ENOTSUPP from SET", &f, -ENOTSUPP, SC_LEGACY,
	       "prctl(PR_RSEQ_SLICE_EXTENSION_SET) failed with ENOTSUPP (524) although the "
	       "extension is there: the thread's rseq area is a 32-byte legacy registration "
	       "(glibc 2.35-2.40), refused since Linux 7.1 and 7.0.10; run with "
	       "GLIBC_TUNABLES=glibc.pthread.rseq=0");

	f.set_err = -1;
	expect("legacy 32-byte registration, SET not tried", &f, -ENOTSUPP, SC_LEGACY,
	       "glibc registered a 32-byte legacy rseq area, for which Linux >= 7.1 and 7.0.10 "
	       "refuse the extension (ENOTSUPP); run with GLIBC_TUNABLES=glibc.pthread.rseq=0");

	/* Before 7.0.10 a 32-byte area was enough: the kernel's yes wins. */
	f = good();
	f.reg_len = 32;
	f.set_err = 0;
	expect("legacy registration that the kernel accepts", &f, 0, SC_OK, "");

	f = good();
	f.reg_len = 0;
	f.flags_known = 0;
	f.set_err = ENXIO;
	expect("no registration (ENXIO)", &f, -ENXIO, SC_NO_AREA,
	       "prctl(PR_RSEQ_SLICE_EXTENSION_SET) failed with ENXIO: no rseq area registered "
	       "for the thread");

	f = good();
	f.feature_size = 28;
	expect("feature size below slice_ctrl", &f, -ENOSYS, SC_FEATURE_SIZE,
	       "AT_RSEQ_FEATURE_SIZE is 28, below the 33 bytes that include slice_ctrl "
	       "(kernel 7.3.4)");

	CHECK(slice_fix(SC_LEGACY) && strstr(slice_fix(SC_LEGACY), "glibc.pthread.rseq=0") &&
		      strstr(slice_fix(SC_DENIED), "seccomp") &&
		      strstr(slice_fix(SC_BOOT_DISABLED), "rseq_slice_ext=") &&
		      strstr(slice_fix(SC_COMPILED_OUT), "./run.sh --vm") && !slice_fix(SC_OK),
	      "slicewhy: every cause has its fix");
}

static void boot_switch(void)
{
	static const struct {
		const char *cmdline, *off;
	} cases[] = {
		{ "quiet rseq_slice_ext=0 console=ttyS0", "0" },
		{ "rseq_slice_ext=off", "off" },
		{ "rseq_slice_ext=N", "N" },
		{ "rseq_slice_ext=1", NULL },
		{ "rseq_slice_ext=on", NULL },
		{ "rseq_slice_ext=maybe", NULL }, /* kstrtobool refuses it: left on */
		{ "xrseq_slice_ext=0", NULL },
		{ "init=/bin/sh -- rseq_slice_ext=0", NULL },
		{ "", NULL },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = slice_boot_off(cases[i].cmdline, buf, sizeof(buf));

		CHECK(cases[i].off ? got && !strcmp(got, cases[i].off) : !got,
		      "slicewhy: boot switch in \"%s\" -> %s", cases[i].cmdline,
		      cases[i].off ? cases[i].off : "on");
	}
}

/* What this machine's kernel says, and the exact reason for it. */
static const char *expected_here(char *buf, size_t len)
{
	struct utsname u;

	uname(&u);
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0) >= 0)
		return NULL;
	if (errno == EINVAL)
		snprintf(buf, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with EINVAL: kernel %s has no "
			 "such prctl (the extension came in Linux 7.0)",
			 u.release);
	else if (errno == ENOTSUPP)
		snprintf(buf, len,
			 "prctl(PR_RSEQ_SLICE_EXTENSION) failed with ENOTSUPP (524): kernel %s "
			 "is built without CONFIG_RSEQ_SLICE_EXTENSION",
			 u.release);
	else
		snprintf(buf, len, "(prctl GET failed with errno %d)", errno);
	return buf;
}

static void this_kernel(void)
{
	char reason[600], want[600];
	const char *w = expected_here(want, sizeof(want));
	int rc = slice_probe(reason, sizeof(reason));

	if (w)
		CHECK(rc < 0 && !strcmp(reason, w), "slicewhy: this kernel's reason is exact");
	else
		CHECK(rc == 0, "slicewhy: this kernel has the extension and the probe agrees");
	if (w && strcmp(reason, w))
		printf("#   got:  %s\n#   want: %s\n", reason, w);
}

/* A filter that answers rseq_slice_yield (471) with `action` and allows
 * the rest: SECCOMP_RET_ERRNO | EPERM is what Docker's default profile does
 * for a syscall it does not list, SECCOMP_RET_KILL_PROCESS what systemd's
 * SystemCallFilter= does by default. */
static int deny_yield(unsigned action)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rseq_slice_yield, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ? -errno : 0;
}

/* The reason under the filter, in a child so the filter stays there. */
static void probe_under_filter(unsigned action, char *reason, size_t len)
{
	int fd[2];

	reason[0] = 0;
	if (pipe(fd))
		return;
	pid_t pid = fork();

	if (pid == 0) {
		char r[600] = "";
		int rc = deny_yield(action);

		if (rc)
			snprintf(r, sizeof(r), "seccomp filter not installed: %s", strerror(-rc));
		else if (!slice_probe(r, sizeof(r)))
			snprintf(r, sizeof(r), "probe said available");
		if (write(fd[1], r, strlen(r)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	ssize_t n = pid > 0 ? read(fd[0], reason, len - 1) : -1;

	reason[n > 0 ? n : 0] = 0;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void seccomp_probe(void)
{
	char reason[600], want[900], base[600];
	const char *w = expected_here(base, sizeof(base));

	probe_under_filter(SECCOMP_RET_ERRNO | EPERM, reason, sizeof(reason));
	if (w)
		snprintf(want, sizeof(want),
			 "%s; a seccomp filter (Seccomp: 2) also denies rseq_slice_yield "
			 "(syscall 471) with EPERM",
			 w);
	else
		snprintf(want, sizeof(want),
			 "rseq_slice_yield (syscall 471) failed with EPERM, which the kernel never "
			 "returns for it: a seccomp filter denied it (Seccomp: 2 in "
			 "/proc/self/status; Docker's default profile does so)");
	CHECK(!strcmp(reason, want), "slicewhy: probe under a seccomp filter names the filter");
	if (strcmp(reason, want))
		printf("#   got:  %s\n#   want: %s\n", reason, want);

	/* A filter that kills: the probe asks in a child, so it survives. */
	probe_under_filter(SECCOMP_RET_KILL_PROCESS, reason, sizeof(reason));
	if (w)
		snprintf(want, sizeof(want),
			 "%s; a seccomp filter (Seccomp: 2) also kills callers of "
			 "rseq_slice_yield (471) with signal %d",
			 w, SIGSYS);
	else
		snprintf(want, sizeof(want),
			 "rseq_slice_yield (syscall 471) killed its caller with signal %d (%s): a "
			 "seccomp filter (Seccomp: 2 in /proc/self/status) forbids it",
			 SIGSYS, strsignal(SIGSYS));
	CHECK(!strcmp(reason, want),
	      "slicewhy: probe under a killing seccomp filter survives and names it");
	if (strcmp(reason, want))
		printf("#   got:  %s\n#   want: %s\n", reason, want);
}

/* The harness itself under the filter: slice-spin's recorded reason. */
static void seccomp_harness(void)
{
	const char *sb = getenv("SB") ? getenv("SB") : "build/slicebench";
	char dir[] = "/tmp/sb-slicewhy-XXXXXX", cfg[64], out[64];

	if (!mkdtemp(dir)) {
		CHECK(0, "slicewhy: mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(cfg, sizeof(cfg), "%s/c.json", dir);
	snprintf(out, sizeof(out), "%s/r.json", dir);
	FILE *f = fopen(cfg, "w");

	if (f) {
		fputs("{\"name\": \"seccomp\", \"runs\": [{\"workload\": \"slice-spin\", "
		      "\"duration_s\": 0.05, \"warmup_s\": 0, \"repetitions\": 1, \"events\": []}]}\n",
		      f);
		fclose(f);
	}
	pid_t pid = fork();

	if (pid == 0) {
		if (deny_yield(SECCOMP_RET_ERRNO | EPERM))
			_exit(3);
		execl(sb, sb, "run", "--config", cfg, "--out", out, "--quiet", (char *)NULL);
		_exit(4);
	}
	int st = -1;

	if (pid > 0)
		waitpid(pid, &st, 0);
	json_error_t e;
	json_t *r = json_load_file(out, 0, &e);
	json_t *res = json_array_get(json_object_get(r, "results"), 0);
	const char *status = json_string_value(json_object_get(res, "status"));
	const char *reason = json_string_value(json_object_get(res, "reason"));

	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && status &&
		 !strcmp(status, "unsupported") && reason &&
		 strstr(reason, "seccomp filter (Seccomp: 2") &&
		 strstr(reason, "rseq_slice_yield (syscall 471)");

	CHECK(ok, "slicewhy: slice-spin run under a seccomp filter is unsupported, reason names it");
	if (!ok)
		printf("#   exit %d, status %s, reason %s\n", st, status ? status : "-",
		       reason ? reason : "-");
	json_decref(r);
	unlink(cfg);
	unlink(out);
	rmdir(dir);
}

int main(void)
{
	injected();
	boot_switch();
	this_kernel();
	seccomp_probe();
	seccomp_harness();
	printf("%d failed\n", tap_failed);
	return tap_failed != 0;
}
