/* slicetrace.h - the slice timer's events in a run's measured windows,
 * read from a private tracefs instance with libtracefs/libtraceevent, and
 * the grant durations they give (slicedur.h).  Where tracefs, kallsyms or
 * the kernel's rseq_slice_expired is missing or not permitted, the result
 * says why and the run goes on untraced. */
#ifndef SB_SLICETRACE_H
#define SB_SLICETRACE_H

#include <jansson.h>

struct slicetrace;

/* One session per run.  want = 0: not traced (the run's slice_trace key, or
 * a policy that never requests); the result then says so.  want = 2: each
 * window's counts also carry its events (sd_events_json).  Never NULL. */
struct slicetrace *slicetrace_open(int want, const char *instance_tag);
/* Right before the window opens: tracing on, the buffer empty. */
void slicetrace_begin(struct slicetrace *t);
/* Right after it closes: tracing off, the window's events read and paired;
 * tids are the tasks whose grants count (the run's lock threads).  Returns
 * the window's counts (a repetition's "slice_trace"), or NULL untraced. */
json_t *slicetrace_end(struct slicetrace *t, const int *tids, unsigned ntids);
/* The whole run: {"status": "ok", counts, harmonic_mean, ...} or
 * {"status": "unsupported"|"skipped", "reason"}; *hist the buckets (new
 * reference, NULL when there are none). */
json_t *slicetrace_summary(struct slicetrace *t, json_t **hist);
void slicetrace_close(struct slicetrace *t);

#endif
