/* slicewhy.h - why the time-slice extension cannot work here, decided from
 * what the kernel answered.  The decision takes the answers as data, so a
 * test can inject every cause, including the ones this machine cannot
 * produce. */
#ifndef SB_SLICEWHY_H
#define SB_SLICEWHY_H

#include <stddef.h>

#define ORIG_RSEQ_SIZE 32 /* the legacy registration length (kernel/rseq.c) */

enum slice_cause {
	SC_OK = 0,
	SC_OLD_KERNEL,	  /* no PR_RSEQ_SLICE_EXTENSION prctl at all: EINVAL */
	SC_COMPILED_OUT,  /* the prctl's stub: ENOTSUPP from GET */
	SC_DENIED,	  /* a seccomp filter denied the prctl or rseq_slice_yield */
	SC_FEATURE_SIZE,  /* AT_RSEQ_FEATURE_SIZE below slice_ctrl */
	SC_BOOT_DISABLED, /* rseq_slice_ext=0 on the kernel command line */
	SC_LEGACY,	  /* a 32-byte (legacy) rseq registration */
	SC_NO_AREA,	  /* no rseq registration for the thread: ENXIO */
	SC_OTHER,
};

/* What the kernel answered; -1 in an errno field means "not asked". */
struct slice_facts {
	const char *release;	    /* uname -r */
	int get_err;		    /* prctl(PR_RSEQ_SLICE_EXTENSION_GET): 0 or errno */
	int yield_err;		    /* rseq_slice_yield(): 0 or errno */
	int yield_sig;		    /* the signal that killed its caller, 0 none */
	int seccomp;		    /* /proc/self/status Seccomp: 0, 1, 2; -1 unknown */
	unsigned long feature_size; /* getauxval(AT_RSEQ_FEATURE_SIZE) */
	const char *boot_off;	    /* rseq_slice_ext= value that turns it off, or NULL */
	unsigned reg_len;	    /* the thread's rseq registration length, 0 none */
	int flags_known;	    /* flags below were read from that registration */
	unsigned flags;		    /* its rseq->flags */
	int set_err;		    /* prctl(PR_RSEQ_SLICE_EXTENSION_SET, ENABLE) */
};

/* 0 when the extension can work, else -errno with the reason in `reason`
 * and the cause in *cause (when cause is not NULL). */
int slice_why(const struct slice_facts *f, char *reason, size_t len, enum slice_cause *cause);
/* The command (or step) that removes a cause, for `slicebench info`. */
const char *slice_fix(enum slice_cause cause);
/* The value of an rseq_slice_ext= parameter of `cmdline` that switches the
 * extension off, copied to buf; NULL when none does. */
const char *slice_boot_off(const char *cmdline, char *buf, size_t len);
/* The Seccomp: field of /proc/self/status; -1 when it cannot be read. */
int slice_seccomp_mode(void);

#endif
