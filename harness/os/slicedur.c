/* slicedur.c - grant durations from slice-timer events (see slicedur.h). */
#include "slicedur.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/resset.h"

void sd_init(struct slicedur *s, uint64_t fn, const int *pids, unsigned npids)
{
	memset(s, 0, sizeof(*s));
	s->fn = fn;
	s->pids = pids;
	s->npids = npids;
	hist_init(&s->dur);
}

static int counted(const struct slicedur *s, int pid)
{
	if (!s->pids)
		return 1;
	for (unsigned i = 0; i < s->npids; i++)
		if (s->pids[i] == pid)
			return 1;
	return 0;
}

static int find_open(const struct slicedur *s, uint64_t timer)
{
	for (unsigned i = 0; i < s->nopen; i++)
		if (s->open[i].timer == timer)
			return (int)i;
	return -1;
}

static void close_open(struct slicedur *s, int i)
{
	s->open[i] = s->open[--s->nopen];
}

/* hrtimer_start: only the slice timer's, by a task we count.  An arm of a
 * timer that is still open ends the first grant with no known length
 * (7.3's hrtimer_start_range_ns re-queues an armed timer without a cancel
 * event); upstream's script overwrites it the same way, we count it. */
static void on_start(struct slicedur *s, const struct sd_event *e)
{
	if (e->function != s->fn)
		return;
	int i = find_open(s, e->timer);

	if (!counted(s, e->pid)) {
		s->other++;
		if (i >= 0)
			close_open(s, i); /* the timer now runs for someone else */
		return;
	}
	s->arms++;
	if (i >= 0) {
		s->rearmed++;
		s->open[i].ts = e->ts;
		return;
	}
	if (s->nopen == SD_MAX_OPEN) { /* more than one open per CPU: cannot be */
		s->unmatched++;
		return;
	}
	s->open[s->nopen].timer = e->timer;
	s->open[s->nopen++].ts = e->ts;
}

/* Cancel and expiry pair with the open arm by timer address: any other
 * timer's events find none and are ignored, as upstream's `pending` does. */
static void on_end(struct slicedur *s, const struct sd_event *e)
{
	int i = find_open(s, e->timer);

	if (i < 0) {
		/* A slice timer's expiry names its function; a cancel does not,
		 * so an unknown cancel is some other timer and says nothing. */
		if (e->kind == SD_EXPIRE && e->function == s->fn)
			s->unmatched++;
		return;
	}
	if (e->kind == SD_EXPIRE) {
		s->expired++;
	} else {
		uint64_t d = e->ts - s->open[i].ts;

		hist_add(&s->dur, d);
		if (d)
			s->inv_sum += 1.0 / (double)d;
	}
	close_open(s, i);
}

void sd_feed(struct slicedur *s, const struct sd_event *e)
{
	switch (e->kind) {
	case SD_START:
		on_start(s, e);
		break;
	case SD_CANCEL:
	case SD_EXPIRE:
		on_end(s, e);
		break;
	default:
		if (e->kind >= SD_RSEQ_GRANT && e->kind < SD_KINDS && counted(s, e->pid))
			s->rseq[e->kind - SD_RSEQ_GRANT]++;
		break;
	}
}

void sd_finish(struct slicedur *s)
{
	s->left_open += s->nopen;
	s->nopen = 0;
}

void sd_merge(struct slicedur *a, const struct slicedur *b)
{
	hist_merge(&a->dur, &b->dur);
	a->inv_sum += b->inv_sum;
	a->arms += b->arms;
	a->expired += b->expired;
	a->rearmed += b->rearmed;
	a->unmatched += b->unmatched;
	a->other += b->other;
	a->left_open += b->left_open + b->nopen;
	for (size_t i = 0; i < sizeof(a->rseq) / sizeof(a->rseq[0]); i++)
		a->rseq[i] += b->rseq[i];
}

double sd_harmonic_mean(const struct slicedur *s)
{
	uint64_t n = s->dur.count - s->dur.bucket[0]; /* 0 ns has no reciprocal */

	return s->inv_sum > 0 ? (double)n / s->inv_sum : 0;
}

/* The shape SB_FLD_ARMS of fields.h, its keys named by a repetition's
 * slice_trace. */
json_t *sd_counts_json(const struct slicedur *s)
{
	static const char *const rseq_names[] = {
		fld_strace_rseq_events_grant, fld_strace_rseq_events_expire,
		fld_strace_rseq_events_revoke, fld_strace_rseq_events_yield,
		fld_strace_rseq_events_abort,
	};
	json_t *o = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", fld_key(fld_strace_arms),
			      (json_int_t)s->arms, fld_key(fld_strace_count),
			      (json_int_t)s->dur.count, fld_key(fld_strace_expired),
			      (json_int_t)s->expired, fld_key(fld_strace_rearmed),
			      (json_int_t)s->rearmed, fld_key(fld_strace_open),
			      (json_int_t)(s->left_open + s->nopen), fld_key(fld_strace_unmatched),
			      (json_int_t)s->unmatched, fld_key(fld_strace_other_tasks),
			      (json_int_t)s->other);
	json_t *r = json_object();

	for (size_t i = 0; i < sizeof(rseq_names) / sizeof(rseq_names[0]); i++)
		res_set(r, rseq_names[i], json_integer((json_int_t)s->rseq[i]));
	res_set(o, fld_strace_rseq_events, r);
	return o;
}

json_t *sd_summary_json(const struct slicedur *s)
{
	json_t *o = sd_counts_json(s), *h = hist_summary_json(&s->dur);

	/* count (the cancelled grants), min, mean, p50 ... p99_99, max */
	json_object_update(o, h);
	json_decref(h);
	res_set(o, fld_s_ext_hmean, json_real(sd_harmonic_mean(s)));
	return o;
}

const char *const sd_kind_names[SD_KINDS] = {
	[SD_START] = "hrtimer_start",	     [SD_CANCEL] = "hrtimer_cancel",
	[SD_EXPIRE] = "hrtimer_expire_entry", [SD_RSEQ_GRANT] = "rseq_slice_grant",
	[SD_RSEQ_EXPIRE] = "rseq_slice_expire", [SD_RSEQ_REVOKE] = "rseq_slice_revoke",
	[SD_RSEQ_YIELD] = "rseq_slice_yield",	[SD_RSEQ_ABORT] = "rseq_slice_abort",
};

/* Addresses as hex strings: a kernel address does not fit a JSON number
 * that every reader keeps exact (jansson's is signed 64-bit). */
json_t *sd_events_json(const struct sd_event *ev, size_t n)
{
	json_t *a = json_array();
	char tm[24], fn[24];

	for (size_t i = 0; i < n; i++) {
		snprintf(tm, sizeof(tm), "0x%llx", (unsigned long long)ev[i].timer);
		snprintf(fn, sizeof(fn), "0x%llx", (unsigned long long)ev[i].function);
		json_array_append_new(a, json_pack("[I,i,i,s,s,s]", (json_int_t)ev[i].ts,
						   ev[i].cpu, ev[i].pid, sd_kind_names[ev[i].kind],
						   tm, fn));
	}
	return a;
}

int sd_events_parse(const json_t *a, struct sd_event **ev, size_t *n, char *msg, size_t len)
{
	size_t i;
	const json_t *e;

	*n = json_array_size(a);
	*ev = calloc(*n ? *n : 1, sizeof(**ev));
	if (!*ev || !json_is_array(a)) {
		snprintf(msg, len, "events: %s", *ev ? "not an array" : "out of memory");
		return -1;
	}
	json_array_foreach(a, i, e) {
		json_int_t ts;
		int cpu, pid, k;
		const char *kind, *tm, *fn;
		json_error_t err;

		if (json_unpack_ex((json_t *)e, &err, JSON_STRICT, "[I,i,i,s,s,s]", &ts, &cpu, &pid,
				   &kind, &tm, &fn)) {
			snprintf(msg, len, "events[%zu]: %s", i, err.text);
			return -1;
		}
		for (k = 0; k < SD_KINDS && strcmp(sd_kind_names[k], kind); k++)
			;
		if (k == SD_KINDS) {
			snprintf(msg, len, "events[%zu]: unknown kind \"%s\"", i, kind);
			return -1;
		}
		(*ev)[i] = (struct sd_event){ .ts = (uint64_t)ts, .cpu = cpu, .pid = pid,
					      .kind = (enum sd_kind)k,
					      .timer = strtoull(tm, NULL, 16),
					      .function = strtoull(fn, NULL, 16) };
	}
	return 0;
}
