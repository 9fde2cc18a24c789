/* knobs.h - system settings a run changes, and putting them back. */
#ifndef SB_KNOBS_H
#define SB_KNOBS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* The kernel's range for debugfs rseq/slice_ext_nsec (wider only with
 * CONFIG_RSEQ_SLICE_EXT_WIDE_MAX). */
#define SLICE_EXT_NSEC_MIN 5000
#define SLICE_EXT_NSEC_MAX 50000
/* ... and with it (kernel/patches/0002). */
#define SLICE_EXT_NSEC_WIDE_MAX 1000000

/* The machine's slowdown against the host it stands for (`slicebench
 * timescale`: a guest under TCG runs the same loop k times slower), so
 * every run can state its extension in host-equivalent ns (in force / k);
 * 1 when not set.  With scale, a run's slice_ext_nsec is read as a
 * host-equivalent length and k times it is written, clamped to the
 * kernel's range (the wide maximum, else the mainline one). */
void knob_timescale(double k, int scale);
/* Clamps a guest length to [SLICE_EXT_NSEC_MIN, max]; *why says so when it
 * did ("" when not). */
long knob_clamp_ext(double want, long max, char *why, size_t len);

/* Applies the run's system settings: slice_ext_nsec, the run's typed key
 * (struct run_params, harness/core/keys.h; 0 leaves the kernel's).  0, or
 * -1 with the reason the run cannot have them (the run is then
 * "unsupported"). */
int knob_apply(int64_t slice_ext_nsec, char *err, size_t len);
/* Restores everything knob_apply changed.  Async-signal-safe (open, write,
 * close on saved text), so a signal handler may call it; idempotent. */
void knob_restore(void);
/* Writes value to debugfs file rel (as "sched/base_slice_ns"): 0 or -errno. */
int knob_write_debugfs(const char *rel, long value);
/* The value in force now, or -1 when unreadable. */
long knob_slice_ext_nsec(void);
/* Adds to a run's result the extension it had: slice_ext_nsec_in_force,
 * slice_ext_host_ns (in force / k) and slice_ext_clamped when the last
 * knob_apply clamped a scaled length.  in_force < 0: unreadable, nothing. */
void knob_record(json_t *res, long in_force);

#endif
