/* counters.h - per-thread event counts (libpfm4 encoding, perf_event_open),
 * context switches from getrusage, rseq statistics from debugfs. */
#ifndef SB_COUNTERS_H
#define SB_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <linux/perf_event.h>

#define CNT_MAX 16

/* One configured event, encoded once per run. */
struct cnt_spec {
	char name[64];
	struct perf_event_attr attr;
	int encoded;	       /* libpfm4 could encode it */
	int kernel_too;	       /* counts kernel mode as well as user */
	const char *filter;    /* tracepoint filter, or NULL */
	char reason[256];      /* why it is unsupported, when it is */
};

struct cnt_events {
	size_t n;
	struct cnt_spec spec[CNT_MAX];
};

/* Per thread: one group (leader = first event that opened). */
struct cnt_thread {
	int fd[CNT_MAX];
	int leader;
	char reason[CNT_MAX][160]; /* per-event open failure */
};

struct cnt_values {
	uint64_t value[CNT_MAX], enabled[CNT_MAX], running[CNT_MAX];
	int ok[CNT_MAX];
};

/* Encodes the names of a JSON list with pfm_get_os_event_encoding. */
int cnt_encode(const json_t *names, struct cnt_events *ev, char *err, size_t len);
/* Opens the group for the calling thread (disabled). Never fails: events
 * that cannot open are marked with their reason. */
void cnt_open_self(const struct cnt_events *ev, struct cnt_thread *ct);
void cnt_enable(struct cnt_thread *ct);
void cnt_disable(struct cnt_thread *ct);
void cnt_read(const struct cnt_events *ev, struct cnt_thread *ct, struct cnt_values *out);
/* Closes the fds; the per-event reasons are kept for the result. */
void cnt_close(struct cnt_thread *ct);
/* {name: {"status":"ok","value","time_enabled_ns","time_running_ns",
 *         "scaled","multiplexed","per_thread":[...]} | {"status":"unsupported","reason"}} */
json_t *cnt_json(const struct cnt_events *ev, const struct cnt_thread *ct,
		 const struct cnt_values *v, size_t nthreads);
/* Value summed over threads (scaled when multiplexed), or -1 if unsupported. */
double cnt_total(const struct cnt_events *ev, const struct cnt_values *v, size_t nthreads,
		 const char *name);

/* Opens, disabled, on the calling thread, the per-task events whose first
 * opening switches kernel static keys on (perf_sched_events for any task
 * event, the sched_switch tracepoint's key), and holds them until
 * cnt_keys_release().  Every run that opens them again then finds the keys
 * on: no kernel text is live-patched while workload threads run (a
 * perturbation on any machine, and under QEMU TCG a race that has crashed
 * guest kernels in __schedule).  Returns {event: "held" | reason}. */
json_t *cnt_keys_hold(void);
void cnt_keys_release(void);

/* debugfs rseq/stats: the sgrant..sabort counters (system-wide). */
struct rseq_stats {
	int ok;
	char reason[128];
	uint64_t v[8];
};
void rseq_stats_read(struct rseq_stats *s);
json_t *rseq_stats_delta_json(const struct rseq_stats *a, const struct rseq_stats *b);

#endif
