/* slicedur.c - the grant-duration bookkeeping fed the slice-timer events a
 * guest recorded (tests/fixtures/slicetrace/, slice_trace: 2 windows of the
 * patched kernel), checked against a second, naive pairing written here;
 * then the same events edited into the cases a window may hold: a re-arm
 * without a cancel, an expiry, other timers' events, other tasks' grants.
 * Last, the tracefs session's reasons on this host. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/os/slicedur.h"
#include "../../harness/os/slicetrace.h"
#include "tap.h"

struct naive {
	uint64_t arms, count, expired, sum;
	double inv;
};

static int has(const int *tids, unsigned n, int pid)
{
	for (unsigned i = 0; i < n; i++)
		if (tids[i] == pid)
			return 1;
	return 0;
}

/* For every cancel or expiry of a timer, look back for that timer's last
 * arm: quadratic, and nothing shared with slicedur.c but the event type. */
static void naive_pair(const struct sd_event *ev, size_t n, uint64_t fn, const int *tids,
		       unsigned ntids, struct naive *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		if (ev[i].kind == SD_START && ev[i].function == fn && has(tids, ntids, ev[i].pid))
			o->arms++;
		if (ev[i].kind != SD_CANCEL && ev[i].kind != SD_EXPIRE)
			continue;
		for (size_t j = i; j-- > 0;) {
			if (ev[j].timer != ev[i].timer)
				continue;
			if (ev[j].kind == SD_START && ev[j].function == fn &&
			    has(tids, ntids, ev[j].pid)) {
				if (ev[i].kind == SD_EXPIRE) {
					o->expired++;
				} else {
					uint64_t d = ev[i].ts - ev[j].ts;

					o->count++;
					o->sum += d;
					o->inv += d ? 1.0 / (double)d : 0;
				}
			}
			break; /* the timer's previous event decides */
		}
	}
}

static void run(struct slicedur *s, const struct sd_event *ev, size_t n, uint64_t fn,
		const int *tids, unsigned ntids)
{
	sd_init(s, fn, tids, ntids);
	for (size_t i = 0; i < n; i++)
		sd_feed(s, &ev[i]);
	sd_finish(s);
}

struct window {
	struct sd_event *ev;
	size_t n;
	uint64_t fn;
	int tids[64];
	unsigned ntids;
	const json_t *rec; /* the counts the guest computed */
};

static int load(const char *path, size_t k, struct window *w)
{
	json_error_t err;
	json_t *d = json_load_file(path, 0, &err);
	char msg[256];

	if (!d) {
		printf("# %s: %s\n", path, err.text);
		return -1;
	}
	const json_t *res = json_array_get(json_object_get(d, "results"), 0);
	const json_t *st = json_object_get(json_array_get(json_object_get(res, "repetitions"), k),
					   "slice_trace");

	if (!st || sd_events_parse(json_object_get(st, "events"), &w->ev, &w->n, msg,
				   sizeof(msg))) {
		printf("# %s: window %zu: %s\n", path, k, st ? msg : "missing");
		return -1;
	}
	w->fn = strtoull(json_string_value(json_object_get(st, "function")), NULL, 16);
	w->ntids = 0;
	size_t i;
	const json_t *t;

	json_array_foreach(json_object_get(st, "tids"), i, t)
		if (w->ntids < 64)
			w->tids[w->ntids++] = (int)json_integer_value(t);
	w->rec = json_incref((json_t *)st);
	json_decref(d);
	return 0;
}

static void check_window(const char *name, struct window *w, int edits)
{
	struct slicedur s;
	struct naive nv;

	run(&s, w->ev, w->n, w->fn, w->tids, w->ntids);
	naive_pair(w->ev, w->n, w->fn, w->tids, w->ntids, &nv);
	CHECK(s.arms > 0, "%s: the recorded window has slice-timer arms (%llu)", name,
	      (unsigned long long)s.arms);
	CHECK(s.arms == nv.arms && s.dur.count == nv.count && s.expired == nv.expired,
	      "%s: arms, cancelled and expired match a naive pairing (%llu/%llu/%llu vs "
	      "%llu/%llu/%llu)",
	      name, (unsigned long long)s.arms, (unsigned long long)s.dur.count,
	      (unsigned long long)s.expired, (unsigned long long)nv.arms,
	      (unsigned long long)nv.count, (unsigned long long)nv.expired);
	CHECK(s.dur.sum == nv.sum, "%s: the durations add up to the naive sum (%llu vs %llu ns)",
	      name, (unsigned long long)s.dur.sum, (unsigned long long)nv.sum);
	double hm = nv.inv > 0 ? (double)nv.count / nv.inv : 0;

	CHECK(fabs(sd_harmonic_mean(&s) - hm) <= 1e-6 * hm,
	      "%s: harmonic mean %.1f ns = n / sum(1/d)", name, sd_harmonic_mean(&s));
	CHECK(s.dur.count + s.expired + s.rearmed + s.left_open <= s.arms,
	      "%s: every grant ends once at most", name);
	CHECK(json_integer_value(json_object_get(w->rec, "count")) == (json_int_t)s.dur.count &&
		      json_integer_value(json_object_get(w->rec, "expired")) ==
			      (json_int_t)s.expired,
	      "%s: the same counts as the guest's harness computed", name);

	/* Another timer's events, a copy of every slice-timer event moved to
	 * another address and callback, change nothing. */
	struct sd_event *two = calloc(2 * w->n, sizeof(*two));
	size_t m = 0;

	for (size_t i = 0; i < w->n; i++) {
		two[m++] = w->ev[i];
		two[m] = w->ev[i];
		two[m].timer ^= 0x40;
		if (two[m].function)
			two[m].function ^= 0x1000;
		m++;
	}
	struct slicedur o;

	run(&o, two, m, w->fn, w->tids, w->ntids);
	CHECK(o.arms == s.arms && o.dur.count == s.dur.count && o.dur.sum == s.dur.sum &&
		      o.expired == s.expired && !o.unmatched,
	      "%s: other timers' starts, cancels and expiries are ignored", name);

	/* Grants of tasks not in the run are counted apart. */
	int stranger = -1;

	run(&o, w->ev, w->n, w->fn, &stranger, 1);
	CHECK(!o.arms && !o.dur.count && o.other == s.arms + s.other,
	      "%s: another task's grants are not the run's (%llu other)", name,
	      (unsigned long long)o.other);
	if (!edits) {
		free(two);
		return;
	}
	/* Re-arm without cancel: drop the first cancel that ends a grant. */
	size_t c = 0;

	for (size_t i = 0; i < w->n; i++) {
		run(&o, w->ev, i + 1, w->fn, w->tids, w->ntids);
		if (w->ev[i].kind == SD_CANCEL && o.dur.count == 1) {
			c = i;
			break;
		}
	}
	m = 0;
	for (size_t i = 0; i < w->n; i++)
		if (i != c)
			two[m++] = w->ev[i];
	run(&o, two, m, w->fn, w->tids, w->ntids);
	int rearm_next = 0;

	for (size_t i = c + 1; i < w->n; i++)
		if (w->ev[i].timer == w->ev[c].timer) {
			rearm_next = w->ev[i].kind == SD_START;
			break;
		}
	CHECK(c && (rearm_next ? o.rearmed == s.rearmed + 1 : o.left_open == s.left_open + 1) &&
		      o.dur.count == s.dur.count - 1,
	      "%s: a grant whose cancel is lost is %s, not timed", name,
	      rearm_next ? "counted as re-armed" : "left open");

	/* The same cancel as an expiry of the slice timer. */
	memcpy(two, w->ev, w->n * sizeof(*two));
	two[c].kind = SD_EXPIRE;
	two[c].function = w->fn;
	run(&o, two, w->n, w->fn, w->tids, w->ntids);
	CHECK(o.expired == s.expired + 1 && o.dur.count == s.dur.count - 1,
	      "%s: an expiry ends the grant untimed (upstream's EXPIRED row)", name);

	free(two);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/fixtures/slicetrace";
	/* edits: the window has a timed grant to lose or turn into an expiry */
	static const struct {
		const char *file;
		int edits;
	} files[] = { { "slice-test-5us.json", 0 },
		      { "slice-test-50us.json", 1 },
		      { "slice-spin-200us.json", 1 } };
	char path[512];

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct window w;

		snprintf(path, sizeof(path), "%s/%s", dir, files[f].file);
		if (load(path, 0, &w)) {
			CHECK(0, "%s: a recorded window loads", files[f].file);
			continue;
		}
		check_window(files[f].file, &w, files[f].edits);
		free(w.ev);
		json_decref((json_t *)w.rec);
	}

	/* Bad input names the entry. */
	json_error_t err;
	json_t *bad = json_loads("[[1,0,5,\"hrtimer_start\",\"0x1\",\"0x2\"],"
				 "[2,0,5,\"hrtimer_restart\",\"0x1\",\"0x2\"]]",
				 0, &err);
	struct sd_event *ev;
	size_t n;
	char msg[256] = "";

	CHECK(sd_events_parse(bad, &ev, &n, msg, sizeof(msg)) &&
		      strstr(msg, "events[1]") && strstr(msg, "hrtimer_restart"),
	      "events: an unknown kind is named with its index (%s)", msg);
	free(ev);
	json_decref(bad);

	/* The session: off when not wanted, a reason where the kernel lacks it. */
	json_t *h, *o;
	struct slicetrace *t = slicetrace_open(0, "unit");

	o = slicetrace_summary(t, &h);
	CHECK(!strcmp(json_string_value(json_object_get(o, "status")), "skipped") && !h,
	      "session: not wanted is skipped, with a reason");
	json_decref(o);
	slicetrace_close(t);
	t = slicetrace_open(1, "unit");
	slicetrace_begin(t);
	json_t *win = slicetrace_end(t, NULL, 0);
	o = slicetrace_summary(t, &h);
	const char *st = json_string_value(json_object_get(o, "status"));
	const char *why = json_string_value(json_object_get(o, "reason"));

	if (!strcmp(st, "ok"))
		CHECK(win && json_is_integer(json_object_get(win, "arms")),
		      "session: this kernel has the slice timer: an empty window is counted");
	else
		CHECK(!strcmp(st, "unsupported") && why && *why && !win,
		      "session: unsupported here, with the reason: %s", why ? why : "(none)");
	json_decref(win);
	json_decref(o);
	json_decref(h);
	slicetrace_close(t);
	printf("%d failed\n", tap_failed);
	return tap_failed != 0;
}
