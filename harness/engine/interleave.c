/* interleave.c - a point's arms as live children taking turns.
 *
 * Each arm is forked once, calibrates and opens its traces, says ready and
 * then blocks on its go pipe; the parent gives it one byte per repetition
 * and waits for its answer before the next arm's turn.  Arms that are not
 * on their turn hold no threads (a repetition's threads end with it), so
 * only one arm loads the machine at a time, as without interleave.  Each
 * round visits the arms still wanting repetitions in a fresh order from
 * gsl_ran_shuffle (GSL manual, "Shuffling and Sampling").  The watchdog of
 * an arm (its timeout_s, or planned time + 30 s) is charged only during
 * its own turns, and an arm that crashes, hangs or is refused ends with its
 * reason while the rounds go on without it. */
#define _GNU_SOURCE
#include "interleave.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "aastop.h"
#include "gate.h"
#include "isolate.h"
#include "../core/keys.h"
#include "../lib/resset.h"
#include "../os/knobs.h"
#include "../os/signals.h"
#include "../os/reap.h"

struct il_order {
	gsl_rng *rng;
	unsigned long seed;
	size_t points;
};

struct il_arm {
	const struct cfg_run *run;
	size_t id;
	pid_t pid;
	int go, ack, out; /* the parent's ends */
	double limit;
	struct iso_watch w;
	json_t *res; /* set once the arm is over */
	/* An arm of an A/A check (check_margin_pct): its partner's index, -1
	 * none; the ops/s of its repetitions; whether its own rule is met. */
	long partner;
	int dry, own_done;
	double *vals;
	size_t nv;
	struct aa_plan plan;
	json_t *check;
};

struct il_order *il_new(unsigned long seed)
{
	struct il_order *o = calloc(1, sizeof(*o));

	if (!o || !(o->rng = gsl_rng_alloc(gsl_rng_mt19937))) {
		free(o);
		return NULL;
	}
	/* 0 asks for a fresh order; it is recorded, so the run can be redone. */
	o->seed = seed ? seed
		       : ((unsigned long)time(NULL) ^ (unsigned long)getpid() << 16) % 999999999 + 1;
	gsl_rng_set(o->rng, o->seed);
	return o;
}

void il_free(struct il_order *o)
{
	if (o)
		gsl_rng_free(o->rng);
	free(o);
}

json_t *il_meta(const struct il_order *o)
{
	return json_pack("{s:I,s:s}", "seed", (json_int_t)o->seed, "rng", gsl_rng_name(o->rng));
}

/* What makes runs one point: every run key but the selectors, and for a
 * program its own keys (its command and metric: which experiment it is). */
static char *point_key(const struct cfg_run *r)
{
	json_t *o = json_object(), *v;
	const char *k;

	json_object_foreach(r->params, k, v)
		if (!cfg_is_selector(k) && wl_point_key(r->ops, k))
			json_object_set(o, k, v);
	char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(o);
	return s;
}

static void close_ends(struct il_arm *a)
{
	if (a->go >= 0)
		close(a->go);
	if (a->ack >= 0)
		close(a->ack);
	a->go = a->ack = -1;
}

/* The arm is over (its last turn, its end, its watchdog or a signal): its
 * result, or the reason it has none. */
static void arm_finish(struct il_arm *a)
{
	/* Told before its go pipe closes: a stopped arm reports its windows
	 * (isolate.h), it does not take the closed pipe for a failure. */
	iso_stop(a->pid);
	close_ends(a);
	iso_watch_resume(&a->w);
	a->res = iso_collect(a->run, a->pid, a->out, &a->w, a->limit);
}

/* The arm's next answer, or 0 when it ended, its watchdog fired or a stop
 * signal came. */
static int arm_hear(struct il_arm *a)
{
	char c;

	iso_watch_resume(&a->w);
	if (iso_wait(&a->w, a->ack) > 0 && read(a->ack, &c, 1) == 1)
		return c;
	return 0;
}

/* The arm's answer to a turn (an il_answer, its ops/s kept), or
 * 0 when it ended, its watchdog fired or a stop signal came. */
static int arm_answer(struct il_arm *a)
{
	int c = arm_hear(a);
	double v;

	if (c != IL_MORE && c != IL_DONE && c != IL_LAST)
		return 0;
	/* Written in one write below PIPE_BUF with the answer byte. */
	if (read(a->ack, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	double *nv = realloc(a->vals, (a->nv + 1) * sizeof(*nv));

	if (!nv)
		abort();
	a->vals = nv;
	a->vals[a->nv++] = v;
	return c;
}

static void arm_spawn(struct il_arm *arms, size_t n, struct il_arm *a)
{
	int go[2], ack[2], out[2] = { -1, -1 };

	if (pipe2(go, O_CLOEXEC) || pipe2(ack, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		a->res = iso_status(a->run, "failed", strerror(errno));
		return; /* the parent runs out of descriptors: the suite ends soon */
	}
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();

	if (!pid) {
		/* The other arms' pipes are theirs: a copy here would keep
		 * their ends open. */
		for (size_t j = 0; j < n; j++)
			if (&arms[j] != a && arms[j].pid > 0 && !arms[j].res) {
				close_ends(&arms[j]);
				close(arms[j].out);
			}
		close(go[1]);
		close(ack[0]);
		close(out[0]);
		struct il_gate g = { go[0], ack[1] };

		iso_child(a->run, out[1], parent, &g);
	}
	close(go[0]);
	close(ack[1]);
	close(out[1]);
	a->go = go[1];
	a->ack = ack[0];
	a->out = out[0];
	if (pid < 0) {
		close_ends(a);
		close(a->out);
		a->res = iso_status(a->run, "failed", strerror(errno));
		return;
	}
	a->pid = pid;
	reap_track(pid);
	iso_watch_start(&a->w, a->limit);
	/* One at a time: the arms calibrate their busy loops on an idle
	 * machine, not beside each other. */
	if (arm_hear(a) != IL_READY)
		arm_finish(a);
}

/* No further turn: its check is decided (IL_STOP_CHECK), or its own rule
 * is met and no check holds it (IL_STOP_OWN). */
static void arm_stop(struct il_arm *a, char c)
{
	/* An arm that died between turns (EPIPE): arm_finish says so. */
	ssize_t w = write(a->go, &c, 1);

	(void)w;
	arm_finish(a);
}

/* The A/A checks of a point: each dry arm with check_margin_pct, of a
 * lock loop, with the real arm of its lock, policy and label. */
static void pair_arms(struct il_arm *arms, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		struct il_arm *a = &arms[j];
		a->partner = -1;
		aastop_plan(&a->run->p, &a->plan);
		a->dry = a->run->ops->dry;
	}
	for (size_t j = 0; j < n; j++) {
		struct il_arm *a = &arms[j];

		if (!a->dry || !a->plan.nlooks || a->run->ops->run || a->run->ops->measure)
			continue;
		for (size_t k = 0; k < n && a->partner < 0; k++) {
			struct il_arm *b = &arms[k];
			const char *la = a->run->label, *lb = b->run->label;

			if (b->dry || b->partner >= 0 || b->run->ops->lock != a->run->ops->lock ||
			    b->run->ops->policy != a->run->ops->policy ||
			    ((la || lb) && (!la || !lb || strcmp(la, lb))))
				continue;
			a->partner = (long)k;
			b->partner = (long)j;
		}
	}
}

static void check_set(struct il_arm *arms, struct il_arm *a, json_t *c, const char *by)
{
	struct il_arm *b = &arms[a->partner];

	json_object_set_new(c, "stopped_by", json_string(by));
	a->check = json_deep_copy(c);
	json_object_set_new(a->check, "partner", json_integer((json_int_t)b->id));
	b->check = c;
	json_object_set_new(b->check, "partner", json_integer((json_int_t)a->id));
}

/* After a round: a pair whose check is decided at a look stops; an arm
 * whose own rule is met stops unless its check still runs. */
static void checks_decide(struct il_arm *arms, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		struct il_arm *a = &arms[j], *b;
		int decided;

		if (a->res || !a->dry || a->partner < 0)
			continue;
		b = &arms[a->partner];
		if (b->res || a->nv != b->nv || !aastop_is_look(&a->plan, a->nv))
			continue;
		json_t *c = aastop_check(&a->plan, a->vals, b->vals, a->nv, &decided);

		if (!decided) {
			json_decref(c);
			continue;
		}
		check_set(arms, a, c, "check");
		arm_stop(a, IL_STOP_CHECK);
		arm_stop(b, IL_STOP_CHECK);
	}
	for (size_t j = 0; j < n; j++) {
		struct il_arm *a = &arms[j];

		if (!a->res && a->own_done && (a->partner < 0 || arms[a->partner].res))
			arm_stop(a, IL_STOP_OWN);
	}
}

/* A pair the looks left undecided: its check at the windows both have. */
static void checks_close(struct il_arm *arms, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		struct il_arm *a = &arms[j], *b;
		int decided;

		if (!a->dry || a->partner < 0 || a->check)
			continue;
		b = &arms[a->partner];
		size_t m = a->nv < b->nv ? a->nv : b->nv;

		if (m < 2)
			continue; /* no check: one arm never ran */
		json_t *c = aastop_check(&a->plan, a->vals, b->vals, m, &decided);

		check_set(arms, a, c,
			  m == a->plan.looks[a->plan.nlooks - 1] ? "maximum" : "an arm ended");
	}
}

/* One round: every arm still wanting repetitions, once, in a shuffled
 * order; the order as run ids. */
static json_t *round_run(struct il_order *o, struct il_arm *arms, size_t n, size_t *ord)
{
	json_t *ids = json_array();
	size_t m = 0;

	for (size_t j = 0; j < n; j++)
		if (!arms[j].res)
			ord[m++] = j;
	gsl_ran_shuffle(o->rng, ord, m, sizeof(*ord));
	for (size_t t = 0; t < m && !sig_pending(); t++) {
		struct il_arm *a = &arms[ord[t]];
		char go = IL_GO;
		int c;

		json_array_append_new(ids, json_integer((json_int_t)a->id));
		/* EPIPE (SIGPIPE is ignored): the arm died between turns. */
		c = write(a->go, &go, 1) == 1 ? arm_answer(a) : 0;
		if (c == IL_MORE || c == IL_DONE)
			a->own_done = c == IL_DONE;
		else if (c || !sig_pending())
			arm_finish(a);
		/* else a stop signal cut the wait for its answer: the arm is
		 * told to stop with the others and reports what it completed
		 * (interleave_point), never finished before it heard. */
	}
	return ids;
}

static void point_done(struct il_order *o, struct il_arm *arms, size_t n, json_t *rounds,
		       long in_force, json_t **done)
{
	json_t *ids = json_array();

	for (size_t j = 0; j < n; j++)
		json_array_append_new(ids, json_integer((json_int_t)arms[j].id));
	checks_close(arms, n);
	for (size_t j = 0; j < n; j++) {
		json_t *r = arms[j].res;

		knob_record(r, in_force);
		res_set(r, fld_r_interleave,
				    json_pack("{s:I,s:I,s:O,s:O,s:o*}", "seed", (json_int_t)o->seed,
					      "point", (json_int_t)o->points, "arms", ids,
					      "rounds", rounds, "check", arms[j].check));
		done[arms[j].id] = r;
		free(arms[j].vals);
	}
	json_decref(ids);
	o->points++;
}

/* The runs of s->runs[first]'s point not yet taken, from first on, into
 * idx; their count.  A workload that measures itself (primitives) has no
 * repetitions to interleave: it is a point alone.  A program's arms take
 * turns like a lock's. */
static size_t point_of(const struct cfg_suite *s, size_t first, const unsigned char *taken,
		       size_t *idx)
{
	const struct workload_ops *o0 = s->runs[first].ops;
	char *key = point_key(&s->runs[first]);
	size_t n = 0;

	if (!key)
		abort();
	for (size_t i = first; i < s->nruns && !(n && o0->measure); i++) {
		const struct cfg_run *r = &s->runs[i];
		char *k;

		if (taken[i] || (i > first && r->ops->measure))
			continue;
		if (!(k = point_key(r)))
			abort();
		if (!strcmp(k, key))
			idx[n++] = i;
		free(k);
	}
	free(key);
	return n;
}

size_t il_points(const struct cfg_suite *s)
{
	unsigned char *taken = calloc(s->nruns + 1, 1);
	size_t *idx = calloc(s->nruns + 1, sizeof(*idx)), np = 0;

	if (!taken || !idx)
		abort();
	for (size_t i = 0; i < s->nruns; i++) {
		if (taken[i])
			continue;
		for (size_t j = 0, n = point_of(s, i, taken, idx); j < n; j++)
			taken[idx[j]] = 1;
		np++;
	}
	free(taken);
	free(idx);
	return np;
}

void il_run_point(struct il_order *o, const struct cfg_suite *s, size_t first, json_t **done)
{
	const struct cfg_run *r0 = &s->runs[first];
	struct il_arm *arms = calloc(s->nruns - first, sizeof(*arms));
	size_t *ord = calloc(s->nruns - first, sizeof(*ord)), n;
	unsigned char *taken = calloc(s->nruns, 1);
	char why[320];

	if (!arms || !ord || !taken)
		abort();
	for (size_t i = 0; i < s->nruns; i++)
		taken[i] = !!done[i];
	n = point_of(s, first, taken, ord);
	free(taken);
	for (size_t j = 0; j < n; j++) {
		const struct cfg_run *r = &s->runs[ord[j]];

		arms[j] = (struct il_arm){ .run = r, .id = ord[j], .go = -1, .ack = -1, .out = -1,
					   .limit = iso_timeout_s(&r->p) };
	}
	pair_arms(arms, n);
	json_t *rounds = json_array();
	long in_force = -1;

	/* The arms of a point share its run keys, so its system settings. */
	if (knob_apply(r0->p.slice_ext_nsec, why, sizeof(why))) {
		for (size_t j = 0; j < n; j++)
			arms[j].res = iso_status(arms[j].run, "unsupported", why);
	} else {
		in_force = knob_slice_ext_nsec();
		for (size_t j = 0; j < n && !sig_pending(); j++)
			arm_spawn(arms, n, &arms[j]);
		for (;;) {
			size_t left = 0;

			for (size_t j = 0; j < n; j++)
				left += !arms[j].res;
			if (!left || sig_pending())
				break;
			json_array_append_new(rounds, round_run(o, arms, n, ord));
			checks_decide(arms, n);
		}
		/* Stopped by a signal: the arms still in flight are interrupted,
		 * each with the windows it completed; told all at once, they
		 * end together. */
		for (size_t j = 0; j < n; j++)
			if (!arms[j].res)
				iso_stop(arms[j].pid);
		for (size_t j = 0; j < n; j++)
			if (!arms[j].res)
				arms[j].res = arms[j].pid > 0 ? (arm_finish(&arms[j]), arms[j].res)
							      : iso_interrupted(arms[j].run);
		knob_restore();
	}
	point_done(o, arms, n, rounds, in_force, done);
	json_decref(rounds);
	free(arms);
	free(ord);
}
