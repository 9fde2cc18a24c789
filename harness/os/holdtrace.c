/* holdtrace.c - holder preemptions from sched_switch (see holdtrace.h). */
#define _GNU_SOURCE
#include "holdtrace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "../lib/resset.h"
#include "reap.h"
#include "timing.h"
#include "../lib/status.h"

/* 2^16 long holds a window per thread (2 MiB): at 20 us a hold, more than
 * a whole 1 s window of holding. */
#define HL_CAP (1u << 16)
/* Per CPU: a sched_switch record is ~64 bytes, 4 MiB some 65k switches. */
#define HT_BUFFER_KB 4096
/* A filter naming each tid; past this many the callback filters alone. */
#define HT_FILTER_TIDS 64

/* The sleep bits of prev_state (TASK_REPORT: S D T t X Z P I); preempted
 * shows as TASK_REPORT_MAX, above them, and a yield as 0. */
#define HT_SLEEP_BITS 0xffu

struct hl_log *hl_log_new(void)
{
	struct hl_log *l = calloc(1, sizeof(*l));

	if (l && !(l->rec = malloc(HL_CAP * sizeof(*l->rec)))) {
		free(l);
		return NULL;
	}
	if (l)
		l->cap = HL_CAP;
	return l;
}

void hl_reset(struct hl_log *l)
{
	l->n = 0;
	l->dropped = 0;
}

void hl_log_free(struct hl_log *l)
{
	if (l)
		free(l->rec);
	free(l);
}

void hl_add(struct hl_log *l, uint64_t acq, uint64_t f0, uint64_t f1, uint64_t rel)
{
	if (!l)
		return;
	if (l->n == l->cap) {
		l->dropped++;
		return;
	}
	l->rec[l->n++] = (struct hl_rec){ acq, f0, f1, rel };
}

struct ht_ev {
	uint64_t ts;
	int prev, next;
	unsigned long long state;
};

/* The counts of one window or of the run. */
struct ht_counts {
	uint64_t switch_outs, slept, runnable, holder, in_fault, in_user, waiter, short_off;
	uint64_t holder_off_tsc, long_holds, dropped, lost, grants;
};

struct holdtrace {
	const char *status;
	char reason[256];
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	int id;
	struct tep_format_field *f_prev, *f_next, *f_state;
	struct ht_ev *ev;
	size_t nev, cap;
	uint64_t lost, windows;
	struct ht_counts all;
};

static void ht_fail(struct holdtrace *h, const char *status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ht_fail(struct holdtrace *h, const char *status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->reason, sizeof(h->reason), fmt, ap);
	va_end(ap);
	h->status = status;
}

static int ht_setup(struct holdtrace *h, const char *name)
{
	static const char *const systems[] = { "sched", NULL };
	char *clk;

	if (tracefs_instance_set_buffer_size(h->inst, HT_BUFFER_KB, -1) < 0) {
		ht_fail(h, "unsupported", "tracefs: cannot size the buffer of %s: %s", name,
			strerror(errno));
		return -1;
	}
	/* The threads stamp their holds with rdtsc: the trace must count the
	 * same ticks. */
	tracefs_instance_file_write(h->inst, "trace_clock", "x86-tsc");
	clk = tracefs_get_clock(h->inst);
	if (!clk || strcmp(clk, "x86-tsc")) {
		ht_fail(h, "unsupported", "tracefs: the x86-tsc trace clock is not available (%s)",
			clk ? clk : "unreadable");
		free(clk);
		return -1;
	}
	free(clk);
	h->tep = tracefs_local_events_system(NULL, systems);
	struct tep_event *e = h->tep ? tep_find_event_by_name(h->tep, "sched", "sched_switch") : NULL;

	if (!e || tracefs_event_enable(h->inst, "sched", "sched_switch")) {
		ht_fail(h, "unsupported", "tracefs: sched/sched_switch %s",
			e ? "cannot be enabled" : "does not exist");
		return -1;
	}
	h->id = e->id;
	h->f_prev = tep_find_field(e, "prev_pid");
	h->f_next = tep_find_field(e, "next_pid");
	h->f_state = tep_find_field(e, "prev_state");
	if (!h->f_prev || !h->f_next || !h->f_state) {
		ht_fail(h, "unsupported", "tracefs: sched_switch lacks prev_pid/next_pid/prev_state");
		return -1;
	}
	tracefs_trace_off(h->inst);
	return 0;
}

struct holdtrace *holdtrace_open(int want, const char *instance_tag)
{
	struct holdtrace *h = calloc(1, sizeof(*h));
	char name[96];

	if (!h)
		abort();
	h->status = "ok";
	if (!want) {
		ht_fail(h, "skipped", "holder_trace_us is 0");
		return h;
	}
	const char *dir = tracefs_tracing_dir();

	if (!dir || access(dir, W_OK)) {
		ht_fail(h, "unsupported", "tracefs %s%s%s", dir ? dir : "is not mounted",
			dir ? ": " : "", dir ? strerror(errno) : "");
		return h;
	}
	reap_trace_instances();
	snprintf(name, sizeof(name), "slicebench-hold-%s-%d", instance_tag, (int)getpid());
	errno = 0;
	h->inst = tracefs_instance_create(name);
	if (!h->inst || !tracefs_instance_is_new(h->inst)) {
		ht_fail(h, "unsupported", "tracefs: cannot create instance %s: %s", name,
			errno ? strerror(errno) : "it exists already");
		tracefs_instance_free(h->inst);
		h->inst = NULL;
		return h;
	}
	ht_setup(h, name);
	return h;
}

void holdtrace_begin(struct holdtrace *h, const int *tids, unsigned n)
{
	if (!rs_is(h->status, RS_OK))
		return;
	char filter[HT_FILTER_TIDS * 48] = "";
	size_t off = 0;

	for (unsigned i = 0; n <= HT_FILTER_TIDS && i < n; i++)
		off += (size_t)snprintf(filter + off, sizeof(filter) - off,
					"%sprev_pid == %d || next_pid == %d", i ? " || " : "",
					tids[i], tids[i]);
	if (off)
		tracefs_event_file_write(h->inst, "sched", "sched_switch", "filter", filter);
	else
		tracefs_event_file_clear(h->inst, "sched", "sched_switch", "filter");
	tracefs_instance_file_write(h->inst, "trace", "");
	h->nev = 0;
	tracefs_trace_on(h->inst);
}

void holdtrace_stop(struct holdtrace *h)
{
	if (rs_is(h->status, RS_OK))
		tracefs_trace_off(h->inst);
}

static int on_record(struct tep_event *e, struct tep_record *rec, int cpu, void *arg)
{
	struct holdtrace *h = arg;
	unsigned long long p = 0, q = 0, s = 0;

	(void)cpu;
	if (rec->missed_events)
		h->lost += rec->missed_events > 0 ? (uint64_t)rec->missed_events : 1;
	if (e->id != h->id)
		return 0;
	if (h->nev == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 4096;
		struct ht_ev *v = realloc(h->ev, cap * sizeof(*v));

		if (!v)
			return 1;
		h->ev = v;
		h->cap = cap;
	}
	tep_read_number_field(h->f_prev, rec->data, &p);
	tep_read_number_field(h->f_next, rec->data, &q);
	tep_read_number_field(h->f_state, rec->data, &s);
	h->ev[h->nev++] = (struct ht_ev){ rec->ts, (int)p, (int)q, s };
	return 0;
}

static int by_ts(const void *a, const void *b)
{
	const struct ht_ev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The logged hold containing ts (logs are in time order), or NULL. */
static const struct hl_rec *hold_at(const struct hl_log *l, uint64_t ts)
{
	uint32_t lo = 0, hi = l ? l->n : 0;

	while (lo < hi) { /* first hold released after ts */
		uint32_t mid = lo + (hi - lo) / 2;

		if (l->rec[mid].rel <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (l ? l->n : 0) && l->rec[lo].acq <= ts ? &l->rec[lo] : NULL;
}

static void classify(struct ht_counts *c, const struct hl_log *l, const struct ht_ev *out,
		     uint64_t back, uint64_t thr)
{
	const struct hl_rec *hr;

	c->switch_outs++;
	if (out->state & HT_SLEEP_BITS) {
		c->slept++;
		return;
	}
	c->runnable++;
	if ((hr = hold_at(l, out->ts))) {
		c->holder++;
		c->holder_off_tsc += back - out->ts;
		if (hr->f1 && out->ts >= hr->f0 && out->ts < hr->f1)
			c->in_fault++;
		else
			c->in_user++;
	} else if (back - out->ts >= thr) {
		c->waiter++;
	} else {
		c->short_off++;
	}
}

static void counts_add(struct ht_counts *a, const struct ht_counts *b)
{
	const uint64_t *s = (const uint64_t *)b;
	uint64_t *d = (uint64_t *)a;

	for (size_t i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

static json_t *counts_json(const struct ht_counts *c)
{
	return json_pack("{s:I,s:I,s:I,s:{s:I,s:I,s:I,s:f},s:I,s:I,s:I,s:I,s:I,s:I}",
			 fld_key(fld_htr_outs), (json_int_t)c->switch_outs,
			 fld_key(fld_htr_slept), (json_int_t)c->slept,
			 fld_key(fld_htr_runnable), (json_int_t)c->runnable,
			 fld_key(fld_htr_holder), fld_key(fld_htr_h_pre),
			 (json_int_t)c->holder, fld_key(fld_htr_h_fault),
			 (json_int_t)c->in_fault, fld_key(fld_htr_h_user),
			 (json_int_t)c->in_user, fld_key(fld_htr_h_off),
			 (double)c->holder_off_tsc / tm_tsc_per_ns(), fld_key(fld_htr_waiter),
			 (json_int_t)c->waiter, fld_key(fld_htr_short), (json_int_t)c->short_off,
			 fld_key(fld_htr_long), (json_int_t)c->long_holds,
			 fld_key(fld_htr_dropped), (json_int_t)c->dropped,
			 fld_key(fld_htr_lost), (json_int_t)c->lost,
			 fld_key(fld_htr_grants), (json_int_t)c->grants);
}

json_t *holdtrace_end(struct holdtrace *h, const int *tids, struct hl_log *const *logs,
		      unsigned n, uint64_t thr_tsc, uint64_t grants)
{
	if (!rs_is(h->status, RS_OK))
		return NULL;
	uint64_t lost0 = h->lost;
	struct ht_counts c = { 0 };

	if (tracefs_iterate_raw_events(h->tep, h->inst, NULL, 0, on_record, h) < 0) {
		ht_fail(h, "unsupported", "tracefs: reading the events failed: %s", strerror(errno));
		return NULL;
	}
	qsort(h->ev, h->nev, sizeof(*h->ev), by_ts);
	uint64_t end = h->nev ? h->ev[h->nev - 1].ts : 0;

	for (unsigned i = 0; i < n; i++) {
		const struct ht_ev *out = NULL;

		for (size_t k = 0; k < h->nev; k++) {
			const struct ht_ev *e = &h->ev[k];

			if (e->prev == tids[i] && !out)
				out = e;
			else if (e->next == tids[i] && out) {
				classify(&c, logs[i], out, e->ts, thr_tsc);
				out = NULL;
			}
		}
		if (out) /* still off the CPU when the window closed */
			classify(&c, logs[i], out, end, thr_tsc);
		c.long_holds += logs[i] ? logs[i]->n : 0;
		c.dropped += logs[i] ? logs[i]->dropped : 0;
	}
	c.lost = h->lost - lost0;
	c.grants = grants;
	counts_add(&h->all, &c);
	h->windows++;
	return counts_json(&c);
}

json_t *holdtrace_summary(struct holdtrace *h)
{
	if (!rs_is(h->status, RS_OK))
		return json_pack("{s:s,s:s}", fld_key(fld_s_holder_status), h->status,
				 fld_key(fld_s_holder_reason), h->reason);
	if (!h->windows)
		return json_pack("{s:s,s:s}", fld_key(fld_s_holder_status), "skipped",
				 fld_key(fld_s_holder_reason), "no measured window was traced");
	json_t *o = counts_json(&h->all);

	res_set(o, fld_s_holder_status, json_string("ok"));
	json_object_set_new(o, "method",
			    json_string("sched_switch (x86-tsc) against the threads' rdtsc-stamped "
					"long holds"));
	return o;
}

void holdtrace_close(struct holdtrace *h)
{
	if (!h)
		return;
	if (h->inst) {
		tracefs_trace_off(h->inst);
		tracefs_event_disable(h->inst, NULL, NULL);
		tracefs_instance_destroy(h->inst);
		tracefs_instance_free(h->inst);
	}
	if (h->tep)
		tep_free(h->tep);
	free(h->ev);
	free(h);
}
