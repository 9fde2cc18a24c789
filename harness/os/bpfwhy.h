/* bpfwhy.h - why a BPF tracepoint program cannot watch the scheduler
 * here, decided from what the kernel answered (the facts are data, so a
 * test can inject every cause, as slicewhy.h does for the extension). */
#ifndef SB_BPFWHY_H
#define SB_BPFWHY_H

#include <stddef.h>

/* The step that failed. */
enum bpf_step {
	BS_OK,
	BS_BUILD,  /* the suite was built without the BPF object */
	BS_OPEN,   /* libbpf could not parse the object */
	BS_LOAD,   /* bpf(): map creation or program load */
	BS_MMAP,   /* mmap of a BPF_F_MMAPABLE array */
	BS_FORMAT, /* the tracepoint's record differs from the program's */
	BS_ATTACH, /* perf_event_open of the tracepoint, or attaching to it */
};

struct bpf_facts {
	const char *release; /* uname -r */
	enum bpf_step step;
	int err;	     /* errno of that step */
	int seccomp;	     /* /proc/self/status Seccomp: 0, 1, 2; -1 unknown */
	int unpriv_disabled; /* kernel.unprivileged_bpf_disabled; -1 unknown */
	int paranoid;	     /* kernel.perf_event_paranoid; -99 unknown */
	int cap_bpf, cap_perfmon, cap_sys_admin; /* in CapEff */
	int tracefs;	     /* a tracefs is mounted where libbpf looks */
	const char *detail;  /* BS_FORMAT's what-differs, or the verifier's last line */
};

/* 0 when nothing failed, else -err with the reason in `reason`. */
int bpf_why(const struct bpf_facts *f, char *reason, size_t len);
/* Fills the facts that do not depend on the failure: release, seccomp,
 * the two sysctls, the capabilities, tracefs. */
void bpf_facts_read(struct bpf_facts *f);

#endif
