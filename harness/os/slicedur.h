/* slicedur.h - the duration of every slice-extension grant, from the
 * kernel's own slice timer: armed (hrtimer_start) when a grant goes out to
 * user space, cancelled (hrtimer_cancel) when the task comes back in time,
 * fired (hrtimer_expire_entry) when it did not.  The method of the kernel's
 * tools/testing/selftests/rseq/rseq-slice-hist.py, which produced the
 * harmonic mean behind the 5 us default (configs/replicate/targets.json); it needs no patch, only the
 * timer events and the address of rseq_slice_expired (kernel/rseq.c).
 *
 * Pure bookkeeping on events: slicetrace.c reads them from tracefs, the
 * unit test feeds recorded sequences. */
#ifndef SB_SLICEDUR_H
#define SB_SLICEDUR_H

#include <stdint.h>

#include <jansson.h>

#include "../lib/hist.h"

enum sd_kind {
	SD_START,  /* timer/hrtimer_start: timer, function */
	SD_CANCEL, /* timer/hrtimer_cancel: timer */
	SD_EXPIRE, /* timer/hrtimer_expire_entry: timer, function */
	/* the patched kernel's rseq/rseq_slice_* (kernel/patches/0001), counted
	 * for the cross-check only */
	SD_RSEQ_GRANT,
	SD_RSEQ_EXPIRE,
	SD_RSEQ_REVOKE,
	SD_RSEQ_YIELD,
	SD_RSEQ_ABORT,
	SD_KINDS,
};

struct sd_event {
	uint64_t ts;	   /* ns, the trace clock */
	uint64_t timer;	   /* struct hrtimer * */
	uint64_t function; /* hrtimer_start/expire_entry: the callback's address */
	int pid;	   /* the task the event ran in (common_pid) */
	int cpu;
	enum sd_kind kind;
};

/* Per CPU there is one slice timer (a per-CPU struct in kernel/rseq.c), so
 * the open grants are few: one per CPU, looked up by timer address. */
#define SD_MAX_OPEN 256

struct slicedur {
	uint64_t fn; /* address of rseq_slice_expired */
	/* Which pids count (the run's threads); NULL/0 = every task. */
	const int *pids;
	unsigned npids;
	struct {
		uint64_t timer, ts;
	} open[SD_MAX_OPEN];
	unsigned nopen;
	struct hist dur;  /* cancelled grants: arm to cancel, ns */
	double inv_sum;	  /* sum of 1/d over dur, d > 0: the harmonic mean */
	uint64_t arms;	  /* hrtimer_start of the slice timer by a counted task */
	uint64_t expired; /* fired before the task came back (upstream's EXPIRED row) */
	uint64_t rearmed; /* armed again while open: the first arm has no end */
	uint64_t unmatched; /* cancel or expiry of a slice timer never seen armed */
	uint64_t other;	    /* slice-timer arms by tasks not counted */
	uint64_t left_open; /* open when the window closed (sd_finish) */
	uint64_t rseq[SD_RSEQ_ABORT - SD_RSEQ_GRANT + 1]; /* counted tasks only */
};

void sd_init(struct slicedur *s, uint64_t fn, const int *pids, unsigned npids);
/* Events of one timer must come in time order (per CPU they do). */
void sd_feed(struct slicedur *s, const struct sd_event *e);
/* The window closed: grants still open (neither cancelled nor fired yet)
 * are counted in left_open, with no duration. */
void sd_finish(struct slicedur *s);
/* Adds b's counts and durations to a (the repetitions of one run). */
void sd_merge(struct slicedur *a, const struct slicedur *b);
/* n / sum(1/d) over the cancelled grants; 0 when none. */
double sd_harmonic_mean(const struct slicedur *s);
/* Events as [[ts, cpu, pid, kind, timer, function], ...] (kind: the names
 * below), and back: what a recorded window looks like on disk. */
extern const char *const sd_kind_names[SD_KINDS];
json_t *sd_events_json(const struct sd_event *ev, size_t n);
/* 0, or -1 with msg naming the entry and what is wrong with it. */
int sd_events_parse(const json_t *a, struct sd_event **ev, size_t *n, char *msg, size_t len);
/* The counts of one window (a repetition's "slice_trace"). */
json_t *sd_counts_json(const struct slicedur *s);
/* The counts plus the distribution (summary.slice.extension_ns). */
json_t *sd_summary_json(const struct slicedur *s);

#endif
