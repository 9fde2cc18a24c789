/* knobs.h - system settings a run changes, and putting them back. */
#ifndef SB_KNOBS_H
#define SB_KNOBS_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's range for debugfs rseq/slice_ext_nsec (wider only with
 * CONFIG_RSEQ_SLICE_EXT_WIDE_MAX). */
#define SLICE_EXT_NSEC_MIN 5000
#define SLICE_EXT_NSEC_MAX 50000

/* Applies the run's system settings: slice_ext_nsec, the run's typed key
 * (struct run_params, harness/core/keys.h; 0 leaves the kernel's).  0, or
 * -1 with the reason the run cannot have them (the run is then
 * "unsupported"). */
int knob_apply(int64_t slice_ext_nsec, char *err, size_t len);
/* Restores everything knob_apply changed.  Async-signal-safe (open, write,
 * close on saved text), so a signal handler may call it; idempotent. */
void knob_restore(void);
/* The value in force now, or -1 when unreadable. */
long knob_slice_ext_nsec(void);

#endif
