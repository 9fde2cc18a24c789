/* slicetrace.c - the slice timer's hrtimer events through tracefs (see
 * slicetrace.h).  The events and the pairing are those of the kernel's
 * tools/testing/selftests/rseq/rseq-slice-hist.py (trace-cmd record -e
 * hrtimer_start -e hrtimer_cancel -e hrtimer_expire_entry, the timer's
 * function resolved through /proc/kallsyms), read here from a tracefs
 * instance of our own so that nothing else's tracing is touched. */
#define _GNU_SOURCE
#include "slicetrace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include <tracefs.h>

#include "../lib/hist.h"
#include "../lib/resset.h"
#include "reap.h"
#include "slicedur.h"
#include "../lib/status.h"

/* Per CPU.  An hrtimer event is 48-64 bytes in the ring buffer: 4 MiB holds
 * some 70k, over a thousand times the grants a TCG guest makes in a 1 s
 * window (5885 in six windows of the Rostedt study); lost events are
 * counted from the records' missed_events and reported. */
#define ST_BUFFER_KB 4096

static const struct {
	const char *sys, *name;
	enum sd_kind kind;
	int needed; /* the timer events are; the rseq ones only on our patch */
} st_events[] = {
	{ "timer", "hrtimer_start", SD_START, 1 },
	{ "timer", "hrtimer_cancel", SD_CANCEL, 1 },
	{ "timer", "hrtimer_expire_entry", SD_EXPIRE, 1 },
	{ "rseq", "rseq_slice_grant", SD_RSEQ_GRANT, 0 },
	{ "rseq", "rseq_slice_expire", SD_RSEQ_EXPIRE, 0 },
	{ "rseq", "rseq_slice_revoke", SD_RSEQ_REVOKE, 0 },
	{ "rseq", "rseq_slice_yield", SD_RSEQ_YIELD, 0 },
	{ "rseq", "rseq_slice_abort", SD_RSEQ_ABORT, 0 },
};
#define ST_NEV (sizeof(st_events) / sizeof(st_events[0]))

struct slicetrace {
	const char *status; /* "ok", "unsupported", "skipped" */
	char reason[320];
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	uint64_t fn;
	int id[ST_NEV];	      /* event ids, -1 when the kernel lacks it */
	struct tep_format_field *f_timer[ST_NEV], *f_fn[ST_NEV];
	int have_rseq;
	int keep_events; /* want == 2 */
	struct sd_event *ev; /* one window's events */
	size_t nev, cap;
	uint64_t lost, windows;
	struct slicedur win, all;
};

static void st_fail(struct slicetrace *t, const char *status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void st_fail(struct slicetrace *t, const char *status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->reason, sizeof(t->reason), fmt, ap);
	va_end(ap);
	t->status = status;
}

/* The address of rseq_slice_expired, as the upstream script finds it.  With
 * kptr_restrict or without CAP_SYSLOG the file shows zeros: that is a
 * reason, not an address. */
static int resolve_fn(struct slicetrace *t)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long addr;
	int found = 0;

	if (!f) {
		st_fail(t, "unsupported", "/proc/kallsyms: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strcmp(name, "rseq_slice_expired")) {
			found = 1;
			break;
		}
	fclose(f);
	if (!found) {
		st_fail(t, "unsupported",
			"rseq_slice_expired is not in /proc/kallsyms: the kernel has no rseq "
			"time-slice extension (CONFIG_RSEQ_SLICE_EXTENSION, Linux 7.0+) or no "
			"CONFIG_KALLSYMS");
		return -1;
	}
	if (!addr) {
		st_fail(t, "unsupported",
			"/proc/kallsyms shows rseq_slice_expired at 0: addresses are hidden "
			"(kernel.kptr_restrict, or no CAP_SYSLOG)");
		return -1;
	}
	t->fn = addr;
	return 0;
}

/* Loads the event formats and enables the events in the instance. */
static int setup_events(struct slicetrace *t)
{
	static const char *const systems[] = { "timer", "rseq", NULL };

	t->tep = tracefs_local_events_system(NULL, systems);
	if (!t->tep) {
		st_fail(t, "unsupported", "tracefs: cannot read the timer events' formats: %s",
			strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < ST_NEV; i++) {
		struct tep_event *e = tep_find_event_by_name(t->tep, st_events[i].sys,
							     st_events[i].name);

		t->id[i] = -1;
		if (!e || tracefs_event_enable(t->inst, st_events[i].sys, st_events[i].name)) {
			if (!st_events[i].needed)
				continue;
			st_fail(t, "unsupported", "tracefs: event %s/%s %s", st_events[i].sys,
				st_events[i].name, e ? "cannot be enabled" : "does not exist");
			return -1;
		}
		t->id[i] = e->id;
		t->f_timer[i] = tep_find_field(e, "hrtimer");
		t->f_fn[i] = tep_find_field(e, "function");
		if (st_events[i].kind <= SD_EXPIRE && !t->f_timer[i]) {
			st_fail(t, "unsupported", "tracefs: %s/%s has no hrtimer field",
				st_events[i].sys, st_events[i].name);
			return -1;
		}
		t->have_rseq |= st_events[i].kind == SD_RSEQ_GRANT;
	}
	/* The kernel drops other timers' starts and expiries before they reach
	 * the buffer (cancels carry no function to filter on; sd_feed ignores
	 * those).  A kernel that refuses the filter costs only buffer space. */
	char filter[64];

	snprintf(filter, sizeof(filter), "function == 0x%llx", (unsigned long long)t->fn);
	tracefs_event_file_write(t->inst, "timer", "hrtimer_start", "filter", filter);
	tracefs_event_file_write(t->inst, "timer", "hrtimer_expire_entry", "filter", filter);
	return 0;
}

struct slicetrace *slicetrace_open(int want, const char *instance_tag)
{
	struct slicetrace *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->status = "ok";
	t->keep_events = want == 2;
	sd_init(&t->all, 0, NULL, 0);
	if (!want) {
		st_fail(t, "skipped", "slice_trace is 0, or the policy never requests");
		return t;
	}
	const char *dir = tracefs_tracing_dir();

	if (!dir || access(dir, W_OK)) {
		st_fail(t, "unsupported", "tracefs %s%s%s", dir ? dir : "is not mounted",
			dir ? ": " : "", dir ? strerror(errno) : "");
		return t;
	}
	if (resolve_fn(t))
		return t;
	char name[96];

	reap_trace_instances();
	snprintf(name, sizeof(name), "slicebench-%s-%d", instance_tag, (int)getpid());
	errno = 0;
	t->inst = tracefs_instance_create(name);
	if (!t->inst || !tracefs_instance_is_new(t->inst)) {
		st_fail(t, "unsupported", "tracefs: cannot create instance %s: %s", name,
			errno ? strerror(errno) : "it exists already");
		tracefs_instance_free(t->inst);
		t->inst = NULL;
		return t;
	}
	tracefs_trace_off(t->inst);
	if (tracefs_instance_set_buffer_size(t->inst, ST_BUFFER_KB, -1) < 0) {
		st_fail(t, "unsupported", "tracefs: cannot size the buffer of %s to %d KiB: %s",
			name, ST_BUFFER_KB, strerror(errno));
		return t;
	}
	if (setup_events(t))
		return t;
	t->all.fn = t->fn;
	return t;
}

void slicetrace_begin(struct slicetrace *t)
{
	if (!rs_is(t->status, RS_OK))
		return;
	/* Writing the instance's "trace" file empties its buffers. */
	tracefs_instance_file_write(t->inst, "trace", "");
	t->nev = 0;
	tracefs_trace_on(t->inst);
}

static int on_record(struct tep_event *e, struct tep_record *rec, int cpu, void *arg)
{
	struct slicetrace *t = arg;
	size_t i;

	if (rec->missed_events)
		t->lost += rec->missed_events > 0 ? (uint64_t)rec->missed_events : 1;
	for (i = 0; i < ST_NEV && t->id[i] != e->id; i++)
		;
	if (i == ST_NEV)
		return 0;
	if (t->nev == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct sd_event *n = realloc(t->ev, cap * sizeof(*n));

		if (!n)
			return 1; /* stops the iteration; counted below as lost */
		t->ev = n;
		t->cap = cap;
	}
	struct sd_event *d = &t->ev[t->nev++];
	unsigned long long v = 0;

	memset(d, 0, sizeof(*d));
	d->ts = rec->ts;
	d->cpu = cpu;
	d->kind = st_events[i].kind;
	d->pid = tep_data_pid(t->tep, rec);
	if (t->f_timer[i] && !tep_read_number_field(t->f_timer[i], rec->data, &v))
		d->timer = v;
	if (t->f_fn[i] && !tep_read_number_field(t->f_fn[i], rec->data, &v))
		d->function = v;
	return 0;
}

/* Time order across CPUs (equal stamps keep their CPU's order): a timer's
 * events all come from its own CPU, so this only makes the stream readable. */
static int by_ts(const void *a, const void *b)
{
	const struct sd_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

static json_t *tids_json(const int *tids, unsigned n)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < n; i++)
		json_array_append_new(a, json_integer(tids[i]));
	return a;
}

json_t *slicetrace_end(struct slicetrace *t, const int *tids, unsigned ntids)
{
	if (!rs_is(t->status, RS_OK))
		return NULL;
	tracefs_trace_off(t->inst);
	uint64_t lost0 = t->lost;

	if (tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, on_record, t) < 0) {
		st_fail(t, "unsupported", "tracefs: reading the events failed: %s",
			strerror(errno));
		return NULL;
	}
	qsort(t->ev, t->nev, sizeof(*t->ev), by_ts);
	sd_init(&t->win, t->fn, tids, ntids);
	for (size_t i = 0; i < t->nev; i++)
		sd_feed(&t->win, &t->ev[i]);
	sd_finish(&t->win);
	sd_merge(&t->all, &t->win);
	t->windows++;
	json_t *o = sd_counts_json(&t->win);

	if (!t->have_rseq)
		res_set(o, fld_strace_rseq_events, json_null());
	res_set(o, fld_strace_lost_events, json_integer((json_int_t)(t->lost - lost0)));
	if (t->keep_events) {
		char fn[24];

		snprintf(fn, sizeof(fn), "0x%llx", (unsigned long long)t->fn);
		json_object_set_new(o, "function", json_string(fn));
		json_object_set_new(o, "tids", tids_json(tids, ntids));
		json_object_set_new(o, "events", sd_events_json(t->ev, t->nev));
	}
	return o;
}

json_t *slicetrace_summary(struct slicetrace *t, json_t **hist)
{
	*hist = NULL;
	if (!rs_is(t->status, RS_OK))
		return json_pack("{s:s,s:s}", fld_key(fld_s_ext_status), t->status,
				 fld_key(fld_s_ext_reason), t->reason);
	if (!t->windows)
		return json_pack("{s:s,s:s}", fld_key(fld_s_ext_status), "skipped",
				 fld_key(fld_s_ext_reason),
				 "no measured window was traced");
	json_t *o = sd_summary_json(&t->all);

	res_set(o, fld_s_ext_status, json_string("ok"));
	res_set(o, fld_s_ext_method, json_string("hrtimer"));
	if (!t->have_rseq)
		res_set(o, fld_s_ext_rseq_events, json_null());
	res_set(o, fld_s_ext_lost_events, json_integer((json_int_t)t->lost));
	*hist = hist_buckets_json(&t->all.dur);
	return o;
}

void slicetrace_close(struct slicetrace *t)
{
	if (!t)
		return;
	if (t->inst) {
		tracefs_trace_off(t->inst);
		tracefs_event_disable(t->inst, NULL, NULL);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	if (t->tep)
		tep_free(t->tep);
	free(t->ev);
	free(t);
}
